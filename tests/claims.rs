//! The claims gate: every registered claim passes at the quick budget and every negative control
//! is rejected. It is its own small test binary so that `.ci/mutants` (mutation testing, which
//! rebuilds the crate once per mutant) can run exactly the claims without rebuilding the large
//! `tests/it` binary; `cargo test --release` runs it like every other test.
//!
//! Each claim prints one line `claim <id> <outcome>`, with outcome `pass`, `fail`,
//! `control-accepted`, `no-instances`, `error` or `panic`; `.ci/mutants-score` reads these lines from the
//! logs of a mutation run to tell which claims killed which mutant.

use dpsaddle::claims::{self, Budget};

#[test]
fn every_registered_claim_passes_and_its_control_is_rejected() {
    // `.ci/mutants` sets DPSADDLE_CLAIMS_FAIL_FAST: a mutant is killed by its first failing
    // claim, and the remaining claims are not run.
    let fail_fast = std::env::var_os("DPSADDLE_CLAIMS_FAIL_FAST").is_some();
    // `.ci/mutants` may also set DPSADDLE_CLAIMS_ONLY (comma-separated claim ids) to rerun only
    // the claims added or changed since an earlier mutation run, on that run's survivors: the
    // other claims are deterministic and already passed on those mutants.
    let only: Option<Vec<String>> = std::env::var("DPSADDLE_CLAIMS_ONLY")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    if let Some(ids) = &only {
        let registry = claims::registry();
        for id in ids {
            assert!(
                registry.iter().any(|c| c.id == id.as_str()),
                "DPSADDLE_CLAIMS_ONLY names `{id}`, which is not a registered claim"
            );
        }
    }
    let mut failures = Vec::new();
    for c in claims::registry() {
        if only
            .as_ref()
            .is_some_and(|ids| !ids.iter().any(|id| id == c.id))
        {
            continue;
        }
        if fail_fast && !failures.is_empty() {
            break;
        }
        // A panicking claim is recorded and the remaining claims still run.
        let run = std::panic::catch_unwind(|| (c.check)(Budget::Quick));
        let outcome = match run {
            Err(_) => {
                failures.push(format!("{}: panicked", c.id));
                "panic"
            }
            Ok(Ok(ev)) => {
                println!(
                    "{:<28} pass={} worst={:?} instances={} control={} tight={:?}",
                    c.id,
                    ev.pass,
                    ev.worst_ratio,
                    ev.instances,
                    ev.control_status(),
                    ev.tight_ratio
                );
                if !ev.pass {
                    failures.push(format!("{}: failed: {:?}", c.id, ev.details));
                    "fail"
                } else if ev.control_status() == "accepted" {
                    failures.push(format!("{}: negative control accepted", c.id));
                    "control-accepted"
                } else if ev.instances == 0 {
                    failures.push(format!("{}: no instances", c.id));
                    "no-instances"
                } else {
                    "pass"
                }
            }
            Ok(Err(e)) => {
                failures.push(format!("{}: error {e}", c.id));
                "error"
            }
        };
        println!("claim {} {outcome}", c.id);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// What an entry point refuses is part of the oracle's contract (errors, not panics, and no
/// answer for a meaningless question): invalid parameters are refused with the field named, and
/// the valid neighbours of each refused value are accepted. Run with the claims so that a
/// mutation that silently accepts (or wrongly refuses) a parameter is caught.
#[test]
fn invalid_parameters_are_refused_and_valid_ones_accepted() {
    use dpsaddle::algorithms::recursive_regularization::{DistanceRule, NPrimeRule, Schedule};
    use dpsaddle::algorithms::regularized_erm::RegularizedErm;
    use dpsaddle::algorithms::sgda::{BatchRule, Sgda};
    use dpsaddle::algorithms::Algorithm;
    use dpsaddle::gap::{strong_gap, WeightedOutput};
    use dpsaddle::problem::{Dataset, Objective, QuadBilinear};
    use dpsaddle::rng::NoiseSource;

    let names = |r: dpsaddle::error::Result<()>, field: &str| match r {
        Err(e) => assert!(e.to_string().contains(field), "{field}: {e}"),
        Ok(()) => panic!("{field}: accepted"),
    };
    let f = QuadBilinear::lin_box(0.0).unwrap();
    let s = Dataset::new(vec![vec![0.5, -0.5], vec![0.1, 0.2]]).unwrap();
    let obj = Objective::empirical(&s);

    // Gap over weighted outputs: the weights must sum to 1.
    let out = |w: f64| WeightedOutput {
        weight: w,
        w: vec![0.0],
        theta: vec![0.0],
    };
    names(
        strong_gap(&f, &obj, &[out(0.5)]).map(|_| ()),
        "outputs.weight",
    );
    assert!(strong_gap(&f, &obj, &[out(0.5), out(0.5)]).is_ok());

    // BGM23 Algorithm 1's schedule: n ≥ 2.
    let sched = |n: usize| {
        Schedule::bgm23(
            n,
            4.0,
            1.0,
            0.01,
            NPrimeRule::PaperLiteral,
            DistanceRule::Corrected,
        )
        .map(|_| ())
    };
    names(sched(1), "n");
    if let Err(e) = sched(2) {
        assert!(!e.to_string().contains("must be ≥ 2"), "n = 2 refused: {e}");
    }

    // Regularized ERM: a minimization problem only; its Lemma 2 bound 2L/(λn); its name.
    let erm = RegularizedErm::new(0.5, vec![0.0]).unwrap();
    names(
        erm.run(&f, &s, &mut NoiseSource::sample(0)).map(|_| ()),
        "problem",
    );
    let bad_lambda = RegularizedErm {
        lambda: -1.0,
        anchor_w: vec![0.0],
    };
    names(bad_lambda.validate(&f), "lambda");
    assert!((erm.stability_bound(1.0, 10) - 2.0 / (0.5 * 10.0)).abs() < 1e-15);
    assert_eq!(erm.name(), "regularized_erm(λ=0.5)");

    // SGDA: η > 0 finite, σ ≥ 0 finite, m ≥ 1, through both validations.
    let sgda = |eta: f64, sigma: f64| {
        let mut a = Sgda::new(0.1, 3, vec![0.0], vec![0.0], BatchRule::Full, 0.0).unwrap();
        a.eta = eta;
        a.sigma = sigma;
        a
    };
    assert!(sgda(0.1, 0.0).validate_params().is_ok());
    assert!(sgda(0.1, 0.3).validate_params().is_ok());
    names(sgda(0.1, -0.3).validate_params(), "sigma");
    names(sgda(-0.1, 0.0).validate_params(), "eta");
    assert!(sgda(0.1, 0.3).validate(&f, &obj).is_ok());
    names(sgda(-0.1, 0.0).validate(&f, &obj), "eta");
    names(sgda(f64::INFINITY, 0.0).validate(&f, &obj), "eta");
    names(sgda(0.1, -0.3).validate(&f, &obj), "sigma");
}

/// The generic numeric searches the paper calibrations are built on find the threshold of a known
/// monotone predicate (to their stated 1e-4 relative resolution), and the exact discrete Gaussian
/// sampler, fed by the crate's streams, has the mean and variance of its law (4000 draws, σ² = 9:
/// the bands are over 5 standard errors wide, so a correct sampler fails with probability below
/// 1e-6, and the seed is fixed).
#[test]
fn generic_searches_and_the_discrete_gaussian_sampler() {
    use dpsaddle::privacy::calibration::{largest_refuted_constant, smallest_certified_constant};
    use dpsaddle::privacy::discrete_gaussian::DiscreteGaussian;
    use dpsaddle::rng::Stream;
    use num_rational::BigRational;
    use num_traits::ToPrimitive;

    for threshold in [0.2, 37.5] {
        let c = smallest_certified_constant(|c| Ok(c >= threshold)).unwrap();
        assert!(
            c >= threshold && c <= threshold * (1.0 + 1e-4),
            "smallest certified {c} for {threshold}"
        );
        let c = largest_refuted_constant(|c| Ok(c <= threshold)).unwrap();
        assert!(
            c <= threshold && c >= threshold / (1.0 + 1e-4),
            "largest refuted {c} for {threshold}"
        );
    }

    let dg = DiscreteGaussian::new(BigRational::from_integer(9.into())).unwrap();
    let mut rng = Stream::new(7, "claims/discrete_gaussian");
    let xs: Vec<f64> = dg
        .samples(&mut rng, 4000)
        .iter()
        .map(|x| x.to_f64().unwrap())
        .collect();
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    assert!(mean.abs() < 0.3, "mean {mean}");
    assert!((8.0..10.0).contains(&var), "variance {var}");
}

/// The exact samplers under the discrete Gaussian, fed by the crate's streams, have their laws'
/// frequencies: uniform integers below n (machine-word and big-integer paths, n = 6 and
/// n = 2⁷⁰ + 5 read through its residue mod 6 — uniform up to 2⁻⁶⁷), Bernoulli(1/3) and
/// Bernoulli(exp(−γ)) for γ = 1/2 and 3/2. Each count must lie within 6 standard deviations of
/// its mean (a correct sampler fails with probability about 2e-9 per count; the seeds are fixed).
#[test]
fn exact_samplers_have_their_laws_frequencies() {
    use dpsaddle::privacy::discrete_gaussian::{
        bernoulli, bernoulli_exp, uniform_below, uniform_below_u64,
    };
    use dpsaddle::rng::Stream;
    use num_bigint::BigUint;
    use num_rational::BigRational;
    use num_traits::ToPrimitive;

    let within = |count: usize, draws: usize, p: f64, what: &str| {
        let (mean, sd) = (draws as f64 * p, (draws as f64 * p * (1.0 - p)).sqrt());
        assert!(
            (count as f64 - mean).abs() <= 6.0 * sd,
            "{what}: {count} of {draws}, expected {mean:.1} ± 6·{sd:.1}"
        );
    };
    let draws = 6000;
    let mut rng = Stream::new(11, "claims/samplers");
    let mut small = [0usize; 6];
    let mut big = [0usize; 6];
    let n_big = (BigUint::from(1u8) << 70usize) + BigUint::from(5u8);
    for _ in 0..draws {
        let u = uniform_below_u64(&mut rng, 6);
        assert!(u < 6);
        small[u as usize] += 1;
        let v = uniform_below(&mut rng, &n_big).unwrap();
        assert!(v < n_big);
        big[(v % BigUint::from(6u8)).to_usize().unwrap()] += 1;
    }
    assert_eq!(uniform_below_u64(&mut rng, 1), 0);
    for k in 0..6 {
        within(
            small[k],
            draws,
            1.0 / 6.0,
            &format!("uniform_below_u64(6) = {k}"),
        );
        within(
            big[k],
            draws,
            1.0 / 6.0,
            &format!("uniform_below(2^70 + 5) ≡ {k} mod 6"),
        );
    }
    let third = BigRational::new(1.into(), 3.into());
    let ones = (0..draws)
        .filter(|_| bernoulli(&mut rng, &third).unwrap())
        .count();
    within(ones, draws, 1.0 / 3.0, "bernoulli(1/3)");
    for (num, den) in [(1, 2), (3, 2)] {
        let gamma = BigRational::new(num.into(), den.into());
        let ones = (0..draws)
            .filter(|_| bernoulli_exp(&mut rng, &gamma).unwrap())
            .count();
        let p = (-(num as f64) / den as f64).exp();
        within(ones, draws, p, &format!("bernoulli_exp({num}/{den})"));
    }
}

/// A calibration is certified at its own ε and not below it, and a nested self-composition of a
/// subsampled Gaussian is priced exactly as the flat composition with the product count.
#[test]
fn calibration_certifies_its_own_epsilon_and_prices_nested_counts_flat() {
    use dpsaddle::privacy::calibration::{exact_gaussian_multiplier, replace_one, Calibration};
    use dpsaddle::privacy::DpEvent;

    let delta = 1e-5;
    let z = exact_gaussian_multiplier(1.0, delta).unwrap();
    let cal = |ledger, epsilon| Calibration {
        sigma: z,
        sensitivity: 1.0,
        ledger,
        bad_event_probability: 0.0,
        epsilon,
        delta,
    };
    let gauss = DpEvent::Gaussian {
        noise_multiplier: z,
    };
    assert!(cal(replace_one(gauss.clone()), 1.0).certified().unwrap());
    assert!(!cal(replace_one(gauss), 0.9).certified().unwrap());

    let sampled = DpEvent::SampledWithReplacement {
        n: 100,
        m: 10,
        event: Box::new(DpEvent::Gaussian {
            noise_multiplier: 2.0,
        }),
    };
    let composed = |count: u64, event: DpEvent| DpEvent::SelfComposed {
        count,
        event: Box::new(event),
    };
    let nested = cal(replace_one(composed(3, composed(4, sampled.clone()))), 1.0);
    let flat = cal(replace_one(composed(12, sampled)), 1.0);
    let (a, b) = (
        nested.epsilon_upper().unwrap().epsilon,
        flat.epsilon_upper().unwrap().epsilon,
    );
    assert!((a - b).abs() <= 1e-12 * b, "nested {a} vs flat {b}");
}

/// The lower bound of a calibration (the sum test on the worst-case instance) reads a nested
/// `self_composed{3, self_composed{4, sampled{…}}}` ledger as 12 steps: it equals the flat
/// 12-step ledger's and the sum test's ε computed directly for 12 steps.
#[test]
fn calibration_lower_bound_reads_nested_counts_as_their_product() {
    use dpsaddle::privacy::calibration::{replace_one, Calibration};
    use dpsaddle::privacy::replacement::{sum_test_epsilon, Sampling};
    use dpsaddle::privacy::DpEvent;

    let delta = 1e-5;
    let sampled = DpEvent::SampledWithReplacement {
        n: 100,
        m: 10,
        event: Box::new(DpEvent::Gaussian {
            noise_multiplier: 2.0,
        }),
    };
    let composed = |count: u64, event: DpEvent| DpEvent::SelfComposed {
        count,
        event: Box::new(event),
    };
    let lower = |event: DpEvent| {
        Calibration {
            sigma: 2.0,
            sensitivity: 1.0,
            ledger: replace_one(event),
            bad_event_probability: 0.0,
            epsilon: 1.0,
            delta,
        }
        .epsilon_lower()
        .unwrap()
        .epsilon
    };
    let direct =
        sum_test_epsilon(Sampling::WithReplacement { n: 100, m: 10 }, 12, 2.0, delta).unwrap();
    let nested = lower(composed(3, composed(4, sampled.clone())));
    let flat = lower(composed(12, sampled));
    for (what, got) in [("nested 3 × 4", nested), ("flat 12", flat)] {
        assert!(
            (got - direct).abs() <= 1e-12 * direct,
            "{what}: ε_lower {got} vs the sum test at 12 steps {direct}"
        );
    }
}

/// The exact Bernoulli samplers refuse parameters outside their ranges, naming them (p ∈ [0, 1],
/// γ ≥ 0), and accept the ends of the ranges (p = 0 never fires, p = 1 always does).
#[test]
fn exact_bernoulli_samplers_refuse_out_of_range_parameters() {
    use dpsaddle::privacy::discrete_gaussian::{bernoulli, bernoulli_exp};
    use dpsaddle::rng::Stream;
    use num_rational::BigRational;

    let mut rng = Stream::new(13, "claims/bernoulli_ranges");
    let q = |a: i64, b: i64| BigRational::new(a.into(), b.into());
    for p in [q(3, 2), q(-1, 2), q(101, 100)] {
        match bernoulli(&mut rng, &p) {
            Err(e) => assert!(e.to_string().contains('p'), "p = {p}: {e}"),
            Ok(x) => panic!("bernoulli({p}) accepted: drew {x}"),
        }
    }
    match bernoulli_exp(&mut rng, &q(-1, 3)) {
        Err(e) => assert!(e.to_string().contains("gamma"), "{e}"),
        Ok(x) => panic!("bernoulli_exp(−1/3) accepted: drew {x}"),
    }
    for _ in 0..50 {
        assert!(!bernoulli(&mut rng, &q(0, 1)).unwrap());
        assert!(bernoulli(&mut rng, &q(1, 1)).unwrap());
        assert!(bernoulli_exp(&mut rng, &q(0, 1)).unwrap());
    }
}

/// The grid release of the discrete output perturbation (CKS20 Thm 14 on the grid of width h):
/// its integer sensitivity bound Δ_g² = ⌈(Δ/h + ⌈√d⌉)²⌉ and variance σ²_g = ⌈Δ_g²/(2ρ)⌉ equal
/// the values computed here by hand, the released reals are exactly (k + noise)·h, the quantized
/// input is round(z/h), and the noise (released − quantized, 2 coordinates × 3000 releases) has
/// the discrete Gaussian's frequencies of 0 and of |x| ≤ σ_g: each count within 6 standard
/// deviations of its mean under the pmf ∝ exp(−x²/(2σ²_g)) (fixed seed; a correct release fails
/// with probability about 4e-9).
#[test]
fn grid_release_has_its_stated_calibration_and_the_discrete_gaussian_law() {
    use dpsaddle::privacy::discrete_gaussian::grid_release;
    use dpsaddle::rng::Stream;

    // Δ = 1, h = 1/4, d = 2: Δ/h = 4, ⌈√2⌉ = 2, Δ_g² = 36; ρ = 1/2: σ²_g = 36, ρ achieved 1/2.
    // d = 3: ⌈√3⌉ = 2 as well; d = 4: ⌈√4⌉ = 2; d = 5: 3, Δ_g² = 49, σ²_g = 49.
    let mut rng = Stream::new(17, "claims/grid_release");
    for (z, sens_sq, sigma2) in [
        (vec![0.3, -1.1], 36u64, 36u64),
        (vec![0.3, -1.1, 2.0], 36, 36),
        (vec![0.0; 4], 36, 36),
        (vec![0.1; 5], 49, 49),
    ] {
        let r = grid_release(&z, 1.0, 0.25, 0.5, &mut rng).unwrap();
        assert_eq!(
            r.sensitivity_sq_grid,
            sens_sq.to_string(),
            "d = {}",
            z.len()
        );
        assert_eq!(r.sigma2_grid, sigma2.to_string(), "d = {}", z.len());
        assert_eq!(r.rho, sens_sq as f64 / (2.0 * sigma2 as f64));
    }
    let z = [0.3, -1.1];
    // round(0.3/0.25) = round(1.2) = 1, round(−4.4) = −4.
    let sigma2 = 36.0f64;
    let support = 400i64;
    let weight = |x: i64| (-((x * x) as f64) / (2.0 * sigma2)).exp();
    let total: f64 = (-support..=support).map(weight).sum();
    let p0 = weight(0) / total;
    let p_in = (-6..=6).map(weight).sum::<f64>() / total;
    let (mut zeros, mut inside, mut draws) = (0usize, 0usize, 0usize);
    for _ in 0..3000 {
        let r = grid_release(&z, 1.0, 0.25, 0.5, &mut rng).unwrap();
        assert_eq!(r.quantized, vec!["1".to_string(), "-4".to_string()]);
        for i in 0..2 {
            let released: i64 = r.released[i].parse().unwrap();
            let k: i64 = r.quantized[i].parse().unwrap();
            assert_eq!(r.values[i], released as f64 * 0.25, "value = released·h");
            let noise = released - k;
            draws += 1;
            zeros += usize::from(noise == 0);
            inside += usize::from(noise.abs() <= 6);
        }
    }
    for (count, p, what) in [
        (zeros, p0, "noise = 0"),
        (inside, p_in, "|noise| ≤ σ_g = 6"),
    ] {
        let (mean, sd) = (draws as f64 * p, (draws as f64 * p * (1.0 - p)).sqrt());
        assert!(
            (count as f64 - mean).abs() <= 6.0 * sd,
            "{what}: {count} of {draws}, expected {mean:.1} ± 6·{sd:.1}"
        );
    }
}

/// The heavy release audits of `verify --budget full`, run at the gate's sample sizes: each
/// empirical lower bound ε_lb is at most its reference (the exact ε(δ) of each Gaussian, the
/// output perturbation's claimed and exact ε), and each Gaussian's reference is its exact ε:
/// δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) at μ = Δ/σ equals the audit's δ = 1e-5.
#[test]
fn full_budget_audits_references_hold_at_gate_size() {
    use dpsaddle::algorithms::release_audit::{full_budget_audits, FullAuditDraws};
    use dpsaddle::privacy::special::normal_cdf;

    let audits = full_budget_audits(FullAuditDraws::GATE).unwrap();
    assert_eq!(audits.len(), 5);
    for (a, sigma) in audits.iter().zip([0.5, 1.0, 2.0]) {
        let (mu, eps) = (1.0 / sigma, a.epsilon_reference);
        let delta = normal_cdf(-eps / mu + mu / 2.0) - eps.exp() * normal_cdf(-eps / mu - mu / 2.0);
        assert!(
            (delta - 1e-5).abs() <= 1e-8,
            "{}: δ(ε_ref = {eps}) = {delta}",
            a.name
        );
    }
    for a in &audits {
        assert!(
            a.report.epsilon_lb <= a.epsilon_reference,
            "{}: ε_lb {} > ε_ref {}",
            a.name,
            a.report.epsilon_lb,
            a.epsilon_reference
        );
    }
}

/// Every `with_*` setter of the algorithms takes effect (a setter that dropped its argument
/// would leave every other check passing, since the default is a valid configuration):
/// `LdpSgda::with_step` and `with_optimal_step` change the η the run reports (the explicit η;
/// η* = B√(2/(nV)) with the V the run reports), every `with_label_prefix` prefixes every stream
/// label on the recorded tape, `Sgda::with_reg` changes the run to the regularized objective's
/// (the same as setting the field), and `RecursiveRegularization::with_record_exact` records
/// z*_{S,t} in every round. (`DpGda::with_sigma` and `with_averaging` are pinned by the claims
/// `kllw22.noise_ledger_dp_gda` and `kllw22.lemma2_pathwise`.)
#[test]
fn algorithm_setters_take_effect() {
    use dpsaddle::algorithms::ldp_sgda::LdpSgda;
    use dpsaddle::algorithms::noisy_sgda::NoisySgda;
    use dpsaddle::algorithms::recursive_regularization::{AempSpec, DistanceRule, Schedule};
    use dpsaddle::algorithms::sgda::{BatchRule, Sgda};
    use dpsaddle::algorithms::{Algorithm, Diagnostics, Output, RecursiveRegularization};
    use dpsaddle::papers::Reading;
    use dpsaddle::problem::{Dataset, QuadBilinear, Regularizer};
    use dpsaddle::rng::NoiseSource;

    let f = QuadBilinear::lin_box(0.0).unwrap();
    let pts: Vec<Vec<f64>> = (0..40)
        .map(|i| vec![0.5 - 0.025 * i as f64, 0.3 - 0.01 * i as f64])
        .collect();
    let s = Dataset::new(pts).unwrap();
    let labels = |run: &dyn Fn(&mut NoiseSource) -> Output| {
        let mut src = NoiseSource::recording(3);
        run(&mut src);
        let tape = src.into_tape().unwrap_or_default();
        assert!(!tape.draws.is_empty(), "the run drew nothing");
        tape.draws.into_iter().map(|d| d.label).collect::<Vec<_>>()
    };
    let all_prefixed = |labels: Vec<String>, prefix: &str| {
        for l in labels {
            assert!(l.starts_with(prefix), "label {l} lacks the prefix {prefix}");
        }
    };

    // LDP SGDA: η explicit, η*, and the label prefix.
    let ldp = LdpSgda::new(
        1.0,
        1e-5,
        Reading::Corrected,
        vec![0.0],
        vec![0.0],
        1.0,
        1.0,
    )
    .unwrap();
    let ldp_diag = |a: &LdpSgda| match a.run(&f, &s, &mut NoiseSource::sample(1)).unwrap().info {
        Diagnostics::LdpSgda(d) => d,
        other => panic!("{other:?}"),
    };
    let base = ldp_diag(&ldp);
    let explicit = ldp_diag(&ldp.clone().with_step(Some(0.0123)).unwrap());
    assert_eq!(explicit.eta, 0.0123);
    let optimal = ldp_diag(&ldp.clone().with_optimal_step(true));
    assert!(optimal.optimal_step);
    let eta_star = 1.0 * (2.0 / (40.0 * optimal.v)).sqrt();
    assert!(
        (optimal.eta - eta_star).abs() <= 1e-12 * eta_star
            && (base.eta - eta_star).abs() > 1e-6 * eta_star,
        "η* = {eta_star}: optimal run η = {}, default run η = {}",
        optimal.eta,
        base.eta
    );
    let p = ldp.clone().with_label_prefix("ldp-prefix/");
    all_prefixed(labels(&|n| p.run(&f, &s, n).unwrap()), "ldp-prefix/");

    // Noisy SGDA and SGDA: the label prefix.
    let noisy = NoisySgda::new(
        1.0,
        1.0,
        1e-5,
        Reading::Corrected,
        vec![0.0],
        vec![0.0],
        1.0,
        1.0,
    )
    .unwrap()
    .with_label_prefix("noisy-prefix/");
    all_prefixed(labels(&|n| noisy.run(&f, &s, n).unwrap()), "noisy-prefix/");
    let sgda = Sgda::new(0.1, 5, vec![0.2], vec![-0.2], BatchRule::Full, 0.3).unwrap();
    let p = sgda.clone().with_label_prefix("sgda-prefix/");
    all_prefixed(labels(&|n| p.run(&f, &s, n).unwrap()), "sgda-prefix/");

    // SGDA: with_reg is the regularized run (as if the field were set), not the plain one.
    let reg = Regularizer::bgm23_eq4(2.0, &[0.7], &[-0.7]);
    let mut by_field = sgda.clone();
    by_field.reg = reg.clone();
    let run = |a: &Sgda| a.run(&f, &s, &mut NoiseSource::sample(5)).unwrap().z();
    let (with, field, plain) = (run(&sgda.clone().with_reg(reg)), run(&by_field), run(&sgda));
    assert_eq!(with, field, "with_reg vs the field set by hand");
    assert_ne!(with, plain, "with_reg left the objective unregularized");

    // Recursive regularization: with_record_exact records z*_{S,t} in every round.
    let sch = Schedule::free(40, 20, 2, 0.05, 1.0, 2.0, DistanceRule::Corrected).unwrap();
    let rr = RecursiveRegularization::new(
        sch,
        vec![0.0],
        vec![0.0],
        AempSpec::noisy_sgda(16.0, 2.0, 1e-5, Reading::Corrected, false).unwrap(),
    )
    .unwrap();
    let recorded = |a: &RecursiveRegularization| {
        a.run_with(&a.a_emp, &f, &s, &mut NoiseSource::sample(2))
            .unwrap()
            .rounds
            .iter()
            .map(|r| r.z_star_s.is_some())
            .collect::<Vec<_>>()
    };
    assert_eq!(recorded(&rr), vec![false, false]);
    assert_eq!(
        recorded(&rr.clone().with_record_exact(true)),
        vec![true, true]
    );
}
