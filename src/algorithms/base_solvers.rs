//! Base solvers for ZTOH22's bring-your-own-algorithm wrappers (the paper's 𝒜): one interface,
//! several solvers, each with the accuracy guarantee it provides.
//!
//! **The problem** ([`Subproblem`]): the finite-sum operator of a batch of points plus a
//! per-coordinate (hence per-block) regularizer,
//!
//! Φ(z) = (1/m) Σ_{i ∈ batch} G(z; ξ_i) + Λ(z − a),   Λ = diag(λ_1, …, λ_d) ⪰ 0,
//!
//! on the operator's domain Z: G = ∇f for a minimization (ZTOH22 Algorithms 1, 2), the saddle
//! operator (∇_x f, −∇_y f) for a saddle problem (Algorithms 3–5). Algorithm 4's regularizer
//! (μ_k/2)‖x − x̃_{k−1}‖² − (μ/2)‖y‖² is Λ = diag(μ_k 1_x, μ 1_y), a = (x̃_{k−1}, 0).
//!
//! **The requirement** ([`Requirement`]): the weighted distance ‖z − z*‖_w = (Σ_i w_i (z_i −
//! z*_i)²)^{1/2} ≤ r with probability ≥ 1 − p (Algorithm 1: w = 1, r = L/(μn), p = δ/4;
//! Algorithm 3: w = (μ_x, μ_y) per block, r = L/(n√μ), p = δ/8; see
//! [`crate::papers::ztoh22::schedules`]).
//!
//! **The guarantee** ([`Guarantee`]) a solver returns: `Certified` (almost surely: an a-posteriori
//! distance certificate ‖z − z*‖ ≤ b, so ‖z − z*‖_w ≤ √(max w)·b ≤ r), `InExpectation` (a proven
//! bound on E‖z − z*‖_w² ≤ p r², so Markov gives the requirement), or `Adversarial` (the test
//! double: the point is placed by construction).
//!
//! Solvers (every evaluation G(·; ξ_i) through the counted [`OpOracle`]):
//! * [`Certified`]: the VI core's certified projected extragradient ([`vi_solution_counted`]);
//! * [`EngineExtragradient`], [`EngineOgda`]: the engine's full-batch extragradient / OGDA
//!   ([`Extragradient`], [`OperatorExtrapolation`] with κ = 1), run in chunks from the start and
//!   stopped at the first chunk end whose residual distance certificate meets the requirement;
//! * [`Svrg`]: Prox-SVRG for minimization (Xiao–Zhang 2014, projection as the prox) and SVRG with
//!   forward steps for saddle problems (Palaniappan–Bach 2016, the method ZTOH22 Remark 3 cites
//!   as "SVRG"), epochs chosen from their proven contractions (proofs-notes/ztoh22.md, Part 1);
//! * [`Adversary`]: the worst point the requirement allows in a given direction, optionally the
//!   farthest point of Z with probability p.

use crate::algorithms::extragradient::{Averaging, Extragradient};
use crate::algorithms::operator_extrapolation::{OeStop, OperatorExtrapolation};
use crate::algorithms::vi::{StepSchedule, ViDiagnostics};
use crate::error::{invalid, require_finite, Error, Result};
use crate::geometry::Domain;
use crate::linalg;
use crate::oracle::OpOracle;
use crate::problem::monotone::MonotoneOp;
use crate::problem::{Dataset, Mixture};
use crate::rng::NoiseSource;
use crate::sampling::BatchRule;
use crate::solve::vi::{
    distance_certificate, vi_solution_counted, ViCertified, ViProblem, ViSolveOptions,
};
use serde::{Deserialize, Serialize};

/// The fraction of the requirement's Euclidean radius below which a stalled certificate of the
/// exact solve is accepted ([`Subproblem::solve_exact_for`]).
pub const EXACT_STALL_FRACTION: f64 = 1e-4;

