//! Exact expected gaps and excess risks under Gaussian output noise, for separable quadratic
//! problems on boxes: closed forms in Φ and φ, no Monte Carlo.
//!
//! An output-perturbation release is z̃ = z + σξ with ξ ~ N(0, I), *unprojected* (the released
//! point may leave the domain; the objective's formula is evaluated there). For a separable
//! objective every inner max/min over a box is a coordinate-wise clip of an affine function of one
//! Gaussian coordinate, so its expectation is a combination of the truncated moments in
//! [`clipped_moments`]:
//!
//! * [`SepQuadMin`]: F(x) = Σᵢ (hᵢ/2)xᵢ² − gᵢxᵢ on a box (diagonal curvature, condition number
//!   max h / min h); [`SepQuadMin::expected_excess`] is E[F(x̃) − min_X F];
//! * [`SepQuadSaddle`]: F(x, y) = Σᵢ (aᵢ/2)xᵢ² + bᵢxᵢyᵢ − (cᵢ/2)yᵢ² + pᵢxᵢ − qᵢyᵢ on a box
//!   (SC-SC quadratic–bilinear with a diagonal coupling);
//!   [`SepQuadSaddle::expected_strong_gap`] is E[max_{y∈Y} F(x̃, y) − min_{x∈X} F(x, ỹ)] with
//!   independent noises on the two blocks. [`SepQuadSaddle::from_quad_bilinear`] reads the
//!   [`QuadBilinear`] family (diagonal coupling, box domains, any regularizer) at an objective.
//!
//! With σ = 0 every function is the deterministic value, so the same code computes the gap of
//! the exact solution.

// The coordinate loops index several parallel per-coordinate arrays at once.
#![allow(clippy::needless_range_loop)]

use crate::error::{invalid, Result};
use crate::geometry::Domain;
use crate::privacy::special::normal_cdf;
use crate::problem::families::quad_bilinear::QuadBilinear;
use crate::problem::saddle::Objective;

