//! Play types, their order and beating (RULES 3.2–3.4), and the legal plays of a hand.

use super::rules::Rules;
use crate::bail;
use crate::cards::{check_distinct, check_distinct_across, rank, suit, Card};
use crate::error::{Error, Reason, Result};

/// The colour whose two aces are the 儲 this deal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Chu {
    /// A♥ A♦.
    Red,
    /// A♠ A♣.
    Black,
}

impl Chu {
    pub fn parse(text: &str) -> Result<Chu> {
        match text {
            "red" => Ok(Chu::Red),
            "black" => Ok(Chu::Black),
            _ => Err(Error::field("chu", format!("{text:?} is not a 儲 colour (expected \"red\" or \"black\")"))),
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Chu::Red => "red",
            Chu::Black => "black",
        }
    }
    /// The colour of a card (平宣 turns the last card up and reads its colour).
    pub fn of(card: Card) -> Chu {
        if card.is_red() {
            Chu::Red
        } else {
            Chu::Black
        }
    }
    /// Whether `card` is one of this colour's aces, i.e. a 儲A.
    #[inline]
    pub fn is_chu(self, card: Card) -> bool {
        card.rank() == rank::ACE && Chu::of(card) == self
    }
    /// Both 儲 aces.
    pub fn aces(self) -> [Card; 2] {
        match self {
            Chu::Red => [Card::new(rank::ACE, suit::HEARTS), Card::new(rank::ACE, suit::DIAMONDS)],
            Chu::Black => [Card::new(rank::ACE, suit::SPADES), Card::new(rank::ACE, suit::CLUBS)],
        }
    }
}

/// 3♥: its holder leads first (RULES 3.4).
pub(crate) const THREE_OF_HEARTS: Card = Card::new(rank::THREE, suit::HEARTS);

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 单张
    Single,
    /// 对子
    Pair,
    /// 顺子
    Straight,
    /// 三同張炸彈
    TripleBomb,
    /// 四同張炸彈
    QuadBomb,
    /// 獨儲, the two 儲 aces
    DuChu,
}

impl Kind {
    pub const ALL: [Kind; 6] = [Kind::Single, Kind::Pair, Kind::Straight, Kind::TripleBomb, Kind::QuadBomb, Kind::DuChu];
    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Straight => "straight",
            Kind::TripleBomb => "triple_bomb",
            Kind::QuadBomb => "quad_bomb",
            Kind::DuChu => "du_chu",
        }
    }
    pub fn name_zh(self) -> &'static str {
        match self {
            Kind::Single => "單張",
            Kind::Pair => "對子",
            Kind::Straight => "順子",
            Kind::TripleBomb => "三同張炸彈",
            Kind::QuadBomb => "四同張炸彈",
            Kind::DuChu => "獨儲",
        }
    }
    /// 0: ordinary plays, 1: triple bomb, 2: quad bomb, 3: 獨儲 (what may beat what).
    fn tier(self) -> u8 {
        match self {
            Kind::Single | Kind::Pair | Kind::Straight => 0,
            Kind::TripleBomb => 1,
            Kind::QuadBomb => 2,
            Kind::DuChu => 3,
        }
    }
}

/// A classified play: no cards, only what beating looks at.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    pub kind: Kind,
    /// Number of cards.
    pub len: u8,
    /// Higher is stronger within a kind (and length for straights):
    /// singles 1 (`3`) … 11 (`K`), 12 plain A, 13 `2`, 14 儲A; pairs and bombs 1 (`3`) …
    /// 12 (`A`), 13 (`2`); straights the top card's place in A(1) 2 3 … K(13) A(14).
    pub strength: u8,
}

/// Rank value for singles (without the 儲 bonus), pairs and bombs: 3 → 1 … K → 11, A → 12, 2 → 13.
#[inline]
pub(crate) fn rank_value(r: u8) -> u8 {
    match r {
        rank::TWO => 13,
        rank::ACE => 12,
        r => r,
    }
}

/// Place of a rank in a straight read A-low (A=1, 2=2, …, K=13) or A-high (A=14).
#[inline]
fn straight_pos(r: u8, ace_high: bool) -> u8 {
    match r {
        rank::ACE if ace_high => 14,
        rank::ACE => 1,
        r => r + 2,
    }
}

/// Top of the highest valid straight reading of a rank mask, if any.
fn straight_top(mask: u16, n: u32) -> Option<u8> {
    let mut best = None;
    for ace_high in [false, true] {
        let mut pos_mask = 0u32;
        for r in 0..13u8 {
            if mask & (1 << r) != 0 {
                pos_mask |= 1 << straight_pos(r, ace_high);
            }
        }
        let lo = pos_mask.trailing_zeros();
        let hi = 31 - pos_mask.leading_zeros();
        if hi - lo + 1 == n {
            best = best.max(Some(hi as u8));
        }
    }
    best
}

