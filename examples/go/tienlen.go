package main

import (
	"context"
	"fmt"
	"math/rand"

	pb "github.com/handeval/handeval/gen/go/handeval/v2"
	"google.golang.org/protobuf/proto"
)

// playTienlen plays one game of 越式13张 from the deal to the settlement as a table server
// does. The server keeps the game record (the hands and every action). After each action
// it asks every seat's view in one Evaluate (one `game` item per seat, with `viewer`
// set): that is what it would forward to each player's client. A seat chooses only among
// the ready actions of its own view's offers; the disconnected seat (-tuoguan) asks
// `suggest` in its view and sends the suggested action, or nothing when the suggestion
// is to let a chop go. When the views say the game is over, the same record is settled.
func playTienlen(ctx context.Context, c pb.HandevalClient, rng *rand.Rand) error {
	hands := deal(rng, 4)
	for seat, h := range hands {
		fmt.Printf("seat %d: %s\n", seat, show(h))
	}
	rec := &pb.TienlenGameRecord{Hands: hands}
	suggested, chops := 0, 0
	for step := 0; ; step++ {
		views, err := tienlenViews(ctx, c, rec, rng)
		if err != nil {
			return err
		}
		if views[0].Over {
			fmt.Printf("game over after %d actions: seat %d wins", len(rec.Actions), views[0].GetWinner())
			if views[0].Instant != pb.TienlenInstantWinKind_TIENLEN_INSTANT_WIN_KIND_UNSPECIFIED {
				fmt.Printf(" (instant win %s)", name(views[0].Instant))
			}
			fmt.Printf("; %d actions suggested for seat %d, %d chops\n", suggested, *tuoguan, chops)
			break
		}
		if step > 52*4*2 {
			return fmt.Errorf("no end in sight: %d actions", len(rec.Actions))
		}
		action, bySuggest, err := chooseTienlen(views, rng)
		if err != nil {
			return err
		}
		if bySuggest {
			suggested++
		}
		if action.Seat != views[0].GetToMove() {
			chops++
			fmt.Printf("  seat %d chops: %s\n", action.Seat, describe(action))
		}
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

// chooseTienlen picks the next action from the seats' views: first a seat that may chop
// out of turn and does (the 托管 seat when its suggestion is a chop, another seat now and
// then), else the seat to move. It reports whether the action came from `suggest`.
func chooseTienlen(views []*pb.TienlenGameState, rng *rand.Rand) (*pb.PlayAction, bool, error) {
	var turn *pb.TienlenOffer
	for seat, v := range views {
		for _, o := range v.Offers {
			if o.Acting == pb.Acting_ACTING_TURN {
				turn = o
				continue
			}
			if seat == *tuoguan {
				if a := v.GetSuggestion().GetAction(); a != nil {
					return a, true, offered(a, o.Actions)
				}
				continue // the suggestion: let the chop go (send nothing)
			}
			if len(o.Actions) > 0 && rng.Intn(3) == 0 {
				return o.Actions[0], false, nil
			}
		}
	}
	if turn == nil || len(turn.Actions) == 0 {
		return nil, false, fmt.Errorf("no seat may move")
	}
	if int(turn.Seat) == *tuoguan {
		a := views[turn.Seat].GetSuggestion().GetAction()
		if a == nil {
			return nil, false, fmt.Errorf("seat %d is to move but its view has no suggestion", turn.Seat)
		}
		return a, true, offered(a, turn.Actions)
	}
	return turn.Actions[0], false, nil // its weakest play, else the pass
}

// tienlenViews asks each seat's view of the record in one Evaluate call (the 托管 seat's
// with `suggest`) and checks each view shows no card of another seat and offers only that
// seat's actions.
func tienlenViews(ctx context.Context, c pb.HandevalClient, rec *pb.TienlenGameRecord, rng *rand.Rand) ([]*pb.TienlenGameState, error) {
	items := make([]*pb.TienlenEvaluateItem, len(rec.Hands))
	for seat := range items {
		r := proto.Clone(rec).(*pb.TienlenGameRecord)
		r.Viewer = proto32(seat)
		if seat == *tuoguan {
			r.Suggest = &pb.SuggestQuery{Seed: rng.Uint64()}
		}
		items[seat] = &pb.TienlenEvaluateItem{Item: &pb.TienlenEvaluateItem_Game{Game: r}}
	}
	r, err := c.Evaluate(ctx, &pb.EvaluateRequest{Game: &pb.EvaluateRequest_Tienlen{Tienlen: &pb.TienlenEvaluateRequest{Items: items}}})
	if err != nil {
		return nil, err
	}
	res := r.GetTienlen().GetResults()
	if len(res) != len(items) {
		return nil, fmt.Errorf("%d results for %d items", len(res), len(items))
	}
	views := make([]*pb.TienlenGameState, len(res))
	for seat, x := range res {
		if e := x.GetError(); e != nil {
			return nil, itemError(e)
		}
		v := x.GetGame()
		for other, h := range v.Hands {
			if other != seat && len(h.GetCards()) > 0 {
				return nil, fmt.Errorf("seat %d's view shows seat %d's cards", seat, other)
			}
		}
		for _, o := range v.Offers {
			if int(o.Seat) != seat {
				return nil, fmt.Errorf("seat %d's view offers seat %d's actions", seat, o.Seat)
			}
		}
		views[seat] = v
	}
	return views, nil
}

// describe prints an action of the play: "plays 3s 3h", "passes" or "times out".
func describe(a *pb.PlayAction) string {
	switch a.Kind {
	case pb.ActionKind_ACTION_KIND_PLAY:
		return "plays " + show(a.Cards)
	case pb.ActionKind_ACTION_KIND_TIMEOUT:
		return "times out"
	}
	return "passes"
}
