//! The whole game: `TienlenGame`, the state machine over a record.

use super::args::{rules_from, TienlenRules};
use super::plays::TienlenPlay;
use super::round::game_action;
use super::settle::{settlement, Settlement};
use crate::conv::{base_from, cards_from, carried_from, list_from, IntoPyResult};
use crate::game_common::{card_lists, replay_reduce};
use crate::native_class;
use crate::result::card_str;
use handeval_core::cards::Card;
use handeval_core::table::Acting;
use handeval_core::tienlen::{self as tl, play, Action};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

// ---- the whole game ----

pub(super) fn hands_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Card>>> {
    if let Ok(n) = obj.len() {
        if !obj.is_instance_of::<PyString>() {
            tl::check_hands_len(n).py()?;
        }
    }
    list_from(obj, "hands", cards_from)
}

native_class! {
    state inner, repr (|me| format!("Game({})", me.inner.describe()));
    #[pyclass(module = "handeval.tienlen", name = "Game")]
    /// A whole 越式13张 game as an immutable state machine (RULES 2.4–2.6).
    ///
    /// ``Game(hands, rules=None)``: the 13 dealt cards of each seat (2–4 seats). ``apply((seat,
    /// cards | "pass"))`` returns the next state or raises a HandevalError whose ``reason``
    /// says why (``not_your_turn``, ``card_not_in_hand``, ``not_a_play``, ``does_not_beat``,
    /// ``illegal_action``, ``game_over``); ``check(action)`` returns that error instead of
    /// raising it (None when allowed). ``settle(base=1, carried=None)`` settles the finished
    /// game from its record. States compare by value, hash, pickle (by replaying their
    /// history) and have ``to_dict()``.
    pub struct TienlenGame {
        inner: tl::Game,
    }
    fields {
        fn players(&self) -> usize {
            self.inner.players
        }
        /// The dealt hands, in the game's order.
        fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
            card_lists(py, self.inner.hands())
        }
        /// Cards left per seat, in the game's order.
        fn held<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
            card_lists(py, (0..self.inner.players).map(|s| self.inner.held(s)))
        }
        /// Whether each seat has played a card.
        fn played_any(&self) -> Vec<bool> {
            (0..self.inner.players).map(|s| self.inner.played_any(s)).collect()
        }
        /// ``[(seat, cards | "pass")]``: the actions applied.
        fn history(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
            self.inner.history.iter().map(|(s, a)| history_item(py, *s, a)).collect()
        }
        /// ``[(leader, first_action, last_action, over, won_by)]``: each round (trick) so far,
        /// the current one last; it holds ``history[first_action:last_action + 1]``. ``over``:
        /// everyone else passed on its last play (the round in which a seat goes out stays
        /// open); ``won_by``: then, that play's seat, who leads the next round.
        fn tricks(&self) -> Vec<(usize, usize, usize, bool, Option<usize>)> {
            self.inner.tricks.iter().map(|t| (t.leader, t.first_action, t.last_action, t.over, t.won_by)).collect()
        }
        /// The current round, 0 for the first.
        fn round(&self) -> usize {
            self.inner.round_no
        }
        /// Who led the current round (None after an instant win).
        fn leader(&self) -> Option<usize> {
            self.inner.instant.is_none().then_some(self.inner.current.leader)
        }
        /// The seat to move in turn; None once over.
        fn turn(&self) -> Option<usize> {
            self.inner.turn()
        }
        /// The play to beat, or None on a lead.
        fn table(&self) -> Option<TienlenPlay> {
            self.inner.table().map(|t| TienlenPlay { core: t.1.clone() })
        }
        fn table_seat(&self) -> Option<usize> {
            self.inner.table().map(|t| t.0)
        }
        /// Seats that passed in the current round.
        fn passed(&self) -> Vec<usize> {
            self.inner.passed()
        }
        /// The card the next play must contain (the first lead under the rule), or None.
        fn must_contain<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
            self.inner.must_contain().map(|c| card_str(py, c))
        }
        /// Every play the seat in turn may make, weakest first.
        fn legal_plays(&self, py: Python<'_>) -> Vec<TienlenPlay> {
            py.detach(|| self.inner.legal_plays()).into_iter().map(|core| TienlenPlay { core }).collect()
        }
        /// Whether the seat in turn may pass.
        fn may_pass(&self) -> bool {
            self.inner.may_pass()
        }
        /// ``[(seat, [Play])]``: passed seats that may chop the table now, out of turn.
        fn chop_offers(&self, py: Python<'_>) -> Vec<(usize, Vec<TienlenPlay>)> {
            py.detach(|| self.inner.chop_offers()).into_iter().map(|(s, ps)| (s, ps.into_iter().map(|core| TienlenPlay { core }).collect())).collect()
        }
        /// ``[(from, to, value)]``: each round's chop chain so far, paid ``base × value``.
        fn chops(&self) -> Vec<(usize, usize, i64)> {
            self.inner.chops.clone()
        }
        /// The first seat out, or the instant winner.
        fn winner(&self) -> Option<usize> {
            self.inner.winner
        }
        /// The instant win that ended the game at the deal, or None.
        fn instant(&self) -> Option<&'static str> {
            self.inner.instant.map(|k| k.name())
        }
        fn over(&self) -> bool {
            self.inner.is_over()
        }
    }
    impl {
        #[new]
        #[pyo3(signature = (hands, rules=None))]
        fn new(hands: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
            let rules = rules_from(rules)?;
            let hands = hands_from(hands)?;
            Ok(TienlenGame { inner: tl::Game::new(&hands, &rules).py()? })
        }

        /// The next state; an action the record does not allow raises (``.field`` names
        /// ``action``, ``action.seat`` or ``action.cards``; ``.reason`` says why).
        fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<TienlenGame> {
            let (seat, a) = game_action(action, "action")?;
            Ok(TienlenGame { inner: self.inner.apply(seat, &a).map_err(|e| e.within("action")).py()? })
        }

        /// The HandevalError ``apply(action)`` would raise (not raised), or None when allowed.
        fn check(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
            crate::game_common::check(py, self.apply(action))
        }

        /// The state as seat ``seat`` sees it, as a dict (docs/grpc.md "Seat views"; the
        /// core decides what a seat sees): the fields of ``to_dict()`` with the others'
        /// ``hands`` and ``held`` None, the viewer's own choices only (``legal_plays``,
        /// ``may_pass``, ``must_contain`` on its turn, its ``chop_offers`` after passing),
        /// plus ``counts`` (cards left per seat), ``viewer`` and ``offers``: every action the
        /// viewer may send now as ``[(action, acting)]``, ``action`` ready for ``apply``,
        /// ``acting`` ``"turn"`` (the table waits for it) or ``"may_act"`` (a chop beside
        /// the turn: not acting lets the chance go).
        fn view<'py>(slf: &Bound<'py, Self>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
            let me = slf.get();
            let v = me.inner.seat_from(crate::conv::int_from(seat, "seat")?, "seat").py()?;
            view_dict(slf.py(), &me.inner.view(v).py()?)
        }

        /// Settle the finished game from its record (RULES 2.6, the cap, the rake): cards
        /// left, plays, 2s, specials and chops are derived, an instant win settled as one.
        #[pyo3(signature = (base=None, carried=None))]
        fn settle(&self, base: Option<&Bound<'_, PyAny>>, carried: Option<&Bound<'_, PyAny>>) -> PyResult<Settlement> {
            let base = base_from(base)?;
            let carried = carried_from(carried, "carried")?;
            Ok(settlement(self.inner.settle(base, carried.as_deref()).py()?))
        }

        /// 托管: the action a strong player would make for ``seat`` (default: the seat in
        /// turn), from that seat's information only (docs/suggest.md): ``(seat, cards |
        /// "pass")`` for ``apply``, or None when ``seat`` is offered a chop out of turn and
        /// should let the play go on. Deterministic for (record, seat, seed, effort);
        /// ``effort`` 0 (the default) is the fast heuristic, n > 0 plays each of its best
        /// candidates out in n sampled deals of the unseen cards.
        #[pyo3(signature = (seat=None, *, seed=None, effort=None))]
        fn suggest(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>, seed: Option<&Bound<'_, PyAny>>, effort: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Py<PyAny>>> {
            let s = self.suggestion(py, seat, seed, effort)?;
            s.action.as_ref().map(|a| history_item(py, s.seat, a)).transpose()
        }

        /// The choices ``suggest`` weighed, best first: ``[(action | None, score)]`` (the
        /// score: the heuristic's, or with effort > 0 the mean money of the playouts at
        /// base 1).
        #[pyo3(signature = (seat=None, *, seed=None, effort=None))]
        fn suggestions(&self, py: Python<'_>, seat: Option<&Bound<'_, PyAny>>, seed: Option<&Bound<'_, PyAny>>, effort: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<(Option<Py<PyAny>>, f64)>> {
            let s = self.suggestion(py, seat, seed, effort)?;
            s.alternatives.iter().map(|a| Ok((a.action.as_ref().map(|x| history_item(py, s.seat, x)).transpose()?, a.score))).collect()
        }

        /// Pickled as ``tl_replay(hands, history, rules)``.
        fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
            let py = slf.py();
            let me = slf.get();
            let rules = Bound::new(py, TienlenRules { core: me.inner.rules().clone() })?;
            replay_reduce(py, "tl_replay", (me.hands(py)?, me.history(py)?, rules))
        }
    }
}

