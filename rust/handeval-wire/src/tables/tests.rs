//! A table stream answers what the unary call answers for the record so far, at every
//! step of random games of both trick games (legal steps chosen from the answers' own
//! offers, illegal ones thrown in), and holds its bounds.

use super::*;
use crate::dispatch::{answer as unary, Rpc};

/// Tests that open tables hold this: the process-wide count is shared.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// splitmix64: the tests' own seeded randomness.
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
    fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
}

fn deck(rng: &mut Rng) -> Vec<String> {
    let mut cards: Vec<String> = "23456789TJQKA".chars().flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}"))).collect();
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.below(i + 1));
    }
    cards
}

fn hands(rng: &mut Rng, players: usize) -> Vec<pb::Cards> {
    let d = deck(rng);
    (0..players).map(|p| pb::Cards { cards: d[p * 13..p * 13 + 13].to_vec() }).collect()
}

const LIMITS: TableLimits =
    TableLimits { max_tables: 8, max_open_tables: 1000, call: Limits { max_batch: 100, max_samples: 100, max_work: 0 } };

fn step(t: &Tables, req: pb::TablesRequest) -> pb::TablesResponse {
    let out = t.step(&req.encode_to_vec(), &Call::default(), None).expect("answered");
    pb::TablesResponse::decode(&out[..]).unwrap()
}

/// A random view for a step: the table's or a seat's (now and then a seat that is not
/// one), with or without a suggestion (the default, or a small search).
fn view(rng: &mut Rng, players: i32) -> (Option<i32>, Option<pb::SuggestQuery>) {
    let viewer = match rng.below(10) {
        0..=3 => None,
        4 => Some([-1, players, 7][rng.below(3)]),
        _ => Some(rng.below(players as usize) as i32),
    };
    let suggest = match rng.below(10) {
        0..=4 => None,
        5..=8 => Some(pb::SuggestQuery::default()),
        _ => Some(pb::SuggestQuery { effort: Some(1), seed: rng.next() % 1000 }),
    };
    (viewer, suggest)
}

/// The one-item unary answer as a table's: the state or the ItemError (the batch's and
/// the request's prefixes off, see the module doc), a request error as an ItemError.
fn unary_answer(rpc: Rpc, req: Vec<u8>) -> Answer {
    use pb::dachu_evaluate_result::Result as D;
    use pb::tienlen_evaluate_result::Result as T;
    let out = match unary(rpc, &req, &Call::default(), LIMITS.call, None) {
        Ok(out) => out,
        Err(Fail::Bad { field, message, reason }) => {
            return Answer::Error(pb::ItemError { field: table_field(&field), reason: reason_value(reason), message, action_index: None })
        }
        Err(f) => panic!("stopped: {f:?}"),
    };
    let error = |mut e: pb::ItemError| {
        e.field = table_field(&e.field);
        Answer::Error(e)
    };
    match rpc {
        Rpc::Evaluate => match pb::EvaluateResponse::decode(&out[..]).unwrap().game.unwrap() {
            pb::evaluate_response::Game::Tienlen(mut r) => match r.results.pop().unwrap().result.unwrap() {
                T::Game(s) => Answer::Tienlen(s),
                T::Error(e) => error(e),
                other => panic!("{other:?}"),
            },
            pb::evaluate_response::Game::Dachu(mut r) => match r.results.pop().unwrap().result.unwrap() {
                D::Game(s) => Answer::Dachu(s),
                D::Error(e) => error(e),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        },
        Rpc::Settle => match pb::SettleResponse::decode(&out[..]).unwrap().game.unwrap() {
            pb::settle_response::Game::Tienlen(mut r) => match r.results.pop().unwrap().result.unwrap() {
                pb::tienlen_settle_result::Result::Settlement(s) => Answer::TienlenSettlement(s),
                pb::tienlen_settle_result::Result::Error(e) => error(e),
            },
            pb::settle_response::Game::Dachu(mut r) => match r.results.pop().unwrap().result.unwrap() {
                pb::dachu_settle_result::Result::Settlement(s) => Answer::DachuSettlement(s),
                pb::dachu_settle_result::Result::Error(e) => error(e),
            },
            other => panic!("{other:?}"),
        },
        _ => unreachable!(),
    }
}

fn tienlen_unary(
    rules: &pb::TienlenRules,
    record: &pb::TienlenGameRecord,
    viewer: Option<i32>,
    suggest: Option<pb::SuggestQuery>,
) -> Answer {
    let record = pb::TienlenGameRecord { viewer, suggest, ..record.clone() };
    let item = pb::TienlenEvaluateItem { item: Some(pb::tienlen_evaluate_item::Item::Game(record)) };
    let req = pb::TienlenEvaluateRequest { rules: Some(*rules), items: vec![item] };
    unary_answer(Rpc::Evaluate, pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Tienlen(req)) }.encode_to_vec())
}

