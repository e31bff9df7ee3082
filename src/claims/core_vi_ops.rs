//! Claims about the VI core's operator families and VI gaps (issue 14, items 1–2): the exact
//! constants (BG23 §2's class M¹_W(M, L)), the closed-form VI gap against an independent
//! maximization, the two weak-gap flavours (BG23 eq. (1.2) vs the expectation-inside one), the
//! Monte Carlo weak-gap interval's coverage, and BG23 eq. (5.1)'s ν-certificate.

use super::{BoundCheck, Budget, Claim, Evidence, Kind};
use crate::error::{Error, Result};
use crate::gap::vi::{
    flatten_seeds, strong_vi_gap, weak_vi_gap_bg23, weak_vi_gap_bg23_mc,
    weak_vi_gap_expectation_inside, weak_vi_gap_mc, SeedOutputs, ViOutput,
};
use crate::geometry::Domain;
use crate::instances::{self, ViInstance};
use crate::linalg::{self, Matrix};
use crate::problem::monotone::{
    box_bounds, mean_operator, nu_certificate, stampacchia_gap, AffineOp, DataAffineOp, MonotoneOp,
    RegularizedOp, SaddleOperator,
};
use crate::problem::{Mixture, QuadBilinear};
use crate::rng::Stream;

/// The claims of this file.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "core.vi_op_constants",
            paper: "BG23",
            item: "§2, the class M¹_W(M, L) (L-Lipschitz, M-bounded, monotone)",
            statement: "The declared constants of the data-affine families (RotIso on balls and boxes, \
                        diagonal boxes, constant operators, QuadBilinear saddle operators) are valid and \
                        attained: no sampled pair exceeds L, no sampled point or box vertex exceeds M, \
                        ⟨G(z) − G(z′), z − z′⟩ ≥ μ‖z − z′‖², and L and M are reached (ratio 1).",
            kind: Kind::Exact,
            code: "problem::monotone::DataAffineOp::constants, problem::monotone::ConstantOp",
            check: check_constants,
        },
        Claim {
            id: "core.vi_gap_closed_form",
            paper: "BG23",
            item: "eq. (1.1)'s integrand sup_u ⟨F(u), z − u⟩",
            statement: "The closed-form VI gap (isotropic symmetric part on any projectable domain, \
                        diagonal on boxes) lies in a certified interval computed independently from \
                        operator evaluations only (projected gradient ascent, Frank–Wolfe upper bound) \
                        on rotations (ball, box), RotIso, diagonal boxes, constant operators and \
                        QuadBilinear saddle operators; the non-closed-form cases answer Unsupported.",
            kind: Kind::Exact,
            code: "problem::monotone::affine_vi_gap, gap::vi::vi_gap",
            check: check_gap_closed_form,
        },
        Claim {
            id: "core.vi_weak_gap_flavours",
            paper: "BG23",
            item: "eqs. (1.1)–(1.2); BGM23 eq. (3)",
            statement: "Over an enumerated dataset distribution and a finite seed set: each gap equals \
                        its definition computed independently; strong ≥ BG23's weak gap (E_A outside) ≥ \
                        the expectation-inside weak gap, with equality for constant operators and a \
                        strict gap on rotations.",
            kind: Kind::Enumerated,
            code: "gap::vi::{strong_vi_gap, weak_vi_gap_bg23, weak_vi_gap_expectation_inside}",
            check: check_flavours,
        },
        Claim {
            id: "core.vi_weak_gap_mc",
            paper: "BG23",
            item: "eq. (1.2)-type weak gap, Monte Carlo",
            statement: "The Monte Carlo weak-gap intervals cover the exact enumerated weak gaps at their stated \
                        rate: the expectation-inside one (M-Lipschitz gap, McDiarmid on outputs in a set of \
                        diameter D) and BG23 eq. (1.2)'s, seeds outside (Hoeffding over R seeds + McDiarmid \
                        within each seed, union bound); the Clopper–Pearson 99.9% upper bound on each miss \
                        rate over fixed seeds is ≤ δ.",
            kind: Kind::MonteCarlo,
            code: "gap::vi::{weak_vi_gap_mc, weak_vi_gap_bg23_mc}",
            check: check_mc,
        },
        Claim {
            id: "core.vi_nu_certificate",
            paper: "BG23",
            item: "eq. (5.1)",
            statement: "ν(u) = sup_w ⟨F(u), u − w⟩ (stampacchia_gap, alias nu_certificate) is the smallest ν \
                        with (5.1) for the subproblem operator F_B + λ(· − w_k): it equals the maximum over \
                        the box vertices / a fine boundary set, is ≥ the VI gap, and vanishes at the exact \
                        subproblem solution Π_W(w_k − F̄/λ) of a constant operator.",
            kind: Kind::Exact,
            code: "problem::monotone::{nu_certificate, stampacchia_gap}",
            check: check_nu,
        },
    ]
}

