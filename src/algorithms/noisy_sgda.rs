//! Noisy SGDA with the BGM23 Thm 21 schedule: the private empirical subroutine of BGM23 App. C.2,
//! used by Lemma 9 (§4.1) as A_emp inside Algorithm 1.
//!
//! For a dataset of n points and d = d_w + d_θ, the privacy layer
//! ([`crate::papers::bgm23::calibration::thm21`]) gives
//!
//! ```text
//! T = ⌊min{n/8, n²ε²/(32 d log(1/δ))}⌋             (Thm 21; T ≥ 1 required)
//! m = min(n, ⌈max{n√(ε/(4T)), 1}⌉)                 (App. C.2, Reading::PaperLiteral)
//!   = min(n, max{⌈n√(ε/T)⌉, 1})                    (Reading::Corrected: Thm 22's T ≥ n²ε/m²)
//! σ = √(c₀ T L² log(1/δ))/(nε)                      (App. C.2; c₀ the unnamed constant)
//! η = D̂/(L√T)                                       (Thm 21)
//! ```
//!
//! η and α̂ are BGM23's formulas in [`crate::papers::bgm23::schedules`] (`thm21_eta`,
//! `lemma9_alpha_hat`, `lemma9_alpha_hat_at`).
//!
//! and the run is [`Sgda`] with `BatchRule::WithReplacement { m }` and noise σ: T steps, m·T gradient
//! evaluations, output the average of z_0..z_{T−1} (BGM23 eq. (14)).
//!
//! **Two Lipschitz constants (E-BGM23-33).** Inside Algorithm 1 the round objective f^(t)
//! carries a data-independent regularizer and is 5L-Lipschitz: the step uses `l_step` (5L there),
//! while the noise may be calibrated to the data part alone (`l_noise` = L), because the
//! regularizer's gradient is public and added exactly. [`NoisySgda::run_objective`] takes both;
//! the [`Algorithm`] impl (on F_S, no regularizer) uses one L for both.
//!
//! **Utility constant (Thm 21 via Lemma 20; E-BGM23-34).** Lemma 20 with comparator z*_S, ‖z_0 − z*_S‖ ≤ D̂ and
//! τ² ≤ L_noise²(1/m + c₀/32) (minibatch variance ≤ L_noise²/m since the data gradients are bounded
//! by L_noise; dσ² ≤ c₀L_noise²/32 because T ≤ n²ε²/(32 d log(1/δ))) gives
//! E[F(w̄, θ*) − F(w*, θ̄)] ≤ D̂·α̂ with α̂ = (L_step/(2√T))(2 + (L_noise/L_step)²(1/m + c₀/32))
//! ([`lemma9_alpha_hat_at`]); since 1/√T ≥ max{√(8/n), √(32 d log(1/δ))/(nε)}, the explicit α̂
//! ([`lemma9_alpha_hat`]) is the same expression at the unrounded T.

use crate::algorithms::sgda::{BatchRule, Sgda, SgdaDiagnostics};
use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, require_positive, Result};
use crate::papers::bgm23::calibration::{thm21 as bgm23_thm21, NoisySgdaParams};
use crate::papers::bgm23::schedules::{lemma9_alpha_hat, lemma9_alpha_hat_at, thm21_eta};
use crate::papers::Reading;
use crate::problem::{Dataset, Objective, Regularizer, SaddleFn};
use crate::rng::NoiseSource;
use serde::{Deserialize, Serialize};

