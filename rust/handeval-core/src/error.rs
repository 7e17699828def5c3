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

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error { field: None, message: message.into() }
    }

    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error { field: Some(field.into()), message: message.into() }
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
}
