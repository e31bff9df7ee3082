//! BGM23's privacy calibrations (Bassily, Guzmán, Menart, COLT 2023), one function per item: Thm
//! 12's output perturbation, Thm 21's noisy SGDA with Thm 22's amplification statement, and Cor
//! 16's local-DP noise; each exactly as printed (unnamed constants as parameters) and, where the
//! printed statement is wrong, corrected. The machinery that prices them is
//! [`crate::privacy::calibration`]; the derivations are in `proofs-notes/privacy.md`.

use crate::error::{invalid, require_count, require_positive, Result};
use crate::papers::calibration::{moments_restatement, PaperAmplification, PaperCalibration};
use crate::papers::Reading;
use crate::privacy::calibration::{
    largest_refuted_constant, replace_one, smallest_certified_constant, Calibration,
};
use crate::privacy::{validate_eps_delta, DpEvent};

/// BGM23 Thm 12's σ_t (§4.2, the construction of A_emp before Thm 12): 8L√(log(2/δ))/(2^tλn'ε).
pub fn thm12_sigma(
    l: f64,
    lambda: f64,
    n_prime: u64,
    t: u32,
    epsilon: f64,
    delta: f64,
) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("lambda", lambda)?;
    require_count("n'", n_prime)?;
    validate_eps_delta(epsilon, delta)?;
    Ok(8.0 * l * (2.0 / delta).ln().sqrt()
        / (2f64.powi(t as i32) * lambda * n_prime as f64 * epsilon))
}

/// BGM23 Thm 12 and the privacy guarantee in its proof: output perturbation of an approximate
/// regularized saddle point, round t of `rounds` disjoint rounds (parallel composition, Thm 8). The
/// solver guarantees E‖ẑ_t − z*‖ ≤ (δ/5)·L/(2^tλn'), so ‖ẑ_t − z*‖ ≤ L/(2^tλn') except with
/// probability δ/5.
///
/// * Literal: sensitivity "2L/(2^tλn')" as printed (proof of Thm 12).
/// * Corrected: 3L/(2^tλn') — Lemma 2's L/(2^tλn') plus twice the accuracy radius (both datasets'
///   solvers can err in opposite directions). The printed σ_t still covers it: the exact ε on the
///   good event is far below ε for ε ≤ 1 (record, not an under-noising).
///
/// The noise multiplier does not depend on t, so the tree is `parallel_composed` of `rounds`
/// identical Gaussians.
#[allow(clippy::too_many_arguments)]
pub fn thm12(
    l: f64,
    lambda: f64,
    n_prime: u64,
    rounds: u32,
    epsilon: f64,
    delta: f64,
    reading: Reading,
) -> Result<PaperCalibration> {
    if rounds == 0 {
        return Err(invalid("T", "must be ≥ 1"));
    }
    let sigma = thm12_sigma(l, lambda, n_prime, 1, epsilon, delta)?;
    let unit = l / (2.0 * lambda * n_prime as f64);
    let s = match reading {
        Reading::PaperLiteral => 2.0 * unit,
        Reading::Corrected => 3.0 * unit,
    };
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(PaperCalibration {
        paper: "BGM23",
        item: "Thm 12 (round t = 1 shown)",
        printed: "§4.2 (σ_t before Thm 12), proof of Thm 12",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::ParallelComposed(vec![g; rounds as usize])),
            bad_event_probability: delta / 5.0,
            epsilon,
            delta,
        },
    })
}

/// The parameters BGM23 Thm 21 (App. C.2) prescribes for noisy SGDA on n points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoisySgdaParams {
    /// T = ⌊min{n/8, n²ε²/(32 d log(1/δ))}⌋.
    pub iterations: u64,
    /// The batch size m: [`Reading::PaperLiteral`] m = min(n, ⌈max{n√(ε/(4T)), 1}⌉) (App. C.2,
    /// rounded up); [`Reading::Corrected`] m = min(n, max{⌈n√(ε/T)⌉, 1}), the smallest batch for
    /// which BGM23 Thm 22's premise T ≥ n²ε/m² holds (erratum E-BGM23-31).
    pub batch: u64,
    /// Which batch-size rule produced `batch`.
    pub batch_rule: Reading,
    /// σ = √(c₀TL²log(1/δ))/(nε) (App. C.2, before Thm 21).
    pub sigma: f64,
    /// Does BGM23 Thm 22's premise T ≥ n²ε/m² hold ([`thm22_premise`], exact)? (the remark after
    /// Thm 22 asserts so; with the printed m, n²ε/m² ≈ 4T, so it fails.)
    pub thm22_premise: bool,
}

