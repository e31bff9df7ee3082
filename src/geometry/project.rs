//! Euclidean projections onto the simplex, ℓ1 balls and general ℓp balls.
//!
//! These are the building blocks of [`Domain::project`](crate::geometry::Domain::project); they
//! are public so that algorithms needing a certificate (the ℓp case) can get it.

use crate::geometry::norm::{dual_exponent, lp_norm};
use crate::linalg;

/// Euclidean projection of `x` onto the scaled simplex {u ≥ 0, Σu = s}, s > 0.
///
/// Sort-based algorithm (Held–Wolfe–Crowder 1974; Duchi, Shalev-Shwartz, Singer, Chandra 2008,
/// Fig. 1): sort x descending (`f64::total_cmp`, so deterministic), find the largest j with
/// x₍ⱼ₎ − (Σ_{i≤j} x₍ᵢ₎ − s)/j > 0, set τ = (Σ_{i≤ρ} x₍ᵢ₎ − s)/ρ and return max(x − τ, 0). The
/// prefix sums run in sorted order (ties have equal values, so the order among them does not
/// matter). O(d log d). An empty `x` gives an empty vector.
pub fn project_simplex(x: &[f64], s: f64) -> Vec<f64> {
    if x.is_empty() {
        return Vec::new();
    }
    let mut u = x.to_vec();
    u.sort_by(|a, b| b.total_cmp(a));
    let mut cum = 0.0;
    let mut tau = (u[0] - s) / 1.0;
    for (j, &uj) in u.iter().enumerate() {
        cum += uj;
        let t = (cum - s) / (j + 1) as f64;
        if uj - t > 0.0 {
            tau = t;
        }
    }
    x.iter().map(|&v| (v - tau).max(0.0)).collect()
}

/// Euclidean projection of `y` onto the ℓ1 ball {‖u‖₁ ≤ r} (r ≥ 0): `y` itself if inside,
/// otherwise sign(y)·[`project_simplex`](|y|, r) (Duchi et al. 2008, §4).
pub fn project_l1_ball(y: &[f64], r: f64) -> Vec<f64> {
    if lp_norm(y, 1.0) <= r {
        return y.to_vec();
    }
    if r <= 0.0 {
        return vec![0.0; y.len()];
    }
    let a: Vec<f64> = y.iter().map(|v| v.abs()).collect();
    let t = project_simplex(&a, r);
    y.iter()
        .zip(t)
        .map(|(&v, ti)| if v < 0.0 { -ti } else { ti })
        .collect()
}

/// The result of [`project_lp_ball`]: the projected point and an a-posteriori error bound.
#[derive(Clone, Debug, PartialEq)]
pub struct LpProjection {
    /// The computed projection (in the ball up to rounding: it is the KKT point of the feasible
    /// end of the multiplier bracket).
    pub point: Vec<f64>,
    /// A bound on ‖point − P(y)‖₂; see [`project_lp_ball`]. `0.0` for the closed-form cases
    /// (y inside the ball, r = 0, p ∈ {1, 2, ∞}), which are exact up to rounding.
    pub error_bound: f64,
    /// Bisection steps on the multiplier (0 for the closed-form cases).
    pub iterations: usize,
}

/// Cap on the multiplier bisection (never reached: the u-space bracket closes in ≈ 60–200 steps).
const LP_MAX_OUTER: usize = 2000;
/// Cap on the per-coordinate safeguarded Newton iterations.
const LP_MAX_INNER: usize = 400;

