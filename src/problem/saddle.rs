//! The saddle function abstraction (BGM23 §2, "Preliminaries").
//!
//! A [`SaddleFn`] is a loss f(w, θ; x), convex in w ∈ W and concave in θ ∈ Θ. Every objective the
//! papers evaluate is a weighted data mixture plus anchored quadratic terms:
//!
//! F(w, θ) = Σ_j π_j f(w, θ; x_j) + Σ_k c_k (‖w − a_k‖² − ‖θ − b_k‖²).
//!
//! * π_j = 1/n over a dataset gives the empirical loss F_S;
//! * π_j = p_j over a finite support gives the population loss F_D exactly;
//! * the quadratic terms are [`Regularizer`]: BGM23 eq. (4) and the f^(t) of Algorithm 1.
//!
//! **Norm convention (stated once for the crate).** A regularizer term is written c‖·‖² with *no*
//! factor ½. A sum of terms with total coefficient C = Σ c_k makes the objective 2C-strongly
//! convex–strongly concave in the convention ψ(a) ≥ ψ(b) + ⟨∇ψ(b), a − b⟩ + (μ/2)‖a − b‖²
//! (errata E-BGM23-6, E-BGM23-7: BGM23 never defines it). So BGM23 eq. (4), (λ/2)‖w − ŵ‖² − (λ/2)‖θ − θ̂‖², is one term
//! with c = λ/2 and modulus μ = λ; Algorithm 1's 2^{k+1}λ‖·‖² terms have c = 2^{k+1}λ.

use crate::error::{invalid, Result};
use crate::geometry::Domain;
use crate::linalg;
use crate::problem::{Dataset, FiniteDist, Rows};
use serde::{Deserialize, Serialize};

/// A weighted set of data points: the objective Σ_j π_j f(·,·; x_j).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Mixture {
    /// The data points x_j, row-major in one array.
    pub points: Rows,
    /// The weights π_j ≥ 0, summing to 1.
    pub weights: Vec<f64>,
}

impl Mixture {
    /// F_S: each point of S with weight 1/n (BGM23 §2).
    pub fn empirical(s: &Dataset) -> Mixture {
        Mixture::empirical_owned(s.points.clone())
    }

    /// [`Mixture::empirical`] of the dataset with these points, taking them without a copy.
    pub fn empirical_owned(points: Rows) -> Mixture {
        let n = points.len();
        Mixture {
            points,
            weights: vec![1.0 / n as f64; n],
        }
    }

    /// F_D for a finite-support D: each atom with its probability.
    pub fn population(d: &FiniteDist) -> Mixture {
        Mixture {
            points: Rows::from_slices(&d.atoms).expect("a FiniteDist's atoms have one length"),
            weights: d.probs.clone(),
        }
    }

    /// A single point with weight one (f itself at that x).
    pub fn single(x: &[f64]) -> Mixture {
        Mixture {
            points: Rows::from_slices(&[x]).expect("one row"),
            weights: vec![1.0],
        }
    }

    /// Validate shapes and weights; `field` prefixes the error.
    pub fn validate(&self, field: &str, point_dim: usize) -> Result<()> {
        if self.points.is_empty() || self.points.len() != self.weights.len() {
            return Err(invalid(
                field,
                format!(
                    "needs as many weights as points and at least one point (got {} points, {} weights)",
                    self.points.len(),
                    self.weights.len()
                ),
            ));
        }
        // All rows have one length: when it is wrong, row 0 is the first wrong one.
        if self.points.dim() != point_dim {
            return Err(invalid(
                format!("{field}.points[0]"),
                format!(
                    "has length {}, the problem's data points have length {point_dim}",
                    self.points.dim()
                ),
            ));
        }
        for (i, x) in self.points.iter().enumerate() {
            if x.iter().any(|v| !v.is_finite()) {
                // Name the field only on failure (no string per point on the way).
                crate::error::require_finite(&format!("{field}.points[{i}]"), x)?;
            }
        }
        crate::error::require_finite(&format!("{field}.weights"), &self.weights)?;
        if self.weights.iter().any(|&p| p < 0.0) {
            return Err(invalid(format!("{field}.weights"), "must be non-negative"));
        }
        let total: f64 = self.weights.iter().sum();
        if (total - 1.0).abs() > 1e-9 {
            return Err(invalid(
                format!("{field}.weights"),
                format!("must sum to 1, sum is {total}"),
            ));
        }
        Ok(())
    }

