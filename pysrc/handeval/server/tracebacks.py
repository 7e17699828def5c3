"""Handlers whose failures leave no request bytes behind: gRPC keeps an aborted call's
exception, and through its traceback's frames every request those frames held."""

from __future__ import annotations

import inspect
import traceback
from typing import Callable, Optional, Set


def drop_locals(exc: BaseException) -> None:
    """Clears the local variables of the finished frames in ``exc``'s tracebacks (its
    context's and cause's too). gRPC keeps an aborted call's exception on the call's state,
    which the handler frames in its traceback reference through their ``context``: a
    cycle that only Python's rare full garbage collection frees, and with it every frame's
    request bytes (up to ``--max-message-bytes`` a call). Without the locals the cycle
    holds nothing large."""
    seen: Set[int] = set()
    link: Optional[BaseException] = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        traceback.clear_frames(link.__traceback__)  # skips the frames still running
        link = link.__cause__ or link.__context__


def forgetful(handler: Callable) -> Callable:
    """``handler`` (a coroutine or async generator function) whose failures leave no
    request bytes behind (:func:`drop_locals`). A frame of its own: the handler's frame
    (which holds the request) must have finished to be cleared, so the clearing cannot be
    done inside it."""
    if inspect.isasyncgenfunction(handler):

        async def streamed(request_iterator, context):
            try:
                async for out in handler(request_iterator, context):
                    yield out
            except BaseException as e:
                drop_locals(e)
                raise

        return streamed

    async def unary(request_iterator, context):
        try:
            return await handler(request_iterator, context)
        except BaseException as e:
            drop_locals(e)
            raise

    return unary