/// Minimization (G = ∇f, the Prox-SVRG analysis applies) or a saddle problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// G(·; ξ) = ∇f(·; ξ) of a convex f.
    Minimization,
    /// G = (∇_x f, −∇_y f) of a convex–concave f.
    Saddle,
}

/// The operator of the per-coordinate regularizer added to every sample: G(z; ξ) + Λ(z − a).
/// Since the batch weights sum to one, the mean operator of the wrapped family is Φ.
pub struct RegularizedBatchOp<'a> {
    inner: &'a dyn MonotoneOp,
    lambda: &'a [f64],
    anchor: &'a [f64],
}

impl MonotoneOp for RegularizedBatchOp<'_> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }
    fn point_dim(&self) -> usize {
        self.inner.point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; z.len()];
        self.eval_into(z, x, &mut out);
        out
    }
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        self.inner.eval_into(z, x, out);
        for i in 0..out.len() {
            out[i] += self.lambda[i] * (z[i] - self.anchor[i]);
        }
    }
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        self.inner.add_scaled(z, x, s, out);
        for i in 0..out.len() {
            out[i] += s * (self.lambda[i] * (z[i] - self.anchor[i]));
        }
    }
    /// The inner family's batched path with the regularizer term s·λ_i(z_i − a_i) (computed once,
    /// the same bits as in `add_scaled`) added after each sample: the bits of successive
    /// `add_scaled` calls, without the per-sample setup of the inner family.
    fn add_batch_scaled(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        out: &mut [f64],
    ) {
        crate::problem::monotone::with_scratch(out.len(), |tail| {
            for i in 0..tail.len() {
                tail[i] = s * (self.lambda[i] * (z[i] - self.anchor[i]));
            }
            self.inner
                .add_batch_scaled_tail(z, flat, k, idx, s, tail, out);
        })
    }
    fn vi_gap(&self, _data: &Mixture, _z: &[f64]) -> Result<f64> {
        Err(Error::Unsupported(
            "VI gap of a per-coordinate regularized batch operator".into(),
        ))
    }
}

/// A regularized finite-sum problem on a batch (module doc).
pub struct Subproblem<'a> {
    /// G(z; ξ) on Z.
    pub op: &'a dyn MonotoneOp,
    /// The batch of points (weights 1/m).
    pub batch: &'a Dataset,
    /// λ_i ≥ 0 per coordinate.
    pub lambda: Vec<f64>,
    /// The anchor a (any point of ℝᵈ).
    pub anchor: Vec<f64>,
    /// μ_F ≥ 0: the strong monotonicity of every G(·; ξ) (regularizer excluded).
    pub modulus: f64,
    /// L_G: the Lipschitz constant of every G(·; ξ) on Z (regularizer excluded).
    pub lipschitz: f64,
    /// Minimization or saddle.
    pub kind: ProblemKind,
}

