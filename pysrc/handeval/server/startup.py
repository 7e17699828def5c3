"""Start-up checks of ``handeval serve``: what must hold before the server listens (the
port free, the TLS files a chain and its key, a server beyond loopback protected), each
failure one line for the user."""

from __future__ import annotations

import errno
import socket
from typing import List, Optional


def exposure_gaps(host: str, tls: bool, authenticated: bool) -> List[str]:
    """What is missing for a server on ``host`` reachable beyond this machine (empty on
    loopback)."""
    if is_loopback(host):
        return []
    out = []
    if not tls:
        out.append("without TLS (--tls-cert/--tls-key: calls and the token would travel in plaintext)")
    if not authenticated:
        out.append(
            "without a token or client certificates (--token-file/--tls-client-ca: anyone who reaches the port could call)"
        )
    return out


class StartupError(Exception):
    """``handeval serve`` cannot start (port in use, metrics port in use …): one line for
    the user, exit code :data:`EXIT_STARTUP`."""


#: Exit code of ``handeval serve`` for a bad setting or a start-up failure (argparse's).
EXIT_STARTUP = 2


def check_port_free(host: str, port: int, what: str = "--port") -> None:
    """Raise StartupError when ``host:port`` cannot be listened on (in use, also by a
    socket sharing it with SO_REUSEPORT, or not an address of this machine). gRPC's own
    bind failure says less and logs a C-core error line besides."""
    errors: List[OSError] = []
    bound = 0
    for family, type_, proto, _, addr in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM):
        with socket.socket(family, type_, proto) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gRPC: TIME_WAIT is no conflict
            try:
                s.bind(addr)
                bound += 1
            except OSError as e:
                errors.append(e)
    in_use = [e for e in errors if e.errno == errno.EADDRINUSE]
    if bound and not in_use:
        return
    first = (in_use or errors)[0]
    reason = "already in use" if first.errno == errno.EADDRINUSE else (first.strerror or str(first))
    raise StartupError(f"cannot listen on {host}:{port} ({what}): {reason}")


def check_tls_files(cert: str, key: str, client_ca: Optional[str]) -> None:
    """ValueError unless ``cert`` is a PEM certificate chain, ``key`` its private key and
    ``client_ca`` (if given) PEM certificates: gRPC would only fail later, with C-core
    error lines and a "failed to bind" that names none of them."""
    import ssl

    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        ctx.load_cert_chain(cert, key)
    except (ssl.SSLError, OSError) as e:
        why = (
            "the private key does not belong to the certificate"
            if getattr(e, "reason", None) == "KEY_VALUES_MISMATCH"
            else "not a PEM certificate chain and its private key"
        )
        raise ValueError(f"--tls-cert {cert} / --tls-key {key}: {why}") from None
    if client_ca:
        try:
            ctx.load_verify_locations(cafile=client_ca)
        except (ssl.SSLError, OSError):
            raise ValueError(f"--tls-client-ca {client_ca}: not PEM certificates") from None


def is_loopback(host: str) -> bool:
    """Whether every address ``host`` resolves to is a loopback address."""
    import ipaddress

    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        return False
    return bool(infos) and all(ipaddress.ip_address(str(i[4][0]).split("%")[0]).is_loopback for i in infos)
