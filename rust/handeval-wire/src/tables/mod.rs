//! Table streams (`Handeval.Tables`, protos/handeval/v2/tables.proto): one stream's
//! tables ([`Tables`]), each a 越式13张 or 打儲 game record kept with its replayed
//! position, so that a step costs one action instead of the whole record.
//!
//! A table is the Evaluate item `game` the client would send, and every answer is what
//! the unary call of that one item answers for the record so far, by construction:
//! a start replays the record by the unary item's own code ([`tl::game_item`],
//! [`dc::game_item`]) after the unary call's own checks ([`tl::game_call_checks`],
//! [`dc::game_call_checks`]: the batch, the record's bounds, the work budget), and a
//! state is written by the unary item's conversion of the replayed position
//! ([`tl::state_of`], [`dc::state_of`]). An action is applied to the kept position
//! ([`tl::apply_action`], [`dc::apply_play`]); when it cannot be (unreadable, refused)
//! or is a 打儲 deal action or call (short phases), the whole record with the action
//! appended is replayed as the unary item does, so its error is the unary one; a refused
//! step leaves the table as it was. A settle is the unary Settle of the record deal.
//!
//! Field paths: an answer's `ItemError` names the unary call's path without the batch's
//! `items[0].` (`deals[0].` for a settle) and without the request's game: e.g.
//! `game.actions[5].cards`, `game.plays[3]`, `record.actions`. The step's own `viewer`
//! and `suggest` stand for the record's, so the unary `game.viewer` is `viewer` and
//! `game.suggest…` (e.g. `game.suggest.effort`) is `suggest…`; the unary call's work
//! budget (`items`) is `suggest` (a step is one item: only its suggestion can be over
//! the budget); a start's bad rules (`tienlen.rules.x`) are `start.tienlen.rules.x`.
//! The stream's own refusals name the request's fields: `table`, `step`, `action.at`,
//! `action.deal`, `start`, `start.tienlen.record.viewer`, `settle.escaped`.

use crate::call::{Call, Ctx, Limits};
use crate::fail::{reason_value, Fail, ItemFail};
use crate::pb;
use crate::sched::{Turn, Turns};
use crate::{dachu as dc, tienlen as tl};
use handeval_core::dachu::Replayed;
use handeval_core::Reason;
use prost::Message;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pb::tables_response::Answer;

/// The longest table name, in bytes.
pub const MAX_TABLE_NAME_BYTES: usize = 64;

/// Tables open in this process, on every stream (bounded by [`TableLimits::max_open_tables`]).
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// Tables open in this process, on every stream.
pub fn open_tables() -> usize {
    OPEN.load(Ordering::Relaxed)
}

/// A stream's bounds, as the server's flags set them.
#[derive(Clone, Copy, Debug)]
pub struct TableLimits {
    /// Tables one stream holds (`--max-stream-tables`).
    pub max_tables: usize,
    /// Tables the process holds on all its streams (`--max-tables`).
    pub max_open_tables: usize,
    /// A step's limits: those of a unary Evaluate of one `game` item.
    pub call: Limits,
}

/// The tables of one stream. Usable from any thread: the map is behind a lock held only
/// to find, add or remove a table; each table has a lock of its own, held by its step.
#[derive(Debug)]
pub struct Tables {
    limits: TableLimits,
    slots: Mutex<HashMap<String, Slot>>,
}

#[derive(Debug)]
struct Slot {
    table: Arc<Mutex<Table>>,
    /// The end of its last step (or its start).
    last: Instant,
    /// [`Table::bytes`] after its last step, read without the table's lock.
    bytes: usize,
}

// The variants differ in size (打儲 keeps three phases), as their memory does: one table
// is one allocation either way (the Arc).
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
enum Table {
    Tienlen(TienlenTable),
    Dachu(DachuTable),
}

/// A 越式13张 table: its rules, its record (no viewer, no suggest: the steps say them)
/// and the record replayed.
#[derive(Debug)]
struct TienlenTable {
    rules_msg: Option<pb::TienlenRules>,
    rules: handeval_core::tienlen::Rules,
    record: pb::TienlenGameRecord,
    game: handeval_core::tienlen::Game,
}

