//! Card order, play types and beating (RULES §2.1–2.3).
//!
//! The game's order is put on top of the neutral [`Card`]: rank `3 < 4 < … < A < 2`
//! (tienlen rank 0..=12) and suit ♠ < ♣ < ♦ < ♥ (tienlen suit 0..=3). A card's
//! [`strength`] is `rank * 4 + suit`, so every card has its own strength.

use crate::cards::{check_distinct, Card};
use crate::error::{Error, Reason, Result};

/// Tienlen rank of the 2, the highest.
pub(crate) const TWO: u8 = 12;
/// Tienlen rank of the A, the highest rank a straight or pair run may reach.
pub(crate) const ACE: u8 = 11;

/// Neutral suit (s h d c) → tienlen suit (♠ 0 < ♣ 1 < ♦ 2 < ♥ 3). The map is its own
/// inverse, so it also turns a tienlen suit back into the neutral one.
const SUIT_MAP: [u8; 4] = [0, 3, 2, 1];

/// 0 = `3` … 11 = `A`, 12 = `2`.
#[inline]
pub const fn rank(c: Card) -> u8 {
    (c.rank() + 12) % 13
}

/// 0 = ♠ 黑, 1 = ♣ 梅, 2 = ♦ 方, 3 = ♥ 红.
#[inline]
pub const fn suit(c: Card) -> u8 {
    SUIT_MAP[c.suit() as usize]
}

/// The card's place in the game's order, 0 (3♠) ..= 51 (2♥).
#[inline]
pub const fn strength(c: Card) -> u8 {
    rank(c) * 4 + suit(c)
}

/// The card of a strength (inverse of [`strength`]).
#[inline]
pub(crate) const fn card_of(strength: u8) -> Card {
    Card::new((strength / 4 + 1) % 13, SUIT_MAP[(strength % 4) as usize])
}

/// Cards in the game's order, lowest first.
pub fn sorted(cards: &[Card]) -> Vec<Card> {
    let mut v = cards.to_vec();
    v.sort_by_key(|&c| strength(c));
    v
}

/// Text of cards in the game's order (for messages).
pub fn text(cards: &[Card]) -> String {
    crate::cards::format_cards(&sorted(cards))
}

/// 牌型, the play types. The order of the variants is the order [`legal_plays`] lists them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// 单张
    Single,
    /// 对子
    Pair,
    /// 三条
    Triple,
    /// 顺子: 3+ consecutive ranks 3..A, never a 2.
    Straight,
    /// 3连对: three consecutive pairs, no 2s (special).
    ThreePairRun,
    /// 炸弹: four of a kind (special).
    Bomb,
    /// 4连对: four consecutive pairs, no 2s (special).
    FourPairRun,
}

impl Kind {
    pub const ALL: [Kind; 7] = [Kind::Single, Kind::Pair, Kind::Triple, Kind::Straight, Kind::ThreePairRun, Kind::Bomb, Kind::FourPairRun];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::Straight => "straight",
            Kind::ThreePairRun => "three_pair_run",
            Kind::Bomb => "bomb",
            Kind::FourPairRun => "four_pair_run",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            Kind::Single => "单张",
            Kind::Pair => "对子",
            Kind::Triple => "三条",
            Kind::Straight => "顺子",
            Kind::ThreePairRun => "3连对",
            Kind::Bomb => "炸弹",
            Kind::FourPairRun => "4连对",
        }
    }

    /// 特殊牌型: may chop 2s and other specials.
    pub fn is_special(self) -> bool {
        matches!(self, Kind::ThreePairRun | Kind::Bomb | Kind::FourPairRun)
    }

    /// Multiplier of a special (RULES 2.6: 4连对 4, 炸弹 3, 3连对 2); 0 otherwise.
    pub fn multiplier(self) -> i64 {
        match self {
            Kind::ThreePairRun => 2,
            Kind::Bomb => 3,
            Kind::FourPairRun => 4,
            _ => 0,
        }
    }
}

