//! The play of a 打儲 game (RULES 3.4, 3.4a) and the whole record: the `Game` state class
//! and `replay_game`.

use super::args::{action_parts, arity, each_entry, opt_seat, rules_from, seat_from, seats_from};
use super::calling::{call_from, calls_py, side_from, CallingOrigin, DachuCalling};
use super::deal::{deal_entry, deal_record, DachuDeal};
use super::play::{set_from, DachuPlay};
use super::settle::{settlement, Settlement};
use crate::conv::{bad, base_from, cards_from, carried_from, list_from, to_py, IntoPyResult};
use crate::game_common::{card_lists, replay_reduce};
use crate::native_class;
use crate::result::{card_list, Cards};
use handeval_core::dachu::calling::{side_name, Call};
use handeval_core::dachu::deal::Deal as CoreDeal;
use handeval_core::dachu::{self as dc, PlayAction};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

/// One action of the play: `("play", seat, cards)`, `("pass", seat)`, `("timeout", seat)`
/// or `("timeout", seat, columns)` (the hand as the client shows it, columns left to right).
fn play_action(action: &Bound<'_, PyAny>) -> PyResult<PlayAction> {
    let (name, rest) = action_parts(action)?;
    match name.as_str() {
        "play" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let cards = set_from(&rest[1], "action.cards")?;
            Ok(PlayAction::Play { seat, cards })
        }
        "pass" => {
            arity(&name, &rest, 1, 1)?;
            Ok(PlayAction::Pass { seat: seat_from(&rest[0], "action.seat")? })
        }
        "timeout" => {
            arity(&name, &rest, 1, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let columns = match rest.get(1) {
                None => None,
                Some(cols) => {
                    crate::conv::check_list(cols, "action.columns")?;
                    let cols: Vec<Bound<'_, PyAny>> = cols.try_iter()?.collect::<PyResult<_>>()?;
                    Some(cols.iter().enumerate().map(|(i, c)| set_from(c, &format!("action.columns[{i}]"))).collect::<PyResult<Vec<_>>>()?)
                }
            };
            Ok(PlayAction::Timeout { seat, columns })
        }
        other => Err(bad("action.name", format!("unknown play action {other:?} (play, pass, timeout)"))),
    }
}

fn play_action_py<'py>(py: Python<'py>, a: &PlayAction) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        PlayAction::Play { seat, cards } => (a.name(), *seat, card_list(py, cards)?).into_pyobject(py)?,
        PlayAction::Pass { seat } | PlayAction::Timeout { seat, columns: None } => (a.name(), *seat).into_pyobject(py)?,
        PlayAction::Timeout { seat, columns: Some(cols) } => {
            let cols = cols.iter().map(|c| card_list(py, c)).collect::<PyResult<Vec<_>>>()?;
            (a.name(), *seat, cols).into_pyobject(py)?
        }
    })
}

/// What pickling needs of the calling: where it started and its calls.
#[derive(Clone, Debug)]
pub(crate) struct DachuCallingParts {
    pub(crate) origin: CallingOrigin,
    pub(crate) history: Vec<(usize, Call)>,
}

