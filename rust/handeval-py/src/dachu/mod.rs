//! Binding of handeval_core::dachu (打儲): the native result, rule and state classes of
//! `handeval.dachu` and the functions that build them. Conversions only; the rules are
//! in the core.

pub mod wire;

use crate::conv::{bad, base_from, given, bool_from, cards_from, carried_from, int_from, list_from, to_py, IntoPyResult};
use crate::result::{self, add_class, card_list, many_items, Cards, NativeResult, Names};
use crate::native_rules;
use crate::rules::rules_arg;
use crate::{native_result, result_methods};
use handeval_core::cards::Card;
use handeval_core::dachu::calling::{side_name, Call, Calling as CoreCalling, Outcome, Stage};
use handeval_core::dachu::deal::{Deal as CoreDeal, DealAction};
use handeval_core::dachu::{self as dc, Chu, Constraints, Kind, PlayAction};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString, PyTuple};

// ---- Rules ----

handeval_core::dachu_rule_options!(native_rules! {
    /// House-rule options of 打儲 (docs/rules.md §3), keyword-only; an option not given
    /// is its default. Validated when constructed: a bad value is a HandevalError naming
    /// the option (``.field == "rules.<option>"``).
    pub struct DachuRules(core = dc::Rules, game = "dachu", module = "handeval.dachu");
});

fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<dc::Rules> {
    rules_arg::<DachuRules>(obj)
}

fn chu_from(obj: &Bound<'_, PyAny>) -> PyResult<Chu> {
    let s: String = obj.extract().map_err(|_| bad("chu", "must be \"red\" or \"black\""))?;
    Chu::parse(&s).py()
}

fn seat_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<usize> {
    let v = int_from(obj, field)?;
    if !(0..4).contains(&v) {
        return Err(bad(field, format!("unknown seat {v} (打儲 seats are 0..3)")));
    }
    Ok(v as usize)
}

fn seats_from(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Vec<usize>> {
    match given(obj) {
        Some(o) => list_from(o, field, seat_from),
        _ => Ok(Vec::new()),
    }
}

fn opt_cards(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<Vec<Card>>> {
    match given(obj) {
        Some(o) => set_from(o, field).map(Some),
        _ => Ok(None),
    }
}

// ---- Play ----

fn kind_names(py: Python<'_>, k: Kind) -> (Bound<'_, PyString>, Bound<'_, PyString>) {
    static NAMES: Names = Names::new();
    static NAMES_ZH: Names = Names::new();
    let all = |name: fn(Kind) -> &'static str| move || Kind::ALL.iter().map(|&k| name(k)).collect();
    (NAMES.get(py, k as usize, all(Kind::name)), NAMES_ZH.get(py, k as usize, all(Kind::name_zh)))
}

/// A classified play. ``Play(kind, kind_zh, cards, strength)`` checks that the cards make
/// that play under one of the 儲 colours (pickling rebuilds it so); :func:`classify` is
/// the usual way to get one.
#[pyclass(frozen, from_py_object, module = "handeval.dachu", name = "Play")]
#[derive(Clone, Debug)]
pub struct DachuPlay {
    core: dc::Play,
    cards: Vec<Card>,
}

result_methods!(DachuPlay, [kind, kind_zh, cards, strength] {
    #[new]
    #[pyo3(signature = (kind, kind_zh, cards, strength))]
    fn new(kind: &Bound<'_, PyAny>, kind_zh: &Bound<'_, PyAny>, cards: &Bound<'_, PyAny>, strength: &Bound<'_, PyAny>) -> PyResult<Self> {
        let cards = cards_from(cards, "cards")?;
        let py = kind.py();
        let mut first_err = None;
        for chu in [Chu::Red, Chu::Black] {
            let core = match dc::classify(&cards, chu, &dc::Rules::default()) {
                Ok(p) => p,
                Err(e) => {
                    first_err.get_or_insert(e);
                    continue;
                }
            };
            let p = DachuPlay { core, cards: cards.clone() };
            let me = Bound::new(py, p.clone())?;
            let mut mismatch = None;
            for (name, given) in [("kind", kind), ("kind_zh", kind_zh), ("strength", strength)] {
                let actual = me.as_any().getattr(name)?;
                if !actual.eq(given)? {
                    mismatch = Some((name, actual.repr()?.to_string(), given.repr()?.to_string()));
                    break;
                }
            }
            match mismatch {
                None => return Ok(p),
                Some((name, actual, given)) if chu == Chu::Black => {
                    return Err(bad(name, format!("{} makes {name} = {actual}, not {given}", handeval_core::cards::format_cards(&cards))));
                }
                Some(_) => {}
            }
        }
        Err(to_py(first_err.expect("a classification failed").within("cards")))
    }
    /// One of :data:`KINDS`.
    #[getter]
    fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        kind_names(py, self.core.kind).0
    }
    /// The kind's Chinese name, e.g. 獨儲.
    #[getter]
    fn kind_zh<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        kind_names(py, self.core.kind).1
    }
    /// The cards (from ``legal_plays``: in the game's order, weakest first).
    #[getter]
    fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        card_list(py, &self.cards)
    }
    /// Higher is stronger within a kind (and length, for straights).
    #[getter]
    fn strength(&self) -> u8 {
        self.core.strength
    }
    fn __len__(&self) -> usize {
        self.cards.len()
    }
});

/// Cards, or a `dachu.Play`'s cards (no parsing).
fn set_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    if let Ok(p) = obj.cast::<DachuPlay>() {
        return Ok(p.get().cards.clone());
    }
    cards_from(obj, field)
}

/// Classify ``cards`` as a play (RULES 3.2) with ``chu`` ``"red"`` or ``"black"`` the 儲
/// colour; a set that is not a play is a HandevalError saying why.
#[pyfunction]
#[pyo3(signature = (cards, chu, rules=None))]
fn dc_classify(cards: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<DachuPlay> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let cards = set_from(cards, "cards")?;
    Ok(DachuPlay { core: dc::classify(&cards, chu, &rules).map_err(|e| e.within("cards")).py()?, cards })
}

