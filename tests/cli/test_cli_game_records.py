"""``handeval tienlen game`` and ``handeval dachu game``: whole records replayed from the
shell, checked against the Python API (the JSON is the API's state)."""

import json
import subprocess
import sys

from handeval import dachu, tienlen

CMD = [sys.executable, "-m", "handeval"]
TL_HANDS = ["3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d",
            "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h",
            "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Kc Qc",
            "3c 4c 5c 6c 7c 8c 9c Tc Jc Ad As Ac Ah"]
DC_HANDS = ["3h 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2s",
            "Ah Ad 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2h",
            "3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd As 2d",
            "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2c"]


def run(*args, check=True):
    p = subprocess.run(CMD + [str(a) for a in args], capture_output=True, text=True, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    if check:
        assert p.returncode == 0, (p.returncode, p.stderr)
    return p


def test_tienlen_game_replays_and_settles():
    actions = "0 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks; 1 pass; 2 pass; 3 pass; 0 2c 2d"
    out = json.loads(run("tienlen", "game", "--json", "--hands", *TL_HANDS, "--actions", actions, "--base", "10").stdout)
    g = tienlen.replay(TL_HANDS, [(0, "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"), (1, "pass"), (2, "pass"), (3, "pass"), (0, "2c 2d")])
    assert out["game"]["winner"] == 0 and out["game"]["over"] is True
    assert out["settlement"] == g.settle(base=10).to_dict()
    text = run("tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 3s").stdout
    assert "turn" in text and "1" in text
    bad = run("tienlen", "game", "--hands", *TL_HANDS, "--actions", "0 As", check=False)
    assert bad.returncode == 2 and "card_not_in_hand" in bad.stderr and "actions[0]" in bad.stderr


def test_dachu_game_replays_and_settles():
    deal = "deal*9; cheng_chu 1 red; finish"
    out = json.loads(run("dachu", "game", "--json", "--hands", *DC_HANDS, "--actions", deal, "--calls", "ping_da 1",
                         "--plays", "play 0 3h; pass 1").stdout)
    g = dachu.replay_game(DC_HANDS, [("deal",)] * 9 + [("cheng_chu", 1, "red"), ("finish",)], [("ping_da", 1)],
                          [("play", 0, "3h"), ("pass", 1)])
    assert out["game"]["turn"] == g.turn == 2 and out["game"]["passed"] == [1]
    bad = run("dachu", "game", "--hands", *DC_HANDS, "--actions", deal, "--calls", "ping_da 1", "--plays", "play 1 4h",
              check=False)
    assert bad.returncode == 2 and "plays[0]" in bad.stderr