fn dachu_unary(rules: &pb::DachuRules, record: &pb::DachuGameRecord, viewer: Option<i32>, suggest: Option<pb::SuggestQuery>) -> Answer {
    let record = pb::DachuGameRecord { viewer, suggest, ..record.clone() };
    let item = pb::DachuEvaluateItem { item: Some(pb::dachu_evaluate_item::Item::Game(record)) };
    let req = pb::DachuEvaluateRequest { rules: Some(*rules), items: vec![item] };
    unary_answer(Rpc::Evaluate, pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Dachu(req)) }.encode_to_vec())
}

/// The two answers are the same message, byte for byte.
fn same(table: &pb::TablesResponse, unary: &Answer, what: &str) {
    let got = table.answer.as_ref().expect("an answer");
    assert_eq!(
        pb::TablesResponse { answer: Some(got.clone()), ..Default::default() }.encode_to_vec(),
        pb::TablesResponse { answer: Some(unary.clone()), ..Default::default() }.encode_to_vec(),
        "{what}: table {got:?}\nunary {unary:?}"
    );
}

fn request(table: &str, step: pb::tables_request::Step, viewer: Option<i32>, suggest: Option<pb::SuggestQuery>) -> pb::TablesRequest {
    pb::TablesRequest { table: table.to_string(), step: Some(step), viewer, suggest }
}

fn action_step(at: Option<usize>, a: pb::table_action::Action) -> pb::tables_request::Step {
    pb::tables_request::Step::Action(pb::TableAction { at: at.map(|n| n as u32), action: Some(a) })
}

fn look() -> pb::tables_request::Step {
    pb::tables_request::Step::Look(pb::TableLook {})
}

/// A random action that is most likely illegal (wrong seat, cards not held, a pass to lead,
/// unreadable cards, a bad kind).
fn wild_play(rng: &mut Rng, players: i32) -> pb::PlayAction {
    let d = deck(rng);
    let n = 1 + rng.below(3);
    let mut cards: Vec<String> = d[..n].to_vec();
    if rng.chance(0.1) {
        cards.push("Zz".to_string());
    }
    let kind = [pb::ActionKind::Play, pb::ActionKind::Pass, pb::ActionKind::Timeout, pb::ActionKind::Unspecified][rng.below(4)] as i32;
    let cards = (kind == pb::ActionKind::Play as i32 || rng.chance(0.2)).then_some(pb::Cards { cards });
    pb::PlayAction { seat: rng.below(players as usize + 1) as i32, kind, cards, columns: Vec::new() }
}

