//! Losses affine in the data with an isotropic quadratic and a bilinear coupling
//! (a family where every quantity is exact; the LIN-box and LIN-ball instances of
//! [`crate::instances`]; BGM23 Prop 13's f = wθ is the case A = B = 0, C = 1).
//!
//! f(w, θ; x) = ⟨A x, w⟩ − ⟨B x, θ⟩ + wᵀCθ + (α/2)‖w‖² − (γ/2)‖θ‖²,   α, γ ≥ 0.
//!
//! Because f is affine in x, F_S = f(·,·; x̄_S) and F_D = f(·,·; E x): population quantities need
//! only the mean. With the crate's regularizer C_r(‖w − c_w‖² − ‖θ − c_θ‖²) (C_r = Σ c_k) the
//! θ-objective is −((γ + 2C_r)/2)‖θ − θ_u‖² + const, an *isotropic* quadratic, so its maximizer
//! over any convex Θ is the Euclidean projection of the unconstrained maximizer θ_u; with
//! γ + 2C_r = 0 it is a linear maximization (the domain's LMO). The same holds for w.

use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::problem::saddle::{
    weighted_point_mean, Constants, GradSink, Mixture, Objective, OperatorKernel, SaddleFn,
};
use crate::problem::Rows;
use serde::{Deserialize, Serialize};

/// The data-affine quadratic–bilinear family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuadBilinear {
    /// W.
    pub domain_w: Domain,
    /// Θ.
    pub domain_theta: Domain,
    /// A (d_w × k): the primal linear term is ⟨A x, w⟩.
    pub a_map: Matrix,
    /// B (d_θ × k): the dual linear term is −⟨B x, θ⟩.
    pub b_map: Matrix,
    /// C (d_w × d_θ).
    pub coupling: Matrix,
    /// α ≥ 0.
    pub alpha: f64,
    /// γ ≥ 0.
    pub gamma: f64,
}