/// What beating needs to know about a play: three bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PlayKey {
    pub kind: Kind,
    pub len: u8,
    /// [`strength`] of the highest card.
    pub top: u8,
}

impl PlayKey {
    /// 单2: a single 2.
    #[inline]
    pub fn is_single_two(self) -> bool {
        self.kind == Kind::Single && self.top / 4 == TWO
    }
    /// 对2: a pair of 2s.
    #[inline]
    pub fn is_pair_of_twos(self) -> bool {
        self.kind == Kind::Pair && self.top / 4 == TWO
    }
}

/// A classified play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub key: PlayKey,
    /// The cards in the game's order, lowest first.
    pub cards: Vec<Card>,
}

impl Play {
    pub fn kind(&self) -> Kind {
        self.key.kind
    }
    pub fn top_card(&self) -> Card {
        card_of(self.key.top)
    }
    pub fn is_special(&self) -> bool {
        self.key.kind.is_special()
    }
    pub fn mask(&self) -> u64 {
        self.cards.iter().fold(0, |m, c| m | c.bit())
    }
}

fn not_a_play(cards: &[Card], why: impl std::fmt::Display) -> Error {
    Error::new(format!("{} is not a play: {why}", text(cards))).because(crate::error::Reason::NotAPlay)
}

/// Classify a set of cards as a play (RULES 2.2), or say why it is not one.
pub fn classify(cards: &[Card]) -> Result<Play> {
    if cards.is_empty() {
        return Err(Error::new("an empty set is not a play").because(crate::error::Reason::NotAPlay));
    }
    check_distinct(cards)?;
    let cards = sorted(cards);
    let n = cards.len();
    let top = strength(cards[n - 1]);
    let mut counts = [0u8; 13];
    for &c in &cards {
        counts[rank(c) as usize] += 1;
    }
    let ranks: Vec<u8> = (0..13u8).filter(|&r| counts[r as usize] > 0).collect();
    let (lo, hi) = (ranks[0], ranks[ranks.len() - 1]);
    let consecutive = (hi - lo) as usize + 1 == ranks.len();
    let has_two = counts[TWO as usize] > 0;
    let kind = if ranks.len() == 1 {
        if n == 4 && lo == TWO {
            return Err(not_a_play(&cards, "four 2s cannot arise in play (13 dealt cards holding them are an instant win, RULES 2.5)"));
        }
        match n {
            1 => Kind::Single,
            2 => Kind::Pair,
            3 => Kind::Triple,
            _ => Kind::Bomb,
        }
    } else if ranks.len() == n {
        // All ranks differ: only a straight.
        if n < 3 {
            return Err(not_a_play(&cards, "two cards of different ranks are not a pair"));
        }
        if has_two {
            return Err(not_a_play(&cards, "a straight may not contain a 2 (2 ranks above A and nothing wraps)"));
        }
        if !consecutive {
            return Err(not_a_play(&cards, "the ranks are not consecutive, so it is not a straight"));
        }
        Kind::Straight
    } else if ranks.iter().all(|&r| counts[r as usize] == 2) {
        let pairs = ranks.len();
        if pairs == 2 {
            return Err(not_a_play(&cards, "two pairs are not a play (consecutive pairs need three or four pairs)"));
        }
        if has_two {
            return Err(not_a_play(&cards, "consecutive pairs may not contain a 2"));
        }
        if !consecutive {
            return Err(not_a_play(&cards, "the pairs are not of consecutive ranks"));
        }
        match pairs {
            3 => Kind::ThreePairRun,
            4 => Kind::FourPairRun,
            _ => {
                return Err(not_a_play(
                    &cards,
                    format!(
                        "{pairs} consecutive pairs cannot arise in play (13 dealt cards holding five or more \
                         consecutive pairs are an instant win, RULES 2.5)"
                    ),
                ))
            }
        }
    } else {
        let why = match n {
            3 => "three cards must be a triple or a straight".to_string(),
            4 => "four cards must be a bomb or a straight".to_string(),
            _ => format!("{n} cards must be a straight (all ranks different and consecutive) or three or four consecutive pairs"),
        };
        return Err(not_a_play(&cards, why));
    };
    Ok(Play { key: PlayKey { kind, len: n as u8, top }, cards })
}