/// Whether ``play`` beats ``table`` (RULES 3.3). The two must not share a card.
#[pyfunction]
#[pyo3(signature = (play, table, chu, rules=None))]
fn dc_beats(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let (p, t) = (set_from(play, "play")?, set_from(table, "table")?);
    dc::beats(&p, &t, chu, &rules).py()
}

/// The two card sets of one ``(play, table)`` pair.
fn pair_from(x: &Bound<'_, PyAny>, f: &str) -> PyResult<(Vec<Card>, Vec<Card>)> {
    let items = list_from(x, f, set_from)?;
    match <[Vec<Card>; 2]>::try_from(items) {
        Ok([p, t]) => Ok((p, t)),
        Err(_) => Err(bad(f, "expected a (play, table) pair")),
    }
}

/// :func:`beats` for many ``(play, table)`` pairs in one call: per pair a bool, or the
/// HandevalError (not raised) naming ``pairs[i]``. Beating runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (pairs, chu, rules=None))]
fn dc_beats_many(py: Python<'_>, pairs: &Bound<'_, PyAny>, chu: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let parsed = list_from(pairs, "pairs", |x, f| Ok(pair_from(x, f)))?;
    many_items(py, parsed, |i, (p, t)| dc::beats(p, t, chu, &rules).map_err(|e| e.within(&format!("pairs[{i}]"))), |py, v| {
        Ok(PyBool::new(py, v).to_owned().into_any().unbind())
    })
}

/// An optional flag: None (or left out) is false.
fn flag(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<bool> {
    match given(obj) {
        Some(o) => bool_from(o, field),
        _ => Ok(false),
    }
}

fn constraints(first_lead: Option<&Bound<'_, PyAny>>, surrendered: Option<&Bound<'_, PyAny>>, shown: Option<&Bound<'_, PyAny>>) -> PyResult<Constraints> {
    Ok(Constraints {
        first_lead: flag(first_lead, "first_lead")?,
        surrendered: flag(surrendered, "surrendered")?,
        shown_triple: opt_cards(shown, "shown_triple")?.unwrap_or_default(),
    })
}

/// Every play ``hand`` may make now, weakest first (ordinary plays — singles, pairs,
/// straights by length — then triple bombs, quad bombs, 獨儲; by strength within a kind).
///
/// ``table``: the play to beat (cards or a ``Play``), or None to lead. ``first_lead``:
/// the deal's first play (must contain 3♥ unless the 3♥ is in a triple/quad bomb of the
/// hand). ``surrendered`` with ``first_lead``: the 繳 holder's 3♥ goes out as a single.
/// ``shown_triple``: the triple shown by 夢踹, which may only be played whole (or inside
/// its quad).
#[pyfunction]
#[pyo3(signature = (hand, table, chu, *, first_lead=None, surrendered=None, shown_triple=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn dc_legal_plays(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    chu: &Bound<'_, PyAny>,
    first_lead: Option<&Bound<'_, PyAny>>,
    surrendered: Option<&Bound<'_, PyAny>>,
    shown_triple: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<DachuPlay>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let hand = cards_from(hand, "hand")?;
    let table = opt_cards(table, "table")?;
    let cons = constraints(first_lead, surrendered, shown_triple)?;
    let plays = py.detach(|| dc::legal_plays(&hand, table.as_deref(), chu, &cons, &rules)).py()?;
    Ok(plays.into_iter().map(|p| DachuPlay { core: p.play, cards: p.cards }).collect())
}

/// A hand as the client shows it: a list of columns (each a list of cards, top first),
/// rightmost last; or one row of cards (text or a list of cards), whose runs of one rank
/// are the columns.
fn columns_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Card>>> {
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let items: Vec<Bound<'_, PyAny>> = obj.try_iter()?.collect::<PyResult<_>>()?;
        if items.first().is_some_and(|x| !x.is_instance_of::<PyString>()) {
            return items.iter().enumerate().map(|(i, col)| cards_from(col, &format!("hand[{i}]"))).collect();
        }
    }
    Ok(dc::columns_of(&cards_from(obj, "hand")?))
}

/// The play for a player out of time (RULES 3.7): the first card of the rightmost column
/// of the hand as the client shows it, skipping a column that holds the shown 夢踹
/// triple (or its quad); leading it is played as a single (on the first lead the 3♥),
/// following only when it beats the table, otherwise None (a pass).
#[pyfunction]
#[pyo3(signature = (hand, table, chu, *, first_lead=None, surrendered=None, shown_triple=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn dc_timeout_play(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    chu: &Bound<'_, PyAny>,
    first_lead: Option<&Bound<'_, PyAny>>,
    surrendered: Option<&Bound<'_, PyAny>>,
    shown_triple: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<Cards>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let columns = columns_from(hand)?;
    let table = opt_cards(table, "table")?;
    let cons = constraints(first_lead, surrendered, shown_triple)?;
    Ok(py.detach(|| dc::timeout_play(&columns, table.as_deref(), chu, &cons, &rules)).py()?.map(Cards))
}

// ---- the deal ----

/// An action tuple: its name and the rest of its items.
fn action_parts<'py>(action: &Bound<'py, PyAny>) -> PyResult<(String, Vec<Bound<'py, PyAny>>)> {
    if action.is_instance_of::<PyString>() {
        return Ok((action.extract().map_err(|_| bad("action", "is not valid text"))?, Vec::new()));
    }
    if !(action.is_instance_of::<PyTuple>() || action.is_instance_of::<PyList>()) {
        return Err(bad("action", "expected a tuple (name, seat, ...) or a name"));
    }
    let items: Vec<Bound<'py, PyAny>> = action.try_iter()?.collect::<PyResult<_>>()?;
    let Some(first) = items.first() else { return Err(bad("action", "is empty")) };
    let name: String = first.extract().map_err(|_| bad("action.name", "must be the action's name"))?;
    Ok((name, items[1..].to_vec()))
}

