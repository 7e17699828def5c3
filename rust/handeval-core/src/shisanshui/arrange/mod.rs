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
//! is a sum of per-row terms plus the 打枪 / 全垒打 product terms (`search.rs` prunes all but a
//! few backs, and all but a few splits of those, without changing a bit of the answer;
//! `reference.rs` is the exhaustive search it replaced, kept for the equality test; `prior.rs` is `search.rs` as it was
//! before issue 23, kept as the baseline of the speed benchmarks).

pub mod model;
mod prior;
mod reference;
mod search;
pub mod sim;

use super::eval::{adjust_for_rules, check_row_sizes, row_value, significance_array, strength3, strength5};
use super::rules::Rules;
use super::settle::Hand;
use super::special::{highest_special, special, verify_special, SpecialHand};
use crate::cards::{check_distinct, check_distinct_across, Card, CardSet};
use crate::error::{Error, Reason, Result};
pub use model::{Model, Tables};
use rayon::prelude::*;
use search::solve;
use sim::{Play, Rng};
use std::sync::OnceLock;

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

impl Options {
    pub fn validate(&self) -> Result<()> {
        if !(1..=3).contains(&self.opponents) {
            return Err(Error::field("opponents", format!("must be 1, 2 or 3 (十三水 has 2 to 4 players), got {}", self.opponents)).because(Reason::WrongCount));
        }
        if !(1..=MAX_TOP_K).contains(&self.top_k) {
            return Err(Error::field("top_k", format!("must be at least 1 (and at most {MAX_TOP_K}), got {}", self.top_k)).because(Reason::OutOfRange));
        }
        if self.samples > MAX_SAMPLES {
            return Err(Error::field("samples", format!("must be at most {MAX_SAMPLES}, got {}", self.samples)).because(Reason::OutOfRange));
        }
        Ok(())
    }
}

/// How a simulated player arranges.
#[derive(Clone, Copy)]
pub enum Policy<'a> {
    /// [`greedy`], declaring any special it has.
    Greedy,
    /// The table solver, declaring a special when that has the higher expectation.
    Solver(&'a Model),
}

// ---------------------------------------------------------------- subsets of 13 cards

struct Combos {
    /// 13-bit masks of the 1,287 five-card subsets.
    five: Vec<u16>,
    /// … and of the 286 three-card subsets.
    three: Vec<u16>,
    /// mask → its index in `five` or `three`.
    index: Vec<u16>,
    /// The 56 five-of-eight patterns.
    mid8: Vec<u8>,
}

fn combos() -> &'static Combos {
    static C: OnceLock<Combos> = OnceLock::new();
    C.get_or_init(|| {
        let mut index = vec![u16::MAX; 1 << 13];
        let mut five = Vec::new();
        let mut three = Vec::new();
        for m in 0u16..(1 << 13) {
            match m.count_ones() {
                5 => {
                    index[m as usize] = five.len() as u16;
                    five.push(m);
                }
                3 => {
                    index[m as usize] = three.len() as u16;
                    three.push(m);
                }
                _ => {}
            }
        }
        let mid8 = (0u16..256).filter(|p| p.count_ones() == 5).map(|p| p as u8).collect();
        Combos { five, three, index, mid8 }
    })
}

/// The 13 cards (sorted by id, so the search does not depend on the input order) and
/// the strength of every subset.
struct Subsets {
    cards: [Card; 13],
    /// Strengths under the rules (A2345 adjusted), for the foul check.
    s5: Vec<u32>,
    s3: Vec<u32>,
    /// Standard (rules-free) strengths, the tables' classes.
    std5: Vec<u32>,
    std3: Vec<u32>,
}

fn pick<const N: usize>(cards: &[Card; 13], mask: u16) -> [Card; N] {
    let mut out = [Card(0); N];
    let (mut k, mut m) = (0, mask);
    while m != 0 {
        out[k] = cards[m.trailing_zeros() as usize];
        k += 1;
        m &= m - 1;
    }
    out
}

