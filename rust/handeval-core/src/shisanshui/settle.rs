//! Scoring a 十三水 deal (RULES §1.6) and turning waters into money (RULES §4).

use super::eval::{check_row_sizes, row_value, row_waters, RowValue};
use super::rules::Rules;
use super::special::{verify_special, SpecialHand, SpecialId};
use crate::cards::{check_distinct_across, Card};
use crate::error::{Error, Reason, Result};
use crate::money;
use std::cmp::Ordering;

/// One player's play: an arrangement, or a declared special with its 13 cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hand {
    Rows { front: Vec<Card>, middle: Vec<Card>, back: Vec<Card> },
    Special { id: SpecialId, cards: Vec<Card> },
}

/// How a pair of players was scored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PairKind {
    /// Both arranged normally: three rows compared.
    Rows,
    /// One (or both) fouled: the fouled side loses every row (or 0 between two fouls).
    Foul,
    /// At least one declared a special: specials' waters, no rows compared.
    Special,
}

impl PairKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PairKind::Rows => "rows",
            PairKind::Foul => "foul",
            PairKind::Special => "special",
        }
    }
}

/// The scoring of one pair of seats `a < b`, from `a`'s point of view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub kind: PairKind,
    /// Signed waters of each row (front, middle, back) before doubling, when rows count.
    pub rows: [i64; 3],
    /// +1: `a` scooped `b` (打枪); −1: `b` scooped `a`; 0: nobody.
    pub scoop: i8,
    /// The scooper's 全垒打 doubled this pair.
    pub home_run: bool,
    /// Waters `a` wins from `b` (negative: `a` pays), all bonuses included.
    pub waters: i64,
}