native_class! {
    state inner, repr [turn, places, over];
    #[pyclass(module = "handeval.dachu", name = "Game")]
    /// The play of a 打儲 game (RULES 3.4, 3.4a) as an immutable state machine.
    ///
    /// ``Game(deal, calling)``: from a finished :class:`Deal` and the finished
    /// :class:`Calling` made from it. ``apply(action)`` with ``("play", seat, cards)``,
    /// ``("pass", seat)`` or ``("timeout", seat)`` returns the next state or raises a
    /// HandevalError whose ``reason`` says why. ``settle(*, base=1, escaped=(), carried=None)``
    /// settles from the record. States compare by value, hash, pickle (by replaying the whole
    /// record) and have ``to_dict()``.
    pub struct DachuGame {
        pub(crate) inner: dc::game::Game,
        pub(crate) deal: CoreDeal,
        pub(crate) calling: DachuCallingParts,
    }
    fields {
        fn chu(&self) -> &'static str {
            self.inner.chu.as_str()
        }
        fn chu_side(&self) -> Vec<usize> {
            self.inner.chu_side.clone()
        }
        fn multiplier(&self) -> i64 {
            self.inner.multiplier
        }
        /// Seats that play the cards (not 繳, not 被包打).
        fn playing(&self) -> Vec<usize> {
            (0..4).filter(|&s| self.inner.playing[s]).collect()
        }
        fn surrendered(&self) -> Vec<usize> {
            self.inner.surrendered.clone()
        }
        fn bei_bao_da(&self) -> Vec<usize> {
            self.inner.bei_bao_da.clone()
        }
        /// Per seat: the triple shown by 夢踹, or None.
        fn shown_triples(&self) -> Vec<Option<Cards>> {
            self.inner.shown.iter().map(|c| c.map(|c| Cards(c.to_vec()))).collect()
        }
        /// The dealt hands, in dealing order.
        fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
            card_lists(py, self.inner.hands())
        }
        /// Cards left per seat, in dealing order.
        fn held<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
            card_lists(py, (0..4).map(|s| self.inner.held(s)))
        }
        /// The seat whose 3♥ was played out for it (it does not play), or None.
        fn auto_lead(&self) -> Option<usize> {
            self.inner.auto_lead
        }
        /// The seat to move; None once over.
        fn turn(&self) -> Option<usize> {
            self.inner.turn
        }
        /// Who led the current trick.
        fn leader(&self) -> Option<usize> {
            self.inner.leader
        }
        /// The play to beat, or None on a lead.
        fn table(&self) -> PyResult<Option<DachuPlay>> {
            Ok(self.inner.table.as_ref().map(|(_, cards, core)| DachuPlay { core: *core, cards: cards.clone() }))
        }
        fn table_seat(&self) -> Option<usize> {
            self.inner.table.as_ref().map(|t| t.0)
        }
        /// Seats that passed since the last play.
        fn passed(&self) -> Vec<usize> {
            self.inner.passed_seats()
        }
        /// Every play the seat to move may make, weakest first.
        fn legal_plays(&self, py: Python<'_>) -> Vec<DachuPlay> {
            py.detach(|| self.inner.legal_plays()).into_iter().map(DachuPlay::from).collect()
        }
        fn may_pass(&self) -> bool {
            self.inner.may_pass()
        }
        /// Every action allowed now, as tuples.
        fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
            let Some(seat) = self.inner.turn else { return Ok(Vec::new()) };
            let mut out: Vec<PlayAction> = py.detach(|| self.inner.legal_plays()).into_iter().map(|p| PlayAction::Play { seat, cards: p.cards }).collect();
            if self.inner.may_pass() {
                out.push(PlayAction::Pass { seat });
            }
            out.iter().map(|a| play_action_py(py, a)).collect()
        }
        /// The finishing order so far.
        fn places(&self) -> Vec<usize> {
            self.inner.places.clone()
        }
        fn over(&self) -> bool {
            self.inner.is_over()
        }
        /// The 儲方's result ("win", "draw", "loss") once no finishing order can change it;
        /// "surrender" when a whole side surrendered; else None.
        fn decided(&self) -> Option<&'static str> {
            if self.inner.surrender {
                return Some("surrender");
            }
            self.inner.decided().map(|(v, _)| v.as_str())
        }
        /// 全殲, once decided.
        fn wipe_out(&self) -> Option<bool> {
            self.inner.decided().map(|(_, w)| w)
        }
        /// The actions applied (a timeout as the play or pass it became).
        fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
            self.inner.history.iter().map(|a| play_action_py(py, a)).collect()
        }
        /// ``[(index, became)]``: each timeout of the record (RULES 3.7), in order:
        /// ``history[index]``, the play or pass it became (``became``).
        fn timeouts<'py>(&self, py: Python<'py>) -> PyResult<Vec<(usize, Bound<'py, PyTuple>)>> {
            self.inner.timeouts.iter().map(|(k, _)| Ok((*k, play_action_py(py, &self.inner.history[*k])?))).collect()
        }
        /// ``[(leader, first_action, last_action, over, won_by)]``: each trick so far, the
        /// current one last; it holds ``history[first_action:last_action + 1]``; ``leader``
        /// led it (the first trick after an automatic 3♥ lead: that 3♥'s holder). ``over``:
        /// everyone else still playing passed on its last play (not set for the trick in which
        /// the game ends); ``won_by``: then, that play's seat.
        fn tricks(&self) -> Vec<(usize, usize, usize, bool, Option<usize>)> {
            self.inner.tricks.iter().map(|t| (t.leader, t.first_action, t.last_action, t.over, t.won_by)).collect()
        }
    }
    impl {
        #[new]
        fn new(deal: &Bound<'_, PyAny>, calling: &Bound<'_, PyAny>) -> PyResult<Self> {
            let deal = deal.cast::<DachuDeal>().map_err(|_| bad("deal", format!("expected a dachu.Deal, got {}", crate::conv::type_name(deal))))?;
            let calling = calling.cast::<DachuCalling>().map_err(|_| bad("calling", format!("expected a dachu.Calling, got {}", crate::conv::type_name(calling))))?;
            game_from(deal.get(), calling.get())
        }

        /// The next state; an action the record does not allow raises (``.reason`` says why).
        fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuGame> {
            let a = play_action(action)?;
            let inner = self.inner.apply(&a).map_err(super::args::in_action).py()?;
            Ok(DachuGame { inner, deal: self.deal.clone(), calling: self.calling.clone() })
        }

        /// 托管: the action a strong player would make for ``seat`` (default: the seat to
        /// move), from that seat's information only (docs/suggest.md), in ``apply``'s shape.
        /// Deterministic for (record, seat, seed, effort); ``effort`` 0 (the default) is the
        /// fast heuristic, n > 0 plays its best candidates out in n sampled deals.
        #[pyo3(signature = (seat=None, *, seed=None, effort=None))]
        fn suggest<'py>(&self, py: Python<'py>, seat: Option<&Bound<'py, PyAny>>, seed: Option<&Bound<'py, PyAny>>, effort: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyTuple>> {
            let s = self.suggestion(py, seat, seed, effort)?;
            play_action_py(py, &s.action)
        }

        /// The choices ``suggest`` weighed, best first: ``[(action, score)]``.
        #[pyo3(signature = (seat=None, *, seed=None, effort=None))]
        fn suggestions<'py>(&self, py: Python<'py>, seat: Option<&Bound<'py, PyAny>>, seed: Option<&Bound<'py, PyAny>>, effort: Option<&Bound<'py, PyAny>>) -> PyResult<Vec<(Bound<'py, PyTuple>, f64)>> {
            let s = self.suggestion(py, seat, seed, effort)?;
            s.alternatives.iter().map(|a| Ok((play_action_py(py, &a.action)?, a.score))).collect()
        }

        /// The HandevalError ``apply(action)`` would raise (not raised), or None when allowed.
        fn check(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
            crate::game_common::check(py, self.apply(action))
        }

        /// The state as seat ``seat`` sees it, as a dict (docs/grpc.md "Seat views"): the
        /// core's view of the play converted: the fields of ``to_dict()`` with the others'
        /// ``hands`` and ``held`` None, the choices of the seat to move (``legal_plays``,
        /// ``legal_actions``, ``may_pass``) only on the viewer's turn, plus ``counts`` (cards
        /// left per seat) and ``viewer``.
        fn view<'py>(slf: &Bound<'py, Self>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
            let py = slf.py();
            let me = slf.get();
            let v = super::args::view_seat(seat)?;
            let sight = dc::view::Sight::new(&me.deal, Some(&me.inner), Some(v)).py()?;
            let pv = dc::view::PlayView::new(&me.inner, &sight);
            let d = Self::to_dict(slf)?;
            let seats = |c: &[Option<Vec<handeval_core::cards::Card>>]| c.iter().map(|h| h.as_ref().map(|h| card_list(py, h)).transpose()).collect::<PyResult<Vec<_>>>();
            d.set_item("hands", seats(&pv.hands)?)?;
            d.set_item("held", seats(&pv.held)?)?;
            // As to_dict() writes them: plays as dicts, actions as lists.
            let plays = pv.legal_plays.iter().cloned().map(|p| Bound::new(py, DachuPlay::from(p))?.call_method0("to_dict")).collect::<PyResult<Vec<_>>>()?;
            d.set_item("legal_plays", plays)?;
            let mut actions: Vec<PlayAction> = Vec::new();
            if let Some(t) = pv.turn {
                actions.extend(pv.legal_plays.iter().map(|p| PlayAction::Play { seat: t, cards: p.cards.clone() }));
                if pv.may_pass {
                    actions.push(PlayAction::Pass { seat: t });
                }
            }
            d.set_item("legal_actions", actions.iter().map(|a| Ok(play_action_py(py, a)?.to_list())).collect::<PyResult<Vec<_>>>()?)?;
            d.set_item("may_pass", pv.may_pass)?;
            d.set_item("counts", pv.counts)?;
            d.set_item("viewer", v)?;
            Ok(d)
        }

        /// Every action ``seat`` may send now, ready to ``apply`` as it is: the plays, the
        /// pass and ``("timeout", seat)`` of the seat to move; [] for another seat.
        fn offers<'py>(&self, py: Python<'py>, seat: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
            let v = super::args::view_seat(seat)?;
            let offers = py.detach(|| dc::view::play_offers(&self.inner, v));
            let out: Vec<PlayAction> = offers.into_iter().filter_map(|o| match o.action { dc::view::Action::Play(p) => Some(p), _ => None }).collect();
            out.iter().map(|a| play_action_py(py, a)).collect()
        }

        /// Settle from the record (RULES 3.7, then the cap): the places are derived (once
        /// decided, the players still holding cards follow in turn order); ``escaped``
        /// abandons the game.
        #[pyo3(signature = (*, base=None, escaped=None, carried=None))]
        fn settle(&self, base: Option<&Bound<'_, PyAny>>, escaped: Option<&Bound<'_, PyAny>>, carried: Option<&Bound<'_, PyAny>>) -> PyResult<Settlement> {
            let base = base_from(base)?;
            let escaped = seats_from(escaped, "escaped")?;
            let carried = carried_from(carried, "carried")?;
            Ok(settlement(self.inner.settle(base, &escaped, carried).py()?))
        }

        /// Pickled as the whole record: `dc_game_replay(hands, first_seat, rules,
        /// deal_actions, start_seat, first_side, calls, plays)`.
        fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            let (hands, first_seat, rules, deal_actions) = deal_record(py, &self.deal)?;
            let o = &self.calling.origin;
            let calls = calls_py(&self.calling.history);
            let plays = self.inner.record().iter().map(|a| play_action_py(py, a)).collect::<PyResult<Vec<_>>>()?;
            let args = (hands, first_seat, rules, deal_actions, o.start_seat, o.first_side.map(side_name), calls, plays);
            replay_reduce(py, "dc_game_replay", args)
        }
    }
}

