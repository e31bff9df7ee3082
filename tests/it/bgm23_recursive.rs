//! BGM23 Algorithm 1 (recursive regularization), its subroutines and its analysis: the registered
//! claims, plus API-level checks of the schedule and the traced run.

use crate::common;

use dpsaddle::algorithms::recursive_regularization::{
    AempSpec, DistanceRule, NPrimeRule, RecursiveRegularization, Schedule,
};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::papers::bgm23::schedules::lambda_thm18;
use dpsaddle::problem::{Dataset, QuadBilinear};
use dpsaddle::rng::NoiseSource;

#[test]
fn lemma19() {
    common::run("bgm23.lemma19");
}

#[test]
fn thm18() {
    common::run("bgm23.thm18");
}

#[test]
fn alg1_schedule() {
    common::run("bgm23.alg1_schedule");
}

#[test]
fn thm5() {
    common::run("bgm23.thm5");
}

#[test]
fn thm8() {
    common::run("bgm23.thm8");
}

#[test]
fn thm12() {
    common::run("bgm23.thm12");
}

#[test]
fn thm12_sensitivity() {
    common::run("bgm23.thm12_sensitivity");
}

#[test]
fn lemma11() {
    common::run("bgm23.lemma11");
}

/// Algorithm 1 line 1 by hand: n = 2^16, L = B = 1, λ = 1/40: n′ = ⌊65536/16⌋ = 4096,
/// T = ⌊log₂ 40⌋ = 5; D̂_t by the three rules; Λ_t, μ_t, Δ*_t in closed form.
#[test]
fn schedule_by_hand() {
    let s = Schedule::bgm23(
        1 << 16,
        1.0,
        1.0,
        1.0 / 40.0,
        NPrimeRule::PaperLiteral,
        DistanceRule::Corrected,
    )
    .unwrap();
    assert_eq!((s.n_prime, s.rounds), (4096, 5));
    assert_eq!(s.chunk(2), 4096..8192);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-15 * b.abs();
    assert!(close(s.cumulative(3), 14.0 / 40.0));
    assert!(close(s.modulus(3), 28.0 / 40.0));
    assert!(close(s.increment(3), 8.0 / 40.0));
    assert_eq!(DistanceRule::PaperLiteral.d_hat(1.0, 3), 0.125);
    assert_eq!(DistanceRule::Corrected.d_hat(1.0, 1), 1.0);
    assert_eq!(DistanceRule::Corrected.d_hat(1.0, 3), 0.25);
    assert_eq!(DistanceRule::StepIv.d_hat(1.0, 3), 0.5);
    // Δ*_t = L/((2^{t+1} − 2)λn′) ≤ L/(2^tλn′), equal at t = 1.
    assert_eq!(s.round_stability_exact(1), s.round_stability_paper(1));
    assert!(s.round_stability_exact(4) < s.round_stability_paper(4));
    let all = Schedule::bgm23(
        1 << 16,
        1.0,
        1.0,
        1.0 / 40.0,
        NPrimeRule::UseAllData,
        DistanceRule::Corrected,
    )
    .unwrap();
    assert_eq!(all.n_prime, 65536 / 5);
    // Thm 18's λ at n′ = 9216 is exactly L/(2B): T = 1 (E-BGM23-2, E-BGM23-60).
    assert_eq!(lambda_thm18(1.0, 1.0, 9216), 0.5);
}

#[test]
fn schedule_errors_name_the_field() {
    let e = Schedule::bgm23(
        1000,
        1.0,
        1.0,
        0.9,
        NPrimeRule::PaperLiteral,
        DistanceRule::Corrected,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("lambda") && e.contains("T"), "{e}");
    let e = Schedule::free(10, 4, 3, 0.1, 1.0, 1.0, DistanceRule::Corrected)
        .unwrap_err()
        .to_string();
    assert!(e.contains("n_prime") && e.contains("exceeds"), "{e}");
    let e = Schedule::free(10, 4, 2, f64::NAN, 1.0, 1.0, DistanceRule::Corrected)
        .unwrap_err()
        .to_string();
    assert!(e.contains("lambda"), "{e}");
}

