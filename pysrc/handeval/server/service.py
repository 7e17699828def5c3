"""The ``handeval.v2.Handeval`` servicer: dispatch by RPC, limits, status codes, metrics and
one log line per call. The request's bytes go to the binding (``_core.wire_answer``),
which decodes them, answers in Rust and hands back the answer's bytes: no Python object
per item. Work is scheduled by its cost: a small request (at most :data:`INLINE_BYTES`,
not an Arrange, asking no suggestion), or one whose shape the binding prices at most :data:`INLINE_SECONDS` of
work (``_core.wire_inline``: 十三水 Evaluate of card-string rows and packed rows), runs
inline on the event loop, where the hop to a thread would cost more than the work;
anything else runs in the thread pool with the GIL released, and stops at its next check
when the deadline passes or the client cancels."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Tuple

import grpc

from handeval import _core
from handeval.server import metrics, scheduler
from handeval.server.config import ServerConfig
from handeval.server.logs import cut, log_event
from handeval.server.status import abort_bad_request
from handeval.server.tables import TablesStreams
from handeval.v2 import handeval_pb2 as pb, handeval_pb2_grpc

log = logging.getLogger("handeval.server")

#: The request message of each RPC (the service's methods).
REQUESTS: Dict[str, Any] = {
    "Evaluate": pb.EvaluateRequest,
    "Compare": pb.CompareRequest,
    "Settle": pb.SettleRequest,
    "Arrange": pb.ArrangeRequest,
}


class ResponseTooLarge(Exception):
    """The answer is larger than --max-message-bytes → RESOURCE_EXHAUSTED (gRPC would
    fail the send with a traceback in the log)."""


def add_to_server(service, server, admission) -> None:
    """Register the servicer like ``add_HandevalServicer_to_server`` does, but the
    servicer gets the request's bytes (decoded in Rust; bad bytes are INVALID_ARGUMENT,
    where a raising deserializer would make gRPC answer UNKNOWN) and returns the answer's
    bytes (so their size can be checked); ``admission`` (admission.Admission) reads the
    request within --max-request-wait and bounds the calls per peer."""
    handlers = {
        rpc: grpc.stream_unary_rpc_method_handler(
            admission.unary(getattr(service, rpc), REQUESTS[rpc].DESCRIPTOR.full_name),
            request_deserializer=None,
            response_serializer=None,
        )
        for rpc in REQUESTS
    }
    handlers["Tables"] = grpc.stream_stream_rpc_method_handler(
        admission.tables(service.tables.serve), request_deserializer=None, response_serializer=None
    )
    name = pb.DESCRIPTOR.services_by_name["Handeval"].full_name
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, handlers),))


#: Requests of at most this many bytes (not Arrange, asking no suggestion) are answered
#: inline on the event loop (``_core.wire_inline`` says which; the bound is the binding's).
INLINE_BYTES = _core.WIRE_INLINE_BYTES

#: A larger request runs inline too when ``_core.wire_inline`` prices its work at most
#: this many seconds from its shape (e.g. 1,000 card-string rows or 100,000 packed rows,
#: ~0.6 ms): the hop to a thread and back costs a few hundred µs of CPU, as much as
#: such a request's work.
INLINE_SECONDS = 1e-3


#: Longest description the server logs (a message quoting several cut values).
MESSAGE_CHARS = 1024


class ShutdownGate:
    """Holds Handeval calls that arrive once the shutdown has begun, and lets them run once
    gRPC has stopped accepting (GOAWAY sent): they get the grace like calls in flight.

    Why: gRPC's ``server.stop(grace)`` gives the grace only to calls the server has already
    taken up; a call still arriving (queued in gRPC's core, or sent before the client saw
    the GOAWAY) is answered CANCELLED at once (grpc/grpc#41785). So the server keeps
    accepting until its calls in flight are done and no call has arrived for a moment; a
    caller whose call is held sends nothing more, so when gRPC then stops, no call is
    left arriving (see ``serve_async``).

    Checked at the start of the servicer's own call path (one attribute test while
    serving), not as a ``grpc.aio.ServerInterceptor``: a Python interceptor runs on every
    call and costs more server CPU than the servicer's own work for a small call."""

    def __init__(self):
        self.closed = False  # set by serve_async on SIGTERM
        self.released = asyncio.Event()
        self.held = 0
        self.arrived = 0

    async def hold(self) -> None:
        self.arrived += 1
        self.held += 1
        try:
            await self.released.wait()
        finally:
            self.held -= 1


