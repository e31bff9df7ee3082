//! BGM23 noisy SGDA (App. C.2) with the Thm 21 schedule at n′ = 10⁴, d = 10 (d_w = d_θ = 5, a
//! coupled LIN-ball), ε = 1, δ = 1e-5, c₀ = 4: T = ⌊min{1250, 10⁸/(320 ln 1e5)}⌋ = 1250 steps of
//! the corrected batch m = ⌈10⁴/√1250⌉ = 283, i.e. 353 750 counted gradient evaluations and
//! 1250 Gaussian draws per run (target: well under 5 s). Also one pass of the LDP SGDA of Cor 16
//! on the same data (10⁴ steps). Light configuration (10 samples).

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::algorithms::ldp_sgda::LdpSgda;
use dpsaddle::algorithms::noisy_sgda::NoisySgda;
use dpsaddle::algorithms::Algorithm;
use dpsaddle::geometry::Domain;
use dpsaddle::linalg::Matrix;
use dpsaddle::papers::Reading;
use dpsaddle::problem::{Dataset, QuadBilinear, SaddleFn};
use dpsaddle::rng::{NoiseSource, Stream};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 10_000;
const HALF: usize = 5;

fn instance() -> (QuadBilinear, Dataset) {
    let mut s = Stream::new(1, "benches/bgm23");
    let ball = || Domain::Ball {
        center: vec![0.0; HALF],
        radius: 1.0,
    };
    let c = Matrix::from_rows(
        (0..HALF)
            .map(|_| (0..HALF).map(|_| 0.2 * s.normal()).collect())
            .collect(),
    )
    .expect("valid");
    let f = QuadBilinear::data_affine(ball(), ball(), c, 0.0, 0.0).expect("valid");
    let pts: Vec<Vec<f64>> = (0..N)
        .map(|_| (0..2 * HALF).map(|_| 0.3 * s.normal()).collect())
        .collect();
    (f, Dataset::new(pts).expect("valid"))
}

fn bench(c: &mut Criterion) {
    let (f, s) = instance();
    let l = f.constants(&s.points.to_vecs()).lipschitz;
    let b = f.constants(&s.points.to_vecs()).diameter;
    let noisy = NoisySgda {
        c0: 4.0,
        epsilon: 1.0,
        delta: 1e-5,
        batch_rule: Reading::Corrected,
        start_w: vec![0.0; HALF],
        start_theta: vec![0.0; HALF],
        d_hat: b,
        lipschitz: l,
        label_prefix: String::new(),
    };
    let out = noisy
        .run(&f, &s, &mut NoiseSource::sample(0))
        .expect("runs");
    assert_eq!(out.grad_evals, 1250 * 283);
    let ldp = LdpSgda {
        epsilon: 1.0,
        delta: 1e-5,
        variant: Reading::Corrected,
        optimal_step: false,
        step: None,
        start_w: vec![0.0; HALF],
        start_theta: vec![0.0; HALF],
        lipschitz: l,
        diameter: b,
        label_prefix: String::new(),
    };
    let mut g = c.benchmark_group("bgm23");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("noisy_sgda_thm21_n1e4_d10", |bch| {
        bch.iter(|| {
            black_box(
                noisy
                    .run(&f, &s, &mut NoiseSource::sample(black_box(7)))
                    .expect("runs"),
            )
        })
    });
    g.bench_function("ldp_sgda_cor16_n1e4_d10", |bch| {
        bch.iter(|| {
            black_box(
                ldp.run(&f, &s, &mut NoiseSource::sample(black_box(7)))
                    .expect("runs"),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