fn describe(cards: &[Card]) -> String {
    crate::cards::format_cards(cards)
}

/// Classify a set of cards as a play (RULES 3.2). Anything else is an error saying why.
pub fn classify(cards: &[Card], chu: Chu, rules: &Rules) -> Result<Play> {
    check_distinct(cards)?;
    let n = cards.len();
    if n == 0 {
        bail!(reason = NotAPlay, "an empty set of cards is not a play");
    }
    let mut counts = [0u8; 13];
    let mut mask = 0u16;
    for c in cards {
        counts[c.rank() as usize] += 1;
        mask |= 1 << c.rank();
    }
    let distinct = mask.count_ones() as usize;
    let r0 = cards[0].rank();
    if distinct == 1 {
        let v = rank_value(r0);
        return match n {
            1 => Ok(Play { kind: Kind::Single, len: 1, strength: if chu.is_chu(cards[0]) { 14 } else { v } }),
            2 => {
                let chus = cards.iter().filter(|c| chu.is_chu(**c)).count();
                if chus == 2 {
                    Ok(Play { kind: Kind::DuChu, len: 2, strength: 1 })
                } else if chus == 1 && !rules.mixed_ace_pair {
                    bail!(
                        reason = NotAPlay,
                        "{} is one 儲A and one plain A, which is not a pair under rules.mixed_ace_pair = false",
                        describe(cards)
                    )
                } else {
                    Ok(Play { kind: Kind::Pair, len: 2, strength: v })
                }
            }
            3 => Ok(Play { kind: Kind::TripleBomb, len: 3, strength: v }),
            _ => Ok(Play { kind: Kind::QuadBomb, len: 4, strength: v }),
        };
    }
    if distinct == n && n >= 3 {
        if let Some(top) = straight_top(mask, n as u32) {
            return Ok(Play { kind: Kind::Straight, len: n as u8, strength: top });
        }
        bail!(
            reason = NotAPlay,
            "{} is not a play: its ranks are not consecutive (straights run A 2 3 … K A, A23 lowest, QKA highest, no KA2)",
            describe(cards)
        );
    }
    if n == 2 {
        bail!(reason = NotAPlay, "{} is not a play: a pair needs two cards of one rank", describe(cards));
    }
    bail!(reason = NotAPlay, "{} is not a play: not a single, pair, straight, triple or quad bomb, or 獨儲", describe(cards))
}

/// Whether `play` beats `table` (RULES 3.3), on classified plays.
pub fn beats_play(play: &Play, table: &Play) -> bool {
    use Kind::*;
    match (play.kind, table.kind) {
        (DuChu, _) => table.kind != DuChu,
        (_, DuChu) => false,
        (a, b) if a == b => play.len == table.len && play.strength > table.strength,
        (a, b) => a.tier() > 0 && a.tier() > b.tier(),
    }
}

/// Whether the cards `play` beat the cards `table`; the two sets must be disjoint.
pub fn beats(play: &[Card], table: &[Card], chu: Chu, rules: &Rules) -> Result<bool> {
    let p = classify(play, chu, rules).map_err(|e| e.within("play"))?;
    let t = classify(table, chu, rules).map_err(|e| e.within("table"))?;
    check_distinct_across(&[("play".into(), play), ("table".into(), table)])?;
    Ok(beats_play(&p, &t))
}

/// Situation-dependent limits on what a hand may play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Constraints {
    /// This is the deal's first play (the player holds 3♥, RULES 3.4).
    pub first_lead: bool,
    /// The player has surrendered (繳): the 3♥ is played out for them as a single.
    pub surrendered: bool,
    /// The triple this player showed by 夢踹: it may not be split (all of it or none).
    pub shown_triple: Vec<Card>,
}

/// One legal play: its cards (weakest-first display order) and classification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalPlay {
    pub cards: Vec<Card>,
    pub play: Play,
}

/// Order of cards inside a play for display: by the game's order, weakest first.
fn display_key(c: Card, chu: Chu, play: &Play) -> (u8, u8) {
    if play.kind == Kind::Straight {
        // A is high only in a straight topped by A.
        let ace_high = play.strength == 14;
        (straight_pos(c.rank(), ace_high), c.suit())
    } else {
        (if chu.is_chu(c) { 14 } else { rank_value(c.rank()) }, c.suit())
    }
}

