//! BG23 §4.1: the s-extragradient operators (4.1), the resolvent (4.2), the bounds of Prop 6
//! ((4.3), (4.4)), Lemma 1 ((4.5), (4.6)), Lemma 2 ((4.7), (4.8), (4.10)), Thm 3 (in expectation)
//! and the high-probability step (4.15) of Thm 3's proof (erratum `E-BG23-2`), one function per
//! formula. Derivations and explicit constants: `proofs-notes/bg23.md`, Part 3.

use crate::error::{invalid, Result};
use crate::linalg;
use crate::papers::Reading;
use crate::privacy::special::log_normal_cdf;
use crate::problem::monotone::{mean_operator, MonotoneOp};
use crate::problem::saddle::Mixture;
use crate::solve::vi::{resolvent, ResolventCertified, ViProblem, ViSolveOptions};

/// BG23 eq. (4.1): R_0(u; γF) = Π_W(u), R_{s+1}(u; γF) = Π_W(u − γF(R_s(u; γF))), F the mean
/// operator of `data`. Each step is computed as u_i − γ·F_i then projected (the engine's prox
/// step, so R_1, R_2 from a point of W equal one extragradient iteration bit for bit).
pub fn r_s(op: &dyn MonotoneOp, data: &Mixture, u: &[f64], gamma: f64, s: usize) -> Vec<f64> {
    let dom = op.domain();
    let mut r = dom.project(u);
    for _ in 0..s {
        let g = mean_operator(op, data, &r);
        let mut next: Vec<f64> = u.iter().zip(&g).map(|(ui, gi)| ui - gamma * gi).collect();
        dom.project_in_place(&mut next);
        r = next;
    }
    r
}

/// BG23 eq. (4.2): R(u; γF) = Π_W(u − γF(R(u; γF))), the resolvent (I + γF + N_W)^{−1}(u), by the
/// certified solver ([`crate::solve::vi::resolvent`] with λ = 1/γ): the returned point carries a
/// distance certificate and its fixed-point residual.
pub fn r_resolvent(
    op: &dyn MonotoneOp,
    data: &Mixture,
    u: &[f64],
    gamma: f64,
) -> Result<ResolventCertified> {
    if !(gamma.is_finite() && gamma > 0.0) {
        return Err(invalid(
            "gamma",
            format!("must be finite and > 0, got {gamma}"),
        ));
    }
    let p = ViProblem::new(op, data, &[])?;
    let opts = ViSolveOptions {
        max_iters: 200_000,
        ..ViSolveOptions::default()
    };
    resolvent(&p, u, 1.0 / gamma, &opts)
}

/// BG23 Prop 6, eq. (4.3): (γL)^s·‖R_0(u) − R(u)‖.
pub fn prop6_eq4_3_rhs(gamma: f64, l: f64, s: usize, r0_minus_r: f64) -> f64 {
    (gamma * l).powi(s as i32) * r0_minus_r
}

/// BG23 Prop 6, eq. (4.4): ‖u − v‖ + 2D(γL)^s.
pub fn prop6_eq4_4_rhs(u_minus_v: f64, diameter: f64, gamma: f64, l: f64, s: usize) -> f64 {
    u_minus_v + 2.0 * diameter * (gamma * l).powi(s as i32)
}

/// BG23 Lemma 1, eq. (4.5): ‖u − v‖ + 2LDγ.
pub fn lemma1_eq4_5_rhs(u_minus_v: f64, l: f64, diameter: f64, gamma: f64) -> f64 {
    u_minus_v + 2.0 * l * diameter * gamma
}

/// BG23 Lemma 1, eq. (4.6): ‖u − v‖ + (M̃₁ + M̃₂ + 2LD)Lγ².
pub fn lemma1_eq4_6_rhs(
    u_minus_v: f64,
    m1: f64,
    m2: f64,
    l: f64,
    diameter: f64,
    gamma: f64,
) -> f64 {
    u_minus_v + (m1 + m2 + 2.0 * l * diameter) * l * gamma * gamma
}

