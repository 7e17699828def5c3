//! Rust types of the gRPC messages the binding writes natively (`wire.rs`), generated
//! from the protos themselves (`protos/`, the one definition) with `protox`, a protobuf
//! compiler in Rust (no `protoc` needed), and `prost-build`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.join("../../protos");
    println!("cargo:rerun-if-changed={}", root.display());
    let files = protox::compile([root.join("handeval/v2/handeval.proto")], [&root])
        .unwrap_or_else(|e| panic!("compiling the protos under {}: {e}", root.display()));
    prost_build::Config::new()
        .compile_fds(files)
        .expect("generating the Rust types of the protos");
}
