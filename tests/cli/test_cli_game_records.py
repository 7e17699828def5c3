"""``handeval tienlen game`` and ``handeval dachu game``: whole records replayed from the
shell, checked against the Python API (the JSON is the API's state)."""

import json
import pickle
import subprocess
import sys

import pytest

from handeval import HandevalError, dachu, tienlen

from strategies import DC_HANDS, TL_HANDS

CMD = [sys.executable, "-m", "handeval"]


def run(*args, check=True):
    p = subprocess.run(CMD + [str(a) for a in args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    if check:
        assert p.returncode == 0, (p.returncode, p.stderr)
    return p


def test_tienlen_game_replays_and_settles():
    actions = "0 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks; 1 pass; 2 pass; 3 pass; 0 2c 2d"
    out = json.loads(
        run("tienlen", "game", "--json", "--hands", *TL_HANDS, "--actions", actions, "--base", "10").stdout
    )
    g = tienlen.replay(
        TL_HANDS, [(0, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "2c 2d")]
    )
    assert out["game"]["winner"] == 0 and out["game"]["over"] is True
    assert out["settlement"] == g.settle(base=10).to_dict()
    text = run("tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s").stdout
    assert "turn" in text and "1" in text
    bad = run("tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 As", check=False)
    assert bad.returncode == 2 and "card_not_in_hand" in bad.stderr and "actions[0]" in bad.stderr


def test_dachu_game_replays_and_settles():
    deal = "deal*9; cheng_chu 1 red; finish"
    out = json.loads(
        run(
            "dachu",
            "game",
            "--json",
            "--hands",
            *DC_HANDS,
            "--actions",
            deal,
            "--calls",
            "ping_da 1",
            "--plays",
            "play 0 3h; pass 1",
        ).stdout
    )
    g = dachu.replay_game(
        DC_HANDS,
        [("deal",)] * 9 + [("cheng_chu", 1, "red"), ("finish",)],
        [("ping_da", 1)],
        [("play", 0, "3h"), ("pass", 1)],
    )
    assert out["game"]["turn"] == g.turn == 2 and out["game"]["passed"] == [1]
    bad = run(
        "dachu",
        "game",
        "--hands",
        *DC_HANDS,
        "--actions",
        deal,
        "--calls",
        "ping_da 1",
        "--plays",
        "play 1 4h",
        check=False,
    )
    assert bad.returncode == 2 and "plays[0]" in bad.stderr


def test_tienlen_game_prints_text_not_python_values():
    text = run("tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s; 1 4h; 2 5d; 3 pass; 0 2d").stdout
    for python_value in ("True", "False", "None", "[", "("):
        assert python_value not in text, text
    lines = dict(line.split(None, 1) for line in text.splitlines()[1:])
    assert lines["may_pass"] == "yes" and lines["over"] == "no" and lines["winner"] == "-"
    assert lines["chop_offers"] == "seat 3: As Ac Ad Ah"


def test_game_viewer_shows_only_its_own_cards():
    text = run(
        "tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s; 1 4h; 2 5d; 3 pass; 0 2d", "--viewer", "1"
    ).stdout
    lines = dict(line.split(None, 1) for line in text.splitlines()[1:])
    assert lines["held"] == "? | 3h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h | ? | ?"
    assert lines["chop_offers"] == "none"  # seat 3's chop is its own
    assert lines["counts"] == "11, 12, 12, 13"
    view = json.loads(
        run(
            "dachu",
            "game",
            "--json",
            "--hands",
            *DC_HANDS,
            "--actions",
            "deal*9; cheng_chu 1 red; finish",
            "--calls",
            "ping_da 1",
            "--plays",
            "play 0 3h",
            "--viewer",
            "2",
        ).stdout
    )["game"]
    assert view["held"][2] and all(h is None for s, h in enumerate(view["held"]) if s != 2)
    assert view["legal_actions"] == [] and view["viewer"] == 2
    bad = run("tienlen", "game", "--hands", *TL_HANDS, "--viewer", "4", check=False)
    assert bad.returncode == 2 and "seat" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_dachu_game_timeout_and_undecided_base():
    common = ["--hands", *DC_HANDS, "--actions", "deal*9; cheng_chu 1 red; finish", "--calls", "ping_da 1"]
    # Seat 0 leads again after its 3h: the timeout throws its weakest single, 3s.
    text = run(
        "dachu", "game", *common, "--plays", "play 0 3h; pass 1; pass 2; pass 3; timeout 0", "--base", "10"
    ).stdout
    assert "plays[4] became play 0 3s" in text
    assert "not settled: the outcome can still change (seat 1 to move)" in text
    # With the client's columns, the rightmost column's first card goes.
    cols = "timeout 0 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks | 2s"
    text = run("dachu", "game", *common, "--plays", f"play 0 3h; pass 1; pass 2; pass 3; {cols}").stdout
    assert "plays[4] became play 0 2s" in text
    assert run("dachu", "timeout", "--columns", "Kh | 9c | 4d 4h 4s", "--chu", "red").stdout.strip() == "play 4d"
    out = json.loads(run("dachu", "timeout", "--json", "--columns", "4h | 3c", "--table", "5d", "--chu", "red").stdout)
    assert out == {"passes": True, "cards": []}
    bad = run("dachu", "timeout", "--columns", "Kh | | 9c", "--chu", "red", check=False)
    assert bad.returncode == 2 and "column" in bad.stderr


def test_python_view_hides_the_others():
    g = tienlen.replay(TL_HANDS, [(0, "3s"), (1, "4h"), (2, "5d"), (3, "pass"), (0, "2d")])
    v = g.view(1)
    assert (
        v["viewer"] == 1 and v["held"][1] == g.held[1] and [h is None for h in v["held"]] == [True, False, True, True]
    )
    assert v["hands"][1] == g.hands[1] and v["hands"][0] is None
    assert v["legal_plays"] == g.to_dict()["legal_plays"] and v["chop_offers"] == []
    assert g.view(3)["chop_offers"] == g.to_dict()["chop_offers"] and g.view(3)["legal_plays"] == []
    assert v["counts"] == [len(h) for h in g.held]
    with pytest.raises(HandevalError) as e:
        g.view(4)
    assert e.value.field == "seat" and e.value.reason == "out_of_range"
    d = dachu.replay_game(
        DC_HANDS,
        [("deal",)] * 9 + [("cheng_chu", 1, "red"), ("finish",)],
        [("ping_da", 1)],
        [("play", 0, "3h"), ("pass", 1), ("pass", 2), ("pass", 3), ("timeout", 0)],
    )
    assert d.timeouts == [(4, ("play", 0, ["3s"]))]
    dv = d.view(0)
    assert dv["legal_actions"] == [] and dv["held"][0] == d.held[0] and dv["held"][1] is None
    assert d.view(1)["legal_actions"] == d.to_dict()["legal_actions"]
    assert pickle.loads(pickle.dumps(d)) == d and pickle.loads(pickle.dumps(d)).timeouts == d.timeouts


def test_dachu_deal_suggests_the_declaration_and_the_call_as_python_does():
    """托管 in the deal and the calling from the shell: the --viewer's declaration (or none)
    and the call of the seat to call, each Python's Deal.suggest / Calling.suggest; a viewer
    with no decision gets the state without a suggestion; the deal has no turn, so a
    suggestion there needs --viewer."""
    deal = dachu.Deal(DC_HANDS)
    for _ in range(9):
        deal = deal.apply(("deal",))
    common = ["dachu", "deal", "--json", "--hands", *DC_HANDS, "--suggest"]
    for seat in range(4):
        out = json.loads(run(*common, "--actions", "deal*9", "--viewer", seat).stdout)
        assert out["deal"]["viewer"] == seat
        if not deal.offers(seat):
            assert "suggest" not in out
            continue
        want = deal.suggest(seat)
        got = out["suggest"]
        assert got["seat"] == seat
        if want is None:
            assert got["action"] is None and got["more"] == []
        else:
            assert (got["action"], got["seat"], *got["more"]) == want
        # What it suggests is one of the seat's offers, ready to send back.
        assert want is None or want in deal.offers(seat)
    finished = deal.apply(("finish",))
    calling = finished.calling()
    call, seat = calling.suggest(DC_HANDS[calling.turn], finished.chu, calling.turn)
    out = json.loads(run(*common, "--actions", "deal*9; finish").stdout)
    assert out["suggest"] == {"seat": seat, "action": call, "more": []}
    assert out["calling"]["turn"] == seat
    other = (seat + 1) % 4
    out = json.loads(run(*common, "--actions", "deal*9; finish", "--viewer", other).stdout)
    assert "suggest" not in out and out["deal"]["viewer"] == other
    bad = run(*common, "--actions", "deal*9", check=False)
    assert bad.returncode == 2 and "--viewer" in bad.stderr
