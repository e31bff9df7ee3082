//! Projected simultaneous stochastic gradient descent–ascent: BGM23 App. C.1, eqs. (13)–(14),
//! the algorithm of BGM23 Lemma 20; with Gaussian noise σ > 0 it is the noisy SGDA of
//! BGM23 App. C.2. The privacy calibration of σ lives elsewhere: σ is a parameter here.
//!
//! ```text
//! z_0 = [w_0, θ_0] ∈ W×Θ
//! for t = 1..T:
//!     ∇_t = G-estimate at z_{t−1}            (minibatch of m indices, with replacement, + ξ_t)
//!     z_t = Π_{W×Θ}(z_{t−1} − η ∇_t)         (eq. (13); simultaneous: both blocks use z_{t−1})
//! output z̄ = (1/T) Σ_{t=0}^{T−1} z_t          (eq. (14), as printed: z_T is computed, not averaged)
//! ```
//!
//! **Indexing (E-BGM23-30).** The paper defines the update for t ∈ [T−1] but averages
//! z_0..z_{T−1} and telescopes T steps in the proof of Lemma 20; we run T updates with
//! ∇_1..∇_T, ∇_t evaluated at z_{t−1} (so E[∇_t | z_{t−1}] = G(z_{t−1})), and output the average of
//! z_0..z_{T−1} exactly as eq. (14) prints it. z_T is kept in the trace ([`SgdaRun`]) only.
//!
//! **Oracle.** The batch is a [`BatchRule`] (`crate::sampling`). With
//! [`BatchRule::WithReplacement`]` { m }` each step draws m indices uniformly with replacement
//! from the n data points, `NoiseSource::indices("{prefix}sgda/batch/step={t}", m, n)`, and uses
//! (1/m) Σ_{i∈M_t} g(z_{t−1}; x_i): exactly m gradient evaluations per step, m·T in all. The other
//! index rules ([`BatchRule::WithoutReplacement`] from the same label, kind `distinct`;
//! [`BatchRule::Disjoint`] and [`BatchRule::Contiguous`], which draw nothing) use the mean over
//! their batch the same way, |M_t| evaluations per step (they need equal weights). With
//! [`BatchRule::Full`] the exact data operator Σ_j π_j g(z_{t−1}; x_j) is used (τ = 0 when σ = 0), one
//! evaluation per mixture point per step. When σ > 0, ξ_t ∼ N(0, σ² I_d), d = d_w + d_θ, is drawn
//! as `NoiseSource::gaussian("{prefix}sgda/noise/step={t}", d, σ)` and added; with σ = 0 nothing is drawn.
//!
//! **Regularizer.** The objective's anchored quadratic terms (e.g. the f^(t) of BGM23 Algorithm 1)
//! are data-independent: their operator is added *exactly* at every step and is **not** counted as
//! a gradient evaluation, so the count is that of data gradients only (m·T or n·T).

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Result};
use crate::linalg;
use crate::oracle::Oracle;
use crate::problem::saddle::{validate_objective, validate_point};
use crate::problem::{Dataset, Objective, Regularizer, SaddleFn};
use crate::rng::{NoiseSource, StepLabel};
pub use crate::sampling::BatchRule;
use serde::{Deserialize, Serialize};

/// SGDA with parameters T, η, start z_0, batch mode, noise σ and a regularizer
/// (BGM23 App. C.1 eqs. (13)–(14); BGM23 Lemma 20).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sgda {
    /// η > 0.
    pub eta: f64,
    /// T ≥ 1: the number of updates.
    pub steps: usize,
    /// w_0 ∈ W.
    pub start_w: Vec<f64>,
    /// θ_0 ∈ Θ.
    pub start_theta: Vec<f64>,
    /// The stochastic oracle: [`BatchRule::Full`] is the exact data operator of the objective's
    /// mixture (any weights); every other rule needs equal weights. Serialized in the form of
    /// [`crate::sampling::sgda_serde`] (`"full"`, `{"with_replacement": m}`, …).
    #[serde(with = "crate::sampling::sgda_serde")]
    pub batch: BatchRule,
    /// σ ≥ 0 of the added Gaussian noise (0: none, nothing drawn).
    pub sigma: f64,
    /// Anchored quadratic terms added to F_S by [`Algorithm::run`] (exact, uncounted).
    #[serde(default)]
    pub reg: Regularizer,
    /// Prepended to every stream label, so that several runs inside one algorithm (the rounds of
    /// BGM23 Algorithm 1) draw from distinct streams, e.g. "rr/round=2/".
    #[serde(default)]
    pub label_prefix: String,
}

