//! Binding of handeval_core::shisanshui (十三水).

use crate::conv::{bad, card_strings, cards_from, carried_from, int_from, list_from, IntoPyResult};
use handeval_core::cards::Card;
use handeval_core::shisanshui::{self as ssw, eval, Hand, Rules, SpecialId, SuitOrder, WheelRank};
use crate::result::{add_class, item_error, Cards};
use crate::rules::{self, rules_arg, GameRules};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString};

/// 十三水's house-rule options (`handeval.shisanshui.Rules`); see [`crate::rules`] for the
/// pattern. The defaults are the core's `Rules::default()`.
#[pyclass(frozen, name = "Rules", module = "handeval.shisanshui")]
#[derive(Clone, Default)]
pub struct ShisanshuiRules {
    pub core: Rules,
}

impl GameRules for ShisanshuiRules {
    type Core = Rules;
    const GAME: &'static str = "shisanshui";
    fn core(&self) -> &Rules {
        &self.core
    }
}

pub(crate) fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    rules_arg::<ShisanshuiRules>(obj)
}

crate::result_methods!(ShisanshuiRules, [suit_tiebreak, suit_order, a2345, foul_scoring, home_run_min_opponents, rake_percent] {
    #[new]
    #[pyo3(signature = (*, suit_tiebreak=None, suit_order=None, a2345=None, foul_scoring=None, home_run_min_opponents=None, rake_percent=None))]
    fn new(
        suit_tiebreak: Option<&Bound<'_, PyAny>>,
        suit_order: Option<&Bound<'_, PyAny>>,
        a2345: Option<&Bound<'_, PyAny>>,
        foul_scoring: Option<&Bound<'_, PyAny>>,
        home_run_min_opponents: Option<&Bound<'_, PyAny>>,
        rake_percent: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let d = Rules::default();
        let core = Rules {
            suit_tiebreak: rules::flag(suit_tiebreak, "suit_tiebreak", d.suit_tiebreak)?,
            suit_order: rules::choice(suit_order, "suit_order", d.suit_order, SuitOrder::parse)?,
            a2345: rules::choice(a2345, "a2345", d.a2345, WheelRank::parse)?,
            foul_scoring: rules::flag(foul_scoring, "foul_scoring", d.foul_scoring)?,
            home_run_min_opponents: rules::count(home_run_min_opponents, "home_run_min_opponents", d.home_run_min_opponents)?,
            rake_percent: rules::count(rake_percent, "rake_percent", d.rake_percent)?,
        };
        Ok(ShisanshuiRules { core: rules::validated(core, Rules::validate)? })
    }
    /// Equal ranks are decided by suits (no ties); off: an exact rank tie scores 0.
    #[getter]
    fn suit_tiebreak(&self) -> bool {
        self.core.suit_tiebreak
    }
    /// Suits strongest first, e.g. "shcd" (♠ > ♥ > ♣ > ♦).
    #[getter]
    fn suit_order(&self) -> String {
        self.core.suit_order.to_text()
    }
    /// Where A2345 ranks: "lowest" or "second_highest" (just below TJQKA).
    #[getter]
    fn a2345(&self) -> &'static str {
        self.core.a2345.as_str()
    }
    /// A fouled hand loses every row and counts as scooped; off: fouls are rejected.
    #[getter]
    fn foul_scoring(&self) -> bool {
        self.core.foul_scoring
    }
    /// 全垒打 needs at least this many opponents.
    #[getter]
    fn home_run_min_opponents(&self) -> u32 {
        self.core.home_run_min_opponents
    }
    /// 抽水: percent of each positive result.
    #[getter]
    fn rake_percent(&self) -> u32 {
        self.core.rake_percent
    }
});

crate::native_result! {
    module = "handeval.shisanshui";
    /// A classified 3- or 5-card row.
    pub struct Row {
        /// One of CATEGORIES, e.g. "straight_flush".
        pub category: String,
        /// The category's Chinese name, e.g. 同花顺.
        pub category_zh: String,
        /// Orders rows by category and ranks (no suits); also valid across 3 vs 5 cards.
        pub strength: u32,
        /// The cards in order of significance (biggest group first, A last in A2345).
        pub cards: Cards,
    }
}

fn row(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    let cards = cards_from(obj, field)?;
    if cards.len() != 3 && cards.len() != 5 {
        return Err(bad(field, format!("a row has 3 or 5 cards, got {}", cards.len())));
    }
    Ok(cards)
}

/// Classify a 3-card front or a 5-card row.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn ssw_classify(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Row> {
    let rules = rules_from(rules)?;
    let cards = row(cards, "cards")?;
    let v = eval::row_value(&cards, &rules).py()?;
    let cat = v.category();
    Ok(Row {
        category: cat.name().to_owned(),
        category_zh: cat.name_zh().to_owned(),
        strength: v.strength,
        cards: Cards(eval::significance_order(&cards, &rules)),
    })
}

