//! The gRPC wire in Rust: the servicer hands a request's bytes to [`handle`] and gets the
//! answer's bytes back (or a [`WireError`] naming the bad field). Requests are decoded
//! and answers encoded with prost types generated from `protos/` by `build.rs`, so the
//! protos stay the one definition of the wire form, and each game's results go from the
//! core's types to their messages in one conversion (`<game>/wire.rs`): no Python object
//! per row. Python keeps the server, auth, deadlines, cancellation, metrics and logs.

use handeval_core::{Error, Reason};
use prost::Message;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub use crate::sched::{Turn, WireTurns};

/// A call's turn as its checks see it: passed on when due (see [`Turn::pass`]).
pub trait Pass: Sync {
    fn pass(&self, call: &WireCall) -> Result<(), Fail>;
}

impl Pass for Mutex<Turn<'_>> {
    fn pass(&self, call: &WireCall) -> Result<(), Fail> {
        // Waiting for the next turn, the call still stops when cancelled.
        self.lock().unwrap().pass(|| call.check_stop(|| "waiting for its turn".to_string()))
    }
}

#[allow(clippy::all, dead_code)]
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/handeval.v2.rs"));
}

/// Deadline and cancellation are checked after this many items (and inside long work).
pub const CHECK_EVERY: usize = 16;
/// Longest description the server sends (a message quoting several cut values).
pub const MESSAGE_CHARS: usize = 1024;
/// gRPC cancels a call whose deadline passes by its own clock, which can run a few ms
/// ahead of ours: a cancel this close to the deadline is the deadline.
const DEADLINE_SLACK: Duration = Duration::from_millis(250);

/// `message` cut to [`MESSAGE_CHARS`] characters.
pub fn clip(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        Some((i, _)) => format!("{}…", &message[..i]),
        None => message,
    }
}

/// Field path parts → `a.b[2].c` (empty parts skipped, `[i]` glued on).
pub fn join(parts: &[&str]) -> String {
    let mut out = String::new();
    for p in parts.iter().filter(|p| !p.is_empty()) {
        if !out.is_empty() && !p.starts_with('[') {
            out.push('.');
        }
        out.push_str(p);
    }
    out
}

/// Why a call ends without an answer.
#[derive(Debug)]
pub enum Fail {
    /// The request as a whole is bad → INVALID_ARGUMENT naming `field` (a path from the
    /// top-level request's game, e.g. `tienlen.rules.turn_after_chop`).
    Bad { field: String, message: String, reason: Reason },
    /// The deadline passed (`DEADLINE_EXCEEDED`) or the client cancelled (`CANCELLED`).
    Stopped { code: &'static str, message: String },
}

impl Fail {
    pub fn bad(field: impl Into<String>, message: impl Into<String>, reason: Reason) -> Fail {
        Fail::Bad { field: field.into(), message: clip(message.into()), reason }
    }
}

/// What stops one item: its own error (written as the item's `ItemError`, the rest of
/// the batch goes on) or the request's (the call fails).
#[derive(Debug)]
pub enum ItemFail {
    Item(Error),
    Request(Fail),
}

impl From<Error> for ItemFail {
    fn from(e: Error) -> Self {
        ItemFail::Item(e)
    }
}

impl From<Fail> for ItemFail {
    fn from(f: Fail) -> Self {
        ItemFail::Request(f)
    }
}

/// A core error at the field `field` of the item (the proto field that held the
/// argument), the core's own path appended.
pub fn at(field: &str) -> impl FnOnce(Error) -> ItemFail + '_ {
    move |e| ItemFail::Item(e.within_opt(field))
}

trait Within {
    fn within_opt(self, field: &str) -> Error;
}

impl Within for Error {
    fn within_opt(self, field: &str) -> Error {
        if field.is_empty() {
            self
        } else {
            self.within(field)
        }
    }
}

/// The proto `ErrorReason` value of a core reason (the enums mirror each other; a test
/// keeps them equal).
pub fn reason_value(reason: Reason) -> i32 {
    let name = format!("ERROR_REASON_{}", reason.as_str().to_ascii_uppercase());
    pb::ErrorReason::from_str_name(&name).map_or(pb::ErrorReason::Invalid as i32, |r| r as i32)
}

/// The `ItemError` of an item's core error at `name[i]`.
pub fn item_error(name: &str, i: usize, e: Error) -> pb::ItemError {
    let head = format!("{name}[{i}]");
    pb::ItemError {
        field: join(&[&head, e.field.as_deref().unwrap_or("")]),
        reason: reason_value(e.reason),
        message: clip(e.message),
        action_index: e.action_index.and_then(|k| i32::try_from(k).ok()),
    }
}

