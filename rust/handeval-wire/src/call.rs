//! One call in flight ([`Call`]: deadline, cancel, counts) and what its work sees
//! ([`Ctx`]: the server's limits, the batch and work-budget checks, the deadline checks
//! and the call's turn on the compute threads).

use crate::fail::{item_error, join, Fail, ItemFail};
use crate::pb;
use crate::sched::Turn;
use handeval_core::{Error, Reason};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A call's turn as its checks see it: passed on when due (see [`Turn::pass`]).
pub(crate) trait Pass: Sync {
    fn pass(&self, call: &Call) -> Result<(), Fail>;
}

impl Pass for Mutex<Turn<'_>> {
    fn pass(&self, call: &Call) -> Result<(), Fail> {
        // Waiting for the next turn, the call still stops when cancelled.
        self.lock().unwrap().pass(|| call.check_stop(|| "waiting for its turn".to_string()))
    }
}

/// Deadline and cancellation are checked after this many items (and inside long work).
pub(crate) const CHECK_EVERY: usize = 16;
/// gRPC cancels a call whose deadline passes by its own clock, which can run a few ms
/// ahead of ours: a cancel this close to the deadline is the deadline.
const DEADLINE_SLACK: Duration = Duration::from_millis(250);

/// One call in flight, shared between the servicer (cancel, read the counts) and the
/// work (deadline checks, the counts).
#[derive(Debug)]
pub struct Call {
    deadline: Option<Instant>,
    /// 0 running, 1 cancelled, 2 cancelled at the deadline.
    stop: AtomicU8,
    game: Mutex<&'static str>,
    items: AtomicUsize,
    item_errors: AtomicUsize,
}

impl Default for Call {
    fn default() -> Self {
        Call::new(None)
    }
}

impl Call {
    /// A call whose client waits `time_remaining` more seconds (None: no deadline).
    pub fn new(time_remaining: Option<f64>) -> Self {
        let deadline = time_remaining.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)));
        Call { deadline, stop: AtomicU8::new(0), game: Mutex::new(""), items: AtomicUsize::new(0), item_errors: AtomicUsize::new(0) }
    }

    /// The call's task was cancelled: the work stops at its next check, as
    /// DEADLINE_EXCEEDED when the deadline has (all but) passed, else CANCELLED.
    pub fn cancel(&self) {
        let expired = self.deadline.is_some_and(|d| Instant::now() + DEADLINE_SLACK > d);
        self.stop.store(if expired { 2 } else { 1 }, Ordering::Relaxed);
    }

    /// The status code the cancel stands for, or None while not cancelled.
    pub fn cancelled(&self) -> Option<&'static str> {
        match self.stop.load(Ordering::Relaxed) {
            0 => None,
            1 => Some("CANCELLED"),
            _ => Some("DEADLINE_EXCEEDED"),
        }
    }

    /// The request's game ("" until decoded, or when it names none).
    pub fn game(&self) -> &'static str {
        *self.game.lock().unwrap()
    }

    /// Items of the batch (十三水 Compare `order` rows and packed rows counted).
    pub fn items(&self) -> usize {
        self.items.load(Ordering::Relaxed)
    }

    /// Items answered with an ItemError.
    pub fn item_errors(&self) -> usize {
        self.item_errors.load(Ordering::Relaxed)
    }

    /// The work of the game `game` (its field in the top-level request) begins.
    pub(crate) fn ctx<'a>(&'a self, game: &'static str, limits: Limits, turn: Option<&'a dyn Pass>) -> Ctx<'a> {
        *self.game.lock().unwrap() = game;
        Ctx { call: self, turn, limits, game }
    }
    /// Err when the deadline passed or the call was cancelled; `where_` says where (e.g.
    /// "after 32 of 100 items").
    pub(crate) fn check_stop(&self, where_: impl FnOnce() -> String) -> Result<(), Fail> {
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

/// A suggestion's work per unit of effort, in the request work budget's units (one
/// Arrange sample of one hand, ~70 µs of CPU, docs/benchmarks.md): one determinization
/// plays out each weighed candidate to the end of the game, at most ~1.3 ms (越式13张) and
/// ~1.9 ms (打儲) single-threaded (`tournament … --effort 1 --latency`, docs/suggest.md);
/// 32 units (~2.2 ms) cover the slower.
pub(crate) const SUGGEST_WORK_PER_EFFORT: u64 = 32;

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
pub(crate) struct Ctx<'a> {
    call: &'a Call,
    /// The call's turn on the compute threads (pooled calls), passed on at its checks.
    turn: Option<&'a dyn Pass>,
    pub limits: Limits,
    /// The game's field name in the top-level request (`"tienlen"`): every request-level
    /// field path starts with it.
    pub game: &'static str,
}

