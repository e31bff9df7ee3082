//! Integration tests for the exact tier (`dpsaddle::exact`) and finite-support distributions
//! (`dpsaddle::problem::distribution`). Every check compares against an independent oracle:
//! Pascal recursions, brute-force enumeration of all kⁿ sequences, closed forms for moments of
//! the multinomial, IEEE-754 division and Rust's correctly rounded decimal parser.

use dpsaddle::exact::{
    binomial, checked_cmp_with_sqrt, cmp_with_sqrt, count_vectors, from_f64_exact, int,
    ln_multinomial, multinomial, num_count_vectors, pow, rat, sequences, sqrt_floor, to_f64,
    BigInt, BigRational, BigUint,
};
use dpsaddle::problem::distribution::FiniteDist;
use dpsaddle::Error;
use num_traits::{One, ToPrimitive, Zero};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use std::cmp::Ordering;
use std::collections::BTreeSet;
use std::time::Instant;

/// Fixed-seed proptest configuration: a check gives the same verdict on every run.
fn cfg(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x5eed_d95a_dd1e),
        ..ProptestConfig::default()
    }
}

fn ex(x: f64) -> BigRational {
    from_f64_exact(x).expect("finite")
}

fn two_pow(e: i64) -> BigRational {
    if e >= 0 {
        BigRational::from_integer(BigInt::one() << (e as usize))
    } else {
        BigRational::new(BigInt::one(), BigInt::one() << ((-e) as usize))
    }
}

/// 2ᵉ as an f64 by repeated exact scaling (powi may go through an overflowing intermediate).
fn p2(e: i64) -> f64 {
    let step = if e >= 0 { 2.0 } else { 0.5 };
    (0..e.abs()).fold(1.0, |acc, _| acc * step)
}

