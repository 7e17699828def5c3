//! 打儲 (dachu) (RULES §3). Not yet implemented.
