//! 越式13张 requests and answers on the wire: decoded from and encoded to
//! their `handeval.v2` messages here, from the core's types (docs/rules.md §2): plays,
//! instant wins, legal plays, the first leader, a round's state, a whole game record's
//! state (the game flow, stateless: the client sends the record), beating, settlement.

use crate::call::Ctx;
use crate::convert::wire_rules;
use crate::convert::{acting_msg, cards, cards_msg, rename};
use crate::enums::value_of;
use crate::fail::{only, reason_value, Fail, ItemFail};
use crate::pb;
use handeval_core::cards::Card;
use handeval_core::tienlen::{self as tl, Action, Kind};
use handeval_core::{Error, Reason};
use std::sync::OnceLock;

/// Rounds an outcome's chop list can hold: each round holds a play, 52 cards.
const MAX_CHOP_ROUNDS: usize = 52;

// ---- rules and enums ----

handeval_core::tienlen_rule_options!(wire_rules! {
    pub fn rules(pb::TienlenRules) -> tl::Rules;
});

/// The proto value of each play kind (by `Kind as usize`), looked up once.
fn kind_value(k: Kind) -> i32 {
    static VALUES: OnceLock<Vec<i32>> = OnceLock::new();
    VALUES.get_or_init(|| Kind::ALL.iter().map(|k| value_of::<pb::TienlenPlayKind>(k.name())).collect())[k as usize]
}

fn instant_value(w: Option<tl::InstantWin>) -> i32 {
    w.map_or(0, |w| value_of::<pb::TienlenInstantWinKind>(w.name()))
}

fn play_msg(p: &tl::Play) -> pb::TienlenPlay {
    pb::TienlenPlay { kind: kind_value(p.kind()), cards: Some(cards_msg(&p.cards)) }
}

/// A seat index as the protos' `int32` (at most 4 seats).
fn seat(i: usize) -> i32 {
    i as i32
}

fn transfer_msg(t: &tl::Transfer) -> pb::Transfer {
    pb::Transfer { from_seat: seat(t.from), to_seat: seat(t.to), amount: t.amount }
}

impl From<&tl::Settlement> for pb::TienlenSettlement {
    fn from(s: &tl::Settlement) -> Self {
        pb::TienlenSettlement {
            deltas: s.deltas.clone(),
            rake: s.rake,
            transfers: Vec::new(),
            lines: s
                .lines
                .iter()
                .map(|l| pb::TienlenLine {
                    kind: value_of::<pb::TienlenLineKind>(l.kind.name()),
                    seat: seat(l.seat),
                    other: l.other.map(seat),
                    amount: l.amount,
                    text: l.text.clone(),
                    multiplier: l.multiplier,
                    cards: Some(cards_msg(&l.cards)),
                })
                .collect(),
            winner: seat(s.winner),
            pays: s.pays.clone(),
            chops: s.chops.clone(),
            theoretical: s.theoretical.clone(),
            capped: s.capped.clone(),
            instant: s.instant.iter().map(|&w| instant_value(w)).collect(),
        }
    }
}

// ---- actions ----

/// A PlayAction's cards (the tokens, unparsed) or `None` for a pass; a pass with cards,
/// or a kind 越式13张 has not, is refused naming `field`.
fn raw_action<'a>(a: &'a pb::PlayAction, field: &str) -> Result<RawAction<'a>, Error> {
    let tokens = a.cards.as_ref().map_or(&[][..], |c| &c.cards[..]);
    if !a.columns.is_empty() {
        return Err(Error::field(format!("{field}.columns"), "columns belong to a 打儲 timeout (越式13张 has no timeout action)")
            .because(Reason::Inconsistent));
    }
    if a.kind == pb::ActionKind::Play as i32 {
        return Ok((a.seat, Some(tokens)));
    }
    if a.kind == pb::ActionKind::Pass as i32 {
        if !tokens.is_empty() {
            return Err(Error::field(format!("{field}.cards"), "a pass holds no cards").because(Reason::Inconsistent));
        }
        return Ok((a.seat, None));
    }
    Err(Error::field(format!("{field}.kind"), "set ACTION_KIND_PLAY or ACTION_KIND_PASS (越式13张 has no timeout action)"))
}

/// An action as sent: its seat and its cards' tokens (None: a pass).
type RawAction<'a> = (i32, Option<&'a [String]>);

