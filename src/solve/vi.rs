//! Certified solutions of strongly monotone variational inequalities, the resolvent, and
//! independent cross-checks for affine operators.
//!
//! **The problem.** A [`ViProblem`] is the mean operator F̄(z) = Σ_j π_j G(z; x_j) of a
//! [`MonotoneOp`] over a [`Mixture`], plus anchored terms Σ_k λ_k(z − a_k) ([`Anchor`]), on the
//! operator's domain Z:
//!
//! Φ(z) = F̄(z) + Σ_k λ_k (z − a_k);   find z* ∈ Z with ⟨Φ(z*), u − z*⟩ ≥ 0 for all u ∈ Z.
//!
//! With F̄ μ-strongly monotone and L-Lipschitz on Z (the operator's [`OpConstants`], or values
//! given in [`ViSolveOptions`]), Φ is (μ + Σλ_k)-strongly monotone and (L + Σλ_k)-Lipschitz, so
//! z* exists and is unique when μ + Σλ_k > 0. The anchored terms are what the resolvent and the
//! inner problems of BG23 Algorithm 2 (line 4) and ZTOH22 Algorithms 4/5 add.
//!
//! **The certificate** ([`residual_distance_bound`]). With the projected residual
//! r(z) = z − Π_Z(z − ηΦ(z)) of a point z ∈ Z and any step η > 0,
//!
//! ‖z − z*‖ ≤ (1 + ηL)/(ημ) · ‖r(z)‖
//!
//! (μ, L the constants of Φ). Proof: z⁺ = Π_Z(z − ηΦ(z)) satisfies the projection's optimality
//! condition ⟨z − ηΦ(z) − z⁺, z* − z⁺⟩ ≤ 0; the VI at z*, tested at z⁺ and scaled by η, gives
//! η⟨Φ(z*), z⁺ − z*⟩ ≥ 0. Adding them, η⟨Φ(z) − Φ(z*), z⁺ − z*⟩ ≤ ⟨r, z⁺ − z*⟩; writing
//! z⁺ − z* = (z − z*) − r, strong monotonicity on the left and Cauchy–Schwarz with the Lipschitz
//! constant on the right give ημ‖z − z*‖² ≤ (1 + ηL)‖r‖‖z − z*‖ − ‖r‖² ≤ (1 + ηL)‖r‖‖z − z*‖.
//! This is the bound [`crate::solve`] uses for smooth saddle problems. The computed residual is
//! enlarged by a rounding allowance (see [`rounding_allowance`]) before it enters the bound.
//!
//! **The solver** ([`vi_solution`]): projected extragradient (Korpelevich) with η = 1/(2L), the
//! certificate evaluated every `check_every` iterations at the base point (its extrapolation step
//! computes r(z) for free); it stops when the bound is ≤ `dist_tol`·(1 + ‖z‖), or when the bound
//! has stopped improving (rounding floor) and is ≤ `stall_tol`·(1 + ‖z‖); otherwise, after
//! `max_iters`, [`Error::NotCertified`].
//!
//! **The resolvent** ([`resolvent`]): J(u) = the solution of the VI of Φ + λ(· − u), i.e. the
//! fixed point z = T(z) := Π_Z(u − Φ(z)/λ) (BG23 eq. (4.2) with G = Φ/λ). When q = L/λ ≤ 1/2 it
//! iterates T (Picard; T is a q-contraction) with the Banach a-posteriori bound
//! ‖T(z) − z*‖ ≤ q/(1 − q)·‖z − T(z)‖; otherwise it calls the solver with the extra anchored term.
//! Its fixed-point residual ‖J − T(J)‖ is returned with it.
//!
//! **Cross-checks** for affine mean operators Φ(z) = Az + b ([`affine_model`]), written as
//! separate code paths so that they can check the solver: the Euclidean ball by KKT with bisection
//! on the multiplier ([`affine_vi_ball`]), the box by enumerating the active sets
//! ([`affine_vi_box`]), any domain with an interior solution by one linear solve
//! ([`affine_vi_interior`]); and a certified VI gap sup_{u∈Z} ⟨Φ(u), z − u⟩ (a concave quadratic
//! in u, maximized by projected gradient ascent with a Frank–Wolfe upper bound,
//! [`certified_affine_vi_gap`]) to check the closed-form gaps of [`MonotoneOp::vi_gap`].

use crate::error::{invalid, require_finite, Error, Result};
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::oracle::OpOracle;
use crate::problem::monotone::{mean_operator, MonotoneOp, OpConstants};
use crate::problem::Mixture;
use serde::{Deserialize, Serialize};

/// One anchored term λ(z − a) of the operator Φ (the operator of the regularizer (λ/2)‖z − a‖²).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    /// λ ≥ 0.
    pub lambda: f64,
    /// The anchor a (length dim Z; it need not lie in Z).
    pub anchor: Vec<f64>,
}

/// A strongly monotone VI: Φ(z) = F̄(z) + Σ_k λ_k(z − a_k) on the operator's domain (see the
/// module doc).
#[derive(Clone, Copy)]
pub struct ViProblem<'a> {
    /// The operator G(z; x).
    pub op: &'a dyn MonotoneOp,
    /// The mixture whose mean operator F̄ is taken.
    pub data: &'a Mixture,
    /// The anchored terms.
    pub anchors: &'a [Anchor],
}

impl<'a> ViProblem<'a> {
    /// The VI of the mean operator of `op` over `data`, with the anchored terms `anchors`.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `data` (shapes, weights), `anchors[k].lambda` (must be finite,
    /// ≥ 0) or `anchors[k].anchor` (length, finiteness).
    pub fn new(op: &'a dyn MonotoneOp, data: &'a Mixture, anchors: &'a [Anchor]) -> Result<Self> {
        let p = ViProblem { op, data, anchors };
        p.validate()?;
        Ok(p)
    }

