//! Recursive Regularization: BGM23 Algorithm 1 (§3), with its subroutine interface `A_emp`
//! (BGM23 Definition 4) and the subroutines of BGM23 §4 (Thm 12's output perturbation, §4.2;
//! Thm 21's noisy SGDA, App. C.2). The schedule's formulas (n′, T, λ, D̂_t, 2^tλ, Λ_t, the round
//! stability and radius) are BGM23's, in [`crate::papers::bgm23::schedules`].
//!
//! ```text
//! n′ = n / log₂ n,  T = log₂(L/(Bλ))                                     (line 1)
//! S_1, …, S_T disjoint, |S_t| = n′                                         (line 2)
//! z̄_0 ∈ W×Θ                                                                (line 3)
//! f^(1) = f + 2λ‖w − w̄_0‖² − 2λ‖θ − θ̄_0‖²                                  (line 4)
//! for t = 1..T:
//!     z̄_t = A_emp(S_t, f^(t), z̄_{t−1}, D̂_t)                               (line 6)
//!     f^(t+1) = f^(t) + 2^{t+1}λ‖w − w̄_t‖² − 2^{t+1}λ‖θ − θ̄_t‖²             (line 7)
//! output z̄_T = [w̄_T, θ̄_T]                                  (line 9; the printed "θ_T" is E-BGM23-5)
//! ```
//!
//! So f^(t) = f + Σ_{k=0}^{t−1} 2^{k+1}λ(‖w − w̄_k‖² − ‖θ − θ̄_k‖²): the cumulative coefficient is
//! Λ_t = (2^{t+1} − 2)λ and, in the crate's norm convention (`problem::saddle`), F^(t) is
//! μ_t = 2Λ_t = (2^{t+2} − 4)λ strongly convex–strongly concave (≥ 2^{t+1}λ, equality at t = 1).
//!
//! **Where the printed algorithm and its proofs differ** (E-BGM23-1, E-BGM23-2, E-BGM23-9,
//! E-BGM23-28), each choice is a switch with the paper-literal value available:
//!
//! * n′ = ⌊n/log₂ n⌋ ([`NPrimeRule::PaperLiteral`]) or ⌊n/T⌋ ([`NPrimeRule::UseAllData`]);
//! * T = ⌊log₂(L/(Bλ))⌋ (the printed real logarithm must be an integer; the floor keeps the 5L
//!   bound of the proof of Thm 18 (the display after eq. (12)), which needs 2^T ≤ L/(Bλ)); T < 1
//!   is an error naming λ. A free mode takes any λ > 0 and an explicit T ([`Schedule::free`]),
//!   outside the theorems' hypotheses;
//! * D̂_t = B/2^t as printed ([`DistanceRule::PaperLiteral`]), B/2^{t−1} with D̂_1 = B, which is
//!   what step (iv) of eq. (12) can actually deliver ([`DistanceRule::Corrected`]), or the literal
//!   step-(iv) value 4B/2^t ([`DistanceRule::StepIv`]);
//! * the partition is into contiguous chunks S_t = x[(t−1)n′ .. t·n′); the rest is never read;
//! * centres returned outside W×Θ (unprojected output perturbation) are kept or projected by the
//!   subroutine's own switch (E-BGM23-28).
//!
//! **Privacy (BGM23 Thm 8).** Round t hands A_emp only the chunk S_t, so the run's ledger is the
//! parallel composition of the rounds' events followed by post-processing.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Result};
use crate::linalg;
use crate::papers::bgm23::schedules;
use crate::privacy::{DpEvent, PrivacyLedger};
use crate::problem::saddle::validate_point;
use crate::problem::{Dataset, Objective, Regularizer, SaddleFn};
use crate::rng::NoiseSource;
use crate::solve::{saddle_point_from, SolveOptions};
use serde::{Deserialize, Serialize};

pub mod paths;

/// How n′ is chosen (BGM23 Algorithm 1, line 1; E-BGM23-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NPrimeRule {
    /// n′ = ⌊n / log₂ n⌋ (Algorithm 1 line 1).
    PaperLiteral,
    /// n′ = ⌊n / T⌋: every point is used (the proofs only need |S_t| = n′).
    UseAllData,
}