impl<'a> Subproblem<'a> {
    /// The problem Φ = mean of G over `batch` + Λ(z − a), with the family's constants over the
    /// batch ([`MonotoneOp::constants`]).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `lambda` / `anchor` (length, sign, finiteness) or `batch`;
    /// [`Error::Unsupported`] when the family has no constants; [`Error::Invalid`] naming
    /// `lambda` when μ_F + min λ is not > 0 (no strong monotonicity).
    pub fn new(
        op: &'a dyn MonotoneOp,
        batch: &'a Dataset,
        lambda: Vec<f64>,
        anchor: Vec<f64>,
        kind: ProblemKind,
    ) -> Result<Subproblem<'a>> {
        let c = op.constants(&batch.points.to_vecs())?;
        Self::with_constants(op, batch, lambda, anchor, c.modulus, c.lipschitz, kind)
    }

    /// As [`Subproblem::new`] with given constants μ_F, L_G.
    ///
    /// # Errors
    /// As [`Subproblem::new`], and naming `modulus` / `lipschitz`.
    pub fn with_constants(
        op: &'a dyn MonotoneOp,
        batch: &'a Dataset,
        lambda: Vec<f64>,
        anchor: Vec<f64>,
        modulus: f64,
        lipschitz: f64,
        kind: ProblemKind,
    ) -> Result<Subproblem<'a>> {
        let d = op.dim();
        if batch.is_empty() || batch.point_dim() != op.point_dim() {
            return Err(invalid(
                "batch",
                "must be non-empty with the operator's point length",
            ));
        }
        if lambda.len() != d || anchor.len() != d {
            return Err(invalid(
                "lambda",
                format!("lambda and anchor need length {d}"),
            ));
        }
        require_finite("anchor", &anchor)?;
        if lambda.iter().any(|l| !(l.is_finite() && *l >= 0.0)) {
            return Err(invalid("lambda", "must be finite and ≥ 0"));
        }
        if !(modulus.is_finite() && modulus >= 0.0) {
            return Err(invalid("modulus", "must be finite and ≥ 0"));
        }
        if !(lipschitz.is_finite() && lipschitz >= modulus) {
            return Err(invalid("lipschitz", "must be finite and ≥ the modulus"));
        }
        let p = Subproblem {
            op,
            batch,
            lambda,
            anchor,
            modulus,
            lipschitz,
            kind,
        };
        if p.mu_total() <= 0.0 {
            return Err(invalid(
                "lambda",
                "μ_F + min λ must be > 0: the problem is not strongly monotone",
            ));
        }
        Ok(p)
    }

    /// The regularized per-sample family G(·; ξ) + Λ(· − a).
    pub fn regularized_op(&self) -> RegularizedBatchOp<'_> {
        RegularizedBatchOp {
            inner: self.op,
            lambda: &self.lambda,
            anchor: &self.anchor,
        }
    }

    /// μ of Φ: μ_F + min λ.
    pub fn mu_total(&self) -> f64 {
        self.modulus + self.lambda.iter().cloned().fold(f64::INFINITY, f64::min)
    }

    /// The per-sample Lipschitz constant of G + Λ(· − a): L_G + max λ.
    pub fn l_total(&self) -> f64 {
        self.lipschitz + self.lambda.iter().cloned().fold(0.0, f64::max)
    }

    /// The VI core's options carrying these constants (the family is not asked again).
    pub fn vi_options(&self) -> ViSolveOptions {
        ViSolveOptions {
            modulus: Some(self.mu_total()),
            lipschitz: Some(self.l_total()),
            ..ViSolveOptions::default()
        }
    }

    /// The exact solution z* to the VI core's certified precision, counted on `oracle` (an
    /// oracle of [`Subproblem::regularized_op`]: one evaluation per sample, as G's).
    ///
    /// # Errors
    /// As [`vi_solution_counted`].
    pub fn solve_exact(&self, oracle: &OpOracle, start: &[f64]) -> Result<ViCertified> {
        self.solve_exact_with(oracle, start, self.vi_options())
    }

    /// As [`Subproblem::solve_exact`], but a stalled certificate (the rounding floor, which on
    /// ill-conditioned phases, L_Φ/μ_Φ up to n, lies above the core's relative 1e-10) is accepted
    /// once it is ≤ [`EXACT_STALL_FRACTION`] of the requirement's Euclidean radius r/√(max w).
    /// The point is then still within 1e-4·r of z*, certified.
    ///
    /// # Errors
    /// As [`vi_solution_counted`].
    pub fn solve_exact_for(
        &self,
        oracle: &OpOracle,
        start: &[f64],
        req: &Requirement,
    ) -> Result<ViCertified> {
        let mut o = self.vi_options();
        let scale = 1.0 + self.op.domain().max_norm();
        let within = EXACT_STALL_FRACTION * req.radius / req.w_max().sqrt() / scale;
        o.stall_tol = o.stall_tol.max(within);
        self.solve_exact_with(oracle, start, o)
    }

    fn solve_exact_with(
        &self,
        oracle: &OpOracle,
        start: &[f64],
        mut o: ViSolveOptions,
    ) -> Result<ViCertified> {
        let rop = self.regularized_op();
        let mix = Mixture::empirical(self.batch);
        let p = ViProblem::new(&rop, &mix, &[])?;
        o.start = Some(start.to_vec());
        vi_solution_counted(&p, oracle, &o)
    }

    /// The residual distance certificate ‖z − z*‖ ≤ b at z (one full pass, counted on
    /// `oracle`, an oracle of [`Subproblem::regularized_op`]).
    ///
    /// # Errors
    /// As [`distance_certificate`].
    pub fn certificate(&self, oracle: &OpOracle, z: &[f64]) -> Result<f64> {
        let rop = self.regularized_op();
        let mix = Mixture::empirical(self.batch);
        let p = ViProblem::new(&rop, &mix, &[])?;
        distance_certificate(&p, oracle, z, &self.vi_options())
    }
}