fn arity(name: &str, rest: &[Bound<'_, PyAny>], min: usize, max: usize) -> PyResult<()> {
    if rest.len() < min || rest.len() > max {
        let want = if min == max { format!("{min}") } else { format!("{min} or {max}") };
        return Err(bad("action", format!("{name:?} takes {want} argument(s) after its name, got {}", rest.len())));
    }
    Ok(())
}

fn deal_action(d: &CoreDeal, action: &Bound<'_, PyAny>) -> PyResult<DealAction> {
    let (name, rest) = action_parts(action)?;
    match name.as_str() {
        "deal" | "finish" => {
            arity(&name, &rest, 0, 0)?;
            Ok(if name == "deal" { DealAction::Deal } else { DealAction::Finish })
        }
        "meng_xuan" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let cards = cards_from(&rest[1], "action.cards")?;
            if cards.len() != 1 {
                return Err(bad("action.cards", format!("夢宣 reveals one ace, got {} cards", cards.len())));
            }
            Ok(DealAction::MengXuan { seat, card: cards[0] })
        }
        "meng_chuai" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let cards = cards_from(&rest[1], "action.cards")?;
            let cards: [Card; 3] = cards.try_into().map_err(|c: Vec<Card>| bad("action.cards", format!("夢踹 shows three cards, got {}", c.len())))?;
            Ok(DealAction::MengChuai { seat, cards })
        }
        "cheng_chu" => {
            arity(&name, &rest, 1, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let chu = match given(rest.get(1)) {
                Some(c) => chu_from(c)?,
                _ => d.cheng_chu_colour(seat).py()?,
            };
            Ok(DealAction::ChengChu { seat, chu })
        }
        other => Err(bad("action", format!("unknown deal action {other:?} (deal, meng_xuan, meng_chuai, cheng_chu, finish)"))),
    }
}

fn deal_action_py<'py>(py: Python<'py>, a: &DealAction) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        DealAction::Deal | DealAction::Finish => (a.name(),).into_pyobject(py)?,
        DealAction::MengXuan { seat, card } => (a.name(), *seat, result::card_str(py, *card)).into_pyobject(py)?,
        DealAction::MengChuai { seat, cards } => (a.name(), *seat, card_list(py, cards)?).into_pyobject(py)?,
        DealAction::ChengChu { seat, chu } => (a.name(), *seat, chu.as_str()).into_pyobject(py)?,
    })
}

/// Hash of a state consistent with its `==` (the core's equality): equal states print
/// the same.
fn state_hash(state: &impl std::fmt::Debug) -> isize {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    format!("{state:?}").hash(&mut h);
    h.finish() as isize
}

/// `==` of a state with `other`: by the core state when `other` is the same class
/// (`inner` reads it), else NotImplemented.
fn state_eq<C, T: PartialEq>(other: &Bound<'_, PyAny>, mine: &T, inner: impl Fn(&C) -> &T) -> Py<PyAny>
where
    C: pyo3::PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync,
{
    let py = other.py();
    match other.cast::<C>() {
        Ok(o) => PyBool::new(py, inner(o.get()) == mine).to_owned().into_any().unbind(),
        Err(_) => py.NotImplemented(),
    }
}

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
#[pyclass(frozen, module = "handeval.dachu", name = "Deal")]
pub struct DachuDeal {
    inner: CoreDeal,
}

impl NativeResult for DachuDeal {
    const FIELDS: &'static [&'static str] =
        &["hands", "first_seat", "dealt", "finished", "multiplier", "chu", "chu_source", "chu_side", "teams", "meng_xuan", "meng_chuai", "cheng_chu", "history"];
}

/// `apply` each of `history` in turn (pickling's way back to a state).
fn replayed<S>(mut state: S, history: &Bound<'_, PyAny>, apply: impl Fn(&S, &Bound<'_, PyAny>) -> PyResult<S>) -> PyResult<S> {
    for a in history.try_iter()? {
        state = apply(&state, &a?)?;
    }
    Ok(state)
}

/// Rebuilds a pickled `Deal`: the new deal with `history` applied.
#[pyfunction]
fn dc_deal_replay(hands: &Bound<'_, PyAny>, first_seat: &Bound<'_, PyAny>, rules: &Bound<'_, PyAny>, history: &Bound<'_, PyAny>) -> PyResult<DachuDeal> {
    let start = DachuDeal::new(hands, Some(first_seat), Some(rules))?;
    replayed(start, history, |d, a| d.apply(a))
}

#[pymethods]
impl DachuDeal {
    #[new]
    #[pyo3(signature = (hands, first_seat=None, rules=None))]
    fn new(hands: &Bound<'_, PyAny>, first_seat: Option<&Bound<'_, PyAny>>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let rules = rules_from(rules)?;
        let hands = list_from(hands, "hands", cards_from)?;
        let first = match given(first_seat) {
            Some(s) => seat_from(s, "first_seat")?,
            _ => 0,
        };
        Ok(DachuDeal { inner: CoreDeal::new(hands, first, rules).py()? })
    }

