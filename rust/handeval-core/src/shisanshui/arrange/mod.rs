//! 最优摆牌: the optimal 3/5/5 arrangement of 13 cards (RULES §1.8).
//!
//! * [`arrange`] — the foul-free arrangement with the highest expected waters against
//!   1–3 random opponents who arrange with this solver, from per-row win-probability
//!   tables ([`model`]); optionally re-ranked by a seeded Monte-Carlo simulation.
//! * [`best_response`] — the arrangement with the highest exact score against given
//!   opponents (post-game analysis).
//! * [`greedy`] — the naive baseline: strongest back, then strongest middle.
//!
//! A split is a back (5 of the 13 cards), a middle (5 of the other 8) and the rest in
//! front: 72,072 splits, each of the 1,287 five-card and 286 three-card subsets evaluated
//! once, fouled splits skipped with two integer comparisons. The expected value of a split
//! is a sum of per-row terms plus the 打枪 / 全垒打 product terms.
//!
//! * `splits.rs` — the subsets of 13 cards, the foul-free splits of a back, the `top_k`
//!   candidates;
//! * `search.rs` — the search, which prunes all but a few backs, and all but a few splits
//!   of those, without changing a bit of the answer; over one hand's tables
//!   (`hand.rs`), the tables by rank multiset shared by every hand (`rank_tables.rs`), the
//!   class numbering (`classes.rs`), the per-card bitsets (`bitset.rs`) and the counting
//!   sort (`counting_sort.rs`);
//! * [`model`] — the tables and the expected-waters model, over the simulated players
//!   (`policy.rs`) and the allocation-free scorer (`play.rs`);
//! * with the feature `train` (not a default: nothing the library's users call): `sim`,
//!   the training of the tables, and the helpers of the measuring tools
//!   (`monte_carlo_best`, `monte_carlo_eval`, `play_hand`; examples `train_arrange` and
//!   `arrange_quality`);
//! * with the feature `bench` (and in the tests): `reference.rs`, the exhaustive search,
//!   and `prior.rs`, the previous pruning search — the baselines of the speed benchmarks
//!   and the independent checks of the equality tests.

mod bitset;
mod classes;
mod counting_sort;
mod hand;
pub(crate) mod model;
// Its simulated players and deck are public through `sim` (feature `train`).
#[cfg_attr(not(feature = "train"), allow(unreachable_pub))]
mod play;
mod policy;
// The earlier searches: the baselines of the speed benchmarks (feature `bench`) and, in
// the tests, independent checks that the current search gives the same answers.
#[cfg(any(test, feature = "bench"))]
mod prior;
mod rank_tables;
#[cfg(any(test, feature = "bench"))]
mod reference;
mod search;
#[cfg(any(test, feature = "train"))]
pub mod sim;
mod splits;

use super::eval::{check_row_sizes, row_value, significance_array};
use super::rules::Rules;
use super::settle::Hand;
use super::special::{highest_special, special, verify_special, SpecialHand};
use crate::cards::{check_distinct, check_distinct_across, Card};
use crate::error::{Error, Reason, Result};
pub use model::{Model, Tables};
use play::{Play, Rng, Table};
pub use policy::Policy;
use policy::{greedy_split, policy_play};
#[cfg(any(test, feature = "train"))]
use policy::{policy_choice, Choice};
use rayon::prelude::*;
use search::solve;
use splits::{combos, pick, sorted_by_id, split_rows, Cand, Subsets};

