//! Binding of handeval_core::shisanshui (十三水): rows, comparison, specials and settlement
//! here, the arrangement in `arrange.rs`; `args.rs` holds the `Rules` and the hand reader
//! both use (so `arrange.rs` does not import this file).

mod args;
mod arrange;

pub(crate) use args::ShisanshuiRules;
use args::{hand_from, rules_from};

use crate::conv::{bad, base_from, cards_from, carried_from, check_list, given, int_from, list_from, quick_cards_into, IntoPyResult};
use crate::result::{add_class, item_error, Cards, RowCards, Text};
use handeval_core::cards::Card;
use handeval_core::shisanshui::{self as ssw, eval, SpecialId};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;

crate::native_class! {
    #[pyclass(module = "handeval.shisanshui")]
    /// A classified 3- or 5-card row.
    pub struct Row {
        /// One of `CATEGORIES`, e.g. `"straight_flush"` (a front is only high card, pair or
        /// trips).
        pub category: Text,
        /// Its Chinese name, e.g. `同花顺`.
        pub category_zh: Text,
        /// Orders rows by category and ranks, without suits; comparable across 3 and 5 cards
        /// (the foul check uses it).
        pub strength: u32,
        /// The cards in order of significance (biggest group first; the A last in `A2345`).
        pub cards: RowCards,
    }
}

fn row(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    let cards = cards_from(obj, field)?;
    if cards.len() != 3 && cards.len() != 5 {
        return Err(crate::conv::bad_as(field, format!("a row has 3 or 5 cards, got {}", cards.len()), handeval_core::Reason::WrongCount));
    }
    Ok(cards)
}

/// A row's cards into `buf`, their number returned (3 or 5): the allocation-free fast
/// path of [`quick_cards_into`], anything else through [`row`] (which words the error).
#[inline]
fn row_into(obj: &Bound<'_, PyAny>, field: &str, buf: &mut [Card; 5]) -> PyResult<usize> {
    match quick_cards_into(obj, buf) {
        Some(n @ (3 | 5)) => Ok(n),
        _ => {
            let cards = row(obj, field)?;
            buf[..cards.len()].copy_from_slice(&cards);
            Ok(cards.len())
        }
    }
}

/// Classify a 3-card front or a 5-card row.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn ssw_classify(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Row> {
    let rules = rules_from(rules)?;
    let mut buf = [Card(0); 5];
    let n = row_into(cards, "cards", &mut buf)?;
    let (strength, order) = eval::classify_row(&buf[..n], &rules).py()?;
    let cat = eval::Category::from_strength(strength);
    Ok(Row { category: cat.name().into(), category_zh: cat.name_zh().into(), strength, cards: RowCards::new(order, n) })
}

/// The floor of a call into the extension, for the benchmarks: the signature of
/// `classify` (one positional argument, `rules=None`), no work, a cached object returned.
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn _call_floor(py: Python<'_>, cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> Py<PyAny> {
    let _ = (cards, rules);
    category_names(py)[0].clone_ref(py).into_any()
}

/// Category names as interned strings, indexed like `Category::ALL`.
fn category_names(py: Python<'_>) -> &[Py<PyString>] {
    static NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();
    NAMES.get_or_init(py, || eval::Category::ALL.iter().map(|c| PyString::intern(py, c.name()).unbind()).collect())
}

/// Categories of many rows, one item per row: the category name, or the HandevalError
/// `classify(row)` raises (same field and description; its place in the list says which
/// row). Parsing holds the GIL (the fast path into a fixed buffer; a row it does not take
/// is re-read by [`row`] for its error), evaluation releases it.
#[pyfunction]
#[pyo3(signature = (rows, rules=None))]
fn ssw_classify_many(py: Python<'_>, rows: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyAny>>> {
    let rules = rules_from(rules)?;
    check_list(rows, "rows")?;
    let mut parsed: Vec<([Card; 5], u8)> = Vec::with_capacity(rows.len().unwrap_or(0));
    let mut errors: Vec<(usize, PyErr)> = Vec::new();
    for (i, item) in rows.try_iter()?.enumerate() {
        let item = item?;
        let mut buf = [Card(0); 5];
        // (the item's error is the one classify(item) raises: field "cards")
        match quick_cards_into(&item, &mut buf) {
            Some(n @ (3 | 5)) => parsed.push((buf, n as u8)),
            _ => match row(&item, "cards") {
                Ok(cards) => {
                    buf[..cards.len()].copy_from_slice(&cards);
                    parsed.push((buf, cards.len() as u8));
                }
                Err(e) => {
                    errors.push((i, e));
                    parsed.push((buf, 0));
                }
            },
        }
    }
    let cats: Vec<u8> = py.detach(|| {
        parsed
            .iter()
            .map(|(c, n)| if *n == 0 { u8::MAX } else { (eval::strength(&c[..*n as usize], &rules).unwrap_or(0) >> 20) as u8 })
            .collect()
    });
    let names = category_names(py);
    let mut errors = errors.into_iter().peekable();
    cats.iter()
        .enumerate()
        .map(|(i, &c)| {
            if c == u8::MAX {
                let (j, e) = errors.next().expect("one error per unparsed row");
                debug_assert_eq!(i, j);
                item_error(py, e)
            } else {
                Ok(names[c as usize].clone_ref(py).into_any())
            }
        })
        .collect()
}