    /// The next state; an illegal action is a HandevalError saying why.
    fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuDeal> {
        let a = deal_action(&self.inner, action)?;
        Ok(DachuDeal { inner: self.inner.apply(&a).py()? })
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
    /// The actions applied so far.
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner.history.iter().map(|a| deal_action_py(py, a)).collect()
    }
    /// Cards each player holds: 0 … 8, then 13.
    #[getter]
    fn dealt(&self) -> u8 {
        self.inner.dealt
    }
    #[getter]
    fn first_seat(&self) -> usize {
        self.inner.first_seat
    }
    /// ×2 per 夢宣, 夢踹 and 撐儲.
    #[getter]
    fn multiplier(&self) -> i64 {
        self.inner.multiplier
    }
    #[getter]
    fn finished(&self) -> bool {
        self.inner.finished
    }
    /// A 夢宣 or 撐儲 happened (the 儲方 calls first).
    #[getter]
    fn declared(&self) -> bool {
        self.inner.declared()
    }
    /// "red", "black", or None until fixed.
    #[getter]
    fn chu(&self) -> Option<&'static str> {
        self.inner.chu.map(|c| c.as_str())
    }
    /// "meng_xuan", "cheng_chu", "ping_xuan" or None.
    #[getter]
    fn chu_source(&self) -> Option<&'static str> {
        self.inner.chu_source.map(|c| c.as_str())
    }
    /// Seats holding a 儲A, once finished.
    #[getter]
    fn chu_side(&self) -> Option<Vec<usize>> {
        self.inner.chu_side()
    }
    /// "1v3" or "2v2" once finished.
    #[getter]
    fn teams(&self) -> Option<&'static str> {
        self.inner.chu_side().map(|s| if s.len() == 1 { "1v3" } else { "2v2" })
    }
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        self.inner.hands().iter().map(|h| card_list(py, h)).collect()
    }
    /// Each seat's cards dealt so far.
    #[getter]
    fn held<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        (0..4).map(|s| card_list(py, self.inner.held(s))).collect()
    }
    /// The last card dealt (平宣 turns it up).
    #[getter]
    fn last_card<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        result::card_str(py, self.inner.last_card())
    }
    /// The seat holding 3♥.
    #[getter]
    fn first_leader(&self) -> usize {
        self.inner.first_leader()
    }
    /// Per seat: the ace revealed by 夢宣, or None.
    #[getter]
    fn meng_xuan<'py>(&self, py: Python<'py>) -> Vec<Option<Bound<'py, PyString>>> {
        self.inner.meng_xuan.iter().map(|c| c.map(|c| result::card_str(py, c))).collect()
    }
    /// Per seat: the triple shown by 夢踹, or None.
    #[getter]
    fn meng_chuai(&self) -> Vec<Option<Cards>> {
        self.inner.meng_chuai.iter().map(|c| c.map(|c| Cards(c.to_vec()))).collect()
    }
    /// Per seat: made 撐儲.
    #[getter]
    fn cheng_chu(&self) -> Vec<bool> {
        self.inner.cheng_chu.to_vec()
    }

    /// The calling that follows this finished deal, with its teams and multiplier. Each
    /// side is asked in seat order from ``start_seat`` (default: the seat dealt to
    /// first); ``first_side`` ``"chu"``/``"other"`` overrides who calls first.
    #[pyo3(signature = (start_seat=None, first_side=None))]
    fn calling(&self, start_seat: Option<&Bound<'_, PyAny>>, first_side: Option<&Bound<'_, PyAny>>) -> PyResult<DachuCalling> {
        let start = match given(start_seat) {
            Some(s) => Some(seat_from(s, "start_seat")?),
            _ => None,
        };
        let first = side_from(first_side)?;
        let inner = self.inner.calling(start, first).py()?;
        let origin = CallingOrigin {
            chu_side: self.inner.chu_side().unwrap_or_default(),
            declared: self.inner.declared(),
            multiplier: self.inner.multiplier,
            start_seat: start.unwrap_or(self.inner.first_seat),
            first_side: first,
            rules: self.inner.rules().clone(),
        };
        Ok(DachuCalling { inner, origin })
    }

    /// The state as a dict (hands, dealt, multiplier, the 儲, declarations, history).
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        result::to_dict(slf)
    }
    fn __repr__(&self) -> String {
        let chu = self.inner.chu.map_or("None".to_string(), |c| format!("'{}'", c.as_str()));
        let finished = if self.inner.finished { "True" } else { "False" };
        format!("Deal(dealt={}, chu={chu}, multiplier={}, finished={finished})", self.inner.dealt, self.inner.multiplier)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        state_eq(other, &self.inner, |o: &DachuDeal| &o.inner)
    }
    fn __hash__(&self) -> isize {
        state_hash(&self.inner)
    }
    /// Pickled as its start and history: `dc_deal_replay(hands, first_seat, rules, history)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let replay = py.import("handeval._core")?.getattr("dc_deal_replay")?;
        let hands = me.hands(py)?;
        let rules = Bound::new(py, DachuRules { core: me.inner.rules().clone() })?;
        (replay, (hands, me.inner.first_seat, rules, me.history(py)?)).into_pyobject(py)
    }
}

fn side_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<usize>> {
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

// ---- the calling ----

/// What a calling started from (pickling replays its history from here).
#[derive(Clone, Debug)]
struct CallingOrigin {
    chu_side: Vec<usize>,
    declared: bool,
    multiplier: i64,
    start_seat: usize,
    first_side: Option<usize>,
    rules: dc::Rules,
}

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
#[pyclass(frozen, module = "handeval.dachu", name = "Calling")]
pub struct DachuCalling {
    inner: CoreCalling,
    origin: CallingOrigin,
}

impl NativeResult for DachuCalling {
    const FIELDS: &'static [&'static str] = &[
        "chu_side", "first_side", "multiplier", "phase", "turn", "waiting", "calling_side", "outcome", "surrendered_side", "surrendered",
        "bei_bao_da", "bao_chuai", "playing", "finals", "history", "over",
    ];
}

/// Rebuilds a pickled `Calling`: the new calling with `history` applied.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
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
    replayed(start, history, |c, a| c.apply(a))
}

