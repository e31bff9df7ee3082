//! The empirical privacy auditor (`privacy::audit`, with the release audits of
//! `algorithms::release_audit`) and the exact discrete Gaussian sampler
//! (`privacy::discrete_gaussian`, with `algorithms::discrete_output_perturbation`).
//!
//! Auditor: soundness on the Gaussian mechanism against an independent twin of its exact
//! privacy profile, power (a mechanism that halves its noise is caught), determinism across
//! thread counts, Clopper–Pearson bounds against exact binomial sums, and audits of two real
//! releases (Gaussian output perturbation and its discrete-Gaussian grid version).
//! Sampler: χ² and KS (DKW) goodness of fit against the exact pmfs at α = 10⁻⁶ with fixed
//! seeds, each with a negative control showing the test can reject.

use dpsaddle::algorithms::discrete_output_perturbation::DiscreteGaussianOutputPerturbation;
use dpsaddle::algorithms::release_audit::audit_lin_box_release;
use dpsaddle::algorithms::{Algorithm, OutputPerturbation, RegularizedSaddlePoint};
use dpsaddle::error::Error;
use dpsaddle::privacy::audit::{
    audit, clopper_pearson_lower, clopper_pearson_upper, gaussian_score, incomplete_beta,
    AuditConfig, Side, Thresholds,
};
use dpsaddle::privacy::discrete_gaussian::{
    bernoulli, bernoulli_exp, grid_release, uniform_below, zcdp_epsilon, DiscreteGaussian,
    DiscreteLaplace, RandomBits,
};
use dpsaddle::problem::QuadBilinear;
use dpsaddle::rng::{NoiseSource, Stream};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::ToPrimitive;
use rayon::prelude::*;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use statrs::function::erf::erfc;

// ---------------------------------------------------------------------------------------------
// Independent twins.

