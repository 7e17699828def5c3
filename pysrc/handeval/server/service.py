"""The ``handeval.v1.Handeval`` servicer: dispatch by RPC and game, limits, status codes,
metrics and one log line per call. The conversion work runs in a thread pool so a large
batch never blocks the event loop (the Rust calls release the GIL)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from handeval.server import common, metrics
from handeval.server import dachu, shisanshui, tienlen
from handeval.server.config import ServerConfig
from handeval.v1 import handeval_pb2 as pb, handeval_pb2_grpc

log = logging.getLogger("handeval.server")

GAMES = {"shisanshui": shisanshui, "tienlen": tienlen, "dachu": dachu}
RESPONSES = {
    "Evaluate": pb.EvaluateResponse, "Compare": pb.CompareResponse,
    "Settle": pb.SettleResponse, "Arrange": pb.ArrangeResponse,
}
REQUESTS = {
    "Evaluate": pb.EvaluateRequest, "Compare": pb.CompareRequest,
    "Settle": pb.SettleRequest, "Arrange": pb.ArrangeRequest,
}


class Undecodable:
    """Request bytes that do not parse as the RPC's message (corrupt wire format, nesting
    deeper than protobuf's limit). gRPC would answer UNKNOWN for a deserializer that
    raises; handing this to the servicer lets it answer INVALID_ARGUMENT."""

    def __init__(self, type_name: str, error: str):
        self.type_name = type_name
        self.error = error

    def WhichOneof(self, _name):
        return None


def _deserializer(cls):
    def parse(data: bytes):
        try:
            return cls.FromString(data)
        except Exception as e:  # DecodeError, RecursionError
            return Undecodable(cls.DESCRIPTOR.full_name, str(e) or type(e).__name__)

    return parse


class ResponseTooLarge(Exception):
    """The answer is larger than --max-message-bytes → RESOURCE_EXHAUSTED (gRPC would
    fail the send with a traceback in the log)."""


def add_to_server(service, server) -> None:
    """Register the servicer like ``add_HandevalServicer_to_server`` does, but with
    deserializers that never raise (see :class:`Undecodable`) and responses that the
    servicer serializes itself, in its worker thread (so their size can be checked)."""
    handlers = {
        rpc: grpc.unary_unary_rpc_method_handler(
            getattr(service, rpc), request_deserializer=_deserializer(cls), response_serializer=None)
        for rpc, cls in REQUESTS.items()
    }
    name = pb.DESCRIPTOR.services_by_name["Handeval"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))


def _batch_len(sub) -> int:
    for name in ("items", "deals"):
        if name in sub.DESCRIPTOR.fields_by_name:
            return len(getattr(sub, name))
    return 0


def _packed_rows(sub) -> int:
    """Rows sent on the packed bulk path (十三水 Evaluate): bounded by the message size,
    not by --max-batch, but counted as items in the metrics and the call log."""
    if "packed_rows" not in sub.DESCRIPTOR.fields_by_name:
        return 0
    return len(sub.packed_rows) // (sub.row_size or 5)


def _batch_field(sub) -> str:
    return "items" if "items" in sub.DESCRIPTOR.fields_by_name else "deals"


async def abort_bad_request(context, field: str, message: str):
    """INVALID_ARGUMENT with a google.rpc.BadRequest detail naming ``field``."""
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]
    ))
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=f"{field}: {message}" if field else message,
                               details=[detail])
    await context.abort(
        grpc.StatusCode.INVALID_ARGUMENT, status.message,
        trailing_metadata=(("grpc-status-details-bin", status.SerializeToString()),),
    )


class HandevalService(handeval_pb2_grpc.HandevalServicer):
    def __init__(self, config: ServerConfig, executor: ThreadPoolExecutor):
        self.config = config
        self.executor = executor
        self.inflight = 0

    async def Evaluate(self, request, context):
        return await self._call("Evaluate", request, context)

    async def Compare(self, request, context):
        return await self._call("Compare", request, context)

    async def Settle(self, request, context):
        return await self._call("Settle", request, context)

    async def Arrange(self, request, context):
        return await self._call("Arrange", request, context)

    async def _call(self, rpc: str, request, context):
        start = time.perf_counter()
        game = request.WhichOneof("game") or ""
        items = 0
        code = "OK"
        batch = common.Batch(None)
        self.inflight += 1
        metrics.INFLIGHT.inc()
        try:
            if isinstance(request, Undecodable):
                raise common.BadRequest("", f"the request is not a valid {request.type_name}: {request.error}")
            if not game:
                choices = ", ".join(f.name for f in request.DESCRIPTOR.oneofs_by_name["game"].fields)
                raise common.BadRequest("game", f"set one of {choices}")
            handler = getattr(GAMES[game], rpc.lower(), None)
            if handler is None:
                raise common.Unimplemented(f"{rpc} is not available for {game}")
            sub = getattr(request, game)
            items = _batch_len(sub)
            if items > self.config.max_batch:
                raise common.BadRequest(
                    f"{game}.{_batch_field(sub)}",
                    f"{items} {_batch_field(sub)} exceed the limit of {self.config.max_batch} per request "
                    "(split the batch; the server's --max-batch)")
            items += _packed_rows(sub)
            remaining = context.time_remaining()
            if remaining is not None:
                batch.deadline = time.monotonic() + remaining
            loop = asyncio.get_running_loop()

            def run() -> bytes:
                data = RESPONSES[rpc](**{game: handler(sub, batch)}).SerializeToString()
                if len(data) > self.config.max_message_bytes:
                    raise ResponseTooLarge(
                        f"the answer is {len(data)} bytes, more than the server's --max-message-bytes "
                        f"({self.config.max_message_bytes}): split the batch")
                return data

            return await loop.run_in_executor(self.executor, run)
        except common.BadRequest as e:
            code = "INVALID_ARGUMENT"
            self._warn(rpc, game, items, code, str(e), context)
            await abort_bad_request(context, e.field, e.description)
        except common.Unimplemented as e:
            code = "UNIMPLEMENTED"
            self._warn(rpc, game, items, code, str(e), context)
            await context.abort(grpc.StatusCode.UNIMPLEMENTED, str(e))
        except ResponseTooLarge as e:
            code = "RESOURCE_EXHAUSTED"
            self._warn(rpc, game, items, code, str(e), context)
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e))
        except common.DeadlineExceeded as e:
            code = "DEADLINE_EXCEEDED"
            self._warn(rpc, game, items, code, str(e), context)
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, str(e))
        except asyncio.CancelledError:
            code = "CANCELLED"
            raise
        except Exception:
            code = "INTERNAL"
            incident = uuid.uuid4().hex[:12]
            log.exception("internal error %s in %s/%s", incident, rpc, game)
            await context.abort(grpc.StatusCode.INTERNAL, f"internal error (incident {incident}, see the server log)")
        finally:
            self.inflight -= 1
            elapsed = time.perf_counter() - start
            metrics.INFLIGHT.dec()
            labels = (rpc, game or "none")
            metrics.REQUESTS.labels(*labels, code).inc()
            metrics.LATENCY.labels(*labels).observe(elapsed)
            metrics.ITEMS.labels(*labels).observe(items)
            if batch.item_errors:
                metrics.ITEM_ERRORS.labels(*labels).inc(batch.item_errors)
            if log.isEnabledFor(logging.DEBUG):
                log.debug(json.dumps({
                    "event": "call", "rpc": rpc, "game": game, "items": items,
                    "item_errors": batch.item_errors, "code": code,
                    "ms": round(elapsed * 1000, 3), "peer": context.peer(),
                }))

    @staticmethod
    def _warn(rpc, game, items, code, message, context):
        log.warning(json.dumps({
            "event": "error", "rpc": rpc, "game": game, "items": items, "code": code,
            "message": message, "peer": context.peer(),
        }, ensure_ascii=False))
