//! Output perturbation of the regularized saddle point: z = z_λ(S) + N(0, σ²I), then projected
//! onto W×Θ (post-processing). The sensitivity is BGM23 Lemma 2's 2L/(λn) and σ is the classic
//! Gaussian calibration. This is the release pattern of BGM23 Thm 12 and ZTOH22's phased output
//! perturbation; the papers' own variants (with their errata) live in their modules.

use crate::algorithms::{Algorithm, Diagnostics, Output, RegularizedSaddlePoint};
use crate::error::{invalid, Result};
use crate::linalg;
use crate::privacy::{classic_gaussian_sigma, DpEvent, Neighbouring, PrivacyLedger};
use crate::problem::{Dataset, SaddleFn};
use crate::rng::NoiseSource;
use serde::{Deserialize, Serialize};

/// The diagnostics of an [`OutputPerturbation`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputPerturbationDiagnostics {
    /// The sensitivity 2L/(λn) (BGM23 Lemma 2).
    pub sensitivity: f64,
    /// σ.
    pub sigma: f64,
    /// The regularized saddle point's w, before the noise.
    pub unperturbed_w: Vec<f64>,
    /// The regularized saddle point's θ, before the noise.
    pub unperturbed_theta: Vec<f64>,
}

/// The diagnostics of the output perturbation with exact discrete Gaussian noise on a grid
/// (`privacy::discrete_gaussian`): ρ-zCDP, reported here rather than as a ledger.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscreteGaussianDiagnostics {
    /// The sensitivity 2L/(λn) (BGM23 Lemma 2).
    pub sensitivity: f64,
    /// The release's ρ (zCDP).
    pub zcdp_rho: f64,
    /// δ at which ε is reported.
    pub delta: f64,
    /// ε(δ) of ρ-zCDP.
    pub epsilon_at_delta: f64,
    /// What the privacy guarantee is.
    pub privacy: String,
    /// The grid release.
    pub release: crate::privacy::discrete_gaussian::GridRelease,
    /// The regularized saddle point's w, before the noise.
    pub unperturbed_w: Vec<f64>,
    /// The regularized saddle point's θ, before the noise.
    pub unperturbed_theta: Vec<f64>,
}

/// Gaussian output perturbation at (ε, δ) of the regularized saddle point of BGM23 eq. (4), with
/// BGM23 Lemma 2's sensitivity (the release pattern of BGM23 Thm 12).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputPerturbation {
    /// The non-private base algorithm.
    pub base: RegularizedSaddlePoint,
    /// ε > 0 (the classic calibration is a guarantee for ε ≤ 1).
    pub epsilon: f64,
    /// δ ∈ (0, 1).
    pub delta: f64,
    /// L used for the sensitivity; must bound the loss's Lipschitz constant over the data domain.
    pub lipschitz: f64,
}

impl OutputPerturbation {
    /// Output perturbation of `base` with ε > 0, δ ∈ (0, 1) and L ≥ 0 finite (errors name
    /// `epsilon`, `delta`, `lipschitz`).
    pub fn new(
        base: RegularizedSaddlePoint,
        epsilon: f64,
        delta: f64,
        lipschitz: f64,
    ) -> Result<OutputPerturbation> {
        crate::privacy::validate_eps_delta(epsilon, delta)?;
        if !(lipschitz.is_finite() && lipschitz >= 0.0) {
            return Err(invalid(
                "lipschitz",
                format!("must be finite and ≥ 0, got {lipschitz}"),
            ));
        }
        Ok(OutputPerturbation {
            base,
            epsilon,
            delta,
            lipschitz,
        })
    }
}

impl Algorithm for OutputPerturbation {
    fn name(&self) -> String {
        format!("output_perturbation(ε={}, δ={})", self.epsilon, self.delta)
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        let sens = self.base.stability_bound(self.lipschitz, s.len());
        let sigma = classic_gaussian_sigma(sens, self.epsilon, self.delta)?;
        let exact = self.base.run(f, s, noise)?;
        let xi = noise.gaussian(
            "output_perturbation/noise",
            f.dim_w() + f.dim_theta(),
            sigma,
        )?;
        let z = linalg::add(&exact.z(), &xi);
        let (w, t) = linalg::split(&z, f.dim_w());
        Ok(Output {
            w: f.domain_w().project(&w),
            theta: f.domain_theta().project(&t),
            grad_evals: exact.grad_evals,
            ledger: Some(PrivacyLedger {
                relation: Neighbouring::ReplaceOne,
                event: DpEvent::Composed(vec![
                    DpEvent::Gaussian {
                        noise_multiplier: if sens > 0.0 {
                            sigma / sens
                        } else {
                            f64::INFINITY
                        },
                    },
                    DpEvent::PostProcessing,
                ]),
            }),
            info: Diagnostics::OutputPerturbation(OutputPerturbationDiagnostics {
                sensitivity: sens,
                sigma,
                unperturbed_w: exact.w,
                unperturbed_theta: exact.theta,
            }),
        })
    }
}
