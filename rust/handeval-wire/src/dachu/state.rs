//! 打儲 results and states written as their `handeval.v2` messages, one conversion per
//! core type.

use crate::convert::{acting_msg, cards_msg};
use crate::enums::value_of;
use crate::pb;
use handeval_core::cards::Card;
use handeval_core::dachu::calling::side_name;
use handeval_core::dachu::calling::Call;
use handeval_core::dachu::game::PlayAction;
use handeval_core::dachu::view::{self, Action};
use handeval_core::dachu::{Calling, Chu, Deal, DealAction, Kind, Outcome, Replayed, Settlement};
use handeval_core::table::Offer;
use std::sync::OnceLock;

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

/// The deal as the table sees it (a `deal` item: every seat's cards, every action).
pub(super) fn deal_msg(d: &Deal) -> pb::DachuDealState {
    deal_view_msg(&view::DealView::new(d, &view::Sight::new(d, None, None).expect("the table's sight"), false))
}

fn cards_or_empty(c: &Option<Vec<Card>>) -> pb::Cards {
    cards_msg(c.as_deref().unwrap_or(&[]))
}

fn deal_view_msg(d: &view::DealView) -> pb::DachuDealState {
    let teams = match &d.chu_side {
        None => pb::DachuTeams::Unspecified,
        Some(s) if s.len() == 1 => pb::DachuTeams::OneVsThree,
        Some(_) => pb::DachuTeams::TwoVsTwo,
    };
    pb::DachuDealState {
        dealt: i32::from(d.dealt),
        finished: d.finished,
        chu: colour(d.chu),
        chu_source: d.chu_source.map_or(0, |s| value_of::<pb::DachuChuSource>(s.as_str())),
        chu_side: ints(d.chu_side.as_deref().unwrap_or_default()),
        teams: teams as i32,
        multiplier: d.multiplier,
        declared: d.declared,
        legal_actions: d.legal_actions.iter().map(deal_action_msg).collect(),
        first_leader: d.first_leader.map_or(-1, int),
        last_card: d.last_card.map_or(String::new(), |c| c.to_string()),
        held: d.held.iter().map(cards_or_empty).collect(),
        meng_xuan: d.meng_xuan.iter().map(|c| cards_msg(c.as_slice())).collect(),
        meng_chuai: d.meng_chuai.iter().map(|c| cards_msg(c.as_ref().map_or(&[][..], |t| &t[..]))).collect(),
        cheng_chu: d.cheng_chu.to_vec(),
        suggestion: None,
    }
}

/// The calling as the table sees it (a `calling` item).
pub(super) fn calling_msg(c: &Calling) -> pb::DachuCallingState {
    calling_view_msg(&view::CallingView::new(c, None))
}

fn call_msg(seat: usize, call: Call) -> pb::DachuCall {
    pb::DachuCall { call: value_of::<pb::DachuCallKind>(call.name()), seat: int(seat) }
}

fn calling_view_msg(v: &view::CallingView) -> pb::DachuCallingState {
    let c = &v.calling;
    let turn = c.turn();
    pb::DachuCallingState {
        turn: turn.map(int),
        legal_actions: turn.map_or(Vec::new(), |t| v.legal_calls.iter().map(|&k| call_msg(t, k)).collect()),
        multiplier: c.multiplier,
        over: c.is_over(),
        phase: value_of::<pb::DachuCallingPhase>(c.phase()),
        calling_side: c.calling_side().map_or(0, side),
        outcome: match c.outcome {
            None => 0,
            Some(Outcome::Play) => value_of::<pb::DachuCallingOutcome>("play"),
            Some(Outcome::Surrender { .. }) => value_of::<pb::DachuCallingOutcome>("surrender"),
        },
        chu_side: ints(&c.chu_side()),
        surrendered: ints(&c.surrendered()),
        bei_bao_da: ints(&c.bei_bao_da_seats()),
        playing: ints(&c.playing()),
        surrendered_side: match c.outcome {
            Some(Outcome::Surrender { side: s }) => side(s),
            _ => 0,
        },
        suggestion: None,
    }
}