#[test]
fn tienlen_tables_answer_as_the_unary_record_at_every_step() {
    let _g = serial();
    let mut rng = Rng(0x7153_0001);
    let rules = pb::TienlenRules::default();
    let (mut steps, mut refused, mut games) = (0, 0, 0);
    for game in 0..40 {
        let players = 2 + game % 3;
        let tables = Tables::new(LIMITS);
        let mut record =
            pb::TienlenGameRecord { hands: hands(&mut rng, players), base: rng.chance(0.3).then_some(5), ..Default::default() };
        // Some games start from a record already under way (any phase).
        let (viewer, suggest) = view(&mut rng, players as i32);
        let start = pb::TableStart {
            game: Some(pb::table_start::Game::Tienlen(pb::TienlenTable { rules: Some(rules), record: Some(record.clone()) })),
        };
        let got = step(&tables, request("t", pb::tables_request::Step::Start(start.clone()), viewer, suggest));
        same(&got, &tienlen_unary(&rules, &record, viewer, suggest), "start");
        if matches!(got.answer, Some(Answer::Error(_))) {
            // Refused for its view (a seat that is not one): not started.
            assert_eq!(tables.tables(), 0);
            let got = step(&tables, request("t", pb::tables_request::Step::Start(start), None, None));
            same(&got, &tienlen_unary(&rules, &record, None, None), "start");
        }
        let mut state = match tienlen_unary(&rules, &record, None, None) {
            Answer::Tienlen(s) => s,
            other => panic!("{other:?}"),
        };
        while !state.over {
            let (viewer, suggest) = view(&mut rng, players as i32);
            if rng.chance(0.2) {
                // An illegal (or unreadable) action: the unary error, the table unchanged.
                let a = wild_play(&mut rng, players as i32);
                let mut with = record.clone();
                with.actions.push(a.clone());
                let want = tienlen_unary(&rules, &with, viewer, suggest);
                let got = step(
                    &tables,
                    request("t", action_step(Some(record.actions.len()), pb::table_action::Action::Play(a)), viewer, suggest),
                );
                same(&got, &want, "an illegal action");
                if matches!(want, Answer::Error(_)) {
                    refused += 1;
                    assert_eq!(got.actions as usize, record.actions.len());
                    continue;
                }
                record = with; // it happened to be legal
            } else {
                let offers: Vec<&pb::PlayAction> = state.offers.iter().flat_map(|o| o.actions.iter()).collect();
                let a = offers[rng.below(offers.len())].clone();
                record.actions.push(a.clone());
                let at = rng.chance(0.5).then_some(record.actions.len() - 1);
                let got = step(&tables, request("t", action_step(at, pb::table_action::Action::Play(a)), viewer, suggest));
                let want = tienlen_unary(&rules, &record, viewer, suggest);
                same(&got, &want, "a legal action");
                if matches!(want, Answer::Error(_)) {
                    // Refused for its viewer: the table does not take the action.
                    record.actions.pop();
                }
                assert_eq!(got.actions as usize, record.actions.len());
            }
            steps += 1;
            if rng.chance(0.15) {
                let (viewer, suggest) = view(&mut rng, players as i32);
                let got = step(&tables, request("t", look(), viewer, suggest));
                same(&got, &tienlen_unary(&rules, &record, viewer, suggest), "a look");
            }
            state = match tienlen_unary(&rules, &record, None, None) {
                Answer::Tienlen(s) => s,
                other => panic!("{other:?}"),
            };
        }
        // Settle: as the unary Settle of the record deal (a base against the record's now and then).
        let base = rng.chance(0.5).then_some([1, 5, 7][rng.below(3)]);
        let deal = pb::TienlenDeal { base, carried: Vec::new(), deal: Some(pb::tienlen_deal::Deal::Record(record.clone())) };
        let req = pb::TienlenSettleRequest { rules: Some(rules), deals: vec![deal] };
        let want = unary_answer(Rpc::Settle, pb::SettleRequest { game: Some(pb::settle_request::Game::Tienlen(req)) }.encode_to_vec());
        let got = step(&tables, request("t", pb::tables_request::Step::Settle(pb::TableSettle { base, ..Default::default() }), None, None));
        same(&got, &want, "settle");
        games += 1;
    }
    assert!(games == 40 && steps > 1000 && refused > 100, "{games} games, {steps} steps, {refused} refused");
}

/// A random 打儲 step that is most likely illegal: a deal action, a call or a play.
fn wild_dachu(rng: &mut Rng) -> pb::table_action::Action {
    use pb::table_action::Action as A;
    match rng.below(3) {
        0 => {
            A::Deal(pb::DachuDealAction { kind: rng.below(7) as i32, seat: rng.below(5) as i32, colour: rng.below(3) as i32, cards: None })
        }
        1 => A::Call(pb::DachuCall { call: rng.below(8) as i32, seat: rng.below(5) as i32 }),
        _ => A::Play(wild_play(rng, 4)),
    }
}

