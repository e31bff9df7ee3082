//! ZTOH22 speed target of issue 17: phased output perturbation with the full-batch extragradient
//! base solver ([`EngineExtragradient`], stopped on its distance certificate) at n = 10⁴,
//! d = 10, under 200 ms. Two runs through `ZtohOutputPerturbation::run`: Algorithm 2 (convex
//! minimization) and Algorithm 4 (convex–concave, d_x = 5), both on G(z; ξ) = diag(h) z + ξ on
//! the box [−1, 1]¹⁰ with h spread over [0, 1] (κ of phase k is (1 + μ_k)/μ_k), ξ uniform in
//! [−½, ½]¹⁰, L its closed-form constant, μ of Thm 3.4 (resp. Thm 4.5) with log n natural,
//! ε = 0.9, δ = 1e-5; K = ⌊log₂ n⌋ = 13 phases of n̄ = 769 points. Time is this thread's CPU time
//! (Linux `/proc/thread-self/schedstat`), as in `benches/nseg.rs`; elsewhere wall time.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::algorithms::base_solvers::EngineExtragradient;
use dpsaddle::algorithms::phased_output_perturbation::ZtohOutputPerturbation;
use dpsaddle::papers::ztoh22::bounds::{thm34_mu, thm45_mu};
use dpsaddle::papers::ztoh22::calibration::phases;
use dpsaddle::papers::ztoh22::instances::{diagonal_ball, lipschitz_of_f};
use dpsaddle::problem::Dataset;
use dpsaddle::rng::{NoiseSource, Stream};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

const D: usize = 10;
const N: usize = 10_000;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("ztoh22");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    let h: Vec<f64> = (0..D).map(|i| i as f64 / (D - 1) as f64).collect();
    let op = diagonal_ball(h, 1.0).expect("valid");
    let mut st = Stream::new(1, "benches/ztoh22/data");
    let pts: Vec<Vec<f64>> = (0..N)
        .map(|_| (0..D).map(|_| st.uniform() - 0.5).collect())
        .collect();
    let s = Dataset::new(pts.clone()).expect("valid");
    let l = lipschitz_of_f(&op, &pts).expect("closed form");
    let (eps, delta, n) = (0.9, 1e-5, N as u64);
    let diam = 2.0 * (D as f64).sqrt();
    let ln_n = (N as f64).ln();
    let (_, nbar) = phases(n);
    let mu2 = thm34_mu(l, diam, n, D, eps, delta, ln_n).expect("valid");
    let mu4 = thm45_mu(l, diam, n, nbar, D, eps, delta, ln_n).expect("valid");
    let solver = EngineExtragradient::default();
    for (name, alg) in [
        (
            "alg2_extragradient_n10000_d10",
            ZtohOutputPerturbation::alg2(l, mu2, D, eps, delta).expect("valid"),
        ),
        (
            "alg4_extragradient_n10000_d10",
            ZtohOutputPerturbation::alg45(l, mu4, D / 2, eps, delta, false).expect("valid"),
        ),
    ] {
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let (cpu0, wall0) = (thread_cpu(), Instant::now());
                for _ in 0..iters {
                    black_box(
                        alg.run(&op, black_box(&s), &solver, &mut NoiseSource::sample(7))
                            .unwrap(),
                    );
                }
                match (cpu0, thread_cpu()) {
                    (Some(x), Some(y)) => y - x,
                    _ => wall0.elapsed(),
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
