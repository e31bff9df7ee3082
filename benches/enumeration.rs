//! Enumeration benchmarks: exact and f64 expectations over S ~ Dⁿ for a support of size 3 with
//! weights 1/2, 1/3, 1/6, at n = 60 (1891 count vectors) and, for the growth in n (issue 12),
//! at n = 120, 240, 480, 960 (C(n+2, 2) count vectors: 7381 … 462 241).
//!
//! Each iteration computes five expectations: Σ P(c) (= 1), E[x̄], E[(x̄ − μ)²], E[max count]
//! and P(c₀ ≥ c₂). The configuration is light (10 samples, short measurement) so that
//! `cargo bench --bench enumeration` finishes in about a minute. Results and the fitted growth
//! exponent are in benches/README.md.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::exact::{
    count_vectors, from_f64_exact, int, multinomial, rat, BigInt, BigRational, RatSum,
};
use dpsaddle::problem::distribution::FiniteDist;
use num_integer::Integer;
use num_traits::{One, Pow, Zero};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 60;

/// The sizes of the growth series.
const GROWTH: [usize; 4] = [120, 240, 480, 960];

fn dist() -> FiniteDist {
    FiniteDist::with_exact(
        vec![vec![-1.0], vec![0.25], vec![3.0]],
        vec![rat(1, 2), rat(1, 3), rat(1, 6)],
    )
    .expect("valid distribution")
}

fn five_exact(d: &FiniteDist, xs: &[BigRational], mu: &BigRational) -> Vec<BigRational> {
    five_exact_n(d, xs, mu, N)
}

fn five_exact_n(
    d: &FiniteDist,
    xs: &[BigRational],
    mu: &BigRational,
    big_n: usize,
) -> Vec<BigRational> {
    let n = int(big_n as i64);
    let xbar = |c: &[usize]| {
        c.iter().zip(xs).fold(BigRational::zero(), |acc, (&cj, x)| {
            acc + x * BigInt::from(cj)
        }) / &n
    };
    vec![
        d.expect_over_counts_exact(big_n, |_| int(1))
            .expect("exact"),
        d.expect_over_counts_exact(big_n, xbar).expect("exact"),
        d.expect_over_counts_exact(big_n, |c| {
            let dev = xbar(c) - mu;
            &dev * &dev
        })
        .expect("exact"),
        d.expect_over_counts_exact(big_n, |c| int(*c.iter().max().unwrap_or(&0) as i64))
            .expect("exact"),
        d.expect_over_counts_exact(big_n, |c| int((c[0] >= c[2]) as i64))
            .expect("exact"),
    ]
}

fn five_f64(d: &FiniteDist, xs: &[f64], mu: f64) -> Vec<f64> {
    five_f64_n(d, xs, mu, N)
}

fn five_f64_n(d: &FiniteDist, xs: &[f64], mu: f64, big_n: usize) -> Vec<f64> {
    let xbar =
        |c: &[usize]| c.iter().zip(xs).map(|(&cj, x)| cj as f64 * x).sum::<f64>() / big_n as f64;
    vec![
        d.expect_over_counts(big_n, |_| 1.0),
        d.expect_over_counts(big_n, xbar),
        d.expect_over_counts(big_n, |c| (xbar(c) - mu).powi(2)),
        d.expect_over_counts(big_n, |c| *c.iter().max().unwrap_or(&0) as f64),
        d.expect_over_counts(big_n, |c| (c[0] >= c[2]) as u8 as f64),
    ]
}

/// The enumeration as it was before issue 12, for a side-by-side baseline: every count vector's
/// multinomial coefficient recomputed from scratch (exact path), and every P(c) through
/// `count_prob`, i.e. ln of the exact multinomial coefficient when cheap (f64 path). Σ P(c)
/// only (φ = 1).
fn total_from_scratch_exact(d: &FiniteDist, n: usize) -> BigRational {
    let probs = d.exact_probs.as_ref().expect("exact");
    let denom = probs
        .iter()
        .fold(BigInt::one(), |acc, p| acc.lcm(p.denom()));
    let scaled: Vec<BigInt> = probs
        .iter()
        .map(|p| p.numer() * (&denom / p.denom()))
        .collect();
    let mut acc = RatSum::new();
    for c in count_vectors(n, d.k()) {
        let c64: Vec<u64> = c.iter().map(|&v| v as u64).collect();
        let mut w = BigInt::from(multinomial(&c64));
        for (a, &cj) in scaled.iter().zip(&c) {
            w *= Pow::pow(a, cj as u32);
        }
        acc.add_scaled(&int(1), &w);
    }
    acc.finish() / Pow::pow(denom, n as u32)
}

fn total_from_scratch_f64(d: &FiniteDist, n: usize) -> f64 {
    count_vectors(n, d.k()).map(|c| d.count_prob(&c)).sum()
}

fn bench(c: &mut Criterion) {
    let d = dist();
    let xs_exact: Vec<BigRational> = d
        .atoms
        .iter()
        .map(|x| from_f64_exact(x[0]).expect("finite"))
        .collect();
    let mu_exact = d.mean_exact().expect("exact")[0].clone();
    let xs: Vec<f64> = d.atoms.iter().map(|x| x[0]).collect();
    let mu = d.mean()[0];

    let mut g = c.benchmark_group("enumeration");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    g.bench_function("count_vectors_k3_n60", |b| {
        b.iter(|| count_vectors(black_box(N), 3).count())
    });
    g.bench_function("enumerate_k3_n60_exact", |b| {
        b.iter(|| five_exact(black_box(&d), &xs_exact, &mu_exact))
    });
    g.bench_function("enumerate_k3_n60_f64", |b| {
        b.iter(|| five_f64(black_box(&d), &xs, mu))
    });
    for n in GROWTH {
        g.bench_function(format!("enumerate_k3_n{n}_f64"), |b| {
            b.iter(|| five_f64_n(black_box(&d), &xs, mu, n))
        });
    }
    // Baselines (the pre-issue-12 algorithms) and the new path on the same single expectation.
    for n in [60usize, 120, 240] {
        g.bench_function(format!("total_k3_n{n}_f64_from_scratch"), |b| {
            b.iter(|| total_from_scratch_f64(black_box(&d), n))
        });
        g.bench_function(format!("total_k3_n{n}_f64"), |b| {
            b.iter(|| black_box(&d).expect_over_counts(n, |_| 1.0))
        });
        g.bench_function(format!("total_k3_n{n}_exact_from_scratch"), |b| {
            b.iter(|| total_from_scratch_exact(black_box(&d), n))
        });
        g.bench_function(format!("total_k3_n{n}_exact"), |b| {
            b.iter(|| black_box(&d).expect_over_counts_exact(n, |_| int(1)))
        });
    }
    // The exact path's integers grow with n (the weights have O(n) digits), so its cost per
    // count vector grows too; two sizes show how.
    for n in [120usize, 240] {
        g.bench_function(format!("enumerate_k3_n{n}_exact"), |b| {
            b.iter(|| five_exact_n(black_box(&d), &xs_exact, &mu_exact, n))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
