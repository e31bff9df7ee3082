//! ZTOH22's privacy calibrations (Zhang, Thekumparampil, Oh, He: output perturbation and phased
//! output perturbation), one function per item: the noise exactly as printed and the calibration
//! with the event tree each algorithm generates ([`PaperCalibration`]). The machinery that prices
//! them is [`crate::privacy::calibration`]; the derivations are in `proofs-notes/privacy.md`.

use crate::error::{require_count, require_positive, Result};
use crate::papers::calibration::PaperCalibration;
use crate::papers::Reading;
use crate::privacy::calibration::{replace_one, Calibration};
use crate::privacy::{validate_eps_delta, DpEvent};

/// ZTOH22 Def 2: Gaussian mechanism with σ = Δ√(2 log(1.25/δ))/ε (ε ∈ (0, 1), §2.1).
pub fn def2_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> Result<f64> {
    require_positive("sensitivity", sensitivity)?;
    validate_eps_delta(epsilon, delta)?;
    Ok(sensitivity * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon)
}

/// ZTOH22 Algorithm 1: σ = 4L√(2 log(2.5/δ))/(μnε); sensitivity 4L/(μn) (exact ERM
/// stability 2L/(μn) plus twice the solver accuracy L/(μn), which holds with probability
/// ≥ 1 − δ/4). One Gaussian.
pub fn alg1(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<PaperCalibration> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    validate_eps_delta(epsilon, delta)?;
    let sigma = 4.0 * l * (2.0 * (2.5 / delta).ln()).sqrt() / (mu * n as f64 * epsilon);
    let s = 4.0 * l / (mu * n as f64);
    Ok(PaperCalibration {
        paper: "ZTOH22",
        item: "Alg 1",
        printed: "Algorithm 1",
        reading: Reading::PaperLiteral,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::Gaussian {
                noise_multiplier: sigma / s,
            }),
            bad_event_probability: delta / 4.0,
            epsilon,
            delta,
        },
    })
}

/// The phase count K = ⌊log₂ n⌋ (≥ 1) and n̄ = ⌊n/K⌋ that this crate reads ZTOH22's
/// "K = log(n), n̄ = n/K" (Algorithm 2, line 1; Algorithm 4, line 1) as.
pub fn phases(n: u64) -> (u64, u64) {
    let k = (63 - n.max(2).leading_zeros() as u64).max(1);
    (k, n / k)
}

/// ZTOH22 Algorithm 2: phased output perturbation, σ_k = 4L√(2 log(2.5/δ))/(μ_k n̄ ε) with
/// μ_k = μ2^k; phase sensitivity 4L/(μ_k n̄), so every phase has the same noise multiplier.
/// Disjoint phases: parallel composition of K Gaussians.
pub fn alg2(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<PaperCalibration> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    validate_eps_delta(epsilon, delta)?;
    let (k, nbar) = phases(n);
    let mu1 = 2.0 * mu;
    let sigma1 = 4.0 * l * (2.0 * (2.5 / delta).ln()).sqrt() / (mu1 * nbar as f64 * epsilon);
    let s1 = 4.0 * l / (mu1 * nbar as f64);
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma1 / s1,
    };
    Ok(PaperCalibration {
        paper: "ZTOH22",
        item: "Alg 2 (phase 1 shown)",
        printed: "Algorithm 2, lines 1, 3 and 5",
        reading: Reading::PaperLiteral,
        calibration: Calibration {
            sigma: sigma1,
            sensitivity: s1,
            ledger: replace_one(DpEvent::ParallelComposed(vec![g; k as usize])),
            bad_event_probability: delta / 4.0,
            epsilon,
            delta,
        },
    })
}

/// ZTOH22 Algorithm 3, SC-SC output perturbation: σ_x = (8L/(nε))√(2 log(5/δ)/(μ_xμ)),
/// σ_y likewise, μ = min{μ_x, μ_y}; per-block sensitivity 4L/(n√(μμ_x)) (Lemma 4.4 plus the
/// solver accuracy, which holds with probability ≥ 1 − δ/8). Two Gaussians composed.
pub fn alg3(
    l: f64,
    mu_x: f64,
    mu_y: f64,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<PaperCalibration> {
    require_positive("L", l)?;
    require_positive("mu_x", mu_x)?;
    require_positive("mu_y", mu_y)?;
    require_count("n", n)?;
    validate_eps_delta(epsilon, delta)?;
    let mu = mu_x.min(mu_y);
    let nf = n as f64;
    let sig = |m: f64| 8.0 * l / (nf * epsilon) * (2.0 * (5.0 / delta).ln() / (m * mu)).sqrt();
    let sens = |m: f64| 4.0 * l / (nf * (mu * m).sqrt());
    let (sx, sy) = (sig(mu_x), sig(mu_y));
    let (dx, dy) = (sens(mu_x), sens(mu_y));
    Ok(PaperCalibration {
        paper: "ZTOH22",
        item: "Alg 3 (x block shown)",
        printed: "Algorithm 3",
        reading: Reading::PaperLiteral,
        calibration: Calibration {
            sigma: sx,
            sensitivity: dx,
            ledger: replace_one(DpEvent::Composed(vec![
                DpEvent::Gaussian {
                    noise_multiplier: sx / dx,
                },
                DpEvent::Gaussian {
                    noise_multiplier: sy / dy,
                },
            ])),
            bad_event_probability: delta / 8.0,
            epsilon,
            delta,
        },
    })
}

/// ZTOH22 Algorithm 4 + Algorithm 5 (Alg 5 by symmetry, App. B): each phase perturbs one block with
/// σ_k = (8L/(n̄ε))√(2 log(5/δ)/(μ_kμ)), sensitivity 4L/(n̄√(μ_kμ)); each algorithm is a parallel
/// composition over its K phases, and the two are composed (basic composition, Lemma 2.1, as §4.2
/// says).
pub fn alg4_5(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<PaperCalibration> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    validate_eps_delta(epsilon, delta)?;
    let (k, nbar) = phases(n);
    let nb = nbar as f64;
    let mu1 = 2.0 * mu;
    let sigma1 = 8.0 * l / (nb * epsilon) * (2.0 * (5.0 / delta).ln() / (mu1 * mu)).sqrt();
    let s1 = 4.0 * l / (nb * (mu1 * mu).sqrt());
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma1 / s1,
    };
    let phases = DpEvent::ParallelComposed(vec![g; k as usize]);
    Ok(PaperCalibration {
        paper: "ZTOH22",
        item: "Alg 4 + Alg 5 (phase 1 shown)",
        printed: "Algorithm 4, Algorithm 5 (App. B), §4.2",
        reading: Reading::PaperLiteral,
        calibration: Calibration {
            sigma: sigma1,
            sensitivity: s1,
            ledger: replace_one(DpEvent::Composed(vec![phases.clone(), phases])),
            bad_event_probability: delta / 4.0,
            epsilon,
            delta,
        },
    })
}