/// Category names as interned strings, indexed like `Category::ALL`.
fn category_names(py: Python<'_>) -> &[Py<PyString>] {
    static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    NAMES.get_or_init(py, || eval::Category::ALL.iter().map(|c| PyString::intern(py, c.name()).unbind()).collect())
}

/// Categories of many rows, one item per row: the category name, or the HandevalError
/// (field `rows[i]`) that row would raise. Parsing holds the GIL, evaluation releases it.
#[pyfunction]
#[pyo3(signature = (rows, rules=None))]
fn ssw_classify_many(py: Python<'_>, rows: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
    let rules = rules_from(rules)?;
    let parsed: Vec<PyResult<Vec<Card>>> = list_from(rows, "rows", |x, f| Ok(row(x, f)))?;
    let ok: Vec<&[Card]> = parsed.iter().filter_map(|r| r.as_deref().ok()).collect();
    let strengths: Vec<u32> = py.detach(|| ok.iter().map(|r| eval::strength(r, &rules).unwrap_or(0)).collect());
    let names = category_names(py);
    let mut strengths = strengths.into_iter();
    parsed
        .into_iter()
        .map(|r| match r {
            Ok(_) => Ok(names[(strengths.next().unwrap_or(0) >> 20) as usize].clone_ref(py).into_any()),
            Err(e) => item_error(py, e),
        })
        .collect()
}

/// Categories (one byte each, 0 = high_card … 8 = straight_flush) of rows packed as card
/// ids (`rank * 4 + suit`, one byte per card, `row_size` bytes per row). The bulk path:
/// no strings, GIL released for the whole batch.
#[pyfunction]
#[pyo3(signature = (data, row_size=None, rules=None))]
fn ssw_categories_from_ids(py: Python<'_>, data: &Bound<'_, PyAny>, row_size: Option<&Bound<'_, PyAny>>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Py<pyo3::types::PyBytes>> {
    let rules = rules_from(rules)?;
    // An integer (a bad one is a HandevalError, not a TypeError); None = 5.
    let row_size = match row_size {
        Some(r) if !r.is_none() => int_from(r, "row_size")?,
        _ => 5,
    };
    let bytes = data.cast::<pyo3::types::PyBytes>().map_err(|_| bad("data", "expected bytes of card ids"))?.as_bytes();
    if row_size != 3 && row_size != 5 {
        return Err(bad("row_size", format!("must be 3 or 5, got {row_size}")));
    }
    let row_size = row_size as usize;
    if bytes.len() % row_size != 0 {
        return Err(bad("data", format!("{} bytes is not a whole number of {row_size}-card rows", bytes.len())));
    }
    let out: Result<Vec<u8>, handeval_core::Error> = py.detach(|| {
        bytes
            .chunks_exact(row_size)
            .enumerate()
            .map(|(i, row)| {
                let mut seen = 0u64;
                let mut cards = [Card(0); 5];
                for (j, &id) in row.iter().enumerate() {
                    let c = Card::from_id(id).map_err(|e| e.within(&format!("data[{i}]")))?;
                    if seen & c.bit() != 0 {
                        return Err(handeval_core::Error::field(format!("data[{i}]"), format!("duplicate card {c}")));
                    }
                    seen |= c.bit();
                    cards[j] = c;
                }
                Ok((eval::strength(&cards[..row_size], &rules)? >> 20) as u8)
            })
            .collect()
    });
    Ok(pyo3::types::PyBytes::new(py, &out.py()?).unbind())
}

