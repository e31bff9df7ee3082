//! KLLW22 App. A.1–A.3: the moments-accountant pieces (Definitions 5–6, Lemmas 3–5) and the
//! probabilistic tools (Lemmas 6–12, Definition 7) as plain functions, one per formula, plus the
//! exact χ² tail that Lemma 6 is checked against.

use crate::error::{invalid, Result};
use crate::exact::ln_factorial;
use crate::papers::Reading;
use crate::privacy::rdp::integrate_gk15;
use crate::privacy::special::{erfcx, log_sum_exp};

/// Which ζ range KLLW22 Lemma 6 is applied on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZetaRange {
    /// The paper's ζ ∈ (e^{−p/8}, 1) (KLLW22 Lemma 6).
    Paper,
    /// ζ ∈ [e^{−2p}, 1), where Laurent–Massart implies Lemma 6 (E-KLLW22-12).
    Relaxed,
}

/// Check that `zeta` (the level Lemma 6 is applied at) lies in the chosen range for dimension p.
pub fn lemma6_check_level(p: usize, zeta: f64, range: ZetaRange) -> Result<()> {
    if p == 0 {
        return Err(invalid("p", "must be ≥ 1"));
    }
    let lo = match range {
        ZetaRange::Paper => (-(p as f64) / 8.0).exp(),
        ZetaRange::Relaxed => (-2.0 * p as f64).exp(),
    };
    let ok = match range {
        ZetaRange::Paper => zeta > lo && zeta < 1.0,
        ZetaRange::Relaxed => zeta >= lo && zeta < 1.0,
    };
    if ok {
        Ok(())
    } else {
        Err(invalid(
            "zeta",
            format!("must be in the {range:?} range of KLLW22 Lemma 6 (lower end {lo:e}, below 1), got {zeta}"),
        ))
    }
}

/// The radius of KLLW22 Lemma 6: σ√p(1 + (8 log(1/ζ)/p)^{1/4}). Errors outside the range.
pub fn lemma6_radius(sigma: f64, p: usize, zeta: f64, range: ZetaRange) -> Result<f64> {
    lemma6_check_level(p, zeta, range)?;
    if !(sigma.is_finite() && sigma > 0.0) {
        return Err(invalid(
            "sigma",
            format!("must be finite and > 0, got {sigma}"),
        ));
    }
    let pf = p as f64;
    Ok(sigma * pf.sqrt() * (1.0 + (8.0 * (1.0 / zeta).ln() / pf).powf(0.25)))
}

/// ln P(χ²_p > x), exactly by the finite sums of the χ² survival function (for use with KLLW22
/// Lemma 6, where ‖b‖²/σ² ∼ χ²_p): with y = x/2,
/// * p = 2m: e^{−y} Σ_{k<m} y^k/k!;
/// * p = 2m + 1: erfc(√y) + e^{−y} Σ_{k<m} y^{k+1/2}/Γ(k + 3/2).
///
/// Terms are summed in log space, so the result is accurate far into the tail.
pub fn chi_square_log_sf(p: usize, x: f64) -> Result<f64> {
    if p == 0 {
        return Err(invalid("p", "must be ≥ 1"));
    }
    if x.is_nan() {
        return Err(invalid("x", "must not be NaN"));
    }
    if x <= 0.0 {
        return Ok(0.0);
    }
    let y = 0.5 * x;
    let ly = y.ln();
    let m = p / 2;
    let mut terms = Vec::with_capacity(m + 1);
    if p % 2 == 0 {
        for k in 0..m {
            terms.push(-y + k as f64 * ly - ln_factorial(k as u64));
        }
    } else {
        let r = y.sqrt();
        terms.push(erfcx(r).ln() - y);
        // ln Γ(3/2) = ln(√π/2); Γ(k + 5/2) = (k + 3/2)Γ(k + 3/2).
        let mut lg = 0.5 * std::f64::consts::PI.ln() - std::f64::consts::LN_2;
        for k in 0..m {
            terms.push(-y + (k as f64 + 0.5) * ly - lg);
            lg += (k as f64 + 1.5).ln();
        }
    }
    Ok(log_sum_exp(&terms).min(0.0))
}

