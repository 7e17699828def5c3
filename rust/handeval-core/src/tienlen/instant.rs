//! 直接获胜 instant wins on the 13 dealt cards (RULES 2.5).

use super::play::{rank, sorted, strength, suit, ACE, TWO};
use super::rules::HAND_SIZE;
use crate::cards::{check_distinct, check_distinct_across, Card};
use crate::error::{Error, Reason, Result};
use std::cmp::Ordering;

/// Instant-win types, lowest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InstantWin {
    /// 炸弹2: four 2s.
    FourTwos,
    /// 6个子: six pairs (a quad counts as two).
    SixPairs,
    /// 4组3条: four triples (a quad holds a triple).
    FourTriples,
    /// 5连: five consecutive pairs, no 2s.
    FivePairRun,
    /// 6连: six consecutive pairs, no 2s.
    SixPairRun,
    /// 3到A的顺子: one card of each rank 3..A.
    Dragon,
}

impl InstantWin {
    pub const ALL: [InstantWin; 6] = [
        InstantWin::FourTwos,
        InstantWin::SixPairs,
        InstantWin::FourTriples,
        InstantWin::FivePairRun,
        InstantWin::SixPairRun,
        InstantWin::Dragon,
    ];
    pub fn name(self) -> &'static str {
        match self {
            InstantWin::FourTwos => "four_twos",
            InstantWin::SixPairs => "six_pairs",
            InstantWin::FourTriples => "four_triples",
            InstantWin::FivePairRun => "five_pair_run",
            InstantWin::SixPairRun => "six_pair_run",
            InstantWin::Dragon => "dragon",
        }
    }
    pub fn name_zh(self) -> &'static str {
        match self {
            InstantWin::FourTwos => "炸弹2",
            InstantWin::SixPairs => "6个子",
            InstantWin::FourTriples => "4组3条",
            InstantWin::FivePairRun => "5连",
            InstantWin::SixPairRun => "6连",
            InstantWin::Dragon => "3到A的顺子",
        }
    }
}

/// An instant win and the cards that form it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InstantHand {
    pub kind: InstantWin,
    /// The forming cards in the game's order, lowest first. Where a rank holds more cards
    /// than the type needs, the highest suits are taken (the holder's best reading).
    pub cards: Vec<Card>,
}

impl InstantHand {
    /// RULES 2.5 order: type, then the forming cards' ranks from high to low, then the
    /// suit of the highest card.
    pub fn cmp_strength(&self, other: &InstantHand) -> Ordering {
        let ranks = |h: &InstantHand| h.cards.iter().rev().map(|&c| rank(c)).collect::<Vec<_>>();
        let top_suit = |h: &InstantHand| h.cards.last().map(|&c| suit(c));
        self.kind.cmp(&other.kind).then_with(|| ranks(self).cmp(&ranks(other))).then_with(|| top_suit(self).cmp(&top_suit(other)))
    }
}

/// The highest instant win of 13 dealt cards, or `None`.
pub fn instant_win(cards: &[Card]) -> Result<Option<InstantHand>> {
    if cards.len() != HAND_SIZE {
        return Err(Error::new(format!("instant wins are checked on the {HAND_SIZE} dealt cards (got {})", cards.len()))
            .because(Reason::WrongCount));
    }
    check_distinct(cards)?;
    let mut by_rank: Vec<Vec<Card>> = vec![Vec::new(); 13];
    for c in sorted(cards) {
        by_rank[rank(c) as usize].push(c);
    }
    // The `k` highest cards of a rank.
    let top = |r: usize, k: usize| -> Vec<Card> { by_rank[r][by_rank[r].len() - k..].to_vec() };
    let count = |r: usize| by_rank[r].len();
    let done = |kind, mut cards: Vec<Card>| {
        cards.sort_by_key(|&c| strength(c));
        Ok(Some(InstantHand { kind, cards }))
    };
    let ace = ACE as usize;
    if (0..=ace).all(|r| count(r) >= 1) {
        return done(InstantWin::Dragon, (0..=ace).flat_map(|r| top(r, 1)).collect());
    }
    for (len, kind) in [(6usize, InstantWin::SixPairRun), (5, InstantWin::FivePairRun)] {
        if let Some(lo) = (0..=ace + 1 - len).rev().find(|&lo| (lo..lo + len).all(|r| count(r) >= 2)) {
            return done(kind, (lo..lo + len).flat_map(|r| top(r, 2)).collect());
        }
    }
    let triples: Vec<usize> = (0..13).rev().filter(|&r| count(r) >= 3).collect();
    if triples.len() >= 4 {
        return done(InstantWin::FourTriples, triples[..4].iter().flat_map(|&r| top(r, 3)).collect());
    }
    if (0..13).map(|r| count(r) / 2).sum::<usize>() >= 6 {
        // The six highest pairs (a quad gives two).
        let mut cards = Vec::new();
        for r in (0..13).rev() {
            let k = (count(r) / 2 * 2).min(12 - cards.len());
            cards.extend(top(r, k));
        }
        return done(InstantWin::SixPairs, cards);
    }
    if count(TWO as usize) == 4 {
        return done(InstantWin::FourTwos, top(TWO as usize, 4));
    }
    Ok(None)
}

