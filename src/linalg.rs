//! Vectors and small dense matrices with a fixed summation order.
//!
//! Vectors are plain `&[f64]` / `Vec<f64>`; matrices are row-major [`Matrix`].
//!
//! # Determinism rule
//!
//! Every sum in this module (and, by convention, in the whole crate) accumulates **in index
//! order**, starting from `0.0`, one term at a time: `((0 + t_0) + t_1) + …`. There is no SIMD,
//! no pairwise or Kahan summation, no reordering and no parallel reduction. Two runs on the same
//! inputs therefore produce bit-identical results on every IEEE-754 platform.
//! Code that needs a sum should call these helpers rather than `iter().sum()` chains with
//! different association, so that another implementation can reproduce the rounding exactly.
//!
//! # Preconditions
//!
//! Length agreement between vector arguments is an internal invariant of the caller (points of a
//! domain, gradients of a function), not user input. The vector helpers therefore `assert!` it
//! and panic with a message naming the function when it is violated, like slice indexing does.
//! User input (matrices read from configs or fixtures) goes through [`Matrix::from_rows`] and
//! [`Matrix::solve`], which return [`Error::Invalid`](crate::error::Error::Invalid) instead.

use serde::{Deserialize, Serialize};

use crate::error::{invalid, Result};

fn check_len(what: &str, a: usize, b: usize) {
    assert!(a == b, "linalg::{what}: length mismatch ({a} vs {b})");
}

/// Inner product `⟨a, b⟩ = Σ_i a_i b_i`, summed in index order.
///
/// # Panics
/// If `a.len() != b.len()`.
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    check_len("dot", a.len(), b.len());
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i] * b[i];
    }
    s
}

/// Squared Euclidean norm `Σ_i a_i²`, summed in index order.
pub fn norm2_sq(a: &[f64]) -> f64 {
    let mut s = 0.0;
    for &x in a {
        s += x * x;
    }
    s
}

/// Euclidean norm `√(Σ_i a_i²)` (= `norm2_sq(a).sqrt()`, no rescaling; overflows for entries
/// beyond about 1e154).
pub fn norm2(a: &[f64]) -> f64 {
    norm2_sq(a).sqrt()
}

/// Euclidean distance `‖a − b‖₂`, with the differences squared and summed in index order.
///
/// # Panics
/// If `a.len() != b.len()`.
pub fn dist2(a: &[f64], b: &[f64]) -> f64 {
    check_len("dist2", a.len(), b.len());
    let mut s = 0.0;
    for i in 0..a.len() {
        let d = a[i] - b[i];
        s += d * d;
    }
    s.sqrt()
}