/// The instances with exact constants and closed-form gaps.
fn vi_instances() -> Vec<ViInstance> {
    vec![
        instances::vi_rot_iso_ball(2, true),
        instances::vi_rot_iso_ball(2, false),
        instances::vi_rot_iso_ball(6, false),
        instances::vi_rot_iso_box(2, true),
        instances::vi_rot_iso_box(4, false),
        instances::vi_diag_box(2),
        instances::vi_diag_box(5),
        instances::vi_const(2, 4),
        instances::vi_const(3, 3),
        instances::vi_qb_ssp(0.5, 0.5, 0.8),
        instances::vi_qb_ssp(0.0, 0.0, 1.0),
        instances::vi_qb_ssp(0.25, 1.0, -0.6),
    ]
}

/// Points of `dom` from a labelled stream: uniform on boxes and products of boxes, else
/// [`instances::sample_point`].
fn points(dom: &Domain, seed: u64, n: usize) -> Vec<Vec<f64>> {
    let mut s = Stream::new(seed, "claims/core_vi_ops/points");
    let bb = box_bounds(dom);
    (0..n)
        .map(|_| match &bb {
            Some((lo, hi)) => lo
                .iter()
                .zip(hi)
                .map(|(l, h)| l + (h - l) * s.uniform())
                .collect(),
            None => instances::sample_point(dom, &mut s),
        })
        .collect()
}

/// The 2ᵈ vertices of a box.
fn vertices(lo: &[f64], hi: &[f64]) -> Vec<Vec<f64>> {
    let d = lo.len();
    (0..1usize << d)
        .map(|bits| {
            (0..d)
                .map(|i| if bits >> i & 1 == 1 { hi[i] } else { lo[i] })
                .collect()
        })
        .collect()
}

/// A certified interval [lo, hi] ∋ sup_{u∈Z} φ(u), φ(u) = ⟨Ḡ(u), z − u⟩, for an affine monotone
/// mean operator Ḡ known only through evaluations ([`mean_operator`]): its matrix A by differences
/// Ḡ(e_i) − Ḡ(0), ∇φ(u) = Aᵀ(z − u) − Ḡ(u), `iters` projected gradient ascent steps of size
/// 1/(2‖A‖_F + 1) from the domain's centre; lo = the best φ seen, hi = φ(u) + σ_Z(∇φ(u)) −
/// ⟨∇φ(u), u⟩ at the last iterate (φ is concave, so the linearization bounds it above).
/// Independent of the closed forms (it uses only `eval`, `project` and `support`).
pub fn certified_gap_interval(
    op: &dyn MonotoneOp,
    data: &Mixture,
    z: &[f64],
    iters: usize,
) -> (f64, f64) {
    let d = op.dim();
    let dom = op.domain();
    let g0 = mean_operator(op, data, &vec![0.0; d]);
    let mut a = Matrix::zeros(d, d);
    for i in 0..d {
        let mut e = vec![0.0; d];
        e[i] = 1.0;
        let gi = linalg::sub(&mean_operator(op, data, &e), &g0);
        for (r, v) in gi.iter().enumerate() {
            a.set(r, i, *v);
        }
    }
    let fro = linalg::norm2(&a.data);
    let eta = 1.0 / (2.0 * fro + 1.0);
    let phi = |u: &[f64]| linalg::dot(&mean_operator(op, data, u), &linalg::sub(z, u));
    let grad = |u: &[f64]| {
        let mut g = a.matvec_t(&linalg::sub(z, u));
        linalg::axpy(-1.0, &mean_operator(op, data, u), &mut g);
        g
    };
    let mut u = dom.center();
    let mut best = phi(&u);
    for _ in 0..iters {
        let g = grad(&u);
        u = dom.project(&linalg::add(&u, &linalg::scale(eta, &g)));
        best = best.max(phi(&u));
    }
    let g = grad(&u);
    let hi = phi(&u) + dom.support(&g) - linalg::dot(&g, &u);
    (best, hi)
}