    /// Σ π_j x_j, summed in index order.
    pub fn mean(&self) -> Vec<f64> {
        // `linalg::weighted_mean` over the rows: Σ π_j x_j accumulated by `axpy` in index order.
        if self.points.is_empty() {
            return Vec::new();
        }
        let mut out = vec![0.0; self.points.dim()];
        for (x, &p) in self.points.iter().zip(&self.weights) {
            linalg::axpy(p, x, &mut out);
        }
        out
    }
}

/// One anchored quadratic term c_w‖w − a‖² − c_θ‖θ − b‖² (see the module's norm convention),
/// with a coefficient per block: ZTOH22 Algorithms 4 and 5 regularize (μ_k/2)‖x − x̃‖² −
/// (μ/2)‖y‖², i.e. c_w = μ_k/2, a = x̃, c_θ = μ/2, b = 0. BGM23's terms have c_w = c_θ.
///
/// **Serde.** A term with c_w = c_θ (bitwise) is written `{"c": c, "anchor_w": …, "anchor_theta":
/// …}`, exactly the form of the former one-coefficient term, so configurations and fixtures do not
/// change; otherwise `{"c_w": …, "c_theta": …, "anchor_w": …, "anchor_theta": …}`. Reading
/// accepts either: `c` alone stands for both blocks; `c` together with `c_w`/`c_theta`, or only
/// one of `c_w`, `c_theta`, is refused.
#[derive(Clone, Debug, PartialEq)]
pub struct RegTerm {
    /// The primal coefficient c_w ≥ 0 (no factor ½).
    pub c_w: f64,
    /// The dual coefficient c_θ ≥ 0 (no factor ½).
    pub c_theta: f64,
    /// The primal anchor a.
    pub anchor_w: Vec<f64>,
    /// The dual anchor b.
    pub anchor_theta: Vec<f64>,
}

/// The serialized form of a [`RegTerm`] (field order: c, c_w, c_theta, anchors).
#[derive(Serialize, Deserialize)]
struct RegTermRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c_w: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c_theta: Option<f64>,
    anchor_w: Vec<f64>,
    anchor_theta: Vec<f64>,
}

impl Serialize for RegTerm {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let equal = self.c_w.to_bits() == self.c_theta.to_bits();
        RegTermRepr {
            c: equal.then_some(self.c_w),
            c_w: (!equal).then_some(self.c_w),
            c_theta: (!equal).then_some(self.c_theta),
            anchor_w: self.anchor_w.clone(),
            anchor_theta: self.anchor_theta.clone(),
        }
        .serialize(s)
    }
}

impl<'de> Deserialize<'de> for RegTerm {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<RegTerm, D::Error> {
        let r = RegTermRepr::deserialize(d)?;
        let (c_w, c_theta) =
            match (r.c, r.c_w, r.c_theta) {
                (Some(c), None, None) => (c, c),
                (None, Some(cw), Some(ct)) => (cw, ct),
                _ => return Err(serde::de::Error::custom(
                    "a regularizer term needs either `c` (both blocks) or both `c_w` and `c_theta`",
                )),
            };
        Ok(RegTerm {
            c_w,
            c_theta,
            anchor_w: r.anchor_w,
            anchor_theta: r.anchor_theta,
        })
    }
}

impl RegTerm {
    /// c(‖w − a‖² − ‖θ − b‖²): one coefficient for both blocks.
    pub fn new(c: f64, anchor_w: &[f64], anchor_theta: &[f64]) -> RegTerm {
        RegTerm::blocks(c, c, anchor_w, anchor_theta)
    }

