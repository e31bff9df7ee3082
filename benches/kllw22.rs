//! KLLW22 DP-GDA speed (issue: n = 10⁴, p = 50, T = 10³ in under 2 s, release build). The loss is
//! the ρ-SC-SC data-affine instance of `papers::kllw22::instances` with p = 50 per block and a
//! coupling; the dataset is drawn outside the timed region. Two functions: the default
//! aggregated-mean gradient (one oracle call per step) and the per-point mode (n oracle calls per
//! step, the paper's n·T count).

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::algorithms::dp_gda::{Averaging, DpGda, GradientMode};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::linalg::Matrix;
use dpsaddle::papers::kllw22::instances::instance;
use dpsaddle::problem::Dataset;
use dpsaddle::rng::{NoiseSource, Stream};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let (p, n, t) = (50usize, 10_000usize, 1_000usize);
    let mut st = Stream::new(1, "benches/kllw22");
    let coupling = Matrix::from_rows(
        (0..p)
            .map(|_| (0..p).map(|_| 0.02 * st.normal()).collect())
            .collect(),
    )
    .unwrap();
    let f = instance(p, 1.0, 1.0, coupling).unwrap();
    let s = Dataset::new(
        (0..n)
            .map(|_| (0..2 * p).map(|_| 0.1 * st.normal()).collect())
            .collect(),
    )
    .unwrap();
    let alg = DpGda::calibrated(
        t,
        1.0,
        4.0 * 2f64.sqrt(),
        3.0,
        n,
        1.0,
        1e-5,
        Averaging::PaperLiteral,
    )
    .unwrap();
    let mut g = c.benchmark_group("kllw22_dp_gda");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("n1e4_p50_T1e3", |b| {
        b.iter(|| {
            black_box(
                alg.run(&f, black_box(&s), &mut NoiseSource::sample(0))
                    .unwrap(),
            )
        })
    });
    g.bench_function("n1e4_p50_T1e3_per_point", |b| {
        b.iter(|| {
            black_box(
                alg.run_traced_with(
                    &f,
                    black_box(&s),
                    &mut NoiseSource::sample(0),
                    GradientMode::PerPoint,
                )
                .unwrap()
                .output,
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