fn alg(a_emp: AempSpec) -> RecursiveRegularization {
    RecursiveRegularization {
        schedule: Schedule::free(40, 12, 3, 0.1, 1.0, 1.0, DistanceRule::Corrected).unwrap(),
        start_w: vec![0.0],
        start_theta: vec![0.0],
        a_emp,
        record_exact: true,
    }
}

fn data() -> Dataset {
    Dataset::new(
        (0..40)
            .map(|i| {
                if i % 3 == 0 {
                    vec![0.6, 0.8]
                } else {
                    vec![-0.6, -0.8]
                }
            })
            .collect(),
    )
    .unwrap()
}

/// With the exact subroutine, z̄_t = z*_{S,t} in every round, and the run is reproducible.
#[test]
fn exact_subroutine_returns_the_round_saddle_points() {
    let f = QuadBilinear::lin_box(0.5).unwrap();
    let a = alg(AempSpec::Exact);
    let run = a
        .run_with(&a.a_emp, &f, &data(), &mut NoiseSource::sample(1))
        .unwrap();
    assert_eq!(run.rounds.len(), 3);
    for r in &run.rounds {
        let zs = r.z_star_s.as_ref().unwrap();
        let d: f64 = r.z_bar.iter().zip(zs).map(|(a, b)| (a - b).abs()).sum();
        assert!(d < 1e-12, "round {}: {d}", r.t);
    }
    assert!(run.output.ledger.is_none());
    assert_eq!(run.regularizer.terms.len(), 4);
    assert_eq!(run.regularizer.terms[2].c(), Some(0.8));
    let again = a.run(&f, &data(), &mut NoiseSource::sample(1)).unwrap();
    assert_eq!(again, run.output);
}

/// Output perturbation: the noise stream is labelled per round, replays from its tape, and the
/// ledger is T parallel Gaussians.
#[test]
fn output_perturbation_rounds_replay_from_the_tape() {
    let f = QuadBilinear::lin_box(0.0).unwrap();
    let a = alg(AempSpec::OutputPerturbation {
        epsilon: 1.0,
        delta: 1e-5,
        project: true,
    });
    let mut rec = NoiseSource::recording(9);
    let out = a.run(&f, &data(), &mut rec).unwrap();
    let tape = rec.into_tape().unwrap();
    let json = tape.to_json();
    assert!(json.contains("rr/round=1/output_perturbation/noise"));
    assert!(json.contains("rr/round=3/output_perturbation/noise"));
    let replayed = a.run(&f, &data(), &mut NoiseSource::replay(tape)).unwrap();
    assert_eq!(replayed, out);
    let ev = serde_json::to_string(&out.ledger.unwrap()).unwrap();
    assert!(ev.contains("parallel_composed"), "{ev}");
}

#[test]
fn bad_inputs_are_errors() {
    let f = QuadBilinear::lin_box(0.0).unwrap();
    let a = alg(AempSpec::BiasedExact {
        offsets: vec![vec![0.0, 0.0]],
    });
    let e = a
        .run(&f, &data(), &mut NoiseSource::sample(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("a_emp.offsets"), "{e}");
    let a = alg(AempSpec::Exact);
    let short = Dataset::new(vec![vec![0.6, 0.8]; 39]).unwrap();
    let e = a
        .run(&f, &short, &mut NoiseSource::sample(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("data") && e.contains("n = 39"), "{e}");
    let mut b = alg(AempSpec::Exact);
    b.start_w = vec![0.9];
    let e = b
        .run(&f, &data(), &mut NoiseSource::sample(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("start"), "{e}");
}

#[test]
fn rate_n() {
    common::run("bgm23.rate_n");
}

#[test]
fn rate_eps() {
    common::run("bgm23.rate_eps");
}

#[test]
fn cor10() {
    common::run("bgm23.cor10");
}

#[test]
fn thm5_relacc() {
    common::run("bgm23.thm5_relacc");
}
