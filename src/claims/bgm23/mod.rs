//! BGM23 (Bassily, Guzmán, Menart, COLT 2023): the items the shared core implements; §5 and
//! Lemmas 6–7 in [`section5`].

pub mod noisy;
pub mod rates;
pub mod recursive;
pub mod section5;
pub mod sgda;

use crate::algorithms::{Algorithm, RegularizedSaddlePoint};
use crate::claims::{BoundCheck, Budget, Claim, Evidence, Kind};
use crate::error::Result;
use crate::exact::{self, BigRational};
use crate::gap::gap_function;
use crate::geometry::Domain;
use crate::instances::{self, Instance};
use crate::linalg::{self, Matrix};
use crate::papers::bgm23::bounds::{fact1_bound, lemma2_stability_exact};
use crate::papers::bgm23::lin_box;
use crate::problem::{objective_value, Dataset, FiniteDist, Objective, QuadBilinear, Regularizer};
use crate::rng::{NoiseSource, Stream};
use crate::solve::{saddle_point, SolveOptions};
use crate::stability::{sensitivity, uas_over_support};
use num_traits::{ToPrimitive, Zero};

/// The BGM23 claims.
pub fn claims() -> Vec<Claim> {
    let mut v = core_claims();
    v.extend(section5::claims());
    v.extend(sgda::claims());
    v.extend(recursive::claims());
    v.extend(rates::claims());
    v.extend(noisy::claims());
    v.extend(noisy::thm22_claims());
    v
}

fn core_claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bgm23.fact1",
            paper: "BGM23",
            item: "Fact 1",
            statement: "If f is L-Lipschitz (jointly in [w, θ]) then the gap function Ĝap is √2·L-Lipschitz; \
                        the √2 is nearly attained (COS instance, ratio 1/√(1 + ε²)).",
            kind: Kind::Exact,
            code: "gap::gap_function, papers::bgm23::bounds::fact1_bound",
            check: check_fact1,
        },
        Claim {
            id: "bgm23.def1",
            paper: "BGM23",
            item: "Definition 1",
            statement: "Uniform argument stability Δ = sup over replace-one neighbours S ≃ S′ of E_A‖A(S) − A(S′)‖: \
                        for permutation-invariant A the sup over all datasets of a finite support equals the sup \
                        over count vectors (the crate's shortcut), checked against brute force over every sequence \
                        and every replaced position; with coupled seeds the noise of output perturbation cancels.",
            kind: Kind::Exact,
            code: "stability::{uniform_argument_stability, uas_over_support}",
            check: check_def1,
        },
        Claim {
            id: "bgm23.lemma2",
            paper: "BGM23",
            item: "Lemma 2",
            statement: "The saddle point of F_S + (λ/2)‖w − ŵ‖² − (λ/2)‖θ − θ̂‖² (eq. (4)) is \
                        2L/(λn)-uniformly argument stable; the bound is attained (x′ = −x, interior solution).",
            kind: Kind::Enumerated,
            code: "algorithms::RegularizedSaddlePoint, stability::uas_over_support, papers::bgm23::lin_box, papers::bgm23::bounds::lemma2_stability_exact",
            check: check_lemma2,
        },
        Claim {
            id: "bgm23.lemma3",
            paper: "BGM23",
            item: "Lemma 3",
            statement: "For λ-SC/SC h with saddle point z*: ‖z − z*‖² ≤ 2(h(w, θ*) − h(w*, θ))/λ ≤ (2/λ)·Ĝap^h(z) \
                        for every z ∈ W×Θ; both are equalities for a pure quadratic with interior anchors.",
            kind: Kind::Exact,
            code: "solve::{saddle_point, Certified}, gap::gap_function",
            check: check_lemma3,
        },
    ]
}

/// Two points (w₁, θ₁), (w₂, θ₂).
type PointPair = (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>);

