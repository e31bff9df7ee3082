//! Privacy benchmarks: the RDP accountant over 10⁵ composed steps (issue 3: under 50 ms) and the
//! analytic Gaussian calibration (under 1 ms).

use criterion::{criterion_group, criterion_main, Criterion};
use dpsaddle::privacy::accountant::Accountant;
use dpsaddle::privacy::{analytic, rdp, DpEvent, Neighbouring, PrivacyLedger};
use std::hint::black_box;
use std::time::Duration;

fn bench(c: &mut Criterion) {
    let step = DpEvent::PoissonSampled {
        q: 0.0025,
        event: Box::new(DpEvent::Gaussian {
            noise_multiplier: 1.3,
        }),
    };
    let self_composed = PrivacyLedger {
        relation: Neighbouring::AddRemove,
        event: DpEvent::SelfComposed {
            count: 100_000,
            event: Box::new(step.clone()),
        },
    };
    let listed = PrivacyLedger {
        relation: Neighbouring::AddRemove,
        event: DpEvent::Composed(vec![step; 100_000]),
    };
    let acc = rdp::RdpAccountant::default();
    let mut g = c.benchmark_group("privacy");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(300));
    g.bench_function("rdp_1e5_steps_self_composed", |b| {
        b.iter(|| acc.epsilon(black_box(&self_composed), 1e-5).unwrap())
    });
    g.bench_function("rdp_1e5_steps_listed", |b| {
        b.iter(|| acc.epsilon(black_box(&listed), 1e-5).unwrap())
    });
    g.bench_function("analytic_gaussian_sigma", |b| {
        b.iter(|| analytic::analytic_gaussian_sigma(1.0, black_box(1.0), 1e-5).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
