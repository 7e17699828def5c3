//! handeval-core: the rules of three card games, with no Python in sight.
//!
//! * [`cards`] — the game-neutral card, parsing and canonical notation (RULES §0);
//! * [`money`] — integer, exactly zero-sum money: proportional shares and the cap (RULES §0, §4);
//! * [`shisanshui`] — 十三水, Chinese poker (RULES §1);
//! * [`tienlen`] — 越式13张, Vietnamese Thirteen (RULES §2);
//! * [`dachu`] — 打儲 (RULES §3).
//!
//! Every fallible entry returns [`Error`], whose message names the bad card, field or seat.

pub mod cards;
pub mod dachu;
pub mod error;
pub mod money;
pub mod shisanshui;
pub mod tienlen;

pub use cards::{Card, CardSet};
pub use error::{Error, Reason, Result};
