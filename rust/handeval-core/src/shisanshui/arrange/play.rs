//! The simulations' deals and scorer: a seeded generator, and an allocation-free scorer
//! for the inner loops.
//!
//! The scorer [`Play`]/[`seat_waters`] applies the pair rules of
//! [`settle`](crate::shisanshui::settle) (its `rows_pair` and `special_pair`) to
//! precomputed row keys, because the simulations score millions of pairs and `settle`
//! validates and allocates on every call; a property test checks it against `settle`.

#[cfg(any(test, feature = "train"))]
use crate::cards::Card;
use crate::error::Result;
use crate::shisanshui::eval::{row_value, row_waters};
use crate::shisanshui::rules::Rules;
use crate::shisanshui::settle::{rows_pair, special_pair, Hand};
use crate::shisanshui::special::SpecialId;

/// SplitMix64: small, seedable, reproducible on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    #[cfg(any(test, feature = "train"))]
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// A generator for item `index` of a stream: independent of thread scheduling.
    pub fn for_item(seed: u64, stream: u64, index: u64) -> Rng {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
        r.0 = r.next_u64() ^ index.wrapping_mul(0xE703_7ED1_A0B4_28DB);
        r
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            xs.swap(i, self.below(i + 1));
        }
    }
}

/// A shuffled deck.
#[cfg(any(test, feature = "train"))]
pub fn deck(rng: &mut Rng) -> Vec<Card> {
    let mut d: Vec<Card> = (0..52).map(Card).collect();
    rng.shuffle(&mut d);
    d
}

/// One seat's play, ready for fast scoring.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Play {
    Special(SpecialId),
    Rows { key: [u64; 3], win: [i64; 3], foul: bool },
}

impl Play {
    pub fn from_hand(hand: &Hand, rules: &Rules) -> Result<Play> {
        Ok(match hand {
            Hand::Special { id, .. } => Play::Special(*id),
            Hand::Rows { front, middle, back } => {
                let v = [row_value(front, rules)?, row_value(middle, rules)?, row_value(back, rules)?];
                Play::rows([v[0].key, v[1].key, v[2].key])
            }
        })
    }

    /// From full row keys (strength << 10 | suits, see `RowValue`).
    pub fn rows(key: [u64; 3]) -> Play {
        let cat = |k: u64| super::super::eval::Category::from_strength((k >> 10) as u32);
        let s = |k: u64| k >> 10;
        Play::Rows {
            key,
            win: [row_waters(0, cat(key[0])), row_waters(1, cat(key[1])), row_waters(2, cat(key[2]))],
            foul: s(key[0]) > s(key[1]) || s(key[1]) > s(key[2]),
        }
    }
}

/// Waters `a` wins from `b` (scoop doubling included, no 全垒打) and the scoop sign:
/// the pair rules of `settle` (`special_pair`, `rows_pair`) on precomputed keys.
#[inline]
pub fn pair(a: &Play, b: &Play) -> (i64, i8) {
    match (a, b) {
        (Play::Special(x), Play::Special(y)) => (special_pair(*x, *y), 0),
        (Play::Special(x), _) => (x.waters(), 0),
        (_, Play::Special(y)) => (-y.waters(), 0),
        (Play::Rows { key: ka, win: wa, foul: fa }, Play::Rows { key: kb, win: wb, foul: fb }) => {
            let (rows, scoop) = rows_pair(ka, wa, *fa, kb, wb, *fb);
            let sum = rows[0] + rows[1] + rows[2];
            (if scoop != 0 { sum * 2 } else { sum }, scoop)
        }
    }
}

/// Total waters of every seat (RULES §1.6), equal to `settle(..).waters`.
#[cfg(any(test, feature = "train"))]
pub fn seat_waters(plays: &[Play], rules: &Rules) -> Vec<i64> {
    let n = plays.len();
    let mut w = vec![vec![0i64; n]; n];
    let mut scoops = vec![0usize; n];
    for a in 0..n {
        for b in a + 1..n {
            let (x, s) = pair(&plays[a], &plays[b]);
            w[a][b] = x;
            w[b][a] = -x;
            match s {
                1 => scoops[a] += 1,
                -1 => scoops[b] += 1,
                _ => {}
            }
        }
    }
    if (n - 1) as u32 >= rules.home_run_min_opponents {
        // 全垒打: every pair of a seat that scooped all the others doubles again.
        let home: Vec<bool> = scoops.iter().map(|&s| s == n - 1).collect();
        for (a, row) in w.iter_mut().enumerate() {
            for (b, x) in row.iter_mut().enumerate() {
                if a != b && (home[a] || home[b]) {
                    *x *= 2;
                }
            }
        }
    }
    w.iter().map(|row| row.iter().sum()).collect()
}

/// Seat 0's exact waters for many candidate plays against fixed opponents: precomputes
/// the opponents' scoops of one another (their 全垒打 needs them) once.
pub(crate) struct Table<'a> {
    opps: &'a [Play],
    /// Opponent j scooped every other opponent.
    scoops_others: Vec<bool>,
    home_runs: bool,
}

impl<'a> Table<'a> {
    pub(crate) fn new(opps: &'a [Play], rules: &Rules) -> Table<'a> {
        let n = opps.len();
        let scoops_others = (0..n).map(|j| (0..n).filter(|&k| k != j).all(|k| pair(&opps[j], &opps[k]).1 == 1)).collect();
        Table { opps, scoops_others, home_runs: n as u32 >= rules.home_run_min_opponents }
    }

    #[inline]
    pub(crate) fn score(&self, me: &Play) -> i64 {
        let (mut total, mut mine) = (0i64, 0usize);
        let mut extra = 0i64;
        for (j, o) in self.opps.iter().enumerate() {
            let (x, s) = pair(me, o);
            total += x;
            if s == 1 {
                mine += 1;
            } else if s == -1 && self.home_runs && self.scoops_others[j] {
                extra += x; // their 全垒打 doubles what I pay them
            }
        }
        if self.home_runs && mine == self.opps.len() {
            extra += total; // my 全垒打 doubles every pair
        }
        total + extra
    }
}