#[pymethods]
impl DachuCalling {
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
        let m = match given(multiplier) {
            Some(m) => int_from(m, "multiplier")?,
            _ => 1,
        };
        let start = match given(start_seat) {
            Some(s) => seat_from(s, "start_seat")?,
            _ => 0,
        };
        let declared = flag(declared, "declared")?;
        let first = side_from(first_side)?;
        let inner = CoreCalling::new(&side, declared, m, start, first, &rules).py()?;
        Ok(DachuCalling { inner, origin: CallingOrigin { chu_side: side, declared, multiplier: m, start_seat: start, first_side: first, rules } })
    }

    /// The next state; an illegal action (out of turn, unknown seat, not offered now, a
    /// second 包踹 by the same player) is a HandevalError saying why.
    fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuCalling> {
        let (name, rest) = action_parts(action)?;
        let call = Call::parse(&name).py()?;
        arity(&name, &rest, 1, 1)?;
        let seat = seat_from(&rest[0], "action.seat")?;
        Ok(DachuCalling { inner: self.inner.apply(seat, call).py()?, origin: self.origin.clone() })
    }

    /// The seat to call, or None when over.
    #[getter]
    fn turn(&self) -> Option<usize> {
        self.inner.turn()
    }
    /// ``[(call, seat), ...]`` allowed now.
    #[getter]
    fn legal_actions(&self) -> Vec<(&'static str, usize)> {
        match self.inner.turn() {
            Some(t) => self.inner.legal_calls().iter().map(|c| (c.name(), t)).collect(),
            None => Vec::new(),
        }
    }
    /// ×2 for each side's final 踹 or 包踹.
    #[getter]
    fn multiplier(&self) -> i64 {
        self.inner.multiplier
    }
    #[getter]
    fn over(&self) -> bool {
        self.inner.is_over()
    }
    /// "side_call", "side_call_round2" (flow D), "bao_chuai" (flow C), "second_round"
    /// (note 3) or "over".
    #[getter]
    fn phase(&self) -> &'static str {
        self.inner.phase()
    }
    /// "chu" (儲方), "other" (非儲方) or None.
    #[getter]
    fn calling_side(&self) -> Option<&'static str> {
        self.inner.calling_side().map(side_name)
    }
    #[getter]
    fn first_side(&self) -> &'static str {
        side_name(self.inner.first_side)
    }
    /// "play", "surrender" or None while calling.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.inner.outcome.map(|o| match o {
            Outcome::Play => "play",
            Outcome::Surrender { .. } => "surrender",
        })
    }
    #[getter]
    fn surrendered_side(&self) -> Option<&'static str> {
        match self.inner.outcome {
            Some(Outcome::Surrender { side }) => Some(side_name(side)),
            _ => None,
        }
    }
    #[getter]
    fn chu_side(&self) -> Vec<usize> {
        let mut v = self.inner.sides[0].clone();
        v.sort_unstable();
        v
    }
    /// Seats that chose 繳 (personally or as a side).
    #[getter]
    fn surrendered(&self) -> Vec<usize> {
        self.inner.surrendered()
    }
    /// Seats 被包打: sit out, pay by their side's result.
    #[getter]
    fn bei_bao_da(&self) -> Vec<usize> {
        self.inner.bei_bao_da_seats()
    }
    /// The 包踹 player of the 儲方 and of the 非儲方 (or None each).
    #[getter]
    fn bao_chuai(&self) -> (Option<usize>, Option<usize>) {
        (self.inner.sole[0], self.inner.sole[1])
    }
    /// Seats that play the cards.
    #[getter]
    fn playing(&self) -> Vec<usize> {
        self.inner.playing()
    }
    /// Each side decision: (side, call).
    #[getter]
    fn finals(&self) -> Vec<(&'static str, &'static str)> {
        self.inner.finals.iter().map(|(s, c)| (side_name(*s), c.name())).collect()
    }
    /// Every call: (call, seat).
    #[getter]
    fn history(&self) -> Vec<(&'static str, usize)> {
        self.inner.history.iter().map(|(s, c)| (c.name(), *s)).collect()
    }
    /// The seats still to answer in the current step, in order (empty when over).
    #[getter]
    fn waiting(&self) -> Vec<usize> {
        match &self.inner.stage {
            Stage::Side { order, idx, .. } | Stage::Bao { order, idx, .. } | Stage::Again { order, idx, .. } => order[*idx..].to_vec(),
            Stage::Over => Vec::new(),
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
        dc_settle(slf.as_any(), places, base, None, None, None, escaped, carried, rules)
    }

    /// The state as a dict (teams, multiplier, phase, turn, outcome, calls).
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        result::to_dict(slf)
    }
    fn __repr__(&self) -> String {
        let turn = self.inner.turn().map_or("None".to_string(), |t| t.to_string());
        let outcome = self.outcome().map_or("None".to_string(), |o| format!("'{o}'"));
        format!("Calling(phase='{}', turn={turn}, multiplier={}, outcome={outcome})", self.inner.phase(), self.inner.multiplier)
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        state_eq(other, &self.inner, |o: &DachuCalling| &o.inner)
    }
    fn __hash__(&self) -> isize {
        state_hash(&self.inner)
    }
    /// Pickled as its start and history: `dc_calling_replay(chu_side, declared,
    /// multiplier, start_seat, first_side, rules, history)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let o = &me.origin;
        let replay = py.import("handeval._core")?.getattr("dc_calling_replay")?;
        let rules = Bound::new(py, DachuRules { core: o.rules.clone() })?;
        let args = (o.chu_side.clone(), o.declared, o.multiplier, o.start_seat, o.first_side.map(side_name), rules, me.history());
        (replay, args).into_pyobject(py)
    }
}


// ---- the play ----

/// One action of the play: `("play", seat, cards)`, `("pass", seat)`, `("timeout", seat)`.
fn play_action(action: &Bound<'_, PyAny>) -> PyResult<PlayAction> {
    let (name, rest) = action_parts(action)?;
    match name.as_str() {
        "play" => {
            arity(&name, &rest, 2, 2)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            let cards = set_from(&rest[1], "action.cards")?;
            Ok(PlayAction::Play { seat, cards })
        }
        "pass" | "timeout" => {
            arity(&name, &rest, 1, 1)?;
            let seat = seat_from(&rest[0], "action.seat")?;
            Ok(if name == "pass" { PlayAction::Pass { seat } } else { PlayAction::Timeout { seat } })
        }
        other => Err(bad("action.name", format!("unknown play action {other:?} (play, pass, timeout)"))),
    }
}

fn play_action_py<'py>(py: Python<'py>, a: &PlayAction) -> PyResult<Bound<'py, PyTuple>> {
    Ok(match a {
        PlayAction::Play { seat, cards } => (a.name(), *seat, card_list(py, cards)?).into_pyobject(py)?,
        PlayAction::Pass { seat } | PlayAction::Timeout { seat } => (a.name(), *seat).into_pyobject(py)?,
    })
}