fn push(record: &mut pb::DachuGameRecord, a: &pb::table_action::Action) {
    use pb::table_action::Action as A;
    match a.clone() {
        A::Deal(d) => record.deal_actions.push(d),
        A::Call(c) => record.calls.push(c),
        A::Play(p) => record.plays.push(p),
    }
}

fn pop(record: &mut pb::DachuGameRecord, a: &pb::table_action::Action) {
    use pb::table_action::Action as A;
    match a {
        A::Deal(_) => drop(record.deal_actions.pop()),
        A::Call(_) => drop(record.calls.pop()),
        A::Play(_) => drop(record.plays.pop()),
    }
}

/// The actions the seats may take now, ready to append (the offers; the deal's own steps
/// are the deal's legal actions).
fn dachu_legal(s: &pb::DachuGameState) -> Vec<pb::table_action::Action> {
    use pb::dachu_offer::Action as O;
    use pb::table_action::Action as A;
    let mut out: Vec<A> = s
        .offers
        .iter()
        .filter_map(|o| o.action.clone())
        .map(|o| match o {
            O::DealAction(d) => A::Deal(d),
            O::Call(c) => A::Call(c),
            O::Play(p) => A::Play(p),
        })
        .collect();
    if s.phase == pb::DachuPhase::Deal as i32 {
        for d in s.deal.iter().flat_map(|d| d.legal_actions.iter()) {
            if !out.contains(&A::Deal(d.clone())) {
                out.push(A::Deal(d.clone()));
            }
        }
    }
    out
}

fn count(r: &pb::DachuGameRecord) -> usize {
    r.deal_actions.len() + r.calls.len() + r.plays.len()
}

#[test]
fn dachu_tables_answer_as_the_unary_record_at_every_step() {
    use pb::table_action::Action as A;
    let _g = serial();
    let mut rng = Rng(0xDAC4_0001);
    let rules = pb::DachuRules::default();
    let (mut steps, mut refused, mut played, mut games) = (0, 0, 0, 0);
    for _ in 0..40 {
        let tables = Tables::new(LIMITS);
        let mut record = pb::DachuGameRecord { hands: hands(&mut rng, 4), first_seat: rng.below(4) as i32, ..Default::default() };
        let (viewer, suggest) = view(&mut rng, 4);
        let start = pb::TableStart {
            game: Some(pb::table_start::Game::Dachu(pb::DachuTable { rules: Some(rules), record: Some(record.clone()) })),
        };
        let got = step(&tables, request("d", pb::tables_request::Step::Start(start.clone()), viewer, suggest));
        same(&got, &dachu_unary(&rules, &record, viewer, suggest), "start");
        if matches!(got.answer, Some(Answer::Error(_))) {
            // Refused for its view (a seat that is not one): not started.
            assert_eq!(tables.tables(), 0);
            let got = step(&tables, request("d", pb::tables_request::Step::Start(start), None, None));
            same(&got, &dachu_unary(&rules, &record, None, None), "start");
        }
        loop {
            let state = match dachu_unary(&rules, &record, None, None) {
                Answer::Dachu(s) => s,
                other => panic!("{other:?}"),
            };
            let legal = dachu_legal(&state);
            if legal.is_empty() {
                break;
            }
            let (viewer, suggest) = view(&mut rng, 4);
            if rng.chance(0.2) {
                let a = wild_dachu(&mut rng);
                let mut with = record.clone();
                push(&mut with, &a);
                let want = dachu_unary(&rules, &with, viewer, suggest);
                let got = step(&tables, request("d", action_step(Some(count(&record)), a), viewer, suggest));
                same(&got, &want, "an illegal action");
                if matches!(want, Answer::Error(_)) {
                    refused += 1;
                    assert_eq!(got.actions as usize, count(&record));
                    continue;
                }
                record = with;
            } else {
                let a = legal[rng.below(legal.len())].clone();
                played += usize::from(matches!(a, A::Play(_)));
                push(&mut record, &a);
                let at = rng.chance(0.5).then_some(count(&record) - 1);
                let got = step(&tables, request("d", action_step(at, a.clone()), viewer, suggest));
                let want = dachu_unary(&rules, &record, viewer, suggest);
                same(&got, &want, "a legal action");
                if matches!(want, Answer::Error(_)) {
                    // Refused for its viewer: the table does not take the action.
                    pop(&mut record, &a);
                }
                assert_eq!(got.actions as usize, count(&record));
            }
            steps += 1;
            if rng.chance(0.15) {
                let (viewer, suggest) = view(&mut rng, 4);
                let got = step(&tables, request("d", look(), viewer, suggest));
                same(&got, &dachu_unary(&rules, &record, viewer, suggest), "a look");
            }
        }
        let base = rng.chance(0.5).then_some(3);
        let deal = pb::DachuDeal { base, deal: Some(pb::dachu_deal::Deal::Record(record.clone())), ..Default::default() };
        let req = pb::DachuSettleRequest { rules: Some(rules), deals: vec![deal] };
        let want = unary_answer(Rpc::Settle, pb::SettleRequest { game: Some(pb::settle_request::Game::Dachu(req)) }.encode_to_vec());
        let got = step(&tables, request("d", pb::tables_request::Step::Settle(pb::TableSettle { base, ..Default::default() }), None, None));
        same(&got, &want, "settle");
        assert!(matches!(got.answer, Some(Answer::DachuSettlement(_))), "{got:?}");
        games += 1;
    }
    assert!(
        games == 40 && steps > 1000 && refused > 100 && played > 500,
        "{games} games, {steps} steps, {refused} refused, {played} plays"
    );
}

