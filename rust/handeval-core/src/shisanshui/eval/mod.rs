//! Row evaluation for 十三水 (RULES §1.2–1.5).
//!
//! * [`strength`] — a row's strength (table lookups), category, order of significance and
//!   full value;
//! * [`compare`] — comparing two rows, the 倒水 foul check, a row's waters;
//! * [`order`] — order keys for sorting rows that need not come from one deck;
//! * [`bulk`] — categories of many rows packed as card ids, in vector lanes.

pub(crate) mod bulk;
pub(crate) mod compare;
pub(crate) mod order;
pub(crate) mod strength;

pub use bulk::{categories_from_ids, categories_from_ids_into};
pub(crate) use compare::{check_row_sizes, row_waters};
pub use compare::{compare_rows, is_foul};
pub use order::{order_key_sized, order_keys};
pub use strength::*;

#[cfg(test)]
mod tests;
