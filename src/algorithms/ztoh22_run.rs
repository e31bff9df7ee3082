//! `dpsaddle run ztoh22_alg1` … `ztoh22_alg5`: ZTOH22 Algorithms 1–5 on a small instance from a
//! JSON config (fixtures/configs/ztoh22_alg*.json), with the base solver named in the config.
//!
//! ```json
//! { "seed": 1,
//!   "instance": { "kind": "diagonal", "h": [1.0, 1.0], "radius": 1.0 },
//!   "data": { "n": 64, "direction": [1.0, 0.5], "r": 1.0, "jitter": 0.01 },
//!   "params": { "epsilon": 0.9, "delta": 1e-5, "mu": 1.0, "solver": "certified" } }
//! ```
//!
//! `instance.kind`: `diagonal` (G = h ⊙ z + ξ on a ball, or a box when h is not constant: Algs
//! 1, 2 as minimization, Alg 3 with d_x = 1 as a saddle problem) or `bilinear` (G = c(y, −x) + ξ
//! on a ball in ℝ², Algs 4, 5). Data: ±r·u alternating ([`balanced`]), point i's first coordinate
//! shifted by `jitter`·i/n. L is the joint constant sup ‖G(z; ξ)‖ over Z and the points.
//! `params.solver`: `certified`, `extragradient`, `ogda`, `svrg` (Prox-SVRG for Algs 1, 2, forward
//! SVRG otherwise). Alg 3 also reads `mu_y`, Algs 3–5 `d_x` (default 1).

use crate::algorithms::base_solvers::{
    BaseSolver, Certified, EngineExtragradient, EngineOgda, Svrg,
};
use crate::algorithms::phased_output_perturbation::{ZtohAlgorithm, ZtohOutputPerturbation};
use crate::error::{invalid, Result};
use crate::papers::ztoh22::instances::{balanced, bilinear_ball, diagonal_ball, lipschitz_of_f};
use crate::problem::Dataset;
use crate::rng::NoiseSource;
use serde::Deserialize;
use serde_json::{json, Value};

/// The algorithm names `dpsaddle run` accepts for ZTOH22.
pub const ZTOH22_ALGORITHMS: &[&str] = &[
    "ztoh22_alg1",
    "ztoh22_alg2",
    "ztoh22_alg3",
    "ztoh22_alg4",
    "ztoh22_alg5",
];

/// The instance of a config.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ZtohInstance {
    /// G = h ⊙ z + ξ.
    Diagonal {
        /// h.
        h: Vec<f64>,
        /// The radius of Z.
        radius: f64,
    },
    /// G = c(y, −x) + ξ.
    Bilinear {
        /// c.
        c: f64,
        /// The radius of Z.
        radius: f64,
    },
}

/// The data of a config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZtohData {
    /// n.
    pub n: usize,
    /// u.
    pub direction: Vec<f64>,
    /// r.
    pub r: f64,
    /// The first coordinate of point i is shifted by jitter·i/n.
    #[serde(default)]
    pub jitter: f64,
}

/// The parameters of a config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZtohParams {
    /// ε ∈ (0, 1).
    pub epsilon: f64,
    /// δ.
    pub delta: f64,
    /// μ (Alg 3: μ_x).
    pub mu: f64,
    /// Alg 3: μ_y.
    #[serde(default)]
    pub mu_y: Option<f64>,
    /// d_x (Algs 3–5).
    #[serde(default)]
    pub d_x: Option<usize>,
    /// The base solver.
    #[serde(default = "certified")]
    pub solver: String,
}

fn certified() -> String {
    "certified".into()
}

/// A ZTOH22 run config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZtohConfig {
    /// Master seed.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The instance.
    pub instance: ZtohInstance,
    /// The data.
    pub data: ZtohData,
    /// The parameters.
    pub params: ZtohParams,
}

impl ZtohConfig {
    /// Parse a config.
    ///
    /// # Errors
    /// [`crate::error::Error::Invalid`] naming `config` on a JSON error.
    pub fn parse(text: &str) -> Result<ZtohConfig> {
        serde_json::from_str(text).map_err(|e| invalid("config", e.to_string()))
    }
}

/// The base solver named `name` for a minimization (`min`) or saddle problem.
///
/// # Errors
/// [`crate::error::Error::Invalid`] naming `params.solver`.
pub fn solver_named(name: &str, min: bool) -> Result<Box<dyn BaseSolver>> {
    Ok(match name {
        "certified" => Box::new(Certified),
        "extragradient" => Box::new(EngineExtragradient::default()),
        "ogda" => Box::new(EngineOgda::default()),
        "svrg" if min => Box::new(Svrg::prox()),
        "svrg" => Box::new(Svrg::forward()),
        other => {
            return Err(invalid(
                "params.solver",
                format!("unknown solver `{other}`; known: certified, extragradient, ogda, svrg"),
            ))
        }
    })
}

