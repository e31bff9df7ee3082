//! KLLW22: DP-GDA (Algorithm 1) and its stability claims.

use crate::common;

use dpsaddle::algorithms::dp_gda::{Averaging, DpGda};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::linalg::Matrix;
use dpsaddle::papers::kllw22::instances::instance;
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
    let alg = DpGda::new(1, 2.0, 0.0).unwrap();
    let out = alg.run(&f, &data(), &mut NoiseSource::sample(0)).unwrap();
    assert_eq!(out.z(), vec![0.0; 4]);
    let alg = alg.with_averaging(Averaging::Produced);
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
    // The constructor and the setters name the parameter and its range.
    let e = DpGda::new(0, 1.0, 0.0).unwrap_err().to_string();
    assert!(e.contains("steps") && e.contains("≥ 1"), "{e}");
    let e = DpGda::new(3, 0.0, 0.0).unwrap_err().to_string();
    assert!(e.contains("rho") && e.contains("> 0"), "{e}");
    let e = DpGda::new(3, 1.0, f64::NAN).unwrap_err().to_string();
    assert!(e.contains("sigma") && e.contains("≥ 0"), "{e}");
    let e = DpGda::new(3, 1.0, 0.0)
        .unwrap()
        .with_sigma(-1.0)
        .unwrap_err()
        .to_string();
    assert!(e.contains("sigma"), "{e}");
    let e = DpGda::calibrated(3, -1.0, 4.0, 1.0, 10, 1.0, 1e-5, Averaging::PaperLiteral)
        .unwrap_err()
        .to_string();
    assert!(e.contains("rho"), "{e}");
    // Fields set by hand are re-checked when the algorithm runs.
    let alg = DpGda {
        steps: 0,
        ..DpGda::new(3, 1.0, 0.0).unwrap()
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
    use dpsaddle::algorithms::dp_gda::DpGda;
    use dpsaddle::algorithms::Algorithm;
    use dpsaddle::claims::kllw22::generalization::{Enumerated, LossSpec};
    use dpsaddle::linalg::{self, Matrix};
    use dpsaddle::papers::kllw22::generalization::GenBound;
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
        let alg = DpGda::new(15, 0.8, 0.2).unwrap();
        (loss, dist, alg)
    }

    /// γ from count vectors equals γ from every ordered dataset and every replace-one neighbour
    /// (kⁿ sequences × n positions × k atoms), so the count-vector shortcut loses nothing.
    #[test]
    fn gamma_matches_brute_force_over_sequences() {
        let (loss, dist, alg) = setting();
        let n = 4;
        let e = Enumerated::new(&loss, dist.clone(), n, &alg, 17).unwrap();
        let f = dpsaddle::papers::kllw22::instances::instance(2, 1.0, 0.8, loss.c.clone()).unwrap();
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
    fn bad_settings_are_errors() {
        let (loss, dist, alg) = setting();
        let msg = Enumerated::new(&loss, dist.clone(), 1, &alg, 17)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(msg.contains("invalid n: must be ≥ 2"), "{msg}");
        let short = FiniteDist::new(vec![vec![0.1, 0.2], vec![0.3, 0.4]], vec![0.5, 0.5]).unwrap();
        let msg = Enumerated::new(&loss, short, 3, &alg, 17)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(msg.contains("dimension"), "{msg}");
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
        assert!(msg.contains("invalid iota:"), "{msg}");
        let msg = GenBound {
            iota: 0.5,
            zeta: 0.0,
            ..b
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(msg.contains("invalid zeta:"), "{msg}");
        let msg = GenBound {
            iota: 0.5,
            n: 1,
            ..b
        }
        .validate()
        .unwrap_err()
        .to_string();
        assert!(msg.contains("invalid n:"), "{msg}");
    }
}

/// Per-point gradient mode (KLLW22 Algorithm 1, ∇L_S = (1/n)Σ∇ℓ(·; z_i)): the same iterates as the
/// aggregated-mean evaluation up to rounding (≤ 1e-12 relative) on a data-affine instance with a
/// coupling, active constraints and noise, and n·T counted oracle evaluations.
#[test]
fn per_point_gradient_mode_agrees_and_counts_n_t() {
    use dpsaddle::algorithms::dp_gda::{DpGdaWithMode, GradientMode};
    use dpsaddle::rng::Stream;
    let mut st = Stream::new(5, "tests/kllw22/per_point");
    let d = 3;
    let c = Matrix::from_rows(
        (0..d)
            .map(|_| (0..d).map(|_| 0.4 * st.normal()).collect())
            .collect(),
    )
    .unwrap();
    let n = 37;
    let s = Dataset::new(
        (0..n)
            .map(|_| (0..2 * d).map(|_| st.normal()).collect())
            .collect(),
    )
    .unwrap();
    for (r, sigma, avg) in [
        (10.0, 0.0, Averaging::PaperLiteral),
        (0.3, 0.0, Averaging::Produced),
        (0.5, 0.7, Averaging::PaperLiteral),
    ] {
        let f = instance(d, r, 0.8, c.clone()).unwrap();
        let alg = DpGda::new(40, 0.8, sigma).unwrap().with_averaging(avg);
        let a = alg
            .run_traced_with(
                &f,
                &s,
                &mut NoiseSource::sample(3),
                GradientMode::AggregatedMean,
            )
            .unwrap();
        let b = alg
            .run_traced_with(&f, &s, &mut NoiseSource::sample(3), GradientMode::PerPoint)
            .unwrap();
        assert_eq!(a.output.grad_evals, 40);
        assert_eq!(b.output.grad_evals, (n * 40) as u64);
        let info = b.output.info.as_dp_gda().unwrap();
        assert_eq!(info.per_point_evaluations, (n * 40) as u64);
        assert_eq!(info.gradient_mode, GradientMode::PerPoint);
        let scale =
            a.w.iter()
                .chain(&a.v)
                .flatten()
                .fold(0.0f64, |m, x| m.max(x.abs()));
        for (x, y) in a.w.iter().chain(&a.v).zip(b.w.iter().chain(&b.v)) {
            for (p, q) in x.iter().zip(y) {
                assert!((p - q).abs() <= 1e-12 * scale, "r = {r}: {p} vs {q}");
            }
        }
        for (p, q) in a.output.z().iter().zip(b.output.z()) {
            assert!((p - q).abs() <= 1e-12 * scale.max(p.abs()));
        }
        // The wrapper runs the same thing as an Algorithm.
        let wrapped = DpGdaWithMode {
            alg: alg.clone(),
            gradient_mode: GradientMode::PerPoint,
        }
        .run(&f, &s, &mut NoiseSource::sample(3))
        .unwrap();
        assert_eq!(wrapped.z(), b.output.z());
    }
    // grad_each agrees with grad per point (bit for bit on this family).
    let f = instance(d, 1.0, 0.8, c).unwrap();
    let (w, v) = (vec![0.1, -0.2, 0.3], vec![-0.05, 0.2, 0.1]);
    let mut k = 0;
    dpsaddle::problem::SaddleFn::grad_each(&f, &w, &v, &s.points, &mut |i, gw, gt| {
        let (ew, et) = dpsaddle::problem::SaddleFn::grad(&f, &w, &v, &s.points[i]);
        assert_eq!((gw.to_vec(), gt.to_vec()), (ew, et));
        k += 1;
    });
    assert_eq!(k, n);
    // A dense A, B (no selector): the fallback path agrees with grad too.
    let dense = |st: &mut Stream| {
        Matrix::from_rows(
            (0..d)
                .map(|_| (0..2 * d).map(|_| st.normal()).collect())
                .collect(),
        )
        .unwrap()
    };
    let g = QuadBilinear::new(
        f.domain_w.clone(),
        f.domain_theta.clone(),
        dense(&mut st),
        dense(&mut st),
        f.coupling.clone(),
        0.5,
        0.25,
    )
    .unwrap();
    dpsaddle::problem::SaddleFn::grad_each(&g, &w, &v, &s.points, &mut |i, gw, gt| {
        let (ew, et) = dpsaddle::problem::SaddleFn::grad(&g, &w, &v, &s.points[i]);
        assert_eq!((gw.to_vec(), gt.to_vec()), (ew, et));
    });
    // A permuted coordinate selector (the indexed path).
    let pick = |cols: [usize; 3]| {
        Matrix::from_rows(
            cols.iter()
                .map(|&c| (0..2 * d).map(|j| if j == c { 1.0 } else { 0.0 }).collect())
                .collect(),
        )
        .unwrap()
    };
    let h = QuadBilinear::new(
        f.domain_w.clone(),
        f.domain_theta.clone(),
        pick([2, 0, 4]),
        pick([5, 1, 3]),
        f.coupling.clone(),
        0.5,
        0.25,
    )
    .unwrap();
    dpsaddle::problem::SaddleFn::grad_each(&h, &w, &v, &s.points, &mut |i, gw, gt| {
        let (ew, et) = dpsaddle::problem::SaddleFn::grad(&h, &w, &v, &s.points[i]);
        assert_eq!((gw.to_vec(), gt.to_vec()), (ew, et));
    });
}

/// The `kllw22/risks.json` fixtures restate the paper's relations on their own numbers:
/// Remark 1 (Δ^w ≤ E[Δ^s], Δ_S^w ≤ E[Δ_S^s]), excess primal risk ≤ E[Δ^s] (Definition 2),
/// eq. (3) for every neighbour, the tight ratio 1/(1 + ρr) of check_esp's instance, and
/// joint ≤ γ ≤ √2·joint for the coupled DP-GDA runs (Definition 3).
#[test]
fn risks_fixture_satisfies_remark1_and_eq3() {
    let files = dpsaddle::fixtures::kllw22_risks::files().unwrap();
    let (mut risks, mut stab, mut tight) = (0, 0, 0);
    for g in &files[0].1.test_groups {
        for t in g.tests.iter().filter(|t| t.result == "valid") {
            let e = &t.expected;
            let x = |k: &str| e[k].as_f64().unwrap();
            if g.kind == "Kllw22Risks" {
                risks += 1;
                assert!(x("weak_pop") <= x("strong_pop") + 1e-12, "tc {}", t.tc_id);
                assert!(x("weak_emp") <= x("strong_emp") + 1e-12, "tc {}", t.tc_id);
                assert!(x("excess_primal") <= x("strong_pop") + 1e-12);
                let total: f64 = e["datasets"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d["prob"].as_f64().unwrap())
                    .sum();
                assert!((total - 1.0).abs() < 1e-12);
            } else {
                stab += 1;
                assert!(x("max_block_sum") <= x("bound_block_sum") * (1.0 + 1e-12));
                assert!(x("max_joint") <= x("bound_joint") * (1.0 + 1e-12));
                if t.flags.iter().any(|f| f == "Tight") {
                    tight += 1;
                    let r = g.params["problem"]["domain_w"]["ball"]["radius"]
                        .as_f64()
                        .unwrap();
                    assert!((x("ratio") * (1.0 + x("rho") * r) - 1.0).abs() < 1e-12);
                }
                if let Some(runs) = e["dp_gda"]["neighbours"].as_array() {
                    for r in runs {
                        let (gm, j) = (r["gamma"].as_f64().unwrap(), r["joint"].as_f64().unwrap());
                        assert!(j <= gm * (1.0 + 1e-12) && gm <= 2f64.sqrt() * j * (1.0 + 1e-12));
                    }
                }
            }
        }
    }
    assert_eq!((risks, stab, tight), (5, 5, 1));
}
