//! One hand's subsets for the search: strengths, classes, sorted orders and per-card
//! bitsets, and the walks over them.

use super::bitset::card_bits;
use super::classes::Five;
use super::counting_sort::order_desc;
use super::model::Model;
use super::rank_tables::fronts_by_ranks;
use super::rank_tables::MULTISET5_TERM;
use super::splits::{combos, for_back_splits, N3, N5};
use crate::cards::Card;

pub(super) const W5: usize = N5.div_ceil(64);
pub(super) const W3: usize = N3.div_ceil(64);

/// One hand's subsets: strengths, classes, sorted orders and per-card bitsets.
pub(super) struct Hand {
    /// Strength under the rules (foul checks, order), standard class (and, five-card
    /// subsets, sort key) of every subset, indexed like `combos().five` / `.three`: the
    /// model's entry for the subset's rank multiset, copied whole.
    pub(super) five: [Five; N5],
    pub(super) s3: [u32; N3],
    pub(super) c3: [u16; N3],
    /// Subset indices, strongest first, and their strengths in that order.
    pub(super) ord5: [u16; N5],
    pub(super) srt5: [u32; N5],
    pub(super) ord3: [u16; N3],
    pub(super) srt3: [u32; N3],
    /// The subsets' card masks in the sorted orders (what the bitsets transpose).
    pub(super) msk5: [u16; N5],
    pub(super) msk3: [u16; N3],
    /// `fronts_from[c]`: the sorted position of the first front of class below `c` (the
    /// number of fronts of class `c` or above; classes are numbered in strength order).
    pub(super) fronts_from: [u16; 512],
    /// `bits5[w][p]`: bit j set when subset `ord5[64·w + j]` holds card position p (bits
    /// past the end set for every card, so they never look free); built a word at a time
    /// when first needed (`built5` words so far), since the search rarely goes deep; the
    /// same for `bits3` over `ord3` (`built3`).
    pub(super) bits5: [[u64; 13]; W5],
    pub(super) built5: usize,
    pub(super) bits3: [[u64; 13]; W3],
    pub(super) built3: usize,
    /// Per front (`combos().three` order), the sum of its cards' terms as the three
    /// lowest cards of a five-card subset's rank multiset index (below 2^13).
    pub(super) low3: [u16; N3],
    /// Per front, the sum of its cards' byte-packed suit counts (`suit`).
    pub(super) suit3: [u32; N3],
    /// Per five-card subset, how many subsets of its sort key come before it.
    pub(super) occ5: [u16; N5],
    /// Scratch of [`order_desc`]: a counter per sort key at its [`sort_bin`], all zero
    /// between calls.
    pub(super) count: [u16; 1 << 13],
    /// Per card position a byte-packed suit count (`1 << 8·suit`), and their sum.
    pub(super) suit: [u32; 13],
    pub(super) suits: u32,
}

impl Hand {
    pub(super) fn empty() -> Box<Hand> {
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
    pub(super) fn fill(&mut self, cards: &[Card; 13], model: &Model) {
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
    pub(super) fn class_fives(&mut self, key: &[[usize; 13]; 5], model: &Model) {
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
    pub(super) fn class_run<const FLUSH: bool>(&mut self, i: usize, n: usize, kde: usize, sde: u32, model: &Model) {
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
    pub(super) fn build3(&mut self, w: usize) {
        while self.built3 <= w {
            self.bits3[self.built3] = card_bits(&self.msk3, self.built3);
            self.built3 += 1;
        }
    }

    /// The words of `bits5` up to `w`.
    #[inline]
    pub(super) fn build5(&mut self, w: usize) {
        while self.built5 <= w {
            self.bits5[self.built5] = card_bits(&self.msk5, self.built5);
            self.built5 += 1;
        }
    }

    /// The sorted position of the first front no stronger than five-card class `c5` (a
    /// binary search over the fronts mispredicted its branches).
    #[inline]
    pub(super) fn fronts_at_most(&self, c5: u16, model: &Model) -> usize {
        self.fronts_from[model.fronts_below5[c5 as usize] as usize & 511] as usize
    }

    /// (strongest middle, strongest front) a back leaves, the middle as its sorted
    /// position, the front as its subset index: the middle
    /// disjoint from the back and no stronger than it, the front disjoint from the back
    /// and no stronger than that middle. `start`: the first sorted position no stronger
    /// than the back.
    #[inline]
    pub(super) fn strongest_rest(&mut self, bi: usize, start: usize, model: &Model) -> Option<(usize, usize)> {
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
    pub(super) fn strongest_split(&mut self, bi: usize, start: usize, start3: usize, model: &Model) -> Option<(usize, usize)> {
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
    pub(super) fn free5_at_least<const N: usize>(&mut self, from: usize, cards: [usize; N], s: u32) -> Option<usize> {
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
    pub(super) fn loose_rows(&mut self, l: &mut LooseRows, backs: usize) -> bool {
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
    pub(super) fn rest_flushless(&self, bi: usize) -> bool {
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
    pub(super) fn middle_cap(&mut self) -> usize {
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
    pub(super) fn for_back(&self, bi: usize, mut f: impl FnMut(usize, usize)) {
        for_back_splits(
            bi,
            |mi| self.five[mi].strength <= self.five[bi].strength,
            |mi, fi| {
                if self.s3[fi] <= self.five[mi].strength {
                    f(mi, fi)
                }
            },
        );
    }
}

/// The five card positions of a back.
pub(super) struct Cards([usize; 5]);

impl Cards {
    #[inline]
    pub(super) fn of(mut mask: u16) -> Cards {
        let mut p = [0; 5];
        for x in p.iter_mut() {
            *x = mask.trailing_zeros() as usize;
            mask &= mask.wrapping_sub(1);
        }
        Cards(p)
    }
    /// Bits of the subsets in a bitset word that hold none of these cards.
    #[inline]
    pub(super) fn free(&self, word: &[u64; 13]) -> u64 {
        !(word[self.0[0]] | word[self.0[1]] | word[self.0[2]] | word[self.0[3]] | word[self.0[4]])
    }
}

/// The positions of the `N` cards of `mask`.
#[inline]
pub(super) fn positions<const N: usize>(mut mask: u16) -> [usize; N] {
    std::array::from_fn(|_| {
        let p = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        p
    })
}

/// The bits of a bitset word `w` at sorted positions `pos` and after.
#[inline]
pub(super) fn from_pos(pos: usize, w: usize) -> u64 {
    match pos.saturating_sub(64 * w) {
        0 => !0,
        k if k < 64 => !0 << k,
        _ => 0,
    }
}

/// The rows of the walk's loose bound, as sorted positions (see [`Hand::loose_rows`]),
/// and the partners that showed them in a split: a back disjoint from the middle, at
/// least as strong, and a middle disjoint from the front, at least as strong.
pub(super) struct LooseRows {
    pub(super) m: usize,
    pub(super) f: usize,
    pub(super) back: Option<usize>,
    pub(super) middle: Option<usize>,
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
