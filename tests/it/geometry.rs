//! Integration tests for `linalg` and `geometry`: projections, support/LMO, diameters, norm
//! duality, matrices, mirror maps and input validation. proptest runs with a fixed seed and a
//! fixed number of cases, so every run sees the same instances.

use dpsaddle::error::Error;
use dpsaddle::geometry::{
    dual_exponent, entropy_prox, half_sq_lp, lp_bregman_divergence, lp_mirror_map_grad,
    lp_mirror_map_grad_inv, lp_norm, project_lp_ball, project_simplex, Domain, Norm,
};
use dpsaddle::linalg::{self, Matrix};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

const INF: f64 = f64::INFINITY;

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        rng_seed: RngSeed::Fixed(0x6765_6f6d),
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Strategies

fn vecs(d: usize, s: f64) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-s..s, d)
}

/// Exponents covering the closed-form cases and general p.
fn exponent() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(1.0),
        Just(2.0),
        Just(INF),
        Just(1.5),
        Just(3.0),
        1.01f64..1.99,
        2.01f64..8.0,
    ]
}

fn leaf_domain() -> impl Strategy<Value = Domain> {
    (1usize..=5).prop_flat_map(|d| {
        prop_oneof![
            (vecs(d, 2.0), 0.0f64..3.0).prop_map(|(c, r)| Domain::ball(c, r).unwrap()),
            (vecs(d, 2.0), vecs(d, 2.0)).prop_map(|(a, b)| {
                let lo = a.iter().zip(&b).map(|(x, y)| x.min(*y)).collect();
                let hi = a.iter().zip(&b).map(|(x, y)| x.max(*y)).collect();
                Domain::new_box(lo, hi).unwrap()
            }),
            Just(Domain::simplex(d).unwrap()),
            (exponent(), vecs(d, 2.0), 0.0f64..3.0)
                .prop_map(|(p, c, r)| Domain::lp_ball(p, c, r).unwrap()),
        ]
    })
}

fn domain() -> impl Strategy<Value = Domain> {
    prop_oneof![
        3 => leaf_domain(),
        1 => prop::collection::vec(leaf_domain(), 1..=3).prop_map(|b| Domain::product(b).unwrap()),
    ]
}

/// A domain with `k` points of its dimension, entries in [−5, 5].
fn domain_and_points(k: usize) -> impl Strategy<Value = (Domain, Vec<Vec<f64>>)> {
    domain().prop_flat_map(move |dom| {
        let d = dom.dim();
        (Just(dom), prop::collection::vec(vecs(d, 5.0), k))
    })
}

// ---------------------------------------------------------------------------------------------
// Reference implementations (slow, independent)

/// Simplex projection by bisection on the threshold τ of Σ max(x_i − τ, 0) = 1.
fn simplex_reference(x: &[f64]) -> Vec<f64> {
    let f = |t: f64| x.iter().map(|v| (v - t).max(0.0)).sum::<f64>() - 1.0;
    let mut lo = x.iter().cloned().fold(INF, f64::min) - 1.0; // f(lo) ≥ 0
    let mut hi = x.iter().cloned().fold(-INF, f64::max); // f(hi) = −1
    for _ in 0..300 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    x.iter().map(|v| (v - t).max(0.0)).collect()
}

/// ℓp-ball projection (centre 0, 1 < p < ∞) by nested plain bisection, written independently of
/// the library: u_i = sign(y_i)s_i with s_i + ν s_i^{p−1} = |y_i|, ν bisected on Σ s_i^p = r^p.
fn lp_ball_reference(y: &[f64], p: f64, r: f64) -> Vec<f64> {
    let norm: f64 = y.iter().map(|v| v.abs().powf(p)).sum::<f64>().powf(1.0 / p);
    if norm <= r {
        return y.to_vec();
    }
    let coord = |a: f64, nu: f64| {
        let (mut lo, mut hi) = (0.0f64, a);
        for _ in 0..200 {
            let m = 0.5 * (lo + hi);
            if m + nu * m.powf(p - 1.0) > a {
                hi = m;
            } else {
                lo = m;
            }
        }
        0.5 * (lo + hi)
    };
    let sum = |nu: f64| y.iter().map(|v| coord(v.abs(), nu).powf(p)).sum::<f64>();
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while sum(hi) > r.powf(p) {
        hi *= 2.0;
    }
    for _ in 0..200 {
        let m = 0.5 * (lo + hi);
        if sum(m) > r.powf(p) {
            lo = m;
        } else {
            hi = m;
        }
    }
    let nu = 0.5 * (lo + hi);
    y.iter().map(|v| v.signum() * coord(v.abs(), nu)).collect()
}

