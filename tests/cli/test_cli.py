"""The ``handeval`` command as a user runs it: separate processes (``python -m handeval``),
checked against the Python API (the CLI's JSON is the API result's ``to_dict()``), plus
the process-level behaviour — exit codes, ``| head``, Ctrl-C, the progress bar."""

import fcntl
import json
import os
import random
import re
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

import handeval
from handeval import dachu, shisanshui, tienlen
from harness.deck import DECK
from harness.process import interruptible

from strategies import DC_HANDS_SEAT0_AH as DC_HANDS, SSW_HAND as HAND

CMD = [sys.executable, "-m", "handeval"]


def run(*args, input=None, check=True):
    p = subprocess.run(CMD + [str(a) for a in args], capture_output=True, text=True, input=input, timeout=120)
    assert "Traceback" not in p.stderr, p.stderr
    if check:
        assert p.returncode == 0, (p.returncode, p.stderr)
    return p


def run_json(*args):
    return json.loads(run(*args, "--json").stdout)


def random_hands(n, seed=1):
    rng = random.Random(seed)
    return [" ".join(rng.sample(DECK, 13)) for _ in range(n)]


def as_json(obj):
    """What the CLI prints for an API result (or a list of them): to_dict(), through JSON."""
    if isinstance(obj, list):
        return [as_json(x) for x in obj]
    return json.loads(json.dumps(obj.to_dict() if hasattr(obj, "to_dict") else obj))


# ---------------------------------------------------------------- global flags


def test_version():
    assert run("--version").stdout.strip() == f"handeval {handeval.__version__}"


def test_json_before_or_after_the_subcommand_and_unquoted_cards():
    expected = as_json(shisanshui.classify("As Ks Qs Js Ts"))
    before = json.loads(run("--json", "classify", "As Ks Qs Js Ts").stdout)
    after = json.loads(run("classify", "As", "Ks", "Qs", "Js", "Ts", "--json").stdout)
    assert before == after == expected
    assert run("classify", "As", "Ks", "Qs", "Js", "Ts").stdout == run("classify", "As Ks Qs Js Ts").stdout
    # a nested subcommand takes it too
    assert json.loads(run("tienlen", "classify", "3s", "3h", "--json").stdout)["kind"] == "pair"


def test_bad_input_is_a_clear_error_not_a_traceback():
    p = run("classify", "As", "Ks", "Zz", check=False)
    assert p.returncode == 2 and p.stderr.startswith("handeval: ") and "Zz" in p.stderr
    p = run("tienlen", "classify", "3s", "4h", check=False)
    assert p.returncode == 2 and "not a play" in p.stderr
    p = run("dachu", "classify", "Ah", check=False)  # --chu missing: argparse usage error
    assert p.returncode == 2 and "--chu" in p.stderr


# ---------------------------------------------------------------- 十三水


def test_shisanshui_commands_match_the_api():
    assert run_json("special", "2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Jc") == as_json(
        shisanshui.special_hand("2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Jc")
    )
    assert run_json("arrange", *HAND.split(), "--top-k", "2") == as_json(shisanshui.arrange(HAND, top_k=2))
    text = run("arrange", HAND).stdout
    a = shisanshui.arrange(HAND, top_k=3)
    assert f"front   {' '.join(a.front)}" in text and f"{a.expected:+.3f}" in text


def test_shisanshui_compare_and_settle():
    assert run_json("compare", "Ks Kd 7h 5c 3c", "--vs", "Kh", "Kc", "7s", "5d", "3d") == {"compare": 1}
    assert run_json("compare", "Kh Kc 7s 5d 3d", "--vs", "Ks Kd 7h 5c 3c") == {"compare": -1}
    players = [
        {"front": "Qs Qh Qd", "middle": "2h 5h 7h 9h Jh", "back": "Ks Kh Kd 4s 4h"},
        {"front": "2s 3d 5c", "middle": "6c 7c 8d 9s Td", "back": "2c 4c Jc Kc Ac"},
    ]
    seats = [" / ".join(p.values()) for p in players]
    got = run_json("settle", "--base", "10", "--carried", "500,60", *seats)
    assert got == as_json(shisanshui.settle(players, base=10, carried=[500, 60])) and got["deltas"] == [60, -60]
    assert run("settle", "--base", "10", *seats).stdout.startswith("waters  +10 -10\ndeltas  +100 -100")
    dragon = "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
    other = {"front": "2h 3d 5c", "middle": "6c 7c 8d 9h Td", "back": "2c 4c Jc Kc Ac"}
    got = run_json("settle", f"zhizun_qinglong: {dragon}", " / ".join(other.values()))
    assert got == as_json(shisanshui.settle([{"special": "zhizun_qinglong", "cards": dragon}, other]))
    p = run("settle", "As Ks", check=False)
    assert p.returncode == 2 and "seat 0: give 'front / middle / back'" in p.stderr