/// One call in flight, shared between the servicer (Python: cancel, read the counts) and
/// the work (Rust: deadline checks, the counts).
#[pyclass(module = "handeval._core", frozen)]
pub struct WireCall {
    deadline: Option<Instant>,
    /// 0 running, 1 cancelled, 2 cancelled at the deadline.
    stop: AtomicU8,
    game: Mutex<&'static str>,
    items: AtomicUsize,
    item_errors: AtomicUsize,
}

#[pymethods]
impl WireCall {
    /// A call whose client waits `time_remaining` more seconds (None: no deadline).
    #[new]
    #[pyo3(signature = (time_remaining=None))]
    fn new(time_remaining: Option<f64>) -> Self {
        let deadline = time_remaining.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
        WireCall { deadline, stop: AtomicU8::new(0), game: Mutex::new(""), items: AtomicUsize::new(0), item_errors: AtomicUsize::new(0) }
    }

    /// The call's task was cancelled: the work stops at its next check, as
    /// DEADLINE_EXCEEDED when the deadline has (all but) passed, else CANCELLED.
    fn cancel(&self) {
        let expired = self.deadline.is_some_and(|d| Instant::now() + DEADLINE_SLACK > d);
        self.stop.store(if expired { 2 } else { 1 }, Ordering::Relaxed);
    }

    /// The status code the cancel stands for, or None while not cancelled.
    #[getter]
    fn cancelled(&self) -> Option<&'static str> {
        match self.stop.load(Ordering::Relaxed) {
            0 => None,
            1 => Some("CANCELLED"),
            _ => Some("DEADLINE_EXCEEDED"),
        }
    }

    /// The request's game ("" until decoded, or when it names none).
    #[getter]
    fn game(&self) -> &'static str {
        *self.game.lock().unwrap()
    }

    /// Items of the batch (十三水 Compare `order` rows and packed rows counted).
    #[getter]
    fn items(&self) -> usize {
        self.items.load(Ordering::Relaxed)
    }

    /// Items answered with an ItemError.
    #[getter]
    fn item_errors(&self) -> usize {
        self.item_errors.load(Ordering::Relaxed)
    }
}

/// A suggestion's work per unit of effort, in the request work budget's units (one
/// Arrange sample of one hand, ~40 µs of CPU): one determinization plays out each
/// weighed candidate to the end of the game, 1–2 ms (越式13张 ~1 ms, 打儲 ~2 ms).
pub const SUGGEST_WORK_PER_EFFORT: u64 = 32;

/// The server's limits, as its config sets them.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_batch: usize,
    pub max_samples: u32,
    /// The request work budget (`--max-request-work`): hands × (samples + 1) for
    /// Arrange, rows for bulk calls, records for Settle; 0 = none.
    pub max_work: u64,
}

/// What the work of one call sees: its limits, its clock, its counts.
pub struct Ctx<'a> {
    call: &'a WireCall,
    /// The call's turn on the compute threads (pooled calls), passed on at its checks.
    turn: Option<&'a dyn Pass>,
    pub limits: Limits,
    /// The game's field name in the top-level request (`"tienlen"`): every request-level
    /// field path starts with it.
    pub game: &'static str,
}

