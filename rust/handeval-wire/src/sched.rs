//! Fair turns on the compute threads. Every pooled call runs on a thread of its own, but
//! only [`Turns`]' `slots` of them compute at once: a call takes a turn before its work,
//! and at each of its checks (every few items, between chunks of a long item) gives the
//! turn up once it has held it for a quantum while another call waits. The next turn goes
//! to the waiting call that has been served least (least attained service), so a new
//! call — served nothing yet — waits about one quantum behind any number of huge ones,
//! and huge calls share the rest in turn (round robin by their service).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often a waiting call looks at its deadline and its cancel.
const WAIT_POLL: Duration = Duration::from_millis(20);

/// The turns of one server process.
#[derive(Debug)]
pub struct Turns {
    state: Mutex<State>,
    wake: Condvar,
    quantum: Duration,
    /// Calls waiting (read without the lock at every check).
    waiting: AtomicUsize,
}

#[derive(Debug)]
struct State {
    free: usize,
    /// (service so far, arrival) of each waiting call: the least goes first.
    queue: Vec<(Duration, u64)>,
    arrivals: u64,
}

impl Turns {
    /// `slots` calls compute at once (the compute threads); a call holding one gives it
    /// up after `quantum_s` seconds when another waits.
    pub fn new(slots: usize, quantum_s: f64) -> Self {
        Turns {
            state: Mutex::new(State { free: slots.max(1), queue: Vec::new(), arrivals: 0 }),
            wake: Condvar::new(),
            quantum: Duration::from_secs_f64(quantum_s.clamp(1e-4, 10.0)),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Calls waiting for a turn now.
    pub fn waiting(&self) -> usize {
        self.waiting.load(Ordering::Relaxed)
    }

    /// Turns free now.
    pub fn free(&self) -> usize {
        self.state.lock().unwrap().free
    }

    /// Waits for a turn, as a call served `served` so far (with `giving_back`, the turn
    /// it holds goes back first, in the same step, so it is in line before anyone takes
    /// it); `Err(stop)` when `stopped()` says the call is over (cancelled or past its
    /// deadline) first.
    pub(crate) fn acquire<E>(&self, served: Duration, giving_back: bool, mut stopped: impl FnMut() -> Result<(), E>) -> Result<(), E> {
        let mut s = self.state.lock().unwrap();
        let me = (served, s.arrivals);
        s.arrivals += 1;
        if giving_back {
            s.free += 1;
            self.wake.notify_all();
        }
        if s.free > 0 && s.queue.is_empty() {
            s.free -= 1;
            return Ok(());
        }
        s.queue.push(me);
        self.waiting.fetch_add(1, Ordering::Relaxed);
        loop {
            if s.free > 0 && s.queue.iter().min() == Some(&me) {
                s.free -= 1;
                self.leave_queue(&mut s, me);
                if s.free > 0 {
                    self.wake.notify_all(); // the next waiter may take the other free turn
                }
                return Ok(());
            }
            if let Err(e) = stopped() {
                self.leave_queue(&mut s, me);
                self.wake.notify_all(); // it may have been first in line
                return Err(e);
            }
            s = self.wake.wait_timeout(s, WAIT_POLL).unwrap().0;
        }
    }

    fn leave_queue(&self, s: &mut State, me: (Duration, u64)) {
        if let Some(i) = s.queue.iter().position(|x| *x == me) {
            s.queue.swap_remove(i);
            self.waiting.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Gives a turn back.
    pub(crate) fn release(&self) {
        self.state.lock().unwrap().free += 1;
        self.wake.notify_all();
    }
}

/// The turn of one call: taken by [`Turn::start`], given up and taken again by
/// [`Turn::pass`] at the call's checks, given back when dropped.
pub(crate) struct Turn<'a> {
    turns: &'a Turns,
    served: Duration,
    since: Instant,
    held: bool,
}

impl<'a> Turn<'a> {
    pub(crate) fn start<E>(turns: &'a Turns, stopped: impl FnMut() -> Result<(), E>) -> Result<Turn<'a>, E> {
        turns.acquire(Duration::ZERO, false, stopped)?;
        Ok(Turn { turns, served: Duration::ZERO, since: Instant::now(), held: true })
    }

    /// At a check: when the turn has lasted a quantum and another call waits, gives it up
    /// and waits for the next (least served first).
    pub(crate) fn pass<E>(&mut self, stopped: impl FnMut() -> Result<(), E>) -> Result<(), E> {
        if !self.held {
            return Ok(());
        }
        let now = Instant::now();
        if now.duration_since(self.since) < self.turns.quantum || self.turns.waiting.load(Ordering::Relaxed) == 0 {
            return Ok(());
        }
        self.served += now.duration_since(self.since);
        self.held = false;
        self.turns.acquire(self.served, true, stopped)?;
        self.held = true;
        self.since = Instant::now();
        Ok(())
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        if self.held {
            self.turns.release();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn go() -> Result<(), ()> {
        Ok(())
    }

    #[test]
    fn a_new_call_goes_before_calls_served_longer() {
        let turns = Turns::new(1, 1e-4);
        let mut a = Turn::start(&turns, go).unwrap();
        std::thread::sleep(Duration::from_millis(2)); // a has held its quantum
        let turns = &turns;
        std::thread::scope(|sc| {
            let order = Arc::new(Mutex::new(Vec::new()));
            // b waits having been served 1 s (a huge call), c is new: c goes first.
            let o = order.clone();
            let b = sc.spawn(move || {
                turns.acquire(Duration::from_secs(1), false, go).unwrap();
                o.lock().unwrap().push("b");
                turns.release();
            });
            while turns.waiting.load(Ordering::Relaxed) < 1 {
                std::thread::yield_now();
            }
            let o = order.clone();
            let c = sc.spawn(move || {
                let t = Turn::start(turns, go).unwrap();
                o.lock().unwrap().push("c");
                drop(t);
            });
            while turns.waiting.load(Ordering::Relaxed) < 2 {
                std::thread::yield_now();
            }
            a.pass(go).unwrap(); // a (served 2 ms) yields: c, then a, then b
            order.lock().unwrap().push("a");
            drop(a);
            b.join().unwrap();
            c.join().unwrap();
            assert_eq!(*order.lock().unwrap(), ["c", "a", "b"]);
        });
    }

    #[test]
    fn a_stopped_waiter_leaves_the_line() {
        let turns = Turns::new(1, 1.0);
        let held = Turn::start(&turns, go).unwrap();
        assert_eq!(turns.acquire(Duration::ZERO, false, || Err("stopped")), Err("stopped"));
        assert_eq!(turns.waiting.load(Ordering::Relaxed), 0);
        drop(held);
        assert_eq!(turns.state.lock().unwrap().free, 1);
        // A turn is kept while nobody waits, however long it has lasted.
        let mut t = Turn::start(&turns, go).unwrap();
        t.pass(go).unwrap();
        assert!(t.held);
    }
}