# ---------------------------------------------------------------- 越式13张


def test_tienlen_classify_beats_legal_instant():
    assert run_json("tienlen", "classify", "4s 4h 5s 5h 6s 6h") == as_json(tienlen.classify("4s 4h 5s 5h 6s 6h"))
    assert run("tienlen", "classify", "4s", "4h", "5s", "5h", "6s", "6h").stdout.startswith("three_pair_run (3连对)")
    assert run_json("tienlen", "beats", "3s 3h 4s 4h 5s 5h 6s 6h", "--table", "2h") == {"beats": True, "why_not": None}
    got = run_json("tienlen", "beats", "3s", "--table", "2h")
    assert got == {"beats": False, "why_not": tienlen.why_not("3s", "2h")} and got["why_not"]
    assert run("tienlen", "beats", "3s", "--table", "2h").stdout.startswith("no: ")
    assert run_json("tienlen", "legal", "3s 4s 5s 5h 2h", "--table", "4h") == as_json(
        tienlen.legal_plays("3s 4s 5s 5h 2h", table="4h")
    )
    leads = run_json("tienlen", "legal", "3s", "4s", "5s")
    assert leads == as_json(tienlen.legal_plays("3s 4s 5s")) and len(leads) == 4  # 3 singles + the straight
    assert run_json("tienlen", "legal", "3s 4s", "--table", "2h", "--passed") == []
    dragon = "3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"
    assert run_json("tienlen", "instant", dragon) == as_json(tienlen.instant_hand(dragon))
    assert run_json("tienlen", "instant", HAND) is None
    assert run("tienlen", "instant", HAND).stdout.strip() == "no instant win"


def test_tienlen_settle():
    left = ["", "2h 7s 7h 7d 7c", "3s 4h", "5d 6c 8s"]
    got = run_json("tienlen", "settle", "--winner", "0", "--base", "10", "-", *left[1:])
    assert got == as_json(tienlen.settle(left, winner=0, base=10))
    assert got["deltas"] == [171, -130, -20, -30]
    text = run("tienlen", "settle", "--winner", "0", "--base", "10", "-", *left[1:]).stdout
    assert text.startswith("deltas  +171 -130 -20 -30") and "rake    9" in text
    capped = run_json("tienlen", "settle", "--winner", "0", "--base", "10", "--carried", "100,-,-,-", "-", *left[1:])
    assert capped == as_json(tienlen.settle(left, winner=0, base=10, carried=[100, None, None, None]))
    chops = [{"from": 1, "to": 3, "amount": 80}]
    assert run_json(
        "tienlen", "settle", "--winner", "0", "--base", "10", "--chops", json.dumps(chops), "-", *left[1:]
    ) == as_json(tienlen.settle(left, winner=0, base=10, chops=chops))
    hands = [" ".join(DECK[i::4]) for i in range(4)]  # each seat one whole suit: four dragons
    assert run_json("tienlen", "settle", "--instant", "--base", "10", *hands) == as_json(
        tienlen.settle_instant(hands, base=10)
    )
    p = run("tienlen", "settle", "--base", "10", *left[1:], check=False)
    assert p.returncode == 2 and "--winner" in p.stderr


# ---------------------------------------------------------------- 打儲


def test_dachu_classify_beats_legal_settle():
    assert run_json("dachu", "classify", "Ah", "Ad", "--chu", "red") == as_json(dachu.classify("Ah Ad", "red"))
    assert run_json("dachu", "beats", "As", "--table", "2h", "--chu", "black") == {"beats": True}
    assert run_json("dachu", "beats", "As 2s 3s", "--table", "Qh Kh Ac", "--chu", "red") == {"beats": False}
    assert run_json("dachu", "legal", "3h 4h 5h Ah", "--chu", "red", "--first-lead") == as_json(
        dachu.legal_plays("3h 4h 5h Ah", None, "red", first_lead=True)
    )
    assert run_json("dachu", "legal", "3h 4h 5h 9s", "--table", "8c", "--chu", "red") == as_json(
        dachu.legal_plays("3h 4h 5h 9s", "8c", "red")
    )
    got = run_json("dachu", "settle", "--chu-side", "2", "--places", "2", "0", "1", "3", "--base", "10")
    assert got == as_json(dachu.settle([2], places=[2, 0, 1, 3], base=10)) and got["deltas"] == [-20, -20, 60, -20]
    esc = run_json("dachu", "settle", "--chu-side", "0", "1", "--escaped", "3", "--base", "10", "--multiplier", "2")
    assert esc == as_json(dachu.settle([0, 1], base=10, multiplier=2, escaped=[3]))


