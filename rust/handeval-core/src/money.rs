//! Money (RULES §0 and §4): integer units, exactly zero-sum, overflow is an error.

use crate::error::{Error, Reason, Result};

/// `a * b`, or an error naming what overflowed.
pub fn mul(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_mul(b).ok_or_else(|| Error::new(format!("{what}: {a} × {b} overflows a 64-bit integer")).because(Reason::OutOfRange))
}

/// `a + b`, or an error naming what overflowed.
pub fn add(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_add(b).ok_or_else(|| Error::new(format!("{what}: {a} + {b} overflows a 64-bit integer")).because(Reason::OutOfRange))
}

/// Sum, or an error naming what overflowed.
pub fn sum(values: &[i64], what: &str) -> Result<i64> {
    values.iter().try_fold(0i64, |acc, &v| add(acc, v, what))
}

/// `a × b` as a 256-bit number `(high, low)`.
fn mul_wide(a: u128, b: u128) -> (u128, u128) {
    const M: u128 = u64::MAX as u128;
    let (a1, a0) = (a >> 64, a & M);
    let (b1, b0) = (b >> 64, b & M);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let mid = (p00 >> 64) + (p01 & M) + (p10 & M);
    ((p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64)), (p00 & M) | (mid << 64))
}

/// `(high, low) / d` and the remainder, for `0 < d < 2^127` and a quotient that fits in
/// 128 bits (the callers divide `a × b` by `d ≥ b`).
fn div_wide((hi, lo): (u128, u128), d: u128) -> (u128, u128) {
    if hi == 0 {
        return (lo / d, lo % d);
    }
    let (mut q, mut r) = (0u128, 0u128);
    for i in (0..256u32).rev() {
        let bit = if i >= 128 { (hi >> (i - 128)) & 1 } else { (lo >> i) & 1 };
        r = (r << 1) | bit;
        q <<= 1;
        if r >= d {
            r -= d;
            q |= 1;
        }
    }
    (q, r)
}

/// [`share_proportional`] on 128-bit amounts, for totals that do not fit in an `i64`
/// while each share does (RULES §0: compute wider inside). The weights must add up to
/// less than 2^127 (any number of `i64` weights does).
pub(crate) fn share_wide(total: i128, weights: &[i128]) -> Result<Vec<i128>> {
    if weights.iter().any(|&w| w < 0) {
        return Err(Error::new("proportional shares need non-negative weights").because(Reason::OutOfRange));
    }
    let wsum = weights
        .iter()
        .try_fold(0i128, |a, &w| a.checked_add(w))
        .ok_or_else(|| Error::new("proportional shares: the weights overflow").because(Reason::OutOfRange))?;
    if wsum == 0 {
        if total == 0 {
            return Ok(vec![0; weights.len()]);
        }
        return Err(Error::new(format!("cannot share {total} among nobody")).because(Reason::Inconsistent));
    }
    let sign = total.signum();
    let t = total.unsigned_abs();
    let mut shares: Vec<u128> = Vec::with_capacity(weights.len());
    let mut rems: Vec<(u128, usize)> = Vec::with_capacity(weights.len());
    for (i, &w) in weights.iter().enumerate() {
        // t × w / wsum ≤ t: the quotient fits.
        let (q, r) = div_wide(mul_wide(t, w as u128), wsum as u128);
        shares.push(q);
        rems.push((r, i));
    }
    let mut left = t - shares.iter().sum::<u128>();
    // Largest remainder first; equal remainders: lower index first.
    rems.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i) in rems.iter() {
        if left == 0 {
            break;
        }
        shares[i] += 1;
        left -= 1;
    }
    // Each share is at most |total| ≤ 2^127, and 2^127 itself only with the sign −.
    Ok(shares.into_iter().map(|s| if sign < 0 { (s as i128).wrapping_neg() } else { s as i128 }).collect())
}

