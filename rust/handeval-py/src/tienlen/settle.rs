//! The settlement of a game from its outcome.

use super::args::rules_from;
use super::instant::hand13;
use super::plays::set_from;
use super::round::{round_named, usize_from};
use crate::conv::{bad, base_from, carried_from, field_renamed, int_from, list_from, opt, IntoPyResult};
use crate::native_class;
use crate::result::Cards;
use handeval_core::tienlen::{self as tl, InstantWin, Transfer};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

// ---- settlement ----

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// One amount of a settlement. For each seat, its lines add up to its delta.
    pub struct Line {
        /// What the line is for: a `LineKind` value (`"cards"`, `"no_card"`, `"instant_win"`,
        /// `"red_two"`, `"black_two"`, `"bomb"`, `"three_pair_run"`, `"four_pair_run"`,
        /// `"win"`, `"chop"`, `"cap"`, `"rake"`).
        pub kind: String,
        /// The seat whose money the line changes.
        pub seat: usize,
        /// The seat on the other side of a payment, or `None` (cap, rake).
        pub other: Option<usize>,
        /// The multiple of `base` (0 for win, chop, cap and rake lines).
        pub multiplier: i64,
        /// The signed change to `seat`.
        pub amount: i64,
        /// The cards the amount is for (none for win, chop, cap and rake lines).
        pub cards: Cards,
        /// A sentence, e.g. `"seat 1 pays 10 × 5 = 50 to seat 0 for the red 2 2h"`.
        pub text: String,
    }
}

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// A settled game: money per seat, the rake and the itemised lines.
    pub struct Settlement {
        /// Final money per seat, after the cap and the rake; `sum(deltas) + rake == 0`.
        pub deltas: Vec<i64>,
        /// Taken from the winner's positive amount.
        pub rake: i64,
        /// The itemised breakdown; each seat's lines add up to its delta.
        pub lines: Vec<Line>,
        /// The winning seat.
        pub winner: usize,
        /// What each loser pays the winner before chops (0 for the winner).
        pub pays: Vec<i64>,
        /// The signed sum of chop transfers per seat.
        pub chops: Vec<i64>,
        /// Before the cap.
        pub theoretical: Vec<i64>,
        /// After the cap, before the rake.
        pub capped: Vec<i64>,
        /// `settle_instant`: each seat's instant win (or `None`); `settle`: all `None`.
        pub instant: Vec<Option<String>>,
    }
}

pub(super) fn settlement(s: tl::Settlement) -> Settlement {
    Settlement {
        deltas: s.deltas,
        rake: s.rake,
        lines: s
            .lines
            .into_iter()
            .map(|l| Line {
                kind: l.kind.name().into(),
                seat: l.seat,
                other: l.other,
                multiplier: l.multiplier,
                amount: l.amount,
                cards: Cards(l.cards),
                text: l.text,
            })
            .collect(),
        winner: s.winner,
        pays: s.pays,
        chops: s.chops,
        theoretical: s.theoretical,
        capped: s.capped,
        instant: s.instant.iter().map(|k| k.map(|k: InstantWin| k.name().to_string())).collect(),
    }
}

/// One entry of `chops`: a transfer (`{"from", "to", "amount"}` or `(from, to, amount)`),
/// or a whole round `[[seat, cards | "pass"], ...]` whose chop chain is settled here.
pub(super) fn chop_item(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<tl::Chop> {
    let is_seq = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    let is_transfer_tuple = is_seq && obj.len()? == 3 && obj.try_iter()?.all(|x| x.is_ok_and(|x| x.is_instance_of::<pyo3::types::PyInt>()));
    if is_seq && !is_transfer_tuple {
        return Ok(tl::Chop::Round(round_named(obj, field)?));
    }
    Ok(tl::Chop::Transfer(transfer_from(obj, field)?))
}

pub(super) fn transfer_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Transfer> {
    let get = |k: &str, i: usize| -> PyResult<Bound<'_, PyAny>> {
        if let Ok(d) = obj.cast::<PyDict>() {
            return d.get_item(k)?.ok_or_else(|| bad(field, format!("missing \"{k}\"")));
        }
        if (obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) && obj.len()? == 3 {
            return obj.get_item(i);
        }
        Err(bad(field, "expected {\"from\": seat, \"to\": seat, \"amount\": int} or (from, to, amount)"))
    };
    Ok(Transfer {
        from: usize_from(&get("from", 0)?, &format!("{field}.from"))?,
        to: usize_from(&get("to", 1)?, &format!("{field}.to"))?,
        amount: int_from(&get("amount", 2)?, &format!("{field}.amount"))?,
    })
}

/// Settle a finished game (RULES 2.6, then the cap of section 4 and the rake).
///
/// ``remaining``: cards left per seat (the winner's empty); ``played_any``: whether each
/// seat played a card (default: it holds fewer than 13); ``chops``: the game's chops,
/// each entry either a round ``[[seat, cards | "pass"], ...]`` (its chop chain is settled
/// with this ``base``, see :func:`chop_transfers`) or a transfer as :func:`chop_transfers`
/// returns it (``{"from", "to", "amount"}`` or ``(from, to, amount)``); ``carried``:
/// carried-in amounts (None entries are uncapped).
#[pyfunction]
#[pyo3(signature = (remaining, winner, base=None, played_any=None, chops=None, carried=None, rules=None))]
pub(super) fn tl_settle(
    remaining: &Bound<'_, PyAny>,
    winner: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    played_any: Option<&Bound<'_, PyAny>>,
    chops: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules_from(rules)?;
    let remaining = list_from(remaining, "remaining", set_from)?;
    let winner = usize_from(winner, "winner")?;
    let base = base_from(base)?;
    let played_any = opt(played_any, |p| {
        list_from(p, "played_any", |x, f| {
            if !x.is_instance_of::<pyo3::types::PyBool>() {
                return Err(bad(f, "must be a bool"));
            }
            x.extract::<bool>()
        })
    })?;
    let chops = opt(chops, |c| {
        // A game of 52 cards has at most 52 rounds (each holds a play): refuse more first.
        if let Ok(n) = c.len() {
            handeval_core::cards::check_record_len(n, "chops").py()?;
        }
        list_from(c, "chops", chop_item)
    })?
    .unwrap_or_default();
    let chops = tl::chop_list(&remaining, &chops, base, &rules).py()?;
    let carried = carried_from(carried, "carried")?;
    Ok(settlement(tl::settle(&remaining, winner, base, played_any.as_deref(), &chops, carried.as_deref(), &rules).py()?))
}

/// Settle an instant win (RULES 2.5/2.6) from every seat's 13 dealt cards: each loser
/// pays ``base × 26``, plus its specials and 2s unless it also held an instant win.
/// Nobody holding one is an error.
#[pyfunction]
#[pyo3(signature = (hands13, base=None, carried=None, rules=None))]
pub(super) fn tl_settle_instant(
    hands13: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules_from(rules)?;
    let hands = list_from(hands13, "hands13", hand13)?;
    let base = base_from(base)?;
    let carried = carried_from(carried, "carried")?;
    Ok(settlement(tl::settle_instant(&hands, base, carried.as_deref(), &rules).py().map_err(|e| field_renamed(e, "hands", "hands13"))?))
}
