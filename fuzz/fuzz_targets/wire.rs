//! The gRPC wire's entry point (`handeval_wire::answer`) on any bytes: the first byte picks
//! the RPC, the rest is the request. It must not panic; a refused request names a field
//! that is a real path of the RPC's request message, with a description; every item's
//! error in an answer names a real path of the game's request message, with a reason and
//! a description. Paths are walked through the descriptors of protos/ (compiled once by
//! protox): `a.b[3].c`, an index only on a repeated field, the last name may be a oneof.
//! `inline`, the event loop's pricing, runs on the same bytes.
//!
//! Also compiled as a module of tests/wire.rs (without libFuzzer), which replays the
//! committed corpus and fixed inputs through [`check`].
#![cfg_attr(feature = "libfuzzer", no_main)]

use handeval_wire::pb;
use handeval_wire::{answer, inline, Call, Fail, Limits, Rpc};
use prost::Message;
use protox::prost_reflect::{DescriptorPool, MessageDescriptor};
use std::sync::OnceLock;

#[cfg(feature = "libfuzzer")]
libfuzzer_sys::fuzz_target!(|data: &[u8]| check(data));

/// Small limits, so that one input's work stays short (a few hands to arrange, a
/// suggestion of a small effort) and the budget's refusals are reached too.
const LIMITS: Limits = Limits { max_batch: 16, max_samples: 4, max_work: 512 };

pub fn check(data: &[u8]) {
    let Some((&pick, request)) = data.split_first() else { return };
    let rpc = Rpc::ALL[usize::from(pick) % Rpc::ALL.len()];
    let _ = inline(Some(rpc), request, 1e-3);
    let call = Call::new(None);
    match answer(rpc, request, &call, LIMITS, None) {
        Ok(out) => {
            let (game_request, errors) = item_errors(rpc, &out);
            let root = message(&game_request);
            for e in errors {
                assert!(!e.field.is_empty(), "{rpc:?}: an item error names no field: {e:?}");
                if let Err(why) = path_ok(&root, &e.field) {
                    panic!("{rpc:?}: an item error's field {:?} is not a path of {game_request}: {why} ({e:?})", e.field);
                }
                assert!(e.reason != 0, "{rpc:?}: an item error has no reason: {e:?}");
                assert!(!e.message.is_empty(), "{rpc:?}: an item error has no description: {e:?}");
            }
        }
        Err(Fail::Bad { field, message: description, reason: _ }) => {
            assert!(!field.is_empty(), "{rpc:?}: a refused request names no field: {description}");
            if let Err(why) = path_ok(&message(rpc.request_type()), &field) {
                panic!("{rpc:?}: the refused request's field {field:?} is not a path of {}: {why} ({description})", rpc.request_type());
            }
            assert!(!description.is_empty(), "{rpc:?}: a refused request at {field} has no description");
        }
        Err(stopped @ Fail::Stopped { .. }) => panic!("{rpc:?}: stopped with no deadline and no cancel: {stopped:?}"),
    }
}

/// The protos' descriptors, compiled from protos/ once.
fn pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../protos");
        protox::Compiler::new([root])
            .and_then(|mut c| c.include_imports(true).open_file("handeval/v2/handeval.proto").map(|c| c.descriptor_pool()))
            .unwrap_or_else(|e| panic!("compiling the protos under {root}: {e}"))
    })
}

pub fn message(full_name: &str) -> MessageDescriptor {
    pool().get_message_by_name(full_name).unwrap_or_else(|| panic!("the protos have no message {full_name}"))
}

