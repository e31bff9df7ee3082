//! A minimal Bregman / mirror-map toolkit: the ℓp mirror map ψ(x) = ½‖x‖_p² with its gradient,
//! inverse gradient and Bregman divergence, and the entropic prox step on the simplex.
//!
//! Which BGM24 items they serve:
//!
//! * [`lp_mirror_map_grad`] is ∇(½‖z‖_p²), the ρ of BGM24 eq. (7) (read as ρ = ∇½‖·‖² of whichever
//!   norm is used, i.e. (1/B²)∇½‖·‖_p̄² in original coordinates: erratum E-BGM24-8), the map of
//!   BGM24 Fact 2 (‖∇½‖z‖_p²‖_{p*} = ‖z‖_p) and of Assumption 1 (ρ is (p−1)-strongly monotone
//!   w.r.t. ‖·‖_p for p ∈ (1, 2]), and ∇ψ of the mirror-prox distance-generating function
//!   ψ = κ/(2B_w²)‖w‖_p̄² + κ/(2B_θ²)‖θ‖_q̄² of the proof of BGM24 Theorem 4 (blockwise and
//!   rescaled by the caller).
//! * [`lp_mirror_map_grad_inv`] = ∇ψ* with ψ* = ½‖·‖_q², the inverse mirror map, so the
//!   **unconstrained** mirror step of BGM24 Algorithm 2 is `grad_inv(grad(z) − η·g)`. The
//!   constrained Bregman prox over a box or simplex (centred at z_0, erratum E-BGM24-13) is not
//!   closed form for p̄ ≠ 2 and is left to the BGM24 module.
//! * [`lp_bregman_divergence`] is the Bregman divergence V_ψ(x, y) defined after BGM24 Lemma 8
//!   (App. C.1).
//! * [`entropy_prox`] is **not** used by BGM24, which equips the simplex block Θ = Δ_k of its
//!   group-DRO example (§2.1, an ℓp/ℓ1 SSP) with ℓ_q̄, q̄ = 1 + 1/log d (the §4 setup). It is the
//!   classical entropic setup of mirror-prox on the simplex (Juditsky–Nemirovski–Tauvel, BGM24's
//!   \[20\]) and serves as the baseline/alternative geometry for that block.

use crate::error::{invalid, require_finite, Result};
use crate::geometry::norm::{dual_exponent, lp_norm};
use crate::linalg;

fn validate_open_p(p: f64) -> Result<()> {
    if !(p > 1.0 && p < f64::INFINITY) {
        return Err(invalid(
            "p",
            format!("the mirror map 1/2||x||_p^2 needs p in (1, inf), got {p}"),
        ));
    }
    Ok(())
}

/// ψ(x) = ½‖x‖_p², p ∈ [1, ∞] (NaN for an invalid p).
pub fn half_sq_lp(x: &[f64], p: f64) -> f64 {
    let n = lp_norm(x, p);
    0.5 * n * n
}

/// ∇(½‖x‖_p²)_i = ‖x‖_p^{2−p}·sign(x_i)|x_i|^{p−1} (0 at x = 0), for p ∈ (1, ∞).
///
/// Computed as m·‖w‖_p^{2−p}·sign(w_i)|w_i|^{p−1} with w = x/m, m = max|x_i|, so no overflow. It
/// equals ‖x‖_p·`Norm::Lp(q).dual_maximizer(x)` (x ≠ 0), and satisfies
/// ‖∇ψ(x)‖_q = ‖x‖_p and ⟨∇ψ(x), x⟩ = ‖x‖_p² (BGM24 Fact 2). For p = 2 it is the identity.
///
/// # Errors
/// [`Error::Invalid`](crate::error::Error::Invalid) naming `p` unless 1 < p < ∞ (½‖·‖₁² and
/// ½‖·‖_∞² are not differentiable), or `x[i]` for a non-finite entry.
pub fn lp_mirror_map_grad(x: &[f64], p: f64) -> Result<Vec<f64>> {
    validate_open_p(p)?;
    require_finite("x", x)?;
    if p == 2.0 {
        return Ok(x.to_vec());
    }
    let m = x.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    if m == 0.0 {
        return Ok(vec![0.0; x.len()]);
    }
    let w: Vec<f64> = x.iter().map(|v| v / m).collect();
    let f = m * lp_norm(&w, p).powf(2.0 - p);
    Ok(w.iter()
        .map(|&wi| {
            if wi == 0.0 {
                0.0
            } else {
                f * wi.signum() * wi.abs().powf(p - 1.0)
            }
        })
        .collect())
}

/// The inverse mirror map (∇ψ)^{-1} = ∇ψ*, where ψ* = ½‖·‖_q² with q = p/(p−1) is the convex
/// conjugate of ψ = ½‖·‖_p²; i.e. `lp_mirror_map_grad(y, q)`. For p ∈ (1, ∞),
/// `lp_mirror_map_grad_inv(&lp_mirror_map_grad(x, p)?, p)? == x` up to rounding.
///
/// # Errors
/// As [`lp_mirror_map_grad`] (naming `p`, or `x[i]` for a non-finite entry of `y`).
pub fn lp_mirror_map_grad_inv(y: &[f64], p: f64) -> Result<Vec<f64>> {
    validate_open_p(p)?;
    lp_mirror_map_grad(y, dual_exponent(p))
}

