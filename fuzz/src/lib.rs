//! The checks behind every fuzz target (issue 8). Each `pub fn <target>(data)` turns the
//! fuzzer's bytes into inputs of one public entry family of `handeval_core`, calls it,
//! and asserts the invariants the rules promise: no panic and no overflow (the fuzz
//! profiles keep overflow checks on), settlements exactly zero-sum, caps respected,
//! legal plays legal, a found special really made of the 13 cards, and so on.
//!
//! A malformed input is expected to come back as `Err` — that is the point of the
//! `Result`-returning API — so only panics and broken invariants are findings.
//! `fuzz_targets/<target>.rs` calls these; `tests/corpus.rs` replays the corpora through
//! the same functions as a plain `cargo test`.

use arbitrary::{Result as AResult, Unstructured};
use handeval_core::cards::{self, Card};
use handeval_core::money;
use handeval_core::shisanshui::{self as ssw, eval};
use handeval_core::{dachu, Error};
use std::cmp::Ordering;

/// Every target by name (the replay harness walks `corpus/<name>` and `regressions/<name>`).
pub const TARGETS: &[(&str, fn(&[u8]))] = &[
    ("cards", cards),
    ("money", money),
    ("shisanshui_eval", shisanshui_eval),
    ("shisanshui_settle", shisanshui_settle),
    ("dachu_play", dachu_play),
    ("dachu_flow", dachu_flow),
    ("dachu_settle", dachu_settle),
    ("tienlen_play", tienlen_play),
    ("tienlen_game", tienlen_game),
    ("shisanshui_arrange", shisanshui_arrange),
];

// ---------------------------------------------------------------- input helpers

/// An i64 that is often an edge value (the overflow hunters) and otherwise small or wild.
fn int(u: &mut Unstructured) -> AResult<i64> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => *u.choose(&[i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX, 1 << 62, -(1 << 62)])?,
        1..=4 => u.int_in_range(-1000..=1000)?,
        5 => u.int_in_range(-(1i64 << 40)..=(1i64 << 40))?,
        _ => u.arbitrary()?,
    })
}

/// A positive stake: usually small, sometimes huge.
fn stake(u: &mut Unstructured) -> AResult<i64> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 => int(u)?,
        1 => *u.choose(&[i64::MAX, i64::MAX / 2, 1 << 40, 1 << 61])?,
        _ => u.int_in_range(1..=1000)?,
    })
}

/// Carried-in amounts for `n` seats (sometimes the wrong count, sometimes negative).
fn carried(u: &mut Unstructured, n: usize) -> AResult<Option<Vec<Option<i64>>>> {
    if u.ratio(1, 3)? {
        return Ok(None);
    }
    let len = if u.ratio(1, 16)? { u.int_in_range(0..=6)? } else { n };
    let mut out = Vec::with_capacity(len);
    for _ in 0..len {
        out.push(match u.int_in_range(0u8..=4)? {
            0 => None,
            1 => Some(int(u)?),
            _ => Some(u.int_in_range(0..=5000)?),
        });
    }
    Ok(Some(out))
}

/// Draws distinct cards from one deck, so several hands never share a card unless a
/// `sloppy` draw asks for any card at all (duplicates included).
struct Deck {
    left: Vec<Card>,
}

impl Deck {
    fn new() -> Deck {
        Deck { left: (0..52).map(Card).collect() }
    }
    fn draw(&mut self, u: &mut Unstructured, n: usize) -> AResult<Vec<Card>> {
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            if self.left.is_empty() {
                break;
            }
            let i = u.choose_index(self.left.len())?;
            out.push(self.left.swap_remove(i));
        }
        Ok(out)
    }
    /// Usually distinct cards; now and then arbitrary ids (repeats allowed) to check
    /// that the validating entries reject them instead of misbehaving.
    fn draw_maybe_sloppy(&mut self, u: &mut Unstructured, n: usize) -> AResult<Vec<Card>> {
        if u.ratio(1, 32)? {
            let mut out = Vec::with_capacity(n);
            for _ in 0..n {
                out.push(Card(u.int_in_range(0..=51)?));
            }
            return Ok(out);
        }
        self.draw(u, n)
    }
}

