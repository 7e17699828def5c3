//! What a table stream costs, measured (the time ignored by default: it prints figures and
//! asserts only that both paths answered alike; the memory checks the stream's estimate):
//!
//!     cargo test --release -p handeval-wire --test tables_cost -- --ignored --nocapture
//!
//! * the Rust cost of one game step on a table (an action appended, the next seat's view
//!   and its default suggestion answered: bytes in, bytes out) against the unary Evaluate
//!   of the record so far asking the same, at every step of many distinct games;
//! * the memory a table holds (its heap, counted by this binary's allocator) against the
//!   stream's estimate (`Tables::bytes`), at the start, mid-game and at the end.

use handeval_wire::pb;
use handeval_wire::{answer, Call, Limits, Rpc, TableLimits, Tables};
use prost::Message;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

/// The system allocator, counting the bytes held.
struct Counting;

static HELD: AtomicIsize = AtomicIsize::new(0);
/// Allocations held (each costs the allocator ~16 bytes more than its size, and a small one
/// at least 32 bytes in all, glibc's smallest chunk).
static BLOCKS: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        HELD.fetch_add(l.size() as isize, Ordering::Relaxed);
        BLOCKS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        HELD.fetch_sub(l.size() as isize, Ordering::Relaxed);
        BLOCKS.fetch_sub(1, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        HELD.fetch_add(n as isize - l.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const LIMITS: Limits = Limits { max_batch: 100, max_samples: 100, max_work: 0 };
const TABLE_LIMITS: TableLimits = TableLimits { max_tables: 100_000, max_open_tables: 100_000, call: LIMITS };

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn hands(rng: &mut Rng, players: usize) -> Vec<pb::Cards> {
    let mut d: Vec<String> = "23456789TJQKA".chars().flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}"))).collect();
    for i in (1..d.len()).rev() {
        d.swap(i, rng.below(i + 1));
    }
    (0..players).map(|p| pb::Cards { cards: d[p * 13..p * 13 + 13].to_vec() }).collect()
}

/// The unary Evaluate request of the one `game` item.
fn tienlen_request(record: &pb::TienlenGameRecord) -> Vec<u8> {
    let item = pb::TienlenEvaluateItem { item: Some(pb::tienlen_evaluate_item::Item::Game(record.clone())) };
    let req = pb::TienlenEvaluateRequest { rules: None, items: vec![item] };
    pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Tienlen(req)) }.encode_to_vec()
}

fn dachu_request(record: &pb::DachuGameRecord) -> Vec<u8> {
    let item = pb::DachuEvaluateItem { item: Some(pb::dachu_evaluate_item::Item::Game(record.clone())) };
    let req = pb::DachuEvaluateRequest { rules: None, items: vec![item] };
    pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Dachu(req)) }.encode_to_vec()
}

fn tienlen_state(record: &pb::TienlenGameRecord) -> pb::TienlenGameState {
    let out = answer(Rpc::Evaluate, &tienlen_request(record), &Call::default(), LIMITS, None).unwrap();
    let Some(pb::evaluate_response::Game::Tienlen(mut r)) = pb::EvaluateResponse::decode(&out[..]).unwrap().game else { panic!() };
    match r.results.pop().unwrap().result.unwrap() {
        pb::tienlen_evaluate_result::Result::Game(s) => s,
        other => panic!("{other:?}"),
    }
}

fn dachu_state(record: &pb::DachuGameRecord) -> pb::DachuGameState {
    let out = answer(Rpc::Evaluate, &dachu_request(record), &Call::default(), LIMITS, None).unwrap();
    let Some(pb::evaluate_response::Game::Dachu(mut r)) = pb::EvaluateResponse::decode(&out[..]).unwrap().game else { panic!() };
    match r.results.pop().unwrap().result.unwrap() {
        pb::dachu_evaluate_result::Result::Game(s) => s,
        other => panic!("{other:?}"),
    }
}

/// A whole game: the start record and each step's action with the seat to move after it.
struct Game<A> {
    actions: Vec<(A, Option<i32>)>,
}

fn tienlen_game(rng: &mut Rng, players: usize) -> (pb::TienlenGameRecord, Game<pb::PlayAction>) {
    let start = pb::TienlenGameRecord { hands: hands(rng, players), ..Default::default() };
    let mut record = start.clone();
    let mut actions = Vec::new();
    let mut state = tienlen_state(&record);
    while !state.over {
        let legal: Vec<&pb::PlayAction> =
            state.offers.iter().filter(|o| o.acting == pb::Acting::Turn as i32).flat_map(|o| o.actions.iter()).collect();
        let a = legal[rng.below(legal.len())].clone();
        record.actions.push(a.clone());
        state = tienlen_state(&record);
        actions.push((a, state.to_move));
    }
    (start, Game { actions })
}

