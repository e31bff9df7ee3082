//! Special functions for the accountants, in log space where tails matter: the standard normal
//! CDF Φ and log Φ, and stable log-sum-exp helpers. erfc comes from `statrs` (rational
//! approximations, ≈ 1e-16 relative); log Φ(x) for x < −30 uses the asymptotic series of the Mills
//! ratio, whose truncation error there is below 1e-16 relative.

use statrs::function::erf::erfc;

/// Φ(x) = P(N(0,1) ≤ x) = erfc(−x/√2)/2.
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// log Φ(x), accurate in the far left tail.
pub fn log_normal_cdf(x: f64) -> f64 {
    if x > -30.0 {
        let p = normal_cdf(x);
        if p > 0.5 {
            // log(1 − Φ(−x)) without cancellation.
            (-normal_cdf(-x)).ln_1p()
        } else {
            p.ln()
        }
    } else {
        // Φ(x) = φ(x)/|x| · (1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ − …) for x → −∞.
        let x2 = x * x;
        let series =
            1.0 - 1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2) + 105.0 / (x2 * x2 * x2 * x2);
        -0.5 * x2 - (-x).ln() - 0.5 * (2.0 * std::f64::consts::PI).ln() + series.ln()
    }
}

/// log(eᵃ + eᵇ).
pub fn log_add_exp(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// log(eᵃ − eᵇ) for a ≥ b (−∞ when equal; NaN when a < b).
pub fn log_sub_exp(a: f64, b: f64) -> f64 {
    if b == f64::NEG_INFINITY {
        return a;
    }
    if a < b {
        return f64::NAN;
    }
    if a == b {
        return f64::NEG_INFINITY;
    }
    a + (-(b - a).exp()).ln_1p()
}

/// log Σ exp(v_i), stable.
pub fn log_sum_exp(v: &[f64]) -> f64 {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-16);
        // log Φ(−40) continuity across the switch at −30.
        let a = log_normal_cdf(-29.999999);
        let b = log_normal_cdf(-30.000001);
        assert!((a - b).abs() < 1e-4);
    }

    #[test]
    fn log_exp_helpers() {
        assert!((log_add_exp(0.0, 0.0) - 2f64.ln()).abs() < 1e-15);
        assert!((log_sub_exp(2f64.ln(), 0.0)).abs() < 1e-15);
        assert!((log_sum_exp(&[0.0, 0.0, 0.0]) - 3f64.ln()).abs() < 1e-15);
    }
}
