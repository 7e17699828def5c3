//! 打儲 requests and answers on the wire: decoded from and encoded to
//! their `handeval.v2` messages here, the game's work done by `handeval_core::dachu`:
//! plays, legal and timeout plays, the deal's declarations, the calling, a whole game
//! record's state (stateless: the client sends the record and gets the state back),
//! beating, and settlement. The states' messages are written by `state`.

mod state;

use crate::call::Ctx;
use crate::convert::wire_rules;
use crate::convert::{cards_msg, rename};
use crate::enums::name_of;
use crate::fail::{at, join, Fail, ItemFail};
use crate::pb;
use dc::Replayed;
use handeval_core::cards::{parse_tokens, Card};
use handeval_core::dachu::calling::Call;
use handeval_core::dachu::{self as dc, Calling, Chu, Constraints, Deal, DealAction, DealEntry, PlayAction, Rules};
use handeval_core::{Error, Reason};

// ---- bounds: checked before any work ----

// The most a legal deal, calling and record hold: the core's bounds, defined once.
use handeval_core::dachu::{MAX_CALLS, MAX_DEAL_ACTIONS, RECORD_BOUNDS};

/// A list longer than the game allows fails the request (reason too_large) before any
/// work; `field()` names it (`dachu.<path>`), built only then.
fn over(ctx: &Ctx, field: impl FnOnce() -> String, n: usize, limit: usize) -> Result<(), Fail> {
    if n > limit {
        return Err(ctx.bad(&field(), format!("{n} entries exceed the {limit} that a game of 52 cards allows"), Reason::TooLarge));
    }
    Ok(())
}

fn check_deal(ctx: &Ctx, path: &dyn Fn() -> String, d: &pb::DachuDealQuery) -> Result<(), Fail> {
    over(ctx, || format!("{}.actions", path()), d.actions.len(), MAX_DEAL_ACTIONS)
}

fn check_calling(ctx: &Ctx, path: &dyn Fn() -> String, c: &pb::DachuCallingQuery) -> Result<(), Fail> {
    over(ctx, || format!("{}.calls", path()), c.calls.len(), MAX_CALLS)?;
    if let Some(pb::dachu_calling_query::Origin::Deal(d)) = &c.origin {
        check_deal(ctx, &|| format!("{}.deal", path()), d)?;
    }
    Ok(())
}

fn check_record(ctx: &Ctx, path: &dyn Fn() -> String, r: &pb::DachuGameRecord) -> Result<(), Fail> {
    let lens = [r.deal_actions.len(), r.calls.len(), r.plays.len()];
    check_lens(ctx, path, lens)
}

/// [`check_record`] of a record whose lists hold `lens` entries (`deal_actions`, `calls`,
/// `plays`).
fn check_lens(ctx: &Ctx, path: &dyn Fn() -> String, lens: [usize; 3]) -> Result<(), Fail> {
    RECORD_BOUNDS.iter().zip(lens).try_for_each(|(&(field, max), n)| over(ctx, || format!("{}.{field}", path()), n, max))
}

// ---- rules: the message → the core's Rules, by the core's list of options ----

// `rules_from`: the request's rules (unset options and UNSPECIFIED enums: the defaults);
// a bad value fails the request naming `dachu.rules.<option>` (reason BAD_RULE). The
// enum-valued options (UnitPer, FirstCaller, DeclareOncePer) are read by the shared
// `enum_options!` of crate::convert.
handeval_core::dachu_rule_options!(wire_rules! {
    pub fn rules_from(pb::DachuRules) -> Rules;
});

// ---- small conversions ----

/// An item's error at `field` (a path inside the item).
fn fail(field: impl Into<String>, message: impl Into<String>, reason: Reason) -> ItemFail {
    ItemFail::Item(Error::field(field, message).because(reason))
}

/// A core error of the action at `field` (`deal.actions[3]`): the core's own `action`
/// segment is that field.
fn action_at(field: &str) -> impl Fn(Error) -> ItemFail + '_ {
    move |e| ItemFail::Item(rename(e, &[("action", "")], field))
}

