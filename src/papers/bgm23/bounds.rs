//! BGM23's bounds as plain functions, one per formula, named after the published item. The
//! schedules of Algorithm 1 and the step sizes of the SGDA variants (λ of Thms 5/12/18, n′, T,
//! D̂_t, α̂ of Lemma 9, Cor 16's η and bound, Lemma 2's 2L/(λn) in floats) live in
//! `papers::bgm23::schedules`; this file holds the bounds the claims check.
//!
//! Bounds that involve a square root are given squared where the checks compare them exactly in
//! rationals (suffix `_sq`); `_exact` marks a rational twin of a float formula.

use crate::exact::BigRational;
use crate::linalg;
use crate::papers::Reading;
use crate::problem::{objective_value, Objective, SaddleFn};

type Q = BigRational;

fn qi(a: u64) -> Q {
    Q::from_integer(a.into())
}

// ---------------------------------------------------------------------------------------------
// §2 and §3: the gap function, stability, generalization, variance

/// Fact 1: if f is L-Lipschitz, |Ĝap(z) − Ĝap(z′)| ≤ √2·L·‖z − z′‖ (`dz` is ‖z − z′‖).
pub fn fact1_bound(l: f64, dz: f64) -> f64 {
    std::f64::consts::SQRT_2 * l * dz
}

/// Lemma 2 in exact rationals: the regularized saddle point of eq. (4) is 2L/(λn)-uniformly
/// argument stable (the float formula is `papers::bgm23::schedules::lemma2_stability`).
pub fn lemma2_stability_exact(l: &Q, lambda: &Q, n: u64) -> Q {
    qi(2) * l / (lambda * qi(n))
}

/// Lemma 6 (second inequality), squared: (c·ΔL)² for Gap_weak(A) − E_S Gap_S(A) ≤ c·ΔL, with the
/// printed c = 1 ([`Reading::PaperLiteral`]) or the c = √2 the proof supports under joint
/// Lipschitzness ([`Reading::Corrected`], erratum E-BGM23-11). `delta2_l2` is Δ²L².
pub fn lemma6_gen_bound_sq(reading: Reading, delta2_l2: &Q) -> Q {
    match reading {
        Reading::PaperLiteral => delta2_l2.clone(),
        Reading::Corrected => qi(2) * delta2_l2,
    }
}

/// Lemma 7: a deterministic Δ-UAS algorithm has E‖A(S) − E A‖² ≤ nΔ² (`delta2` is Δ²).
pub fn lemma7_variance_bound(n: u64, delta2: &Q) -> Q {
    qi(n) * delta2
}

/// Lemma 17, squared, for losses affine in the data with data-independent coupling:
/// (Gap_weak − E_S Gap_S)² ≤ Δ²·K², with K = L for the statement and K = max‖x‖ for the proof's
/// sharper form (`delta2` is Δ², `k2` is K²).
pub fn lemma17_bound_sq(delta2: &Q, k2: &Q) -> Q {
    delta2 * k2
}

// ---------------------------------------------------------------------------------------------
// §5: Props 13–14, the accuracy/stability tradeoff, Thm 15

/// Prop 14, squared: (Gap(A) − Gap_weak(A))² ≤ L²τ² as printed ([`Reading::PaperLiteral`]), or
/// 2L²τ² (the √2·L·τ the proof in App. D.1 supports, erratum E-BGM23-38, [`Reading::Corrected`]).
/// `l2` is L², `tau2` is τ².
pub fn prop14_bound_sq(reading: Reading, l2: &Q, tau2: &Q) -> Q {
    match reading {
        Reading::PaperLiteral => l2 * tau2,
        Reading::Corrected => qi(2) * l2 * tau2,
    }
}

/// §5, paragraph "Tradeoff between Accuracy and Stability" (after Prop 14): a deterministic Δ-UAS
/// algorithm on an L-Lipschitz data-affine loss has Gap(A) − E_S Gap_S(A) ≤ ΔL + √(2n)·ΔL (Lemma
/// 17 + Prop 14 + Lemma 7, erratum E-BGM23-39). Returned as the two squared terms
/// ((ΔL)², (√(2n)ΔL)²); `delta2_l2` is Δ²L².
pub fn tradeoff_bound_sq_terms(n: u64, delta2_l2: &Q) -> (Q, Q) {
    (delta2_l2.clone(), qi(2) * qi(n) * delta2_l2)
}

/// The same paragraph's printed "√nΔL generalization bound", squared: nΔ²L².
pub fn tradeoff_printed_bound_sq(n: u64, delta2_l2: &Q) -> Q {
    qi(n) * delta2_l2
}

/// Thm 15's lower bound R²L/(2Δn) (B of the statement is the radius R of W, erratum
/// E-BGM23-40), for Δ-UAS algorithms with R/√min{n, d} ≤ Δ ≤ R.
pub fn thm15_lower_bound(r: &Q, l: &Q, delta: &Q, n: u64) -> Q {
    r * r * l / (qi(2) * delta * qi(n))
}

