//! Long calls that honour Ctrl-C: the GIL is released while the core computes, and the
//! thread re-attaches between chunks (or every [`POLL`] while one long core call runs) to
//! run `py.check_signals()`, so a `KeyboardInterrupt` (or any signal handler's exception)
//! ends the call promptly.

use pyo3::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

/// How often a waiting call looks at signals.
pub(crate) const POLL: Duration = Duration::from_millis(50);

/// `f(chunk)` over `items` in chunks of `chunk` items, GIL released for each chunk and
/// signals checked between chunks; the results in order.
pub(crate) fn chunked<T: Sync, R: Send>(py: Python<'_>, items: &[T], chunk: usize, f: impl Fn(&[T]) -> Vec<R> + Sync) -> PyResult<Vec<R>> {
    let mut out = Vec::with_capacity(items.len());
    for part in items.chunks(chunk.max(1)) {
        out.extend(py.detach(|| f(part)));
        py.check_signals()?;
    }
    Ok(out)
}

/// One long core call (e.g. a Monte-Carlo `arrange`) on a worker thread, this thread
/// waiting with the GIL released and checking signals every [`POLL`]. On an exception
/// from a signal handler the call returns it at once; the worker, which cannot be
/// stopped from outside the core, finishes its (bounded) work in the background and its
/// result is dropped.
pub(crate) fn interruptible<R: Send + 'static>(py: Python<'_>, f: impl FnOnce() -> R + Send + 'static) -> PyResult<R> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("handeval-long-call".into())
        .spawn(move || {
            let _ = tx.send(f());
        })
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("cannot start a worker thread: {e}")))?;
    let mut rx = rx;
    loop {
        // The receiver moves into the detached closure and back (it is Send, not Sync).
        let (got, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
        rx = back;
        match got {
            Ok(r) => return Ok(r),
            Err(mpsc::RecvTimeoutError::Timeout) => py.check_signals()?,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(pyo3::exceptions::PyRuntimeError::new_err("the worker thread of a long call died (a bug in handeval)"))
            }
        }
    }
}
