//! 十三水 (shisanshui) targets: hand evaluation, settlement and the arrangement solver.

use crate::common::*;
use arbitrary::{Result as AResult, Unstructured};
use handeval_core::cards::{self, Card};
use handeval_core::shisanshui::arrange as arr;
use handeval_core::shisanshui::{self as ssw, eval};
use std::cmp::Ordering;

fn ssw_rules(u: &mut Unstructured) -> AResult<ssw::Rules> {
    let mut order = [0u8, 1, 2, 3];
    for i in (1..4).rev() {
        let j = u.int_in_range(0..=i)?;
        order.swap(i, j);
    }
    Ok(ssw::Rules {
        suit_tiebreak: u.arbitrary()?,
        suit_order: ssw::SuitOrder(order),
        a2345: if u.arbitrary()? { ssw::WheelRank::Lowest } else { ssw::WheelRank::SecondHighest },
        foul_scoring: !u.ratio(1, 4)?,
        home_run_min_opponents: u.int_in_range(0..=4)?,
        rake_percent: if u.ratio(1, 8)? { u.int_in_range(0..=200)? } else { 0 },
    })
}

/// classify (row_value / strength / significance order), compare, is_foul, special and
/// verify_special: total order, antisymmetry, category-consistent, special splits a
/// partition of the hand.
pub fn shisanshui_eval(data: &[u8]) {
    let _ = shisanshui_eval_inner(&mut Unstructured::new(data));
}

fn shisanshui_eval_inner(u: &mut Unstructured) -> AResult<()> {
    let rules = ssw_rules(u)?;
    let size = if u.ratio(1, 16)? {
        u.int_in_range(0..=7)?
    } else if u.arbitrary()? {
        5
    } else {
        3
    };
    let mut deck = Deck::new();
    let a = deck.draw(u, size)?;
    // b shares cards with a now and then: compare_rows refuses that (one deck, RULES §0),
    // the row values still order them.
    let b = if u.ratio(1, 4)? { Deck::new().draw(u, size)? } else { deck.draw(u, size)? };
    let shared = a.iter().any(|c| b.contains(c));
    let va = eval::row_value(&a, &rules);
    let vb = eval::row_value(&b, &rules);
    if a.len() == 3 || a.len() == 5 {
        let va = va.expect("a row of 3 or 5 distinct cards must classify");
        let vb = vb.expect("a row of 3 or 5 distinct cards must classify");
        assert_eq!(eval::strength(&a, &rules).unwrap(), va.strength);
        let _ = va.category().name();
        let order = eval::significance_order(&a, &rules);
        assert_eq!(sorted(&order), sorted(&a), "significance order is not a permutation");
        let (ab, ba) = if shared {
            assert!(
                eval::compare_rows(&a, &b, &rules).unwrap_err().message.contains("also in"),
                "rows sharing a card compared: {a:?} {b:?}"
            );
            (va.key.cmp(&vb.key), vb.key.cmp(&va.key))
        } else {
            (eval::compare_rows(&a, &b, &rules).unwrap(), eval::compare_rows(&b, &a, &rules).unwrap())
        };
        assert_eq!(ab, ba.reverse(), "compare is not antisymmetric: {a:?} {b:?}");
        assert!(eval::compare_rows(&a, &a, &rules).is_err(), "a row compared with itself");
        if va.category() != vb.category() {
            assert_eq!(ab, va.category().cmp(&vb.category()), "a higher category must win");
        }
        if rules.suit_tiebreak && sorted(&a) != sorted(&b) {
            assert_ne!(ab, Ordering::Equal, "suit tie-break left a tie: {a:?} {b:?}");
        }
        if !rules.suit_tiebreak {
            assert_eq!(ab, va.strength.cmp(&vb.strength));
        }
    } else {
        assert!(va.is_err() && vb.is_err(), "a row of {} cards classified", a.len());
        assert!(eval::compare_rows(&a, &b, &rules).is_err());
    }

    // An arrangement: foul exactly when the strengths are out of order.
    let mut deck = Deck::new();
    let nf = if u.ratio(1, 16)? { 5 } else { 3 };
    let f = deck.draw_maybe_sloppy(u, nf)?;
    let m = deck.draw_maybe_sloppy(u, 5)?;
    let k = deck.draw_maybe_sloppy(u, 5)?;
    let all: Vec<Card> = f.iter().chain(&m).chain(&k).copied().collect();
    let distinct = cards::check_distinct(&all).is_ok();
    if distinct {
        match eval::is_foul(&f, &m, &k, &rules) {
            Ok(foul) => {
                let s = |r: &[Card]| eval::strength(r, &rules).unwrap();
                assert_eq!(foul, s(&f) > s(&m) || s(&m) > s(&k));
            }
            Err(e) => {
                check_err(&e);
                assert!(f.len() != 3, "is_foul refused a 3/5/5 arrangement: {e}");
            }
        }
    }

    // The Result entries with repeated cards: an error or an answer, never a panic.
    let loose = Deck::new().draw_maybe_sloppy(u, 5)?;
    let _ = eval::row_value(&loose, &rules).map_err(|e| check_err(&e));
    let _ = eval::compare_rows(&loose, &m, &rules);
    if !distinct {
        let _ = eval::is_foul(&f, &m, &k, &rules).map_err(|e| check_err(&e));
    }

    // Specials of 13 cards (the same cards when they are 13 distinct ones).
    let hand = if all.len() == 13 && distinct { all } else { Deck::new().draw(u, 13)? };
    match ssw::special(&hand) {
        Ok(best) => {
            if let Some(s) = &best {
                check_special(&hand, s);
            }
            for &id in ssw::SpecialId::BY_STRENGTH.iter() {
                match ssw::verify_special(&hand, id) {
                    Ok(s) => {
                        assert_eq!(s.id, id);
                        check_special(&hand, &s);
                        let top = best.as_ref().expect("verify_special accepted a hand special() rejects").id;
                        assert_eq!(top, id, "a declared special must be the highest one (RULES 1.7)");
                    }
                    Err(e) => check_err(&e),
                }
            }
        }
        Err(e) => {
            check_err(&e);
            assert!(hand.len() != 13 || cards::check_distinct(&hand).is_err());
        }
    }
    Ok(())
}

