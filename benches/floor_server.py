"""The floor of a gRPC server in Python on this machine, for benches/bench_wire.py: a bare
grpc.aio server with handeval's service (the same protos: the same method paths) that
answers each call with a fixed, pre-serialized answer of the same bytes as handeval's
answer to that request. It parses nothing: the request's bytes are matched to their
answer by RPC and length (the bench sends one request shape per length), no metrics,
no logs, no thread pool. What handeval's server costs above it is its own cost.

    python benches/floor_server.py PORT ANSWERS

``ANSWERS``: a pickle of ``{rpc: {request length: answer bytes}}`` (written by the
bench from handeval's real answers). Serves health too; stops on SIGTERM.
"""

from __future__ import annotations

import asyncio
import pickle
import signal
import sys

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

SERVICE = "handeval.v2.Handeval"


def handler(answers: dict):
    async def answer(data: bytes, context) -> bytes:
        return answers[len(data)]

    return grpc.unary_unary_rpc_method_handler(answer, request_deserializer=None, response_serializer=None)


async def serve(port: int, answers: dict) -> None:
    server = grpc.aio.server(options=[("grpc.max_receive_message_length", 64 << 20),
                                      ("grpc.max_send_message_length", 64 << 20)])
    handlers = {rpc: handler(by_len) for rpc, by_len in answers.items()}
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, handlers),))
    hs = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(hs, server)
    server.add_insecure_port(f"127.0.0.1:{port}")
    await server.start()
    await hs.set("", health_pb2.HealthCheckResponse.SERVING)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await server.stop(1)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: python benches/floor_server.py PORT ANSWERS")
    with open(sys.argv[2], "rb") as f:
        asyncio.run(serve(int(sys.argv[1]), pickle.load(f)))
