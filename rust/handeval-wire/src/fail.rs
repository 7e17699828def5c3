//! Why a call ends without an answer ([`Fail`]), an item's error ([`ItemFail`], written
//! as its `ItemError`), and the field paths they name (`a.b[2].c`, from the top-level
//! request's game or from the item).

use crate::pb;
use handeval_core::{Error, Reason};

/// Longest description the server sends (a message quoting several cut values).
pub(crate) const MESSAGE_CHARS: usize = 1024;

/// `message` cut to [`MESSAGE_CHARS`] characters.
pub(crate) fn clip(message: String) -> String {
    match message.char_indices().nth(MESSAGE_CHARS) {
        Some((i, _)) => format!("{}…", &message[..i]),
        None => message,
    }
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
