"""The 十三水 commands of ``handeval``, at the top level: classify, special, compare,
settle, arrange (one hand, or a file of hands to JSONL)."""

from __future__ import annotations

import json
import os
import sys

from handeval import shisanshui
from handeval.cli.common import Usage, add_cards, card_text, command, int_list, print_json
from handeval.errors import HandevalError

#: The top-level commands that are 十三水's (the others are groups, server and tools).
COMMANDS = ("classify", "special", "compare", "settle", "arrange")

#: Hands per ``arrange_many`` call of ``arrange --file``, per CPU: small enough that the
#: progress bar moves several times a second, large enough to keep every core busy.
_CHUNK_PER_CPU = 64


def _cmd_classify(args):
    row = shisanshui.classify(card_text(args.cards), rules=args.rules)
    if args.json:
        return print_json(row)
    print(f"{row.category} ({row.category_zh}): {' '.join(row.cards)}")


def _cmd_special(args):
    hand = shisanshui.special_hand(card_text(args.cards))
    if args.json:
        return print_json(hand)
    if hand is None:
        print("no special hand")
    else:
        split = "" if hand.split is None else "  [" + " | ".join(" ".join(r) for r in hand.split) + "]"
        print(f"{hand.id} ({hand.name_zh}), {hand.waters} waters{split}")


def _cmd_compare(args):
    r = shisanshui.compare(card_text(args.cards), card_text(args.vs), rules=args.rules)
    if args.json:
        return print_json({"compare": r})
    print({1: "first wins", 0: "tie", -1: "second wins"}[r] + f" ({r:+d})")


def _ssw_seat(text, i):
    """One seat of ``handeval settle``: ``front / middle / back``, or ``ID: 13 cards`` for a
    declared special hand."""
    head, colon, rest = text.partition(":")
    if colon and head.strip().isidentifier():
        return {"special": head.strip(), "cards": rest.strip()}
    rows = text.split("/")
    if len(rows) != 3:
        raise Usage(f"seat {i}: give 'front / middle / back' (rows split by '/') or 'special_id: 13 cards'")
    return dict(zip(("front", "middle", "back"), (r.strip() for r in rows)))


def _cmd_settle(args):
    players = [_ssw_seat(t, i) for i, t in enumerate(args.seats)]
    s = shisanshui.settle(players, base=args.base, carried=args.carried, rules=args.rules)
    if args.json:
        return print_json(s)
    print("waters  " + " ".join(f"{w:+d}" for w in s.waters))
    print("deltas  " + " ".join(f"{d:+d}" for d in s.deltas))
    for p in s.pairs:
        how = p.kind + (" " + " ".join(f"{r:+d}" for r in p.rows) if p.kind == "rows" else "")
        extra = (f", seat {p.scooper} scoops (打枪)" if p.scooper is not None else "") + (
            ", home run (全垒打)" if p.home_run else ""
        )
        print(f"  seat {p.a} vs seat {p.b}: {p.waters:+d} waters ({how}{extra})")
    if s.rake:
        print(f"rake    {s.rake}")


def _arrange_kwargs(args):
    return dict(opponents=args.opponents, top_k=args.top_k, seed=args.seed, samples=args.samples, rules=args.rules)


def _cmd_arrange(args):
    if args.file is not None:
        if args.cards:
            raise Usage("give cards or --file, not both")
        return _arrange_file(args)
    if not args.cards:
        raise Usage("give 13 cards, or --file FILE (one hand a line)")
    a = shisanshui.arrange(card_text(args.cards), **_arrange_kwargs(args))
    if args.json:
        return print_json(a)
    print(f"front   {' '.join(a.front)}")
    print(f"middle  {' '.join(a.middle)}")
    print(f"back    {' '.join(a.back)}")
    print(f"expected {a.expected:+.3f} waters against {args.opponents} opponent(s)")
    if a.special:
        verdict = "declare it" if a.declare_special else "play the rows"
        print(f"special {a.special}, expected {a.special_expected:+.3f}: {verdict}")
    if len(a.alternatives) > 1:
        rows = [(" ".join(x.front), " ".join(x.middle), " ".join(x.back), f"{x.expected:+.3f}") for x in a.alternatives]
        head = ("front", "middle", "back", "expected")
        widths = [max(len(r[i]) for r in rows + [head]) for i in range(4)]
        print()
        print("#   " + "  ".join(h.ljust(w) for h, w in zip(head, widths)))
        for i, r in enumerate(rows, 1):
            print(f"{i:<3} " + "  ".join(c.ljust(w) for c, w in zip(r, widths)))


def _read_hands(f):
    """``(line number, hand, id)`` for each non-blank line that is not a ``#`` comment:
    plain cards, or JSONL — a JSON string, a list of cards, or an object with ``cards``
    (and optionally ``id``, echoed in the output)."""
    for n, line in enumerate(f, 1):
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        if s[0] in '{["':
            try:
                v = json.loads(s)
            except json.JSONDecodeError as e:
                yield n, None, {"field": f"line {n}", "description": f"bad JSON: {e.msg}"}
                continue
            if isinstance(v, dict):
                yield n, v.get("cards"), v.get("id")
            else:
                yield n, v, None
        else:
            yield n, s, None


