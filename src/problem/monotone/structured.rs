//! Structured matrices for the data-affine operator family ([`super::DataAffineOp`]): each matrix
//! is stored in the form that makes a product O(d) where it can be (scaled identity, diagonal,
//! scaled block rotation), or dense; and the *canonical form* D + t·J + (dense rest) in which the
//! exact constants and the closed-form VI gaps are computed.
//!
//! J = blockdiag([[0, −1], [1, 0]], …) (d even) is skew (Jᵀ = −J), orthogonal (JᵀJ = I), and
//! J² = −I. Hence for M = aI + bJ: MᵀM = (a² + b²)I, so ‖Mz‖ = √(a² + b²)‖z‖ exactly, the
//! symmetric part is aI, and M⁻¹ = (aI − bJ)/(a² + b²) when a² + b² > 0.

use crate::error::{invalid, Result};
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use serde::{Deserialize, Serialize};

/// A d × d matrix in structured form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StructMat {
    /// A general matrix (O(d²) per product).
    Dense(Matrix),
    /// s·I.
    ScaledIdentity {
        /// d.
        dim: usize,
        /// s.
        s: f64,
    },
    /// diag(v).
    Diagonal(Vec<f64>),
    /// s·J with J = blockdiag([[0, −1], [1, 0]], …) (d even): (Jz)_{2k} = −z_{2k+1},
    /// (Jz)_{2k+1} = z_{2k}.
    Rotation {
        /// d (even).
        dim: usize,
        /// s.
        s: f64,
    },
}

impl StructMat {
    /// The dimension d.
    pub fn dim(&self) -> usize {
        match self {
            StructMat::Dense(m) => m.rows,
            StructMat::ScaledIdentity { dim, .. } | StructMat::Rotation { dim, .. } => *dim,
            StructMat::Diagonal(v) => v.len(),
        }
    }

    /// Validate: square, finite, d even for a rotation; `field` names it in errors.
    pub fn validate(&self, field: &str, d: usize) -> Result<()> {
        if self.dim() != d {
            return Err(invalid(
                field,
                format!("has dimension {}, expected {d}", self.dim()),
            ));
        }
        match self {
            StructMat::Dense(m) => {
                if m.cols != d {
                    return Err(invalid(
                        field,
                        format!("is {}×{}, expected {d}×{d}", m.rows, m.cols),
                    ));
                }
                crate::error::require_finite(field, &m.data)
            }
            StructMat::ScaledIdentity { s, .. } => crate::error::require_finite(field, &[*s]),
            StructMat::Diagonal(v) => crate::error::require_finite(field, v),
            StructMat::Rotation { dim, s } => {
                if dim % 2 != 0 {
                    return Err(invalid(
                        field,
                        format!("a block rotation needs an even dimension, got {dim}"),
                    ));
                }
                crate::error::require_finite(field, &[*s])
            }
        }
    }

    /// (A z)_i for i in r0..r0 + out.len() written into `out` (r0 even).
    #[inline]
    pub(crate) fn rows_into(&self, z: &[f64], r0: usize, out: &mut [f64]) {
        match self {
            StructMat::Dense(m) => {
                for (k, o) in out.iter_mut().enumerate() {
                    *o = linalg::dot(m.row(r0 + k), z);
                }
            }
            StructMat::ScaledIdentity { s, .. } => {
                for (o, zi) in out.iter_mut().zip(&z[r0..]) {
                    *o = s * zi;
                }
            }
            StructMat::Diagonal(v) => {
                for ((o, vi), zi) in out.iter_mut().zip(&v[r0..]).zip(&z[r0..]) {
                    *o = vi * zi;
                }
            }
            StructMat::Rotation { s, .. } => {
                let zc = &z[r0..r0 + out.len()];
                for (o, p) in out.chunks_exact_mut(2).zip(zc.chunks_exact(2)) {
                    o[0] = s * -p[1];
                    o[1] = s * p[0];
                }
            }
        }
    }

