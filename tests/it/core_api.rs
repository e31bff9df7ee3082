//! The shared core: every registered claim (driven by the registry), the certified solver against
//! independent computations, the non-smooth 1-D minimizer, and determinism.

use dpsaddle::algorithms::{Algorithm, OutputPerturbation, RegularizedSaddlePoint};
use dpsaddle::claims;
use dpsaddle::exact;
use dpsaddle::gap::gap_function;
use dpsaddle::geometry::Domain;
use dpsaddle::linalg::{self, Matrix};
use dpsaddle::papers::bgm23::lin_box;
use dpsaddle::problem::families::abs_separable::argmin_abs_quad;
use dpsaddle::problem::{Dataset, Objective, QuadBilinear, Regularizer, SaddleFn};
use dpsaddle::rng::{NoiseSource, Stream};
use dpsaddle::solve::{saddle_point, SolveOptions};
use dpsaddle::stability::uniform_argument_stability;
use num_traits::ToPrimitive;
use proptest::prelude::*;

#[test]
fn claim_ids_are_unique_and_cite_a_paper() {
    let reg = claims::registry();
    let mut ids: Vec<_> = reg.iter().map(|c| c.id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), reg.len());
    for c in &reg {
        assert!(
            ["core", "BGM23", "KLLW22", "BGM24", "ZTOH22", "BG23"].contains(&c.paper),
            "{}",
            c.id
        );
        assert!(!c.statement.is_empty() && !c.item.is_empty());
    }
}

/// The regularized saddle point on QuadBilinear over ℓ2 balls, with an interior solution, agrees
/// with the KKT system solved directly (a linear system) to 1e-12.
#[test]
fn regularized_saddle_point_matches_kkt_linear_system() {
    let c = Matrix::from_rows(vec![vec![0.5, -0.3], vec![0.2, 0.7], vec![-0.4, 0.1]]).unwrap();
    let f = QuadBilinear::data_affine(
        Domain::Ball {
            center: vec![0.0; 3],
            radius: 10.0,
        },
        Domain::Ball {
            center: vec![0.0; 2],
            radius: 10.0,
        },
        c.clone(),
        0.1,
        0.2,
    )
    .unwrap();
    let s = Dataset::new(vec![
        vec![0.3, -0.1, 0.2, 0.5, -0.4],
        vec![-0.2, 0.4, 0.1, 0.0, 0.3],
    ])
    .unwrap();
    let lam = 0.8;
    let (aw, at) = (vec![0.1, -0.2, 0.05], vec![0.3, -0.1]);
    let obj = Objective::empirical(&s).with_reg(Regularizer::bgm23_eq4(lam, &aw, &at));
    let cert = saddle_point(&f, &obj, &SolveOptions::default()).unwrap();
    // KKT (interior): a + Cθ + αw + λ(w − ŵ) = 0 and −b + Cᵀw − γθ − λ(θ − θ̂) = 0.
    let xbar = s.mean();
    let (a, b) = (&xbar[..3], &xbar[3..]);
    let mut m = Matrix::zeros(5, 5);
    let mut rhs = vec![0.0; 5];
    for i in 0..3 {
        m.set(i, i, 0.1 + lam);
        for j in 0..2 {
            m.set(i, 3 + j, c.get(i, j));
            m.set(3 + j, i, c.get(i, j));
        }
        rhs[i] = -a[i] + lam * aw[i];
    }
    for j in 0..2 {
        m.set(3 + j, 3 + j, -(0.2 + lam));
        rhs[3 + j] = b[j] - lam * at[j];
    }
    let z = m.solve(&rhs).unwrap();
    let got = linalg::concat(&cert.w, &cert.theta);
    let err = linalg::norm2(&linalg::sub(&got, &z));
    assert!(err <= 1e-12, "solver vs KKT: {err:e}");
    assert!(linalg::norm2(&z) < 10.0, "interior solution");
}

