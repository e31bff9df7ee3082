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

/// A replace-one neighbour of an ordered dataset: the sequence S (atom indices into the
/// support, in order), the replaced position i and the replacement atom (S′_i).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SequenceNeighbour {
    /// S as atom indices, position by position.
    pub sequence: Vec<usize>,
    /// The replaced position i (0-based).
    pub i: usize,
    /// The atom S′ has at position i.
    pub atom: usize,
}

/// Uniform argument stability per block over ordered datasets (see [`uas_over_sequences`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BlockStabilityReport {
    /// Δ_w = max over neighbour pairs of the seed-averaged ‖w(S) − w(S′)‖.
    pub delta_w: f64,
    /// Δ_θ = max over neighbour pairs of the seed-averaged ‖θ(S) − θ(S′)‖.
    pub delta_theta: f64,
    /// Δ = max over neighbour pairs of the seed-averaged ‖A(S) − A(S′)‖ (joint ℓ2).
    pub delta: f64,
    /// Where Δ_w is attained (first in enumeration order).
    pub worst_w: Option<SequenceNeighbour>,
    /// Where Δ_θ is attained.
    pub worst_theta: Option<SequenceNeighbour>,
    /// Where Δ is attained.
    pub worst: Option<SequenceNeighbour>,
    /// Unordered neighbour pairs evaluated.
    pub pairs: usize,
    /// Seeds per pair.
    pub seeds: usize,
}

/// The most neighbour pairs [`uas_over_sequences`] enumerates.
pub const MAX_SEQUENCE_PAIRS: usize = 1_000_000;

/// Uniform argument stability (BG23 Definition 1; BGM23 Definition 1) of an algorithm whose
/// output may depend on the **order** of its data (SGDA with disjoint, contiguous or sampled
/// batches, extragradient in a single pass, …), per block as BG23 Prop 1 needs it (δ_x-UAS of
/// x(·) and δ_y-UAS of y(·), here Δ_w and Δ_θ), and jointly.
///
/// The supremum over S ≃ S′ is taken over **every** sequence S ∈ supportⁿ (all kⁿ ordered
/// datasets, not only one representative per count vector as [`uas_over_support`] does, which is
/// exact only for symmetric algorithms) and every replace-one neighbour (each position i and each
/// atom ≠ S_i; the pair {S, S′} is evaluated once, since the coupled distance is symmetric).
/// Each block's maximum is taken separately (they may be attained at different pairs).
///
/// E_A is the mean over `seeds` (coupled: S and S′ run with the same seed). This is an exact
/// expectation for the algorithm whose randomness is "a seed uniform on `seeds`", a legitimate
/// distribution of A's internal randomness: BG23 Prop 1 and BGM23 Lemma 17 hold for any
/// distribution of A's randomness independent of the data, so the measured Δ is the UAS of that
/// algorithm exactly (not an estimate), and an estimate of the UAS of the algorithm with its full
/// seed space. One seed is exact for a deterministic algorithm.
///
/// Errors: `seeds` empty, fewer than two atoms, n = 0, or more than [`MAX_SEQUENCE_PAIRS`] pairs
/// (kⁿ·n·(k−1)/2), naming the field.
pub fn uas_over_sequences(
    alg: &dyn Algorithm,
    f: &dyn SaddleFn,
    support: &[Vec<f64>],
    n: usize,
    seeds: &[u64],
) -> Result<BlockStabilityReport> {
    check_seeds(seeds)?;
    let k = support.len();
    if k < 2 || n == 0 {
        return Err(invalid("support", "needs at least two atoms and n ≥ 1"));
    }
    let too_many = || {
        invalid(
            "n",
            format!("kⁿ·n·(k−1)/2 neighbour pairs exceed {MAX_SEQUENCE_PAIRS} (k = {k}, n = {n})"),
        )
    };
    let sequences = u32::try_from(n)
        .ok()
        .and_then(|e| k.checked_pow(e))
        .ok_or_else(too_many)?;
    let pairs_count = sequences
        .checked_mul(n * (k - 1))
        .map(|p| p / 2)
        .filter(|&p| p <= MAX_SEQUENCE_PAIRS)
        .ok_or_else(too_many)?;
    let decode = |mut code: usize| -> Vec<usize> {
        let mut s = vec![0usize; n];
        for slot in s.iter_mut() {
            *slot = code % k;
            code /= k;
        }
        s
    };
    let mut pairs = Vec::with_capacity(pairs_count);
    for code in 0..sequences {
        let s = decode(code);
        for i in 0..n {
            for atom in s[i] + 1..k {
                pairs.push(SequenceNeighbour {
                    sequence: s.clone(),
                    i,
                    atom,
                });
            }
        }
    }
    let dataset = |s: &[usize]| Dataset::new(s.iter().map(|&a| support[a].clone()).collect());
    let dists: Vec<Result<[f64; 3]>> = pairs
        .par_iter()
        .map(|p| {
            let mut s2 = p.sequence.clone();
            s2[p.i] = p.atom;
            let (a, b) = (dataset(&p.sequence)?, dataset(&s2)?);
            let mut acc = [0.0; 3];
            for &seed in seeds {
                let x = alg.run(f, &a, &mut NoiseSource::sample(seed))?;
                let y = alg.run(f, &b, &mut NoiseSource::sample(seed))?;
                let dw = linalg::norm2(&linalg::sub(&x.w, &y.w));
                let dt = linalg::norm2(&linalg::sub(&x.theta, &y.theta));
                acc[0] += dw;
                acc[1] += dt;
                acc[2] += dw.hypot(dt);
            }
            let m = seeds.len() as f64;
            Ok([acc[0] / m, acc[1] / m, acc[2] / m])
        })
        .collect();
    let mut best = [(0.0f64, None::<usize>); 3];
    for (j, d) in dists.into_iter().enumerate() {
        let d = d?;
        for b in 0..3 {
            if best[b].1.is_none() || d[b] > best[b].0 {
                best[b] = (d[b], Some(j));
            }
        }
    }
    let at = |b: usize| best[b].1.map(|j| pairs[j].clone());
    Ok(BlockStabilityReport {
        delta_w: best[0].0,
        delta_theta: best[1].0,
        delta: best[2].0,
        worst_w: at(0),
        worst_theta: at(1),
        worst: at(2),
        pairs: pairs.len(),
        seeds: seeds.len(),
    })
}