/// Elementwise sum `a + b`.
///
/// # Panics
/// If `a.len() != b.len()`.
pub fn add(a: &[f64], b: &[f64]) -> Vec<f64> {
    check_len("add", a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// Elementwise difference `a − b`.
///
/// # Panics
/// If `a.len() != b.len()`.
pub fn sub(a: &[f64], b: &[f64]) -> Vec<f64> {
    check_len("sub", a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// Scalar multiple `s·a`.
pub fn scale(s: f64, a: &[f64]) -> Vec<f64> {
    a.iter().map(|x| s * x).collect()
}

/// In-place `y ← y + α·x`.
///
/// # Panics
/// If `x.len() != y.len()`.
pub fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    check_len("axpy", x.len(), y.len());
    for i in 0..x.len() {
        y[i] += alpha * x[i];
    }
}

/// Concatenation `[a, b]` (e.g. `z = [w, θ]`).
pub fn concat(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut z = Vec::with_capacity(a.len() + b.len());
    z.extend_from_slice(a);
    z.extend_from_slice(b);
    z
}

/// Split `z = [w, θ]` into `(w, θ)` with `w = z[..d_w]`.
///
/// # Panics
/// If `d_w > z.len()`.
pub fn split(z: &[f64], d_w: usize) -> (Vec<f64>, Vec<f64>) {
    assert!(
        d_w <= z.len(),
        "linalg::split: d_w = {d_w} exceeds length {}",
        z.len()
    );
    (z[..d_w].to_vec(), z[d_w..].to_vec())
}

/// Weighted combination `Σ_i w_i x_i`, accumulated point by point in index order (the weights are
/// assumed normalized by the caller; they are used as given). An empty `points` gives an empty
/// vector.
///
/// # Panics
/// If `points.len() != weights.len()` or the points have different lengths.
pub fn weighted_mean(points: &[Vec<f64>], weights: &[f64]) -> Vec<f64> {
    check_len("weighted_mean", points.len(), weights.len());
    let Some(first) = points.first() else {
        return Vec::new();
    };
    let mut out = vec![0.0; first.len()];
    for (x, &w) in points.iter().zip(weights) {
        axpy(w, x, &mut out);
    }
    out
}

/// A small dense row-major matrix: entry `(i, j)` is `data[i * cols + j]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Matrix {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Entries in row-major order, `rows * cols` of them.
    pub data: Vec<f64>,
}

/// Maximum number of Jacobi sweeps before [`Matrix::sym_eigenvalues`] gives up refining (never
/// reached in practice: cyclic Jacobi converges quadratically).
const JACOBI_MAX_SWEEPS: usize = 100;
/// Relative threshold of the Jacobi stopping rule (see [`Matrix::sym_eigenvalues`]).
const JACOBI_REL_TOL: f64 = 1e-15;

impl Matrix {
    /// The `rows × cols` zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    /// The `n × n` identity.
    pub fn identity(n: usize) -> Matrix {
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            m.data[i * n + i] = 1.0;
        }
        m
    }

    /// Build a matrix from its rows. An empty list gives the `0 × 0` matrix.
    ///
    /// # Errors
    /// [`Error::Invalid`](crate::error::Error::Invalid) naming `rows[i]` for a row whose length
    /// differs from row 0, or `rows[i][j]` for a non-finite entry.
    pub fn from_rows(rows: Vec<Vec<f64>>) -> Result<Matrix> {
        let n = rows.len();
        let m = rows.first().map_or(0, Vec::len);
        let mut data = Vec::with_capacity(n * m);
        for (i, row) in rows.iter().enumerate() {
            if row.len() != m {
                return Err(invalid(
                    format!("rows[{i}]"),
                    format!(
                        "ragged matrix: row has {} entries, row 0 has {m}",
                        row.len()
                    ),
                ));
            }
            for (j, &v) in row.iter().enumerate() {
                if !v.is_finite() {
                    return Err(invalid(
                        format!("rows[{i}][{j}]"),
                        format!("must be finite, got {v}"),
                    ));
                }
            }
            data.extend_from_slice(row);
        }
        Ok(Matrix {
            rows: n,
            cols: m,
            data,
        })
    }

    /// Entry `(i, j)`.
    ///
    /// # Panics
    /// If `i ≥ rows` or `j ≥ cols`.
    pub fn get(&self, i: usize, j: usize) -> f64 {
        assert!(
            i < self.rows && j < self.cols,
            "Matrix::get: ({i}, {j}) out of range"
        );
        self.data[i * self.cols + j]
    }

    /// Set entry `(i, j)` to `v`.
    ///
    /// # Panics
    /// If `i ≥ rows` or `j ≥ cols`.
    pub fn set(&mut self, i: usize, j: usize, v: f64) {
        assert!(
            i < self.rows && j < self.cols,
            "Matrix::set: ({i}, {j}) out of range"
        );
        self.data[i * self.cols + j] = v;
    }

    /// Row `i` as a slice.
    ///
    /// # Panics
    /// If `i ≥ rows`.
    pub fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// `A x`; entry i is `Σ_j a_ij x_j` summed in j order.
    ///
    /// # Panics
    /// If `x.len() != cols`.
    pub fn matvec(&self, x: &[f64]) -> Vec<f64> {
        check_len("Matrix::matvec", x.len(), self.cols);
        (0..self.rows).map(|i| dot(self.row(i), x)).collect()
    }

    /// `A x` written into `out` (the values of [`Matrix::matvec`], no allocation).
    ///
    /// # Panics
    /// If `x.len() != cols` or `out.len() != rows`.
    pub fn matvec_into(&self, x: &[f64], out: &mut [f64]) {
        check_len("Matrix::matvec_into", x.len(), self.cols);
        check_len("Matrix::matvec_into", out.len(), self.rows);
        for (i, o) in out.iter_mut().enumerate() {
            *o = dot(self.row(i), x);
        }
    }

    /// `Aᵀ y` written into `out` (the values of [`Matrix::matvec_t`], no allocation).
    ///
    /// # Panics
    /// If `y.len() != rows` or `out.len() != cols`.
    pub fn matvec_t_into(&self, y: &[f64], out: &mut [f64]) {
        check_len("Matrix::matvec_t_into", y.len(), self.rows);
        check_len("Matrix::matvec_t_into", out.len(), self.cols);
        out.iter_mut().for_each(|o| *o = 0.0);
        for (i, &yi) in y.iter().enumerate() {
            let row = self.row(i);
            for j in 0..self.cols {
                out[j] += row[j] * yi;
            }
        }
    }

    /// `Aᵀ y`; entry j is `Σ_i a_ij y_i` summed in i order.
    ///
    /// # Panics
    /// If `y.len() != rows`.
    pub fn matvec_t(&self, y: &[f64]) -> Vec<f64> {
        check_len("Matrix::matvec_t", y.len(), self.rows);
        let mut out = vec![0.0; self.cols];
        for (i, &yi) in y.iter().enumerate() {
            let row = self.row(i);
            for j in 0..self.cols {
                out[j] += row[j] * yi;
            }
        }
        out
    }

    /// The transpose `Aᵀ`.
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t.data[j * self.rows + i] = self.data[i * self.cols + j];
            }
        }
        t
    }

    /// The product `A B`; entry (i, j) is `Σ_k a_ik b_kj` summed in k order.
    ///
    /// # Panics
    /// If `self.cols != other.rows`.
    pub fn matmul(&self, other: &Matrix) -> Matrix {
        check_len("Matrix::matmul", self.cols, other.rows);
        let mut out = Matrix::zeros(self.rows, other.cols);
        for i in 0..self.rows {
            for j in 0..other.cols {
                let mut s = 0.0;
                for k in 0..self.cols {
                    s += self.data[i * self.cols + k] * other.data[k * other.cols + j];
                }
                out.data[i * other.cols + j] = s;
            }
        }
        out
    }

    /// True when every entry is exactly `0.0` (or `-0.0`).
    pub fn is_zero(&self) -> bool {
        self.data.iter().all(|&v| v == 0.0)
    }

    /// True when the matrix is square and `a_ij == a_ji` exactly.
    pub fn is_symmetric(&self) -> bool {
        self.rows == self.cols
            && (0..self.rows).all(|i| {
                (0..i).all(|j| self.data[i * self.cols + j] == self.data[j * self.cols + i])
            })
    }

    /// Eigenvalues of a symmetric matrix, ascending, by the cyclic Jacobi method.
    ///
    /// Sweeps visit the pairs (p, q), p < q, in row order. An off-diagonal entry is annihilated
    /// by a Jacobi rotation (Golub–Van Loan, Alg. 8.5.2, with the stable tangent formula) unless it
    /// is negligible, `|a_pq| ≤ 1e-15·√|a_pp a_qq|` (or zero), in which case it is set to zero.
    /// The iteration stops after the first sweep that rotates nothing, i.e. when every
    /// off-diagonal entry is below `1e-15` relative to its diagonal pair (the relative criterion
    /// of Demmel–Veselić); at most 100 sweeps (cyclic Jacobi converges quadratically, so a few
    /// sweeps suffice for the small matrices of this crate). The diagonal is then returned,
    /// sorted with `f64::total_cmp`.
    ///
    /// # Errors
    /// [`Error::Invalid`](crate::error::Error::Invalid) naming `matrix` if it is not square and
    /// exactly symmetric, or has a non-finite entry.
    pub fn sym_eigenvalues(&self) -> Result<Vec<f64>> {
        if self.rows != self.cols {
            return Err(invalid(
                "matrix",
                format!("must be square, got {}x{}", self.rows, self.cols),
            ));
        }
        if self.data.iter().any(|v| !v.is_finite()) {
            return Err(invalid("matrix", "entries must be finite"));
        }
        if !self.is_symmetric() {
            return Err(invalid("matrix", "must be symmetric"));
        }
        let mut a = self.clone();
        jacobi_diagonalize(&mut a);
        let mut ev: Vec<f64> = (0..a.rows).map(|i| a.data[i * a.cols + i]).collect();
        ev.sort_by(f64::total_cmp);
        Ok(ev)
    }

    /// The operator norm `‖A‖₂₂`, the largest singular value.
    ///
    /// Computed as `√λ_max` of the smaller Gram matrix (`AᵀA` when `cols ≤ rows`, else `AAᵀ`, which
    /// has the same nonzero eigenvalues), whose eigenvalues come from the cyclic Jacobi method of
    /// [`Matrix::sym_eigenvalues`], converged to `1e-15` relative. Forming the Gram matrix squares
    /// the condition number, which loses accuracy only in the *small* singular values; the largest
    /// one is accurate to a few ulps. Meant for the small matrices of the test families. An empty
    /// matrix has norm 0; a matrix with a non-finite entry gives NaN (or ∞).
    pub fn op_norm(&self) -> f64 {
        if self.rows == 0 || self.cols == 0 {
            return 0.0;
        }
        if self.data.iter().any(|v| !v.is_finite()) {
            return if self.data.iter().any(|v| v.is_nan()) {
                f64::NAN
            } else {
                f64::INFINITY
            };
        }
        // Rescale by the largest entry so that the Gram matrix neither overflows nor underflows.
        let m = self.data.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        if m == 0.0 {
            return 0.0;
        }
        let scaled = Matrix {
            rows: self.rows,
            cols: self.cols,
            data: self.data.iter().map(|v| v / m).collect(),
        };
        let mut g = if self.cols <= self.rows {
            scaled.transpose().matmul(&scaled)
        } else {
            scaled.matmul(&scaled.transpose())
        };
        jacobi_diagonalize(&mut g);
        let lmax = (0..g.rows)
            .map(|i| g.data[i * g.cols + i])
            .fold(0.0_f64, f64::max);
        m * lmax.sqrt()
    }

    /// Solve the square system `A x = b` by Gaussian elimination with partial pivoting (the pivot
    /// is the lowest-index row of largest magnitude in the column, so the result is
    /// deterministic) followed by back substitution.
    ///
    /// # Errors
    /// [`Error::Invalid`](crate::error::Error::Invalid) naming `matrix` if A is not square, has a
    /// non-finite entry, or is singular to working precision (a pivot of magnitude
    /// `≤ n·2⁻⁵²·max|a_ij|`, which includes an exactly zero pivot), and naming `b` if `b` has the
    /// wrong length or a non-finite entry.
    pub fn solve(&self, b: &[f64]) -> Result<Vec<f64>> {
        let n = self.rows;
        if self.cols != n {
            return Err(invalid(
                "matrix",
                format!(
                    "solve needs a square matrix, got {}x{}",
                    self.rows, self.cols
                ),
            ));
        }
        if b.len() != n {
            return Err(invalid(
                "b",
                format!("length {} does not match matrix size {n}", b.len()),
            ));
        }
        if self.data.iter().any(|v| !v.is_finite()) {
            return Err(invalid("matrix", "entries must be finite"));
        }
        crate::error::require_finite("b", b)?;
        let amax = self.data.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
        let tiny = (n as f64) * f64::EPSILON * amax;
        let mut a = self.data.clone();
        let mut x = b.to_vec();
        for k in 0..n {
            // Partial pivoting: lowest index among the rows of largest |a_ik|.
            let mut piv = k;
            let mut best = a[k * n + k].abs();
            for i in (k + 1)..n {
                let v = a[i * n + k].abs();
                if v > best {
                    best = v;
                    piv = i;
                }
            }
            if best <= tiny || best == 0.0 {
                return Err(invalid(
                    "matrix",
                    format!("singular to working precision (pivot {best:e} in column {k})"),
                ));
            }
            if piv != k {
                for j in 0..n {
                    a.swap(k * n + j, piv * n + j);
                }
                x.swap(k, piv);
            }
            let akk = a[k * n + k];
            for i in (k + 1)..n {
                let f = a[i * n + k] / akk;
                if f != 0.0 {
                    for j in k..n {
                        a[i * n + j] -= f * a[k * n + j];
                    }
                    x[i] -= f * x[k];
                }
            }
        }
        for k in (0..n).rev() {
            let mut s = x[k];
            for j in (k + 1)..n {
                s -= a[k * n + j] * x[j];
            }
            x[k] = s / a[k * n + k];
        }
        Ok(x)
    }
}

