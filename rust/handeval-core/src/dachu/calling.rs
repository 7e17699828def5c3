//! 叫牌, the calling before play (RULES 3.6; seed `004_…`, 叫牌時間 flows 1–2, A–D and
//! notes 1–4) as a state machine.
//!
//! How the seed's text is read (each step is tested in `tests`):
//! * The calling side is asked player by player in its calling order (seat order from
//!   the start seat). A side with one player to ask — the lone 儲 of 1 vs 3 (flow 1) —
//!   chooses 平打 / 踹 / 繳 once and that is final.
//! * A side of 2–3 (flow 2): every player may choose 平打 / 踹 / 包踹 / 繳 (after a 踹 the
//!   seed calls the same 踹 跟踹). If all agree, that is the side's choice (A: all 平打 →
//!   play; B: all 繳 → the side surrenders; D: 踹 + 跟踹 → 踹). As soon as a choice differs
//!   from the first player's, the side is asked again from its first player (D's second
//!   round); the last answer of that round is final, and if it is 繳, the latest earlier
//!   answer that is not 繳 (every 繳 of that round is then a personal surrender; all 繳 →
//!   the side surrenders).
//! * 包踹 (C): once someone chooses it, each other player of the side, in calling order
//!   after them (wrapping round), answers 包踹 or 繳 once. Each new 包踹 takes over and the
//!   previous 包踹 player is 被包打 (sits out, pays by the side's result); a 繳 is a
//!   personal surrender; the last 包踹 player plays for the side, whose choice is 包踹.
//!   A player may choose 包踹 once per game (note 1).
//! * Between the sides: the first side's 平打 starts play; its 踹/包踹 passes the call to
//!   the other side (flow 1 B). The other side's 平打 starts play; if it kicks too, the
//!   second round of note 3 runs: each side in turn (first side first), each of its
//!   playing members once, 平打 or 踹, the last answer final; then play starts.
//! * The multiplier doubles each time a side's final choice is 踹 or 包踹 (notes 1, 4).
//! * Who calls first: the 儲方 after a 夢宣/撐儲 and always in 1 vs 3 (flow 1); otherwise
//!   [`Rules::first_caller_2v2`](super::rules::Rules).

use super::rules::{FirstCaller, Rules};
use crate::bail;
use crate::error::{Error, Reason, Result};

pub const CHU: usize = 0;
pub const OTHER: usize = 1;

pub fn side_name(side: usize) -> &'static str {
    if side == CHU {
        "chu"
    } else {
        "other"
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Call {
    /// 平打: play at the current multiplier.
    PingDa,
    /// 踹 (跟踹 when following a teammate's 踹): kick, ×2 as a side's final choice.
    Chuai,
    /// 包踹: kick and play alone for the side, ×2; once per player per game.
    BaoChuai,
    /// 繳: surrender.
    Jiao,
}

impl Call {
    pub const ALL: [Call; 4] = [Call::PingDa, Call::Chuai, Call::BaoChuai, Call::Jiao];
    pub fn name(self) -> &'static str {
        match self {
            Call::PingDa => "ping_da",
            Call::Chuai => "chuai",
            Call::BaoChuai => "bao_chuai",
            Call::Jiao => "jiao",
        }
    }
    pub fn name_zh(self) -> &'static str {
        match self {
            Call::PingDa => "平打",
            Call::Chuai => "踹",
            Call::BaoChuai => "包踹",
            Call::Jiao => "繳",
        }
    }
    pub fn parse(text: &str) -> Result<Call> {
        Call::ALL
            .into_iter()
            .find(|c| c.name() == text || c.name_zh() == text)
            .or(if text == "gen_chuai" || text == "跟踹" { Some(Call::Chuai) } else { None })
            .ok_or_else(|| Error::field("action", format!("unknown call {text:?} (expected ping_da, chuai, bao_chuai or jiao)")))
    }
    fn is_kick(self) -> bool {
        matches!(self, Call::Chuai | Call::BaoChuai)
    }
}

