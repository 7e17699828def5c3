"""A peer's address as admission and the janitor both key it: (ip, port), the ip
normalised (an IPv4-mapped IPv6 address is its IPv4 address)."""

from __future__ import annotations

import ipaddress
from typing import Optional, Tuple

Address = Tuple[str, int]  # (ip, port) of a peer, as ipaddress normalises the ip


def peer_address(peer: str) -> Optional[Address]:
    """``context.peer()`` ("ipv4:127.0.0.1:5000", "ipv6:[::1]:5000") as (ip, port);
    None for other transports (unix sockets)."""
    if peer.startswith("ipv4:"):
        host, _, port = peer[5:].rpartition(":")
    elif peer.startswith("ipv6:"):
        host, _, port = peer[5:].rpartition(":")
        host = host.strip("[]").split("%")[0]
    else:
        return None
    try:
        return normal_ip(host), int(port)
    except ValueError:
        return None


def normal_ip(text: str) -> str:
    ip = ipaddress.ip_address(text)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return str(ip)
