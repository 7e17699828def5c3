"""The 打儲 commands of ``handeval`` (``handeval dachu ...``): classify, beats, legal,
timeout, settle, and deal, calling and game (records replayed from actions)."""

from __future__ import annotations

from handeval import dachu
from handeval.cli.common import (
    Usage,
    action_text,
    actions_arg,
    add_cards,
    add_seat_options,
    apply_all,
    card_text,
    command,
    int_list,
    name_commands,
    play_text,
    print_json,
    print_plays,
    print_state,
    settlement_text,
    value_text,
)
from handeval.errors import HandevalError


def _cmd_dc_classify(args):
    p = dachu.classify(card_text(args.cards), args.chu, rules=args.rules)
    print_json(p) if args.json else print(play_text(p))


def _cmd_dc_beats(args):
    ok = dachu.beats(card_text(args.cards), card_text(args.table), args.chu, rules=args.rules)
    print_json({"beats": ok}) if args.json else print("yes" if ok else "no")


def _cmd_dc_legal(args):
    plays = dachu.legal_plays(
        card_text(args.cards),
        card_text(args.table) if args.table else None,
        args.chu,
        first_lead=args.first_lead,
        surrendered=args.surrendered,
        shown_triple=card_text(args.shown_triple) if args.shown_triple else None,
        rules=args.rules,
    )
    print_plays(plays, args.json)


def _cmd_dc_settle(args):
    s = dachu.settle(
        args.chu_side,
        args.places,
        base=args.base,
        multiplier=args.multiplier,
        surrendered=args.surrendered,
        bei_bao_da=args.bei_bao_da,
        escaped=args.escaped or (),
        carried=args.carried,
        rules=args.rules,
    )
    if args.json:
        return print_json(s)
    print(
        f"verdict {value_text(s.verdict)}" + (" (全殲)" if s.wipe_out else "") + f", multiplier {s.result_multiplier}"
    )
    settlement_text(s, [f"seat {x.seat} {x.amount:+d} {x.kind}: {x.text}" for x in s.lines])


def _deal_dict(d):
    names = (
        "dealt",
        "finished",
        "chu",
        "chu_source",
        "chu_side",
        "teams",
        "multiplier",
        "declared",
        "first_leader",
        "last_card",
        "meng_xuan",
        "meng_chuai",
        "cheng_chu",
        "history",
        "legal_actions",
    )
    return {k: getattr(d, k) for k in names}


def _calling_dict(c):
    names = (
        "phase",
        "turn",
        "over",
        "outcome",
        "multiplier",
        "calling_side",
        "chu_side",
        "playing",
        "surrendered",
        "bei_bao_da",
        "bao_chuai",
        "finals",
        "history",
        "legal_actions",
    )
    return {k: getattr(c, k) for k in names}


def _suggestion(action):
    """A suggested action as the CLI prints it: the seat, the action's name and the rest."""
    return {"seat": action[1], "action": action[0], "more": [list(x) if isinstance(x, list) else x for x in action[2:]]}


def _deal_suggest(args, d, c):
    """托管 for the decision open in the deal or the calling (None: the viewer has none, so
    the state is answered without a suggestion, as gRPC does)."""
    try:
        if c is not None:
            if c.over or (args.viewer is not None and args.viewer != c.turn):
                return None
            call, seat = c.suggest(args.hands[c.turn], d.chu, c.turn, seed=args.seed, effort=args.effort)
            return _suggestion((call, seat))
        if args.viewer is None:
            raise Usage("--suggest in the deal needs --viewer S: the deal has no turn, each seat declares on its own")
        if not d.offers(args.viewer):
            return None
        a = d.suggest(args.viewer, seed=args.seed, effort=args.effort)
    except HandevalError as e:
        raise Usage(f"--suggest: {e.field + ': ' if e.field else ''}{e.description} [{e.reason}]") from None
    # None: declare nothing now (let the deal go on).
    return {"seat": args.viewer, "action": None, "more": []} if a is None else _suggestion(a)


