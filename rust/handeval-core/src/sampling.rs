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

/// A candidate the playouts weigh (both games' `Alternative`).
pub(crate) trait Scored {
    fn set_score(&mut self, score: f64);
    fn score(&self) -> f64;
}

/// Determinization, one search for both games: each candidate of `alts` (candidate 0 the
/// heuristic's choice) is played out in `effort` worlds, world `d` drawn by `world` from
/// its own source seeded by (`seed`, `d`), so the answer depends on the seed only;
/// `money(world, candidate)` is the seat's money once it is played out there. Then each
/// score is the mean money and `alts` is reordered: the [`favoured`] candidate first, the
/// others by score. `between()` runs between two worlds (a caller's point to yield);
/// when it says false the sampling stops there and the scores rest on the worlds played
/// so far (the caller's work has stopped: a cancelled call discards the answer).
pub(crate) fn weigh<C: Scored, W>(
    alts: &mut Vec<C>,
    seed: u64,
    effort: u32,
    between: &dyn Fn() -> bool,
    mut world: impl FnMut(&mut Rng) -> W,
    mut money: impl FnMut(&W, &C) -> crate::error::Result<i64>,
) -> crate::error::Result<()> {
    let mut gains = vec![Vec::with_capacity(effort as usize); alts.len()];
    let mut played = 0;
    for d in 0..effort {
        if d > 0 && !between() {
            break;
        }
        played += 1;
        let w = world(&mut Rng::new(mix(seed, d as u64)));
        for (g, a) in gains.iter_mut().zip(alts.iter()) {
            g.push(money(&w, a)?);
        }
    }
    let pick = favoured(&gains);
    for (a, m) in alts.iter_mut().zip(&gains) {
        a.set_score(m.iter().sum::<i64>() as f64 / played as f64);
    }
    let chosen = alts.remove(pick);
    alts.sort_by(|a, b| b.score().total_cmp(&a.score()));
    alts.insert(0, chosen);
    Ok(())
}
