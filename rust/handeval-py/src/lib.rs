//! `handeval._core`: the PyO3 binding of handeval-core and handeval-wire. It converts
//! types, maps [`handeval_core::Error`] to `HandevalError`, releases the GIL for batched
//! work, and hands the gRPC wire its bytes (`wire.rs`); every rule lives in the core
//! crate, every wire conversion in the wire crate.

// A value class's constructor (pyo3's `new = "from_fields"` in `native_class!`) takes one
// argument per field, as Python calls it: clippy's argument count does not apply.
#![allow(clippy::too_many_arguments)]
// Nothing here is a Rust API (the crate is the extension module): every item is
// crate-private, which `unreachable_pub` (denied with the other warnings in CI) keeps so.
#![warn(unreachable_pub)]

use pyo3::prelude::*;

mod batch;
mod bundle;
mod conv;
mod dachu;
mod game_common;
mod result;
mod rules;
mod shisanshui;
mod tienlen;
mod wire;

pub use conv::HandevalError;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let err = m.py().get_type::<HandevalError>();
    // Class-level defaults, so an error raised from Python without them still has both.
    err.setattr("field", m.py().None())?;
    err.setattr("description", m.py().None())?;
    err.setattr("reason", handeval_core::Reason::Invalid.as_str())?;
    err.setattr("action_index", m.py().None())?;
    // Every reason a HandevalError can carry (the gRPC ErrorReason enum mirrors it).
    m.add("ERROR_REASONS", handeval_core::Reason::ALL.map(|r| r.as_str()).to_vec())?;
    m.add("HandevalError", err)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    conv::register(m)?;
    bundle::register(m)?;
    shisanshui::register(m)?;
    tienlen::register(m)?;
    dachu::register(m)?;
    wire::register(m)?;
    Ok(())
}
