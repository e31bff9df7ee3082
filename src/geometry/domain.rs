//! Compact convex domains: Euclidean ball, box, probability simplex, ℓp ball and products.

use serde::{Deserialize, Serialize};

use crate::error::{invalid, require_finite, Error, Result};
use crate::geometry::norm::{dual_exponent, lp_norm, norm_ratio, p_serde, validate_p, Norm};
use crate::geometry::project::{project_lp_ball, project_simplex};
use crate::linalg;

/// A compact convex set with the operations the saddle-point algorithms need.
///
/// An enum so that configs and fixtures can describe domains in JSON (serde externally tagged,
/// snake_case), e.g. `{"ball": {"center": [0, 0], "radius": 1}}`, `{"simplex": {"dim": 3}}`,
/// `{"lp_ball": {"p": "inf", "center": [0], "radius": 2}}` (p = ∞ is written `"inf"`),
/// `{"product": [ {...}, {...} ]}`. Deserialization runs [`Domain::validate`] (unknown fields are
/// rejected), so a parsed domain is always valid; values built in code should go through the
/// constructors ([`Domain::ball`], …) or call `validate`.
///
/// The geometric methods assume a valid domain and a point of length [`Domain::dim`]; a point of
/// the wrong length is a programming error and panics (use [`Domain::check_point`] on user
/// input). [`Domain::contains`] instead answers `false`.
///
/// Tie rule of [`Domain::lmo`]: among maximizers it picks the lowest index (simplex, ℓ1) and, for
/// a zero coefficient, the lower endpoint (box: lo; ℓ∞ ball: c − r); for v = 0 the ball and the
/// ℓp balls with p < ∞ return c − r·e_0. It always returns an extreme point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "DomainRepr")]
pub enum Domain {
    /// Euclidean ball {u : ‖u − center‖₂ ≤ radius}.
    Ball {
        /// Centre c (its length is the dimension, ≥ 1).
        center: Vec<f64>,
        /// Radius r ≥ 0.
        radius: f64,
    },
    /// Box {u : lo ≤ u ≤ hi} (coordinatewise).
    Box {
        /// Lower corner.
        lo: Vec<f64>,
        /// Upper corner, hi ≥ lo.
        hi: Vec<f64>,
    },
    /// Probability simplex {u ≥ 0, Σu = 1} in ℝ^dim.
    Simplex {
        /// Dimension, ≥ 1.
        dim: usize,
    },
    /// ℓp ball {u : ‖u − center‖_p ≤ radius}, p ∈ [1, ∞].
    LpBall {
        /// Exponent p ∈ [1, ∞] (`f64::INFINITY` for ∞).
        #[serde(with = "p_serde")]
        p: f64,
        /// Centre c.
        center: Vec<f64>,
        /// Radius r ≥ 0.
        radius: f64,
    },
    /// Cartesian product; coordinates are the blocks' coordinates concatenated in order.
    Product(Vec<Domain>),
}

