//! The exhaustive branch-and-bound search, the reference: the equality test checks the
//! search against it hand by hand, and the benchmarks (feature `bench`) measure the speed
//! ratio against it in the same run. Not used by the solver itself.

use super::classes;
use super::model::{Ev, Model, RoleValue};
use super::splits::{combos, Cand, Subsets, TopK};
use crate::cards::Card;

pub(crate) fn solve(cards: &[Card; 13], model: &Model, n: usize, top_k: usize) -> Vec<Cand> {
    let sub = &Subsets::new(cards, &model.rules);
    let role = |row: usize, c: usize| model.rows[row][c];
    let front: Vec<RoleValue> = sub.std3.iter().map(|&s| role(0, classes::class_of(3, s))).collect();
    let cls5: Vec<usize> = sub.std5.iter().map(|&s| classes::class_of(5, s)).collect();
    let middle: Vec<RoleValue> = cls5.iter().map(|&c| role(1, c)).collect();
    let back: Vec<RoleValue> = cls5.iter().map(|&c| role(2, c)).collect();
    let e = Ev::new(model, n);
    let mut top = TopK { k: top_k, items: Vec::new() };
    // Branch and bound over backs. Every row term is monotone in the row's strength and
    // the scoop losses are ≥ 0, so stronger rows bound a back's splits (the expectation
    // without the scoop losses, `Ev::visit_order_bound`): first loosely (the middle as
    // strong as the back, the best front no stronger than the back), then, for the backs
    // that survive, tightly (the strongest middle disjoint from the back and no stronger
    // than it, the strongest disjoint front no stronger than that middle).
    let bound = |f: &RoleValue, m: &RoleValue, b: &RoleValue| e.visit_order_bound(f, m, b);
    let c = combos();
    let desc = |s: &[u32]| {
        let mut v: Vec<u64> = s.iter().enumerate().map(|(i, &x)| (x as u64) << 16 | i as u64).collect();
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    };
    let by3 = desc(&sub.s3);
    // Running maximum of the front terms, weakest front first.
    let mut fmax: Vec<RoleValue> = by3.iter().rev().map(|&x| front[(x & 0xFFFF) as usize]).collect();
    for i in 1..fmax.len() {
        let (a, x) = (fmax[i - 1], fmax[i]);
        fmax[i] = RoleValue { win: a.win.max(x.win), my_waters: a.my_waters.max(x.my_waters), row: a.row.max(x.row), ..x };
    }
    let fmax_below = |s: u32| {
        let i = by3.len() - by3.partition_point(|&x| (x >> 16) as u32 > s);
        (i > 0).then(|| fmax[i - 1])
    };
    let mut order: Vec<(f64, usize)> =
        (0..back.len()).filter_map(|bi| Some((bound(&fmax_below(sub.s5[bi])?, &middle[bi], &back[bi]), bi))).collect();
    // Seed the incumbent with the most promising back.
    let visit = |bi: usize, top: &mut TopK| {
        let b = &back[bi];
        sub.for_back(bi, |bi, mi, fi| {
            let ev = e.ev(&front[fi], &middle[mi], b);
            top.offer(Cand { ev, split: (bi, mi, fi), triple: (sub.s3[fi], sub.s5[mi], sub.s5[bi]) });
        });
    };
    let first = order.iter().fold((f64::NEG_INFINITY, usize::MAX), |a, &x| if x.0 > a.0 { x } else { a });
    visit(first.1, &mut top);
    let bar = |top: &TopK| if top.items.len() == top.k { top.items[top.k - 1].ev } else { f64::NEG_INFINITY };
    order.retain(|x| x.0 > bar(&top) && x.1 != first.1);
    // Tighten the survivors' bounds.
    let by5 = desc(&sub.s5);
    let strongest = |by: &[u64], masks: &[u16], at_most: u32, avoid: u16| {
        let start = by.partition_point(|&x| (x >> 16) as u32 > at_most);
        by[start..].iter().map(|&x| (x & 0xFFFF) as usize).find(|&j| masks[j] & avoid == 0)
    };
    for x in order.iter_mut() {
        let bmask = c.five[x.1];
        x.0 = match strongest(&by5, &c.five, sub.s5[x.1], bmask) {
            Some(mj) => match strongest(&by3, &c.three, sub.s5[mj], bmask) {
                Some(fj) => bound(&front[fj], &middle[mj], &back[x.1]),
                None => f64::NEG_INFINITY,
            },
            None => f64::NEG_INFINITY,
        };
    }
    order.retain(|x| x.0 > bar(&top));
    order.sort_unstable_by(|x, y| y.0.total_cmp(&x.0).then(x.1.cmp(&y.1)));
    for &(ub, bi) in &order {
        if ub <= bar(&top) {
            break;
        }
        visit(bi, &mut top);
    }
    top.items
}