fn check_constants(_b: Budget) -> Result<Evidence> {
    // measured/bound ratios: sampled ‖G(z) − G(z′)‖/‖z − z′‖ ≤ L, ‖G‖ ≤ M, μ‖Δ‖² ≤ ⟨ΔG, Δ⟩.
    let mut main = BoundCheck::new(1e-12, 1e-15);
    // Attainment: the best sampled (vertex / farthest point / aligned pair) over the declared.
    let mut worst_attain = 1.0_f64;
    // Negative control: L from the symmetric part only (the min/max diagonal of M(x)'s symmetric
    // part, μ instead of √(μ² + κ²)): a rotation's pairs exceed it.
    let mut ctrl = BoundCheck::new(1e-12, 1e-15);
    for (k, inst) in vi_instances().into_iter().enumerate() {
        let op = inst.op.as_ref();
        let c = inst.constants()?;
        let pts = points(op.domain(), 100 + k as u64, 40);
        let mut best_l = 0.0_f64;
        let mut best_m = 0.0_f64;
        let mut l_dir_known = true;
        for x in &inst.dist.atoms {
            let sym_only = {
                let form = op.affine_form().expect("data-affine instance");
                let cx = form.canon_at(x);
                cx.diag.iter().fold(0.0_f64, |m, v| m.max(v.abs()))
            };
            for (i, z) in pts.iter().enumerate() {
                let z2 = &pts[(i + 7) % pts.len()];
                let dz = linalg::norm2(&linalg::sub(z, z2));
                if dz < 1e-9 {
                    continue;
                }
                let dg = linalg::sub(&op.eval(z, x), &op.eval(z2, x));
                let ratio = linalg::norm2(&dg) / dz;
                best_l = best_l.max(ratio);
                main.observe(ratio, c.lipschitz, format!("{} L", inst.name));
                ctrl.observe(ratio, sym_only, format!("{} L_sym", inst.name));
                main.observe(
                    c.modulus * dz * dz,
                    linalg::dot(&dg, &linalg::sub(z, z2)),
                    format!("{} μ", inst.name),
                );
                let gn = linalg::norm2(&op.eval(z, x));
                best_m = best_m.max(gn);
                main.observe(gn, c.bound, format!("{} M", inst.name));
            }
            // M's maximizer: a box vertex (convex ‖G‖ on a box), or the farthest ball point from
            // c = −M(x)⁻¹q(x) (RotIso: M(x) = μI + κJ).
            if let Some((lo, hi)) = box_bounds(op.domain()) {
                for v in vertices(&lo, &hi) {
                    let gn = linalg::norm2(&op.eval(&v, x));
                    best_m = best_m.max(gn);
                    main.observe(gn, c.bound, format!("{} M (vertex)", inst.name));
                }
            } else if let Domain::Ball { center, radius } = op.domain() {
                let form = op.affine_form().expect("data-affine instance");
                if let Some((a, b)) = form.canon_at(x).iso_rot() {
                    let q = form.offset_at(x);
                    let s2 = a * a + b * b;
                    if s2 > 0.0 {
                        let cpt: Vec<f64> = (0..q.len())
                            .map(|i| {
                                let jq = if i % 2 == 0 { -q[i + 1] } else { q[i - 1] };
                                (-a * q[i] + b * jq) / s2
                            })
                            .collect();
                        let dir = linalg::sub(center, &cpt);
                        let far =
                            linalg::add(center, &linalg::scale(radius / linalg::norm2(&dir), &dir));
                        let gn = linalg::norm2(&op.eval(&far, x));
                        best_m = best_m.max(gn);
                        main.observe(gn, c.bound, format!("{} M (farthest)", inst.name));
                    }
                }
            }
            // L's maximizer: the pair (0, e) along the top singular direction; for aI + bJ every
            // direction, for diag(h) the coordinate of max |h_i|; for diag(h) + bJ (2×2 blocks)
            // the sampled pairs (reported, not asserted).
            let form = op.affine_form().expect("data-affine instance");
            let cx = form.canon_at(x);
            let d = op.dim();
            let dir_idx = if cx.iso_rot().is_some() {
                Some(0)
            } else if cx.rot == 0.0 {
                Some(
                    (0..d)
                        .max_by(|&i, &j| cx.diag[i].abs().total_cmp(&cx.diag[j].abs()))
                        .unwrap_or(0),
                )
            } else {
                None
            };
            l_dir_known &= dir_idx.is_some();
            if let Some(i) = dir_idx {
                let z0 = op.domain().center();
                let mut z1 = z0.clone();
                z1[i] += 1e-3;
                let r = linalg::norm2(&linalg::sub(&op.eval(&z1, x), &op.eval(&z0, x))) / 1e-3;
                best_l = best_l.max(r);
            }
        }
        if c.lipschitz > 0.0 && l_dir_known {
            worst_attain = worst_attain.min(best_l / c.lipschitz);
        }
        worst_attain = worst_attain.min(best_m / c.bound);
    }
    let ev = Evidence::from_checks(&main, Some(("L from the symmetric part only", &ctrl)));
    Ok(ev
        .with_tight(worst_attain, 1e-9)
        .note(format!(
            "attainment: min over instances of (best sampled / declared) for L and M = {worst_attain:.15}"
        ))
        .note("QB-SSP with α ≠ γ (diag + bJ): L's maximizer is not sampled exactly (its ratio is the sampled best)"))
}

