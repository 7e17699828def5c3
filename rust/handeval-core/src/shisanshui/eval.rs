//! Row evaluation for 十三水 (RULES §1.2–1.4).
//!
//! A row's *strength* is a `u32` that orders rows by category and ranks, without suits:
//! `category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5`, with the ranks in
//! order of significance (biggest group first, then kickers high to low), rank values
//! 2..=14 and 0 as padding. Fronts use the same encoding with at most three rank
//! nibbles, so `front.strength <= middle.strength` is exactly the cross-size comparison
//! of RULES §1.4 (category, then the ranks both rows have).
//!
//! Five-card strength is two table lookups, in the style of the fast public evaluators:
//! each card contributes one precomputed `u64` key; the sum of five keys carries a
//! collision-free rank-multiset sum (greedy Sidon-like keys), the OR of rank bits, and
//! per-suit counters that reveal a flush.

use super::rules::{Rules, WheelRank};
use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use std::cmp::Ordering;
use std::sync::OnceLock;

#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Category {
    /// 乌龙
    HighCard = 0,
    /// 对子
    Pair = 1,
    /// 两对
    TwoPair = 2,
    /// 三条
    ThreeOfAKind = 3,
    /// 顺子
    Straight = 4,
    /// 同花
    Flush = 5,
    /// 葫芦
    FullHouse = 6,
    /// 铁支
    FourOfAKind = 7,
    /// 同花顺
    StraightFlush = 8,
}

impl Category {
    pub const ALL: [Category; 9] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
    ];
    pub fn from_strength(strength: u32) -> Category {
        Category::ALL[(strength >> 20) as usize]
    }
    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "high_card",
            Category::Pair => "pair",
            Category::TwoPair => "two_pair",
            Category::ThreeOfAKind => "three_of_a_kind",
            Category::Straight => "straight",
            Category::Flush => "flush",
            Category::FullHouse => "full_house",
            Category::FourOfAKind => "four_of_a_kind",
            Category::StraightFlush => "straight_flush",
        }
    }
    pub fn name_zh(self) -> &'static str {
        match self {
            Category::HighCard => "乌龙",
            Category::Pair => "对子",
            Category::TwoPair => "两对",
            Category::ThreeOfAKind => "三条",
            Category::Straight => "顺子",
            Category::Flush => "同花",
            Category::FullHouse => "葫芦",
            Category::FourOfAKind => "铁支",
            Category::StraightFlush => "同花顺",
        }
    }
}

/// Greedy keys such that every multiset of five ranks (at most four of each) has its own sum.
const RANK_KEYS: [u32; 13] = [0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415];
const MAX_KEY_SUM: usize = 4 * 79415 + 43258;

struct Tables {
    card_keys: [u64; 52],
    /// Strength by rank-key sum, for hands that are not flushes (the first
    /// `MAX_KEY_SUM + 1` entries); then, from [`FIVE_RANKS_AT`], the strength of five
    /// distinct ranks by 13-bit rank mask, not a flush in the first 8,192 entries and a
    /// flush in the next (`mask | flush << 13`): 64 KiB that a stream of varied rows keeps
    /// in cache, where the sums' 1.4 MB miss; about half of all rows have five distinct
    /// ranks. One table, so [`strength5`] picks the index without a branch.
    by_sum: Vec<u32>,
    /// Strength by 13-bit rank mask, for flushes.
    flush: Vec<u32>,
}

/// Where the five-distinct-ranks part of `Tables::by_sum` starts.
const FIVE_RANKS_AT: usize = MAX_KEY_SUM + 1;

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let mut card_keys = [0u64; 52];
    for id in 0..52u8 {
        let c = Card(id);
        card_keys[id as usize] =
            RANK_KEYS[c.rank() as usize] as u64 | 1u64 << (32 + c.rank()) | 1u64 << (48 + 4 * c.suit());
    }
    let mut by_sum = vec![0u32; MAX_KEY_SUM + 1];
    let mut counts = [0u8; 13];
    // Every multiset of five ranks, at most four of each.
    fn walk(from: usize, left: u8, counts: &mut [u8; 13], by_sum: &mut [u32]) {
        if left == 0 {
            let ranks: Vec<u8> = (0..13u8).flat_map(|r| std::iter::repeat(r).take(counts[r as usize] as usize)).collect();
            let sum: u32 = ranks.iter().map(|&r| RANK_KEYS[r as usize]).sum();
            assert_eq!(by_sum[sum as usize], 0, "rank keys collide");
            by_sum[sum as usize] = strength_slow(&ranks, false);
            return;
        }
        for r in from..13 {
            if counts[r] < 4 {
                counts[r] += 1;
                walk(r, left - 1, counts, by_sum);
                counts[r] -= 1;
            }
        }
    }
    walk(0, 5, &mut counts, &mut by_sum);
    let mut flush = vec![0u32; 1 << 13];
    for mask in 0u32..(1 << 13) {
        if mask.count_ones() == 5 {
            let ranks: Vec<u8> = (0..13u8).filter(|r| mask >> r & 1 == 1).collect();
            flush[mask as usize] = strength_slow(&ranks, true);
        }
    }
    by_sum.resize(FIVE_RANKS_AT + (2 << 13), 0);
    for mask in 0u32..(1 << 13) {
        if mask.count_ones() == 5 {
            let sum: u32 = (0..13).filter(|r| mask >> r & 1 == 1).map(|r| RANK_KEYS[r as usize]).sum();
            by_sum[FIVE_RANKS_AT + mask as usize] = by_sum[sum as usize];
            by_sum[FIVE_RANKS_AT + ((1 << 13) | mask as usize)] = flush[mask as usize];
        }
    }
    Tables { card_keys, by_sum, flush }
}

#[inline]
fn pack(category: Category, sig: &[u8]) -> u32 {
    let mut v = (category as u32) << 20;
    for (i, &r) in sig.iter().enumerate() {
        v |= ((r as u32) + 2) << (16 - 4 * i);
    }
    v
}

