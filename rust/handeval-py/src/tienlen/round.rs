//! Rounds: replaying a round's actions, what a seat may do, the chop payments (压牌).

use super::args::rules_from;
use super::instant::FirstLead;
use super::plays::{set_from, TienlenPlay};
use crate::conv::{bad, base_from, cards_from, given, int_from, opt, to_py, type_name, IntoPyResult};
use crate::native_class;
use crate::result::Cards;
use handeval_core::cards::Card;
use handeval_core::tienlen::{self as tl, Action, RoundState as CoreRound, Transfer};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

// ---- rounds ----

pub(super) fn usize_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<usize> {
    tl::rules::seat_number(int_from(obj, field)?, field).py()
}

pub(super) fn players_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match given(obj) {
        Some(o) => {
            let v = int_from(o, "players")?;
            tl::rules::players_arg(v).py()
        }
        _ => Ok(tl::rules::MAX_PLAYERS),
    }
}

pub(super) fn action_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Action> {
    if let Ok(s) = obj.cast::<PyString>() {
        if s.to_cow().map(|s| s.trim().eq_ignore_ascii_case("pass")).unwrap_or(false) {
            return Ok(Action::Pass);
        }
    }
    let cards = set_from(obj, field)?;
    if cards.is_empty() {
        return Err(crate::conv::bad_as(field, "an empty play: write \"pass\" to pass", handeval_core::Reason::NotAPlay));
    }
    Ok(Action::Play(cards))
}