fn check_hand(hand: &[Card]) -> Result<()> {
    check_distinct(hand).map_err(|e| e.within("hand"))?;
    if hand.len() > 13 {
        bail!(reason = WrongCount, field = "hand", "has {} cards; a 打儲 hand has at most 13", hand.len());
    }
    Ok(())
}

/// Every play the hand may make now, weakest first: ordinary plays (singles, then pairs,
/// then straights by length), then triple bombs, quad bombs, 獨儲; within one kind by
/// strength, then by card ids. `table` is the play to beat, or `None` when leading.
pub fn legal_plays(hand: &[Card], table: Option<&[Card]>, chu: Chu, cons: &Constraints, rules: &Rules) -> Result<Vec<LegalPlay>> {
    check_hand(hand)?;
    let table_play = match table {
        Some(t) => {
            let p = classify(t, chu, rules).map_err(|e| e.within("table"))?;
            check_distinct_across(&[("hand".into(), hand), ("table".into(), t)])?;
            Some(p)
        }
        None => None,
    };
    let has_3h = hand.contains(&THREE_OF_HEARTS);
    if cons.first_lead || cons.surrendered {
        if table.is_some() {
            bail!(reason = Inconsistent, field = "table", "the first play of the deal is a lead: there is no table to beat");
        }
        if !has_3h {
            bail!(reason = Inconsistent, field = "hand", "the first lead belongs to the holder of 3h, and this hand has no 3h");
        }
    }
    if cons.surrendered {
        if !cons.first_lead {
            bail!(reason = Inconsistent, field = "surrendered", "a surrendered (繳) player plays nothing except the 3h of the first lead");
        }
        return Ok(vec![LegalPlay { cards: vec![THREE_OF_HEARTS], play: classify(&[THREE_OF_HEARTS], chu, rules)? }]);
    }
    let shown = shown_in_hand(hand, &cons.shown_triple)?;
    let threes = hand.iter().filter(|c| c.rank() == rank::THREE).count();
    let need_3h = cons.first_lead && threes < 3;

    let mut out = Vec::new();
    for cards in candidate_sets(hand) {
        let Ok(play) = classify(&cards, chu, rules) else { continue };
        if let Some(t) = &table_play {
            if !beats_play(&play, t) {
                continue;
            }
        }
        if need_3h && !cards.contains(&THREE_OF_HEARTS) {
            continue;
        }
        if shown != 0 {
            let m = cards.iter().fold(0u64, |m, c| m | c.bit()) & shown;
            if m != 0 && m != shown {
                continue;
            }
        }
        let mut cards = cards;
        cards.sort_by_key(|c| display_key(*c, chu, &play));
        out.push(LegalPlay { cards, play });
    }
    out.sort_by(|a, b| {
        let key = |p: &LegalPlay| (p.play.kind.tier(), p.play.kind, p.play.len, p.play.strength);
        key(a).cmp(&key(b)).then_with(|| {
            let mut x: Vec<u8> = a.cards.iter().map(|c| c.0).collect();
            let mut y: Vec<u8> = b.cards.iter().map(|c| c.0).collect();
            x.sort_unstable();
            y.sort_unstable();
            x.cmp(&y)
        })
    });
    Ok(out)
}

/// Mask of the shown 夢踹 triple still in hand: all three or none (it cannot be split).
fn shown_in_hand(hand: &[Card], shown: &[Card]) -> Result<u64> {
    if shown.is_empty() {
        return Ok(0);
    }
    check_distinct(shown).map_err(|e| e.within("shown_triple"))?;
    if shown.len() != 3 || shown.iter().any(|c| c.rank() != shown[0].rank()) {
        let reason = if shown.len() != 3 { Reason::WrongCount } else { Reason::NotAPlay };
        return Err(Error::field("shown_triple", format!("must be the three cards of one rank shown by 夢踹 (got {})", describe(shown)))
            .because(reason));
    }
    let held = shown.iter().filter(|c| hand.contains(c)).count();
    match held {
        0 => Ok(0),
        3 => Ok(shown.iter().fold(0, |m, c| m | c.bit())),
        _ => bail!(
            reason = Inconsistent,
            field = "shown_triple",
            "the hand holds only {held} of the shown triple {}; a 夢踹 triple is never split",
            describe(shown)
        ),
    }
}

