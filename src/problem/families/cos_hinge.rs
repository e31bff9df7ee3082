//! The instance on which BGM23 Fact 1's constant √2 is nearly attained (derived for this crate,
//! not in the paper; the derivation follows). Data-free:
//!
//! f(w, θ) = θ·φ(w),  φ(w) = −cos w for w ≤ π/2 and w − π/2 beyond,
//! W = [−π/2, π/2 + ε], Θ = [0, 1].
//!
//! φ is C¹ and convex, θ ≥ 0, so f is convex in w and linear in θ; L = √(1 + ε²) exactly.
//! Ĝap(w̄, θ̄) = max(0, φ(w̄)) + θ̄, and the pair (π/2, 0), (π/2 + ε, ε) moves Ĝap by 2ε over a
//! distance √2·ε, a ratio √2 = √2·L/√(1 + ε²).

use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::problem::saddle::{Constants, Objective, SaddleFn};
use serde::{Deserialize, Serialize};
use std::f64::consts::FRAC_PI_2;

/// The Fact 1 near-tightness instance with parameter ε > 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CosHinge {
    /// ε > 0.
    pub eps: f64,
    #[serde(skip)]
    domains: Option<(Domain, Domain)>,
}

impl CosHinge {
    /// The instance with parameter ε ∈ (0, 1].
    pub fn new(eps: f64) -> Result<Self> {
        if !(eps.is_finite() && eps > 0.0 && eps <= 1.0) {
            return Err(invalid("eps", format!("must be in (0, 1], got {eps}")));
        }
        Ok(CosHinge {
            eps,
            domains: Some((
                Domain::Box {
                    lo: vec![-FRAC_PI_2],
                    hi: vec![FRAC_PI_2 + eps],
                },
                Domain::Box {
                    lo: vec![0.0],
                    hi: vec![1.0],
                },
            )),
        })
    }

    /// φ(w).
    pub fn phi(w: f64) -> f64 {
        if w <= FRAC_PI_2 {
            -w.cos()
        } else {
            w - FRAC_PI_2
        }
    }

    fn dphi(w: f64) -> f64 {
        if w <= FRAC_PI_2 {
            w.sin()
        } else {
            1.0
        }
    }

    fn doms(&self) -> &(Domain, Domain) {
        self.domains.as_ref().expect("constructed by CosHinge::new")
    }

    fn unregularized(obj: &Objective) -> Result<()> {
        if obj.reg.total_w() > 0.0 || obj.reg.total_theta() > 0.0 {
            return Err(Error::Unsupported(
                "cos_hinge has closed-form best responses only without regularization".into(),
            ));
        }
        Ok(())
    }
}

impl SaddleFn for CosHinge {
    fn name(&self) -> String {
        format!("cos_hinge(ε={})", self.eps)
    }
    fn dim_w(&self) -> usize {
        1
    }
    fn dim_theta(&self) -> usize {
        1
    }
    fn point_dim(&self) -> usize {
        1
    }
    fn domain_w(&self) -> &Domain {
        &self.doms().0
    }
    fn domain_theta(&self) -> &Domain {
        &self.doms().1
    }
    fn value(&self, w: &[f64], theta: &[f64], _x: &[f64]) -> f64 {
        theta[0] * Self::phi(w[0])
    }
    fn grad(&self, w: &[f64], theta: &[f64], _x: &[f64]) -> (Vec<f64>, Vec<f64>) {
        (vec![theta[0] * Self::dphi(w[0])], vec![Self::phi(w[0])])
    }
    fn constants(&self, _support: &[Vec<f64>]) -> Constants {
        Constants {
            lipschitz: (1.0 + self.eps * self.eps).sqrt(),
            smoothness: Some(1.0 + self.eps),
            diameter: ((std::f64::consts::PI + self.eps).powi(2) + 1.0).sqrt(),
        }
    }
    /// argmax_{θ∈\[0,1\]} θ·Σρ_k φ(w_k): θ = 1 if the sum is positive, else 0.
    fn best_theta(&self, ws: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>> {
        Self::unregularized(obj)?;
        let m: f64 = ws.iter().map(|(r, w)| r * Self::phi(w[0])).sum();
        Ok(vec![if m > 0.0 { 1.0 } else { 0.0 }])
    }
    /// argmin_w θ̄·φ(w) with θ̄ ≥ 0: w = 0 (where φ = −1); for θ̄ = 0 every w ties and 0 is taken.
    fn best_w(&self, thetas: &[(f64, Vec<f64>)], obj: &Objective) -> Result<Vec<f64>> {
        Self::unregularized(obj)?;
        let _ = thetas;
        Ok(vec![0.0])
    }
    fn operator_lipschitz(&self, _obj: &Objective) -> Option<f64> {
        None
    }
}
