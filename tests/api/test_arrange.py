"""十三水 optimal arrangement (RULES 1.8): arrange, arrange_many, best_response, the CLI."""

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

import handeval
from handeval import HandevalError, shisanshui
from handeval.cli import main as cli_main
from harness.deck import DECK
from harness.process import interruptible

SEED_PLAYERS = [
    {"front": "Qs Qh Qd", "middle": "2h 5h 7h 9h Jh", "back": "Ks Kh Kd 4s 4h"},
    {"front": "2s 3d 5c", "middle": "6c 7c 8d 9s Td", "back": "2c 4c Jc Kc Ac"},
    {"front": "3s 3h 6d", "middle": "5s 5d 8s 8c Qc", "back": "6s 7s 8h 9d Ts"},
    {"front": "2d 3c 4d", "middle": "Th Tc Jd 7d 9c", "back": "As Ah Ad Js 6h"},
]

hands13 = st.lists(st.sampled_from(DECK), min_size=13, max_size=13, unique=True)


def cards_of(p):
    return [c for k in ("front", "middle", "back") for c in handeval.parse_cards(p[k])]


def assert_valid(hand, a):
    assert (len(a.front), len(a.middle), len(a.back)) == (3, 5, 5)
    assert not shisanshui.is_foul(a.front, a.middle, a.back)
    assert sorted(a.front + a.middle + a.back) == sorted(handeval.parse_cards(hand))


@settings(max_examples=60, deadline=None)
@given(hands13, st.integers(1, 3), st.integers(1, 4))
def test_arrange_never_fouls_and_partitions_the_hand(hand, opponents, top_k):
    a = shisanshui.arrange(hand, opponents=opponents, top_k=top_k)
    assert 1 <= len(a.alternatives) <= top_k
    assert a.alternatives[0] == a.replace(alternatives=[])
    for alt in a.alternatives:
        assert_valid(hand, alt)
        assert alt.alternatives == []
    exps = [x.expected for x in a.alternatives]
    assert exps == sorted(exps, reverse=True)
    # A special hand is reported whenever special() finds one.
    assert a.special == shisanshui.special(hand)
    assert a.declare_special == (a.special is not None and a.special_expected > a.expected)


@settings(max_examples=25, deadline=None)
@given(hands13, st.integers(0, 2**32))
def test_deterministic_for_the_same_input_and_seed(hand, seed):
    a = shisanshui.arrange(hand, top_k=3, seed=seed)
    assert a == shisanshui.arrange(hand, top_k=3, seed=seed)
    # The input order does not matter.
    assert a == shisanshui.arrange(list(reversed(hand)), top_k=3, seed=seed)


@settings(max_examples=20, deadline=None)
@given(hands13, st.sampled_from(["lowest", "second_highest"]), st.booleans(), st.integers(1, 3))
def test_rule_options_are_respected(hand, a2345, tiebreak, hr_min):
    rules = shisanshui.Rules(a2345=a2345, suit_tiebreak=tiebreak, home_run_min_opponents=hr_min)
    a = shisanshui.arrange(hand, rules=rules, top_k=2)
    for alt in a.alternatives:
        assert not shisanshui.is_foul(alt.front, alt.middle, alt.back, rules=rules)
        assert sorted(alt.front + alt.middle + alt.back) == sorted(hand)
    assert shisanshui.arrange(hand, rules=handeval.Rules(shisanshui=rules), top_k=2) == a


def test_monte_carlo_mode_is_seeded():
    hand = "As Ah Ad Ks Kh 7c 7d 7s 9h 9c Qd Jd 2c"
    a = shisanshui.arrange(hand, samples=200, seed=3, top_k=2)
    assert a == shisanshui.arrange(hand, samples=200, seed=3, top_k=2)
    assert_valid(hand, a)


def test_specials_are_reported_and_declared_when_better():
    dragon = "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As"
    a = shisanshui.arrange(dragon)
    assert a.special == "yitiaolong" and a.declare_special
    assert a.special_expected > 90  # 36 waters from each of 3 opponents, minus rare specials
    assert_valid(dragon, a)
    # 三顺子 (4 waters from each opponent) beats playing these weak rows.
    hand = "2h 5h 9h 3s 6s 8s Ts Qs 4d 7d Jd Kd 9d"
    a = shisanshui.arrange(hand)
    assert a.special == "san_shunzi" and a.declare_special
    assert a.special_expected > a.expected
    # No special at all: nothing to declare.
    a = shisanshui.arrange("As Ah Ad Ac 2s 5h 7d 9c Js Kh 3d 4c 8h")
    assert a.special is None and a.special_expected is None and not a.declare_special


