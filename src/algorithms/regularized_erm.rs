//! The regularized ERM: BGM23 Lemma 2's algorithm for a minimization problem (Θ a single point),
//! the matching upper bound of BGM23 Theorem 15 (§5, after Thm 15: "Lemma 2 shows this bound is
//! tight for both ERM and empirical saddle point problems").
//!
//! Output w_λ = argmin_{w∈W} F_S(w) + (λ/2)‖w − ŵ‖², λ > 0. It is 2L/(λn)-uniformly argument
//! stable (Lemma 2 with a singleton Θ) and, since F_S(w_λ) + (λ/2)‖w_λ − ŵ‖² ≤ F_S(w*) +
//! (λ/2)‖w* − ŵ‖², its excess empirical risk is at most (λ/2)‖w* − ŵ‖² ≤ λR²/2 when ‖w − ŵ‖ ≤ R on
//! W; with λ = 2L/(Δn) that is R²L/(Δn), twice Theorem 15's lower bound R²L/(2Δn).
//!
//! A minimization problem is a crate `SaddleFn` whose Θ is a single point (e.g. a box with
//! lo = hi); the solve is the certified saddle-point solver on F_S + (λ/2)(‖w − ŵ‖² − ‖θ − θ₀‖²),
//! whose θ-part is constant. The exact closed form on Theorem 15's packing is
//! `papers::bgm23::packing::reg_erm`.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Result};
use crate::papers::bgm23::schedules::lemma2_stability;
use crate::problem::saddle::validate_point;
use crate::problem::{Dataset, Objective, Regularizer, SaddleFn};
use crate::rng::NoiseSource;
use crate::solve::{saddle_point, SolveOptions};
use serde::{Deserialize, Serialize};

/// The diagnostics of a [`RegularizedErm`] run: the solver's certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegularizedErmDiagnostics {
    /// The certified gap.
    pub certificate_gap: f64,
    /// The certified bound on the distance to the minimizer, if the solver gives one.
    pub dist_bound: Option<f64>,
    /// The solver's method.
    pub solver: String,
}

/// argmin_{w∈W} F_S(w) + (λ/2)‖w − ŵ‖² (BGM23 Lemma 2, minimization form).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegularizedErm {
    /// λ > 0.
    pub lambda: f64,
    /// ŵ ∈ W.
    pub anchor_w: Vec<f64>,
}

impl RegularizedErm {
    /// The regularized ERM with λ > 0 (finite) and a finite anchor ŵ (errors name `lambda`,
    /// `anchor_w`); that f is a minimization problem and ŵ ∈ W are checked when it runs.
    pub fn new(lambda: f64, anchor_w: Vec<f64>) -> Result<RegularizedErm> {
        crate::error::require_positive("lambda", lambda)?;
        crate::error::require_finite("anchor_w", &anchor_w)?;
        Ok(RegularizedErm { lambda, anchor_w })
    }

    /// Validate λ, the anchor, and that `f` is a minimization problem (Θ a single point).
    pub fn validate(&self, f: &dyn SaddleFn) -> Result<()> {
        if !(self.lambda.is_finite() && self.lambda > 0.0) {
            return Err(invalid(
                "lambda",
                format!("must be finite and > 0, got {}", self.lambda),
            ));
        }
        if f.domain_theta().diameter() != 0.0 {
            return Err(invalid(
                "problem",
                "regularized ERM needs a minimization problem: Θ must be a single point",
            ));
        }
        validate_point(f, &self.anchor_w, &f.domain_theta().center())
            .map_err(|e| crate::problem::spec::rename(e, "anchor"))
    }

    /// The objective F_S(w) + (λ/2)‖w − ŵ‖² (the θ-term is constant on a singleton Θ).
    pub fn objective(&self, f: &dyn SaddleFn, s: &Dataset) -> Objective {
        Objective::empirical(s).with_reg(Regularizer::bgm23_eq4(
            self.lambda,
            &self.anchor_w,
            &f.domain_theta().center(),
        ))
    }

    /// BGM23 Lemma 2's stability bound 2L/(λn).
    pub fn stability_bound(&self, lipschitz: f64, n: usize) -> f64 {
        lemma2_stability(lipschitz, self.lambda, n)
    }

    /// The excess-risk guarantee (λ/2)·R², where R bounds ‖w − ŵ‖ over W (§5, after Thm 15).
    pub fn excess_bound(&self, radius: f64) -> f64 {
        0.5 * self.lambda * radius * radius
    }
}

impl Algorithm for RegularizedErm {
    fn name(&self) -> String {
        format!("regularized_erm(λ={})", self.lambda)
    }

    fn run(&self, f: &dyn SaddleFn, s: &Dataset, _noise: &mut NoiseSource) -> Result<Output> {
        self.validate(f)?;
        crate::algorithms::check_data(f, s)?;
        let cert = saddle_point(f, &self.objective(f, s), &SolveOptions::default())?;
        Ok(Output {
            w: cert.w.clone(),
            theta: cert.theta.clone(),
            grad_evals: cert.grad_evals,
            ledger: None,
            info: Diagnostics::RegularizedErm(RegularizedErmDiagnostics {
                certificate_gap: cert.gap,
                dist_bound: cert.dist_bound,
                solver: cert.method,
            }),
        })
    }
}