/// A pair of points of `dom` at maximal ℓ2 distance, built by hand.
fn diameter_pair(dom: &Domain) -> (Vec<f64>, Vec<f64>) {
    match dom {
        Domain::Ball { center, radius } => {
            let mut a = center.clone();
            let mut b = center.clone();
            a[0] += radius;
            b[0] -= radius;
            (a, b)
        }
        Domain::Box { lo, hi } => (lo.clone(), hi.clone()),
        Domain::Simplex { dim } => {
            // e_0 and e_1 (e_0 twice when dim = 1).
            let mut a = vec![0.0; *dim];
            let mut b = vec![0.0; *dim];
            a[0] = 1.0;
            b[1.min(dim - 1)] = 1.0;
            (a, b)
        }
        Domain::LpBall { p, center, radius } => {
            let d = center.len();
            let dir: Vec<f64> = if *p <= 2.0 {
                (0..d).map(|i| if i == 0 { 1.0 } else { 0.0 }).collect()
            } else {
                vec![(d as f64).powf(-1.0 / p); d]
            };
            (
                linalg::add(center, &linalg::scale(*radius, &dir)),
                linalg::sub(center, &linalg::scale(*radius, &dir)),
            )
        }
        Domain::Product(blocks) => {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            for blk in blocks {
                let (x, y) = diameter_pair(blk);
                a.extend(x);
                b.extend(y);
            }
            (a, b)
        }
    }
}