/// BG23 Lemma 1's M̃ = ‖F₁(R(u; γF₁)) − F₂(R(u; γF₂))‖ for two single-atom operators
/// G(·; x₁), G(·; x₂) (certified resolvents).
pub fn lemma1_m_tilde(
    op: &dyn MonotoneOp,
    x1: &[f64],
    x2: &[f64],
    u: &[f64],
    gamma: f64,
) -> Result<f64> {
    let (m1, m2) = (Mixture::single(x1), Mixture::single(x2));
    let r1 = r_resolvent(op, &m1, u, gamma)?.solution.z;
    let r2 = r_resolvent(op, &m2, u, gamma)?.solution.z;
    Ok(linalg::dist2(&op.eval(&r1, x1), &op.eval(&r2, x2)))
}

/// One step of Lemma 2's recursion for ν_t = ‖u_t − v_t‖ (the display before (4.7)):
/// ν_{t−1} + (M̃_{1,t} + M̃_{2,t} + 2LD)Lγ_t² + LΔ_{1,t}γ_t² + Δ_{2,t}γ_t. With `expansion =
/// false` the (M̃ + 2LD) term is dropped (the negative control of `bg23.lemma2`).
#[allow(clippy::too_many_arguments)]
pub fn lemma2_nu_step(
    nu_prev: f64,
    m1: f64,
    m2: f64,
    l: f64,
    diameter: f64,
    gamma: f64,
    delta1: f64,
    delta2: f64,
    expansion: bool,
) -> f64 {
    let e = if expansion {
        (m1 + m2 + 2.0 * l * diameter) * l * gamma * gamma
    } else {
        0.0
    };
    nu_prev + e + l * delta1 * gamma * gamma + delta2 * gamma
}

/// BG23 eq. (4.10): δ_t ≤ ν_{t−1} + 2LDγ_t + Δ_{1,t}γ_t.
pub fn lemma2_eq4_10_rhs(nu_prev: f64, l: f64, diameter: f64, gamma: f64, delta1: f64) -> f64 {
    nu_prev + 2.0 * l * diameter * gamma + delta1 * gamma
}

/// The inputs of Thm 3's in-expectation bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Thm3Params {
    /// M (operators M-bounded on W).
    pub m: f64,
    /// L (operators L-Lipschitz).
    pub l: f64,
    /// D = diam W.
    pub diameter: f64,
    /// d = dim W.
    pub dim: usize,
    /// σ of each evaluation's noise.
    pub sigma: f64,
    /// n.
    pub n: usize,
    /// γ_1..γ_T.
    pub gammas: Vec<f64>,
    /// The sensitivity of one evaluation's operator, sup_u ‖F_{1,t} − F′_{1,t}‖ in expectation:
    /// 2M/n in the paper (the negative control of `bg23.thm3` sets M/n).
    pub sensitivity: f64,
}

