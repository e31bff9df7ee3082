//! KLLW22: DP-GDA (Algorithm 1) and its stability claims.

mod common;

use dpsaddle::algorithms::dp_gda::{Averaging, DpGda};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::claims::kllw22::stability::instance;
use dpsaddle::linalg::Matrix;
use dpsaddle::problem::{Dataset, QuadBilinear};
use dpsaddle::rng::NoiseSource;

#[test]
fn esp_stability() {
    common::run("kllw22.esp_stability");
}

#[test]
fn def3() {
    common::run("kllw22.def3");
}

#[test]
fn lemma2_pathwise() {
    common::run("kllw22.lemma2_pathwise");
}

#[test]
fn rate_erratum() {
    common::run("kllw22.rate_erratum");
}

fn data() -> Dataset {
    Dataset::new(vec![vec![0.5, -0.2, 0.1, 0.3], vec![-0.4, 0.1, 0.2, -0.6]]).unwrap()
}

/// One step by hand: T = 1 outputs the start (0, 0) under the printed averaging, and the first
/// update under the alternative one: w_2 = Π(0 − (1/ρ)(ā + b_w)), v_2 = Π(0 + (1/ρ)(−b̄ + b_v)).
#[test]
fn one_step_by_hand() {
    let f = instance(2, 10.0, 2.0, Matrix::zeros(2, 2)).unwrap();
    let mut alg = DpGda {
        steps: 1,
        rho: 2.0,
        sigma: 0.0,
        averaging: Averaging::PaperLiteral,
        ledger: None,
    };
    let out = alg.run(&f, &data(), &mut NoiseSource::sample(0)).unwrap();
    assert_eq!(out.z(), vec![0.0; 4]);
    alg.averaging = Averaging::Produced;
    let out = alg.run(&f, &data(), &mut NoiseSource::sample(0)).unwrap();
    // ā = (0.05, −0.05), b̄ = (0.15, −0.15): w_2 = −ā/2, v_2 = −b̄/2.
    let want = [-0.025, 0.025, -0.075, 0.075];
    for (a, b) in out.z().iter().zip(want) {
        assert!((a - b).abs() < 1e-15, "{:?}", out.z());
    }
}

/// Noise is drawn per block and per step from labelled streams, replays from the tape, and the
/// calibrated run carries Thm 1's joint ledger.
#[test]
fn calibrated_run_replays_and_carries_its_ledger() {
    let f = instance(2, 1.0, 1.0, Matrix::identity(2)).unwrap();
    let alg = DpGda::calibrated(
        5,
        1.0,
        4.0 * 2f64.sqrt(),
        2.0,
        2,
        1.0,
        1e-5,
        Averaging::PaperLiteral,
    )
    .unwrap();
    let mut rec = NoiseSource::recording(3);
    let out = alg.run(&f, &data(), &mut rec).unwrap();
    let tape = rec.into_tape().unwrap();
    let json = tape.to_json();
    assert!(json.contains("dp_gda/noise_w/step=1") && json.contains("dp_gda/noise_v/step=5"));
    assert_eq!(
        alg.run(&f, &data(), &mut NoiseSource::replay(tape))
            .unwrap(),
        out
    );
    let ledger = serde_json::to_string(&out.ledger.unwrap()).unwrap();
    assert!(
        ledger.contains("self_composed") && ledger.contains("\"count\":5"),
        "{ledger}"
    );
}