/// An item's error of the action at `index` of its list (the ItemError's `action_index`).
fn of_action(index: usize) -> impl Fn(ItemFail) -> ItemFail {
    move |f| match f {
        ItemFail::Item(e) => ItemFail::Item(e.at_action(index)),
        request => request,
    }
}

/// The entries of an optional `Cards` field (unset: none).
fn tokens(c: &Option<pb::Cards>) -> &[String] {
    c.as_ref().map_or(&[], |c| c.cards.as_slice())
}

/// Cards parsed by the core, an error naming `field`.
fn cards_at<S: AsRef<str>>(tokens: &[S], field: &str) -> Result<Vec<Card>, Error> {
    parse_tokens(tokens).map_err(|e| e.within(field))
}

/// A seat 0..3; an error names `field`.
fn seat(v: i32, field: &str) -> Result<usize, Error> {
    if !(0..4).contains(&v) {
        return Err(Error::field(field, format!("unknown seat {v} (打儲 seats are 0..3)")).because(Reason::OutOfRange));
    }
    Ok(v as usize)
}

fn seats(vs: &[i32], field: &str) -> Result<Vec<usize>, Error> {
    vs.iter().enumerate().map(|(i, &v)| seat(v, &format!("{field}[{i}]"))).collect()
}

/// The item's required 儲 colour at `field`.
fn chu_at(v: i32, field: &str) -> Result<Chu, ItemFail> {
    match name_of::<pb::DachuColour>(v) {
        Err(msg) => Err(fail(field, msg, Reason::Invalid)),
        Ok(None) => Err(fail(field, "set the 儲 colour (DACHU_COLOUR_RED or DACHU_COLOUR_BLACK)", Reason::Invalid)),
        Ok(Some(name)) => Chu::parse(&name).map_err(at(field)),
    }
}

/// An optional side (`first_side`): "chu" → 0, "other" → 1, UNSPECIFIED → None.
fn side_at(v: i32, field: &str) -> Result<Option<usize>, ItemFail> {
    match name_of::<pb::DachuSide>(v) {
        Err(msg) => Err(fail(field, msg, Reason::Invalid)),
        Ok(None) => Ok(None),
        Ok(Some(name)) => Ok(Some(if name == "chu" { dc::calling::CHU } else { dc::calling::OTHER })),
    }
}

// ---- the deal and the calling ----

/// A DachuDealAction → the core's entry (a 撐儲 without a colour: named by the deal when
/// replayed); fields the kind does not take are refused, not ignored. Errors name `field`
/// (`deal.actions[3]`).
fn deal_action(a: &pb::DachuDealAction, field: &str) -> Result<DealEntry, ItemFail> {
    let kind = match name_of::<pb::DachuDealActionKind>(a.kind) {
        Err(msg) => return Err(fail(format!("{field}.kind"), msg, Reason::Invalid)),
        Ok(None) => return Err(fail(format!("{field}.kind"), "set the action's kind", Reason::Invalid)),
        Ok(Some(k)) => k,
    };
    let takes: &[&str] = match kind.as_str() {
        "cheng_chu" => &["seat", "colour"],
        "meng_xuan" | "meng_chuai" => &["seat", "cards"],
        _ => &[],
    };
    for (name, set) in [("seat", a.seat != 0), ("cards", a.cards.is_some()), ("colour", a.colour != 0)] {
        if set && !takes.contains(&name) {
            return Err(fail(format!("{field}.{name}"), format!("a {kind} action takes no {name}"), Reason::Inconsistent));
        }
    }
    let at = action_at(field);
    Ok(match kind.as_str() {
        "deal" => DealAction::Deal.into(),
        "finish" => DealAction::Finish.into(),
        "cheng_chu" => {
            let colour = name_of::<pb::DachuColour>(a.colour).map_err(|msg| fail(format!("{field}.colour"), msg, Reason::Invalid))?;
            let seat = seat(a.seat, "seat").map_err(&at)?;
            DealEntry::ChengChu { seat, chu: colour.map(|name| Chu::parse(&name)).transpose().map_err(&at)? }
        }
        _ => {
            let seat = seat(a.seat, "seat").map_err(&at)?;
            let cards = cards_at(tokens(&a.cards), "cards").map_err(&at)?;
            let action = if kind == "meng_xuan" { DealAction::meng_xuan_of(seat, &cards) } else { DealAction::meng_chuai_of(seat, &cards) };
            action.map_err(&at)?.into()
        }
    })
}

