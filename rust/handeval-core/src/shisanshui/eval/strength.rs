//! Row strength and classification (RULES §1.2–1.3).
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

use crate::cards::Card;
use crate::error::{Error, Reason, Result};
use crate::shisanshui::rules::{Rules, WheelRank};
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
        card_keys[id as usize] = RANK_KEYS[c.rank() as usize] as u64 | 1u64 << (32 + c.rank()) | 1u64 << (48 + 4 * c.suit());
    }
    let mut by_sum = vec![0u32; MAX_KEY_SUM + 1];
    let mut counts = [0u8; 13];
    // Every multiset of five ranks, at most four of each.
    fn walk(from: usize, left: u8, counts: &mut [u8; 13], by_sum: &mut [u32]) {
        if left == 0 {
            let ranks: Vec<u8> = (0..13u8).flat_map(|r| std::iter::repeat_n(r, counts[r as usize] as usize)).collect();
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
    let index = if FIVE_OF_13[mask >> 6] >> (mask & 63) & 1 != 0 { five } else { (k & 0xF_FFFF) as usize };
    t.by_sum[index]
}

/// Bit `m` set when the 13-bit rank mask `m` has five ranks (1,287 of 8,192): one load
/// from a 1 KiB table. `count_ones() == 5` without the CPU's `popcnt` (not in the baseline
/// x86-64 the wheels target) is a generic bit-count sequence, which made [`strength5`]
/// three times slower in a tight loop.
static FIVE_OF_13: [u64; 128] = {
    let mut t = [0u64; 128];
    let mut m = 0;
    while m < 1 << 13 {
        if (m as u32).count_ones() == 5 {
            t[m >> 6] |= 1 << (m & 63);
        }
        m += 1;
    }
    t
};

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
pub(crate) fn strength5_key(card: Card) -> u64 {
    tables().card_keys[card.0 as usize]
}

/// [`strength5`] from the sum of five distinct cards' [`strength5_key`]s.
#[inline]
pub(crate) fn strength5_of_keys(k: u64) -> u32 {
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
#[cfg(any(test, feature = "bench"))]
pub(crate) fn strength5_slot_of_keys(k: u64) -> usize {
    if is_flush_key(k) {
        MAX_KEY_SUM + 1 + ((k >> 32) & 0x1FFF) as usize
    } else {
        (k & 0xF_FFFF) as usize
    }
}

/// The number of slots of [`strength5_slot_of_keys`].
#[cfg(any(test, feature = "bench"))]
pub(crate) const STRENGTH5_SLOTS: usize = MAX_KEY_SUM + 1 + (1 << 13);

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
pub(crate) fn adjust_for_rules(strength: u32, rules: &Rules) -> u32 {
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
pub(crate) fn significance_array(cards: &[Card], rules: &Rules) -> [Card; 5] {
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
pub(crate) fn significance5(cards: &[Card; 5], rules: &Rules, s: u32) -> [Card; 5] {
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
pub(crate) fn significance3(cards: &[Card; 3], rules: &Rules) -> [Card; 3] {
    let counts = rank_counts(cards);
    let mut k = cards.map(|c| significance_key(c, counts, rules));
    for (i, j) in [(1, 2), (0, 2), (0, 1)] {
        cx(&mut k, i, j);
    }
    k.map(key_card)
}

/// `out` in order of significance; `s`: its standard five-card strength (0 for other
/// sizes), which tells whether it is an `A2345` straight.
pub(super) fn sort_by_significance(out: &mut [Card], rules: &Rules, s: u32) {
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
