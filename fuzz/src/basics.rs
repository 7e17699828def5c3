//! The game-independent targets: card text and every other text parser of the core, and
//! the money rules (cap, proportional shares, rake).

use crate::common::*;
use arbitrary::{Result as AResult, Unstructured};
use handeval_core::cards::{self, Card};
use handeval_core::dachu;
use handeval_core::money;
use handeval_core::shisanshui as ssw;

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
            assert!(
                w.iter().any(|&x| x < 0) || (w.iter().all(|&x| x == 0) && total != 0),
                "share_proportional({total}, {w:?}) failed: {e}"
            );
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
