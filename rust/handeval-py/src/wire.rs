//! The gRPC wire's Python entry: the servicer hands a request's bytes to [`wire_answer`]
//! and gets the answer's bytes back, or a `WireError` naming the bad field. The wire
//! itself (decode, work, encode, bounds, turns) is the `handeval-wire` crate; this module
//! only wraps its call and turns as Python classes and converts its errors.

use handeval_core::Reason;
use handeval_wire::{Call, Fail, Limits, Rpc, TableLimits, Tables, Turns};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::time::Duration;

/// One call in flight, shared between the servicer (Python: cancel, read the counts) and
/// the work (Rust: deadline checks, the counts).
#[pyclass(module = "handeval._core", frozen)]
pub struct WireCall(Call);

#[pymethods]
impl WireCall {
    /// A call whose client waits `time_remaining` more seconds (None: no deadline).
    #[new]
    #[pyo3(signature = (time_remaining=None))]
    fn new(time_remaining: Option<f64>) -> Self {
        WireCall(Call::new(time_remaining))
    }

    /// The call's task was cancelled: the work stops at its next check, as
    /// DEADLINE_EXCEEDED when the deadline has (all but) passed, else CANCELLED.
    fn cancel(&self) {
        self.0.cancel()
    }

    /// The status code the cancel stands for, or None while not cancelled.
    #[getter]
    fn cancelled(&self) -> Option<&'static str> {
        self.0.cancelled()
    }

    /// The request's game ("" until decoded, or when it names none).
    #[getter]
    fn game(&self) -> &'static str {
        self.0.game()
    }

    /// Items of the batch (十三水 Compare `order` rows and packed rows counted).
    #[getter]
    fn items(&self) -> usize {
        self.0.items()
    }

    /// Items answered with an ItemError.
    #[getter]
    fn item_errors(&self) -> usize {
        self.0.item_errors()
    }
}

/// The turns of one server process on its compute threads (see `handeval_wire::sched`).
#[pyclass(module = "handeval._core", frozen)]
pub struct WireTurns(Turns);

#[pymethods]
impl WireTurns {
    /// `slots` calls compute at once (the compute threads); a call holding one gives it
    /// up after `quantum_s` seconds when another waits.
    #[new]
    fn new(slots: usize, quantum_s: f64) -> Self {
        WireTurns(Turns::new(slots, quantum_s))
    }

    /// Calls waiting for a turn now.
    #[getter]
    fn waiting(&self) -> usize {
        self.0.waiting()
    }

    /// Turns free now.
    #[getter]
    fn free(&self) -> usize {
        self.0.free()
    }
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

/// The answer's bytes for the request bytes `data` of the RPC named `rpc`. With `detach`
/// the GIL is released for the work (the servicer's worker threads); without, it runs on
/// the caller's thread holding the GIL (small requests on the event loop, where the hop
/// to a thread costs more than the work). Given `turns`, the work computes only in its
/// turns: it waits for one first and passes it on at its checks. Raises WireError for a
/// bad request, a request over `max_work` (0: no budget), a passed deadline or a cancel.
#[pyfunction]
#[pyo3(signature = (rpc, data, call, max_batch, max_samples, detach, max_work=0, turns=None))]
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
    let work = || handeval_wire::answer(rpc, data, &call.0, limits, turns.map(|t| &t.0));
    let out = if detach { py.detach(work) } else { work() };
    match out {
        Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
        Err(fail) => Err(raise(py, fail)),
    }
}

/// Whether the request `data` of the RPC named `rpc` is cheap enough to answer on the
/// caller's thread (the servicer's event loop), from its size and shape alone: see
/// `handeval_wire::inline`.
#[pyfunction]
fn wire_inline(rpc: &str, data: &[u8], budget: f64) -> bool {
    handeval_wire::inline(Rpc::from_name(rpc), data, budget)
}

