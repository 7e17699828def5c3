"""The 越式13张 commands of ``handeval`` (``handeval tienlen ...``): classify, beats,
legal, instant, settle, and game (a whole record replayed)."""

from __future__ import annotations

import argparse
import json
import sys

from handeval import tienlen
from handeval.cli.common import (
    Usage,
    add_cards,
    add_seat_options,
    card_text,
    command,
    int_list,
    name_commands,
    play_text,
    print_json,
    print_plays,
    seat_cards,
    settlement_text,
    value_text,
)
from handeval.errors import HandevalError


def _cmd_tl_classify(args):
    p = tienlen.classify(card_text(args.cards))
    print_json(p) if args.json else print(play_text(p))


def _cmd_tl_beats(args):
    play, table = card_text(args.cards), card_text(args.table)
    ok = tienlen.beats(play, table, rules=args.rules)
    why = None if ok else tienlen.why_not(play, table)
    if args.json:
        return print_json({"beats": ok, "why_not": why})
    print("yes" if ok else f"no: {why}")


def _cmd_tl_legal(args):
    plays = tienlen.legal_plays(
        card_text(args.cards), table=card_text(args.table) if args.table else None, passed=args.passed
    )
    print_plays(plays, args.json)


def _cmd_tl_instant(args):
    h = tienlen.instant_hand(card_text(args.cards))
    if args.json:
        return print_json(h)
    print("no instant win" if h is None else f"{h.kind} ({h.kind_zh}): {' '.join(h.cards)}")


def _cmd_tl_settle(args):
    hands = [seat_cards(h) for h in args.hands]
    if args.instant:
        s = tienlen.settle_instant(hands, base=args.base, carried=args.carried, rules=args.rules)
    else:
        if args.winner is None:
            raise Usage("--winner is required (or --instant)")
        chops = json.loads(args.chops) if args.chops else ()
        s = tienlen.settle(
            hands, winner=args.winner, base=args.base, chops=chops, carried=args.carried, rules=args.rules
        )
    if args.json:
        return print_json(s)
    settlement_text(s, [line.text for line in s.lines])
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
    names = (
        "round",
        "leader",
        "turn",
        "table_seat",
        "table",
        "passed",
        "must_contain",
        "may_pass",
        "legal_plays",
        "chop_offers",
        "held",
        "chops",
        "winner",
        "instant",
        "over",
    )
    d = g.to_dict()
    return {k: d[k] for k in names}


def _cmd_tl_game(args):
    hands = [seat_cards(h) for h in args.hands]
    actions = args.actions or []
    # The core's replay, as Python's tienlen.replay and gRPC's game record: the same
    # error (field, reason, action index) on every surface.
    try:
        g = tienlen.replay(hands, actions, rules=args.rules)
    except HandevalError as e:
        if e.action_index is None:
            raise
        seat, cards = actions[e.action_index]
        shown = cards if isinstance(cards, str) else " ".join(map(str, cards))
        raise Usage(f"{e.field} ({seat} {shown}): {e.description}", e.reason) from None
    if args.viewer is None:
        out = {"game": _tl_game_dict(g)}
    else:
        view = g.view(args.viewer)
        out = {"game": {k: view[k] for k in ("viewer", *_tl_game_dict(g), "counts", "offers")}}
    # A viewer with no decision now (not its turn, no chop open to it) gets the state
    # without a suggestion, as gRPC answers it.
    if args.suggest and (args.viewer is None or out["game"]["offers"]):
        try:
            a = g.suggest(args.viewer, seed=args.seed, effort=args.effort)
        except HandevalError as e:
            raise Usage(f"--suggest: {e.field + ': ' if e.field else ''}{e.description} [{e.reason}]") from None
        out["suggest"] = {"seat": a[0], "action": a[1]} if a is not None else None
    if args.base is not None:
        out["settlement"] = g.settle(base=args.base, carried=args.carried)
    if args.json:
        return print_json(out)
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
        elif k == "offers":
            v = "; ".join(f"{' '.join(a) if a != 'pass' else a} ({acting})" for (_, a), acting in v) or "none"
        elif k == "chops":
            v = "; ".join(f"seat {a} pays seat {b} {n} x base" for a, b, n in v) or "none"
        else:
            v = value_text(v)
        print(f"  {k:<14}{v}")
    if args.suggest and "suggest" not in out:
        print(f"suggest: none (seat {args.viewer} has no decision now)")
    if "suggest" in out:
        a = out["suggest"]
        if a is None:
            print("suggest: let play go on (no chop)")
        else:
            print(f"suggest seat {a['seat']}: {a['action'] if a['action'] == 'pass' else ' '.join(a['action'])}")
    if "settlement" in out:
        s = out["settlement"]
        settlement_text(s, [line.text for line in s.lines])
        print(f"rake    {s.rake}")