fn raw_actions<'a>(actions: &'a [pb::PlayAction], field: &str) -> Result<Vec<RawAction<'a>>, Error> {
    actions.iter().enumerate().map(|(k, a)| raw_action(a, &format!("{field}[{k}]")).map_err(|e| e.at_action(k))).collect()
}

/// A seat number, named `field` when negative.
fn seat_from(v: i32, field: &str) -> Result<usize, Error> {
    tl::rules::seat_number(v.into(), field)
}

/// The core action of a play's tokens (`None`: pass); an error names `field`.
fn action_from(tokens: Option<&[String]>, field: &str) -> Result<Action, Error> {
    let Some(tokens) = tokens else { return Ok(Action::Pass) };
    let cards = handeval_core::cards::parse_tokens(tokens).map_err(|e| e.within(field))?;
    if cards.is_empty() {
        return Err(Error::field(field, "an empty play: write \"pass\" to pass").because(Reason::NotAPlay));
    }
    Ok(Action::Play(cards))
}

/// The round's actions as the core takes them, each named `field[i]` (its parts
/// `field[i].seat`, `field[i].cards`).
fn round_from(raw: &[(i32, Option<&[String]>)], field: &str) -> Result<Vec<(usize, Action)>, Error> {
    raw.iter()
        .enumerate()
        .map(|(i, &(s, a))| {
            let f = format!("{field}[{i}]");
            Ok((
                seat_from(s, &format!("{f}.seat")).map_err(|e| e.at_action(i))?,
                action_from(a, &format!("{f}.cards")).map_err(|e| e.at_action(i))?,
            ))
        })
        .collect()
}

fn hand_list(hands: &[pb::Cards], field: &str) -> Result<Vec<Vec<Card>>, Error> {
    hands.iter().enumerate().map(|(i, h)| cards(Some(h)).map_err(|e| e.within(&format!("{field}[{i}]")))).collect()
}

// ---- Evaluate ----

fn round_state(q: &pb::TienlenRoundQuery, rules: &tl::Rules) -> Result<pb::TienlenRoundState, Error> {
    let raw = raw_actions(&q.actions, "round_state.actions")?;
    let players = if q.players != 0 {
        q.players as i64
    } else if !q.hands.is_empty() {
        q.hands.len() as i64
    } else {
        tl::rules::MAX_PLAYERS as i64
    };
    // The game's first round: its first leader and the card its first play must contain.
    let mut first = None;
    if !q.hands.is_empty() {
        if q.hands.len() as i64 != players {
            return Err(Error::field("round_state.hands", format!("{} hands for {players} players: send one per seat", q.hands.len()))
                .because(Reason::WrongCount));
        }
        let at_hands = |mut e: Error| {
            e.field = Some("round_state.hands".into());
            e
        };
        let hands = hand_list(&q.hands, "hands").map_err(at_hands)?;
        first = Some(tl::first_leader(&hands).map_err(at_hands)?);
    }
    let renames = [
        ("round", "round_state.actions"),
        ("first_lead", "round_state.hands"),
        ("seat", "round_state.check.seat"),
        ("action", "round_state.check"),
        ("players", "round_state.players"),
        ("leader", "round_state.leader"),
    ];
    let st = (|| {
        let actions = round_from(&raw, "round")?;
        let players = tl::rules::players_arg(players)?;
        let mut leader = q.leader.map(|l| seat_from(l, "leader")).transpose()?;
        let mut must = None;
        if let Some(first) = first {
            let (l, m) = tl::first_round(leader, first, rules.first_lead_must_contain_lowest)?;
            (leader, must) = (Some(l), m);
        }
        tl::RoundState::replay(players, leader, must, &actions, rules)
    })();
    let st = st.map_err(|e| rename(e, &renames, ""))?;
    let mut check = None;
    if let Some(c) = &q.check {
        let (s, a) = raw_action(c, "round_state.check")?;
        let outcome = (|| {
            let s = seat_from(s, "seat")?;
            let a = action_from(a, "action")?;
            st.check_reason(s, &a)
        })()
        .map_err(|e| rename(e, &renames, ""))?;
        check = Some(match outcome {
            Ok(_) => pb::TienlenCheck { allowed: true, reason: 0, message: String::new() },
            // The core's reason (NOT_YOUR_TURN, DOES_NOT_BEAT, ILLEGAL_ACTION, GAME_OVER).
            Err(why) => pb::TienlenCheck { allowed: false, reason: reason_value(why.reason), message: why.message },
        });
    }
    let transfers = st.chop_transfers(q.base.unwrap_or(1)).map_err(|e| rename(e, &renames, ""))?;
    Ok(pb::TienlenRoundState {
        plays: st.plays.iter().map(|(s, p)| pb::TienlenSeatPlay { seat: seat(*s), play: Some(play_msg(p)) }).collect(),
        passed: (0..st.players).filter(|&s| st.passed[s]).map(seat).collect(),
        to_move: st.to_move.map(seat),
        over: st.is_over(),
        next_leader: st.next_leader().map(seat),
        leader: seat(st.leader),
        transfers: transfers.iter().map(transfer_msg).collect(),
        check,
    })
}