/// φ(x), the standard normal density.
pub fn normal_pdf(x: f64) -> f64 {
    if !x.is_finite() {
        return 0.0;
    }
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// Truncated moments of u ~ N(m, s²) clipped to [a, b] (a may be −∞, b may be +∞):
/// (E[clip(u)], E[clip(u)²], E[u·clip(u)]). With s = 0 they are the deterministic values.
///
/// With α = (a − m)/s, β = (b − m)/s and P = Φ(β) − Φ(α):
/// ∫_a^b u dN = mP + s(φ(α) − φ(β)),
/// ∫_a^b u² dN = (m² + s²)P + 2ms(φ(α) − φ(β)) + s²(αφ(α) − βφ(β)),
/// E\[u; u < a\] = mΦ(α) − sφ(α), E\[u; u > b\] = m(1 − Φ(β)) + sφ(β).
pub fn clipped_moments(m: f64, s: f64, a: f64, b: f64) -> Result<(f64, f64, f64)> {
    if !(m.is_finite() && s.is_finite() && s >= 0.0) {
        return Err(invalid(
            "s",
            format!("need finite m and s ≥ 0, got m={m}, s={s}"),
        ));
    }
    if a.is_nan() || b.is_nan() || a > b {
        return Err(invalid("box", format!("need a ≤ b, got [{a}, {b}]")));
    }
    if s == 0.0 {
        let c = m.clamp(a, b);
        return Ok((c, c * c, m * c));
    }
    let al = (a - m) / s;
    let be = (b - m) / s;
    let (pa, pb) = (normal_cdf(al), normal_cdf(be));
    let (fa, fb) = (normal_pdf(al), normal_pdf(be));
    let p = pb - pa;
    let tail_hi = normal_cdf(-be); // 1 − Φ(β), accurate in the tail
                                   // α·φ(α) → 0 at ±∞.
    let afa = if al.is_finite() { al * fa } else { 0.0 };
    let bfb = if be.is_finite() { be * fb } else { 0.0 };
    let mid1 = m * p + s * (fa - fb);
    let mid2 = (m * m + s * s) * p + 2.0 * m * s * (fa - fb) + s * s * (afa - bfb);
    // Boundary contributions vanish where the bound is infinite (its probability is 0).
    let lo = |v: f64| if a.is_finite() { v } else { 0.0 };
    let hi = |v: f64| if b.is_finite() { v } else { 0.0 };
    let e1 = lo(a * pa) + hi(b * tail_hi) + mid1;
    let e2 = lo(a * a * pa) + hi(b * b * tail_hi) + mid2;
    let eu = lo(a * (m * pa - s * fa)) + hi(b * (m * tail_hi + s * fb)) + mid2;
    Ok((e1, e2, eu))
}

/// E over t ~ N(m, s²) of max_{y∈\[a,b\]} (t·y − (c/2)y²), c ≥ 0 (for c = 0 the box must be
/// bounded). The maximizer is clip(t/c) for c > 0, so the value is c(u·clip(u) − clip(u)²/2)
/// with u = t/c; for c = 0 it is a·t + (b − a)·t⁺.
pub fn expected_box_max(c: f64, a: f64, b: f64, m: f64, s: f64) -> Result<f64> {
    if !(c.is_finite() && c >= 0.0) {
        return Err(invalid("c", format!("must be finite and ≥ 0, got {c}")));
    }
    if c == 0.0 {
        if !(a.is_finite() && b.is_finite()) {
            return Err(invalid("box", "a linear maximization needs a bounded box"));
        }
        let tplus = if s == 0.0 {
            m.max(0.0)
        } else {
            m * normal_cdf(m / s) + s * normal_pdf(m / s)
        };
        return Ok(a * m + (b - a) * tplus);
    }
    let (_, e2, eu) = clipped_moments(m / c, s / c, a, b)?;
    Ok(c * (eu - 0.5 * e2))
}

/// The per-coordinate box of a [`Domain::Box`] (any other domain is refused).
fn box_of(d: &Domain, field: &str) -> Result<(Vec<f64>, Vec<f64>)> {
    match d {
        Domain::Box { lo, hi } => Ok((lo.clone(), hi.clone())),
        _ => Err(invalid(field, "the closed forms need a box domain")),
    }
}

/// F(x) = Σᵢ (hᵢ/2)xᵢ² − gᵢxᵢ on the box Πᵢ[loᵢ, hiᵢ], hᵢ > 0 (diagonal curvature).
#[derive(Clone, Debug, PartialEq)]
pub struct SepQuadMin {
    /// Curvatures hᵢ > 0.
    pub h: Vec<f64>,
    /// Linear coefficients gᵢ.
    pub g: Vec<f64>,
    /// Lower corner of X.
    pub lo: Vec<f64>,
    /// Upper corner of X.
    pub hi: Vec<f64>,
}

impl SepQuadMin {
    /// Validated constructor.
    pub fn new(h: Vec<f64>, g: Vec<f64>, lo: Vec<f64>, hi: Vec<f64>) -> Result<Self> {
        let d = h.len();
        if d == 0 || g.len() != d || lo.len() != d || hi.len() != d {
            return Err(invalid(
                "g",
                "h, g, lo, hi must have the same positive length",
            ));
        }
        if h.iter().any(|&v| !(v.is_finite() && v > 0.0)) {
            return Err(invalid("h", "curvatures must be finite and > 0"));
        }
        if lo
            .iter()
            .zip(&hi)
            .any(|(a, b)| a.is_nan() || b.is_nan() || a > b)
        {
            return Err(invalid("lo", "need lo ≤ hi coordinate-wise"));
        }
        Ok(SepQuadMin { h, g, lo, hi })
    }

    /// F(x) (any x, in or out of X).
    pub fn value(&self, x: &[f64]) -> f64 {
        (0..self.h.len())
            .map(|i| 0.5 * self.h[i] * x[i] * x[i] - self.g[i] * x[i])
            .sum()
    }

    /// argmin_X F = clip(g/h).
    pub fn minimizer(&self) -> Vec<f64> {
        (0..self.h.len())
            .map(|i| (self.g[i] / self.h[i]).clamp(self.lo[i], self.hi[i]))
            .collect()
    }

    /// min_X F.
    pub fn min_value(&self) -> f64 {
        self.value(&self.minimizer())
    }

    /// E[F(x̃) − min_X F] for the unprojected release x̃ = m + σξ:
    /// Σᵢ (hᵢ/2)(mᵢ² + σ²) − gᵢmᵢ − min_X F = F(m) − min_X F + (σ²/2)Σᵢhᵢ.
    pub fn expected_excess(&self, m: &[f64], sigma: f64) -> Result<f64> {
        self.check(m, sigma)?;
        Ok(self.value(m) - self.min_value() + 0.5 * sigma * sigma * self.h.iter().sum::<f64>())
    }

    /// E[F(Π_X(x̃)) − min_X F] for the projected release (truncated moments).
    pub fn expected_excess_projected(&self, m: &[f64], sigma: f64) -> Result<f64> {
        self.check(m, sigma)?;
        let mut e = -self.min_value();
        for i in 0..self.h.len() {
            let (e1, e2, _) = clipped_moments(m[i], sigma, self.lo[i], self.hi[i])?;
            e += 0.5 * self.h[i] * e2 - self.g[i] * e1;
        }
        Ok(e)
    }

    fn check(&self, m: &[f64], sigma: f64) -> Result<()> {
        if m.len() != self.h.len() {
            return Err(invalid("m", "wrong dimension"));
        }
        if !(sigma.is_finite() && sigma >= 0.0) {
            return Err(invalid("sigma", "must be finite and ≥ 0"));
        }
        Ok(())
    }
}

/// F(x, y) = Σᵢ (aᵢ/2)xᵢ² + bᵢxᵢyᵢ − (cᵢ/2)yᵢ² + pᵢxᵢ − qᵢyᵢ on the box X × Y, aᵢ, cᵢ ≥ 0
/// (diagonal coupling; d_x = d_y).
#[derive(Clone, Debug, PartialEq)]
pub struct SepQuadSaddle {
    /// x-curvatures aᵢ ≥ 0.
    pub a: Vec<f64>,
    /// Couplings bᵢ.
    pub b: Vec<f64>,
    /// y-curvatures cᵢ ≥ 0.
    pub c: Vec<f64>,
    /// x-linear coefficients pᵢ.
    pub p: Vec<f64>,
    /// y-linear coefficients qᵢ (the term is −qᵢyᵢ).
    pub q: Vec<f64>,
    /// X's lower corner.
    pub x_lo: Vec<f64>,
    /// X's upper corner.
    pub x_hi: Vec<f64>,
    /// Y's lower corner.
    pub y_lo: Vec<f64>,
    /// Y's upper corner.
    pub y_hi: Vec<f64>,
}

impl SepQuadSaddle {
    /// The [`QuadBilinear`] objective `obj` as a separable saddle: needs d_w = d_θ, a diagonal
    /// coupling and box domains. Read from its affine operator (so any regularizer counts); the
    /// constant terms the operator drops cancel in every gap.
    pub fn from_quad_bilinear(f: &QuadBilinear, obj: &Objective) -> Result<Self> {
        let (dw, dt) = (f.domain_w.dim(), f.domain_theta.dim());
        if dw != dt {
            return Err(invalid("coupling", "the separable form needs d_w = d_θ"));
        }
        for i in 0..dw {
            for j in 0..dt {
                if i != j && f.coupling.get(i, j) != 0.0 {
                    return Err(invalid("coupling", "must be diagonal"));
                }
            }
        }
        let (x_lo, x_hi) = box_of(&f.domain_w, "domain_w")?;
        let (y_lo, y_hi) = box_of(&f.domain_theta, "domain_theta")?;
        let (m, qv) = f.affine_operator(obj);
        let d = dw;
        Ok(SepQuadSaddle {
            a: (0..d).map(|i| m.get(i, i)).collect(),
            b: (0..d).map(|i| m.get(i, d + i)).collect(),
            c: (0..d).map(|i| m.get(d + i, d + i)).collect(),
            p: qv[..d].to_vec(),
            q: qv[d..].to_vec(),
            x_lo,
            x_hi,
            y_lo,
            y_hi,
        })
    }

    fn dim(&self) -> usize {
        self.a.len()
    }

    /// F(x, y) up to the constant terms.
    pub fn value(&self, x: &[f64], y: &[f64]) -> f64 {
        (0..self.dim())
            .map(|i| {
                0.5 * self.a[i] * x[i] * x[i] + self.b[i] * x[i] * y[i]
                    - 0.5 * self.c[i] * y[i] * y[i]
                    + self.p[i] * x[i]
                    - self.q[i] * y[i]
            })
            .sum()
    }

    /// The stationary point of F (coordinate-wise 2×2 solve, aᵢcᵢ + bᵢ² > 0):
    /// xᵢ = (bᵢqᵢ − pᵢcᵢ)/(aᵢcᵢ + bᵢ²), yᵢ = (bᵢxᵢ − qᵢ)/cᵢ (cᵢ > 0; else from the x-equation).
    /// It is the saddle point on X × Y when it lies in the box ([`Self::in_box`]).
    pub fn stationary_point(&self) -> Result<(Vec<f64>, Vec<f64>)> {
        let d = self.dim();
        let (mut x, mut y) = (vec![0.0; d], vec![0.0; d]);
        for i in 0..d {
            let (a, b, c, p, q) = (self.a[i], self.b[i], self.c[i], self.p[i], self.q[i]);
            let det = a * c + b * b;
            if det.is_nan() || det <= 0.0 {
                return Err(invalid("a", "a·c + b² must be > 0 for a stationary point"));
            }
            x[i] = (b * q - p * c) / det;
            y[i] = if c > 0.0 {
                (b * x[i] - q) / c
            } else {
                -(a * x[i] + p) / b
            };
        }
        Ok((x, y))
    }

    /// Whether (x, y) lies in X × Y.
    pub fn in_box(&self, x: &[f64], y: &[f64]) -> bool {
        (0..self.dim()).all(|i| {
            (self.x_lo[i]..=self.x_hi[i]).contains(&x[i])
                && (self.y_lo[i]..=self.y_hi[i]).contains(&y[i])
        })
    }

    /// E[max_{y∈Y} F(x̃, y)] for x̃ = m_x + σ_xξ.
    pub fn expected_primal(&self, mx: &[f64], sx: f64) -> Result<f64> {
        self.check(mx, sx)?;
        let mut e = 0.0;
        for i in 0..self.dim() {
            let (a, b, c) = (self.a[i], self.b[i], self.c[i]);
            e += 0.5 * a * (mx[i] * mx[i] + sx * sx) + self.p[i] * mx[i];
            // max_y (b x̃ − q) y − (c/2) y², t = b x̃ − q ~ N(b m − q, b² σ²).
            e += expected_box_max(
                c,
                self.y_lo[i],
                self.y_hi[i],
                b * mx[i] - self.q[i],
                b.abs() * sx,
            )?;
        }
        Ok(e)
    }

    /// E[min_{x∈X} F(x, ỹ)] for ỹ = m_y + σ_yξ′.
    pub fn expected_dual(&self, my: &[f64], sy: f64) -> Result<f64> {
        self.check(my, sy)?;
        let mut e = 0.0;
        for i in 0..self.dim() {
            let (a, b, c) = (self.a[i], self.b[i], self.c[i]);
            e += -0.5 * c * (my[i] * my[i] + sy * sy) - self.q[i] * my[i];
            // min_x (a/2)x² + (p + b ỹ)x = −max_x (−(p + bỹ))x − (a/2)x².
            e -= expected_box_max(
                a,
                self.x_lo[i],
                self.x_hi[i],
                -(self.p[i] + b * my[i]),
                b.abs() * sy,
            )?;
        }
        Ok(e)
    }

    /// E[max_Y F(x̃, ·) − min_X F(·, ỹ)], independent noises (the strong gap of the release).
    pub fn expected_strong_gap(&self, mx: &[f64], sx: f64, my: &[f64], sy: f64) -> Result<f64> {
        Ok(self.expected_primal(mx, sx)? - self.expected_dual(my, sy)?)
    }

    /// The (deterministic) strong gap at (x, y).
    pub fn strong_gap(&self, x: &[f64], y: &[f64]) -> Result<f64> {
        self.expected_strong_gap(x, 0.0, y, 0.0)
    }

    fn check(&self, m: &[f64], s: f64) -> Result<()> {
        if m.len() != self.dim() {
            return Err(invalid("m", "wrong dimension"));
        }
        if !(s.is_finite() && s >= 0.0) {
            return Err(invalid("sigma", "must be finite and ≥ 0"));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Composite Simpson for E[g(m + sZ)] over ±12 standard deviations, split at the kinks
    /// `breaks` (in u-space) so that every piece is smooth.
    fn integrate_pw(g: impl Fn(f64) -> f64, m: f64, s: f64, breaks: &[f64]) -> f64 {
        let mut cuts = vec![-12.0, 12.0];
        for &b in breaks {
            let z = (b - m) / s;
            if z.is_finite() && z > -12.0 && z < 12.0 {
                cuts.push(z);
            }
        }
        cuts.sort_by(f64::total_cmp);
        let mut acc = 0.0;
        for w in cuts.windows(2) {
            let (lo, hi) = (w[0], w[1]);
            let n = 4000usize;
            let h = (hi - lo) / n as f64;
            for k in 0..=n {
                let z = lo + k as f64 * h;
                let c = if k == 0 || k == n {
                    1.0
                } else if k % 2 == 1 {
                    4.0
                } else {
                    2.0
                };
                acc += c * h / 3.0 * g(m + s * z) * normal_pdf(z);
            }
        }
        acc
    }

    #[test]
    fn clipped_moments_match_quadrature() {
        for &(m, s, a, b) in &[
            (0.1, 0.7, -0.5, 0.4),
            (2.0, 0.3, -1.0, 1.0),
            (-0.2, 2.5, -0.3, f64::INFINITY),
            (0.0, 1.0, f64::NEG_INFINITY, 0.25),
        ] {
            let (e1, e2, eu) = clipped_moments(m, s, a, b).unwrap();
            let cl = |u: f64| u.clamp(a, b);
            let br = [a, b];
            assert!((e1 - integrate_pw(cl, m, s, &br)).abs() < 1e-10, "{e1}");
            assert!((e2 - integrate_pw(|u| cl(u) * cl(u), m, s, &br)).abs() < 1e-10);
            assert!((eu - integrate_pw(|u| u * cl(u), m, s, &br)).abs() < 1e-10);
        }
    }

    #[test]
    fn box_max_matches_quadrature_and_brute_force() {
        for &(c, a, b, m, s) in &[
            (1.0, -0.5, 0.5, 0.2, 0.9),
            (10.0, -1.0, 2.0, -3.0, 4.0),
            (0.0, -0.4, 0.4, 0.1, 0.3),
        ] {
            let brute = |t: f64| {
                let y = if c > 0.0 {
                    (t / c).clamp(a, b)
                } else if t > 0.0 {
                    b
                } else {
                    a
                };
                t * y - 0.5 * c * y * y
            };
            let e = expected_box_max(c, a, b, m, s).unwrap();
            let br = if c > 0.0 { [a * c, b * c] } else { [0.0, 0.0] };
            assert!((e - integrate_pw(brute, m, s, &br)).abs() < 1e-10, "{e}");
        }
    }

    #[test]
    fn saddle_expected_gap_matches_two_dimensional_quadrature() {
        let f = SepQuadSaddle {
            a: vec![1.0, 10.0],
            b: vec![0.5, -2.0],
            c: vec![2.0, 1.0],
            p: vec![0.1, -0.3],
            q: vec![0.2, 0.05],
            x_lo: vec![-1.0, -0.5],
            x_hi: vec![1.0, 0.5],
            y_lo: vec![-0.7, -1.0],
            y_hi: vec![0.7, 1.0],
        };
        let (mx, my, sx, sy) = (vec![0.05, -0.02], vec![0.1, 0.0], 0.6, 0.4);
        let e = f.expected_strong_gap(&mx, sx, &my, sy).unwrap();
        // Independent path: brute-force inner max/min on a grid of 4001 points per coordinate,
        // integrated coordinate by coordinate (the gap is a sum of one-coordinate terms).
        let grid = |lo: f64, hi: f64| -> Vec<f64> {
            (0..=4000)
                .map(|k| lo + (hi - lo) * k as f64 / 4000.0)
                .collect()
        };
        let mut q = 0.0;
        for i in 0..2 {
            let ys = grid(f.y_lo[i], f.y_hi[i]);
            let xs = grid(f.x_lo[i], f.x_hi[i]);
            let fi = |x: f64, y: f64| {
                0.5 * f.a[i] * x * x + f.b[i] * x * y - 0.5 * f.c[i] * y * y + f.p[i] * x
                    - f.q[i] * y
            };
            // Grid max with a local parabola refinement is not needed: the clip point is exact
            // when it lies on the boundary and the grid error is O(h²) inside.
            let pmax = |x: f64| ys.iter().map(|&y| fi(x, y)).fold(f64::MIN, f64::max);
            let dmin = |y: f64| xs.iter().map(|&x| fi(x, y)).fold(f64::MAX, f64::min);
            let n = 600usize;
            let h = 24.0 / n as f64;
            for k in 0..=n {
                let z = -12.0 + k as f64 * h;
                let w = if k == 0 || k == n {
                    1.0
                } else if k % 2 == 1 {
                    4.0
                } else {
                    2.0
                } * h
                    / 3.0
                    * normal_pdf(z);
                q += w * (pmax(mx[i] + sx * z) - dmin(my[i] + sy * z));
            }
        }
        assert!((e - q).abs() < 1e-6 * (1.0 + e.abs()), "{e} vs {q}");
        // σ = 0: the gap at the saddle point is 0 (found by the same closed forms).
        assert!(f.strong_gap(&mx, &my).unwrap() > 0.0);
    }

    #[test]
    fn min_excess_forms() {
        let f = SepQuadMin::new(
            vec![1.0, 10.0],
            vec![0.3, -2.0],
            vec![-1.0, -1.0],
            vec![1.0, 1.0],
        )
        .unwrap();
        let xs = f.minimizer();
        let e = f.expected_excess(&xs, 0.2).unwrap();
        assert!((e - 0.5 * 0.04 * 11.0).abs() < 1e-15);
        let ep = f.expected_excess_projected(&xs, 0.2).unwrap();
        let g = |i: usize| {
            let (lo, hi, h, gg) = (f.lo[i], f.hi[i], f.h[i], f.g[i]);
            integrate_pw(
                |u: f64| {
                    let c = u.clamp(lo, hi);
                    0.5 * h * c * c - gg * c
                },
                xs[i],
                0.2,
                &[lo, hi],
            )
        };
        assert!((ep - (g(0) + g(1) - f.min_value())).abs() < 1e-9);
        assert!(SepQuadMin::new(vec![0.0], vec![0.0], vec![0.0], vec![1.0]).is_err());
    }
}
