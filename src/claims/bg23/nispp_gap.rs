//! Claims of BG23 §5–§7 on NISPP's gaps, rates and costs: Thm 5, Remark 3 (2), Thm 7, the NISPP
//! half of Table 1, NISPP's rate in n and ε, and Prop 12's lower bound attained by a NISPP run.
//!
//! Every check runs the production [`Nispp`] (built from the printed policies through
//! [`Nispp::from_policy`]) on constant operators G(z; β) = β, whose VI gap is affine in the
//! output and known in closed form (`MonotoneOp::vi_gap`, `papers::bg23::lower_bounds`), so a
//! gap in expectation is a mean of exact per-run gaps; walk-throughs in `proofs-notes/bg23.md`,
//! Parts 4 and 5.

use super::nseg::loglog_fit;
use crate::algorithms::nispp::{InnerSolver, Nispp, NisppRun};
use crate::algorithms::vi::{StepSchedule, ViDiagnostics, ViOutput};
use crate::claims::bgm23::sgda::Z999;
use crate::claims::{BoundCheck, Budget, Claim, Evidence, Kind, Series, SeriesKind, SlopeFit};
use crate::error::{invalid, Result};
use crate::geometry::Domain;
use crate::linalg;
use crate::papers::bg23::lower_bounds as lb;
use crate::papers::bg23::nispp as p;
use crate::papers::bg23::nispp::{NisppItem, NisppPolicy, OpClass};
use crate::papers::bg23::nseg as nseg_pol;
use crate::papers::bg23::oe::oe_corrected_count;
use crate::papers::Reading;
use crate::problem::monotone::ConstantOp;
use crate::problem::saddle::Mixture;
use crate::problem::{Dataset, FiniteDist, MonotoneOp};
use crate::rng::{NoiseSource, Stream};

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bg23.thm5",
            paper: "BG23",
            item: "Thm 5, eq. (5.5)",
            statement: "Single-pass NISPP with γ_kλ_k = γ₀λ₀ (5.4) has E Gap_VI ≤ ν + Z₀(K)/Γ_K + \
                        M√(Σγ_k²σ_{k+1}²d/Γ_K²), with the printed Z₀ and the corrected Z₀′ \
                        (E-BG23-42), on a constant operator with Bernoulli data (exact per-run \
                        gaps, one-sided 99.9% Monte Carlo bound; constant and varying λ_k, the \
                        certificate-stopped OE and the exact resolvent). Dropping (3γ₀λ₀/2)D² \
                        from Z₀ is rejected at large λ₀.",
            kind: Kind::MonteCarlo,
            code: "papers::bg23::nispp::thm5_bound, algorithms::nispp::Nispp",
            check: check_thm5,
        },
        Claim {
            id: "bg23.remark3_nondp",
            paper: "BG23",
            item: "Remark 3 (2)",
            statement: "Non-private NISPP with λ₀ = (M/D)√n, B = 1, ν = MD/√n: the printed K = n is \
                        n + 1 one-point batches, which a single pass over n points cannot draw (the \
                        production run refuses it, E-BG23-47); with K = n − 1 the gap is at most \
                        Thm 5's ν + (3/2)λ₀D²/n + 4M²/λ₀ = 6.5MD/√n (L = 0), measured.",
            kind: Kind::Erratum,
            code: "papers::bg23::nispp::nispp_schedule, algorithms::nispp::Nispp::from_policy",
            check: check_remark3_nondp,
        },
        Claim {
            id: "bg23.thm7",
            paper: "BG23",
            item: "Thm 7 (weak gap and evaluations)",
            statement: "Thm 7's policy (K = n, B = √n with replacement, λ₀, ν = M²/(λ₀n²), σ) run \
                        by the production NISPP with the certificate-stopped OE: every step meets \
                        (5.1) within App. B's corrected count, the proof's δ = 2M/λ₀ + n√(4ν/λ₀) = \
                        4M/λ₀ ≤ 4D/√n, evaluations are counted (K + 1)·B·T̄, and the weak gap is \
                        below the explicit corrected bound (`thm7_bound`, Monte Carlo at 99.9%). \
                        The printed OE count of the proof (Remark 3's) breaks (5.1): rejected.",
            kind: Kind::MonteCarlo,
            code: "papers::bg23::nispp::thm7_bound, algorithms::nispp::Nispp::from_policy",
            check: check_thm7,
        },
        Claim {
            id: "bg23.cost_nseg_vs_nispp",
            paper: "BG23",
            item: "Table 1 (NISPP row, operator evaluations)",
            statement: "Counted per-sample operator evaluations of production NISPP runs: single \
                        pass (Cor 2) each point of batch B_{k+1} is evaluated T_k times and unused \
                        points never; multi-pass (Thm 7) the per-point counts sum to (K + 1)·B·T̄; \
                        every T_k ≤ App. B's corrected count, so the totals are at most the \
                        table's n log n and n^{3/2} log n with the log made explicit. Reading the \
                        log as ln n with constant 1 is rejected; NSEG's counts at the same n are \
                        reported beside.",
            kind: Kind::Exact,
            code: "algorithms::nispp::Nispp, oracle::OpOracle",
            check: check_cost,
        },
        Claim {
            id: "bg23.rate_nispp",
            paper: "BG23",
            item: "Remark 3 (2) and Thm 7 (rates in n and ε)",
            statement: "The gap of non-private single-pass NISPP (Remark 3 (2), corrected K = n − 1) \
                        on an exact constant instance decays like n^{−1/2}: fitted log–log slope \
                        within 0.1 of −½ (deterministic instance, half-width 0); the rate n^{−1} \
                        is rejected. Full budget: Thm 7's weak gap in the privacy regime against \
                        ε, slope −1 with |slope + 1| + 99.9% half-width ≤ 0.2.",
            kind: Kind::MonteCarlo,
            code: "algorithms::nispp::Nispp, papers::bg23::nispp::nispp_schedule",
            check: check_rate_nispp,
        },
        Claim {
            id: "bg23.lb_attained",
            paper: "BG23",
            item: "Prop 12 and Thm 8 (lower bound approached)",
            statement: "On Prop 12's instance (F_β = Mβ, β = ±(1, …, 1)/√d, W = B(0, D), a dataset \
                        with ‖β̄‖ = ρ = min{1, √(d ln(1/η))/(εn)}), Thm 7's NISPP has E EmpGap = \
                        MDρ(1 + ⟨E z, β̄⟩/(Dρ)) between ¼ and 2 times Prop 12's rate MDρ at every n \
                        (ratio reported): the lower bound's order is attained. The wrong order \
                        √(d ln(1/η))/(ε√n) is rejected by the same band.",
            kind: Kind::MonteCarlo,
            code: "papers::bg23::lower_bounds::prop12_rate, algorithms::nispp::Nispp::from_policy",
            check: check_lb_attained,
        },
    ]
}

