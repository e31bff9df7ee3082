//! BGM24's privacy calibrations (Bassily, Guzmán, Menart, NeurIPS 2024), one function per item: Thm
//! 4's DP stochastic mirror prox with Lemma 9's amplification statement, and Thm 6's output
//! perturbation; each exactly as printed (unnamed constants as parameters) and, where the printed
//! statement is wrong, corrected. The machinery that prices them is
//! [`crate::privacy::calibration`]; the derivations are in `proofs-notes/privacy.md`.

use crate::error::{invalid, require_count, require_positive, Result};
use crate::papers::calibration::{moments_restatement, PaperAmplification, PaperCalibration};
use crate::papers::Reading;
use crate::privacy::calibration::{
    largest_refuted_constant, replace_one, smallest_certified_constant, Calibration,
};
use crate::privacy::{validate_eps_delta, DpEvent};

/// The ℓp/ℓq setup of BGM24 Thm 4 (App. C.2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thm4Setup {
    /// n.
    pub n: u64,
    /// d_w.
    pub d_w: u64,
    /// d_θ.
    pub d_theta: u64,
    /// p* = p̄/(p̄ − 1) (≥ 2 in the cases the paper treats).
    pub p_star: f64,
    /// q* = q̄/(q̄ − 1).
    pub q_star: f64,
    /// B_w L_w: the dual-norm bound of the w-block of the operator.
    pub bl_w: f64,
    /// B_θ L_θ.
    pub bl_theta: f64,
    /// κ = max{1/(p̄ − 1), 1/(q̄ − 1)}.
    pub kappa: f64,
    /// κ̃ = 1 + 1{p < 2 ∨ q < 2}·log d.
    pub kappa_tilde: f64,
}

/// The parameters BGM24 Thm 4's proof prescribes (its privacy bound).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MirrorProxParams {
    /// T = ⌈κ·min{n, n²ε²/(d log(1/δ)κ̃)}⌉, d = d_w + d_θ.
    pub iterations: u64,
    /// m = min(n, ⌈max{n√(ε/T), 1}⌉).
    pub batch: u64,
    /// σ_w = c·B_wL_w·√(T d_w^{1−2/p*} log(1/δ))/(nε).
    pub sigma_w: f64,
    /// σ_θ: printed with p* (literal), q* (corrected).
    pub sigma_theta: f64,
}

