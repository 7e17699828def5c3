//! The gRPC wire of handeval in Rust, without Python: a request's bytes in, the answer's
//! bytes out ([`answer`]) or a [`Fail`] naming the bad field. Requests are decoded and
//! answers encoded with prost types generated from `protos/` ([`pb`]), so the protos stay
//! the one definition of the wire form; each game's results go from the core's types to
//! their messages in one conversion, and the hot shape of 十三水 Evaluate is read and
//! written in place ([`shisanshui::fast`]). The rules and the game flow are the core's
//! (`handeval-core`); the Python binding only hands bytes over, and the Python server
//! keeps auth, deadlines, cancellation, metrics and logs.
//!
//! Modules from the bottom up (each imports only from the ones above it in this list):
//! [`pb`]; [`enums`] (the proto enums ↔ the core's names), [`codec`] and [`sched`]; [`fail`] (errors and field paths); [`call`] (a call
//! in flight and what its work sees); [`convert`] (conversions the games share); the
//! games [`shisanshui`], [`tienlen`], [`dachu`]; [`dispatch`] (the entry point).

// Only what the binding, the tests and the fuzzers use is public (the re-exports below and
// the message types); every other item is crate-private, which `unreachable_pub` (denied
// with the other warnings in CI) keeps so, and dead code is reported.
#![warn(unreachable_pub)]

pub mod pb;

mod enums;

mod codec;
mod sched;

mod fail;

mod call;

mod convert;

mod dachu;
mod shisanshui;
mod tienlen;

mod dispatch;
mod tables;

pub use call::{Call, Limits};
pub use dispatch::{answer, inline, Rpc, INLINE_BYTES};
pub use fail::{Fail, MESSAGE_BYTES};
pub use sched::Turns;
/// Whether a TablesRequest is cheap enough for the caller's thread: see [`tables::inline`].
pub use tables::inline as tables_inline;
pub use tables::{open_tables, TableLimits, Tables, MAX_TABLE_NAME_BYTES};
