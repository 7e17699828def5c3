//! 特殊牌型, the thirteen special hands of 十三水 (RULES §1.7).

use crate::cards::{Card, CardSet};
use crate::error::{Error, Reason, Result};

/// The special hands, lowest first (so `Ord` is their strength).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpecialId {
    /// 三同花: three rows, each of one suit.
    SanTonghua,
    /// 三顺子: three rows, each a straight.
    SanShunzi,
    /// 六对半: six pairs and one card.
    LiuDuiBan,
    /// 五对三条: five pairs and one triple.
    WuDuiSantiao,
    /// 四套三条: four triples and one card.
    SiTaoSantiao,
    /// 凑一色: all red or all black.
    CouYiSe,
    /// 全小: every rank 2..8.
    QuanXiao,
    /// 全大: every rank 8..A.
    QuanDa,
    /// 三分天下: three four-of-a-kinds and one card.
    SanFenTianxia,
    /// 三同花顺: three rows, each a straight flush.
    SanTonghuashun,
    /// 十二皇族: every card J, Q, K or A.
    ShierHuangzu,
    /// 一条龙: all thirteen ranks.
    Yitiaolong,
    /// 至尊青龙: all thirteen ranks of one suit.
    ZhizunQinglong,
}

impl SpecialId {
    /// Highest first, the order in which a hand is classified.
    pub const BY_STRENGTH: [SpecialId; 13] = [
        SpecialId::ZhizunQinglong,
        SpecialId::Yitiaolong,
        SpecialId::ShierHuangzu,
        SpecialId::SanTonghuashun,
        SpecialId::SanFenTianxia,
        SpecialId::QuanDa,
        SpecialId::QuanXiao,
        SpecialId::CouYiSe,
        SpecialId::SiTaoSantiao,
        SpecialId::WuDuiSantiao,
        SpecialId::LiuDuiBan,
        SpecialId::SanShunzi,
        SpecialId::SanTonghua,
    ];

    pub fn id(self) -> &'static str {
        match self {
            SpecialId::ZhizunQinglong => "zhizun_qinglong",
            SpecialId::Yitiaolong => "yitiaolong",
            SpecialId::ShierHuangzu => "shier_huangzu",
            SpecialId::SanTonghuashun => "san_tonghuashun",
            SpecialId::SanFenTianxia => "san_fen_tianxia",
            SpecialId::QuanDa => "quan_da",
            SpecialId::QuanXiao => "quan_xiao",
            SpecialId::CouYiSe => "cou_yi_se",
            SpecialId::SiTaoSantiao => "si_tao_santiao",
            SpecialId::WuDuiSantiao => "wu_dui_santiao",
            SpecialId::LiuDuiBan => "liu_dui_ban",
            SpecialId::SanShunzi => "san_shunzi",
            SpecialId::SanTonghua => "san_tonghua",
        }
    }

    pub fn name_zh(self) -> &'static str {
        match self {
            SpecialId::ZhizunQinglong => "至尊青龙",
            SpecialId::Yitiaolong => "一条龙",
            SpecialId::ShierHuangzu => "十二皇族",
            SpecialId::SanTonghuashun => "三同花顺",
            SpecialId::SanFenTianxia => "三分天下",
            SpecialId::QuanDa => "全大",
            SpecialId::QuanXiao => "全小",
            SpecialId::CouYiSe => "凑一色",
            SpecialId::SiTaoSantiao => "四套三条",
            SpecialId::WuDuiSantiao => "五对三条",
            SpecialId::LiuDuiBan => "六对半",
            SpecialId::SanShunzi => "三顺子",
            SpecialId::SanTonghua => "三同花",
        }
    }

    /// Waters the special wins (RULES §1.7).
    pub fn waters(self) -> i64 {
        match self {
            SpecialId::ZhizunQinglong => 108,
            SpecialId::Yitiaolong => 36,
            SpecialId::ShierHuangzu => 24,
            SpecialId::SanTonghuashun | SpecialId::SanFenTianxia => 20,
            SpecialId::QuanDa | SpecialId::QuanXiao | SpecialId::CouYiSe => 10,
            SpecialId::SiTaoSantiao => 6,
            SpecialId::WuDuiSantiao => 5,
            SpecialId::LiuDuiBan | SpecialId::SanShunzi => 4,
            SpecialId::SanTonghua => 3,
        }
    }

    pub fn parse(text: &str) -> Result<SpecialId> {
        SpecialId::BY_STRENGTH.iter().copied().find(|s| s.id() == text).ok_or_else(|| {
            let known: Vec<&str> = SpecialId::BY_STRENGTH.iter().map(|s| s.id()).collect();
            Error::new(format!("unknown special hand {text:?} (known: {})", known.join(", ")))
        })
    }
}

