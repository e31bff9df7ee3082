//! Gap functions (BGM23 eqs. (2)–(3) and §2 "Gap functions"; KLLW22 Definition 2's primal risk).
//!
//! * [`gap_function`]: Ĝap(w̄, θ̄) = max_θ F(w̄, θ) − min_w F(w, θ̄) for any objective F — the
//!   population F_D (BGM23 §2, "Gap functions"), the empirical F_S (the empirical gap Gap_S, defined
//!   after BGM23 Fact 1), or a regularized one
//!   (Ĝap^h of BGM23 Lemma 3, Ĝap^(t) of App. B.2).
//! * [`strong_gap`]: E over the output distribution of Ĝap (BGM23 eq. (2)).
//! * [`weak_gap`]: max_θ E[F(A_w, θ)] − min_w E[F(w, A_θ)] (BGM23 eq. (3)), the expectation inside.
//!
//! * [`weak_gap_bg23`]: BG23 eq. (1.4), E_A max_θ E_S[F(A_w, θ)] − … : the algorithm's randomness
//!   outside (a finite seed set), the data expectation inside; ≥ [`weak_gap`] (Jensen).
//! * [`vi`]: the VI gaps of a monotone operator (BG23 eqs. (1.1)–(1.2) and both weak flavours).
//!
//! An algorithm's output distribution is passed as weighted outputs (ρ_k, w_k, θ_k): exact when it
//! comes from enumerating every dataset of a finite-support distribution (crate::exact).

pub mod expected_gaussian;
pub mod vi;

use crate::error::{invalid, Result};
use crate::problem::saddle::{objective_value, validate_objective, Objective, SaddleFn};
use serde::{Deserialize, Serialize};

/// The value of Ĝap at a point with its two best responses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GapValue {
    /// Ĝap(w̄, θ̄) = primal − dual.
    pub gap: f64,
    /// max_θ F(w̄, θ).
    pub primal: f64,
    /// min_w F(w, θ̄).
    pub dual: f64,
    /// The maximizing θ.
    pub theta_br: Vec<f64>,
    /// The minimizing w.
    pub w_br: Vec<f64>,
}

/// Ĝap(w̄, θ̄) for the objective `obj` (BGM23 §2, "Gap functions").
pub fn gap_function(
    f: &dyn SaddleFn,
    obj: &Objective,
    w: &[f64],
    theta: &[f64],
) -> Result<GapValue> {
    let theta_br = f.best_theta(&[(1.0, w.to_vec())], obj)?;
    let w_br = f.best_w(&[(1.0, theta.to_vec())], obj)?;
    let primal = objective_value(f, obj, w, &theta_br);
    let dual = objective_value(f, obj, &w_br, theta);
    Ok(GapValue {
        gap: primal - dual,
        primal,
        dual,
        theta_br,
        w_br,
    })
}

/// One output of a (randomized) algorithm with its probability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightedOutput {
    /// Its probability ρ (the ρ's sum to 1).
    pub weight: f64,
    /// A_w.
    pub w: Vec<f64>,
    /// A_θ.
    pub theta: Vec<f64>,
}

fn check_weights(outputs: &[WeightedOutput]) -> Result<()> {
    if outputs.is_empty() {
        return Err(invalid("outputs", "need at least one output"));
    }
    let total: f64 = outputs.iter().map(|o| o.weight).sum();
    if outputs.iter().any(|o| o.weight.is_nan() || o.weight < 0.0) || (total - 1.0).abs() > 1e-9 {
        return Err(invalid(
            "outputs.weight",
            format!("must be ≥ 0 and sum to 1 (sum {total})"),
        ));
    }
    Ok(())
}

/// The strong gap E[Ĝap(A_w, A_θ)] (BGM23 eq. (2)), summed in output order.
pub fn strong_gap(f: &dyn SaddleFn, obj: &Objective, outputs: &[WeightedOutput]) -> Result<f64> {
    check_weights(outputs)?;
    validate_objective(f, obj)?;
    let mut s = 0.0;
    for o in outputs {
        s += o.weight * gap_function(f, obj, &o.w, &o.theta)?.gap;
    }
    Ok(s)
}