/// Noisy SGDA with BGM23 Thm 21's T, m, σ, η (BGM23 App. C.2, Thm 21; Lemma 9's A_emp).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoisySgda {
    /// c₀ > 0, the unnamed constant of σ² (BGM23 App. C.2; c₀ = c² of Thm 22).
    pub c0: f64,
    /// ε > 0.
    pub epsilon: f64,
    /// δ ∈ (0, 1).
    pub delta: f64,
    /// The batch-size rule: printed (App. C.2) or corrected (Thm 22's premise; E-BGM23-31).
    pub batch_rule: Reading,
    /// w_0 ∈ W (used by [`Algorithm::run`]).
    pub start_w: Vec<f64>,
    /// θ_0 ∈ Θ (used by [`Algorithm::run`]).
    pub start_theta: Vec<f64>,
    /// D̂ > 0: a bound on ‖z_0 − z‖ for the comparator of interest (used by [`Algorithm::run`]).
    pub d_hat: f64,
    /// L > 0: the Lipschitz constant for both the step and the noise (used by [`Algorithm::run`]).
    pub lipschitz: f64,
    /// Prepended to every stream label (used by [`Algorithm::run`]).
    #[serde(default)]
    pub label_prefix: String,
}

/// The diagnostics of a [`NoisySgda`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoisySgdaDiagnostics {
    /// T, the number of steps.
    #[serde(rename = "T")]
    pub iterations: u64,
    /// m, the batch size.
    pub m: u64,
    /// σ.
    pub sigma: f64,
    /// η = D̂/(L_step√T).
    pub eta: f64,
    /// n.
    pub n: usize,
    /// d = d_w + d_θ.
    pub d: usize,
    /// c₀.
    pub c0: f64,
    /// ε.
    pub epsilon: f64,
    /// δ.
    pub delta: f64,
    /// The batch-size rule.
    pub batch_rule: Reading,
    /// Whether Thm 22's premise T ≥ n²ε/m² holds.
    pub thm22_premise: bool,
    /// D̂.
    pub d_hat: f64,
    /// The step's Lipschitz constant.
    pub l_step: f64,
    /// The noise's Lipschitz constant.
    pub l_noise: f64,
    /// Lemma 9's α̂, explicit ([`lemma9_alpha_hat`]).
    pub alpha_hat_explicit: f64,
    /// Lemma 9's α̂ at the rounded T ([`lemma9_alpha_hat_at`]).
    #[serde(rename = "alpha_hat_at_T")]
    pub alpha_hat_at_t: f64,
    /// The expected gradient count m·T.
    #[serde(rename = "grad_evals_m_times_T")]
    pub grad_evals_m_times_t: u64,
    /// The inner SGDA run's diagnostics.
    pub sgda: SgdaDiagnostics,
}