impl Ctx<'_> {
    /// `game.rest` — a request-level field path.
    pub(crate) fn field(&self, rest: &str) -> String {
        join(&[self.game, rest])
    }

    /// A request-level error at `game.rest`.
    pub(crate) fn bad(&self, rest: &str, message: impl Into<String>, reason: Reason) -> Fail {
        Fail::bad(self.field(rest), message, reason)
    }

    /// Counts `n` items of the batch field `name` (of which `len` are entries of the
    /// field itself; the rest are rows inside them) against `--max-batch`: a larger batch
    /// is the request's fault (TOO_LARGE), found before any work.
    pub(crate) fn batch(&self, name: &str, len: usize, n: usize) -> Result<(), Fail> {
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
    pub(crate) fn work(&self, name: &str, units: u64, what: impl FnOnce() -> String) -> Result<(), Fail> {
        let max = self.limits.max_work;
        if max == 0 || units <= max {
            return Ok(());
        }
        let message = format!(
            "{} = {units} units of work exceed the request work budget of {max} (split the request; the server's --max-request-work)",
            what()
        );
        Err(self.bad(name, message, Reason::TooLarge))
    }

    /// Counts the suggestions (托管) asked in the batch `name` of `n` items against the
    /// request work budget with the items: `efforts`, the effort each asks (over
    /// [`MAX_EFFORT`](handeval_core::tienlen::suggest::MAX_EFFORT) counted as the
    /// largest: the item fails OUT_OF_RANGE without work).
    pub(crate) fn suggestions(&self, name: &str, n: usize, efforts: impl Iterator<Item = u32>) -> Result<(), Fail> {
        let max = handeval_core::tienlen::suggest::MAX_EFFORT;
        let (asked, total) = efforts.fold((0u64, 0u64), |(k, t), e| (k + 1, t + e.min(max) as u64));
        if total == 0 {
            return Ok(());
        }
        let units = n as u64 + total * SUGGEST_WORK_PER_EFFORT;
        self.work(name, units, || format!("{n} items + {asked} suggestions of {total} determinizations in all × {SUGGEST_WORK_PER_EFFORT}"))
    }

    /// Adds `n` to the items counted for the metrics (packed rows: not items of
    /// `--max-batch`, bounded by the message size).
    /// They count against the request work budget with the items (`name`: their field).
    pub(crate) fn count_more(&self, name: &str, n: usize) -> Result<(), Fail> {
        let items = self.call.items.fetch_add(n, Ordering::Relaxed);
        if items == 0 {
            return self.work(name, n as u64, || format!("{n} {name}"));
        }
        self.work(name, (items + n) as u64, || format!("{items} items + {n} {name}"))
    }

    /// Stops the work when the deadline passed or the call was cancelled; `where_` says
    /// where (e.g. "after 32 of 100 items").
    pub(crate) fn check_at(&self, where_: impl FnOnce() -> String) -> Result<(), Fail> {
        self.call.check_stop(where_)?;
        match self.turn {
            // Waiting for the next turn, the call still stops when cancelled.
            Some(turn) => turn.pass(self.call),
            None => Ok(()),
        }
    }

    /// The work of the item `name[i]`, given the search's `go_on` (see
    /// [`Ctx::go_on`]). When the item asks a suggestion (`searched`, the longest work of
    /// one item: ~0.1-0.6 s at the largest effort), a cancelled call, or one past its
    /// deadline, stops before the search rather than up to [`CHECK_EVERY`] searches later,
    /// inside it between two determinizations, and ends after it (its answer rests on
    /// part of the search and is dropped).
    pub(crate) fn suggesting<T>(
        &self,
        name: &str,
        i: usize,
        searched: bool,
        work: impl FnOnce(&dyn Fn() -> bool) -> Result<T, ItemFail>,
    ) -> Result<T, ItemFail> {
        if !searched {
            return work(&|| self.go_on());
        }
        self.call.check_stop(|| format!("before the suggestion of {name}[{i}]"))?;
        let out = work(&|| self.go_on());
        self.call.check_stop(|| format!("in the suggestion of {name}[{i}]"))?;
        out
    }

    /// Between two determinizations of a suggestion search: passes the turn on when due,
    /// and says whether the call goes on (false: cancelled or past its deadline).
    fn go_on(&self) -> bool {
        self.pass_turn();
        self.call.check_stop(String::new).is_ok()
    }

    pub(crate) fn check(&self, done: usize, total: usize) -> Result<(), Fail> {
        self.check_at(|| format!("after {done} of {total} items"))
    }

    /// Inside work that cannot stop (a hand's sample blocks): passes the turn on when
    /// due. A stop found meanwhile leaves the turn given back; the next [`Ctx::check`]
    /// ends the call.
    pub(crate) fn pass_turn(&self) {
        if let Some(turn) = self.turn {
            let _ = turn.pass(self.call);
        }
    }
}

impl Ctx<'_> {
    /// The `ItemError` of the item `name[i]` (counted), for work that answers items out of
    /// [`Ctx::each`] (e.g. in chunks).
    pub(crate) fn item_failed(&self, name: &str, i: usize, e: Error) -> pb::ItemError {
        self.call.item_errors.fetch_add(1, Ordering::Relaxed);
        item_error(name, i, e)
    }

    /// One result per item of the batch field `name`: `f(i, item)` answers the item; its
    /// core error becomes the result `error(ItemError)` at `name[i].…` (counted); a
    /// request error fails the call. The deadline is checked every [`CHECK_EVERY`] items.
    pub(crate) fn each<I, R>(
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
    pub(crate) fn each_in<I, S>(
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
