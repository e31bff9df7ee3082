//! KLLW22's test instances: the ρ-SC-SC data-affine loss its stability and generalization claims
//! run on (with Assumption 2's blockwise G), and the bilinear-quadratic family of Lemma 11 with
//! closed-form best responses.

use crate::error::Result;
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::problem::QuadBilinear;

/// The ρ-SC-SC data-affine loss ℓ(w, v; x) = ⟨a, w⟩ − ⟨b, v⟩ + wᵀCv + (ρ/2)‖w‖² − (ρ/2)‖v‖²,
/// x = (a, b) (`QuadBilinear::data_affine` with α = γ = ρ), on balls of radius r centred at 0
/// (d_w = d_v = d, so 0 ∈ W and 0 ∈ V as Algorithm 1's start w_1 = v_1 = 0 needs): KLLW22
/// Assumptions 1–3 and 5 hold with L = max(ρ, ‖C‖) and M_W = M_V = r.
pub fn instance(d: usize, r: f64, rho: f64, c: Matrix) -> Result<QuadBilinear> {
    let ball = || Domain::Ball {
        center: vec![0.0; d],
        radius: r,
    };
    QuadBilinear::data_affine(ball(), ball(), c, rho, rho)
}

/// KLLW22 Assumption 2's blockwise G for [`instance`] over the atoms x = (a, b): the largest of
/// ‖a‖ + ρr + ‖C‖r (a bound on ‖∇_w ℓ‖ over the ball) and ‖b‖ + ρr + ‖C‖r (on ‖∇_v ℓ‖).
pub fn blockwise_g(d: usize, r: f64, rho: f64, c_norm: f64, atoms: &[Vec<f64>]) -> f64 {
    atoms
        .iter()
        .map(|x| {
            let (a, b) = linalg::split(x, d);
            let ga = linalg::norm2(&a) + rho * r + c_norm * r;
            let gb = linalg::norm2(&b) + rho * r + c_norm * r;
            ga.max(gb)
        })
        .fold(0.0, f64::max)
}

/// Householder reflection I − 2uuᵀ/‖u‖² applied to x.
fn householder(u: &[f64], x: &[f64]) -> Vec<f64> {
    let uu: f64 = u.iter().map(|a| a * a).sum();
    let ux: f64 = u.iter().zip(x).map(|(a, b)| a * b).sum();
    x.iter()
        .zip(u)
        .map(|(xi, ui)| xi - 2.0 * ux / uu * ui)
        .collect()
}

fn project_ball(x: Vec<f64>, r: f64) -> Vec<f64> {
    let nx = x.iter().map(|a| a * a).sum::<f64>().sqrt();
    if nx <= r {
        x
    } else {
        x.into_iter().map(|a| a * r / nx).collect()
    }
}

/// The test family of KLLW22 Lemma 11: f(w, v) = (ρ/2)‖w‖² + wᵀAv − (ρ/2)‖v‖² on balls of
/// radius R, A = H₁·diag(d)·H₂ (Householder reflections, so ‖A‖₂ = max|d_i|). ρ-SC-SC and
/// L-smooth (Assumption 3, blockwise) with L = max(ρ, ‖A‖₂). Best responses in closed form:
/// w*(v) = Π_R(−Av/ρ), v*(w) = Π_R(Aᵀw/ρ).
pub struct BilinearQuad {
    /// ρ.
    pub rho: f64,
    /// u₁ of H₁.
    pub u1: Vec<f64>,
    /// Singular values d (up to sign).
    pub d: Vec<f64>,
    /// u₂ of H₂.
    pub u2: Vec<f64>,
    /// Ball radius R.
    pub radius: f64,
}

impl BilinearQuad {
    fn a(&self, v: &[f64]) -> Vec<f64> {
        let y = householder(&self.u2, v);
        let y: Vec<f64> = y.iter().zip(&self.d).map(|(a, b)| a * b).collect();
        householder(&self.u1, &y)
    }
    fn a_t(&self, w: &[f64]) -> Vec<f64> {
        let y = householder(&self.u1, w);
        let y: Vec<f64> = y.iter().zip(&self.d).map(|(a, b)| a * b).collect();
        householder(&self.u2, &y)
    }
    /// The right singular direction H₂e_i of A for coordinate i (along it, A acts as d_i).
    pub fn right_singular(&self, i: usize) -> Vec<f64> {
        let mut e = vec![0.0; self.d.len()];
        e[i] = 1.0;
        householder(&self.u2, &e)
    }
    /// L = max(ρ, ‖A‖₂).
    pub fn smooth_l(&self) -> f64 {
        self.d.iter().fold(self.rho, |m, x| m.max(x.abs()))
    }
    /// w*(v) = argmin over the ball of f(·, v).
    pub fn w_star(&self, v: &[f64]) -> Vec<f64> {
        project_ball(
            self.a(v).iter().map(|x| -x / self.rho).collect(),
            self.radius,
        )
    }
    /// v*(w) = argmax over the ball of f(w, ·).
    pub fn v_star(&self, w: &[f64]) -> Vec<f64> {
        project_ball(
            self.a_t(w).iter().map(|x| x / self.rho).collect(),
            self.radius,
        )
    }
}