fn game_from(deal: &DachuDeal, calling: &DachuCalling) -> PyResult<DachuGame> {
    let o = &calling.origin;
    let mut side = deal.inner.chu_side().unwrap_or_default();
    side.sort_unstable();
    let mut called = o.chu_side.clone();
    called.sort_unstable();
    if deal.inner.finished && (called != side || o.multiplier != deal.inner.multiplier || o.declared != deal.inner.declared()) {
        return Err(to_py(
            handeval_core::Error::field(
                "calling",
                "was not made from this deal (its 儲方, multiplier or declaration differ): use deal.calling()",
            )
            .because(handeval_core::Reason::Inconsistent),
        ));
    }
    let inner = dc::game::Game::new(&deal.inner, &calling.inner).py()?;
    Ok(DachuGame {
        inner,
        deal: deal.inner.clone(),
        calling: DachuCallingParts { origin: o.clone(), history: calling.inner.history.clone() },
    })
}

/// ``replay_game(hands, deal_actions, calls, plays, *, first_seat=0, start_seat=None,
/// first_side=None, rules=None) -> Game``: the deal, the calling and the play replayed in
/// one call; an error names ``deal_actions[i]``, ``calls[i]`` or ``plays[i]``.
impl DachuGame {
    fn suggestion(
        &self,
        py: Python<'_>,
        seat: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        effort: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<dc::suggest::Suggestion> {
        let (seat, seed, effort) = crate::game_common::suggest_args(seat, seed, effort)?;
        let seat = seat.or(self.inner.turn).unwrap_or(0);
        let view = dc::suggest::View::new(&self.inner, seat).py()?;
        py.detach(|| dc::suggest::suggest(&view, seed, effort)).py()
    }
}

#[pyfunction]
#[pyo3(signature = (hands, deal_actions, calls, plays, *, first_seat=None, start_seat=None, first_side=None, rules=None))]
fn dc_replay_game(
    hands: &Bound<'_, PyAny>,
    deal_actions: &Bound<'_, PyAny>,
    calls: &Bound<'_, PyAny>,
    plays: &Bound<'_, PyAny>,
    first_seat: Option<&Bound<'_, PyAny>>,
    start_seat: Option<&Bound<'_, PyAny>>,
    first_side: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<DachuGame> {
    // Bounds first, before any item is read: the most a legal game holds (the core's).
    for (&(field, max), obj) in dc::RECORD_BOUNDS.iter().zip([deal_actions, calls, plays]) {
        crate::conv::check_list(obj, field)?;
        dc::check_len(obj.len()?, field, max).map_err(to_py)?;
    }
    let rules = rules_from(rules)?;
    let hands = list_from(hands, "hands", cards_from)?;
    let first_seat = opt_seat(first_seat, "first_seat")?.unwrap_or(0);
    let start_seat_arg = start_seat;
    let calling_args = (|| Ok((opt_seat(start_seat_arg, "start_seat")?, side_from(first_side)?)))();
    let (start_seat, first_side) = calling_args.as_ref().map_or((None, None), |&(a, b)| (a, b));
    // Each entry read here, the replay and the choice among several errors by the core:
    // the first error the replay reaches (as over gRPC).
    let entries = dc::Entries {
        hands,
        first_seat,
        deal_actions: each_entry(deal_actions, "deal_actions", deal_entry)?,
        calling_args,
        calls: each_entry(calls, "calls", call_from)?,
        plays: each_entry(plays, "plays", play_action)?,
    };
    let dc::Replayed { deal, calling, game } = entries.replay(&rules, to_py)?;
    // A record that stops before the play is refused by the step it lacks (the calling
    // of an unfinished deal, the play of a surrender).
    let calling = match calling {
        Some(c) => c,
        None => deal.calling(start_seat, first_side).py()?,
    };
    let inner = match game {
        Some(g) => g,
        None => dc::game::Game::new(&deal, &calling).py()?,
    };
    let origin = CallingOrigin::of(&deal, start_seat, first_side);
    Ok(DachuGame { inner, deal, calling: DachuCallingParts { origin, history: calling.history } })
}

/// Rebuilds a pickled `Game` (positional form of :func:`dc_replay_game`).
#[pyfunction]
fn dc_game_replay(
    hands: &Bound<'_, PyAny>,
    first_seat: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    deal_actions: &Bound<'_, PyAny>,
    start_seat: &Bound<'_, PyAny>,
    first_side: &Bound<'_, PyAny>,
    calls: &Bound<'_, PyAny>,
    plays: &Bound<'_, PyAny>,
) -> PyResult<DachuGame> {
    dc_replay_game(hands, deal_actions, calls, plays, Some(first_seat), Some(start_seat), Some(first_side), Some(rules))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dc_replay_game, m)?)?;
    m.add_function(wrap_pyfunction!(dc_game_replay, m)?)?;
    Ok(())
}
