//! Tournaments of `suggest` against the baselines (docs/benchmarks.md, docs/suggest.md).
//!
//! ```text
//! cargo run --release -p handeval-core --example tournament -- GAME PLAYERS OPPONENT [options]
//!   GAME      tienlen | dachu
//!   PLAYERS   2 | 3 | 4 (tienlen; dachu is always 4)
//!   OPPONENT  random | weakest | effort:N   (the other seats; dachu: the other side)
//!   --effort N   the effort of the suggest seat (default 0)
//!   --games N    deals (default 10000)
//!   --seed S     first deal's seed (default 1)
//!   --latency    time every suggest call (single thread) and print p50/p99/max
//! cargo run --release -p handeval-core --example tournament -- dachu-census [--games N] [--seed S]
//!   打儲's sure-win census: positions with a sure win and the ones suggest misses
//! ```
//!
//! Each deal is played twice with the same cards: once with `suggest` in the hero seat
//! (dachu: the hero side), once with the opponent's policy there too. The hero seat
//! rotates with the deal number (dachu: it is the 儲方 in even deals, the other side in
//! odd ones). Reported: the hero's mean money a game at base 1 and default rules, the
//! paired gain over the control game (the opponent policy in the hero's place), each
//! with its 95 % confidence interval, and the win rate. Games run on rayon's pool
//! (`RAYON_NUM_THREADS` sets its size).

use handeval_core::cards::Card;
use handeval_core::dachu;
use handeval_core::sampling::{mix, Rng};
use handeval_core::tienlen;
use rayon::prelude::*;
use std::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Policy {
    Random,
    Weakest,
    Suggest(u32),
}

fn parse_policy(s: &str) -> Policy {
    match s {
        "random" => Policy::Random,
        "weakest" => Policy::Weakest,
        _ => match s.strip_prefix("effort:").and_then(|n| n.parse().ok()) {
            Some(n) => Policy::Suggest(n),
            None => {
                eprintln!("opponent must be random, weakest or effort:N (got {s:?})");
                std::process::exit(2)
            }
        },
    }
}

fn deal(seed: u64, players: usize) -> Vec<Vec<Card>> {
    let mut rng = Rng::new(seed);
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    (0..players).map(|p| deck[p * 13..p * 13 + 13].iter().map(|&id| Card(id)).collect()).collect()
}

/// One game's result for the hero (seat or side): money and whether it won.
#[derive(Clone, Copy, Default)]
struct Outcome {
    money: f64,
    won: bool,
}

struct Timer {
    on: bool,
    samples: Vec<f64>,
}

impl Timer {
    fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        if !self.on {
            return f();
        }
        let t = Instant::now();
        let out = f();
        self.samples.push(t.elapsed().as_secs_f64() * 1e6);
        out
    }
}

// ---------------------------------------------------------------- 越式13张

fn tienlen_act(g: &tienlen::Game, seat: usize, p: Policy, seed: u64, rng: &mut Rng, timer: &mut Timer) -> Option<tienlen::Action> {
    match p {
        Policy::Random => tienlen::suggest::baseline::random(g, seat, rng).unwrap(),
        Policy::Weakest => tienlen::suggest::baseline::weakest(g, seat).unwrap(),
        Policy::Suggest(e) => timer.time(|| {
            let v = tienlen::suggest::View::new(g, seat).unwrap();
            tienlen::suggest::suggest(&v, seed, e).unwrap().action
        }),
    }
}

fn tienlen_game(seed: u64, players: usize, policies: &[Policy], hero: usize, timer: &mut Timer) -> Outcome {
    let rules = tienlen::Rules::default();
    let mut g = tienlen::Game::new(&deal(seed, players), &rules).unwrap();
    let mut rng = Rng::new(mix(seed, 99));
    let mut k = 0u64;
    while !g.is_over() {
        k += 1;
        let mut acted = false;
        for (s, _) in g.chop_offers() {
            if let Some(a) = tienlen_act(&g, s, policies[s], mix(seed, k), &mut rng, timer) {
                g = g.apply(s, &a).unwrap();
                acted = true;
                break;
            }
        }
        if acted {
            continue;
        }
        let t = g.turn().unwrap();
        let a = tienlen_act(&g, t, policies[t], mix(seed, k), &mut rng, timer).expect("in turn: an action");
        g = g.apply(t, &a).unwrap();
    }
    let s = g.settle(1, None).unwrap();
    Outcome { money: s.deltas[hero] as f64, won: g.winner == Some(hero) }
}

