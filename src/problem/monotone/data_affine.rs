//! The data-affine operator family G(z; x) = (M₀ + Σ_j x_j M_j) z + B x + c (BG23 §2's operator
//! class with every quantity exact; issue plan "C2").
//!
//! Because G is affine in x, the mean operator of a mixture is Ḡ = G(·; x̄) with x̄ the mixture's
//! mean: the population operator F_P, the empirical F_S and a batch's F_B are one evaluation each.

use super::structured::{box_bounds, max_dist_sq, Canon, DataMap, StructMat};
use super::{affine_vi_gap, MonotoneOp, OpConstants};
use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::problem::saddle::Mixture;
use crate::problem::{QuadBilinear, SaddleFn};
use serde::{Deserialize, Serialize};

/// Rows evaluated per block of the allocation-free path (even, so rotation pairs never split).
const CHUNK: usize = 128;

/// Data-scaled parts the fused batch kernel handles (RotIso has 2).
const MAX_FUSED: usize = 4;

/// G(z; x) = (Σ_k M₀_k + Σ_j x_j M_j) z + B x + c on a domain Z ⊂ ℝᵈ, data x ∈ ℝᵏ.
///
/// Evaluation order (every path, so `eval`, `eval_into` and `add_scaled` agree bit for bit):
/// coordinate i is g_i = (M₀_1 z)_i, then `+= 1·(M₀_k z)_i` for the further fixed parts,
/// then `+= x_j·(M_j z)_i` in the order of `linear`, then `+= (B x)_i`, then `+= c_i`
/// (starting from 0.0 when there is no fixed part).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataAffineOp {
    domain: Domain,
    point_dim: usize,
    fixed: Vec<StructMat>,
    linear: Vec<(usize, StructMat)>,
    b_map: DataMap,
    shift: Option<Vec<f64>>,
}

impl DataAffineOp {
    /// The general constructor: Z, the data length k, the fixed parts M₀ (summed), the data-scaled
    /// parts (j, M_j) (j < k), the data map B and an optional constant c. Validates every shape.
    pub fn new(
        domain: Domain,
        point_dim: usize,
        fixed: Vec<StructMat>,
        linear: Vec<(usize, StructMat)>,
        b_map: DataMap,
        shift: Option<Vec<f64>>,
    ) -> Result<Self> {
        domain.validate()?;
        let d = domain.dim();
        for (k, m) in fixed.iter().enumerate() {
            m.validate(&format!("fixed[{k}]"), d)?;
        }
        for (k, (j, m)) in linear.iter().enumerate() {
            if *j >= point_dim {
                return Err(invalid(
                    format!("linear[{k}]"),
                    format!("scales by x[{j}] but data points have length {point_dim}"),
                ));
            }
            m.validate(&format!("linear[{k}]"), d)?;
        }
        b_map.validate("b_map", d, point_dim)?;
        if let Some(c) = &shift {
            if c.len() != d {
                return Err(invalid(
                    "shift",
                    format!("has length {}, expected {d}", c.len()),
                ));
            }
            crate::error::require_finite("shift", c)?;
        }
        Ok(DataAffineOp {
            domain,
            point_dim,
            fixed,
            linear,
            b_map,
            shift,
        })
    }

    /// RotIso on Z (issue plan §3 "RotIso-VI"): G(z; x) = (μ_x I + κ_x J) z + b_x with data
    /// x = (μ_x, κ_x, b_x) ∈ ℝ^{2+d} (d = dim Z even), validated on `support`: every atom has
    /// μ_x ≥ 0 (the symmetric part μ_x I ⪰ 0: monotone), finite entries and length d + 2.
    /// L = max √(μ² + κ²), M and the VI gap are closed form on balls and boxes; rotations
    /// (μ = 0) are monotone, not strongly.
    pub fn rot_iso(domain: Domain, support: &[Vec<f64>]) -> Result<Self> {
        let d = domain.dim();
        if d % 2 != 0 {
            return Err(invalid(
                "domain",
                format!("RotIso needs an even dimension, got {d}"),
            ));
        }
        let op = Self::new(
            domain,
            d + 2,
            vec![],
            vec![
                (0, StructMat::ScaledIdentity { dim: d, s: 1.0 }),
                (1, StructMat::Rotation { dim: d, s: 1.0 }),
            ],
            DataMap::Block {
                offset: 2,
                scale: 1.0,
            },
            None,
        )?;
        op.check_support(support)?;
        Ok(op)
    }

    /// RotIso on the Euclidean ball B(center, radius).
    pub fn rot_iso_ball(center: Vec<f64>, radius: f64, support: &[Vec<f64>]) -> Result<Self> {
        Self::rot_iso(Domain::ball(center, radius)?, support)
    }

    /// RotIso on the box [lo, hi].
    pub fn rot_iso_box(lo: Vec<f64>, hi: Vec<f64>, support: &[Vec<f64>]) -> Result<Self> {
        Self::rot_iso(Domain::new_box(lo, hi)?, support)
    }

    /// The RotIso data point x = (μ, κ, b).
    pub fn rot_iso_atom(mu: f64, kappa: f64, b: &[f64]) -> Vec<f64> {
        let mut x = vec![mu, kappa];
        x.extend_from_slice(b);
        x
    }

