//! μ-Gaussian differential privacy (Dong, Roth & Su 2022, "Gaussian Differential Privacy").
//!
//! A mechanism is μ-GDP when distinguishing neighbours is at least as hard as distinguishing
//! N(0, 1) from N(μ, 1). Facts used here (DRS Thm 2.7, Cor 3.3 / Cor 2.13):
//!
//! * the Gaussian mechanism with noise multiplier σ/Δ = s is (1/s)-GDP (exactly: its privacy
//!   curve is the μ = 1/s curve);
//! * composition: μ = √(Σ μ_i²); parallel composition over disjoint parts: max μ_i (only the
//!   part holding the changed record differs); post-processing is free;
//! * μ-GDP ⇔ (ε, δ(ε))-DP for every ε ≥ 0 with δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), the
//!   same curve as the analytic Gaussian ([`crate::privacy::analytic`]) with μ = Δ/σ.
//!
//! [`GdpAccountant`] prices trees of Gaussians under these rules and refuses (with
//! `Error::Unsupported`) Laplace and subsampled events: the subsampled Gaussian is not μ-GDP for
//! any useful μ, and the central-limit approximation of DRS §5 is an approximation, not a
//! guarantee. That approximation is available, clearly labelled, as
//! [`clt_approximate_mu_poisson`], outside the accountant.

use crate::error::{
    require_count, require_fraction, require_nonnegative, require_positive, require_unit_open,
    Error, Result,
};
use crate::privacy::accountant::{Accountant, EpsilonReport};
use crate::privacy::special::{self, bisect_threshold, bracket_up};
use crate::privacy::{DpEvent, PrivacyLedger};

/// μ of the Gaussian mechanism with noise multiplier s = σ/Δ: 1/s.
pub fn gaussian_mu(noise_multiplier: f64) -> Result<f64> {
    require_positive("noise_multiplier", noise_multiplier)?;
    Ok(1.0 / noise_multiplier)
}

/// μ of the sequential composition of μ_i-GDP mechanisms: √(Σ μ_i²) (DRS Cor 3.3).
pub fn compose_mu(mus: &[f64]) -> Result<f64> {
    for (i, &m) in mus.iter().enumerate() {
        require_nonnegative(format_args!("mu[{i}]"), m)?;
    }
    let max = mus.iter().copied().fold(0.0, f64::max);
    if max == 0.0 {
        return Ok(0.0);
    }
    // Scaled to avoid overflow/underflow of the squares.
    Ok(max
        * mus
            .iter()
            .map(|m| (m / max) * (m / max))
            .sum::<f64>()
            .sqrt())
}

/// ln δ(ε) of a μ-GDP mechanism: ln(Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2)) (DRS Cor 2.13).
pub fn gdp_log_delta(mu: f64, epsilon: f64) -> Result<f64> {
    require_nonnegative("mu", mu)?;
    require_nonnegative("epsilon", epsilon)?;
    Ok(log_delta_unchecked(mu, epsilon))
}

fn log_delta_unchecked(mu: f64, epsilon: f64) -> f64 {
    if mu == 0.0 {
        return f64::NEG_INFINITY;
    }
    let a = -epsilon / mu + 0.5 * mu;
    let b = -epsilon / mu - 0.5 * mu;
    special::log_normal_cdf_tilted_diff(a, b)
}

/// δ(ε) of a μ-GDP mechanism (DRS Cor 2.13).
pub fn gdp_delta(mu: f64, epsilon: f64) -> Result<f64> {
    Ok(gdp_log_delta(mu, epsilon)?.exp())
}

/// The smallest ε ≥ 0 (to adjacent floats) with δ(ε) ≤ δ for a μ-GDP mechanism; the
/// conservative end of the bisection bracket.
pub fn gdp_epsilon(mu: f64, delta: f64) -> Result<f64> {
    require_nonnegative("mu", mu)?;
    require_unit_open("delta", delta)?;
    let ok = |eps: f64| log_delta_unchecked(mu, eps).exp() <= delta;
    if ok(0.0) {
        return Ok(0.0);
    }
    let (lo, hi) = bracket_up(1.0, ok)
        .ok_or_else(|| Error::Unsupported("no finite ε reaches this δ".into()))?;
    Ok(bisect_threshold(lo, hi, ok))
}

/// **Approximation, not a guarantee.** The central-limit μ of T steps of a Poisson-subsampled
/// Gaussian with rate q and noise multiplier σ: μ ≈ q·√(T(e^{1/σ²} − 1)) (Bu, Dong, Long & Su
/// 2020, "Deep Learning with Gaussian Differential Privacy", from the central limit theorem of
/// DRS §5). It is the limit
/// as T → ∞ with q√T fixed and can under-state the privacy loss at finite T, so it is not an
/// [`Accountant`] and its value must not be reported as a proved (ε, δ).
pub fn clt_approximate_mu_poisson(q: f64, noise_multiplier: f64, steps: u64) -> Result<f64> {
    require_fraction("q", q)?;
    gaussian_mu(noise_multiplier)?;
    require_count("steps", steps)?;
    let s2 = noise_multiplier * noise_multiplier;
    Ok(q * ((steps as f64) * (1.0 / s2).exp_m1()).sqrt())
}

/// The μ-GDP accountant: exact for compositions (sequential and parallel) of Gaussian
/// mechanisms; `Unsupported` for Laplace and for subsampling (except the trivial q = 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct GdpAccountant;

impl GdpAccountant {
    /// The μ of an event tree (validated first).
    pub fn mu(&self, event: &DpEvent) -> Result<f64> {
        event.validate()?;
        mu_of(event)
    }
}

fn mu_of(event: &DpEvent) -> Result<f64> {
    match event {
        DpEvent::Gaussian { noise_multiplier } => gaussian_mu(*noise_multiplier),
        DpEvent::SelfComposed { count, event } => Ok(mu_of(event)? * (*count as f64).sqrt()),
        DpEvent::Composed(v) => {
            let mus = v.iter().map(mu_of).collect::<Result<Vec<_>>>()?;
            compose_mu(&mus)
        }
        DpEvent::ParallelComposed(v) => v
            .iter()
            .map(mu_of)
            .try_fold(0.0, |m, x| x.map(|x| f64::max(m, x))),
        DpEvent::PoissonSampled { q, event } if *q == 1.0 => mu_of(event),
        DpEvent::PostProcessing | DpEvent::NoOp => Ok(0.0),
        DpEvent::Laplace { .. } => Err(Error::Unsupported(
            "gdp: the Laplace mechanism has no exact μ-GDP parameter; use another accountant"
                .into(),
        )),
        DpEvent::PoissonSampled { .. }
        | DpEvent::SampledWithoutReplacement { .. }
        | DpEvent::SampledWithReplacement { .. } => Err(Error::Unsupported(
            "gdp: subsampled mechanisms are not μ-GDP with a usable μ (the CLT value is only \
             an approximation; see gdp::clt_approximate_mu_poisson)"
                .into(),
        )),
    }
}

impl Accountant for GdpAccountant {
    fn name(&self) -> &'static str {
        "gdp"
    }

    fn epsilon(&self, ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport> {
        require_unit_open("delta", delta)?;
        let mu = self.mu(&ledger.event)?;
        Ok(EpsilonReport {
            epsilon: gdp_epsilon(mu, delta)?,
            delta,
            order: None,
            accountant: self.name().into(),
        })
    }

    fn delta(&self, ledger: &PrivacyLedger, epsilon: f64) -> Result<f64> {
        require_nonnegative("epsilon", epsilon)?;
        let mu = self.mu(&ledger.event)?;
        gdp_delta(mu, epsilon)
    }
}