    /// out_k += c·(A z)_{r0+k} (r0 even): the product is rounded first, then scaled by c.
    #[inline]
    pub(crate) fn rows_axpy(&self, c: f64, z: &[f64], r0: usize, out: &mut [f64]) {
        match self {
            StructMat::Dense(m) => {
                for (k, o) in out.iter_mut().enumerate() {
                    *o += c * linalg::dot(m.row(r0 + k), z);
                }
            }
            StructMat::ScaledIdentity { s, .. } => {
                for (o, zi) in out.iter_mut().zip(&z[r0..]) {
                    *o += c * (s * zi);
                }
            }
            StructMat::Diagonal(v) => {
                for ((o, vi), zi) in out.iter_mut().zip(&v[r0..]).zip(&z[r0..]) {
                    *o += c * (vi * zi);
                }
            }
            StructMat::Rotation { s, .. } => {
                let zc = &z[r0..r0 + out.len()];
                for (o, p) in out.chunks_exact_mut(2).zip(zc.chunks_exact(2)) {
                    o[0] += c * (s * -p[1]);
                    o[1] += c * (s * p[0]);
                }
            }
        }
    }

    /// The dense d × d matrix (for tests and independent checks).
    pub fn to_dense(&self) -> Matrix {
        let d = self.dim();
        let mut m = Matrix::zeros(d, d);
        match self {
            StructMat::Dense(a) => return a.clone(),
            StructMat::ScaledIdentity { s, .. } => (0..d).for_each(|i| m.set(i, i, *s)),
            StructMat::Diagonal(v) => (0..d).for_each(|i| m.set(i, i, v[i])),
            StructMat::Rotation { s, .. } => {
                for k in 0..d / 2 {
                    m.set(2 * k, 2 * k + 1, -s);
                    m.set(2 * k + 1, 2 * k, *s);
                }
            }
        }
        m
    }
}

/// The data map z-independent part B x (d × k) of a data-affine operator.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DataMap {
    /// B = 0.
    Zero,
    /// (B x)_i = scale·x_{offset+i}: a scaled coordinate block (O(d)).
    Block {
        /// The first data coordinate read.
        offset: usize,
        /// The factor.
        scale: f64,
    },
    /// A general d × k matrix.
    Dense(Matrix),
}

impl DataMap {
    /// Validate against d rows and data length k.
    pub fn validate(&self, field: &str, d: usize, k: usize) -> Result<()> {
        match self {
            DataMap::Zero => Ok(()),
            DataMap::Block { offset, scale } => {
                if offset + d > k {
                    return Err(invalid(
                        field,
                        format!(
                            "reads x[{offset}..{}] but data points have length {k}",
                            offset + d
                        ),
                    ));
                }
                crate::error::require_finite(field, &[*scale])
            }
            DataMap::Dense(m) => {
                if m.rows != d || m.cols != k {
                    return Err(invalid(
                        field,
                        format!("is {}×{}, expected {d}×{k}", m.rows, m.cols),
                    ));
                }
                crate::error::require_finite(field, &m.data)
            }
        }
    }

    /// out_k += (B x)_{r0+k}.
    #[inline]
    pub(crate) fn rows_add(&self, x: &[f64], r0: usize, out: &mut [f64]) {
        match self {
            DataMap::Zero => {}
            DataMap::Block { offset, scale } => {
                for (o, xi) in out.iter_mut().zip(&x[offset + r0..]) {
                    *o += scale * xi;
                }
            }
            DataMap::Dense(m) => {
                for (k, o) in out.iter_mut().enumerate() {
                    *o += linalg::dot(m.row(r0 + k), x);
                }
            }
        }
    }

    /// B x (length d).
    pub fn apply(&self, x: &[f64], d: usize) -> Vec<f64> {
        let mut v = vec![0.0; d];
        self.rows_add(x, 0, &mut v);
        v
    }
}

