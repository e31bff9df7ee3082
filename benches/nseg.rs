//! NSEG (BG23 Algorithm 1) speed targets of issue 15: single-pass NSEG with Cor 1's corrected
//! policy at n = 10⁴, d = 10 (under 50 ms), and multi-pass NSEG with Thm 4's policy, T = n²,
//! at n = 300, d = 10 (under 2 s), both through `algorithms::nseg::Nseg` on the structured RotIso
//! family G(z; x) = (μ_x I + κ_x J)z + b_x in the unit ball, with M, D, L its closed-form
//! constants over the data, ε = 1, η = 1e-5. Time is this thread's CPU time (Linux
//! `/proc/thread-self/schedstat`), as in `benches/extragradient.rs`; elsewhere wall time.

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::algorithms::vi::ViAlgorithm;
use dpsaddle::papers::bg23::nseg::{cor1_policy, thm4_policy};
use dpsaddle::papers::Reading;
use dpsaddle::problem::monotone::DataAffineOp;
use dpsaddle::problem::{Dataset, MonotoneOp};
use dpsaddle::rng::{NoiseSource, Stream};
use std::hint::black_box;
use std::time::{Duration, Instant};

fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

const D: usize = 10;

fn instance(n: usize) -> (DataAffineOp, Dataset) {
    let mut st = Stream::new(1, "benches/nseg/data");
    let rot: Vec<Vec<f64>> = (0..n)
        .map(|_| {
            let b: Vec<f64> = (0..D).map(|_| st.uniform() - 0.5).collect();
            DataAffineOp::rot_iso_atom(0.1 * st.uniform(), 2.0 * st.uniform() - 1.0, &b)
        })
        .collect();
    let op = DataAffineOp::rot_iso_ball(vec![0.0; D], 1.0, &rot).expect("valid");
    (op, Dataset::new(rot).expect("valid"))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("nseg");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    for (name, n, multi) in [
        ("single_pass_cor1_n10000_d10", 10_000usize, false),
        ("multi_pass_thm4_n300_d10", 300, true),
    ] {
        let (op, s) = instance(n);
        let pts = s.points.to_vecs();
        let c0 = op.constants(&pts).expect("closed form");
        let args = (
            c0.bound,
            c0.diameter,
            c0.lipschitz,
            n as u64,
            D as u64,
            1.0,
            1e-5,
        );
        let a = if multi {
            thm4_policy(
                args.0,
                args.1,
                args.2,
                args.3,
                args.4,
                args.5,
                args.6,
                Reading::Corrected,
            )
            .expect("valid")
            .multi_pass(vec![0.0; D])
        } else {
            cor1_policy(
                args.0,
                args.1,
                args.2,
                args.3,
                args.4,
                args.5,
                args.6,
                Reading::Corrected,
            )
            .expect("valid")
            .single_pass(vec![0.0; D])
        }
        .expect("valid")
        .with_operator_bound(c0.bound)
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
