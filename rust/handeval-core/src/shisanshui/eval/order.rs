//! Order keys: a row's place in the full order of RULES §1.3 as one number, for sorting
//! rows that need not come from one deck.

use super::strength::row_value;
use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use crate::shisanshui::rules::Rules;

/// A row's place in the full order of RULES §1.3 as one number: category, ranks, then
/// (with `suit_tiebreak`) suits card by card in order of significance. Of two rows of the
/// same size the stronger has the larger key, and equal keys are a tie (the same ranks
/// and suits, or the same ranks with `suit_tiebreak` off). Unlike [`compare_rows`](super::compare::compare_rows) the
/// rows need not come from one deck, so rows that are independent of each other (a bulk
/// ranking, e.g. the gRPC Compare `order` item) can be ordered by sorting their keys.
pub(crate) fn order_key(cards: &[Card], rules: &Rules) -> Result<u64> {
    Ok(row_value(cards, rules)?.key)
}

/// [`order_key`] of each row. Keys of a front and a five-card row do not compare, so every
/// row must have the size of the first; an error names the row (`[i]`).
pub fn order_keys(rows: &[Vec<Card>], rules: &Rules) -> Result<Vec<u64>> {
    let size = rows.first().map_or(0, |r| r.len());
    let mut keys = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        keys.push(order_key_sized(row, size, rules).map_err(|e| e.within(&format!("[{i}]")))?);
    }
    Ok(keys)
}

/// [`order_key`] of a row of a ranking whose first row has `size` cards (keys of rows of
/// different sizes do not compare): one row of [`order_keys`], for callers that read the
/// rows one by one.
pub fn order_key_sized(cards: &[Card], size: usize, rules: &Rules) -> Result<u64> {
    if cards.len() != size {
        return Err(Error::new(format!("has {} cards, the first row has {size}: the rows of one order have one size", cards.len()))
            .because(Reason::WrongCount));
    }
    order_key(cards, rules)
}
