package main

import (
	"context"
	"fmt"
	"math/rand"

	pb "github.com/handeval/handeval/gen/go/handeval/v2"
)

// playDachu plays one game of 打儲 from the deal to the settlement. The client keeps the
// game record (the hands, the deal's actions, the calls, the plays); each step it sends
// the record and the service answers the whole state: the phase, the legal actions of
// the deal, whose call and the legal calls, whose turn and the legal plays, game over.
// Its choices are a policy, not rules: deal on without declaring, call 平打 when it is
// offered, play the weakest legal play (or pass when there is none).
func playDachu(ctx context.Context, c pb.HandevalClient, rng *rand.Rand) error {
	hands := deal(rng, 4)
	for seat, h := range hands {
		fmt.Printf("seat %d: %s\n", seat, show(h))
	}
	rec := &pb.DachuGameRecord{Hands: hands}
	var st *pb.DachuGameState
	for step := 0; ; step++ {
		var err error
		if st, err = dachuState(ctx, c, rec); err != nil {
			return err
		}
		if step > 52*4*2+32 {
			return fmt.Errorf("no end in sight after %d steps (phase %s)", step, st.Phase)
		}
		switch st.Phase {
		case pb.DachuPhase_DACHU_PHASE_DEAL:
			a := pickDeal(st.Deal.LegalActions)
			if a == nil {
				return fmt.Errorf("the deal offers no action")
			}
			rec.DealActions = append(rec.DealActions, a)
			continue
		case pb.DachuPhase_DACHU_PHASE_CALLING:
			if len(rec.Calls) == 0 {
				d := st.Deal
				fmt.Printf("deal: 儲 %s (%s), 儲方 %v, %s, x%d\n", name(d.Chu), name(d.ChuSource), d.ChuSide, name(d.Teams), d.Multiplier)
			}
			if len(st.Calling.LegalActions) == 0 {
				return fmt.Errorf("the calling offers no call")
			}
			call := st.Calling.LegalActions[0]
			for _, a := range st.Calling.LegalActions {
				if a.Call == pb.DachuCallKind_DACHU_CALL_KIND_PING_DA {
					call = a
				}
			}
			fmt.Printf("  seat %d calls %s\n", call.Seat, name(call.Call))
			rec.Calls = append(rec.Calls, call)
			continue
		case pb.DachuPhase_DACHU_PHASE_PLAY:
			if len(st.Play.Actions) == 0 {
				return fmt.Errorf("seat %d may neither play nor pass", st.Play.GetToMove())
			}
			action := st.Play.Actions[0] // ready to send back: the weakest play, else the pass
			fmt.Printf("  seat %d: %s\n", action.Seat, describe(action))
			rec.Plays = append(rec.Plays, action)
			continue
		}
		break // DACHU_PHASE_OVER (or a phase this client does not know)
	}
	if st.Phase != pb.DachuPhase_DACHU_PHASE_OVER {
		return fmt.Errorf("unknown phase %s", st.Phase)
	}
	fmt.Printf("game over: places %v\n", st.GetPlay().GetPlaces())

	r, err := c.Settle(ctx, &pb.SettleRequest{Game: &pb.SettleRequest_Dachu{Dachu: &pb.DachuSettleRequest{
		Deals: []*pb.DachuDeal{{Deal: &pb.DachuDeal_Record{Record: rec}, Base: proto64(10)}},
	}}})
	if err != nil {
		return err
	}
	res := r.GetDachu().GetResults()
	if len(res) != 1 {
		return fmt.Errorf("%d settlements for 1 deal", len(res))
	}
	if e := res[0].GetError(); e != nil {
		return itemError(e)
	}
	s := res[0].GetSettlement()
	for _, l := range s.Lines {
		fmt.Printf("  %s\n", l.Text)
	}
	fmt.Printf("settled (base 10): 儲方 %s, result multiplier %d\n", name(s.Verdict), s.ResultMultiplier)
	return checkDeltas(s.Deltas, 0, len(hands))
}

// pickDeal: the next card or the end of the deal, when offered; else the first action.
func pickDeal(legal []*pb.DachuDealAction) *pb.DachuDealAction {
	for _, a := range legal {
		if a.Kind == pb.DachuDealActionKind_DACHU_DEAL_ACTION_KIND_DEAL || a.Kind == pb.DachuDealActionKind_DACHU_DEAL_ACTION_KIND_FINISH {
			return a
		}
	}
	if len(legal) > 0 {
		return legal[0]
	}
	return nil
}

// dachuState asks the service for the state of the record.
func dachuState(ctx context.Context, c pb.HandevalClient, rec *pb.DachuGameRecord) (*pb.DachuGameState, error) {
	r, err := c.Evaluate(ctx, &pb.EvaluateRequest{Game: &pb.EvaluateRequest_Dachu{Dachu: &pb.DachuEvaluateRequest{
		Items: []*pb.DachuEvaluateItem{{Item: &pb.DachuEvaluateItem_Game{Game: rec}}},
	}}})
	if err != nil {
		return nil, err
	}
	res := r.GetDachu().GetResults()
	if len(res) != 1 {
		return nil, fmt.Errorf("%d results for 1 item", len(res))
	}
	if e := res[0].GetError(); e != nil {
		return nil, itemError(e)
	}
	return res[0].GetGame(), nil
}
