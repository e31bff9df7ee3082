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
