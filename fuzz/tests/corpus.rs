//! Replays every committed input of `corpus/<target>/` and `regressions/<target>/`
//! through the same checks libFuzzer runs (src/), as a plain test: no nightly
//! flags, no libFuzzer. `regressions/` holds the inputs of fixed findings.
//!
//!   cargo test --manifest-path fuzz/Cargo.toml --no-default-features

use std::path::Path;

#[test]
fn replay_corpora() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut total = 0;
    for (name, check) in handeval_fuzz::TARGETS {
        let mut n = 0;
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir).join(name)) else { continue };
            let mut paths: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
            paths.sort();
            for p in paths {
                let data = std::fs::read(&p).unwrap();
                let r = std::panic::catch_unwind(|| check(&data));
                assert!(r.is_ok(), "{name}: {} fails", p.display());
                n += 1;
            }
        }
        assert!(n > 0, "no corpus for fuzz target {name}");
        println!("{name}: {n} inputs replayed");
        total += n;
    }
    println!("{total} inputs replayed");
}

/// Fixed pseudo-random inputs on top of the corpora, so a fresh checkout with an empty
/// corpus still exercises every target.
#[test]
fn replay_pseudo_random_inputs() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for (_, check) in handeval_fuzz::TARGETS {
        for len in [0usize, 1, 7, 64, 256, 1024, 4096] {
            for _ in 0..40 {
                let data: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        x as u8
                    })
                    .collect();
                check(&data);
            }
        }
    }
}