fn rel_close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn field_of(e: Error) -> String {
    match e {
        Error::Invalid { field, .. } => field,
        other => panic!("expected Error::Invalid, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Projection

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn projection_properties((dom, pts) in domain_and_points(4)) {
        let (x, y) = (&pts[0], &pts[1]);
        let px = dom.project(x);
        let py = dom.project(y);
        prop_assert!(dom.contains(&px, 1e-12), "P(x) = {px:?} not in {dom:?}");
        // Idempotent.
        let ppx = dom.project(&px);
        prop_assert!(linalg::dist2(&ppx, &px) <= 1e-12, "{px:?} -> {ppx:?}");
        // Non-expansive.
        prop_assert!(linalg::dist2(&px, &py) <= linalg::dist2(x, y) + 1e-12);
        // Variational inequality ⟨x − P(x), u − P(x)⟩ ≤ 0 for u ∈ D (u sampled by projecting).
        let r = linalg::sub(x, &px);
        for u0 in &pts[2..] {
            let u = dom.project(u0);
            prop_assert!(linalg::dot(&r, &linalg::sub(&u, &px)) <= 1e-10);
        }
        // The LMO point and the centre are in D too, so the VI holds for them.
        for u in [dom.lmo(&r), dom.center()] {
            prop_assert!(dom.contains(&u, 1e-12));
            prop_assert!(linalg::dot(&r, &linalg::sub(&u, &px)) <= 1e-10);
        }
        // Optimality certificate: σ_D(x − P(x)) = ⟨x − P(x), P(x)⟩.
        prop_assert!(dom.support(&r) - linalg::dot(&r, &px) <= 1e-10);
    }

    #[test]
    fn simplex_projection_matches_bisection(x in (1usize..=8).prop_flat_map(|d| vecs(d, 5.0))) {
        let fast = project_simplex(&x, 1.0);
        let slow = simplex_reference(&x);
        prop_assert!(linalg::dist2(&fast, &slow) <= 1e-12, "{fast:?} vs {slow:?}");
        prop_assert_eq!(&fast, &Domain::simplex(x.len()).unwrap().project(&x));
    }

    #[test]
    fn lp_projection_matches_reference(
        (y, p, r) in (1usize..=6, prop_oneof![1.01f64..1.99, 2.01f64..8.0, Just(1.5), Just(3.0)], 0.1f64..3.0)
            .prop_flat_map(|(d, p, r)| (vecs(d, 5.0), Just(p), Just(r)))
    ) {
        let pr = project_lp_ball(&y, p, r);
        let slow = lp_ball_reference(&y, p, r);
        let err = linalg::dist2(&pr.point, &slow);
        prop_assert!(err <= 1e-9, "p={p} r={r} y={y:?}: {:?} vs {slow:?}", pr.point);
        // The certificate bounds the true error (≈ the reference's); it is also small.
        prop_assert!(err <= pr.error_bound + 1e-12, "err {err} > bound {}", pr.error_bound);
        prop_assert!(pr.error_bound <= 1e-12, "bound {}", pr.error_bound);
        prop_assert!(lp_norm(&pr.point, p) <= r * (1.0 + 1e-12));
    }
}

#[test]
fn lp_projection_closed_form_cases() {
    let y = [3.0, -1.0, 0.5];
    // p = 2: radial scaling.
    let p2 = project_lp_ball(&y, 2.0, 1.0).point;
    let n = linalg::norm2(&y);
    assert!(linalg::dist2(&p2, &linalg::scale(1.0 / n, &y)) < 1e-15);
    // p = ∞: clamp.
    assert_eq!(project_lp_ball(&y, INF, 1.0).point, vec![1.0, -1.0, 0.5]);
    // p = 1: soft threshold with τ = 1.5 (3 − τ + 0 = ... only one coordinate survives? check).
    let p1 = project_lp_ball(&y, 1.0, 1.0).point;
    assert!((lp_norm(&p1, 1.0) - 1.0).abs() < 1e-15);
    assert_eq!(p1, vec![1.0, 0.0, 0.0]);
    // Inside: unchanged; radius 0: the centre.
    assert_eq!(project_lp_ball(&y, 3.0, 10.0).point, y.to_vec());
    assert_eq!(project_lp_ball(&y, 3.0, 0.0).point, vec![0.0; 3]);
    // Near p = 1 and large p the general solver agrees with the limits' geometry.
    let near1 = project_lp_ball(&y, 1.0 + 1e-9, 1.0);
    assert!(linalg::dist2(&near1.point, &p1) < 1e-6, "{:?}", near1.point);
    let large = project_lp_ball(&y, 200.0, 1.0);
    assert!(lp_norm(&large.point, 200.0) <= 1.0 + 1e-12);
    // Extreme scales do not overflow.
    let big = project_lp_ball(&[1e200, -2e200], 3.0, 1e199);
    assert!(rel_close(lp_norm(&big.point, 3.0), 1e199, 1e-14));
}

// ---------------------------------------------------------------------------------------------
// Support function and LMO

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn support_and_lmo((dom, pts) in domain_and_points(5)) {
        let v = &pts[0];
        let s = dom.support(v);
        let u = dom.lmo(v);
        prop_assert!(dom.contains(&u, 1e-12), "lmo {u:?} not in {dom:?}");
        prop_assert!(rel_close(s, linalg::dot(v, &u), 1e-12), "support {s} vs <v, lmo> {}", linalg::dot(v, &u));
        for u0 in &pts[1..] {
            let w = dom.project(u0);
            prop_assert!(linalg::dot(v, &w) <= s + 1e-10);
        }
        prop_assert!(linalg::dot(v, &dom.center()) <= s + 1e-10);
        if let Domain::LpBall { p, center, radius } = &dom {
            let expect = linalg::dot(v, center) + radius * lp_norm(v, dual_exponent(*p));
            prop_assert!(rel_close(s, expect, 1e-13));
        }
        // Positive homogeneity: σ(2v) = 2σ(v).
        prop_assert!(rel_close(dom.support(&linalg::scale(2.0, v)), 2.0 * s, 1e-13));
    }

    #[test]
    fn support_of_polytopes_is_max_over_vertices(
        (lo, hi, v) in (1usize..=5).prop_flat_map(|d| (vecs(d, 2.0), vecs(d, 2.0), vecs(d, 3.0)))
    ) {
        let d = lo.len();
        let (lo, hi): (Vec<f64>, Vec<f64>) = lo.iter().zip(&hi).map(|(a, b)| (a.min(*b), a.max(*b))).unzip();
        let bx = Domain::new_box(lo.clone(), hi.clone()).unwrap();
        let mut best = -INF;
        for mask in 0..(1u32 << d) {
            let corner: Vec<f64> = (0..d).map(|i| if mask >> i & 1 == 1 { hi[i] } else { lo[i] }).collect();
            best = best.max(linalg::dot(&v, &corner));
        }
        prop_assert!(rel_close(bx.support(&v), best, 1e-13));
        let sx = Domain::simplex(d).unwrap();
        prop_assert_eq!(sx.support(&v), v.iter().cloned().fold(-INF, f64::max));
    }
}

#[test]
fn lmo_tie_rules() {
    let bx = Domain::new_box(vec![-1.0, -2.0], vec![1.0, 2.0]).unwrap();
    assert_eq!(bx.lmo(&[0.0, 1.0]), vec![-1.0, 2.0]);
    let sx = Domain::simplex(3).unwrap();
    assert_eq!(sx.lmo(&[1.0, 2.0, 2.0]), vec![0.0, 1.0, 0.0]);
    assert_eq!(sx.lmo(&[0.0, 0.0, 0.0]), vec![1.0, 0.0, 0.0]);
    let ball = Domain::ball(vec![1.0, 1.0], 2.0).unwrap();
    assert_eq!(ball.lmo(&[0.0, 0.0]), vec![-1.0, 1.0]);
    let linf = Domain::lp_ball(INF, vec![0.0, 0.0], 1.0).unwrap();
    assert_eq!(linf.lmo(&[0.0, 3.0]), vec![-1.0, 1.0]);
    let l1 = Domain::lp_ball(1.0, vec![0.0, 0.0, 0.0], 1.0).unwrap();
    assert_eq!(l1.lmo(&[1.0, -3.0, 3.0]), vec![0.0, -1.0, 0.0]);
}

// ---------------------------------------------------------------------------------------------
// Diameter and max norm

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn diameter_attained_and_not_exceeded((dom, pts) in domain_and_points(6)) {
        let diam = dom.diameter();
        let (a, b) = diameter_pair(&dom);
        prop_assert!(dom.contains(&a, 1e-12) && dom.contains(&b, 1e-12), "{a:?} {b:?}");
        prop_assert!(rel_close(linalg::dist2(&a, &b), diam, 1e-12), "pair {} vs diameter {diam}", linalg::dist2(&a, &b));
        let mut members: Vec<Vec<f64>> = pts.iter().map(|x| dom.project(x)).collect();
        members.push(dom.lmo(&pts[0]));
        members.push(dom.center());
        let m = dom.max_norm();
        for (i, u) in members.iter().enumerate() {
            prop_assert!(linalg::norm2(u) <= m * (1.0 + 1e-12) + 1e-12, "max_norm {m} < {}", linalg::norm2(u));
            for w in &members[..i] {
                let dw = linalg::sub(u, w);
                for norm in [Norm::L2, Norm::Lp(1.0), Norm::Lp(1.5), Norm::Lp(3.0), Norm::Lp(INF)] {
                    let dn = dom.diameter_in(norm);
                    prop_assert!(norm.eval(&dw) <= dn * (1.0 + 1e-12) + 1e-12, "{norm:?}: {} > {dn}", norm.eval(&dw));
                }
                prop_assert!(linalg::dist2(u, w) <= diam * (1.0 + 1e-12) + 1e-12);
            }
        }
        prop_assert!(rel_close(dom.diameter_in(Norm::L2), diam, 0.0));
        prop_assert!(rel_close(dom.diameter_in(Norm::Lp(2.0)), diam, 1e-15));
    }

    #[test]
    fn max_norm_exact_cases((dom, _pts) in domain_and_points(0)) {
        // Attained by the LMO in a suitable direction for the exact cases.
        let m = dom.max_norm();
        let attained = match &dom {
            Domain::Ball { center, .. } => Some(linalg::norm2(&dom.lmo(center))),
            Domain::Box { lo, hi } => {
                let dir: Vec<f64> = lo.iter().zip(hi).map(|(l, h)| if h.abs() >= l.abs() { 1.0 } else { -1.0 }).collect();
                Some(linalg::norm2(&dom.lmo(&dir)))
            }
            Domain::Simplex { .. } => Some(linalg::norm2(&dom.lmo(&vec![0.0; dom.dim()]))),
            Domain::LpBall { p, center, .. } if *p == INF => {
                let dir: Vec<f64> = center.iter().map(|c| if *c >= 0.0 { 1.0 } else { -1.0 }).collect();
                Some(linalg::norm2(&dom.lmo(&dir)))
            }
            Domain::LpBall { p, center, radius } if *p == 1.0 => {
                // Best vertex c ± r e_i.
                let mut best: f64 = 0.0;
                for i in 0..center.len() {
                    for s in [1.0, -1.0] {
                        let mut u = center.clone();
                        u[i] += s * radius;
                        best = best.max(linalg::norm2(&u));
                    }
                }
                Some(best)
            }
            Domain::LpBall { center, .. } if linalg::norm2(center) == 0.0 => None,
            _ => None,
        };
        if let Some(a) = attained {
            prop_assert!(rel_close(a, m, 1e-12), "attained {a} vs max_norm {m}");
        }
    }
}

