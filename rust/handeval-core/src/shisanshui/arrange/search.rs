//! The table solver's search (RULES §1.8): the `top_k` foul-free splits with the highest
//! expected waters, exactly those of the search it replaced (`reference.rs`).
//!
//! Why it can prune without changing a single bit of the answer: every component of a
//! row's [`RoleValue`] is *exactly* monotone in the row's strength, floating-point
//! rounding included (the model divides exact integer counts by one total, and rounding
//! is monotone), and the expectation [`Ev::ev`] only adds and multiplies non-negative
//! monotone terms, so `ev` computed with a stronger class in any row is never smaller.
//! Hence `ev(F, M, b)` with `M` the strongest middle of a split of a back `b` (disjoint,
//! no stronger than `b`, the front the rest leaves no stronger than it) and `F` the
//! strongest front of a split of `b` no stronger than `M` bounds every split of that
//! back, with no tolerance (a front or middle is in exactly one split of a back, the rest
//! of the cards making the other row, so which are in one is one lookup: the bound never
//! lets a front and a middle both hold the same pair); a back is skipped only when that
//! bound is strictly below the current `top_k`-th expectation, so no split that could
//! enter (or tie into) the result is missed, and the kept splits' expectations are the
//! same floating-point expression as before.
//!
//! Per hand: every subset's class once (five-card classes, strengths and sort keys by rank
//! multiset from one table of the model, `by_multiset5`, built from
//! [`classes5_by_multiset`], a subset of one suit looked up as a flush), the subsets
//! sorted by strength (counting sorts: five-card subsets by their 13-bit keys, fronts by
//! their 455 classes) and a bitset per card over
//! each sorted list, so "the strongest subset no stronger than s and disjoint from these
//! 5 cards" is an OR of five words and a trailing-zero count.
//!
//! Backs are taken strongest first. The loose bound of the walk (as middle the strongest
//! subset no stronger than the back with a disjoint back at least as strong and no
//! stronger, as front the strongest with a disjoint middle at least as strong and no
//! stronger than that one) is monotone in the back's strength, so the walk stops at the
//! first back whose loose bound is below the incumbent. Backs of one class hold
//! the same ranks; when the eight cards they leave hold no five of a suit, their splits
//! are the same up to suits, so only the first of them is searched. A back is searched
//! best first by its tight bound, as a threshold algorithm over two sorted lists (the
//! middles and the fronts in its splits, strongest first, see [`visit`]): a few steps
//! rather than all 56 middles.

use super::model::{class_of, Five, Model, RoleValue};
use super::{combos, pow, Cand, TopK};
use crate::cards::Card;
use crate::shisanshui::eval::{strength3, strength5_key, strength5_of_keys};

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
    /// Strength under the rules (foul checks, order), standard class (and, five-card
    /// subsets, sort key) of every subset, indexed like `combos().five` / `.three`: the
    /// model's entry for the subset's rank multiset, copied whole.
    five: [Five; N5],
    s3: [u32; N3],
    c3: [u16; N3],
    /// Subset indices, strongest first, and their strengths in that order.
    ord5: [u16; N5],
    srt5: [u32; N5],
    ord3: [u16; N3],
    srt3: [u32; N3],
    /// The subsets' card masks in the sorted orders (what the bitsets transpose).
    msk5: [u16; N5],
    msk3: [u16; N3],
    /// `fronts_from[c]`: the sorted position of the first front of class below `c` (the
    /// number of fronts of class `c` or above; classes are numbered in strength order).
    fronts_from: [u16; 512],
    /// `bits5[w][p]`: bit j set when subset `ord5[64·w + j]` holds card position p (bits
    /// past the end set for every card, so they never look free); built a word at a time
    /// when first needed (`built5` words so far), since the search rarely goes deep; the
    /// same for `bits3` over `ord3` (`built3`).
    bits5: [[u64; 13]; W5],
    built5: usize,
    bits3: [[u64; 13]; W3],
    built3: usize,
    /// Per front (`combos().three` order), the sum of its cards' terms as the three
    /// lowest cards of a five-card subset's rank multiset index (below 2^13).
    low3: [u16; N3],
    /// Per front, the sum of its cards' byte-packed suit counts (`suit`).
    suit3: [u32; N3],
    /// Per five-card subset, how many subsets of its sort key come before it.
    occ5: [u16; N5],
    /// Scratch of [`order_desc`]: a counter per sort key at its [`sort_bin`], all zero
    /// between calls.
    count: [u16; 1 << 13],
    /// Per card position a byte-packed suit count (`1 << 8·suit`), and their sum.
    suit: [u32; 13],
    suits: u32,
}

impl Hand {
    fn empty() -> Box<Hand> {
        Box::new(Hand {
            five: [Five { class: 0, bin: 0, strength: 0 }; N5],
            s3: [0; N3],
            c3: [0; N3],
            ord5: [0; N5],
            srt5: [0; N5],
            ord3: [0; N3],
            srt3: [0; N3],
            msk5: [0; N5],
            msk3: [0; N3],
            fronts_from: [0; 512],
            bits5: [[0; 13]; W5],
            built5: 0,
            bits3: [[0; 13]; W3],
            built3: 0,
            low3: [0; N3],
            suit3: [0; N3],
            occ5: [0; N5],
            count: [0; 1 << 13],
            suit: [0; 13],
            suits: 0,
        })
    }