/// The distance bound D̂_t handed to A_emp (BGM23 Algorithm 1, line 6; E-BGM23-9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DistanceRule {
    /// D̂_t = B/2^t, as printed.
    PaperLiteral,
    /// D̂_1 = B, D̂_t = B/2^{t−1}: what the proof of Thm 5 (eq. (12) step (iv)) supports.
    Corrected,
    /// D̂_t = 4B/2^t, the bound step (iv) literally writes.
    StepIv,
}

impl DistanceRule {
    /// D̂_t for diameter B.
    pub fn d_hat(self, b: f64, t: usize) -> f64 {
        match self {
            DistanceRule::PaperLiteral => schedules::algorithm1_d_hat(b, t),
            DistanceRule::Corrected => schedules::algorithm1_d_hat_corrected(b, t),
            DistanceRule::StepIv => schedules::thm18_step_iv_d_hat(b, t),
        }
    }
}

/// The schedule of BGM23 Algorithm 1 lines 1–2: n, n′, T, λ, and the constants L, B.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// n = |S|.
    pub n: usize,
    /// n′ = |S_t|.
    pub n_prime: usize,
    /// T, the number of rounds.
    pub rounds: usize,
    /// λ > 0.
    pub lambda: f64,
    /// L, the Lipschitz constant of f.
    pub lipschitz: f64,
    /// B, the diameter of W×Θ.
    pub diameter: f64,
    /// The D̂_t rule.
    pub distance: DistanceRule,
}

impl Schedule {
    /// BGM23 Algorithm 1 line 1: n′ by `rule`, T = ⌊log₂(L/(Bλ))⌋ (an error when T < 1 or the
    /// chunks do not fit).
    pub fn bgm23(
        n: usize,
        lipschitz: f64,
        diameter: f64,
        lambda: f64,
        rule: NPrimeRule,
        distance: DistanceRule,
    ) -> Result<Schedule> {
        crate::error::require_positive("L", lipschitz)?;
        crate::error::require_positive("B", diameter)?;
        crate::error::require_positive("lambda", lambda)?;
        if n < 2 {
            return Err(invalid("n", format!("must be ≥ 2, got {n}")));
        }
        let ratio = lipschitz / (diameter * lambda);
        let t = schedules::algorithm1_rounds(lipschitz, diameter, lambda);
        if t < 1 {
            return Err(invalid(
                "lambda",
                format!(
                    "T = ⌊log₂(L/(Bλ))⌋ = 0 (L/(Bλ) = {ratio}): Algorithm 1 runs no round; \
                     λ must be ≤ L/(2B) = {}",
                    lipschitz / (2.0 * diameter)
                ),
            ));
        }
        let n_prime = match rule {
            NPrimeRule::PaperLiteral => schedules::algorithm1_n_prime(n),
            NPrimeRule::UseAllData => schedules::algorithm1_n_prime_corrected(n, t),
        };
        Schedule::free(n, n_prime, t, lambda, lipschitz, diameter, distance)
    }

    /// Any λ > 0 with an explicit T and n′ (test mode, outside the theorems' hypotheses).
    pub fn free(
        n: usize,
        n_prime: usize,
        rounds: usize,
        lambda: f64,
        lipschitz: f64,
        diameter: f64,
        distance: DistanceRule,
    ) -> Result<Schedule> {
        let s = Schedule {
            n,
            n_prime,
            rounds,
            lambda,
            lipschitz,
            diameter,
            distance,
        };
        s.validate()?;
        Ok(s)
    }

    /// Check λ, L, B > 0, T ∈ 1..=60, n′ ≥ 1 and T·n′ ≤ n (BGM23 Algorithm 1, line 2).
    pub fn validate(&self) -> Result<()> {
        crate::error::require_positive("lambda", self.lambda)?;
        crate::error::require_positive("L", self.lipschitz)?;
        crate::error::require_positive("B", self.diameter)?;
        if self.rounds == 0 || self.rounds > 60 {
            return Err(invalid(
                "T",
                format!("must be in 1..=60, got {}", self.rounds),
            ));
        }
        if self.n_prime == 0 {
            return Err(invalid("n_prime", "must be ≥ 1"));
        }
        if self
            .rounds
            .checked_mul(self.n_prime)
            .is_none_or(|u| u > self.n)
        {
            return Err(invalid(
                "n_prime",
                format!(
                    "T·n′ = {}·{} exceeds n = {}: the chunks S_1..S_T do not fit",
                    self.rounds, self.n_prime, self.n
                ),
            ));
        }
        Ok(())
    }

