//! The certified VI solve at d = 20 (issue 14, "Speed": under 5 ms, release build): the mean
//! operator of G(z; x) = Mz + x with M = 2J + I (a rotation plus the identity: μ = 1,
//! L = √5) over n = 10 data points with N(0, 3²) coordinates (seeded), on the unit ball (the
//! solution on the boundary) and on the box [−1, 1]^20, solved by `solve::vi::vi_solution` to its
//! default certificate (distance bound ≤ 1e-14·(1 + ‖z‖), or the rounding floor with a bound
//! ≤ 1e-10·(1 + ‖z‖)). Construction outside the timed region. The time is the benchmark thread's
//! CPU time (Linux: `/proc/thread-self/schedstat`), so that the load of the shared machine does
//! not count; elsewhere it is wall time. Results: `benches/README.md`.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::geometry::Domain;
use dpsaddle::linalg::Matrix;
use dpsaddle::problem::{AffineOp, Mixture};
use dpsaddle::rng::Stream;
use dpsaddle::solve::vi::{vi_solution, ViProblem, ViSolveOptions};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// This thread's time on the CPU, if the platform tells (Linux), else `None`.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn bench(c: &mut Criterion) {
    let d = 20;
    let mut m = Matrix::zeros(d, d);
    for i in 0..d {
        m.set(i, i, 1.0);
    }
    for b in 0..d / 2 {
        m.set(2 * b, 2 * b + 1, -2.0);
        m.set(2 * b + 1, 2 * b, 2.0);
    }
    let mut s = Stream::new(20, "benches/vi_solve/data");
    let points: Vec<Vec<f64>> = (0..10)
        .map(|_| (0..d).map(|_| 3.0 * s.normal()).collect())
        .collect();
    let data = Mixture::empirical_owned(dpsaddle::problem::Rows::new(points).expect("equal rows"));
    let opts = ViSolveOptions {
        modulus: Some(1.0),
        lipschitz: Some(5f64.sqrt()),
        ..ViSolveOptions::default()
    };
    let mut g = c.benchmark_group("vi_solve");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for (name, dom) in [
        ("d20_ball", Domain::ball(vec![0.0; d], 1.0).unwrap()),
        (
            "d20_box",
            Domain::new_box(vec![-1.0; d], vec![1.0; d]).unwrap(),
        ),
    ] {
        let op = AffineOp::new(m.clone(), dom).unwrap();
        let p = ViProblem::new(&op, &data, &[]).unwrap();
        let c0 = vi_solution(&p, &opts).unwrap();
        println!(
            "{name}: {} iterations, {} evaluations, distance bound {:.2e}",
            c0.iterations, c0.evals, c0.dist_bound
        );
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let (cpu0, wall0) = (thread_cpu(), Instant::now());
                for _ in 0..iters {
                    black_box(vi_solution(black_box(&p), &opts).unwrap());
                }
                match (cpu0, thread_cpu()) {
                    (Some(a), Some(b)) => b - a,
                    _ => wall0.elapsed(),
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
