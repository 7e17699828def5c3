"""The ``handeval`` command: every game's rules from a shell, batch arrangement, and the
gRPC server.

``handeval classify|compare|special|settle|arrange`` are 十三水; ``handeval tienlen ...`` (越式13张) and
``handeval dachu ...`` (打儲) hold the other games. Each subcommand is one small function
registered in ``_build_parser`` and uses only the public Python API; output is plain
text for people, or JSON with ``--json`` (before or after the subcommand) for scripts.
Cards may be one quoted argument or several (``handeval classify As Ks Qs``).

Exit codes: 0 success; 1 a batch with bad lines (each reported in the output); 2 bad
input (a ``HandevalError``, printed as ``handeval: field: description``) or bad usage;
130 interrupted (Ctrl-C); 141 the reader of our output went away (``| head``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from handeval.errors import HandevalError

#: Hands per ``arrange_many`` call of ``arrange --file``, per CPU: small enough that the
#: progress bar moves several times a second, large enough to keep every core busy.
_CHUNK_PER_CPU = 64


# ------------------------------------------------------------------------ helpers


class _Usage(Exception):
    """A command used wrongly: the message is printed after ``handeval: `` (exit 2)."""


def _cards(tokens):
    """Cards given as one quoted argument or as several (``As Ks Qs``)."""
    return " ".join(tokens)


def _to_json(obj):
    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    if isinstance(obj, (list, tuple)):
        return [_to_json(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _to_json(v) for k, v in obj.items()}
    return obj


def _print_json(obj):
    print(json.dumps(_to_json(obj), ensure_ascii=False))


def _seat_cards(text):
    """One seat's cards in a list argument: ``-`` (or empty) is no cards."""
    return "" if text in ("-", "") else text


def _int_list(text):
    """``"500,60"`` or ``"500 60"`` -> [500, 60]; ``-`` or ``none`` entries are None."""
    out = []
    for part in text.replace(",", " ").split():
        if part.lower() in ("-", "none"):
            out.append(None)
        else:
            try:
                out.append(int(part))
            except ValueError:
                raise argparse.ArgumentTypeError(f"not an integer: {part!r}") from None
    return out


def _parse_actions(text):
    """A list of actions: JSON (``[["deal"], ["meng_xuan", 0, "Ah"]]``) or text, one action
    per line or ``;``: a name, then seats (integers) and cards/words, e.g.
    ``deal*9; meng_xuan 0 Ah; meng_chuai 0 5s 5h 5d; finish`` (``*N`` repeats it)."""
    text = text.strip()
    if text.startswith("["):
        try:
            return [tuple(a) if isinstance(a, list) else (a,) for a in json.loads(text)]
        except json.JSONDecodeError as e:
            raise argparse.ArgumentTypeError(f"actions: bad JSON: {e}") from None
    actions = []
    for chunk in text.replace("\n", ";").split(";"):
        words = chunk.split()
        if not words:
            continue
        name, _, times = words[0].partition("*")
        if times and not times.isdigit():
            raise argparse.ArgumentTypeError(f"actions: bad repeat count in {words[0]!r}")
        ints = [int(w) for w in words[1:] if w.lstrip("-").isdigit()]
        rest = [w for w in words[1:] if not w.lstrip("-").isdigit()]
        action = (name, *ints) + ((" ".join(rest),) if rest else ())
        actions += [action] * (int(times) if times else 1)
    return actions


def _action_text(action):
    return " ".join(" ".join(a) if isinstance(a, (list, tuple)) else str(a) for a in action)


def _apply_all(state, actions, what):
    for i, action in enumerate(actions):
        try:
            state = state.apply(action)
        except HandevalError as e:
            raise _Usage(f"{what}[{i}] ({_action_text(action)}): {getattr(e, 'description', None) or e}") from None
    return state


def _actions_arg(text):
    return _parse_actions(sys.stdin.read() if text == "-" else text)


# ------------------------------------------------------------------------ 十三水


def _cmd_classify(args):
    from handeval import shisanshui

    row = shisanshui.classify(_cards(args.cards))
    if args.json:
        return _print_json(row)
    print(f"{row.category} ({row.category_zh}): {' '.join(row.cards)}")