def _error_dict(e):
    field = getattr(e, "field", None)
    if field is not None and field.startswith("cards13"):
        field = "cards" + field[len("cards13") :]  # a line's hand is its "cards" (arrange's cards13)
    return {
        "field": field,
        "description": getattr(e, "description", None) or str(e),
        "reason": getattr(e, "reason", None),
    }


def _arrange_file(args):
    """``arrange --file``: JSONL out, one line per hand in input order, by chunks of
    ``arrange_many`` (a bad chunk is redone hand by hand to pin the bad lines)."""
    if args.file == "-":
        items = list(_read_hands(sys.stdin))
    else:
        try:
            with open(args.file, encoding="utf-8") as f:
                items = list(_read_hands(f))
        except OSError as e:
            raise Usage(f"cannot read --file: {e}") from None
    out = sys.stdout if args.output in (None, "-") else open(args.output, "w", encoding="utf-8")
    kw = _arrange_kwargs(args)
    chunk = (os.cpu_count() or 1) * (_CHUNK_PER_CPU if args.samples == 0 else 1)
    bad = []

    def emit(n, ident, body):
        rec = {"line": n} if ident is None else {"line": n, "id": ident}
        rec.update(body)
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")

    with _progress_bar(len(items)) as bar:
        for start in range(0, len(items), chunk):
            part = items[start : start + chunk]
            good = [(n, hand, i) for n, hand, i in part if hand is not None]
            try:
                results = shisanshui.arrange_many([h for _, h, _ in good], **kw)
            except HandevalError:
                results = []
                for _, hand, _ in good:
                    try:
                        results.append(shisanshui.arrange(hand, **kw))
                    except HandevalError as e:
                        results.append(e)
            it = iter(results)
            for n, hand, ident in part:
                r = next(it) if hand is not None else None
                if r is None:  # a line that is no JSON: ``ident`` holds the error
                    bad.append(n)
                    emit(n, None, {"error": ident})
                elif isinstance(r, HandevalError):
                    bad.append(n)
                    emit(n, ident, {"error": _error_dict(r)})
                else:
                    emit(n, ident, r.to_dict())
            out.flush()
            bar.update(len(part))
    if out is not sys.stdout:
        out.close()
    if bad:
        shown = ", ".join(map(str, bad[:10])) + (" …" if len(bad) > 10 else "")
        print(f"handeval arrange: {len(bad)} of {len(items)} hands are not valid (lines {shown})", file=sys.stderr)
        return 1
    return 0


class _NoBar:
    """The progress bar's stand-in when there is none."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


def _progress_bar(total):
    """``arrange --file``'s progress bar on stderr: with tqdm installed (optional, not a
    dependency) and only when stderr is a terminal (tqdm's disable=None)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, unit="hand", disable=None, file=sys.stderr)


def add_commands(sub):
    """The 十三水 commands in ``sub`` (the top level's subparsers); returns their parsers."""
    c = command(sub, "classify", _cmd_classify, "classify a 十三水 row (3 or 5 cards)")
    add_cards(c)
    c = command(sub, "special", _cmd_special, "the 十三水 special hand of 13 cards, if any")
    add_cards(c, help="13 cards")

    c = command(sub, "compare", _cmd_compare, "compare two 十三水 rows: 1 (first wins), 0 (tie) or -1")
    add_cards(c, help="the first row")
    c.add_argument("--vs", nargs="+", required=True, help="the second row")
    c = command(
        sub,
        "settle",
        _cmd_settle,
        "score and settle a 十三水 deal",
        epilog='e.g. handeval settle --base 10 "Qs Qh Qd / 2h 5h 7h 9h Jh / Ks Kh Kd 4s 4h" '
        '"2s 3d 5c / 6c 7c 8d 9s Td / 2c 4c Jc Kc Ac"',
    )
    c.add_argument(
        "seats",
        nargs="+",
        help="each seat, one quoted argument: 'front / middle / back', or 'special_id: 13 cards' declared",
    )
    c.add_argument("--base", type=int, default=1, help="money per water (default 1)")
    c.add_argument("--carried", type=int_list, help='carried-in amounts per seat, e.g. "500,60" (- uncapped)')

    a = command(sub, "arrange", _cmd_arrange, "the best 十三水 arrangement of 13 cards (expected waters)")
    add_cards(a, help="13 cards (or --file)", nargs="*")
    a.add_argument(
        "--file",
        metavar="FILE",
        help='arrange every hand of FILE ("-": stdin), one a line (cards, or JSONL: a string, a list '
        'or {"cards": ..., "id": ...}); writes JSONL, a progress bar on a terminal (with '
        "tqdm installed)",
    )
    a.add_argument("--output", "-o", metavar="OUT", help="with --file: write the JSONL here (default stdout)")
    a.add_argument("--top-k", type=int, default=3, help="how many alternatives to list (default 3)")
    a.add_argument("--opponents", type=int, default=3, help="number of opponents, 1..3 (default 3)")
    a.add_argument("--seed", type=int, default=0, help="seed of the Monte-Carlo re-ranking")
    a.add_argument(
        "--samples", type=int, default=0, help="re-rank by this many simulated opponent deals (default 0: tables only)"
    )
    return [sub.choices[name] for name in COMMANDS]
