//! Comparing rows (RULES §1.3), the 倒水 foul check (§1.4) and a row's waters (§1.5).

use super::strength::{row_value, strength, Category};
use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use crate::shisanshui::rules::Rules;
use std::cmp::Ordering;

/// Compare two rows of the same size (RULES §1.3); `Equal` only for the same ranks and
/// suits (or the same ranks when suit tie-break is off).
pub fn compare_rows(a: &[Card], b: &[Card], rules: &Rules) -> Result<Ordering> {
    if a.len() != b.len() {
        return Err(Error::new(format!("can only compare rows of the same size (got {} and {} cards)", a.len(), b.len()))
            .because(Reason::WrongCount));
    }
    // One deck (RULES §0): a card cannot be in both rows. (One OR per card first; the
    // named check words the error.)
    let mask = |row: &[Card]| row.iter().fold(0u64, |m, c| m | if c.0 < 52 { c.bit() } else { 0 });
    if mask(a) & mask(b) != 0 {
        crate::cards::check_distinct_across(&[("a".into(), a), ("b".into(), b)])?;
    }
    // The key is the strength above the suits: different strengths decide without them.
    let (sa, sb) = (strength(a, rules)?, strength(b, rules)?);
    if sa != sb {
        return Ok(sa.cmp(&sb));
    }
    Ok(row_value(a, rules)?.key.cmp(&row_value(b, rules)?.key))
}

/// 倒水: front ≤ middle ≤ back fails, by categories and ranks only (RULES §1.4).
pub fn is_foul(front: &[Card], middle: &[Card], back: &[Card], rules: &Rules) -> Result<bool> {
    check_row_sizes(front, middle, back)?;
    let f = strength(front, rules)?;
    let m = strength(middle, rules)?;
    let b = strength(back, rules)?;
    Ok(f > m || m > b)
}

pub(crate) fn check_row_sizes(front: &[Card], middle: &[Card], back: &[Card]) -> Result<()> {
    for (name, row, want) in [("front", front, 3), ("middle", middle, 5), ("back", back, 5)] {
        if row.len() != want {
            return Err(Error::field(name, format!("the {name} row has {want} cards, got {}", row.len())).because(Reason::WrongCount));
        }
    }
    Ok(())
}

/// Waters won by the winner of a row (RULES §1.5), from the winner's own row.
/// `row`: 0 front, 1 middle, 2 back.
#[inline]
pub(crate) fn row_waters(row: usize, category: Category) -> i64 {
    match (row, category) {
        (0, Category::ThreeOfAKind) => 3,
        (1, Category::FullHouse) => 2,
        (1, Category::FourOfAKind) => 8,
        (1, Category::StraightFlush) => 10,
        (2, Category::FourOfAKind) => 4,
        (2, Category::StraightFlush) => 5,
        _ => 1,
    }
}
