//! KLLW22 §5.1 and App. A.2, A.4: the stability bounds of DP-GDA and the empirical-risk bound
//! behind them, one function per formula: eq. (3) (the empirical saddle point's stability), the
//! step size and horizon of Theorem 2 / Remark 4, Theorem 2's γ with its p_ζ, Lemma 2 (the
//! σ form of its proof, Lemma 13 in App. A.4, and the printed c form), and Remark 3's bound on
//! g_w with its p′_ζ.

use super::tools::{lemma6_check_level, ZetaRange};
use crate::error::{invalid, Result};
use crate::papers::Reading;
use std::f64::consts::E;

/// KLLW22 eq. (3) (proof of Theorem 2, App. A.2): the empirical saddle points of neighbouring
/// datasets satisfy ‖Δw*‖ + ‖Δv*‖ ≤ 4G/(nρ) (block sum).
pub fn eq3_block_sum(g: f64, n: f64, rho: f64) -> f64 {
    4.0 * g / (n * rho)
}

/// The display before KLLW22 eq. (3): √(‖Δw*‖² + ‖Δv*‖²) ≤ 2√2G/(nρ) (joint norm).
pub fn eq3_joint(g: f64, n: f64, rho: f64) -> f64 {
    2.0 * 2f64.sqrt() * g / (n * rho)
}

/// η_t = 1/(ρt), the step size of KLLW22 Theorem 2 (and Lemma 2) for Algorithm 1, t ≥ 1.
pub fn thm2_step_size(rho: f64, t: usize) -> f64 {
    1.0 / (rho * t as f64)
}

/// T = ⌈n^{2/3}⌉, the horizon of KLLW22 Remarks 3 and 4 (T = O(n^{2/3})).
pub fn remark4_steps(n: f64) -> f64 {
    n.powf(2.0 / 3.0).ceil()
}

/// KLLW22 Theorem 2's γ (its display, = eq. (11) of the proof) with B = σ√p·p_ζ standing for
/// the noise norms and `g_sum` = g_w + g_v:
/// 4G/(nρ) + 2B·log(eT)/T + 4√(log(eT))·√(G²/(ρ²T) + B²/(ρ²T) + 2GB/(ρ²T) + g_sum·B/(ρ log(eT))).
/// With `g_sum` = M_W + M_V it is Remark 4's γ.
pub fn thm2_gamma(g: f64, rho: f64, n: f64, t: f64, b: f64, g_sum: f64) -> f64 {
    let le = (E * t).ln();
    let rt = rho * rho * t;
    4.0 * g / (n * rho)
        + 2.0 * b * le / t
        + 4.0
            * le.sqrt()
            * (g * g / rt + b * b / rt + 2.0 * g * b / rt + g_sum * b / (rho * le)).sqrt()
}

/// p_ζ = 1 + (8 log(2T/ζ)/p)^{1/4} (KLLW22 Theorem 2, and the text after eq. (10)): Lemma 6 at
/// level ζ/(2T), a union bound over the 2T noise vectors. With `Some(range)`, ζ/(2T) must lie in
/// Lemma 6's range (the paper's range needs p > 8 log(2T/ζ), E-KLLW22-12); with `None` the
/// formula is evaluated as Theorem 2 prints it, without claiming that Lemma 6 applies (p ≥ 1,
/// T ≥ 1 and ζ ∈ (0, 1) are still required).
pub fn p_zeta(p: usize, t: usize, zeta: f64, range: Option<ZetaRange>) -> Result<f64> {
    if t == 0 {
        return Err(invalid("T", "must be ≥ 1"));
    }
    if p == 0 {
        return Err(invalid("p", "must be ≥ 1"));
    }
    if !(zeta > 0.0 && zeta < 1.0) {
        return Err(invalid("zeta", format!("must be in (0, 1), got {zeta}")));
    }
    if let Some(range) = range {
        lemma6_check_level(p, zeta / (2.0 * t as f64), range)?;
    }
    Ok(1.0 + (8.0 * (2.0 * t as f64 / zeta).ln() / p as f64).powf(0.25))
}

/// p′_ζ = 1 + (8 log(T/ζ)/p)^{1/4} (KLLW22 Remark 3: Lemma 6 with a union bound over T vectors,
/// E-KLLW22-17).
pub fn p_zeta_prime(t: f64, zeta: f64, p: f64) -> f64 {
    1.0 + (8.0 * (t / zeta).ln() / p).powf(0.25)
}

/// KLLW22 Lemma 2, σ form (the bound of Lemma 13's proof, App. A.4):
/// log(eT)(G + B)²/(ρT) + g·B with B = σ√p·p_ζ and g the sum of the two distances (g_w + g_v
/// as printed; ḡ_w + ḡ_v in the corrected form, E-KLLW22-4).
pub fn lemma2_sigma_form(g: f64, rho: f64, t: f64, b: f64, g_sum: f64) -> f64 {
    let le = (E * t).ln();
    le * (g + b) * (g + b) / (rho * t) + g_sum * b
}

