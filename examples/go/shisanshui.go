package main

import (
	"context"
	"fmt"
	"math/rand"

	pb "github.com/handeval/handeval/gen/go/handeval/v2"
)

// playShisanshui: deal 4 x 13 cards -> Arrange each hand (declaring a special hand when
// the service advises it) -> Settle the four hands -> print the money.
func playShisanshui(ctx context.Context, c pb.HandevalClient, rng *rand.Rand) error {
	hands := deal(rng, 4)
	req := &pb.ShisanshuiArrangeRequest{}
	for _, h := range hands {
		req.Items = append(req.Items, &pb.ShisanshuiArrangeItem{Item: &pb.ShisanshuiArrangeItem_Hand{Hand: h}})
	}
	ar, err := c.Arrange(ctx, &pb.ArrangeRequest{Game: &pb.ArrangeRequest_Shisanshui{Shisanshui: req}})
	if err != nil {
		return err
	}
	results := ar.GetShisanshui().GetResults()
	if len(results) != len(hands) {
		return fmt.Errorf("%d arrangements for %d hands", len(results), len(hands))
	}
	deal := &pb.ShisanshuiDeal{Base: proto64(1)}
	for seat, r := range results {
		if e := r.GetError(); e != nil {
			return itemError(e)
		}
		a := r.GetAnswer()
		fmt.Printf("seat %d: %s\n", seat, show(hands[seat]))
		var p *pb.ShisanshuiPlayer
		if a.DeclareSpecial {
			fmt.Printf("  declares %s\n", name(a.Special))
			p = &pb.ShisanshuiPlayer{Hand: &pb.ShisanshuiPlayer_Special{Special: &pb.ShisanshuiDeclaredSpecial{Kind: a.Special, Cards: hands[seat]}}}
		} else {
			b := a.GetBest().GetArrangement()
			fmt.Printf("  front %s | middle %s | back %s (expected %.2f)\n", show(b.Front), show(b.Middle), show(b.Back), a.GetBest().GetExpected())
			p = &pb.ShisanshuiPlayer{Hand: &pb.ShisanshuiPlayer_Arrangement{Arrangement: b}}
		}
		deal.Players = append(deal.Players, p)
	}
	sr, err := c.Settle(ctx, &pb.SettleRequest{Game: &pb.SettleRequest_Shisanshui{Shisanshui: &pb.ShisanshuiSettleRequest{Deals: []*pb.ShisanshuiDeal{deal}}}})
	if err != nil {
		return err
	}
	settled := sr.GetShisanshui().GetResults()
	if len(settled) != 1 {
		return fmt.Errorf("%d settlements for 1 deal", len(settled))
	}
	if e := settled[0].GetError(); e != nil {
		return itemError(e)
	}
	s := settled[0].GetSettlement()
	fmt.Printf("settled: waters %v\n", s.Waters)
	return checkDeltas(s.Deltas, s.Rake, len(hands))
}

func proto64(v int64) *int64 { return &v }
