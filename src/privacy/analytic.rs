//! Gaussian mechanism calibration: the classic formula and the analytic Gaussian mechanism.
//!
//! For the mechanism M(D) = f(D) + N(0, σ²I) with ℓ2 sensitivity Δ, the exact privacy curve
//! (Balle & Wang 2018, "Improving the Gaussian Mechanism for Differential Privacy", Thm 8) is
//!
//! δ(σ, ε; Δ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ),
//!
//! and M is (ε, δ)-DP iff δ ≥ δ(σ, ε; Δ). It depends on σ/Δ only, and equals the μ-GDP curve
//! with μ = Δ/σ ([`crate::privacy::gdp`]).
//!
//! * [`analytic_gaussian_delta`] / [`analytic_gaussian_log_delta`] evaluate it in log space via
//!   [`special::log_normal_cdf_tilted_diff`], accurate far below δ = 1e-300.
//! * [`analytic_gaussian_sigma`]: the smallest σ with δ(σ, ε; Δ) ≤ δ, by bracketing and
//!   bisection to adjacent floats, returning the conservative end.
//! * [`analytic_gaussian_epsilon`]: the smallest ε with δ(σ, ε; Δ) ≤ δ, likewise.
//! * [`analytic_gaussian_delta_by_integration`]: a slow, independent twin that integrates the
//!   privacy-loss tail ∫ max(0, p(x) − e^ε q(x)) dx by adaptive Gauss–Kronrod quadrature, with
//!   no Φ anywhere; the tests compare the two.
//! * The classic formula σ = Δ√(2 ln(1.25/δ))/ε ([`crate::privacy::classic_gaussian_sigma`],
//!   Dwork & Roth Thm A.1) is a theorem only for ε ≤ 1 ([`classic_is_valid`]);
//!   [`calibrate`] reports which method was used, whether its theorem applies, and the exact δ
//!   the returned σ achieves.

use crate::error::{
    invalid, require_nonnegative, require_positive, require_unit_open, Error, Result,
};
use crate::privacy::special::{self, bisect_threshold, bracket_up};
use crate::privacy::{classic_gaussian_sigma, validate_eps_delta};
use serde::{Deserialize, Serialize};

/// Does the classic calibration's theorem (Dwork & Roth Thm A.1) apply at this ε? It is proved
/// for ε ∈ (0, 1]; for ε > 1 the formula is still defined but proves nothing.
pub fn classic_is_valid(epsilon: f64) -> bool {
    epsilon > 0.0 && epsilon <= 1.0
}

/// ln δ(σ, ε; Δ) of the Gaussian mechanism (Balle & Wang 2018, Thm 8); −∞ when Δ = 0.
pub fn analytic_gaussian_log_delta(sensitivity: f64, sigma: f64, epsilon: f64) -> Result<f64> {
    require_nonnegative("sensitivity", sensitivity)?;
    require_positive("sigma", sigma)?;
    require_nonnegative("epsilon", epsilon)?;
    Ok(log_delta_unchecked(sensitivity, sigma, epsilon))
}

fn log_delta_unchecked(sensitivity: f64, sigma: f64, epsilon: f64) -> f64 {
    if sensitivity == 0.0 {
        return f64::NEG_INFINITY;
    }
    let r = sensitivity / sigma; // Δ/σ
    let s = epsilon * sigma / sensitivity; // εσ/Δ
    let a = 0.5 * r - s;
    let b = -0.5 * r - s;
    special::log_normal_cdf_tilted_diff(a, b)
}

/// δ(σ, ε; Δ) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) (Balle & Wang 2018, Thm 8), the
/// smallest δ for which N(0, σ²) noise on a Δ-sensitive query is (ε, δ)-DP. Underflows to 0
/// below δ ≈ 1e-308; use [`analytic_gaussian_log_delta`] there.
pub fn analytic_gaussian_delta(sensitivity: f64, sigma: f64, epsilon: f64) -> Result<f64> {
    Ok(analytic_gaussian_log_delta(sensitivity, sigma, epsilon)?.exp())
}

