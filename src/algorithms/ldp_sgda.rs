//! One-pass locally private SGDA: BGM23 App. A.2 and Corollary 16.
//!
//! ```text
//! T = n; π = a uniformly random permutation of [n]   ("x_t sampled without replacement from S")
//! for t = 1..n:
//!     user π(t) releases ∇_t = g(z_{t−1}; x_{π(t)}) + ξ_t,  ξ_t ~ N(0, σ² I_d)   (local randomizer)
//!     z_t = Π_{W×Θ}(z_{t−1} − η ∇_t)
//! output z̄ = (1/n) Σ_{t=0}^{n−1} z_t                 (BGM23 eq. (14) with T = n)
//! ```
//!
//! Randomness: π from `NoiseSource::permutation("{prefix}ldp_sgda/permutation", n)` (Fisher–Yates,
//! `fixtures/RANDOMNESS.md`), ξ_t from `NoiseSource::gaussian("{prefix}ldp_sgda/noise/step={t}",
//! d, σ)`. One gradient evaluation per user, n in all.
//!
//! **Constants (Cor 16; E-BGM23-36).** The formulas are BGM23's, in
//! [`crate::papers::bgm23::schedules`] (`cor16_eta`, `cor16_eta_corrected`, `cor16_variance`,
//! `cor16_optimal_eta`, `cor16_bound`).
//! * [`Reading::PaperLiteral`]: σ = L√(log(1/δ))/ε, reading the printed "N(0, I_d σ)" as a
//!   standard deviation, and η = B/(√(n d log(1/δ))·L·ε) exactly as printed (ε in the
//!   denominator, which makes the bound grow like 1/ε³ for small ε).
//! * [`Reading::Corrected`]: σ = 2L√(2 ln(1.25/δ))/ε (the Gaussian mechanism for the local
//!   sensitivity sup‖g(z; x) − g(z; x′)‖ ≤ 2L; [`crate::papers::bgm23::calibration::cor16`]) and
//!   η = Bε/(L√(n d log(1/δ))).
//! * `optimal_step`: η* = B√(2/(nV)), V = 3L² + 2dσ² (with the variant's σ), the minimizer of the
//!   explicit strong-gap bound B²/(ηn) + (η/2)V derived in `proofs-notes/bgm23.md` (Cor 16):
//!   there the bound is B√(2V/n).
//!
//! **Privacy ledger.** Each user's record enters exactly one release, the Gaussian mechanism
//! g(z_{t−1}; x) + N(0, σ²I) with z_{t−1} public: the ledger is that one Gaussian
//! (noise multiplier σ/(2L)), the guarantee of every user's local randomizer.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, require_positive, Result};
use crate::linalg;
use crate::oracle::Oracle;
use crate::papers::bgm23::calibration::cor16 as bgm23_cor16;
use crate::papers::bgm23::schedules::{
    cor16_bound, cor16_eta, cor16_eta_corrected, cor16_optimal_eta, cor16_variance,
};
use crate::papers::Reading;
use crate::problem::saddle::validate_point;
use crate::problem::{Dataset, SaddleFn};
use crate::rng::{NoiseSource, StepLabel};
use serde::{Deserialize, Serialize};

/// One-pass local-DP SGDA (BGM23 App. A.2, Cor 16).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LdpSgda {
    /// ε > 0.
    pub epsilon: f64,
    /// δ ∈ (0, 1).
    pub delta: f64,
    /// σ and η as printed, or corrected (module docs).
    pub variant: Reading,
    /// Use η* = B√(2/(nV)) instead of the variant's η.
    #[serde(default)]
    pub optimal_step: bool,
    /// An explicit step η > 0 instead of the variant's η or η* (σ and the ledger, which do not
    /// depend on η, are unchanged; the bound B²/(ηn) + (η/2)V is evaluated at this η).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// w_0 ∈ W.
    pub start_w: Vec<f64>,
    /// θ_0 ∈ Θ.
    pub start_theta: Vec<f64>,
    /// L > 0: bounds ‖g(z; x)‖ over W×Θ and the data domain.
    pub lipschitz: f64,
    /// B > 0: the diameter of W×Θ.
    pub diameter: f64,
    /// Prepended to every stream label.
    #[serde(default)]
    pub label_prefix: String,
}

