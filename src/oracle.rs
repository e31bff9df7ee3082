//! Counted access to gradients and operator values: every evaluation of a gradient / operator goes
//! through here, so gradient-complexity claims are asserted on counts (one evaluation of the saddle
//! operator g(·; x) of BGM23 §2, "Saddle Operator", counts as one gradient evaluation).

use crate::linalg;
use crate::problem::saddle::{DenseKernel, OperatorKernel};
use crate::problem::{Objective, SaddleFn};
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
        points: &[Vec<f64>],
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
    /// `flat[i·k .. (i+1)·k]`, see [`flatten`]: one memory access chain per sample). Values as
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
        points: &[Vec<f64>],
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
    /// `flat` (x_i = `flat[i·k .. (i+1)·k]`, as in [`Oracle::minibatch_operator`]).
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
        for &i in idx {
            self.op.add_scaled(z, &flat[i * k..(i + 1) * k], s, out);
        }
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

/// The points as one contiguous row-major array (rows of equal length), for
/// [`Oracle::minibatch_operator`].
pub fn flatten(points: &[Vec<f64>]) -> Vec<f64> {
    points.concat()
}