impl Ctx<'_> {
    /// `game.rest` — a request-level field path.
    pub fn field(&self, rest: &str) -> String {
        join(&[self.game, rest])
    }

    /// A request-level error at `game.rest`.
    pub fn bad(&self, rest: &str, message: impl Into<String>, reason: Reason) -> Fail {
        Fail::bad(self.field(rest), message, reason)
    }

    /// Counts `n` items of the batch field `name` (of which `len` are entries of the
    /// field itself; the rest are rows inside them) against `--max-batch`: a larger batch
    /// is the request's fault (TOO_LARGE), found before any work.
    pub fn batch(&self, name: &str, len: usize, n: usize) -> Result<(), Fail> {
        self.call.items.store(n, Ordering::Relaxed);
        self.work(name, n as u64, || format!("{n} {name}"))?;
        let max = self.limits.max_batch;
        if n <= max {
            return Ok(());
        }
        let message = if n != len {
            format!("{n} {name} (counting the rows of order items) exceed the limit of {max} per request (split the batch; the server's --max-batch)")
        } else {
            format!("{n} {name} exceed the limit of {max} per request (split the batch; the server's --max-batch)")
        };
        Err(self.bad(name, message, Reason::TooLarge))
    }

    /// Refuses a request whose work, `units` (described by `what`, e.g. "10000 items ×
    /// (100 samples + 1)"), is over the request work budget: TOO_LARGE at `name`, before
    /// any work.
    pub fn work(&self, name: &str, units: u64, what: impl FnOnce() -> String) -> Result<(), Fail> {
        let max = self.limits.max_work;
        if max == 0 || units <= max {
            return Ok(());
        }
        let message = format!("{} = {units} units of work exceed the request work budget of {max} (split the request; the server's --max-request-work)", what());
        Err(self.bad(name, message, Reason::TooLarge))
    }

    /// Counts the suggestions (托管) asked in the batch `name` of `n` items against the
    /// request work budget with the items: `efforts`, the effort each asks (over
    /// [`MAX_EFFORT`](handeval_core::tienlen::suggest::MAX_EFFORT) counted as the
    /// largest: the item fails OUT_OF_RANGE without work).
    pub fn suggestions(&self, name: &str, n: usize, efforts: impl Iterator<Item = u32>) -> Result<(), Fail> {
        let max = handeval_core::tienlen::suggest::MAX_EFFORT;
        let (asked, total) = efforts.fold((0u64, 0u64), |(k, t), e| (k + 1, t + e.min(max) as u64));
        if total == 0 {
            return Ok(());
        }
        let units = n as u64 + total * SUGGEST_WORK_PER_EFFORT;
        self.work(name, units, || {
            format!("{n} items + {asked} suggestions of {total} determinizations in all × {SUGGEST_WORK_PER_EFFORT}")
        })
    }

    /// Adds `n` to the items counted for the metrics (packed rows: not items of
    /// `--max-batch`, bounded by the message size).
    /// They count against the request work budget with the items (`name`: their field).
    pub fn count_more(&self, name: &str, n: usize) -> Result<(), Fail> {
        let items = self.call.items.fetch_add(n, Ordering::Relaxed);
        if items == 0 {
            return self.work(name, n as u64, || format!("{n} {name}"));
        }
        self.work(name, (items + n) as u64, || format!("{items} items + {n} {name}"))
    }

    /// Stops the work when the deadline passed or the call was cancelled; `where_` says
    /// where (e.g. "after 32 of 100 items").
    pub fn check_at(&self, where_: impl FnOnce() -> String) -> Result<(), Fail> {
        self.call.check_stop(where_)?;
        match self.turn {
            // Waiting for the next turn, the call still stops when cancelled.
            Some(turn) => turn.pass(self.call),
            None => Ok(()),
        }
    }

    pub fn check(&self, done: usize, total: usize) -> Result<(), Fail> {
        self.check_at(|| format!("after {done} of {total} items"))
    }

    /// Inside work that cannot stop (a hand's sample blocks): passes the turn on when
    /// due. A stop found meanwhile leaves the turn given back; the next [`Ctx::check`]
    /// ends the call.
    pub fn pass_turn(&self) {
        if let Some(turn) = self.turn {
            let _ = turn.pass(self.call);
        }
    }
}

impl WireCall {
    /// Err when the deadline passed or the call was cancelled; `where_` says where (e.g.
    /// "after 32 of 100 items").
    pub fn check_stop(&self, where_: impl FnOnce() -> String) -> Result<(), Fail> {
        let mut stop = self.stop.load(Ordering::Relaxed);
        // A call past its deadline stops for it, even when the cancel came first: a
        // loaded server can see the client's cancel at the deadline ahead of its own
        // clock's deadline by more than the slack (the request's headers read late).
        if stop != 2 && self.deadline.is_some_and(|d| Instant::now() > d) {
            stop = 2;
        }
        match stop {
            0 => Ok(()),
            1 => Err(Fail::Stopped { code: "CANCELLED", message: format!("the call was cancelled; stopped {}", where_()) }),
            _ => Err(Fail::Stopped { code: "DEADLINE_EXCEEDED", message: format!("deadline exceeded; stopped {}", where_()) }),
        }
    }
}

