#!/usr/bin/env python3
"""A minimal handeval gRPC client to copy into a game server.

    handeval serve &                      # 127.0.0.1:50051
    python examples/client.py [--target 127.0.0.1:50051] [--token T]

Needs only `pip install 'handeval[server]'` (the generated stubs are in handeval.v2) — or copy
protos/handeval/v2/*.proto and generate stubs for your language.

Patterns shown: one channel for the process (channels are thread-safe and multiplex
calls), a deadline on every call, batches, per-item errors (a field path and a reason
enum), request errors with the google.rpc.BadRequest and google.rpc.ErrorInfo details, a
game record (the service answers the whole state), and the optional token.
"""

import argparse
import sys

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from handeval.v2 import common_pb2, handeval_pb2 as pb, handeval_pb2_grpc, shisanshui_pb2 as ssw, tienlen_pb2 as tl


def cards(text: str) -> common_pb2.Cards:
    """Every card set is a Cards message, one card per entry."""
    return common_pb2.Cards(cards=text.split())


def request_error(err: grpc.RpcError):
    """(ErrorInfo reason, [(field, description)]) of an INVALID_ARGUMENT's details."""
    status = rpc_status.from_call(err)
    reason, fields = None, []
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            br = error_details_pb2.BadRequest()
            detail.Unpack(br)
            fields += [(v.field, v.description) for v in br.field_violations]
        elif detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason = info.reason
    return reason, fields


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
        req = pb.EvaluateRequest(
            shisanshui=ssw.ShisanshuiEvaluateRequest(
                items=[
                    ssw.ShisanshuiEvaluateItem(row=cards("As Ks Qs Js Ts")),
                    ssw.ShisanshuiEvaluateItem(row=cards("As Ks Zz")),  # bad card: an error for this item only
                    ssw.ShisanshuiEvaluateItem(hand=cards("2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Kh 3c")),
                ]
            )
        )
        resp = stub.Evaluate(req, timeout=5, metadata=metadata)
        for item, result in zip(req.shisanshui.items, resp.shisanshui.results):
            kind = result.WhichOneof("result")
            if kind == "error":
                e = result.error
                print(f"item error: {e.field}: {common_pb2.ErrorReason.Name(e.reason)}: {e.message}")
            elif kind == "row":
                category = ssw.ShisanshuiCategory.Name(result.row.category)
                print(f"{' '.join(item.row.cards)}: {category} ({result.row.category_zh})")
            elif kind == "hand":
                s = result.hand.special if result.hand.HasField("special") else None
                print(
                    f"special: {ssw.ShisanshuiSpecialKind.Name(s.kind)} ({s.name_zh}) {s.waters} waters"
                    if s
                    else "no special"
                )

        # 2. Settle a finished deal: money per seat, with a house rule and the cap.
        deal = ssw.ShisanshuiDeal(
            base=10,
            players=[
                ssw.ShisanshuiPlayer(
                    arrangement=ssw.ShisanshuiArrangement(
                        front=cards("Qs Qh Qd"), middle=cards("2h 5h 7h 9h Jh"), back=cards("Ks Kh Kd 4s 4h")
                    )
                ),
                ssw.ShisanshuiPlayer(
                    arrangement=ssw.ShisanshuiArrangement(
                        front=cards("2s 3d 5c"), middle=cards("6c 7c 8d 9s Td"), back=cards("2c 4c Jc Kc Ac")
                    )
                ),
            ],
        )
        settle = pb.SettleRequest(
            shisanshui=ssw.ShisanshuiSettleRequest(rules=ssw.ShisanshuiRules(rake_percent=5), deals=[deal])
        )
        result = stub.Settle(settle, timeout=5, metadata=metadata).shisanshui.results[0]
        s = result.settlement
        print(f"waters {list(s.waters)}, deltas {list(s.deltas)}, rake {s.rake}")
        for p in s.pairs:
            print(f"  seat {p.a} vs {p.b}: {ssw.ShisanshuiPairKind.Name(p.kind)} rows {list(p.rows)} -> {p.waters}")

        # 3. A bad request as a whole: INVALID_ARGUMENT naming the field, with a reason.
        try:
            stub.Settle(
                pb.SettleRequest(
                    shisanshui=ssw.ShisanshuiSettleRequest(rules=ssw.ShisanshuiRules(rake_percent=101), deals=[deal])
                ),
                timeout=5,
                metadata=metadata,
            )
        except grpc.RpcError as e:
            reason, fields = request_error(e)
            print(f"{e.code().name}: {reason} {fields}")

        # 4. A game flow, stateless (越式13张): send the game record (the deal and every
        # action so far), get the whole state: whose turn, what each seat may play, the
        # winner once over (docs/grpc.md plays whole games).
        hands = [
            "4s 4d 4h 5s 6c 7s 9s Ts Td Th Qs Kc 2s",
            "3s 3c 3h 5d 6d 7c 7d 9h Jc Jd Kd As Ac",
            "6s 6h 8s 8c 8h 9c 9d Js Qh Ks Ad Ah 2d",
            "3d 4c 5c 5h 7h 8d Tc Jh Qc Qd Kh 2c 2h",
        ]
        play = common_pb2.ACTION_KIND_PLAY
        record = tl.TienlenGameRecord(
            hands=[cards(h) for h in hands],
            actions=[
                common_pb2.PlayAction(seat=1, kind=play, cards=cards("3s")),  # seat 1 holds the lowest card
                common_pb2.PlayAction(seat=2, kind=play, cards=cards("6s")),
            ],
        )
        wrong = tl.TienlenGameRecord(
            hands=record.hands,
            actions=list(record.actions) + [common_pb2.PlayAction(seat=0, kind=play, cards=cards("9s"))],
        )  # seat 3's turn
        req = pb.EvaluateRequest(
            tienlen=tl.TienlenEvaluateRequest(
                items=[tl.TienlenEvaluateItem(game=record), tl.TienlenEvaluateItem(game=wrong)]
            )
        )
        state, bad = stub.Evaluate(req, timeout=5, metadata=metadata).tienlen.results
        g = state.game
        print(
            f"seat {g.first_lead.seat} led with {g.first_lead.card}; seat {g.to_move} to move; "
            f"{len(g.offers[0].plays)} plays allowed, may pass: {g.offers[0].may_pass}"
        )
        print(f"item error: {bad.error.field}: {common_pb2.ErrorReason.Name(bad.error.reason)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