/// The serde shape of [`Domain`], before validation. Newtype variants over structs so that
/// unknown fields (typos in configs) are rejected; the JSON shape is the same as `Domain`'s.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum DomainRepr {
    Ball(BallRepr),
    Box(BoxRepr),
    Simplex(SimplexRepr),
    LpBall(LpBallRepr),
    Product(Vec<Domain>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BallRepr {
    center: Vec<f64>,
    radius: f64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BoxRepr {
    lo: Vec<f64>,
    hi: Vec<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SimplexRepr {
    dim: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LpBallRepr {
    #[serde(with = "p_serde")]
    p: f64,
    center: Vec<f64>,
    radius: f64,
}

impl TryFrom<DomainRepr> for Domain {
    type Error = Error;
    fn try_from(r: DomainRepr) -> Result<Domain> {
        let d = match r {
            DomainRepr::Ball(BallRepr { center, radius }) => Domain::Ball { center, radius },
            DomainRepr::Box(BoxRepr { lo, hi }) => Domain::Box { lo, hi },
            DomainRepr::Simplex(SimplexRepr { dim }) => Domain::Simplex { dim },
            DomainRepr::LpBall(LpBallRepr { p, center, radius }) => {
                Domain::LpBall { p, center, radius }
            }
            DomainRepr::Product(blocks) => Domain::Product(blocks),
        };
        d.validate()?;
        Ok(d)
    }
}

fn validate_radius(field: &str, r: f64) -> Result<()> {
    if !(r.is_finite() && r >= 0.0) {
        return Err(invalid(field, format!("must be finite and >= 0, got {r}")));
    }
    Ok(())
}

fn validate_center(field: &str, c: &[f64]) -> Result<()> {
    if c.is_empty() {
        return Err(invalid(field, "must be non-empty (dimension >= 1)"));
    }
    require_finite(field, c)
}

impl Domain {
    /// A validated Euclidean ball.
    ///
    /// # Errors
    /// See [`Domain::validate`].
    pub fn ball(center: Vec<f64>, radius: f64) -> Result<Domain> {
        let d = Domain::Ball { center, radius };
        d.validate()?;
        Ok(d)
    }

    /// A validated box (named `new_box` because `box` is a keyword).
    ///
    /// # Errors
    /// See [`Domain::validate`].
    pub fn new_box(lo: Vec<f64>, hi: Vec<f64>) -> Result<Domain> {
        let d = Domain::Box { lo, hi };
        d.validate()?;
        Ok(d)
    }

    /// A validated probability simplex.
    ///
    /// # Errors
    /// See [`Domain::validate`].
    pub fn simplex(dim: usize) -> Result<Domain> {
        let d = Domain::Simplex { dim };
        d.validate()?;
        Ok(d)
    }

    /// A validated ℓp ball.
    ///
    /// # Errors
    /// See [`Domain::validate`].
    pub fn lp_ball(p: f64, center: Vec<f64>, radius: f64) -> Result<Domain> {
        let d = Domain::LpBall { p, center, radius };
        d.validate()?;
        Ok(d)
    }

    /// A validated product.
    ///
    /// # Errors
    /// See [`Domain::validate`].
    pub fn product(blocks: Vec<Domain>) -> Result<Domain> {
        let d = Domain::Product(blocks);
        d.validate()?;
        Ok(d)
    }

    /// Check the domain's invariants, naming the offending field in the
    /// [`Error::Invalid`]:
    ///
    /// * `center`, `center[i]`: non-empty, finite; `radius`: finite, ≥ 0 (Ball, LpBall);
    /// * `lo`, `hi`, `lo[i]`, `hi[i]`: non-empty, equal lengths, finite, lo_i ≤ hi_i (Box);
    /// * `dim`: ≥ 1 (Simplex);
    /// * `p`: in [1, ∞], not NaN (LpBall);
    /// * `product`: at least one block; a block's error is prefixed, e.g. `product[1].radius`.
    ///
    /// # Errors
    /// The first violation found.
    pub fn validate(&self) -> Result<()> {
        match self {
            Domain::Ball { center, radius } => {
                validate_center("center", center)?;
                validate_radius("radius", *radius)
            }
            Domain::Box { lo, hi } => {
                if lo.is_empty() {
                    return Err(invalid("lo", "must be non-empty (dimension >= 1)"));
                }
                if hi.len() != lo.len() {
                    return Err(invalid(
                        "hi",
                        format!("length {} does not match lo length {}", hi.len(), lo.len()),
                    ));
                }
                require_finite("lo", lo)?;
                require_finite("hi", hi)?;
                for i in 0..lo.len() {
                    if lo[i] > hi[i] {
                        return Err(invalid(
                            format!("lo[{i}]"),
                            format!("must be <= hi[{i}] = {}, got {}", hi[i], lo[i]),
                        ));
                    }
                }
                Ok(())
            }
            Domain::Simplex { dim } => {
                if *dim == 0 {
                    return Err(invalid("dim", "must be >= 1"));
                }
                Ok(())
            }
            Domain::LpBall { p, center, radius } => {
                validate_p("p", *p)?;
                validate_center("center", center)?;
                validate_radius("radius", *radius)
            }
            Domain::Product(blocks) => {
                if blocks.is_empty() {
                    return Err(invalid("product", "must have at least one block"));
                }
                for (k, b) in blocks.iter().enumerate() {
                    b.validate().map_err(|e| match e {
                        Error::Invalid { field, msg } => Error::Invalid {
                            field: format!("product[{k}].{field}"),
                            msg,
                        },
                        other => other,
                    })?;
                }
                Ok(())
            }
        }
    }

    /// Check that a user-supplied point has length [`Domain::dim`] and finite entries, naming
    /// `field` (e.g. `"w0"`).
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `field` or `field[i]`.
    pub fn check_point(&self, field: &str, x: &[f64]) -> Result<()> {
        if x.len() != self.dim() {
            return Err(invalid(
                field,
                format!(
                    "length {} does not match domain dimension {}",
                    x.len(),
                    self.dim()
                ),
            ));
        }
        require_finite(field, x)
    }

    /// The dimension of the ambient space.
    pub fn dim(&self) -> usize {
        match self {
            Domain::Ball { center, .. } | Domain::LpBall { center, .. } => center.len(),
            Domain::Box { lo, .. } => lo.len(),
            Domain::Simplex { dim } => *dim,
            Domain::Product(blocks) => blocks.iter().map(Domain::dim).sum(),
        }
    }

    /// The blocks of a `Product`, `None` for the other variants.
    pub fn split(&self) -> Option<&[Domain]> {
        match self {
            Domain::Product(blocks) => Some(blocks),
            _ => None,
        }
    }

    /// Apply `f` to each (block, slice of x) pair of a product and concatenate the results.
    fn per_block(
        blocks: &[Domain],
        x: &[f64],
        f: impl Fn(&Domain, &[f64]) -> Vec<f64>,
    ) -> Vec<f64> {
        let mut out = Vec::with_capacity(x.len());
        let mut off = 0;
        for b in blocks {
            let k = b.dim();
            out.extend(f(b, &x[off..off + k]));
            off += k;
        }
        out
    }

    fn assert_len(&self, what: &str, x: &[f64]) {
        assert!(
            x.len() == self.dim(),
            "Domain::{what}: point of length {} for a domain of dimension {}",
            x.len(),
            self.dim()
        );
    }

    /// Euclidean projection argmin_{u ∈ D} ‖u − x‖₂.
    ///
    /// * Ball: x if inside, else c + r(x − c)/‖x − c‖₂. Box: clamp.
    /// * Simplex: sort-based, [`project_simplex`] (Held–Wolfe–Crowder; Duchi et al. 2008).
    /// * LpBall: c + [`project_lp_ball`](x − c): p = 1 by the simplex sort on |x − c|, p = 2 the
    ///   ball formula, p = ∞ the box clamp, and other p by a certified bisection on the KKT
    ///   multiplier with each coordinate solved by safeguarded Newton/bisection; its error bound is
    ///   computed there (a few ulps of ‖x − c‖ in practice; certified bracket documented in
    ///   [`project_lp_ball`]).
    /// * Product: per block.
    ///
    /// # Panics
    /// If `x.len() != self.dim()`.
    pub fn project(&self, x: &[f64]) -> Vec<f64> {
        self.assert_len("project", x);
        match self {
            Domain::Ball { center, radius } => {
                let d = linalg::dist2(x, center);
                if d <= *radius {
                    x.to_vec()
                } else {
                    let s = radius / d;
                    center
                        .iter()
                        .zip(x)
                        .map(|(c, xi)| c + s * (xi - c))
                        .collect()
                }
            }
            Domain::Box { lo, hi } => x
                .iter()
                .zip(lo.iter().zip(hi))
                .map(|(&xi, (&l, &h))| xi.max(l).min(h))
                .collect(),
            Domain::Simplex { .. } => project_simplex(x, 1.0),
            Domain::LpBall { p, center, radius } => {
                let y = linalg::sub(x, center);
                let pr = project_lp_ball(&y, *p, *radius);
                linalg::add(center, &pr.point)
            }
            Domain::Product(blocks) => Self::per_block(blocks, x, |b, xb| b.project(xb)),
        }
    }

    /// [`Domain::project`] in place: `x` becomes its projection, with the same values. Balls and
    /// boxes (the domains of the iterative algorithms' hot loops) allocate nothing; the other
    /// domains project into a new vector and copy it back.
    pub fn project_in_place(&self, x: &mut [f64]) {
        self.assert_len("project_in_place", x);
        match self {
            Domain::Ball { center, radius } => {
                let d = linalg::dist2(x, center);
                if d > *radius {
                    let s = radius / d;
                    for (xi, c) in x.iter_mut().zip(center) {
                        *xi = c + s * (*xi - c);
                    }
                }
            }
            Domain::Box { lo, hi } => {
                for (xi, (&l, &h)) in x.iter_mut().zip(lo.iter().zip(hi)) {
                    *xi = xi.max(l).min(h);
                }
            }
            _ => {
                let p = self.project(x);
                x.copy_from_slice(&p);
            }
        }
    }

    /// Membership with absolute tolerance `tol`: Ball ‖x − c‖₂ ≤ r + tol; Box lo − tol ≤ x ≤
    /// hi + tol; Simplex x_i ≥ −tol and |Σx − 1| ≤ tol; LpBall ‖x − c‖_p ≤ r + tol; Product: every
    /// block. A point of the wrong length, or with a NaN entry, is not contained.
    pub fn contains(&self, x: &[f64], tol: f64) -> bool {
        if x.len() != self.dim() {
            return false;
        }
        match self {
            Domain::Ball { center, radius } => linalg::dist2(x, center) <= radius + tol,
            Domain::Box { lo, hi } => {
                (0..x.len()).all(|i| x[i] >= lo[i] - tol && x[i] <= hi[i] + tol)
            }
            Domain::Simplex { .. } => {
                let mut s = 0.0;
                for &v in x {
                    s += v;
                }
                x.iter().all(|&v| v >= -tol) && (s - 1.0).abs() <= tol
            }
            Domain::LpBall { p, center, radius } => {
                lp_norm(&linalg::sub(x, center), *p) <= radius + tol
            }
            Domain::Product(blocks) => {
                let mut off = 0;
                blocks.iter().all(|b| {
                    let k = b.dim();
                    let ok = b.contains(&x[off..off + k], tol);
                    off += k;
                    ok
                })
            }
        }
    }

    /// The ℓ2 diameter max_{u,v ∈ D} ‖u − v‖₂; equal to `self.diameter_in(Norm::L2)`.
    ///
    /// Ball 2r; Box ‖hi − lo‖₂; Simplex √2 (0 for dim 1); LpBall 2r·d^{max(0, 1/2 − 1/p)};
    /// Product √(Σ diam_k²). All exact.
    pub fn diameter(&self) -> f64 {
        self.diameter_in(Norm::L2)
    }

    /// The diameter max_{u,v ∈ D} ‖u − v‖ in the norm `norm` = ℓs. Closed form and exact in
    /// **every** case:
    ///
    /// * Ball (ℓ2, radius r): 2r·d^{max(0, 1/s − 1/2)}; LpBall: 2r·d^{max(0, 1/s − 1/p)} (the
    ///   largest ℓs norm on the unit ℓp ball, [`norm_ratio`], attained at u and −u);
    /// * Box: ‖hi − lo‖_s (opposite corners; ℓs norms are monotone in |u_i|);
    /// * Simplex: ‖e_i − e_j‖_s = 2^{1/s} (ℓ1: 2, ℓ∞: 1), 0 for dim 1 (a convex function is
    ///   maximized at vertices);
    /// * Product: (Σ_k diam_k^s)^{1/s}, and max_k diam_k for s = ∞ (blocks vary independently).
    ///
    /// BGM24's block-rescaled product norm √(‖w‖_w² + ‖θ‖_θ²) is assembled by the caller from the
    /// block diameters ([`Domain::split`]); its diameter is then ≤ √2, not 1 (erratum E-BGM24-7).
    pub fn diameter_in(&self, norm: Norm) -> f64 {
        let s = norm.p();
        match self {
            Domain::Ball { center, radius } => 2.0 * radius * norm_ratio(center.len(), 2.0, s),
            Domain::LpBall { p, center, radius } => 2.0 * radius * norm_ratio(center.len(), *p, s),
            Domain::Box { lo, hi } => norm.eval(&linalg::sub(hi, lo)),
            Domain::Simplex { dim } => {
                if *dim < 2 {
                    0.0
                } else if s == 2.0 {
                    std::f64::consts::SQRT_2
                } else {
                    2f64.powf(1.0 / s)
                }
            }
            Domain::Product(blocks) => {
                let diams: Vec<f64> = blocks.iter().map(|b| b.diameter_in(norm)).collect();
                norm.eval(&diams)
            }
        }
    }

    /// max_{u ∈ D} ‖u‖₂.
    ///
    /// * Ball: ‖c‖₂ + r (exact). Box: √(Σ max(lo_i², hi_i²)) (exact). Simplex: 1 (exact).
    /// * LpBall: exact when c = 0 (r·d^{max(0, 1/2 − 1/p)}) and for p ∈ {1, 2, ∞} (p = 1: the
    ///   largest vertex √(‖c‖² + r² + 2r·max|c_i|); p = 2: ‖c‖ + r; p = ∞: the box formula);
    ///   otherwise the **upper bound** ‖c‖₂ + r·d^{max(0, 1/2 − 1/p)} (triangle inequality).
    /// * Product: √(Σ max_norm_k²) (exact).
    pub fn max_norm(&self) -> f64 {
        match self {
            Domain::Ball { center, radius } => linalg::norm2(center) + radius,
            Domain::Box { lo, hi } => {
                let mut s = 0.0;
                for i in 0..lo.len() {
                    let m = lo[i].abs().max(hi[i].abs());
                    s += m * m;
                }
                s.sqrt()
            }
            Domain::Simplex { .. } => 1.0,
            Domain::LpBall { p, center, radius } => {
                let d = center.len();
                let r = *radius;
                let c2 = linalg::norm2(center);
                if *p == 1.0 {
                    let cmax = center.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
                    (linalg::norm2_sq(center) + r * r + 2.0 * r * cmax).sqrt()
                } else if *p == f64::INFINITY {
                    let mut s = 0.0;
                    for &c in center {
                        let m = c.abs() + r;
                        s += m * m;
                    }
                    s.sqrt()
                } else {
                    c2 + r * norm_ratio(d, *p, 2.0)
                }
            }
            Domain::Product(blocks) => {
                let m: Vec<f64> = blocks.iter().map(Domain::max_norm).collect();
                linalg::norm2(&m)
            }
        }
    }

    /// The support function σ_D(v) = max_{u ∈ D} ⟨v, u⟩.
    ///
    /// Ball ⟨v,c⟩ + r‖v‖₂; Box Σ max(v_i lo_i, v_i hi_i); Simplex max_i v_i; LpBall
    /// ⟨v,c⟩ + r‖v‖_q (q = p/(p−1)); Product: sum over blocks (in block order).
    ///
    /// # Panics
    /// If `v.len() != self.dim()`.
    pub fn support(&self, v: &[f64]) -> f64 {
        self.assert_len("support", v);
        match self {
            Domain::Ball { center, radius } => linalg::dot(v, center) + radius * linalg::norm2(v),
            Domain::Box { lo, hi } => {
                let mut s = 0.0;
                for i in 0..v.len() {
                    s += (v[i] * lo[i]).max(v[i] * hi[i]);
                }
                s
            }
            Domain::Simplex { .. } => v.iter().fold(f64::NEG_INFINITY, |m, &x| m.max(x)),
            Domain::LpBall { p, center, radius } => {
                linalg::dot(v, center) + radius * lp_norm(v, dual_exponent(*p))
            }
            Domain::Product(blocks) => {
                let mut s = 0.0;
                let mut off = 0;
                for b in blocks {
                    let k = b.dim();
                    s += b.support(&v[off..off + k]);
                    off += k;
                }
                s
            }
        }
    }

    /// The linear maximization oracle: an extreme point u ∈ D with ⟨v, u⟩ = σ_D(v).
    ///
    /// Ball c + r·u₂(v), LpBall c + r·u_p(v) with u_p = [`Norm::dual_maximizer`] of ℓp; Box
    /// hi_i where v_i > 0, else lo_i; Simplex e_k with k the lowest index of max v_i; Product per
    /// block. Tie rule: see the type-level docs (lowest index; lower endpoint on a zero
    /// coefficient; c − r·e_0 at v = 0 for the balls with p < ∞).
    ///
    /// # Panics
    /// If `v.len() != self.dim()`.
    pub fn lmo(&self, v: &[f64]) -> Vec<f64> {
        self.assert_len("lmo", v);
        match self {
            Domain::Ball { center, radius } => {
                let u = Norm::L2.dual_maximizer(v);
                center
                    .iter()
                    .zip(u)
                    .map(|(c, ui)| c + radius * ui)
                    .collect()
            }
            Domain::LpBall { p, center, radius } => {
                let u = Norm::Lp(*p).dual_maximizer(v);
                center
                    .iter()
                    .zip(u)
                    .map(|(c, ui)| c + radius * ui)
                    .collect()
            }
            Domain::Box { lo, hi } => (0..v.len())
                .map(|i| if v[i] > 0.0 { hi[i] } else { lo[i] })
                .collect(),
            Domain::Simplex { dim } => {
                let mut k = 0;
                for i in 1..*dim {
                    if v[i] > v[k] {
                        k = i;
                    }
                }
                let mut u = vec![0.0; *dim];
                u[k] = 1.0;
                u
            }
            Domain::Product(blocks) => Self::per_block(blocks, v, |b, vb| b.lmo(vb)),
        }
    }

    /// A canonical central point: the centre (Ball, LpBall), the midpoint lo/2 + hi/2 (Box), the
    /// barycentre (1/d, …, 1/d) (Simplex), the blocks' centres concatenated (Product). It is in D
    /// and, for the symmetric sets, the Chebyshev centre.
    pub fn center(&self) -> Vec<f64> {
        match self {
            Domain::Ball { center, .. } | Domain::LpBall { center, .. } => center.clone(),
            Domain::Box { lo, hi } => lo
                .iter()
                .zip(hi)
                .map(|(l, h)| (0.5 * l + 0.5 * h).clamp(*l, *h))
                .collect(),
            Domain::Simplex { dim } => vec![1.0 / *dim as f64; *dim],
            Domain::Product(blocks) => blocks.iter().flat_map(Domain::center).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_round_trip_and_validation() {
        let d = Domain::product(vec![
            Domain::ball(vec![0.0, 1.0], 2.0).unwrap(),
            Domain::lp_ball(f64::INFINITY, vec![0.5], 1.0).unwrap(),
            Domain::simplex(3).unwrap(),
            Domain::new_box(vec![-1.0], vec![2.0]).unwrap(),
        ])
        .unwrap();
        let s = serde_json::to_string(&d).unwrap();
        assert!(s.contains("\"lp_ball\"") && s.contains("\"inf\""), "{s}");
        let back: Domain = serde_json::from_str(&s).unwrap();
        assert_eq!(back, d);
        let bad = r#"{"product":[{"ball":{"center":[0],"radius":1}},{"ball":{"center":[0],"radius":-1}}]}"#;
        let err = serde_json::from_str::<Domain>(bad).unwrap_err().to_string();
        assert!(err.contains("radius"), "{err}");
        let unknown = r#"{"ball":{"center":[0],"radius":1,"radios":2}}"#;
        assert!(serde_json::from_str::<Domain>(unknown).is_err());
    }

    #[test]
    fn product_field_prefix() {
        let d = Domain::Product(vec![Domain::Simplex { dim: 2 }, Domain::Simplex { dim: 0 }]);
        match d.validate() {
            Err(Error::Invalid { field, .. }) => assert_eq!(field, "product[1].dim"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn check_point_names_field() {
        let d = Domain::simplex(2).unwrap();
        assert!(d.check_point("z0", &[0.5, 0.5]).is_ok());
        let e = d.check_point("z0", &[0.5]).unwrap_err().to_string();
        assert!(e.contains("z0"), "{e}");
        let e = d
            .check_point("z0", &[0.5, f64::NAN])
            .unwrap_err()
            .to_string();
        assert!(e.contains("z0[1]"), "{e}");
    }

    #[test]
    fn contains_wrong_length_is_false() {
        let d = Domain::ball(vec![0.0, 0.0], 1.0).unwrap();
        assert!(!d.contains(&[0.0], 1.0));
        assert!(!d.contains(&[f64::NAN, 0.0], 1.0));
    }
}
