//! The house-rule options of 越式13张 and the player-count and seat checks.

use crate::error::{Error, Reason, Result};

/// Who moves after a 压牌 chop made out of turn (RULES 2.4): only a seat that has passed
/// plays out of turn, and only with a special that chops the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TurnAfterChop {
    /// **[decision]** play goes on from the chopper: the next seat after it that has not
    /// passed moves next (default).
    FromChopper,
    /// The seat whose turn the chop interrupted still moves next.
    Resume,
}

impl TurnAfterChop {
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "from_chopper" => Ok(Self::FromChopper),
            "resume" => Ok(Self::Resume),
            _ => {
                Err(Error::field("turn_after_chop", format!("{text:?} is not one of \"from_chopper\", \"resume\""))
                    .because(Reason::BadRule))
            }
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FromChopper => "from_chopper",
            Self::Resume => "resume",
        }
    }
}

/// The options of 越式13张's [`Rules`], each with its description, type and default (see
/// [`crate::declare_rules`]): the one list the struct below and the binding's
/// `handeval.tienlen.Rules` are declared from.
#[macro_export]
macro_rules! tienlen_rule_options {
    ($then:ident! { $($head:tt)* }) => {
        $then! {
            $($head)*
            /// The first play of the game must contain the lowest card dealt (normally 3♠);
            /// False: the sheet only says who leads. (§2.4, house rule)
            first_lead_must_contain_lowest: bool = false;
            /// A loser who played no card and still holds specials or 2s pays 26 + Σ
            /// multipliers; False: just 26. (§2.6, house rule)
            unplayed_loser_adds_multipliers: bool = true;
            /// Who moves after a chop by a seat that had passed: "from_chopper" (the next
            /// seat after the chopper that has not passed) or "resume" (the seat whose turn
            /// the chop interrupted). (§2.4, house rule)
            turn_after_chop: $crate::tienlen::rules::TurnAfterChop = $crate::tienlen::rules::TurnAfterChop::FromChopper;
            /// 抽水: percent of the winner's positive final amount, 0–100; losers are never
            /// raked, even when chop transfers leave them positive. (§2.6, variant)
            rake_percent: u32 = 5;
        }
    };
}

use crate::declare_rules;
tienlen_rule_options!(declare_rules! {
    /// House-rule options of 越式13张; `Default` gives the defaults of docs/rules.md.
    pub struct Rules;
});

impl Rules {
    pub fn validate(&self) -> Result<()> {
        if self.rake_percent > 100 {
            return Err(Error::field("rake_percent", format!("must be 0..100 (got {})", self.rake_percent)).because(Reason::BadRule));
        }
        Ok(())
    }
}

/// Seats are 0..=3 (2–4 players); `players` must be 2..=4. The error names no field: the
/// caller names the list (or parameter) that counts the players.
pub(crate) fn check_players(players: usize) -> Result<()> {
    if !(2..=4).contains(&players) {
        return Err(Error::new(format!("越式13张 has 2 to 4 players (got {players})")).because(Reason::WrongCount));
    }
    Ok(())
}

pub(crate) fn check_seat(seat: usize, players: usize, field: &str) -> Result<()> {
    if seat >= players {
        return Err(Error::field(field, format!("seat {seat} is not in the game (seats 0..{})", players - 1)).because(Reason::OutOfRange));
    }
    Ok(())
}