impl QuadBilinear {
    /// The general constructor; validates every shape.
    pub fn new(
        domain_w: Domain,
        domain_theta: Domain,
        a_map: Matrix,
        b_map: Matrix,
        coupling: Matrix,
        alpha: f64,
        gamma: f64,
    ) -> Result<Self> {
        domain_w.validate().map_err(|e| prefix("domain_w", e))?;
        domain_theta
            .validate()
            .map_err(|e| prefix("domain_theta", e))?;
        let (dw, dt) = (domain_w.dim(), domain_theta.dim());
        if a_map.rows != dw {
            return Err(invalid(
                "a_map",
                format!("has {} rows, expected d_w = {dw}", a_map.rows),
            ));
        }
        if b_map.rows != dt {
            return Err(invalid(
                "b_map",
                format!("has {} rows, expected d_θ = {dt}", b_map.rows),
            ));
        }
        if a_map.cols != b_map.cols {
            return Err(invalid(
                "b_map",
                format!(
                    "has {} columns but a_map has {} (both are the data length k)",
                    b_map.cols, a_map.cols
                ),
            ));
        }
        if coupling.rows != dw || coupling.cols != dt {
            return Err(invalid(
                "coupling",
                format!(
                    "is {}×{}, expected d_w × d_θ = {dw}×{dt}",
                    coupling.rows, coupling.cols
                ),
            ));
        }
        for (name, m) in [
            ("a_map", &a_map),
            ("b_map", &b_map),
            ("coupling", &coupling),
        ] {
            crate::error::require_finite(name, &m.data)?;
        }
        for (name, v) in [("alpha", alpha), ("gamma", gamma)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(invalid(name, format!("must be finite and ≥ 0, got {v}")));
            }
        }
        Ok(QuadBilinear {
            domain_w,
            domain_theta,
            a_map,
            b_map,
            coupling,
            alpha,
            gamma,
        })
    }

    /// The canonical data layout x = [a; b] ∈ ℝ^{d_w + d_θ}: A = [I 0], B = [0 I], so
    /// f(w, θ; x) = ⟨a, w⟩ − ⟨b, θ⟩ + wᵀCθ + (α/2)‖w‖² − (γ/2)‖θ‖².
    pub fn data_affine(
        domain_w: Domain,
        domain_theta: Domain,
        coupling: Matrix,
        alpha: f64,
        gamma: f64,
    ) -> Result<Self> {
        let (dw, dt) = (domain_w.dim(), domain_theta.dim());
        let k = dw + dt;
        let mut a = Matrix::zeros(dw, k);
        let mut b = Matrix::zeros(dt, k);
        for i in 0..dw {
            a.set(i, i, 1.0);
        }
        for j in 0..dt {
            b.set(j, dw + j, 1.0);
        }
        Self::new(domain_w, domain_theta, a, b, coupling, alpha, gamma)
    }

    /// BGM23 Prop 13's instance: f(w, θ; x) = wθ on [−1, 1]², with data x ∈ {±1} that f ignores
    /// (k = 1, A = B = 0, C = 1). Joint Lipschitz constant √2.
    pub fn bgm23_prop13() -> Self {
        let unit = || Domain::Box {
            lo: vec![-1.0],
            hi: vec![1.0],
        };
        Self::new(
            unit(),
            unit(),
            Matrix::zeros(1, 1),
            Matrix::zeros(1, 1),
            Matrix::identity(1),
            0.0,
            0.0,
        )
        .expect("the Prop 13 instance is valid")
    }

    /// The LIN-box workhorse of the checks: W = [−3/10, 3/10], Θ = [−2/5, 2/5] (diameter exactly 1),
    /// f = a·w − b·θ + c·wθ with x = (a, b).
    pub fn lin_box(c: f64) -> Result<Self> {
        Self::data_affine(
            Domain::Box {
                lo: vec![-0.3],
                hi: vec![0.3],
            },
            Domain::Box {
                lo: vec![-0.4],
                hi: vec![0.4],
            },
            Matrix::from_rows(vec![vec![c]])?,
            0.0,
            0.0,
        )
    }

    /// The saddle operator of F as an affine map z ↦ M z + q (used by the VI view and by tests):
    /// M = [[(α + 2C_w) I, C], [−Cᵀ, (γ + 2C_θ) I]], q = [A x̄ − 2C_w c_w; B x̄ − 2C_θ c_θ]
    /// (per-block regularizer totals C_w, C_θ and centres c_w, c_θ; C_w = C_θ = C_r for BGM23's
    /// terms).
    pub fn affine_operator(&self, obj: &Objective) -> (Matrix, Vec<f64>) {
        let (dw, dt) = (self.dim_w(), self.dim_theta());
        let (crw, crt) = (obj.reg.total_w(), obj.reg.total_theta());
        let xbar = obj.data.mean();
        let mut m = Matrix::zeros(dw + dt, dw + dt);
        for i in 0..dw {
            m.set(i, i, self.alpha + 2.0 * crw);
            for j in 0..dt {
                m.set(i, dw + j, self.coupling.get(i, j));
                m.set(dw + j, i, -self.coupling.get(i, j));
            }
        }
        for j in 0..dt {
            m.set(dw + j, dw + j, self.gamma + 2.0 * crt);
        }
        let mut qw = self.a_map.matvec(&xbar);
        let mut qt = self.b_map.matvec(&xbar);
        if let Some(cw) = obj.reg.center_w() {
            linalg::axpy(-2.0 * crw, &cw, &mut qw);
        }
        if let Some(ct) = obj.reg.center_theta() {
            linalg::axpy(-2.0 * crt, &ct, &mut qt);
        }
        (m, linalg::concat(&qw, &qt))
    }
}

/// A coordinate selector matrix: row i picks x[o + i] (`Block`) or x[idx[i]] (`Index`).
enum Sel {
    Block(usize),
    Index(Vec<usize>),
}

