//! handeval-core: the rules of three card games, with no Python in sight.
//!
//! * [`cards`] — the game-neutral card, parsing and canonical notation (RULES §0);
//! * [`money`] — integer, exactly zero-sum money: proportional shares and the cap (RULES §0, §4);
//! * [`shisanshui`] — 十三水, Chinese poker (RULES §1);
//! * [`tienlen`] — 越式13张, Vietnamese Thirteen (RULES §2);
//! * [`dachu`] — 打儲 (RULES §3);
//! * [`table`] — what the trick games' table models share: how a seat may act on an offer.
//!
//! Every fallible entry returns [`Error`], whose message names the bad card, field or seat.

// The public items are what the wire, the binding, the fuzzers and the crate's own
// examples and benches use; `unreachable_pub` (denied with the other warnings in CI)
// keeps items of private modules crate-private, and `layout_tests` fails on a public
// item at module level that nothing outside the crate names.
#![warn(unreachable_pub)]

pub mod cards;
pub mod dachu;
pub mod error;
pub mod money;
pub mod sampling;
pub mod shisanshui;
pub mod table;
pub mod tienlen;

pub use cards::Card;

#[cfg(test)]
mod layout_tests;
pub use error::{Error, Reason, Result};

/// Declares a game's `Rules` struct and its `Default` from the game's list of options
/// (`shisanshui_rule_options!`, `tienlen_rule_options!`, `dachu_rule_options!`).
///
/// Each option of a list is `doc comment, name: Type = default;`. Its doc comment is the
/// option's one description: the field's doc here, the Python attribute's `__doc__`
/// (the binding declares its `Rules` classes from the same lists, `native_class!`) and
/// the option tables of docs/api.md and docs/rules.md and the stub `_core.pyi`
/// (`python3 scripts/gen_docs.py`, checked by tests/docs). It is written for both
/// readers: plain text, values as Python spells them, and it ends with `(§<RULES
/// section>, house rule)` (the sheet leaves the point open; the default is the engine's
/// reading) or `(§<section>, variant)` (the sheet decides it; the option serves rooms
/// that play otherwise).
#[doc(hidden)]
#[macro_export]
macro_rules! declare_rules {
    (
        $(#[$meta:meta])*
        pub struct $name:ident;
        $( $(#[$ometa:meta])* $opt:ident : $ty:ty = $default:expr; )+
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name {
            $( $(#[$ometa])* pub $opt: $ty, )+
        }
        impl Default for $name {
            fn default() -> Self {
                $name { $( $opt: $default ),+ }
            }
        }
    };
}