/// Run `algorithm` (one of [`ZTOH22_ALGORITHMS`]) on the config: the release, the solver, the
/// evaluations, per phase the solver point, σ and noise, and the ledger (`"ledger"`, priced by
/// the caller).
///
/// # Errors
/// Unknown algorithm or solver, invalid instance, data or parameters, the solver's errors.
pub fn run_config(
    algorithm: &str,
    cfg: &ZtohConfig,
    seed_override: Option<u64>,
    tape: bool,
) -> Result<Value> {
    let which = match algorithm {
        "ztoh22_alg1" => ZtohAlgorithm::Alg1,
        "ztoh22_alg2" => ZtohAlgorithm::Alg2,
        "ztoh22_alg3" => ZtohAlgorithm::Alg3,
        "ztoh22_alg4" => ZtohAlgorithm::Alg4,
        "ztoh22_alg5" => ZtohAlgorithm::Alg5,
        other => {
            return Err(invalid(
                "algorithm",
                format!("unknown ZTOH22 algorithm `{other}`"),
            ))
        }
    };
    let op = match &cfg.instance {
        ZtohInstance::Diagonal { h, radius } => diagonal_ball(h.clone(), *radius)?,
        ZtohInstance::Bilinear { c, radius } => bilinear_ball(*c, *radius)?,
    };
    let d = &cfg.data;
    let base = balanced(d.n, &d.direction, d.r)?;
    let s = Dataset::new(
        base.points
            .iter()
            .enumerate()
            .map(|(i, x)| {
                let mut x = x.to_vec();
                x[0] += d.jitter * i as f64 / d.n as f64;
                x
            })
            .collect(),
    )?;
    let l = lipschitz_of_f(&op, &s.points.to_vecs())?;
    let p = &cfg.params;
    let dim = crate::problem::monotone::MonotoneOp::dim(&op);
    let dx = p.d_x.unwrap_or(1);
    let alg = match which {
        ZtohAlgorithm::Alg1 => ZtohOutputPerturbation::alg1(l, p.mu, dim, p.epsilon, p.delta)?,
        ZtohAlgorithm::Alg2 => ZtohOutputPerturbation::alg2(l, p.mu, dim, p.epsilon, p.delta)?,
        ZtohAlgorithm::Alg3 => {
            let mu_y = p
                .mu_y
                .ok_or_else(|| invalid("params.mu_y", "Algorithm 3 needs μ_y"))?;
            ZtohOutputPerturbation::alg3(l, p.mu, mu_y, dx, p.epsilon, p.delta)?
        }
        ZtohAlgorithm::Alg4 | ZtohAlgorithm::Alg5 => ZtohOutputPerturbation::alg45(
            l,
            p.mu,
            dx,
            p.epsilon,
            p.delta,
            which == ZtohAlgorithm::Alg5,
        )?,
    };
    let min = matches!(which, ZtohAlgorithm::Alg1 | ZtohAlgorithm::Alg2);
    let solver = solver_named(&p.solver, min)?;
    let seed = seed_override.or(cfg.seed).unwrap_or(0);
    let mut noise = if tape {
        NoiseSource::recording(seed)
    } else {
        NoiseSource::sample(seed)
    };
    let run = alg.run(&op, &s, solver.as_ref(), &mut noise)?;
    let phases: Vec<Value> = run
        .phases
        .iter()
        .map(|ph| {
            json!({
                "k": ph.k,
                "range": [ph.range.0, ph.range.1],
                "mu_k": ph.mu_k,
                "solver_point": ph.solver_point,
                "sensitivity": ph.sensitivity,
                "sigma": ph.sigma,
                "noise": ph.noise,
                "released": ph.released,
                "evals": ph.evals,
                "guarantee": ph.guarantee,
            })
        })
        .collect();
    let mut v = json!({
        "name": algorithm,
        "n": s.len(),
        "seed": seed,
        "lipschitz": l,
        "solver": run.solver,
        "release": run.release,
        "evals": run.evals,
        "phases": phases,
        "ledger": run.ledger,
    });
    if tape {
        v["noise_tape"] = serde_json::to_value(noise.into_tape()).expect("serializable");
    }
    Ok(v)
}