/// Whether play `b` beats the table's play `a` (RULES 2.3): same type and size and higher
/// (bombs by rank only), or a chop by the table of 2.3.
#[inline]
pub fn beats_key(b: PlayKey, a: PlayKey) -> bool {
    if b.kind == a.kind && b.len == a.len {
        return if b.kind == Kind::Bomb { b.top / 4 > a.top / 4 } else { b.top > a.top };
    }
    match b.kind {
        Kind::ThreePairRun => a.is_single_two(),
        Kind::Bomb => a.is_single_two() || a.is_pair_of_twos() || a.kind == Kind::ThreePairRun,
        Kind::FourPairRun => a.is_single_two() || a.is_pair_of_twos() || matches!(a.kind, Kind::ThreePairRun | Kind::Bomb),
        _ => false,
    }
}

/// [`beats_key`] on plays; a card in both is an error.
pub fn beats(b: &Play, a: &Play) -> Result<bool> {
    let shared = b.mask() & a.mask();
    if shared != 0 {
        let c = Card(shared.trailing_zeros() as u8);
        return Err(Error::field("play", format!("card {c} is both in the play and on the table")).because(Reason::DuplicateCard));
    }
    Ok(beats_key(b.key, a.key))
}

/// Why `b` does not beat `a` (for error messages); `None` when it does.
pub fn why_not(b: &Play, a: &Play) -> Option<String> {
    if beats_key(b.key, a.key) {
        return None;
    }
    let (bk, ak) = (b.kind(), a.kind());
    let desc = |p: &Play| format!("{} {}", p.kind().name_zh(), text(&p.cards));
    Some(if bk == ak && b.key.len == a.key.len {
        format!("{} is not higher than {}", desc(b), desc(a))
    } else if bk.is_special() {
        let targets = match bk {
            Kind::ThreePairRun => "a single 2 or a lower 3连对",
            Kind::Bomb => "a single 2, a pair of 2s, a 3连对 or a lower bomb",
            _ => "a single 2, a pair of 2s, a 3连对, a bomb or a lower 4连对",
        };
        format!("{} may only chop {targets}, not {}", desc(b), desc(a))
    } else {
        format!("{} cannot follow {}: a follow must be the same type and size", desc(b), desc(a))
    })
}

/// Every way to choose `k` cards of `from` (in order).
fn choose(from: &[Card], k: usize, out: &mut Vec<Vec<Card>>) {
    fn rec(from: &[Card], k: usize, start: usize, cur: &mut Vec<Card>, out: &mut Vec<Vec<Card>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in start..from.len() {
            cur.push(from[i]);
            rec(from, k, i + 1, cur, out);
            cur.pop();
        }
    }
    rec(from, k, 0, &mut Vec::new(), out)
}

/// Every play made of one choice from each of `parts` (consecutive ranks).
fn product(parts: &[Vec<Vec<Card>>], kind: Kind, out: &mut Vec<Play>) {
    fn rec(parts: &[Vec<Vec<Card>>], i: usize, cur: &mut Vec<Card>, kind: Kind, out: &mut Vec<Play>) {
        if i == parts.len() {
            let top = strength(*cur.last().expect("non-empty"));
            out.push(Play { key: PlayKey { kind, len: cur.len() as u8, top }, cards: cur.clone() });
            return;
        }
        for choice in &parts[i] {
            let n = cur.len();
            cur.extend_from_slice(choice);
            rec(parts, i + 1, cur, kind, out);
            cur.truncate(n);
        }
    }
    rec(parts, 0, &mut Vec::new(), kind, out)
}

