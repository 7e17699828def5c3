//! The deal and its declarations (RULES 3.5) as a state machine: 夢宣 while the players
//! hold 1–5 cards, 夢踹 while they hold 5–8, then the rest (9–13) in one go, 撐儲, and
//! 平宣 when nobody fixed the 儲. Each player makes each declaration at most once (the
//! rule `declare_once_per`); 夢宣 and 撐儲 fix the colour, so each happens once per game.

use super::calling::Calling;
use super::play::{Chu, THREE_OF_HEARTS};
use super::rules::{DeclareOncePer, Rules};
use crate::bail;
use crate::cards::{check_distinct, check_distinct_across, format_cards, rank, Card};
use crate::error::{Error, Reason, Result};

pub(crate) const SEATS: usize = 4;

// Declaration kinds, as named in errors' fields and the Python actions.
const MENG_XUAN: &str = "meng_xuan";
const MENG_CHUAI: &str = "meng_chuai";
const CHENG_CHU: &str = "cheng_chu";

/// One step of the deal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DealAction {
    /// Deal the next card to every player (after the 8th, the 9th–13th at once).
    Deal,
    /// 夢宣: reveal an ace held among the first 1–5 cards; its colour is the 儲. ×2.
    MengXuan { seat: usize, card: Card },
    /// 夢踹: show a triple (not aces) held among the first 5–8 cards. ×2.
    MengChuai { seat: usize, cards: [Card; 3] },
    /// 撐儲: after the deal, a player holding both aces of one colour declares them. ×2.
    ChengChu { seat: usize, chu: Chu },
    /// End the declarations: 平宣 from the last card dealt if the 儲 is not yet fixed.
    Finish,
}

impl DealAction {
    pub fn name(&self) -> &'static str {
        match self {
            DealAction::Deal => "deal",
            DealAction::MengXuan { .. } => MENG_XUAN,
            DealAction::MengChuai { .. } => MENG_CHUAI,
            DealAction::ChengChu { .. } => CHENG_CHU,
            DealAction::Finish => "finish",
        }
    }
    /// A 夢宣 of the cards a record gives: exactly one card (WRONG_COUNT at `cards`).
    pub fn meng_xuan_of(seat: usize, cards: &[Card]) -> Result<DealAction> {
        match cards {
            [card] => Ok(DealAction::MengXuan { seat, card: *card }),
            _ => bail!(reason = WrongCount, field = "cards", "夢宣 reveals one ace, got {} cards", cards.len()),
        }
    }
    /// A 夢踹 of the cards a record gives: exactly three cards (WRONG_COUNT at `cards`).
    pub fn meng_chuai_of(seat: usize, cards: &[Card]) -> Result<DealAction> {
        match cards {
            &[a, b, c] => Ok(DealAction::MengChuai { seat, cards: [a, b, c] }),
            _ => bail!(reason = WrongCount, field = "cards", "夢踹 shows three cards, got {}", cards.len()),
        }
    }
    pub fn seat(&self) -> Option<usize> {
        match self {
            DealAction::MengXuan { seat, .. } | DealAction::MengChuai { seat, .. } | DealAction::ChengChu { seat, .. } => Some(*seat),
            _ => None,
        }
    }
}

/// How the 儲 colour was fixed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChuSource {
    MengXuan,
    ChengChu,
    PingXuan,
}

impl ChuSource {
    pub fn as_str(self) -> &'static str {
        match self {
            ChuSource::MengXuan => "meng_xuan",
            ChuSource::ChengChu => "cheng_chu",
            ChuSource::PingXuan => "ping_xuan",
        }
    }
}

/// The deal's state. Immutable in use: [`Deal::apply`] returns the next state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// Each seat's 13 cards in the order they are dealt.
    hands: Vec<Vec<Card>>,
    /// The seat dealt to first; the others follow counter-clockwise (seat order).
    pub first_seat: usize,
    /// Cards each player holds so far: 0, 1, …, 8, then 13.
    pub dealt: u8,
    pub chu: Option<Chu>,
    pub chu_source: Option<ChuSource>,
    pub multiplier: i64,
    pub finished: bool,
    pub meng_xuan: [Option<Card>; SEATS],
    pub meng_chuai: [Option<[Card; 3]>; SEATS],
    pub cheng_chu: [bool; SEATS],
    pub history: Vec<DealAction>,
    rules: Rules,
}

