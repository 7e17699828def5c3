//! Plays: classification, comparison and the legal plays.

use super::args::rules_from;
use crate::conv::{bad, cards_from, list_from, opt, opt_flag, IntoPyResult};
use crate::game_common::{first_mismatch, KindNames};
use crate::native_class;
use crate::result::{card_str, item_error, many_items};
use handeval_core::cards::Card;
use handeval_core::tienlen::{self as tl, play, Kind};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

// ---- Play ----

/// Interned names of the play kinds (`kind`, `kind_zh`): legal_plays returns dozens of
/// plays per call.
pub(super) fn kind_names(py: Python<'_>, k: Kind) -> (Bound<'_, PyString>, Bound<'_, PyString>) {
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
        /// One of `KINDS`.
        fn kind<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
            kind_names(py, self.core.kind()).0
        }
        /// Its Chinese name, e.g. `3连对`.
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
        /// 0 = 3♠ … 51 = 2♥: the top card's place in the game's order.
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
pub(super) fn set_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
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
pub(super) fn play_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<tl::Play> {
    if let Ok(p) = obj.cast::<TienlenPlay>() {
        return Ok(p.get().core.clone());
    }
    let cards = set_from(obj, field)?;
    tl::classify(&cards).map_err(|e| e.within(field)).py()
}

/// Like [`play_from`], quick path first (no error text is built for good input).
pub(super) fn quick_play(obj: &Bound<'_, PyAny>, field: impl Fn() -> String) -> PyResult<tl::Play> {
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
pub(super) fn tl_classify(cards: &Bound<'_, PyAny>) -> PyResult<TienlenPlay> {
    Ok(TienlenPlay { core: play_from(cards, "cards")? })
}

/// Kinds of many sets in one call: per set its kind, or the HandevalError (not raised)
/// naming `sets[i]`.
#[pyfunction]
pub(super) fn tl_classify_many(py: Python<'_>, sets: &Bound<'_, PyAny>) -> PyResult<Vec<Py<PyAny>>> {
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
pub(super) fn tl_beats(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    rules_from(rules)?;
    let (b, a) = (play_from(play, "play")?, play_from(table, "table")?);
    tl::beats(&b, &a).py()
}

/// Why ``play`` does not beat ``table``, or None when it does.
#[pyfunction]
pub(super) fn tl_why_not(play: &Bound<'_, PyAny>, table: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    let (b, a) = (play_from(play, "play")?, play_from(table, "table")?);
    tl::beats(&b, &a).py()?;
    Ok(play::why_not(&b, &a))
}

/// (play, table) of one pair, each named `pairs[i][0|1]` in its error.
pub(super) fn pair_from(item: &Bound<'_, PyAny>, f: &str) -> PyResult<(tl::Play, tl::Play)> {
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
pub(super) fn tl_beats_many(py: Python<'_>, pairs: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
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
pub(super) fn tl_legal_plays(
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
