//! The table solver's search (RULES §1.8): the `top_k` foul-free splits with the highest
//! expected waters, exactly those of the search it replaced (`reference.rs`).
//!
//! Why it can prune without changing a single bit of the answer: every component of a
//! row's [`RoleValue`](super::model::RoleValue) is *exactly* monotone in the row's strength, floating-point
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

use super::hand::{from_pos, Cards, Hand, LooseRows, W3, W5};
use super::model::{Ev, Model};
use super::splits::{combos, Cand, TopK};
use super::splits::{N3, N5};
use crate::cards::Card;

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
