//! 十三水 (shisanshui), Chinese poker: 13 cards arranged as 头墩 front (3), 中墩 middle (5)
//! and 尾墩 back (5). RULES §1.
//!
//! * [`eval`] — row strength (perfect-hash-free lookup tables), comparison, 倒水 foul check;
//! * [`special`] — 特殊牌型, the thirteen special hands;
//! * [`settle`] — waters per pair (打枪, 全垒打, specials, fouls) and money.

pub mod arrange;
pub mod eval;
pub mod rules;
pub(crate) mod settle;
pub(crate) mod special;

pub use arrange::{arrange, arrange_many, best_response, ArrangeResult, Arrangement};
pub use eval::{compare_rows, is_foul, row_value, Category};
pub use rules::{Rules, SuitOrder, WheelRank};
pub use settle::{check_deal_shape, settle, Hand, PairResult, Settlement};
pub use special::{satisfies_special, special, verify_special, SpecialHand, SpecialId};