// ---------------------------------------------------------------- 打儲

/// A finished deal with no declarations and a calling where every seat plays 平打
/// unless its policy says otherwise; then the play.
fn dachu_game(seed: u64, policies: &[Policy; 4], hero_side: &[usize], timer: &mut Timer) -> Outcome {
    let rules = dachu::Rules::default();
    let mut rng = Rng::new(mix(seed, 99));
    let hands = deal(seed, 4);
    let first = (seed % 4) as usize;
    let mut d = dachu::Deal::new(hands, first, rules).unwrap();
    // The deal: a declaration is a seat's decision; "deal" and "finish" are the dealer's.
    let mut k = 0u64;
    while !d.finished {
        k += 1;
        let mut acted = false;
        for s in 0..4 {
            let a = match policies[s] {
                Policy::Random => dachu::suggest::baseline::random_deal(&d, s, &mut rng),
                Policy::Weakest => None,
                Policy::Suggest(e) => timer
                    .time(|| dachu::suggest::suggest_deal(&dachu::suggest::DealView::new(&d, s).unwrap(), mix(seed, k), e).unwrap().action),
            };
            if let Some(a) = a {
                d = d.apply(&a).unwrap();
                acted = true;
                break;
            }
        }
        if !acted {
            let a = if d.dealt < 13 { dachu::DealAction::Deal } else { dachu::DealAction::Finish };
            d = d.apply(&a).unwrap();
        }
    }
    let mut c = d.calling(None, None).unwrap();
    while !c.is_over() {
        k += 1;
        let t = c.turn().unwrap();
        let call = match policies[t] {
            Policy::Random => dachu::suggest::baseline::random_call(&c, &mut rng),
            Policy::Weakest => dachu::suggest::baseline::passive_call(&c),
            Policy::Suggest(e) => timer.time(|| {
                dachu::suggest::suggest_call(&dachu::suggest::CallView::of_deal(&d, &c, t).unwrap(), mix(seed, k), e).unwrap().call
            }),
        };
        c = c.apply(t, call).unwrap();
    }
    let mut g = dachu::game::Game::new(&d, &c).unwrap();
    while !g.is_over() && g.decided().is_none() {
        k += 1;
        let t = g.turn.unwrap();
        let a = match policies[t] {
            Policy::Random => dachu::suggest::baseline::random(&g, &mut rng),
            Policy::Weakest => dachu::suggest::baseline::weakest(&g),
            Policy::Suggest(e) => {
                timer.time(|| dachu::suggest::suggest(&dachu::suggest::View::new(&g, t).unwrap(), mix(seed, k), e).unwrap().action)
            }
        };
        g.apply_in_place(&a).unwrap();
    }
    let s = g.settle(1, &[], None).unwrap();
    let money = hero_side.iter().map(|&h| s.deltas[h]).sum::<i64>() as f64 / hero_side.len() as f64;
    Outcome { money, won: money > 0.0 }
}

/// Sure-win counts of a 打儲 census.
#[derive(Clone, Copy, Default)]
struct Census {
    decisions: u64,
    sure: u64,
    missed_effort0: u64,
    missed_effort8: u64,
    /// A seat that played the first move of a sure win and did not take the next place
    /// (the checker would be wrong): must stay 0.
    not_out: u64,
}

