//! Rényi differential privacy (RDP) accounting (Mironov 2017, "Rényi Differential Privacy").
//!
//! A mechanism M is (α, r)-RDP when D_α(M(S) ‖ M(S′)) ≤ r for every neighbouring pair, where
//! D_α(P ‖ Q) = (α − 1)⁻¹ log E_Q[(dP/dQ)^α]. This module prices a [`DpEvent`] tree as an RDP
//! *curve* (one value per order α of a grid) and converts it to (ε, δ).
//!
//! | quantity | function | source |
//! |---|---|---|
//! | Gaussian, noise multiplier σ | [`gaussian_rdp`]: α/(2σ²) | Mironov 2017, Table II |
//! | Laplace, scale b = noise multiplier | [`laplace_rdp`] (α = 1 and α = ∞ included) | Mironov 2017, Prop 6 / Table II |
//! | Poisson-subsampled Gaussian, add/remove, integer α | [`poisson_gaussian_rdp`]: exact binomial expansion in log space | Mironov–Talwar–Zhang 2019 (MTZ19) §3.2; Abadi et al. 2016 |
//! | Poisson-subsampled Gaussian, add/remove, fractional α | [`poisson_gaussian_rdp`]: MTZ19 §3.3 two-sided series, signed, to convergence | MTZ19 §3.3 |
//! | Fixed-size sampling without replacement, replace-one | [`wor_rdp`]: the general upper bound of Wang–Balle–Kasiviswanathan 2019 (WBK19) Theorem 9, fractional α by their Corollary 10 | WBK19 |
//! | composition | sum of curves (`composed`, `self_composed`) | Mironov 2017, Prop 1 |
//! | parallel composition | pointwise max (each record in one part) | BGM23 Thm 8 |
//! | RDP → (ε, δ) | [`eps_from_rdp`] / [`delta_from_rdp`] | Canonne–Kamath–Steinke 2020 Prop 12; Asoodeh et al. 2021 |
//! | RDP → (ε, δ), classic | [`eps_from_rdp_classic`] / [`delta_from_rdp_classic`] | Mironov 2017, Prop 3 |
//!
//! The slow twins [`poisson_gaussian_rdp_quadrature`], [`poisson_gaussian_rdp_reverse_quadrature`]
//! and [`laplace_rdp_quadrature`] compute the same divergences by adaptive Gauss–Kronrod (7–15)
//! quadrature of the densities (in log space, scaled by the integrand's maximum), so the closed
//! forms and series are checked against an independent computation.
//!
//! **Erratum-style note on a published value.** `dp_accounting` (Google's accountant, 2023–) sums
//! the *absolute values* of the MTZ19 fractional-order terms (its `_log_comb` is log|C(α, i)| from
//! `gammaln` and every term is added). That is a valid upper bound but not the divergence: at
//! q = 0.01, σ = 2.5, α = 1.5 it gives 50·r = 6.70579741e−4 while the divergence is 6.50070897e−4
//! (the signed MTZ19 series, this module's quadrature twin, and a 40-digit mpmath quadrature all
//! agree). [`poisson_gaussian_rdp`] is the signed (exact) series; the absolute-value variant is
//! kept as [`poisson_gaussian_rdp_abs_series`] so the published numbers can be reproduced.

use crate::error::{
    invalid, require_fraction, require_nonnegative, require_positive, require_unit_open, Error,
    Result,
};
use crate::privacy::accountant::{Accountant, EpsilonReport};
use crate::privacy::special::{log_add_exp, log_normal_cdf, log_sub_exp};
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};
use std::collections::HashMap;

const LN_2: f64 = std::f64::consts::LN_2;

// ---------------------------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------------------------

/// The largest finite order accepted: the exact expansions cost O(α) terms per order.
pub const MAX_FINITE_ORDER: f64 = 1e6;

/// α ∈ [1, ∞] (`allow_one`) or (1, ∞], finite orders at most [`MAX_FINITE_ORDER`].
fn check_alpha(alpha: f64, allow_one: bool) -> Result<()> {
    let ok = if allow_one { alpha >= 1.0 } else { alpha > 1.0 };
    if ok && (alpha <= MAX_FINITE_ORDER || alpha == f64::INFINITY) {
        Ok(())
    } else {
        let range = if allow_one {
            "[1, 1e6] ∪ {∞}"
        } else {
            "(1, 1e6] ∪ {∞}"
        };
        Err(invalid("alpha", format!("must be in {range}, got {alpha}")))
    }
}

/// Check an order grid: non-empty, every order in (1, 1e6] or +∞ (NaN not).
pub fn check_orders(orders: &[f64]) -> Result<()> {
    if orders.is_empty() {
        return Err(invalid("orders", "must be non-empty"));
    }
    for (i, &a) in orders.iter().enumerate() {
        if a.is_nan() || a <= 1.0 || (a > MAX_FINITE_ORDER && a != f64::INFINITY) {
            return Err(invalid(
                format!("orders[{i}]"),
                format!("must be in (1, 1e6] or +∞, got {a}"),
            ));
        }
    }
    Ok(())
}

fn is_integer(alpha: f64) -> bool {
    alpha.is_finite() && alpha.fract() == 0.0
}

// ---------------------------------------------------------------------------------------------
// Unsampled mechanisms
// ---------------------------------------------------------------------------------------------

/// RDP of the Gaussian mechanism with noise multiplier σ (noise standard deviation σ·Δ₂):
/// ε(α) = α/(2σ²) for α ∈ [1, ∞) and +∞ at α = ∞ (Mironov 2017, Table II;
/// D_α(N(Δ, σ²Δ²) ‖ N(0, σ²Δ²)) = α/(2σ²)). Errors name `noise_multiplier` / `alpha`.
pub fn gaussian_rdp(noise_multiplier: f64, alpha: f64) -> Result<f64> {
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, true)?;
    Ok(gaussian_rdp_unchecked(noise_multiplier, alpha))
}

fn gaussian_rdp_unchecked(sigma: f64, alpha: f64) -> f64 {
    if alpha.is_infinite() {
        f64::INFINITY
    } else {
        alpha / (2.0 * sigma * sigma)
    }
}