fn sorted(c: &[Card]) -> Vec<Card> {
    let mut v = c.to_vec();
    v.sort();
    v
}

fn sum128(v: &[i64]) -> i128 {
    v.iter().map(|&x| x as i128).sum()
}

/// An error must say something (the message names the bad card, field or seat).
fn check_err(e: &Error) {
    assert!(!e.message.is_empty(), "empty error message");
    if let Some(f) = &e.field {
        assert!(e.to_string().contains(f.as_str()), "error field {f:?} not named in {e}");
    }
}

// ---------------------------------------------------------------- cards and text

/// Card parsing and every other text parser of the core: canonical text round-trips,
/// parsed lists never repeat a card, nothing panics on any UTF-8.
pub fn cards(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match cards::parse_cards(&text) {
        Ok(cs) => {
            assert!(cs.iter().all(|c| c.0 < 52));
            cards::check_distinct(&cs).expect("parse_cards returned a repeated card");
            let canon = cards::format_cards(&cs);
            assert_eq!(cards::parse_cards(&canon).expect("canonical text must parse"), cs);
        }
        Err(e) => check_err(&e),
    }
    for tok in text.split(|c: char| c.is_whitespace() || c == ',').take(64) {
        if let Ok(c) = cards::parse_card(tok) {
            assert_eq!(cards::parse_card(&c.to_string()).unwrap(), c, "{tok:?}");
        }
    }
    let tokens: Vec<&str> = text.split('\n').take(64).collect();
    let _ = cards::parse_tokens(&tokens);
    if let Ok(o) = ssw::SuitOrder::parse(&text) {
        assert_eq!(ssw::SuitOrder::parse(&o.to_text()).unwrap(), o);
    }
    if let Ok(w) = ssw::WheelRank::parse(&text) {
        assert_eq!(w.as_str(), text);
    }
    if let Ok(s) = ssw::SpecialId::parse(&text) {
        assert_eq!(s.id(), text);
    }
    let _ = dachu::Call::parse(&text).map(|c| assert_eq!(c.name(), text));
    let _ = dachu::Chu::parse(&text).map(|c| c.as_str());
    let _ = dachu::rules::UnitPer::parse(&text).map(|c| c.as_str());
    let _ = dachu::rules::FirstCaller::parse(&text).map(|c| c.as_str());
    for &b in data.iter().take(64) {
        match Card::from_id(b) {
            Ok(c) => assert!(b < 52 && c.0 == b),
            Err(e) => {
                assert!(b >= 52);
                check_err(&e)
            }
        }
    }
}

// ---------------------------------------------------------------- money

/// The cap, proportional shares and the rake: zero-sum, bounded, sign-preserving; an
/// input that does not add up to 0 (or overflows) is an error, never a panic.
pub fn money(data: &[u8]) {
    let _ = money_inner(&mut Unstructured::new(data));
}