fn tienlen_start(players: usize, rng: &mut Rng) -> pb::tables_request::Step {
    let record = pb::TienlenGameRecord { hands: hands(rng, players), ..Default::default() };
    pb::tables_request::Step::Start(pb::TableStart {
        game: Some(pb::table_start::Game::Tienlen(pb::TienlenTable { rules: None, record: Some(record) })),
    })
}

fn error_of(r: &pb::TablesResponse) -> (&str, i32) {
    match &r.answer {
        Some(Answer::Error(e)) => (e.field.as_str(), e.reason),
        other => panic!("not an error: {other:?}"),
    }
}

fn closed_of(r: &pb::TablesResponse) -> i32 {
    match &r.answer {
        Some(Answer::Closed(c)) => c.reason,
        other => panic!("not closed: {other:?}"),
    }
}

#[test]
fn a_step_at_another_count_is_refused_and_nothing_applied() {
    let _g = serial();
    let mut rng = Rng(3);
    let tables = Tables::new(LIMITS);
    let started = step(&tables, request("t", tienlen_start(4, &mut rng), None, None));
    let Some(Answer::Tienlen(s)) = started.answer else { panic!() };
    let a = s.offers[0].actions[0].clone();
    for at in [1, 7] {
        let got = step(&tables, request("t", action_step(Some(at), pb::table_action::Action::Play(a.clone())), None, None));
        assert_eq!(error_of(&got), ("action.at", pb::ErrorReason::Inconsistent as i32));
        assert_eq!(got.actions, 0);
    }
    let got = step(&tables, request("t", action_step(Some(0), pb::table_action::Action::Play(a.clone())), None, None));
    assert_eq!(got.actions, 1);
    // The same action resent at its count (a failover's resend) is not applied twice.
    let got = step(&tables, request("t", action_step(Some(0), pb::table_action::Action::Play(a)), None, None));
    assert_eq!((error_of(&got).0, got.actions), ("action.at", 1));
    // A 打儲 action on a 越式13张 table names its field.
    let call = pb::table_action::Action::Call(pb::DachuCall::default());
    assert_eq!(error_of(&step(&tables, request("t", action_step(None, call), None, None))).0, "action.call");
}