/// The diagnostics of an [`Sgda`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SgdaDiagnostics {
    /// η.
    pub eta: f64,
    /// T.
    pub steps: usize,
    /// The stochastic oracle.
    #[serde(with = "crate::sampling::sgda_serde")]
    pub batch: BatchRule,
    /// σ.
    pub sigma: f64,
    /// z_T (computed, not averaged).
    pub last_iterate: Option<Vec<f64>>,
    /// Which iterates the output averages.
    pub average: String,
}

/// A traced run: the output plus z_0..z_T and ∇_1..∇_T (concatenated [w, θ] vectors).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SgdaRun {
    /// The output of eq. (14).
    pub output: Output,
    /// z_0, …, z_T (T + 1 points).
    pub iterates: Vec<Vec<f64>>,
    /// ∇_1, …, ∇_T; ∇_t was evaluated at z_{t−1}.
    pub estimates: Vec<Vec<f64>>,
}

/// The iterates z_0..z_T and the estimates ∇_1..∇_T of a traced run.
type Trace = (Vec<Vec<f64>>, Vec<Vec<f64>>);

impl Sgda {
    /// SGDA with η > 0 (finite), T ≥ 1 steps, start (w_0, θ_0) (finite), the oracle `batch`
    /// (m ≥ 1) and noise σ ≥ 0 (finite); no regularizer and no label prefix (see the `with_*`
    /// setters). Errors name the parameter (`eta`, `steps`, `start_w`, `start_theta`, `batch`,
    /// `sigma`); what depends on the problem (W×Θ, the data) is checked when it runs.
    pub fn new(
        eta: f64,
        steps: usize,
        start_w: Vec<f64>,
        start_theta: Vec<f64>,
        batch: BatchRule,
        sigma: f64,
    ) -> Result<Sgda> {
        let s = Sgda {
            eta,
            steps,
            start_w,
            start_theta,
            batch,
            sigma,
            reg: Regularizer::none(),
            label_prefix: String::new(),
        };
        s.validate_params()?;
        Ok(s)
    }

    /// Add the anchored quadratic terms `reg` to F_S in [`Algorithm::run`].
    pub fn with_reg(mut self, reg: Regularizer) -> Sgda {
        self.reg = reg;
        self
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> Sgda {
        self.label_prefix = prefix.into();
        self
    }

    /// Check η, T, σ, m and the start's finiteness (what does not depend on the problem).
    pub fn validate_params(&self) -> Result<()> {
        if !(self.eta.is_finite() && self.eta > 0.0) {
            return Err(invalid(
                "eta",
                format!("must be finite and > 0, got {}", self.eta),
            ));
        }
        if self.steps == 0 {
            return Err(invalid("steps", "T must be >= 1"));
        }
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(invalid(
                "sigma",
                format!("must be finite and >= 0, got {}", self.sigma),
            ));
        }
        check_batch_sizes(&self.batch)?;
        crate::error::require_finite("start_w", &self.start_w)?;
        crate::error::require_finite("start_theta", &self.start_theta)
    }