/// KLLW22 Lemma 5: D_κ(N(μ, σ²I_p) ‖ N(ν, σ²I_p)) = κ‖μ − ν‖²/(2σ²), κ ∈ (1, ∞).
pub fn renyi_gaussian(kappa: f64, mu: &[f64], nu: &[f64], sigma: f64) -> Result<f64> {
    if !(kappa.is_finite() && kappa > 1.0) {
        return Err(invalid("kappa", format!("must be in (1, ∞), got {kappa}")));
    }
    if mu.len() != nu.len() || mu.is_empty() {
        return Err(invalid("nu", "must have the (non-zero) length of mu"));
    }
    if !(sigma.is_finite() && sigma > 0.0) {
        return Err(invalid(
            "sigma",
            format!("must be finite and > 0, got {sigma}"),
        ));
    }
    let d2: f64 = mu.iter().zip(nu).map(|(a, b)| (a - b) * (a - b)).sum();
    Ok(kappa * d2 / (2.0 * sigma * sigma))
}

/// The quadrature twin of KLLW22 Lemma 5 from Definition 6: both Gaussians are
/// isotropic, so the density ratio depends only on the coordinate along μ − ν and D_κ is the 1-D
/// divergence at distance d = ‖μ − ν‖: (κ − 1)⁻¹ log ∫ p(x)^κ q(x)^{1−κ} dx with p = N(d, σ²),
/// q = N(0, σ²), by adaptive Gauss–Kronrod. Returns (divergence, estimated absolute error).
pub fn renyi_gaussian_quadrature(kappa: f64, d: f64, sigma: f64) -> Result<(f64, f64)> {
    if !(kappa.is_finite() && kappa > 1.0) {
        return Err(invalid("kappa", format!("must be in (1, ∞), got {kappa}")));
    }
    if !(sigma.is_finite() && sigma > 0.0 && d.is_finite()) {
        return Err(invalid("sigma", "sigma must be finite > 0 and d finite"));
    }
    let s2 = 2.0 * sigma * sigma;
    let ln_norm = -(sigma * (2.0 * std::f64::consts::PI).sqrt()).ln();
    let log_f =
        |x: f64| kappa * (-(x - d) * (x - d) / s2) + (1.0 - kappa) * (-x * x / s2) + ln_norm;
    // Scale out the largest value on a coarse grid so the integrand stays O(1).
    let (lo, hi) = (
        d.min(0.0).min(kappa * d) - 40.0 * sigma,
        d.max(0.0).max(kappa * d) + 40.0 * sigma,
    );
    let shift = (0..=400)
        .map(|i| log_f(lo + (hi - lo) * i as f64 / 400.0))
        .fold(f64::NEG_INFINITY, f64::max);
    let (v, err, _) = integrate_gk15(
        |x| (log_f(x) - shift).exp(),
        lo,
        hi,
        32,
        1e-14,
        0.0,
        1 << 14,
    );
    let div = (v.ln() + shift) / (kappa - 1.0);
    Ok((div, err / v / (kappa - 1.0)))
}

/// KLLW22 Lemma 4 for T composed Gaussian mechanisms with per-step α(λ) = λ(λ+1)/(2z²)
/// (noise multiplier z = σ/Δ, Lemma 5 at order λ + 1): δ = min_{λ>0} exp(Tλ(λ+1)/(2z²) − λε),
/// in closed form: with c = T/(2z²), δ = exp(−(ε − c)²/(4c)) if ε > c, else 1.
pub fn lemma4_delta(noise_multiplier: f64, steps: u64, epsilon: f64) -> Result<f64> {
    if !(noise_multiplier.is_finite() && noise_multiplier > 0.0) {
        return Err(invalid("noise_multiplier", "must be finite and > 0"));
    }
    if steps == 0 {
        return Err(invalid("steps", "must be ≥ 1"));
    }
    if !(epsilon.is_finite() && epsilon > 0.0) {
        return Err(invalid("epsilon", "must be finite and > 0"));
    }
    let c = steps as f64 / (2.0 * noise_multiplier * noise_multiplier);
    Ok(if epsilon > c {
        (-(epsilon - c) * (epsilon - c) / (4.0 * c)).exp()
    } else {
        1.0
    })
}

/// The output distribution of randomized response with log-odds a on the bit x: P(o = x) =
/// e^a/(1 + e^a).
pub fn rr_pmf(a: f64, x: usize) -> [f64; 2] {
    let keep = 1.0 / (1.0 + (-a).exp());
    if x == 0 {
        [keep, 1.0 - keep]
    } else {
        [1.0 - keep, keep]
    }
}

