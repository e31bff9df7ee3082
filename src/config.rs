//! `dpsaddle run` configurations: one algorithm on one instance (README.md, "Other commands").
//!
//! ```json
//! {
//!   "problem": {"family": "quad_bilinear", "domain_w": {...}, "domain_theta": {...}},
//!   "data": {"points": [[0.6, 0.8], ...]}            // or
//!   "data": {"distribution": {"atoms": [...], "probs": [...]}, "n": 100},
//!   "params": {"lambda": 0.5, "epsilon": 1.0, "delta": 1e-5},
//!   "seed": 7
//! }
//! ```
//! Unknown fields anywhere are rejected with the field named. A dataset drawn from a
//! distribution uses the stream labelled "data/sample" of the run's seed.

use crate::algorithms::ldp_sgda::LdpSgda;
use crate::algorithms::noisy_sgda::NoisySgda;
use crate::algorithms::recursive_regularization::{
    AempSpec, DistanceRule, NPrimeRule, RecursiveRegularization, Schedule,
};
use crate::algorithms::sgda::{BatchRule, Sgda};
use crate::algorithms::{Algorithm, OutputPerturbation, RegularizedSaddlePoint};
use crate::error::{invalid, Error, Result};
use crate::gap::gap_function;
use crate::papers::kllw22::calibration::THM1_C_JOINT;
use crate::papers::Reading;
use crate::problem::{Dataset, FiniteDist, Objective, ProblemSpec, SaddleFn};
use crate::rng::{NoiseSource, Stream};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// Where the data come from.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum DataSpec {
    /// An explicit dataset.
    Points {
        /// x_1, …, x_n.
        points: Vec<Vec<f64>>,
    },
    /// n i.i.d. draws from a finite-support distribution (whose population gap is then exact).
    Distribution {
        /// D.
        distribution: DistSpec,
        /// n.
        n: usize,
    },
    /// n points with i.i.d. coordinates uniform on \[lo, hi) (no population gap is computed).
    Uniform {
        /// The coordinates' range and the point length.
        uniform: UniformSpec,
        /// n.
        n: usize,
    },
}

/// Points with i.i.d. uniform coordinates: coordinate j of point i is `lo + (hi − lo)·u` with u
/// the (i·dim + j)-th uniform of the stream labelled `data/sample` of the seed.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UniformSpec {
    /// The lower end (finite).
    pub lo: f64,
    /// The upper end (finite, > lo).
    pub hi: f64,
    /// The length k of each point (≥ 1).
    pub dim: usize,
}

/// A finite-support distribution in a config.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistSpec {
    /// Atoms.
    pub atoms: Vec<Vec<f64>>,
    /// Probabilities.
    pub probs: Vec<f64>,
}

/// A run configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    /// The problem instance.
    pub problem: ProblemSpec,
    /// The data.
    pub data: DataSpec,
    /// Algorithm parameters (validated by the algorithm named on the command line).
    #[serde(default)]
    pub params: Value,
    /// Master seed (the command line's --seed overrides it).
    #[serde(default)]
    pub seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegParams {
    lambda: f64,
    #[serde(default)]
    anchor_w: Option<Vec<f64>>,
    #[serde(default)]
    anchor_theta: Option<Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpParams {
    lambda: f64,
    epsilon: f64,
    delta: f64,
    #[serde(default)]
    lipschitz: Option<f64>,
    #[serde(default)]
    anchor_w: Option<Vec<f64>>,
    #[serde(default)]
    anchor_theta: Option<Vec<f64>>,
}

/// `recursive_regularization` parameters (BGM23 Algorithm 1). Either `lambda` alone (the schedule
/// of line 1: n′ by `n_prime_rule`, T = ⌊log₂(L/(Bλ))⌋) or `lambda` with `rounds` and `n_prime`
/// (free mode). L and B default to the family's constants over the data support.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecursiveRegularizationParams {
    lambda: f64,
    #[serde(default)]
    rounds: Option<usize>,
    #[serde(default)]
    n_prime: Option<usize>,
    #[serde(default = "default_n_prime_rule")]
    n_prime_rule: NPrimeRule,
    #[serde(default = "default_distance_rule")]
    distance_rule: DistanceRule,
    #[serde(default = "default_a_emp")]
    a_emp: AempSpec,
    #[serde(default)]
    lipschitz: Option<f64>,
    #[serde(default)]
    diameter: Option<f64>,
    #[serde(default)]
    start_w: Option<Vec<f64>>,
    #[serde(default)]
    start_theta: Option<Vec<f64>>,
}

fn default_n_prime_rule() -> NPrimeRule {
    NPrimeRule::PaperLiteral
}

fn default_distance_rule() -> DistanceRule {
    DistanceRule::Corrected
}

fn default_a_emp() -> AempSpec {
    AempSpec::Exact
}

/// `noisy_sgda` parameters: BGM23 Thm 21's schedule (`c0`, `epsilon`, `delta`, optional
/// `batch_rule`, `d_hat`, `lipschitz`) or an explicit run (`steps` T, `batch` m, `eta` η,
/// `sigma` σ, all four), each with optional `start_w`, `start_theta`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NoisyParams {
    #[serde(default)]
    c0: Option<f64>,
    #[serde(default)]
    epsilon: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
    #[serde(default)]
    batch_rule: Option<Reading>,
    #[serde(default)]
    steps: Option<usize>,
    #[serde(default)]
    batch: Option<usize>,
    #[serde(default)]
    eta: Option<f64>,
    #[serde(default)]
    sigma: Option<f64>,
    #[serde(default)]
    d_hat: Option<f64>,
    #[serde(default)]
    lipschitz: Option<f64>,
    #[serde(default)]
    start_w: Option<Vec<f64>>,
    #[serde(default)]
    start_theta: Option<Vec<f64>>,
}