/// Where the calling is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A side decides (seed flows 1, 2 and D); `round` 2 is D's second round.
    Side {
        side: usize,
        round: u8,
        order: Vec<usize>,
        idx: usize,
        choices: Vec<Call>,
    },
    /// 包踹 (flow C): `order` answer 包踹 or 繳; `sole` is the current 包踹 player.
    Bao {
        side: usize,
        order: Vec<usize>,
        idx: usize,
        sole: usize,
    },
    /// The second round between the sides (note 3): 平打 or 踹, each player once.
    Again {
        side: usize,
        order: Vec<usize>,
        idx: usize,
        last: Option<Call>,
        second: bool,
    },
    Over,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The game is played (by the seats not surrendered and not 被包打).
    Play,
    /// A whole side surrendered (繳): nobody plays.
    Surrender { side: usize },
}

/// The calling's state. Immutable in use: [`Calling::apply`] returns the next state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calling {
    /// Seats of the 儲方 (`sides[CHU]`) and the 非儲方 (`sides[OTHER]`), in calling order.
    pub sides: [Vec<usize>; 2],
    pub first_side: usize,
    pub multiplier: i64,
    pub stage: Stage,
    pub bao_used: [bool; 4],
    /// Surrendered (繳) seats.
    pub jiao: [bool; 4],
    /// 被包打 seats: sit out, pay by their side's result (note 2).
    pub bei_bao_da: [bool; 4],
    /// The 包踹 player of each side, if any.
    pub sole: [Option<usize>; 2],
    /// Each side decision in order: (side, final call).
    pub finals: Vec<(usize, Call)>,
    /// Every call made: (seat, call).
    pub history: Vec<(usize, Call)>,
    pub outcome: Option<Outcome>,
}

fn seat_ok(seat: usize, field: &str) -> Result<()> {
    if seat >= 4 {
        bail!(reason = OutOfRange, field = field, "unknown seat {seat} (打儲 seats are 0..3)");
    }
    Ok(())
}

impl Calling {
    /// `chu_side`: the 儲 holders (1 or 2 seats); `declared`: a 夢宣 or 撐儲 happened;
    /// `multiplier`: from the deal; `start_seat`: each side is asked in seat order from
    /// here; `first_side`: override who calls first (`None`: the seed's rule).
    pub fn new(
        chu_side: &[usize],
        declared: bool,
        multiplier: i64,
        start_seat: usize,
        first_side: Option<usize>,
        rules: &Rules,
    ) -> Result<Calling> {
        for (i, &s) in chu_side.iter().enumerate() {
            seat_ok(s, &format!("chu_side[{i}]"))?;
        }
        seat_ok(start_seat, "start_seat")?;
        if chu_side.is_empty() || chu_side.len() > 2 || (chu_side.len() == 2 && chu_side[0] == chu_side[1]) {
            let reason = if chu_side.len() == 2 { Reason::Inconsistent } else { Reason::WrongCount };
            return Err(Error::field(
                "chu_side",
                format!("the 儲方 is one seat (1 vs 3) or two different seats (2 vs 2), got {chu_side:?}"),
            )
            .because(reason));
        }
        check_multiplier(multiplier)?;
        let ordered = |pred: &dyn Fn(usize) -> bool| -> Vec<usize> { (0..4).map(|k| (start_seat + k) % 4).filter(|&s| pred(s)).collect() };
        let sides = [ordered(&|s| chu_side.contains(&s)), ordered(&|s| !chu_side.contains(&s))];
        let first = match first_side {
            Some(f) if f <= 1 => f,
            Some(f) => bail!(reason = OutOfRange, field = "first_side", "must be 0 (儲方) or 1 (非儲方), got {f}"),
            None if declared || chu_side.len() == 1 => CHU,
            None => match rules.first_caller_2v2 {
                FirstCaller::Chu => CHU,
                FirstCaller::Other => OTHER,
            },
        };
        let mut c = Calling {
            sides,
            first_side: first,
            multiplier,
            stage: Stage::Over,
            bao_used: [false; 4],
            jiao: [false; 4],
            bei_bao_da: [false; 4],
            sole: [None; 2],
            finals: Vec::new(),
            history: Vec::new(),
            outcome: None,
        };
        c.stage = c.side_call(first);
        Ok(c)
    }

