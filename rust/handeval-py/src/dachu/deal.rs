//! The 打儲 deal and its declarations (RULES 3.5): the `Deal` state class.

use super::args::{action_parts, arity, chu_from, opt_seat, replay_each, rules_from, rules_py, seat_from};
use super::calling::{side_from, CallingOrigin, DachuCalling};
use crate::conv::{bad, cards_from, given, list_from, IntoPyResult};
use crate::game_common::{card_lists, replay_reduce};
use crate::native_class;
use crate::result::{card_list, card_str, Cards};
use handeval_core::dachu::deal::{Deal as CoreDeal, DealAction};
use handeval_core::dachu::DealEntry;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

/// A deal action as the core's record holds it: a 撐儲 without its colour is resolved by
/// the deal it is applied to ([`DealEntry::resolve`]).
pub(super) fn deal_entry(action: &Bound<'_, PyAny>) -> PyResult<DealEntry> {
    let (name, rest) = action_parts(action)?;
    let action = match name.as_str() {
        "deal" | "finish" => {
            arity(&name, &rest, 0, 0)?;
            if name == "deal" {
                DealAction::Deal
            } else {
                DealAction::Finish
            }
        }
        "meng_xuan" | "meng_chuai" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let cards = cards_from(&rest[1], "action.cards")?;
            let action = if name == "meng_xuan" { DealAction::meng_xuan_of(seat, &cards) } else { DealAction::meng_chuai_of(seat, &cards) };
            action.map_err(|e| e.within("action")).py()?
        }
        "cheng_chu" => {
            arity(&name, &rest, 1, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let chu = given(rest.get(1)).map(chu_from).transpose()?;
            return Ok(DealEntry::ChengChu { seat, chu });
        }
        other => return Err(bad("action", format!("unknown deal action {other:?} (deal, meng_xuan, meng_chuai, cheng_chu, finish)"))),
    };
    Ok(DealEntry::Action(action))
}

fn deal_action_py<'py>(py: Python<'py>, a: &DealAction) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        DealAction::Deal | DealAction::Finish => (a.name(),).into_pyobject(py)?,
        DealAction::MengXuan { seat, card } => (a.name(), *seat, card_str(py, *card)).into_pyobject(py)?,
        DealAction::MengChuai { seat, cards } => (a.name(), *seat, card_list(py, cards)?).into_pyobject(py)?,
        DealAction::ChengChu { seat, chu } => (a.name(), *seat, chu.as_str()).into_pyobject(py)?,
    })
}

/// The hands, in dealing order.
pub(super) fn hands_py<'py>(py: Python<'py>, d: &CoreDeal) -> PyResult<Vec<Bound<'py, PyList>>> {
    card_lists(py, d.hands())
}

/// A deal's record as :func:`dc_deal_replay` takes it: hands, first seat, rules, actions.
pub(super) type DealRecord<'py> = (Vec<Bound<'py, PyList>>, usize, Bound<'py, super::args::DachuRules>, Vec<Bound<'py, PyTuple>>);

pub(super) fn deal_record<'py>(py: Python<'py>, d: &CoreDeal) -> PyResult<DealRecord<'py>> {
    let history = d.history.iter().map(|a| deal_action_py(py, a)).collect::<PyResult<_>>()?;
    Ok((hands_py(py, d)?, d.first_seat, rules_py(py, d.rules())?, history))
}

