//! 打儲 (dachu) targets: plays, the deal and calling as state machines, settlement.

use crate::common::*;
use arbitrary::{Result as AResult, Unstructured};
use handeval_core::cards::{self, Card};
use handeval_core::dachu;

fn dachu_rules(u: &mut Unstructured) -> AResult<dachu::Rules> {
    use dachu::rules::{FirstCaller, UnitPer};
    Ok(dachu::Rules {
        mixed_ace_pair: u.arbitrary()?,
        cheng_chu_alone: u.arbitrary()?,
        escape_shared_by_all: u.arbitrary()?,
        unit_per: if u.arbitrary()? { UnitPer::LargerSide } else { UnitPer::LosingSide },
        first_caller_2v2: if u.arbitrary()? { FirstCaller::Chu } else { FirstCaller::Other },
        escape_units: if u.ratio(1, 8)? { u.arbitrary()? } else { u.int_in_range(0..=10)? },
        jiao_round_up: u.arbitrary()?,
        declare_once_per: *u.choose(&[
            dachu::rules::DeclareOncePer::PlayerAndKind,
            dachu::rules::DeclareOncePer::Player,
            dachu::rules::DeclareOncePer::Game,
        ])?,
        pass_is_final: u.arbitrary()?,
        timeout_display: *u.choose(&[dachu::rules::TimeoutDisplay::StrongestLeft, dachu::rules::TimeoutDisplay::WeakestLeft])?,
    })
}

/// classify, beats, legal_plays and timeout_play: a play never beats a play that beats
/// it; every legal play is made of the hand's cards, classifies as reported and beats
/// the table.
pub fn dachu_play(data: &[u8]) {
    let _ = dachu_play_inner(&mut Unstructured::new(data));
}

fn dachu_play_inner(u: &mut Unstructured) -> AResult<()> {
    let rules = dachu_rules(u)?;
    let chu = if u.arbitrary()? { dachu::Chu::Red } else { dachu::Chu::Black };
    let mut deck = Deck::new();
    let na = u.int_in_range(0..=6)?;
    let a = deck.draw_maybe_sloppy(u, na)?;
    let nb = u.int_in_range(0..=6)?;
    let b = deck.draw_maybe_sloppy(u, nb)?;
    let pa = dachu::classify(&a, chu, &rules);
    let pb = dachu::classify(&b, chu, &rules);
    if let Err(e) = &pa {
        check_err(e);
    }
    if let (Ok(x), Ok(y)) = (&pa, &pb) {
        assert_eq!(x.len as usize, a.len());
        if a.iter().any(|c| b.contains(c)) {
            assert!(dachu::beats(&a, &b, chu, &rules).is_err(), "beats accepted a card in both plays");
            return Ok(());
        }
        let ab = dachu::beats(&a, &b, chu, &rules).expect("beats of two plays");
        let ba = dachu::beats(&b, &a, chu, &rules).expect("beats of two plays");
        assert!(!(ab && ba), "{a:?} and {b:?} beat each other");
        assert_eq!(ab, dachu::beats_play(x, y));
    } else {
        assert!(dachu::beats(&a, &b, chu, &rules).is_err());
    }

    let nh = if u.ratio(1, 16)? { 14 } else { u.int_in_range(0..=13)? };
    let hand = deck.draw_maybe_sloppy(u, nh)?;
    let table = if u.arbitrary()? { Some(b.as_slice()) } else { None };
    let shown = if u.ratio(1, 4)? && hand.len() >= 3 { hand[..3].to_vec() } else { Vec::new() };
    let cons = dachu::Constraints { first_lead: u.ratio(1, 4)?, surrendered: u.ratio(1, 8)?, shown_triple: shown };
    match dachu::legal_plays(&hand, table, chu, &cons, &rules) {
        Ok(plays) => {
            for lp in &plays {
                assert!(!lp.cards.is_empty());
                cards::check_distinct(&lp.cards).expect("a legal play repeats a card");
                assert!(lp.cards.iter().all(|c| hand.contains(c)), "a legal play uses a card not in the hand");
                let p = dachu::classify(&lp.cards, chu, &rules).expect("a legal play must classify");
                assert_eq!(p, lp.play, "a legal play is reported as another kind");
                if let Some(t) = table {
                    let tp = dachu::classify(t, chu, &rules).expect("legal_plays accepted a bad table");
                    assert!(dachu::beats_play(&lp.play, &tp), "a legal play does not beat the table");
                }
            }
            let sorted = |v: &[Card]| {
                let mut v = v.to_vec();
                v.sort();
                v
            };
            match dachu::timeout_play(&dachu::columns_of(&hand), table, chu, &cons, &rules) {
                Ok(Some(p)) => assert!(plays.iter().any(|lp| sorted(&lp.cards) == sorted(&p)), "the timeout play is not legal"),
                Ok(None) => assert!(table.is_some() || plays.is_empty()),
                Err(e) => panic!("timeout_play failed where legal_plays did not: {e}"),
            }
        }
        Err(e) => check_err(&e),
    }
    Ok(())
}