impl Ctx<'_> {
    /// The `ItemError` of the item `name[i]` (counted), for work that answers items out of
    /// [`Ctx::each`] (e.g. in chunks).
    pub fn item_failed(&self, name: &str, i: usize, e: Error) -> pb::ItemError {
        self.call.item_errors.fetch_add(1, Ordering::Relaxed);
        item_error(name, i, e)
    }

    /// One result per item of the batch field `name`: `f(i, item)` answers the item; its
    /// core error becomes the result `error(ItemError)` at `name[i].…` (counted); a
    /// request error fails the call. The deadline is checked every [`CHECK_EVERY`] items.
    pub fn each<I, R>(
        &self,
        name: &str,
        items: impl IntoIterator<Item = I, IntoIter: ExactSizeIterator>,
        mut f: impl FnMut(usize, I) -> Result<R, ItemFail>,
        error: impl Fn(pb::ItemError) -> R,
    ) -> Result<Vec<R>, Fail> {
        let items = items.into_iter();
        let mut out = Vec::with_capacity(items.len());
        self.each_in(name, items, &mut out, |out, i, item| f(i, item).map(|r| out.push(r)), |out, e| out.push(error(e)))?;
        Ok(out)
    }

    /// [`Ctx::each`] writing each item's answer into `sink` (e.g. straight into an encoded
    /// answer): `f(sink, i, item)` writes the item's answer, `error(sink, ItemError)` an
    /// item's error in its place.
    pub fn each_in<I, S>(
        &self,
        name: &str,
        items: impl IntoIterator<Item = I, IntoIter: ExactSizeIterator>,
        sink: &mut S,
        mut f: impl FnMut(&mut S, usize, I) -> Result<(), ItemFail>,
        mut error: impl FnMut(&mut S, pb::ItemError),
    ) -> Result<(), Fail> {
        let items = items.into_iter();
        let total = items.len();
        for (i, item) in items.enumerate() {
            if i % CHECK_EVERY == 0 {
                self.check(i, total)?;
            }
            match f(sink, i, item) {
                Ok(()) => {}
                Err(ItemFail::Item(e)) => {
                    self.call.item_errors.fetch_add(1, Ordering::Relaxed);
                    error(sink, item_error(name, i, e));
                }
                Err(ItemFail::Request(fail)) => return Err(fail),
            }
        }
        Ok(())
    }
}

// ---- rules: the proto rules message → the core's Rules ----

/// A rule option's value as its proto field carries it (`P`: bool, int32, string or an
/// enum's int32) → the core's type; `Ok(None)` for an enum's UNSPECIFIED (the default).
/// The error is the description (the field and the reason BAD_RULE are the caller's).
pub trait WireOption<P>: Sized {
    fn from_wire(value: &P) -> Result<Option<Self>, String>;
}

impl WireOption<bool> for bool {
    fn from_wire(value: &bool) -> Result<Option<bool>, String> {
        Ok(Some(*value))
    }
}

impl WireOption<i32> for u32 {
    fn from_wire(value: &i32) -> Result<Option<u32>, String> {
        u32::try_from(*value).map(Some).map_err(|_| format!("must be a non-negative integer (got {value})"))
    }
}

impl WireOption<String> for handeval_core::shisanshui::SuitOrder {
    fn from_wire(value: &String) -> Result<Option<Self>, String> {
        Self::parse(value).map(Some).map_err(|e| e.message)
    }
}

/// Proto enum value names whose API name is not their suffix lower-cased (as
/// `ENUM_ALIASES` in common.py).
const ENUM_ALIASES: &[(&str, &str)] = &[("DACHU_TEAMS_ONE_VS_THREE", "1v3"), ("DACHU_TEAMS_TWO_VS_TWO", "2v2")];

/// The API name of the enum value named `value` (`SHISANSHUI_A2345_SECOND_HIGHEST`) of the
/// enum whose zero is named `unspecified` (`SHISANSHUI_A2345_UNSPECIFIED`):
/// `second_highest`.
pub fn api_name(value: &str, unspecified: &str) -> String {
    if let Some((_, alias)) = ENUM_ALIASES.iter().find(|(v, _)| *v == value) {
        return (*alias).to_string();
    }
    let prefix = unspecified.trim_end_matches("UNSPECIFIED");
    value.strip_prefix(prefix).unwrap_or(value).to_ascii_lowercase()
}

/// Enum-valued rule options: `Core => proto enum`, read by the core's `parse` of the
/// value's API name; an unknown number is refused like common.py's `enum_name`.
macro_rules! enum_options {
    ($($core:ty => $proto:ident;)+) => {$(
        impl WireOption<i32> for $core {
            fn from_wire(value: &i32) -> Result<Option<Self>, String> {
                let e = pb::$proto::try_from(*value).map_err(|_| format!("{value} is not a value of {}", stringify!($proto)))?;
                if *value == 0 {
                    return Ok(None);
                }
                <$core>::parse(&api_name(e.as_str_name(), pb::$proto::Unspecified.as_str_name())).map(Some).map_err(|e| e.message)
            }
        }
    )+};
}

