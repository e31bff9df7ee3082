//! Operator extrapolation (OE) and optimistic gradient descent–ascent (OGDA) as one
//! implementation: BG23 Appendix B, Algorithm 3 (after Kotsalis, Lan and Li's OE method).
//!
//! ```text
//! z_0 = z_1 ∈ Z
//! for t = 1..T:
//!     g_t = Ĝ_t(z_t)                                     (batch B_t, noise ξ_t; evaluation e = t)
//!     z_{t+1} = Π_Z(z_t − γ [g_t + (1/κ)(g_t − g_{t−1})])   (g_0 := g_1, as z_0 = z_1)
//! output z_{T+1}
//! ```
//!
//! BG23 Algorithm 3 line 3 is the argmin of (1/(2(L+λ)))⟨F_k(z_t) + (1/κ)[F_k(z_t) −
//! F_k(z_{t−1})], w⟩ + ½‖w − z_t‖², i.e. this step with γ = 1/(2(L + λ_k)) and
//! κ = λ_k/(L + λ_k) + 1 for the λ_k-regularized operator F_k (the regularization belongs to the operator passed
//! in). κ = 1 is OGDA: z_{t+1} = Π_Z(z_t − γ[2g_t − g_{t−1}]). The parameters keep the paper's
//! names: `gamma` the step, `kappa` with extrapolation weight 1/κ.
//!
//! Each iteration makes **one** batch evaluation: g_{t−1} is kept from the previous iteration
//! (B evaluations per step, as BG23's proof of Thm 7 counts, not the 2B of Remark 3). Estimates
//! Ĝ_t = (1/B)Σ_{i∈B_t} G(·; x_i) + ξ_t, ξ_t ∼ N(0, σ²I), batch label `{prefix}oe/batch/eval=t`,
//! noise label `{prefix}oe/noise/eval=t` (nothing drawn when σ = 0).
//!
//! Stop: a fixed count T, or the ν-certificate of an approximate strong VI solution (BG23
//! (5.1)): stop at the first z_{t+1} with ν(z_{t+1}) = ⟨F_S(z), z⟩ + σ_Z(−F_S(z)) ≤ ν
//! ([`crate::problem::monotone::stampacchia_gap`] of the empirical operator F_S, computed exactly
//! from all n points; those evaluations are reported as `certificate_evals`, apart from the
//! algorithm's). The certificate reads the data without noise, so a certificate stop takes σ = 0.

use crate::algorithms::vi::{
    batch_ledger, check_batch_work, check_start, operator_bound_for, CountedData, EuclideanProx,
    NoisyBatchOracle, ProxStep, ViAlgorithm, ViDiagnostics, ViOutput,
};
use crate::error::{invalid, Result};
use crate::oracle::OpOracle;
use crate::problem::{Dataset, Mixture, MonotoneOp};
use crate::rng::NoiseSource;
use crate::sampling::BatchRule;
use serde::{Deserialize, Serialize};

/// When the iteration stops.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OeStop {
    /// Exactly T ≥ 1 iterations.
    Iterations(usize),
    /// At the first iterate whose ν-certificate (BG23 (5.1)) is ≤ `nu`, after at most
    /// `max_iterations` iterations (then `certified` is false).
    Certificate {
        /// ν ≥ 0.
        nu: f64,
        /// The iteration cap ≥ 1.
        max_iterations: usize,
    },
}

impl OeStop {
    /// The most iterations the rule allows.
    pub fn cap(&self) -> usize {
        match *self {
            OeStop::Iterations(t) => t,
            OeStop::Certificate { max_iterations, .. } => max_iterations,
        }
    }
}

/// Operator extrapolation / OGDA (BG23 Algorithm 3).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorExtrapolation {
    /// γ > 0, the step (BG23: 1/(2(L + λ_k))).
    pub gamma: f64,
    /// κ > 0: the extrapolation weight is 1/κ (BG23: λ_k/(L + λ_k) + 1; OGDA: 1).
    pub kappa: f64,
    /// The stop rule.
    pub stop: OeStop,
    /// z_0 = z_1 ∈ Z.
    pub start: Vec<f64>,
    /// How each evaluation samples the data.
    pub batch: BatchRule,
    /// σ ≥ 0 of the Gaussian noise per evaluation.
    pub sigma: f64,
    /// M for the ledger when σ > 0 (None: the family's constants over the data).
    #[serde(default)]
    pub operator_bound: Option<f64>,
    /// Prepended to every stream label.
    #[serde(default)]
    pub label_prefix: String,
    /// Allow z_0 = z_1 outside Z (BG23 Algorithm 3 line 1 starts at the NISPP iterate w_k, which
    /// may lie outside W); the operator is then evaluated there once, so it must be defined off
    /// Z (affine operators, [`crate::problem::ClampedOp`]). Default false: the start must be in Z.
    #[serde(default)]
    pub exterior_start: bool,
}

