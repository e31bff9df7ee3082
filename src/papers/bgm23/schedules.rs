//! BGM23's schedules: the parameters its algorithms are run with (Algorithm 1's n′, T, λ, D̂_t and
//! regularization coefficients; Thm 12's round radius; Thm 21's step and Lemma 9's α̂; Cor 16's
//! step), one plain function per formula, named after the item that states it. The algorithms
//! (`crate::algorithms::recursive_regularization`, `noisy_sgda`, `ldp_sgda`) call these; the
//! privacy calibrations (Thm 12's σ_t, Thm 21's T, m, σ, Cor 16's σ) are the paper's calibrations.
//!
//! Where the printed formula has an erratum, the printed one keeps the item's name and the
//! corrected one carries `_corrected` (the erratum is named in `proofs-notes/errata.md`).

/// Lemma 2: the uniform argument stability 2L/(λn) of the saddle point of eq. (4) with
/// regularization λ on n points (the regularized ERM's, with Θ a single point, too).
pub fn lemma2_stability(l: f64, lambda: f64, n: usize) -> f64 {
    2.0 * l / (lambda * n as f64)
}

/// Algorithm 1, line 1: n′ = ⌊n/log₂ n⌋ (E-BGM23-1: the floor; n ≥ 2).
pub fn algorithm1_n_prime(n: usize) -> usize {
    (n as f64 / (n as f64).log2()).floor() as usize
}

/// n′ = ⌊n/T⌋, so that the T chunks use every point (E-BGM23-1: the proofs only need |S_t| = n′).
pub fn algorithm1_n_prime_corrected(n: usize, rounds: usize) -> usize {
    n / rounds
}

/// Algorithm 1, line 1: T = ⌊log₂(L/(Bλ))⌋ (E-BGM23-2: the printed real logarithm floored, which
/// keeps 2^T ≤ L/(Bλ), the premise of the 5L bound in the proof of Thm 18); 0 when L/(Bλ) < 2.
pub fn algorithm1_rounds(l: f64, b: f64, lambda: f64) -> usize {
    let ratio = l / (b * lambda);
    if ratio >= 2.0 {
        ratio.log2().floor() as usize
    } else {
        0
    }
}

/// Algorithm 1, line 6: the distance bound D̂_t = B/2^t handed to A_emp, as printed.
pub fn algorithm1_d_hat(b: f64, t: usize) -> f64 {
    b / 2f64.powi(t as i32)
}

/// D̂_1 = B, D̂_t = B/2^{t−1}: what step (iv) of eq. (12) in the proof of Thm 18 supports
/// (E-BGM23-9).
pub fn algorithm1_d_hat_corrected(b: f64, t: usize) -> f64 {
    if t <= 1 {
        b
    } else {
        2.0 * b / 2f64.powi(t as i32)
    }
}

/// The bound 4B/2^t that step (iv) of eq. (12) (proof of Thm 18) literally writes (E-BGM23-9).
pub fn thm18_step_iv_d_hat(b: f64, t: usize) -> f64 {
    4.0 * b / 2f64.powi(t as i32)
}

/// Algorithm 1, lines 4 and 7: the coefficient 2^tλ of the term added before round t (anchored at
/// z̄_{t−1}).
pub fn algorithm1_increment(lambda: f64, t: usize) -> f64 {
    2f64.powi(t as i32) * lambda
}

/// Algorithm 1, lines 4 and 7: the cumulative coefficient Λ_t = Σ_{k=0}^{t−1} 2^{k+1}λ =
/// (2^{t+1} − 2)λ of f^(t).
pub fn algorithm1_cumulative(lambda: f64, t: usize) -> f64 {
    (2f64.powi(t as i32 + 1) - 2.0) * lambda
}

/// Proof of Thm 18, the display after eq. (12): a Lipschitz bound L + 2BΛ_t for f^(t) on W×Θ
/// with centres in W×Θ; ≤ 5L when 2^T ≤ L/(Bλ).
pub fn thm18_round_lipschitz(l: f64, b: f64, cumulative: f64) -> f64 {
    l + 2.0 * b * cumulative
}

/// §3 (after Lemma 7) and the proof of Thm 12: the stability L/(2^tλn′) of round t's empirical
/// saddle point, as the paper states it (≥ Lemma 2's exact value 2L/(μ_t n′) with μ_t = 2Λ_t).
pub fn thm12_round_stability(l: f64, lambda: f64, n_prime: usize, t: usize) -> f64 {
    l / (algorithm1_increment(lambda, t) * n_prime as f64)
}

/// Thm 12: the accuracy r_t = (δ/5)·L/(2^tλn′) to which round t's solver must approach z*_{S,t}.
pub fn thm12_radius(delta: f64, l: f64, lambda: f64, n_prime: usize, t: usize) -> f64 {
    delta / 5.0 * thm12_round_stability(l, lambda, n_prime, t)
}

