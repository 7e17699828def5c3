//! 打儲 (dachu), a 4-player team shedding game with 儲 aces (RULES §3).
//!
//! * [`play`] — play types, the 儲 order and beating, legal plays, the timeout play;
//! * [`deal`] — the deal and its declarations (夢宣 / 夢踹 / 撐儲 / 平宣) as a state machine;
//! * [`game`] — the play after the calling (tricks, turns, places) as a state machine;
//! * [`calling`] — 叫牌 (平打 / 踹 / 包踹 / 繳) as a state machine;
//! * [`record`] — a whole game as a record (deal actions, calls, plays), its bounds and
//!   its replay;
//! * [`settle`] — money by finishing places, 全殲, 繳, 被包打, escapes and the cap;
//! * [`rules`] — the house-rule options (every [decision] of RULES §3);
//! * [`sure_win`] — 托管's exact check of a sure win (and of a move that lets an
//!   opponent go out for sure);
//! * [`view`] — the table as each seat sees it: its view, its offers and 托管.

pub mod calling;
pub mod deal;
pub mod game;
pub(crate) mod play;
pub(crate) mod record;
pub mod rules;
pub(crate) mod settle;
pub mod suggest;
pub(crate) mod sure_win;
pub mod view;

pub use calling::{Call, Calling, Outcome};
pub use deal::{Deal, DealAction};
pub use game::PlayAction;
pub use play::{beats, beats_play, classify, columns_of, legal_plays, timeout_play, Chu, Constraints, Kind, LegalPlay, Play};
pub use record::{check_len, DealEntry, Entries, Record, Replayed, MAX_CALLS, MAX_DEAL_ACTIONS, RECORD_BOUNDS};
pub use rules::Rules;
pub use settle::{settle, GameResult, LineKind, Settlement, Verdict};

#[cfg(test)]
mod tests;
