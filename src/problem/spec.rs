//! JSON descriptions of problem instances, shared by `dpsaddle run` configs and fixtures.
//! Externally readable: `{"family": "quad_bilinear", "domain_w": {...}, ...}`; unknown fields
//! are rejected with the field named.

use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::linalg::Matrix;
use crate::problem::{AbsSeparable, CosHinge, QuadBilinear, SaddleFn};
use serde::{Deserialize, Serialize};

/// A problem instance by family name and parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "family", rename_all = "snake_case", deny_unknown_fields)]
pub enum ProblemSpec {
    /// [`QuadBilinear`]: f = ⟨Ax, w⟩ − ⟨Bx, θ⟩ + wᵀCθ + (α/2)‖w‖² − (γ/2)‖θ‖². Without `a_map`
    /// and `b_map`, x = [a; b] (A = [I 0], B = [0 I]); without `coupling`, C = 0.
    QuadBilinear {
        /// W.
        domain_w: Domain,
        /// Θ.
        domain_theta: Domain,
        /// C as rows (d_w rows of length d_θ).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        coupling: Option<Vec<Vec<f64>>>,
        /// α.
        #[serde(default)]
        alpha: f64,
        /// γ.
        #[serde(default)]
        gamma: f64,
        /// A as rows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        a_map: Option<Vec<Vec<f64>>>,
        /// B as rows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        b_map: Option<Vec<Vec<f64>>>,
    },
    /// [`AbsSeparable`].
    AbsSeparable {
        /// W (a box).
        domain_w: Domain,
        /// Θ (a box).
        domain_theta: Domain,
        /// κ (default 0).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kappa: Option<Vec<f64>>,
    },
    /// BGM23 Prop 13's f = wθ on [−1, 1]².
    Bgm23Prop13,
    /// [`CosHinge`] with parameter ε.
    CosHinge {
        /// ε ∈ (0, 1].
        eps: f64,
    },
}

fn matrix(field: &str, rows: &[Vec<f64>], r: usize, c: usize) -> Result<Matrix> {
    if rows.len() != r || rows.iter().any(|row| row.len() != c) {
        return Err(invalid(
            field,
            format!("must be {r}×{c} (rows of length {c})"),
        ));
    }
    if r == 0 {
        return Ok(Matrix::zeros(0, c));
    }
    Matrix::from_rows(rows.to_vec()).map_err(|e| match e {
        Error::Invalid { msg, .. } => invalid(field, msg),
        other => other,
    })
}

impl ProblemSpec {
    /// Build the family, validating every field.
    pub fn build(&self) -> Result<Box<dyn SaddleFn>> {
        Ok(match self {
            ProblemSpec::QuadBilinear {
                domain_w,
                domain_theta,
                coupling,
                alpha,
                gamma,
                a_map,
                b_map,
            } => {
                domain_w
                    .validate()
                    .map_err(|e| rename(e, "problem.domain_w"))?;
                domain_theta
                    .validate()
                    .map_err(|e| rename(e, "problem.domain_theta"))?;
                let (dw, dt) = (domain_w.dim(), domain_theta.dim());
                let c = match coupling {
                    Some(rows) => matrix("problem.coupling", rows, dw, dt)?,
                    None => Matrix::zeros(dw, dt),
                };
                match (a_map, b_map) {
                    (None, None) => Box::new(
                        QuadBilinear::data_affine(
                            domain_w.clone(),
                            domain_theta.clone(),
                            c,
                            *alpha,
                            *gamma,
                        )
                        .map_err(|e| rename(e, "problem"))?,
                    ),
                    (Some(a), Some(b)) => {
                        let k = a.first().map_or(0, |r| r.len());
                        let a = matrix("problem.a_map", a, dw, k)?;
                        let b = matrix("problem.b_map", b, dt, k)?;
                        Box::new(
                            QuadBilinear::new(
                                domain_w.clone(),
                                domain_theta.clone(),
                                a,
                                b,
                                c,
                                *alpha,
                                *gamma,
                            )
                            .map_err(|e| rename(e, "problem"))?,
                        )
                    }
                    _ => {
                        return Err(invalid(
                            "problem.a_map",
                            "a_map and b_map must be given together",
                        ))
                    }
                }
            }
            ProblemSpec::AbsSeparable {
                domain_w,
                domain_theta,
                kappa,
            } => {
                let d = domain_w.dim();
                Box::new(
                    AbsSeparable::new(
                        domain_w.clone(),
                        domain_theta.clone(),
                        kappa.clone().unwrap_or(vec![0.0; d]),
                    )
                    .map_err(|e| rename(e, "problem"))?,
                )
            }
            ProblemSpec::Bgm23Prop13 => Box::new(QuadBilinear::bgm23_prop13()),
            ProblemSpec::CosHinge { eps } => {
                Box::new(CosHinge::new(*eps).map_err(|e| rename(e, "problem"))?)
            }
        })
    }

    /// The LIN-box instance ([`crate::instances::lin_box`]) as a spec.
    pub fn lin_box(c: f64) -> ProblemSpec {
        ProblemSpec::QuadBilinear {
            domain_w: Domain::Box {
                lo: vec![-0.3],
                hi: vec![0.3],
            },
            domain_theta: Domain::Box {
                lo: vec![-0.4],
                hi: vec![0.4],
            },
            coupling: Some(vec![vec![c]]),
            alpha: 0.0,
            gamma: 0.0,
            a_map: None,
            b_map: None,
        }
    }
}

/// Prefix an `Invalid` error's field with `prefix` (leaves other errors alone).
pub fn rename(e: Error, prefix: &str) -> Error {
    match e {
        Error::Invalid { field, msg } if !field.starts_with(prefix) => {
            invalid(format!("{prefix}.{field}"), msg)
        }
        other => other,
    }
}