    /// The index range of S_t (t = 1..T): [(t−1)n′, t·n′).
    pub fn chunk(&self, t: usize) -> std::ops::Range<usize> {
        (t - 1) * self.n_prime..t * self.n_prime
    }

    /// The coefficient 2^tλ of the term added after round t − 1 (anchored at z̄_{t−1}).
    pub fn increment(&self, t: usize) -> f64 {
        schedules::algorithm1_increment(self.lambda, t)
    }

    /// Λ_t = Σ_{k=0}^{t−1} 2^{k+1}λ = (2^{t+1} − 2)λ.
    pub fn cumulative(&self, t: usize) -> f64 {
        schedules::algorithm1_cumulative(self.lambda, t)
    }

    /// μ_t = 2Λ_t, the SC/SC modulus of F^(t).
    pub fn modulus(&self, t: usize) -> f64 {
        2.0 * self.cumulative(t)
    }

    /// D̂_t by the schedule's rule.
    pub fn d_hat(&self, t: usize) -> f64 {
        self.distance.d_hat(self.diameter, t)
    }

    /// The exact round-t stability of the empirical saddle point, Lemma 2 with λ ← μ_t, n ← n′:
    /// Δ*_t = 2L/(μ_t n′) = L/((2^{t+1} − 2)λn′).
    pub fn round_stability_exact(&self, t: usize) -> f64 {
        schedules::lemma2_stability(self.lipschitz, self.modulus(t), self.n_prime)
    }

    /// The paper's round-t stability L/(2^tλn′) (§3 after Lemma 7; proof of Thm 12); ≥ the exact
    /// value.
    pub fn round_stability_paper(&self, t: usize) -> f64 {
        schedules::thm12_round_stability(self.lipschitz, self.lambda, self.n_prime, t)
    }

    /// A Lipschitz bound for f^(t) on W×Θ with centres in W×Θ: L + 2BΛ_t (proof of Thm 18, the
    /// display after eq. (12)); ≤ 5L when 2^T ≤ L/(Bλ).
    pub fn lipschitz_round(&self, t: usize) -> f64 {
        schedules::thm18_round_lipschitz(self.lipschitz, self.diameter, self.cumulative(t))
    }
}

/// What A_emp receives in round t (BGM23 Algorithm 1 line 6).
pub struct RoundInput<'a> {
    /// The round t ∈ \[T\].
    pub t: usize,
    /// F^(t)_{S_t}: the chunk's empirical loss plus the cumulative regularizer.
    pub objective: &'a Objective,
    /// The start z̄_{t−1} (w part).
    pub start_w: &'a [f64],
    /// The start z̄_{t−1} (θ part).
    pub start_theta: &'a [f64],
    /// D̂_t.
    pub d_hat: f64,
    /// The schedule (λ, n′, L, B).
    pub schedule: &'a Schedule,
    /// Prefix for every noise label of this round ("rr/round=t/").
    pub label_prefix: String,
}

/// The subroutine interface of BGM23 Algorithm 1 (A_emp; relative accuracy is Definition 4).
pub trait Aemp: Sync {
    /// Name for reports.
    fn name(&self) -> String;
    /// Compute z̄_t from the round's input.
    fn run_round(
        &self,
        f: &dyn SaddleFn,
        input: &RoundInput,
        noise: &mut NoiseSource,
    ) -> Result<Output>;
}

/// The diagnostics of [`exact_round`]: the solver's certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExactRoundDiagnostics {
    /// The certified gap of the returned point.
    pub certificate_gap: f64,
    /// The certified bound on the distance to the saddle point, if the solver gives one.
    pub dist_bound: Option<f64>,
    /// The solver's method.
    pub solver: String,
    /// The solver's iterations.
    pub solver_iterations: usize,
}

/// The certified saddle point of F^(t)_{S_t} (the exact subroutine: α̂ = 0 up to the solver's
/// certificate), warm-started at z̄_{t−1}.
pub fn exact_round(f: &dyn SaddleFn, input: &RoundInput) -> Result<Output> {
    let cert = saddle_point_from(
        f,
        input.objective,
        (input.start_w.to_vec(), input.start_theta.to_vec()),
        &SolveOptions::default(),
    )?;
    Ok(Output {
        w: cert.w.clone(),
        theta: cert.theta.clone(),
        grad_evals: cert.grad_evals,
        ledger: None,
        info: Diagnostics::ExactRound(ExactRoundDiagnostics {
            certificate_gap: cert.gap,
            dist_bound: cert.dist_bound,
            solver: cert.method,
            solver_iterations: cert.iterations,
        }),
    })
}

