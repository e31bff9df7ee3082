//! The VI core's operator families and VI gaps (issue 14, items 1–2): allocation-free paths equal
//! the allocating ones bit for bit, exact constants are valid and attained, closed-form VI gaps
//! agree with independent maximizations, and non-closed-form cases answer `Unsupported`.

use dpsaddle::geometry::Domain;
use dpsaddle::instances::{self, ViInstance};
use dpsaddle::linalg::{self, Matrix};
use dpsaddle::oracle::OpOracle;
use dpsaddle::problem::monotone::{
    ClampedOp, ConstantOp, DataAffineOp, MonotoneOp, RegularizedOp, SaddleOperator,
};
use dpsaddle::problem::{Mixture, QuadBilinear};
use dpsaddle::rng::Stream;

fn all_instances() -> Vec<ViInstance> {
    vec![
        instances::vi_rot_iso_ball(2, false),
        instances::vi_rot_iso_ball(2, true),
        instances::vi_rot_iso_ball(6, false),
        instances::vi_rot_iso_box(2, false),
        instances::vi_rot_iso_box(4, true),
        instances::vi_diag_box(2),
        instances::vi_diag_box(5),
        instances::vi_const(2, 4),
        instances::vi_const(3, 3),
        instances::vi_qb_ssp(0.5, 0.5, 0.8),
        instances::vi_qb_ssp(0.0, 0.0, 1.0),
        instances::vi_qb_ssp(0.25, 1.0, -0.6),
    ]
}

/// Points: in the domain and far outside it.
fn points(dom: &Domain, seed: u64, n: usize) -> Vec<Vec<f64>> {
    let mut s = Stream::new(seed, "tests/vi_ops/points");
    (0..n)
        .map(|j| {
            let p = instances::sample_point(dom, &mut s);
            if j % 3 == 2 {
                p.iter().map(|v| 3.0 * v + s.normal()).collect()
            } else {
                p
            }
        })
        .collect()
}

