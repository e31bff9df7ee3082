//! The standard test instances the claims, tests and benches share (LIN-box, LIN-ball, P13, COS,
//! ABS-sep), the VI instances (RotIso ball/box, a diagonal box family, Const-VI, QB-SSP), and a
//! seeded sampler of points in a domain.

use crate::geometry::Domain;
use crate::linalg::Matrix;
use crate::problem::{
    AbsSeparable, ConstantOp, CosHinge, DataAffineOp, FiniteDist, MonotoneOp, QuadBilinear,
    SaddleFn,
};
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

/// A named monotone operator with a finite-support data distribution (the VI instances of the
/// issue plan §3: RotIso on a ball and on a box, a diagonal box family, Const-VI, a QB-SSP saddle
/// operator), each with 2–4 atoms.
pub struct ViInstance {
    /// Name for reports.
    pub name: String,
    /// The operator.
    pub op: Box<dyn MonotoneOp>,
    /// The data distribution (its atoms are the support for the constants).
    pub dist: FiniteDist,
}

impl ViInstance {
    /// The operator's constants over the support of the distribution.
    pub fn constants(&self) -> crate::error::Result<crate::problem::OpConstants> {
        self.op.constants(&self.dist.atoms)
    }
}

/// The RotIso atoms (μ, κ, b) in dimension d (even): three atoms with b drawn once from a
/// labelled stream; `mus` gives μ per atom (all 0: pure rotations).
fn rot_iso_atoms(d: usize, mus: [f64; 3], label: &str) -> Vec<Vec<f64>> {
    let mut s = Stream::new(11, label);
    let kappas = [1.0, -0.5, 2.0];
    (0..3)
        .map(|j| {
            let b: Vec<f64> = (0..d).map(|_| 0.4 * s.normal()).collect();
            DataAffineOp::rot_iso_atom(mus[j], kappas[j], &b)
        })
        .collect()
}

/// [RotIso-VI ball] G(z; x) = (μ_x I + κ_x J)z + b_x on the ball B((0.1, −0.1, …), 1) ⊂ ℝᵈ (d
/// even), atoms μ ∈ {0, 1/2, 0} (mean μ̄ = 1/8, strongly monotone) or all μ = 0 (`rotation`:
/// monotone only), κ ∈ {1, −1/2, 2}, probabilities 1/2, 1/4, 1/4.
pub fn vi_rot_iso_ball(d: usize, rotation: bool) -> ViInstance {
    let mus = if rotation { [0.0; 3] } else { [0.0, 0.5, 0.0] };
    let atoms = rot_iso_atoms(d, mus, "instances/vi_rot_iso_ball");
    let center: Vec<f64> = (0..d)
        .map(|i| if i % 2 == 0 { 0.1 } else { -0.1 })
        .collect();
    let op = DataAffineOp::rot_iso_ball(center, 1.0, &atoms).expect("valid");
    ViInstance {
        name: format!("rot_iso_ball(d={d}, rotation={rotation})"),
        op: Box::new(op),
        dist: FiniteDist::new(atoms, vec![0.5, 0.25, 0.25]).expect("valid"),
    }
}

/// [RotIso-VI box] as [`vi_rot_iso_ball`] on the box [−1/2, 1]ᵈ.
pub fn vi_rot_iso_box(d: usize, rotation: bool) -> ViInstance {
    let mus = if rotation { [0.0; 3] } else { [0.0, 0.5, 0.0] };
    let atoms = rot_iso_atoms(d, mus, "instances/vi_rot_iso_box");
    let op = DataAffineOp::rot_iso_box(vec![-0.5; d], vec![1.0; d], &atoms).expect("valid");
    ViInstance {
        name: format!("rot_iso_box(d={d}, rotation={rotation})"),
        op: Box::new(op),
        dist: FiniteDist::new(atoms, vec![0.5, 0.25, 0.25]).expect("valid"),
    }
}

/// A diagonal family on a box: G(z; x) = diag(h) z + x, h_i = (i mod 3)/2 (so h has zeros and
/// distinct positive entries), box [−1, 1/2]ᵈ, three shifts with probabilities 1/3, 1/3, 1/3.
pub fn vi_diag_box(d: usize) -> ViInstance {
    let h: Vec<f64> = (0..d).map(|i| (i % 3) as f64 / 2.0).collect();
    let dom = Domain::Box {
        lo: vec![-1.0; d],
        hi: vec![0.5; d],
    };
    let op = DataAffineOp::diagonal_shift(dom, h).expect("valid");
    let mut s = Stream::new(12, "instances/vi_diag_box");
    let atoms: Vec<Vec<f64>> = (0..3)
        .map(|_| (0..d).map(|_| 0.5 * s.normal()).collect())
        .collect();
    ViInstance {
        name: format!("diag_box(d={d})"),
        op: Box::new(op),
        dist: FiniteDist::new(atoms, vec![1.0 / 3.0; 3]).expect("valid"),
    }
}

/// [Const-VI] BG23 Prop 12's constant operator G(u; β) = Mβ on B(0, r), M = 2, r = 1, with the
/// first `k` (2 ≤ k ≤ 4) points of {±1/√d}ᵈ (binary order; d ≥ 2) and probabilities
/// proportional to 1, 2, …, k.
pub fn vi_const(d: usize, k: usize) -> ViInstance {
    let op = ConstantOp::bg23_prop12(d, 2.0, 1.0).expect("valid");
    let atoms: Vec<Vec<f64>> = ConstantOp::prop12_atoms(d)
        .expect("valid d")
        .into_iter()
        .take(k)
        .collect();
    let tot = (k * (k + 1) / 2) as f64;
    let probs: Vec<f64> = (1..=k).map(|j| j as f64 / tot).collect();
    ViInstance {
        name: format!("const_vi(d={d}, atoms={k})"),
        op: Box::new(op),
        dist: FiniteDist::new(atoms, probs).expect("valid"),
    }
}

/// [QB-SSP] the saddle operator of the data-affine [`QuadBilinear`] f = a·w − b·θ + c·wθ +
/// (α/2)w² − (γ/2)θ² on W = [−3/10, 3/10], Θ = [−2/5, 2/5] (LIN-box with curvature), as a
/// [`DataAffineOp`], with the three unit atoms of [`unit_atoms`] (probabilities 1/2, 1/3, 1/6).
/// With α = γ its linear part is αI − cJ (exact constants, closed-form VI gap on any domain); with
/// α ≠ γ the VI gap is closed form on these boxes.
pub fn vi_qb_ssp(alpha: f64, gamma: f64, c: f64) -> ViInstance {
    let f = QuadBilinear::data_affine(
        Domain::Box {
            lo: vec![-0.3],
            hi: vec![0.3],
        },
        Domain::Box {
            lo: vec![-0.4],
            hi: vec![0.4],
        },
        Matrix::from_rows(vec![vec![c]]).expect("valid"),
        alpha,
        gamma,
    )
    .expect("valid");
    ViInstance {
        name: format!("qb_ssp(α={alpha}, γ={gamma}, c={c})"),
        op: Box::new(DataAffineOp::quad_bilinear_saddle(&f).expect("valid")),
        dist: FiniteDist::new(unit_atoms(), vec![0.5, 1.0 / 3.0, 1.0 / 6.0]).expect("valid"),
    }
}
