//! ZTOH22's risk bounds (Thms 3.3, 3.4, 4.3, 4.5), Lemma 4.4's stability, Lemma A.2 (reconstructed), Remarks 2 and 5, with explicit constants.
//!
//! One function per printed formula, named after the item; logs are natural (the Gaussian
//! mechanism's log(1.25/δ)) and K, n̄ follow the crate's reading of "K = log(n)"
//! ([`super::calibration::phases`]: K = ⌊log₂ n⌋, n̄ = ⌊n/K⌋), except the "log(n)" factors of
//! Thms 3.4 and 4.5, which are passed in as `log_n` so both bases can be evaluated. The
//! derivations of the constants 33, 7, 48, 257 and 3·128 are in `proofs-notes/ztoh22.md`, Part 2.

use crate::error::{invalid, require_count, require_positive, Result};
use crate::papers::Reading;
use crate::privacy::validate_eps_delta;

fn common(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<()> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    validate_eps_delta(epsilon, delta)
}

/// ZTOH22 Thm 3.3 (excess empirical risk of Algorithm 1): 33L²κ·d log(2.5/δ)/(μn²ε²),
/// κ = ℓ/μ. Holds when the base solver's accuracy ‖A(S) − x̂*_S‖ ≤ L/(μn) holds almost
/// surely ([`thm33_empirical_failure_term`] is what the literal probability-(1 − δ/4)
/// requirement adds, E-ZTOH22-20).
pub fn thm33_empirical(
    l: f64,
    ell: f64,
    mu: f64,
    d: usize,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<f64> {
    common(l, mu, n, epsilon, delta)?;
    require_positive("ell", ell)?;
    let nf = n as f64;
    Ok(33.0 * l * l * (ell / mu) * d as f64 * (2.5 / delta).ln()
        / (mu * nf * nf * epsilon * epsilon))
}

/// ZTOH22 Thm 3.3 (excess population risk): L²κ(7/(μn) + 48d log(2.5/δ)/(μn²ε²)).
pub fn thm33_population(
    l: f64,
    ell: f64,
    mu: f64,
    d: usize,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<f64> {
    common(l, mu, n, epsilon, delta)?;
    require_positive("ell", ell)?;
    let nf = n as f64;
    let priv_term = 48.0 * d as f64 * (2.5 / delta).ln() / (mu * nf * nf * epsilon * epsilon);
    Ok(l * l * (ell / mu) * (7.0 / (mu * nf) + priv_term))
}

/// The term the corrected reading of Thm 3.3 (E-ZTOH22-20) adds when the base solver meets its
/// accuracy only with probability 1 − p (Algorithm 1 allows p = δ/4): on the failure event the
/// solver may return any point of X, and F̂_S(x̃) − F̂_S(x̂) ≤ (ℓ/2)(‖A − x̂‖² + ‖noise‖²) in
/// expectation over the noise, so the event adds at most p·(ℓ/2)·diam(X)².
pub fn thm33_empirical_failure_term(ell: f64, diam: f64, p: f64) -> Result<f64> {
    require_positive("ell", ell)?;
    require_positive("diam", diam)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(invalid("p", format!("must be a probability, got {p}")));
    }
    Ok(p * 0.5 * ell * diam * diam)
}

/// Thm 3.3's empirical bound under a reading: the literal 33L²κ… (accuracy with probability
/// 1 − δ/4, as Algorithm 1 prints it), or the corrected one, which adds
/// [`thm33_empirical_failure_term`] with p = δ/4 (and is the literal bound when the solver is
/// certified, p = 0).
#[allow(clippy::too_many_arguments)]
pub fn thm33_empirical_reading(
    reading: Reading,
    l: f64,
    ell: f64,
    mu: f64,
    d: usize,
    n: u64,
    epsilon: f64,
    delta: f64,
    diam: f64,
) -> Result<f64> {
    let b = thm33_empirical(l, ell, mu, d, n, epsilon, delta)?;
    Ok(match reading {
        Reading::PaperLiteral => b,
        Reading::Corrected => b + thm33_empirical_failure_term(ell, diam, delta / 4.0)?,
    })
}

/// ZTOH22 Thm 3.4's regularizer μ = (L/D)·max{1/√n, 14 log(n)√(d log(2.5/δ))/(nε)}.
pub fn thm34_mu(
    l: f64,
    dd: f64,
    n: u64,
    d: usize,
    epsilon: f64,
    delta: f64,
    log_n: f64,
) -> Result<f64> {
    common(l, 1.0, n, epsilon, delta)?;
    require_positive("D", dd)?;
    let nf = n as f64;
    let p = 14.0 * log_n * (d as f64 * (2.5 / delta).ln()).sqrt() / (nf * epsilon);
    Ok(l / dd * (1.0 / nf.sqrt()).max(p))
}

/// ZTOH22 Thm 3.4: E[F(x̃_K) − F(x*)] ≤ 4LD·log(n)(1/√n + 7√(d log(2.5/δ))/(nε)).
pub fn thm34(
    l: f64,
    dd: f64,
    n: u64,
    d: usize,
    epsilon: f64,
    delta: f64,
    log_n: f64,
) -> Result<f64> {
    common(l, 1.0, n, epsilon, delta)?;
    require_positive("D", dd)?;
    let nf = n as f64;
    Ok(4.0
        * l
        * dd
        * log_n
        * (1.0 / nf.sqrt() + 7.0 * (d as f64 * (2.5 / delta).ln()).sqrt() / (nf * epsilon)))
}

/// κ_xκ_y + κ with κ_x = ℓ/μ_x, κ_y = ℓ/μ_y, κ = ℓ/min{μ_x, μ_y} (Thm 4.3).
pub fn thm43_condition(ell: f64, mu_x: f64, mu_y: f64) -> f64 {
    let mu = mu_x.min(mu_y);
    (ell / mu_x) * (ell / mu_y) + ell / mu
}

/// ZTOH22 Thm 4.3 (empirical strong gap of Algorithm 3):
/// 257L²(κ_xκ_y + κ)·d log(5/δ)/(μn²ε²), μ = min{μ_x, μ_y}, d = max{d_x, d_y}.
#[allow(clippy::too_many_arguments)]
pub fn thm43_empirical(
    l: f64,
    ell: f64,
    mu_x: f64,
    mu_y: f64,
    d: usize,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<f64> {
    require_positive("mu_y", mu_y)?;
    common(l, mu_x, n, epsilon, delta)?;
    require_positive("ell", ell)?;
    let (mu, nf) = (mu_x.min(mu_y), n as f64);
    Ok(
        257.0 * l * l * thm43_condition(ell, mu_x, mu_y) * d as f64 * (5.0 / delta).ln()
            / (mu * nf * nf * epsilon * epsilon),
    )
}

/// ZTOH22 Thm 4.3 (population strong gap): 3L²(κ_xκ_y + κ)(3/(μn) + 128d log(5/δ)/(μn²ε²)).
#[allow(clippy::too_many_arguments)]
pub fn thm43_population(
    l: f64,
    ell: f64,
    mu_x: f64,
    mu_y: f64,
    d: usize,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<f64> {
    require_positive("mu_y", mu_y)?;
    common(l, mu_x, n, epsilon, delta)?;
    require_positive("ell", ell)?;
    let (mu, nf) = (mu_x.min(mu_y), n as f64);
    let priv_term = 128.0 * d as f64 * (5.0 / delta).ln() / (mu * nf * nf * epsilon * epsilon);
    Ok(3.0 * l * l * thm43_condition(ell, mu_x, mu_y) * (3.0 / (mu * nf) + priv_term))
}

/// The term the corrected reading of Thm 4.3's empirical bound adds when Algorithm 3's base
/// solver fails with probability p (Algorithm 3 allows p = δ/8; E-ZTOH22-21): the proof's
/// smoothness step Gap ≤ (ℓ/2)[(1 + κ_y)‖Δx‖² + (1 + κ_x)‖Δy‖²] (interior saddle point) with the
/// solver error bounded only by the diameters on the failure event gives
/// p·(ℓ/2)[(1 + κ_y)diam(X)² + (1 + κ_x)diam(Y)²].
pub fn thm43_empirical_failure_term(
    ell: f64,
    mu_x: f64,
    mu_y: f64,
    diam_x: f64,
    diam_y: f64,
    p: f64,
) -> Result<f64> {
    require_positive("ell", ell)?;
    require_positive("mu_x", mu_x)?;
    require_positive("mu_y", mu_y)?;
    require_positive("diam_x", diam_x)?;
    require_positive("diam_y", diam_y)?;
    if !(0.0..=1.0).contains(&p) {
        return Err(invalid("p", format!("must be a probability, got {p}")));
    }
    let (kx, ky) = (ell / mu_x, ell / mu_y);
    Ok(p * 0.5 * ell * ((1.0 + ky) * diam_x * diam_x + (1.0 + kx) * diam_y * diam_y))
}

/// ZTOH22 Thm 4.5's regularizer μ = (L/D)·max{2/√n̄, 13 log(n)√(d log(5/δ))/(nε)}.
#[allow(clippy::too_many_arguments)]
pub fn thm45_mu(
    l: f64,
    dd: f64,
    n: u64,
    nbar: u64,
    d: usize,
    epsilon: f64,
    delta: f64,
    log_n: f64,
) -> Result<f64> {
    common(l, 1.0, n, epsilon, delta)?;
    require_count("nbar", nbar)?;
    require_positive("D", dd)?;
    let p = 13.0 * log_n * (d as f64 * (5.0 / delta).ln()).sqrt() / (n as f64 * epsilon);
    Ok(l / dd * (2.0 / (nbar as f64).sqrt()).max(p))
}

/// ZTOH22 Thm 4.5: weak gap ≤ 16LD·log²(n)(1/√n̄ + 5√(d log(5/δ))/(nε)).
#[allow(clippy::too_many_arguments)]
pub fn thm45(
    l: f64,
    dd: f64,
    n: u64,
    nbar: u64,
    d: usize,
    epsilon: f64,
    delta: f64,
    log_n: f64,
) -> Result<f64> {
    common(l, 1.0, n, epsilon, delta)?;
    require_count("nbar", nbar)?;
    require_positive("D", dd)?;
    Ok(16.0
        * l
        * dd
        * log_n
        * log_n
        * (1.0 / (nbar as f64).sqrt()
            + 5.0 * (d as f64 * (5.0 / delta).ln()).sqrt() / (n as f64 * epsilon)))
}

/// ZTOH22 Lemma 4.4 (stability): μ_x‖Δx̂‖² + μ_y‖Δŷ‖² ≤ 4L²/(μn²), μ = min{μ_x, μ_y}.
pub fn lemma44_stability(l: f64, mu_x: f64, mu_y: f64, n: u64) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("mu_x", mu_x)?;
    require_positive("mu_y", mu_y)?;
    require_count("n", n)?;
    let nf = n as f64;
    Ok(4.0 * l * l / (mu_x.min(mu_y) * nf * nf))
}

/// ZTOH22 Lemma 4.4 (generalization, weak gap of the regularized empirical saddle point on
/// F + G): 2√2·L²/(μn).
pub fn lemma44_generalization(l: f64, mu_x: f64, mu_y: f64, n: u64) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("mu_x", mu_x)?;
    require_positive("mu_y", mu_y)?;
    require_count("n", n)?;
    Ok(2.0 * 2f64.sqrt() * l * l / (mu_x.min(mu_y) * n as f64))
}

/// ZTOH22 Lemma A.2 (**reconstructed**: the appendix is not in the paper's file; the statement
/// is the one Algorithm 1's σ needs): for μ-strongly convex objectives (1/n)Σf(·; ξ_i) + R with
/// L-Lipschitz f and a data-independent R, ‖x̂*_S − x̂*_{S′}‖ ≤ 2L/(μn).
pub fn lemma_a2_stability(l: f64, mu: f64, n: u64) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    Ok(2.0 * l / (mu * n as f64))
}