#[test]
fn diameter_closed_forms() {
    let s = Domain::simplex(4).unwrap();
    assert!((s.diameter() - 2f64.sqrt()).abs() < 1e-15);
    assert_eq!(s.diameter_in(Norm::Lp(1.0)), 2.0);
    assert_eq!(s.diameter_in(Norm::Lp(INF)), 1.0);
    assert_eq!(Domain::simplex(1).unwrap().diameter(), 0.0);
    let b = Domain::new_box(vec![0.0, 0.0], vec![3.0, 4.0]).unwrap();
    assert_eq!(b.diameter(), 5.0);
    assert_eq!(b.diameter_in(Norm::Lp(1.0)), 7.0);
    assert_eq!(b.diameter_in(Norm::Lp(INF)), 4.0);
    // ℓ∞ ball in ℝ⁴ of radius 1: ℓ2 diameter 2·√4 = 4, ℓ1 diameter 8.
    let linf = Domain::lp_ball(INF, vec![0.0; 4], 1.0).unwrap();
    assert!((linf.diameter() - 4.0).abs() < 1e-14);
    assert!((linf.diameter_in(Norm::Lp(1.0)) - 8.0).abs() < 1e-13);
    assert!((linf.max_norm() - 2.0).abs() < 1e-14);
    // ℓ1 ball: ℓ2 diameter 2r.
    let l1 = Domain::lp_ball(1.0, vec![0.0; 4], 1.5).unwrap();
    assert_eq!(l1.diameter(), 3.0);
    // Euclidean ball in ℓ1: 2r√d.
    let ball = Domain::ball(vec![0.0; 9], 1.0).unwrap();
    assert!((ball.diameter_in(Norm::Lp(1.0)) - 6.0).abs() < 1e-14);
    // Product: √(Σ diam²) in ℓ2, max in ℓ∞, sum in ℓ1.
    let prod = Domain::product(vec![b.clone(), s.clone()]).unwrap();
    assert!((prod.diameter() - (25.0f64 + 2.0).sqrt()).abs() < 1e-14);
    assert_eq!(prod.diameter_in(Norm::Lp(INF)), 4.0);
    assert_eq!(prod.diameter_in(Norm::Lp(1.0)), 9.0);
    assert_eq!(prod.split().unwrap().len(), 2);
    assert!(b.split().is_none());
}

