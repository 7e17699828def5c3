//! Table training: simulated deals in which every seat arranges with a policy, counted
//! into [`Tables`], iterated until the tables settle. Built with the feature `train`
//! (examples `train_arrange`, `arrange_quality`; the benches), not by the library's users.

use super::super::rules::Rules;
use super::classes::class_of;
use super::model::{Model, Tables};
pub use super::play::{deck, pair, seat_waters, Play, Rng};
use super::policy::{policy_play, Policy};
use crate::cards::Card;
use rayon::prelude::*;

/// The training run that made the shipped tables (`data/tables.bin`, docs/arrange.md):
/// the defaults of `examples/train_arrange.rs` (and so of
/// `scripts/train_arrange_tables.py`, which runs it). A test checks the shipped tables'
/// header against them.
pub const DEALS: u64 = 25_000;
pub const SEED: u64 = 20_261_129;
pub const MAX_ITERATIONS: u32 = 8;
pub const TOLERANCE: f64 = 0.02;

/// Deal `deals` 4-player deals with every seat playing `policy`, and count what the
/// tables count. Deterministic for a seed whatever the thread count.
pub(crate) fn simulate(policy: &Policy, deals: u64, seed: u64, iteration: u32, rules: &Rules) -> Tables {
    let chunk = 256u64;
    let chunks = deals.div_ceil(chunk);
    let parts: Vec<Tables> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut t = Tables::empty(iteration, seed);
            for d in c * chunk..((c + 1) * chunk).min(deals) {
                let mut rng = Rng::for_item(seed, 1, d);
                let cards = deck(&mut rng);
                let plays: Vec<(Play, Option<[u32; 3]>)> = (0..4)
                    .map(|s| {
                        let hand: [Card; 13] = cards[s * 13..s * 13 + 13].try_into().unwrap();
                        policy_play(&hand, policy, 3, rules)
                    })
                    .collect();
                t.hands += 4;
                for (s, (p, strengths)) in plays.iter().enumerate() {
                    match (p, strengths) {
                        (Play::Special(id), _) => t.specials[*id as usize] += 1,
                        (_, Some(st)) => {
                            t.rows[0][class_of(3, st[0])] += 1;
                            t.rows[1][class_of(5, st[1])] += 1;
                            t.rows[2][class_of(5, st[2])] += 1;
                            let m = (0..4).filter(|&o| o != s && pair(p, &plays[o].0).1 == 1).count();
                            t.scoops[m] += 1;
                        }
                        _ => unreachable!("a normal play carries its strengths"),
                    }
                }
            }
            t
        })
        .collect();
    let mut out = Tables::empty(iteration, seed);
    for p in &parts {
        out.merge(p);
    }
    out
}

/// Train tables. Iteration 0 counts greedy arrangers. Iteration i ≥ 1 simulates players
/// who use the solver with the tables of iteration i−1 and, to damp the oscillation of
/// plain best-response iteration, keeps half of the previous counts (iteration i's tables
/// = ½·tables(i−1) + counts(i), so the newest deals weigh about half). Stops when the
/// distance between successive tables falls below `tolerance`, or after `max_iterations`.
/// Returns every iteration's tables; `log` gets each with the distance to the previous.
pub fn train(deals: u64, seed: u64, max_iterations: u32, tolerance: f64, mut log: impl FnMut(&Tables, f64)) -> Vec<Tables> {
    let rules = Rules::default();
    let mut out: Vec<Tables> = Vec::new();
    let t0 = simulate(&Policy::Greedy, deals, seed, 0, &rules);
    log(&t0, f64::NAN);
    out.push(t0);
    for it in 1..=max_iterations {
        let prev = out.last().unwrap();
        let model = Model::new(prev, &rules);
        let mut t = simulate(&Policy::Solver(&model), deals, seed.wrapping_add(it as u64), it, &rules);
        if it > 1 {
            t.merge(&prev.halved());
        }
        let d = t.distance(prev);
        log(&t, d);
        out.push(t);
        if d < tolerance {
            break;
        }
    }
    out
}