/// The closed form's cases that must answer `Unsupported`.
fn unsupported_cases() -> Result<Vec<(String, Result<f64>)>> {
    let mut v = Vec::new();
    let data1 = Mixture::single(&[0.1, -0.2]);
    // Diagonal non-isotropic symmetric part on a ball.
    let op = DataAffineOp::diagonal_shift(Domain::ball(vec![0.0, 0.0], 1.0)?, vec![0.5, 1.0])?;
    v.push((
        "diag(0.5, 1) on a ball".into(),
        op.vi_gap(&data1, &[0.1, 0.1]),
    ));
    // A non-diagonal symmetric part.
    let m = Matrix::from_rows(vec![vec![1.0, 0.5], vec![0.5, 1.0]])?;
    let op = AffineOp::new(m, Domain::new_box(vec![-1.0; 2], vec![1.0; 2])?)?;
    v.push((
        "sym part [[1, ½], [½, 1]] on a box".into(),
        op.vi_gap(&data1, &[0.1, 0.1]),
    ));
    // A QuadBilinear saddle operator with α ≠ γ on balls.
    let f = QuadBilinear::data_affine(
        Domain::ball(vec![0.0], 1.0)?,
        Domain::ball(vec![0.0], 1.0)?,
        Matrix::from_rows(vec![vec![0.7]])?,
        0.2,
        0.9,
    )?;
    let op = DataAffineOp::quad_bilinear_saddle(&f)?;
    v.push(("QB α ≠ γ on balls".into(), op.vi_gap(&data1, &[0.1, 0.1])));
    // A general saddle operator.
    let g = QuadBilinear::lin_box(0.5)?;
    let sop = SaddleOperator::new(&g);
    v.push((
        "SaddleOperator (generic)".into(),
        sop.vi_gap(&data1, &[0.0, 0.0]),
    ));
    Ok(v)
}

fn check_gap_closed_form(b: Budget) -> Result<Evidence> {
    let per = if b == Budget::Full { 40 } else { 8 };
    let iters = if b == Budget::Full { 20000 } else { 4000 };
    // closed ≤ hi and lo ≤ closed to 1e-12 relative + 1e-12 (the closed form inside the certified
    // interval: ratios ≈ 1, an identity to the interval's width).
    let mut main = BoundCheck::new(1e-12, 1e-12);
    // Negative control: the Stampacchia gap sup_u⟨Ḡ(z), z − u⟩ in place of the VI gap (the two
    // coincide only when Ḡ is constant).
    let mut ctrl = BoundCheck::new(1e-12, 1e-12);
    let mut width = 0.0_f64;
    for (k, inst) in vi_instances().into_iter().enumerate() {
        let op = inst.op.as_ref();
        let data = Mixture::population(&inst.dist);
        for z in points(op.domain(), 200 + k as u64, per) {
            let g = crate::gap::vi::vi_gap(op, &data, &z)?;
            let (lo, hi) = certified_gap_interval(op, &data, &z, iters);
            width = width.max(hi - lo);
            main.observe(g, hi, format!("{}: closed ≤ certified upper", inst.name));
            main.observe(lo, g, format!("{}: certified lower ≤ closed", inst.name));
            let s = stampacchia_gap(op, &data, &z);
            ctrl.observe(
                s,
                hi,
                format!("{}: Stampacchia ≤ certified upper", inst.name),
            );
        }
    }
    let mut unsupported = 0;
    let mut notes = Vec::new();
    for (name, r) in unsupported_cases()? {
        let ok = matches!(r, Err(Error::Unsupported(_)));
        main.observe_exact(ok, None, format!("{name}: Unsupported"));
        unsupported += usize::from(ok);
        notes.push(name);
    }
    Ok(Evidence::from_checks(&main, Some(("Stampacchia gap as the VI gap", &ctrl)))
        .note(format!(
            "certified interval widths ≤ {width:.2e} ({iters} projected-gradient steps); tolerance 1e-12 relative + 1e-12"
        ))
        .note(format!(
            "Unsupported as required in {unsupported} cases: {}",
            notes.join("; ")
        )))
}

/// Seed offsets ξ_r and weights ρ_r of the seed-randomized algorithm A_r(S) = Π_Z(ξ_r + 0.8·x̄_S^{tail}),
/// x̄_S^{tail} the last dim Z coordinates of the sample mean.
fn seeded_outputs(inst: &ViInstance, n: usize) -> Vec<SeedOutputs> {
    let op = inst.op.as_ref();
    let d = op.dim();
    let k = inst.dist.k();
    let xi0: Vec<f64> = (0..d)
        .map(|i| if i % 2 == 0 { 0.6 } else { -0.35 })
        .collect();
    let offsets = [xi0.clone(), linalg::scale(-1.0, &xi0), vec![0.0; d]];
    let rho = [0.5, 0.25, 0.25];
    let pd = op.point_dim();
    (0..3)
        .map(|r| {
            let mut outputs = Vec::new();
            // Every ordered dataset of length n (kⁿ), probability Π p.
            for code in 0..k.pow(n as u32) {
                let mut c = code;
                let mut p = 1.0;
                let mut mean = vec![0.0; pd];
                for _ in 0..n {
                    let j = c % k;
                    c /= k;
                    p *= inst.dist.probs[j];
                    linalg::axpy(1.0 / n as f64, &inst.dist.atoms[j], &mut mean);
                }
                let tail = &mean[pd - d..];
                let z = op
                    .domain()
                    .project(&linalg::add(&offsets[r], &linalg::scale(0.8, tail)));
                outputs.push(ViOutput { weight: p, z });
            }
            SeedOutputs {
                weight: rho[r],
                outputs,
            }
        })
        .collect()
}

