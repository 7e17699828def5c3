//! Binding of handeval_core::tienlen (越式13张): the native result and rule classes of
//! `handeval.tienlen` and the functions that build them. Conversions only; every rule
//! is in the core.

use crate::conv::{bad, base_from, cards_from, carried_from, given, int_from, list_from, opt, opt_flag, to_py, type_name, IntoPyResult};
use crate::game_common::{card_lists, first_mismatch, replay_reduce, KindNames};
use crate::native_class;
use crate::result::{add_class, card_str, item_error, many_items, Cards};
use crate::rules::rules_arg;
use handeval_core::cards::Card;
use handeval_core::tienlen::{self as tl, play, Action, InstantWin, Kind, RoundState as CoreRound, Transfer};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

// ---- Rules ----

handeval_core::tienlen_rule_options!(native_class! {
    rules:
    /// House-rule options of 越式13张 (docs/rules.md §2), keyword-only; an option not given
    /// is its default. Validated when constructed: a bad value is a HandevalError naming
    /// the option (``.field == "rules.<option>"``).
    pub struct TienlenRules(core = tl::Rules, game = "tienlen", module = "handeval.tienlen");
});

fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<tl::Rules> {
    rules_arg::<TienlenRules>(obj)
}

// ---- Play ----

/// Interned names of the play kinds (`kind`, `kind_zh`): legal_plays returns dozens of
/// plays per call.
fn kind_names(py: Python<'_>, k: Kind) -> (Bound<'_, PyString>, Bound<'_, PyString>) {
    static NAMES: KindNames = KindNames::new();
    NAMES.get(py, k as usize, &Kind::ALL, Kind::name, Kind::name_zh)
}

native_class! {
    #[pyclass(from_py_object, module = "handeval.tienlen", name = "Play")]
    /// A classified play. ``Play(kind, kind_zh, cards, top, strength)`` checks that the cards
    /// make that play (pickling rebuilds it so); :func:`classify` is the usual way to get one.
    #[derive(Clone, Debug)]
    pub struct TienlenPlay {
        pub core: tl::Play,
    }
    fields {
        /// One of :data:`KINDS`.
        fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            kind_names(py, self.core.kind()).0
        }
        /// The Chinese name, e.g. 3连对.
        fn kind_zh<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            kind_names(py, self.core.kind()).1
        }
        /// The cards in the game's order, lowest first.
        fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
            crate::result::card_list(py, &self.core.cards)
        }
        /// The highest card.
        fn top<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            card_str(py, self.core.top_card())
        }
        /// 0 (3♠) .. 51 (2♥): the top card's place in the game's order.
        fn strength(&self) -> u8 {
            self.core.key.top
        }
    }
    impl {
        #[new]
        #[pyo3(signature = (kind, kind_zh, cards, top, strength))]
        fn new(kind: &Bound<'_, PyAny>, kind_zh: &Bound<'_, PyAny>, cards: &Bound<'_, PyAny>, top: &Bound<'_, PyAny>, strength: &Bound<'_, PyAny>) -> PyResult<Self> {
            let core = play_from(cards, "cards")?;
            let p = TienlenPlay { core };
            let me = Bound::new(kind.py(), p.clone())?;
            if let Some((name, actual, given)) = first_mismatch(&me, &[("kind", kind), ("kind_zh", kind_zh), ("top", top), ("strength", strength)])? {
                return Err(crate::conv::bad_as(name, format!("{} makes {name} = {actual}, not {given}", tl::play::text(&p.core.cards)), handeval_core::Reason::Inconsistent));
            }
            Ok(p)
        }
        /// A 特殊牌型 (3连对, bomb, 4连对), which may chop.
        #[getter]
        fn is_special(&self) -> bool {
            self.core.is_special()
        }
        fn __len__(&self) -> usize {
            self.core.cards.len()
        }
    }
}

/// Cards, or a `tienlen.Play` (used as is) or another object with a `.cards` attribute.
fn set_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    if let Ok(p) = obj.cast::<TienlenPlay>() {
        return Ok(p.get().core.cards.clone());
    }
    if !(obj.is_instance_of::<PyString>() || obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) {
        if let Ok(cards) = obj.getattr("cards") {
            return cards_from(&cards, field);
        }
    }
    cards_from(obj, field)
}