def _cmd_special(args):
    from handeval import shisanshui

    hand = shisanshui.special_hand(_cards(args.cards))
    if args.json:
        return _print_json(hand)
    if hand is None:
        print("no special hand")
    else:
        split = "" if hand.split is None else "  [" + " | ".join(" ".join(r) for r in hand.split) + "]"
        print(f"{hand.id} ({hand.name_zh}), {hand.waters} waters{split}")


def _cmd_compare(args):
    from handeval import shisanshui

    r = shisanshui.compare(_cards(args.cards), _cards(args.vs))
    if args.json:
        return _print_json({"compare": r})
    print({1: "first wins", 0: "tie", -1: "second wins"}[r] + f" ({r:+d})")


def _ssw_seat(text, i):
    """One seat of ``handeval settle``: ``front / middle / back``, or ``ID: 13 cards`` for a
    declared special hand."""
    head, colon, rest = text.partition(":")
    if colon and head.strip().isidentifier():
        return {"special": head.strip(), "cards": rest.strip()}
    rows = text.split("/")
    if len(rows) != 3:
        raise _Usage(f"seat {i}: give 'front / middle / back' (rows split by '/') or 'special_id: 13 cards'")
    return dict(zip(("front", "middle", "back"), (r.strip() for r in rows)))


def _cmd_settle(args):
    from handeval import shisanshui

    players = [_ssw_seat(t, i) for i, t in enumerate(args.seats)]
    s = shisanshui.settle(players, base=args.base, carried=args.carried)
    if args.json:
        return _print_json(s)
    print("waters  " + " ".join(f"{w:+d}" for w in s.waters))
    print("deltas  " + " ".join(f"{d:+d}" for d in s.deltas))
    for p in s.pairs:
        how = p.kind + (" " + " ".join(f"{r:+d}" for r in p.rows) if p.kind == "rows" else "")
        extra = (f", seat {p.scooper} scoops (打枪)" if p.scooper is not None else "") + (
            ", home run (全垒打)" if p.home_run else "")
        print(f"  seat {p.a} vs seat {p.b}: {p.waters:+d} waters ({how}{extra})")
    if s.rake:
        print(f"rake    {s.rake}")


def _arrange_kwargs(args):
    return dict(opponents=args.opponents, top_k=args.top_k, seed=args.seed, samples=args.samples)


def _cmd_arrange(args):
    from handeval import shisanshui

    if args.file is not None:
        if args.cards:
            raise _Usage("give cards or --file, not both")
        return _arrange_file(args)
    if not args.cards:
        raise _Usage("give 13 cards, or --file FILE (one hand a line)")
    a = shisanshui.arrange(_cards(args.cards), **_arrange_kwargs(args))
    if args.json:
        return _print_json(a)
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
    return {"field": getattr(e, "field", None), "description": getattr(e, "description", None) or str(e)}


def _arrange_file(args):
    """``arrange --file``: JSONL out, one line per hand in input order, by chunks of
    ``arrange_many`` (a bad chunk is redone hand by hand to pin the bad lines)."""
    from tqdm import tqdm

    from handeval import shisanshui

    if args.file == "-":
        items = list(_read_hands(sys.stdin))
    else:
        try:
            with open(args.file, encoding="utf-8") as f:
                items = list(_read_hands(f))
        except OSError as e:
            raise _Usage(f"cannot read --file: {e}") from None
    out = sys.stdout if args.output in (None, "-") else open(args.output, "w", encoding="utf-8")
    kw = _arrange_kwargs(args)
    chunk = (os.cpu_count() or 1) * (_CHUNK_PER_CPU if args.samples == 0 else 1)
    bad = []

    def emit(n, ident, body):
        rec = {"line": n} if ident is None else {"line": n, "id": ident}
        rec.update(body)
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")

    # tqdm's disable=None: a bar only when stderr is a terminal.
    with tqdm(total=len(items), unit="hand", disable=None, file=sys.stderr) as bar:
        for start in range(0, len(items), chunk):
            part = items[start:start + chunk]
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


# ------------------------------------------------------------------------ 越式13张


def _play_text(p):
    return f"{p.kind} ({p.kind_zh}): {' '.join(p.cards)}"


def _print_plays(plays, as_json):
    if as_json:
        return _print_json(plays)
    for p in plays:
        print(_play_text(p))
    if not plays:
        print("no legal play (pass)")


