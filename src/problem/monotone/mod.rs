//! Monotone operators and VI gaps, the SVI counterpart of [`SaddleFn`]
//! (BG23 §2; BGM24's SVI setting). For this foundation: affine operators z ↦ M z + x with data
//! x ∈ ℝ^d, monotone when M + Mᵀ ⪰ 0, and the saddle operator of any [`SaddleFn`].
//!
//! Gap functions of the mean operator Ḡ(z) = Σ_j π_j G(z; x_j) on the domain Z:
//! * [`MonotoneOp::vi_gap`]: sup_{u∈Z} ⟨Ḡ(u), z − u⟩, the quantity inside BG23's VI gaps
//!   (eq. (1.1), strong: its expectation; eq. (1.2), weak: the expectation over S inside the sup);
//! * [`stampacchia_gap`]: sup_{u∈Z} ⟨Ḡ(z), z − u⟩ = ⟨Ḡ(z), z⟩ + σ_Z(−Ḡ(z)), which is ≥ vi_gap by
//!   monotonicity (⟨Ḡ(u), z − u⟩ ≤ ⟨Ḡ(z), z − u⟩).
//!
//! (BG23's "strong"/"weak" refer to where the expectation over S sits, as for BGM23's saddle
//! gaps; both use the vi_gap integrand. The gaps over an algorithm's weighted outputs are in
//! [`crate::gap::vi`].)
//!
//! Families (every quantity exact where stated):
//! * [`DataAffineOp`]: G(z; x) = (M₀ + Σ_j x_j M_j) z + B x (+ c), each matrix in a structured form
//!   ([`StructMat`]: dense, scaled identity, diagonal, scaled block rotation J), O(d) per sample for
//!   the structured ones; the mean operator is G(·; x̄) exactly (affine in x). RotIso
//!   ([`DataAffineOp::rot_iso`]: M(x) = μ_x I + κ_x J, data x = (μ_x, κ_x, b_x)) and the saddle
//!   operator of [`crate::problem::QuadBilinear`] ([`DataAffineOp::quad_bilinear_saddle`]) are
//!   instances.
//! * [`ConstantOp`]: G(z; β) = mβ (BG23 Prop 12's instance).
//! * [`RegularizedOp`]: F + Σ_k λ_k(· − a_k); [`ClampedOp`]: F∘Π_Z (Lipschitz and bounded on ℝᵈ).
//! * [`AffineOp`] (M z + x) and [`SaddleOperator`] (any [`SaddleFn`]).
//!
//! Derivations: proofs-notes/vi-core.md, "Operators and VI gaps".

mod constant;
mod data_affine;
mod structured;
mod wrappers;

pub use constant::ConstantOp;
pub use data_affine::DataAffineOp;
pub use structured::{box_bounds, max_dist_sq, Canon, DataMap, StructMat};
pub use wrappers::{ClampedOp, RegularizedOp};

use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::problem::saddle::{Mixture, SaddleFn};
use serde::{Deserialize, Serialize};

/// An operator G(z; x) on a domain Z, monotone in z for every data point x.
pub trait MonotoneOp: Sync {
    /// dim Z.
    fn dim(&self) -> usize;
    /// Z.
    fn domain(&self) -> &Domain;
    /// Length of a data point.
    fn point_dim(&self) -> usize;
    /// G(z; x).
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64>;
    /// sup_{u∈Z} ⟨Ḡ(u), z − u⟩ for the mean operator (BG23 eq. (1.1)'s integrand), where closed
    /// form (else `Unsupported`).
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64>;