/// BGM23 Thm 21's parameters, c₀ the unnamed "universal constant" of App. C.2 (c₀ = c² of Thm 22),
/// with the batch size by `batch_rule` (see [`NoisySgdaParams::batch`]; the literal rule gives
/// n²ε/m² ≈ 4T > T).
pub fn thm21_params(
    c0: f64,
    n: u64,
    d: u64,
    l: f64,
    epsilon: f64,
    delta: f64,
    batch_rule: Reading,
) -> Result<NoisySgdaParams> {
    require_positive("c0", c0)?;
    require_count("n", n)?;
    require_count("d", d)?;
    require_positive("L", l)?;
    validate_eps_delta(epsilon, delta)?;
    let nf = n as f64;
    let lg = (1.0 / delta).ln();
    let t = (nf / 8.0)
        .min(nf * nf * epsilon * epsilon / (32.0 * d as f64 * lg))
        .floor();
    if t < 1.0 {
        return Err(invalid(
            "n",
            format!("T = min{{n/8, n²ε²/(32 d log(1/δ))}} < 1 (n = {n}, d = {d}, ε = {epsilon})"),
        ));
    }
    let iterations = t as u64;
    let premise = |m: u64| thm22_premise(iterations, m, n, epsilon);
    let batch = match batch_rule {
        Reading::PaperLiteral => {
            ((nf * (epsilon / (4.0 * t)).sqrt()).max(1.0).ceil() as u64).min(n)
        }
        Reading::Corrected => {
            // ⌈n√(ε/T)⌉ in floats, then moved to the smallest m with T·m² ≥ n²ε exactly (the
            // rounded product can be off by one either way; e.g. n = 2000, ε = 0.1, T = 10 needs
            // m = 201, because the double nearest 0.1 is above 1/10).
            let mut m = ((nf * (epsilon / t).sqrt()).ceil() as u64).clamp(1, n);
            while m < n && !premise(m) {
                m += 1;
            }
            while m > 1 && premise(m - 1) {
                m -= 1;
            }
            m
        }
    };
    let sigma = (c0 * t * l * l * lg).sqrt() / (nf * epsilon);
    Ok(NoisySgdaParams {
        iterations,
        batch,
        batch_rule,
        sigma,
        thm22_premise: premise(batch),
    })
}

/// BGM23 Thm 22's premise T ≥ n²ε/m² (Thm 22 and the remark after it), decided exactly: T·m² ≥ n²·ε
/// with ε at its binary value (false for a non-finite ε).
pub fn thm22_premise(t: u64, m: u64, n: u64, epsilon: f64) -> bool {
    use num_bigint::BigInt;
    use num_rational::BigRational;
    let Some(e) = crate::exact::from_f64_exact(epsilon) else {
        return false;
    };
    let lhs = BigInt::from(t) * BigInt::from(m) * BigInt::from(m);
    let n2 = BigInt::from(n) * BigInt::from(n);
    BigRational::from_integer(lhs) >= BigRational::from_integer(n2) * e
}

