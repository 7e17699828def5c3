"""The floor of a gRPC server in Python on this machine, for benches/bench_wire.py: the
bare grpc.aio server of handeval's service (``handeval.load.floor.serve_floor``, the same
protos: the same method paths) answering each call with a fixed, pre-serialized answer of
the same bytes as handeval's answer to that request. It parses nothing: the request's
bytes are matched to their answer by RPC and length (the bench sends one request shape
per length), no metrics, no logs, no thread pool. What handeval's server costs above it
is its own cost.

    python benches/floor_server.py PORT ANSWERS

``ANSWERS``: a pickle of ``{rpc: {request length: answer bytes}}`` (written by the
bench from handeval's real answers). Serves health too; stops on SIGTERM.
"""

from __future__ import annotations

import pickle
import sys

from handeval.load.floor import serve_floor

if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python benches/floor_server.py PORT ANSWERS")
    with open(sys.argv[2], "rb") as f:
        sys.exit(serve_floor(int(sys.argv[1]), pickle.load(f)))
