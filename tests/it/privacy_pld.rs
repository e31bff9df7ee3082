//! The PLD accountant (`dpsaddle::privacy::pld`): upper bounds against closed forms, the
//! discretization converging from above, the DP-SGD reference instances, an optimistic negative
//! control, typed errors. Run with `--nocapture` to see the tables.
//!
//! The exact curves are computed here by an **independent twin**: Φ from the Mills ratio
//! R(a) = ∫₀^∞ e^{−a s − s²/2} ds by Gauss–Legendre quadrature (the library uses a continued
//! fraction), and the Gaussian curve δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), μ = Δ/σ; k-fold
//! composition of the Gaussian mechanism is the Gaussian mechanism with σ/√k.

use dpsaddle::error::Error;
use dpsaddle::privacy::accountant::{is_unsupported, Accountant};
use dpsaddle::privacy::pld::{Direction, Discretization, Pld, PldAccountant};
use dpsaddle::privacy::{DpEvent, Neighbouring, PrivacyLedger};

const GL8: [(f64, f64); 8] = [
    (-0.960_289_856_497_536_3, 0.101_228_536_290_376_26),
    (-0.796_666_477_413_626_7, 0.222_381_034_453_374_47),
    (-0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (-0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (0.796_666_477_413_626_7, 0.222_381_034_453_374_47),
    (0.960_289_856_497_536_3, 0.101_228_536_290_376_26),
];

/// Φ(x) = φ(x)·R(−x) for x ≤ 0, R by composite Gauss–Legendre; 1 − Φ(−x) for x > 0.
fn phi_cdf(x: f64) -> f64 {
    if x > 0.0 {
        return 1.0 - phi_cdf(-x);
    }
    let a = -x;
    let t_end = -a + (a * a + 100.0).sqrt();
    let m = ((t_end * (a + t_end) / 0.25).ceil() as usize).max(1);
    let step = t_end / m as f64;
    let mut r = 0.0;
    for k in 0..m {
        let mut part = 0.0;
        for &(z, w) in &GL8 {
            let s = (k as f64 + 0.5 * (z + 1.0)) * step;
            part += w * (-a * s - 0.5 * s * s).exp();
        }
        r += 0.5 * step * part;
    }
    (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt() * r
}

/// The exact privacy curve of the Gaussian mechanism with noise multiplier σ (Δ = 1).
fn gaussian_delta(eps: f64, sigma: f64) -> f64 {
    phi_cdf(-eps * sigma + 0.5 / sigma) - eps.exp() * phi_cdf(-eps * sigma - 0.5 / sigma)
}

/// The exact ε(δ) of the Gaussian mechanism, by bisection on the twin.
fn gaussian_epsilon(delta: f64, sigma: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 100.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if gaussian_delta(mid, sigma) > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// Exact curves of one Poisson-subsampled Gaussian step (rate q, noise σ), both directions:
/// L is monotone in the output o, so δ(ε) = P(L > ε) − e^ε Q(L > ε) with the threshold
/// o* = σ² log((e^ε − (1 − q))/q) + ½ (remove) or o* at −ε (add).
fn subsampled_delta(eps: f64, q: f64, sigma: f64, dir: Direction) -> f64 {
    let o_of = |r: f64| {
        let t = (r.exp() - (1.0 - q)) / q;
        if t <= 0.0 {
            f64::NEG_INFINITY
        } else {
            sigma * sigma * t.ln() + 0.5
        }
    };
    match dir {
        Direction::Remove => {
            let o = o_of(eps);
            let above0 = phi_cdf(-o / sigma);
            let above1 = phi_cdf(-(o - 1.0) / sigma);
            (1.0 - q) * above0 + q * above1 - eps.exp() * above0
        }
        Direction::Add => {
            let o = o_of(-eps);
            if o == f64::NEG_INFINITY {
                return 0.0;
            }
            let below0 = phi_cdf(o / sigma);
            let below1 = phi_cdf((o - 1.0) / sigma);
            below0 - eps.exp() * ((1.0 - q) * below0 + q * below1)
        }
    }
}

fn accountant(h: f64, d: Discretization) -> PldAccountant {
    PldAccountant {
        value_discretization_interval: h,
        discretization: d,
        ..Default::default()
    }
}

fn ledger(event: DpEvent) -> PrivacyLedger {
    PrivacyLedger {
        relation: Neighbouring::AddRemove,
        event,
    }
}

fn gauss(s: f64) -> DpEvent {
    DpEvent::Gaussian {
        noise_multiplier: s,
    }
}

fn dpsgd(q: f64, sigma: f64, steps: u64) -> DpEvent {
    DpEvent::SelfComposed {
        count: steps,
        event: Box::new(DpEvent::PoissonSampled {
            q,
            event: Box::new(gauss(sigma)),
        }),
    }
}

fn field(e: &Error) -> String {
    match e {
        Error::Invalid { field, .. } => field.clone(),
        other => panic!("expected Invalid, got {other}"),
    }
}

/// The upper-bound check used for both the pessimistic PLDs and the negative control: the
/// relative gap (PLD δ − exact δ)/exact δ, or Err when PLD δ < exact δ.
fn upper_bound_gap(pld: f64, exact: f64) -> Result<f64, String> {
    if pld >= exact {
        Ok((pld - exact) / exact)
    } else {
        Err(format!("PLD δ {pld:e} < exact δ {exact:e}"))
    }
}

#[test]
fn gaussian_and_composed_gaussians_are_upper_bounded_with_shrinking_gaps() {
    // (σ, k, ε values): single mechanisms at and between grid points, and k-fold compositions
    // (exactly the Gaussian with σ/√k).
    let cases: [(f64, u64, [f64; 3]); 4] = [
        (1.0, 1, [0.5, 1.0, 1.23456]),
        (2.0, 1, [0.1, 0.3, 0.654321]),
        (4.0, 4, [0.25, 0.5, 0.777]),
        (8.0, 16, [0.25, 0.5, 0.9]),
    ];
    let hs = [1e-2, 1e-3, 1e-4];
    println!(
        "discretization  sigma  k  eps       exact delta      relative gap at h = 1e-2, 1e-3, 1e-4"
    );
    for disc in [Discretization::ConnectTheDots, Discretization::RoundUp] {
        for &(sigma, k, eps_list) in &cases {
            let plds: Vec<_> = hs
                .iter()
                .map(|&h| {
                    accountant(h, disc)
                        .gaussian_pair(sigma)
                        .unwrap()
                        .self_composed(k)
                        .unwrap()
                })
                .collect();
            let sigma_k = sigma / (k as f64).sqrt();
            for &eps in &eps_list {
                let exact = gaussian_delta(eps, sigma_k);
                let gaps: Vec<f64> = plds
                    .iter()
                    .map(|p| upper_bound_gap(p.delta(eps).unwrap(), exact).unwrap())
                    .collect();
                println!(
                    "{disc:?} {sigma} {k} {eps:<8} {exact:.10e}  {:.2e} {:.2e} {:.2e}",
                    gaps[0], gaps[1], gaps[2]
                );
                // Pessimistic and tight: the gap at h = 1e-4 is small ...
                let tol = match disc {
                    Discretization::ConnectTheDots => 1e-6,
                    _ => 1e-2,
                };
                assert!(gaps[2] < tol, "gap {} at h = 1e-4", gaps[2]);
                // ... and shrinks with h, unless it is already at the round-off floor.
                for w in gaps.windows(2) {
                    assert!(w[1] <= w[0] || w[1] < 1e-11, "gaps {gaps:?}");
                }
                if disc == Discretization::RoundUp {
                    // First order in h: a factor ≈ 10 per decade.
                    assert!(gaps[0] / gaps[1] > 5.0 && gaps[1] / gaps[2] > 5.0);
                }
            }
            // A composed PLD's gap is second order in h (connect-the-dots).
            if disc == Discretization::ConnectTheDots && k > 1 {
                let exact = gaussian_delta(0.5, sigma_k);
                let g2 = plds[1].delta(0.5).unwrap() / exact - 1.0;
                let g1 = plds[0].delta(0.5).unwrap() / exact - 1.0;
                assert!(g1 / g2 > 50.0, "not second order: {g1:e} → {g2:e}");
            }
        }
    }
}

#[test]
fn optimistic_discretization_undercuts_the_exact_delta_negative_control() {
    // The same pipeline with losses rounded down: δ falls below the exact Gaussian δ, so the
    // upper-bound check above is able to fail.
    let (sigma, k, eps) = (4.0, 4, 0.5);
    let exact = gaussian_delta(eps, sigma / 2.0);
    for h in [1e-2, 1e-3, 1e-4] {
        let opt = accountant(h, Discretization::RoundDown)
            .gaussian_pair(sigma)
            .unwrap()
            .self_composed(k)
            .unwrap();
        assert!(!opt.remove.is_pessimistic());
        let d = opt.delta(eps).unwrap();
        println!(
            "round-down h = {h}: δ = {d:.10e}, exact {exact:.10e}, rel {:.2e}",
            d / exact - 1.0
        );
        let verdict = upper_bound_gap(d, exact);
        assert!(
            verdict.is_err(),
            "optimistic δ {d:e} not below exact {exact:e}"
        );
    }
    // Single Gaussian too.
    let single = accountant(1e-3, Discretization::RoundDown)
        .gaussian_pair(1.0)
        .unwrap();
    assert!(upper_bound_gap(single.delta(1.0).unwrap(), gaussian_delta(1.0, 1.0)).is_err());
    // The accountant refuses to report it as a guarantee.
    let acc = accountant(1e-3, Discretization::RoundDown);
    let e = acc.epsilon(&ledger(gauss(1.0)), 1e-5).unwrap_err();
    assert!(is_unsupported(&e), "{e}");
    assert!(is_unsupported(
        &acc.delta(&ledger(gauss(1.0)), 1.0).unwrap_err()
    ));
}

#[test]
fn one_subsampled_gaussian_step_is_upper_bounded_in_both_directions() {
    for &(q, sigma) in &[(0.0025, 1.3), (0.01, 0.8), (0.3, 1.0)] {
        for dir in [Direction::Remove, Direction::Add] {
            for h in [1e-3, 1e-4] {
                let p = accountant(h, Discretization::ConnectTheDots)
                    .subsampled_gaussian(q, sigma, dir)
                    .unwrap();
                assert!((p.total_mass() - 1.0).abs() < 1e-12);
                for eps in [0.0, 0.001, 0.01, 0.1, 0.5] {
                    let exact = subsampled_delta(eps, q, sigma, dir);
                    if exact < 1e-12 {
                        continue;
                    }
                    let d = p.delta(eps).unwrap();
                    let gap = upper_bound_gap(d, exact).unwrap();
                    assert!(
                        gap < 1e-5,
                        "q {q} σ {sigma} {dir:?} h {h} ε {eps}: gap {gap:e}"
                    );
                }
            }
        }
    }
}

#[test]
fn dpsgd_reference_instances_beat_rdp() {
    // (q, σ, steps, δ, the RDP accountant's ε, Google dp_accounting 0.6.0's PLD ε at h = 1e-4,
    // connect-the-dots, add/remove: an independent implementation, run once by hand).
    let cases = [
        (0.0025, 1.3, 6000u64, 1e-5, 0.724_223_402_6, 0.640_110_926),
        (0.001, 1.0, 30000u64, 1e-7, 1.415_498_849_5, 1.098_198_495),
    ];
    let acc = PldAccountant::default();
    assert_eq!(acc.value_discretization_interval, 1e-4);
    for (q, sigma, steps, delta, rdp, reference) in cases {
        let led = ledger(dpsgd(q, sigma, steps));
        let t = std::time::Instant::now();
        let prof = acc.profile(&led).unwrap();
        let built = t.elapsed();
        let pair = &prof.parts[0];
        let e_rem = pair.remove.epsilon(delta).unwrap();
        let e_add = pair.add.epsilon(delta).unwrap();
        let report = acc.epsilon(&led, delta).unwrap();
        println!(
            "q = {q}, σ = {sigma}, {steps} steps, δ = {delta}, h = 1e-4: ε = {:.6} (remove {e_rem:.6}, \
             add {e_add:.6}); RDP {rdp}; dp_accounting {reference}; built in {built:?}; support \
             {} / {} points; round-off allowance {:.1e}; infinity mass {:.1e}",
            report.epsilon,
            pair.remove.pmf().len(),
            pair.add.pmf().len(),
            pair.remove.roundoff_allowance(),
            pair.remove.infinity_mass(),
        );
        assert_eq!(report.accountant, "pld");
        assert_eq!(report.order, None);
        assert_eq!(report.epsilon, e_rem.max(e_add));
        assert!(report.epsilon <= rdp, "PLD {} > RDP {rdp}", report.epsilon);
        assert!(report.epsilon < 0.92 * rdp);
        assert!((report.epsilon - reference).abs() < 2e-4);
        // Plain rounding up (privacy buckets) is also an upper bound, but its bias grows like
        // k·h/2 with the number of steps.
        if steps == 6000 {
            let up = accountant(1e-4, Discretization::RoundUp)
                .epsilon(&led, delta)
                .unwrap()
                .epsilon;
            println!("  the same with round-up discretization: ε = {up:.6}");
            assert!(up > report.epsilon + 0.05);
        }
        // The answer is consistent with δ(ε).
        assert!(acc.delta(&led, report.epsilon).unwrap() <= delta);
        assert!(acc.delta(&led, report.epsilon * 0.999).unwrap() > delta);
    }
}

#[test]
fn discretization_converges_from_above() {
    let hs = [1e-2, 1e-3, 1e-4];
    // Composed Gaussians, where the exact ε is known.
    let (sigma, k, delta) = (8.0, 16, 1e-6);
    let exact = gaussian_epsilon(delta, sigma / 4.0);
    for disc in [Discretization::ConnectTheDots, Discretization::RoundUp] {
        let led = ledger(DpEvent::SelfComposed {
            count: k,
            event: Box::new(gauss(sigma)),
        });
        let study = accountant(1e-4, disc)
            .discretization_study(&led, delta, &hs)
            .unwrap();
        for p in &study {
            println!(
                "Gaussian σ = {sigma}, k = {k}, δ = {delta}, {disc:?}: h = {:e}: ε = {:.9} (exact {exact:.9}, +{:.2e})",
                p.interval,
                p.epsilon,
                p.epsilon - exact
            );
            assert!(p.epsilon >= exact);
        }
        assert!(study.windows(2).all(|w| w[1].epsilon <= w[0].epsilon));
        assert!(study[2].epsilon - exact < 1e-3);
    }
    // DP-SGD instance 1 (the RDP value is an upper bound on the truth too).
    let led = ledger(dpsgd(0.0025, 1.3, 6000));
    let study = PldAccountant::default()
        .discretization_study(&led, 1e-5, &hs)
        .unwrap();
    for p in &study {
        println!(
            "DP-SGD q = 0.0025, σ = 1.3, 6000 steps, δ = 1e-5: h = {:e}: ε = {:.6}",
            p.interval, p.epsilon
        );
    }
    assert!(study.windows(2).all(|w| w[1].epsilon <= w[0].epsilon));
}

#[test]
fn laplace_mechanism_is_upper_bounded() {
    // δ(ε) = 1 − e^{(ε − 1/b)/2} on [0, 1/b].
    for b in [0.5, 1.0, 3.0] {
        let e0 = 1.0 / b;
        for disc in [Discretization::ConnectTheDots, Discretization::RoundUp] {
            let p = accountant(1e-3, disc).laplace_pair(b).unwrap();
            assert!((p.remove.total_mass() - 1.0).abs() < 1e-13);
            for f in [0.0, 0.1, 0.5, 0.77] {
                let eps = f * e0;
                let exact = -((eps - e0) / 2.0).exp_m1();
                let gap = upper_bound_gap(p.delta(eps).unwrap(), exact).unwrap();
                assert!(gap < 1e-2, "b {b} ε {eps}: gap {gap:e}");
            }
            // Nothing lies above the top grid point ⌈ε₀/h⌉·h ≤ ε₀ + h.
            assert!(p.delta(e0 + 1e-3).unwrap() < 1e-12);
        }
    }
    let acc = PldAccountant::default();
    let e = acc
        .epsilon(
            &ledger(DpEvent::Laplace {
                noise_multiplier: 1.0,
            }),
            1e-9,
        )
        .unwrap();
    assert!(e.epsilon <= 1.0 + 1e-9 && e.epsilon > 0.999);
}

#[test]
fn composition_rules() {
    let acc = accountant(1e-3, Discretization::ConnectTheDots);
    let g = acc.gaussian_pair(2.0).unwrap();
    // self_composed by squaring equals repeated composition.
    let mut rep = g.clone();
    for _ in 1..5 {
        rep = rep.composed(&g).unwrap();
    }
    let sq = g.self_composed(5).unwrap();
    for eps in [0.1, 0.5, 1.0] {
        let (a, b) = (rep.delta(eps).unwrap(), sq.delta(eps).unwrap());
        assert!(
            (a - b).abs() <= 1e-12 * a.max(1e-300) + 1e-13,
            "{a:e} vs {b:e}"
        );
    }
    // Composition commutes.
    let l = acc.laplace_pair(2.0).unwrap();
    let (ab, ba) = (g.composed(&l).unwrap(), l.composed(&g).unwrap());
    let (dab, dba) = (ab.delta(0.3).unwrap(), ba.delta(0.3).unwrap());
    assert!((dab - dba).abs() < 1e-13, "{dab:e} vs {dba:e}");
    // Post-processing and no-ops are free.
    let base = acc.delta(&ledger(gauss(2.0)), 0.3).unwrap();
    let with_pp = acc
        .delta(
            &ledger(DpEvent::Composed(vec![
                gauss(2.0),
                DpEvent::PostProcessing,
                DpEvent::NoOp,
            ])),
            0.3,
        )
        .unwrap();
    assert_eq!(base, with_pp);
    // Parallel composition: alike parts = one part; different parts at the top = the worst;
    // different parts inside a composition = Unsupported.
    let par = acc
        .delta(
            &ledger(DpEvent::ParallelComposed(vec![
                gauss(2.0),
                gauss(2.0),
                DpEvent::NoOp,
            ])),
            0.3,
        )
        .unwrap();
    assert_eq!(par, base);
    let worst = acc
        .delta(
            &ledger(DpEvent::ParallelComposed(vec![gauss(2.0), gauss(5.0)])),
            0.3,
        )
        .unwrap();
    assert_eq!(worst, base);
    let nested = DpEvent::Composed(vec![
        gauss(1.0),
        DpEvent::ParallelComposed(vec![gauss(2.0), gauss(5.0)]),
    ]);
    assert!(is_unsupported(
        &acc.delta(&ledger(nested), 0.3).unwrap_err()
    ));
    // Subsampling a composition of Gaussians run on one sample = one Gaussian.
    let one = acc
        .epsilon(
            &ledger(DpEvent::PoissonSampled {
                q: 0.1,
                event: Box::new(gauss(1.0 / 2f64.sqrt())),
            }),
            1e-6,
        )
        .unwrap();
    let two = acc
        .epsilon(
            &ledger(DpEvent::PoissonSampled {
                q: 0.1,
                event: Box::new(DpEvent::SelfComposed {
                    count: 2,
                    event: Box::new(gauss(1.0)),
                }),
            }),
            1e-6,
        )
        .unwrap();
    assert!((one.epsilon - two.epsilon).abs() < 1e-9);
    // Nested Poisson sampling multiplies rates; q = 1 is the plain Gaussian.
    let nested_q = acc
        .delta(
            &ledger(DpEvent::PoissonSampled {
                q: 0.5,
                event: Box::new(DpEvent::PoissonSampled {
                    q: 0.2,
                    event: Box::new(gauss(1.0)),
                }),
            }),
            0.1,
        )
        .unwrap();
    let flat_q = acc
        .delta(
            &ledger(DpEvent::PoissonSampled {
                q: 0.1,
                event: Box::new(gauss(1.0)),
            }),
            0.1,
        )
        .unwrap();
    assert!((nested_q - flat_q).abs() < 1e-15);
    let q1 = acc
        .delta(
            &ledger(DpEvent::PoissonSampled {
                q: 1.0,
                event: Box::new(gauss(2.0)),
            }),
            0.3,
        )
        .unwrap();
    assert_eq!(q1, base);
    // A hand-built PLD: mass ½ at 0 and ½ at loss 1 gives δ(0) = ½(1 − e^{−1}).
    let p = Pld::from_masses(0.5, 0, vec![0.5, 0.0, 0.5], 0.0, 1e-15).unwrap();
    let d = p.delta(0.0).unwrap();
    assert!((d - 0.5 * (1.0 - (-1f64).exp())).abs() < 1e-15);
    assert!(p.epsilon(0.5 * (1.0 - (-1f64).exp())).unwrap() < 1e-12);
    // ½(1 − e^{ε−1}) = 1e-9 at ε = 1 + ln(1 − 2e-9).
    assert!((p.epsilon(1e-9).unwrap() - (1.0 + (-2e-9f64).ln_1p())).abs() < 1e-12);
}

#[test]
fn unsupported_events_say_why() {
    let acc = accountant(1e-3, Discretization::ConnectTheDots);
    let inner = Box::new(gauss(1.0));
    let cases = [
        (
            Neighbouring::AddRemove,
            DpEvent::SampledWithoutReplacement {
                n: 100,
                m: 10,
                event: inner.clone(),
            },
            "fixed-size",
        ),
        (
            Neighbouring::AddRemove,
            DpEvent::SampledWithReplacement {
                n: 100,
                m: 10,
                event: inner.clone(),
            },
            "several times",
        ),
        (
            Neighbouring::ReplaceOne,
            DpEvent::PoissonSampled {
                q: 0.1,
                event: inner.clone(),
            },
            "replace-one",
        ),
        (
            Neighbouring::AddRemove,
            DpEvent::PoissonSampled {
                q: 0.1,
                event: Box::new(DpEvent::Laplace {
                    noise_multiplier: 1.0,
                }),
            },
            "event.poisson_sampled.event",
        ),
    ];
    for (relation, event, why) in cases {
        let led = PrivacyLedger { relation, event };
        let e = acc.epsilon(&led, 1e-5).unwrap_err();
        assert!(is_unsupported(&e), "{e}");
        assert!(e.to_string().contains(why), "{e}");
        assert!(is_unsupported(&acc.delta(&led, 1.0).unwrap_err()));
    }
    // Replace-one without sampling is priced (the noise multiplier is relative to the
    // replace-one sensitivity).
    let led = PrivacyLedger {
        relation: Neighbouring::ReplaceOne,
        event: gauss(1.0),
    };
    assert!(acc.epsilon(&led, 1e-5).is_ok());
    // δ below the infinity mass: no finite ε.
    let e = acc.epsilon(&ledger(gauss(1.0)), 1e-300).unwrap_err();
    assert!(is_unsupported(&e), "{e}");
}

#[test]
fn bad_input_is_a_typed_error_naming_the_field() {
    let good = ledger(gauss(1.0));
    for h in [0.0, -1e-4, f64::NAN, f64::INFINITY, 2.0] {
        let acc = PldAccountant {
            value_discretization_interval: h,
            ..Default::default()
        };
        assert_eq!(
            field(&acc.epsilon(&good, 1e-5).unwrap_err()),
            "value_discretization_interval"
        );
        assert_eq!(
            field(&acc.delta(&good, 1.0).unwrap_err()),
            "value_discretization_interval"
        );
    }
    for t in [0.0, -1.0, 0.5, f64::NAN] {
        let acc = PldAccountant {
            tail_mass_truncation: t,
            ..Default::default()
        };
        assert_eq!(
            field(&acc.epsilon(&good, 1e-5).unwrap_err()),
            "tail_mass_truncation"
        );
    }
    let acc = accountant(1e-3, Discretization::ConnectTheDots);
    for d in [0.0, 1.0, -0.1, f64::NAN] {
        assert_eq!(field(&acc.epsilon(&good, d).unwrap_err()), "delta");
    }
    for e in [-1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(field(&acc.delta(&good, e).unwrap_err()), "epsilon");
    }
    let bad_q = ledger(DpEvent::SelfComposed {
        count: 3,
        event: Box::new(DpEvent::PoissonSampled {
            q: 1.5,
            event: Box::new(gauss(1.0)),
        }),
    });
    assert_eq!(
        field(&acc.epsilon(&bad_q, 1e-5).unwrap_err()),
        "event.self_composed.event.poisson_sampled.q"
    );
    assert_eq!(
        field(&acc.delta(&ledger(gauss(0.0)), 1.0).unwrap_err()),
        "event.gaussian.noise_multiplier"
    );
    let zero_count = ledger(DpEvent::SelfComposed {
        count: 0,
        event: Box::new(gauss(1.0)),
    });
    assert_eq!(
        field(&acc.delta(&zero_count, 1.0).unwrap_err()),
        "event.self_composed.count"
    );
    // Direct constructors.
    assert_eq!(
        field(&acc.gaussian_pair(f64::NAN).unwrap_err()),
        "noise_multiplier"
    );
    assert_eq!(
        field(
            &acc.subsampled_gaussian(0.0, 1.0, Direction::Add)
                .unwrap_err()
        ),
        "q"
    );
    assert_eq!(
        field(&acc.laplace_pair(-1.0).unwrap_err()),
        "noise_multiplier"
    );
    // A grid too fine for the mechanism.
    let tiny = accountant(1e-6, Discretization::ConnectTheDots);
    assert_eq!(
        field(&tiny.epsilon(&ledger(gauss(0.01)), 1e-5).unwrap_err()),
        "value_discretization_interval"
    );
    // Hand-built PLDs and mismatched grids.
    assert_eq!(
        field(&Pld::from_masses(1e-3, 0, vec![0.5, -0.1], 0.0, 1e-15).unwrap_err()),
        "pmf[1]"
    );
    assert_eq!(
        field(&Pld::from_masses(1e-3, 0, vec![0.5], f64::NAN, 1e-15).unwrap_err()),
        "infinity_mass"
    );
    assert_eq!(
        field(&Pld::from_masses(1e-3, 0, vec![0.9, 0.9], 0.0, 1e-15).unwrap_err()),
        "pmf"
    );
    let a = Pld::from_masses(1e-3, 0, vec![1.0], 0.0, 1e-15).unwrap();
    let b = Pld::from_masses(2e-3, 0, vec![1.0], 0.0, 1e-15).unwrap();
    assert_eq!(
        field(&a.composed(&b).unwrap_err()),
        "value_discretization_interval"
    );
    assert_eq!(field(&a.delta(f64::NAN).unwrap_err()), "epsilon");
    assert_eq!(field(&a.epsilon(0.0).unwrap_err()), "delta");
    assert_eq!(acc.name(), "pld");
}
