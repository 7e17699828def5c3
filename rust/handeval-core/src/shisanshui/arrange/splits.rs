//! The splits of 13 cards: the five- and three-card subsets, the foul-free splits of a
//! back, and the `top_k` best candidates.

use crate::cards::{Card, CardSet};
use crate::shisanshui::eval::{adjust_for_rules, row_value, strength3, strength5};
use crate::shisanshui::rules::Rules;
use std::sync::OnceLock;

/// The number of five-card (C(13, 5)) and three-card (C(13, 3)) subsets of 13 cards.
pub(super) const N5: usize = 1287;
pub(super) const N3: usize = 286;

pub(super) struct Combos {
    /// 13-bit masks of the 1,287 five-card subsets.
    pub(super) five: Vec<u16>,
    /// … and of the 286 three-card subsets.
    pub(super) three: Vec<u16>,
    /// mask → its index in `five` or `three`.
    pub(super) index: Vec<u16>,
    /// The 56 five-of-eight patterns.
    pub(super) mid8: Vec<u8>,
}

pub(super) fn combos() -> &'static Combos {
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
pub(super) struct Subsets {
    pub(super) cards: [Card; 13],
    /// Strengths under the rules (A2345 adjusted), for the foul check.
    pub(super) s5: Vec<u32>,
    pub(super) s3: Vec<u32>,
    /// Standard (rules-free) strengths, the tables' classes.
    pub(super) std5: Vec<u32>,
    pub(super) std3: Vec<u32>,
}

pub(super) fn pick<const N: usize>(cards: &[Card; 13], mask: u16) -> [Card; N] {
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
pub(super) fn for_back_splits(bi: usize, mut middle_ok: impl FnMut(usize) -> bool, mut f: impl FnMut(usize, usize)) {
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
pub(super) fn split_rows(cards: &[Card; 13], (b, m, f): (usize, usize, usize)) -> [Vec<Card>; 3] {
    let c = combos();
    [pick::<3>(cards, c.three[f]).to_vec(), pick::<5>(cards, c.five[m]).to_vec(), pick::<5>(cards, c.five[b]).to_vec()]
}

impl Subsets {
    /// `cards`: distinct (every caller has checked or dealt them).
    pub(super) fn new(cards: &[Card; 13], rules: &Rules) -> Subsets {
        let sorted = sorted_by_id(cards);
        let c = combos();
        let std5: Vec<u32> = c.five.iter().map(|&m| strength5(&pick::<5>(&sorted, m))).collect();
        let std3: Vec<u32> = c.three.iter().map(|&m| strength3(&pick::<3>(&sorted, m))).collect();
        Subsets { s5: std5.iter().map(|&s| adjust_for_rules(s, rules)).collect(), s3: std3.clone(), std5, std3, cards: sorted }
    }

    pub(super) fn rows(&self, split: (usize, usize, usize)) -> [Vec<Card>; 3] {
        split_rows(&self.cards, split)
    }

    /// Visit every foul-free split as (back, middle, front) subset indices.
    #[inline]
    pub(super) fn for_each_split(&self, mut f: impl FnMut(usize, usize, usize)) {
        for bi in 0..self.s5.len() {
            self.for_back(bi, &mut f);
        }
    }

    /// Visit the foul-free splits with back `bi`.
    #[inline]
    pub(super) fn for_back(&self, bi: usize, mut f: impl FnMut(usize, usize, usize)) {
        let sb = self.s5[bi];
        for_back_splits(
            bi,
            |mi| self.s5[mi] <= sb,
            |mi, fi| {
                if self.s3[fi] <= self.s5[mi] {
                    f(bi, mi, fi)
                }
            },
        );
    }

    /// Full row keys (suits included) of every subset.
    pub(super) fn keys(&self, rules: &Rules) -> (Vec<u64>, Vec<u64>) {
        let c = combos();
        let k5 = c.five.iter().map(|&m| row_value(&pick::<5>(&self.cards, m), rules).unwrap().key).collect();
        let k3 = c.three.iter().map(|&m| row_value(&pick::<3>(&self.cards, m), rules).unwrap().key).collect();
        (k5, k3)
    }

    /// The foul-free splits not dominated row by row (full keys ≥ in all three rows) by
    /// another split. A dominated split can never score more against any opponents
    /// (higher rows win at least the same rows, with at least the same waters), so exact
    /// searches only need these.
    pub(super) fn frontier(&self, k5: &[u64], k3: &[u64]) -> Vec<(usize, usize, usize)> {
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
        cands.sort_by(|x, y| k5[y.0].cmp(&k5[x.0]).then(k5[y.1].cmp(&k5[x.1])).then(k3[y.2].cmp(&k3[x.2])));
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
pub(super) struct Cand {
    pub(super) ev: f64,
    pub(super) split: (usize, usize, usize),
    /// Strengths (front, middle, back): candidates with the same triple score the same.
    pub(super) triple: (u32, u32, u32),
}

/// Keep the `k` best candidates, distinct by strength triple. Ties in expectation go to
/// the stronger triple (back, then middle, then front), so the result does not depend on
/// the order in which the search visits the splits.
pub(super) struct TopK {
    pub(super) k: usize,
    pub(super) items: Vec<Cand>,
}

#[inline]
pub(super) fn better(a: &Cand, b: &Cand) -> bool {
    let t = |c: &Cand| (c.triple.2, c.triple.1, c.triple.0);
    a.ev > b.ev || (a.ev == b.ev && t(a) > t(b))
}

impl TopK {
    #[inline]
    pub(super) fn offer(&mut self, c: Cand) {
        if self.items.len() == self.k && !better(&c, &self.items[self.k - 1]) {
            return;
        }
        self.insert(c);
    }
    #[cold]
    pub(super) fn insert(&mut self, c: Cand) {
        if self.items.iter().any(|x| x.triple == c.triple) {
            return;
        }
        let at = self.items.partition_point(|x| better(x, &c));
        self.items.insert(at, c);
        self.items.truncate(self.k);
    }
}

#[inline]
pub(super) fn pow(x: f64, n: usize) -> f64 {
    match n {
        1 => x,
        2 => x * x,
        _ => x * x * x,
    }
}

/// Distinct cards in id order, read off their 52-bit set (cheaper than a comparison sort).
pub(super) fn sorted_by_id(cards: &[Card; 13]) -> [Card; 13] {
    let mut set = CardSet::from_cards(cards).0;
    let mut out = [Card(0); 13];
    for c in &mut out {
        *c = Card(set.trailing_zeros() as u8);
        set &= set - 1;
    }
    out
}