    /// c_w‖w − a‖² − c_θ‖θ − b‖².
    pub fn blocks(c_w: f64, c_theta: f64, anchor_w: &[f64], anchor_theta: &[f64]) -> RegTerm {
        RegTerm {
            c_w,
            c_theta,
            anchor_w: anchor_w.to_vec(),
            anchor_theta: anchor_theta.to_vec(),
        }
    }

    /// The common coefficient when c_w = c_θ (bitwise), else `None`.
    pub fn c(&self) -> Option<f64> {
        (self.c_w.to_bits() == self.c_theta.to_bits()).then_some(self.c_w)
    }
}

/// Σ_k (c_{w,k}‖w − a_k‖² − c_{θ,k}‖θ − b_k‖²): BGM23 eq. (4) (one term, c = λ/2), the cumulative
/// regularizer of BGM23 Algorithm 1 (terms 2^{k+1}λ anchored at z̄_k), and ZTOH22 Algorithms 4/5's
/// (μ_k/2)‖x − x̃‖² − (μ/2)‖y‖² (one term with c_w = μ_k/2, c_θ = μ/2, b = 0).
///
/// **Per-block semantics.** With C_w = Σ c_{w,k} and C_θ = Σ c_{θ,k}, the terms add 2C_w to the
/// strong convexity of F in w and 2C_θ to its strong concavity in θ (the module's convention);
/// [`Regularizer::modulus`] is the joint modulus min(2C_w, 2C_θ) that a certificate may use for
/// the concatenated point (gap ≥ (μ_w/2)‖w − w*‖² + (μ_θ/2)‖θ − θ*‖² ≥ (min/2)‖z − z*‖²), and
/// each block's centre is weighted by that block's own coefficients.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Regularizer {
    /// The terms, in the order they were added.
    pub terms: Vec<RegTerm>,
}

impl Regularizer {
    /// No regularization.
    pub fn none() -> Regularizer {
        Regularizer { terms: vec![] }
    }

    /// BGM23 eq. (4): (λ/2)‖w − ŵ‖² − (λ/2)‖θ − θ̂‖², which is λ-SC/SC.
    pub fn bgm23_eq4(lambda: f64, w_hat: &[f64], theta_hat: &[f64]) -> Regularizer {
        Regularizer {
            terms: vec![RegTerm::new(lambda / 2.0, w_hat, theta_hat)],
        }
    }

    /// Append a term c(‖w − a‖² − ‖θ − b‖²).
    pub fn push(&mut self, c: f64, anchor_w: &[f64], anchor_theta: &[f64]) {
        self.terms.push(RegTerm::new(c, anchor_w, anchor_theta));
    }

    /// Append a term c_w‖w − a‖² − c_θ‖θ − b‖².
    pub fn push_blocks(&mut self, c_w: f64, c_theta: f64, anchor_w: &[f64], anchor_theta: &[f64]) {
        self.terms
            .push(RegTerm::blocks(c_w, c_theta, anchor_w, anchor_theta));
    }

    /// ZTOH22 Algorithms 4/5: (μ_w/2)‖w − a‖² − (μ_θ/2)‖θ − b‖² (moduli μ_w in w, μ_θ in θ).
    pub fn per_block(mu_w: f64, a: &[f64], mu_theta: f64, b: &[f64]) -> Regularizer {
        Regularizer {
            terms: vec![RegTerm::blocks(mu_w / 2.0, mu_theta / 2.0, a, b)],
        }
    }

