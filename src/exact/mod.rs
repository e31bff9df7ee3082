//! Exact arithmetic: rationals, binomial and multinomial weights, dataset enumeration.
//!
//! This is the crate's exact tier: every quantity here is either an exact
//! [`BigRational`] / [`BigUint`], or an `f64` whose rounding is documented (for [`to_f64`]: the
//! correctly rounded value, round-half-to-even, exactly what IEEE 754 division would give).
//!
//! * Rationals: [`rat`], [`from_f64_exact`], [`to_f64`], [`pow`], and the exact comparison of a
//!   rational with a square root, [`cmp_with_sqrt`] (used by exact bound checks such as
//!   ‖Δz‖ ≤ 2L/(λn), where ‖Δz‖² is rational but ‖Δz‖ is not).
//! * Counting: [`binomial`], [`multinomial`], [`ln_multinomial`], [`num_count_vectors`].
//! * Enumeration of datasets drawn from a distribution with k atoms: [`count_vectors`] (the
//!   C(n+k−1, k−1) multisets, which is all an exchangeable statistic depends on) and
//!   [`sequences`] (all kⁿ ordered datasets, for brute-force cross-checks at small n).
//!   Both are iterators; neither materialises its whole output. [`CountWalk`] walks the count
//!   vectors in place and reports each step, whose multinomial weight ratio is a ratio of small
//!   integers, so expectations over count vectors cost O(k) arithmetic per vector.

mod combinatorics;
mod enumerate;

pub use combinatorics::{
    binomial, ln_factorial, ln_factorials, ln_multinomial, multinomial, num_count_vectors,
};
pub use enumerate::{
    count_vectors, dataset_points, replace_one_moves, sequences, CountStep, CountVectors,
    CountWalk, ReplaceOneMove, Sequences,
};
pub use num_bigint::{BigInt, BigUint};
pub use num_rational::BigRational;

use crate::error::{invalid, Result};
use num_integer::Integer;
use num_traits::{One, Signed, ToPrimitive, Zero};
use std::cmp::Ordering;

/// The rational `num / den`, reduced, with a positive denominator.
///
/// # Panics
/// If `den == 0`. This constructor is for literals written in code (`rat(1, 3)`); a zero
/// denominator there is a programming error, not bad input.
pub fn rat(num: i64, den: i64) -> BigRational {
    assert!(den != 0, "rat: zero denominator");
    BigRational::new(BigInt::from(num), BigInt::from(den))
}

/// The rational with integer value `n`.
pub fn int(n: i64) -> BigRational {
    BigRational::from_integer(BigInt::from(n))
}

/// The exact value of a finite double (every finite `f64` is a dyadic rational m·2ᵉ).
/// Returns `None` for NaN and ±∞. Both zeros map to 0.
pub fn from_f64_exact(x: f64) -> Option<BigRational> {
    if !x.is_finite() {
        return None;
    }
    let bits = x.to_bits();
    let negative = bits >> 63 == 1;
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    // Subnormals: frac · 2^-1074; normals: (2^52 + frac) · 2^(biased − 1075).
    let (m, e) = if biased == 0 {
        (frac, -1074i64)
    } else {
        (frac | (1u64 << 52), biased - 1075)
    };
    let m = BigInt::from(m);
    let mut r = if e >= 0 {
        BigRational::from_integer(m << (e as usize))
    } else {
        BigRational::new(m, BigInt::one() << ((-e) as usize))
    };
    if negative {
        r = -r;
    }
    Some(r)
}