/// The deal of `hands` with `actions` applied; errors under `path` (`deal`, `game`).
fn deal_of(
    hands: &[pb::Cards],
    first_seat: i32,
    actions: &[pb::DachuDealAction],
    rules: &Rules,
    path: &str,
    actions_name: &str,
) -> Result<Deal, ItemFail> {
    if hands.len() != 4 {
        return Err(fail(join(&[path, "hands"]), format!("{} hands: 打儲 deals 4", hands.len()), Reason::WrongCount));
    }
    let at = at(path);
    let parsed =
        hands.iter().enumerate().map(|(i, h)| cards_at(&h.cards, &format!("hands[{i}]"))).collect::<Result<Vec<_>, _>>().map_err(&at)?;
    let first = seat(first_seat, "first_seat").map_err(&at)?;
    let mut d = Deal::new(parsed, first, rules.clone()).map_err(&at)?;
    for (k, a) in actions.iter().enumerate() {
        let field = format!("{}[{k}]", join(&[path, actions_name]));
        let entry = deal_action(a, &field).map_err(of_action(k))?;
        d = entry.resolve(&d).and_then(|a| d.apply(&a)).map_err(action_at(&field)).map_err(of_action(k))?;
    }
    Ok(d)
}

fn deal_query(q: &pb::DachuDealQuery, rules: &Rules, path: &str) -> Result<Deal, ItemFail> {
    deal_of(&q.hands, q.first_seat, &q.actions, rules, path, "actions")
}

/// A DachuCall → (seat, call); errors name `field` (`calls[3]`).
fn call_of(a: &pb::DachuCall, field: &str) -> Result<(usize, Call), ItemFail> {
    let call = match name_of::<pb::DachuCallKind>(a.call) {
        Err(msg) => return Err(fail(format!("{field}.call"), msg, Reason::Invalid)),
        Ok(None) => return Err(fail(format!("{field}.call"), "set the call", Reason::Invalid)),
        Ok(Some(name)) => Call::parse(&name).map_err(action_at(field))?,
    };
    Ok((seat(a.seat, "seat").map_err(at(field))?, call))
}

/// The calls applied in order; errors name `path[k]`.
fn apply_calls(mut c: Calling, calls: &[pb::DachuCall], path: &str) -> Result<Calling, ItemFail> {
    for (k, a) in calls.iter().enumerate() {
        let field = format!("{path}[{k}]");
        let (seat, call) = call_of(a, &field).map_err(of_action(k))?;
        c = c.apply(seat, call).map_err(action_at(&field)).map_err(of_action(k))?;
    }
    Ok(c)
}

/// A calling from a finished deal or from its start, its calls applied; errors under `path`.
fn calling_query(q: &pb::DachuCallingQuery, rules: &Rules, path: &str) -> Result<Calling, ItemFail> {
    use pb::dachu_calling_query::Origin;
    let first_side = side_at(q.first_side, &join(&[path, "first_side"]))?;
    // The core's argument names → the proto fields that held them.
    let renamed = |e: Error| ItemFail::Item(rename(e, &[("chu_side", "start.chu_side"), ("multiplier", "start.multiplier")], path));
    let c = match &q.origin {
        Some(Origin::Deal(d)) => {
            let deal = deal_query(d, rules, &join(&[path, "deal"]))?;
            let start = q.start_seat.map(|s| seat(s, "start_seat")).transpose().map_err(renamed)?;
            deal.calling(start, first_side).map_err(renamed)?
        }
        Some(Origin::Start(s)) => {
            let side = seats(&s.chu_side, "chu_side").map_err(renamed)?;
            let start = seat(q.start_seat.unwrap_or(0), "start_seat").map_err(renamed)?;
            Calling::new(&side, s.declared, s.multiplier.unwrap_or(1), start, first_side, rules).map_err(renamed)?
        }
        None => return Err(fail(path, "set deal or start", Reason::Invalid)),
    };
    apply_calls(c, &q.calls, &join(&[path, "calls"]))
}

// ---- game records ----

