//! House-rule options of 打儲: every **[decision]** of RULES §3, with its default.

use crate::error::{Error, Reason, Result};

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
            _ => Err(Error::field("unit_per", format!("{text:?} is not one of \"larger_side\", \"losing_side\"")).because(Reason::BadRule)),
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
            _ => Err(Error::field("first_caller_2v2", format!("{text:?} is not one of \"chu\", \"other\"")).because(Reason::BadRule)),
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
            _ => Err(Error::field("declare_once_per", format!("{text:?} is not one of \"player_and_kind\", \"player\", \"game\""))
                .because(Reason::BadRule)),
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

/// How the service reads the hand of a player who ran out of time inside a game record
/// when the TIMEOUT action carries no columns (RULES 3.7): the seed plays "the first card
/// of the rightmost column", so the order of the columns decides which card goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TimeoutDisplay {
    /// **[decision]** strongest rank on the left, one column per rank (default): the
    /// rightmost column is the weakest rank, so a timed-out player throws their weakest
    /// single (the 儲 count as the strongest rank).
    StrongestLeft,
    /// Weakest rank on the left: the rightmost column is the strongest rank (a 2, or a
    /// 儲A), so a timed-out player throws their strongest single.
    WeakestLeft,
}

impl TimeoutDisplay {
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "strongest_left" => Ok(Self::StrongestLeft),
            "weakest_left" => Ok(Self::WeakestLeft),
            _ => Err(Error::field("timeout_display", format!("{text:?} is not one of \"strongest_left\", \"weakest_left\""))
                .because(Reason::BadRule)),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Self::StrongestLeft => "strongest_left",
            Self::WeakestLeft => "weakest_left",
        }
    }
}

/// The options of 打儲's [`Rules`], each with its description, type and default (see
/// [`crate::declare_rules`]): the one list the struct below and the binding's
/// `handeval.dachu.Rules` are declared from.
#[macro_export]
macro_rules! dachu_rule_options {
    ($then:ident! { $($head:tt)* }) => {
        $then! {
            $($head)*
            /// A pair of one 儲A and one plain A is an ordinary AA; False: it is not a play.
            /// (§3.3, house rule)
            mixed_ace_pair: bool = true;
            /// 撐儲 makes that colour the 儲, so its player (who holds both) plays alone,
            /// 1 vs 3; False: 撐儲 only doubles the multiplier and the colour still comes
            /// from 夢宣 or 平宣. (§3.5, house rule)
            cheng_chu_alone: bool = true;
            /// An escape penalty is shared equally by the three others; False: only by the
            /// escaping player's opponents (the other side). (§3.7, house rule)
            escape_shared_by_all: bool = true;
            /// A won game moves one unit (base × multiplier) per member of the
            /// "larger_side" (1 vs 3: the lone player pays or receives three units; 2 vs 2:
            /// each loser pays one) or per member of the "losing_side". (§3.7, house rule)
            unit_per: $crate::dachu::rules::UnitPer = $crate::dachu::rules::UnitPer::LargerSide;
            /// Who calls first in a 2 vs 2 without 夢宣/撐儲: "other" (the 非儲方) or "chu"
            /// (the 儲方, which always calls first after a declaration and in 1 vs 3).
            /// (§3.6, house rule)
            first_caller_2v2: $crate::dachu::rules::FirstCaller = $crate::dachu::rules::FirstCaller::Other;
            /// The escape penalty in units of base × multiplier, 0–1000. (§3.7, variant)
            escape_units: u32 = 5;
            /// A 繳 costs base × multiplier / 2 rounded up to a whole unit (a surrender
            /// always costs something); False: rounded toward zero. (§3.7, house rule)
            jiao_round_up: bool = true;
            /// How often the deal's declarations may be made: once per "player_and_kind"
            /// (several players may each 夢踹), once per "player" (one declaration of any
            /// kind each) or once per "game" per kind. 夢宣 and 撐儲 fix the 儲 colour, so
            /// each happens once per game under every reading. (§3.5, house rule)
            declare_once_per: $crate::dachu::rules::DeclareOncePer = $crate::dachu::rules::DeclareOncePer::PlayerAndKind;
            /// A pass is final for the rest of the trick: a player who passed sits out until
            /// the trick ends, as in 越式13张; False: a player who passed may play again
            /// when the turn comes back in the same trick. (§3.4a, house rule)
            pass_is_final: bool = false;
            /// How a game record's timeout (出牌超時) without the client's columns reads the
            /// hand: "strongest_left" (the rightmost column is the weakest rank, so the
            /// weakest single goes) or "weakest_left" (the strongest single goes). A
            /// timeout that carries the client's columns uses them. (§3.7, house rule)
            timeout_display: $crate::dachu::rules::TimeoutDisplay = $crate::dachu::rules::TimeoutDisplay::StrongestLeft;
        }
    };
}

use crate::declare_rules;
dachu_rule_options!(declare_rules! {
    /// House-rule options of 打儲; `Default` gives the defaults of docs/rules.md.
    pub struct Rules;
});

impl Rules {
    pub fn validate(&self) -> Result<()> {
        if self.escape_units > 1000 {
            return Err(Error::field("escape_units", format!("must be 0..1000 (got {})", self.escape_units)).because(Reason::BadRule));
        }
        Ok(())
    }
}