/// `ldp_sgda` parameters (BGM23 App. A.2, Cor 16).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LdpParams {
    epsilon: f64,
    delta: f64,
    #[serde(default = "corrected")]
    variant: Reading,
    #[serde(default)]
    optimal_step: bool,
    #[serde(default)]
    eta: Option<f64>,
    #[serde(default)]
    lipschitz: Option<f64>,
    #[serde(default)]
    diameter: Option<f64>,
    #[serde(default)]
    start_w: Option<Vec<f64>>,
    #[serde(default)]
    start_theta: Option<Vec<f64>>,
}

fn corrected() -> Reading {
    Reading::Corrected
}

/// An optional positive parameter: the given value (finite and > 0, else an error naming
/// `params.{name}`) or the default.
fn positive_or(name: &str, v: Option<f64>, default: f64) -> Result<f64> {
    match v {
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        Some(x) => Err(invalid(
            format!("params.{name}"),
            format!("must be finite and > 0, got {x}"),
        )),
        None => Ok(default),
    }
}

/// `dp_gda` parameters (KLLW22 Algorithm 1): T, ρ, and either σ or (ε, δ) with Thm 1's constant
/// c (default 4√2, which certifies the joint release) and G (default: the family's Lipschitz
/// constant over the data support, an upper bound on the blockwise G).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DpGdaParams {
    steps: usize,
    rho: f64,
    #[serde(default)]
    sigma: Option<f64>,
    #[serde(default)]
    epsilon: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
    #[serde(default)]
    c: Option<f64>,
    #[serde(default)]
    g: Option<f64>,
    #[serde(default = "paper_averaging")]
    averaging: crate::algorithms::dp_gda::Averaging,
    /// How ∇L_S is evaluated (default: at the aggregated data).
    #[serde(default)]
    gradient_mode: crate::algorithms::dp_gda::GradientMode,
}

fn paper_averaging() -> crate::algorithms::dp_gda::Averaging {
    crate::algorithms::dp_gda::Averaging::PaperLiteral
}

/// The algorithms `dpsaddle run` knows.
pub const ALGORITHMS: &[&str] = &[
    "regularized_saddle_point",
    "output_perturbation",
    "recursive_regularization",
    "noisy_sgda",
    "ldp_sgda",
    "dp_gda",
];

/// Locate the JSON key nearest before byte `offset` of `text` (to name the field of a parse error).
fn key_before(text: &str, line: usize, column: usize) -> Option<String> {
    let offset: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(|l| l.len())
        .sum::<usize>()
        + column;
    let mut cut = offset.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let head = &text[..cut];
    let colon = head.rfind(':')?;
    let before = head[..colon].trim_end();
    let end = before.strip_suffix('"')?;
    let start = end.rfind('"')?;
    Some(end[start + 1..].to_string())
}

/// Parse a configuration, naming the offending field on error.
pub fn parse(text: &str, path: &str) -> Result<RunConfig> {
    serde_json::from_str(text).map_err(|e| {
        let near = key_before(text, e.line(), e.column())
            .map_or(String::new(), |k| format!(" (at field `{k}`)"));
        Error::Json {
            path: path.to_string(),
            msg: format!("{e}{near}"),
        }
    })
}

fn params<T: serde::de::DeserializeOwned>(v: &Value) -> Result<T> {
    serde_json::from_value(v.clone()).map_err(|e| invalid("params", e.to_string()))
}

fn finite(name: &str, x: f64) -> Result<f64> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(invalid(name, format!("must be finite, got {x}")))
    }
}

/// A configuration made ready to run: the loss, the dataset (and its distribution, when drawn
/// from one), the algorithm and the seed.
pub struct Prepared {
    /// The loss.
    pub f: Box<dyn SaddleFn>,
    /// The dataset S.
    pub s: Dataset,
    /// The finite-support distribution S was drawn from, if any.
    pub dist: Option<FiniteDist>,
    /// The algorithm with its validated parameters.
    pub alg: Box<dyn Algorithm>,
    /// The master seed.
    pub seed: u64,
}

/// Run `algorithm` on the configuration without recording the noise tape; returns the JSON
/// result (memory constant in the number of steps of the iterative algorithms).
pub fn run(algorithm: &str, cfg: &RunConfig, seed_override: Option<u64>) -> Result<Value> {
    run_with(algorithm, cfg, seed_override, false)
}

/// Run `algorithm` on the configuration; with `tape`, every noise draw is recorded and returned
/// under `noise_tape` (so the run can be replayed without an RNG; memory grows with the draws),
/// otherwise `noise_tape` is null.
pub fn run_with(
    algorithm: &str,
    cfg: &RunConfig,
    seed_override: Option<u64>,
    tape: bool,
) -> Result<Value> {
    run_prepared(algorithm, prepare(algorithm, cfg, seed_override)?, tape)
}

/// The run of [`run_with`] on a prepared configuration (consumed: the dataset moves into the
/// empirical objective of the gap without a copy).
pub fn run_prepared(algorithm: &str, prepared: Prepared, tape: bool) -> Result<Value> {
    let Prepared {
        f,
        s,
        dist,
        alg,
        seed,
    } = prepared;
    let mut noise = if tape {
        NoiseSource::recording(seed)
    } else {
        NoiseSource::sample(seed)
    };
    let out = alg.run(f.as_ref(), &s, &mut noise)?;
    let n = s.len();
    let emp = Objective {
        data: crate::problem::Mixture::empirical_owned(s.points),
        reg: crate::problem::Regularizer::none(),
    };
    let emp = gap_function(f.as_ref(), &emp, &out.w, &out.theta)?;
    let pop = match &dist {
        Some(d) => {
            Some(gap_function(f.as_ref(), &Objective::population(d), &out.w, &out.theta)?.gap)
        }
        None => None,
    };
    Ok(json!({
        "algorithm": algorithm,
        "name": alg.name(),
        "problem": f.name(),
        "seed": seed,
        "n": n,
        "w": out.w,
        "theta": out.theta,
        "empirical_gap": emp.gap,
        "population_gap": pop,
        "grad_evals": out.grad_evals,
        "ledger": out.ledger,
        "noise_tape": noise.tape(),
        "info": out.info,
    }))
}

