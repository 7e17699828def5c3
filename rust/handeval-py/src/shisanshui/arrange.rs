//! Binding of handeval_core::shisanshui::arrange (十三水 optimal arrangement).

use super::args::{hand_from, rules_from};
use crate::batch::{chunked, interruptible};
use crate::conv::{cards_from, field_renamed, int_from, list_from, to_py, IntoPyResult};
use crate::result::{add_class, item_error, Cards, Text};
use handeval_core::cards::Card;
use handeval_core::shisanshui::arrange::{self as arr, ArrangeResult, Options, MAX_SAMPLES, MAX_TOP_K};
use handeval_core::shisanshui::Rules;
use pyo3::prelude::*;

crate::native_class! {
    #[pyclass(module = "handeval.shisanshui")]
    /// An arrangement of 13 cards with its score (see `arrange`).
    pub struct Arrangement {
        /// The front row (3 cards).
        pub front: Cards,
        /// The middle row (5 cards).
        pub middle: Cards,
        /// The back row (5 cards).
        pub back: Cards,
        /// Expected waters against the opponents (`arrange`), or the exact waters against
        /// the given opponents (`best_response`).
        pub expected: f64,
        /// The special hand (§1.7) the 13 cards make, or `None`.
        pub special: Option<Text>,
        /// Declaring that special scores more than this arrangement.
        pub declare_special: bool,
        /// Expected (or exact) waters of declaring that special, or `None`.
        pub special_expected: Option<f64>,
        /// The `top_k` best arrangements, best first (`alternatives[0]` is this one without
        /// its alternatives); each has the same fields and no alternatives of its own.
        pub alternatives: Vec<Arrangement>,
    }
}

fn arrangement(r: &ArrangeResult) -> Arrangement {
    let special: Option<Text> = r.special.as_ref().map(|s| s.id.id().into());
    let one = |a: &arr::Arrangement| Arrangement {
        front: Cards(a.front.clone()),
        middle: Cards(a.middle.clone()),
        back: Cards(a.back.clone()),
        expected: a.expected,
        special: special.clone(),
        declare_special: r.declare_special,
        special_expected: r.special_expected,
        alternatives: Vec::new(),
    };
    let alternatives: Vec<Arrangement> = r.alternatives.iter().map(one).collect();
    Arrangement { alternatives, ..one(&r.best) }
}

fn options(
    opponents: &Bound<'_, PyAny>,
    top_k: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    samples: &Bound<'_, PyAny>,
) -> PyResult<Options> {
    let int = |obj, field| int_from(obj, field).map(i128::from);
    // Each read in the core's order, so that a bad type is named before a bad value.
    let (opponents, top_k, seed, samples) =
        (int(opponents, "opponents")?, int(top_k, "top_k")?, int(seed, "seed")?, int(samples, "samples")?);
    Options::from_ints(Some(opponents), Some(top_k), Some(seed), Some(samples)).py()
}

/// One hand: with `samples > 0` (Monte-Carlo, up to seconds per 1,000 samples) on a
/// worker thread so Ctrl-C is honoured; otherwise (about 0.1 ms) directly, GIL released.
fn arrange_one(py: Python<'_>, cards: Vec<Card>, o: Options, rules: Rules) -> PyResult<ArrangeResult> {
    if o.samples == 0 {
        return py.detach(|| arr::arrange(&cards, &o, &rules)).py();
    }
    interruptible(py, move || arr::arrange(&cards, &o, &rules))?.py()
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
) -> PyResult<Arrangement> {
    let rules = rules_from(rules)?;
    let o = options(opponents, top_k, seed, samples)?;
    // Named as the Python API's parameter (shisanshui.arrange(cards13, ...)).
    let renamed = |e| field_renamed(e, "cards", "cards13");
    let cards = cards_from(cards, "cards").map_err(renamed)?;
    Ok(arrangement(&arrange_one(py, cards, o, rules).map_err(renamed)?))
}

/// Hands per chunk of `arrange_many`: about 50 ms of one core's work between two looks
/// at signals (0.13 ms per hand, ~0.7 ms more per sample on the reference machine).
fn chunk_size(samples: u32) -> usize {
    (384 / (1 + 5 * samples as usize)).max(1)
}

