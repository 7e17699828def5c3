package main

import (
	"context"
	"fmt"
	"math/rand"

	pb "github.com/handeval/handeval/gen/go/handeval/v2"
)

// playTienlen plays one game of 越式13张 from the deal to the settlement. The client keeps
// the game record (the hands and every action); each turn it sends the record and the
// service answers the whole state: over or not, whose turn, each seat's legal plays,
// whether it may pass, each choice a ready PlayAction. The seat to move takes its first
// action (its weakest legal play, or the pass when it has none); when the answer says
// the game is over, the same record is settled.
func playTienlen(ctx context.Context, c pb.HandevalClient, rng *rand.Rand) error {
	hands := deal(rng, 4)
	for seat, h := range hands {
		fmt.Printf("seat %d: %s\n", seat, show(h))
	}
	rec := &pb.TienlenGameRecord{Hands: hands}
	tricks := 0
	for step := 0; ; step++ {
		st, err := tienlenState(ctx, c, rec)
		if err != nil {
			return err
		}
		if len(st.Tricks) > 1 && len(st.Tricks) != tricks {
			t := st.Tricks[len(st.Tricks)-2]
			fmt.Printf("  -- trick won by seat %d\n", t.GetWonBy())
		}
		tricks = len(st.Tricks)
		if st.Over {
			fmt.Printf("game over after %d actions: seat %d wins", len(rec.Actions), st.GetWinner())
			if st.Instant != pb.TienlenInstantWinKind_TIENLEN_INSTANT_WIN_KIND_UNSPECIFIED {
				fmt.Printf(" (instant win %s)", name(st.Instant))
			}
			fmt.Println()
			break
		}
		if step > 52*4*2 || len(st.Offers) == 0 {
			return fmt.Errorf("no end in sight: %d actions, %d offers", len(rec.Actions), len(st.Offers))
		}
		offer := st.Offers[0] // the seat to move comes first
		if len(offer.Actions) == 0 {
			return fmt.Errorf("seat %d may neither play nor pass", offer.Seat)
		}
		action := offer.Actions[0] // ready to send back: its weakest play, else the pass
		fmt.Printf("  seat %d: %s\n", action.Seat, describe(action))
		rec.Actions = append(rec.Actions, action)
	}

	r, err := c.Settle(ctx, &pb.SettleRequest{Game: &pb.SettleRequest_Tienlen{Tienlen: &pb.TienlenSettleRequest{
		Deals: []*pb.TienlenDeal{{Deal: &pb.TienlenDeal_Record{Record: rec}, Base: proto64(10)}},
	}}})
	if err != nil {
		return err
	}
	res := r.GetTienlen().GetResults()
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
	fmt.Printf("settled (base 10): winner %d\n", s.Winner)
	return checkDeltas(s.Deltas, s.Rake, len(hands))
}

// tienlenState asks the service for the state of the record.
func tienlenState(ctx context.Context, c pb.HandevalClient, rec *pb.TienlenGameRecord) (*pb.TienlenGameState, error) {
	r, err := c.Evaluate(ctx, &pb.EvaluateRequest{Game: &pb.EvaluateRequest_Tienlen{Tienlen: &pb.TienlenEvaluateRequest{
		Items: []*pb.TienlenEvaluateItem{{Item: &pb.TienlenEvaluateItem_Game{Game: rec}}},
	}}})
	if err != nil {
		return nil, err
	}
	res := r.GetTienlen().GetResults()
	if len(res) != 1 {
		return nil, fmt.Errorf("%d results for 1 item", len(res))
	}
	if e := res[0].GetError(); e != nil {
		return nil, itemError(e)
	}
	return res[0].GetGame(), nil
}

// describe prints an action of the play: "plays 3s 3h" or "passes".
func describe(a *pb.PlayAction) string {
	if a.Kind == pb.ActionKind_ACTION_KIND_PLAY {
		return "plays " + show(a.Cards)
	}
	return "passes"
}
