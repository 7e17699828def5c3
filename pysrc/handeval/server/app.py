"""One server process: a grpc.aio server with the Handeval service, health, reflection,
optional TLS and token check, connection limits, and graceful shutdown on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2_grpc

from handeval.server.admission import Admission, HandlerCapture, add_wrapped
from handeval.server.allocator import bound_memory
from handeval.server.auth import TokenInterceptor, server_credentials
from handeval.server.config import ServerConfig
from handeval.server.janitor import ConnectionJanitor, close_peer, janitor_supported, open_connections
from handeval.server.logs import log_event, log_report, route_native_stderr, setup_logging
from handeval.server.scheduler import call_threads
from handeval.server.service import HandevalService, add_to_server
from handeval.server.startup import EXIT_STARTUP, StartupError, check_port_free, exposure_gaps
from handeval.server.transport import connection_limit, server_options
from handeval.v2 import handeval_pb2

log = logging.getLogger("handeval.server")

SERVICE_NAME = handeval_pb2.DESCRIPTOR.services_by_name["Handeval"].full_name
#: On SIGTERM the server accepts until no call has arrived for this long (and the calls
#: in flight are done), so that calls queued inside gRPC reach the gate, not its stop.
ARRIVAL_QUIET_S = 0.1
#: ... but for at most this long: a call arriving then is held no longer than this
#: (not until its deadline), and later ones find the GOAWAY.
ARRIVAL_MAX_S = 0.5
#: After gRPC stopped accepting, the held calls wait this long more, so that the GOAWAY
#: is on the wire before their answers: a client then sends its next call elsewhere, not
#: on the closing connection (where it would be CANCELLED).
GOAWAY_SETTLE_S = 0.1
#: How often a supervised worker checks that its supervisor is alive.
PARENT_CHECK_S = 0.5
#: After the stop, how long the tasks and the compute threads of cancelled calls are
#: waited for (each).
THREADS_JOIN_S = 1.0


def exposure_warnings(config: ServerConfig):
    """What is missing for a server reachable beyond this machine (it starts so only
    with --insecure-remote)."""
    return exposure_gaps(config.host, bool(config.tls_cert), bool(config.token or config.tls_client_ca))


async def _watch_parent(parent_pid: int, stopping: asyncio.Event) -> None:
    """A supervised worker shuts down (gracefully) when its supervisor is gone, e.g.
    SIGKILLed: else it would serve on, orphaned and unsupervised."""
    while os.getppid() == parent_pid:
        await asyncio.sleep(PARENT_CHECK_S)
    log_event(log, logging.WARNING, "supervisor_gone", supervisor_pid=parent_pid)
    stopping.set()


#: The request message type of each health and reflection method (named in the
#: INVALID_ARGUMENT of bytes that are none).
STANDARD_MESSAGES = {
    "Check": "grpc.health.v1.HealthCheckRequest",
    "Watch": "grpc.health.v1.HealthCheckRequest",
    "ServerReflectionInfo": "grpc.reflection.v1alpha.ServerReflectionRequest",
}


@dataclass
class _Server:
    """One process's server, built by :func:`_build`, its port not yet listening."""

    server: grpc.aio.Server
    service: HandevalService
    executor: ThreadPoolExecutor
    health: health.aio.HealthServicer
    admission: Admission
    #: the ports it listens on (filled by :func:`_listen`; admission's close_peer reads it)
    ports: set
    janitor_on: bool
    max_connections: int


