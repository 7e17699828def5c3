"""The server's one JSON log writer (handeval.server.logs.log_event): every line handeval
writes is built by it, so each is one JSON object whose strings are escaped."""

import io
import json
import logging
import re
from pathlib import Path

from handeval.server.logs import RateLimitedHandler, log_event

SERVER = Path(__file__).resolve().parents[2] / "pysrc" / "handeval" / "server"


def test_no_module_builds_its_own_json_line():
    """No hand-made ``'{"event": ...%s'`` template and no ``json.dumps`` in a log call
    outside logs.py: a template does not escape a peer's text."""
    found = []
    for path in sorted(SERVER.glob("*.py")):
        if path.name == "logs.py":
            continue
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r"""log\.\w+\(\s*(?:'\{"event"|json\.dumps)""", text):
            found.append(f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}")
    assert not found, found


def test_a_peers_text_stays_one_escaped_line():
    stream = io.StringIO()
    handler = RateLimitedHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("handeval.server.test_logs")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        forged = 'x"\n2026-01-01 00:00:00 WARNING handeval.server {"event": "forged"}'
        log_event(logger, logging.WARNING, "unauthenticated", method=forged, n=3, ok=True, none=None)
    finally:
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1, lines
    assert json.loads(lines[0]) == {"event": "unauthenticated", "method": forged, "n": 3, "ok": True, "none": None}
