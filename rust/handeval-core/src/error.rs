//! The one error type of the engine: bad input, described so a person can fix it.

use std::fmt;

/// Bad input (a card, a field, a seat, a rule option, money out of range).
///
/// `field` is the path of the offending input when known (e.g. `players[1].front`), so
/// the gRPC layer can name it in a `BadRequest` detail; `message` is the description
/// alone. They are kept apart so no caller ever re-parses a sentence: `Display` joins them
/// as `field: message`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub field: Option<String>,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

/// Longest input value an error message echoes. Messages quote bad input with `{:?}`
/// (`bad card "Xs"`, `"middle" is not one of …`); a quoted value longer than this is cut
/// (`"XXXX…" (1048576 chars)`), so a huge bad value cannot bloat an error, a gRPC status
/// trailer or a log line. Done here, once, for every message of the engine.
pub const ECHO_CHARS: usize = 64;

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error { field: None, message: shorten_quoted(message.into()) }
    }

    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error { field: Some(field.into()), message: shorten_quoted(message.into()) }
    }

    /// Prefix the error with the field it belongs to (outermost context first).
    pub fn within(self, field: &str) -> Self {
        let path = match &self.field {
            Some(inner) if inner.starts_with('[') => format!("{field}{inner}"),
            Some(inner) => format!("{field}.{inner}"),
            None => field.to_string(),
        };
        Error { field: Some(path), message: self.message }
    }
}

/// Cut every `"…"` run of `message` (a `{:?}`-quoted value; an escape counts as one
/// character) to [`ECHO_CHARS`], noting the full length.
fn shorten_quoted(message: String) -> String {
    if message.len() <= ECHO_CHARS {
        return message;
    }
    let mut out = String::new();
    let mut changed = false;
    let mut it = message.chars();
    while let Some(c) = it.next() {
        out.push(c);
        if c != '"' {
            continue;
        }
        let mut n = 0usize;
        while let Some(c) = it.next() {
            if c == '"' {
                if n > ECHO_CHARS {
                    out.push_str(&format!("…\" ({n} chars)"));
                } else {
                    out.push('"');
                }
                break;
            }
            let mut unit = String::from(c);
            if c == '\\' {
                if let Some(e) = it.next() {
                    unit.push(e);
                    if e == 'u' {
                        for h in it.by_ref() {
                            unit.push(h);
                            if h == '}' {
                                break;
                            }
                        }
                    }
                }
            }
            n += 1;
            if n <= ECHO_CHARS {
                out.push_str(&unit);
            } else {
                changed = true;
            }
        }
    }
    if changed {
        out
    } else {
        message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.field {
            Some(field) => write!(f, "{field}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {}

/// `bail!(...)` / `bail!(field = "x", ...)`: return an [`Error`] early.
#[macro_export]
macro_rules! bail {
    (field = $field:expr, $($arg:tt)+) => {
        return Err($crate::error::Error::field($field, format!($($arg)+)))
    };
    ($($arg:tt)+) => {
        return Err($crate::error::Error::new(format!($($arg)+)))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn within_nests_paths() {
        let e = Error::field("front", "bad card").within("players[2]");
        assert_eq!(e.field.as_deref(), Some("players[2].front"));
        assert_eq!(e.message, "bad card");
        assert_eq!(e.to_string(), "players[2].front: bad card");
        let e = Error::new("too many").within("hands");
        assert_eq!((e.field.as_deref(), e.message.as_str()), (Some("hands"), "too many"));
        assert_eq!(e.to_string(), "hands: too many");
    }

    #[test]
    fn long_quoted_values_are_cut() {
        let long = "x".repeat(100_000);
        let e = Error::field("rules.a2345", format!("{long:?} is not one of \"lowest\", \"second_highest\""));
        assert!(e.message.len() < 200, "{}", e.message);
        assert!(e.message.starts_with(&format!("\"{}…\" (100000 chars) is not one of", "x".repeat(ECHO_CHARS))), "{}", e.message);
        assert!(e.message.ends_with("\"lowest\", \"second_highest\""), "{}", e.message);
        // short values and escapes stay as they are; a cut never splits an escape
        let e = Error::new(format!("bad {:?} and {:?}", "a\"b", "\u{1}".repeat(70)));
        assert!(e.message.starts_with("bad \"a\\\"b\" and \"\\u{1}"), "{}", e.message);
        assert!(e.message.ends_with("\\u{1}…\" (70 chars)"), "{}", e.message);
        let short = Error::new("bad card \"Xs\" at position 1: unknown rank \"X\"");
        assert_eq!(short.message, "bad card \"Xs\" at position 1: unknown rank \"X\"");
    }
}
