//! 越式13张 (tienlen) targets: plays and a whole round with its settlement.

use crate::common::*;
use arbitrary::{Result as AResult, Unstructured};
use handeval_core::cards::{self, Card};
use handeval_core::tienlen as tl;

fn tl_rules(u: &mut Unstructured) -> AResult<tl::Rules> {
    Ok(tl::Rules {
        first_lead_must_contain_lowest: u.arbitrary()?,
        unplayed_loser_adds_multipliers: u.arbitrary()?,
        turn_after_chop: if u.arbitrary()? { tl::TurnAfterChop::Resume } else { tl::TurnAfterChop::FromChopper },
        chop_window: *u.choose(&tl::ChopWindow::ALL)?,
        rake_percent: if u.ratio(1, 8)? { u.int_in_range(0..=200)? } else { u.int_in_range(0..=10)? },
    })
}

/// classify, beats, legal_plays, instant_win: no two plays beat each other, every legal
/// play is the hand's own cards, classifies as reported and beats the table.
pub fn tienlen_play(data: &[u8]) {
    let _ = tienlen_play_inner(&mut Unstructured::new(data));
}

fn tienlen_play_inner(u: &mut Unstructured) -> AResult<()> {
    let mut deck = Deck::new();
    let na = u.int_in_range(0..=13)?;
    let a = deck.draw_maybe_sloppy(u, na)?;
    let nb = u.int_in_range(0..=13)?;
    let b = deck.draw_maybe_sloppy(u, nb)?;
    let (pa, pb) = (tl::classify(&a), tl::classify(&b));
    if let Err(e) = &pa {
        check_err(e);
    }
    if let Ok(p) = &pa {
        assert_eq!(sorted(&p.cards), sorted(&a), "classify changed the cards");
    }
    if let (Ok(x), Ok(y)) = (&pa, &pb) {
        if let (Ok(ab), Ok(ba)) = (tl::beats(x, y), tl::beats(y, x)) {
            assert!(!(ab && ba), "{a:?} and {b:?} beat each other");
            assert_eq!(ab, tl::beats_key(x.key, y.key));
        }
    }
    let nh = if u.ratio(1, 16)? { 14 } else { u.int_in_range(0..=13)? };
    let hand = deck.draw_maybe_sloppy(u, nh)?;
    let table = if u.arbitrary()? { pb.as_ref().ok() } else { None };
    let passed = u.ratio(1, 8)?;
    match tl::legal_plays(&hand, table, passed) {
        Ok(plays) => {
            for p in &plays {
                assert!(p.cards.iter().all(|c| hand.contains(c)), "a legal play uses a card not in the hand");
                assert_eq!(&tl::classify(&p.cards).expect("a legal play must classify"), p);
                if let Some(t) = table {
                    assert!(tl::beats(p, t).unwrap_or(false), "a legal play does not beat the table");
                }
            }
            if passed {
                assert!(plays.iter().all(|p| p.is_special()), "a seat that passed may only play specials");
            }
        }
        Err(e) => check_err(&e),
    }
    let h13 = if hand.len() == 13 { hand } else { Deck::new().draw(u, 13)? };
    match tl::instant_win(&h13) {
        Ok(Some(w)) => {
            assert!(w.cards.iter().all(|c| h13.contains(c)), "an instant win made of cards not in the hand");
            let _ = w.kind.name();
        }
        Ok(None) => {}
        Err(e) => {
            check_err(&e);
            assert!(cards::check_distinct(&h13).is_err());
        }
    }
    Ok(())
}

/// A round driven by the fuzzer (legal plays and passes, now and then anything), its
/// chop transfers, then the game's settlement: Σ deltas + rake = 0, each seat's lines add
/// up to its delta, caps respected; instant-win settlement of the same deal too.
pub fn tienlen_game(data: &[u8]) {
    let _ = tienlen_game_inner(&mut Unstructured::new(data));
}