/// Thm 5: λ = (48/B)(α̂ + L/√n′).
pub fn lambda_thm5(b: f64, alpha_hat: f64, l: f64, n_prime: usize) -> f64 {
    48.0 / b * (alpha_hat + l / (n_prime as f64).sqrt())
}

/// Thm 12: λ = (48/B)(L/√n′ + L√(d log(2/δ))/(n′ε)).
pub fn lambda_thm12(b: f64, l: f64, n_prime: usize, d: usize, epsilon: f64, delta: f64) -> f64 {
    let np = n_prime as f64;
    48.0 / b * (l / np.sqrt() + l * (d as f64 * (2.0 / delta).ln()).sqrt() / (np * epsilon))
}

/// Thm 18: the smallest admissible λ = 48L/(B√n′).
pub fn lambda_thm18(b: f64, l: f64, n_prime: usize) -> f64 {
    48.0 * l / (b * (n_prime as f64).sqrt())
}

/// Thm 21: the step η = D̂/(L√T) of noisy SGDA.
pub fn thm21_eta(d_hat: f64, l: f64, iterations: u64) -> f64 {
    d_hat / (l * (iterations as f64).sqrt())
}

/// Lemma 9's α̂ made explicit (Thm 21 via Lemma 20, with the step's and the noise's Lipschitz
/// constants separate; E-BGM23-34):
/// (L_step/2)(2 + (L_noise/L_step)²(1/m + c₀/32))·max{√(8/n), √(32 d log(1/δ))/(nε)}.
/// With L_step = L_noise = L it is (L/2)(2 + 1/m + c₀/32)·max{…}.
#[allow(clippy::too_many_arguments)]
pub fn lemma9_alpha_hat(
    l_step: f64,
    l_noise: f64,
    m: u64,
    c0: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    delta: f64,
) -> f64 {
    let nf = n as f64;
    let rate = (8.0 / nf)
        .sqrt()
        .max((32.0 * d as f64 * (1.0 / delta).ln()).sqrt() / (nf * epsilon));
    lemma9_alpha_factor(l_step, l_noise, m, c0) * rate
}

/// Lemma 9's α̂ at the rounded T the schedule actually runs (Lemma 20 with Thm 21's η, m, σ):
/// (L_step/(2√T))(2 + (L_noise/L_step)²(1/m + c₀/32)) ≥ [`lemma9_alpha_hat`].
pub fn lemma9_alpha_hat_at(l_step: f64, l_noise: f64, m: u64, c0: f64, t: u64) -> f64 {
    lemma9_alpha_factor(l_step, l_noise, m, c0) / (t as f64).sqrt()
}

fn lemma9_alpha_factor(l_step: f64, l_noise: f64, m: u64, c0: f64) -> f64 {
    let r = l_noise / l_step;
    0.5 * l_step * (2.0 + r * r * (1.0 / m as f64 + c0 / 32.0))
}

/// Cor 16: the step η = B/(√(n d log(1/δ))·L·ε) of one-pass LDP SGDA, as printed (E-BGM23-36).
pub fn cor16_eta(b: f64, l: f64, n: usize, d: usize, epsilon: f64, delta: f64) -> f64 {
    b / ((n as f64 * d as f64 * (1.0 / delta).ln()).sqrt() * l * epsilon)
}

/// Cor 16's step with ε in the numerator: η = Bε/(L√(n d log(1/δ))) (E-BGM23-36).
pub fn cor16_eta_corrected(b: f64, l: f64, n: usize, d: usize, epsilon: f64, delta: f64) -> f64 {
    b * epsilon / (l * (n as f64 * d as f64 * (1.0 / delta).ln()).sqrt())
}

/// Cor 16 via Lemma 20: the second moment bound V = 3L² + 2dσ² of the noisy one-sample estimate.
pub fn cor16_variance(l: f64, d: usize, sigma: f64) -> f64 {
    3.0 * l * l + 2.0 * d as f64 * sigma * sigma
}

/// Cor 16 via Lemma 20: the explicit strong-gap bound B²/(ηn) + (η/2)(3L² + 2dσ²)
/// (ghost-iterate argument; `proofs-notes/bgm23.md`, Cor 16).
pub fn cor16_bound(b: f64, eta: f64, n: usize, l: f64, d: usize, sigma: f64) -> f64 {
    b * b / (eta * n as f64) + 0.5 * eta * cor16_variance(l, d, sigma)
}

/// The minimizer η* = B√(2/(nV)) of [`cor16_bound`] over η (where the bound is B√(2V/n)).
pub fn cor16_optimal_eta(b: f64, n: usize, v: f64) -> f64 {
    b * (2.0 / (n as f64 * v)).sqrt()
}
