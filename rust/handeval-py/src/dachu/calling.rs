//! 打儲's 叫牌 (RULES 3.6): the `Calling` state class.

use super::args::{action_parts, arity, int_or, opt_seat, replay_each, rules_from, rules_py, seat_from};
use super::settle::{rules_and_places, settle_parts, Settlement};
use crate::conv::{bad, given, list_from, opt_flag, IntoPyResult};
use crate::game_common::replay_reduce;
use crate::native_class;
use handeval_core::dachu as dc;
use handeval_core::dachu::calling::{side_name, Call, Calling as CoreCalling, Outcome, Stage};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `first_side`: "chu" (0), "other" (1), or None.
pub(super) fn side_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
    match given(obj) {
        Some(o) => {
            let s: String = o.extract().map_err(|_| bad("first_side", "must be \"chu\" or \"other\""))?;
            match s.as_str() {
                "chu" => Ok(Some(0)),
                "other" => Ok(Some(1)),
                _ => Err(bad("first_side", format!("{s:?} is not \"chu\" or \"other\""))),
            }
        }
        _ => Ok(None),
    }
}

/// The calls of a record as Python sees them: `(call, seat)`.
pub(super) fn calls_py(history: &[(usize, Call)]) -> Vec<(&'static str, usize)> {
    history.iter().map(|(s, c)| (c.name(), *s)).collect()
}

/// What a calling started from (pickling replays its history from here).
#[derive(Clone, Debug)]
pub(crate) struct CallingOrigin {
    pub(crate) chu_side: Vec<usize>,
    pub(crate) declared: bool,
    pub(crate) multiplier: i64,
    pub(crate) start_seat: usize,
    pub(crate) first_side: Option<usize>,
    pub(crate) rules: dc::Rules,
}

impl CallingOrigin {
    /// The start of the calling that follows the finished `deal` (see `Deal.calling`).
    pub(super) fn of(deal: &dc::deal::Deal, start_seat: Option<usize>, first_side: Option<usize>) -> Self {
        CallingOrigin {
            chu_side: deal.chu_side().unwrap_or_default(),
            declared: deal.declared(),
            multiplier: deal.multiplier,
            start_seat: start_seat.unwrap_or(deal.first_seat),
            first_side,
            rules: deal.rules().clone(),
        }
    }
}

/// A call `(call, seat)` as the core takes it: `(seat, call)`.
pub(super) fn call_from(action: &Bound<'_, PyAny>) -> PyResult<(usize, Call)> {
    let (name, rest) = action_parts(action)?;
    let call = Call::parse(&name).map_err(super::args::in_action).py()?;
    arity(&name, &rest, 1, 1)?;
    Ok((seat_from(&rest[0], "action.seat")?, call))
}