/// KLLW22 Definition 5 for a finite output space: α(λ; D, D′) =
/// log Σ_o P(o)^{λ+1} Q(o)^{−λ}, with P = M(D), Q = M(D′) (real λ > 0).
pub fn alpha_discrete(p: &[f64], q: &[f64], lambda: f64) -> Result<f64> {
    if p.len() != q.len() {
        return Err(invalid("q", "must have the length of p"));
    }
    if !(lambda.is_finite() && lambda > 0.0) {
        return Err(invalid(
            "lambda",
            format!("must be finite and > 0, got {lambda}"),
        ));
    }
    let terms: Vec<f64> = p
        .iter()
        .zip(q)
        .filter(|(a, _)| **a > 0.0)
        .map(|(a, c)| (lambda + 1.0) * a.ln() - lambda * c.ln())
        .collect();
    Ok(log_sum_exp(&terms))
}

/// The deviation radius of KLLW22 Lemma 9: √(2σ² log(m/ζ)/n) + 2c log(m/ζ)/(3n), m = 1 for
/// [`Reading::PaperLiteral`] (as printed: log(1/ζ) for the two-sided |·|) and m = 2 for
/// [`Reading::Corrected`] (a two-sided use needs log(2/ζ), E-KLLW22-34; one-sided statements keep
/// log(1/ζ)).
pub fn lemma9_radius(var: f64, c: f64, n: u64, zeta: f64, reading: Reading) -> Result<f64> {
    if !(zeta > 0.0 && zeta < 1.0) {
        return Err(invalid("zeta", format!("must be in (0, 1), got {zeta}")));
    }
    if n == 0 {
        return Err(invalid("n", "must be ≥ 1"));
    }
    if !(var >= 0.0 && var.is_finite() && c > 0.0 && c.is_finite()) {
        return Err(invalid("c", "variance must be ≥ 0 and c > 0, both finite"));
    }
    let m = match reading {
        Reading::PaperLiteral => 1.0,
        Reading::Corrected => 2.0,
    };
    let l = (m / zeta).ln();
    let nf = n as f64;
    Ok((2.0 * var * l / nf).sqrt() + 2.0 * c * l / (3.0 * nf))
}

/// The right-hand side of KLLW22 Lemma 12: 6√((Σ_i E\[g_i²\])τ) + 4τM.
pub fn lemma12_bound(sum_second_moments: f64, tau: f64, m: f64) -> f64 {
    6.0 * (sum_second_moments * tau).sqrt() + 4.0 * tau * m
}

/// The radius of KLLW22 Lemma 8: e(a√log(e/ζ) + b log(e/ζ)); `with_e = false` drops the factor
/// e (the negative control; compare E-KLLW22-23).
pub fn lemma8_radius(a: f64, b: f64, zeta: f64, with_e: bool) -> Result<f64> {
    if !(zeta > 0.0 && zeta < 1.0) {
        return Err(invalid("zeta", format!("must be in (0, 1), got {zeta}")));
    }
    if !(a > 0.0 && b > 0.0 && a.is_finite() && b.is_finite()) {
        return Err(invalid("a", "a and b must be finite and > 0"));
    }
    let l = 1.0 - zeta.ln();
    let e = if with_e { std::f64::consts::E } else { 1.0 };
    Ok(e * (a * l.sqrt() + b * l))
}

/// The right-hand side of KLLW22 Lemma 7 as printed: 12√2·τnβ⌈log n⌉ + 4M√(τn), with the
/// natural logarithm (the smaller reading; E-KLLW22-41).
pub fn lemma7_bound(n: u64, tau: f64, beta: f64, m: f64) -> f64 {
    let ceil_ln = (n as f64).ln().ceil();
    12.0 * 2f64.sqrt() * tau * n as f64 * beta * ceil_ln + 4.0 * m * (tau * n as f64).sqrt()
}

/// Which f_i a weakly self-bounded check uses (KLLW22 Definition 7 and Lemma 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelfBoundForm {
    /// f_i = sup over the i-th coordinate, so f_i ≥ f (as printed in Lemma 10).
    Sup,
    /// f_i = inf over the i-th coordinate, so f_i ≤ f (the source's form, Maurer 2006).
    Inf,
}

/// The right-hand side of KLLW22 Lemma 10: exp(−t²/(2a·E\[f\] + 2b)).
pub fn lemma10_bound(t: f64, a: f64, b: f64, mean_f: f64) -> f64 {
    (-t * t / (2.0 * a * mean_f + 2.0 * b)).exp()
}
