//! The first-order VI engine (issue 14 items 5, 8): extragradient and operator extrapolation,
//! the `ViAlgorithm` interface and its saddle adapter, ledgers, validation, the certificate stop.
//! The exact rational traces, counts and coupling are registry claims (`core.eg_*`, `core.oe_*`).

use dpsaddle::algorithms::extragradient::{Averaging, Extragradient};
use dpsaddle::algorithms::operator_extrapolation::{OeStop, OperatorExtrapolation};
use dpsaddle::algorithms::vi::{SaddleAdapter, StepSchedule, ViAlgorithm, ViDiagnostics};
use dpsaddle::algorithms::Algorithm;
use dpsaddle::claims::core_vi_engine::{hand_points, rotation_box};
use dpsaddle::error::Error;
use dpsaddle::geometry::Domain;
use dpsaddle::linalg::Matrix;
use dpsaddle::privacy::DpEvent;
use dpsaddle::problem::monotone::{stampacchia_gap, SaddleOperator};
use dpsaddle::problem::{AffineOp, Dataset, Mixture, MonotoneOp};
use dpsaddle::rng::{DrawValues, NoiseSource};
use dpsaddle::sampling::BatchRule;

fn field<T: std::fmt::Debug>(r: dpsaddle::Result<T>) -> String {
    match r {
        Err(Error::Invalid { field, .. }) => field,
        other => panic!("expected an invalid-parameter error, got {other:?}"),
    }
}

fn eg(steps: usize, batch: BatchRule, sigma: f64, avg: Averaging) -> Extragradient {
    Extragradient::new(
        steps,
        StepSchedule::Constant(0.25),
        vec![0.0, 0.0],
        batch,
        sigma,
        avg,
    )
    .unwrap()
}

/// An operator family with no closed-form constants (the trait's default `Unsupported`).
struct NoConstants(AffineOp);

impl MonotoneOp for NoConstants {
    fn dim(&self) -> usize {
        self.0.dim()
    }
    fn domain(&self) -> &Domain {
        self.0.domain()
    }
    fn point_dim(&self) -> usize {
        self.0.point_dim()
    }
    fn eval(&self, z: &[f64], x: &[f64]) -> Vec<f64> {
        self.0.eval(z, x)
    }
    fn vi_gap(&self, data: &Mixture, z: &[f64]) -> dpsaddle::Result<f64> {
        self.0.vi_gap(data, z)
    }
}

