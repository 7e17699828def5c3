//! 越式13张 (tienlen), Vietnamese Thirteen / Tiến lên (RULES §2).
//!
//! * [`play`] — the game's card order, 牌型 play types, 跟牌/压牌 beating, legal plays;
//! * [`round`] — turn order, passes, the first lead, and the 压牌 chop chain of a round;
//! * [`instant`] — 直接获胜 instant wins on the 13 dealt cards;
//! * [`settle`] — remaining-card payments, chop transfers, the cap and the rake.

pub mod game;
pub mod instant;
pub mod play;
pub mod round;
pub mod settle;

pub use game::{Game, MAX_ACTIONS};
pub use instant::{instant_win, instant_winner, InstantHand, InstantWin};
pub use play::{beats, beats_key, classify, legal_plays, Kind, Play, PlayKey};
pub use round::{chop_chain, chop_transfers, first_leader, Action, RoundState, Transfer};
pub use settle::{chop_list, settle, settle_instant, special_groups, Chop, Group, Line, LineKind, Settlement};

use crate::error::{Error, Result};

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
            _ => Err(Error::field("turn_after_chop", format!("{text:?} is not one of \"from_chopper\", \"resume\""))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FromChopper => "from_chopper",
            Self::Resume => "resume",
        }
    }
}

/// House-rule options of 越式13张; `Default` gives those of docs/rules.md.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// **[decision]** The first play of the game must contain the lowest card dealt
    /// (normally 3♠). Default off: the seed only says who leads.
    pub first_lead_must_contain_lowest: bool,
    /// **[decision]** A loser who played no card and still holds specials or 2s pays
    /// `26 + Σ multipliers` (default); off: just 26.
    pub unplayed_loser_adds_multipliers: bool,
    /// **[decision]** Who moves after a chop by a seat that had passed (see [`TurnAfterChop`]).
    pub turn_after_chop: TurnAfterChop,
    /// 抽水: percent of the winner's positive final amount (the seed: 5). Losers are never
    /// raked, even when chop transfers leave them positive.
    pub rake_percent: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            first_lead_must_contain_lowest: false,
            unplayed_loser_adds_multipliers: true,
            turn_after_chop: TurnAfterChop::FromChopper,
            rake_percent: 5,
        }
    }
}

impl Rules {
    pub fn validate(&self) -> Result<()> {
        if self.rake_percent > 100 {
            return Err(Error::field("rake_percent", format!("must be 0..100 (got {})", self.rake_percent)));
        }
        Ok(())
    }
}

/// Seats are 0..=3 (2–4 players); `players` must be 2..=4.
pub(crate) fn check_players(players: usize) -> Result<()> {
    if !(2..=4).contains(&players) {
        return Err(Error::field("players", format!("越式13张 has 2 to 4 players (got {players})")));
    }
    Ok(())
}

pub(crate) fn check_seat(seat: usize, players: usize, field: &str) -> Result<()> {
    if seat >= players {
        return Err(Error::field(field, format!("seat {seat} is not in the game (seats 0..{})", players - 1)));
    }
    Ok(())
}
