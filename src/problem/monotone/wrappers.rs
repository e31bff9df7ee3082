//! Operators built from another: the regularized operator F + Σ_k λ_k(· − a_k) (BG23 eq. (5.1)'s
//! subproblem operator, BGM24's recursive regularization) and the clamped operator F∘Π_Z, which
//! is defined, L-Lipschitz and M-bounded on all of ℝᵈ (BG23 §5 evaluates F at noisy iterates
//! outside W; the crate's instances use F∘Π_W there).

use super::{with_scratch, DataAffineOp, MonotoneOp, OpConstants};
use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::linalg;
use crate::problem::saddle::Mixture;

/// Validate regularization terms (λ_k ≥ 0 finite, anchors of length d, finite).
pub(crate) fn validate_terms(terms: &[(f64, Vec<f64>)], d: usize) -> Result<()> {
    for (k, (l, a)) in terms.iter().enumerate() {
        if !(l.is_finite() && *l >= 0.0) {
            return Err(invalid(
                format!("terms[{k}].lambda"),
                format!("must be finite and ≥ 0, got {l}"),
            ));
        }
        if a.len() != d {
            return Err(invalid(
                format!("terms[{k}].anchor"),
                format!("has length {}, expected {d}", a.len()),
            ));
        }
        crate::error::require_finite(&format!("terms[{k}].anchor"), a)?;
    }
    Ok(())
}

/// F(z; x) + Σ_k λ_k(z − a_k) on F's domain: (μ_F + Σλ_k)-strongly monotone.
///
/// Values: coordinate i is F_i + r_i with r_i = Σ_k λ_k(z_i − a_{k,i}) summed from 0.0 in term
/// order. Constants and the VI gap are exact when F has an [`MonotoneOp::affine_form`] (then the
/// regularized operator is data-affine too, [`DataAffineOp::regularized`]); `Unsupported`
/// otherwise (L_F + Σλ_k and M_F + Σλ_k·sup‖z − a_k‖ are valid bounds, not exact: a rotation
/// plus λI has Lipschitz constant √(κ² + λ²) < κ + λ).
pub struct RegularizedOp<F> {
    inner: F,
    terms: Vec<(f64, Vec<f64>)>,
}

impl<F: MonotoneOp> RegularizedOp<F> {
    /// F + Σ_k λ_k(· − a_k), with `terms` = [(λ_k, a_k)].
    pub fn new(inner: F, terms: Vec<(f64, Vec<f64>)>) -> Result<Self> {
        validate_terms(&terms, inner.dim())?;
        Ok(RegularizedOp { inner, terms })
    }

    /// Σ_k λ_k.
    pub fn total(&self) -> f64 {
        self.terms.iter().map(|t| t.0).sum()
    }

    /// The inner operator F.
    pub fn inner(&self) -> &F {
        &self.inner
    }
}

impl<F: MonotoneOp> MonotoneOp for RegularizedOp<F> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }
    fn point_dim(&self) -> usize {
        self.inner.point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        self.eval_into(z, x, &mut out);
        out
    }
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        self.inner.eval_into(z, x, out);
        for (i, o) in out.iter_mut().enumerate() {
            let mut r = 0.0;
            for (l, a) in &self.terms {
                r += l * (z[i] - a[i]);
            }
            *o += r;
        }
    }
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        with_scratch(self.dim(), |g| {
            self.eval_into(z, x, g);
            linalg::axpy(s, g, out);
        })
    }
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        match self.affine_form() {
            Some(f) => f.vi_gap(data, z),
            None => Err(Error::Unsupported(
                "VI gap of a regularized operator whose inner operator is not data-affine".into(),
            )),
        }
    }
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        match self.affine_form() {
            Some(f) => f.constants(support),
            None => Err(Error::Unsupported(
                "exact constants of a regularized operator whose inner operator is not data-affine"
                    .into(),
            )),
        }
    }
    fn affine_form(&self) -> Option<DataAffineOp> {
        self.inner.affine_form()?.regularized(&self.terms).ok()
    }
}

/// F∘Π_Z: z ↦ F(Π_Z(z); x), defined on all of ℝᵈ; equal to F on Z.
///
/// Constants: F's (Π_Z is 1-Lipschitz and the identity on Z, so F∘Π_Z is L_F-Lipschitz on ℝᵈ with
/// the same constant, and its range is F's range on Z, so the same M); μ and D are F's on Z
/// (off Z, F∘Π_Z is not monotone in general). VI gap on Z: F's (u ranges over Z, where Π is the
/// identity).
pub struct ClampedOp<F> {
    inner: F,
}

impl<F: MonotoneOp> ClampedOp<F> {
    /// F∘Π_Z for F's domain Z.
    pub fn new(inner: F) -> Self {
        ClampedOp { inner }
    }
}

impl<F: MonotoneOp> MonotoneOp for ClampedOp<F> {
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn domain(&self) -> &Domain {
        self.inner.domain()
    }
    fn point_dim(&self) -> usize {
        self.inner.point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        self.eval_into(z, x, &mut out);
        out
    }
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        with_scratch(self.dim(), |p| {
            p.copy_from_slice(z);
            self.inner.domain().project_in_place(p);
            self.inner.eval_into(p, x, out);
        })
    }
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        with_scratch(self.dim(), |p| {
            p.copy_from_slice(z);
            self.inner.domain().project_in_place(p);
            self.inner.add_scaled(p, x, s, out);
        })
    }
    /// Π_Z(z) once for the batch, then F's batch path (each `add_scaled` would project the same z).
    fn add_batch_scaled(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        out: &mut [f64],
    ) {
        with_scratch(self.dim(), |p| {
            p.copy_from_slice(z);
            self.inner.domain().project_in_place(p);
            self.inner.add_batch_scaled(p, flat, k, idx, s, out);
        })
    }
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        self.inner.vi_gap(data, z)
    }
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        self.inner.constants(support)
    }
}
