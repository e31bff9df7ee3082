//! The mode-of-halves algorithm of BGM23 Prop 13 (its proof and footnote 6): on data
//! x ∈ {±1}, output w̄ = the mode of the first half of S and θ̄ = the mode of the second half.
//!
//! The paper takes n ≡ 2 (mod 4) so that both halves are odd and the modes are in {±1}. For
//! general n this implementation splits S into the first ⌊n/2⌋ points and the rest, and resolves
//! a tie by sgn(0) := `tie` ∈ [−1, 1] (s₀). It is deterministic: the noise source is never read.
//! Its exact law is `papers::bgm23::prop13::mode_of_halves_law`.

use crate::algorithms::{Algorithm, Diagnostics, Output};
use crate::error::{invalid, Result};
use crate::problem::saddle::validate_point;
use crate::problem::{Dataset, SaddleFn};
use crate::rng::NoiseSource;
use serde::{Deserialize, Serialize};

/// The diagnostics of a [`ModeOfHalves`] run: the sizes of the two halves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModeOfHalvesDiagnostics {
    /// ⌊n/2⌋.
    pub first_half: usize,
    /// n − ⌊n/2⌋.
    pub second_half: usize,
}

/// BGM23 Prop 13's algorithm A: (w̄, θ̄) = (mode of the first ⌊n/2⌋ points, mode of the rest).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModeOfHalves {
    /// The value of a half whose +1's and −1's tie, s₀ ∈ [−1, 1].
    pub tie: f64,
}

impl ModeOfHalves {
    /// The algorithm with tie value `tie` ∈ [−1, 1] (error naming `tie` otherwise).
    pub fn new(tie: f64) -> Result<ModeOfHalves> {
        let a = ModeOfHalves { tie };
        a.validate()?;
        Ok(a)
    }

    /// Check the tie value.
    pub fn validate(&self) -> Result<()> {
        if !(self.tie.is_finite() && (-1.0..=1.0).contains(&self.tie)) {
            return Err(invalid(
                "tie",
                format!("must be a finite value in [−1, 1], got {}", self.tie),
            ));
        }
        Ok(())
    }

    /// (w̄, θ̄) for data values x₁, …, xₙ ∈ {±1}, n ≥ 2. Errors name `data` (fewer than two
    /// points) or `data[i]` (a value other than ±1).
    pub fn modes(&self, xs: &[f64]) -> Result<(f64, f64)> {
        self.validate()?;
        if xs.len() < 2 {
            return Err(invalid(
                "data",
                format!(
                    "needs n ≥ 2 points (two non-empty halves), got {}",
                    xs.len()
                ),
            ));
        }
        if let Some(i) = xs.iter().position(|&x| x != 1.0 && x != -1.0) {
            return Err(invalid(
                format!("data[{i}]"),
                format!("must be +1 or −1 (D is supported on {{±1}}), got {}", xs[i]),
            ));
        }
        let mode = |half: &[f64]| {
            // Counting is exact: a sum of ±1's with |sum| ≤ n.
            let s: i64 = half.iter().map(|&x| x as i64).sum();
            match s.cmp(&0) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => -1.0,
                std::cmp::Ordering::Equal => self.tie,
            }
        };
        let m1 = xs.len() / 2;
        Ok((mode(&xs[..m1]), mode(&xs[m1..])))
    }
}

impl Algorithm for ModeOfHalves {
    fn name(&self) -> String {
        format!("mode_of_halves(sgn(0)={})", self.tie)
    }

    /// Needs d_w = d_θ = 1 and scalar data points; the output must lie in W×Θ (it does for
    /// BGM23 Prop 13's W = Θ = [−1, 1]).
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, _noise: &mut NoiseSource) -> Result<Output> {
        if f.dim_w() != 1 || f.dim_theta() != 1 {
            return Err(invalid(
                "problem",
                format!(
                    "mode_of_halves outputs scalars: needs d_w = d_θ = 1, got ({}, {})",
                    f.dim_w(),
                    f.dim_theta()
                ),
            ));
        }
        if s.point_dim() != 1 {
            return Err(invalid(
                "data",
                format!("points must be scalars (±1), got length {}", s.point_dim()),
            ));
        }
        let xs: Vec<f64> = s.points.iter().map(|x| x[0]).collect();
        let (w, t) = self.modes(&xs)?;
        validate_point(f, &[w], &[t])?;
        Ok(Output {
            w: vec![w],
            theta: vec![t],
            grad_evals: 0,
            ledger: None,
            info: Diagnostics::ModeOfHalves(ModeOfHalvesDiagnostics {
                first_half: xs.len() / 2,
                second_half: xs.len() - xs.len() / 2,
            }),
        })
    }
}