class HandevalService(handeval_pb2_grpc.HandevalServicer):
    def __init__(self, config: ServerConfig, executor: ThreadPoolExecutor):
        self.config = config
        self.executor = executor
        #: Turns on the compute threads: pooled calls compute in turns (see scheduler.py).
        self.turns = scheduler.turns(config)
        self.inflight = 0
        self.gate = ShutdownGate()
        # (rpc, game) -> the metric children (label lookups are not free)
        self._metrics: Dict[Tuple[str, str], Any] = {}
        #: The Tables streams (tables.py), in the same turns and pool as the calls.
        self.tables = TablesStreams(config, executor, self.turns, self.gate, self._observe, abort_bad_request, log)

    async def Evaluate(self, request, context):
        return await self._call("Evaluate", request, context)

    async def Compare(self, request, context):
        return await self._call("Compare", request, context)

    async def Settle(self, request, context):
        return await self._call("Settle", request, context)

    async def Arrange(self, request, context):
        return await self._call("Arrange", request, context)

    def _answer(self, rpc: str, data: bytes, call, detach: bool):
        try:
            out = _core.wire_answer(
                rpc,
                data,
                call,
                self.config.max_batch,
                self.config.max_samples,
                detach,
                self.config.max_request_work,
                self.turns if detach else None,
            )
        except _core.WireError as e:
            if e.code != "INVALID_ARGUMENT":
                # Logged here, where the work stops: when gRPC has cancelled the call at
                # its deadline, nobody awaits this answer any more.
                log_event(log, logging.WARNING, "stopped", rpc=rpc, game=call.game, code=e.code, message=str(e))
            raise
        if len(out) > self.config.max_message_bytes:
            raise ResponseTooLarge(
                f"the answer is {len(out)} bytes, more than the server's --max-message-bytes "
                f"({self.config.max_message_bytes}): split the batch"
            )
        return out

    async def _call(self, rpc: str, data: bytes, context):
        if self.gate.closed:  # shutting down: held, not counted in flight (see ShutdownGate)
            await self.gate.hold()
        start = time.perf_counter()
        call = _core.WireCall(context.time_remaining())
        code = "OK"
        out = None
        self.inflight += 1
        gauged = False
        try:
            if _core.wire_inline(rpc, data, INLINE_SECONDS):
                out = self._answer(rpc, data, call, False)
            else:
                metrics.INFLIGHT.inc()
                gauged = True
                work = self.executor.submit(self._answer, rpc, data, call, True)
                try:
                    out = await asyncio.wrap_future(work)
                except asyncio.CancelledError:
                    call.cancel()  # the worker thread stops at its next check
                    if work.cancel():  # still queued: it never runs, so the stop is logged here
                        log_event(
                            log,
                            logging.WARNING,
                            "stopped",
                            rpc=rpc,
                            game=call.game,
                            code="CANCELLED",
                            message="the call was cancelled; stopped before its work began",
                        )
                    # The call stays in flight until its work stops (a large request's
                    # decoding runs to its end before the first check).
                    gauged = False
                    work.add_done_callback(lambda _: metrics.INFLIGHT.dec())
                    raise
            return out
        except _core.WireError as e:
            code = e.code
            if code == "INVALID_ARGUMENT":
                self._warn(rpc, call.game, call.items, code, str(e), context)
                await abort_bad_request(context, e.field, e.description, e.reason)
            await context.abort(getattr(grpc.StatusCode, code), str(e))
        except ResponseTooLarge as e:
            code = "RESOURCE_EXHAUSTED"
            self._warn(rpc, call.game, call.items, code, str(e), context)
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(e))
        except asyncio.CancelledError:
            code = call.cancelled or "CANCELLED"
            raise
        except Exception:
            code = "INTERNAL"
            incident = uuid.uuid4().hex[:12]
            log.exception("internal error %s in %s/%s", incident, rpc, call.game)
            await context.abort(grpc.StatusCode.INTERNAL, f"internal error (incident {incident}, see the server log)")
        finally:
            self.inflight -= 1
            if gauged:
                metrics.INFLIGHT.dec()
            elapsed = time.perf_counter() - start
            self._observe(rpc, call.game or "none", code, elapsed, call.items, call.item_errors)
            if log.isEnabledFor(logging.DEBUG):
                log_event(
                    log,
                    logging.DEBUG,
                    "call",
                    rpc=rpc,
                    game=call.game,
                    items=call.items,
                    item_errors=call.item_errors,
                    code=code,
                    ms=round(elapsed * 1000, 3),
                    peer=context.peer(),
                )

    def _observe(self, rpc, game, code, elapsed, items, item_errors):
        key = (rpc, game)
        m = self._metrics.get(key)
        if m is None:
            m = self._metrics[key] = (
                metrics.LATENCY.labels(rpc, game),
                metrics.ITEMS.labels(rpc, game),
                metrics.ITEM_ERRORS.labels(rpc, game),
                {},
            )
        latency, batch_items, errors, by_code = m
        requests = by_code.get(code)
        if requests is None:
            requests = by_code[code] = metrics.REQUESTS.labels(rpc, game, code)
        requests.inc()
        latency.observe(elapsed)
        batch_items.observe(items)
        if item_errors:
            errors.inc(item_errors)

    @staticmethod
    def _warn(rpc, game, items, code, message, context):
        log_event(
            log,
            logging.WARNING,
            "error",
            rpc=rpc,
            game=game,
            items=items,
            code=code,
            message=cut(message, MESSAGE_CHARS),
            peer=context.peer(),
        )