/// On a box with an active constraint: enumerate every active set (3^d patterns) and solve the
/// KKT linear system of each; exactly one satisfies all KKT sign conditions, and it matches.
#[test]
fn regularized_saddle_point_matches_active_set_enumeration_on_a_box() {
    let c = Matrix::from_rows(vec![vec![0.9, 0.0], vec![-0.3, 0.6]]).unwrap();
    let lo = vec![-0.2, -0.2];
    let hi = vec![0.2, 0.2];
    let f = QuadBilinear::data_affine(
        Domain::Box {
            lo: lo.clone(),
            hi: hi.clone(),
        },
        Domain::Box {
            lo: lo.clone(),
            hi: hi.clone(),
        },
        c.clone(),
        0.0,
        0.0,
    )
    .unwrap();
    let s = Dataset::new(vec![vec![0.9, -0.1, 0.3, 0.8], vec![0.5, 0.2, -0.6, 0.4]]).unwrap();
    let lam = 1.0;
    let obj =
        Objective::empirical(&s).with_reg(Regularizer::bgm23_eq4(lam, &[0.0, 0.0], &[0.0, 0.0]));
    let cert = saddle_point(&f, &obj, &SolveOptions::default()).unwrap();
    let xbar = s.mean();
    // Operator G(z) = Mz + q with M = [[λI, C], [−Cᵀ, λI]], q = [a; b]; VI on the box.
    let mut found = Vec::new();
    for pat in 0..81u32 {
        // state per coordinate: 0 free, 1 at lo, 2 at hi
        let st: Vec<u32> = (0..4).map(|k| (pat / 3u32.pow(k)) % 3).collect();
        let mut m = Matrix::zeros(4, 4);
        let mut rhs = vec![0.0; 4];
        let full = |i: usize, j: usize| -> f64 {
            match (i < 2, j < 2) {
                (true, true) => {
                    if i == j {
                        lam
                    } else {
                        0.0
                    }
                }
                (true, false) => c.get(i, j - 2),
                (false, true) => -c.get(j, i - 2),
                (false, false) => {
                    if i == j {
                        lam
                    } else {
                        0.0
                    }
                }
            }
        };
        for i in 0..4 {
            match st[i] {
                0 => {
                    for j in 0..4 {
                        m.set(i, j, full(i, j));
                    }
                    rhs[i] = -xbar[i];
                }
                1 => {
                    m.set(i, i, 1.0);
                    rhs[i] = lo[i % 2];
                }
                _ => {
                    m.set(i, i, 1.0);
                    rhs[i] = hi[i % 2];
                }
            }
        }
        let Ok(z) = m.solve(&rhs) else { continue };
        let g: Vec<f64> = (0..4)
            .map(|i| (0..4).map(|j| full(i, j) * z[j]).sum::<f64>() + xbar[i])
            .collect();
        let ok = (0..4).all(|i| {
            let (l, h) = (lo[i % 2], hi[i % 2]);
            match st[i] {
                0 => z[i] > l - 1e-14 && z[i] < h + 1e-14,
                1 => g[i] >= -1e-14,
                _ => g[i] <= 1e-14,
            }
        });
        if ok {
            found.push(z);
        }
    }
    assert!(!found.is_empty());
    let got = linalg::concat(&cert.w, &cert.theta);
    for z in &found {
        let err = linalg::norm2(&linalg::sub(&got, z));
        assert!(err <= 1e-12, "solver vs active set: {err:e}");
    }
    assert!(
        found.iter().any(|z| z.iter().any(|v| v.abs() == 0.2)),
        "some constraint active"
    );
}

/// Float solver vs the exact rational closed form on LIN-box (c = 0).
#[test]
fn float_solver_matches_exact_rationals_on_lin_box() {
    let f = QuadBilinear::lin_box(0.0).unwrap();
    let atoms = [
        (exact::rat(3, 5), exact::rat(4, 5)),
        (exact::rat(-3, 5), exact::rat(-4, 5)),
        (exact::rat(5, 13), exact::rat(-12, 13)),
    ];
    let pts: Vec<Vec<f64>> = atoms
        .iter()
        .map(|(a, b)| vec![a.to_f64().unwrap(), b.to_f64().unwrap()])
        .collect();
    for counts in [[3usize, 1, 0], [0, 2, 2], [1, 1, 1], [5, 0, 1]] {
        for (lam, aw, at) in [
            (exact::rat(1, 2), exact::rat(0, 1), exact::rat(0, 1)),
            (exact::rat(3, 1), exact::rat(1, 10), exact::rat(-1, 5)),
        ] {
            let mut data = Vec::new();
            for (j, &c) in counts.iter().enumerate() {
                for _ in 0..c {
                    data.push(pts[j].clone());
                }
            }
            let s = Dataset::new(data).unwrap();
            let alg = RegularizedSaddlePoint {
                lambda: lam.to_f64().unwrap(),
                anchor_w: vec![aw.to_f64().unwrap()],
                anchor_theta: vec![at.to_f64().unwrap()],
            };
            let out = alg.run(&f, &s, &mut NoiseSource::sample(0)).unwrap();
            let (ab, bb) = lin_box::mean(&atoms, &counts);
            let (w, t) = lin_box::reg_saddle(&ab, &bb, &lam, &aw, &at);
            assert!(
                (out.w[0] - w.to_f64().unwrap()).abs() <= 1e-12,
                "{counts:?}"
            );
            assert!(
                (out.theta[0] - t.to_f64().unwrap()).abs() <= 1e-12,
                "{counts:?}"
            );
        }
    }
}