/// What the wrapper requires of 𝒜: ‖z − z*‖_w ≤ r with probability ≥ 1 − p.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Requirement {
    /// w_i > 0 per coordinate.
    pub weights: Vec<f64>,
    /// r > 0.
    pub radius: f64,
    /// p ∈ [0, 1).
    pub failure_probability: f64,
}

impl Requirement {
    /// Check the fields against dimension d.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `weights`, `radius` or `failure_probability`.
    pub fn validate(&self, d: usize) -> Result<()> {
        if self.weights.len() != d || self.weights.iter().any(|w| !(w.is_finite() && *w > 0.0)) {
            return Err(invalid("weights", format!("need {d} finite entries > 0")));
        }
        if !(self.radius.is_finite() && self.radius > 0.0) {
            return Err(invalid("radius", "must be finite and > 0"));
        }
        if !(0.0..1.0).contains(&self.failure_probability) {
            return Err(invalid("failure_probability", "must be in [0, 1)"));
        }
        Ok(())
    }

    /// max_i w_i.
    pub fn w_max(&self) -> f64 {
        self.weights.iter().cloned().fold(0.0, f64::max)
    }

    /// ‖a − b‖_w.
    pub fn distance(&self, a: &[f64], b: &[f64]) -> f64 {
        let mut s = 0.0;
        for ((x, y), w) in a.iter().zip(b).zip(&self.weights) {
            s += w * (x - y) * (x - y);
        }
        s.sqrt()
    }

    /// Whether a Euclidean certificate ‖z − z*‖ ≤ b meets the radius: √(max w)·b ≤ r.
    pub fn met_by_certificate(&self, b: f64) -> bool {
        self.w_max().sqrt() * b <= self.radius
    }
}

/// The guarantee that comes with a base solver's point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Guarantee {
    /// Almost surely: ‖z − z*‖ ≤ `distance_bound` (an a-posteriori certificate).
    Certified {
        /// b.
        distance_bound: f64,
    },
    /// A proven E‖z − z*‖_w² ≤ `expected_sq_bound` (≤ p r²; Markov gives the requirement).
    InExpectation {
        /// The bound on E‖z − z*‖_w².
        expected_sq_bound: f64,
        /// The probability Markov gives: bound / r².
        failure_bound: f64,
    },
    /// Placed by the adversary (test double): `failed` when the failure branch was taken.
    Adversarial {
        /// Whether the failure branch (the farthest point of Z) was taken.
        failed: bool,
    },
}

/// A base solver's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BaseSolution {
    /// The point z ∈ Z.
    pub z: Vec<f64>,
    /// Per-sample evaluations G(·; ξ_i) made (certificates included).
    pub evals: u64,
    /// Iterations (solver-specific: extragradient steps, OGDA steps, SVRG epochs).
    pub iterations: usize,
    /// The guarantee.
    pub guarantee: Guarantee,
}

