//! DP-GDA: KLLW22 Algorithm 1, full-batch projected gradient descent–ascent with fresh
//! Gaussian noise on each block at every step.
//!
//! ```text
//! w_1 = 0, v_1 = 0                                   (0 ∈ W and 0 ∈ V required)
//! for t = 1..T:
//!     b_{w,t}, b_{v,t} ~ N(0, σ² I)                  (fresh, independent)
//!     w_{t+1} = Π_W(w_t − η_t(∇_w L_S(w_t, v_t) + b_{w,t}))
//!     v_{t+1} = Π_V(v_t + η_t(∇_v L_S(w_t, v_t) + b_{v,t}))   (simultaneous)
//! output (w̄_T, v̄_T) = (1/T) Σ_{t=1}^T (w_t, v_t)      (as printed: w_1 = 0 is averaged, w_{T+1} is not)
//! ```
//!
//! with η_t = 1/(ρt) (KLLW22 Thm 2, [`crate::papers::kllw22::stability::thm2_step_size`]) and
//! σ = c·G√(T log(1/δ))/(nε) (Thm 1), c made concrete by the paper's calibration (c = 4 certifies
//! one block, the joint release needs 4√2, E-KLLW22-7). The alternative average of w_2..w_{T+1} is an option ([`Averaging`]).
//!
//! **Oracle.** ∇L_S is the full-batch gradient; it is evaluated through the counted oracle, in
//! one of two ways ([`GradientMode`]): by default on the family's aggregated data (for losses
//! affine in the data, the mean point, so F_S's gradient is one evaluation;
//! `info.per_point_evaluations` reports the paper's count n·T), or as the average of the n
//! per-point gradients, each counted (n·T evaluations, the paper's cost, for speed measurements).
//! The two agree up to rounding on data-affine losses. Noise is drawn from
//! the labelled streams `dp_gda/noise_w/step=t` and `dp_gda/noise_v/step=t`, so runs on
//! neighbouring datasets with one seed share their noise (the coupling of the stability proof,
//! proof of Thm 2 in App. A.2, after eq. (3)) and a recorded tape replays a run.
//!
//! **Parameters** are checked where they enter: [`DpGda::new`] and the `with_*` setters return
//! an error naming the parameter and its admissible range (T ≥ 1, ρ finite and > 0, σ finite
//! and ≥ 0); a run re-checks them (the fields are public) and that 0 ∈ W and 0 ∈ V.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Result};
use crate::linalg;
use crate::oracle::Oracle;
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};
use crate::problem::{Dataset, Objective, SaddleFn};
use crate::rng::{NoiseSource, StepLabel};
use serde::{Deserialize, Serialize};

/// Which iterates are averaged (KLLW22 Algorithm 1, its output line; E-KLLW22-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Averaging {
    /// (1/T) Σ_{t=1}^T (w_t, v_t), as printed (includes the start 0).
    PaperLiteral,
    /// (1/T) Σ_{t=2}^{T+1} (w_t, v_t), the iterates the updates produce.
    Produced,
}

/// How DP-GDA evaluates the full-batch gradient ∇L_S(w_t, v_t) of KLLW22 Algorithm 1's update
/// lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GradientMode {
    /// One oracle evaluation on the family's aggregated data (the mean point for data-affine
    /// losses): exact for those losses up to rounding, one count per step.
    #[default]
    AggregatedMean,
    /// (1/n) Σ_i ∇ℓ(w_t, v_t; z_i), every per-point gradient through the counted oracle, summed
    /// in index order then divided by n: n counts per step, n·T in all.
    PerPoint,
}

