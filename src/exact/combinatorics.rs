//! Binomial and multinomial coefficients, exactly and as natural logarithms.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::sync::OnceLock;

/// C(n, k) for 128-bit arguments; 0 when k > n. Costs min(k, n−k) small multiply-divides.
fn binomial_u128(n: u128, k: u128) -> BigUint {
    if k > n {
        return BigUint::zero();
    }
    let k = k.min(n - k);
    let mut r = BigUint::one();
    for i in 1..=k {
        // r = C(n−k+i, i) after this step; the division is exact.
        r *= n - k + i;
        r /= i;
    }
    r
}

/// The binomial coefficient C(n, k) = n! / (k!(n−k)!), exactly; 0 when k > n.
///
/// Computed by the multiplicative formula in min(k, n−k) steps, so C(n, k) with k near 0 or n
/// is cheap even for huge n.
pub fn binomial(n: u64, k: u64) -> BigUint {
    binomial_u128(n as u128, k as u128)
}

/// The multinomial coefficient (Σcᵢ)! / Πcᵢ!, exactly: the number of distinct sequences with
/// cᵢ copies of symbol i. The empty slice gives 1.
///
/// Computed as a product of binomials C(c₍₁₎+…+c₍ᵢ₎, c₍ᵢ₎) over the counts sorted in decreasing
/// order, which costs Σ_{i≥2} min(c₍ᵢ₎, c₍₁₎+…+c₍ᵢ₋₁₎) small multiply-divides.
pub fn multinomial(counts: &[u64]) -> BigUint {
    let mut sorted: Vec<u64> = counts.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut total: u128 = 0;
    let mut r = BigUint::one();
    for &c in &sorted {
        total += c as u128;
        if c > 0 && total > c as u128 {
            r *= binomial_u128(total, c as u128);
        }
    }
    r
}

/// The work (small multiply-divides) [`multinomial`] would spend on `counts`.
fn multinomial_work(counts: &[u64]) -> u128 {
    let mut sorted: Vec<u64> = counts.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let mut total: u128 = 0;
    let mut work: u128 = 0;
    for &c in &sorted {
        let before = total;
        total += c as u128;
        work += (c as u128).min(before);
    }
    work
}

/// ln x for a positive big integer, within about 2 ulp: x is scaled to a mantissa in [1, 2)
/// holding its top 64 bits, so ln x = ln(mantissa) + e·ln 2 with both terms accurate.
fn ln_biguint(x: &BigUint) -> f64 {
    let bits = x.bits();
    if bits <= 53 {
        // Exactly representable.
        return x.to_u64().map_or(f64::NAN, |v| (v as f64).ln());
    }
    let shift = bits - 64.min(bits);
    let top = (x >> shift).to_u64().unwrap_or(u64::MAX);
    // top ∈ [2^63, 2^64) (or fewer bits when bits < 64): mantissa = top / 2^(bits_of_top − 1).
    let top_bits = bits - shift;
    let mantissa = top as f64 / 2f64.powi(top_bits as i32 - 1);
    mantissa.ln() + (shift + top_bits - 1) as f64 * std::f64::consts::LN_2
}

/// Largest m for which [`ln_factorial`] reads an exactly-derived table.
const LN_FACTORIAL_TABLE_MAX: u64 = 256;

/// ln m! for m ≤ [`LN_FACTORIAL_TABLE_MAX`], each from the exact integer m!.
fn ln_factorial_table() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut f = BigUint::one();
        let mut out = Vec::with_capacity(LN_FACTORIAL_TABLE_MAX as usize + 1);
        out.push(0.0);
        for m in 1..=LN_FACTORIAL_TABLE_MAX {
            f *= m;
            out.push(ln_biguint(&f));
        }
        out
    })
}

/// ln m! = ln Γ(m+1).
///
/// For m ≤ 256 this is ln of the exact integer m! (within about 2 ulp). Above, it is Stirling's
/// series for ln Γ(x), x = m+1 ≥ 258, through the x⁻⁵ term: the truncation error is below
/// 1/(1680 x⁷) < 10⁻²⁰, so the error is the rounding of the leading terms, a few ulp of the
/// result.
pub fn ln_factorial(m: u64) -> f64 {
    if m <= LN_FACTORIAL_TABLE_MAX {
        return ln_factorial_table()[m as usize];
    }
    let x = m as f64 + 1.0;
    let half_ln_2pi = 0.5 * (2.0 * std::f64::consts::PI).ln();
    let x2 = x * x;
    let series = (1.0 / 12.0 - (1.0 / 360.0 - 1.0 / (1260.0 * x2)) / x2) / x;
    (x - 0.5) * x.ln() - x + half_ln_2pi + series
}

/// The table ln 0!, ln 1!, …, ln m! (entry i is [`ln_factorial`]`(i)`, bit for bit), for the f64
/// enumeration path: ln P(c) = ln n! − Σ ln cⱼ! + Σ cⱼ ln pⱼ costs k look-ups per count vector.
pub fn ln_factorials(m: usize) -> Vec<f64> {
    (0..=m as u64).map(ln_factorial).collect()
}

/// Work limit below which [`ln_multinomial`] takes ln of the exact coefficient.
const LN_MULTINOMIAL_EXACT_WORK: u128 = 512;

