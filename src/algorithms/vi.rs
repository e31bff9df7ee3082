//! Algorithms for stochastic variational inequalities (BG23 §2: find z ∈ Z with
//! ⟨F(z), u − z⟩ ≥ 0 for all u ∈ Z, F the mean of monotone operators G(·; x) over the data).
//!
//! A [`ViAlgorithm`] maps (operator G, dataset S, noise source) to one point z ∈ Z, with the
//! exact number of evaluations G(·; x_i) it made **per data point** (counted through
//! [`OpOracle`]), an optional privacy ledger and typed diagnostics. The existing
//! [`Algorithm`] stays the interface for saddle functions; [`SaddleAdapter`] runs a
//! [`ViAlgorithm`] on a saddle problem through its saddle operator
//! g = [∇_w f, −∇_θ f] on W×Θ ([`SaddleOperator`], BG23 §3: "when we say that a certain SVI
//! algorithm is applied to an SSP, we mean using [the associated monotone operator and W×Θ]")
//! and splits the output z into (w, θ).
//!
//! The prox step of the first-order engines is behind [`ProxStep`]: the Euclidean projected
//! step Π_Z(z − γg) now ([`EuclideanProx`]); BGM24's Bregman (ℓp) step
//! argmin_u {ψ(u) + ⟨γg − ∇ψ(z), u⟩} (BGM24 Algorithm 2) plugs in as another implementation.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::oracle::OpOracle;
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};
use crate::problem::monotone::SaddleOperator;
use crate::problem::{Dataset, MonotoneOp, SaddleFn};
use crate::rng::NoiseSource;
use crate::sampling::BatchRule;
use serde::{Deserialize, Serialize};

/// What a [`ViAlgorithm`] run returns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViOutput {
    /// The output point A(S) ∈ Z.
    pub z: Vec<f64>,
    /// Evaluations G(·; x_i) per data point i (a point drawn twice in one batch counts twice).
    pub evals_per_point: Vec<u64>,
    /// Σ_i evals_per_point\[i\], as counted by the [`OpOracle`] (the two agree by construction;
    /// the tests assert it).
    pub evals: u64,
    /// The privacy event of the run (None for σ = 0).
    pub ledger: Option<PrivacyLedger>,
    /// Algorithm-specific diagnostics.
    pub info: ViDiagnostics,
}

/// A VI run's diagnostics: one variant per algorithm, serialized untagged (the JSON of the
/// variant's struct).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ViDiagnostics {
    /// [`crate::algorithms::extragradient::Extragradient`].
    Extragradient(crate::algorithms::extragradient::ExtragradientDiagnostics),
    /// [`crate::algorithms::operator_extrapolation::OperatorExtrapolation`].
    OperatorExtrapolation(
        crate::algorithms::operator_extrapolation::OperatorExtrapolationDiagnostics,
    ),
    /// [`crate::algorithms::nispp::Nispp`].
    Nispp(crate::algorithms::nispp::NisppDiagnostics),
}

/// A (possibly randomized) algorithm for the stochastic VI of a monotone operator: S ↦ z ∈ Z.
pub trait ViAlgorithm: Sync {
    /// Name for reports.
    fn name(&self) -> String;
    /// Run on S (equal weights 1/n), drawing randomness from `noise` only.
    fn run(&self, op: &dyn MonotoneOp, s: &Dataset, noise: &mut NoiseSource) -> Result<ViOutput>;
}

/// A [`ViAlgorithm`] run on a saddle problem through its saddle operator on W×Θ; the output
/// z = [w, θ] is split into (w, θ), `grad_evals` is the total evaluation count (one saddle
/// operator evaluation = one gradient evaluation, as in [`crate::oracle::Oracle`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SaddleAdapter<A> {
    /// The VI algorithm.
    pub alg: A,
}

impl<A: ViAlgorithm> Algorithm for SaddleAdapter<A> {
    fn name(&self) -> String {
        format!("{} (on the saddle operator)", self.alg.name())
    }

    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        crate::algorithms::check_data(f, s)?;
        let op = SaddleOperator::new(f);
        let out = self.alg.run(&op, s, noise)?;
        let (w, theta) = crate::linalg::split(&out.z, f.dim_w());
        Ok(Output {
            w,
            theta,
            grad_evals: out.evals,
            ledger: out.ledger,
            info: Diagnostics::Vi(out.info),
        })
    }
}

/// One prox step out = argmin_{u∈Z} {γ⟨g, u⟩ + B(u, z)} of a first-order VI method, written
/// into `out` without allocating (for balls and boxes).
pub trait ProxStep: Sync + std::fmt::Debug {
    /// The step from z with step size γ along the (estimated) operator value g.
    fn step(&self, domain: &Domain, z: &[f64], gamma: f64, g: &[f64], out: &mut [f64]);
    /// Name for diagnostics.
    fn name(&self) -> &'static str;
}