/// BGM24 Thm 4 and its proof: DP stochastic mirror prox, 2T oracle calls (two per iteration,
/// Algorithm 2, lines 2–3), each on a fresh minibatch of m records sampled "uniformly" (`sampling`
/// chooses with or without replacement; the paper does not say), releasing (1/m)Σg + [ξ_w, ξ_θ].
/// The joint per-slot sensitivity in the noise metric gives one Gaussian with z = 1/√((Δ_w/σ_w)² +
/// (Δ_θ/σ_θ)²), Δ_w = 2·B_wL_w·d_w^{1/2−1/p*}/m. Tree: `self_composed{2T, sampled_*{n, m,
/// gaussian{z}}}`. The proof applies Lemma 9 with T queries (not 2T) and per block (not jointly):
/// both are absorbed by the unnamed c, made concrete by [`thm4_c_required`].
pub fn thm4(
    c: f64,
    setup: &Thm4Setup,
    epsilon: f64,
    delta: f64,
    with_replacement: bool,
    reading: Reading,
) -> Result<(MirrorProxParams, PaperCalibration)> {
    require_positive("c", c)?;
    require_count("n", setup.n)?;
    require_count("d_w", setup.d_w)?;
    require_count("d_theta", setup.d_theta)?;
    for (f, v) in [
        ("p_star", setup.p_star),
        ("q_star", setup.q_star),
        ("bl_w", setup.bl_w),
        ("bl_theta", setup.bl_theta),
        ("kappa", setup.kappa),
        ("kappa_tilde", setup.kappa_tilde),
    ] {
        require_positive(f, v)?;
    }
    validate_eps_delta(epsilon, delta)?;
    let nf = setup.n as f64;
    let lg = (1.0 / delta).ln();
    let d = (setup.d_w + setup.d_theta) as f64;
    let t = (setup.kappa * nf.min(nf * nf * epsilon * epsilon / (d * lg * setup.kappa_tilde)))
        .ceil()
        .max(1.0);
    let iterations = t as u64;
    let batch = ((nf * (epsilon / t).sqrt()).max(1.0).ceil() as u64).min(setup.n);
    let dw = setup.d_w as f64;
    let dt = setup.d_theta as f64;
    let sigma_w =
        c * setup.bl_w * (t * dw.powf(1.0 - 2.0 / setup.p_star) * lg).sqrt() / (nf * epsilon);
    let theta_exp = match reading {
        Reading::PaperLiteral => setup.p_star,
        Reading::Corrected => setup.q_star,
    };
    let sigma_theta =
        c * setup.bl_theta * (t * dt.powf(1.0 - 2.0 / theta_exp) * lg).sqrt() / (nf * epsilon);
    let mf = batch as f64;
    let delta_w = 2.0 * setup.bl_w * dw.powf(0.5 - 1.0 / setup.p_star) / mf;
    let delta_t = 2.0 * setup.bl_theta * dt.powf(0.5 - 1.0 / setup.q_star) / mf;
    let z = 1.0 / ((delta_w / sigma_w).powi(2) + (delta_t / sigma_theta).powi(2)).sqrt();
    let g = Box::new(DpEvent::Gaussian {
        noise_multiplier: z,
    });
    let sampled = if with_replacement {
        DpEvent::SampledWithReplacement {
            n: setup.n,
            m: batch,
            event: g,
        }
    } else {
        DpEvent::SampledWithoutReplacement {
            n: setup.n,
            m: batch,
            event: g,
        }
    };
    let params = MirrorProxParams {
        iterations,
        batch,
        sigma_w,
        sigma_theta,
    };
    let cal = PaperCalibration {
        paper: "BGM24",
        item: "Thm 4 / Lemma 9 (DP mirror prox)",
        printed: "Lemma 9, proof of Thm 4 (App. C.2)",
        reading,
        calibration: Calibration {
            sigma: sigma_w,
            sensitivity: delta_w,
            ledger: replace_one(DpEvent::SelfComposed {
                count: 2 * iterations,
                event: Box::new(sampled),
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta,
        },
    };
    Ok((params, cal))
}

/// The smallest c for which BGM24 Thm 4 (with-replacement reading, corrected q*) is certified by
/// the with-replacement RDP bound.
pub fn thm4_c_required(setup: &Thm4Setup, epsilon: f64, delta: f64) -> Result<f64> {
    smallest_certified_constant(|c| {
        thm4(c, setup, epsilon, delta, true, Reading::Corrected)?
            .1
            .certified()
    })
}

/// BGM24 Thm 6's σ_t (App. D.3, the construction of A_emp before Thm 6): literal 8L√(2/δ)/(2^tλn'ε)
/// as printed; corrected 8L√(log(2/δ))/(2^tλn'ε), the value the utility part of its proof uses.
#[allow(clippy::too_many_arguments)]
pub fn thm6_sigma(
    l: f64,
    lambda: f64,
    n_prime: u64,
    t: u32,
    epsilon: f64,
    delta: f64,
    reading: Reading,
) -> Result<f64> {
    if reading == Reading::Corrected {
        // The corrected σ_t is BGM23 Thm 12's, which BGM24 App. D.3 reuses.
        return crate::papers::bgm23::calibration::thm12_sigma(
            l, lambda, n_prime, t, epsilon, delta,
        );
    }
    require_positive("L", l)?;
    require_positive("lambda", lambda)?;
    require_count("n'", n_prime)?;
    validate_eps_delta(epsilon, delta)?;
    Ok(8.0 * l * (2.0 / delta).sqrt() / (2f64.powi(t as i32) * lambda * n_prime as f64 * epsilon))
}

/// BGM24 Thm 6 and the privacy guarantee in its proof: output perturbation of the SVI regularized
/// equilibrium, round t = 1 shown, `rounds` disjoint rounds. E‖ẑ − z*‖ ≤ δL/(5·2^tλn') gives ‖ẑ −
/// z*‖ ≤ L/(2^tλn') except with probability δ/5; the exact equilibrium moves by ≤
/// 2L/((2^{t+1}−2)λn') ≤ 2L/(2^tλn'), so the sensitivity is 4L/(2^tλn'), not the printed
/// "2L/(2^tλn')" (proof of Thm 6).
///
/// * Literal: printed σ_t (√(2/δ), far larger than intended) and sensitivity 2L/(2^tλn').
/// * Corrected: σ_t with √(log(2/δ)) and sensitivity 4L/(2^tλn'). Still certified for ε ≤ 1.
#[allow(clippy::too_many_arguments)]
pub fn thm6(
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
    let sigma = thm6_sigma(l, lambda, n_prime, 1, epsilon, delta, reading)?;
    let unit = l / (2.0 * lambda * n_prime as f64);
    let s = match reading {
        Reading::PaperLiteral => 2.0 * unit,
        Reading::Corrected => 4.0 * unit,
    };
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(PaperCalibration {
        paper: "BGM24",
        item: "Thm 6 (round t = 1 shown)",
        printed: "App. D.3: σ_t before Thm 6, proof of Thm 6",
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

/// The largest c for which BGM24 Thm 4's transcript (with-replacement reading, corrected q*) is
/// provably not (ε, δ)-DP.
pub fn thm4_c_refuted(setup: &Thm4Setup, epsilon: f64, delta: f64) -> Result<f64> {
    largest_refuted_constant(|c| {
        thm4(c, setup, epsilon, delta, true, Reading::Corrected)?
            .1
            .refuted()
    })
}

/// BGM24 Lemma 9: the same restatement as BGM23 Thm 22, word for word.
#[allow(clippy::too_many_arguments)]
pub fn lemma9(
    c: f64,
    l: f64,
    t: u64,
    n: u64,
    b: u64,
    epsilon: f64,
    delta: f64,
) -> Result<PaperAmplification> {
    moments_restatement("BGM24 Lemma 9", c, l, t, n, b, epsilon, delta)
}