/// A special hand found in 13 cards, with the 3/5/5 split for the specials defined by
/// one (三同花顺, 三顺子, 三同花).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecialHand {
    pub id: SpecialId,
    pub split: Option<[Vec<Card>; 3]>,
}

struct Counts {
    rank: [u8; 13],
    suit: [u8; 4],
    rank_mask: u32,
}

fn counts(cards: &[Card]) -> Counts {
    let mut c = Counts { rank: [0; 13], suit: [0; 4], rank_mask: 0 };
    for card in cards {
        c.rank[card.rank() as usize] += 1;
        c.suit[card.suit() as usize] += 1;
        c.rank_mask |= 1 << card.rank();
    }
    c
}

/// Rank masks of the 5-card straights: `A2345` and `23456` … `TJQKA`.
fn straight5_masks() -> impl Iterator<Item = u32> {
    std::iter::once(1 << 12 | 0b1111).chain((0..9).map(|low| 0b11111 << low))
}

/// Rank masks of the 3-card front straights: `A23` (lowest) … `QKA` (highest).
fn straight3_masks() -> impl Iterator<Item = u32> {
    std::iter::once(1 << 12 | 0b11).chain((0..11).map(|low| 0b111 << low))
}

/// Pick one card of each rank in `mask` from `pool` (lowest suit id first) and remove them.
fn take_ranks(pool: &mut Vec<Card>, mask: u32) -> Vec<Card> {
    let mut out = Vec::new();
    for r in 0..13u8 {
        if mask >> r & 1 == 1 {
            let i = pool.iter().position(|c| c.rank() == r).expect("rank present");
            out.push(pool.remove(i));
        }
    }
    out
}

/// 三顺子: three straights of 3, 5 and 5 cards (ranks only).
fn san_shunzi(cards: &[Card], c: &Counts) -> Option<[Vec<Card>; 3]> {
    let base = c.rank;
    let sub = |cnt: &mut [u8; 13], mask: u32| -> bool {
        (0..13).all(|r| mask >> r & 1 == 0 || cnt[r] > 0) && {
            (0..13).for_each(|r| cnt[r] -= (mask >> r & 1) as u8);
            true
        }
    };
    for m1 in straight5_masks() {
        let mut without_m1 = base;
        if !sub(&mut without_m1, m1) {
            continue;
        }
        for m2 in straight5_masks() {
            let mut cnt = without_m1;
            if !sub(&mut cnt, m2) {
                continue;
            }
            let rest: u32 = (0..13).filter(|&r| cnt[r] == 1).fold(0, |m, r| m | 1 << r);
            if cnt.iter().all(|&c| c <= 1) && straight3_masks().any(|m| m == rest) {
                let mut pool = cards.to_vec();
                let middle = take_ranks(&mut pool, m1);
                let back = take_ranks(&mut pool, m2);
                return Some([pool, middle, back]);
            }
        }
    }
    None
}

