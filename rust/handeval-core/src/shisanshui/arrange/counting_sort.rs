//! Subsets sorted by strength with a counting sort over their 13-bit sort keys.

use super::classes::Five;
use super::splits::{combos, N5};

/// The sorted lists [`order_desc`] writes: subset indices, strengths, masks.
pub(super) type Sorted<'a> = (&'a mut [u16; N5], &'a mut [u32; N5], &'a mut [u16; N5]);

/// Subset indices by sort key (the class's `Model::rank5`), largest key first, equal
/// keys by index, into `out.0`, their strengths into `out.1` and their five-card masks
/// into `out.2`: a counting sort. On entry `count` holds how often each key occurs (at
/// the key's [`sort_bin`]) and `occ[i]` the number of `i`'s predecessors with its key
/// (the caller counts as it computes the keys), so placing an index only reads its bin's
/// start (a counter bumped per placement made each placement wait for the one before);
/// `count` is left zero.
pub(super) fn order_desc(five: &[Five; N5], occ: &[u16; N5], out: Sorted, count: &mut [u16; 1 << 13]) {
    let above = bin_starts(count);
    for (i, ((f, &o), &m)) in five.iter().zip(occ).zip(&combos().five).enumerate() {
        let bin = f.bin as usize & 0x1FFF;
        let slot = (count[bin] + above[bin % 32] + o) as usize;
        out.0[slot] = i as u16;
        out.1[slot] = f.strength;
        out.2[slot] = m;
    }
    count.fill(0);
}

/// Where the sort counts sort key `k` (below 8,192): row `k % 256` of 32 columns, column
/// `k / 256`. The keys above `k` are the rest of its column below its row and the whole
/// columns to its right, so every bin's start is a running sum down the rows, 32 columns
/// at a time (one vector addition a row), plus a per-column offset: no pass key by key.
pub(super) fn sort_bin(k: u16) -> u16 {
    (k % 256) * 32 + k / 256
}

/// Each count (at [`sort_bin`]) replaced by the number of keys above it in its column,
/// below its row; returns per column the number of keys in the columns to its right.
/// A bin's start is the sum of the two.
pub(super) fn bin_starts(count: &mut [u16; 1 << 13]) -> [u16; 32] {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2")]
        fn avx2(count: &mut [u16; 1 << 13]) -> [u16; 32] {
            bin_starts_by_rows(count)
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked just above): two registers a row.
            return unsafe { avx2(count) };
        }
    }
    bin_starts_by_rows(count)
}

#[inline(always)]
pub(super) fn bin_starts_by_rows(count: &mut [u16; 1 << 13]) -> [u16; 32] {
    let mut down = [0u16; 32];
    for row in count.chunks_exact_mut(32).rev() {
        for (n, d) in row.iter_mut().zip(&mut down) {
            (*n, *d) = (*d, *d + *n);
        }
    }
    let mut right = [0u16; 32];
    for c in (0..31).rev() {
        right[c] = right[c + 1] + down[c + 1];
    }
    right
}

/// [`bin_starts`] (the path this CPU takes, and the plain one) against a suffix sum over
/// the keys, for the counts `by_key`.
#[cfg(test)]
pub(super) fn check_bin_starts(by_key: &[u16; 1 << 13]) {
    let mut count = [0u16; 1 << 13];
    for (k, &n) in by_key.iter().enumerate() {
        count[sort_bin(k as u16) as usize] = n;
    }
    let (mut plain, mut fast) = (count, count);
    let (right_plain, right_fast) = (bin_starts_by_rows(&mut plain), bin_starts(&mut fast));
    let mut above = 0;
    for k in (0..1 << 13).rev() {
        let bin = sort_bin(k as u16) as usize;
        assert_eq!(plain[bin] + right_plain[bin % 32], above, "bin_starts_by_rows, key {k}");
        assert_eq!(fast[bin] + right_fast[bin % 32], above, "bin_starts, key {k}");
        above += by_key[k];
    }
}
