"""Every error path names a real field (common.proto, FIELD PATHS): the random requests of
the gRPC fuzz test (tests/grpc/test_fuzz_grpc.py's generator), answered in process by
the wire (`_core.wire_answer`, what the server calls), and the reason table's requests;
each ItemError's `field` is walked through the game request's descriptors, each request
error's field through the RPC request's, and an ItemError's `action_index` is the index
the path gives its action list. The Python API's fuzz errors name parameters:
tests/api/test_fuzz_python.py checks them (`python_path_ok`)."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path

import pytest
from google.protobuf import descriptor as _d

from handeval import _core
from handeval.v2 import handeval_pb2 as pb

SEGMENT = re.compile(r"([a-z_0-9]+)((?:\[\d+\])*)$")
ACTION_LISTS = {"actions", "deal_actions", "calls", "plays"}


def _fuzz_module():
    path = Path(__file__).with_name("test_fuzz_grpc.py")
    spec = importlib.util.spec_from_file_location("_fuzz_grpc_generator", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def proto_path_problem(root: _d.Descriptor, path: str):
    """None when `path` names a field of `root` (names joined by ".", an index only on
    a repeated field; the last name may be a oneof, "set one of …"), else what is wrong."""
    if path == "":
        return None
    msg = root
    parts = path.split(".")
    for k, part in enumerate(parts):
        m = SEGMENT.match(part)
        if not m:
            return f"{part!r} is not a field name"
        if msg is None:
            return f"{part!r} is inside the scalar {parts[k - 1]!r}"
        if k == len(parts) - 1 and part in msg.oneofs_by_name:
            return None
        fd = msg.fields_by_name.get(m.group(1))
        if fd is None:
            return f"{msg.full_name} has no field {m.group(1)!r}"
        indices = m.group(2).count("[")
        repeated = fd.is_repeated if hasattr(fd, "is_repeated") else fd.label == fd.LABEL_REPEATED
        if indices > (1 if repeated else 0):
            return f"{part!r}: {fd.name} is not a list of lists" if repeated else f"{part!r}: {fd.name} is not repeated"
        if repeated and not indices and k < len(parts) - 1:
            return f"{part!r}: a path goes on inside one entry of the list {fd.name}"
        msg = fd.message_type if fd.type == fd.TYPE_MESSAGE else None
        if msg is not None and msg.GetOptions().map_entry:
            return f"{part!r}: maps are not used"
    return None


def action_index_problem(field: str, index):
    """The action_index is the last action list's index in the path (None when the path
    names no action)."""
    found = re.findall(r"(?:^|\.)(" + "|".join(ACTION_LISTS) + r")\[(\d+)\]", field)
    want = int(found[-1][1]) if found else None
    if index != want and not (want is None and index is not None and field.rsplit(".", 1)[-1] in ACTION_LISTS):
        return f"action_index {index}, but the path {field!r} gives {want}"
    return None


def check_answer(rpc: str, request, data: bytes, problems: list):
    game = request.WhichOneof("game")
    try:
        out = _core.wire_answer(rpc, data, _core.WireCall(None), 64, 1000, False)
    except Exception as e:  # a request error: its field starts at the RPC request
        field = getattr(e, "field", None)
        if field is not None:
            why = proto_path_problem(request.DESCRIPTOR, field)
            if why:
                problems.append((rpc, field, why))
        return
    answer = getattr(pb, rpc + "Response")()
    answer.ParseFromString(out)
    root = getattr(request, game).DESCRIPTOR
    for r in getattr(answer, game).results:
        if r.WhichOneof("result") != "error":
            continue
        err = r.error
        why = proto_path_problem(root, err.field)
        index = err.action_index if err.HasField("action_index") else None
        why = why or action_index_problem(err.field, index)
        if why:
            problems.append((rpc, err.field, why, err.message))


def test_the_path_walker_refuses_invented_paths():
    from handeval.v2 import dachu_pb2, shisanshui_pb2, tienlen_pb2

    ssw = shisanshui_pb2.ShisanshuiSettleRequest.DESCRIPTOR
    assert proto_path_problem(ssw, "deals[1].players[1].arrangement.front") is None
    assert proto_path_problem(ssw, "deals[0].base") is None
    assert proto_path_problem(ssw, "deals[1].players[1].front") is not None
    assert proto_path_problem(ssw, "deals[1].players[1].arrangement.front.cards[2]") is None
    dc = dachu_pb2.DachuEvaluateRequest.DESCRIPTOR
    assert proto_path_problem(dc, "items[0].game.deal_actions[2].cards") is None
    assert proto_path_problem(dc, "items[0].game.deal_actions[2].meng_xuan") is not None
    tl = tienlen_pb2.TienlenSettleRequest.DESCRIPTOR
    assert proto_path_problem(tl, "deals[0].outcome.chops[0].actions[1].cards") is None
    assert proto_path_problem(tl, "deals[0].outcome.chops[0].base") is not None
    assert proto_path_problem(tl, "deals[0].outcome.chops[0][1].cards") is not None
    assert action_index_problem("items[0].game.actions[5].cards", 5) is None
    assert action_index_problem("items[0].game.actions[5].cards", None) is not None
    assert action_index_problem("items[0].game.hands[1]", None) is None


@pytest.mark.parametrize("rpc", ["Evaluate", "Compare", "Settle", "Arrange"])
def test_fuzzed_requests_name_real_fields(rpc):
    fuzz = _fuzz_module()
    rng = random.Random(f"paths-{rpc}")
    problems = []
    for _ in range(fuzz.N):
        msg = fuzz.request(rpc, rng)
        check_answer(rpc, msg, msg.SerializeToString(), problems)
    assert not problems, problems[:10]


def test_the_reason_table_names_real_fields():
    from harness.reason_cases import CASES

    problems = []
    for case in CASES:
        if case.grpc:
            rpc, msg = case.grpc()
            check_answer(rpc, msg, msg.SerializeToString(), problems)
    assert not problems, problems


def test_known_invented_paths_are_gone():
    """The paths a client once met that name no proto field: a repeated 夢宣
    (`deal_actions[k].meng_xuan`) and a bad base beside chop rounds
    (`deals[0].outcome.chops[0].base`)."""
    from handeval.v2 import common_pb2, dachu_pb2 as d, tienlen_pb2 as t
    from harness.reason_cases import DEAL9, HANDS, C, dc_deal, tl_outcome

    problems = []
    q = dc_deal(
        [("deal",), ("meng_xuan", 0, "As"), ("meng_xuan", 0, "As")],
        hands=["As " + HANDS[0].replace(" As", ""), *HANDS[1:]],
    )
    req = pb.EvaluateRequest(dachu=d.DachuEvaluateRequest(items=[d.DachuEvaluateItem(deal=q)]))
    check_answer("Evaluate", req, req.SerializeToString(), problems)
    ans = pb.EvaluateResponse.FromString(
        _core.wire_answer("Evaluate", req.SerializeToString(), _core.WireCall(None), 64, 0, False)
    )
    assert ans.dachu.results[0].error.field == "items[0].deal.actions[2]", ans
    assert ans.dachu.results[0].error.action_index == 2
    play = common_pb2.PlayAction(seat=0, kind=common_pb2.ACTION_KIND_PLAY, cards=C("3s"))
    outcome = tl_outcome(["", "4s", "5s", "6s"], 0)
    outcome.chops.add(actions=[play])
    req = pb.SettleRequest(tienlen=t.TienlenSettleRequest(deals=[t.TienlenDeal(outcome=outcome, base=0)]))
    ans = pb.SettleResponse.FromString(
        _core.wire_answer("Settle", req.SerializeToString(), _core.WireCall(None), 64, 0, False)
    )
    assert ans.tienlen.results[0].error.field == "deals[0].base", ans
    assert not problems, problems
    assert DEAL9  # the table's deal, used by its cases