def _cmd_tl_classify(args):
    from handeval import tienlen

    p = tienlen.classify(_cards(args.cards))
    _print_json(p) if args.json else print(_play_text(p))


def _cmd_tl_beats(args):
    from handeval import tienlen

    play, table = _cards(args.cards), _cards(args.table)
    ok = tienlen.beats(play, table)
    why = None if ok else tienlen.why_not(play, table)
    if args.json:
        return _print_json({"beats": ok, "why_not": why})
    print("yes" if ok else f"no: {why}")


def _cmd_tl_legal(args):
    from handeval import tienlen

    plays = tienlen.legal_plays(_cards(args.cards), table=_cards(args.table) if args.table else None,
                                passed=args.passed)
    _print_plays(plays, args.json)


def _cmd_tl_instant(args):
    from handeval import tienlen

    h = tienlen.instant_hand(_cards(args.cards))
    if args.json:
        return _print_json(h)
    print("no instant win" if h is None else f"{h.kind} ({h.kind_zh}): {' '.join(h.cards)}")


def _settlement_text(s, lines):
    print("deltas  " + " ".join(f"{d:+d}" for d in s.deltas))
    for line in lines:
        print("  " + line)


def _cmd_tl_settle(args):
    from handeval import tienlen

    hands = [_seat_cards(h) for h in args.hands]
    if args.instant:
        s = tienlen.settle_instant(hands, base=args.base, carried=args.carried)
    else:
        if args.winner is None:
            raise _Usage("--winner is required (or --instant)")
        chops = json.loads(args.chops) if args.chops else ()
        s = tienlen.settle(hands, winner=args.winner, base=args.base, chops=chops, carried=args.carried)
    if args.json:
        return _print_json(s)
    _settlement_text(s, [line.text for line in s.lines])
    print(f"rake    {s.rake}")


def _tl_actions_arg(text):
    """越式13张 actions: JSON (``[[0, "3s"], [1, "pass"]]``) or text, one action a line or
    ``;``: the seat, then cards or ``pass`` (``0 3s 4s 5s; 1 pass``)."""
    text = sys.stdin.read() if text == "-" else text
    text = text.strip()
    if text.startswith("["):
        try:
            return [tuple(a) for a in json.loads(text)]
        except (json.JSONDecodeError, TypeError) as e:
            raise argparse.ArgumentTypeError(f"actions: bad JSON: {e}") from None
    out = []
    for chunk in text.replace("\n", ";").split(";"):
        words = chunk.split()
        if not words:
            continue
        if not words[0].isdigit() or len(words) < 2:
            raise argparse.ArgumentTypeError(f"actions: {chunk.strip()!r} is not 'seat cards' or 'seat pass'")
        out.append((int(words[0]), " ".join(words[1:])))
    return out


def _tl_game_dict(g):
    names = ("round", "leader", "turn", "table_seat", "table", "passed", "must_contain", "may_pass", "legal_plays",
             "chop_offers", "held", "chops", "winner", "instant", "over")
    d = g.to_dict()
    return {k: d[k] for k in names}


def _cmd_tl_game(args):
    from handeval import tienlen

    hands = [_seat_cards(h) for h in args.hands]
    actions = args.actions or []
    g = tienlen.Game(hands)
    for i, a in enumerate(actions):
        try:
            g = g.apply(a)
        except HandevalError as e:
            raise _Usage(f"actions[{i}] ({a[0]} {a[1]}): {e.description} [{e.reason}]") from None
    if args.viewer is None:
        out = {"game": _tl_game_dict(g)}
    else:
        view = g.view(args.viewer)
        out = {"game": {k: view[k] for k in ("viewer", *_tl_game_dict(g), "counts")}}
    if args.base is not None:
        out["settlement"] = g.settle(base=args.base, carried=args.carried)
    if args.json:
        return _print_json(out)
    print("game")
    for k, v in out["game"].items():
        if k in ("legal_plays",):
            v = "; ".join(" ".join(p["cards"]) for p in v) or "none"
        elif k == "chop_offers":
            v = "; ".join(f"seat {s}: " + ", ".join(" ".join(p["cards"]) for p in ps) for s, ps in v) or "none"
        elif k == "table":
            v = " ".join(v["cards"]) if v else "none"
        elif k == "held":
            v = " | ".join("?" if h is None else " ".join(h) or "-" for h in v)
        elif k == "chops":
            v = "; ".join(f"seat {a} pays seat {b} {n} x base" for a, b, n in v) or "none"
        else:
            v = _value_text(v)
        print(f"  {k:<14}{v}")
    if "settlement" in out:
        s = out["settlement"]
        _settlement_text(s, [line.text for line in s.lines])
        print(f"rake    {s.rake}")