#[test]
fn parameters_are_validated_naming_the_field() {
    let (op, _) = rotation_box();
    let s = Dataset::new(hand_points()).unwrap();
    let z = || vec![0.0, 0.0];
    let c = StepSchedule::Constant(0.1);
    assert_eq!(
        field(Extragradient::new(
            0,
            c.clone(),
            z(),
            BatchRule::Full,
            0.0,
            Averaging::Base
        )),
        "steps"
    );
    assert_eq!(
        field(Extragradient::new(
            2,
            StepSchedule::List(vec![0.1]),
            z(),
            BatchRule::Full,
            0.0,
            Averaging::Base
        )),
        "schedule"
    );
    assert_eq!(
        field(Extragradient::new(
            2,
            StepSchedule::List(vec![0.1, -1.0]),
            z(),
            BatchRule::Full,
            0.0,
            Averaging::Base
        )),
        "schedule[1]"
    );
    assert_eq!(
        field(Extragradient::new(
            1,
            c.clone(),
            z(),
            BatchRule::Full,
            -1.0,
            Averaging::Base
        )),
        "sigma"
    );
    let far = Extragradient::new(
        1,
        c.clone(),
        vec![3.0, 0.0],
        BatchRule::Full,
        0.0,
        Averaging::Base,
    )
    .unwrap();
    assert_eq!(
        field(far.run(&op, &s, &mut NoiseSource::sample(0))),
        "start"
    );
    // Single pass: 2T·B = 6 > n = 4.
    let a = eg(3, BatchRule::Disjoint { size: 1 }, 0.0, Averaging::Base);
    assert_eq!(
        field(a.run(&op, &s, &mut NoiseSource::sample(0))),
        "batch.disjoint.size"
    );
    // Runaway work: 2T·B = 2·2³³·4 = 2³⁶ per-sample evaluations exceeds the cap 2³⁴, rejected
    // before any step; 2T·B = 2³⁴ exactly is accepted by the check (its run is not started).
    let huge = eg(1 << 33, BatchRule::Full, 0.0, Averaging::Base);
    let err = huge.run(&op, &s, &mut NoiseSource::sample(0)).unwrap_err();
    assert!(
        matches!(&err, Error::Invalid { field, .. } if field == "steps")
            && err
                .to_string()
                .contains("2T·B = 68719476736 evaluations exceeds 17179869184"),
        "{err}"
    );
    assert!(eg(1 << 31, BatchRule::Full, 0.0, Averaging::Base)
        .validate(&op, s.len())
        .is_ok());
    // Operator extrapolation: T·B = 2³³·4 = 2³⁵.
    let oe = OperatorExtrapolation::new(
        0.25,
        1.0,
        OeStop::Iterations(1 << 33),
        vec![0.0, 0.0],
        BatchRule::Full,
        0.0,
    )
    .unwrap();
    assert_eq!(field(oe.run(&op, &s, &mut NoiseSource::sample(0))), "stop");
    // σ > 0 on a family without closed-form constants needs M.
    let a = eg(1, BatchRule::Full, 0.5, Averaging::Base);
    assert_eq!(
        field(a.run(&NoConstants(op.clone()), &s, &mut NoiseSource::sample(0))),
        "operator_bound"
    );
    // With them, M is the family's bound over the data.
    let out = a.run(&op, &s, &mut NoiseSource::sample(0)).unwrap();
    let ViDiagnostics::Extragradient(d) = &out.info else {
        panic!("extragradient diagnostics")
    };
    let m = op.constants(&hand_points()).unwrap().bound;
    assert_eq!(d.operator_bound, Some(m));
    assert_eq!(
        field(OperatorExtrapolation::new(
            0.1,
            1.0,
            OeStop::Certificate {
                nu: 1e-6,
                max_iterations: 10
            },
            z(),
            BatchRule::Full,
            0.5
        )),
        "sigma"
    );
    assert_eq!(
        field(OperatorExtrapolation::new(
            0.1,
            0.0,
            OeStop::Iterations(1),
            z(),
            BatchRule::Full,
            0.0
        )),
        "kappa"
    );
    assert_eq!(
        field(OperatorExtrapolation::new(
            0.1,
            1.0,
            OeStop::Iterations(0),
            z(),
            BatchRule::Full,
            0.0
        )),
        "stop.iterations"
    );
}

#[test]
fn ledgers_are_two_t_gaussian_mechanisms_of_the_batch_sensitivity() {
    let (op, _) = rotation_box();
    let s = Dataset::new(hand_points()).unwrap();
    let m_bound = 4.0;
    let a = eg(
        3,
        BatchRule::WithReplacement { m: 2 },
        0.8,
        Averaging::Extrapolated,
    )
    .with_operator_bound(m_bound)
    .unwrap();
    let out = a.run(&op, &s, &mut NoiseSource::sample(1)).unwrap();
    let ledger = out.ledger.expect("σ > 0 has a ledger");
    // Sensitivity of a mean of 2 under replace-one: 2M/2 = M = 4; multiplier 0.8/4.
    let want = DpEvent::SelfComposed {
        count: 6,
        event: Box::new(DpEvent::SampledWithReplacement {
            n: 4,
            m: 2,
            event: Box::new(DpEvent::Gaussian {
                noise_multiplier: 0.8 / 4.0,
            }),
        }),
    };
    assert_eq!(ledger.event, want);
    let a = eg(2, BatchRule::Disjoint { size: 1 }, 0.8, Averaging::Base)
        .with_operator_bound(m_bound)
        .unwrap();
    let out = a.run(&op, &s, &mut NoiseSource::sample(1)).unwrap();
    let g = DpEvent::Gaussian {
        noise_multiplier: 0.8 / 8.0,
    };
    assert_eq!(
        out.ledger.unwrap().event,
        DpEvent::ParallelComposed(vec![g; 4])
    );
    let a = eg(2, BatchRule::Full, 0.0, Averaging::Base);
    assert!(a
        .run(&op, &s, &mut NoiseSource::sample(1))
        .unwrap()
        .ledger
        .is_none());
    // OE: T evaluations.
    let oe = OperatorExtrapolation::new(
        0.2,
        1.0,
        OeStop::Iterations(5),
        vec![0.0, 0.0],
        BatchRule::Full,
        0.3,
    )
    .unwrap()
    .with_operator_bound(2.0)
    .unwrap();
    let out = oe.run(&op, &s, &mut NoiseSource::sample(2)).unwrap();
    assert_eq!(
        out.ledger.unwrap().event,
        DpEvent::SelfComposed {
            count: 5,
            event: Box::new(DpEvent::Gaussian {
                noise_multiplier: 0.3 / (2.0 * 2.0 / 4.0)
            })
        }
    );
}