/// A play action as the record holds it (a timeout without columns).
fn play_action_msg(a: &PlayAction) -> pb::PlayAction {
    let (kind, cards) = match a {
        PlayAction::Play { cards, .. } => (pb::ActionKind::Play, Some(cards_msg(cards))),
        PlayAction::Pass { .. } => (pb::ActionKind::Pass, None),
        PlayAction::Timeout { .. } => (pb::ActionKind::Timeout, None),
    };
    pb::PlayAction { seat: int(a.seat()), kind: kind as i32, cards, columns: Vec::new() }
}

/// A suggested play: a suggestion is never a timeout (a timeout the search weighs is the
/// pass it stands for).
fn suggest_action(a: &PlayAction) -> pb::PlayAction {
    match a {
        PlayAction::Timeout { seat, .. } => play_action_msg(&PlayAction::Pass { seat: *seat }),
        a => play_action_msg(a),
    }
}

/// Refuse an effort above the most a suggestion may take, named at `game.suggest.effort`.
pub(super) fn check_effort(q: Option<&pb::SuggestQuery>) -> Result<(), handeval_core::Error> {
    use handeval_core::dachu::suggest as sg;
    if let Some(e) = q.and_then(|q| q.effort).filter(|&e| e > sg::MAX_EFFORT) {
        return Err(handeval_core::Error::field("game.suggest.effort", format!("must be 0..{} (got {e})", sg::MAX_EFFORT))
            .because(handeval_core::Reason::OutOfRange));
    }
    Ok(())
}

/// The suggestion (托管) the record asked for, put where its phase's state holds it: for
/// the `viewer` when it is to decide, without a viewer for the seat to call or to move
/// (the deal has no turn: none). `between`: called inside a long search.
pub(super) fn add_suggestion(
    m: &mut pb::DachuGameState,
    r: &Replayed,
    viewer: Option<usize>,
    q: Option<&pb::SuggestQuery>,
    between: &dyn Fn() -> bool,
) -> Result<(), handeval_core::Error> {
    use handeval_core::dachu::suggest as sg;
    check_effort(q)?;
    let Some(q) = q else { return Ok(()) };
    let seat = match (viewer, r.phase()) {
        (Some(v), _) => Some(v),
        (None, view::Phase::Calling) => r.calling.as_ref().and_then(|c| c.turn()),
        (None, view::Phase::Play) => r.game.as_ref().and_then(|g| g.turn),
        (None, _) => None,
    };
    let Some(seat) = seat else { return Ok(()) };
    let Some(s) = r.suggest(seat, q.seed, q.effort.unwrap_or(sg::DEFAULT_EFFORT), between).map_err(|e| e.within("game.suggest"))? else {
        return Ok(());
    };
    match (r.phase(), s.action) {
        (view::Phase::Deal, action) => {
            let deal = |a: Option<Action>| match a {
                Some(Action::Deal(a)) => Some(deal_action_msg(&a)),
                _ => None,
            };
            let alternatives =
                s.alternatives.into_iter().map(|(a, score)| pb::DachuDealSuggestionAlternative { action: deal(a), score }).collect();
            if let Some(d) = m.deal.as_mut() {
                d.suggestion = Some(pb::DachuDealSuggestion { action: deal(action), alternatives });
            }
        }
        (view::Phase::Calling, Some(Action::Call { seat, call })) => {
            let alternatives = s
                .alternatives
                .into_iter()
                .filter_map(|(a, score)| match a {
                    Some(Action::Call { seat, call }) => {
                        Some(pb::DachuCallSuggestionAlternative { action: Some(call_msg(seat, call)), score })
                    }
                    _ => None,
                })
                .collect();
            if let Some(c) = m.calling.as_mut() {
                c.suggestion = Some(pb::DachuCallSuggestion { action: Some(call_msg(seat, call)), alternatives });
            }
        }
        (view::Phase::Play, Some(Action::Play(a))) => {
            let alternatives = s
                .alternatives
                .into_iter()
                .filter_map(|(x, score)| match x {
                    Some(Action::Play(x)) => Some(pb::SuggestionAlternative { action: Some(suggest_action(&x)), score }),
                    _ => None,
                })
                .collect();
            if let Some(p) = m.play.as_mut() {
                p.suggestion = Some(pb::Suggestion { action: Some(suggest_action(&a)), alternatives });
            }
        }
        _ => {}
    }
    Ok(())
}

