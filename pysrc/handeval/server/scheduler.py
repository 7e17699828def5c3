"""Fair scheduling of the pooled calls' work.

Each pooled call runs on a thread of its own (so no call queues behind another's thread),
but only ``--threads`` of them compute at once: the work takes a turn (``_core.WireTurns``)
before it starts and, at each of its checks (every few items, between the chunks of a long
item), passes it on once it has held it for :data:`QUANTUM_S` while another call waits.
The next turn goes to the waiting call served least so far, so a small call waits about
one quantum behind any number of huge ones, and the huge ones share the rest in turn.
A waiting call still stops at once when cancelled or past its deadline.
"""

from __future__ import annotations

import os

from handeval import _core

#: How long a call computes before it passes its turn to a waiting one (the chunk a small
#: call may wait behind): short against a client's latency, long against the ~µs a pass
#: costs.
QUANTUM_S = 0.005

#: Threads for pooled calls when ``--max-concurrent-rpcs`` is 0 (no limit): a call beyond
#: them queues first come first served.
UNLIMITED_CALL_THREADS = 1024


def compute_threads(config) -> int:
    """Calls computing at once: ``--threads``, or the CPU count."""
    return config.threads or os.cpu_count() or 1


def call_threads(config) -> int:
    """Threads of the pool that runs pooled calls: one per call the server takes at once
    (threads are started as calls need them), so a call never waits for another's thread,
    only for a turn."""
    return max(compute_threads(config), config.max_concurrent_rpcs or UNLIMITED_CALL_THREADS)


def turns(config) -> _core.WireTurns:
    """The turns of one server process."""
    return _core.WireTurns(compute_threads(config), QUANTUM_S)