/// Build the loss, draw the dataset and validate the algorithm's parameters of a configuration.
pub fn prepare(algorithm: &str, cfg: &RunConfig, seed_override: Option<u64>) -> Result<Prepared> {
    check_sizes(cfg)?;
    prepare_unlimited(algorithm, cfg, seed_override)
}

/// [`prepare`] without the command line's size limits ([`check_sizes`]): for the memory
/// benchmark of issue 12 (`benches/rr_memory.rs`, n = 4·10⁶ points).
pub fn prepare_unlimited(
    algorithm: &str,
    cfg: &RunConfig,
    seed_override: Option<u64>,
) -> Result<Prepared> {
    let f = cfg.problem.build()?;
    let seed = seed_override.or(cfg.seed).unwrap_or(0);
    let (s, dist) = dataset_of(&cfg.data, seed)?;
    if s.point_dim() != f.point_dim() {
        return Err(invalid(
            "data",
            format!(
                "points have length {}, the problem expects {}",
                s.point_dim(),
                f.point_dim()
            ),
        ));
    }
    // The distribution's atoms, or (explicit and uniform data) the points themselves.
    let points_support;
    let support: &[Vec<f64>] = match &dist {
        Some(d) => &d.atoms,
        None => {
            points_support = s.points.to_vecs();
            &points_support
        }
    };
    let anchors = |aw: &Option<Vec<f64>>, at: &Option<Vec<f64>>| {
        (
            aw.clone().unwrap_or_else(|| f.domain_w().center()),
            at.clone().unwrap_or_else(|| f.domain_theta().center()),
        )
    };
    let alg: Box<dyn Algorithm> = match algorithm {
        "regularized_saddle_point" => {
            let p: RegParams = params(&cfg.params)?;
            let (anchor_w, anchor_theta) = anchors(&p.anchor_w, &p.anchor_theta);
            let a = RegularizedSaddlePoint::new(
                finite("params.lambda", p.lambda)?,
                anchor_w,
                anchor_theta,
            )?;
            a.validate(f.as_ref())?;
            Box::new(a)
        }
        "output_perturbation" => {
            let p: OpParams = params(&cfg.params)?;
            crate::privacy::validate_eps_delta(p.epsilon, p.delta)?;
            let (anchor_w, anchor_theta) = anchors(&p.anchor_w, &p.anchor_theta);
            let base = RegularizedSaddlePoint::new(
                finite("params.lambda", p.lambda)?,
                anchor_w,
                anchor_theta,
            )?;
            base.validate(f.as_ref())?;
            let lipschitz = match p.lipschitz {
                Some(l) if l.is_finite() && l > 0.0 => l,
                Some(l) => {
                    return Err(invalid(
                        "params.lipschitz",
                        format!("must be finite and > 0, got {l}"),
                    ))
                }
                None => f.constants(support).lipschitz,
            };
            Box::new(OutputPerturbation::new(
                base, p.epsilon, p.delta, lipschitz,
            )?)
        }
        "recursive_regularization" => {
            let p: RecursiveRegularizationParams = params(&cfg.params)?;
            let k = f.constants(support);
            let l = positive_or("lipschitz", p.lipschitz, k.lipschitz)?;
            let b = positive_or("diameter", p.diameter, k.diameter)?;
            let lambda = finite("params.lambda", p.lambda)?;
            let schedule = match (p.rounds, p.n_prime) {
                (Some(t), Some(np)) => {
                    Schedule::free(s.len(), np, t, lambda, l, b, p.distance_rule)
                }
                (None, None) => {
                    Schedule::bgm23(s.len(), l, b, lambda, p.n_prime_rule, p.distance_rule)
                }
                _ => return Err(invalid(
                    "params.rounds",
                    "give both `rounds` and `n_prime` (free mode) or neither (Algorithm 1 line 1)",
                )),
            }
            .map_err(|e| crate::problem::spec::rename(e, "params"))?;
            let (start_w, start_theta) = anchors(&p.start_w, &p.start_theta);
            Box::new(RecursiveRegularization::new(
                schedule,
                start_w,
                start_theta,
                p.a_emp,
            )?)
        }
        "noisy_sgda" => {
            let p: NoisyParams = params(&cfg.params)?;
            let (start_w, start_theta) = anchors(&p.start_w, &p.start_theta);
            crate::problem::saddle::validate_point(f.as_ref(), &start_w, &start_theta)
                .map_err(|e| crate::problem::spec::rename(e, "params.start"))?;
            match explicit_sgda(&p, start_w.clone(), start_theta.clone())? {
                Some(a) => Box::new(a),
                None => {
                    let need = |name: &str, v: Option<f64>| {
                        v.ok_or_else(|| {
                            invalid(
                                format!("params.{name}"),
                                "missing: give the Thm 21 schedule (`c0`, `epsilon`, `delta`) \
                                 or an explicit run (`steps`, `batch`, `eta`, `sigma`)",
                            )
                        })
                    };
                    let (c0, epsilon, delta) = (
                        need("c0", p.c0)?,
                        need("epsilon", p.epsilon)?,
                        need("delta", p.delta)?,
                    );
                    crate::privacy::validate_eps_delta(epsilon, delta)?;
                    let cs = f.constants(support);
                    Box::new(NoisySgda::new(
                        positive_or("c0", Some(c0), 0.0)?,
                        epsilon,
                        delta,
                        p.batch_rule.unwrap_or(Reading::Corrected),
                        start_w,
                        start_theta,
                        positive_or("d_hat", p.d_hat, cs.diameter)?,
                        positive_or("lipschitz", p.lipschitz, cs.lipschitz)?,
                    )?)
                }
            }
        }
        "ldp_sgda" => {
            let p: LdpParams = params(&cfg.params)?;
            crate::privacy::validate_eps_delta(p.epsilon, p.delta)?;
            let (start_w, start_theta) = anchors(&p.start_w, &p.start_theta);
            let cs = f.constants(support);
            let a = LdpSgda::new(
                p.epsilon,
                p.delta,
                p.variant,
                start_w,
                start_theta,
                positive_or("lipschitz", p.lipschitz, cs.lipschitz)?,
                positive_or("diameter", p.diameter, cs.diameter)?,
            )?
            .with_optimal_step(p.optimal_step);
            if p.eta.is_some() && p.optimal_step {
                return Err(invalid(
                    "params.eta",
                    "give either an explicit `eta` or `optimal_step`, not both",
                ));
            }
            let a = a
                .with_step(p.eta)
                .map_err(|e| crate::problem::spec::rename(e, "params"))?;
            crate::problem::saddle::validate_point(f.as_ref(), &a.start_w, &a.start_theta)
                .map_err(|e| crate::problem::spec::rename(e, "params.start"))?;
            Box::new(a)
        }
        "dp_gda" => {
            use crate::algorithms::dp_gda::DpGda;
            let p: DpGdaParams = params(&cfg.params)?;
            let alg =
                match (p.sigma, p.epsilon, p.delta) {
                    (Some(sigma), None, None) => DpGda {
                        steps: p.steps,
                        rho: p.rho,
                        sigma,
                        averaging: p.averaging,
                        ledger: None,
                    },
                    (None, Some(eps), Some(delta)) => {
                        let g = positive_or("g", p.g, f.constants(support).lipschitz)?;
                        let c = positive_or("c", p.c, THM1_C_JOINT)?;
                        DpGda::calibrated(p.steps, p.rho, c, g, s.len(), eps, delta, p.averaging)
                            .map_err(|e| crate::problem::spec::rename(e, "params"))?
                    }
                    _ => return Err(invalid(
                        "params.sigma",
                        "give either `sigma` or both `epsilon` and `delta` (Thm 1's calibration)",
                    )),
                };
            Box::new(crate::algorithms::dp_gda::DpGdaWithMode {
                alg,
                gradient_mode: p.gradient_mode,
            })
        }
        other => {
            return Err(invalid(
                "algorithm",
                format!(
                    "unknown algorithm `{other}`; known: {}",
                    ALGORITHMS.join(", ")
                ),
            ))
        }
    };
    Ok(Prepared {
        f,
        s,
        dist,
        alg,
        seed,
    })
}

