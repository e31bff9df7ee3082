//! Output perturbation and phased output perturbation (ZTOH22 Algorithms 1–5) around any base
//! solver ([`BaseSolver`], the paper's 𝒜).
//!
//! ```text
//! Alg 1 (SC min):    x = 𝒜(F̂_S; ‖·‖ ≤ L/(μn), p = δ/4);            x̃ = x + N(0, σ²I)
//! Alg 3 (SC-SC):     (x, y) = 𝒜(F̂_S; (μ_x, μ_y)-weighted ≤ L/(n√μ), p = δ/8);
//!                    x̃ = x + N(0, σ_x²I), ỹ = y + N(0, σ_y²I)
//! Alg 2 (C min):     for k = 1..K: x_k = 𝒜(F̂_k + (μ_k/2)‖· − x̃_{k−1}‖²; ‖·‖ ≤ L/(μ_k n̄), δ/4);
//!                    x̃_k = x_k + N(0, σ_k²I);  output x̃_K
//! Alg 4 (C-C, x):    for k = 1..K: (x_k, y_k) = 𝒜(F̂_k + (μ_k/2)‖x − x̃_{k−1}‖² − (μ/2)‖y‖²;
//!                    (μ_k, μ)-weighted ≤ L/(n̄√μ), δ/8); x̃_k = x_k + N(0, σ_k²I); output x̃_K
//! Alg 5 (C-C, y):    the same with the roles of x and y switched (reconstructed by symmetry:
//!                    the paper file lacks Appendix B): regularizer (μ/2)‖x‖² −
//!                    (μ_k/2)‖y − ỹ_{k−1}‖², weights (μ, μ_k), noise on y; output ỹ_K
//! ```
//!
//! K = ⌊log₂ n⌋, n̄ = ⌊n/K⌋, phase k reads the contiguous points (k − 1)n̄..kn̄, the remainder is
//! discarded, μ_k = μ2^k ([`PhaseSchedule`]). Outputs are not projected (the paper releases
//! them as they are; a centre x̃_{k−1} may lie outside X). The solver of phase k starts from the
//! projection of the previous noisy centre (and 0 in the other block, for Algs 4/5): a start that
//! carried y_{k−1} over would make phase k depend on batch k − 1 beyond x̃_{k−1}, outside the
//! parallel-composition argument.
//!
//! Noise: σ (per block, per phase) is the ledger's Gaussian noise multiplier (from
//! [`crate::papers::ztoh22::calibration`]) times the paper's sensitivity
//! ([`crate::papers::ztoh22::schedules`]); the normals come from the labelled stream
//! `ztoh22/alg{a}/phase={k}/noise` (Algs 1, 3: `ztoh22/alg{a}/noise`), so they do not depend on the
//! base solver; the solver draws under `ztoh22/alg{a}/phase={k}/solver/`.

use crate::algorithms::base_solvers::{
    BaseSolver, Guarantee, ProblemKind, Requirement, Subproblem,
};
use crate::error::{invalid, require_positive, Result};
use crate::linalg;
use crate::papers::ztoh22::calibration;
use crate::papers::ztoh22::schedules::{self, PhaseSchedule};
use crate::privacy::{validate_eps_delta, DpEvent, PrivacyLedger};
use crate::problem::monotone::MonotoneOp;
use crate::problem::Dataset;
use crate::rng::NoiseSource;
use serde::{Deserialize, Serialize};

/// Which of ZTOH22's algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZtohAlgorithm {
    /// Algorithm 1: output perturbation, strongly convex minimization.
    Alg1,
    /// Algorithm 2: phased output perturbation, convex minimization.
    Alg2,
    /// Algorithm 3: output perturbation, SC-SC saddle problems.
    Alg3,
    /// Algorithm 4: phased output perturbation, convex–concave (primal).
    Alg4,
    /// Algorithm 5 (reconstructed by symmetry): phased, convex–concave (dual).
    Alg5,
}

