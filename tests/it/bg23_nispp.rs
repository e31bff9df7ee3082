//! Integration tests of BG23 §5–§6: NISPP (Algorithm 2), its inner solvers, ledger, policies
//! and the `dpsaddle run nispp` configs.

use dpsaddle::algorithms::nispp::{InnerSolver, Nispp};
use dpsaddle::algorithms::vi::{ViAlgorithm, ViDiagnostics};
use dpsaddle::geometry::Domain;
use dpsaddle::papers::bg23::nispp::{
    lemma3_prime_step, lemma3_step, nispp_schedule, policy, prop9_sensitivity, prop9_sharp,
    release_sensitivity, thm6_bound, NisppItem,
};
use dpsaddle::papers::bg23::{calibration, oe};
use dpsaddle::papers::Reading;
use dpsaddle::privacy::DpEvent;
use dpsaddle::problem::monotone::{ConstantOp, DataAffineOp};
use dpsaddle::problem::{Dataset, MonotoneOp};
use dpsaddle::rng::NoiseSource;
use dpsaddle::sampling::BatchRule;

fn rot() -> (DataAffineOp, Dataset) {
    let atoms = vec![
        DataAffineOp::rot_iso_atom(0.0, 1.0, &[0.3, -0.2]),
        DataAffineOp::rot_iso_atom(0.2, -0.5, &[-0.4, 0.1]),
    ];
    let op = DataAffineOp::rot_iso_ball(vec![0.0, 0.0], 1.0, &atoms).unwrap();
    let pts = (0..12).map(|i| atoms[i % 2].clone()).collect();
    (op, Dataset::new(pts).unwrap())
}

fn field_of(e: dpsaddle::Error) -> String {
    format!("{e}")
}

#[test]
fn constructors_reject_bad_parameters_naming_the_field() {
    let b = BatchRule::Full;
    for (res, field) in [
        (
            Nispp::new(0, 1.0, 0.0, 0.0, b, InnerSolver::Exact, vec![0.0]),
            "iterations",
        ),
        (
            Nispp::new(2, 0.0, 0.0, 0.0, b, InnerSolver::Exact, vec![0.0]),
            "lambda",
        ),
        (
            Nispp::new(2, 1.0, -1.0, 0.0, b, InnerSolver::Exact, vec![0.0]),
            "nu",
        ),
        (
            Nispp::new(2, 1.0, 0.0, -0.1, b, InnerSolver::Exact, vec![0.0]),
            "sigma",
        ),
        (
            Nispp::new(2, 1.0, 0.0, 0.0, b, InnerSolver::OeRemark3, vec![0.0]),
            "nu",
        ),
        (
            Nispp::new(2, 1.0, 0.0, 0.0, b, InnerSolver::OeIterations(0), vec![0.0]),
            "inner",
        ),
        (
            Nispp::new(2, 1.0, 0.0, 0.0, b, InnerSolver::Exact, vec![f64::NAN]),
            "start",
        ),
    ] {
        let msg = field_of(res.unwrap_err());
        assert!(msg.contains(field), "{msg} should name {field}");
    }
    // A single pass cannot have more batches than the data allow.
    let op = ConstantOp::new(Domain::new_box(vec![-1.0], vec![1.0]).unwrap(), 1.0).unwrap();
    let s = Dataset::new(vec![vec![0.5]; 4]).unwrap();
    let a = Nispp::new(
        5,
        1.0,
        0.0,
        0.0,
        BatchRule::Disjoint { size: 1 },
        InnerSolver::Exact,
        vec![0.0],
    )
    .unwrap();
    assert!(
        field_of(a.run(&op, &s, &mut NoiseSource::sample(0)).unwrap_err()).contains("disjoint")
    );
    let a = Nispp::new(
        2,
        1.0,
        0.0,
        0.0,
        BatchRule::Full,
        InnerSolver::Exact,
        vec![0.0],
    )
    .unwrap();
    let err = a
        .run_with_batches(&op, &s, &mut NoiseSource::sample(0), &[vec![0, 1, 2, 3]])
        .unwrap_err();
    assert!(field_of(err).contains("batches"));
}