/// Reference classifier on rank indices (0 = `2`): straightforward grouping; it builds
/// the lookup tables and is the oracle the fast path is tested against.
pub fn strength_slow(ranks: &[u8], flush: bool) -> u32 {
    let mut counts = [0u8; 13];
    for &r in ranks {
        counts[r as usize] += 1;
    }
    // Groups by (count desc, rank desc).
    let mut groups: Vec<(u8, u8)> = (0..13u8).rev().filter(|&r| counts[r as usize] > 0).map(|r| (counts[r as usize], r)).collect();
    groups.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let sig: Vec<u8> = groups.iter().map(|g| g.1).collect();
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    if ranks.len() == 3 {
        return match shape.as_slice() {
            [3] => pack(Category::ThreeOfAKind, &sig),
            [2, 1] => pack(Category::Pair, &sig),
            _ => pack(Category::HighCard, &sig),
        };
    }
    match shape.as_slice() {
        [4, 1] => pack(Category::FourOfAKind, &sig),
        [3, 2] => pack(Category::FullHouse, &sig),
        [3, 1, 1] => pack(Category::ThreeOfAKind, &sig),
        [2, 2, 1] => pack(Category::TwoPair, &sig),
        [2, 1, 1, 1] => pack(Category::Pair, &sig),
        _ => {
            let mask: u32 = ranks.iter().fold(0, |m, &r| m | 1 << r);
            let top = straight_top(mask);
            match (top, flush) {
                (Some(t), true) => pack(Category::StraightFlush, &[t]),
                (Some(t), false) => pack(Category::Straight, &[t]),
                (None, true) => pack(Category::Flush, &sig),
                (None, false) => pack(Category::HighCard, &sig),
            }
        }
    }
}

/// Top rank index of a five-rank straight mask (`A2345` tops at 5), or None.
fn straight_top(mask: u32) -> Option<u8> {
    const WHEEL: u32 = 1 << 12 | 0b1111;
    if mask == WHEEL {
        return Some(3);
    }
    let low = mask.trailing_zeros();
    (mask >> low == 0b11111).then_some(low as u8 + 4)
}

/// Rank-only strength of a five-card row, standard order (`A2345` lowest).
#[inline]
pub fn strength5(cards: &[Card; 5]) -> u32 {
    let t = tables();
    let k = cards.iter().fold(0u64, |acc, c| acc + t.card_keys[c.0 as usize]);
    let mask = ((k >> 32) & 0x1FFF) as usize;
    // Five distinct ranks (a flush only then): the small part, by rank mask; else the
    // sum's entry. A select, not a branch: varied rows would mispredict it half the time.
    let five = FIVE_RANKS_AT + (mask | (is_flush_key(k) as usize) << 13);
    let index = if mask.count_ones() == 5 { five } else { (k & 0xF_FFFF) as usize };
    t.by_sum[index]
}

/// Whether a sum of five card keys is a flush: a suit counter of 5 (0b101) is the only
/// one with bits 0 and 2 both set.
#[inline]
fn is_flush_key(k: u64) -> bool {
    let suits = k >> 48;
    (suits >> 2) & suits & 0x1111 != 0
}

/// The key [`strength5`] sums for one card, for callers that sum the keys of many
/// overlapping five-card sets incrementally (the arrangement search): the strength of
/// five distinct cards is [`strength5_of_keys`] of the sum of their keys.
#[inline]
pub fn strength5_key(card: Card) -> u64 {
    tables().card_keys[card.0 as usize]
}

/// [`strength5`] from the sum of five distinct cards' [`strength5_key`]s.
#[inline]
pub fn strength5_of_keys(k: u64) -> u32 {
    let t = tables();
    if is_flush_key(k) {
        t.flush[((k >> 32) & 0x1FFF) as usize]
    } else {
        t.by_sum[(k & 0xF_FFFF) as usize]
    }
}

/// Where [`strength5_of_keys`] looks a key sum up: a dense index, below
/// [`STRENGTH5_SLOTS`], that is the same for two sums exactly when their strengths are
/// (for callers that keep their own per-class tables indexed by it).
#[inline]
pub fn strength5_slot_of_keys(k: u64) -> usize {
    if is_flush_key(k) {
        MAX_KEY_SUM + 1 + ((k >> 32) & 0x1FFF) as usize
    } else {
        (k & 0xF_FFFF) as usize
    }
}

/// The number of slots of [`strength5_slot_of_keys`].
pub const STRENGTH5_SLOTS: usize = MAX_KEY_SUM + 1 + (1 << 13);

/// Rank-only strength of a three-card front.
#[inline]
pub fn strength3(cards: &[Card; 3]) -> u32 {
    let (mut a, mut b, mut c) = (cards[0].rank(), cards[1].rank(), cards[2].rank());
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    if b < c {
        std::mem::swap(&mut b, &mut c);
    }
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    if a == c {
        pack(Category::ThreeOfAKind, &[a])
    } else if a == b {
        pack(Category::Pair, &[a, c])
    } else if b == c {
        pack(Category::Pair, &[b, a])
    } else {
        pack(Category::HighCard, &[a, b, c])
    }
}

/// Apply the `A2345` house rule to a standard strength.
#[inline]
pub fn adjust_for_rules(strength: u32, rules: &Rules) -> u32 {
    if rules.a2345 == WheelRank::SecondHighest {
        let cat = strength >> 20;
        if cat == Category::Straight as u32 || cat == Category::StraightFlush as u32 {
            let top = (strength >> 16) & 0xF;
            // Wheel (5) moves just below the broadway straight (A = 14 moves up to 15).
            let new_top = match top {
                5 => 14,
                14 => 15,
                t => t,
            };
            return (strength & !(0xF << 16)) | new_top << 16;
        }
    }
    strength
}

/// Rank-only strength of a 3- or 5-card row under the rules.
pub fn strength(cards: &[Card], rules: &Rules) -> Result<u32> {
    check_row_cards(cards)?;
    let s = match cards.len() {
        3 => strength3(&[cards[0], cards[1], cards[2]]),
        5 => strength5(&[cards[0], cards[1], cards[2], cards[3], cards[4]]),
        n => return Err(Error::new(format!("a row has 3 or 5 cards, got {n}")).because(Reason::WrongCount)),
    };
    Ok(adjust_for_rules(s, rules))
}

/// A repeated card (or a bad id) would index past the lookup tables: refuse it here, so
/// every Result entry (row_value, compare_rows, is_foul) answers instead of panicking (a
/// fuzz finding). One OR per card.
#[inline]
fn check_row_cards(cards: &[Card]) -> Result<()> {
    let mut seen = 0u64;
    for c in cards {
        if c.0 >= 52 {
            return Err(Error::new(format!("card id {} is out of range 0..51", c.0)).because(Reason::BadCard));
        }
        if seen & c.bit() != 0 {
            return Err(Error::new(format!("a row cannot hold {c} twice")).because(Reason::DuplicateCard));
        }
        seen |= c.bit();
    }
    Ok(())
}