/// One arrangement with its score (expected waters, or exact waters in `best_response`).
#[derive(Clone, Debug, PartialEq)]
pub struct Arrangement {
    pub front: Vec<Card>,
    pub middle: Vec<Card>,
    pub back: Vec<Card>,
    pub expected: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrangeResult {
    pub best: Arrangement,
    /// The `top_k` best arrangements, best first (`alternatives[0]` is `best`). Splits
    /// that differ only in suits (same classes in every row) score the same in the table
    /// model and are listed once.
    pub alternatives: Vec<Arrangement>,
    /// The special hand (RULES §1.7) the 13 cards make, if any.
    pub special: Option<SpecialHand>,
    /// Expected (or exact) waters of declaring that special.
    pub special_expected: Option<f64>,
    /// Declaring the special scores more than the best arrangement.
    pub declare_special: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Number of opponents, 1..=3.
    pub opponents: usize,
    /// How many alternatives to return, ≥ 1.
    pub top_k: usize,
    /// Seed of the Monte-Carlo re-ranking (used only when `samples > 0`).
    pub seed: u64,
    /// 0: table model only (fast). Otherwise re-rank the best table candidates by their
    /// mean exact waters over this many sampled opponent deals.
    pub samples: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options { opponents: 3, top_k: 1, seed: 0, samples: 0 }
    }
}

pub const MAX_SAMPLES: u32 = 1_000_000;
pub const MAX_TOP_K: usize = 72_072;

/// An integer argument as a caller gives it (a Python int, the wire's int32, any sign):
/// a negative one is OUT_OF_RANGE naming its field; `what` completes "must be …".
fn natural(value: i128, field: &str, what: &str) -> Result<u64> {
    u64::try_from(value).map_err(|_| Error::field(field, format!("must be {what}, got {value}")).because(Reason::OutOfRange))
}

/// How many alternatives, as a caller gives it (also `best_response`'s `top_k`).
pub fn top_k_from(value: i128) -> Result<usize> {
    Ok(usize::try_from(natural(value, "top_k", "at least 1")?).unwrap_or(usize::MAX))
}

impl Options {
    /// The options from the integers a caller gives (`None`: the default), read in the
    /// order opponents, top_k, seed, samples, each refused naming its field, then
    /// [`validate`](Self::validate)d: the one reading of the Python API's and the wire's
    /// arguments.
    pub fn from_ints(opponents: Option<i128>, top_k: Option<i128>, seed: Option<i128>, samples: Option<i128>) -> Result<Options> {
        let d = Options::default();
        let wide = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let o = Options {
            opponents: opponents.map_or(Ok(d.opponents), |v| natural(v, "opponents", "1, 2 or 3").map(wide))?,
            top_k: top_k.map_or(Ok(d.top_k), top_k_from)?,
            seed: seed.map_or(Ok(d.seed), |v| natural(v, "seed", "a non-negative integer"))?,
            samples: samples.map_or(Ok(d.samples), |v| {
                natural(v, "samples", &format!("0..{MAX_SAMPLES}")).map(|n| u32::try_from(n).unwrap_or(u32::MAX))
            })?,
        };
        o.validate()?;
        Ok(o)
    }

    pub fn validate(&self) -> Result<()> {
        if !(1..=3).contains(&self.opponents) {
            return Err(Error::field("opponents", format!("must be 1, 2 or 3 (十三水 has 2 to 4 players), got {}", self.opponents))
                .because(Reason::WrongCount));
        }
        if !(1..=MAX_TOP_K).contains(&self.top_k) {
            return Err(Error::field("top_k", format!("must be at least 1 (and at most {MAX_TOP_K}), got {}", self.top_k))
                .because(Reason::OutOfRange));
        }
        if self.samples > MAX_SAMPLES {
            return Err(Error::field("samples", format!("must be at most {MAX_SAMPLES}, got {}", self.samples)).because(Reason::OutOfRange));
        }
        Ok(())
    }
}

fn check_hand(cards: &[Card]) -> Result<[Card; 13]> {
    let arr: [Card; 13] = cards.try_into().map_err(|_| {
        Error::field("cards", format!("a 十三水 hand has {} cards, got {}", crate::cards::HAND_SIZE, cards.len()))
            .because(Reason::WrongCount)
    })?;
    check_distinct(cards).map_err(|e| e.within("cards"))?;
    Ok(arr)
}

