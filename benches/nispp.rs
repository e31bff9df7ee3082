//! Multi-pass NISPP (BG23 Algorithm 2) with Thm 7's policy at n = 10³, d = 10 (issue 16's speed
//! target: under 5 s): K = n (n + 1 outer iterations), batches of B = ⌈√n⌉ = 32 drawn with
//! replacement, λ₀, ν = M²/(λ₀n²) and σ from `papers::bg23::nispp::policy`, on the structured
//! RotIso family G(z; x) = (μ_x I + κ_x J)z + b_x in the unit ball. Two rows: the inner OE
//! stopped on the ν-certificate (the corrected reading) and OE run for Remark 3's printed count
//! (the literal one). Time is this thread's CPU time (Linux `/proc/thread-self/schedstat`), as
//! in `benches/extragradient.rs`; elsewhere wall time.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::algorithms::nispp::{InnerSolver, Nispp};
use dpsaddle::algorithms::vi::ViAlgorithm;
use dpsaddle::papers::bg23::nispp::{policy, NisppItem};
use dpsaddle::papers::Reading;
use dpsaddle::problem::monotone::DataAffineOp;
use dpsaddle::problem::{Dataset, MonotoneOp};
use dpsaddle::rng::{NoiseSource, Stream};
use dpsaddle::sampling::BatchRule;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

const D: usize = 10;
const N: usize = 1000;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("nispp");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(1));
    let mut st = Stream::new(1, "benches/nispp/data");
    let rot: Vec<Vec<f64>> = (0..N)
        .map(|_| {
            let b: Vec<f64> = (0..D).map(|_| st.uniform() - 0.5).collect();
            DataAffineOp::rot_iso_atom(0.1 * st.uniform(), 2.0 * st.uniform() - 1.0, &b)
        })
        .collect();
    let op = DataAffineOp::rot_iso_ball(vec![0.0; D], 1.0, &rot).expect("valid");
    let c0 = op.constants(&rot).expect("closed form");
    let s = Dataset::new(rot).expect("valid");
    let pol = policy(
        NisppItem::Thm7,
        c0.bound,
        c0.diameter,
        c0.lipschitz,
        N as u64,
        D as u64,
        1.0,
        1e-5,
        Reading::Corrected,
    )
    .expect("valid");
    for (name, inner) in [
        (
            "thm7_n1000_d10_certificate",
            InnerSolver::OeCertificate {
                max_iterations: 100_000,
            },
        ),
        ("thm7_n1000_d10_remark3_count", InnerSolver::OeRemark3),
    ] {
        let a = Nispp::new(
            pol.schedule.iterations as usize,
            pol.schedule.lambda0,
            pol.schedule.nu,
            pol.sigma,
            BatchRule::WithReplacement {
                m: pol.schedule.batch as usize,
            },
            inner,
            vec![0.0; D],
        )
        .expect("valid");
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let (cpu0, wall0) = (thread_cpu(), Instant::now());
                for _ in 0..iters {
                    black_box(
                        a.run(&op, black_box(&s), &mut NoiseSource::sample(7))
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