    /// Validate the parameters against `f` and `obj`.
    pub fn validate(&self, f: &dyn SaddleFn, obj: &Objective) -> Result<()> {
        if !(self.eta.is_finite() && self.eta > 0.0) {
            return Err(invalid(
                "eta",
                format!("must be finite and > 0, got {}", self.eta),
            ));
        }
        if self.steps == 0 {
            return Err(invalid("steps", "T must be >= 1"));
        }
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(invalid(
                "sigma",
                format!("must be finite and >= 0, got {}", self.sigma),
            ));
        }
        validate_point(f, &self.start_w, &self.start_theta)
            .map_err(|e| crate::problem::spec::rename(e, "start"))?;
        validate_objective(f, obj)?;
        let n = obj.data.points.len();
        let per_step = match self.batch {
            BatchRule::Full => n,
            rule => {
                check_batch_sizes(&rule)?;
                let p0 = obj.data.weights[0];
                if obj.data.weights.iter().any(|&p| (p - p0).abs() > 1e-12) {
                    return Err(invalid(
                        "batch",
                        "an index batch rule (sampling with or without replacement, disjoint or \
                         contiguous batches) needs an empirical objective (equal weights)",
                    ));
                }
                rule.validate(n, self.steps)?;
                rule.batch_len(n)
            }
        };
        crate::algorithms::check_work(
            "steps",
            "T·(evaluations per step)",
            self.steps as u128 * per_step as u128,
        )
    }

    /// z_0 = [w_0, θ_0].
    pub fn z0(&self) -> Vec<f64> {
        linalg::concat(&self.start_w, &self.start_theta)
    }

    /// Gradient evaluations a run makes: |M_t|·T (m·T with replacement), or (mixture size)·T
    /// for [`BatchRule::Full`].
    pub fn grad_evals(&self, obj: &Objective) -> u64 {
        let per = self.batch.batch_len(obj.data.points.len());
        (per as u64).saturating_mul(self.steps as u64)
    }

    /// Run on an arbitrary objective (data mixture + regularizer; `self.reg` is ignored here).
    /// Keeps no trace: memory is constant in T (preallocated buffers, one-shot noise streams).
    pub fn run_objective(
        &self,
        f: &dyn SaddleFn,
        obj: &Objective,
        noise: &mut NoiseSource,
    ) -> Result<Output> {
        self.run_inner(f, obj, noise, None)
    }

    /// As [`Sgda::run_objective`], keeping the trajectory and the estimates (memory O(T·d)).
    pub fn run_traced(
        &self,
        f: &dyn SaddleFn,
        obj: &Objective,
        noise: &mut NoiseSource,
    ) -> Result<SgdaRun> {
        let mut trace = (
            Vec::with_capacity(self.steps + 1),
            Vec::with_capacity(self.steps),
        );
        let output = self.run_inner(f, obj, noise, Some(&mut trace))?;
        let (iterates, estimates) = trace;
        Ok(SgdaRun {
            output,
            iterates,
            estimates,
        })
    }

    /// The loop of eqs. (13)–(14). Per step: the minibatch (or mixture) operator through the
    /// loss's per-sample kernel into preallocated buffers, the regularizer's operator and the
    /// noise in place, the projections in place; nothing is allocated inside the loop unless
    /// `trace` asks for the iterates and estimates (or the source records a tape).
    fn run_inner(
        &self,
        f: &dyn SaddleFn,
        obj: &Objective,
        noise: &mut NoiseSource,
        mut trace: Option<&mut Trace>,
    ) -> Result<Output> {
        self.validate(f, obj)?;
        let oracle = Oracle::new(f);
        let mut kernel = oracle.kernel();
        let dw = f.dim_w();
        let n = obj.data.points.len();
        let mut w = self.start_w.clone();
        let mut th = self.start_theta.clone();
        let dt = th.len();
        let mut sum_w = vec![0.0; dw];
        let mut sum_t = vec![0.0; dt];
        let mut gw = vec![0.0; dw];
        let mut gt = vec![0.0; dt];
        let mut xi = vec![0.0; dw + dt];
        // Minibatches read the points in place from the mixture's row-major array (no copy).
        let mut idx = match self.batch {
            BatchRule::Full => Vec::new(),
            rule => vec![0usize; rule.batch_len(n)],
        };
        let flat = obj.data.points.as_flat();
        let k = f.point_dim();
        let batch_label = StepLabel::new(format!("{}sgda/batch/step=", self.label_prefix));
        let noise_label = StepLabel::new(format!("{}sgda/noise/step=", self.label_prefix));
        if let Some((iterates, _)) = trace.as_deref_mut() {
            iterates.push(linalg::concat(&w, &th));
        }
        for t in 1..=self.steps {
            linalg::axpy(1.0, &w, &mut sum_w);
            linalg::axpy(1.0, &th, &mut sum_t);
            match self.batch {
                BatchRule::Full => {
                    // The data part (counted), then the (empty) regularizer of the data-only
                    // objective as `Oracle::objective_operator` adds it; the objective's
                    // regularizer is added below, as in the minibatch case.
                    oracle.weighted_operator(
                        kernel.as_mut(),
                        &obj.data.points,
                        &obj.data.weights,
                        &w,
                        &th,
                        &mut gw,
                        &mut gt,
                    );
                    Regularizer::none().add_operator(&w, &th, &mut gw, &mut gt);
                }
                rule => {
                    rule.draw(noise, &batch_label, t as u64, n, &mut idx)?;
                    oracle.minibatch_operator(
                        kernel.as_mut(),
                        flat,
                        k,
                        &idx,
                        1.0 / idx.len() as f64,
                        &w,
                        &th,
                        &mut gw,
                        &mut gt,
                    );
                }
            }
            obj.reg.add_operator(&w, &th, &mut gw, &mut gt);
            if self.sigma > 0.0 {
                noise.gaussian_at(&noise_label, t as u64, self.sigma, &mut xi)?;
                let (xw, xt) = xi.split_at(dw);
                linalg::axpy(1.0, xw, &mut gw);
                linalg::axpy(1.0, xt, &mut gt);
            }
            super::projected_descent_step(f, self.eta, &gw, &gt, &mut w, &mut th);
            if let Some((iterates, estimates)) = trace.as_deref_mut() {
                estimates.push(linalg::concat(&gw, &gt));
                iterates.push(linalg::concat(&w, &th));
            }
        }
        let inv_t = 1.0 / self.steps as f64;
        let out_w = linalg::scale(inv_t, &sum_w);
        let out_t = linalg::scale(inv_t, &sum_t);
        Ok(Output {
            w: out_w,
            theta: out_t,
            grad_evals: oracle.grad_evals(),
            ledger: None,
            info: Diagnostics::Sgda(SgdaDiagnostics {
                eta: self.eta,
                steps: self.steps,
                batch: self.batch,
                sigma: self.sigma,
                last_iterate: Some(linalg::concat(&w, &th)),
                average: "z_0..z_{T−1} (BGM23 eq. (14), E-BGM23-30)".to_string(),
            }),
        })
    }
}