#[test]
fn unknown_tables_and_bad_names() {
    let _g = serial();
    let mut rng = Rng(4);
    let tables = Tables::new(LIMITS);
    let got = step(&tables, request("nope", look(), None, None));
    assert_eq!((closed_of(&got), got.table.as_str()), (pb::TableClosedReason::NotOpen as i32, "nope"));
    let Some(Answer::Closed(c)) = got.answer else { panic!() };
    assert_eq!(c.message, "no table \"nope\" on this stream: start it from its record");
    let long = "x".repeat(MAX_TABLE_NAME_BYTES + 1);
    assert_eq!(
        error_of(&step(&tables, request(&long, tienlen_start(2, &mut rng), None, None))),
        ("table", pb::ErrorReason::TooLarge as i32)
    );
    // A huge name is answered by its first 64 bytes (cut at a character), not echoed.
    let huge = "é".repeat(1 << 16);
    let got = step(&tables, request(&huge, look(), None, None));
    assert_eq!(got.table, "é".repeat(MAX_TABLE_NAME_BYTES / 2));
    assert_eq!(error_of(&step(&tables, request("", look(), None, None))), ("table", pb::ErrorReason::Invalid as i32));
    let max = "y".repeat(MAX_TABLE_NAME_BYTES);
    assert!(matches!(step(&tables, request(&max, tienlen_start(2, &mut rng), None, None)).answer, Some(Answer::Tienlen(_))));
    let got = step(&tables, request(&max, pb::tables_request::Step::Close(pb::TableClose {}), None, None));
    assert_eq!(closed_of(&got), pb::TableClosedReason::Closed as i32);
    assert_eq!(closed_of(&step(&tables, request(&max, look(), None, None))), pb::TableClosedReason::NotOpen as i32);
    // Not a TablesRequest at all: the call's error, no field.
    match tables.step(&[0xff, 0xff, 0xff], &Call::default(), None) {
        Err(Fail::Bad { field, .. }) => assert_eq!(field, ""),
        other => panic!("{other:?}"),
    }
    assert_eq!(error_of(&step(&tables, pb::TablesRequest { table: "t".into(), ..Default::default() })).0, "step");
}

#[test]
fn a_start_whose_record_sets_a_viewer_or_suggest_is_refused() {
    let _g = serial();
    let mut rng = Rng(5);
    let tables = Tables::new(LIMITS);
    let record = pb::TienlenGameRecord { hands: hands(&mut rng, 3), viewer: Some(0), ..Default::default() };
    let start = pb::tables_request::Step::Start(pb::TableStart {
        game: Some(pb::table_start::Game::Tienlen(pb::TienlenTable { rules: None, record: Some(record) })),
    });
    assert_eq!(
        error_of(&step(&tables, request("t", start, None, None))),
        ("start.tienlen.record.viewer", pb::ErrorReason::Inconsistent as i32)
    );
    let record = pb::DachuGameRecord { hands: hands(&mut rng, 4), suggest: Some(Default::default()), ..Default::default() };
    let start = pb::tables_request::Step::Start(pb::TableStart {
        game: Some(pb::table_start::Game::Dachu(pb::DachuTable { rules: None, record: Some(record) })),
    });
    assert_eq!(error_of(&step(&tables, request("d", start, None, None))).0, "start.dachu.record.suggest");
    assert_eq!(tables.tables(), 0);
}

/// The unary paths of the step's own viewer and suggest, renamed (the module doc).
#[test]
fn the_steps_viewer_and_suggest_are_named_as_the_request_fields() {
    let _g = serial();
    let mut rng = Rng(6);
    let tables = Tables::new(LIMITS);
    step(&tables, request("t", tienlen_start(3, &mut rng), None, None));
    assert_eq!(error_of(&step(&tables, request("t", look(), Some(3), None))), ("viewer", pb::ErrorReason::OutOfRange as i32));
    let huge = pb::SuggestQuery { effort: Some(65), ..Default::default() };
    assert_eq!(error_of(&step(&tables, request("t", look(), None, Some(huge)))).0, "suggest.effort");
    // Over the work budget: the unary call's `items`.
    let budget = Tables::new(TableLimits { call: Limits { max_work: 100, ..LIMITS.call }, ..LIMITS });
    step(&budget, request("t", tienlen_start(3, &mut rng), None, None));
    let search = pb::SuggestQuery { effort: Some(64), ..Default::default() };
    assert_eq!(error_of(&step(&budget, request("t", look(), None, Some(search)))), ("suggest", pb::ErrorReason::TooLarge as i32));
    // A start's bad rules.
    let record = pb::TienlenGameRecord { hands: hands(&mut rng, 3), ..Default::default() };
    let rules = pb::TienlenRules { rake_percent: Some(-1), ..Default::default() };
    let start = pb::tables_request::Step::Start(pb::TableStart {
        game: Some(pb::table_start::Game::Tienlen(pb::TienlenTable { rules: Some(rules), record: Some(record) })),
    });
    let got = step(&tables, request("u", start, None, None));
    assert!(error_of(&got).0.starts_with("start.tienlen.rules."), "{got:?}");
}