/// BG23 Thm 3 (both parts, in expectation): a bound on sup_{S≃S′} E‖A(S) − A(S′)‖ for the
/// γ-weighted average of the extrapolated points.
///
/// * `PaperLiteral`: Σ_{t=0}^{T−1}([4M + 2LD + 4√dσ]Lγ_t² + (2ML/n)γ_t² + (2M/n)γ_t)
///   + (1/T)Σ_{t=1}^T(2ML/n + 2LD)γ_t, the T summands read as γ_1..γ_T and (2M/n) as `sensitivity`.
/// * `Corrected` (what Lemma 2 and (4.14) give, `E-BG23-3`): Σ_{s=1}^{T−1}([4M + 2LD +
///   4√dσ]Lγ_s² + sLγ_s² + sγ_s) + (Σ_t γ_t²/Σ_t γ_t)(s + 2LD), s = `sensitivity`.
///
/// For constant γ the literal bound is ≥ the corrected one (it has one more summand and
/// (2ML/n + 2LD)γ ≤ (2M/n)γ + summand + 2LDγ), so it stays valid; at T = 1, L = 0 both equal
/// sγ, attained by a constant operator (`bg23.thm3`).
pub fn thm3_rhs(reading: Reading, p: &Thm3Params) -> Result<f64> {
    let t = p.gammas.len();
    if t == 0 {
        return Err(invalid("gammas", "needs T ≥ 1 step sizes"));
    }
    if p.n == 0 {
        return Err(invalid("n", "must be ≥ 1"));
    }
    let (m, l, dd, s) = (p.m, p.l, p.diameter, p.sensitivity);
    let n = p.n as f64;
    let noise = 4.0 * (p.dim as f64).sqrt() * p.sigma;
    let big = 4.0 * m + 2.0 * l * dd + noise;
    match reading {
        Reading::PaperLiteral => {
            let mut sum = 0.0;
            for g in &p.gammas {
                sum += big * l * g * g + (2.0 * m * l / n) * g * g + s * g;
            }
            let tail: f64 = p
                .gammas
                .iter()
                .map(|g| (2.0 * m * l / n + 2.0 * l * dd) * g)
                .sum();
            Ok(sum + tail / t as f64)
        }
        Reading::Corrected => {
            let mut sum = 0.0;
            for g in &p.gammas[..t - 1] {
                sum += big * l * g * g + s * l * g * g + s * g;
            }
            let g2: f64 = p.gammas.iter().map(|g| g * g).sum();
            let g1: f64 = p.gammas.iter().sum();
            Ok(sum + g2 / g1 * (s + 2.0 * l * dd))
        }
    }
}

/// [`thm3_rhs`] at a constant step γ_t ≡ γ for t = 1..T, in closed form (O(1) in T, so that
/// Thm 4's T = n² can be evaluated): `p.gammas` must be the single step \[γ\] and `steps` = T ≥ 1.
///
/// * `PaperLiteral`: T([4M + 2LD + 4√dσ]Lγ² + (2ML/n)γ² + sγ) + (2ML/n + 2LD)γ (the form
///   Thm 4's proof evaluates, with s = 2M/n);
/// * `Corrected`: (T − 1)([4M + 2LD + 4√dσ]Lγ² + sLγ² + sγ) + γ(s + 2LD).
///
/// Agrees with [`thm3_rhs`] on the list [γ; T] up to rounding (unit test).
pub fn thm3_rhs_constant(reading: Reading, p: &Thm3Params, steps: f64) -> Result<f64> {
    let [g] = p.gammas[..] else {
        return Err(invalid("gammas", "give the single constant step [γ]"));
    };
    if !(steps >= 1.0 && steps.is_finite()) {
        return Err(invalid("steps", format!("T must be ≥ 1, got {steps}")));
    }
    if p.n == 0 {
        return Err(invalid("n", "must be ≥ 1"));
    }
    let (m, l, dd, s) = (p.m, p.l, p.diameter, p.sensitivity);
    let n = p.n as f64;
    let big = 4.0 * m + 2.0 * l * dd + 4.0 * (p.dim as f64).sqrt() * p.sigma;
    Ok(match reading {
        Reading::PaperLiteral => {
            steps * (big * l * g * g + (2.0 * m * l / n) * g * g + s * g)
                + (2.0 * m * l / n + 2.0 * l * dd) * g
        }
        Reading::Corrected => {
            (steps - 1.0) * (big * l * g * g + s * l * g * g + s * g) + g * (s + 2.0 * l * dd)
        }
    })
}