#[test]
fn runs_are_deterministic_and_counted() {
    let (op, s) = rot();
    for inner in [
        InnerSolver::Exact,
        InnerSolver::OeIterations(5),
        InnerSolver::OeCertificate {
            max_iterations: 10_000,
        },
        InnerSolver::OeRemark3,
        InnerSolver::Adversarial,
    ] {
        let a = Nispp::new(
            4,
            2.0,
            1e-4,
            0.2,
            BatchRule::WithReplacement { m: 3 },
            inner,
            vec![0.1, 0.0],
        )
        .unwrap();
        let x = a.run(&op, &s, &mut NoiseSource::sample(7)).unwrap();
        let y = a.run(&op, &s, &mut NoiseSource::sample(7)).unwrap();
        assert_eq!(x, y, "{inner:?}");
        assert_eq!(x.evals, x.evals_per_point.iter().sum::<u64>());
        assert!(op.domain().contains(&x.z, 1e-12));
        let ViDiagnostics::Nispp(d) = &x.info else {
            panic!("not a NISPP run")
        };
        if inner == InnerSolver::OeIterations(5) {
            assert_eq!(x.evals, 4 * 5 * 3);
        }
        if matches!(
            inner,
            InnerSolver::OeCertificate { .. } | InnerSolver::Adversarial
        ) {
            assert!(d.nu_met, "{inner:?}: ν_cert {} > ν", d.max_nu_certificate);
        }
        assert_eq!(d.certificate_evals, 4 * 3);
    }
}

#[test]
fn the_ledger_has_the_shape_of_the_calibrations() {
    let (op, s) = rot();
    let m = op.constants(&s.points.to_vecs()).unwrap().bound;
    let a = Nispp::new(
        3,
        2.0,
        0.0,
        0.5,
        BatchRule::Disjoint { size: 4 },
        InnerSolver::Exact,
        vec![0.0, 0.0],
    )
    .unwrap();
    let out = a.run(&op, &s, &mut NoiseSource::sample(1)).unwrap();
    let cal = calibration::prop10(m, 2.0, 4, 3, 1.0, 1e-5, Reading::Corrected).unwrap();
    let want = DpEvent::ParallelComposed(vec![
        DpEvent::Gaussian {
            noise_multiplier: 0.5 / prop9_sensitivity(m, 2.0, 4)
        };
        3
    ]);
    assert_eq!(out.ledger.unwrap().event, want);
    assert!(matches!(
        cal.calibration.ledger.event,
        DpEvent::ParallelComposed(_)
    ));
    // ν above Prop 9's condition: priced at the sharp form.
    let nu = 1.0;
    assert_eq!(
        release_sensitivity(m, 2.0, 4, nu),
        prop9_sharp(m, 2.0, 4, nu)
    );
    assert!(prop9_sharp(m, 2.0, 4, nu) > prop9_sensitivity(m, 2.0, 4));
    let a = Nispp::new(
        3,
        2.0,
        0.0,
        0.5,
        BatchRule::WithReplacement { m: 2 },
        InnerSolver::Exact,
        vec![0.0, 0.0],
    )
    .unwrap();
    let out = a.run(&op, &s, &mut NoiseSource::sample(1)).unwrap();
    assert!(matches!(
        out.ledger.unwrap().event,
        DpEvent::SelfComposed { count: 3, .. }
    ));
}

