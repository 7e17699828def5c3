//! House-rule options of 十三水 (RULES §1, every [decision] and every listed variant).

use crate::cards::SUIT_CHARS;
use crate::error::{Error, Reason, Result};

/// Suit order for tie-breaks: `value[neutral suit]`, higher is stronger.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SuitOrder(pub [u8; 4]);

/// Longest text a suit order may be: 4 letters (of at most 4 bytes each in UTF-8).
pub(crate) const SUIT_ORDER_MAX_BYTES: usize = 16;

impl SuitOrder {
    /// **[decision]** ♠ > ♥ > ♣ > ♦ (黑桃 > 红桃 > 梅花 > 方块).
    pub const DEFAULT: SuitOrder = SuitOrder([3, 2, 0, 1]);

    /// From four suit letters, strongest first, e.g. `"shcd"`.
    pub fn parse(text: &str) -> Result<SuitOrder> {
        // Four letters: a longer text fails at its length, before it is read or quoted.
        if text.len() > SUIT_ORDER_MAX_BYTES {
            return Err(Error::field(
                "suit_order",
                format!("is {} bytes long; a suit order is 4 letters, each of s h d c once, strongest first (e.g. \"shcd\")", text.len()),
            ));
        }
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
        if value.contains(&u8::MAX) {
            return Err(Error::field("suit_order", format!("{text:?} must name each of s h d c once, strongest first (e.g. \"shcd\")"))
                .because(Reason::BadRule));
        }
        Ok(SuitOrder(value))
    }

    pub fn to_text(self) -> String {
        let mut s: Vec<(u8, char)> = (0..4).map(|i| (self.0[i], SUIT_CHARS[i])).collect();
        s.sort_by_key(|a| std::cmp::Reverse(a.0));
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
            _ => Err(Error::field("a2345", format!("{text:?} is not one of \"lowest\", \"second_highest\"")).because(Reason::BadRule)),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            WheelRank::Lowest => "lowest",
            WheelRank::SecondHighest => "second_highest",
        }
    }
}

/// The options of 十三水's [`Rules`], each with its description, type and default (see
/// [`crate::declare_rules`]): the one list the struct below and the binding's
/// `handeval.shisanshui.Rules` are declared from. `$then!` is called with `head`
/// followed by the options.
#[macro_export]
macro_rules! shisanshui_rule_options {
    ($then:ident! { $($head:tt)* }) => {
        $then! {
            $($head)*
            /// Equal ranks are decided by suits (the sheet: no ties); False: an exact rank
            /// tie scores 0. (§1.1, variant)
            suit_tiebreak: bool = true;
            /// The suits strongest first for tie-breaks, the four letters s h d c once each:
            /// "shcd" is ♠ > ♥ > ♣ > ♦. (§1.1, house rule)
            suit_order: $crate::shisanshui::rules::SuitOrder = $crate::shisanshui::rules::SuitOrder::DEFAULT;
            /// Where A2345 ranks among straights: "lowest", or "second_highest" (just below
            /// TJQKA). (§1.1, variant)
            a2345: $crate::shisanshui::rules::WheelRank = $crate::shisanshui::rules::WheelRank::Lowest;
            /// A fouled hand (倒水) loses every row and counts as scooped; False: a fouled
            /// hand is rejected as bad input. (§1.4, house rule)
            foul_scoring: bool = true;
            /// 全垒打 needs at least this many opponents (1 or more). (§1.6, house rule)
            home_run_min_opponents: u32 = 3;
            /// 抽水: percent of each positive result, 0–100 (0: no rake). (§1.6, variant)
            rake_percent: u32 = 0;
        }
    };
}

use crate::declare_rules;
shisanshui_rule_options!(declare_rules! {
    /// House-rule options of 十三水; `Default` gives the defaults of docs/rules.md.
    pub struct Rules;
});

impl Rules {
    pub fn validate(&self) -> Result<()> {
        if self.rake_percent > 100 {
            return Err(Error::field("rake_percent", format!("must be 0..100 (got {})", self.rake_percent)).because(Reason::BadRule));
        }
        if self.home_run_min_opponents == 0 {
            return Err(Error::field("home_run_min_opponents", "must be at least 1").because(Reason::BadRule));
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

    #[test]
    fn an_over_long_suit_order_fails_at_its_length_without_quoting_it() {
        let text = "s".repeat(1 << 20);
        let e = SuitOrder::parse(&text).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("suit_order"));
        assert!(e.message.starts_with("is 1048576 bytes long") && e.message.len() < 200, "{}", e.message);
        // Up to the bound, the text is read and quoted as before.
        let e = SuitOrder::parse(&"s".repeat(SUIT_ORDER_MAX_BYTES)).unwrap_err();
        assert!(e.message.contains(&"s".repeat(SUIT_ORDER_MAX_BYTES)));
        assert_eq!(SuitOrder::parse("SHCD").unwrap(), SuitOrder::DEFAULT);
    }
}
