//! The whole-record replay: what the wire reads and the order of its errors.

use super::*;

fn cards(s: &str) -> pb::Cards {
    pb::Cards { cards: s.split(' ').map(String::from).collect() }
}

/// Seat 0 holds both red aces; seat 1 no ace.
fn record(deal_actions: Vec<pb::DachuDealAction>) -> pb::DachuGameRecord {
    let hands = [
        "Ah 2s 2h 2d 3s Ad 4s 4h 5s 5h 6s 6h 7s",
        "8s 8h 8d 9s 9h 9d Ts Th Td Js Jh Jd Qs",
        "Qh Qd Qc Ks Kh Kd Kc 7h 7d 6d 6c 5d 5c",
        "3h 3d 3c 4d 4c 2c As Ac 7c 8c 9c Tc Jc",
    ];
    pb::DachuGameRecord { hands: hands.iter().map(|h| cards(h)).collect(), deal_actions, ..Default::default() }
}

fn action(kind: pb::DachuDealActionKind, seat: i32, colour: i32) -> pb::DachuDealAction {
    pb::DachuDealAction { kind: kind as i32, seat, colour, cards: None }
}

fn deals(n: usize) -> Vec<pb::DachuDealAction> {
    vec![action(pb::DachuDealActionKind::Deal, 0, 0); n]
}

/// The whole deal: 13 cards dealt, a 撐儲 by `seat` naming `colour` (0: unset), finish.
fn cheng_chu_deal(seat: i32, colour: i32) -> Vec<pb::DachuDealAction> {
    let mut a = deals(9);
    a.push(action(pb::DachuDealActionKind::ChengChu, seat, colour));
    a.push(action(pb::DachuDealActionKind::Finish, 0, 0));
    a
}

fn error(r: Result<Replayed, ItemFail>) -> Error {
    match r {
        Err(ItemFail::Item(e)) => e,
        Err(_) => panic!("a request error"),
        Ok(_) => panic!("replayed"),
    }
}

fn at(e: &Error) -> (Option<&str>, Option<usize>, Reason) {
    (e.field.as_deref(), e.action_index, e.reason)
}

#[test]
fn a_cheng_chu_without_colour_is_named_by_the_deal() {
    let rules = Rules::default();
    let named = replay(&record(cheng_chu_deal(0, pb::DachuColour::Red as i32)), &rules, "game").ok().unwrap();
    let unnamed = replay(&record(cheng_chu_deal(0, 0)), &rules, "game").ok().unwrap();
    assert_eq!(unnamed.deal.history[9], DealAction::ChengChu { seat: 0, chu: Chu::Red });
    assert_eq!(unnamed, named);
    let e = error(replay(&record(cheng_chu_deal(1, 0)), &rules, "game"));
    assert_eq!(at(&e), (Some("game.deal_actions[9]"), Some(9), Reason::IllegalAction));
}

/// An entry the wire cannot read fails only where the replay reaches it: an earlier
/// error wins, and a phase that has not begun is refused as such.
#[test]
fn errors_come_in_the_order_the_record_is_played() {
    let rules = Rules::default();
    let unreadable = action(pb::DachuDealActionKind::Unspecified, 0, 0);
    // The hands before any action.
    let mut r = record(vec![unreadable.clone()]);
    r.hands[1] = r.hands[0].clone();
    assert!(error(replay(&r, &rules, "game")).field.unwrap().starts_with("game.hands"));
    // An illegal action before an unreadable one.
    let xuan = pb::DachuDealAction { cards: Some(cards("Ah")), ..action(pb::DachuDealActionKind::MengXuan, 0, 0) };
    let e = error(replay(&record(vec![xuan, unreadable]), &rules, "game"));
    assert_eq!(at(&e), (Some("game.deal_actions[0]"), Some(0), Reason::IllegalAction));
    // An unreadable call of an unfinished deal: the deal is not finished.
    let mut r = record(deals(3));
    r.calls = vec![pb::DachuCall { call: 0, seat: 0 }];
    assert_eq!(at(&error(replay(&r, &rules, "game"))), (Some("game.calls[0]"), Some(0), Reason::IllegalAction));
    // Once the deal is finished, the call itself.
    r.deal_actions = cheng_chu_deal(0, 0);
    assert_eq!(at(&error(replay(&r, &rules, "game"))), (Some("game.calls[0].call"), Some(0), Reason::Invalid));
}

/// The calling's arguments are read once the deal is finished: an unfinished deal has no
/// calling.
#[test]
fn a_bad_first_side_matters_once_the_deal_is_finished() {
    let rules = Rules::default();
    let mut r = record(deals(3));
    r.first_side = 9;
    assert!(replay(&r, &rules, "game").is_ok());
    r.deal_actions = cheng_chu_deal(0, 0);
    assert_eq!(error(replay(&r, &rules, "game")).field.as_deref(), Some("game.first_side"));
    r.first_side = 0;
    r.start_seat = Some(-1);
    assert_eq!(error(replay(&r, &rules, "game")).field.as_deref(), Some("game.start_seat"));
}
