"""The tools of ``handeval`` around the gRPC service: serve (run it), call (one request to
it) and bench-load (Locust load tests of it).

They need what the evaluator does not: the packages of the ``server`` extra (bench-load
those of the ``load`` extra, which includes them). Without them a tool prints one line
naming the command that installs the extra and exits 2; the evaluator's commands and
``import handeval`` never import them.
"""

from __future__ import annotations

import importlib.util
import sys

from handeval.cli.common import command
from handeval.load import install_hint

#: The modules of the ``server`` extra's packages (pyproject.toml: grpcio, protobuf,
#: grpcio-health-checking, grpcio-reflection, grpcio-status, prometheus-client).
SERVER_MODULES = ("grpc", "google.protobuf", "grpc_health", "grpc_reflection", "grpc_status", "prometheus_client")


def missing_module(modules):
    """The first of ``modules`` this Python cannot import, or None."""
    for name in modules:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):  # a missing parent package (google), or a broken entry
            return name
    return None


def _lacks_extra(tool, extra):
    """True, after one line on stderr naming the command that installs ``extra``, when a
    package of the server extra is missing."""
    missing = missing_module(SERVER_MODULES)
    if missing is None:
        return False
    print(
        f"handeval {tool}: needs the {extra} extra (no module {missing!r}); install it: {install_hint(extra)}",
        file=sys.stderr,
    )
    return True


def _cmd_serve(args):
    if _lacks_extra("serve", "server"):
        return 2
    from handeval.server import serve
    from handeval.server.flags import config_from_args

    try:
        config = config_from_args(args)
    except (OSError, ValueError) as e:
        print(f"handeval serve: {e}", file=sys.stderr)
        return 2
    return serve(config)


def _cmd_call(args):
    if _lacks_extra("call", "server"):
        return 2
    from handeval.server.client import call

    return call(args)


def _cmd_bench_load(args):
    # The Locust load tests of the package (handeval.load); all flags pass through. Its
    # --help needs no extra; Locust itself is checked by handeval.load.run.
    if not {"-h", "--help"} & set(args.args) and _lacks_extra("bench-load", "load"):
        return 2
    from handeval.load.run import main

    return main(args.args, prog="handeval bench-load")


def add_commands(sub):
    """serve, call and bench-load in ``sub`` (the top level's subparsers)."""
    # The server's flags are defined with its settings (no gRPC import: --help works without the extra).
    from handeval.server.flags import add_serve_arguments

    v = sub.add_parser("serve", help="run the gRPC service handeval.v2 (needs the server extra; see docs/grpc.md)")
    add_serve_arguments(v)
    v.set_defaults(func=_cmd_serve)

    k = command(
        sub,
        "call",
        _cmd_call,
        "call the gRPC service with a JSON request, print the JSON answer (indented; "
        "with --json on one line, and a failure as a JSON object on stdout)",
    )
    k.add_argument("rpc", choices=["Evaluate", "Compare", "Settle", "Arrange"])
    k.add_argument(
        "request",
        help='proto3 JSON, e.g. \'{"shisanshui": {"items": [{"row": {"cards": ["As", "Ks", "Qs"]}}]}}\'; "-" reads stdin',
    )
    k.add_argument("--target", default="127.0.0.1:50051", help="host:port (default 127.0.0.1:50051)")
    k.add_argument("--timeout", type=float, default=10.0, help="deadline in seconds (default 10)")
    k.add_argument("--token", default=None, help="shared token (default: $HANDEVAL_TOKEN)")
    k.add_argument("--tls-ca", default=None, help="PEM CA to verify the server: use TLS")

    # prefix_chars="\0": every flag after bench-load goes to handeval.load.run unparsed.
    b = sub.add_parser(
        "bench-load",
        add_help=False,
        prefix_chars="\0",
        help="Locust load test of the gRPC service, headless (needs the load extra: pip install "
        "'.[load]' in a checkout, 'handeval[load]' beside a wheel; loopback only, bounded; "
        "--help for its flags)",
    )
    b.add_argument("args", nargs="*")
    b.set_defaults(func=_cmd_bench_load)