enum_options! {
    handeval_core::shisanshui::WheelRank => ShisanshuiA2345;
    handeval_core::tienlen::TurnAfterChop => TienlenTurnAfterChop;
    handeval_core::dachu::rules::UnitPer => DachuUnitPer;
    handeval_core::dachu::rules::FirstCaller => DachuSide;
    handeval_core::dachu::rules::DeclareOncePer => DachuDeclareOncePer;
    handeval_core::dachu::rules::TimeoutDisplay => DachuTimeoutDisplay;
}

/// A rules error of the core's `validate()` at `<game>.rules.<option>`: the core's reason
/// when it names one, else BAD_RULE (like common.py's `rule_reason`).
pub fn rules_fail(ctx: &Ctx, e: Error) -> Fail {
    let reason = if e.reason == Reason::Invalid { Reason::BadRule } else { e.reason };
    ctx.bad(&join(&["rules", e.field.as_deref().unwrap_or("")]), e.message, reason)
}

/// Declares `fn name(Option<&proto rules>, &Ctx) -> Result<core Rules, Fail>` from the
/// core's list of a game's options (called by the core's `<game>_rule_options!`, so the
/// options are not listed twice): an unset option (or an enum's UNSPECIFIED) is the
/// core's default, each set one read by its type's [`WireOption`], the whole checked by
/// the core's `validate()`; a bad value fails the request at `<game>.rules.<option>`.
#[macro_export]
macro_rules! wire_rules {
    (
        $(#[$meta:meta])*
        pub fn $fname:ident($msg:ty) -> $core:path;
        $( $(#[$ometa:meta])* $opt:ident : $ty:ty = $default:expr; )+
    ) => {
        $(#[$meta])*
        pub fn $fname(m: Option<&$msg>, ctx: &$crate::wire::Ctx) -> Result<$core, $crate::wire::Fail> {
            type Core = $core; // a path cannot name a struct literal; an alias can
            let d = Core::default();
            let Some(m) = m else { return Ok(d) };
            let core = Core { $( $opt: match &m.$opt {
                None => d.$opt,
                Some(v) => <$ty as $crate::wire::WireOption<_>>::from_wire(v)
                    .map_err(|msg| ctx.bad(concat!("rules.", stringify!($opt)), msg, handeval_core::Reason::BadRule))?
                    .unwrap_or(d.$opt),
            } ),+ };
            core.validate().map_err(|e| $crate::wire::rules_fail(ctx, e))?;
            Ok(core)
        }
    };
}

pyo3::create_exception!(
    _core,
    WireError,
    pyo3::exceptions::PyException,
    "A call that ends without an answer: `code` (INVALID_ARGUMENT, DEADLINE_EXCEEDED, \
     CANCELLED), `field` (the bad field's path, \"\" for none), `description`, `reason` \
     (a core reason name)."
);

fn raise(py: Python<'_>, fail: Fail) -> PyErr {
    let (code, field, message, reason) = match fail {
        Fail::Bad { field, message, reason } => ("INVALID_ARGUMENT", field, message, reason.as_str()),
        Fail::Stopped { code, message } => (code, String::new(), message, Reason::Invalid.as_str()),
    };
    let text = if field.is_empty() { message.clone() } else { format!("{field}: {message}") };
    let err = WireError::new_err(text);
    let value = err.value(py);
    let _ = value.setattr("code", code);
    let _ = value.setattr("field", field);
    let _ = value.setattr("description", message);
    let _ = value.setattr("reason", reason);
    err
}

/// The RPCs, by their names in the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rpc {
    Evaluate,
    Compare,
    Settle,
    Arrange,
}

impl Rpc {
    fn from_name(name: &str) -> Option<Rpc> {
        Some(match name {
            "Evaluate" => Rpc::Evaluate,
            "Compare" => Rpc::Compare,
            "Settle" => Rpc::Settle,
            "Arrange" => Rpc::Arrange,
            _ => return None,
        })
    }

    fn request_type(self) -> &'static str {
        match self {
            Rpc::Evaluate => "handeval.v2.EvaluateRequest",
            Rpc::Compare => "handeval.v2.CompareRequest",
            Rpc::Settle => "handeval.v2.SettleRequest",
            Rpc::Arrange => "handeval.v2.ArrangeRequest",
        }
    }
}

fn decode<M: Message + Default>(rpc: Rpc, data: &[u8]) -> Result<M, Fail> {
    M::decode(data).map_err(|e| Fail::bad("", format!("the request is not a valid {}: {e}", rpc.request_type()), Reason::Invalid))
}

fn no_game(choices: &str) -> Fail {
    Fail::bad("game", format!("set one of {choices}"), Reason::Invalid)
}

/// The answer's bytes for the request `data` of `rpc`.
fn answer<'a>(rpc: Rpc, data: &[u8], call: &'a WireCall, limits: Limits, turn: Option<&'a dyn Pass>) -> Result<Vec<u8>, Fail> {
    use crate::{dachu::wire as dc, shisanshui::wire as ssw, tienlen::wire as tl};
    let ctx = |game: &'static str| {
        *call.game.lock().unwrap() = game;
        Ctx { call, turn, limits, game }
    };
    let out = match rpc {
        Rpc::Evaluate => {
            if let Some(out) = ssw::evaluate_fast(data, || ctx("shisanshui"))? {
                return Ok(out);
            }
            use pb::evaluate_request::Game as Q;
            use pb::evaluate_response::Game as A;
            let game = decode::<pb::EvaluateRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui, tienlen, dachu"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::evaluate(r, &ctx("shisanshui"))?),
                Q::Tienlen(r) => A::Tienlen(tl::evaluate(r, &ctx("tienlen"))?),
                Q::Dachu(r) => A::Dachu(dc::evaluate(r, &ctx("dachu"))?),
            };
            pb::EvaluateResponse { game: Some(game) }.encode_to_vec()
        }
        Rpc::Compare => {
            use pb::compare_request::Game as Q;
            use pb::compare_response::Game as A;
            let game = decode::<pb::CompareRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui, tienlen, dachu"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::compare(r, &ctx("shisanshui"))?),
                Q::Tienlen(r) => A::Tienlen(tl::compare(r, &ctx("tienlen"))?),
                Q::Dachu(r) => A::Dachu(dc::compare(r, &ctx("dachu"))?),
            };
            pb::CompareResponse { game: Some(game) }.encode_to_vec()
        }
        Rpc::Settle => {
            use pb::settle_request::Game as Q;
            use pb::settle_response::Game as A;
            let game = decode::<pb::SettleRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui, tienlen, dachu"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::settle(r, &ctx("shisanshui"))?),
                Q::Tienlen(r) => A::Tienlen(tl::settle(r, &ctx("tienlen"))?),
                Q::Dachu(r) => A::Dachu(dc::settle(r, &ctx("dachu"))?),
            };
            pb::SettleResponse { game: Some(game) }.encode_to_vec()
        }
        Rpc::Arrange => {
            use pb::arrange_request::Game as Q;
            use pb::arrange_response::Game as A;
            let game = decode::<pb::ArrangeRequest>(rpc, data)?.game.ok_or_else(|| no_game("shisanshui"))?;
            let game = match game {
                Q::Shisanshui(r) => A::Shisanshui(ssw::arrange(r, &ctx("shisanshui"))?),
            };
            pb::ArrangeResponse { game: Some(game) }.encode_to_vec()
        }
    };
    Ok(out)
}