/// Replay a game record by the core's [`tl::Game::replay`] (its bound, its flow); an
/// action the record does not allow is an error at `field.actions[k]…` with the core's
/// reason.
fn replay(record: &pb::TienlenGameRecord, rules: &tl::Rules, field: &str) -> Result<tl::Game, Error> {
    let hands_field = format!("{field}.hands");
    let actions_field = format!("{field}.actions");
    let at_hands = |e: Error| rename(e, &[("hands", &hands_field)], "");
    tl::check_hands_len(record.hands.len()).map_err(at_hands)?;
    let hands = hand_list(&record.hands, "hands").map_err(at_hands)?;
    let actions = round_from(&raw_actions(&record.actions, &actions_field)?, &actions_field)?;
    tl::Game::replay(&hands, &actions, rules).map_err(|e| rename(e, &[("hands", &hands_field), ("actions", &actions_field)], ""))
}

/// The game `g` with the record's next action `a` applied (a table stream's step), or
/// None when `a` cannot be read or the game refuses it: the whole record's replay
/// ([`game_item`]) then names why, as the unary call does.
pub(crate) fn apply_action(g: &tl::Game, a: &pb::PlayAction) -> Option<tl::Game> {
    let (seat, tokens) = raw_action(a, "").ok()?;
    let seat = seat_from(seat, "seat").ok()?;
    let action = action_from(tokens, "cards").ok()?;
    let mut next = g.clone();
    next.apply_mut(seat, &action).ok()?;
    Some(next)
}

/// A legal play as the action that makes it, ready to append to the record.
fn play_action_msg(s: usize, p: &tl::Play) -> pb::PlayAction {
    pb::PlayAction { seat: seat(s), kind: pb::ActionKind::Play as i32, cards: Some(cards_msg(&p.cards)), columns: Vec::new() }
}

fn offer_msg(o: &tl::OfferGroup) -> pb::TienlenOffer {
    let mut actions: Vec<pb::PlayAction> = o.plays.iter().map(|p| play_action_msg(o.seat, p)).collect();
    if o.may_pass {
        actions.push(pb::PlayAction { seat: seat(o.seat), kind: pb::ActionKind::Pass as i32, cards: None, columns: Vec::new() });
    }
    pb::TienlenOffer {
        seat: seat(o.seat),
        may_pass: o.may_pass,
        plays: o.plays.iter().map(play_msg).collect(),
        actions,
        acting: acting_msg(o.acting),
    }
}

/// A record's `game` item (the Evaluate item and a table's start): the record replayed
/// ([`replay`]) and its state as `viewer` sees it with the `suggest` asked (the record's
/// own, or a table step's), see [`state_of`].
pub(crate) fn game_item(
    record: &pb::TienlenGameRecord,
    rules: &tl::Rules,
    viewer: Option<i32>,
    suggest: Option<&pb::SuggestQuery>,
    between: &dyn Fn() -> bool,
) -> Result<(tl::Game, pb::TienlenGameState), Error> {
    let g = replay(record, rules, "game")?;
    let state = state_of(&g, viewer, suggest, record.base, rules, between)?;
    Ok((g, state))
}

