"""Every documented error reason, per game, the same through the Python API, the CLI and
gRPC (the table: harness/reason_cases.py, printed in docs/grpc.md)."""

from __future__ import annotations

import grpc
import pytest

import handeval
from handeval.cli import main as cli_main
from handeval.errors import ERROR_REASONS, HandevalError
from handeval.server.client import error_info
from handeval.v2 import common_pb2
from harness.reason_cases import CASES

IDS = [f"{c.game}-{c.reason}-{c.what}" for c in CASES]


def test_the_table_covers_every_reason_a_game_documents():
    """Each game has a case of every reason but the ones it cannot give: TOO_LARGE is
    the server's limits (tests/grpc), GAME_OVER and NOT_YOUR_TURN need a turn order
    (十三水 has none), and INVALID is what no case should need."""
    assert {c.reason for c in CASES} <= set(ERROR_REASONS)
    not_in = {
        "shisanshui": {
            "invalid",
            "too_large",
            "not_a_play",
            "does_not_beat",
            "not_your_turn",
            "card_not_in_hand",
            "illegal_action",
            "game_over",
        },
        "tienlen": {"invalid", "too_large", "foul"},
        "dachu": {"invalid", "too_large", "foul"},
    }
    for game, left_out in not_in.items():
        have = {c.reason for c in CASES if c.game == game}
        assert have == set(ERROR_REASONS) - left_out, (game, sorted(set(ERROR_REASONS) - left_out - have))


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_python_api(case):
    with pytest.raises(HandevalError) as ei:
        case.py()
    assert ei.value.reason == case.reason, (ei.value.reason, str(ei.value))
    assert ei.value.action_index == case.action_index, (ei.value.action_index, str(ei.value))


@pytest.mark.parametrize("case", [c for c in CASES if c.cli], ids=[i for i, c in zip(IDS, CASES) if c.cli])
def test_cli(case, capsys):
    assert cli_main(case.cli) == 2
    err = capsys.readouterr().err
    assert err.startswith("handeval: ") and err.rstrip().endswith(f"[{case.reason}]"), err


def _grpc_error(stub, rpc, request):
    """The (field, reason name, action_index) of the one error the request gets: its
    first ItemError, or the status's BadRequest/ErrorInfo."""
    try:
        answer = getattr(stub, rpc)(request, timeout=30)
    except grpc.RpcError as e:
        assert e.code() == grpc.StatusCode.INVALID_ARGUMENT, e
        reason, metadata = error_info(e)
        return metadata.get("field"), reason, None
    game = answer.WhichOneof("game")
    for r in getattr(answer, game).results:
        if r.WhichOneof("result") == "error":
            err = r.error
            index = err.action_index if err.HasField("action_index") else None
            return err.field, common_pb2.ErrorReason.Name(err.reason), index
    raise AssertionError(f"no error in {answer}")


@pytest.mark.parametrize("case", [c for c in CASES if c.grpc], ids=[i for i, c in zip(IDS, CASES) if c.grpc])
def test_grpc(case, stub):
    field, reason, index = _grpc_error(stub, *case.grpc())
    assert reason == "ERROR_REASON_" + case.reason.upper(), (reason, field)
    assert index == case.action_index, (index, field)
    if case.field is not None:
        assert field == case.field


def test_a_round_check_carries_the_reason_of_the_refusal():
    """TienlenCheck.reason is the reason the action would fail with, not one reason for
    every refusal."""
    from handeval import _core
    from handeval.v2 import handeval_pb2 as pb, tienlen_pb2 as tl
    from harness.reason_cases import C

    def check(seat, cards):
        q = tl.TienlenRoundQuery(
            actions=[common_pb2.PlayAction(seat=0, kind=common_pb2.ACTION_KIND_PLAY, cards=C("5s"))],
            check=common_pb2.PlayAction(seat=seat, kind=common_pb2.ACTION_KIND_PLAY, cards=C(cards)),
        )
        req = pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=[tl.TienlenEvaluateItem(round_state=q)]))
        out = pb.EvaluateResponse.FromString(
            _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 64, 0, False)
        )
        c = out.tienlen.results[0].round_state.check
        return c.allowed, common_pb2.ErrorReason.Name(c.reason)

    assert check(1, "6c") == (True, "ERROR_REASON_UNSPECIFIED")
    assert check(2, "6c") == (False, "ERROR_REASON_NOT_YOUR_TURN")
    assert check(1, "4c") == (False, "ERROR_REASON_DOES_NOT_BEAT")


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: handeval.shisanshui.Rules(a2345_rule="ace_low"), "rules.a2345_rule"),
        (lambda: handeval.tienlen.Rules(rake=3), "rules.rake"),
        (lambda: handeval.dachu.Rules(base=2, escape_penalty=1), "rules.base"),
        (lambda: handeval.Rules(shisanshuii=None), "shisanshuii"),
    ],
    ids=["shisanshui", "tienlen", "dachu", "bundle"],
)
def test_an_unknown_rules_keyword_is_a_bad_rule_naming_it(make, field):
    """A keyword a Rules constructor does not take is a HandevalError naming it (reason
    bad_rule) and listing the options, as a bad option value is — not a bare TypeError."""
    with pytest.raises(HandevalError) as e:
        make()
    assert e.value.field == field and e.value.reason == "bad_rule", (e.value.field, e.value.reason)
    assert "its options:" in e.value.description