/// The deal and the calling as state machines driven by the fuzzer: every listed legal
/// action applies, an arbitrary action is accepted or refused but never panics, the
/// multiplier stays a power of two; a finished calling settles zero-sum.
pub fn dachu_flow(data: &[u8]) {
    let _ = dachu_flow_inner(&mut Unstructured::new(data));
}

fn dachu_flow_inner(u: &mut Unstructured) -> AResult<()> {
    let rules = dachu_rules(u)?;
    let mut deck = Deck::new();
    let mut hands = Vec::with_capacity(4);
    for _ in 0..4 {
        hands.push(deck.draw_maybe_sloppy(u, 13)?);
    }
    let first_seat = if u.ratio(1, 16)? { u.int_in_range(0..=9)? } else { u.int_in_range(0..=3)? };
    let mut deal = match dachu::Deal::new(hands, first_seat, rules.clone()) {
        Ok(d) => d,
        Err(e) => {
            check_err(&e);
            return Ok(());
        }
    };
    for _ in 0..64 {
        if deal.finished {
            break;
        }
        if u.ratio(1, 8)? {
            let seat = u.int_in_range(0..=4)?;
            let card = Card(u.int_in_range(0..=51)?);
            let action = match u.int_in_range(0u8..=4)? {
                0 => dachu::DealAction::Deal,
                1 => dachu::DealAction::MengXuan { seat, card },
                2 => dachu::DealAction::MengChuai { seat, cards: [card, Card(u.int_in_range(0..=51)?), Card(u.int_in_range(0..=51)?)] },
                3 => dachu::DealAction::ChengChu { seat, chu: if u.arbitrary()? { dachu::Chu::Red } else { dachu::Chu::Black } },
                _ => dachu::DealAction::Finish,
            };
            match deal.apply(&action) {
                Ok(d) => deal = d,
                Err(e) => check_err(&e),
            }
        } else {
            let legal = deal.legal_actions();
            assert!(!legal.is_empty(), "an unfinished deal has no legal action");
            let a = u.choose(&legal)?.clone();
            deal = deal.apply(&a).unwrap_or_else(|e| panic!("legal action {a:?} refused: {e}"));
        }
        dachu::calling::check_multiplier(deal.multiplier).expect("deal multiplier");
    }
    if !deal.finished {
        assert!(deal.calling(None, None).is_err());
        return Ok(());
    }
    let start = if u.ratio(1, 4)? { Some(u.int_in_range(0..=4)?) } else { None };
    let first_side = if u.ratio(1, 4)? { Some(u.int_in_range(0..=2)?) } else { None };
    let mut calling = match deal.calling(start, first_side) {
        Ok(c) => c,
        Err(e) => {
            check_err(&e);
            return Ok(());
        }
    };
    for _ in 0..64 {
        let Some(turn) = calling.turn() else { break };
        let legal = calling.legal_calls();
        assert!(!legal.is_empty(), "a calling turn with no legal call");
        let (seat, call) =
            if u.ratio(1, 8)? { (u.int_in_range(0..=4)?, *u.choose(&dachu::Call::ALL)?) } else { (turn, *u.choose(&legal)?) };
        match calling.apply(seat, call) {
            Ok(c) => calling = c,
            Err(e) => {
                check_err(&e);
                assert!(seat != turn || !legal.contains(&call), "legal call {call:?} by seat {seat} refused: {e}");
            }
        }
        dachu::calling::check_multiplier(calling.multiplier).expect("calling multiplier");
    }
    if !calling.is_over() {
        return Ok(());
    }
    // Settle what the calling left: places for the playing seats in a fuzzed order.
    let mut playing = calling.playing();
    let places = match calling.outcome {
        Some(dachu::Outcome::Play) => {
            for i in (1..playing.len()).rev() {
                let j = u.int_in_range(0..=i)?;
                playing.swap(i, j);
            }
            Some(playing)
        }
        _ => None,
    };
    let chu_side = deal.chu_side().unwrap_or_default();
    let game = dachu::GameResult {
        chu_side,
        multiplier: calling.multiplier,
        base: u.int_in_range(1..=1000)?,
        places,
        surrendered: calling.surrendered(),
        bei_bao_da: calling.bei_bao_da_seats(),
        escaped: Vec::new(),
        carried: carried(u, 4)?,
    };
    let settled = dachu::settle(&game, &rules);
    match &settled {
        Ok(s) => check_dachu_settlement(&game, s),
        Err(e) => {
            check_err(e);
            // The state machines' own output must settle unless the stakes overflow or
            // the fuzzer gave bad carried amounts.
            let bad_carried = game.carried.as_ref().is_some_and(|c| c.len() != 4 || c.iter().flatten().any(|&x| x < 0));
            assert!(bad_carried || e.message.contains("overflow"), "a finished calling does not settle: {e}\n{game:?}");
        }
    }
    Ok(())
}