// ---------------------------------------------------------------------------------------------
// The instance: G(z; β) = β on [−r, r], β = +1 with probability p and −1 otherwise (M = 1,
// D = 2r, L = 0); F = (2p − 1) and Gap_VI(z) = F·z + r|F| (the solution is −r for p > ½).
// ---------------------------------------------------------------------------------------------

struct Inst {
    op: ConstantOp,
    pop: Mixture,
    p: f64,
}

fn inst(r: f64, p: f64) -> Result<Inst> {
    let op = ConstantOp::new(Domain::new_box(vec![-r], vec![r])?, 1.0)?;
    let dist = FiniteDist::new(vec![vec![1.0], vec![-1.0]], vec![p, 1.0 - p])?;
    Ok(Inst {
        op,
        pop: Mixture::population(&dist),
        p,
    })
}

impl Inst {
    fn sample(&self, n: usize, seed: u64) -> Result<Dataset> {
        let mut st = Stream::new(seed, "bg23/nispp_gap/data");
        Dataset::new(
            (0..n)
                .map(|_| vec![if st.uniform() < self.p { 1.0 } else { -1.0 }])
                .collect(),
        )
    }
    fn gap(&self, z: &[f64]) -> Result<f64> {
        self.op.vi_gap(&self.pop, z)
    }
}

fn mean_se(x: &[f64]) -> (f64, f64) {
    let k = x.len() as f64;
    let m = x.iter().sum::<f64>() / k;
    if x.len() < 2 {
        return (m, 0.0);
    }
    let v = x.iter().map(|g| (g - m) * (g - m)).sum::<f64>() / (k - 1.0);
    (m, (v / k).sqrt())
}

fn nispp_diag(out: &ViOutput) -> Result<&crate::algorithms::nispp::NisppDiagnostics> {
    match &out.info {
        ViDiagnostics::Nispp(d) => Ok(d),
        _ => Err(invalid("info", "not a NISPP run")),
    }
}

fn ratio_series(title: &str, x_label: &str, x: Vec<f64>, y: Vec<f64>, log_x: bool) -> Series {
    Series {
        kind: SeriesKind::Ratio,
        title: title.into(),
        x_label: x_label.into(),
        y_label: "measured / bound".into(),
        x,
        y,
        y_se: vec![],
        bound: vec![],
        fit: None,
        log_x,
    }
}

/// Per step of a traced run: (T_k, App. B's corrected count for ν at ζ′ with dist_W(w_k)).
/// The certificate stop is at most the corrected count: after it ‖u − w*‖ ≤ ζ′, which makes
/// ν_cert ≤ ν (`bg23.remark3_zeta_nu`).
fn inner_vs_corrected(
    run: &NisppRun,
    dom: &Domain,
    c: &OpClass,
    lambda: f64,
    nu: f64,
) -> Result<Vec<(usize, usize)>> {
    let (_, kappa) = p::oe_parameters(c.l, lambda);
    run.steps
        .iter()
        .map(|st| {
            let dist = linalg::dist2(&dom.project(&st.w_prev), &st.w_prev);
            let zeta = p::remark3_zeta(nu, c.m, c.d_w, c.l, lambda, dist, Reading::Corrected);
            Ok((st.inner_iterations, oe_corrected_count(kappa, c.d_w, zeta)?))
        })
        .collect()
}

fn cert_stop() -> InnerSolver {
    InnerSolver::OeCertificate {
        max_iterations: 100_000,
    }
}

// ---------------------------------------------------------------------------------------------
// Thm 5
// ---------------------------------------------------------------------------------------------