#[pyfunction]
#[pyo3(signature = (a, b, rules=None))]
fn ssw_compare(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<i32> {
    let rules = rules_from(rules)?;
    let (a, b) = (row(a, "a")?, row(b, "b")?);
    Ok(eval::compare_rows(&a, &b, &rules).py()? as i32)
}

#[pyfunction]
#[pyo3(signature = (front, middle, back, rules=None))]
fn ssw_is_foul(front: &Bound<'_, PyAny>, middle: &Bound<'_, PyAny>, back: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let rules = rules_from(rules)?;
    let (f, m, b) = (cards_from(front, "front")?, cards_from(middle, "middle")?, cards_from(back, "back")?);
    handeval_core::cards::check_distinct_across(&[("front".into(), &f), ("middle".into(), &m), ("back".into(), &b)]).py()?;
    eval::is_foul(&f, &m, &b, &rules).py()
}

type SpecialTuple = (&'static str, &'static str, i64, Option<[Vec<String>; 3]>);

fn special_tuple(s: &ssw::SpecialHand) -> SpecialTuple {
    (s.id.id(), s.id.name_zh(), s.id.waters(), s.split.as_ref().map(|[f, m, b]| [card_strings(f), card_strings(m), card_strings(b)]))
}

/// None or (id, name_zh, waters, split or None)
#[pyfunction]
fn ssw_special(cards: &Bound<'_, PyAny>) -> PyResult<Option<SpecialTuple>> {
    let cards = cards_from(cards, "cards")?;
    Ok(ssw::special(&cards).py()?.as_ref().map(special_tuple))
}

/// Whether the 13 cards make the given special (not necessarily their highest).
#[pyfunction]
fn ssw_makes_special(cards: &Bound<'_, PyAny>, special: &Bound<'_, PyAny>) -> PyResult<bool> {
    let cards = cards_from(cards, "cards")?;
    let id: String = special.extract().map_err(|_| bad("special", "must be a special id string"))?;
    let id = SpecialId::parse(&id).map_err(|e| e.within("special")).py()?;
    match ssw::verify_special(&cards, id) {
        Ok(_) => Ok(true),
        Err(_) if cards.len() == 13 => Ok(false),
        Err(e) => Err(e.within("cards")).py(),
    }
}

/// [(id, name_zh, waters)] highest first.
#[pyfunction]
fn ssw_special_table() -> Vec<(&'static str, &'static str, i64)> {
    SpecialId::BY_STRENGTH.iter().map(|s| (s.id(), s.name_zh(), s.waters())).collect()
}

pub(crate) fn hand_from(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Hand> {
    let d = obj.cast::<PyDict>().map_err(|_| bad(field, "expected a dict with front/middle/back or special/cards"))?;
    let item = |k: &str| d.get_item(k);
    if let Some(sp) = item("special")? {
        for k in d.keys() {
            let k: String = k.extract().unwrap_or_default();
            if !["special", "cards"].contains(&k.as_str()) {
                return Err(bad(field, format!("unexpected key {k:?} beside \"special\"")));
            }
        }
        let id: String = sp.extract().map_err(|_| bad(&format!("{field}.special"), "must be a special id string"))?;
        let id = SpecialId::parse(&id).map_err(|e| e.within(&format!("{field}.special"))).py()?;
        let cards = item("cards")?.ok_or_else(|| bad(field, "a declared special needs its 13 \"cards\""))?;
        return Ok(Hand::Special { id, cards: cards_from(&cards, &format!("{field}.cards"))? });
    }
    for k in d.keys() {
        let k: String = k.extract().unwrap_or_default();
        if !["front", "middle", "back"].contains(&k.as_str()) {
            return Err(bad(field, format!("unexpected key {k:?} (expected front, middle, back; or special, cards)")));
        }
    }
    let get = |k: &str| -> PyResult<Vec<Card>> {
        let v = item(k)?.ok_or_else(|| bad(field, format!("missing \"{k}\"")))?;
        cards_from(&v, &format!("{field}.{k}"))
    };
    Ok(Hand::Rows { front: get("front")?, middle: get("middle")?, back: get("back")? })
}

type PairTuple = (usize, usize, &'static str, [i64; 3], i8, bool, i64);
type SettleTuple = (Vec<i64>, Vec<Vec<i64>>, Vec<bool>, Vec<Option<SpecialTuple>>, Vec<bool>, Vec<i64>, Vec<i64>, i64, Vec<PairTuple>);

/// (waters, pairwise, fouls, specials, home_runs, theoretical, deltas, rake, pairs)
#[pyfunction]
#[pyo3(signature = (players, base=None, carried=None, rules=None))]
fn ssw_settle(
    players: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<SettleTuple> {
    let rules = rules_from(rules)?;
    let hands = list_from(players, "players", hand_from)?;
    let base = match base {
        Some(b) => int_from(b, "base")?,
        None => 1,
    };
    let carried = carried_from(carried, "carried")?;
    let s = ssw::settle(&hands, base, carried.as_deref(), &rules).py()?;
    Ok((
        s.waters,
        s.pairwise,
        s.fouls,
        s.specials.iter().map(|x| x.as_ref().map(special_tuple)).collect(),
        s.home_runs,
        s.theoretical,
        s.deltas,
        s.rake,
        s.pairs.iter().map(|p| (p.a, p.b, p.kind.as_str(), p.rows, p.scoop, p.home_run, p.waters)).collect(),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ssw_classify, m)?)?;
    add_class::<ShisanshuiRules>(m, "ShisanshuiRules")?;
    add_class::<Row>(m, "ShisanshuiRow")?;
    m.add_function(wrap_pyfunction!(ssw_classify_many, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_categories_from_ids, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_compare, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_is_foul, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_special, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_special_table, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_makes_special, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_settle, m)?)?;
    Ok(())
}