/// `Ok` when `path` names a field of `root`: names joined by `.`, each with at most one
/// `[i]`, which only a repeated field takes and which a path going on inside a list
/// needs; the last name may be a oneof's.
pub fn path_ok(root: &MessageDescriptor, path: &str) -> Result<(), String> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut msg = Some(root.clone());
    for (k, part) in parts.iter().enumerate() {
        let name_end = part.find('[').unwrap_or(part.len());
        let (name, indices) = part.split_at(name_end);
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_') {
            return Err(format!("{part:?} is not a field name"));
        }
        let n_indices = index_count(indices).ok_or_else(|| format!("{part:?}: a bad index"))?;
        let Some(m) = msg else { return Err(format!("{part:?} is inside a scalar field")) };
        let last = k + 1 == parts.len();
        if last && n_indices == 0 && m.oneofs().any(|o| o.name() == name) {
            return Ok(());
        }
        let field = m.get_field_by_name(name).ok_or_else(|| format!("{} has no field {name:?}", m.full_name()))?;
        let repeated = field.is_list() || field.is_map();
        if field.is_map() {
            return Err(format!("{part:?}: maps are not used"));
        }
        if n_indices > usize::from(repeated) {
            return Err(format!("{part:?}: {name} is not a list (of lists)"));
        }
        if repeated && n_indices == 0 && !last {
            return Err(format!("{part:?}: a path goes on inside one entry of the list {name}"));
        }
        msg = field.kind().as_message().cloned();
    }
    Ok(())
}

/// How many `[i]` make up `s` (None if anything else is there).
fn index_count(mut s: &str) -> Option<usize> {
    let mut n = 0;
    while !s.is_empty() {
        let rest = s.strip_prefix('[')?;
        let close = rest.find(']')?;
        if close == 0 || !rest[..close].bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s = &rest[close + 1..];
        n += 1;
    }
    Some(n)
}

/// The items' errors of an answer and the game request message their paths start at.
fn item_errors(rpc: Rpc, out: &[u8]) -> (String, Vec<pb::ItemError>) {
    macro_rules! errors {
        ($results:expr, $module:ident) => {
            $results
                .into_iter()
                .filter_map(|r| match r.result {
                    Some(pb::$module::Result::Error(e)) => Some(e),
                    _ => None,
                })
                .collect()
        };
    }
    let name = |game: &str| format!("handeval.v2.{game}{rpc:?}Request");
    let no_game = || panic!("{rpc:?}: an answer without its game");
    match rpc {
        Rpc::Evaluate => {
            use pb::evaluate_response::Game as A;
            match pb::EvaluateResponse::decode(out).expect("an EvaluateResponse").game {
                Some(A::Shisanshui(r)) => (name("Shisanshui"), errors!(r.results, shisanshui_evaluate_result)),
                Some(A::Tienlen(r)) => (name("Tienlen"), errors!(r.results, tienlen_evaluate_result)),
                Some(A::Dachu(r)) => (name("Dachu"), errors!(r.results, dachu_evaluate_result)),
                None => no_game(),
            }
        }
        Rpc::Compare => {
            use pb::compare_response::Game as A;
            match pb::CompareResponse::decode(out).expect("a CompareResponse").game {
                Some(A::Shisanshui(r)) => (name("Shisanshui"), errors!(r.results, shisanshui_compare_result)),
                Some(A::Tienlen(r)) => (name("Tienlen"), errors!(r.results, tienlen_compare_result)),
                Some(A::Dachu(r)) => (name("Dachu"), errors!(r.results, dachu_compare_result)),
                None => no_game(),
            }
        }
        Rpc::Settle => {
            use pb::settle_response::Game as A;
            match pb::SettleResponse::decode(out).expect("a SettleResponse").game {
                Some(A::Shisanshui(r)) => (name("Shisanshui"), errors!(r.results, shisanshui_settle_result)),
                Some(A::Tienlen(r)) => (name("Tienlen"), errors!(r.results, tienlen_settle_result)),
                Some(A::Dachu(r)) => (name("Dachu"), errors!(r.results, dachu_settle_result)),
                None => no_game(),
            }
        }
        Rpc::Arrange => {
            use pb::arrange_response::Game as A;
            match pb::ArrangeResponse::decode(out).expect("an ArrangeResponse").game {
                Some(A::Shisanshui(r)) => (name("Shisanshui"), errors!(r.results, shisanshui_arrange_result)),
                None => no_game(),
            }
        }
    }
}
