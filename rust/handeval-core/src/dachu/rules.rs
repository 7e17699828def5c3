//! House-rule options of 打儲: every **[decision]** of RULES §3, with its default.

use crate::error::{Error, Result};

/// How many units (`base × multiplier`) change hands when a side wins (RULES 3.7).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnitPer {
    /// **[decision]** one unit per member of the larger side (default): 2 vs 2 → each
    /// loser pays one unit; 1 vs 3 → the lone player pays or receives three units; 2 vs 2
    /// after one player's 繳 → the partner who plays on alone pays or receives two units,
    /// one per opponent (surrendered seats are not counted: they paid their 繳).
    LargerSide,
    /// One unit per member of the losing side (surrendered seats not counted): a lone
    /// loser pays one unit, shared by the winners; a lone winner receives one unit from
    /// each loser.
    LosingSide,
}

impl UnitPer {
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "larger_side" => Ok(Self::LargerSide),
            "losing_side" => Ok(Self::LosingSide),
            _ => Err(Error::field("unit_per", format!("{text:?} is not one of \"larger_side\", \"losing_side\""))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LargerSide => "larger_side",
            Self::LosingSide => "losing_side",
        }
    }
}

/// Which side calls first in 2 vs 2 when nobody declared during the deal (the seed only
/// says the 儲方 calls first after a 夢宣/撐儲, and always in 1 vs 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FirstCaller {
    /// The 儲方 (its members know they hold a 儲).
    Chu,
    /// The 非儲方 (default: the seed's flow 2 is written for "2 VS 2 … 由非儲方叫牌").
    Other,
}

impl FirstCaller {
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "chu" => Ok(Self::Chu),
            "other" => Ok(Self::Other),
            _ => Err(Error::field("first_caller_2v2", format!("{text:?} is not one of \"chu\", \"other\""))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Chu => "chu",
            Self::Other => "other",
        }
    }
}

/// How "以上所有操作，全部玩家每局只可以執行一次" (the deal's declarations) is read
/// (RULES 3.5). 夢宣 and 撐儲 fix the 儲 colour, so under every reading each of them
/// happens at most once per game; the readings differ for 夢踹 and for mixing kinds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DeclareOncePer {
    /// **[decision]** each player may make each kind once (default): several players may
    /// each 夢踹, and one player may both 夢宣 and 夢踹.
    PlayerAndKind,
    /// Each player makes at most one declaration of any kind per game.
    Player,
    /// Each kind happens at most once per game in total (a single 夢踹).
    Game,
}

impl DeclareOncePer {
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "player_and_kind" => Ok(Self::PlayerAndKind),
            "player" => Ok(Self::Player),
            "game" => Ok(Self::Game),
            _ => Err(Error::field("declare_once_per", format!("{text:?} is not one of \"player_and_kind\", \"player\", \"game\""))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PlayerAndKind => "player_and_kind",
            Self::Player => "player",
            Self::Game => "game",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// **[decision]** a pair of one 儲A and one plain A is an ordinary AA (default true);
    /// false: it is not a play at all.
    pub mixed_ace_pair: bool,
    /// **[decision]** 撐儲 makes that colour the 儲, so its player (who holds both) plays
    /// alone, 1 vs 3 — default true; false: 撐儲 only doubles the multiplier and the
    /// colour still comes from 夢宣 or 平宣.
    pub cheng_chu_alone: bool,
    /// **[decision]** an escape penalty is shared equally by the three others (default
    /// true); false: only by the escaping player's opponents (the other side).
    pub escape_shared_by_all: bool,
    /// **[decision]** payment unit of a won/lost game, default one unit per member of the
    /// larger side.
    pub unit_per: UnitPer,
    /// Who calls first in an undeclared 2 vs 2 (see [`FirstCaller`]), default the 非儲方.
    pub first_caller_2v2: FirstCaller,
    /// Escape penalty in units of `base × multiplier` (the seed: 5).
    pub escape_units: u32,
    /// **[decision]** a 繳 costs `base × multiplier / 2` rounded up to a whole unit
    /// (default true: a surrender always costs something); false: rounded toward zero.
    pub jiao_round_up: bool,
    /// **[decision]** how often the deal's declarations may be made (see [`DeclareOncePer`]).
    pub declare_once_per: DeclareOncePer,
    /// **[decision]** a pass is final for the rest of the trick (RULES 3.4a): default
    /// false — a player who passed may play again when the turn comes back in the same
    /// trick; true — a player who passed sits out the rest of the trick, as in 越式13张.
    pub pass_is_final: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            mixed_ace_pair: true,
            cheng_chu_alone: true,
            escape_shared_by_all: true,
            unit_per: UnitPer::LargerSide,
            first_caller_2v2: FirstCaller::Other,
            escape_units: 5,
            jiao_round_up: true,
            declare_once_per: DeclareOncePer::PlayerAndKind,
            pass_is_final: false,
        }
    }
}

impl Rules {
    pub fn validate(&self) -> Result<()> {
        if self.escape_units > 1000 {
            return Err(Error::field("escape_units", format!("must be 0..1000 (got {})", self.escape_units)));
        }
        Ok(())
    }
}