/// Euclidean projection of `y` onto the ℓp ball {‖u‖_p ≤ r} centred at 0, p ∈ [1, ∞], r ≥ 0.
///
/// * inside (‖y‖_p ≤ r): y; r = 0: 0;
/// * p = 1: [`project_l1_ball`]; p = 2: y·r/‖y‖₂; p = ∞: clamp to [−r, r];
/// * otherwise (1 < p < ∞, p ≠ 2), a certified 1-D root find. Write a = |y|/r (the problem is
///   scaled to the unit ball and the signs restored at the end). The KKT conditions of
///   min ½‖u − a‖² s.t. Σ u_i^p ≤ 1 give u_i = t_i(μ), the unique root in [0, a_i] of
///   `t + μ t^{p−1} = a_i`, for a multiplier μ > 0 with φ(μ) = Σ t_i(μ)^p = 1. Each t_i is solved
///   by Newton's method safeguarded by bisection on the bracket [0, min(a_i, (a_i/μ)^{1/(p−1)})]
///   (stopped at relative step 2⁻⁵² or bracket width 2⁻⁵⁴·max a). φ is decreasing with φ(0) > 1
///   and φ(‖a‖_q) ≤ 1 (since t_i ≤ (a_i/μ)^{1/(p−1)}), so μ is bisected on [0, ‖a‖_q], keeping
///   φ(μ_lo) > 1 ≥ φ(μ_hi), until the u-space bracket max_i (t_i(μ_lo) − t_i(μ_hi)) is below
///   2⁻⁵²·max a (or the μ-bracket can no longer be halved).
///
/// **Certificate.** Each t_i(μ) is decreasing in μ and the exact multiplier lies in
/// [μ_lo, μ_hi], so the exact projection satisfies t_i(μ_hi) ≤ P_i ≤ t_i(μ_lo) coordinatewise.
/// The returned point is t(μ_hi) (the feasible end) and
/// `error_bound = r·‖t(μ_lo) − t(μ_hi)‖₂ + 4·2⁻⁵²·‖y‖₂`, the first term being the certified
/// bracket (exact arithmetic) and the second an allowance for rounding in the coordinate solves
/// and in evaluating φ, whose relative error is about (d + p)·2⁻⁵³ (so the certificate weakens for
/// very large p, where the ball is nearly a box). In practice the error is a few ulps of ‖y‖.
pub fn project_lp_ball(y: &[f64], p: f64, r: f64) -> LpProjection {
    let closed = |point: Vec<f64>| LpProjection {
        point,
        error_bound: 0.0,
        iterations: 0,
    };
    if lp_norm(y, p) <= r {
        return closed(y.to_vec());
    }
    if r <= 0.0 {
        return closed(vec![0.0; y.len()]);
    }
    if p == 1.0 {
        return closed(project_l1_ball(y, r));
    }
    if p == 2.0 {
        let n = linalg::norm2(y);
        return closed(y.iter().map(|v| v * (r / n)).collect());
    }
    if p == f64::INFINITY {
        return closed(y.iter().map(|v| v.clamp(-r, r)).collect());
    }
    let a: Vec<f64> = y.iter().map(|v| v.abs() / r).collect();
    let amax = a.iter().fold(0.0_f64, |m, &v| m.max(v));
    let q = dual_exponent(p);
    let tol_inner = amax * f64::EPSILON * 0.25;
    let solve_all = |mu: f64| -> Vec<f64> {
        a.iter()
            .map(|&ai| coord_root(ai, mu, p, tol_inner))
            .collect()
    };
    let phi = |t: &[f64]| -> f64 {
        let mut s = 0.0;
        for &ti in t {
            s += ti.powf(p);
        }
        s
    };
    let mut mu_lo = 0.0;
    let mut t_lo = a.clone(); // t(0) = a, and φ(0) = ‖a‖_p^p > 1
    let mut mu_hi = lp_norm(&a, q);
    let mut t_hi = solve_all(mu_hi);
    let mut iterations = 0;
    while iterations < LP_MAX_OUTER {
        let width = t_lo
            .iter()
            .zip(&t_hi)
            .fold(0.0_f64, |m, (l, h)| m.max(l - h));
        if width <= amax * f64::EPSILON {
            break;
        }
        let mid = 0.5 * (mu_lo + mu_hi);
        if mid <= mu_lo || mid >= mu_hi {
            break;
        }
        iterations += 1;
        let t_mid = solve_all(mid);
        if phi(&t_mid) > 1.0 {
            mu_lo = mid;
            t_lo = t_mid;
        } else {
            mu_hi = mid;
            t_hi = t_mid;
        }
    }
    let diff: Vec<f64> = t_lo.iter().zip(&t_hi).map(|(l, h)| l - h).collect();
    let error_bound = r * linalg::norm2(&diff) + 4.0 * f64::EPSILON * linalg::norm2(y);
    let point = y
        .iter()
        .zip(&t_hi)
        .map(|(&v, &t)| if v < 0.0 { -t * r } else { t * r })
        .collect();
    LpProjection {
        point,
        error_bound,
        iterations,
    }
}