/// Visit the splits with back `bi` whose middle passes `middle_ok`, as (middle, front)
/// subset indices, in a fixed order (the 56 five-of-eight patterns in `mid8` order).
#[inline]
fn for_back_splits(bi: usize, mut middle_ok: impl FnMut(usize) -> bool, mut f: impl FnMut(usize, usize)) {
    let c = combos();
    let rest = 0x1FFF ^ c.five[bi];
    // Map the 8-bit middle patterns onto the 8 remaining card positions.
    let mut pos = [0u16; 8];
    let (mut k, mut r) = (0, rest);
    while r != 0 {
        pos[k] = r & r.wrapping_neg();
        r &= r - 1;
        k += 1;
    }
    let (mut lo, mut hi) = ([0u16; 16], [0u16; 16]);
    for p in 1..16usize {
        let low = p.trailing_zeros() as usize;
        lo[p] = lo[p & (p - 1)] | pos[low];
        hi[p] = hi[p & (p - 1)] | pos[4 + low];
    }
    for &pat in &c.mid8 {
        let m = lo[(pat & 15) as usize] | hi[(pat >> 4) as usize];
        let mi = c.index[m as usize] as usize;
        if !middle_ok(mi) {
            continue;
        }
        f(mi, c.index[(rest ^ m) as usize] as usize);
    }
}

/// The rows (front, middle, back) of a split of the sorted cards.
fn split_rows(cards: &[Card; 13], (b, m, f): (usize, usize, usize)) -> [Vec<Card>; 3] {
    let c = combos();
    [pick::<3>(cards, c.three[f]).to_vec(), pick::<5>(cards, c.five[m]).to_vec(), pick::<5>(cards, c.five[b]).to_vec()]
}

impl Subsets {
    /// `cards`: distinct (every caller has checked or dealt them).
    fn new(cards: &[Card; 13], rules: &Rules) -> Subsets {
        let sorted = sorted_by_id(cards);
        let c = combos();
        let std5: Vec<u32> = c.five.iter().map(|&m| strength5(&pick::<5>(&sorted, m))).collect();
        let std3: Vec<u32> = c.three.iter().map(|&m| strength3(&pick::<3>(&sorted, m))).collect();
        Subsets {
            s5: std5.iter().map(|&s| adjust_for_rules(s, rules)).collect(),
            s3: std3.clone(),
            std5,
            std3,
            cards: sorted,
        }
    }

    fn rows(&self, split: (usize, usize, usize)) -> [Vec<Card>; 3] {
        split_rows(&self.cards, split)
    }

    /// Visit every foul-free split as (back, middle, front) subset indices.
    #[inline]
    fn for_each_split(&self, mut f: impl FnMut(usize, usize, usize)) {
        for bi in 0..self.s5.len() {
            self.for_back(bi, &mut f);
        }
    }

    /// Visit the foul-free splits with back `bi`.
    #[inline]
    fn for_back(&self, bi: usize, mut f: impl FnMut(usize, usize, usize)) {
        let sb = self.s5[bi];
        for_back_splits(bi, |mi| self.s5[mi] <= sb, |mi, fi| {
            if self.s3[fi] <= self.s5[mi] {
                f(bi, mi, fi)
            }
        });
    }

    /// Full row keys (suits included) of every subset.
    fn keys(&self, rules: &Rules) -> (Vec<u64>, Vec<u64>) {
        let c = combos();
        let k5 = c.five.iter().map(|&m| row_value(&pick::<5>(&self.cards, m), rules).unwrap().key).collect();
        let k3 = c.three.iter().map(|&m| row_value(&pick::<3>(&self.cards, m), rules).unwrap().key).collect();
        (k5, k3)
    }

    /// The foul-free splits not dominated row by row (full keys ≥ in all three rows) by
    /// another split. A dominated split can never score more against any opponents
    /// (higher rows win at least the same rows, with at least the same waters), so exact
    /// searches only need these.
    fn frontier(&self, k5: &[u64], k3: &[u64]) -> Vec<(usize, usize, usize)> {
        let mut by_back: Vec<Vec<(usize, usize)>> = vec![Vec::new(); k5.len()];
        self.for_each_split(|b, m, f| by_back[b].push((m, f)));
        // Per back: the 2-D frontier of (middle, front).
        let mut cands: Vec<(usize, usize, usize)> = Vec::new();
        for (b, mut mf) in by_back.into_iter().enumerate() {
            mf.sort_by(|x, y| k5[y.0].cmp(&k5[x.0]).then(k3[y.1].cmp(&k3[x.1])));
            let mut best_f: Option<u64> = None;
            for (m, f) in mf {
                if best_f.is_none_or(|bf| k3[f] > bf) {
                    best_f = Some(k3[f]);
                    cands.push((b, m, f));
                }
            }
        }
        cands.sort_by(|x, y| {
            k5[y.0].cmp(&k5[x.0]).then(k5[y.1].cmp(&k5[x.1])).then(k3[y.2].cmp(&k3[x.2]))
        });
        let mut kept: Vec<(usize, usize, usize)> = Vec::new();
        for c in cands {
            let dominated = kept.iter().any(|k| k5[k.1] >= k5[c.1] && k3[k.2] >= k3[c.2]);
            if !dominated {
                kept.push(c);
            }
        }
        kept
    }
}

