"""glibc malloc tuning: large request buffers get their own memory maps, and the heap's
free memory goes back to the system every janitor tick, so the server's RSS does not
grow with every flood of large requests (docs/hardening.md)."""

from __future__ import annotations

from typing import Callable, Optional

#: Allocations at least this large get their own memory map, returned to the system
#: when freed. glibc's default threshold (128 KiB) rises up to 32 MiB with every such
#: block freed, after which the megabyte-sized buffers of large requests come from the
#: heap and fragment it: RSS then grows with every flood of large requests.
MMAP_THRESHOLD = 256 * 1024


def _glibc():
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim, mallopt = libc.malloc_trim, libc.mallopt
    except (OSError, AttributeError):
        return None, None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return trim, mallopt


def bound_memory() -> Optional[Callable[[], None]]:
    """On glibc: fixes the mmap threshold (:data:`MMAP_THRESHOLD`) and returns a function
    that gives the heap's free memory back to the system (``malloc_trim``), for the
    janitor's tick; None on another C library."""
    trim, mallopt = _glibc()
    if trim is None:
        return None
    M_MMAP_THRESHOLD = -3
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    return lambda: trim(0) and None