fn check_flavours(b: Budget) -> Result<Evidence> {
    let iters = if b == Budget::Full { 20000 } else { 4000 };
    let n = 2;
    // Production value inside the independently certified interval of its definition.
    let mut main = BoundCheck::new(1e-12, 1e-12);
    // Orderings: strong ≥ bg23 ≥ inside (measured = lower − upper ≤ tol).
    let mut strict_min = f64::INFINITY;
    let mut const_eq = 0.0_f64;
    // Negative control: "BG23's weak gap equals the expectation-inside one" on the non-constant
    // instances (|bg23 − inside| ≤ tol): rejected where the seeds' means differ.
    let mut ctrl = BoundCheck::new(1e-12, 1e-12);
    let insts = vec![
        instances::vi_rot_iso_ball(2, true),
        instances::vi_rot_iso_box(2, false),
        instances::vi_qb_ssp(0.5, 0.5, 0.8),
        instances::vi_const(2, 3),
        instances::vi_const(3, 4),
    ];
    for inst in &insts {
        let op = inst.op.as_ref();
        let data = Mixture::population(&inst.dist);
        let seeds = seeded_outputs(inst, n);
        let joint = flatten_seeds(&seeds);
        let strong = strong_vi_gap(op, &data, &joint)?;
        let bg23 = weak_vi_gap_bg23(op, &data, &seeds)?;
        let inside = weak_vi_gap_expectation_inside(op, &data, &joint)?;
        let tol = 1e-12 * (1.0 + strong.abs());
        // Independent: each seed's mean output and the joint mean, their sup by the certified
        // interval; the strong gap as the weighted sum of certified intervals.
        let (mut b_lo, mut b_hi) = (0.0, 0.0);
        let mut joint_mean = vec![0.0; op.dim()];
        for s in &seeds {
            let mut m = vec![0.0; op.dim()];
            for o in &s.outputs {
                linalg::axpy(o.weight, &o.z, &mut m);
                linalg::axpy(s.weight * o.weight, &o.z, &mut joint_mean);
            }
            let (lo, hi) = certified_gap_interval(op, &data, &m, iters);
            b_lo += s.weight * lo;
            b_hi += s.weight * hi;
        }
        let (i_lo, i_hi) = certified_gap_interval(op, &data, &joint_mean, iters);
        let (mut s_lo, mut s_hi) = (0.0, 0.0);
        for o in joint.iter().filter(|o| o.weight > 0.0) {
            let (lo, hi) = certified_gap_interval(op, &data, &o.z, iters / 4);
            s_lo += o.weight * lo;
            s_hi += o.weight * hi;
        }
        for (what, v, lo, hi) in [
            ("BG23 weak", bg23, b_lo, b_hi),
            ("inside weak", inside, i_lo, i_hi),
            ("strong", strong, s_lo, s_hi),
        ] {
            main.observe(v, hi, format!("{}: {what} ≤ certified upper", inst.name));
            main.observe(lo, v, format!("{}: certified lower ≤ {what}", inst.name));
        }
        main.observe(bg23, strong, format!("{}: BG23 weak ≤ strong", inst.name));
        main.observe(inside, bg23, format!("{}: inside ≤ BG23 weak", inst.name));
        if inst.name.starts_with("const_vi") {
            const_eq = const_eq.max((bg23 - inside).abs());
            main.observe(
                (bg23 - inside).abs(),
                tol,
                format!("{}: equality", inst.name),
            );
        } else {
            strict_min = strict_min.min(bg23 - inside);
            ctrl.observe(
                (bg23 - inside).abs(),
                tol,
                format!("{}: equality asserted", inst.name),
            );
        }
    }
    Ok(Evidence::from_checks(&main, Some(("BG23 weak gap = expectation-inside weak gap", &ctrl)))
        .note(format!(
            "n = {n}, 3 seeds (ρ = ½, ¼, ¼), every ordered dataset enumerated; min (BG23 − inside) on the \
             non-constant instances = {strict_min:.6e} (> 0); max |BG23 − inside| on constant operators = {const_eq:.2e}"
        )))
}

/// A coverage case: name, operator, data mixture, enumerated output distribution.
type McCase = (String, Box<dyn MonotoneOp>, Mixture, Vec<ViOutput>);