/// The paper's 𝒜: solve a [`Subproblem`] from `start` to a [`Requirement`].
pub trait BaseSolver: Sync {
    /// Name for reports.
    fn name(&self) -> String;
    /// Solve; randomness (if any) from `noise` under labels starting with `label`.
    fn solve(
        &self,
        p: &Subproblem,
        req: &Requirement,
        start: &[f64],
        noise: &mut NoiseSource,
        label: &str,
    ) -> Result<BaseSolution>;
}

fn check_inputs(p: &Subproblem, req: &Requirement, start: &[f64]) -> Result<()> {
    req.validate(p.op.dim())?;
    p.op.domain().check_point("start", start)?;
    Ok(())
}

/// The VI core's certified solver run to its own precision (relative 1e-14, or a stalled bound
/// within 1e-4 of the requirement: [`Subproblem::solve_exact_for`]), then checked against
/// the requirement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Certified;

impl BaseSolver for Certified {
    fn name(&self) -> String {
        "certified".into()
    }
    fn solve(
        &self,
        p: &Subproblem,
        req: &Requirement,
        start: &[f64],
        _noise: &mut NoiseSource,
        _label: &str,
    ) -> Result<BaseSolution> {
        check_inputs(p, req, start)?;
        let rop = p.regularized_op();
        let c = p.solve_exact_for(&OpOracle::new(&rop), start, req)?;
        if !req.met_by_certificate(c.dist_bound) {
            return Err(Error::NotCertified(format!(
                "certified solver's bound {:e} does not meet radius {:e}",
                c.dist_bound, req.radius
            )));
        }
        Ok(BaseSolution {
            z: c.z,
            evals: c.evals,
            iterations: c.iterations,
            guarantee: Guarantee::Certified {
                distance_bound: c.dist_bound,
            },
        })
    }
}

/// Chunked engine runs stopped on the certificate (shared by extragradient and OGDA).
fn chunked(
    p: &Subproblem,
    req: &Requirement,
    start: &[f64],
    chunk: usize,
    max_chunks: usize,
    mut run: impl FnMut(&RegularizedBatchOp, &[f64]) -> Result<(Vec<f64>, u64)>,
) -> Result<BaseSolution> {
    check_inputs(p, req, start)?;
    let rop = p.regularized_op();
    let counter = OpOracle::new(&rop);
    let mut engine_evals = 0u64;
    let mut z = p.op.domain().project(start);
    for c in 1..=max_chunks {
        let (next, evals) = run(&rop, &z)?;
        engine_evals += evals;
        z = next;
        let b = p.certificate(&counter, &z)?;
        if req.met_by_certificate(b) {
            return Ok(BaseSolution {
                z,
                evals: engine_evals + counter.evals(),
                iterations: c * chunk,
                guarantee: Guarantee::Certified { distance_bound: b },
            });
        }
    }
    Err(Error::NotCertified(format!(
        "engine run did not meet radius {:e} in {} iterations",
        req.radius,
        max_chunks * chunk
    )))
}

/// The engine's full-batch projected extragradient ([`Extragradient`], step 1/(2L_Φ), base-point
/// output) in chunks of `chunk` iterations, each continuing from the last base point, stopped at
/// the first chunk end whose residual certificate meets the requirement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineExtragradient {
    /// Iterations per chunk (≥ 1).
    pub chunk: usize,
    /// Chunks before giving up.
    pub max_chunks: usize,
}

impl Default for EngineExtragradient {
    fn default() -> Self {
        EngineExtragradient {
            chunk: 16,
            max_chunks: 100_000,
        }
    }
}