    /// G(z; x) written into `out` (length [`MonotoneOp::dim`]), with the values of
    /// [`MonotoneOp::eval`]. Families with an allocation-free path override it; the default
    /// copies `eval`.
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.eval(z, x));
    }

    /// `out += s·G(z; x)` coordinatewise (the values of `axpy(s, &self.eval(z, x), out)`), for
    /// minibatch sums with no allocation. Families with an allocation-free path override it.
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        linalg::axpy(s, &self.eval(z, x), out);
    }

    /// `out += Σ_{i∈idx} s·G(z; x_i)` in the order of `idx` (repeats allowed), with x_i the row
    /// `flat[i·k .. (i+1)·k]`: by definition the same bits as successive
    /// [`MonotoneOp::add_scaled`] calls over `idx` (which is the default). Families override it to
    /// share the z-only work across the batch ([`DataAffineOp`] computes its z-products once per
    /// batch); the minibatch path of [`crate::oracle::OpOracle::batch_into`] uses it.
    fn add_batch_scaled(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        out: &mut [f64],
    ) {
        for &i in idx {
            self.add_scaled(z, &flat[i * k..(i + 1) * k], s, out);
        }
    }

    /// As [`MonotoneOp::add_batch_scaled`], with the fixed vector `tail` added after each sample:
    /// for each i in `idx` (in order) `out += s·G(z; x_i)`, then `out_j += tail_j` coordinatewise.
    /// By definition the bits of that loop (the default); wrappers that add the same z-only term
    /// to every sample (a regularizer) use it to keep the inner family's batched path and the
    /// per-sample rounding order.
    #[allow(clippy::too_many_arguments)]
    fn add_batch_scaled_tail(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        tail: &[f64],
        out: &mut [f64],
    ) {
        for &i in idx {
            self.add_scaled(z, &flat[i * k..(i + 1) * k], s, out);
            for (o, t) in out.iter_mut().zip(tail) {
                *o += t;
            }
        }
    }

    /// The constants of the operator class (BG23 §2: L-Lipschitz, bounded by M on Z; D the
    /// diameter of Z; μ the strong-monotonicity modulus) over data points in `support`, exact
    /// where the family allows it, else `Unsupported` (never a guess).
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        let _ = support;
        Err(Error::Unsupported(
            "constants of this operator family".into(),
        ))
    }

    /// The operator as a [`DataAffineOp`] with the same values up to rounding, where it is one
    /// (used by [`RegularizedOp`] to keep its constants and VI gap exact); `None` by default.
    fn affine_form(&self) -> Option<DataAffineOp> {
        None
    }
}

impl<T: MonotoneOp + ?Sized> MonotoneOp for &T {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn domain(&self) -> &Domain {
        (**self).domain()
    }
    fn point_dim(&self) -> usize {
        (**self).point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        (**self).eval(z, x)
    }
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        (**self).vi_gap(data, z)
    }
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        (**self).eval_into(z, x, out)
    }
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        (**self).add_scaled(z, x, s, out)
    }
    fn add_batch_scaled(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        out: &mut [f64],
    ) {
        (**self).add_batch_scaled(z, flat, k, idx, s, out)
    }
    fn add_batch_scaled_tail(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        tail: &[f64],
        out: &mut [f64],
    ) {
        (**self).add_batch_scaled_tail(z, flat, k, idx, s, tail, out)
    }
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        (**self).constants(support)
    }
    fn affine_form(&self) -> Option<DataAffineOp> {
        (**self).affine_form()
    }
}

impl<T: MonotoneOp + ?Sized> MonotoneOp for Box<T> {
    fn dim(&self) -> usize {
        (**self).dim()
    }
    fn domain(&self) -> &Domain {
        (**self).domain()
    }
    fn point_dim(&self) -> usize {
        (**self).point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        (**self).eval(z, x)
    }
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        (**self).vi_gap(data, z)
    }
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        (**self).eval_into(z, x, out)
    }
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        (**self).add_scaled(z, x, s, out)
    }
    fn add_batch_scaled(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        out: &mut [f64],
    ) {
        (**self).add_batch_scaled(z, flat, k, idx, s, out)
    }
    fn add_batch_scaled_tail(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        tail: &[f64],
        out: &mut [f64],
    ) {
        (**self).add_batch_scaled_tail(z, flat, k, idx, s, tail, out)
    }
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        (**self).constants(support)
    }
    fn affine_form(&self) -> Option<DataAffineOp> {
        (**self).affine_form()
    }
}

/// A scratch vector of length n from a per-thread pool (no allocation once warm), for the
/// wrappers whose allocation-free paths need an intermediate vector.
pub(crate) fn with_scratch<R>(n: usize, f: impl FnOnce(&mut [f64]) -> R) -> R {
    use std::cell::RefCell;
    thread_local! {
        static POOL: RefCell<Vec<Vec<f64>>> = const { RefCell::new(Vec::new()) };
    }
    let mut buf = POOL.with(|p| p.borrow_mut().pop()).unwrap_or_default();
    buf.clear();
    buf.resize(n, 0.0);
    let r = f(&mut buf);
    POOL.with(|p| p.borrow_mut().push(buf));
    r
}