#[test]
fn schedules_have_one_home() {
    for n in [8u64, 1000, 12_345] {
        let s = nispp_schedule(
            NisppItem::Cor2,
            1.0,
            2.0,
            0.5,
            n,
            3,
            0.7,
            1e-5,
            Reading::Corrected,
        )
        .unwrap();
        let c = calibration::cor2(1.0, 2.0, 0.5, n, 3, 0.7, 1e-5, Reading::Corrected).unwrap();
        assert_eq!(
            c.calibration.sensitivity,
            prop9_sensitivity(1.0, s.lambda0, s.batch)
        );
        let p = policy(
            NisppItem::Cor2,
            1.0,
            2.0,
            0.5,
            n,
            3,
            0.7,
            1e-5,
            Reading::Corrected,
        )
        .unwrap();
        assert_eq!(p.sigma, c.calibration.sigma);
        assert_eq!(p.schedule, s);
        assert!(s.iterations * s.batch <= n);
        let t = nispp_schedule(
            NisppItem::Thm7,
            1.0,
            2.0,
            0.5,
            n,
            3,
            0.7,
            1e-5,
            Reading::Corrected,
        )
        .unwrap();
        assert_eq!(t.iterations, n + 1);
        let c7 = calibration::thm7(1.0, 2.0, 0.5, n, 3, 0.7, 1e-5).unwrap();
        assert_eq!(
            c7.calibration.sensitivity,
            prop9_sensitivity(1.0, t.lambda0, t.batch)
        );
    }
    // Remark 3 (2): the literal K = n needs n + 1 one-point batches (E-BG23-47).
    let op = ConstantOp::new(Domain::new_box(vec![-1.0], vec![1.0]).unwrap(), 1.0).unwrap();
    let s = Dataset::new(vec![vec![0.5]; 9]).unwrap();
    for (reading, ok) in [(Reading::PaperLiteral, false), (Reading::Corrected, true)] {
        let sch = nispp_schedule(
            NisppItem::Remark3Nondp,
            0.5,
            2.0,
            0.0,
            9,
            1,
            1.0,
            1e-5,
            reading,
        )
        .unwrap();
        let a = Nispp::new(
            sch.iterations as usize,
            sch.lambda0,
            sch.nu,
            0.0,
            BatchRule::Disjoint { size: 1 },
            InnerSolver::Exact,
            vec![0.0],
        )
        .unwrap();
        assert_eq!(
            a.run(&op, &s, &mut NoiseSource::sample(0)).is_ok(),
            ok,
            "{reading:?}"
        );
    }
}

#[test]
fn stability_formulas_agree_at_their_tight_points() {
    // Lemma 3′ at ν = 0 is δ + a/λ; Lemma 3 adds twice that increment.
    assert_eq!(lemma3_prime_step(1.0, 2.0, 4.0, 0.0), 1.5);
    assert_eq!(lemma3_step(1.0, 2.0, 4.0, 0.0), 2.0);
    // Thm 6 on n = 3, λ = 1, ν = 0: printed 2K/3, corrected 2(K + 1)/3.
    let l = [1.0, 1.0];
    assert!((thm6_bound(1.0, 3, &l, 0.0, Reading::PaperLiteral) - 2.0 / 3.0).abs() < 1e-15);
    assert!((thm6_bound(1.0, 3, &l, 0.0, Reading::Corrected) - 4.0 / 3.0).abs() < 1e-15);
    assert_eq!(thm6_bound(1.0, 3, &[1.0], 0.0, Reading::PaperLiteral), 0.0);
    // App. B's corrected count for κ = 2, D/ζ = 100: ⌈(2 ln 100 + ln(4/3))/ln 2⌉ = 14.
    assert_eq!(oe::oe_corrected_count(2.0, 100.0, 1.0).unwrap(), 14);
}

#[test]
fn run_nispp_configs() {
    for f in [
        "fixtures/configs/vi_nispp.json",
        "fixtures/configs/vi_nispp_thm7.json",
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_dpsaddle"))
            .args(["run", "nispp", "--config", f, "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{f}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["algorithm"], "nispp");
        assert!(v["ledger"].is_object(), "{f}: a private run has a ledger");
        assert!(v["info"]["nu_met"].as_bool().unwrap(), "{f}");
    }
}