impl NoisySgda {
    /// Noisy SGDA with c₀ > 0, ε > 0, δ ∈ (0, 1), start (w_0, θ_0) (finite), D̂ > 0 and L > 0;
    /// errors name the parameter (`c0`, `epsilon`, `delta`, `start_w`, `start_theta`, `d_hat`,
    /// `lipschitz`). Whether the start lies in W×Θ is checked when it runs.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        c0: f64,
        epsilon: f64,
        delta: f64,
        batch_rule: Reading,
        start_w: Vec<f64>,
        start_theta: Vec<f64>,
        d_hat: f64,
        lipschitz: f64,
    ) -> Result<NoisySgda> {
        require_positive("c0", c0)?;
        crate::privacy::validate_eps_delta(epsilon, delta)?;
        crate::error::require_finite("start_w", &start_w)?;
        crate::error::require_finite("start_theta", &start_theta)?;
        require_positive("d_hat", d_hat)?;
        require_positive("lipschitz", lipschitz)?;
        Ok(NoisySgda {
            c0,
            epsilon,
            delta,
            batch_rule,
            start_w,
            start_theta,
            d_hat,
            lipschitz,
            label_prefix: String::new(),
        })
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> NoisySgda {
        self.label_prefix = prefix.into();
        self
    }

    /// The Thm 21 parameters and calibration for n points in dimension d, noise Lipschitz L.
    pub fn schedule(
        &self,
        n: usize,
        d: usize,
        l_noise: f64,
    ) -> Result<(
        NoisySgdaParams,
        crate::papers::calibration::PaperCalibration,
    )> {
        bgm23_thm21(
            self.c0,
            n as u64,
            d as u64,
            l_noise,
            self.epsilon,
            self.delta,
            self.batch_rule,
        )
    }

    /// Run on an objective (data part F_S on `obj.data`, plus `obj.reg` added exactly and
    /// uncounted) from (w_0, θ_0), with D̂, the step's Lipschitz constant `l_step` (η = D̂/(l_step√T))
    /// and the noise's `l_noise` (σ and the ledger). n = `obj.data.points.len()`, d = d_w + d_θ.
    ///
    /// `Output.ledger` is the Thm 21 calibration's event
    /// (`self_composed{T, sampled_with_replacement{n, m, gaussian{σm/(2L_noise)}}}`);
    /// `Output.info` holds T, m, σ, η, α̂_explicit (and α̂ at the rounded T), the expected count
    /// m·T and whether Thm 22's premise holds. Bad input is [`crate::Error::Invalid`] naming the
    /// field (`d_hat`, `l_step`, `l_noise`, `c0`, `epsilon`, `delta`, `n` when T < 1, `start`).
    #[allow(clippy::too_many_arguments)]
    pub fn run_objective(
        &self,
        f: &dyn SaddleFn,
        obj: &Objective,
        start_w: &[f64],
        start_theta: &[f64],
        d_hat: f64,
        l_step: f64,
        l_noise: f64,
        label_prefix: &str,
        noise: &mut NoiseSource,
    ) -> Result<Output> {
        require_positive("d_hat", d_hat)?;
        require_positive("l_step", l_step)?;
        require_positive("l_noise", l_noise)?;
        let n = obj.data.points.len();
        let d = f.dim_w() + f.dim_theta();
        let (p, cal) = self.schedule(n, d, l_noise)?;
        let t = usize::try_from(p.iterations).map_err(|_| invalid("n", "T too large"))?;
        let m = usize::try_from(p.batch).map_err(|_| invalid("n", "m too large"))?;
        let eta = thm21_eta(d_hat, l_step, p.iterations);
        let sgda = Sgda {
            eta,
            steps: t,
            start_w: start_w.to_vec(),
            start_theta: start_theta.to_vec(),
            batch: BatchRule::WithReplacement { m },
            sigma: p.sigma,
            reg: Regularizer::none(),
            label_prefix: label_prefix.to_string(),
        };
        let mut out = sgda.run_objective(f, obj, noise)?;
        let expected = p.batch * p.iterations;
        let alpha_explicit = lemma9_alpha_hat(
            l_step,
            l_noise,
            p.batch,
            self.c0,
            n as u64,
            d as u64,
            self.epsilon,
            self.delta,
        );
        let alpha_t = lemma9_alpha_hat_at(l_step, l_noise, p.batch, self.c0, p.iterations);
        let Diagnostics::Sgda(sgda) = out.info else {
            unreachable!("Sgda::run_objective returns SGDA diagnostics")
        };
        out.ledger = Some(cal.ledger.clone());
        out.info = Diagnostics::NoisySgda(NoisySgdaDiagnostics {
            iterations: p.iterations,
            m: p.batch,
            sigma: p.sigma,
            eta,
            n,
            d,
            c0: self.c0,
            epsilon: self.epsilon,
            delta: self.delta,
            batch_rule: p.batch_rule,
            thm22_premise: p.thm22_premise,
            d_hat,
            l_step,
            l_noise,
            alpha_hat_explicit: alpha_explicit,
            alpha_hat_at_t: alpha_t,
            grad_evals_m_times_t: expected,
            sgda,
        });
        Ok(out)
    }
}

impl Algorithm for NoisySgda {
    fn name(&self) -> String {
        format!(
            "noisy_sgda(c0={}, ε={}, δ={}, m rule={:?})",
            self.c0, self.epsilon, self.delta, self.batch_rule
        )
    }

    /// Noisy SGDA on F_S from (`start_w`, `start_theta`) with D̂ = `d_hat` and L = `lipschitz` for
    /// both the step and the noise.
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        crate::algorithms::check_data(f, s)?;
        self.run_objective(
            f,
            &Objective::empirical(s),
            &self.start_w,
            &self.start_theta,
            self.d_hat,
            self.lipschitz,
            self.lipschitz,
            &self.label_prefix,
            noise,
        )
    }
}