/// ZTOH22 Lemma A.2's generalization part (**reconstructed**, the replace-one argument on a
/// 2L/(μn)-stable rule with L-Lipschitz losses): E[F(x̂*_S) − F(x*)] ≤ 2L²/(μn).
pub fn lemma_a2_generalization(l: f64, mu: f64, n: u64) -> Result<f64> {
    Ok(l * lemma_a2_stability(l, mu, n)?)
}

/// ZTOH22 Remark 2: Σ_{k=1}^K 1/μ_k with μ_k = μ2^k, i.e. (1 − 2^{−K})/μ.
pub fn remark2_sum_inv_mu(mu: f64, k: u64) -> Result<f64> {
    require_positive("mu", mu)?;
    require_count("K", k)?;
    Ok((1..=k).map(|j| 1.0 / (mu * 2f64.powi(j as i32))).sum())
}

/// Remark 2's bound on that sum, (D/L)√n (the O(·) with constant 1, which Thm 3.4's μ ≥ L/(D√n)
/// gives).
pub fn remark2_sum_bound(l: f64, dd: f64, n: u64) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("D", dd)?;
    require_count("n", n)?;
    Ok(dd / l * (n as f64).sqrt())
}

/// Remark 2's total SVRG/SARAH work, up to the log(n/δ) factor: Σ_k (n̄ + (ℓ + μ_k)/μ_k).
pub fn remark2_svrg_work(ell: f64, mu: f64, n: u64) -> Result<f64> {
    require_positive("mu", mu)?;
    require_count("n", n)?;
    let (k, nbar) = super::calibration::phases(n);
    Ok((1..=k)
        .map(|j| {
            let mk = mu * 2f64.powi(j as i32);
            nbar as f64 + (ell + mk) / mk
        })
        .sum())
}

