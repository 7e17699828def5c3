//! Per-row win-probability tables and the expected-waters model built on them.
//!
//! The *tables* ([`Tables`]) are raw counts from simulated deals in which every player
//! arranges with the solver: how often an opponent's front / middle / back had each rank
//! class (7,462 five-card classes, 455 three-card classes), how often an opponent declared
//! each special, and how many of its three opponents a player scooped. They do not depend
//! on the house rules, so one file serves every rule set.
//!
//! The *model* ([`Model`]) turns the counts into, per row and per class of my row, the
//! probability that I win / lose the row against one opponent and the expected waters I
//! pay when I lose it (the opponent's own row waters, RULES §1.5), under the given rules
//! (the `A2345` variant reorders straights; with suit tie-break off an equal class is a
//! tie, on it is a coin flip).

use super::super::eval::{adjust_for_rules, row_waters, Category};
use super::super::rules::Rules;
use super::super::special::SpecialId;
use super::classes::{classes, Five};
use super::counting_sort::sort_bin;
use super::rank_tables::classes5_by_multiset;
use super::splits::pow;
use crate::error::{Error, Result};
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"SSWARR1\n";

/// Raw counts from a simulation (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// Training iteration that produced these counts (0: opponents used the greedy arranger).
    pub iteration: u32,
    pub seed: u64,
    /// Hands observed (normal + declared specials).
    pub hands: u64,
    /// Class counts of normal players' rows: front (455), middle (7,462), back (7,462).
    pub rows: [Vec<u64>; 3],
    /// Declared specials, indexed by `SpecialId as usize` (lowest first).
    pub specials: [u64; 13],
    /// `scoops[m]`: normal players in 4-player deals who scooped exactly `m` opponents.
    pub scoops: [u64; 4],
}

impl Tables {
    pub fn empty(iteration: u32, seed: u64) -> Tables {
        Tables {
            iteration,
            seed,
            hands: 0,
            rows: [vec![0; classes(3).len()], vec![0; classes(5).len()], vec![0; classes(5).len()]],
            specials: [0; 13],
            scoops: [0; 4],
        }
    }

    #[cfg(any(test, feature = "train"))]
    pub fn merge(&mut self, other: &Tables) {
        self.hands += other.hands;
        for r in 0..3 {
            for (a, b) in self.rows[r].iter_mut().zip(&other.rows[r]) {
                *a += b;
            }
        }
        for i in 0..13 {
            self.specials[i] += other.specials[i];
        }
        for i in 0..4 {
            self.scoops[i] += other.scoops[i];
        }
    }

    /// Every count halved (rounded down): the decay of training.
    #[cfg(any(test, feature = "train"))]
    pub fn halved(&self) -> Tables {
        let mut t = self.clone();
        t.hands /= 2;
        t.rows.iter_mut().flatten().for_each(|c| *c /= 2);
        t.specials.iter_mut().for_each(|c| *c /= 2);
        t.scoops.iter_mut().for_each(|c| *c /= 2);
        t
    }

    /// Little-endian: magic, iteration u32, seed u64, hands u64, then the three row
    /// histograms (length u32 + u32 counts), 13 special counts, 4 scoop counts (u32).
    #[cfg(any(test, feature = "train"))]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(self.iteration.to_le_bytes());
        out.extend(self.seed.to_le_bytes());
        out.extend(self.hands.to_le_bytes());
        let u32s = |out: &mut Vec<u8>, xs: &[u64]| {
            for &x in xs {
                out.extend(u32::try_from(x).expect("count fits in u32").to_le_bytes());
            }
        };
        for row in &self.rows {
            out.extend((row.len() as u32).to_le_bytes());
            u32s(&mut out, row);
        }
        u32s(&mut out, &self.specials);
        u32s(&mut out, &self.scoops);
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Tables> {
        let bad = |what: &str| Error::field("tables", format!("not an arrangement table file ({what})"));
        if bytes.len() < 28 || &bytes[..8] != MAGIC {
            return Err(bad("bad header"));
        }
        let mut pos = 8;
        let mut take = |n: usize| -> Result<&[u8]> {
            let s = bytes.get(pos..pos + n).ok_or_else(|| bad("truncated"))?;
            pos += n;
            Ok(s)
        };
        let u32_ = |s: &[u8]| u32::from_le_bytes(s.try_into().unwrap()) as u64;
        let iteration = u32_(take(4)?) as u32;
        let seed = u64::from_le_bytes(take(8)?.try_into().unwrap());
        let hands = u64::from_le_bytes(take(8)?.try_into().unwrap());
        let mut t = Tables::empty(iteration, seed);
        t.hands = hands;
        for r in 0..3 {
            let n = u32_(take(4)?) as usize;
            if n != t.rows[r].len() {
                return Err(bad("wrong class count"));
            }
            for i in 0..n {
                t.rows[r][i] = u32_(take(4)?);
            }
        }
        for i in 0..13 {
            t.specials[i] = u32_(take(4)?);
        }
        for i in 0..4 {
            t.scoops[i] = u32_(take(4)?);
        }
        if take(1).is_ok() {
            return Err(bad("trailing bytes"));
        }
        if t.rows[0].iter().sum::<u64>() == 0 {
            return Err(bad("no observations"));
        }
        Ok(t)
    }