/// The closed-form sup_{u∈Z} ⟨Ḡ(u), z − u⟩ for an affine mean operator Ḡ(u) = A u + q with A in
/// canonical form ([`Canon`]): with S = (A + Aᵀ)/2, ⟨Au + q, z − u⟩ = −uᵀSu + ⟨Aᵀz − q, u⟩ +
/// ⟨q, z⟩, a concave quadratic in u. Closed form when S = μI (any projectable Z: the projection
/// of v/(2μ), v = Aᵀz − q, or the LMO of v when μ = 0) or S = diag(s) on a box (coordinatewise:
/// clamp(v_i/(2s_i)) or the endpoint of the sign of v_i when s_i = 0); `Unsupported` otherwise.
/// The value is ⟨Ḡ(u*), z − u*⟩ with Ḡ evaluated by `mean_at`.
pub fn affine_vi_gap(
    domain: &Domain,
    a: &Canon,
    q: &[f64],
    z: &[f64],
    mean_at: impl Fn(&[f64]) -> Vec<f64>,
) -> Result<f64> {
    let s = a.sym_diagonal().ok_or_else(|| {
        Error::Unsupported(
            "VI gap in closed form: the symmetric part of the mean operator is not diagonal".into(),
        )
    })?;
    if s.iter().any(|&v| v < 0.0 || v.is_nan()) {
        return Err(invalid(
            "operator",
            "is not monotone (the symmetric part of the mean operator has a negative entry)",
        ));
    }
    let mut v = a.apply_t(z);
    linalg::axpy(-1.0, q, &mut v);
    let mu = s[0];
    let u = if s.iter().all(|&si| si == mu) {
        if mu > 0.0 {
            domain.project(&linalg::scale(1.0 / (2.0 * mu), &v))
        } else {
            domain.lmo(&v)
        }
    } else if let Some((lo, hi)) = box_bounds(domain) {
        (0..v.len())
            .map(|i| {
                if s[i] > 0.0 {
                    (v[i] / (2.0 * s[i])).clamp(lo[i], hi[i])
                } else if v[i] > 0.0 {
                    hi[i]
                } else {
                    lo[i]
                }
            })
            .collect()
    } else {
        return Err(Error::Unsupported(
            "VI gap in closed form: a diagonal, non-isotropic symmetric part needs a box domain"
                .into(),
        ));
    };
    let gu = mean_at(&u);
    Ok(linalg::dot(&gu, &linalg::sub(z, &u)))
}

/// The constants of an operator class over a set of data points (BG23 §2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpConstants {
    /// L: ‖G(z; x) − G(z′; x)‖ ≤ L‖z − z′‖ for all z, z′ ∈ Z and every x of the support.
    pub lipschitz: f64,
    /// M = sup over z ∈ Z and x of the support of ‖G(z; x)‖.
    pub bound: f64,
    /// D = max_{z, z′ ∈ Z} ‖z − z′‖.
    pub diameter: f64,
    /// μ ≥ 0 with ⟨G(z; x) − G(z′; x), z − z′⟩ ≥ μ‖z − z′‖² for every x (0: merely monotone).
    pub modulus: f64,
}

/// Ḡ(z) = Σ_j π_j G(z; x_j), in index order.
pub fn mean_operator(op: &dyn MonotoneOp, data: &Mixture, z: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; z.len()];
    for (x, p) in data.points.iter().zip(&data.weights) {
        linalg::axpy(*p, &op.eval(z, x), &mut g);
    }
    g
}

/// sup_{u∈Z} ⟨Ḡ(z), z − u⟩ = ⟨Ḡ(z), z⟩ + σ_Z(−Ḡ(z)) (≥ [`MonotoneOp::vi_gap`] for monotone G).
///
/// This is BG23's ν-certificate: z is a ν-approximate strong VI solution of Ḡ on Z in the sense of
/// BG23 eq. (5.1), ⟨Ḡ(z), w − z⟩ ≥ −ν for all w ∈ Z, exactly when ν ≥ stampacchia_gap (it is the
/// smallest such ν). For (5.1)'s subproblem operator F_B + λ_k(· − w_k) pass a
/// [`RegularizedOp`]. See [`nu_certificate`].
pub fn stampacchia_gap(op: &dyn MonotoneOp, data: &Mixture, z: &[f64]) -> f64 {
    let g = mean_operator(op, data, z);
    linalg::dot(&g, z) + op.domain().support(&linalg::scale(-1.0, &g))
}

/// BG23 eq. (5.1)'s certificate: the smallest ν such that ⟨Ḡ(u), w − u⟩ ≥ −ν for every
/// w ∈ Z, i.e. sup_{w∈Z} ⟨Ḡ(u), u − w⟩ (the paper's "ν-approximate
/// strong VI solution"); the same number as [`stampacchia_gap`], under the paper's name. It is
/// ≥ 0 for u ∈ Z (take w = u) and 0 exactly at a strong (Stampacchia) solution.
pub fn nu_certificate(op: &dyn MonotoneOp, data: &Mixture, u: &[f64]) -> f64 {
    stampacchia_gap(op, data, u)
}

