//! Sampling **with replacement**: each step draws m indices i.i.d. uniformly from \[n\] (a multiset
//! batch) and releases a Gaussian-noised query of the batch, under the replace-one relation.
//! Several published private saddle-point algorithms sample their minibatches this way and price
//! them with the moments accountant of Abadi et al. (2016), which is proved for Poisson sampling
//! under add/remove; their statements, exactly as printed, are in each paper's `calibration`
//! module (`papers::<key>::calibration`).
//!
//! What lives here is **a bound proved here** ([`rdp`], [`rdp_curve`]; derivations:
//! `proofs-notes/privacy.md`, section "Sampling with replacement"): an RDP bound for the
//! with-replacement sampled Gaussian under replace-one, for any query whose value changes by at
//! most Δ when one batch slot changes. It is the minimum of a joint-convexity ("Jensen") bound
//! over the multiplicity K ~ Bin(m, 1/n) of the differing record ([`rdp_jensen`]) and a
//! second-order binomial-expansion bound ([`rdp_expansion`]) that keeps the q² amplification
//! (Minkowski over the mixture keeps rare high multiplicities at weight π_k^j). Over many steps,
//! multiplicities above a cut-off are truncated at a δ cost ([`multiplicity_tail`],
//! [`rdp_curve_truncated`]). Both bounds are tested against the exact Rényi divergence of the
//! output mixtures computed by quadrature ([`twin_renyi_sum_query`]) and must be upper bounds.
//!
//! **Widely used accountants refuse this case.** Google's `dp_accounting` has a
//! `SampledWithReplacementDpEvent`, but neither its RDP nor its PLD accountant composes it (the
//! RDP accountant's `_maybe_compose` answers "Unsupported event"); Opacus's accountants are for
//! Poisson sampling. Pricing a with-replacement algorithm with a Poisson or without-replacement
//! accountant is an approximation of the algorithm as written, not a proof about it.
//!
//! For lower bounds, [`sum_test_epsilon`] gives a **lower** bound on the ε of the released
//! transcript: an explicit worst-case instance (constant one-dimensional queries) and an explicit
//! test (threshold on the sum of the released values), so that "ε_true > ε claimed" is a proved
//! statement about the released transcript.
//!
//! The section marked "stand-ins" holds minimal RDP/Gaussian helpers so this file does not depend
//! on the accountants being written concurrently (`rdp.rs`, `analytic.rs`, `gdp.rs`).

use crate::error::{
    invalid, require_count, require_finite, require_nonnegative, require_positive,
    require_unit_open, Error, Result,
};
use crate::privacy::special::{log_normal_cdf, log_sum_exp, normal_cdf};
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};
use statrs::function::gamma::ln_gamma;
use std::sync::OnceLock;

// ------------------------------------------------------------------------------------------------
// Validation helpers
// ------------------------------------------------------------------------------------------------

fn nm(n: u64, m: u64) -> Result<()> {
    require_count("n", n)?;
    require_count("m", m)
}

// ------------------------------------------------------------------------------------------------
// A proved RDP bound for the with-replacement sampled Gaussian
// ------------------------------------------------------------------------------------------------

/// Binomial log-pmf log P(K = k), K ~ Bin(trials, p).
fn ln_binom_pmf(k: u64, trials: u64, p: f64) -> f64 {
    if p <= 0.0 {
        return if k == 0 { 0.0 } else { f64::NEG_INFINITY };
    }
    if p >= 1.0 {
        return if k == trials { 0.0 } else { f64::NEG_INFINITY };
    }
    let (kf, nf) = (k as f64, trials as f64);
    ln_gamma(nf + 1.0) - ln_gamma(kf + 1.0) - ln_gamma(nf - kf + 1.0)
        + kf * p.ln()
        + (nf - kf) * (-p).ln_1p()
}

fn ln_choose(a: u64, b: u64) -> f64 {
    ln_gamma(a as f64 + 1.0) - ln_gamma(b as f64 + 1.0) - ln_gamma((a - b) as f64 + 1.0)
}

/// Gauss–Legendre nodes and weights on [−1, 1] (16 points, by Newton's method on P₁₆).
fn gauss_legendre_16() -> &'static [(f64, f64)] {
    static GL: OnceLock<Vec<(f64, f64)>> = OnceLock::new();
    GL.get_or_init(|| {
        let n = 16usize;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (n as f64 + 0.5)).cos();
            let mut dp = 0.0;
            for _ in 0..100 {
                let (mut p0, mut p1) = (1.0f64, x);
                for k in 2..=n {
                    let kf = k as f64;
                    let p2 = ((2.0 * kf - 1.0) * x * p1 - (kf - 1.0) * p0) / kf;
                    p0 = p1;
                    p1 = p2;
                }
                dp = n as f64 * (x * p1 - p0) / (x * x - 1.0);
                let dx = p1 / dp;
                x -= dx;
                if dx.abs() < 1e-16 {
                    break;
                }
            }
            out.push((x, 2.0 / ((1.0 - x * x) * dp * dp)));
        }
        out
    })
}

/// log ∫_a^b exp(g(x)) dx by composite 16-point Gauss–Legendre on panels of width ≤ h, in log
/// space (g may be −∞).
fn log_integrate(g: &dyn Fn(f64) -> f64, a: f64, b: f64, h: f64) -> f64 {
    if b <= a {
        return f64::NEG_INFINITY;
    }
    let panels = ((b - a) / h).ceil().max(1.0) as usize;
    let w = (b - a) / panels as f64;
    let gl = gauss_legendre_16();
    let mut terms = Vec::with_capacity(panels * gl.len());
    for p in 0..panels {
        let c = a + (p as f64 + 0.5) * w;
        for &(x, wt) in gl {
            let v = g(c + 0.5 * w * x);
            if v > f64::NEG_INFINITY {
                terms.push(v + (0.5 * w * wt).ln());
            }
        }
    }
    log_sum_exp(&terms)
}

