//! The previous pruning search (without the threshold walk over a back's splits and the
//! per-multiset tables), kept as a baseline of the speed benchmarks (`prior_arrange`,
//! feature `bench`) and as a second reference of the equality tests. Not used by the
//! solver itself.
//!
//! The table solver's search (RULES §1.8): the `top_k` foul-free splits with the highest
//! expected waters, exactly those of the search it replaced (`reference.rs`).
//!
//! Why it can prune without changing a single bit of the answer: every component of a
//! row's [`RoleValue`](super::model::RoleValue) is *exactly* monotone in the row's strength, floating-point
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

use super::classes::class_of;
use super::model::{Ev, Model};
use super::splits::{combos, for_back_splits, Cand, TopK};
use crate::cards::Card;
use crate::shisanshui::eval::{strength3, strength5_key, strength5_of_keys, strength5_slot_of_keys, STRENGTH5_SLOTS};

const N5: usize = 1287;
const N3: usize = 286;
const W5: usize = N5.div_ceil(64);
const W3: usize = N3.div_ceil(64);

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
    /// `bits5[w][p]`: bit j set when subset `ord5[64·w + j]` holds card position p (bits
    /// past the end set for every card, so they never look free); built a word at a time
    /// when first needed (`built5` words so far), since the search rarely goes deep.
    bits5: [[u64; 13]; W5],
    built5: usize,
    bits3: [[u64; 13]; W3],
}

impl Hand {
    fn empty() -> Box<Hand> {
        Box::new(Hand {
            s5: [0; N5],
            c5: [0; N5],
            s3: [0; N3],
            c3: [0; N3],
            ord5: [0; N5],
            srt5: [0; N5],
            ord3: [0; N3],
            srt3: [0; N3],
            bits5: [[0; 13]; W5],
            built5: 0,
            bits3: [[0; 13]; W3],
        })
    }

    /// Fill every table for `cards` (sorted). Every field is overwritten (the bitset
    /// words of `bits5` before they are read), so one `Hand` serves hand after hand.
    fn fill(&mut self, cards: &[Card; 13], model: &Model) {
        let c = combos();
        let h = self;
        h.built5 = 0;
        // Five-card strengths from sums of per-card keys, the subsets in `combos` order
        // (ascending masks: the highest card outermost), each sum one addition.
        let key: [u64; 13] = std::array::from_fn(|p| strength5_key(cards[p]));
        let (classes, adjusted) = (classes5_by_slot(), &model.strength5);
        let mut i = 0;
        for e in 4..13 {
            for d in 3..e {
                let kde = key[e] + key[d];
                for c3 in 2..d {
                    let kcde = kde + key[c3];
                    for b in 1..c3 {
                        let kbcde = kcde + key[b];
                        for a in 0..b {
                            let c = classes[strength5_slot_of_keys(kbcde + key[a])];
                            h.c5[i] = c;
                            h.s5[i] = adjusted[c as usize];
                            i += 1;
                        }
                    }
                }
            }
        }
        // Fronts: (strength, class) by their three ranks, lowest first (the cards are
        // sorted, so a subset's ranks come in order), in `combos` order.
        let fronts = fronts_by_ranks();
        let rank: [usize; 13] = std::array::from_fn(|p| cards[p].rank() as usize);
        let mut i = 0;
        for c3 in 2..13 {
            for b in 1..c3 {
                for a in 0..b {
                    (h.s3[i], h.c3[i]) = fronts[(rank[a] * 13 + rank[b]) * 13 + rank[c3]];
                    i += 1;
                }
            }
        }
        let mut tmp = [0u16; N5];
        let keys5: [u16; N5] = std::array::from_fn(|i| model.rank5[h.c5[i] as usize]);
        order_desc(&keys5, &mut h.ord5, &mut tmp);
        // Three-card classes are numbered in strength order.
        order_desc(&h.c3, &mut h.ord3, &mut tmp[..N3]);
        for j in 0..N5 {
            h.srt5[j] = h.s5[h.ord5[j] as usize];
        }
        for j in 0..N3 {
            h.srt3[j] = h.s3[h.ord3[j] as usize];
        }
        for w in 0..W3 {
            h.bits3[w] = card_bits(&h.ord3, &c.three, w);
        }
    }