    /// Fill every table for `cards` (sorted). Every field is overwritten (the bitset
    /// words of `bits5` before they are read), so one `Hand` serves hand after hand.
    fn fill(&mut self, cards: &[Card; 13], model: &Model) {
        let h = self;
        h.built5 = 0;
        // Per card position its term as the k-th lowest card of a rank multiset
        // (`multiset5_index`) and its byte-packed suit count.
        let rank: [usize; 13] = std::array::from_fn(|p| cards[p].rank() as usize);
        h.suit = std::array::from_fn(|p| 1 << (8 * cards[p].suit() as u32));
        h.suits = h.suit.iter().sum();
        let mut key = [[0usize; 13]; 5];
        for (k, row) in key.iter_mut().enumerate() {
            for (p, x) in row.iter_mut().enumerate() {
                *x = MULTISET5_TERM[k][rank[p]] as usize;
            }
        }
        // Fronts: (strength, class) by their three ranks, lowest first (the cards are
        // sorted, so a subset's ranks come in order), in `combos` order; and the sum of
        // the three lowest cards' terms of every five-card subset whose three lowest cards
        // they are (in `combos` order too, the subsets of cards below d the first C(d, 3)).
        let fronts = fronts_by_ranks();
        let mut i = 0;
        for c3 in 2..13 {
            for b in 1..c3 {
                let (kbc, rbc) = (key[2][c3] + key[1][b], rank[b] * 13 + rank[c3]);
                for a in 0..b {
                    (h.s3[i], h.c3[i]) = fronts[rank[a] * 169 + rbc];
                    h.low3[i] = (kbc + key[0][a]) as u16;
                    h.suit3[i] = h.suit[a] + h.suit[b] + h.suit[c3];
                    i += 1;
                }
            }
        }
        h.class_fives(&key, model);
        order_desc(&h.five, &h.occ5, (&mut h.ord5, &mut h.srt5, &mut h.msk5), &mut h.count);
        // Three-card classes are numbered in strength order (455 of them): a counting
        // sort over all of them, strongest first, equal classes by index (each front's
        // place among its class noted as it is counted, so the placing pass only reads
        // the bin starts).
        let mut count = [0u16; 512];
        let mut occ = [0u16; N3];
        for (&k, o) in h.c3.iter().zip(&mut occ) {
            let n = &mut count[k as usize & 511];
            *o = *n;
            *n += 1;
        }
        let mut pos = 0;
        for (n, from) in count.iter_mut().zip(&mut h.fronts_from).rev() {
            (*n, pos) = (pos, pos + *n);
            *from = pos;
        }
        for (i, (((&k, &s), &o), &m)) in h.c3.iter().zip(&h.s3).zip(&occ).zip(&combos().three).enumerate() {
            let slot = (count[k as usize & 511] + o) as usize;
            h.ord3[slot] = i as u16;
            h.srt3[slot] = s;
            h.msk3[slot] = m;
        }
        h.built3 = 0;
    }

    /// Class, strength and sort key of every five-card subset, in `combos` order (the
    /// highest card outermost), each from its rank multiset's index, one addition per
    /// subset (`multiset5_index`; the cards are sorted, so the k-th lowest card of a
    /// subset adds `key[k][p]`). Counts every key and notes each subset's place among
    /// those of its key (`occ5`), for the sort.
    #[inline(always)]
    fn class_fives(&mut self, key: &[[usize; 13]; 5], model: &Model) {
        let mut i = 0;
        for e in 4..13 {
            for d in 3..e {
                // The C(d, 3) subsets with these two highest cards, one run. Some is a
                // flush only when d and e are of one suit that has five cards.
                let n = d * (d - 1) * (d - 2) / 6;
                let (suit, kde) = (self.suit[d], key[4][e] + key[3][d]);
                if suit == self.suit[e] && (self.suits >> suit.trailing_zeros()) & 0xFF >= 5 {
                    self.class_run::<true>(i, n, kde, 2 * suit, model);
                } else {
                    self.class_run::<false>(i, n, kde, 2 * suit, model);
                }
                i += n;
            }
        }
    }

    /// [`class_fives`](Hand::class_fives) of the `n` subsets from `i` on, the sum of whose
    /// two highest cards' terms is `kde` (and of their suit counts `sde`); with `FLUSH`
    /// a subset of one suit is looked up as a flush (its byte-packed suit counts carry
    /// into a byte's top bit).
    #[inline(always)]
    fn class_run<const FLUSH: bool>(&mut self, i: usize, n: usize, kde: usize, sde: u32, model: &Model) {
        let packed = &model.by_multiset5;
        // (Multiset indices and keys are below 2^13: the masks only spare bounds checks.)
        let out = self.five[i..i + n].iter_mut().zip(&mut self.occ5[i..i + n]);
        for ((&k3, &s3), (five, occ)) in self.low3[..n].iter().zip(&self.suit3[..n]).zip(out) {
            let mut at = (kde + k3 as usize) & 0x1FFF;
            if FLUSH {
                let one_suit = (sde + s3).wrapping_add(0x7B7B_7B7B) & 0x8080_8080 != 0;
                at |= (one_suit as usize) << 13;
            }
            *five = packed[at];
            let bin = five.bin as usize & 0x1FFF;
            *occ = self.count[bin];
            self.count[bin] += 1;
        }
    }