// ---------------------------------------------------------------- the table solver

#[derive(Copy, Clone, Debug)]
struct Cand {
    ev: f64,
    split: (usize, usize, usize),
    /// Strengths (front, middle, back): candidates with the same triple score the same.
    triple: (u32, u32, u32),
}

/// Keep the `k` best candidates, distinct by strength triple. Ties in expectation go to
/// the stronger triple (back, then middle, then front), so the result does not depend on
/// the order in which the search visits the splits.
struct TopK {
    k: usize,
    items: Vec<Cand>,
}

#[inline]
fn better(a: &Cand, b: &Cand) -> bool {
    let t = |c: &Cand| (c.triple.2, c.triple.1, c.triple.0);
    a.ev > b.ev || (a.ev == b.ev && t(a) > t(b))
}

impl TopK {
    #[inline]
    fn offer(&mut self, c: Cand) {
        if self.items.len() == self.k && !better(&c, &self.items[self.k - 1]) {
            return;
        }
        self.insert(c);
    }
    #[cold]
    fn insert(&mut self, c: Cand) {
        if self.items.iter().any(|x| x.triple == c.triple) {
            return;
        }
        let at = self.items.partition_point(|x| better(x, &c));
        self.items.insert(at, c);
        self.items.truncate(self.k);
    }
}


#[inline]
fn pow(x: f64, n: usize) -> f64 {
    match n {
        1 => x,
        2 => x * x,
        _ => x * x * x,
    }
}

fn check_hand(cards: &[Card]) -> Result<[Card; 13]> {
    let arr: [Card; 13] = cards
        .try_into()
        .map_err(|_| Error::field("cards", format!("a 十三水 hand has 13 cards, got {}", cards.len())).because(Reason::WrongCount))?;
    check_distinct(cards).map_err(|e| e.within("cards"))?;
    Ok(arr)
}