/// A matrix in the canonical form diag(diag) + rot·J + dense (the dense rest absent when the
/// matrix is a combination of the structured forms). Sums of structured matrices stay in it.
#[derive(Clone, Debug, PartialEq)]
pub struct Canon {
    /// The diagonal part (identity multiples folded in).
    pub diag: Vec<f64>,
    /// The coefficient of J (0 when d is odd).
    pub rot: f64,
    /// A dense rest, if any part was not recognized as diagonal + t·J.
    pub dense: Option<Matrix>,
}

impl Canon {
    /// The zero matrix of dimension d.
    pub fn zero(d: usize) -> Canon {
        Canon {
            diag: vec![0.0; d],
            rot: 0.0,
            dense: None,
        }
    }

    /// self += c·A, recognizing a dense A of the exact pattern diag(p) + t·J.
    pub fn add(&mut self, c: f64, a: &StructMat) {
        match a {
            StructMat::ScaledIdentity { s, .. } => self.diag.iter_mut().for_each(|v| *v += c * s),
            StructMat::Diagonal(p) => {
                for (v, pi) in self.diag.iter_mut().zip(p) {
                    *v += c * pi;
                }
            }
            StructMat::Rotation { s, .. } => self.rot += c * s,
            StructMat::Dense(m) => match recognize(m) {
                Some((p, t)) => {
                    for (v, pi) in self.diag.iter_mut().zip(&p) {
                        *v += c * pi;
                    }
                    self.rot += c * t;
                }
                None => {
                    let d = self.diag.len();
                    let rest = self.dense.get_or_insert_with(|| Matrix::zeros(d, d));
                    for (r, v) in rest.data.iter_mut().zip(&m.data) {
                        *r += c * v;
                    }
                }
            },
        }
    }

    /// The dense matrix (for checks).
    pub fn to_dense(&self) -> Matrix {
        let d = self.diag.len();
        let mut m = self.dense.clone().unwrap_or_else(|| Matrix::zeros(d, d));
        for i in 0..d {
            m.set(i, i, m.get(i, i) + self.diag[i]);
        }
        if self.rot != 0.0 {
            for k in 0..d / 2 {
                m.set(2 * k, 2 * k + 1, m.get(2 * k, 2 * k + 1) - self.rot);
                m.set(2 * k + 1, 2 * k, m.get(2 * k + 1, 2 * k) + self.rot);
            }
        }
        m
    }

    /// The symmetric part (A + Aᵀ)/2 when it is diagonal (always without a dense rest; with one,
    /// when its off-diagonal symmetric entries are exactly zero), as its diagonal.
    pub fn sym_diagonal(&self) -> Option<Vec<f64>> {
        let Some(m) = &self.dense else {
            return Some(self.diag.clone());
        };
        let d = self.diag.len();
        let mut s = self.diag.clone();
        for (i, si) in s.iter_mut().enumerate() {
            for j in 0..d {
                if i != j && m.get(i, j) + m.get(j, i) != 0.0 {
                    return None;
                }
            }
            *si += m.get(i, i);
        }
        Some(s)
    }

    /// Aᵀ z.
    pub fn apply_t(&self, z: &[f64]) -> Vec<f64> {
        let mut v: Vec<f64> = self.diag.iter().zip(z).map(|(a, b)| a * b).collect();
        if self.rot != 0.0 {
            // Jᵀ = −J: (Jᵀz)_{2k} = z_{2k+1}, (Jᵀz)_{2k+1} = −z_{2k}.
            for k in 0..z.len() / 2 {
                v[2 * k] += self.rot * z[2 * k + 1];
                v[2 * k + 1] -= self.rot * z[2 * k];
            }
        }
        if let Some(m) = &self.dense {
            linalg::axpy(1.0, &m.matvec_t(z), &mut v);
        }
        v
    }

    /// The isotropic–rotation coefficients (a, b) with A = aI + bJ, if A has that form exactly.
    pub fn iso_rot(&self) -> Option<(f64, f64)> {
        if self.dense.is_some() {
            return None;
        }
        let a = *self.diag.first()?;
        self.diag.iter().all(|&v| v == a).then_some((a, self.rot))
    }
}