    /// Validate coefficients and anchor lengths.
    pub fn validate(&self, d_w: usize, d_theta: usize) -> Result<()> {
        for (k, t) in self.terms.iter().enumerate() {
            let equal = t.c().is_some();
            for (name, c) in [("c_w", t.c_w), ("c_theta", t.c_theta)] {
                if !(c.is_finite() && c >= 0.0) {
                    let name = if equal { "c" } else { name };
                    return Err(invalid(
                        format!("regularizer.terms[{k}].{name}"),
                        format!("must be finite and ≥ 0, got {c}"),
                    ));
                }
            }
            if t.anchor_w.len() != d_w {
                return Err(invalid(
                    format!("regularizer.terms[{k}].anchor_w"),
                    format!("has length {}, expected d_w = {d_w}", t.anchor_w.len()),
                ));
            }
            if t.anchor_theta.len() != d_theta {
                return Err(invalid(
                    format!("regularizer.terms[{k}].anchor_theta"),
                    format!(
                        "has length {}, expected d_θ = {d_theta}",
                        t.anchor_theta.len()
                    ),
                ));
            }
            crate::error::require_finite(&format!("regularizer.terms[{k}].anchor_w"), &t.anchor_w)?;
            crate::error::require_finite(
                &format!("regularizer.terms[{k}].anchor_theta"),
                &t.anchor_theta,
            )?;
        }
        Ok(())
    }

    /// C_w = Σ_k c_{w,k}.
    pub fn total_w(&self) -> f64 {
        self.terms.iter().map(|t| t.c_w).sum()
    }

    /// C_θ = Σ_k c_{θ,k}.
    pub fn total_theta(&self) -> f64 {
        self.terms.iter().map(|t| t.c_theta).sum()
    }

    /// min(C_w, C_θ): the total coefficient both blocks have at least (C = Σ c_k for the
    /// equal-coefficient terms of BGM23). Per-block code uses [`Regularizer::total_w`] and
    /// [`Regularizer::total_theta`].
    pub fn total(&self) -> f64 {
        self.total_w().min(self.total_theta())
    }

    /// The strong convexity modulus the terms add in w: μ_w = 2C_w.
    pub fn modulus_w(&self) -> f64 {
        2.0 * self.total_w()
    }

    /// The strong concavity modulus the terms add in θ: μ_θ = 2C_θ.
    pub fn modulus_theta(&self) -> f64 {
        2.0 * self.total_theta()
    }

    /// The joint modulus for the concatenated point z = (w, θ): min(μ_w, μ_θ) = 2·min(C_w, C_θ)
    /// (μ = 2C for equal coefficients). The certified solver uses it in BGM23 Lemma 3's
    /// ‖z − z*‖ ≤ √(2·Ĝap/μ).
    pub fn modulus(&self) -> f64 {
        self.modulus_w().min(self.modulus_theta())
    }

    /// The primal centre Σ c_{w,k} a_k / C_w, so that Σ c_{w,k}‖w − a_k‖² = C_w‖w − centre‖² +
    /// const. `None` when C_w = 0.
    pub fn center_w(&self) -> Option<Vec<f64>> {
        let c = self.total_w();
        (c > 0.0).then(|| {
            let mut cw = vec![0.0; self.terms[0].anchor_w.len()];
            for t in &self.terms {
                linalg::axpy(t.c_w / c, &t.anchor_w, &mut cw);
            }
            cw
        })
    }

    /// The dual centre Σ c_{θ,k} b_k / C_θ. `None` when C_θ = 0.
    pub fn center_theta(&self) -> Option<Vec<f64>> {
        let c = self.total_theta();
        (c > 0.0).then(|| {
            let mut ct = vec![0.0; self.terms[0].anchor_theta.len()];
            for t in &self.terms {
                linalg::axpy(t.c_theta / c, &t.anchor_theta, &mut ct);
            }
            ct
        })
    }

    /// Both centres ([`Regularizer::center_w`], [`Regularizer::center_theta`]), each weighted by
    /// its own block's coefficients; `None` unless both C_w > 0 and C_θ > 0.
    pub fn centers(&self) -> Option<(Vec<f64>, Vec<f64>)> {
        Some((self.center_w()?, self.center_theta()?))
    }

    /// The value Σ_k (c_{w,k}‖w − a_k‖² − c_{θ,k}‖θ − b_k‖²).
    pub fn value(&self, w: &[f64], theta: &[f64]) -> f64 {
        let mut v = 0.0;
        for t in &self.terms {
            let (qw, qt) = (
                linalg::norm2_sq(&linalg::sub(w, &t.anchor_w)),
                linalg::norm2_sq(&linalg::sub(theta, &t.anchor_theta)),
            );
            // One coefficient: c(‖·‖² − ‖·‖²), the former rounding exactly.
            v += match t.c() {
                Some(c) => c * (qw - qt),
                None => t.c_w * qw - t.c_theta * qt,
            };
        }
        v
    }