/// The diagnostics of an [`OperatorExtrapolation`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorExtrapolationDiagnostics {
    /// γ.
    pub gamma: f64,
    /// κ.
    pub kappa: f64,
    /// The stop rule.
    pub stop: OeStop,
    /// Iterations made.
    pub iterations: usize,
    /// The batch rule.
    pub batch: BatchRule,
    /// σ.
    pub sigma: f64,
    /// The prox step.
    pub prox: String,
    /// ν(z_out) under a certificate stop.
    pub certificate: Option<f64>,
    /// Whether the certificate reached ν (false for a fixed count).
    pub certified: bool,
    /// Evaluations spent on certificates (n per check).
    pub certificate_evals: u64,
    /// The M the ledger used (σ > 0).
    pub operator_bound: Option<f64>,
}

/// The trajectory of a traced run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OperatorExtrapolationTrace {
    /// z_1..z_{T+1}.
    pub iterates: Vec<Vec<f64>>,
    /// The batch of each evaluation t = 1..T.
    pub indices: Vec<Vec<usize>>,
    /// ξ_t (empty vectors when σ = 0).
    pub noise: Vec<Vec<f64>>,
    /// g_t = Ĝ_t(z_t).
    pub estimates: Vec<Vec<f64>>,
}

/// A traced run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OperatorExtrapolationRun {
    /// The output.
    pub output: ViOutput,
    /// The trajectory.
    pub trace: OperatorExtrapolationTrace,
}

impl OperatorExtrapolation {
    /// OE with step γ > 0, κ > 0 (finite), the stop rule, start, batch rule and σ ≥ 0; errors
    /// name the parameter.
    pub fn new(
        gamma: f64,
        kappa: f64,
        stop: OeStop,
        start: Vec<f64>,
        batch: BatchRule,
        sigma: f64,
    ) -> Result<OperatorExtrapolation> {
        let a = OperatorExtrapolation {
            gamma,
            kappa,
            stop,
            start,
            batch,
            sigma,
            operator_bound: None,
            label_prefix: String::new(),
            exterior_start: false,
        };
        a.validate_params()?;
        Ok(a)
    }

    /// Use M for the ledger.
    pub fn with_operator_bound(mut self, m: f64) -> Result<OperatorExtrapolation> {
        crate::error::require_positive("operator_bound", m)?;
        self.operator_bound = Some(m);
        Ok(self)
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> OperatorExtrapolation {
        self.label_prefix = prefix.into();
        self
    }

    /// Allow a start outside Z (see [`OperatorExtrapolation::exterior_start`]).
    pub fn with_exterior_start(mut self) -> OperatorExtrapolation {
        self.exterior_start = true;
        self
    }

    /// What does not depend on the operator and the data.
    pub fn validate_params(&self) -> Result<()> {
        if !(self.gamma.is_finite() && self.gamma > 0.0) {
            return Err(invalid(
                "gamma",
                format!("must be finite and > 0, got {}", self.gamma),
            ));
        }
        if !(self.kappa.is_finite() && self.kappa > 0.0) {
            return Err(invalid(
                "kappa",
                format!("must be finite and > 0, got {}", self.kappa),
            ));
        }
        match self.stop {
            OeStop::Iterations(0) => return Err(invalid("stop.iterations", "T must be >= 1")),
            OeStop::Certificate { nu, max_iterations } => {
                if !(nu.is_finite() && nu >= 0.0) {
                    return Err(invalid(
                        "stop.certificate.nu",
                        format!("must be finite and >= 0, got {nu}"),
                    ));
                }
                if max_iterations == 0 {
                    return Err(invalid("stop.certificate.max_iterations", "must be >= 1"));
                }
                if self.sigma != 0.0 {
                    return Err(invalid(
                        "sigma",
                        "a certificate stop reads the data without noise (no privacy): use σ = 0 \
                         or a fixed iteration count",
                    ));
                }
            }
            OeStop::Iterations(_) => {}
        }
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(invalid(
                "sigma",
                format!("must be finite and >= 0, got {}", self.sigma),
            ));
        }
        if let Some(m) = self.operator_bound {
            crate::error::require_positive("operator_bound", m)?;
        }
        crate::error::require_finite("start", &self.start)
    }

    /// Everything, against the operator and n points.
    pub fn validate(&self, op: &dyn MonotoneOp, n: usize) -> Result<()> {
        self.validate_params()?;
        if self.exterior_start {
            op.domain().check_point("start", &self.start)?;
        } else {
            check_start(op.domain(), "start", &self.start)?;
        }
        check_batch_work(self.batch, n, self.stop.cap(), "stop", "T·B")
    }