/// Fact 1 on sampled pairs of five instances, plus the COS pair. Negative control: the claim
/// "Ĝap is L-Lipschitz" (no √2) on the same pairs.
fn check_fact1(b: Budget) -> Result<Evidence> {
    let per = if b == Budget::Full { 20_000 } else { 1_500 };
    let mut main = BoundCheck::new(1e-12, 1e-13);
    let mut ctrl = BoundCheck::new(1e-12, 1e-13);
    let eps = 0.01;
    let insts: Vec<Instance> = vec![
        instances::lin_box(0.0),
        instances::lin_box(0.5),
        instances::lin_ball(11),
        instances::p13(),
        instances::cos(eps),
        instances::abs_sep(0.5),
    ];
    let mut tight = None;
    for (k, inst) in insts.iter().enumerate() {
        let f = inst.f.as_ref();
        let obj = Objective::population(&inst.dist);
        let l = inst.lipschitz();
        let gap = |w: &[f64], t: &[f64]| gap_function(f, &obj, w, t).map(|g| g.gap);
        let mut s = Stream::new(k as u64, "claims/bgm23.fact1/pairs");
        let mut pairs: Vec<PointPair> = Vec::new();
        if k == 4 {
            let h = std::f64::consts::FRAC_PI_2;
            pairs.push((vec![h], vec![0.0], vec![h + eps], vec![eps]));
        }
        for _ in 0..per {
            let w1 = instances::sample_point(f.domain_w(), &mut s);
            let t1 = instances::sample_point(f.domain_theta(), &mut s);
            // Half the pairs are close (where the local slope shows), half far.
            let (w2, t2) = if s.uniform() < 0.5 {
                let r = 1e-3;
                let w2: Vec<f64> = w1.iter().map(|x| x + r * s.normal()).collect();
                let t2: Vec<f64> = t1.iter().map(|x| x + r * s.normal()).collect();
                (f.domain_w().project(&w2), f.domain_theta().project(&t2))
            } else {
                (
                    instances::sample_point(f.domain_w(), &mut s),
                    instances::sample_point(f.domain_theta(), &mut s),
                )
            };
            pairs.push((w1, t1, w2, t2));
        }
        for (j, (w1, t1, w2, t2)) in pairs.iter().enumerate() {
            let dz = linalg::norm2(&linalg::sub(
                &linalg::concat(w1, t1),
                &linalg::concat(w2, t2),
            ));
            if dz == 0.0 {
                continue;
            }
            let dg = (gap(w1, t1)? - gap(w2, t2)?).abs();
            let label = format!("{} pair {j}", inst.name);
            main.observe(dg, fact1_bound(l, dz), label.clone());
            ctrl.observe(dg, l * dz, label);
            if k == 4 && j == 0 {
                tight = Some(dg / fact1_bound(l, dz));
            }
        }
    }
    let t = tight.expect("COS pair evaluated");
    // The plot: the COS pair's ratio against ε (the asserted ε = 0.01 reused; the others are the
    // same pair on the instance of that ε). A point that cannot be evaluated is left out.
    let cos_ratio = |e: f64| -> Option<f64> {
        let inst = instances::cos(e);
        let obj = Objective::population(&inst.dist);
        let f = inst.f.as_ref();
        let h = std::f64::consts::FRAC_PI_2;
        let g1 = gap_function(f, &obj, &[h], &[0.0]).ok()?.gap;
        let g2 = gap_function(f, &obj, &[h + e], &[e]).ok()?.gap;
        Some((g1 - g2).abs() / fact1_bound(inst.lipschitz(), e * std::f64::consts::SQRT_2))
    };
    let mut sweep = vec![(eps, t)];
    sweep.extend(
        [0.001, 0.003, 0.03, 0.1, 0.3]
            .iter()
            .filter_map(|&e| cos_ratio(e).map(|r| (e, r))),
    );
    Ok(Evidence::from_checks(&main, Some(("Ĝap is L-Lipschitz (√2 dropped)", &ctrl)))
        .with_tight(t, 1e-3)
        .with_series(crate::claims::Series::ratio(
            "BGM23 Fact 1, COS pair (π/2, 0)–(π/2 + ε, ε): |ΔĜap|/(√2·L·‖Δz‖) against ε (theory 1/√(1 + ε²))",
            "ε",
            "|Ĝap(z) − Ĝap(z′)|/(√2·L·‖z − z′‖)",
            sweep,
            true,
        ))
        .note(format!(
            "COS pair (π/2, 0)–(π/2+ε, ε), ε = {eps}: |ΔĜap|/(√2 L‖Δz‖) = {t:.6} (theory 1/√(1+ε²) = {:.6})",
            1.0 / (1.0 + eps * eps).sqrt()
        )))
}