    /// The words of `bits3` up to `w`.
    #[inline]
    fn build3(&mut self, w: usize) {
        while self.built3 <= w {
            self.bits3[self.built3] = card_bits(&self.msk3, self.built3);
            self.built3 += 1;
        }
    }

    /// The words of `bits5` up to `w`.
    #[inline]
    fn build5(&mut self, w: usize) {
        while self.built5 <= w {
            self.bits5[self.built5] = card_bits(&self.msk5, self.built5);
            self.built5 += 1;
        }
    }

    /// The sorted position of the first front no stronger than five-card class `c5` (a
    /// binary search over the fronts mispredicted its branches).
    #[inline]
    fn fronts_at_most(&self, c5: u16, model: &Model) -> usize {
        self.fronts_from[model.fronts_below5[c5 as usize] as usize & 511] as usize
    }

    /// (strongest middle, strongest front) a back leaves, the middle as its sorted
    /// position, the front as its subset index: the middle
    /// disjoint from the back and no stronger than it, the front disjoint from the back
    /// and no stronger than that middle. `start`: the first sorted position no stronger
    /// than the back.
    #[inline]
    fn strongest_rest(&mut self, bi: usize, start: usize, model: &Model) -> Option<(usize, usize)> {
        let cards = Cards::of(combos().five[bi]);
        let (mut w, mut live) = (start / 64, !0u64 << (start % 64));
        let jm = loop {
            if w == W5 {
                return None;
            }
            self.build5(w);
            let free = cards.free(&self.bits5[w]) & live;
            if free != 0 {
                break 64 * w + free.trailing_zeros() as usize;
            }
            (w, live) = (w + 1, !0);
        };
        let start3 = self.fronts_at_most(self.five[self.ord5[jm] as usize].class, model);
        let (mut w, mut live) = (start3 / 64, !0u64 << (start3 % 64));
        let jf = loop {
            if w == W3 {
                return None;
            }
            self.build3(w);
            let free = cards.free(&self.bits3[w]) & live;
            if free != 0 {
                break 64 * w + free.trailing_zeros() as usize;
            }
            (w, live) = (w + 1, !0);
        };
        Some((jm, jf))
    }