/// The weak gap max_θ E[F(A_w, θ)] − min_w E[F(w, A_θ)] (BGM23 eq. (3); the expectation over S
/// and A inside, the version the proofs of BGM23 Lemma 6 and Prop 14 use).
pub fn weak_gap(f: &dyn SaddleFn, obj: &Objective, outputs: &[WeightedOutput]) -> Result<f64> {
    check_weights(outputs)?;
    validate_objective(f, obj)?;
    let ws: Vec<(f64, Vec<f64>)> = outputs.iter().map(|o| (o.weight, o.w.clone())).collect();
    let ts: Vec<(f64, Vec<f64>)> = outputs
        .iter()
        .map(|o| (o.weight, o.theta.clone()))
        .collect();
    let theta_br = f.best_theta(&ws, obj)?;
    let w_br = f.best_w(&ts, obj)?;
    let mut primal = 0.0;
    let mut dual = 0.0;
    for o in outputs {
        primal += o.weight * objective_value(f, obj, &o.w, &theta_br);
        dual += o.weight * objective_value(f, obj, &w_br, &o.theta);
    }
    Ok(primal - dual)
}

/// BG23 eq. (1.4)'s weak saddle-point gap, E_A sup_{x,y} E_S[f(x(S), y) − f(x, y(S))], with the
/// algorithm's randomness a finite seed set: Σ_r ρ_r [`weak_gap`](outputs of seed r over S).
/// `seeds` = [(ρ_r, the outputs of seed r with the probabilities of S)]. It is ≥ [`weak_gap`] of
/// the joint outputs (a sum of maxima ≥ the maximum of the sum) and ≤ [`strong_gap`].
pub fn weak_gap_bg23(
    f: &dyn SaddleFn,
    obj: &Objective,
    seeds: &[(f64, Vec<WeightedOutput>)],
) -> Result<f64> {
    if seeds.is_empty() {
        return Err(invalid("seeds", "needs at least one seed"));
    }
    let total: f64 = seeds.iter().map(|s| s.0).sum();
    if seeds.iter().any(|s| s.0.is_nan() || s.0 < 0.0) || (total - 1.0).abs() > 1e-9 {
        return Err(invalid(
            "seeds.weight",
            format!("must be ≥ 0 and sum to 1 (sum {total})"),
        ));
    }
    let mut g = 0.0;
    for (rho, outs) in seeds {
        g += rho * weak_gap(f, obj, outs)?;
    }
    Ok(g)
}

/// The primal risk max_θ F(w, θ) − min_{w'} max_θ F(w', θ) (KLLW22 Definition 2), given a saddle
/// point (w*, θ*) of F (so that the minimum equals F(w*, θ*)), e.g. from crate::solve.
pub fn primal_risk(
    f: &dyn SaddleFn,
    obj: &Objective,
    w: &[f64],
    saddle: (&[f64], &[f64]),
) -> Result<f64> {
    let theta_br = f.best_theta(&[(1.0, w.to_vec())], obj)?;
    Ok(objective_value(f, obj, w, &theta_br) - objective_value(f, obj, saddle.0, saddle.1))
}

/// The exact output distribution of a symmetric algorithm over S ~ Dⁿ: one weighted output per
/// count vector c, with weight P(c) (crate::exact enumeration; never kⁿ).
pub fn outputs_over_counts<A>(
    d: &crate::problem::FiniteDist,
    n: usize,
    mut alg: A,
) -> Result<Vec<WeightedOutput>>
where
    A: FnMut(&[usize]) -> Result<(Vec<f64>, Vec<f64>)>,
{
    let mut out = Vec::new();
    for c in crate::exact::count_vectors(n, d.k()) {
        let weight = d.count_prob(&c);
        if weight == 0.0 {
            continue;
        }
        let (w, theta) = alg(&c)?;
        out.push(WeightedOutput { weight, w, theta });
    }
    Ok(out)
}