#[cfg(test)]
mod sequence_tests {
    use super::*;
    use crate::algorithms::sgda::{BatchRule, Sgda};
    use crate::problem::QuadBilinear;

    /// A randomized order-dependent algorithm: SGDA drawing one point without replacement per
    /// step, T = 2, output (z_0 + z_1)/2 = −(η/2)·g(x_{i_1}) (no projection is active): only the
    /// first drawn position matters. Over the seed set, the coupled distance for a neighbour
    /// differing at position j is (η/2)‖x − x′‖ when i_1 = j and 0 otherwise, so the seed-averaged
    /// supremum is (η/2)·max‖x − x′‖·max_j P(i_1 = j), P the frequency of the first index over the
    /// seeds, read here from each seed's own draw (recipe step 9).
    #[test]
    fn seed_average_is_the_expectation_over_the_seed_set() {
        let f = QuadBilinear::lin_box(0.0).unwrap();
        let support = vec![vec![0.6, 0.8], vec![-0.6, -0.8]];
        let eta = 0.1;
        let rule = BatchRule::WithoutReplacement { m: 1 };
        let alg = Sgda::new(eta, 2, vec![0.0], vec![0.0], rule, 0.0).unwrap();
        let seeds: Vec<u64> = (0..10).collect();
        let n = 3;
        let rep = uas_over_sequences(&alg, &f, &support, n, &seeds).unwrap();
        let mut freq = vec![0usize; n];
        for &s in &seeds {
            let i = NoiseSource::sample(s)
                .distinct_indices("sgda/batch/step=1", 1, n)
                .unwrap()[0];
            freq[i] += 1;
        }
        let pmax = *freq.iter().max().unwrap() as f64 / seeds.len() as f64;
        assert!(pmax < 1.0, "the seeds must not all draw one position");
        let (dw, dt) = (eta / 2.0 * 1.2 * pmax, eta / 2.0 * 1.6 * pmax);
        assert!((rep.delta_w - dw).abs() < 1e-14, "{} vs {dw}", rep.delta_w);
        assert!(
            (rep.delta_theta - dt).abs() < 1e-14,
            "{} vs {dt}",
            rep.delta_theta
        );
        assert!((rep.delta - dw.hypot(dt)).abs() < 1e-14, "{}", rep.delta);
        assert_eq!(rep.pairs, 12, "2³ sequences × 3 positions, each pair once");
        assert_eq!(rep.seeds, 10);
    }

    #[test]
    fn refuses_what_it_cannot_enumerate() {
        let f = QuadBilinear::lin_box(0.0).unwrap();
        let alg = Sgda::new(0.1, 1, vec![0.0], vec![0.0], BatchRule::Full, 0.0).unwrap();
        let two = vec![vec![0.6, 0.8], vec![-0.6, -0.8]];
        assert!(uas_over_sequences(&alg, &f, &two, 3, &[]).is_err());
        assert!(uas_over_sequences(&alg, &f, &two[..1], 3, &[1]).is_err());
        assert!(uas_over_sequences(&alg, &f, &two, 0, &[1]).is_err());
        assert!(uas_over_sequences(&alg, &f, &two, 40, &[1]).is_err());
    }
}
