//! Algorithms, one file each, named as their papers name them.
//!
//! Every algorithm maps a dataset and a noise source to an [`Output`]; randomized ones draw all
//! their randomness from the [`NoiseSource`] by label, so runs on neighbouring datasets with one
//! seed are coupled, and a recorded tape replays them without an RNG.
//!
//! Parameters are checked where they enter: each algorithm's `new` (and `with_*` setters) returns
//! an error naming the parameter and its admissible range; what depends on the problem (W×Θ,
//! dimensions, data) is checked when it runs. A run's diagnostics are typed ([`Diagnostics`], one
//! struct per algorithm). The papers' schedules the algorithms run with (BGM23's λ, T, n′, D̂_t,
//! α̂, η) are plain functions in [`crate::papers`].

pub mod base_solvers;
pub mod discrete_output_perturbation;
pub mod dp_gda;
pub mod extragradient;
pub mod ldp_sgda;
pub mod mode_of_halves;
pub mod nispp;
pub mod noisy_sgda;
pub mod nseg;
pub mod operator_extrapolation;
pub mod output_perturbation;
pub mod phased_output_perturbation;
pub mod recursive_regularization;
pub mod regularized_erm;
pub mod regularized_saddle;
pub mod release_audit;
pub mod release_noise;
pub mod sgda;
pub mod vi;
pub mod ztoh22_run;

pub use output_perturbation::OutputPerturbation;
pub use recursive_regularization::{AempSpec, RecursiveRegularization, Schedule};
pub use regularized_saddle::RegularizedSaddlePoint;

use crate::error::{invalid, Result};
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
    /// A [`vi::ViAlgorithm`] run on a saddle problem ([`vi::SaddleAdapter`]).
    Vi(vi::ViDiagnostics),
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

