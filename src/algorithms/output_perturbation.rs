//! Output perturbation of the regularized saddle point: z = z_λ(S) + N(0, σ²I), then projected
//! onto W×Θ (post-processing). The sensitivity is BGM23 Lemma 2's 2L/(λn) and σ is the classic
//! Gaussian calibration. This is the release pattern of BGM23 Thm 12 and ZTOH22's phased output
//! perturbation; the papers' own variants (with their errata) live in their modules.

use crate::algorithms::{Algorithm, Output, RegularizedSaddlePoint};
use crate::error::Result;
use crate::linalg;
use crate::privacy::{classic_gaussian_sigma, DpEvent, Neighbouring, PrivacyLedger};
use crate::problem::{Dataset, SaddleFn};
use crate::rng::NoiseSource;
use serde::{Deserialize, Serialize};

/// Gaussian output perturbation at (ε, δ).
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
            info: serde_json::json!({
                "sensitivity": sens,
                "sigma": sigma,
                "unperturbed_w": exact.w,
                "unperturbed_theta": exact.theta,
            }),
        })
    }
}
