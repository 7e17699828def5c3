//! A small seeded random source for the suggestions' sampling: deterministic for a
//! seed on every platform (SplitMix64), with no dependency.

#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// Mix a seed with a number (a decision, a sample) into a new seed.
pub fn mix(seed: u64, k: u64) -> u64 {
    Rng::new(seed ^ k.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64()
}

/// The candidate the playouts favour: `money[i][d]` is candidate `i`'s money in sample
/// `d`, candidate 0 the heuristic's choice. Another candidate replaces it only when the
/// lower bound (mean − one standard error) of its paired gain over candidate 0 is above
/// zero, so a few noisy playouts do not overrule the heuristic.
pub(crate) fn favoured(money: &[Vec<i64>]) -> usize {
    let n = money[0].len() as f64;
    let mut best = (0usize, 0f64);
    for (i, m) in money.iter().enumerate().skip(1) {
        let d: Vec<f64> = m.iter().zip(&money[0]).map(|(a, b)| (a - b) as f64).collect();
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        let lower = mean - (var / n).sqrt();
        if lower > best.1 {
            best = (i, lower);
        }
    }
    best.0
}