/// The answer's bytes for the request bytes `data` of the RPC named `rpc`. With `detach`
/// the GIL is released for the work (the servicer's worker threads); without, it runs on
/// the caller's thread holding the GIL (small requests on the event loop, where the hop
/// to a thread costs more than the work). Given `turns`, the work computes only in its
/// turns (see [`WireTurns`]): it waits for one first and passes it on at its checks.
/// Raises WireError for a bad request, a request over `max_work` (0: no budget), a
/// passed deadline or a cancel.
#[pyfunction]
#[pyo3(signature = (rpc, data, call, max_batch, max_samples, detach, max_work=0, turns=None))]
#[allow(clippy::too_many_arguments)]
fn wire_answer<'py>(
    py: Python<'py>,
    rpc: &str,
    data: &[u8],
    call: &WireCall,
    max_batch: usize,
    max_samples: u32,
    detach: bool,
    max_work: u64,
    turns: Option<&WireTurns>,
) -> PyResult<Bound<'py, PyBytes>> {
    let rpc = Rpc::from_name(rpc).ok_or_else(|| pyo3::exceptions::PyValueError::new_err(format!("no RPC named {rpc:?}")))?;
    let limits = Limits { max_batch, max_samples, max_work };
    let work = || match turns {
        None => answer(rpc, data, call, limits, None),
        Some(turns) => {
            let turn = Mutex::new(Turn::start(turns, || call.check_stop(|| "before its work began".to_string()))?);
            answer(rpc, data, call, limits, Some(&turn))
        }
    };
    let out = if detach { py.detach(work) } else { work() };
    match out {
        Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
        Err(fail) => Err(raise(py, fail)),
    }
}

