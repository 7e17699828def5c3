"""Locust load tests of the gRPC service (``handeval bench-load``, the packaged locustfile)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional


def source_checkout() -> Optional[Path]:
    """The root of the source checkout this package runs from (an editable install or
    ``PYTHONPATH=pysrc``), or None for an installed wheel."""
    root = Path(__file__).resolve().parents[3]
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "handeval"' in text else None


def install_hint(extra: str) -> str:
    """The command that installs an extra from where the user is: from a checkout its
    path (``pip install '.[load]'`` in it), else the installed distribution's name (pip
    keeps the installed handeval and adds the extra's packages)."""
    root = source_checkout()
    if root is None:
        return f"pip install 'handeval[{extra}]'"
    try:
        where = "." if Path(os.getcwd()).resolve() == root else str(root)
    except OSError:
        where = str(root)
    return f"pip install '{where}[{extra}]'"
