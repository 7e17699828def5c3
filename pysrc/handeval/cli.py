"""The ``handeval`` command: quick looks at hands from a shell, and (later) the server.

Each subcommand is one small function registered in ``_build_parser``; output is plain
text for people, or JSON with ``--json`` for scripts.
"""

from __future__ import annotations

import argparse
import json
import sys

from handeval.errors import HandevalError


def _print(obj, as_json):
    if as_json:
        print(json.dumps(obj.to_dict() if hasattr(obj, "to_dict") else obj, ensure_ascii=False))
    else:
        print(obj)


def _cmd_classify(args):
    from handeval import shisanshui

    row = shisanshui.classify(args.cards)
    if args.json:
        _print(row, True)
    else:
        print(f"{row.category} ({row.category_zh}): {' '.join(row.cards)}")


def _cmd_special(args):
    from handeval import shisanshui

    hand = shisanshui.special_hand(args.cards)
    if args.json:
        _print(hand.to_dict() if hand else None, True)
    elif hand is None:
        print("no special hand")
    else:
        split = "" if hand.split is None else "  [" + " | ".join(" ".join(r) for r in hand.split) + "]"
        print(f"{hand.id} ({hand.name_zh}), {hand.waters} waters{split}")


def _cmd_serve(args):
    from handeval.server import serve
    from handeval.server.config import config_from_args

    try:
        config = config_from_args(args)
    except (OSError, ValueError) as e:
        print(f"handeval serve: {e}", file=sys.stderr)
        return 2
    return serve(config)


def _cmd_call(args):
    from handeval.server.client import call

    return call(args)


def _cmd_arrange(args):
    from handeval import shisanshui

    a = shisanshui.arrange(args.cards, opponents=args.opponents, top_k=args.top_k, seed=args.seed,
                           samples=args.samples)
    if args.json:
        _print(a, True)
        return
    print(f"front   {' '.join(a.front)}")
    print(f"middle  {' '.join(a.middle)}")
    print(f"back    {' '.join(a.back)}")
    print(f"expected {a.expected:+.3f} waters against {args.opponents} opponent(s)")
    if a.special:
        verdict = "declare it" if a.declare_special else "play the rows"
        print(f"special {a.special}, expected {a.special_expected:+.3f}: {verdict}")
    if len(a.alternatives) > 1:
        rows = [(" ".join(x.front), " ".join(x.middle), " ".join(x.back), f"{x.expected:+.3f}")
                for x in a.alternatives]
        head = ("front", "middle", "back", "expected")
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
        print()
        print("#   " + "  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for i, r in enumerate(rows, 1):
            print(f"{i:<3} " + "  ".join(c.ljust(w) for c, w in zip(r, widths)))


def _cmd_bench_load(args):
    # The load generator lives in benches/load.py of a source checkout (it is a
    # benchmark, not part of the installed package); all its flags pass through.
    import importlib.util
    from pathlib import Path

    for path in (Path(__file__).resolve().parents[2] / "benches" / "load.py", Path.cwd() / "benches" / "load.py"):
        if path.is_file():
            spec = importlib.util.spec_from_file_location("handeval_bench_load", path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod.main(args.args, prog="handeval bench-load")
    print("handeval bench-load: benches/load.py not found; run it from a source checkout of handeval", file=sys.stderr)
    return 2


def _build_parser():
    p = argparse.ArgumentParser(prog="handeval", description="Hand evaluation for 十三水, 越式13张 and 打儲.")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    sub = p.add_subparsers(dest="command", required=True)

    c = sub.add_parser("classify", help="classify a 十三水 row (3 or 5 cards)")
    c.add_argument("cards", help='e.g. "As Ks Qs Js Ts"')
    c.set_defaults(func=_cmd_classify)

    s = sub.add_parser("special", help="the 十三水 special hand of 13 cards, if any")
    s.add_argument("cards", help="13 cards")
    s.set_defaults(func=_cmd_special)

    from handeval.server.config import add_serve_arguments

    v = sub.add_parser("serve", help="run the gRPC service handeval.v1 (see docs/grpc.md)")
    add_serve_arguments(v)
    v.set_defaults(func=_cmd_serve)

    k = sub.add_parser("call", help="call the gRPC service with a JSON request, print the JSON answer")
    k.add_argument("rpc", choices=["Evaluate", "Compare", "Settle", "Arrange"])
    k.add_argument("request", help='proto3 JSON, e.g. \'{"shisanshui": {"items": [{"row": "As Ks Qs"}]}}\'; "-" reads stdin')
    k.add_argument("--target", default="127.0.0.1:50051", help="host:port (default 127.0.0.1:50051)")
    k.add_argument("--timeout", type=float, default=10.0, help="deadline in seconds (default 10)")
    k.add_argument("--token", default=None, help="shared token (default: $HANDEVAL_TOKEN)")
    k.add_argument("--tls-ca", default=None, help="PEM CA to verify the server: use TLS")
    k.set_defaults(func=_cmd_call)

    a = sub.add_parser("arrange", help="the best 十三水 arrangement of 13 cards (expected waters)")
    a.add_argument("cards", help="13 cards")
    a.add_argument("--top-k", type=int, default=3, help="how many alternatives to list (default 3)")
    a.add_argument("--opponents", type=int, default=3, help="number of opponents, 1..3 (default 3)")
    a.add_argument("--seed", type=int, default=0, help="seed of the Monte-Carlo re-ranking")
    a.add_argument("--samples", type=int, default=0,
                   help="re-rank by this many simulated opponent deals (default 0: tables only)")
    a.set_defaults(func=_cmd_arrange)

    # prefix_chars="\0": every flag after bench-load goes to benches/load.py unparsed.
    b = sub.add_parser("bench-load", add_help=False, prefix_chars="\0",
                       help="gRPC load generator (benches/load.py; loopback only, bounded; --help for its flags)")
    b.add_argument("args", nargs="*")
    b.set_defaults(func=_cmd_bench_load)
    return p


def main(argv=None):
    args = _build_parser().parse_args(argv)
    try:
        return args.func(args) or 0
    except HandevalError as e:
        print(f"handeval: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