/// Requests of at most this many bytes are answered on the servicer's event loop (not an
/// Arrange, and asking no suggestion): decoding, work and encoding cost tens of ns per
/// byte for every other item kind, so the largest takes well under a millisecond, less
/// than the hop to a worker thread and back.
pub const INLINE_BYTES: usize = 1024;

/// The key of a game record's `suggest` (field 50, a message: `50 << 3 | 2` as a varint):
/// a request that holds these bytes may ask for a search (up to ~0.1 s at the largest
/// effort) that its size does not tell. Other bytes that happen to match only send a small
/// request to the thread pool.
const SUGGEST_KEY: [u8; 2] = [0x92, 0x03];

fn inline(rpc: Option<Rpc>, data: &[u8], budget: f64) -> bool {
    match rpc {
        None | Some(Rpc::Arrange) => false,
        Some(_) if data.len() <= INLINE_BYTES => !data.windows(2).any(|w| w == SUGGEST_KEY),
        Some(Rpc::Evaluate) => crate::shisanshui::wire::evaluate_within(data, budget),
        Some(_) => false,
    }
}

/// Whether the request `data` of the RPC named `rpc` is cheap enough to answer on the
/// caller's thread (the servicer's event loop), from its size and shape alone (nothing
/// decoded): at most [`INLINE_BYTES`] and asking no suggestion, or a 十三水 Evaluate of
/// card-string rows or packed rows whose work a walk over its fields prices at most
/// `budget` seconds (stopped once past it). Never an Arrange.
#[pyfunction]
fn wire_inline(rpc: &str, data: &[u8], budget: f64) -> bool {
    inline(Rpc::from_name(rpc), data, budget)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<WireCall>()?;
    m.add_class::<WireTurns>()?;
    m.add_function(wrap_pyfunction!(wire_inline, m)?)?;
    m.add("WIRE_INLINE_BYTES", INLINE_BYTES)?;
    m.add("WireError", m.py().get_type::<WireError>())?;
    m.add_function(wrap_pyfunction!(wire_answer, m)?)?;
    Ok(())
}

// ---- shared conversions of the games' wire modules (cards, enums, rules, error paths) ----

/// The cards of a `Cards` message (each entry one card token, parsed by the core; unset =
/// none), like the Python API given `list(m.cards)`.
pub fn cards(m: Option<&pb::Cards>) -> Result<Vec<handeval_core::cards::Card>, Error> {
    handeval_core::cards::parse_tokens(m.map_or(&[][..], |c| &c.cards[..]))
}

/// A `Cards` message of `cards`, in the order given.
pub fn cards_msg(cards: &[handeval_core::cards::Card]) -> pb::Cards {
    pb::Cards { cards: cards.iter().map(|c| c.to_string()).collect() }
}

/// The proto enum value named `prefix` + the core's `name` upper-cased (e.g.
/// `TIENLEN_PLAY_KIND_` + `three_pair_run`); 0 (UNSPECIFIED) if the enum has none
/// (tests/grpc/test_grpc_protos.py keeps the enums equal to the core's lists).
pub fn enum_value<E: Into<i32>>(from_str_name: fn(&str) -> Option<E>, prefix: &str, name: &str) -> i32 {
    from_str_name(&format!("{prefix}{}", name.to_ascii_uppercase())).map_or(0, Into::into)
}

/// The core's name of the proto enum value `value` (its name after `prefix`, lower-cased):
/// `Ok(None)` for 0 (UNSPECIFIED); an unknown number (a newer client) is an error message
/// naming the enum (`enum_name`).
pub fn enum_name<E: TryFrom<i32>>(value: i32, prefix: &str, enum_name: &str, as_str_name: fn(&E) -> &'static str) -> Result<Option<String>, String> {
    if value == 0 {
        return Ok(None);
    }
    match E::try_from(value) {
        Ok(e) => Ok(Some(as_str_name(&e).strip_prefix(prefix).unwrap_or("").to_ascii_lowercase())),
        Err(_) => Err(format!("{value} is not a value of {enum_name}")),
    }
}