    /// (strongest middle, strongest front) in a split of back `bi`, as sorted positions
    /// at or after `start` (no stronger than the back, and before it none in a split)
    /// and `start3` (before it none in a split): a middle or front in no split (the rest
    /// of the back's cards would foul with it) is passed, so the bound
    /// `ev(front, middle, back)` they give knows that a front and a middle cannot both
    /// hold the same pair.
    #[inline]
    fn strongest_split(&mut self, bi: usize, start: usize, start3: usize, model: &Model) -> Option<(usize, usize)> {
        let c = combos();
        let rest = 0x1FFF ^ c.five[bi];
        let sb = self.five[bi].strength;
        let cards = Cards::of(c.five[bi]);
        let (mut w, mut live) = (start / 64, !0u64 << (start % 64));
        let jm = 'middle: loop {
            if w == W5 {
                return None;
            }
            self.build5(w);
            let mut free = cards.free(&self.bits5[w]) & live;
            while free != 0 {
                let jm = 64 * w + free.trailing_zeros() as usize;
                if self.s3[c.index[(rest ^ self.msk5[jm]) as usize] as usize] <= self.srt5[jm] {
                    break 'middle jm;
                }
                free &= free - 1;
            }
            (w, live) = (w + 1, !0);
        };
        let start3 = start3.max(self.fronts_at_most(self.five[self.ord5[jm] as usize].class, model));
        let (mut w, mut live) = (start3 / 64, !0u64 << (start3 % 64));
        loop {
            if w == W3 {
                return None;
            }
            self.build3(w);
            let mut free = cards.free(&self.bits3[w]) & live;
            while free != 0 {
                let jf = 64 * w + free.trailing_zeros() as usize;
                let m = self.five[c.index[(rest ^ self.msk3[jf]) as usize] as usize].strength;
                if m <= sb && self.srt3[jf] <= m {
                    return Some((jm, jf));
                }
                free &= free - 1;
            }
            (w, live) = (w + 1, !0);
        }
    }

    /// The sorted position of a five-card subset at or after `from` at least as strong
    /// as `s` that holds none of the cards at positions `cards` (the first), if any.
    #[inline]
    fn free5_at_least<const N: usize>(&mut self, from: usize, cards: [usize; N], s: u32) -> Option<usize> {
        let (mut w, mut live) = (from / 64, !0u64 << (from % 64));
        while w < W5 && self.srt5[(64 * w).max(from)] >= s {
            self.build5(w);
            let word = &self.bits5[w];
            let free = !cards.iter().fold(0, |used, &p| used | word[p]) & live;
            if free != 0 {
                let j = 64 * w + free.trailing_zeros() as usize;
                return (self.srt5[j] >= s).then_some(j);
            }
            (w, live) = (w + 1, !0);
        }
        None
    }

    /// The rows of the walk's loose bound for the backs at sorted position `backs` and
    /// after: `l.m` becomes the first middle at or after it (and `backs`) with a disjoint
    /// back among those at least as strong, `l.f` the first front at or after it no
    /// stronger than that middle with a disjoint middle at or after it at least as
    /// strong, as sorted positions. Every split with such a back has its middle and
    /// front at or after them (no stronger), so `ev` of their classes and the back's
    /// bounds it: the middle and the back, the front and the middle cannot share a pair.
    /// The positions passed hold none for these backs, nor for any weaker ones: the next
    /// call starts at them; a partner found (`l.back`, `l.middle`) serves again while
    /// it is among those allowed. False: no split has such a back.
    fn loose_rows(&mut self, l: &mut LooseRows, backs: usize) -> bool {
        if l.m < backs {
            (l.m, l.back) = (backs, None);
        }
        loop {
            if l.m == N5 {
                return false;
            }
            if l.back.is_some_and(|b| b >= backs) {
                break;
            }
            match self.free5_at_least(backs, positions::<5>(self.msk5[l.m]), self.srt5[l.m]) {
                Some(b) => l.back = Some(b),
                None => l.m += 1,
            }
        }
        loop {
            if l.f == N3 {
                return false;
            }
            if self.srt3[l.f] > self.srt5[l.m] {
                (l.f, l.middle) = (l.f + 1, None);
                continue;
            }
            if l.middle.is_some_and(|x| x >= l.m) {
                return true;
            }
            match self.free5_at_least(l.m, positions::<3>(self.msk3[l.f]), self.srt3[l.f]) {
                Some(x) => l.middle = Some(x),
                None => l.f += 1,
            }
        }
    }

    /// Whether the eight cards a back leaves hold fewer than five of every suit: then
    /// no middle of theirs is a flush, and their splits' classes depend only on their
    /// ranks.
    #[inline]
    fn rest_flushless(&self, bi: usize) -> bool {
        // A count of 5 or more carries into its byte's top bit.
        if self.suits.wrapping_add(0x7B7B_7B7B) & 0x8080_8080 == 0 {
            return true; // no suit of five in the hand
        }
        let (mut m, mut used) = (combos().five[bi], 0);
        while m != 0 {
            used += self.suit[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        (self.suits - used).wrapping_add(0x7B7B_7B7B) & 0x8080_8080 == 0
    }

    /// The sorted position of the strongest subset that some disjoint subset at least
    /// as strong leaves (every split's middle is one: its back is disjoint and no
    /// weaker), so no split's middle is stronger than it.
    fn middle_cap(&mut self) -> usize {
        let five = &combos().five;
        let mut end = 0; // the end of the current strength's positions
        for j in 0..N5 {
            if j == end {
                end = j + 1;
                while end < N5 && self.srt5[end] == self.srt5[j] {
                    end += 1;
                }
            }
            let cards = Cards::of(five[self.ord5[j] as usize]);
            for w in 0..end.div_ceil(64) {
                self.build5(w);
                let live = if 64 * w + 64 <= end { !0 } else { !(!0u64 << (end % 64)) };
                if cards.free(&self.bits5[w]) & live != 0 {
                    return j;
                }
            }
        }
        unreachable!("the weakest subset of 13 cards leaves a stronger one")
    }

    /// Visit the foul-free splits with back `bi` as (middle, front) subset indices, in
    /// the order of the exhaustive search (which decides the reported suit variant).
    #[inline]
    fn for_back(&self, bi: usize, mut f: impl FnMut(usize, usize)) {
        super::for_back_splits(bi, |mi| self.five[mi].strength <= self.five[bi].strength, |mi, fi| {
            if self.s3[fi] <= self.five[mi].strength {
                f(mi, fi)
            }
        });
    }
}

/// The five card positions of a back.
struct Cards([usize; 5]);

impl Cards {
    #[inline]
    fn of(mut mask: u16) -> Cards {
        let mut p = [0; 5];
        for x in p.iter_mut() {
            *x = mask.trailing_zeros() as usize;
            mask &= mask.wrapping_sub(1);
        }
        Cards(p)
    }
    /// Bits of the subsets in a bitset word that hold none of these cards.
    #[inline]
    fn free(&self, word: &[u64; 13]) -> u64 {
        !(word[self.0[0]] | word[self.0[1]] | word[self.0[2]] | word[self.0[3]] | word[self.0[4]])
    }
}

/// The positions of the `N` cards of `mask`.
#[inline]
fn positions<const N: usize>(mut mask: u16) -> [usize; N] {
    std::array::from_fn(|_| {
        let p = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        p
    })
}

/// Binomial coefficient C(n, k) for the small numbers of the multiset index.
const fn binom(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let (mut r, mut i) = (1, 0);
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// `MULTISET5_TERM[k][r]`: the term C(r + k, k + 1) of the k-th lowest rank r in
/// [`multiset5_index`].
const MULTISET5_TERM: [[u16; 13]; 5] = {
    let mut t = [[0u16; 13]; 5];
    let mut k = 0;
    while k < 5 {
        let mut r = 0;
        while r < 13 {
            t[k][r] = binom(r + k, k + 1) as u16;
            r += 1;
        }
        k += 1;
    }
    t
};

/// Rank multisets of five cards (ranks 0..13, with repetition): C(17, 5).
pub(super) const MULTISETS5: usize = binom(17, 5);
const _: () = assert!(MULTISETS5 <= 1 << 13, "a multiset index fits in 13 bits");

/// The index of a multiset of five ranks `r0 ≤ … ≤ r4` among [`MULTISETS5`]: the colex
/// rank of the five-subset `{r0, r1+1, …, r4+4}` of 0..17, Σ C(r_k + k, k + 1).
pub(super) fn multiset5_index(r: [usize; 5]) -> usize {
    (0..5).map(|k| binom(r[k] + k, k + 1)).sum()
}

/// Standard five-card class by rank multiset index ([`multiset5_index`], below 2^13),
/// not suited at `[i]`, all one suit at `[8192 + i]`: 32 KB, where a table by key sum
/// would take 720 KB and miss the cache on most lookups.
pub(super) fn classes5_by_multiset() -> &'static [u16; 1 << 14] {
    static T: std::sync::OnceLock<Box<[u16; 1 << 14]>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([u16::MAX; 1 << 14]);
        let mut ranks = [0usize; 5];
        fn walk(from: usize, at: usize, ranks: &mut [usize; 5], t: &mut [u16]) {
            if at == 5 {
                let key = |suit: &dyn Fn(usize) -> u8| (0..5).map(|i| strength5_key(Card::new(ranks[i] as u8, suit(i)))).sum::<u64>();
                let class = |k: u64| class_of(5, strength5_of_keys(k)) as u16;
                let i = multiset5_index(*ranks);
                // Equal ranks are neighbours, at most four: suits i % 4 differ among them.
                t[i] = class(key(&|i| (i % 4) as u8));
                if ranks.windows(2).all(|w| w[0] != w[1]) {
                    t[(1 << 13) + i] = class(key(&|_| 0));
                }
                return;
            }
            for r in from..13 {
                if ranks[..at].iter().filter(|&&x| x == r).count() < 4 {
                    ranks[at] = r;
                    walk(r, at + 1, ranks, t);
                }
            }
        }
        walk(0, 0, &mut ranks, &mut t[..]);
        t
    })
}