/// A pyo3 error renamed inside `field` (`action.cards` → `plays[3].cards`).
fn renamed(py: Python<'_>, e: PyErr, field: &str) -> PyErr {
    if !e.is_instance_of::<crate::conv::HandevalError>(py) {
        return e;
    }
    let v = e.value(py);
    let inner: Option<String> = v.getattr("field").ok().and_then(|f| f.extract().ok());
    let inner = inner.map(|f| f.strip_prefix("action").map(|r| r.to_string()).unwrap_or(format!(".{f}")));
    let path = format!("{field}{}", inner.unwrap_or_default());
    let _ = v.setattr("field", &path);
    let desc: String = v.getattr("description").and_then(|d| d.extract()).unwrap_or_default();
    let reason: String = v.getattr("reason").and_then(|d| d.extract()).unwrap_or_default();
    let err = crate::conv::HandevalError::new_err(format!("{path}: {desc}"));
    let nv = err.value(py);
    let _ = nv.setattr("field", path);
    let _ = nv.setattr("description", desc);
    let _ = nv.setattr("reason", reason);
    err
}

/// The play of a 打儲 game (RULES 3.4, 3.4a) as an immutable state machine.
///
/// ``Game(deal, calling)``: from a finished :class:`Deal` and the finished
/// :class:`Calling` made from it. ``apply(action)`` with ``("play", seat, cards)``,
/// ``("pass", seat)`` or ``("timeout", seat)`` returns the next state or raises a
/// HandevalError whose ``reason`` says why. ``settle(*, base=1, escaped=(), carried=None)``
/// settles from the record. States compare by value, hash, pickle (by replaying the whole
/// record) and have ``to_dict()``.
#[pyclass(frozen, module = "handeval.dachu", name = "Game")]
pub struct DachuGame {
    inner: dc::game::Game,
    deal: CoreDeal,
    calling: DachuCallingParts,
}

/// What pickling needs of the calling: where it started and its calls.
#[derive(Clone, Debug)]
struct DachuCallingParts {
    origin: CallingOrigin,
    history: Vec<(usize, Call)>,
}

impl NativeResult for DachuGame {
    const FIELDS: &'static [&'static str] = &[
        "chu", "chu_side", "multiplier", "playing", "surrendered", "bei_bao_da", "shown_triples", "hands", "held", "auto_lead", "turn",
        "leader", "table", "table_seat", "passed", "legal_plays", "may_pass", "legal_actions", "places", "over", "decided", "wipe_out",
        "history",
    ];
}

fn game_from(deal: &DachuDeal, calling: &DachuCalling) -> PyResult<DachuGame> {
    let o = &calling.origin;
    let mut side = deal.inner.chu_side().unwrap_or_default();
    side.sort_unstable();
    let mut called = o.chu_side.clone();
    called.sort_unstable();
    if deal.inner.finished && (called != side || o.multiplier != deal.inner.multiplier || o.declared != deal.inner.declared()) {
        return Err(to_py(
            handeval_core::Error::field("calling", "was not made from this deal (its 儲方, multiplier or declaration differ): use deal.calling()")
                .because(handeval_core::Reason::Inconsistent),
        ));
    }
    let inner = dc::game::Game::new(&deal.inner, &calling.inner).py()?;
    Ok(DachuGame { inner, deal: deal.inner.clone(), calling: DachuCallingParts { origin: o.clone(), history: calling.inner.history.clone() } })
}

/// ``replay_game(hands, deal_actions, calls, plays, *, first_seat=0, start_seat=None,
/// first_side=None, rules=None) -> Game``: the deal, the calling and the play replayed in
/// one call; an error names ``deal_actions[i]``, ``calls[i]`` or ``plays[i]``.
#[pyfunction]
#[pyo3(signature = (hands, deal_actions, calls, plays, *, first_seat=None, start_seat=None, first_side=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn dc_replay_game(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    deal_actions: &Bound<'_, PyAny>,
    calls: &Bound<'_, PyAny>,
    plays: &Bound<'_, PyAny>,
    first_seat: Option<&Bound<'_, PyAny>>,
    start_seat: Option<&Bound<'_, PyAny>>,
    first_side: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<DachuGame> {
    // Bounds first: a deal has at most 9 deals + 12 declarations + finish; a calling at
    // most a few dozen calls; the play at most MAX_PLAYS.
    for (obj, field, max) in [(deal_actions, "deal_actions", 64usize), (calls, "calls", 64), (plays, "plays", dc::game::MAX_PLAYS)] {
        crate::conv::check_list(obj, field)?;
        let n = obj.len()?;
        if n > max {
            return Err(to_py(handeval_core::Error::field(field, format!("{n} entries are more than a game allows (at most {max})")).because(handeval_core::Reason::TooLarge)));
        }
    }
    let mut deal = DachuDeal::new(hands, first_seat, rules)?;
    for (i, a) in deal_actions.try_iter()?.enumerate() {
        deal = deal.apply(&a?).map_err(|e| renamed(py, e, &format!("deal_actions[{i}]")))?;
    }
    let mut calling = deal.calling(start_seat, first_side)?;
    for (i, a) in calls.try_iter()?.enumerate() {
        calling = calling.apply(&a?).map_err(|e| renamed(py, e, &format!("calls[{i}]")))?;
    }
    let mut game = game_from(&deal, &calling)?;
    for (i, a) in plays.try_iter()?.enumerate() {
        game = game.apply(&a?).map_err(|e| renamed(py, e, &format!("plays[{i}]")))?;
    }
    Ok(game)
}

/// Rebuilds a pickled `Game` (positional form of :func:`dc_replay_game`).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn dc_game_replay(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    first_seat: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
    deal_actions: &Bound<'_, PyAny>,
    start_seat: &Bound<'_, PyAny>,
    first_side: &Bound<'_, PyAny>,
    calls: &Bound<'_, PyAny>,
    plays: &Bound<'_, PyAny>,
) -> PyResult<DachuGame> {
    dc_replay_game(py, hands, deal_actions, calls, plays, Some(first_seat), Some(start_seat), Some(first_side), Some(rules))
}