/// P13's gap function is |w| + |θ| in closed form.
#[test]
fn prop13_gap_function_closed_form() {
    let f = QuadBilinear::bgm23_prop13();
    let s = Dataset::new(vec![vec![1.0], vec![-1.0]]).unwrap();
    let obj = Objective::empirical(&s);
    let mut st = Stream::new(1, "test/p13");
    for _ in 0..200 {
        let w = 2.0 * st.uniform() - 1.0;
        let t = 2.0 * st.uniform() - 1.0;
        let g = gap_function(&f, &obj, &[w], &[t]).unwrap();
        assert!((g.gap - (w.abs() + t.abs())).abs() <= 1e-15);
    }
}

fn brute_argmin(
    points: &[f64],
    weights: &[f64],
    ell: f64,
    q: f64,
    c: f64,
    lo: f64,
    hi: f64,
) -> f64 {
    let phi = |t: f64| -> f64 {
        points
            .iter()
            .zip(weights)
            .map(|(p, w)| w * (t - p).abs())
            .sum::<f64>()
            + ell * t
            + q * (t - c) * (t - c)
    };
    // Candidates: endpoints, breakpoints, and every piece's stationary point.
    let mut cand = vec![lo, hi];
    cand.extend(points.iter().copied().filter(|p| *p >= lo && *p <= hi));
    if q > 0.0 {
        let total: f64 = weights.iter().sum();
        let mut sorted: Vec<usize> = (0..points.len()).collect();
        sorted.sort_by(|a, b| points[*a].total_cmp(&points[*b]));
        let mut le = 0.0;
        for k in 0..=sorted.len() {
            let t = c - (ell + 2.0 * le - total) / (2.0 * q);
            cand.push(t.clamp(lo, hi));
            if k < sorted.len() {
                le += weights[sorted[k]];
            }
        }
    }
    cand.into_iter().fold(f64::NAN, |best, t| {
        if best.is_nan() || phi(t) < phi(best) - 1e-15 {
            t
        } else {
            best
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha, ..ProptestConfig::default() })]
    /// argmin_abs_quad attains the minimum value found by exhaustive candidate evaluation.
    #[test]
    fn argmin_abs_quad_is_a_minimizer(
        pts in proptest::collection::vec(-2.0f64..2.0, 1..7),
        ws in proptest::collection::vec(0.0f64..1.0, 7),
        ell in -2.0f64..2.0, q in prop_oneof![Just(0.0), 0.0f64..3.0], c in -1.0f64..1.0,
        lo in -1.5f64..0.0, width in 0.0f64..3.0,
    ) {
        let w = &ws[..pts.len()];
        let hi = lo + width;
        let t = argmin_abs_quad(&pts, w, ell, q, c, lo, hi);
        let phi = |t: f64| -> f64 { pts.iter().zip(w).map(|(p, w)| w * (t - p).abs()).sum::<f64>() + ell * t + q * (t - c) * (t - c) };
        let b = brute_argmin(&pts, w, ell, q, c, lo, hi);
        prop_assert!(t >= lo && t <= hi);
        prop_assert!(phi(t) <= phi(b) + 1e-12, "t={} φ={} brute={} φ={}", t, phi(t), b, phi(b));
    }
}

fn stability_run() -> (f64, Vec<u64>) {
    let f = QuadBilinear::lin_box(0.5).unwrap();
    let alg = OutputPerturbation {
        base: RegularizedSaddlePoint {
            lambda: 1.0,
            anchor_w: vec![0.0],
            anchor_theta: vec![0.0],
        },
        epsilon: 1.0,
        delta: 1e-5,
        lipschitz: 1.5,
    };
    let s = Dataset::new(vec![vec![0.6, 0.8], vec![-0.6, -0.8], vec![0.6, 0.8]]).unwrap();
    let support = vec![vec![0.6, 0.8], vec![-0.6, -0.8], vec![0.0, 1.0]];
    let rep = uniform_argument_stability(&alg, &f, &s, &support, &[1, 2, 3]).unwrap();
    let out = alg.run(&f, &s, &mut NoiseSource::sample(9)).unwrap();
    (rep.delta, out.z().iter().map(|v| v.to_bits()).collect())
}