    /// Check the shapes and values (see [`ViProblem::new`]).
    ///
    /// # Errors
    /// As [`ViProblem::new`].
    pub fn validate(&self) -> Result<()> {
        self.op.domain().validate()?;
        self.data.validate("data", self.op.point_dim())?;
        let d = self.op.dim();
        for (k, a) in self.anchors.iter().enumerate() {
            if !(a.lambda.is_finite() && a.lambda >= 0.0) {
                return Err(invalid(
                    format!("anchors[{k}].lambda"),
                    format!("must be finite and ≥ 0, got {}", a.lambda),
                ));
            }
            if a.anchor.len() != d {
                return Err(invalid(
                    format!("anchors[{k}].anchor"),
                    format!("has length {}, expected dim Z = {d}", a.anchor.len()),
                ));
            }
            require_finite(&format!("anchors[{k}].anchor"), &a.anchor)?;
        }
        Ok(())
    }

    /// Σ_k λ_k.
    pub fn anchor_weight(&self) -> f64 {
        let mut s = 0.0;
        for a in self.anchors {
            s += a.lambda;
        }
        s
    }

    /// Φ(z) into `out`: the mean operator through the counted oracle (one evaluation per
    /// mixture point), then the anchored terms in order.
    pub fn eval_into(&self, oracle: &OpOracle, z: &[f64], out: &mut [f64]) {
        oracle.mixture_into(self.data, z, out);
        for a in self.anchors {
            for ((o, zi), ai) in out.iter_mut().zip(z).zip(&a.anchor) {
                *o += a.lambda * (zi - ai);
            }
        }
    }

    /// Φ(z), uncounted, by [`mean_operator`] (the path the cross-checks use).
    pub fn eval(&self, z: &[f64]) -> Vec<f64> {
        let mut g = mean_operator(self.op, self.data, z);
        for a in self.anchors {
            for ((o, zi), ai) in g.iter_mut().zip(z).zip(&a.anchor) {
                *o += a.lambda * (zi - ai);
            }
        }
        g
    }

    /// (μ, L) of Φ: the modulus and Lipschitz constant of F̄ (from `opts` where given, else from
    /// [`MonotoneOp::constants`] over the mixture's points) plus Σ_k λ_k each.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when a constant is neither given nor available from the family, or
    /// when μ + Σλ_k is not > 0 (the VI is not strongly monotone: no certificate);
    /// [`Error::Invalid`] naming `modulus` / `lipschitz` for a given value that is not finite and
    /// ≥ 0, or when μ > L.
    pub fn constants(&self, opts: &ViSolveOptions) -> Result<(f64, f64)> {
        let need = opts.modulus.is_none() || opts.lipschitz.is_none();
        let family: Option<OpConstants> = if need {
            Some(self.op.constants(&self.data.points.to_vecs()).map_err(|e| match e {
                Error::Unsupported(m) => Error::Unsupported(format!(
                    "certified VI solve needs μ and L: the operator family gives none ({m}); pass them in ViSolveOptions"
                )),
                other => other,
            })?)
        } else {
            None
        };
        let mu = opts
            .modulus
            .unwrap_or_else(|| family.map_or(0.0, |c| c.modulus));
        let l = opts
            .lipschitz
            .unwrap_or_else(|| family.map_or(0.0, |c| c.lipschitz));
        for (field, v) in [("modulus", mu), ("lipschitz", l)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(invalid(field, format!("must be finite and ≥ 0, got {v}")));
            }
        }
        if mu > l {
            return Err(invalid(
                "modulus",
                format!("μ = {mu} exceeds the Lipschitz constant L = {l}"),
            ));
        }
        let s = self.anchor_weight();
        let (mu_t, l_t) = (mu + s, l + s);
        if mu_t.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
            return Err(Error::Unsupported(format!(
                "the VI is not strongly monotone (μ + Σλ_k = {mu_t}): no distance certificate"
            )));
        }
        Ok((mu_t, l_t))
    }
}

/// Stopping rule, limits and (optionally) the operator's constants for [`vi_solution`] and
/// [`resolvent`]; the same conventions as [`crate::solve::SolveOptions`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViSolveOptions {
    /// Give up (with [`Error::NotCertified`]) after this many iterations.
    pub max_iters: usize,
    /// How often the certificate is evaluated (in iterations, ≥ 1).
    pub check_every: usize,
    /// Stop when the distance bound is ≤ dist_tol·(1 + ‖z‖).
    pub dist_tol: f64,
    /// When the bound stops improving (20 checks without a 0.1% gain: the rounding floor), accept
    /// the best point if its bound is ≤ stall_tol·(1 + ‖z‖); otherwise keep iterating.
    pub stall_tol: f64,
    /// μ of the mean operator F̄ (anchored terms excluded); `None`: [`MonotoneOp::constants`].
    #[serde(default)]
    pub modulus: Option<f64>,
    /// L of F̄ on Z (anchored terms excluded); `None`: [`MonotoneOp::constants`].
    #[serde(default)]
    pub lipschitz: Option<f64>,
    /// The starting point (projected onto Z); `None`: the domain's centre.
    #[serde(default)]
    pub start: Option<Vec<f64>>,
}

impl Default for ViSolveOptions {
    fn default() -> Self {
        ViSolveOptions {
            max_iters: 1_000_000,
            check_every: 4,
            dist_tol: 1e-14,
            stall_tol: 1e-10,
            modulus: None,
            lipschitz: None,
            start: None,
        }
    }
}