native_class! {
    state inner, repr [dealt, chu, multiplier, finished];
    #[pyclass(module = "handeval.dachu", name = "Deal")]
    /// The deal and its declarations (RULES 3.5) as an immutable state machine.
    ///
    /// ``Deal(hands, first_seat=0, rules=None)``: ``hands[seat]`` are that seat's 13 cards in
    /// dealing order; dealing starts at ``first_seat`` (so the last card dealt, turned up by
    /// 平宣, is the 13th card of the seat before it). ``("deal",)`` gives every player one
    /// more card (1 … 8, then 9–13 at once); 夢宣 is open while they hold 1–5 cards, 夢踹
    /// while 5–8, 撐儲 after 13; ``("finish",)`` ends the deal (平宣 if no colour is fixed).
    /// Anyone may declare, so :attr:`turn` is always None. ``apply(action)`` returns the
    /// next state; states compare by value, hash, pickle (by replaying their history) and
    /// have ``to_dict()``.
    pub struct DachuDeal {
        pub(crate) inner: CoreDeal,
    }
    fields {
        fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
            hands_py(py, &self.inner)
        }
        fn first_seat(&self) -> usize {
            self.inner.first_seat
        }
        /// Cards each player holds: 0 … 8, then 13.
        fn dealt(&self) -> u8 {
            self.inner.dealt
        }
        fn finished(&self) -> bool {
            self.inner.finished
        }
        /// ×2 per 夢宣, 夢踹 and 撐儲.
        fn multiplier(&self) -> i64 {
            self.inner.multiplier
        }
        /// "red", "black", or None until fixed.
        fn chu(&self) -> Option<&'static str> {
            self.inner.chu.map(|c| c.as_str())
        }
        /// "meng_xuan", "cheng_chu", "ping_xuan" or None.
        fn chu_source(&self) -> Option<&'static str> {
            self.inner.chu_source.map(|c| c.as_str())
        }
        /// Seats holding a 儲A, once finished.
        fn chu_side(&self) -> Option<Vec<usize>> {
            self.inner.chu_side()
        }
        /// "1v3" or "2v2" once finished.
        fn teams(&self) -> Option<&'static str> {
            self.inner.chu_side().map(|s| if s.len() == 1 { "1v3" } else { "2v2" })
        }
        /// Per seat: the ace revealed by 夢宣, or None.
        fn meng_xuan<'py>(&self, py: Python<'py>) -> Vec<Option<Bound<'py, PyString>>> {
            self.inner.meng_xuan.iter().map(|c| c.map(|c| card_str(py, c))).collect()
        }
        /// Per seat: the triple shown by 夢踹, or None.
        fn meng_chuai(&self) -> Vec<Option<Cards>> {
            self.inner.meng_chuai.iter().map(|c| c.map(|c| Cards(c.to_vec()))).collect()
        }
        /// Per seat: made 撐儲.
        fn cheng_chu(&self) -> Vec<bool> {
            self.inner.cheng_chu.to_vec()
        }
        /// The actions applied so far.
        fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
            self.inner.history.iter().map(|a| deal_action_py(py, a)).collect()
        }
    }
    impl {
        #[new]
        #[pyo3(signature = (hands, first_seat=None, rules=None))]
        pub(super) fn new(hands: &Bound<'_, PyAny>, first_seat: Option<&Bound<'_, PyAny>>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            let rules = rules_from(rules)?;
            let hands = list_from(hands, "hands", cards_from)?;
            let first = opt_seat(first_seat, "first_seat")?.unwrap_or(0);
            Ok(DachuDeal { inner: CoreDeal::new(hands, first, rules).py()? })
        }

        /// 托管 for a declaration: what ``seat`` (required: the deal has no turn) should
        /// declare now, from its own cards and the public declarations, in ``apply``'s
        /// shape, or None: declare nothing (docs/suggest.md).
        #[pyo3(signature = (seat=None, *, seed=None, effort=None))]
        fn suggest<'py>(&self, py: Python<'py>, seat: Option<&Bound<'py, PyAny>>, seed: Option<&Bound<'py, PyAny>>, effort: Option<&Bound<'py, PyAny>>) -> PyResult<Option<Bound<'py, PyTuple>>> {
            let (seat, seed, effort) = crate::game_common::suggest_args(seat, seed, effort)?;
            let Some(seat) = seat else { return Err(bad("seat", "the deal has no turn: name the seat that may declare")) };
            let view = handeval_core::dachu::suggest::DealView::new(&self.inner, seat).py()?;
            let s = handeval_core::dachu::suggest::suggest_deal(&view, seed, effort).py()?;
            s.action.as_ref().map(|a| deal_action_py(py, a)).transpose()
        }

        /// The deal as seat ``seat`` sees it, as a dict (docs/grpc.md "Seat views"): the
        /// core's view converted: the fields of ``to_dict()`` with ``hands`` and ``held`` the
        /// viewer's cards dealt so far (the others None), ``legal_actions`` the viewer's own
        /// declarations, ``last_card`` only once 平宣 turned it up (else ""),
        /// ``first_leader`` only when the viewer holds the 3♥ (else None), plus ``viewer``.
        fn view<'py>(slf: &Bound<'py, Self>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
            use handeval_core::dachu::view::{DealView, Sight};
            let py = slf.py();
            let me = slf.get();
            let v = super::args::view_seat(seat)?;
            let dv = DealView::new(&me.inner, &Sight::new(&me.inner, None, Some(v)).py()?, false);
            let d = Self::to_dict(slf)?;
            let held = dv.held.iter().map(|h| h.as_ref().map(|h| card_list(py, h)).transpose()).collect::<PyResult<Vec<_>>>()?;
            d.set_item("hands", held.clone())?;
            d.set_item("held", held)?;
            // As to_dict() writes tuples: as lists.
            d.set_item("legal_actions", dv.legal_actions.iter().map(|a| Ok(deal_action_py(py, a)?.to_list())).collect::<PyResult<Vec<_>>>()?)?;
            d.set_item("last_card", dv.last_card.map_or(PyString::new(py, ""), |c| card_str(py, c)))?;
            d.set_item("first_leader", dv.first_leader)?;
            d.set_item("viewer", v)?;
            Ok(d)
        }

        /// Every declaration ``seat`` may make now, ready to ``apply`` as it is; each may be
        /// made beside the other seats' (the table's ``("deal",)`` and ``("finish",)`` are
        /// not a seat's).
        fn offers<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
            let v = super::args::view_seat(seat)?;
            let offers = handeval_core::dachu::view::deal_offers(&self.inner, v);
            offers.iter().filter_map(|o| match &o.action { handeval_core::dachu::view::Action::Deal(a) => Some(deal_action_py(py, a)), _ => None }).collect()
        }

        /// The next state; an illegal action is a HandevalError saying why.
        pub(super) fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuDeal> {
            let a = deal_entry(action)?.resolve(&self.inner).map_err(super::args::in_action).py()?;
            Ok(DachuDeal { inner: self.inner.apply(&a).map_err(super::args::in_action).py()? })
        }

        /// Always None: declarations are open to every player.
        #[getter]
        fn turn(&self) -> Option<usize> {
            None
        }
        /// Every action allowed now.
        #[getter]
        fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
            self.inner.legal_actions().iter().map(|a| deal_action_py(py, a)).collect()
        }
        /// A 夢宣 or 撐儲 happened (the 儲方 calls first).
        #[getter]
        fn declared(&self) -> bool {
            self.inner.declared()
        }
        /// Each seat's cards dealt so far.
        #[getter]
        fn held<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
            card_lists(py, (0..4).map(|s| self.inner.held(s)))
        }
        /// The last card dealt (平宣 turns it up), once every card is dealt; "" before.
        #[getter]
        fn last_card<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            match self.inner.dealt_last_card() {
                Some(c) => card_str(py, c),
                None => PyString::new(py, ""),
            }
        }
        /// The seat holding 3♥.
        #[getter]
        fn first_leader(&self) -> usize {
            self.inner.first_leader()
        }

        /// The calling that follows this finished deal, with its teams and multiplier. Each
        /// side is asked in seat order from ``start_seat`` (default: the seat dealt to
        /// first); ``first_side`` ``"chu"``/``"other"`` overrides who calls first.
        #[pyo3(signature = (start_seat=None, first_side=None))]
        pub(super) fn calling(&self, start_seat: Option<&Bound<'_, PyAny>>, first_side: Option<&Bound<'_, PyAny>>) -> PyResult<DachuCalling> {
            let start = opt_seat(start_seat, "start_seat")?;
            let first = side_from(first_side)?;
            let inner = self.inner.calling(start, first).py()?;
            Ok(DachuCalling { inner, origin: CallingOrigin::of(&self.inner, start, first) })
        }

        /// Pickled as its start and history: `dc_deal_replay(hands, first_seat, rules, history)`.
        fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            replay_reduce(py, "dc_deal_replay", deal_record(py, &self.inner)?)
        }
    }
}

/// Rebuilds a pickled `Deal`: the new deal with `history` applied.
#[pyfunction]
fn dc_deal_replay(
    hands: &Bound<'_, PyAny>,
    first_seat: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    history: &Bound<'_, PyAny>,
) -> PyResult<DachuDeal> {
    let start = DachuDeal::new(hands, Some(first_seat), Some(rules))?;
    replay_each(start, history, |d, a| d.apply(a))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dc_deal_replay, m)?)?;
    Ok(())
}
