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

/// When a seat that has passed may chop the play on the table (RULES 2.4 [v5]). Under every
/// reading a chop must beat the table under 2.3, and a round whose play leaves every other
/// player passed ends at once, so nobody may chop it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChopWindow {
    /// **[decision]** only while no other player has acted since that play was made: right
    /// after the play, or — if they are the next in turn and pass on it — right after that
    /// pass (default).
    FirstActor,
    /// Only right after the play; the next action of any seat (the pass of the seat next in
    /// turn included) closes the window.
    Strict,
    /// As `first_actor`, and also any passed seat right after its own pass on that play,
    /// even when other seats acted since the play.
    OwnPass,
    /// Any seat that has passed may chop the play as long as it is the play on the table
    /// (until it is beaten, chopped or the round ends).
    Open,
}

impl ChopWindow {
    pub const ALL: [ChopWindow; 4] = [Self::FirstActor, Self::Strict, Self::OwnPass, Self::Open];

    pub fn parse(text: &str) -> Result<Self> {
        Self::ALL.into_iter().find(|w| w.as_str() == text).ok_or_else(|| {
            Error::field("chop_window", format!("{text:?} is not one of \"first_actor\", \"strict\", \"own_pass\", \"open\""))
                .because(Reason::BadRule)
        })
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FirstActor => "first_actor",
            Self::Strict => "strict",
            Self::OwnPass => "own_pass",
            Self::Open => "open",
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
            /// When a seat that has passed may chop the play on the table: "first_actor"
            /// (while no other player has acted since that play: right after it, or right
            /// after its own pass on it as the next in turn), "strict" (only right after the
            /// play), "own_pass" (as first_actor, and also right after its own pass on that
            /// play, even when other seats acted since) or "open" (as long as it is the play
            /// on the table). (§2.4, house rule)
            chop_window: $crate::tienlen::rules::ChopWindow = $crate::tienlen::rules::ChopWindow::FirstActor;
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

/// The fewest and the most players of a game (RULES 2): seats are `0..players`.
pub(crate) const MIN_PLAYERS: usize = 2;
pub const MAX_PLAYERS: usize = 4;
/// The cards dealt to each seat (RULES 2).
pub(crate) use crate::cards::HAND_SIZE;

/// `players` must be 2..=4 (`got` says what was counted: "3 hands"; an `i64` so that a
/// negative count from a caller is refused here too). The error names no field: the caller
/// names the list (or parameter) that counts the players.
pub(crate) fn check_player_count(players: i64, got: &str) -> Result<usize> {
    usize::try_from(players)
        .ok()
        .filter(|n| (MIN_PLAYERS..=MAX_PLAYERS).contains(n))
        .ok_or_else(|| Error::new(format!("越式13张 has {MIN_PLAYERS} to {MAX_PLAYERS} players (got {got})")).because(Reason::WrongCount))
}

/// The `players` argument of a round query (Python's `players=`, the wire's field): 2..=4,
/// the error at `players`.
pub fn players_arg(players: i64) -> Result<usize> {
    check_player_count(players, &players.to_string()).map_err(|e| e.within("players"))
}

pub(crate) fn check_players(players: usize) -> Result<()> {
    check_player_count(players as i64, &players.to_string()).map(|_| ())
}

/// A dealt hand has [`HAND_SIZE`] cards; the error names `field`.
pub fn check_dealt_hand(cards: &[crate::cards::Card], field: &str) -> Result<()> {
    if cards.len() != HAND_SIZE {
        return Err(Error::field(field, format!("a dealt hand has {HAND_SIZE} cards (got {})", cards.len())).because(Reason::WrongCount));
    }
    Ok(())
}

/// A hand in play holds at most [`HAND_SIZE`] cards; the error names `field`.
pub fn check_hand_at_most(cards: usize, field: &str) -> Result<()> {
    if cards > HAND_SIZE {
        return Err(Error::field(field, format!("a hand has at most {HAND_SIZE} cards (got {cards})")).because(Reason::WrongCount));
    }
    Ok(())
}

/// A seat number as a caller sent it: not negative (whether the game has that seat is
/// checked where the players are known); the error names `field`.
pub fn seat_number(seat: i64, field: &str) -> Result<usize> {
    usize::try_from(seat).map_err(|_| {
        Error::field(field, format!("seat {seat} is not in the game (seats are 0..{})", MAX_PLAYERS - 1)).because(Reason::OutOfRange)
    })
}

pub(crate) fn check_seat(seat: usize, players: usize, field: &str) -> Result<()> {
    if seat >= players {
        return Err(Error::field(field, format!("seat {seat} is not in the game (seats 0..{})", players - 1)).because(Reason::OutOfRange));
    }
    Ok(())
}
