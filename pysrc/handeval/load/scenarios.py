"""The load scenarios: the requests of the pre-built ones and every check of their answers.

With ``play`` and ``table_wire`` (the played games: each request built from the answer
before it, ``PLAYED``) these are the modules of ``handeval.load`` that know the gRPC
contract (``handeval.v2``): this one builds the serialised requests of each scenario and
counts the item errors in a serialised response. The locustfile, the report and the
spawned servers see scenario names, method names and bytes only, so moving to another
version of the contract changes these files alone.

A scenario yields *units*: a list of calls sent one after another by one Locust user. A
batch scenario's unit is one call of ``batch`` items; a game-flow scenario's unit is the
sequence of calls a game backend makes for one whole game (``batch`` = games per unit).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

SERVICE = "handeval.v2.Handeval"
RPCS = ("Evaluate", "Compare", "Settle", "Arrange")
RANKS = "23456789TJQKA"
#: The deck, index = card id = rank * 4 + suit (packed rows): the one deck of the tests too
#: (harness/deck.py).
DECK = [r + s for r in RANKS for s in "shdc"]


@dataclass(frozen=True)
class Call:
    """One request: the method, its serialised request and the items it carries."""

    rpc: str
    payload: bytes
    items: int


def method_path(rpc: str) -> str:
    return f"/{SERVICE}/{rpc}"


# ---------------------------------------------------------------- request builders


def _pb():
    from handeval.v2 import dachu_pb2, handeval_pb2, shisanshui_pb2, tienlen_pb2

    return handeval_pb2, shisanshui_pb2, tienlen_pb2, dachu_pb2


def C(cards):
    """A ``Cards`` message from "As Ks" or a list of cards."""
    from handeval.v2 import common_pb2

    return common_pb2.Cards(cards=cards.split() if isinstance(cards, str) else list(cards))


def E(enum, name):
    """The value of a v2 enum named like the Python API (``E(DachuCallKind, "chuai")``)."""
    if name is None:
        return 0
    prefix = enum.DESCRIPTOR.values_by_number[0].name[: -len("UNSPECIFIED")]
    return enum.Value(prefix + name.upper())


def _act(seat, play):
    """A PlayAction from the API's ``(seat, cards | "pass")``."""
    from handeval.v2 import common_pb2

    if play == "pass":
        return common_pb2.PlayAction(seat=seat, kind=common_pb2.ACTION_KIND_PASS)
    return common_pb2.PlayAction(seat=seat, kind=common_pb2.ACTION_KIND_PLAY, cards=C(play))


def _arrangement(cards13):
    cards = sorted(cards13, key=lambda c: RANKS.index(c[0]))
    return cards[:3], cards[3:8], cards[8:]


def _call(rpc: str, msg, items: int) -> Call:
    return Call(rpc, msg.SerializeToString(), items)


def _same_rank_plays(rng, n):
    out = []
    for _ in range(n):
        r = rng.choice(RANKS)
        out.append(" ".join(rng.sample([r + s for s in "shdc"], rng.choice((1, 1, 2, 3)))))
    return out


def ssw_packed(rng, batch):
    pb, ssw, _, _ = _pb()
    # Large batches repeat rows drawn from 4,096 random ones (building 100,000 distinct
    # rows would cost the generator seconds per request).
    rows = [bytes(rng.sample(range(52), 5)) for _ in range(min(batch, 4096))]
    data = b"".join(rows if batch <= len(rows) else rng.choices(rows, k=batch))
    return [_call("Evaluate", pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(packed_rows=data)), batch)]


def ssw_evaluate(rng, batch):
    pb, ssw, _, _ = _pb()
    items = [ssw.ShisanshuiEvaluateItem(row=C(rng.sample(DECK, 5))) for _ in range(batch)]
    return [_call("Evaluate", pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=items)), batch)]


def ssw_compare(rng, batch):
    pb, ssw, _, _ = _pb()
    items = []
    for _ in range(batch):
        t = rng.sample(DECK, 10)  # one deck per pair
        items.append(ssw.ShisanshuiCompareItem(pair=ssw.ShisanshuiRowPair(a=C(t[:5]), b=C(t[5:]))))
    return [_call("Compare", pb.CompareRequest(shisanshui=ssw.ShisanshuiCompareRequest(items=items)), batch)]