/// The cards of a row in order of significance (RULES §1.3): biggest group first, inside
/// a group and among kickers the higher rank then the higher suit first; in `A2345` the
/// ace is last.
pub fn significance_order(cards: &[Card], rules: &Rules) -> Vec<Card> {
    if cards.len() <= 5 {
        return significance_array(cards, rules)[..cards.len()].to_vec();
    }
    let mut out = cards.to_vec();
    sort_by_significance(&mut out, rules, 0);
    out
}

/// [`significance_order`] of a row of at most 5 cards, in a fixed array (the first
/// `cards.len()` entries; no allocation, for the single-row calls).
pub fn significance_array(cards: &[Card], rules: &Rules) -> [Card; 5] {
    let mut out = [Card(0); 5];
    let n = cards.len().min(5);
    out[..n].copy_from_slice(&cards[..n]);
    let s = if n == 5 { strength5(&[out[0], out[1], out[2], out[3], out[4]]) } else { 0 };
    sort_by_significance(&mut out[..n], rules, s);
    out
}

/// [`strength`] and [`significance_array`] of one row at once (one evaluation, no
/// allocation): what a single `classify` call needs.
pub fn classify_row(cards: &[Card], rules: &Rules) -> Result<(u32, [Card; 5])> {
    check_row_cards(cards)?;
    let mut out = [Card(0); 5];
    let s = match cards.len() {
        3 => strength3(&[cards[0], cards[1], cards[2]]),
        5 => strength5(&[cards[0], cards[1], cards[2], cards[3], cards[4]]),
        n => return Err(Error::new(format!("a row has 3 or 5 cards, got {n}")).because(Reason::WrongCount)),
    };
    out[..cards.len()].copy_from_slice(cards);
    if cards.len() == 5 {
        out = significance5(&[out[0], out[1], out[2], out[3], out[4]], rules, s);
    } else {
        let [a, b, c] = significance3(&[out[0], out[1], out[2]], rules);
        out[..3].copy_from_slice(&[a, b, c]);
    }
    Ok((adjust_for_rules(s, rules), out))
}

/// The sort key of one card of a row in [`sort_by_significance`]'s order, largest first:
/// its rank's count in the row, its rank, its suit's value under the rules, then its suit
/// (which only makes the key name the card: suit values are distinct).
#[inline(always)]
fn significance_key(c: Card, counts: u64, rules: &Rules) -> u16 {
    let (rank, suit) = (c.rank() as u16, c.suit() as u16);
    let count = ((counts >> (4 * rank)) & 0xF) as u16;
    (count << 8) | (rank << 4) | ((rules.suit_order.0[suit as usize] as u16) << 2) | suit
}

#[inline(always)]
fn key_card(k: u16) -> Card {
    Card::new(((k >> 4) & 0xF) as u8, (k & 3) as u8)
}

/// Rank counts of a row, 4 bits per rank.
#[inline(always)]
fn rank_counts(cards: &[Card]) -> u64 {
    cards.iter().fold(0u64, |acc, c| acc + (1u64 << (4 * c.rank() as u32)))
}

/// Compare-exchange of a sorting network, largest first, without a branch (min/max on
/// integers compile to conditional moves): the order of a random row mispredicts an
/// insertion sort's branches (a single `classify` on varied rows spent its largest share
/// there).
#[inline(always)]
fn cx(k: &mut [u16], i: usize, j: usize) {
    let (a, b) = (k[i], k[j]);
    k[i] = a.max(b);
    k[j] = a.min(b);
}

/// [`sort_by_significance`] of five distinct cards (`s`: their [`strength5`]) by a
/// sorting network of 9 compare-exchanges on one key per card: the same order.
#[inline]
pub fn significance5(cards: &[Card; 5], rules: &Rules, s: u32) -> [Card; 5] {
    let counts = rank_counts(cards);
    let mut k = cards.map(|c| significance_key(c, counts, rules));
    for (i, j) in [(0, 1), (3, 4), (2, 4), (2, 3), (0, 3), (0, 2), (1, 4), (1, 3), (1, 2)] {
        cx(&mut k, i, j);
    }
    let mut out = k.map(key_card);
    let cat = s >> 20;
    if (cat == Category::Straight as u32 || cat == Category::StraightFlush as u32) && (s >> 16) & 0xF == 5 {
        out.rotate_left(1); // the ace goes last in A2345
    }
    out
}

/// [`sort_by_significance`] of three distinct cards, by a sorting network.
#[inline]
pub fn significance3(cards: &[Card; 3], rules: &Rules) -> [Card; 3] {
    let counts = rank_counts(cards);
    let mut k = cards.map(|c| significance_key(c, counts, rules));
    for (i, j) in [(1, 2), (0, 2), (0, 1)] {
        cx(&mut k, i, j);
    }
    k.map(key_card)
}

/// `out` in order of significance; `s`: its standard five-card strength (0 for other
/// sizes), which tells whether it is an `A2345` straight.
fn sort_by_significance(out: &mut [Card], rules: &Rules, s: u32) {
    let mut counts = [0u8; 13];
    for c in out.iter() {
        counts[c.rank() as usize] += 1;
    }
    let suit_value = |c: &Card| rules.suit_order.0[c.suit() as usize];
    // Insertion sort: rows are 3 or 5 cards.
    let before = |a: &Card, b: &Card| {
        counts[b.rank() as usize]
            .cmp(&counts[a.rank() as usize])
            .then(b.rank().cmp(&a.rank()))
            .then(suit_value(b).cmp(&suit_value(a)))
            .is_lt()
    };
    for i in 1..out.len() {
        let mut j = i;
        while j > 0 && before(&out[j], &out[j - 1]) {
            out.swap(j, j - 1);
            j -= 1;
        }
    }
    let cat = s >> 20;
    if (cat == Category::Straight as u32 || cat == Category::StraightFlush as u32) && (s >> 16) & 0xF == 5 {
        out.rotate_left(1); // the ace goes last in A2345
    }
}

/// A row's full value: `key` orders rows completely (strength, then suits card by card
/// when the rules break ties by suit).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RowValue {
    pub strength: u32,
    pub key: u64,
}