/// The output distributions of the coverage test: the flavours claim's seeded algorithm on RotIso
/// (rotation, ball) and QB-SSP, and the two-point distribution ±β̂ on the unit ball under the
/// constant operator G = 2β̂ (one atom), where gap_F is affine with slope of norm exactly M and the
/// outputs span the whole diameter along it (the interval's least conservative case).
fn mc_cases() -> Result<Vec<McCase>> {
    let mut v: Vec<McCase> = Vec::new();
    for inst in [
        instances::vi_rot_iso_ball(2, true),
        instances::vi_qb_ssp(0.5, 0.5, 0.8),
    ] {
        let joint = flatten_seeds(&seeded_outputs(&inst, 2));
        let data = Mixture::population(&inst.dist);
        v.push((inst.name, inst.op, data, joint));
    }
    let beta = vec![0.6, 0.8];
    let op = crate::problem::monotone::ConstantOp::bg23_prop12(2, 2.0, 1.0)?;
    let outs = vec![
        ViOutput {
            weight: 0.5,
            z: beta.clone(),
        },
        ViOutput {
            weight: 0.5,
            z: linalg::scale(-1.0, &beta),
        },
    ];
    v.push((
        "const(β̂ = (0.6, 0.8)), outputs ±β̂".into(),
        Box::new(op),
        Mixture::single(&beta),
        outs,
    ));
    Ok(v)
}

fn check_mc(b: Budget) -> Result<Evidence> {
    use crate::privacy::audit::{clopper_pearson_lower, clopper_pearson_upper};
    let reps: u64 = if b == Budget::Full { 4000 } else { 400 };
    let n_samp = 40;
    let delta = 0.1;
    let tail = 1e-3;
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    for (name, op, data, joint) in mc_cases()? {
        let op = op.as_ref();
        let exact = weak_vi_gap_expectation_inside(op, &data, &joint)?;
        let diam = op.domain().diameter();
        let mut cum = Vec::with_capacity(joint.len());
        let mut acc = 0.0;
        for o in &joint {
            acc += o.weight;
            cum.push(acc);
        }
        let (mut miss, mut miss_naive) = (0u64, 0u64);
        let mut radius = 0.0;
        let mut worst_rel = 0.0_f64;
        for rep in 0..reps {
            let mut s = Stream::new(rep, "claims/core.vi_weak_gap_mc");
            let samples: Vec<Vec<f64>> = (0..n_samp)
                .map(|_| {
                    let u = s.uniform() * acc;
                    let j = cum.iter().position(|&c| u < c).unwrap_or(joint.len() - 1);
                    joint[j].z.clone()
                })
                .collect();
            let iv = weak_vi_gap_mc(op, &data, &samples, diam, delta)?;
            radius = iv.radius;
            let err = (exact - iv.estimate).abs();
            worst_rel = worst_rel.max(err / iv.radius);
            if exact < iv.lo || exact > iv.hi {
                miss += 1;
            }
            // Control: the same construction at the rate 1/N (radius M·D/N), a plausible slip.
            let n = n_samp as f64;
            let naive = iv.radius * (2.0 * n).sqrt() / (n * (1.0 + (1.0 / delta).ln().sqrt()));
            if err > naive {
                miss_naive += 1;
            }
        }
        let up = clopper_pearson_upper(miss, reps, tail)?;
        main.observe(up, delta, format!("{name}: CP upper miss rate ≤ δ"));
        let lo_c = clopper_pearson_lower(miss_naive, reps, tail)?;
        ctrl.observe(lo_c, delta, format!("{name}: rate-1/N CP lower miss rate"));
        notes.push(format!(
            "{name}: exact {exact:.6}, radius {radius:.4}, misses {miss}/{reps} (CP 99.9% upper {up:.4}), \
             max |error|/radius {worst_rel:.3}; rate-1/N radius: misses {miss_naive}/{reps} (CP lower {lo_c:.4})"
        ));
    }
    // BG23 eq. (1.2)'s weak gap (seeds outside): weak_vi_gap_bg23_mc on R seeds × N outputs.
    // Control: the expectation-inside interval on the pooled R·N outputs, read as an interval for
    // BG23's gap (it estimates the other flavour, so it misses where the flavours differ).
    let mut ctrl_pooled = BoundCheck::new(0.0, 0.0);
    let (bg_reps, r_seeds, n_out): (u64, usize, usize) = if b == Budget::Full {
        (200, 100, 100)
    } else {
        (70, 30, 30)
    };
    for (name, op, data, seeds) in bg23_mc_cases()? {
        let op = op.as_ref();
        let exact = weak_vi_gap_bg23(op, &data, &seeds)?;
        let inside = weak_vi_gap_expectation_inside(op, &data, &flatten_seeds(&seeds))?;
        let diam = op.domain().diameter();
        let seed_cum = cumulative(seeds.iter().map(|s| s.weight));
        let out_cum: Vec<Vec<f64>> = seeds
            .iter()
            .map(|s| cumulative(s.outputs.iter().map(|o| o.weight)))
            .collect();
        let (mut miss, mut miss_pooled) = (0u64, 0u64);
        let mut radius = 0.0;
        let mut worst_rel = 0.0_f64;
        for rep in 0..bg_reps {
            let mut st = Stream::new(rep, "claims/core.vi_weak_gap_mc/bg23");
            let draws: Vec<Vec<Vec<f64>>> = (0..r_seeds)
                .map(|_| {
                    let j = pick(&seed_cum, st.uniform());
                    (0..n_out)
                        .map(|_| seeds[j].outputs[pick(&out_cum[j], st.uniform())].z.clone())
                        .collect()
                })
                .collect();
            let iv = weak_vi_gap_bg23_mc(op, &data, &draws, diam, delta)?;
            radius = iv.radius;
            worst_rel = worst_rel.max((exact - iv.estimate).abs() / iv.radius);
            if exact < iv.lo || exact > iv.hi {
                miss += 1;
            }
            let pooled: Vec<Vec<f64>> = draws.into_iter().flatten().collect();
            let pv = weak_vi_gap_mc(op, &data, &pooled, diam, delta)?;
            if exact < pv.lo || exact > pv.hi {
                miss_pooled += 1;
            }
        }
        let up = clopper_pearson_upper(miss, bg_reps, tail)?;
        main.observe(
            up,
            delta,
            format!("{name}: BG23 flavour, CP upper miss rate ≤ δ"),
        );
        let lo_c = clopper_pearson_lower(miss_pooled, bg_reps, tail)?;
        ctrl.observe(
            lo_c,
            delta,
            format!("{name}: pooled expectation-inside interval"),
        );
        ctrl_pooled.observe(
            lo_c,
            delta,
            format!("{name}: pooled expectation-inside interval"),
        );
        notes.push(format!(
            "BG23 flavour, {name}: exact {exact:.6} (expectation-inside {inside:.6}), radius {radius:.4}, \
             misses {miss}/{bg_reps} (CP 99.9% upper {up:.4}), max |error|/radius {worst_rel:.3}; \
             pooled expectation-inside interval: misses {miss_pooled}/{bg_reps} (CP lower {lo_c:.4})"
        ));
    }
    let mut ev = Evidence::from_checks(
        &main,
        Some((
            "radius at the rate 1/N (M·D/N) instead of 1/√N; for BG23's flavour, the expectation-inside interval on pooled outputs",
            &ctrl,
        )),
    )
    .note(format!(
        "expectation-inside flavour: N = {n_samp} outputs per estimate, δ = {delta}, seeds 0..{reps}"
    ))
    .note(format!(
        "BG23 flavour: R = {r_seeds} seeds × N = {n_out} outputs per estimate, δ = {delta}, {bg_reps} repetitions (seeds 0..{bg_reps})"
    ));
    // The pooled control must fail on its own (the 1/N control alone could reject it).
    if ctrl_pooled.pass() {
        ev.pass = false;
        ev.details.push(
            "violation: the pooled expectation-inside interval covers BG23's gap on every case: \
             the coverage test cannot tell the flavours apart"
                .into(),
        );
    }
    for n in notes {
        ev = ev.note(n);
    }
    Ok(ev)
}

