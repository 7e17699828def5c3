//! The `handeval.v2` messages as prost types, generated from `protos/` (the one definition
//! of the wire form) and committed as `generated/handeval.v2.rs`; see `build.rs`.

#![allow(clippy::all, dead_code)]

include!(concat!(env!("OUT_DIR"), "/handeval.v2.rs"));