    /// A diagonal data-affine family on Z: G(z; x) = diag(h) z + x (data x ∈ ℝᵈ a shift), h ≥ 0:
    /// the symmetric part diag(h) makes the VI gap closed form on boxes only.
    pub fn diagonal_shift(domain: Domain, h: Vec<f64>) -> Result<Self> {
        let d = domain.dim();
        if h.iter().any(|&v| !(v.is_finite() && v >= 0.0)) {
            return Err(invalid("h", "must be finite and ≥ 0 (monotone)"));
        }
        Self::new(
            domain,
            d,
            vec![StructMat::Diagonal(h)],
            vec![],
            DataMap::Block {
                offset: 0,
                scale: 1.0,
            },
            None,
        )
    }

    /// The saddle operator g = (∇_w f, −∇_θ f) of a [`QuadBilinear`] on W×Θ as a data-affine
    /// operator: M₀ = [[αI, C], [−Cᵀ, γI]], B = [A; B] (a block selector for the data-affine
    /// layout). The same operator as [`super::SaddleOperator`] of `f`, values equal up to
    /// rounding; with α = γ its symmetric part is αI and the VI gap is closed form on any domain
    /// pair, and on boxes for any α, γ.
    pub fn quad_bilinear_saddle(f: &QuadBilinear) -> Result<Self> {
        let (dw, dt) = (f.dim_w(), f.dim_theta());
        let d = dw + dt;
        let k = f.point_dim();
        let mut m = Matrix::zeros(d, d);
        for i in 0..dw {
            m.set(i, i, f.alpha);
            for j in 0..dt {
                m.set(i, dw + j, f.coupling.get(i, j));
                m.set(dw + j, i, -f.coupling.get(i, j));
            }
        }
        for j in 0..dt {
            m.set(dw + j, dw + j, f.gamma);
        }
        let mut b = Matrix::zeros(d, k);
        for i in 0..dw {
            b.data[i * k..(i + 1) * k].copy_from_slice(f.a_map.row(i));
        }
        for j in 0..dt {
            b.data[(dw + j) * k..(dw + j + 1) * k].copy_from_slice(f.b_map.row(j));
        }
        let b_map = if k == d && b == Matrix::identity(d) {
            DataMap::Block {
                offset: 0,
                scale: 1.0,
            }
        } else {
            DataMap::Dense(b)
        };
        Self::new(
            Domain::Product(vec![f.domain_w().clone(), f.domain_theta().clone()]),
            k,
            vec![StructMat::Dense(m)],
            vec![],
            b_map,
            None,
        )
    }

    /// F + Σ_k λ_k(· − a_k) as a data-affine operator: the fixed part gains (Σλ_k)I and the
    /// constant −Σ_k λ_k a_k (values equal to [`super::RegularizedOp`]'s up to rounding).
    pub fn regularized(&self, terms: &[(f64, Vec<f64>)]) -> Result<Self> {
        let d = self.dim();
        super::wrappers::validate_terms(terms, d)?;
        let lam: f64 = terms.iter().map(|t| t.0).sum();
        let mut c = self.shift.clone().unwrap_or_else(|| vec![0.0; d]);
        for (l, a) in terms {
            linalg::axpy(-l, a, &mut c);
        }
        let mut fixed = self.fixed.clone();
        fixed.push(StructMat::ScaledIdentity { dim: d, s: lam });
        Self::new(
            self.domain.clone(),
            self.point_dim,
            fixed,
            self.linear.clone(),
            self.b_map.clone(),
            Some(c),
        )
    }

    /// The linear part M(x) = M₀ + Σ_j x_j M_j in canonical form.
    pub fn canon_at(&self, x: &[f64]) -> Canon {
        let mut c = Canon::zero(self.dim());
        for m in &self.fixed {
            c.add(1.0, m);
        }
        for (j, m) in &self.linear {
            c.add(x[*j], m);
        }
        c
    }

    /// The offset q(x) = B x + c.
    pub fn offset_at(&self, x: &[f64]) -> Vec<f64> {
        let mut q = self.b_map.apply(x, self.dim());
        if let Some(c) = &self.shift {
            linalg::axpy(1.0, c, &mut q);
        }
        q
    }