/// `cards`: sorted (as in [`Subsets`]).
fn arrangement(cards: &[Card; 13], (b, m, f): (usize, usize, usize), expected: f64, rules: &Rules) -> Arrangement {
    let c = combos();
    // Each row ordered in a fixed array, then one allocation for it.
    let row = |picked: &[Card]| significance_array(picked, rules)[..picked.len()].to_vec();
    Arrangement {
        front: row(&pick::<3>(cards, c.three[f])),
        middle: row(&pick::<5>(cards, c.five[m])),
        back: row(&pick::<5>(cards, c.five[b])),
        expected,
    }
}

/// Greedy baseline: the strongest back, then the strongest middle of the rest, the last
/// three in front; foul-free (ties: the first split found).
pub fn greedy(cards: &[Card], rules: &Rules) -> Result<Arrangement> {
    let cards = check_hand(cards)?;
    let sub = Subsets::new(&cards, rules);
    Ok(arrangement(&sub.cards, greedy_split(&sub), 0.0, rules))
}

/// RULES §1.8: the foul-free arrangement with the highest expected waters against
/// `opponents` random opponents who arrange with this solver (the shipped tables).
pub fn arrange(cards: &[Card], options: &Options, rules: &Rules) -> Result<ArrangeResult> {
    rules.validate()?;
    options.validate()?;
    let model = Model::for_rules(rules);
    arrange_with(cards, options, &model)
}

/// [`arrange`] with a given model (e.g. other tables).
pub fn arrange_with(cards: &[Card], options: &Options, model: &Model) -> Result<ArrangeResult> {
    arrange_using(cards, options, model, solve)
}

/// [`arrange`], calling `between()` between blocks of [`SAMPLE_BLOCK`] Monte-Carlo
/// samples: a caller's point to let other work run (a server's turn) inside a long hand.
/// Same answers (the samples' sums are exact integers, whatever the blocks).
pub fn arrange_yielding(cards: &[Card], options: &Options, rules: &Rules, between: &(dyn Fn() + Sync)) -> Result<ArrangeResult> {
    rules.validate()?;
    options.validate()?;
    arrange_using_with(cards, options, &Model::for_rules(rules), solve, between)
}

/// [`arrange`] with the exhaustive branch-and-bound search (`reference.rs`): the reference
/// of the equality test and the baseline of the speed benchmarks. Same answers, slower.
#[cfg(any(test, feature = "bench"))]
#[doc(hidden)]
pub fn baseline_arrange(cards: &[Card], options: &Options, rules: &Rules) -> Result<ArrangeResult> {
    rules.validate()?;
    options.validate()?;
    arrange_using(cards, options, &Model::for_rules(rules), reference::solve)
}

/// [`arrange`] with the previous pruning search (`prior.rs`, without the threshold walk
/// and the per-multiset tables): a baseline of the speed benchmarks, measured in the same
/// run. Same answers.
#[cfg(any(test, feature = "bench"))]
#[doc(hidden)]
pub fn prior_arrange(cards: &[Card], options: &Options, rules: &Rules) -> Result<ArrangeResult> {
    rules.validate()?;
    options.validate()?;
    arrange_using(cards, options, &Model::for_rules(rules), prior::solve)
}

/// A search: the sorted hand, the model, opponents, `top_k`.
type Solver = fn(&[Card; 13], &Model, usize, usize) -> Vec<Cand>;

fn arrange_using(cards: &[Card], options: &Options, model: &Model, solve: Solver) -> Result<ArrangeResult> {
    arrange_using_with(cards, options, model, solve, &|| {})
}

