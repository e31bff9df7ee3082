//! Certified saddle-point solvers: they stop on a certificate, never on an iteration count alone,
//! and return the certificate.
//!
//! The certificate is the gap function of the objective at the returned point (BGM23 §2, "Gap functions"),
//! computed from the family's closed-form best responses. When the objective is μ-SC/SC (μ = the
//! regularizer's modulus), BGM23 Lemma 3 turns it into a distance bound
//! ‖z − z*‖ ≤ √(2·Ĝap/μ).
//!
//! Methods: the family's direct computation where it has one ([`SaddleFn::direct_saddle`]),
//! otherwise projected extragradient (Korpelevich) with step η = 1/(2·Lip(G)) on the aggregated
//! objective, checking the certificate every `check_every` iterations.
//!
//! A gap of 1e-12 only pins the point down to √(2·1e-12/μ) ≈ 1e-6, so for smooth μ-SC/SC
//! objectives the solver keeps iterating until a second, sharper certificate holds: with the
//! projected residual r(z) = z − Π(z − ηG(z)) of the μ-strongly monotone, L_G-Lipschitz operator,
//!
//! ‖z − z*‖ ≤ (1 + η L_G)/(η μ) · ‖r(z)‖
//!
//! (from the projection's optimality condition at z⁺ = Π(z − ηG(z)) tested at z*, the VI at z*
//! tested at z⁺, and strong monotonicity). It stops when that bound is ≤ `dist_tol` or when the
//! residual stops improving (rounding floor), and reports the smaller of the two distance bounds.

use crate::error::{Error, Result};
use crate::gap::gap_function;
use crate::linalg;
use crate::oracle::Oracle;
use crate::problem::saddle::{validate_objective, Objective, SaddleFn};
use serde::{Deserialize, Serialize};

pub mod vi;

/// Stopping rule and limits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolveOptions {
    /// Certified when Ĝap ≤ tol_rel·(1 + |max_θ F(w̄,θ)| + |min_w F(w,θ̄)|).
    pub tol_rel: f64,
    /// Give up (with [`Error::NotCertified`]) after this many iterations.
    pub max_iters: usize,
    /// How often the certificate is evaluated.
    pub check_every: usize,
    /// For smooth μ-SC/SC objectives, iterate on until the residual distance bound is ≤ this
    /// (times 1 + ‖z‖), or the residual stagnates.
    pub dist_tol: f64,
    /// Try the family's direct computation first ([`SaddleFn::direct_saddle`]); false forces the
    /// iterative method (e.g. to exercise it as BGM23 Lemma 11's substitute).
    #[serde(default = "yes")]
    pub allow_direct: bool,
}

fn yes() -> bool {
    true
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            tol_rel: 1e-12,
            max_iters: 5_000_000,
            check_every: 8,
            dist_tol: 1e-14,
            allow_direct: true,
        }
    }
}

/// A saddle point with its certificate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Certified {
    /// w̄.
    pub w: Vec<f64>,
    /// θ̄.
    pub theta: Vec<f64>,
    /// Ĝap of the objective at (w̄, θ̄): the certificate.
    pub gap: f64,
    /// The absolute tolerance the certificate met.
    pub tolerance: f64,
    /// μ, the regularizer's SC/SC modulus (0 when unregularized).
    pub modulus: f64,
    /// An upper bound on ‖z̄ − z*‖ when μ > 0: the smaller of √(2·Ĝap/μ) (BGM23 Lemma 3) and,
    /// for smooth objectives, the residual bound of the module doc.
    pub dist_bound: Option<f64>,
    /// Iterations of the iterative method (0 for a direct computation).
    pub iterations: usize,
    /// Operator evaluations made (through the counted oracle).
    pub grad_evals: u64,
    /// "direct" or "extragradient".
    pub method: String,
}

/// (Π_W(w − η g_w), Π_Θ(θ − η g_θ)).
fn projected_step(
    f: &dyn SaddleFn,
    w: &[f64],
    t: &[f64],
    g: &(Vec<f64>, Vec<f64>),
    eta: f64,
) -> (Vec<f64>, Vec<f64>) {
    (
        f.domain_w()
            .project(&linalg::sub(w, &linalg::scale(eta, &g.0))),
        f.domain_theta()
            .project(&linalg::sub(t, &linalg::scale(eta, &g.1))),
    )
}

/// The saddle point of `obj`, certified (see the module doc).
pub fn saddle_point(f: &dyn SaddleFn, obj: &Objective, opts: &SolveOptions) -> Result<Certified> {
    let start = (f.domain_w().center(), f.domain_theta().center());
    saddle_point_from(f, obj, start, opts)
}

fn certify(
    f: &dyn SaddleFn,
    obj: &Objective,
    w: &[f64],
    t: &[f64],
    tol_rel: f64,
) -> Result<(f64, f64)> {
    let g = gap_function(f, obj, w, t)?;
    Ok((g.gap, tol_rel * (1.0 + g.primal.abs() + g.dual.abs())))
}