/// DP-GDA with T steps, η_t = 1/(ρt), noise σ (KLLW22 Algorithm 1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DpGda {
    /// T ≥ 1.
    pub steps: usize,
    /// ρ > 0, the strong convexity–concavity modulus (η_t = 1/(ρt)).
    pub rho: f64,
    /// σ ≥ 0 (0: non-private GDA, the display before Algorithm 1 in KLLW22 §4; nothing is
    /// drawn).
    pub sigma: f64,
    /// The averaging convention.
    pub averaging: Averaging,
    /// The released event, if the caller calibrated σ (e.g. by `kllw22_thm1`).
    #[serde(default)]
    pub ledger: Option<PrivacyLedger>,
}

/// The diagnostics of a [`DpGda`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DpGdaDiagnostics {
    /// T.
    #[serde(rename = "T")]
    pub steps: usize,
    /// ρ.
    pub rho: f64,
    /// σ.
    pub sigma: f64,
    /// The averaging convention.
    pub averaging: Averaging,
    /// How the full-batch gradient was evaluated.
    pub gradient_mode: GradientMode,
    /// n·T, the paper's count of per-point gradient evaluations.
    pub per_point_evaluations: u64,
}

/// A traced run: iterates (w_1, v_1)..(w_{T+1}, v_{T+1}) and the noise vectors.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DpGdaRun {
    /// The output.
    pub output: Output,
    /// w_1..w_{T+1}.
    pub w: Vec<Vec<f64>>,
    /// v_1..v_{T+1}.
    pub v: Vec<Vec<f64>>,
    /// b_{w,1}..b_{w,T}.
    pub b_w: Vec<Vec<f64>>,
    /// b_{v,1}..b_{v,T}.
    pub b_v: Vec<Vec<f64>>,
}

impl DpGda {
    /// KLLW22 Algorithm 1 with T steps, η_t = 1/(ρt), a given σ, the printed averaging and no
    /// ledger (σ not calibrated by the caller: GDA at σ = 0, or a test's noise level). Errors
    /// name the parameter: `steps` (T ≥ 1), `rho` (finite, > 0), `sigma` (finite, ≥ 0).
    pub fn new(steps: usize, rho: f64, sigma: f64) -> Result<DpGda> {
        let alg = DpGda {
            steps,
            rho,
            sigma,
            averaging: Averaging::PaperLiteral,
            ledger: None,
        };
        alg.check_params()?;
        Ok(alg)
    }

    /// The same algorithm with another averaging convention.
    pub fn with_averaging(self, averaging: Averaging) -> DpGda {
        DpGda { averaging, ..self }
    }

    /// The same algorithm with noise σ (finite, ≥ 0; an error naming `sigma` otherwise). The
    /// ledger is dropped: a σ set by hand is not a calibrated release.
    pub fn with_sigma(self, sigma: f64) -> Result<DpGda> {
        let alg = DpGda {
            sigma,
            ledger: None,
            ..self
        };
        alg.check_params()?;
        Ok(alg)
    }

    /// T ≥ 1, ρ finite and > 0, σ finite and ≥ 0, each error naming its parameter.
    fn check_params(&self) -> Result<()> {
        if self.steps == 0 {
            return Err(invalid("steps", "T must be ≥ 1"));
        }
        crate::error::require_positive("rho", self.rho)?;
        if !(self.sigma.is_finite() && self.sigma >= 0.0) {
            return Err(invalid(
                "sigma",
                format!("must be finite and ≥ 0, got {}", self.sigma),
            ));
        }
        Ok(())
    }

    /// KLLW22 Algorithm 1 with Thm 1's σ = c·G√(T log(1/δ))/(nε) and its ledger (the joint
    /// release of both blocks). Errors name the parameter (`steps`, `rho`, and the calibration's
    /// `c`, `g`, `n`, `epsilon`, `delta`).
    #[allow(clippy::too_many_arguments)]
    pub fn calibrated(
        steps: usize,
        rho: f64,
        c: f64,
        g: f64,
        n: usize,
        epsilon: f64,
        delta: f64,
        averaging: Averaging,
    ) -> Result<DpGda> {
        DpGda::new(steps, rho, 0.0)?;
        let cal = crate::papers::kllw22::calibration::thm1(
            c,
            g,
            steps as u64,
            n as u64,
            epsilon,
            delta,
            crate::papers::kllw22::calibration::Release::Joint,
        )?;
        Ok(DpGda {
            steps,
            rho,
            sigma: cal.sigma,
            averaging,
            ledger: Some(cal.ledger.clone()),
        })
    }

