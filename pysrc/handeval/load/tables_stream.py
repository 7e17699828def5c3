"""One Tables stream of a blocking gRPC client, one message at a time: :meth:`send` puts a
serialised TablesRequest on the stream and returns the next TablesResponse's bytes.

The request side is an iterator over a queue that gRPC's client consumes on its own
thread; the answer side is the call's iterator. Under Locust, whose processes are
monkey-patched by gevent, that thread is a greenlet and the queue gevent's, and with
``grpc.experimental.gevent.init_gevent()`` (the locustfile calls it) waiting for an answer
yields to the other users: many streams of one process wait at once.
"""

from __future__ import annotations

import queue
from typing import Optional

#: The stream's deadline (seconds): longer than any bench-load run (--run-time <= 3600),
#: so a stream never outlives a bounded run.
STREAM_DEADLINE_S = 3900.0

METHOD = "/handeval.v2.Handeval/Tables"


class StreamEnded(Exception):
    """The stream ended (the server closed it, a GOAWAY, the deadline) before an answer."""

    def __init__(self, code: str, details: str = ""):
        super().__init__(f"{code}: {details}" if details else code)
        self.code, self.details = code, details


class TablesStream:
    def __init__(self, channel, deadline_s: float = STREAM_DEADLINE_S):
        self._requests: queue.Queue = queue.Queue()
        method = channel.stream_stream(METHOD)  # bytes both ways: the tables parse them
        self._call = method(iter(self._requests.get, None), timeout=deadline_s)
        self._answers = iter(self._call)

    def send(self, payload: bytes) -> bytes:
        """Send one request and wait for its answer (a stream answers in order)."""
        import grpc

        self._requests.put(payload)
        try:
            return next(self._answers)
        except StopIteration:
            raise StreamEnded("STREAM_ENDED", "the server ended the stream") from None
        except grpc.RpcError as e:
            code = e.code()
            raise StreamEnded(code.name if code else "UNKNOWN", e.details() or "") from None

    def close(self) -> Optional[str]:
        """End the stream: the requests' end, then cancel what is left."""
        self._requests.put(None)
        self._call.cancel()
        return None