def ssw_settle(rng, batch):
    pb, ssw, _, _ = _pb()
    deals = []
    for _ in range(batch):
        deck = rng.sample(DECK, 52)
        players = []
        for s in range(4):
            f, m, b = _arrangement(deck[13 * s : 13 * s + 13])
            players.append(
                ssw.ShisanshuiPlayer(arrangement=ssw.ShisanshuiArrangement(front=C(f), middle=C(m), back=C(b)))
            )
        deals.append(ssw.ShisanshuiDeal(players=players, base=10))
    return [_call("Settle", pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=deals)), batch)]


def ssw_arrange(rng, batch):
    pb, ssw, _, _ = _pb()
    items = [ssw.ShisanshuiArrangeItem(hand=C(rng.sample(DECK, 13))) for _ in range(batch)]
    return [_call("Arrange", pb.ArrangeRequest(shisanshui=ssw.ShisanshuiArrangeRequest(items=items)), batch)]


def ssw_flow(rng, batch):
    """Whole 十三水 deals as a game backend plays them: the suggested arrangement of each of
    the four hands (one Arrange call per seat), then the deal's settlement (the rows as
    each seat set them; here sorted by rank: the requests cannot wait for answers)."""
    pb, ssw, _, _ = _pb()
    calls = []
    for _ in range(batch):
        deck = rng.sample(DECK, 52)
        hands = [deck[13 * s : 13 * s + 13] for s in range(4)]
        for h in hands:
            calls.append(
                _call(
                    "Arrange",
                    pb.ArrangeRequest(
                        shisanshui=ssw.ShisanshuiArrangeRequest(items=[ssw.ShisanshuiArrangeItem(hand=C(h))])
                    ),
                    1,
                )
            )
        players = []
        for h in hands:
            f, m, b = _arrangement(h)
            players.append(
                ssw.ShisanshuiPlayer(arrangement=ssw.ShisanshuiArrangement(front=C(f), middle=C(m), back=C(b)))
            )
        deal = ssw.ShisanshuiDeal(players=players, base=10)
        calls.append(_call("Settle", pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(deals=[deal])), 1))
    return calls


def tienlen_evaluate(rng, batch):
    pb, _, tl, _ = _pb()
    items = [tl.TienlenEvaluateItem(play=C(p)) for p in _same_rank_plays(rng, batch)]
    return [_call("Evaluate", pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=items)), batch)]


def tienlen_compare(rng, batch):
    pb, _, tl, _ = _pb()
    items = [tl.TienlenCompareItem(play=C([a]), table=C([b])) for a, b in (rng.sample(DECK, 2) for _ in range(batch))]
    return [_call("Compare", pb.CompareRequest(tienlen=tl.TienlenCompareRequest(items=items)), batch)]


def _tienlen_game(rng) -> dict:
    """A random whole 4-seat game played with the Python API: who leads, each turn's legal
    plays and the checked action, then the result (what the flow's calls ask for)."""
    from handeval import tienlen

    deck = rng.sample(DECK, 52)
    hands = [deck[13 * i : 13 * i + 13] for i in range(4)]
    dealt = [" ".join(h) for h in hands]
    held = [set(h) for h in hands]
    first = tienlen.first_leader(hands)
    leader: Optional[int] = first.seat
    first_round, rounds, played, winner = True, [], [False] * 4, None
    steps = []  # (hand, table, passed, turns-so-far, first_round, leader, action)
    while winner is None:
        turns: List[Tuple[int, str]] = []
        while True:
            st = tienlen.round_state(
                turns, leader=None if first_round else leader, first_lead=first if first_round else None
            )
            if st.over:
                leader = st.next_leader
                break
            seat = st.to_move
            assert seat is not None  # a round not over has a player to move
            table = " ".join(st.plays[-1][1].cards) if st.plays else None
            hand = " ".join(sorted(held[seat]))
            plays = tienlen.legal_plays(hand, table=table, passed=seat in st.passed)
            action = " ".join(rng.choice(plays).cards) if plays and (not table or rng.random() < 0.7) else "pass"
            steps.append((hand, table, seat in st.passed, list(turns), first_round, leader, (seat, action)))
            turns.append((seat, action))
            if action != "pass":
                held[seat] -= set(action.split())
                played[seat] = True
                if not held[seat]:
                    winner = seat
                    break
        rounds.append(turns)
        first_round = False
    return {
        "dealt": dealt,
        "steps": steps,
        "rounds": rounds,
        "winner": winner,
        "played": played,
        "remaining": [" ".join(sorted(h)) for h in held],
    }


