//! BG23 §2.1, the examples of SSP problems: when the compositional reformulation
//! min_x max_{y∈Y} Σ_j⟨φ_j(x), A_j y + b_j⟩ − Φ_*(y) is convex–concave (erratum E-BG23-9).
//! Walk-through: `proofs-notes/bg23.md`, Part 1.

use crate::error::{invalid, Result};
use crate::papers::Reading;

/// Whether BG23 §2.1's compositional reformulation is convex–concave for convex φ_j and a
/// convex Φ_*, as each reading states it:
///
/// * [`Reading::PaperLiteral`]: always ("the overall optimization problem can be reformulated as
///   a convex–concave saddle point problem", no condition);
/// * [`Reading::Corrected`]: when every φ_j is affine (`phi_affine`), or when the coefficients
///   A_j y + b_j multiplying the non-affine φ_j are ≥ 0 on Y: `min_coefficient` is
///   min_{y∈Y} min_i (A_j y + b_j)_i. Then each ⟨φ_j(x), A_j y + b_j⟩ is a nonnegative combination
///   of convex functions of x, and the objective is affine minus convex in y.
pub fn compositional_convex_concave(
    reading: Reading,
    phi_affine: bool,
    min_coefficient: f64,
) -> Result<bool> {
    if min_coefficient.is_nan() {
        return Err(invalid("min_coefficient", "must not be NaN"));
    }
    Ok(match reading {
        Reading::PaperLiteral => true,
        Reading::Corrected => phi_affine || min_coefficient >= 0.0,
    })
}
