#!/usr/bin/env python3
"""A minimal handeval gRPC client to copy into a game server.

    handeval serve &                      # 127.0.0.1:50051
    python examples/client.py [--target 127.0.0.1:50051] [--token T]

Needs only `pip install handeval` (the generated stubs are in handeval.v1) — or copy
protos/handeval/v1/*.proto and generate stubs for your language.

Patterns shown: one channel for the process (channels are thread-safe and multiplex
calls), a deadline on every call, batches, per-item errors, request errors with the
google.rpc.BadRequest detail, and the optional token.
"""

import argparse
import sys

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from handeval.v1 import handeval_pb2 as pb, handeval_pb2_grpc
from handeval.v1 import shisanshui_pb2 as ssw
from handeval.v1 import tienlen_pb2 as tl


def bad_request_fields(err: grpc.RpcError):
    """[(field, description)] of an INVALID_ARGUMENT's google.rpc.BadRequest detail."""
    status = rpc_status.from_call(err)
    out = []
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            detail.Unpack(br)
            out += [(v.field, v.description) for v in br.field_violations]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--target", default="127.0.0.1:50051")
    ap.add_argument("--token", default=None)
    args = ap.parse_args()
    metadata = (("authorization", f"Bearer {args.token}"),) if args.token else None

    # Kubernetes (headless Service): target "dns:///handeval.default.svc.cluster.local:50051"
    # with options=[("grpc.lb_policy_name", "round_robin")] spreads calls over all pods.
    with grpc.insecure_channel(args.target) as channel:
        stub = handeval_pb2_grpc.HandevalStub(channel)

        # 1. Classify rows and look for special hands: one call, many items.
        req = pb.EvaluateRequest(shisanshui=ssw.ShisanshuiEvaluateRequest(items=[
            ssw.ShisanshuiEvaluateItem(row="As Ks Qs Js Ts"),
            ssw.ShisanshuiEvaluateItem(row="As Ks Zz"),  # bad card: an error for this item only
            ssw.ShisanshuiEvaluateItem(hand="2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Kh 3c"),
        ]))
        resp = stub.Evaluate(req, timeout=5, metadata=metadata)
        for item, result in zip(req.shisanshui.items, resp.shisanshui.results):
            kind = result.WhichOneof("result")
            if kind == "error":
                print(f"item error: {result.error.field}: {result.error.message}")
            elif kind == "row":
                print(f"{item.row}: {result.row.category} ({result.row.category_zh})")
            elif kind == "hand":
                s = result.hand.special if result.hand.HasField("special") else None
                print(f"special: {s.id} ({s.name_zh}) {s.waters} waters" if s else "no special")

        # 2. Settle a finished deal: money per seat, with a house rule and the cap.
        deal = ssw.ShisanshuiDeal(base=10, players=[
            ssw.ShisanshuiPlayer(arrangement=ssw.ShisanshuiArrangement(
                front="Qs Qh Qd", middle="2h 5h 7h 9h Jh", back="Ks Kh Kd 4s 4h")),
            ssw.ShisanshuiPlayer(arrangement=ssw.ShisanshuiArrangement(
                front="2s 3d 5c", middle="6c 7c 8d 9s Td", back="2c 4c Jc Kc Ac")),
        ])
        settle = pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(
            rules=ssw.ShisanshuiRules(rake_percent=5), deals=[deal]))
        result = stub.Settle(settle, timeout=5, metadata=metadata).shisanshui.results[0]
        s = result.settlement
        print(f"waters {list(s.waters)}, deltas {list(s.deltas)}, rake {s.rake}")
        for p in s.pairs:
            print(f"  seat {p.a} vs {p.b}: {p.kind} rows {list(p.rows)} -> {p.waters}")

        # 3. A bad request as a whole: INVALID_ARGUMENT naming the field.
        try:
            stub.Settle(pb.SettleRequest(shisanshui=ssw.ShisanshuiSettleRequest(
                rules=ssw.ShisanshuiRules(a2345="middle"), deals=[deal])), timeout=5, metadata=metadata)
        except grpc.RpcError as e:
            print(f"{e.code().name}: {bad_request_fields(e)}")

        # 4. A game flow, stateless (越式13张): send the round so far, get whose turn it is
        # and whether an action is allowed now (docs/grpc.md has whole games).
        hands = ["3s 5h 7d 9c Jd Ks 2h 4c 6s 8h Tc Qd Ah", "3c 5s 7h 9d Js Kh 2d 4h 6c 8d Ts Qc Ac",
                 "3d 5c 7s 9h Jc Kd 2c 4s 6d 8c Th Qs As", "3h 5d 7c 9s Jh Kc 2s 4d 6h 8s Td Qh Ad"]
        turns = [tl.TienlenTurn(seat=0, play="3s"), tl.TienlenTurn(seat=1, play="2d")]
        req = pb.EvaluateRequest(tienlen=tl.TienlenEvaluateRequest(items=[
            tl.TienlenEvaluateItem(first_leader=tl.TienlenFirstLeaderQuery(hands=hands)),
            tl.TienlenEvaluateItem(round_state=tl.TienlenRoundQuery(
                hands=hands, turns=turns, check=tl.TienlenTurn(seat=2, play="4s"))),
        ]))
        first, state = stub.Evaluate(req, timeout=5, metadata=metadata).tienlen.results
        r = state.round_state
        print(f"seat {first.first_leader.seat} leads with {first.first_leader.card}; "
              f"seat {r.to_move} to move; 4s allowed: {r.check.allowed} ({r.check.reason})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
