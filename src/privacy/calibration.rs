//! A noise calibration priced against the (ε, δ) it claims: the paper-free half of checking a
//! published calibration.
//!
//! A [`Calibration`] records the noise standard deviation σ of one released query, its ℓ2
//! sensitivity Δ, the [`DpEvent`] tree the release generates (under replace-one), the probability
//! of the event on which a high-probability sensitivity bound fails, and the (ε, δ) it claims.
//! [`Calibration::epsilon_upper`] prices it (exact μ-GDP for Gaussian-only trees, the
//! with-replacement RDP bound of [`crate::privacy::replacement`] otherwise), and
//! [`Calibration::epsilon_lower`] gives a proved lower bound on the ε of the released transcript
//! (exact for Gaussian-only trees; an explicit instance and test for sampled ones). A calibration
//! is **under-noised** when its lower bound exceeds the ε it claims.
//! [`smallest_certified_constant`] and [`largest_refuted_constant`] make an unnamed constant ("a
//! universal constant c") concrete.
//!
//! The papers' own calibrations, each named after its item, are in `papers::<key>::calibration`;
//! the derivations are in `proofs-notes/privacy.md`.

use crate::error::{Error, Result};
use crate::privacy::replacement;
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};

/// A noise calibration with the event tree it generates and the (ε, δ) it claims.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// The noise standard deviation of one released query (two-block releases: one block; the
    /// ledger holds the joint release).
    pub sigma: f64,
    /// The ℓ2 sensitivity of one released query to one replaced record (per batch slot for
    /// sampled releases).
    pub sensitivity: f64,
    /// What the algorithm releases, as an event tree under replace-one.
    pub ledger: PrivacyLedger,
    /// Probability (per dataset) that a high-probability sensitivity bound fails (0 if none).
    pub bad_event_probability: f64,
    /// The claimed ε.
    pub epsilon: f64,
    /// The claimed δ.
    pub delta: f64,
}

/// How an ε was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Exact ε of a composition of Gaussians (μ-GDP); plus the bad event if any.
    ExactGaussian,
    /// This crate's with-replacement RDP bound and the RDP→(ε, δ) conversion.
    RdpWithReplacement,
    /// A lower bound: explicit one-dimensional instance and a threshold test on the sum.
    SumTest,
}

/// An ε with the method that produced it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpsilonValue {
    /// ε.
    pub epsilon: f64,
    /// How.
    pub method: Method,
}

/// The replace-one ledger of `event`.
pub fn replace_one(event: DpEvent) -> PrivacyLedger {
    PrivacyLedger {
        relation: Neighbouring::ReplaceOne,
        event,
    }
}

/// μ of a Gaussian-only tree (composition of Gaussians is μ-GDP with μ² = Σ 1/z²; a parallel
/// composition is priced by its worst part), or `None` if the tree samples.
fn gaussian_mu(e: &DpEvent) -> Option<f64> {
    match e {
        DpEvent::Gaussian { noise_multiplier } => Some(1.0 / noise_multiplier),
        DpEvent::SelfComposed { count, event } => {
            gaussian_mu(event).map(|m| m * (*count as f64).sqrt())
        }
        DpEvent::Composed(v) => {
            let mut s = 0.0;
            for x in v {
                s += gaussian_mu(x)?.powi(2);
            }
            Some(s.sqrt())
        }
        DpEvent::ParallelComposed(v) => {
            let mut s = 0.0f64;
            for x in v {
                s = s.max(gaussian_mu(x)?);
            }
            Some(s)
        }
        DpEvent::PostProcessing | DpEvent::NoOp => Some(0.0),
        _ => None,
    }
}

impl Calibration {
    /// σ/Δ of one released query (two-block releases: of the block `sigma` is for; the ledger
    /// carries the joint multiplier).
    pub fn noise_multiplier(&self) -> f64 {
        self.sigma / self.sensitivity
    }

    /// Fold a high-probability sensitivity bound into an ε computed at δ − p: with bad-event
    /// probability p per dataset the release is (ε_G(δ − p) + ln(1/(1 − p)), δ)-DP
    /// (proofs-notes/privacy.md, "High-probability sensitivity").
    fn with_bad_event(&self, f: impl Fn(f64) -> Result<f64>) -> Result<f64> {
        let p = self.bad_event_probability;
        if p >= self.delta {
            return Ok(f64::INFINITY);
        }
        Ok(f(self.delta - p)? + (-(-p).ln_1p()).max(0.0))
    }

    /// An upper bound on ε at the claimed δ: exact for Gaussian-only trees, else the
    /// with-replacement RDP bound (both plus the bad event).
    pub fn epsilon_upper(&self) -> Result<EpsilonValue> {
        match gaussian_mu(&self.ledger.event) {
            Some(mu) => Ok(EpsilonValue {
                epsilon: self.with_bad_event(|d| replacement::gaussian_epsilon(mu, d))?,
                method: Method::ExactGaussian,
            }),
            None => Ok(EpsilonValue {
                epsilon: self.epsilon_rdp()?,
                method: Method::RdpWithReplacement,
            }),
        }
    }

