//! Projected stochastic extragradient with Gaussian noise per evaluation: BG23 Algorithm 1
//! (NSEG), with the averaging of BGM24 Algorithm 2 (mirror prox, Euclidean case) as options.
//!
//! ```text
//! u_0 ∈ Z
//! for t = 1..T:
//!     F_{1,t} = Ĝ_{2t−1}                    (batch B¹_t, noise ξ¹_t; evaluation e = 2t − 1)
//!     w_t = Π_Z(u_{t−1} − γ_t F_{1,t}(u_{t−1}))        (the extrapolated point)
//!     F_{2,t} = Ĝ_{2t}                      (batch B²_t, noise ξ²_t; evaluation e = 2t)
//!     u_t = Π_Z(u_{t−1} − γ_t F_{2,t}(w_t))            (the base point)
//! output (Averaging):
//!     Extrapolated  (Σ_t γ_t)^{−1} Σ_{t=1}^T γ_t w_t   (BG23 Algorithm 1 line 8)
//!     Base          (Σ_t γ_t)^{−1} Σ_{t=1}^T γ_t u_t   (BGM24 Algorithm 2 line 5 for constant γ)
//!     RandomIterate u_{t*}, t* uniform on [T]          (BGM24 Algorithm 2 line 6)
//! ```
//!
//! Names are BG23's: u the base points, w the extrapolated points, γ_t the step sizes (issue 14
//! writes the same method with the roles of the letters swapped). Each estimate is
//! Ĝ_e(z) = (1/B) Σ_{i∈B_e} G(z; x_i) + ξ_e with ξ_e ∼ N(0, σ²I_d) (BG23 eq. (3.1)); batches by a
//! [`BatchRule`] at step e from the label `{prefix}eg/batch/eval=e`, noise from
//! `{prefix}eg/noise/eval=e` (nothing drawn when σ = 0), t* from `{prefix}eg/output` (one index
//! in [0, T), t* = index + 1, drawn before the loop). Draw order on a tape: the output index (if
//! any), then per evaluation its batch (random rules only) and its noise (σ > 0 only).
//!
//! Evaluations: exactly 2·T·B, counted per data point ([`ViOutput::evals_per_point`]). The step
//! loop allocates nothing (preallocated buffers, one-shot noise streams, the in-place prox
//! step) unless a trace is asked for or the noise source records a tape; memory is constant in T.

use crate::algorithms::vi::{
    batch_ledger, check_batch_work, check_start, operator_bound_for, CountedData, EuclideanProx,
    NoisyBatchOracle, ProxStep, StepSchedule, ViAlgorithm, ViDiagnostics, ViOutput,
};
use crate::error::{invalid, Result};
use crate::oracle::OpOracle;
use crate::problem::{Dataset, MonotoneOp};
use crate::rng::NoiseSource;
use crate::sampling::BatchRule;
use serde::{Deserialize, Serialize};

/// Which points the output averages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Averaging {
    /// The γ-weighted average of the extrapolated points w_1..w_T (BG23 Algorithm 1).
    Extrapolated,
    /// The γ-weighted average of the base points u_1..u_T (BGM24 Algorithm 2, SSP output).
    Base,
    /// The base point u_{t*} with t* uniform on \[T\] (BGM24 Algorithm 2, SVI output).
    RandomIterate,
}

/// Projected stochastic extragradient (BG23 Algorithm 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Extragradient {
    /// T ≥ 1 iterations (2T evaluations).
    pub steps: usize,
    /// γ_1..γ_T.
    pub schedule: StepSchedule,
    /// u_0 ∈ Z.
    pub start: Vec<f64>,
    /// How each evaluation samples the data.
    pub batch: BatchRule,
    /// σ ≥ 0 of the Gaussian noise added to each evaluation (0: nothing drawn).
    pub sigma: f64,
    /// The output rule.
    pub averaging: Averaging,
    /// M = sup_Z ‖G‖ for the ledger when σ > 0 (None: the family's constants over the data).
    #[serde(default)]
    pub operator_bound: Option<f64>,
    /// Prepended to every stream label.
    #[serde(default)]
    pub label_prefix: String,
}

