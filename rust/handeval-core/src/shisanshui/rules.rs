//! House-rule options of 十三水 (RULES §1, every [decision] and every listed variant).

use crate::cards::SUIT_CHARS;
use crate::error::{Error, Result};

/// Suit order for tie-breaks: `value[neutral suit]`, higher is stronger.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SuitOrder(pub [u8; 4]);

impl SuitOrder {
    /// **[decision]** ♠ > ♥ > ♣ > ♦ (黑桃 > 红桃 > 梅花 > 方块).
    pub const DEFAULT: SuitOrder = SuitOrder([3, 2, 0, 1]);

    /// From four suit letters, strongest first, e.g. `"shcd"`.
    pub fn parse(text: &str) -> Result<SuitOrder> {
        let chars: Vec<char> = text.chars().map(|c| c.to_ascii_lowercase()).collect();
        let mut value = [u8::MAX; 4];
        if chars.len() == 4 {
            for (i, c) in chars.iter().enumerate() {
                if let Some(s) = SUIT_CHARS.iter().position(|x| x == c) {
                    if value[s] == u8::MAX {
                        value[s] = 3 - i as u8;
                    }
                }
            }
        }
        if value.iter().any(|&v| v == u8::MAX) {
            return Err(Error::field("suit_order", format!("{text:?} must name each of s h d c once, strongest first (e.g. \"shcd\")")));
        }
        Ok(SuitOrder(value))
    }

    pub fn to_text(self) -> String {
        let mut s: Vec<(u8, char)> = (0..4).map(|i| (self.0[i], SUIT_CHARS[i])).collect();
        s.sort_by(|a, b| b.0.cmp(&a.0));
        s.into_iter().map(|(_, c)| c).collect()
    }
}

/// Where `A2345` ranks among straights.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum WheelRank {
    /// The lowest straight, topping at 5 (the seed's rule; default).
    Lowest,
    /// The second-highest straight, just below `TJQKA` (a common room variant).
    SecondHighest,
}

impl WheelRank {
    pub fn parse(text: &str) -> Result<WheelRank> {
        match text {
            "lowest" => Ok(WheelRank::Lowest),
            "second_highest" => Ok(WheelRank::SecondHighest),
            _ => Err(Error::field("a2345", format!("{text:?} is not one of \"lowest\", \"second_highest\""))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            WheelRank::Lowest => "lowest",
            WheelRank::SecondHighest => "second_highest",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Equal ranks are decided by suits (the seed: "無平手情況"); off: exact rank ties score 0.
    pub suit_tiebreak: bool,
    /// **[decision]** suit order for tie-breaks, default ♠ > ♥ > ♣ > ♦.
    pub suit_order: SuitOrder,
    /// `A2345` the lowest straight (default) or the second-highest.
    pub a2345: WheelRank,
    /// **[decision]** fouled hands are scored (lose every row, counted as scooped);
    /// off: a fouled hand is rejected as bad input.
    pub foul_scoring: bool,
    /// **[decision]** 全垒打 needs at least this many opponents (default 3).
    pub home_run_min_opponents: u32,
    /// 抽水 percent of each positive result (default 0: no rake).
    pub rake_percent: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            suit_tiebreak: true,
            suit_order: SuitOrder::DEFAULT,
            a2345: WheelRank::Lowest,
            foul_scoring: true,
            home_run_min_opponents: 3,
            rake_percent: 0,
        }
    }
}

impl Rules {
    pub fn validate(&self) -> Result<()> {
        if self.rake_percent > 100 {
            return Err(Error::field("rake_percent", format!("must be 0..100 (got {})", self.rake_percent)));
        }
        if self.home_run_min_opponents == 0 {
            return Err(Error::field("home_run_min_opponents", "must be at least 1"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suit_order_round_trips() {
        assert_eq!(SuitOrder::parse("shcd").unwrap(), SuitOrder::DEFAULT);
        assert_eq!(SuitOrder::DEFAULT.to_text(), "shcd");
        assert!(SuitOrder::parse("sshd").is_err());
        assert!(SuitOrder::parse("shc").is_err());
    }
}
