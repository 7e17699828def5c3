//! Why a call ends without an answer ([`Fail`]), an item's error ([`ItemFail`], written
//! as its `ItemError`), and the field paths they name (`a.b[2].c`, from the top-level
//! request's game or from the item).

use crate::pb;
use handeval_core::{Error, Reason};

/// Longest description the server sends, in UTF-8 bytes (a message quoting several cut
/// values). In bytes, not characters: an INVALID_ARGUMENT carries it three times (the
/// percent-encoded `grpc-message`, and twice in `grpc-status-details-bin`), so 1,024
/// bytes keep its trailers under 8 KiB, what a gRPC client takes by default and what the
/// front proxy's `grpc_buffer_size` holds (deploy/proxy/nginx.conf); 1,024 characters
/// of `♥` did not (the client got RESOURCE_EXHAUSTED, through the proxy UNAVAILABLE).
pub const MESSAGE_BYTES: usize = 1024;

/// `message` cut to at most [`MESSAGE_BYTES`] bytes (at a character boundary) and `…`.
pub(crate) fn clip(mut message: String) -> String {
    if message.len() <= MESSAGE_BYTES {
        return message;
    }
    let mut end = MESSAGE_BYTES - '…'.len_utf8();
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    message.truncate(end);
    message.push('…');
    message
}

/// Field path parts → `a.b[2].c` (empty parts skipped, `[i]` glued on).
pub(crate) fn join(parts: &[&str]) -> String {
    let mut out = String::new();
    for p in parts.iter().filter(|p| !p.is_empty()) {
        if !out.is_empty() && !p.starts_with('[') {
            out.push('.');
        }
        out.push_str(p);
    }
    out
}

/// Why a call ends without an answer.
#[derive(Debug)]
pub enum Fail {
    /// The request as a whole is bad → INVALID_ARGUMENT naming `field` (a path from the
    /// top-level request's game, e.g. `tienlen.rules.turn_after_chop`).
    Bad { field: String, message: String, reason: Reason },
    /// The deadline passed (`DEADLINE_EXCEEDED`) or the client cancelled (`CANCELLED`).
    Stopped { code: &'static str, message: String },
}

impl Fail {
    pub(crate) fn bad(field: impl Into<String>, message: impl Into<String>, reason: Reason) -> Fail {
        Fail::Bad { field: field.into(), message: clip(message.into()), reason }
    }
}

/// What stops one item: its own error (written as the item's `ItemError`, the rest of
/// the batch goes on) or the request's (the call fails).
#[derive(Debug)]
pub(crate) enum ItemFail {
    Item(Error),
    Request(Fail),
}

impl From<Error> for ItemFail {
    fn from(e: Error) -> Self {
        ItemFail::Item(e)
    }
}

impl From<Fail> for ItemFail {
    fn from(f: Fail) -> Self {
        ItemFail::Request(f)
    }
}

/// A core error at the field `field` of the item (the proto field that held the
/// argument; empty: the item itself), the core's own path appended.
pub(crate) fn at(field: &str) -> impl Fn(Error) -> ItemFail + '_ {
    move |e| ItemFail::Item(if field.is_empty() { e } else { e.within(field) })
}

/// The proto `ErrorReason` value of a core reason (the enums mirror each other; a test
/// keeps them equal).
pub(crate) fn reason_value(reason: Reason) -> i32 {
    match crate::enums::value_of::<pb::ErrorReason>(reason.as_str()) {
        0 => pb::ErrorReason::Invalid as i32,
        v => v,
    }
}

/// The `ItemError` of an item's core error at `name[i]`.
pub(crate) fn item_error(name: &str, i: usize, e: Error) -> pb::ItemError {
    let head = format!("{name}[{i}]");
    pb::ItemError {
        field: join(&[&head, e.field.as_deref().unwrap_or("")]),
        reason: reason_value(e.reason),
        message: clip(e.message),
        action_index: e.action_index.and_then(|k| i32::try_from(k).ok()),
    }
}

/// A core error reported at `field` alone (the proto field that held the
/// argument, in place of the core's own path).
pub(crate) fn only(field: &str) -> impl FnOnce(Error) -> ItemFail + '_ {
    move |mut e| {
        e.field = (!field.is_empty()).then(|| field.to_string());
        ItemFail::Item(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_bounds_bytes_at_a_character_boundary() {
        for ch in ['a', 'é', '♥', '𝄞'] {
            for n in [0, 1, 100, 255, 256, 257, 341, 342, 1023, 1024, 1025, 5000] {
                let m: String = std::iter::repeat_n(ch, n).collect();
                let c = clip(m.clone());
                assert!(c.len() <= MESSAGE_BYTES, "{ch} x {n}: {} bytes", c.len());
                if m.len() <= MESSAGE_BYTES {
                    assert_eq!(c, m);
                } else {
                    assert!(c.ends_with('…') && m.starts_with(c.trim_end_matches('…')), "{ch} x {n}");
                    // as much kept as fits: one more character would pass the bound
                    assert!(c.len() + ch.len_utf8() > MESSAGE_BYTES, "{ch} x {n}: {} bytes", c.len());
                }
            }
        }
    }
}