fn play_action(a: &pb::PlayAction, field: &str) -> Result<PlayAction, ItemFail> {
    const PLAY: i32 = pb::ActionKind::Play as i32;
    const PASS: i32 = pb::ActionKind::Pass as i32;
    const TIMEOUT: i32 = pb::ActionKind::Timeout as i32;
    let at = action_at(field);
    if a.kind != TIMEOUT && !a.columns.is_empty() {
        return Err(fail(format!("{field}.columns"), "only a TIMEOUT carries columns", Reason::Invalid));
    }
    match a.kind {
        PLAY => {
            let seat = seat(a.seat, "seat").map_err(&at)?;
            Ok(PlayAction::Play { seat, cards: cards_at(tokens(&a.cards), "cards").map_err(&at)? })
        }
        PASS | TIMEOUT => {
            if !tokens(&a.cards).is_empty() {
                return Err(fail(format!("{field}.cards"), "a pass or a timeout holds no cards", Reason::Inconsistent));
            }
            let seat = seat(a.seat, "seat").map_err(&at)?;
            if a.kind == PASS {
                return Ok(PlayAction::Pass { seat });
            }
            let columns = if a.columns.is_empty() {
                None
            } else {
                let cols =
                    a.columns.iter().enumerate().map(|(i, c)| cards_at(&c.cards, &format!("columns[{i}]"))).collect::<Result<Vec<_>, _>>();
                Some(cols.map_err(&at)?)
            };
            Ok(PlayAction::Timeout { seat, columns })
        }
        _ => Err(fail(format!("{field}.kind"), "set ACTION_KIND_PLAY, ACTION_KIND_PASS or ACTION_KIND_TIMEOUT", Reason::Invalid)),
    }
}

/// Replay a record: its entries read here, the replay and the choice among several
/// errors by the core ([`dc::Entries::replay`]: the first the replay reaches); errors
/// under `path` (`game`, `record`).
fn replay(r: &pb::DachuGameRecord, rules: &Rules, path: &str) -> Result<Replayed, ItemFail> {
    if r.hands.len() != 4 {
        return Err(fail(join(&[path, "hands"]), format!("{} hands: 打儲 deals 4", r.hands.len()), Reason::WrongCount));
    }
    let at = at(path);
    let hands =
        r.hands.iter().enumerate().map(|(i, h)| cards_at(&h.cards, &format!("hands[{i}]"))).collect::<Result<Vec<_>, _>>().map_err(&at)?;
    let first_seat = seat(r.first_seat, "first_seat").map_err(&at)?;
    let each = |k: usize, f: ItemFail| of_action(k)(f);
    let calling_args = (|| {
        let side = side_at(r.first_side, &format!("{path}.first_side"))?;
        let start = r.start_seat.map(|s| seat(s, "start_seat")).transpose().map_err(&at)?;
        Ok((start, side))
    })();
    let entries = dc::Entries {
        hands,
        first_seat,
        deal_actions: r
            .deal_actions
            .iter()
            .enumerate()
            .map(|(k, a)| deal_action(a, &format!("{path}.deal_actions[{k}]")).map_err(|f| each(k, f)))
            .collect(),
        calling_args,
        calls: r.calls.iter().enumerate().map(|(k, a)| call_of(a, &format!("{path}.calls[{k}]")).map_err(|f| each(k, f))).collect(),
        plays: r.plays.iter().enumerate().map(|(k, a)| play_action(a, &format!("{path}.plays[{k}]")).map_err(|f| each(k, f))).collect(),
    };
    entries.replay(rules, at)
}

// ---- Evaluate ----

/// A record's `game` item (the Evaluate item and a table's start): the record replayed
/// ([`replay`]) and its state as `viewer` sees it with the `suggest` asked (the record's
/// own, or a table step's), see [`state_of`].
pub(crate) fn game_item(
    r: &pb::DachuGameRecord,
    rules: &Rules,
    viewer: Option<i32>,
    suggest: Option<&pb::SuggestQuery>,
    between: &dyn Fn() -> bool,
) -> Result<(Replayed, pb::DachuGameState), ItemFail> {
    let replayed = replay(r, rules, "game")?;
    let state = state_of(&replayed, viewer, suggest, between)?;
    Ok((replayed, state))
}

