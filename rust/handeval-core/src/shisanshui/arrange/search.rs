//! The table solver's search (RULES §1.8): the `top_k` foul-free splits with the highest
//! expected waters, exactly those of the exhaustive search (see [`super::reference`]).
//!
//! Why it can prune without changing a single bit of the answer: every component of a
//! row's [`RoleValue`] is *exactly* monotone in the row's strength, floating-point
//! rounding included (the model divides exact integer counts by one total, and rounding
//! is monotone), and the expectation [`Ev::ev`] only adds and multiplies non-negative
//! monotone terms, so `ev` computed with a stronger class in any row is never smaller.
//! Hence `ev(F, M, b)` with `M` the strongest middle a back `b` leaves (disjoint, no
//! stronger than `b`) and `F` the strongest front disjoint from `b` no stronger than `M`
//! bounds every split of that back, with no tolerance; a back is skipped only when that
//! bound is strictly below the current `top_k`-th expectation, so no split that could
//! enter (or tie into) the result is missed, and the kept splits' expectations are the
//! same floating-point expression as before.
//!
//! Per hand: every subset's strength and class once, the subsets sorted by strength and
//! a bitset per card over each sorted list, so "the strongest subset no stronger than s
//! and disjoint from these 5 cards" is an OR of five words and a trailing-zero count.
//! Backs are taken strongest first; the loose bound (the back's own class as middle, the
//! strongest front of the hand no stronger) is monotone in the back's strength, so the
//! walk stops at the first back whose loose bound is below the incumbent.

use super::model::{class_of, Model, RoleValue};
use super::{combos, pow, Cand, TopK};
use crate::cards::Card;
use crate::shisanshui::eval::{adjust_for_rules, strength3, strength5};

const N5: usize = 1287;
const N3: usize = 286;
const W5: usize = N5.div_ceil(64);
const W3: usize = N3.div_ceil(64);

/// The expectation of a split under the model (the formula of docs/arrange.md).
pub(crate) struct Ev<'a> {
    model: &'a Model,
    q: f64,
    special_loss: f64,
    nf: f64,
    n: usize,
    home_run: bool,
    hr_cond: f64,
}