impl ViSolveOptions {
    /// Check the fields, naming the offending one.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `max_iters`, `check_every`, `dist_tol`, `stall_tol` or `start`.
    pub fn validate(&self, dim: usize) -> Result<()> {
        if self.max_iters == 0 {
            return Err(invalid("max_iters", "must be ≥ 1"));
        }
        if self.check_every == 0 {
            return Err(invalid("check_every", "must be ≥ 1"));
        }
        for (field, v) in [("dist_tol", self.dist_tol), ("stall_tol", self.stall_tol)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(invalid(field, format!("must be finite and > 0, got {v}")));
            }
        }
        if let Some(s) = &self.start {
            if s.len() != dim {
                return Err(invalid(
                    "start",
                    format!("has length {}, expected dim Z = {dim}", s.len()),
                ));
            }
            require_finite("start", s)?;
        }
        Ok(())
    }
}

/// A certified VI solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViCertified {
    /// The point z ∈ Z.
    pub z: Vec<f64>,
    /// A bound ‖z − z*‖ ≤ dist_bound (the certificate).
    pub dist_bound: f64,
    /// ‖r(z)‖ as computed (before the rounding allowance): for the solver, the projected residual
    /// at step η; for the resolvent's Picard branch, ‖z_prev − T(z_prev)‖.
    pub residual: f64,
    /// The rounding allowance added to the residual before the bound was formed
    /// ([`rounding_allowance`]).
    pub allowance: f64,
    /// The step η of the residual (1/λ for the resolvent's Picard branch).
    pub step: f64,
    /// μ of Φ (anchored terms included) the certificate used.
    pub modulus: f64,
    /// L of Φ (anchored terms included) the certificate used.
    pub lipschitz: f64,
    /// Iterations made: for the solver, full extragradient iterations before the stopping check
    /// (the evaluations are n·(2·iterations + 1), n the mixture size); for Picard, applications
    /// of T. The returned point is the best-certified among the checked ones, not necessarily
    /// the last.
    pub iterations: usize,
    /// Operator evaluations G(·; x_j) made (through [`OpOracle`]).
    pub evals: u64,
    /// "extragradient" or "picard".
    pub method: String,
}

/// (1 + ηL)/(ημ)·r: the distance bound of a projected residual of norm `r` at step `eta` (module
/// doc). Infinite when μ or η is not > 0.
pub fn residual_distance_bound(r: f64, eta: f64, modulus: f64, lipschitz: f64) -> f64 {
    if !(eta > 0.0 && modulus > 0.0) {
        return f64::INFINITY;
    }
    (1.0 + eta * lipschitz) / (eta * modulus) * r
}

/// The rounding allowance added to a computed residual before it enters a distance bound:
/// 4·u·(d + n)·(1 + ‖z‖ + η‖Φ(z)‖), u the unit roundoff 2⁻⁵³·2, d = dim Z, n the number of
/// mixture points. It covers the summation errors of Φ (a sum of n + d-term dot products, each
/// with error ≤ (terms)·u·Σ|summands|, Higham's γ_n) and the few roundings of the projection
/// step, at the scale of the iterate. It is an a-priori model, not interval arithmetic; the
/// cross-checks of [`crate::claims`] compare the resulting bound with independently computed
/// solutions.
pub fn rounding_allowance(d: usize, n: usize, z_norm: f64, eta_phi_norm: f64) -> f64 {
    4.0 * f64::EPSILON * (d + n) as f64 * (1.0 + z_norm + eta_phi_norm)
}

/// Work buffers for the certificate at one point.
struct Certificate {
    /// ‖r‖ as computed.
    residual: f64,
    /// The rounding allowance.
    allowance: f64,
    /// The distance bound with the rounding allowance.
    bound: f64,
}

fn certificate_at(
    p: &ViProblem,
    z: &[f64],
    g: &[f64],
    zh: &[f64],
    eta: f64,
    mu: f64,
    l: f64,
) -> Certificate {
    let mut r2 = 0.0;
    for (a, b) in z.iter().zip(zh) {
        r2 += (a - b) * (a - b);
    }
    let residual = r2.sqrt();
    let allow = rounding_allowance(
        z.len(),
        p.data.points.len(),
        linalg::norm2(z),
        eta * linalg::norm2(g),
    );
    Certificate {
        residual,
        allowance: allow,
        bound: residual_distance_bound(residual + allow, eta, mu, l),
    }
}

/// The distance certificate of an arbitrary point z ∈ Z, at the solver's step η = 1/(2L): the
/// bound ‖z − z*‖ ≤ (1 + ηL)/(ημ)·(‖r(z)‖ + allowance) of the module doc, with the constants of
/// [`ViProblem::constants`]. Counts its evaluations on `oracle`.
///
/// # Errors
/// As [`ViProblem::constants`]; [`Error::Invalid`] naming `z` if it is not a point of Z.
pub fn distance_certificate(
    p: &ViProblem,
    oracle: &OpOracle,
    z: &[f64],
    opts: &ViSolveOptions,
) -> Result<f64> {
    p.validate()?;
    let dom = p.op.domain();
    dom.check_point("z", z)?;
    if !dom.contains(z, 1e-12 * (1.0 + linalg::norm2(z))) {
        return Err(invalid("z", "is not in the domain Z"));
    }
    let (mu, l) = p.constants(opts)?;
    let eta = 0.5 / l;
    let mut g = vec![0.0; z.len()];
    p.eval_into(oracle, z, &mut g);
    let mut zh = z.to_vec();
    linalg::axpy(-eta, &g, &mut zh);
    dom.project_in_place(&mut zh);
    Ok(certificate_at(p, z, &g, &zh, eta, mu, l).bound)
}