/// Same seed, same bits: across two runs and across rayon pools of 1 and 2 threads.
#[test]
fn determinism_across_runs_and_thread_counts() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(stability_run);
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(stability_run);
    let again = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(stability_run);
    assert_eq!(one.0.to_bits(), two.0.to_bits());
    assert_eq!(one.1, two.1);
    assert_eq!(two.0.to_bits(), again.0.to_bits());
    assert_eq!(two.1, again.1);
}

/// A replayed tape reproduces a randomized algorithm's output bit for bit with no RNG.
#[test]
fn output_perturbation_replays_from_its_tape() {
    let f = QuadBilinear::lin_box(0.5).unwrap();
    let alg = OutputPerturbation {
        base: RegularizedSaddlePoint {
            lambda: 1.0,
            anchor_w: vec![0.0],
            anchor_theta: vec![0.0],
        },
        epsilon: 1.0,
        delta: 1e-5,
        lipschitz: 1.5,
    };
    let s = Dataset::new(vec![vec![0.6, 0.8], vec![-0.6, -0.8]]).unwrap();
    let mut rec = NoiseSource::recording(4);
    let a = alg.run(&f, &s, &mut rec).unwrap();
    let tape = rec.into_tape().unwrap();
    let b = alg.run(&f, &s, &mut NoiseSource::replay(tape)).unwrap();
    assert_eq!(a, b);
    let c = alg.run(&f, &s, &mut NoiseSource::sample(5)).unwrap();
    assert_ne!(a.z(), c.z(), "a different seed gives different noise");
}

/// The family's declared L is attained on LIN-box with c = 0 (gradient (a, −b) of unit norm).
#[test]
fn lin_box_lipschitz_constant_is_exact() {
    let f = QuadBilinear::lin_box(0.0).unwrap();
    let support = vec![vec![0.6, 0.8], vec![-0.6, -0.8]];
    let l = f.constants(&support).lipschitz;
    assert!((l - 1.0).abs() <= 1e-15);
    let (gw, gt) = f.grad(&[0.1], &[0.2], &support[0]);
    assert!((linalg::norm2(&linalg::concat(&gw, &gt)) - 1.0).abs() <= 1e-15);
}

/// VI gaps of an affine monotone operator (BG23 eq. (1.1)'s integrand): ≥ 0, ≤ the Stampacchia
/// gap by monotonicity, 0 at the VI solution; and for a saddle operator, ≤ the saddle gap Ĝap.
#[test]
fn vi_gap_properties_on_affine_operators() {
    use dpsaddle::problem::monotone::{stampacchia_gap, AffineOp, MonotoneOp};
    use dpsaddle::problem::Mixture;
    // The saddle operator of QuadBilinear with α = γ = μ and no regularizer is z ↦ Mz + q with
    // M = [[μI, C], [−Cᵀ, μI]] (isotropic symmetric part) and q = [a; b].
    let c = Matrix::from_rows(vec![vec![0.5, -0.3], vec![0.2, 0.7]]).unwrap();
    for mu in [0.0, 0.4] {
        let dom = Domain::Box {
            lo: vec![-0.5; 2],
            hi: vec![0.5; 2],
        };
        let f = QuadBilinear::data_affine(dom.clone(), dom.clone(), c.clone(), mu, mu).unwrap();
        let s = Dataset::new(vec![vec![0.3, -0.1, 0.2, 0.5], vec![-0.2, 0.4, 0.1, 0.0]]).unwrap();
        let obj = Objective::empirical(&s);
        let (m, q) = f.affine_operator(&obj);
        let op = AffineOp::new(m, Domain::Product(vec![dom.clone(), dom.clone()])).unwrap();
        let data = Mixture::single(&q);
        let mut st = Stream::new(3, "test/vi");
        for _ in 0..300 {
            let z: Vec<f64> = (0..4).map(|_| st.uniform() - 0.5).collect();
            let g = op.vi_gap(&data, &z).unwrap();
            let sg = stampacchia_gap(&op, &data, &z);
            let (w, t) = linalg::split(&z, 2);
            let saddle = gap_function(&f, &obj, &w, &t).unwrap().gap;
            assert!(g >= -1e-12, "vi gap {g}");
            assert!(g <= sg + 1e-12, "vi gap {g} > stampacchia {sg}");
            assert!(g <= saddle + 1e-12, "vi gap {g} > saddle gap {saddle}");
        }
    }
    // A negative control: a non-monotone M (negative symmetric part) is rejected.
    let bad = AffineOp::new(
        Matrix::from_rows(vec![vec![-1.0, 0.0], vec![0.0, -1.0]]).unwrap(),
        Domain::Box {
            lo: vec![-1.0; 2],
            hi: vec![1.0; 2],
        },
    )
    .unwrap();
    assert!(bad
        .vi_gap(&Mixture::single(&[0.0, 0.0]), &[0.1, 0.2])
        .is_err());
}

