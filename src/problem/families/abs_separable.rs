//! A non-smooth Lipschitz family with closed-form best responses (the non-smooth family used for BGM23 Thm 21 and the other non-smooth results).
//!
//! f(w, θ; x) = Σ_i ( |w_i − u_i| − |θ_i − v_i| + κ_i w_i θ_i ),  x = [u; v] ∈ ℝ^{2d},
//! on boxes W, Θ ⊂ ℝ^d. It is convex in w and concave in θ for every κ. Every objective the crate
//! builds (data mixture + isotropic anchored quadratics) separates over coordinates, and each
//! coordinate's best response is the minimizer of a 1-D convex piecewise quadratic
//! Σ_j π_j|t − p_j| + ℓt + q(t − c)² on an interval, found exactly by [`argmin_abs_quad`].

use crate::error::{invalid, Result};
use crate::geometry::Domain;
use crate::problem::saddle::{weighted_point_mean, Constants, Objective, SaddleFn};
use serde::{Deserialize, Serialize};

/// The separable absolute-value family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AbsSeparable {
    /// W, a box in ℝ^d.
    pub domain_w: Domain,
    /// Θ, a box in ℝ^d.
    pub domain_theta: Domain,
    /// κ ∈ ℝ^d, the diagonal bilinear coupling.
    pub kappa: Vec<f64>,
}

fn box_bounds(d: &Domain) -> Option<(&[f64], &[f64])> {
    match d {
        Domain::Box { lo, hi } => Some((lo, hi)),
        _ => None,
    }
}

impl AbsSeparable {
    /// Validate: both domains boxes of one dimension d, κ of length d and finite.
    pub fn new(domain_w: Domain, domain_theta: Domain, kappa: Vec<f64>) -> Result<Self> {
        domain_w.validate()?;
        domain_theta.validate()?;
        if box_bounds(&domain_w).is_none() {
            return Err(invalid("domain_w", "the abs_separable family needs a box"));
        }
        if box_bounds(&domain_theta).is_none() {
            return Err(invalid(
                "domain_theta",
                "the abs_separable family needs a box",
            ));
        }
        let d = domain_w.dim();
        if domain_theta.dim() != d {
            return Err(invalid(
                "domain_theta",
                format!("has dimension {}, expected d = {d}", domain_theta.dim()),
            ));
        }
        if kappa.len() != d {
            return Err(invalid(
                "kappa",
                format!("has length {}, expected d = {d}", kappa.len()),
            ));
        }
        crate::error::require_finite("kappa", &kappa)?;
        Ok(AbsSeparable {
            domain_w,
            domain_theta,
            kappa,
        })
    }

    fn d(&self) -> usize {
        self.kappa.len()
    }
}