/// (strength, class) of a front by its ranks `r0 ≤ r1 ≤ r2`, at `(r0·13 + r1)·13 + r2`.
fn fronts_by_ranks() -> &'static [(u32, u16)] {
    static T: std::sync::OnceLock<Vec<(u32, u16)>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![(0, 0); 13 * 13 * 13];
        for r0 in 0..13u8 {
            for r1 in r0..13 {
                for r2 in r1..13 {
                    let s = strength3(&[Card::new(r0, 0), Card::new(r1, 1), Card::new(r2, 2)]);
                    t[(r0 as usize * 13 + r1 as usize) * 13 + r2 as usize] = (s, class_of(3, s) as u16);
                }
            }
        }
        t
    })
}

/// Word `w` of the per-card bitsets over a sorted list of subsets' card masks: a
/// bit-matrix transpose, bit j of word p set when mask `64·w + j` holds card p (bits
/// past the end set for every card, so they never look free). With AVX2, 32 masks a
/// card at a time (each mask's bit p shifted to its sign, packed to bytes and gathered
/// by a movemask); else eight masks at a time (the bit of card p of eight masks, one
/// per byte, gathered into a byte by one multiplication), so no counter is updated in
/// memory per card.
fn card_bits(masks: &[u16], w: usize) -> [u64; 13] {
    let (start, end) = (64 * w, masks.len().min(64 * w + 64));
    let mut block = [!0u16; 64];
    block[..end - start].copy_from_slice(&masks[start..end]);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above), all the function needs.
        return unsafe { card_bits_avx2(&block) };
    }
    card_bits_scalar(&block)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn card_bits_avx2(block: &[u16; 64]) -> [u64; 13] {
    use std::arch::x86_64::*;
    // SAFETY: `block` holds 64 u16: four unaligned 32-byte loads.
    let v: [__m256i; 4] = std::array::from_fn(|i| unsafe { _mm256_loadu_si256(block.as_ptr().add(16 * i).cast()) });
    std::array::from_fn(|p| {
        let to_sign = _mm_cvtsi32_si128(15 - p as i32);
        // 32 masks' bit p as the signs of 32 bytes (the pack interleaves 128-bit halves:
        // the permute puts them back in order), then one bit each.
        let half = |a: __m256i, b: __m256i| {
            let bytes = _mm256_packs_epi16(_mm256_sll_epi16(a, to_sign), _mm256_sll_epi16(b, to_sign));
            _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(bytes)) as u32 as u64
        };
        half(v[0], v[1]) | half(v[2], v[3]) << 32
    })
}

fn card_bits_scalar(block: &[u16; 64]) -> [u64; 13] {
    let (mut lo, mut hi) = ([0u8; 64], [0u8; 64]);
    for ((&m, lo), hi) in block.iter().zip(&mut lo).zip(&mut hi) {
        (*lo, *hi) = (m as u8, (m >> 8) as u8);
    }
    // Bit 0 of each of the 8 bytes of x, as the 8 bits of a byte.
    let gather = |x: u64| (x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut acc = [0u64; 13];
    for g in 0..8 {
        let l = u64::from_le_bytes(lo[8 * g..8 * g + 8].try_into().unwrap());
        let h = u64::from_le_bytes(hi[8 * g..8 * g + 8].try_into().unwrap());
        for p in 0..8 {
            acc[p] |= gather(l >> p) << (8 * g);
        }
        for p in 0..5 {
            acc[8 + p] |= gather(h >> p) << (8 * g);
        }
    }
    acc
}

/// The sorted lists [`order_desc`] writes: subset indices, strengths, masks.
type Sorted<'a> = (&'a mut [u16; N5], &'a mut [u32; N5], &'a mut [u16; N5]);