    /// Check data points: length k, finite, and monotone at each (symmetric part of M(x) ⪰ 0:
    /// exact for the structured forms, whose symmetric part is diagonal; by the smallest Jacobi
    /// eigenvalue, to −1e-12·(1 + max|entry|), for a dense rest).
    pub fn check_support(&self, support: &[Vec<f64>]) -> Result<()> {
        if support.is_empty() {
            return Err(invalid("support", "needs at least one data point"));
        }
        for (i, x) in support.iter().enumerate() {
            let field = format!("support[{i}]");
            if x.len() != self.point_dim {
                return Err(invalid(
                    &field,
                    format!("has length {}, expected {}", x.len(), self.point_dim),
                ));
            }
            crate::error::require_finite(&field, x)?;
            let c = self.canon_at(x);
            let min_eig = match c.sym_diagonal() {
                Some(s) => s.iter().fold(f64::INFINITY, |m, &v| m.min(v)),
                None => {
                    let m = c.to_dense();
                    let d = m.rows;
                    let mut s = Matrix::zeros(d, d);
                    let mut scale = 1.0_f64;
                    for a in 0..d {
                        for b in 0..d {
                            let v = 0.5 * (m.get(a, b) + m.get(b, a));
                            scale = scale.max(v.abs());
                            s.set(a, b, v);
                        }
                    }
                    let e = s.sym_eigenvalues()?;
                    let mn = e.iter().fold(f64::INFINITY, |m, &v| m.min(v));
                    if mn >= -1e-12 * scale {
                        0.0_f64.max(mn)
                    } else {
                        mn
                    }
                }
            };
            if min_eig.is_nan() || min_eig < 0.0 {
                return Err(invalid(
                    &field,
                    format!(
                        "makes the operator non-monotone (smallest eigenvalue of the symmetric part {min_eig})"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// out += Σ_m s·G(z; row(m)) over m = 0..count, in order. Per chunk of [`CHUNK`] rows: the fixed sum
    /// F = M₀_1 z (+ 1·M₀_k z …) (0.0 without a fixed part) and the products P_j = M_j z are
    /// computed once; then for each sample and coordinate, g = F_i, g += x_j·P_{j,i} in the order
    /// of `linear`, g += (Bx)_i, g += c_i, out_i += s·g: exactly the operations (and roundings)
    /// of [`DataAffineOp::eval_rows`] followed by `out_i += s·g`, in the same order per coordinate.
    /// An absent term is added as −0.0 (x + (−0.0) = x for every x, signed zeros included), and a
    /// dense data map's (Bx)_i enters as 1·(Bx)_i (exact). More than [`MAX_FUSED`] data-scaled
    /// parts take the per-sample path.
    fn add_rows_scaled<'x>(
        &self,
        z: &[f64],
        count: usize,
        row: impl Fn(usize) -> &'x [f64],
        s: f64,
        tail: Option<&[f64]>,
        out: &mut [f64],
    ) {
        match self.linear.len() {
            0 => self.fused::<0, _>(z, count, row, s, tail, out),
            1 => self.fused::<1, _>(z, count, row, s, tail, out),
            2 => self.fused::<2, _>(z, count, row, s, tail, out),
            3 => self.fused::<3, _>(z, count, row, s, tail, out),
            4 => self.fused::<4, _>(z, count, row, s, tail, out),
            n => {
                debug_assert!(n > MAX_FUSED);
                let d = self.dim();
                let mut buf = [0.0; CHUNK];
                for m in 0..count {
                    let x = row(m);
                    let mut r0 = 0;
                    while r0 < d {
                        let r1 = (r0 + CHUNK).min(d);
                        let b = &mut buf[..r1 - r0];
                        self.eval_rows(z, x, r0, b);
                        for (o, g) in out[r0..r1].iter_mut().zip(b.iter()) {
                            *o += s * g;
                        }
                        r0 = r1;
                    }
                    if let Some(t) = tail {
                        for (o, ti) in out.iter_mut().zip(t) {
                            *o += ti;
                        }
                    }
                }
            }
        }
    }

    /// [`DataAffineOp::add_rows_scaled`] with L = `linear.len()` data-scaled parts. On x86-64
    /// CPUs with AVX2 (detected at run time) the same code is compiled for 256-bit vectors:
    /// every operation is the same IEEE-754 multiply or add of the same operands in the same order
    /// per coordinate (no fused multiply–add is ever formed), so both paths give the same bits.
    fn fused<'x, const L: usize, R: Fn(usize) -> &'x [f64]>(
        &self,
        z: &[f64],
        count: usize,
        row: R,
        s: f64,
        tail: Option<&[f64]>,
        out: &mut [f64],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: `fused_avx512` only requires the AVX-512F instructions, which the CPU
                // has just been detected to support; it is otherwise safe code (`fused_body`).
                #[allow(unsafe_code)]
                unsafe {
                    return self.fused_avx512::<L, R>(z, count, row, s, tail, out);
                }
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: `fused_avx2` only requires the AVX2 instructions, which the CPU has
                // just been detected to support; it is otherwise safe code (`fused_body`).
                #[allow(unsafe_code)]
                unsafe {
                    return self.fused_avx2::<L, R>(z, count, row, s, tail, out);
                }
            }
        }
        self.fused_body::<L, R, 8>(z, count, row, s, tail, out)
    }

    /// [`DataAffineOp::fused_body`] compiled with AVX-512F enabled (tiles of 32 coordinates:
    /// four 512-bit registers per running array).
    ///
    /// # Safety
    /// The CPU must support AVX-512F.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    #[target_feature(enable = "avx512f")]
    unsafe fn fused_avx512<'x, const L: usize, R: Fn(usize) -> &'x [f64]>(
        &self,
        z: &[f64],
        count: usize,
        row: R,
        s: f64,
        tail: Option<&[f64]>,
        out: &mut [f64],
    ) {
        self.fused_body::<L, R, 32>(z, count, row, s, tail, out)
    }

    /// [`DataAffineOp::fused_body`] compiled with AVX2 enabled (tiles of 16 coordinates).
    ///
    /// # Safety
    /// The CPU must support AVX2.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    #[target_feature(enable = "avx2")]
    unsafe fn fused_avx2<'x, const L: usize, R: Fn(usize) -> &'x [f64]>(
        &self,
        z: &[f64],
        count: usize,
        row: R,
        s: f64,
        tail: Option<&[f64]>,
        out: &mut [f64],
    ) {
        self.fused_body::<L, R, 16>(z, count, row, s, tail, out)
    }

    /// The kernel, with the O(d) data maps swept in tiles of W coordinates ([`Sweep`]).
    #[inline(always)]
    fn fused_body<'x, const L: usize, R: Fn(usize) -> &'x [f64], const W: usize>(
        &self,
        z: &[f64],
        count: usize,
        row: R,
        s: f64,
        tail: Option<&[f64]>,
        out: &mut [f64],
    ) {
        let d = self.dim();
        let mut base = [0.0; CHUNK];
        let mut prod = [[0.0; CHUNK]; L];
        let mut bx = [0.0; CHUNK];
        let mut js = [0usize; L];
        for (jm, (j, _)) in js.iter_mut().zip(&self.linear) {
            *jm = *j;
        }
        let mut r0 = 0;
        while r0 < d {
            let r1 = (r0 + CHUNK).min(d);
            let c = r1 - r0;
            let base = &mut base[..c];
            match self.fixed.split_first() {
                Some((m, rest)) => {
                    m.rows_into(z, r0, base);
                    for m in rest {
                        m.rows_axpy(1.0, z, r0, base);
                    }
                }
                None => base.iter_mut().for_each(|v| *v = 0.0),
            }
            for (p, (_, m)) in prod.iter_mut().zip(&self.linear) {
                m.rows_into(z, r0, &mut p[..c]);
            }
            let shift: Option<&[f64]> = self.shift.as_deref().map(|sh| &sh[r0..r1]);
            let prod: [&[f64]; L] = std::array::from_fn(|q| &prod[q][..c]);
            let o = &mut out[r0..r1];
            let tail = tail.map(|t| &t[r0..r1]);
            if let DataMap::Dense(bm) = &self.b_map {
                // O(d·k) per sample for (Bx)_i: one sample at a time over the whole chunk.
                for m in 0..count {
                    let x = row(m);
                    if m + 1 < count {
                        prefetch(row(m + 1));
                    }
                    let coef: [f64; L] = std::array::from_fn(|q| x[js[q]]);
                    for (t, v) in bx[..c].iter_mut().enumerate() {
                        *v = linalg::dot(bm.row(r0 + t), x);
                    }
                    let data = &bx[..c];
                    match shift {
                        None => accumulate::<L, 1, false>(o, base, &prod, &coef, data, 1.0, &[], s),
                        Some(c) => accumulate::<L, 1, true>(o, base, &prod, &coef, data, 1.0, c, s),
                    }
                    if let Some(t) = tail {
                        for (ov, tv) in o.iter_mut().zip(t) {
                            *ov += tv;
                        }
                    }
                }
            } else {
                // The data term (Bx)_i: absent (x + (−0.0) = x, so skipping it is exact),
                // unscaled (1·v = v exactly), or scaled; x[off + t] is (Bx)_{r0+t}.
                let (off, scale) = match &self.b_map {
                    DataMap::Block { offset, scale } => {
                        (offset + r0, (*scale != 1.0).then_some(*scale))
                    }
                    _ => (0, None),
                };
                let data = !matches!(self.b_map, DataMap::Zero);
                let sw = Sweep {
                    base,
                    prod: &prod,
                    js: &js,
                    off,
                    s,
                    tail,
                };
                match (data, scale, shift) {
                    (false, _, None) => sw.run::<0, false, W>(o, count, &row, 1.0, &[]),
                    (false, _, Some(c)) => sw.run::<0, true, W>(o, count, &row, 1.0, c),
                    (true, None, None) => sw.run::<1, false, W>(o, count, &row, 1.0, &[]),
                    (true, None, Some(c)) => sw.run::<1, true, W>(o, count, &row, 1.0, c),
                    (true, Some(a), None) => sw.run::<2, false, W>(o, count, &row, a, &[]),
                    (true, Some(a), Some(c)) => sw.run::<2, true, W>(o, count, &row, a, c),
                }
            }
            r0 = r1;
        }
    }

    /// g_i for i in r0..r0 + buf.len() (the documented order).
    #[inline]
    fn eval_rows(&self, z: &[f64], x: &[f64], r0: usize, buf: &mut [f64]) {
        match self.fixed.split_first() {
            Some((m, rest)) => {
                m.rows_into(z, r0, buf);
                for m in rest {
                    m.rows_axpy(1.0, z, r0, buf);
                }
            }
            None => buf.iter_mut().for_each(|v| *v = 0.0),
        }
        for (j, m) in &self.linear {
            m.rows_axpy(x[*j], z, r0, buf);
        }
        self.b_map.rows_add(x, r0, buf);
        if let Some(c) = &self.shift {
            for (o, ci) in buf.iter_mut().zip(&c[r0..]) {
                *o += ci;
            }
        }
    }
}

/// A hint to the CPU to bring the cache lines of `v` closer (x86-64 `prefetcht0`, one per 64-byte
/// line); no effect on any value, and nothing elsewhere.
#[inline(always)]
fn prefetch(v: &[f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for line in v.chunks(8) {
            // SAFETY: a prefetch never faults and changes no architectural state; SSE, which
            // provides it, is part of the x86-64 baseline.
            #[allow(unsafe_code)]
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(line.as_ptr().cast());
            }
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = v;
}

/// One chunk's pass over a batch for the O(d) data maps (absent, or a block of x). The chunk's
/// coordinates go in tiles of W; a tile's running sums o_t stay in registers across the whole
/// batch, and each row contributes its W data entries and its L coefficients. Per coordinate
/// the operations, operands and order are exactly those of [`accumulate`], sample after sample
/// (each followed by o_t += tail_t), so the bits are the same as one sample at a time; only the
/// loop order across coordinates changes. What is left after the tiles of W goes in tiles of 8
/// and 4, and the last c mod 4 coordinates one sample at a time ([`Sweep::ladder`]).
struct Sweep<'a, const L: usize> {
    base: &'a [f64],
    prod: &'a [&'a [f64]; L],
    js: &'a [usize; L],
    /// Where the chunk's data term starts in a row (`offset + r0`; unused without one).
    off: usize,
    s: f64,
    tail: Option<&'a [f64]>,
}

impl<const L: usize> Sweep<'_, L> {
    #[inline(always)]
    fn run<'x, const DATA: u8, const SHIFTED: bool, const W: usize>(
        &self,
        o: &mut [f64],
        count: usize,
        row: &impl Fn(usize) -> &'x [f64],
        scale: f64,
        shift: &[f64],
    ) {
        match self.tail {
            None => self.ladder::<DATA, SHIFTED, false, W>(o, count, row, scale, shift, &[]),
            Some(t) => self.ladder::<DATA, SHIFTED, true, W>(o, count, row, scale, shift, t),
        }
    }