/// BGM23 Thm 21 / Thm 22 as a calibration: T steps, each a minibatch of m indices drawn with
/// replacement (§4.1, App. C.2) and the release (1/m)Σg + N(0, σ²I), per-slot sensitivity 2L/m.
/// Tree: `self_composed{T, sampled_with_replacement{n, m, gaussian{σm/(2L)}}}`. The claim (ε, δ)
/// holds or not depending on c₀; [`thm21_c0_required`] gives the smallest c₀ the
/// with-replacement bound certifies. `batch_rule` picks the printed or the corrected m
/// ([`thm21_params`]); the calibration's `reading` records it.
pub fn thm21(
    c0: f64,
    n: u64,
    d: u64,
    l: f64,
    epsilon: f64,
    delta: f64,
    batch_rule: Reading,
) -> Result<(NoisySgdaParams, PaperCalibration)> {
    let p = thm21_params(c0, n, d, l, epsilon, delta, batch_rule)?;
    let s = 2.0 * l / p.batch as f64;
    let cal = PaperCalibration {
        paper: "BGM23",
        item: "Thm 21/22 (noisy SGDA)",
        printed: "§4.1, App. C.2 (Thms 21 and 22 and the remark after Thm 22)",
        reading: batch_rule,
        calibration: Calibration {
            sigma: p.sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::SelfComposed {
                count: p.iterations,
                event: Box::new(DpEvent::SampledWithReplacement {
                    n,
                    m: p.batch,
                    event: Box::new(DpEvent::Gaussian {
                        noise_multiplier: p.sigma / s,
                    }),
                }),
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta,
        },
    };
    Ok((p, cal))
}

/// The largest c₀ for which BGM23 Thm 21's transcript (batch size by `batch_rule`) is provably
/// **not** (ε, δ)-DP (sum-test lower bound): the unnamed constant must exceed it.
pub fn thm21_c0_refuted(
    n: u64,
    d: u64,
    epsilon: f64,
    delta: f64,
    batch_rule: Reading,
) -> Result<f64> {
    largest_refuted_constant(|c0| {
        thm21(c0, n, d, 1.0, epsilon, delta, batch_rule)?
            .1
            .refuted()
    })
}

/// The smallest c₀ for which BGM23 Thm 21's noisy SGDA (batch size by `batch_rule`) is certified
/// (ε, δ)-DP by the with-replacement RDP bound (the unnamed constant made concrete).
pub fn thm21_c0_required(
    n: u64,
    d: u64,
    epsilon: f64,
    delta: f64,
    batch_rule: Reading,
) -> Result<f64> {
    smallest_certified_constant(|c0| {
        thm21(c0, n, d, 1.0, epsilon, delta, batch_rule)?
            .1
            .certified()
    })
}

/// BGM23 Cor 16 (App. A.2), local DP: each user's gradient g(z; x_t) + ξ released once,
/// local sensitivity sup‖g(z;x) − g(z;x′)‖ ≤ 2L.
///
/// * Literal: σ = L√(log(1/δ))/ε read as a standard deviation (the paper writes N(0, I_dσ)).
///   Under-noised: at ε = 1, δ = 1e-5 the exact ε is ≈ 2.3 (erratum E-BGM23-36).
/// * Corrected: the classic σ = 2L√(2 ln(1.25/δ))/ε (ε ≤ 1).
pub fn cor16(l: f64, epsilon: f64, delta: f64, reading: Reading) -> Result<PaperCalibration> {
    require_positive("L", l)?;
    validate_eps_delta(epsilon, delta)?;
    let s = 2.0 * l;
    let sigma = match reading {
        Reading::PaperLiteral => l * (1.0 / delta).ln().sqrt() / epsilon,
        Reading::Corrected => s * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon,
    };
    Ok(PaperCalibration {
        paper: "BGM23",
        item: "Cor 16 (LDP)",
        printed: "App. A.2, Cor 16",
        reading,
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::Gaussian {
                noise_multiplier: sigma / s,
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta,
        },
    })
}

/// BGM23 Thm 22, restating Abadi et al. (2016) and Kulkarni et al. (2021): for ε, δ ∈ (0, 1],
/// T adaptive queries with ‖h_t(y)‖₂ ≤ L, batches of size b sampled "uniformly at random", outputs
/// (1/b)Σ h_t(y) + N(0, σ²I) are (ε, δ)-DP if σ ≥ c·L·√(T log(1/δ))/(nε) and T ≥ n²ε/b², c a
/// "universal constant" (unnamed; BGM23 Thm 21 writes σ² = c₀TL²log(1/δ)/(n²ε²), i.e. c₀ = c²).
#[allow(clippy::too_many_arguments)]
pub fn thm22(
    c: f64,
    l: f64,
    t: u64,
    n: u64,
    b: u64,
    epsilon: f64,
    delta: f64,
) -> Result<PaperAmplification> {
    moments_restatement("BGM23 Thm 22", c, l, t, n, b, epsilon, delta)
}