def _cmd_dc_deal(args):
    if len(args.hands) != 4:
        raise Usage("--hands takes 4 seats' 13 cards (each quoted)", "wrong_count")
    d = apply_all(dachu.Deal(args.hands, first_seat=args.first_seat, rules=args.rules), args.actions or [], "actions")
    if args.viewer is None:
        out = {"deal": _deal_dict(d)}
    else:
        view = d.view(args.viewer)
        out = {"deal": {k: view[k] for k in ("viewer", *_deal_dict(d)) if k in view}}
    # With --suggest a finished deal's calling starts even without --calls: its first call is
    # the decision then open.
    calls = [] if args.calls is None and args.suggest and d.finished else args.calls
    c = None
    if calls is not None:
        if not d.finished:
            raise Usage("--calls needs a finished deal (end the actions with finish)")
        c = apply_all(d.calling(), calls, "calls")
        out["calling"] = _calling_dict(c)
    if args.suggest:
        got = _deal_suggest(args, d, c)
        if got is not None:
            out["suggest"] = got
    if args.json:
        return print_json(out)
    print_state("deal", out["deal"])
    if "calling" in out:
        print_state("calling", out["calling"])
    if "suggest" in out:
        a = out["suggest"]
        what = "declare nothing" if a["action"] is None else " ".join([a["action"], *map(str, a["more"])])
        print(f"suggest seat {a['seat']}: {what}")


def _cmd_dc_calling(args):
    c = dachu.Calling(
        args.chu_side,
        declared=args.declared,
        multiplier=args.multiplier,
        start_seat=args.start_seat,
        first_side=args.first_side,
        rules=args.rules,
    )
    c = apply_all(c, args.calls or [], "calls")
    print_json(_calling_dict(c)) if args.json else print_state("calling", _calling_dict(c))


def _cmd_dc_timeout(args):
    columns = [col.split() for col in " ".join(args.columns).split("|")]
    got = dachu.timeout_play(
        columns,
        card_text(args.table) if args.table else None,
        args.chu,
        first_lead=args.first_lead,
        surrendered=args.surrendered,
        shown_triple=card_text(args.shown_triple) if args.shown_triple else None,
    )
    if args.json:
        return print_json({"passes": got is None, "cards": got or []})
    print("pass" if got is None else "play " + " ".join(got))


def _dc_game_dict(g):
    names = (
        "chu",
        "chu_side",
        "multiplier",
        "playing",
        "auto_lead",
        "turn",
        "leader",
        "table_seat",
        "table",
        "passed",
        "may_pass",
        "legal_actions",
        "held",
        "places",
        "decided",
        "wipe_out",
        "over",
        "history",
    )
    d = g.to_dict()
    return {k: d[k] for k in names}


def _cmd_dc_game(args):
    if len(args.hands) != 4:
        raise Usage("--hands takes 4 seats' 13 cards (each quoted)", "wrong_count")
    # A timeout's columns as text: "timeout 0 Kh | 9c | 4d 4h 4s".
    plays = [
        (a[0], a[1], [col.split() for col in a[2].split("|")])
        if a[0] == "timeout" and len(a) == 3 and isinstance(a[2], str)
        else a
        for a in args.plays or []
    ]
    lists = {
        "deal_actions": ("actions", args.actions or []),
        "calls": ("calls", args.calls or []),
        "plays": ("plays", plays),
    }
    # Replayed as replay_game and the service replay a record: the same error (the first
    # the replay reaches), named by this command's options (--actions, --calls, --plays).
    try:
        g = dachu.replay_game(
            args.hands, lists["deal_actions"][1], args.calls or [], plays, first_seat=args.first_seat, rules=args.rules
        )
    except HandevalError as e:
        field, desc = e.field or "", getattr(e, "description", None) or str(e)
        name = field.split("[", 1)[0]
        if e.action_index is not None and name in lists:
            option, entries = lists[name]
            action = entries[e.action_index]
            raise Usage(f"{option}[{e.action_index}] ({action_text(action)}): {desc}", e.reason) from None
        raise Usage(f"{field}: {desc}" if field else desc, e.reason) from None
    if args.viewer is None:
        out = {"game": _dc_game_dict(g)}
    else:
        view = g.view(args.viewer)
        out = {"game": {k: view[k] for k in ("viewer", *_dc_game_dict(g), "counts")}}
    out["game"]["timeouts"] = g.timeouts
    # A viewer with no decision now gets the state without a suggestion (as over gRPC).
    if args.suggest and (args.viewer is None or g.offers(args.viewer)):
        try:
            a = g.suggest(args.viewer, seed=args.seed, effort=args.effort)
        except HandevalError as e:
            raise Usage(f"--suggest: {e.field + ': ' if e.field else ''}{e.description} [{e.reason}]") from None
        out["suggest"] = {"seat": a[1], "action": a[0], "cards": list(a[2]) if len(a) > 2 else None}
    if args.base is not None:
        if g.decided is None:
            turn = "-" if g.turn is None else g.turn
            out["note"] = (
                f"not settled: the outcome can still change (seat {turn} to move); --base settles once decided"
            )
        else:
            out["settlement"] = g.settle(base=args.base, carried=args.carried)
    if args.json:
        return print_json(out)
    game = dict(out["game"])
    game["table"] = " ".join(g.table.cards) if g.table else "none"
    game["held"] = " | ".join("?" if h is None else " ".join(h) or "-" for h in game["held"])
    game["timeouts"] = "; ".join(f"plays[{k}] became {action_text(a)}" for k, a in g.timeouts) or "none"
    print_state("game", game)
    if "note" in out:
        print(out["note"])
    if "suggest" in out:
        a = out["suggest"]
        print(f"suggest seat {a['seat']}: {a['action']}" + (f" {' '.join(a['cards'])}" if a["cards"] else ""))
    if "settlement" in out:
        s = out["settlement"]
        print(f"verdict {s.verdict}" + (" (全殲)" if s.wipe_out else "") + f", multiplier {s.result_multiplier}")
        settlement_text(s, [f"seat {x.seat} {x.amount:+d} {x.kind}: {x.text}" for x in s.lines])