/// For a matrix whose every row is one 1.0 and zeros elsewhere, the column of each row's 1.
fn selector(m: &Matrix) -> Option<Sel> {
    let idx = (0..m.rows)
        .map(|i| {
            let row = m.row(i);
            let k = row.iter().position(|&v| v != 0.0)?;
            (row[k] == 1.0 && row[k + 1..].iter().all(|&v| v == 0.0)).then_some(k)
        })
        .collect::<Option<Vec<usize>>>()?;
    match idx.first() {
        Some(&o) if idx.iter().enumerate().all(|(i, &k)| k == o + i) => Some(Sel::Block(o)),
        _ => Some(Sel::Index(idx)),
    }
}

/// [`QuadBilinear`]'s allocation-free per-sample kernel: Cθ and Cᵀw once per point (w, θ), then
/// O(d) per sample when A and B are coordinate selectors (the data-affine layout [I 0], [0 I]),
/// O(d·k) row products otherwise; every value equals [`SaddleFn::grad`]'s.
struct QuadBilinearKernel<'a> {
    f: &'a QuadBilinear,
    sel_a: Option<Sel>,
    sel_b: Option<Sel>,
    cth: Vec<f64>,
    ctw: Vec<f64>,
    /// αw and (−γ)θ of the prepared point (each one rounded product, as `grad` computes it).
    aw: Vec<f64>,
    gtheta: Vec<f64>,
}

/// (A x)_i as [`Matrix::matvec`] computes it: `dot(row_i, x)`, which for a selector row (one 1.0
/// at column k, zeros elsewhere) is exactly `0.0 + x[k]` (the products 0·x_j are ±0, their sum
/// from 0.0 is +0.0, and adding ±0 to a finite value changes nothing, except that −0.0 becomes
/// +0.0, which `0.0 + x[k]` reproduces).
#[inline(always)]
fn sel_entry(sel: &Sel, i: usize, x: &[f64]) -> f64 {
    match sel {
        Sel::Block(o) => 0.0 + x[o + i],
        Sel::Index(idx) => 0.0 + x[idx[i]],
    }
}

impl OperatorKernel for QuadBilinearKernel<'_> {
    fn prepare(&mut self, w: &[f64], theta: &[f64]) {
        self.f.coupling.matvec_into(theta, &mut self.cth);
        self.f.coupling.matvec_t_into(w, &mut self.ctw);
        for (a, wj) in self.aw.iter_mut().zip(w) {
            *a = self.f.alpha * wj;
        }
        for (a, tj) in self.gtheta.iter_mut().zip(theta) {
            *a = (-self.f.gamma) * tj;
        }
    }

    fn add_operator(
        &mut self,
        w: &[f64],
        theta: &[f64],
        x: &[f64],
        s: f64,
        acc_w: &mut [f64],
        acc_theta: &mut [f64],
    ) {
        let (alpha, gamma) = (self.f.alpha, self.f.gamma);
        // `grad`: gw = (A x + 1·Cθ) + αw; gθ = (−1·(B x) + 1·Cᵀw) + (−γ)θ; the operator's θ
        // block is −1·gθ, and each is added as s·g (multiplying by ±1 is exact: 1·c = c and
        // −1·v = −v, so the negations below are those products).
        match &self.sel_a {
            Some(Sel::Block(o)) => {
                let xs = &x[*o..*o + acc_w.len()];
                for (((a, xk), c), awj) in acc_w.iter_mut().zip(xs).zip(&self.cth).zip(&self.aw) {
                    *a += s * (((0.0 + xk) + c) + awj);
                }
            }
            sel => {
                for (i, ((a, c), wj)) in acc_w.iter_mut().zip(&self.cth).zip(w).enumerate() {
                    let ax = match sel {
                        Some(sel) => sel_entry(sel, i, x),
                        None => linalg::dot(self.f.a_map.row(i), x),
                    };
                    *a += s * ((ax + c) + alpha * wj);
                }
            }
        }
        match &self.sel_b {
            Some(Sel::Block(o)) => {
                let xs = &x[*o..*o + acc_theta.len()];
                for (((a, xk), c), gtj) in acc_theta
                    .iter_mut()
                    .zip(xs)
                    .zip(&self.ctw)
                    .zip(&self.gtheta)
                {
                    *a += s * -((-(0.0 + xk) + c) + gtj);
                }
            }
            sel => {
                for (i, ((a, c), tj)) in acc_theta.iter_mut().zip(&self.ctw).zip(theta).enumerate()
                {
                    let bx = match sel {
                        Some(sel) => sel_entry(sel, i, x),
                        None => linalg::dot(self.f.b_map.row(i), x),
                    };
                    *a += s * -((-bx + c) + (-gamma) * tj);
                }
            }
        }
    }
}