/// The paragraph after Thm 15 ("Lemma 2 shows this bound is tight"): the regularized ERM with
/// anchor 0 on W = ball(0, R) has excess empirical risk ≤ λR²/2 = R²L/(Δn) at Δ = 2L/(λn).
pub fn thm15_regularized_erm_upper(lambda: &Q, r: &Q) -> Q {
    lambda * r * r / qi(2)
}

// ---------------------------------------------------------------------------------------------
// Thm 5, Thm 12, Thm 18, Lemma 19 (Algorithm 1)

/// Thm 18's conclusion with its first term made explicit (erratum E-BGM23-19):
/// Gap(R) ≤ √2BL/2^T + 12TλB².
pub fn thm18_bound(b: f64, l: f64, lambda: f64, rounds: usize) -> f64 {
    let t = rounds as f64;
    2f64.sqrt() * b * l / 2f64.powi(rounds as i32) + 12.0 * t * lambda * b * b
}

/// Thm 18's hypothesis on A_emp: E‖z̄_t − z*_{S,t}‖² ≤ B²/(12·2^{2t}).
pub fn thm18_hypothesis(b: f64, t: usize) -> f64 {
    b * b / (12.0 * 4f64.powi(t as i32))
}

/// Lemma 19, P.1: E‖z*_t − z̄_t‖² ≤ B²/2^{2t}, from 3(E_t + F_t + G_t) ≤ B²/2^{2t}; `b2` is B².
pub fn lemma19_p1_bound(b2: f64, t: usize) -> f64 {
    b2 / 4f64.powi(t as i32)
}

/// Lemma 19, P.2: E‖z*_t − z̄_{t−1}‖² ≤ B²/2^{2(t−1)}; `b2` is B².
pub fn lemma19_p2_bound(b2: f64, t: usize) -> f64 {
    b2 / 4f64.powi(t as i32 - 1)
}

/// Lemma 19, eq. (7): F_t ≤ n′(Δ*_t)² ≤ L²/(2^{2t}λ²n′), with `increment` = 2^tλ.
pub fn lemma19_eq7_bound(l: f64, increment: f64, n_prime: usize) -> f64 {
    l.powi(2) / (increment * increment * n_prime as f64)
}

/// Proof of Lemma 19, P.2, the display after eq. (8):
/// E‖z*_t − z̃_{t−1}‖² ≤ ½G_{t−1} + 2E_{t−1} + 2F_{t−1}.
pub fn lemma19_star_to_tilde_bound(g: f64, e: f64, f: f64) -> f64 {
    0.5 * g + 2.0 * e + 2.0 * f
}

/// Proof of Lemma 19, P.2, the final display: E‖z*_t − z̄_{t−1}‖² ≤ ½G + 6E + 6F as printed
/// ([`Reading::PaperLiteral`], unproven), or G + 8E + 8F ([`Reading::Corrected`], erratum
/// E-BGM23-13), all at round t − 1.
pub fn lemma19_p2_step(reading: Reading, g: f64, e: f64, f: f64) -> f64 {
    match reading {
        Reading::PaperLiteral => 0.5 * g + 6.0 * e + 6.0 * f,
        Reading::Corrected => g + 8.0 * e + 8.0 * f,
    }
}

/// Proof of Thm 5, eq. (12) step (iv): the left side 2Bα̂/(2^t·2^{t−1}λ), which must be at most
/// B²/(12·2^{2t}) ([`thm18_hypothesis`]).
pub fn thm5_step_iv(b: f64, alpha_hat: f64, lambda: f64, t: i32) -> f64 {
    2.0 * b * alpha_hat / (2f64.powi(t) * 2f64.powi(t - 1) * lambda)
}

/// Proof of Thm 12 (privacy guarantee): the uniform argument stability of round t's release after
/// the Markov step, 2L/(2^tλn′) as printed ([`Reading::PaperLiteral`], false) or 3L/(2^tλn′)
/// ([`Reading::Corrected`]); claim `bgm23.thm12_sensitivity`.
pub fn thm12_release_sensitivity(
    reading: Reading,
    l: f64,
    lambda: f64,
    n_prime: usize,
    t: i32,
) -> f64 {
    let c = match reading {
        Reading::PaperLiteral => 2.0,
        Reading::Corrected => 3.0,
    };
    c * l / (2f64.powi(t) * lambda * n_prime as f64)
}

/// Proof of Thm 12 (utility): the noise budget dσ_t² ≤ B²/(36·2^{2t}).
pub fn thm12_noise_budget(b: f64, t: u32) -> f64 {
    b * b / (36.0 * 4f64.powi(t as i32))
}

/// Proof of Thm 12 (utility): the solver-accuracy budget r_t² ≤ B²/(25·2^{2t}).
pub fn thm12_radius_budget(b: f64, t: u32) -> f64 {
    b * b / (25.0 * 4f64.powi(t as i32))
}

