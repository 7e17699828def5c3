"""The parsers of ``handeval serve``'s settings: text -> value, ValueError with the reason
(the caller, ``flags``, adds the flag or variable it came from)."""

from __future__ import annotations

import math
import socket
from typing import Callable, Optional

from handeval.server.logs import LOG_LEVELS


def integer(lo: int, hi: Optional[int] = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            v = int(text.strip(), 10)
        except ValueError:
            raise ValueError("not an integer") from None
        if v < lo or (hi is not None and v > hi):
            raise ValueError(f"must be {lo}..{hi}" if hi is not None else f"must be at least {lo}")
        return v

    return parse


def seconds(text: str) -> float:
    try:
        v = float(text.strip())
    except ValueError:
        raise ValueError("not a number of seconds") from None
    if not math.isfinite(v) or v < 0:
        raise ValueError("must be a number of seconds >= 0")
    return v


port_number = integer(1, 65535)


def log_level(text: str) -> str:
    v = text.strip().lower()
    if v not in LOG_LEVELS:
        raise ValueError(f"unknown log level (one of {', '.join(LOG_LEVELS)})")
    return v


def compression_choice(text: str) -> str:
    v = text.strip().lower()
    if v not in COMPRESSION_CHOICES:
        raise ValueError(f"unknown choice (one of {', '.join(COMPRESSION_CHOICES)})")
    return v


#: ``--accept-compression`` values → the request encodings gRPC accepts (the bits of
#: grpc.compression_enabled_algorithms_bitset: identity 1, deflate 2, gzip 4).
COMPRESSION_CHOICES = {"none": 0b001, "gzip": 0b111}


def switch(text: str) -> bool:
    v = text.strip().lower()
    if v in ("1", "true", "yes", "on"):
        return True
    if v in ("", "0", "false", "no", "off"):
        return False
    raise ValueError("not a switch (1/0, true/false, yes/no, on/off)")


def readable_file(text: str) -> str:
    try:
        with open(text, "rb") as f:
            f.read(1)
    except OSError as e:
        raise ValueError(e.strerror or str(e)) from None
    return text


def host_name(text: str) -> str:
    v = text.strip()
    if not v:
        raise ValueError("empty")
    try:
        socket.getaddrinfo(v, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise ValueError(f"cannot resolve it ({getattr(e, 'strerror', None) or e})") from None
    return v