fn prefix(field: &str, e: Error) -> Error {
    match e {
        Error::Invalid { field: f, msg } => invalid(format!("{field}.{f}"), msg),
        other => other,
    }
}

impl SaddleFn for QuadBilinear {
    fn name(&self) -> String {
        format!(
            "quad_bilinear(d_w={}, d_θ={})",
            self.dim_w(),
            self.dim_theta()
        )
    }
    fn dim_w(&self) -> usize {
        self.domain_w.dim()
    }
    fn dim_theta(&self) -> usize {
        self.domain_theta.dim()
    }
    fn point_dim(&self) -> usize {
        self.a_map.cols
    }
    fn domain_w(&self) -> &Domain {
        &self.domain_w
    }
    fn domain_theta(&self) -> &Domain {
        &self.domain_theta
    }
    fn value(&self, w: &[f64], theta: &[f64], x: &[f64]) -> f64 {
        linalg::dot(&self.a_map.matvec(x), w) - linalg::dot(&self.b_map.matvec(x), theta)
            + linalg::dot(w, &self.coupling.matvec(theta))
            + 0.5 * self.alpha * linalg::norm2_sq(w)
            - 0.5 * self.gamma * linalg::norm2_sq(theta)
    }
    fn grad(&self, w: &[f64], theta: &[f64], x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let mut gw = self.a_map.matvec(x);
        linalg::axpy(1.0, &self.coupling.matvec(theta), &mut gw);
        linalg::axpy(self.alpha, w, &mut gw);
        let mut gt = linalg::scale(-1.0, &self.b_map.matvec(x));
        linalg::axpy(1.0, &self.coupling.matvec_t(w), &mut gt);
        linalg::axpy(-self.gamma, theta, &mut gt);
        (gw, gt)
    }
    /// As [`SaddleFn::grad`] at every x_i, with Cθ and Cᵀw computed once and, when A (or B) is
    /// a coordinate selector such as the data-affine layout's [I 0], A x_i read off by indexing
    /// (equal to the dense product: the other terms are exact zeros). The additions are made in
    /// `grad`'s order, so each per-point gradient has `grad`'s value.
    fn grad_each(&self, w: &[f64], theta: &[f64], xs: &Rows, each: &mut GradSink<'_>) {
        let cth = self.coupling.matvec(theta);
        let ctw = self.coupling.matvec_t(w);
        let sel_a = selector(&self.a_map);
        let sel_b = selector(&self.b_map);
        let mut gw = vec![0.0; self.dim_w()];
        let mut gt = vec![0.0; self.dim_theta()];
        for (i, x) in xs.iter().enumerate() {
            // (A x + Cθ) + αw and (−B x + Cᵀw) + (−γ)θ, in `grad`'s order of additions.
            match &sel_a {
                Some(Sel::Block(o)) => {
                    let xs = &x[*o..*o + gw.len()];
                    for (((g, xk), c), wj) in gw.iter_mut().zip(xs).zip(&cth).zip(w) {
                        *g = (xk + c) + self.alpha * wj;
                    }
                }
                Some(Sel::Index(idx)) => {
                    for (((g, &k), c), wj) in gw.iter_mut().zip(idx).zip(&cth).zip(w) {
                        *g = (x[k] + c) + self.alpha * wj;
                    }
                }
                None => {
                    let ax = self.a_map.matvec(x);
                    for (((g, a), c), wj) in gw.iter_mut().zip(&ax).zip(&cth).zip(w) {
                        *g = (a + c) + self.alpha * wj;
                    }
                }
            }
            match &sel_b {
                Some(Sel::Block(o)) => {
                    let xs = &x[*o..*o + gt.len()];
                    for (((g, xk), c), tj) in gt.iter_mut().zip(xs).zip(&ctw).zip(theta) {
                        *g = (-xk + c) + (-self.gamma) * tj;
                    }
                }
                Some(Sel::Index(idx)) => {
                    for (((g, &k), c), tj) in gt.iter_mut().zip(idx).zip(&ctw).zip(theta) {
                        *g = (-x[k] + c) + (-self.gamma) * tj;
                    }
                }
                None => {
                    let bx = self.b_map.matvec(x);
                    for (((g, b), c), tj) in gt.iter_mut().zip(&bx).zip(&ctw).zip(theta) {
                        *g = (-b + c) + (-self.gamma) * tj;
                    }
                }
            }
            each(i, &gw, &gt);
        }
    }
    /// [`SaddleFn::value`] at every point with ⟨w, Cθ⟩, (α/2)‖w‖² and (γ/2)‖θ‖² computed once
    /// and ⟨A x, w⟩, ⟨B x, θ⟩ without allocating ((A x)_i as `matvec` rounds it, by
    /// `sel_entry` for a selector row): each term and each addition as in `value`, so the sum
    /// is the default's bit for bit.
    fn mixture_value(&self, w: &[f64], theta: &[f64], points: &Rows, weights: &[f64]) -> f64 {
        let wct = linalg::dot(w, &self.coupling.matvec(theta));
        let qa = 0.5 * self.alpha * linalg::norm2_sq(w);
        let qg = 0.5 * self.gamma * linalg::norm2_sq(theta);
        let (sel_a, sel_b) = (selector(&self.a_map), selector(&self.b_map));
        // ⟨M x, v⟩ = Σ_i (M x)_i v_i summed from 0.0, as `dot(&m.matvec(x), v)`.
        let map_dot = |m: &Matrix, sel: &Option<Sel>, x: &[f64], v: &[f64]| {
            let mut s = 0.0;
            for (i, vi) in v.iter().enumerate() {
                let mx = match sel {
                    Some(sel) => sel_entry(sel, i, x),
                    None => linalg::dot(m.row(i), x),
                };
                s += mx * vi;
            }
            s
        };
        let mut v = 0.0;
        for (x, p) in points.iter().zip(weights) {
            let axw = map_dot(&self.a_map, &sel_a, x, w);
            let bxt = map_dot(&self.b_map, &sel_b, x, theta);
            v += p * ((((axw - bxt) + wct) + qa) - qg);
        }
        v
    }
    fn operator_kernel(&self) -> Option<Box<dyn OperatorKernel + '_>> {
        Some(Box::new(QuadBilinearKernel {
            f: self,
            sel_a: selector(&self.a_map),
            sel_b: selector(&self.b_map),
            cth: vec![0.0; self.dim_w()],
            ctw: vec![0.0; self.dim_theta()],
            aw: vec![0.0; self.dim_w()],
            gtheta: vec![0.0; self.dim_theta()],
        }))
    }
    /// L ≤ max_x ‖(A x, B x)‖ + ‖C‖_op·R + max(α, γ)·R with R = max ‖(w, θ)‖ over W×Θ: the
    /// gradient is (Ax + Cθ + αw, −Bx + Cᵀw − γθ) and ‖(Cθ, Cᵀw)‖ ≤ ‖C‖_op‖(θ, w)‖. Attained when
    /// C = 0 and α = γ = 0 (the gradient is then (Ax, −Bx)). β = ‖C‖_op + max(α, γ).
    fn constants(&self, support: &[Vec<f64>]) -> Constants {
        let data = support
            .iter()
            .map(|x| {
                linalg::norm2(&linalg::concat(
                    &self.a_map.matvec(x),
                    &self.b_map.matvec(x),
                ))
            })
            .fold(0.0, f64::max);
        let r = (self.domain_w.max_norm().powi(2) + self.domain_theta.max_norm().powi(2)).sqrt();
        let cop = self.coupling.op_norm();
        let quad = self.alpha.max(self.gamma);
        Constants {
            lipschitz: data + cop * r + quad * r,
            smoothness: Some(cop + quad),
            diameter: (self.domain_w.diameter().powi(2) + self.domain_theta.diameter().powi(2))
                .sqrt(),
        }
    }
    fn best_theta(&self, ws: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>> {
        // Σ_k ρ_k F(w_k, θ) = ⟨Cᵀw̄ − B x̄, θ⟩ − (γ/2)‖θ‖² − C_θ‖θ − c_θ‖² + const.
        let wbar = weighted_point_mean(ws);
        let xbar = obj.data.mean();
        let mut lin = self.coupling.matvec_t(&wbar);
        linalg::axpy(-1.0, &self.b_map.matvec(&xbar), &mut lin);
        let cr = obj.reg.total_theta();
        let kappa = self.gamma + 2.0 * cr;
        if kappa > 0.0 {
            if let Some(ct) = obj.reg.center_theta() {
                linalg::axpy(2.0 * cr, &ct, &mut lin);
            }
            Ok(self.domain_theta.project(&linalg::scale(1.0 / kappa, &lin)))
        } else {
            Ok(self.domain_theta.lmo(&lin))
        }
    }
    fn best_w(&self, thetas: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>> {
        // Σ_k ρ_k F(w, θ_k) = ⟨A x̄ + C θ̄, w⟩ + (α/2)‖w‖² + C_w‖w − c_w‖² + const.
        let tbar = weighted_point_mean(thetas);
        let xbar = obj.data.mean();
        let mut lin = self.a_map.matvec(&xbar);
        linalg::axpy(1.0, &self.coupling.matvec(&tbar), &mut lin);
        let cr = obj.reg.total_w();
        let kappa = self.alpha + 2.0 * cr;
        if kappa > 0.0 {
            let mut target = linalg::scale(-1.0, &lin);
            if let Some(cw) = obj.reg.center_w() {
                linalg::axpy(2.0 * cr, &cw, &mut target);
            }
            Ok(self.domain_w.project(&linalg::scale(1.0 / kappa, &target)))
        } else {
            Ok(self.domain_w.lmo(&linalg::scale(-1.0, &lin)))
        }
    }
    fn aggregate(&self, data: &Mixture) -> Mixture {
        Mixture::single(&data.mean())
    }
    /// When the saddle operator z ↦ Mz + q is strongly monotone (a regularizer, or α, γ > 0) and
    /// its zero lies in W×Θ, that zero is the saddle point: one linear solve. Otherwise (a
    /// constraint is active, or M is singular) the generic certified solver runs.
    fn direct_saddle(&self, obj: &Objective) -> Option<Result<(Vec<f64>, Vec<f64>)>> {
        if self.alpha + 2.0 * obj.reg.total_w() <= 0.0
            || self.gamma + 2.0 * obj.reg.total_theta() <= 0.0
        {
            return None;
        }
        let (m, q) = self.affine_operator(obj);
        let z = m.solve(&linalg::scale(-1.0, &q)).ok()?;
        let (w, t) = linalg::split(&z, self.dim_w());
        (self.domain_w.contains(&w, 0.0) && self.domain_theta.contains(&t, 0.0))
            .then_some(Ok((w, t)))
    }

    fn operator_lipschitz(&self, obj: &Objective) -> Option<f64> {
        Some(self.affine_operator(obj).0.op_norm())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Stream;

    /// The three data layouts on unit balls of ℝ³ × ℝ² with 5-coordinate data and a random
    /// coupling C drawn from `st`: block selectors (`data_affine`), index selectors, and a dense
    /// map (the index map with one extra entry).
    fn three_layouts(st: &mut Stream) -> [QuadBilinear; 3] {
        let ball = |d: usize| Domain::Ball {
            center: vec![0.0; d],
            radius: 1.0,
        };
        let (dw, dt) = (3, 2);
        let mut c = Matrix::zeros(dw, dt);
        for i in 0..dw {
            for j in 0..dt {
                c.set(i, j, st.uniform() - 0.5);
            }
        }
        let block = QuadBilinear::data_affine(ball(dw), ball(dt), c.clone(), 0.3, 0.2).unwrap();
        let mut a = Matrix::zeros(dw, 5);
        let mut b = Matrix::zeros(dt, 5);
        for (i, k) in [4, 0, 2].into_iter().enumerate() {
            a.set(i, k, 1.0);
        }
        b.set(0, 1, 1.0);
        b.set(1, 3, 1.0);
        let index = QuadBilinear::new(
            ball(dw),
            ball(dt),
            a.clone(),
            b.clone(),
            c.clone(),
            0.0,
            0.7,
        )
        .unwrap();
        a.set(1, 3, -0.25);
        let dense = QuadBilinear::new(ball(dw), ball(dt), a, b, c, 1.0, 0.0).unwrap();
        [block, index, dense]
    }

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// `mixture_value` equals the default Σ π_j·value(x_j) bit for bit: block, index and dense
    /// maps, α, γ ≠ 0, data with ±0 entries.
    #[test]
    fn mixture_value_matches_value_sum_bitwise() {
        let mut st = Stream::new(4, "test/quad_bilinear/mixture_value");
        let (dw, dt) = (3, 2);
        let [block, index, dense] = three_layouts(&mut st);
        for f in [&block, &index, &dense] {
            let n = 23;
            let values: Vec<f64> = (0..n * 5)
                .map(|j| match j % 5 {
                    0 => -0.0,
                    1 => 0.0,
                    _ => st.uniform() - 0.5,
                })
                .collect();
            let rows = Rows::from_flat(values, 5).unwrap();
            let weights: Vec<f64> = (0..n).map(|_| st.uniform()).collect();
            for trial in 0..10 {
                let mut w: Vec<f64> = (0..dw).map(|_| st.uniform() - 0.5).collect();
                let th: Vec<f64> = (0..dt).map(|_| st.uniform() - 0.5).collect();
                if trial == 0 {
                    w.iter_mut().for_each(|v| *v = -0.0);
                }
                let mut expect = 0.0;
                for (x, p) in rows.iter().zip(&weights) {
                    expect += p * f.value(&w, &th, x);
                }
                let got = f.mixture_value(&w, &th, &rows, &weights);
                assert_eq!(got.to_bits(), expect.to_bits(), "{}", f.name());
            }
        }
    }

    /// The kernel's accumulation equals the dense operator's `axpy` bit for bit: block and index
    /// selectors and a dense map, data with ±0 entries, accumulators starting at +0.0 and −0.0.
    #[test]
    fn kernel_matches_dense_operator_bitwise() {
        let mut st = Stream::new(3, "test/quad_bilinear/kernel");
        let (dw, dt) = (3, 2);
        let [block, index, dense] = three_layouts(&mut st);
        for f in [&block, &index, &dense] {
            let mut kernel = f.operator_kernel().unwrap();
            for trial in 0..20 {
                let w: Vec<f64> = (0..dw).map(|_| st.uniform() - 0.5).collect();
                let th: Vec<f64> = (0..dt).map(|_| st.uniform() - 0.5).collect();
                let x: Vec<f64> = (0..5)
                    .map(|k| match (trial + k) % 4 {
                        0 => -0.0,
                        1 => 0.0,
                        _ => st.uniform() - 0.5,
                    })
                    .collect();
                let s = st.uniform();
                for start in [0.0, -0.0, 0.125] {
                    let (gw, gt) = f.grad(&w, &th, &x);
                    let b_op = linalg::scale(-1.0, &gt);
                    let (mut ew, mut et) = (vec![start; dw], vec![start; dt]);
                    linalg::axpy(s, &gw, &mut ew);
                    linalg::axpy(s, &b_op, &mut et);
                    let (mut kw, mut kt) = (vec![start; dw], vec![start; dt]);
                    kernel.prepare(&w, &th);
                    kernel.add_operator(&w, &th, &x, s, &mut kw, &mut kt);
                    assert_eq!(bits(&kw), bits(&ew), "{} w block", f.name());
                    assert_eq!(bits(&kt), bits(&et), "{} θ block", f.name());
                }
            }
        }
    }
}