    /// (∇_w, ∇_θ) of the regularizer: (2Σc_{w,k}(w − a_k), −2Σc_{θ,k}(θ − b_k)).
    pub fn grad(&self, w: &[f64], theta: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut gw = vec![0.0; w.len()];
        let mut gt = vec![0.0; theta.len()];
        for t in &self.terms {
            let dw = linalg::sub(w, &t.anchor_w);
            let dt = linalg::sub(theta, &t.anchor_theta);
            linalg::axpy(2.0 * t.c_w, &dw, &mut gw);
            linalg::axpy(-2.0 * t.c_theta, &dt, &mut gt);
        }
        (gw, gt)
    }
}

impl Regularizer {
    /// Add the regularizer's operator to (g_w, g_θ) in place, with the values of
    /// `axpy(1, ∇_w R, g_w)` and `axpy(−1, ∇_θ R, g_θ)` for `(∇_w R, ∇_θ R) = self.grad(w, θ)`
    /// (each coordinate's terms summed from 0.0 in term order, then added; no allocation).
    pub fn add_operator(&self, w: &[f64], theta: &[f64], gw: &mut [f64], gt: &mut [f64]) {
        for (k, g) in gw.iter_mut().enumerate() {
            let mut r = 0.0;
            for t in &self.terms {
                r += (2.0 * t.c_w) * (w[k] - t.anchor_w[k]);
            }
            *g += 1.0 * r;
        }
        for (k, g) in gt.iter_mut().enumerate() {
            let mut r = 0.0;
            for t in &self.terms {
                r += (-2.0 * t.c_theta) * (theta[k] - t.anchor_theta[k]);
            }
            *g += -r; // −1·r
        }
    }
}

/// Per-sample saddle operators with no allocation: [`OperatorKernel::prepare`] does the work
/// that depends on (w, θ) only (e.g. Cθ and Cᵀw of a bilinear coupling) once, then each sample
/// costs what the family needs for x (O(d) for [`crate::problem::QuadBilinear`]'s data layouts).
/// Obtain one with [`crate::oracle::Oracle::kernel`], which counts the evaluations.
pub trait OperatorKernel {
    /// Prepare for the point (w, θ).
    fn prepare(&mut self, w: &[f64], theta: &[f64]);
    /// `acc_w += s·∇_w f(w, θ; x)` and `acc_θ += s·(−∇_θ f(w, θ; x))` at the (w, θ) of the last
    /// [`OperatorKernel::prepare`] (passed again), coordinate by coordinate: bit-identical to
    /// `axpy(s, a, acc_w)`, `axpy(s, b, acc_θ)` for the saddle operator (a, b) = (∇_w f, −∇_θ f)
    /// of [`SaddleFn::grad`].
    #[allow(clippy::too_many_arguments)]
    fn add_operator(
        &mut self,
        w: &[f64],
        theta: &[f64],
        x: &[f64],
        s: f64,
        acc_w: &mut [f64],
        acc_theta: &mut [f64],
    );
}

/// The default [`OperatorKernel`]: [`SaddleFn::grad`] per sample (the dense path; it allocates
/// the two gradient vectors).
pub struct DenseKernel<'a> {
    /// The loss.
    pub f: &'a dyn SaddleFn,
}

impl OperatorKernel for DenseKernel<'_> {
    fn prepare(&mut self, _w: &[f64], _theta: &[f64]) {}
    fn add_operator(
        &mut self,
        w: &[f64],
        theta: &[f64],
        x: &[f64],
        s: f64,
        acc_w: &mut [f64],
        acc_theta: &mut [f64],
    ) {
        let (gw, gt) = self.f.grad(w, theta, x);
        linalg::axpy(s, &gw, acc_w);
        for (a, g) in acc_theta.iter_mut().zip(&gt) {
            *a += s * -g; // s·(−1·g)
        }
    }
}