fn check_dachu_settlement(g: &dachu::GameResult, s: &dachu::Settlement) {
    assert_eq!(s.deltas.len(), 4);
    assert_eq!(sum128(&s.deltas), 0, "打儲 deltas not zero-sum: {s:?}");
    assert_eq!(sum128(&s.theoretical), 0, "打儲 theoretical not zero-sum: {s:?}");
    for seat in 0..4 {
        let lines: i128 = s.lines.iter().filter(|l| l.seat == seat).map(|l| l.amount as i128).sum();
        assert_eq!(lines, s.deltas[seat] as i128, "the lines of seat {seat} do not add up to its delta");
    }
    for item in ["jiao", "result", "escape", "cap"] {
        let total: i128 = s.lines.iter().filter(|l| l.kind == item).map(|l| l.amount as i128).sum();
        assert_eq!(total, 0, "the {item} lines are not zero-sum");
    }
    if let Some(c) = &g.carried {
        for (d, c) in s.deltas.iter().zip(c) {
            if let Some(c) = c {
                assert!(d.unsigned_abs() <= c.unsigned_abs(), "the cap was exceeded: {d} > {c}");
            }
        }
    }
}

/// settle with arbitrary games: seats out of range, repeated, sides of any size, any
/// multiplier and base, places, escapes, carried — errors or a zero-sum settlement.
pub fn dachu_settle(data: &[u8]) {
    let _ = dachu_settle_inner(&mut Unstructured::new(data));
}

fn seat_list(u: &mut Unstructured, max: usize) -> AResult<Vec<usize>> {
    let n = u.int_in_range(0..=max)?;
    let mut out = Vec::with_capacity(n);
    let mut pool: Vec<usize> = vec![0, 1, 2, 3];
    for _ in 0..n {
        if u.ratio(1, 16)? || pool.is_empty() {
            out.push(u.int_in_range(0..=5)?);
        } else {
            let i = u.choose_index(pool.len())?;
            out.push(pool.swap_remove(i));
        }
    }
    Ok(out)
}

fn dachu_settle_inner(u: &mut Unstructured) -> AResult<()> {
    let rules = dachu_rules(u)?;
    let multiplier = if u.ratio(1, 8)? { int(u)? } else { 1i64 << u.int_in_range(0..=12)? };
    let game = dachu::GameResult {
        chu_side: seat_list(u, 3)?,
        multiplier,
        base: stake(u)?,
        places: if u.ratio(3, 4)? { Some(seat_list(u, 5)?) } else { None },
        surrendered: if u.ratio(1, 3)? { seat_list(u, 4)? } else { Vec::new() },
        bei_bao_da: if u.ratio(1, 4)? { seat_list(u, 2)? } else { Vec::new() },
        escaped: if u.ratio(1, 6)? { seat_list(u, 3)? } else { Vec::new() },
        carried: carried(u, 4)?,
    };
    match dachu::settle(&game, &rules) {
        Ok(s) => check_dachu_settlement(&game, &s),
        Err(e) => check_err(&e),
    }
    Ok(())
}