# ------------------------------------------------------------------------ 打儲


def _cmd_dc_classify(args):
    from handeval import dachu

    p = dachu.classify(_cards(args.cards), args.chu)
    _print_json(p) if args.json else print(_play_text(p))


def _cmd_dc_beats(args):
    from handeval import dachu

    ok = dachu.beats(_cards(args.cards), _cards(args.table), args.chu)
    _print_json({"beats": ok}) if args.json else print("yes" if ok else "no")


def _cmd_dc_legal(args):
    from handeval import dachu

    plays = dachu.legal_plays(_cards(args.cards), _cards(args.table) if args.table else None, args.chu,
                              first_lead=args.first_lead, surrendered=args.surrendered,
                              shown_triple=_cards(args.shown_triple) if args.shown_triple else None)
    _print_plays(plays, args.json)


def _cmd_dc_settle(args):
    from handeval import dachu

    s = dachu.settle(args.chu_side, args.places, base=args.base, multiplier=args.multiplier,
                     surrendered=args.surrendered, bei_bao_da=args.bei_bao_da, escaped=args.escaped or (),
                     carried=args.carried)
    if args.json:
        return _print_json(s)
    print(f"verdict {_value_text(s.verdict)}" + (" (全殲)" if s.wipe_out else "") + f", multiplier {s.result_multiplier}")
    _settlement_text(s, [f"seat {x.seat} {x.amount:+d} {x.item}: {x.note}" for x in s.lines])


def _deal_dict(d):
    names = ("dealt", "finished", "chu", "chu_source", "chu_side", "teams", "multiplier", "declared",
             "first_leader", "last_card", "meng_xuan", "meng_chuai", "cheng_chu", "history", "legal_actions")
    return {k: getattr(d, k) for k in names}


def _calling_dict(c):
    names = ("phase", "turn", "over", "outcome", "multiplier", "calling_side", "chu_side", "playing",
             "surrendered", "bei_bao_da", "bao_chuai", "finals", "history", "legal_actions")
    return {k: getattr(c, k) for k in names}


def _value_text(v, top=True):
    """A state value as text for people, never Python's repr: None is ``-``, a bool
    ``yes``/``no``, a list's items are separated by ``, `` (by spaces inside an item, so a
    list of card lists reads ``5s 5h 5d, 9c 9d 9h``); an empty list is ``none``."""
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        if not v:
            return "none" if top else "-"
        return (", " if top else " ").join(_value_text(x, top=False) for x in v)
    return str(v)


def _print_state(title, d):
    print(title)
    for k, v in d.items():
        if k in ("legal_actions", "history"):
            v = "; ".join(map(_action_text, v)) or "none"
        else:
            v = _value_text(v)
        print(f"  {k:<14}{v}")


def _cmd_dc_deal(args):
    from handeval import dachu

    if len(args.hands) != 4:
        raise _Usage("--hands takes 4 seats' 13 cards (each quoted)")
    d = _apply_all(dachu.Deal(args.hands, first_seat=args.first_seat), args.actions or [], "actions")
    out = {"deal": _deal_dict(d)}
    if args.calls is not None:
        if not d.finished:
            raise _Usage("--calls needs a finished deal (end the actions with finish)")
        out["calling"] = _calling_dict(_apply_all(d.calling(), args.calls, "calls"))
    if args.json:
        return _print_json(out)
    _print_state("deal", out["deal"])
    if "calling" in out:
        _print_state("calling", out["calling"])


def _cmd_dc_calling(args):
    from handeval import dachu

    c = dachu.Calling(args.chu_side, declared=args.declared, multiplier=args.multiplier,
                      start_seat=args.start_seat, first_side=args.first_side)
    c = _apply_all(c, args.calls or [], "calls")
    _print_json(_calling_dict(c)) if args.json else _print_state("calling", _calling_dict(c))


