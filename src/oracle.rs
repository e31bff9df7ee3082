//! Counted access to gradients and operator values: every evaluation of a gradient / operator goes
//! through here, so gradient-complexity claims are asserted on counts (one evaluation of the saddle
//! operator g(·; x) of BGM23 §2, "Saddle Operator", counts as one gradient evaluation).

use crate::linalg;
use crate::problem::saddle::{DenseKernel, OperatorKernel};
use crate::problem::{Objective, Rows, SaddleFn};
use std::cell::Cell;

/// A counting wrapper around a [`SaddleFn`]. Not shared between threads: each run (or trial)
/// makes its own, so counts are per run and deterministic.
pub struct Oracle<'a> {
    f: &'a dyn SaddleFn,
    grads: Cell<u64>,
    values: Cell<u64>,
}

impl<'a> Oracle<'a> {
    /// A fresh oracle with zero counts.
    pub fn new(f: &'a dyn SaddleFn) -> Self {
        Oracle {
            f,
            grads: Cell::new(0),
            values: Cell::new(0),
        }
    }

    /// The wrapped loss (for domains, constants and best responses, which are not counted).
    pub fn f(&self) -> &'a dyn SaddleFn {
        self.f
    }

    /// (∇_w f, ∇_θ f)(w, θ; x); counts one gradient evaluation.
    pub fn grad(&self, w: &[f64], theta: &[f64], x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        self.grads.set(self.grads.get() + 1);
        self.f.grad(w, theta, x)
    }

    /// The saddle operator g(w, θ; x) = [∇_w f, −∇_θ f] (BGM23 §2, "Saddle Operator"), as the pair of blocks;
    /// counts one gradient evaluation.
    pub fn operator(&self, w: &[f64], theta: &[f64], x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        let (gw, gt) = self.grad(w, theta, x);
        (gw, linalg::scale(-1.0, &gt))
    }

    /// f(w, θ; x); counts one value evaluation.
    pub fn value(&self, w: &[f64], theta: &[f64], x: &[f64]) -> f64 {
        self.values.set(self.values.get() + 1);
        self.f.value(w, theta, x)
    }

    /// The saddle operator of an objective, G(w, θ) = Σ_j π_j g(w, θ; x_j) + the regularizer's
    /// operator, summed in index order; counts one gradient evaluation per mixture point.
    pub fn objective_operator(
        &self,
        obj: &Objective,
        w: &[f64],
        theta: &[f64],
    ) -> (Vec<f64>, Vec<f64>) {
        let mut gw = vec![0.0; w.len()];
        let mut gt = vec![0.0; theta.len()];
        for (x, p) in obj.data.points.iter().zip(&obj.data.weights) {
            let (a, b) = self.operator(w, theta, x);
            linalg::axpy(*p, &a, &mut gw);
            linalg::axpy(*p, &b, &mut gt);
        }
        let (rw, rt) = obj.reg.grad(w, theta);
        linalg::axpy(1.0, &rw, &mut gw);
        linalg::axpy(-1.0, &rt, &mut gt);
        (gw, gt)
    }

    /// The empirical saddle operator (1/n) Σ_i g(w, θ; x_i) as the average of the n per-point
    /// operators (the full-batch gradient ∇L_S = (1/n) Σ_i ∇ℓ(·; z_i) of KLLW22 Algorithm 1), summed in index order
    /// and then divided by n; counts one gradient evaluation per point.
    pub fn per_point_operator(
        &self,
        points: &Rows,
        w: &[f64],
        theta: &[f64],
    ) -> (Vec<f64>, Vec<f64>) {
        let mut gw = vec![0.0; w.len()];
        let mut gt = vec![0.0; theta.len()];
        self.f.grad_each(w, theta, points, &mut |_, a, b| {
            self.grads.set(self.grads.get() + 1);
            gw.iter_mut().zip(a).for_each(|(s, v)| *s += v);
            gt.iter_mut().zip(b).for_each(|(s, v)| *s -= v);
        });
        let n = points.len().max(1) as f64;
        gw.iter_mut().for_each(|v| *v /= n);
        gt.iter_mut().for_each(|v| *v /= n);
        (gw, gt)
    }

    /// [`Oracle::per_point_operator`] written into (g_w, g_θ) through the per-sample kernel, with
    /// no allocation (for a family with an allocation-free kernel): Σ_i 1·g(w, θ; x_i) summed in
    /// index order from 0.0, then divided by n. Bit-identical to [`Oracle::per_point_operator`]:
    /// `acc + 1·a` is `acc + a` and `acc + 1·(−b)` is `acc − b` exactly, and the kernel's a, b are
    /// [`SaddleFn::grad`]'s values (as `grad_each`'s are). Counts one gradient evaluation per point.
    #[allow(clippy::too_many_arguments)]
    pub fn per_point_operator_into(
        &self,
        kernel: &mut dyn OperatorKernel,
        points: &Rows,
        w: &[f64],
        theta: &[f64],
        gw: &mut [f64],
        gt: &mut [f64],
    ) {
        gw.iter_mut().for_each(|v| *v = 0.0);
        gt.iter_mut().for_each(|v| *v = 0.0);
        kernel.prepare(w, theta);
        for x in points {
            kernel.add_operator(w, theta, x, 1.0, gw, gt);
        }
        self.grads.set(self.grads.get() + points.len() as u64);
        let n = points.len().max(1) as f64;
        gw.iter_mut().for_each(|v| *v /= n);
        gt.iter_mut().for_each(|v| *v /= n);
    }

    /// The loss's per-sample [`OperatorKernel`] (its allocation-free one where the family has
    /// one, else the dense path), for [`Oracle::minibatch_operator`] and
    /// [`Oracle::weighted_operator`], which count the evaluations.
    pub fn kernel(&self) -> Box<dyn OperatorKernel + 'a> {
        self.f
            .operator_kernel()
            .unwrap_or_else(|| Box::new(DenseKernel { f: self.f }))
    }

    /// The minibatch saddle operator Σ_{i ∈ idx} s·g(w, θ; x_i), summed in the order of `idx`
    /// from 0.0, written into (g_w, g_θ) with no allocation; counts one gradient evaluation per
    /// index. The points are rows of length `k` of the contiguous array `flat` (x_i =
    /// `flat[i·k .. (i+1)·k]`, a dataset's or mixture's [`Rows::as_flat`], borrowed: one memory
    /// access chain per sample, no copy). Values as
    /// `axpy(s, a_i, g)` over the operators (a_i, b_i) of [`Oracle::operator`].
    #[allow(clippy::too_many_arguments)]
    pub fn minibatch_operator(
        &self,
        kernel: &mut dyn OperatorKernel,
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        w: &[f64],
        theta: &[f64],
        gw: &mut [f64],
        gt: &mut [f64],
    ) {
        gw.iter_mut().for_each(|v| *v = 0.0);
        gt.iter_mut().for_each(|v| *v = 0.0);
        kernel.prepare(w, theta);
        for &i in idx {
            kernel.add_operator(w, theta, &flat[i * k..(i + 1) * k], s, gw, gt);
        }
        self.grads.set(self.grads.get() + idx.len() as u64);
    }

    /// The saddle operator g(w, θ; x) written into (g_w, g_θ) with no allocation (the values of
    /// [`Oracle::operator`]: the buffers start at −0.0, the identity of addition, and receive
    /// 1·g); counts one gradient evaluation.
    pub fn operator_into(
        &self,
        kernel: &mut dyn OperatorKernel,
        x: &[f64],
        w: &[f64],
        theta: &[f64],
        gw: &mut [f64],
        gt: &mut [f64],
    ) {
        gw.iter_mut().for_each(|v| *v = -0.0);
        gt.iter_mut().for_each(|v| *v = -0.0);
        kernel.prepare(w, theta);
        kernel.add_operator(w, theta, x, 1.0, gw, gt);
        self.grads.set(self.grads.get() + 1);
    }

    /// The data part of [`Oracle::objective_operator`]: Σ_j π_j g(w, θ; x_j) summed in index
    /// order from 0.0, into (g_w, g_θ), with no allocation; counts one gradient evaluation per
    /// mixture point. (The regularizer is [`crate::problem::Regularizer::add_operator`].)
    #[allow(clippy::too_many_arguments)]
    pub fn weighted_operator(
        &self,
        kernel: &mut dyn OperatorKernel,
        points: &Rows,
        weights: &[f64],
        w: &[f64],
        theta: &[f64],
        gw: &mut [f64],
        gt: &mut [f64],
    ) {
        gw.iter_mut().for_each(|v| *v = 0.0);
        gt.iter_mut().for_each(|v| *v = 0.0);
        kernel.prepare(w, theta);
        for (x, &p) in points.iter().zip(weights) {
            kernel.add_operator(w, theta, x, p, gw, gt);
        }
        self.grads.set(self.grads.get() + points.len() as u64);
    }

    /// Gradient (operator) evaluations so far.
    pub fn grad_evals(&self) -> u64 {
        self.grads.get()
    }

    /// Value evaluations so far.
    pub fn value_evals(&self) -> u64 {
        self.values.get()
    }
}

