//! The bulk path: categories of many rows packed as card ids, in vector lanes.

use super::strength::Category;
use crate::cards::Card;
use crate::error::{Error, Reason, Result};

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
        return Err(
            Error::field("data", format!("{} bytes is not a whole number of {row_size}-card rows", data.len())).because(Reason::WrongCount)
        );
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