def _cmd_dc_timeout(args):
    from handeval import dachu

    columns = [col.split() for col in " ".join(args.columns).split("|")]
    got = dachu.timeout_play(columns, _cards(args.table) if args.table else None, args.chu,
                             first_lead=args.first_lead, surrendered=args.surrendered,
                             shown_triple=_cards(args.shown_triple) if args.shown_triple else None)
    if args.json:
        return _print_json({"passes": got is None, "cards": got or []})
    print("pass" if got is None else "play " + " ".join(got))


def _dc_game_dict(g):
    names = ("chu", "chu_side", "multiplier", "playing", "auto_lead", "turn", "leader", "table_seat", "table",
             "passed", "may_pass", "legal_actions", "held", "places", "decided", "wipe_out", "over", "history")
    d = g.to_dict()
    return {k: d[k] for k in names}


def _cmd_dc_game(args):
    from handeval import dachu

    if len(args.hands) != 4:
        raise _Usage("--hands takes 4 seats' 13 cards (each quoted)")
    d = _apply_all(dachu.Deal(args.hands, first_seat=args.first_seat), args.actions or [], "actions")
    if not d.finished:
        raise _Usage("the play needs a finished deal (end the actions with finish)")
    c = _apply_all(d.calling(), args.calls or [], "calls")
    if not c.over:
        raise _Usage("the play needs a finished calling (--calls)")
    # A timeout's columns as text: "timeout 0 Kh | 9c | 4d 4h 4s".
    plays = [(a[0], a[1], [col.split() for col in a[2].split("|")]) if a[0] == "timeout" and len(a) == 3
             and isinstance(a[2], str) else a for a in args.plays or []]
    g = _apply_all(dachu.Game(d, c), plays, "plays")
    if args.viewer is None:
        out = {"game": _dc_game_dict(g)}
    else:
        view = g.view(args.viewer)
        out = {"game": {k: view[k] for k in ("viewer", *_dc_game_dict(g), "counts")}}
    out["game"]["timeouts"] = g.timeouts
    if args.base is not None:
        if g.decided is None:
            turn = "-" if g.turn is None else g.turn
            out["note"] = f"not settled: the outcome can still change (seat {turn} to move); --base settles once decided"
        else:
            out["settlement"] = g.settle(base=args.base, carried=args.carried)
    if args.json:
        return _print_json(out)
    game = dict(out["game"])
    game["table"] = " ".join(g.table.cards) if g.table else "none"
    game["held"] = " | ".join("?" if h is None else " ".join(h) or "-" for h in game["held"])
    game["timeouts"] = "; ".join(f"plays[{k}] became {_action_text(a)}" for k, a in g.timeouts) or "none"
    _print_state("game", game)
    if "note" in out:
        print(out["note"])
    if "settlement" in out:
        s = out["settlement"]
        print(f"verdict {s.verdict}" + (" (全殲)" if s.wipe_out else "") + f", multiplier {s.result_multiplier}")
        _settlement_text(s, [f"seat {x.seat} {x.amount:+d} {x.item}: {x.note}" for x in s.lines])


# ------------------------------------------------------------------------ server


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


def _cmd_bench_load(args):
    # The Locust load tests of the package (handeval.load); all flags pass through.
    from handeval.load.run import main

    return main(args.args, prog="handeval bench-load")


# ------------------------------------------------------------------------ parser


def _version():
    try:
        from importlib.metadata import version

        return version("handeval")
    except Exception:  # running from a source tree that is not installed
        from handeval import __version__

        return __version__