/// The state of a replayed record as `viewer` sees it (unset: the table's) with the
/// suggestion `suggest` asks; errors name the record's fields (`game.viewer`,
/// `game.suggest.effort`). `between`: called inside a long suggestion search.
pub(crate) fn state_of(
    replayed: &Replayed,
    viewer: Option<i32>,
    suggest: Option<&pb::SuggestQuery>,
    between: &dyn Fn() -> bool,
) -> Result<pb::DachuGameState, ItemFail> {
    let viewer = viewer.map(|v| seat(v, "viewer").map_err(|e| e.because(Reason::OutOfRange))).transpose().map_err(at("game"))?;
    let mut m = state::game_msg(replayed, viewer).map_err(at("game"))?;
    state::add_suggestion(&mut m, replayed, viewer, suggest, between).map_err(ItemFail::Item)?;
    Ok(m)
}

/// The play phase of `r` with the record's next play `a` applied (a table stream's
/// step), or None when there is no play phase, `a` cannot be read or the game refuses
/// it: the whole record's replay ([`game_item`]) then names why, as the unary call does.
pub(crate) fn apply_play(r: &Replayed, a: &pb::PlayAction) -> Option<dc::game::Game> {
    let action = play_action(a, "").ok()?;
    let mut next = r.game.as_ref()?.clone();
    next.apply_in_place(&action).ok()?;
    Some(next)
}

/// The effort a record's `suggest` asks (unset: the default), as the work budget counts it.
fn effort(q: Option<&pb::SuggestQuery>) -> Option<u32> {
    q.map(|q| q.effort.unwrap_or(handeval_core::dachu::suggest::DEFAULT_EFFORT))
}

/// The checks, before any work, of an Evaluate whose one item is a `game` record of
/// `lens` entries (see [`check_lens`]) asking `suggest`: what [`evaluate`] checks of such a call, in its order (the batch,
/// the record's bounds, the work budget; the rules are read after). A table stream's
/// start and steps are priced so.
pub(crate) fn game_call_checks(ctx: &Ctx, lens: [usize; 3], suggest: Option<&pb::SuggestQuery>) -> Result<(), Fail> {
    ctx.batch("items", 1, 1)?;
    check_lens(ctx, &|| "items[0].game".to_string(), lens)?;
    ctx.suggestions("items", 1, effort(suggest).into_iter())
}

/// A legal_plays or timeout_play query (`kind` names it in error paths).
struct PlaysQuery<'a> {
    kind: &'static str,
    hand: &'a [String],
    table: Option<&'a pb::Cards>,
    chu: i32,
    first_lead: bool,
    surrendered: bool,
    shown: Option<&'a pb::Cards>,
    columns: &'a [pb::Cards],
}

/// What a PlaysQuery answers.
enum Plays {
    Legal(Vec<dc::LegalPlay>),
    /// The timeout play's cards, or None: a pass.
    Timeout(Option<Vec<Card>>),
}

