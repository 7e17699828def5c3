//! 特殊牌型, the thirteen special hands of 十三水 (RULES §1.7).

use crate::cards::{Card, CardSet};
use crate::error::{Error, Result};

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
fn san_shunzi(cards: &[Card]) -> Option<[Vec<Card>; 3]> {
    let base = counts(cards).rank;
    let sub = |cnt: &mut [u8; 13], mask: u32| -> bool {
        (0..13).all(|r| mask >> r & 1 == 0 || cnt[r] > 0) && {
            (0..13).for_each(|r| cnt[r] -= (mask >> r & 1) as u8);
            true
        }
    };
    for m1 in straight5_masks() {
        for m2 in straight5_masks() {
            let mut cnt = base;
            if !sub(&mut cnt, m1) || !sub(&mut cnt, m2) {
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
fn san_tonghua(cards: &[Card]) -> Option<[Vec<Card>; 3]> {
    let c = counts(cards);
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

/// Whether 13 cards satisfy one given special (and its split where it has one).
fn satisfies(cards: &[Card], id: SpecialId) -> Option<Option<[Vec<Card>; 3]>> {
    let c = counts(cards);
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
        SpecialId::SanShunzi => san_shunzi(cards).map(Some),
        SpecialId::SanTonghua => san_tonghua(cards).map(Some),
    }
}

fn check13(cards: &[Card]) -> Result<()> {
    if cards.len() != 13 {
        return Err(Error::new(format!("a 十三水 hand has 13 cards, got {}", cards.len())));
    }
    crate::cards::check_distinct(cards)
}

/// The highest special hand the 13 cards satisfy, or None.
pub fn special(cards: &[Card]) -> Result<Option<SpecialHand>> {
    check13(cards)?;
    Ok(SpecialId::BY_STRENGTH
        .iter()
        .find_map(|&id| satisfies(cards, id).map(|split| SpecialHand { id, split })))
}

/// Whether the 13 cards satisfy the condition of one special (RULES 1.7's table), whether
/// or not it is their highest.
pub fn satisfies_special(cards: &[Card], id: SpecialId) -> Result<bool> {
    check13(cards)?;
    Ok(satisfies(cards, id).is_some())
}

/// Verify a declared special (RULES 1.7): a hand's special is the highest one its 13
/// cards make, and only that one can be declared — a 五对三条 hand is never a 六对半.
pub fn verify_special(cards: &[Card], id: SpecialId) -> Result<SpecialHand> {
    let Some(highest) = special(cards)? else {
        return Err(Error::new(format!("the cards do not make the declared special {} ({})", id.id(), id.name_zh())));
    };
    if highest.id == id {
        return Ok(highest);
    }
    if satisfies(cards, id).is_some() {
        return Err(Error::new(format!(
            "the cards make {} ({}), a higher special than the declared {} ({}); a hand's special is the highest one it makes (RULES 1.7)",
            highest.id.id(),
            highest.id.name_zh(),
            id.id(),
            id.name_zh()
        )));
    }
    Err(Error::new(format!(
        "the cards do not make the declared special {} ({}); their special is {} ({})",
        id.id(),
        id.name_zh(),
        highest.id.id(),
        highest.id.name_zh()
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use crate::shisanshui::eval::{strength, Category};
    use crate::shisanshui::Rules;

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
        assert_ne!(sp("2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Qc"), Some(SanTonghuashun)); // back not a straight flush
    }

    #[test]
    fn splits_are_partitions_of_the_right_kind() {
        let r = Rules::default();
        for text in ["2h 3h 4h 5d 6d 7d 8d 9d 7c 8c 9c Tc Jc", "As 2h 3d 5c 6d 7h 8s 9c 9d Tc Jh Qs Kd", "Qh Kh Ah 2d 5d 7d 9d Jd 3c 6c 8c Tc Kc"] {
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