#[test]
fn bad_inputs_are_errors() {
    let f = instance(2, 1.0, 1.0, Matrix::zeros(2, 2)).unwrap();
    let alg = DpGda {
        steps: 0,
        rho: 1.0,
        sigma: 0.0,
        averaging: Averaging::PaperLiteral,
        ledger: None,
    };
    let e = alg
        .run(&f, &data(), &mut NoiseSource::sample(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("steps"), "{e}");
    let alg = DpGda {
        steps: 3,
        rho: -1.0,
        ..alg
    };
    let e = alg
        .run(&f, &data(), &mut NoiseSource::sample(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("rho"), "{e}");
    // A domain without 0: Algorithm 1's start w_1 = 0 is impossible.
    let shifted = QuadBilinear::lin_box(0.0).unwrap();
    let far = dpsaddle::problem::QuadBilinear::data_affine(
        dpsaddle::geometry::Domain::Box {
            lo: vec![1.0],
            hi: vec![2.0],
        },
        dpsaddle::geometry::Domain::Box {
            lo: vec![-1.0],
            hi: vec![1.0],
        },
        Matrix::zeros(1, 1),
        1.0,
        1.0,
    )
    .unwrap();
    let alg = DpGda {
        steps: 3,
        rho: 1.0,
        ..alg
    };
    let s = Dataset::new(vec![vec![0.6, 0.8]]).unwrap();
    assert!(alg.run(&shifted, &s, &mut NoiseSource::sample(0)).is_ok());
    let e = alg
        .run(&far, &s, &mut NoiseSource::sample(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("0 must lie in W"), "{e}");
}

#[test]
fn def2_remark1() {
    common::run("kllw22.def2_remark1");
}

#[test]
fn thm2() {
    common::run("kllw22.thm2");
}

#[test]
fn thm1_per_block() {
    common::run("kllw22.thm1_per_block");
}

#[test]
fn remarks3_4() {
    common::run("kllw22.remarks3_4");
}

#[test]
fn thm3() {
    common::run("kllw22.thm3");
}

#[test]
fn cor1() {
    common::run("kllw22.cor1");
}

#[test]
fn thm3_steps() {
    common::run("kllw22.thm3_steps");
}

#[test]
fn lemma2_remark3_hp() {
    common::run("kllw22.lemma2_remark3_hp");
}

mod generalization {
    use dpsaddle::algorithms::dp_gda::{Averaging, DpGda};
    use dpsaddle::algorithms::Algorithm;
    use dpsaddle::claims::kllw22::generalization::{Enumerated, GenBound, LossSpec};
    use dpsaddle::linalg::{self, Matrix};
    use dpsaddle::problem::{FiniteDist, SaddleFn};
    use dpsaddle::rng::{NoiseSource, Stream};

    fn setting() -> (LossSpec, FiniteDist, DpGda) {
        let loss = LossSpec {
            d: 2,
            radius: 1.0,
            rho: 0.8,
            c: Matrix::from_rows(vec![vec![1.2, -0.3], vec![0.4, 0.9]]).unwrap(),
        };
        let dist = FiniteDist::new(
            vec![
                vec![0.8, -0.2, 0.3, 0.5],
                vec![-0.6, 0.4, -0.5, 0.1],
                vec![0.1, 0.7, 0.6, -0.7],
            ],
            vec![0.5, 0.3, 0.2],
        )
        .unwrap();
        let alg = DpGda {
            steps: 15,
            rho: 0.8,
            sigma: 0.2,
            averaging: Averaging::PaperLiteral,
            ledger: None,
        };
        (loss, dist, alg)
    }

    /// γ from count vectors equals γ from every ordered dataset and every replace-one neighbour
    /// (kⁿ sequences × n positions × k atoms), so the count-vector shortcut loses nothing.
    #[test]
    fn gamma_matches_brute_force_over_sequences() {
        let (loss, dist, alg) = setting();
        let n = 4;
        let e = Enumerated::new(&loss, dist.clone(), n, &alg, 17).unwrap();
        let f = dpsaddle::claims::kllw22::stability::instance(2, 1.0, 0.8, loss.c.clone()).unwrap();
        let k = dist.k();
        let mut brute: f64 = 0.0;
        let total = k.pow(n as u32);
        for code in 0..total {
            let seq: Vec<usize> = (0..n).map(|i| (code / k.pow(i as u32)) % k).collect();
            let s = dist.dataset_from_sequence(&seq).unwrap();
            let a = alg.run(&f, &s, &mut NoiseSource::sample(17)).unwrap();
            for (i, &si) in seq.iter().enumerate() {
                for atom in 0..k {
                    if atom == si {
                        continue;
                    }
                    let s2 = s.replace_one(i, &dist.atoms[atom]).unwrap();
                    let b = alg.run(&f, &s2, &mut NoiseSource::sample(17)).unwrap();
                    let gs = linalg::norm2(&linalg::sub(&a.w, &b.w))
                        + linalg::norm2(&linalg::sub(&a.theta, &b.theta));
                    brute = brute.max(gs);
                }
            }
        }
        assert!(brute > 0.0);
        assert!(
            (brute - e.gamma).abs() <= 1e-12 * brute,
            "brute {brute} vs enumerated {}",
            e.gamma
        );
    }

    /// The shift makes Assumption 4 hold: 0 ≤ ℓ + m ≤ M_ℓ on random points of W × V, every atom.
    #[test]
    fn shifted_loss_is_in_range() {
        let (loss, dist, alg) = setting();
        let e = Enumerated::new(&loss, dist.clone(), 3, &alg, 17).unwrap();
        let mut st = Stream::new(3, "tests/kllw22/shift");
        let ball = |st: &mut Stream| {
            let x = [st.normal(), st.normal()];
            let r = st.uniform().sqrt() / linalg::norm2(&x);
            vec![x[0] * r, x[1] * r]
        };
        for _ in 0..2000 {
            let (w, v) = (ball(&mut st), ball(&mut st));
            for x in &dist.atoms {
                let l = e.f.value(&w, &v, x) + e.shift;
                assert!(l >= 0.0 && l <= e.m_loss, "ℓ̃ = {l}, M_ℓ = {}", e.m_loss);
            }
        }
    }

    #[test]
    fn bad_quantifiers_name_the_parameter() {
        let b = GenBound {
            g: 1.0,
            gamma: 0.1,
            n: 10,
            m_loss: 1.0,
            rho: 1.0,
            smooth_l: 1.0,
            iota: 1.0,
            zeta: 0.1,
        };
        let msg = b.validate().unwrap_err().to_string();
        assert!(msg.contains("iota"), "{msg}");
        let msg = GenBound {
            iota: 0.5,
            zeta: 0.0,
            ..b
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(msg.contains("zeta"), "{msg}");
        let msg = GenBound {
            iota: 0.5,
            n: 1,
            ..b
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(msg.contains('n'), "{msg}");
    }
}
