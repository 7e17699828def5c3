"""``python -m handeval.load locustfile``: the path of the packaged locustfile (for
``locust -f``); ``python -m handeval.load ARGS``: the same as ``handeval bench-load ARGS``."""

import sys
from pathlib import Path

if sys.argv[1:] == ["locustfile"]:
    print(Path(__file__).with_name("locustfile.py"))
    sys.exit(0)

from handeval.load.run import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
