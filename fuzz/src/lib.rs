//! The checks behind every fuzz target. Each `pub fn <target>(data)` turns the
//! fuzzer's bytes into inputs of one public entry family of `handeval_core`, calls it,
//! and asserts the invariants the rules promise: no panic and no overflow (the fuzz
//! profiles keep overflow checks on), settlements exactly zero-sum, caps respected,
//! legal plays legal, a found special really made of the 13 cards, and so on.
//!
//! A malformed input is expected to come back as `Err` — that is the point of the
//! `Result`-returning API — so only panics and broken invariants are findings.
//! `fuzz_targets/<target>.rs` calls these; `tests/corpus.rs` replays the corpora through
//! the same functions as a plain `cargo test`.
//!
//! One module per game (`shisanshui`, `dachu`, `tienlen`), `basics` for the cards' text
//! and the money rules, and `common` for the input helpers they share.

mod basics;
mod common;
mod dachu;
mod shisanshui;
mod tienlen;

pub use basics::{cards, money};
pub use dachu::{dachu_flow, dachu_play, dachu_settle};
pub use shisanshui::{shisanshui_arrange, shisanshui_eval, shisanshui_settle};
pub use tienlen::{tienlen_game, tienlen_play};

/// A target's checks: any bytes in, a panic on a finding.
pub type Check = fn(&[u8]);

/// Every target by name (the replay harness walks `corpus/<name>` and `regressions/<name>`).
pub const TARGETS: &[(&str, Check)] = &[
    ("cards", cards),
    ("money", money),
    ("shisanshui_eval", shisanshui_eval),
    ("shisanshui_settle", shisanshui_settle),
    ("dachu_play", dachu_play),
    ("dachu_flow", dachu_flow),
    ("dachu_settle", dachu_settle),
    ("tienlen_play", tienlen_play),
    ("tienlen_game", tienlen_game),
    ("shisanshui_arrange", shisanshui_arrange),
];