/// The A_emp choices of BGM23 §4 and the test subroutines (serialisable, for configs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum AempSpec {
    /// The exact regularized saddle point of each round (certified solver).
    Exact,
    /// z̄_t = Π_{W×Θ}(z*_{S,t} + v_t) with fixed offsets v_t ([w, θ] concatenated, one per round):
    /// a deterministic subroutine with E_t = ‖z̄_t − z*_{S,t}‖² > 0, for enumeration tests of
    /// BGM23 Lemma 19 and Thm 18.
    BiasedExact {
        /// v_1, …, v_T.
        offsets: Vec<Vec<f64>>,
    },
    /// BGM23 Lemma 9 / Cor 10: noisy SGDA with Thm 21's T, m, σ on the n′ points of S_t, started
    /// at z̄_{t−1}, with η = D̂_t/(L_t√T) where L_t = L + 2BΛ_t ≤ 5L bounds the round loss's
    /// gradients. σ is calibrated to L (the regularizer's gradient is public and exact: the data
    /// part's sensitivity is 2L/m) or, as printed (Thm 21 applied to the 5L-Lipschitz f^(t) as a
    /// black box, E-BGM23-33), to L_t.
    NoisySgda {
        /// c₀ > 0, the unnamed constant of σ² (App. C.2).
        c0: f64,
        /// ε.
        epsilon: f64,
        /// δ.
        delta: f64,
        /// The batch-size rule (E-BGM23-31).
        batch_rule: crate::papers::Reading,
        /// Calibrate σ to L_t (true: the paper's black-box reading) instead of L.
        #[serde(default)]
        noise_uses_round_lipschitz: bool,
    },
    /// BGM23 Thm 12 (§4.2): a certified solve to ‖ẑ_t − z*_{S,t}‖ ≤ r_t = (δ/5)L/(2^tλn′),
    /// then ẑ_t + N(0, σ_t² I) with σ_t = 8L√(log(2/δ))/(2^tλn′ε).
    OutputPerturbation {
        /// ε.
        epsilon: f64,
        /// δ.
        delta: f64,
        /// Project the noisy point onto W×Θ (the corrected choice, E-BGM23-28); false keeps the
        /// printed z̄_t = ẑ_t + ξ_t.
        project: bool,
    },
}

impl AempSpec {
    /// BGM23 Lemma 9's subroutine (noisy SGDA with Thm 21's schedule), with c₀ > 0, ε > 0 and
    /// δ ∈ (0, 1) checked (errors name `a_emp.c0`, `epsilon`, `delta`).
    pub fn noisy_sgda(
        c0: f64,
        epsilon: f64,
        delta: f64,
        batch_rule: crate::papers::Reading,
        noise_uses_round_lipschitz: bool,
    ) -> Result<AempSpec> {
        crate::error::require_positive("a_emp.c0", c0)?;
        crate::privacy::validate_eps_delta(epsilon, delta)?;
        Ok(AempSpec::NoisySgda {
            c0,
            epsilon,
            delta,
            batch_rule,
            noise_uses_round_lipschitz,
        })
    }

    /// BGM23 Thm 12's subroutine, with ε > 0 and δ ∈ (0, 1) checked (errors name `epsilon`,
    /// `delta`).
    pub fn output_perturbation(epsilon: f64, delta: f64, project: bool) -> Result<AempSpec> {
        crate::privacy::validate_eps_delta(epsilon, delta)?;
        Ok(AempSpec::OutputPerturbation {
            epsilon,
            delta,
            project,
        })
    }

    /// The test subroutine z̄_t = Π_{W×Θ}(z*_{S,t} + v_t), with finite offsets (errors name
    /// `a_emp.offsets[i]`); their number and length are checked against T and f by
    /// [`AempSpec::validate`].
    pub fn biased_exact(offsets: Vec<Vec<f64>>) -> Result<AempSpec> {
        for (i, v) in offsets.iter().enumerate() {
            crate::error::require_finite(&format!("a_emp.offsets[{i}]"), v)?;
        }
        Ok(AempSpec::BiasedExact { offsets })
    }