fn plays_query(q: PlaysQuery, rules: &Rules) -> Result<Plays, ItemFail> {
    let kind = q.kind;
    let chu = chu_at(q.chu, &format!("{kind}.chu"))?;
    if !q.columns.is_empty() && !q.hand.is_empty() {
        return Err(fail(format!("{kind}.columns"), "set either hand or columns, not both", Reason::Inconsistent));
    }
    let at = at(kind);
    let flat: Vec<&String> = q.columns.iter().flat_map(|c| c.cards.iter()).collect();
    let flat: Vec<&String> = if flat.is_empty() { q.hand.iter().collect() } else { flat };
    if let Some(shown) = q.shown {
        let shown = cards_at(&shown.cards, "shown_triple").map_err(&at)?;
        let held = cards_at(&flat, if q.columns.is_empty() { "hand" } else { "columns" }).map_err(&at)?;
        if !shown.iter().all(|c| held.contains(c)) {
            return Err(fail(format!("{kind}.shown_triple"), "the shown triple is not in the hand", Reason::CardNotInHand));
        }
    }
    let constraints = |shown: Option<&pb::Cards>| -> Result<Constraints, Error> {
        let shown_triple = match shown {
            Some(s) => cards_at(&s.cards, "shown_triple")?,
            None => Vec::new(),
        };
        Ok(Constraints { first_lead: q.first_lead, surrendered: q.surrendered, shown_triple })
    };
    let table = |t: Option<&pb::Cards>| t.map(|t| cards_at(&t.cards, "table")).transpose();
    if kind == "legal_plays" {
        let hand = cards_at(q.hand, "hand").map_err(&at)?;
        let table = table(q.table).map_err(&at)?;
        let cons = constraints(q.shown).map_err(&at)?;
        return Ok(Plays::Legal(dc::legal_plays(&hand, table.as_deref(), chu, &cons, rules).map_err(&at)?));
    }
    if flat.is_empty() {
        return Err(fail(format!("{kind}.hand"), "an empty hand has no timeout play", Reason::WrongCount));
    }
    // The core names a column hand[i]; over gRPC that is columns[i].
    let columns_at = |e: Error| match e.field.as_deref() {
        Some(f) if !q.columns.is_empty() && f.starts_with("hand[") => at(Error { field: Some(format!("columns{}", &f[4..])), ..e }),
        _ => at(e),
    };
    let columns = if q.columns.is_empty() {
        dc::columns_of(&cards_at(q.hand, "hand").map_err(&at)?)
    } else {
        q.columns
            .iter()
            .enumerate()
            .map(|(i, c)| cards_at(&c.cards, &format!("hand[{i}]")))
            .collect::<Result<Vec<_>, _>>()
            .map_err(columns_at)?
    };
    let table = table(q.table).map_err(&at)?;
    let cons = constraints(q.shown).map_err(&at)?;
    Ok(Plays::Timeout(dc::timeout_play(&columns, table.as_deref(), chu, &cons, rules).map_err(columns_at)?))
}

/// `between`: called inside a long suggestion search (the call's turn on the compute threads).
fn evaluate_one(
    item: &pb::DachuEvaluateItem,
    rules: &Rules,
    between: &dyn Fn() -> bool,
) -> Result<pb::dachu_evaluate_result::Result, ItemFail> {
    use pb::dachu_evaluate_item::Item;
    use pb::dachu_evaluate_result::Result as Out;
    Ok(match &item.item {
        Some(Item::Play(q)) => {
            let chu = chu_at(q.chu, "play.chu")?;
            let cards = cards_at(tokens(&q.cards), "cards").map_err(at("play"))?;
            let p = dc::classify(&cards, chu, rules).map_err(|e| e.within("cards")).map_err(at("play"))?;
            Out::Play(state::play_msg(p.kind, &cards))
        }
        Some(Item::LegalPlays(q)) => {
            let query = PlaysQuery {
                kind: "legal_plays",
                hand: tokens(&q.hand),
                table: q.table.as_ref(),
                chu: q.chu,
                first_lead: q.first_lead,
                surrendered: q.surrendered,
                shown: q.shown_triple.as_ref(),
                columns: &[],
            };
            let Plays::Legal(plays) = plays_query(query, rules)? else { unreachable!("a legal_plays query") };
            Out::LegalPlays(pb::DachuPlays { plays: plays.iter().map(|p| state::play_msg(p.play.kind, &p.cards)).collect() })
        }
        Some(Item::TimeoutPlay(q)) => {
            let query = PlaysQuery {
                kind: "timeout_play",
                hand: tokens(&q.hand),
                table: q.table.as_ref(),
                chu: q.chu,
                first_lead: q.first_lead,
                surrendered: q.surrendered,
                shown: q.shown_triple.as_ref(),
                columns: &q.columns,
            };
            let Plays::Timeout(got) = plays_query(query, rules)? else { unreachable!("a timeout_play query") };
            Out::TimeoutPlay(pb::DachuTimeoutPlay { passes: got.is_none(), cards: Some(cards_msg(got.as_deref().unwrap_or(&[]))) })
        }
        Some(Item::Deal(q)) => Out::Deal(state::deal_msg(&deal_query(q, rules, "deal")?)),
        Some(Item::Calling(q)) => Out::Calling(state::calling_msg(&calling_query(q, rules, "calling")?)),
        Some(Item::Game(r)) => Out::Game(game_item(r, rules, r.viewer, r.suggest.as_ref(), between)?.1),
        None => return Err(fail("", "set one of play, legal_plays, timeout_play, deal, calling, game", Reason::Invalid)),
    })
}