/// The threshold τ of step (4.15) of Thm 3's proof for Σ_{t≤T}(‖ξ¹_t‖ + ‖ξ²_t‖), noise
/// N(0, σ²I_d):
/// * `PaperLiteral`: 2T√dσ + 2σ√(Kd ln(1/θ)) (K the "universal constant");
/// * `Corrected` (`E-BG23-2`): 2T√dσ + 2σ√(T ln(1/θ)) (‖ξ‖ − σ√d is σ²-subgaussian, so the 2T
///   summands' sum is 2Tσ²-subgaussian; K plays no role).
pub fn eq4_15_threshold(
    reading: Reading,
    t: usize,
    d: usize,
    sigma: f64,
    k: f64,
    ln_inv_theta: f64,
) -> f64 {
    let base = 2.0 * t as f64 * (d as f64).sqrt() * sigma;
    match reading {
        Reading::PaperLiteral => base + 2.0 * sigma * (k * d as f64 * ln_inv_theta).sqrt(),
        Reading::Corrected => base + 2.0 * sigma * (t as f64 * ln_inv_theta).sqrt(),
    }
}

/// The exponent of the Chernoff bound of (4.15)'s proof with the paper's choices
/// λ = α/(4K√dσ), α = (2√K/T)√ln(1/θ): T(2Kdσ²λ² − α√dσλ) = −ln(1/θ)/(2T). So the proof
/// bounds the probability by θ^{1/(2T)}, not θ.
pub fn eq4_15_proof_exponent(t: usize, ln_inv_theta: f64) -> f64 {
    -ln_inv_theta / (2.0 * t as f64)
}

/// ln Φ̄(x) ≥ −x²/2 − ln√(2π) + ln(x/(1 + x²)) for x > 0 (Mills' ratio lower bound), evaluated
/// in log space.
pub fn ln_normal_tail_lower(x: f64) -> Result<f64> {
    if !(x.is_finite() && x > 0.0) {
        return Err(invalid("x", format!("must be finite and > 0, got {x}")));
    }
    Ok(-0.5 * x * x - 0.5 * (2.0 * std::f64::consts::PI).ln() + (x / (1.0 + x * x)).ln())
}

/// A lower bound on ln P[Σ_{j=1}^{2T} |ξ_j| > τ] for ξ_j ∼ N(0, σ²) (d = 1): Σ|ξ_j| ≥ Σξ_j ∼
/// N(0, 2Tσ²), so P ≥ Φ̄(τ/(σ√(2T))), bounded below by [`ln_normal_tail_lower`].
pub fn eq4_15_ln_prob_lower_d1(t: usize, sigma: f64, tau: f64) -> Result<f64> {
    ln_normal_tail_lower(tau / (sigma * (2.0 * t as f64).sqrt()))
}

/// ln E e^{λ‖ξ‖/σ} for ξ ∼ N(0, σ²I_d), d ∈ {1, 2}: the half-normal MGF 2e^{λ²/2}Φ(λ) (d = 1)
/// and the Rayleigh MGF 1 + λ√(2π)e^{λ²/2}Φ(λ) (d = 2), in log space.
pub fn ln_norm_mgf(d: usize, lambda: f64) -> Result<f64> {
    match d {
        1 => Ok(std::f64::consts::LN_2 + 0.5 * lambda * lambda + log_normal_cdf(lambda)),
        2 => {
            if lambda <= 0.0 {
                return Err(invalid("lambda", "must be > 0 for d = 2"));
            }
            let a = (lambda * (2.0 * std::f64::consts::PI).sqrt()).ln()
                + 0.5 * lambda * lambda
                + log_normal_cdf(lambda);
            Ok(if a > 0.0 {
                a + (-a).exp().ln_1p()
            } else {
                a.exp().ln_1p()
            })
        }
        _ => Err(invalid(
            "d",
            format!("the exact MGF is implemented for d ∈ {{1, 2}}, got {d}"),
        )),
    }
}