/// An `i128` amount as an `i64`, or an error naming what overflowed.
pub(crate) fn narrow(v: i128, what: &str) -> Result<i64> {
    i64::try_from(v).map_err(|_| Error::new(format!("{what}: {v} overflows a 64-bit integer")).because(Reason::OutOfRange))
}

/// Split `total` in proportion to non-negative `weights`, exactly: each share is rounded
/// toward zero and the leftover units go one each by largest remainder, ties to the lower
/// index (RULES §0). The shares carry the sign of `total` and add up to it.
/// All-zero weights are an error unless `total` is 0.
pub fn share_proportional(total: i64, weights: &[i64]) -> Result<Vec<i64>> {
    let w: Vec<i128> = weights.iter().map(|&w| w as i128).collect();
    // Every share lies between 0 and total: it fits.
    Ok(share_wide(total as i128, &w)?.into_iter().map(|s| s as i64).collect())
}

/// `carried` (the carried-in amounts, one per seat) has `entries` entries for `players`
/// seats: anything else is refused before any work (a huge list fails at its length).
pub(crate) fn check_carried_len(entries: usize, players: usize) -> Result<()> {
    if entries != players {
        return Err(Error::field("carried", format!("has {entries} entries for {players} players")).because(Reason::WrongCount));
    }
    Ok(())
}

/// 防以小博大, the cap of RULES §4: nobody wins or loses more than they carried in, and
/// the side with the larger total is scaled down to the smaller one, exactly zero-sum.
/// `carried[i] == None` leaves seat i uncapped. `theoretical` must add up to 0.
/// Each result is clamped before anything is added up, and the totals are summed in 128
/// bits, so whether a game settles never depends on the seat order: every game whose
/// clamped amounts fit in an `i64` (they always do) settles.
pub fn cap(theoretical: &[i64], carried: &[Option<i64>]) -> Result<Vec<i64>> {
    check_carried_len(carried.len(), theoretical.len())?;
    for (i, c) in carried.iter().enumerate() {
        if let Some(c) = c {
            if *c < 0 {
                return Err(Error::field(format!("carried[{i}]"), format!("a carried-in amount cannot be negative (got {c})"))
                    .because(Reason::OutOfRange));
            }
        }
    }
    let total: i128 = theoretical.iter().map(|&v| v as i128).sum();
    if total != 0 {
        return Err(Error::field("theoretical", format!("results must add up to 0 (they add up to {total})")).because(Reason::Inconsistent));
    }
    // 1. Clamp each result first (RULES §4).
    let clamped: Vec<i64> = theoretical
        .iter()
        .zip(carried)
        .map(|(&r, c)| match c {
            Some(c) => r.clamp(-*c, *c),
            None => r,
        })
        .collect();
    // 2. W and L, in 128 bits: a side's total may exceed an i64.
    let won: i128 = clamped.iter().map(|&r| (r as i128).max(0)).sum();
    let lost: i128 = clamped.iter().map(|&r| (-(r as i128)).max(0)).sum();
    if won == lost {
        return Ok(clamped);
    }
    // 3. Scale the larger side down to the smaller total.
    let (larger_is_winners, smaller) = if won > lost { (true, lost) } else { (false, won) };
    let weights: Vec<i128> = clamped.iter().map(|&r| if (r > 0) == larger_is_winners && r != 0 { (r as i128).abs() } else { 0 }).collect();
    let scaled = share_wide(if larger_is_winners { smaller } else { -smaller }, &weights)?;
    clamped
        .iter()
        .zip(scaled)
        // A scaled amount is no larger than its clamped amount: it fits.
        .map(|(&r, s)| if r != 0 && (r > 0) == larger_is_winners { narrow(s, "cap") } else { Ok(r) })
        .collect()
}

/// A base stake (底分) is at least 1 in every game (RULES §0); 0 or less is an error.
pub(crate) fn check_base(base: i64) -> Result<()> {
    if base < 1 {
        return Err(Error::field("base", format!("must be at least 1 (got {base})")).because(Reason::OutOfRange));
    }
    Ok(())
}

