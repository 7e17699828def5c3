"""The socket janitor: this process's TCP connections read from /proc, and shut down
by descriptor: connections that have not sent one complete request within
``--max-first-call-wait`` (floods of sockets that complete the HTTP/2 handshake and open
no call, or only calls they never finish), so that gRPC's idle time
(``--max-connection-idle``) can be minutes for the connections of real clients; and the
connections admission closes for their unread answers (:func:`close_peer`). Linux only
(:func:`janitor_supported`).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from typing import Callable, Dict, Iterable, Set, Tuple

from handeval.server.admission import Admission
from handeval.server.logs import log_event
from handeval.server.peers import Address, normal_ip

log = logging.getLogger("handeval.server")

#: How often the janitor looks at the process's connections.
JANITOR_PERIOD_S = 1.0


def proc_address(hex_addr: str) -> Address:
    """An address of /proc/net/tcp{,6} ("0100007F:1F90") as (ip, port)."""
    host, port = hex_addr.split(":")
    raw = bytes.fromhex(host)
    if len(raw) == 4:
        ip = socket.inet_ntop(socket.AF_INET, raw[::-1])
    else:  # four 32-bit words, each in host (little-endian) order
        ip = socket.inet_ntop(socket.AF_INET6, b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4)))
    return normal_ip(ip), int(port, 16)


def open_connections(ports: Set[int]) -> Dict[Address, Tuple[int, int]]:
    """This process's established TCP connections whose local port is in ``ports``:
    peer address → (descriptor, socket inode). Linux (/proc) only."""
    by_inode: Dict[int, Address] = {}
    for name in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        try:
            with open(name) as f:
                next(f, None)
                for line in f:
                    fields = line.split()
                    if len(fields) < 10 or fields[3] != "01":  # ESTABLISHED
                        continue
                    if int(fields[1].rpartition(":")[2], 16) in ports:
                        by_inode[int(fields[9])] = proc_address(fields[2])
        except OSError:
            continue
    out: Dict[Address, Tuple[int, int]] = {}
    if not by_inode:
        return out
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inode = int(target[8:-1])
            address = by_inode.get(inode)
            if address is not None:
                out[address] = (int(fd), inode)
    return out


def close_connection(fd: int, inode: int) -> bool:
    """Shut the connection on ``fd`` down (gRPC then sees its end and frees it), unless
    the descriptor is no longer that socket."""
    try:
        dup = os.dup(fd)
    except OSError:
        return False
    try:
        if os.fstat(dup).st_ino != inode:
            return False
        with socket.socket(fileno=dup) as s:
            dup = -1
            s.shutdown(socket.SHUT_RDWR)
        return True
    except OSError:
        return False
    finally:
        if dup >= 0:
            os.close(dup)


def close_peer(ports: Set[int], address: Address) -> bool:
    """Shut down this process's connection from ``address`` to one of ``ports`` (Linux)."""
    found = open_connections(ports).get(address)
    return found is not None and close_connection(*found)


def janitor_supported() -> bool:
    return os.path.exists("/proc/self/net/tcp") and os.path.isdir("/proc/self/fd")


class ConnectionJanitor:
    """Every :data:`JANITOR_PERIOD_S`, closes each connection to the server's ports that
    has been open ``first_call_wait`` seconds without a call in progress and without one
    complete request: gRPC has no timer for that (its idle timer counts every connection
    alike), so this is what lets the idle time be long for real clients."""

    def __init__(
        self,
        admission: Admission,
        ports: Iterable[int],
        first_call_wait: float,
        ticks: Iterable[Callable[[], None]] = (),
    ):
        self.admission = admission
        self.ports = set(ports)
        self.first_call_wait = first_call_wait
        self.first_seen: Dict[Address, float] = {}
        self.closed = 0
        self.ticks = list(ticks)

    def sweep(self, now: float, connections: Dict[Address, Tuple[int, int]]) -> int:
        tracked = self.admission.connections
        for address in [a for a in self.first_seen if a not in connections]:
            del self.first_seen[address]
        for address in [a for a, c in tracked.items() if a not in connections and not c.active]:
            del tracked[address]
        closed = 0
        for address, (fd, inode) in connections.items():
            seen = self.first_seen.setdefault(address, now)
            conn = tracked.get(address)
            if conn is not None and (conn.served or conn.active):
                continue
            if now - seen >= self.first_call_wait and close_connection(fd, inode):
                closed += 1
        self.closed += closed
        return closed

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(JANITOR_PERIOD_S)
            for tick in self.ticks:
                tick()
            if self.first_call_wait <= 0:
                continue
            try:
                connections = await loop.run_in_executor(None, open_connections, self.ports)
            except OSError as e:  # /proc unreadable: leave the connections to gRPC's idle time
                log_event(log, logging.WARNING, "janitor_stopped", message=str(e))
                return
            self.sweep(time.monotonic(), connections)