/// (label, B, K + 1, λ_0..λ_K, σ, ν, inner solver) of one Thm 5 setting.
type Thm5Setting = (&'static str, usize, usize, Vec<f64>, f64, f64, InnerSolver);

fn check_thm5(budget: Budget) -> Result<Evidence> {
    let reps: u64 = match budget {
        Budget::Quick => 100,
        Budget::Full => 1000,
    };
    let ins = inst(1.0, 0.9)?;
    let c = OpClass {
        m: 1.0,
        d_w: 2.0,
        l: 0.0,
        dim: 1,
    };
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    // (label, B, K + 1, λ_0..λ_K, σ, ν, inner); γ_k = λ₀/λ_k so γ_kλ_k = λ₀ (5.4).
    let settings: Vec<Thm5Setting> = vec![
        ("A", 4, 10, vec![2.5; 10], 0.2, 1e-3, cert_stop()),
        ("B", 2, 20, vec![4.0; 20], 0.1, 1e-4, cert_stop()),
        (
            "C",
            1,
            30,
            (0..30).map(|k| 1.0 + k as f64 / 5.0).collect(),
            0.2,
            0.0,
            InnerSolver::Exact,
        ),
        (
            "D (λ₀ = 50)",
            2,
            10,
            vec![50.0; 10],
            0.05,
            1e-3,
            cert_stop(),
        ),
    ];
    for (i, (label, b, k1, lambdas, sigma, nu, inner)) in settings.into_iter().enumerate() {
        let n = b * k1;
        let l0 = lambdas[0];
        let gammas: Vec<f64> = lambdas.iter().map(|l| l0 / l).collect();
        let mut alg = Nispp::new(
            k1,
            l0,
            nu,
            sigma,
            crate::sampling::BatchRule::Disjoint { size: b },
            inner,
            vec![1.0],
        )?
        .with_operator_bound(1.0)?
        .with_lipschitz(0.0)?
        .with_gamma(StepSchedule::List(gammas.clone()))?;
        alg.lambda = StepSchedule::List(lambdas.clone());
        alg.validate_params()?;
        let mut gaps = Vec::with_capacity(reps as usize);
        let mut worst_cert = 0.0f64;
        for r in 0..reps {
            let s = ins.sample(n, 100 + r)?;
            let out = alg.run_plain(&ins.op, &s, &mut NoiseSource::sample(5000 + r))?;
            let dg = nispp_diag(&out)?;
            if inner != InnerSolver::Exact {
                worst_cert = worst_cert.max(dg.max_nu_certificate / nu);
                main.observe_exact(dg.nu_met, None, format!("{label}, seed {r}: (5.1) met"));
            }
            gaps.push(ins.gap(&out.z)?);
        }
        let (g, se) = mean_se(&gaps);
        let upper = g + Z999 * se;
        let sigmas = vec![sigma; k1];
        let gamma_sum: f64 = gammas.iter().sum();
        let mut printed = 0.0;
        for reading in Reading::BOTH {
            let bound = p::thm5_bound(&c, nu, l0, &gammas, &sigmas, reading);
            main.observe(upper, bound, format!("{label} ({})", reading.label()));
            if reading == Reading::PaperLiteral {
                printed = bound;
            }
        }
        let no_d2 = p::thm5_bound(&c, nu, l0, &gammas, &sigmas, Reading::Corrected)
            - 1.5 * l0 * c.d_w * c.d_w / gamma_sum;
        ctrl.observe(upper, no_d2, format!("{label}: Z₀ without (3γ₀λ₀/2)D²"));
        xs.push(i as f64);
        ys.push(upper / printed);
        notes.push(format!(
            "{label}: n = {n}, B = {b}, K + 1 = {k1}, λ₀ = {l0}, σ = {sigma}, ν = {nu:e}: E gap \
             {g:.4} ± {se:.4} ({reps} runs), printed bound {printed:.4} (ratio {:.3}), without the \
             D² term {no_d2:.4}; worst ν_cert/ν {worst_cert:.3}",
            upper / printed
        ));
    }
    let mut ev = Evidence::from_checks(&main, Some(("Z₀ without (3γ₀λ₀/2)D²", &ctrl)))
        .with_series(ratio_series(
            "Thm 5: E gap (99.9% upper) / printed bound, settings A–D",
            "setting",
            xs,
            ys,
            false,
        ))
        .note(
            "not tight: Young's inequalities in (5.8)–(5.19); E-BG23-42 recorded (no instance \
               separates Z₀ from Z₀′)",
        );
    for nt in notes {
        ev = ev.note(nt);
    }
    Ok(ev)
}

// ---------------------------------------------------------------------------------------------
// Remark 3 (2)
// ---------------------------------------------------------------------------------------------

fn check_remark3_nondp(budget: Budget) -> Result<Evidence> {
    let (ns, reps): (Vec<u64>, u64) = match budget {
        Budget::Quick => (vec![16, 64, 256], 40),
        Budget::Full => (vec![16, 64, 256, 1024, 4096], 400),
    };
    let ins = inst(1.0, 0.9)?;
    let (m, dd) = (1.0, 2.0);
    let c = OpClass {
        m,
        d_w: dd,
        l: 0.0,
        dim: 1,
    };
    let mut main = BoundCheck::new(1e-12, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for &n in &ns {
        let nu_ = n as usize;
        let s = ins.sample(nu_, 900)?;
        // Literal: K = n, i.e. n + 1 one-point disjoint batches.
        let lit = p::policy(
            NisppItem::Remark3Nondp,
            m,
            dd,
            0.0,
            n,
            1,
            1.0,
            1e-5,
            Reading::PaperLiteral,
        )?;
        let lit_run = Nispp::from_policy(&lit, m, cert_stop(), vec![1.0])
            .and_then(|a| a.run_plain(&ins.op, &s, &mut NoiseSource::sample(1)));
        let refused = match &lit_run {
            Err(e) => {
                let msg = format!("{e}");
                notes.push(format!("n = {n}, literal K = n: refused ({msg})"));
                true
            }
            Ok(_) => false,
        };
        ctrl.observe_exact(
            !refused,
            None,
            format!("n = {n}: the literal K = n runs as a single pass"),
        );
        let pol = p::policy(
            NisppItem::Remark3Nondp,
            m,
            dd,
            0.0,
            n,
            1,
            1.0,
            1e-5,
            Reading::Corrected,
        )?;
        let sch = pol.schedule;
        let sq = (n as f64).sqrt();
        main.observe_exact(
            sch.batch == 1
                && sch.iterations == n
                && (sch.lambda0 - m / dd * sq).abs() <= 1e-12 * sch.lambda0
                && (sch.nu - m * dd / sq).abs() <= 1e-12 * sch.nu
                && pol.sigma == 0.0,
            None,
            format!("n = {n}: schedule λ₀ = (M/D)√n, B = 1, K + 1 = n, ν = MD/√n, σ = 0"),
        );
        let alg = Nispp::from_policy(&pol, m, cert_stop(), vec![1.0])?.with_lipschitz(0.0)?;
        let mut gaps = Vec::new();
        for r in 0..reps {
            let s = ins.sample(nu_, 1000 + r)?;
            let out = alg.run_plain(&ins.op, &s, &mut NoiseSource::sample(r))?;
            main.observe_exact(nispp_diag(&out)?.nu_met, None, format!("n = {n}: (5.1)"));
            gaps.push(ins.gap(&out.z)?);
        }
        let (g, se) = mean_se(&gaps);
        let k1 = sch.iterations as usize;
        let bound = p::thm5_bound(
            &c,
            sch.nu,
            sch.lambda0,
            &vec![1.0; k1],
            &vec![0.0; k1],
            Reading::Corrected,
        );
        // The O(MD/√n) constant: MD/√n + (3/2)(M/D)√n·D²/n + 4M²/((M/D)√n) = 6.5MD/√n.
        main.observe(
            (bound - 6.5 * m * dd / sq).abs(),
            1e-12 * bound,
            format!("n = {n}: Thm 5's bound = 6.5MD/√n"),
        );
        main.observe(g + Z999 * se, bound, format!("n = {n}: E gap ≤ 6.5MD/√n"));
        xs.push(n as f64);
        ys.push((g + Z999 * se) / bound);
        notes.push(format!(
            "n = {n} (K + 1 = n): E gap {g:.4e} ± {se:.1e} ({reps} runs), 6.5MD/√n = {bound:.4e}, \
             ratio {:.3}; gap·√n/(MD) = {:.3}",
            (g + Z999 * se) / bound,
            g * sq / (m * dd)
        ));
    }
    let mut ev = Evidence::from_checks(&main, Some(("literal K = n (n + 1 batches)", &ctrl)))
        .with_series(ratio_series(
            "Remark 3 (2): E gap (99.9% upper) / 6.5MD/√n",
            "n",
            xs,
            ys,
            true,
        ))
        .note("E-BG23-47: the literal schedule needs n + 1 disjoint one-point batches");
    for nt in notes {
        ev = ev.note(nt);
    }
    Ok(ev)
}

// ---------------------------------------------------------------------------------------------
// Thm 7
// ---------------------------------------------------------------------------------------------

/// Thm 7's printed policy recomputed here from the statement (B = √n, K = n, λ₀, ν, σ), against
/// the production schedule; true when every field agrees.
fn thm7_printed_matches(pol: &NisppPolicy, m: f64, dd: f64, l: f64, n: u64, d: u64) -> bool {
    let (eps, eta) = (1.0f64, 1e-5f64);
    let sq = (n as f64).sqrt();
    let b = sq.ceil();
    let lam = (m / dd).max(l) * sq.max((d as f64 * (1.0 / eta).ln()).sqrt() / eps);
    let nu = m * m / (lam * (n * n) as f64);
    let sigma = 8.0 * m * (1.0 / eta).ln().sqrt() / (b * lam * eps);
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs();
    pol.schedule.batch as f64 == b
        && pol.schedule.iterations == n + 1
        && close(pol.schedule.lambda0, lam)
        && close(pol.schedule.nu, nu)
        && close(pol.sigma, sigma)
}

fn check_thm7(budget: Budget) -> Result<Evidence> {
    let (ns, reps): (Vec<u64>, u64) = match budget {
        Budget::Quick => (vec![64, 144], 30),
        Budget::Full => (vec![64, 144, 256, 1024], 200),
    };
    let ins = inst(1.0, 0.9)?;
    let (m, dd, l, d) = (1.0, 2.0, 0.0, 1u64);
    let c = OpClass {
        m,
        d_w: dd,
        l,
        dim: 1,
    };
    let mut main = BoundCheck::new(1e-12, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for &n in &ns {
        let pol = p::policy(
            NisppItem::Thm7,
            m,
            dd,
            l,
            n,
            d,
            1.0,
            1e-5,
            Reading::Corrected,
        )?;
        let sch = pol.schedule;
        main.observe_exact(
            thm7_printed_matches(&pol, m, dd, l, n, d),
            None,
            format!("n = {n}: the production schedule is Thm 7's printed policy"),
        );
        let delta = 2.0 * m / sch.lambda0 + n as f64 * (4.0 * sch.nu / sch.lambda0).sqrt();
        main.observe(
            (delta - 4.0 * m / sch.lambda0).abs(),
            1e-12 * delta,
            format!("n = {n}: δ = 4M/λ₀"),
        );
        main.observe(
            delta,
            4.0 * dd / (n as f64).sqrt(),
            format!("n = {n}: δ ≤ 4D/√n"),
        );
        let alg = Nispp::from_policy(&pol, m, cert_stop(), vec![1.0])?.with_lipschitz(l)?;
        let nn = n as usize;
        // One traced run: shape, (5.1) at every step, T_k against App. B's corrected count, counts.
        let s0 = ins.sample(nn, 2000)?;
        let run = alg.run_traced(&ins.op, &s0, &mut NoiseSource::sample(2000))?;
        let b = sch.batch as usize;
        main.observe_exact(
            run.steps.len() == nn + 1 && run.steps.iter().all(|st| st.batch.len() == b),
            None,
            format!("n = {n}: n + 1 steps of B = {b}"),
        );
        let pairs = inner_vs_corrected(&run, ins.op.domain(), &c, sch.lambda0, sch.nu)?;
        let mut worst_t = 0.0f64;
        for (k, (st, &(t, tc))) in run.steps.iter().zip(&pairs).enumerate() {
            main.observe(
                st.nu_certificate,
                sch.nu,
                format!("n = {n}, k = {k}: (5.1)"),
            );
            main.observe_exact(
                t <= tc,
                Some(t as f64 / tc as f64),
                format!("n = {n}, k = {k}: T_k ≤ corrected count"),
            );
            worst_t = worst_t.max(t as f64 / tc as f64);
        }
        let inner_sum: u64 = run.steps.iter().map(|st| st.inner_evals).sum();
        let t_sum: usize = run.steps.iter().map(|st| st.inner_iterations).sum();
        main.observe_exact(
            run.output.evals == inner_sum
                && inner_sum == (t_sum * b) as u64
                && run.output.evals_per_point.iter().sum::<u64>() == run.output.evals,
            None,
            format!("n = {n}: evaluations = Σ_k T_k·B, per point summing to the total"),
        );
        let logf = (4.0 * sch.lambda0 * dd * dd / sch.nu).ln();
        let per = run.output.evals as f64 / ((n as f64).powf(1.5) * logf);
        // The control: the proof's printed OE count (Remark 3's) as the inner solver.
        let lit = Nispp::from_policy(&pol, m, InnerSolver::OeRemark3, vec![1.0])?
            .with_lipschitz(l)?
            .run_plain(&ins.op, &s0, &mut NoiseSource::sample(2000))?;
        let lit_cert = nispp_diag(&lit)?.max_nu_certificate;
        ctrl.observe(
            lit_cert,
            sch.nu,
            format!("n = {n}: Remark 3's count meets (5.1)"),
        );
        // Monte Carlo: the weak gap is affine in the output (constant operator), so it is the
        // mean of the per-run gaps.
        let mut gaps = Vec::new();
        for r in 0..reps {
            let s = ins.sample(nn, 3000 + r)?;
            let out = alg.run_plain(&ins.op, &s, &mut NoiseSource::sample(3000 + r))?;
            gaps.push(ins.gap(&out.z)?);
        }
        let (g, se) = mean_se(&gaps);
        let bound = p::thm7_bound(&c, n, &sch, pol.sigma);
        main.observe(
            g + Z999 * se,
            bound,
            format!("n = {n}: E WeakGap ≤ explicit bound"),
        );
        let explicit_o = 22.0 * (m + l * dd) * dd / (n as f64).sqrt()
            + 194.0 * (m + l * dd) * dd * (d as f64 * (1e5f64).ln()).sqrt() / n as f64;
        main.observe(
            bound,
            explicit_o,
            format!("n = {n}: bound ≤ 22(M + LD)D/√n + 194…"),
        );
        xs.push(n as f64);
        ys.push((g + Z999 * se) / bound);
        notes.push(format!(
            "n = {n}: B = {b}, λ₀ = {:.3}, ν = {:.3e}, σ = {:.4}; E WeakGap {g:.4} ± {se:.4} ({reps} \
             runs), explicit bound {bound:.4} (ratio {:.4}), 22/194-form {explicit_o:.3}; T_k/corrected \
             count ≤ {worst_t:.3}; {} evaluations = {per:.3}·n^{{3/2}}·ln(4λ₀D²/ν); Remark 3's count: \
             ν_cert/ν = {:.3e}",
            sch.lambda0,
            sch.nu,
            pol.sigma,
            (g + Z999 * se) / bound,
            run.output.evals,
            lit_cert / sch.nu
        ));
    }
    let mut ev = Evidence::from_checks(&main, Some(("the proof's printed OE count", &ctrl)))
        .with_series(ratio_series(
            "Thm 7: E WeakGap (99.9% upper) / explicit corrected bound",
            "n",
            xs,
            ys,
            true,
        ))
        .note("the explicit bound is loose (vacuous at these n: above the largest possible gap MD = 2 \
               for small n); privacy is `bg23.thm7_privacy`");
    for nt in notes {
        ev = ev.note(nt);
    }
    Ok(ev)
}

// ---------------------------------------------------------------------------------------------
// Table 1, NISPP row
// ---------------------------------------------------------------------------------------------

fn check_cost(budget: Budget) -> Result<Evidence> {
    let (single, multi): (Vec<u64>, Vec<u64>) = match budget {
        Budget::Quick => (vec![64, 216, 512], vec![16, 64]),
        Budget::Full => (vec![64, 216, 512, 1000, 4096], vec![16, 64, 256]),
    };
    let ins = inst(1.0, 0.9)?;
    let (m, dd, l) = (1.0, 2.0, 0.0);
    let c = OpClass {
        m,
        d_w: dd,
        l,
        dim: 1,
    };
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for (multi_pass, grid) in [(false, &single), (true, &multi)] {
        for &n in grid {
            let nn = n as usize;
            let item = if multi_pass {
                NisppItem::Thm7
            } else {
                NisppItem::Cor2
            };
            let pol = p::policy(item, m, dd, l, n, 1, 1.0, 1e-5, Reading::Corrected)?;
            let sch = pol.schedule;
            let alg = Nispp::from_policy(&pol, m, cert_stop(), vec![1.0])?.with_lipschitz(l)?;
            let s = ins.sample(nn, 4000 + n)?;
            let run = alg.run_traced(&ins.op, &s, &mut NoiseSource::sample(4000 + n))?;
            let out = &run.output;
            let b = sch.batch as usize;
            let pairs = inner_vs_corrected(&run, ins.op.domain(), &c, sch.lambda0, sch.nu)?;
            let mut explicit = 0u64;
            for (k, &(t, tc)) in pairs.iter().enumerate() {
                main.observe_exact(
                    t <= tc,
                    Some(t as f64 / tc as f64),
                    format!("n = {n}, k = {k}: T_k ≤ corrected count"),
                );
                explicit += (b * tc) as u64;
            }
            let inner_sum: u64 = run.steps.iter().map(|st| st.inner_evals).sum();
            let mut shape = out.evals == inner_sum
                && out.evals_per_point.iter().sum::<u64>() == out.evals
                && run
                    .steps
                    .iter()
                    .all(|st| st.inner_evals == (st.inner_iterations * b) as u64);
            if !multi_pass {
                // A single pass: point i of B_{k+1} is evaluated T_k times, an unused point never.
                let mut want = vec![0u64; nn];
                for st in &run.steps {
                    for &i in &st.batch {
                        shape &= want[i] == 0;
                        want[i] = st.inner_iterations as u64;
                    }
                }
                shape &= want == out.evals_per_point;
            }
            let kind = if multi_pass {
                "multi-pass (Thm 7)"
            } else {
                "single pass (Cor 2)"
            };
            main.observe_exact(shape, None, format!("{kind}, n = {n}: per-sample counts"));
            main.observe(
                out.evals as f64,
                explicit as f64,
                format!("{kind}, n = {n}: ≤ Σ_k B·T_corr,k"),
            );
            let nf = n as f64;
            let table = if multi_pass {
                nf.powf(1.5) * nf.ln()
            } else {
                nf * nf.ln()
            };
            ctrl.observe(
                out.evals as f64,
                table,
                format!("{kind}, n = {n}: table count with ln n, constant 1"),
            );
            // NSEG at the same n (Table 1's other row): single pass ≤ n, multi-pass 2n².
            let nseg_evals = if multi_pass {
                let np = nseg_pol::thm4_policy(m, dd, l, n, 1, 1.0, 1e-5, Reading::Corrected)?;
                np.multi_pass(vec![1.0])?
                    .run_with(&ins.op, &s, &mut NoiseSource::sample(1))?
                    .evals
            } else {
                let np = nseg_pol::cor1_policy(m, dd, l, n, 1, 1.0, 1e-5, Reading::Corrected)?;
                np.single_pass(vec![1.0])?
                    .run_with(&ins.op, &s, &mut NoiseSource::sample(1))?
                    .evals
            };
            xs.push(nf);
            ys.push(out.evals as f64 / explicit as f64);
            notes.push(format!(
                "{kind}, n = {n}: B = {b}, K + 1 = {}, T_k ∈ [{}, {}], {} evaluations = {:.2}·{}, \
                 {:.3} of Σ B·T_corr = {explicit}; NSEG {nseg_evals} (NISPP/NSEG = {:.2})",
                sch.iterations,
                pairs.iter().map(|x| x.0).min().unwrap_or(0),
                pairs.iter().map(|x| x.0).max().unwrap_or(0),
                out.evals,
                out.evals as f64 / table,
                if multi_pass { "n^{3/2} ln n" } else { "n ln n" },
                out.evals as f64 / explicit as f64,
                out.evals as f64 / nseg_evals as f64
            ));
        }
    }
    let mut ev = Evidence::from_checks(
        &main,
        Some(("Table 1's counts with ln n, constant 1", &ctrl)),
    )
    .with_series(ratio_series(
        "Table 1 (NISPP): counted evaluations / Σ_k B·T_corr,k",
        "n",
        xs,
        ys,
        true,
    ));
    for nt in notes {
        ev = ev.note(nt);
    }
    Ok(ev)
}

// ---------------------------------------------------------------------------------------------
// Rates
// ---------------------------------------------------------------------------------------------

fn check_rate_nispp(budget: Budget) -> Result<Evidence> {
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    // In n: Remark 3 (2) (corrected), p = 1 (every β = 1): F_B = F, σ = 0, so the run and its gap
    // are deterministic.
    let ins = inst(1.0, 1.0)?;
    let (m, dd) = (1.0, 2.0);
    let ns: Vec<u64> = match budget {
        Budget::Quick => vec![100, 400, 1600, 6400],
        Budget::Full => vec![100, 400, 1600, 6400, 25_600],
    };
    let mut gaps = Vec::new();
    let mut bounds = Vec::new();
    for &n in &ns {
        let pol = p::policy(
            NisppItem::Remark3Nondp,
            m,
            dd,
            0.0,
            n,
            1,
            1.0,
            1e-5,
            Reading::Corrected,
        )?;
        let alg = Nispp::from_policy(&pol, m, cert_stop(), vec![1.0])?.with_lipschitz(0.0)?;
        let s = ins.sample(n as usize, 1)?;
        let out = alg.run_plain(&ins.op, &s, &mut NoiseSource::sample(0))?;
        let again = alg.run_plain(&ins.op, &s, &mut NoiseSource::sample(99))?;
        main.observe_exact(out.z == again.z, None, format!("n = {n}: deterministic"));
        let g = ins.gap(&out.z)?;
        let bound = 6.5 * m * dd / (n as f64).sqrt();
        main.observe(g, bound, format!("n = {n}: gap ≤ 6.5MD/√n"));
        notes.push(format!(
            "n = {n}: gap {g:.5e}, gap·√n = {:.4}",
            g * (n as f64).sqrt()
        ));
        gaps.push(g);
        bounds.push(bound);
    }
    let xs: Vec<f64> = ns.iter().map(|&n| n as f64).collect();
    let zeros = vec![0.0; xs.len()];
    let (slope, hw) = loglog_fit(&xs, &gaps, &zeros);
    let tol = 0.1;
    main.observe(
        (slope + 0.5).abs() + hw,
        tol,
        "n: |slope + ½| + half-width ≤ 0.1",
    );
    ctrl.observe(((slope + 1.0).abs() - hw).max(0.0), tol, "rate n^{−1}");
    let mut ev_series = vec![Series {
        kind: SeriesKind::Rate,
        title: "BG23 Remark 3 (2): gap of non-private single-pass NISPP vs n".into(),
        x_label: "n".into(),
        y_label: "Gap_VI".into(),
        x: xs,
        y: gaps,
        y_se: zeros,
        bound: bounds,
        fit: Some(SlopeFit {
            slope,
            half_width: hw,
            target: -0.5,
        }),
        log_x: true,
    }];
    notes.push(format!(
        "in n: slope {slope:.4} (deterministic instance: half-width {hw})"
    ));
    if budget == Budget::Full {
        // In ε: Thm 7's NISPP on Prop 12's instance (n = 256, d = 4, ε in the privacy branch),
        // whose dataset has ‖β̄‖ = ρ(ε) ∝ 1/ε: the worst-case rate in ε.
        let n = 256usize;
        let epss = [0.1, 0.2, 0.4];
        let reps = 24u64;
        let (mut means, mut ses, mut rates) = (Vec::new(), Vec::new(), Vec::new());
        for &eps in &epss {
            let r = lb_instance_gaps(n, eps, reps, &mut main)?;
            notes.push(format!(
                "ε = {eps} (Prop 12's instance, n = {n}): E EmpGap {:.4e} ± {:.1e} ({reps} runs), \
                 rate {:.4e}",
                r.mean, r.se, r.rate
            ));
            means.push(r.mean);
            ses.push(r.se);
            rates.push(r.rate);
        }
        let (se_slope, se_hw) = loglog_fit(&epss, &means, &ses);
        main.observe(
            (se_slope + 1.0).abs() + se_hw,
            0.2,
            "ε: |slope + 1| + 99.9% half-width ≤ 0.2",
        );
        notes.push(format!("in ε (n = {n}): slope {se_slope:.4} ± {se_hw:.4}"));
        ev_series.push(Series {
            kind: SeriesKind::Rate,
            title: "BG23 Thm 7 / Prop 12: NISPP's EmpGap vs ε on Prop 12's instance (n = 256)"
                .into(),
            x_label: "ε".into(),
            y_label: "E EmpGap_VI".into(),
            x: epss.to_vec(),
            y: means,
            y_se: ses,
            bound: rates,
            fit: Some(SlopeFit {
                slope: se_slope,
                half_width: se_hw,
                target: -1.0,
            }),
            log_x: true,
        });
        // Reported, not asserted: on a fixed 1-D dataset Thm 7's privacy branch is
        // noise-dominated (σ²λ₀ ≥ D whenever B·d < 64), so its gap hardly moves with ε.
        let n = 2500u64;
        let c = OpClass {
            m,
            d_w: dd,
            l: 0.0,
            dim: 1,
        };
        let mut flat = Vec::new();
        for &eps in &[0.015, 0.06] {
            let pol = p::policy(
                NisppItem::Thm7,
                m,
                dd,
                0.0,
                n,
                1,
                eps,
                1e-5,
                Reading::Corrected,
            )?;
            let alg = Nispp::from_policy(&pol, m, cert_stop(), vec![1.0])?.with_lipschitz(0.0)?;
            let s = ins.sample(n as usize, 1)?;
            let mut g = Vec::new();
            for r in 0..8 {
                let out = alg.run_plain(&ins.op, &s, &mut NoiseSource::sample(6000 + r))?;
                g.push(ins.gap(&out.z)?);
            }
            let (mu, se) = mean_se(&g);
            let bound = p::thm7_bound(&c, n, &pol.schedule, pol.sigma);
            main.observe(
                mu + Z999 * se,
                bound,
                format!("1-D, ε = {eps}: ≤ explicit bound"),
            );
            flat.push(format!(
                "ε = {eps}: {mu:.3} ± {se:.3} (σ = {:.3}, λ₀ = {:.1})",
                pol.sigma, pol.schedule.lambda0
            ));
        }
        notes.push(format!(
            "reported only: 1-D fixed dataset (every β = 1), n = {n}, Thm 7's privacy branch: E gap {}",
            flat.join("; ")
        ));
    }
    let mut ev = Evidence::from_checks(&main, Some(("rate n^{−1}", &ctrl)));
    for s in ev_series {
        ev = ev.with_series(s);
    }
    for nt in notes {
        ev = ev.note(nt);
    }
    Ok(ev)
}

// ---------------------------------------------------------------------------------------------
// Prop 12's lower bound, approached
// ---------------------------------------------------------------------------------------------

/// One point of Prop 12's instance: d = 4, M = 1, W = B(0, 1), the dataset of n points ±v
/// (v = (1, …, 1)/2) with ‖β̄‖ ≈ ρ = min{1, √(d ln(1/η))/(εn)}, Thm 7's NISPP from 0.
struct LbPoint {
    mean: f64,
    se: f64,
    rate: f64,
    rho: f64,
    norm_bar: f64,
    lambda0: f64,
    sigma: f64,
}

const LB_D: usize = 4;
const LB_ETA: f64 = 1e-5;

fn lb_instance_gaps(n: usize, eps: f64, reps: u64, main: &mut BoundCheck) -> Result<LbPoint> {
    let (d, m, radius, eta) = (LB_D, 1.0f64, 1.0f64, LB_ETA);
    let op = ConstantOp::bg23_prop12(d, m, radius)?;
    let atoms = ConstantOp::prop12_atoms(d)?;
    let (plus, minus) = (&atoms[0], &atoms[(1 << d) - 1]);
    let root = (d as f64 * (1.0 / eta).ln()).sqrt() / eps;
    let rho = (root / n as f64).min(1.0);
    let n_plus = ((n as f64 * (1.0 + rho) / 2.0).round() as usize).min(n);
    let s = Dataset::new(
        (0..n)
            .map(|i| {
                if i < n_plus {
                    plus.clone()
                } else {
                    minus.clone()
                }
            })
            .collect(),
    )?;
    let beta_bar = s.mean();
    let mix = Mixture::empirical(&s);
    let rate = lb::prop12_rate(m, radius, n, d, eps, eta)?;
    let pol = p::policy(
        NisppItem::Thm7,
        m,
        op.domain().diameter(),
        0.0,
        n as u64,
        d as u64,
        eps,
        eta,
        Reading::Corrected,
    )?;
    let alg = Nispp::from_policy(&pol, m, cert_stop(), vec![0.0; d])?.with_lipschitz(0.0)?;
    let mut gaps = Vec::new();
    for r in 0..reps {
        let out = alg.run_plain(&op, &s, &mut NoiseSource::sample(7000 + r))?;
        let g = lb::prop12_emp_gap(m, radius, &beta_bar, &out.z)?;
        let g_op = op.vi_gap(&mix, &out.z)?;
        main.observe(
            (g - g_op).abs(),
            1e-12 * (1.0 + g.abs()),
            format!("n = {n}, ε = {eps}: closed form = VI gap"),
        );
        gaps.push(g);
    }
    let (mean, se) = mean_se(&gaps);
    Ok(LbPoint {
        mean,
        se,
        rate,
        rho,
        norm_bar: linalg::norm2(&beta_bar),
        lambda0: pol.schedule.lambda0,
        sigma: pol.sigma,
    })
}

fn check_lb_attained(budget: Budget) -> Result<Evidence> {
    let (ns, reps): (Vec<usize>, u64) = match budget {
        Budget::Quick => (vec![64, 256], 16),
        Budget::Full => (vec![64, 256, 1024], 40),
    };
    let (d, m, radius, eps, eta) = (LB_D, 1.0f64, 1.0f64, 0.2f64, LB_ETA);
    let mut main = BoundCheck::new(1e-12, 1e-12);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    let (mut means, mut ses) = (Vec::new(), Vec::new());
    let c1 = 0.25;
    for &n in &ns {
        let pt = lb_instance_gaps(n, eps, reps, &mut main)?;
        let (g, se, rate) = (pt.mean, pt.se, pt.rate);
        let ratio = g / rate;
        let lower = g - Z999 * se;
        // Read as c₁·rate ≤ lower: ratio c₁·rate/lower ≤ 1.
        main.observe(
            c1 * rate,
            lower,
            format!("n = {n}: ¼·Prop 12's rate ≤ E EmpGap (99.9% lower)"),
        );
        main.observe(
            g + Z999 * se,
            2.0 * m * radius * pt.norm_bar,
            format!("n = {n}: E EmpGap ≤ 2MD‖β̄‖"),
        );
        let root = (d as f64 * (1.0 / eta).ln()).sqrt() / eps;
        let wrong = m * radius * (root / (n as f64).sqrt()).min(1.0);
        ctrl.observe(
            c1 * wrong,
            lower,
            format!("n = {n}: ¼·MD·min{{1, √(d ln(1/η))/(ε√n)}} ≤ E EmpGap"),
        );
        notes.push(format!(
            "n = {n}: ρ = {:.4} (‖β̄‖ = {:.4}), λ₀ = {:.3}, σ = {:.4}; E EmpGap {g:.4e} ± {se:.1e} \
             ({reps} runs) = {ratio:.3}× Prop 12's rate {rate:.4e}",
            pt.rho, pt.norm_bar, pt.lambda0, pt.sigma
        ));
        xs.push(n as f64);
        ys.push(ratio);
        means.push(g);
        ses.push(se);
    }
    let (slope, hw) = loglog_fit(&xs, &means, &ses);
    notes.push(format!(
        "slope of E EmpGap in n: {slope:.3} ± {hw:.3} (Prop 12's rate: −1 here)"
    ));
    if budget == Budget::Full {
        main.observe(
            (slope + 1.0).abs() + hw,
            0.25,
            "|slope + 1| + half-width ≤ 0.25",
        );
    }
    let mut ev = Evidence::from_checks(&main, Some(("the order √(d ln(1/η))/(ε√n)", &ctrl)))
        .with_series(ratio_series(
            "Prop 12's instance: E EmpGap of Thm 7's NISPP / Prop 12's rate",
            "n",
            xs,
            ys,
            true,
        ))
        .note(format!(
            "d = {d}, M = D = 1 (W = B(0, 1), diameter 2, E-BG23-64), ε = {eps}, η = {eta}: the \
             Ω-bound's constant is not printed, so the band [¼, 2] is the claim (2 is the \
             geometric maximum 2MD‖β̄‖). The measured ratio is ≈ 1: at this ε the noise the privacy \
             needs keeps NISPP's output near the trivial z = 0, whose gap is MD‖β̄‖ = Prop 12's rate"
        ));
    for nt in notes {
        ev = ev.note(nt);
    }
    Ok(ev)
}
