//! Algorithms, one file each, named as their papers name them (DESIGN "Layout").
//!
//! Every algorithm maps a dataset and a noise source to an [`Output`]; randomized ones draw all
//! their randomness from the [`NoiseSource`] by label, so runs on neighbouring datasets with one
//! seed are coupled, and a recorded tape replays them without an RNG.

pub mod discrete_output_perturbation;
pub mod dp_gda;
pub mod ldp_sgda;
pub mod mode_of_halves;
pub mod noisy_sgda;
pub mod output_perturbation;
pub mod recursive_regularization;
pub mod regularized_erm;
pub mod regularized_saddle;
pub mod release_audit;
pub mod rr_paths;
pub mod sgda;

pub use output_perturbation::OutputPerturbation;
pub use recursive_regularization::{AempSpec, RecursiveRegularization, Schedule};
pub use regularized_saddle::RegularizedSaddlePoint;

use crate::error::Result;
use crate::privacy::PrivacyLedger;
use crate::problem::{Dataset, SaddleFn};
use crate::rng::NoiseSource;
use serde::{Deserialize, Serialize};

/// What a run returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// A_w(S).
    pub w: Vec<f64>,
    /// A_θ(S).
    pub theta: Vec<f64>,
    /// Gradient / operator evaluations counted by the oracle.
    pub grad_evals: u64,
    /// The privacy event of the release (None for non-private algorithms).
    pub ledger: Option<PrivacyLedger>,
    /// Algorithm-specific diagnostics (certificates, noise scales, ...).
    pub info: serde_json::Value,
}

impl Output {
    /// The concatenation [w, θ].
    pub fn z(&self) -> Vec<f64> {
        crate::linalg::concat(&self.w, &self.theta)
    }
}

/// The data points of S have the length the loss expects (an error naming `data` otherwise).
pub fn check_data(f: &dyn SaddleFn, s: &Dataset) -> Result<()> {
    if s.point_dim() != f.point_dim() {
        return Err(crate::error::invalid(
            "data",
            format!(
                "points have length {}, the problem's data points have length {}",
                s.point_dim(),
                f.point_dim()
            ),
        ));
    }
    Ok(())
}

/// A (possibly randomized) algorithm A : Xⁿ → W×Θ.
pub trait Algorithm: Sync {
    /// Name for reports.
    fn name(&self) -> String;
    /// Run on S, drawing randomness from `noise` only.
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output>;
}