/// Subset indices by sort key (the class's `Model::rank5`), largest key first, equal
/// keys by index, into `out.0`, their strengths into `out.1` and their five-card masks
/// into `out.2`: a counting sort. On entry `count` holds how often each key occurs (at
/// the key's [`sort_bin`]) and `occ[i]` the number of `i`'s predecessors with its key
/// (the caller counts as it computes the keys), so placing an index only reads its bin's
/// start (a counter bumped per placement made each placement wait for the one before);
/// `count` is left zero.
fn order_desc(five: &[Five; N5], occ: &[u16; N5], out: Sorted, count: &mut [u16; 1 << 13]) {
    let above = bin_starts(count);
    for (i, ((f, &o), &m)) in five.iter().zip(occ).zip(&combos().five).enumerate() {
        let bin = f.bin as usize & 0x1FFF;
        let slot = (count[bin] + above[bin % 32] + o) as usize;
        out.0[slot] = i as u16;
        out.1[slot] = f.strength;
        out.2[slot] = m;
    }
    count.fill(0);
}

/// Where the sort counts sort key `k` (below 8,192): row `k % 256` of 32 columns, column
/// `k / 256`. The keys above `k` are the rest of its column below its row and the whole
/// columns to its right, so every bin's start is a running sum down the rows, 32 columns
/// at a time (one vector addition a row), plus a per-column offset: no pass key by key.
pub(super) fn sort_bin(k: u16) -> u16 {
    (k % 256) * 32 + k / 256
}

/// Each count (at [`sort_bin`]) replaced by the number of keys above it in its column,
/// below its row; returns per column the number of keys in the columns to its right.
/// A bin's start is the sum of the two.
fn bin_starts(count: &mut [u16; 1 << 13]) -> [u16; 32] {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2(count: &mut [u16; 1 << 13]) -> [u16; 32] {
            bin_starts_by_rows(count)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above): two registers a row.
            return unsafe { avx2(count) };
        }
    }
    bin_starts_by_rows(count)
}

#[inline(always)]
fn bin_starts_by_rows(count: &mut [u16; 1 << 13]) -> [u16; 32] {
    let mut down = [0u16; 32];
    for row in count.chunks_exact_mut(32).rev() {
        for (n, d) in row.iter_mut().zip(&mut down) {
            (*n, *d) = (*d, *d + *n);
        }
    }
    let mut right = [0u16; 32];
    for c in (0..31).rev() {
        right[c] = right[c + 1] + down[c + 1];
    }
    right
}

/// [`bin_starts`] (the path this CPU takes, and the plain one) against a suffix sum over
/// the keys, for the counts `by_key`.
#[cfg(test)]
pub(super) fn check_bin_starts(by_key: &[u16; 1 << 13]) {
    let mut count = [0u16; 1 << 13];
    for (k, &n) in by_key.iter().enumerate() {
        count[sort_bin(k as u16) as usize] = n;
    }
    let (mut plain, mut fast) = (count, count);
    let (right_plain, right_fast) = (bin_starts_by_rows(&mut plain), bin_starts(&mut fast));
    let mut above = 0;
    for k in (0..1 << 13).rev() {
        let bin = sort_bin(k as u16) as usize;
        assert_eq!(plain[bin] + right_plain[bin % 32], above, "bin_starts_by_rows, key {k}");
        assert_eq!(fast[bin] + right_fast[bin % 32], above, "bin_starts, key {k}");
        above += by_key[k];
    }
}

/// Every path of [`card_bits`] this CPU can run against the definition, on every word
/// of `masks`.
#[cfg(test)]
pub(super) fn check_card_bits(masks: &[u16]) {
    for w in 0..masks.len().div_ceil(64) {
        let want: [u64; 13] = std::array::from_fn(|p| {
            (0..64).filter(|&j| masks.get(64 * w + j).is_none_or(|m| m >> p & 1 == 1)).fold(0, |acc, j| acc | 1 << j)
        });
        assert_eq!(card_bits(masks, w), want, "card_bits word {w}");
        let mut block = [!0u16; 64];
        let end = masks.len().min(64 * w + 64);
        block[..end - 64 * w].copy_from_slice(&masks[64 * w..end]);
        assert_eq!(card_bits_scalar(&block), want, "card_bits_scalar word {w}");
    }
}


/// The class and strength under the model's rules of every five-card subset (in
/// `combos` order) of the sorted `cards`, and the subsets' sorted order, as the search
/// computes them: for the tests.
#[cfg(test)]
pub(super) fn subset_classes(cards: &[Card; 13], model: &Model) -> (Vec<u16>, Vec<u32>, Vec<u16>) {
    let mut h = Hand::empty();
    h.fill(cards, model);
    (h.five.iter().map(|f| f.class).collect(), h.five.iter().map(|f| f.strength).collect(), h.ord5.to_vec())
}