def _deal(actions):
    d = dachu.Deal(DC_HANDS)
    for a in actions:
        d = d.apply(a)
    return d


def test_dachu_deal_and_calling_from_actions():
    actions = [("deal",), ("meng_xuan", 0, "Ah")] + [("deal",)] * 8 + [("finish",)]
    d = _deal(actions)
    calls = [("chuai", 0)]
    c = d.calling()
    for a in calls:
        c = c.apply(a)
    text_form = run_json(
        "dachu", "deal", "--hands", *DC_HANDS, "--actions", "deal; meng_xuan 0 Ah; deal*8; finish", "--calls", "chuai 0"
    )
    json_form = run_json("dachu", "deal", "--hands", *DC_HANDS, "--actions", json.dumps(actions), "--calls", "-")
    assert text_form["deal"]["multiplier"] == d.multiplier == 2
    assert text_form["deal"]["chu"] == d.chu == "red" and text_form["deal"]["chu_side"] == d.chu_side
    assert text_form["calling"]["turn"] == c.turn and text_form["calling"]["legal_actions"] == as_json(
        [list(a) for a in c.legal_actions]
    )
    assert json_form["deal"] == text_form["deal"]
    # meng_chuai: a triple given as several card words
    part = run_json("dachu", "deal", "--hands", *DC_HANDS, "--actions", "deal*5; meng_chuai 0 5s 5h 5d")
    assert part["deal"]["meng_chuai"][0] == ["5s", "5h", "5d"]
    p = run("dachu", "deal", "--hands", *DC_HANDS, "--actions", "deal; meng_xuan 4 Ah", check=False)
    assert p.returncode == 2 and p.stderr.startswith("handeval: actions[1] (meng_xuan 4 Ah): ") and "seat 4" in p.stderr
    p = run("dachu", "deal", "--hands", *DC_HANDS, "--actions", "deal", "--calls", "chuai 0", check=False)
    assert p.returncode == 2 and "finished deal" in p.stderr


def test_dachu_calling():
    c = dachu.Calling([0])
    for a in [("chuai", 0), ("ping_da", 1), ("ping_da", 2), ("ping_da", 3)]:
        c = c.apply(a)
    got = run_json("dachu", "calling", "--chu-side", "0", "--calls", "chuai 0; ping_da 1; ping_da 2; ping_da 3")
    assert (got["over"], got["outcome"], got["multiplier"]) == (c.over, c.outcome, c.multiplier)
    assert got["phase"] == c.phase and got["playing"] == list(c.playing)
    text = run("dachu", "calling", "--chu-side", "0").stdout
    assert "legal_actions ping_da 0; chuai 0; jiao 0" in text
    p = run("dachu", "calling", "--chu-side", "0", "--calls", "ping_da 1", check=False)
    assert p.returncode == 2 and p.stderr.startswith("handeval: calls[0] (ping_da 1): ")


def _no_python_values(text):
    """Text output for people: no Python repr (None, True/False, tuples, lists)."""
    for line in text.splitlines():
        for token in ("None", "True", "False", "(", "[", "'"):
            # Chinese notes may hold "(×2)" or "(逃跑)": only ASCII-bracketed reprs count.
            if token == "(" and ("(全殲)" in line or "(×2)" in line or "(逃跑)" in line or "(RULES" in line):
                continue
            assert token not in line, line