/// The diagnostics of an [`Extragradient`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtragradientDiagnostics {
    /// T.
    pub steps: usize,
    /// γ_1..γ_T.
    pub schedule: StepSchedule,
    /// The batch rule.
    pub batch: BatchRule,
    /// σ.
    pub sigma: f64,
    /// The output rule.
    pub averaging: Averaging,
    /// The prox step.
    pub prox: String,
    /// Γ_T = Σ γ_t (as summed in order).
    pub gamma_sum: f64,
    /// u_T.
    pub last_base: Vec<f64>,
    /// w_T.
    pub last_extrapolated: Vec<f64>,
    /// t* for [`Averaging::RandomIterate`].
    pub random_iterate: Option<usize>,
    /// The M the ledger used (σ > 0).
    pub operator_bound: Option<f64>,
}

/// The trajectory of a traced run (memory O(T·(d + B))).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExtragradientTrace {
    /// u_0..u_T.
    pub base: Vec<Vec<f64>>,
    /// w_1..w_T.
    pub extrapolated: Vec<Vec<f64>>,
    /// The batch of each evaluation e = 1..2T.
    pub indices: Vec<Vec<usize>>,
    /// ξ_e of each evaluation (σ × the standard normals); empty vectors when σ = 0.
    pub noise: Vec<Vec<f64>>,
    /// Ĝ_e of each evaluation (Ĝ_{2t−1} at u_{t−1}, Ĝ_{2t} at w_t).
    pub estimates: Vec<Vec<f64>>,
}

/// A traced run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExtragradientRun {
    /// The output.
    pub output: ViOutput,
    /// The trajectory.
    pub trace: ExtragradientTrace,
}

impl Extragradient {
    /// Extragradient with T ≥ 1 iterations, the schedule (γ_t finite > 0; a list of T entries),
    /// start u_0 (finite), the batch rule, σ ≥ 0 (finite) and the output rule; no operator bound
    /// and no label prefix (see the `with_*` setters). Errors name the parameter.
    pub fn new(
        steps: usize,
        schedule: StepSchedule,
        start: Vec<f64>,
        batch: BatchRule,
        sigma: f64,
        averaging: Averaging,
    ) -> Result<Extragradient> {
        let a = Extragradient {
            steps,
            schedule,
            start,
            batch,
            sigma,
            averaging,
            operator_bound: None,
            label_prefix: String::new(),
        };
        a.validate_params()?;
        Ok(a)
    }