/// 三同花顺: three straight flushes of 3, 5 and 5 cards.
fn san_tonghuashun(cards: &[Card]) -> Option<[Vec<Card>; 3]> {
    let set = CardSet::from_cards(cards);
    let suited = |mask: u32, suit: u8| -> u64 { (0..13).filter(|r| mask >> r & 1 == 1).fold(0, |m, r| m | Card::new(r, suit).bit()) };
    let mut fives: Vec<u64> = Vec::new();
    for s in 0..4u8 {
        for m in straight5_masks() {
            let bits = suited(m, s);
            if set.0 & bits == bits {
                fives.push(bits);
            }
        }
    }
    for (i, &a) in fives.iter().enumerate() {
        for &b in &fives[i + 1..] {
            if a & b != 0 {
                continue;
            }
            let rest = set.0 & !a & !b;
            let rest_cards = CardSet(rest).cards();
            let s = rest_cards[0].suit();
            let mask = rest_cards.iter().fold(0u32, |m, c| m | 1 << c.rank());
            if rest_cards.iter().all(|c| c.suit() == s) && straight3_masks().any(|m| m == mask) {
                return Some([rest_cards, CardSet(a).cards(), CardSet(b).cards()]);
            }
        }
    }
    None
}

/// 三同花: rows of 3, 5 and 5 cards, each of one suit.
fn san_tonghua(cards: &[Card], c: &Counts) -> Option<[Vec<Card>; 3]> {
    for fs in 0..4u8 {
        for ms in 0..4u8 {
            for bs in 0..4u8 {
                let mut need = [0u8; 4];
                need[fs as usize] += 3;
                need[ms as usize] += 5;
                need[bs as usize] += 5;
                if need == c.suit {
                    let mut sorted = cards.to_vec();
                    sorted.sort();
                    let mut take = |suit: u8, n: usize| -> Vec<Card> {
                        let mut out = Vec::new();
                        sorted.retain(|c| {
                            if out.len() < n && c.suit() == suit {
                                out.push(*c);
                                false
                            } else {
                                true
                            }
                        });
                        out
                    };
                    let front = take(fs, 3);
                    let middle = take(ms, 5);
                    let back = take(bs, 5);
                    return Some([front, middle, back]);
                }
            }
        }
    }
    None
}

fn pairs_in(cnt: &[u8; 13]) -> u32 {
    cnt.iter().map(|&c| (c / 2) as u32).sum()
}

/// Whether 13 cards (with their `counts`) satisfy one given special (and its split where
/// it has one).
fn satisfies(cards: &[Card], c: &Counts, id: SpecialId) -> Option<Option<[Vec<Card>; 3]>> {
    let yes = |b: bool| if b { Some(None) } else { None };
    match id {
        SpecialId::ZhizunQinglong => yes(c.suit.contains(&13)),
        SpecialId::Yitiaolong => yes(c.rank_mask == 0x1FFF),
        SpecialId::ShierHuangzu => yes(cards.iter().all(|x| x.rank() >= crate::cards::rank::JACK)),
        SpecialId::SanTonghuashun => san_tonghuashun(cards).map(Some),
        SpecialId::SanFenTianxia => yes(c.rank.iter().filter(|&&n| n == 4).count() == 3),
        SpecialId::QuanDa => yes(cards.iter().all(|x| x.rank() >= crate::cards::rank::EIGHT)),
        SpecialId::QuanXiao => yes(cards.iter().all(|x| x.rank() <= crate::cards::rank::EIGHT)),
        SpecialId::CouYiSe => yes(cards.iter().all(|x| x.is_red()) || cards.iter().all(|x| !x.is_red())),
        SpecialId::SiTaoSantiao => yes(c.rank.iter().filter(|&&n| n >= 3).count() == 4),
        SpecialId::WuDuiSantiao => yes((0..13).any(|r| {
            let mut cnt = c.rank;
            cnt[r] >= 3 && {
                cnt[r] -= 3;
                pairs_in(&cnt) >= 5
            }
        })),
        SpecialId::LiuDuiBan => yes(pairs_in(&c.rank) >= 6),
        SpecialId::SanShunzi => san_shunzi(cards, c).map(Some),
        SpecialId::SanTonghua => san_tonghua(cards, c).map(Some),
    }
}

