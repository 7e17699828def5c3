"""``handeval call --json``: the answer as one line of JSON (the same value as the indented
text), and a failed call as one JSON object on stdout, exit 1."""

import base64
import json
import subprocess
import sys

REQ = json.dumps({"shisanshui": {"items": [{"row": {"cards": ["As", "Ks", "Qs", "Js", "Ts"]}}]}})


def call(server, *args):
    p = subprocess.run(
        [sys.executable, "-m", "handeval", "call", *args, "--target", server.target],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in p.stderr, p.stderr
    return p


def test_json_is_one_line_with_the_same_answer(server):
    text, js = call(server, "Evaluate", REQ), call(server, "Evaluate", REQ, "--json")
    assert text.returncode == 0 and js.returncode == 0, (text.stderr, js.stderr)
    assert len(text.stdout.strip().splitlines()) > 1  # indented for people
    assert len(js.stdout.strip().splitlines()) == 1  # one line for scripts
    assert json.loads(js.stdout) == json.loads(text.stdout)
    assert json.loads(js.stdout)["shisanshui"]["results"][0]["row"]["category"] == "SHISANSHUI_CATEGORY_STRAIGHT_FLUSH"
    # --json before the subcommand too
    before = subprocess.run(
        [sys.executable, "-m", "handeval", "--json", "call", "Evaluate", REQ, "--target", server.target],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert before.stdout == js.stdout


def test_packed_categories_only_answer_packed_rows(server):
    """十三水's packed bulk answer is printed when the request sent packed rows (base64 of
    one byte per row), and left out of every other 十三水 answer (not an empty string)."""
    items = json.loads(call(server, "Evaluate", REQ, "--json").stdout)["shisanshui"]
    assert "packed_categories" not in items and items["results"]
    packed = json.dumps({"shisanshui": {"packed_rows": base64.b64encode(bytes([48, 44, 40, 36, 32])).decode()}})
    answer = json.loads(call(server, "Evaluate", packed, "--json").stdout)["shisanshui"]
    assert base64.b64decode(answer["packed_categories"]) == bytes([8])  # As Ks Qs Js Ts: straight_flush


def test_a_failed_call_with_json_is_a_json_object(server):
    p = call(server, "Evaluate", "{}", "--json")
    assert p.returncode == 1 and p.stderr == ""
    err = json.loads(p.stdout)["error"]
    assert err["code"] == "INVALID_ARGUMENT" and err["reason"]
    assert any(v["field"] == "game" for v in err["field_violations"])
    text = call(server, "Evaluate", "{}")
    assert text.returncode == 1 and text.stdout == "" and "INVALID_ARGUMENT" in text.stderr