// ---- the RPCs (`crate::dispatch::answer` dispatches here) ----

pub(crate) fn evaluate(req: pb::DachuEvaluateRequest, ctx: &Ctx) -> Result<pb::DachuEvaluateResponse, Fail> {
    use pb::dachu_evaluate_item::Item;
    use pb::dachu_evaluate_result::Result as Out;
    ctx.batch("items", req.items.len(), req.items.len())?;
    for (i, item) in req.items.iter().enumerate() {
        match &item.item {
            Some(Item::Deal(d)) => check_deal(ctx, &|| format!("items[{i}].deal"), d)?,
            Some(Item::Calling(c)) => check_calling(ctx, &|| format!("items[{i}].calling"), c)?,
            Some(Item::Game(r)) => check_record(ctx, &|| format!("items[{i}].game"), r)?,
            _ => {}
        }
    }
    let efforts = req.items.iter().filter_map(|item| match &item.item {
        Some(Item::Game(r)) => effort(r.suggest.as_ref()),
        _ => None,
    });
    ctx.suggestions("items", req.items.len(), efforts)?;
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "items",
        &req.items,
        |i, item| {
            let searched = matches!(&item.item, Some(Item::Game(r)) if r.suggest.is_some());
            let out = ctx.suggesting("items", i, searched, |go_on| evaluate_one(item, &rules, go_on))?;
            Ok(pb::DachuEvaluateResult { result: Some(out) })
        },
        |e| pb::DachuEvaluateResult { result: Some(Out::Error(e)) },
    )?;
    Ok(pb::DachuEvaluateResponse { results })
}

pub(crate) fn compare(req: pb::DachuCompareRequest, ctx: &Ctx) -> Result<pb::DachuCompareResponse, Fail> {
    use pb::dachu_compare_result::Result as Out;
    ctx.batch("items", req.items.len(), req.items.len())?;
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "items",
        &req.items,
        |_, item| {
            let chu = chu_at(item.chu, "chu")?;
            let play = cards_at(tokens(&item.play), "play")?;
            let table = cards_at(tokens(&item.table), "table")?;
            let beats = dc::beats(&play, &table, chu, &rules)?;
            Ok(pb::DachuCompareResult { result: Some(Out::Beats(beats)) })
        },
        |e| pb::DachuCompareResult { result: Some(Out::Error(e)) },
    )?;
    Ok(pb::DachuCompareResponse { results })
}

/// The carried-in amounts (empty: nobody capped).
fn carried(c: &[pb::Carried]) -> Option<Vec<Option<i64>>> {
    (!c.is_empty()).then(|| c.iter().map(|c| c.amount).collect())
}