/// As [`saddle_point`], starting the iterative method at `start`.
pub fn saddle_point_from(
    f: &dyn SaddleFn,
    obj: &Objective,
    start: (Vec<f64>, Vec<f64>),
    opts: &SolveOptions,
) -> Result<Certified> {
    validate_objective(f, obj)?;
    // The joint modulus of the concatenated point: min(μ_w, μ_θ) over the blocks of a per-block
    // regularizer (Ĝap ≥ (μ_w/2)‖w − w*‖² + (μ_θ/2)‖θ − θ*‖² ≥ (min/2)‖z − z*‖²); 2C for BGM23's
    // equal-coefficient terms.
    let mu = obj.reg.modulus();
    let finish = |w: Vec<f64>,
                  theta: Vec<f64>,
                  gap: f64,
                  tol: f64,
                  iters: usize,
                  evals: u64,
                  method: &str| Certified {
        // Lemma 3 needs an upper bound on the true gap: the computed one plus the rounding
        // allowance of a difference of two values of size ≤ tol/tol_rel (4 ulps of that scale).
        dist_bound: (mu > 0.0).then(|| {
            let round = 4.0 * f64::EPSILON * (tol / opts.tol_rel);
            (2.0 * (gap.max(0.0) + round) / mu).sqrt()
        }),
        w,
        theta,
        gap,
        tolerance: tol,
        modulus: mu,
        iterations: iters,
        grad_evals: evals,
        method: method.to_string(),
    };
    if let Some(direct) = opts.allow_direct.then(|| f.direct_saddle(obj)).flatten() {
        let (w, t) = direct?;
        let (gap, tol) = certify(f, obj, &w, &t, opts.tol_rel)?;
        if gap <= tol {
            let mut c = finish(w, t, gap, tol, 0, 0, "direct");
            // For smooth objectives the residual bound of the module doc is much sharper than
            // Lemma 3's √(2·Ĝap/μ) at a computed gap of rounding size.
            if let (true, Some(lg)) = (mu > 0.0, f.operator_lipschitz(obj)) {
                let oracle = Oracle::new(f);
                let agg = Objective {
                    data: f.aggregate(&obj.data),
                    reg: obj.reg.clone(),
                };
                let eta = if lg > 0.0 { 0.5 / lg } else { 1.0 };
                let g = oracle.objective_operator(&agg, &c.w, &c.theta);
                let (wh, th) = projected_step(f, &c.w, &c.theta, &g, eta);
                let r = linalg::norm2(&linalg::concat(
                    &linalg::sub(&c.w, &wh),
                    &linalg::sub(&c.theta, &th),
                )) + 4.0
                    * f64::EPSILON
                    * (1.0 + linalg::norm2(&linalg::concat(&c.w, &c.theta)));
                let res_bound = (1.0 + eta * lg) / (eta * mu) * r;
                c.dist_bound = c.dist_bound.map(|b| b.min(res_bound));
                c.grad_evals = oracle.grad_evals();
            }
            return Ok(c);
        }
    }
    let lg = f.operator_lipschitz(obj).ok_or_else(|| {
        Error::Unsupported(format!(
            "no certified solver for {} on this objective",
            f.name()
        ))
    })?;
    let agg = Objective {
        data: f.aggregate(&obj.data),
        reg: obj.reg.clone(),
    };
    let oracle = Oracle::new(f);
    let eta = if lg > 0.0 { 0.5 / lg } else { 1.0 };
    let (mut w, mut t) = start;
    let mut best_gap = f64::INFINITY;
    // The best certified iterate so far (gap certified; smallest residual distance bound), and
    // how many checks ago the bound last improved.
    let mut kept: Option<Certified> = None;
    let mut stale = 0usize;
    for k in 0..opts.max_iters {
        // The extrapolation point z½ = Π(z − ηG(z)); z − z½ is also the projected residual r(z).
        let g = oracle.objective_operator(&agg, &w, &t);
        let (wh, th) = projected_step(f, &w, &t, &g, eta);
        if k % opts.check_every.max(1) == 0 {
            let (gap, tol) = certify(f, obj, &w, &t, opts.tol_rel)?;
            best_gap = best_gap.min(gap);
            if gap <= tol && mu <= 0.0 {
                return Ok(finish(
                    w,
                    t,
                    gap,
                    tol,
                    k,
                    oracle.grad_evals(),
                    "extragradient",
                ));
            }
            if gap <= tol {
                // The computed residual plus a rounding allowance of 4 ulps of the iterate's scale.
                let r = linalg::norm2(&linalg::concat(
                    &linalg::sub(&w, &wh),
                    &linalg::sub(&t, &th),
                )) + 4.0 * f64::EPSILON * (1.0 + linalg::norm2(&linalg::concat(&w, &t)));
                let res_bound = (1.0 + eta * lg) / (eta * mu) * r;
                let best = kept
                    .as_ref()
                    .and_then(|c| c.dist_bound)
                    .unwrap_or(f64::INFINITY);
                if res_bound < best * (1.0 - 1e-3) {
                    let mut c = finish(
                        w.clone(),
                        t.clone(),
                        gap,
                        tol,
                        k,
                        oracle.grad_evals(),
                        "extragradient",
                    );
                    c.dist_bound = c.dist_bound.map(|b| b.min(res_bound));
                    kept = Some(c);
                    stale = 0;
                } else {
                    stale += 1;
                }
            } else if kept.is_some() {
                stale += 1;
            }
            if let Some(c) = &kept {
                let scale = 1.0 + linalg::norm2(&linalg::concat(&c.w, &c.theta));
                if c.dist_bound.unwrap_or(f64::INFINITY) <= opts.dist_tol * scale || stale >= 20 {
                    return Ok(kept.expect("kept"));
                }
            }
        }
        // The update z⁺ = Π(z − ηG(z½)).
        let g = oracle.objective_operator(&agg, &wh, &th);
        (w, t) = projected_step(f, &w, &t, &g, eta);
    }
    if let Some(c) = kept {
        return Ok(c);
    }
    Err(Error::NotCertified(format!(
        "extragradient on {} reached gap {best_gap:e} after {} iterations without meeting tolerance {:e} (relative)",
        f.name(),
        opts.max_iters,
        opts.tol_rel
    )))
}
