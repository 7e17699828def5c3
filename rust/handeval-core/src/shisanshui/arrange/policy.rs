//! How a simulated player arranges: the greedy baseline or the table solver.

use super::model::Model;
use super::play::Play;
use super::search::solve;
use super::splits::Subsets;
use crate::cards::Card;
use crate::shisanshui::eval::row_value;
use crate::shisanshui::rules::Rules;
use crate::shisanshui::special::{special, SpecialId};

/// How a simulated player arranges.
#[derive(Clone, Copy)]
pub enum Policy<'a> {
    /// [`greedy`](super::greedy), declaring any special it has.
    Greedy,
    /// The table solver, declaring a special when that has the higher expectation.
    Solver(&'a Model),
}

pub(super) fn greedy_split(sub: &Subsets) -> (usize, usize, usize) {
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

pub(super) enum Choice {
    Special(SpecialId),
    Split((usize, usize, usize)),
}

pub(super) fn policy_choice(cards: &[Card; 13], sub: &Subsets, policy: &Policy, n: usize) -> Choice {
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