/// A dense square matrix of the exact pattern diag(p) + t·J (t = 0 allowed; t ≠ 0 needs d even).
fn recognize(m: &Matrix) -> Option<(Vec<f64>, f64)> {
    let d = m.rows;
    if m.cols != d {
        return None;
    }
    let mut t: Option<f64> = None;
    for i in 0..d {
        for j in 0..d {
            if i == j {
                continue;
            }
            let v = m.get(i, j);
            let in_block = i / 2 == j / 2 && d % 2 == 0;
            if !in_block {
                if v != 0.0 {
                    return None;
                }
                continue;
            }
            // (2k, 2k+1) holds −t, (2k+1, 2k) holds t.
            let tij = if i < j { -v } else { v };
            match t {
                None => t = Some(tij),
                Some(t0) if t0 == tij => {}
                _ => return None,
            }
        }
    }
    Some(((0..d).map(|i| m.get(i, i)).collect(), t.unwrap_or(0.0)))
}

/// sup_{z ∈ Z} ‖z − c‖² in closed form: ball (‖center − c‖ + r)², box Σ_i max((lo_i − c_i)²,
/// (hi_i − c_i)²), simplex (vertices) ‖c‖² + 1 − 2 min_i c_i, ℓ1 and ℓ∞ balls (their vertices),
/// products (sum over blocks). `None` for other ℓp balls.
pub fn max_dist_sq(domain: &Domain, c: &[f64]) -> Option<f64> {
    match domain {
        Domain::Ball { center, radius } => {
            let r = linalg::norm2(&linalg::sub(center, c)) + radius;
            Some(r * r)
        }
        Domain::Box { lo, hi } => Some(
            lo.iter()
                .zip(hi)
                .zip(c)
                .map(|((l, h), ci)| ((l - ci) * (l - ci)).max((h - ci) * (h - ci)))
                .sum(),
        ),
        Domain::Simplex { .. } => {
            let mn = c.iter().fold(f64::INFINITY, |m, &v| m.min(v));
            Some(linalg::norm2_sq(c) + 1.0 - 2.0 * mn)
        }
        Domain::LpBall { p, center, radius } if p.is_infinite() => {
            let lo: Vec<f64> = center.iter().map(|v| v - radius).collect();
            let hi: Vec<f64> = center.iter().map(|v| v + radius).collect();
            max_dist_sq(&Domain::Box { lo, hi }, c)
        }
        Domain::LpBall { p, center, radius } if *p == 1.0 => {
            // Vertices center ± r e_i: ‖center − c‖² ± 2r(center − c)_i + r².
            let e = linalg::sub(center, c);
            let base = linalg::norm2_sq(&e) + radius * radius;
            let m = e.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
            Some(base + 2.0 * radius * m)
        }
        Domain::LpBall { .. } => None,
        Domain::Product(blocks) => {
            let mut off = 0;
            let mut s = 0.0;
            for b in blocks {
                let k = b.dim();
                s += max_dist_sq(b, &c[off..off + k])?;
                off += k;
            }
            Some(s)
        }
    }
}

/// The coordinate bounds of a box or a product of boxes (and ℓ∞ balls), else `None`.
pub fn box_bounds(domain: &Domain) -> Option<(Vec<f64>, Vec<f64>)> {
    match domain {
        Domain::Box { lo, hi } => Some((lo.clone(), hi.clone())),
        Domain::LpBall { p, center, radius } if p.is_infinite() => Some((
            center.iter().map(|v| v - radius).collect(),
            center.iter().map(|v| v + radius).collect(),
        )),
        Domain::Product(blocks) => {
            let (mut lo, mut hi) = (Vec::new(), Vec::new());
            for b in blocks {
                let (l, h) = box_bounds(b)?;
                lo.extend(l);
                hi.extend(h);
            }
            Some((lo, hi))
        }
        _ => None,
    }
}