// ---------------------------------------------------------------------------------------------
// Norms

proptest! {
    #![proptest_config(config(1024))]

    #[test]
    fn holder_and_dual_maximizer(
        (x, y, p) in (1usize..=7, exponent()).prop_flat_map(|(d, p)| (vecs(d, 4.0), vecs(d, 4.0), Just(p)))
    ) {
        let n = Norm::lp(p).unwrap();
        let q = n.dual();
        prop_assert!(linalg::dot(&x, &y).abs() <= n.eval(&x) * q.eval(&y) * (1.0 + 1e-12) + 1e-300);
        let u = n.dual_maximizer(&y);
        prop_assert!(rel_close(n.eval(&u), 1.0, 1e-12), "‖u‖ = {}", n.eval(&u));
        prop_assert!(rel_close(linalg::dot(&y, &u), q.eval(&y), 1e-12));
        // Involution of the dual exponent, and the ℓ2 special case.
        prop_assert!(rel_close(q.dual().p(), p, 1e-12) || p == INF && q.dual().p() == INF);
        prop_assert!(rel_close(Norm::L2.eval(&x), Norm::Lp(2.0).eval(&x), 0.0));
        // Norm ordering ‖x‖_∞ ≤ ‖x‖_p ≤ ‖x‖_1.
        let np = n.eval(&x);
        prop_assert!(lp_norm(&x, INF) <= np * (1.0 + 1e-14) && np <= lp_norm(&x, 1.0) * (1.0 + 1e-14));
    }
}

#[test]
fn norm_json_and_validation() {
    for p in [0.5, -1.0, f64::NAN] {
        assert_eq!(field_of(Norm::lp(p).unwrap_err()), "p");
        assert!(Norm::Lp(p).validate().is_err());
        assert!(Norm::Lp(p).eval(&[1.0]).is_nan());
    }
    assert!(Norm::lp(1.0).is_ok() && Norm::lp(INF).is_ok());
    for n in [Norm::L2, Norm::Lp(1.0), Norm::Lp(1.7), Norm::Lp(INF)] {
        let s = serde_json::to_string(&n).unwrap();
        assert_eq!(serde_json::from_str::<Norm>(&s).unwrap(), n, "{s}");
    }
}

// ---------------------------------------------------------------------------------------------
// Matrices