fn check_special(hand: &[Card], s: &ssw::SpecialHand) {
    assert!(s.id.waters() > 0);
    if let Some(split) = &s.split {
        assert_eq!([split[0].len(), split[1].len(), split[2].len()], [3, 5, 5], "special split sizes");
        let joined: Vec<Card> = split.iter().flatten().copied().collect();
        assert_eq!(sorted(&joined), sorted(hand), "the special's split is not a partition of the hand");
    }
}

/// settle with 2–4 (sometimes 0–6) players, rows or declared specials, any base,
/// carried and rules: Σ deltas + rake = 0, pairwise antisymmetric, caps respected.
pub fn shisanshui_settle(data: &[u8]) {
    let _ = shisanshui_settle_inner(&mut Unstructured::new(data));
}

fn ssw_hand(u: &mut Unstructured, deck: &mut Deck) -> AResult<ssw::Hand> {
    if u.ratio(1, 6)? {
        let n = if u.ratio(1, 16)? { 12 } else { 13 };
        let cards = deck.draw_maybe_sloppy(u, n)?;
        // Declare what the cards make when they make something, else anything.
        let id = match ssw::special(&cards) {
            Ok(Some(s)) if !u.ratio(1, 8)? => s.id,
            _ => *u.choose(&ssw::SpecialId::BY_STRENGTH)?,
        };
        return Ok(ssw::Hand::Special { id, cards });
    }
    let nf = if u.ratio(1, 32)? { 5 } else { 3 };
    let front = deck.draw_maybe_sloppy(u, nf)?;
    let middle = deck.draw_maybe_sloppy(u, 5)?;
    let nb = if u.ratio(1, 32)? { 4 } else { 5 };
    let back = deck.draw_maybe_sloppy(u, nb)?;
    Ok(ssw::Hand::Rows { front, middle, back })
}