/// σ, η and V = 3L² + 2dσ² of one configuration (BGM23 Cor 16).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct LdpParams {
    /// The noise standard deviation σ.
    pub sigma: f64,
    /// The step η.
    pub eta: f64,
    /// V = 3L² + 2dσ².
    pub v: f64,
    /// The explicit strong-gap bound B²/(ηn) + (η/2)V (proofs-notes, Cor 16).
    pub bound: f64,
}

/// The diagnostics of an [`LdpSgda`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LdpSgdaDiagnostics {
    /// T = n.
    #[serde(rename = "T")]
    pub steps: usize,
    /// σ.
    pub sigma: f64,
    /// η.
    pub eta: f64,
    /// V = 3L² + 2dσ².
    #[serde(rename = "V")]
    pub v: f64,
    /// The explicit strong-gap bound B²/(ηn) + (η/2)V.
    pub cor16_bound: f64,
    /// σ and η as printed, or corrected.
    pub variant: Reading,
    /// Whether η* was used.
    pub optimal_step: bool,
    /// The local sensitivity of one user's release.
    pub local_sensitivity: f64,
    /// What the ledger covers.
    pub ledger_scope: String,
    /// z_n.
    pub last_iterate: Option<Vec<f64>>,
    /// Which iterates the output averages.
    pub average: String,
}

/// A traced run: the output, the order in which the data were used (π), and z_0..z_n.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LdpRun {
    /// The output z̄ = average of z_0..z_{n−1}.
    pub output: Output,
    /// π: user π\[t−1\] released at step t.
    pub order: Vec<usize>,
    /// z_0, …, z_n.
    pub iterates: Vec<Vec<f64>>,
}

impl LdpSgda {
    /// One-pass LDP SGDA with ε > 0, δ ∈ (0, 1), the reading `variant` of σ and η, start
    /// (w_0, θ_0) (finite), L > 0 and B > 0; η as printed/corrected (see
    /// [`LdpSgda::with_optimal_step`]), no label prefix. Errors name the parameter (`epsilon`,
    /// `delta`, `start_w`, `start_theta`, `lipschitz`, `diameter`).
    pub fn new(
        epsilon: f64,
        delta: f64,
        variant: Reading,
        start_w: Vec<f64>,
        start_theta: Vec<f64>,
        lipschitz: f64,
        diameter: f64,
    ) -> Result<LdpSgda> {
        crate::privacy::validate_eps_delta(epsilon, delta)?;
        crate::error::require_finite("start_w", &start_w)?;
        crate::error::require_finite("start_theta", &start_theta)?;
        require_positive("lipschitz", lipschitz)?;
        require_positive("diameter", diameter)?;
        Ok(LdpSgda {
            epsilon,
            delta,
            variant,
            optimal_step: false,
            step: None,
            start_w,
            start_theta,
            lipschitz,
            diameter,
            label_prefix: String::new(),
        })
    }

    /// Use η* = B√(2/(nV)) instead of the variant's η.
    pub fn with_optimal_step(mut self, optimal_step: bool) -> LdpSgda {
        self.optimal_step = optimal_step;
        self
    }

