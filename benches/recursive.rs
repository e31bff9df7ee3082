//! BGM23 Algorithm 1 speed (issue: recursive regularization with the exact A_emp at n = 10⁶,
//! d = 10, in under 2 s, release build). The instance is the rate experiment's (unit balls in
//! ℝ⁵ × ℝ⁵ with bilinear coupling, four atoms); the dataset is drawn outside the timed region.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::algorithms::recursive_regularization::{
    AempSpec, DistanceRule, NPrimeRule, RecursiveRegularization, Schedule,
};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::papers::bgm23::instances::{rate_distribution, rate_loss, rate_sample};
use dpsaddle::problem::SaddleFn;
use dpsaddle::rng::NoiseSource;
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let f = rate_loss().unwrap();
    let dist = rate_distribution(&[0.0; 10], 0.5).unwrap();
    let n = 1_000_000;
    let s = rate_sample(&dist, n, 0).unwrap();
    let k = f.constants(&dist.atoms);
    let np = (n as f64 / (n as f64).log2()).floor();
    let lambda = k.lipschitz / (k.diameter * np.sqrt());
    let alg = RecursiveRegularization {
        schedule: Schedule::bgm23(
            n,
            k.lipschitz,
            k.diameter,
            lambda,
            NPrimeRule::PaperLiteral,
            DistanceRule::Corrected,
        )
        .unwrap(),
        start_w: vec![0.0; 5],
        start_theta: vec![0.0; 5],
        a_emp: AempSpec::Exact,
        record_exact: false,
    };
    let mut g = c.benchmark_group("bgm23_recursive_regularization");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    g.bench_function("exact_aemp_n1e6_d10", |b| {
        b.iter(|| {
            black_box(
                alg.run(&f, black_box(&s), &mut NoiseSource::sample(0))
                    .unwrap(),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