/// One action `(seat, cards | "pass")` (of a round or a game), its parts named
/// `field.seat` / `field.cards`.
pub(super) fn game_action(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<(usize, Action)> {
    let ok = (obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) && obj.len()? == 2;
    if !ok {
        return Err(bad(field, "expected (seat, \"cards\" or \"pass\")"));
    }
    let seat = usize_from(&obj.get_item(0)?, &format!("{field}.seat"))?;
    Ok((seat, action_from(&obj.get_item(1)?, &format!("{field}.cards"))?))
}

/// `[[seat, "cards" | "pass"], ...]`, items named `field[i]` (their parts
/// `field[i].seat`, `field[i].cards`). A list longer than a whole game's record
/// ([`tl::MAX_ACTIONS`]) is refused before any item is read.
pub(super) fn round_named(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<(usize, Action)>> {
    if let Ok(n) = obj.len() {
        handeval_core::cards::check_record_len(n, field).py()?;
    }
    crate::game_common::actions_from(obj, field, game_action)
}

/// The leader and the card the first play must contain, from `leader` and `first_lead`.
pub(super) fn first_from(
    leader: Option<&Bound<'_, PyAny>>,
    first_lead: Option<&Bound<'_, PyAny>>,
) -> PyResult<(Option<usize>, Option<Card>)> {
    let leader = opt(leader, |l| usize_from(l, "leader"))?;
    let Some(fl) = given(first_lead) else { return Ok((leader, None)) };
    let fl = fl
        .cast::<FirstLead>()
        .map_err(|_| bad("first_lead", format!("expected a FirstLead from first_leader(), got {}", type_name(fl))))?
        .get();
    let card = handeval_core::cards::parse_card(&fl.card).map_err(|e| to_py(e.within("first_lead.card")))?;
    let (leader, must) = tl::first_round(leader, (fl.seat, card), fl.must_contain).py()?;
    Ok((Some(leader), must))
}

pub(super) fn replay(
    round: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    first_lead: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<CoreRound> {
    let rules = rules_from(rules)?;
    let actions = round_named(round, "round")?;
    let players = players_from(players)?;
    let (leader, must) = first_from(leader, first_lead)?;
    CoreRound::replay(players, leader, must, &actions, &rules).py()
}

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// A round after the actions given (RULES 2.4).
    pub struct RoundState {
        /// `[(seat, Play)]` in order; the last one is on the table.
        pub plays: Vec<(usize, TienlenPlay)>,
        /// The seats that have passed (they may still chop with a special).
        pub passed: Vec<usize>,
        /// Whose turn it is; `None` once the round is over.
        pub to_move: Option<usize>,
        /// Whether everyone else passed on the last play.
        pub over: bool,
        /// When over: the seat that leads the next round.
        pub next_leader: Option<usize>,
        /// The seat that led the round.
        pub leader: usize,
    }
    impl {
        /// The play on the table (the last one), or None.
        #[getter]
        fn table(&self) -> Option<TienlenPlay> {
            self.plays.last().map(|(_, p)| p.clone())
        }
    }
}

/// Replay a round ``[[seat, cards | "pass"], ...]`` and return its state. An illegal
/// action raises a HandevalError naming it (``round[i]``) and why. ``leader`` defaults to
/// the first action's seat; pass ``first_lead`` (from :func:`first_leader`) for the
/// game's first round. ``rules``: ``turn_after_chop`` decides who moves after a chop.
#[pyfunction]
#[pyo3(signature = (round, players=None, leader=None, first_lead=None, rules=None))]
pub(super) fn tl_round_state(
    round: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    first_lead: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<RoundState> {
    let st = replay(round, players, leader, first_lead, rules)?;
    Ok(RoundState {
        plays: st.plays.iter().map(|(s, p)| (*s, TienlenPlay { core: p.clone() })).collect(),
        passed: (0..st.players).filter(|&s| st.passed[s]).collect(),
        to_move: st.to_move,
        over: st.is_over(),
        next_leader: st.next_leader(),
        leader: st.leader,
    })
}

/// None when ``seat`` may make ``action`` (cards or ``"pass"``) now, after ``round``;
/// otherwise the reason it may not. Bad input (a set that is not a play, a seat not in
/// the game, a card already played) raises a HandevalError.
#[pyfunction]
#[pyo3(signature = (round, seat, action, players=None, leader=None, first_lead=None, rules=None))]
pub(super) fn tl_check_action(
    round: &Bound<'_, PyAny>,
    seat: &Bound<'_, PyAny>,
    action: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    first_lead: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    check_named(round, seat, action, "action", players, leader, first_lead, rules)
}

/// `check_action` with the action read from the parameter `field`, so that an error names
/// the parameter the caller actually passed (`may_play` calls it `cards`).
pub(super) fn check_named(
    round: &Bound<'_, PyAny>,
    seat: &Bound<'_, PyAny>,
    action: &Bound<'_, PyAny>,
    field: &str,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    first_lead: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<String>> {
    let st = replay(round, players, leader, first_lead, rules)?;
    let seat = usize_from(seat, "seat")?;
    let action = action_from(action, field)?;
    Ok(st.check(seat, &action).py()?.err())
}

/// Whether ``seat`` may play ``cards`` now: in turn and beating the table (or leading),
/// or, after passing, only a special that chops the table.
#[pyfunction]
#[pyo3(signature = (round, seat, cards, players=None, leader=None, first_lead=None, rules=None))]
pub(super) fn tl_may_play(
    round: &Bound<'_, PyAny>,
    seat: &Bound<'_, PyAny>,
    cards: &Bound<'_, PyAny>,
    players: Option<&Bound<'_, PyAny>>,
    leader: Option<&Bound<'_, PyAny>>,
    first_lead: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    Ok(check_named(round, seat, cards, "cards", players, leader, first_lead, rules)?.is_none())
}

pub(super) fn transfer_dict<'py>(py: Python<'py>, t: &Transfer) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item(pyo3::intern!(py, "from"), t.from)?;
    d.set_item(pyo3::intern!(py, "to"), t.to)?;
    d.set_item(pyo3::intern!(py, "amount"), t.amount)?;
    Ok(d)
}

/// The 压牌 chop payment of one round (RULES 2.6): ``[]`` or
/// ``[{"from": seat, "to": seat, "amount": int}]`` — the seat beaten last pays ``base ×``
/// the multipliers of the chain's specials to the seat of the last special. The round is
/// validated first.
#[pyfunction]
#[pyo3(signature = (round, base=None, players=None, leader=None, rules=None))]
pub(super) fn tl_chop_transfers<'py>(
    py: Python<'py>,
    round: &Bound<'py, PyAny>,
    base: Option<&Bound<'py, PyAny>>,
    players: Option<&Bound<'py, PyAny>>,
    leader: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let rules = rules_from(rules)?;
    let actions = round_named(round, "round")?;
    let base = base_from(base)?;
    let players = players_from(players)?;
    let leader = opt(leader, |l| usize_from(l, "leader"))?;
    tl::chop_transfers(players, leader, &actions, base, &rules).py()?.iter().map(|t| transfer_dict(py, t)).collect()
}

/// The disjoint 炸弹 / 3连对 / 4连对 groups of a hand with the largest total multiplier,
/// and that total (2s are never grouped).
#[pyfunction]
pub(super) fn tl_special_groups(cards: &Bound<'_, PyAny>) -> PyResult<(Vec<(&'static str, Cards)>, i64)> {
    let cards = cards_from(cards, "cards")?;
    tl::rules::check_hand_at_most(cards.len(), "cards").py()?;
    let (groups, total) = tl::special_groups(&cards);
    Ok((groups.into_iter().map(|g| (g.kind.name(), Cards(g.cards))).collect(), total))
}