/// 2ᵘ as an `f64`, for `u` in [−1074, 1023] (exactly representable there).
fn pow2(u: i64) -> f64 {
    debug_assert!((-1074..=1023).contains(&u));
    if u >= -1022 {
        f64::from_bits(((u + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (u + 1074))
    }
}

/// The `f64` nearest to `x`, ties to even (IEEE 754 round-to-nearest-even), including subnormal
/// results; magnitudes at or beyond 2¹⁰²⁴ − 2⁹⁷⁰ (the midpoint above `f64::MAX`) give ±∞.
///
/// Results are signed like `x`, so a negative `x` too small to represent gives −0.0; `x = 0`
/// gives +0.0. For integers a, b below 2⁵³ this equals `a as f64 / b as f64`, since IEEE
/// division is correctly rounded too.
pub fn to_f64(x: &BigRational) -> f64 {
    let negative = x.is_negative();
    let p = x.numer().magnitude();
    let q = x.denom().magnitude();
    if p.is_zero() {
        return 0.0;
    }
    // 2^(bp−1) ≤ p < 2^bp and 2^(bq−1) ≤ q < 2^bq, so floor(log2 x) ∈ {bp−bq−1, bp−bq}.
    let mut e = p.bits() as i64 - q.bits() as i64;
    let at_least = if e >= 0 {
        *p >= (q << (e as usize))
    } else {
        (p << ((-e) as usize)) >= *q
    };
    if !at_least {
        e -= 1;
    }
    // Now 2^e ≤ x < 2^(e+1).
    let magnitude = if e > 1023 {
        f64::INFINITY
    } else if e < -1076 {
        // x < 2^-1076, below half the smallest subnormal 2^-1074.
        0.0
    } else {
        // The spacing of doubles at x (subnormal spacing 2^-1074 below 2^-1022).
        let u = e.max(-1022) - 52;
        let (num, den) = if u >= 0 {
            (p.clone(), q << (u as usize))
        } else {
            (p << ((-u) as usize), q.clone())
        };
        let (m, r) = num.div_rem(&den);
        // m < 2^53 by the choice of u.
        let m = m.to_u64().unwrap_or(0);
        let round_up = match (r << 1usize).cmp(&den) {
            Ordering::Greater => true,
            Ordering::Less => false,
            Ordering::Equal => m & 1 == 1,
        };
        // m + round_up ≤ 2^53 is exact in f64 and scaling by 2^u is exact (or overflows to ∞
        // when rounding carries 2^1024 − ε up to 2^1024).
        (m + round_up as u64) as f64 * pow2(u)
    };
    if negative {
        -magnitude
    } else {
        magnitude
    }
}

/// xᵉ (with x⁰ = 1, also for x = 0).
pub fn pow(x: &BigRational, e: u32) -> BigRational {
    use num_traits::Pow;
    // numer and denom stay coprime under powers, so no reduction is needed.
    BigRational::new_raw(Pow::pow(x.numer(), e), Pow::pow(x.denom(), e))
}

/// ⌊√x⌋, the integer square root.
pub fn sqrt_floor(x: &BigUint) -> BigUint {
    x.sqrt()
}

/// Exact sign of a − √b, for rational a (any sign) and rational b ≥ 0: `Less` when a < √b,
/// `Equal` when a = √b, `Greater` when a > √b. No floating point is involved: for a ≥ 0 this
/// compares a² with b.
///
/// Typical use: a bound check ‖v‖ ≤ c with ‖v‖² = b rational is
/// `cmp_with_sqrt(&c, &b) != Ordering::Less`.
///
/// # Panics
/// If b < 0 (√b is undefined; a caller bug). Use [`checked_cmp_with_sqrt`] for untrusted input.
pub fn cmp_with_sqrt(a: &BigRational, b: &BigRational) -> Ordering {
    match checked_cmp_with_sqrt(a, b) {
        Ok(o) => o,
        Err(e) => panic!("cmp_with_sqrt: {e}"),
    }
}

/// [`cmp_with_sqrt`] returning [`crate::Error::Invalid`] naming field `b` when b < 0.
pub fn checked_cmp_with_sqrt(a: &BigRational, b: &BigRational) -> Result<Ordering> {
    if b.is_negative() {
        return Err(invalid(
            "b",
            format!("square root of a negative rational {b}"),
        ));
    }
    if a.is_negative() {
        // a < 0 ≤ √b.
        return Ok(Ordering::Less);
    }
    // a, √b ≥ 0: a ⋚ √b ⇔ a² ⋚ b; with a = p/q, b = r/s (q, s > 0): p²·s ⋚ r·q².
    let (p, q) = (a.numer(), a.denom());
    let (r, s) = (b.numer(), b.denom());
    Ok((p * p * s).cmp(&(r * q * q)))
}

/// An exact running sum of rationals that avoids a gcd per addition.
///
/// `a/b + c/d` with [`BigRational`] reduces (two gcds) on every addition, which dominates long
/// sums such as expectations over thousands of count vectors. This accumulator keeps an
/// unreduced numerator over the lcm of the denominators seen so far: an addend whose
/// denominator divides the current one costs one division; otherwise one gcd extends the
/// common denominator. [`RatSum::finish`] reduces once.
#[derive(Clone, Debug)]
pub struct RatSum {
    num: BigInt,
    den: BigInt,
}

impl Default for RatSum {
    fn default() -> Self {
        Self::new()
    }
}

impl RatSum {
    /// The empty sum, 0.
    pub fn new() -> Self {
        RatSum {
            num: BigInt::zero(),
            den: BigInt::one(),
        }
    }

    /// Add `v`.
    pub fn add(&mut self, v: &BigRational) {
        self.add_scaled(v, &BigInt::one());
    }

    /// Add `w · v` for an integer weight `w`.
    pub fn add_scaled(&mut self, v: &BigRational, w: &BigInt) {
        let (p, q) = (v.numer(), v.denom());
        if p.is_zero() || w.is_zero() {
            return;
        }
        if *q == self.den {
            self.num += p * w;
            return;
        }
        let (quot, rem) = self.den.div_rem(q);
        if rem.is_zero() {
            self.num += p * w * quot;
        } else {
            // New common denominator lcm(den, q) = den · (q / g).
            let g = self.den.gcd(q);
            let scale_acc = q / &g;
            let scale_new = &self.den / &g;
            self.num = &self.num * &scale_acc + p * w * scale_new;
            self.den *= scale_acc;
        }
    }

    /// The sum, reduced.
    pub fn finish(self) -> BigRational {
        BigRational::new(self.num, self.den)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_f64_exact_simple_values() {
        assert_eq!(from_f64_exact(0.5), Some(rat(1, 2)));
        assert_eq!(from_f64_exact(-3.0), Some(int(-3)));
        assert_eq!(from_f64_exact(0.0), Some(int(0)));
        assert_eq!(from_f64_exact(-0.0), Some(int(0)));
        assert_eq!(from_f64_exact(f64::NAN), None);
        assert_eq!(from_f64_exact(f64::INFINITY), None);
        let tiny = from_f64_exact(f64::from_bits(1)).unwrap();
        assert_eq!(
            tiny,
            BigRational::new(BigInt::one(), BigInt::one() << 1074usize)
        );
        let max = from_f64_exact(f64::MAX).unwrap();
        let expect =
            BigRational::from_integer(((BigInt::one() << 53usize) - BigInt::one()) << 971usize);
        assert_eq!(max, expect);
    }

    #[test]
    fn pow2_matches_powi_on_normals() {
        for u in -1022..=1023 {
            assert_eq!(pow2(u), 2f64.powi(u as i32), "u = {u}");
        }
        assert_eq!(pow2(-1074), f64::from_bits(1));
    }

    #[test]
    fn to_f64_simple_values() {
        assert_eq!(to_f64(&rat(1, 3)), 1.0 / 3.0);
        assert_eq!(to_f64(&rat(2, 3)), 2.0 / 3.0);
        assert_eq!(to_f64(&rat(-7, 10)), -0.7);
        assert_eq!(to_f64(&int(0)), 0.0);
        assert!(to_f64(&int(0)).is_sign_positive());
    }

    #[test]
    fn pow_and_sqrt() {
        assert_eq!(pow(&rat(-2, 3), 3), rat(-8, 27));
        assert_eq!(pow(&rat(0, 1), 0), int(1));
        assert_eq!(pow(&rat(5, 7), 0), int(1));
        assert_eq!(sqrt_floor(&BigUint::from(99u32)), BigUint::from(9u32));
        assert_eq!(sqrt_floor(&BigUint::from(100u32)), BigUint::from(10u32));
        assert_eq!(sqrt_floor(&BigUint::zero()), BigUint::zero());
    }

    #[test]
    fn rat_sum_matches_plain_sum() {
        let terms = [
            rat(1, 6),
            rat(-2, 9),
            rat(5, 4),
            rat(0, 1),
            rat(7, 6),
            rat(1, 35),
            rat(3, 1),
        ];
        let weights = [3i64, 1, -2, 9, 4, 70, 0];
        let mut acc = RatSum::new();
        let mut plain = int(0);
        for (t, &w) in terms.iter().zip(&weights) {
            acc.add_scaled(t, &BigInt::from(w));
            plain += t * BigInt::from(w);
        }
        acc.add(&rat(1, 12));
        plain += rat(1, 12);
        assert_eq!(acc.finish(), plain);
        assert_eq!(RatSum::default().finish(), int(0));
    }

    #[test]
    fn cmp_with_sqrt_basic() {
        assert_eq!(cmp_with_sqrt(&int(3), &int(9)), Ordering::Equal);
        assert_eq!(cmp_with_sqrt(&int(-1), &int(0)), Ordering::Less);
        assert_eq!(cmp_with_sqrt(&int(0), &int(0)), Ordering::Equal);
        assert!(matches!(
            checked_cmp_with_sqrt(&int(1), &int(-1)),
            Err(crate::Error::Invalid { ref field, .. }) if field == "b"
        ));
    }
}
