//! Tournaments of `suggest` against the baselines (docs/benchmarks.md, docs/suggest.md).
//!
//! ```text
//! cargo run --release -p handeval-core --example tournament -- GAME PLAYERS OPPONENT [options]
//!   GAME      tienlen | dachu
//!   PLAYERS   2 | 3 | 4 (tienlen; dachu is always 4)
//!   OPPONENT  random | weakest | effort:N   (the other seats; dachu: the other side)
//!             tienlen also: greedy | mcts:N (N iterations a move) | previous
//!   --effort N   the effort of the suggest seat (default 0)
//!   --games N    deals (default 10000)
//!   --seed S     first deal's seed (default 1)
//!   --latency    time every suggest call (single thread) and print p50/p99/max
//!   --sure-win   tienlen: over every decision of the suggest seat (single thread), the
//!                positions with a sure win (tienlen::sure_win::check: the plain search,
//!                not suggest's, with CHECK_BUDGET) and the ones whose suggested move
//!                loses it (judged by the same check, again with 8 × CHECK_BUDGET when
//!                it runs out); SURE_WIN_DEBUG=1 prints each miss's deal and record
//! cargo run --release -p handeval-core --example tournament -- dachu-census [--games N] [--seed S]
//!   打儲's sure-win census: positions with a sure win and the ones suggest misses
//! ```
//!
//! Opponents of 越式13张 (each sees only its own seat): `greedy` plays the play with the
//! most cards, lowest first (the highest when an opponent has one card left), never
//! chops out of turn; `mcts:N` is a determinized UCT search written here (information-set
//! MCTS with one tree: each iteration deals the unseen cards anew by the card counts and
//! the record, descends by UCB among the actions available in that deal, expands one, and
//! plays out with `greedy`; the most-visited move is played); `previous` is the default
//! `suggest` of an older build, asked over a pipe: the program named by the environment
//! variable `PREVIOUS_POLICY` (examples/policy_pipe.rs built at that commit, see
//! benches/suggest_tournament.sh).
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
    /// 越式13张 only (the others below too).
    Greedy,
    Mcts(u32),
    Previous,
}