/// Cor 10's gradient count without its constant: min{n²ε^1.5/(ln n·√(d log(1/δ))), n^1.5/√(ln n)};
/// `d_log` is d·log(1/δ).
pub fn cor10_complexity(n: f64, d_log: f64, eps: f64) -> f64 {
    let ln = n.ln();
    (n * n * eps.powf(1.5) / (ln * d_log.sqrt())).min(n.powf(1.5) / ln.sqrt())
}

// ---------------------------------------------------------------------------------------------
// App. C: SGDA (Lemma 20, Definition 4) and noisy SGDA (Thm 21, Lemma 9)

/// Lemma 20's left side F(w̄, θ) − F(w, θ̄), for concatenated z̄ = [w̄, θ̄] and z = [w, θ].
pub fn lemma20_pair_gap(f: &dyn SaddleFn, obj: &Objective, zbar: &[f64], z: &[f64]) -> f64 {
    let (wb, tb) = linalg::split(zbar, f.dim_w());
    let (w, t) = linalg::split(z, f.dim_w());
    objective_value(f, obj, &wb, &t) - objective_value(f, obj, &w, &tb)
}

/// Lemma 20's right side ‖z_0 − z‖²/(2ηT) + (η/2)(L² + τ²), with the distance term divided by
/// `dist_div` (1 for the paper; 2 for the "1/(2ηT) halved" negative control). `d2` is ‖z_0 − z‖².
pub fn lemma20_bound(d2: f64, eta: f64, steps: usize, l: f64, tau2: f64, dist_div: f64) -> f64 {
    d2 / (2.0 * eta * steps as f64 * dist_div) + 0.5 * eta * (l * l + tau2)
}

/// Definition 4 (corrected reading, erratum E-BGM23-8) for SGDA started within D̂ of z*_S: the
/// α̂ = D̂/(2ηT) + η(L² + τ²)/(2D̂) that Lemma 20 implies.
pub fn def4_alpha_from_lemma20(d_hat: f64, eta: f64, steps: usize, l: f64, tau2: f64) -> f64 {
    lemma20_bound(d_hat * d_hat, eta, steps, l, tau2, 1.0) / d_hat
}

/// Thm 21's gradient complexity without its constant: min{n²ε^1.5/√(d log(1/δ)), n^1.5}.
pub fn thm21_complexity(n: f64, d: u64, eps: f64, delta: f64) -> f64 {
    let dl = d as f64 * (1.0 / delta).ln();
    (n * n * eps.powf(1.5) / dl.sqrt()).min(n.powf(1.5))
}

/// Lemma 9's gradient complexity without its constant:
/// min{n²ε^1.5/(log₂²n·√(d log(1/δ))), n^1.5/log₂^1.5 n}.
pub fn lemma9_complexity(n: usize, d: usize, eps: f64, delta: f64) -> f64 {
    let log2n = (n as f64).log2();
    let dl = d as f64 * (1.0 / delta).ln();
    let nf = n as f64;
    (nf * nf * eps.powf(1.5) / (log2n * log2n * dl.sqrt())).min(nf.powf(1.5) / log2n.powf(1.5))
}

/// Lemma 9's printed α̂ rate log₂n·L√(d log(1/δ))/(nε) (it omits Thm 21's L/√n′ part, erratum
/// E-BGM23-34).
pub fn lemma9_printed_alpha(n: usize, d: usize, l: f64, eps: f64, delta: f64) -> f64 {
    let log2n = (n as f64).log2();
    let dl = d as f64 * (1.0 / delta).ln();
    log2n * l * dl.sqrt() / (n as f64 * eps)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::rat;

    #[test]
    fn exact_bounds_on_small_values() {
        assert_eq!(lemma2_stability_exact(&rat(1, 1), &rat(2, 1), 5), rat(1, 5));
        assert_eq!(
            thm15_lower_bound(&rat(1, 1), &rat(1, 1), &rat(1, 2), 8),
            rat(1, 8)
        );
        assert_eq!(
            thm15_regularized_erm_upper(&rat(1, 2), &rat(2, 1)),
            rat(1, 1)
        );
        assert_eq!(
            lemma6_gen_bound_sq(Reading::Corrected, &rat(1, 3)),
            rat(2, 3)
        );
        assert_eq!(
            prop14_bound_sq(Reading::PaperLiteral, &rat(2, 1), &rat(1, 2)),
            rat(1, 1)
        );
        assert_eq!(tradeoff_bound_sq_terms(4, &rat(1, 8)).1, rat(1, 1));
    }

    #[test]
    fn float_bounds_on_small_values() {
        // Lemma 20's tight instance: D = L = η = T = 1 gives 1/2 + 1/2.
        assert_eq!(lemma20_bound(1.0, 1.0, 1, 1.0, 0.0, 1.0), 1.0);
        assert_eq!(thm18_hypothesis(1.0, 1), 1.0 / 48.0);
        assert_eq!(lemma19_p2_step(Reading::Corrected, 1.0, 1.0, 1.0), 17.0);
    }
}