/// The solution of the VI of `p`, certified (module doc): projected extragradient with
/// η = 1/(2L), stopping on the residual distance bound.
///
/// # Errors
/// [`Error::Unsupported`] when μ + Σλ_k is not > 0 or the constants are unavailable (see
/// [`ViProblem::constants`]); [`Error::Invalid`] for bad options or data;
/// [`Error::NotCertified`] when `max_iters` pass without meeting the stopping rule.
pub fn vi_solution(p: &ViProblem, opts: &ViSolveOptions) -> Result<ViCertified> {
    let oracle = OpOracle::new(p.op);
    vi_solution_counted(p, &oracle, opts)
}

/// [`vi_solution`] counting its evaluations on a caller's oracle (e.g. a resolvent inside an
/// algorithm whose total count is asserted).
///
/// # Errors
/// As [`vi_solution`].
pub fn vi_solution_counted(
    p: &ViProblem,
    oracle: &OpOracle,
    opts: &ViSolveOptions,
) -> Result<ViCertified> {
    p.validate()?;
    let d = p.op.dim();
    opts.validate(d)?;
    let (mu, l) = p.constants(opts)?;
    let dom = p.op.domain();
    let eta = 0.5 / l;
    let evals0 = oracle.evals();
    let mut z = match &opts.start {
        Some(s) => dom.project(s),
        None => dom.center(),
    };
    let mut g = vec![0.0; d];
    let mut zh = vec![0.0; d];
    let mut best: Option<(Vec<f64>, Certificate, usize)> = None;
    let mut stale = 0usize;
    for k in 0..opts.max_iters {
        // Extrapolation z½ = Π(z − ηΦ(z)); z − z½ is the projected residual r(z).
        p.eval_into(oracle, &z, &mut g);
        zh.copy_from_slice(&z);
        linalg::axpy(-eta, &g, &mut zh);
        dom.project_in_place(&mut zh);
        if k % opts.check_every == 0 {
            let c = certificate_at(p, &z, &g, &zh, eta, mu, l);
            let prev = best.as_ref().map_or(f64::INFINITY, |b| b.1.bound);
            if c.bound < prev * (1.0 - 1e-3) {
                best = Some((z.clone(), c, k));
                stale = 0;
            } else {
                stale += 1;
            }
            let (bz, bc, _) = best.as_ref().expect("set on the first check");
            let scale = 1.0 + linalg::norm2(bz);
            if bc.bound <= opts.dist_tol * scale
                || (stale >= 20 && bc.bound <= opts.stall_tol * scale)
            {
                let (z, c, _) = best.expect("set");
                return Ok(ViCertified {
                    z,
                    dist_bound: c.bound,
                    residual: c.residual,
                    allowance: c.allowance,
                    step: eta,
                    modulus: mu,
                    lipschitz: l,
                    evals: oracle.evals() - evals0,
                    iterations: k,
                    method: "extragradient".into(),
                });
            }
        }
        // The update z⁺ = Π(z − ηΦ(z½)).
        p.eval_into(oracle, &zh, &mut g);
        linalg::axpy(-eta, &g, &mut z);
        dom.project_in_place(&mut z);
    }
    Err(Error::NotCertified(format!(
        "projected extragradient reached distance bound {:e} after {} iterations without meeting dist_tol {:e} or stall_tol {:e} (relative)",
        best.map_or(f64::INFINITY, |b| b.1.bound),
        opts.max_iters,
        opts.dist_tol,
        opts.stall_tol
    )))
}

/// The resolvent J(u) with its fixed-point residual.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResolventCertified {
    /// J(u), with its distance certificate (`solution.dist_bound` ≥ ‖J(u) − J*(u)‖).
    pub solution: ViCertified,
    /// ‖J − Π_Z(u − Φ(J)/λ)‖, the fixed-point residual of the returned point (computed after
    /// the method stopped, with its own evaluation).
    pub fixed_point_residual: f64,
    /// q = L/λ (< 1: the Picard map is a contraction).
    pub contraction: f64,
}

/// T(z) = Π_Z(u − Φ(z)/λ) into `out` (g is a work buffer).
fn picard_map(
    p: &ViProblem,
    oracle: &OpOracle,
    u: &[f64],
    lambda: f64,
    z: &[f64],
    g: &mut [f64],
    out: &mut [f64],
) {
    p.eval_into(oracle, z, g);
    for ((o, ui), gi) in out.iter_mut().zip(u).zip(g.iter()) {
        *o = ui - gi / lambda;
    }
    p.op.domain().project_in_place(out);
}

/// ‖z − Π_Z(u − Φ(z)/λ)‖: the fixed-point residual of a candidate resolvent value z (0 exactly
/// at J(u)). Counts its evaluations on `oracle`; assumes `p` valid and z, u of length dim Z.
pub fn fixed_point_residual(
    p: &ViProblem,
    oracle: &OpOracle,
    u: &[f64],
    lambda: f64,
    z: &[f64],
) -> f64 {
    let d = z.len();
    let mut g = vec![0.0; d];
    let mut tz = vec![0.0; d];
    picard_map(p, oracle, u, lambda, z, &mut g, &mut tz);
    linalg::dist2(z, &tz)
}