/// G(z; x) = M z + x on Z: monotone iff M + Mᵀ ⪰ 0.
#[derive(Clone, Debug, PartialEq)]
pub struct AffineOp {
    /// M (d × d).
    pub m: Matrix,
    /// Z.
    pub domain: Domain,
}

impl AffineOp {
    /// Validate shapes.
    pub fn new(m: Matrix, domain: Domain) -> Result<Self> {
        domain.validate()?;
        if m.rows != domain.dim() || m.cols != domain.dim() {
            return Err(invalid(
                "m",
                format!(
                    "is {}×{}, expected {}×{}",
                    m.rows,
                    m.cols,
                    domain.dim(),
                    domain.dim()
                ),
            ));
        }
        Ok(AffineOp { m, domain })
    }

    /// μ with (M + Mᵀ)/2 = μI, if M's symmetric part is isotropic.
    pub fn isotropic_part(&self) -> Option<f64> {
        let d = self.m.rows;
        let mu = self.m.get(0, 0);
        for i in 0..d {
            for j in 0..d {
                let s = 0.5 * (self.m.get(i, j) + self.m.get(j, i));
                let want = if i == j { mu } else { 0.0 };
                if s != want {
                    return None;
                }
            }
        }
        Some(mu)
    }
}

impl MonotoneOp for AffineOp {
    fn dim(&self) -> usize {
        self.m.rows
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }
    fn point_dim(&self) -> usize {
        self.m.rows
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        linalg::add(&self.m.matvec(z), x)
    }
    /// With (M + Mᵀ)/2 = μI and q = x̄: ⟨Mu + q, z − u⟩ = −μ‖u‖² + ⟨Mᵀz − q, u⟩ + ⟨q, z⟩, maximized
    /// by the projection of (Mᵀz − q)/(2μ) (μ > 0) or the LMO of Mᵀz − q (μ = 0).
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        let mu = self.isotropic_part().ok_or_else(|| {
            Error::Unsupported("weak VI gap is closed form only for isotropic sym(M)".into())
        })?;
        let q = data.mean();
        let mut v = self.m.matvec_t(z);
        linalg::axpy(-1.0, &q, &mut v);
        let u = if mu > 0.0 {
            self.domain.project(&linalg::scale(1.0 / (2.0 * mu), &v))
        } else if mu == 0.0 {
            self.domain.lmo(&v)
        } else {
            return Err(invalid("m", "is not monotone (negative symmetric part)"));
        };
        let gu = self.eval(&u, &q);
        Ok(linalg::dot(&gu, &linalg::sub(z, &u)))
    }
    /// Those of its [`MonotoneOp::affine_form`] (exact where M is aI + bJ or diagonal, else
    /// `Unsupported`).
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        DataAffineOp::new(
            self.domain.clone(),
            self.m.rows,
            vec![StructMat::Dense(self.m.clone())],
            vec![],
            DataMap::Block {
                offset: 0,
                scale: 1.0,
            },
            None,
        )?
        .constants(support)
    }
    fn affine_form(&self) -> Option<DataAffineOp> {
        DataAffineOp::new(
            self.domain.clone(),
            self.m.rows,
            vec![StructMat::Dense(self.m.clone())],
            vec![],
            DataMap::Block {
                offset: 0,
                scale: 1.0,
            },
            None,
        )
        .ok()
    }
}

/// The saddle operator g = [∇_w f, −∇_θ f] of a [`SaddleFn`] as a monotone operator on W×Θ
/// (BGM23 §2, "Saddle Operator"). Its VI gap is not closed form in general (`Unsupported`); the saddle gap Ĝap
/// bounds it from above.
pub struct SaddleOperator<'a> {
    f: &'a dyn SaddleFn,
    domain: Domain,
}

impl<'a> SaddleOperator<'a> {
    /// The saddle operator of `f` on W×Θ.
    pub fn new(f: &'a dyn SaddleFn) -> Self {
        SaddleOperator {
            f,
            domain: Domain::Product(vec![f.domain_w().clone(), f.domain_theta().clone()]),
        }
    }
}

impl MonotoneOp for SaddleOperator<'_> {
    fn dim(&self) -> usize {
        self.f.dim_w() + self.f.dim_theta()
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }
    fn point_dim(&self) -> usize {
        self.f.point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        let (w, t) = linalg::split(z, self.f.dim_w());
        let (gw, gt) = self.f.grad(&w, &t, x);
        linalg::concat(&gw, &linalg::scale(-1.0, &gt))
    }
    fn vi_gap(&self, _data: &Mixture, _z: &[f64]) -> Result<f64> {
        Err(Error::Unsupported(
            "the VI gap of a general saddle operator".into(),
        ))
    }
}
