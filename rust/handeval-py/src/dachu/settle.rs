//! The 打儲 settlement (RULES 3.7, then the cap of RULES 4): `Line`, `Settlement` and
//! `settle`.

use super::{int_or, rules_from, seat_from, seats_from, DachuCalling, DachuDeal};
use crate::conv::{bad, base_from, carried_from, given, list_from, opt, IntoPyResult};
use crate::native_class;
use handeval_core::dachu as dc;
use pyo3::prelude::*;

native_class! {
    #[pyclass(module = "handeval.dachu")]
    /// One line of a settlement: ``amount`` (signed) for ``seat``. For each seat, its lines
    /// add up to its delta.
    pub struct Line {
        /// ``"jiao"`` 繳, ``"result"`` the game's result, ``"escape"`` 逃跑, ``"cap"`` the cap
        /// (the values of :class:`handeval.dachu.LineKind`).
        pub kind: String,
        pub seat: usize,
        pub amount: i64,
        /// How the amount was reached, in words.
        pub text: String,
    }
    impl {
        /// Deprecated: the old name of ``kind``.
        #[getter]
        fn item(&self, py: Python<'_>) -> PyResult<String> {
            deprecated(py, c"Line.item is deprecated; use Line.kind")?;
            Ok(self.kind.clone())
        }
        /// Deprecated: the old name of ``text``.
        #[getter]
        fn note(&self, py: Python<'_>) -> PyResult<String> {
            deprecated(py, c"Line.note is deprecated; use Line.text")?;
            Ok(self.text.clone())
        }
    }
}

/// A DeprecationWarning pointing at the caller's line.
fn deprecated(py: Python<'_>, message: &std::ffi::CStr) -> PyResult<()> {
    PyErr::warn(py, &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(), message, 1)
}

native_class! {
    #[pyclass(module = "handeval.dachu")]
    /// A settled game: the 儲方's verdict, the multiplier, the itemised lines and money.
    pub struct Settlement {
        /// The 儲方's result (``"win"``, ``"draw"``, ``"loss"``), None when nobody played.
        pub verdict: Option<String>,
        /// 全殲: the result's multiplier was doubled.
        pub wipe_out: bool,
        /// The multiplier of the result (×2 with 全殲).
        pub result_multiplier: i64,
        /// Itemised breakdown; each seat's lines add up to its delta.
        pub lines: Vec<Line>,
        /// Before the cap.
        pub theoretical: Vec<i64>,
        /// Money per seat after the cap; adds up to 0.
        pub deltas: Vec<i64>,
    }
}

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
#[allow(clippy::too_many_arguments)]
pub(super) fn dc_settle(
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
    // A Calling carries the rules of its game; `rules=` overrides them.
    let rules = match chu_side.cast::<DachuCalling>() {
        Ok(c) if given(rules).is_none() => c.get().origin.rules.clone(),
        _ => rules_from(rules)?,
    };
    let places = opt(places, |p| list_from(p, "places", seat_from))?;
    let (side, multiplier, surrendered, bei_bao_da) = if let Ok(c) = chu_side.cast::<DachuCalling>() {
        let c = c.get();
        if !c.inner.is_over() {
            return Err(crate::conv::bad_as("chu_side", "the calling is not over yet", handeval_core::Reason::IllegalAction));
        }
        if given(multiplier).is_some() || given(surrendered).is_some() || given(bei_bao_da).is_some() {
            return Err(crate::conv::bad_as(
                "chu_side",
                "a Calling already fixes multiplier, surrendered and bei_bao_da",
                handeval_core::Reason::Inconsistent,
            ));
        }
        (c.chu_side(), c.inner.multiplier, c.inner.surrendered(), c.inner.bei_bao_da_seats())
    } else if chu_side.is_instance_of::<DachuDeal>() {
        return Err(bad("chu_side", "settle a finished Calling (deal.calling() …) or pass the 儲方 seats"));
    } else {
        (
            list_from(chu_side, "chu_side", seat_from)?,
            int_or(multiplier, "multiplier", 1)?,
            seats_from(surrendered, "surrendered")?,
            seats_from(bei_bao_da, "bei_bao_da")?,
        )
    };
    let g = dc::GameResult {
        chu_side: side,
        multiplier,
        base: base_from(base)?,
        places,
        surrendered,
        bei_bao_da,
        escaped: seats_from(escaped, "escaped")?,
        carried: carried_from(carried, "carried")?,
    };
    Ok(settlement(dc::settle(&g, &rules).py()?))
}

pub(super) fn settlement(s: dc::Settlement) -> Settlement {
    Settlement {
        verdict: s.verdict.map(|v| v.as_str().to_string()),
        wipe_out: s.wipe_out,
        result_multiplier: s.result_multiplier,
        lines: s.lines.into_iter().map(|l| Line { kind: l.kind.to_string(), seat: l.seat, amount: l.amount, text: l.text }).collect(),
        theoretical: s.theoretical,
        deltas: s.deltas,
    }
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dc_settle, m)?)?;
    Ok(())
}