/// RDP of the Laplace mechanism with scale b = noise_multiplier·Δ₁ (Mironov 2017, Proposition 6
/// and Table II), with ε₀ = 1/b:
///
/// * α > 1: ε(α) = (α − 1)⁻¹ log( α/(2α−1)·e^{(α−1)ε₀} + (α−1)/(2α−1)·e^{−αε₀} ), evaluated as
///   ε₀ + log1p((α − 1)·expm1(−(2α − 1)ε₀)/(2α − 1))/(α − 1), which is stable as α → 1
///   (the division is done as c·log1p(y)/y with y = (α − 1)c);
/// * α = 1 (the KL divergence, the limit α → 1): ε₀ + e^{−ε₀} − 1;
/// * α = ∞: ε₀ (the pure-DP guarantee).
pub fn laplace_rdp(noise_multiplier: f64, alpha: f64) -> Result<f64> {
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, true)?;
    Ok(laplace_rdp_unchecked(noise_multiplier, alpha))
}

fn laplace_rdp_unchecked(b: f64, alpha: f64) -> f64 {
    let e0 = 1.0 / b;
    if alpha.is_infinite() {
        return e0;
    }
    // c = expm1(−(2α−1)ε₀)/(2α−1) ∈ (−1/(2α−1), 0].
    let c = (-(2.0 * alpha - 1.0) * e0).exp_m1() / (2.0 * alpha - 1.0);
    let y = (alpha - 1.0) * c;
    if y == 0.0 {
        // α = 1 (or underflow of y): the limit is ε₀ + c with c = e^{−ε₀} − 1.
        return e0 + c;
    }
    e0 + c * (y.ln_1p() / y)
}

// ---------------------------------------------------------------------------------------------
// Poisson-subsampled Gaussian (add/remove)
// ---------------------------------------------------------------------------------------------

/// log(eᶜ − 1) for c > 0.
fn log_expm1(c: f64) -> f64 {
    if c > 40.0 {
        c + (-(-c).exp()).ln_1p()
    } else {
        c.exp_m1().ln()
    }
}

/// log A_α − for the Poisson-subsampled Gaussian at integer α ≥ 2, where
/// A_α = E_{z∼N(0,σ²)}[((1−q) + q·e^{(2z−1)/(2σ²)})^α]
///     = Σ_{i=0}^{α} C(α,i) q^i (1−q)^{α−i} e^{(i²−i)/(2σ²)}   (MTZ19 §3.2, Abadi et al. 2016).
/// Because the binomial weights sum to one, A_α − 1 = Σ_{i≥2} C(α,i) q^i (1−q)^{α−i}
/// expm1((i²−i)/(2σ²)) (the i = 0, 1 terms vanish); summing that in log space and returning
/// log1p(A_α − 1) keeps full relative precision when q is small.
fn log_a_int(q: f64, sigma: f64, alpha: u64) -> f64 {
    let s2 = 2.0 * sigma * sigma;
    let lq = q.ln();
    let l1q = (-q).ln_1p();
    let a = alpha as f64;
    // log C(α, i), accumulated: C(α, i+1) = C(α, i)·(α − i)/(i + 1).
    let mut log_c = 0.0f64;
    let mut terms = Vec::with_capacity(alpha as usize);
    for i in 0..=alpha {
        let fi = i as f64;
        if i >= 2 {
            terms.push(log_c + fi * lq + (a - fi) * l1q + log_expm1((fi * fi - fi) / s2));
        }
        if i < alpha {
            log_c += (a - fi).ln() - (fi + 1.0).ln();
        }
    }
    let log_am1 = log_sum_exp_sorted(&terms);
    log_add_exp(0.0, log_am1)
}

