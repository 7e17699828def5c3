//! Speed of the 十三水 arrangement search against a baseline search, measured interleaved
//! in one process on the same seeded random hands, single thread: for every hand the
//! baseline and `arrange` run back to back (alternating which goes first), so load from
//! other jobs hits both alike. Also checks that both give the same answer on every hand,
//! lists the slowest hands, and measures `arrange_many` at 1 and 2 rayon threads.
//!
//! Baselines (`--baseline`): `reference` (default; the exhaustive branch and bound,
//! `baseline_arrange`) or `prior` (the previous pruning search, `prior_arrange`).
//!
//! `cargo run --release -p handeval-core --features bench --example arrange_speed -- [--hands 2000] [--seed 1]
//!  [--opponents 3] [--top-k 1] [--rounds 3] [--baseline reference|prior] [--worst 10]`;
//! with `ARRANGE_PROFILE=fast` (or `prior`, `baseline`) it only runs that search, for
//! `perf` or `valgrind --tool=callgrind`, on every hand or, with `ARRANGE_ONLY=895,1534`,
//! on those hands only (the numbers of the slowest-hands list).

use handeval_core::cards::Card;
use handeval_core::shisanshui::arrange::sim::{deck, Rng};
use handeval_core::shisanshui::arrange::{arrange, arrange_many, baseline_arrange, prior_arrange, ArrangeResult, Options};
use handeval_core::shisanshui::Rules;
use handeval_core::Result;
use std::time::Instant;

fn summary(name: &str, ns: &mut [f64]) -> f64 {
    ns.sort_by(f64::total_cmp);
    let q = |p: f64| ns[((ns.len() - 1) as f64 * p).round() as usize] / 1e3;
    let mean = ns.iter().sum::<f64>() / ns.len() as f64 / 1e3;
    println!(
        "{name:>9}: mean {mean:8.1} µs  median {:7.1}  p10 {:7.1}  p90 {:7.1}  p99 {:7.1}  max {:7.1}",
        q(0.5),
        q(0.1),
        q(0.9),
        q(0.99),
        q(1.0)
    );
    mean
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut hands, mut seed, mut rounds, mut worst) = (2000usize, 1u64, 3usize, 10usize);
    let mut baseline: fn(&[Card], &Options, &Rules) -> Result<ArrangeResult> = baseline_arrange;
    let mut baseline_name = "reference";
    let mut o = Options::default();
    while let Some(a) = args.next() {
        let mut v = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--hands" => hands = v().parse().unwrap(),
            "--seed" => seed = v().parse().unwrap(),
            "--opponents" => o.opponents = v().parse().unwrap(),
            "--top-k" => o.top_k = v().parse().unwrap(),
            "--rounds" => rounds = v().parse().unwrap(),
            "--worst" => worst = v().parse().unwrap(),
            "--baseline" => {
                (baseline, baseline_name) = match v().as_str() {
                    "prior" => (prior_arrange as fn(&[Card], &Options, &Rules) -> Result<ArrangeResult>, "prior"),
                    "reference" => (baseline_arrange as fn(&[Card], &Options, &Rules) -> Result<ArrangeResult>, "reference"),
                    b => panic!("--baseline is prior or reference, not {b}"),
                }
            }
            _ => panic!("unknown argument {a}"),
        }
    }
    let r = Rules::default();
    if let Ok(which) = std::env::var("ARRANGE_PROFILE") {
        // One search only (`fast`, `prior` or `baseline`), for a profiler or callgrind.
        let run: fn(&[Card], &Options, &Rules) -> Result<ArrangeResult> = match which.as_str() {
            "baseline" => baseline_arrange,
            "prior" => prior_arrange,
            _ => arrange,
        };
        let deals: Vec<Vec<Card>> = (0..hands as u64).map(|i| deck(&mut Rng::for_item(seed, 13, i))[..13].to_vec()).collect();
        // ARRANGE_ONLY=i,j,…: only those hands (e.g. the slowest, listed by a timed run).
        let picked: Vec<&Vec<Card>> = match std::env::var("ARRANGE_ONLY") {
            Ok(only) => only.split(',').map(|i| &deals[i.trim().parse::<usize>().expect("ARRANGE_ONLY: hand numbers")]).collect(),
            Err(_) => deals.iter().collect(),
        };
        for _ in 0..rounds {
            for h in &picked {
                std::hint::black_box(run(h, &o, &r).unwrap());
            }
        }
        return;
    }
    let deals: Vec<Vec<Card>> = (0..hands as u64).map(|i| deck(&mut Rng::for_item(seed, 13, i))[..13].to_vec()).collect();
    // Warm up the tables and caches of both.
    for h in deals.iter().take(50) {
        assert_eq!(arrange(h, &o, &r).unwrap(), baseline(h, &o, &r).unwrap());
    }
    let (mut base, mut fast) = (vec![0.0; hands], vec![0.0; hands]);
    for round in 0..rounds {
        for (i, h) in deals.iter().enumerate() {
            let time = |f: &dyn Fn() -> _| {
                let t = Instant::now();
                let out = f();
                (t.elapsed().as_nanos() as f64, out)
            };
            let run_base = || time(&|| baseline(h, &o, &r).unwrap());
            let run_fast = || time(&|| arrange(h, &o, &r).unwrap());
            let ((tb, a), (tf, b)) = if (i + round) % 2 == 0 {
                let x = run_base();
                (x, run_fast())
            } else {
                let y = run_fast();
                (run_base(), y)
            };
            assert_eq!(a, b, "hand {i} differs");
            // The best of the rounds: the least disturbed by other jobs.
            if round == 0 || tb < base[i] {
                base[i] = tb;
            }
            if round == 0 || tf < fast[i] {
                fast[i] = tf;
            }
        }
    }
    println!(
        "{hands} hands (seed {seed}), opponents {}, top_k {}, single thread, best of {rounds} rounds per hand; answers identical to baseline {baseline_name}",
        o.opponents, o.top_k
    );
    let mb = summary(baseline_name, &mut base.clone());
    let mf = summary("arrange", &mut fast.clone());
    let p99 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * 0.99).round() as usize]
    };
    println!("  speed-up: mean ×{:.2}, p99 ×{:.2}", mb / mf, p99(&mut base.clone()) / p99(&mut fast.clone()));
    // The slowest hands of `arrange` (the tail), with the baseline's time on them.
    let mut by_time: Vec<usize> = (0..hands).collect();
    by_time.sort_by(|&a, &b| fast[b].total_cmp(&fast[a]));
    if worst > 0 {
        println!("slowest {worst} hands of arrange (µs: arrange / {baseline_name}):");
    }
    for &i in by_time.iter().take(worst) {
        let mut h = deals[i].clone();
        h.sort_by_key(|c| std::cmp::Reverse(c.0));
        let text: Vec<String> = h.iter().map(|c| c.to_string()).collect();
        println!("  hand {i:5}  {:6.1} / {:6.1}  {}", fast[i] / 1e3, base[i] / 1e3, text.join(" "));
    }
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let best = (0..rounds)
            .map(|_| {
                let t = Instant::now();
                let out = pool.install(|| arrange_many(&deals, &o, &r).unwrap());
                assert_eq!(out.len(), hands);
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        println!("arrange_many, {threads} thread(s): {:.0} hands/s", hands as f64 / best);
    }
}