/// The sure-win census of 打儲 (docs/benchmarks.md): `games` deals from `seed0` with
/// default `suggest` (effort 0) in every seat; at every decision of the play the checker
/// (`dachu::suggest::sure_win`, a call separate from `suggest`) says whether the seat
/// to move has a sure win, and counts the ones that `suggest` at effort 0 and at effort
/// 8 miss (its move does not start a sure win). Also checks the checker: a seat that
/// starts a sure win takes the next finishing place.
fn dachu_sure_win_census(games: u64, seed0: u64) -> Census {
    use dachu::suggest::{starts_sure_win, suggest, sure_win, View};
    (0..games)
        .into_par_iter()
        .map(|n| {
            let seed = seed0 + n;
            let mut c = Census::default();
            let rules = dachu::Rules::default();
            let mut d = dachu::Deal::new(deal(seed, 4), (seed % 4) as usize, rules).unwrap();
            while !d.finished {
                let a = (0..4)
                    .find_map(|s| dachu::suggest::suggest_deal(&dachu::suggest::DealView::new(&d, s).unwrap(), seed, 0).unwrap().action);
                let a = a.unwrap_or(if d.dealt < 13 { dachu::DealAction::Deal } else { dachu::DealAction::Finish });
                d = d.apply(&a).unwrap();
            }
            let mut calling = d.calling(None, None).unwrap();
            while let Some(t) = calling.turn() {
                let call =
                    dachu::suggest::suggest_call(&dachu::suggest::CallView::of_deal(&d, &calling, t).unwrap(), seed, 0).unwrap().call;
                calling = calling.apply(t, call).unwrap();
            }
            let mut g = dachu::game::Game::new(&d, &calling).unwrap();
            // (seat, places taken) of a seat that started a sure win.
            let mut pending: Option<(usize, usize)> = None;
            let mut k = 0u64;
            while !g.is_over() && g.decided().is_none() {
                k += 1;
                let t = g.turn.unwrap();
                let v = View::new(&g, t).unwrap();
                c.decisions += 1;
                let a = suggest(&v, mix(seed, k), 0).unwrap().action;
                if sure_win(&v).is_some() {
                    c.sure += 1;
                    if !starts_sure_win(&v, &a) {
                        c.missed_effort0 += 1;
                    }
                    if !starts_sure_win(&v, &suggest(&v, mix(seed, k), 8).unwrap().action) {
                        c.missed_effort8 += 1;
                    }
                    if pending.is_none() && starts_sure_win(&v, &a) {
                        pending = Some((t, g.places.len()));
                    }
                }
                g.apply_in_place(&a).unwrap();
                if let Some((s, taken)) = pending {
                    if g.places.len() > taken {
                        if g.places[taken] != s {
                            c.not_out += 1;
                        }
                        pending = None;
                    }
                }
            }
            if let Some((s, taken)) = pending {
                // Decided early: the seat still holding cards would be placed in turn order.
                if g.final_places().is_some_and(|p| p.get(taken) != Some(&s)) {
                    c.not_out += 1;
                }
            }
            c
        })
        .reduce(Census::default, |a, b| Census {
            decisions: a.decisions + b.decisions,
            sure: a.sure + b.sure,
            missed_effort0: a.missed_effort0 + b.missed_effort0,
            missed_effort8: a.missed_effort8 + b.missed_effort8,
            not_out: a.not_out + b.not_out,
        })
}

// ---------------------------------------------------------------- driver

struct Stats {
    n: f64,
    mean: f64,
    ci: f64,
}