#[test]
fn op_norm_known_values() {
    let diag = Matrix::from_rows(vec![
        vec![-3.0, 0.0, 0.0],
        vec![0.0, 2.0, 0.0],
        vec![0.0, 0.0, 0.5],
    ])
    .unwrap();
    assert!((diag.op_norm() - 3.0).abs() <= 1e-15 * 3.0);
    // Rank one u vᵀ: ‖u‖‖v‖.
    let u = [1.0, -2.0, 2.0];
    let v = [3.0, 4.0];
    let mut r1 = Matrix::zeros(3, 2);
    for (i, ui) in u.iter().enumerate() {
        for (j, vj) in v.iter().enumerate() {
            r1.set(i, j, ui * vj);
        }
    }
    assert!((r1.op_norm() - 15.0).abs() <= 1e-14, "{}", r1.op_norm());
    assert!((r1.transpose().op_norm() - 15.0).abs() <= 1e-14);
    // Rotation times 2.5: all singular values 2.5.
    let (c, s) = (0.3f64.cos(), 0.3f64.sin());
    let rot = Matrix::from_rows(vec![vec![2.5 * c, -2.5 * s], vec![2.5 * s, 2.5 * c]]).unwrap();
    assert!((rot.op_norm() - 2.5).abs() <= 1e-14);
    // A known 2×2: [[1, 1], [0, 1]] has σ_max = golden ratio φ.
    let shear = Matrix::from_rows(vec![vec![1.0, 1.0], vec![0.0, 1.0]]).unwrap();
    assert!((shear.op_norm() - (1.0 + 5f64.sqrt()) / 2.0).abs() <= 1e-15);
    assert_eq!(Matrix::identity(4).op_norm(), 1.0);
    assert!(Matrix::zeros(2, 2).is_zero() && !Matrix::identity(2).is_zero());
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn op_norm_bounds_and_eigen_trace(
        (rows, cols, data, x) in (1usize..=5, 1usize..=5).prop_flat_map(|(r, c)| (Just(r), Just(c), vecs(r * c, 3.0), vecs(c, 3.0)))
    ) {
        let a = Matrix { rows, cols, data };
        let n = a.op_norm();
        // ‖Ax‖ ≤ ‖A‖‖x‖, and ‖A‖ ≤ ‖A‖_F, ‖A‖ = ‖Aᵀ‖.
        prop_assert!(linalg::norm2(&a.matvec(&x)) <= n * linalg::norm2(&x) * (1.0 + 1e-13) + 1e-13);
        prop_assert!(n <= linalg::norm2(&a.data) * (1.0 + 1e-13));
        prop_assert!(rel_close(n, a.transpose().op_norm(), 1e-13));
        // σ_max² is the largest eigenvalue of AᵀA; eigenvalues sum to the trace.
        let g = a.transpose().matmul(&a);
        let ev = g.sym_eigenvalues().unwrap();
        let tr: f64 = (0..cols).map(|i| g.get(i, i)).sum();
        prop_assert!(rel_close(ev.iter().sum::<f64>(), tr, 1e-12));
        prop_assert!(rel_close(ev[cols - 1].max(0.0).sqrt(), n, 1e-12));
        // Power iteration lower bound agrees.
        let mut z = vec![1.0; cols];
        for _ in 0..2000 {
            let w = a.matvec_t(&a.matvec(&z));
            let nw = linalg::norm2(&w);
            if nw == 0.0 { break; }
            z = linalg::scale(1.0 / nw, &w);
        }
        prop_assert!(linalg::norm2(&a.matvec(&z)) <= n * (1.0 + 1e-13) + 1e-13);
        // matvec_t is the transpose's matvec.
        let y: Vec<f64> = (0..rows).map(|i| i as f64 - 1.5).collect();
        prop_assert_eq!(a.matvec_t(&y), a.transpose().matvec(&y));
    }

    #[test]
    fn solve_residual((n, data, xs) in (1usize..=6).prop_flat_map(|n| (Just(n), vecs(n * n, 1.0), vecs(n, 2.0)))) {
        // Diagonally dominant, hence well conditioned.
        let mut a = Matrix { rows: n, cols: n, data };
        for i in 0..n {
            a.set(i, i, a.get(i, i) + n as f64 + 1.0);
        }
        let b = a.matvec(&xs);
        let x = a.solve(&b).unwrap();
        let res = linalg::sub(&a.matvec(&x), &b);
        prop_assert!(linalg::norm2(&res) <= 1e-12 * (1.0 + linalg::norm2(&b)));
        prop_assert!(linalg::dist2(&x, &xs) <= 1e-12);
    }
}

#[test]
fn solve_known_and_singular() {
    let a = Matrix::from_rows(vec![
        vec![0.0, 2.0, 1.0],
        vec![1.0, 1.0, 0.0],
        vec![2.0, 0.0, 3.0],
    ])
    .unwrap();
    let x = a.solve(&[7.0, 3.0, 11.0]).unwrap();
    let expect = [1.0, 2.0, 3.0];
    assert!(linalg::dist2(&x, &expect) <= 1e-14, "{x:?}");
    let res = linalg::sub(&a.matvec(&x), &[7.0, 3.0, 11.0]);
    assert!(linalg::norm2(&res) <= 1e-12);
    let sing = Matrix::from_rows(vec![vec![1.0, 2.0], vec![2.0, 4.0]]).unwrap();
    assert_eq!(field_of(sing.solve(&[1.0, 2.0]).unwrap_err()), "matrix");
    assert_eq!(
        field_of(Matrix::zeros(3, 3).solve(&[0.0; 3]).unwrap_err()),
        "matrix"
    );
    assert_eq!(
        field_of(Matrix::identity(2).solve(&[1.0]).unwrap_err()),
        "b"
    );
    // Nearly singular at working precision is rejected too.
    let near = Matrix::from_rows(vec![vec![1.0, 1.0], vec![1.0, 1.0 + 1e-17]]).unwrap();
    assert!(near.solve(&[1.0, 1.0]).is_err());
}

