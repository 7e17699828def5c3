"""The test harness shared by tests/, scripts/ and benches/: never shipped (the wheel
carries pysrc/ only). ``deck`` (the one test deck), ``process`` (child processes that
honour Ctrl-C), ``server`` (the one way to start ``handeval serve``), ``h2raw`` (HTTP/2
by hand) and ``attacks`` (the HTTP/2 slow-peer attacks). Tests import it as ``harness``
(pytest's ``pythonpath``); a script adds the checkout's root to ``sys.path`` first."""
