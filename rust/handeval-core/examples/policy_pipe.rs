//! A 越式13张 policy over stdin/stdout, for the tournament's "previous default" opponent:
//! `benches/suggest_tournament.sh` builds this same file in a worktree of an older commit,
//! so the old `suggest` plays in the same run as the new one. Only the public `suggest`
//! API is used (it has not changed).
//!
//! One request a line: `players|seat|seed|effort|hand;hand;…|seat:cards;seat:pass;…`
//! (hands and plays as card text, e.g. `3s 4h 5h`). One answer a line: the cards to
//! play, `pass`, or `none` (a seat offered a chop out of turn lets the play go on).

use handeval_core::cards::{cards, format_cards};
use handeval_core::tienlen::{self, Action};
use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.expect("a request line");
        let f: Vec<&str> = line.split('|').collect();
        assert_eq!(f.len(), 6, "players|seat|seed|effort|hands|record: {line:?}");
        let seat: usize = f[1].parse().expect("seat");
        let seed: u64 = f[2].parse().expect("seed");
        let effort: u32 = f[3].parse().expect("effort");
        let hands: Vec<_> = f[4].split(';').map(cards).collect();
        assert_eq!(hands.len(), f[0].parse::<usize>().expect("players"));
        let record: Vec<(usize, Action)> = f[5]
            .split(';')
            .filter(|a| !a.is_empty())
            .map(|a| {
                let (s, what) = a.split_once(':').expect("seat:action");
                let act = if what == "pass" { Action::Pass } else { Action::Play(cards(what)) };
                (s.parse().expect("seat"), act)
            })
            .collect();
        let g = tienlen::Game::replay(&hands, &record, &tienlen::Rules::default()).expect("a legal record");
        let v = tienlen::suggest::View::new(&g, seat).expect("a seat of the game");
        let answer = match tienlen::suggest::suggest(&v, seed, effort).expect("a decision").action {
            None => "none".to_string(),
            Some(Action::Pass) => "pass".to_string(),
            Some(Action::Play(c)) => format_cards(&c),
        };
        writeln!(out, "{answer}").expect("stdout");
        out.flush().expect("stdout");
    }
}