fn play_view_msg(g: &view::PlayView) -> pb::DachuPlayState {
    let mut actions: Vec<pb::PlayAction> = match g.turn {
        Some(t) => g.legal_plays.iter().map(|p| play_action_msg(&PlayAction::Play { seat: t, cards: p.cards.clone() })).collect(),
        None => Vec::new(),
    };
    if let (Some(t), true) = (g.turn, g.may_pass) {
        actions.push(play_action_msg(&PlayAction::Pass { seat: t }));
    }
    pb::DachuPlayState {
        suggestion: None,
        to_move: g.turn.map(int),
        may_pass: g.may_pass,
        legal_plays: g.legal_plays.iter().map(|p| play_msg(p.play.kind, &p.cards)).collect(),
        table: g.table.as_ref().map(|(_, cards, p)| play_msg(p.kind, cards)),
        leader: g.leader.map_or(0, int),
        passed: ints(&g.passed),
        hands: g.held.iter().map(cards_or_empty).collect(),
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
        over: g.over,
        decided: g.surrender || g.decided.is_some(),
        verdict: g.decided.map_or(0, |(v, _)| value_of::<pb::DachuVerdict>(v.as_str())),
        wipe_out: g.decided.map(|(_, w)| w),
        table_seat: g.table.as_ref().map(|t| int(t.0)),
        auto_lead: g.auto_lead.map(int),
        shown_triples: g.shown.iter().map(|c| cards_msg(c.as_ref().map_or(&[][..], |t| &t[..]))).collect(),
        actions,
        timeouts: g
            .timeouts
            .iter()
            .map(|&k| pb::DachuTimeoutResult { action: int(k), became: Some(play_action_msg(&g.history[k])) })
            .collect(),
        card_counts: g.counts.iter().map(|&n| int(n)).collect(),
    }
}

fn offer_msg(o: &Offer<Action>) -> pb::DachuOffer {
    use pb::dachu_offer::Action as A;
    let action = match &o.action {
        Action::Deal(a) => A::DealAction(deal_action_msg(a)),
        Action::Call { seat, call } => A::Call(call_msg(*seat, *call)),
        Action::Play(p) => A::Play(play_action_msg(p)),
    };
    pb::DachuOffer { seat: int(o.seat), acting: acting_msg(o.acting), action: Some(action) }
}

/// The state of a record as `viewer` sees it (`None`: the table's, every card): the
/// core's view ([`Replayed::view`]) and offers, converted.
pub(super) fn game_msg(r: &Replayed, viewer: Option<usize>) -> Result<pb::DachuGameState, handeval_core::Error> {
    use pb::DachuPhase as P;
    let v = r.view(viewer)?;
    let multiplier = v.calling.as_ref().map_or(v.deal.multiplier, |c| c.calling.multiplier);
    Ok(pb::DachuGameState {
        phase: match v.phase {
            view::Phase::Deal => P::Deal,
            view::Phase::Calling => P::Calling,
            view::Phase::Play => P::Play,
            view::Phase::Over => P::Over,
        } as i32,
        chu: colour(v.deal.chu),
        multiplier,
        deal: Some(deal_view_msg(&v.deal)),
        calling: v.calling.as_ref().map(calling_view_msg),
        play: v.play.as_ref().map(play_view_msg),
        viewer: viewer.map(int),
        offers: v.offers.iter().map(offer_msg).collect(),
    })
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