def test_dachu_state_text_shows_no_python_values():
    """Regression: `dachu calling` printed ``turn None``, ``bao_chuai (None, None)``,
    ``finals [('chu', 'chuai'), ...]``."""
    over = run("dachu", "calling", "--chu-side", "0", "--calls", "chuai 0; ping_da 1; ping_da 2; ping_da 3").stdout
    _no_python_values(over)
    assert "  turn          -\n" in over and "  over          yes\n" in over
    assert "  finals        chu chuai, other ping_da\n" in over and "  bao_chuai     -, -\n" in over
    assert "  playing       0, 1, 2, 3\n" in over and "  surrendered   none\n" in over
    deal = run(
        "dachu", "deal", "--hands", *DC_HANDS, "--actions", "deal; meng_xuan 0 Ah; deal*5; meng_chuai 0 5s 5h 5d"
    ).stdout
    _no_python_values(deal)
    assert "  meng_chuai    5s 5h 5d, -, -, -\n" in deal and "  cheng_chu     no, no, no, no\n" in deal
    esc = run("dachu", "settle", "--chu-side", "2", "--escaped", "0", "1", "--base", "10").stdout
    _no_python_values(esc)
    assert esc.startswith("verdict -, multiplier 1\n")
    ssw = run(
        "settle",
        "--base",
        "10",
        "Qs Qh Qd / 2h 5h 7h 9h Jh / Ks Kh Kd 4s 4h",
        "2s 3d 5c / 6c 7c 8d 9s Td / 2c 4c Jc Kc Ac",
    ).stdout
    assert "(rows +3 +1 +1, seat 0 scoops (打枪))" in ssw


def test_dachu_settle_lines_state_their_amounts():
    """Regression: seat 0's −20 line carried the note "3 × base × 2" (= 60)."""
    import re

    for args in (
        ["--chu-side", "2", "--places", "2", "0", "1", "3", "--base", "10"],
        ["--chu-side", "0", "2", "--places", "1", "3", "0", "2", "--base", "7", "--multiplier", "4"],
        ["--chu-side", "1", "--escaped", "2", "3"],
        [
            "--chu-side",
            "0",
            "2",
            "--surrendered",
            "2",
            "--places",
            "0",
            "1",
            "3",
            "--base",
            "5",
            "--carried",
            "10,30,-,-",
        ],
    ):
        out = run("dachu", "settle", *args).stdout
        deltas = [int(x) for x in out.splitlines()[1].split()[1:]]
        sums = [0] * 4
        for line in out.splitlines()[2:]:
            m = re.fullmatch(r"  seat (\d) ([+-]\d+) (\w+): .*= (\d+)", line)
            assert m, line
            assert abs(int(m[2])) == int(m[4]), line
            sums[int(m[1])] += int(m[2])
        assert sums == deltas, out


def test_base_defaults_to_one_in_every_settle():
    """RULES §0: where the base may be left out, every game treats it alike (1)."""
    assert (
        run_json("tienlen", "settle", "-", "3s", "--winner", "0")["deltas"]
        == run_json("tienlen", "settle", "-", "3s", "--winner", "0", "--base", "1")["deltas"]
    )


def test_errors_name_their_field():
    """Regression: `handeval special As Ks` and `tienlen beats 3s --table 3s` named no field."""
    cases = [
        (["special", "As", "Ks"], "cards13: "),
        (["tienlen", "beats", "3s", "--table", "3s"], "play: "),
        (["classify", "As", "Ks", "Zz"], "cards"),
        (["dachu", "settle", "--chu-side", "7", "--places", "0", "1", "2", "3"], "chu_side[0]: "),
        (["dachu", "settle", "--chu-side", "0", "--places", "0", "1", "2", "3", "--base", "0"], "base: "),
        (["dachu", "classify", "Ah", "Kd", "--chu", "red"], "cards: "),
        (["tienlen", "legal", "3s", "--table", "3s"], "table: "),
    ]
    for args, field in cases:
        p = run(*args, check=False)
        assert p.returncode == 2 and p.stderr.startswith("handeval: " + field), (args, p.stderr)


# ---------------------------------------------------------------- batch: arrange --file


def test_arrange_file_writes_jsonl_in_input_order(tmp_path):
    hands = random_hands(300)
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(hands) + "\n")
    out = [json.loads(line) for line in run("arrange", "--file", f, "--top-k", "1").stdout.splitlines()]
    expected = shisanshui.arrange_many(hands, top_k=1)
    assert [o.pop("line") for o in out] == list(range(1, 301))
    assert out == [as_json(a) for a in expected]
    # --output, and stdin with "-"
    run("arrange", "--file", "-", "--top-k", "1", "-o", tmp_path / "out.jsonl", input="\n".join(hands[:5]))
    assert [json.loads(x)["front"] for x in (tmp_path / "out.jsonl").read_text().splitlines()] == [
        a.front for a in expected[:5]
    ]