/// A core error's field as the proto names it (common.rename): the first segment of its
/// path renamed by `renames` (the API's argument name → the proto field; `""` drops it),
/// the whole under `prefix`.
pub fn rename(mut e: Error, renames: &[(&str, &str)], prefix: &str) -> Error {
    let field = e.field.take().unwrap_or_default();
    let (head, rest) = field.split_once('.').map_or((field.as_str(), ""), |(h, r)| (h, r));
    let (base, index) = head.find('[').map_or((head, ""), |i| head.split_at(i));
    let field = match renames.iter().find(|(from, _)| *from == base) {
        Some((_, to)) => join(&[to, index, rest]),
        None => field.clone(),
    };
    let field = join(&[prefix, &field]);
    e.field = (!field.is_empty()).then_some(field);
    e
}

/// A core error reported at `field` alone (common.at: the proto field that held the
/// argument, in place of the core's own path).
pub fn only(field: &str) -> impl FnOnce(Error) -> ItemFail + '_ {
    move |mut e| {
        e.field = (!field.is_empty()).then(|| field.to_string());
        ItemFail::Item(e)
    }
}

// ---- hand-written codecs: the protos' field keys, read from the generated types ----

/// The key (`tag << 3 | wire type`, as on the wire) of the one field set in `probe`: a
/// message of the generated types with exactly that field set, so the field numbers and
/// wire types of a hand-written codec come from the protos, not retyped.
pub fn key_of(probe: impl Message) -> u64 {
    let bytes = probe.encode_to_vec();
    let mut buf = &bytes[..];
    prost::encoding::decode_varint(&mut buf).expect("a probe message sets a field")
}

/// Appends the field key `key` (see [`key_of`]).
#[inline]
pub fn put_key(key: u64, out: &mut Vec<u8>) {
    put_varint(key, out);
}

/// Appends the varint `v` (prost's encoding; one byte without its loop).
#[inline]
pub fn put_varint(v: u64, out: &mut Vec<u8>) {
    if v < 0x80 {
        out.push(v as u8);
    } else {
        prost::encoding::encode_varint(v, out);
    }
}

/// Bytes of a field key or length.
#[inline]
pub fn varint_len(v: u64) -> usize {
    prost::encoding::encoded_len_varint(v)
}

/// Reads one length-delimited field's body (the key already read): its length, then as
/// many bytes (None when the buffer is shorter: not a valid message).
#[inline]
pub fn take_len<'a>(buf: &mut &'a [u8]) -> Option<&'a [u8]> {
    let n = prost::encoding::decode_varint(buf).ok()?;
    let n = usize::try_from(n).ok()?;
    if n > buf.len() {
        return None;
    }
    let (body, rest) = buf.split_at(n);
    *buf = rest;
    Some(body)
}

/// The body of `data` when it is exactly one field of key `key`, length-delimited (e.g. a
/// top-level request's game).
pub fn only_field(data: &[u8], key: u64) -> Option<&[u8]> {
    let mut buf = data;
    if prost::encoding::decode_varint(&mut buf).ok()? != key {
        return None;
    }
    let body = take_len(&mut buf)?;
    buf.is_empty().then_some(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    fn tienlen_game(suggest: Option<pb::SuggestQuery>) -> Vec<u8> {
        use pb::tienlen_evaluate_item::Item;
        let hands = ["3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks 2c 2d", "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh 2s 2h"]
            .iter()
            .map(|h| pb::Cards { cards: h.split(' ').map(str::to_string).collect() })
            .collect();
        let record = pb::TienlenGameRecord { hands, suggest, ..Default::default() };
        let req = pb::TienlenEvaluateRequest { items: vec![pb::TienlenEvaluateItem { item: Some(Item::Game(record)) }], ..Default::default() };
        pb::EvaluateRequest { game: Some(pb::evaluate_request::Game::Tienlen(req)) }.encode_to_vec()
    }

    #[test]
    fn a_small_request_asking_a_suggestion_is_not_answered_on_the_loop() {
        let plain = tienlen_game(None);
        let asking = tienlen_game(Some(pb::SuggestQuery { effort: Some(64), ..Default::default() }));
        assert!(asking.len() <= INLINE_BYTES, "{} bytes", asking.len());
        assert!(inline(Some(Rpc::Evaluate), &plain, 1e-3));
        assert!(!inline(Some(Rpc::Evaluate), &asking, 1e-3));
        assert!(!inline(Some(Rpc::Arrange), &plain, 1e-3));
        // Even an empty query (the default effort) carries the key.
        assert!(!inline(Some(Rpc::Evaluate), &tienlen_game(Some(pb::SuggestQuery::default())), 1e-3));
    }
}