/// The state of a replayed game as the core's view gives it: the `viewer`'s
/// ([`tl::Game::view`]), or the table's with no viewer, and the suggestion `suggest`
/// asks; `base`: the record's. Errors name the record's fields (`game.viewer`,
/// `game.suggest.effort`, `game.base`). `between`: called inside a long suggestion search
/// (the call's turn on the compute threads).
pub(crate) fn state_of(
    g: &tl::Game,
    viewer: Option<i32>,
    suggest: Option<&pb::SuggestQuery>,
    base: Option<i64>,
    rules: &tl::Rules,
    between: &dyn Fn() -> bool,
) -> Result<pb::TienlenGameState, Error> {
    let view = match viewer {
        None => g.table_view(),
        Some(v) => g.view(g.seat_from(v.into(), "game.viewer")?)?,
    };
    let base = base.unwrap_or(1);
    let amount = |value: i64| {
        handeval_core::money::mul(value, base, "chop payment").map_err(|e| Error::field("game.base", e.message).because(Reason::OutOfRange))
    };
    let transfer =
        |&(from, to, value): &(usize, usize, i64)| Ok(pb::Transfer { from_seat: seat(from), to_seat: seat(to), amount: amount(value)? });
    let transfers = view.chops.iter().map(transfer).collect::<Result<Vec<_>, Error>>()?;
    let tricks = view
        .tricks
        .iter()
        .map(|t| {
            Ok(pb::TienlenTrick {
                leader: seat(t.leader),
                first_action: t.first_action as i32,
                last_action: t.last_action as i32,
                over: t.over,
                won_by: t.won_by.map(seat),
                transfers: t.chop.iter().map(transfer).collect::<Result<Vec<_>, Error>>()?,
            })
        })
        .collect::<Result<Vec<_>, Error>>()?;
    // The seat the suggestion is for: the viewer when it has a decision, else the seat to move.
    let decider = match view.viewer {
        Some(v) => g.decides(v).then_some(v),
        None => view.turn,
    };
    Ok(pb::TienlenGameState {
        over: view.over,
        winner: view.winner.map(seat),
        to_move: view.turn.map(seat),
        offers: view.offer_groups().iter().map(offer_msg).collect(),
        table: view.table.as_ref().map(|(_, p)| play_msg(p)),
        leader: view.leader.map_or(0, seat),
        passed: view.passed.iter().copied().map(seat).collect(),
        hands: view.held.iter().map(|h| h.as_deref().map_or_else(pb::Cards::default, cards_msg)).collect(),
        played_any: view.played_any.clone(),
        tricks,
        transfers,
        first_lead: Some(pb::TienlenFirstLead {
            seat: seat(view.first_lead_seat),
            card: view.first_lead_card.map_or(String::new(), |c| c.to_string()),
            must_contain: rules.first_lead_must_contain_lowest,
        }),
        instant: instant_value(view.instant),
        table_seat: view.table.as_ref().map(|t| seat(t.0)),
        round: view.round as i32,
        must_contain: view.must_contain.map_or(String::new(), |c| c.to_string()),
        card_counts: view.counts.iter().map(|&n| n as i32).collect(),
        viewer: view.viewer.map(seat),
        suggestion: suggestion(g, decider, suggest, between)?,
    })
}

fn suggest_action(seat: usize, a: &Action) -> pb::PlayAction {
    match a {
        Action::Play(c) => pb::PlayAction {
            seat: seat as i32,
            kind: pb::ActionKind::Play as i32,
            cards: Some(cards_msg(&tl::sorted(c))),
            columns: Vec::new(),
        },
        Action::Pass => pb::PlayAction { seat: seat as i32, kind: pb::ActionKind::Pass as i32, cards: None, columns: Vec::new() },
    }
}

/// The suggestion (托管) for `decider` (a seat with a decision), when the record asked for
/// it. For a chop out of turn an alternative without an action is letting the chance go.
fn suggestion(
    g: &tl::Game,
    decider: Option<usize>,
    q: Option<&pb::SuggestQuery>,
    between: &dyn Fn() -> bool,
) -> Result<Option<pb::Suggestion>, Error> {
    if let Some(e) = q.and_then(|q| q.effort).filter(|&e| e > tl::suggest::MAX_EFFORT) {
        return Err(handeval_core::Error::field("game.suggest.effort", format!("must be 0..{} (got {e})", tl::suggest::MAX_EFFORT))
            .because(handeval_core::Reason::OutOfRange));
    }
    let (Some(q), Some(t)) = (q, decider) else { return Ok(None) };
    let view = tl::suggest::View::new(g, t)?;
    let s = tl::suggest::suggest_yielding(&view, q.seed, q.effort.unwrap_or(tl::suggest::DEFAULT_EFFORT), between)
        .map_err(|e| e.within("game.suggest"))?;
    let action = s.action.as_ref().map(|a| suggest_action(t, a));
    let alternatives = s
        .alternatives
        .iter()
        .map(|x| pb::SuggestionAlternative { action: x.action.as_ref().map(|a| suggest_action(t, a)), score: x.score })
        .collect();
    Ok(Some(pb::Suggestion { action, alternatives }))
}

