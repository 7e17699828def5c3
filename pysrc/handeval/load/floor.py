"""The floor of a Python grpc.aio server on this machine (``bench-load --server-kind
floor``, ``--sweep-floor``; benches/floor_server.py): handeval's methods answered at once,
parsing nothing (no thread pool, no conversion, no rules, no metrics, no logs), plus
health; on 127.0.0.1 only, until SIGTERM. So the cost handeval adds on top is the
difference.

    python -m handeval.load.floor PORT

The unary methods answer empty (a valid answer of any method with no results) and the
Tables stream echoes each message (an answer of the request's size), unless told
otherwise: ``answers`` (``{rpc: {request length: answer bytes}}``) gives each unary
request of that RPC and length a fixed, pre-serialized answer (handeval's own answer to
it, so both servers send the same bytes: benches/bench_wire.py; a length not in
``answers`` fails the call); ``sized`` answers every unary request and stream message
with as many bytes as its first four (big-endian) say (benches/bench_table_step.py: the
answers of a game step's size).
"""

from __future__ import annotations

import signal
import sys
from typing import Dict, Optional

from handeval.load import scenarios

#: The stream method's name (``handeval.load.table_wire.TABLES``).
TABLES = "Tables"


def sized_answer(data: bytes, blob: bytes) -> bytes:
    """The answer a ``sized`` floor gives ``data``: the length its first four bytes say."""
    return blob[: int.from_bytes(data[:4], "big")]


def serve_floor(port: int, answers: Optional[Dict[str, Dict[int, bytes]]] = None, sized: bool = False) -> int:
    import asyncio

    import grpc
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc

    empty = scenarios.empty_response()
    blob = bytes(1 << 20)

    def unary(by_len: Optional[Dict[int, bytes]]):
        async def answer(data: bytes, context) -> bytes:
            if sized:
                return sized_answer(data, blob)
            return empty if by_len is None else by_len[len(data)]

        return grpc.unary_unary_rpc_method_handler(answer)

    async def tables(requests, context):
        async for data in requests:
            yield sized_answer(data, blob) if sized else data

    table: Dict[str, Optional[Dict[int, bytes]]] = dict.fromkeys(scenarios.RPCS) if answers is None else {**answers}

    async def run():
        server = grpc.aio.server(
            options=[("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 64 << 20)]
        )
        handlers = {rpc: unary(by_len) for rpc, by_len in table.items()}
        handlers[TABLES] = grpc.stream_stream_rpc_method_handler(tables)
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(scenarios.SERVICE, handlers),))
        hs = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(hs, server)
        server.add_insecure_port(f"127.0.0.1:{port}")
        await server.start()
        await hs.set("", health_pb2.HealthCheckResponse.SERVING)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await server.stop(1)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 2:
        sys.exit(serve_floor(int(sys.argv[1])))
    if sys.argv[2:] == ["--sized"]:
        sys.exit(serve_floor(int(sys.argv[1]), sized=True))
    sys.exit("usage: python -m handeval.load.floor PORT [--sized]")