    /// The words of `bits5` up to `w`.
    #[inline]
    fn build5(&mut self, w: usize) {
        while self.built5 <= w {
            self.bits5[self.built5] = card_bits(&self.ord5, &combos().five, self.built5);
            self.built5 += 1;
        }
    }

    /// (strongest middle, strongest front) a back leaves, as subset indices: the middle
    /// disjoint from the back and no stronger than it, the front disjoint from the back
    /// and no stronger than that middle. `start`: the first sorted position no stronger
    /// than the back.
    #[inline]
    fn strongest_rest(&mut self, bi: usize, start: usize) -> Option<(usize, usize)> {
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
        let sm = self.srt5[jm];
        let start3 = self.srt3.partition_point(|&s| s > sm);
        let (mut w, mut live) = (start3 / 64, !0u64 << (start3 % 64));
        let jf = loop {
            if w == W3 {
                return None;
            }
            let free = cards.free(&self.bits3[w]) & live;
            if free != 0 {
                break 64 * w + free.trailing_zeros() as usize;
            }
            (w, live) = (w + 1, !0);
        };
        Some((self.ord5[jm] as usize, self.ord3[jf] as usize))
    }

    /// Visit the foul-free splits with back `bi` as (middle, front) subset indices, in
    /// the order of the exhaustive search (which decides the reported suit variant).
    #[inline]
    fn for_back(&self, bi: usize, mut f: impl FnMut(usize, usize)) {
        for_back_splits(
            bi,
            |mi| self.s5[mi] <= self.s5[bi],
            |mi, fi| {
                if self.s3[fi] <= self.s5[mi] {
                    f(mi, fi)
                }
            },
        );
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

/// Standard five-card class by [`strength5_slot_of_keys`] (one lookup instead of the
/// strength table and a hash of the strength).
pub(super) fn classes5_by_slot() -> &'static [u16] {
    static T: std::sync::OnceLock<Vec<u16>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![u16::MAX; STRENGTH5_SLOTS];
        // Every five distinct cards' key sum lands on a slot; it is enough to visit one
        // card set per (rank multiset, flush or not): distinct suits per rank, and for
        // five distinct ranks both all one suit and not.
        let mut ranks = [0u8; 5];
        fn walk(from: u8, at: usize, ranks: &mut [u8; 5], t: &mut [u16]) {
            if at == 5 {
                let key = |suit: &dyn Fn(usize) -> u8| (0..5).map(|i| strength5_key(Card::new(ranks[i], suit(i)))).sum::<u64>();
                let mut put = |k: u64| t[strength5_slot_of_keys(k)] = class_of(5, strength5_of_keys(k)) as u16;
                put(key(&|i| (i % 4) as u8));
                if ranks.windows(2).all(|w| w[0] != w[1]) {
                    put(key(&|_| 0));
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
        walk(0, 0, &mut ranks, &mut t);
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

/// Word `w` of the per-card bitsets over a sorted list of subsets (`masks[order[j]]`):
/// a bit-matrix transpose, eight subsets at a time (the bit of card p of eight masks, one
/// per byte, gathered into a byte by one multiplication), so no counter is updated in
/// memory per card.
fn card_bits(order: &[u16], masks: &[u16], w: usize) -> [u64; 13] {
    let (start, end) = (64 * w, order.len().min(64 * w + 64));
    let (mut lo, mut hi) = ([0u8; 64], [0u8; 64]);
    for j in start..end {
        let m = masks[order[j] as usize];
        (lo[j - start], hi[j - start]) = (m as u8, (m >> 8) as u8);
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
    if end < start + 64 {
        for a in acc.iter_mut() {
            *a |= !0u64 << (end % 64);
        }
    }
    acc
}

/// Indices of `keys` (each < 8192), largest key first: two counting passes (7 + 6 bits),
/// cheaper than a comparison sort for 1,287 keys.
fn order_desc(keys: &[u16], out: &mut [u16], tmp: &mut [u16]) {
    let n = keys.len();
    let inv = |i: u16| (!keys[i as usize] & 0x1FFF) as usize;
    let starts = |bins: &mut [u16]| {
        let mut sum = 0;
        for b in bins.iter_mut() {
            (*b, sum) = (sum, sum + *b);
        }
    };
    // Subsets next to each other in `combos` order share four cards and often the high
    // digit: counting that digit in the order of the first pass avoids a chain of
    // increments of one counter.
    let mut lo = [0u16; 128];
    for i in 0..n as u16 {
        lo[inv(i) & 127] += 1;
    }
    starts(&mut lo);
    for i in 0..n as u16 {
        let d = inv(i) & 127;
        tmp[lo[d] as usize] = i;
        lo[d] += 1;
    }
    let mut hi = [0u16; 64];
    for &i in &tmp[..n] {
        hi[inv(i) >> 7] += 1;
    }
    starts(&mut hi);
    for &i in &tmp[..n] {
        let d = inv(i) >> 7;
        out[hi[d] as usize] = i;
        hi[d] += 1;
    }
}

/// The `top_k` best splits (distinct by strength triple, best first), the same as the
/// exhaustive search's, with the same split reported for each triple.
pub(crate) fn solve(cards: &[Card; 13], model: &Model, n: usize, top_k: usize) -> Vec<Cand> {
    thread_local! {
        // One Hand per thread, reused: its 14 KB are not zeroed and allocated per call.
        static SPARE: std::cell::Cell<Option<Box<Hand>>> = const { std::cell::Cell::new(None) };
    }
    let mut h = SPARE.take().unwrap_or_else(Hand::empty);
    h.fill(cards, model);
    let e = Ev::new(model, n);
    let mut top = TopK { k: top_k, items: Vec::new() };
    let bar = |top: &TopK| if top.items.len() == top.k { top.items[top.k - 1].ev } else { f64::NEG_INFINITY };
    let visit = |h: &Hand, bi: usize, top: &mut TopK| {
        let b = e.role(2, h.c5[bi]);
        h.for_back(bi, |mi, fi| {
            let ev = e.ev(e.role(0, h.c3[fi]), e.role(1, h.c5[mi]), b);
            top.offer(Cand { ev, split: (bi, mi, fi), triple: (h.s3[fi], h.s5[mi], h.s5[bi]) });
        });
    };
    // Best first: backs strongest first, each back's tight bound computed as the walk
    // reaches it; a pending back is searched as soon as its bound is at least the loose
    // bound of the walk (which bounds every back not reached yet), so the incumbent rises
    // early and the walk stops at the first back whose loose bound is below it.
    let mut pending = std::collections::BinaryHeap::<Pending>::new();
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
            while pending.peek().is_some_and(|p| p.0 >= loose) {
                let p = pending.pop().unwrap();
                if p.0 >= bar(&top) {
                    visit(&h, p.1, &mut top);
                }
            }
        }
        if loose < bar(&top) {
            break;
        }
        let Some((mi, fi)) = h.strongest_rest(bi, class_start) else { continue };
        let tight = e.ev(e.role(0, h.c3[fi]), e.role(1, h.c5[mi]), e.role(2, h.c5[bi]));
        if tight >= bar(&top) {
            pending.push(Pending(tight, bi));
        }
    }
    while let Some(p) = pending.pop() {
        if p.0 < bar(&top) {
            break;
        }
        visit(&h, p.1, &mut top);
    }
    let mut items = top.items;
    for c in items.iter_mut() {
        c.split = reported_split(&mut h, &e, c.triple);
    }
    SPARE.set(Some(h));
    items
}

/// A back waiting to be searched, by its bound.
struct Pending(f64, usize);

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
    let mut best: Option<(f64, (usize, usize, usize))> = None;
    for &x in &with_t {
        let (mi, fi) = h.strongest_rest(x.0, from).expect("a back with a split leaves a middle and a front");
        let ub = e.visit_order_bound(e.role(0, h.c3[fi]), e.role(1, h.c5[mi]), e.role(2, h.c5[x.0]));
        // Highest bound first, then the lowest back index.
        if best.is_none_or(|(b, y)| ub > b || (ub == b && x.0 < y.0)) {
            best = Some((ub, x));
        }
    }
    best.expect("the triple was found in some back").1
}
