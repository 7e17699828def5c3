//! The wire's entry point ([`handeval_wire::answer`]) from outside the crate: bad bytes for
//! each RPC fail naming a field with a reason, a valid request of each game is answered,
//! request-level errors name the game's field, and a cancelled call stops.

use handeval_core::Reason;
use handeval_wire::pb;
use handeval_wire::{answer, Call, Fail, Limits, Rpc};
use prost::Message;

const LIMITS: Limits = Limits { max_batch: 64, max_samples: 100, max_work: 0 };

fn run(rpc: Rpc, data: &[u8]) -> Result<Vec<u8>, Fail> {
    answer(rpc, data, &Call::new(None), LIMITS, None)
}

fn bad(rpc: Rpc, data: &[u8]) -> (String, String, Reason) {
    match run(rpc, data) {
        Err(Fail::Bad { field, message, reason }) => (field, message, reason),
        other => panic!("{rpc:?} {data:02x?}: expected a bad request, got {other:?}"),
    }
}

fn cards(s: &str) -> pb::Cards {
    pb::Cards { cards: s.split_whitespace().map(str::to_string).collect() }
}

/// A valid Evaluate request of 十三水 whose one card `XX` is in its bytes (to be spoilt).
fn shisanshui_row(card: &str) -> Vec<u8> {
    use pb::shisanshui_evaluate_item::Item;
    let item = pb::ShisanshuiEvaluateItem { item: Some(Item::Row(cards(&format!("As Ks {card}")))) };
    let req = pb::ShisanshuiEvaluateRequest { items: vec![item], ..Default::default() };
    pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Shisanshui(req)) }.encode_to_vec()
}

#[test]
fn bytes_that_are_no_request_fail_at_the_game_with_a_reason() {
    // Not UTF-8 where a card's string is: prost refuses it deep inside the request.
    let mut not_utf8 = shisanshui_row("XX");
    let at = not_utf8.windows(2).position(|w| w == b"XX").unwrap();
    not_utf8[at..at + 2].copy_from_slice(&[0xff, 0xfe]);
    let broken: [&[u8]; 6] = [
        &[0xff],                   // a key cut short
        &[0x0a, 0x05, 0x01],       // a length past the end
        &[0x0f],                   // wire type 7
        &[0x08, 0x01],             // the game (a message) sent as a varint
        &[0x0a, 0x02, 0x0a, 0x7f], // a nested length past its message's end
        &not_utf8,
    ];
    for rpc in Rpc::ALL {
        for data in broken {
            let (field, message, reason) = bad(rpc, data);
            assert_eq!(field, "game", "{rpc:?} {data:02x?}");
            assert_eq!(reason, Reason::Invalid);
            assert!(message.contains(&format!("not a valid {}", rpc.request_type())), "{message}");
        }
        // A request that names no game: the same field, another message.
        let (field, message, _) = bad(rpc, b"");
        assert_eq!(field, "game");
        assert!(message.starts_with("set one of"), "{message}");
    }
    // The spoilt request was a good one before.
    assert!(run(Rpc::Evaluate, &shisanshui_row("Qs")).is_ok());
}

#[test]
fn a_bad_rule_fails_the_request_at_its_field() {
    let ssw = pb::ShisanshuiRules { suit_order: Some("shcx".into()), ..Default::default() };
    let data = pb::EvaluateRequest {
        game: Some(pb::evaluate_request::Game::Shisanshui(pb::ShisanshuiEvaluateRequest { rules: Some(ssw), ..Default::default() })),
    };
    assert_eq!(bad(Rpc::Evaluate, &data.encode_to_vec()).0, "shisanshui.rules.suit_order");

    let tl = pb::TienlenRules { rake_percent: Some(-1), ..Default::default() };
    let data = pb::CompareRequest {
        game: Some(pb::compare_request::Game::Tienlen(pb::TienlenCompareRequest { rules: Some(tl), ..Default::default() })),
    };
    let (field, _, reason) = bad(Rpc::Compare, &data.encode_to_vec());
    assert_eq!((field.as_str(), reason), ("tienlen.rules.rake_percent", Reason::BadRule));

    let dc = pb::DachuRules { unit_per: Some(99), ..Default::default() };
    let data =
        pb::SettleRequest { game: Some(pb::settle_request::Game::Dachu(pb::DachuSettleRequest { rules: Some(dc), ..Default::default() })) };
    let (field, message, reason) = bad(Rpc::Settle, &data.encode_to_vec());
    assert_eq!((field.as_str(), reason), ("dachu.rules.unit_per", Reason::BadRule));
    assert!(message.contains("99"), "{message}");
}