/// eval_into = eval and add_scaled = axpy(s, eval), bit for bit, for every family and wrapper.
fn assert_paths_agree(op: &dyn MonotoneOp, atoms: &[Vec<f64>], seed: u64) {
    let d = op.dim();
    for z in points(op.domain(), seed, 12) {
        for x in atoms {
            let g = op.eval(&z, x);
            let mut h = vec![f64::NAN; d];
            op.eval_into(&z, x, &mut h);
            assert_eq!(
                g.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                h.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
            let base: Vec<f64> = (0..d).map(|i| 0.1 * i as f64 - 0.3).collect();
            let mut a = base.clone();
            let mut b = base.clone();
            linalg::axpy(-0.7, &g, &mut a);
            op.add_scaled(&z, x, -0.7, &mut b);
            assert_eq!(
                a.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                b.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
            );
        }
    }
}

#[test]
fn allocation_free_paths_are_bit_identical() {
    for (k, inst) in all_instances().into_iter().enumerate() {
        let op = inst.op.as_ref();
        assert_paths_agree(op, &inst.dist.atoms, k as u64);
        let anchor = op.domain().center();
        let reg = RegularizedOp::new(op, vec![(0.3, anchor.clone()), (0.2, vec![0.1; op.dim()])])
            .unwrap();
        assert_paths_agree(&reg, &inst.dist.atoms, 100 + k as u64);
        let cl = ClampedOp::new(op);
        assert_paths_agree(&cl, &inst.dist.atoms, 200 + k as u64);
    }
    // A dimension above one chunk (64 rows), odd chunk tail.
    let d = 150;
    let atoms: Vec<Vec<f64>> = (0..3)
        .map(|j| {
            let b: Vec<f64> = (0..d)
                .map(|i| ((i * 7 + j) % 11) as f64 / 10.0 - 0.5)
                .collect();
            DataAffineOp::rot_iso_atom(0.1 * j as f64, 1.0 - j as f64, &b)
        })
        .collect();
    let op = DataAffineOp::rot_iso_ball(vec![0.0; d], 2.0, &atoms).unwrap();
    assert_paths_agree(&op, &atoms, 7);
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// `add_batch_scaled` (and `OpOracle::batch_into`, which uses it) against successive
/// `add_scaled` calls, bit for bit, on batches with repeated and out-of-order indices, a negative
/// scale, signed zeros in z, the data and the accumulator.
fn assert_batch_agrees(op: &dyn MonotoneOp, atoms: &[Vec<f64>], seed: u64) {
    let d = op.dim();
    let k = op.point_dim();
    // The atoms, then copies with a signed zero planted (skipped where it breaks monotonicity is
    // irrelevant here: only the arithmetic path is compared).
    let mut rows: Vec<Vec<f64>> = atoms.to_vec();
    for (j, a) in atoms.iter().enumerate() {
        let mut b = a.clone();
        b[j % k] = -0.0;
        rows.push(b);
    }
    let n = rows.len();
    let flat: Vec<f64> = rows.concat();
    let batches: Vec<Vec<usize>> = vec![
        vec![0],
        (0..n).collect(),
        (0..n).rev().collect(),
        vec![n - 1, 0, n - 1, 1, 1, 0, n / 2, n - 1],
        (0..3 * n).map(|i| (i * 7 + 3) % n).collect(),
        vec![],
    ];
    for (zi, mut z) in points(op.domain(), seed, 6).into_iter().enumerate() {
        if zi == 1 {
            z[0] = -0.0;
        }
        for idx in &batches {
            for s in [1.0, -0.37, 1.0 / idx.len().max(1) as f64] {
                let base: Vec<f64> = (0..d)
                    .map(|i| {
                        if i % 5 == 0 {
                            -0.0
                        } else {
                            0.1 * i as f64 - 0.3
                        }
                    })
                    .collect();
                let mut want = base.clone();
                for &i in idx {
                    op.add_scaled(&z, &rows[i], s, &mut want);
                }
                let mut got = base.clone();
                op.add_batch_scaled(&z, &flat, k, idx, s, &mut got);
                assert_eq!(bits(&got), bits(&want), "d={d}, batch {idx:?}, s={s}");
                // The oracle's batch starts from 0.0 and counts one evaluation per index.
                let mut want0 = vec![0.0; d];
                for &i in idx {
                    op.add_scaled(&z, &rows[i], s, &mut want0);
                }
                let oracle = OpOracle::new(op);
                let mut got0 = vec![f64::NAN; d];
                oracle.batch_into(&flat, k, idx, s, &z, &mut got0);
                assert_eq!(bits(&got0), bits(&want0));
                assert_eq!(oracle.evals(), idx.len() as u64);
            }
        }
    }
}

/// Data-affine operators exercising every branch of the batch kernel: fixed parts (one, two,
/// none), 0–5 data-scaled parts (5 takes the per-sample path), block, dense and zero data maps,
/// a constant shift; d = 4 and d = 150 (two full 64-row chunks and a tail of 22).
fn general_affine_ops(d: usize) -> Vec<(DataAffineOp, Vec<Vec<f64>>)> {
    use dpsaddle::problem::monotone::{DataMap, StructMat};
    let mut st = Stream::new(11, "tests/vi_ops/general_affine");
    let dense = |st: &mut Stream, r: usize, c: usize| {
        let mut m = Matrix::zeros(r, c);
        for i in 0..r {
            for j in 0..c {
                m.set(i, j, st.uniform() - 0.5);
            }
        }
        m
    };
    let ball = Domain::ball(vec![0.0; d], 1.5).unwrap();
    let diag: Vec<f64> = (0..d).map(|i| 0.2 + (i % 4) as f64 / 4.0).collect();
    let k = d + 6;
    let atoms: Vec<Vec<f64>> = (0..4)
        .map(|_| (0..k).map(|_| st.uniform() - 0.5).collect())
        .collect();
    let lin = |n: usize| -> Vec<(usize, StructMat)> {
        let forms = [
            StructMat::ScaledIdentity { dim: d, s: 0.0 },
            StructMat::Rotation { dim: d, s: 1.3 },
            StructMat::Diagonal(vec![0.0; d]),
            StructMat::Rotation { dim: d, s: -0.4 },
            StructMat::ScaledIdentity { dim: d, s: 0.0 },
        ];
        forms.into_iter().take(n).enumerate().collect()
    };
    let shift: Vec<f64> = (0..d)
        .map(|i| if i % 3 == 0 { -0.0 } else { 0.01 * i as f64 })
        .collect();
    let mut v = vec![];
    for n_lin in 0..=5 {
        let fixed = match n_lin % 3 {
            0 => vec![],
            1 => vec![StructMat::Diagonal(diag.clone())],
            _ => vec![
                StructMat::ScaledIdentity { dim: d, s: 0.7 },
                StructMat::Dense(dense(&mut st, d, d)),
                StructMat::Rotation { dim: d, s: 2.0 },
            ],
        };
        let b_map = match n_lin % 3 {
            0 => DataMap::Block {
                offset: 6,
                scale: -0.5,
            },
            1 => DataMap::Dense(dense(&mut st, d, k)),
            _ => DataMap::Zero,
        };
        let sh = if n_lin % 2 == 1 {
            Some(shift.clone())
        } else {
            None
        };
        let op = DataAffineOp::new(ball.clone(), k, fixed, lin(n_lin), b_map, sh).unwrap();
        v.push((op, atoms.clone()));
    }
    v
}

#[test]
fn batch_path_is_bit_identical() {
    for (k, inst) in all_instances().into_iter().enumerate() {
        let op = inst.op.as_ref();
        assert_batch_agrees(op, &inst.dist.atoms, 300 + k as u64);
        let anchor = op.domain().center();
        let reg = RegularizedOp::new(op, vec![(0.3, anchor.clone()), (0.2, vec![0.1; op.dim()])])
            .unwrap();
        assert_batch_agrees(&reg, &inst.dist.atoms, 400 + k as u64);
        let cl = ClampedOp::new(op);
        assert_batch_agrees(&cl, &inst.dist.atoms, 500 + k as u64);
        let cl_reg = ClampedOp::new(&reg);
        assert_batch_agrees(&cl_reg, &inst.dist.atoms, 600 + k as u64);
        if let Some(af) = op.affine_form() {
            let r = af.regularized(&[(0.25, anchor)]).unwrap();
            assert_batch_agrees(&r, &inst.dist.atoms, 700 + k as u64);
        }
        // Boxed and borrowed forwarding.
        let boxed: Box<&dyn MonotoneOp> = Box::new(op);
        assert_batch_agrees(&boxed, &inst.dist.atoms, 800 + k as u64);
    }
    for d in [4, 150] {
        for (j, (op, atoms)) in general_affine_ops(d).into_iter().enumerate() {
            assert_batch_agrees(&op, &atoms, 900 + j as u64);
            assert_batch_agrees(&ClampedOp::new(&op), &atoms, 950 + j as u64);
        }
        let atoms: Vec<Vec<f64>> = (0..5)
            .map(|j| {
                let b: Vec<f64> = (0..d)
                    .map(|i| ((i * 7 + j) % 11) as f64 / 10.0 - 0.5)
                    .collect();
                DataAffineOp::rot_iso_atom(0.1 * j as f64, 1.0 - j as f64, &b)
            })
            .collect();
        let op = DataAffineOp::rot_iso_ball(vec![0.0; d], 2.0, &atoms).unwrap();
        assert_batch_agrees(&op, &atoms, 990 + d as u64);
        let bx = DataAffineOp::rot_iso_box(vec![-1.0; d], vec![0.5; d], &atoms).unwrap();
        assert_batch_agrees(&bx, &atoms, 991 + d as u64);
    }
    // The dense affine family and a general saddle operator (default batch path).
    let mut m = Matrix::zeros(4, 4);
    for i in 0..2 {
        m.set(2 * i, 2 * i + 1, -1.0);
        m.set(2 * i + 1, 2 * i, 1.0);
        m.set(2 * i, 2 * i, 0.3);
    }
    let aff =
        dpsaddle::problem::AffineOp::new(m, Domain::ball(vec![0.0; 4], 1.0).unwrap()).unwrap();
    let shifts: Vec<Vec<f64>> = (0..4)
        .map(|j| vec![0.1 * j as f64, -0.2, 0.3, 0.0])
        .collect();
    assert_batch_agrees(&aff, &shifts, 1001);
    let inst = instances::lin_ball(7);
    let so = SaddleOperator::new(inst.f.as_ref());
    assert_batch_agrees(&so, &inst.dist.atoms, 1002);
}

/// RotIso values against the hand formula (μz + κJz + b), computed here independently.
#[test]
fn rot_iso_matches_hand_formula() {
    let inst = instances::vi_rot_iso_box(4, false);
    for z in points(inst.op.domain(), 3, 10) {
        for x in &inst.dist.atoms {
            let (mu, ka, b) = (x[0], x[1], &x[2..]);
            let want: Vec<f64> = (0..4)
                .map(|i| {
                    let jz = if i % 2 == 0 { -z[i + 1] } else { z[i - 1] };
                    mu * z[i] + ka * jz + b[i]
                })
                .collect();
            let got = inst.op.eval(&z, x);
            for i in 0..4 {
                assert!((got[i] - want[i]).abs() <= 1e-15 * (1.0 + want[i].abs()));
            }
        }
    }
}

/// The QB saddle operator as a DataAffineOp equals SaddleOperator of the QuadBilinear.
#[test]
fn quad_bilinear_saddle_form_equals_saddle_operator() {
    for (alpha, gamma, c) in [(0.5, 0.5, 0.8), (0.0, 0.0, 1.0), (0.25, 1.0, -0.6)] {
        let f = QuadBilinear::data_affine(
            Domain::Box {
                lo: vec![-0.3],
                hi: vec![0.3],
            },
            Domain::Box {
                lo: vec![-0.4],
                hi: vec![0.4],
            },
            Matrix::from_rows(vec![vec![c]]).unwrap(),
            alpha,
            gamma,
        )
        .unwrap();
        let a = DataAffineOp::quad_bilinear_saddle(&f).unwrap();
        let b = SaddleOperator::new(&f);
        for z in points(a.domain(), 5, 10) {
            for x in instances::unit_atoms() {
                let ga = a.eval(&z, &x);
                let gb = b.eval(&z, &x);
                assert!(linalg::norm2(&linalg::sub(&ga, &gb)) <= 1e-15);
            }
        }
    }
    // lin_ball's 3×2 coupling (dense, not a rotation pattern).
    let inst = instances::lin_ball(7);
    let f: &QuadBilinear = &QuadBilinear::data_affine(
        inst.f.domain_w().clone(),
        inst.f.domain_theta().clone(),
        Matrix::from_rows(vec![vec![0.3, -0.2], vec![0.1, 0.4], vec![-0.5, 0.05]]).unwrap(),
        0.2,
        0.2,
    )
    .unwrap();
    let a = DataAffineOp::quad_bilinear_saddle(f).unwrap();
    let b = SaddleOperator::new(f);
    for z in points(a.domain(), 6, 10) {
        for x in &inst.dist.atoms {
            assert!(linalg::norm2(&linalg::sub(&a.eval(&z, x), &b.eval(&z, x))) <= 1e-15);
        }
    }
}

/// max over the 2ᵈ vertices of a box of ‖G(v; x)‖ (a convex function attains its max at a vertex).
fn vertex_max_norm(op: &dyn MonotoneOp, lo: &[f64], hi: &[f64], x: &[f64]) -> f64 {
    let d = lo.len();
    (0..1usize << d)
        .map(|bits| {
            let v: Vec<f64> = (0..d)
                .map(|i| if bits >> i & 1 == 1 { hi[i] } else { lo[i] })
                .collect();
            linalg::norm2(&op.eval(&v, x))
        })
        .fold(0.0, f64::max)
}

/// Exact constants: valid at sampled points (inside and, for L, M of the clamped operator, outside
/// the domain) and attained (L by any pair on a rotation-scaling; M at a box vertex / the
/// farthest ball point).
#[test]
fn constants_are_valid_and_attained() {
    for (k, inst) in all_instances().into_iter().enumerate() {
        let op = inst.op.as_ref();
        let c = inst
            .constants()
            .unwrap_or_else(|e| panic!("{}: {e}", inst.name));
        assert!((c.diameter - op.domain().diameter()).abs() == 0.0);
        let pts = points(op.domain(), 40 + k as u64, 30);
        let inside: Vec<&Vec<f64>> = pts
            .iter()
            .filter(|p| op.domain().contains(p, 0.0))
            .collect();
        let mut best_l = 0.0_f64;
        let mut best_m = 0.0_f64;
        for x in &inst.dist.atoms {
            for (i, z) in inside.iter().enumerate() {
                best_m = best_m.max(linalg::norm2(&op.eval(z, x)));
                let z2 = inside[(i + 1) % inside.len()];
                let dz = linalg::norm2(&linalg::sub(z, z2));
                if dz > 1e-9 {
                    let dg = linalg::norm2(&linalg::sub(&op.eval(z, x), &op.eval(z2, x)));
                    best_l = best_l.max(dg / dz);
                    let mono = linalg::dot(
                        &linalg::sub(&op.eval(z, x), &op.eval(z2, x)),
                        &linalg::sub(z, z2),
                    );
                    assert!(
                        mono >= c.modulus * dz * dz - 1e-12,
                        "{}: modulus",
                        inst.name
                    );
                }
            }
            if let Some((lo, hi)) = dpsaddle::problem::monotone::box_bounds(op.domain()) {
                let vm = vertex_max_norm(op, &lo, &hi, x);
                best_m = best_m.max(vm);
            }
        }
        assert!(
            best_l <= c.lipschitz * (1.0 + 1e-12) + 1e-15,
            "{}: L",
            inst.name
        );
        assert!(
            best_m <= c.bound * (1.0 + 1e-12) + 1e-15,
            "{}: M",
            inst.name
        );
        if dpsaddle::problem::monotone::box_bounds(op.domain()).is_some() {
            // M attained at a vertex.
            assert!(
                (best_m - c.bound).abs() <= 1e-12 * c.bound,
                "{}: M {} not attained ({best_m})",
                inst.name,
                c.bound
            );
        }
    }
    // L attained for RotIso: ‖G(z) − G(z′)‖ = √(μ² + κ²)‖z − z′‖ for every pair.
    let inst = instances::vi_rot_iso_ball(4, false);
    let c = inst.constants().unwrap();
    let lmax = inst
        .dist
        .atoms
        .iter()
        .map(|x| x[0].hypot(x[1]))
        .fold(0.0, f64::max);
    assert!((c.lipschitz - lmax).abs() <= 1e-15 * lmax);
    assert_eq!(c.modulus, 0.0);
    // M attained on the ball at the farthest point from c = −M(x)⁻¹b.
    let x = &inst.dist.atoms[2];
    let (mu, ka) = (x[0], x[1]);
    let s2 = mu * mu + ka * ka;
    let b = &x[2..];
    let cpt: Vec<f64> = (0..4)
        .map(|i| {
            let jb = if i % 2 == 0 { -b[i + 1] } else { b[i - 1] };
            (-mu * b[i] + ka * jb) / s2
        })
        .collect();
    let Domain::Ball { center, radius } = inst.op.domain().clone() else {
        unreachable!()
    };
    let dir = linalg::sub(&center, &cpt);
    let far = linalg::add(&center, &linalg::scale(radius / linalg::norm2(&dir), &dir));
    let at_far = linalg::norm2(&inst.op.eval(&far, x));
    let per_atom = inst.op.constants(std::slice::from_ref(x)).unwrap().bound;
    assert!(
        (at_far - per_atom).abs() <= 1e-12 * per_atom,
        "{at_far} vs {per_atom}"
    );
}

#[test]
fn constructors_validate() {
    // Non-monotone atom (μ < 0), odd dimension, wrong atom length.
    let bad = DataAffineOp::rot_iso_ball(vec![0.0; 2], 1.0, &[vec![-0.1, 1.0, 0.0, 0.0]]);
    assert!(format!("{}", bad.unwrap_err()).contains("support[0]"));
    assert!(DataAffineOp::rot_iso_ball(vec![0.0; 3], 1.0, &[vec![0.0; 5]]).is_err());
    assert!(DataAffineOp::rot_iso_ball(vec![0.0; 2], 1.0, &[vec![0.0; 3]]).is_err());
    assert!(ConstantOp::new(Domain::ball(vec![0.0], 1.0).unwrap(), f64::NAN).is_err());
    let op = instances::vi_const(2, 2);
    assert!(RegularizedOp::new(op.op.as_ref(), vec![(-1.0, vec![0.0; 2])]).is_err());
    assert!(RegularizedOp::new(op.op.as_ref(), vec![(1.0, vec![0.0; 3])]).is_err());
}

/// Regularized: μ + Λ, exact via the affine form (rotation + λI: L = √(κ² + λ²)). Clamped: equal
/// to F∘Π on ℝᵈ, with F's constants valid off the domain.
#[test]
fn regularized_and_clamped_constants() {
    let inst = instances::vi_rot_iso_ball(2, true);
    let lam = 0.75;
    let reg = RegularizedOp::new(inst.op.as_ref(), vec![(lam, vec![0.2, -0.1])]).unwrap();
    let c = reg.constants(&inst.dist.atoms).unwrap();
    assert_eq!(c.modulus, lam);
    let want = inst
        .dist
        .atoms
        .iter()
        .map(|x| x[1].hypot(lam))
        .fold(0.0, f64::max);
    assert!((c.lipschitz - want).abs() <= 1e-15 * want);
    let cl = ClampedOp::new(inst.op.as_ref());
    let c0 = inst.constants().unwrap();
    let c1 = cl.constants(&inst.dist.atoms).unwrap();
    assert_eq!(c0, c1);
    for (j, z) in points(inst.op.domain(), 9, 30).iter().enumerate() {
        let z2 = linalg::scale(-2.0, z);
        for x in &inst.dist.atoms {
            let g = cl.eval(z, x);
            assert_eq!(g, inst.op.eval(&inst.op.domain().project(z), x));
            assert!(
                linalg::norm2(&g) <= c1.bound * (1.0 + 1e-12),
                "M off the domain ({j})"
            );
            let dg = linalg::norm2(&linalg::sub(&g, &cl.eval(&z2, x)));
            assert!(dg <= c1.lipschitz * linalg::norm2(&linalg::sub(z, &z2)) * (1.0 + 1e-12));
        }
    }
    // Regularized over a non-affine operator: Unsupported, never a guess.
    let f = QuadBilinear::lin_box(0.5).unwrap();
    let sop = SaddleOperator::new(&f);
    assert!(sop.constants(&instances::unit_atoms()).is_err());
    let reg = RegularizedOp::new(&sop, vec![(1.0, vec![0.0, 0.0])]).unwrap();
    assert!(matches!(
        reg.constants(&instances::unit_atoms()),
        Err(dpsaddle::error::Error::Unsupported(_))
    ));
    let data = Mixture::population(&instances::lin_box(0.5).dist);
    assert!(matches!(
        reg.vi_gap(&data, &[0.0, 0.0]),
        Err(dpsaddle::error::Error::Unsupported(_))
    ));
}

/// Brute force in d = 2: the max of φ(u) = ⟨Ḡ(u), z − u⟩ over a fine grid of the domain (box:
/// a 401² grid; ball: 400 radii × 720 angles) is ≤ the closed form and within the grid's
/// resolution of it.
#[test]
fn closed_form_gap_matches_grid_in_two_dimensions() {
    use dpsaddle::problem::monotone::mean_operator;
    for inst in [
        instances::vi_rot_iso_ball(2, true),
        instances::vi_rot_iso_ball(2, false),
        instances::vi_rot_iso_box(2, true),
        instances::vi_rot_iso_box(2, false),
        instances::vi_diag_box(2),
        instances::vi_const(2, 3),
        instances::vi_qb_ssp(0.5, 0.5, 0.8),
        instances::vi_qb_ssp(0.25, 1.0, -0.6),
    ] {
        let op = inst.op.as_ref();
        let data = Mixture::population(&inst.dist);
        let grid: Vec<Vec<f64>> = match op.domain() {
            Domain::Ball { center, radius } => (0..=400)
                .flat_map(|i| {
                    (0..720).map(move |j| {
                        let r = radius * i as f64 / 400.0;
                        let a = std::f64::consts::PI * j as f64 / 360.0;
                        vec![center[0] + r * a.cos(), center[1] + r * a.sin()]
                    })
                })
                .collect(),
            dom => {
                let (lo, hi) = dpsaddle::problem::monotone::box_bounds(dom).unwrap();
                (0..=400)
                    .flat_map(|i| {
                        let (lo, hi) = (lo.clone(), hi.clone());
                        (0..=400).map(move |j| {
                            vec![
                                lo[0] + (hi[0] - lo[0]) * i as f64 / 400.0,
                                lo[1] + (hi[1] - lo[1]) * j as f64 / 400.0,
                            ]
                        })
                    })
                    .collect()
            }
        };
        for z in points(op.domain(), 77, 4) {
            let g = op.vi_gap(&data, &z).unwrap();
            let best = grid
                .iter()
                .map(|u| linalg::dot(&mean_operator(op, &data, u), &linalg::sub(&z, u)))
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(best <= g + 1e-12, "{}: grid {best} > closed {g}", inst.name);
            assert!(g - best <= 2e-3, "{}: closed {g} vs grid {best}", inst.name);
        }
    }
}

/// Higher d: the closed form inside the certified projected-gradient interval (the claims' check,
/// here on RotIso d = 6 and the diagonal box d = 5).
#[test]
fn closed_form_gap_inside_certified_interval() {
    use dpsaddle::claims::core_vi_ops::certified_gap_interval;
    for inst in [
        instances::vi_rot_iso_ball(6, false),
        instances::vi_rot_iso_box(4, true),
        instances::vi_diag_box(5),
        instances::vi_const(3, 3),
    ] {
        let op = inst.op.as_ref();
        let data = Mixture::population(&inst.dist);
        for z in points(op.domain(), 78, 4) {
            let g = op.vi_gap(&data, &z).unwrap();
            let (lo, hi) = certified_gap_interval(op, &data, &z, 4000);
            let tol = 1e-12 * (1.0 + g.abs());
            assert!(
                lo <= g + tol && g <= hi + tol,
                "{}: {lo} ≤ {g} ≤ {hi}",
                inst.name
            );
            assert!(hi - lo <= 1e-8, "{}: interval width {}", inst.name, hi - lo);
        }
    }
}

/// The saddle-point weak gap of BG23 eq. (1.4) (seeds outside) ≥ BGM23 eq. (3)'s (everything
/// inside) ≤ strong, on LIN-box with a seed-randomized output.
#[test]
fn bg23_saddle_weak_gap_between_inside_and_strong() {
    use dpsaddle::gap::{strong_gap, weak_gap, weak_gap_bg23, WeightedOutput};
    use dpsaddle::problem::Objective;
    let inst = instances::lin_box(0.5);
    let obj = Objective::population(&inst.dist);
    let seed = |s: f64| -> Vec<WeightedOutput> {
        (0..3)
            .map(|j| WeightedOutput {
                weight: inst.dist.probs[j],
                w: vec![(s * 0.25 + 0.1 * inst.dist.atoms[j][0]).clamp(-0.3, 0.3)],
                theta: vec![(-s * 0.3 + 0.2 * inst.dist.atoms[j][1]).clamp(-0.4, 0.4)],
            })
            .collect()
    };
    let seeds = vec![(0.5, seed(1.0)), (0.5, seed(-1.0))];
    let joint: Vec<WeightedOutput> = seeds
        .iter()
        .flat_map(|(r, o)| {
            o.iter().map(move |w| WeightedOutput {
                weight: r * w.weight,
                ..w.clone()
            })
        })
        .collect();
    let f = inst.f.as_ref();
    let inside = weak_gap(f, &obj, &joint).unwrap();
    let bg = weak_gap_bg23(f, &obj, &seeds).unwrap();
    let strong = strong_gap(f, &obj, &joint).unwrap();
    assert!(
        inside <= bg + 1e-12 && bg <= strong + 1e-12,
        "{inside} {bg} {strong}"
    );
    assert!(
        bg - inside > 1e-3,
        "seeds outside must be strictly larger here"
    );
}

#[test]
fn vi_gap_functions_validate_inputs() {
    use dpsaddle::gap::vi::{strong_vi_gap, weak_vi_gap_mc, ViOutput};
    let inst = instances::vi_rot_iso_ball(2, true);
    let op = inst.op.as_ref();
    let data = Mixture::population(&inst.dist);
    let bad = vec![ViOutput {
        weight: 0.5,
        z: vec![0.0, 0.0],
    }];
    assert!(strong_vi_gap(op, &data, &bad).is_err());
    let samples = vec![vec![0.0, 0.0], vec![5.0, 0.0]];
    let e = weak_vi_gap_mc(op, &data, &samples, 2.0, 0.1).unwrap_err();
    assert!(format!("{e}").contains("samples[1]"));
    assert!(weak_vi_gap_mc(op, &data, &samples[..1], 2.0, 1.5).is_err());
}