/// ln|e^u − 1|, accurate for all u ≠ 0 (no overflow for large u).
fn ln_abs_expm1(u: f64) -> f64 {
    if u > 1.0 {
        u + (-(-u).exp()).ln_1p()
    } else if u >= -1.0 {
        u.exp_m1().abs().ln()
    } else {
        (-u.exp()).ln_1p()
    }
}

/// Maximize a concave function on [a, b] (ternary search); returns the argmax.
fn argmax_concave(f: &dyn Fn(f64) -> f64, mut a: f64, mut b: f64) -> f64 {
    for _ in 0..100 {
        let c = a + (b - a) / 3.0;
        let d = b - (b - a) / 3.0;
        if f(c) < f(d) {
            a = c;
        } else {
            b = d;
        }
    }
    0.5 * (a + b)
}

/// log M_r(s), where M_r(s) = E|L − 1|^r, L = exp(sZ − s²/2), Z ~ N(0, 1), real r ≥ 1: the r-th
/// absolute central moment of the Gaussian likelihood ratio at shift s (in units of σ).
///
/// Computed by quadrature on each side of the kink Z = s/2. On each side the log-integrand
/// r·ln|e^{sZ−s²/2} − 1| − Z²/2 is concave (ln|e^u − 1| is concave on u > 0 and on u < 0), so
/// the integral over a window of ±40 around its maximum misses a relative e^{−800}; 16-point
/// Gauss–Legendre on panels of width 1/2 is then exact to rounding (tested against the closed
/// forms for even r). Callers that need an upper bound add a relative 1e-9.
pub fn log_abs_moment(r: f64, s: f64) -> f64 {
    if s == 0.0 {
        return f64::NEG_INFINITY;
    }
    let s = s.abs();
    let c = -0.5 * (2.0 * std::f64::consts::PI).ln();
    let g = |z: f64| -> f64 {
        let u = s * z - 0.5 * s * s;
        if u == 0.0 {
            return f64::NEG_INFINITY;
        }
        r * ln_abs_expm1(u) - 0.5 * z * z + c
    };
    let kink = 0.5 * s;
    let reach = r * s + r.sqrt() + 60.0;
    // Right side (L > 1).
    let zr = argmax_concave(&g, kink + 1e-12, kink + reach);
    let right = log_integrate(&g, kink.max(zr - 40.0), zr + 40.0, 0.5);
    // Left side (L < 1).
    let zl = argmax_concave(&g, kink - reach, kink - 1e-12);
    let left = log_integrate(&g, zl - 40.0, kink.min(zl + 40.0), 0.5);
    crate::privacy::special::log_add_exp(left, right)
}

/// The joint-convexity ("Jensen") bound, any real α > 1:
/// D_α ≤ (1/(α−1)) log Σ_{k=0}^{m} P(K = k)·exp(α(α−1)k²/(2z²)), K ~ Bin(m, 1/n), z = σ/Δ.
/// Proof: condition on the drawn index vector; the two outputs are Gaussians whose means differ by
/// at most KΔ, and ∫p^α q^{1−α} is jointly convex (proofs-notes/privacy.md, step W2).
pub fn rdp_jensen(n: u64, m: u64, z: f64, alpha: f64) -> Result<f64> {
    nm(n, m)?;
    rdp_jensen_truncated(n, m, z, alpha, m)
}

/// [`rdp_jensen`] for the mechanism conditioned on K ≤ kmax (see [`multiplicity_tail`]).
pub fn rdp_jensen_truncated(n: u64, m: u64, z: f64, alpha: f64, kmax: u64) -> Result<f64> {
    nm(n, m)?;
    require_positive("z", z)?;
    if !(alpha.is_finite() && alpha > 1.0) {
        return Err(invalid(
            "alpha",
            format!("must be finite and > 1, got {alpha}"),
        ));
    }
    let lp = truncated_pmf(n, m, kmax);
    let terms: Vec<f64> = lp
        .iter()
        .enumerate()
        .map(|(k, &l)| {
            let kf = k as f64;
            l + alpha * (alpha - 1.0) * kf * kf / (2.0 * z * z)
        })
        .collect();
    Ok(log_sum_exp(&terms) / (alpha - 1.0))
}

/// log P(K = k | K ≤ kmax) for k = 0..=min(kmax, m), K ~ Bin(m, 1/n).
fn truncated_pmf(n: u64, m: u64, kmax: u64) -> Vec<f64> {
    let p = 1.0 / n as f64;
    let top = kmax.min(m);
    let raw: Vec<f64> = (0..=top).map(|k| ln_binom_pmf(k, m, p)).collect();
    let norm = log_sum_exp(&raw);
    raw.into_iter().map(|l| l - norm).collect()
}

/// P(K > kmax), K ~ Bin(m, 1/n): the probability that one step's batch holds the differing record
/// more than kmax times. A mechanism run on batches conditioned on K ≤ kmax at every one of N
/// steps is within N·P(K > kmax) of the original in δ (proofs-notes step W0), so a bound for the
/// truncated mechanism at (ε, δ′) gives (ε, δ′ + N·P(K > kmax)).
pub fn multiplicity_tail(n: u64, m: u64, kmax: u64) -> Result<f64> {
    nm(n, m)?;
    if kmax >= m {
        return Ok(0.0);
    }
    let p = 1.0 / n as f64;
    let terms: Vec<f64> = (kmax + 1..=m).map(|k| ln_binom_pmf(k, m, p)).collect();
    Ok(log_sum_exp(&terms).exp())
}

/// Multiplicities k ≤ QUAD_K use quadrature for M_r(k/z); larger k use the closed-form upper bound
/// M_r(s) ≤ E[max(L, 1)^r] ≤ e^{r(r−1)s²/2}·Φ((r−½)s) + Φ(−s/2).
const QUAD_K: u64 = 8;
/// Orders j ≤ QUAD_J use quadrature and the Hölder bound on T_j; larger j the closed forms.
const QUAD_J: u32 = 64;
/// The Hölder exponents p tried in the bound on T_j (step W5).
const HOLDER_P: [f64; 5] = [1.25, 1.5, 2.0, 3.0, 5.0];