#[test]
fn tables_are_bounded_per_stream_and_per_process_and_counted() {
    let _g = serial();
    let mut rng = Rng(7);
    // Every test that opens tables holds `serial` and drops them: none is open now.
    let before = open_tables();
    assert_eq!(before, 0);
    let limits = TableLimits { max_tables: 3, max_open_tables: before + 5, ..LIMITS };
    let a = Tables::new(limits);
    for i in 0..3 {
        assert!(matches!(step(&a, request(&format!("t{i}"), tienlen_start(2, &mut rng), None, None)).answer, Some(Answer::Tienlen(_))));
    }
    let got = step(&a, request("t3", tienlen_start(2, &mut rng), None, None));
    assert_eq!(error_of(&got), ("start", pb::ErrorReason::TooLarge as i32));
    let Some(Answer::Error(e)) = &got.answer else { panic!() };
    assert!(e.message.contains("--max-stream-tables"), "{}", e.message);
    // A start of a held table replaces it: no new place taken.
    assert!(matches!(step(&a, request("t1", tienlen_start(3, &mut rng), None, None)).answer, Some(Answer::Tienlen(_))));
    assert_eq!((a.tables(), open_tables()), (3, before + 3));
    let b = Tables::new(limits);
    for i in 0..2 {
        step(&b, request(&format!("t{i}"), tienlen_start(2, &mut rng), None, None));
    }
    let got = step(&b, request("t2", tienlen_start(2, &mut rng), None, None));
    let Some(Answer::Error(e)) = &got.answer else { panic!("{got:?}") };
    assert!(e.field == "start" && e.message.contains("--max-tables"), "{e:?}");
    assert_eq!(open_tables(), before + 5);
    assert!(a.bytes() > 3 * std::mem::size_of::<handeval_core::tienlen::Game>(), "{}", a.bytes());
    // A failed start of a new table takes no place.
    let bad = pb::tables_request::Step::Start(pb::TableStart::default());
    step(&a, request("t9", pb::tables_request::Step::Close(pb::TableClose {}), None, None));
    assert_eq!(error_of(&step(&a, request("t9", bad, None, None))).0, "start");
    assert_eq!(open_tables(), before + 5);
    step(&a, request("t0", pb::tables_request::Step::Close(pb::TableClose {}), None, None));
    assert_eq!(open_tables(), before + 4);
    let expired = b.expire(Duration::ZERO);
    assert_eq!(expired.len(), 2);
    let r = pb::TablesResponse::decode(&expired[0][..]).unwrap();
    assert_eq!((closed_of(&r), r.actions), (pb::TableClosedReason::Idle as i32, 0));
    assert_eq!((b.tables(), open_tables()), (0, before + 2));
    assert!(a.expire(Duration::from_secs(3600)).is_empty());
    drop(a);
    assert_eq!(open_tables(), before);
    let c = Tables::new(limits);
    step(&c, request("t", tienlen_start(2, &mut rng), None, None));
    c.clear();
    assert_eq!((c.tables(), open_tables(), c.bytes()), (0, before, 0));
}