impl BaseSolver for EngineExtragradient {
    fn name(&self) -> String {
        "extragradient".into()
    }
    fn solve(
        &self,
        p: &Subproblem,
        req: &Requirement,
        start: &[f64],
        noise: &mut NoiseSource,
        _label: &str,
    ) -> Result<BaseSolution> {
        let eta = 0.5 / p.l_total();
        let chunk = self.chunk.max(1);
        chunked(p, req, start, chunk, self.max_chunks, |rop, z| {
            let eg = Extragradient::new(
                chunk,
                StepSchedule::Constant(eta),
                z.to_vec(),
                BatchRule::Full,
                0.0,
                Averaging::Base,
            )?;
            let out = crate::algorithms::vi::ViAlgorithm::run(&eg, rop, p.batch, noise)?;
            let ViDiagnostics::Extragradient(d) = out.info else {
                return Err(invalid("info", "extragradient diagnostics expected"));
            };
            Ok((d.last_base, out.evals))
        })
    }
}

/// The engine's full-batch OGDA ([`OperatorExtrapolation`] with κ = 1, step 1/(4L_Φ)) in chunks
/// (each a restart z_0 = z_1 at the last iterate), stopped on the certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineOgda {
    /// Iterations per chunk (≥ 1).
    pub chunk: usize,
    /// Chunks before giving up.
    pub max_chunks: usize,
}

impl Default for EngineOgda {
    fn default() -> Self {
        EngineOgda {
            chunk: 32,
            max_chunks: 100_000,
        }
    }
}

impl BaseSolver for EngineOgda {
    fn name(&self) -> String {
        "ogda".into()
    }
    fn solve(
        &self,
        p: &Subproblem,
        req: &Requirement,
        start: &[f64],
        noise: &mut NoiseSource,
        _label: &str,
    ) -> Result<BaseSolution> {
        let gamma = 0.25 / p.l_total();
        let chunk = self.chunk.max(1);
        chunked(p, req, start, chunk, self.max_chunks, |rop, z| {
            let oe = OperatorExtrapolation::new(
                gamma,
                1.0,
                OeStop::Iterations(chunk),
                z.to_vec(),
                BatchRule::Full,
                0.0,
            )?;
            let out = crate::algorithms::vi::ViAlgorithm::run(&oe, rop, p.batch, noise)?;
            Ok((out.z, out.evals))
        })
    }
}

/// Which SVRG.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SvrgVariant {
    /// Prox-SVRG (Xiao–Zhang 2014) for minimization: η = 0.1/L, m = ⌈100 L/μ⌉ inner steps, the
    /// epoch's average as the next snapshot; E[P(x̃_s) − P*] ≤ ρ^s (P(x̃_0) − P*) with
    /// ρ = 1/(μη(1 − 4Lη)m) + 4Lη(m + 1)/((1 − 4Lη)m) < 1, P(x̃_0) − P* ≤ ‖∇P(x̃_0)‖·diam Z,
    /// ‖x − x*‖² ≤ (2/μ)(P(x) − P*).
    ProxMinimization,
    /// SVRG with forward steps for strongly monotone operators (Palaniappan–Bach 2016): η =
    /// μ/(4L²), m = ⌈(8/3)(L/μ)² ln 4⌉ inner steps, the last iterate as the next snapshot;
    /// E‖z̃_{s+1} − z*‖² ≤ (7/12) E‖z̃_s − z*‖², ‖z̃_0 − z*‖ ≤ diam Z.
    ForwardSaddle,
}

/// SVRG, epochs from the proven contraction so that E‖z − z*‖_w² ≤ p r² (Markov: the requirement
/// holds with probability ≥ 1 − p). Needs p > 0. Index draws: `{label}svrg/epoch=s` (m indices
/// in [0, m_batch) per epoch).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Svrg {
    /// The variant.
    pub variant: SvrgVariant,
    /// Multiply the radius the epochs are chosen for (1: the requirement; > 1 a looser target,
    /// for the negative control of `ztoh22.base_solver_accuracy`).
    #[serde(default = "one")]
    pub target_scale: f64,
}

fn one() -> f64 {
    1.0
}

