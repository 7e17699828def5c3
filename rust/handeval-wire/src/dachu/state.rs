//! 打儲 results and states written as their `handeval.v2` messages, one conversion per
//! core type.

use super::enums::value_of;
use crate::convert::cards_msg;
use crate::pb;
use handeval_core::cards::Card;
use handeval_core::dachu::calling::side_name;
use handeval_core::dachu::deal::SEATS;
use handeval_core::dachu::game::{Game, PlayAction};
use handeval_core::dachu::{Calling, Chu, Deal, DealAction, Kind, Outcome, Settlement};
use std::sync::OnceLock;

use handeval_core::dachu::Replayed;

/// A seat or an index as the protos' `int32` (seats 0..3, records of at most 208 actions).
fn int(i: usize) -> i32 {
    i as i32
}

fn ints(v: &[usize]) -> Vec<i32> {
    v.iter().map(|&i| int(i)).collect()
}

fn colour(chu: Option<Chu>) -> i32 {
    chu.map_or(0, |c| value_of::<pb::DachuColour>(c.as_str()))
}

fn side(s: usize) -> i32 {
    value_of::<pb::DachuSide>(side_name(s))
}

/// A play: its kind's value (looked up once per kind) and its cards.
pub(super) fn play_msg(kind: Kind, cards: &[Card]) -> pb::DachuPlay {
    static KINDS: OnceLock<Vec<i32>> = OnceLock::new();
    let kinds = KINDS.get_or_init(|| Kind::ALL.iter().map(|k| value_of::<pb::DachuPlayKind>(k.name())).collect());
    let i = Kind::ALL.iter().position(|&k| k == kind).expect("a kind of Kind::ALL");
    pb::DachuPlay { kind: kinds[i], cards: Some(cards_msg(cards)) }
}

fn deal_action_msg(a: &DealAction) -> pb::DachuDealAction {
    let kind = value_of::<pb::DachuDealActionKind>(a.name());
    let mut m = pb::DachuDealAction { kind, ..Default::default() };
    match a {
        DealAction::Deal | DealAction::Finish => {}
        DealAction::ChengChu { seat, chu } => {
            m.seat = int(*seat);
            m.colour = colour(Some(*chu));
        }
        DealAction::MengXuan { seat, card } => {
            m.seat = int(*seat);
            m.cards = Some(cards_msg(&[*card]));
        }
        DealAction::MengChuai { seat, cards } => {
            m.seat = int(*seat);
            m.cards = Some(cards_msg(cards));
        }
    }
    m
}

pub(super) fn deal_msg(d: &Deal) -> pb::DachuDealState {
    let chu_side = d.chu_side();
    let teams = match &chu_side {
        None => pb::DachuTeams::Unspecified,
        Some(s) if s.len() == 1 => pb::DachuTeams::OneVsThree,
        Some(_) => pb::DachuTeams::TwoVsTwo,
    };
    pb::DachuDealState {
        dealt: i32::from(d.dealt),
        finished: d.finished,
        chu: colour(d.chu),
        chu_source: d.chu_source.map_or(0, |s| value_of::<pb::DachuChuSource>(s.as_str())),
        chu_side: ints(&chu_side.unwrap_or_default()),
        teams: teams as i32,
        multiplier: d.multiplier,
        declared: d.declared(),
        legal_actions: d.legal_actions().iter().map(deal_action_msg).collect(),
        first_leader: int(d.first_leader()),
        last_card: d.dealt_last_card().map_or(String::new(), |c| c.to_string()),
        held: (0..SEATS).map(|s| cards_msg(d.held(s))).collect(),
        meng_xuan: d.meng_xuan.iter().map(|c| cards_msg(c.as_slice())).collect(),
        meng_chuai: d.meng_chuai.iter().map(|c| cards_msg(c.as_ref().map_or(&[][..], |t| &t[..]))).collect(),
        cheng_chu: d.cheng_chu.to_vec(),
    }
}