/// The dataset of a configuration's `data` (and the distribution it was drawn from, if any);
/// random draws use the stream labelled `data/sample` of `seed`.
pub fn dataset_of(data: &DataSpec, seed: u64) -> Result<(Dataset, Option<FiniteDist>)> {
    Ok(match data {
        DataSpec::Points { points } => (Dataset::new(points.clone())?, None),
        DataSpec::Uniform { uniform, n } => {
            let (lo, hi) = (finite("data.uniform.lo", uniform.lo)?, uniform.hi);
            if !(hi.is_finite() && hi > lo) {
                return Err(invalid(
                    "data.uniform.hi",
                    format!("must be finite and > lo = {lo}, got {hi}"),
                ));
            }
            if uniform.dim == 0 {
                return Err(invalid("data.uniform.dim", "must be ≥ 1"));
            }
            if *n == 0 {
                return Err(invalid("data.n", "must be ≥ 1"));
            }
            let mut st = Stream::new(seed, "data/sample");
            // Row-major: coordinate j of point i is the (i·dim + j)-th uniform.
            let values = (0..n.saturating_mul(uniform.dim))
                .map(|_| lo + (hi - lo) * st.uniform())
                .collect();
            let points = crate::problem::Rows::from_flat(values, uniform.dim)?;
            (Dataset::from_rows(points)?, None)
        }
        DataSpec::Distribution { distribution, n } => {
            let d = FiniteDist::new(distribution.atoms.clone(), distribution.probs.clone())
                .map_err(|e| crate::problem::spec::rename(e, "data.distribution"))?;
            if *n == 0 {
                return Err(invalid("data.n", "must be ≥ 1"));
            }
            // The uniforms of "data/sample" in order, mapped by inverse CDF in blocks (the
            // values of `d.sample_indices` on all n uniforms at once, without holding them).
            let mut st = Stream::new(seed, "data/sample");
            // The rows go straight into the dataset's one row-major array.
            let mut points = crate::problem::Rows::with_capacity(*n, d.atoms[0].len());
            let mut left = *n;
            while left > 0 {
                let u = st.uniforms(left.min(1 << 12));
                left -= u.len();
                for j in d.sample_indices(&u)? {
                    points.push(&d.atoms[j])?;
                }
            }
            (Dataset { points }, Some(d))
        }
    })
}

