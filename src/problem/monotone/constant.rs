//! Constant operators G(z; β) = mβ (BG23 Prop 12's instance, "Const-VI" of the issue plan): the
//! lower-bound and tightness instances of BG23 (Prop 5, Prop 9 with ν = 0, Thm 3 at T = 1).

use super::structured::DataMap;
use super::{DataAffineOp, MonotoneOp, OpConstants};
use crate::error::{invalid, Result};
use crate::geometry::Domain;
use crate::linalg;
use crate::problem::saddle::Mixture;

/// G(z; β) = mβ on Z ⊂ ℝᵈ, data β ∈ ℝᵈ: monotone (not strongly), 0-Lipschitz.
#[derive(Clone, Debug, PartialEq)]
pub struct ConstantOp {
    domain: Domain,
    m: f64,
}

impl ConstantOp {
    /// G(z; β) = mβ on `domain` (m finite).
    pub fn new(domain: Domain, m: f64) -> Result<Self> {
        domain.validate()?;
        if !m.is_finite() {
            return Err(invalid("m", format!("must be finite, got {m}")));
        }
        Ok(ConstantOp { domain, m })
    }

    /// BG23 Prop 12's instance: G(u; β) = Mβ on the ball B(0, radius) ⊂ ℝᵈ (the paper takes
    /// radius D, so W has diameter 2D), with data in {±1/√d}ᵈ ([`ConstantOp::prop12_atoms`]).
    pub fn bg23_prop12(d: usize, m: f64, radius: f64) -> Result<Self> {
        Self::new(Domain::ball(vec![0.0; d], radius)?, m)
    }

    /// The 2ᵈ points of {±1/√d}ᵈ (d ≤ 16), in binary order (bit i set: coordinate i negative).
    pub fn prop12_atoms(d: usize) -> Result<Vec<Vec<f64>>> {
        if d == 0 || d > 16 {
            return Err(invalid("d", format!("must be in 1..=16, got {d}")));
        }
        let a = 1.0 / (d as f64).sqrt();
        Ok((0..1usize << d)
            .map(|bits| {
                (0..d)
                    .map(|i| if bits >> i & 1 == 1 { -a } else { a })
                    .collect()
            })
            .collect())
    }

    /// m.
    pub fn m(&self) -> f64 {
        self.m
    }
}

impl MonotoneOp for ConstantOp {
    fn dim(&self) -> usize {
        self.domain.dim()
    }
    fn domain(&self) -> &Domain {
        &self.domain
    }
    fn point_dim(&self) -> usize {
        self.domain.dim()
    }
    fn eval(&self, _z: &[f64], x: &[f64]) -> Vec<f64> {
        x.iter().map(|b| self.m * b).collect()
    }
    fn eval_into(&self, _z: &[f64], x: &[f64], out: &mut [f64]) {
        for (o, b) in out.iter_mut().zip(x) {
            *o = self.m * b;
        }
    }
    fn add_scaled(&self, _z: &[f64], x: &[f64], s: f64, out: &mut [f64]) {
        for (o, b) in out.iter_mut().zip(x) {
            *o += s * (self.m * b);
        }
    }
    /// With Ḡ = m β̄ constant: sup_u ⟨Ḡ, z − u⟩ = ⟨Ḡ, z⟩ + σ_Z(−Ḡ), on any domain with a support
    /// function (BG23 Prop 12's proof computes it on a ball: ‖Ḡ‖·r + ⟨Ḡ, z⟩).
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> Result<f64> {
        data.validate("data", self.point_dim())?;
        let g = linalg::scale(self.m, &data.mean());
        Ok(linalg::dot(&g, z) + self.domain.support(&linalg::scale(-1.0, &g)))
    }
    /// L = 0, μ = 0, M = |m|·max‖β‖ over the support, D = diam Z.
    fn constants(&self, support: &[Vec<f64>]) -> Result<OpConstants> {
        if support.is_empty() {
            return Err(invalid("support", "needs at least one data point"));
        }
        let mut bound = 0.0_f64;
        for (i, x) in support.iter().enumerate() {
            if x.len() != self.point_dim() {
                return Err(invalid(
                    format!("support[{i}]"),
                    format!("has length {}, expected {}", x.len(), self.point_dim()),
                ));
            }
            crate::error::require_finite(&format!("support[{i}]"), x)?;
            bound = bound.max(self.m.abs() * linalg::norm2(x));
        }
        Ok(OpConstants {
            lipschitz: 0.0,
            bound,
            diameter: self.domain.diameter(),
            modulus: 0.0,
        })
    }
    fn affine_form(&self) -> Option<DataAffineOp> {
        DataAffineOp::new(
            self.domain.clone(),
            self.dim(),
            vec![],
            vec![],
            DataMap::Block {
                offset: 0,
                scale: self.m,
            },
            None,
        )
        .ok()
    }
}