fn tienlen_game_inner(u: &mut Unstructured) -> AResult<()> {
    let rules = tl_rules(u)?;
    let players = if u.ratio(1, 16)? { u.int_in_range(0..=5)? } else { u.int_in_range(2..=4)? };
    let mut deck = Deck::new();
    let mut hands = Vec::new();
    for _ in 0..players.min(4) {
        hands.push(deck.draw(u, 13)?);
    }
    let base = stake(u)?;
    // One round.
    let leader = u.int_in_range(0..=players.max(1) - 1)?;
    let mut actions: Vec<(usize, tl::Action)> = Vec::new();
    if let Ok(mut st) = tl::RoundState::new(players, leader, None, &rules) {
        for _ in 0..24 {
            let Some(seat) = st.to_move else { break };
            let action = if u.ratio(1, 10)? {
                let n = u.int_in_range(0..=4)?;
                tl::Action::Play(Deck::new().draw(u, n)?)
            } else if u.ratio(1, 4)? && st.table().is_some() {
                tl::Action::Pass
            } else {
                let table = st.table().map(|t| t.1.clone());
                let held: Vec<Card> = hands[seat]
                    .iter()
                    .copied()
                    .filter(|c| !actions.iter().any(|(_, a)| matches!(a, tl::Action::Play(p) if p.contains(c))))
                    .collect();
                let legal = tl::legal_plays(&held, table.as_ref(), st.passed[seat]).expect("legal_plays of a held hand");
                if legal.is_empty() {
                    tl::Action::Pass
                } else {
                    tl::Action::Play(u.choose(&legal)?.cards.clone())
                }
            };
            match st.check(seat, &action) {
                Ok(Ok(_)) => {
                    st.apply(seat, &action).expect("a checked action must apply");
                    actions.push((seat, action));
                }
                Ok(Err(why)) => assert!(!why.is_empty()),
                Err(e) => check_err(&e),
            }
        }
        match tl::chop_transfers(players, Some(leader), &actions, base, &rules) {
            Ok(ts) => {
                for t in &ts {
                    assert!(t.amount >= 0 && t.from != t.to && t.from < players && t.to < players);
                }
            }
            Err(e) => check_err(&e),
        }
    }
    // The game's end: seat `winner` went out, the others keep some of their cards.
    let winner = if u.ratio(1, 16)? { u.int_in_range(0..=5)? } else { u.int_in_range(0..=players.max(1) - 1)? };
    let remaining: Vec<Vec<Card>> = hands
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let keep = if i == winner { 0 } else { u.int_in_range(1..=13).unwrap_or(13) };
            h[..keep.min(h.len())].to_vec()
        })
        .collect();
    let mut chops = Vec::new();
    for _ in 0..u.int_in_range(0..=2)? {
        let from = u.int_in_range(0..=3)?;
        let to = u.int_in_range(0..=3)?;
        chops.push(tl::Transfer { from, to, amount: if u.ratio(1, 8)? { int(u)? } else { u.int_in_range(0..=200)? } });
    }
    let played_any: Option<Vec<bool>> = if u.ratio(1, 4)? { Some(remaining.iter().map(|h| h.len() < 13).collect()) } else { None };
    let carried = carried(u, remaining.len())?;
    match tl::settle(&remaining, winner, base, played_any.as_deref(), &chops, carried.as_deref(), &rules) {
        Ok(s) => check_tienlen_settlement(&s, carried.as_deref()),
        Err(e) => check_err(&e),
    }
    let chop_rounds = vec![tl::Chop::Round(actions)];
    if let Err(e) = tl::chop_list(&remaining, &chop_rounds, base, &rules) {
        check_err(&e);
    }
    match tl::settle_instant(&hands, base, carried.as_deref(), &rules) {
        Ok(s) => check_tienlen_settlement(&s, carried.as_deref()),
        Err(e) => check_err(&e),
    }
    Ok(())
}

fn check_tienlen_settlement(s: &tl::Settlement, carried: Option<&[Option<i64>]>) {
    let n = s.deltas.len();
    assert!(s.rake >= 0);
    assert_eq!(sum128(&s.deltas) + s.rake as i128, 0, "越式13张 deltas + rake not zero-sum: {s:?}");
    assert_eq!(sum128(&s.theoretical), 0, "theoretical not zero-sum");
    assert_eq!(sum128(&s.capped), 0, "capped not zero-sum");
    for seat in 0..n {
        let lines: i128 = s.lines.iter().filter(|l| l.seat == seat).map(|l| l.amount as i128).sum();
        assert_eq!(lines, s.deltas[seat] as i128, "the lines of seat {seat} do not add up to its delta: {s:?}");
    }
    if let Some(c) = carried {
        for (d, c) in s.capped.iter().zip(c) {
            if let Some(c) = c {
                assert!(d.unsigned_abs() <= c.unsigned_abs(), "the cap was exceeded: {d} > {c}");
            }
        }
    }
}