/// 抽水: `percent`% of each positive amount, rounded toward zero, taken from the winners.
/// Returns the amounts after the rake and the total rake (amounts + rake add up to the
/// original sum, so a zero-sum game stays zero-sum with the rake counted).
pub fn rake(amounts: &[i64], percent: u32) -> Result<(Vec<i64>, i64)> {
    rake_only(amounts, percent, |_| true)
}

/// [`rake`] of the positive amounts of the seats `raked` accepts only (越式13张 rakes the
/// winner alone, RULES 2.6); every other amount passes unchanged.
pub(crate) fn rake_only(amounts: &[i64], percent: u32, raked: impl Fn(usize) -> bool) -> Result<(Vec<i64>, i64)> {
    if percent > 100 {
        return Err(Error::field("rake_percent", format!("must be 0..100 (got {percent})")).because(Reason::BadRule));
    }
    let mut total = 0i64;
    let mut out = Vec::with_capacity(amounts.len());
    for (i, &a) in amounts.iter().enumerate() {
        if a > 0 && raked(i) {
            let r = ((a as i128 * percent as i128) / 100) as i64;
            // Checked: several huge winnings can rake more than an i64 holds.
            total = add(total, r, "rake")?;
            out.push(a - r);
        } else {
            out.push(a);
        }
    }
    Ok((out, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn seed_examples() {
        let c = |v: &[i64]| v.iter().map(|&x| Some(x)).collect::<Vec<_>>();
        assert_eq!(cap(&[-200, -800, 900, 100], &c(&[1000, 300, 200, 500])).unwrap(), vec![-120, -180, 200, 100]);
        assert_eq!(cap(&[200, -60, -80, -60], &c(&[80, 70, 100, 20])).unwrap(), vec![80, -30, -40, -10]);
    }

    #[test]
    fn largest_remainder_ties_to_lower_seat() {
        assert_eq!(share_proportional(10, &[1, 1, 1]).unwrap(), vec![4, 3, 3]);
        assert_eq!(share_proportional(-10, &[1, 1, 1]).unwrap(), vec![-4, -3, -3]);
        assert_eq!(share_proportional(5, &[1, 2]).unwrap(), vec![2, 3]);
    }

    #[test]
    fn bad_input() {
        assert!(cap(&[1, -1], &[Some(1)]).is_err());
        assert!(cap(&[1, -1], &[Some(-1), None]).unwrap_err().to_string().contains("carried[0]"));
        assert!(cap(&[1, 0], &[None, None]).is_err());
        assert!(mul(i64::MAX, 2, "x").is_err());
        assert_eq!(rake(&[100, -100], 5).unwrap(), (vec![95, -100], 5));
        assert_eq!(rake_only(&[100, 180, -280], 5, |i| i == 0).unwrap(), (vec![95, 180, -280], 5));
        assert!(check_base(1).is_ok());
        for b in [0, -1, i64::MIN] {
            assert_eq!(check_base(b).unwrap_err().field.as_deref(), Some("base"));
        }
        // fuzz finding: an uncapped loss of i64::MIN was negated with overflow (a panic);
        // the totals are 128-bit now, so it settles.
        assert_eq!(cap(&[i64::MIN, i64::MAX, 1], &[None, Some(5), Some(5)]).unwrap(), vec![-6, 5, 1]);
        // fuzz finding: the total rake of several huge winnings overflowed (a panic)
        assert!(rake(&[i64::MAX, i64::MAX, i64::MIN, i64::MIN + 2], 100).unwrap_err().message.contains("overflow"));
    }

    #[test]
    fn cap_clamps_before_adding_up() {
        // Each result is clamped before the sums: the answer does not depend on seat order.
        let e = 6 * 10i64.pow(18);
        let c = vec![Some(10i64.pow(18)); 4];
        assert_eq!(cap(&[e, e, -e, -e], &c).unwrap(), vec![10i64.pow(18), 10i64.pow(18), -(10i64.pow(18)), -(10i64.pow(18))]);
        assert_eq!(cap(&[e, -e, e, -e], &c).unwrap(), vec![10i64.pow(18), -(10i64.pow(18)), 10i64.pow(18), -(10i64.pow(18))]);
        // Uncapped winners whose total exceeds an i64, each one fitting.
        let m = i64::MAX;
        assert_eq!(cap(&[m, m, -m, -m], &[None, None, Some(5), Some(7)]).unwrap(), vec![6, 6, -5, -7]);
        // A wide total is shared by largest remainder like any other.
        assert_eq!(share_wide(3 * (i64::MAX as i128), &[1, 1, 1]).unwrap(), vec![i64::MAX as i128; 3]);
        assert_eq!(share_wide(-10, &[i64::MAX as i128, i64::MAX as i128, i64::MAX as i128]).unwrap(), vec![-4, -3, -3]);
    }

    fn permutations(n: usize) -> Vec<Vec<usize>> {
        if n == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in permutations(n - 1) {
            for i in 0..n {
                let mut q = p.clone();
                q.insert(i, n - 1);
                out.push(q);
            }
        }
        out
    }

    proptest! {
        /// RULES §4: whether a game settles, and what each player gets, do not depend on
        /// the seat order; every game settles (clamped amounts always fit).
        #[test]
        fn cap_does_not_depend_on_seat_order(
            raw in proptest::collection::vec(any::<i64>(), 1..=3),
            carried in proptest::collection::vec(proptest::option::of(prop_oneof![0i64..1000, any::<i64>().prop_map(|v| v.saturating_abs())]), 4),
        ) {
            // Results that add up to 0 while each fits: pair every amount with its opposite.
            let mut r: Vec<i64> = raw.iter().map(|&v| v.max(-i64::MAX)).collect();
            r.extend(r.clone().iter().map(|&v| -v));
            let n = r.len();
            let carried: Vec<Option<i64>> = (0..n).map(|i| carried[i % 4]).collect();
            let base = cap(&r, &carried).unwrap();
            prop_assert_eq!(base.iter().map(|&v| v as i128).sum::<i128>(), 0);
            for p in permutations(n).into_iter().take(120) {
                let rp: Vec<i64> = p.iter().map(|&i| r[i]).collect();
                let cp: Vec<Option<i64>> = p.iter().map(|&i| carried[i]).collect();
                let out = cap(&rp, &cp).unwrap();
                // Equal amounts may swap their rounding units (ties go to the lower seat),
                // so compare each seat within one unit and the sum exactly.
                prop_assert_eq!(out.iter().map(|&v| v as i128).sum::<i128>(), 0);
                for (k, &i) in p.iter().enumerate() {
                    prop_assert!((out[k] as i128 - base[i] as i128).abs() <= 1, "{:?} {:?}", out, base);
                }
            }
        }

        #[test]
        fn cap_is_zero_sum_and_bounded(
            raw in proptest::collection::vec(-1_000_000i64..1_000_000, 2..=4),
            carried in proptest::collection::vec(proptest::option::of(0i64..500_000), 4),
        ) {
            let mut r = raw.clone();
            let s: i64 = r.iter().sum();
            r[0] -= s;
            let carried = &carried[..r.len()];
            let out = cap(&r, carried).unwrap();
            prop_assert_eq!(out.iter().sum::<i64>(), 0);
            for ((o, c), t) in out.iter().zip(carried).zip(&r) {
                if let Some(c) = c { prop_assert!(o.abs() <= *c); }
                // Never changes sign, never grows.
                prop_assert!(o.signum() == 0 || o.signum() == t.signum());
                prop_assert!(o.abs() <= t.abs());
            }
        }

        #[test]
        fn shares_add_up(total in -1_000_000i64..1_000_000, w in proptest::collection::vec(0i64..1000, 1..6)) {
            prop_assume!(w.iter().sum::<i64>() > 0);
            let s = share_proportional(total, &w).unwrap();
            prop_assert_eq!(s.iter().sum::<i64>(), total);
        }
    }
}