impl RowValue {
    pub fn category(&self) -> Category {
        Category::from_strength(self.strength)
    }
}

/// Value of a 3- or 5-card row under the rules.
pub fn row_value(cards: &[Card], rules: &Rules) -> Result<RowValue> {
    let strength = strength(cards, rules)?;
    let mut suits = 0u64;
    if rules.suit_tiebreak {
        for (i, c) in significance_array(cards, rules)[..cards.len()].iter().enumerate() {
            suits |= (rules.suit_order.0[c.suit() as usize] as u64) << (8 - 2 * i);
        }
    }
    Ok(RowValue { strength, key: (strength as u64) << 10 | suits })
}

#[cfg(test)]
mod single_row_tests {
    use super::*;
    use crate::shisanshui::{SuitOrder, WheelRank};

    /// Random distinct rows of 3 or 5 cards (xorshift, fixed seed), and a second row
    /// disjoint from the first.
    fn rows(n: usize) -> Vec<(Vec<Card>, Vec<Card>)> {
        let mut s: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        (0..n)
            .map(|i| {
                let len = if i % 4 == 0 { 3 } else { 5 };
                let mut deck: Vec<Card> = (0..52).map(Card).collect();
                for k in 0..2 * len {
                    let j = k + (next() % (52 - k as u64)) as usize;
                    deck.swap(k, j);
                }
                (deck[..len].to_vec(), deck[len..2 * len].to_vec())
            })
            .collect()
    }