def add_commands(sub):
    """The group ``dachu`` in ``sub`` (the top level's subparsers); returns its commands' parsers."""
    dc = sub.add_parser("dachu", help="打儲")
    dcs = dc.add_subparsers(dest="game_command", required=True, metavar="COMMAND")
    chu = dict(choices=["red", "black"], required=True, help="the 儲 colour")
    c = command(dcs, "classify", _cmd_dc_classify, "the play a set of cards makes")
    add_cards(c)
    c.add_argument("--chu", **chu)
    c = command(dcs, "beats", _cmd_dc_beats, "whether a play beats the table")
    add_cards(c, help="the play")
    c.add_argument("--table", nargs="+", required=True, help="the play on the table")
    c.add_argument("--chu", **chu)
    c = command(dcs, "legal", _cmd_dc_legal, "every play a hand may make now, weakest first")
    add_cards(c, help="the hand")
    c.add_argument("--table", nargs="+", help="the play to beat (default: leading)")
    c.add_argument("--chu", **chu)
    c.add_argument("--first-lead", action="store_true", help="the deal's first play (must hold 3♥)")
    c.add_argument("--surrendered", action="store_true", help="with --first-lead: the 繳 holder's 3♥ alone")
    c.add_argument("--shown-triple", nargs="+", help="the triple shown by 夢踹 (only played whole)")
    c = command(
        dcs,
        "timeout",
        _cmd_dc_timeout,
        "the play for a player out of time (出牌超時), from the hand as shown",
        epilog='e.g. handeval dachu timeout --columns "Kh | 9c | 4d 4h 4s" --chu red',
    )
    c.add_argument(
        "--columns",
        nargs="+",
        required=True,
        help='the hand as the client shows it: columns left to right split by "|", each top first',
    )
    c.add_argument("--table", nargs="+", help="the play to beat (default: leading)")
    c.add_argument("--chu", **chu)
    c.add_argument("--first-lead", action="store_true", help="the deal's first play (must hold 3♥)")
    c.add_argument("--surrendered", action="store_true", help="with --first-lead: the 繳 holder's 3♥ alone")
    c.add_argument("--shown-triple", nargs="+", help="the triple shown by 夢踹 (skipped while whole)")
    c = command(
        dcs,
        "settle",
        _cmd_dc_settle,
        "settle a game from the 儲方 seats and the finishing order",
        epilog="e.g. handeval dachu settle --chu-side 2 --places 2 0 1 3 --base 10",
    )
    c.add_argument("--chu-side", type=int, nargs="+", required=True, help="the 儲方 seats (1: 1 vs 3, 2: 2 vs 2)")
    c.add_argument("--places", type=int, nargs="+", help="finishing order of the seats that played, first out first")
    c.add_argument("--base", type=int, default=1, help="底分 (default 1)")
    c.add_argument("--multiplier", type=int, help="from the deal and calling (default 1)")
    c.add_argument("--surrendered", type=int, nargs="+", help="繳 seats")
    c.add_argument("--bei-bao-da", type=int, nargs="+", help="被包打 seats")
    c.add_argument("--escaped", type=int, nargs="+", help="seats that ran away (逃跑)")
    c.add_argument("--carried", type=int_list, help='carried-in amounts per seat, e.g. "500,60,-,-"')
    actions_help = (
        '"-" reads stdin; JSON ([["deal"], ["meng_xuan", 0, "Ah"]]) or text, one action a line or '
        '";": name, seats, cards, "*N" repeats (deal*9; finish)'
    )
    c = command(
        dcs,
        "deal",
        _cmd_dc_deal,
        "replay the deal's actions (夢宣 夢踹 撐儲 平宣); print the state",
        epilog='e.g. handeval dachu deal --hands "<13 cards>" x4 --actions "deal; meng_xuan 0 Ah; deal*8; finish"',
    )
    c.add_argument(
        "--hands", nargs="+", required=True, help="each seat's 13 cards in dealing order, one quoted argument per seat"
    )
    c.add_argument("--first-seat", type=int, default=0, help="the seat dealt to first (default 0)")
    c.add_argument("--actions", type=actions_arg, help="the deal's actions: " + actions_help)
    c.add_argument("--calls", type=actions_arg, help="then the calling's actions (chuai 0; ping_da 1 ...)")
    add_seat_options(
        c,
        "print the deal as this seat sees it (its own cards and declarations)",
        "also suggest (托管, docs/suggest.md) the --viewer's declaration in the deal (or none), or the "
        "call of the seat to call once the deal is finished; with --viewer, only when that seat has the decision",
    )
    c = command(
        dcs,
        "calling",
        _cmd_dc_calling,
        "replay a calling (叫牌: 平打 踹 包踹 繳); print the state",
        epilog='e.g. handeval dachu calling --chu-side 0 --calls "chuai 0; ping_da 1; ping_da 2; ping_da 3"',
    )
    c.add_argument("--chu-side", type=int, nargs="+", required=True, help="the 儲方 seats")
    c.add_argument("--declared", action="store_true", help="a 夢宣 or 撐儲 happened")
    c.add_argument("--multiplier", type=int, default=1, help="from the deal (default 1)")
    c.add_argument("--start-seat", type=int, default=0, help="seat order starts here (default 0)")
    c.add_argument("--first-side", choices=["chu", "other"], help="who calls first (default: the rules')")
    c.add_argument("--calls", type=actions_arg, help="the calls: " + actions_help)
    c = command(
        dcs,
        "game",
        _cmd_dc_game,
        "replay a game's deal, calling and play; print the play's state (and settle it)",
        epilog='e.g. handeval dachu game --hands "<13 cards>" x4 --actions "deal*9; finish" --calls "ping_da 1; ping_da 3" '
        '--plays "play 0 3h; pass 1" --base 10',
    )
    c.add_argument(
        "--hands", nargs="+", required=True, help="each seat's 13 cards in dealing order, one quoted argument per seat"
    )
    c.add_argument("--first-seat", type=int, default=0, help="the seat dealt to first (default 0)")
    c.add_argument("--actions", type=actions_arg, help="the deal's actions: " + actions_help)
    c.add_argument("--calls", type=actions_arg, help="the calling's actions")
    c.add_argument(
        "--plays", type=actions_arg, help='the play: play SEAT CARDS; pass SEAT; timeout SEAT [COLUMNS split by "|"]'
    )
    c.add_argument("--base", type=int, help="settle from the record at this base (once decided)")
    c.add_argument("--carried", type=int_list, help='carried-in amounts per seat, e.g. "500,60,-,-"')
    add_seat_options(
        c,
        "print the state as this seat sees it (its own cards and choices)",
        "also suggest the move of the seat to move (托管, docs/suggest.md); with --viewer, only "
        "when that seat is to move",
    )
    name_commands(sub, dc, "打儲")
    return list(dcs.choices.values())
