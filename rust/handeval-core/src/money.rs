//! Money (RULES §0 and §4): integer units, exactly zero-sum, overflow is an error.

use crate::error::{Error, Result};

/// `a * b`, or an error naming what overflowed.
pub fn mul(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_mul(b).ok_or_else(|| Error::new(format!("{what}: {a} × {b} overflows a 64-bit integer")))
}

/// `a + b`, or an error naming what overflowed.
pub fn add(a: i64, b: i64, what: &str) -> Result<i64> {
    a.checked_add(b).ok_or_else(|| Error::new(format!("{what}: {a} + {b} overflows a 64-bit integer")))
}

/// Sum, or an error naming what overflowed.
pub fn sum(values: &[i64], what: &str) -> Result<i64> {
    values.iter().try_fold(0i64, |acc, &v| add(acc, v, what))
}

/// Split `total` in proportion to non-negative `weights`, exactly: each share is rounded
/// toward zero and the leftover units go one each by largest remainder, ties to the lower
/// index (RULES §0). The shares carry the sign of `total` and add up to it.
/// All-zero weights are an error unless `total` is 0.
pub fn share_proportional(total: i64, weights: &[i64]) -> Result<Vec<i64>> {
    if weights.iter().any(|&w| w < 0) {
        return Err(Error::new("proportional shares need non-negative weights"));
    }
    let wsum: i128 = weights.iter().map(|&w| w as i128).sum();
    if wsum == 0 {
        if total == 0 {
            return Ok(vec![0; weights.len()]);
        }
        return Err(Error::new(format!("cannot share {total} among nobody")));
    }
    let sign = total.signum() as i128;
    let t = (total as i128).abs();
    let mut shares: Vec<i128> = Vec::with_capacity(weights.len());
    let mut rems: Vec<(i128, usize)> = Vec::with_capacity(weights.len());
    for (i, &w) in weights.iter().enumerate() {
        let p = t * w as i128;
        shares.push(p / wsum);
        rems.push((p % wsum, i));
    }
    let mut left = t - shares.iter().sum::<i128>();
    // Largest remainder first; equal remainders: lower index first.
    rems.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    for &(_, i) in rems.iter() {
        if left == 0 {
            break;
        }
        shares[i] += 1;
        left -= 1;
    }
    Ok(shares.into_iter().map(|s| (s * sign) as i64).collect())
}

/// 防以小博大, the cap of RULES §4: nobody wins or loses more than they carried in, and
/// the side with the larger total is scaled down to the smaller one, exactly zero-sum.
/// `carried[i] == None` leaves seat i uncapped. `theoretical` must add up to 0.
pub fn cap(theoretical: &[i64], carried: &[Option<i64>]) -> Result<Vec<i64>> {
    if theoretical.len() != carried.len() {
        return Err(Error::field(
            "carried",
            format!("has {} entries for {} players", carried.len(), theoretical.len()),
        ));
    }
    for (i, c) in carried.iter().enumerate() {
        if let Some(c) = c {
            if *c < 0 {
                return Err(Error::field(format!("carried[{i}]"), format!("a carried-in amount cannot be negative (got {c})")));
            }
        }
    }
    if sum(theoretical, "theoretical results")? != 0 {
        return Err(Error::field("theoretical", format!("results must add up to 0 (they add up to {})", theoretical.iter().map(|&v| v as i128).sum::<i128>())));
    }
    let clamped: Vec<i64> = theoretical
        .iter()
        .zip(carried)
        .map(|(&r, c)| match c {
            Some(c) => r.clamp(-*c, *c),
            None => r,
        })
        .collect();
    let won: i64 = sum(&clamped.iter().map(|&r| r.max(0)).collect::<Vec<_>>(), "winnings")?;
    // Checked negation: an uncapped loss of i64::MIN has no positive counterpart.
    let losses = clamped
        .iter()
        .filter(|&&r| r < 0)
        .map(|&r| r.checked_neg().ok_or_else(|| Error::new(format!("losses: -({r}) overflows a 64-bit integer"))))
        .collect::<Result<Vec<i64>>>()?;
    let lost: i64 = sum(&losses, "losses")?;
    if won == lost {
        return Ok(clamped);
    }
    // Scale the larger side down to the smaller total.
    let (larger_is_winners, smaller) = if won > lost { (true, lost) } else { (false, won) };
    let weights: Vec<i64> = clamped
        .iter()
        .map(|&r| if (r > 0) == larger_is_winners && r != 0 { r.abs() } else { 0 })
        .collect();
    let scaled = share_proportional(if larger_is_winners { smaller } else { -smaller }, &weights)?;
    Ok(clamped
        .iter()
        .zip(scaled)
        .map(|(&r, s)| if r != 0 && (r > 0) == larger_is_winners { s } else { r })
        .collect())
}

/// A base stake (底分) is at least 1 in every game (RULES §0); 0 or less is an error.
pub fn check_base(base: i64) -> Result<()> {
    if base < 1 {
        return Err(Error::field("base", format!("must be at least 1 (got {base})")));
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
pub fn rake_only(amounts: &[i64], percent: u32, raked: impl Fn(usize) -> bool) -> Result<(Vec<i64>, i64)> {
    if percent > 100 {
        return Err(Error::field("rake_percent", format!("must be 0..100 (got {percent})")));
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
        // fuzz finding: an uncapped loss of i64::MIN was negated with overflow (a panic)
        assert!(cap(&[i64::MIN, i64::MAX, 1], &[None, Some(5), Some(5)]).unwrap_err().message.contains("overflow"));
        // fuzz finding: the total rake of several huge winnings overflowed (a panic)
        assert!(rake(&[i64::MAX, i64::MAX, i64::MIN, i64::MIN + 2], 100).unwrap_err().message.contains("overflow"));
    }

    proptest! {
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