def test_arrange_prefers_sensible_rows():
    # Four aces: the quads go to the back or middle, never split.
    a = shisanshui.arrange("As Ah Ad Ac 2s 5h 7d 9c Js Kh 3d 4c 8h")
    assert any(sum(c[0] == "A" for c in row) == 4 for row in (a.middle, a.back))
    # A royal flush stays together.
    a = shisanshui.arrange("As Ks Qs Js Ts 2h 3d 5c 7h 8d 9c 4h 6d")
    assert sorted(a.back) == sorted(["As", "Ks", "Qs", "Js", "Ts"])


def test_arrange_many_matches_arrange():
    rng = random.Random(5)
    hands = [rng.sample(DECK, 13) for _ in range(40)]
    many = shisanshui.arrange_many(hands, opponents=2, top_k=2)
    assert many == [shisanshui.arrange(h, opponents=2, top_k=2) for h in hands]
    assert shisanshui.arrange_many([]) == []


def score_of(arr, opponents, rules=None):
    me = {"front": arr.front, "middle": arr.middle, "back": arr.back}
    return shisanshui.settle([me] + list(opponents), rules=rules).waters[0]


def test_best_response_against_the_seed_deal():
    mine = cards_of(SEED_PLAYERS[3])
    opps = SEED_PLAYERS[:3]
    br = shisanshui.best_response(mine, opps, top_k=3)
    assert_valid(mine, br)
    assert br.expected == score_of(br, opps)
    # At least as good as what the seat actually played (−32 waters there).
    assert br.expected >= shisanshui.settle(SEED_PLAYERS).waters[3]
    for alt in br.alternatives:
        assert alt.expected == score_of(alt, opps)


def test_best_response_beats_every_sampled_split():
    rng = random.Random(11)
    mine = SEED_PLAYERS[0]
    hand = cards_of(mine)
    opps = SEED_PLAYERS[1:]
    best = shisanshui.best_response(hand, opps).expected
    for _ in range(300):
        cards = rng.sample(hand, 13)
        split = {"front": cards[:3], "middle": cards[3:8], "back": cards[8:]}
        assert best >= shisanshui.settle([split] + opps).waters[0]


def test_best_response_with_special_and_rules():
    hand = "2d 3c 4d Th Tc Jd 7d 9c As Ah Ad Js 6h"
    six_pairs = {"special": "liu_dui_ban", "cards": "2s 2c 3s 3d 4s 4c 5h 5d 6s 6c 7s 7c Kh"}  # 8h would make it 全小
    rules = shisanshui.Rules(suit_tiebreak=False)
    br = shisanshui.best_response(hand, [six_pairs], rules=rules)
    assert br.expected == -4  # nothing beats a declared special
    assert br.expected == score_of(br, [six_pairs], rules)


@pytest.mark.parametrize(
    "call, field",
    [
        (lambda: shisanshui.arrange("As Ks Qs"), "cards13"),
        (lambda: shisanshui.arrange("As As Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s"), "cards13"),
        (lambda: shisanshui.arrange(DECK[:13], opponents=0), "opponents"),
        (lambda: shisanshui.arrange(DECK[:13], opponents=4), "opponents"),
        (lambda: shisanshui.arrange(DECK[:13], opponents=-1), "opponents"),
        (lambda: shisanshui.arrange(DECK[:13], top_k=0), "top_k"),
        (lambda: shisanshui.arrange(DECK[:13], seed=-5), "seed"),
        (lambda: shisanshui.arrange(DECK[:13], opponents="3"), "opponents"),
        (lambda: shisanshui.arrange(DECK[:13], rules=42), "rules"),
        (lambda: shisanshui.arrange_many("As"), "hands"),
        (lambda: shisanshui.best_response(DECK[:13], []), "opponents"),
        (lambda: shisanshui.best_response(DECK[:13], SEED_PLAYERS[:4]), "opponents"),
        (
            lambda: shisanshui.best_response(
                DECK[:13], [{"front": "2s 3s 4s", "middle": DECK[20:25], "back": DECK[25:30]}]
            ),
            "opponents[0].front",
        ),
        (
            lambda: shisanshui.best_response(
                DECK[:13], [{"front": DECK[13:15], "middle": DECK[20:25], "back": DECK[25:30]}]
            ),
            "opponents[0].front",
        ),
        (lambda: shisanshui.best_response(DECK[:13], SEED_PLAYERS[:1], top_k=0), "top_k"),
    ],
)
def test_bad_input_is_a_handeval_error(call, field):
    with pytest.raises(HandevalError) as e:
        call()
    assert e.value.field == field, str(e.value)
    assert field.split("[")[0] in str(e.value)


