"""The status of a request that is bad as a whole: INVALID_ARGUMENT with the standard
details (google.rpc.BadRequest naming the field, google.rpc.ErrorInfo with the
ErrorReason value name), for the unary calls and the Tables stream alike."""

from __future__ import annotations

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2

from handeval.v2 import common_pb2

#: The ErrorReason value names without their prefix ("BAD_CARD"), as the core's reasons.
REASON_NAMES = frozenset(v.name[len("ERROR_REASON_") :] for v in common_pb2.ErrorReason.DESCRIPTOR.values if v.number)
#: google.rpc.ErrorInfo.domain of the service's errors.
ERROR_DOMAIN = "handeval.io"


def bad_request_status(field: str, message: str, reason: str = "invalid") -> status_pb2.Status:
    """The google.rpc.Status of an INVALID_ARGUMENT: a google.rpc.BadRequest naming
    ``field`` and a google.rpc.ErrorInfo whose reason is the ErrorReason value name."""
    bad, info = any_pb2.Any(), any_pb2.Any()
    bad.Pack(
        error_details_pb2.BadRequest(
            field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]
        )
    )
    info.Pack(
        error_details_pb2.ErrorInfo(
            reason=f"ERROR_REASON_{reason.upper()}" if reason.upper() in REASON_NAMES else "ERROR_REASON_INVALID",
            domain=ERROR_DOMAIN,
            metadata={"field": field},
        )
    )
    return status_pb2.Status(
        code=code_pb2.INVALID_ARGUMENT, message=f"{field}: {message}" if field else message, details=[bad, info]
    )


async def abort_bad_request(context, field: str, message: str, reason: str = "invalid"):
    """INVALID_ARGUMENT with the details of :func:`bad_request_status`."""
    status = bad_request_status(field, message, reason)
    await context.abort(
        grpc.StatusCode.INVALID_ARGUMENT,
        status.message,
        trailing_metadata=(("grpc-status-details-bin", status.SerializeToString()),),
    )