/// log Σ exp(v_i) with the largest term factored out (index-order summation).
fn log_sum_exp_sorted(v: &[f64]) -> f64 {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if m.is_infinite() {
        return m;
    }
    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// Cap on the number of terms of the fractional-order series; beyond it the order is priced +∞.
pub const FRACTIONAL_SERIES_MAX_TERMS: usize = 200_000;

/// log A_α for fractional α by the MTZ19 §3.3 series. Splitting the real line at
/// z₀ = σ² log(1/q − 1) + 1/2 (where q·e^{(2z−1)/(2σ²)} = 1 − q) and expanding
/// ((1−q) + q·r(z))^α by the generalized binomial theorem in the smaller part on each side:
///
/// A_α = Σ_{i≥0} C(α,i) [ q^i (1−q)^{α−i} e^{(i²−i)/(2σ²)} Φ((z₀−i)/σ)
///                       + q^{α−i} (1−q)^i e^{(j²−j)/(2σ²)} Φ((j−z₀)/σ) ],  j = α − i,
///
/// (Φ((z₀−i)/σ) = ½erfc((i−z₀)/(√2σ)), as in MTZ19). C(α, i) changes sign for i > α, so positive
/// and negative terms are accumulated separately in log space and subtracted once at the end.
/// Stops when i > α + 1 (alternating regime), both term sequences are decreasing and the larger
/// term is below e^{−40} of the running total (for an alternating series with decreasing terms
/// the remainder is below the next term). Returns `None` if that does not happen within
/// [`FRACTIONAL_SERIES_MAX_TERMS`] terms (very small σ with large q).
fn log_a_frac(q: f64, sigma: f64, alpha: f64, absolute: bool) -> Option<f64> {
    let s2 = 2.0 * sigma * sigma;
    let lq = q.ln();
    let l1q = (-q).ln_1p();
    let z0 = sigma * sigma * (l1q - lq) + 0.5;
    // Signed sums in linear units of e^scale, each with Neumaier compensation (the series can
    // need 10⁴–10⁵ terms; compensated summation keeps the rounding of the sum at ≈ 1 ulp).
    let mut sum = Compensated::default();
    let mut log_abs_total = f64::NEG_INFINITY; // for the absolute variant: dp_accounting's log-space sum
    let mut log_c = 0.0f64; // log |C(α, i)|
    let mut positive = true; // sign of C(α, i)
    let (mut last0, mut last1) = (f64::INFINITY, f64::INFINITY);
    let max_terms = if absolute {
        1000
    } else {
        FRACTIONAL_SERIES_MAX_TERMS
    };
    for i in 0..max_terms {
        let fi = i as f64;
        let j = alpha - fi;
        let s0 =
            log_c + fi * lq + j * l1q + (fi * fi - fi) / s2 + log_normal_cdf((z0 - fi) / sigma);
        let s1 = log_c + j * lq + fi * l1q + (j * j - j) / s2 + log_normal_cdf((j - z0) / sigma);
        if absolute {
            log_abs_total = log_add_exp(log_abs_total, log_add_exp(s0, s1));
            // dp_accounting's rule: both decreasing and 30 nats below the total.
            if s0 < last0 && s1 < last1 && s0.max(s1) < log_abs_total - 30.0 {
                return Some(log_abs_total);
            }
        } else {
            let sign = if positive { 1.0 } else { -1.0 };
            sum.add_log(s0, sign);
            sum.add_log(s1, sign);
            if fi > alpha + 1.0 && s0 < last0 && s1 < last1 && s0.max(s1) < sum.log_value() - 40.0 {
                return Some(sum.log_value());
            }
        }
        last0 = s0;
        last1 = s1;
        let d = alpha - fi;
        log_c += d.abs().ln() - (fi + 1.0).ln();
        if d < 0.0 {
            positive = !positive;
        }
    }
    None
}

/// A signed sum of terms given as (log |t|, sign), held as e^scale·(s + c) with Neumaier
/// compensation; the scale follows the largest term seen.
#[derive(Default)]
struct Compensated {
    scale: Option<f64>,
    s: f64,
    c: f64,
}

impl Compensated {
    fn add_log(&mut self, log_t: f64, sign: f64) {
        if log_t == f64::NEG_INFINITY {
            return;
        }
        let scale = match self.scale {
            None => {
                self.scale = Some(log_t);
                log_t
            }
            Some(sc) if log_t > sc + 1.0 => {
                let f = (sc - log_t).exp();
                self.s *= f;
                self.c *= f;
                self.scale = Some(log_t);
                log_t
            }
            Some(sc) => sc,
        };
        let t = sign * (log_t - scale).exp();
        let u = self.s + t;
        if self.s.abs() >= t.abs() {
            self.c += (self.s - u) + t;
        } else {
            self.c += (t - u) + self.s;
        }
        self.s = u;
    }

    /// log of the sum (NaN if it is negative, −∞ if zero).
    fn log_value(&self) -> f64 {
        match self.scale {
            None => f64::NEG_INFINITY,
            Some(sc) => sc + (self.s + self.c).ln(),
        }
    }
}

/// RDP of the Poisson-subsampled Gaussian mechanism under add/remove, sampling rate q ∈ (0, 1],
/// noise multiplier σ, order α ∈ (1, ∞]: ε(α) = D_α((1−q)N(0,σ²) + qN(1,σ²) ‖ N(0,σ²)) =
/// log A_α/(α − 1), which MTZ19 (§3) show is the mechanism's RDP (the reverse divergence is never
/// larger; [`poisson_gaussian_rdp_reverse_quadrature`] checks it numerically).
///
/// * q = 1: the Gaussian, α/(2σ²); α = ∞ with q < 1: +∞.
/// * integer α: the exact binomial expansion (MTZ19 §3.2), in log space as log1p(A_α − 1).
/// * fractional α: the signed two-sided MTZ19 §3.3 series (see the module docs for the difference
///   from dp_accounting's absolute-value sum). If the series has not converged after
///   [`FRACTIONAL_SERIES_MAX_TERMS`] terms the order is priced +∞ (a valid, useless bound).
///
/// Accuracy: integer orders to a few ulps of log A_α. Fractional orders are limited by Φ: the
/// erfc of `statrs` 0.18 (through `special::log_normal_cdf`) is off by up to ≈ 1e−10 relative
/// on [0.5, 110) (its Boost-derived rational approximations use the f32 offsets 0.3440242112,
/// 0.419990927, … as f64 literals, an error of ≈ 3e−11·e^{−z²}/z); against the quadrature twin
/// the fractional orders of the tests agree to ≤ 2.4e−10 relative (≤ 4e−12 with a corrected
/// erfc). Beyond that, ≈ 1e−16 absolute in log A_α = (α−1)ε(α) (the two-sided sum of O(1)
/// terms), i.e. ≈ 1e−16/((α−1)ε(α)) relative.
pub fn poisson_gaussian_rdp(q: f64, noise_multiplier: f64, alpha: f64) -> Result<f64> {
    require_fraction("q", q)?;
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, false)?;
    Ok(poisson_gaussian_rdp_unchecked(q, noise_multiplier, alpha))
}

fn poisson_gaussian_rdp_unchecked(q: f64, sigma: f64, alpha: f64) -> f64 {
    if q == 1.0 {
        return gaussian_rdp_unchecked(sigma, alpha);
    }
    // A noise so small that 1/(2σ²) overflows: the divergence (at least q²·C(α,2)·(e^{1/σ²} − 1)
    // for α ≥ 2) is +∞ in floating point, and the series below would not converge.
    if alpha.is_infinite() || !(0.5 / (sigma * sigma)).is_finite() {
        return f64::INFINITY;
    }
    if is_integer(alpha) {
        log_a_int(q, sigma, alpha as u64) / (alpha - 1.0)
    } else {
        match log_a_frac(q, sigma, alpha, false) {
            Some(la) => la.max(0.0) / (alpha - 1.0),
            None => f64::INFINITY,
        }
    }
}

/// The same quantity as [`poisson_gaussian_rdp`] but, at fractional α, with every MTZ19 term
/// added in absolute value and dp_accounting's stopping rule (both term sequences decreasing and
/// 30 nats below the total; at most 1000 terms, else +∞). This reproduces the numbers published
/// with `dp_accounting`'s RdpAccountant (e.g. 6.70579741e−4 at q = 0.01, σ = 2.5, α = 1.5,
/// 50 steps). It is an upper bound on the divergence, not the divergence; integer orders are the
/// exact expansion as in [`poisson_gaussian_rdp`].
pub fn poisson_gaussian_rdp_abs_series(q: f64, noise_multiplier: f64, alpha: f64) -> Result<f64> {
    require_fraction("q", q)?;
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, false)?;
    if q == 1.0 || alpha.is_infinite() || is_integer(alpha) {
        return Ok(poisson_gaussian_rdp_unchecked(q, noise_multiplier, alpha));
    }
    Ok(match log_a_frac(q, noise_multiplier, alpha, true) {
        Some(la) => la.max(0.0) / (alpha - 1.0),
        None => f64::INFINITY,
    })
}

// ---------------------------------------------------------------------------------------------
// Sampling without replacement (replace-one), WBK19
// ---------------------------------------------------------------------------------------------

/// The mechanism run on a fixed-size subsample, for [`wor_rdp`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BaseMechanism {
    /// Gaussian with noise multiplier σ: ε(α) = α/(2σ²), ε(∞) = ∞.
    Gaussian {
        /// σ.
        noise_multiplier: f64,
    },
    /// Laplace with scale b (relative to Δ₁): [`laplace_rdp`], ε(∞) = 1/b.
    Laplace {
        /// b.
        noise_multiplier: f64,
    },
}

impl BaseMechanism {
    fn check(&self) -> Result<()> {
        match *self {
            BaseMechanism::Gaussian { noise_multiplier }
            | BaseMechanism::Laplace { noise_multiplier } => {
                require_positive("noise_multiplier", noise_multiplier)
            }
        }
    }