impl Svrg {
    /// Prox-SVRG for minimization.
    pub fn prox() -> Svrg {
        Svrg {
            variant: SvrgVariant::ProxMinimization,
            target_scale: 1.0,
        }
    }
    /// SVRG with forward steps for saddle problems.
    pub fn forward() -> Svrg {
        Svrg {
            variant: SvrgVariant::ForwardSaddle,
            target_scale: 1.0,
        }
    }
    /// (η, m, ρ) of the variant for μ, L: step, inner steps, the per-epoch contraction (of the
    /// function value for Prox-SVRG, of E‖Δ‖² for the forward variant).
    pub fn parameters(&self, mu: f64, l: f64) -> (f64, usize, f64) {
        match self.variant {
            SvrgVariant::ProxMinimization => {
                let eta = 0.1 / l;
                let m = (100.0 * l / mu).ceil().max(1.0);
                let q = 1.0 - 4.0 * l * eta;
                let rho = 1.0 / (mu * eta * q * m) + 4.0 * l * eta * (m + 1.0) / (q * m);
                (eta, m as usize, rho)
            }
            SvrgVariant::ForwardSaddle => {
                let eta = mu / (4.0 * l * l);
                let m = ((8.0 / 3.0) * (l / mu).powi(2) * 4f64.ln()).ceil().max(1.0);
                (eta, m as usize, 7.0 / 12.0)
            }
        }
    }
}

impl BaseSolver for Svrg {
    fn name(&self) -> String {
        match self.variant {
            SvrgVariant::ProxMinimization => "prox_svrg".into(),
            SvrgVariant::ForwardSaddle => "svrg_forward".into(),
        }
    }
    fn solve(
        &self,
        p: &Subproblem,
        req: &Requirement,
        start: &[f64],
        noise: &mut NoiseSource,
        label: &str,
    ) -> Result<BaseSolution> {
        check_inputs(p, req, start)?;
        if req.failure_probability <= 0.0 {
            return Err(invalid(
                "failure_probability",
                "an in-expectation solver needs p > 0",
            ));
        }
        if self.variant == SvrgVariant::ProxMinimization && p.kind != ProblemKind::Minimization {
            return Err(invalid(
                "variant",
                "Prox-SVRG's guarantee needs a minimization (G = ∇f)",
            ));
        }
        let (mu, l) = (p.mu_total(), p.l_total());
        let (eta, m, rho) = self.parameters(mu, l);
        let rop = p.regularized_op();
        let oracle = OpOracle::new(&rop);
        let dom = p.op.domain();
        let d = p.op.dim();
        let nb = p.batch.len();
        let flat = p.batch.as_flat();
        let k = p.batch.point_dim();
        let mut snap = dom.project(start);
        let mut full = vec![0.0; d];
        let mix = Mixture::empirical(p.batch);
        oracle.mixture_into(&mix, &snap, &mut full);
        let diam = dom.diameter();
        let target = p_r2(req, self.target_scale);
        // The initial bound on E‖z̃_0 − z*‖_w² (or on P(x̃_0) − P*), then epochs.
        let (mut bound, to_wsq) = match self.variant {
            SvrgVariant::ProxMinimization => (
                linalg::norm2(&full) * diam,
                2.0 * req.w_max() / mu, // ‖·‖_w² ≤ w_max‖·‖² ≤ w_max (2/μ)(P − P*)
            ),
            SvrgVariant::ForwardSaddle => (diam * diam, req.w_max()),
        };
        let mut epochs = 0usize;
        while bound * to_wsq > target {
            bound *= rho;
            epochs += 1;
            if epochs > 10_000 {
                return Err(invalid("radius", "SVRG would need more than 10⁴ epochs"));
            }
        }
        let (mut z, mut gz, mut gs, mut avg) =
            (vec![0.0; d], vec![0.0; d], vec![0.0; d], vec![0.0; d]);
        for s in 1..=epochs {
            let idx = noise.indices(&format!("{label}svrg/epoch={s}"), m, nb)?;
            z.copy_from_slice(&snap);
            avg.iter_mut().for_each(|v| *v = 0.0);
            for &i in &idx {
                let x = &flat[i * k..(i + 1) * k];
                oracle.eval_into(&z, x, &mut gz);
                oracle.eval_into(&snap, x, &mut gs);
                for j in 0..d {
                    z[j] -= eta * (gz[j] - gs[j] + full[j]);
                }
                dom.project_in_place(&mut z);
                linalg::axpy(1.0 / m as f64, &z, &mut avg);
            }
            match self.variant {
                SvrgVariant::ProxMinimization => snap.copy_from_slice(&dom.project(&avg)),
                SvrgVariant::ForwardSaddle => snap.copy_from_slice(&z),
            }
            if s < epochs {
                oracle.mixture_into(&mix, &snap, &mut full);
            }
        }
        let expected_sq_bound = bound * to_wsq;
        Ok(BaseSolution {
            z: snap,
            evals: oracle.evals(),
            iterations: epochs,
            guarantee: Guarantee::InExpectation {
                expected_sq_bound,
                failure_bound: expected_sq_bound / (req.radius * req.radius),
            },
        })
    }
}

