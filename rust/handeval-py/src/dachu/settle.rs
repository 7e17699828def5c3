//! The 打儲 settlement (RULES 3.7, then the cap of RULES 4): `Line`, `Settlement` and
//! `settle`.

use super::args::{rules_from, seat_from, seats_from};
use crate::conv::{base_from, carried_from, given, list_from, opt, IntoPyResult};
use crate::native_class;
use handeval_core::dachu as dc;
use pyo3::prelude::*;

native_class! {
    #[pyclass(module = "handeval.dachu")]
    /// One line of a settlement: ``amount`` (signed) for ``seat``. For each seat, its lines
    /// add up to its delta.
    pub struct Line {
        /// What the line is for: a `LineKind` value (`"jiao"` 繳, `"result"` the game's result,
        /// `"escape"` 逃跑, `"cap"` the cap).
        pub kind: String,
        /// The seat whose money the line changes.
        pub seat: usize,
        /// The signed change to `seat`.
        pub amount: i64,
        /// A sentence saying how the amount came about, ending with `= ` and the line's
        /// amount without its sign, e.g. `"儲方 win with 全殲 (×2): 3 × base × 2 = 60, shared
        /// by 3: 60 / 3 = 20"` on a −20 line.
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
        /// The 儲方's result, `"win"`, `"draw"` or `"loss"`; `None` when places were not
        /// scored.
        pub verdict: Option<String>,
        /// 全殲 doubled the result.
        pub wipe_out: bool,
        /// The multiplier of the result (×2 with 全殲).
        pub result_multiplier: i64,
        /// The itemised breakdown; each seat's lines add up to its delta.
        pub lines: Vec<Line>,
        /// Before the cap.
        pub theoretical: Vec<i64>,
        /// Money per seat after the cap; adds up to 0.
        pub deltas: Vec<i64>,
    }
}

/// What every settle reads first, in this order: the rules (`own`, a Calling's, unless
/// `rules` is given) and the places.
pub(super) fn rules_and_places(
    own: Option<&dc::Rules>,
    rules: Option<&Bound<'_, PyAny>>,
    places: Option<&Bound<'_, PyAny>>,
) -> PyResult<(dc::Rules, Option<Vec<usize>>)> {
    let rules = match own {
        Some(r) if given(rules).is_none() => r.clone(),
        _ => rules_from(rules)?,
    };
    Ok((rules, opt(places, |p| list_from(p, "places", seat_from))?))
}

/// The settlement of a game given by its parts (see ``settle`` in `mod.rs`): the 儲方,
/// the multiplier, the 繳 and 被包打 seats, the places, and the caller's other arguments.
pub(super) fn settle_parts(
    chu_side: Vec<usize>,
    multiplier: i64,
    surrendered: Vec<usize>,
    bei_bao_da: Vec<usize>,
    places: Option<Vec<usize>>,
    base: Option<&Bound<'_, PyAny>>,
    escaped: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: &dc::Rules,
) -> PyResult<Settlement> {
    let g = dc::GameResult {
        chu_side,
        multiplier,
        base: base_from(base)?,
        places,
        surrendered,
        bei_bao_da,
        escaped: seats_from(escaped, "escaped")?,
        carried: carried_from(carried, "carried")?,
    };
    Ok(settlement(dc::settle(&g, rules).py()?))
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