fn r(a: i64, b: i64) -> BigRational {
    exact::rat(a, b)
}

/// Lemma 2 in exact rationals on LIN-box (c = 0, L = 1, three unit atoms) over every count
/// vector and every replace-one move, then in floats with the certified solver on coupled
/// families. Negative control: the bound with λ overstated by 2 (i.e. L/(λn)).
fn check_lemma2(b: Budget) -> Result<Evidence> {
    let nmax = if b == Budget::Full { 12 } else { 7 };
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let atoms = vec![
        (r(3, 5), r(4, 5)),
        (r(-3, 5), r(-4, 5)),
        (r(5, 13), r(-12, 13)),
    ];
    let lambdas = [r(1, 4), r(1, 2), r(1, 1), r(2, 1)];
    let anchors = [
        (r(0, 1), r(0, 1)),
        (r(1, 10), r(-1, 5)),
        (r(-3, 10), r(2, 5)),
    ];
    let l = r(1, 1);
    // The tight family for the report's plot: λ = 2, anchors 0, the worst ratio over every
    // replace-one move at each n (1 when x → −x keeps the solution interior).
    let mut sweep: (Vec<f64>, Vec<f64>) = (vec![], vec![]);
    for lam in &lambdas {
        for (aw, at) in &anchors {
            let plotted = *lam == r(2, 1) && aw.is_zero() && at.is_zero();
            for n in 1..=nmax {
                let mut worst_at_n: f64 = 0.0;
                let bound = lemma2_stability_exact(&l, lam, n as u64);
                let ctrl_bound = &bound / r(2, 1);
                let z_of = |c: &[usize]| {
                    let (ab, bb) = lin_box::mean(&atoms, c);
                    lin_box::reg_saddle(&ab, &bb, lam, aw, at)
                };
                for mv in exact::replace_one_moves(n, atoms.len()) {
                    let (z, z2) = (z_of(&mv.counts), z_of(&mv.neighbour));
                    let d2 = (&z.0 - &z2.0) * (&z.0 - &z2.0) + (&z.1 - &z2.1) * (&z.1 - &z2.1);
                    let ratio = (d2.to_f64().unwrap_or(f64::NAN)).sqrt()
                        / bound.to_f64().unwrap_or(f64::NAN);
                    let (c, a, bb_i) = (&mv.counts, mv.from, mv.to);
                    let label = format!(
                        "exact lin_box λ={lam} anchor=({aw},{at}) counts={c:?} move {a}→{bb_i}"
                    );
                    main.observe_exact(d2 <= &bound * &bound, Some(ratio), label.clone());
                    ctrl.observe_exact(d2 <= &ctrl_bound * &ctrl_bound, Some(2.0 * ratio), label);
                    worst_at_n = worst_at_n.max(ratio);
                }
                if plotted {
                    sweep.0.push(n as f64);
                    sweep.1.push(worst_at_n);
                }
            }
        }
    }
    // The tight instance: n = 5, λ = 2, anchors 0, S = five copies of (3/5, 4/5), one replaced by
    // its negative: ‖Δz‖ = 2L/(λn) = 1/5 exactly (in rationals).
    let s = vec![5usize, 0, 0];
    let s2 = vec![4usize, 1, 0];
    let zero = BigRational::zero();
    let (z, z2) = {
        let m = lin_box::mean(&atoms, &s);
        let m2 = lin_box::mean(&atoms, &s2);
        (
            lin_box::reg_saddle(&m.0, &m.1, &r(2, 1), &zero, &zero),
            lin_box::reg_saddle(&m2.0, &m2.1, &r(2, 1), &zero, &zero),
        )
    };
    let d2 = (&z.0 - &z2.0) * (&z.0 - &z2.0) + (&z.1 - &z2.1) * (&z.1 - &z2.1);
    let exact_tight = d2 == r(1, 25);
    // The production path on the same instance: `RegularizedSaddlePoint` (certified solver) and
    // `uas_over_support` over every dataset of size 5 on the three atoms; Δ must EQUAL the exact
    // 1/5 to PIN_TOL (and so the bound 2L/(λn)).
    let f0 = QuadBilinear::lin_box(0.0)?;
    let fatoms: Vec<Vec<f64>> = atoms.iter().map(|(a, b)| vec![fq(a), fq(b)]).collect();
    let tight_alg = RegularizedSaddlePoint {
        lambda: 2.0,
        anchor_w: vec![0.0],
        anchor_theta: vec![0.0],
    };
    let rep = uas_over_support(&tight_alg, &f0, &fatoms, 5, &[0])?;
    let tight_bound = tight_alg.stability_bound(1.0, 5);
    let tight_dev = (rep.delta - fq(&d2).sqrt()).abs();
    let tight_ratio = rep.delta / tight_bound;
    // The same Δ as the ℓ2 sensitivity of the deterministic statistic S ↦ z(S) at S = five copies
    // of the first atom (`stability::sensitivity`, the generic replace-one sensitivity): its worst
    // neighbour replaces a copy by the negated atom, so it too must equal 1/5 exactly.
    let s_tight = Dataset::new(vec![fatoms[0].clone(); 5])?;
    let sens = sensitivity(
        |d: &Dataset| Ok(tight_alg.run(&f0, d, &mut NoiseSource::sample(0))?.z()),
        &s_tight,
        &fatoms,
    )?;
    let sens_dev = (sens - 0.2).abs();
    ctrl.observe(
        rep.delta,
        tight_bound / 2.0,
        "tight instance (production Δ)",
    );
    // Pin: RegularizedSaddlePoint's output against eq. (4)'s exact saddle point on every count
    // vector. Control: the same comparison for a regularizer with coefficient λ in place of λ/2
    // (i.e. the algorithm run with 2λ), which must be caught.
    let (pin, pin_ctrl) = lemma2_pin(b, &atoms, &fatoms, &f0)?;
    // Floats: certified solver on coupled families, every dataset of size n on the support.
    let nf = if b == Budget::Full { 4 } else { 3 };
    let mut float = BoundCheck::new(1e-9, 1e-7);
    for inst in [
        instances::lin_box(0.5),
        instances::lin_ball(5),
        instances::abs_sep(0.9),
    ] {
        let f = inst.f.as_ref();
        let l = inst.lipschitz();
        for lam in [0.5, 2.0] {
            let alg = RegularizedSaddlePoint {
                lambda: lam,
                anchor_w: f.domain_w().center(),
                anchor_theta: f.domain_theta().center(),
            };
            for n in 1..=nf {
                let rep = uas_over_support(&alg, f, &inst.dist.atoms, n, &[0])?;
                let bound = alg.stability_bound(l, n);
                let label = format!(
                    "{} λ={lam} n={n}, worst at {}",
                    inst.name,
                    neighbour_text(rep.worst.as_ref())
                );
                float.observe(rep.delta, bound, label.clone());
                ctrl.observe(rep.delta, bound / 2.0, label);
            }
        }
    }
    let mut ev = Evidence::from_checks(&main, Some(("λ overstated ×2 (bound L/(λn))", &ctrl)));
    let pin_caught = !pin_ctrl.pass();
    ev.pass = main.pass()
        && float.pass()
        && pin.pass()
        && exact_tight
        && tight_dev <= PIN_TOL
        && sens_dev <= PIN_TOL
        && pin_caught;
    ev.instances = main.instances + float.instances + pin.instances + 1;
    if let Some(v) = &pin.first_violation {
        ev = ev.note(format!("production pin violation: {v}"));
    }
    if !pin_caught {
        ev = ev.note(
            "production-pin control NOT caught: the wrong-coefficient regularizer matched eq. (4)",
        );
    }
    Ok(ev
        .with_tight(tight_ratio, 10.0 * PIN_TOL)
        .with_series(crate::claims::Series {
            kind: crate::claims::SeriesKind::Ratio,
            title: "BGM23 Lemma 2, lin_box, λ = 2, anchors 0: max over replace-one moves of ‖Δz‖/(2L/(λn)) against n".into(),
            x_label: "n".into(),
            y_label: "‖z(S) − z(S′)‖/(2L/(λn)), exact".into(),
            x: sweep.0,
            y: sweep.1,
            y_se: vec![],
            bound: vec![],
            fit: None,
            log_x: false,
        })
        .note(format!(
            "exact (rational) instances: {}, worst ratio {:?}; float (certified solver) instances: {}, worst ratio {:?} at {}",
            main.instances, main.worst_ratio, float.instances, float.worst_ratio, float.worst_at
        ))
        .note(format!(
            "production pin: RegularizedSaddlePoint vs eq. (4)'s exact saddle point (papers::bgm23::lin_box) on {} count vectors, \
             equality to {PIN_TOL:e} per coordinate: worst deviation {:.2e} ({} violations)",
            pin.instances,
            pin.worst_ratio.unwrap_or(f64::NAN) * PIN_TOL,
            pin.violations
        ))
        .note(format!(
            "production-pin control (regularizer coefficient λ instead of λ/2, i.e. RegularizedSaddlePoint at 2λ): \
             worst deviation {:.3e} = {:.0}× the tolerance, {} of {} count vectors caught",
            pin_ctrl.worst_ratio.unwrap_or(f64::NAN) * PIN_TOL,
            pin_ctrl.worst_ratio.unwrap_or(f64::NAN),
            pin_ctrl.violations,
            pin_ctrl.instances
        ))
        .note(format!(
            "tight instance (n=5, λ=2, x→−x): exact ‖Δz‖² = {d2} (exactly 1/25: {exact_tight}); production Δ (uas_over_support over \
             every dataset of size 5) = {:.12} at {}, |Δ − 1/5| = {tight_dev:.2e} (≤ {PIN_TOL:e}); \
             stability::sensitivity of S ↦ z(S) at five copies of the first atom = {sens:.12}, \
             |· − 1/5| = {sens_dev:.2e} (≤ {PIN_TOL:e})",
            rep.delta,
            neighbour_text(rep.worst.as_ref())
        )))
}