impl ZtohAlgorithm {
    fn tag(self) -> &'static str {
        match self {
            ZtohAlgorithm::Alg1 => "alg1",
            ZtohAlgorithm::Alg2 => "alg2",
            ZtohAlgorithm::Alg3 => "alg3",
            ZtohAlgorithm::Alg4 => "alg4",
            ZtohAlgorithm::Alg5 => "alg5",
        }
    }
    fn phased(self) -> bool {
        matches!(
            self,
            ZtohAlgorithm::Alg2 | ZtohAlgorithm::Alg4 | ZtohAlgorithm::Alg5
        )
    }
}

/// ZTOH22 Algorithms 1–5 (module doc).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZtohOutputPerturbation {
    /// Which algorithm.
    pub algorithm: ZtohAlgorithm,
    /// L: the Lipschitz constant of f(·; ξ) (jointly in (x, y) for saddle problems).
    pub lipschitz: f64,
    /// Alg 1: μ; Alg 3: μ_x; Algs 2, 4, 5: the regularizer μ.
    pub mu: f64,
    /// Alg 3: μ_y (ignored otherwise).
    #[serde(default)]
    pub mu_y: f64,
    /// d_x: the first d_x coordinates of z are x (saddle problems; Algs 1, 2: all of z).
    pub d_x: usize,
    /// ε ∈ (0, 1).
    pub epsilon: f64,
    /// δ ∈ (0, 1).
    pub delta: f64,
    /// x̃_0 (Alg 2, 4) or ỹ_0 (Alg 5) of the perturbed block; `None`: 0.
    #[serde(default)]
    pub start: Option<Vec<f64>>,
}

/// One phase (Algs 1, 3: the single solve).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseRecord {
    /// k (1-based; 1 for Algs 1, 3).
    pub k: u64,
    /// The batch's 0-based half-open index range.
    pub range: (usize, usize),
    /// μ_k (Algs 2, 4, 5), μ (Alg 1), μ_x (Alg 3).
    pub mu_k: f64,
    /// The regularizer's anchor (the whole z).
    pub anchor: Vec<f64>,
    /// The per-coordinate regularization Λ.
    pub lambda: Vec<f64>,
    /// What the solver had to meet.
    pub requirement: Requirement,
    /// The solver's start.
    pub start: Vec<f64>,
    /// The solver's point (x_k, or (x_k, y_k)).
    pub solver_point: Vec<f64>,
    /// Its guarantee.
    pub guarantee: Guarantee,
    /// The solver's evaluations in this phase.
    pub evals: u64,
    /// The paper's sensitivity of each perturbed block (Alg 3: x then y).
    pub sensitivity: Vec<f64>,
    /// σ of each perturbed block.
    pub sigma: Vec<f64>,
    /// The noise vector added (the perturbed coordinates, in order).
    pub noise: Vec<f64>,
    /// The released (noisy) perturbed block(s).
    pub released: Vec<f64>,
}

/// A run of one of Algorithms 1–5.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ZtohRun {
    /// The release: x̃ (Alg 1), (x̃, ỹ) (Alg 3), x̃_K (Algs 2, 4), ỹ_K (Alg 5).
    pub release: Vec<f64>,
    /// The ledger of the release.
    pub ledger: PrivacyLedger,
    /// The schedule (None for Algs 1, 3).
    pub schedule: Option<PhaseSchedule>,
    /// Per phase.
    pub phases: Vec<PhaseRecord>,
    /// The solver's name.
    pub solver: String,
    /// Total per-sample evaluations.
    pub evals: u64,
}

