//! ZTOH22's phase schedules (K, n̄, μ_k, the batches) and what Algorithms 1–5 require of the
//! base solver 𝒜 (radius, weights, failure probability), one function per item. The noise scales
//! are not here: they are the ledgers' noise multipliers ([`super::calibration`]) times the
//! sensitivities below, so that the noise added and the ledger priced have one home.
//!
//! Conventions (proofs-notes/ztoh22.md, Part 1): K = ⌊log₂ n⌋ (≥ 1), n̄ = ⌊n/K⌋
//! ([`super::calibration::phases`]), phase k = 1..K reads the contiguous points
//! (k − 1)n̄ .. kn̄ (0-based, half open), the last n − Kn̄ points are discarded; μ_k = μ2^k.

use crate::error::{invalid, require_count, require_positive, Result};

/// The schedule of a phased algorithm (Algorithm 2 line 1; Algorithm 4 line 1; Algorithm 5 by
/// symmetry): K, n̄ and the discarded remainder n − Kn̄.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PhaseSchedule {
    /// n.
    pub n: u64,
    /// K = ⌊log₂ n⌋.
    pub phases: u64,
    /// n̄ = ⌊n/K⌋.
    pub nbar: u64,
}

impl PhaseSchedule {
    /// The schedule of n ≥ 2 points (n̄ ≥ 1 always: K ≤ log₂ n ≤ n).
    ///
    /// # Errors
    /// [`crate::error::Error::Invalid`] naming `n` when n < 2.
    pub fn new(n: u64) -> Result<PhaseSchedule> {
        require_count("n", n)?;
        if n < 2 {
            return Err(invalid("n", "a phased algorithm needs n ≥ 2"));
        }
        let (phases, nbar) = super::calibration::phases(n);
        Ok(PhaseSchedule { n, phases, nbar })
    }

    /// The 0-based half-open index range of phase k ∈ 1..=K: (k − 1)n̄ .. kn̄.
    pub fn batch(&self, k: u64) -> std::ops::Range<usize> {
        let nb = self.nbar as usize;
        (k as usize - 1) * nb..k as usize * nb
    }

    /// The points no phase reads: n − Kn̄.
    pub fn discarded(&self) -> u64 {
        self.n - self.phases * self.nbar
    }
}

/// μ_k = μ·2^k (Algorithm 2 line 3, Algorithm 4 line 3; k ≥ 1, so μ_1 = 2μ).
pub fn mu_k(mu: f64, k: u64) -> f64 {
    mu * (2.0f64).powi(k as i32)
}

/// Algorithm 1 line 1: ‖𝒜(S) − x̂*_S‖ ≤ L/(μn), with probability ≥ 1 − δ/4.
pub fn alg1_radius(l: f64, mu: f64, n: u64) -> f64 {
    l / (mu * n as f64)
}

/// Algorithm 2 line 4: ‖x_k − x̂*_k‖ ≤ L/(μ_k n̄), with probability ≥ 1 − δ/4.
pub fn alg2_radius(l: f64, mu_k: f64, nbar: u64) -> f64 {
    l / (mu_k * nbar as f64)
}

/// Algorithm 3 line 1: μ_x‖Δx‖² + μ_y‖Δy‖² ≤ L²/(μn²), μ = min{μ_x, μ_y}, with probability
/// ≥ 1 − δ/8; returned as the radius r = L/(n√μ) of the weighted distance
/// (μ_x‖Δx‖² + μ_y‖Δy‖²)^{1/2}.
pub fn alg3_radius(l: f64, mu_x: f64, mu_y: f64, n: u64) -> f64 {
    l / (n as f64 * mu_x.min(mu_y).sqrt())
}

/// Algorithm 4 line 4 (and Algorithm 5, reconstructed by symmetry): μ_k‖Δx‖² + μ‖Δy‖² ≤
/// L²/(μn̄²) ("with probability 1 − δ/8", read as at least); as the radius L/(n̄√μ) of the
/// weighted distance. Note min{μ_k, μ} = μ.
pub fn alg45_radius(l: f64, mu: f64, nbar: u64) -> f64 {
    l / (nbar as f64 * mu.sqrt())
}

/// The failure probability Algorithms 1 and 2 allow the base solver: δ/4.
pub fn alg12_failure(delta: f64) -> f64 {
    delta / 4.0
}

/// The failure probability Algorithms 3, 4 and 5 allow the base solver: δ/8.
pub fn alg345_failure(delta: f64) -> f64 {
    delta / 8.0
}