fn field(e: Error) -> String {
    match e {
        Error::Invalid { field, .. } => field,
        other => panic!("expected Error::Invalid, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Binomial and multinomial coefficients
// ---------------------------------------------------------------------------------------------

#[test]
fn binomial_satisfies_pascal() {
    for n in 1..=120u64 {
        assert_eq!(binomial(n, 0), BigUint::one());
        assert_eq!(binomial(n, n), BigUint::one());
        assert_eq!(binomial(n, n + 1), BigUint::zero());
        for k in 1..n {
            assert_eq!(
                binomial(n, k),
                binomial(n - 1, k - 1) + binomial(n - 1, k),
                "C({n},{k})"
            );
        }
        // Row sum 2ⁿ.
        let row: BigUint = (0..=n).map(|k| binomial(n, k)).sum();
        assert_eq!(row, BigUint::one() << (n as usize));
    }
}

#[test]
fn multinomial_satisfies_pascal() {
    // M(c) = Σ_{i: cᵢ>0} M(c − eᵢ), M(0) = 1.
    for k in 1..=4usize {
        for n in 1..=12usize {
            for c in count_vectors(n, k) {
                let c64: Vec<u64> = c.iter().map(|&v| v as u64).collect();
                let mut rec = BigUint::zero();
                for i in 0..k {
                    if c64[i] > 0 {
                        let mut d = c64.clone();
                        d[i] -= 1;
                        rec += multinomial(&d);
                    }
                }
                assert_eq!(multinomial(&c64), rec, "M({c:?})");
            }
            // Σ_c M(c) = kⁿ (multinomial theorem at p = 1).
            let total: BigUint = count_vectors(n, k)
                .map(|c| multinomial(&c.iter().map(|&v| v as u64).collect::<Vec<_>>()))
                .sum();
            assert_eq!(total, BigUint::from(k).pow(n as u32));
        }
    }
    // Two parts: the binomial.
    for n in 0..=40u64 {
        for k in 0..=n {
            assert_eq!(multinomial(&[k, n - k]), binomial(n, k));
        }
    }
}

#[test]
fn ln_multinomial_matches_exact_value() {
    for c in count_vectors(60, 3) {
        let c64: Vec<u64> = c.iter().map(|&v| v as u64).collect();
        let exact = to_f64(&BigRational::from_integer(multinomial(&c64).into())).ln();
        let got = ln_multinomial(&c64);
        assert!(
            (got - exact).abs() <= 4.0 * f64::EPSILON * exact.abs().max(1.0),
            "{c:?}: {got} vs {exact}"
        );
    }
    // Large totals (Stirling path): compare with ln of the exact integer via its bit length.
    let c = [900u64, 800, 700, 600];
    let m = multinomial(&c);
    let shift = m.bits() - 60;
    let top = (&m >> shift).to_f64().unwrap();
    let exact = top.ln() + shift as f64 * std::f64::consts::LN_2;
    let got = ln_multinomial(&c);
    assert!(
        (got - exact).abs() <= 1e-12 * exact,
        "{got} vs {exact} (difference {})",
        got - exact
    );
}

#[test]
fn num_count_vectors_is_stars_and_bars() {
    assert_eq!(num_count_vectors(60, 3), BigUint::from(1891u32));
    for n in 0..=15usize {
        for k in 1..=6usize {
            assert_eq!(
                num_count_vectors(n, k),
                binomial((n + k - 1) as u64, (k - 1) as u64)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Enumeration
// ---------------------------------------------------------------------------------------------

proptest! {
    #![proptest_config(cfg(64))]

    #[test]
    fn count_vectors_are_all_multisets_in_lex_order(n in 0usize..=12, k in 0usize..=5) {
        let all: Vec<Vec<usize>> = count_vectors(n, k).collect();
        prop_assert_eq!(BigUint::from(all.len()), num_count_vectors(n, k));
        for c in &all {
            prop_assert_eq!(c.len(), k);
            prop_assert_eq!(c.iter().sum::<usize>(), n);
        }
        // Strictly increasing lexicographic order (hence distinct).
        for w in all.windows(2) {
            prop_assert!(w[0] < w[1], "{:?} !< {:?}", w[0], w[1]);
        }
        // Every count vector of a sequence appears (checked by brute force where kⁿ is small).
        if k > 0 && (k as f64).powi(n as i32) <= 50_000.0 {
            let from_seqs: BTreeSet<Vec<usize>> = sequences(n, k)
                .map(|s| {
                    let mut c = vec![0; k];
                    s.iter().for_each(|&j| c[j] += 1);
                    c
                })
                .collect();
            let listed: BTreeSet<Vec<usize>> = all.iter().cloned().collect();
            prop_assert_eq!(from_seqs, listed);
        }
    }

    #[test]
    fn sequences_are_all_words_in_lex_order(n in 0usize..=6, k in 0usize..=4) {
        let all: Vec<Vec<usize>> = sequences(n, k).collect();
        let expect = if n == 0 { 1 } else { k.pow(n as u32) };
        prop_assert_eq!(all.len(), expect);
        for s in &all {
            prop_assert_eq!(s.len(), n);
            prop_assert!(s.iter().all(|&j| j < k));
        }
        for w in all.windows(2) {
            prop_assert!(w[0] < w[1]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Distributions: probabilities and expectations
// ---------------------------------------------------------------------------------------------

fn d_half_third_sixth() -> FiniteDist {
    FiniteDist::with_exact(
        vec![vec![-1.0, 0.5], vec![0.25, 2.0], vec![3.0, -1.5]],
        vec![rat(1, 2), rat(1, 3), rat(1, 6)],
    )
    .unwrap()
}

/// A small zoo of exact distributions (k ≤ 3), including a zero weight and a point mass.
fn zoo() -> Vec<FiniteDist> {
    vec![
        d_half_third_sixth(),
        FiniteDist::uniform(vec![vec![0.0], vec![1.0], vec![4.0]]).unwrap(),
        FiniteDist::with_exact(vec![vec![-2.0], vec![0.75]], vec![rat(1, 5), rat(4, 5)]).unwrap(),
        FiniteDist::with_exact(
            vec![vec![1.0], vec![2.0], vec![-3.0]],
            vec![rat(2, 7), rat(0, 1), rat(5, 7)],
        )
        .unwrap(),
        FiniteDist::uniform(vec![vec![0.1]]).unwrap(),
    ]
}

/// Counts of an index sequence.
fn counts_of(seq: &[usize], k: usize) -> Vec<usize> {
    let mut c = vec![0; k];
    seq.iter().for_each(|&j| c[j] += 1);
    c
}

/// Exact sample mean (first coordinate) from counts.
fn exact_mean0(d: &FiniteDist, c: &[usize]) -> BigRational {
    let n: usize = c.iter().sum();
    let s = c
        .iter()
        .zip(&d.atoms)
        .fold(BigRational::zero(), |acc, (&cj, x)| {
            acc + ex(x[0]) * BigRational::from_integer(BigInt::from(cj))
        });
    s / BigRational::from_integer(BigInt::from(n))
}

#[test]
fn count_probabilities_sum_to_one() {
    for d in zoo() {
        for n in [1usize, 2, 5, 13, 60] {
            let exact = d.expect_over_counts_exact(n, |_| int(1)).unwrap();
            assert_eq!(exact, int(1), "exact Σ P(c) for n = {n}");
            let direct: BigRational = count_vectors(n, d.k())
                .map(|c| d.count_prob_exact(&c).unwrap())
                .sum();
            assert_eq!(direct, int(1));
            let f: f64 = count_vectors(n, d.k()).map(|c| d.count_prob(&c)).sum();
            assert!((f - 1.0).abs() < 1e-12, "Σ count_prob = {f} at n = {n}");
            let f2 = d.expect_over_counts(n, |_| 1.0);
            assert!((f2 - 1.0).abs() < 1e-12);
        }
    }
    // f64-only weights too.
    let d = FiniteDist::new(vec![vec![0.0], vec![1.0], vec![2.0]], vec![0.1, 0.2, 0.7]).unwrap();
    for n in [1usize, 10, 60, 200] {
        let f = d.expect_over_counts(n, |_| 1.0);
        assert!((f - 1.0).abs() < 1e-12, "n = {n}: {f}");
    }
}

/// Distributions whose exact weights exercise every branch of the incremental weight update:
/// a zero weight in the middle and in the last position (the steps that must rebuild w(c) from
/// powers), unequal denominators, and k = 4.
fn incremental_zoo() -> Vec<FiniteDist> {
    let mut v = zoo();
    v.push(
        FiniteDist::with_exact(
            vec![vec![1.0], vec![2.0], vec![-3.0], vec![0.5]],
            vec![rat(3, 10), rat(1, 6), rat(2, 15), rat(2, 5)],
        )
        .unwrap(),
    );
    v.push(
        FiniteDist::with_exact(
            vec![vec![1.0], vec![2.0], vec![-3.0]],
            vec![rat(3, 11), rat(8, 11), rat(0, 1)],
        )
        .unwrap(),
    );
    v.push(
        FiniteDist::with_exact(
            vec![vec![1.0], vec![2.0], vec![-3.0], vec![5.0]],
            vec![rat(0, 1), rat(1, 4), rat(1, 4), rat(1, 2)],
        )
        .unwrap(),
    );
    v
}

#[test]
fn incremental_exact_weights_equal_from_scratch_weights() {
    // Reference: Σ_c P(c)·φ(c) with every P(c) = multinomial(c)·Πpⱼ^{cⱼ} computed from scratch
    // (count_prob_exact), summed as plain rationals. φ(c) = 1/(1 + position of c in the order)
    // gives every count vector its own denominator, so one equality checks every weight.
    for d in incremental_zoo() {
        let k = d.k();
        for n in [0usize, 1, 2, 3, 7, 16, 30] {
            let mut reference = BigRational::zero();
            let mut positive = 0usize;
            for (i, c) in count_vectors(n, k).enumerate() {
                let p = d.count_prob_exact(&c).unwrap();
                if !p.is_zero() {
                    positive += 1;
                    reference += p * rat(1, 1 + i as i64);
                }
            }
            let mut position = 0i64;
            let mut calls = 0usize;
            let order: Vec<Vec<usize>> = count_vectors(n, k).collect();
            let got = d
                .expect_over_counts_exact(n, |c| {
                    calls += 1;
                    while order[position as usize] != c {
                        position += 1;
                    }
                    rat(1, 1 + position)
                })
                .unwrap();
            assert_eq!(got, reference, "k = {k}, n = {n}");
            assert_eq!(
                calls, positive,
                "φ is called once per positive-probability vector"
            );
        }
    }
}

#[test]
fn f64_enumeration_matches_the_from_scratch_f64_path() {
    // The previous f64 path: Σ_c count_prob(c)·φ(c) in the same order, where count_prob takes
    // ln of the exact multinomial coefficient when that is cheap. The table path differs only by
    // the rounding of the ln m! table: measured and bounded here.
    let d = d_half_third_sixth();
    let phis: [fn(&[usize]) -> f64; 3] = [
        |_| 1.0,
        |c| *c.iter().max().unwrap() as f64,
        |c| (c[0] >= c[2]) as u8 as f64,
    ];
    let mut worst = 0.0f64;
    for n in [1usize, 8, 60, 200, 400] {
        for phi in phis {
            let old: f64 = count_vectors(n, 3)
                .map(|c| d.count_prob(&c) * phi(&c))
                .sum();
            let new = d.expect_over_counts(n, phi);
            let rel = (new - old).abs() / old.abs();
            worst = worst.max(rel);
            assert!(
                rel <= 1e-12,
                "n = {n}: new {new:e}, old {old:e}, rel {rel:e}"
            );
        }
    }
    eprintln!("table vs from-scratch f64 enumeration: worst relative difference {worst:e}");
}

#[test]
fn f64_enumeration_k3_n960_is_fast() {
    // Issue 12: the from-scratch path took 50 s here. C(962, 2) = 462 241 count vectors.
    let d = d_half_third_sixth();
    let n = 960usize;
    let start = Instant::now();
    let one = d.expect_over_counts(n, |_| 1.0);
    let ind = d.expect_over_counts(n, |c| (c[0] >= c[2]) as u8 as f64);
    let t = start.elapsed();
    eprintln!("k=3, n=960: 2 f64 expectations in {t:?}");
    assert!((one - 1.0).abs() < 1e-11, "Σ P(c) = {one}");
    // c₀ ~ Bin(960, 1/2) and c₂ ~ Bin(960, 1/6): P(c₀ ≥ c₂) is 1 to within e^{−100}.
    assert!((ind - 1.0).abs() < 1e-11, "P(c₀ ≥ c₂) = {ind}");
    // Generous for a shared machine; benches/README.md records the unloaded time.
    assert!(t.as_secs_f64() < 5.0, "took {t:?}");
}

#[test]
fn count_prob_f64_is_close_to_exact() {
    let d = d_half_third_sixth();
    for c in count_vectors(60, 3) {
        let exact = to_f64(&d.count_prob_exact(&c).unwrap());
        let got = d.count_prob(&c);
        assert!(
            (got - exact).abs() <= 1e-13 * exact,
            "{c:?}: {got} vs {exact}"
        );
    }
}

#[test]
fn counts_and_sequences_agree_exactly_for_symmetric_phi() {
    for d in zoo() {
        let k = d.k();
        for n in 1..=8usize {
            // φ₁ = (sample mean of the first coordinate)².
            let sq_mean = |c: &[usize]| {
                let m = exact_mean0(&d, c);
                &m * &m
            };
            let by_counts = d.expect_over_counts_exact(n, sq_mean).unwrap();
            let by_seqs = d
                .expect_over_sequences_exact(n, |s| sq_mean(&counts_of(s, k)))
                .unwrap();
            assert_eq!(by_counts, by_seqs, "E[mean²], n = {n}");

            // φ₂ = the largest count.
            let maxc = |c: &[usize]| int(*c.iter().max().unwrap() as i64);
            let by_counts = d.expect_over_counts_exact(n, maxc).unwrap();
            let by_seqs = d
                .expect_over_sequences_exact(n, |s| maxc(&counts_of(s, k)))
                .unwrap();
            assert_eq!(by_counts, by_seqs, "E[max count], n = {n}");

            // φ₃ = 1{c₀ ≥ c_{k−1}} (a probability).
            let ind = |c: &[usize]| int((c[0] >= c[k - 1]) as i64);
            let by_counts = d.expect_over_counts_exact(n, ind).unwrap();
            let by_seqs = d
                .expect_over_sequences_exact(n, |s| ind(&counts_of(s, k)))
                .unwrap();
            assert_eq!(by_counts, by_seqs, "P(c₀ ≥ c_last), n = {n}");

            // The f64 twins agree with the exact value: the count path to ~1 ulp, the sequence
            // path (kⁿ ≤ 6561 terms summed naively) to its summation error.
            let exact = to_f64(&by_counts);
            let fc = d.expect_over_counts(n, |c| (c[0] >= c[k - 1]) as u8 as f64);
            let fs = d.expect_over_sequences(n, |s| {
                let c = counts_of(s, k);
                (c[0] >= c[k - 1]) as u8 as f64
            });
            assert!(
                (fc - exact).abs() <= 1e-14 && (fs - exact).abs() <= 1e-12,
                "n = {n}: counts {fc:e}, sequences {fs:e}, exact {exact:e} (diffs {:e}, {:e})",
                fc - exact,
                fs - exact
            );
        }
    }
}

proptest! {
    #![proptest_config(cfg(48))]

    /// Random rational weights wⱼ/Σw (some possibly 0) and random atoms: the count-vector and
    /// sequence expectations of a random symmetric polynomial agree exactly.
    #[test]
    fn counts_and_sequences_agree_on_random_instances(
        weights in prop::collection::vec(0i64..6, 1..=3),
        atoms in prop::collection::vec(-8i64..8, 3),
        n in 1usize..=6,
    ) {
        prop_assume!(weights.iter().sum::<i64>() > 0);
        let total: i64 = weights.iter().sum();
        let k = weights.len();
        let probs: Vec<BigRational> = weights.iter().map(|&w| rat(w, total)).collect();
        let pts: Vec<Vec<f64>> = atoms[..k].iter().map(|&a| vec![a as f64 / 4.0]).collect();
        let d = FiniteDist::with_exact(pts, probs).unwrap();
        // φ(c) = (Σ cⱼ xⱼ)³ − c₀·c_{k−1}: symmetric in the order of S.
        let phi = |c: &[usize]| {
            let s = c.iter().zip(&d.atoms).fold(BigRational::zero(), |acc, (&cj, x)| {
                acc + ex(x[0]) * int(cj as i64)
            });
            pow(&s, 3) - int((c[0] * c[k - 1]) as i64)
        };
        let a = d.expect_over_counts_exact(n, phi).unwrap();
        let b = d.expect_over_sequences_exact(n, |s| phi(&counts_of(s, k))).unwrap();
        prop_assert_eq!(a, b);
    }
}

#[test]
fn sample_mean_moments_match_closed_forms() {
    // E[x̄] = μ and E[(x̄ − μ)²] = σ²/n exactly (per coordinate), and the multinomial moments
    // E[cⱼ] = n pⱼ, Cov(cᵢ, cⱼ) = n pᵢ(δᵢⱼ − pⱼ).
    for d in zoo() {
        let probs = d.exact_probs.clone().unwrap();
        let mu = d.mean_exact().unwrap();
        for n in [1usize, 2, 3, 7, 20, 60] {
            let nn = int(n as i64);
            for (dim, mu_d) in mu.iter().enumerate() {
                let var: BigRational = d
                    .atoms
                    .iter()
                    .zip(&probs)
                    .map(|(x, p)| {
                        let dev = ex(x[dim]) - mu_d;
                        p * &dev * &dev
                    })
                    .sum();
                let xbar = |c: &[usize]| {
                    c.iter()
                        .zip(&d.atoms)
                        .fold(BigRational::zero(), |acc, (&cj, x)| {
                            acc + ex(x[dim]) * int(cj as i64)
                        })
                        / &nn
                };
                let e_mean = d.expect_over_counts_exact(n, xbar).unwrap();
                assert_eq!(&e_mean, mu_d, "E[x̄], n = {n}");
                let e_dev2 = d
                    .expect_over_counts_exact(n, |c| {
                        let dev = xbar(c) - mu_d;
                        &dev * &dev
                    })
                    .unwrap();
                assert_eq!(e_dev2, &var / &nn, "E[(x̄−μ)²] = σ²/n, n = {n}");
                // The f64 path, through the canonical dataset, is close.
                let f = d.expect_over_counts(n, |c| d.dataset_from_counts(c).unwrap().mean()[dim]);
                assert!((f - to_f64(mu_d)).abs() <= 1e-13, "f64 E[x̄] = {f}");
            }
            for i in 0..d.k() {
                let e_ci = d.expect_over_counts_exact(n, |c| int(c[i] as i64)).unwrap();
                assert_eq!(e_ci, &nn * &probs[i]);
                for j in 0..d.k() {
                    let e_cicj = d
                        .expect_over_counts_exact(n, |c| int((c[i] * c[j]) as i64))
                        .unwrap();
                    let delta = if i == j { int(1) } else { int(0) };
                    let cov = &nn * &probs[i] * (delta - &probs[j]);
                    assert_eq!(e_cicj, cov + &nn * &probs[i] * &nn * &probs[j]);
                }
            }
        }
    }
}

#[test]
fn mean_is_the_weighted_sum() {
    let d = d_half_third_sixth();
    let m = d.mean();
    let x: Vec<f64> = d.atoms.iter().map(|a| a[0]).collect();
    assert_eq!(m[0], 0.5 * x[0] + (1.0 / 3.0) * x[1] + (1.0 / 6.0) * x[2]);
    let me = d.mean_exact().unwrap();
    assert_eq!(me[0], rat(-1, 2) + rat(1, 12) + rat(1, 2));
    assert_eq!(me[1], rat(1, 4) + rat(2, 3) - rat(1, 4));
}

#[test]
fn sampling_frequencies_follow_the_inverse_cdf() {
    // On an equispaced grid of uniforms, the fraction mapped to atom j is pⱼ (up to 1/grid).
    let d = d_half_third_sixth();
    let grid = 60_000usize;
    let u: Vec<f64> = (0..grid).map(|i| i as f64 / grid as f64).collect();
    let idx = d.sample_indices(&u).unwrap();
    let c = counts_of(&idx, 3);
    assert_eq!(c, vec![30_000, 20_000, 10_000]);
}

// ---------------------------------------------------------------------------------------------
// Performance (support size 3, n = 60: 1891 count vectors)
// ---------------------------------------------------------------------------------------------

#[test]
fn enumeration_k3_n60_is_fast() {
    let d = d_half_third_sixth();
    let n = 60usize;
    let start = Instant::now();
    // Exact: Σ P, E[x̄], E[(x̄ − μ)²], E[max count], P(c₀ ≥ c₂).
    let mu = d.mean_exact().unwrap()[0].clone();
    let nn = int(n as i64);
    let xbar = |c: &[usize]| exact_mean0(&d, c);
    let one = d.expect_over_counts_exact(n, |_| int(1)).unwrap();
    let e_mean = d.expect_over_counts_exact(n, xbar).unwrap();
    let e_dev2 = d
        .expect_over_counts_exact(n, |c| {
            let dev = xbar(c) - &mu;
            &dev * &dev
        })
        .unwrap();
    let e_max = d
        .expect_over_counts_exact(n, |c| int(*c.iter().max().unwrap() as i64))
        .unwrap();
    let p_ind = d
        .expect_over_counts_exact(n, |c| int((c[0] >= c[2]) as i64))
        .unwrap();
    let exact_time = start.elapsed();
    assert_eq!(one, int(1));
    assert_eq!(e_mean, mu);
    let var: BigRational = d
        .atoms
        .iter()
        .zip(d.exact_probs.as_ref().unwrap())
        .map(|(x, p)| {
            let dev = ex(x[0]) - &mu;
            p * &dev * &dev
        })
        .sum();
    assert_eq!(e_dev2, var / nn);

    let start = Instant::now();
    let f_one = d.expect_over_counts(n, |_| 1.0);
    let f_mean = d.expect_over_counts(n, |c| d.dataset_from_counts(c).unwrap().mean()[0]);
    let f_max = d.expect_over_counts(n, |c| *c.iter().max().unwrap() as f64);
    let f_ind = d.expect_over_counts(n, |c| (c[0] >= c[2]) as u8 as f64);
    let f_dev2 = d.expect_over_counts(n, |c| {
        let m = d.dataset_from_counts(c).unwrap().mean()[0] - to_f64(&mu);
        m * m
    });
    let f64_time = start.elapsed();
    assert!((f_one - 1.0).abs() < 1e-12);
    assert!((f_mean - to_f64(&mu)).abs() < 1e-13);
    assert!((f_max - to_f64(&e_max)).abs() < 1e-12 * to_f64(&e_max));
    assert!((f_ind - to_f64(&p_ind)).abs() < 1e-13);
    assert!((f_dev2 - to_f64(&e_dev2)).abs() < 1e-13);

    eprintln!(
        "k=3, n=60 (1891 count vectors): 5 exact expectations in {exact_time:?}, \
         5 f64 expectations in {f64_time:?}"
    );
    assert!(exact_time.as_secs_f64() < 1.0, "exact took {exact_time:?}");
    assert!(f64_time.as_secs_f64() < 1.0, "f64 took {f64_time:?}");
}

// ---------------------------------------------------------------------------------------------
// Correctly rounded conversion to f64
// ---------------------------------------------------------------------------------------------

/// The correctly rounded result for a value strictly between adjacent doubles lo < hi
/// (both finite, positive), decided by the midpoint.
fn expect_round(x: &BigRational, lo: f64, hi: f64) -> f64 {
    let mid = (ex(lo) + ex(hi)) / int(2);
    match x.cmp(&mid) {
        Ordering::Less => lo,
        Ordering::Greater => hi,
        Ordering::Equal => {
            if lo.to_bits() & 1 == 0 {
                lo
            } else {
                hi
            }
        }
    }
}

#[test]
fn to_f64_hard_cases() {
    // Non-terminating binary fractions, checked against IEEE division (correctly rounded).
    assert_eq!(to_f64(&rat(1, 3)), 1.0 / 3.0);
    assert_eq!(to_f64(&rat(2, 3)), 2.0 / 3.0);
    assert_eq!(to_f64(&rat(-1, 3)), -1.0 / 3.0);
    assert_eq!(to_f64(&rat(1, 10)), 0.1);
    assert_eq!(to_f64(&rat(7, 1)), 7.0);

    // Ties: (2^53 + 1)/2^53 lies halfway between 1 and 1 + 2^-52 → even (1).
    // (2^53 + 3)/2^53 lies halfway between 1 + 2^-52 and 1 + 2^-51 → even (1 + 2^-51).
    for scale in [-1070i64, -1000, -500, -60, 0, 60, 500, 970] {
        let s = two_pow(scale);
        let t1 = (int(1) + two_pow(-53)) * &s;
        let t3 = (int(1) + int(3) * two_pow(-53)) * &s;
        let f = to_f64(&s);
        assert_eq!(f, p2(scale));
        if scale >= -1022 {
            assert_eq!(to_f64(&t1), f, "tie-to-even down at scale {scale}");
            assert_eq!(
                to_f64(&t3),
                (1.0 + 2f64.powi(-51)) * f,
                "tie-to-even up at scale {scale}"
            );
            // Just off the tie.
            let eps = two_pow(-200) * &s;
            assert_eq!(to_f64(&(&t1 + &eps)), (1.0 + f64::EPSILON) * f);
            assert_eq!(to_f64(&(&t3 - &eps)), (1.0 + f64::EPSILON) * f);
            assert_eq!(to_f64(&-&t1), -f);
        }
    }

    // Subnormals and underflow.
    let min_sub = f64::from_bits(1);
    assert_eq!(to_f64(&two_pow(-1074)), min_sub);
    assert_eq!(
        to_f64(&two_pow(-1075)),
        0.0,
        "tie between 0 and 2^-1074 → 0 (even)"
    );
    assert_eq!(to_f64(&(two_pow(-1075) + two_pow(-1200))), min_sub);
    assert_eq!(
        to_f64(&(int(3) * two_pow(-1075))),
        2.0 * min_sub,
        "tie 1.5 ulp → 2"
    );
    assert_eq!(
        to_f64(&(int(5) * two_pow(-1075))),
        2.0 * min_sub,
        "tie 2.5 ulp → 2"
    );
    assert_eq!(to_f64(&two_pow(-1076)), 0.0);
    assert_eq!(to_f64(&two_pow(-5000)), 0.0);
    let neg_tiny = to_f64(&-two_pow(-5000));
    assert!(neg_tiny == 0.0 && neg_tiny.is_sign_negative());
    // Largest subnormal and smallest normal, and the tie between them.
    let max_sub = f64::from_bits((1u64 << 52) - 1);
    assert_eq!(to_f64(&ex(max_sub)), max_sub);
    assert_eq!(
        to_f64(&((ex(max_sub) + ex(f64::MIN_POSITIVE)) / int(2))),
        f64::MIN_POSITIVE
    );
    assert_eq!(to_f64(&(rat(1, 3) * two_pow(-1060))), p2(-1060) / 3.0);

    // Overflow: MAX + half an ulp ties to even, and MAX's significand is odd → ∞.
    let half_ulp = two_pow(970);
    assert_eq!(to_f64(&(ex(f64::MAX) + &half_ulp)), f64::INFINITY);
    assert_eq!(to_f64(&(ex(f64::MAX) + &half_ulp - two_pow(900))), f64::MAX);
    assert_eq!(to_f64(&-(ex(f64::MAX) + &half_ulp)), f64::NEG_INFINITY);
    assert_eq!(to_f64(&two_pow(1024)), f64::INFINITY);
    assert_eq!(to_f64(&two_pow(5000)), f64::INFINITY);

    // Huge numerator and denominator with a moderate quotient.
    let ten400 = BigInt::from(10).pow(400u32);
    let x = BigRational::new(&ten400 + BigInt::one(), ten400.clone());
    assert_eq!(to_f64(&x), 1.0);
    let x = BigRational::new(
        &ten400 * BigInt::from(2) + BigInt::one(),
        ten400 * BigInt::from(3),
    );
    assert_eq!(to_f64(&x), 2.0 / 3.0);
}

/// A strategy over all finite doubles, with exponents spread uniformly so that subnormals and
/// extreme magnitudes are common.
fn any_finite() -> impl Strategy<Value = f64> {
    (any::<bool>(), 0u64..2047, any::<u64>()).prop_map(|(neg, e, m)| {
        f64::from_bits(((neg as u64) << 63) | (e << 52) | (m & ((1u64 << 52) - 1)))
    })
}

proptest! {
    #![proptest_config(cfg(2000))]

    #[test]
    fn to_f64_round_trips(x in any_finite()) {
        let back = to_f64(&ex(x));
        prop_assert_eq!(back, x);
        if x != 0.0 {
            prop_assert_eq!(back.to_bits(), x.to_bits());
        }
    }

    #[test]
    fn to_f64_matches_ieee_division(a in 0i64..(1 << 53), b in 1i64..(1 << 53), neg in any::<bool>()) {
        let a = if neg { -a } else { a };
        prop_assert_eq!(to_f64(&rat(a, b)), a as f64 / b as f64);
    }

    #[test]
    fn to_f64_rounds_near_midpoints(x in any_finite(), offset in -3i64..=3) {
        let lo = x.abs();
        prop_assume!(lo < f64::MAX);
        let hi = f64::from_bits(lo.to_bits() + 1);
        // Midpoint plus offset · (ulp / 2^80): exactly the tie when offset = 0.
        let gap = ex(hi) - ex(lo);
        let v = (ex(lo) + ex(hi)) / int(2) + gap * int(offset) * two_pow(-80);
        prop_assert_eq!(to_f64(&v), expect_round(&v, lo, hi));
        // Strictly inside (lo, mid) and (mid, hi).
        let q = ex(lo) + (ex(hi) - ex(lo)) * rat(1, 3);
        prop_assert_eq!(to_f64(&q), lo);
        let q = ex(lo) + (ex(hi) - ex(lo)) * rat(2, 3);
        prop_assert_eq!(to_f64(&q), hi);
    }

    /// Decimal literals: Rust's parser is correctly rounded, so it is an independent oracle.
    #[test]
    fn to_f64_matches_decimal_parser(m in any::<u64>(), e in -360i32..=320) {
        let ten = BigInt::from(10);
        let v = if e >= 0 {
            BigRational::from_integer(BigInt::from(m) * ten.pow(e as u32))
        } else {
            BigRational::new(BigInt::from(m), ten.pow((-e) as u32))
        };
        let parsed: f64 = format!("{m}e{e}").parse().unwrap();
        prop_assert_eq!(to_f64(&v), parsed);
    }
}

// ---------------------------------------------------------------------------------------------
// Square roots
// ---------------------------------------------------------------------------------------------

#[test]
fn cmp_with_sqrt_on_squares_and_near_misses() {
    for (p, q) in [
        (0i64, 1i64),
        (1, 1),
        (3, 7),
        (22, 7),
        (123_456_789, 1000),
        (1, 1 << 40),
    ] {
        let a = rat(p, q);
        let b = &a * &a;
        assert_eq!(cmp_with_sqrt(&a, &b), Ordering::Equal, "{a}");
        let tiny = BigRational::new(BigInt::one(), BigInt::from(10).pow(60u32));
        assert_eq!(cmp_with_sqrt(&a, &(&b + &tiny)), Ordering::Less);
        if p != 0 {
            assert_eq!(cmp_with_sqrt(&a, &(&b - &tiny)), Ordering::Greater);
            assert_eq!(cmp_with_sqrt(&(&a + &tiny), &b), Ordering::Greater);
            assert_eq!(cmp_with_sqrt(&(&a - &tiny), &b), Ordering::Less);
        }
    }
    // √2 = 1.41421356237309504880…
    let b = int(2);
    assert_eq!(
        cmp_with_sqrt(&rat(141_421_356_237, 100_000_000_000), &b),
        Ordering::Less
    );
    assert_eq!(
        cmp_with_sqrt(&rat(141_421_356_238, 100_000_000_000), &b),
        Ordering::Greater
    );
    // Negative a is below every square root.
    assert_eq!(cmp_with_sqrt(&rat(-1, 2), &int(0)), Ordering::Less);
    // Bad input names the field.
    assert_eq!(
        field(checked_cmp_with_sqrt(&int(1), &rat(-1, 3)).unwrap_err()),
        "b"
    );
}

proptest! {
    #![proptest_config(cfg(500))]

    #[test]
    fn sqrt_floor_brackets(x in prop::collection::vec(any::<u32>(), 0..12)) {
        let x = BigUint::new(x);
        let s = sqrt_floor(&x);
        prop_assert!(&s * &s <= x);
        let t = &s + BigUint::one();
        prop_assert!(&t * &t > x);
    }

    #[test]
    fn cmp_with_sqrt_agrees_with_floats_when_separated(
        p in 0i64..1_000_000, q in 1i64..1000, r in 0i64..1_000_000, s in 1i64..1000,
    ) {
        let a = rat(p, q);
        let b = rat(r, s);
        let fa = p as f64 / q as f64;
        let fb = (r as f64 / s as f64).sqrt();
        let got = cmp_with_sqrt(&a, &b);
        if (fa - fb).abs() > 1e-9 * (1.0 + fb) {
            prop_assert_eq!(got, fa.partial_cmp(&fb).unwrap());
        }
        // Consistency with the integer square root when both are integers.
        if q == 1 && s == 1 {
            let r_big = BigUint::from(r as u64);
            let root = sqrt_floor(&r_big);
            let is_square = &root * &root == r_big;
            let expect = match BigUint::from(p as u64).cmp(&root) {
                Ordering::Equal if is_square => Ordering::Equal,
                Ordering::Equal => Ordering::Less,
                Ordering::Greater => Ordering::Greater,
                Ordering::Less => Ordering::Less,
            };
            prop_assert_eq!(got, expect);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_input_errors_name_the_field() {
    let e = FiniteDist::new(vec![vec![1.0], vec![2.0, 3.0]], vec![0.5, 0.5]).unwrap_err();
    assert_eq!(field(e), "atoms[1]");
    let e = FiniteDist::new(vec![vec![1.0], vec![f64::INFINITY]], vec![0.5, 0.5]).unwrap_err();
    assert_eq!(field(e), "atoms[1][0]");
    let e = FiniteDist::new(vec![vec![1.0], vec![2.0]], vec![0.5, 0.4]).unwrap_err();
    assert_eq!(field(e), "probs");
    let e = FiniteDist::new(vec![vec![1.0], vec![2.0]], vec![-0.5, 1.5]).unwrap_err();
    assert_eq!(field(e), "probs[0]");
    let e = FiniteDist::with_exact(vec![vec![1.0]], vec![rat(1, 2), rat(1, 2)]).unwrap_err();
    assert_eq!(field(e), "probs");
    let e =
        FiniteDist::with_exact(vec![vec![1.0], vec![2.0]], vec![rat(1, 2), rat(1, 3)]).unwrap_err();
    assert_eq!(field(e), "probs");
    let d = d_half_third_sixth();
    assert_eq!(
        field(d.sample_indices(&[0.5, 1.5]).unwrap_err()),
        "uniforms[1]"
    );
    assert_eq!(field(d.count_prob_exact(&[1, 2]).unwrap_err()), "counts");
    assert_eq!(
        field(d.dataset_from_sequence(&[0, 1, 7]).unwrap_err()),
        "seq[2]"
    );
    assert_eq!(
        field(d.dataset_from_counts(&[0, 0, 0]).unwrap_err()),
        "counts"
    );
    // JSON that deserializes but violates invariants is caught by validate().
    let bad: FiniteDist =
        serde_json::from_str(r#"{"atoms":[[0.0],[1.0]],"probs":[0.7,0.7]}"#).unwrap();
    assert_eq!(field(bad.validate().unwrap_err()), "probs");
}