/// The explicit form of `noisy_sgda`'s parameters: [`Sgda`] with T = `steps`, m = `batch`
/// (indices with replacement), η = `eta`, σ = `sigma` (no privacy calibration, so no ledger), or
/// `None` when none of the four is given (the Thm 21 schedule). Errors name the field: a missing
/// one of the four, one of the schedule's fields given alongside them, or an invalid value.
fn explicit_sgda(
    p: &NoisyParams,
    start_w: Vec<f64>,
    start_theta: Vec<f64>,
) -> Result<Option<Sgda>> {
    if p.steps.is_none() && p.batch.is_none() && p.eta.is_none() && p.sigma.is_none() {
        return Ok(None);
    }
    for (name, given) in [
        ("c0", p.c0.is_some()),
        ("epsilon", p.epsilon.is_some()),
        ("delta", p.delta.is_some()),
        ("batch_rule", p.batch_rule.is_some()),
        ("d_hat", p.d_hat.is_some()),
        ("lipschitz", p.lipschitz.is_some()),
    ] {
        if given {
            return Err(invalid(
                format!("params.{name}"),
                "belongs to the Thm 21 schedule; an explicit run (`steps`, `batch`, `eta`, \
                 `sigma`) takes none of `c0`, `epsilon`, `delta`, `batch_rule`, `d_hat`, \
                 `lipschitz`",
            ));
        }
    }
    let missing = |name: &str| {
        invalid(
            format!("params.{name}"),
            "missing: an explicit run needs all of `steps`, `batch`, `eta`, `sigma`",
        )
    };
    let steps = p.steps.ok_or_else(|| missing("steps"))?;
    let m = p.batch.ok_or_else(|| missing("batch"))?;
    let eta = p.eta.ok_or_else(|| missing("eta"))?;
    let sigma = p.sigma.ok_or_else(|| missing("sigma"))?;
    let sgda = Sgda::new(
        eta,
        steps,
        start_w,
        start_theta,
        BatchRule::WithReplacement { m },
        sigma,
    )
    .map_err(|e| crate::problem::spec::rename(e, "params"))?;
    if (steps as u128) * (m as u128) > 1u128 << 34 {
        return Err(invalid(
            "params.steps",
            format!("T·m = {steps}·{m} exceeds 2^34 gradient evaluations"),
        ));
    }
    Ok(Some(sgda))
}

/// Evaluate a family's constants on a support (used by the CLI's `run` output).
pub fn lipschitz_of(f: &dyn SaddleFn, support: &[Vec<f64>]) -> f64 {
    f.constants(support).lipschitz
}

/// The largest dataset `dpsaddle run` accepts: n ≤ 10⁶ records.
pub const MAX_RUN_N: usize = 1_000_000;
/// The largest point dimension accepted: 10⁴.
pub const MAX_RUN_DIM: usize = 10_000;
/// The largest dataset in floats (n × dimension): 10⁷ (80 MB).
pub const MAX_RUN_FLOATS: usize = 10_000_000;
/// The largest iteration or sample count in `params` (`steps`, `rounds`, `T`, `m`, `n_prime`,
/// `iterations`): 10⁶.
pub const MAX_RUN_STEPS: u64 = 1_000_000;

/// The largest magnitude of a number in the problem's specification (coefficients, domain radii
/// and bounds): 10⁶. Larger ones make the certified solver's condition number, and so its run
/// time, unbounded in practice (a coupling of 10¹⁸ ran for more than 30 s).
pub const MAX_RUN_COEFFICIENT: f64 = 1e6;

/// The size limits above, checked before anything is allocated; the error names the field and
/// the limit.
pub fn check_sizes(cfg: &RunConfig) -> Result<()> {
    let too_big = |field: &str, v: u128, limit: &str, max: u128| -> Result<()> {
        if v > max {
            Err(invalid(
                field,
                format!("{v} exceeds the limit {limit} = {max}"),
            ))
        } else {
            Ok(())
        }
    };
    let (n, dim) = match &cfg.data {
        DataSpec::Points { points } => {
            (points.len(), points.iter().map(Vec::len).max().unwrap_or(0))
        }
        DataSpec::Distribution { distribution, n } => (
            *n,
            distribution.atoms.iter().map(Vec::len).max().unwrap_or(0),
        ),
        DataSpec::Uniform { uniform, n } => (*n, uniform.dim),
    };
    too_big("data.n", n as u128, "MAX_RUN_N", MAX_RUN_N as u128)?;
    too_big(
        "data (point dimension)",
        dim as u128,
        "MAX_RUN_DIM",
        MAX_RUN_DIM as u128,
    )?;
    too_big(
        "data (n × dimension)",
        n as u128 * dim as u128,
        "MAX_RUN_FLOATS",
        MAX_RUN_FLOATS as u128,
    )?;
    fn largest(v: &Value) -> f64 {
        match v {
            Value::Number(x) => x.as_f64().map_or(f64::INFINITY, f64::abs),
            Value::Array(a) => a.iter().map(largest).fold(0.0, f64::max),
            Value::Object(o) => o.values().map(largest).fold(0.0, f64::max),
            _ => 0.0,
        }
    }
    let problem = serde_json::to_value(&cfg.problem)
        .map_err(|e| invalid("problem", format!("cannot be read back: {e}")))?;
    let big = largest(&problem);
    if big > MAX_RUN_COEFFICIENT {
        return Err(invalid(
            "problem",
            format!("a number of magnitude {big} exceeds the limit MAX_RUN_COEFFICIENT = 1e6"),
        ));
    }
    if let Some(obj) = cfg.params.as_object() {
        for key in ["steps", "rounds", "T", "m", "n_prime", "iterations"] {
            if let Some(v) = obj.get(key).and_then(Value::as_u64) {
                too_big(
                    &format!("params.{key}"),
                    v as u128,
                    "MAX_RUN_STEPS",
                    MAX_RUN_STEPS as u128,
                )?;
            }
        }
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------
// Variational-inequality runs: `dpsaddle run extragradient | operator_extrapolation`.

/// The VI algorithms `dpsaddle run` knows (their configs name an `operator`, not a `problem`).
pub const VI_ALGORITHMS: &[&str] = &[
    "extragradient",
    "operator_extrapolation",
    "nispp",
    "oe",
    "nseg",
];

/// The monotone operator of a VI configuration.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "snake_case", deny_unknown_fields)]
pub enum OperatorSpec {
    /// G(z; x) = Mz + x on Z ([`crate::problem::AffineOp`]; monotone iff M + Mᵀ ⪰ 0).
    Affine {
        /// M (d × d, rows).
        m: Vec<Vec<f64>>,
        /// Z.
        domain: crate::geometry::Domain,
    },
    /// The saddle operator [∇_w f, −∇_θ f] of a saddle problem on W×Θ.
    Saddle {
        /// The problem, as in a saddle-point config.
        problem: ProblemSpec,
    },
}

/// A VI run configuration: `{"operator": {...}, "data": {...}, "params": {...}, "seed": 7}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViRunConfig {
    /// The operator G(·; x) and its domain Z.
    pub operator: OperatorSpec,
    /// The data (as in [`RunConfig`]).
    pub data: DataSpec,
    /// Algorithm parameters.
    #[serde(default)]
    pub params: Value,
    /// Master seed (the command line's --seed overrides it).
    #[serde(default)]
    pub seed: Option<u64>,
}

/// `extragradient` parameters (BG23 Algorithm 1).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EgParams {
    steps: usize,
    #[serde(default)]
    step: Option<f64>,
    #[serde(default)]
    step_list: Option<Vec<f64>>,
    #[serde(default = "full_batch")]
    batch: crate::sampling::BatchRule,
    #[serde(default)]
    sigma: f64,
    #[serde(default = "extrapolated")]
    averaging: crate::algorithms::extragradient::Averaging,
    #[serde(default)]
    start: Option<Vec<f64>>,
    #[serde(default)]
    operator_bound: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
}