/// Running sums of weights (for [`pick`]).
fn cumulative(w: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut acc = 0.0;
    w.map(|x| {
        acc += x;
        acc
    })
    .collect()
}

/// The index drawn by u ∈ [0, 1) from running sums `cum` (scaled to their total).
fn pick(cum: &[f64], u: f64) -> usize {
    let total = cum.last().copied().unwrap_or(1.0);
    cum.partition_point(|&c| c <= u * total).min(cum.len() - 1)
}

/// A seeded coverage case: name, operator, data mixture, the seeds' enumerated output laws.
type Bg23McCase = (String, Box<dyn MonotoneOp>, Mixture, Vec<SeedOutputs>);

/// BG23-flavour coverage cases: the flavours claim's seeded algorithm on RotIso (ball) and
/// QB-SSP; the constant operator G = 2β̂ on the unit ball with two seeds whose outputs are ±β̂
/// (w.p. ¾/¼ and ¼/¾: gap_F is affine with slope of norm M along the whole diameter, the
/// Hoeffding term's least conservative case); the rotation G(z) = Jz on the unit ball with
/// deterministic seeds ±a (gap_F(z) = ‖z‖: BG23's gap 1, the expectation-inside one 0).
fn bg23_mc_cases() -> Result<Vec<Bg23McCase>> {
    let mut v: Vec<Bg23McCase> = Vec::new();
    for inst in [
        instances::vi_rot_iso_ball(2, false),
        instances::vi_qb_ssp(0.5, 0.5, 0.8),
    ] {
        let seeds = seeded_outputs(&inst, 2);
        let data = Mixture::population(&inst.dist);
        v.push((inst.name, inst.op, data, seeds));
    }
    let beta = vec![0.6, 0.8];
    let minus = linalg::scale(-1.0, &beta);
    let two = |p: f64, a: &[f64], b: &[f64]| SeedOutputs {
        weight: 0.5,
        outputs: vec![
            ViOutput {
                weight: p,
                z: a.to_vec(),
            },
            ViOutput {
                weight: 1.0 - p,
                z: b.to_vec(),
            },
        ],
    };
    v.push((
        "const(β̂ = (0.6, 0.8)), seeds ±β̂".into(),
        Box::new(crate::problem::monotone::ConstantOp::bg23_prop12(
            2, 2.0, 1.0,
        )?),
        Mixture::single(&beta),
        vec![two(0.75, &beta, &minus), two(0.25, &beta, &minus)],
    ));
    let atom = DataAffineOp::rot_iso_atom(0.0, 1.0, &[0.0, 0.0]);
    let rot = DataAffineOp::rot_iso_ball(vec![0.0, 0.0], 1.0, std::slice::from_ref(&atom))?;
    v.push((
        "rotation Jz on the unit ball, seeds ±a (a = (0.6, 0.8))".into(),
        Box::new(rot),
        Mixture::single(&atom),
        vec![two(1.0, &beta, &minus), two(0.0, &beta, &minus)],
    ));
    Ok(v)
}