    /// The unsampled mechanism's RDP ε(α), α ∈ [1, ∞].
    pub fn rdp(&self, alpha: f64) -> f64 {
        match *self {
            BaseMechanism::Gaussian { noise_multiplier } => {
                gaussian_rdp_unchecked(noise_multiplier, alpha)
            }
            BaseMechanism::Laplace { noise_multiplier } => {
                laplace_rdp_unchecked(noise_multiplier, alpha)
            }
        }
    }
}

/// log C(α, j) for integers, by log-gamma-free accumulation.
fn log_binomials(alpha: u64) -> Vec<f64> {
    let a = alpha as f64;
    let mut out = Vec::with_capacity(alpha as usize + 1);
    let mut c = 0.0f64;
    for j in 0..=alpha {
        out.push(c);
        let fj = j as f64;
        if j < alpha {
            c += (a - fj).ln() - (fj + 1.0).ln();
        }
    }
    out
}

/// The raw WBK19 Theorem 9 bound ("RDP for subsampled mechanisms", the general upper bound) for
/// integer α ≥ 2, sampling fraction γ = m/n, returned as ε′(α):
///
/// ε′(α) ≤ (α−1)⁻¹ log( 1 + γ² C(α,2) min{ 4(e^{ε(2)} − 1), e^{ε(2)} min{2, (e^{ε(∞)} − 1)²} }
///                        + Σ_{j=3}^{α} γ^j C(α,j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)} − 1)^j} ),
///
/// every term in log space. This is the theorem as stated; it is *not* capped by the unsampled
/// RDP (at γ = 1 it exceeds it) — [`wor_rdp`] applies the caps.
pub fn wbk19_theorem9(gamma: f64, base: BaseMechanism, alpha: u64) -> Result<f64> {
    require_fraction("gamma", gamma)?;
    base.check()?;
    if !(2..=MAX_FINITE_ORDER as u64).contains(&alpha) {
        return Err(invalid(
            "alpha",
            format!("must be an integer in [2, 1e6], got {alpha}"),
        ));
    }
    Ok(wbk19_log_a(gamma, &base, alpha) / (alpha as f64 - 1.0))
}

fn wbk19_log_a(gamma: f64, base: &BaseMechanism, alpha: u64) -> f64 {
    let lg = gamma.ln();
    let lc = log_binomials(alpha);
    let e_inf = base.rdp(f64::INFINITY);
    // log min{2, (e^{ε∞} − 1)^j} = min{log 2, j·log(expm1(ε∞))}.
    let log_min2 = |j: f64| -> f64 {
        if e_inf.is_infinite() {
            LN_2
        } else {
            LN_2.min(j * e_inf.exp_m1().ln())
        }
    };
    let e2 = base.rdp(2.0);
    let t2 = 2.0 * lg + lc[2] + (2.0 * LN_2 + log_expm1(e2)).min(e2 + log_min2(2.0));
    let mut terms = vec![0.0, t2];
    for j in 3..=alpha {
        let fj = j as f64;
        terms.push(fj * lg + lc[j as usize] + (fj - 1.0) * base.rdp(fj) + log_min2(fj));
    }
    log_sum_exp_sorted(&terms)
}

/// RDP under replace-one of `base` run on a uniformly random subset of m of n records, sampled
/// without replacement, at order α ∈ (1, ∞]:
///
/// * m = n: the subsample is the dataset, so this is the unsampled ε(α) (exact);
/// * integer α ≥ 2: min{ WBK19 Theorem 9 ([`wbk19_theorem9`]), ε(α) } — the cap is valid because
///   coupling the two subsamples makes the output pair a mixture of pairs at replace-one distance
///   ≤ 1, and e^{(α−1)D_α} is jointly convex;
/// * fractional α: WBK19 Corollary 10 — (α−1)ε′(α) is convex in α (a log-moment generating
///   function), so it is bounded by the chord between ⌊α⌋ and ⌈α⌉ (with (α−1)ε′ = 0 at α = 1),
///   then capped by ε(α);
/// * α = ∞: the unsampled ε(∞) (Gaussian: ∞; Laplace: 1/b).
pub fn wor_rdp(n: u64, m: u64, base: BaseMechanism, alpha: f64) -> Result<f64> {
    if n == 0 || m == 0 || m > n {
        return Err(invalid(
            "m",
            format!("need 1 ≤ m ≤ n (got n = {n}, m = {m})"),
        ));
    }
    base.check()?;
    check_alpha(alpha, false)?;
    Ok(wor_rdp_unchecked(n, m, &base, alpha))
}

fn wor_rdp_unchecked(n: u64, m: u64, base: &BaseMechanism, alpha: f64) -> f64 {
    let unsampled = base.rdp(alpha);
    if m == n || alpha.is_infinite() {
        return unsampled;
    }
    let gamma = m as f64 / n as f64;
    // (α−1)·min{Theorem 9, ε(α)} at an integer order k (k = 1 gives 0).
    let cgf = |k: u64| -> f64 {
        if k <= 1 {
            return 0.0;
        }
        let km1 = k as f64 - 1.0;
        wbk19_log_a(gamma, base, k).min(km1 * base.rdp(k as f64))
    };
    let bound = if is_integer(alpha) {
        cgf(alpha as u64) / (alpha - 1.0)
    } else {
        let lo = alpha.floor();
        let t = alpha - lo;
        ((1.0 - t) * cgf(lo as u64) + t * cgf(lo as u64 + 1)) / (alpha - 1.0)
    };
    bound.min(unsampled)
}

// ---------------------------------------------------------------------------------------------
// Conversions
// ---------------------------------------------------------------------------------------------

fn check_curve(orders: &[f64], rdp: &[f64]) -> Result<()> {
    check_orders(orders)?;
    if orders.len() != rdp.len() {
        return Err(invalid(
            "rdp",
            format!("has {} values for {} orders", rdp.len(), orders.len()),
        ));
    }
    for (i, &r) in rdp.iter().enumerate() {
        if r.is_nan() || r < 0.0 {
            return Err(invalid(
                format!("rdp[{i}]"),
                format!("must be ≥ 0 (or +∞), got {r}"),
            ));
        }
    }
    Ok(())
}