#[test]
fn a_batch_over_the_limit_is_too_large_before_any_work() {
    use pb::shisanshui_evaluate_item::Item;
    let items = (0..65).map(|_| pb::ShisanshuiEvaluateItem { item: Some(Item::Row(cards("As Ks Qs"))) }).collect();
    let data = pb::EvaluateRequest {
        game: Some(pb::evaluate_request::Game::Shisanshui(pb::ShisanshuiEvaluateRequest { items, ..Default::default() })),
    };
    let (field, _, reason) = bad(Rpc::Evaluate, &data.encode_to_vec());
    assert_eq!((field.as_str(), reason), ("shisanshui.items", Reason::TooLarge));
}

#[test]
fn a_cancelled_call_stops() {
    let call = Call::new(None);
    call.cancel();
    match answer(Rpc::Evaluate, &shisanshui_row("Qs"), &call, LIMITS, None) {
        Err(Fail::Stopped { code, .. }) => assert_eq!(code, "CANCELLED"),
        other => panic!("{other:?}"),
    }
    assert_eq!(call.cancelled(), Some("CANCELLED"));
}

// ---- a valid request of each game and RPC is answered ----

#[test]
fn evaluate_answers_each_game() {
    use pb::evaluate_request::Game as Q;
    use pb::evaluate_response::Game as A;
    let call = Call::new(None);
    let out = answer(Rpc::Evaluate, &shisanshui_row("Qs"), &call, LIMITS, None).unwrap();
    let Some(A::Shisanshui(r)) = pb::EvaluateResponse::decode(&out[..]).unwrap().game else { panic!() };
    let Some(pb::shisanshui_evaluate_result::Result::Row(row)) = &r.results[0].result else { panic!("{r:?}") };
    assert_eq!(row.cards.as_ref().unwrap().cards, ["As", "Ks", "Qs"]);
    assert_eq!((call.game(), call.items(), call.item_errors()), ("shisanshui", 1, 0));

    use pb::tienlen_evaluate_item::Item as T;
    let items = vec![
        pb::TienlenEvaluateItem { item: Some(T::Play(cards("3s 3h"))) },
        pb::TienlenEvaluateItem { item: Some(T::Play(cards("3s 4h"))) },
    ];
    let req = pb::EvaluateRequest { game: Some(Q::Tienlen(pb::TienlenEvaluateRequest { items, ..Default::default() })) };
    let call = Call::new(None);
    let out = answer(Rpc::Evaluate, &req.encode_to_vec(), &call, LIMITS, None).unwrap();
    let Some(A::Tienlen(r)) = pb::EvaluateResponse::decode(&out[..]).unwrap().game else { panic!() };
    assert!(matches!(r.results[0].result, Some(pb::tienlen_evaluate_result::Result::Play(_))), "{r:?}");
    // Not a play: the item's error names its field inside the item.
    let Some(pb::tienlen_evaluate_result::Result::Error(e)) = &r.results[1].result else { panic!("{r:?}") };
    assert!(e.field.starts_with("items[1].play"), "{e:?}");
    assert_eq!((call.game(), call.items(), call.item_errors()), ("tienlen", 2, 1));

    use pb::dachu_evaluate_item::Item as D;
    let query = pb::DachuClassifyQuery { cards: Some(cards("5s 5h")), chu: pb::DachuColour::Red as i32 };
    let req = pb::EvaluateRequest {
        game: Some(Q::Dachu(pb::DachuEvaluateRequest {
            items: vec![pb::DachuEvaluateItem { item: Some(D::Play(query)) }],
            ..Default::default()
        })),
    };
    let out = run(Rpc::Evaluate, &req.encode_to_vec()).unwrap();
    let Some(A::Dachu(r)) = pb::EvaluateResponse::decode(&out[..]).unwrap().game else { panic!() };
    let Some(pb::dachu_evaluate_result::Result::Play(p)) = &r.results[0].result else { panic!("{r:?}") };
    assert_eq!(p.cards.as_ref().unwrap().cards.len(), 2);
}

