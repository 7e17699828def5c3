# Where the test command installs and runs (sourced by scripts/test.sh from the checkout's
# root): the active virtualenv; with none, the checkout's .venv when it exists (the one the
# README's first command made: the two commands share one environment, in any shell); else
# the Python that runs this when pip may install into it (CI's, a container's); else
# (Debian's and Ubuntu's system Python refuse, PEP 668 "externally-managed-environment")
# a new .venv. Everything after it runs that Python as python3.
if [ -z "${VIRTUAL_ENV:-}" ]; then
    if [ -x .venv/bin/python3 ]; then
        # shellcheck disable=SC1091
        . .venv/bin/activate
    elif python3 -c '
import sys, sysconfig, os
in_venv = sys.prefix != sys.base_prefix
managed = os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED"))
sys.exit(0 if managed and not in_venv else 1)'; then
        echo "scripts/test.sh: this Python is externally managed: making the virtualenv .venv"
        python3 -m venv .venv
        # shellcheck disable=SC1091
        . .venv/bin/activate
    fi
fi