fn shisanshui_settle_inner(u: &mut Unstructured) -> AResult<()> {
    let rules = ssw_rules(u)?;
    let n = if u.ratio(1, 16)? { u.int_in_range(0..=6)? } else { u.int_in_range(2..=4)? };
    let mut deck = Deck::new();
    let mut hands = Vec::with_capacity(n);
    for _ in 0..n {
        hands.push(ssw_hand(u, &mut deck)?);
    }
    let base = stake(u)?;
    let carried = carried(u, n)?;
    let s = match ssw::settle(&hands, base, carried.as_deref(), &rules) {
        Ok(s) => s,
        Err(e) => {
            check_err(&e);
            return Ok(());
        }
    };
    assert!((2..=4).contains(&n) && base > 0);
    assert_eq!(s.waters.len(), n);
    assert_eq!(s.deltas.len(), n);
    assert_eq!(s.pairs.len(), n * (n - 1) / 2);
    for i in 0..n {
        assert_eq!(s.pairwise[i][i], 0);
        for j in 0..n {
            assert_eq!(s.pairwise[i][j], -s.pairwise[j][i], "pairwise not antisymmetric");
        }
        assert_eq!(s.waters[i] as i128, sum128(&s.pairwise[i]));
        assert_eq!(s.theoretical[i] as i128, base as i128 * s.waters[i] as i128);
    }
    assert_eq!(sum128(&s.waters), 0, "waters not zero-sum");
    assert_eq!(sum128(&s.theoretical), 0, "theoretical not zero-sum");
    assert!(s.rake >= 0);
    assert_eq!(sum128(&s.deltas) + s.rake as i128, 0, "deltas + rake not zero-sum: {s:?}");
    if let Some(c) = &carried {
        for (d, c) in s.deltas.iter().zip(c) {
            if let Some(c) = c {
                assert!(d.unsigned_abs() <= c.unsigned_abs(), "the cap was exceeded: {d} > {c}");
            }
        }
    }
    for (i, h) in hands.iter().enumerate() {
        match h {
            ssw::Hand::Rows { front, middle, back } => {
                assert!(s.specials[i].is_none());
                assert_eq!(s.fouls[i], eval::is_foul(front, middle, back, &rules).unwrap());
            }
            ssw::Hand::Special { id, cards } => {
                let sp = s.specials[i].as_ref().expect("a declared special must be reported");
                assert_eq!(sp.id, *id);
                check_special(cards, sp);
                assert!(!s.fouls[i]);
            }
        }
    }
    for p in &s.pairs {
        if s.fouls[p.a] && s.fouls[p.b] {
            assert_eq!(p.waters, 0, "two fouled hands must tie");
        }
        assert!(p.scoop.abs() <= 1);
    }
    Ok(())
}

/// A foul-free 3/5/5 partition of `hand`.
fn check_partition(hand: &[Card], a: &arr::Arrangement, rules: &ssw::Rules) {
    assert_eq!([a.front.len(), a.middle.len(), a.back.len()], [3, 5, 5], "arrangement row sizes");
    let joined: Vec<Card> = a.front.iter().chain(&a.middle).chain(&a.back).copied().collect();
    assert_eq!(sorted(&joined), sorted(hand), "the arrangement is not a partition of the hand");
    assert!(!eval::is_foul(&a.front, &a.middle, &a.back, rules).unwrap(), "the arrangement is fouled: {a:?}");
    assert!(a.expected.is_finite(), "expected waters not finite: {a:?}");
}

