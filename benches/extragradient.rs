//! One iteration of projected stochastic extragradient (BG23 Algorithm 1; issue 14's speed target:
//! under 20 µs at d = 100, batch 100): two batch estimates of 100 per-sample operators
//! G(z; x) = (μ_x I + κ_x J)z + b_x (the structured RotIso family, O(d) per sample,
//! `DataAffineOp::rot_iso_ball`), two Gaussian noise vectors N(0, σ²I_100), two projections onto
//! the ball. A run of T = 200 iterations on n = 1000 points (with-replacement batches of 100,
//! σ = 0.1, γ = 0.01) is timed and divided by T (Criterion's throughput: iterations per second).
//! The comparison row runs the dense `AffineOp` (Mz + x, an O(d²) matvec per sample and an
//! allocating default `add_scaled`), which is far slower. Time is this thread's CPU time (Linux
//! `/proc/thread-self/schedstat`), as in `benches/noisy_sgda.rs`, so the load of a shared machine
//! does not count; elsewhere wall time.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dpsaddle::algorithms::extragradient::{Averaging, Extragradient};
use dpsaddle::algorithms::vi::{StepSchedule, ViAlgorithm};
use dpsaddle::geometry::Domain;
use dpsaddle::linalg::Matrix;
use dpsaddle::problem::monotone::DataAffineOp;
use dpsaddle::problem::{AffineOp, Dataset, MonotoneOp};
use dpsaddle::rng::{NoiseSource, Stream};
use dpsaddle::sampling::BatchRule;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

const D: usize = 100;
const N: usize = 1000;
const T: usize = 200;

fn alg() -> Extragradient {
    Extragradient::new(
        T,
        StepSchedule::Constant(0.01),
        vec![0.0; D],
        BatchRule::WithReplacement { m: 100 },
        0.1,
        Averaging::Extrapolated,
    )
    .expect("valid")
    .with_operator_bound(10.0)
    .expect("valid")
}

fn time_runs(b: &mut criterion::Bencher<'_>, op: &dyn MonotoneOp, s: &Dataset, a: &Extragradient) {
    b.iter_custom(|iters| {
        let (cpu0, wall0) = (thread_cpu(), Instant::now());
        for _ in 0..iters {
            black_box(
                a.run(op, black_box(s), &mut NoiseSource::sample(7))
                    .unwrap(),
            );
        }
        match (cpu0, thread_cpu()) {
            (Some(x), Some(y)) => y - x,
            _ => wall0.elapsed(),
        }
    })
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("extragradient");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(6))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Elements(T as u64));
    let mut st = Stream::new(1, "benches/extragradient/data");
    let rot: Vec<Vec<f64>> = (0..N)
        .map(|_| {
            let b: Vec<f64> = (0..D).map(|_| st.uniform() - 0.5).collect();
            DataAffineOp::rot_iso_atom(st.uniform(), 2.0 * st.uniform() - 1.0, &b)
        })
        .collect();
    let op = DataAffineOp::rot_iso_ball(vec![0.0; D], 1.0, &rot).expect("valid");
    let s = Dataset::new(rot).expect("valid");
    let a = alg();
    g.bench_function("rot_iso_d100_b100_T200", |b| time_runs(b, &op, &s, &a));
    let mut m = Matrix::zeros(D, D);
    for i in 0..D / 2 {
        m.set(2 * i, 2 * i + 1, -1.0);
        m.set(2 * i + 1, 2 * i, 1.0);
    }
    let dense = AffineOp::new(m, Domain::ball(vec![0.0; D], 1.0).unwrap()).unwrap();
    let shifts: Vec<Vec<f64>> = (0..N)
        .map(|_| (0..D).map(|_| st.uniform() - 0.5).collect())
        .collect();
    let s = Dataset::new(shifts).expect("valid");
    g.bench_function("dense_affine_d100_b100_T200", |b| {
        time_runs(b, &dense, &s, &a)
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
