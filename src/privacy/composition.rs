//! Composition theorems for (ε, δ) guarantees.
//!
//! * [`basic_composition`]: k mechanisms with (ε_i, δ_i) compose to (Σ ε_i, Σ δ_i) (Dwork &
//!   Roth Thm 3.16).
//! * [`advanced_composition`]: k-fold adaptive composition of (ε, δ)-DP mechanisms is
//!   (ε', kδ + δ')-DP with ε' = √(2k ln(1/δ'))·ε + kε(e^ε − 1) (Dwork, Rothblum & Vadhan 2010;
//!   Dwork & Roth Thm 3.20).
//! * [`parallel_composition`]: mechanisms run on disjoint parts of the data compose to
//!   (max ε_i, max δ_i) (McSherry 2009; BGM23 Thm 8), since a neighbouring dataset differs in
//!   one part only.
//! * [`optimal_homogeneous_delta`] / [`optimal_homogeneous_epsilon`]: the exact optimal k-fold
//!   composition of (ε, δ)-DP mechanisms (Kairouz, Oh & Viswanath 2015, Thm 3.3): the composed
//!   privacy region is that of k copies of the canonical (ε, δ) randomized-response pair, so
//!   δ_k(ε_g) = 1 − (1 − δ)^k (1 − δ_RR(ε_g)),
//!   δ_RR(ε_g) = Σ_ℓ C(k, ℓ) max(0, e^{(k−ℓ)ε} − e^{ε_g} e^{ℓε}) / (1 + e^ε)^k.
//!   At ε_g = (k − 2i)ε this is KOV15's δ_i. It is never worse than basic or advanced
//!   composition (tested).
//!
//! Component guarantees may have ε_i = 0 or δ_i = 0 (pure DP); the results may be vacuous
//! (δ ≥ 1), which is reported as computed, not clipped.

use crate::error::{invalid, require_count, require_nonnegative, require_unit_open, Result};
use crate::privacy::special::{bisect_threshold, bracket_up, log_sum_exp};
use serde::{Deserialize, Serialize};

/// An (ε, δ)-DP guarantee.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Guarantee {
    /// ε ≥ 0.
    pub epsilon: f64,
    /// δ ∈ [0, 1).
    pub delta: f64,
}

impl Guarantee {
    /// Check ε ≥ 0 finite and δ ∈ [0, 1), naming the fields under `path`.
    pub fn validate_at(&self, path: &str) -> Result<()> {
        require_nonnegative(format_args!("{path}.epsilon"), self.epsilon)?;
        if !(self.delta >= 0.0 && self.delta < 1.0) {
            return Err(invalid(
                format!("{path}.delta"),
                format!("must be in [0, 1), got {}", self.delta),
            ));
        }
        Ok(())
    }
}

fn validate_all(parts: &[Guarantee]) -> Result<()> {
    for (i, g) in parts.iter().enumerate() {
        g.validate_at(&format!("guarantees[{i}]"))?;
    }
    Ok(())
}

/// (Σ ε_i, Σ δ_i) (Dwork & Roth Thm 3.16). The empty composition is (0, 0).
pub fn basic_composition(parts: &[Guarantee]) -> Result<Guarantee> {
    validate_all(parts)?;
    Ok(Guarantee {
        epsilon: parts.iter().map(|g| g.epsilon).sum(),
        delta: parts.iter().map(|g| g.delta).sum(),
    })
}

/// (max ε_i, max δ_i) for mechanisms on disjoint parts of the data (parallel composition;
/// BGM23 Thm 8). The empty composition is (0, 0).
pub fn parallel_composition(parts: &[Guarantee]) -> Result<Guarantee> {
    validate_all(parts)?;
    Ok(Guarantee {
        epsilon: parts.iter().map(|g| g.epsilon).fold(0.0, f64::max),
        delta: parts.iter().map(|g| g.delta).fold(0.0, f64::max),
    })
}