impl<'a> Ev<'a> {
    pub(crate) fn new(model: &'a Model, n: usize) -> Ev<'a> {
        Ev {
            model,
            q: 1.0 - model.p_special,
            special_loss: model.special_loss(),
            nf: n as f64,
            n,
            home_run: n as u32 >= model.rules.home_run_min_opponents,
            hr_cond: model.hr_cond[n - 1],
        }
    }

    #[inline(always)]
    fn role(&self, row: usize, class: u16) -> &RoleValue {
        &self.model.rows[row][class as usize]
    }

    /// Expected waters of the split (front, middle, back); the order of the operations
    /// is part of the answer (bit-identical `expected`).
    #[inline(always)]
    pub(crate) fn ev(&self, f: &RoleValue, m: &RoleValue, b: &RoleValue) -> f64 {
        let (q, nf, n) = (self.q, self.nf, self.n);
        let waters = f.my_waters + m.my_waters + b.my_waters;
        let p_scoop = f.win * m.win * b.win;
        // E[waters paid · 1{scooped}] under independent rows.
        let scooped = f.lose_waters * m.lose * b.lose + f.lose * m.lose_waters * b.lose + f.lose * m.lose * b.lose_waters;
        let pair = q * (f.row + m.row + b.row + p_scoop * waters - scooped) - self.special_loss;
        let mut ev = nf * pair;
        if self.home_run {
            ev += 2.0 * nf * waters * pow(q * p_scoop, n) - 2.0 * nf * q * scooped * self.hr_cond;
        }
        ev
    }

    /// The bound the exhaustive search ordered its backs by (scoop losses left out, plus
    /// 1e-9): only needed to report, among splits that differ only in suits, the one that
    /// search reported (the first it visited).
    #[inline]
    fn visit_order_bound(&self, f: &RoleValue, m: &RoleValue, b: &RoleValue) -> f64 {
        let (q, nf, n) = (self.q, self.nf, self.n);
        let waters = f.my_waters + m.my_waters + b.my_waters;
        let p_scoop = f.win * m.win * b.win;
        let mut ub = nf * (q * (f.row + m.row + b.row + p_scoop * waters) - self.special_loss);
        if self.home_run {
            ub += 2.0 * nf * waters * pow(q * p_scoop, n);
        }
        ub + 1e-9
    }
}

/// One hand's subsets: strengths, classes, sorted orders and per-card bitsets.
struct Hand {
    /// Strength under the rules (foul checks, order) and standard class of every subset,
    /// indexed like `combos().five` / `.three`.
    s5: [u32; N5],
    c5: [u16; N5],
    s3: [u32; N3],
    c3: [u16; N3],
    /// Subset indices, strongest first, and their strengths in that order.
    ord5: [u16; N5],
    srt5: [u32; N5],
    ord3: [u16; N3],
    srt3: [u32; N3],
    /// `bits5[p]`: bit j set when subset `ord5[j]` holds card position p (bits past the
    /// end set in every card, so they never look free); the same for fronts.
    bits5: [[u64; W5]; 13],
    bits3: [[u64; W3]; 13],
}

impl Hand {
    fn new(cards: &[Card; 13], model: &Model) -> Box<Hand> {
        let c = combos();
        let rules = &model.rules;
        let mut h = Box::new(Hand {
            s5: [0; N5],
            c5: [0; N5],
            s3: [0; N3],
            c3: [0; N3],
            ord5: [0; N5],
            srt5: [0; N5],
            ord3: [0; N3],
            srt3: [0; N3],
            bits5: [[0; W5]; 13],
            bits3: [[0; W3]; 13],
        });
        for (i, &m) in c.five.iter().enumerate() {
            let s = strength5(&super::pick::<5>(cards, m));
            h.c5[i] = class_of(5, s) as u16;
            h.s5[i] = adjust_for_rules(s, rules);
        }
        for (i, &m) in c.three.iter().enumerate() {
            let s = strength3(&super::pick::<3>(cards, m));
            h.c3[i] = class_of(3, s) as u16;
            h.s3[i] = s;
        }
        let mut keys5: Vec<u64> = (0..N5).map(|i| (h.s5[i] as u64) << 16 | i as u64).collect();
        keys5.sort_unstable_by(|a, b| b.cmp(a));
        for (j, &k) in keys5.iter().enumerate() {
            let i = (k & 0xFFFF) as usize;
            h.ord5[j] = i as u16;
            h.srt5[j] = (k >> 16) as u32;
            let mut m = c.five[i];
            while m != 0 {
                h.bits5[m.trailing_zeros() as usize][j / 64] |= 1 << (j % 64);
                m &= m - 1;
            }
        }
        let mut keys3: Vec<u64> = (0..N3).map(|i| (h.s3[i] as u64) << 16 | i as u64).collect();
        keys3.sort_unstable_by(|a, b| b.cmp(a));
        for (j, &k) in keys3.iter().enumerate() {
            let i = (k & 0xFFFF) as usize;
            h.ord3[j] = i as u16;
            h.srt3[j] = (k >> 16) as u32;
            let mut m = c.three[i];
            while m != 0 {
                h.bits3[m.trailing_zeros() as usize][j / 64] |= 1 << (j % 64);
                m &= m - 1;
            }
        }
        for p in 0..13 {
            h.bits5[p][W5 - 1] |= !0u64 << (N5 % 64);
            h.bits3[p][W3 - 1] |= !0u64 << (N3 % 64);
        }
        h
    }

    /// First position ≥ `start` in a sorted list whose subset avoids every card of `avoid`.
    #[inline]
    fn first_free<const W: usize>(bits: &[[u64; W]; 13], start: usize, avoid: u16) -> Option<usize> {
        let mut cards = [0usize; 5];
        let (mut k, mut m) = (0, avoid);
        while m != 0 {
            cards[k] = m.trailing_zeros() as usize;
            k += 1;
            m &= m - 1;
        }
        let mut w = start / 64;
        let mut live = !0u64 << (start % 64);
        while w < W {
            let mut taken = 0;
            for &p in &cards[..k] {
                taken |= bits[p][w];
            }
            let free = !taken & live;
            if free != 0 {
                return Some(w * 64 + free.trailing_zeros() as usize);
            }
            w += 1;
            live = !0;
        }
        None
    }

    /// (strongest middle, strongest front) a back leaves, as subset indices: the middle
    /// disjoint from the back and no stronger than it, the front disjoint from the back
    /// and no stronger than that middle. `start`: the first sorted position no stronger
    /// than the back.
    #[inline]
    fn strongest_rest(&self, bi: usize, start: usize) -> Option<(usize, usize)> {
        let bmask = combos().five[bi];
        let jm = Self::first_free(&self.bits5, start, bmask)?;
        let sm = self.srt5[jm];
        let start3 = self.srt3.partition_point(|&s| s > sm);
        let jf = Self::first_free(&self.bits3, start3, bmask)?;
        Some((self.ord5[jm] as usize, self.ord3[jf] as usize))
    }

