//! Binding of handeval_core::tienlen (越式13张): the native result and rule classes of
//! `handeval.tienlen` and the functions that build them. Conversions only; every rule
//! is in the core.
//! Files by concern, like 打儲's: `plays.rs`, `instant.rs`, `round.rs`, `settle.rs`,
//! `game.rs`, and `args.rs` (the `Rules`); this file holds the registration. The files
//! import `args.rs` and each other, never this one: no circle (the core's `layout_tests`
//! check it).

mod args;
mod game;
mod instant;
mod plays;
mod round;
mod settle;

pub(crate) use args::TienlenRules;
use game::*;
use instant::*;
use plays::*;
use round::*;
use settle::*;

use crate::result::add_class;
use handeval_core::tienlen::{InstantWin, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    // The core's lists: play kinds in legal_plays' order, specials with their
    // multipliers, instant wins lowest first.
    m.add("TL_KINDS", PyTuple::new(py, Kind::ALL.iter().map(|k| k.name()))?)?;
    let specials = PyDict::new(py);
    for k in Kind::ALL.iter().filter(|k| k.is_special()) {
        specials.set_item(k.name(), k.multiplier())?;
    }
    m.add("TL_SPECIAL_KINDS", specials)?;
    m.add("TL_INSTANT_WINS", PyTuple::new(py, InstantWin::ALL.iter().map(|w| w.name()))?)?;
    let line_kinds = PyDict::new(py);
    for k in handeval_core::tienlen::LineKind::ALL {
        line_kinds.set_item(k.name(), k.doc())?;
    }
    m.add("TL_LINE_KINDS", line_kinds)?;
    add_class::<TienlenRules>(m, "TienlenRules")?;
    add_class::<TienlenPlay>(m, "TienlenPlay")?;
    add_class::<InstantHand>(m, "TienlenInstantHand")?;
    add_class::<FirstLead>(m, "TienlenFirstLead")?;
    add_class::<RoundState>(m, "TienlenRoundState")?;
    add_class::<Line>(m, "TienlenLine")?;
    add_class::<Settlement>(m, "TienlenSettlement")?;
    add_class::<TienlenGame>(m, "TienlenGame")?;
    m.add_function(wrap_pyfunction!(tl_replay, m)?)?;
    m.add_function(wrap_pyfunction!(tl_classify, m)?)?;
    m.add_function(wrap_pyfunction!(tl_classify_many, m)?)?;
    m.add_function(wrap_pyfunction!(tl_beats, m)?)?;
    m.add_function(wrap_pyfunction!(tl_why_not, m)?)?;
    m.add_function(wrap_pyfunction!(tl_beats_many, m)?)?;
    m.add_function(wrap_pyfunction!(tl_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(tl_instant_win, m)?)?;
    m.add_function(wrap_pyfunction!(tl_instant_hand, m)?)?;
    m.add_function(wrap_pyfunction!(tl_instant_winner, m)?)?;
    m.add_function(wrap_pyfunction!(tl_first_leader, m)?)?;
    m.add_function(wrap_pyfunction!(tl_round_state, m)?)?;
    m.add_function(wrap_pyfunction!(tl_check_action, m)?)?;
    m.add_function(wrap_pyfunction!(tl_may_play, m)?)?;
    m.add_function(wrap_pyfunction!(tl_chop_transfers, m)?)?;
    m.add_function(wrap_pyfunction!(tl_special_groups, m)?)?;
    m.add_function(wrap_pyfunction!(tl_settle, m)?)?;
    m.add_function(wrap_pyfunction!(tl_settle_instant, m)?)?;
    Ok(())
}