#[test]
fn random_iterate_is_the_drawn_base_point() {
    let (op, _) = rotation_box();
    let s = Dataset::new(hand_points()).unwrap();
    let a = eg(
        7,
        BatchRule::WithReplacement { m: 2 },
        0.0,
        Averaging::RandomIterate,
    );
    let mut noise = NoiseSource::recording(9);
    let run = a.run_traced(&op, &s, &mut noise).unwrap();
    let tape = noise.into_tape().unwrap();
    assert_eq!(tape.draws[0].label, "eg/output");
    let DrawValues::Index { n, values } = &tape.draws[0].values else {
        panic!("an index draw")
    };
    assert_eq!(*n, 7);
    let t_star = values[0] as usize + 1;
    let ViDiagnostics::Extragradient(d) = &run.output.info else {
        panic!("extragradient diagnostics")
    };
    assert_eq!(d.random_iterate, Some(t_star));
    assert_eq!(run.output.z, run.trace.base[t_star]);
    // The untraced run gives the same bits.
    let plain = a.run(&op, &s, &mut NoiseSource::sample(9)).unwrap();
    assert_eq!(plain, run.output);
}

#[test]
fn certificate_stop_reaches_nu_on_a_strongly_monotone_operator() {
    // G(z; x) = (I + J)z + x on the ball of radius 2: 1-strongly monotone, L = √2.
    let m = Matrix::from_rows(vec![vec![1.0, -1.0], vec![1.0, 1.0]]).unwrap();
    let op = AffineOp::new(m, Domain::ball(vec![0.0, 0.0], 2.0).unwrap()).unwrap();
    let s = Dataset::new(vec![vec![0.5, -0.25], vec![-0.1, 0.3], vec![0.2, 0.2]]).unwrap();
    let nu = 1e-10;
    // BG23 App. B with L = √2, λ = 1 (the modulus): γ = 1/(2(L + λ)), κ = λ/(L + λ) + 1.
    let l = 2f64.sqrt();
    let oe = OperatorExtrapolation::new(
        1.0 / (2.0 * (l + 1.0)),
        1.0 / (l + 1.0) + 1.0,
        OeStop::Certificate {
            nu,
            max_iterations: 500,
        },
        vec![1.0, 1.0],
        BatchRule::Full,
        0.0,
    )
    .unwrap();
    let out = oe.run(&op, &s, &mut NoiseSource::sample(0)).unwrap();
    let ViDiagnostics::OperatorExtrapolation(d) = &out.info else {
        panic!("OE diagnostics")
    };
    assert!(d.certified, "{d:?}");
    let cert = stampacchia_gap(&op, &Mixture::empirical(&s), &out.z);
    assert!(cert <= nu, "{cert}");
    assert!((d.certificate.unwrap() - cert).abs() <= 1e-15);
    assert_eq!(d.certificate_evals, 3 * d.iterations as u64);
    assert_eq!(out.evals, 3 * d.iterations as u64);
    assert!(d.iterations > 1 && d.iterations < 500);
}

#[test]
fn saddle_adapter_runs_the_vi_engine_on_the_saddle_operator() {
    let inst = dpsaddle::instances::lin_box(0.5);
    let f = inst.f.as_ref();
    let s = Dataset::new(inst.dist.atoms.clone()).unwrap();
    let start = dpsaddle::linalg::concat(&f.domain_w().center(), &f.domain_theta().center());
    let a = Extragradient::new(
        4,
        StepSchedule::Constant(0.1),
        start,
        BatchRule::WithReplacement { m: 2 },
        0.0,
        Averaging::Extrapolated,
    )
    .unwrap();
    let out = SaddleAdapter { alg: a.clone() }
        .run(f, &s, &mut NoiseSource::sample(3))
        .unwrap();
    let direct = a
        .run(&SaddleOperator::new(f), &s, &mut NoiseSource::sample(3))
        .unwrap();
    assert_eq!(
        dpsaddle::linalg::concat(&out.w, &out.theta),
        direct.z,
        "the adapter splits the VI output"
    );
    assert_eq!(out.grad_evals, 2 * 4 * 2);
    assert!(f.domain_w().contains(&out.w, 1e-12) && f.domain_theta().contains(&out.theta, 1e-12));
}

