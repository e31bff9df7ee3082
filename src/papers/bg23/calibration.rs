//! BG23's privacy calibrations (Boob & Guzmán, NSEG and NISPP), one function per item: the noise
//! exactly as printed (`*_sigma`), and the calibration with the event tree the algorithm generates
//! ([`PaperCalibration`]), literal and corrected where the printed statement is wrong. The
//! machinery that prices them is [`crate::privacy::calibration`]; the derivations and the table
//! of every item are in `proofs-notes/privacy.md`. BG23 writes the δ of (ε, δ)-DP as η.

use crate::error::{require_count, require_positive, require_unit_open, Result};
use crate::papers::bg23::nispp::{nispp_schedule, prop9_sensitivity, NisppItem};
use crate::papers::calibration::{Condition, PaperAmplification, PaperCalibration};
use crate::papers::Reading;
use crate::privacy::calibration::{exact_gaussian_multiplier, replace_one, Calibration};
use crate::privacy::{validate_eps_delta, DpEvent};

/// BG23 Thm 1, the paper's moments-accountant summary: K adaptively composed Gaussian
/// releases, each on a batch of size m drawn as (Unif\[S\])^m (i.e. with replacement), each with
/// ℓ2-sensitivity s to one change of its batch, are (ε, η)-DP if ε < c₁·K·(m/n)² and
/// σ ≥ √(2K ln(1/η))·s·m/(nε). c₁ is "an absolute constant" the paper does not give; pass
/// `Some(c1)` to evaluate the condition. Footnote 4 asserts without proof that Abadi et
/// al.'s Poisson analysis carries over to uniform sampling.
pub fn thm1(
    k: u64,
    s: f64,
    m: u64,
    n: u64,
    epsilon: f64,
    eta: f64,
    c1: Option<f64>,
) -> Result<PaperAmplification> {
    require_positive("s", s)?;
    require_positive("epsilon", epsilon)?;
    require_unit_open("eta", eta)?;
    require_count("n", n)?;
    require_count("m", m)?;
    require_count("k", k)?;
    let q = m as f64 / n as f64;
    let sigma_min = (2.0 * k as f64 * (1.0 / eta).ln()).sqrt() * s * q / epsilon;
    let thresh = |c: f64| c * k as f64 * q * q;
    let cond = match c1 {
        Some(c) => Condition {
            name: "ε < c₁·K·(m/n)²".into(),
            holds: Some(epsilon < thresh(c)),
            detail: format!("c₁ = {c}, c₁K(m/n)² = {}", thresh(c)),
        },
        None => Condition {
            name: "ε < c₁·K·(m/n)²".into(),
            holds: None,
            detail: format!("c₁ unnamed; K(m/n)² = {}", thresh(1.0)),
        },
    };
    Ok(PaperAmplification {
        source: "BG23 Thm 1",
        sigma_min,
        sampling_rate: q,
        conditions: vec![
            cond,
            Condition {
                name: "Poisson analysis transferred to uniform sampling (footnote 4)".into(),
                holds: None,
                detail: "asserted, not proved".into(),
            },
        ],
    })
}

/// BG23 Prop 3: the Gaussian mechanism with σ² = 2s² ln(1/η)/ε², stated for every ε > 0.
pub fn prop3_sigma(s: f64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("s", s)?;
    validate_eps_delta(epsilon, eta)?;
    Ok(s * (2.0 * (1.0 / eta).ln()).sqrt() / epsilon)
}

/// σ of a Gaussian release of sensitivity s at (ε, η) per BG23 Prop 3, literal or corrected. The
/// literal formula is (ε, η)-DP only up to an ε that depends on η (it fails at ε = 10,
/// η = 1e-5); the corrected σ is max(literal, exact analytic-Gaussian σ).
fn prop3_gaussian(s: f64, epsilon: f64, eta: f64, reading: Reading) -> Result<f64> {
    let lit = prop3_sigma(s, epsilon, eta)?;
    Ok(match reading {
        Reading::PaperLiteral => lit,
        Reading::Corrected => lit.max(s * exact_gaussian_multiplier(epsilon, eta)?),
    })
}

