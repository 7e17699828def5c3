//! The `handeval.v2` gRPC messages as Rust types (prost), generated from `protos/` by
//! native call and one `MergeFromString` in place of a protobuf write per field from
//! Python (most of a small Settle call's server CPU). The message types are generated
//! from `protos/` by `build.rs`, so the protos stay the one definition of the wire form;
//! `tests/grpc/test_grpc_wire.py` checks these bytes against the messages the Python
//! converter would write.

#[allow(clippy::all, dead_code)]
pub mod pb {
    include!(concat!(env!("OUT_DIR"), "/handeval.v2.rs"));
}