    /// Tiles of W, then of 8 and of 4 (so d = 100 at W = 32 is 3·32 + 4, no coordinate left
    /// over), then one sample at a time for the last c mod 4.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn ladder<'x, const DATA: u8, const SHIFTED: bool, const TAILED: bool, const W: usize>(
        &self,
        o: &mut [f64],
        count: usize,
        row: &impl Fn(usize) -> &'x [f64],
        scale: f64,
        shift: &[f64],
        tail: &[f64],
    ) {
        let t0 = self.tiles::<DATA, SHIFTED, TAILED, W>(0, o, count, row, scale, shift, tail);
        let t0 = self.tiles::<DATA, SHIFTED, TAILED, 8>(t0, o, count, row, scale, shift, tail);
        let t0 = self.tiles::<DATA, SHIFTED, TAILED, 4>(t0, o, count, row, scale, shift, tail);
        self.rest::<DATA, SHIFTED, TAILED>(t0, o, count, row, scale, shift, tail);
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
    /// Full tiles of W coordinates from t0 on; returns where they end.
    fn tiles<'x, const DATA: u8, const SHIFTED: bool, const TAILED: bool, const W: usize>(
        &self,
        mut t0: usize,
        o: &mut [f64],
        count: usize,
        row: &impl Fn(usize) -> &'x [f64],
        scale: f64,
        shift: &[f64],
        tail: &[f64],
    ) -> usize {
        let c = o.len();
        let tile = |v: &[f64], t0: usize| -> [f64; W] { std::array::from_fn(|t| v[t0 + t]) };
        while t0 + W <= c {
            let base = tile(self.base, t0);
            let prod: [[f64; W]; L] = std::array::from_fn(|q| tile(self.prod[q], t0));
            let shift = if SHIFTED { tile(shift, t0) } else { [0.0; W] };
            let tail = if TAILED { tile(tail, t0) } else { [0.0; W] };
            let mut acc = tile(o, t0);
            for m in 0..count {
                let x = row(m);
                let coef: [f64; L] = std::array::from_fn(|q| x[self.js[q]]);
                let data: &[f64] = if DATA > 0 {
                    &x[self.off + t0..self.off + t0 + W]
                } else {
                    &base
                };
                for t in 0..W {
                    let mut g = base[t];
                    for q in 0..L {
                        g += coef[q] * prod[q][t];
                    }
                    if DATA == 1 {
                        g += data[t];
                    } else if DATA == 2 {
                        g += scale * data[t];
                    }
                    if SHIFTED {
                        g += shift[t];
                    }
                    acc[t] += self.s * g;
                    if TAILED {
                        acc[t] += tail[t];
                    }
                }
            }
            o[t0..t0 + W].copy_from_slice(&acc);
            t0 += W;
        }
        t0
    }

    /// Coordinates t0.. one sample at a time ([`accumulate`], then the tail).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn rest<'x, const DATA: u8, const SHIFTED: bool, const TAILED: bool>(
        &self,
        t0: usize,
        o: &mut [f64],
        count: usize,
        row: &impl Fn(usize) -> &'x [f64],
        scale: f64,
        shift: &[f64],
        tail: &[f64],
    ) {
        let c = o.len();
        if t0 < c {
            let o = &mut o[t0..];
            let base = &self.base[t0..c];
            let prod: [&[f64]; L] = std::array::from_fn(|q| &self.prod[q][t0..c]);
            let shift = if SHIFTED { &shift[t0..c] } else { &[] };
            for m in 0..count {
                let x = row(m);
                let coef: [f64; L] = std::array::from_fn(|q| x[self.js[q]]);
                let data = if DATA > 0 {
                    &x[self.off + t0..self.off + c]
                } else {
                    &[]
                };
                accumulate::<L, DATA, SHIFTED>(o, base, &prod, &coef, data, scale, shift, self.s);
                if TAILED {
                    for (ov, tv) in o.iter_mut().zip(&tail[t0..c]) {
                        *ov += tv;
                    }
                }
            }
        }
    }
}