/// BG23 Prop 3 as a calibration: one Gaussian release.
pub fn prop3(s: f64, epsilon: f64, eta: f64, reading: Reading) -> Result<PaperCalibration> {
    let sigma = prop3_gaussian(s, epsilon, eta, reading)?;
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Prop 3",
        printed: "Prop 3",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::Gaussian {
                noise_multiplier: sigma / s,
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}

/// BG23 Thm 1 as a calibration: K releases, each on m records drawn as (Unif\[S\])^m, sensitivity
/// s, at the printed σ = √(2K ln(1/η))·s·m/(nε). Tree: `self_composed{K,
/// sampled_with_replacement{n, m, gaussian{σ/s}}}`. With the constant √2 in place of Abadi et al.'s
/// unnamed c₂, the statement fails for large ε whatever c₁ is (erratum E-BG23-P3): as K grows with
/// ε fixed the transcript tends to μ-GDP with μ = ε/√(2 ln(1/η)), Prop 3's calibration.
pub fn thm1_calibration(
    k: u64,
    s: f64,
    m: u64,
    n: u64,
    epsilon: f64,
    eta: f64,
) -> Result<PaperCalibration> {
    let a = thm1(k, s, m, n, epsilon, eta, None)?;
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Thm 1",
        printed: "Thm 1, footnote 4",
        reading: Reading::PaperLiteral,
        calibration: Calibration {
            sigma: a.sigma_min,
            sensitivity: s,
            ledger: replace_one(DpEvent::SelfComposed {
                count: k,
                event: Box::new(DpEvent::SampledWithReplacement {
                    n,
                    m,
                    event: Box::new(DpEvent::Gaussian {
                        noise_multiplier: a.sigma_min / s,
                    }),
                }),
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}

/// The range of ε on which each reading states BG23 Thm 1 (with the printed √2 for Abadi et al.'s
/// constant): [`Reading::PaperLiteral`] every ε > 0 (given ε < c₁K(m/n)²);
/// [`Reading::Corrected`] ε ≤ 1, as Prop 3's calibration (erratum E-BG23-P3: for large ε the
/// transcript tends to Prop 3's μ-GDP as K grows and the statement fails for every c₁).
pub fn thm1_applies(epsilon: f64, reading: Reading) -> bool {
    match reading {
        Reading::PaperLiteral => epsilon > 0.0,
        Reading::Corrected => epsilon > 0.0 && epsilon <= 1.0,
    }
}

/// BG23 Prop 5: single-pass NSEG, σ_t² = (8M²/B_t²)·ln(1/η)/ε², each operator evaluation
/// having sensitivity 2M/B_t. The 2T batches (two per iteration) are disjoint, so the tree is a
/// parallel composition of 2T Gaussians (Prop 4). Inherits Prop 3's range of ε.
pub fn prop5(
    m_bound: f64,
    batch: u64,
    iterations: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<PaperCalibration> {
    require_positive("M", m_bound)?;
    require_count("B", batch)?;
    require_count("T", iterations)?;
    let s = 2.0 * m_bound / batch as f64;
    // Printed: σ_t² = 8M²/B² · ln(1/η)/ε² = 2 s² ln(1/η)/ε² (Prop 3 with s = 2M/B).
    let sigma = prop3_gaussian(s, epsilon, eta, reading)?;
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Prop 5",
        printed: "Prop 5, Prop 4",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::ParallelComposed(vec![g; 2 * iterations as usize])),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}

/// BG23 Prop 5's σ as printed: σ_t = √(8M²/B²·ln(1/η)/ε²).
pub fn prop5_sigma(m_bound: f64, batch: u64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("M", m_bound)?;
    require_count("B", batch)?;
    validate_eps_delta(epsilon, eta)?;
    Ok((8.0 * m_bound * m_bound / (batch as f64).powi(2) * (1.0 / eta).ln()).sqrt() / epsilon)
}

/// BG23 Prop 7 as printed: σ_t² = 8M²·log(1/η)/ε².
pub fn prop7_sigma(m_bound: f64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("M", m_bound)?;
    validate_eps_delta(epsilon, eta)?;
    Ok((8.0 * m_bound * m_bound * (1.0 / eta).ln()).sqrt() / epsilon)
}

/// BG23 Prop 7 with Thm 4's schedule: multi-pass NSEG with T = n² iterations, each making
/// **two** operator evaluations F_{β_i(1,t)} + ξ¹_t and F_{β_i(2,t)} + ξ²_t at independent uniform
/// indices (eq. (4.16)): 2T = 2n² with-replacement draws of m = 1, each of sensitivity 2M.
/// Tree: `self_composed{2n², sampled_with_replacement{n, 1, gaussian{σ/(2M)}}}`.
///
/// * Literal: σ² = 8M² log(1/η)/ε², which is BG23 Thm 1 with K = T (one mechanism per
///   iteration). The transcript is not (ε, η)-DP: e.g. n = 1000, ε = 1, η = 1e-5 has a proved
///   ε ≥ 1.06 (`proofs-notes/privacy.md`, erratum E-BG23-P1).
/// * Corrected: BG23 Thm 1 with K = 2T, σ² = 16M² ln(1/η)/ε², which the with-replacement RDP
///   bound certifies on the same instance.
pub fn prop7(
    m_bound: f64,
    n: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<PaperCalibration> {
    require_count("n", n)?;
    let sigma = match reading {
        Reading::PaperLiteral => prop7_sigma(m_bound, epsilon, eta)?,
        Reading::Corrected => {
            let t = n * n;
            thm1(2 * t, 2.0 * m_bound, 1, n, epsilon, eta, None)?.sigma_min
        }
    };
    let s = 2.0 * m_bound;
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Prop 7 (Thm 4 schedule)",
        printed: "Prop 7, Thm 4, eq. (4.16)",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::SelfComposed {
                count: 2 * n * n,
                event: Box::new(DpEvent::SampledWithReplacement {
                    n,
                    m: 1,
                    event: Box::new(DpEvent::Gaussian {
                        noise_multiplier: sigma / s,
                    }),
                }),
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}

/// BG23 Prop 10 as printed: σ_{k+1}² = 32M²/(λ_k²B_{k+1}²)·ln(1/η)/ε² (Prop 3 with the
/// sensitivity 4M/(λ_kB_{k+1}) of Prop 9).
pub fn prop10_sigma(m_bound: f64, lambda: f64, batch: u64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("M", m_bound)?;
    require_positive("lambda", lambda)?;
    require_count("B", batch)?;
    validate_eps_delta(epsilon, eta)?;
    Ok(
        (32.0 * m_bound * m_bound / (lambda * batch as f64).powi(2) * (1.0 / eta).ln()).sqrt()
            / epsilon,
    )
}

/// BG23 Prop 10: single-pass NISPP, K + 1 disjoint batches (k = 0..K), each release
/// w_{k+1} = u_{k+1} + ξ with sensitivity 4M/(λB). Parallel composition of K + 1 Gaussians.
/// Inherits Prop 3's range of ε.
pub fn prop10(
    m_bound: f64,
    lambda: f64,
    batch: u64,
    iterations: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<PaperCalibration> {
    require_positive("M", m_bound)?;
    require_positive("lambda", lambda)?;
    require_count("B", batch)?;
    require_count("K+1", iterations)?;
    let s = prop9_sensitivity(m_bound, lambda, batch);
    let sigma = prop3_gaussian(s, epsilon, eta, reading)?;
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Prop 10",
        printed: "Prop 10",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::ParallelComposed(vec![g; iterations as usize])),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}

/// BG23 Cor 2 and its proof: single-pass NISPP with B = n^{1/3} (here ⌈n^{1/3}⌉),
/// λ₀ = max{M/D, L}·max{n^{1/3}, √(d ln(1/η))/ε}, K + 1 = ⌊n/B⌋ disjoint batches.
///
/// * Literal: the printed σ² = 32M²/(Bλ₀)·ln(1/η)/ε² (squares missing). It is dimensionally
///   inconsistent and under-noises whenever λ₀B < 1 (σ_lit/σ_Prop10 = √(λ₀B)); erratum E-BG23-P5.
/// * Corrected: Prop 10's σ² = 32M²/(λ₀²B²)·ln(1/η)/ε² (with Prop 3's range fix).
#[allow(clippy::too_many_arguments)]
pub fn cor2(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<PaperCalibration> {
    validate_eps_delta(epsilon, eta)?;
    let sched = nispp_schedule(
        NisppItem::Cor2,
        m_bound,
        diameter,
        lipschitz,
        n,
        d,
        epsilon,
        eta,
        reading,
    )?;
    let (batch, lambda0, iterations) = (sched.batch, sched.lambda0, sched.iterations);
    let s = prop9_sensitivity(m_bound, lambda0, batch);
    let sigma = match reading {
        Reading::PaperLiteral => {
            (32.0 * m_bound * m_bound / (batch as f64 * lambda0) * (1.0 / eta).ln()).sqrt()
                / epsilon
        }
        Reading::Corrected => prop3_gaussian(s, epsilon, eta, Reading::Corrected)?,
    };
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Cor 2",
        printed: "Cor 2 and its proof",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::ParallelComposed(vec![g; iterations as usize])),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}

/// BG23 Thm 7 (§6.2): multi-pass NISPP, K = n (so n + 1 iterations k = 0..K), batches of
/// B = √n (here ⌈√n⌉) drawn with replacement, λ₀ = max{M/D, L}·max{√n, √(d ln(1/η))/ε} (the
/// printed "/θ" and "log 1/δ" read as /ε and ln(1/η)), σ = 8M√(ln(1/η))/(Bλ₀ε), sensitivity of
/// u_{k+1} to one batch slot 4M/(λ₀B) (proof of Thm 7). Tree:
/// `self_composed{n + 1, sampled_with_replacement{n, B, gaussian{2√(ln(1/η))/ε}}}`.
#[allow(clippy::too_many_arguments)]
pub fn thm7(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
) -> Result<PaperCalibration> {
    validate_eps_delta(epsilon, eta)?;
    let sched = nispp_schedule(
        NisppItem::Thm7,
        m_bound,
        diameter,
        lipschitz,
        n,
        d,
        epsilon,
        eta,
        Reading::PaperLiteral,
    )?;
    let (batch, lambda0) = (sched.batch, sched.lambda0);
    let sigma = 8.0 * m_bound * (1.0 / eta).ln().sqrt() / (batch as f64 * lambda0 * epsilon);
    let s = prop9_sensitivity(m_bound, lambda0, batch);
    Ok(PaperCalibration {
        paper: "BG23",
        item: "Thm 7",
        printed: "Thm 7 and its proof",
        reading: Reading::PaperLiteral,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::SelfComposed {
                count: n + 1,
                event: Box::new(DpEvent::SampledWithReplacement {
                    n,
                    m: batch,
                    event: Box::new(DpEvent::Gaussian {
                        noise_multiplier: sigma / s,
                    }),
                }),
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta: eta,
        },
    })
}