fn dachu_game(rng: &mut Rng) -> (pb::DachuGameRecord, Game<pb::table_action::Action>) {
    use pb::dachu_offer::Action as O;
    use pb::table_action::Action as A;
    let start = pb::DachuGameRecord { hands: hands(rng, 4), first_seat: rng.below(4) as i32, ..Default::default() };
    let mut record = start.clone();
    let mut actions = Vec::new();
    loop {
        let state = dachu_state(&record);
        let mut legal: Vec<A> = state
            .offers
            .iter()
            .filter_map(|o| o.action.clone())
            .map(|o| match o {
                O::DealAction(d) => A::Deal(d),
                O::Call(c) => A::Call(c),
                O::Play(p) => A::Play(p),
            })
            .collect();
        if state.phase == pb::DachuPhase::Deal as i32 && legal.is_empty() {
            legal = state.deal.iter().flat_map(|d| d.legal_actions.iter().cloned()).map(A::Deal).collect();
        }
        if legal.is_empty() {
            break;
        }
        let a = legal[rng.below(legal.len())].clone();
        match a.clone() {
            A::Deal(d) => record.deal_actions.push(d),
            A::Call(c) => record.calls.push(c),
            A::Play(p) => record.plays.push(p),
        }
        let after = dachu_state(&record);
        let to_move = after.calling.as_ref().and_then(|c| c.turn).or(after.play.as_ref().and_then(|p| p.to_move));
        actions.push((a, to_move));
    }
    (start, Game { actions })
}

fn suggest() -> Option<pb::SuggestQuery> {
    std::env::var_os("NO_SUGGEST").is_none().then(pb::SuggestQuery::default)
}