/// Distinct cards in id order, read off their 52-bit set (cheaper than a comparison sort).
fn sorted_by_id(cards: &[Card; 13]) -> [Card; 13] {
    let mut set = CardSet::from_cards(cards).0;
    let mut out = [Card(0); 13];
    for c in &mut out {
        *c = Card(set.trailing_zeros() as u8);
        set &= set - 1;
    }
    out
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

fn greedy_split(sub: &Subsets) -> (usize, usize, usize) {
    // Backs strongest first; stop below the strength of the best back found.
    let mut order: Vec<usize> = (0..sub.s5.len()).collect();
    order.sort_by(|&x, &y| sub.s5[y].cmp(&sub.s5[x]).then(x.cmp(&y)));
    type Best = ((u32, u32), (usize, usize, usize));
    let mut best: Option<Best> = None;
    for bi in order {
        if best.is_some_and(|((sb, _), _)| sub.s5[bi] < sb) {
            break;
        }
        sub.for_back(bi, |b, m, f| {
            let key = (sub.s5[b], sub.s5[m]);
            if best.is_none_or(|(k, _)| key > k) {
                best = Some((key, (b, m, f)));
            }
        });
    }
    best.expect("every hand has a foul-free split").1
}

enum Choice {
    Special(super::special::SpecialId),
    Split((usize, usize, usize)),
}

fn policy_choice(cards: &[Card; 13], sub: &Subsets, policy: &Policy, n: usize) -> Choice {
    let sp = special(cards).expect("valid hand");
    match policy {
        Policy::Greedy => match sp {
            Some(s) => Choice::Special(s.id),
            None => Choice::Split(greedy_split(sub)),
        },
        Policy::Solver(model) => {
            let best = solve(&sub.cards, model, n, 1)[0];
            match sp {
                Some(s) if model.special_expected(s.id, n) > best.ev => Choice::Special(s.id),
                _ => Choice::Split(best.split),
            }
        }
    }
}

/// A simulated player's play (and its standard row strengths when it arranges).
pub(crate) fn policy_play(cards: &[Card; 13], policy: &Policy, n: usize, rules: &Rules) -> (Play, Option<[u32; 3]>) {
    let sub = Subsets::new(cards, rules);
    match policy_choice(cards, &sub, policy, n) {
        Choice::Special(id) => (Play::Special(id), None),
        Choice::Split(split) => {
            let [f, m, b] = sub.rows(split);
            let key = |row: &[Card]| row_value(row, rules).unwrap().key;
            let (bi, mi, fi) = split;
            (Play::rows([key(&f), key(&m), key(&b)]), Some([sub.std3[fi], sub.std5[mi], sub.std5[bi]]))
        }
    }
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

/// [`arrange`] with the search as it was before the fast path (issue 13): the reference
/// of the equality test and the baseline of the speed benchmarks. Same answers, slower.
#[doc(hidden)]
pub fn baseline_arrange(cards: &[Card], options: &Options, rules: &Rules) -> Result<ArrangeResult> {
    rules.validate()?;
    options.validate()?;
    arrange_using(cards, options, &Model::for_rules(rules), reference::solve)
}

/// [`arrange`] with the search as it was at the start of issue 23 (`prior.rs`): the
/// baseline of that speed benchmarks, measured in the same run. Same answers.
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

fn arrange_using_with(cards: &[Card], options: &Options, model: &Model, solve: Solver, between: &(dyn Fn() + Sync)) -> Result<ArrangeResult> {
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
/// for other callers' work, and [`arrange_yielding`]'s `between` runs (~10 ms of work on 2
/// cores).
pub const SAMPLE_BLOCK: u64 = 256;

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
            let opps: Vec<Play> = (0..n)
                .map(|j| policy_play(deck[j * 13..j * 13 + 13].try_into().unwrap(), &Policy::Solver(model), n, rules).0)
                .collect();
            let table = sim::Table::new(&opps, rules);
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
        return Err(Error::field("opponents", format!("must list 1 to 3 opponents (十三水 has 2 to 4 players), got {}", opponents.len())).because(Reason::WrongCount));
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
    let table = sim::Table::new(&opps, rules);
    let mut scored: Vec<(i64, (usize, usize, usize))> = sub
        .frontier(&k5, &k3)
        .into_iter()
        .map(|(b, m, f)| (table.score(&Play::rows([k3[f], k5[m], k5[b]])), (b, m, f)))
        .collect();
    // Best score first; among equals, the stronger back, then middle, then front.
    scored.sort_by(|x, y| {
        y.0.cmp(&x.0)
            .then(k5[y.1 .0].cmp(&k5[x.1 .0]))
            .then(k5[y.1 .1].cmp(&k5[x.1 .1]))
            .then(k3[y.1 .2].cmp(&k3[x.1 .2]))
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
pub fn monte_carlo_eval(cards: &[Card], plays: &[Hand], n: usize, samples: u32, seed: u64, model: &Model) -> Result<Vec<f64>> {
    let cards = check_hand(cards)?;
    let plays: Vec<Play> = plays.iter().map(|h| Play::from_hand(h, &model.rules)).collect::<Result<_>>()?;
    let (totals, _) = monte_carlo(&cards, &plays, None, n, samples, seed, model, &|| {});
    Ok(totals.iter().map(|&t| t as f64 / samples as f64).collect())
}

/// Exact waters of seat 0 playing `me` against the given opponents' plays.
pub fn exact_waters(me: &Hand, opponents: &[Hand], rules: &Rules) -> Result<i64> {
    let opps: Vec<Play> = opponents.iter().map(|h| Play::from_hand(h, rules)).collect::<Result<_>>()?;
    Ok(sim::Table::new(&opps, rules).score(&Play::from_hand(me, rules)?))
}

/// A simulated player's hand under `policy` (for benchmarks): rows or a declared special.
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