    /// The sorting networks give the insertion sort's order on every 5-card and 3-card
    /// row, under suit orders that differ in every position.
    #[test]
    fn significance_networks_agree_with_the_insertion_sort_on_every_row() {
        let orders = ["shcd", "dchs", "hdsc", "cshd"];
        let all: Vec<Card> = (0..52).map(Card).collect();
        for order in orders {
            let rules = Rules { suit_order: SuitOrder::parse(order).unwrap(), ..Rules::default() };
            for a in 0..52 {
                for b in a + 1..52 {
                    for c in b + 1..52 {
                        let three = [all[c], all[a], all[b]];
                        let mut want = three;
                        sort_by_significance(&mut want, &rules, 0);
                        assert_eq!(significance3(&three, &rules), want);
                        if order != "shcd" && order != "dchs" {
                            continue; // 5-card rows: two suit orders (2.6 M rows each)
                        }
                        for d in c + 1..52 {
                            for e in d + 1..52 {
                                // Not in id order: the network must sort any input order.
                                let five = [all[d], all[a], all[e], all[c], all[b]];
                                let s = strength5(&five);
                                let mut want = five;
                                sort_by_significance(&mut want, &rules, s);
                                assert_eq!(significance5(&five, &rules, s), want, "{five:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn classify_row_and_compare_rows_agree_with_the_row_value() {
        let variants = [
            Rules::default(),
            Rules { a2345: WheelRank::SecondHighest, suit_tiebreak: false, ..Rules::default() },
        ];
        let mut cases = rows(20_000);
        // Ties of strength (suits decide) and A2345 straights, on purpose.
        for (a, b) in [("As 2d 3c 4h 5s", "Ah 2s 3d 4c 5h"), ("Ks Kh 7d 7c 2s", "Kd Kc 7s 7h 2h"), ("Qs Qh 3d", "Qd Qc 3s")] {
            cases.push((crate::cards::cards(a), crate::cards::cards(b)));
        }
        for r in &variants {
            for (a, b) in &cases {
                let (s, order) = classify_row(a, r).unwrap();
                assert_eq!(s, strength(a, r).unwrap());
                assert_eq!(order[..a.len()], significance_order(a, r)[..]);
                let want = row_value(a, r).unwrap().key.cmp(&row_value(b, r).unwrap().key);
                assert_eq!(compare_rows(a, b, r).unwrap(), want, "{a:?} vs {b:?}");
            }
        }
        let r = Rules::default();
        let mut dup = crate::cards::cards("As Kd Qh");
        dup[1] = dup[0];
        assert!(classify_row(&dup, &r).unwrap_err().to_string().contains("twice"));
        assert!(classify_row(&crate::cards::cards("As Kd"), &r).is_err());
        assert!(compare_rows(&crate::cards::cards("As Kd Qh"), &crate::cards::cards("As 2d 3h"), &r).unwrap_err().to_string().contains("As"));
    }
}

#[cfg(test)]
mod repeated_card_tests {
    use super::*;
    use crate::cards::cards;

    /// Fuzz finding: five aces from repeated cards indexed past the key-sum table (a panic).
    #[test]
    fn repeated_cards_are_an_error() {
        let r = Rules::default();
        let mut m = cards("As Ah");
        m.extend(cards("As Ah"));
        m.extend(cards("As"));
        assert!(row_value(&m, &r).unwrap_err().message.contains("twice"));
        assert!(compare_rows(&m, &cards("2s 3s 4s 5s 7d"), &r).is_err());
        assert!(is_foul(&cards("Kd Kh 2c"), &m, &cards("3s 3h 3d 3c 4c"), &r).is_err());
        assert!(row_value(&[Card(60), Card(1), Card(2)], &r).is_err());
    }
}

/// Compare two rows of the same size (RULES §1.3); `Equal` only for the same ranks and
/// suits (or the same ranks when suit tie-break is off).
pub fn compare_rows(a: &[Card], b: &[Card], rules: &Rules) -> Result<Ordering> {
    if a.len() != b.len() {
        return Err(Error::new(format!(
            "can only compare rows of the same size (got {} and {} cards)",
            a.len(),
            b.len()
        ))
        .because(Reason::WrongCount));
    }
    // One deck (RULES §0): a card cannot be in both rows. (One OR per card first; the
    // named check words the error.)
    let mask = |row: &[Card]| row.iter().fold(0u64, |m, c| m | if c.0 < 52 { c.bit() } else { 0 });
    if mask(a) & mask(b) != 0 {
        crate::cards::check_distinct_across(&[("a".into(), a), ("b".into(), b)])?;
    }
    // The key is the strength above the suits: different strengths decide without them.
    let (sa, sb) = (strength(a, rules)?, strength(b, rules)?);
    if sa != sb {
        return Ok(sa.cmp(&sb));
    }
    Ok(row_value(a, rules)?.key.cmp(&row_value(b, rules)?.key))
}

/// 倒水: front ≤ middle ≤ back fails, by categories and ranks only (RULES §1.4).
pub fn is_foul(front: &[Card], middle: &[Card], back: &[Card], rules: &Rules) -> Result<bool> {
    check_row_sizes(front, middle, back)?;
    let f = strength(front, rules)?;
    let m = strength(middle, rules)?;
    let b = strength(back, rules)?;
    Ok(f > m || m > b)
}

pub fn check_row_sizes(front: &[Card], middle: &[Card], back: &[Card]) -> Result<()> {
    for (name, row, want) in [("front", front, 3), ("middle", middle, 5), ("back", back, 5)] {
        if row.len() != want {
            return Err(Error::field(name, format!("the {name} row has {want} cards, got {}", row.len())).because(Reason::WrongCount));
        }
    }
    Ok(())
}

/// Waters won by the winner of a row (RULES §1.5), from the winner's own row.
/// `row`: 0 front, 1 middle, 2 back.
#[inline]
pub fn row_waters(row: usize, category: Category) -> i64 {
    match (row, category) {
        (0, Category::ThreeOfAKind) => 3,
        (1, Category::FullHouse) => 2,
        (1, Category::FourOfAKind) => 8,
        (1, Category::StraightFlush) => 10,
        (2, Category::FourOfAKind) => 4,
        (2, Category::StraightFlush) => 5,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use proptest::prelude::*;

    fn all_five() -> impl Iterator<Item = [Card; 5]> {
        (0..52u8).flat_map(|a| {
            (a + 1..52).flat_map(move |b| {
                (b + 1..52).flat_map(move |c| {
                    (c + 1..52).flat_map(move |d| (d + 1..52).map(move |e| [Card(a), Card(b), Card(c), Card(d), Card(e)]))
                })
            })
        })
    }

    #[test]
    fn exhaustive_five_card_category_counts() {
        let mut counts = [0u64; 9];
        let mut distinct = std::collections::HashSet::new();
        for h in all_five() {
            let s = strength5(&h);
            counts[(s >> 20) as usize] += 1;
            distinct.insert(s);
        }
        assert_eq!(counts.iter().sum::<u64>(), 2_598_960);
        assert_eq!(counts, [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]);
        // 7,462 distinct rank classes: the standard count of poker hand values.
        assert_eq!(distinct.len(), 7_462);
    }

    #[test]
    fn exhaustive_fast_equals_reference() {
        for h in all_five() {
            let ranks: Vec<u8> = h.iter().map(|c| c.rank()).collect();
            let flush = h.iter().all(|c| c.suit() == h[0].suit());
            assert_eq!(strength5(&h), strength_slow(&ranks, flush), "{:?}", h);
        }
    }

    #[test]
    fn exhaustive_three_card_category_counts() {
        let mut counts = [0u64; 9];
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    let h = [Card(a), Card(b), Card(c)];
                    let s = strength3(&h);
                    let ranks: Vec<u8> = h.iter().map(|c| c.rank()).collect();
                    assert_eq!(s, strength_slow(&ranks, false));
                    counts[(s >> 20) as usize] += 1;
                }
            }
        }
        assert_eq!(counts.iter().sum::<u64>(), 22_100);
        assert_eq!((counts[3], counts[1], counts[0]), (52, 3_744, 18_304));
    }

    #[test]
    fn straights_and_wheel() {
        let r = Rules::default();
        let wheel = row_value(&cards("As 2d 3c 4h 5s"), &r).unwrap();
        let six = row_value(&cards("2d 3c 4h 5s 6s"), &r).unwrap();
        let broadway = row_value(&cards("Ts Jd Qc Kh As"), &r).unwrap();
        assert_eq!(wheel.category(), Category::Straight);
        assert!(wheel.key < six.key && six.key < broadway.key);
        assert_eq!(row_value(&cards("Qs Kd Ac 2h 3s"), &r).unwrap().category(), Category::HighCard);
        let alt = Rules { a2345: WheelRank::SecondHighest, ..Rules::default() };
        let wheel = row_value(&cards("As 2d 3c 4h 5s"), &alt).unwrap();
        let king = row_value(&cards("9s Td Jc Qh Ks"), &alt).unwrap();
        let broadway = row_value(&cards("Ts Jd Qc Kh As"), &alt).unwrap();
        assert!(king.key < wheel.key && wheel.key < broadway.key);
    }

    #[test]
    fn suits_break_ties_card_by_card() {
        let r = Rules::default();
        // Same ranks; pair suits: ♠♦ vs ♥♣ -> first pair card ♠ beats ♥.
        let a = cards("Ks Kd 7h 5c 3c");
        let b = cards("Kh Kc 7s 5d 3d");
        assert_eq!(compare_rows(&a, &b, &r).unwrap(), Ordering::Greater);
        // Wheel: the ace is the last card, so the 5's suit decides first.
        let w1 = cards("5s 4d 3d 2d Ad");
        let w2 = cards("5h 4s 3s 2s As");
        assert_eq!(compare_rows(&w1, &w2, &r).unwrap(), Ordering::Greater);
        // ♣ > ♦ by default.
        assert_eq!(compare_rows(&cards("Ac 9d 7d"), &cards("Ad 9c 7c"), &r).unwrap(), Ordering::Greater);
        let off = Rules { suit_tiebreak: false, ..Rules::default() };
        assert_eq!(compare_rows(&a, &b, &off).unwrap(), Ordering::Equal);
    }

    /// RULES §0: one deck, so the same card in both rows is bad input, not a tie.
    #[test]
    fn same_card_in_both_rows_is_an_error() {
        let r = Rules::default();
        let e = compare_rows(&cards("As Ks Qs Js Ts"), &cards("As Kd Qd Jd Td"), &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("b"));
        assert!(e.message.contains("As is also in a"), "{}", e.message);
        assert!(compare_rows(&cards("Qs Qh 2c"), &cards("Qd Qc 2c"), &r).unwrap_err().message.contains("2c"));
    }

    #[test]
    fn foul_examples() {
        let r = Rules::default();
        let f = |a: &str, b: &str, c: &str| is_foul(&cards(a), &cards(b), &cards(c), &r).unwrap();
        assert!(!f("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h"));
        assert!(f("Qs Qh Qd", "Js Jh Jd 3c 4d", "Ks Kh Kd 4s 4h")); // QQQ over JJJ
        assert!(f("Js Jh Jd", "Jc 2h 2d 3c 4d", "As Ah Ad 4s 4h")); // front trips over a middle pair
        assert!(!f("8s 8h Kd", "8d 8c Ks Qh Jd", "As Ah Ad 4s 4h")); // equal over common ranks
        assert!(f("8s 8h Ad", "8d 8c Ks Qh Jd", "As Ah Ad 4s 4h")); // front kicker A > K
        assert!(!f("As Kh Qd", "Ac Kd Qs Jh 9d", "2s 2h 2d 4s 4h")); // high-card prefix equal
        assert!(f("2s 3h 5d", "Ac Ad Qs Jh 9d", "Ks Kh 7d 4s 3h")); // middle AA > back KK
        assert!(is_foul(&cards("2s 3h"), &cards("Ac Ad Qs Jh 9d"), &cards("Ks Kh 7d 4s 3h"), &r).is_err());
    }

    proptest! {
        #[test]
        fn compare_is_antisymmetric_and_total(ids in proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 10), tie in any::<bool>()) {
            let r = Rules { suit_tiebreak: tie, ..Rules::default() };
            let a: Vec<Card> = ids[..5].iter().map(|&i| Card(i)).collect();
            let b: Vec<Card> = ids[5..].iter().map(|&i| Card(i)).collect();
            let ab = compare_rows(&a, &b, &r).unwrap();
            prop_assert_eq!(ab, compare_rows(&b, &a, &r).unwrap().reverse());
            if tie { prop_assert_ne!(ab, Ordering::Equal); }
        }
    }
}

/// A row's place in the full order of RULES §1.3 as one number: category, ranks, then
/// (with `suit_tiebreak`) suits card by card in order of significance. Of two rows of the
/// same size the stronger has the larger key, and equal keys are a tie (the same ranks
/// and suits, or the same ranks with `suit_tiebreak` off). Unlike [`compare_rows`] the
/// rows need not come from one deck, so rows that are independent of each other (a bulk
/// ranking, e.g. the gRPC Compare `order` item) can be ordered by sorting their keys.
pub fn order_key(cards: &[Card], rules: &Rules) -> Result<u64> {
    Ok(row_value(cards, rules)?.key)
}

/// [`order_key`] of each row. Keys of a front and a five-card row do not compare, so every
/// row must have the size of the first; an error names the row (`[i]`).
pub fn order_keys(rows: &[Vec<Card>], rules: &Rules) -> Result<Vec<u64>> {
    let size = rows.first().map_or(0, |r| r.len());
    let mut keys = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        keys.push(order_key_sized(row, size, rules).map_err(|e| e.within(&format!("[{i}]")))?);
    }
    Ok(keys)
}

/// [`order_key`] of a row of a ranking whose first row has `size` cards (keys of rows of
/// different sizes do not compare): one row of [`order_keys`], for callers that read the
/// rows one by one.
pub fn order_key_sized(cards: &[Card], size: usize, rules: &Rules) -> Result<u64> {
    if cards.len() != size {
        return Err(Error::new(format!("has {} cards, the first row has {size}: the rows of one order have one size", cards.len())).because(Reason::WrongCount));
    }
    order_key(cards, rules)
}

/// Categories (one byte each, the index in [`Category::ALL`]) of rows packed as card ids
/// (`rank * 4 + suit`, one byte per card, `row_size` (3 or 5) bytes per row): the bulk
/// path. All or nothing: the first bad row is the error, field `data[i]`; a length that
/// is no whole number of rows, field `data`. The category does not depend on the rules.
pub fn categories_from_ids(data: &[u8], row_size: usize) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    categories_from_ids_into(data, row_size, &mut out)?;
    Ok(out)
}

/// [`categories_from_ids`] appended to `out` (a caller writing the categories straight
/// into a larger buffer, e.g. an encoded message); on error `out` is left as it was.
///
/// The category alone needs no strength table. With the row's cards checked (ids below
/// 52, none twice), the number of equal-rank pairs among its cards names it (1 pair,
/// 2 two pair, 3 three of a kind, 4 full house, 6 four of a kind); a row without equal
/// ranks is a straight when its highest rank is its lowest + 4 (or it is A2345: ranks
/// 12 and 0 and a sum of 18), a flush when its suits are one, else a high card. That is
/// a few byte operations per row, without branches: rows go in blocks of
/// [`ROWS_PER_BLOCK`], card `k` of every row of a block side by side, so the compiler
/// runs the block in vector lanes. The rows' badness is or-ed into one flag; only a bad
/// request is walked again, card by card, for its first bad row's message.
pub fn categories_from_ids_into(data: &[u8], row_size: usize, out: &mut Vec<u8>) -> Result<()> {
    if row_size != 3 && row_size != 5 {
        return Err(Error::field("row_size", format!("must be 3 or 5, got {row_size}")).because(Reason::OutOfRange));
    }
    if data.len() % row_size != 0 {
        return Err(Error::field("data", format!("{} bytes is not a whole number of {row_size}-card rows", data.len())).because(Reason::WrongCount));
    }
    let start = out.len();
    out.reserve(data.len() / row_size);
    let bad = if row_size == 5 { categories_vectorized::<5>(data, out) } else { categories_vectorized::<3>(data, out) };
    if bad {
        out.truncate(start);
        return Err(first_bad_row(data, row_size));
    }
    Ok(())
}

/// Rows per block of [`categories_from_ids_into`] (a vector register of bytes, twice).
const ROWS_PER_BLOCK: usize = 32;

/// [`categories_in_blocks`] compiled for the widest vectors the CPU has: AVX2 (32 rows per
/// instruction, about twice as fast) when the CPU has it, else the baseline's SSE2.
fn categories_vectorized<const N: usize>(data: &[u8], out: &mut Vec<u8>) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2<const N: usize>(data: &[u8], out: &mut Vec<u8>) -> bool {
            categories_in_blocks::<N>(data, out)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above), all `avx2` requires.
            return unsafe { avx2::<N>(data, out) };
        }
    }
    categories_in_blocks::<N>(data, out)
}