native_class! {
    state inner, repr [phase, turn, multiplier, outcome];
    #[pyclass(module = "handeval.dachu", name = "Calling")]
    /// 叫牌 (RULES 3.6, the seed's flows A–D and notes 1–4) as an immutable state machine.
    ///
    /// ``Calling(chu_side, declared=False, multiplier=1, start_seat=0, first_side=None,
    /// rules=None)``: ``chu_side`` the 儲 holders (1 seat: 1 vs 3; 2 seats: 2 vs 2),
    /// ``declared`` whether a 夢宣/撐儲 happened, ``multiplier`` from the deal. Or use
    /// :meth:`Deal.calling`. Actions: ``(call, seat)`` with ``call`` in :data:`CALLS`;
    /// ``apply(action)`` returns the next state. States compare by value, hash, pickle (by
    /// replaying their history) and have ``to_dict()``.
    ///
    /// How the seed reads (details in ``rust/handeval-core/src/dachu/calling.rs``): the 儲方
    /// calls first after a 夢宣/撐儲 and always in 1 vs 3; a lone caller chooses 平打/踹/繳
    /// once. A side of 2–3 is asked in seat order; all agreeing decides (all 平打 → play,
    /// all 繳 → surrender, 踹 + 跟踹 → 踹); a differing answer restarts the side's asking
    /// (flow D's second round: the last answer counts, a last 繳 defers to the previous
    /// answer and is a personal surrender). 包踹 (flow C): every other member answers
    /// 包踹 (takes over; the previous 包踹 player is 被包打) or 繳, once each. A side's 平打
    /// starts play; a kick passes the call to the other side; if both kicked, each side
    /// answers once more 平打/踹 (note 3). Each side's final 踹/包踹 doubles the multiplier.
    pub struct DachuCalling {
        pub(crate) inner: CoreCalling,
        pub(crate) origin: CallingOrigin,
    }
    fields {
        fn chu_side(&self) -> Vec<usize> {
            self.inner.chu_side()
        }
        fn first_side(&self) -> &'static str {
            side_name(self.inner.first_side)
        }
        /// ×2 for each side's final 踹 or 包踹.
        fn multiplier(&self) -> i64 {
            self.inner.multiplier
        }
        /// "side_call", "side_call_round2" (flow D), "bao_chuai" (flow C), "second_round"
        /// (note 3) or "over".
        fn phase(&self) -> &'static str {
            self.inner.phase()
        }
        /// The seat to call, or None when over.
        fn turn(&self) -> Option<usize> {
            self.inner.turn()
        }
        /// The seats still to answer in the current step, in order (empty when over).
        fn waiting(&self) -> Vec<usize> {
            match &self.inner.stage {
                Stage::Side { order, idx, .. } | Stage::Bao { order, idx, .. } | Stage::Again { order, idx, .. } => order[*idx..].to_vec(),
                Stage::Over => Vec::new(),
            }
        }
        /// "chu" (儲方), "other" (非儲方) or None.
        fn calling_side(&self) -> Option<&'static str> {
            self.inner.calling_side().map(side_name)
        }
        /// "play", "surrender" or None while calling.
        fn outcome(&self) -> Option<&'static str> {
            self.inner.outcome.map(|o| match o {
                Outcome::Play => "play",
                Outcome::Surrender { .. } => "surrender",
            })
        }
        fn surrendered_side(&self) -> Option<&'static str> {
            match self.inner.outcome {
                Some(Outcome::Surrender { side }) => Some(side_name(side)),
                _ => None,
            }
        }
        /// Seats that chose 繳 (personally or as a side).
        fn surrendered(&self) -> Vec<usize> {
            self.inner.surrendered()
        }
        /// Seats 被包打: sit out, pay by their side's result.
        fn bei_bao_da(&self) -> Vec<usize> {
            self.inner.bei_bao_da_seats()
        }
        /// The 包踹 player of the 儲方 and of the 非儲方 (or None each).
        fn bao_chuai(&self) -> (Option<usize>, Option<usize>) {
            (self.inner.sole[0], self.inner.sole[1])
        }
        /// Seats that play the cards.
        fn playing(&self) -> Vec<usize> {
            self.inner.playing()
        }
        /// Each side decision: (side, call).
        fn finals(&self) -> Vec<(&'static str, &'static str)> {
            self.inner.finals.iter().map(|(s, c)| (side_name(*s), c.name())).collect()
        }
        /// Every call: (call, seat).
        fn history(&self) -> Vec<(&'static str, usize)> {
            calls_py(&self.inner.history)
        }
        fn over(&self) -> bool {
            self.inner.is_over()
        }
    }
    impl {
        #[new]
        #[pyo3(signature = (chu_side, declared=None, multiplier=None, start_seat=None, first_side=None, rules=None))]
        fn new(
            chu_side: &Bound<'_, PyAny>,
            declared: Option<&Bound<'_, PyAny>>,
            multiplier: Option<&Bound<'_, PyAny>>,
            start_seat: Option<&Bound<'_, PyAny>>,
            first_side: Option<&Bound<'_, PyAny>>,
            rules: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Self> {
            let rules = rules_from(rules)?;
            let side = list_from(chu_side, "chu_side", seat_from)?;
            let m = int_or(multiplier, "multiplier", 1)?;
            let start = opt_seat(start_seat, "start_seat")?.unwrap_or(0);
            let declared = opt_flag(declared, "declared")?;
            let first = side_from(first_side)?;
            let inner = CoreCalling::new(&side, declared, m, start, first, &rules).py()?;
            Ok(DachuCalling { inner, origin: CallingOrigin { chu_side: side, declared, multiplier: m, start_seat: start, first_side: first, rules } })
        }

        /// 托管 for the calling: the call ``seat`` (default: the seat to call) should make,
        /// from its 13 cards ``hand`` and the 儲 colour ``chu`` ("red" / "black") and the
        /// calls so far, as ``(call, seat)`` for ``apply`` (docs/suggest.md).
        #[pyo3(signature = (hand, chu, seat=None, *, seed=None, effort=None))]
        fn suggest(&self, hand: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, seat: Option<&Bound<'_, PyAny>>, seed: Option<&Bound<'_, PyAny>>, effort: Option<&Bound<'_, PyAny>>) -> PyResult<(&'static str, usize)> {
            let (seat, seed, effort) = crate::game_common::suggest_args(seat, seed, effort)?;
            let hand = crate::conv::cards_from(hand, "hand")?;
            let chu = super::args::chu_from(chu)?;
            let seat = seat.or(self.inner.turn()).unwrap_or(0);
            let view = dc::suggest::CallView::new(&self.inner, seat, &hand, chu).py()?;
            let s = dc::suggest::suggest_call(&view, seed, effort).py()?;
            Ok((s.call.name(), s.seat))
        }

        /// The next state; an illegal action (out of turn, unknown seat, not offered now, a
        /// second 包踹 by the same player) is a HandevalError saying why.
        pub(super) fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuCalling> {
            let (seat, call) = call_from(action)?;
            Ok(DachuCalling { inner: self.inner.apply(seat, call).map_err(super::args::in_action).py()?, origin: self.origin.clone() })
        }

        /// ``[(call, seat), ...]`` allowed now.
        #[getter]
        fn legal_actions(&self) -> Vec<(&'static str, usize)> {
            match self.inner.turn() {
                Some(t) => self.inner.legal_calls().iter().map(|c| (c.name(), t)).collect(),
                None => Vec::new(),
            }
        }

        /// :func:`settle` with this finished calling (and, unless ``rules`` is given, the rules
        /// it was made with).
        #[pyo3(signature = (places=None, *, base=None, escaped=None, carried=None, rules=None))]
        fn settle(
            slf: &Bound<'_, Self>,
            places: Option<&Bound<'_, PyAny>>,
            base: Option<&Bound<'_, PyAny>>,
            escaped: Option<&Bound<'_, PyAny>>,
            carried: Option<&Bound<'_, PyAny>>,
            rules: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<Settlement> {
            settle_calling(slf.get(), places, base, [None, None, None], escaped, carried, rules)
        }

        /// Pickled as its start and history: `dc_calling_replay(chu_side, declared,
        /// multiplier, start_seat, first_side, rules, history)`.
        fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            let o = &self.origin;
            let args = (o.chu_side.clone(), o.declared, o.multiplier, o.start_seat, o.first_side.map(side_name), rules_py(py, &o.rules)?, self.history());
            replay_reduce(py, "dc_calling_replay", args)
        }
    }
}

