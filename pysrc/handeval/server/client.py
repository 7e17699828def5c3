"""``handeval call``: one RPC with a proto3-JSON request, the JSON answer on stdout:
indented for people, or with ``--json`` on one line for scripts. Status errors print their
code, message, google.rpc.ErrorInfo reason and google.rpc.BadRequest field violations to
stderr, or with ``--json`` as one JSON object (``{"error": {"code", "message", "reason",
"field_violations"}}``) on stdout; the exit code is 1 either way.

The answer is printed as the Python API would show it: snake_case field names, every
field of a message including zero values (``0``, ``false``, ``""``, ``[]``), integers as
JSON numbers (proto3 JSON would quote int64), enums by their value names (as proto3 JSON
does), unset ``optional`` fields and messages as
``null``; left out are the oneof members that are not set and the answer of the packed
bulk path (``packed_categories``) when the request sent no packed rows."""

from __future__ import annotations

import base64
import json
import os
import sys
from typing import Any, Dict

import grpc
from google.protobuf import json_format

from handeval.v2 import handeval_pb2 as pb, handeval_pb2_grpc

#: The service config clients should use (docs/grpc.md, "Retries"): a call refused
#: UNAVAILABLE (a server draining after SIGTERM, a worker restarting, a connection
#: closed before the call reached a server) is retried up to 4 more times with
#: exponential backoff (0.1 s, then up to 1 s, with jitter). Every handeval RPC is a
#: pure function of its request, so a retry cannot apply anything twice.
RETRY_SERVICE_CONFIG = {
    "methodConfig": [
        {
            "name": [{"service": "handeval.v2.Handeval"}],
            "retryPolicy": {
                "maxAttempts": 5,
                "initialBackoff": "0.1s",
                "maxBackoff": "1s",
                "backoffMultiplier": 2,
                "retryableStatusCodes": ["UNAVAILABLE"],
            },
        }
    ]
}


def channel(target: str, credentials=None, options=()) -> grpc.Channel:
    """A channel to ``target`` with :data:`RETRY_SERVICE_CONFIG` (TLS when
    ``credentials`` are given)."""
    opts = [("grpc.service_config", json.dumps(RETRY_SERVICE_CONFIG)), ("grpc.enable_retries", 1), *options]
    if credentials is not None:
        return grpc.secure_channel(target, credentials, options=opts)
    return grpc.insecure_channel(target, options=opts)


def bad_request_fields(err: grpc.RpcError):
    """``[(field, description)]`` of the google.rpc.BadRequest detail of a failed call."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(err)
    out = []
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            detail.Unpack(br)
            out += [(v.field, v.description) for v in br.field_violations]
    return out


def error_info(err: grpc.RpcError):
    """``(reason, metadata)`` of the google.rpc.ErrorInfo detail of a failed call, or None."""
    from google.rpc import error_details_pb2
    from grpc_status import rpc_status

    status = rpc_status.from_call(err)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info.reason, dict(info.metadata)
    return None


#: Fields that answer only one kind of request, left out when empty (the request did not
#: ask for them): an empty ``packed_categories`` is "no packed rows", not an answer.
OMITTED_WHEN_EMPTY = frozenset({"handeval.v2.ShisanshuiEvaluateResponse.packed_categories"})


def to_python(msg) -> dict:
    """A message as JSON-ready Python values (see the module docstring)."""
    out: Dict[str, Any] = {}
    for fd in msg.DESCRIPTOR.fields:
        oneof = fd.containing_oneof
        if oneof is not None and oneof.name != "_" + fd.name and msg.WhichOneof(oneof.name) != fd.name:
            continue  # a real oneof: only its set member
        value = getattr(msg, fd.name)
        if fd.full_name in OMITTED_WHEN_EMPTY and not value:
            continue
        if fd.is_repeated:
            out[fd.name] = [_value(fd, v) for v in value]
        elif fd.has_presence and not msg.HasField(fd.name):
            out[fd.name] = None
        else:
            out[fd.name] = _value(fd, value)
    return out


def _value(fd, v):
    if fd.type == fd.TYPE_MESSAGE:
        return to_python(v)
    if fd.type == fd.TYPE_BYTES:
        return base64.b64encode(v).decode()
    if fd.type == fd.TYPE_ENUM:
        value = fd.enum_type.values_by_number.get(v)
        return value.name if value is not None else v
    return v


def call(args) -> int:
    text = sys.stdin.read() if args.request == "-" else args.request
    request_cls = getattr(pb, f"{args.rpc}Request")
    try:
        request = json_format.Parse(text, request_cls())
    except json_format.ParseError as e:
        print(f"handeval call: bad request JSON: {e}", file=sys.stderr)
        return 2
    token = args.token or os.environ.get("HANDEVAL_TOKEN")
    metadata = (("authorization", f"Bearer {token}"),) if token else None
    credentials = None
    if args.tls_ca:
        with open(args.tls_ca, "rb") as f:
            credentials = grpc.ssl_channel_credentials(f.read())
    with channel(args.target, credentials) as ch:
        stub = handeval_pb2_grpc.HandevalStub(ch)
        try:
            response = getattr(stub, args.rpc)(request, timeout=args.timeout, metadata=metadata)
        except grpc.RpcError as e:
            info = error_info(e)
            violations = bad_request_fields(e)
            if getattr(args, "json", False):
                # For scripts: the failure as one JSON object on stdout (exit 1).
                print(
                    json.dumps(
                        {
                            "error": {
                                "code": e.code().name,
                                "message": e.details(),
                                "reason": info[0] if info else None,
                                "field_violations": [{"field": f, "description": d} for f, d in violations],
                            }
                        },
                        ensure_ascii=False,
                    )
                )
                return 1
            print(f"handeval call: {e.code().name}: {e.details()}", file=sys.stderr)
            if info is not None:
                print(f"  reason {info[0]}", file=sys.stderr)
            for field, description in violations:
                print(f"  field {field}: {description}", file=sys.stderr)
            return 1
    if getattr(args, "json", False):  # one line, for scripts and jq
        print(json.dumps(to_python(response), ensure_ascii=False, separators=(",", ":")))
    else:  # indented, for people
        print(json.dumps(to_python(response), ensure_ascii=False, indent=2))
    return 0