/// The batch sizes must be ≥ 1 (what can be checked without the data), naming `batch`.
fn check_batch_sizes(rule: &BatchRule) -> Result<()> {
    let size = match *rule {
        BatchRule::Full => 1,
        BatchRule::WithReplacement { m } | BatchRule::WithoutReplacement { m } => m,
        BatchRule::Disjoint { size } => size,
        BatchRule::Contiguous { phases } => phases,
    };
    if size == 0 {
        return Err(invalid("batch", "m must be >= 1"));
    }
    Ok(())
}

impl Algorithm for Sgda {
    fn name(&self) -> String {
        let b = match self.batch {
            BatchRule::Full => "full".to_string(),
            BatchRule::WithReplacement { m } => format!("m={m}"),
            BatchRule::WithoutReplacement { m } => format!("m={m} without replacement"),
            BatchRule::Disjoint { size } => format!("disjoint B={size}"),
            BatchRule::Contiguous { phases } => format!("contiguous K={phases}"),
        };
        format!(
            "sgda(η={}, T={}, {b}, σ={})",
            self.eta, self.steps, self.sigma
        )
    }

    /// SGDA on F_S + `self.reg`.
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        crate::algorithms::check_data(f, s)?;
        let obj = Objective::empirical(s).with_reg(self.reg.clone());
        self.run_objective(f, &obj, noise)
    }
}