fn parse_policy(s: &str) -> Policy {
    match s {
        "random" => Policy::Random,
        "weakest" => Policy::Weakest,
        "greedy" => Policy::Greedy,
        "previous" => Policy::Previous,
        _ => match (s.strip_prefix("effort:").and_then(|n| n.parse().ok()), s.strip_prefix("mcts:").and_then(|n| n.parse().ok())) {
            (Some(n), _) => Policy::Suggest(n),
            (_, Some(n)) => Policy::Mcts(n),
            _ => {
                eprintln!("opponent must be random, weakest, greedy, previous, effort:N or mcts:N (got {s:?})");
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
    /// 越式13张: the sure-win counts, when they are asked for.
    sure: Option<SureWins>,
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
        Policy::Suggest(e) => {
            let a = timer.time(|| {
                let v = tienlen::suggest::View::new(g, seat).unwrap();
                tienlen::suggest::suggest(&v, seed, e).unwrap().action
            });
            if let Some(c) = timer.sure.as_mut() {
                check_sure_win(g, seat, &a, c);
            }
            a
        }
        Policy::Greedy => greedy(g, seat),
        Policy::Mcts(n) => mcts(g, seat, n, seed),
        Policy::Previous => previous(g, seat, seed),
    }
}

/// The greedy bot: in turn, the play with the most cards, the lowest of those (the
/// highest when an opponent has one card left); a pass when nothing beats the table;
/// never a chop out of turn.
fn greedy(g: &tienlen::Game, seat: usize) -> Option<tienlen::Action> {
    if g.turn() != Some(seat) {
        return None;
    }
    let plays = g.legal_plays();
    let one_left = (0..g.players).any(|s| s != seat && g.held(s).len() == 1);
    let most = plays.iter().map(|p| p.cards.len()).max();
    let Some(most) = most else { return Some(tienlen::Action::Pass) };
    let mut of_most = plays.into_iter().filter(|p| p.cards.len() == most);
    // legal_plays is weakest first.
    let p = if one_left { of_most.next_back() } else { of_most.next() };
    Some(tienlen::Action::Play(p.expect("a play of that size").cards))
}

/// A determinized UCT search for `seat` (information-set MCTS, one tree): it reads only
/// the seat's own hand, the record and the card counts.
fn mcts(g: &tienlen::Game, seat: usize, iterations: u32, seed: u64) -> Option<tienlen::Action> {
    use tienlen::{Action, PlayKey};
    if g.turn() != Some(seat) {
        // Out of turn (a chop offered): take it, the chain pays.
        return g.chops_open_to(seat).first().map(|p| Action::Play(p.cards.clone()));
    }
    #[derive(Default)]
    struct Node {
        mover: usize,
        visits: f64,
        avail: f64,
        reward: f64,
        children: Vec<(Option<PlayKey>, usize)>,
    }
    // A world: the record replayed on a deal of the unseen cards by the counts.
    let rules = tienlen::Rules::default();
    let own = g.hands()[seat].clone();
    let mut played: Vec<Vec<Card>> = vec![Vec::new(); g.players];
    for (s, a) in &g.history {
        if let Action::Play(c) = a {
            played[*s].extend_from_slice(c);
        }
    }
    let seen: u64 = own.iter().chain(played.iter().flatten()).fold(0, |m, c| m | c.bit());
    let unseen: Vec<Card> = (0..52u8).map(Card).filter(|c| seen & c.bit() == 0).collect();
    let mut rng = Rng::new(mix(seed, 0x5eed));
    let world = |rng: &mut Rng| -> Option<tienlen::Game> {
        let mut u = unseen.clone();
        rng.shuffle(&mut u);
        let mut k = 0;
        let hands: Vec<Vec<Card>> = (0..g.players)
            .map(|s| {
                if s == seat {
                    return own.clone();
                }
                let n = 13 - played[s].len();
                let mut h = played[s].clone();
                h.extend_from_slice(&u[k..k + n]);
                k += n;
                h
            })
            .collect();
        // A deal that the record refutes (another first leader: with 2–3 players a
        // lower card may be undealt; an instant win) is drawn again.
        tienlen::Game::replay(&hands, &g.history, &rules).ok().filter(|w| w.turn() == Some(seat))
    };
    let choices = |w: &tienlen::Game| -> Vec<Option<PlayKey>> {
        let mut v: Vec<Option<PlayKey>> = Vec::new();
        for p in w.legal_plays() {
            if v.last() != Some(&Some(p.key)) {
                v.push(Some(p.key));
            }
        }
        if w.may_pass() {
            v.push(None);
        }
        v
    };
    let act = |w: &tienlen::Game, k: Option<PlayKey>| -> Action {
        match k {
            None => Action::Pass,
            Some(k) => Action::Play(w.legal_plays().into_iter().find(|p| p.key == k).expect("an available play").cards),
        }
    };
    let mut nodes = vec![Node { mover: seat, ..Node::default() }];
    for _ in 0..iterations {
        let Some(mut w) = (0..64).find_map(|_| world(&mut rng)) else { break };
        let mut path = vec![0usize];
        let mut node = 0usize;
        while let Some(t) = w.turn() {
            let avail = choices(&w);
            let mut best: Option<(f64, usize, Option<PlayKey>)> = None;
            let mut untried = Vec::new();
            for &k in &avail {
                match nodes[node].children.iter().find(|c| c.0 == k) {
                    Some(&(_, c)) => {
                        nodes[c].avail += 1.0;
                        let n = &nodes[c];
                        let ucb = n.reward / n.visits + 0.7 * (n.avail.ln() / n.visits).sqrt();
                        if best.is_none_or(|b| ucb > b.0) {
                            best = Some((ucb, c, k));
                        }
                    }
                    None => untried.push(k),
                }
            }
            if !untried.is_empty() {
                let k = untried[rng.below(untried.len())];
                let a = act(&w, k);
                w.apply_mut(t, &a).expect("a legal action");
                nodes.push(Node { mover: t, avail: 1.0, ..Node::default() });
                let c = nodes.len() - 1;
                nodes[node].children.push((k, c));
                path.push(c);
                break;
            }
            let (_, c, k) = best.expect("an available action");
            let a = act(&w, k);
            w.apply_mut(t, &a).expect("a legal action");
            path.push(c);
            node = c;
        }
        // The playout: greedy in every seat, in turn only.
        while let Some(t) = w.turn() {
            let a = greedy(&w, t).expect("in turn: an action");
            w.apply_mut(t, &a).expect("a legal action");
        }
        let deltas = w.settle(1, None).expect("a finished game").deltas;
        for &i in &path[1..] {
            let n = &mut nodes[i];
            n.visits += 1.0;
            n.reward += (deltas[n.mover] as f64 / 13.0).clamp(-3.0, 3.0);
        }
    }
    let best = nodes[0].children.iter().max_by(|a, b| nodes[a.1].visits.total_cmp(&nodes[b.1].visits)).map(|c| c.0);
    let k = best.unwrap_or_else(|| choices(g)[0]);
    Some(act(g, k))
}

/// A running policy process: its stdin, its stdout, and the process (kept: it ends when
/// its stdin closes with the tournament).
type PolicyPipe = (std::process::ChildStdin, std::io::BufReader<std::process::ChildStdout>, std::process::Child);

thread_local! {
    /// This thread's `PREVIOUS_POLICY` process (each rayon thread has its own).
    static PREVIOUS: std::cell::RefCell<Option<PolicyPipe>> = const { std::cell::RefCell::new(None) };
}

/// The previous build's default `suggest`, over its pipe (examples/policy_pipe.rs).
fn previous(g: &tienlen::Game, seat: usize, seed: u64) -> Option<tienlen::Action> {
    use std::io::{BufRead, Write};
    let hands: Vec<String> = g.hands().iter().map(|h| handeval_core::cards::format_cards(h)).collect();
    let record: Vec<String> = g
        .history
        .iter()
        .map(|(s, a)| match a {
            tienlen::Action::Pass => format!("{s}:pass"),
            tienlen::Action::Play(c) => format!("{s}:{}", handeval_core::cards::format_cards(c)),
        })
        .collect();
    let line = format!("{}|{seat}|{seed}|0|{}|{}\n", g.players, hands.join(";"), record.join(";"));
    PREVIOUS.with(|p| {
        let mut p = p.borrow_mut();
        let (stdin, stdout, _) = p.get_or_insert_with(|| {
            let prog = std::env::var("PREVIOUS_POLICY").expect("PREVIOUS_POLICY: the previous build's policy_pipe");
            let mut child = std::process::Command::new(prog)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("PREVIOUS_POLICY starts");
            (child.stdin.take().unwrap(), std::io::BufReader::new(child.stdout.take().unwrap()), child)
        });
        stdin.write_all(line.as_bytes()).expect("pipe");
        stdin.flush().expect("pipe");
        let mut answer = String::new();
        stdout.read_line(&mut answer).expect("pipe");
        match answer.trim() {
            "none" => None,
            "pass" => Some(tienlen::Action::Pass),
            c => Some(tienlen::Action::Play(handeval_core::cards::cards(c))),
        }
    })
}

/// The sure-win figure's work budget for one check: the plain search
/// (`tienlen::sure_win::check`, not the search `suggest` runs) with 8 × `suggest`'s budget.
const CHECK_BUDGET: u32 = 8 * tienlen::sure_win::NODE_BUDGET;

/// Counts over the suggest seat's decisions: decisions, positions with a sure win found
/// by the check, suggested moves proved to lose it (missed), moves the checks could not
/// judge, positions the check could not judge.
#[derive(Default, Clone, Copy)]
struct SureWins {
    decisions: u64,
    sure: u64,
    missed: u64,
    /// Sure wins whose suggested move the check could not judge (out of budget after it).
    unresolved: u64,
    unknown: u64,
}

/// Check one decision of `seat`: a sure win in `g`, and is it still one after `a`?
fn check_sure_win(g: &tienlen::Game, seat: usize, a: &Option<tienlen::Action>, c: &mut SureWins) {
    use tienlen::sure_win::{check, SureWin};
    c.decisions += 1;
    match check(g, seat, CHECK_BUDGET) {
        SureWin::Unknown => c.unknown += 1,
        SureWin::NoWin => {}
        SureWin::Win(first) => {
            c.sure += 1;
            if *a == first {
                return;
            }
            let after = match a {
                Some(a) => g.apply(seat, a).unwrap(),
                // Letting the play go on keeps the position (the search already assumed
                // the others may act first).
                None => g.clone(),
            };
            let kept = match (after.winner == Some(seat)).then_some(SureWin::Win(None)) {
                Some(w) => w,
                // A move the check cannot judge is checked again with 8 × its budget.
                None => match check(&after, seat, CHECK_BUDGET) {
                    SureWin::Unknown => check(&after, seat, 8 * CHECK_BUDGET),
                    k => k,
                },
            };
            if kept == SureWin::Unknown {
                // The checks after the move ran out of budget: not known to be lost.
                c.unresolved += 1;
            } else if kept == SureWin::NoWin {
                c.missed += 1;
                if std::env::var_os("SURE_WIN_DEBUG").is_some() {
                    // The deal and the record (`seat:cards` or `seat:pass`), to replay the position.
                    let text = |c: &[Card]| handeval_core::cards::format_cards(&tienlen::sorted(c)).replace(' ', "");
                    let hands: Vec<String> = g.hands().iter().map(|h| text(h)).collect();
                    let record: Vec<String> = g
                        .history
                        .iter()
                        .map(|(s, x)| match x {
                            tienlen::Action::Pass => format!("{s}:pass"),
                            tienlen::Action::Play(c) => format!("{s}:{}", text(c)),
                        })
                        .collect();
                    eprintln!(
                        "missed: seat {seat} played {:?}, the check's move {:?}; hands {}; record {}",
                        a,
                        first,
                        hands.join(" "),
                        record.join(" ")
                    );
                }
            }
        }
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
                Policy::Greedy | Policy::Mcts(_) | Policy::Previous => unreachable!("越式13张 only: main refuses them for 打儲"),
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
            Policy::Greedy | Policy::Mcts(_) | Policy::Previous => unreachable!("越式13张 only: main refuses them for 打儲"),
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
            Policy::Greedy | Policy::Mcts(_) | Policy::Previous => unreachable!("越式13张 only: main refuses them for 打儲"),
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
        eprintln!("usage: tournament GAME PLAYERS OPPONENT [--effort N] [--games N] [--seed S] [--latency] [--sure-win]");
        std::process::exit(2);
    }
    let game = args[0].clone();
    let players: usize = args[1].parse().expect("PLAYERS");
    let opp = parse_policy(&args[2]);
    if game != "tienlen" && matches!(opp, Policy::Greedy | Policy::Mcts(_) | Policy::Previous) {
        eprintln!("greedy, mcts:N and previous are 越式13张 opponents");
        std::process::exit(2);
    }
    let mut effort = 0u32;
    let mut games = 10_000u64;
    let mut seed0 = 1u64;
    let mut latency = false;
    let mut sure_win = false;
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
            "--sure-win" => sure_win = true,
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
    if sure_win {
        let mut timer = Timer { on: false, samples: Vec::new(), sure: Some(SureWins::default()) };
        for n in 0..games {
            play(n, &mut timer, hero);
        }
        let c = timer.sure.unwrap();
        println!(
            "{game} players={players} effort={effort} opponent={:?}: {} decisions in {games} games, {} with a sure win, {} sure wins missed, {} moves not judged, {} checks out of budget ({CHECK_BUDGET} nodes), {:.0} s",
            opp,
            c.decisions,
            c.sure,
            c.missed,
            c.unresolved,
            c.unknown,
            started.elapsed().as_secs_f64()
        );
        return;
    }
    if latency {
        let mut timer = Timer { on: true, samples: Vec::new(), sure: None };
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
            let mut t = Timer { on: false, samples: Vec::new(), sure: None };
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
