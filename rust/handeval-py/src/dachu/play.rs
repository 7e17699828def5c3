//! 打儲 plays (RULES 3.2–3.3, 3.7's timeout): the `Play` class and the functions on cards.

use super::args::{chu_from, rules_from};
use crate::conv::{bad, cards_from, list_from, opt, opt_flag, to_py, IntoPyResult};
use crate::game_common::{first_mismatch, KindNames};
use crate::native_class;
use crate::result::{card_list, many_items, Cards};
use handeval_core::cards::Card;
use handeval_core::dachu::{self as dc, Chu, Constraints, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyList, PyString, PyTuple};

fn kind_names(py: Python<'_>, k: Kind) -> (Bound<'_, PyString>, Bound<'_, PyString>) {
    static NAMES: KindNames = KindNames::new();
    NAMES.get(py, k as usize, &Kind::ALL, Kind::name, Kind::name_zh)
}

native_class! {
    #[pyclass(from_py_object, module = "handeval.dachu", name = "Play")]
    /// A classified play. ``Play(kind, kind_zh, cards, strength)`` checks that the cards make
    /// that play under one of the 儲 colours (pickling rebuilds it so); :func:`classify` is
    /// the usual way to get one.
    #[derive(Clone, Debug)]
    pub struct DachuPlay {
        pub(crate) core: dc::Play,
        pub(crate) cards: Vec<Card>,
    }
    fields {
        /// One of `KINDS`.
        fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            kind_names(py, self.core.kind).0
        }
        /// Its Chinese name, e.g. `獨儲`.
        fn kind_zh<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            kind_names(py, self.core.kind).1
        }
        /// The cards (from ``legal_plays``: in the game's order, weakest first).
        fn cards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
            card_list(py, &self.cards)
        }
        /// Higher is stronger within a kind and length: singles 1 = 3 … 11 = K, 12 plain A,
        /// 13 the 2, 14 儲A; pairs and bombs 1 = 3 … 12 = A, 13 = 2; straights the top
        /// card's place in A(1) 2 3 … K(13) A(14).
        fn strength(&self) -> u8 {
            self.core.strength
        }
    }
    impl {
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
                match first_mismatch(&me, &[("kind", kind), ("kind_zh", kind_zh), ("strength", strength)])? {
                    None => return Ok(p),
                    Some((name, actual, given)) if chu == Chu::Black => {
                        return Err(crate::conv::bad_as(name, format!("{} makes {name} = {actual}, not {given}", handeval_core::cards::format_cards(&cards)), handeval_core::Reason::Inconsistent));
                    }
                    Some(_) => {}
                }
            }
            Err(to_py(first_err.expect("a classification failed").within("cards")))
        }
        fn __len__(&self) -> usize {
            self.cards.len()
        }
    }
}

impl From<dc::LegalPlay> for DachuPlay {
    fn from(p: dc::LegalPlay) -> Self {
        DachuPlay { core: p.play, cards: p.cards }
    }
}

/// Cards, or a `dachu.Play`'s cards (no parsing).
pub(super) fn set_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    if let Ok(p) = obj.cast::<DachuPlay>() {
        return Ok(p.get().cards.clone());
    }
    cards_from(obj, field)
}

/// Optional cards (or a `dachu.Play`).
fn opt_cards(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Option<Vec<Card>>> {
    opt(obj, |o| set_from(o, field))
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
fn dc_beats_many(
    py: Python<'_>,
    pairs: &Bound<'_, PyAny>,
    chu: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let parsed = list_from(pairs, "pairs", |x, f| Ok(pair_from(x, f)))?;
    many_items(
        py,
        parsed,
        |i, (p, t)| dc::beats(p, t, chu, &rules).map_err(|e| e.within(&format!("pairs[{i}]"))),
        |py, v| Ok(PyBool::new(py, v).to_owned().into_any().unbind()),
    )
}

/// The arguments `legal_plays` and `timeout_play` share, read in this order (so the first
/// bad one is the one reported): rules, chu, the hand (by the caller's reader), table,
/// then the constraints.
struct PlayArgs<H> {
    rules: dc::Rules,
    chu: Chu,
    hand: H,
    table: Option<Vec<Card>>,
    cons: Constraints,
}

fn play_args<'py, H>(
    hand: &Bound<'py, PyAny>,
    read_hand: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<H>,
    table: Option<&Bound<'py, PyAny>>,
    chu: &Bound<'py, PyAny>,
    first_lead: Option<&Bound<'py, PyAny>>,
    surrendered: Option<&Bound<'py, PyAny>>,
    shown_triple: Option<&Bound<'py, PyAny>>,
    rules: Option<&Bound<'py, PyAny>>,
) -> PyResult<PlayArgs<H>> {
    let rules = rules_from(rules)?;
    let chu = chu_from(chu)?;
    let hand = read_hand(hand)?;
    let table = opt_cards(table, "table")?;
    let cons = Constraints {
        first_lead: opt_flag(first_lead, "first_lead")?,
        surrendered: opt_flag(surrendered, "surrendered")?,
        shown_triple: opt_cards(shown_triple, "shown_triple")?.unwrap_or_default(),
    };
    Ok(PlayArgs { rules, chu, hand, table, cons })
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
    let a = play_args(hand, |h| cards_from(h, "hand"), table, chu, first_lead, surrendered, shown_triple, rules)?;
    let plays = py.detach(|| dc::legal_plays(&a.hand, a.table.as_deref(), a.chu, &a.cons, &a.rules)).py()?;
    Ok(plays.into_iter().map(DachuPlay::from).collect())
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
    let a = play_args(hand, columns_from, table, chu, first_lead, surrendered, shown_triple, rules)?;
    Ok(py.detach(|| dc::timeout_play(&a.hand, a.table.as_deref(), a.chu, &a.cons, &a.rules)).py()?.map(Cards))
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(dc_classify, m)?)?;
    m.add_function(wrap_pyfunction!(dc_beats, m)?)?;
    m.add_function(wrap_pyfunction!(dc_beats_many, m)?)?;
    m.add_function(wrap_pyfunction!(dc_legal_plays, m)?)?;
    m.add_function(wrap_pyfunction!(dc_timeout_play, m)?)?;
    Ok(())
}