/// The resolvent u ↦ J(u): the solution of the VI of Φ + λ(· − u) on Z, i.e. the fixed point of
/// T(z) = Π_Z(u − Φ(z)/λ) (BG23 eq. (4.2) with G = Φ/λ; λ = 1/γ). Certified (module doc): Picard
/// iteration with the Banach a-posteriori bound when q = L/λ ≤ 1/2, otherwise [`vi_solution`] on
/// Φ + λ(· − u) (strongly monotone with modulus μ + λ, so F̄ may be merely monotone). The returned
/// fixed-point residual is computed afresh at the returned point. `u` may lie outside Z.
///
/// # Errors
/// [`Error::Invalid`] naming `lambda` (finite, > 0) or `u` (length, finiteness); as
/// [`vi_solution`] otherwise (the constants are needed for the certificate).
pub fn resolvent(
    p: &ViProblem,
    u: &[f64],
    lambda: f64,
    opts: &ViSolveOptions,
) -> Result<ResolventCertified> {
    p.validate()?;
    let d = p.op.dim();
    opts.validate(d)?;
    if !(lambda.is_finite() && lambda > 0.0) {
        return Err(invalid(
            "lambda",
            format!("must be finite and > 0, got {lambda}"),
        ));
    }
    if u.len() != d {
        return Err(invalid(
            "u",
            format!("has length {}, expected dim Z = {d}", u.len()),
        ));
    }
    require_finite("u", u)?;
    // The constants of Φ; μ may be 0 here (the λ-term makes the resolvent's VI strongly monotone).
    let with_u: Vec<Anchor> = p
        .anchors
        .iter()
        .cloned()
        .chain(std::iter::once(Anchor {
            lambda,
            anchor: u.to_vec(),
        }))
        .collect();
    let full = ViProblem {
        op: p.op,
        data: p.data,
        anchors: &with_u,
    };
    let (mu_full, l_full) = full.constants(opts)?;
    let l = l_full - lambda;
    let q = l / lambda;
    let oracle = OpOracle::new(p.op);
    let dom = p.op.domain();
    let mut g = vec![0.0; d];
    let solution = if q <= 0.5 {
        let mut z = match &opts.start {
            Some(s) => dom.project(s),
            None => dom.project(u),
        };
        let mut tz = vec![0.0; d];
        let mut best: Option<(Vec<f64>, f64, f64, f64, usize)> = None;
        let mut stale = 0usize;
        let mut done = None;
        for k in 0..opts.max_iters {
            picard_map(p, &oracle, u, lambda, &z, &mut g, &mut tz);
            let mut s2 = 0.0;
            for (a, b) in z.iter().zip(&tz) {
                s2 += (a - b) * (a - b);
            }
            let step = s2.sqrt();
            let allow = rounding_allowance(
                d,
                p.data.points.len(),
                linalg::norm2(&tz),
                linalg::norm2(&g) / lambda,
            );
            // ‖T(z) − z*‖ = ‖T(z) − T(z*)‖ ≤ q‖z − z*‖ ≤ q(‖z − T(z)‖ + ‖T(z) − z*‖).
            let bound = q / (1.0 - q) * (step + allow);
            if best.as_ref().is_none_or(|b| bound < b.1 * (1.0 - 1e-3)) {
                best = Some((tz.clone(), bound, step, allow, k + 1));
                stale = 0;
            } else {
                stale += 1;
            }
            let (bz, bb, _, _, _) = best.as_ref().expect("set");
            let scale = 1.0 + linalg::norm2(bz);
            if *bb <= opts.dist_tol * scale || (stale >= 20 && *bb <= opts.stall_tol * scale) {
                done = best.take();
                break;
            }
            std::mem::swap(&mut z, &mut tz);
        }
        let (z, bound, step, allowance, it) = done.ok_or_else(|| {
            Error::NotCertified(format!(
                "Picard iteration of the resolvent did not meet its stopping rule in {} iterations",
                opts.max_iters
            ))
        })?;
        ViCertified {
            z,
            dist_bound: bound,
            residual: step,
            allowance,
            step: 1.0 / lambda,
            modulus: mu_full,
            lipschitz: l_full,
            iterations: it,
            evals: 0,
            method: "picard".into(),
        }
    } else {
        let mut o = opts.clone();
        if o.start.is_none() {
            o.start = Some(u.to_vec());
        }
        vi_solution_counted(&full, &oracle, &o)?
    };
    let fixed_point_residual = fixed_point_residual(p, &oracle, u, lambda, &solution.z);
    let mut solution = solution;
    solution.evals = oracle.evals();
    Ok(ResolventCertified {
        solution,
        fixed_point_residual,
        contraction: q,
    })
}

// ---------------------------------------------------------------------------------------------
// Cross-checks for affine operators: separate code paths, not the solver.
// ---------------------------------------------------------------------------------------------

/// Φ(z) = A z + b, an affine operator written out.
#[derive(Clone, Debug, PartialEq)]
pub struct AffineModel {
    /// A (d × d).
    pub a: Matrix,
    /// b = Φ(0).
    pub b: Vec<f64>,
}

impl AffineModel {
    /// A z + b.
    pub fn eval(&self, z: &[f64]) -> Vec<f64> {
        linalg::add(&self.a.matvec(z), &self.b)
    }
}

/// Φ of `p` as A z + b, read off by evaluation (b = Φ(0), A e_i = Φ(e_i) − b, uncounted, through
/// [`mean_operator`]), and confirmed affine at a few further points (−e_i·3, the all-ones vector
/// and an alternating one) to 1e-12 relative.
///
/// # Errors
/// [`Error::Unsupported`] when Φ is not affine (within that tolerance).
pub fn affine_model(p: &ViProblem) -> Result<AffineModel> {
    p.validate()?;
    let d = p.op.dim();
    let b = p.eval(&vec![0.0; d]);
    let mut a = Matrix::zeros(d, d);
    let mut e = vec![0.0; d];
    for j in 0..d {
        e[j] = 1.0;
        let col = p.eval(&e);
        e[j] = 0.0;
        for i in 0..d {
            a.set(i, j, col[i] - b[i]);
        }
    }
    let model = AffineModel { a, b };
    let mut probes: Vec<Vec<f64>> = vec![vec![1.0; d]];
    probes.push(
        (0..d)
            .map(|i| if i % 2 == 0 { 2.0 } else { -0.5 })
            .collect(),
    );
    for j in 0..d {
        let mut v = vec![0.0; d];
        v[j] = -3.0;
        probes.push(v);
    }
    for v in &probes {
        let want = p.eval(v);
        let got = model.eval(v);
        let err = linalg::dist2(&want, &got);
        if err.is_nan() || err > 1e-12 * (1.0 + linalg::norm2(&want)) {
            return Err(Error::Unsupported(format!(
                "the operator is not affine (affine model off by {err:e})"
            )));
        }
    }
    Ok(model)
}