/// The settlement of a finished calling; the parts it fixes (multiplier, surrendered,
/// bei_bao_da) may not be given again. Its rules unless `rules` is given.
pub(super) fn settle_calling(
    c: &DachuCalling,
    places: Option<&Bound<'_, PyAny>>,
    base: Option<&Bound<'_, PyAny>>,
    fixed: [Option<&Bound<'_, PyAny>>; 3],
    escaped: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let (rules, places) = rules_and_places(Some(&c.origin.rules), rules, places)?;
    // What the finished calling fixes, by the core (its error named as this API's
    // argument `chu_side`, which a Calling stands for).
    let fixed_parts =
        c.inner.game_result(None, 1, Vec::new(), None).map_err(|e| handeval_core::Error { field: Some("chu_side".into()), ..e }).py()?;
    if fixed.iter().any(|f| given(*f).is_some()) {
        return Err(crate::conv::bad_as(
            "chu_side",
            "a Calling already fixes multiplier, surrendered and bei_bao_da",
            handeval_core::Reason::Inconsistent,
        ));
    }
    settle_parts(
        fixed_parts.chu_side,
        fixed_parts.multiplier,
        fixed_parts.surrendered,
        fixed_parts.bei_bao_da,
        places,
        base,
        escaped,
        carried,
        &rules,
    )
}

/// Rebuilds a pickled `Calling`: the new calling with `history` applied.
#[pyfunction]
fn dc_calling_replay(
    chu_side: &Bound<'_, PyAny>,
    declared: &Bound<'_, PyAny>,
    multiplier: &Bound<'_, PyAny>,
    start_seat: &Bound<'_, PyAny>,
    first_side: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    history: &Bound<'_, PyAny>,
) -> PyResult<DachuCalling> {
    let start = DachuCalling::new(chu_side, Some(declared), Some(multiplier), Some(start_seat), Some(first_side), Some(rules))?;
    replay_each(start, history, |c, a| c.apply(a))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dc_calling_replay, m)?)?;
    Ok(())
}
