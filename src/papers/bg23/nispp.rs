//! BG23 §5–§6: NISPP's schedules and policies (Cor 2, Thm 7, Remark 3 (2), literal and
//! corrected), Remark 3's operator-extrapolation count and ζ → ν conversion, and the bounds of
//! Prop 8, Thm 5, Prop 9, Lemma 3 (with the sharper Lemma 3′), Thms 6–7 and the terms of the
//! proof of Cor 2. One function per formula; the derivations are in `proofs-notes/bg23.md`,
//! Part 4, and the errata `E-BG23-40` … in `proofs-notes/errata.md`.
//!
//! Index convention: Algorithm 2 runs k = 0..K, so a run has K + 1 outer iterations, batches
//! B_1..B_{K+1}, noises ξ_1..ξ_{K+1}; slices of per-iteration values have length K + 1 and entry
//! k is the value of iteration k (λ_k, γ_k, σ_{k+1}).

use crate::error::{invalid, require_count, require_positive, Result};
use crate::papers::Reading;
use serde::{Deserialize, Serialize};

/// Which printed NISPP policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NisppItem {
    /// BG23 Cor 2: single pass, B = n^{1/3}, K + 1 = n/B disjoint batches.
    Cor2,
    /// BG23 Thm 7: multi-pass, K = n, B = √n drawn with replacement.
    Thm7,
    /// BG23 Remark 3 (2): non-private single pass, λ₀ = (M/D)√n, B = 1, K = n, ν = MD/√n.
    Remark3Nondp,
}

/// The schedule of a policy (γ_k = 1 and λ_k = λ₀ for every k in all three).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NisppSchedule {
    /// The batch size B.
    pub batch: u64,
    /// λ₀.
    pub lambda0: f64,
    /// K + 1, the number of outer iterations k = 0..K.
    pub iterations: u64,
    /// ν, the inexactness of each prox step (5.1).
    pub nu: f64,
}

/// ⌈x⌉ for a root computed in floating point (a perfect power is not rounded up).
fn ceil_root(x: f64) -> u64 {
    ((x - 1e-9).ceil()).max(1.0) as u64
}

/// The schedule of a printed policy on n points in dimension d at (ε, η), with M, D and L
/// (BG23's M-bounded, L-Lipschitz operators on W of diameter D). The one home of B, λ₀, K and ν:
/// the calibrations ([`crate::papers::bg23::calibration::cor2`],
/// [`crate::papers::bg23::calibration::thm7`]) and the policies ([`policy`]) read it.
///
/// * Cor 2: B = ⌈n^{1/3}⌉, λ₀ = max{M/D, L}·max{n^{1/3}, √(d ln(1/η))/ε}, ν = 2M²/(λ₀B²),
///   K + 1 = ⌊n/B⌋ (the proof's "K = n/B" is the number of batches of a single pass).
/// * Thm 7: B = ⌈√n⌉, λ₀ = max{M/D, L}·max{√n, √(d ln(1/η))/ε} (the printed "/θ" and
///   "log 1/δ" read as /ε and ln(1/η)), K = n (n + 1 iterations), ν = M²/(λ₀n²).
/// * Remark 3 (2): B = 1, λ₀ = (M/D)√n, ν = MD/√n. Literal: K = n, so n + 1 disjoint batches of
///   one point, one more than a single pass has (E-BG23-47); corrected: K = n − 1 (n iterations).
#[allow(clippy::too_many_arguments)]
pub fn nispp_schedule(
    item: NisppItem,
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<NisppSchedule> {
    require_positive("M", m_bound)?;
    require_positive("D", diameter)?;
    if !(lipschitz.is_finite() && lipschitz >= 0.0) {
        return Err(invalid(
            "L",
            format!("must be finite and ≥ 0, got {lipschitz}"),
        ));
    }
    require_count("n", n)?;
    require_count("d", d)?;
    let nf = n as f64;
    let privacy_scale = || -> Result<f64> {
        crate::privacy::validate_eps_delta(epsilon, eta)?;
        Ok((d as f64 * (1.0 / eta).ln()).sqrt() / epsilon)
    };
    let scale = (m_bound / diameter).max(lipschitz);
    Ok(match item {
        NisppItem::Cor2 => {
            let batch = ceil_root(nf.cbrt());
            let lambda0 = scale * nf.cbrt().max(privacy_scale()?);
            NisppSchedule {
                batch,
                lambda0,
                iterations: (n / batch).max(1),
                nu: 2.0 * m_bound * m_bound / (lambda0 * (batch * batch) as f64),
            }
        }
        NisppItem::Thm7 => {
            let batch = ceil_root(nf.sqrt());
            let lambda0 = scale * nf.sqrt().max(privacy_scale()?);
            NisppSchedule {
                batch,
                lambda0,
                iterations: n + 1,
                nu: m_bound * m_bound / (lambda0 * nf * nf),
            }
        }
        NisppItem::Remark3Nondp => NisppSchedule {
            batch: 1,
            lambda0: m_bound / diameter * nf.sqrt(),
            iterations: match reading {
                Reading::PaperLiteral => n + 1,
                Reading::Corrected => n,
            },
            nu: m_bound * diameter / nf.sqrt(),
        },
    })
}

/// A policy: the schedule and the noise σ of every release (0 for Remark 3 (2)).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct NisppPolicy {
    /// Item and reading.
    pub item: NisppItem,
    /// The reading.
    pub reading: Reading,
    /// B, λ₀, K + 1, ν.
    pub schedule: NisppSchedule,
    /// σ_{k+1} (constant).
    pub sigma: f64,
}