pub(super) fn calling_msg(c: &Calling) -> pb::DachuCallingState {
    let turn = c.turn();
    let chu_side = c.chu_side();
    pb::DachuCallingState {
        turn: turn.map(int),
        legal_actions: turn.map_or(Vec::new(), |t| {
            c.legal_calls().iter().map(|k| pb::DachuCall { call: value_of::<pb::DachuCallKind>(k.name()), seat: int(t) }).collect()
        }),
        multiplier: c.multiplier,
        over: c.is_over(),
        phase: value_of::<pb::DachuCallingPhase>(c.phase()),
        calling_side: c.calling_side().map_or(0, side),
        outcome: match c.outcome {
            None => 0,
            Some(Outcome::Play) => value_of::<pb::DachuCallingOutcome>("play"),
            Some(Outcome::Surrender { .. }) => value_of::<pb::DachuCallingOutcome>("surrender"),
        },
        chu_side: ints(&chu_side),
        surrendered: ints(&c.surrendered()),
        bei_bao_da: ints(&c.bei_bao_da_seats()),
        playing: ints(&c.playing()),
        surrendered_side: match c.outcome {
            Some(Outcome::Surrender { side: s }) => side(s),
            _ => 0,
        },
    }
}

fn play_action_msg(a: &PlayAction) -> pb::PlayAction {
    let (kind, cards) = match a {
        PlayAction::Play { cards, .. } => (pb::ActionKind::Play, Some(cards_msg(cards))),
        PlayAction::Pass { .. } => (pb::ActionKind::Pass, None),
        PlayAction::Timeout { .. } => (pb::ActionKind::Timeout, None),
    };
    pb::PlayAction { seat: int(a.seat()), kind: kind as i32, cards, columns: Vec::new() }
}

fn suggest_action(a: &handeval_core::dachu::PlayAction) -> pb::PlayAction {
    use handeval_core::dachu::PlayAction as A;
    match a {
        A::Play { seat, cards } => {
            pb::PlayAction { seat: int(*seat), kind: pb::ActionKind::Play as i32, cards: Some(cards_msg(cards)), columns: Vec::new() }
        }
        A::Pass { seat } | A::Timeout { seat, .. } => {
            pb::PlayAction { seat: int(*seat), kind: pb::ActionKind::Pass as i32, cards: None, columns: Vec::new() }
        }
    }
}

/// The suggestion (托管) for the seat to move in the play, when the record asked for it.
/// `between`: called inside a long search (the call's turn on the compute threads).
pub(super) fn suggestion(
    g: &Game,
    q: Option<&pb::SuggestQuery>,
    between: &dyn Fn(),
) -> Result<Option<pb::Suggestion>, handeval_core::Error> {
    use handeval_core::dachu::suggest as sg;
    if let Some(e) = q.and_then(|q| q.effort).filter(|&e| e > sg::MAX_EFFORT) {
        return Err(handeval_core::Error::field("game.suggest.effort", format!("must be 0..{} (got {e})", sg::MAX_EFFORT))
            .because(handeval_core::Reason::OutOfRange));
    }
    let (Some(q), Some(t)) = (q, g.turn) else { return Ok(None) };
    let s = sg::suggest_yielding(&sg::View::new(g, t)?, q.seed, q.effort.unwrap_or(sg::DEFAULT_EFFORT), between)
        .map_err(|e| e.within("game.suggest"))?;
    let alternatives =
        s.alternatives.iter().map(|x| pb::SuggestionAlternative { action: Some(suggest_action(&x.action)), score: x.score }).collect();
    Ok(Some(pb::Suggestion { action: Some(suggest_action(&s.action)), alternatives }))
}

fn play_state(g: &Game) -> pb::DachuPlayState {
    let decided = g.decided();
    let legal = g.legal_plays();
    let mut actions: Vec<pb::PlayAction> = match g.turn {
        Some(t) => legal
            .iter()
            .map(|p| pb::PlayAction {
                seat: int(t),
                kind: pb::ActionKind::Play as i32,
                cards: Some(cards_msg(&p.cards)),
                columns: Vec::new(),
            })
            .collect(),
        None => Vec::new(),
    };
    if let (Some(t), true) = (g.turn, g.may_pass()) {
        actions.push(play_action_msg(&PlayAction::Pass { seat: t }));
    }
    pb::DachuPlayState {
        suggestion: None,
        to_move: g.turn.map(int),
        may_pass: g.may_pass(),
        legal_plays: legal.iter().map(|p| play_msg(p.play.kind, &p.cards)).collect(),
        table: g.table.as_ref().map(|(_, cards, p)| play_msg(p.kind, cards)),
        leader: g.leader.map_or(0, int),
        passed: ints(&g.passed_seats()),
        hands: (0..SEATS).map(|s| cards_msg(g.held(s))).collect(),
        places: ints(&g.places),
        tricks: g
            .tricks
            .iter()
            .map(|t| pb::DachuTrick {
                leader: int(t.leader),
                first_action: int(t.first_action),
                last_action: int(t.last_action),
                over: t.over,
                won_by: t.won_by.map(int),
            })
            .collect(),
        over: g.is_over(),
        decided: g.surrender || decided.is_some(),
        verdict: decided.map_or(0, |(v, _)| value_of::<pb::DachuVerdict>(v.as_str())),
        wipe_out: decided.map(|(_, w)| w),
        table_seat: g.table.as_ref().map(|t| int(t.0)),
        auto_lead: g.auto_lead.map(int),
        shown_triples: g.shown.iter().map(|c| cards_msg(c.as_ref().map_or(&[][..], |t| &t[..]))).collect(),
        actions,
        timeouts: g
            .timeouts
            .iter()
            .map(|(k, _)| pb::DachuTimeoutResult { action: int(*k), became: Some(play_action_msg(&g.history[*k])) })
            .collect(),
        card_counts: (0..SEATS).map(|s| int(g.held(s).len())).collect(),
    }
}

