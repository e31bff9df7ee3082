//! Algorithms, one file each, named as their papers name them (DESIGN "Layout").
//!
//! Every algorithm maps a dataset and a noise source to an [`Output`]; randomized ones draw all
//! their randomness from the [`NoiseSource`] by label, so runs on neighbouring datasets with one
//! seed are coupled, and a recorded tape replays them without an RNG.

pub mod dp_gda;
pub mod ldp_sgda;
pub mod mode_of_halves;
pub mod noisy_sgda;
pub mod output_perturbation;
pub mod recursive_regularization;
pub mod regularized_erm;
pub mod regularized_saddle;
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
    pub info: Diagnostics,
}

/// A run's algorithm-specific diagnostics: one variant per algorithm (and per subroutine of
/// BGM23 Algorithm 1), each a struct of the algorithm's file. Serialized untagged: the JSON of a
/// variant is its struct's object (what `dpsaddle run --json` prints under `info`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Diagnostics {
    /// [`RegularizedSaddlePoint`].
    RegularizedSaddlePoint(regularized_saddle::RegularizedSaddleDiagnostics),
    /// [`regularized_erm::RegularizedErm`].
    RegularizedErm(regularized_erm::RegularizedErmDiagnostics),
    /// The exact subroutine of BGM23 Algorithm 1 ([`recursive_regularization::exact_round`]).
    ExactRound(recursive_regularization::ExactRoundDiagnostics),
    /// [`OutputPerturbation`].
    OutputPerturbation(output_perturbation::OutputPerturbationDiagnostics),
    /// Output perturbation with exact discrete Gaussian noise on a grid.
    DiscreteGaussianOutputPerturbation(output_perturbation::DiscreteGaussianDiagnostics),
    /// BGM23 Thm 12's round ([`recursive_regularization::output_perturbation_round`]).
    OutputPerturbationRound(recursive_regularization::OutputPerturbationRoundDiagnostics),
    /// [`RecursiveRegularization`].
    RecursiveRegularization(recursive_regularization::RecursiveRegularizationDiagnostics),
    /// [`noisy_sgda::NoisySgda`].
    NoisySgda(noisy_sgda::NoisySgdaDiagnostics),
    /// [`ldp_sgda::LdpSgda`].
    LdpSgda(ldp_sgda::LdpSgdaDiagnostics),
    /// [`sgda::Sgda`].
    Sgda(sgda::SgdaDiagnostics),
    /// [`dp_gda::DpGda`].
    DpGda(dp_gda::DpGdaDiagnostics),
    /// [`mode_of_halves::ModeOfHalves`].
    ModeOfHalves(mode_of_halves::ModeOfHalvesDiagnostics),
}

impl Diagnostics {
    /// The noise scale σ of the run, when the algorithm has one.
    pub fn sigma(&self) -> Option<f64> {
        match self {
            Diagnostics::OutputPerturbation(d) => Some(d.sigma),
            Diagnostics::OutputPerturbationRound(d) => Some(d.sigma),
            Diagnostics::NoisySgda(d) => Some(d.sigma),
            Diagnostics::LdpSgda(d) => Some(d.sigma),
            Diagnostics::Sgda(d) => Some(d.sigma),
            Diagnostics::DpGda(d) => Some(d.sigma),
            _ => None,
        }
    }

    /// The diagnostics of [`noisy_sgda::NoisySgda`], if these are.
    pub fn as_noisy_sgda(&self) -> Option<&noisy_sgda::NoisySgdaDiagnostics> {
        match self {
            Diagnostics::NoisySgda(d) => Some(d),
            _ => None,
        }
    }

    /// The diagnostics of BGM23 Thm 12's round, if these are.
    pub fn as_output_perturbation_round(
        &self,
    ) -> Option<&recursive_regularization::OutputPerturbationRoundDiagnostics> {
        match self {
            Diagnostics::OutputPerturbationRound(d) => Some(d),
            _ => None,
        }
    }

    /// The diagnostics of [`ldp_sgda::LdpSgda`], if these are.
    pub fn as_ldp_sgda(&self) -> Option<&ldp_sgda::LdpSgdaDiagnostics> {
        match self {
            Diagnostics::LdpSgda(d) => Some(d),
            _ => None,
        }
    }

    /// The diagnostics of [`dp_gda::DpGda`], if these are.
    pub fn as_dp_gda(&self) -> Option<&dp_gda::DpGdaDiagnostics> {
        match self {
            Diagnostics::DpGda(d) => Some(d),
            _ => None,
        }
    }

    /// The diagnostics of the discrete Gaussian output perturbation, if these are.
    pub fn as_discrete_gaussian(
        &self,
    ) -> Option<&output_perturbation::DiscreteGaussianDiagnostics> {
        match self {
            Diagnostics::DiscreteGaussianOutputPerturbation(d) => Some(d),
            _ => None,
        }
    }
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