/// Per seat, each hand's instant win, and the seat whose instant win is highest.
pub fn instant_winner(hands: &[Vec<Card>]) -> Result<(Vec<Option<InstantHand>>, Option<usize>)> {
    super::rules::check_players(hands.len()).map_err(|e| e.within("hands"))?;
    let groups: Vec<(String, &[Card])> = hands.iter().enumerate().map(|(i, h)| (format!("hands[{i}]"), h.as_slice())).collect();
    for (name, h) in &groups {
        super::rules::check_dealt_hand(h, name)?;
    }
    check_distinct_across(&groups)?;
    let wins = hands.iter().map(|h| instant_win(h)).collect::<Result<Vec<_>>>()?;
    let mut best: Option<usize> = None;
    for (i, w) in wins.iter().enumerate() {
        if let Some(w) = w {
            if best.is_none_or(|b| w.cmp_strength(wins[b].as_ref().expect("set")) == Ordering::Greater) {
                best = Some(i);
            }
        }
    }
    Ok((wins, best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;

    fn kind(s: &str) -> Option<InstantWin> {
        instant_win(&cards(s)).unwrap().map(|h| h.kind)
    }

    #[test]
    fn each_type() {
        assert_eq!(kind("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"), Some(InstantWin::Dragon));
        assert_eq!(kind("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 8s 8h 2s"), Some(InstantWin::SixPairRun));
        assert_eq!(kind("3s 3h 4s 4h 5s 5h 6s 6h 7s 7h 9s 9h 2s"), Some(InstantWin::FivePairRun));
        assert_eq!(kind("3s 3h 3d 5s 5h 5d 7s 7h 7d 9s 9h 9d 2s"), Some(InstantWin::FourTriples));
        assert_eq!(kind("3s 3h 3d 3c 5s 5h 5d 7s 7h 7d 9s 9h 9d"), Some(InstantWin::FourTriples));
        assert_eq!(kind("3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Kh 2s"), Some(InstantWin::SixPairs));
        assert_eq!(kind("3s 3h 3d 3c 7s 7h 9s 9h Js Jh Ks 2d 2s"), Some(InstantWin::SixPairs));
        assert_eq!(kind("2s 2h 2d 2c 3s 5s 7s 9s Js Ks 4d 6d 8d"), Some(InstantWin::FourTwos));
        assert_eq!(kind("3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Ah 2s"), None);
        // 2s never make a pair run.
        assert_eq!(kind("Ts Th Js Jh Qs Qh Ks Kh As Ah 2s 3d 5d"), Some(InstantWin::FivePairRun));
        assert_eq!(kind("Js Jh Qs Qh Ks Kh As Ah 2s 2h 3d 3h 7d"), Some(InstantWin::SixPairs));
        assert!(instant_win(&cards("3s 4s")).unwrap_err().message.contains("13"));
    }

    #[test]
    fn seed_comparison_and_ties() {
        let hands = vec![
            cards("3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"),
            cards("2c 2d 3h 3c 5d 5c 7h 7c Qh Qd Ah Ad 8h"),
            cards("4h 4d 6h 6d 8d 8c 9c Tc Jc Qc Kd Kc Ac"),
            cards("2h 9h 9d Th Td Jh Jd 3d 4c 5h 6c 7d Kh"),
        ];
        let (wins, best) = instant_winner(&hands).unwrap();
        assert_eq!(
            wins.iter().map(|w| w.as_ref().map(|h| h.kind)).collect::<Vec<_>>(),
            vec![Some(InstantWin::Dragon), Some(InstantWin::SixPairs), None, None]
        );
        assert_eq!(best, Some(0));
        // Same type: ranks from the top, then the suit of the highest card.
        let a = instant_win(&cards("3s 3h 5s 5h 7s 7h 9s 9h Js Jh Ks Kh 4c")).unwrap().unwrap();
        let b = instant_win(&cards("3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Kd Kc 4s")).unwrap().unwrap();
        assert_eq!(a.cmp_strength(&b), Ordering::Greater, "K♥ beats K♦");
        let c = instant_win(&cards("3d 3c 5d 5c 7d 7c 9d 9c Jd Jc Ad Ac 4s")).unwrap().unwrap();
        assert_eq!(c.cmp_strength(&a), Ordering::Greater, "AA pair beats KK");
    }
}
