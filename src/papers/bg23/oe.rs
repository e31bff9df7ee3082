//! BG23 App. B: operator extrapolation (OE, Algorithm 3, after Kotsalis, Lan and Li) on NISPP's
//! λ-strongly monotone subproblem F_k = F + λ_k(· − w_k): its step rules, its linear rate and its
//! iteration count, each as printed ([`Reading::PaperLiteral`]) and corrected
//! ([`Reading::Corrected`], errata E-BG23-60, E-BG23-61, E-BG23-62 in `proofs-notes/errata.md`;
//! derivation in `proofs-notes/bg23.md`, Part 6).
//!
//! Indexing: Algorithm 3 starts at z_0 = z_1 = w_k and iteration t = 1..T produces z_{t+1}, so T
//! iterations output z_{T+1} ([`crate::algorithms::operator_extrapolation::OperatorExtrapolation`]
//! with `OeStop::Iterations(T)` returns z_{T+1}).
//!
//! **For NISPP's inner solver** use [`oe_corrected_count`] (or [`oe_corrected_count_for_nu`]):
//! after that many iterations z_{T+1} is within ζ of the subproblem's solution w*_{k+1}, from any
//! start at distance ≤ r₀ of w*_{k+1}, by the corrected rate [`appb_rate_factor`].

use crate::error::{invalid, Result};
use crate::papers::Reading;

fn require_pos(field: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be finite and > 0, got {v}")))
    }
}

fn require_nonneg(field: &str, v: f64) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be finite and ≥ 0, got {v}")))
    }
}

/// App. B's κ = λ_k/(L + λ_k) + 1 ∈ (1, 2] (L ≥ 0 the Lipschitz constant of F, λ_k > 0).
pub fn appb_kappa(lipschitz: f64, lambda: f64) -> Result<f64> {
    require_nonneg("lipschitz", lipschitz)?;
    require_pos("lambda", lambda)?;
    Ok(lambda / (lipschitz + lambda) + 1.0)
}

/// Algorithm 3 line 3's step 1/(2(L + λ_k)) (the paper writes λ_t for λ_k there).
pub fn appb_step(lipschitz: f64, lambda: f64) -> Result<f64> {
    require_nonneg("lipschitz", lipschitz)?;
    require_pos("lambda", lambda)?;
    Ok(1.0 / (2.0 * (lipschitz + lambda)))
}

/// App. B's rate as a factor c(T) with ‖z_out − w*‖² ≤ c(T)·‖z_1 − w*‖² after T ≥ 1 iterations:
/// literal κ^{−T} (printed for z_T), corrected (2κ/(2κ − 1))·κ^{−T} for z_{T+1} (E-BG23-60).
pub fn appb_rate_factor(kappa: f64, t: usize, reading: Reading) -> Result<f64> {
    if !(kappa.is_finite() && kappa > 1.0) {
        return Err(invalid(
            "kappa",
            format!("must be finite and > 1, got {kappa}"),
        ));
    }
    if t == 0 {
        return Err(invalid("t", "T must be ≥ 1"));
    }
    let base = kappa.powi(-(t.min(i32::MAX as usize) as i32));
    Ok(match reading {
        Reading::PaperLiteral => base,
        Reading::Corrected => 2.0 * kappa / (2.0 * kappa - 1.0) * base,
    })
}

/// App. B's accuracy target for ‖z_T − w*‖: literal ν/(LD² + MD + 2λ_kD²) (not a length:
/// E-BG23-61), corrected ζ = ν/(LD + M + 2λ_kD), the ζ of Remark 3 (1).
pub fn appb_target(l: f64, m: f64, d: f64, lambda: f64, nu: f64, reading: Reading) -> Result<f64> {
    require_nonneg("lipschitz", l)?;
    require_nonneg("m", m)?;
    require_pos("d", d)?;
    require_pos("lambda", lambda)?;
    require_pos("nu", nu)?;
    Ok(match reading {
        Reading::PaperLiteral => nu / (l * d * d + m * d + 2.0 * lambda * d * d),
        Reading::Corrected => nu / (l * d + m + 2.0 * lambda * d),
    })
}

/// App. B's printed count T = 2κ ln((LD² + MD + 2λ_kD²)/ν) = (2(L + 2λ_k)/(L + λ_k))·ln(·), as a
/// real number (both printed forms agree); [`appb_count_iterations`] rounds it up. With the
/// corrected target ζ = ν/(LD + M + 2λD) it reads 2κ ln(D/ζ).
pub fn appb_count(l: f64, m: f64, d: f64, lambda: f64, nu: f64) -> Result<f64> {
    let k = appb_kappa(l, lambda)?;
    let target = appb_target(l, m, d, lambda, nu, Reading::PaperLiteral)?;
    Ok(2.0 * k * (1.0 / target).ln())
}

