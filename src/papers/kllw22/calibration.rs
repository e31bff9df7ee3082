//! KLLW22's privacy calibration (Kang, Liu, Li, Wang, full-batch DP-GDA): Thm 1's noise exactly as
//! printed, with its unnamed constant c as a parameter, the constants the proof of Thm 1
//! (App. A.1) needs for one block and for the joint release, and the ε that proof's own moments
//! accountant gives. The machinery that prices them is [`crate::privacy::calibration`]; the
//! derivations are in `proofs-notes/privacy.md`.

use crate::error::{require_count, require_positive, Result};
use crate::papers::calibration::PaperCalibration;
use crate::papers::Reading;
use crate::privacy::calibration::{replace_one, Calibration};
use crate::privacy::{validate_eps_delta, DpEvent};

/// The constant KLLW22's proof of Thm 1 (App. A.1, the moment bound and the choice of σ) needs for
/// **one** block: with α_M(λ) ≤ 4G²λ²T/(n²σ²) and σ = cG√(T log(1/δ))/(nε), α_M(λ) ≤ λε/2 at λ =
/// 2log(1/δ)/ε iff c ≥ 4 (and λ ≥ 1, i.e. ε ≤ 2 log(1/δ)).
pub const THM1_C_PROOF: f64 = 4.0;

/// The constant the same argument needs for the joint release of both blocks (w and v noised at
/// the same σ, moments add): 4√2.
pub const THM1_C_JOINT: f64 = 4.0 * std::f64::consts::SQRT_2;

/// Which KLLW22 release is priced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// One block's noisy gradients (what the proof of Thm 1 in App. A.1 certifies: "the training
    /// process over v is similar").
    PerBlock,
    /// Both blocks' noisy gradients (what Algorithm 1 releases).
    Joint,
}

/// KLLW22 Thm 1 / App. A (the display of σ at its start): σ = c·G·√(T log(1/δ))/(nε), c unnamed
/// ("O(·)"; Lemma 1 writes σ² = c·G²T log(1/δ)/(n²ε²), a different c).
pub fn thm1_sigma(c: f64, g: f64, t: u64, n: u64, epsilon: f64, delta: f64) -> Result<f64> {
    require_positive("c", c)?;
    require_positive("G", g)?;
    require_count("T", t)?;
    require_count("n", n)?;
    validate_eps_delta(epsilon, delta)?;
    Ok(c * g * (t as f64 * (1.0 / delta).ln()).sqrt() / (n as f64 * epsilon))
}

/// KLLW22 Thm 1 as a calibration. Full-batch gradients: replacing one record moves a block's
/// gradient (1/n)Σ∇ℓ by ≤ 2G/n (Assumption 1 is blockwise). Per block the tree is `self_composed{T,
/// gaussian{σn/(2G)}}`; the joint release is `self_composed{T, composed[gaussian, gaussian]}`.
///
/// With c = [`THM1_C_PROOF`] the joint release is not what the proof certifies (erratum
/// E-KLLW22-7): the paper's own moments accountant gives ε + ε²/(4 log(1/δ)) > ε, and the exact ε
/// exceeds ε for large ε (G = 1, n = 1000, T = 100, ε = 10, δ = 1e-5: exact ε ≈ 10.8). c =
/// [`THM1_C_JOINT`] fixes it.
#[allow(clippy::too_many_arguments)]
pub fn thm1(
    c: f64,
    g: f64,
    t: u64,
    n: u64,
    epsilon: f64,
    delta: f64,
    release: Release,
) -> Result<PaperCalibration> {
    let sigma = thm1_sigma(c, g, t, n, epsilon, delta)?;
    let s = 2.0 * g / n as f64;
    let gauss = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    let step = match release {
        Release::PerBlock => gauss,
        Release::Joint => DpEvent::Composed(vec![gauss.clone(), gauss]),
    };
    Ok(PaperCalibration {
        paper: "KLLW22",
        item: match release {
            Release::PerBlock => "Thm 1 (one block)",
            Release::Joint => "Thm 1 (joint (w, v))",
        },
        printed: "Lemma 1, Thm 1, App. A and the proof of Thm 1 (App. A.1)",
        // c below 4√2 is the proof's reading (literal); 4√2 and above is the corrected constant.
        reading: if c < THM1_C_JOINT {
            Reading::PaperLiteral
        } else {
            Reading::Corrected
        },
        calibration: Calibration {
            sigma,
            sensitivity: s,
            ledger: replace_one(DpEvent::SelfComposed {
                count: t,
                event: Box::new(step),
            }),
            bad_event_probability: 0.0,
            epsilon,
            delta,
        },
    })
}

/// The ε that KLLW22's own moments-accountant argument (A.1) proves for `blocks` blocks with the
/// constant c: per block α(λ) = 2λ(λ+1)ε²/(c² log(1/δ)) (the exact λ(λ+1) of the moment bound in
/// App. A.1, not the 2λ² relaxation), ε_MA = min_{λ ≥ 1} (blocks·α(λ) + log(1/δ))/λ.
pub fn thm1_moments_accountant_epsilon(
    c: f64,
    epsilon: f64,
    delta: f64,
    blocks: u32,
) -> Result<f64> {
    require_positive("c", c)?;
    validate_eps_delta(epsilon, delta)?;
    let l = (1.0 / delta).ln();
    let b = blocks as f64;
    let f = |lam: f64| (b * 2.0 * lam * (lam + 1.0) * epsilon * epsilon / (c * c * l) + l) / lam;
    // f is convex in λ > 0: minimize on [1, ∞) by golden section after bracketing.
    let mut hi = 2.0;
    while f(2.0 * hi) < f(hi) {
        hi *= 2.0;
    }
    let (mut a, mut bb) = (1.0f64, 2.0 * hi);
    let r = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..200 {
        let x = bb - r * (bb - a);
        let y = a + r * (bb - a);
        if f(x) < f(y) {
            bb = y;
        } else {
            a = x;
        }
    }
    Ok(f(0.5 * (a + bb)).min(f(1.0)))
}