fn arrange_using_with(
    cards: &[Card],
    options: &Options,
    model: &Model,
    solve: Solver,
    between: &(dyn Fn() + Sync),
) -> Result<ArrangeResult> {
    options.validate()?;
    let rules = &model.rules;
    let cards = check_hand(cards)?;
    let sorted = sorted_by_id(&cards);
    let n = options.opponents;
    let sp = highest_special(&cards);
    if options.samples == 0 {
        let cands = solve(&sorted, model, n, options.top_k);
        let special_expected = sp.as_ref().map(|s| model.special_expected(s.id, n));
        let alternatives: Vec<Arrangement> = cands.iter().map(|c| arrangement(&sorted, c.split, c.ev, rules)).collect();
        return Ok(ArrangeResult {
            best: alternatives[0].clone(),
            declare_special: special_expected.is_some_and(|e| e > cands[0].ev),
            alternatives,
            special: sp,
            special_expected,
        });
    }
    // Monte-Carlo re-ranking of the best table candidates.
    let cands = solve(&sorted, model, n, options.top_k.max(16));
    let plays: Vec<Play> = cands
        .iter()
        .map(|c| {
            let [f, m, b] = split_rows(&sorted, c.split);
            Ok(Play::rows([row_value(&f, rules)?.key, row_value(&m, rules)?.key, row_value(&b, rules)?.key]))
        })
        .collect::<Result<_>>()?;
    let sp_play = sp.as_ref().map(|s| Play::Special(s.id));
    let (totals, sp_total) = monte_carlo(&cards, &plays, sp_play, n, options.samples, options.seed, model, between);
    let mean = |t: i64| t as f64 / options.samples as f64;
    let mut order: Vec<usize> = (0..cands.len()).collect();
    order.sort_by(|&a, &b| totals[b].cmp(&totals[a])); // stable: table order on ties
    let alternatives: Vec<Arrangement> =
        order.iter().take(options.top_k).map(|&i| arrangement(&sorted, cands[i].split, mean(totals[i]), rules)).collect();
    let special_expected = sp_total.map(mean);
    Ok(ArrangeResult {
        best: alternatives[0].clone(),
        declare_special: special_expected.is_some_and(|e| e > alternatives[0].expected),
        alternatives,
        special: sp,
        special_expected,
    })
}

/// Monte-Carlo samples computed in one parallel block: between blocks the threads are free
/// for other callers' work, and [`arrange_yielding`]'s `between` runs.
pub(crate) const SAMPLE_BLOCK: u64 = 256;

/// Sum of exact waters of each candidate play (and of the special) over `samples`
/// opponent deals from the 39 other cards, the opponents playing `Policy::Solver(model)`;
/// in blocks of [`SAMPLE_BLOCK`] samples, `between()` called between two.
#[allow(clippy::too_many_arguments)]
fn monte_carlo(
    cards: &[Card; 13],
    plays: &[Play],
    special: Option<Play>,
    n: usize,
    samples: u32,
    seed: u64,
    model: &Model,
    between: &(dyn Fn() + Sync),
) -> (Vec<i64>, Option<i64>) {
    let (mut totals, mut sp) = (vec![0i64; plays.len()], 0i64);
    let mut start = 0u64;
    while start < samples as u64 {
        if start > 0 {
            between();
        }
        let end = (start + SAMPLE_BLOCK).min(samples as u64);
        let (t, s) = monte_carlo_block(cards, plays, special, n, start..end, seed, model);
        for (x, y) in totals.iter_mut().zip(t) {
            *x += y;
        }
        sp += s;
        start = end;
    }
    (totals, special.map(|_| sp))
}

