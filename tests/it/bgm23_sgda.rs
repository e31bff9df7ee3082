//! BGM23 App. C.1 SGDA (eqs. (13)–(14)), Lemma 20 and Definition 4: the registered claims with
//! their tight instances and negative controls, the gradient count m·T, the labelled draws, the
//! uncounted regularizer, and bad input.

use dpsaddle::algorithms::sgda::{BatchRule, Sgda};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::papers::bgm23::bounds::{lemma20_bound, lemma20_pair_gap as pair_gap};
use dpsaddle::papers::bgm23::instances::lemma20_tight as tight;
use dpsaddle::problem::{Dataset, Objective, QuadBilinear, Regularizer};
use dpsaddle::rng::NoiseSource;

use crate::common;
use common::run;

#[test]
fn lemma20_holds_tight_and_control_rejected() {
    let ev = run("bgm23.lemma20");
    let t = ev.tight_ratio.expect("tight ratio");
    assert!((t - 1.0).abs() < 1e-9, "tight ratio {t}");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn def4_holds_tight_and_control_rejected() {
    let ev = run("bgm23.def4");
    let t = ev.tight_ratio.expect("tight ratio");
    assert!((t - 1.0).abs() < 1e-9, "tight ratio {t}");
    assert_eq!(ev.control_status(), "rejected");
}

fn lin_box_s() -> (QuadBilinear, Dataset) {
    let f = QuadBilinear::lin_box(0.5).unwrap();
    let s = Dataset::new(vec![
        vec![0.6, 0.8],
        vec![-0.6, -0.8],
        vec![5.0 / 13.0, -12.0 / 13.0],
    ])
    .unwrap();
    (f, s)
}

fn alg(batch: BatchRule, sigma: f64, steps: usize) -> Sgda {
    Sgda {
        eta: 0.1,
        steps,
        start_w: vec![0.2],
        start_theta: vec![-0.1],
        batch,
        sigma,
        reg: Regularizer::none(),
        label_prefix: String::new(),
    }
}

#[test]
fn gradient_count_is_m_times_t_and_regularizer_is_uncounted() {
    let (f, s) = lin_box_s();
    for (m, t) in [(1usize, 1usize), (3, 7), (5, 20)] {
        let mut a = alg(BatchRule::WithReplacement { m }, 0.3, t);
        a.reg = Regularizer::bgm23_eq4(1.0, &[0.1], &[0.0]);
        let out = a.run(&f, &s, &mut NoiseSource::sample(1)).unwrap();
        assert_eq!(out.grad_evals, (m * t) as u64);
        let obj = Objective::empirical(&s).with_reg(a.reg.clone());
        assert_eq!(a.grad_evals(&obj), (m * t) as u64);
    }
    let out = alg(BatchRule::Full, 0.0, 9)
        .run(&f, &s, &mut NoiseSource::sample(1))
        .unwrap();
    assert_eq!(out.grad_evals, 27);
}

#[test]
fn draws_are_labelled_and_replay_bit_for_bit() {
    let (f, s) = lin_box_s();
    let a = alg(BatchRule::WithReplacement { m: 2 }, 0.2, 5);
    let mut rec = NoiseSource::recording(7);
    let out = a.run(&f, &s, &mut rec).unwrap();
    let tape = rec.into_tape().unwrap();
    let json = tape.to_json();
    assert!(json.contains("sgda/batch/step=1") && json.contains("sgda/noise/step=5"));
    assert_eq!(tape.len(), 10);
    let out2 = a.run(&f, &s, &mut NoiseSource::replay(tape)).unwrap();
    assert_eq!(out, out2);
    // σ = 0 draws no noise; full batch draws nothing at all.
    let mut src = NoiseSource::sample(7);
    alg(BatchRule::WithReplacement { m: 2 }, 0.0, 5)
        .run(&f, &s, &mut src)
        .unwrap();
    assert_eq!(src.draws_made(), 5);
    let mut src = NoiseSource::sample(7);
    alg(BatchRule::Full, 0.0, 5).run(&f, &s, &mut src).unwrap();
    assert_eq!(src.draws_made(), 0);
}

#[test]
fn output_averages_z0_to_z_t_minus_1() {
    let (f, s) = lin_box_s();
    let a = alg(BatchRule::Full, 0.0, 4);
    let obj = Objective::empirical(&s);
    let tr = a.run_traced(&f, &obj, &mut NoiseSource::sample(0)).unwrap();
    assert_eq!(tr.iterates.len(), 5);
    assert_eq!(tr.estimates.len(), 4);
    let mean: f64 = tr.iterates[..4].iter().map(|z| z[0]).sum::<f64>() / 4.0;
    assert!((tr.output.w[0] - mean).abs() < 1e-15);
    // T = 1 outputs z_0.
    let out = alg(BatchRule::Full, 0.0, 1)
        .run(&f, &s, &mut NoiseSource::sample(0))
        .unwrap();
    assert_eq!(out.z(), vec![0.2, -0.1]);
}

#[test]
fn tight_instance_by_hand() {
    let tt = tight().unwrap();
    let obj = Objective::empirical(&tt.s);
    let a = Sgda {
        eta: 1.0,
        steps: 1,
        start_w: vec![0.3],
        start_theta: vec![0.4],
        batch: BatchRule::Full,
        sigma: 0.0,
        reg: Regularizer::none(),
        label_prefix: String::new(),
    };
    let out = a
        .run_objective(&tt.f, &obj, &mut NoiseSource::sample(0))
        .unwrap();
    let lhs = pair_gap(&tt.f, &obj, &out.z(), &tt.z);
    let rhs = lemma20_bound(1.0, 1.0, 1, 1.0, 0.0, 1.0);
    assert!((lhs - 1.0).abs() < 1e-12 && (rhs - 1.0).abs() < 1e-15);
    assert!(lemma20_bound(1.0, 1.0, 1, 1.0, 0.0, 2.0) < lhs);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let (f, s) = lin_box_s();
    let mut src = NoiseSource::sample(0);
    let mut a = alg(BatchRule::Full, 0.0, 3);
    a.eta = 0.0;
    assert!(a.run(&f, &s, &mut src).is_err());
    a.eta = f64::NAN;
    assert!(a.run(&f, &s, &mut src).is_err());
    assert!(alg(BatchRule::Full, 0.0, 0).run(&f, &s, &mut src).is_err());
    assert!(alg(BatchRule::WithReplacement { m: 0 }, 0.0, 3)
        .run(&f, &s, &mut src)
        .is_err());
    assert!(alg(BatchRule::Full, -1.0, 3).run(&f, &s, &mut src).is_err());
    assert!(alg(BatchRule::Full, f64::INFINITY, 3)
        .run(&f, &s, &mut src)
        .is_err());
    let mut a = alg(BatchRule::Full, 0.0, 3);
    a.start_w = vec![5.0];
    assert!(a.run(&f, &s, &mut src).is_err());
    a.start_w = vec![0.0, 0.0];
    assert!(a.run(&f, &s, &mut src).is_err());
    let bad = Dataset::new(vec![vec![1.0, 2.0, 3.0]]).unwrap();
    assert!(alg(BatchRule::Full, 0.0, 3)
        .run(&f, &bad, &mut src)
        .is_err());
    let mut a = alg(BatchRule::Full, 0.0, 3);
    a.reg = Regularizer::bgm23_eq4(1.0, &[0.0, 1.0], &[0.0]);
    assert!(a.run(&f, &s, &mut src).is_err());
    let huge = alg(BatchRule::WithReplacement { m: 1 << 20 }, 0.0, 1 << 20);
    assert!(huge.run(&f, &s, &mut src).is_err());
    // Non-uniform weights with replacement sampling.
    let mut obj = Objective::empirical(&s);
    obj.data.weights = vec![0.5, 0.25, 0.25];
    assert!(alg(BatchRule::WithReplacement { m: 2 }, 0.0, 3)
        .run_objective(&f, &obj, &mut src)
        .is_err());
    assert!(alg(BatchRule::Full, 0.0, 3)
        .run_objective(&f, &obj, &mut src)
        .is_ok());
}

/// The tape's values for `label`: (indices, unscaled normals) of one draw call each.
fn tape_indices(tape: &dpsaddle::rng::Tape, label: &str) -> Vec<usize> {
    use dpsaddle::rng::DrawValues;
    let d = tape.draws.iter().find(|d| d.label == label).expect(label);
    match &d.values {
        DrawValues::Index { values, .. } => values.iter().map(|&i| i as usize).collect(),
        v => panic!("{label}: expected indices, got {v:?}"),
    }
}

fn tape_normals(tape: &dpsaddle::rng::Tape, label: &str) -> Vec<f64> {
    use dpsaddle::rng::DrawValues;
    let d = tape.draws.iter().find(|d| d.label == label).expect(label);
    match &d.values {
        DrawValues::Normal(v) => v.clone(),
        v => panic!("{label}: expected normals, got {v:?}"),
    }
}

/// One exact closed-form step of SGDA (BGM23 App. C.1, eq. (13)) from a recorded tape: on
/// LIN-box with coupling c, f = a·w − b·θ + c·w·θ has the operator (a + cθ, b − cw), so
/// z_t = Π(z_{t−1} − η((1/m)Σ_{i∈M_t} G(z_{t−1}; x_i) + σξ_t)) with M_t and ξ_t read off the tape;
/// z_1 and z_2 are derived here by hand and compared with the trace, the output (eq. (14):
/// (z_0 + z_1)/2 for T = 2) and the last iterate. A wrong η, a wrong noise scale or a wrong
/// average fails by far more than the 1e-15 tolerance.
#[test]
fn sgda_first_two_iterates_closed_form_from_tape() {
    let (f, s) = lin_box_s();
    let (c, eta, sigma, m) = (0.5, 0.1, 0.3, 2usize);
    let a = Sgda::new(
        0.1,
        2,
        vec![0.2],
        vec![-0.1],
        BatchRule::WithReplacement { m },
        sigma,
    )
    .unwrap();
    let obj = Objective::empirical(&s);
    let mut rec = NoiseSource::recording(11);
    let tr = a.run_traced(&f, &obj, &mut rec).unwrap();
    let tape = rec.into_tape().unwrap();
    assert_eq!(tape.len(), 4, "two index draws and two noise draws");
    let clamp = |x: f64, r: f64| x.clamp(-r, r);
    let mut z = (0.2f64, -0.1f64);
    let mut hand = vec![vec![z.0, z.1]];
    for t in 1..=2 {
        let idx = tape_indices(&tape, &format!("sgda/batch/step={t}"));
        let xi = tape_normals(&tape, &format!("sgda/noise/step={t}"));
        assert_eq!((idx.len(), xi.len()), (m, 2));
        let (mut gw, mut gt) = (0.0, 0.0);
        for &i in &idx {
            let (ai, bi) = (s.points[i][0], s.points[i][1]);
            gw += (ai + c * z.1) / m as f64;
            gt += (bi - c * z.0) / m as f64;
        }
        z = (
            clamp(z.0 - eta * (gw + sigma * xi[0]), 0.3),
            clamp(z.1 - eta * (gt + sigma * xi[1]), 0.4),
        );
        hand.push(vec![z.0, z.1]);
    }
    for (t, (h, got)) in hand.iter().zip(&tr.iterates).enumerate() {
        for k in 0..2 {
            assert!(
                (h[k] - got[k]).abs() <= 1e-15,
                "z_{t}[{k}]: hand {} vs run {}",
                h[k],
                got[k]
            );
        }
    }
    // The output averages z_0 and z_1 (not z_2).
    assert!((tr.output.w[0] - (hand[0][0] + hand[1][0]) / 2.0).abs() <= 1e-15);
    assert!((tr.output.theta[0] - (hand[0][1] + hand[1][1]) / 2.0).abs() <= 1e-15);
    // The step is not degenerate: z_1 moved and did not hit the box (else η would not show).
    assert!(hand[1][0].abs() < 0.3 && hand[1][1].abs() < 0.4 && hand[1] != hand[0]);
}