impl TienlenGame {
    fn suggestion(
        &self,
        py: Python<'_>,
        seat: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        effort: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<tl::suggest::Suggestion> {
        let (seat, seed, effort) = crate::game_common::suggest_args(seat, seed, effort)?;
        let seat = seat.or(self.inner.turn()).unwrap_or(0);
        let view = tl::suggest::View::new(&self.inner, seat).py()?;
        py.detach(|| tl::suggest::suggest(&view, seed, effort)).py()
    }
}

/// ``replay(hands, actions, rules=None) -> Game``: the game after ``actions`` (at most
/// 208); an error names ``actions[i]``.
#[pyfunction]
#[pyo3(signature = (hands, actions, rules=None))]
pub(super) fn tl_replay(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    actions: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<TienlenGame> {
    let rules = rules_from(rules)?;
    if let Ok(n) = actions.len() {
        handeval_core::cards::check_record_len(n, "actions").py()?;
    }
    let hands = hands_from(hands)?;
    let actions = crate::game_common::actions_from(actions, "actions", game_action)?;
    let inner = py.detach(|| tl::Game::replay(&hands, &actions, &rules)).py()?;
    Ok(TienlenGame { inner })
}

/// A core [`tl::SeatView`] as the dict `Game.view` answers: the keys of `to_dict()`, then
/// `counts`, `viewer`, `offers`, as plain data like `to_dict()`'s.
fn view_dict<'py>(py: Python<'py>, v: &tl::SeatView) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let out = PyDict::new(py);
    let cards = |c: &Option<Vec<Card>>| c.as_ref().map(|c| crate::result::card_list(py, c)).transpose();
    let groups = v.offer_groups();
    let plays = |acting: Acting| -> Vec<TienlenPlay> {
        groups.iter().filter(|g| g.acting == acting).flat_map(|g| g.plays.iter().map(|p| TienlenPlay { core: p.clone() })).collect()
    };
    d.set_item("players", v.players)?;
    d.set_item("hands", v.hands.iter().map(cards).collect::<PyResult<Vec<_>>>()?)?;
    d.set_item("held", v.held.iter().map(cards).collect::<PyResult<Vec<_>>>()?)?;
    d.set_item("played_any", v.played_any.clone())?;
    d.set_item("history", v.history.iter().map(|(s, a)| history_item(py, *s, a)).collect::<PyResult<Vec<_>>>()?)?;
    d.set_item("tricks", v.tricks.iter().map(|t| (t.leader, t.first_action, t.last_action, t.over, t.won_by)).collect::<Vec<_>>())?;
    d.set_item("round", v.round)?;
    d.set_item("leader", v.leader)?;
    d.set_item("turn", v.turn)?;
    d.set_item("table", v.table.as_ref().map(|t| TienlenPlay { core: t.1.clone() }))?;
    d.set_item("table_seat", v.table.as_ref().map(|t| t.0))?;
    d.set_item("passed", v.passed.clone())?;
    d.set_item("must_contain", v.must_contain.map(|c| card_str(py, c)))?;
    d.set_item("legal_plays", plays(Acting::Turn))?;
    d.set_item("may_pass", groups.iter().any(|g| g.acting == Acting::Turn && g.may_pass))?;
    let chops = plays(Acting::MayAct);
    d.set_item("chop_offers", if chops.is_empty() { vec![] } else { v.viewer.map(|s| (s, chops)).into_iter().collect() })?;
    d.set_item("chops", v.chops.clone())?;
    d.set_item("winner", v.winner)?;
    d.set_item("instant", v.instant.map(|k| k.name()))?;
    d.set_item("over", v.over)?;
    d.set_item("counts", v.counts.clone())?;
    d.set_item("viewer", v.viewer)?;
    let offers = v.offers.iter().map(|o| Ok((history_item(py, o.seat, &o.action)?, o.acting.as_str()))).collect::<PyResult<Vec<_>>>()?;
    d.set_item("offers", offers)?;
    for (k, value) in d.iter() {
        out.set_item(k, crate::result::plain(&value)?)?;
    }
    Ok(out)
}

pub(super) fn history_item(py: Python<'_>, seat: usize, a: &Action) -> PyResult<Py<PyAny>> {
    Ok(match a {
        Action::Pass => (seat, "pass").into_pyobject(py)?.into_any().unbind(),
        Action::Play(c) => (seat, crate::result::card_list(py, &play::sorted(c))?).into_pyobject(py)?.into_any().unbind(),
    })
}