    /// Visit the foul-free splits with back `bi` as (middle, front) subset indices, in
    /// the order of the exhaustive search (which decides the reported suit variant).
    #[inline]
    fn for_back(&self, bi: usize, mut f: impl FnMut(usize, usize)) {
        super::for_back_splits(bi, |mi| self.s5[mi] <= self.s5[bi], |mi, fi| {
            if self.s3[fi] <= self.s5[mi] {
                f(mi, fi)
            }
        });
    }
}

/// The `top_k` best splits (distinct by strength triple, best first), the same as the
/// exhaustive search's, with the same split reported for each triple.
pub(crate) fn solve(cards: &[Card; 13], model: &Model, n: usize, top_k: usize) -> Vec<Cand> {
    let h = Hand::new(cards, model);
    let e = Ev::new(model, n);
    let mut top = TopK { k: top_k, items: Vec::new() };
    let bar = |top: &TopK| if top.items.len() == top.k { top.items[top.k - 1].ev } else { f64::NEG_INFINITY };
    let visit = |bi: usize, top: &mut TopK| {
        let b = e.role(2, h.c5[bi]);
        h.for_back(bi, |mi, fi| {
            let ev = e.ev(e.role(0, h.c3[fi]), e.role(1, h.c5[mi]), b);
            top.offer(Cand { ev, split: (bi, mi, fi), triple: (h.s3[fi], h.s5[mi], h.s5[bi]) });
        });
    };
    // The strongest back first: an incumbent to prune against.
    visit(h.ord5[0] as usize, &mut top);
    let mut cands: Vec<(f64, usize)> = Vec::new();
    let (mut class_start, mut fpos) = (0usize, 0usize);
    let mut loose = f64::INFINITY;
    for j in 0..N5 {
        let (bi, s) = (h.ord5[j] as usize, h.srt5[j]);
        if j == 0 || s != h.srt5[j - 1] {
            class_start = j;
            while fpos < N3 && h.srt3[fpos] > s {
                fpos += 1;
            }
            if fpos == N3 {
                break; // no front fits under this back, nor under any weaker one
            }
            let cls = h.c5[bi];
            loose = e.ev(e.role(0, h.c3[h.ord3[fpos] as usize]), e.role(1, cls), e.role(2, cls));
        }
        if loose < bar(&top) {
            break;
        }
        if j == 0 {
            continue;
        }
        let Some((mi, fi)) = h.strongest_rest(bi, class_start) else { continue };
        let tight = e.ev(e.role(0, h.c3[fi]), e.role(1, h.c5[mi]), e.role(2, h.c5[bi]));
        if tight >= bar(&top) {
            cands.push((tight, bi));
        }
    }
    cands.sort_unstable_by(|x, y| y.0.total_cmp(&x.0));
    for &(ub, bi) in &cands {
        if ub < bar(&top) {
            break;
        }
        visit(bi, &mut top);
    }
    let mut items = top.items;
    for c in items.iter_mut() {
        c.split = reported_split(&h, &e, c.triple);
    }
    items
}

/// Among the splits with strength triple `t` (they differ only in suits), the one the
/// exhaustive search reported: the first it visited. It visited the back with the
/// highest loose bound first (the lowest index among equals), then backs by its bound
/// (highest first, then lowest index), each back's splits in `for_back` order.
fn reported_split(h: &Hand, e: &Ev, t: (u32, u32, u32)) -> (usize, usize, usize) {
    let (from, to) = (h.srt5.partition_point(|&s| s > t.2), h.srt5.partition_point(|&s| s >= t.2));
    let first_split = |bi: usize| {
        let mut found = None;
        h.for_back(bi, |mi, fi| {
            if found.is_none() && (h.s3[fi], h.s5[mi]) == (t.0, t.1) {
                found = Some((bi, mi, fi));
            }
        });
        found
    };
    let with_t: Vec<(usize, usize, usize)> = (from..to).filter_map(|j| first_split(h.ord5[j] as usize)).collect();
    if with_t.len() == 1 {
        return with_t[0];
    }
    // The back visited first: the lowest index among the backs whose loose bound ties
    // the strongest back's (that bound is monotone in the back's strength).
    let loose = |j: usize| {
        let s = h.srt5[j];
        let fp = h.srt3.partition_point(|&x| x > s);
        (fp < N3).then(|| {
            let cls = h.c5[h.ord5[j] as usize];
            e.visit_order_bound(e.role(0, h.c3[h.ord3[fp] as usize]), e.role(1, cls), e.role(2, cls))
        })
    };
    let top = loose(0);
    let first = (0..N5).take_while(|&j| loose(j) == top).map(|j| h.ord5[j] as usize).min();
    if let Some(x) = with_t.iter().find(|x| Some(x.0) == first) {
        return *x;
    }
    let start = from;
    let order_bound = |bi: usize| {
        let (mi, fi) = h.strongest_rest(bi, start).expect("a back with a split leaves a middle and a front");
        e.visit_order_bound(e.role(0, h.c3[fi]), e.role(1, h.c5[mi]), e.role(2, h.c5[bi]))
    };
    *with_t
        .iter()
        .max_by(|x, y| order_bound(x.0).total_cmp(&order_bound(y.0)).then(y.0.cmp(&x.0)))
        .expect("the triple was found in some back")
}