/// log of an upper bound on M_r(s), by quadrature (`quad`) or the closed-form bound.
fn log_moment_upper(r: f64, s: f64, quad: bool) -> f64 {
    if quad {
        log_abs_moment(r, s) + 1e-9
    } else {
        crate::privacy::special::log_add_exp(
            0.5 * r * (r - 1.0) * s * s + log_normal_cdf((r - 0.5) * s),
            log_normal_cdf(-0.5 * s),
        )
    }
}

/// log T_j(s): an upper bound on ∫|φ_u − φ_v|^j φ_w^{1−j} over Gaussian densities (unit
/// variance) whose centres are pairwise at distance ≤ s (proofs-notes step W5).
/// * j = 2: exactly sup = 2e^{s²} − 2e^{s²/2} (equilateral triangle).
/// * j ≥ 3: the minimum of Minkowski, 2^j·M_j(s), and Hölder after a change of measure,
///   e^{(j−1)((j−1)p+1)s²/2}·M_{jp′}(s)^{1/p′} for p ∈ HOLDER_P, 1/p + 1/p′ = 1.
fn log_triangle(j: u32, s: f64, quad: bool) -> f64 {
    let jf = j as f64;
    if j == 2 {
        return std::f64::consts::LN_2 + 0.5 * s * s + (0.5 * s * s).exp_m1().ln();
    }
    let mut best = jf * std::f64::consts::LN_2 + log_moment_upper(jf, s, quad);
    if quad {
        for &p in &HOLDER_P {
            let pp = p / (p - 1.0);
            let h = 0.5 * (jf - 1.0) * ((jf - 1.0) * p + 1.0) * s * s
                + log_moment_upper(jf * pp, s, true) / pp;
            best = best.min(h);
        }
    }
    best
}

/// A table of log-bounds for the binomial-expansion bound, reusable across orders.
struct ExpansionTable {
    ln_gamma_hit: f64,
    ln_one_minus_gamma: f64,
    /// a[j] = log A_j, A_j = (Σ_k π_k⁺ T_j(k/z)^{1/j})^j (Minkowski over the mixture);
    /// b[j] = log B_j, B_j = Σ_k π_k⁺ M_j(k/z) (joint convexity), for j = 2..=jmax.
    a: Vec<f64>,
    b: Vec<f64>,
}

fn expansion_table(n: u64, m: u64, z: f64, jmax: u32, kmax: u64) -> ExpansionTable {
    let lp = truncated_pmf(n, m, kmax);
    // γ = P(K ≥ 1 | K ≤ kmax).
    let ln_one_minus_gamma = lp[0];
    let gamma = -ln_one_minus_gamma.exp_m1();
    let ln_gamma_hit = gamma.ln();
    // π_k⁺ = P(K = k | 1 ≤ K ≤ kmax).
    let lpi: Vec<(u64, f64)> = lp
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &l)| l > f64::NEG_INFINITY)
        .map(|(k, &l)| (k as u64, l - ln_gamma_hit))
        .collect();
    let mut a = vec![f64::NEG_INFINITY; jmax as usize + 1];
    let mut b = vec![f64::NEG_INFINITY; jmax as usize + 1];
    for j in 2..=jmax {
        let jf = j as f64;
        let mut ta = Vec::with_capacity(lpi.len());
        let mut tb = Vec::with_capacity(lpi.len());
        for &(k, l) in &lpi {
            let s = k as f64 / z;
            let quad = k <= QUAD_K && j <= QUAD_J;
            ta.push(l + log_triangle(j, s, quad) / jf);
            tb.push(l + log_moment_upper(jf, s, quad));
        }
        a[j as usize] = jf * log_sum_exp(&ta);
        b[j as usize] = log_sum_exp(&tb);
    }
    ExpansionTable {
        ln_gamma_hit,
        ln_one_minus_gamma,
        a,
        b,
    }
}

fn expansion_from_table(t: &ExpansionTable, alpha: u32) -> f64 {
    // E_Q[(P/Q)^α] ≤ 1 + Σ_{j=2}^{α} C(α,j) γ^j min{(1−γ)A_j + γB_j, (1−γ)^{1−j}A_j}.
    let mut terms = vec![0.0];
    for j in 2..=alpha {
        let (aj, bj) = (t.a[j as usize], t.b[j as usize]);
        let convex =
            crate::privacy::special::log_add_exp(t.ln_one_minus_gamma + aj, t.ln_gamma_hit + bj);
        let shifted = (1.0 - j as f64) * t.ln_one_minus_gamma + aj;
        let inner = convex.min(shifted);
        terms.push(ln_choose(alpha as u64, j as u64) + j as f64 * t.ln_gamma_hit + inner);
    }
    log_sum_exp(&terms) / (alpha as f64 - 1.0)
}

/// The second-order binomial-expansion bound, integer α ≥ 2 (proofs-notes/privacy.md, steps
/// W3–W6): with γ = 1 − (1 − 1/n)^m and π_k⁺ = P(K = k | K ≥ 1),
/// E_Q[(P/Q)^α] ≤ 1 + Σ_{j=2}^{α} C(α, j)·γ^j·min{(1−γ)A_j + γB_j, (1−γ)^{1−j}A_j},
/// A_j = (Σ_k π_k⁺ T_j(k/z)^{1/j})^j, B_j = Σ_k π_k⁺ M_j(k/z), and D_α ≤ log(that)/(α − 1). Its
/// leading term is C(α,2)·γ²·(E[K|K≥1])²/z², i.e. q² amplification with q ≈ m/n.
pub fn rdp_expansion(n: u64, m: u64, z: f64, alpha: u32) -> Result<f64> {
    nm(n, m)?;
    require_positive("z", z)?;
    if alpha < 2 {
        return Err(invalid(
            "alpha",
            format!("must be an integer ≥ 2, got {alpha}"),
        ));
    }
    let t = expansion_table(n, m, z, alpha, m);
    Ok(expansion_from_table(&t, alpha))
}