fn percentile(v: &mut [Duration], p: f64) -> f64 {
    v.sort();
    v[((v.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e6
}

fn report(name: &str, table: &mut [Duration], unary: &mut [Duration]) {
    let (t50, u50) = (percentile(table, 0.5), percentile(unary, 0.5));
    println!(
        "{name}: {} steps; table step p50 {t50:.1} µs p90 {:.1} µs; unary record p50 {u50:.1} µs p90 {:.1} µs; p50 ratio {:.3}",
        table.len(),
        percentile(table, 0.9),
        percentile(unary, 0.9),
        t50 / u50
    );
}

fn step_bytes(table: &str, step: pb::tables_request::Step, viewer: Option<i32>) -> Vec<u8> {
    pb::TablesRequest { table: table.to_string(), step: Some(step), viewer, suggest: suggest() }.encode_to_vec()
}

fn state_of(out: &[u8]) -> Vec<u8> {
    match pb::TablesResponse::decode(out).unwrap().answer.unwrap() {
        pb::tables_response::Answer::Tienlen(s) => s.encode_to_vec(),
        pb::tables_response::Answer::Dachu(s) => s.encode_to_vec(),
        other => panic!("{other:?}"),
    }
}

fn unary_state(out: &[u8]) -> Vec<u8> {
    match pb::EvaluateResponse::decode(out).unwrap().game.unwrap() {
        pb::evaluate_response::Game::Tienlen(mut r) => match r.results.pop().unwrap().result.unwrap() {
            pb::tienlen_evaluate_result::Result::Game(s) => s.encode_to_vec(),
            other => panic!("{other:?}"),
        },
        pb::evaluate_response::Game::Dachu(mut r) => match r.results.pop().unwrap().result.unwrap() {
            pb::dachu_evaluate_result::Result::Game(s) => s.encode_to_vec(),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
#[ignore = "measures; run with --release --ignored --nocapture"]
fn a_table_step_against_the_unary_record() {
    let mut rng = Rng(2026);
    let call = Call::default();
    // 越式13张, 2-4 seats.
    let (mut table, mut unary) = (Vec::new(), Vec::new());
    for g in 0..300 {
        let (start, game) = tienlen_game(&mut rng, 2 + g % 3);
        let tables = Tables::new(TABLE_LIMITS);
        let s =
            pb::TableStart { game: Some(pb::table_start::Game::Tienlen(pb::TienlenTable { rules: None, record: Some(start.clone()) })) };
        tables
            .step(
                &pb::TablesRequest { table: "t".into(), step: Some(pb::tables_request::Step::Start(s)), ..Default::default() }
                    .encode_to_vec(),
                &call,
                None,
            )
            .unwrap();
        let mut record = start;
        for (k, (a, to_move)) in game.actions.into_iter().enumerate() {
            record.actions.push(a.clone());
            let act =
                pb::tables_request::Step::Action(pb::TableAction { at: Some(k as u32), action: Some(pb::table_action::Action::Play(a)) });
            let req = step_bytes("t", act, to_move);
            let t0 = Instant::now();
            let out = tables.step(&req, &call, None).unwrap();
            table.push(t0.elapsed());
            let ureq = tienlen_request(&pb::TienlenGameRecord { viewer: to_move, suggest: suggest(), ..record.clone() });
            let t0 = Instant::now();
            let uout = answer(Rpc::Evaluate, &ureq, &call, LIMITS, None).unwrap();
            unary.push(t0.elapsed());
            assert_eq!(state_of(&out), unary_state(&uout));
        }
    }
    report("越式13张 (2-4 seats, 300 games)", &mut table, &mut unary);
    // 打儲, from the deal.
    let (mut table, mut unary) = (Vec::new(), Vec::new());
    for _ in 0..200 {
        let (start, game) = dachu_game(&mut rng);
        let tables = Tables::new(TABLE_LIMITS);
        let s = pb::TableStart { game: Some(pb::table_start::Game::Dachu(pb::DachuTable { rules: None, record: Some(start.clone()) })) };
        tables
            .step(
                &pb::TablesRequest { table: "d".into(), step: Some(pb::tables_request::Step::Start(s)), ..Default::default() }
                    .encode_to_vec(),
                &call,
                None,
            )
            .unwrap();
        let mut record = start;
        for (k, (a, to_move)) in game.actions.into_iter().enumerate() {
            match a.clone() {
                pb::table_action::Action::Deal(d) => record.deal_actions.push(d),
                pb::table_action::Action::Call(c) => record.calls.push(c),
                pb::table_action::Action::Play(p) => record.plays.push(p),
            }
            let act = pb::tables_request::Step::Action(pb::TableAction { at: Some(k as u32), action: Some(a) });
            let req = step_bytes("d", act, to_move);
            let t0 = Instant::now();
            let out = tables.step(&req, &call, None).unwrap();
            table.push(t0.elapsed());
            let ureq = dachu_request(&pb::DachuGameRecord { viewer: to_move, suggest: suggest(), ..record.clone() });
            let t0 = Instant::now();
            let uout = answer(Rpc::Evaluate, &ureq, &call, LIMITS, None).unwrap();
            unary.push(t0.elapsed());
            assert_eq!(state_of(&out), unary_state(&uout));
        }
    }
    report("打儲 (from the deal, 200 games)", &mut table, &mut unary);
}

/// Tables of `n` games each played `frac` of the way: (heap held per table, its
/// allocations, the stream's estimate per table).
fn memory<R: Clone>(
    n: usize,
    frac: f64,
    games: &[(R, Vec<pb::table_action::Action>)],
    start: impl Fn(&R) -> pb::table_start::Game,
) -> (f64, f64, f64) {
    let call = Call::default();
    let before = HELD.load(Ordering::Relaxed);
    let blocks = BLOCKS.load(Ordering::Relaxed);
    let tables = Tables::new(TABLE_LIMITS);
    for (i, (record, actions)) in games.iter().take(n).enumerate() {
        let name = format!("t{i}");
        let s = pb::TableStart { game: Some(start(record)) };
        tables
            .step(
                &pb::TablesRequest { table: name.clone(), step: Some(pb::tables_request::Step::Start(s)), ..Default::default() }
                    .encode_to_vec(),
                &call,
                None,
            )
            .unwrap();
        for a in actions.iter().take((actions.len() as f64 * frac) as usize) {
            let req = pb::TablesRequest {
                table: name.clone(),
                step: Some(pb::tables_request::Step::Action(pb::TableAction { at: None, action: Some(a.clone()) })),
                ..Default::default()
            };
            tables.step(&req.encode_to_vec(), &call, None).unwrap();
        }
    }
    let held = (HELD.load(Ordering::Relaxed) - before) as f64 / n as f64;
    let blocks = (BLOCKS.load(Ordering::Relaxed) - blocks) as f64 / n as f64;
    let estimate = tables.bytes() as f64 / n as f64;
    drop(tables);
    (held, blocks, estimate)
}

/// The stream's estimate (`Tables::bytes`, which its bound reads) stays within a quarter of
/// the heap its tables hold, at every phase of both games.
#[test]
fn memory_per_table() {
    let mut rng = Rng(7);
    let n = 100;
    let tienlen: Vec<(pb::TienlenGameRecord, Vec<pb::table_action::Action>)> = (0..n)
        .map(|_| {
            let (start, game) = tienlen_game(&mut rng, 4);
            (start, game.actions.into_iter().map(|(a, _)| pb::table_action::Action::Play(a)).collect())
        })
        .collect();
    let dachu: Vec<(pb::DachuGameRecord, Vec<pb::table_action::Action>)> = (0..n)
        .map(|_| {
            let (start, game) = dachu_game(&mut rng);
            (start, game.actions.into_iter().map(|(a, _)| a).collect())
        })
        .collect();
    for frac in [0.0, 0.5, 1.0] {
        let (held, blocks, est) =
            memory(n, frac, &tienlen, |r| pb::table_start::Game::Tienlen(pb::TienlenTable { rules: None, record: Some(r.clone()) }));
        println!(
            "越式13张 4 seats, {:.0}% played: {held:.0} bytes held per table in {blocks:.0} allocations (estimate {est:.0})",
            frac * 100.0
        );
        let (held, blocks, est) =
            memory(n, frac, &dachu, |r| pb::table_start::Game::Dachu(pb::DachuTable { rules: None, record: Some(r.clone()) }));
        println!("打儲, {:.0}% played: {held:.0} bytes held per table in {blocks:.0} allocations (estimate {est:.0})", frac * 100.0);
        assert!((est - held).abs() < held / 4.0, "打儲 at {frac}: {est} estimated, {held} held");
    }
}