def test_arrange_file_jsonl_input_and_bad_lines(tmp_path):
    a, b, c = random_hands(3, seed=7)
    lines = [
        json.dumps({"cards": a, "id": "first"}),
        json.dumps(b.split()),
        "# a comment",
        "",
        "As Ks",
        "{not json",
        json.dumps(c),
    ]
    f = tmp_path / "hands.jsonl"
    f.write_text("\n".join(lines) + "\n")
    p = run("arrange", "--file", f, "--top-k", "1", check=False)
    assert p.returncode == 1 and "2 of 5 hands are not valid (lines 5, 6)" in p.stderr
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert [o["line"] for o in out] == [1, 2, 5, 6, 7]
    assert out[0]["id"] == "first" and out[0]["front"] == shisanshui.arrange(a).front
    assert out[1]["front"] == shisanshui.arrange(b).front and out[4]["front"] == shisanshui.arrange(c).front
    assert out[2]["error"]["field"] == "cards" and "13 cards" in out[2]["error"]["description"]
    assert out[3]["error"]["field"] == "line 6" and "bad JSON" in out[3]["error"]["description"]
    p = run("arrange", "--file", tmp_path / "missing.txt", check=False)
    assert p.returncode == 2 and "cannot read --file" in p.stderr


def test_no_broken_pipe_traceback_under_head(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(random_hands(3000)) + "\n")  # ~2 MB of JSONL: more than a pipe holds
    p = subprocess.Popen(CMD + ["arrange", "--file", str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = p.stdout.readline()  # what `| head -n 1` does: read a line, then go away
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=120) == 141
    assert json.loads(first)["line"] == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    # the same through a shell pipeline
    sh = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -m handeval arrange --file "{f}" | head -n 2'],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert len(sh.stdout.splitlines()) == 2 and "Traceback" not in sh.stderr, sh.stderr


def test_ctrl_c_stops_a_long_batch_with_130(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(random_hands(2000)) + "\n")
    out = tmp_path / "out.jsonl"
    # --samples makes each hand take a while: the batch would run for many minutes
    p = interruptible(
        CMD + ["arrange", "--file", str(f), "--samples", "300", "-o", str(out)], stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 600  # a hang guard only
    while not (out.exists() and out.read_text()) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # until the first chunk is written: the work is under way
    assert p.poll() is None
    p.send_signal(signal.SIGINT)
    try:
        # A hang guard only: that the batch stopped early is shown by the hands written.
        code = p.wait(timeout=600)
    finally:
        if p.poll() is None:
            p.kill()
    err = p.stderr.read()
    assert code == 130 and err.strip().endswith("handeval: interrupted") and "Traceback" not in err, err
    done = out.read_text().splitlines()
    assert 0 < len(done) < 2000 and all(json.loads(x)["line"] for x in done)


def test_progress_bar_only_on_a_terminal(tmp_path):
    f = tmp_path / "hands.txt"
    f.write_text("\n".join(random_hands(600)) + "\n")
    piped = run("arrange", "--file", f, "--top-k", "1")
    assert piped.stderr == ""  # not a terminal: no bar
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal's size
    p = subprocess.Popen(CMD + ["arrange", "--file", str(f), "--top-k", "1"], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    assert p.wait(timeout=120) == 0
    bar = b"".join(chunks).decode(errors="replace")
    assert "600/600" in bar and "hand" in bar, bar


def test_top_level_help_names_every_command_of_each_game():
    """``handeval --help``'s line for a game group names each command the group has (read
    from the parser itself, so a command added later cannot be missing)."""
    import argparse

    from handeval.cli import _build_parser

    text = run("--help").stdout
    groups = next(a for a in _build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    for game in ("tienlen", "dachu"):
        line = re.search(rf"^ +{game} +(.*(?:\n {{8,}}\S.*)*)", text, re.M).group(1)  # with its wrapped lines
        commands = next(a for a in groups[game]._actions if isinstance(a, argparse._SubParsersAction)).choices
        assert {"game"} <= set(commands) and (game != "dachu" or "timeout" in commands)
        for name in commands:
            assert re.search(rf"\b{name}\b", line), (name, line)


@pytest.mark.parametrize("argv", [["tienlen", "--help"], ["dachu", "--help"], ["arrange", "--help"]])
def test_help_lists_the_commands(argv):
    text = run(*argv).stdout
    for word in {
        "tienlen": ["classify", "beats", "legal", "instant", "settle"],
        "dachu": ["classify", "beats", "legal", "settle", "deal", "calling"],
        "arrange": ["--file", "--output", "--samples"],
    }[argv[0]]:
        assert word in text
