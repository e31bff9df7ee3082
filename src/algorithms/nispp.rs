//! NISPP: noisy inexact stochastic proximal point (BG23 Algorithm 2), with a choice of inner solver.
//!
//! ```text
//! w_0 ∈ W
//! for k = 0, 1, …, K:                                   (K + 1 iterations; step s = k + 1)
//!     B_{k+1} ⊆ S                                       (a BatchRule at step s)
//!     u_{k+1} ← VI_ν(W, F_{B_{k+1}}(·) + λ_k(· − w_k))   (an InnerSolver)
//!     w_{k+1} ← u_{k+1} + ξ_{k+1},  ξ_{k+1} ∼ N(0, σ²I_d)
//! w̄_K = Σ_k γ_k w_{k+1} / Σ_k γ_k
//! output Π_W(w̄_K)
//! ```
//!
//! u_{k+1} is ν-approximate when ⟨F_B(u) + λ_k(u − w_k), w − u⟩ ≥ −ν for every w ∈ W (BG23
//! (5.1)); its certificate ν_cert(u) = sup_{w∈W} ⟨G(u), u − w⟩ (G the subproblem operator) is
//! recorded at every step (counted apart, as `certificate_evals`). The inner solvers:
//! * [`InnerSolver::Exact`]: the certified resolvent ([`crate::solve::vi::resolvent`]);
//! * [`InnerSolver::OeCertificate`]: operator extrapolation (BG23 Algorithm 3, γ = 1/(2(L + λ)),
//!   κ = λ/(L + λ) + 1, started at Π_W(w_k)) stopped at the first iterate with ν_cert ≤ ν — the
//!   corrected reading (E-BG23-43, E-BG23-44);
//! * [`InnerSolver::OeRemark3`]: the same OE run for Remark 3 (1)'s printed count
//!   ⌈((L + λ)/λ)·ln(D/ζ)⌉ with ζ = ν/[LD + M + 2λD] — the literal reading;
//! * [`InnerSolver::OeIterations`]: OE for a fixed count;
//! * [`InnerSolver::Adversarial`]: an admissible adversary (a test double): from the resolvent
//!   u* it moves along u* − w_k as far as W and ν_cert ≤ ν allow, so it uses its whole slack ν
//!   (the instance of `bg23.prop9` on which Prop 9's sharp form is attained).
//!
//! Streams: the batch of step s from `{prefix}nispp/batch/step=s` (random rules only), ξ_{s} from
//! `{prefix}nispp/noise/step=s` (σ > 0 only). The inner solvers draw nothing. The privacy
//! ledger prices each release u_{k+1} + ξ_{k+1} at Prop 9's sensitivity 4M/(λ_kB) when ν meets
//! Prop 9's condition ν ≤ 2M²/(λ_kB²), else at the sharp form M/(λB) + √(M²/(λB)² + 2ν/λ)
//! ([`crate::papers::bg23::nispp::release_sensitivity`]); disjoint batches compose in parallel
//! (Prop 4), random ones as subsampled Gaussians composed K + 1 times (Thm 1).
//!
//! Each step copies its batch into a small dataset (B rows) for the inner solver; the inner
//! solvers' own loops allocate nothing per iteration.

use crate::algorithms::operator_extrapolation::{OeStop, OperatorExtrapolation};
use crate::algorithms::vi::{
    check_batch_work, check_start, operator_bound_for, StepSchedule, ViAlgorithm, ViDiagnostics,
    ViOutput,
};
use crate::error::{invalid, Error, Result};
use crate::oracle::OpOracle;
use crate::papers::bg23::nispp::{
    oe_parameters, release_sensitivity, remark3_oe_count, remark3_zeta, NisppItem, NisppPolicy,
};
use crate::papers::Reading;
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};
use crate::problem::monotone::RegularizedOp;
use crate::problem::{Dataset, Mixture, MonotoneOp, Rows};
use crate::rng::{NoiseSource, StepLabel};
use crate::sampling::BatchRule;
use crate::solve::vi::{resolvent, ViProblem, ViSolveOptions};
use serde::{Deserialize, Serialize};

/// How line 4 of Algorithm 2 is solved.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum InnerSolver {
    /// The certified resolvent (ν_cert at the rounding floor).
    Exact,
    /// OE stopped on ν_cert ≤ ν, at most `max_iterations` iterations (corrected).
    OeCertificate {
        /// The cap ≥ 1.
        max_iterations: usize,
    },
    /// OE for Remark 3 (1)'s printed count (literal).
    OeRemark3,
    /// OE for a fixed count T ≥ 1.
    OeIterations(usize),
    /// The admissible adversary (test double, see the module doc).
    Adversarial,
}