fn seat_ok(seat: usize) -> Result<()> {
    if seat >= SEATS {
        bail!(reason = OutOfRange, field = "seat", "unknown seat {seat} (打儲 seats are 0..3)");
    }
    Ok(())
}

impl Deal {
    /// A new deal: `hands[seat]` are that seat's 13 cards in dealing order.
    pub fn new(hands: Vec<Vec<Card>>, first_seat: usize, rules: Rules) -> Result<Deal> {
        rules.validate().map_err(|e| e.within("rules"))?;
        if hands.len() != SEATS {
            bail!(reason = WrongCount, field = "hands", "打儲 has 4 players, got {} hands", hands.len());
        }
        for (i, h) in hands.iter().enumerate() {
            if h.len() != crate::cards::HAND_SIZE {
                bail!(reason = WrongCount, field = format!("hands[{i}]"), "must have {} cards, got {}", crate::cards::HAND_SIZE, h.len());
            }
        }
        let groups: Vec<(String, &[Card])> = hands.iter().enumerate().map(|(i, h)| (format!("hands[{i}]"), h.as_slice())).collect();
        check_distinct_across(&groups)?;
        seat_ok(first_seat).map_err(|e| e.within("first_seat"))?;
        Ok(Deal {
            hands,
            first_seat,
            dealt: 0,
            chu: None,
            chu_source: None,
            multiplier: 1,
            finished: false,
            meng_xuan: [None; SEATS],
            meng_chuai: [None; SEATS],
            cheng_chu: [false; SEATS],
            history: Vec::new(),
            rules,
        })
    }

    pub fn hands(&self) -> &[Vec<Card>] {
        &self.hands
    }

    /// The cards `seat` holds so far.
    pub fn held(&self, seat: usize) -> &[Card] {
        &self.hands[seat][..self.dealt as usize]
    }

    /// The last card dealt, once it has been dealt (平宣 turns it up); `None` before, so
    /// no state shows a card before it is public.
    pub fn dealt_last_card(&self) -> Option<Card> {
        (usize::from(self.dealt) == 13).then(|| self.last_card())
    }

    /// The last card to be dealt (turned up by 平宣): the 13th card of the seat dealt to
    /// last. Known to the deal from the start; states show [`dealt_last_card`](Self::dealt_last_card).
    pub fn last_card(&self) -> Card {
        self.hands[(self.first_seat + SEATS - 1) % SEATS][12]
    }

    /// Whether a 夢宣 or a 撐儲 happened (then the 儲方 calls first).
    pub fn declared(&self) -> bool {
        self.meng_xuan.iter().any(|x| x.is_some()) || self.cheng_chu.iter().any(|&x| x)
    }

    /// Seats holding a 儲A (known once finished), in seat order.
    pub fn chu_side(&self) -> Option<Vec<usize>> {
        let chu = self.chu.filter(|_| self.finished)?;
        Some((0..SEATS).filter(|&s| self.hands[s].iter().any(|c| chu.is_chu(*c))).collect())
    }

    /// The seat holding 3♥ (it leads first).
    pub fn first_leader(&self) -> usize {
        (0..SEATS).find(|&s| self.hands[s].contains(&THREE_OF_HEARTS)).unwrap_or(0)
    }

    /// Every action that may be taken now.
    pub fn legal_actions(&self) -> Vec<DealAction> {
        let mut out = Vec::new();
        if self.finished {
            return out;
        }
        if self.dealt < 13 {
            out.push(DealAction::Deal);
        } else {
            out.push(DealAction::Finish);
        }
        for seat in 0..SEATS {
            let held = self.held(seat);
            if (1..=5).contains(&self.dealt) && self.chu.is_none() && self.once_ok(seat, MENG_XUAN).is_ok() {
                for &c in held.iter().filter(|c| c.rank() == rank::ACE) {
                    out.push(DealAction::MengXuan { seat, card: c });
                }
            }
            if (5..=8).contains(&self.dealt) && self.once_ok(seat, MENG_CHUAI).is_ok() {
                for r in 0..13u8 {
                    if r == rank::ACE {
                        continue;
                    }
                    let g: Vec<Card> = held.iter().copied().filter(|c| c.rank() == r).collect();
                    // With four of a rank, any three may be shown.
                    for leave in 0..g.len() {
                        if g.len() < 3 || (g.len() == 3 && leave > 0) {
                            break;
                        }
                        let t: Vec<Card> = g.iter().enumerate().filter(|(i, _)| g.len() == 3 || *i != leave).map(|(_, c)| *c).collect();
                        out.push(DealAction::MengChuai { seat, cards: [t[0], t[1], t[2]] });
                    }
                }
            }
            if self.dealt == 13 && self.once_ok(seat, CHENG_CHU).is_ok() && !self.cheng_chu.iter().any(|&x| x) {
                for chu in [Chu::Red, Chu::Black] {
                    if self.cheng_chu_allowed(seat, chu).is_ok() {
                        out.push(DealAction::ChengChu { seat, chu });
                    }
                }
            }
        }
        out
    }