#[pymethods]
impl DachuGame {
    #[new]
    fn new(deal: &Bound<'_, PyAny>, calling: &Bound<'_, PyAny>) -> PyResult<Self> {
        let deal = deal.cast::<DachuDeal>().map_err(|_| bad("deal", format!("expected a dachu.Deal, got {}", crate::conv::type_name(deal))))?;
        let calling = calling.cast::<DachuCalling>().map_err(|_| bad("calling", format!("expected a dachu.Calling, got {}", crate::conv::type_name(calling))))?;
        game_from(deal.get(), calling.get())
    }

    /// The next state; an action the record does not allow raises (``.reason`` says why).
    fn apply(&self, action: &Bound<'_, PyAny>) -> PyResult<DachuGame> {
        let a = play_action(action)?;
        let inner = self.inner.apply(&a).map_err(|e| e.within("action")).py()?;
        Ok(DachuGame { inner, deal: self.deal.clone(), calling: self.calling.clone() })
    }

    /// The HandevalError ``apply(action)`` would raise (not raised), or None when allowed.
    fn check(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyAny>>> {
        match self.apply(action) {
            Ok(_) => Ok(None),
            Err(e) => result::item_error(py, e).map(Some),
        }
    }

    /// Settle from the record (RULES 3.7, then the cap): the places are derived (once
    /// decided, the players still holding cards follow in turn order); ``escaped``
    /// abandons the game.
    #[pyo3(signature = (*, base=None, escaped=None, carried=None))]
    fn settle(&self, base: Option<&Bound<'_, PyAny>>, escaped: Option<&Bound<'_, PyAny>>, carried: Option<&Bound<'_, PyAny>>) -> PyResult<Settlement> {
        let base = match base {
            Some(b) if !b.is_none() => int_from(b, "base")?,
            _ => 1,
        };
        let escaped = seats_from(escaped, "escaped")?;
        let carried = carried_from(carried, "carried")?;
        Ok(settlement(self.inner.settle(base, &escaped, carried).py()?))
    }

    #[getter]
    fn chu(&self) -> &'static str {
        self.inner.chu.as_str()
    }
    #[getter]
    fn chu_side(&self) -> Vec<usize> {
        self.inner.chu_side.clone()
    }
    #[getter]
    fn multiplier(&self) -> i64 {
        self.inner.multiplier
    }
    /// Seats that play the cards (not 繳, not 被包打).
    #[getter]
    fn playing(&self) -> Vec<usize> {
        (0..4).filter(|&s| self.inner.playing[s]).collect()
    }
    #[getter]
    fn surrendered(&self) -> Vec<usize> {
        self.inner.surrendered.clone()
    }
    #[getter]
    fn bei_bao_da(&self) -> Vec<usize> {
        self.inner.bei_bao_da.clone()
    }
    /// Per seat: the triple shown by 夢踹, or None.
    #[getter]
    fn shown_triples(&self) -> Vec<Option<Cards>> {
        self.inner.shown.iter().map(|c| c.map(|c| Cards(c.to_vec()))).collect()
    }
    /// The dealt hands, in dealing order.
    #[getter]
    fn hands<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        self.inner.hands().iter().map(|h| card_list(py, h)).collect()
    }
    /// Cards left per seat, in dealing order.
    #[getter]
    fn held<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyList>>> {
        (0..4).map(|s| card_list(py, self.inner.held(s))).collect()
    }
    /// The seat whose 3♥ was played out for it (it does not play), or None.
    #[getter]
    fn auto_lead(&self) -> Option<usize> {
        self.inner.auto_lead
    }
    /// The seat to move; None once over.
    #[getter]
    fn turn(&self) -> Option<usize> {
        self.inner.turn
    }
    /// Who led the current trick.
    #[getter]
    fn leader(&self) -> Option<usize> {
        self.inner.leader
    }
    /// The play to beat, or None on a lead.
    #[getter]
    fn table(&self) -> PyResult<Option<DachuPlay>> {
        Ok(self.inner.table.as_ref().map(|(_, cards, core)| DachuPlay { core: *core, cards: cards.clone() }))
    }
    #[getter]
    fn table_seat(&self) -> Option<usize> {
        self.inner.table.as_ref().map(|t| t.0)
    }
    /// Seats that passed since the last play.
    #[getter]
    fn passed(&self) -> Vec<usize> {
        self.inner.passed_seats()
    }
    /// Every play the seat to move may make, weakest first.
    #[getter]
    fn legal_plays(&self, py: Python<'_>) -> Vec<DachuPlay> {
        py.detach(|| self.inner.legal_plays()).into_iter().map(|p| DachuPlay { core: p.play, cards: p.cards }).collect()
    }
    #[getter]
    fn may_pass(&self) -> bool {
        self.inner.may_pass()
    }
    /// Every action allowed now, as tuples.
    #[getter]
    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let Some(seat) = self.inner.turn else { return Ok(Vec::new()) };
        let mut out: Vec<PlayAction> = py.detach(|| self.inner.legal_plays()).into_iter().map(|p| PlayAction::Play { seat, cards: p.cards }).collect();
        if self.inner.may_pass() {
            out.push(PlayAction::Pass { seat });
        }
        out.iter().map(|a| play_action_py(py, a)).collect()
    }
    /// The finishing order so far.
    #[getter]
    fn places(&self) -> Vec<usize> {
        self.inner.places.clone()
    }
    #[getter]
    fn over(&self) -> bool {
        self.inner.is_over()
    }
    /// The 儲方's result ("win", "draw", "loss") once no finishing order can change it;
    /// "surrender" when a whole side surrendered; else None.
    #[getter]
    fn decided(&self) -> Option<&'static str> {
        if self.inner.surrender {
            return Some("surrender");
        }
        self.inner.decided().map(|(v, _)| v.as_str())
    }
    /// 全殲, once decided.
    #[getter]
    fn wipe_out(&self) -> Option<bool> {
        self.inner.decided().map(|(_, w)| w)
    }
    /// The actions applied (a timeout as the play or pass it became).
    #[getter]
    fn history<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        self.inner.history.iter().map(|a| play_action_py(py, a)).collect()
    }

    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        result::to_dict(slf)
    }
    fn __repr__(&self) -> String {
        let turn = self.inner.turn.map_or("None".to_string(), |t| t.to_string());
        format!("Game(turn={turn}, places={:?}, over={})", self.inner.places, if self.inner.is_over() { "True" } else { "False" })
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        state_eq(other, &self.inner, |o: &DachuGame| &o.inner)
    }
    fn __hash__(&self) -> isize {
        state_hash(&self.inner)
    }
    /// Pickled as the whole record: `dc_game_replay(hands, first_seat, rules,
    /// deal_actions, start_seat, first_side, calls, plays)`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let replay = py.import("handeval._core")?.getattr("dc_game_replay")?;
        let hands: Vec<Bound<'py, PyList>> = me.deal.hands().iter().map(|h| card_list(py, h)).collect::<PyResult<_>>()?;
        let rules = Bound::new(py, DachuRules { core: me.deal.rules().clone() })?;
        let deal_actions: Vec<Bound<'py, PyTuple>> = me.deal.history.iter().map(|a| deal_action_py(py, a)).collect::<PyResult<_>>()?;
        let o = &me.calling.origin;
        let calls: Vec<(&'static str, usize)> = me.calling.history.iter().map(|(s, c)| (c.name(), *s)).collect();
        let plays = me.history(py)?;
        let args = (hands, me.deal.first_seat, rules, deal_actions, o.start_seat, o.first_side.map(side_name), calls, plays);
        (replay, args.into_pyobject(py)?).into_pyobject(py)
    }
}