/// One projected step of a gradient descent–ascent method, in place and allocation-free:
/// w ← Π_W(w − η g_w), θ ← Π_Θ(θ − η g_θ), where (g_w, g_θ) is the (noisy) saddle operator
/// (∇_w, −∇_θ); shared by SGDA / noisy SGDA and LDP SGDA.
pub(crate) fn projected_descent_step(
    f: &dyn SaddleFn,
    eta: f64,
    gw: &[f64],
    gt: &[f64],
    w: &mut [f64],
    th: &mut [f64],
) {
    for (wk, g) in w.iter_mut().zip(gw) {
        *wk -= eta * g;
    }
    for (tk, g) in th.iter_mut().zip(gt) {
        *tk -= eta * g;
    }
    f.domain_w().project_in_place(w);
    f.domain_theta().project_in_place(th);
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

/// The most per-sample evaluations one run may ask for, 2³⁴: a larger count is taken for a
/// parameter mistake and rejected before any work starts.
pub(crate) const MAX_WORK: u128 = 1 << 34;

/// [`Error::Invalid`](crate::error::Error::Invalid) naming `field` when a run's `work` (the
/// count written `formula`, e.g. "2T·B") exceeds [`MAX_WORK`].
pub(crate) fn check_work(field: &str, formula: &str, work: u128) -> Result<()> {
    if work > MAX_WORK {
        return Err(invalid(
            field,
            format!("{formula} = {work} evaluations exceeds {MAX_WORK}"),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::ldp_sgda::LdpSgda;
    use crate::algorithms::noisy_sgda::NoisySgda;
    use crate::algorithms::recursive_regularization::{AempSpec, DistanceRule, Schedule};
    use crate::algorithms::regularized_erm::RegularizedErm;
    use crate::algorithms::sgda::{BatchRule, Sgda};
    use crate::error::Error;
    use crate::papers::Reading;

    fn field<T: std::fmt::Debug>(r: Result<T>) -> String {
        match r {
            Err(Error::Invalid { field, .. }) => field,
            other => panic!("expected an invalid-parameter error, got {other:?}"),
        }
    }

    #[test]
    fn constructors_name_the_parameter() {
        let z = || vec![0.0];
        assert_eq!(field(RegularizedSaddlePoint::new(0.0, z(), z())), "lambda");
        assert_eq!(
            field(RegularizedSaddlePoint::new(1.0, vec![f64::NAN], z())),
            "anchor_w[0]"
        );
        assert_eq!(field(RegularizedErm::new(-1.0, z())), "lambda");
        let base = RegularizedSaddlePoint::new(1.0, z(), z()).unwrap();
        assert_eq!(
            field(OutputPerturbation::new(base.clone(), 0.0, 0.1, 1.0)),
            "epsilon"
        );
        assert_eq!(
            field(OutputPerturbation::new(base.clone(), 1.0, 1.0, 1.0)),
            "delta"
        );
        assert_eq!(
            field(OutputPerturbation::new(base, 1.0, 0.1, f64::NAN)),
            "lipschitz"
        );
        assert_eq!(
            field(Sgda::new(0.0, 1, z(), z(), BatchRule::Full, 0.0)),
            "eta"
        );
        assert_eq!(
            field(Sgda::new(0.1, 0, z(), z(), BatchRule::Full, 0.0)),
            "steps"
        );
        assert_eq!(
            field(Sgda::new(
                0.1,
                1,
                z(),
                z(),
                BatchRule::WithReplacement { m: 0 },
                0.0
            )),
            "batch"
        );
        assert_eq!(
            field(Sgda::new(0.1, 1, z(), z(), BatchRule::Full, -1.0)),
            "sigma"
        );
        let noisy =
            |c0, d_hat, l| NoisySgda::new(c0, 1.0, 0.1, Reading::Corrected, z(), z(), d_hat, l);
        assert_eq!(field(noisy(0.0, 1.0, 1.0)), "c0");
        assert_eq!(field(noisy(1.0, 0.0, 1.0)), "d_hat");
        assert_eq!(field(noisy(1.0, 1.0, 0.0)), "lipschitz");
        let ldp = |eps, l, b| LdpSgda::new(eps, 0.1, Reading::Corrected, z(), z(), l, b);
        assert_eq!(field(ldp(-1.0, 1.0, 1.0)), "epsilon");
        assert_eq!(field(ldp(1.0, 0.0, 1.0)), "lipschitz");
        assert_eq!(field(ldp(1.0, 1.0, 0.0)), "diameter");
        let sch = Schedule::free(8, 4, 2, 0.1, 1.0, 1.0, DistanceRule::Corrected).unwrap();
        let rr = |a| RecursiveRegularization::new(sch.clone(), z(), z(), a);
        assert_eq!(
            field(rr(AempSpec::NoisySgda {
                c0: 0.0,
                epsilon: 1.0,
                delta: 0.1,
                batch_rule: Reading::Corrected,
                noise_uses_round_lipschitz: false,
            })),
            "a_emp.c0"
        );
        assert_eq!(
            field(AempSpec::output_perturbation(1.0, 0.0, true)),
            "delta"
        );
        assert_eq!(
            field(AempSpec::biased_exact(vec![vec![0.0], vec![f64::INFINITY]])),
            "a_emp.offsets[1][0]"
        );
        assert!(rr(AempSpec::Exact).is_ok());
    }

    #[test]
    fn diagnostics_serialize_as_their_struct() {
        let d = Diagnostics::ModeOfHalves(mode_of_halves::ModeOfHalvesDiagnostics {
            first_half: 2,
            second_half: 3,
        });
        assert_eq!(
            serde_json::to_value(&d).unwrap(),
            serde_json::json!({"first_half": 2, "second_half": 3})
        );
        let back: Diagnostics =
            serde_json::from_value(serde_json::json!({"first_half": 2, "second_half": 3})).unwrap();
        assert_eq!(back, d);
        assert_eq!(d.sigma(), None);
    }
}