    fn validate(&self, f: &dyn SaddleFn) -> Result<()> {
        self.check_params()?;
        let zw = vec![0.0; f.dim_w()];
        let zv = vec![0.0; f.dim_theta()];
        if !f.domain_w().contains(&zw, 0.0) || !f.domain_theta().contains(&zv, 0.0) {
            return Err(invalid(
                "problem",
                "KLLW22 Algorithm 1 starts at w_1 = 0, v_1 = 0: 0 must lie in W and in V",
            ));
        }
        Ok(())
    }

    /// Run on S, keeping the trajectory and the noise ([`GradientMode::AggregatedMean`]).
    pub fn run_traced(
        &self,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<DpGdaRun> {
        self.run_traced_with(f, s, noise, GradientMode::AggregatedMean)
    }

    /// Run on S with the full-batch gradient of KLLW22 Algorithm 1 evaluated as `mode` says,
    /// keeping the trajectory and the noise.
    pub fn run_traced_with(
        &self,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
        mode: GradientMode,
    ) -> Result<DpGdaRun> {
        let mut trace = Trace::default();
        let output = self.run_inner(f, s, noise, mode, Some(&mut trace))?;
        Ok(DpGdaRun {
            output,
            w: trace.w,
            v: trace.v,
            b_w: trace.b_w,
            b_v: trace.b_v,
        })
    }

    /// Run on S with the full-batch gradient evaluated as `mode` says, keeping no trace (memory
    /// constant in T).
    pub fn run_with_mode(
        &self,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
        mode: GradientMode,
    ) -> Result<Output> {
        self.run_inner(f, s, noise, mode, None)
    }

    /// The loop: buffers preallocated, the averages accumulated as the iterates are produced (in
    /// the order the stored-trajectory average sums them), one-shot noise streams; the
    /// aggregated-mean and the per-point gradients through the loss's per-sample kernel with no
    /// allocation (for a family with an allocation-free kernel; bit-identical to the dense path).
    fn run_inner(
        &self,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
        mode: GradientMode,
        mut trace: Option<&mut Trace>,
    ) -> Result<Output> {
        self.validate(f)?;
        crate::algorithms::check_data(f, s)?;
        let obj = Objective::empirical(s);
        let agg = Objective {
            data: f.aggregate(&obj.data),
            reg: obj.reg.clone(),
        };
        let oracle = Oracle::new(f);
        let mut kernel = oracle.kernel();
        let (dw, dv) = (f.dim_w(), f.dim_theta());
        let mut w = vec![0.0; dw];
        let mut v = vec![0.0; dv];
        let (mut gw, mut gv_neg) = (vec![0.0; dw], vec![0.0; dv]);
        let (mut bw, mut bv) = (vec![0.0; dw], vec![0.0; dv]);
        let label_w = StepLabel::new("dp_gda/noise_w/step=");
        let label_v = StepLabel::new("dp_gda/noise_v/step=");
        // The average of the iterates with index in `range` (w_1 = 0 has index 0).
        let range = match self.averaging {
            Averaging::PaperLiteral => 0..self.steps,
            Averaging::Produced => 1..self.steps + 1,
        };
        let inv = 1.0 / self.steps as f64;
        let mut wbar = vec![0.0; dw];
        let mut vbar = vec![0.0; dv];
        if range.contains(&0) {
            linalg::axpy(inv, &w, &mut wbar);
            linalg::axpy(inv, &v, &mut vbar);
        }
        if let Some(tr) = trace.as_deref_mut() {
            tr.w.push(w.clone());
            tr.v.push(v.clone());
        }
        for t in 1..=self.steps {
            // The saddle operator (∇_w L_S, −∇_v L_S) at (w_t, v_t).
            match mode {
                GradientMode::AggregatedMean => {
                    oracle.weighted_operator(
                        kernel.as_mut(),
                        &agg.data.points,
                        &agg.data.weights,
                        &w,
                        &v,
                        &mut gw,
                        &mut gv_neg,
                    );
                    agg.reg.add_operator(&w, &v, &mut gw, &mut gv_neg);
                }
                GradientMode::PerPoint => {
                    oracle.per_point_operator_into(
                        kernel.as_mut(),
                        &s.points,
                        &w,
                        &v,
                        &mut gw,
                        &mut gv_neg,
                    );
                }
            }
            if self.sigma > 0.0 {
                noise.gaussian_at(&label_w, t as u64, self.sigma, &mut bw)?;
                noise.gaussian_at(&label_v, t as u64, self.sigma, &mut bv)?;
            }
            let eta = crate::papers::kllw22::stability::thm2_step_size(self.rho, t);
            // w − η(∇_w + b_w); v + η(∇_v + b_v) = v − η(−∇_v − b_v).
            for ((wk, g), b) in w.iter_mut().zip(&gw).zip(&bw) {
                *wk -= eta * (g + b);
            }
            for ((vk, g), b) in v.iter_mut().zip(&gv_neg).zip(&bv) {
                *vk -= eta * (g - b);
            }
            f.domain_w().project_in_place(&mut w);
            f.domain_theta().project_in_place(&mut v);
            if range.contains(&t) {
                linalg::axpy(inv, &w, &mut wbar);
                linalg::axpy(inv, &v, &mut vbar);
            }
            if let Some(tr) = trace.as_deref_mut() {
                tr.w.push(w.clone());
                tr.v.push(v.clone());
                tr.b_w.push(bw.clone());
                tr.b_v.push(bv.clone());
            }
        }
        Ok(Output {
            w: wbar,
            theta: vbar,
            grad_evals: oracle.grad_evals(),
            ledger: self.ledger.clone().map(|l| PrivacyLedger {
                relation: Neighbouring::ReplaceOne,
                event: DpEvent::Composed(vec![l.event, DpEvent::PostProcessing]),
            }),
            info: Diagnostics::DpGda(DpGdaDiagnostics {
                steps: self.steps,
                rho: self.rho,
                sigma: self.sigma,
                averaging: self.averaging,
                gradient_mode: mode,
                per_point_evaluations: (s.len() as u64).saturating_mul(self.steps as u64),
            }),
        })
    }
}

/// The trajectory and noise of a traced run.
#[derive(Default)]
struct Trace {
    w: Vec<Vec<f64>>,
    v: Vec<Vec<f64>>,
    b_w: Vec<Vec<f64>>,
    b_v: Vec<Vec<f64>>,
}

impl Algorithm for DpGda {
    fn name(&self) -> String {
        format!(
            "dp_gda(T={}, ρ={}, σ={}, {:?})",
            self.steps, self.rho, self.sigma, self.averaging
        )
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        self.run_with_mode(f, s, noise, GradientMode::AggregatedMean)
    }
}

/// [`DpGda`] with a chosen [`GradientMode`] (KLLW22 Algorithm 1), as an [`Algorithm`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DpGdaWithMode {
    /// The algorithm's parameters.
    pub alg: DpGda,
    /// How the full-batch gradient is evaluated.
    #[serde(default)]
    pub gradient_mode: GradientMode,
}

impl Algorithm for DpGdaWithMode {
    fn name(&self) -> String {
        match self.gradient_mode {
            GradientMode::AggregatedMean => self.alg.name(),
            GradientMode::PerPoint => format!("{} [per-point gradients]", self.alg.name()),
        }
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        self.alg.run_with_mode(f, s, noise, self.gradient_mode)
    }
}