def _tienlen_deal(tl, g, base=10):
    return tl.TienlenDeal(
        outcome=tl.TienlenOutcome(
            remaining=[C(r) for r in g["remaining"]],
            winner=g["winner"],
            played_any=g["played"],
            chops=[tl.TienlenRound(actions=[_act(s, p) for s, p in r]) for r in g["rounds"]],
        ),
        base=base,
    )


def tienlen_settle(rng, batch):
    pb, _, tl, _ = _pb()
    deals = [_tienlen_deal(tl, _tienlen_game(rng)) for _ in range(batch)]
    return [_call("Settle", pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=deals)), batch)]


def tienlen_flow(rng, batch):
    """Whole 越式13张 games as a game backend plays them: who leads; per turn the legal
    plays offered to the player, then the chosen action checked against the round's
    state; at the end the settlement."""
    pb, _, tl, _ = _pb()
    calls = []

    def evaluate(item):
        calls.append(_call("Evaluate", pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=[item])), 1))

    for _ in range(batch):
        g = _tienlen_game(rng)
        evaluate(tl.TienlenEvaluateItem(first_leader=tl.TienlenFirstLeaderQuery(hands=[C(h) for h in g["dealt"]])))
        for hand, table, passed, turns, first_round, leader, (seat, action) in g["steps"]:
            lp = tl.TienlenLegalPlaysQuery(hand=C(hand), passed=passed)
            if table:
                lp.table.CopyFrom(C(table))
            evaluate(tl.TienlenEvaluateItem(legal_plays=lp))
            q = tl.TienlenRoundQuery(
                actions=[_act(s, p) for s, p in turns], hands=[C(h) for h in g["dealt"]] if first_round else ()
            )
            if not first_round:
                q.leader = leader
            q.check.CopyFrom(_act(seat, action))
            evaluate(tl.TienlenEvaluateItem(round_state=q))
        calls.append(
            _call("Settle", pb.SettleRequest(tienlen=tl.TienlenSettleRequest(deals=[_tienlen_deal(tl, g)])), 1)
        )
    return calls


def dachu_evaluate(rng, batch):
    pb, _, _, dc = _pb()
    items = [
        dc.DachuEvaluateItem(play=dc.DachuClassifyQuery(cards=C(p), chu=dc.DACHU_COLOUR_RED))
        for p in _same_rank_plays(rng, batch)
    ]
    return [_call("Evaluate", pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=items)), batch)]


def dachu_compare(rng, batch):
    pb, _, _, dc = _pb()
    items = [
        dc.DachuCompareItem(play=C([a]), table=C([b]), chu=dc.DACHU_COLOUR_BLACK)
        for a, b in (rng.sample(DECK, 2) for _ in range(batch))
    ]
    return [_call("Compare", pb.CompareRequest(dachu=dc.DachuCompareRequest(items=items)), batch)]


def _dachu_action(dc, a):
    kind, rest = a[0], a[1:]
    k = E(dc.DachuDealActionKind, kind)
    if kind == "cheng_chu":
        return dc.DachuDealAction(kind=k, seat=rest[0], colour=E(dc.DachuColour, rest[1] if len(rest) > 1 else None))
    if kind in ("meng_xuan", "meng_chuai"):
        return dc.DachuDealAction(kind=k, seat=rest[0], cards=C(rest[1]))
    return dc.DachuDealAction(kind=k)