    /// Use the explicit step η (finite and > 0, else an error naming `eta`; `None`: the
    /// variant's η or η*).
    pub fn with_step(mut self, eta: Option<f64>) -> Result<LdpSgda> {
        if let Some(e) = eta {
            require_positive("eta", e)?;
        }
        self.step = eta;
        Ok(self)
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> LdpSgda {
        self.label_prefix = prefix.into();
        self
    }

    /// σ, η, V and the bound for n users in dimension d = d_w + d_θ.
    pub fn params(&self, n: usize, d: usize) -> Result<LdpParams> {
        require_positive("lipschitz", self.lipschitz)?;
        require_positive("diameter", self.diameter)?;
        if n == 0 {
            return Err(invalid("n", "must be ≥ 1"));
        }
        let cal = bgm23_cor16(self.lipschitz, self.epsilon, self.delta, self.variant)?;
        let sigma = cal.sigma;
        let (l, b, eps) = (self.lipschitz, self.diameter, self.epsilon);
        let v = cor16_variance(l, d, sigma);
        let eta = if let Some(e) = self.step {
            require_positive("eta", e)?;
            e
        } else if self.optimal_step {
            cor16_optimal_eta(b, n, v)
        } else {
            match self.variant {
                Reading::PaperLiteral => cor16_eta(b, l, n, d, eps, self.delta),
                Reading::Corrected => cor16_eta_corrected(b, l, n, d, eps, self.delta),
            }
        };
        Ok(LdpParams {
            sigma,
            eta,
            v,
            bound: cor16_bound(b, eta, n, l, d, sigma),
        })
    }

    /// Run on S keeping π and the trajectory.
    pub fn run_traced(
        &self,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<LdpRun> {
        let mut iterates = Vec::with_capacity(s.len() + 1);
        let (output, order) = self.run_inner(f, s, noise, Some(&mut iterates))?;
        Ok(LdpRun {
            output,
            order,
            iterates,
        })
    }

    /// The one pass: each user's operator through the loss's per-sample kernel into
    /// preallocated buffers, one-shot noise streams, projections in place; the iterates are kept
    /// only when `trace` asks for them.
    fn run_inner(
        &self,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
        mut trace: Option<&mut Vec<Vec<f64>>>,
    ) -> Result<(Output, Vec<usize>)> {
        crate::algorithms::check_data(f, s)?;
        validate_point(f, &self.start_w, &self.start_theta)
            .map_err(|e| crate::problem::spec::rename(e, "start"))?;
        let n = s.len();
        let (dw, dt) = (f.dim_w(), f.dim_theta());
        let p = self.params(n, dw + dt)?;
        let cal = bgm23_cor16(self.lipschitz, self.epsilon, self.delta, self.variant)?;
        let order = noise.permutation(&format!("{}ldp_sgda/permutation", self.label_prefix), n)?;
        let oracle = Oracle::new(f);
        let mut kernel = oracle.kernel();
        let mut w = self.start_w.clone();
        let mut th = self.start_theta.clone();
        let mut sum_w = vec![0.0; dw];
        let mut sum_t = vec![0.0; dt];
        let (mut gw, mut gt) = (vec![0.0; dw], vec![0.0; dt]);
        let mut xi = vec![0.0; dw + dt];
        let label = StepLabel::new(format!("{}ldp_sgda/noise/step=", self.label_prefix));
        if let Some(it) = trace.as_deref_mut() {
            it.push(linalg::concat(&w, &th));
        }
        for (t, &i) in (1..=n).zip(&order) {
            linalg::axpy(1.0, &w, &mut sum_w);
            linalg::axpy(1.0, &th, &mut sum_t);
            oracle.operator_into(kernel.as_mut(), &s.points[i], &w, &th, &mut gw, &mut gt);
            noise.gaussian_at(&label, t as u64, p.sigma, &mut xi)?;
            let (xw, xt) = xi.split_at(dw);
            linalg::axpy(1.0, xw, &mut gw);
            linalg::axpy(1.0, xt, &mut gt);
            super::projected_descent_step(f, p.eta, &gw, &gt, &mut w, &mut th);
            if let Some(it) = trace.as_deref_mut() {
                it.push(linalg::concat(&w, &th));
            }
        }
        let inv = 1.0 / n as f64;
        let output = Output {
            w: linalg::scale(inv, &sum_w),
            theta: linalg::scale(inv, &sum_t),
            grad_evals: oracle.grad_evals(),
            ledger: Some(cal.ledger.clone()),
            info: Diagnostics::LdpSgda(LdpSgdaDiagnostics {
                steps: n,
                sigma: p.sigma,
                eta: p.eta,
                v: p.v,
                cor16_bound: p.bound,
                variant: self.variant,
                optimal_step: self.optimal_step,
                local_sensitivity: cal.sensitivity,
                ledger_scope: "each user's single release (local randomizer); users' records are \
                               disjoint"
                    .to_string(),
                last_iterate: Some(linalg::concat(&w, &th)),
                average: "z_0..z_{n-1} (BGM23 eq. (14), T = n)".to_string(),
            }),
        };
        Ok((output, order))
    }
}

impl Algorithm for LdpSgda {
    fn name(&self) -> String {
        format!(
            "ldp_sgda(ε={}, δ={}, {:?}{})",
            self.epsilon,
            self.delta,
            self.variant,
            match (self.step, self.optimal_step) {
                (Some(e), _) => format!(", η={e}"),
                (None, true) => ", η*".to_string(),
                (None, false) => String::new(),
            }
        )
    }

    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        Ok(self.run_inner(f, s, noise, None)?.0)
    }
}