/// In-place cyclic Jacobi diagonalization of a symmetric square matrix (see
/// [`Matrix::sym_eigenvalues`] for the rule). Entries are assumed finite.
fn jacobi_diagonalize(a: &mut Matrix) {
    let n = a.rows;
    for _ in 0..JACOBI_MAX_SWEEPS {
        let mut rotated = false;
        for p in 0..n {
            for q in (p + 1)..n {
                let apq = a.data[p * n + q];
                let app = a.data[p * n + p];
                let aqq = a.data[q * n + q];
                // √|a_pp|·√|a_qq| cannot overflow; a NaN is treated as negligible, which
                // guarantees termination.
                let thr = JACOBI_REL_TOL * app.abs().sqrt() * aqq.abs().sqrt();
                if apq.is_nan() || thr.is_nan() || apq.abs() <= thr {
                    a.data[p * n + q] = 0.0;
                    a.data[q * n + p] = 0.0;
                    continue;
                }
                rotated = true;
                let theta = (aqq - app) / (2.0 * apq);
                let t = if theta.abs() > 1e150 {
                    0.5 / theta
                } else {
                    let sgn = if theta >= 0.0 { 1.0 } else { -1.0 };
                    sgn / (theta.abs() + (1.0 + theta * theta).sqrt())
                };
                let c = 1.0 / (1.0 + t * t).sqrt();
                let s = t * c;
                for r in 0..n {
                    if r == p || r == q {
                        continue;
                    }
                    let arp = a.data[r * n + p];
                    let arq = a.data[r * n + q];
                    let nrp = c * arp - s * arq;
                    let nrq = s * arp + c * arq;
                    a.data[r * n + p] = nrp;
                    a.data[p * n + r] = nrp;
                    a.data[r * n + q] = nrq;
                    a.data[q * n + r] = nrq;
                }
                a.data[p * n + p] = app - t * apq;
                a.data[q * n + q] = aqq + t * apq;
                a.data[p * n + q] = 0.0;
                a.data[q * n + p] = 0.0;
            }
        }
        if !rotated {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_index_ordered() {
        // (1e16 + 1) + (-1e16) = 0 in index order; any reordering could give 1.
        assert_eq!(dot(&[1e16, 1.0, -1e16], &[1.0, 1.0, 1.0]), 0.0);
        assert_eq!(
            weighted_mean(&[vec![1e16], vec![1.0], vec![-1e16]], &[1.0; 3]),
            vec![0.0]
        );
    }

    #[test]
    fn vector_helpers() {
        let a = [1.0, 2.0, 2.0];
        assert_eq!(norm2(&a), 3.0);
        assert_eq!(norm2_sq(&a), 9.0);
        assert_eq!(dist2(&a, &[1.0, 2.0, 2.0]), 0.0);
        assert_eq!(add(&a, &a), vec![2.0, 4.0, 4.0]);
        assert_eq!(sub(&a, &a), vec![0.0; 3]);
        assert_eq!(scale(2.0, &a), vec![2.0, 4.0, 4.0]);
        let mut y = vec![1.0; 3];
        axpy(2.0, &a, &mut y);
        assert_eq!(y, vec![3.0, 5.0, 5.0]);
        let z = concat(&a, &[7.0]);
        assert_eq!(split(&z, 3), (a.to_vec(), vec![7.0]));
        assert_eq!(
            weighted_mean(&[vec![0.0, 2.0], vec![2.0, 0.0]], &[0.25, 0.75]),
            vec![1.5, 0.5]
        );
        assert!(weighted_mean(&[], &[]).is_empty());
    }

    #[test]
    fn sym_eigenvalues_known() {
        let m = Matrix::from_rows(vec![vec![2.0, 1.0], vec![1.0, 2.0]]).unwrap();
        let ev = m.sym_eigenvalues().unwrap();
        assert!((ev[0] - 1.0).abs() < 1e-15 && (ev[1] - 3.0).abs() < 1e-15);
        assert!(Matrix::zeros(2, 3).sym_eigenvalues().is_err());
        let ns = Matrix::from_rows(vec![vec![1.0, 2.0], vec![0.0, 1.0]]).unwrap();
        assert!(ns.sym_eigenvalues().is_err());
    }

    #[test]
    fn op_norm_edge_cases() {
        assert_eq!(Matrix::zeros(0, 0).op_norm(), 0.0);
        assert_eq!(Matrix::zeros(3, 2).op_norm(), 0.0);
        let mut m = Matrix::zeros(1, 1);
        m.set(0, 0, f64::NAN);
        assert!(m.op_norm().is_nan());
        // Huge and tiny scales do not overflow / underflow.
        let big = Matrix::from_rows(vec![vec![1e200, 0.0], vec![0.0, 3e200]]).unwrap();
        assert!((big.op_norm() / 3e200 - 1.0).abs() < 1e-15);
        let small = Matrix::from_rows(vec![vec![1e-200, 0.0], vec![0.0, 3e-200]]).unwrap();
        assert!((small.op_norm() / 3e-200 - 1.0).abs() < 1e-15);
    }

    #[test]
    fn solve_edge_cases() {
        assert_eq!(Matrix::zeros(0, 0).solve(&[]).unwrap(), Vec::<f64>::new());
        assert!(Matrix::identity(2).solve(&[1.0]).is_err());
        assert!(Matrix::identity(2).solve(&[1.0, f64::NAN]).is_err());
        assert!(Matrix::zeros(2, 3).solve(&[1.0, 1.0]).is_err());
    }
}