fn settle_one(deal: &pb::DachuDeal, rules: &Rules) -> Result<dc::Settlement, ItemFail> {
    use pb::dachu_deal::Deal as Kind;
    let base = deal.base.unwrap_or(1);
    let carried = carried(&deal.carried);
    match &deal.deal {
        Some(Kind::Record(r)) => {
            let Replayed { calling, game, .. } = replay(r, rules, "record")?;
            let escaped = || seats(&deal.escaped, "escaped");
            if let Some(g) = game {
                if !g.is_over() && g.decided().is_none() && deal.escaped.is_empty() {
                    return Err(fail("record.plays", "the game is not over (nor its result decided)", Reason::IllegalAction));
                }
                return Ok(g.settle(base, &escaped()?, carried)?);
            }
            let Some(c) = calling else {
                if deal.escaped.is_empty() {
                    return Err(fail("record.deal_actions", "the game is not over", Reason::IllegalAction));
                }
                return Err(fail("record.deal_actions", "an escape before the 儲 is known cannot be settled", Reason::IllegalAction));
            };
            if c.is_over() {
                // A whole side surrendered.
                return Ok(dc::settle(&c.game_result(None, base, escaped()?, carried)?, rules)?);
            }
            if deal.escaped.is_empty() {
                return Err(fail("record.calls", "the game is not over", Reason::IllegalAction));
            }
            let g = dc::GameResult {
                chu_side: c.chu_side(),
                multiplier: c.multiplier,
                base,
                places: None,
                surrendered: Vec::new(),
                bei_bao_da: Vec::new(),
                escaped: escaped()?,
                carried,
            };
            Ok(dc::settle(&g, rules)?)
        }
        Some(Kind::Outcome(o)) => {
            let from_calling = o.calling.is_some();
            // The core's argument names → the proto fields that held them.
            let renames = [
                ("chu_side", if from_calling { "outcome.calling" } else { "outcome.chu_side" }),
                ("places", "outcome.places"),
                ("multiplier", "outcome.multiplier"),
                ("surrendered", "outcome.surrendered"),
                ("bei_bao_da", "outcome.bei_bao_da"),
            ];
            let renamed = |e: Error| ItemFail::Item(rename(e, &renames, ""));
            // As the Python API took them: the places, then the calling's or the four
            // fields, then the escapes.
            let places = || -> Result<Option<Vec<usize>>, ItemFail> {
                if o.places.is_empty() {
                    return Ok(None);
                }
                Ok(Some(seats(&o.places, "places").map_err(renamed)?))
            };
            let g = if let Some(q) = &o.calling {
                for (name, set) in [
                    ("chu_side", !o.chu_side.is_empty()),
                    ("surrendered", !o.surrendered.is_empty()),
                    ("bei_bao_da", !o.bei_bao_da.is_empty()),
                ] {
                    if set {
                        return Err(fail(
                            format!("outcome.{name}"),
                            "set either calling or chu_side, multiplier, surrendered and bei_bao_da, not both",
                            Reason::Inconsistent,
                        ));
                    }
                }
                if o.multiplier.is_some() {
                    return Err(fail("outcome.multiplier", "set either calling or multiplier, not both", Reason::Inconsistent));
                }
                let c = calling_query(q, rules, "outcome.calling")?;
                let places = places()?;
                let mut g = c
                    .game_result(places, base, Vec::new(), carried)
                    .map_err(|e| ItemFail::Item(rename(e, &[("calling", "outcome.calling")], "")))?;
                g.escaped = seats(&deal.escaped, "escaped")?;
                g
            } else {
                let places = places()?;
                let chu_side = seats(&o.chu_side, "chu_side").map_err(renamed)?;
                let surrendered = seats(&o.surrendered, "surrendered").map_err(renamed)?;
                let bei_bao_da = seats(&o.bei_bao_da, "bei_bao_da").map_err(renamed)?;
                dc::GameResult {
                    chu_side,
                    multiplier: o.multiplier.unwrap_or(1),
                    base,
                    places,
                    surrendered,
                    bei_bao_da,
                    escaped: seats(&deal.escaped, "escaped")?,
                    carried,
                }
            };
            dc::settle(&g, rules).map_err(renamed)
        }
        None => Err(fail("", "set outcome or record", Reason::Invalid)),
    }
}

pub(crate) fn settle(req: pb::DachuSettleRequest, ctx: &Ctx) -> Result<pb::DachuSettleResponse, Fail> {
    use pb::dachu_deal::Deal as Kind;
    use pb::dachu_settle_result::Result as Out;
    ctx.batch("deals", req.deals.len(), req.deals.len())?;
    for (i, d) in req.deals.iter().enumerate() {
        match &d.deal {
            Some(Kind::Record(r)) => check_record(ctx, &|| format!("deals[{i}].record"), r)?,
            Some(Kind::Outcome(o)) => {
                if let Some(c) = &o.calling {
                    check_calling(ctx, &|| format!("deals[{i}].outcome.calling"), c)?;
                }
            }
            None => {}
        }
    }
    let rules = rules_from(req.rules.as_ref(), ctx)?;
    let results = ctx.each(
        "deals",
        &req.deals,
        |_, deal| Ok(pb::DachuSettleResult { result: Some(Out::Settlement(pb::DachuSettlement::from(&settle_one(deal, &rules)?))) }),
        |e| pb::DachuSettleResult { result: Some(Out::Error(e)) },
    )?;
    Ok(pb::DachuSettleResponse { results })
}

#[cfg(test)]
mod tests;