/// Φ(x) from erfc, written here independently of `privacy::special`.
fn phi(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The Gaussian mechanism's exact δ(ε) (Balle & Wang 2018 Thm 8):
/// Φ(−εσ/Δ + Δ/(2σ)) − e^ε Φ(−εσ/Δ − Δ/(2σ)).
fn gaussian_delta(sigma: f64, sens: f64, eps: f64) -> f64 {
    phi(-eps * sigma / sens + sens / (2.0 * sigma))
        - eps.exp() * phi(-eps * sigma / sens - sens / (2.0 * sigma))
}

/// Its inverse in ε by bisection (δ(ε) is decreasing); returns the upper end of the bracket.
fn gaussian_epsilon(sigma: f64, sens: f64, delta: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 60.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gaussian_delta(sigma, sens, mid) > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// P[Bin(n, p) ≥ k] by summing the pmf, built from the mode by ratios and normalized by the
/// total (no log-gamma), in f64.
fn binomial_tail_ge(k: u64, n: u64, p: f64) -> f64 {
    let mode = (((n + 1) as f64 * p).floor() as u64).min(n);
    let r = p / (1.0 - p);
    let mut terms = vec![0.0f64; n as usize + 1];
    terms[mode as usize] = 1.0;
    for j in mode..n {
        let next = terms[j as usize] * (n - j) as f64 / (j + 1) as f64 * r;
        terms[j as usize + 1] = next;
        if next < 1e-300 {
            break;
        }
    }
    for j in (1..=mode).rev() {
        let prev = terms[j as usize] * j as f64 / (n - j + 1) as f64 / r;
        terms[j as usize - 1] = prev;
        if prev < 1e-300 {
            break;
        }
    }
    let total: f64 = terms.iter().sum();
    let tail: f64 = terms[k as usize..].iter().sum();
    tail / total
}

// ---------------------------------------------------------------------------------------------
// The auditor.

const DELTA: f64 = 1e-5;

/// Soundness: ε_lb ≤ exact ε(δ) for σ ∈ {0.5, 1, 2} and N ∈ {10³, 10⁴, 10⁵}; power: at
/// N = 10⁵ the bound is a sizeable fraction of the truth.
#[test]
fn gaussian_audit_is_sound() {
    for sigma in [0.5, 1.0, 2.0] {
        let truth = gaussian_epsilon(sigma, 1.0, DELTA);
        // The library's GDP profile agrees with the twin.
        let lib = dpsaddle::privacy::audit::gdp_epsilon(1.0 / sigma, DELTA).unwrap();
        assert!((lib - truth).abs() < 1e-8, "σ={sigma}: {lib} vs {truth}");
        for (i, n) in [1_000usize, 10_000, 100_000].into_iter().enumerate() {
            let mut cfg = AuditConfig::new(n, DELTA);
            cfg.seed_offset = 1_000_000_000 * i as u64;
            let r = audit(|side, seed| Ok(gaussian_score(sigma, side, seed)), &cfg).unwrap();
            println!(
                "σ={sigma} N={n}: ε_lb={:.4} ε_true={truth:.4} ratio={:.3} μ̂={:.3} μ_lb={:.3} \
                 (μ=1/σ={:.3}) ε_gdp={:.3} ε_gdp_lb={:.3} T={}",
                r.epsilon_lb,
                r.epsilon_lb / truth,
                r.gdp.mu_hat,
                r.gdp.mu_lb,
                1.0 / sigma,
                r.gdp.epsilon_gdp,
                r.gdp.epsilon_gdp_lb,
                r.thresholds
            );
            assert!(r.epsilon_lb <= truth, "σ={sigma} N={n}: {r:?}");
            assert!(r.gdp.mu_lb <= 1.0 / sigma, "σ={sigma} N={n}: {:?}", r.gdp);
            assert!(r.gdp.epsilon_gdp_lb <= truth);
            assert_eq!(r.draws, n);
            assert_eq!(r.tests, 4 * r.thresholds);
            if n == 100_000 {
                assert!(r.epsilon_lb >= 0.3 * truth, "no power: {r:?}");
            }
        }
    }
}

/// Tightness at N = 10⁶ for σ = 1 (≈ 1 s in release): ε_lb/ε_true ≥ 0.5, and the GDP estimate
/// is close to the truth.
#[test]
fn gaussian_audit_tightness_at_one_million() {
    let sigma = 1.0;
    let truth = gaussian_epsilon(sigma, 1.0, DELTA);
    let t0 = std::time::Instant::now();
    let r = audit(
        |side, seed| Ok(gaussian_score(sigma, side, seed)),
        &AuditConfig::new(1_000_000, DELTA),
    )
    .unwrap();
    println!(
        "σ=1 N=1e6: ε_lb={:.4} ε_true={truth:.4} ratio={:.3} μ̂={:.4} μ_lb={:.4} ε_gdp={:.4} \
         ε_gdp_lb={:.4} best={:?} ({:.2?})",
        r.epsilon_lb,
        r.epsilon_lb / truth,
        r.gdp.mu_hat,
        r.gdp.mu_lb,
        r.gdp.epsilon_gdp,
        r.gdp.epsilon_gdp_lb,
        r.best,
        t0.elapsed()
    );
    assert!(r.epsilon_lb <= truth);
    assert!(r.epsilon_lb >= 0.5 * truth, "{r:?}");
    assert!((r.gdp.mu_hat - 1.0).abs() < 0.1, "{:?}", r.gdp);
}

/// The heavy variants the lead's `verify --budget full` runs (N = 10⁶ for three σ, and the
/// output-perturbation release at N = 2·10⁵). `cargo test --release -- --ignored` runs it.
#[test]
#[ignore = "full budget: about a minute in release"]
fn full_budget_audits_are_sound() {
    for a in dpsaddle::algorithms::release_audit::full_budget_audits(
        dpsaddle::algorithms::release_audit::FullAuditDraws::FULL,
    )
    .unwrap()
    {
        println!(
            "{}: ε_lb={:.4} ε_ref({})={:.4} ratio={:.3} ε_gdp={:.4}",
            a.name,
            a.report.epsilon_lb,
            a.reference_kind,
            a.epsilon_reference,
            a.report.epsilon_lb / a.epsilon_reference,
            a.report.gdp.epsilon_gdp
        );
        assert!(a.report.epsilon_lb <= a.epsilon_reference, "{a:?}");
    }
}

/// Negative control: a mechanism whose σ is exactly calibrated (by the twin) to ε = 1 at
/// δ = 10⁻⁵ but which adds only σ/2 is caught: ε_lb > 1.
#[test]
fn halved_noise_is_caught() {
    let claimed = 1.0;
    let (mut lo, mut hi) = (0.1, 20.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if gaussian_epsilon(mid, 1.0, DELTA) > claimed {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let sigma_claimed = hi;
    let honest = audit(
        |side, seed| Ok(gaussian_score(sigma_claimed, side, seed)),
        &AuditConfig::new(100_000, DELTA),
    )
    .unwrap();
    let cheat = audit(
        |side, seed| Ok(gaussian_score(sigma_claimed / 2.0, side, seed)),
        &AuditConfig::new(100_000, DELTA),
    )
    .unwrap();
    println!(
        "claimed ε=1 (σ={sigma_claimed:.4}): honest ε_lb={:.4}; σ/2 ε_lb={:.4} (true {:.4})",
        honest.epsilon_lb,
        cheat.epsilon_lb,
        gaussian_epsilon(sigma_claimed / 2.0, 1.0, DELTA)
    );
    assert!(honest.epsilon_lb <= claimed);
    assert!(cheat.epsilon_lb > claimed, "{cheat:?}");
}

/// The report does not depend on the number of threads.
#[test]
fn audit_is_deterministic_across_thread_counts() {
    let cfg = AuditConfig::new(20_000, DELTA);
    let run = || audit(|side, seed| Ok(gaussian_score(1.0, side, seed)), &cfg).unwrap();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
        .install(run);
    let many = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap()
        .install(run);
    assert_eq!(one, many);
}

/// The documented seeds: main S = 0..N, main S′ = N..2N, pilot S = 2N..2N+P, pilot
/// S′ = 2N+P..2N+2P; an explicit grid draws no pilot.
#[test]
fn audit_uses_the_documented_seeds() {
    use std::sync::Mutex;
    let seen = Mutex::new(Vec::new());
    let mut cfg = AuditConfig::new(5, DELTA);
    cfg.thresholds = Thresholds::PilotQuantiles {
        pilot_draws: 3,
        count: 2,
    };
    cfg.seed_offset = 100;
    let r = audit(
        |side, seed| {
            seen.lock().unwrap().push((side, seed));
            Ok(seed as f64)
        },
        &cfg,
    )
    .unwrap();
    let mut seen = seen.into_inner().unwrap();
    seen.sort();
    let mut want: Vec<(Side, u64)> = (100..105).map(|s| (Side::S, s)).collect();
    want.extend((105..110).map(|s| (Side::SPrime, s)));
    want.extend((110..113).map(|s| (Side::S, s)));
    want.extend((113..116).map(|s| (Side::SPrime, s)));
    want.sort();
    assert_eq!(seen, want);
    assert_eq!(r.pilot_draws, 3);
    cfg.thresholds = Thresholds::Explicit(vec![102.5, 102.5, 107.0]);
    let r = audit(|_, seed| Ok(seed as f64), &cfg).unwrap();
    assert_eq!((r.pilot_draws, r.thresholds, r.tests), (0, 2, 8));
}

#[test]
fn bad_audit_input_names_the_field() {
    let ok = |_: Side, _: u64| Ok(0.0);
    let field = |e: Error| match e {
        Error::Invalid { field, .. } => field,
        other => panic!("not Invalid: {other}"),
    };
    let mut c = AuditConfig::new(0, DELTA);
    assert_eq!(field(audit(ok, &c).unwrap_err()), "draws");
    c = AuditConfig::new(10, 1.0);
    assert_eq!(field(audit(ok, &c).unwrap_err()), "delta");
    c = AuditConfig::new(10, DELTA);
    c.confidence = 1.0;
    assert_eq!(field(audit(ok, &c).unwrap_err()), "confidence");
    c = AuditConfig::new(10, DELTA);
    c.thresholds = Thresholds::Explicit(vec![]);
    assert_eq!(field(audit(ok, &c).unwrap_err()), "thresholds");
    c.thresholds = Thresholds::Explicit(vec![0.0, f64::NAN]);
    assert_eq!(field(audit(ok, &c).unwrap_err()), "thresholds[1]");
    c.thresholds = Thresholds::PilotQuantiles {
        pilot_draws: 0,
        count: 3,
    };
    assert_eq!(field(audit(ok, &c).unwrap_err()), "thresholds.pilot_draws");
    c = AuditConfig::new(10, DELTA);
    c.seed_offset = u64::MAX - 5;
    assert_eq!(field(audit(ok, &c).unwrap_err()), "seed_offset");
    c = AuditConfig::new(10, DELTA);
    let nan = |_: Side, seed: u64| Ok(if seed == 13 { f64::NAN } else { 0.0 });
    assert_eq!(field(audit(nan, &c).unwrap_err()), "score");
    assert_eq!(field(clopper_pearson_lower(5, 4, 0.01).unwrap_err()), "k");
    assert_eq!(field(incomplete_beta(1.0, 0.0, 0.5).unwrap_err()), "b");
}

/// Clopper–Pearson bounds against exact binomial tail sums: P[Bin(n, p_lo) ≥ k] ≤ tail (the
/// bound is conservative) and within 10⁻⁴ relative of it (it is not loose), and the mirror for
/// p_hi, from n = 20 to n = 10⁶.
#[test]
fn clopper_pearson_matches_exact_binomial_sums() {
    let tail = 1e-4;
    for (n, ks) in [
        (20u64, vec![1u64, 7, 19, 20]),
        (1_000, vec![1, 3, 50, 500, 999]),
        (1_000_000, vec![1, 30, 1_000, 100_000, 700_000]),
    ] {
        for k in ks {
            let lo = clopper_pearson_lower(k, n, tail).unwrap();
            let at_lo = binomial_tail_ge(k, n, lo);
            assert!(
                at_lo <= tail && at_lo >= tail * (1.0 - 1e-4),
                "lower n={n} k={k}: P={at_lo}"
            );
            if k < n {
                let hi = clopper_pearson_upper(k, n, tail).unwrap();
                let at_hi = 1.0 - binomial_tail_ge(k + 1, n, hi);
                assert!(
                    at_hi <= tail && at_hi >= tail * (1.0 - 1e-4),
                    "upper n={n} k={k}: P={at_hi}"
                );
                assert!(lo < hi);
            }
        }
    }
    assert_eq!(clopper_pearson_lower(0, 10, tail).unwrap(), 0.0);
    assert_eq!(clopper_pearson_upper(10, 10, tail).unwrap(), 1.0);
}

/// Draws per side for the release audits: every draw runs the certified solver (≈ 0.35 ms in
/// release), so the quick tests stay at a few thousand; `full_budget_audits` runs 10⁵.
const N_RELEASE: usize = 4_000;

fn lin_box_base() -> RegularizedSaddlePoint {
    RegularizedSaddlePoint {
        lambda: 100.0,
        anchor_w: vec![0.0],
        anchor_theta: vec![0.0],
    }
}

/// A real release: Gaussian output perturbation (classic calibration, ε = 1, δ = 10⁻⁵) of the
/// regularized saddle point on lin_box(0) with the worst-case pair (Δ = 2L/(λn) attained), and
/// its negative control (the Lipschitz constant understated 4×, so σ is 4× too small).
#[test]
fn output_perturbation_release_audit() {
    let (n, l) = (10, 1.0);
    let base = lin_box_base();
    let op = OutputPerturbation {
        base: base.clone(),
        epsilon: 1.0,
        delta: DELTA,
        lipschitz: l,
    };
    let sens = base.stability_bound(l, n);
    let sigma = dpsaddle::privacy::classic_gaussian_sigma(sens, 1.0, DELTA).unwrap();
    let exact = gaussian_epsilon(sigma, sens, DELTA);
    let t0 = std::time::Instant::now();
    let r = audit_lin_box_release(&op, &base, n, l, &AuditConfig::new(N_RELEASE, DELTA)).unwrap();
    println!(
        "output perturbation (claimed ε=1, σ/Δ={:.3}, exact ε={exact:.4}): ε_lb={:.4} \
         ε_gdp={:.4} μ̂={:.3} ({:.2?})",
        sigma / sens,
        r.epsilon_lb,
        r.gdp.epsilon_gdp,
        r.gdp.mu_hat,
        t0.elapsed()
    );
    assert!(r.epsilon_lb <= exact && exact <= 1.0);
    assert!(r.epsilon_lb > 0.0, "{r:?}");

    let cheat = OutputPerturbation {
        lipschitz: l / 4.0,
        ..op.clone()
    };
    let rc =
        audit_lin_box_release(&cheat, &base, n, l, &AuditConfig::new(N_RELEASE, DELTA)).unwrap();
    println!(
        "control (L understated 4×): ε_lb={:.4} > claimed 1 (exact {:.4})",
        rc.epsilon_lb,
        gaussian_epsilon(sigma / 4.0, sens, DELTA)
    );
    assert!(rc.epsilon_lb > 1.0, "{rc:?}");
}

// ---------------------------------------------------------------------------------------------
// The discrete Gaussian sampler.

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// `count` samples of `draw`, in 8 chunks drawn in parallel from streams
/// `Stream::new(seed, "dg-test/chunk=c")`, concatenated in chunk order.
fn samples<F>(seed: u64, count: usize, draw: F) -> Vec<i64>
where
    F: Fn(&mut Stream) -> i64 + Sync,
{
    let chunks = 8;
    let per = count.div_ceil(chunks);
    let parts: Vec<Vec<i64>> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut s = Stream::new(seed, &format!("dg-test/chunk={c}"));
            (0..per).map(|_| draw(&mut s)).collect()
        })
        .collect();
    parts.concat()
}

/// The exact discrete Gaussian pmf in f64: exp(−x²/(2σ²))/Z, Z by the sum over |x| ≤ M with the
/// tail bound Σ_{|x|>M} ≤ 2e^{−(M+1)²/(2σ²)}/(1 − e^{−(2M+3)/(2σ²)}) (consecutive terms beyond M
/// shrink by at least that ratio), asserted negligible.
fn dg_pmf(sigma2: f64) -> (i64, Vec<f64>) {
    let m = (40.0 * sigma2.sqrt()).ceil() as i64 + 2;
    let w = |x: i64| (-((x * x) as f64) / (2.0 * sigma2)).exp();
    let z: f64 = (-m..=m).map(w).sum();
    let mf = m as f64;
    let tail = 2.0 * (-(mf + 1.0).powi(2) / (2.0 * sigma2)).exp()
        / (1.0 - (-(2.0 * mf + 3.0) / (2.0 * sigma2)).exp());
    assert!(tail <= 1e-300 * z.max(1.0) || tail == 0.0);
    (m, (-m..=m).map(|x| w(x) / z).collect())
}

/// The discrete Laplace pmf e^{−|x|/b}(1 − e^{−1/b})/(1 + e^{−1/b}) on |x| ≤ M; the mass
/// beyond is 2e^{−(M+1)/b}/(1 + e^{−1/b}).
fn dl_pmf(b: f64) -> (i64, Vec<f64>) {
    let m = (60.0 * b).ceil() as i64 + 2;
    let r = (-1.0 / b).exp();
    let c = (1.0 - r) / (1.0 + r);
    let tail = 2.0 * (-(m as f64 + 1.0) / b).exp() / (1.0 + r);
    assert!(tail < 1e-20);
    (
        m,
        (-m..=m)
            .map(|x| c * (-(x.abs() as f64) / b).exp())
            .collect(),
    )
}

/// χ² goodness-of-fit p-value of integer samples against a pmf on [−m, m]: bins with expected
/// count ≥ 20 from the centre out, the rest of each side pooled into its neighbour bin.
fn chi2_pvalue(xs: &[i64], m: i64, pmf: &[f64]) -> f64 {
    let n = xs.len() as f64;
    let mut counts = vec![0f64; pmf.len()];
    for &x in xs {
        let i = (x.clamp(-m, m) + m) as usize;
        counts[i] += 1.0;
    }
    // Group consecutive cells until each group's expectation is ≥ 20.
    let mut groups: Vec<(f64, f64)> = Vec::new();
    let (mut e, mut o) = (0.0, 0.0);
    for i in 0..pmf.len() {
        e += n * pmf[i];
        o += counts[i];
        if e >= 20.0 {
            groups.push((e, o));
            e = 0.0;
            o = 0.0;
        }
    }
    if let Some(last) = groups.last_mut() {
        last.0 += e;
        last.1 += o;
    }
    let stat: f64 = groups.iter().map(|(e, o)| (o - e) * (o - e) / e).sum();
    let df = (groups.len() - 1) as f64;
    ChiSquared::new(df).unwrap().sf(stat)
}

/// KS distance sup_x |F_n(x) − F(x)| over the integers, and the DKW critical value
/// √(ln(2/α)/(2n)), valid for discrete laws too (DKW with Massart's constant).
fn ks_distance(xs: &[i64], m: i64, pmf: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mut sorted = xs.to_vec();
    sorted.sort_unstable();
    let (mut cdf, mut d, mut j) = (0.0, 0.0f64, 0usize);
    for (i, p) in pmf.iter().enumerate() {
        let x = i as i64 - m;
        cdf += p;
        while j < sorted.len() && sorted[j] <= x {
            j += 1;
        }
        d = d.max((j as f64 / n - cdf).abs());
    }
    (d, ((2.0f64 / 1e-6).ln() / (2.0 * n)).sqrt())
}

/// χ² and KS at α = 10⁻⁶ for σ² ∈ {1/2, 2, 10, 100}, with a negative control: the same samples
/// against the pmf of 1.1σ² are rejected (by χ²).
#[test]
fn discrete_gaussian_fits_its_pmf() {
    let n = 40_000;
    for (num, den) in [(1i64, 2i64), (2, 1), (10, 1), (100, 1)] {
        let s2 = num as f64 / den as f64;
        let dg = DiscreteGaussian::new(q(num, den)).unwrap();
        let t0 = std::time::Instant::now();
        let xs = samples(7, n, |s| dg.sample(s).to_i64().unwrap());
        let el = t0.elapsed();
        let (m, pmf) = dg_pmf(s2);
        let p = chi2_pvalue(&xs, m, &pmf);
        let (d, crit) = ks_distance(&xs, m, &pmf);
        let (m2, pmf_wrong) = dg_pmf(1.1 * s2);
        let p_wrong = chi2_pvalue(&xs, m2, &pmf_wrong);
        let mean = xs.iter().sum::<i64>() as f64 / n as f64;
        let var = xs.iter().map(|&x| (x as f64 - mean).powi(2)).sum::<f64>() / n as f64;
        println!(
            "σ²={s2}: n={n} χ² p={p:.3e} KS D={d:.5} (crit {crit:.5}) var={var:.4} \
             control(1.1σ²) p={p_wrong:.2e} ({el:.2?})"
        );
        assert!(p > 1e-6, "σ²={s2}: χ² p = {p}");
        assert!(d < crit, "σ²={s2}: KS {d} ≥ {crit}");
        assert!(p_wrong < 1e-6, "σ²={s2}: control accepted, p = {p_wrong}");
    }
}

/// Bernoulli(exp(−γ)) frequencies inside exact Clopper–Pearson bounds at α = 10⁻⁶ for
/// γ ∈ {0, 1/3, 1, 5/2, 7/3, 10}, and the control: γ = 1 frequencies exclude exp(−1.05).
#[test]
fn bernoulli_exp_frequencies() {
    let n = 100_000u64;
    for (a, b) in [(0i64, 1i64), (1, 3), (1, 1), (5, 2), (7, 3), (10, 1)] {
        let g = q(a, b);
        let hits = samples(11, n as usize, |s| i64::from(bernoulli_exp(s, &g).unwrap()));
        let k = hits.iter().sum::<i64>() as u64;
        let p = (-(a as f64) / b as f64).exp();
        if a == 0 {
            assert_eq!(k, n);
            continue;
        }
        let lo = clopper_pearson_lower(k, n, 5e-7).unwrap();
        let hi = clopper_pearson_upper(k, n, 5e-7).unwrap();
        println!("γ={a}/{b}: {k}/{n}, exp(−γ)={p:.6} ∈ [{lo:.6}, {hi:.6}]");
        assert!(lo <= p && p <= hi, "γ={a}/{b}");
        if (a, b) == (1, 1) {
            let wrong = (-1.05f64).exp();
            assert!(!(lo <= wrong && wrong <= hi), "control accepted");
        }
    }
    assert!(bernoulli_exp(&mut Stream::new(0, "x"), &q(-1, 2)).is_err());
}

/// Discrete Laplace fits e^{−|x|/b} for b ∈ {1/3, 1, 5/2, 7} (χ² and KS at α = 10⁻⁶), control:
/// b = 5/2 samples against the pmf of b = 2.75.
#[test]
fn discrete_laplace_fits_its_pmf() {
    let n = 40_000;
    for (num, den) in [(1i64, 3i64), (1, 1), (5, 2), (7, 1)] {
        let b = num as f64 / den as f64;
        let dl = DiscreteLaplace::new(q(num, den)).unwrap();
        let xs = samples(13, n, |s| dl.sample(s).to_i64().unwrap());
        let (m, pmf) = dl_pmf(b);
        let p = chi2_pvalue(&xs, m, &pmf);
        let (d, crit) = ks_distance(&xs, m, &pmf);
        println!("Laplace b={b}: χ² p={p:.3e} KS D={d:.5} (crit {crit:.5})");
        assert!(p > 1e-6 && d < crit, "b={b}");
        if (num, den) == (5, 2) {
            let (m2, wrong) = dl_pmf(2.75);
            let pw = chi2_pvalue(&xs, m2, &wrong);
            assert!(pw < 1e-6, "control accepted: p = {pw}");
        }
    }
}

/// The unbiased uniform sampler: range, frequencies (χ² at 10⁻⁶) for n = 6, and the multi-word
/// path for n = 2⁶⁴ + 3 and 2⁷⁰; plain Bernoulli(a/b) rejects p ∉ [0, 1].
#[test]
fn uniform_below_is_uniform() {
    let six = BigUint::from(6u32);
    let xs = samples(17, 60_000, |s| {
        uniform_below(s, &six).unwrap().to_i64().unwrap() - 3
    });
    let pmf = vec![1.0 / 6.0; 7];
    let mut pmf_shift = pmf.clone();
    pmf_shift[6] = 0.0; // support {−3, …, 2} on the window [−3, 3]
    assert!(chi2_pvalue(&xs, 3, &pmf_shift) > 1e-6);
    let mut s = Stream::new(3, "big");
    for n in [(BigUint::from(1u8) << 64) + 3u32, BigUint::from(1u8) << 70] {
        let mut top_half = 0;
        for _ in 0..2000 {
            let v = uniform_below(&mut s, &n).unwrap();
            assert!(v < n);
            if v >= &n / 2u32 {
                top_half += 1;
            }
        }
        assert!((800..1200).contains(&top_half), "{top_half}");
    }
    assert!(uniform_below(&mut s, &BigUint::from(0u8)).is_err());
    assert!(bernoulli(&mut s, &q(3, 2)).is_err());
    // n = 1 draws nothing.
    let mut a = Stream::new(5, "n1");
    let mut b = a.clone();
    assert_eq!(
        uniform_below(&mut a, &BigUint::from(1u8)).unwrap(),
        BigUint::from(0u8)
    );
    assert_eq!(a.next_u64(), b.next_u64());
}

/// Regression vectors: the first draws of fixed streams (the recipe in the module docs fixes
/// them draw for draw).
#[test]
fn discrete_gaussian_test_vectors() {
    let dg = DiscreteGaussian::new(q(2, 1)).unwrap();
    let mut s = Stream::new(0, "discrete_gaussian/test");
    let got: Vec<i64> = (0..12)
        .map(|_| dg.sample(&mut s).to_i64().unwrap())
        .collect();
    println!("σ²=2 seed 0: {got:?}");
    let dg = DiscreteGaussian::new(q(100, 3)).unwrap();
    let mut s = Stream::new(42, "discrete_gaussian/test");
    let got2: Vec<i64> = (0..12)
        .map(|_| dg.sample(&mut s).to_i64().unwrap())
        .collect();
    println!("σ²=100/3 seed 42: {got2:?}");
    assert_eq!(got, VECTOR_SIGMA2_2);
    assert_eq!(got2, VECTOR_SIGMA2_100_3);
}

const VECTOR_SIGMA2_2: [i64; 12] = [0, -2, 1, 0, -1, -1, 0, -1, -1, -1, 1, 0];
const VECTOR_SIGMA2_100_3: [i64; 12] = [3, -14, 4, 3, 8, 11, -2, -7, 2, 4, -5, -8];

/// The grid release: exact quantization, the integer sensitivity bound, ρ ≤ target, errors
/// naming fields; the algorithm wrapper records no ledger and refuses replay.
#[test]
fn grid_release_guarantee_and_errors() {
    let mut s = Stream::new(9, "grid");
    let z = [0.1234, -0.5, 0.0];
    let (sens, h, rho) = (0.01, 0.001, 0.5);
    let r = grid_release(&z, sens, h, rho, &mut s).unwrap();
    assert_eq!(r.quantized, vec!["123", "-500", "0"]);
    let sens_sq: i64 = r.sensitivity_sq_grid.parse().unwrap();
    let sigma2: i64 = r.sigma2_grid.parse().unwrap();
    // ⌈(Δ/h + ⌈√3⌉)²⌉ with Δ/h = 0.01/0.001 read exactly (just above or below 10).
    assert!((143..=145).contains(&sens_sq), "{sens_sq}");
    assert!(sens_sq as f64 >= (sens / h + 3f64.sqrt()).powi(2));
    assert_eq!(sigma2, (sens_sq as f64 / (2.0 * rho)).ceil() as i64);
    assert!(r.rho <= rho && r.rho > 0.99 * rho);
    assert_eq!(r.released.len(), 3);
    for (v, k) in r.values.iter().zip(&r.released) {
        assert!((v - k.parse::<f64>().unwrap() * h).abs() < 1e-12);
    }
    let field = |e: Error| match e {
        Error::Invalid { field, .. } => field,
        other => panic!("not Invalid: {other}"),
    };
    assert_eq!(
        field(grid_release(&[f64::NAN], sens, h, rho, &mut s).unwrap_err()),
        "z[0]"
    );
    assert_eq!(
        field(grid_release(&z, -1.0, h, rho, &mut s).unwrap_err()),
        "sensitivity"
    );
    assert_eq!(
        field(grid_release(&z, sens, 0.0, rho, &mut s).unwrap_err()),
        "grid"
    );
    assert_eq!(
        field(grid_release(&z, sens, h, 0.0, &mut s).unwrap_err()),
        "rho"
    );
    assert_eq!(field(DiscreteGaussian::new(q(0, 1)).unwrap_err()), "sigma2");
    // zCDP → (ε, δ): below the classic ρ + 2√(ρ ln(1/δ)).
    // zCDP → (ε, δ): below the classic ρ + 2√(ρ ln(1/δ)), and equal (to 10⁻⁹) to a brute-force
    // minimum of CKS20 Cor. 13 over 10⁶ values of α.
    for rho in [0.001, 0.05, 0.5, 5.0] {
        let e = zcdp_epsilon(rho, DELTA).unwrap();
        assert!(e < rho + 2.0 * (rho * (1.0 / DELTA).ln()).sqrt() && e > rho);
        let l = (1.0 / DELTA).ln();
        let brute = (1..=1_000_000)
            .map(|i| {
                let a = 1.0 + 10f64.powf(-4.0 + 10.0 * f64::from(i) / 1e6);
                a * rho + (l + (a - 1.0) * (1.0 - 1.0 / a).ln() - a.ln()) / (a - 1.0)
            })
            .fold(f64::INFINITY, f64::min);
        assert!(
            e <= brute + 1e-9 && e > brute - 1e-6,
            "ρ={rho}: {e} vs {brute}"
        );
    }

    let f = QuadBilinear::lin_box(0.0).unwrap();
    let (ds, _) = dpsaddle::algorithms::release_audit::lin_box_worst_pair(10, 1.0).unwrap();
    let alg = DiscreteGaussianOutputPerturbation {
        base: lin_box_base(),
        lipschitz: 1.0,
        grid: 1e-4,
        rho: 0.05,
        delta: DELTA,
    };
    let out = alg.run(&f, &ds, &mut NoiseSource::sample(1)).unwrap();
    assert!(out.ledger.is_none());
    assert!(out.info.as_discrete_gaussian().unwrap().zcdp_rho <= 0.05);
    let replay = NoiseSource::replay(Default::default());
    assert!(matches!(
        alg.run(&f, &ds, &mut replay.clone()),
        Err(Error::Unsupported(_))
    ));
}

/// Audit of the grid release on the worst-case lin_box pair: ε_lb ≤ the ε its zCDP guarantee
/// gives (CKS20 Cor. 13), and the audit sees a leak (ε_lb > 0).
#[test]
fn discrete_gaussian_release_audit() {
    let (n, l) = (10, 1.0);
    let base = lin_box_base();
    let alg = DiscreteGaussianOutputPerturbation {
        base: base.clone(),
        lipschitz: l,
        grid: 1e-4,
        rho: 0.05,
        delta: DELTA,
    };
    let t0 = std::time::Instant::now();
    let r = audit_lin_box_release(&alg, &base, n, l, &AuditConfig::new(N_RELEASE, DELTA)).unwrap();
    let f = QuadBilinear::lin_box(0.0).unwrap();
    let (ds, _) = dpsaddle::algorithms::release_audit::lin_box_worst_pair(n, l).unwrap();
    let out = alg.run(&f, &ds, &mut NoiseSource::sample(0)).unwrap();
    let rho = out.info.as_discrete_gaussian().unwrap().zcdp_rho;
    let eps = zcdp_epsilon(rho, DELTA).unwrap();
    println!(
        "discrete Gaussian grid release (ρ={rho:.4}, ε(δ)={eps:.4}): ε_lb={:.4} ε_gdp={:.4} \
         ({:.2?})",
        r.epsilon_lb,
        r.gdp.epsilon_gdp,
        t0.elapsed()
    );
    assert!(r.epsilon_lb <= eps);
    assert!(r.epsilon_lb > 0.0);
}

#[allow(dead_code)]
fn _bits_trait_is_object_safe(r: &mut dyn RandomBits) -> u64 {
    r.next_u64()
}

/// Huge variances exercise the big-integer paths (t = ⌊σ⌋ + 1 ≥ 2⁶⁴ takes multi-word uniforms):
/// samples stay within 8σ and are not all equal; a non-integer σ² works too.
#[test]
fn discrete_gaussian_big_parameters() {
    let big = BigInt::from(10u8).pow(40u32);
    let dg = DiscreteGaussian::new(BigRational::from_integer(big.clone())).unwrap();
    assert!(dg.envelope_scale() > &(BigUint::from(1u8) << 64));
    let mut s = Stream::new(21, "big-dg");
    let xs = dg.samples(&mut s, 50);
    let sigma = 1e20;
    for x in &xs {
        assert!(x.to_f64().unwrap().abs() < 8.0 * sigma, "{x}");
    }
    assert!(xs.iter().any(|x| x != &xs[0]));
    let dg = DiscreteGaussian::new(BigRational::new(big + 1u8, BigInt::from(7u8))).unwrap();
    let y = dg.sample(&mut s);
    assert!(y.to_f64().unwrap().abs() < 8.0 * (1e40f64 / 7.0).sqrt());
}