/// Whether the suit counts could be those of rows of 3, 5 and 5 cards, each of one suit:
/// a suit then holds a sum of some of the rows' sizes. Necessary for 三同花 and 三同花顺.
fn suits_fit_rows(c: &Counts) -> bool {
    const SUMS_OF_ROW_SIZES: u32 = 1 | 1 << 3 | 1 << 5 | 1 << 8 | 1 << 10 | 1 << 13;
    c.suit.iter().all(|&n| SUMS_OF_ROW_SIZES >> n & 1 == 1)
}

/// Whether the ranks could be those of three straights of 3, 5 and 5 cards. Necessary for
/// 三顺子 and 三同花顺: a rank is at most once in each row; every rank lies in a straight
/// all of whose ranks the hand holds; a rank held twice or more has a card in the middle
/// or the back, so lies in such a five-card straight.
fn ranks_fit_straights(c: &Counts) -> bool {
    let held = |m: &u32| c.rank_mask & m == *m;
    let in5 = straight5_masks().filter(held).fold(0, |u, m| u | m);
    let in3 = straight3_masks().filter(held).fold(0, |u, m| u | m);
    let multiple = (0..13).filter(|&r| c.rank[r] >= 2).fold(0u32, |m, r| m | 1 << r);
    c.rank.iter().all(|&n| n <= 3) && c.rank_mask & !(in3 | in5) == 0 && multiple & !in5 == 0
}

/// Cheap necessary conditions of the specials that need a search for their split, so
/// [`special`] runs those searches only for the few hands that might succeed.
fn may_satisfy(c: &Counts, id: SpecialId) -> bool {
    match id {
        SpecialId::SanTonghuashun => suits_fit_rows(c) && ranks_fit_straights(c),
        SpecialId::SanShunzi => ranks_fit_straights(c),
        SpecialId::SanTonghua => suits_fit_rows(c),
        _ => true,
    }
}

fn check13(cards: &[Card]) -> Result<()> {
    if cards.len() != crate::cards::HAND_SIZE {
        return Err(
            Error::new(format!("a 十三水 hand has {} cards, got {}", crate::cards::HAND_SIZE, cards.len())).because(Reason::WrongCount)
        );
    }
    crate::cards::check_distinct(cards)
}

/// The highest special hand the 13 cards satisfy, or None.
pub fn special(cards: &[Card]) -> Result<Option<SpecialHand>> {
    check13(cards)?;
    Ok(highest_special(cards.try_into().expect("13 cards")))
}

/// [`special`] of 13 cards known to be distinct (for callers that checked them already).
pub(crate) fn highest_special(cards: &[Card; 13]) -> Option<SpecialHand> {
    let c = counts(cards);
    SpecialId::BY_STRENGTH
        .iter()
        .filter(|&&id| may_satisfy(&c, id))
        .find_map(|&id| satisfies(cards, &c, id).map(|split| SpecialHand { id, split }))
}

/// Whether the 13 cards satisfy the condition of one special (RULES 1.7's table), whether
/// or not it is their highest.
pub fn satisfies_special(cards: &[Card], id: SpecialId) -> Result<bool> {
    check13(cards)?;
    Ok(satisfies(cards, &counts(cards), id).is_some())
}