/// arrange, arrange_many and best_response: the answer is a foul-free partition of the
/// input, alternatives best first, best_response's score the exact waters and no worse
/// than the greedy arrangement.
pub fn shisanshui_arrange(data: &[u8]) {
    let _ = shisanshui_arrange_inner(&mut Unstructured::new(data));
}

fn shisanshui_arrange_inner(u: &mut Unstructured) -> AResult<()> {
    // The solver's model is built (and cached, 16 at most) per rule set: vary the rules
    // that change it, from a small set, so the runs stay fast.
    let mut rules = ssw::Rules::default();
    if u.ratio(1, 4)? {
        rules = ssw_rules(u)?;
    }
    let mut deck = Deck::new();
    let n = if u.ratio(1, 32)? { u.int_in_range(0..=14)? } else { 13 };
    let hand = deck.draw_maybe_sloppy(u, n)?;
    let options = arr::Options {
        opponents: if u.ratio(1, 16)? { u.int_in_range(0..=5)? } else { u.int_in_range(1..=3)? },
        top_k: if u.ratio(1, 16)? { *u.choose(&[0, 50, 100_000])? } else { u.int_in_range(1..=4)? },
        seed: u.arbitrary()?,
        samples: if u.ratio(1, 32)? { u.int_in_range(1..=4)? } else { 0 },
    };
    match arr::arrange(&hand, &options, &rules) {
        Ok(r) => {
            check_partition(&hand, &r.best, &rules);
            assert!(!r.alternatives.is_empty() && r.alternatives.len() <= options.top_k);
            assert_eq!(r.alternatives[0], r.best, "alternatives[0] is not the best");
            for w in r.alternatives.windows(2) {
                assert!(w[0].expected >= w[1].expected, "alternatives not best first");
            }
            for a in &r.alternatives {
                check_partition(&hand, a, &rules);
            }
            assert_eq!(r.special.as_ref().map(|s| s.id), ssw::special(&hand).unwrap().map(|s| s.id));
            assert!(!r.declare_special || r.special.is_some());
            if u.ratio(1, 8)? {
                let many = arr::arrange_many(std::slice::from_ref(&hand), &options, &rules).expect("arrange_many of an arranged hand");
                assert_eq!(many[0], r, "arrange_many differs from arrange");
            }
        }
        Err(e) => check_err(&e),
    }

    // best_response against opponents dealt from the rest of the deck.
    let k = if u.ratio(1, 16)? { u.int_in_range(0..=4)? } else { u.int_in_range(1..=3)? };
    let mut opponents = Vec::with_capacity(k);
    for _ in 0..k {
        opponents.push(ssw_hand(u, &mut deck)?);
    }
    let top_k = if u.ratio(1, 16)? { u.int_in_range(0..=100)? } else { u.int_in_range(1..=3)? };
    match arr::best_response(&hand, &opponents, top_k, &rules) {
        Ok(r) => {
            check_partition(&hand, &r.best, &rules);
            let me = ssw::Hand::Rows { front: r.best.front.clone(), middle: r.best.middle.clone(), back: r.best.back.clone() };
            let exact = arr::exact_waters(&me, &opponents, &rules).expect("exact waters of the best response");
            assert_eq!(exact as f64, r.best.expected, "best_response's score is not the exact waters");
            let g = arr::greedy(&hand, &rules).expect("greedy arrangement");
            if !eval::is_foul(&g.front, &g.middle, &g.back, &rules).unwrap() {
                let gh = ssw::Hand::Rows { front: g.front, middle: g.middle, back: g.back };
                let gw = arr::exact_waters(&gh, &opponents, &rules).unwrap();
                assert!(gw as f64 <= r.best.expected, "the greedy arrangement beats the best response");
            }
            for a in &r.alternatives {
                check_partition(&hand, a, &rules);
                assert!(a.expected <= r.best.expected);
            }
        }
        Err(e) => check_err(&e),
    }
    Ok(())
}