def _build(config: ServerConfig, reuse_port: bool) -> _Server:
    """The grpc.aio server with the Handeval service, health and reflection, every handler
    wrapped by admission."""
    # A thread per pooled call (they compute in turns, --threads at once: scheduler.py).
    executor = ThreadPoolExecutor(max_workers=call_threads(config), thread_name_prefix="handeval")
    max_connections = connection_limit(config)
    server = grpc.aio.server(
        # No interceptor unless a token is configured: a Python aio interceptor runs on
        # every call (the shutdown gate is in the servicer's call path, see ShutdownGate).
        interceptors=[TokenInterceptor(config.token)] if config.token else None,
        # --max-concurrent-rpcs is admission's (a call's slot is free once its answer is
        # handed to gRPC, and Watch streams take none), not gRPC's maximum_concurrent_rpcs
        # (which holds the slot until the answer is on the wire, however long the client
        # leaves it unread).
        maximum_concurrent_rpcs=None,
        options=server_options(config, reuse_port, max_connections),
    )
    service = HandevalService(config, executor)
    janitor_on = config.max_first_call_wait > 0 and janitor_supported()
    ports: set = set()
    admission = Admission(
        config.max_request_wait,
        config.max_calls_per_peer,
        track_connections=janitor_on,
        max_calls=config.max_concurrent_rpcs,
        max_watch_streams=config.max_watch_streams,
        max_unread_answer_bytes=config.unread_answer_bound,
        close_peer=(lambda address: close_peer(ports, address)) if janitor_supported() else None,
        max_table_streams=config.max_table_streams,
    )
    # the generated registration, but bad bytes → INVALID_ARGUMENT, and every handler
    # starts at the call's headers and reads its request within --max-request-wait
    add_to_server(service, server, admission)
    health_servicer = health.aio.HealthServicer()
    standard = HandlerCapture()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, standard)
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server(
        reflection.aio.ReflectionServicer((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME)), standard
    )
    add_wrapped(server, admission, standard.services, STANDARD_MESSAGES)
    return _Server(server, service, executor, health_servicer, admission, ports, janitor_on, max_connections)


async def _listen(s: _Server, config: ServerConfig, metrics_port) -> int:
    """Listens, starts serving (health SERVING) and logs ``serving``; the port."""
    address = f"{config.host}:{config.port}"
    creds = server_credentials(config)
    try:
        port = s.server.add_secure_port(address, creds) if creds else s.server.add_insecure_port(address)
    except RuntimeError as e:  # raced with another process after check_port_free
        raise StartupError(f"gRPC cannot listen on {address} (--host, --port): {e}") from None
    s.ports.add(port)
    if s.janitor_on:
        # the janitor's first look, in the loop's default executor: its thread starts
        # now, not later while serving
        await asyncio.get_running_loop().run_in_executor(None, open_connections, {port})
    await s.server.start()
    for name in ("", SERVICE_NAME):
        await s.health.set(name, health_pb2.HealthCheckResponse.SERVING)
    for what in exposure_warnings(config):
        log_event(log, logging.WARNING, "exposed", host=config.host, warning=f"listening beyond loopback {what}")
    log_event(
        log,
        logging.INFO,
        "serving",
        address=f"{config.host}:{port}",
        metrics_port=metrics_port,
        tls=creds is not None,
        mutual_tls=bool(config.tls_client_ca),
        token=bool(config.token),
        threads=config.threads or os.cpu_count() or 1,
        max_connections=s.max_connections,
    )
    return port


async def _drain(s: _Server, config: ServerConfig) -> int:
    """The graceful stop (health NOT_SERVING, the shutdown delay, GOAWAY, the grace): the
    number of calls held at the gate."""
    loop = asyncio.get_running_loop()
    gate = s.service.gate
    log_event(log, logging.INFO, "shutdown", inflight=s.service.inflight, grace_s=config.grace)
    await s.health.enter_graceful_shutdown()  # every service NOT_SERVING
    if config.shutdown_delay > 0:
        await asyncio.sleep(config.shutdown_delay)  # still serving: load balancers move away
    # Calls in flight finish; calls arriving now wait at the gate, and their callers send
    # nothing more. Then gRPC stops accepting (GOAWAY) and the held calls run, all within
    # the grace (see service.ShutdownGate).
    gate.closed = True
    start = loop.time()
    deadline = start + config.grace
    # Accept until no call has arrived for a moment (calls queued inside gRPC reach the
    # gate meanwhile), but for at most ARRIVAL_MAX_S (and half the grace): then GOAWAY,
    # and a client's next call goes elsewhere (UNAVAILABLE at once on this connection,
    # retried by the documented policy). Calls in flight do not hold the GOAWAY back:
    # they run on, within the grace.
    last = -1
    quiet_since = start
    while loop.time() < start + min(config.grace / 2, ARRIVAL_MAX_S):
        if gate.arrived != last:
            last, quiet_since = gate.arrived, loop.time()
        elif loop.time() - quiet_since >= ARRIVAL_QUIET_S:
            break
        await asyncio.sleep(0.01)
    held = gate.held
    stop = asyncio.ensure_future(s.server.stop(max(0.0, deadline - loop.time())))
    await asyncio.sleep(GOAWAY_SETTLE_S)
    # From here a new call is refused (UNAVAILABLE): the line an operator (or a test)
    # waits for.
    log_event(log, logging.INFO, "goaway", held=held)
    gate.released.set()
    await stop
    return held