/// The categories of `N`-card rows (N = 3 or 5) appended to `out`; true when a row is bad.
#[inline(always)]
fn categories_in_blocks<const N: usize>(data: &[u8], out: &mut Vec<u8>) -> bool {
    let mut bad = 0u8;
    let mut blocks = data.chunks_exact(N * ROWS_PER_BLOCK);
    for block in &mut blocks {
        // Card k of row j at ids[k][j]: the lanes of one row side by side.
        let mut ids = [[0u8; ROWS_PER_BLOCK]; N];
        for (j, row) in block.chunks_exact(N).enumerate() {
            for k in 0..N {
                ids[k][j] = row[k];
            }
        }
        let mut cats = [0u8; ROWS_PER_BLOCK];
        for j in 0..ROWS_PER_BLOCK {
            let (c, b) = category_lane::<N>(std::array::from_fn(|k| ids[k][j]));
            cats[j] = c;
            bad |= b;
        }
        out.extend_from_slice(&cats);
    }
    for row in blocks.remainder().chunks_exact(N) {
        let (c, b) = category_lane::<N>(std::array::from_fn(|k| row[k]));
        out.push(c);
        bad |= b;
    }
    bad != 0
}

/// (category as in [`Category::ALL`], 1 when the ids are not N distinct cards) of one row
/// of N = 3 or 5 card ids, in byte operations only; the category means nothing when bad.
#[inline(always)]
fn category_lane<const N: usize>(ids: [u8; N]) -> (u8, u8) {
    let ranks = ids.map(|id| id >> 2);
    let (mut pairs, mut dup) = (0u8, 0u8);
    for i in 0..N {
        for j in i + 1..N {
            pairs += (ranks[i] == ranks[j]) as u8;
            dup |= (ids[i] == ids[j]) as u8;
        }
    }
    let max_id = ids.iter().fold(0u8, |m, &x| m.max(x));
    let bad = dup | (max_id >= 52) as u8;
    if N == 3 {
        // 0 high card, 1 pair, 3 three of a kind.
        return (if pairs == 3 { Category::ThreeOfAKind as u8 } else { pairs }, bad);
    }
    let max_r = ranks.iter().fold(0u8, |m, &x| m.max(x));
    let min_r = ranks.iter().fold(u8::MAX, |m, &x| m.min(x));
    let sum_r = ranks.iter().fold(0u8, |m, &x| m.wrapping_add(x));
    let flush = ids.iter().fold(0u8, |m, &x| m | (x ^ ids[0])) & 3 == 0;
    // Five distinct ranks (pairs == 0) spanning 4, or A2345 (A, 2 and three more of sum 18).
    let straight = (max_r.wrapping_sub(min_r) == 4) | ((max_r == 12) & (min_r == 0) & (sum_r == 18));
    let unpaired = match (straight, flush) {
        (true, true) => Category::StraightFlush,
        (false, true) => Category::Flush,
        (true, false) => Category::Straight,
        (false, false) => Category::HighCard,
    } as u8;
    let paired = match pairs {
        4 => Category::FullHouse as u8,
        p if p >= 6 => Category::FourOfAKind as u8,
        p => p, // 1 pair, 2 two pair, 3 three of a kind: the category's own index
    };
    (if pairs == 0 { unpaired } else { paired }, bad)
}