fn check_nu(b: Budget) -> Result<Evidence> {
    let per = if b == Budget::Full { 60 } else { 15 };
    // ν(u) vs the independent max over box vertices / a fine circle: equality within 1e-12
    // (measured |ν − max|), and the fine circle below ν.
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut max_at_solution = 0.0_f64;
    // (5.1)'s subproblem operators F_B + λ(· − w_k), w_k outside W allowed (BG23 §5).
    let cases: Vec<(ViInstance, f64, Vec<f64>)> = vec![
        (instances::vi_rot_iso_box(2, false), 0.5, vec![1.7, -0.2]),
        (instances::vi_diag_box(2), 1.0, vec![0.2, 0.1]),
        (instances::vi_const(2, 3), 1.0, vec![0.3, -2.0]),
        (instances::vi_rot_iso_ball(2, true), 2.0, vec![0.0, 0.4]),
    ];
    for (k, (inst, lam, wk)) in cases.iter().enumerate() {
        let reg = RegularizedOp::new(inst.op.as_ref(), vec![(*lam, wk.clone())])?;
        let data = Mixture::population(&inst.dist);
        let dom = reg.domain().clone();
        for u in points(&dom, 300 + k as u64, per) {
            let nu = nu_certificate(&reg, &data, &u);
            let g = mean_operator(&reg, &data, &u);
            let indep = match box_bounds(&dom) {
                Some((lo, hi)) => vertices(&lo, &hi)
                    .iter()
                    .map(|w| linalg::dot(&g, &linalg::sub(&u, w)))
                    .fold(f64::NEG_INFINITY, f64::max),
                None => {
                    let Domain::Ball { center, radius } = &dom else {
                        unreachable!("instances are boxes or balls")
                    };
                    let m = 20000;
                    let fine = (0..m)
                        .map(|t| {
                            let a = 2.0 * std::f64::consts::PI * t as f64 / m as f64;
                            let w =
                                vec![center[0] + radius * a.cos(), center[1] + radius * a.sin()];
                            linalg::dot(&g, &linalg::sub(&u, &w))
                        })
                        .fold(f64::NEG_INFINITY, f64::max);
                    // Sampling the circle at angle steps 2π/m misses the max by ≤ r‖g‖(1 − cos(π/m)).
                    let slack = radius
                        * linalg::norm2(&g)
                        * (1.0 - (std::f64::consts::PI / m as f64).cos());
                    main.observe(fine, nu, format!("{}: circle ≤ ν", inst.name));
                    fine + slack
                }
            };
            let tol = 1e-12 * (1.0 + nu.abs());
            if box_bounds(&dom).is_some() {
                main.observe(
                    (nu - indep).abs(),
                    tol,
                    format!("{}: ν = vertex max", inst.name),
                );
            } else {
                main.observe(
                    nu - indep,
                    tol,
                    format!("{}: ν ≤ circle + slack", inst.name),
                );
            }
            let vg = reg.vi_gap(&data, &u)?;
            main.observe(vg - nu, tol, format!("{}: VI gap ≤ ν", inst.name));
            main.observe(-nu, tol, format!("{}: ν ≥ 0 on W", inst.name));
        }
        // Zero at the exact subproblem solution of a constant operator: u* = Π_W(w_k − F̄/λ).
        if inst.name.starts_with("const_vi") {
            let fbar = mean_operator(inst.op.as_ref(), &data, &dom.center());
            let ustar = dom.project(&linalg::sub(wk, &linalg::scale(1.0 / lam, &fbar)));
            let nu = nu_certificate(&reg, &data, &ustar);
            max_at_solution = max_at_solution.max(nu.abs());
            main.observe(nu.abs(), 1e-14, format!("{}: ν(u*) = 0", inst.name));
            // Control: the certificate of F_B alone at u* (the λ(· − w_k) term forgotten).
            let wrong = nu_certificate(inst.op.as_ref(), &data, &ustar);
            ctrl.observe(
                wrong.abs(),
                1e-14,
                format!("{}: unregularized ν(u*)", inst.name),
            );
        }
    }
    Ok(Evidence::from_checks(
        &main,
        Some(("certificate of F_B without λ(· − w_k)", &ctrl)),
    )
    .note(format!(
        "|ν(u*)| at the exact subproblem solution ≤ {max_at_solution:.2e}"
    )))
}