/// Counted access to a monotone operator (the SVI counterpart of [`Oracle`]).
pub struct OpOracle<'a> {
    op: &'a dyn crate::problem::MonotoneOp,
    evals: Cell<u64>,
}

impl<'a> OpOracle<'a> {
    /// A fresh oracle with a zero count.
    pub fn new(op: &'a dyn crate::problem::MonotoneOp) -> Self {
        OpOracle {
            op,
            evals: Cell::new(0),
        }
    }
    /// G(z; x); counts one operator evaluation.
    pub fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        self.evals.set(self.evals.get() + 1);
        self.op.eval(z, x)
    }
    /// G(z; x) written into `out` with no allocation (the values of [`OpOracle::eval`]); counts
    /// one operator evaluation.
    pub fn eval_into(&self, z: &[f64], x: &[f64], out: &mut [f64]) {
        self.evals.set(self.evals.get() + 1);
        self.op.eval_into(z, x, out);
    }

    /// The minibatch operator Σ_{i ∈ idx} s·G(z; x_i), summed in the order of `idx` from 0.0,
    /// written into `out` with no allocation; counts one operator evaluation per index (so a
    /// repeated index counts twice). The points are rows of length `k` of the contiguous array
    /// `flat` (x_i = `flat[i·k .. (i+1)·k]`, as in [`Oracle::minibatch_operator`]). Through
    /// [`crate::problem::MonotoneOp::add_batch_scaled`]: the bits of successive `add_scaled`
    /// calls.
    pub fn batch_into(
        &self,
        flat: &[f64],
        k: usize,
        idx: &[usize],
        s: f64,
        z: &[f64],
        out: &mut [f64],
    ) {
        out.iter_mut().for_each(|v| *v = 0.0);
        self.op.add_batch_scaled(z, flat, k, idx, s, out);
        self.evals.set(self.evals.get() + idx.len() as u64);
    }

    /// The mean operator Ḡ(z) = Σ_j π_j G(z; x_j) of a mixture, summed in index order from 0.0,
    /// into `out` with no allocation (the values of [`crate::problem::monotone::mean_operator`]);
    /// counts one operator evaluation per mixture point.
    pub fn mixture_into(&self, data: &crate::problem::Mixture, z: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|v| *v = 0.0);
        for (x, &p) in data.points.iter().zip(&data.weights) {
            self.op.add_scaled(z, x, p, out);
        }
        self.evals.set(self.evals.get() + data.points.len() as u64);
    }

    /// Operator evaluations so far.
    pub fn evals(&self) -> u64 {
        self.evals.get()
    }
    /// The wrapped operator.
    pub fn op(&self) -> &'a dyn crate::problem::MonotoneOp {
        self.op
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Domain;
    use crate::linalg::Matrix;
    use crate::problem::{AbsSeparable, QuadBilinear};
    use crate::rng::Stream;

    fn bits(v: &[f64]) -> Vec<u64> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// The per-point operator through the kernel equals the `grad_each` path bit for bit, for a
    /// family with an allocation-free kernel (block and dense maps) and one on the dense kernel;
    /// both count n evaluations.
    #[test]
    fn per_point_operator_into_matches_grad_each_bitwise() {
        let mut st = Stream::new(5, "test/oracle/per_point");
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
        let mut a = Matrix::zeros(dw, dw + dt);
        let mut b = Matrix::zeros(dt, dw + dt);
        for i in 0..dw {
            a.set(i, (i + 1) % (dw + dt), 1.0 - 0.25 * i as f64);
        }
        b.set(0, 0, 1.0);
        b.set(1, 4, -0.5);
        let dense = QuadBilinear::new(ball(dw), ball(dt), a, b, c, 0.0, 0.7).unwrap();
        let boxd = |d: usize| Domain::Box {
            lo: vec![-1.0; d],
            hi: vec![1.0; d],
        };
        let abs = AbsSeparable::new(boxd(2), boxd(2), vec![0.5, 1.5]).unwrap();
        let fams: [&dyn SaddleFn; 3] = [&block, &dense, &abs];
        for f in fams {
            let k = f.point_dim();
            let n = 37;
            let values: Vec<f64> = (0..n * k)
                .map(|j| if j % 7 == 0 { -0.0 } else { st.uniform() - 0.5 })
                .collect();
            let rows = Rows::from_flat(values, k).unwrap();
            for _ in 0..5 {
                let w: Vec<f64> = (0..f.dim_w()).map(|_| st.uniform() - 0.5).collect();
                let th: Vec<f64> = (0..f.dim_theta()).map(|_| st.uniform() - 0.5).collect();
                let old = Oracle::new(f);
                let (ew, et) = old.per_point_operator(&rows, &w, &th);
                let new = Oracle::new(f);
                let mut kernel = new.kernel();
                let (mut gw, mut gt) = (vec![7.0; w.len()], vec![7.0; th.len()]);
                new.per_point_operator_into(kernel.as_mut(), &rows, &w, &th, &mut gw, &mut gt);
                assert_eq!(bits(&gw), bits(&ew), "{}", f.name());
                assert_eq!(bits(&gt), bits(&et), "{}", f.name());
                assert_eq!(new.grad_evals(), old.grad_evals());
                assert_eq!(new.grad_evals(), n as u64);
            }
        }
    }
}