    /// The run (no trace) with a given prox step.
    pub fn run_with(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
        prox: &dyn ProxStep,
    ) -> Result<ViOutput> {
        self.run_inner(op, s, noise, prox, None)
    }

    /// The run, keeping the iterates, batches, noise and estimates.
    pub fn run_traced(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<OperatorExtrapolationRun> {
        let mut trace = OperatorExtrapolationTrace::default();
        let output = self.run_inner(op, s, noise, &EuclideanProx, Some(&mut trace))?;
        Ok(OperatorExtrapolationRun { output, trace })
    }

    fn run_inner(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
        prox: &dyn ProxStep,
        mut trace: Option<&mut OperatorExtrapolationTrace>,
    ) -> Result<ViOutput> {
        let mut data = CountedData::new(op, s)?;
        self.validate(op, data.n)?;
        let bound = match (self.sigma > 0.0, self.stop) {
            (true, OeStop::Iterations(_)) => Some(operator_bound_for(self.operator_bound, op, s)?),
            _ => None,
        };
        let oracle = OpOracle::new(op);
        let cert_oracle = OpOracle::new(op);
        let dom = op.domain();
        let d = op.dim();
        let head = format!("{}oe/", self.label_prefix);
        let mut est = NoisyBatchOracle::new(self.batch, self.sigma, &head, data.n, d);
        let inv_kappa = 1.0 / self.kappa;
        let mixture = match self.stop {
            OeStop::Certificate { .. } => Some(Mixture::empirical(s)),
            OeStop::Iterations(_) => None,
        };
        let mut z = self.start.clone();
        let mut z_next = vec![0.0; d];
        let mut g = vec![0.0; d];
        let mut g_prev = vec![0.0; d];
        let mut dir = vec![0.0; d];
        let mut fbar = vec![0.0; d];
        let mut certificate = None;
        let mut certified = false;
        let mut iterations = 0;
        if let Some(tr) = trace.as_deref_mut() {
            tr.iterates.push(z.clone());
        }
        for t in 1..=self.stop.cap() {
            est.estimate(t as u64, &z, noise, &oracle, &mut data, &mut g)?;
            if t == 1 {
                g_prev.copy_from_slice(&g);
            }
            for ((dk, gk), pk) in dir.iter_mut().zip(&g).zip(&g_prev) {
                *dk = gk + inv_kappa * (gk - pk);
            }
            prox.step(dom, &z, self.gamma, &dir, &mut z_next);
            std::mem::swap(&mut z, &mut z_next);
            std::mem::swap(&mut g, &mut g_prev);
            iterations = t;
            if let Some(tr) = trace.as_deref_mut() {
                tr.indices.push(est.idx.clone());
                tr.noise.push(if self.sigma > 0.0 {
                    est.xi.clone()
                } else {
                    Vec::new()
                });
                tr.estimates.push(g_prev.clone());
                tr.iterates.push(z.clone());
            }
            if let (Some(mix), OeStop::Certificate { nu, .. }) = (&mixture, self.stop) {
                cert_oracle.mixture_into(mix, &z, &mut fbar);
                let mut inner = 0.0;
                for (f, zk) in fbar.iter_mut().zip(&z) {
                    inner += *f * zk;
                    *f = -*f;
                }
                let v = inner + dom.support(&fbar);
                certificate = Some(v);
                if v <= nu {
                    certified = true;
                    break;
                }
            }
        }
        let ledger = match bound {
            Some(m) => Some(batch_ledger(
                self.batch,
                data.n,
                iterations as u64,
                self.sigma,
                m,
            )?),
            None => None,
        };
        Ok(ViOutput {
            z,
            evals: oracle.evals(),
            evals_per_point: data.counts,
            ledger,
            info: ViDiagnostics::OperatorExtrapolation(OperatorExtrapolationDiagnostics {
                gamma: self.gamma,
                kappa: self.kappa,
                stop: self.stop,
                iterations,
                batch: self.batch,
                sigma: self.sigma,
                prox: prox.name().to_string(),
                certificate,
                certified,
                certificate_evals: cert_oracle.evals(),
                operator_bound: bound,
            }),
        })
    }
}

impl ViAlgorithm for OperatorExtrapolation {
    fn name(&self) -> String {
        format!(
            "operator_extrapolation(γ={}, κ={}, {:?}, {:?}, σ={})",
            self.gamma, self.kappa, self.stop, self.batch, self.sigma
        )
    }

    fn run(&self, op: &dyn MonotoneOp, s: &Dataset, noise: &mut NoiseSource) -> Result<ViOutput> {
        self.run_with(op, s, noise, &EuclideanProx)
    }
}