/// A 打儲 table: its rules, its record (no viewer, no suggest) and the record replayed.
#[derive(Debug)]
struct DachuTable {
    rules_msg: Option<pb::DachuRules>,
    rules: handeval_core::dachu::Rules,
    record: pb::DachuGameRecord,
    replayed: Replayed,
}

/// Why a step gets no state: refused (its `ItemError`, the table unchanged), or the call
/// ends (cancelled, past its deadline).
enum No {
    Refused(pb::ItemError),
    Fail(Fail),
}

type Step<T> = Result<T, No>;

fn refused(field: &str, message: impl Into<String>, reason: Reason) -> No {
    No::Refused(pb::ItemError { field: field.to_string(), reason: reason_value(reason), message: message.into(), action_index: None })
}

/// A unary path (a request's field, `tienlen.items[0].game.actions[5]`, or an item's,
/// `items[0].game.actions[5]`) → the table's (module doc).
fn table_field(path: &str) -> String {
    let (game, path) = match path.split_once('.') {
        Some((g @ ("tienlen" | "dachu"), rest)) => (Some(g), rest),
        _ => match path {
            "tienlen" | "dachu" => (Some(path), ""),
            _ => (None, path),
        },
    };
    let mut path = path;
    for head in ["items[0]", "deals[0]"] {
        if path == head {
            path = "";
        } else if let Some(rest) = path.strip_prefix(head).and_then(|r| r.strip_prefix('.')) {
            path = rest;
        }
    }
    if path == "game.viewer" {
        return "viewer".to_string();
    }
    if let Some(rest) = path.strip_prefix("game.suggest") {
        if rest.is_empty() || rest.starts_with('.') {
            return format!("suggest{rest}");
        }
    }
    match (path, game) {
        ("items", _) => "suggest".to_string(),
        ("deals", _) => "settle".to_string(),
        (p, Some(g)) if p == "rules" || p.starts_with("rules.") => format!("start.{g}.{p}"),
        (p, _) => p.to_string(),
    }
}

/// A unary item's `ItemError`, its path the table's.
fn item_error(mut e: pb::ItemError) -> No {
    e.field = table_field(&e.field);
    No::Refused(e)
}

impl From<Fail> for No {
    /// A request error of the unary call is the table's step refused; a stop ends the call.
    fn from(f: Fail) -> Self {
        match f {
            Fail::Bad { field, message, reason } => {
                No::Refused(pb::ItemError { field: table_field(&field), reason: reason_value(reason), message, action_index: None })
            }
            stopped => No::Fail(stopped),
        }
    }
}

/// An item's failure in the work of the one unary item (counted as the call's item error).
fn item_fail(ctx: &Ctx, f: ItemFail) -> No {
    match f {
        ItemFail::Item(e) => item_error(ctx.item_failed("items", 0, e)),
        ItemFail::Request(f) => f.into(),
    }
}

impl TienlenTable {
    fn actions(&self) -> usize {
        self.record.actions.len()
    }

    /// The state the step asks, of the game `g` of the record (the item's suggestion
    /// search as the unary item's: [`Ctx::suggesting`]).
    fn state(
        &self,
        ctx: &Ctx,
        g: &handeval_core::tienlen::Game,
        viewer: Option<i32>,
        suggest: Option<&pb::SuggestQuery>,
    ) -> Step<pb::TienlenGameState> {
        ctx.check(0, 1)?;
        ctx.suggesting("items", 0, suggest.is_some(), |go_on| {
            tl::state_of(g, viewer, suggest, self.record.base, &self.rules, go_on).map_err(ItemFail::Item)
        })
        .map_err(|f| item_fail(ctx, f))
    }

