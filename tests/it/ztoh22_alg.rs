//! Integration tests of ZTOH22 Algorithms 1–5 and their base solvers.

use dpsaddle::algorithms::base_solvers::{
    Adversary, BaseSolver, Certified, EngineExtragradient, EngineOgda, Guarantee, Svrg,
};
use dpsaddle::algorithms::phased_output_perturbation::ZtohOutputPerturbation;
use dpsaddle::papers::ztoh22::instances::{balanced, bilinear_ball, diagonal_ball, lipschitz_of_f};
use dpsaddle::rng::NoiseSource;

#[test]
fn alg1_every_solver_meets_its_requirement_and_noise_is_solver_independent() {
    let op = diagonal_ball(vec![1.0, 1.0], 0.5).unwrap();
    let s = balanced(200, &[1.0, 0.5], 1.0).unwrap();
    let l = lipschitz_of_f(&op, &s.points.to_vecs()).unwrap();
    let alg = ZtohOutputPerturbation::alg1(l, 1.0, 2, 0.9, 1e-4).unwrap();
    let solvers: Vec<Box<dyn BaseSolver>> = vec![
        Box::new(Certified),
        Box::new(EngineExtragradient::default()),
        Box::new(EngineOgda::default()),
        Box::new(Svrg::prox()),
        Box::new(Adversary {
            direction: vec![1.0, 0.0],
            failure: 0.0,
        }),
    ];
    let mut noises = Vec::new();
    for sv in &solvers {
        let r = alg
            .run(&op, &s, sv.as_ref(), &mut NoiseSource::sample(7))
            .unwrap();
        let ph = &r.phases[0];
        let exact = vec![0.0, 0.0];
        let dist = ph.requirement.distance(&ph.solver_point, &exact);
        assert!(dist <= ph.requirement.radius, "{}: {dist}", sv.name());
        assert!(r.evals > 0 || matches!(ph.guarantee, Guarantee::Adversarial { .. }));
        noises.push((r.ledger.clone(), ph.noise.clone()));
    }
    for w in noises.windows(2) {
        assert_eq!(w[0], w[1]);
    }
}

#[test]
fn alg4_runs_with_every_saddle_solver() {
    let op = bilinear_ball(0.5, 0.5).unwrap();
    let s = balanced(64, &[1.0, 0.3], 1.0).unwrap();
    let l = lipschitz_of_f(&op, &s.points.to_vecs()).unwrap();
    let alg = ZtohOutputPerturbation::alg45(l, 1.0, 1, 0.9, 1e-4, false).unwrap();
    let solvers: Vec<Box<dyn BaseSolver>> = vec![
        Box::new(Certified),
        Box::new(EngineExtragradient::default()),
        Box::new(EngineOgda::default()),
        Box::new(Svrg::forward()),
    ];
    for sv in &solvers {
        let r = alg
            .run(&op, &s, sv.as_ref(), &mut NoiseSource::sample(3))
            .unwrap();
        assert_eq!(r.phases.len(), 6);
        assert_eq!(r.release.len(), 1);
        assert_eq!(r.phases[5].range, (50, 60));
    }
}

#[test]
fn run_configs_of_algorithms_1_to_5_release_with_their_ledgers() {
    use dpsaddle::algorithms::ztoh22_run::{run_config, ZtohConfig, ZTOH22_ALGORITHMS};
    for (i, alg) in ZTOH22_ALGORITHMS.iter().enumerate() {
        let path = format!("fixtures/configs/ztoh22_alg{}.json", i + 1);
        let text = std::fs::read_to_string(&path).unwrap();
        let cfg = ZtohConfig::parse(&text).unwrap();
        let v = run_config(alg, &cfg, None, false).unwrap();
        let phases = v["phases"].as_array().unwrap();
        let n = v["n"].as_u64().unwrap();
        let want_phases = if i == 0 || i == 2 {
            1
        } else {
            63 - n.leading_zeros() as usize
        };
        assert_eq!(phases.len(), want_phases, "{alg}");
        // The release is the last phase's solver point (perturbed block) plus its noise.
        let last = phases.last().unwrap();
        let rel: Vec<f64> = serde_json::from_value(v["release"].clone()).unwrap();
        let released: Vec<f64> = serde_json::from_value(last["released"].clone()).unwrap();
        assert_eq!(rel, released, "{alg}");
        assert!(!v["ledger"].is_null(), "{alg}");
        // The same seed gives the same bits.
        let again = run_config(alg, &cfg, None, false).unwrap();
        assert_eq!(v, again, "{alg}");
    }
}

#[test]
fn run_config_names_bad_fields() {
    use dpsaddle::algorithms::ztoh22_run::{run_config, ZtohConfig};
    let text = std::fs::read_to_string("fixtures/configs/ztoh22_alg3.json").unwrap();
    let mut cfg = ZtohConfig::parse(&text).unwrap();
    cfg.params.solver = "newton".into();
    let e = run_config("ztoh22_alg3", &cfg, None, false).unwrap_err();
    assert!(e.to_string().contains("params.solver"), "{e}");
    cfg.params.solver = "certified".into();
    cfg.params.mu_y = None;
    let e = run_config("ztoh22_alg3", &cfg, None, false).unwrap_err();
    assert!(e.to_string().contains("mu_y"), "{e}");
    assert!(ZtohConfig::parse("{\"seed\": 1}").is_err());
}

#[test]
fn regularized_batch_path_is_bitwise_the_per_sample_sum() {
    use dpsaddle::algorithms::base_solvers::{ProblemKind, Subproblem};
    use dpsaddle::problem::MonotoneOp;
    let op = diagonal_ball(vec![0.0, 0.3, 0.7, 1.0], 1.0).unwrap();
    let s = balanced(40, &[1.0, 0.5, 0.25, 0.1], 1.0).unwrap();
    let p = Subproblem::new(
        &op,
        &s,
        vec![3.0, 3.0, 0.1, 0.1],
        vec![0.2, -0.1, 0.0, 0.0],
        ProblemKind::Saddle,
    )
    .unwrap();
    let rop = p.regularized_op();
    let z = [0.3, -0.2, 0.1, 0.05];
    let idx: Vec<usize> = (0..40).rev().chain([3, 3, 7]).collect();
    let flat = s.points.as_flat();
    let mut batched = vec![0.1; 4];
    rop.add_batch_scaled(&z, flat, 4, &idx, 1.0 / 43.0, &mut batched);
    let mut each = vec![0.1; 4];
    for &i in &idx {
        rop.add_scaled(&z, &flat[i * 4..(i + 1) * 4], 1.0 / 43.0, &mut each);
    }
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&batched), bits(&each));
}