    /// Validate parameters against the schedule and f.
    pub fn validate(&self, f: &dyn SaddleFn, schedule: &Schedule) -> Result<()> {
        match self {
            AempSpec::Exact => Ok(()),
            AempSpec::BiasedExact { offsets } => {
                if offsets.len() != schedule.rounds {
                    return Err(invalid(
                        "a_emp.offsets",
                        format!(
                            "needs one offset per round (T = {}), got {}",
                            schedule.rounds,
                            offsets.len()
                        ),
                    ));
                }
                let d = f.dim_w() + f.dim_theta();
                for (i, v) in offsets.iter().enumerate() {
                    if v.len() != d {
                        return Err(invalid(
                            format!("a_emp.offsets[{i}]"),
                            format!("has length {}, expected d_w + d_θ = {d}", v.len()),
                        ));
                    }
                    crate::error::require_finite(&format!("a_emp.offsets[{i}]"), v)?;
                }
                Ok(())
            }
            AempSpec::OutputPerturbation { epsilon, delta, .. } => {
                crate::privacy::validate_eps_delta(*epsilon, *delta)
            }
            AempSpec::NoisySgda {
                c0, epsilon, delta, ..
            } => {
                crate::error::require_positive("a_emp.c0", *c0)?;
                crate::privacy::validate_eps_delta(*epsilon, *delta)
            }
        }
    }
}

impl Aemp for AempSpec {
    fn name(&self) -> String {
        match self {
            AempSpec::Exact => "exact".into(),
            AempSpec::BiasedExact { .. } => "biased_exact".into(),
            AempSpec::OutputPerturbation {
                epsilon,
                delta,
                project,
            } => format!("output_perturbation(ε={epsilon}, δ={delta}, project={project})"),
            AempSpec::NoisySgda {
                c0,
                epsilon,
                delta,
                batch_rule,
                noise_uses_round_lipschitz,
            } => format!(
                "noisy_sgda(c0={c0}, ε={epsilon}, δ={delta}, m rule={batch_rule:?}, σ from {})",
                if *noise_uses_round_lipschitz {
                    "L_t"
                } else {
                    "L"
                }
            ),
        }
    }

    fn run_round(
        &self,
        f: &dyn SaddleFn,
        input: &RoundInput,
        noise: &mut NoiseSource,
    ) -> Result<Output> {
        match self {
            AempSpec::Exact => exact_round(f, input),
            AempSpec::BiasedExact { offsets } => {
                let mut out = exact_round(f, input)?;
                let v = &offsets[input.t - 1];
                let z = linalg::add(&out.z(), v);
                let (w, th) = linalg::split(&z, f.dim_w());
                out.w = f.domain_w().project(&w);
                out.theta = f.domain_theta().project(&th);
                Ok(out)
            }
            AempSpec::OutputPerturbation {
                epsilon,
                delta,
                project,
            } => output_perturbation_round(f, input, *epsilon, *delta, *project, noise),
            AempSpec::NoisySgda {
                c0,
                epsilon,
                delta,
                batch_rule,
                noise_uses_round_lipschitz,
            } => {
                let s = input.schedule;
                let l_step = s.lipschitz_round(input.t);
                let l_noise = if *noise_uses_round_lipschitz {
                    l_step
                } else {
                    s.lipschitz
                };
                let alg = crate::algorithms::noisy_sgda::NoisySgda {
                    c0: *c0,
                    epsilon: *epsilon,
                    delta: *delta,
                    batch_rule: *batch_rule,
                    start_w: input.start_w.to_vec(),
                    start_theta: input.start_theta.to_vec(),
                    d_hat: input.d_hat,
                    lipschitz: l_step,
                    label_prefix: input.label_prefix.clone(),
                };
                alg.run_objective(
                    f,
                    input.objective,
                    input.start_w,
                    input.start_theta,
                    input.d_hat,
                    l_step,
                    l_noise,
                    &input.label_prefix,
                    noise,
                )
            }
        }
    }
}

/// The diagnostics of [`output_perturbation_round`] (BGM23 Thm 12's round).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputPerturbationRoundDiagnostics {
    /// σ_t.
    pub sigma: f64,
    /// r_t = (δ/5)L/(2^tλn′).
    pub r_t: f64,
    /// The sensitivity Δ*_t + 2r_t of ẑ_t.
    pub sensitivity: f64,
    /// The solver's certified ‖ẑ_t − z*_{S,t}‖.
    pub solver_dist_bound: f64,
    /// ẑ_t = [w, θ] before the noise.
    pub unperturbed: Vec<f64>,
    /// Whether the noisy point was projected onto W×Θ.
    pub projected: bool,
}