/// `operator_extrapolation` parameters (BG23 Algorithm 3).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OeParams {
    gamma: f64,
    #[serde(default = "one")]
    kappa: f64,
    #[serde(default)]
    iterations: Option<usize>,
    #[serde(default)]
    nu: Option<f64>,
    #[serde(default)]
    max_iterations: Option<usize>,
    #[serde(default = "full_batch")]
    batch: crate::sampling::BatchRule,
    #[serde(default)]
    sigma: f64,
    #[serde(default)]
    start: Option<Vec<f64>>,
    #[serde(default)]
    operator_bound: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
}

/// `oe` parameters: operator extrapolation with BG23 App. B's step rules γ = 1/(2(L + λ)),
/// κ = λ/(L + λ) + 1 ([`crate::papers::bg23::oe`]); the configured operator is the λ-strongly
/// monotone subproblem operator F_k itself. Without `iterations` or `nu`, the count is
/// [`crate::papers::bg23::oe::oe_corrected_count`] for `zeta` from a start at distance ≤ `r0`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Bg23OeParams {
    lipschitz: f64,
    lambda: f64,
    #[serde(default)]
    iterations: Option<usize>,
    #[serde(default)]
    zeta: Option<f64>,
    #[serde(default)]
    r0: Option<f64>,
    #[serde(default)]
    nu: Option<f64>,
    #[serde(default)]
    max_iterations: Option<usize>,
    #[serde(default = "full_batch")]
    batch: crate::sampling::BatchRule,
    #[serde(default)]
    sigma: f64,
    #[serde(default)]
    start: Option<Vec<f64>>,
    #[serde(default)]
    operator_bound: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
}

/// `nispp` parameters (BG23 Algorithm 2): either explicit (`iterations` = K + 1, `lambda`, `nu`,
/// `sigma`, `batch`) or a printed `policy` (Cor 2, Thm 7, Remark 3 (2)) with ε, η and its
/// reading, whose schedule sets them (M, D, L from the operator's constants unless given).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NisppParams {
    #[serde(default)]
    iterations: Option<usize>,
    #[serde(default)]
    lambda: Option<f64>,
    #[serde(default)]
    nu: f64,
    #[serde(default)]
    sigma: f64,
    #[serde(default = "full_batch")]
    batch: crate::sampling::BatchRule,
    #[serde(default = "exact_inner")]
    inner: crate::algorithms::nispp::InnerSolver,
    #[serde(default)]
    policy: Option<NisppPolicyParams>,
    #[serde(default)]
    start: Option<Vec<f64>>,
    #[serde(default)]
    operator_bound: Option<f64>,
    #[serde(default)]
    lipschitz: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
}

/// A printed NISPP policy in a `nispp` config.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NisppPolicyParams {
    item: crate::papers::bg23::nispp::NisppItem,
    #[serde(default = "one")]
    epsilon: f64,
    #[serde(default = "default_eta")]
    eta: f64,
    #[serde(default = "corrected")]
    reading: crate::papers::Reading,
}

fn exact_inner() -> crate::algorithms::nispp::InnerSolver {
    crate::algorithms::nispp::InnerSolver::Exact
}

fn default_eta() -> f64 {
    1e-5
}

fn full_batch() -> crate::sampling::BatchRule {
    crate::sampling::BatchRule::Full
}

fn extrapolated() -> crate::algorithms::extragradient::Averaging {
    crate::algorithms::extragradient::Averaging::Extrapolated
}

fn one() -> f64 {
    1.0
}