/// NISPP (BG23 Algorithm 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nispp {
    /// K + 1 ≥ 1, the outer iterations k = 0..K.
    pub iterations: usize,
    /// λ_0..λ_K (entry s = k + 1 of the schedule is λ_k).
    pub lambda: StepSchedule,
    /// γ_0..γ_K, the averaging weights.
    pub gamma: StepSchedule,
    /// ν ≥ 0 of (5.1).
    pub nu: f64,
    /// σ ≥ 0 of every ξ_{k+1}.
    pub sigma: f64,
    /// How B_{k+1} is drawn.
    pub batch: BatchRule,
    /// The inner solver.
    pub inner: InnerSolver,
    /// w_0 ∈ W.
    pub start: Vec<f64>,
    /// M for the ledger and Remark 3's count (None: the family's constants over the data).
    #[serde(default)]
    pub operator_bound: Option<f64>,
    /// L of every F_β (None: the family's constants over the data).
    #[serde(default)]
    pub lipschitz: Option<f64>,
    /// Prepended to every stream label.
    #[serde(default)]
    pub label_prefix: String,
}

/// One outer iteration of a traced run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NisppStep {
    /// B_{k+1}.
    pub batch: Vec<usize>,
    /// w_k.
    pub w_prev: Vec<f64>,
    /// u_{k+1}.
    pub u: Vec<f64>,
    /// ξ_{k+1} (empty when σ = 0).
    pub xi: Vec<f64>,
    /// w_{k+1}.
    pub w: Vec<f64>,
    /// ν_cert(u_{k+1}).
    pub nu_certificate: f64,
    /// Inner iterations made.
    pub inner_iterations: usize,
    /// Inner operator evaluations.
    pub inner_evals: u64,
    /// The OE iterates z_1..z_{T+1} (OE inner solvers, traced runs only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inner_iterates: Vec<Vec<f64>>,
}

/// The diagnostics of a [`Nispp`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NisppDiagnostics {
    /// K + 1.
    pub nispp_iterations: usize,
    /// The inner solver.
    pub inner: InnerSolver,
    /// ν.
    pub nu: f64,
    /// σ.
    pub sigma: f64,
    /// The batch rule.
    pub batch: BatchRule,
    /// The largest ν_cert(u_{k+1}) over the run.
    pub max_nu_certificate: f64,
    /// Whether every ν_cert(u_{k+1}) ≤ ν.
    pub nu_met: bool,
    /// Inner iterations, summed.
    pub inner_iterations: usize,
    /// Evaluations spent on the recorded certificates (B per step).
    pub certificate_evals: u64,
    /// The M used (ledger, Remark 3's count).
    pub operator_bound: Option<f64>,
    /// The L used.
    pub lipschitz: f64,
    /// The sensitivity each release is priced at (σ > 0), per step.
    pub sensitivity: Vec<f64>,
    /// Γ_K.
    pub gamma_sum: f64,
    /// w̄_K before the projection.
    pub w_bar: Vec<f64>,
    /// ū_K = Σγ_k u_{k+1}/Γ_K.
    pub u_bar: Vec<f64>,
}

/// A traced run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NisppRun {
    /// The output.
    pub output: ViOutput,
    /// The steps k = 0..K.
    pub steps: Vec<NisppStep>,
}

/// What an inner solve returns: u_{k+1}, inner iterations, evaluations, traced OE iterates.
type Solved = (Vec<f64>, usize, u64, Vec<Vec<f64>>);

/// ν_cert(u) = ⟨G(u), u⟩ + σ_W(−G(u)) of the mean of `op` over `mix` (BG23 (5.1)), through a
/// counted oracle; `g` is a work buffer.
fn certificate(oracle: &OpOracle<'_>, mix: &Mixture, u: &[f64], g: &mut [f64]) -> f64 {
    oracle.mixture_into(mix, u, g);
    let mut inner = 0.0;
    for (gi, ui) in g.iter_mut().zip(u) {
        inner += *gi * ui;
        *gi = -*gi;
    }
    inner + oracle.op().domain().support(g)
}