/// An upper bound on ln P[Σ_{j=1}^{2T} ‖ξ_j‖ > τ], ξ_j ∼ N(0, σ²I_d) i.i.d., d ∈ {1, 2}, by the
/// exact Chernoff bound inf_λ [−λτ/σ + 2T ln E e^{λ‖ξ‖/σ}], minimised over λ by golden section
/// (any λ gives a valid bound, so the search only sharpens it).
pub fn eq4_15_ln_prob_upper(d: usize, t: usize, sigma: f64, tau: f64) -> Result<f64> {
    let x = tau / sigma;
    let two_t = 2.0 * t as f64;
    let f = |lam: f64| -> Result<f64> { Ok(-lam * x + two_t * ln_norm_mgf(d, lam)?) };
    let (mut a, mut b) = (1e-9_f64, x.max(1.0) * 2.0);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - phi * (b - a);
    let mut e = a + phi * (b - a);
    let (mut fc, mut fe) = (f(c)?, f(e)?);
    for _ in 0..200 {
        if fc < fe {
            b = e;
            e = c;
            fe = fc;
            c = b - phi * (b - a);
            fc = f(c)?;
        } else {
            a = c;
            c = e;
            fc = fe;
            e = a + phi * (b - a);
            fe = f(e)?;
        }
    }
    Ok(fc.min(fe).min(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proof_exponent_is_theta_to_one_over_2t() {
        // T(2Kdσ²λ² − α√dσλ) with λ = α/(4K√dσ), α = (2√K/T)√ln(1/θ).
        let (k, d, sigma, t, lt) = (3.0_f64, 2.0_f64, 0.7_f64, 5usize, 40.0_f64);
        let alpha = 2.0 * k.sqrt() / t as f64 * lt.sqrt();
        let lam = alpha / (4.0 * k * d.sqrt() * sigma);
        let e =
            t as f64 * (2.0 * k * d * sigma * sigma * lam * lam - alpha * d.sqrt() * sigma * lam);
        assert!((e - eq4_15_proof_exponent(t, lt)).abs() < 1e-12);
    }

    #[test]
    fn constant_step_closed_form_is_the_sum() {
        for &(t, l, sigma) in &[(1usize, 0.0, 0.0), (3, 0.7, 0.2), (40, 2.0, 1.5)] {
            let mut p = Thm3Params {
                m: 1.3,
                l,
                diameter: 2.0,
                dim: 3,
                sigma,
                n: 17,
                gammas: vec![0.11; t],
                sensitivity: 2.0 * 1.3 / 17.0,
            };
            for r in [Reading::PaperLiteral, Reading::Corrected] {
                let sum = thm3_rhs(r, &p).unwrap();
                p.gammas = vec![0.11];
                let closed = thm3_rhs_constant(r, &p, t as f64).unwrap();
                p.gammas = vec![0.11; t];
                assert!(
                    (sum - closed).abs() <= 1e-12 * sum.abs(),
                    "{r:?} T={t}: {sum} vs {closed}"
                );
            }
        }
        let mut p = Thm3Params {
            m: 1.0,
            l: 1.0,
            diameter: 1.0,
            dim: 1,
            sigma: 0.0,
            n: 2,
            gammas: vec![0.1, 0.2],
            sensitivity: 1.0,
        };
        assert!(thm3_rhs_constant(Reading::Corrected, &p, 2.0).is_err());
        p.gammas = vec![0.1];
        assert!(thm3_rhs_constant(Reading::Corrected, &p, 0.5).is_err());
    }

    #[test]
    fn mgfs_match_quadrature() {
        // E e^{λ|Z|} and E e^{λR} by a midpoint rule.
        for &lam in &[0.3_f64, 1.0, 2.5] {
            let h: f64 = 1e-4;
            let (mut m1, mut m2) = (0.0, 0.0);
            let mut r: f64 = h / 2.0;
            while r < 30.0 {
                let phi = (-0.5 * r * r).exp();
                m1 += 2.0 * phi / (2.0 * std::f64::consts::PI).sqrt() * (lam * r).exp() * h;
                m2 += r * phi * (lam * r).exp() * h;
                r += h;
            }
            assert!((ln_norm_mgf(1, lam).unwrap() - m1.ln()).abs() < 1e-7);
            assert!((ln_norm_mgf(2, lam).unwrap() - m2.ln()).abs() < 1e-7);
        }
    }
}