/// o_t += s·g_t for one sample over one chunk, with g_t = base_t, g_t += coef_q·prod_{q,t} (q in
/// order), then the data term (DATA = 0: none; 1: g_t += data_t; 2: g_t += scale·data_t), then
/// g_t += shift_t when SHIFTED: the documented evaluation order, with the exact no-op terms
/// (x + (−0.0), 1·v) left out.
#[inline(always)]
#[allow(clippy::too_many_arguments, clippy::needless_range_loop)]
fn accumulate<const L: usize, const DATA: u8, const SHIFTED: bool>(
    o: &mut [f64],
    base: &[f64],
    prod: &[&[f64]; L],
    coef: &[f64; L],
    data: &[f64],
    scale: f64,
    shift: &[f64],
    s: f64,
) {
    let c = o.len();
    let base = &base[..c];
    let prod: [&[f64]; L] = std::array::from_fn(|q| &prod[q][..c]);
    let data = if DATA > 0 { &data[..c] } else { base };
    let shift = if SHIFTED { &shift[..c] } else { base };
    for t in 0..c {
        let mut g = base[t];
        for q in 0..L {
            g += coef[q] * prod[q][t];
        }
        if DATA == 1 {
            g += data[t];
        } else if DATA == 2 {
            g += scale * data[t];
        }
        if SHIFTED {
            g += shift[t];
        }
        o[t] += s * g;
    }
}