#[test]
fn compare_answers_each_game() {
    use pb::compare_request::Game as Q;
    use pb::compare_response::Game as A;
    let pair = |a: &str, b: &str| pb::ShisanshuiCompareItem {
        item: Some(pb::shisanshui_compare_item::Item::Pair(pb::ShisanshuiRowPair { a: Some(cards(a)), b: Some(cards(b)) })),
    };
    let req = pb::CompareRequest {
        game: Some(Q::Shisanshui(pb::ShisanshuiCompareRequest {
            items: vec![pair("As Ad 2c", "Ks Kd 2h"), pair("Ks Kd 2h", "As Ad 2c")],
            ..Default::default()
        })),
    };
    let out = run(Rpc::Compare, &req.encode_to_vec()).unwrap();
    let Some(A::Shisanshui(r)) = pb::CompareResponse::decode(&out[..]).unwrap().game else { panic!() };
    let cmp: Vec<i32> = r
        .results
        .iter()
        .map(|x| match x.result {
            Some(pb::shisanshui_compare_result::Result::Comparison(c)) => c,
            _ => panic!("{r:?}"),
        })
        .collect();
    assert!(cmp[0] > 0 && cmp[1] < 0, "{cmp:?}");

    let item = |play: &str, table: &str| pb::TienlenCompareItem { play: Some(cards(play)), table: Some(cards(table)) };
    let req = pb::CompareRequest {
        game: Some(Q::Tienlen(pb::TienlenCompareRequest { items: vec![item("4s", "3s"), item("3s", "4s")], ..Default::default() })),
    };
    let out = run(Rpc::Compare, &req.encode_to_vec()).unwrap();
    let Some(A::Tienlen(r)) = pb::CompareResponse::decode(&out[..]).unwrap().game else { panic!() };
    let beats: Vec<_> = r.results.iter().map(|x| x.result.clone()).collect();
    use pb::tienlen_compare_result::Result::Beats;
    assert_eq!(beats, [Some(Beats(true)), Some(Beats(false))]);

    let item = |play: &str, table: &str| pb::DachuCompareItem {
        play: Some(cards(play)),
        table: Some(cards(table)),
        chu: pb::DachuColour::Red as i32,
    };
    let req = pb::CompareRequest {
        game: Some(Q::Dachu(pb::DachuCompareRequest { items: vec![item("5s 5h", "4s 4h"), item("4s 4h", "5s 5h")], ..Default::default() })),
    };
    let out = run(Rpc::Compare, &req.encode_to_vec()).unwrap();
    let Some(A::Dachu(r)) = pb::CompareResponse::decode(&out[..]).unwrap().game else { panic!() };
    let beats: Vec<bool> = r
        .results
        .iter()
        .map(|x| match x.result {
            Some(pb::dachu_compare_result::Result::Beats(b)) => b,
            _ => panic!("{r:?}"),
        })
        .collect();
    // Of two plays of one kind, exactly one beats the other.
    assert_eq!(beats.iter().filter(|&&b| b).count(), 1, "{beats:?}");
}

