//! Rust types of the gRPC messages of the wire (`src/pb.rs`), generated
//! from the protos themselves (`protos/`, the one definition) by `prost-build` with
//! `protox` (a protobuf compiler in Rust, no `protoc`), and committed:
//! `generated/handeval.v2.rs`, which this script copies to `OUT_DIR` for `src/pb.rs`.
//! Committed rather than generated at every build because the generator and its ~40
//! crates (regex, logos, petgraph, prettyplease…) were a third of a fresh release build's
//! CPU. The file's first line records a hash of the protos it was generated from: a build
//! stops when the protos have changed since, naming the command that regenerates it.
//!
//! Regenerate after changing protos/ (feature `regen-wire` enables the generator):
//!     HANDEVAL_WRITE_WIRE=1 cargo check -p handeval-wire --features regen-wire
//! Check that the committed file is what the protos generate (.ci/run does):
//!     cargo check -p handeval-wire --features regen-wire

use std::fs;
use std::path::{Path, PathBuf};

const HASH_PREFIX: &str = "// protos fnv1a64: ";

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let root = manifest.join("../../protos");
    let committed = manifest.join("generated/handeval.v2.rs");
    println!("cargo:rerun-if-changed={}", root.display());
    println!("cargo:rerun-if-changed={}", committed.display());
    println!("cargo:rerun-if-env-changed=HANDEVAL_WRITE_WIRE");
    let hash = protos_hash(&root);
    let header = format!("{HASH_PREFIX}{hash:016x} (rust/handeval-wire/build.rs)\n");

    #[cfg(feature = "regen-wire")]
    {
        let files = protox::compile([root.join("handeval/v2/handeval.proto")], [&root])
            .unwrap_or_else(|e| panic!("compiling the protos under {}: {e}", root.display()));
        let gen_dir = out_dir.join("regen");
        fs::create_dir_all(&gen_dir).unwrap();
        prost_build::Config::new().out_dir(&gen_dir).compile_fds(files).expect("generating the Rust types of the protos");
        let fresh = header.clone() + &fs::read_to_string(gen_dir.join("handeval.v2.rs")).unwrap();
        let old = fs::read_to_string(&committed).unwrap_or_default();
        if fresh != old {
            if std::env::var_os("HANDEVAL_WRITE_WIRE").is_some() {
                fs::create_dir_all(committed.parent().unwrap()).unwrap();
                fs::write(&committed, &fresh).unwrap();
            } else {
                panic!(
                    "{} is not what protos/ generates: regenerate it with\n    \
                     HANDEVAL_WRITE_WIRE=1 cargo check -p handeval-wire --features regen-wire",
                    committed.display()
                );
            }
        }
    }

    let text = fs::read_to_string(&committed).unwrap_or_else(|e| panic!("reading {}: {e}", committed.display()));
    if !text.starts_with(&header) {
        panic!(
            "{} was generated from other protos than protos/ (hash line {:?}, protos now \
             {hash:016x}): regenerate it with\n    \
             HANDEVAL_WRITE_WIRE=1 cargo check -p handeval-wire --features regen-wire",
            committed.display(),
            text.lines().next().unwrap_or("")
        );
    }
    fs::write(out_dir.join("handeval.v2.rs"), &text[header.len()..]).unwrap();
}

/// FNV-1a (64-bit) over the `.proto` files under `root`, in path order: each file's path
/// relative to `root` (with `/`), a NUL, its bytes, a NUL. Line endings are normalised to
/// `\n`, so a checkout with CRLF gives the same hash.
fn protos_hash(root: &Path) -> u64 {
    let mut files = Vec::new();
    collect(root, root, &mut files);
    files.sort();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    for (rel, path) in files {
        let body = fs::read(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        let body: Vec<u8> = body.into_iter().filter(|&b| b != b'\r').collect();
        eat(rel.as_bytes());
        eat(&[0]);
        eat(&body);
        eat(&[0]);
    }
    h
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if path.extension().is_some_and(|e| e == "proto") {
            let rel = path.strip_prefix(root).unwrap().components();
            let rel: Vec<_> = rel.map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
            out.push((rel.join("/"), path));
        }
    }
}