impl ZtohOutputPerturbation {
    /// Algorithm 1 with L, μ, (ε, δ) on z of dimension d.
    ///
    /// # Errors
    /// As [`ZtohOutputPerturbation::validate`].
    pub fn alg1(l: f64, mu: f64, d: usize, epsilon: f64, delta: f64) -> Result<Self> {
        Self::build(ZtohAlgorithm::Alg1, l, mu, 0.0, d, epsilon, delta)
    }
    /// Algorithm 2 with L, the regularizer μ, (ε, δ), d.
    ///
    /// # Errors
    /// As [`ZtohOutputPerturbation::validate`].
    pub fn alg2(l: f64, mu: f64, d: usize, epsilon: f64, delta: f64) -> Result<Self> {
        Self::build(ZtohAlgorithm::Alg2, l, mu, 0.0, d, epsilon, delta)
    }
    /// Algorithm 3 with L, μ_x, μ_y, d_x, (ε, δ).
    ///
    /// # Errors
    /// As [`ZtohOutputPerturbation::validate`].
    pub fn alg3(l: f64, mu_x: f64, mu_y: f64, d_x: usize, eps: f64, delta: f64) -> Result<Self> {
        Self::build(ZtohAlgorithm::Alg3, l, mu_x, mu_y, d_x, eps, delta)
    }
    /// Algorithm 4 (`dual` false) or 5 (`dual` true) with L, the regularizer μ, d_x, (ε, δ).
    ///
    /// # Errors
    /// As [`ZtohOutputPerturbation::validate`].
    pub fn alg45(l: f64, mu: f64, d_x: usize, eps: f64, delta: f64, dual: bool) -> Result<Self> {
        let a = if dual {
            ZtohAlgorithm::Alg5
        } else {
            ZtohAlgorithm::Alg4
        };
        Self::build(a, l, mu, 0.0, d_x, eps, delta)
    }

    fn build(
        algorithm: ZtohAlgorithm,
        lipschitz: f64,
        mu: f64,
        mu_y: f64,
        d_x: usize,
        epsilon: f64,
        delta: f64,
    ) -> Result<Self> {
        let a = ZtohOutputPerturbation {
            algorithm,
            lipschitz,
            mu,
            mu_y,
            d_x,
            epsilon,
            delta,
            start: None,
        };
        a.validate()?;
        Ok(a)
    }

    /// Whether this is a single-solve algorithm (1 or 3), without a phase schedule.
    pub fn schedule_free(&self) -> bool {
        !self.algorithm.phased()
    }

    /// Set the start of the perturbed block.
    pub fn with_start(mut self, start: Vec<f64>) -> Self {
        self.start = Some(start);
        self
    }

    /// Check the parameters (errors name them).
    ///
    /// # Errors
    /// [`crate::error::Error::Invalid`] naming `lipschitz`, `mu`, `mu_y`, `d_x`, `epsilon`,
    /// `delta`.
    pub fn validate(&self) -> Result<()> {
        require_positive("lipschitz", self.lipschitz)?;
        require_positive("mu", self.mu)?;
        if self.algorithm == ZtohAlgorithm::Alg3 {
            require_positive("mu_y", self.mu_y)?;
        }
        if self.d_x == 0 {
            return Err(invalid("d_x", "must be ≥ 1"));
        }
        validate_eps_delta(self.epsilon, self.delta)?;
        if self.epsilon >= 1.0 {
            return Err(invalid("epsilon", "ZTOH22 §2.1: ε ∈ (0, 1)"));
        }
        Ok(())
    }

    /// The ledger of the release (from the paper's calibration) and the noise multiplier(s) of
    /// its Gaussian(s): one (Algs 1, 2, 4, 5), or x then y (Alg 3).
    ///
    /// # Errors
    /// As the calibrations.
    pub fn ledger(&self, n: u64) -> Result<(PrivacyLedger, Vec<f64>)> {
        let (l, mu, e, d) = (self.lipschitz, self.mu, self.epsilon, self.delta);
        let cal = match self.algorithm {
            ZtohAlgorithm::Alg1 => calibration::alg1(l, mu, n, e, d)?,
            ZtohAlgorithm::Alg2 => calibration::alg2(l, mu, n, e, d)?,
            ZtohAlgorithm::Alg3 => calibration::alg3(l, mu, self.mu_y, n, e, d)?,
            ZtohAlgorithm::Alg4 | ZtohAlgorithm::Alg5 => calibration::alg4_5(l, mu, n, e, d)?,
        };
        let mut ledger = cal.calibration.ledger;
        if matches!(self.algorithm, ZtohAlgorithm::Alg4 | ZtohAlgorithm::Alg5) {
            // One of the two composed parts: Algorithm 4 (or 5) alone.
            if let DpEvent::Composed(v) = &ledger.event {
                let part = v[0].clone();
                ledger.event = part;
            }
        }
        let mult = crate::algorithms::release_noise::gaussian_multipliers(&ledger.event);
        let mults = match self.algorithm {
            ZtohAlgorithm::Alg3 => mult,
            _ => vec![mult[0]],
        };
        Ok((ledger, mults))
    }