/// Every play that can be made from `hand` (no filtering).
pub(crate) fn all_plays(hand: &[Card]) -> Vec<Play> {
    let hand = sorted(hand);
    let mut by_rank: Vec<Vec<Card>> = vec![Vec::new(); 13];
    for &c in &hand {
        by_rank[rank(c) as usize].push(c);
    }
    let mut out = Vec::new();
    let same_rank = |k: usize, kind: Kind, out: &mut Vec<Play>| {
        for cards in &by_rank[..=ACE as usize + usize::from(k < 4)] {
            let mut sets = Vec::new();
            choose(cards, k, &mut sets);
            for s in sets {
                let top = strength(s[k - 1]);
                out.push(Play { key: PlayKey { kind, len: k as u8, top }, cards: s });
            }
        }
    };
    same_rank(1, Kind::Single, &mut out);
    same_rank(2, Kind::Pair, &mut out);
    same_rank(3, Kind::Triple, &mut out);
    same_rank(4, Kind::Bomb, &mut out);
    // Straights: every run of present ranks 3..A of length ≥ 3.
    let singles: Vec<Vec<Vec<Card>>> = by_rank.iter().map(|cs| cs.iter().map(|&c| vec![c]).collect()).collect();
    for lo in 0..=ACE as usize {
        for hi in lo + 2..=ACE as usize {
            if by_rank[hi].is_empty() {
                break;
            }
            if (lo..=hi).all(|r| !by_rank[r].is_empty()) {
                product(&singles[lo..=hi], Kind::Straight, &mut out);
            }
        }
    }
    // 3连对 and 4连对.
    let pairs: Vec<Vec<Vec<Card>>> = by_rank
        .iter()
        .map(|cs| {
            let mut v = Vec::new();
            choose(cs, 2, &mut v);
            v
        })
        .collect();
    for (len, kind) in [(3usize, Kind::ThreePairRun), (4, Kind::FourPairRun)] {
        for lo in 0..=(ACE as usize + 1 - len) {
            if (lo..lo + len).all(|r| !pairs[r].is_empty()) {
                product(&pairs[lo..lo + len], kind, &mut out);
            }
        }
    }
    out
}

/// The order of [`legal_plays`]: type, then size, then strength, then the cards.
pub(crate) fn weakest_first(a: &Play, b: &Play) -> std::cmp::Ordering {
    (a.key.kind, a.key.len, a.key.top).cmp(&(b.key.kind, b.key.len, b.key.top)).then_with(|| {
        let sa: Vec<u8> = a.cards.iter().rev().map(|&c| strength(c)).collect();
        let sb: Vec<u8> = b.cards.iter().rev().map(|&c| strength(c)).collect();
        sa.cmp(&sb)
    })
}