/// The best (ε, order) from an RDP curve at δ, with the conversion of Canonne, Kamath, Steinke
/// 2020 ("The Discrete Gaussian for DP", Proposition 12; also Asoodeh et al. 2021, eq. 20):
///
/// ε(α) = r(α) + log(1 − 1/α) − (log δ + log α)/(α − 1),  minimized over the grid
///
/// (ε = r at α = ∞). As in dp_accounting, an order whose r satisfies √(1 − e^{−r}) ≤ δ gives
/// ε = 0: D_α ≥ KL and the Bretagnolle–Huber inequality TV ≤ √(1 − e^{−KL}) make the mechanism
/// (0, δ)-DP. ε is floored at 0; ties go to the first order of the grid. Returns (ε, α*).
pub fn eps_from_rdp(orders: &[f64], rdp: &[f64], delta: f64) -> Result<(f64, f64)> {
    require_unit_open("delta", delta)?;
    check_curve(orders, rdp)?;
    let ld = delta.ln();
    let (e, a) = best(orders, rdp, |a, r| {
        if r.is_infinite() {
            f64::INFINITY
        } else if delta * delta + (-r).exp_m1() > 0.0 {
            0.0
        } else if a.is_infinite() {
            r
        } else {
            r + (-1.0 / a).ln_1p() - (ld + a.ln()) / (a - 1.0)
        }
    })?;
    Ok((e.max(0.0), a))
}