/// Records longer than 52 cards allow fail the request (TOO_LARGE) before any work: a
/// game record's actions, a round's actions, an outcome's chop rounds.
/// `field()` is built only when the list is over its bound.
fn over(ctx: &Ctx, field: impl FnOnce() -> String, n: usize, limit: usize, what: &str) -> Result<(), Fail> {
    if n > limit {
        return Err(ctx.bad(&field(), format!("{n} {what} exceed the {limit} that 52 cards allow"), Reason::TooLarge));
    }
    Ok(())
}

/// The effort a record's `suggest` asks (unset: the default), as the work budget counts it.
fn effort(q: Option<&pb::SuggestQuery>) -> Option<u32> {
    q.map(|q| q.effort.unwrap_or(tl::suggest::DEFAULT_EFFORT))
}

/// The checks, before any work, of an Evaluate whose one item is a `game` record of
/// `actions` actions asking `suggest`: what [`evaluate`] checks of such a call, in its
/// order (the batch, the record's bound, the work budget; the rules are read after).
/// A table stream's start and steps are priced so.
pub(crate) fn game_call_checks(ctx: &Ctx, actions: usize, suggest: Option<&pb::SuggestQuery>) -> Result<(), Fail> {
    ctx.batch("items", 1, 1)?;
    over(ctx, || "items[0].game.actions".to_string(), actions, tl::MAX_ACTIONS, "actions")?;
    ctx.suggestions("items", 1, effort(suggest).into_iter())
}

pub(crate) fn evaluate(req: pb::TienlenEvaluateRequest, ctx: &Ctx) -> Result<pb::TienlenEvaluateResponse, Fail> {
    use pb::tienlen_evaluate_item::Item;
    use pb::tienlen_evaluate_result::Result as R;
    ctx.batch("items", req.items.len(), req.items.len())?;
    for (i, item) in req.items.iter().enumerate() {
        match &item.item {
            Some(Item::Game(g)) => over(ctx, || format!("items[{i}].game.actions"), g.actions.len(), tl::MAX_ACTIONS, "actions")?,
            Some(Item::RoundState(q)) => {
                over(ctx, || format!("items[{i}].round_state.actions"), q.actions.len(), tl::MAX_ACTIONS, "actions")?
            }
            _ => {}
        }
    }
    let efforts = req.items.iter().filter_map(|item| match &item.item {
        Some(Item::Game(g)) => effort(g.suggest.as_ref()),
        _ => None,
    });
    ctx.suggestions("items", req.items.len(), efforts)?;
    let rules = rules(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "items",
        &req.items,
        |i, item| {
            let searched = matches!(&item.item, Some(Item::Game(g)) if g.suggest.is_some());
            ctx.suggesting("items", i, searched, |go_on| evaluate_one(item, &rules, go_on))
        },
        R::Error,
    )?;
    let results = results.into_iter().map(|r| pb::TienlenEvaluateResult { result: Some(r) }).collect();
    Ok(pb::TienlenEvaluateResponse { results })
}