/// BGM23 Thm 12's round (§4.2): ẑ_t from the certified solver, which must certify
/// ‖ẑ_t − z*_{S,t}‖ ≤ r_t = (δ/5)L/(2^tλn′) *surely* (the deterministic replacement of the
/// paper's E‖ẑ_t − z*‖ ≤ r_t, E-BGM23-24), then z̄_t = ẑ_t + ξ_t, ξ_t ∼ N(0, σ_t² I).
///
/// The solver is our certified linearly convergent extragradient method (`solve`), standing in
/// for the accelerated solver of BGM23 Lemma 11 (Jin et al. 2022), which the paper does not give:
/// its gradient counts are reported as measured and do **not** follow Lemma 11's rate.
///
/// Sensitivity of ẑ_t between neighbouring chunks: Δ*_t + 2r_t ≤ (1 + 2δ/5)L/(2^tλn′) (the paper
/// prints 2L/(2^tλn′) after a Markov step whose correct value is 3L/(2^tλn′); claim
/// `bgm23.thm12_sensitivity`). The round's event is a Gaussian of noise multiplier σ_t/(that
/// sensitivity).
pub fn output_perturbation_round(
    f: &dyn SaddleFn,
    input: &RoundInput,
    epsilon: f64,
    delta: f64,
    project: bool,
    noise: &mut NoiseSource,
) -> Result<Output> {
    let s = input.schedule;
    let t = input.t;
    let exact = exact_round(f, input)?;
    let r_t = schedules::thm12_radius(delta, s.lipschitz, s.lambda, s.n_prime, t);
    let dist = match &exact.info {
        Diagnostics::ExactRound(d) => d.dist_bound.unwrap_or(f64::INFINITY),
        _ => f64::INFINITY,
    };
    if dist > r_t {
        return Err(crate::error::Error::NotCertified(format!(
            "round {t}: the solver certified ‖ẑ_t − z*_(S,t)‖ ≤ {dist:e}, above Thm 12's r_t = {r_t:e}"
        )));
    }
    let sigma = crate::papers::bgm23::calibration::thm12_sigma(
        s.lipschitz,
        s.lambda,
        s.n_prime as u64,
        t as u32,
        epsilon,
        delta,
    )?;
    let d = f.dim_w() + f.dim_theta();
    let xi = noise.gaussian(
        &format!("{}output_perturbation/noise", input.label_prefix),
        d,
        sigma,
    )?;
    let z = linalg::add(&exact.z(), &xi);
    let (mut w, mut th) = linalg::split(&z, f.dim_w());
    if project {
        w = f.domain_w().project(&w);
        th = f.domain_theta().project(&th);
    }
    let sens = s.round_stability_exact(t) + 2.0 * r_t;
    Ok(Output {
        w,
        theta: th,
        grad_evals: exact.grad_evals,
        ledger: Some(PrivacyLedger {
            relation: crate::privacy::Neighbouring::ReplaceOne,
            event: DpEvent::Gaussian {
                noise_multiplier: sigma / sens,
            },
        }),
        info: Diagnostics::OutputPerturbationRound(OutputPerturbationRoundDiagnostics {
            sigma,
            r_t,
            sensitivity: sens,
            solver_dist_bound: dist,
            unperturbed: exact.z(),
            projected: project,
        }),
    })
}

/// One round of a run (everything Lemma 19 and Thm 18 need).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// t.
    pub t: usize,
    /// S_t = x[start..end).
    pub chunk: (usize, usize),
    /// D̂_t.
    pub d_hat: f64,
    /// 2^tλ, the newest term's coefficient (anchored at z̄_{t−1}).
    pub increment: f64,
    /// Λ_t.
    pub cumulative: f64,
    /// μ_t = 2Λ_t.
    pub modulus: f64,
    /// The start z̄_{t−1}.
    pub start: Vec<f64>,
    /// z̄_t, as returned.
    pub z_bar: Vec<f64>,
    /// z*_{S,t}, the certified saddle point of F^(t)_{S_t} (when recorded).
    pub z_star_s: Option<Vec<f64>>,
    /// Gradient evaluations of A_emp in this round.
    pub grad_evals: u64,
    /// A_emp's diagnostics.
    pub info: Diagnostics,
}