def _dachu_game(rng, dc):
    """A random 打儲 deal and calling played with the Python API: the deal's actions (with
    random declarations), the calls, the finishing places. Returns the queries' states."""
    from handeval import dachu

    deck = rng.sample(DECK, 52)
    hands = [" ".join(deck[13 * i : 13 * i + 13]) for i in range(4)]
    first_seat = rng.randrange(4)
    deal = dachu.Deal(hands, first_seat)
    hands_c = [C(h) for h in hands]
    query = dc.DachuDealQuery(hands=hands_c, first_seat=first_seat)
    deal_states = [dc.DachuDealQuery(hands=hands_c, first_seat=first_seat)]
    while not deal.finished:
        legal = list(deal.legal_actions)
        pick = rng.choice(legal) if rng.random() < 0.3 else legal[0]
        query.actions.append(_dachu_action(dc, pick))
        deal_states.append(dc.DachuDealQuery(hands=hands_c, first_seat=first_seat, actions=list(query.actions)))
        deal = deal.apply(pick)
    calling = deal.calling()
    cq = dc.DachuCallingQuery(deal=query)
    calling_states = [dc.DachuCallingQuery(deal=query)]
    while not calling.over:
        call, seat = rng.choice(list(calling.legal_actions))
        cq.calls.append(dc.DachuCall(call=E(dc.DachuCallKind, call), seat=seat))
        calling_states.append(dc.DachuCallingQuery(deal=query, calls=list(cq.calls)))
        calling = calling.apply((call, seat))
    places = list(calling.playing)
    rng.shuffle(places)
    settle = dc.DachuDeal(
        outcome=dc.DachuOutcome(calling=cq, places=places if calling.outcome == "play" else ()), base=10
    )
    return deal_states, calling_states, settle


def dachu_settle(rng, batch):
    pb, _, _, dc = _pb()
    deals = [_dachu_game(rng, dc)[2] for _ in range(batch)]
    return [_call("Settle", pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=deals)), batch)]


def dachu_flow(rng, batch):
    """Whole 打儲 deals as a game backend plays them: the deal's state after each dealing
    step or declaration, the calling's state after each call, then the settlement."""
    pb, _, _, dc = _pb()
    calls = []
    for _ in range(batch):
        deal_states, calling_states, settle = _dachu_game(rng, dc)
        for q in deal_states:
            calls.append(
                _call(
                    "Evaluate",
                    pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=[dc.DachuEvaluateItem(deal=q)])),
                    1,
                )
            )
        for q in calling_states:
            calls.append(
                _call(
                    "Evaluate",
                    pb.EvaluateRequest(dachu=dc.DachuEvaluateRequest(items=[dc.DachuEvaluateItem(calling=q)])),
                    1,
                )
            )
        calls.append(_call("Settle", pb.SettleRequest(dachu=dc.DachuSettleRequest(deals=[settle])), 1))
    return calls


@dataclass(frozen=True)
class Scenario:
    name: str
    build: Optional[Callable[[random.Random, int], List[Call]]]  # None: played (PLAYED)
    weight: int  # default Locust user weight (share of the users)
    batch: int  # default items (batch scenarios) or games (flows) per unit
    about: str


# The default mix: the mixed load of scripts/bench_all.sh (weights are shares of the
# users; batch = items per request, or games per unit for a flow).
SCENARIOS: Dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("ssw.packed", ssw_packed, 1, 10000, "十三水 Evaluate, packed card-id rows"),
        Scenario("ssw.evaluate", ssw_evaluate, 8, 1, "十三水 Evaluate, row strings"),
        Scenario("ssw.compare", ssw_compare, 2, 10, "十三水 Compare, row pairs"),
        Scenario("ssw.settle", ssw_settle, 1, 5, "十三水 Settle, 4-seat deals"),
        Scenario("ssw.arrange", ssw_arrange, 1, 1, "十三水 Arrange, 13-card hands"),
        Scenario("ssw.flow", ssw_flow, 1, 1, "十三水 game flow: each seat's suggested arrangement, then settle"),
        Scenario("tienlen.evaluate", tienlen_evaluate, 2, 10, "越式13张 Evaluate, plays"),
        Scenario("tienlen.compare", tienlen_compare, 2, 10, "越式13张 Compare, play vs table"),
        Scenario("tienlen.settle", tienlen_settle, 1, 5, "越式13张 Settle, whole games with chops"),
        Scenario(
            "tienlen.flow", tienlen_flow, 1, 1, "越式13张 game flow: first leader, legal plays, checked turns, settle"
        ),
        Scenario("dachu.evaluate", dachu_evaluate, 2, 10, "打儲 Evaluate, plays"),
        Scenario("dachu.compare", dachu_compare, 2, 10, "打儲 Compare, play vs table"),
        Scenario("dachu.settle", dachu_settle, 1, 5, "打儲 Settle, called and played deals"),
        Scenario("dachu.flow", dachu_flow, 1, 1, "打儲 game flow: deal states, calling states, settle"),
    )
}