/// The smallest σ (to adjacent floats) with δ(σ, ε; Δ) ≤ δ: the analytic Gaussian mechanism's
/// calibration (Balle & Wang 2018, Alg. 1, solved here by bisection on σ rather than on their
/// auxiliary variable). The returned σ is the upper end of the final bracket, so
/// [`analytic_gaussian_delta`] at it is ≤ δ. Δ = 0 gives σ = 0.
pub fn analytic_gaussian_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> Result<f64> {
    validate_eps_delta(epsilon, delta)?;
    require_nonnegative("sensitivity", sensitivity)?;
    if sensitivity == 0.0 {
        return Ok(0.0);
    }
    let ok = |sigma: f64| log_delta_unchecked(sensitivity, sigma, epsilon).exp() <= delta;
    // The classic σ is within a small factor of the answer for every (ε, δ); bracket around it.
    let start = classic_gaussian_sigma(sensitivity, epsilon, delta)?;
    if !start.is_finite() {
        return Err(invalid(
            "sensitivity",
            format!("the classic σ = {start} is not finite; Δ = {sensitivity:e} is too large"),
        ));
    }
    let (lo, hi) = if ok(start) {
        let mut hi = start;
        let mut lo = 0.5 * start;
        let mut steps = 0;
        while ok(lo) && steps < special::MAX_BRACKET_STEPS {
            steps += 1;
            hi = lo;
            lo *= 0.5;
            if lo == 0.0 {
                break;
            }
        }
        (lo, hi)
    } else {
        bracket_up(2.0 * start, ok)
            .map(|(l, h)| (l.max(start), h))
            .ok_or_else(|| Error::Unsupported("no finite σ reaches this δ".into()))?
    };
    Ok(bisect_threshold(lo, hi, ok))
}

/// The smallest ε ≥ 0 (to adjacent floats) with δ(σ, ε; Δ) ≤ δ; the conservative end of the
/// final bracket. Returns 0 when the mechanism is already (0, δ)-DP (including Δ = 0).
pub fn analytic_gaussian_epsilon(sensitivity: f64, sigma: f64, delta: f64) -> Result<f64> {
    require_nonnegative("sensitivity", sensitivity)?;
    require_positive("sigma", sigma)?;
    require_unit_open("delta", delta)?;
    let ok = |eps: f64| log_delta_unchecked(sensitivity, sigma, eps).exp() <= delta;
    if ok(0.0) {
        return Ok(0.0);
    }
    let (lo, hi) = bracket_up(1.0, ok)
        .ok_or_else(|| Error::Unsupported("no finite ε reaches this δ".into()))?;
    Ok(bisect_threshold(lo, hi, ok))
}

/// Which calibration produced a σ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CalibrationMethod {
    /// σ = Δ√(2 ln(1.25/δ))/ε (Dwork & Roth Thm A.1; a theorem for ε ≤ 1 only).
    Classic,
    /// The exact curve of Balle & Wang 2018, Thm 8.
    Analytic,
}

/// A calibrated Gaussian noise scale with what it proves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GaussianCalibration {
    /// How σ was found.
    pub method: CalibrationMethod,
    /// ℓ2 sensitivity Δ.
    pub sensitivity: f64,
    /// Target ε.
    pub epsilon: f64,
    /// Target δ.
    pub delta: f64,
    /// The noise standard deviation.
    pub sigma: f64,
    /// Whether the method's theorem covers this ε (classic: ε ≤ 1; analytic: always).
    pub theorem_applies: bool,
    /// The exact δ(σ, ε; Δ) at the returned σ (≤ `delta` whenever the mechanism is (ε, δ)-DP).
    pub achieved_delta: f64,
}