/// An objective F = Σ_j π_j f(·,·;x_j) + regularizer (see the module doc).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Objective {
    /// The data mixture.
    pub data: Mixture,
    /// The anchored quadratic terms.
    pub reg: Regularizer,
}

impl Objective {
    /// F_S (BGM23 §2).
    pub fn empirical(s: &Dataset) -> Objective {
        Objective {
            data: Mixture::empirical(s),
            reg: Regularizer::none(),
        }
    }

    /// F_D for a finite-support D (BGM23 §2, eq. (1)).
    pub fn population(d: &FiniteDist) -> Objective {
        Objective {
            data: Mixture::population(d),
            reg: Regularizer::none(),
        }
    }

    /// The same data with a regularizer.
    pub fn with_reg(mut self, reg: Regularizer) -> Objective {
        self.reg = reg;
        self
    }
}

/// Declared constants of a loss over a data support (BGM23 §2: Lipschitzness, smoothness).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Constants {
    /// L: a valid upper bound on the joint Lipschitz constant of f(·,·;x) on W×Θ, max over the
    /// support considered. Where the family says "exact", it is attained.
    pub lipschitz: f64,
    /// β: smoothness of f (None for non-smooth families).
    pub smoothness: Option<f64>,
    /// B: the ℓ2 diameter of W×Θ.
    pub diameter: f64,
}

/// The receiver of [`SaddleFn::grad_each`]: called as `each(i, ∇_w f, ∇_θ f)` for the i-th point
/// (the per-point gradients ∇ℓ(w, v; z_i) of KLLW22 Algorithm 1's full-batch gradient).
pub type GradSink<'a> = dyn FnMut(usize, &[f64], &[f64]) + 'a;