/// ln of the multinomial coefficient (Σcᵢ)! / Πcᵢ!, for the f64 path.
///
/// Accuracy: when computing the coefficient exactly is cheap (the work of [`multinomial`] is at
/// most 512 multiply-divides — e.g. every count vector with Σc ≤ 512, or any vector whose
/// counts other than the largest sum to at most 512), the result is ln of the exact integer,
/// within about 2 ulp. Otherwise it is ln_factorial(Σc) − Σ ln_factorial(cᵢ) with
/// [`ln_factorial`] from Stirling's series; the absolute error is then a few ulp of
/// ln((Σc)!) ≈ Σc·ln Σc (relative error of exp of the result ≈ 10⁻¹⁶·Σc·ln Σc).
pub fn ln_multinomial(counts: &[u64]) -> f64 {
    if multinomial_work(counts) <= LN_MULTINOMIAL_EXACT_WORK {
        return ln_biguint(&multinomial(counts));
    }
    let total: u128 = counts.iter().map(|&c| c as u128).sum();
    // Totals beyond 2^64 cannot arise from enumeration; saturate rather than fail.
    let total = u64::try_from(total).unwrap_or(u64::MAX);
    let mut acc = ln_factorial(total);
    for &c in counts {
        acc -= ln_factorial(c);
    }
    acc
}

/// The number of count vectors c ∈ ℕᵏ with Σc = n, i.e. of multisets of size n from k atoms:
/// C(n+k−1, k−1). For k = 0 it is 1 when n = 0 (the empty vector) and 0 otherwise.
pub fn num_count_vectors(n: usize, k: usize) -> BigUint {
    if k == 0 {
        return if n == 0 {
            BigUint::one()
        } else {
            BigUint::zero()
        };
    }
    binomial_u128(n as u128 + k as u128 - 1, k as u128 - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::to_f64;
    use num_rational::BigRational;

    fn big(v: u64) -> BigUint {
        BigUint::from(v)
    }

    #[test]
    fn binomial_small_values() {
        assert_eq!(binomial(0, 0), big(1));
        assert_eq!(binomial(5, 2), big(10));
        assert_eq!(binomial(5, 6), big(0));
        assert_eq!(binomial(60, 30), big(118264581564861424));
        assert_eq!(binomial(u64::MAX, 1), big(u64::MAX));
    }

    #[test]
    fn multinomial_small_values() {
        assert_eq!(multinomial(&[]), big(1));
        assert_eq!(multinomial(&[0, 0]), big(1));
        assert_eq!(multinomial(&[2, 1]), big(3));
        assert_eq!(multinomial(&[1, 1, 1]), big(6));
        assert_eq!(multinomial(&[2, 2, 2]), big(90));
        assert_eq!(multinomial_work(&[1000, 1]), 1);
    }

    #[test]
    fn ln_biguint_is_accurate() {
        // Against exact-to-f64 conversion for values in f64 range.
        let mut x = BigUint::one();
        for m in 1..=170u64 {
            x *= m;
            let via_f64 = to_f64(&BigRational::from_integer(x.clone().into())).ln();
            let got = ln_biguint(&x);
            assert!((got - via_f64).abs() <= 4.0 * f64::EPSILON * via_f64.abs().max(1.0));
        }
        // Powers of two are exact in the scaled form.
        let p = BigUint::one() << 4000usize;
        let expect = 4000.0 * std::f64::consts::LN_2;
        assert!((ln_biguint(&p) - expect).abs() <= 2.0 * f64::EPSILON * expect);
    }

    #[test]
    fn ln_factorial_stirling_matches_exact_across_the_switch() {
        // Compare Stirling (m > 256) with ln of the exact factorial for m up to 2000.
        let mut f = BigUint::one();
        let mut worst: f64 = 0.0;
        for m in 1..=2000u64 {
            f *= m;
            if m > LN_FACTORIAL_TABLE_MAX {
                let exact = ln_biguint(&f);
                let err = (ln_factorial(m) - exact).abs() / (exact * f64::EPSILON);
                worst = worst.max(err);
            }
        }
        assert!(worst <= 4.0, "worst error {worst} ulp-units");
    }

    #[test]
    fn ln_multinomial_paths_agree() {
        // A vector above the exact-work limit, checked against ln of its exact coefficient.
        let counts = [700u64, 650, 400];
        assert!(multinomial_work(&counts) > LN_MULTINOMIAL_EXACT_WORK);
        let exact = ln_biguint(&multinomial(&counts));
        let total_ln = ln_factorial(1750);
        let err = (ln_multinomial(&counts) - exact).abs();
        assert!(err <= 16.0 * f64::EPSILON * total_ln, "err {err}");
        // Exact path: small coefficients come out exactly.
        assert_eq!(ln_multinomial(&[3, 0, 0]), 0.0);
        assert_eq!(ln_multinomial(&[1, 1]), 2f64.ln());
    }

    #[test]
    fn count_vector_numbers() {
        assert_eq!(num_count_vectors(60, 3), big(1891));
        assert_eq!(num_count_vectors(0, 0), big(1));
        assert_eq!(num_count_vectors(3, 0), big(0));
        assert_eq!(num_count_vectors(0, 5), big(1));
        assert_eq!(num_count_vectors(7, 1), big(1));
    }
}
