//! The regularized saddle point (BGM23 eq. (4); the algorithm of BGM23 Lemma 2):
//! output the unique saddle point of F_S(w, θ) + (λ/2)‖w − ŵ‖² − (λ/2)‖θ − θ̂‖², computed by the
//! certified solver.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Result};
use crate::papers::bgm23::schedules::lemma2_stability;
use crate::problem::saddle::validate_point;
use crate::problem::{Dataset, Objective, Regularizer, SaddleFn};
use crate::rng::NoiseSource;
use crate::solve::{saddle_point, SolveOptions};
use serde::{Deserialize, Serialize};

/// The diagnostics of a [`RegularizedSaddlePoint`] run: the solver's certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegularizedSaddleDiagnostics {
    /// The certified gap.
    pub certificate_gap: f64,
    /// The certificate's tolerance.
    pub certificate_tolerance: f64,
    /// The certified bound on the distance to the saddle point, if the solver gives one.
    pub dist_bound: Option<f64>,
    /// The solver's method.
    pub solver: String,
    /// The solver's iterations.
    pub solver_iterations: usize,
}

/// BGM23 eq. (4) with λ > 0 and anchors ŵ ∈ W, θ̂ ∈ Θ.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegularizedSaddlePoint {
    /// λ > 0.
    pub lambda: f64,
    /// ŵ.
    pub anchor_w: Vec<f64>,
    /// θ̂.
    pub anchor_theta: Vec<f64>,
}

impl RegularizedSaddlePoint {
    /// BGM23 eq. (4) with λ > 0 (finite) and finite anchors (errors name `lambda`, `anchor_w`,
    /// `anchor_theta`); that the anchors lie in W×Θ is checked when it runs.
    pub fn new(
        lambda: f64,
        anchor_w: Vec<f64>,
        anchor_theta: Vec<f64>,
    ) -> Result<RegularizedSaddlePoint> {
        crate::error::require_positive("lambda", lambda)?;
        crate::error::require_finite("anchor_w", &anchor_w)?;
        crate::error::require_finite("anchor_theta", &anchor_theta)?;
        Ok(RegularizedSaddlePoint {
            lambda,
            anchor_w,
            anchor_theta,
        })
    }

    /// Validate λ and the anchors against `f`.
    pub fn validate(&self, f: &dyn SaddleFn) -> Result<()> {
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(invalid(
                "lambda",
                format!("must be finite and > 0, got {}", self.lambda),
            ));
        }
        validate_point(f, &self.anchor_w, &self.anchor_theta)
            .map_err(|e| crate::problem::spec::rename(e, "anchor"))
    }

    /// The objective F_S + (λ/2)‖w − ŵ‖² − (λ/2)‖θ − θ̂‖².
    pub fn objective(&self, s: &Dataset) -> Objective {
        Objective::empirical(s).with_reg(Regularizer::bgm23_eq4(
            self.lambda,
            &self.anchor_w,
            &self.anchor_theta,
        ))
    }

    /// BGM23 Lemma 2's stability bound 2L/(λn).
    pub fn stability_bound(&self, lipschitz: f64, n: usize) -> f64 {
        lemma2_stability(lipschitz, self.lambda, n)
    }
}

impl Algorithm for RegularizedSaddlePoint {
    fn name(&self) -> String {
        format!("regularized_saddle_point(λ={})", self.lambda)
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, _noise: &mut NoiseSource) -> Result<Output> {
        self.validate(f)?;
        let cert = saddle_point(f, &self.objective(s), &SolveOptions::default())?;
        Ok(Output {
            w: cert.w.clone(),
            theta: cert.theta.clone(),
            grad_evals: cert.grad_evals,
            ledger: None,
            info: Diagnostics::RegularizedSaddlePoint(RegularizedSaddleDiagnostics {
                certificate_gap: cert.gap,
                certificate_tolerance: cert.tolerance,
                dist_bound: cert.dist_bound,
                solver: cert.method,
                solver_iterations: cert.iterations,
            }),
        })
    }
}