/// The Euclidean prox step: out = Π_Z(z − γg) (BG23 Algorithm 1 lines 4 and 6; Algorithm 3
/// line 3, whose argmin of γ⟨g, u⟩ + ½‖u − z‖² is this projection). Coordinates are computed
/// as `z[k] - gamma * g[k]` and then projected in place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EuclideanProx;

impl ProxStep for EuclideanProx {
    fn step(&self, domain: &Domain, z: &[f64], gamma: f64, g: &[f64], out: &mut [f64]) {
        for ((o, zk), gk) in out.iter_mut().zip(z).zip(g) {
            *o = zk - gamma * gk;
        }
        domain.project_in_place(out);
    }
    fn name(&self) -> &'static str {
        "euclidean"
    }
}

/// The step sizes γ_1, …, γ_T of a first-order method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StepSchedule {
    /// γ_t = γ for every t.
    Constant(f64),
    /// γ_t = list\[t − 1\] (the list's length must be the number of iterations).
    List(Vec<f64>),
}

impl StepSchedule {
    /// γ_t (t ≥ 1).
    #[inline]
    pub fn at(&self, t: usize) -> f64 {
        match self {
            StepSchedule::Constant(g) => *g,
            StepSchedule::List(v) => v[t - 1],
        }
    }

    /// Every γ_t finite and > 0; a list of exactly `steps` entries. Errors name `field`.
    pub fn validate(&self, field: &str, steps: usize) -> Result<()> {
        let bad = |i: String, g: f64| {
            invalid(
                format!("{field}{i}"),
                format!("must be finite and > 0, got {g}"),
            )
        };
        match self {
            StepSchedule::Constant(g) => {
                if !(g.is_finite() && *g > 0.0) {
                    return Err(bad(String::new(), *g));
                }
            }
            StepSchedule::List(v) => {
                if v.len() != steps {
                    return Err(invalid(
                        field,
                        format!("has {} step sizes, the run has {steps} iterations", v.len()),
                    ));
                }
                for (i, g) in v.iter().enumerate() {
                    if !(g.is_finite() && *g > 0.0) {
                        return Err(bad(format!("[{i}]"), *g));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The data of a run as one contiguous row-major array (read by [`OpOracle::batch_into`]), with
/// the per-point evaluation tally.
pub(crate) struct CountedData<'a> {
    pub(crate) flat: &'a [f64],
    pub(crate) k: usize,
    pub(crate) n: usize,
    pub(crate) counts: Vec<u64>,
}

impl<'a> CountedData<'a> {
    /// The points of S, which must have the operator's point length.
    pub(crate) fn new(op: &dyn MonotoneOp, s: &'a Dataset) -> Result<CountedData<'a>> {
        if s.point_dim() != op.point_dim() {
            return Err(invalid(
                "data",
                format!(
                    "points have length {}, the operator's data points have length {}",
                    s.point_dim(),
                    op.point_dim()
                ),
            ));
        }
        Ok(CountedData {
            flat: s.as_flat(),
            k: s.point_dim(),
            n: s.len(),
            counts: vec![0; s.len()],
        })
    }

    /// out = (1/|idx|) Σ_{i∈idx} G(z; x_i) through the oracle (counted there), with each index
    /// tallied once per occurrence.
    pub(crate) fn batch_mean(
        &mut self,
        oracle: &OpOracle<'_>,
        idx: &[usize],
        z: &[f64],
        out: &mut [f64],
    ) {
        oracle.batch_into(self.flat, self.k, idx, 1.0 / idx.len() as f64, z, out);
        for &i in idx {
            self.counts[i] += 1;
        }
    }
}

/// A batch rule asked for `evaluations` batches of n points (its own checks), and the work
/// `evaluations`·B against [`MAX_WORK`](crate::algorithms::MAX_WORK), the error naming `field`
/// and the count's `formula`.
pub(crate) fn check_batch_work(
    batch: BatchRule,
    n: usize,
    evaluations: usize,
    field: &str,
    formula: &str,
) -> Result<()> {
    batch.validate(n, evaluations)?;
    crate::algorithms::check_work(
        field,
        formula,
        evaluations as u128 * batch.batch_len(n) as u128,
    )
}

/// The ledger of `evaluations` noisy batch-mean releases (each Ĝ = (1/B)Σ_{i∈batch} G(z; x_i) +
/// N(0, σ²I)) under replace-one adjacency: replacing one point moves one summand by at most 2M
/// (M = sup_Z ‖G‖), so each release is a Gaussian mechanism of ℓ2 sensitivity 2M/B (BG23 §3.1,
/// the sentence before Prop 5). Disjoint and contiguous batches touch each point once: a
/// parallel composition (BG23 Prop 4); full batches compose sequentially; random batches are
/// subsampled mechanisms (with / without replacement, n and B) composed `evaluations` times.
pub fn batch_ledger(
    batch: BatchRule,
    n: usize,
    evaluations: u64,
    sigma: f64,
    operator_bound: f64,
) -> Result<PrivacyLedger> {
    if !(operator_bound.is_finite() && operator_bound > 0.0) {
        return Err(invalid(
            "operator_bound",
            format!("M must be finite and > 0 for the ledger, got {operator_bound}"),
        ));
    }
    let b = batch.batch_len(n) as f64;
    let sens = 2.0 * operator_bound / b;
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / sens,
    };
    let event = match batch {
        BatchRule::Disjoint { .. } | BatchRule::Contiguous { .. } => {
            DpEvent::ParallelComposed(vec![g; evaluations as usize])
        }
        BatchRule::Full => DpEvent::SelfComposed {
            count: evaluations,
            event: Box::new(g),
        },
        BatchRule::WithReplacement { m } => DpEvent::SelfComposed {
            count: evaluations,
            event: Box::new(DpEvent::SampledWithReplacement {
                n: n as u64,
                m: m as u64,
                event: Box::new(g),
            }),
        },
        BatchRule::WithoutReplacement { m } => DpEvent::SelfComposed {
            count: evaluations,
            event: Box::new(DpEvent::SampledWithoutReplacement {
                n: n as u64,
                m: m as u64,
                event: Box::new(g),
            }),
        },
    };
    Ok(PrivacyLedger {
        relation: Neighbouring::ReplaceOne,
        event,
    })
}

/// The operator bound M used by a ledger: the given one, else the family's
/// [`MonotoneOp::constants`] over the data points, else an error naming `operator_bound`.
pub fn operator_bound_for(given: Option<f64>, op: &dyn MonotoneOp, s: &Dataset) -> Result<f64> {
    match given {
        Some(m) => Ok(m),
        None => op
            .constants(&s.points.to_vecs())
            .map(|c| c.bound)
            .map_err(|e| match e {
                Error::Unsupported(_) => invalid(
                    "operator_bound",
                    "σ > 0 needs the operator bound M = sup_Z ‖G‖ for the privacy ledger: give it \
                 (this operator family has no closed-form constants)",
                ),
                other => other,
            }),
    }
}

/// Check a start point against Z (length, finiteness, membership up to 1e-12), naming `field`.
pub(crate) fn check_start(domain: &Domain, field: &str, z: &[f64]) -> Result<()> {
    domain.check_point(field, z)?;
    if !domain.contains(z, 1e-12) {
        return Err(invalid(field, "is not in the domain Z"));
    }
    Ok(())
}

/// The stochastic oracle of the first-order engines: evaluation number e (1-based) of a run
/// draws its batch with [`BatchRule::draw`] at step e from the label `{head}batch/eval=` and, when
/// σ > 0, its noise ξ_e ∼ N(0, σ²I_d) from the label `{head}noise/eval=` (one-shot streams, one
/// label per evaluation), and returns Ĝ_e(z) = (1/B) Σ_{i∈batch_e} G(z; x_i) + ξ_e (summed in
/// batch order from 0.0, then ξ added coordinatewise). Deterministic rules read disjoint or
/// contiguous blocks by e (so the 2T evaluations of single-pass extragradient use 2T disjoint
/// batches, as BG23 Algorithm 1's single-pass variant does).
pub(crate) struct NoisyBatchOracle {
    pub(crate) batch: BatchRule,
    pub(crate) sigma: f64,
    pub(crate) batch_label: crate::rng::StepLabel,
    pub(crate) noise_label: crate::rng::StepLabel,
    pub(crate) idx: Vec<usize>,
    pub(crate) xi: Vec<f64>,
}

impl NoisyBatchOracle {
    /// The oracle of `batch` and σ on n points in dimension d, labels under `head`.
    pub(crate) fn new(
        batch: BatchRule,
        sigma: f64,
        head: &str,
        n: usize,
        d: usize,
    ) -> NoisyBatchOracle {
        NoisyBatchOracle {
            batch,
            sigma,
            batch_label: crate::rng::StepLabel::new(format!("{head}batch/eval=")),
            noise_label: crate::rng::StepLabel::new(format!("{head}noise/eval=")),
            idx: vec![0; batch.batch_len(n)],
            xi: vec![0.0; d],
        }
    }

    /// Ĝ_e(z) into `out` (no allocation unless the source records a tape).
    pub(crate) fn estimate(
        &mut self,
        e: u64,
        z: &[f64],
        noise: &mut NoiseSource,
        oracle: &OpOracle<'_>,
        data: &mut CountedData<'_>,
        out: &mut [f64],
    ) -> Result<()> {
        self.batch
            .draw(noise, &self.batch_label, e, data.n, &mut self.idx)?;
        data.batch_mean(oracle, &self.idx, z, out);
        if self.sigma > 0.0 {
            noise.gaussian_at(&self.noise_label, e, self.sigma, &mut self.xi)?;
            for (o, x) in out.iter_mut().zip(&self.xi) {
                *o += x;
            }
        }
        Ok(())
    }
}