/// The policy of `item`: [`nispp_schedule`] and the σ of its calibration (Cor 2: literal σ² =
/// 32M²/(Bλ₀)·ln(1/η)/ε², E-BG23-P5; corrected: Prop 10's; Thm 7: σ = 8M√(ln(1/η))/(Bλ₀ε) in
/// both readings; Remark 3 (2): σ = 0).
#[allow(clippy::too_many_arguments)]
pub fn policy(
    item: NisppItem,
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<NisppPolicy> {
    use crate::papers::bg23::calibration;
    let schedule = nispp_schedule(
        item, m_bound, diameter, lipschitz, n, d, epsilon, eta, reading,
    )?;
    let sigma = match item {
        NisppItem::Cor2 => {
            calibration::cor2(m_bound, diameter, lipschitz, n, d, epsilon, eta, reading)?
                .calibration
                .sigma
        }
        NisppItem::Thm7 => {
            calibration::thm7(m_bound, diameter, lipschitz, n, d, epsilon, eta)?
                .calibration
                .sigma
        }
        NisppItem::Remark3Nondp => 0.0,
    };
    Ok(NisppPolicy {
        item,
        reading,
        schedule,
        sigma,
    })
}

// ---------------------------------------------------------------------------------------------
// Prop 8
// ---------------------------------------------------------------------------------------------

/// BG23 Prop 8 (5.2), right side: ‖ū_K − w̄_K‖² = ‖Σ_{k=0}^K γ_kξ_{k+1}‖²/Γ_K² (an identity;
/// dist_W(w̄_K)² is at most it).
pub fn prop8_pathwise(gammas: &[f64], xis: &[Vec<f64>]) -> f64 {
    let d = xis.first().map_or(0, |x| x.len());
    let mut s = vec![0.0; d];
    let mut g = 0.0;
    for (gk, x) in gammas.iter().zip(xis) {
        g += gk;
        for (si, xi) in s.iter_mut().zip(x) {
            *si += gk * xi;
        }
    }
    s.iter().map(|v| v * v).sum::<f64>() / (g * g)
}

/// BG23 Prop 8 (5.3): E dist_W(w̄_K)² ≤ Σ_k γ_k²·σ_{k+1}²d/Γ_K² (E‖ξ_{k+1}‖² = σ_{k+1}²d).
pub fn prop8_expected(gammas: &[f64], sigmas: &[f64], d: usize) -> f64 {
    let g: f64 = gammas.iter().sum();
    let s: f64 = gammas
        .iter()
        .zip(sigmas)
        .map(|(gk, sk)| gk * gk * sk * sk * d as f64)
        .sum();
    s / (g * g)
}

// ---------------------------------------------------------------------------------------------
// Thm 5
// ---------------------------------------------------------------------------------------------

/// The constants of Thm 5 and Thm 7: M, D, L and the dimension d.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpClass {
    /// M.
    pub m: f64,
    /// D.
    pub d_w: f64,
    /// L.
    pub l: f64,
    /// d.
    pub dim: usize,
}