    /// The shipped tables (the last training iteration), embedded in the crate.
    pub fn shipped() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| Tables::from_bytes(include_bytes!("data/tables.bin")).expect("shipped arrangement tables"))
    }

    /// Iteration-0 tables (opponents arranged greedily), kept as the baseline of the
    /// quality benchmark (feature `bench`) and checked by the tests.
    #[cfg(any(test, feature = "bench"))]
    pub fn iteration0() -> &'static Tables {
        static T: OnceLock<Tables> = OnceLock::new();
        T.get_or_init(|| Tables::from_bytes(include_bytes!("data/tables_iter0.bin")).expect("iteration-0 arrangement tables"))
    }

    /// Largest gap between the two tables' cumulative row distributions (Kolmogorov–
    /// Smirnov distance, max over the three rows): the convergence measure of training.
    #[cfg(any(test, feature = "train"))]
    pub fn distance(&self, other: &Tables) -> f64 {
        (0..3)
            .map(|r| {
                let (na, nb) = (self.rows[r].iter().sum::<u64>() as f64, other.rows[r].iter().sum::<u64>() as f64);
                let (mut ca, mut cb, mut d) = (0.0f64, 0.0f64, 0.0f64);
                for (a, b) in self.rows[r].iter().zip(&other.rows[r]) {
                    ca += *a as f64 / na;
                    cb += *b as f64 / nb;
                    d = d.max((ca - cb).abs());
                }
                d
            })
            .fold(0.0, f64::max)
    }
}

/// One row's view of one opponent for one class of my row.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub(crate) struct RoleValue {
    /// P(I win the row).
    pub win: f64,
    /// P(I lose the row).
    pub lose: f64,
    /// E[waters I pay on this row · 1{I lose it}].
    pub lose_waters: f64,
    /// Waters I win with this class (RULES §1.5).
    pub my_waters: f64,
    /// win · my_waters − lose_waters: the row's expected waters before scoops.
    pub row: f64,
}

/// Expected-waters model for the given rules, from [`Tables`].
#[derive(Clone, Debug)]
pub struct Model {
    /// Per row, per standard class index (one struct per class: one cache line per lookup).
    pub(crate) rows: [Vec<RoleValue>; 3],
    /// P(an opponent declares a special).
    pub(crate) p_special: f64,
    /// P(an opponent declares each special), indexed by `SpecialId as usize`.
    pub(crate) special_dist: [f64; 13],
    /// `hr_cond[k]`: P(a player scoops k other given opponents | it scooped me).
    pub(crate) hr_cond: [f64; 3],
    /// Rank of each five-card class in the order of these rules (0 = weakest): a
    /// 13-bit sort key (`A2345` may move straights). Read by the previous search only.
    #[cfg(any(test, feature = "bench"))]
    pub(crate) rank5: Vec<u16>,
    /// Strength under these rules of each five-card class. Read by the previous search only.
    #[cfg(any(test, feature = "bench"))]
    pub(crate) strength5: Vec<u32>,
    /// Per rank multiset of five cards (the index of `rank_tables::classes5_by_multiset`, not
    /// suited below 2^13, all one suit from 2^13), its class, sort bin and `strength5`
    /// side by side: the search's per-subset loop reads one entry per subset.
    pub(crate) by_multiset5: Box<[Five; 1 << 14]>,
    /// Per five-card class, the first three-card class (in strength order) stronger than
    /// it under these rules: the fronts a middle of that class can have are those below.
    pub(crate) fronts_below5: Vec<u16>,
    pub(crate) rules: Rules,
}