fn money_inner(u: &mut Unstructured) -> AResult<()> {
    let n = u.int_in_range(0..=6)?;
    let mut t = Vec::with_capacity(n);
    for _ in 0..n {
        t.push(int(u)?);
    }
    if n > 0 && u.ratio(7, 8)? {
        // Make it zero-sum when the balancing entry fits.
        if let Ok(v) = i64::try_from(-sum128(&t[1..])) {
            t[0] = v;
        }
    }
    let c = carried(u, n)?.unwrap_or_else(|| vec![None; n]);
    match money::cap(&t, &c) {
        Ok(out) => {
            assert_eq!(sum128(&t), 0, "cap accepted results adding up to {}", sum128(&t));
            assert_eq!(out.len(), t.len());
            assert_eq!(sum128(&out), 0, "cap is not zero-sum: {t:?} {c:?} -> {out:?}");
            for ((o, c), r) in out.iter().zip(&c).zip(&t) {
                if let Some(c) = c {
                    assert!(o.unsigned_abs() <= c.unsigned_abs(), "cap exceeded: {t:?} {c:?} -> {out:?}");
                }
                assert!(o.signum() == 0 || o.signum() == r.signum(), "cap changed a sign: {t:?} -> {out:?}");
                assert!(o.unsigned_abs() <= r.unsigned_abs(), "cap grew a result: {t:?} -> {out:?}");
            }
        }
        Err(e) => check_err(&e),
    }

    let total = int(u)?;
    let wn = u.int_in_range(0..=6)?;
    let mut w = Vec::with_capacity(wn);
    for _ in 0..wn {
        w.push(if u.ratio(1, 8)? { int(u)? } else { u.int_in_range(0..=1_000_000)? });
    }
    match money::share_proportional(total, &w) {
        Ok(s) => {
            assert_eq!(s.len(), w.len());
            assert_eq!(sum128(&s), total as i128, "shares of {total} by {w:?} add up wrong: {s:?}");
            for (x, wi) in s.iter().zip(&w) {
                assert!(x.signum() == 0 || x.signum() == total.signum());
                if *wi == 0 {
                    assert_eq!(*x, 0, "a zero weight got a share");
                }
            }
        }
        Err(e) => {
            check_err(&e);
            assert!(w.iter().any(|&x| x < 0) || (w.iter().all(|&x| x == 0) && total != 0), "share_proportional({total}, {w:?}) failed: {e}");
        }
    }

    let percent = if u.ratio(1, 8)? { u.arbitrary::<u32>()? } else { u.int_in_range(0..=100)? };
    match money::rake(&t, percent) {
        Ok((after, rake)) => {
            assert!(percent <= 100);
            assert!(rake >= 0);
            assert_eq!(sum128(&after) + rake as i128, sum128(&t), "rake lost money");
            for (a, b) in after.iter().zip(&t) {
                assert!(if *b > 0 { *a <= *b && *a >= 0 } else { a == b });
            }
        }
        Err(e) => check_err(&e),
    }
    Ok(())
}

// ---------------------------------------------------------------- 十三水

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
    let size = if u.ratio(1, 16)? { u.int_in_range(0..=7)? } else if u.arbitrary()? { 5 } else { 3 };
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
            assert!(eval::compare_rows(&a, &b, &rules).unwrap_err().message.contains("also in"), "rows sharing a card compared: {a:?} {b:?}");
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

// ---------------------------------------------------------------- 打儲

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
        declare_once_per: *u.choose(&[dachu::rules::DeclareOncePer::PlayerAndKind, dachu::rules::DeclareOncePer::Player, dachu::rules::DeclareOncePer::Game])?,
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
        let (seat, call) = if u.ratio(1, 8)? { (u.int_in_range(0..=4)?, *u.choose(&dachu::Call::ALL)?) } else { (turn, *u.choose(&legal)?) };
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
    let game = dachu::Game {
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

fn check_dachu_settlement(g: &dachu::Game, s: &dachu::Settlement) {
    assert_eq!(s.deltas.len(), 4);
    assert_eq!(sum128(&s.deltas), 0, "打儲 deltas not zero-sum: {s:?}");
    assert_eq!(sum128(&s.theoretical), 0, "打儲 theoretical not zero-sum: {s:?}");
    for seat in 0..4 {
        let lines: i128 = s.lines.iter().filter(|l| l.seat == seat).map(|l| l.amount as i128).sum();
        assert_eq!(lines, s.deltas[seat] as i128, "the lines of seat {seat} do not add up to its delta");
    }
    for item in ["jiao", "result", "escape", "cap"] {
        let total: i128 = s.lines.iter().filter(|l| l.item == item).map(|l| l.amount as i128).sum();
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
    let game = dachu::Game {
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

// ---------------------------------------------------------------- 越式13张

use handeval_core::tienlen as tl;

fn tl_rules(u: &mut Unstructured) -> AResult<tl::Rules> {
    Ok(tl::Rules {
        first_lead_must_contain_lowest: u.arbitrary()?,
        unplayed_loser_adds_multipliers: u.arbitrary()?,
        turn_after_chop: if u.arbitrary()? { tl::TurnAfterChop::Resume } else { tl::TurnAfterChop::FromChopper },
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
                let held: Vec<Card> = hands[seat].iter().copied().filter(|c| !actions.iter().any(|(_, a)| matches!(a, tl::Action::Play(p) if p.contains(c)))).collect();
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

// ---------------------------------------------------------------- 十三水 arrangement solver

use handeval_core::shisanshui::arrange as arr;

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
                let many = arr::arrange_many(&[hand.clone()], &options, &rules).expect("arrange_many of an arranged hand");
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