/// [`appb_count`] rounded up to an iteration count (at least 1).
pub fn appb_count_iterations(l: f64, m: f64, d: f64, lambda: f64, nu: f64) -> Result<usize> {
    Ok(ceil_count(appb_count(l, m, d, lambda, nu)?))
}

/// The printed count in the D/ζ form, ⌈2κ ln(D/ζ)⌉ (at least 1).
pub fn appb_count_for_zeta(kappa: f64, d: f64, zeta: f64) -> Result<usize> {
    require_pos("d", d)?;
    require_pos("zeta", zeta)?;
    if !(kappa.is_finite() && kappa > 1.0) {
        return Err(invalid(
            "kappa",
            format!("must be finite and > 1, got {kappa}"),
        ));
    }
    Ok(ceil_count(2.0 * kappa * (d / zeta).ln()))
}

fn ceil_count(x: f64) -> usize {
    if x.is_finite() && x > 1.0 {
        x.ceil() as usize
    } else {
        1
    }
}

/// The corrected count (E-BG23-62): the least T ≥ 1 with (2κ/(2κ − 1))κ^{−T}r₀² ≤ ζ², i.e.
/// T = ⌈(2 ln(r₀/ζ) + ln(2κ/(2κ − 1)))/ln κ⌉; after T iterations of Algorithm 3 (output z_{T+1})
/// ‖z_{T+1} − w*‖ ≤ ζ for every start with ‖z_1 − w*‖ ≤ r₀ (r₀ = D for a start in W; for the
/// literal start w_k ∉ W, r₀ = D + dist(w_k, W)). κ = [`appb_kappa`] ∈ (1, 2].
///
/// This is the count NISPP's inner solver uses for Remark 3 (1)'s ζ.
pub fn oe_corrected_count(kappa: f64, r0: f64, zeta: f64) -> Result<usize> {
    if !(kappa.is_finite() && kappa > 1.0) {
        return Err(invalid(
            "kappa",
            format!("must be finite and > 1, got {kappa}"),
        ));
    }
    require_nonneg("r0", r0)?;
    require_pos("zeta", zeta)?;
    if r0 == 0.0 {
        return Ok(1);
    }
    let x = (2.0 * (r0 / zeta).ln() + (2.0 * kappa / (2.0 * kappa - 1.0)).ln()) / kappa.ln();
    let mut t = ceil_count(x);
    while t > 1 && appb_rate_factor(kappa, t - 1, Reading::Corrected)? * r0 * r0 <= zeta * zeta {
        t -= 1;
    }
    // Guard the rounding of x: step up until the factor really meets ζ² (at most a step or two).
    while appb_rate_factor(kappa, t, Reading::Corrected)? * r0 * r0 > zeta * zeta {
        t += 1;
    }
    Ok(t)
}

/// [`oe_corrected_count`] with App. B's parameters: κ from (L, λ_k), the corrected target
/// ζ = ν/(LD + M + 2λ_kD) and r₀ = D (a start in W).
pub fn oe_corrected_count_for_nu(l: f64, m: f64, d: f64, lambda: f64, nu: f64) -> Result<usize> {
    let k = appb_kappa(l, lambda)?;
    let zeta = appb_target(l, m, d, lambda, nu, Reading::Corrected)?;
    oe_corrected_count(k, d, zeta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_rules_and_counts() {
        assert_eq!(appb_kappa(1.0, 1.0).unwrap(), 1.5);
        assert_eq!(appb_step(1.0, 1.0).unwrap(), 0.25);
        assert_eq!(appb_kappa(0.0, 3.0).unwrap(), 2.0);
        // Printed count, L = 0, M = 0, D = 1, λ = 1/2, ν = 1: target 1, 2κ ln 1 = 0 → 1.
        assert_eq!(appb_count_iterations(0.0, 0.0, 1.0, 0.5, 1.0).unwrap(), 1);
        // Corrected count meets ζ and one fewer does not.
        for &(k, r, z) in &[(1.5, 1.0, 1e-4), (4.0 / 3.0, 2.0, 1e-3), (2.0, 1.0, 0.3)] {
            let t = oe_corrected_count(k, r, z).unwrap();
            let f = appb_rate_factor(k, t, Reading::Corrected).unwrap();
            assert!(f * r * r <= z * z);
            if t > 1 {
                let f = appb_rate_factor(k, t - 1, Reading::Corrected).unwrap();
                assert!(f * r * r > z * z);
            }
        }
        assert!(appb_kappa(1.0, 0.0).is_err());
        assert!(oe_corrected_count(1.0, 1.0, 0.1).is_err());
    }
}
