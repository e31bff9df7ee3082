//! The standard test instances the claims, tests and benches share (LIN-box, LIN-ball, P13, COS,
//! ABS-sep), and a seeded sampler of points in a domain.

use crate::geometry::Domain;
use crate::linalg::Matrix;
use crate::problem::{AbsSeparable, CosHinge, FiniteDist, QuadBilinear, SaddleFn};
use crate::rng::Stream;

/// A named loss with a finite-support data distribution.
pub struct Instance {
    /// Name for reports.
    pub name: String,
    /// The loss.
    pub f: Box<dyn SaddleFn>,
    /// The data distribution D (its atoms are the support for L).
    pub dist: FiniteDist,
}

impl Instance {
    /// L over the support of D.
    pub fn lipschitz(&self) -> f64 {
        self.f.constants(&self.dist.atoms).lipschitz
    }
}

/// Unit-norm rational atoms (a, b) ∈ {(3/5, 4/5), (−3/5, −4/5), (5/13, −12/13)}.
pub fn unit_atoms() -> Vec<Vec<f64>> {
    vec![
        vec![0.6, 0.8],
        vec![-0.6, -0.8],
        vec![5.0 / 13.0, -12.0 / 13.0],
    ]
}

/// [LIN-box] with coupling c and three unit atoms with probabilities 1/2, 1/3, 1/6.
pub fn lin_box(c: f64) -> Instance {
    Instance {
        name: format!("lin_box(c={c})"),
        f: Box::new(QuadBilinear::lin_box(c).expect("valid")),
        dist: FiniteDist::new(unit_atoms(), vec![0.5, 1.0 / 3.0, 1.0 / 6.0]).expect("valid"),
    }
}

/// [LIN-ball] d_w = 3, d_θ = 2 on Euclidean balls, with a seeded coupling C and three atoms.
pub fn lin_ball(seed: u64) -> Instance {
    let mut s = Stream::new(seed, "instances/lin_ball");
    let c = Matrix::from_rows(
        (0..3)
            .map(|_| (0..2).map(|_| 0.5 * s.normal()).collect())
            .collect(),
    )
    .expect("valid");
    let f = QuadBilinear::data_affine(
        Domain::Ball {
            center: vec![0.1, 0.0, -0.1],
            radius: 1.0,
        },
        Domain::Ball {
            center: vec![0.0, 0.2],
            radius: 0.8,
        },
        c,
        0.0,
        0.0,
    )
    .expect("valid");
    let atoms: Vec<Vec<f64>> = (0..3)
        .map(|_| (0..5).map(|_| s.normal() / 3.0).collect())
        .collect();
    Instance {
        name: format!("lin_ball(seed={seed})"),
        f: Box::new(f),
        dist: FiniteDist::new(atoms, vec![0.25, 0.25, 0.5]).expect("valid"),
    }
}

/// \[P13\] f = wθ on [−1, 1]² with data ±1 (ignored by f), P(+1) = 1/2.
pub fn p13() -> Instance {
    Instance {
        name: "bgm23_prop13".into(),
        f: Box::new(QuadBilinear::bgm23_prop13()),
        dist: FiniteDist::new(vec![vec![1.0], vec![-1.0]], vec![0.5, 0.5]).expect("valid"),
    }
}

/// \[COS\] the Fact 1 near-tightness instance.
pub fn cos(eps: f64) -> Instance {
    Instance {
        name: format!("cos_hinge(ε={eps})"),
        f: Box::new(CosHinge::new(eps).expect("valid")),
        dist: FiniteDist::new(vec![vec![0.0]], vec![1.0]).expect("valid"),
    }
}

/// The separable absolute-value family, d = 2, with coupling κ and three atoms.
pub fn abs_sep(kappa: f64) -> Instance {
    let f = AbsSeparable::new(
        Domain::Box {
            lo: vec![-1.0, -0.5],
            hi: vec![1.0, 0.5],
        },
        Domain::Box {
            lo: vec![-0.5, -1.0],
            hi: vec![0.5, 1.0],
        },
        vec![kappa, -kappa / 2.0],
    )
    .expect("valid");
    let atoms = vec![
        vec![0.3, -0.2, 0.1, 0.4],
        vec![-0.5, 0.25, -0.3, -0.6],
        vec![0.9, 0.0, 0.45, 0.2],
    ];
    Instance {
        name: format!("abs_separable(κ={kappa})"),
        f: Box::new(f),
        dist: FiniteDist::new(atoms, vec![0.2, 0.5, 0.3]).expect("valid"),
    }
}

/// A point of `d` drawn from `s`: uniform in a box; otherwise the projection of
/// centre + max_norm·N(0, I).
pub fn sample_point(d: &Domain, s: &mut Stream) -> Vec<f64> {
    match d {
        Domain::Box { lo, hi } => lo
            .iter()
            .zip(hi)
            .map(|(l, h)| l + (h - l) * s.uniform())
            .collect(),
        _ => {
            let c = d.center();
            let r = d.max_norm().max(1.0);
            let x: Vec<f64> = c.iter().map(|ci| ci + r * s.normal()).collect();
            d.project(&x)
        }
    }
}
