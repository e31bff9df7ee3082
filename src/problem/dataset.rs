//! Datasets S = (x_1, …, x_n) and the replace-one neighbouring relation (BGM23 Definition 1 and
//! §2, "Differential Privacy": datasets differing in one point).

use crate::error::{invalid, Result};
use serde::{Deserialize, Serialize};

/// A dataset S ∈ Xⁿ, with each data point x ∈ ℝᵏ. Order matters: algorithms that split S into
/// chunks (BGM23 Algorithm 1) or read it in one pass (BGM23 Cor 16) see the points in this order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// The points x_1, …, x_n, each of the same length k.
    pub points: Vec<Vec<f64>>,
}

impl Dataset {
    /// A dataset from its points; all points must have one common, non-zero length and be finite.
    pub fn new(points: Vec<Vec<f64>>) -> Result<Self> {
        if points.is_empty() {
            return Err(invalid("data", "a dataset needs at least one point"));
        }
        let k = points[0].len();
        for (i, x) in points.iter().enumerate() {
            if x.len() != k {
                return Err(invalid(
                    format!("data[{i}]"),
                    format!(
                        "has length {}, expected {k} (the length of data[0])",
                        x.len()
                    ),
                ));
            }
            if x.iter().any(|v| !v.is_finite()) {
                crate::error::require_finite(&format!("data[{i}]"), x)?;
            }
        }
        Ok(Dataset { points })
    }

    /// n, the number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when the dataset has no points (never, for a dataset built by [`Dataset::new`]).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// k, the length of each data point.
    pub fn point_dim(&self) -> usize {
        self.points.first().map_or(0, |x| x.len())
    }

    /// The neighbour S′ = S with x_i replaced by `x_new` (replace-one adjacency, BGM23 §2).
    pub fn replace_one(&self, i: usize, x_new: &[f64]) -> Result<Dataset> {
        if i >= self.len() {
            return Err(invalid(
                "index",
                format!("{i} is out of range for n = {}", self.len()),
            ));
        }
        if x_new.len() != self.point_dim() {
            return Err(invalid(
                "replacement point",
                format!("has length {}, expected {}", x_new.len(), self.point_dim()),
            ));
        }
        let mut points = self.points.clone();
        points[i] = x_new.to_vec();
        Ok(Dataset { points })
    }

    /// The sub-dataset of points `range` (used for the disjoint chunks of BGM23 Algorithm 1).
    pub fn slice(&self, range: std::ops::Range<usize>) -> Dataset {
        Dataset {
            points: self.points[range].to_vec(),
        }
    }

    /// The empirical mean (1/n) Σ x_i, summed in index order.
    pub fn mean(&self) -> Vec<f64> {
        let k = self.point_dim();
        let mut m = vec![0.0; k];
        for x in &self.points {
            for (mj, xj) in m.iter_mut().zip(x) {
                *mj += xj;
            }
        }
        let n = self.len() as f64;
        m.iter_mut().for_each(|v| *v /= n);
        m
    }
}