/// The bound this module proves: min(Jensen, expansion) at integer α ≥ 2, for the mechanism "draw m
/// indices i.i.d. uniform on \[n\]; release A(batch) + N(0, σ²I)" where A changes by at most Δ (ℓ2)
/// when one batch slot changes, z = σ/Δ, under replace-one.
pub fn rdp(n: u64, m: u64, z: f64, alpha: u32) -> Result<f64> {
    Ok(rdp_curve(n, m, z, &[alpha])?[0])
}

/// [`rdp`] at several integer orders, sharing the moment table.
pub fn rdp_curve(n: u64, m: u64, z: f64, orders: &[u32]) -> Result<Vec<f64>> {
    nm(n, m)?;
    rdp_curve_truncated(n, m, z, orders, m)
}

/// [`rdp_curve`] for the mechanism whose batches are conditioned on K ≤ kmax (pair with
/// [`multiplicity_tail`]; kmax ≥ m is no truncation).
pub fn rdp_curve_truncated(n: u64, m: u64, z: f64, orders: &[u32], kmax: u64) -> Result<Vec<f64>> {
    nm(n, m)?;
    require_positive("z", z)?;
    require_count("kmax", kmax)?;
    if orders.iter().any(|&a| a < 2) {
        return Err(invalid("alpha", "orders must be integers ≥ 2"));
    }
    let jmax = orders.iter().copied().max().unwrap_or(2);
    let t = expansion_table(n, m, z, jmax.max(2), kmax);
    orders
        .iter()
        .map(|&a| {
            let e = expansion_from_table(&t, a);
            let j = rdp_jensen_truncated(n, m, z, a as f64, kmax)?;
            Ok(e.min(j))
        })
        .collect()
}
// ------------------------------------------------------------------------------------------------
// The slow twin: the exact Rényi divergence of the output mixtures, by quadrature (1-D)
// ------------------------------------------------------------------------------------------------

/// All count vectors c ∈ ℕⁿ with Σc = m, with log multinomial probability log(m!/Πc_j!·n^{−m}).
fn multisets(n: usize, m: usize) -> Vec<(Vec<usize>, f64)> {
    let mut out = Vec::new();
    let mut c = vec![0usize; n];
    fn rec(
        i: usize,
        left: usize,
        c: &mut Vec<usize>,
        out: &mut Vec<(Vec<usize>, f64)>,
        n: usize,
        m: usize,
    ) {
        if i == n - 1 {
            c[i] = left;
            let lp = ln_gamma(m as f64 + 1.0)
                - c.iter().map(|&x| ln_gamma(x as f64 + 1.0)).sum::<f64>()
                - m as f64 * (n as f64).ln();
            out.push((c.clone(), lp));
            return;
        }
        for x in 0..=left {
            c[i] = x;
            rec(i + 1, left - x, c, out, n, m);
        }
    }
    rec(0, m, &mut c, &mut out, n, m);
    out
}

/// The exact D_α(P‖Q) of the with-replacement sampled Gaussian **sum query** in one dimension:
/// P is the law of Σ_{l=1}^{m} x_{J_l} + N(0, σ²) with J_l i.i.d. uniform on \[n\] for the dataset
/// `values`, Q the same with `values[i]` replaced by `replacement`. Computed by enumerating the
/// multisets (C(n+m−1, m) mixture components) and integrating p^α q^{1−α} by composite
/// Gauss–Legendre quadrature on a range that covers the integrand's Gaussian tails (±40σ beyond
/// its extreme centres). Intended for small n, m (a slow, independent twin of [`rdp`]).
///
/// The per-slot sensitivity of this configuration is [`twin_slot_sensitivity`]; the bound to
/// compare with is `rdp(n, m, σ/Δ, α)`.
pub fn twin_renyi_sum_query(
    values: &[f64],
    i: usize,
    replacement: f64,
    m: usize,
    sigma: f64,
    alpha: f64,
) -> Result<f64> {
    let n = values.len();
    if n == 0 || i >= n {
        return Err(invalid(
            "i",
            format!("must index values (n = {n}), got {i}"),
        ));
    }
    require_count("m", m as u64)?;
    require_finite("values", values)?;
    if !replacement.is_finite() {
        return Err(invalid("replacement", "must be finite"));
    }
    require_positive("sigma", sigma)?;
    if !(alpha.is_finite() && alpha > 1.0) {
        return Err(invalid(
            "alpha",
            format!("must be finite and > 1, got {alpha}"),
        ));
    }
    let comps = multisets(n, m);
    if comps.len() > 200_000 {
        return Err(invalid("m", "too many multisets for the quadrature twin"));
    }
    let mut mp = Vec::with_capacity(comps.len());
    let mut mq = Vec::with_capacity(comps.len());
    let mut lw = Vec::with_capacity(comps.len());
    for (c, lp) in &comps {
        let s: f64 = c.iter().zip(values).map(|(&k, &x)| k as f64 * x).sum();
        mp.push(s);
        mq.push(s - c[i] as f64 * values[i] + c[i] as f64 * replacement);
        lw.push(*lp);
    }
    let norm = -(sigma * (2.0 * std::f64::consts::PI).sqrt()).ln();
    let log_mix = |y: f64, means: &[f64]| -> f64 {
        let t: Vec<f64> = means
            .iter()
            .zip(&lw)
            .map(|(&mu, &w)| w - (y - mu) * (y - mu) / (2.0 * sigma * sigma))
            .collect();
        log_sum_exp(&t) + norm
    };
    let g = |y: f64| alpha * log_mix(y, &mp) + (1.0 - alpha) * log_mix(y, &mq);
    let minmax = |v: &[f64]| {
        v.iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            })
    };
    let (pmin, pmax) = minmax(&mp);
    let (qmin, qmax) = minmax(&mq);
    let centres = [
        pmin,
        pmax,
        qmin,
        qmax,
        alpha * pmin - (alpha - 1.0) * qmin,
        alpha * pmax - (alpha - 1.0) * qmax,
    ];
    let (lo, hi) = minmax(&centres);
    let lo = lo - 40.0 * sigma;
    let hi = hi + 40.0 * sigma;
    let li = log_integrate(&g, lo, hi, 0.125 * sigma);
    Ok(li / (alpha - 1.0))
}