    /// [`Calibration::epsilon_upper`] with the with-replacement RDP bound evaluated on the
    /// integer orders 2..=`max_order` only (a valid, possibly larger, upper bound that costs less:
    /// the moment table is built up to the largest order). Gaussian-only trees: exact, as there.
    pub fn epsilon_upper_to_order(&self, max_order: u32) -> Result<EpsilonValue> {
        if max_order < 2 {
            return Err(crate::error::invalid("max_order", "must be ≥ 2"));
        }
        if gaussian_mu(&self.ledger.event).is_some() {
            return self.epsilon_upper();
        }
        let orders: Vec<u32> = (2..=max_order).collect();
        Ok(EpsilonValue {
            epsilon: self.with_bad_event(|d| {
                Ok(replacement::rdp_epsilon_parts_at(&self.ledger, d, &orders)?.0)
            })?,
            method: Method::RdpWithReplacement,
        })
    }

    /// The ε at the claimed δ by the RDP bound of [`replacement`] (which prices sampling with
    /// replacement, unlike `crate::privacy::rdp::RdpAccountant`), plus the bad event.
    pub fn epsilon_rdp(&self) -> Result<f64> {
        self.with_bad_event(|d| Ok(replacement::rdp_epsilon(&self.ledger, d)?.0))
    }

    /// A proved lower bound on the ε at the claimed δ of the released transcript (the sequence of
    /// noisy queries a privacy proof certifies). Gaussian-only trees: exact (the bad event is
    /// ignored, which is admissible: a solver that never errs). Sampled trees: [`Method::SumTest`].
    pub fn epsilon_lower(&self) -> Result<EpsilonValue> {
        if let Some(mu) = gaussian_mu(&self.ledger.event) {
            return Ok(EpsilonValue {
                epsilon: replacement::gaussian_epsilon(mu, self.delta)?,
                method: Method::ExactGaussian,
            });
        }
        match self.ledger.event.sampled_gaussian_steps() {
            Some(s) => Ok(EpsilonValue {
                epsilon: replacement::sum_test_epsilon(
                    s.sampling,
                    s.steps,
                    s.noise_multiplier,
                    self.delta,
                )?,
                method: Method::SumTest,
            }),
            None => Err(Error::Unsupported(
                "no lower-bound instance for this event shape".into(),
            )),
        }
    }

    /// The claim is certified: the upper bound is ≤ the claimed ε.
    pub fn certified(&self) -> Result<bool> {
        Ok(self.epsilon_upper()?.epsilon <= self.epsilon * (1.0 + 1e-9))
    }

    /// The claim is refuted: the proved lower bound exceeds the claimed ε.
    pub fn refuted(&self) -> Result<bool> {
        Ok(self.epsilon_lower()?.epsilon > self.epsilon * (1.0 + 1e-9))
    }
}

/// The smallest noise multiplier z at which one Gaussian release is (ε, δ)-DP, exactly: the
/// analytic Gaussian mechanism with Δ = 1 (`crate::privacy::analytic`).
pub fn exact_gaussian_multiplier(eps: f64, delta: f64) -> Result<f64> {
    crate::privacy::validate_eps_delta(eps, delta)?;
    crate::privacy::analytic::analytic_gaussian_sigma(1.0, eps, delta)
}

/// Smallest c such that `certified(c)` holds, by bisection on a log scale (certification must be
/// monotone in c).
pub fn smallest_certified_constant(certified: impl Fn(f64) -> Result<bool>) -> Result<f64> {
    let (mut lo, mut hi) = (1e-3f64, 1.0f64);
    while !certified(hi)? {
        hi *= 2.0;
        if hi > 1e9 {
            return Err(Error::Unsupported("no constant certifies the claim".into()));
        }
    }
    if certified(lo)? {
        return Ok(lo);
    }
    for _ in 0..50 {
        let mid = (lo * hi).sqrt();
        if certified(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi / lo < 1.0 + 1e-4 {
            break;
        }
    }
    Ok(hi)
}

/// Largest c such that `refuted(c)` holds (0 if none below 1e-3), by bisection on a log scale.
pub fn largest_refuted_constant(refuted: impl Fn(f64) -> Result<bool>) -> Result<f64> {
    let (mut lo, mut hi) = (1e-3f64, 1.0f64);
    if !refuted(lo)? {
        return Ok(0.0);
    }
    while refuted(hi)? {
        hi *= 2.0;
        if hi > 1e9 {
            return Err(Error::Unsupported("every constant is refuted".into()));
        }
    }
    for _ in 0..50 {
        let mid = (lo * hi).sqrt();
        if refuted(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi / lo < 1.0 + 1e-4 {
            break;
        }
    }
    Ok(lo)
}
