//! Output perturbation of the regularized saddle point on an integer grid with exact discrete
//! Gaussian noise: the certified solver's z_λ(S), then the grid release of
//! [`crate::privacy::discrete_gaussian`] (its module docs give the recipe, the zCDP guarantee and
//! why the release records no `DpEvent`).

use crate::algorithms::{Algorithm, Output, RegularizedSaddlePoint};
use crate::error::{require_nonnegative, require_unit_open, Error, Result};
use crate::linalg;
use crate::privacy::discrete_gaussian::{grid_release, zcdp_epsilon};
use crate::problem::{Dataset, SaddleFn};
use crate::rng::{NoiseSource, Stream};
use serde::{Deserialize, Serialize};

/// Output perturbation of the regularized saddle point on an integer grid with exact discrete
/// Gaussian noise (`privacy::discrete_gaussian`, "The grid release"): z_λ(S) by the certified
/// solver, Δ = 2L/(λn) (BGM23 Lemma 2), then [`grid_release`] at target ρ; the released point is
/// then projected onto W×Θ (post-processing).
///
/// Randomness: the words come from `Stream::new(master_seed, "discrete_gaussian/noise")` of a
/// sampling [`NoiseSource`]; a replaying source is `Error::Unsupported` (the tape vocabulary has no
/// integer draws). Ledger: `None`, with ρ and ε(δ) in `info` (`privacy::discrete_gaussian`,
/// "Ledger").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscreteGaussianOutputPerturbation {
    /// The non-private base algorithm.
    pub base: RegularizedSaddlePoint,
    /// L used for the sensitivity.
    pub lipschitz: f64,
    /// h > 0, the grid width.
    pub grid: f64,
    /// Target ρ > 0 (zCDP).
    pub rho: f64,
    /// δ ∈ (0, 1) at which `info.epsilon_at_delta` is reported.
    pub delta: f64,
}

impl Algorithm for DiscreteGaussianOutputPerturbation {
    fn name(&self) -> String {
        format!(
            "discrete_gaussian_output_perturbation(ρ={}, h={})",
            self.rho, self.grid
        )
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        require_nonnegative("lipschitz", self.lipschitz)?;
        require_unit_open("delta", self.delta)?;
        let seed = noise.master_seed().ok_or_else(|| {
            Error::Unsupported(
                "discrete Gaussian noise cannot be replayed from a tape (no integer draw kind)"
                    .into(),
            )
        })?;
        let sens = self.base.stability_bound(self.lipschitz, s.len());
        let exact = self.base.run(f, s, noise)?;
        let mut rng = Stream::new(seed, "discrete_gaussian/noise");
        let rel = grid_release(&exact.z(), sens, self.grid, self.rho, &mut rng)?;
        let (w, t) = linalg::split(&rel.values, f.dim_w());
        let eps = zcdp_epsilon(rel.rho, self.delta)?;
        Ok(Output {
            w: f.domain_w().project(&w),
            theta: f.domain_theta().project(&t),
            grad_evals: exact.grad_evals,
            ledger: None,
            info: crate::algorithms::Diagnostics::DiscreteGaussianOutputPerturbation(
                crate::algorithms::output_perturbation::DiscreteGaussianDiagnostics {
                    sensitivity: sens,
                    zcdp_rho: rel.rho,
                    delta: self.delta,
                    epsilon_at_delta: eps,
                    privacy: "rho-zCDP by CKS20 Thm 14 (discrete Gaussian); no DpEvent recorded"
                        .to_string(),
                    release: rel,
                    unperturbed_w: exact.w,
                    unperturbed_theta: exact.theta,
                },
            ),
        })
    }
}