/// BG23 Thm 5's Z₀(K) with γ_kλ_k = γ₀λ₀ (5.4); `gammas`, `sigmas` of length K + 1 (σ_{k+1} at
/// entry k).
///
/// * Literal: Z₀ = (3γ₀λ₀/2)D² + (4M² + 3L²D²)/(γ₀λ₀)·Σ_{k=0}^K γ_k² + (5γ₀λ₀d/2)·Σ_{k=1}^K σ_{k+1}².
/// * Corrected (Z₀′, E-BG23-42): the noise terms of (5.8), (5.11) and (5.13) total
///   (γ₀λ₀d/2)Σ_{k=0}^K σ_{k+1}² + (5γ₀λ₀d/2)Σ_{k=1}^K σ_k² ≤ 3γ₀λ₀d·Σ_{k=0}^K σ_{k+1}².
pub fn thm5_z0(c: &OpClass, gl: f64, gammas: &[f64], sigmas: &[f64], reading: Reading) -> f64 {
    let g2: f64 = gammas.iter().map(|g| g * g).sum();
    let base = 1.5 * gl * c.d_w * c.d_w + (4.0 * c.m * c.m + 3.0 * (c.l * c.d_w).powi(2)) / gl * g2;
    let noise = match reading {
        Reading::PaperLiteral => {
            2.5 * gl * c.dim as f64 * sigmas.iter().skip(1).map(|s| s * s).sum::<f64>()
        }
        Reading::Corrected => 3.0 * gl * c.dim as f64 * sigmas.iter().map(|s| s * s).sum::<f64>(),
    };
    base + noise
}

/// BG23 Thm 5 (5.5)/(5.6): ν + Z₀(K)/Γ_K + M·√(Σ_k γ_k²σ_{k+1}²d/Γ_K²).
pub fn thm5_bound(
    c: &OpClass,
    nu: f64,
    gl: f64,
    gammas: &[f64],
    sigmas: &[f64],
    reading: Reading,
) -> f64 {
    let g: f64 = gammas.iter().sum();
    nu + thm5_z0(c, gl, gammas, sigmas, reading) / g
        + c.m * prop8_expected(gammas, sigmas, c.dim).sqrt()
}

// ---------------------------------------------------------------------------------------------
// Prop 9 and Prop 10's sensitivity
// ---------------------------------------------------------------------------------------------

/// BG23 Prop 9's condition ν ≤ 2M²/(λ_kB²).
pub fn prop9_nu_condition(m_bound: f64, lambda: f64, batch: u64) -> f64 {
    2.0 * m_bound * m_bound / (lambda * (batch * batch) as f64)
}

/// BG23 Prop 9: the sensitivity 4M/(λ_kB) of u_{k+1} (under its condition on ν).
pub fn prop9_sensitivity(m_bound: f64, lambda: f64, batch: u64) -> f64 {
    4.0 * m_bound / (lambda * batch as f64)
}

/// The sharp form in the proof of Prop 9: p ≤ M/(λB) + √(M²/(λB)² + 2ν/λ), the root of
/// p² − (2M/(λB))p − 2ν/λ ≤ 0; valid for every ν ≥ 0 and attained (`bg23.prop9`).
pub fn prop9_sharp(m_bound: f64, lambda: f64, batch: u64, nu: f64) -> f64 {
    let s = m_bound / (lambda * batch as f64);
    s + (s * s + 2.0 * nu / lambda).sqrt()
}

/// The sensitivity a NISPP release is priced at: Prop 9's 4M/(λB) when ν meets its condition,
/// else the sharp form (which is ≤ 4M/(λB) exactly when the condition holds).
pub fn release_sensitivity(m_bound: f64, lambda: f64, batch: u64, nu: f64) -> f64 {
    if nu <= prop9_nu_condition(m_bound, lambda, batch) {
        prop9_sensitivity(m_bound, lambda, batch)
    } else {
        prop9_sharp(m_bound, lambda, batch, nu)
    }
}

// ---------------------------------------------------------------------------------------------
// Lemma 3, Lemma 3′, Thm 6, Remark 4
// ---------------------------------------------------------------------------------------------

/// BG23 Lemma 3's step: δ_{k+1} ≤ δ_k + 2a_{k+1}/λ_k + √(4ν/λ_k).
pub fn lemma3_step(delta: f64, a: f64, lambda: f64, nu: f64) -> f64 {
    delta + 2.0 * a / lambda + (4.0 * nu / lambda).sqrt()
}