/// One round in the diagnostics of a run ([`RecursiveRegularizationDiagnostics::rounds`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundSummary {
    /// t.
    pub t: usize,
    /// S_t = x[start..end).
    pub chunk: (usize, usize),
    /// D̂_t.
    pub d_hat: f64,
    /// 2^tλ.
    pub increment: f64,
    /// z̄_t.
    pub z_bar: Vec<f64>,
    /// Gradient evaluations of A_emp in this round.
    pub grad_evals: u64,
    /// A_emp's noise scale σ_t, if it has one.
    pub sigma: Option<f64>,
}

/// The diagnostics of a [`RecursiveRegularization`] run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecursiveRegularizationDiagnostics {
    /// n′.
    pub n_prime: usize,
    /// T.
    #[serde(rename = "T")]
    pub rounds: usize,
    /// λ.
    pub lambda: f64,
    /// A_emp's name.
    pub a_emp: String,
    /// n − T·n′, the points no round reads.
    pub unused_points: usize,
    /// The rounds t = 1..T.
    #[serde(rename = "rounds")]
    pub round_summaries: Vec<RoundSummary>,
}

/// A traced run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecursiveRegularizationRun {
    /// The output z̄_T with the run's ledger.
    pub output: Output,
    /// Round records t = 1..T.
    pub rounds: Vec<RoundRecord>,
    /// The regularizer of F^(T+1) (the terms anchored at z̄_0..z̄_T): F^(t)'s terms are the first t.
    pub regularizer: Regularizer,
}

/// BGM23 Algorithm 1 with a schedule, a start z̄_0 and a subroutine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecursiveRegularization {
    /// n′, T, λ, L, B and the D̂ rule.
    pub schedule: Schedule,
    /// w̄_0 ∈ W.
    pub start_w: Vec<f64>,
    /// θ̄_0 ∈ Θ.
    pub start_theta: Vec<f64>,
    /// A_emp.
    pub a_emp: AempSpec,
    /// Also compute and record z*_{S,t} in each round (uncounted; for Lemma 19 / Thm 18 checks).
    #[serde(default)]
    pub record_exact: bool,
}

impl RecursiveRegularization {
    /// BGM23 Algorithm 1 with a schedule, a start z̄_0 = [w̄_0, θ̄_0] and a subroutine. Checks the
    /// schedule ([`Schedule::validate`]), that the start is finite (error naming `start_w` or
    /// `start_theta`) and A_emp's own parameters (errors naming `a_emp.c0`, `epsilon`, `delta`,
    /// `a_emp.offsets[i]`); what depends on the problem (dimensions, W×Θ, one offset per round) is
    /// checked when it runs. `record_exact` starts false ([`RecursiveRegularization::with_record_exact`]).
    pub fn new(
        schedule: Schedule,
        start_w: Vec<f64>,
        start_theta: Vec<f64>,
        a_emp: AempSpec,
    ) -> Result<RecursiveRegularization> {
        schedule.validate()?;
        crate::error::require_finite("start_w", &start_w)?;
        crate::error::require_finite("start_theta", &start_theta)?;
        match &a_emp {
            AempSpec::Exact => {}
            AempSpec::BiasedExact { offsets } => {
                for (i, v) in offsets.iter().enumerate() {
                    crate::error::require_finite(&format!("a_emp.offsets[{i}]"), v)?;
                }
            }
            AempSpec::OutputPerturbation { epsilon, delta, .. } => {
                crate::privacy::validate_eps_delta(*epsilon, *delta)?
            }
            AempSpec::NoisySgda {
                c0, epsilon, delta, ..
            } => {
                crate::error::require_positive("a_emp.c0", *c0)?;
                crate::privacy::validate_eps_delta(*epsilon, *delta)?
            }
        }
        Ok(RecursiveRegularization {
            schedule,
            start_w,
            start_theta,
            a_emp,
            record_exact: false,
        })
    }

    /// Also compute and record z*_{S,t} in each round (uncounted; for Lemma 19 / Thm 18 checks).
    pub fn with_record_exact(mut self, record_exact: bool) -> RecursiveRegularization {
        self.record_exact = record_exact;
        self
    }

    /// The round-t objective F^(t)_{S_t}: the chunk's empirical loss plus the first t terms of
    /// `reg` (those anchored at z̄_0..z̄_{t−1}).
    pub fn round_objective(chunk: &Dataset, reg: &Regularizer, t: usize) -> Objective {
        Objective::empirical(chunk).with_reg(Regularizer {
            terms: reg.terms[..t].to_vec(),
        })
    }