/// The whole state of a record; with a `viewer`, only what that seat may see (its own
/// cards and legal actions; see docs/grpc.md "Seat views").
pub(super) fn game_msg(r: &Replayed, viewer: Option<usize>) -> pb::DachuGameState {
    let mut m = full_game_msg(r);
    if let Some(v) = viewer {
        hide_from(&mut m, r, v);
    }
    m
}

/// Empties, in a state `m` of the record `r`, every card and choice seat `v` may not see.
fn hide_from(m: &mut pb::DachuGameState, r: &Replayed, v: usize) {
    m.viewer = Some(int(v));
    let hide_cards = |cards: &mut Vec<pb::Cards>| {
        for (s, c) in cards.iter_mut().enumerate() {
            if s != v {
                *c = pb::Cards::default();
            }
        }
    };
    if let Some(d) = m.deal.as_mut() {
        hide_cards(&mut d.held);
        // Declarations open to another seat would show its cards; DEAL and FINISH are
        // everyone's.
        d.legal_actions.retain(|a| {
            a.seat == int(v)
                || matches!(pb::DachuDealActionKind::try_from(a.kind), Ok(pb::DachuDealActionKind::Deal | pb::DachuDealActionKind::Finish))
        });
        // Who holds the 3h is public when the play begins.
        let holds_3h = r.deal.held(v).contains(&handeval_core::dachu::play::THREE_OF_HEARTS);
        if r.game.is_none() && !holds_3h {
            d.first_leader = -1;
        }
    }
    if let Some(c) = m.calling.as_mut() {
        if c.turn != Some(int(v)) {
            c.legal_actions.clear();
        }
    }
    if let Some(p) = m.play.as_mut() {
        hide_cards(&mut p.hands);
        if p.to_move != Some(int(v)) {
            p.legal_plays.clear();
            p.actions.clear();
            p.may_pass = false;
        }
    }
}

fn full_game_msg(r: &Replayed) -> pb::DachuGameState {
    use pb::DachuPhase as Phase;
    let d = &r.deal;
    let mut m = pb::DachuGameState {
        phase: Phase::Deal as i32,
        deal: Some(deal_msg(d)),
        calling: None,
        play: None,
        chu: colour(d.chu),
        multiplier: d.multiplier,
        viewer: None,
    };
    let Some(c) = &r.calling else { return m };
    m.calling = Some(calling_msg(c));
    m.multiplier = c.multiplier;
    let phase = match &r.game {
        None if c.is_over() => Phase::Over,
        None => Phase::Calling,
        Some(g) => {
            m.play = Some(play_state(g));
            if g.is_over() {
                Phase::Over
            } else {
                Phase::Play
            }
        }
    };
    m.phase = phase as i32;
    m
}

impl From<&Settlement> for pb::DachuSettlement {
    fn from(s: &Settlement) -> Self {
        pb::DachuSettlement {
            deltas: s.deltas.clone(),
            lines: s
                .lines
                .iter()
                .map(|l| pb::DachuLine {
                    kind: value_of::<pb::DachuLineKind>(l.kind),
                    seat: int(l.seat),
                    other: None,
                    amount: l.amount,
                    text: l.text.clone(),
                })
                .collect(),
            verdict: s.verdict.map_or(0, |v| value_of::<pb::DachuVerdict>(v.as_str())),
            wipe_out: s.wipe_out,
            result_multiplier: s.result_multiplier,
            theoretical: s.theoretical.clone(),
        }
    }
}