async def _join_threads(executor: ThreadPoolExecutor) -> bool:
    """Whether the compute threads ended. Calls cancelled at the end of the grace: their
    tasks see the cancellation (else asyncio.run cancels them, and gRPC logs each with a
    traceback). Their compute threads may still run the batch: waited for briefly, then
    left (run_worker exits without joining them)."""
    others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    if others:
        await asyncio.wait(others, timeout=THREADS_JOIN_S)
    waiter = threading.Thread(target=executor.shutdown, kwargs={"wait": True, "cancel_futures": True}, daemon=True)
    waiter.start()
    await asyncio.get_running_loop().run_in_executor(None, waiter.join, THREADS_JOIN_S)
    return not waiter.is_alive()


async def serve_async(config: ServerConfig, reuse_port: bool = False, metrics_port=None, parent_pid=None) -> bool:
    """Serve until SIGTERM/SIGINT (or, given ``parent_pid``, until that process is no longer
    the parent); False when compute threads were left running."""
    s = _build(config, reuse_port)
    # Before the port listens: a SIGTERM from then on is a graceful stop, even one that
    # comes while the server is still starting.
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        asyncio.get_running_loop().add_signal_handler(sig, stopping.set)
    release_free_memory = bound_memory()
    port = await _listen(s, config, metrics_port)
    janitor = ConnectionJanitor(
        s.admission,
        [port],
        config.max_first_call_wait if s.janitor_on else 0,
        ticks=[log_report] + ([release_free_memory] if release_free_memory else []),
    )
    chores = [asyncio.ensure_future(janitor.run())]
    if parent_pid:
        chores.append(asyncio.ensure_future(_watch_parent(parent_pid, stopping)))
    await stopping.wait()
    for chore in chores:
        chore.cancel()
    held = await _drain(s, config)
    joined = await _join_threads(s.executor)
    extra = {} if joined else {"compute_threads_left_running": True}
    log_event(log, logging.INFO, "stopped", held=held, **extra)
    return joined


def run_worker(config: ServerConfig, reuse_port: bool = False, metrics_dir=None, parent_pid=None) -> int:
    """Serve in this process until SIGTERM; 0 after a clean shutdown, EXIT_STARTUP (with one
    line on stderr) when it cannot start."""
    setup_logging(config.log_level)
    if os.name == "posix":
        route_native_stderr()  # gRPC core's own lines: rate-limited and escaped too
    metrics_port = config.metrics_port
    try:
        if not reuse_port:
            check_port_free(config.host, config.port)
        if config.metrics_port is not None and metrics_dir is None:
            from handeval.server import metrics

            try:
                metrics.start_http(config.metrics_port, config.host)
            except OSError as e:
                raise StartupError(
                    f"cannot serve metrics on {config.host}:{config.metrics_port} (--metrics-port): {e.strerror or e}"
                ) from None
        joined = asyncio.run(
            serve_async(config, reuse_port=reuse_port, metrics_port=metrics_port, parent_pid=parent_pid)
        )
    except StartupError as e:
        print(f"handeval serve: {e}", file=sys.stderr, flush=True)
        return EXIT_STARTUP
    if not joined:
        # The grace is over: do not let the interpreter join the compute threads.
        logging.shutdown()
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0