/// The exact constants of an operator z ↦ A z + q with A = aI + bJ or A diagonal, on Z:
/// (L, M, μ) or `Unsupported`.
fn affine_constants(domain: &Domain, a: &Canon, q: &[f64]) -> Result<(f64, f64, f64)> {
    if let Some((ai, bi)) = a.iso_rot() {
        // ‖(aI + bJ)z + q‖ = s‖z − c‖, s = √(a² + b²), c = −(aI − bJ)q/s² (module structured).
        let s = ai.hypot(bi);
        let bound = if s == 0.0 {
            linalg::norm2(q)
        } else {
            let d = q.len();
            let mut c = vec![0.0; d];
            for i in 0..d {
                c[i] = -ai * q[i];
            }
            if bi != 0.0 {
                // +bJq: (Jq)_{2k} = −q_{2k+1}, (Jq)_{2k+1} = q_{2k}.
                for k in 0..d / 2 {
                    c[2 * k] += bi * -q[2 * k + 1];
                    c[2 * k + 1] += bi * q[2 * k];
                }
            }
            let s2 = s * s;
            c.iter_mut().for_each(|v| *v /= s2);
            let md = max_dist_sq(domain, &c).ok_or_else(|| {
                Error::Unsupported("sup_Z ‖G‖ in closed form on this ℓp ball".into())
            })?;
            s * md.sqrt()
        };
        return Ok((s, bound, ai));
    }
    if a.dense.is_none() && a.rot == 0.0 {
        let l = a.diag.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let mu = a.diag.iter().fold(f64::INFINITY, |m, &v| m.min(v));
        let (lo, hi) = box_bounds(domain).ok_or_else(|| {
            Error::Unsupported(
                "sup_Z ‖G‖ in closed form for a non-isotropic diagonal operator needs a box".into(),
            )
        })?;
        let mut m2 = 0.0;
        for i in 0..q.len() {
            let e1 = a.diag[i] * lo[i] + q[i];
            let e2 = a.diag[i] * hi[i] + q[i];
            m2 += (e1 * e1).max(e2 * e2);
        }
        return Ok((l, m2.sqrt(), mu));
    }
    if a.dense.is_none() {
        // diag(h) + bJ: 2×2 blocks [[h₁, −b], [b, h₂]]; σ_max² = (T + √(T² − 4Δ²))/2 with T the
        // squared Frobenius norm and Δ the determinant; μ = min h (J is skew); on a box the
        // convex ‖Az + q‖² is separable over the blocks, so its max is at one of each block's
        // four vertices.
        let (lo, hi) = box_bounds(domain).ok_or_else(|| {
            Error::Unsupported(
                "sup_Z ‖G‖ in closed form for diag(h) + bJ with h non-isotropic needs a box".into(),
            )
        })?;
        let b = a.rot;
        let (mut l, mut m2) = (0.0_f64, 0.0);
        for k in 0..q.len() / 2 {
            let (h1, h2) = (a.diag[2 * k], a.diag[2 * k + 1]);
            let t = h1 * h1 + h2 * h2 + 2.0 * b * b;
            let det = h1 * h2 + b * b;
            l = l.max(((t + (t * t - 4.0 * det * det).max(0.0).sqrt()) / 2.0).sqrt());
            let mut best = 0.0_f64;
            for z0 in [lo[2 * k], hi[2 * k]] {
                for z1 in [lo[2 * k + 1], hi[2 * k + 1]] {
                    let g0 = h1 * z0 - b * z1 + q[2 * k];
                    let g1 = b * z0 + h2 * z1 + q[2 * k + 1];
                    best = best.max(g0 * g0 + g1 * g1);
                }
            }
            m2 += best;
        }
        let mu = a.diag.iter().fold(f64::INFINITY, |m, &v| m.min(v));
        return Ok((l, m2.sqrt(), mu));
    }
    Err(Error::Unsupported(
        "exact constants of a data-affine operator with a dense linear part (not diag(h) + bJ)"
            .into(),
    ))
}