/// [`monte_carlo`]'s sums over the samples `range`.
fn monte_carlo_block(
    cards: &[Card; 13],
    plays: &[Play],
    special: Option<Play>,
    n: usize,
    range: std::ops::Range<u64>,
    seed: u64,
    model: &Model,
) -> (Vec<i64>, i64) {
    let rest: Vec<Card> = (0..52).map(Card).filter(|c| !cards.contains(c)).collect();
    let rules = &model.rules;
    let zero = || (vec![0i64; plays.len()], 0i64);
    range
        .into_par_iter()
        .fold(zero, |(mut acc, mut sp), s| {
            let mut rng = Rng::for_item(seed, 2, s);
            let mut deck = rest.clone();
            rng.shuffle(&mut deck);
            let opps: Vec<Play> =
                (0..n).map(|j| policy_play(deck[j * 13..j * 13 + 13].try_into().unwrap(), &Policy::Solver(model), n, rules).0).collect();
            let table = Table::new(&opps, rules);
            for (a, p) in acc.iter_mut().zip(plays) {
                *a += table.score(p);
            }
            if let Some(p) = &special {
                sp += table.score(p);
            }
            (acc, sp)
        })
        .reduce(zero, |(mut a, sa), (b, sb)| {
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
            (a, sa + sb)
        })
}

/// Many hands at once, in parallel (rayon) — the results are those of [`arrange`].
pub fn arrange_many(hands: &[Vec<Card>], options: &Options, rules: &Rules) -> Result<Vec<ArrangeResult>> {
    rules.validate()?;
    options.validate()?;
    for (i, h) in hands.iter().enumerate() {
        check_hand(h).map_err(|e| e.within(&format!("hands[{i}]")))?;
    }
    let model = Model::for_rules(rules);
    hands.par_iter().map(|h| arrange_with(h, options, &model)).collect()
}

/// Post-game analysis: the arrangement with the highest exact score (RULES §1.6, 打枪 and
/// 全垒打 included) against the opponents' actual plays. `expected` holds the exact waters.
pub fn best_response(cards: &[Card], opponents: &[Hand], top_k: usize, rules: &Rules) -> Result<ArrangeResult> {
    rules.validate()?;
    let cards = check_hand(cards)?;
    if !(1..=3).contains(&opponents.len()) {
        return Err(Error::field("opponents", format!("must list 1 to 3 opponents (十三水 has 2 to 4 players), got {}", opponents.len()))
            .because(Reason::WrongCount));
    }
    if !(1..=MAX_TOP_K).contains(&top_k) {
        return Err(Error::field("top_k", format!("must be at least 1, got {top_k}")).because(Reason::OutOfRange));
    }
    let mut groups: Vec<(String, &[Card])> = vec![("cards".into(), &cards[..])];
    for (i, h) in opponents.iter().enumerate() {
        match h {
            Hand::Rows { front, middle, back } => {
                check_row_sizes(front, middle, back).map_err(|e| e.within(&format!("opponents[{i}]")))?;
                groups.push((format!("opponents[{i}].front"), front));
                groups.push((format!("opponents[{i}].middle"), middle));
                groups.push((format!("opponents[{i}].back"), back));
            }
            Hand::Special { id, cards } => {
                verify_special(cards, *id).map_err(|e| e.within(&format!("opponents[{i}]")))?;
                groups.push((format!("opponents[{i}].cards"), cards));
            }
        }
    }
    check_distinct_across(&groups)?;
    let opps: Vec<Play> = opponents.iter().map(|h| Play::from_hand(h, rules)).collect::<Result<_>>()?;
    for (i, p) in opps.iter().enumerate() {
        if matches!(p, Play::Rows { foul: true, .. }) && !rules.foul_scoring {
            return Err(Error::field(
                format!("opponents[{i}]"),
                "the arrangement is fouled (倒水: front ≤ middle ≤ back fails) and foul scoring is off",
            )
            .because(Reason::Foul));
        }
    }
    let sub = Subsets::new(&cards, rules);
    let (k5, k3) = sub.keys(rules);
    let table = Table::new(&opps, rules);
    let mut scored: Vec<(i64, (usize, usize, usize))> =
        sub.frontier(&k5, &k3).into_iter().map(|(b, m, f)| (table.score(&Play::rows([k3[f], k5[m], k5[b]])), (b, m, f))).collect();
    // Best score first; among equals, the stronger back, then middle, then front.
    scored.sort_by(|x, y| {
        y.0.cmp(&x.0).then(k5[y.1 .0].cmp(&k5[x.1 .0])).then(k5[y.1 .1].cmp(&k5[x.1 .1])).then(k3[y.1 .2].cmp(&k3[x.1 .2]))
    });
    let alternatives: Vec<Arrangement> =
        scored.iter().take(top_k).map(|(s, split)| arrangement(&sub.cards, *split, *s as f64, rules)).collect();
    let sp = special(&cards)?;
    let special_expected = sp.as_ref().map(|s| table.score(&Play::Special(s.id)) as f64);
    Ok(ArrangeResult {
        best: alternatives[0].clone(),
        declare_special: special_expected.is_some_and(|e| e > alternatives[0].expected),
        alternatives,
        special: sp,
        special_expected,
    })
}