impl Nispp {
    /// NISPP with K + 1 iterations, constant λ and γ = 1, ν, σ, the batch rule, inner solver and
    /// w_0 (the policies' shape); errors name the parameter.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        iterations: usize,
        lambda: f64,
        nu: f64,
        sigma: f64,
        batch: BatchRule,
        inner: InnerSolver,
        start: Vec<f64>,
    ) -> Result<Nispp> {
        let a = Nispp {
            iterations,
            lambda: StepSchedule::Constant(lambda),
            gamma: StepSchedule::Constant(1.0),
            nu,
            sigma,
            batch,
            inner,
            start,
            operator_bound: None,
            lipschitz: None,
            label_prefix: String::new(),
        };
        a.validate_params()?;
        Ok(a)
    }

    /// The run of a printed policy ([`crate::papers::bg23::nispp::policy`]): K + 1, λ₀, ν and σ
    /// of its schedule with γ = 1; batches of B drawn with replacement (Thm 7's multi-pass) or
    /// disjoint (Cor 2 and Remark 3 (2), single passes); M for the ledger; the inner solver and
    /// w_0 given.
    pub fn from_policy(
        pol: &NisppPolicy,
        m_bound: f64,
        inner: InnerSolver,
        start: Vec<f64>,
    ) -> Result<Nispp> {
        let size = |field: &str, v: u64| {
            usize::try_from(v).map_err(|_| invalid(field, format!("{v} does not fit a usize")))
        };
        let b = size("batch", pol.schedule.batch)?;
        let batch = match pol.item {
            NisppItem::Thm7 => BatchRule::WithReplacement { m: b },
            NisppItem::Cor2 | NisppItem::Remark3Nondp => BatchRule::Disjoint { size: b },
        };
        Nispp::new(
            size("iterations", pol.schedule.iterations)?,
            pol.schedule.lambda0,
            pol.schedule.nu,
            pol.sigma,
            batch,
            inner,
            start,
        )?
        .with_operator_bound(m_bound)
    }

    /// Use M.
    pub fn with_operator_bound(mut self, m: f64) -> Result<Nispp> {
        crate::error::require_positive("operator_bound", m)?;
        self.operator_bound = Some(m);
        Ok(self)
    }

    /// Use L.
    pub fn with_lipschitz(mut self, l: f64) -> Result<Nispp> {
        crate::error::require_nonnegative("lipschitz", l)?;
        self.lipschitz = Some(l);
        Ok(self)
    }

    /// Averaging weights γ_0..γ_K.
    pub fn with_gamma(mut self, gamma: StepSchedule) -> Result<Nispp> {
        gamma.validate("gamma", self.iterations)?;
        self.gamma = gamma;
        Ok(self)
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> Nispp {
        self.label_prefix = prefix.into();
        self
    }

    /// What does not depend on the operator and the data.
    pub fn validate_params(&self) -> Result<()> {
        if self.iterations == 0 {
            return Err(invalid("iterations", "K + 1 must be >= 1"));
        }
        self.lambda.validate("lambda", self.iterations)?;
        self.gamma.validate("gamma", self.iterations)?;
        crate::error::require_nonnegative("nu", self.nu)?;
        crate::error::require_nonnegative("sigma", self.sigma)?;
        match self.inner {
            InnerSolver::OeCertificate { max_iterations: 0 } | InnerSolver::OeIterations(0) => {
                return Err(invalid("inner", "an OE iteration count must be >= 1"));
            }
            InnerSolver::OeRemark3 if self.nu <= 0.0 => {
                return Err(invalid("nu", "Remark 3's count needs ν > 0"));
            }
            _ => {}
        }
        if let Some(m) = self.operator_bound {
            crate::error::require_positive("operator_bound", m)?;
        }
        if let Some(l) = self.lipschitz {
            crate::error::require_nonnegative("lipschitz", l)?;
        }
        crate::error::require_finite("start", &self.start)
    }

    /// Everything, against the operator and n points.
    pub fn validate(&self, op: &dyn MonotoneOp, n: usize) -> Result<()> {
        self.validate_params()?;
        check_start(op.domain(), "start", &self.start)?;
        check_batch_work(self.batch, n, self.iterations, "iterations", "(K + 1)·B")
    }

    /// The run (no trace).
    pub fn run_plain(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<ViOutput> {
        self.run_inner(op, s, noise, None, None)
    }

    /// The run, keeping every step.
    pub fn run_traced(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<NisppRun> {
        let mut steps = Vec::with_capacity(self.iterations);
        let output = self.run_inner(op, s, noise, None, Some(&mut steps))?;
        Ok(NisppRun { output, steps })
    }

    /// The traced run with the batches B_1..B_{K+1} given instead of drawn (for enumerating
    /// every index draw exactly: `bg23.thm6`); each batch must have the rule's length.
    pub fn run_with_batches(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
        batches: &[Vec<usize>],
    ) -> Result<NisppRun> {
        if batches.len() != self.iterations {
            return Err(invalid(
                "batches",
                format!(
                    "{} batches for K + 1 = {} iterations",
                    batches.len(),
                    self.iterations
                ),
            ));
        }
        let mut steps = Vec::with_capacity(self.iterations);
        let output = self.run_inner(op, s, noise, Some(batches), Some(&mut steps))?;
        Ok(NisppRun { output, steps })
    }

    fn run_inner(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
        given: Option<&[Vec<usize>]>,
        mut trace: Option<&mut Vec<NisppStep>>,
    ) -> Result<ViOutput> {
        if s.point_dim() != op.point_dim() {
            return Err(invalid(
                "data",
                format!(
                    "points have length {}, the operator's {}",
                    s.point_dim(),
                    op.point_dim()
                ),
            ));
        }
        let n = s.len();
        self.validate(op, n)?;
        let needs_m = self.sigma > 0.0 || self.inner == InnerSolver::OeRemark3;
        let bound = if needs_m {
            Some(operator_bound_for(self.operator_bound, op, s)?)
        } else {
            self.operator_bound
        };
        let lipschitz = match self.lipschitz {
            Some(l) => l,
            None => op.constants(&s.points.to_vecs()).map(|c| c.lipschitz).map_err(|e| match e {
                Error::Unsupported(_) => invalid(
                    "lipschitz",
                    "NISPP's inner solvers need L: give it (no closed-form constants for this operator)",
                ),
                other => other,
            })?,
        };
        let dom = op.domain();
        let d = op.dim();
        let b = self.batch.batch_len(n);
        let head = format!("{}nispp/", self.label_prefix);
        let batch_label = StepLabel::new(format!("{head}batch/step="));
        let noise_label = StepLabel::new(format!("{head}noise/step="));
        let mut counts = vec![0u64; n];
        let mut idx = vec![0usize; b];
        let mut w = self.start.clone();
        let mut xi = vec![0.0; d];
        let mut g = vec![0.0; d];
        let mut sum_w = vec![0.0; d];
        let mut sum_u = vec![0.0; d];
        let mut gamma_sum = 0.0;
        let mut max_cert = f64::NEG_INFINITY;
        let mut inner_total = 0usize;
        let mut cert_evals = 0u64;
        let mut sens = Vec::new();
        for k in 0..self.iterations {
            let step = k as u64 + 1;
            match given {
                Some(bs) => {
                    if bs[k].len() != b || bs[k].iter().any(|&i| i >= n) {
                        return Err(invalid(
                            format!("batches[{k}]"),
                            format!("must hold {b} indices < n = {n}"),
                        ));
                    }
                    idx.copy_from_slice(&bs[k]);
                }
                None => self.batch.draw(noise, &batch_label, step, n, &mut idx)?,
            }
            let mut rows = Rows::with_capacity(b, s.point_dim());
            for &i in &idx {
                rows.push(s.point(i))?;
            }
            let sub = Dataset::from_rows(rows)?;
            let mix = Mixture::empirical(&sub);
            let lambda = self.lambda.at(k + 1);
            let reg = RegularizedOp::new(op, vec![(lambda, w.clone())])?;
            let (u, inner_iters, inner_evals, iterates) = self.solve(
                op,
                &reg,
                &sub,
                &mix,
                &w,
                lambda,
                lipschitz,
                bound,
                trace.is_some(),
            )?;
            for &i in &idx {
                counts[i] += inner_evals / b as u64;
            }
            let cert_oracle = OpOracle::new(&reg);
            let cert = certificate(&cert_oracle, &mix, &u, &mut g);
            cert_evals += cert_oracle.evals();
            max_cert = max_cert.max(cert);
            inner_total += inner_iters;
            let mut w_next = u.clone();
            if self.sigma > 0.0 {
                noise.gaussian_at(&noise_label, step, self.sigma, &mut xi)?;
                for (wi, x) in w_next.iter_mut().zip(&xi) {
                    *wi += x;
                }
                let m = bound.expect("σ > 0 resolves M");
                sens.push(release_sensitivity(m, lambda, b as u64, self.nu));
            }
            let gamma = self.gamma.at(k + 1);
            gamma_sum += gamma;
            crate::linalg::axpy(gamma, &w_next, &mut sum_w);
            crate::linalg::axpy(gamma, &u, &mut sum_u);
            if let Some(tr) = trace.as_deref_mut() {
                tr.push(NisppStep {
                    batch: idx.clone(),
                    w_prev: w.clone(),
                    u: u.clone(),
                    xi: if self.sigma > 0.0 {
                        xi.clone()
                    } else {
                        Vec::new()
                    },
                    w: w_next.clone(),
                    nu_certificate: cert,
                    inner_iterations: inner_iters,
                    inner_evals,
                    inner_iterates: iterates,
                });
            }
            w = w_next;
        }
        let w_bar: Vec<f64> = sum_w.iter().map(|v| v / gamma_sum).collect();
        let u_bar: Vec<f64> = sum_u.iter().map(|v| v / gamma_sum).collect();
        let z = dom.project(&w_bar);
        let ledger = if self.sigma > 0.0 {
            Some(release_ledger(self.batch, n, &sens, self.sigma))
        } else {
            None
        };
        let evals = counts.iter().sum();
        Ok(ViOutput {
            z,
            evals,
            evals_per_point: counts,
            ledger,
            info: ViDiagnostics::Nispp(NisppDiagnostics {
                nispp_iterations: self.iterations,
                inner: self.inner,
                nu: self.nu,
                sigma: self.sigma,
                batch: self.batch,
                max_nu_certificate: max_cert,
                nu_met: max_cert <= self.nu,
                inner_iterations: inner_total,
                certificate_evals: cert_evals,
                operator_bound: bound,
                lipschitz,
                sensitivity: sens,
                gamma_sum,
                w_bar,
                u_bar,
            }),
        })
    }

    /// Line 4: u_{k+1} with the inner iterations, the evaluations of F_β made, and (traced OE
    /// runs) the OE iterates.
    #[allow(clippy::too_many_arguments)]
    fn solve(
        &self,
        op: &dyn MonotoneOp,
        reg: &RegularizedOp<&dyn MonotoneOp>,
        sub: &Dataset,
        mix: &Mixture,
        w: &[f64],
        lambda: f64,
        lipschitz: f64,
        bound: Option<f64>,
        traced: bool,
    ) -> Result<Solved> {
        let dom = op.domain();
        let exact = || -> Result<(Vec<f64>, usize, u64)> {
            let p = ViProblem::new(op, mix, &[])?;
            let opts = ViSolveOptions {
                lipschitz: Some(lipschitz),
                modulus: Some(0.0),
                ..ViSolveOptions::default()
            };
            let r = resolvent(&p, w, lambda, &opts)?;
            Ok((r.solution.z, r.solution.iterations, r.solution.evals))
        };
        let oe = |stop: OeStop| -> Result<Solved> {
            let (gamma, kappa) = oe_parameters(lipschitz, lambda);
            let alg = OperatorExtrapolation::new(
                gamma,
                kappa,
                stop,
                dom.project(w),
                BatchRule::Full,
                0.0,
            )?;
            let mut quiet = NoiseSource::sample(0);
            if traced {
                let run = alg.run_traced(reg, sub, &mut quiet)?;
                let it = match &run.output.info {
                    ViDiagnostics::OperatorExtrapolation(dg) => dg.iterations,
                    _ => 0,
                };
                Ok((run.output.z, it, run.output.evals, run.trace.iterates))
            } else {
                let out = alg.run(reg, sub, &mut quiet)?;
                let it = match &out.info {
                    ViDiagnostics::OperatorExtrapolation(dg) => dg.iterations,
                    _ => 0,
                };
                Ok((out.z, it, out.evals, Vec::new()))
            }
        };
        match self.inner {
            InnerSolver::Exact => {
                let (u, it, ev) = exact()?;
                Ok((u, it, ev, Vec::new()))
            }
            InnerSolver::OeCertificate { max_iterations } => oe(OeStop::Certificate {
                nu: self.nu,
                max_iterations,
            }),
            InnerSolver::OeIterations(t) => oe(OeStop::Iterations(t)),
            InnerSolver::OeRemark3 => {
                let m = bound.expect("Remark 3's count resolves M");
                let dd = dom.diameter();
                let zeta = remark3_zeta(
                    self.nu,
                    m,
                    dd,
                    lipschitz,
                    lambda,
                    0.0,
                    Reading::PaperLiteral,
                );
                oe(OeStop::Iterations(remark3_oe_count(
                    lipschitz, lambda, dd, zeta,
                )))
            }
            InnerSolver::Adversarial => {
                let (ustar, it, ev) = exact()?;
                let (u, extra) = adversary(reg, mix, &ustar, w, self.nu)?;
                Ok((u, it, ev + extra, Vec::new()))
            }
        }
    }
}

/// The admissible adversary: from u*, along e = (u* − w_k)/‖u* − w_k‖ (the first coordinate
/// axis when u* = w_k), the farthest u = u* + te in W with ν_cert(u) ≤ ν (bisection, 200 halvings
/// at most; the returned point is always admissible).
fn adversary(
    reg: &RegularizedOp<&dyn MonotoneOp>,
    mix: &Mixture,
    ustar: &[f64],
    w: &[f64],
    nu: f64,
) -> Result<(Vec<f64>, u64)> {
    let dom = reg.domain();
    let d = ustar.len();
    let mut e = crate::linalg::sub(ustar, w);
    let norm = crate::linalg::norm2(&e);
    if norm > 0.0 {
        e.iter_mut().for_each(|v| *v /= norm);
    } else {
        e = vec![0.0; d];
        e[0] = 1.0;
    }
    let at = |t: f64| -> Vec<f64> { ustar.iter().zip(&e).map(|(u, ei)| u + t * ei).collect() };
    let oracle = OpOracle::new(reg);
    let mut g = vec![0.0; d];
    let mut cert = |u: &[f64]| certificate(&oracle, mix, u, &mut g);
    // The exit point of the ray from W.
    let (mut lo, mut hi) = (0.0, dom.diameter().max(f64::MIN_POSITIVE));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if dom.contains(&at(mid), 0.0) {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo <= 1e-15 * hi {
            break;
        }
    }
    let t_max = lo;
    let c0 = cert(ustar);
    if c0 > nu {
        return Err(Error::NotCertified(format!(
            "the resolvent's ν_cert {c0:e} exceeds ν = {nu:e}: no admissible adversarial move"
        )));
    }
    if cert(&at(t_max)) <= nu {
        return Ok((at(t_max), oracle.evals()));
    }
    let (mut a, mut bnd) = (0.0, t_max);
    for _ in 0..200 {
        let mid = 0.5 * (a + bnd);
        if cert(&at(mid)) <= nu {
            a = mid;
        } else {
            bnd = mid;
        }
        if bnd - a <= 1e-15 * bnd {
            break;
        }
    }
    Ok((at(a), oracle.evals()))
}

/// The ledger of the K + 1 releases with sensitivities `sens` (one per step) and σ: disjoint or
/// contiguous batches in parallel (Prop 4); full batches composed; random batches as
/// subsampled Gaussians, self-composed when every step has the same sensitivity.
pub fn release_ledger(batch: BatchRule, n: usize, sens: &[f64], sigma: f64) -> PrivacyLedger {
    let g = |s: f64| DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    let wrap = |e: DpEvent| match batch {
        BatchRule::WithReplacement { m } => DpEvent::SampledWithReplacement {
            n: n as u64,
            m: m as u64,
            event: Box::new(e),
        },
        BatchRule::WithoutReplacement { m } => DpEvent::SampledWithoutReplacement {
            n: n as u64,
            m: m as u64,
            event: Box::new(e),
        },
        _ => e,
    };
    let event = match batch {
        BatchRule::Disjoint { .. } | BatchRule::Contiguous { .. } => {
            DpEvent::ParallelComposed(sens.iter().map(|&s| g(s)).collect())
        }
        _ => {
            if sens.iter().all(|&s| s == sens[0]) {
                DpEvent::SelfComposed {
                    count: sens.len() as u64,
                    event: Box::new(wrap(g(sens[0]))),
                }
            } else {
                DpEvent::Composed(sens.iter().map(|&s| wrap(g(s))).collect())
            }
        }
    };
    PrivacyLedger {
        relation: Neighbouring::ReplaceOne,
        event,
    }
}

impl ViAlgorithm for Nispp {
    fn name(&self) -> String {
        format!(
            "nispp(K+1={}, {:?}, ν={}, σ={}, {:?}, {:?})",
            self.iterations, self.lambda, self.nu, self.sigma, self.batch, self.inner
        )
    }

    fn run(&self, op: &dyn MonotoneOp, s: &Dataset, noise: &mut NoiseSource) -> Result<ViOutput> {
        self.run_plain(op, s, noise)
    }
}