/// The `top_k` best splits (distinct by strength triple, best first), the same as the
/// exhaustive search's, with the same split reported for each triple.
pub(crate) fn solve(cards: &[Card; 13], model: &Model, n: usize, top_k: usize) -> Vec<Cand> {
    thread_local! {
        // One Hand per thread, reused: its ~50 KB are not zeroed and allocated per call.
        static SPARE: std::cell::Cell<Option<Box<Hand>>> = const { std::cell::Cell::new(None) };
    }
    let mut h = SPARE.take().unwrap_or_else(Hand::empty);
    h.fill(cards, model);
    let e = Ev::new(model, n);
    let mut top = TopK { k: top_k, items: Vec::new() };
    let bar = |top: &TopK| if top.items.len() == top.k { top.items[top.k - 1].ev } else { f64::NEG_INFINITY };
    // Best first: backs strongest first, each back's tight bound computed as the walk
    // reaches it; a pending back is searched as soon as its bound is at least the loose
    // bound of the walk (which bounds every back not reached yet), so the incumbent rises
    // early and the walk stops at the first back whose loose bound is below it.
    // Pending backs in a max-heap (no two compare equal, so the order they are searched
    // in is fixed; a sorted vector's binary searches and shifts were ~8% of the time of
    // the slowest hands, which hold a hundred pending backs).
    let mut pending = std::collections::BinaryHeap::<Pending>::with_capacity(64);
    let mut flushless_seen = false;
    let mut loose = f64::INFINITY;
    // No split's middle is stronger than `cap` (sorted position of the strongest subset
    // with a disjoint one at least as strong). The loose bound's rows: see
    // `Hand::loose_rows` (sorted positions, which only move on as the backs weaken).
    let cap = h.middle_cap();
    let mut l = LooseRows { m: cap, f: 0, back: None, middle: None };
    for j in 0..N5 {
        let (bi, s) = (h.ord5[j] as usize, h.srt5[j]);
        if j == 0 || s != h.srt5[j - 1] {
            flushless_seen = false;
            if !h.loose_rows(&mut l, j) {
                break; // no split has a back this weak
            }
            let (mcls, fcls) = (h.five[h.ord5[l.m] as usize].class, h.c3[h.ord3[l.f] as usize]);
            loose = e.ev(e.role(0, fcls), e.role(1, mcls), e.role(2, h.five[bi].class));
            while pending.peek().is_some_and(|p| p.0 >= loose) {
                let p = pending.pop().unwrap();
                if p.0 >= bar(&top) {
                    visit(&mut h, &e, &p, &mut top);
                }
            }
        }
        if loose < bar(&top) {
            break;
        }
        // Backs of one class hold the same ranks (a strength names its five ranks), so
        // they leave the same ranks; when those hold no five of a suit, every split of
        // one back has a twin of the same classes in the other (a card for a card of
        // the same rank): the same expectation and strength triple. Only the first such
        // back of a class is searched.
        if h.rest_flushless(bi) {
            if flushless_seen {
                continue;
            }
            flushless_seen = true;
        }
        // (The loose bound's rows are the first in a split of any back this weak.)
        let Some((jm, jf)) = h.strongest_split(bi, l.m, l.f, e.model) else { continue };
        let (mi, fi) = (h.ord5[jm] as usize, h.ord3[jf] as usize);
        let tight = e.ev(e.role(0, h.c3[fi]), e.role(1, h.five[mi].class), e.role(2, h.five[bi].class));
        if tight >= bar(&top) {
            pending.push(Pending(tight, bi, jm, jf));
            // No bar yet: the best back so far is searched for one (the loose bound
            // rarely falls under these tight bounds soon).
            if top.items.len() < top.k {
                let p = pending.pop().unwrap();
                visit(&mut h, &e, &p, &mut top);
            }
        }
    }
    while let Some(p) = pending.pop() {
        if p.0 < bar(&top) {
            break;
        }
        visit(&mut h, &e, &p, &mut top);
    }
    let mut items = top.items;
    for c in items.iter_mut() {
        c.split = reported_split(&mut h, &e, c.triple);
    }
    SPARE.set(Some(h));
    items
}