/// Monte-Carlo best response (the benchmark's reference): choose, among the
/// non-dominated splits, the one with the best total exact waters over `samples`
/// opponent deals (seeded), opponents playing the solver. Returns the arrangement.
#[cfg(any(test, feature = "train"))]
pub fn monte_carlo_best(cards: &[Card], n: usize, samples: u32, seed: u64, model: &Model) -> Result<Arrangement> {
    let cards = check_hand(cards)?;
    let rules = &model.rules;
    let sub = Subsets::new(&cards, rules);
    let (k5, k3) = sub.keys(rules);
    let splits = sub.frontier(&k5, &k3);
    let plays: Vec<Play> = splits.iter().map(|&(b, m, f)| Play::rows([k3[f], k5[m], k5[b]])).collect();
    let (totals, _) = monte_carlo(&cards, &plays, None, n, samples, seed, model, &|| {});
    let best = (0..splits.len()).max_by(|&a, &b| totals[a].cmp(&totals[b]).then(b.cmp(&a))).unwrap();
    Ok(arrangement(&sub.cards, splits[best], totals[best] as f64 / samples as f64, rules))
}

/// Mean exact waters of each of `plays` (this hand played several ways) over `samples`
/// opponent deals from the other 39 cards (seeded), opponents playing the solver.
#[cfg(any(test, feature = "train"))]
pub fn monte_carlo_eval(cards: &[Card], plays: &[Hand], n: usize, samples: u32, seed: u64, model: &Model) -> Result<Vec<f64>> {
    let cards = check_hand(cards)?;
    let plays: Vec<Play> = plays.iter().map(|h| Play::from_hand(h, &model.rules)).collect::<Result<_>>()?;
    let (totals, _) = monte_carlo(&cards, &plays, None, n, samples, seed, model, &|| {});
    Ok(totals.iter().map(|&t| t as f64 / samples as f64).collect())
}

/// Exact waters of seat 0 playing `me` against the given opponents' plays.
pub fn exact_waters(me: &Hand, opponents: &[Hand], rules: &Rules) -> Result<i64> {
    let opps: Vec<Play> = opponents.iter().map(|h| Play::from_hand(h, rules)).collect::<Result<_>>()?;
    Ok(Table::new(&opps, rules).score(&Play::from_hand(me, rules)?))
}

/// A simulated player's hand under `policy` (for benchmarks): rows or a declared special.
#[cfg(any(test, feature = "train"))]
pub fn play_hand(cards: &[Card], policy: &Policy, n: usize, rules: &Rules) -> Result<Hand> {
    let arr = check_hand(cards)?;
    let sub = Subsets::new(&arr, rules);
    Ok(match policy_choice(&arr, &sub, policy, n) {
        Choice::Special(id) => Hand::Special { id, cards: cards.to_vec() },
        Choice::Split(split) => {
            let [front, middle, back] = sub.rows(split);
            Hand::Rows { front, middle, back }
        }
    })
}

#[cfg(test)]
mod tests;