    fn made(&self, seat: usize, kind: &str) -> bool {
        match kind {
            MENG_XUAN => self.meng_xuan[seat].is_some(),
            MENG_CHUAI => self.meng_chuai[seat].is_some(),
            _ => self.cheng_chu[seat],
        }
    }

    /// Whether `seat` may still make a declaration of `kind` under `declare_once_per`.
    fn once_ok(&self, seat: usize, kind: &'static str) -> Result<()> {
        let zh = |k: &str| match k {
            MENG_XUAN => "夢宣",
            MENG_CHUAI => "夢踹",
            _ => "撐儲",
        };
        match self.rules.declare_once_per {
            DeclareOncePer::PlayerAndKind => {
                if self.made(seat, kind) {
                    bail!(reason = IllegalAction, field = "action", "seat {seat} has already made {} (once per player per game)", zh(kind));
                }
            }
            DeclareOncePer::Player => {
                if let Some(k) = [MENG_XUAN, MENG_CHUAI, CHENG_CHU].into_iter().find(|k| self.made(seat, k)) {
                    bail!(
                        reason = IllegalAction,
                        field = "action",
                        "seat {seat} has already made {}: one declaration per player per game (rule declare_once_per = player)",
                        zh(k)
                    );
                }
            }
            DeclareOncePer::Game => {
                if let Some(other) = (0..SEATS).find(|&s| self.made(s, kind)) {
                    bail!(
                        reason = IllegalAction,
                        field = "action",
                        "seat {other} has already made {}: once per game (rule declare_once_per = game)",
                        zh(kind)
                    );
                }
            }
        }
        Ok(())
    }

    fn cheng_chu_allowed(&self, seat: usize, chu: Chu) -> Result<()> {
        let [a, b] = chu.aces();
        let held = self.held(seat);
        if !(held.contains(&a) && held.contains(&b)) {
            bail!(
                reason = IllegalAction,
                field = "action",
                "seat {seat} does not hold both {} aces ({a} {b}), which 撐儲 needs",
                chu.as_str()
            );
        }
        if let (Some(fixed), true) = (self.chu, self.rules.cheng_chu_alone) {
            if fixed != chu {
                bail!(
                    reason = IllegalAction,
                    field = "action",
                    "the 儲 is already {} (by 夢宣); 撐儲 of {} aces cannot change it",
                    fixed.as_str(),
                    chu.as_str()
                );
            }
        }
        Ok(())
    }

