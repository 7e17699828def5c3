package main

import (
	"context"
	"fmt"
	"math/rand"

	pb "github.com/handeval/handeval/gen/go/handeval/v2"
	"google.golang.org/protobuf/proto"
)

// playDachu plays one game of 打儲 from the deal to the settlement as a table server does.
// The server keeps the game record (the hands, the deal's actions, the calls, the plays).
// After each action it asks, in one Evaluate, the full state (for the table's own DEAL
// and FINISH) and every seat's view (`viewer`): what it would forward to each player's
// client. Seats choose only among their own view's offers, each a ready action: the
// deal's declarations (any seat may act), the calls and the play's PLAY, PASS and
// TIMEOUT (the seat whose turn it is). The disconnected seat (-tuoguan) sends what
// `suggest` answers in its view, in every phase. Nothing is built by hand.
func playDachu(ctx context.Context, c pb.HandevalClient, rng *rand.Rand) error {
	hands := deal(rng, 4)
	for seat, h := range hands {
		fmt.Printf("seat %d: %s\n", seat, show(h))
	}
	rec := &pb.DachuGameRecord{Hands: hands}
	suggested := map[string]int{}
	var full *pb.DachuGameState
	for step := 0; ; step++ {
		var views []*pb.DachuGameState
		var err error
		if full, views, err = dachuViews(ctx, c, rec, rng); err != nil {
			return err
		}
		if step > 52*4*2+64 {
			return fmt.Errorf("no end in sight after %d steps (phase %s)", step, full.Phase)
		}
		if full.Phase == pb.DachuPhase_DACHU_PHASE_OVER {
			break
		}
		o, bySuggest, err := chooseDachu(full, views, rng)
		if err != nil {
			return err
		}
		phase := name(full.Phase)
		if bySuggest {
			suggested[phase]++
		}
		switch a := o.Action.(type) {
		case *pb.DachuOffer_DealAction:
			switch a.DealAction.Kind {
			case pb.DachuDealActionKind_DACHU_DEAL_ACTION_KIND_DEAL:
			case pb.DachuDealActionKind_DACHU_DEAL_ACTION_KIND_FINISH:
				fmt.Println("  deal: finish (the table's)")
			default:
				fmt.Printf("  deal: %s by seat %d\n", name(a.DealAction.Kind), a.DealAction.Seat)
			}
			rec.DealActions = append(rec.DealActions, a.DealAction)
		case *pb.DachuOffer_Call:
			if len(rec.Calls) == 0 {
				d := full.Deal
				fmt.Printf("deal: 儲 %s (%s), 儲方 %v, %s, x%d\n", name(d.Chu), name(d.ChuSource), d.ChuSide, name(d.Teams), d.Multiplier)
			}
			fmt.Printf("  seat %d calls %s\n", a.Call.Seat, name(a.Call.Call))
			rec.Calls = append(rec.Calls, a.Call)
		case *pb.DachuOffer_Play:
			fmt.Printf("  seat %d %s\n", a.Play.Seat, describe(a.Play))
			rec.Plays = append(rec.Plays, a.Play)
		default:
			return fmt.Errorf("an offer with no action")
		}
	}
	fmt.Printf("game over: places %v; suggested for seat %d: %v\n", full.GetPlay().GetPlaces(), *tuoguan, suggested)

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

// chooseDachu picks the next action: a seat that may act beside others and does (a
// declaration in the deal: the 托管 seat when suggest says so, another seat now and then),
// else the seat whose turn it is, else the table's own next action (DEAL, FINISH).
func chooseDachu(full *pb.DachuGameState, views []*pb.DachuGameState, rng *rand.Rand) (*pb.DachuOffer, bool, error) {
	var turn []*pb.DachuOffer
	for seat, v := range views {
		var mine []*pb.DachuOffer
		for _, o := range v.Offers {
			if o.Acting == pb.Acting_ACTING_TURN {
				turn = append(turn, o)
			} else {
				mine = append(mine, o)
			}
		}
		if len(mine) == 0 {
			continue
		}
		if seat == *tuoguan {
			if a := v.GetDeal().GetSuggestion().GetAction(); a != nil {
				o := &pb.DachuOffer{Seat: a.Seat, Action: &pb.DachuOffer_DealAction{DealAction: a}}
				return o, true, offeredOffer(o, mine)
			}
			continue // the suggestion: declare nothing now
		}
		if rng.Intn(4) == 0 {
			return mine[rng.Intn(len(mine))], false, nil
		}
	}
	if len(turn) > 0 {
		seat := int(turn[0].Seat)
		if seat != *tuoguan {
			return pickTurn(turn, rng), false, nil
		}
		v := views[seat]
		var o *pb.DachuOffer
		switch {
		case v.GetCalling().GetSuggestion().GetAction() != nil && full.Phase == pb.DachuPhase_DACHU_PHASE_CALLING:
			o = &pb.DachuOffer{Seat: int32(seat), Action: &pb.DachuOffer_Call{Call: v.Calling.Suggestion.Action}}
		case v.GetPlay().GetSuggestion().GetAction() != nil:
			o = &pb.DachuOffer{Seat: int32(seat), Action: &pb.DachuOffer_Play{Play: v.Play.Suggestion.Action}}
		default:
			return nil, false, fmt.Errorf("seat %d is to decide in the %s but its view has no suggestion", seat, name(full.Phase))
		}
		return o, true, offeredOffer(o, turn)
	}
	// Nobody acts: the table deals on (the full state's own actions).
	for _, a := range full.GetDeal().GetLegalActions() {
		k := a.Kind
		if k == pb.DachuDealActionKind_DACHU_DEAL_ACTION_KIND_DEAL || k == pb.DachuDealActionKind_DACHU_DEAL_ACTION_KIND_FINISH {
			return &pb.DachuOffer{Action: &pb.DachuOffer_DealAction{DealAction: a}}, false, nil
		}
	}
	return nil, false, fmt.Errorf("nobody may act in the %s", name(full.Phase))
}

// pickTurn: a connected seat's policy: 平打 when offered; in the play a timeout now and
// then, else the weakest play (the first offer), else the pass.
func pickTurn(turn []*pb.DachuOffer, rng *rand.Rand) *pb.DachuOffer {
	for _, o := range turn {
		if c := o.GetCall(); c != nil && c.Call == pb.DachuCallKind_DACHU_CALL_KIND_PING_DA {
			return o
		}
		if p := o.GetPlay(); p != nil && p.Kind == pb.ActionKind_ACTION_KIND_TIMEOUT && rng.Intn(8) == 0 {
			return o
		}
	}
	return turn[0]
}

// offeredOffer checks that a suggested action is one of the offers, as it must be.
func offeredOffer(o *pb.DachuOffer, offers []*pb.DachuOffer) error {
	for _, x := range offers {
		if x.Seat == o.Seat && proto.Equal(actionOf(x), actionOf(o)) {
			return nil
		}
	}
	return fmt.Errorf("seat %d's suggestion %v is not among its offers", o.Seat, o)
}

func actionOf(o *pb.DachuOffer) proto.Message {
	switch a := o.Action.(type) {
	case *pb.DachuOffer_DealAction:
		return a.DealAction
	case *pb.DachuOffer_Call:
		return a.Call
	case *pb.DachuOffer_Play:
		return a.Play
	}
	return nil
}

// dachuViews asks, in one Evaluate call, the record's full state and each seat's view
// (the 托管 seat's with `suggest`), and checks that each view shows no card of another
// seat and offers only that seat's actions.
func dachuViews(ctx context.Context, c pb.HandevalClient, rec *pb.DachuGameRecord, rng *rand.Rand) (*pb.DachuGameState, []*pb.DachuGameState, error) {
	items := []*pb.DachuEvaluateItem{{Item: &pb.DachuEvaluateItem_Game{Game: rec}}}
	for seat := 0; seat < len(rec.Hands); seat++ {
		r := proto.Clone(rec).(*pb.DachuGameRecord)
		r.Viewer = proto32(seat)
		if seat == *tuoguan {
			r.Suggest = &pb.SuggestQuery{Seed: rng.Uint64()}
		}
		items = append(items, &pb.DachuEvaluateItem{Item: &pb.DachuEvaluateItem_Game{Game: r}})
	}
	r, err := c.Evaluate(ctx, &pb.EvaluateRequest{Game: &pb.EvaluateRequest_Dachu{Dachu: &pb.DachuEvaluateRequest{Items: items}}})
	if err != nil {
		return nil, nil, err
	}
	res := r.GetDachu().GetResults()
	if len(res) != len(items) {
		return nil, nil, fmt.Errorf("%d results for %d items", len(res), len(items))
	}
	states := make([]*pb.DachuGameState, len(res))
	for i, x := range res {
		if e := x.GetError(); e != nil {
			return nil, nil, itemError(e)
		}
		states[i] = x.GetGame()
	}
	for seat, v := range states[1:] {
		for other := range rec.Hands {
			if other != seat && (cardsAt(v.GetDeal().GetHeld(), other) > 0 || cardsAt(v.GetPlay().GetHands(), other) > 0) {
				return nil, nil, fmt.Errorf("seat %d's view shows seat %d's cards", seat, other)
			}
		}
		for _, o := range v.Offers {
			if int(o.Seat) != seat {
				return nil, nil, fmt.Errorf("seat %d's view offers seat %d's actions", seat, o.Seat)
			}
		}
	}
	return states[0], states[1:], nil
}

// cardsAt: how many cards a per-seat list shows for `seat` (0 when it has no entry).
func cardsAt(list []*pb.Cards, seat int) int {
	if seat >= len(list) {
		return 0
	}
	return len(list[seat].GetCards())
}
