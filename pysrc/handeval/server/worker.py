"""Entry of one supervised worker process: ``python -m handeval.server.worker FD``.

The supervisor writes the config (JSON, token included) into a pipe whose read end this
process inherits as descriptor FD: a secret on the command line would be readable by
every user of the machine (``ps``, ``/proc/PID/cmdline``). A worker whose supervisor
is gone shuts down (app._watch_parent)."""

import os
import sys

from handeval.server.app import run_worker
from handeval.server.config import ServerConfig


def read_config(fd: int) -> ServerConfig:
    with os.fdopen(fd, "r", encoding="utf-8") as f:
        return ServerConfig.from_json(f.read())


if __name__ == "__main__":
    sys.exit(
        run_worker(
            read_config(int(sys.argv[1])),
            reuse_port=True,
            metrics_dir=os.environ.get("PROMETHEUS_MULTIPROC_DIR"),
            parent_pid=os.getppid(),
        )
    )
