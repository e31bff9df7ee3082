//! Noisy SGDA hot loop (issue 12): per-sample gradient evaluations per second on the instance of
//! the issue (n = 10⁴ points uniform in [−1, 1]^{2d}, T = 10⁴ steps, minibatch m with
//! replacement, σ = 0.1, η = 0.01, f = (μ/2)‖w‖² + wᵀCθ + ⟨a, w⟩ − ⟨b, θ⟩ − (μ/2)‖θ‖² with μ = 0.1
//! on unit ℓ2 balls) at (d, m) = (10, 10), (10, 1), (100, 100). The instance is read from the
//! example configs `fixtures/configs/noisy_sgda_explicit_d{d}_m{m}.json` (what `dpsaddle run`
//! runs); the dataset is drawn outside the timed region. Criterion's throughput is in elements
//! per second, one element per per-sample gradient evaluation (m·T per run). The time is the
//! benchmark thread's CPU time (Linux: `/proc/thread-self/schedstat`, nanoseconds on the CPU),
//! like the C floor's `CLOCK_THREAD_CPUTIME_ID`, so that the load of a shared machine does not
//! count; elsewhere it is wall time.
//! Results and the side-by-side with NumPy and C: `benches/README.md`, `benches/peers/`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use dpsaddle::config;
use dpsaddle::rng::NoiseSource;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// This thread's time on the CPU, if the platform tells (Linux), else `None`.
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("noisy_sgda");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));
    for (d, m) in [(10usize, 10usize), (10, 1), (100, 100)] {
        let path = format!(
            "{}/fixtures/configs/noisy_sgda_explicit_d{d}_m{m}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the example config exists");
        let cfg = config::parse(&text, &path).expect("the example config parses");
        let p = config::prepare("noisy_sgda", &cfg, None).expect("the example config is valid");
        let steps = cfg.params["steps"].as_u64().expect("explicit steps");
        g.throughput(Throughput::Elements(steps * m as u64));
        g.bench_function(format!("d{d}_m{m}_T{steps}"), |b| {
            b.iter_custom(|iters| {
                let (cpu0, wall0) = (thread_cpu(), Instant::now());
                for _ in 0..iters {
                    black_box(
                        p.alg
                            .run(
                                p.f.as_ref(),
                                black_box(&p.s),
                                &mut NoiseSource::sample(p.seed),
                            )
                            .unwrap(),
                    );
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
