//! Train the 十三水 arrangement tables (see docs/arrange.md):
//!
//! ```text
//! cargo run --release -p handeval-core --features train --example train_arrange -- \
//!     [--deals N] [--seed S] [--max-iterations I] [--tolerance T] [--out DIR]
//! ```
//!
//! The defaults are the run that made the shipped tables (`sim::DEALS`, `SEED`,
//! `MAX_ITERATIONS`, `TOLERANCE`).
//!
//! Iteration 0 counts the rows of greedy arrangers; iteration i counts the rows of
//! players who use the solver with the tables of iteration i-1. It stops when the
//! largest change of a row's cumulative distribution drops below `--tolerance`.
//! Writes `DIR/tables_iter0.bin`, `DIR/tables.bin` (the last iteration) and prints one
//! JSON line per iteration.

use handeval_core::shisanshui::arrange::sim::{train, DEALS, MAX_ITERATIONS, SEED, TOLERANCE};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut deals, mut seed, mut max_it, mut tol, mut out) = (DEALS, SEED, MAX_ITERATIONS, TOLERANCE, String::from("."));
    while let Some(a) = args.next() {
        let mut v = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--deals" => deals = v().parse().expect("--deals"),
            "--seed" => seed = v().parse().expect("--seed"),
            "--max-iterations" => max_it = v().parse().expect("--max-iterations"),
            "--tolerance" => tol = v().parse().expect("--tolerance"),
            "--out" => out = v(),
            other => panic!("unknown argument {other}"),
        }
    }
    let start = Instant::now();
    let all = train(deals, seed, max_it, tol, |t, d| {
        let normal: u64 = t.rows[0].iter().sum();
        println!(
            "{{\"iteration\": {}, \"hands\": {}, \"normal\": {}, \"specials\": {}, \"scoops\": {:?}, \"distance\": {}, \"seconds\": {:.1}}}",
            t.iteration,
            t.hands,
            normal,
            t.specials.iter().sum::<u64>(),
            t.scoops,
            if d.is_nan() { "null".to_string() } else { format!("{d:.5}") },
            start.elapsed().as_secs_f64()
        );
    });
    std::fs::create_dir_all(&out).expect("create --out");
    std::fs::write(format!("{out}/tables_iter0.bin"), all[0].to_bytes()).expect("write");
    std::fs::write(format!("{out}/tables.bin"), all.last().unwrap().to_bytes()).expect("write");
}