/// The [`crate::algorithms::nispp::Nispp`] of a `nispp` config.
fn nispp_from(
    p: NisppParams,
    op: &dyn crate::problem::MonotoneOp,
    s: &crate::problem::Dataset,
) -> Result<crate::algorithms::nispp::Nispp> {
    use crate::algorithms::nispp::Nispp;
    use crate::papers::bg23::nispp::policy;
    let named = |e| crate::problem::spec::rename(e, "params");
    let start = p.start.clone().unwrap_or_else(|| op.domain().center());
    let consts = op.constants(&s.points.to_vecs()).ok();
    let lipschitz = p.lipschitz.or(consts.map(|c| c.lipschitz));
    let mut a = match &p.policy {
        None => {
            let (Some(k1), Some(lambda)) = (p.iterations, p.lambda) else {
                return Err(invalid(
                    "params.iterations",
                    "give `iterations` (K + 1) and `lambda`, or a `policy`",
                ));
            };
            Nispp::new(k1, lambda, p.nu, p.sigma, p.batch, p.inner, start).map_err(named)?
        }
        Some(pp) => {
            let m = p
                .operator_bound
                .or(consts.map(|c| c.bound))
                .ok_or_else(|| {
                    invalid(
                        "params.operator_bound",
                        "a policy needs M (no closed-form constants)",
                    )
                })?;
            let l = lipschitz.ok_or_else(|| invalid("params.lipschitz", "a policy needs L"))?;
            let pol = policy(
                pp.item,
                m,
                op.domain().diameter(),
                l,
                s.len() as u64,
                op.dim() as u64,
                pp.epsilon,
                pp.eta,
                pp.reading,
            )
            .map_err(named)?;
            Nispp::from_policy(&pol, m, p.inner, start).map_err(named)?
        }
    };
    if let Some(m) = p.operator_bound {
        a = a.with_operator_bound(m).map_err(named)?;
    }
    if let Some(l) = lipschitz {
        a = a.with_lipschitz(l).map_err(named)?;
    }
    let _ = p.delta;
    a.validate(op, s.len()).map_err(named)?;
    Ok(a)
}

/// Parse a VI configuration, naming the offending field on error.
pub fn parse_vi(text: &str, path: &str) -> Result<ViRunConfig> {
    serde_json::from_str(text).map_err(|e| {
        let near = key_before(text, e.line(), e.column())
            .map_or(String::new(), |k| format!(" (at field `{k}`)"));
        Error::Json {
            path: path.to_string(),
            msg: format!("{e}{near}"),
        }
    })
}

/// The size limits of [`check_sizes`] for a VI configuration.
pub fn check_vi_sizes(cfg: &ViRunConfig) -> Result<()> {
    let problem = match &cfg.operator {
        OperatorSpec::Saddle { problem } => problem.clone(),
        // Reuse the saddle checks on a stand-in problem: only `data` and `params` are read.
        OperatorSpec::Affine { m, .. } => {
            let big = m.iter().flatten().fold(0.0f64, |a, v| {
                a.max(if v.is_finite() {
                    v.abs()
                } else {
                    f64::INFINITY
                })
            });
            if big > MAX_RUN_COEFFICIENT {
                return Err(invalid(
                    "operator.m",
                    format!(
                        "a number of magnitude {big} exceeds the limit MAX_RUN_COEFFICIENT = 1e6"
                    ),
                ));
            }
            ProblemSpec::lin_box(0.5)
        }
    };
    let mut params = cfg.params.clone();
    if let Some(o) = params.as_object_mut() {
        if let Some(v) = o.get("max_iterations").cloned() {
            o.insert("iterations".into(), v);
        }
    }
    check_sizes(&RunConfig {
        problem,
        data: cfg.data.clone(),
        params,
        seed: cfg.seed,
    })
}

