//! One-pass locally private SGDA: BGM23 App. A.2 (L334–L338) and Corollary 16 (L340).
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
//! **Constants (inventory A-6, I-36).**
//! * [`Variant::PaperLiteral`]: σ = L√(log(1/δ))/ε, reading the printed "N(0, I_d σ)" as a
//!   standard deviation, and η = B/(√(n d log(1/δ))·L·ε) exactly as printed (ε in the
//!   denominator, which makes the bound grow like 1/ε³ for small ε).
//! * [`Variant::Corrected`]: σ = 2L√(2 ln(1.25/δ))/ε (the Gaussian mechanism for the local
//!   sensitivity sup‖g(z; x) − g(z; x′)‖ ≤ 2L; [`crate::papers::bgm23::calibration::cor16`]) and
//!   η = Bε/(L√(n d log(1/δ))).
//! * `optimal_step`: η* = B√(2/(nV)), V = 3L² + 2dσ² (with the variant's σ), the minimizer of the
//!   explicit strong-gap bound B²/(ηn) + (η/2)V derived in `proofs-notes/bgm23.md` (Cor 16):
//!   there the bound is B√(2V/n).
//!
//! **Privacy ledger.** Each user's record enters exactly one release, the Gaussian mechanism
//! g(z_{t−1}; x) + N(0, σ²I) with z_{t−1} public: the ledger is that one Gaussian
//! (noise multiplier σ/(2L)), the guarantee of every user's local randomizer.

use crate::algorithms::{Algorithm, Output};
use crate::error::{invalid, require_positive, Result};
use crate::linalg;
use crate::oracle::Oracle;
use crate::papers::bgm23::calibration::cor16 as bgm23_cor16;
use crate::papers::Reading as Variant;
use crate::problem::saddle::validate_point;
use crate::problem::{Dataset, SaddleFn};
use crate::rng::NoiseSource;
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
    pub variant: Variant,
    /// Use η* = B√(2/(nV)) instead of the variant's η.
    #[serde(default)]
    pub optimal_step: bool,
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

/// σ, η and V = 3L² + 2dσ² of one configuration (BGM23 Cor 16; inventory A-6).
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

/// The explicit strong-gap bound of the corrected Cor 16: B²/(ηn) + (η/2)(3L² + 2dσ²)
/// (ghost-iterate argument; inventory §4 Corollary 16).
pub fn cor16_bound(b: f64, eta: f64, n: usize, l: f64, d: usize, sigma: f64) -> f64 {
    b * b / (eta * n as f64) + 0.5 * eta * (3.0 * l * l + 2.0 * d as f64 * sigma * sigma)
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
        let nd_log = n as f64 * d as f64 * (1.0 / self.delta).ln();
        let v = 3.0 * l * l + 2.0 * d as f64 * sigma * sigma;
        let eta = if self.optimal_step {
            b * (2.0 / (n as f64 * v)).sqrt()
        } else {
            match self.variant {
                Variant::PaperLiteral => b / (nd_log.sqrt() * l * eps),
                Variant::Corrected => b * eps / (l * nd_log.sqrt()),
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
        crate::algorithms::check_data(f, s)?;
        validate_point(f, &self.start_w, &self.start_theta)
            .map_err(|e| crate::problem::spec::rename(e, "start"))?;
        let n = s.len();
        let (dw, dt) = (f.dim_w(), f.dim_theta());
        let p = self.params(n, dw + dt)?;
        let cal = bgm23_cor16(self.lipschitz, self.epsilon, self.delta, self.variant)?;
        let order = noise.permutation(&format!("{}ldp_sgda/permutation", self.label_prefix), n)?;
        let oracle = Oracle::new(f);
        let mut w = self.start_w.clone();
        let mut th = self.start_theta.clone();
        let mut sum_w = vec![0.0; dw];
        let mut sum_t = vec![0.0; dt];
        let mut iterates = Vec::with_capacity(n + 1);
        iterates.push(linalg::concat(&w, &th));
        for (t, &i) in (1..=n).zip(&order) {
            linalg::axpy(1.0, &w, &mut sum_w);
            linalg::axpy(1.0, &th, &mut sum_t);
            let (mut gw, mut gt) = oracle.operator(&w, &th, &s.points[i]);
            let xi = noise.gaussian(
                &format!("{}ldp_sgda/noise/step={t}", self.label_prefix),
                dw + dt,
                p.sigma,
            )?;
            let (xw, xt) = linalg::split(&xi, dw);
            linalg::axpy(1.0, &xw, &mut gw);
            linalg::axpy(1.0, &xt, &mut gt);
            w = f
                .domain_w()
                .project(&linalg::sub(&w, &linalg::scale(p.eta, &gw)));
            th = f
                .domain_theta()
                .project(&linalg::sub(&th, &linalg::scale(p.eta, &gt)));
            iterates.push(linalg::concat(&w, &th));
        }
        let inv = 1.0 / n as f64;
        let output = Output {
            w: linalg::scale(inv, &sum_w),
            theta: linalg::scale(inv, &sum_t),
            grad_evals: oracle.grad_evals(),
            ledger: Some(cal.ledger.clone()),
            info: serde_json::json!({
                "T": n,
                "sigma": p.sigma,
                "eta": p.eta,
                "V": p.v,
                "cor16_bound": p.bound,
                "variant": self.variant,
                "optimal_step": self.optimal_step,
                "local_sensitivity": cal.sensitivity,
                "ledger_scope": "each user's single release (local randomizer); users' records are disjoint",
                "last_iterate": iterates.last(),
                "average": "z_0..z_{n-1} (BGM23 eq. (14), T = n)",
            }),
        };
        Ok(LdpRun {
            output,
            order,
            iterates,
        })
    }
}

impl Algorithm for LdpSgda {
    fn name(&self) -> String {
        format!(
            "ldp_sgda(ε={}, δ={}, {:?}{})",
            self.epsilon,
            self.delta,
            self.variant,
            if self.optimal_step { ", η*" } else { "" }
        )
    }

    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        Ok(self.run_traced(f, s, noise)?.output)
    }
}
