//! Binding of handeval_core::shisanshui (十三水).

use crate::conv::{bad, RuleAttrs, card_strings, cards_from, carried_from, int_from, list_from, IntoPyResult};
use handeval_core::cards::Card;
use handeval_core::shisanshui::{self as ssw, eval, Hand, Rules, SpecialId, SuitOrder, WheelRank};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// `None` → default rules; otherwise any object with the option attributes (the Python
/// `shisanshui.Rules` dataclass).
pub(crate) fn rules_from(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Rules> {
    let Some(o) = obj.filter(|o| !o.is_none()) else { return Ok(Rules::default()) };
    let r = RuleAttrs(o);
    let within = |e: handeval_core::Error| e.within("rules");
    let rules = Rules {
        suit_tiebreak: r.flag("suit_tiebreak")?,
        suit_order: SuitOrder::parse(&r.text("suit_order")?).map_err(within).py()?,
        a2345: WheelRank::parse(&r.text("a2345")?).map_err(within).py()?,
        foul_scoring: r.flag("foul_scoring")?,
        home_run_min_opponents: r.count("home_run_min_opponents", "a non-negative integer")?,
        rake_percent: r.count("rake_percent", "a non-negative integer")?,
    };
    rules.validate().map_err(within).py()?;
    Ok(rules)
}

fn row(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<Card>> {
    let cards = cards_from(obj, field)?;
    if cards.len() != 3 && cards.len() != 5 {
        return Err(bad(field, format!("a row has 3 or 5 cards, got {}", cards.len())));
    }
    Ok(cards)
}

/// (category, category_zh, strength, cards in order of significance)
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn ssw_classify(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<(&'static str, &'static str, u32, Vec<String>)> {
    let rules = rules_from(rules)?;
    let cards = row(cards, "cards")?;
    let v = eval::row_value(&cards, &rules).py()?;
    let cat = v.category();
    Ok((cat.name(), cat.name_zh(), v.strength, card_strings(&eval::significance_order(&cards, &rules))))
}

/// Categories of many rows; parsing holds the GIL, evaluation releases it.
#[pyfunction]
#[pyo3(signature = (rows, rules=None))]
fn ssw_classify_many(py: Python<'_>, rows: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<PyString>>> {
    let rules = rules_from(rules)?;
    let parsed = list_from(rows, "rows", row)?;
    let strengths: Vec<u32> = py.detach(|| parsed.iter().map(|r| eval::strength(r, &rules).unwrap_or(0)).collect());
    let names: Vec<Py<PyString>> = eval::Category::ALL.iter().map(|c| PyString::intern(py, c.name()).unbind()).collect();
    Ok(strengths.iter().map(|s| names[(s >> 20) as usize].clone_ref(py)).collect())
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
    m.add_function(wrap_pyfunction!(ssw_classify_many, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_categories_from_ids, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_compare, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_is_foul, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_special, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_special_table, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_makes_special, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_settle, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_order_keys, m)?)?;
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