def test_arrange_many_reports_each_bad_hand_in_place():
    hands = [DECK[:13], DECK[:12], "As " * 13, 7, DECK[13:26]]
    out = shisanshui.arrange_many(hands, top_k=2)
    assert len(out) == len(hands)
    assert out[0] == shisanshui.arrange(DECK[:13], top_k=2)
    assert out[4] == shisanshui.arrange(DECK[13:26], top_k=2)
    for i in (1, 2, 3):
        assert isinstance(out[i], HandevalError), out[i]
        with pytest.raises(HandevalError) as single:
            shisanshui.arrange(hands[i], top_k=2)
        assert (out[i].field, out[i].description) == (single.value.field, single.value.description)
    # Whole-call errors still raise.
    with pytest.raises(HandevalError) as e:
        shisanshui.arrange_many(hands, top_k=0)
    assert e.value.field == "top_k"


def test_samples_are_bounded():
    assert shisanshui.MAX_SAMPLES >= 1000
    for bad in (shisanshui.MAX_SAMPLES + 1, -1, 2**40):
        with pytest.raises(HandevalError) as e:
            shisanshui.arrange(DECK[:13], samples=bad)
        assert e.value.field == "samples"
        with pytest.raises(HandevalError) as e:
            shisanshui.arrange_many([DECK[:13]], samples=bad)
        assert e.value.field == "samples"


#: Run by test_long_arrange_calls_honour_signals in a child process. Sizes one long call
#: (argv[1]) at 1,000 units of CPU work, a unit being a small call measured first; says
#: "in the call" once the call has used a unit of CPU time (from a thread: the call
#: releases the GIL), then runs it, and on KeyboardInterrupt says how many units the call
#: had used.
_LONG_CALL = """
import math, sys, threading, time
from handeval import shisanshui
hand = [r + s for r in "23456789TJQKA" for s in "shdc"][:13]
kind = sys.argv[1]
def cpu(call):
    call()  # warm: one-time table set-up must not count as a unit of work
    start = time.process_time()
    call()
    return max(time.process_time() - start, 1e-4)
if kind == "many":  # 400 hands a unit
    unit = cpu(lambda: shisanshui.arrange_many([hand] * 400))
    call = lambda: shisanshui.arrange_many([hand] * 400_000)
elif kind == "samples":  # one hand, 50 samples a unit
    unit = cpu(lambda: shisanshui.arrange(hand, samples=50))
    call = lambda: shisanshui.arrange(hand, samples=50_000)
else:  # 500 samples (10 units) a hand
    unit = cpu(lambda: shisanshui.arrange(hand, samples=50))
    call = lambda: shisanshui.arrange_many([hand] * 100, samples=500)
def announce(at):
    while time.process_time() < at + unit:
        time.sleep(0.005)
    print("in the call", flush=True)
start = time.process_time()
threading.Thread(target=announce, args=(start,), daemon=True).start()
try:
    call()
    print("ran to the end", flush=True)
except KeyboardInterrupt:
    print(f"interrupted after {(time.process_time() - start) / unit:.0f} units", flush=True)
"""


@pytest.mark.parametrize("kind", ["many", "samples", "many_samples"])
def test_long_arrange_calls_honour_signals(kind):
    """Ctrl-C (SIGINT, KeyboardInterrupt) ends a long arrange or arrange_many while it
    runs, not at its end. Work, not wall-clock time: the call is 1,000 units of CPU work
    sized by measuring a small call, the signal is sent once the call has used a unit
    (an event, not a sleep), and the call must stop before half its work is done (a
    chunk is a few units; so on any machine, loaded or not)."""
    import re
    import signal
    import subprocess
    import sys

    p = interruptible(
        [sys.executable, "-c", _LONG_CALL, kind], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = p.stdout.readline().strip()
        if line == "in the call":
            p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=600)  # a hang guard only
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    m = re.search(r"interrupted after (\d+) units", out)
    assert line == "in the call" and m, (line, out, err[-2000:])
    assert int(m.group(1)) < 500, out


def test_overlap_error_names_the_card():
    with pytest.raises(HandevalError, match="2s"):
        shisanshui.best_response(DECK[:13], [{"front": "2s 9d Td", "middle": DECK[20:25], "back": DECK[25:30]}])


def test_cli_arrange(capsys):
    assert cli_main(["arrange", "As Ah Ad Ac 2s 5h 7d 9c Js Kh 3d 4c 8h", "--top-k", "3", "--opponents", "2"]) == 0
    out = capsys.readouterr().out
    assert "front" in out and "expected" in out and "against 2 opponent" in out
    assert out.count("\n") >= 7  # three rows, the expectation, a header and three alternatives
    assert cli_main(["--json", "arrange", "2s 3h 4d 5c 6s 7h 8d 9c Ts Jh Qd Kc As"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["special"] == "yitiaolong" and d["declare_special"] is True
    assert cli_main(["arrange", "As Ah"]) == 2
    assert "13 cards" in capsys.readouterr().err
