//! Quality of the 十三水 arrangement solver (driven by benches/arrange_quality.py; see
//! docs/arrange.md). Prints one JSON object.
//!
//! * `vs_greedy`: 4-player deals, seat 0 plays the solver, seats 1–3 the greedy arranger
//!   (strongest back, then middle; declares any special). Seat 0's mean waters per hand,
//!   and the paired gain: the same deal with seat 0 playing greedy too.
//! * `vs_iter0`: the same with seats 1–3 playing the solver on the iteration-0 tables.
//! * `mc_gap`: on a fixed set of hands, the Monte-Carlo best response (the best
//!   non-dominated split over `--mc-select` sampled opponent deals) minus the solver,
//!   both evaluated on `--mc-eval` fresh deals (opponents: the solver).
//!
//! All scoring is the full RULES §1.6 scoring (specials, fouls, 打枪, 全垒打).

use handeval_core::cards::Card;
use handeval_core::shisanshui::arrange::sim::{deck, seat_waters, Play, Rng};
use handeval_core::shisanshui::arrange::{self, monte_carlo_best, monte_carlo_eval, play_hand, Model, Policy, Tables};
use handeval_core::shisanshui::{special, Hand, Rules};
use rayon::prelude::*;
use std::time::Instant;

fn stats(xs: &[f64]) -> String {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    format!("{{\"n\": {}, \"mean\": {:.4}, \"ci95\": [{:.4}, {:.4}], \"sd\": {:.3}}}", xs.len(), mean, mean - half, mean + half, var.sqrt())
}

fn play(h: &Hand, r: &Rules) -> Play {
    Play::from_hand(h, r).unwrap()
}

/// (seat-0 waters with `me`, seat-0 waters when seat 0 plays `base` too) per deal.
fn duel(me: &Policy, base: &Policy, deals: u64, seed: u64, r: &Rules) -> (Vec<f64>, Vec<f64>) {
    (0..deals)
        .into_par_iter()
        .map(|d| {
            let mut rng = Rng::for_item(seed, 10, d);
            let cards = deck(&mut rng);
            let hand = |s: usize| &cards[s * 13..s * 13 + 13];
            let others: Vec<Play> = (1..4).map(|s| play(&play_hand(hand(s), base, 3, r).unwrap(), r)).collect();
            let mine = play(&play_hand(hand(0), me, 3, r).unwrap(), r);
            let theirs = play(&play_hand(hand(0), base, 3, r).unwrap(), r);
            let with = |p: Play| {
                let mut v = vec![p];
                v.extend(others.iter().copied());
                seat_waters(&v, r)[0] as f64
            };
            let a = with(mine);
            (a, a - with(theirs))
        })
        .unzip()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut deals, mut seed, mut mc_hands, mut mc_select, mut mc_eval) = (100_000u64, 1u64, 40u64, 1000u32, 2000u32);
    while let Some(a) = args.next() {
        let mut v = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--deals" => deals = v().parse().unwrap(),
            "--seed" => seed = v().parse().unwrap(),
            "--mc-hands" => mc_hands = v().parse().unwrap(),
            "--mc-select" => mc_select = v().parse().unwrap(),
            "--mc-eval" => mc_eval = v().parse().unwrap(),
            other => panic!("unknown argument {other}"),
        }
    }
    let r = Rules::default();
    let model = Model::new(Tables::shipped(), &r);
    // Iteration-0 tables (opponents arranged greedily): read here, not compiled into the crate.
    let iteration0 = Tables::from_bytes(include_bytes!("../src/shisanshui/arrange/data/tables_iter0.bin")).expect("iteration-0 tables");
    let model0 = Model::new(&iteration0, &r);
    let solver = Policy::Solver(&model);
    let t = Instant::now();
    let (g, g_gain) = duel(&solver, &Policy::Greedy, deals, seed, &r);
    let t_greedy = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (i0, i0_gain) = duel(&solver, &Policy::Solver(&model0), deals, seed + 1, &r);
    let t_iter0 = t.elapsed().as_secs_f64();
    // Fixed hands (no specials: the MC reference only searches rows).
    let t = Instant::now();
    let mut hands: Vec<Vec<Card>> = Vec::new();
    let mut i = 0;
    while (hands.len() as u64) < mc_hands {
        let mut rng = Rng::for_item(seed, 20, i);
        let h = deck(&mut rng)[..13].to_vec();
        if special(&h).unwrap().is_none() {
            hands.push(h);
        }
        i += 1;
    }
    let gaps: Vec<(f64, f64, f64)> = hands
        .iter()
        .enumerate()
        .map(|(k, h)| {
            let ours = arrange::arrange_with(h, &arrange::Options::default(), &model).unwrap().best;
            let br = monte_carlo_best(h, 3, mc_select, seed + 100 + k as u64, &model).unwrap();
            let as_hand = |a: &arrange::Arrangement| Hand::Rows { front: a.front.clone(), middle: a.middle.clone(), back: a.back.clone() };
            let v = monte_carlo_eval(h, &[as_hand(&ours), as_hand(&br)], 3, mc_eval, seed + 10_000 + k as u64, &model).unwrap();
            (v[1] - v[0], v[0], ours.expected)
        })
        .collect();
    let t_mc = t.elapsed().as_secs_f64();
    let gap: Vec<f64> = gaps.iter().map(|x| x.0).collect();
    let exact: Vec<f64> = gaps.iter().map(|x| x.1).collect();
    let model_err: Vec<f64> = gaps.iter().map(|x| x.2 - x.1).collect();
    println!(
        "{{\"deals\": {deals}, \"seed\": {seed}, \"threads\": {}, \"tables_iteration\": {},\n \"vs_greedy\": {},\n \"vs_greedy_paired_gain\": {},\n \"vs_iter0\": {},\n \"vs_iter0_paired_gain\": {},\n \"mc_hands\": {mc_hands}, \"mc_select\": {mc_select}, \"mc_eval\": {mc_eval},\n \"mc_gap\": {},\n \"solver_mc_value\": {},\n \"table_minus_mc_value\": {},\n \"seconds\": {{\"vs_greedy\": {t_greedy:.1}, \"vs_iter0\": {t_iter0:.1}, \"mc\": {t_mc:.1}}}}}",
        rayon::current_num_threads(),
        Tables::shipped().iteration,
        stats(&g),
        stats(&g_gain),
        stats(&i0),
        stats(&i0_gain),
        stats(&gap),
        stats(&exact),
        stats(&model_err),
    );
}