/// Lemma 3′ (the sharper step, `proofs-notes/bg23.md`): with b = δ_k + a_{k+1}/λ_k,
/// δ_{k+1} ≤ b/2 + √(b²/4 + 2ν/λ_k) ≤ δ_k + a_{k+1}/λ_k + √(2ν/λ_k); equality at ν = 0 for
/// constant operators with aligned data differences.
pub fn lemma3_prime_step(delta: f64, a: f64, lambda: f64, nu: f64) -> f64 {
    let b = delta + a / lambda;
    0.5 * b + (0.25 * b * b + 2.0 * nu / lambda).sqrt()
}

/// BG23 Thm 6 (in expectation), with `lambdas` = λ_0..λ_K:
/// * literal: Σ_{k=1}^K (2M/(nλ_k) + √(4ν/λ_k)) (E-BG23-41: Algorithm 2 runs k = 0..K);
/// * corrected: Σ_{k=0}^K (2M/(nλ_k) + √(2ν/λ_k)) (Lemma 3′ and E a_{k+1} ≤ 2M/n).
pub fn thm6_bound(m_bound: f64, n: u64, lambdas: &[f64], nu: f64, reading: Reading) -> f64 {
    let term = |l: f64, c: f64| 2.0 * m_bound / (n as f64 * l) + (c * nu / l).sqrt();
    match reading {
        Reading::PaperLiteral => lambdas
            .iter()
            .skip(1)
            .fold(0.0, |acc, &l| acc + term(l, 4.0)),
        Reading::Corrected => lambdas.iter().map(|&l| term(l, 2.0)).sum(),
    }
}

/// BG23 Thm 6 (high probability): the failure probability n·exp(−KB/(4n)) and the bound
/// 4MK/(λn) + K√(4ν/λ).
pub fn thm6_hp(m_bound: f64, n: u64, k: u64, batch: f64, lambda: f64, nu: f64) -> (f64, f64) {
    let nf = n as f64;
    (
        nf * (-(k as f64) * batch / (4.0 * nf)).exp(),
        4.0 * m_bound * k as f64 / (lambda * nf) + k as f64 * (4.0 * nu / lambda).sqrt(),
    )
}

// ---------------------------------------------------------------------------------------------
// Thm 7 and the proof of Cor 2
// ---------------------------------------------------------------------------------------------

/// BG23 Thm 7's explicit (corrected) weak-gap bound for a schedule with γ_k = 1: the empirical
/// gap of Thm 5 (corrected Z₀′, K + 1 iterations) plus M times Thm 6's corrected UAS bound
/// (Prop 2's generalization step as the proof of Thm 7 uses it).
pub fn thm7_bound(c: &OpClass, n: u64, s: &NisppSchedule, sigma: f64) -> f64 {
    let k1 = s.iterations as usize;
    let gammas = vec![1.0; k1];
    let sigmas = vec![sigma; k1];
    let lambdas = vec![s.lambda0; k1];
    thm5_bound(c, s.nu, s.lambda0, &gammas, &sigmas, Reading::Corrected)
        + c.m * thm6_bound(c.m, n, &lambdas, s.nu, Reading::Corrected)
}

/// One term of the proof of Cor 2: its value with the schedule's parameters and the bound the
/// proof prints for it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cor2Term {
    /// The term as the proof writes it.
    pub name: &'static str,
    /// Its value.
    pub value: f64,
    /// The printed bound (literal) or the bound the term meets (corrected).
    pub bound: f64,
}