/// Search the splits of a pending back whose expectation can reach the bar, as a
/// threshold algorithm over two sorted lists: the middles in its splits, strongest
/// first (from the strongest, sorted position `p.2`), and the fronts in its splits no
/// stronger than that middle, strongest first (from sorted position `p.3`). Each step
/// scores the split of the middle at the one cursor and the split of the front at the
/// other; a split not scored yet has its middle at or after the middle cursor and its
/// front at or after the front cursor and no stronger than that middle (the front
/// cursor skips stronger fronts), so `ev` of the two cursors bounds it (monotone), and
/// the search stops when that bound is below the bar.
fn visit(h: &mut Hand, e: &Ev, p: &Pending, top: &mut TopK) {
    let c = combos();
    let bi = p.1;
    let bmask = c.five[bi];
    let rest = 0x1FFF ^ bmask;
    let cards = Cards::of(bmask);
    let b = e.role(2, h.five[bi].class);
    let sb = h.five[bi].strength;
    // Cursors: the current word and its free bits not yet taken, and the first sorted
    // position not skipped (below).
    let (mut wm, mut fm);
    wm = p.2 / 64;
    h.build5(wm);
    fm = cards.free(&h.bits5[wm]) & (!0u64 << (p.2 % 64));
    h.build3(p.3 / 64);
    let (mut wf, mut ff) = (p.3 / 64, cards.free(&h.bits3[p.3 / 64]) & (!0u64 << (p.3 % 64)));
    let (mut next_m, mut next_f) = (0, 0);
    // Subsets of one strength hold the same ranks. Middles of the one at the cursor
    // leave fronts of the same ranks: their splits are the scored one's up to suits
    // (the same expectation and triple), so they are skipped; fronts likewise, when no
    // middle of the rest can be a flush (else the middles they leave might differ).
    let fronts_skip = h.rest_flushless(bi);
    loop {
        while fm == 0 {
            wm += 1;
            if wm == W5 {
                return;
            }
            h.build5(wm);
            fm = cards.free(&h.bits5[wm]) & from_pos(next_m, wm);
        }
        // A middle or a front is in one split of the back (the rest makes the other
        // row); a fouled one, in none: the cursors pass it. (Every split is then scored
        // at both cursors.)
        let jm = 64 * wm + fm.trailing_zeros() as usize;
        let mi = h.ord5[jm] as usize;
        let f2 = c.index[(rest ^ h.msk5[jm]) as usize] as usize;
        if h.s3[f2] > h.srt5[jm] {
            fm &= fm - 1;
            continue;
        }
        // Fronts stronger than the middle at the cursor are in no split left: such a
        // split's middle is no stronger than that middle (fouled), or was scored.
        let (jf, m2) = loop {
            while ff == 0 {
                wf += 1;
                if wf == W3 {
                    return;
                }
                h.build3(wf);
                ff = cards.free(&h.bits3[wf]) & from_pos(next_f, wf);
            }
            let jf = 64 * wf + ff.trailing_zeros() as usize;
            if h.srt3[jf] <= h.srt5[jm] {
                let m2 = c.index[(rest ^ h.msk3[jf]) as usize] as usize;
                if h.five[m2].strength <= sb && h.srt3[jf] <= h.five[m2].strength {
                    break (jf, m2);
                }
            }
            ff &= ff - 1;
        };
        (next_m, fm) = (jm + 1, fm & (fm - 1));
        while next_m < N5 && h.srt5[next_m] == h.srt5[jm] {
            next_m += 1;
        }
        fm &= from_pos(next_m, wm);
        let fi = h.ord3[jf] as usize;
        (next_f, ff) = (jf + 1, ff & (ff - 1));
        if fronts_skip {
            while next_f < N3 && h.srt3[next_f] == h.srt3[jf] {
                next_f += 1;
            }
            ff &= from_pos(next_f, wf);
        }
        let (m, f) = (e.role(1, h.five[mi].class), e.role(0, h.c3[fi]));
        if top.items.len() == top.k && e.ev(f, m, b) < top.items[top.k - 1].ev {
            return;
        }
        // The splits of the middle and of the front at the cursors.
        let ev = e.ev(e.role(0, h.c3[f2]), m, b);
        top.offer(Cand { ev, split: (bi, mi, f2), triple: (h.s3[f2], h.srt5[jm], sb) });
        let ev = e.ev(f, e.role(1, h.five[m2].class), b);
        top.offer(Cand { ev, split: (bi, m2, fi), triple: (h.s3[fi], h.five[m2].strength, sb) });
    }
}

/// The bits of a bitset word `w` at sorted positions `pos` and after.
#[inline]
fn from_pos(pos: usize, w: usize) -> u64 {
    match pos.saturating_sub(64 * w) {
        0 => !0,
        k if k < 64 => !0 << k,
        _ => 0,
    }
}

/// The rows of the walk's loose bound, as sorted positions (see [`Hand::loose_rows`]),
/// and the partners that showed them in a split: a back disjoint from the middle, at
/// least as strong, and a middle disjoint from the front, at least as strong.
struct LooseRows {
    m: usize,
    f: usize,
    back: Option<usize>,
    middle: Option<usize>,
}

/// A back waiting to be searched, by its bound: (bound, back, sorted positions of the
/// strongest middle and of the strongest front in its splits).
struct Pending(f64, usize, usize, usize);

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0).then(other.1.cmp(&self.1))
    }
}

/// Among the splits with strength triple `t` (they differ only in suits), the one the
/// exhaustive search reported: the first it visited. It visited the back with the
/// highest loose bound first (the lowest index among equals), then backs by its bound
/// (highest first, then lowest index), each back's splits in `for_back` order.
fn reported_split(h: &mut Hand, e: &Ev, t: (u32, u32, u32)) -> (usize, usize, usize) {
    let (from, to) = (h.srt5.partition_point(|&s| s > t.2), h.srt5.partition_point(|&s| s >= t.2));
    let first_split = |bi: usize| {
        let mut found = None;
        h.for_back(bi, |mi, fi| {
            if found.is_none() && (h.s3[fi], h.five[mi].strength) == (t.0, t.1) {
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
            let cls = h.five[h.ord5[j] as usize].class;
            e.visit_order_bound(e.role(0, h.c3[h.ord3[fp] as usize]), e.role(1, cls), e.role(2, cls))
        })
    };
    let top = loose(0);
    let first = (0..N5).take_while(|&j| loose(j) == top).map(|j| h.ord5[j] as usize).min();
    if let Some(x) = with_t.iter().find(|x| Some(x.0) == first) {
        return *x;
    }
    let mut best: Option<(f64, (usize, usize, usize))> = None;
    for &x in &with_t {
        let (jm, jf) = h.strongest_rest(x.0, from, e.model).expect("a back with a split leaves a middle and a front");
        let (mi, fi) = (h.ord5[jm] as usize, h.ord3[jf] as usize);
        let ub = e.visit_order_bound(e.role(0, h.c3[fi]), e.role(1, h.five[mi].class), e.role(2, h.five[x.0].class));
        // Highest bound first, then the lowest back index.
        if best.is_none_or(|(b, y)| ub > b || (ub == b && x.0 < y.0)) {
            best = Some((ub, x));
        }
    }
    best.expect("the triple was found in some back").1
}