/// Remark 2's printed order for that work (constant 1): n + √n·ℓD/L.
pub fn remark2_svrg_order(l: f64, ell: f64, dd: f64, n: u64) -> Result<f64> {
    require_positive("L", l)?;
    require_count("n", n)?;
    let nf = n as f64;
    Ok(nf + nf.sqrt() * ell * dd / l)
}

/// ZTOH22 Remark 5's condition number ℓ/μ of f in Algorithms 4 and 5 under Thm 4.5's μ, as
/// computed: ℓ/μ ≤ ℓD√n̄/(2L) (μ ≥ 2L/(D√n̄)); equality in the first branch of μ.
pub fn remark5_condition_number(ell: f64, mu: f64) -> Result<f64> {
    require_positive("mu", mu)?;
    Ok(ell / mu)
}

/// Remark 5's condition number under a reading: the literal √(n̄ℓD/L) or the corrected
/// ℓD√n̄/(2L) (E-ZTOH22-24).
pub fn remark5_condition_bound(
    reading: Reading,
    l: f64,
    ell: f64,
    dd: f64,
    nbar: u64,
) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("D", dd)?;
    require_count("nbar", nbar)?;
    let nb = nbar as f64;
    Ok(match reading {
        Reading::PaperLiteral => (nb * ell * dd / l).sqrt(),
        Reading::Corrected => ell * dd * nb.sqrt() / (2.0 * l),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_constants() {
        // n = 10, ε = 1/2, δ = 0.025 ⇒ log(2.5/δ) = log 100.
        let b = thm33_empirical(1.0, 1.0, 1.0, 1, 10, 0.5, 0.025).unwrap();
        assert!((b - 33.0 * 100f64.ln() / 25.0).abs() < 1e-12);
        let p = thm33_population(1.0, 1.0, 1.0, 1, 10, 0.5, 0.025).unwrap();
        assert!((p - (0.7 + 48.0 * 100f64.ln() / 25.0)).abs() < 1e-12);
        assert_eq!(thm43_condition(10.0, 1.0, 2.0), 60.0);
        assert!((remark2_sum_inv_mu(1.0, 3).unwrap() - 0.875).abs() < 1e-15);
        assert!(thm33_empirical(1.0, 1.0, 1.0, 1, 10, 0.5, 1.5).is_err());
        let lit = remark5_condition_bound(Reading::PaperLiteral, 1.0, 100.0, 1.0, 400).unwrap();
        let cor = remark5_condition_bound(Reading::Corrected, 1.0, 100.0, 1.0, 400).unwrap();
        assert!((cor / lit - 5.0).abs() < 1e-12);
    }
}