/// The five term bounds of the proof of Cor 2, with σ from Prop 10 (σ² = 32M²ln(1/η)/(λ₀B²ε²),
/// which the noise term of the proof uses) and B³ = n, K = n/B (K + 1 read as K, as the proof
/// does). r = 1/n^{1/3} + √(d ln(1/η))/(εn^{2/3}). Literal: ν ≤ 2MD/n, noise ≤ 4√2MD/n^{2/3},
/// 3λ₀D²/(2K) ≤ (3/2)(M + LD)D·r, (4M² + 3L²D²)/λ₀ ≤ (4MD + 3LD²)/n^{1/3} and
/// 5λ₀dσ²/2 ≤ 40MD√(d ln(1/η))/(εn^{2/3}); corrected: the last constant is 80 (E-BG23-40).
#[allow(clippy::too_many_arguments)]
pub fn cor2_terms(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<Vec<Cor2Term>> {
    let s = nispp_schedule(
        NisppItem::Cor2,
        m_bound,
        diameter,
        lipschitz,
        n,
        d,
        epsilon,
        eta,
        Reading::Corrected,
    )?;
    let (m, dd, l, l0) = (m_bound, diameter, lipschitz, s.lambda0);
    let b = s.batch as f64;
    let nf = n as f64;
    let k = nf / b;
    let ln = (1.0 / eta).ln();
    let sigma2 = 32.0 * m * m * ln / (l0 * l0 * b * b * epsilon * epsilon);
    let root = (d as f64 * ln).sqrt() / epsilon;
    let r = 1.0 / nf.cbrt() + root / nf.powf(2.0 / 3.0);
    let last = match reading {
        Reading::PaperLiteral => 40.0,
        Reading::Corrected => 80.0,
    };
    Ok(vec![
        Cor2Term {
            name: "ν ≤ 2MD/n",
            value: s.nu,
            bound: 2.0 * m * dd / nf,
        },
        Cor2Term {
            name: "M√(dσ²/K) ≤ 4√2MD/n^{2/3}",
            value: m * (d as f64 * sigma2 / k).sqrt(),
            bound: 4.0 * 2f64.sqrt() * m * dd / nf.powf(2.0 / 3.0),
        },
        Cor2Term {
            name: "3λ₀D²/(2K) ≤ (3/2)(M + LD)D·r",
            value: 1.5 * l0 * dd * dd / k,
            bound: 1.5 * (m + l * dd) * dd * r,
        },
        Cor2Term {
            name: "(4M² + 3L²D²)/λ₀ ≤ (4MD + 3LD²)/n^{1/3}",
            value: (4.0 * m * m + 3.0 * (l * dd).powi(2)) / l0,
            bound: (4.0 * m * dd + 3.0 * l * dd * dd) / nf.cbrt(),
        },
        Cor2Term {
            name: "5λ₀dσ²/2 ≤ c·MD√(d ln(1/η))/(εn^{2/3}) (c = 40 printed)",
            value: 2.5 * l0 * d as f64 * sigma2,
            bound: last * m * dd * root / nf.powf(2.0 / 3.0),
        },
    ])
}

// ---------------------------------------------------------------------------------------------
// Remark 3
// ---------------------------------------------------------------------------------------------

/// BG23 Remark 3 (1): the accuracy ζ = ν/[LD + M + 2λ_kD] that is to make a ζ-accurate
/// subproblem solution ν-approximate in the sense of (5.1) (literal); corrected (E-BG23-44):
/// ζ′ = ν/[(L + λ_k)D + M + λ_k(D + dist_W(w_k))], which reduces to the printed ζ when w_k ∈ W.
pub fn remark3_zeta(
    nu: f64,
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    lambda: f64,
    dist_wk: f64,
    reading: Reading,
) -> f64 {
    match reading {
        Reading::PaperLiteral => nu / (lipschitz * diameter + m_bound + 2.0 * lambda * diameter),
        Reading::Corrected => {
            nu / ((lipschitz + lambda) * diameter + m_bound + lambda * (diameter + dist_wk))
        }
    }
}

/// BG23 Remark 3 (1)'s printed count of OE iterations for ‖u − w*‖ ≤ ζ:
/// ⌈((L + λ)/λ)·ln(D/ζ)⌉ (at least 1). Misses ζ (E-BG23-43): see
/// [`crate::papers::bg23::oe::oe_corrected_count`] for the count that meets it.
pub fn remark3_oe_count(lipschitz: f64, lambda: f64, diameter: f64, zeta: f64) -> usize {
    let t = (lipschitz + lambda) / lambda * (diameter / zeta).ln();
    (t.ceil().max(1.0)) as usize
}

/// BG23 Algorithm 3's parameters for the λ-regularized subproblem of an L-Lipschitz operator:
/// step γ = 1/(2(L + λ)), κ = λ/(L + λ) + 1.
pub fn oe_parameters(lipschitz: f64, lambda: f64) -> (f64, f64) {
    (
        1.0 / (2.0 * (lipschitz + lambda)),
        lambda / (lipschitz + lambda) + 1.0,
    )
}