/// Many hands, one item per hand: the Arrangement, or the HandevalError `arrange(hand)`
/// raises (same field and description; its place in the list says which hand). The search releases the GIL and uses every core;
/// signals are checked between chunks.
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
) -> PyResult<Vec<Py<PyAny>>> {
    let rules = rules_from(rules)?;
    let o = options(opponents, top_k, seed, samples)?;
    let parsed: Vec<PyResult<Vec<Card>>> = list_from(hands, "hands", |x, _| Ok(cards_from(x, "cards")))?;
    // The core batch fails as a whole on one bad hand; a chunk that fails is redone hand
    // by hand so every hand gets its own result or error.
    let good: Vec<&Vec<Card>> = parsed.iter().filter_map(|r| r.as_ref().ok()).collect();
    let run = |part: &[&Vec<Card>]| -> Vec<Result<ArrangeResult, handeval_core::Error>> {
        let cards: Vec<Vec<Card>> = part.iter().map(|c| (*c).clone()).collect();
        match arr::arrange_many(&cards, &o, &rules) {
            Ok(rs) => rs.into_iter().map(Ok).collect(),
            Err(_) => part.iter().map(|c| arr::arrange(c, &o, &rules)).collect(),
        }
    };
    let done = if o.samples == 0 {
        chunked(py, &good, chunk_size(0), run)?
    } else {
        // Each hand is long: one worker call per hand, interruptible while it runs, and
        // signals checked between hands too (a hand can end within one poll interval:
        // then the wait never timed out to look).
        let mut out = Vec::with_capacity(good.len());
        for &c in &good {
            py.check_signals()?;
            let (cards, o2, r2) = (c.clone(), o.clone(), rules.clone());
            out.push(interruptible(py, move || arr::arrange(&cards, &o2, &r2))?);
        }
        out
    };
    let mut done = done.into_iter();
    parsed
        .into_iter()
        .map(|r| match r {
            // As arrange(hand) names them.
            Err(e) => item_error(py, field_renamed(e, "cards", "cards13")),
            Ok(_) => match done.next().expect("one result per parsed hand") {
                Ok(a) => Ok(Py::new(py, arrangement(&a))?.into_any()),
                Err(e) => item_error(py, field_renamed(to_py(e), "cards", "cards13")),
            },
        })
        .collect()
}

#[pyfunction]
#[pyo3(signature = (cards, opponents, top_k, rules=None))]
fn ssw_best_response(
    py: Python<'_>,
    cards: &Bound<'_, PyAny>,
    opponents: &Bound<'_, PyAny>,
    top_k: &Bound<'_, PyAny>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Arrangement> {
    let rules = rules_from(rules)?;
    let top_k = arr::top_k_from(int_from(top_k, "top_k")?.into()).py()?;
    // Named as the Python API's parameter (shisanshui.best_response(cards13, ...)).
    let cards = cards_from(cards, "cards13")?;
    let opps = list_from(opponents, "opponents", hand_from)?;
    let r = py.detach(|| arr::best_response(&cards, &opps, top_k, &rules)).py().map_err(|e| field_renamed(e, "cards", "cards13"))?;
    Ok(arrangement(&r))
}

/// The greedy baseline: [front, middle, back].
#[pyfunction]
#[pyo3(signature = (cards, rules=None))]
fn ssw_arrange_greedy(cards: &Bound<'_, PyAny>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<[Cards; 3]> {
    let rules = rules_from(rules)?;
    let a = arr::greedy(&cards_from(cards, "cards")?, &rules).py()?;
    Ok([Cards(a.front), Cards(a.middle), Cards(a.back)])
}

pub(super) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ssw_arrange, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_arrange_many, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_best_response, m)?)?;
    m.add_function(wrap_pyfunction!(ssw_arrange_greedy, m)?)?;
    add_class::<Arrangement>(m, "ShisanshuiArrangement")?;
    // The bounds of arrange's arguments (the core's, so one definition).
    m.add("SSW_MAX_SAMPLES", MAX_SAMPLES)?;
    m.add("SSW_MAX_TOP_K", MAX_TOP_K)?;
    Ok(())
}