/// One table stream's tables (Handeval.Tables, see `handeval_wire::Tables`): each
/// TablesRequest's bytes in, its TablesResponse's bytes out. Usable from any thread.
#[pyclass(module = "handeval._core", frozen)]
pub struct WireTables(Tables);

#[pymethods]
impl WireTables {
    /// A stream holding at most `max_tables` tables (`--max-stream-tables`), in a process
    /// holding at most `max_open_tables` on all its streams (`--max-tables`); a step's
    /// limits are a unary Evaluate's of one item (`max_batch`, `max_samples`, `max_work`,
    /// 0: no work budget).
    #[new]
    #[pyo3(signature = (max_tables, max_open_tables, max_batch, max_samples, max_work=0))]
    fn new(max_tables: usize, max_open_tables: usize, max_batch: usize, max_samples: u32, max_work: u64) -> Self {
        WireTables(Tables::new(TableLimits { max_tables, max_open_tables, call: Limits { max_batch, max_samples, max_work } }))
    }

    /// The answer's bytes (a TablesResponse) for one TablesRequest's bytes `data`; with
    /// `detach` the GIL is released for the work. Given `turns`, the work computes only
    /// in its turns. Raises WireError for bytes that are not a TablesRequest
    /// (INVALID_ARGUMENT, field ""), a passed deadline or a cancel; every other refusal
    /// is the answer's `error`.
    #[pyo3(signature = (data, call, detach, turns=None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        data: &[u8],
        call: &WireCall,
        detach: bool,
        turns: Option<&WireTurns>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let work = || self.0.step(data, &call.0, turns.map(|t| &t.0));
        let out = if detach { py.detach(work) } else { work() };
        match out {
            Ok(bytes) => Ok(PyBytes::new(py, &bytes)),
            Err(fail) => Err(raise(py, fail)),
        }
    }

    /// Whether the step `data` is cheap enough to answer on the caller's thread (the
    /// servicer's event loop): see `handeval_wire::tables_inline`.
    fn inline(&self, data: &[u8]) -> bool {
        handeval_wire::tables_inline(data)
    }

    /// Removes the tables with no step for `idle_seconds`: a TablesResponse's bytes
    /// (`closed` IDLE, `actions` 0) for each.
    fn expire<'py>(&self, py: Python<'py>, idle_seconds: f64) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let idle = Duration::try_from_secs_f64(idle_seconds).map_err(|_| {
            pyo3::exceptions::PyValueError::new_err(format!("idle_seconds must be a finite number >= 0 (got {idle_seconds})"))
        })?;
        Ok(self.0.expire(idle).iter().map(|b| PyBytes::new(py, b)).collect())
    }

    /// Tables the stream holds.
    #[getter]
    fn tables(&self) -> usize {
        self.0.tables()
    }

    /// An estimate of the memory the stream's tables hold, in bytes.
    #[getter]
    fn bytes(&self) -> usize {
        self.0.bytes()
    }

    /// Forgets every table (the stream ended).
    fn clear(&self) {
        self.0.clear()
    }
}

/// Tables open in this process, on every stream.
#[pyfunction]
fn wire_open_tables() -> usize {
    handeval_wire::open_tables()
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<WireTables>()?;
    m.add_function(wrap_pyfunction!(wire_open_tables, m)?)?;
    m.add("WIRE_TABLE_NAME_BYTES", handeval_wire::MAX_TABLE_NAME_BYTES)?;
    m.add_class::<WireCall>()?;
    m.add_class::<WireTurns>()?;
    m.add_function(wrap_pyfunction!(wire_inline, m)?)?;
    m.add("WIRE_INLINE_BYTES", handeval_wire::INLINE_BYTES)?;
    m.add("WIRE_MESSAGE_BYTES", handeval_wire::MESSAGE_BYTES)?;
    m.add("WireError", m.py().get_type::<WireError>())?;
    m.add_function(wrap_pyfunction!(wire_answer, m)?)?;
    Ok(())
}