/// Advanced composition (Dwork, Rothblum & Vadhan 2010; Dwork & Roth Thm 3.20): k-fold adaptive
/// composition of an (ε, δ)-DP mechanism is (ε', kδ + δ')-DP with
/// ε' = √(2k ln(1/δ'))·ε + kε(e^ε − 1), for any δ' ∈ (0, 1).
pub fn advanced_composition(
    epsilon: f64,
    delta: f64,
    k: u64,
    delta_prime: f64,
) -> Result<Guarantee> {
    Guarantee { epsilon, delta }.validate_at("guarantee")?;
    require_count("k", k)?;
    require_unit_open("delta_prime", delta_prime)?;
    let kf = k as f64;
    Ok(Guarantee {
        epsilon: (2.0 * kf * (1.0 / delta_prime).ln()).sqrt() * epsilon
            + kf * epsilon * epsilon.exp_m1(),
        delta: kf * delta + delta_prime,
    })
}

/// ln δ_RR(ε_g) of k-fold randomized response with parameter ε (the pure part of KOV15 Thm 3.3),
/// summed in log space: terms ℓ with (k − 2ℓ)ε > ε_g contribute
/// C(k, ℓ)·e^{(k−ℓ)ε}(1 − e^{ε_g − (k−2ℓ)ε})/(1 + e^ε)^k.
fn log_delta_rr(epsilon: f64, k: u64, eps_g: f64) -> f64 {
    if epsilon == 0.0 {
        return f64::NEG_INFINITY;
    }
    let kf = k as f64;
    // ln(1 + e^ε), stably.
    let l1pe = epsilon + (-epsilon).exp().ln_1p();
    let mut terms = Vec::new();
    let mut log_binom = 0.0; // ln C(k, 0)
    for l in 0..=k {
        let lf = l as f64;
        let margin = (kf - 2.0 * lf) * epsilon - eps_g;
        if margin <= 0.0 {
            break;
        }
        terms.push(log_binom + (kf - lf) * epsilon - kf * l1pe + (-(-margin).exp_m1()).ln());
        log_binom += ((kf - lf) / (lf + 1.0)).ln();
    }
    log_sum_exp(&terms)
}

/// The optimal δ for k-fold composition of (ε, δ)-DP mechanisms at total ε_g (KOV15 Thm 3.3,
/// extended from the points ε_g = (k − 2i)ε to every ε_g ≥ 0 by the same randomized-response
/// privacy region): 1 − (1 − δ)^k (1 − δ_RR(ε_g)). Cost O(k).
pub fn optimal_homogeneous_delta(epsilon: f64, delta: f64, k: u64, eps_g: f64) -> Result<f64> {
    Guarantee { epsilon, delta }.validate_at("guarantee")?;
    require_count("k", k)?;
    require_nonnegative("eps_g", eps_g)?;
    let d_rr = log_delta_rr(epsilon, k, eps_g).exp();
    // 1 − (1−δ)^k (1 − d) = −expm1(k ln(1−δ) + ln(1−d)).
    let kf = k as f64;
    Ok(-(kf * (-delta).ln_1p() + (-d_rr).ln_1p()).exp_m1())
}

/// The smallest ε_g (to adjacent floats) with [`optimal_homogeneous_delta`] ≤ δ_g: the optimal
/// homogeneous composition's ε at total δ_g. Needs δ_g > 1 − (1 − δ)^k (the part no ε_g can
/// remove); otherwise `Invalid` naming `delta_g`.
pub fn optimal_homogeneous_epsilon(epsilon: f64, delta: f64, k: u64, delta_g: f64) -> Result<f64> {
    Guarantee { epsilon, delta }.validate_at("guarantee")?;
    require_count("k", k)?;
    require_unit_open("delta_g", delta_g)?;
    let floor = -((k as f64) * (-delta).ln_1p()).exp_m1();
    if delta_g <= floor {
        return Err(invalid(
            "delta_g",
            format!("must exceed 1 − (1 − δ)^k = {floor}, got {delta_g}"),
        ));
    }
    let ok = |e: f64| optimal_homogeneous_delta(epsilon, delta, k, e).is_ok_and(|d| d <= delta_g);
    if ok(0.0) {
        return Ok(0.0);
    }
    // δ_RR(kε) = 0, so ε_g = kε always passes.
    let start = (k as f64 * epsilon).max(f64::MIN_POSITIVE);
    let (lo, hi) = if ok(start) {
        (0.0, start)
    } else {
        bracket_up(start, ok).unwrap_or((0.0, start))
    };
    Ok(bisect_threshold(lo, hi, ok))
}