#[test]
fn matrix_constructors_and_products() {
    assert_eq!(
        field_of(Matrix::from_rows(vec![vec![1.0, 2.0], vec![3.0]]).unwrap_err()),
        "rows[1]"
    );
    assert_eq!(
        field_of(Matrix::from_rows(vec![vec![1.0, f64::NAN]]).unwrap_err()),
        "rows[0][1]"
    );
    let a = Matrix::from_rows(vec![vec![1.0, 2.0, 3.0], vec![4.0, 5.0, 6.0]]).unwrap();
    assert_eq!((a.rows, a.cols), (2, 3));
    assert_eq!(a.get(1, 2), 6.0);
    assert_eq!(a.matvec(&[1.0, 0.0, -1.0]), vec![-2.0, -2.0]);
    assert_eq!(a.matvec_t(&[1.0, -1.0]), vec![-3.0, -3.0, -3.0]);
    let at = a.transpose();
    assert_eq!(at.get(2, 1), 6.0);
    let g = a.matmul(&at);
    assert_eq!(
        g,
        Matrix::from_rows(vec![vec![14.0, 32.0], vec![32.0, 77.0]]).unwrap()
    );
    assert_eq!(Matrix::identity(2).matmul(&a), a);
    let json = serde_json::to_string(&a).unwrap();
    assert_eq!(serde_json::from_str::<Matrix>(&json).unwrap(), a);
}

// ---------------------------------------------------------------------------------------------
// Mirror maps (BGM24 Fact 2, eq. (7), V_ψ of App. C.1) and the entropic prox

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn lp_mirror_map_properties(
        (x, y, p) in (1usize..=6, prop_oneof![1.05f64..2.0, Just(2.0), 2.0f64..6.0])
            .prop_flat_map(|(d, p)| (vecs(d, 3.0), vecs(d, 3.0), Just(p)))
    ) {
        let q = dual_exponent(p);
        let g = lp_mirror_map_grad(&x, p).unwrap();
        // Fact 2 with equality: ‖∇½‖x‖_p²‖_q = ‖x‖_p, and ⟨∇ψ(x), x⟩ = ‖x‖_p².
        prop_assert!(rel_close(lp_norm(&g, q), lp_norm(&x, p), 1e-12));
        prop_assert!(rel_close(linalg::dot(&g, &x), lp_norm(&x, p).powi(2), 1e-12));
        // Inverse map.
        let back = lp_mirror_map_grad_inv(&g, p).unwrap();
        prop_assert!(linalg::dist2(&back, &x) <= 1e-10 * (1.0 + linalg::norm2(&x)), "{back:?} vs {x:?}");
        // Bregman divergence ≥ 0, and (p−1)-strong convexity w.r.t. ‖·‖_p for p ≤ 2.
        let v = lp_bregman_divergence(&x, &y, p).unwrap();
        prop_assert!(v >= -1e-12);
        if p <= 2.0 {
            let dxy = lp_norm(&linalg::sub(&x, &y), p);
            prop_assert!(v >= 0.5 * (p - 1.0) * dxy * dxy - 1e-10, "V = {v}, bound {}", 0.5 * (p - 1.0) * dxy * dxy);
        }
        // Gradient check by central differences on ψ.
        if linalg::norm2(&x) > 0.5 {
            for i in 0..x.len() {
                let h = 1e-6;
                let mut xp = x.clone();
                let mut xm = x.clone();
                xp[i] += h;
                xm[i] -= h;
                let fd = (half_sq_lp(&xp, p) - half_sq_lp(&xm, p)) / (2.0 * h);
                prop_assert!((fd - g[i]).abs() <= 1e-5 * (1.0 + g[i].abs()), "i={i}: fd {fd} vs {}", g[i]);
            }
        }
    }

    #[test]
    fn entropy_prox_properties(
        (x0, g, u0, eta) in (1usize..=6).prop_flat_map(|d| (vecs(d, 3.0), vecs(d, 5.0), vecs(d, 3.0), 0.0f64..4.0))
    ) {
        let simplex = Domain::simplex(x0.len()).unwrap();
        // A strictly positive point of the simplex.
        let x: Vec<f64> = simplex.project(&x0).iter().map(|v| 0.9 * v + 0.1 / x0.len() as f64).collect();
        let u = entropy_prox(&x, &g, eta).unwrap();
        prop_assert!(simplex.contains(&u, 1e-12));
        // Matches the naive formula.
        let w: Vec<f64> = x.iter().zip(&g).map(|(xi, gi)| xi * (-eta * gi).exp()).collect();
        let s: f64 = w.iter().sum();
        for i in 0..u.len() {
            prop_assert!((u[i] - w[i] / s).abs() <= 1e-12);
        }
        // It minimizes η⟨g,v⟩ + KL(v‖x) over the simplex (against projected random points).
        let obj = |v: &[f64]| {
            let mut f = eta * linalg::dot(&g, v);
            for i in 0..v.len() {
                if v[i] > 0.0 { f += v[i] * (v[i] / x[i]).ln(); }
            }
            f
        };
        let v = simplex.project(&u0);
        prop_assert!(obj(&u) <= obj(&v) + 1e-10);
        // η = 0 returns x.
        let same = entropy_prox(&x, &g, 0.0).unwrap();
        prop_assert!(linalg::dist2(&same, &x) <= 1e-15);
    }
}

