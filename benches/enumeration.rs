//! Enumeration benchmarks: exact and f64 expectations over S ~ Dⁿ for a support of size 3 and
//! n = 60 (1891 count vectors), with weights 1/2, 1/3, 1/6.
//!
//! Each iteration computes five expectations: Σ P(c) (= 1), E[x̄], E[(x̄ − μ)²], E[max count]
//! and P(c₀ ≥ c₂). The configuration is light (10 samples, short measurement) so that
//! `cargo bench` finishes well within a minute.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::exact::{count_vectors, from_f64_exact, int, rat, BigInt, BigRational};
use dpsaddle::problem::distribution::FiniteDist;
use num_traits::Zero;
use std::hint::black_box;
use std::time::Duration;

const N: usize = 60;

fn dist() -> FiniteDist {
    FiniteDist::with_exact(
        vec![vec![-1.0], vec![0.25], vec![3.0]],
        vec![rat(1, 2), rat(1, 3), rat(1, 6)],
    )
    .expect("valid distribution")
}

fn five_exact(d: &FiniteDist, xs: &[BigRational], mu: &BigRational) -> Vec<BigRational> {
    let n = int(N as i64);
    let xbar = |c: &[usize]| {
        c.iter().zip(xs).fold(BigRational::zero(), |acc, (&cj, x)| {
            acc + x * BigInt::from(cj)
        }) / &n
    };
    vec![
        d.expect_over_counts_exact(N, |_| int(1)).expect("exact"),
        d.expect_over_counts_exact(N, xbar).expect("exact"),
        d.expect_over_counts_exact(N, |c| {
            let dev = xbar(c) - mu;
            &dev * &dev
        })
        .expect("exact"),
        d.expect_over_counts_exact(N, |c| int(*c.iter().max().unwrap_or(&0) as i64))
            .expect("exact"),
        d.expect_over_counts_exact(N, |c| int((c[0] >= c[2]) as i64))
            .expect("exact"),
    ]
}

fn five_f64(d: &FiniteDist, xs: &[f64], mu: f64) -> Vec<f64> {
    let xbar = |c: &[usize]| c.iter().zip(xs).map(|(&cj, x)| cj as f64 * x).sum::<f64>() / N as f64;
    vec![
        d.expect_over_counts(N, |_| 1.0),
        d.expect_over_counts(N, xbar),
        d.expect_over_counts(N, |c| (xbar(c) - mu).powi(2)),
        d.expect_over_counts(N, |c| *c.iter().max().unwrap_or(&0) as f64),
        d.expect_over_counts(N, |c| (c[0] >= c[2]) as u8 as f64),
    ]
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
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