/// The error of the first bad row of `data` (one is bad), card by card.
#[cold]
fn first_bad_row(data: &[u8], row_size: usize) -> Error {
    for (i, row) in data.chunks_exact(row_size).enumerate() {
        let mut seen = 0u64;
        for &id in row {
            if id >= 52 || seen & (1u64 << id) != 0 {
                let what = if id >= 52 { format!("card id {id} is out of range 0..51") } else { format!("duplicate card {}", Card(id)) };
                let reason = if id >= 52 { Reason::BadCard } else { Reason::DuplicateCard };
                return Error::field(format!("data[{i}]"), what).because(reason);
            }
            seen |= 1u64 << id;
        }
    }
    unreachable!("a bad row was seen")
}

#[cfg(test)]
mod categories_from_ids_tests {
    use super::*;
    use proptest::prelude::*;

    /// The bulk path's category of every five-card set (in every id order of a sample of
    /// rotations) is the strength table's.
    #[test]
    fn exhaustive_five_card_categories_equal_strength5() {
        let mut data = Vec::with_capacity(2_598_960 * 5);
        let mut want = Vec::with_capacity(2_598_960);
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    for d in c + 1..52 {
                        for e in d + 1..52 {
                            let h = [Card(a), Card(b), Card(c), Card(d), Card(e)];
                            want.push((strength5(&h) >> 20) as u8);
                            // Rotated by the hand's index, so the ids come in varied orders.
                            let mut ids = [a, b, c, d, e];
                            ids.rotate_left(want.len() % 5);
                            if want.len() % 2 == 0 {
                                ids.swap(0, 4);
                            }
                            data.extend_from_slice(&ids);
                        }
                    }
                }
            }
        }
        assert_eq!(categories_from_ids(&data, 5).unwrap(), want);
    }

    #[test]
    fn exhaustive_three_card_categories_equal_strength3() {
        let (mut data, mut want) = (Vec::new(), Vec::new());
        for a in 0..52u8 {
            for b in 0..52u8 {
                for c in 0..52u8 {
                    if a != b && a != c && b != c {
                        data.extend_from_slice(&[a, b, c]);
                        want.push((strength3(&[Card(a), Card(b), Card(c)]) >> 20) as u8);
                    }
                }
            }
        }
        assert_eq!(categories_from_ids(&data, 3).unwrap(), want);
    }

    /// The first bad row, card by card (the definition the fast check must agree with).
    fn reference_error(data: &[u8], row_size: usize) -> Option<(String, String)> {
        for (i, row) in data.chunks_exact(row_size).enumerate() {
            for (k, &id) in row.iter().enumerate() {
                if id >= 52 {
                    return Some((format!("data[{i}]"), format!("card id {id} is out of range 0..51")));
                }
                if row[..k].contains(&id) {
                    return Some((format!("data[{i}]"), format!("duplicate card {}", Card(id))));
                }
            }
        }
        None
    }

    proptest! {
        /// Good rows (some made bad: an id above 51 or a card twice): the error is the
        /// first bad row's, a good request's categories are strength5's / strength3's.
        #[test]
        fn any_bytes_answer_like_the_reference(rows in proptest::collection::vec(Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(), 0..100),
                                               spoil in proptest::collection::vec((any::<prop::sample::Index>(), 0usize..5, prop_oneof![Just(None), (52u8..=255).prop_map(Some)]), 0..3),
                                               three in any::<bool>()) {
            let size = if three { 3 } else { 5 };
            let mut data: Vec<u8> = rows.iter().flat_map(|r| r[..size].to_vec()).collect();
            for (row, k, value) in spoil {
                if !rows.is_empty() {
                    let at = row.index(rows.len()) * size;
                    // None: the card of another position of the row, i.e. a repeat.
                    data[at + k % size] = value.unwrap_or(data[at + (k + 1) % size]);
                }
            }
            let mut out = vec![9u8];
            match (categories_from_ids_into(&data, size, &mut out), reference_error(&data, size)) {
                (Ok(()), None) => {
                    let want: Vec<u8> = std::iter::once(9).chain(data.chunks_exact(size).map(|r| {
                        let s = if three { strength3(&[Card(r[0]), Card(r[1]), Card(r[2])]) } else { strength5(&[Card(r[0]), Card(r[1]), Card(r[2]), Card(r[3]), Card(r[4])]) };
                        (s >> 20) as u8
                    })).collect();
                    prop_assert_eq!(out, want);
                }
                (Err(e), Some((field, message))) => {
                    prop_assert_eq!(e.field.as_deref(), Some(field.as_str()));
                    prop_assert_eq!(e.message, message);
                    prop_assert_eq!(out, vec![9u8]);
                }
                (got, want) => prop_assert!(false, "{:?} vs {:?}", got, want),
            }
        }
    }
}