/// The solution of the affine VI (A z + b on Z) when it lies in Z: z = −A⁻¹b by
/// [`Matrix::solve`], `None` when that point is not in Z (membership to 1e-12·(1 + ‖z‖)). A point
/// of Z where Φ = 0 solves the VI (whether interior or not).
///
/// # Errors
/// [`Error::Invalid`] when A is singular to working precision.
pub fn affine_vi_interior(model: &AffineModel, domain: &Domain) -> Result<Option<Vec<f64>>> {
    let z = model.a.solve(&linalg::scale(-1.0, &model.b))?;
    Ok(domain
        .contains(&z, 1e-12 * (1.0 + linalg::norm2(&z)))
        .then_some(z))
}

/// The solution of the affine VI on the ball {‖z − c‖ ≤ R} by its KKT conditions: with
/// v = A c + b and y(τ) = −(A + τI)⁻¹v, either ‖y(0)‖ ≤ R (z* = c + y(0)) or z* = c + y(τ*) with
/// ‖y(τ*)‖ = R, τ* > 0 (the multiplier of the constraint). ‖y(τ)‖ decreases in τ when
/// sym(A) ⪰ 0 (d/dτ ‖y‖² = −2⟨(A + τI)w, w⟩ with w = (A + τI)⁻¹y), and ‖y(τ)‖ ≤ ‖v‖/τ, so τ* is
/// found by bisection on [0, ‖v‖/R] to adjacent floats; the returned point is c + R·y/‖y‖ at the
/// bracket's upper end.
///
/// # Errors
/// [`Error::Invalid`] for shapes, R ≤ 0 or a singular A + τI.
pub fn affine_vi_ball(model: &AffineModel, center: &[f64], radius: f64) -> Result<Vec<f64>> {
    let d = model.b.len();
    if center.len() != d {
        return Err(invalid(
            "center",
            format!("has length {}, expected {d}", center.len()),
        ));
    }
    if !(radius.is_finite() && radius > 0.0) {
        return Err(invalid(
            "radius",
            format!("must be finite and > 0, got {radius}"),
        ));
    }
    let v = model.eval(center);
    let y_at = |tau: f64| -> Result<Vec<f64>> {
        let mut m = model.a.clone();
        for i in 0..d {
            m.set(i, i, m.get(i, i) + tau);
        }
        m.solve(&linalg::scale(-1.0, &v))
    };
    let y0 = y_at(0.0)?;
    if linalg::norm2(&y0) <= radius {
        return Ok(linalg::add(center, &y0));
    }
    let (mut lo, mut hi) = (0.0f64, linalg::norm2(&v) / radius);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if linalg::norm2(&y_at(mid)?) > radius {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let y = y_at(hi)?;
    let s = radius / linalg::norm2(&y);
    Ok(center.iter().zip(&y).map(|(c, yi)| c + s * yi).collect())
}

/// The largest box dimension [`affine_vi_box`] enumerates (3^d active sets).
pub const BOX_ENUMERATION_MAX_DIM: usize = 10;

/// The solution of the affine VI on the box [lo, hi] by enumerating every active set: each
/// coordinate free (Φ_i = 0), at lo_i (Φ_i ≥ 0) or at hi_i (Φ_i ≤ 0); the free block is solved
/// by [`Matrix::solve`], and the pattern with the smallest KKT violation (bounds of the free
/// coordinates, signs of Φ on the active ones) is returned. The VI's solution is unique when
/// sym(A) ≻ 0, and its pattern has violation 0 (up to rounding).
///
/// # Errors
/// [`Error::Unsupported`] above [`BOX_ENUMERATION_MAX_DIM`]; [`Error::Invalid`] for shapes.
pub fn affine_vi_box(model: &AffineModel, lo: &[f64], hi: &[f64]) -> Result<Vec<f64>> {
    let d = model.b.len();
    if lo.len() != d || hi.len() != d {
        return Err(invalid("lo/hi", format!("must have length {d}")));
    }
    if d > BOX_ENUMERATION_MAX_DIM {
        return Err(Error::Unsupported(format!(
            "active-set enumeration of a box of dimension {d} (max {BOX_ENUMERATION_MAX_DIM})"
        )));
    }
    let mut best: Option<(f64, Vec<f64>)> = None;
    let total = 3usize.pow(d as u32);
    let mut state = vec![0u8; d];
    for code in 0..total {
        let mut c = code;
        for s in state.iter_mut() {
            *s = (c % 3) as u8;
            c /= 3;
        }
        let free: Vec<usize> = (0..d).filter(|&i| state[i] == 0).collect();
        let mut z = vec![0.0; d];
        for i in 0..d {
            z[i] = match state[i] {
                1 => lo[i],
                2 => hi[i],
                _ => 0.0,
            };
        }
        if !free.is_empty() {
            let k = free.len();
            let mut m = Matrix::zeros(k, k);
            let mut rhs = vec![0.0; k];
            for (r, &i) in free.iter().enumerate() {
                let mut s = -model.b[i];
                for j in 0..d {
                    if state[j] != 0 {
                        s -= model.a.get(i, j) * z[j];
                    }
                }
                rhs[r] = s;
                for (cix, &j) in free.iter().enumerate() {
                    m.set(r, cix, model.a.get(i, j));
                }
            }
            let Ok(sol) = m.solve(&rhs) else { continue };
            for (r, &i) in free.iter().enumerate() {
                z[i] = sol[r];
            }
        }
        let g = model.eval(&z);
        let mut viol = 0.0f64;
        for i in 0..d {
            let v = match state[i] {
                0 => (lo[i] - z[i]).max(z[i] - hi[i]).max(0.0),
                1 => (-g[i]).max(0.0),
                _ => g[i].max(0.0),
            };
            viol = viol.max(v);
        }
        if best.as_ref().is_none_or(|b| viol < b.0) {
            best = Some((viol, z));
        }
    }
    Ok(best.expect("3^d ≥ 1 patterns").1)
}

/// The solution of the affine VI on `domain` by the cross-check that applies: a ball by
/// [`affine_vi_ball`], a box (or a product of boxes) by [`affine_vi_box`], any other domain by
/// [`affine_vi_interior`] when the unconstrained solution lies in it.
///
/// # Errors
/// [`Error::Unsupported`] when none applies.
pub fn affine_vi_reference(model: &AffineModel, domain: &Domain) -> Result<Vec<f64>> {
    match domain {
        Domain::Ball { center, radius } => affine_vi_ball(model, center, *radius),
        Domain::Box { lo, hi } => affine_vi_box(model, lo, hi),
        Domain::Product(blocks) if blocks.iter().all(|b| matches!(b, Domain::Box { .. })) => {
            let mut lo = Vec::new();
            let mut hi = Vec::new();
            for b in blocks {
                if let Domain::Box { lo: l, hi: h } = b {
                    lo.extend_from_slice(l);
                    hi.extend_from_slice(h);
                }
            }
            affine_vi_box(model, &lo, &hi)
        }
        _ => affine_vi_interior(model, domain)?.ok_or_else(|| {
            Error::Unsupported(
                "no independent cross-check for a boundary solution on this domain".into(),
            )
        }),
    }
}

/// A certified value sup_{u∈Z} h(u): lower ≤ sup ≤ upper.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CertifiedValue {
    /// h(u) at the returned feasible u.
    pub lower: f64,
    /// lower + the Frank–Wolfe gap at u (≥ the supremum by concavity).
    pub upper: f64,
    /// The maximizer found.
    pub argmax: Vec<f64>,
    /// Projected-gradient iterations made (0: the linear case, solved by the LMO).
    pub iterations: usize,
}

