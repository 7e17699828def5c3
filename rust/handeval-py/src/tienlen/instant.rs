//! Instant wins (即胜) and the first lead.

use super::args::rules_from;
use crate::conv::{cards_from, field_renamed, list_from, IntoPyResult};
use crate::native_class;
use crate::result::Cards;
use handeval_core::cards::Card;
use handeval_core::tienlen::{self as tl};
use pyo3::prelude::*;

// ---- instant wins and the first lead ----

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// An instant win (直接获胜, RULES 2.5) and the cards that form it.
    pub struct InstantHand {
        /// One of `INSTANT_WINS`.
        pub kind: String,
        /// Its Chinese name, e.g. `六对`.
        pub kind_zh: String,
        /// The cards that form it, lowest first.
        pub cards: Cards,
    }
}

pub(super) fn instant_hand(h: &tl::InstantHand) -> InstantHand {
    InstantHand { kind: h.kind.name().into(), kind_zh: h.kind.name_zh().into(), cards: Cards(h.cards.clone()) }
}

pub(super) fn hand13(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    let cards = cards_from(obj, field)?;
    tl::rules::check_dealt_hand(&cards, field).py()?;
    Ok(cards)
}

/// The highest instant win (直接获胜) of 13 dealt cards, or None (RULES 2.5).
#[pyfunction]
pub(super) fn tl_instant_win(cards13: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
    Ok(tl::instant_win(&hand13(cards13, "cards13")?).py()?.map(|h| h.kind.name()))
}

/// Like :func:`instant_win`, with the Chinese name and the forming cards.
#[pyfunction]
pub(super) fn tl_instant_hand(cards13: &Bound<'_, PyAny>) -> PyResult<Option<InstantHand>> {
    Ok(tl::instant_win(&hand13(cards13, "cards13")?).py()?.as_ref().map(instant_hand))
}

/// Each seat's instant win and the seat whose instant win is highest (None if nobody
/// holds one). Same types compare by the forming cards' ranks from the top, then the
/// suit of the highest card.
#[pyfunction]
pub(super) fn tl_instant_winner(hands13: &Bound<'_, PyAny>) -> PyResult<(Vec<Option<InstantHand>>, Option<usize>)> {
    let hands = list_from(hands13, "hands13", hand13)?;
    let (wins, best) = tl::instant_winner(&hands).py().map_err(|e| field_renamed(e, "hands", "hands13"))?;
    Ok((wins.iter().map(|w| w.as_ref().map(instant_hand)).collect(), best))
}

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// Who leads the game: the holder of the lowest card dealt (RULES 2.4).
    pub struct FirstLead {
        /// The seat that leads the first round.
        pub seat: usize,
        /// The lowest card dealt.
        pub card: String,
        /// Whether the first play must contain `card` (the rule option
        /// `first_lead_must_contain_lowest`).
        pub must_contain: bool,
    }
}

/// The seat holding the lowest card dealt, and whether the first play must contain it
/// (``Rules.first_lead_must_contain_lowest``).
#[pyfunction]
#[pyo3(signature = (hands, rules=None))]
pub(super) fn tl_first_leader(hands: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<FirstLead> {
    let rules = rules_from(rules)?;
    let hands = list_from(hands, "hands", cards_from)?;
    let (seat, card) = tl::first_leader(&hands).py()?;
    Ok(FirstLead { seat, card: card.to_string(), must_contain: rules.first_lead_must_contain_lowest })
}