/// The play of `obj`: a native `Play` as is, anything else classified.
fn play_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<tl::Play> {
    if let Ok(p) = obj.cast::<TienlenPlay>() {
        return Ok(p.get().core.clone());
    }
    let cards = set_from(obj, field)?;
    tl::classify(&cards).map_err(|e| e.within(field)).py()
}

/// Like [`play_from`], quick path first (no error text is built for good input).
fn quick_play(obj: &Bound<'_, PyAny>, field: impl Fn() -> String) -> PyResult<tl::Play> {
    if let Ok(p) = obj.cast::<TienlenPlay>() {
        return Ok(p.get().core.clone());
    }
    match crate::conv::quick_cards(obj) {
        Some(c) => tl::classify(&c).map_err(|e| e.within(&field())).py(),
        None => play_from(obj, &field()),
    }
}

/// The play a set of cards makes (RULES 2.2); a set that is not a play raises a
/// HandevalError that says why.
#[pyfunction]
fn tl_classify(cards: &Bound<'_, PyAny>) -> PyResult<TienlenPlay> {
    Ok(TienlenPlay { core: play_from(cards, "cards")? })
}

/// Kinds of many sets in one call: per set its kind, or the HandevalError (not raised)
/// naming `sets[i]`.
#[pyfunction]
fn tl_classify_many(py: Python<'_>, sets: &Bound<'_, PyAny>) -> PyResult<Vec<Py<PyAny>>> {
    list_from(sets, "sets", |x, f| Ok(quick_play(x, || f.to_string())))?
        .into_iter()
        .map(|p| match p {
            Ok(p) => Ok(kind_names(py, p.kind()).0.into_any().unbind()),
            Err(e) => item_error(py, e),
        })
        .collect()
}

/// Whether ``play`` beats the table's ``table`` (RULES 2.3): the same type and size and
/// higher, or a chop by a special. ``rules`` is validated; no option of 越式13张 changes
/// beating (they concern the first lead and the settlement).
#[pyfunction]
#[pyo3(signature = (play, table, rules=None))]
fn tl_beats(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    rules_from(rules)?;
    let (b, a) = (play_from(play, "play")?, play_from(table, "table")?);
    tl::beats(&b, &a).py()
}

/// Why ``play`` does not beat ``table``, or None when it does.
#[pyfunction]
fn tl_why_not(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let (b, a) = (play_from(play, "play")?, play_from(table, "table")?);
    tl::beats(&b, &a).py()?;
    Ok(play::why_not(&b, &a))
}

/// (play, table) of one pair, each named `pairs[i][0|1]` in its error.
fn pair_from(item: &Bound<'_, PyAny>, f: &str) -> PyResult<(tl::Play, tl::Play)> {
    let two = if let Ok(t) = item.cast::<PyTuple>() {
        (t.len() == 2).then(|| (t.get_item(0), t.get_item(1)))
    } else if let Ok(l) = item.cast::<PyList>() {
        (l.len() == 2).then(|| (l.get_item(0), l.get_item(1)))
    } else {
        None
    };
    let Some((b, a)) = two else {
        return Err(bad(f, "expected a (play, table) pair"));
    };
    Ok((quick_play(&b?, || format!("{f}[0]"))?, quick_play(&a?, || format!("{f}[1]"))?))
}

/// :func:`beats` over many ``(play, table)`` pairs in one call: per pair a bool, or the
/// HandevalError (not raised) naming ``pairs[i]``. Beating runs with the GIL released.
#[pyfunction]
#[pyo3(signature = (pairs, rules=None))]
fn tl_beats_many(py: Python<'_>, pairs: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
    rules_from(rules)?;
    let parsed = list_from(pairs, "pairs", |x, f| Ok(pair_from(x, f)))?;
    many_items(
        py,
        parsed,
        |i, (b, a)| tl::beats(b, a).map_err(|e| e.within(&format!("pairs[{i}]"))),
        |py, v| Ok(pyo3::types::PyBool::new(py, v).to_owned().into_any().unbind()),
    )
}

