//! Binding of handeval_core::shisanshui::arrange (十三水 optimal arrangement).

use crate::conv::{bad, card_strings, cards_from, int_from, list_from, IntoPyResult};
use crate::shisanshui::{hand_from, rules_from};
use handeval_core::cards::Card;
use handeval_core::shisanshui::arrange::{self as arr, ArrangeResult, Options};
use pyo3::prelude::*;

/// (front, middle, back, expected)
type ArrTuple = (Vec<String>, Vec<String>, Vec<String>, f64);
/// (alternatives, special id or None, special Chinese name or None, special expected or None, declare_special)
type ResultTuple = (Vec<ArrTuple>, Option<&'static str>, Option<&'static str>, Option<f64>, bool);

fn tuple(r: &ArrangeResult) -> ResultTuple {
    (
        r.alternatives
            .iter()
            .map(|a| (card_strings(&a.front), card_strings(&a.middle), card_strings(&a.back), a.expected))
            .collect(),
        r.special.as_ref().map(|s| s.id.id()),
        r.special.as_ref().map(|s| s.id.name_zh()),
        r.special_expected,
        r.declare_special,
    )
}

/// A non-negative integer option; `what` completes "must be …" for negative values.
fn natural(obj: &Bound<'_, PyAny>, field: &str, what: &str) -> PyResult<u64> {
    let v = int_from(obj, field)?;
    u64::try_from(v).map_err(|_| bad(field, format!("must be {what}, got {v}")))
}

fn options(opponents: &Bound<'_, PyAny>, top_k: &Bound<'_, PyAny>, seed: &Bound<'_, PyAny>, samples: &Bound<'_, PyAny>) -> PyResult<Options> {
    let o = Options {
        opponents: natural(opponents, "opponents", "1, 2 or 3")?.min(usize::MAX as u64) as usize,
        top_k: natural(top_k, "top_k", "at least 1")?.min(usize::MAX as u64) as usize,
        seed: natural(seed, "seed", "a non-negative integer")?,
        samples: u32::try_from(natural(samples, "samples", "a non-negative integer")?).unwrap_or(u32::MAX),
    };
    o.validate().py()?;
    Ok(o)
}

#[pyfunction]
#[pyo3(signature = (cards, opponents, top_k, seed, samples, rules=None))]
fn ssw_arrange(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    opponents: &Bound<'_, PyAny>,
    top_k: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<ResultTuple> {
    let rules = rules_from(rules)?;
    let o = options(opponents, top_k, seed, samples)?;
    let cards = cards_from(cards, "cards")?;
    let r = py.detach(|| arr::arrange(&cards, &o, &rules)).py()?;
    Ok(tuple(&r))
}

/// Many hands: parsing holds the GIL, the search releases it and uses every core.
#[pyfunction]
#[pyo3(signature = (hands, opponents, top_k, seed, samples, rules=None))]
fn ssw_arrange_many(
    py: Python<'_>,
    hands: &Bound<'_, PyAny>,
    opponents: &Bound<'_, PyAny>,
    top_k: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<ResultTuple>> {
    let rules = rules_from(rules)?;
    let o = options(opponents, top_k, seed, samples)?;
    let hands: Vec<Vec<Card>> = list_from(hands, "hands", cards_from)?;
    let rs = py.detach(|| arr::arrange_many(&hands, &o, &rules)).py()?;
    Ok(rs.iter().map(tuple).collect())
}

#[pyfunction]
#[pyo3(signature = (cards, opponents, top_k, rules=None))]
fn ssw_best_response(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    opponents: &Bound<'_, PyAny>,
    top_k: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<ResultTuple> {
    let rules = rules_from(rules)?;
    let top_k = natural(top_k, "top_k", "at least 1")?.min(usize::MAX as u64) as usize;
    let cards = cards_from(cards, "cards")?;
    let opps = list_from(opponents, "opponents", hand_from)?;
    let r = py.detach(|| arr::best_response(&cards, &opps, top_k, &rules)).py()?;
    Ok(tuple(&r))
}

/// The greedy baseline: (front, middle, back).
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn ssw_arrange_greedy(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<[Vec<String>; 3]> {
    let rules = rules_from(rules)?;
    let a = arr::greedy(&cards_from(cards, "cards")?, &rules).py()?;
    Ok([card_strings(&a.front), card_strings(&a.middle), card_strings(&a.back)])
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ssw_arrange, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_arrange_many, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_best_response, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_arrange_greedy, m)?)?;
    Ok(())
}