/// A replace-one neighbour in words, e.g. "the dataset with atom counts (1, 1, 3), point 1
/// replaced by atom 0" (atoms and points numbered from 0).
fn neighbour_text(n: Option<&crate::stability::Neighbour>) -> String {
    match n {
        None => "no neighbour pair".into(),
        Some(n) => {
            let data = match &n.counts {
                Some(c) => format!(
                    "the dataset with atom counts ({})",
                    c.iter()
                        .map(|k| k.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None => "the dataset".into(),
            };
            format!("{data}, point {} replaced by atom {}", n.i, n.atom)
        }
    }
}

/// Tolerance of the production pins: a coordinate of `RegularizedSaddlePoint`'s output may differ
/// from the exact saddle point by at most this (the certified solver's default accuracy is far
/// finer; a wrong coefficient in eq. (4) moves the output by ~|ā|/(2λ) ≥ 1e-2 on LIN-box).
const PIN_TOL: f64 = 1e-7;

fn fq(x: &BigRational) -> f64 {
    x.to_f64().unwrap_or(f64::NAN)
}

/// Runs `RegularizedSaddlePoint` on LIN-box (c = 0) on every count vector of size n ≤ nmax over
/// the three atoms, λ ∈ {1/4, 1/2, 1, 2}, three anchors, and compares each output with the exact
/// rational saddle point of eq. (4) (equality to PIN_TOL, ratio = deviation/PIN_TOL). The second
/// check is the control: the algorithm run at 2λ (a regularizer (λ)‖·‖² in place of (λ/2)‖·‖²)
/// against the exact saddle point at λ.
fn lemma2_pin(
    b: Budget,
    atoms: &[(BigRational, BigRational)],
    fatoms: &[Vec<f64>],
    f0: &QuadBilinear,
) -> Result<(BoundCheck, BoundCheck)> {
    use crate::algorithms::Algorithm;
    use crate::problem::Dataset;
    let nmax = if b == Budget::Full { 6 } else { 3 };
    let mut pin = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let lambdas = [
        (r(1, 4), 0.25),
        (r(1, 2), 0.5),
        (r(1, 1), 1.0),
        (r(2, 1), 2.0),
    ];
    let anchors = [
        (r(0, 1), r(0, 1), 0.0, 0.0),
        (r(1, 10), r(-1, 5), 0.1, -0.2),
        (r(-3, 10), r(2, 5), -0.3, 0.4),
    ];
    for (lq, lf) in &lambdas {
        for (awq, atq, awf, atf) in &anchors {
            let alg = RegularizedSaddlePoint {
                lambda: *lf,
                anchor_w: vec![*awf],
                anchor_theta: vec![*atf],
            };
            let wrong = RegularizedSaddlePoint {
                lambda: 2.0 * lf,
                ..alg.clone()
            };
            for n in 1..=nmax {
                for c in exact::count_vectors(n, atoms.len()) {
                    let (ab, bb) = lin_box::mean(atoms, &c);
                    let (we, te) = lin_box::reg_saddle(&ab, &bb, lq, awq, atq);
                    let s = Dataset::new(crate::exact::dataset_points(fatoms, &c))?;
                    let dev = |o: &crate::algorithms::Output| {
                        (o.w[0] - fq(&we)).abs().max((o.theta[0] - fq(&te)).abs())
                    };
                    let label = format!("λ={lq} anchor=({awq},{atq}) counts={c:?}");
                    let o = alg.run(f0, &s, &mut NoiseSource::sample(0))?;
                    pin.observe(dev(&o) / PIN_TOL, 1.0, label.clone());
                    let o2 = wrong.run(f0, &s, &mut NoiseSource::sample(0))?;
                    ctrl.observe(dev(&o2) / PIN_TOL, 1.0, label);
                }
            }
        }
    }
    Ok((pin, ctrl))
}

/// Lemma 3: on the pure quadratic (equality), on LIN-ball with coupling and on the non-smooth
/// family. Negative control: 1/λ in place of 2/λ.
fn check_lemma3(b: Budget) -> Result<Evidence> {
    let per = if b == Budget::Full { 5000 } else { 400 };
    let mut first = BoundCheck::new(1e-9, 1e-9);
    let mut second = BoundCheck::new(1e-9, 1e-12);
    let mut ctrl = BoundCheck::new(1e-9, 1e-9);
    let mut tight_worst_dev = 0.0f64;
    // The plot: the first inequality's ratio on the first 16 points of each pure quadratic.
    let mut plot: Vec<(f64, f64)> = Vec::new();
    let mut cases: Vec<(Instance, f64, bool)> = Vec::new();
    // Pure quadratic: zero data, C = 0, anchors interior.
    let quad = QuadBilinear::data_affine(
        Domain::Ball {
            center: vec![0.0, 0.0],
            radius: 1.0,
        },
        Domain::Ball {
            center: vec![0.0, 0.0],
            radius: 1.0,
        },
        Matrix::zeros(2, 2),
        0.0,
        0.0,
    )?;
    for lam in [0.5, 2.0] {
        cases.push((
            Instance {
                name: format!("pure quadratic λ={lam}"),
                f: Box::new(quad.clone()),
                dist: FiniteDist::new(vec![vec![0.0; 4]], vec![1.0])?,
            },
            lam,
            true,
        ));
    }
    cases.push((instances::lin_ball(13), 0.7, false));
    cases.push((instances::abs_sep(0.7), 1.5, false));
    cases.push((instances::lin_box(0.5), 0.4, false));
    for (k, (inst, lam, is_tight)) in cases.iter().enumerate() {
        let f = inst.f.as_ref();
        let (aw, at) = if *is_tight {
            (vec![0.3, -0.1], vec![-0.2, 0.25])
        } else {
            (f.domain_w().center(), f.domain_theta().center())
        };
        let obj =
            Objective::population(&inst.dist).with_reg(Regularizer::bgm23_eq4(*lam, &aw, &at));
        // z*: in closed form for the pure quadratic (the anchors, interior), else certified, in
        // which case ‖z − z*‖ is known to within the certificate's distance bound db.
        let (zw, zt, db) = if *is_tight {
            (aw.clone(), at.clone(), 0.0)
        } else {
            let cert = saddle_point(f, &obj, &SolveOptions::default())?;
            let db = cert.dist_bound.unwrap_or(0.0);
            (cert.w, cert.theta, db)
        };
        let mut s = Stream::new(k as u64, "claims/bgm23.lemma3/points");
        for j in 0..per {
            let w = instances::sample_point(f.domain_w(), &mut s);
            let t = instances::sample_point(f.domain_theta(), &mut s);
            let dist = linalg::norm2(&linalg::sub(
                &linalg::concat(&w, &t),
                &linalg::concat(&zw, &zt),
            ));
            // ‖z − z*‖² with z* known to within db: use the smallest value consistent with it.
            let d2 = (dist - db).max(0.0).powi(2);
            let mid =
                2.0 * (objective_value(f, &obj, &w, &zt) - objective_value(f, &obj, &zw, &t)) / lam;
            let g = gap_function(f, &obj, &w, &t)?.gap;
            let label = format!("{} point {j}", inst.name);
            first.observe(d2, mid, label.clone());
            second.observe(mid, 2.0 * g / lam, label.clone());
            ctrl.observe(d2, mid / 2.0, label);
            if *is_tight && mid > 1e-8 && j < 16 {
                plot.push((dist, d2 / mid));
            }
            if *is_tight && mid > 1e-8 {
                tight_worst_dev = tight_worst_dev
                    .max((d2 / mid - 1.0).abs())
                    .max((mid / (2.0 * g / lam) - 1.0).abs());
            }
        }
    }
    let mut ev = Evidence::from_checks(&first, Some(("constant 1/λ in place of 2/λ", &ctrl)));
    ev.pass = first.pass() && second.pass();
    ev.instances = first.instances;
    Ok(ev
        .with_tight(1.0 + tight_worst_dev, 1e-9)
        .with_series(crate::claims::Series::ratio(
            "BGM23 Lemma 3, pure quadratic (λ = 0.5 and 2, anchors interior): ‖z − z*‖²/((2/λ)(f(w, θ*) − f(w*, θ))) against ‖z − z*‖",
            "‖z − z*‖ (sampled points)",
            "‖z − z*‖²/((2/λ)(f(w, θ*) − f(w*, θ)))",
            plot,
            false,
        ))
        .note(format!(
        "first inequality worst ratio {:?}; second inequality worst ratio {:?} at {}",
        first.worst_ratio, second.worst_ratio, second.worst_at
    )))
}

/// Def 1: Δ by brute force over every sequence in support^n and every replace-one move, against
/// the count-vector shortcut. Negative control: output perturbation measured with independent
/// seeds for S and S′.
fn check_def1(b: Budget) -> Result<Evidence> {
    use crate::algorithms::{Algorithm, OutputPerturbation};
    use crate::problem::Dataset;
    use crate::stability::uniform_argument_stability;
    let f = QuadBilinear::lin_box(0.5)?;
    let support = vec![
        vec![0.6, 0.8],
        vec![-0.6, -0.8],
        vec![5.0 / 13.0, -12.0 / 13.0],
    ];
    let nmax = if b == Budget::Full { 5 } else { 4 };
    let mut main = BoundCheck::new(1e-12, 1e-15);
    let mut ctrl = BoundCheck::new(1e-12, 1e-15);
    // Brute force, computed here without the crate's stability module: every sequence in
    // support^n, every position i and every other atom, one run each on S and S′ with the same
    // seed, the distance written out for the 1-D blocks.
    let brute = |alg: &dyn Algorithm, n: usize| -> Result<f64> {
        let mut best: f64 = 0.0;
        for seq in exact::sequences(n, support.len()) {
            let s = Dataset::new(seq.iter().map(|&i| support[i].clone()).collect())?;
            let a = alg.run(&f, &s, &mut NoiseSource::sample(3))?;
            for (i, &si) in seq.iter().enumerate() {
                for (j, x) in support.iter().enumerate() {
                    if j == si {
                        continue;
                    }
                    let c = alg.run(&f, &s.replace_one(i, x)?, &mut NoiseSource::sample(3))?;
                    let (dw, dt) = (a.w[0] - c.w[0], a.theta[0] - c.theta[0]);
                    best = best.max((dw * dw + dt * dt).sqrt());
                }
            }
        }
        Ok(best)
    };
    // The crate's per-dataset sup (`uniform_argument_stability`) agrees with the brute force on
    // the sequence maximizing it (checked on the first sequence of each n too).
    let mut per_dataset = BoundCheck::new(1e-12, 1e-15);
    for n in 2..=nmax {
        let reg = RegularizedSaddlePoint {
            lambda: 0.5,
            anchor_w: vec![0.1],
            anchor_theta: vec![0.0],
        };
        let op = OutputPerturbation {
            base: reg.clone(),
            epsilon: 1.0,
            delta: 1e-5,
            lipschitz: 1.0,
        };
        for (name, alg) in [
            ("regularized saddle point", &reg as &dyn Algorithm),
            ("output perturbation (coupled seeds)", &op),
        ] {
            let bf = brute(alg, n)?;
            let sc = uas_over_support(alg, &f, &support, n, &[3])?.delta;
            // Equality both ways: shortcut ≤ brute force and brute force ≤ shortcut.
            main.observe(bf, sc, format!("{name}, n = {n}: brute ≤ shortcut"));
            main.observe(sc, bf, format!("{name}, n = {n}: shortcut ≤ brute"));
            let s0 = Dataset::new(vec![support[0].clone(); n])?;
            let by_crate = uniform_argument_stability(alg, &f, &s0, &support, &[3])?.delta;
            let mut by_hand: f64 = 0.0;
            let a = alg.run(&f, &s0, &mut NoiseSource::sample(3))?;
            for x in &support[1..] {
                let c = alg.run(&f, &s0.replace_one(0, x)?, &mut NoiseSource::sample(3))?;
                let (dw, dt) = (a.w[0] - c.w[0], a.theta[0] - c.theta[0]);
                by_hand = by_hand.max((dw * dw + dt * dt).sqrt());
            }
            per_dataset.observe(
                by_crate,
                by_hand,
                format!("{name}, n = {n}: S = (x₁)ⁿ, crate ≤ hand"),
            );
            per_dataset.observe(
                by_hand,
                by_crate,
                format!("{name}, n = {n}: S = (x₁)ⁿ, hand ≤ crate"),
            );
        }
        // Coupled seeds: the noise cancels and projection is non-expansive, so output
        // perturbation's Δ is at most the base algorithm's. Control: independent seeds for S and
        // S′ (the noise no longer cancels).
        let d_reg = uas_over_support(&reg, &f, &support, n, &[3])?.delta;
        let d_op = uas_over_support(&op, &f, &support, n, &[3, 4, 5])?.delta;
        main.observe(
            d_op,
            d_reg,
            format!("n = {n}: Δ(output perturbation, coupled) ≤ Δ(base)"),
        );
        let s1 = Dataset::new(vec![support[0].clone(); n])?;
        let s2 = s1.replace_one(0, &support[1])?;
        let mut acc = 0.0;
        for seed in 0..20u64 {
            let a = op.run(&f, &s1, &mut NoiseSource::sample(seed))?;
            let c = op.run(&f, &s2, &mut NoiseSource::sample(seed + 1000))?;
            acc += linalg::norm2(&linalg::sub(&a.z(), &c.z()));
        }
        ctrl.observe(acc / 20.0, d_reg, format!("n = {n}: independent seeds"));
    }
    let mut ev = Evidence::from_checks(
        &main,
        Some((
            "output perturbation with independent seeds for S and S′",
            &ctrl,
        )),
    );
    ev.pass = ev.pass && per_dataset.pass();
    ev.instances += per_dataset.instances;
    Ok(ev.note(format!(
        "brute force computed without stability::* (its own runs and distance); uniform_argument_stability \
         against the same hand computation on S = (x₁)ⁿ: {} comparisons, {} violations",
        per_dataset.instances, per_dataset.violations
    )))
}