/// Every play ``hand`` may make now, weakest first: all leads when ``table`` is None;
/// otherwise the plays that beat it, only specials if the seat has ``passed``. A
/// ``Play`` given as ``table`` is used as is.
#[pyfunction]
#[pyo3(signature = (hand, table=None, passed=None))]
fn tl_legal_plays(
    py: Python<'_>,
    hand: &Bound<'_, PyAny>,
    table: Option<&Bound<'_, PyAny>>,
    passed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<TienlenPlay>> {
    let hand = cards_from(hand, "hand")?;
    let table = opt(table, |t| play_from(t, "table"))?;
    let passed = opt_flag(passed, "passed")?;
    let plays = py.detach(|| tl::legal_plays(&hand, table.as_ref(), passed)).py()?;
    Ok(plays.into_iter().map(|core| TienlenPlay { core }).collect())
}

// ---- instant wins and the first lead ----

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// An instant win (直接获胜, RULES 2.5) and the cards that form it.
    pub struct InstantHand {
        /// One of :data:`INSTANT_WINS`.
        pub kind: String,
        pub kind_zh: String,
        /// The cards that form it, lowest first.
        pub cards: Cards,
    }
}

fn instant_hand(h: &tl::InstantHand) -> InstantHand {
    InstantHand { kind: h.kind.name().into(), kind_zh: h.kind.name_zh().into(), cards: Cards(h.cards.clone()) }
}

fn hand13(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    let cards = cards_from(obj, field)?;
    if cards.len() != 13 {
        return Err(crate::conv::bad_as(
            field,
            format!("a dealt hand has 13 cards (got {})", cards.len()),
            handeval_core::Reason::WrongCount,
        ));
    }
    Ok(cards)
}

/// The highest instant win (直接获胜) of 13 dealt cards, or None (RULES 2.5).
#[pyfunction]
fn tl_instant_win(cards13: &Bound<'_, PyAny>) -> PyResult<Option<&'static str>> {
    Ok(tl::instant_win(&hand13(cards13, "cards13")?).py()?.map(|h| h.kind.name()))
}

/// Like :func:`instant_win`, with the Chinese name and the forming cards.
#[pyfunction]
fn tl_instant_hand(cards13: &Bound<'_, PyAny>) -> PyResult<Option<InstantHand>> {
    Ok(tl::instant_win(&hand13(cards13, "cards13")?).py()?.as_ref().map(instant_hand))
}

/// Each seat's instant win and the seat whose instant win is highest (None if nobody
/// holds one). Same types compare by the forming cards' ranks from the top, then the
/// suit of the highest card.
#[pyfunction]
fn tl_instant_winner(hands13: &Bound<'_, PyAny>) -> PyResult<(Vec<Option<InstantHand>>, Option<usize>)> {
    let hands = list_from(hands13, "hands13", hand13)?;
    let (wins, best) = tl::instant_winner(&hands).map_err(|e| handeval_wire::convert::rename(e, &[("hands", "hands13")], "")).py()?;
    Ok((wins.iter().map(|w| w.as_ref().map(instant_hand)).collect(), best))
}

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// Who leads the game: the holder of the lowest card dealt (RULES 2.4).
    pub struct FirstLead {
        pub seat: usize,
        pub card: String,
        /// Whether the first play must contain ``card`` (rule option).
        pub must_contain: bool,
    }
}

/// The seat holding the lowest card dealt, and whether the first play must contain it
/// (``Rules.first_lead_must_contain_lowest``).
#[pyfunction]
#[pyo3(signature = (hands, rules=None))]
fn tl_first_leader(hands: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<FirstLead> {
    let rules = rules_from(rules)?;
    let hands = list_from(hands, "hands", cards_from)?;
    let (seat, card) = tl::first_leader(&hands).py()?;
    Ok(FirstLead { seat, card: card.to_string(), must_contain: rules.first_lead_must_contain_lowest })
}

// ---- rounds ----

fn usize_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<usize> {
    let v = int_from(obj, field)?;
    usize::try_from(v)
        .map_err(|_| crate::conv::bad_as(field, format!("seat {v} is not in the game (seats are 0..3)"), handeval_core::Reason::OutOfRange))
}

fn players_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    match given(obj) {
        Some(o) => {
            let v = int_from(o, "players")?;
            usize::try_from(v).map_err(|_| {
                crate::conv::bad_as("players", format!("越式13张 has 2 to 4 players (got {v})"), handeval_core::Reason::WrongCount)
            })
        }
        _ => Ok(4),
    }
}