/// The δ(ε) counterpart of [`eps_from_rdp`], the same inequality solved for δ (CKS20 Prop 12):
///
/// log δ(α) = (α − 1)(r(α) − ε + log(1 − 1/α)) − log α,
///
/// combined with the Bretagnolle–Huber bound log δ ≤ ½ log(1 − e^{−r}) at every order, minimized
/// over the grid, capped at 1 (α = ∞: δ = 0 when r ≤ ε). Returns (δ, α*).
pub fn delta_from_rdp(orders: &[f64], rdp: &[f64], epsilon: f64) -> Result<(f64, f64)> {
    require_nonnegative("epsilon", epsilon)?;
    check_curve(orders, rdp)?;
    let (ld, a) = best(orders, rdp, |a, r| {
        if r.is_infinite() {
            return f64::INFINITY;
        }
        let bh = if r == 0.0 {
            f64::NEG_INFINITY
        } else {
            0.5 * (-(-r).exp()).ln_1p()
        };
        let conv = if a.is_infinite() {
            if r <= epsilon {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else {
            (a - 1.0) * (r - epsilon + (-1.0 / a).ln_1p()) - a.ln()
        };
        bh.min(conv)
    })?;
    Ok((ld.exp().min(1.0), a))
}

/// The classic conversion (Mironov 2017, Proposition 3): ε = min_α r(α) + log(1/δ)/(α − 1)
/// (ε = r at α = ∞). Returns (ε, α*).
pub fn eps_from_rdp_classic(orders: &[f64], rdp: &[f64], delta: f64) -> Result<(f64, f64)> {
    require_unit_open("delta", delta)?;
    check_curve(orders, rdp)?;
    let l = -delta.ln();
    let (e, a) = best(orders, rdp, |a, r| {
        if a.is_infinite() {
            r
        } else {
            r + l / (a - 1.0)
        }
    })?;
    Ok((e.max(0.0), a))
}

/// The classic δ(ε) (Mironov 2017, Proposition 3 solved for δ): δ = min_α exp((α − 1)(r(α) − ε)),
/// capped at 1. Returns (δ, α*).
pub fn delta_from_rdp_classic(orders: &[f64], rdp: &[f64], epsilon: f64) -> Result<(f64, f64)> {
    require_nonnegative("epsilon", epsilon)?;
    check_curve(orders, rdp)?;
    let (ld, a) = best(orders, rdp, |a, r| {
        if a.is_infinite() {
            if r <= epsilon {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        } else {
            (a - 1.0) * (r - epsilon)
        }
    })?;
    Ok((ld.exp().min(1.0), a))
}

/// argmin over the grid of f(α, r(α)); the first order wins ties.
fn best(orders: &[f64], rdp: &[f64], f: impl Fn(f64, f64) -> f64) -> Result<(f64, f64)> {
    let mut out = (f64::INFINITY, orders[0]);
    for (&a, &r) in orders.iter().zip(rdp) {
        let v = f(a, r);
        if v < out.0 {
            out = (v, a);
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// The accountant
// ---------------------------------------------------------------------------------------------

/// The default order grid: [1 + x/10 for x in 1..=99] ++ [12, 13, …, 63] ++ [128, 256, 512]
/// (154 orders; the grid of Opacus's RDP accountant extended by 128, 256, 512). It reproduces the
/// published optima (α* = 19 at q = 0.0025, σ = 1.3, 6000 steps, δ = 1e−5; α* = 13 at q = 0.001,
/// σ = 1, 30000 steps, δ = 1e−7).
pub fn default_orders() -> Vec<f64> {
    let mut v: Vec<f64> = (1..100).map(|x| 1.0 + x as f64 / 10.0).collect();
    v.extend((12..64).map(|a| a as f64));
    v.extend([128.0, 256.0, 512.0]);
    v
}

/// The RDP accountant (Mironov 2017; Abadi et al. 2016's moments accountant in RDP form): prices
/// a ledger as an RDP curve on `orders` and converts with [`eps_from_rdp`] / [`delta_from_rdp`].
///
/// Supported events: `gaussian`, `laplace`; `poisson_sampled` of a `gaussian` under add/remove
/// (MTZ19); `sampled_without_replacement` of a `gaussian` or `laplace` under replace-one (WBK19
/// Thm 9); `composed` / `self_composed` (sum of curves, Mironov 2017 Prop 1); `parallel_composed`
/// (pointwise max, BGM23 Thm 8); `post_processing` / `no_op` (0). Everything else, and a sampling
/// scheme under the other neighbouring relation, is `Error::Unsupported`.
#[derive(Clone, Debug, PartialEq)]
pub struct RdpAccountant {
    /// The orders α ∈ (1, ∞] at which the curve is computed.
    pub orders: Vec<f64>,
}

impl Default for RdpAccountant {
    fn default() -> Self {
        RdpAccountant {
            orders: default_orders(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum LeafKey {
    Poisson(u64, u64),
    Wor(u64, u64, bool, u64),
}

impl RdpAccountant {
    /// An accountant on the given orders (each in (1, ∞]); errors name `orders[i]`.
    pub fn new(orders: Vec<f64>) -> Result<Self> {
        check_orders(&orders)?;
        Ok(RdpAccountant { orders })
    }

    /// An accountant on the integer orders lo..=hi (lo ≥ 2).
    pub fn integer_orders(lo: u64, hi: u64) -> Result<Self> {
        if lo < 2 || hi < lo {
            return Err(invalid(
                "orders",
                format!("need 2 ≤ lo ≤ hi, got {lo}..={hi}"),
            ));
        }
        Ok(RdpAccountant {
            orders: (lo..=hi).map(|a| a as f64).collect(),
        })
    }

    /// The ledger's RDP curve r(α) on `self.orders` (validated event tree; leaf curves are
    /// memoized and composition accumulates in place, so a `composed` list of 10⁵ identical
    /// steps costs one leaf evaluation and 10⁵ vector additions).
    pub fn rdp_curve(&self, ledger: &PrivacyLedger) -> Result<Vec<f64>> {
        check_orders(&self.orders)?;
        ledger.event.validate()?;
        let mut cache = HashMap::new();
        let mut acc = vec![0.0; self.orders.len()];
        self.add_curve(
            &ledger.event,
            ledger.relation,
            1.0,
            &mut acc,
            &|| "event".to_string(),
            &mut cache,
        )?;
        Ok(acc)
    }

    /// acc += weight · curve(event). `path` builds the event's JSON path for error messages only.
    fn add_curve(
        &self,
        event: &DpEvent,
        relation: Neighbouring,
        weight: f64,
        acc: &mut [f64],
        path: &dyn Fn() -> String,
        cache: &mut HashMap<LeafKey, Vec<f64>>,
    ) -> Result<()> {
        // acc += weight·v (skipping zeros, so 0·∞ never arises).
        let add = |acc: &mut [f64], v: &[f64]| {
            for (a, &v) in acc.iter_mut().zip(v) {
                if v != 0.0 {
                    *a += weight * v;
                }
            }
        };
        match event {
            DpEvent::Gaussian { noise_multiplier } => {
                let v: Vec<f64> = self
                    .orders
                    .iter()
                    .map(|&a| gaussian_rdp_unchecked(*noise_multiplier, a))
                    .collect();
                add(acc, &v);
            }
            DpEvent::Laplace { noise_multiplier } => {
                let v: Vec<f64> = self
                    .orders
                    .iter()
                    .map(|&a| laplace_rdp_unchecked(*noise_multiplier, a))
                    .collect();
                add(acc, &v);
            }
            DpEvent::SelfComposed { count, event } => {
                let p = || format!("{}.self_composed.event", path());
                self.add_curve(event, relation, weight * *count as f64, acc, &p, cache)?;
            }
            DpEvent::Composed(events) => {
                for (i, e) in events.iter().enumerate() {
                    let p = || format!("{}.composed[{i}]", path());
                    self.add_curve(e, relation, weight, acc, &p, cache)?;
                }
            }
            DpEvent::ParallelComposed(events) => {
                let mut max = vec![0.0f64; self.orders.len()];
                for (i, e) in events.iter().enumerate() {
                    let p = || format!("{}.parallel_composed[{i}]", path());
                    let mut part = vec![0.0; self.orders.len()];
                    self.add_curve(e, relation, 1.0, &mut part, &p, cache)?;
                    for (m, v) in max.iter_mut().zip(part) {
                        *m = (*m).max(v);
                    }
                }
                add(acc, &max);
            }
            DpEvent::PostProcessing | DpEvent::NoOp => {}
            DpEvent::PoissonSampled { q, event } => {
                if relation != Neighbouring::AddRemove {
                    return Err(Error::Unsupported(format!(
                        "rdp: {}.poisson_sampled under replace_one: the MTZ19 analysis of Poisson \
                         subsampling is for add/remove neighbours",
                        path()
                    )));
                }
                let sigma = match **event {
                    DpEvent::Gaussian { noise_multiplier } => noise_multiplier,
                    _ => {
                        return Err(Error::Unsupported(format!(
                            "rdp: {}.poisson_sampled of a non-Gaussian event (only the sampled \
                             Gaussian mechanism is priced)",
                            path()
                        )))
                    }
                };
                let key = LeafKey::Poisson(q.to_bits(), sigma.to_bits());
                let c = cache.entry(key).or_insert_with(|| {
                    self.orders
                        .iter()
                        .map(|&a| poisson_gaussian_rdp_unchecked(*q, sigma, a))
                        .collect()
                });
                add(acc, c);
            }
            DpEvent::SampledWithoutReplacement { n, m, event } => {
                if relation != Neighbouring::ReplaceOne {
                    return Err(Error::Unsupported(format!(
                        "rdp: {}.sampled_without_replacement under add_remove: the WBK19 bound is \
                         for replace-one neighbours (fixed n)",
                        path()
                    )));
                }
                let (base, gauss, s) = match **event {
                    DpEvent::Gaussian { noise_multiplier } => (
                        BaseMechanism::Gaussian { noise_multiplier },
                        true,
                        noise_multiplier,
                    ),
                    DpEvent::Laplace { noise_multiplier } => (
                        BaseMechanism::Laplace { noise_multiplier },
                        false,
                        noise_multiplier,
                    ),
                    _ => {
                        return Err(Error::Unsupported(format!(
                            "rdp: {}.sampled_without_replacement of an event other than a \
                             Gaussian or Laplace mechanism",
                            path()
                        )))
                    }
                };
                let key = LeafKey::Wor(*n, *m, gauss, s.to_bits());
                let c = cache.entry(key).or_insert_with(|| {
                    self.orders
                        .iter()
                        .map(|&a| wor_rdp_unchecked(*n, *m, &base, a))
                        .collect()
                });
                add(acc, c);
            }
            DpEvent::SampledWithReplacement { .. } => {
                return Err(Error::Unsupported(format!(
                    "rdp: {}.sampled_with_replacement is not priced by the RDP accountant \
                     (see privacy::replacement)",
                    path()
                )))
            }
        }
        Ok(())
    }
}

impl Accountant for RdpAccountant {
    fn name(&self) -> &'static str {
        "rdp"
    }

    fn epsilon(&self, ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport> {
        require_unit_open("delta", delta)?;
        let curve = self.rdp_curve(ledger)?;
        let (epsilon, order) = eps_from_rdp(&self.orders, &curve, delta)?;
        Ok(EpsilonReport {
            epsilon,
            delta,
            order: Some(order),
            accountant: "rdp".into(),
        })
    }

    fn delta(&self, ledger: &PrivacyLedger, epsilon: f64) -> Result<f64> {
        require_nonnegative("epsilon", epsilon)?;
        let curve = self.rdp_curve(ledger)?;
        Ok(delta_from_rdp(&self.orders, &curve, epsilon)?.0)
    }
}

// ---------------------------------------------------------------------------------------------
// Quadrature twin
// ---------------------------------------------------------------------------------------------

/// Result of a quadrature twin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuadratureRdp {
    /// The Rényi divergence (RDP value) computed by quadrature.
    pub rdp: f64,
    /// Estimated absolute error of `rdp` (from the Kronrod–Gauss differences, propagated).
    pub error_estimate: f64,
    /// Number of integrand evaluations.
    pub evaluations: usize,
}

const XGK: [f64; 8] = [
    0.9914553711208126,
    0.9491079123427585,
    0.8648644233597691,
    0.7415311855993945,
    0.5860872354676911,
    0.4058451513773972,
    0.20778495500789848,
    0.0,
];
const WGK: [f64; 8] = [
    0.022935322010529224,
    0.06309209262997856,
    0.10479001032225019,
    0.14065325971552592,
    0.1690047266392679,
    0.19035057806478542,
    0.20443294007529889,
    0.20948214108472782,
];
/// Gauss 7-point weights for the nodes XGK[1], XGK[3], XGK[5], XGK[7].
const WG: [f64; 4] = [
    0.1294849661688697,
    0.27970539148927664,
    0.3818300505051189,
    0.4179591836734694,
];

/// One Gauss–Kronrod (7, 15) panel: (Kronrod estimate, |Kronrod − Gauss|).
fn gk15(f: &mut impl FnMut(f64) -> f64, a: f64, b: f64) -> (f64, f64) {
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let fc = f(c);
    let mut k = WGK[7] * fc;
    let mut g = WG[3] * fc;
    for i in 0..7 {
        let x = h * XGK[i];
        let s = f(c - x) + f(c + x);
        k += WGK[i] * s;
        if i % 2 == 1 {
            g += WG[i / 2] * s;
        }
    }
    (k * h, ((k - g) * h).abs())
}

/// Adaptive Gauss–Kronrod (7, 15) quadrature of f over [a, b] (QUADPACK QAG strategy: start from
/// `initial` equal panels, bisect the panel with the largest error estimate until the summed
/// |K15 − G7| is ≤ rel_tol·|integral| + abs_tol, or `max_panels` is reached). Deterministic:
/// the final sum is taken in left-to-right panel order. Returns (integral, error estimate,
/// evaluations).
pub fn integrate_gk15(
    mut f: impl FnMut(f64) -> f64,
    a: f64,
    b: f64,
    initial: usize,
    rel_tol: f64,
    abs_tol: f64,
    max_panels: usize,
) -> (f64, f64, usize) {
    let n0 = initial.max(1);
    let mut panels: Vec<(f64, f64, f64, f64)> = Vec::with_capacity(n0 * 4);
    let w = (b - a) / n0 as f64;
    let mut evals = 0usize;
    for i in 0..n0 {
        let lo = a + w * i as f64;
        let hi = if i + 1 == n0 {
            b
        } else {
            a + w * (i + 1) as f64
        };
        let (v, e) = gk15(&mut f, lo, hi);
        evals += 15;
        panels.push((lo, hi, v, e));
    }
    loop {
        let total: f64 = panels.iter().map(|p| p.2).sum();
        let err: f64 = panels.iter().map(|p| p.3).sum();
        if err <= rel_tol * total.abs() + abs_tol || panels.len() >= max_panels {
            break;
        }
        // Bisect the worst panels (all those above the mean error, at least one).
        let mean = err / panels.len() as f64;
        let mut next = Vec::with_capacity(panels.len() * 2);
        for p in panels.drain(..) {
            if p.3 > mean && p.3 > 0.0 {
                let mid = 0.5 * (p.0 + p.1);
                let (v1, e1) = gk15(&mut f, p.0, mid);
                let (v2, e2) = gk15(&mut f, mid, p.1);
                evals += 30;
                next.push((p.0, mid, v1, e1));
                next.push((mid, p.1, v2, e2));
            } else {
                next.push(p);
            }
        }
        panels = next;
    }
    let total: f64 = panels.iter().map(|p| p.2).sum();
    let err: f64 = panels.iter().map(|p| p.3).sum();
    (total, err, evals)
}

/// log h_γ(x) with h_γ(x) = (1 + x)^γ − 1 − γx ≥ 0 (x > −1, γ ∉ [0, 1]), given L = log(1 + x).
/// A short binomial series Σ_{k≥2} C(γ,k) x^k where |x| and |γx| are small (no cancellation),
/// otherwise log-space subtraction.
fn log_h(gamma: f64, x: f64, l: f64) -> f64 {
    if x.abs() <= 0.25 && (gamma * x).abs() <= 0.25 {
        let mut term = gamma * x; // C(γ,1) x
        let mut sum = 0.0;
        for k in 2..400 {
            let fk = k as f64;
            term *= (gamma - fk + 1.0) / fk * x;
            sum += term;
            if term.abs() <= 1e-18 * sum.abs() {
                break;
            }
        }
        return if sum > 0.0 {
            sum.ln()
        } else {
            f64::NEG_INFINITY
        };
    }
    let p = gamma * l; // log (1 + x)^γ
                       // T = 1 + γx, possibly huge.
    let (t_pos, log_abs_t) = if l < 600.0 {
        let t = 1.0 + gamma * x;
        (t > 0.0, t.abs().ln())
    } else {
        (gamma > 0.0, gamma.abs().ln() + l)
    };
    if t_pos {
        let v = log_sub_exp(p, log_abs_t);
        if v.is_nan() {
            f64::NEG_INFINITY
        } else {
            v
        }
    } else {
        log_add_exp(p, log_abs_t)
    }
}

/// Shared twin: log E_{z∼N(0,σ²)}[(1 + x(z))^γ] where 1 + x(z) = (1−q) + q e^{(2z−1)/(2σ²)},
/// as log1p(∫ μ₀ h_γ(x)); E_{μ₀}[x] = 0, so subtracting γx loses nothing and h_γ ≥ 0.
fn twin_log_moment(q: f64, sigma: f64, gamma: f64) -> (f64, f64, usize) {
    let s2 = 2.0 * sigma * sigma;
    let log_norm = -(sigma * (2.0 * std::f64::consts::PI).sqrt()).ln();
    let lq = q.ln();
    let l1q = (-q).ln_1p();
    let log_f = |z: f64| -> f64 {
        let w = (2.0 * z - 1.0) / s2;
        let (x, l) = if w < 600.0 {
            let x = q * w.exp_m1();
            (x, x.ln_1p())
        } else {
            let l = log_add_exp(l1q, lq + w);
            (f64::INFINITY, l)
        };
        log_norm - z * z / s2 + log_h(gamma, x, l)
    };
    let a_max = gamma.abs().max(1.0);
    let lo = -40.0 * sigma - 1.0;
    let hi = a_max + 40.0 * sigma + 1.0;
    // Scale by the maximum of log f on a fine grid.
    let n = 4000;
    let mut m = f64::NEG_INFINITY;
    for i in 0..=n {
        let z = lo + (hi - lo) * i as f64 / n as f64;
        m = m.max(log_f(z));
    }
    if m == f64::NEG_INFINITY {
        return (0.0, 0.0, n + 1);
    }
    let (v, e, evals) = integrate_gk15(|z| (log_f(z) - m).exp(), lo, hi, 256, 1e-13, 0.0, 1 << 13);
    let log_i = m + v.ln();
    let la = log_add_exp(0.0, log_i);
    // d log(1 + I) = dI/(1 + I).
    let err = e * m.exp() / la.exp();
    (la, err, evals + n + 1)
}

/// Quadrature twin of [`poisson_gaussian_rdp`]: D_α((1−q)N(0,σ²) + qN(1,σ²) ‖ N(0,σ²)) computed as
/// (α−1)⁻¹ log(1 + ∫ φ_σ(z) [(1+x)^α − 1 − αx] dz), x(z) = q·expm1((2z−1)/(2σ²)), by adaptive
/// Gauss–Kronrod over [−40σ − 1, α + 40σ + 1] in log space. Slow; for tests. q ∈ (0, 1],
/// α ∈ (1, ∞) (fractional allowed).
pub fn poisson_gaussian_rdp_quadrature(
    q: f64,
    noise_multiplier: f64,
    alpha: f64,
) -> Result<QuadratureRdp> {
    require_fraction("q", q)?;
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, false)?;
    if alpha.is_infinite() {
        return Err(invalid("alpha", "the quadrature twin needs a finite order"));
    }
    let (la, err, evaluations) = twin_log_moment(q, noise_multiplier, alpha);
    Ok(QuadratureRdp {
        rdp: la / (alpha - 1.0),
        error_estimate: err / (alpha - 1.0),
        evaluations,
    })
}

/// Quadrature twin of the reverse divergence D_α(N(0,σ²) ‖ (1−q)N(0,σ²) + qN(1,σ²)) =
/// (α−1)⁻¹ log E_{μ₀}[(1 + x)^{1−α}] (same integrator, exponent 1 − α). MTZ19 show it never
/// exceeds the forward one; the tests check that.
pub fn poisson_gaussian_rdp_reverse_quadrature(
    q: f64,
    noise_multiplier: f64,
    alpha: f64,
) -> Result<QuadratureRdp> {
    require_fraction("q", q)?;
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, false)?;
    if alpha.is_infinite() {
        return Err(invalid("alpha", "the quadrature twin needs a finite order"));
    }
    let (la, err, evaluations) = twin_log_moment(q, noise_multiplier, 1.0 - alpha);
    Ok(QuadratureRdp {
        rdp: la / (alpha - 1.0),
        error_estimate: err / (alpha - 1.0),
        evaluations,
    })
}

/// Quadrature twin of [`laplace_rdp`]: D_α(Lap(0,b) ‖ Lap(1,b)) = (α−1)⁻¹ log ∫ p₀^α p₁^{1−α}
/// over (−∞, 0], [0, 1], [1, ∞) (the kinks), truncated at 60b(1 + α) on each side; α = 1 is the
/// KL divergence ∫ p₀ log(p₀/p₁). α ∈ [1, ∞).
pub fn laplace_rdp_quadrature(noise_multiplier: f64, alpha: f64) -> Result<QuadratureRdp> {
    require_positive("noise_multiplier", noise_multiplier)?;
    check_alpha(alpha, true)?;
    if alpha.is_infinite() {
        return Err(invalid("alpha", "the quadrature twin needs a finite order"));
    }
    let b = noise_multiplier;
    let width = 60.0 * b * (1.0 + alpha);
    let pieces = [(-width, 0.0), (0.0, 1.0), (1.0, 1.0 + width)];
    let mut total_evals = 0;
    if alpha == 1.0 {
        let f = |z: f64| -> f64 {
            (-(z.abs()) / b).exp() / (2.0 * b) * ((z - 1.0).abs() - z.abs()) / b
        };
        let mut v = 0.0;
        let mut e = 0.0;
        for (lo, hi) in pieces {
            let (vi, ei, n) = integrate_gk15(f, lo, hi, 64, 1e-15, 0.0, 1 << 14);
            v += vi;
            e += ei;
            total_evals += n;
        }
        return Ok(QuadratureRdp {
            rdp: v,
            error_estimate: e,
            evaluations: total_evals,
        });
    }
    // log integrand = −log(2b) − (α|z| + (1−α)|z−1|)/b; its max is at z = 0: (α − 1)/b − log 2b.
    let m = (alpha - 1.0) / b;
    let f = |z: f64| -> f64 {
        (-(alpha * z.abs() + (1.0 - alpha) * (z - 1.0).abs()) / b - m).exp() / (2.0 * b)
    };
    let mut v = 0.0;
    let mut e = 0.0;
    for (lo, hi) in pieces {
        let (vi, ei, n) = integrate_gk15(f, lo, hi, 64, 1e-15, 0.0, 1 << 14);
        v += vi;
        e += ei;
        total_evals += n;
    }
    let la = m + v.ln();
    Ok(QuadratureRdp {
        rdp: la / (alpha - 1.0),
        error_estimate: e / v / (alpha - 1.0),
        evaluations: total_evals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gk15_integrates_a_gaussian() {
        let (v, _, _) = integrate_gk15(|x| (-0.5 * x * x).exp(), -40.0, 40.0, 16, 1e-15, 0.0, 4096);
        assert!((v - (2.0 * std::f64::consts::PI).sqrt()).abs() < 1e-14);
        let (v, _, _) = integrate_gk15(|x| x.cos(), 0.0, 1.0, 1, 1e-15, 0.0, 64);
        assert!((v - 1f64.sin()).abs() < 1e-15);
    }

    #[test]
    fn log_h_series_and_direct_agree_at_the_switch() {
        for &g in &[2.5f64, -1.5, 13.0] {
            let x = 0.25 / g.abs().max(1.0);
            let a = log_h(g, x, x.ln_1p());
            let direct = ((g * x.ln_1p()).exp_m1() - g * x).ln();
            assert!((a - direct).abs() < 1e-9, "{g}: {a} vs {direct}");
        }
    }

    #[test]
    fn integer_and_fractional_paths_meet() {
        // Just either side of an integer, the fractional series approaches the integer value.
        let r3 = poisson_gaussian_rdp(0.02, 1.2, 3.0).unwrap();
        let r3f = poisson_gaussian_rdp(0.02, 1.2, 3.0 + 1e-9).unwrap();
        assert!((r3 - r3f).abs() < 1e-9 * r3.max(1e-300) + 1e-15);
    }
}