#[test]
fn settle_answers_each_game_zero_sum() {
    use pb::settle_request::Game as Q;
    use pb::settle_response::Game as A;
    let player = |f: &str, m: &str, b: &str| pb::ShisanshuiPlayer {
        hand: Some(pb::shisanshui_player::Hand::Arrangement(pb::ShisanshuiArrangement {
            front: Some(cards(f)),
            middle: Some(cards(m)),
            back: Some(cards(b)),
        })),
    };
    let deal = pb::ShisanshuiDeal {
        players: vec![player("2c 3d 5h", "7c 8d 9h Jc Qd", "As Ad Ah Ac Ks"), player("2d 3c 5s", "7d 8c 9s Jd Qc", "Kh Kd Kc 4s 4h")],
        ..Default::default()
    };
    let req = pb::SettleRequest { game: Some(Q::Shisanshui(pb::ShisanshuiSettleRequest { deals: vec![deal], ..Default::default() })) };
    let out = run(Rpc::Settle, &req.encode_to_vec()).unwrap();
    let Some(A::Shisanshui(r)) = pb::SettleResponse::decode(&out[..]).unwrap().game else { panic!() };
    let Some(pb::shisanshui_settle_result::Result::Settlement(s)) = &r.results[0].result else { panic!("{r:?}") };
    assert_eq!(s.deltas.iter().sum::<i64>(), 0);
    assert!(s.deltas[0] > 0, "{s:?}");

    let outcome = pb::TienlenOutcome { remaining: vec![cards(""), cards("3s 4s 5h")], winner: 0, ..Default::default() };
    let deal = pb::TienlenDeal { deal: Some(pb::tienlen_deal::Deal::Outcome(outcome)), ..Default::default() };
    let req = pb::SettleRequest { game: Some(Q::Tienlen(pb::TienlenSettleRequest { deals: vec![deal], ..Default::default() })) };
    let out = run(Rpc::Settle, &req.encode_to_vec()).unwrap();
    let Some(A::Tienlen(r)) = pb::SettleResponse::decode(&out[..]).unwrap().game else { panic!() };
    let Some(pb::tienlen_settle_result::Result::Settlement(s)) = &r.results[0].result else { panic!("{r:?}") };
    assert_eq!(s.deltas.iter().sum::<i64>(), 0);
    assert!(s.deltas[0] > 0 && s.deltas[1] < 0, "{s:?}");

    let outcome = pb::DachuOutcome { chu_side: vec![0, 2], places: vec![0, 2, 1, 3], ..Default::default() };
    let deal = pb::DachuDeal { deal: Some(pb::dachu_deal::Deal::Outcome(outcome)), ..Default::default() };
    let req = pb::SettleRequest { game: Some(Q::Dachu(pb::DachuSettleRequest { deals: vec![deal], ..Default::default() })) };
    let out = run(Rpc::Settle, &req.encode_to_vec()).unwrap();
    let Some(A::Dachu(r)) = pb::SettleResponse::decode(&out[..]).unwrap().game else { panic!() };
    let Some(pb::dachu_settle_result::Result::Settlement(s)) = &r.results[0].result else { panic!("{r:?}") };
    assert_eq!(s.deltas.iter().sum::<i64>(), 0);
    assert!(s.deltas[0] > 0 && s.deltas[0] == s.deltas[2], "{s:?}");
}

#[test]
fn arrange_answers_a_hand() {
    let hand = "As Ad Ah Ac Ks Kd Kh Qs Qd Js Jd 2c 3c";
    let item = pb::ShisanshuiArrangeItem { item: Some(pb::shisanshui_arrange_item::Item::Hand(cards(hand))) };
    let req = pb::ArrangeRequest {
        game: Some(pb::arrange_request::Game::Shisanshui(pb::ShisanshuiArrangeRequest { items: vec![item], ..Default::default() })),
    };
    let out = run(Rpc::Arrange, &req.encode_to_vec()).unwrap();
    let Some(pb::arrange_response::Game::Shisanshui(r)) = pb::ArrangeResponse::decode(&out[..]).unwrap().game else { panic!() };
    let Some(pb::shisanshui_arrange_result::Result::Answer(a)) = &r.results[0].result else { panic!("{r:?}") };
    let best = a.best.as_ref().unwrap().arrangement.as_ref().unwrap();
    let mut all: Vec<&String> = [&best.front, &best.middle, &best.back].iter().flat_map(|c| &c.as_ref().unwrap().cards).collect();
    assert_eq!([&best.front, &best.middle, &best.back].map(|c| c.as_ref().unwrap().cards.len()), [3, 5, 5]);
    all.sort();
    let mut want: Vec<String> = hand.split(' ').map(str::to_string).collect();
    want.sort();
    assert_eq!(all, want.iter().collect::<Vec<_>>());
}
