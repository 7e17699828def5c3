//! The wire's fuzz target (fuzz_targets/wire.rs) without libFuzzer: its committed seeds
//! and fixed inputs replayed through the same check, and its path walker tried on paths
//! that are and are not fields of the protos.
//!
//!   cargo test --manifest-path fuzz/Cargo.toml --no-default-features --test wire

#[path = "../fuzz_targets/wire.rs"]
mod target;

use std::path::Path;

#[test]
fn replay_the_wire_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for dir in ["corpus/wire", "regressions/wire"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).unwrap();
            let r = std::panic::catch_unwind(|| target::check(&data));
            assert!(r.is_ok(), "wire: {} fails", p.display());
            n += 1;
        }
    }
    assert!(n > 0, "no corpus for the fuzz target wire");
    println!("wire: {n} inputs replayed");
}

/// Pseudo-random bytes, and each seed cut short at every length (truncated messages).
#[test]
fn replay_fixed_inputs() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for len in [0usize, 1, 2, 7, 64, 256, 1024] {
        for _ in 0..40 {
            let data: Vec<u8> = (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect();
            target::check(&data);
        }
    }
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wire");
    for e in std::fs::read_dir(seeds).unwrap() {
        let data = std::fs::read(e.unwrap().path()).unwrap();
        for cut in 0..data.len() {
            target::check(&data[..cut]);
        }
    }
}

#[test]
fn the_path_walker_refuses_invented_paths() {
    let p = |msg: &str, path: &str| target::path_ok(&target_message(msg), path);
    assert_eq!(p("ShisanshuiSettleRequest", "deals[1].players[1].arrangement.front"), Ok(()));
    assert_eq!(p("ShisanshuiSettleRequest", "deals[1].players[1].arrangement.front.cards[2]"), Ok(()));
    assert_eq!(p("ShisanshuiSettleRequest", "deals[0].base"), Ok(()));
    assert_eq!(p("EvaluateRequest", "game"), Ok(()));
    assert_eq!(p("EvaluateRequest", "tienlen.rules.rake_percent"), Ok(()));
    assert_eq!(p("DachuEvaluateRequest", "items[0].game.deal_actions[2].cards"), Ok(()));
    for bad in ["deals[1].players[1].front", "deals.players", "deals[0][1]", "deals[0].base.x", "deals[x]", "deals[]", "Deals[0]", ""] {
        assert!(p("ShisanshuiSettleRequest", bad).is_err(), "{bad:?}");
    }
    assert!(p("EvaluateRequest", "games").is_err());
    assert!(p("DachuEvaluateRequest", "items[0].game.deal_actions[2].meng_xuan").is_err());
}

fn target_message(name: &str) -> protox::prost_reflect::MessageDescriptor {
    target::message(&format!("handeval.v2.{name}"))
}