    fn start(ctx: &Ctx, t: pb::TienlenTable, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<(Self, Answer)> {
        let record = t.record.unwrap_or_default();
        unset_in_start(record.viewer.is_some(), record.suggest.is_some(), "tienlen")?;
        tl::game_call_checks(ctx, record.actions.len(), suggest)?;
        let rules = tl::rules(t.rules.as_ref(), ctx)?;
        ctx.check(0, 1)?;
        let (game, state) = ctx
            .suggesting("items", 0, suggest.is_some(), |go_on| {
                tl::game_item(&record, &rules, viewer, suggest, go_on).map_err(ItemFail::Item)
            })
            .map_err(|f| item_fail(ctx, f))?;
        Ok((TienlenTable { rules_msg: t.rules, rules, record, game }, Answer::Tienlen(state)))
    }

    fn action(&mut self, ctx: &Ctx, a: pb::table_action::Action, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<Answer> {
        use pb::table_action::Action as A;
        let play = match a {
            A::Play(p) => p,
            A::Deal(_) => {
                return Err(refused("action.deal", "越式13张 takes a play (a PlayAction); deal actions are 打儲's", Reason::Inconsistent))
            }
            A::Call(_) => {
                return Err(refused("action.call", "越式13张 takes a play (a PlayAction); calls are 打儲's", Reason::Inconsistent))
            }
        };
        tl::game_call_checks(ctx, self.actions() + 1, suggest)?;
        if let Some(next) = tl::apply_action(&self.game, &play) {
            let state = self.state(ctx, &next, viewer, suggest)?;
            self.record.actions.push(play);
            self.game = next;
            return Ok(Answer::Tienlen(state));
        }
        // Refused by the kept position: the whole record's replay says why, as the unary item.
        self.record.actions.push(play);
        ctx.check(0, 1).inspect_err(|_| drop(self.record.actions.pop()))?;
        let replayed = ctx.suggesting("items", 0, suggest.is_some(), |go_on| {
            tl::game_item(&self.record, &self.rules, viewer, suggest, go_on).map_err(ItemFail::Item)
        });
        match replayed {
            Ok((game, state)) => {
                self.game = game;
                Ok(Answer::Tienlen(state))
            }
            Err(f) => {
                self.record.actions.pop();
                Err(item_fail(ctx, f))
            }
        }
    }

    fn look(&self, ctx: &Ctx, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<Answer> {
        tl::game_call_checks(ctx, self.actions(), suggest)?;
        Ok(Answer::Tienlen(self.state(ctx, &self.game, viewer, suggest)?))
    }

    /// The unary Settle of the record deal (once a game: the record replayed again).
    fn settle(&self, ctx: &Ctx, s: pb::TableSettle) -> Step<Answer> {
        use pb::tienlen_settle_result::Result as R;
        if !s.escaped.is_empty() {
            return Err(refused("settle.escaped", "越式13张 has no escapes (打儲's DachuDeal.escaped)", Reason::Inconsistent));
        }
        let deal = pb::TienlenDeal { base: s.base, carried: s.carried, deal: Some(pb::tienlen_deal::Deal::Record(self.record.clone())) };
        let req = pb::TienlenSettleRequest { rules: self.rules_msg, deals: vec![deal] };
        match tl::settle(req, ctx)?.results.pop().and_then(|r| r.result) {
            Some(R::Settlement(s)) => Ok(Answer::TienlenSettlement(s)),
            Some(R::Error(e)) => Err(item_error(e)),
            None => Err(refused("settle", "the settle answered nothing", Reason::Invalid)),
        }
    }

    /// An estimate of the memory the table holds: the record as decoded (its messages and
    /// their heap) and the replayed game (its struct, its history, its rounds).
    fn bytes(&self) -> usize {
        use handeval_core::tienlen::Action;
        let g = &self.game;
        let r = &self.record;
        let record = vec_bytes(&r.hands) + r.hands.iter().map(cards_heap).sum::<usize>() + vec_bytes(&r.actions);
        let record = record + r.actions.iter().map(play_heap).sum::<usize>();
        let history: usize = g.history.iter().map(|(_, a)| if let Action::Play(c) = a { vec_bytes(c) } else { 0 }).sum();
        std::mem::size_of::<Table>()
            + record
            + g.hands().iter().map(|h| 24 + vec_bytes(h)).sum::<usize>()
            + g.players * 8
            + vec_bytes(&g.history)
            + history
            + vec_bytes(&g.current.plays)
            + g.current.plays.iter().map(|(_, p)| vec_bytes(&p.cards)).sum::<usize>()
            + vec_bytes(&g.current.passed)
            + vec_bytes(&g.tricks)
            + vec_bytes(&g.chops)
    }
}

impl DachuTable {
    fn lens(&self) -> [usize; 3] {
        [self.record.deal_actions.len(), self.record.calls.len(), self.record.plays.len()]
    }

    fn actions(&self) -> usize {
        self.lens().iter().sum()
    }

    fn state(&self, ctx: &Ctx, r: &Replayed, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<pb::DachuGameState> {
        ctx.check(0, 1)?;
        ctx.suggesting("items", 0, suggest.is_some(), |go_on| dc::state_of(r, viewer, suggest, go_on)).map_err(|f| item_fail(ctx, f))
    }

    /// The record (as it now is) replayed as the unary item replays it.
    fn replay(
        ctx: &Ctx,
        record: &pb::DachuGameRecord,
        rules: &handeval_core::dachu::Rules,
        viewer: Option<i32>,
        suggest: Option<&pb::SuggestQuery>,
    ) -> Step<(Replayed, pb::DachuGameState)> {
        ctx.check(0, 1)?;
        ctx.suggesting("items", 0, suggest.is_some(), |go_on| dc::game_item(record, rules, viewer, suggest, go_on))
            .map_err(|f| item_fail(ctx, f))
    }

    fn start(ctx: &Ctx, t: pb::DachuTable, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<(Self, Answer)> {
        let record = t.record.unwrap_or_default();
        unset_in_start(record.viewer.is_some(), record.suggest.is_some(), "dachu")?;
        dc::game_call_checks(ctx, [record.deal_actions.len(), record.calls.len(), record.plays.len()], suggest)?;
        let rules = dc::rules_from(t.rules.as_ref(), ctx)?;
        let (replayed, state) = Self::replay(ctx, &record, &rules, viewer, suggest)?;
        Ok((DachuTable { rules_msg: t.rules, rules, record, replayed }, Answer::Dachu(state)))
    }

    fn action(&mut self, ctx: &Ctx, a: pb::table_action::Action, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<Answer> {
        use pb::table_action::Action as A;
        let mut lens = self.lens();
        let list = match &a {
            A::Deal(_) => 0,
            A::Call(_) => 1,
            A::Play(_) => 2,
        };
        lens[list] += 1;
        dc::game_call_checks(ctx, lens, suggest)?;
        if let A::Play(p) = &a {
            if let Some(next) = dc::apply_play(&self.replayed, p) {
                // The state of the position with `next` in its play; the kept one back when refused.
                let kept = self.replayed.game.replace(next);
                match self.state(ctx, &self.replayed, viewer, suggest) {
                    Ok(state) => {
                        self.record.plays.push(p.clone());
                        return Ok(Answer::Dachu(state));
                    }
                    Err(no) => {
                        self.replayed.game = kept;
                        return Err(no);
                    }
                }
            }
        }
        // A deal action or a call (short phases), or a play the kept position refuses: the
        // whole record with it, replayed as the unary item.
        match a {
            A::Deal(d) => self.record.deal_actions.push(d),
            A::Call(c) => self.record.calls.push(c),
            A::Play(p) => self.record.plays.push(p),
        }
        match Self::replay(ctx, &self.record, &self.rules, viewer, suggest) {
            Ok((replayed, state)) => {
                self.replayed = replayed;
                Ok(Answer::Dachu(state))
            }
            Err(no) => {
                match list {
                    0 => drop(self.record.deal_actions.pop()),
                    1 => drop(self.record.calls.pop()),
                    _ => drop(self.record.plays.pop()),
                }
                Err(no)
            }
        }
    }

    fn look(&self, ctx: &Ctx, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<Answer> {
        dc::game_call_checks(ctx, self.lens(), suggest)?;
        Ok(Answer::Dachu(self.state(ctx, &self.replayed, viewer, suggest)?))
    }

    /// The unary Settle of the record deal (once a game: the record replayed again).
    fn settle(&self, ctx: &Ctx, s: pb::TableSettle) -> Step<Answer> {
        use pb::dachu_settle_result::Result as R;
        let deal = pb::DachuDeal {
            base: s.base,
            carried: s.carried,
            escaped: s.escaped,
            deal: Some(pb::dachu_deal::Deal::Record(self.record.clone())),
        };
        let req = pb::DachuSettleRequest { rules: self.rules_msg, deals: vec![deal] };
        match dc::settle(req, ctx)?.results.pop().and_then(|r| r.result) {
            Some(R::Settlement(s)) => Ok(Answer::DachuSettlement(s)),
            Some(R::Error(e)) => Err(item_error(e)),
            None => Err(refused("settle", "the settle answered nothing", Reason::Invalid)),
        }
    }

    /// An estimate of the memory the table holds: the record as decoded (its messages and
    /// their heap) and the replayed deal, calling and play (their structs and histories).
    fn bytes(&self) -> usize {
        use handeval_core::dachu::game::{Game, PlayAction};
        let (r, p) = (&self.replayed, &self.record);
        let record = vec_bytes(&p.hands)
            + p.hands.iter().map(cards_heap).sum::<usize>()
            + vec_bytes(&p.deal_actions)
            + p.deal_actions.iter().filter_map(|a| a.cards.as_ref()).map(cards_heap).sum::<usize>()
            + vec_bytes(&p.calls)
            + vec_bytes(&p.plays)
            + p.plays.iter().map(play_heap).sum::<usize>();
        // The dealt hands and what each seat holds: 52 cards each, in 4 vectors.
        let hands = 4 * (24 + 13 * std::mem::size_of::<handeval_core::cards::Card>());
        let deal = std::mem::size_of::<handeval_core::dachu::Deal>() + hands + vec_bytes(&r.deal.history);
        let calling = r.calling.as_ref().map_or(0, |c| {
            std::mem::size_of::<handeval_core::dachu::Calling>()
                + vec_bytes(&c.history)
                + vec_bytes(&c.finals)
                + c.sides.iter().map(vec_bytes).sum::<usize>()
        });
        let game = r.game.as_ref().map_or(0, |g| {
            std::mem::size_of::<Game>()
                + 2 * hands
                + vec_bytes(&g.history)
                + g.history.iter().map(|a| if let PlayAction::Play { cards, .. } = a { vec_bytes(cards) } else { 0 }).sum::<usize>()
                + vec_bytes(&g.tricks)
                + vec_bytes(&g.timeouts)
                + vec_bytes(&g.places)
                + g.table.as_ref().map_or(0, |t| vec_bytes(&t.1))
        });
        std::mem::size_of::<Table>() + record + deal + calling + game
    }
}

/// What a table's place in the stream's map takes besides the table: its entry (at the
/// map's load), its name, the Arc's counts and the lock.
fn slot_bytes(name: &str) -> usize {
    std::mem::size_of::<(String, Slot)>() * 8 / 7 + name.len() + 2 * 8 + std::mem::size_of::<Mutex<Table>>() - std::mem::size_of::<Table>()
}

/// The heap a `Cards` message holds (its vector and its strings).
fn cards_heap(c: &pb::Cards) -> usize {
    vec_bytes(&c.cards) + c.cards.iter().map(String::capacity).sum::<usize>()
}

/// The heap a PlayAction holds.
fn play_heap(a: &pb::PlayAction) -> usize {
    a.cards.as_ref().map_or(0, cards_heap) + vec_bytes(&a.columns) + a.columns.iter().map(cards_heap).sum::<usize>()
}

/// The heap a vector's buffer takes (not what its elements own).
// A capacity, which a slice has not.
#[allow(clippy::ptr_arg)]
fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

/// A start's record leaves `viewer` and `suggest` to the steps.
fn unset_in_start(viewer: bool, suggest: bool, game: &str) -> Step<()> {
    for (name, set) in [("viewer", viewer), ("suggest", suggest)] {
        if set {
            return Err(refused(
                &format!("start.{game}.record.{name}"),
                format!("a table's record leaves {name} unset: each step's own {name} says what it answers"),
                Reason::Inconsistent,
            ));
        }
    }
    Ok(())
}

impl Table {
    fn game(&self) -> &'static str {
        match self {
            Table::Tienlen(_) => "tienlen",
            Table::Dachu(_) => "dachu",
        }
    }

    /// The actions the table's record holds (TableAction.at).
    fn actions(&self) -> usize {
        match self {
            Table::Tienlen(t) => t.actions(),
            Table::Dachu(t) => t.actions(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Table::Tienlen(t) => t.bytes(),
            Table::Dachu(t) => t.bytes(),
        }
    }

    /// An action, a look or a settle (`step`, not a start or a close).
    fn step(&mut self, ctx: &Ctx, step: pb::tables_request::Step, viewer: Option<i32>, suggest: Option<&pb::SuggestQuery>) -> Step<Answer> {
        use pb::tables_request::Step as S;
        match step {
            S::Action(a) => {
                let count = self.actions();
                if let Some(at) = a.at.filter(|&at| at as usize != count) {
                    return Err(refused(
                        "action.at",
                        format!("the table's record holds {count} actions, not {at}: the action was not applied (resend it at {count}, or start the table again from its record)"),
                        Reason::Inconsistent,
                    ));
                }
                let Some(action) = a.action else {
                    return Err(refused("action", "set one of play, deal, call", Reason::Invalid));
                };
                match self {
                    Table::Tienlen(t) => t.action(ctx, action, viewer, suggest),
                    Table::Dachu(t) => t.action(ctx, action, viewer, suggest),
                }
            }
            S::Look(_) => match self {
                Table::Tienlen(t) => t.look(ctx, viewer, suggest),
                Table::Dachu(t) => t.look(ctx, viewer, suggest),
            },
            S::Settle(s) => match self {
                Table::Tienlen(t) => t.settle(ctx, s),
                Table::Dachu(t) => t.settle(ctx, s),
            },
            S::Start(_) | S::Close(_) => unreachable!("a start and a close are the stream's"),
        }
    }
}

/// `work` with the call's context for `game`, computing only in its turns when given
/// `turns` (as a unary call: [`crate::dispatch::answer`]).
fn in_turn<T>(call: &Call, limits: Limits, turns: Option<&Turns>, game: &'static str, work: impl FnOnce(&Ctx) -> Step<T>) -> Step<T> {
    match turns {
        None => work(&call.ctx(game, limits, None)),
        Some(turns) => {
            let turn = Mutex::new(Turn::start(turns, || call.check_stop(|| "before its work began".to_string())).map_err(No::Fail)?);
            work(&call.ctx(game, limits, Some(&turn)))
        }
    }
}

fn closed(reason: pb::TableClosedReason, message: String) -> Answer {
    Answer::Closed(pb::TableClosed { reason: reason as i32, message })
}

impl Tables {
    pub fn new(limits: TableLimits) -> Self {
        Tables { limits, slots: Mutex::new(HashMap::new()) }
    }

    /// Tables the stream holds.
    pub fn tables(&self) -> usize {
        self.slots.lock().unwrap().len()
    }

    /// An estimate of the memory the stream's tables hold (their records and their
    /// replayed positions: the bytes their structs and vectors take, without the
    /// allocator's own overhead per allocation), as of their last steps.
    pub fn bytes(&self) -> usize {
        self.slots.lock().unwrap().values().map(|s| s.bytes).sum()
    }

    /// Forgets every table (the stream ended).
    pub fn clear(&self) {
        let mut slots = self.slots.lock().unwrap();
        OPEN.fetch_sub(slots.len(), Ordering::Relaxed);
        slots.clear();
    }

    /// Removes the tables with no step for `idle`: a TablesResponse (`closed` IDLE) for
    /// each, encoded.
    pub fn expire(&self, idle: Duration) -> Vec<Vec<u8>> {
        let now = Instant::now();
        let mut slots = self.slots.lock().unwrap();
        let idle_names: Vec<String> = slots.iter().filter(|(_, s)| now.duration_since(s.last) >= idle).map(|(n, _)| n.clone()).collect();
        idle_names
            .into_iter()
            .map(|name| {
                slots.remove(&name);
                OPEN.fetch_sub(1, Ordering::Relaxed);
                let message =
                    format!("no step for {:.0} s: the server closed the table; start it again from its record", idle.as_secs_f64());
                pb::TablesResponse { table: name, actions: 0, answer: Some(closed(pb::TableClosedReason::Idle, message)) }.encode_to_vec()
            })
            .collect()
    }

    /// The answer's bytes (a TablesResponse) for one TablesRequest's bytes `data`; Err:
    /// bytes that are not a TablesRequest (field ""), or the call was cancelled or is
    /// past its deadline (the table as it was).
    pub fn step(&self, data: &[u8], call: &Call, turns: Option<&Turns>) -> Result<Vec<u8>, Fail> {
        let req = pb::TablesRequest::decode(data)
            .map_err(|e| Fail::bad("", format!("the request is not a valid handeval.v2.TablesRequest: {e}"), Reason::Invalid))?;
        Ok(self.answer(req, call, turns)?.encode_to_vec())
    }

    fn answer(&self, req: pb::TablesRequest, call: &Call, turns: Option<&Turns>) -> Result<pb::TablesResponse, Fail> {
        use pb::tables_request::Step as S;
        let pb::TablesRequest { table: name, step, viewer, suggest } = req;
        let suggest = suggest.as_ref();
        let reply = |name: String, actions: usize, answer: Answer| pb::TablesResponse {
            table: name,
            actions: actions as u32,
            answer: Some(answer),
        };
        let error = |name: String, actions: usize, no: No| match no {
            No::Refused(e) => Ok(reply(name, actions, Answer::Error(e))),
            No::Fail(f) => Err(f),
        };
        let refuse = |name: String, field: &str, message: String, reason: Reason| error(name, 0, refused(field, message, reason));
        if name.is_empty() {
            return refuse(name, "table", "name the table: 1 to 64 bytes".to_string(), Reason::Invalid);
        }
        if name.len() > MAX_TABLE_NAME_BYTES {
            let message = format!("{} bytes: a table's name is 1 to {MAX_TABLE_NAME_BYTES} bytes", name.len());
            // The answer names it by its first 64 bytes: a name of megabytes is not echoed.
            let mut cut = MAX_TABLE_NAME_BYTES;
            while !name.is_char_boundary(cut) {
                cut -= 1;
            }
            return refuse(name[..cut].to_string(), "table", message, Reason::TooLarge);
        }
        // A step's table is not idle from its beginning (a long search outlasting the idle
        // bound is not expired under it).
        let held = self.slots.lock().unwrap().get_mut(&name).map(|s| {
            s.last = Instant::now();
            s.table.clone()
        });
        let step = match (step, held) {
            (None, held) => {
                let actions = held.and_then(|t| t.lock().ok().map(|t| t.actions())).unwrap_or(0);
                return error(name, actions, refused("step", "set one of start, action, look, settle, close", Reason::Invalid));
            }
            (Some(S::Start(s)), held) => return self.start(name, s, held, viewer, suggest, call, turns),
            (Some(S::Close(_)), Some(_)) => {
                if self.slots.lock().unwrap().remove(&name).is_some() {
                    OPEN.fetch_sub(1, Ordering::Relaxed);
                }
                return Ok(reply(name, 0, closed(pb::TableClosedReason::Closed, String::new())));
            }
            (Some(_), None) => {
                let message = format!("no table {name:?} on this stream: start it from its record");
                return Ok(reply(name, 0, closed(pb::TableClosedReason::NotOpen, message)));
            }
            (Some(step), Some(table)) => (step, table),
        };
        let (step, table) = step;
        let Ok(mut t) = table.lock() else {
            // A step panicked in it (a bug): its state is not to be trusted; the client
            // starts it again from its record.
            if self.slots.lock().unwrap().remove(&name).is_some() {
                OPEN.fetch_sub(1, Ordering::Relaxed);
            }
            let message = format!("table {name:?} was lost to an internal error: start it again from its record");
            return Ok(reply(name, 0, closed(pb::TableClosedReason::NotOpen, message)));
        };
        let out = in_turn(call, self.limits.call, turns, t.game(), |ctx| t.step(ctx, step, viewer, suggest));
        let (actions, bytes) = (t.actions(), t.bytes() + slot_bytes(&name));
        drop(t);
        if let Some(slot) = self.slots.lock().unwrap().get_mut(&name).filter(|s| Arc::ptr_eq(&s.table, &table)) {
            slot.last = Instant::now();
            slot.bytes = bytes;
        }
        match out {
            Ok(answer) => Ok(reply(name, actions, answer)),
            Err(no) => error(name, actions, no),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn start(
        &self,
        name: String,
        s: pb::TableStart,
        held: Option<Arc<Mutex<Table>>>,
        viewer: Option<i32>,
        suggest: Option<&pb::SuggestQuery>,
        call: &Call,
        turns: Option<&Turns>,
    ) -> Result<pb::TablesResponse, Fail> {
        use pb::table_start::Game as G;
        let held_actions = held.as_ref().and_then(|t| t.lock().ok().map(|t| t.actions())).unwrap_or(0);
        let answer = |name: String, actions: usize, out: Step<Answer>| match out {
            Ok(a) => Ok(pb::TablesResponse { table: name, actions: actions as u32, answer: Some(a) }),
            Err(No::Refused(e)) => Ok(pb::TablesResponse { table: name, actions: actions as u32, answer: Some(Answer::Error(e)) }),
            Err(No::Fail(f)) => Err(f),
        };
        // A new table takes one place on the stream and one in the process before any work.
        let reserved = held.is_none();
        if reserved {
            let open = self.tables();
            if open >= self.limits.max_tables {
                let message =
                    format!("{open} tables are open on this stream, the most it holds (the server's --max-stream-tables): close one first");
                return answer(name, 0, Err(refused("start", message, Reason::TooLarge)));
            }
            let max = self.limits.max_open_tables;
            if OPEN.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| (n < max).then_some(n + 1)).is_err() {
                let message =
                    format!("{max} tables are open on this server, the most it holds (the server's --max-tables): close one first");
                return answer(name, 0, Err(refused("start", message, Reason::TooLarge)));
            }
        }
        let started = match s.game {
            None => Err(refused("start", "set one of tienlen, dachu", Reason::Invalid)),
            Some(G::Tienlen(t)) => in_turn(call, self.limits.call, turns, "tienlen", |ctx| TienlenTable::start(ctx, t, viewer, suggest))
                .map(|(t, a)| (Table::Tienlen(t), a)),
            Some(G::Dachu(t)) => in_turn(call, self.limits.call, turns, "dachu", |ctx| DachuTable::start(ctx, t, viewer, suggest))
                .map(|(t, a)| (Table::Dachu(t), a)),
        };
        let (table, state) = match started {
            Ok(x) => x,
            Err(no) => {
                if reserved {
                    OPEN.fetch_sub(1, Ordering::Relaxed);
                }
                return answer(name, held_actions, Err(no));
            }
        };
        let (actions, bytes) = (table.actions(), table.bytes() + slot_bytes(&name));
        let slot = Slot { table: Arc::new(Mutex::new(table)), last: Instant::now(), bytes };
        let mut slots = self.slots.lock().unwrap();
        // A table added or removed meanwhile (another thread's step on this stream) keeps
        // the count true: one count per held name.
        match (slots.insert(name.clone(), slot).is_some(), reserved) {
            (true, true) => drop(OPEN.fetch_sub(1, Ordering::Relaxed)),
            (false, false) => drop(OPEN.fetch_add(1, Ordering::Relaxed)),
            _ => {}
        }
        drop(slots);
        answer(name, actions, Ok(state))
    }
}

impl Drop for Tables {
    fn drop(&mut self) {
        let n = self.slots.get_mut().map_or(0, |s| s.len());
        OPEN.fetch_sub(n, Ordering::Relaxed);
    }
}

/// The bytes of a TablesRequest's `suggest` key, as on the wire (from the protos).
fn suggest_key() -> u64 {
    static KEY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *KEY.get_or_init(|| crate::codec::key_of(pb::TablesRequest { suggest: Some(Default::default()), ..Default::default() }))
}

/// Whether the TablesRequest `data` is cheap enough to answer on the caller's thread
/// (the servicer's event loop), from its size and its top-level fields alone: at most
/// [`crate::dispatch::INLINE_BYTES`] (as a unary call: a start's record is read, a settle's
/// replays at most what 52 cards allow) and asking no suggestion search (an effort above
/// 0; the default, 0, is the heuristic alone).
pub fn inline(data: &[u8]) -> bool {
    if data.len() > crate::dispatch::INLINE_BYTES {
        return false;
    }
    let mut buf = data;
    let ctx = prost::encoding::DecodeContext::default();
    while !buf.is_empty() {
        let Ok((tag, wire_type)) = prost::encoding::decode_key(&mut buf) else { return true };
        let key = u64::from(tag) << 3 | wire_type as u64;
        if key == suggest_key() {
            let Some(body) = crate::codec::take_len(&mut buf) else { return true };
            // Unset: the default effort (both games share it).
            return pb::SuggestQuery::decode(body)
                .map_or(true, |q| q.effort.unwrap_or(handeval_core::tienlen::suggest::DEFAULT_EFFORT) == 0);
        }
        if prost::encoding::skip_field(wire_type, tag, &mut buf, ctx.clone()).is_err() {
            // Not a valid message: the step refuses it without work.
            return true;
        }
    }
    true
}

#[cfg(test)]
mod tests;