/// Run a VI algorithm on a VI configuration; with `tape`, every draw is recorded and returned
/// under `noise_tape`. The JSON has the output `z` (and `w`, `theta` for a saddle operator),
/// the evaluation counts (total and per point), the ν-certificate ⟨F_S(z), z⟩ + σ_Z(−F_S(z)) of
/// the empirical operator at z (BG23 (5.1)), the closed-form VI gap sup_u ⟨F_S(u), z − u⟩ where
/// the family has one (else null), the ledger (σ > 0) and the diagnostics.
///
/// The ledger's operator bound M is `params.operator_bound` if given, else the family's
/// [`crate::problem::MonotoneOp::constants`] over the data; a family without closed-form
/// constants needs it in the config (the error names `params.operator_bound`).
pub fn run_vi_with(
    algorithm: &str,
    cfg: &ViRunConfig,
    seed_override: Option<u64>,
    tape: bool,
) -> Result<Value> {
    use crate::algorithms::extragradient::Extragradient;
    use crate::algorithms::operator_extrapolation::{OeStop, OperatorExtrapolation};
    use crate::algorithms::vi::{StepSchedule, ViAlgorithm};
    use crate::problem::monotone::{stampacchia_gap, SaddleOperator};
    use crate::problem::{AffineOp, Mixture, MonotoneOp};
    check_vi_sizes(cfg)?;
    let seed = seed_override.or(cfg.seed).unwrap_or(0);
    let (s, _) = dataset_of(&cfg.data, seed)?;
    let affine;
    let saddle_f;
    let saddle_op;
    let (op, dim_w): (&dyn MonotoneOp, Option<usize>) = match &cfg.operator {
        OperatorSpec::Affine { m, domain } => {
            let m = crate::linalg::Matrix::from_rows(m.clone())
                .map_err(|e| crate::problem::spec::rename(e, "operator.m"))?;
            affine = AffineOp::new(m, domain.clone())
                .map_err(|e| crate::problem::spec::rename(e, "operator"))?;
            (&affine, None)
        }
        OperatorSpec::Saddle { problem } => {
            saddle_f = problem.build()?;
            saddle_op = SaddleOperator::new(saddle_f.as_ref());
            (&saddle_op, Some(saddle_f.dim_w()))
        }
    };
    if s.point_dim() != op.point_dim() {
        return Err(invalid(
            "data",
            format!(
                "points have length {}, the operator expects {}",
                s.point_dim(),
                op.point_dim()
            ),
        ));
    }
    let bound = |given: Option<f64>, sigma: f64| -> Result<Option<f64>> {
        if sigma > 0.0 {
            crate::algorithms::vi::operator_bound_for(given, op, &s)
                .map(Some)
                .map_err(|e| crate::problem::spec::rename(e, "params"))
        } else {
            Ok(given)
        }
    };
    let start_or = |v: &Option<Vec<f64>>| v.clone().unwrap_or_else(|| op.domain().center());
    let alg: Box<dyn ViAlgorithm> = match algorithm {
        "extragradient" => {
            let p: EgParams = params(&cfg.params)?;
            let schedule = match (p.step, p.step_list) {
                (Some(g), None) => StepSchedule::Constant(g),
                (None, Some(v)) => StepSchedule::List(v),
                _ => {
                    return Err(invalid(
                        "params.step",
                        "give exactly one of `step` (constant γ) and `step_list` (γ_1..γ_T)",
                    ))
                }
            };
            let mut a = Extragradient::new(
                p.steps,
                schedule,
                start_or(&p.start),
                p.batch,
                p.sigma,
                p.averaging,
            )
            .map_err(|e| crate::problem::spec::rename(e, "params"))?;
            a.operator_bound = bound(p.operator_bound, p.sigma)?;
            let _ = p.delta;
            a.validate(op, s.len())
                .map_err(|e| crate::problem::spec::rename(e, "params"))?;
            Box::new(a)
        }
        "operator_extrapolation" => {
            let p: OeParams = params(&cfg.params)?;
            let stop = match (p.iterations, p.nu, p.max_iterations) {
                (Some(t), None, None) => OeStop::Iterations(t),
                (None, Some(nu), Some(max_iterations)) => {
                    OeStop::Certificate { nu, max_iterations }
                }
                _ => {
                    return Err(invalid(
                        "params.iterations",
                        "give `iterations` (a fixed count) or both `nu` and `max_iterations` \
                         (the certificate stop), not both",
                    ))
                }
            };
            let mut a = OperatorExtrapolation::new(
                p.gamma,
                p.kappa,
                stop,
                start_or(&p.start),
                p.batch,
                p.sigma,
            )
            .map_err(|e| crate::problem::spec::rename(e, "params"))?;
            a.operator_bound = bound(p.operator_bound, p.sigma)?;
            let _ = p.delta;
            a.validate(op, s.len())
                .map_err(|e| crate::problem::spec::rename(e, "params"))?;
            Box::new(a)
        }
        "nispp" => {
            let p: NisppParams = params(&cfg.params)?;
            Box::new(nispp_from(p, op, &s)?)
        }
        "nseg" => {
            let p: crate::algorithms::nseg::NsegParams = params(&cfg.params)?;
            Box::new(p.build(op, &s)?)
        }
        "oe" => {
            let p: Bg23OeParams = params(&cfg.params)?;
            let ren = |e: Error| crate::problem::spec::rename(e, "params");
            let gamma = crate::papers::bg23::oe::appb_step(p.lipschitz, p.lambda).map_err(ren)?;
            let kappa = crate::papers::bg23::oe::appb_kappa(p.lipschitz, p.lambda).map_err(ren)?;
            let stop = match (p.iterations, p.zeta, p.nu, p.max_iterations) {
                (Some(t), None, None, None) => OeStop::Iterations(t),
                (None, Some(z), None, None) => {
                    let r0 = p.r0.unwrap_or_else(|| op.domain().diameter());
                    OeStop::Iterations(
                        crate::papers::bg23::oe::oe_corrected_count(kappa, r0, z).map_err(ren)?,
                    )
                }
                (None, None, Some(nu), Some(max_iterations)) => {
                    OeStop::Certificate { nu, max_iterations }
                }
                _ => {
                    return Err(invalid(
                        "params.iterations",
                        "give one of `iterations`, `zeta` (the corrected App. B count) or \
                                 `nu` with `max_iterations` (the certificate stop)",
                    ))
                }
            };
            let mut a = OperatorExtrapolation::new(
                gamma,
                kappa,
                stop,
                start_or(&p.start),
                p.batch,
                p.sigma,
            )
            .map_err(ren)?;
            a.operator_bound = bound(p.operator_bound, p.sigma)?;
            let _ = p.delta;
            a.validate(op, s.len()).map_err(ren)?;
            Box::new(a)
        }
        other => {
            return Err(invalid(
                "algorithm",
                format!(
                    "unknown VI algorithm `{other}`; known: {}",
                    VI_ALGORITHMS.join(", ")
                ),
            ))
        }
    };
    let mut noise = if tape {
        NoiseSource::recording(seed)
    } else {
        NoiseSource::sample(seed)
    };
    let out = alg.run(op, &s, &mut noise)?;
    let mix = Mixture::empirical(&s);
    let cert = stampacchia_gap(op, &mix, &out.z);
    let gap = op.vi_gap(&mix, &out.z).ok();
    let (w, theta) = match dim_w {
        Some(k) => {
            let (w, t) = crate::linalg::split(&out.z, k);
            (Some(w), Some(t))
        }
        None => (None, None),
    };
    Ok(json!({
        "algorithm": algorithm,
        "name": alg.name(),
        "operator": cfg.operator,
        "seed": seed,
        "n": s.len(),
        "z": out.z,
        "w": w,
        "theta": theta,
        "evals": out.evals,
        "evals_per_point": out.evals_per_point,
        "nu_certificate": cert,
        "vi_gap": gap,
        "ledger": out.ledger,
        "noise_tape": noise.tape(),
        "info": out.info,
    }))
}