    fn active(&self, side: usize) -> Vec<usize> {
        self.sides[side].iter().copied().filter(|&s| !self.jiao[s] && !self.bei_bao_da[s]).collect()
    }

    fn side_call(&self, side: usize) -> Stage {
        Stage::Side { side, round: 1, order: self.active(side), idx: 0, choices: Vec::new() }
    }

    /// The 儲方's seats, in seat order.
    pub fn chu_side(&self) -> Vec<usize> {
        let mut v = self.sides[CHU].clone();
        v.sort_unstable();
        v
    }

    /// Whose turn it is, or `None` when the calling is over.
    pub fn turn(&self) -> Option<usize> {
        match &self.stage {
            Stage::Side { order, idx, .. } | Stage::Bao { order, idx, .. } | Stage::Again { order, idx, .. } => Some(order[*idx]),
            Stage::Over => None,
        }
    }

    /// The side now calling (0 儲方, 1 非儲方), or `None` when over.
    pub fn calling_side(&self) -> Option<usize> {
        match &self.stage {
            Stage::Side { side, .. } | Stage::Bao { side, .. } | Stage::Again { side, .. } => Some(*side),
            Stage::Over => None,
        }
    }

    pub fn phase(&self) -> &'static str {
        match &self.stage {
            Stage::Side { round: 1, .. } => "side_call",
            Stage::Side { .. } => "side_call_round2",
            Stage::Bao { .. } => "bao_chuai",
            Stage::Again { .. } => "second_round",
            Stage::Over => "over",
        }
    }

    /// The calls the player to act may make now (empty when over).
    pub fn legal_calls(&self) -> Vec<Call> {
        match &self.stage {
            Stage::Side { order, idx, .. } => {
                let p = order[*idx];
                if order.len() == 1 {
                    vec![Call::PingDa, Call::Chuai, Call::Jiao]
                } else {
                    Call::ALL.into_iter().filter(|&c| c != Call::BaoChuai || !self.bao_used[p]).collect()
                }
            }
            Stage::Bao { order, idx, .. } => {
                let p = order[*idx];
                [Call::BaoChuai, Call::Jiao].into_iter().filter(|&c| c != Call::BaoChuai || !self.bao_used[p]).collect()
            }
            Stage::Again { .. } => vec![Call::PingDa, Call::Chuai],
            Stage::Over => Vec::new(),
        }
    }

    /// Seats that play the cards (when the outcome is [`Outcome::Play`]).
    pub fn playing(&self) -> Vec<usize> {
        (0..4).filter(|&s| !self.jiao[s] && !self.bei_bao_da[s]).collect()
    }

    /// The next state after `seat` makes `call`, or an error saying why it may not.
    pub fn apply(&self, seat: usize, call: Call) -> Result<Calling> {
        seat_ok(seat, "seat")?;
        let Some(turn) = self.turn() else {
            bail!(reason = GameOver, field = "action", "the calling is over; no more calls");
        };
        if seat != turn {
            bail!(reason = NotYourTurn, field = "seat", "out of turn: it is seat {turn}'s turn to call, not seat {seat}'s");
        }
        let legal = self.legal_calls();
        if call == Call::BaoChuai && self.bao_used[seat] {
            bail!(
                reason = IllegalAction,
                field = "action",
                "seat {seat} has already chosen 包踹 this game (每局每位玩家只有一次包踹的選擇)"
            );
        }
        if !legal.contains(&call) {
            let names: Vec<&str> = legal.iter().map(|c| c.name()).collect();
            bail!(
                reason = IllegalAction,
                field = "action",
                "{} ({}) is not allowed now; seat {seat} may choose {}",
                call.name(),
                call.name_zh(),
                names.join(", ")
            );
        }
        let mut next = self.clone();
        next.history.push((seat, call));
        if call == Call::BaoChuai {
            next.bao_used[seat] = true;
        }
        match self.stage.clone() {
            Stage::Side { side, round, order, idx, mut choices } => {
                if call == Call::BaoChuai {
                    // Flow C: the others answer, in calling order after the 包踹 player.
                    let at = order.iter().position(|&s| s == seat).unwrap_or(0);
                    let rest: Vec<usize> = (1..order.len()).map(|k| order[(at + k) % order.len()]).collect();
                    next.stage = Stage::Bao { side, order: rest, idx: 0, sole: seat };
                    return Ok(next);
                }
                choices.push(call);
                let n = order.len();
                if round == 1 {
                    if choices.len() >= 2 && call != choices[0] {
                        // Flow D: a different answer sends the question back to the first player.
                        next.stage = Stage::Side { side, round: 2, order, idx: 0, choices: Vec::new() };
                    } else if idx + 1 == n {
                        next.finish_side(side, call)?;
                    } else {
                        next.stage = Stage::Side { side, round, order, idx: idx + 1, choices };
                    }
                } else if idx + 1 == n {
                    // The last answer counts; a final 繳 defers to the latest earlier non-繳.
                    match choices.iter().rposition(|&c| c != Call::Jiao) {
                        Some(k) => {
                            for (i, &c) in choices.iter().enumerate() {
                                if c == Call::Jiao {
                                    next.jiao[order[i]] = true;
                                }
                            }
                            next.finish_side(side, choices[k])?;
                        }
                        None => next.finish_side(side, Call::Jiao)?,
                    }
                } else {
                    next.stage = Stage::Side { side, round, order, idx: idx + 1, choices };
                }
            }
            Stage::Bao { side, order, idx, sole } => {
                let mut sole = sole;
                if call == Call::BaoChuai {
                    next.bei_bao_da[sole] = true;
                    sole = seat;
                } else {
                    next.jiao[seat] = true;
                }
                if idx + 1 == order.len() {
                    next.sole[side] = Some(sole);
                    next.finish_side(side, Call::BaoChuai)?;
                } else {
                    next.stage = Stage::Bao { side, order, idx: idx + 1, sole };
                }
            }
            Stage::Again { side, order, idx, second, .. } => {
                if idx + 1 == order.len() {
                    next.record_final(side, call)?;
                    if second {
                        next.end(Outcome::Play);
                    } else {
                        let other = 1 - side;
                        next.stage = Stage::Again { side: other, order: next.active(other), idx: 0, last: None, second: true };
                    }
                } else {
                    next.stage = Stage::Again { side, order, idx: idx + 1, last: Some(call), second };
                }
            }
            Stage::Over => unreachable!("checked above"),
        }
        Ok(next)
    }

    fn record_final(&mut self, side: usize, call: Call) -> Result<()> {
        if call.is_kick() {
            self.multiplier = crate::money::mul(self.multiplier, 2, "multiplier")?;
        }
        self.finals.push((side, call));
        Ok(())
    }

    fn end(&mut self, outcome: Outcome) {
        self.stage = Stage::Over;
        self.outcome = Some(outcome);
    }

    /// A side's decision in the first calling round; moves to what follows.
    fn finish_side(&mut self, side: usize, call: Call) -> Result<()> {
        self.record_final(side, call)?;
        if call == Call::Jiao {
            for s in self.active(side) {
                self.jiao[s] = true;
            }
            self.end(Outcome::Surrender { side });
            return Ok(());
        }
        if call == Call::PingDa {
            self.end(Outcome::Play);
            return Ok(());
        }
        if self.finals.len() == 1 {
            // Flow 1 B: a kick hands the call to the other side.
            self.stage = self.side_call(1 - side);
        } else {
            // Note 3: both sides kicked → the second round, first side first.
            let first = self.first_side;
            self.stage = Stage::Again { side: first, order: self.active(first), idx: 0, last: None, second: false };
        }
        Ok(())
    }

    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }

    /// The surrendered and 被包打 seats, for [`super::settle`].
    pub fn surrendered(&self) -> Vec<usize> {
        (0..4).filter(|&s| self.jiao[s]).collect()
    }
    pub fn bei_bao_da_seats(&self) -> Vec<usize> {
        (0..4).filter(|&s| self.bei_bao_da[s]).collect()
    }
}

/// A multiplier is a power of two (every step of the game doubles it).
pub fn check_multiplier(m: i64) -> Result<()> {
    if m < 1 || m.count_ones() != 1 {
        bail!(reason = OutOfRange, field = "multiplier", "must be a power of two ≥ 1 (every 打儲 multiplier step doubles), got {m}");
    }
    Ok(())
}
