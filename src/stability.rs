//! Empirical uniform argument stability, sensitivity and output variance
//! (BGM23 Definition 1; the measured quantities behind BGM23 Lemma 2, Lemma 6, Prop 14).
//!
//! Runs on S and its neighbour S′ use the same seed, so they consume identical noise and indices
//! (coupled runs, see `fixtures/RANDOMNESS.md`). Neighbour pairs are evaluated in parallel with rayon and
//! collected in a fixed order, so every result is independent of the thread count.

use crate::algorithms::Algorithm;
use crate::error::{invalid, Result};
use crate::linalg;
use crate::problem::{Dataset, SaddleFn};
use crate::rng::NoiseSource;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// A replace-one neighbour: point `i` of S replaced by support atom `atom`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Neighbour {
    /// The dataset's count vector, when the neighbours come from enumerating a support.
    pub counts: Option<Vec<usize>>,
    /// Index i of the replaced point.
    pub i: usize,
    /// Index of the replacement atom in the support.
    pub atom: usize,
}

/// The result of a stability measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StabilityReport {
    /// Δ̂ = max over neighbours of the seed-averaged ‖A(S) − A(S′)‖.
    pub delta: f64,
    /// Where the maximum is attained (first in evaluation order).
    pub worst: Option<Neighbour>,
    /// Neighbour pairs evaluated.
    pub pairs: usize,
    /// Seeds per pair.
    pub seeds: usize,
}

fn mean_distance(
    alg: &dyn Algorithm,
    f: &dyn SaddleFn,
    s: &Dataset,
    s2: &Dataset,
    seeds: &[u64],
) -> Result<f64> {
    let mut acc = 0.0;
    for &seed in seeds {
        let a = alg.run(f, s, &mut NoiseSource::sample(seed))?;
        let b = alg.run(f, s2, &mut NoiseSource::sample(seed))?;
        acc += linalg::norm2(&linalg::sub(&a.z(), &b.z()));
    }
    Ok(acc / seeds.len() as f64)
}

fn check_seeds(seeds: &[u64]) -> Result<()> {
    if seeds.is_empty() {
        return Err(invalid("seeds", "need at least one seed"));
    }
    Ok(())
}

/// Δ̂ over all replace-one neighbours of one dataset S: every i ∈ \[n\] and every support atom
/// x′ ≠ x_i, with E_A estimated by the mean over `seeds` (one seed suffices for a deterministic A).
pub fn uniform_argument_stability(
    alg: &dyn Algorithm,
    f: &dyn SaddleFn,
    s: &Dataset,
    support: &[Vec<f64>],
    seeds: &[u64],
) -> Result<StabilityReport> {
    check_seeds(seeds)?;
    let mut pairs = Vec::new();
    for i in 0..s.len() {
        for (j, x) in support.iter().enumerate() {
            if *x != s.points[i] {
                pairs.push((i, j));
            }
        }
    }
    let dists: Vec<Result<f64>> = pairs
        .par_iter()
        .map(|&(i, j)| mean_distance(alg, f, s, &s.replace_one(i, &support[j])?, seeds))
        .collect();
    let mut best = (f64::NEG_INFINITY, None);
    for (k, d) in dists.into_iter().enumerate() {
        let d = d?;
        if d > best.0 {
            best = (
                d,
                Some(Neighbour {
                    counts: None,
                    i: pairs[k].0,
                    atom: pairs[k].1,
                }),
            );
        }
    }
    Ok(StabilityReport {
        delta: best.0.max(0.0),
        worst: best.1,
        pairs: pairs.len(),
        seeds: seeds.len(),
    })
}

/// Δ̂ over *every* dataset of size n on a finite support and every replace-one neighbour, for a
/// symmetric algorithm (its output depends on S only through the count vector): the supremum in
/// BGM23 Definition 1 restricted to the support, computed by enumerating count vectors c and every
/// move of one point from atom a (c_a > 0) to atom b ≠ a.
pub fn uas_over_support(
    alg: &dyn Algorithm,
    f: &dyn SaddleFn,
    support: &[Vec<f64>],
    n: usize,
    seeds: &[u64],
) -> Result<StabilityReport> {
    check_seeds(seeds)?;
    if support.len() < 2 || n == 0 {
        return Err(invalid("support", "needs at least two atoms and n ≥ 1"));
    }
    let k = support.len();
    let dataset = |c: &[usize]| Dataset {
        points: crate::problem::Rows::new(crate::exact::dataset_points(support, c))
            .expect("the atoms have one length"),
    };
    let moves: Vec<_> = crate::exact::replace_one_moves(n, k).collect();
    let dists: Vec<Result<f64>> = moves
        .par_iter()
        .map(|mv| mean_distance(alg, f, &dataset(&mv.counts), &dataset(&mv.neighbour), seeds))
        .collect();
    let mut best = (f64::NEG_INFINITY, None);
    for (mv, d) in moves.iter().zip(dists) {
        let d = d?;
        if d > best.0 {
            best = (
                d,
                Some(Neighbour {
                    counts: Some(mv.counts.clone()),
                    i: mv.index(),
                    atom: mv.to,
                }),
            );
        }
    }
    Ok(StabilityReport {
        delta: best.0.max(0.0),
        worst: best.1,
        pairs: moves.len(),
        seeds: seeds.len(),
    })
}

/// ℓ2 sensitivity of a deterministic vector-valued statistic q(S) over the replace-one neighbours
/// of S within `support`: max ‖q(S) − q(S′)‖.
pub fn sensitivity<Q>(q: Q, s: &Dataset, support: &[Vec<f64>]) -> Result<f64>
where
    Q: Fn(&Dataset) -> Result<Vec<f64>> + Sync,
{
    let base = q(s)?;
    let mut pairs = Vec::new();
    for i in 0..s.len() {
        for x in support {
            if *x != s.points[i] {
                pairs.push((i, x.clone()));
            }
        }
    }
    let ds: Vec<Result<f64>> = pairs
        .par_iter()
        .map(|(i, x)| {
            Ok(linalg::norm2(&linalg::sub(
                &base,
                &q(&s.replace_one(*i, x)?)?,
            )))
        })
        .collect();
    let mut m = 0.0f64;
    for d in ds {
        m = m.max(d?);
    }
    Ok(m)
}

/// Output variance τ² = E‖A − E A‖² of a weighted output distribution (BGM23 Prop 14's τ²).
pub fn output_variance(outputs: &[(f64, Vec<f64>)]) -> f64 {
    let mean = crate::problem::saddle::weighted_point_mean(outputs);
    outputs
        .iter()
        .map(|(r, z)| r * linalg::norm2_sq(&linalg::sub(z, &mean)))
        .sum()
}