/// Output variance and sensitivity on closed-form cases.
#[test]
fn output_variance_and_sensitivity_closed_forms() {
    use dpsaddle::stability::{output_variance, sensitivity};
    // Two equally likely outputs ±e₁: E A = 0, τ² = 1.
    let v = output_variance(&[(0.5, vec![1.0, 0.0]), (0.5, vec![-1.0, 0.0])]);
    assert!((v - 1.0).abs() <= 1e-15);
    // The mean of n points in a support with diameter D has sensitivity max‖x − x′‖/n.
    let s = Dataset::new(vec![vec![0.0, 0.0], vec![1.0, 0.0], vec![0.0, 1.0]]).unwrap();
    let support = vec![
        vec![0.0, 0.0],
        vec![1.0, 0.0],
        vec![0.0, 1.0],
        vec![-1.0, -1.0],
    ];
    let sens = sensitivity(|d: &Dataset| Ok(d.mean()), &s, &support).unwrap();
    // Worst move: (1,0) → (−1,−1) or (0,1) → (−1,−1): distance √5, divided by n = 3.
    assert!((sens - 5f64.sqrt() / 3.0).abs() <= 1e-15, "{sens}");
}

/// The float gap code on Prop 13's mode-of-halves output distribution agrees with the exact
/// rational closed form (Gap = E|w̄| + E|θ̄|, Gap_weak = |E w̄| + |E θ̄|) to 1e-14 absolute, and the
/// weak gap is exactly 0 when p = 1/2 with no ties (n ≡ 2 mod 4) or s0 = 0.
#[test]
fn mode_of_halves_float_gaps_match_exact_rationals() {
    use dpsaddle::claims::core::mode_of_halves_outputs;
    use dpsaddle::gap::{strong_gap, weak_gap};
    use dpsaddle::problem::FiniteDist;
    let f = QuadBilinear::bgm23_prop13();
    for (p, pr) in [(0.5, exact::rat(1, 2)), (0.75, exact::rat(3, 4))] {
        for (s0, sr) in [
            (0.0, exact::rat(0, 1)),
            (1.0, exact::rat(1, 1)),
            (-1.0, exact::rat(-1, 1)),
        ] {
            for n in 2..=16u64 {
                let d = FiniteDist::new(vec![vec![1.0], vec![-1.0]], vec![p, 1.0 - p]).unwrap();
                let obj = Objective::population(&d);
                let outs = mode_of_halves_outputs(p, n as usize, s0).unwrap();
                let (es, ew) = dpsaddle::papers::bgm23::prop13::mode_of_halves_gaps(&pr, n, &sr);
                let s = strong_gap(&f, &obj, &outs).unwrap();
                let w = weak_gap(&f, &obj, &outs).unwrap();
                assert!(
                    (s - es.to_f64().unwrap()).abs() <= 1e-14,
                    "strong n={n} p={p} s0={s0}: {s} vs {es}"
                );
                assert!(
                    (w - ew.to_f64().unwrap()).abs() <= 1e-14,
                    "weak n={n} p={p} s0={s0}: {w} vs {ew}"
                );
                if p == 0.5 && (n % 4 == 2 || s0 == 0.0) {
                    assert!(
                        num_traits::Zero::is_zero(&ew),
                        "exact weak gap is 0 at n={n}, s0={s0}"
                    );
                }
                if p == 0.5 && n % 4 == 2 {
                    assert_eq!(es, exact::rat(2, 1), "strong gap exactly 2 at n={n}");
                }
            }
        }
    }
}

