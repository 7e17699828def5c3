//! Binding of handeval_core::dachu (打儲): the native result, rule and state classes of
//! `handeval.dachu` and the functions that build them. Conversions only; the rules are
//! in the core. Files by concern, like the core's: `play.rs` (plays and the functions on
//! cards), `deal.rs` (the deal and its declarations), `calling.rs` (叫牌), `game.rs` (the
//! play of a game and the whole record), `settle.rs` (the settlement), `args.rs` (the
//! `Rules` and the argument readers they share); this file holds the registration and
//! `settle`, which reads a Calling or seats. The files import `args.rs` and each other,
//! never this one: no circle (the core's `layout_tests` check it).

mod args;
mod calling;
mod deal;
mod game;
mod play;
mod settle;

pub(crate) use args::DachuRules;
pub(crate) use calling::DachuCalling;
pub(crate) use deal::DachuDeal;
pub(crate) use game::DachuGame;
pub(crate) use play::DachuPlay;
pub(crate) use settle::{Line, Settlement};

use crate::conv::{bad, list_from};
use crate::result::add_class;
use args::{int_or, seat_from, seats_from};
use handeval_core::dachu::calling::Call;
use handeval_core::dachu::Kind;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// Settle a game (RULES 3.7, then the cap of RULES 4).
///
/// ``chu_side``: the 儲方 seats (1 seat: 1 vs 3; 2 seats: 2 vs 2) — then pass
/// ``multiplier`` (a power of two, default 1), ``surrendered`` (繳 seats) and
/// ``bei_bao_da`` (被包打 seats) yourself — or a finished :class:`Calling`, which fixes
/// all four. ``places``: the finishing order (first out first) of the seats that played
/// (everyone but the 繳 and 被包打 seats); omitted when a whole side surrendered or
/// someone escaped. ``escaped``: seats that ran away (逃跑) — the game is abandoned and
/// each pays base × multiplier × ``Rules.escape_units``. ``base``: 底分. ``carried``:
/// per-seat carried-in amounts for the cap (None entries uncapped). ``rules``: by default
/// a Calling's own (those it was made with), else the defaults of docs/rules.md. All arguments but
/// ``chu_side`` and ``places`` are keywords.
///
/// Outcome by the 儲方's places: 1 vs 3 — 1st win + 全殲, 2nd/3rd draw, 4th loss + 全殲;
/// 2 vs 2 — 1+2 win + 全殲, 1+3 win, 1+4 and 2+3 draw, 3+4 loss + 全殲 (a side playing
/// with one player after 包踹/繳 counts like the lone player of 1 vs 3). 全殲 doubles the
/// multiplier. A won game moves one unit (base × multiplier) per member of the larger
/// side (``Rules.unit_per``), shared equally; 被包打 seats pay or win with their side.
/// Each 繳 pays base × multiplier / 2 (rounded up, ``Rules.jiao_round_up``) to the other
/// side.
/// Shares that do not divide evenly follow RULES §0 (largest remainder, lower seat
/// first); the result is exactly zero-sum.
#[pyfunction]
#[pyo3(signature = (chu_side, places=None, *, base=None, multiplier=None, surrendered=None, bei_bao_da=None, escaped=None, carried=None, rules=None))]
fn dc_settle(
    chu_side: &Bound<'_, PyAny>,
    places: Option<&Bound<'_, PyAny>>,
    base: Option<&Bound<'_, PyAny>>,
    multiplier: Option<&Bound<'_, PyAny>>,
    surrendered: Option<&Bound<'_, PyAny>>,
    bei_bao_da: Option<&Bound<'_, PyAny>>,
    escaped: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    // Here, beside the registration, because it reads a Calling, a Deal or seats: the
    // files of those classes do not import each other in a circle.
    if let Ok(c) = chu_side.cast::<DachuCalling>() {
        return calling::settle_calling(c.get(), places, base, [multiplier, surrendered, bei_bao_da], escaped, carried, rules);
    }
    let (rules, places) = settle::rules_and_places(None, rules, places)?;
    if chu_side.is_instance_of::<DachuDeal>() {
        return Err(bad("chu_side", "settle a finished Calling (deal.calling() …) or pass the 儲方 seats"));
    }
    settle::settle_parts(
        list_from(chu_side, "chu_side", seat_from)?,
        int_or(multiplier, "multiplier", 1)?,
        seats_from(surrendered, "surrendered")?,
        seats_from(bei_bao_da, "bei_bao_da")?,
        places,
        base,
        escaped,
        carried,
        &rules,
    )
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The core's lists: play kinds (weakest tier first) and the calls of 叫牌.
    m.add("DC_KINDS", PyTuple::new(m.py(), Kind::ALL.iter().map(|k| k.name()))?)?;
    m.add("DC_CALLS", PyTuple::new(m.py(), Call::ALL.iter().map(|c| c.name()))?)?;
    let line_kinds = PyDict::new(m.py());
    for k in handeval_core::dachu::LineKind::ALL {
        line_kinds.set_item(k.name(), k.doc())?;
    }
    m.add("DC_LINE_KINDS", line_kinds)?;
    add_class::<DachuRules>(m, "DachuRules")?;
    add_class::<DachuPlay>(m, "DachuPlay")?;
    add_class::<DachuDeal>(m, "DachuDeal")?;
    add_class::<DachuCalling>(m, "DachuCalling")?;
    add_class::<DachuGame>(m, "DachuGame")?;
    add_class::<Line>(m, "DachuLine")?;
    add_class::<Settlement>(m, "DachuSettlement")?;
    play::register(m)?;
    m.add_function(wrap_pyfunction!(dc_settle, m)?)?;
    deal::register(m)?;
    calling::register(m)?;
    game::register(m)?;
    Ok(())
}