/// One Evaluate item; `go_on`: the suggestion search's (see [`Ctx::suggesting`]).
fn evaluate_one(
    item: &pb::TienlenEvaluateItem,
    rules: &tl::Rules,
    go_on: &dyn Fn() -> bool,
) -> Result<pb::tienlen_evaluate_result::Result, ItemFail> {
    use pb::tienlen_evaluate_item::Item;
    use pb::tienlen_evaluate_result::Result as R;
    Ok(match &item.item {
        Some(Item::Play(c)) => R::Play(play_msg(&cards(Some(c)).and_then(|c| tl::classify(&c)).map_err(only("play"))?)),
        Some(Item::Hand(c)) => {
            let win = (|| {
                let c = cards(Some(c))?;
                tl::rules::check_dealt_hand(&c, "cards13")?;
                tl::instant_win(&c)
            })()
            .map_err(only("hand"))?;
            R::Hand(match win {
                Some(w) => pb::TienlenInstantWin { kind: instant_value(Some(w.kind)), cards: Some(cards_msg(&w.cards)) },
                None => pb::TienlenInstantWin::default(),
            })
        }
        Some(Item::LegalPlays(q)) => {
            let plays = (|| {
                let hand = cards(q.hand.as_ref()).map_err(|e| e.within("hand"))?;
                let table =
                    q.table.as_ref().map(|t| cards(Some(t)).and_then(|c| tl::classify(&c)).map_err(|e| e.within("table"))).transpose()?;
                tl::legal_plays(&hand, table.as_ref(), q.passed)
            })()
            .map_err(|e| rename(e, &[("cards", "hand"), ("hand", "hand"), ("table", "table")], "legal_plays"))?;
            R::LegalPlays(pb::TienlenPlays { plays: plays.iter().map(play_msg).collect() })
        }
        Some(Item::FirstLeader(q)) => {
            let (s, c) = hand_list(&q.hands, "hands").and_then(|h| tl::first_leader(&h)).map_err(only("first_leader.hands"))?;
            R::FirstLeader(pb::TienlenFirstLead { seat: seat(s), card: c.to_string(), must_contain: rules.first_lead_must_contain_lowest })
        }
        Some(Item::RoundState(q)) => R::RoundState(round_state(q, rules)?),
        Some(Item::Game(g)) => R::Game(game_item(g, rules, g.viewer, g.suggest.as_ref(), go_on)?.1),
        None => return Err(ItemFail::Item(Error::new("set one of play, hand, legal_plays, first_leader, round_state, game"))),
    })
}

// ---- Compare ----

pub(crate) fn compare(req: pb::TienlenCompareRequest, ctx: &Ctx) -> Result<pb::TienlenCompareResponse, Fail> {
    use pb::tienlen_compare_result::Result as R;
    ctx.batch("items", req.items.len(), req.items.len())?;
    // No option of 越式13张 changes beating; the rules are validated all the same.
    rules(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "items",
        &req.items,
        |_, item| {
            let play = |m: Option<&pb::Cards>, field: &str| cards(m).and_then(|c| tl::classify(&c)).map_err(|e| e.within(field));
            let b = play(item.play.as_ref(), "play")?;
            let a = play(item.table.as_ref(), "table")?;
            Ok(R::Beats(tl::beats(&b, &a)?))
        },
        R::Error,
    )?;
    let results = results.into_iter().map(|r| pb::TienlenCompareResult { result: Some(r) }).collect();
    Ok(pb::TienlenCompareResponse { results })
}

// ---- Settle ----

fn outcome(o: &pb::TienlenOutcome, base: i64, carried: Option<&[Option<i64>]>, rules: &tl::Rules) -> Result<tl::Settlement, Error> {
    let raw: Vec<_> = o
        .chops
        .iter()
        .enumerate()
        .map(|(k, r)| raw_actions(&r.actions, &format!("outcome.chops[{k}].actions")))
        .collect::<Result<_, _>>()?;
    // A round sent twice (the same actions, as sent) would be settled twice.
    let mut seen: std::collections::HashMap<&[RawAction], usize> = std::collections::HashMap::new();
    for (k, r) in raw.iter().enumerate() {
        if let Some(&prev) = seen.get(r.as_slice()) {
            return Err(Error::field(format!("outcome.chops[{k}]"), format!("the same round as chops[{prev}]: a round is settled once"))
                .because(Reason::Inconsistent));
        }
        seen.insert(r.as_slice(), k);
    }
    let renames = [
        ("remaining", "outcome.remaining"),
        ("winner", "outcome.winner"),
        ("played_any", "outcome.played_any"),
        ("chops", "outcome.chops"),
    ];
    (|| {
        let remaining = hand_list(&o.remaining, "remaining")?;
        let winner = seat_from(o.winner, "winner")?;
        let played_any = (!o.played_any.is_empty()).then_some(&o.played_any[..]);
        let chops = raw
            .iter()
            .enumerate()
            .map(|(k, r)| round_from(r, &format!("chops[{k}]")).map(tl::Chop::Round))
            .collect::<Result<Vec<_>, _>>()?;
        let chops = tl::chop_list(&remaining, &chops, base, rules)?;
        tl::settle(&remaining, winner, base, played_any, &chops, carried, rules)
    })()
    .map_err(|e| chop_actions_path(rename(e, &renames, "")))
}