impl MonotoneOp for DataAffineOp {
    fn dim(&self) -> usize {
        self.domain.dim()
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }
    fn point_dim(&self) -> usize {
        self.point_dim
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.dim()];
        self.eval_into(z, x, &mut out);
        out
    }
    fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        let d = self.dim();
        let mut r0 = 0;
        while r0 < d {
            let r1 = (r0 + CHUNK).min(d);
            self.eval_rows(z, x, r0, &mut out[r0..r1]);
            r0 = r1;
        }
    }
    fn add_scaled(&self, z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        self.add_rows_scaled(z, 1, |_| x, s, None, out);
    }
    /// The z-products (M₀z, M_j z) once per chunk of rows for the whole batch, then each sample's
    /// terms per coordinate in the documented order: the bits of successive `add_scaled` calls.
    fn add_batch_scaled(
        &self,
        z: &[f64],
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        out: &mut [f64],
    ) {
        self.add_rows_scaled(
            z,
            idx.len(),
            |m| &flat[idx[m] * k..(idx[m] + 1) * k],
            s,
            None,
            out,
        );
    }
    /// As `add_batch_scaled`, with `tail` added after each sample inside the fused kernel (the
    /// bits of the per-sample loop of the default).
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
        self.add_rows_scaled(
            z,
            idx.len(),
            |m| &flat[idx[m] * k..(idx[m] + 1) * k],
            s,
            Some(tail),
            out,
        );
    }
    /// Closed form through [`affine_vi_gap`] on Ḡ = G(·; x̄) (affine in x): isotropic symmetric
    /// part on any domain, diagonal on boxes, else `Unsupported`.
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        data.validate("data", self.point_dim)?;
        let xbar = data.mean();
        let a = self.canon_at(&xbar);
        let q = self.offset_at(&xbar);
        affine_vi_gap(&self.domain, &a, &q, z, |u| self.eval(u, &xbar))
    }
    /// Per atom x: with M(x) = aI + bJ, L = √(a² + b²), μ = a and M = √(a² + b²)·sup_Z‖z − c‖
    /// (c = −M(x)⁻¹q(x); ‖q‖ when M(x) = 0), closed form on balls, boxes, simplices, ℓ1/ℓ∞ balls
    /// and products; with M(x) diagonal, L = max|h_i|, μ = min h_i and M by coordinatewise
    /// endpoints on boxes; with M(x) = diag(h) + bJ (e.g. a QuadBilinear saddle operator with
    /// α ≠ γ), per 2×2 block σ_max in closed form and M over each block's four vertices, on
    /// boxes. L, M: max over the support; μ: min; D = diam Z. `Unsupported` for a dense linear
    /// part or another domain; an error for a non-monotone atom.
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        self.check_support(support)?;
        let (mut l, mut m, mut mu) = (0.0_f64, 0.0_f64, f64::INFINITY);
        for x in support {
            let (li, mi, mui) =
                affine_constants(&self.domain, &self.canon_at(x), &self.offset_at(x))?;
            l = l.max(li);
            m = m.max(mi);
            mu = mu.min(mui);
        }
        Ok(OpConstants {
            lipschitz: l,
            bound: m,
            diameter: self.domain.diameter(),
            modulus: mu,
        })
    }
    fn affine_form(&self) -> Option<DataAffineOp> {
        Some(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic values in [−1, 1) with signed zeros mixed in (the edge case of the exact
    /// no-op terms).
    fn vals(seed: u64, len: usize) -> Vec<f64> {
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        (0..len)
            .map(|i| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                match i % 17 {
                    3 => 0.0,
                    11 => -0.0,
                    _ => (s >> 11) as f64 / (1u64 << 52) as f64 - 1.0,
                }
            })
            .collect()
    }

    /// Every fused kernel (L = 0..4; data map absent, unit, scaled, dense; with and without c;
    /// with and without a per-sample tail; one and several chunks, full tiles and remainders)
    /// gives the same bits through the dispatched path and through every path the CPU can run
    /// ([`every_path`]) as successive per-sample evaluations (`eval_into`, out += s·g, out +=
    /// tail).
    #[test]
    fn fused_paths_agree_bit_for_bit() {
        for d in [2usize, 6, 16, 40, 100, 2 * CHUNK + 6] {
            let k = d + 5;
            let rows = vals(d as u64, 7 * k);
            let z = vals(3 + d as u64, d);
            let idx = [4usize, 0, 6, 6, 1, 3, 2, 5, 0];
            for lin in 0..=MAX_FUSED {
                for (mi, b_map) in [
                    DataMap::Zero,
                    DataMap::Block {
                        offset: 5,
                        scale: 1.0,
                    },
                    DataMap::Block {
                        offset: 5,
                        scale: -0.5,
                    },
                    DataMap::Dense(
                        Matrix::from_rows((0..d).map(|i| vals(50 + i as u64, k)).collect())
                            .unwrap(),
                    ),
                ]
                .into_iter()
                .enumerate()
                {
                    for shifted in [false, true] {
                        let fixed = match (lin + mi) % 3 {
                            0 => vec![],
                            1 => vec![StructMat::ScaledIdentity { dim: d, s: 0.5 }],
                            _ => vec![
                                StructMat::Diagonal(vals(9, d)),
                                StructMat::Rotation { dim: d, s: 1.5 },
                            ],
                        };
                        let linear: Vec<(usize, StructMat)> = (0..lin)
                            .map(|q| {
                                let m = if q % 2 == 0 {
                                    StructMat::ScaledIdentity { dim: d, s: 1.0 }
                                } else {
                                    StructMat::Rotation { dim: d, s: -0.25 }
                                };
                                (q, m)
                            })
                            .collect();
                        let shift = shifted.then(|| vals(77, d));
                        let op = DataAffineOp::new(
                            Domain::ball(vec![0.0; d], 1.0).unwrap(),
                            k,
                            fixed,
                            linear,
                            b_map.clone(),
                            shift,
                        )
                        .unwrap();
                        let row = |m: usize| &rows[idx[m] * k..(idx[m] + 1) * k];
                        let start = vals(99, d);
                        let tail_v = vals(123, d);
                        for tail in [None, Some(&tail_v[..])] {
                            let mut dispatched = start.clone();
                            op.add_rows_scaled(&z, idx.len(), row, 0.3, tail, &mut dispatched);
                            let paths = match lin {
                                0 => every_path::<0>(&op, &z, idx.len(), row, tail, &start),
                                1 => every_path::<1>(&op, &z, idx.len(), row, tail, &start),
                                2 => every_path::<2>(&op, &z, idx.len(), row, tail, &start),
                                3 => every_path::<3>(&op, &z, idx.len(), row, tail, &start),
                                _ => every_path::<4>(&op, &z, idx.len(), row, tail, &start),
                            };
                            let mut serial = start.clone();
                            let mut g = vec![0.0; d];
                            for m in 0..idx.len() {
                                // The per-sample evaluation (`eval_rows`, not the fused kernel).
                                op.eval_into(&z, row(m), &mut g);
                                for (o, gi) in serial.iter_mut().zip(&g) {
                                    *o += 0.3 * gi;
                                }
                                if let Some(t) = tail {
                                    for (o, ti) in serial.iter_mut().zip(t) {
                                        *o += ti;
                                    }
                                }
                            }
                            let bits =
                                |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                            let what = format!(
                                "d {d} L {lin} map {mi} c {shifted} tail {}",
                                tail.is_some()
                            );
                            assert_eq!(bits(&dispatched), bits(&serial), "{what} dispatched");
                            for (name, v) in &paths {
                                assert_eq!(bits(v), bits(&serial), "{what} {name}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// `Sweep::tiles` at width W with the data term scaled by −1/2, c and a tail, over the nine
    /// rows of 140 entries in `rows`.
    fn stage<const W: usize>(
        sw: &Sweep<'_, 2>,
        t0: usize,
        o: &mut [f64],
        rows: &[f64],
        shift: &[f64],
        tail: &[f64],
    ) -> usize {
        let row = |m: usize| &rows[m * 140..(m + 1) * 140];
        sw.tiles::<2, true, true, W>(t0, o, 9, &row, -0.5, shift, tail)
    }

    /// What each stage of [`Sweep`] does on its own: `tiles::<W>` from t0 covers exactly the
    /// full tiles of W that fit (it returns t0 + W·⌊(c − t0)/W⌋), gives there the bits of one
    /// sample at a time ([`accumulate`], then the tail), and leaves every other coordinate as it
    /// was. Without this a tile stage that did nothing would go unseen: the one-at-a-time
    /// remainder would take over every coordinate with the same bits, only slower.
    #[test]
    fn each_tile_stage_covers_exactly_its_tiles() {
        let rows = vals(5, 9 * 140);
        let row = |m: usize| &rows[m * 140..(m + 1) * 140];
        for c in [3usize, 4, 9, 37, 100, 128] {
            let base = vals(1, c);
            let p0 = vals(2, c);
            let p1 = vals(3, c);
            let prod = [&p0[..], &p1[..]];
            let js = [0usize, 7];
            let shift = vals(4, c);
            let tail = vals(6, c);
            let sw = Sweep {
                base: &base,
                prod: &prod,
                js: &js,
                off: 9,
                s: 0.3,
                tail: Some(&tail),
            };
            for t0 in [0usize, 1, c / 2] {
                let start = vals(8, c);
                // Reference for every coordinate: one sample at a time, then the tail.
                let mut serial = start.clone();
                for m in 0..9 {
                    let x = row(m);
                    let coef = [x[0], x[7]];
                    accumulate::<2, 2, true>(
                        &mut serial,
                        &base,
                        &prod,
                        &coef,
                        &x[9..9 + c],
                        -0.5,
                        &shift,
                        0.3,
                    );
                    for (o, t) in serial.iter_mut().zip(&tail) {
                        *o += t;
                    }
                }
                type Stage = fn(&Sweep<'_, 2>, usize, &mut [f64], &[f64], &[f64], &[f64]) -> usize;
                let stages: [(usize, Stage); 3] =
                    [(4, stage::<4>), (8, stage::<8>), (32, stage::<32>)];
                for (w, stage) in stages {
                    let mut o = start.clone();
                    let end = stage(&sw, t0, &mut o, &rows, &shift, &tail);
                    let want = t0 + w * ((c - t0) / w);
                    assert_eq!(end, want, "c {c} t0 {t0} W {w}: where the tiles end");
                    for t in 0..c {
                        let expect = if (t0..end).contains(&t) {
                            serial[t]
                        } else {
                            start[t]
                        };
                        assert_eq!(
                            o[t].to_bits(),
                            expect.to_bits(),
                            "c {c} t0 {t0} W {w} t {t}"
                        );
                    }
                }
                let mut o = start.clone();
                sw.rest::<2, true, true>(t0, &mut o, 9, &row, -0.5, &shift, &tail);
                for t in 0..c {
                    let expect = if t >= t0 { serial[t] } else { start[t] };
                    assert_eq!(
                        o[t].to_bits(),
                        expect.to_bits(),
                        "rest: c {c} t0 {t0} t {t}"
                    );
                }
            }
        }
    }

    /// The kernel through every path this CPU can run: the portable body at tile widths 8, 16
    /// and 32, and the AVX2 and AVX-512F builds where the CPU has them.
    fn every_path<'x, const L: usize>(
        op: &DataAffineOp,
        z: &[f64],
        count: usize,
        row: impl Fn(usize) -> &'x [f64] + Copy,
        tail: Option<&[f64]>,
        start: &[f64],
    ) -> Vec<(&'static str, Vec<f64>)> {
        let mut paths = Vec::new();
        let mut run = |name: &'static str, f: &dyn Fn(&mut [f64])| {
            let mut v = start.to_vec();
            f(&mut v);
            paths.push((name, v));
        };
        run("portable W = 8", &|v| {
            op.fused_body::<L, _, 8>(z, count, row, 0.3, tail, v)
        });
        run("portable W = 16", &|v| {
            op.fused_body::<L, _, 16>(z, count, row, 0.3, tail, v)
        });
        run("portable W = 32", &|v| {
            op.fused_body::<L, _, 32>(z, count, row, 0.3, tail, v)
        });
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 has just been detected.
                #[allow(unsafe_code)]
                run("AVX2", &|v| unsafe {
                    op.fused_avx2::<L, _>(z, count, row, 0.3, tail, v)
                });
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                // SAFETY: AVX-512F has just been detected.
                #[allow(unsafe_code)]
                run("AVX-512F", &|v| unsafe {
                    op.fused_avx512::<L, _>(z, count, row, 0.3, tail, v)
                });
            }
        }
        paths
    }
}