impl Model {
    pub fn new(tables: &Tables, rules: &Rules) -> Model {
        let tie = if rules.suit_tiebreak { 0.5 } else { 0.0 };
        let build = |r: usize| {
            let len = if r == 0 { 3 } else { 5 };
            let cls = classes(len);
            let counts = &tables.rows[r];
            let total: f64 = counts.iter().sum::<u64>() as f64;
            // Order classes by their strength under these rules (A2345 may move).
            let mut order: Vec<usize> = (0..cls.len()).collect();
            order.sort_by_key(|&i| adjust_for_rules(cls[i], rules));
            let n = cls.len();
            let (mut win, mut lose, mut lose_waters) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
            let waters = |i: usize| row_waters(r, Category::from_strength(cls[i])) as f64;
            let all_w: f64 = (0..n).map(|i| counts[i] as f64 * waters(i)).sum();
            let (mut below, mut below_w) = (0.0, 0.0);
            for &i in &order {
                let c = counts[i] as f64;
                win[i] = (below + tie * c) / total;
                lose[i] = (total - below - c + tie * c) / total;
                lose_waters[i] = (all_w - below_w - c * waters(i) + tie * c * waters(i)) / total;
                below += c;
                below_w += c * waters(i);
            }
            (0..n)
                .map(|i| RoleValue {
                    win: win[i],
                    lose: lose[i],
                    lose_waters: lose_waters[i],
                    my_waters: waters(i),
                    row: win[i] * waters(i) - lose_waters[i],
                })
                .collect::<Vec<_>>()
        };
        let hands = tables.hands.max(1) as f64;
        let special_dist: [f64; 13] = std::array::from_fn(|i| tables.specials[i] as f64 / hands);
        let s = &tables.scoops;
        let players = s.iter().sum::<u64>().max(1) as f64;
        // m scooped out of 3: P(scoops me) = E[m]/3, P(scoops me and k specific others)
        // = E[C(m, k+1)] / C(3, k+1).
        let e = |f: fn(f64) -> f64| (0..4).map(|m| s[m] as f64 * f(m as f64)).sum::<f64>() / players;
        let p1 = e(|m| m) / 3.0;
        let p2 = e(|m| m * (m - 1.0) / 2.0) / 3.0;
        let p3 = e(|m| m * (m - 1.0) * (m - 2.0) / 6.0);
        let hr_cond = if p1 > 0.0 { [1.0, p2 / p1, p3 / p1] } else { [1.0, 0.0, 0.0] };
        let mut rank5 = vec![0u16; classes(5).len()];
        let mut order: Vec<usize> = (0..rank5.len()).collect();
        order.sort_by_key(|&i| adjust_for_rules(classes(5)[i], rules));
        for (r, &i) in order.iter().enumerate() {
            rank5[i] = r as u16;
        }
        let strength5: Vec<u32> = classes(5).iter().map(|&c| adjust_for_rules(c, rules)).collect();
        let by_multiset5 = classes5_by_multiset()
            .iter()
            .map(|&c| match c {
                u16::MAX => Five { class: 0, bin: 0, strength: 0 }, // no such multiset (never read)
                c => Five { class: c, bin: sort_bin(rank5[c as usize]), strength: strength5[c as usize] },
            })
            .collect::<Vec<Five>>()
            .into_boxed_slice()
            .try_into()
            .expect("2^14 entries");
        let fronts_below5 = strength5.iter().map(|&s| classes(3).partition_point(|&f| f <= s) as u16).collect();
        Model {
            rows: [build(0), build(1), build(2)],
            fronts_below5,
            #[cfg(any(test, feature = "bench"))]
            rank5,
            #[cfg(any(test, feature = "bench"))]
            strength5,
            by_multiset5,
            p_special: special_dist.iter().sum(),
            special_dist,
            hr_cond,
            rules: rules.clone(),
        }
    }