/// The VI gap sup_{u∈Z} ⟨A u + b, z − u⟩ of an affine operator at z, certified: h(u) =
/// −uᵀSu + ⟨Aᵀz − b, u⟩ + ⟨b, z⟩ with S = sym(A) ⪰ 0 is concave, ∇h(u) = Aᵀz − b − 2Su. When
/// S = 0 (to 16 ulps of max|a_ij|, the rounding of a model read off by evaluation), h is linear and its maximum is the LMO's value; otherwise projected gradient
/// ascent with step 1/λ_max(2S) (‖A + Aᵀ‖ by [`Matrix::op_norm`]) until the Frank–Wolfe gap
/// σ_Z(∇h(u)) − ⟨∇h(u), u⟩ (an upper bound on sup h − h(u) by concavity) is ≤ tol_rel·(1 + |h(u)|),
/// or the upper end has not improved for 50 iterations (the rounding floor), or `max_iters` pass;
/// the iterate with the smallest upper end is returned. The interval [lower, upper] is the
/// certificate whatever the stopping reason: the caller judges its width.
///
/// # Errors
/// [`Error::Invalid`] for shapes or a non-finite z.
pub fn certified_affine_vi_gap(
    model: &AffineModel,
    domain: &Domain,
    z: &[f64],
    tol_rel: f64,
    max_iters: usize,
) -> Result<CertifiedValue> {
    let d = model.b.len();
    domain.check_point("z", z)?;
    if d != domain.dim() {
        return Err(invalid("model", "dimension differs from the domain's"));
    }
    // c = Aᵀz − b, and h's constant ⟨b, z⟩.
    let mut c = model.a.matvec_t(z);
    linalg::axpy(-1.0, &model.b, &mut c);
    let h = |u: &[f64]| linalg::dot(&model.eval(u), &linalg::sub(z, u));
    let mut s = Matrix::zeros(d, d);
    for i in 0..d {
        for j in 0..d {
            s.set(i, j, model.a.get(i, j) + model.a.get(j, i));
        }
    }
    let grad = |u: &[f64]| {
        let mut g = c.clone();
        linalg::axpy(-1.0, &s.matvec(u), &mut g);
        g
    };
    let fw = |u: &[f64], g: &[f64]| (domain.support(g) - linalg::dot(g, u)).max(0.0);
    // A read off by evaluation ([`affine_model`]) carries rounding in its last digits: a
    // symmetric part within 16 ulps of A's largest entry is taken as exactly zero (h linear).
    let amax = (0..d * d).fold(0.0f64, |m, k| m.max(model.a.get(k / d, k % d).abs()));
    let smax = (0..d * d).fold(0.0f64, |m, k| m.max(s.get(k / d, k % d).abs()));
    if smax <= 16.0 * f64::EPSILON * amax {
        let u = domain.lmo(&c);
        let v = h(&u);
        let g = grad(&u);
        return Ok(CertifiedValue {
            lower: v,
            upper: v + fw(&u, &g),
            argmax: u,
            iterations: 0,
        });
    }
    let lip = s.op_norm();
    let t = 1.0 / lip;
    let mut u = domain.center();
    let mut best: Option<CertifiedValue> = None;
    let mut stale = 0usize;
    for k in 0..max_iters.max(1) {
        let g = grad(&u);
        let v = h(&u);
        let gap = fw(&u, &g);
        if best.as_ref().is_none_or(|b| v + gap < b.upper) {
            best = Some(CertifiedValue {
                lower: v,
                upper: v + gap,
                argmax: u.clone(),
                iterations: k,
            });
            stale = 0;
        } else {
            stale += 1;
        }
        if gap <= tol_rel * (1.0 + v.abs()) || stale >= 50 {
            break;
        }
        let mut next = u.clone();
        linalg::axpy(t, &g, &mut next);
        domain.project_in_place(&mut next);
        u = next;
    }
    Ok(best.expect("at least one iteration"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::AffineOp;

    /// M = κJ + μI (J the block rotation generator) on ℝ^d, d even.
    fn rot(d: usize, kappa: f64, mu: f64) -> Matrix {
        let mut m = Matrix::zeros(d, d);
        for i in 0..d {
            m.set(i, i, mu);
        }
        for b in 0..d / 2 {
            m.set(2 * b, 2 * b + 1, -kappa);
            m.set(2 * b + 1, 2 * b, kappa);
        }
        m
    }

    fn opts(kappa: f64, mu: f64) -> ViSolveOptions {
        ViSolveOptions {
            modulus: Some(mu),
            lipschitz: Some((kappa * kappa + mu * mu).sqrt()),
            ..ViSolveOptions::default()
        }
    }

    #[test]
    fn ball_solution_matches_kkt_and_bound_holds() {
        let d = 4;
        let op = AffineOp::new(rot(d, 2.0, 0.5), Domain::ball(vec![0.0; d], 1.0).unwrap()).unwrap();
        let data = Mixture {
            points: crate::problem::dataset::Rows::new(vec![
                vec![3.0, -1.0, 0.5, 2.0],
                vec![-1.0, 0.0, 1.0, 0.0],
            ])
            .unwrap(),
            weights: vec![0.25, 0.75],
        };
        let p = ViProblem::new(&op, &data, &[]).unwrap();
        let c = vi_solution(&p, &opts(2.0, 0.5)).unwrap();
        let m = affine_model(&p).unwrap();
        let zr = affine_vi_ball(&m, &[0.0; 4], 1.0).unwrap();
        let dist = linalg::dist2(&c.z, &zr);
        assert!(dist <= c.dist_bound, "{dist:e} > {:e}", c.dist_bound);
        assert!(c.dist_bound < 1e-9, "{c:?}");
        // One mean-operator evaluation (2 points) per half step, and the stopping check's.
        assert_eq!(c.evals, 2 * (2 * c.iterations as u64 + 1));
    }

    #[test]
    fn unsupported_without_strong_monotonicity_or_constants() {
        let op = AffineOp::new(rot(2, 1.0, 0.0), Domain::ball(vec![0.0; 2], 1.0).unwrap()).unwrap();
        let data = Mixture::single(&[1.0, 0.0]);
        let p = ViProblem::new(&op, &data, &[]).unwrap();
        assert!(matches!(
            vi_solution(&p, &opts(1.0, 0.0)),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(
            vi_solution(&p, &ViSolveOptions::default()),
            Err(Error::Unsupported(_)) | Ok(_)
        ));
        // The resolvent of a merely monotone operator is fine (modulus λ).
        let r = resolvent(&p, &[2.0, 0.0], 0.7, &opts(1.0, 0.0)).unwrap();
        assert!(r.fixed_point_residual <= 1e-12, "{r:?}");
        let r = resolvent(&p, &[2.0, 0.0], 5.0, &opts(1.0, 0.0)).unwrap();
        assert_eq!(r.solution.method, "picard");
        assert!(r.fixed_point_residual <= 1e-12, "{r:?}");
    }

    #[test]
    fn validation_names_fields() {
        let op = AffineOp::new(rot(2, 1.0, 1.0), Domain::ball(vec![0.0; 2], 1.0).unwrap()).unwrap();
        let data = Mixture::single(&[1.0, 0.0]);
        let bad = [Anchor {
            lambda: -1.0,
            anchor: vec![0.0; 2],
        }];
        let e = ViProblem::new(&op, &data, &bad).err().unwrap().to_string();
        assert!(e.contains("anchors[0].lambda"), "{e}");
        let p = ViProblem::new(&op, &data, &[]).unwrap();
        let mut o = opts(1.0, 1.0);
        o.check_every = 0;
        let e = vi_solution(&p, &o).unwrap_err().to_string();
        assert!(e.contains("check_every"), "{e}");
        let e = resolvent(&p, &[0.0; 2], 0.0, &opts(1.0, 1.0))
            .unwrap_err()
            .to_string();
        assert!(e.contains("lambda"), "{e}");
        let mut o = opts(1.0, 1.0);
        o.modulus = Some(5.0);
        let e = vi_solution(&p, &o).unwrap_err().to_string();
        assert!(e.contains("modulus"), "{e}");
    }

    #[test]
    fn certified_gap_matches_isotropic_closed_form() {
        let d = 4;
        let op = AffineOp::new(
            rot(d, 1.5, 0.3),
            Domain::new_box(vec![-1.0; d], vec![1.0; d]).unwrap(),
        )
        .unwrap();
        let data = Mixture::single(&[0.5, -2.0, 0.25, 1.0]);
        let p = ViProblem::new(&op, &data, &[]).unwrap();
        let m = affine_model(&p).unwrap();
        for z in [vec![0.5, 0.5, -0.5, 1.0], vec![-1.0, 0.2, 0.0, 0.3]] {
            let closed = op.vi_gap(&data, &z).unwrap();
            let cv = certified_affine_vi_gap(&m, op.domain(), &z, 1e-15, 100_000).unwrap();
            assert!(
                closed >= cv.lower - 1e-12 * closed.abs()
                    && closed <= cv.upper + 1e-12 * closed.abs(),
                "{closed} vs {cv:?}"
            );
        }
    }
}