/// Algorithm 1's sensitivity 4L/(μn) (accuracy L/(μn) on S and on S′, plus Lemma A.2's
/// stability 2L/(μn), reconstructed).
pub fn alg1_sensitivity(l: f64, mu: f64, n: u64) -> f64 {
    4.0 * l / (mu * n as f64)
}

/// Algorithm 2's phase sensitivity 4L/(μ_k n̄).
pub fn alg2_sensitivity(l: f64, mu_k: f64, nbar: u64) -> f64 {
    4.0 * l / (mu_k * nbar as f64)
}

/// Algorithm 3's sensitivity of the block of modulus μ_b: 4L/(n√(μμ_b)), μ = min{μ_x, μ_y}.
pub fn alg3_sensitivity(l: f64, mu_block: f64, mu: f64, n: u64) -> f64 {
    4.0 * l / (n as f64 * (mu * mu_block).sqrt())
}

/// Algorithms 4/5's printed phase sensitivity 4L/(n̄√(μ_kμ)) (the factor behind σ_k of
/// Algorithm 4 line 5).
pub fn alg45_sensitivity(l: f64, mu: f64, mu_k: f64, nbar: u64) -> f64 {
    4.0 * l / (nbar as f64 * (mu * mu_k).sqrt())
}

/// The sharper phase sensitivity of Algorithms 4/5 that the requirement and Lemma 4.4's chain
/// give (proofs-notes/ztoh22.md, Part 1, "Algorithms 4/5"): the accuracy part 2L/(n̄√(μμ_k))
/// (attained) plus the stability of the strongly regularized block, max a subject to
/// μ_k a² + μ b² ≤ (2L/n̄)√(a² + b²), which is L/(n̄√(μ(μ_k − μ))) for μ_k ≥ 2μ (always: μ_k =
/// μ2^k, k ≥ 1).
///
/// # Errors
/// [`crate::error::Error::Invalid`] naming `mu_k` when μ_k < 2μ.
pub fn alg45_sharp_sensitivity(l: f64, mu: f64, mu_k: f64, nbar: u64) -> Result<f64> {
    require_positive("mu", mu)?;
    if mu_k < 2.0 * mu {
        return Err(invalid("mu_k", "the sharper bound needs μ_k ≥ 2μ"));
    }
    let nb = nbar as f64;
    Ok(2.0 * l / (nb * (mu * mu_k).sqrt()) + l / (nb * (mu * (mu_k - mu)).sqrt()))
}

/// Remark 1: the in-expectation accuracy γ with 1/γ = 32μn²/(δ²L²) of 𝒜 on Algorithm 1's
/// problem (for Algorithm 2's phase k, "by Remark 1": μ → μ_k, n → n̄).
pub fn remark1_gamma(l: f64, mu: f64, n: u64, delta: f64) -> f64 {
    delta * delta * l * l / (32.0 * mu * (n as f64).powi(2))
}

/// Remark 3: γ with 1/γ = 16μn²/(δL²), μ = min{μ_x, μ_y}, on Algorithm 3's problem (the gap).
pub fn remark3_gamma(l: f64, mu: f64, n: u64, delta: f64) -> f64 {
    delta * l * l / (16.0 * mu * (n as f64).powi(2))
}

/// Remark 4: γ with 1/γ = 16μn̄²/(δL²) per phase of Algorithms 4/5.
pub fn remark4_gamma(l: f64, mu: f64, nbar: u64, delta: f64) -> f64 {
    remark3_gamma(l, mu, nbar, delta)
}

/// The failure probability Markov's inequality gives Remark 1's route (on the norm, through
/// Jensen): P(‖Δ‖ > L/(μn)) ≤ E‖Δ‖/(L/(μn)) ≤ √(2γ/μ)·μn/L (= δ/4 at Remark 1's γ).
pub fn remark1_markov_failure(gamma: f64, l: f64, mu: f64, n: u64) -> f64 {
    (2.0 * gamma / mu).sqrt() * mu * n as f64 / l
}

/// The failure probability Markov gives on the squared weighted distance from an expected gap ≤
/// γ: gap ≥ ½(μ_x‖Δx‖² + μ_y‖Δy‖²), so P(weighted² > r²) ≤ 2γ/r² (= δ/8 at Remark 3's γ with
/// r² = L²/(μn²)).
pub fn remark3_markov_failure(gamma: f64, radius: f64) -> f64 {
    2.0 * gamma / (radius * radius)
}
