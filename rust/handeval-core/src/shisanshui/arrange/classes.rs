//! Rank classes: every standard strength of a five-card (7,462) and three-card (455) row
//! numbered in strength order, and the class of a strength.

use crate::shisanshui::eval::strength_slow;
use std::sync::OnceLock;

/// Sorted standard strengths of every 5-card rank class (7,462) and 3-card class (455).
pub(crate) fn classes(row_len: usize) -> &'static [u32] {
    static C5: OnceLock<Vec<u32>> = OnceLock::new();
    static C3: OnceLock<Vec<u32>> = OnceLock::new();
    let build = |n: usize| {
        let mut out = Vec::new();
        let mut ranks = Vec::new();
        fn walk(from: u8, left: usize, ranks: &mut Vec<u8>, n: usize, out: &mut Vec<u32>) {
            if left == 0 {
                out.push(strength_slow(ranks, false));
                let distinct = ranks.windows(2).all(|w| w[0] != w[1]);
                if n == 5 && distinct {
                    out.push(strength_slow(ranks, true));
                }
                return;
            }
            for r in from..13 {
                let cnt = ranks.iter().filter(|&&x| x == r).count();
                if cnt < 4 {
                    ranks.push(r);
                    walk(r, left - 1, ranks, n, out);
                    ranks.pop();
                }
            }
        }
        walk(0, n, &mut ranks, n, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    };
    if row_len == 5 {
        C5.get_or_init(|| build(5))
    } else {
        C3.get_or_init(|| build(3))
    }
}

/// Open-addressing map strength → class index (a binary search per subset showed up in
/// the profile of `arrange`).
pub(super) struct ClassMap {
    pub(super) keys: Vec<u32>,
    pub(super) vals: Vec<u16>,
    pub(super) shift: u32,
}

impl ClassMap {
    pub(super) fn new(classes: &[u32]) -> ClassMap {
        let bits = (classes.len() * 2).next_power_of_two().trailing_zeros();
        let size = 1usize << bits;
        let mut m = ClassMap { keys: vec![u32::MAX; size], vals: vec![0; size], shift: 32 - bits };
        for (i, &c) in classes.iter().enumerate() {
            let mut h = m.slot(c);
            while m.keys[h] != u32::MAX {
                h = (h + 1) & (size - 1);
            }
            m.keys[h] = c;
            m.vals[h] = i as u16;
        }
        m
    }
    #[inline]
    pub(super) fn slot(&self, s: u32) -> usize {
        (s.wrapping_mul(0x9E37_79B1) >> self.shift) as usize
    }
    #[inline]
    pub(super) fn get(&self, s: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut h = self.slot(s);
        loop {
            let k = self.keys[h];
            if k == s {
                return self.vals[h] as usize;
            }
            assert!(k != u32::MAX, "every strength is a class");
            h = (h + 1) & mask;
        }
    }
}

/// Class index of a standard (rules-independent) strength.
#[inline]
pub(crate) fn class_of(row_len: usize, strength: u32) -> usize {
    static M5: OnceLock<ClassMap> = OnceLock::new();
    static M3: OnceLock<ClassMap> = OnceLock::new();
    if row_len == 5 {
        M5.get_or_init(|| ClassMap::new(classes(5))).get(strength)
    } else {
        M3.get_or_init(|| ClassMap::new(classes(3))).get(strength)
    }
}

/// A five-card class with its sort key and strength under a model's rules.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(8))]
pub(crate) struct Five {
    pub(crate) class: u16,
    /// Where the search's sort counts the class: `counting_sort::sort_bin` of its `rank5`.
    pub(crate) bin: u16,
    pub(crate) strength: u32,
}