def add_commands(sub):
    """The group ``tienlen`` in ``sub`` (the top level's subparsers); returns its commands' parsers."""
    tl = sub.add_parser("tienlen", help="越式13张 (Tiến lên)")
    tls = tl.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
    c = command(tls, "classify", _cmd_tl_classify, "the play a set of cards makes")
    add_cards(c)
    c = command(tls, "beats", _cmd_tl_beats, "whether a play beats the table (and why not)")
    add_cards(c, help="the play")
    c.add_argument("--table", nargs="+", required=True, help="the play on the table")
    c = command(tls, "legal", _cmd_tl_legal, "every play a hand may make now, weakest first")
    add_cards(c, help="the hand")
    c.add_argument("--table", nargs="+", help="the play to beat (default: leading)")
    c.add_argument("--passed", action="store_true", help="the seat has passed this round (only chops)")
    c = command(tls, "instant", _cmd_tl_instant, "the instant win (直接获胜) of 13 dealt cards, if any")
    add_cards(c, help="13 cards")
    c = command(
        tls,
        "settle",
        _cmd_tl_settle,
        "settle a finished game (or an instant win)",
        epilog='e.g. handeval tienlen settle --winner 0 --base 10 - "2h 7s 7h 7d 7c" "3s 4h" "5d 6c 8s"',
    )
    c.add_argument(
        "hands",
        nargs="+",
        help='each seat\'s cards left, one quoted argument per seat ("-": none); with --instant the 13 dealt',
    )
    c.add_argument("--winner", type=int, help="the seat that went out first")
    c.add_argument("--base", type=int, default=1, help="the base stake (default 1, as in every game)")
    c.add_argument("--instant", action="store_true", help="settle an instant win from each seat's 13 dealt cards")
    c.add_argument("--chops", help='the game\'s chops as JSON, e.g. \'[{"from": 1, "to": 3, "amount": 80}]\'')
    c.add_argument("--carried", type=int_list, help='carried-in amounts per seat, e.g. "500,60,-,-" (- uncapped)')

    c = command(
        tls,
        "game",
        _cmd_tl_game,
        "replay a whole game's record; print its state (and settle it)",
        epilog='e.g. handeval tienlen game --hands "<13 cards>" x4 --actions "0 3s; 1 4h; 2 pass" --base 10',
    )
    c.add_argument("--hands", nargs="+", required=True, help="each seat's 13 dealt cards, one quoted argument per seat")
    c.add_argument(
        "--actions",
        type=_tl_actions_arg,
        help='"-" reads stdin; JSON ([[0, "3s"], [1, "pass"]]) or text: "seat cards" or "seat pass", one a line or ";"',
    )
    c.add_argument("--base", type=int, help="settle the finished game at this base")
    c.add_argument("--carried", type=int_list, help='carried-in amounts per seat, e.g. "500,60,-,-" (- uncapped)')
    add_seat_options(
        c,
        "print the state as this seat sees it (its own cards and choices)",
        "also suggest the move of the seat to move, or with --viewer the viewer's when it has a decision"
        " (a chop out of turn included; none otherwise) (托管, docs/suggest.md)",
    )
    name_commands(sub, tl, "越式13张 (Tiến lên)")
    return list(tls.choices.values())