def _build_parser():
    p = argparse.ArgumentParser(prog="handeval", description="Hand evaluation for 十三水, 越式13张 and 打儲.")
    p.add_argument("--version", action="version", version=f"handeval {_version()}")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")
    # The same flag after the subcommand; SUPPRESS keeps a --json given before it.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON instead of text")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def cmd(group, name, func, help, **kw):
        c = group.add_parser(name, help=help, parents=[common], **kw)
        c.set_defaults(func=func)
        return c

    def cards(c, name="cards", help="cards, one quoted argument or several: As Ks Qs", nargs="+"):
        c.add_argument(name, nargs=nargs, help=help)

    c = cmd(sub, "classify", _cmd_classify, "classify a 十三水 row (3 or 5 cards)")
    cards(c)
    c = cmd(sub, "special", _cmd_special, "the 十三水 special hand of 13 cards, if any")
    cards(c, help="13 cards")

    c = cmd(sub, "compare", _cmd_compare, "compare two 十三水 rows: 1 (first wins), 0 (tie) or -1")
    cards(c, help="the first row")
    c.add_argument("--vs", nargs="+", required=True, help="the second row")
    c = cmd(sub, "settle", _cmd_settle, "score and settle a 十三水 deal",
            epilog='e.g. handeval settle --base 10 "Qs Qh Qd / 2h 5h 7h 9h Jh / Ks Kh Kd 4s 4h" '
                   '"2s 3d 5c / 6c 7c 8d 9s Td / 2c 4c Jc Kc Ac"')
    c.add_argument("seats", nargs="+",
                   help="each seat, one quoted argument: 'front / middle / back', or 'special_id: 13 cards' declared")
    c.add_argument("--base", type=int, default=1, help="money per water (default 1)")
    c.add_argument("--carried", type=_int_list, help='carried-in amounts per seat, e.g. "500,60" (- uncapped)')

    a = cmd(sub, "arrange", _cmd_arrange, "the best 十三水 arrangement of 13 cards (expected waters)")
    cards(a, help="13 cards (or --file)", nargs="*")
    a.add_argument("--file", metavar="FILE",
                   help='arrange every hand of FILE ("-": stdin), one a line (cards, or JSONL: a string, a list '
                        'or {"cards": ..., "id": ...}); writes JSONL, a progress bar on a terminal')
    a.add_argument("--output", "-o", metavar="OUT", help="with --file: write the JSONL here (default stdout)")
    a.add_argument("--top-k", type=int, default=3, help="how many alternatives to list (default 3)")
    a.add_argument("--opponents", type=int, default=3, help="number of opponents, 1..3 (default 3)")
    a.add_argument("--seed", type=int, default=0, help="seed of the Monte-Carlo re-ranking")
    a.add_argument("--samples", type=int, default=0,
                   help="re-rank by this many simulated opponent deals (default 0: tables only)")

    # 越式13张
    tl = sub.add_parser("tienlen", help="越式13张 (Tiến lên): classify, beats, legal, instant, settle")
    tls = tl.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
    c = cmd(tls, "classify", _cmd_tl_classify, "the play a set of cards makes")
    cards(c)
    c = cmd(tls, "beats", _cmd_tl_beats, "whether a play beats the table (and why not)")
    cards(c, help="the play")
    c.add_argument("--table", nargs="+", required=True, help="the play on the table")
    c = cmd(tls, "legal", _cmd_tl_legal, "every play a hand may make now, weakest first")
    cards(c, help="the hand")
    c.add_argument("--table", nargs="+", help="the play to beat (default: leading)")
    c.add_argument("--passed", action="store_true", help="the seat has passed this round (only chops)")
    c = cmd(tls, "instant", _cmd_tl_instant, "the instant win (直接获胜) of 13 dealt cards, if any")
    cards(c, help="13 cards")
    c = cmd(tls, "settle", _cmd_tl_settle, "settle a finished game (or an instant win)",
            epilog='e.g. handeval tienlen settle --winner 0 --base 10 - "2h 7s 7h 7d 7c" "3s 4h" "5d 6c 8s"')
    c.add_argument("hands", nargs="+",
                   help='each seat\'s cards left, one quoted argument per seat ("-": none); with --instant the 13 dealt')
    c.add_argument("--winner", type=int, help="the seat that went out first")
    c.add_argument("--base", type=int, default=1, help="the base stake (default 1, as in every game)")
    c.add_argument("--instant", action="store_true", help="settle an instant win from each seat's 13 dealt cards")
    c.add_argument("--chops", help='the game\'s chops as JSON, e.g. \'[{"from": 1, "to": 3, "amount": 80}]\'')
    c.add_argument("--carried", type=_int_list, help='carried-in amounts per seat, e.g. "500,60,-,-" (- uncapped)')

    c = cmd(tls, "game", _cmd_tl_game, "replay a whole game's record; print its state (and settle it)",
            epilog='e.g. handeval tienlen game --hands "<13 cards>" x4 --actions "0 3s; 1 4h; 2 pass" --base 10')
    c.add_argument("--hands", nargs="+", required=True, help="each seat's 13 dealt cards, one quoted argument per seat")
    c.add_argument("--actions", type=_tl_actions_arg,
                   help='"-" reads stdin; JSON ([[0, "3s"], [1, "pass"]]) or text: "seat cards" or "seat pass", one a line or ";"')
    c.add_argument("--base", type=int, help="settle the finished game at this base")
    c.add_argument("--carried", type=_int_list, help='carried-in amounts per seat, e.g. "500,60,-,-" (- uncapped)')
    c.add_argument("--viewer", type=int, help="print the state as this seat sees it (its own cards and choices)")

    # 打儲
    dc = sub.add_parser("dachu", help="打儲: classify, beats, legal, settle, deal and calling from actions")
    dcs = dc.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
    chu = dict(choices=["red", "black"], required=True, help="the 儲 colour")
    c = cmd(dcs, "classify", _cmd_dc_classify, "the play a set of cards makes")
    cards(c)
    c.add_argument("--chu", **chu)
    c = cmd(dcs, "beats", _cmd_dc_beats, "whether a play beats the table")
    cards(c, help="the play")
    c.add_argument("--table", nargs="+", required=True, help="the play on the table")
    c.add_argument("--chu", **chu)
    c = cmd(dcs, "legal", _cmd_dc_legal, "every play a hand may make now, weakest first")
    cards(c, help="the hand")
    c.add_argument("--table", nargs="+", help="the play to beat (default: leading)")
    c.add_argument("--chu", **chu)
    c.add_argument("--first-lead", action="store_true", help="the deal's first play (must hold 3♥)")
    c.add_argument("--surrendered", action="store_true", help="with --first-lead: the 繳 holder's 3♥ alone")
    c.add_argument("--shown-triple", nargs="+", help="the triple shown by 夢踹 (only played whole)")
    c = cmd(dcs, "timeout", _cmd_dc_timeout, "the play for a player out of time (出牌超時), from the hand as shown",
            epilog='e.g. handeval dachu timeout --columns "Kh | 9c | 4d 4h 4s" --chu red')
    c.add_argument("--columns", nargs="+", required=True,
                   help='the hand as the client shows it: columns left to right split by "|", each top first')
    c.add_argument("--table", nargs="+", help="the play to beat (default: leading)")
    c.add_argument("--chu", **chu)
    c.add_argument("--first-lead", action="store_true", help="the deal's first play (must hold 3♥)")
    c.add_argument("--surrendered", action="store_true", help="with --first-lead: the 繳 holder's 3♥ alone")
    c.add_argument("--shown-triple", nargs="+", help="the triple shown by 夢踹 (skipped while whole)")
    c = cmd(dcs, "settle", _cmd_dc_settle, "settle a game from the 儲方 seats and the finishing order",
            epilog="e.g. handeval dachu settle --chu-side 2 --places 2 0 1 3 --base 10")
    c.add_argument("--chu-side", type=int, nargs="+", required=True, help="the 儲方 seats (1: 1 vs 3, 2: 2 vs 2)")
    c.add_argument("--places", type=int, nargs="+", help="finishing order of the seats that played, first out first")
    c.add_argument("--base", type=int, default=1, help="底分 (default 1)")
    c.add_argument("--multiplier", type=int, help="from the deal and calling (default 1)")
    c.add_argument("--surrendered", type=int, nargs="+", help="繳 seats")
    c.add_argument("--bei-bao-da", type=int, nargs="+", help="被包打 seats")
    c.add_argument("--escaped", type=int, nargs="+", help="seats that ran away (逃跑)")
    c.add_argument("--carried", type=_int_list, help='carried-in amounts per seat, e.g. "500,60,-,-"')
    actions_help = ('"-" reads stdin; JSON ([["deal"], ["meng_xuan", 0, "Ah"]]) or text, one action a line or '
                    '";": name, seats, cards, "*N" repeats (deal*9; finish)')
    c = cmd(dcs, "deal", _cmd_dc_deal, "replay the deal's actions (夢宣 夢踹 撐儲 平宣); print the state",
            epilog='e.g. handeval dachu deal --hands "<13 cards>" x4 --actions "deal; meng_xuan 0 Ah; deal*8; finish"')
    c.add_argument("--hands", nargs="+", required=True, help="each seat's 13 cards in dealing order, one quoted argument per seat")
    c.add_argument("--first-seat", type=int, default=0, help="the seat dealt to first (default 0)")
    c.add_argument("--actions", type=_actions_arg, help="the deal's actions: " + actions_help)
    c.add_argument("--calls", type=_actions_arg, help="then the calling's actions (chuai 0; ping_da 1 ...)")
    c = cmd(dcs, "calling", _cmd_dc_calling, "replay a calling (叫牌: 平打 踹 包踹 繳); print the state",
            epilog='e.g. handeval dachu calling --chu-side 0 --calls "chuai 0; ping_da 1; ping_da 2; ping_da 3"')
    c.add_argument("--chu-side", type=int, nargs="+", required=True, help="the 儲方 seats")
    c.add_argument("--declared", action="store_true", help="a 夢宣 or 撐儲 happened")
    c.add_argument("--multiplier", type=int, default=1, help="from the deal (default 1)")
    c.add_argument("--start-seat", type=int, default=0, help="seat order starts here (default 0)")
    c.add_argument("--first-side", choices=["chu", "other"], help="who calls first (default: the rules')")
    c.add_argument("--calls", type=_actions_arg, help="the calls: " + actions_help)
    c = cmd(dcs, "game", _cmd_dc_game, "replay a game's deal, calling and play; print the play's state (and settle it)",
            epilog='e.g. handeval dachu game --hands "<13 cards>" x4 --actions "deal*9; finish" --calls "ping_da 1; ping_da 3" '
                   '--plays "play 0 3h; pass 1" --base 10')
    c.add_argument("--hands", nargs="+", required=True, help="each seat's 13 cards in dealing order, one quoted argument per seat")
    c.add_argument("--first-seat", type=int, default=0, help="the seat dealt to first (default 0)")
    c.add_argument("--actions", type=_actions_arg, help="the deal's actions: " + actions_help)
    c.add_argument("--calls", type=_actions_arg, help="the calling's actions")
    c.add_argument("--plays", type=_actions_arg,
                   help='the play: play SEAT CARDS; pass SEAT; timeout SEAT [COLUMNS split by "|"]')
    c.add_argument("--base", type=int, help="settle from the record at this base (once decided)")
    c.add_argument("--carried", type=_int_list, help='carried-in amounts per seat, e.g. "500,60,-,-"')
    c.add_argument("--viewer", type=int, help="print the state as this seat sees it (its own cards and choices)")

    from handeval.server.config import add_serve_arguments

    v = sub.add_parser("serve", help="run the gRPC service handeval.v2 (see docs/grpc.md)")
    add_serve_arguments(v)
    v.set_defaults(func=_cmd_serve)

    k = cmd(sub, "call", _cmd_call, "call the gRPC service with a JSON request, print the JSON answer")
    k.add_argument("rpc", choices=["Evaluate", "Compare", "Settle", "Arrange"])
    k.add_argument("request", help='proto3 JSON, e.g. \'{"shisanshui": {"items": [{"row": {"cards": ["As", "Ks", "Qs"]}}]}}\'; "-" reads stdin')
    k.add_argument("--target", default="127.0.0.1:50051", help="host:port (default 127.0.0.1:50051)")
    k.add_argument("--timeout", type=float, default=10.0, help="deadline in seconds (default 10)")
    k.add_argument("--token", default=None, help="shared token (default: $HANDEVAL_TOKEN)")
    k.add_argument("--tls-ca", default=None, help="PEM CA to verify the server: use TLS")

    # prefix_chars="\0": every flag after bench-load goes to handeval.load.run unparsed.
    b = sub.add_parser("bench-load", add_help=False, prefix_chars="\0",
                       help="Locust load test of the gRPC service, headless (needs handeval[load]; loopback "
                            "only, bounded; --help for its flags)")
    b.add_argument("args", nargs="*")
    b.set_defaults(func=_cmd_bench_load)
    return p


def _quiet_stdout():
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush
    does not raise again (the recipe of Python's signal module documentation)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv=None):
    try:
        args = _build_parser().parse_args(argv)
        return args.func(args) or 0
    except (HandevalError, _Usage) as e:
        print(f"handeval: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("handeval: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 141


if __name__ == "__main__":
    sys.exit(main())
