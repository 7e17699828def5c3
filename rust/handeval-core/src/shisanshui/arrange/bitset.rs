//! The per-card bitsets of a sorted list of subsets: a bit-matrix transpose.

/// Word `w` of the per-card bitsets over a sorted list of subsets' card masks: a
/// bit-matrix transpose, bit j of word p set when mask `64·w + j` holds card p (bits
/// past the end set for every card, so they never look free). With AVX2, 32 masks a
/// card at a time (each mask's bit p shifted to its sign, packed to bytes and gathered
/// by a movemask); else eight masks at a time (the bit of card p of eight masks, one
/// per byte, gathered into a byte by one multiplication), so no counter is updated in
/// memory per card.
pub(super) fn card_bits(masks: &[u16], w: usize) -> [u64; 13] {
    let (start, end) = (64 * w, masks.len().min(64 * w + 64));
    let mut block = [!0u16; 64];
    block[..end - start].copy_from_slice(&masks[start..end]);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked just above), all the function needs.
        return unsafe { card_bits_avx2(&block) };
    }
    card_bits_scalar(&block)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(super) fn card_bits_avx2(block: &[u16; 64]) -> [u64; 13] {
    use std::arch::x86_64::*;
    // SAFETY: `block` holds 64 u16: four unaligned 32-byte loads.
    let v: [__m256i; 4] = std::array::from_fn(|i| unsafe { _mm256_loadu_si256(block.as_ptr().add(16 * i).cast()) });
    std::array::from_fn(|p| {
        let to_sign = _mm_cvtsi32_si128(15 - p as i32);
        // 32 masks' bit p as the signs of 32 bytes (the pack interleaves 128-bit halves:
        // the permute puts them back in order), then one bit each.
        let half = |a: __m256i, b: __m256i| {
            let bytes = _mm256_packs_epi16(_mm256_sll_epi16(a, to_sign), _mm256_sll_epi16(b, to_sign));
            _mm256_movemask_epi8(_mm256_permute4x64_epi64::<0b11_01_10_00>(bytes)) as u32 as u64
        };
        half(v[0], v[1]) | half(v[2], v[3]) << 32
    })
}

pub(super) fn card_bits_scalar(block: &[u16; 64]) -> [u64; 13] {
    let (mut lo, mut hi) = ([0u8; 64], [0u8; 64]);
    for ((&m, lo), hi) in block.iter().zip(&mut lo).zip(&mut hi) {
        (*lo, *hi) = (m as u8, (m >> 8) as u8);
    }
    // Bit 0 of each of the 8 bytes of x, as the 8 bits of a byte.
    let gather = |x: u64| (x & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let mut acc = [0u64; 13];
    for g in 0..8 {
        let l = u64::from_le_bytes(lo[8 * g..8 * g + 8].try_into().unwrap());
        let h = u64::from_le_bytes(hi[8 * g..8 * g + 8].try_into().unwrap());
        for p in 0..8 {
            acc[p] |= gather(l >> p) << (8 * g);
        }
        for p in 0..5 {
            acc[8 + p] |= gather(h >> p) << (8 * g);
        }
    }
    acc
}

/// Every path of [`card_bits`] this CPU can run against the definition, on every word
/// of `masks`.
#[cfg(test)]
pub(super) fn check_card_bits(masks: &[u16]) {
    for w in 0..masks.len().div_ceil(64) {
        let want: [u64; 13] = std::array::from_fn(|p| {
            (0..64).filter(|&j| masks.get(64 * w + j).is_none_or(|m| m >> p & 1 == 1)).fold(0, |acc, j| acc | 1 << j)
        });
        assert_eq!(card_bits(masks, w), want, "card_bits word {w}");
        let mut block = [!0u16; 64];
        let end = masks.len().min(64 * w + 64);
        block[..end - 64 * w].copy_from_slice(&masks[64 * w..end]);
        assert_eq!(card_bits_scalar(&block), want, "card_bits_scalar word {w}");
    }
}