/// A convex–concave loss f(w, θ; x) on W×Θ with closed-form best responses
/// (BGM23 §2).
///
/// Best responses take a weighted set of points of the *other* block, because the weak gap
/// (BGM23 eq. (3)) needs argmax_θ Σ_k ρ_k F(w_k, θ); the gap function is the case of one point.
pub trait SaddleFn: Sync {
    /// A short name for reports.
    fn name(&self) -> String;
    /// d_w.
    fn dim_w(&self) -> usize;
    /// d_θ.
    fn dim_theta(&self) -> usize;
    /// k, the length of a data point x.
    fn point_dim(&self) -> usize;
    /// W.
    fn domain_w(&self) -> &Domain;
    /// Θ.
    fn domain_theta(&self) -> &Domain;
    /// f(w, θ; x).
    fn value(&self, w: &[f64], theta: &[f64], x: &[f64]) -> f64;
    /// (∇_w f, ∇_θ f) at (w, θ; x); a documented subgradient selection for non-smooth families.
    /// Call it through [`crate::oracle::Oracle`] so that every evaluation is counted.
    fn grad(&self, w: &[f64], theta: &[f64], x: &[f64]) -> (Vec<f64>, Vec<f64>);
    /// The per-point gradients (∇_w f, ∇_θ f)(w, θ; x_i) for every point of `xs`, handed to
    /// `each(i, ∇_w f, ∇_θ f)` in index order. Each must equal [`SaddleFn::grad`] at x_i; a family
    /// may share the work that does not depend on x (the default calls `grad` per point). Used by
    /// the per-point full-batch gradient of KLLW22 Algorithm 1 (∇L_S = (1/n)Σ_i ∇ℓ(·;z_i)).
    /// Call it through [`crate::oracle::Oracle`] so that every point is counted.
    fn grad_each(&self, w: &[f64], theta: &[f64], xs: &Rows, each: &mut GradSink<'_>) {
        for (i, x) in xs.iter().enumerate() {
            let (gw, gt) = self.grad(w, theta, x);
            each(i, &gw, &gt);
        }
    }
    /// Σ_j π_j f(w, θ; x_j), accumulated in index order from 0.0 as `v += π_j·f(w, θ; x_j)` (the
    /// data part of [`objective_value`]). A family may override it to share the work that does
    /// not depend on x; the override must return the same value bit for bit.
    fn mixture_value(&self, w: &[f64], theta: &[f64], points: &Rows, weights: &[f64]) -> f64 {
        let mut v = 0.0;
        for (x, p) in points.iter().zip(weights) {
            v += p * self.value(w, theta, x);
        }
        v
    }
    /// An allocation-free per-sample [`OperatorKernel`] where the family has one (bit-identical
    /// to [`SaddleFn::grad`]); `None` (the default) means the dense path, [`DenseKernel`].
    /// Call it through [`crate::oracle::Oracle::kernel`] so that every sample is counted.
    fn operator_kernel(&self) -> Option<Box<dyn OperatorKernel + '_>> {
        None
    }
    /// Constants over the data points `support` (L is max over them).
    fn constants(&self, support: &[Vec<f64>]) -> Constants;
    /// argmax_{θ∈Θ} Σ_k ρ_k F(w_k, θ) for the objective `obj` (ρ summing to 1).
    fn best_theta(&self, ws: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>>;
    /// argmin_{w∈W} Σ_k ρ_k F(w, θ_k) for the objective `obj` (ρ summing to 1).
    fn best_w(&self, thetas: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>>;
    /// A mixture with the same F as `data`, as small as the family allows (for losses affine in
    /// x: the single mean point, since F_S = f(·,·; x̄)). Solvers evaluate operators on it.
    fn aggregate(&self, data: &Mixture) -> Mixture {
        data.clone()
    }
    /// Lipschitz constant of the saddle operator of `obj`, where the family is smooth.
    fn operator_lipschitz(&self, obj: &Objective) -> Option<f64>;
    /// A direct saddle-point computation where the family has one (e.g. by separability); the
    /// solver still certifies the result by its gap. `None` means "use the generic solver".
    fn direct_saddle(&self, _obj: &Objective) -> Option<Result<(Vec<f64>, Vec<f64>)>> {
        None
    }
}

/// F(w, θ) = Σ_j π_j f(w, θ; x_j) + regularizer, summed in index order.
pub fn objective_value(f: &dyn SaddleFn, obj: &Objective, w: &[f64], theta: &[f64]) -> f64 {
    f.mixture_value(w, theta, &obj.data.points, &obj.data.weights) + obj.reg.value(w, theta)
}

/// Validate an objective against a family's dimensions.
pub fn validate_objective(f: &dyn SaddleFn, obj: &Objective) -> Result<()> {
    obj.data.validate("data", f.point_dim())?;
    obj.reg.validate(f.dim_w(), f.dim_theta())
}

/// Validate a point (w, θ) against a family's dimensions and domains (tolerance 1e-9).
pub fn validate_point(f: &dyn SaddleFn, w: &[f64], theta: &[f64]) -> Result<()> {
    if w.len() != f.dim_w() {
        return Err(invalid(
            "w",
            format!("has length {}, expected d_w = {}", w.len(), f.dim_w()),
        ));
    }
    if theta.len() != f.dim_theta() {
        return Err(invalid(
            "theta",
            format!(
                "has length {}, expected d_θ = {}",
                theta.len(),
                f.dim_theta()
            ),
        ));
    }
    crate::error::require_finite("w", w)?;
    crate::error::require_finite("theta", theta)?;
    if !f.domain_w().contains(w, 1e-9) {
        return Err(invalid("w", "is not in the domain W"));
    }
    if !f.domain_theta().contains(theta, 1e-9) {
        return Err(invalid("theta", "is not in the domain Θ"));
    }
    Ok(())
}

/// Σ_k ρ_k v_k for weighted vectors (ρ summing to 1), in index order.
pub fn weighted_point_mean(pts: &[(f64, Vec<f64>)]) -> Vec<f64> {
    let d = pts.first().map_or(0, |p| p.1.len());
    let mut m = vec![0.0; d];
    for (r, v) in pts {
        linalg::axpy(*r, v, &mut m);
    }
    m
}