    /// The next state, or an error saying why the action is not allowed now.
    pub fn apply(&self, action: &DealAction) -> Result<Deal> {
        if let Some(seat) = action.seat() {
            seat_ok(seat)?;
        }
        if self.finished {
            bail!(reason = GameOver, field = "action", "the deal is finished; no more declarations");
        }
        let mut next = self.clone();
        match action {
            DealAction::Deal => {
                if self.dealt >= 13 {
                    bail!(reason = IllegalAction, field = "action", "all 13 cards are dealt; 撐儲 or finish");
                }
                next.dealt = if self.dealt == 8 { 13 } else { self.dealt + 1 };
            }
            DealAction::Finish => {
                if self.dealt < 13 {
                    bail!(reason = IllegalAction, field = "action", "cannot finish: only {} of 13 cards are dealt", self.dealt);
                }
                if next.chu.is_none() {
                    // 平宣: the multiplier stays.
                    next.chu = Some(Chu::of(self.last_card()));
                    next.chu_source = Some(ChuSource::PingXuan);
                }
                next.finished = true;
            }
            DealAction::MengXuan { seat, card } => {
                let seat = *seat;
                self.once_ok(seat, MENG_XUAN)?;
                if !(1..=5).contains(&self.dealt) {
                    bail!(
                        reason = IllegalAction,
                        field = "action",
                        "夢宣 is only possible while the players hold 1–5 cards (they hold {})",
                        self.dealt
                    );
                }
                if card.rank() != rank::ACE {
                    bail!(reason = IllegalAction, field = "cards", "夢宣 reveals an ace, not {card}");
                }
                if !self.held(seat).contains(card) {
                    bail!(reason = CardNotInHand, field = "cards", "seat {seat} does not hold {card} yet");
                }
                if let Some(chu) = self.chu {
                    bail!(reason = IllegalAction, field = "action", "the 儲 is already {} by an earlier 夢宣", chu.as_str());
                }
                next.meng_xuan[seat] = Some(*card);
                next.chu = Some(Chu::of(*card));
                next.chu_source = Some(ChuSource::MengXuan);
                next.multiplier = crate::money::mul(self.multiplier, 2, "multiplier")?;
            }
            DealAction::MengChuai { seat, cards } => {
                let seat = *seat;
                self.once_ok(seat, MENG_CHUAI)?;
                if !(5..=8).contains(&self.dealt) {
                    bail!(
                        reason = IllegalAction,
                        field = "action",
                        "夢踹 is only possible while the players hold 5–8 cards (they hold {})",
                        self.dealt
                    );
                }
                check_distinct(cards).map_err(|e| e.within("cards"))?;
                if cards.iter().any(|c| c.rank() != cards[0].rank()) {
                    bail!(reason = NotAPlay, field = "cards", "{} is not a triple", format_cards(cards));
                }
                if cards[0].rank() == rank::ACE {
                    bail!(reason = IllegalAction, field = "cards", "three aces may not be shown by 夢踹 (三張A不可以夢踹)");
                }
                if let Some(c) = cards.iter().find(|c| !self.held(seat).contains(c)) {
                    bail!(reason = CardNotInHand, field = "cards", "seat {seat} does not hold {c} yet");
                }
                next.meng_chuai[seat] = Some(*cards);
                next.multiplier = crate::money::mul(self.multiplier, 2, "multiplier")?;
            }
            DealAction::ChengChu { seat, chu } => {
                let seat = *seat;
                self.once_ok(seat, CHENG_CHU)?;
                if self.dealt != 13 {
                    bail!(
                        reason = IllegalAction,
                        field = "action",
                        "撐儲 is only possible after all 13 cards are dealt (they hold {})",
                        self.dealt
                    );
                }
                if let Some(other) = self.cheng_chu.iter().position(|&x| x) {
                    bail!(reason = IllegalAction, field = "action", "seat {other} has already made 撐儲");
                }
                self.cheng_chu_allowed(seat, *chu)?;
                next.cheng_chu[seat] = true;
                if self.rules.cheng_chu_alone {
                    next.chu = Some(*chu);
                    next.chu_source = Some(ChuSource::ChengChu);
                }
                next.multiplier = crate::money::mul(self.multiplier, 2, "multiplier")?;
            }
        }
        next.history.push(action.clone());
        Ok(next)
    }
}

impl Deal {
    /// The colour a 撐儲 by `seat` would name when the action leaves it out: the colour
    /// of which the seat holds both aces (an error if none, or if it holds all four).
    pub fn cheng_chu_colour(&self, seat: usize) -> Result<Chu> {
        seat_ok(seat)?;
        let ok: Vec<Chu> = [Chu::Red, Chu::Black].into_iter().filter(|c| c.aces().iter().all(|a| self.hands[seat].contains(a))).collect();
        match ok.as_slice() {
            [c] => Ok(*c),
            [] => bail!(reason = IllegalAction, field = "action", "seat {seat} holds no two aces of one colour, which 撐儲 needs"),
            _ => bail!(reason = IllegalAction, field = "colour", "seat {seat} holds all four aces: name the colour (\"red\" or \"black\")"),
        }
    }

    /// The calling that follows this finished deal (see [`Calling::new`]); `start_seat`
    /// defaults to the seat dealt to first.
    pub fn calling(&self, start_seat: Option<usize>, first_side: Option<usize>) -> Result<Calling> {
        self.require_finished()?;
        let side = self.chu_side().unwrap_or_default();
        Calling::new(&side, self.declared(), self.multiplier, start_seat.unwrap_or(self.first_seat), first_side, &self.rules)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Error for a deal that is not finished yet.
    pub fn require_finished(&self) -> Result<()> {
        if !self.finished {
            return Err(
                Error::field("deal", "the deal is not finished (apply \"finish\" after the 13th card)").because(Reason::IllegalAction)
            );
        }
        Ok(())
    }
}
