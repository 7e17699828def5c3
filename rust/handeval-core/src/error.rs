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
    /// What kind of mistake it is, for programs (a game server branches on this, never
    /// on the English `message`).
    pub reason: Reason,
    /// The index of the failing action in its list (a record's `actions`, `plays`,
    /// `calls`, `deal_actions`, a round's actions), when the error is an action's; `field`
    /// names the list. A client finds the action without reading the path.
    pub action_index: Option<usize>,
}

/// The machine-readable kind of an [`Error`]: one closed set for every game, so a client
/// tells a bad card from a duplicate from an out-of-turn action without reading text.
/// `as_str` is the name the Python API (`HandevalError.reason`) and the gRPC
/// `ErrorReason` enum use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Reason {
    /// Malformed or out-of-range input not covered by a more specific reason.
    #[default]
    Invalid,
    /// A token that is not a card.
    BadCard,
    /// The same card twice: in one hand, or across the players of one deal.
    DuplicateCard,
    /// The wrong number of cards, seats, players or list entries.
    WrongCount,
    /// A card set that is no play (or no row) of the game.
    NotAPlay,
    /// A play that does not beat the play on the table.
    DoesNotBeat,
    /// An action by a seat whose turn it is not.
    NotYourTurn,
    /// A card the acting seat does not hold (any more).
    CardNotInHand,
    /// An action the game's state does not allow (other than the reasons above).
    IllegalAction,
    /// An action after the game, or its phase, has ended.
    GameOver,
    /// A rule option with a value it does not take.
    BadRule,
    /// A number outside what the game allows, or money overflowing 64 bits.
    OutOfRange,
    /// A fouled (倒水) hand where the rules reject fouls.
    Foul,
    /// A record or batch larger than the game (52 cards) or the limits allow.
    TooLarge,
    /// Parts of the input that contradict each other (places against the record, a round
    /// sent twice, a declared special the cards do not make…).
    Inconsistent,
}

impl Reason {
    pub const ALL: [Reason; 15] = [
        Reason::Invalid,
        Reason::BadCard,
        Reason::DuplicateCard,
        Reason::WrongCount,
        Reason::NotAPlay,
        Reason::DoesNotBeat,
        Reason::NotYourTurn,
        Reason::CardNotInHand,
        Reason::IllegalAction,
        Reason::GameOver,
        Reason::BadRule,
        Reason::OutOfRange,
        Reason::Foul,
        Reason::TooLarge,
        Reason::Inconsistent,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Invalid => "invalid",
            Reason::BadCard => "bad_card",
            Reason::DuplicateCard => "duplicate_card",
            Reason::WrongCount => "wrong_count",
            Reason::NotAPlay => "not_a_play",
            Reason::DoesNotBeat => "does_not_beat",
            Reason::NotYourTurn => "not_your_turn",
            Reason::CardNotInHand => "card_not_in_hand",
            Reason::IllegalAction => "illegal_action",
            Reason::GameOver => "game_over",
            Reason::BadRule => "bad_rule",
            Reason::OutOfRange => "out_of_range",
            Reason::Foul => "foul",
            Reason::TooLarge => "too_large",
            Reason::Inconsistent => "inconsistent",
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Longest input value an error message echoes. Messages quote bad input with `{:?}`
/// (`bad card "Xs"`, `"middle" is not one of …`); a quoted value longer than this is cut
/// (`"XXXX…" (1048576 chars)`), so a huge bad value cannot bloat an error, a gRPC status
/// trailer or a log line. Done here, once, for every message of the engine.
pub(crate) const ECHO_CHARS: usize = 64;

impl Error {
    pub fn new(message: impl Into<String>) -> Self {
        Error { field: None, message: shorten_quoted(message.into()), reason: Reason::Invalid, action_index: None }
    }

    pub fn field(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error { field: Some(field.into()), message: shorten_quoted(message.into()), reason: Reason::Invalid, action_index: None }
    }

    /// The same error, of the given kind.
    pub fn because(mut self, reason: Reason) -> Self {
        self.reason = reason;
        self
    }

    /// The same error, of the action at `index` of its list (the innermost list that
    /// names one keeps it: a round's action inside a record's chop is that action).
    pub fn at_action(mut self, index: usize) -> Self {
        self.action_index.get_or_insert(index);
        self
    }

    /// [`Error::within`] the action `list[index]`, its index kept (see [`Error::at_action`]).
    pub fn within_action(self, list: &str, index: usize) -> Self {
        self.within(&format!("{list}[{index}]")).at_action(index)
    }

    /// Prefix the error with the field it belongs to (outermost context first).
    pub fn within(self, field: &str) -> Self {
        let path = match &self.field {
            Some(inner) if inner.starts_with('[') => format!("{field}{inner}"),
            Some(inner) => format!("{field}.{inner}"),
            None => field.to_string(),
        };
        Error { field: Some(path), ..self }
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

/// `bail!(...)` / `bail!(field = "x", ...)`: return an [`Error`] early;
/// `bail!(reason = NotYourTurn, field = "x", ...)` / `bail!(reason = BadCard, ...)` also
/// names its [`Reason`].
#[macro_export]
macro_rules! bail {
    (reason = $reason:ident, field = $field:expr, $($arg:tt)+) => {
        return Err($crate::error::Error::field($field, format!($($arg)+)).because($crate::error::Reason::$reason))
    };
    (reason = $reason:ident, $($arg:tt)+) => {
        return Err($crate::error::Error::new(format!($($arg)+)).because($crate::error::Reason::$reason))
    };
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
    fn reasons_survive_nesting_and_have_distinct_names() {
        let e = Error::field("front", "bad card").because(Reason::BadCard).within("players[2]");
        assert_eq!(e.reason, Reason::BadCard);
        assert_eq!(Error::new("x").reason, Reason::Invalid);
        let names: std::collections::HashSet<_> = Reason::ALL.iter().map(|r| r.as_str()).collect();
        assert_eq!(names.len(), Reason::ALL.len());
        assert_eq!(crate::cards::parse_cards("As Xx").unwrap_err().reason, Reason::BadCard);
        assert_eq!(crate::cards::parse_cards("As As").unwrap_err().reason, Reason::DuplicateCard);
    }

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