    /// Use M for the ledger.
    pub fn with_operator_bound(mut self, m: f64) -> Result<Extragradient> {
        crate::error::require_positive("operator_bound", m)?;
        self.operator_bound = Some(m);
        Ok(self)
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> Extragradient {
        self.label_prefix = prefix.into();
        self
    }

    /// What does not depend on the operator and the data.
    pub fn validate_params(&self) -> Result<()> {
        if self.steps == 0 {
            return Err(invalid("steps", "T must be >= 1"));
        }
        self.schedule.validate("schedule", self.steps)?;
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
        check_start(op.domain(), "start", &self.start)?;
        check_batch_work(self.batch, n, 2 * self.steps, "steps", "2T·B")
    }

    /// The run (no trace).
    pub fn run_with(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
        prox: &dyn ProxStep,
    ) -> Result<ViOutput> {
        self.run_inner(op, s, noise, prox, None)
    }

    /// The run, keeping the trajectory, batches, noise and estimates.
    pub fn run_traced(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<ExtragradientRun> {
        let mut trace = ExtragradientTrace::default();
        let output = self.run_inner(op, s, noise, &EuclideanProx, Some(&mut trace))?;
        Ok(ExtragradientRun { output, trace })
    }

    fn run_inner(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
        prox: &dyn ProxStep,
        mut trace: Option<&mut ExtragradientTrace>,
    ) -> Result<ViOutput> {
        let mut data = CountedData::new(op, s)?;
        self.validate(op, data.n)?;
        let bound = if self.sigma > 0.0 {
            Some(operator_bound_for(self.operator_bound, op, s)?)
        } else {
            None
        };
        let oracle = OpOracle::new(op);
        let dom = op.domain();
        let d = op.dim();
        let head = format!("{}eg/", self.label_prefix);
        let mut est = NoisyBatchOracle::new(self.batch, self.sigma, &head, data.n, d);
        let t_star = match self.averaging {
            Averaging::RandomIterate => {
                Some(noise.indices(&format!("{head}output"), 1, self.steps)?[0] + 1)
            }
            _ => None,
        };
        let mut u = self.start.clone();
        let mut u_next = vec![0.0; d];
        let mut w = vec![0.0; d];
        let mut g = vec![0.0; d];
        let mut sum = vec![0.0; d];
        let mut kept = vec![0.0; d];
        let mut gamma_sum = 0.0;
        if let Some(tr) = trace.as_deref_mut() {
            tr.base.push(u.clone());
        }
        for t in 1..=self.steps {
            let gamma = self.schedule.at(t);
            let e1 = 2 * t as u64 - 1;
            est.estimate(e1, &u, noise, &oracle, &mut data, &mut g)?;
            if let Some(tr) = trace.as_deref_mut() {
                record(tr, &est, &g);
            }
            prox.step(dom, &u, gamma, &g, &mut w);
            est.estimate(e1 + 1, &w, noise, &oracle, &mut data, &mut g)?;
            if let Some(tr) = trace.as_deref_mut() {
                record(tr, &est, &g);
            }
            prox.step(dom, &u, gamma, &g, &mut u_next);
            std::mem::swap(&mut u, &mut u_next);
            gamma_sum += gamma;
            match self.averaging {
                Averaging::Extrapolated => crate::linalg::axpy(gamma, &w, &mut sum),
                Averaging::Base => crate::linalg::axpy(gamma, &u, &mut sum),
                Averaging::RandomIterate => {
                    if t_star == Some(t) {
                        kept.copy_from_slice(&u);
                    }
                }
            }
            if let Some(tr) = trace.as_deref_mut() {
                tr.extrapolated.push(w.clone());
                tr.base.push(u.clone());
            }
        }
        let z = match self.averaging {
            Averaging::RandomIterate => kept,
            _ => sum.iter().map(|v| v / gamma_sum).collect(),
        };
        let ledger = match bound {
            Some(m) => Some(batch_ledger(
                self.batch,
                data.n,
                2 * self.steps as u64,
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
            info: ViDiagnostics::Extragradient(ExtragradientDiagnostics {
                steps: self.steps,
                schedule: self.schedule.clone(),
                batch: self.batch,
                sigma: self.sigma,
                averaging: self.averaging,
                prox: prox.name().to_string(),
                gamma_sum,
                last_base: u,
                last_extrapolated: w,
                random_iterate: t_star,
                operator_bound: bound,
            }),
        })
    }
}

fn record(tr: &mut ExtragradientTrace, est: &NoisyBatchOracle, g: &[f64]) {
    tr.indices.push(est.idx.clone());
    tr.noise.push(if est.sigma > 0.0 {
        est.xi.clone()
    } else {
        Vec::new()
    });
    tr.estimates.push(g.to_vec());
}

impl ViAlgorithm for Extragradient {
    fn name(&self) -> String {
        format!(
            "extragradient(T={}, {:?}, {:?}, σ={}, {:?})",
            self.steps, self.schedule, self.batch, self.sigma, self.averaging
        )
    }

    fn run(&self, op: &dyn MonotoneOp, s: &Dataset, noise: &mut NoiseSource) -> Result<ViOutput> {
        self.run_with(op, s, noise, &EuclideanProx)
    }
}