/// Every play `hand` may make now: all leads when `table` is `None`; otherwise the
/// plays that beat it, and only specials when the seat has `passed` (RULES 2.4).
/// Ordered weakest first ([`weakest_first`]).
pub fn legal_plays(hand: &[Card], table: Option<&Play>, passed: bool) -> Result<Vec<Play>> {
    super::rules::check_hand_at_most(hand.len(), "hand")?;
    check_distinct(hand).map_err(|e| e.within("hand"))?;
    let hand_mask = hand.iter().fold(0u64, |m, c| m | c.bit());
    let mut plays = all_plays(hand);
    match table {
        None => {
            if passed {
                return Err(Error::field("passed", "a seat that passed does not lead: give the table's play").because(Reason::Inconsistent));
            }
        }
        Some(t) => {
            let shared = hand_mask & t.mask();
            if shared != 0 {
                let c = Card(shared.trailing_zeros() as u8);
                return Err(Error::field("table", format!("card {c} is both in the hand and on the table")).because(Reason::DuplicateCard));
            }
            plays.retain(|p| beats_key(p.key, t.key) && (!passed || p.is_special()));
        }
    }
    plays.sort_by(weakest_first);
    Ok(plays)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use proptest::prelude::*;

    fn p(s: &str) -> Play {
        classify(&cards(s)).unwrap_or_else(|e| panic!("{s}: {e}"))
    }
    fn kind(s: &str) -> Kind {
        p(s).kind()
    }
    fn err(s: &str) -> String {
        classify(&cards(s)).unwrap_err().message
    }

    #[test]
    fn order_is_3_to_2_and_spades_clubs_diamonds_hearts() {
        let all: Vec<Card> = (0..52).map(card_of).collect();
        assert_eq!(crate::cards::format_cards(&all[..5]), "3s 3c 3d 3h 4s");
        assert_eq!(crate::cards::format_cards(&all[44..]), "As Ac Ad Ah 2s 2c 2d 2h");
        for s in 0..52u8 {
            assert_eq!(strength(card_of(s)), s);
        }
    }

    #[test]
    fn kinds() {
        assert_eq!(kind("3s"), Kind::Single);
        assert_eq!(kind("2h 2s"), Kind::Pair);
        assert_eq!(kind("2h 2s 2d"), Kind::Triple);
        assert_eq!(kind("3s 4h 5d"), Kind::Straight);
        assert_eq!(kind("3s 4h 5d 6c 7s 8s 9s Ts Js Qs Ks As"), Kind::Straight);
        assert_eq!(kind("3s 3h 4s 4h 5s 5h"), Kind::ThreePairRun);
        assert_eq!(kind("Qs Qh Ks Kh As Ah"), Kind::ThreePairRun);
        assert_eq!(kind("7s 7h 7d 7c"), Kind::Bomb);
        assert_eq!(kind("3s 3h 4s 4h 5s 5h 6s 6h"), Kind::FourPairRun);
    }

    #[test]
    fn not_plays_say_why() {
        assert!(err("Ks As 2h").contains("a straight may not contain a 2"));
        assert!(err("As 2h 3d").contains("a straight may not contain a 2"));
        assert!(err("3s 4s 6s").contains("not consecutive"));
        assert!(err("3s 4s").contains("not a pair"));
        assert!(err("3s 3h 4s 4h").contains("two pairs"));
        assert!(err("As Ah 2s 2h Ks Kh").contains("may not contain a 2"));
        assert!(err("3s 3h 5s 5h 6s 6h").contains("not of consecutive"));
        assert!(err("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h").contains("cannot arise in play"));
        assert!(err("3s 3h 3d 4s").contains("bomb or a straight"));
        assert!(err("3s 3h 4d").contains("triple or a straight"));
        assert!(err("3s 3h 3d 4s 4h").contains("5 cards"));
        assert!(err("").contains("empty"));
        assert!(err("2s 2h 2d 2c").contains("four 2s cannot arise in play"));
        assert!(classify(&[cards("3s")[0]; 2]).unwrap_err().message.contains("duplicate card 3s"));
    }

    #[test]
    fn seed_same_type_examples() {
        assert!(beats(&p("5h 5s"), &p("5d 5c")).unwrap());
        assert!(!beats(&p("7h 8s 9d"), &p("7s 8d 9h")).unwrap());
        assert!(beats(&p("7s 8d 9h"), &p("7h 8s 9d")).unwrap());
        assert!(!beats(&p("4s 4h 5s 5h 6s 6h"), &p("3s")).unwrap());
        assert!(beats(&p("3s 3h 4s 4h 5s 5h 6s 6h"), &p("2h")).unwrap());
        assert!(beats(&p("7s 7h 7d 7c"), &p("2s 2c")).unwrap());
        assert!(!beats(&p("7s 7h 8s 8h 9s 9h"), &p("2s 2c")).unwrap());
        assert!(beats(&p("8s 8h 8d 8c"), &p("7s 7h 7d 7c")).unwrap());
        assert!(!beats(&p("3s 3h 3d"), &p("2s 2h")).unwrap());
        assert!(!beats(&p("3s 3h 3d 3c"), &p("2s 2h 2d")).unwrap(), "a triple of 2s is never chopped");
        assert!(beats(&p("3s 4s 5s 6s"), &p("3s 4s 5s").clone()).is_err(), "shared card");
    }

    /// The chop table of RULES 2.3, cell by cell.
    #[test]
    fn chop_table() {
        let single2 = p("2h");
        let pair2 = p("2s 2c");
        let run3 = p("9s 9h Ts Th Js Jh");
        let bomb = p("8s 8h 8d 8c");
        let run4 = p("3s 3h 4s 4h 5s 5h 6s 6h");
        let hi3 = p("Qs Qh Ks Kh As Ah");
        let hibomb = p("As Ah Ad Ac");
        let hi4 = p("Js Jd Qs Qd Ks Kd Ac Ad");
        let b = |x: &Play, y: &Play| beats_key(x.key, y.key);
        // 3连对 row
        assert!(b(&hi3, &single2) && !b(&hi3, &pair2) && b(&hi3, &run3) && !b(&run3, &hi3) && !b(&hi3, &bomb) && !b(&hi3, &run4));
        // bomb row
        assert!(b(&bomb, &single2) && b(&bomb, &pair2) && b(&bomb, &hi3) && b(&hibomb, &bomb) && !b(&bomb, &hibomb) && !b(&hibomb, &run4));
        // 4连对 row
        assert!(b(&run4, &single2) && b(&run4, &pair2) && b(&run4, &hi3) && b(&run4, &hibomb) && b(&hi4, &run4) && !b(&run4, &hi4));
        // Specials never follow plain plays.
        for plain in ["Ah", "As Ad", "Ks Kh Kd", "3s 4s 5s", "3s 4s 5s 6s 7s 8s"] {
            for sp in [&run3, &bomb, &run4] {
                assert!(!b(sp, &p(plain)), "{plain}");
            }
        }
    }

    #[test]
    fn legal_plays_follow_and_lead() {
        let hand = cards("3s 3h 4s 4h 5s 5h 2d 7c 7d 7h 7s");
        let leads = legal_plays(&hand, None, false).unwrap();
        assert!(leads.windows(2).all(|w| weakest_first(&w[0], &w[1]).is_lt()));
        assert_eq!(leads[0].cards, cards("3s"));
        let all = all_plays(&hand);
        assert_eq!(leads.len(), all.len());
        let on_two = legal_plays(&hand, Some(&p("2h")), false).unwrap();
        assert!(on_two.iter().all(|x| x.is_special()));
        assert!(on_two.iter().any(|x| x.kind() == Kind::Bomb));
        assert!(on_two.iter().any(|x| x.kind() == Kind::ThreePairRun));
        let passed = legal_plays(&hand, Some(&p("Ks")), true).unwrap();
        assert!(passed.is_empty());
        let follow = legal_plays(&hand, Some(&p("Ks")), false).unwrap();
        assert_eq!(follow.len(), 1); // 2d
        assert!(legal_plays(&hand, None, true).is_err());
        assert!(legal_plays(&cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s 2h"), None, false).unwrap_err().message.contains("13"));
        assert!(legal_plays(&hand, Some(&p("7s")), false).unwrap_err().message.contains("7s"));
    }

    fn any_set() -> impl Strategy<Value = Vec<Card>> {
        proptest::sample::subsequence((0..52u8).map(Card).collect::<Vec<_>>(), 1..=8)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn beats_is_irreflexive_and_asymmetric(a in any_set(), b in any_set()) {
            if let (Ok(pa), Ok(pb)) = (classify(&a), classify(&b)) {
                prop_assert!(!beats_key(pa.key, pa.key));
                prop_assert!(!(beats_key(pa.key, pb.key) && beats_key(pb.key, pa.key)));
            }
        }

        /// Every play enumerated from a hand classifies to itself, and every subset of a
        /// hand that classifies is enumerated.
        #[test]
        fn enumeration_matches_classify(hand in proptest::sample::subsequence((0..52u8).map(Card).collect::<Vec<_>>(), 0..=9)) {
            let plays = all_plays(&hand);
            for pl in &plays {
                prop_assert_eq!(&classify(&pl.cards).unwrap(), pl);
            }
            let n = hand.len();
            let mut count = 0;
            for m in 1u32..(1 << n) {
                let sub: Vec<Card> = (0..n).filter(|i| m >> i & 1 == 1).map(|i| hand[i]).collect();
                if classify(&sub).is_ok() { count += 1; }
            }
            prop_assert_eq!(count, plays.len());
        }
    }
}