/// Categories (one byte each, 0 = high_card … 8 = straight_flush) of rows packed as card
/// ids (`rank * 4 + suit`, one byte per card, `row_size` bytes per row). The bulk path:
/// no strings, GIL released for the whole batch. All or nothing: the first bad row
/// raises, field `data[i]`.
#[pyfunction]
#[pyo3(signature = (data, row_size=None, rules=None))]
fn ssw_categories_from_ids(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    row_size: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<pyo3::types::PyBytes>> {
    // The category does not depend on the rules (a2345 moves a straight within its
    // category), but a bad rules argument is still refused.
    let _ = rules_from(rules)?;
    // An integer (a bad one is a HandevalError, not a TypeError); None = 5.
    let row_size = match given(row_size) {
        Some(r) => int_from(r, "row_size")?,
        _ => 5,
    };
    let bytes = data.cast::<pyo3::types::PyBytes>().map_err(|_| bad("data", "expected bytes of card ids"))?.as_bytes();
    if row_size != 3 && row_size != 5 {
        return Err(crate::conv::bad_as("row_size", format!("must be 3 or 5, got {row_size}"), handeval_core::Reason::OutOfRange));
    }
    // The bulk loop is the core's, as for the server's packed rows (GIL released).
    let out = py.detach(|| eval::categories_from_ids(bytes, row_size as usize));
    Ok(pyo3::types::PyBytes::new(py, &out.py()?).unbind())
}

#[pyfunction]
#[pyo3(signature = (a, b, rules=None))]
fn ssw_compare(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<i32> {
    let rules = rules_from(rules)?;
    let (mut x, mut y) = ([Card(0); 5], [Card(0); 5]);
    let (na, nb) = (row_into(a, "a", &mut x)?, row_into(b, "b", &mut y)?);
    Ok(eval::compare_rows(&x[..na], &y[..nb], &rules).py()? as i32)
}

#[pyfunction]
#[pyo3(signature = (front, middle, back, rules=None))]
fn ssw_is_foul(
    front: &Bound<'_, PyAny>,
    middle: &Bound<'_, PyAny>,
    back: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let rules = rules_from(rules)?;
    let (f, m, b) = (cards_from(front, "front")?, cards_from(middle, "middle")?, cards_from(back, "back")?);
    handeval_core::cards::check_distinct_across(&[("front".into(), &f), ("middle".into(), &m), ("back".into(), &b)]).py()?;
    eval::is_foul(&f, &m, &b, &rules).py()
}

crate::native_class! {
    #[pyclass(module = "handeval.shisanshui")]
    /// A special hand (特殊牌型, RULES 1.7) found in 13 cards.
    pub struct SpecialHand {
        /// The special's id, e.g. `"san_shunzi"`.
        pub id: Text,
        /// Its Chinese name, e.g. `三顺子`.
        pub name_zh: Text,
        /// Waters it scores from each opponent.
        pub waters: i64,
        /// `[front, middle, back]` card lists for 三同花顺 / 三顺子 / 三同花, else `None`.
        pub split: Option<Vec<Cards>>,
    }
}

impl From<&ssw::SpecialHand> for SpecialHand {
    fn from(s: &ssw::SpecialHand) -> Self {
        SpecialHand {
            id: s.id.id().into(),
            name_zh: s.id.name_zh().into(),
            waters: s.id.waters(),
            split: s.split.as_ref().map(|rows| rows.iter().map(|r| Cards(r.clone())).collect()),
        }
    }
}

/// The highest special hand the 13 cards make, or None.
#[pyfunction]
fn ssw_special(cards: &Bound<'_, PyAny>) -> PyResult<Option<SpecialHand>> {
    // Named as the Python API's parameter (shisanshui.special(cards13)).
    let cards = cards_from(cards, "cards13")?;
    Ok(ssw::special(&cards).map_err(|e| e.within("cards13")).py()?.as_ref().map(SpecialHand::from))
}

/// Whether the 13 cards satisfy the condition of the given special (RULES 1.7's table),
/// whether or not it is their highest — only the highest can be declared.
#[pyfunction]
fn ssw_makes_special(cards: &Bound<'_, PyAny>, special: &Bound<'_, PyAny>) -> PyResult<bool> {
    // Named as the Python API's parameters (shisanshui.makes_special(cards13, special_id)).
    let cards = cards_from(cards, "cards13")?;
    let id: String = special.extract().map_err(|_| bad("special_id", "must be a special id string"))?;
    let id = SpecialId::parse(&id).map_err(|e| e.within("special_id")).py()?;
    ssw::satisfies_special(&cards, id).map_err(|e| e.within("cards13")).py()
}

/// [(id, name_zh, waters)] highest first.
#[pyfunction]
fn ssw_special_table() -> Vec<(&'static str, &'static str, i64)> {
    SpecialId::BY_STRENGTH.iter().map(|s| (s.id(), s.name_zh(), s.waters())).collect()
}

crate::native_class! {
    #[pyclass(module = "handeval.shisanshui")]
    /// How seats `a < b` were scored, from `a`'s point of view.
    pub struct PairResult {
        /// The lower seat; the pair is scored from its point of view.
        pub a: usize,
        /// The higher seat.
        pub b: usize,
        /// `"rows"`, `"foul"` or `"special"`: how the pair was scored.
        pub kind: Text,
        /// Signed waters of front, middle, back before doubling (`[0, 0, 0]` unless rows were
        /// compared).
        pub rows: Vec<i64>,
        /// The seat that scooped (打枪) the other, or `None`.
        pub scooper: Option<usize>,
        /// The scooper's 全垒打 doubled this pair again.
        pub home_run: bool,
        /// What `a` wins from `b`, in waters; negative when `a` pays.
        pub waters: i64,
    }
}

crate::native_class! {
    #[pyclass(module = "handeval.shisanshui")]
    /// A settled 十三水 deal (RULES 1.6 scoring, RULES 4 money).
    pub struct Settlement {
        /// Total waters per seat.
        pub waters: Vec<i64>,
        /// Money per seat after the cap and the rake.
        pub deltas: Vec<i64>,
        /// `pairwise[i][j]`: the waters seat i wins from seat j.
        pub pairwise: Vec<Vec<i64>>,
        /// Whether each seat fouled (倒水).
        pub fouls: Vec<bool>,
        /// The declared special id per seat, or `None`.
        pub specials: Vec<Option<Text>>,
        /// Whether each seat scored a 全垒打.
        pub home_runs: Vec<bool>,
        /// `base × waters`, before the cap.
        pub theoretical: Vec<i64>,
        /// The total rake; `sum(deltas) + rake == 0`.
        pub rake: i64,
        /// One per pair of seats `a < b`.
        pub pairs: Vec<PairResult>,
    }
}

/// Score a deal and settle money.
#[pyfunction]
#[pyo3(signature = (players, base=None, carried=None, rules=None))]
fn ssw_settle(
    players: &Bound<'_, PyAny>,
    base: Option<&Bound<'_, PyAny>>,
    carried: Option<&Bound<'_, PyAny>>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Settlement> {
    let rules = rules_from(rules)?;
    let hands = list_from(players, "players", hand_from)?;
    let base = base_from(base)?;
    let carried = carried_from(carried, "carried")?;
    let s = ssw::settle(&hands, base, carried.as_deref(), &rules).py()?;
    Ok(Settlement {
        pairs: s
            .pairs
            .iter()
            .map(|p| PairResult {
                a: p.a,
                b: p.b,
                kind: p.kind.as_str().into(),
                rows: p.rows.to_vec(),
                scooper: p.scooper(),
                home_run: p.home_run,
                waters: p.waters,
            })
            .collect(),
        specials: s.specials.iter().map(|x| x.as_ref().map(|sp| sp.id.id().into())).collect(),
        waters: s.waters,
        deltas: s.deltas,
        pairwise: s.pairwise,
        fouls: s.fouls,
        home_runs: s.home_runs,
        theoretical: s.theoretical,
        rake: s.rake,
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ssw_classify, m)?)?;
    m.add_function(wrap_pyfunction!(_call_floor, m)?)?;
    add_class::<ShisanshuiRules>(m, "ShisanshuiRules")?;
    // Category names, lowest first (the index is the byte of categories_from_ids).
    m.add("SSW_CATEGORIES", pyo3::types::PyTuple::new(m.py(), eval::Category::ALL.iter().map(|c| c.name()))?)?;
    add_class::<Row>(m, "ShisanshuiRow")?;
    add_class::<SpecialHand>(m, "ShisanshuiSpecialHand")?;
    add_class::<PairResult>(m, "ShisanshuiPairResult")?;
    add_class::<Settlement>(m, "ShisanshuiSettlement")?;
    m.add_function(wrap_pyfunction!(ssw_classify_many, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_categories_from_ids, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_compare, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_is_foul, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_special, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_special_table, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_makes_special, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_settle, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_order_keys, m)?)?;
    arrange::register(m)?;
    Ok(())
}

/// `eval::order_keys` of many rows (they need not come from one deck); parsing holds the
/// GIL, the keys release it. An error names `rows[i]`.
#[pyfunction]
#[pyo3(signature = (rows, rules=None))]
fn ssw_order_keys(py: Python<'_>, rows: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u64>> {
    let rules = rules_from(rules)?;
    let parsed = list_from(rows, "rows", row)?;
    py.detach(|| eval::order_keys(&parsed, &rules)).map_err(|e| e.within("rows")).py()
}