/// The per-slot sensitivity Δ of the configuration of [`twin_renyi_sum_query`]: the largest change
/// of one batch slot among the records involved, max(|x_i − x'_i|, max_j |x_j − x_i|,
/// max_j |x_j − x'_i|), which is what the bound's proof uses.
pub fn twin_slot_sensitivity(values: &[f64], i: usize, replacement: f64) -> f64 {
    let xi = values[i];
    let mut d = (xi - replacement).abs();
    for &x in values {
        d = d.max((x - xi).abs()).max((x - replacement).abs());
    }
    d
}

// ------------------------------------------------------------------------------------------------
// Lower bounds: a worst-case instance and a test
// ------------------------------------------------------------------------------------------------

/// How the differing record can enter one step's batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// m draws i.i.d. uniform on \[n\]: the record's multiplicity per step is Bin(m, 1/n).
    WithReplacement {
        /// n.
        n: u64,
        /// m.
        m: u64,
    },
    /// m distinct records out of n: the record is in the batch with probability m/n.
    WithoutReplacement {
        /// n.
        n: u64,
        /// m.
        m: u64,
    },
    /// Every step uses every record once (full batch, or a disjoint part that holds the record).
    Full,
}

impl Sampling {
    /// The total number of hits of the differing record over `steps` independent steps:
    /// Bin(trials, p) as (trials, p).
    fn hits(self, steps: u64) -> Result<(u64, f64)> {
        match self {
            Sampling::WithReplacement { n, m } => {
                nm(n, m)?;
                Ok((steps * m, 1.0 / n as f64))
            }
            Sampling::WithoutReplacement { n, m } => {
                nm(n, m)?;
                if m > n {
                    return Err(invalid("m", "must be ≤ n without replacement"));
                }
                Ok((steps, m as f64 / n as f64))
            }
            Sampling::Full => Ok((steps, 1.0)),
        }
    }
}

/// The pmf of Bin(trials, p) on the range where it exceeds e^{−80} of its mode, normalized over
/// the whole support, and an upper bound on the mass outside that range. Computed from the mode by
/// the ratio recurrence (no large cancelling log-gamma terms): the weights are accurate to a
/// relative ~1e-13 each, and the neglected tails are bounded by geometric series.
fn binomial_support(trials: u64, p: f64) -> (Vec<(f64, f64)>, f64) {
    if p >= 1.0 {
        return (vec![(trials as f64, 1.0)], 0.0);
    }
    let nf = trials as f64;
    let lodds = p.ln() - (-p).ln_1p();
    let mode = (((nf + 1.0) * p).floor() as u64).min(trials);
    let cut = -80.0;
    // Upward from the mode.
    let mut up = vec![(mode, 0.0f64)];
    let (mut k, mut l) = (mode, 0.0f64);
    let mut up_ratio = 0.0f64;
    while k < trials {
        let r = ((nf - k as f64) / (k as f64 + 1.0)).ln() + lodds;
        l += r;
        k += 1;
        up.push((k, l));
        if l < cut {
            up_ratio = r;
            break;
        }
    }
    // Downward from the mode.
    let mut down = Vec::new();
    let (mut k, mut l) = (mode, 0.0f64);
    let mut down_ratio = 0.0f64;
    while k > 0 {
        let r = ((k as f64) / (nf - k as f64 + 1.0)).ln() - lodds;
        l += r;
        k -= 1;
        down.push((k, l));
        if l < cut {
            down_ratio = r;
            break;
        }
    }
    down.reverse();
    let all: Vec<(u64, f64)> = down.into_iter().chain(up).collect();
    let ln_z = log_sum_exp(&all.iter().map(|x| x.1).collect::<Vec<_>>());
    // Beyond the last computed term the ratios keep decreasing (log-concave pmf), so each tail is
    // at most last·r/(1 − r) with r the last ratio (if the range did not already reach 0 or n).
    let tail = |last: f64, r: f64| -> f64 {
        if r >= 0.0 || last > cut {
            0.0
        } else {
            (last + r - ln_z).exp() / (1.0 - r.exp())
        }
    };
    let hi_last = all.last().map(|x| x.1).unwrap_or(0.0);
    let lo_last = all.first().map(|x| x.1).unwrap_or(0.0);
    let dropped = tail(hi_last, up_ratio) + tail(lo_last, down_ratio);
    let ks = all
        .into_iter()
        .map(|(k, l)| (k as f64, (l - ln_z).exp()))
        .filter(|&(_, w)| w > 0.0)
        .collect();
    (ks, dropped)
}

/// A lower bound on δ(ε) of the transcript of `steps` releases, each a Gaussian (noise multiplier
/// z = σ/Δ per batch slot) of a batch drawn by `sampling`, under replace-one. The instance: every
/// query is constant and one-dimensional, the other records contribute 0, and the differing record
/// contributes a (in S) or b (in S′) per occurrence, with (a, b) ∈ {(Δ/2, −Δ/2), (Δ, 0), (0, Δ)}
/// (all admissible: every slot change moves the query by ≤ Δ). The test rejects when the sum of
/// all released values exceeds τ; δ ≥ P_S(sum > τ) − e^ε P_{S′}(sum > τ) for every τ, maximized
/// over a grid of τ. Every number returned is a valid lower bound (up to floating point).
pub fn sum_test_delta(sampling: Sampling, steps: u64, z: f64, epsilon: f64) -> Result<f64> {
    require_positive("z", z)?;
    require_nonnegative("epsilon", epsilon)?;
    SumTest::new(sampling, steps, z)?.delta(epsilon)
}

/// The grid points of the τ scan in [`sum_test_delta`].
const SUM_TEST_GRID: usize = 200;

