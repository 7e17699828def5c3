//! Input helpers shared by every target: edge-heavy integers and stakes, carried-in
//! amounts, a deck that deals distinct cards, and the check every returned error passes.

use arbitrary::{Result as AResult, Unstructured};
use handeval_core::cards::Card;
use handeval_core::Error;

/// An i64 that is often an edge value (the overflow hunters) and otherwise small or wild.
pub(crate) fn int(u: &mut Unstructured) -> AResult<i64> {
    Ok(match u.int_in_range(0u8..=7)? {
        0 => *u.choose(&[i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX, 1 << 62, -(1 << 62)])?,
        1..=4 => u.int_in_range(-1000..=1000)?,
        5 => u.int_in_range(-(1i64 << 40)..=(1i64 << 40))?,
        _ => u.arbitrary()?,
    })
}

/// A positive stake: usually small, sometimes huge.
pub(crate) fn stake(u: &mut Unstructured) -> AResult<i64> {
    Ok(match u.int_in_range(0u8..=5)? {
        0 => int(u)?,
        1 => *u.choose(&[i64::MAX, i64::MAX / 2, 1 << 40, 1 << 61])?,
        _ => u.int_in_range(1..=1000)?,
    })
}

/// Carried-in amounts for `n` seats (sometimes the wrong count, sometimes negative).
pub(crate) fn carried(u: &mut Unstructured, n: usize) -> AResult<Option<Vec<Option<i64>>>> {
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
pub(crate) struct Deck {
    left: Vec<Card>,
}

impl Deck {
    pub(crate) fn new() -> Deck {
        Deck { left: (0..52).map(Card).collect() }
    }
    pub(crate) fn draw(&mut self, u: &mut Unstructured, n: usize) -> AResult<Vec<Card>> {
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
    pub(crate) fn draw_maybe_sloppy(&mut self, u: &mut Unstructured, n: usize) -> AResult<Vec<Card>> {
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

pub(crate) fn sorted(c: &[Card]) -> Vec<Card> {
    let mut v = c.to_vec();
    v.sort();
    v
}

pub(crate) fn sum128(v: &[i64]) -> i128 {
    v.iter().map(|&x| x as i128).sum()
}

/// The names an error path of the core may start with: the core functions' parameters
/// (and, in a rules error, the option). A path starting elsewhere was invented (the
/// bindings map these names to the Python parameters and the proto fields).
pub(crate) const CORE_FIELDS: &[&str] = &[
    "a",
    "b",
    "base",
    "bei_bao_da",
    "calling",
    "cards",
    "carried",
    "chops",
    "chu",
    "chu_side",
    "colour",
    "data",
    "deal",
    "escaped",
    "first_seat",
    "first_side",
    "hand",
    "hands",
    "leader",
    "multiplier",
    "opponents",
    "passed",
    "places",
    "play",
    "players",
    "played_any",
    "remaining",
    "row_size",
    "rules",
    "samples",
    "seat",
    "shown_triple",
    "start_seat",
    "surrendered",
    "table",
    "tables",
    "theoretical",
    "top_k",
    "winner",
    "action",
    "actions",
    "plays",
    "calls",
    "round",
    "front",
    "middle",
    "back",
    // rule options, parsed or validated on their own
    "rake_percent",
    "suit_order",
    "a2345",
    "home_run_min_opponents",
    "turn_after_chop",
    "unit_per",
    "first_caller_2v2",
    "declare_once_per",
    "escape_units",
];

/// An error must say something (the message names the bad card, field or seat), and its
/// path must start at a parameter (see [`CORE_FIELDS`]).
pub(crate) fn check_err(e: &Error) {
    assert!(!e.message.is_empty(), "empty error message");
    if let Some(f) = &e.field {
        assert!(e.to_string().contains(f.as_str()), "error field {f:?} not named in {e}");
        let head = f.split(['.', '[']).next().unwrap_or("");
        assert!(head.is_empty() || CORE_FIELDS.contains(&head), "error field {f:?} starts at no parameter of the core: {e}");
    }
    if let Some(i) = e.action_index {
        let f = e.field.as_deref().unwrap_or("");
        assert!(f.contains(&format!("[{i}]")), "action_index {i} is not in the path {f:?}");
    }
}