// ---- settlement ----

native_result! {
    module = "handeval.dachu";
    /// One item of a settlement: ``amount`` (signed) for ``seat``.
    pub struct Line {
        /// ``"jiao"`` 繳, ``"result"`` the game's result, ``"escape"`` 逃跑, ``"cap"`` the cap.
        pub item: String,
        pub seat: usize,
        pub amount: i64,
        pub note: String,
    }
}

native_result! {
    module = "handeval.dachu";
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
    // A Calling carries the rules of its game; `rules=` overrides them.
    let rules = match chu_side.cast::<DachuCalling>() {
        Ok(c) if given(rules).is_none() => c.get().origin.rules.clone(),
        _ => rules_from(rules)?,
    };
    let num = |o: Option<&Bound<'_, PyAny>>, f: &str| -> PyResult<i64> {
        match given(o) {
            Some(v) => int_from(v, f),
            _ => Ok(1),
        }
    };
    let places = match given(places) {
        Some(p) => Some(list_from(p, "places", seat_from)?),
        _ => None,
    };
    let (side, multiplier, surrendered, bei_bao_da) = if let Ok(c) = chu_side.cast::<DachuCalling>() {
        let c = c.get();
        if !c.inner.is_over() {
            return Err(bad("chu_side", "the calling is not over yet"));
        }
        if given(multiplier).is_some() || given(surrendered).is_some() || given(bei_bao_da).is_some() {
            return Err(bad("chu_side", "a Calling already fixes multiplier, surrendered and bei_bao_da"));
        }
        (c.chu_side(), c.inner.multiplier, c.inner.surrendered(), c.inner.bei_bao_da_seats())
    } else if chu_side.is_instance_of::<DachuDeal>() {
        return Err(bad("chu_side", "settle a finished Calling (deal.calling() …) or pass the 儲方 seats"));
    } else {
        (
            list_from(chu_side, "chu_side", seat_from)?,
            num(multiplier, "multiplier")?,
            seats_from(surrendered, "surrendered")?,
            seats_from(bei_bao_da, "bei_bao_da")?,
        )
    };
    let g = dc::Game {
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

fn settlement(s: dc::Settlement) -> Settlement {
    Settlement {
        verdict: s.verdict.map(|v| v.as_str().to_string()),
        wipe_out: s.wipe_out,
        result_multiplier: s.result_multiplier,
        lines: s.lines.into_iter().map(|l| Line { item: l.item.to_string(), seat: l.seat, amount: l.amount, note: l.note }).collect(),
        theoretical: s.theoretical,
        deltas: s.deltas,
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // The core's lists: play kinds (weakest tier first) and the calls of 叫牌.
    m.add("DC_KINDS", PyTuple::new(m.py(), Kind::ALL.iter().map(|k| k.name()))?)?;
    m.add("DC_CALLS", PyTuple::new(m.py(), Call::ALL.iter().map(|c| c.name()))?)?;
    add_class::<DachuRules>(m, "DachuRules")?;
    add_class::<DachuPlay>(m, "DachuPlay")?;
    add_class::<DachuDeal>(m, "DachuDeal")?;
    add_class::<DachuCalling>(m, "DachuCalling")?;
    add_class::<DachuGame>(m, "DachuGame")?;
    add_class::<Line>(m, "DachuLine")?;
    add_class::<Settlement>(m, "DachuSettlement")?;
    m.add_function(wrap_pyfunction!(dc_classify, m)?)?;
    m.add_function(wrap_pyfunction!(dc_beats, m)?)?;
    m.add_function(wrap_pyfunction!(dc_beats_many, m)?)?;
    m.add_function(wrap_pyfunction!(dc_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(dc_timeout_play, m)?)?;
    m.add_function(wrap_pyfunction!(dc_settle, m)?)?;
    m.add_function(wrap_pyfunction!(dc_deal_replay, m)?)?;
    m.add_function(wrap_pyfunction!(dc_calling_replay, m)?)?;
    m.add_function(wrap_pyfunction!(dc_replay_game, m)?)?;
    m.add_function(wrap_pyfunction!(dc_game_replay, m)?)?;
    Ok(())
}