/// Calibrate σ for (ε, δ) with the given method and report the exact δ it achieves.
pub fn calibrate(
    method: CalibrationMethod,
    sensitivity: f64,
    epsilon: f64,
    delta: f64,
) -> Result<GaussianCalibration> {
    let (sigma, theorem_applies) = match method {
        CalibrationMethod::Classic => (
            classic_gaussian_sigma(sensitivity, epsilon, delta)?,
            classic_is_valid(epsilon),
        ),
        CalibrationMethod::Analytic => {
            (analytic_gaussian_sigma(sensitivity, epsilon, delta)?, true)
        }
    };
    let achieved_delta = if sigma > 0.0 {
        analytic_gaussian_delta(sensitivity, sigma, epsilon)?
    } else {
        0.0
    };
    Ok(GaussianCalibration {
        method,
        sensitivity,
        epsilon,
        delta,
        sigma,
        theorem_applies,
        achieved_delta,
    })
}

// ---------------------------------------------------------------------------------------------
// The slow twin: numerical integration of the privacy-loss tail.

/// Gauss–Kronrod 15-point nodes on [−1, 1] (non-negative half; QUADPACK qk15).
#[allow(clippy::excessive_precision)] // QUADPACK's published digits, kept verbatim.
const XGK: [f64; 8] = [
    0.991_455_371_120_812_639_206_854_697_526_329,
    0.949_107_912_342_758_524_526_189_684_047_851,
    0.864_864_423_359_769_072_789_712_788_640_926,
    0.741_531_185_599_394_439_863_864_773_280_788,
    0.586_087_235_467_691_130_294_144_845_693_013,
    0.405_845_151_377_397_166_906_606_412_076_961,
    0.207_784_955_007_898_467_600_689_403_773_245,
    0.0,
];
/// Kronrod weights for [`XGK`].
#[allow(clippy::excessive_precision)] // QUADPACK's published digits, kept verbatim.
const WGK: [f64; 8] = [
    0.022_935_322_010_529_224_963_732_008_058_970,
    0.063_092_092_629_978_553_290_700_663_189_204,
    0.104_790_010_322_250_183_839_876_322_541_518,
    0.140_653_259_715_525_918_745_189_590_510_238,
    0.169_004_726_639_267_902_826_583_426_598_550,
    0.190_350_578_064_785_409_913_256_402_421_014,
    0.204_432_940_075_298_892_414_161_999_234_649,
    0.209_482_141_084_727_828_012_999_174_891_714,
];
/// Gauss 7-point weights for the odd-indexed nodes `XGK[1]`, `XGK[3]`, `XGK[5]`, `XGK[7]`.
#[allow(clippy::excessive_precision)] // QUADPACK's published digits, kept verbatim.
const WG: [f64; 4] = [
    0.129_484_966_168_869_693_270_611_432_679_082,
    0.279_705_391_489_276_667_901_467_771_423_780,
    0.381_830_050_505_118_944_950_369_775_488_975,
    0.417_959_183_673_469_387_755_102_040_816_327,
];