#[cfg(test)]
mod order_key_tests {
    use super::*;
    use crate::shisanshui::rules::SuitOrder;
    use crate::cards::cards;
    use proptest::prelude::*;

    /// The rule book's order written out: (strength, the suits of the cards in order of
    /// significance when suits break ties), compared lexicographically.
    fn reference(row: &[Card], rules: &Rules) -> (u32, Vec<u8>) {
        let suits = if rules.suit_tiebreak {
            significance_order(row, rules).iter().map(|c| rules.suit_order.0[c.suit() as usize]).collect()
        } else {
            Vec::new()
        };
        (strength(row, rules).unwrap(), suits)
    }

    /// Sorted by the reference, neighbouring keys must rise exactly where the reference
    /// does: then the keys order every pair of rows as the reference does.
    fn check_all(mut rows: Vec<Vec<Card>>, rules: &Rules) {
        let mut keyed: Vec<((u32, Vec<u8>), u64)> = rows.drain(..).map(|r| (reference(&r, rules), order_key(&r, rules).unwrap())).collect();
        keyed.sort();
        for w in keyed.windows(2) {
            assert_eq!(w[0].0.cmp(&w[1].0), w[0].1.cmp(&w[1].1), "{:?} vs {:?}", w[0], w[1]);
        }
    }

    fn rule_sets() -> Vec<Rules> {
        let d = Rules::default();
        vec![
            d.clone(),
            Rules { suit_tiebreak: false, ..d.clone() },
            Rules { a2345: WheelRank::SecondHighest, suit_order: SuitOrder::parse("dchs").unwrap(), ..d },
        ]
    }

    #[test]
    fn exhaustive_three_card_keys_follow_the_rule_book() {
        let mut rows = Vec::new();
        for a in 0..52u8 {
            for b in a + 1..52 {
                for c in b + 1..52 {
                    rows.push(vec![Card(a), Card(b), Card(c)]);
                }
            }
        }
        for rules in rule_sets() {
            check_all(rows.clone(), &rules);
        }
    }

    /// All 2,598,960 five-card rows (default rules and the variant rules: a2345
    /// second-highest with another suit order).
    #[test]
    fn exhaustive_five_card_keys_follow_the_rule_book() {
        for rules in [&rule_sets()[0], &rule_sets()[2]] {
            let mut rows = Vec::with_capacity(2_598_960);
            for a in 0..52u8 {
                for b in a + 1..52 {
                    for c in b + 1..52 {
                        for d in c + 1..52 {
                            for e in d + 1..52 {
                                rows.push(vec![Card(a), Card(b), Card(c), Card(d), Card(e)]);
                            }
                        }
                    }
                }
            }
            check_all(rows, rules);
        }
    }

    #[test]
    fn rows_may_share_cards_and_ties_are_equal_keys() {
        let r = Rules::default();
        let key = |s: &str, r: &Rules| order_key(&cards(s), r).unwrap();
        // The same As in both: compare_rows refuses, a key still ranks them (♠ > ♦ first).
        assert!(key("As Ks Qs Js Ts", &r) > key("As Kd Qd Jd Td", &r));
        assert_eq!(key("As Ks Qs Js Ts", &r), key("Ts Js Qs Ks As", &r));
        let off = Rules { suit_tiebreak: false, ..r.clone() };
        assert_eq!(key("Ks Kd 7h 5c 3c", &off), key("Kh Kc 7s 5d 3d", &off));
        let e = order_keys(&[cards("As Ks Qs Js Ts"), cards("2s 2h 3d")], &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("[1]"));
        let mut twice = cards("4s 4h");
        twice.push(twice[0]);
        let e = order_keys(&[cards("2s 2h 3d"), twice], &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("[1]"));
        assert!(e.message.contains("twice"), "{}", e.message);
        assert_eq!(order_keys(&[], &r).unwrap(), Vec::<u64>::new());
    }

    proptest! {
        /// On two rows of one deck the keys agree with compare_rows, under any rules.
        #[test]
        fn keys_agree_with_compare_rows(ids in proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 10),
                                        five in any::<bool>(), tie in any::<bool>(), wheel_high in any::<bool>(),
                                        order in proptest::sample::select(vec!["shcd", "dchs", "hscd", "cdsh"])) {
            let rules = Rules {
                suit_tiebreak: tie,
                a2345: if wheel_high { WheelRank::SecondHighest } else { WheelRank::Lowest },
                suit_order: SuitOrder::parse(order).unwrap(),
                ..Rules::default()
            };
            let n = if five { 5 } else { 3 };
            let a: Vec<Card> = ids[..n].iter().map(|&i| Card(i)).collect();
            let b: Vec<Card> = ids[5..5 + n].iter().map(|&i| Card(i)).collect();
            let keys = order_keys(&[a.clone(), b.clone()], &rules).unwrap();
            prop_assert_eq!(keys[0].cmp(&keys[1]), compare_rows(&a, &b, &rules).unwrap());
        }
    }
}