/// p·(scale·r)²: the E‖Δ‖_w² an in-expectation solver must reach.
fn p_r2(req: &Requirement, scale: f64) -> f64 {
    req.failure_probability * (scale * req.radius).powi(2)
}

/// The admissible adversary (a test double for 𝒜): z = z* + t·u with t the largest step along the
/// direction u that keeps ‖z − z*‖_w ≤ r (less the certificate of z*, and a relative 1e-12, so
/// that the requirement holds for the true z*); with probability `failure` (drawn from
/// `{label}adversary/fail`, one uniform) the farthest point of Z from z* instead. z* comes from
/// the certified solver (counted). The point must lie in Z (else an error naming `direction`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adversary {
    /// The direction u (length dim Z, not zero).
    pub direction: Vec<f64>,
    /// The probability of the failure branch (0: never; must be ≤ the requirement's p to be
    /// admissible).
    pub failure: f64,
}

impl BaseSolver for Adversary {
    fn name(&self) -> String {
        format!("adversary(p={})", self.failure)
    }
    fn solve(
        &self,
        p: &Subproblem,
        req: &Requirement,
        start: &[f64],
        noise: &mut NoiseSource,
        label: &str,
    ) -> Result<BaseSolution> {
        check_inputs(p, req, start)?;
        let d = p.op.dim();
        if self.direction.len() != d || self.direction.iter().all(|v| *v == 0.0) {
            return Err(invalid("direction", format!("needs length {d}, not zero")));
        }
        if !(0.0..=1.0).contains(&self.failure) {
            return Err(invalid("failure", "must be in [0, 1]"));
        }
        let rop = p.regularized_op();
        let oracle = OpOracle::new(&rop);
        let exact = p.solve_exact_for(&oracle, start, req)?;
        let dom = p.op.domain();
        let failed = if self.failure > 0.0 {
            noise.uniforms(&format!("{label}adversary/fail"), 1)?[0] < self.failure
        } else {
            false
        };
        let z = if failed {
            dom.lmo(&linalg::sub(&dom.center(), &exact.z))
        } else {
            let uw = req.distance(&self.direction, &vec![0.0; d]);
            let room = (req.radius - req.w_max().sqrt() * exact.dist_bound) * (1.0 - 1e-12);
            if room <= 0.0 {
                return Err(invalid("radius", "smaller than the certificate of z*"));
            }
            let mut z = exact.z.clone();
            linalg::axpy(room / uw, &self.direction, &mut z);
            if !dom.contains(&z, 0.0) {
                return Err(invalid("direction", "the adversary's point leaves Z"));
            }
            z
        };
        Ok(BaseSolution {
            z,
            evals: oracle.evals(),
            iterations: exact.iterations,
            guarantee: Guarantee::Adversarial { failed },
        })
    }
}
