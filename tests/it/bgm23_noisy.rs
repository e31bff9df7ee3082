//! BGM23 App. C.2 / A.2 / B.1: noisy SGDA with the Thm 21 schedule (Thm 21, Lemma 9, the gradient
//! complexity, the batch-size erratum against Thm 22), one-pass LDP SGDA (Cor 16) and Lemma 17:
//! the registered claims with their negative controls, plus direct tests of the algorithms.

use crate::common;
use common::run;

#[test]
fn thm21_batch_rule_erratum() {
    let ev = run("bgm23.thm21_batch_rule");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn thm21_holds_and_control_rejected() {
    let ev = run("bgm23.thm21");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn lemma9_holds_and_control_rejected() {
    let ev = run("bgm23.lemma9");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn grad_complexity_band() {
    let ev = run("bgm23.grad_complexity");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn cor16_holds_and_control_rejected() {
    let ev = run("bgm23.cor16");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn lemma17_holds_and_control_rejected() {
    let ev = run("bgm23.lemma17");
    assert_eq!(ev.control_status(), "rejected");
}

// ---------------------------------------------------------------------------------------------
// Direct tests of the algorithms (expected values computed by hand / independent Python, never by
// the code under test).

use dpsaddle::algorithms::ldp_sgda::LdpSgda;
use dpsaddle::algorithms::noisy_sgda::NoisySgda;
use dpsaddle::algorithms::Algorithm;
use dpsaddle::papers::bgm23::calibration::{
    thm21_params as bgm23_thm21_params, thm22_premise as bgm23_thm22_premise,
};
use dpsaddle::papers::bgm23::schedules::{lemma9_alpha_hat, lemma9_alpha_hat_at};
use dpsaddle::papers::Reading;
use dpsaddle::privacy::DpEvent;
use dpsaddle::problem::{Dataset, FiniteDist, Objective, QuadBilinear, Regularizer};
use dpsaddle::rng::{DrawValues, NoiseSource};
use dpsaddle::Error;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

fn field_of<T: std::fmt::Debug>(r: dpsaddle::Result<T>) -> String {
    match r {
        Err(Error::Invalid { field, .. }) => field,
        other => panic!("expected Error::Invalid, got {other:?}"),
    }
}

fn lin_box_data(n: usize) -> (QuadBilinear, Dataset) {
    let f = QuadBilinear::lin_box(0.5).unwrap();
    let d = FiniteDist::new(
        vec![
            vec![0.6, 0.8],
            vec![-0.6, -0.8],
            vec![5.0 / 13.0, -12.0 / 13.0],
        ],
        vec![0.5, 0.3, 0.2],
    )
    .unwrap();
    let mut st = dpsaddle::rng::Stream::new(3, "tests/bgm23_noisy/data");
    let u: Vec<f64> = (0..n).map(|_| st.uniform()).collect();
    let s = d
        .dataset_from_sequence(&d.sample_indices(&u).unwrap())
        .unwrap();
    (f, s)
}

fn noisy(rule: Reading, eps: f64) -> NoisySgda {
    NoisySgda {
        c0: 4.0,
        epsilon: eps,
        delta: 1e-5,
        batch_rule: rule,
        start_w: vec![0.3],
        start_theta: vec![-0.4],
        d_hat: 1.0,
        lipschitz: 1.25,
        label_prefix: String::new(),
    }
}

#[test]
fn thm21_schedule_by_hand() {
    // n = 2000, d = 4, ε = 1, δ = 1e-5, c₀ = 4: T = min{250, 4e6/(128 ln 1e5) = 2714.5} = 250;
    // printed m = ⌈2000·√(1/1000)⌉ = ⌈63.25⌉ = 64, corrected m = ⌈2000/√250⌉ = ⌈126.49⌉ = 127;
    // σ = √(4·250·ln 1e5)/2000 (independent Python: 0.053649150657233684).
    let lit = bgm23_thm21_params(4.0, 2000, 4, 1.0, 1.0, 1e-5, Reading::PaperLiteral).unwrap();
    let cor = bgm23_thm21_params(4.0, 2000, 4, 1.0, 1.0, 1e-5, Reading::Corrected).unwrap();
    assert_eq!((lit.iterations, lit.batch), (250, 64));
    assert_eq!((cor.iterations, cor.batch), (250, 127));
    assert!(close(cor.sigma, 0.053649150657233684, 1e-14));
    assert!(!lit.thm22_premise && cor.thm22_premise);
    // 4e6 > 250·64² = 1 024 000 and 250·127² = 4 032 250 ≥ 4e6 > 250·126² = 3 969 000.
    assert!(!bgm23_thm22_premise(250, 64, 2000, 1.0));
    assert!(bgm23_thm22_premise(250, 127, 2000, 1.0));
    assert!(!bgm23_thm22_premise(250, 126, 2000, 1.0));
    // The double nearest 0.1 exceeds 1/10: n = 2000, ε = 0.1, T = 10 needs m = 201, not 200.
    assert!(!bgm23_thm22_premise(10, 200, 2000, 0.1));
    assert!(bgm23_thm22_premise(10, 201, 2000, 0.1));
    let p = bgm23_thm21_params(4.0, 2000, 10, 1.0, 0.1, 1e-5, Reading::Corrected).unwrap();
    assert_eq!((p.iterations, p.batch), (10, 201));
}

#[test]
fn alpha_hat_explicit_by_hand() {
    // L = 2, m = 10, c₀ = 32, n = 800, d = 1, ε = 1, δ = e^{-1}: max{√(8/800), √32/800} = 0.1;
    // α̂ = (2/2)(2 + 0.1 + 1)·0.1 = 0.31.
    let a = lemma9_alpha_hat(2.0, 2.0, 10, 32.0, 800, 1, 1.0, (-1.0f64).exp());
    assert!(close(a, 0.31, 1e-12), "{a}");
    // At T = 100 (1/√T = 0.1) the rounded-T form agrees; with L_noise = L_step/2 the variance
    // part is quartered: (2/2)(2 + 0.25·1.1)·0.1 = 0.2275.
    assert!(close(
        lemma9_alpha_hat_at(2.0, 2.0, 10, 32.0, 100),
        0.31,
        1e-12
    ));
    assert!(close(
        lemma9_alpha_hat_at(2.0, 1.0, 10, 32.0, 100),
        0.2275,
        1e-12
    ));
}

#[test]
fn noisy_sgda_counts_ledger_info_and_replay() {
    let (f, s) = lin_box_data(300);
    // n = 300, d = 2, ε = 1: T = min{37.5, 90000/(64 ln 1e5) = 122.1} → 37; m = ⌈300/√37⌉ = 50.
    let alg = noisy(Reading::Corrected, 1.0);
    let mut rec = NoiseSource::recording(9);
    let out = alg.run(&f, &s, &mut rec).unwrap();
    let info = out.info.as_noisy_sgda().unwrap();
    assert_eq!(info.iterations, 37);
    assert_eq!(info.m, 50);
    assert_eq!(out.grad_evals, 37 * 50);
    assert!(close(
        out.info.as_noisy_sgda().unwrap().eta,
        1.0 / (1.25 * 37f64.sqrt()),
        1e-15
    ));
    match &out.ledger.as_ref().unwrap().event {
        DpEvent::SelfComposed { count: 37, event } => match event.as_ref() {
            DpEvent::SampledWithReplacement { n: 300, m: 50, .. } => {}
            e => panic!("unexpected {e:?}"),
        },
        e => panic!("unexpected {e:?}"),
    }
    let tape = rec.into_tape().unwrap();
    assert_eq!(tape.len(), 2 * 37);
    assert!(
        tape.draws[0].label == "sgda/batch/step=1" && tape.draws[1].label == "sgda/noise/step=1"
    );
    let again = alg.run(&f, &s, &mut NoiseSource::replay(tape)).unwrap();
    assert_eq!(again, out);
}

#[test]
fn noisy_sgda_regularized_round_objective() {
    // Inside Algorithm 1: regularizer exact and uncounted, step with 5L, noise with L, prefix.
    let (f, s) = lin_box_data(300);
    let obj = Objective::empirical(&s).with_reg(Regularizer::bgm23_eq4(2.0, &[0.1], &[0.0]));
    let alg = noisy(Reading::Corrected, 1.0);
    let mut rec = NoiseSource::recording(2);
    let out = alg
        .run_objective(
            &f,
            &obj,
            &[0.1],
            &[0.0],
            0.5,
            6.25,
            1.25,
            "rr/round=3/",
            &mut rec,
        )
        .unwrap();
    assert_eq!(out.grad_evals, 37 * 50);
    assert!(close(
        out.info.as_noisy_sgda().unwrap().eta,
        0.5 / (6.25 * 37f64.sqrt()),
        1e-15
    ));
    // σ uses L_noise = 1.25: √(4·37·1.25²·ln 1e5)/300.
    let sig = (4.0 * 37.0 * 1.25f64.powi(2) * (1e5f64).ln()).sqrt() / 300.0;
    assert!(close(out.info.as_noisy_sgda().unwrap().sigma, sig, 1e-14));
    let tape = rec.into_tape().unwrap();
    assert!(tape
        .draws
        .iter()
        .all(|d| d.label.starts_with("rr/round=3/sgda/")));
}

#[test]
fn noisy_sgda_coupled_on_neighbours() {
    // Same seed on S and S′ (one point replaced): identical indices and noise.
    let (f, s) = lin_box_data(300);
    let s2 = s.replace_one(17, &[-0.6, -0.8]).unwrap();
    let alg = noisy(Reading::Corrected, 1.0);
    let mut a = NoiseSource::recording(4);
    let mut b = NoiseSource::recording(4);
    alg.run(&f, &s, &mut a).unwrap();
    alg.run(&f, &s2, &mut b).unwrap();
    assert_eq!(a.into_tape(), b.into_tape());
}

#[test]
fn noisy_sgda_bad_input_names_the_field() {
    let (f, s) = lin_box_data(300);
    let obj = Objective::empirical(&s);
    let alg = noisy(Reading::Corrected, 1.0);
    let run = |dh: f64, ls: f64, ln: f64, w: f64| {
        alg.run_objective(
            &f,
            &obj,
            &[w],
            &[0.0],
            dh,
            ls,
            ln,
            "",
            &mut NoiseSource::sample(0),
        )
    };
    assert_eq!(field_of(run(0.0, 1.0, 1.0, 0.0)), "d_hat");
    assert_eq!(field_of(run(1.0, f64::NAN, 1.0, 0.0)), "l_step");
    assert_eq!(field_of(run(1.0, 1.0, -1.0, 0.0)), "l_noise");
    assert!(field_of(run(1.0, 1.0, 1.0, 0.9)).starts_with("start"));
    let mut bad = alg.clone();
    bad.epsilon = 0.0;
    assert_eq!(
        field_of(bad.run(&f, &s, &mut NoiseSource::sample(0))),
        "epsilon"
    );
    bad = alg.clone();
    bad.c0 = -1.0;
    assert_eq!(field_of(bad.run(&f, &s, &mut NoiseSource::sample(0))), "c0");
    let (_, tiny) = lin_box_data(7);
    assert_eq!(
        field_of(alg.run(&f, &tiny, &mut NoiseSource::sample(0))),
        "n"
    );
    // Sampling with replacement needs equal weights.
    let pop = FiniteDist::new(vec![vec![0.6, 0.8], vec![-0.6, -0.8]], vec![0.7, 0.3]).unwrap();
    let r = alg.run_objective(
        &f,
        &Objective::population(&pop),
        &[0.0],
        &[0.0],
        1.0,
        1.0,
        1.0,
        "",
        &mut NoiseSource::sample(0),
    );
    assert!(matches!(r, Err(Error::Invalid { .. })));
}

fn ldp(variant: Reading, optimal: bool, eps: f64) -> LdpSgda {
    LdpSgda {
        epsilon: eps,
        delta: 1e-5,
        variant,
        optimal_step: optimal,
        step: None,
        start_w: vec![0.0],
        start_theta: vec![0.0],
        lipschitz: 1.0,
        diameter: 1.0,
        label_prefix: String::new(),
    }
}

#[test]
fn ldp_params_by_hand() {
    // L = B = 1, n = 100, d = 2, ε = 1/2, δ = 1e-5 (independent Python): printed σ = √(ln 1e5)/ε
    // = 6.786140424415112, corrected σ = 2√(2 ln(1.25e5))/ε = 19.379221050421556; printed
    // η = 1/(√(200 ln 1e5)·ε) = 0.041679466498661034, corrected η = ε/√(200 ln 1e5)
    // = 0.010419866624665259 (their ratio is ε² = 1/4); η* = √(2/(100V)), V = 3 + 4σ²
    // = 1505.2168340844078: 0.0036451505033459506.
    let lit = ldp(Reading::PaperLiteral, false, 0.5)
        .params(100, 2)
        .unwrap();
    let cor = ldp(Reading::Corrected, false, 0.5).params(100, 2).unwrap();
    let opt = ldp(Reading::Corrected, true, 0.5).params(100, 2).unwrap();
    assert!(close(lit.sigma, 6.786140424415112, 1e-14));
    assert!(close(cor.sigma, 19.379221050421556, 1e-14));
    assert!(close(lit.eta, 0.041679466498661034, 1e-14));
    assert!(close(cor.eta, 0.010419866624665259, 1e-14));
    assert!(close(opt.v, 1505.2168340844078, 1e-14));
    assert!(close(opt.eta, 0.0036451505033459506, 1e-14));
    // At η* the two terms of B²/(ηn) + (η/2)V are equal: the bound is B√(2V/n).
    assert!(close(
        opt.bound,
        (2.0 * 1505.2168340844078 / 100.0f64).sqrt(),
        1e-12
    ));
}

#[test]
fn ldp_one_pass_ledger_and_replay() {
    let (f, s) = lin_box_data(40);
    let alg = ldp(Reading::Corrected, false, 1.0);
    let mut rec = NoiseSource::recording(8);
    let run = alg.run_traced(&f, &s, &mut rec).unwrap();
    assert_eq!(run.output.grad_evals, 40);
    let mut order = run.order.clone();
    order.sort_unstable();
    assert_eq!(order, (0..40).collect::<Vec<_>>());
    // One Gaussian per user, noise multiplier σ/(2L) = √(2 ln(1.25e5)).
    match &run.output.ledger.as_ref().unwrap().event {
        DpEvent::Gaussian { noise_multiplier } => {
            assert!(close(
                *noise_multiplier,
                (2.0 * (1.25e5f64).ln()).sqrt(),
                1e-14
            ))
        }
        e => panic!("unexpected {e:?}"),
    }
    // The average is over z_0..z_{n−1}.
    let mean0: f64 = run.iterates[..40].iter().map(|z| z[0]).sum::<f64>() / 40.0;
    assert!(close(run.output.w[0], mean0, 1e-12));
    let tape = rec.into_tape().unwrap();
    assert_eq!(tape.len(), 41);
    assert!(matches!(tape.draws[0].values, DrawValues::Permutation(ref p) if p.len() == 40));
    let again = alg
        .run_traced(&f, &s, &mut NoiseSource::replay(tape))
        .unwrap();
    assert_eq!(again, run);
}

#[test]
fn ldp_bad_input_names_the_field() {
    let (f, s) = lin_box_data(10);
    let mut a = ldp(Reading::Corrected, false, 1.0);
    a.diameter = 0.0;
    assert_eq!(
        field_of(a.run(&f, &s, &mut NoiseSource::sample(0))),
        "diameter"
    );
    a = ldp(Reading::Corrected, false, 1.0);
    a.lipschitz = f64::INFINITY;
    assert_eq!(
        field_of(a.run(&f, &s, &mut NoiseSource::sample(0))),
        "lipschitz"
    );
    a = ldp(Reading::Corrected, false, 1.0);
    a.delta = 1.0;
    assert_eq!(
        field_of(a.run(&f, &s, &mut NoiseSource::sample(0))),
        "delta"
    );
    a = ldp(Reading::Corrected, false, 1.0);
    a.start_theta = vec![2.0];
    assert!(field_of(a.run(&f, &s, &mut NoiseSource::sample(0))).starts_with("start"));
    let wrong = Dataset::new(vec![vec![0.1, 0.2, 0.3]]).unwrap();
    assert_eq!(
        field_of(ldp(Reading::Corrected, false, 1.0).run(&f, &wrong, &mut NoiseSource::sample(0))),
        "data"
    );
}

#[test]
fn thm22_constant_made_concrete() {
    common::run("bgm23.thm22");
}

/// One exact closed-form step of noisy SGDA (BGM23 App. C.2 with Thm 21's schedule) from a
/// recorded tape. n = 16, ε = 10, δ = 1/10, d = 2: T = min{n/8, n²ε²/(32 d log(1/δ))} = 2, the
/// corrected batch rule gives m = 16 (Thm 22's premise Tm² ≥ n²ε fails below m = n, so m = n),
/// σ = √(c₀·T·L²·log(1/δ))/(nε) and η = D̂/(L√T), all written out here from the paper's
/// formulas; z_1, z_2 from the tape by hand are compared with the output ((z_0 + z_1)/2) and the
/// last iterate z_2. A wrong η, σ or average fails.
#[test]
fn noisy_sgda_first_two_iterates_closed_form_from_tape() {
    use dpsaddle::algorithms::Diagnostics;
    let (f, s) = lin_box_data(16);
    let (c0, eps, delta, l, d_hat) = (2.0, 10.0, 0.1, 1.25, 0.5);
    let alg = NoisySgda {
        c0,
        epsilon: eps,
        delta,
        batch_rule: Reading::Corrected,
        start_w: vec![0.1],
        start_theta: vec![0.2],
        d_hat,
        lipschitz: l,
        label_prefix: String::new(),
    };
    let mut rec = NoiseSource::recording(5);
    let out = alg.run(&f, &s, &mut rec).unwrap();
    let tape = rec.into_tape().unwrap();
    let (n, t_steps, m) = (16.0f64, 2.0f64, 16usize);
    let sigma = (c0 * t_steps * l * l * (1.0 / delta).ln()).sqrt() / (n * eps);
    let eta = d_hat / (l * t_steps.sqrt());
    let Diagnostics::NoisySgda(diag) = &out.info else {
        panic!("noisy SGDA diagnostics")
    };
    assert_eq!((diag.iterations, diag.m), (2, 16));
    let c = 0.5;
    let mut z = (0.1f64, 0.2f64);
    let mut hand = vec![z];
    assert_eq!(tape.len(), 4);
    for t in 0..2 {
        let idx: Vec<usize> = match &tape.draws[2 * t].values {
            DrawValues::Index { values, .. } => values.iter().map(|&i| i as usize).collect(),
            v => panic!("expected indices, got {v:?}"),
        };
        let xi = match &tape.draws[2 * t + 1].values {
            DrawValues::Normal(v) => v.clone(),
            v => panic!("expected normals, got {v:?}"),
        };
        assert_eq!(idx.len(), m);
        let (mut gw, mut gt) = (0.0, 0.0);
        for &i in &idx {
            gw += (s.points[i][0] + c * z.1) / m as f64;
            gt += (s.points[i][1] - c * z.0) / m as f64;
        }
        z = (
            (z.0 - eta * (gw + sigma * xi[0])).clamp(-0.3, 0.3),
            (z.1 - eta * (gt + sigma * xi[1])).clamp(-0.4, 0.4),
        );
        hand.push(z);
    }
    let tol = 1e-15;
    assert!(
        (out.w[0] - (hand[0].0 + hand[1].0) / 2.0).abs() <= tol,
        "w̄ {} vs {:?}",
        out.w[0],
        hand
    );
    assert!((out.theta[0] - (hand[0].1 + hand[1].1) / 2.0).abs() <= tol);
    let last = diag.sgda.last_iterate.as_ref().expect("z_T");
    assert!(
        (last[0] - hand[2].0).abs() <= tol && (last[1] - hand[2].1).abs() <= tol,
        "z_2 {last:?} vs {:?}",
        hand[2]
    );
    // The step and the noise both show: z_1 is interior and σξ moves it by more than the tolerance.
    assert!(hand[1].0.abs() < 0.3 && hand[1].1.abs() < 0.4);
    assert!((diag.sigma - sigma).abs() <= 1e-15 * sigma && (diag.eta - eta).abs() <= 1e-15 * eta);
}