/// Verify a declared special (RULES 1.7): a hand's special is the highest one its 13
/// cards make, and only that one can be declared — a 五对三条 hand is never a 六对半.
pub fn verify_special(cards: &[Card], id: SpecialId) -> Result<SpecialHand> {
    let Some(highest) = special(cards)? else {
        return Err(
            Error::new(format!("the cards do not make the declared special {} ({})", id.id(), id.name_zh())).because(Reason::Inconsistent)
        );
    };
    if highest.id == id {
        return Ok(highest);
    }
    if satisfies(cards, &counts(cards), id).is_some() {
        return Err(Error::new(format!(
            "the cards make {} ({}), a higher special than the declared {} ({}); a hand's special is the highest one it makes (RULES 1.7)",
            highest.id.id(),
            highest.id.name_zh(),
            id.id(),
            id.name_zh()
        ))
        .because(Reason::Inconsistent));
    }
    Err(Error::new(format!(
        "the cards do not make the declared special {} ({}); their special is {} ({})",
        id.id(),
        id.name_zh(),
        highest.id.id(),
        highest.id.name_zh()
    ))
    .because(Reason::Inconsistent))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use crate::shisanshui::arrange::sim::Rng;
    use crate::shisanshui::eval::{strength, Category};
    use crate::shisanshui::Rules;
    use proptest::prelude::*;

    fn sp(text: &str) -> Option<SpecialId> {
        special(&cards(text)).unwrap().map(|s| s.id)
    }

    #[test]
    fn each_special_and_a_near_miss() {
        use SpecialId::*;
        let cases: &[(&str, Option<SpecialId>)] = &[
            ("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", Some(ZhizunQinglong)),
            ("2s 3h 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", Some(Yitiaolong)),
            ("Js Jh Jd Qs Qh Qd Qc Ks Kh Kd As Ah Ad", Some(ShierHuangzu)),
            ("Js Jh Jd Qs Qh Qd Qc Ks Kh Kd As Ah Td", Some(QuanDa)),
            ("2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Jc", Some(SanTonghuashun)),
            ("2h 2s 2d 2c 5d 5h 5s 5c 9d 9h 9s 9c Jc", Some(SanFenTianxia)),
            ("8h 9s Td Jc Qd Kh As 8s 9c Tc Jd Qs Kc", Some(QuanDa)),
            ("2h 3s 4d 5c 6d 7h 8s 2s 3c 4c 5d 6s 7c", Some(QuanXiao)),
            ("2h 3h 4d 5d 6d 7h 9h Jh Kd Ad Ah Qd 8h", Some(CouYiSe)),
            ("2h 2s 2d 5c 5d 5h 9s 9c 9d Jc Jd Js 3c", Some(SiTaoSantiao)),
            ("2h 2s 2d 5c 5d 7h 7s 9c 9d Jc Jd Ks Kc", Some(WuDuiSantiao)),
            ("2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Kh 3c", Some(LiuDuiBan)),
            ("2s 2h 2d 2c 7s 7h 9c 9d Js Jh Ks Kh 3c", Some(LiuDuiBan)),
            ("As 2h 3d 4c 5d 6h 7s 8c 9d Tc Jh Qs Kd", Some(Yitiaolong)),
            ("As 2h 3d 5c 6d 7h 8s 9c 9d Tc Jh Qs Kd", Some(SanShunzi)),
            ("Qh Kh Ah 2d 5d 7d 9d Jd 3c 6c 8c Tc Kc", Some(SanTonghua)),
        ];
        for (text, want) in cases {
            assert_eq!(sp(text), *want, "{text}");
        }
        // Near misses, one card off.
        assert_eq!(sp("2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Ah 3c"), None); // five pairs only
        assert_eq!(sp("2h 2s 2d 5c 5d 5h 9s 9c 9d Jc Jd Qs 3c"), None); // three triples
        assert_eq!(sp("8h 9s Td Jc Qd Kh As 8s 9c Tc Jd Qs 2c"), None); // a 2 among 8..A
        assert_eq!(sp("2s 3h 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Kh"), None); // no ace
        assert_ne!(sp("2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Qc"), Some(SanTonghuashun));
        // back not a straight flush
    }

    /// The highest special by applying each definition in turn, without `special`'s filter.
    fn by_definitions(hand: &[Card]) -> Option<SpecialHand> {
        let c = counts(hand);
        SpecialId::BY_STRENGTH.iter().find_map(|&id| satisfies(hand, &c, id).map(|split| SpecialHand { id, split }))
    }

    /// `special` finds what the definitions find, and the filter never rules out a special
    /// the hand satisfies (highest or not).
    fn check_filter(hand: &[Card]) {
        assert_eq!(special(hand).unwrap(), by_definitions(hand), "{}", crate::cards::format_cards(hand));
        let c = counts(hand);
        for id in SpecialId::BY_STRENGTH {
            if satisfies(hand, &c, id).is_some() {
                assert!(may_satisfy(&c, id), "{id:?} ruled out: {}", crate::cards::format_cards(hand));
            }
        }
    }

    /// A random hand that satisfies `id` (its definition: the rows, the ranks, the suits).
    fn hand_of(id: SpecialId, rng: &mut Rng) -> Vec<Card> {
        use crate::cards::rank::{EIGHT, JACK};
        use SpecialId::*;
        let suit = |rng: &mut Rng| rng.below(4) as u8;
        // `n` cards of the deck picked by `keep`, at random.
        let some = |rng: &mut Rng, n: usize, keep: &dyn Fn(Card) -> bool| -> Vec<Card> {
            let mut pool: Vec<Card> = (0..52).map(Card).filter(|&c| keep(c)).collect();
            rng.shuffle(&mut pool);
            pool.truncate(n);
            pool
        };
        // One card of each of `ranks` (with repeats), suits at random, until all distinct.
        let of_ranks = |rng: &mut Rng, ranks: &[u8]| -> Vec<Card> {
            loop {
                let h: Vec<Card> = ranks.iter().map(|&r| Card::new(r, suit(rng))).collect();
                if crate::cards::check_distinct(&h).is_ok() {
                    return h;
                }
            }
        };
        let distinct_ranks = |rng: &mut Rng, n: usize| -> Vec<u8> {
            let mut r: Vec<u8> = (0..13).collect();
            rng.shuffle(&mut r);
            r.truncate(n);
            r
        };
        let ranks_of = |mask: u32| (0..13u8).filter(move |r| mask >> r & 1 == 1);
        // Rank masks of a front, a middle and a back straight, at random.
        let straights = |rng: &mut Rng| -> [u32; 3] {
            let pick = |rng: &mut Rng, masks: Vec<u32>| masks[rng.below(masks.len())];
            let front = pick(rng, straight3_masks().collect());
            [front, pick(rng, straight5_masks().collect()), pick(rng, straight5_masks().collect())]
        };
        match id {
            ZhizunQinglong => {
                let s = suit(rng);
                (0..13).map(|r| Card::new(r, s)).collect()
            }
            Yitiaolong => of_ranks(rng, &(0..13).collect::<Vec<u8>>()),
            ShierHuangzu => some(rng, 13, &|c| c.rank() >= JACK),
            QuanDa => some(rng, 13, &|c| c.rank() >= EIGHT),
            QuanXiao => some(rng, 13, &|c| c.rank() <= EIGHT),
            CouYiSe => {
                let red = rng.below(2) == 1;
                some(rng, 13, &|c| c.is_red() == red)
            }
            SanFenTianxia | SiTaoSantiao | WuDuiSantiao | LiuDuiBan => {
                let sizes: &[usize] = match id {
                    SanFenTianxia => &[4, 4, 4, 1],
                    SiTaoSantiao => &[3, 3, 3, 3, 1],
                    WuDuiSantiao => &[3, 2, 2, 2, 2, 2],
                    _ => &[2, 2, 2, 2, 2, 2, 1],
                };
                let ranks = distinct_ranks(rng, sizes.len());
                let mut h = Vec::new();
                for (&r, &n) in ranks.iter().zip(sizes) {
                    let mut suits = [0u8, 1, 2, 3];
                    rng.shuffle(&mut suits);
                    h.extend(suits[..n].iter().map(|&s| Card::new(r, s)));
                }
                h
            }
            SanShunzi => {
                let ranks: Vec<u8> = straights(rng).iter().flat_map(|&m| ranks_of(m)).collect();
                of_ranks(rng, &ranks)
            }
            SanTonghuashun => loop {
                let rows = straights(rng).map(|m| (m, suit(rng)));
                let h: Vec<Card> = rows.iter().flat_map(|&(m, s)| ranks_of(m).map(move |r| Card::new(r, s))).collect();
                if crate::cards::check_distinct(&h).is_ok() {
                    return h;
                }
            },
            SanTonghua => loop {
                let suits = [suit(rng), suit(rng), suit(rng)];
                let mut h = Vec::new();
                for s in 0..4u8 {
                    let n: usize = [3, 5, 5].iter().zip(suits).filter(|&(_, x)| x == s).map(|(n, _)| n).sum();
                    h.extend(some(rng, n, &|c| c.suit() == s));
                }
                if h.len() == 13 {
                    return h;
                }
            },
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn special_is_the_definitions_on_random_hands(
            picked in proptest::sample::subsequence((0u8..52).collect::<Vec<_>>(), 13)
        ) {
            let hand: Vec<Card> = picked.into_iter().map(Card).collect();
            check_filter(&hand);
        }

        /// Hands built to make each special, and near misses: up to three cards changed one
        /// at a time (each step checked), to a random card or to a neighbour (rank ±1, next suit).
        #[test]
        fn special_is_the_definitions_near_each_special(seed in any::<u64>(), which in 0usize..13, change in 0u8..4) {
            let id = SpecialId::BY_STRENGTH[which];
            let mut rng = Rng::new(seed);
            let mut hand = hand_of(id, &mut rng);
            prop_assert!(satisfies_special(&hand, id).unwrap(), "{id:?} not made by {}", crate::cards::format_cards(&hand));
            check_filter(&hand);
            for _ in 0..change {
                let out: Vec<Card> = (0..52).map(Card).filter(|c| !hand.contains(c)).collect();
                let i = rng.below(13);
                let h = hand[i];
                let (r, s) = (h.rank(), h.suit());
                let neighbours = [Card::new((r + 1) % 13, s), Card::new((r + 12) % 13, s), Card::new(r, (s + 1) % 4)];
                let near: Vec<Card> = neighbours.into_iter().filter(|c| out.contains(c)).collect();
                hand[i] = if !near.is_empty() && rng.below(2) == 0 {
                    near[rng.below(near.len())]
                } else {
                    out[rng.below(out.len())]
                };
                check_filter(&hand);
            }
        }
    }

    #[test]
    fn splits_are_partitions_of_the_right_kind() {
        let r = Rules::default();
        for text in
            ["2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Jc", "As 2h 3d 5c 6d 7h 8s 9c 9d Tc Jh Qs Kd", "Qh Kh Ah 2d 5d 7d 9d Jd 3c 6c 8c Tc Kc"]
        {
            let h = special(&cards(text)).unwrap().unwrap();
            let [f, m, b] = h.split.clone().unwrap();
            let mut all: Vec<Card> = f.iter().chain(&m).chain(&b).copied().collect();
            all.sort();
            let mut want = cards(text);
            want.sort();
            assert_eq!(all, want);
            assert_eq!((f.len(), m.len(), b.len()), (3, 5, 5));
            if h.id == SpecialId::SanShunzi {
                assert_eq!(Category::from_strength(strength(&m, &r).unwrap()), Category::Straight);
            }
        }
    }

    #[test]
    fn declared_specials_are_verified() {
        let h = cards("2s 2h 5c 5d 7s 7h 9c 9d Js Jh Ks Kh 3c");
        assert!(verify_special(&h, SpecialId::LiuDuiBan).is_ok());
        let e = verify_special(&h, SpecialId::Yitiaolong).unwrap_err();
        assert!(e.message.contains("yitiaolong"));
        assert!(SpecialId::parse("dragon").is_err());
        // RULES 1.7: only the highest special can be declared.
        let wu = cards("2h 2s 2d 5c 5d 7h 7s 9c 9d Jc Jd Ks Kc");
        assert!(satisfies_special(&wu, SpecialId::LiuDuiBan).unwrap());
        let e = verify_special(&wu, SpecialId::LiuDuiBan).unwrap_err();
        assert!(e.message.contains("wu_dui_santiao") && e.message.contains("higher"), "{e}");
        assert_eq!(verify_special(&wu, SpecialId::WuDuiSantiao).unwrap().id, SpecialId::WuDuiSantiao);
        assert!(special(&cards("2s 2h")).is_err());
    }
}