    /// Run with a caller-supplied subroutine (the traced form of [`Algorithm::run`]).
    pub fn run_with(
        &self,
        a_emp: &dyn Aemp,
        f: &dyn SaddleFn,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<RecursiveRegularizationRun> {
        let sch = &self.schedule;
        sch.validate()?;
        if s.len() != sch.n {
            return Err(invalid(
                "data",
                format!(
                    "has n = {} points, the schedule says n = {}",
                    s.len(),
                    sch.n
                ),
            ));
        }
        crate::algorithms::check_data(f, s)?;
        validate_point(f, &self.start_w, &self.start_theta)
            .map_err(|e| crate::problem::spec::rename(e, "start"))?;
        self.a_emp.validate(f, sch)?;
        let mut reg = Regularizer::none();
        reg.push(sch.increment(1), &self.start_w, &self.start_theta);
        let (mut w, mut th) = (self.start_w.clone(), self.start_theta.clone());
        let mut rounds = Vec::with_capacity(sch.rounds);
        let mut events = Vec::new();
        let mut total = 0u64;
        for t in 1..=sch.rounds {
            let range = sch.chunk(t);
            // Self::round_objective(&s.slice(range), &reg, t), with one copy of the chunk.
            let obj = Objective {
                data: crate::problem::Mixture::empirical_owned(s.points.slice(range.clone())),
                reg: Regularizer {
                    terms: reg.terms[..t].to_vec(),
                },
            };
            let input = RoundInput {
                t,
                objective: &obj,
                start_w: &w,
                start_theta: &th,
                d_hat: sch.d_hat(t),
                schedule: sch,
                label_prefix: format!("rr/round={t}/"),
            };
            let out = a_emp.run_round(f, &input, noise)?;
            let z_star_s = if self.record_exact {
                let c =
                    saddle_point_from(f, &obj, (w.clone(), th.clone()), &SolveOptions::default())?;
                Some(linalg::concat(&c.w, &c.theta))
            } else {
                None
            };
            if let Some(l) = &out.ledger {
                events.push(l.event.clone());
            }
            total += out.grad_evals;
            rounds.push(RoundRecord {
                t,
                chunk: (range.start, range.end),
                d_hat: input.d_hat,
                increment: sch.increment(t),
                cumulative: sch.cumulative(t),
                modulus: sch.modulus(t),
                start: linalg::concat(&w, &th),
                z_bar: out.z(),
                z_star_s,
                grad_evals: out.grad_evals,
                info: out.info,
            });
            w = out.w;
            th = out.theta;
            reg.push(sch.increment(t + 1), &w, &th);
        }
        let ledger = (!events.is_empty()).then(|| PrivacyLedger {
            relation: crate::privacy::Neighbouring::ReplaceOne,
            event: DpEvent::Composed(vec![
                DpEvent::ParallelComposed(events),
                DpEvent::PostProcessing,
            ]),
        });
        Ok(RecursiveRegularizationRun {
            output: Output {
                w,
                theta: th,
                grad_evals: total,
                ledger,
                info: Diagnostics::RecursiveRegularization(RecursiveRegularizationDiagnostics {
                    n_prime: sch.n_prime,
                    rounds: sch.rounds,
                    lambda: sch.lambda,
                    a_emp: a_emp.name(),
                    unused_points: sch.n - sch.rounds * sch.n_prime,
                    round_summaries: rounds
                        .iter()
                        .map(|r| RoundSummary {
                            t: r.t,
                            chunk: r.chunk,
                            d_hat: r.d_hat,
                            increment: r.increment,
                            z_bar: r.z_bar.clone(),
                            grad_evals: r.grad_evals,
                            sigma: r.info.sigma(),
                        })
                        .collect(),
                }),
            },
            rounds,
            regularizer: reg,
        })
    }
}

impl Algorithm for RecursiveRegularization {
    fn name(&self) -> String {
        format!(
            "recursive_regularization(λ={}, T={}, n′={}, A_emp={})",
            self.schedule.lambda,
            self.schedule.rounds,
            self.schedule.n_prime,
            self.a_emp.name()
        )
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        Ok(self.run_with(&self.a_emp, f, s, noise)?.output)
    }
}
