"""Entry of one supervised worker process: ``python -m handeval.server.worker <config json>``."""

import os
import sys

from handeval.server.app import run_worker
from handeval.server.config import ServerConfig

if __name__ == "__main__":
    sys.exit(run_worker(ServerConfig.from_json(sys.argv[1]), reuse_port=True,
                        metrics_dir=os.environ.get("PROMETHEUS_MULTIPROC_DIR")))