/// Every subset of the hand that could be a play: same-rank groups and straight windows.
fn candidate_sets(hand: &[Card]) -> Vec<Vec<Card>> {
    let mut by_rank: [Vec<Card>; 13] = Default::default();
    for &c in hand {
        by_rank[c.rank() as usize].push(c);
    }
    let mut out: Vec<Vec<Card>> = Vec::new();
    for g in by_rank.iter() {
        let n = g.len();
        for sub in 1u32..(1 << n) {
            out.push((0..n).filter(|i| sub & (1 << i) != 0).map(|i| g[i]).collect());
        }
    }
    // Straight windows over places 1..=14 (A low = 1, A high = 14); each rank set once.
    let rank_at = |pos: u8| -> u8 {
        match pos {
            1 | 14 => rank::ACE,
            p => p - 2,
        }
    };
    for lo in 1u8..=12 {
        for hi in (lo + 2)..=14 {
            if lo == 1 && hi == 14 {
                continue; // A would appear twice
            }
            if hi - lo + 1 == 13 && lo == 2 {
                continue; // the 13-rank set already came as 1..=13
            }
            let ranks: Vec<u8> = (lo..=hi).map(rank_at).collect();
            if ranks.iter().any(|&r| by_rank[r as usize].is_empty()) {
                continue;
            }
            // Cartesian product of the card choices per rank.
            let mut acc: Vec<Vec<Card>> = vec![Vec::new()];
            for &r in &ranks {
                let mut next = Vec::with_capacity(acc.len() * by_rank[r as usize].len());
                for a in &acc {
                    for &c in &by_rank[r as usize] {
                        let mut v = a.clone();
                        v.push(c);
                        next.push(v);
                    }
                }
                acc = next;
            }
            out.extend(acc);
        }
    }
    out
}

/// A hand shown as one row of cards, read as the client's columns: each run of
/// neighbouring cards of one rank is one column (a client stacks a rank's cards).
pub fn columns_of(hand: &[Card]) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = Vec::new();
    for &c in hand {
        match out.last_mut() {
            Some(col) if col[0].rank() == c.rank() => col.push(c),
            _ => out.push(vec![c]),
        }
    }
    out
}

/// The play made for a player who runs out of time (RULES 3.7; the seed: "默认打出最右列
/// 第一张，如右列为夢踹用的三同张炸弹则越过"), from the hand **as the client shows it**:
/// `columns` left to right, each column's cards top first (the order given, not a sorted
/// hand). The card is the first card of the rightmost column that holds no card of the
/// shown 夢踹 triple (so the triple, and the quad it grew into, are skipped).
/// * Leading, that card is played as a single; on the deal's first lead the 3♥ instead
///   (RULES 3.4) when it may go alone. A hand with nothing but the shown triple (or its
///   quad) leads that column whole.
/// * Following, the card is played when it is a legal play that beats the table,
///   otherwise the timeout is a pass (`None`).
/// * `cons.surrendered`: as [`legal_plays`] (the 繳 holder's 3♥ on the first lead only).
pub fn timeout_play(
    columns: &[Vec<Card>],
    table: Option<&[Card]>,
    chu: Chu,
    cons: &Constraints,
    rules: &Rules,
) -> Result<Option<Vec<Card>>> {
    if let Some(i) = columns.iter().position(|c| c.is_empty()) {
        bail!(reason = WrongCount, field = format!("hand[{i}]"), "a column holds at least one card");
    }
    let hand: Vec<Card> = columns.iter().flatten().copied().collect();
    // Validates the hand, the table and the constraints, and says what may be played.
    let plays = legal_plays(&hand, table, chu, cons, rules)?;
    let legal = |cards: &[Card]| {
        let mut want: Vec<Card> = cards.to_vec();
        want.sort();
        plays.iter().any(|p| {
            let mut got = p.cards.clone();
            got.sort();
            got == want
        })
    };
    if cons.first_lead && legal(&[THREE_OF_HEARTS]) {
        return Ok(Some(vec![THREE_OF_HEARTS]));
    }
    let shown = &cons.shown_triple;
    let free = columns.iter().rev().find(|col| !col.iter().any(|c| shown.contains(c)));
    match free {
        Some(col) if legal(&col[..1]) => Ok(Some(vec![col[0]])),
        Some(_) => Ok(None),
        None if table.is_none() => {
            // Only the shown triple (or its quad) is left: lead its column whole (or, if
            // the client split it over columns, the triple). An empty hand plays nothing.
            let Some(col) = columns.iter().rev().find(|col| col.iter().any(|c| shown.contains(c))) else {
                return Ok(None);
            };
            let same = |p: &&LegalPlay, want: &[Card]| {
                let mut a = p.cards.clone();
                let mut b = want.to_vec();
                a.sort();
                b.sort();
                a == b
            };
            let whole = plays.iter().find(|p| same(p, col)).or_else(|| plays.iter().find(|p| same(p, shown)));
            Ok(whole.or(plays.first()).map(|p| p.cards.clone()))
        }
        None => Ok(None),
    }
}
