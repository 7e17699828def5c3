"""Child processes that Ctrl-C (SIGINT) reaches as it reaches a program started from a
terminal, even when this process ignores SIGINT: a job started in the background by a
non-interactive shell (``bash scripts/test.sh &``, CI runners, nohup) ignores it, and a
child inherits an ignored signal across exec, so Python would not even install its
KeyboardInterrupt handler there."""

from __future__ import annotations

import signal
import subprocess


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interruptible(cmd, **kwargs) -> subprocess.Popen:
    """``subprocess.Popen(cmd, **kwargs)`` whose child starts with SIGINT at its default
    (Python in it then raises KeyboardInterrupt on SIGINT)."""
    return subprocess.Popen(cmd, preexec_fn=_default_sigint, **kwargs)


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux /proc), or NaN when unavailable."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")