/// The core (and the Python API) name a chop round's action `chops[k][i]`: a round is a
/// list there; over gRPC it is the TienlenRound's `actions[i]`.
fn chop_actions_path(mut e: Error) -> Error {
    if let Some(f) = e.field.as_deref() {
        if let Some(rest) = f.strip_prefix("outcome.chops[") {
            if let Some((k, tail)) = rest.split_once(']') {
                if tail.starts_with('[') {
                    e.field = Some(format!("outcome.chops[{k}].actions{tail}"));
                }
            }
        }
    }
    e
}

fn settle_deal(deal: &pb::TienlenDeal, rules: &tl::Rules) -> Result<pb::TienlenSettlement, Error> {
    use pb::tienlen_deal::Deal;
    let mut base = deal.base.unwrap_or(1);
    let carried: Option<Vec<Option<i64>>> = (!deal.carried.is_empty()).then(|| deal.carried.iter().map(|c| c.amount).collect());
    let carried = carried.as_deref();
    let s = match &deal.deal {
        Some(Deal::Outcome(o)) => outcome(o, base, carried, rules)?,
        Some(Deal::Record(record)) => {
            let g = replay(record, rules, "record")?;
            if let Some(rb) = record.base {
                // The record's own base, unless the deal sets another.
                if let Some(db) = deal.base.filter(|&db| db != rb) {
                    return Err(Error::field("record.base", format!("{rb} is not the deal's base {db}")).because(Reason::Inconsistent));
                }
                base = rb;
            }
            if !g.is_over() {
                return Err(Error::field("record.actions", "the game is not over: nobody has gone out").because(Reason::IllegalAction));
            }
            g.settle(base, carried)?
        }
        Some(Deal::Instant(q)) => {
            let renames = [("round", "chop_round.actions"), ("hands13", "instant.hands"), ("hands", "instant.hands")];
            (|| {
                let hands = q
                    .hands
                    .iter()
                    .enumerate()
                    .map(|(i, h)| {
                        let f = format!("hands13[{i}]");
                        let c = cards(Some(h)).map_err(|e| e.within(&f))?;
                        tl::rules::check_dealt_hand(&c, &f)?;
                        Ok(c)
                    })
                    .collect::<Result<Vec<_>, Error>>()?;
                tl::settle_instant(&hands, base, carried, rules)
            })()
            .map_err(|e| rename(e, &renames, ""))?
        }
        Some(Deal::ChopRound(r)) => {
            let raw = raw_actions(&r.actions, "chop_round.actions")?;
            let renames = [("round", "chop_round.actions"), ("hands13", "instant.hands"), ("hands", "instant.hands")];
            let transfers = round_from(&raw, "round")
                .and_then(|actions| tl::chop_transfers(tl::rules::MAX_PLAYERS, None, &actions, base, rules))
                .map_err(|e| rename(e, &renames, ""))?;
            return Ok(pb::TienlenSettlement { transfers: transfers.iter().map(transfer_msg).collect(), ..Default::default() });
        }
        None => return Err(Error::new("set one of outcome, instant, chop_round, record")),
    };
    Ok((&s).into())
}

pub(crate) fn settle(req: pb::TienlenSettleRequest, ctx: &Ctx) -> Result<pb::TienlenSettleResponse, Fail> {
    use pb::tienlen_deal::Deal;
    use pb::tienlen_settle_result::Result as R;
    ctx.batch("deals", req.deals.len(), req.deals.len())?;
    for (i, deal) in req.deals.iter().enumerate() {
        match &deal.deal {
            Some(Deal::Record(r)) => over(ctx, || format!("deals[{i}].record.actions"), r.actions.len(), tl::MAX_ACTIONS, "actions")?,
            Some(Deal::ChopRound(r)) => {
                over(ctx, || format!("deals[{i}].chop_round.actions"), r.actions.len(), tl::MAX_ACTIONS, "actions")?
            }
            Some(Deal::Outcome(o)) => {
                let field = || format!("deals[{i}].outcome.chops");
                over(ctx, field, o.chops.len(), MAX_CHOP_ROUNDS, "chop rounds")?;
                over(ctx, field, o.chops.iter().map(|r| r.actions.len()).sum(), tl::MAX_ACTIONS, "actions")?;
            }
            _ => {}
        }
    }
    let rules = rules(req.rules.as_ref(), ctx)?;
    let results = ctx.each("deals", &req.deals, |_, deal| Ok(R::Settlement(settle_deal(deal, &rules)?)), R::Error)?;
    let results = results.into_iter().map(|r| pb::TienlenSettleResult { result: Some(r) }).collect();
    Ok(pb::TienlenSettleResponse { results })
}
