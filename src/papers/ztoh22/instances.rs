//! The instances ZTOH22's algorithm claims run on (proofs-notes/ztoh22.md, Part 1): data-affine
//! operators G(z; ξ) = M z + ξ on a Euclidean ball, whose constants (L = sup ‖G‖, μ, ℓ) are exact
//! ([`MonotoneOp::constants`]), and balanced datasets ±r·u.

use crate::error::Result;
use crate::geometry::Domain;
use crate::linalg;
use crate::problem::monotone::{DataAffineOp, DataMap, MonotoneOp, StructMat};
use crate::problem::Dataset;

/// G(z; ξ) = diag(h) z + ξ on the ball B(0, R) ⊂ ℝᵈ (d = h.len()) when h is isotropic, else on
/// the box [−R, R]ᵈ (where sup ‖G‖ is closed form for a diagonal operator): the gradient of f(z; ξ) =
/// ⟨ξ, z⟩ + ½ Σ h_i z_i² (minimization; h = μ1 is Algorithm 1's μ-strongly convex loss, h = 0
/// the linear loss of Algorithm 2), or, read as z = (x, y), the saddle operator (∇_x f, −∇_y f)
/// of f = ⟨ξ_x, x⟩ − ⟨ξ_y, y⟩ + ½Σ h_x x² − ½Σ h_y y² (Algorithm 3).
///
/// # Errors
/// [`crate::error::Error::Invalid`] for a bad radius or h.
pub fn diagonal_ball(h: Vec<f64>, radius: f64) -> Result<DataAffineOp> {
    let d = h.len();
    let iso = h.iter().all(|v| *v == h[0]);
    let domain = if iso {
        Domain::ball(vec![0.0; d], radius)?
    } else {
        Domain::new_box(vec![-radius; d], vec![radius; d])?
    };
    let fixed = if h.iter().all(|v| *v == 0.0) {
        vec![]
    } else {
        vec![StructMat::Diagonal(h)]
    };
    DataAffineOp::new(
        domain,
        d,
        fixed,
        vec![],
        DataMap::Block {
            offset: 0,
            scale: 1.0,
        },
        None,
    )
}

/// The saddle operator of f(x, y; ξ) = c·xy + ξ_x x − ξ_y y (d_x = d_y = 1) on B(0, R) ⊂ ℝ²:
/// G = (c y + ξ_x, −c x + ξ_y), i.e. M = −c·J (convex–concave, not strongly: Algorithms 4/5).
///
/// # Errors
/// As [`diagonal_ball`].
pub fn bilinear_ball(c: f64, radius: f64) -> Result<DataAffineOp> {
    DataAffineOp::new(
        Domain::ball(vec![0.0; 2], radius)?,
        2,
        vec![StructMat::Rotation { dim: 2, s: -c }],
        vec![],
        DataMap::Block {
            offset: 0,
            scale: 1.0,
        },
        None,
    )
}

/// n points alternating +r·u, −r·u (u normalized): every contiguous batch of even size has mean 0.
///
/// # Errors
/// [`crate::error::Error::Invalid`] for n = 0.
pub fn balanced(n: usize, u: &[f64], r: f64) -> Result<Dataset> {
    let un = linalg::scale(r / linalg::norm2(u), u);
    let neg = linalg::scale(-1.0, &un);
    Dataset::new(
        (0..n)
            .map(|i| if i % 2 == 0 { un.clone() } else { neg.clone() })
            .collect(),
    )
}

/// L = sup over Z and the points of `support` of ‖G(z; ξ)‖ (the Lipschitz constant of f that the
/// sensitivities use), from the family's exact constants.
///
/// # Errors
/// As [`MonotoneOp::constants`].
pub fn lipschitz_of_f(op: &dyn MonotoneOp, support: &[Vec<f64>]) -> Result<f64> {
    Ok(op.constants(support)?.bound)
}

/// The saddle operator of f(x, y; ξ) = c·xy + ξ_x x − ξ_y y (d_x = d_y = 1) on the box
/// X × Y = [−D, D]² (Thm 4.5's max{‖x‖, ‖y‖} ≤ D): G = (c y + ξ_x, −c x + ξ_y), M = −c·J.
///
/// # Errors
/// As [`diagonal_ball`].
pub fn bilinear_box(c: f64, d_bound: f64) -> Result<DataAffineOp> {
    DataAffineOp::new(
        Domain::new_box(vec![-d_bound; 2], vec![d_bound; 2])?,
        2,
        vec![StructMat::Rotation { dim: 2, s: -c }],
        vec![],
        DataMap::Block {
            offset: 0,
            scale: 1.0,
        },
        None,
    )
}
