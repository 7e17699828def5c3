"""The README's first run: its two commands share one environment in any shell. The test
command (scripts/test.sh, through scripts/test_env.sh) uses the checkout's .venv that the
first command made when no virtualenv is active, not the Python on PATH."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _checkout(tmp_path: Path) -> Path:
    """A checkout with scripts/test_env.sh and a .venv whose activate script says so."""
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "test_env.sh", tmp_path / "scripts" / "test_env.sh")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python3").symlink_to(sys.executable)
    (bin_dir / "activate").write_text(f'export VIRTUAL_ENV="{tmp_path / ".venv"}"\nexport PATH="{bin_dir}:$PATH"\n')
    return tmp_path


def _chosen(checkout: Path, **env) -> str:
    base = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    p = subprocess.run(
        ["bash", "-c", '. scripts/test_env.sh && echo "${VIRTUAL_ENV:-none}"'],
        cwd=checkout,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 0, p.stderr
    return p.stdout.strip().splitlines()[-1]


def test_a_new_shell_uses_the_venv_the_first_command_made(tmp_path):
    checkout = _checkout(tmp_path)
    assert _chosen(checkout) == str(checkout / ".venv")


def test_an_active_virtualenv_wins(tmp_path):
    checkout = _checkout(tmp_path)
    assert _chosen(checkout, VIRTUAL_ENV="/elsewhere") == "/elsewhere"
