//! The chi-square distribution's tails and quantiles, and the two-sided test of a variance ratio
//! built on them: given N independent N(0, κ²) values in units of a hypothesised scale
//! (κ = 1 under the hypothesis), Q = Σ xᵢ² ∼ κ²·χ²_N, and κ = 1 is rejected at level α when Q
//! falls outside [χ²_N(α/2), χ²_N(1 − α/2)]. The interval for κ = σ_true/σ_hypothesised at
//! confidence 1 − α is [√(Q/χ²_N(1 − α/2)), √(Q/χ²_N(α/2))]. Paper-free.

use crate::error::{invalid, Error, Result};
use serde::{Deserialize, Serialize};
use statrs::function::gamma::{checked_gamma_lr, checked_gamma_ur};

/// P\[χ²_k ≤ x\] and P\[χ²_k > x\] (each computed directly, so the smaller tail keeps its relative
/// accuracy), for k ≥ 1 and x ≥ 0 finite.
pub fn chi_square_tails(k: u64, x: f64) -> Result<(f64, f64)> {
    if k == 0 {
        return Err(invalid("k", "degrees of freedom must be ≥ 1"));
    }
    if !(x.is_finite() && x >= 0.0) {
        return Err(invalid("x", format!("must be finite and ≥ 0, got {x}")));
    }
    if x == 0.0 {
        return Ok((0.0, 1.0));
    }
    let a = k as f64 / 2.0;
    let lower = checked_gamma_lr(a, x / 2.0).map_err(|e| Error::NotCertified(e.to_string()))?;
    let upper = checked_gamma_ur(a, x / 2.0).map_err(|e| Error::NotCertified(e.to_string()))?;
    Ok((lower, upper))
}

/// The x with P\[χ²_k ≤ x\] = p (`lower_tail`) or P\[χ²_k > x\] = p (otherwise), p ∈ (0, 1/2], by
/// bisection on the directly computed tail to a relative width of 1e-13.
pub fn chi_square_quantile(k: u64, p: f64, lower_tail: bool) -> Result<f64> {
    if !(p > 0.0 && p <= 0.5) {
        return Err(invalid("p", format!("must be in (0, 1/2], got {p}")));
    }
    // The tail in question is monotone in x: increasing (lower) or decreasing (upper).
    let tail = |x: f64| -> Result<f64> {
        let (lo, up) = chi_square_tails(k, x)?;
        Ok(if lower_tail { lo } else { up })
    };
    let kf = k as f64;
    let (mut a, mut b) = (0.0f64, kf.max(1.0));
    // Bracket: the tail at b must be past p.
    let past = |v: f64| if lower_tail { v >= p } else { v <= p };
    while !past(tail(b)?) {
        a = b;
        b *= 2.0;
        if !b.is_finite() {
            return Err(Error::NotCertified(format!(
                "chi-square quantile k = {k}, p = {p}: no bracket"
            )));
        }
    }
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if past(tail(m)?) {
            b = m;
        } else {
            a = m;
        }
        if b - a <= 1e-13 * b {
            break;
        }
    }
    Ok(0.5 * (a + b))
}

/// The two-sided test of κ = 1 for N values of N(0, κ²) (module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VarianceRatioTest {
    /// N, the number of standardized values.
    pub n: u64,
    /// Q = Σ xᵢ².
    pub statistic: f64,
    /// α, the two-sided level.
    pub alpha: f64,
    /// χ²_N(α/2).
    pub lower: f64,
    /// χ²_N(1 − α/2).
    pub upper: f64,
    /// κ̂ = √(Q/N).
    pub ratio_hat: f64,
    /// √(Q/χ²_N(1 − α/2)), the lower end of the 1 − α interval for κ.
    pub ratio_lo: f64,
    /// √(Q/χ²_N(α/2)), the upper end.
    pub ratio_hi: f64,
}

impl VarianceRatioTest {
    /// The test on the standardized values `x` (each hypothesised N(0, 1)) at level α ∈ (0, 1).
    pub fn new(x: &[f64], alpha: f64) -> Result<VarianceRatioTest> {
        if x.is_empty() {
            return Err(invalid("x", "needs at least one value"));
        }
        crate::error::require_finite("x", x)?;
        if !(alpha > 0.0 && alpha < 1.0) {
            return Err(invalid("alpha", format!("must be in (0, 1), got {alpha}")));
        }
        let n = x.len() as u64;
        let q: f64 = x.iter().map(|v| v * v).sum();
        let lower = chi_square_quantile(n, alpha / 2.0, true)?;
        let upper = chi_square_quantile(n, alpha / 2.0, false)?;
        Ok(VarianceRatioTest {
            n,
            statistic: q,
            alpha,
            lower,
            upper,
            ratio_hat: (q / n as f64).sqrt(),
            ratio_lo: (q / upper).sqrt(),
            ratio_hi: (q / lower).sqrt(),
        })
    }

    /// Whether κ = 1 is accepted (Q ∈ [χ²_N(α/2), χ²_N(1 − α/2)]).
    pub fn accepts(&self) -> bool {
        self.statistic >= self.lower && self.statistic <= self.upper
    }

    /// How far Q lies outside the acceptance region, as a ratio ≥ 1 when rejected:
    /// max(Q/χ²_N(1 − α/2), χ²_N(α/2)/Q) (≤ 1 when accepted).
    pub fn excess(&self) -> f64 {
        (self.statistic / self.upper).max(self.lower / self.statistic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_match_reference_values() {
        // χ²_1 upper 5% = 1.959963984540054² = 3.841458820694124; χ²_2 upper p = −2 ln p.
        let q = chi_square_quantile(1, 0.05, false).unwrap();
        assert!((q - 3.841458820694124).abs() < 1e-9, "{q}");
        let q = chi_square_quantile(2, 1e-6, false).unwrap();
        assert!((q - (-2.0 * 1e-6f64.ln())).abs() < 1e-8, "{q}");
        // χ²_2 lower p = −2 ln(1 − p).
        let q = chi_square_quantile(2, 1e-6, true).unwrap();
        let exact = -2.0 * (-1e-6f64).ln_1p();
        assert!((q / exact - 1.0).abs() < 1e-8, "{q} vs {exact}");
    }

    #[test]
    fn test_accepts_its_own_scale_and_names_bad_input() {
        let t = VarianceRatioTest::new(&[1.0, -1.0, 1.0, -1.0], 1e-6).unwrap();
        assert!(t.accepts());
        assert_eq!(t.ratio_hat, 1.0);
        assert!(t.ratio_lo < 1.0 && t.ratio_hi > 1.0);
        assert!(VarianceRatioTest::new(&[], 0.1).is_err());
        assert!(VarianceRatioTest::new(&[1.0], 1.5).is_err());
    }
}