/// The Bregman divergence of ψ = ½‖·‖_p² (V_ψ of BGM24 App. C.1):
/// V_ψ(x, y) = ψ(x) − ψ(y) − ⟨∇ψ(y), x − y⟩ = ψ(x) + ψ(y) − ⟨∇ψ(y), x⟩ (using ⟨∇ψ(y), y⟩ = 2ψ(y)).
/// It is ≥ ((p−1)/2)‖x − y‖_p² for p ∈ (1, 2] (strong convexity, as in BGM24's §4 setup) up to rounding.
///
/// # Errors
/// As [`lp_mirror_map_grad`]; `y` naming a length mismatch.
pub fn lp_bregman_divergence(x: &[f64], y: &[f64], p: f64) -> Result<f64> {
    if x.len() != y.len() {
        return Err(invalid(
            "y",
            format!("length {} does not match x length {}", y.len(), x.len()),
        ));
    }
    require_finite("y", y)?;
    let g = lp_mirror_map_grad(y, p)?;
    require_finite("x", x)?;
    Ok(half_sq_lp(x, p) + half_sq_lp(y, p) - linalg::dot(&g, x))
}

/// The entropic prox step on the simplex: argmin_{u ∈ Δ} η⟨g, u⟩ + KL(u ‖ x), i.e.
/// u_i = x_i·exp(−η g_i) / Σ_j x_j·exp(−η g_j).
///
/// Computed stably in log space (log-sum-exp): l_i = ln x_i − η g_i (−∞ where x_i = 0),
/// m = max l_i, u_i = exp(l_i − m)/Σ_j exp(l_j − m), sums in index order. Zero coordinates stay
/// zero; `x` need not be normalized (only its direction matters). See the module docs for how it
/// relates to BGM24.
///
/// # Errors
/// [`Error::Invalid`](crate::error::Error::Invalid) naming `g` (length mismatch or non-finite
/// entry), `x[i]` (negative or non-finite), `x` (all zero / empty), or `eta` (negative,
/// non-finite, or η·g overflowing).
pub fn entropy_prox(x: &[f64], g: &[f64], eta: f64) -> Result<Vec<f64>> {
    if g.len() != x.len() {
        return Err(invalid(
            "g",
            format!("length {} does not match x length {}", g.len(), x.len()),
        ));
    }
    require_finite("x", x)?;
    require_finite("g", g)?;
    if let Some(i) = x.iter().position(|&v| v < 0.0) {
        return Err(invalid(
            format!("x[{i}]"),
            format!("must be >= 0, got {}", x[i]),
        ));
    }
    if !x.iter().any(|&v| v > 0.0) {
        return Err(invalid("x", "must have a positive entry"));
    }
    if !(eta.is_finite() && eta >= 0.0) {
        return Err(invalid(
            "eta",
            format!("must be finite and >= 0, got {eta}"),
        ));
    }
    let mut l = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        let step = eta * g[i];
        if !step.is_finite() {
            return Err(invalid(
                "eta",
                format!("eta*g[{i}] overflows ({eta} * {})", g[i]),
            ));
        }
        l.push(if x[i] > 0.0 {
            x[i].ln() - step
        } else {
            f64::NEG_INFINITY
        });
    }
    let m = l.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
    let w: Vec<f64> = l.iter().map(|&v| (v - m).exp()).collect();
    let mut s = 0.0;
    for &wi in &w {
        s += wi;
    }
    Ok(w.iter().map(|wi| wi / s).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grad_known_values() {
        // p = 2: identity.
        assert_eq!(
            lp_mirror_map_grad(&[1.0, -2.0], 2.0).unwrap(),
            vec![1.0, -2.0]
        );
        // p = 3, x = (1, 0): ‖x‖ = 1, grad = (1, 0).
        assert_eq!(
            lp_mirror_map_grad(&[1.0, 0.0], 3.0).unwrap(),
            vec![1.0, 0.0]
        );
        assert_eq!(
            lp_mirror_map_grad(&[0.0, 0.0], 1.5).unwrap(),
            vec![0.0, 0.0]
        );
        for p in [1.0, f64::INFINITY, 0.5, f64::NAN] {
            assert!(lp_mirror_map_grad(&[1.0], p).is_err());
        }
        assert!(lp_mirror_map_grad(&[f64::NAN], 1.5).is_err());
    }

    #[test]
    fn entropy_known_values() {
        let u = entropy_prox(&[0.5, 0.5], &[0.0, 2f64.ln()], 1.0).unwrap();
        assert!((u[0] - 2.0 / 3.0).abs() < 1e-15 && (u[1] - 1.0 / 3.0).abs() < 1e-15);
        // Huge steps are handled by log-sum-exp (no overflow to NaN).
        let u = entropy_prox(&[0.25, 0.75, 0.0], &[-1e6, 1e6, 3.0], 1e3).unwrap();
        assert_eq!(u, vec![1.0, 0.0, 0.0]);
        assert!(entropy_prox(&[0.0, 0.0], &[0.0, 0.0], 1.0).is_err());
        assert!(entropy_prox(&[1.0], &[0.0, 0.0], 1.0).is_err());
        assert!(entropy_prox(&[-0.1, 1.1], &[0.0, 0.0], 1.0).is_err());
        assert!(entropy_prox(&[0.5, 0.5], &[0.0, 0.0], -1.0).is_err());
        assert!(entropy_prox(&[0.5, 0.5], &[1e300, 0.0], 1e300).is_err());
    }
}
