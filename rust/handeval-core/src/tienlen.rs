//! 越式13张 (tienlen), Vietnamese Thirteen (RULES §2). Not yet implemented.