    /// The model of the shipped tables under `rules`, cached (building one sorts 15,379
    /// classes: about a millisecond, longer than an `arrange` call).
    pub fn for_rules(rules: &Rules) -> std::sync::Arc<Model> {
        use std::sync::{Arc, Mutex};
        static CACHE: Mutex<Vec<(Rules, Arc<Model>)>> = Mutex::new(Vec::new());
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, m)) = cache.iter().find(|(r, _)| r == rules) {
            return m.clone();
        }
        let m = Arc::new(Model::new(Tables::shipped(), rules));
        if cache.len() >= 16 {
            cache.remove(0);
        }
        cache.push((rules.clone(), m.clone()));
        m
    }

    /// Expected waters per opponent that I lose to declared specials while I arrange normally.
    pub(crate) fn special_loss(&self) -> f64 {
        SpecialId::BY_STRENGTH.iter().map(|&id| self.special_dist[id as usize] * id.waters() as f64).sum()
    }

    /// Expected waters of declaring special `id` against `n` opponents.
    pub fn special_expected(&self, id: SpecialId, n: usize) -> f64 {
        let mut per = (1.0 - self.p_special) * id.waters() as f64;
        for &other in SpecialId::BY_STRENGTH.iter() {
            let p = self.special_dist[other as usize];
            per += p * match id.cmp(&other) {
                std::cmp::Ordering::Greater => id.waters() as f64,
                std::cmp::Ordering::Less => -(other.waters() as f64),
                std::cmp::Ordering::Equal => 0.0,
            };
        }
        per * n as f64
    }
}

/// The expectation of a split under the model (the formula of docs/arrange.md): the one
/// definition, which the search, and the earlier searches it is checked against, share.
pub(super) struct Ev<'a> {
    pub(super) model: &'a Model,
    q: f64,
    special_loss: f64,
    nf: f64,
    n: usize,
    home_run: bool,
    hr_cond: f64,
}

impl<'a> Ev<'a> {
    pub(super) fn new(model: &'a Model, n: usize) -> Ev<'a> {
        Ev {
            model,
            q: 1.0 - model.p_special,
            special_loss: model.special_loss(),
            nf: n as f64,
            n,
            home_run: n as u32 >= model.rules.home_run_min_opponents,
            hr_cond: model.hr_cond[n - 1],
        }
    }

    #[inline(always)]
    pub(super) fn role(&self, row: usize, class: u16) -> &RoleValue {
        &self.model.rows[row][class as usize]
    }

    /// Expected waters of the split (front, middle, back); the order of the operations
    /// is part of the answer (bit-identical `expected`).
    #[inline(always)]
    pub(super) fn ev(&self, f: &RoleValue, m: &RoleValue, b: &RoleValue) -> f64 {
        let (q, nf, n) = (self.q, self.nf, self.n);
        let waters = f.my_waters + m.my_waters + b.my_waters;
        let p_scoop = f.win * m.win * b.win;
        // E[waters paid · 1{scooped}] under independent rows.
        let scooped = f.lose_waters * m.lose * b.lose + f.lose * m.lose_waters * b.lose + f.lose * m.lose * b.lose_waters;
        let pair = q * (f.row + m.row + b.row + p_scoop * waters - scooped) - self.special_loss;
        let mut ev = nf * pair;
        if self.home_run {
            ev += 2.0 * nf * waters * pow(q * p_scoop, n) - 2.0 * nf * q * scooped * self.hr_cond;
        }
        ev
    }

    /// The bound the exhaustive search ordered its backs by (scoop losses left out, plus
    /// 1e-9): only needed to report, among splits that differ only in suits, the one that
    /// search reported (the first it visited).
    #[inline]
    pub(super) fn visit_order_bound(&self, f: &RoleValue, m: &RoleValue, b: &RoleValue) -> f64 {
        let (q, nf, n) = (self.q, self.nf, self.n);
        let waters = f.my_waters + m.my_waters + b.my_waters;
        let p_scoop = f.win * m.win * b.win;
        let mut ub = nf * (q * (f.row + m.row + b.row + p_scoop * waters) - self.special_loss);
        if self.home_run {
            ub += 2.0 * nf * waters * pow(q * p_scoop, n);
        }
        ub + 1e-9
    }
}