/// The root t ∈ [0, a] of h(t) = t + μ t^{p−1} − a (μ > 0, 1 < p < ∞, a ≥ 0): Newton's method
/// safeguarded by bisection; stops when the Newton step is below 2⁻⁵² relative, or the bracket is
/// narrower than `tol_abs`.
fn coord_root(a: f64, mu: f64, p: f64, tol_abs: f64) -> f64 {
    if a == 0.0 {
        return 0.0;
    }
    if mu == 0.0 {
        return a;
    }
    let mut lo = 0.0_f64;
    // t ≤ a, and μ t^{p−1} ≤ a ⇒ t ≤ (a/μ)^{1/(p−1)}.
    let mut hi = a.min((a / mu).powf(1.0 / (p - 1.0)));
    if hi.is_nan() || hi <= 0.0 {
        return 0.0;
    }
    let mut t = hi;
    for _ in 0..LP_MAX_INNER {
        let h = t + mu * t.powf(p - 1.0) - a;
        if h == 0.0 {
            return t;
        }
        if h > 0.0 {
            hi = t;
        } else {
            lo = t;
        }
        if hi - lo <= tol_abs {
            return 0.5 * (lo + hi);
        }
        let dh = 1.0 + mu * (p - 1.0) * t.powf(p - 2.0);
        let mut tn = t - h / dh;
        if !(tn > lo && tn < hi) {
            tn = 0.5 * (lo + hi);
        }
        if (tn - t).abs() <= f64::EPSILON * tn {
            return tn;
        }
        t = tn;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simplex_known() {
        assert_eq!(project_simplex(&[0.5, 0.5], 1.0), vec![0.5, 0.5]);
        assert_eq!(project_simplex(&[2.0, 0.0], 1.0), vec![1.0, 0.0]);
        assert!((project_simplex(&[1.0, 1.0, 1.0], 1.0)[0] - 1.0 / 3.0).abs() < 1e-16);
        assert_eq!(project_simplex(&[-5.0], 1.0), vec![1.0]);
        assert_eq!(project_simplex(&[3.0, 1.0], 2.0), vec![2.0, 0.0]);
    }

    #[test]
    fn coord_root_solves() {
        for &p in &[1.01, 1.5, 3.0, 10.0] {
            for &(a, mu) in &[(1.0, 0.5), (2.0, 1e-9), (1e-12, 3.0), (5.0, 100.0)] {
                let t = coord_root(a, mu, p, 0.25 * f64::EPSILON * a);
                // t is within 4 ulps of a of the root: h changes sign across [t − δ, t + δ].
                let h = |s: f64| s + mu * s.powf(p - 1.0) - a;
                let delta = 4.0 * f64::EPSILON * a;
                assert!((0.0..=a).contains(&t), "p={p} a={a} mu={mu} t={t}");
                assert!(h((t - delta).max(0.0)) <= 0.0, "p={p} a={a} mu={mu} t={t}");
                assert!(h(t + delta) >= 0.0, "p={p} a={a} mu={mu} t={t}");
            }
        }
    }

    #[test]
    fn lp_general_on_boundary() {
        for &p in &[1.1, 1.5, 3.0, 7.0] {
            let y = [3.0, -1.0, 0.25, 0.0];
            let pr = project_lp_ball(&y, p, 1.5);
            assert!((lp_norm(&pr.point, p) - 1.5).abs() < 1e-13, "p={p}");
            assert!(pr.error_bound < 1e-13, "p={p}: {}", pr.error_bound);
            assert_eq!(pr.point[3], 0.0);
        }
    }
}