/// sign with sign(0) = 0: the subgradient selection of |·| used by [`AbsSeparable::grad`].
fn sgn(t: f64) -> f64 {
    if t > 0.0 {
        1.0
    } else if t < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The smallest minimizer over [lo, hi] of the convex function
/// φ(t) = Σ_j π_j |t − p_j| + ℓ t + q (t − c)², q ≥ 0, π_j ≥ 0.
///
/// φ′ is non-decreasing; between consecutive breakpoints it is ℓ + s + 2q(t − c) with
/// s = (weight left of t) − (weight right of t). The scan visits breakpoints in increasing order
/// and returns the first point where the right derivative is ≥ 0 (or the stationary point of the
/// piece before it), then clamps to [lo, hi]; for a 1-D convex function the clamp of an
/// unconstrained minimizer is the constrained one, and for q = 0 the candidates lo, hi and the
/// breakpoints contain a minimizer.
pub fn argmin_abs_quad(
    points: &[f64],
    weights: &[f64],
    ell: f64,
    q: f64,
    c: f64,
    lo: f64,
    hi: f64,
) -> f64 {
    let mut idx: Vec<usize> = (0..points.len()).collect();
    idx.sort_by(|&a, &b| points[a].total_cmp(&points[b]).then(a.cmp(&b)));
    let total: f64 = weights.iter().sum();
    // Right derivative at t (for t at or beyond the points in `below`):
    // φ′₊(t) = ℓ + (W_≤t − W_>t) + 2q(t − c).
    let deriv = |t: f64, w_le: f64| ell + (2.0 * w_le - total) + 2.0 * q * (t - c);
    // Restrict attention to [lo, hi]: start at lo.
    let mut w_le = 0.0; // weight of points ≤ current position
    let mut k = 0;
    while k < idx.len() && points[idx[k]] <= lo {
        w_le += weights[idx[k]];
        k += 1;
    }
    if deriv(lo, w_le) >= 0.0 {
        return lo;
    }
    let mut t_prev = lo;
    loop {
        // On the open piece (t_prev, next) the derivative is ell + (2 w_le − total) + 2q(t − c).
        let next = if k < idx.len() {
            points[idx[k]].min(hi)
        } else {
            hi
        };
        if q > 0.0 {
            let t_star = c - (ell + 2.0 * w_le - total) / (2.0 * q);
            if t_star > t_prev && t_star < next {
                return t_star;
            }
        }
        if next >= hi {
            return hi;
        }
        // Absorb every point equal to `next`.
        while k < idx.len() && points[idx[k]] <= next {
            w_le += weights[idx[k]];
            k += 1;
        }
        if deriv(next, w_le) >= 0.0 {
            return next;
        }
        t_prev = next;
    }
}

impl SaddleFn for AbsSeparable {
    fn name(&self) -> String {
        format!("abs_separable(d={})", self.d())
    }
    fn dim_w(&self) -> usize {
        self.d()
    }
    fn dim_theta(&self) -> usize {
        self.d()
    }
    fn point_dim(&self) -> usize {
        2 * self.d()
    }
    fn domain_w(&self) -> &Domain {
        &self.domain_w
    }
    fn domain_theta(&self) -> &Domain {
        &self.domain_theta
    }
    fn value(&self, w: &[f64], theta: &[f64], x: &[f64]) -> f64 {
        let d = self.d();
        let mut v = 0.0;
        for i in 0..d {
            v +=
                (w[i] - x[i]).abs() - (theta[i] - x[d + i]).abs() + self.kappa[i] * w[i] * theta[i];
        }
        v
    }
    /// Subgradient selection sign(0) = 0.
    fn grad(&self, w: &[f64], theta: &[f64], x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let d = self.d();
        let gw = (0..d)
            .map(|i| sgn(w[i] - x[i]) + self.kappa[i] * theta[i])
            .collect();
        let gt = (0..d)
            .map(|i| -sgn(theta[i] - x[d + i]) + self.kappa[i] * w[i])
            .collect();
        (gw, gt)
    }
    /// L = √(Σ_i (1 + |κ_i| M^θ_i)² + (1 + |κ_i| M^w_i)²) with M the largest |coordinate| of each
    /// box: the data-free bound on every subgradient; exact (= √(2d)) when κ = 0.
    fn constants(&self, _support: &[Vec<f64>]) -> Constants {
        let (lw, hw) = box_bounds(&self.domain_w).expect("validated box");
        let (lt, ht) = box_bounds(&self.domain_theta).expect("validated box");
        let mut s = 0.0;
        for i in 0..self.d() {
            let mw = lw[i].abs().max(hw[i].abs());
            let mt = lt[i].abs().max(ht[i].abs());
            let k = self.kappa[i].abs();
            s += (1.0 + k * mt).powi(2) + (1.0 + k * mw).powi(2);
        }
        Constants {
            lipschitz: s.sqrt(),
            smoothness: None,
            diameter: (self.domain_w.diameter().powi(2) + self.domain_theta.diameter().powi(2))
                .sqrt(),
        }
    }
    fn best_theta(&self, ws: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>> {
        // max_θ Σ_j π_j(−|θ_i − v_ji|) + κ_i w̄_i θ_i − C_r(θ_i − c_i)² per coordinate
        // ⇔ min Σ_j π_j|θ_i − v_ji| − κ_i w̄_i θ_i + C_r(θ_i − c_i)², with the θ-block's
        // C_r = C_θ and centre c = c_θ (per-block regularizer).
        let d = self.d();
        let wbar = weighted_point_mean(ws);
        let (lo, hi) = box_bounds(&self.domain_theta).expect("validated box");
        let cr = obj.reg.total_theta();
        let centers = obj.reg.center_theta();
        Ok((0..d)
            .map(|i| {
                let pts: Vec<f64> = obj.data.points.iter().map(|x| x[d + i]).collect();
                let c = centers.as_ref().map_or(0.0, |ct| ct[i]);
                argmin_abs_quad(
                    &pts,
                    &obj.data.weights,
                    -self.kappa[i] * wbar[i],
                    cr,
                    c,
                    lo[i],
                    hi[i],
                )
            })
            .collect())
    }
    fn best_w(&self, thetas: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>> {
        let d = self.d();
        let tbar = weighted_point_mean(thetas);
        let (lo, hi) = box_bounds(&self.domain_w).expect("validated box");
        let cr = obj.reg.total_w();
        let centers = obj.reg.center_w();
        Ok((0..d)
            .map(|i| {
                let pts: Vec<f64> = obj.data.points.iter().map(|x| x[i]).collect();
                let c = centers.as_ref().map_or(0.0, |cw| cw[i]);
                argmin_abs_quad(
                    &pts,
                    &obj.data.weights,
                    self.kappa[i] * tbar[i],
                    cr,
                    c,
                    lo[i],
                    hi[i],
                )
            })
            .collect())
    }
    fn operator_lipschitz(&self, _obj: &Objective) -> Option<f64> {
        None
    }
    /// Coordinate by coordinate: with κ_i = 0 the two blocks decouple into two 1-D problems
    /// solved by [`argmin_abs_quad`]; with κ_i ≠ 0 and C_w, C_θ > 0 (per-block totals),
    /// P_i(w) = max_θ F_i(w, θ) is convex with right derivative Σπ sign⁺(w − u) + 2C_w(w − c_w) +
    /// κ_i θ_br(w) (Danskin; θ_br is unique because C_θ > 0), so bisection on its sign finds the
    /// minimizer to adjacent doubles.
    fn direct_saddle(&self, obj: &Objective) -> Option<Result<(Vec<f64>, Vec<f64>)>> {
        let d = self.d();
        let (crw, crt) = (obj.reg.total_w(), obj.reg.total_theta());
        if (crw == 0.0 || crt == 0.0) && self.kappa.iter().any(|&k| k != 0.0) {
            return None;
        }
        let (lw, hw) = box_bounds(&self.domain_w).expect("validated box");
        let (lt, ht) = box_bounds(&self.domain_theta).expect("validated box");
        let (center_w, center_t) = (obj.reg.center_w(), obj.reg.center_theta());
        let total: f64 = obj.data.weights.iter().sum();
        let mut w = vec![0.0; d];
        let mut th = vec![0.0; d];
        for i in 0..d {
            let us: Vec<f64> = obj.data.points.iter().map(|x| x[i]).collect();
            let vs: Vec<f64> = obj.data.points.iter().map(|x| x[d + i]).collect();
            let cw = center_w.as_ref().map_or(0.0, |a| a[i]);
            let ct = center_t.as_ref().map_or(0.0, |b| b[i]);
            let k = self.kappa[i];
            let theta_br =
                |wi: f64| argmin_abs_quad(&vs, &obj.data.weights, -k * wi, crt, ct, lt[i], ht[i]);
            if k == 0.0 {
                w[i] = argmin_abs_quad(&us, &obj.data.weights, 0.0, crw, cw, lw[i], hw[i]);
                th[i] = theta_br(0.0);
                continue;
            }
            let right_deriv = |wi: f64| {
                let le: f64 = us
                    .iter()
                    .zip(&obj.data.weights)
                    .filter(|(u, _)| **u <= wi)
                    .map(|(_, p)| p)
                    .sum();
                (2.0 * le - total) + 2.0 * crw * (wi - cw) + k * theta_br(wi)
            };
            let (mut a, mut b) = (lw[i], hw[i]);
            if right_deriv(a) >= 0.0 {
                w[i] = a;
            } else if right_deriv(b) < 0.0 {
                w[i] = b;
            } else {
                // Invariant: right_deriv(a) < 0 ≤ right_deriv(b).
                for _ in 0..200 {
                    let m = 0.5 * (a + b);
                    if m <= a || m >= b {
                        break;
                    }
                    if right_deriv(m) >= 0.0 {
                        b = m;
                    } else {
                        a = m;
                    }
                }
                w[i] = b;
            }
            th[i] = theta_br(w[i]);
        }
        Some(Ok((w, th)))
    }
}