impl PairResult {
    /// The seat that scooped (打枪) the other, if one did.
    pub fn scooper(&self) -> Option<usize> {
        match self.scoop {
            1 => Some(self.a),
            -1 => Some(self.b),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settlement {
    /// Total waters per seat (Σ of the pair results).
    pub waters: Vec<i64>,
    /// `pairwise[i][j]`: waters seat `i` wins from seat `j`.
    pub pairwise: Vec<Vec<i64>>,
    pub fouls: Vec<bool>,
    pub specials: Vec<Option<SpecialHand>>,
    /// Seats that scored a 全垒打.
    pub home_runs: Vec<bool>,
    /// base × waters, before the cap.
    pub theoretical: Vec<i64>,
    /// Money after the cap and the rake.
    pub deltas: Vec<i64>,
    pub rake: i64,
    pub pairs: Vec<PairResult>,
}

enum Play {
    Rows { values: [RowValue; 3], foul: bool },
    Special(SpecialHand),
}

/// The shape of a deal, checked before anything in it is read: 2 to 4 players and, when
/// `carried` is given, one carried-in amount per player.
pub fn check_deal_shape(players: usize, carried: Option<usize>) -> Result<()> {
    if !(2..=4).contains(&players) {
        return Err(Error::field("players", format!("十三水 needs 2 to 4 players, got {players}")).because(Reason::WrongCount));
    }
    match carried {
        Some(n) => money::check_carried_len(n, players),
        None => Ok(()),
    }
}

fn validate(hands: &[Hand], base: i64, carried: Option<&[Option<i64>]>, rules: &Rules) -> Result<Vec<Play>> {
    rules.validate()?;
    check_deal_shape(hands.len(), carried.map(<[_]>::len))?;
    if base <= 0 {
        return Err(Error::field("base", format!("must be a positive integer (got {base})")).because(Reason::OutOfRange));
    }
    let mut groups: Vec<(String, &[Card])> = Vec::new();
    for (i, h) in hands.iter().enumerate() {
        match h {
            Hand::Rows { front, middle, back } => {
                check_row_sizes(front, middle, back).map_err(|e| e.within(&format!("players[{i}]")))?;
                groups.push((format!("players[{i}].front"), front));
                groups.push((format!("players[{i}].middle"), middle));
                groups.push((format!("players[{i}].back"), back));
            }
            Hand::Special { cards, .. } => groups.push((format!("players[{i}].cards"), cards)),
        }
    }
    check_distinct_across(&groups)?;
    hands
        .iter()
        .enumerate()
        .map(|(i, h)| match h {
            Hand::Rows { front, middle, back } => {
                let values = [row_value(front, rules)?, row_value(middle, rules)?, row_value(back, rules)?];
                let foul = values[0].strength > values[1].strength || values[1].strength > values[2].strength;
                if foul && !rules.foul_scoring {
                    return Err(Error::field(
                        format!("players[{i}]"),
                        "the arrangement is fouled (倒水: front ≤ middle ≤ back fails) and foul scoring is off",
                    )
                    .because(Reason::Foul));
                }
                Ok(Play::Rows { values, foul })
            }
            Hand::Special { id, cards } => verify_special(cards, *id).map(Play::Special).map_err(|e| e.within(&format!("players[{i}]"))),
        })
        .collect()
}

/// Special vs special (RULES §1.6): the higher wins its own waters, the same special ties.
#[inline]
pub(crate) fn special_pair(x: SpecialId, y: SpecialId) -> i64 {
    match x.cmp(&y) {
        Ordering::Greater => x.waters(),
        Ordering::Less => -y.waters(),
        Ordering::Equal => 0,
    }
}

/// Two arranged hands, from precomputed full row keys (`RowValue::key`) and the waters
/// each row wins (`row_waters`): signed waters per row and who scooped (+1 `a`, −1 `b`).
/// A fouled side loses every row; two fouled sides score 0. The one place these rules
/// live: [`settle`] explains every number with it, and the arrangement simulations call
/// it allocation-free.
#[inline]
pub(crate) fn rows_pair(ka: &[u64; 3], wa: &[i64; 3], fa: bool, kb: &[u64; 3], wb: &[i64; 3], fb: bool) -> ([i64; 3], i8) {
    if fa && fb {
        return ([0; 3], 0);
    }
    let mut rows = [0i64; 3];
    let (mut wins_a, mut wins_b) = (0, 0);
    for r in 0..3 {
        let ord = if fa {
            Ordering::Less
        } else if fb {
            Ordering::Greater
        } else {
            ka[r].cmp(&kb[r])
        };
        rows[r] = match ord {
            Ordering::Greater => {
                wins_a += 1;
                wa[r]
            }
            Ordering::Less => {
                wins_b += 1;
                -wb[r]
            }
            Ordering::Equal => 0,
        };
    }
    (
        rows,
        if wins_a == 3 {
            1
        } else if wins_b == 3 {
            -1
        } else {
            0
        },
    )
}

fn keys_and_waters(values: &[RowValue; 3]) -> ([u64; 3], [i64; 3]) {
    (
        [values[0].key, values[1].key, values[2].key],
        [row_waters(0, values[0].category()), row_waters(1, values[1].category()), row_waters(2, values[2].category())],
    )
}

/// Score the pair (a, b) before any 全垒打: (kind, signed rows, scoop, waters for a).
fn score_pair(pa: &Play, pb: &Play) -> (PairKind, [i64; 3], i8, i64) {
    match (pa, pb) {
        (Play::Special(x), Play::Special(y)) => (PairKind::Special, [0; 3], 0, special_pair(x.id, y.id)),
        (Play::Special(x), _) => (PairKind::Special, [0; 3], 0, x.id.waters()),
        (_, Play::Special(y)) => (PairKind::Special, [0; 3], 0, -y.id.waters()),
        (Play::Rows { values: va, foul: fa }, Play::Rows { values: vb, foul: fb }) => {
            let ((ka, wa), (kb, wb)) = (keys_and_waters(va), keys_and_waters(vb));
            let (rows, scoop) = rows_pair(&ka, &wa, *fa, &kb, &wb, *fb);
            let sum: i64 = rows.iter().sum();
            let kind = if *fa || *fb { PairKind::Foul } else { PairKind::Rows };
            (kind, rows, scoop, if scoop != 0 { sum * 2 } else { sum })
        }
    }
}

/// Score a deal: waters per pair and seat, then `base ×` waters, the cap (when `carried`
/// is given) and the rake of the rules. Exactly zero-sum: Σ deltas + rake = 0.
pub fn settle(hands: &[Hand], base: i64, carried: Option<&[Option<i64>]>, rules: &Rules) -> Result<Settlement> {
    let plays = validate(hands, base, carried, rules)?;
    let n = plays.len();
    let mut pairs = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            let (kind, rows, scoop, waters) = score_pair(&plays[a], &plays[b]);
            pairs.push(PairResult { a, b, kind, rows, scoop, home_run: false, waters });
        }
    }
    // 全垒打: a seat that scooped every other seat, with enough opponents.
    let mut home_runs = vec![false; n];
    if (n - 1) as u32 >= rules.home_run_min_opponents {
        for (s, hr) in home_runs.iter_mut().enumerate() {
            *hr = pairs.iter().filter(|p| (p.a == s && p.scoop == 1) || (p.b == s && p.scoop == -1)).count() == n - 1;
        }
        for p in pairs.iter_mut() {
            if (p.scoop == 1 && home_runs[p.a]) || (p.scoop == -1 && home_runs[p.b]) {
                p.home_run = true;
                p.waters *= 2;
            }
        }
    }
    let mut pairwise = vec![vec![0i64; n]; n];
    for p in &pairs {
        pairwise[p.a][p.b] = p.waters;
        pairwise[p.b][p.a] = -p.waters;
    }
    let waters: Vec<i64> = pairwise.iter().map(|row| row.iter().sum()).collect();
    let theoretical = waters.iter().map(|&w| money::mul(base, w, "base × waters")).collect::<Result<Vec<_>>>()?;
    let capped = match carried {
        Some(c) => money::cap(&theoretical, c)?,
        None => theoretical.clone(),
    };
    let (deltas, rake) = money::rake(&capped, rules.rake_percent)?;
    Ok(Settlement {
        waters,
        pairwise,
        fouls: plays.iter().map(|p| matches!(p, Play::Rows { foul: true, .. })).collect(),
        specials: plays.into_iter().map(|p| if let Play::Special(s) = p { Some(s) } else { None }).collect(),
        home_runs,
        theoretical,
        deltas,
        rake,
        pairs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::cards;
    use proptest::prelude::*;

    fn rows(f: &str, m: &str, b: &str) -> Hand {
        Hand::Rows { front: cards(f), middle: cards(m), back: cards(b) }
    }

    fn seed_players() -> Vec<Hand> {
        vec![
            rows("Qs Qh Qd", "2h 5h 7h 9h Jh", "Ks Kh Kd 4s 4h"),
            rows("2s 3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac"),
            rows("3s 3h 6d", "5s 5d 8s 8c Qc", "6s 7s 8h 9d Ts"),
            rows("2d 3c 4d", "Th Tc Jd 7d 9c", "As Ah Ad Js 6h"),
        ]
    }

    #[test]
    fn seed_scoop_home_run_and_three_players() {
        let r = Rules::default();
        let p = seed_players();
        assert_eq!(settle(&p[..2], 1, None, &r).unwrap().waters, vec![10, -10]);
        let s = settle(&p, 1, None, &r).unwrap();
        assert_eq!(s.pairwise[0], vec![0, 20, 20, 20]);
        assert_eq!(s.waters, vec![60, -13, -15, -32]);
        assert!(s.home_runs[0]);
        assert_eq!(settle(&p[..3], 1, None, &r).unwrap().waters, vec![20, -9, -11]);
    }

    #[test]
    fn fouls_and_specials() {
        let r = Rules::default();
        let foul = rows("Ks Kh Kd", "2h 3h 4d 6d 8s", "Qs Qh 9d 9c 5s"); // trips front over high card middle
        let normal = rows("2s 3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac");
        let s = settle(&[foul.clone(), normal.clone()], 1, None, &r).unwrap();
        assert_eq!(s.fouls, vec![true, false]);
        // normal wins front 1, middle (straight) 1, back (flush) 1, scooped ×2.
        assert_eq!(s.waters, vec![-6, 6]);
        let special = Hand::Special { id: SpecialId::LiuDuiBan, cards: cards("As Ah 3s 3c 4s 4h 5h 5d 6s 6h 7s 7h 8h") };
        let s = settle(&[foul, normal, special], 1, None, &r).unwrap();
        assert_eq!(s.pairwise[2], vec![4, 4, 0]);
        assert!(!s.home_runs.iter().any(|&h| h));
        let off = Rules { foul_scoring: false, ..Rules::default() };
        let e = settle(&seed_foul(), 1, None, &off).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("players[0]"));
    }

    #[test]
    fn only_the_highest_special_can_be_declared() {
        // RULES 1.7: a 五对三条 declared as 六对半 against a real 六对半 tied 0.
        let r = Rules::default();
        let wu = cards("2h 2s 2d 5c 5d 7h 7s 9c 9d Jc Jd Ks Kc");
        let liu = Hand::Special { id: SpecialId::LiuDuiBan, cards: cards("3s 3h 4c 4d 6s 6h 8c 8d Ts Th Qs Qh Ah") };
        let low = Hand::Special { id: SpecialId::LiuDuiBan, cards: wu.clone() };
        let e = settle(&[low, liu.clone()], 1, None, &r).unwrap_err();
        assert_eq!(e.field.as_deref(), Some("players[0]"));
        assert!(e.message.contains("wu_dui_santiao"), "{e}");
        let high = Hand::Special { id: SpecialId::WuDuiSantiao, cards: wu };
        assert_eq!(settle(&[high, liu], 1, None, &r).unwrap().waters, vec![5, -5]);
    }

    fn seed_foul() -> Vec<Hand> {
        vec![rows("Ks Kh Kd", "2h 3h 4d 6d 8s", "Qs Qh 9d 9c 5s"), rows("2s 3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac")]
    }

    #[test]
    fn bad_input_names_the_field() {
        let r = Rules::default();
        let p = seed_players();
        assert!(settle(&p[..1], 1, None, &r).unwrap_err().message.contains("2 to 4"));
        assert!(settle(&p[..2], -1, None, &r).unwrap_err().to_string().contains("base"));
        let dup = vec![p[0].clone(), rows("Qs 3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac")];
        let e = settle(&dup, 1, None, &r).unwrap_err();
        assert!(e.message.contains("Qs") && e.to_string().contains("players[0].front"), "{}", e.message);
        let short = vec![p[0].clone(), rows("3d 5c", "6c 7c 8d 9s Td", "2c 4c Jc Kc Ac")];
        assert_eq!(settle(&short, 1, None, &r).unwrap_err().field.as_deref(), Some("players[1].front"));
        let wrong = vec![p[0].clone(), Hand::Special { id: SpecialId::Yitiaolong, cards: cards("2s 3d 5c 6c 7c 8d 9s Td 2c 4c Jc Kc Ac") }];
        assert!(settle(&wrong, 1, None, &r).unwrap_err().to_string().starts_with("players[1]"));
        assert!(settle(&p[..2], i64::MAX, None, &r).unwrap_err().message.contains("overflow"));
    }

    fn deal(ids: &[u8], n: usize, specials: &[bool]) -> Vec<Hand> {
        (0..n)
            .map(|i| {
                let c: Vec<Card> = ids[i * 13..i * 13 + 13].iter().map(|&x| Card(x)).collect();
                match (specials[i], crate::shisanshui::special(&c).unwrap()) {
                    (true, Some(s)) => Hand::Special { id: s.id, cards: c },
                    _ => Hand::Rows { front: c[..3].to_vec(), middle: c[3..8].to_vec(), back: c[8..].to_vec() },
                }
            })
            .collect()
    }

    proptest! {
        #[test]
        fn zero_sum_for_any_deal(
            ids in Just((0u8..52).collect::<Vec<_>>()).prop_shuffle(),
            n in 2usize..=4,
            base in 1i64..1000,
            carried in proptest::collection::vec(proptest::option::of(0i64..5000), 4),
            specials in proptest::collection::vec(any::<bool>(), 4),
            rake in 0u32..10,
        ) {
            let r = Rules { rake_percent: rake, ..Rules::default() };
            let s = settle(&deal(&ids, n, &specials), base, Some(&carried[..n]), &r).unwrap();
            prop_assert_eq!(s.waters.iter().sum::<i64>(), 0);
            prop_assert_eq!(s.deltas.iter().sum::<i64>() + s.rake, 0);
            for i in 0..n {
                for j in 0..n { prop_assert_eq!(s.pairwise[i][j], -s.pairwise[j][i]); }
                if let Some(c) = carried[i] { prop_assert!(s.deltas[i].abs() <= c); }
            }
        }
    }
}
