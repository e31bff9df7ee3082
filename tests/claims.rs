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