#[test]
fn a_cancelled_step_ends_the_call_and_leaves_the_table() {
    let _g = serial();
    let mut rng = Rng(8);
    let tables = Tables::new(LIMITS);
    let started = step(&tables, request("t", tienlen_start(4, &mut rng), None, None));
    let Some(Answer::Tienlen(s)) = started.answer else { panic!() };
    let call = Call::default();
    call.cancel();
    let a = pb::table_action::Action::Play(s.offers[0].actions[0].clone());
    let req = request("t", action_step(Some(0), a), None, Some(pb::SuggestQuery { effort: Some(4), ..Default::default() }));
    match tables.step(&req.encode_to_vec(), &call, None) {
        Err(Fail::Stopped { code, .. }) => assert_eq!(code, "CANCELLED"),
        other => panic!("{other:?}"),
    }
    assert_eq!(step(&tables, request("t", look(), None, None)).actions, 0);
}

#[test]
fn inline_steps_ask_no_search() {
    let mut rng = Rng(9);
    let plain = request("t", look(), Some(1), None).encode_to_vec();
    assert!(inline(&plain));
    assert!(inline(&request("t", look(), None, Some(pb::SuggestQuery { effort: Some(0), ..Default::default() })).encode_to_vec()));
    // The default effort is the heuristic alone.
    assert_eq!(inline(&request("t", look(), None, Some(pb::SuggestQuery::default())).encode_to_vec()), tl_default_effort() == 0);
    assert!(!inline(&request("t", look(), None, Some(pb::SuggestQuery { effort: Some(8), ..Default::default() })).encode_to_vec()));
    assert!(inline(&request("t", tienlen_start(4, &mut rng), None, None).encode_to_vec()));
    let mut big = pb::TienlenGameRecord { hands: hands(&mut rng, 4), ..Default::default() };
    big.actions = vec![pb::PlayAction { kind: pb::ActionKind::Pass as i32, ..Default::default() }; 200];
    let start = pb::tables_request::Step::Start(pb::TableStart {
        game: Some(pb::table_start::Game::Tienlen(pb::TienlenTable { rules: None, record: Some(big) })),
    });
    assert!(!inline(&request("t", start, None, None).encode_to_vec()));
}

fn tl_default_effort() -> u32 {
    handeval_core::tienlen::suggest::DEFAULT_EFFORT
}

/// With the process's turns, a step waits for one and answers the same.
#[test]
fn a_step_in_turns_answers_the_same() {
    let _g = serial();
    let mut rng = Rng(10);
    let turns = Turns::new(1, 1e-3);
    let (a, b) = (Tables::new(LIMITS), Tables::new(LIMITS));
    let start = tienlen_start(4, &mut rng);
    let search = Some(pb::SuggestQuery { effort: Some(2), seed: 3 });
    let plain = step(&a, request("t", start.clone(), Some(1), search));
    let req = request("t", start, Some(1), search).encode_to_vec();
    let out = b.step(&req, &Call::default(), Some(&turns)).unwrap();
    assert_eq!(pb::TablesResponse::decode(&out[..]).unwrap(), plain);
    assert_eq!(turns.free(), 1, "the turn is given back");
    let look = request("t", look(), Some(2), search).encode_to_vec();
    assert_eq!(b.step(&look, &Call::default(), Some(&turns)).unwrap(), a.step(&look, &Call::default(), None).unwrap());
}

/// A table whose step panicked (a bug) is not stepped again: the client restarts it.
#[test]
fn a_table_poisoned_by_a_panic_is_closed() {
    let _g = serial();
    let mut rng = Rng(11);
    let tables = Tables::new(LIMITS);
    step(&tables, request("t", tienlen_start(3, &mut rng), None, None));
    let table = tables.slots.lock().unwrap()["t"].table.clone();
    let poisoned = std::thread::spawn(move || {
        let _held = table.lock().unwrap();
        panic!("a step's bug");
    });
    assert!(poisoned.join().is_err());
    let got = step(&tables, request("t", look(), None, None));
    assert_eq!(closed_of(&got), pb::TableClosedReason::NotOpen as i32);
    assert_eq!((tables.tables(), open_tables()), (0, 0));
    assert!(matches!(step(&tables, request("t", tienlen_start(3, &mut rng), None, None)).answer, Some(Answer::Tienlen(_))));
}