// ---------------------------------------------------------------------------------------------
// Bad input

#[test]
fn bad_domains_name_the_field() {
    let cases: Vec<(Result<Domain, Error>, &str)> = vec![
        (Domain::ball(vec![0.0], -1.0), "radius"),
        (Domain::ball(vec![0.0], f64::NAN), "radius"),
        (Domain::ball(vec![0.0], INF), "radius"),
        (Domain::ball(vec![], 1.0), "center"),
        (Domain::ball(vec![0.0, f64::NAN], 1.0), "center[1]"),
        (Domain::new_box(vec![0.0, 2.0], vec![1.0, 1.0]), "lo[1]"),
        (Domain::new_box(vec![0.0, 0.0], vec![1.0]), "hi"),
        (Domain::new_box(vec![], vec![]), "lo"),
        (Domain::new_box(vec![f64::NAN], vec![1.0]), "lo[0]"),
        (Domain::new_box(vec![0.0], vec![INF]), "hi[0]"),
        (Domain::simplex(0), "dim"),
        (Domain::lp_ball(0.5, vec![0.0], 1.0), "p"),
        (Domain::lp_ball(f64::NAN, vec![0.0], 1.0), "p"),
        (Domain::lp_ball(3.0, vec![0.0], -0.1), "radius"),
        (Domain::lp_ball(3.0, vec![f64::NAN], 1.0), "center[0]"),
        (Domain::product(vec![]), "product"),
        (
            Domain::product(vec![
                Domain::Simplex { dim: 2 },
                Domain::Ball {
                    center: vec![0.0],
                    radius: -1.0,
                },
            ]),
            "product[1].radius",
        ),
    ];
    for (res, field) in cases {
        assert_eq!(field_of(res.unwrap_err()), field);
    }
}

#[test]
fn bad_json_is_rejected_with_the_field() {
    let cases = [
        (r#"{"ball":{"center":[0,0],"radius":-1}}"#, "radius"),
        (r#"{"box":{"lo":[0,2],"hi":[1,1]}}"#, "lo[1]"),
        (r#"{"box":{"lo":[0,0],"hi":[1]}}"#, "hi"),
        (r#"{"simplex":{"dim":0}}"#, "dim"),
        (r#"{"lp_ball":{"p":0.5,"center":[0],"radius":1}}"#, "p"),
        (r#"{"product":[]}"#, "product"),
        (r#"{"ball":{"center":[0],"radius":1,"extra":1}}"#, "extra"),
        (r#"{"lp_ball":{"p":"two","center":[0],"radius":1}}"#, "p"),
    ];
    for (json, field) in cases {
        let err = serde_json::from_str::<Domain>(json)
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{json}: {err}");
    }
    // Valid JSON parses, including p = "inf".
    let d: Domain =
        serde_json::from_str(r#"{"lp_ball":{"p":"inf","center":[1,2],"radius":0.5}}"#).unwrap();
    assert_eq!(d, Domain::lp_ball(INF, vec![1.0, 2.0], 0.5).unwrap());
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn domain_json_round_trip((dom, _pts) in domain_and_points(0)) {
        let s = serde_json::to_string(&dom).unwrap();
        let back: Domain = serde_json::from_str(&s).unwrap();
        prop_assert_eq!(back, dom);
    }
}