#[test]
fn ogda_is_operator_extrapolation_with_kappa_one() {
    // κ = 1: z_{t+1} = Π(z_t − γ(2g_t − g_{t−1})), checked against a direct loop.
    let (op, _) = rotation_box();
    let s = Dataset::new(hand_points()).unwrap();
    let oe = OperatorExtrapolation::new(
        0.3,
        1.0,
        OeStop::Iterations(6),
        vec![0.5, -0.5],
        BatchRule::Full,
        0.0,
    )
    .unwrap();
    let out = oe.run(&op, &s, &mut NoiseSource::sample(0)).unwrap();
    let xbar = Mixture::empirical(&s);
    let g = |z: &[f64]| dpsaddle::problem::monotone::mean_operator(&op, &xbar, z);
    let mut z = vec![0.5, -0.5];
    let mut prev = g(&z);
    for _ in 0..6 {
        let gt = g(&z);
        let step: Vec<f64> = z
            .iter()
            .zip(gt.iter().zip(&prev))
            .map(|(zk, (a, b))| zk - 0.3 * (a + (a - b)))
            .collect();
        z = op.domain.project(&step);
        prev = gt;
    }
    for (a, b) in out.z.iter().zip(&z) {
        assert!((a - b).abs() <= 1e-14, "{a} vs {b}");
    }
}

#[test]
fn example_vi_configs_run() {
    for (alg, file) in [
        ("extragradient", "vi_extragradient.json"),
        ("operator_extrapolation", "vi_operator_extrapolation.json"),
        ("extragradient", "vi_extragradient_saddle.json"),
    ] {
        let path = format!("fixtures/configs/{file}");
        let text = std::fs::read_to_string(&path).unwrap();
        let cfg = dpsaddle::config::parse_vi(&text, &path).unwrap();
        let v = dpsaddle::config::run_vi_with(alg, &cfg, None, false).unwrap();
        let n = v["n"].as_u64().unwrap();
        let per: u64 = v["evals_per_point"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(per, v["evals"].as_u64().unwrap(), "{file}");
        assert_eq!(v["evals_per_point"].as_array().unwrap().len() as u64, n);
        assert!(v["nu_certificate"].as_f64().unwrap() >= -1e-12, "{file}");
    }
    // The noisy EG config has its ledger: 2T = 800 subsampled Gaussians.
    let path = "fixtures/configs/vi_extragradient.json";
    let cfg = dpsaddle::config::parse_vi(&std::fs::read_to_string(path).unwrap(), path).unwrap();
    let v = dpsaddle::config::run_vi_with("extragradient", &cfg, None, false).unwrap();
    assert_eq!(v["ledger"]["event"]["self_composed"]["count"], 800);
    assert_eq!(v["info"]["operator_bound"], 2.1143);
    // Without `operator_bound`, M is the affine family's closed-form bound over the data.
    let mut cfg2 = cfg.clone();
    cfg2.params
        .as_object_mut()
        .unwrap()
        .remove("operator_bound");
    let v2 = dpsaddle::config::run_vi_with("extragradient", &cfg2, None, false).unwrap();
    let m = v2["info"]["operator_bound"].as_f64().unwrap();
    assert!(m > 0.0 && m != 2.1143, "{m}");
    assert_eq!(v2["z"], v["z"], "M enters the ledger only");
    // A certificate-stopped OE config certifies.
    let path = "fixtures/configs/vi_operator_extrapolation.json";
    let cfg = dpsaddle::config::parse_vi(&std::fs::read_to_string(path).unwrap(), path).unwrap();
    let v = dpsaddle::config::run_vi_with("operator_extrapolation", &cfg, None, false).unwrap();
    assert_eq!(v["info"]["certified"], true);
    assert!(v["nu_certificate"].as_f64().unwrap() <= 1e-10);
}
