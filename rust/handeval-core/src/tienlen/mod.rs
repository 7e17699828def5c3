//! 越式13张 (tienlen), Vietnamese Thirteen / Tiến lên (RULES §2).
//!
//! * [`play`] — the game's card order, 牌型 play types, 跟牌/压牌 beating, legal plays;
//! * [`round`] — turn order, passes, the first lead, and the 压牌 chop chain of a round;
//! * [`instant`] — 直接获胜 instant wins on the 13 dealt cards;
//! * [`settle`] — remaining-card payments, chop transfers, the cap and the rake;
//! * [`game`] — the whole game as a state machine, and the replay of a record;
//! * [`suggest`] — a suggested action by determinized search;
//! * [`sure_win`] — 必胜: the bounded exact search for a sure win;
//! * [`view`] — the table model: what a seat may see and every action it may send now;
//! * [`rules`] — the house-rule options.

pub(crate) mod game;
pub(crate) mod instant;
pub mod play;
pub(crate) mod round;
pub mod rules;
pub(crate) mod settle;
pub mod suggest;
pub mod sure_win;
pub(crate) mod view;

pub use game::{check_hands_len, Game, MAX_ACTIONS};
pub use instant::{instant_win, instant_winner, InstantHand, InstantWin};
pub use play::{beats, beats_key, classify, legal_plays, sorted, Kind, Play, PlayKey};
pub use round::{chop_transfers, first_leader, first_round, Action, RoundState, Transfer};
pub use rules::{ChopWindow, Rules, TurnAfterChop};
pub use settle::{chop_list, settle, settle_instant, special_groups, Chop, Line, LineKind, Settlement};
pub use view::{OfferGroup, SeatView};