/// [`sum_test_delta`] for one transcript (sampling, steps, z) at many ε: the binomial support and
/// the normal CDF values on the τ grid do not depend on ε, so they are computed once (the
/// bisection of [`sum_test_epsilon`] evaluates δ at about 45 values of ε). Every value is
/// computed by the same expression, in the same order, as a single [`sum_test_delta`] call, so
/// the results are bit-identical to it.
struct SumTest {
    ks: Vec<(f64, f64)>,
    dropped: f64,
    /// √steps, the noise scale of the sum in units of σ.
    s: f64,
    /// Per shift pair: (a, b, lo, hi, Φ((a·k − τ)/s) and Φ((b·k − τ)/s) for each grid τ (row)
    /// and each support point k (column)).
    pairs: Vec<SumTestPair>,
    /// The CDF values at the golden-section points τ already visited, keyed by (pair, τ's bits),
    /// as Φ((a·k − τ)/s), Φ((b·k − τ)/s) interleaved over k: the refinement usually starts from
    /// the same grid point and takes the same path for neighbouring ε, so most of its τ repeat.
    /// At most [`SUM_TEST_MEMO`] values in all (16 MiB); forgotten all at once when full.
    memo: std::cell::RefCell<std::collections::HashMap<(usize, u64), Vec<f64>>>,
}

/// The most CDF values a [`SumTest`] remembers for its golden-section points.
const SUM_TEST_MEMO: usize = 1 << 21;

struct SumTestPair {
    a: f64,
    b: f64,
    lo: f64,
    hi: f64,
    phi_a: Vec<f64>,
    phi_b: Vec<f64>,
}

impl SumTest {
    fn new(sampling: Sampling, steps: u64, z: f64) -> Result<SumTest> {
        require_positive("z", z)?;
        require_count("steps", steps)?;
        let (trials, p) = sampling.hits(steps)?;
        let (ks, dropped) = binomial_support(trials, p);
        let khi = ks.last().map(|x| x.0).unwrap_or(0.0);
        // Units of σ: the sum has noise N(0, steps) and per-hit shift a/σ = (a/Δ)/z.
        let s = (steps as f64).sqrt();
        let pairs = [(0.5, -0.5), (1.0, 0.0), (0.0, 1.0)]
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (a / z, b / z);
                let lo = a.min(b) * khi - 12.0 * s;
                let hi = a.max(b) * khi + 12.0 * s;
                let mut phi_a = Vec::with_capacity((SUM_TEST_GRID + 1) * ks.len());
                let mut phi_b = Vec::with_capacity((SUM_TEST_GRID + 1) * ks.len());
                for t in 0..=SUM_TEST_GRID {
                    let tau = lo + (hi - lo) * t as f64 / SUM_TEST_GRID as f64;
                    for &(k, _) in &ks {
                        phi_a.push(normal_cdf((a * k - tau) / s));
                        phi_b.push(normal_cdf((b * k - tau) / s));
                    }
                }
                SumTestPair {
                    a,
                    b,
                    lo,
                    hi,
                    phi_a,
                    phi_b,
                }
            })
            .collect();
        Ok(SumTest {
            ks,
            dropped,
            s,
            pairs,
            memo: Default::default(),
        })
    }

    fn delta(&self, epsilon: f64) -> Result<f64> {
        require_nonnegative("epsilon", epsilon)?;
        let (ks, dropped, s) = (&self.ks, self.dropped, self.s);
        let ee = epsilon.exp();
        let mut best = 0.0f64;
        for (index, pair) in self.pairs.iter().enumerate() {
            let (a, b, lo, hi) = (pair.a, pair.b, pair.lo, pair.hi);
            // P_S(sum > τ) ≥ the kept part − dropped; P_{S′}(sum > τ) ≤ the kept part + dropped.
            let g = |tau: f64| -> f64 {
                let mut memo = self.memo.borrow_mut();
                let key = (index, tau.to_bits());
                if !memo.contains_key(&key) {
                    let phis: Vec<f64> = ks
                        .iter()
                        .flat_map(|&(k, _)| {
                            [normal_cdf((a * k - tau) / s), normal_cdf((b * k - tau) / s)]
                        })
                        .collect();
                    if (memo.len() + 1) * phis.len() > SUM_TEST_MEMO {
                        memo.clear();
                    }
                    memo.insert(key, phis);
                }
                let phis = &memo[&key];
                let mut v = 0.0;
                for (&(_, w), ab) in ks.iter().zip(phis.chunks_exact(2)) {
                    v += w * (ab[0] - ee * ab[1]);
                }
                v - (1.0 + ee) * dropped
            };
            // g at the grid point t, from the tabulated CDF values.
            let g_grid = |t: usize| -> f64 {
                let row = t * ks.len()..(t + 1) * ks.len();
                let mut v = 0.0;
                for ((&(_, w), &pa), &pb) in ks
                    .iter()
                    .zip(&pair.phi_a[row.clone()])
                    .zip(&pair.phi_b[row])
                {
                    v += w * (pa - ee * pb);
                }
                v - (1.0 + ee) * dropped
            };
            let grid = SUM_TEST_GRID;
            let mut arg = lo;
            let mut val = f64::NEG_INFINITY;
            for t in 0..=grid {
                let tau = lo + (hi - lo) * t as f64 / grid as f64;
                let v = g_grid(t);
                if v > val {
                    val = v;
                    arg = tau;
                }
            }
            // Golden-section refinement around the best grid point.
            let step = (hi - lo) / grid as f64;
            let (mut x0, mut x1) = (arg - step, arg + step);
            let r = 0.5 * (5f64.sqrt() - 1.0);
            for _ in 0..40 {
                let c = x1 - r * (x1 - x0);
                let d = x0 + r * (x1 - x0);
                if g(c) > g(d) {
                    x1 = d;
                } else {
                    x0 = c;
                }
            }
            val = val.max(g(0.5 * (x0 + x1)));
            best = best.max(val);
        }
        Ok(best)
    }
}