#: Whole games played from the answers, as a game server plays them (handeval.load.play;
#: their users: handeval.load.played_users): unary records, or tables on one Tables stream
#: per user (batch = tables per stream). No pre-built units; not in the default mix.
PLAYED: Dict[str, Scenario] = {
    s.name: s
    for s in (
        Scenario("tienlen.record", None, 1, 1, "越式13张 played: the seat to move's view of the record, 托管, Settle"),
        Scenario("dachu.record", None, 1, 1, "打儲 played: each decision's seat view of the record, 托管, Settle"),
        Scenario("tienlen.stream", None, 1, 8, "越式13张 played on a Tables stream, tables interleaved"),
        Scenario("dachu.stream", None, 1, 8, "打儲 played on a Tables stream, tables interleaved"),
    )
}


#: The mix of a run that names none, whichever way Locust is started (``handeval
#: bench-load`` or ``locust -f``): every scenario at its default weight and batch.
DEFAULT_MIX = "default"


def parse_mix(text: str) -> List[Tuple[str, int, int]]:
    """``"ssw.packed=2@100000,ssw.evaluate"`` → [(name, weight, batch)]; weight defaults
    to 1, batch to the scenario's default; "default" is the default mix."""
    out = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        if part == "default":
            out += [(s.name, s.weight, s.batch) for s in SCENARIOS.values()]
            continue
        name, _, batch = part.partition("@")
        name, _, weight = name.partition("=")
        known = SCENARIOS.get(name) or PLAYED.get(name)
        if known is None:
            raise ValueError(f"--mix: unknown scenario {name!r}; one of {', '.join([*SCENARIOS, *PLAYED])}")
        try:
            w = int(weight) if weight else 1
            b = int(batch) if batch else known.batch
        except ValueError:
            raise ValueError(f"--mix: {part!r}: weight and batch are whole numbers") from None
        if w < 1 or b < 1:
            raise ValueError(f"--mix: {part!r}: weight and batch must be >= 1")
        out.append((name, w, b))
    if not out:
        raise ValueError("--mix is empty")
    if len({n for n, _, _ in out}) != len(out):
        raise ValueError("--mix names a scenario twice")
    return out


def units(name: str, batch: int, count: int, seed: int) -> List[List[Call]]:
    """``count`` pre-built units of scenario ``name`` (deterministic for a seed)."""
    rng = random.Random(f"{seed}/{name}/{batch}")
    build = SCENARIOS[name].build
    if build is None:  # a played scenario has no pre-built units
        raise ValueError(f"{name} is played from the answers: it has no pre-built units")
    return [build(rng, batch) for _ in range(count)]


# ---------------------------------------------------------------- answer checks


def item_errors(rpc: str, raw: bytes) -> int:
    """How many items of a serialised ``rpc`` response are errors (0 = every item answered)."""
    pb = _pb()[0]
    msg = getattr(pb, f"{rpc}Response").FromString(raw)
    game = msg.WhichOneof("game")
    if game is None:
        return 0
    return sum(1 for r in getattr(msg, game).results if r.WhichOneof("result") == "error")


def empty_response() -> bytes:
    """A valid serialised answer of any method with no results (the floor server's)."""
    return b""