/// KLLW22 Lemma 2's c form, with σ = cG√(T log(1/δ))/(nε) substituted: the σ²-term carries the
/// coefficient c as printed ([`Reading::PaperLiteral`]) or c², which is what the σ form gives
/// ([`Reading::Corrected`], E-KLLW22-38).
#[allow(clippy::too_many_arguments)]
pub fn lemma2_c_form(
    g: f64,
    rho: f64,
    t: f64,
    n: f64,
    p: f64,
    eps: f64,
    delta: f64,
    c: f64,
    pz: f64,
    g_sum: f64,
    reading: Reading,
) -> f64 {
    let c_sq = match reading {
        Reading::PaperLiteral => c,
        Reading::Corrected => c * c,
    };
    let le = (E * t).ln();
    let l = (1.0 / delta).ln();
    g * g * le / (rho * t)
        + c * g * g_sum * (t * p * l).sqrt() * pz / (n * eps)
        + g * g
            * le
            * (c_sq * p * l * pz * pz / (rho * n * n * eps * eps)
                + c * 2.0 * (p * l).sqrt() * pz / (rho * t.sqrt() * n * eps))
}

/// KLLW22 Remark 3: the bound on g_w with M_W as passed (Assumption 5's radius, or the diameter
/// the proof of Theorem 2 uses, E-KLLW22-16) and `pzp` = p′_ζ.
pub fn remark3_g_bound(g: f64, rho: f64, t: f64, sigma: f64, p: f64, m_w: f64, pzp: f64) -> f64 {
    let le = (E * t).ln();
    let sp = sigma * p.sqrt();
    le.sqrt()
        * (g * g / (rho * rho * t)
            + 2.0 / rho * (g * sp / t + m_w * sp / le) * pzp
            + sp * sp * pzp * pzp / (rho * t))
            .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With σ = cG√(T log(1/δ))/(nε) substituted, the σ form equals the c form exactly when its
    /// σ²-term carries c² (E-KLLW22-38); the printed c form (coefficient c) is smaller for c > 1.
    #[test]
    fn sigma_form_is_c_form_with_c_squared() {
        let (g, rho, t, n, p, eps, delta, c) = (1.7, 0.6, 20.0, 300.0, 48.0f64, 0.5, 1e-6, 5.0);
        let pz = p_zeta(48, 20, 0.1, Some(ZetaRange::Paper)).unwrap();
        let sigma = c * g * (t * (1.0f64 / delta).ln()).sqrt() / (n * eps);
        let b = sigma * p.sqrt() * pz;
        for g_sum in [0.0, 0.3, 2.0] {
            let s = lemma2_sigma_form(g, rho, t, b, g_sum);
            let c2 = lemma2_c_form(
                g,
                rho,
                t,
                n,
                p,
                eps,
                delta,
                c,
                pz,
                g_sum,
                Reading::Corrected,
            );
            let c1 = lemma2_c_form(
                g,
                rho,
                t,
                n,
                p,
                eps,
                delta,
                c,
                pz,
                g_sum,
                Reading::PaperLiteral,
            );
            assert!((s - c2).abs() <= 1e-12 * s, "σ form {s} vs c² form {c2}");
            assert!(c1 < c2);
        }
    }

    /// Remark 3 by hand at T = 1 (log(eT) = 1), p = 4, σ = 1/2, G = ρ = 1, M_W = 2, p′_ζ = 1:
    /// √(1 + 2(1 + 2) + 1) = √8.
    #[test]
    fn remark3_by_hand() {
        let v = remark3_g_bound(1.0, 1.0, 1.0, 0.5, 4.0, 2.0, 1.0);
        assert!((v - 8f64.sqrt()).abs() < 1e-15);
        // p′_ζ = 1 + (8 log(T/ζ)/p)^{1/4}: T = 10, ζ = 0.1, p = 8 ⇒ 1 + (ln 100)^{1/4}.
        let pz = p_zeta_prime(10.0, 0.1, 8.0);
        assert!((pz - (1.0 + 100f64.ln().powf(0.25))).abs() < 1e-15);
    }

    /// σ = 0: γ = 4G/(nρ) + 4G√(log(eT)/T)/ρ.
    #[test]
    fn gamma_without_noise() {
        let (g, rho, n, t) = (1.5, 0.5, 100.0, 30.0);
        let want = 4.0 * g / (n * rho) + 4.0 * g * ((E * t).ln() / t).sqrt() / rho;
        let got = thm2_gamma(g, rho, n, t, 0.0, 0.0);
        assert!((got - want).abs() <= 1e-14 * want, "{got} vs {want}");
    }
}