/// The convex–concave (μ = 0) path: extragradient with the gap certificate on P13 (f = wθ, saddle
/// point (0, 0)) and on a coupled LIN-ball instance; the certificate is met and the returned gap is
/// the gap at the returned point.
#[test]
fn convex_concave_solver_certifies_by_gap() {
    let f = QuadBilinear::bgm23_prop13();
    let s = Dataset::new(vec![vec![1.0]]).unwrap();
    let obj = Objective::empirical(&s);
    let cert = saddle_point(&f, &obj, &SolveOptions::default()).unwrap();
    assert_eq!(cert.modulus, 0.0);
    assert!(cert.dist_bound.is_none());
    // Independent of the solver: on [−1, 1]², Ĝap(w, θ) = max_θ′ wθ′ − min_w′ w′θ = |w| + |θ|
    // (by hand), and the only saddle point is (0, 0).
    let (w, t) = (cert.w[0], cert.theta[0]);
    let g = gap_function(&f, &obj, &cert.w, &cert.theta).unwrap().gap;
    assert!(
        (g - (w.abs() + t.abs())).abs() <= 1e-15,
        "Ĝap {g} vs |w| + |θ| = {}",
        w.abs() + t.abs()
    );
    assert!(
        w.abs() + t.abs() <= 1e-11,
        "not the saddle point (0, 0): {cert:?}"
    );
    // A starting point must not matter for the certificate.
    let c = Matrix::from_rows(vec![vec![1.0, 0.2], vec![-0.3, 0.8]]).unwrap();
    let f = QuadBilinear::data_affine(
        Domain::Ball {
            center: vec![0.0; 2],
            radius: 1.0,
        },
        Domain::Ball {
            center: vec![0.0; 2],
            radius: 1.0,
        },
        c,
        0.0,
        0.0,
    )
    .unwrap();
    let s = Dataset::new(vec![vec![0.1, -0.2, 0.3, 0.05]]).unwrap();
    let obj = Objective::empirical(&s);
    let cert = saddle_point(&f, &obj, &SolveOptions::default()).unwrap();
    // By hand, independent of the solver and of gap_function: ℓ = ⟨a, w⟩ − ⟨b, θ⟩ + wᵀCθ on unit
    // balls, a = (0.1, −0.2), b = (0.3, 0.05); C = [[1, 0.2], [−0.3, 0.8]], det C = 0.86. The
    // interior saddle point solves a + Cθ = 0, Cᵀw = b: θ* = −C⁻¹a = −(0.12, −0.17)/0.86,
    // w* = C⁻ᵀb = (0.255, −0.01)/0.86 (both inside the unit ball). The gap is
    // Ĝap(w, θ) = ⟨a, w⟩ + ‖Cᵀw − b‖ + ‖a + Cθ‖ + ⟨b, θ⟩.
    let w_star = [0.255 / 0.86, -0.01 / 0.86];
    let t_star = [-0.12 / 0.86, 0.17 / 0.86];
    let (w, t) = (&cert.w, &cert.theta);
    let ctw_b = [w[0] - 0.3 * w[1] - 0.3, 0.2 * w[0] + 0.8 * w[1] - 0.05];
    let a_ct = [0.1 + t[0] + 0.2 * t[1], -0.2 - 0.3 * t[0] + 0.8 * t[1]];
    let hand_gap = 0.1 * w[0] - 0.2 * w[1]
        + (ctw_b[0].powi(2) + ctw_b[1].powi(2)).sqrt()
        + (a_ct[0].powi(2) + a_ct[1].powi(2)).sqrt()
        + 0.3 * t[0]
        + 0.05 * t[1];
    assert!(
        hand_gap <= 1e-9,
        "hand gap at the certified point {hand_gap}: {cert:?}"
    );
    let dist = ((w[0] - w_star[0]).powi(2)
        + (w[1] - w_star[1]).powi(2)
        + (t[0] - t_star[0]).powi(2)
        + (t[1] - t_star[1]).powi(2))
    .sqrt();
    assert!(
        dist <= 1e-8,
        "distance to the hand saddle point {dist}: {cert:?}"
    );
    // An iteration cap too small is an error, never a silent uncertified answer.
    let opts = SolveOptions {
        max_iters: 3,
        ..SolveOptions::default()
    };
    assert!(matches!(
        saddle_point(&f, &obj, &opts),
        Err(dpsaddle::Error::NotCertified(_))
    ));
}