fn stats(xs: &[f64]) -> Stats {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    Stats { n, mean, ci: 1.96 * (var / n).sqrt() }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("dachu-census") {
        // dachu-census [--games N] [--seed S]: the sure-win census of 打儲.
        let flag = |name: &str, default: u64| {
            args.iter().position(|a| a == name).map_or(default, |i| args[i + 1].parse().expect("a number after the flag"))
        };
        let (games, seed0) = (flag("--games", 10_000), flag("--seed", 1));
        let started = Instant::now();
        let c = dachu_sure_win_census(games, seed0);
        println!(
            "dachu sure-win census: {games} games, {} decisions, {} with a sure win; missed at effort 0: {}, at effort 8: {}; sure wins not taken out next: {}, {:.0} s",
            c.decisions,
            c.sure,
            c.missed_effort0,
            c.missed_effort8,
            c.not_out,
            started.elapsed().as_secs_f64()
        );
        return;
    }
    if args.len() < 3 {
        eprintln!("usage: tournament GAME PLAYERS OPPONENT [--effort N] [--games N] [--seed S] [--latency]");
        std::process::exit(2);
    }
    let game = args[0].clone();
    let players: usize = args[1].parse().expect("PLAYERS");
    let opp = parse_policy(&args[2]);
    let mut effort = 0u32;
    let mut games = 10_000u64;
    let mut seed0 = 1u64;
    let mut latency = false;
    let mut i = 3;
    while i < args.len() {
        match args[i].as_str() {
            "--effort" => {
                effort = args[i + 1].parse().expect("--effort N");
                i += 1;
            }
            "--games" => {
                games = args[i + 1].parse().expect("--games N");
                i += 1;
            }
            "--seed" => {
                seed0 = args[i + 1].parse().expect("--seed S");
                i += 1;
            }
            "--latency" => latency = true,
            a => {
                eprintln!("unknown option {a:?}");
                std::process::exit(2)
            }
        }
        i += 1;
    }
    let hero = Policy::Suggest(effort);
    let play = |n: u64, timer: &mut Timer, hero_policy: Policy| -> Outcome {
        let seed = seed0 + n;
        if game == "tienlen" {
            let h = (n as usize) % players;
            let mut pol = vec![opp; players];
            pol[h] = hero_policy;
            tienlen_game(seed, players, &pol, h, timer)
        } else {
            // The hero side: the 儲方 on even deals, the others on odd ones (the sides
            // are only known after the deal, so the hero's seats are chosen then).
            let side = dachu_hero_side(seed, n % 2 == 0);
            let mut pol = [opp; 4];
            for &s in &side {
                pol[s] = hero_policy;
            }
            dachu_game(seed, &pol, &side, timer)
        }
    };
    let started = Instant::now();
    if latency {
        let mut timer = Timer { on: true, samples: Vec::new() };
        for n in 0..games {
            play(n, &mut timer, hero);
        }
        let mut v = timer.samples;
        v.sort_by(f64::total_cmp);
        let q = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
        println!(
            "{game} players={players} effort={effort} opponent={:?}: {} decisions in {games} games, p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs",
            opp,
            v.len(),
            q(0.5),
            q(0.99),
            v[v.len() - 1]
        );
        return;
    }
    let results: Vec<(Outcome, Outcome)> = (0..games)
        .into_par_iter()
        .map(|n| {
            let mut t = Timer { on: false, samples: Vec::new() };
            (play(n, &mut t, hero), play(n, &mut t, opp))
        })
        .collect();
    let money: Vec<f64> = results.iter().map(|r| r.0.money).collect();
    let gain: Vec<f64> = results.iter().map(|r| r.0.money - r.1.money).collect();
    let control: Vec<f64> = results.iter().map(|r| r.1.money).collect();
    let wins = results.iter().filter(|r| r.0.won).count() as f64 / games as f64;
    let cwins = results.iter().filter(|r| r.1.won).count() as f64 / games as f64;
    let (m, g, c) = (stats(&money), stats(&gain), stats(&control));
    println!(
        "{game} players={players} suggest(effort {effort}) vs {:?}: n={} money {:+.3} ± {:.3}, control {:+.3} ± {:.3}, gain {:+.3} ± {:.3}, win {:.1}% (control {:.1}%), {:.0} s",
        opp,
        m.n,
        m.mean,
        m.ci,
        c.mean,
        c.ci,
        g.mean,
        g.ci,
        wins * 100.0,
        cwins * 100.0,
        started.elapsed().as_secs_f64()
    );
}

/// The hero side of a 打儲 deal: the 儲方 of the passive deal (no declarations: the
/// colour comes from 平宣), or the other side.
fn dachu_hero_side(seed: u64, chu: bool) -> Vec<usize> {
    let hands = deal(seed, 4);
    let first = (seed % 4) as usize;
    let mut d = dachu::Deal::new(hands, first, dachu::Rules::default()).unwrap();
    while d.dealt < 13 {
        d = d.apply(&dachu::DealAction::Deal).unwrap();
    }
    d = d.apply(&dachu::DealAction::Finish).unwrap();
    let side = d.chu_side().unwrap_or_default();
    if chu {
        side
    } else {
        (0..4).filter(|s| !side.contains(s)).collect()
    }
}