    /// Run on S with the base solver (module doc).
    ///
    /// # Errors
    /// Shapes ([`crate::error::Error::Invalid`] naming `data`, `d_x`, `start`), the solver's
    /// errors, the calibrations' errors.
    pub fn run(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        solver: &dyn BaseSolver,
        noise: &mut NoiseSource,
    ) -> Result<ZtohRun> {
        self.validate()?;
        let d = op.dim();
        if s.point_dim() != op.point_dim() || s.is_empty() {
            return Err(invalid("data", "points must have the operator's length"));
        }
        let saddle = matches!(
            self.algorithm,
            ZtohAlgorithm::Alg3 | ZtohAlgorithm::Alg4 | ZtohAlgorithm::Alg5
        );
        if saddle && self.d_x >= d {
            return Err(invalid("d_x", format!("must be < dim Z = {d}")));
        }
        if !saddle && self.d_x != d {
            return Err(invalid(
                "d_x",
                format!("must be dim Z = {d} for minimization"),
            ));
        }
        let n = s.len() as u64;
        let (ledger, mults) = self.ledger(n)?;
        let tag = self.algorithm.tag();
        let (l, mu) = (self.lipschitz, self.mu);
        let dx = self.d_x;
        let kind = if saddle {
            ProblemKind::Saddle
        } else {
            ProblemKind::Minimization
        };
        // The perturbed block's coordinates.
        let block = match self.algorithm {
            ZtohAlgorithm::Alg5 => dx..d,
            ZtohAlgorithm::Alg3 => 0..d,
            _ => 0..dx,
        };
        let mut phases = Vec::new();
        let mut evals = 0u64;
        if !self.algorithm.phased() {
            let (req, sens) = match self.algorithm {
                ZtohAlgorithm::Alg1 => (
                    Requirement {
                        weights: vec![1.0; d],
                        radius: schedules::alg1_radius(l, mu, n),
                        failure_probability: schedules::alg12_failure(self.delta),
                    },
                    vec![schedules::alg1_sensitivity(l, mu, n)],
                ),
                _ => {
                    let m = mu.min(self.mu_y);
                    let mut w = vec![mu; dx];
                    w.extend(vec![self.mu_y; d - dx]);
                    (
                        Requirement {
                            weights: w,
                            radius: schedules::alg3_radius(l, mu, self.mu_y, n),
                            failure_probability: schedules::alg345_failure(self.delta),
                        },
                        vec![
                            schedules::alg3_sensitivity(l, mu, m, n),
                            schedules::alg3_sensitivity(l, self.mu_y, m, n),
                        ],
                    )
                }
            };
            let p = Subproblem::new(op, s, vec![0.0; d], vec![0.0; d], kind)?;
            let start = op.domain().center();
            let sol = solver.solve(&p, &req, &start, noise, &format!("ztoh22/{tag}/solver/"))?;
            let sigma: Vec<f64> = mults.iter().zip(&sens).map(|(m, s)| m * s).collect();
            let mut xi = noise.normals(&format!("ztoh22/{tag}/noise"), d)?;
            for (i, v) in xi.iter_mut().enumerate() {
                let si = if i < dx {
                    sigma[0]
                } else {
                    sigma[sigma.len() - 1]
                };
                *v *= si;
            }
            let release = linalg::add(&sol.z, &xi);
            evals += sol.evals;
            phases.push(PhaseRecord {
                k: 1,
                range: (0, s.len()),
                mu_k: mu,
                anchor: vec![0.0; d],
                lambda: vec![0.0; d],
                requirement: req,
                start,
                solver_point: sol.z,
                guarantee: sol.guarantee,
                evals: sol.evals,
                sensitivity: sens,
                sigma,
                noise: xi,
                released: release.clone(),
            });
            return Ok(ZtohRun {
                release,
                ledger,
                schedule: None,
                phases,
                solver: solver.name(),
                evals,
            });
        }
        let sched = PhaseSchedule::new(n)?;
        let bl = block.len();
        let mut center = match &self.start {
            Some(v) if v.len() == bl => v.clone(),
            Some(v) => {
                return Err(invalid(
                    "start",
                    format!("has length {}, expected {bl}", v.len()),
                ))
            }
            None => vec![0.0; bl],
        };
        crate::error::require_finite("start", &center)?;
        for k in 1..=sched.phases {
            let mk = schedules::mu_k(mu, k);
            let range = sched.batch(k);
            let batch = s.slice(range.clone());
            let mut lambda = vec![mu; d];
            let mut anchor = vec![0.0; d];
            for i in block.clone() {
                lambda[i] = mk;
                anchor[i] = center[i - block.start];
            }
            let (weights, radius, failure, sens) = match self.algorithm {
                ZtohAlgorithm::Alg2 => (
                    vec![1.0; d],
                    schedules::alg2_radius(l, mk, sched.nbar),
                    schedules::alg12_failure(self.delta),
                    schedules::alg2_sensitivity(l, mk, sched.nbar),
                ),
                _ => (
                    lambda.clone(),
                    schedules::alg45_radius(l, mu, sched.nbar),
                    schedules::alg345_failure(self.delta),
                    schedules::alg45_sensitivity(l, mu, mk, sched.nbar),
                ),
            };
            let req = Requirement {
                weights,
                radius,
                failure_probability: failure,
            };
            let p = Subproblem::new(op, &batch, lambda.clone(), anchor.clone(), kind)?;
            let start = op.domain().project(&anchor);
            let sol = solver.solve(
                &p,
                &req,
                &start,
                noise,
                &format!("ztoh22/{tag}/phase={k}/solver/"),
            )?;
            let sigma = mults[0] * sens;
            let mut xi = noise.normals(&format!("ztoh22/{tag}/phase={k}/noise"), bl)?;
            xi.iter_mut().for_each(|v| *v *= sigma);
            let released: Vec<f64> = block.clone().zip(&xi).map(|(i, x)| sol.z[i] + x).collect();
            evals += sol.evals;
            center = released.clone();
            phases.push(PhaseRecord {
                k,
                range: (range.start, range.end),
                mu_k: mk,
                anchor,
                lambda,
                requirement: req,
                start,
                solver_point: sol.z,
                guarantee: sol.guarantee,
                evals: sol.evals,
                sensitivity: vec![sens],
                sigma: vec![sigma],
                noise: xi,
                released,
            });
        }
        Ok(ZtohRun {
            release: center,
            ledger,
            schedule: Some(sched),
            phases,
            solver: solver.name(),
            evals,
        })
    }
}

/// Algorithms 4 and 5 on the same S (ZTOH22 §4.2, Thm 4.5): (x̃_K, ỹ_K) with the basic
/// composition of the two ledgers (Lemma 2.1).
///
/// # Errors
/// As [`ZtohOutputPerturbation::run`].
#[allow(clippy::too_many_arguments)]
pub fn run_alg4_5(
    l: f64,
    mu: f64,
    d_x: usize,
    epsilon: f64,
    delta: f64,
    op: &dyn MonotoneOp,
    s: &Dataset,
    solver: &dyn BaseSolver,
    noise: &mut NoiseSource,
) -> Result<(ZtohRun, ZtohRun, PrivacyLedger)> {
    let a4 = ZtohOutputPerturbation::alg45(l, mu, d_x, epsilon, delta, false)?;
    let a5 = ZtohOutputPerturbation::alg45(l, mu, d_x, epsilon, delta, true)?;
    let r4 = a4.run(op, s, solver, noise)?;
    let r5 = a5.run(op, s, solver, noise)?;
    let ledger = calibration::alg4_5(l, mu, s.len() as u64, epsilon, delta)?
        .calibration
        .ledger;
    Ok((r4, r5, ledger))
}
