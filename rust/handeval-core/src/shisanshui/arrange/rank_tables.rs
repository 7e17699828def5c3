//! Tables by rank multiset, shared by every hand: five-card classes by a multiset index,
//! front strengths and classes by ranks.

use super::classes::class_of;
use crate::cards::Card;
use crate::shisanshui::eval::{strength3, strength5_key, strength5_of_keys};

/// Binomial coefficient C(n, k) for the small numbers of the multiset index.
pub(super) const fn binom(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let (mut r, mut i) = (1, 0);
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// `MULTISET5_TERM[k][r]`: the term C(r + k, k + 1) of the k-th lowest rank r in
/// [`multiset5_index`].
pub(super) const MULTISET5_TERM: [[u16; 13]; 5] = {
    let mut t = [[0u16; 13]; 5];
    let mut k = 0;
    while k < 5 {
        let mut r = 0;
        while r < 13 {
            t[k][r] = binom(r + k, k + 1) as u16;
            r += 1;
        }
        k += 1;
    }
    t
};

/// Rank multisets of five cards (ranks 0..13, with repetition): C(17, 5).
pub(super) const MULTISETS5: usize = binom(17, 5);
const _: () = assert!(MULTISETS5 <= 1 << 13, "a multiset index fits in 13 bits");

/// The index of a multiset of five ranks `r0 ≤ … ≤ r4` among [`MULTISETS5`]: the colex
/// rank of the five-subset `{r0, r1+1, …, r4+4}` of 0..17, Σ C(r_k + k, k + 1).
pub(super) fn multiset5_index(r: [usize; 5]) -> usize {
    (0..5).map(|k| binom(r[k] + k, k + 1)).sum()
}

/// Standard five-card class by rank multiset index ([`multiset5_index`], below 2^13),
/// not suited at `[i]`, all one suit at `[8192 + i]`: 32 KB, where a table by key sum
/// would take 720 KB and miss the cache on most lookups.
pub(super) fn classes5_by_multiset() -> &'static [u16; 1 << 14] {
    static T: std::sync::OnceLock<Box<[u16; 1 << 14]>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([u16::MAX; 1 << 14]);
        let mut ranks = [0usize; 5];
        fn walk(from: usize, at: usize, ranks: &mut [usize; 5], t: &mut [u16]) {
            if at == 5 {
                let key = |suit: &dyn Fn(usize) -> u8| (0..5).map(|i| strength5_key(Card::new(ranks[i] as u8, suit(i)))).sum::<u64>();
                let class = |k: u64| class_of(5, strength5_of_keys(k)) as u16;
                let i = multiset5_index(*ranks);
                // Equal ranks are neighbours, at most four: suits i % 4 differ among them.
                t[i] = class(key(&|i| (i % 4) as u8));
                if ranks.windows(2).all(|w| w[0] != w[1]) {
                    t[(1 << 13) + i] = class(key(&|_| 0));
                }
                return;
            }
            for r in from..13 {
                if ranks[..at].iter().filter(|&&x| x == r).count() < 4 {
                    ranks[at] = r;
                    walk(r, at + 1, ranks, t);
                }
            }
        }
        walk(0, 0, &mut ranks, &mut t[..]);
        t
    })
}

/// (strength, class) of a front by its ranks `r0 ≤ r1 ≤ r2`, at `(r0·13 + r1)·13 + r2`.
pub(super) fn fronts_by_ranks() -> &'static [(u32, u16)] {
    static T: std::sync::OnceLock<Vec<(u32, u16)>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let mut t = vec![(0, 0); 13 * 13 * 13];
        for r0 in 0..13u8 {
            for r1 in r0..13 {
                for r2 in r1..13 {
                    let s = strength3(&[Card::new(r0, 0), Card::new(r1, 1), Card::new(r2, 2)]);
                    t[(r0 as usize * 13 + r1 as usize) * 13 + r2 as usize] = (s, class_of(3, s) as u16);
                }
            }
        }
        t
    })
}