/// One Gauss–Kronrod (7, 15) panel on [a, b]: (Kronrod estimate, |Kronrod − Gauss|).
pub fn gauss_kronrod_15(f: &mut impl FnMut(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let fc = f(c);
    let mut k = WGK[7] * fc;
    let mut g = WG[3] * fc;
    for j in 0..7 {
        let x = h * XGK[j];
        let s = f(c - x) + f(c + x);
        k += WGK[j] * s;
        if j % 2 == 1 {
            g += WG[j / 2] * s;
        }
    }
    (k * h, ((k - g) * h).abs())
}

/// Globally adaptive Gauss–Kronrod quadrature of f over the consecutive panels given by
/// `breaks`, splitting the panel with the largest error estimate until the summed estimate is
/// ≤ `rel_tol`·|integral| (or 10 000 panels). Returns (integral, error estimate).
pub fn integrate_adaptive(
    mut f: impl FnMut(f64) -> f64,
    breaks: &[f64],
    rel_tol: f64,
) -> (f64, f64) {
    let mut panels: Vec<(f64, f64, f64, f64)> = breaks
        .windows(2)
        .map(|w| {
            let (i, e) = gauss_kronrod_15(&mut f, w[0], w[1]);
            (w[0], w[1], i, e)
        })
        .collect();
    loop {
        let total: f64 = panels.iter().map(|p| p.2).sum();
        let err: f64 = panels.iter().map(|p| p.3).sum();
        if err <= rel_tol * total.abs() || panels.len() >= 10_000 {
            return (total, err);
        }
        let (k, _) =
            panels.iter().enumerate().fold(
                (0, -1.0),
                |acc, (k, p)| if p.3 > acc.1 { (k, p.3) } else { acc },
            );
        let (a, b, _, _) = panels[k];
        let m = 0.5 * (a + b);
        let (i1, e1) = gauss_kronrod_15(&mut f, a, m);
        let (i2, e2) = gauss_kronrod_15(&mut f, m, b);
        panels[k] = (a, m, i1, e1);
        panels.push((m, b, i2, e2));
    }
}

/// ln δ(σ, ε; Δ) by integrating the privacy-loss tail: with p = N(0, σ²), q = N(Δ, σ²),
/// δ = ∫ max(0, p(x) − e^ε q(x)) dx = ∫_{−∞}^{x*} p(x)(1 − e^{ε − L(x)}) dx, where
/// L(x) = ln p(x)/q(x) = (Δ² − 2xΔ)/(2σ²) and x* = Δ/2 − εσ²/Δ is where L = ε. Substituting
/// x = x* − t gives p(x* − t)·(1 − e^{−Δt/σ²}) on t ≥ 0; the density is scaled by p(min(x*, 0))
/// so nothing under- or overflows, and the tail beyond max(x*, 0) + 13.5σ (relative weight
/// < e^{−90}) is dropped. Uses only exp/expm1 — no Φ — so it is an independent check of
/// [`analytic_gaussian_log_delta`]. Slow (hundreds of integrand evaluations).
pub fn analytic_gaussian_log_delta_by_integration(
    sensitivity: f64,
    sigma: f64,
    epsilon: f64,
) -> Result<f64> {
    require_nonnegative("sensitivity", sensitivity)?;
    require_positive("sigma", sigma)?;
    require_nonnegative("epsilon", epsilon)?;
    if sensitivity == 0.0 {
        return Ok(f64::NEG_INFINITY);
    }
    let s2 = sigma * sigma;
    let xs = 0.5 * sensitivity - epsilon * s2 / sensitivity;
    let xn = xs.min(0.0);
    let rate = sensitivity / s2;
    // ln[p(x* − t)/p(x_n)] = (x_n² − (x* − t)²)/(2σ²).
    let integrand = |t: f64| {
        let x = xs - t;
        let e = ((xn - x) * (xn + x)) / (2.0 * s2);
        e.exp() * (-(-rate * t).exp_m1())
    };
    let upper = xs.max(0.0) + 13.5 * sigma;
    // Geometric initial panels from the integrand's natural scale, so a narrow peak at t ≈ 0 is
    // resolved from the start.
    let scale = (sigma.min(s2 / xs.abs().max(f64::MIN_POSITIVE))).min(upper);
    let mut breaks = vec![0.0];
    let mut t = scale / 16.0;
    while t < upper {
        breaks.push(t);
        t *= 2.0;
    }
    breaks.push(upper);
    let (integral, _) = integrate_adaptive(integrand, &breaks, 1e-15);
    let log_pn = -(xn * xn) / (2.0 * s2) - (sigma * (2.0 * std::f64::consts::PI).sqrt()).ln();
    Ok(log_pn + integral.ln())
}

/// δ(σ, ε; Δ) by numerical integration ([`analytic_gaussian_log_delta_by_integration`]).
pub fn analytic_gaussian_delta_by_integration(
    sensitivity: f64,
    sigma: f64,
    epsilon: f64,
) -> Result<f64> {
    Ok(analytic_gaussian_log_delta_by_integration(sensitivity, sigma, epsilon)?.exp())
}