fn action_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Action> {
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

/// `[[seat, "cards" | "pass"], ...]`, items named `field[i]` (their parts
/// `field[i].seat`, `field[i].cards`). A list longer than a whole game's record
/// ([`tl::MAX_ACTIONS`]) is refused before any item is read.
fn round_named(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<(usize, Action)>> {
    if let Ok(n) = obj.len() {
        tl::game::check_record_len(n, field).py()?;
    }
    list_from(obj, field, game_action)
}

/// The leader and the card the first play must contain, from `leader` and `first_lead`.
fn first_from(leader: Option<&Bound<'_, PyAny>>, first_lead: Option<&Bound<'_, PyAny>>) -> PyResult<(Option<usize>, Option<Card>)> {
    let leader = opt(leader, |l| usize_from(l, "leader"))?;
    let Some(fl) = given(first_lead) else { return Ok((leader, None)) };
    let fl = fl
        .cast::<FirstLead>()
        .map_err(|_| bad("first_lead", format!("expected a FirstLead from first_leader(), got {}", type_name(fl))))?
        .get();
    if let Some(l) = leader {
        if l != fl.seat {
            return Err(crate::conv::bad_as(
                "leader",
                format!("seat {l} does not hold {}; seat {} leads first", fl.card, fl.seat),
                handeval_core::Reason::Inconsistent,
            ));
        }
    }
    let card = handeval_core::cards::parse_card(&fl.card).map_err(|e| to_py(e.within("first_lead.card")))?;
    Ok((Some(fl.seat), fl.must_contain.then_some(card)))
}

fn replay(
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
        /// ``[(seat, Play)]`` in order; the last one is on the table.
        pub plays: Vec<(usize, TienlenPlay)>,
        /// Seats that have passed (they may still chop with a special).
        pub passed: Vec<usize>,
        /// Whose turn it is; None once the round is over.
        pub to_move: Option<usize>,
        pub over: bool,
        /// When over: the seat that leads the next round.
        pub next_leader: Option<usize>,
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
fn tl_round_state(
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
#[allow(clippy::too_many_arguments)]
fn tl_check_action(
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
#[allow(clippy::too_many_arguments)]
fn check_named(
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
#[allow(clippy::too_many_arguments)]
fn tl_may_play(
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

fn transfer_dict<'py>(py: Python<'py>, t: &Transfer) -> PyResult<Bound<'py, PyDict>> {
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
fn tl_chop_transfers<'py>(
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
fn tl_special_groups(cards: &Bound<'_, PyAny>) -> PyResult<(Vec<(&'static str, Cards)>, i64)> {
    let cards = cards_from(cards, "cards")?;
    if cards.len() > 13 {
        return Err(crate::conv::bad_as(
            "cards",
            format!("a hand has at most 13 cards (got {})", cards.len()),
            handeval_core::Reason::WrongCount,
        ));
    }
    let (groups, total) = tl::special_groups(&cards);
    Ok((groups.into_iter().map(|g| (g.kind.name(), Cards(g.cards))).collect(), total))
}

// ---- settlement ----

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// One amount of a settlement. For each seat, its lines add up to its delta.
    pub struct Line {
        /// ``cards`` ``no_card`` ``instant_win`` ``red_two`` ``black_two`` ``bomb``
        /// ``three_pair_run`` ``four_pair_run`` ``win`` ``chop`` ``cap`` ``rake``.
        pub kind: String,
        pub seat: usize,
        /// The seat on the other side of a payment, or None (cap, rake).
        pub other: Option<usize>,
        /// The multiple of ``base`` (0 for win, chop, cap and rake lines).
        pub multiplier: i64,
        /// Signed change to ``seat``.
        pub amount: i64,
        pub cards: Cards,
        pub text: String,
    }
}

native_class! {
    #[pyclass(module = "handeval.tienlen")]
    /// A settled game: money per seat, the rake and the itemised lines.
    pub struct Settlement {
        /// Final money per seat, after the cap and the rake; ``sum(deltas) + rake == 0``.
        pub deltas: Vec<i64>,
        pub rake: i64,
        pub lines: Vec<Line>,
        pub winner: usize,
        /// What each loser pays the winner, before chops (0 for the winner).
        pub pays: Vec<i64>,
        /// Signed chop transfers per seat.
        pub chops: Vec<i64>,
        /// Before the cap.
        pub theoretical: Vec<i64>,
        /// After the cap, before the rake.
        pub capped: Vec<i64>,
        /// settle_instant: each seat's instant win (or None); settle: all None.
        pub instant: Vec<Option<String>>,
    }
}

fn settlement(s: tl::Settlement) -> Settlement {
    Settlement {
        deltas: s.deltas,
        rake: s.rake,
        lines: s
            .lines
            .into_iter()
            .map(|l| Line {
                kind: l.kind.name().into(),
                seat: l.seat,
                other: l.other,
                multiplier: l.multiplier,
                amount: l.amount,
                cards: Cards(l.cards),
                text: l.text,
            })
            .collect(),
        winner: s.winner,
        pays: s.pays,
        chops: s.chops,
        theoretical: s.theoretical,
        capped: s.capped,
        instant: s.instant.iter().map(|k| k.map(|k: InstantWin| k.name().to_string())).collect(),
    }
}

/// One entry of `chops`: a transfer (`{"from", "to", "amount"}` or `(from, to, amount)`),
/// or a whole round `[[seat, cards | "pass"], ...]` whose chop chain is settled here.
fn chop_item(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<tl::Chop> {
    let is_seq = obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>();
    let is_transfer_tuple = is_seq && obj.len()? == 3 && obj.try_iter()?.all(|x| x.is_ok_and(|x| x.is_instance_of::<pyo3::types::PyInt>()));
    if is_seq && !is_transfer_tuple {
        return Ok(tl::Chop::Round(round_named(obj, field)?));
    }
    Ok(tl::Chop::Transfer(transfer_from(obj, field)?))
}

fn transfer_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Transfer> {
    let get = |k: &str, i: usize| -> PyResult<Bound<'_, PyAny>> {
        if let Ok(d) = obj.cast::<PyDict>() {
            return d.get_item(k)?.ok_or_else(|| bad(field, format!("missing \"{k}\"")));
        }
        if (obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) && obj.len()? == 3 {
            return obj.get_item(i);
        }
        Err(bad(field, "expected {\"from\": seat, \"to\": seat, \"amount\": int} or (from, to, amount)"))
    };
    Ok(Transfer {
        from: usize_from(&get("from", 0)?, &format!("{field}.from"))?,
        to: usize_from(&get("to", 1)?, &format!("{field}.to"))?,
        amount: int_from(&get("amount", 2)?, &format!("{field}.amount"))?,
    })
}

/// Settle a finished game (RULES 2.6, then the cap of section 4 and the rake).
///
/// ``remaining``: cards left per seat (the winner's empty); ``played_any``: whether each
/// seat played a card (default: it holds fewer than 13); ``chops``: the game's chops,
/// each entry either a round ``[[seat, cards | "pass"], ...]`` (its chop chain is settled
/// with this ``base``, see :func:`chop_transfers`) or a transfer as :func:`chop_transfers`
/// returns it (``{"from", "to", "amount"}`` or ``(from, to, amount)``); ``carried``:
/// carried-in amounts (None entries are uncapped).
#[pyfunction]
#[pyo3(signature = (remaining, winner, base=None, played_any=None, chops=None, carried=None, rules=None))]
#[allow(clippy::too_many_arguments)]
fn tl_settle(
    remaining: &Bound<'_, PyAny>,
    winner: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    played_any: Option<&Bound<'_, PyAny>>,
    chops: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules_from(rules)?;
    let remaining = list_from(remaining, "remaining", set_from)?;
    let winner = usize_from(winner, "winner")?;
    let base = base_from(base)?;
    let played_any = opt(played_any, |p| {
        list_from(p, "played_any", |x, f| {
            if !x.is_instance_of::<pyo3::types::PyBool>() {
                return Err(bad(f, "must be a bool"));
            }
            x.extract::<bool>()
        })
    })?;
    let chops = opt(chops, |c| {
        // A game of 52 cards has at most 52 rounds (each holds a play): refuse more first.
        if let Ok(n) = c.len() {
            tl::game::check_record_len(n, "chops").py()?;
        }
        list_from(c, "chops", chop_item)
    })?
    .unwrap_or_default();
    let chops = tl::chop_list(&remaining, &chops, base, &rules).py()?;
    let carried = carried_from(carried, "carried")?;
    Ok(settlement(tl::settle(&remaining, winner, base, played_any.as_deref(), &chops, carried.as_deref(), &rules).py()?))
}

/// Settle an instant win (RULES 2.5/2.6) from every seat's 13 dealt cards: each loser
/// pays ``base × 26``, plus its specials and 2s unless it also held an instant win.
/// Nobody holding one is an error.
#[pyfunction]
#[pyo3(signature = (hands13, base=None, carried=None, rules=None))]
fn tl_settle_instant(
    hands13: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules_from(rules)?;
    let hands = list_from(hands13, "hands13", hand13)?;
    let base = base_from(base)?;
    let carried = carried_from(carried, "carried")?;
    Ok(settlement(
        tl::settle_instant(&hands, base, carried.as_deref(), &rules)
            .map_err(|e| handeval_wire::convert::rename(e, &[("hands", "hands13")], ""))
            .py()?,
    ))
}

// ---- the whole game ----

/// One action `(seat, cards | "pass")` (of a round or a game), its parts named
/// `field.seat` / `field.cards`.
fn game_action(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<(usize, Action)> {
    let ok = (obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>()) && obj.len()? == 2;
    if !ok {
        return Err(bad(field, "expected (seat, \"cards\" or \"pass\")"));
    }
    let seat = usize_from(&obj.get_item(0)?, &format!("{field}.seat"))?;
    Ok((seat, action_from(&obj.get_item(1)?, &format!("{field}.cards"))?))
}

fn hands_from(obj: &Bound<'_, PyAny>) -> PyResult<Vec<Vec<Card>>> {
    if let Ok(n) = obj.len() {
        if n > 4 && !obj.is_instance_of::<PyString>() {
            return Err(to_py(
                handeval_core::Error::field("hands", format!("越式13张 has 2 to 4 players (got {n} hands)"))
                    .because(handeval_core::error::Reason::WrongCount),
            ));
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

        /// The state as seat ``seat`` sees it, as a dict (docs/grpc.md "Seat views"): the
        /// fields of ``to_dict()`` with the others' ``hands`` and ``held`` None, the
        /// choices of the seat to move (``legal_plays``, ``may_pass``, ``must_contain``)
        /// only on the viewer's turn, its own ``chop_offers`` only, plus ``counts`` (cards
        /// left per seat) and ``viewer``.
        fn view<'py>(slf: &Bound<'py, Self>, seat: &Bound<'py, PyAny>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
            let me = slf.get();
            let counts = (0..me.inner.players).map(|s| me.inner.held(s).len()).collect();
            let d = crate::game_common::seat_view(Self::to_dict(slf)?, seat, me.inner.turn(), counts, &["hands", "held"], &["legal_plays", "may_pass", "must_contain"])?;
            let v: usize = d.get_item("viewer")?.expect("set").extract()?;
            let offers = d.get_item("chop_offers")?.expect("a field").cast_into::<PyList>()?;
            let mine: Vec<Bound<'_, PyAny>> = offers.iter().filter(|o| o.get_item(0).and_then(|s| s.extract::<usize>()).is_ok_and(|s| s == v)).collect();
            d.set_item("chop_offers", pyo3::types::PyList::new(slf.py(), mine)?)?;
            Ok(d)
        }

        /// Settle the finished game from its record (RULES 2.6, the cap, the rake): cards
        /// left, plays, 2s, specials and chops are derived, an instant win settled as one.
        #[pyo3(signature = (base=None, carried=None))]
        fn settle(&self, base: Option<&Bound<'_, PyAny>>, carried: Option<&Bound<'_, PyAny>>) -> PyResult<Settlement> {
            let base = opt(base, |b| int_from(b, "base"))?.unwrap_or(1);
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
fn tl_replay(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    actions: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<TienlenGame> {
    let rules = rules_from(rules)?;
    if let Ok(n) = actions.len() {
        tl::game::check_record_len(n, "actions").py()?;
    }
    let hands = hands_from(hands)?;
    let actions = list_from(actions, "actions", game_action)?;
    let inner = py.detach(|| tl::Game::replay(&hands, &actions, &rules)).py()?;
    Ok(TienlenGame { inner })
}

fn history_item(py: Python<'_>, seat: usize, a: &Action) -> PyResult<Py<PyAny>> {
    Ok(match a {
        Action::Pass => (seat, "pass").into_pyobject(py)?.into_any().unbind(),
        Action::Play(c) => (seat, crate::result::card_list(py, &play::sorted(c))?).into_pyobject(py)?.into_any().unbind(),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
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
