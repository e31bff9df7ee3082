//! Noise ↔ ledger (proofs-notes/privacy.md, "Noise ↔ ledger"): every private algorithm's
//! measured release noise matches the σ its ledger prices, and the 0.5σ and 2σ variants are
//! rejected; the chi-square quantiles behind the test; the replay helper.

use dpsaddle::algorithms::release_noise::{gaussian_multipliers, measure, scale_normals};
use dpsaddle::claims::{self, Budget};
use dpsaddle::privacy::chi_square::{chi_square_quantile, chi_square_tails, VarianceRatioTest};
use dpsaddle::privacy::DpEvent;
use dpsaddle::rng::{DrawValues, NoiseSource};

const IDS: [&str; 6] = [
    "bgm23.noise_ledger_noisy_sgda",
    "kllw22.noise_ledger_dp_gda",
    "bgm23.noise_ledger_output_perturbation",
    "bgm23.noise_ledger_rr_output_perturbation",
    "bgm23.noise_ledger_rr_noisy_sgda",
    "bgm23.noise_ledger_ldp_sgda",
];

#[test]
fn every_private_algorithm_adds_the_noise_its_ledger_prices() {
    for id in IDS {
        let claim = claims::find(id).unwrap_or_else(|| panic!("{id} is registered"));
        let ev = (claim.check)(Budget::Quick).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(ev.pass, "{id}: {:?}", ev.details);
        assert_eq!(ev.control_status(), "rejected", "{id}: {:?}", ev.details);
        let worst = ev.worst_ratio.expect("a measured ratio");
        assert!(worst <= 1.0, "{id}: {worst}");
        let margin = ev.negative_control.as_ref().unwrap().worst_ratio.unwrap();
        assert!(margin > 1.0, "{id}: control margin {margin}");
        println!("{id}: {:?} margin {margin:.3}", ev.details);
    }
}

#[test]
fn chi_square_quantiles_agree_with_closed_forms_and_tails() {
    // k = 2: P[χ²_2 > x] = e^{−x/2}.
    for p in [1e-9, 1e-6, 0.01, 0.5] {
        let x = chi_square_quantile(2, p, false).unwrap();
        assert!((x / (-2.0 * f64::ln(p)) - 1.0).abs() < 1e-10, "{p}: {x}");
    }
    // Round trip at large k: the tails at the quantiles are the levels.
    for k in [100u64, 512, 4096] {
        let lo = chi_square_quantile(k, 5e-7, true).unwrap();
        let hi = chi_square_quantile(k, 5e-7, false).unwrap();
        let (p_lo, _) = chi_square_tails(k, lo).unwrap();
        let (_, q_hi) = chi_square_tails(k, hi).unwrap();
        assert!((p_lo / 5e-7 - 1.0).abs() < 1e-8, "{k}: {p_lo}");
        assert!((q_hi / 5e-7 - 1.0).abs() < 1e-8, "{k}: {q_hi}");
        assert!(lo < k as f64 && hi > k as f64);
    }
    // The Wilson–Hilferty approximation is within 1% at k = 512 (an independent check of scale).
    let k = 512.0f64;
    let z = 4.891638475698; // Φ⁻¹(1 − 5e-7)
    let wh = |z: f64| k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3);
    let hi = chi_square_quantile(512, 5e-7, false).unwrap();
    let lo = chi_square_quantile(512, 5e-7, true).unwrap();
    assert!((hi / wh(z) - 1.0).abs() < 0.01, "{hi} vs {}", wh(z));
    assert!((lo / wh(-z) - 1.0).abs() < 0.01, "{lo} vs {}", wh(-z));
}

#[test]
fn variance_ratio_test_rejects_the_wrong_scale() {
    let mut src = NoiseSource::sample(7);
    let x = src.normals("t", 512).unwrap();
    assert!(VarianceRatioTest::new(&x, 1e-6).unwrap().accepts());
    let half: Vec<f64> = x.iter().map(|v| 0.5 * v).collect();
    let double: Vec<f64> = x.iter().map(|v| 2.0 * v).collect();
    assert!(!VarianceRatioTest::new(&half, 1e-6).unwrap().accepts());
    assert!(!VarianceRatioTest::new(&double, 1e-6).unwrap().accepts());
}

#[test]
fn replays_scale_only_the_normals() {
    let mut src = NoiseSource::recording(3);
    src.normals("a", 3).unwrap();
    src.indices("b", 2, 10).unwrap();
    let tape = src.into_tape().unwrap();
    let half = scale_normals(&tape, 0.5);
    match (&tape.draws[0].values, &half.draws[0].values) {
        (DrawValues::Normal(a), DrawValues::Normal(b)) => {
            for (x, y) in a.iter().zip(b) {
                assert_eq!(*y, 0.5 * x);
            }
        }
        _ => panic!("normals expected"),
    }
    assert_eq!(tape.draws[1], half.draws[1]);
    // A run that releases its draws: the noiseless replay releases zeros.
    let run = |noise: &mut NoiseSource| -> dpsaddle::Result<dpsaddle::algorithms::Output> {
        let g = noise.gaussian("x", 2, 3.0)?;
        Ok(dpsaddle::algorithms::Output {
            w: g,
            theta: vec![],
            grad_evals: 0,
            ledger: None,
            info: dpsaddle::algorithms::Diagnostics::ModeOfHalves(
                dpsaddle::algorithms::mode_of_halves::ModeOfHalvesDiagnostics {
                    first_half: 0,
                    second_half: 0,
                },
            ),
        })
    };
    let m = measure(run, 5, &[2.0]).unwrap();
    assert_eq!(m.noiseless.w, vec![0.0, 0.0]);
    assert_eq!(m.normals, 2);
    let c = m.contribution();
    let c2 = m.scaled_contribution(0);
    assert_eq!(c2, vec![2.0 * c[0], 2.0 * c[1]]);
    let ev = DpEvent::Composed(vec![
        DpEvent::SelfComposed {
            count: 3,
            event: Box::new(DpEvent::Gaussian {
                noise_multiplier: 1.5,
            }),
        },
        DpEvent::PostProcessing,
    ]);
    assert_eq!(gaussian_multipliers(&ev), vec![1.5]);
}