/// A lower bound on the ε at δ of the same transcript: the supremum of ε with
/// [`sum_test_delta`]`(ε) > δ` (bisection; 0 if even ε = 0 gives δ_lb ≤ δ).
pub fn sum_test_epsilon(sampling: Sampling, steps: u64, z: f64, delta: f64) -> Result<f64> {
    require_unit_open("delta", delta)?;
    let test = SumTest::new(sampling, steps, z)?;
    if test.delta(0.0)? <= delta {
        return Ok(0.0);
    }
    let mut hi = 1.0;
    while test.delta(hi)? > delta {
        hi *= 2.0;
        if hi > 1e4 {
            return Ok(f64::INFINITY);
        }
    }
    let mut lo = 0.0;
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if test.delta(mid)? > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

// ------------------------------------------------------------------------------------------------
// Stand-ins for the concurrent accountants (minimal, RDP and exact Gaussian only)
// ------------------------------------------------------------------------------------------------

/// The integer orders the stand-in RDP accountant uses.
pub(crate) fn default_orders() -> Vec<u32> {
    (2..=128).collect()
}

/// How many with-replacement sampled steps can involve the differing record (composition and
/// self-composition add, a parallel composition counts its largest part).
fn sampled_steps(event: &DpEvent) -> f64 {
    match event {
        DpEvent::SampledWithReplacement { .. } => 1.0,
        DpEvent::SelfComposed { count, event } => *count as f64 * sampled_steps(event),
        DpEvent::Composed(v) => v.iter().map(sampled_steps).sum(),
        DpEvent::ParallelComposed(v) => v.iter().map(sampled_steps).fold(0.0, f64::max),
        _ => 0.0,
    }
}

/// The RDP curve of an event tree at integer orders under replace-one, with the δ spent on
/// truncating with-replacement multiplicities: Gaussian α/(2z²); self-composition and composition
/// add; a parallel composition takes the maximum (each record is in one part);
/// `sampled_with_replacement{n, m, gaussian}` uses [`rdp_curve_truncated`] at the smallest kmax
/// whose [`multiplicity_tail`] is ≤ `tail_per_step`. Everything else (Poisson and
/// without-replacement sampling, Laplace) is `Unsupported` here.
// The tree walk keeps the δ spent on truncating with-replacement multiplicities beside the RDP
// curve, which crate::privacy::rdp's curve has no place for; its other arms use rdp's leaf curves.
pub(crate) fn rdp_of_event(
    event: &DpEvent,
    orders: &[u32],
    tail_per_step: f64,
) -> Result<(Vec<f64>, f64)> {
    match event {
        DpEvent::Gaussian {
            noise_multiplier: z,
        } => {
            let r: Result<Vec<f64>> = orders
                .iter()
                .map(|&a| crate::privacy::rdp::gaussian_rdp(*z, a as f64))
                .collect();
            Ok((r?, 0.0))
        }
        DpEvent::SelfComposed { count, event } => {
            let (r, d) = rdp_of_event(event, orders, tail_per_step)?;
            let c = *count as f64;
            Ok((r.into_iter().map(|x| x * c).collect(), d * c))
        }
        DpEvent::Composed(v) => {
            let mut acc = vec![0.0; orders.len()];
            let mut extra = 0.0;
            for e in v {
                let (r, d) = rdp_of_event(e, orders, tail_per_step)?;
                for (a, x) in acc.iter_mut().zip(r) {
                    *a += x;
                }
                extra += d;
            }
            Ok((acc, extra))
        }
        DpEvent::ParallelComposed(v) => {
            let mut acc = vec![0.0f64; orders.len()];
            let mut extra = 0.0f64;
            for e in v {
                let (r, d) = rdp_of_event(e, orders, tail_per_step)?;
                for (a, x) in acc.iter_mut().zip(r) {
                    *a = a.max(x);
                }
                extra = extra.max(d);
            }
            Ok((acc, extra))
        }
        DpEvent::SampledWithReplacement { n, m, event } => match event.as_ref() {
            DpEvent::Gaussian { noise_multiplier } => {
                let mut kmax = 1;
                while kmax < *m && multiplicity_tail(*n, *m, kmax)? > tail_per_step {
                    kmax += 1;
                }
                let tail = multiplicity_tail(*n, *m, kmax)?;
                Ok((
                    rdp_curve_truncated(*n, *m, *noise_multiplier, orders, kmax)?,
                    tail,
                ))
            }
            _ => Err(Error::Unsupported(
                "sampled_with_replacement: only a Gaussian inner event is priced".into(),
            )),
        },
        DpEvent::PostProcessing | DpEvent::NoOp => Ok((vec![0.0; orders.len()], 0.0)),
        other => Err(Error::Unsupported(format!(
            "the with-replacement stand-in accountant does not price {other:?}"
        ))),
    }
}

/// RDP → (ε, δ) on integer orders: `crate::privacy::rdp::eps_from_rdp` (the conversion of
/// Canonne–Kamath–Steinke 2020, Prop. 12). Returns (ε, optimal α); an invalid curve gives ε = ∞.
pub(crate) fn rdp_to_epsilon(orders: &[u32], rdp: &[f64], delta: f64) -> (f64, u32) {
    let of: Vec<f64> = orders.iter().map(|&a| a as f64).collect();
    match crate::privacy::rdp::eps_from_rdp(&of, rdp, delta) {
        Ok((e, a)) => (e, a as u32),
        Err(_) => (f64::INFINITY, orders.first().copied().unwrap_or(2)),
    }
}

/// The fraction of δ the stand-in spends on truncating multiplicities.
const TAIL_SHARE: f64 = 0.01;

/// ε at δ of a replace-one ledger by the stand-in RDP accountant: 1% of δ pays for truncating
/// with-replacement multiplicities (step W0), the rest goes to the RDP conversion.
pub(crate) fn rdp_epsilon(ledger: &PrivacyLedger, delta: f64) -> Result<(f64, u32)> {
    rdp_epsilon_parts(ledger, delta).map(|(e, a, _)| (e, a))
}

/// `rdp_epsilon` with the δ share spent on truncating with-replacement multiplicities:
/// (ε, optimal order, truncation δ); the RDP conversion gets δ minus that share.
pub fn rdp_epsilon_parts(ledger: &PrivacyLedger, delta: f64) -> Result<(f64, u32, f64)> {
    rdp_epsilon_parts_at(ledger, delta, &default_orders())
}

/// [`rdp_epsilon_parts`] on the given integer orders (each ≥ 2) instead of 2..=128. Any set of
/// orders gives a valid upper bound on ε (the conversion minimises over the orders it is given);
/// fewer or lower orders cost less (the moment table is built up to the largest order) and can
/// only give a larger ε.
pub fn rdp_epsilon_parts_at(
    ledger: &PrivacyLedger,
    delta: f64,
    orders: &[u32],
) -> Result<(f64, u32, f64)> {
    require_unit_open("delta", delta)?;
    if orders.is_empty() || orders.iter().any(|&a| a < 2) {
        return Err(invalid("orders", "needs at least one integer order ≥ 2"));
    }
    if ledger.relation != Neighbouring::ReplaceOne {
        return Err(Error::Unsupported(
            "the with-replacement stand-in prices replace-one ledgers only".into(),
        ));
    }
    ledger.event.validate()?;
    let steps = sampled_steps(&ledger.event).max(1.0);
    let (r, extra) = rdp_of_event(&ledger.event, orders, TAIL_SHARE * delta / steps)?;
    if extra >= delta {
        return Ok((f64::INFINITY, orders[0], extra));
    }
    let (e, a) = rdp_to_epsilon(orders, &r, delta - extra);
    Ok((e, a, extra))
}

/// The exact ε at δ of μ-GDP: `crate::privacy::gdp::gdp_epsilon` (0 for μ = 0).
pub(crate) fn gaussian_epsilon(mu: f64, delta: f64) -> Result<f64> {
    require_unit_open("delta", delta)?;
    require_nonnegative("mu", mu)?;
    if mu == 0.0 {
        return Ok(0.0);
    }
    crate::privacy::gdp::gdp_epsilon(mu, delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single-call sum test as written before the τ-grid tables: the reference for
    /// [`SumTest`]'s bit-identity.
    fn sum_test_delta_direct(sampling: Sampling, steps: u64, z: f64, epsilon: f64) -> f64 {
        let (trials, p) = sampling.hits(steps).unwrap();
        let (ks, dropped) = binomial_support(trials, p);
        let khi = ks.last().map(|x| x.0).unwrap_or(0.0);
        let s = (steps as f64).sqrt();
        let ee = epsilon.exp();
        let mut best = 0.0f64;
        for &(a, b) in &[(0.5, -0.5), (1.0, 0.0), (0.0, 1.0)] {
            let (a, b) = (a / z, b / z);
            let g = |tau: f64| -> f64 {
                let mut v = 0.0;
                for &(k, w) in &ks {
                    v += w * (normal_cdf((a * k - tau) / s) - ee * normal_cdf((b * k - tau) / s));
                }
                v - (1.0 + ee) * dropped
            };
            let lo = a.min(b) * khi - 12.0 * s;
            let hi = a.max(b) * khi + 12.0 * s;
            let grid = 200;
            let mut arg = lo;
            let mut val = f64::NEG_INFINITY;
            for t in 0..=grid {
                let tau = lo + (hi - lo) * t as f64 / grid as f64;
                let v = g(tau);
                if v > val {
                    val = v;
                    arg = tau;
                }
            }
            let step = (hi - lo) / grid as f64;
            let (mut x0, mut x1) = (arg - step, arg + step);
            let r = 0.5 * (5f64.sqrt() - 1.0);
            for _ in 0..40 {
                let c = x1 - r * (x1 - x0);
                let d = x0 + r * (x1 - x0);
                if g(c) > g(d) {
                    x1 = d;
                } else {
                    x0 = c;
                }
            }
            val = val.max(g(0.5 * (x0 + x1)));
            best = best.max(val);
        }
        best
    }

    #[test]
    fn tabulated_sum_test_is_bit_identical_to_the_direct_one() {
        let cases = [
            (Sampling::Full, 1u64, 1.3),
            (Sampling::WithReplacement { n: 100, m: 10 }, 50, 0.9),
            (Sampling::WithoutReplacement { n: 60, m: 6 }, 30, 1.7),
        ];
        for (sampling, steps, z) in cases {
            let test = SumTest::new(sampling, steps, z).unwrap();
            for eps in [0.0, 0.1, 0.75, 2.0, 5.5] {
                let direct = sum_test_delta_direct(sampling, steps, z, eps);
                assert_eq!(
                    test.delta(eps).unwrap().to_bits(),
                    direct.to_bits(),
                    "{sampling:?}, steps {steps}, z {z}, ε {eps}"
                );
                assert_eq!(
                    sum_test_delta(sampling, steps, z, eps).unwrap().to_bits(),
                    direct.to_bits()
                );
            }
        }
    }

    #[test]
    fn abs_moment_matches_closed_forms() {
        for &s in &[0.05, 0.3, 1.0, 2.0] {
            // M_2(s) = e^{s²} − 1.
            let m2 = log_abs_moment(2.0, s).exp();
            let want = (s * s).exp_m1();
            assert!((m2 / want - 1.0).abs() < 1e-10, "s={s}: {m2} vs {want}");
            // M_4(s) = Σ_l C(4,l)(−1)^{4−l} e^{l(l−1)s²/2}.
            let m4 = log_abs_moment(4.0, s).exp();
            let c = [1.0, -4.0, 6.0, -4.0, 1.0];
            let want4: f64 = (0..=4)
                .map(|l| c[l] * (l as f64 * (l as f64 - 1.0) * s * s / 2.0).exp())
                .sum();
            if s >= 0.3 {
                assert!((m4 / want4 - 1.0).abs() < 1e-8, "s={s}: {m4} vs {want4}");
            }
        }
    }

    #[test]
    fn gl_weights_sum_to_two() {
        let w: f64 = gauss_legendre_16().iter().map(|p| p.1).sum();
        assert!((w - 2.0).abs() < 1e-14);
    }

    #[test]
    fn n_equal_one_is_the_plain_gaussian() {
        // Every draw is the differing record: D_α = α m²/(2z²).
        let r = rdp(1, 3, 2.0, 5).unwrap();
        assert!((r - 5.0 * 9.0 / 8.0).abs() < 1e-9, "{r}");
    }
}
