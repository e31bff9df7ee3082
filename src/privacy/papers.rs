//! The five papers' privacy constants, made concrete.
//!
//! For every private algorithm of BG23, KLLW22, ZTOH22, BGM23 and BGM24 this module gives
//!
//! * its noise calibration **exactly as printed** (`*_sigma` functions), with any constant the
//!   paper leaves unnamed ("a universal constant c", "some constant c₀") as a parameter;
//! * the [`DpEvent`] tree the algorithm generates, inside a [`Calibration`] that also records the
//!   ℓ2 sensitivity of one released query, the probability of the event on which a
//!   high-probability sensitivity bound fails, and the (ε, δ) the item claims;
//! * where the printed statement is wrong, both [`Variant::PaperLiteral`] and
//!   [`Variant::Corrected`].
//!
//! [`Calibration::epsilon_upper`] prices a calibration (exact μ-GDP for Gaussian-only trees, the
//! with-replacement RDP bound of [`crate::privacy::replacement`] otherwise), and
//! [`Calibration::epsilon_lower`] gives a proved lower bound on the ε of the released transcript
//! (exact for Gaussian-only trees; an explicit instance and test for sampled ones). A printed
//! calibration is **under-noised** when its lower bound exceeds the ε it claims. The table of
//! every item, with the instances and numbers, is `proofs-notes/privacy.md`.
//!
//! Line numbers `Lnnn` refer to the text files of `papers/README.md`.

use crate::error::{invalid, require_count, require_positive, Error, Result};
use crate::privacy::replacement::{self, Sampling};
use crate::privacy::{DpEvent, Neighbouring, PrivacyLedger};
use serde::{Deserialize, Serialize};

/// Which reading of an item: as printed, or with its erratum fixed (DESIGN "What a check must be").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    /// The formula exactly as the paper prints it.
    PaperLiteral,
    /// The formula with the erratum recorded in `proofs-notes/privacy.md` fixed.
    Corrected,
}

/// A paper's noise calibration with the event tree it generates.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    /// Paper key, e.g. `BG23`.
    pub paper: &'static str,
    /// The item, e.g. `Prop 7`.
    pub item: &'static str,
    /// Where it is printed, e.g. `L624, L626`.
    pub lines: &'static str,
    /// Literal or corrected.
    pub variant: Variant,
    /// The noise standard deviation of one released query (two-block releases: the block named in
    /// `item`; the ledger holds the joint release).
    pub sigma: f64,
    /// The ℓ2 sensitivity of one released query to one replaced record (per batch slot for
    /// sampled releases), as this variant accounts it.
    pub sensitivity: f64,
    /// What the algorithm releases, as an event tree under replace-one.
    pub ledger: PrivacyLedger,
    /// Probability (per dataset) that a high-probability sensitivity bound fails (0 if none).
    pub bad_event_probability: f64,
    /// The ε the item claims.
    pub epsilon: f64,
    /// The δ (BG23: η) the item claims.
    pub delta: f64,
}

/// How an ε was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Exact ε of a composition of Gaussians (μ-GDP); plus the bad event if any.
    ExactGaussian,
    /// This crate's with-replacement RDP bound and the RDP→(ε, δ) conversion.
    RdpWithReplacement,
    /// A lower bound: explicit one-dimensional instance and a threshold test on the sum.
    SumTest,
}

/// An ε with the method that produced it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpsilonValue {
    /// ε.
    pub epsilon: f64,
    /// How.
    pub method: Method,
}

fn ledger(event: DpEvent) -> PrivacyLedger {
    PrivacyLedger {
        relation: Neighbouring::ReplaceOne,
        event,
    }
}

/// μ of a Gaussian-only tree (composition of Gaussians is μ-GDP with μ² = Σ 1/z²; a parallel
/// composition is priced by its worst part), or `None` if the tree samples.
fn gaussian_mu(e: &DpEvent) -> Option<f64> {
    match e {
        DpEvent::Gaussian { noise_multiplier } => Some(1.0 / noise_multiplier),
        DpEvent::SelfComposed { count, event } => {
            gaussian_mu(event).map(|m| m * (*count as f64).sqrt())
        }
        DpEvent::Composed(v) => {
            let mut s = 0.0;
            for x in v {
                s += gaussian_mu(x)?.powi(2);
            }
            Some(s.sqrt())
        }
        DpEvent::ParallelComposed(v) => {
            let mut s = 0.0f64;
            for x in v {
                s = s.max(gaussian_mu(x)?);
            }
            Some(s)
        }
        DpEvent::PostProcessing | DpEvent::NoOp => Some(0.0),
        _ => None,
    }
}

/// (sampling, steps, z) of a tree `self_composed^k{sampled{n, m, gaussian{z}}}`.
fn sampled_shape(e: &DpEvent) -> Option<(Sampling, u64, f64)> {
    match e {
        DpEvent::SelfComposed { count, event } => {
            sampled_shape(event).map(|(s, k, z)| (s, k * count, z))
        }
        DpEvent::SampledWithReplacement { n, m, event } => match event.as_ref() {
            DpEvent::Gaussian { noise_multiplier } => Some((
                Sampling::WithReplacement { n: *n, m: *m },
                1,
                *noise_multiplier,
            )),
            _ => None,
        },
        DpEvent::SampledWithoutReplacement { n, m, event } => match event.as_ref() {
            DpEvent::Gaussian { noise_multiplier } => Some((
                Sampling::WithoutReplacement { n: *n, m: *m },
                1,
                *noise_multiplier,
            )),
            _ => None,
        },
        _ => None,
    }
}

impl Calibration {
    /// σ/Δ of one released query (two-block releases: of the block named in `item`; the ledger
    /// carries the joint multiplier).
    pub fn noise_multiplier(&self) -> f64 {
        self.sigma / self.sensitivity
    }

    /// Fold a high-probability sensitivity bound into an ε computed at δ − p: with bad-event
    /// probability p per dataset the release is (ε_G(δ − p) + ln(1/(1 − p)), δ)-DP
    /// (proofs-notes/privacy.md, "High-probability sensitivity").
    fn with_bad_event(&self, f: impl Fn(f64) -> Result<f64>) -> Result<f64> {
        let p = self.bad_event_probability;
        if p >= self.delta {
            return Ok(f64::INFINITY);
        }
        Ok(f(self.delta - p)? + (-(-p).ln_1p()).max(0.0))
    }

    /// An upper bound on ε at the claimed δ: exact for Gaussian-only trees, else the
    /// with-replacement RDP bound (both plus the bad event).
    pub fn epsilon_upper(&self) -> Result<EpsilonValue> {
        match gaussian_mu(&self.ledger.event) {
            Some(mu) => Ok(EpsilonValue {
                epsilon: self.with_bad_event(|d| replacement::gaussian_epsilon(mu, d))?,
                method: Method::ExactGaussian,
            }),
            None => Ok(EpsilonValue {
                epsilon: self.epsilon_rdp()?,
                method: Method::RdpWithReplacement,
            }),
        }
    }

    /// The ε at the claimed δ by the RDP bound of [`replacement`] (which prices sampling with
    /// replacement, unlike `crate::privacy::rdp::RdpAccountant`), plus the bad event.
    pub fn epsilon_rdp(&self) -> Result<f64> {
        self.with_bad_event(|d| Ok(replacement::rdp_epsilon(&self.ledger, d)?.0))
    }

    /// A proved lower bound on the ε at the claimed δ of the released transcript (the sequence of
    /// noisy queries the papers' proofs certify). Gaussian-only trees: exact (the bad event is
    /// ignored, which is admissible: a solver that never errs). Sampled trees: [`Method::SumTest`].
    pub fn epsilon_lower(&self) -> Result<EpsilonValue> {
        if let Some(mu) = gaussian_mu(&self.ledger.event) {
            return Ok(EpsilonValue {
                epsilon: replacement::gaussian_epsilon(mu, self.delta)?,
                method: Method::ExactGaussian,
            });
        }
        match sampled_shape(&self.ledger.event) {
            Some((s, steps, z)) => Ok(EpsilonValue {
                epsilon: replacement::sum_test_epsilon(s, steps, z, self.delta)?,
                method: Method::SumTest,
            }),
            None => Err(Error::Unsupported(
                "no lower-bound instance for this event shape".into(),
            )),
        }
    }

    /// The claim is certified: the upper bound is ≤ the claimed ε.
    pub fn certified(&self) -> Result<bool> {
        Ok(self.epsilon_upper()?.epsilon <= self.epsilon * (1.0 + 1e-9))
    }

    /// The claim is refuted: the proved lower bound exceeds the claimed ε.
    pub fn refuted(&self) -> Result<bool> {
        Ok(self.epsilon_lower()?.epsilon > self.epsilon * (1.0 + 1e-9))
    }
}

/// The smallest noise multiplier z at which one Gaussian release is (ε, δ)-DP, exactly: the
/// analytic Gaussian mechanism with Δ = 1 (`crate::privacy::analytic`).
fn exact_gaussian_multiplier(eps: f64, delta: f64) -> Result<f64> {
    crate::privacy::validate_eps_delta(eps, delta)?;
    crate::privacy::analytic::analytic_gaussian_sigma(1.0, eps, delta)
}

// ================================================================================================
// BG23 — Boob & Guzmán, NSEG and NISPP
// ================================================================================================

/// BG23 Prop 3 (L252): the Gaussian mechanism with σ² = 2s² ln(1/η)/ε², stated for every ε > 0.
pub fn bg23_prop3_sigma(s: f64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("s", s)?;
    crate::privacy::validate_eps_delta(epsilon, eta)?;
    Ok(s * (2.0 * (1.0 / eta).ln()).sqrt() / epsilon)
}

/// σ of a Gaussian release of sensitivity s at (ε, η) per BG23 Prop 3, literal or corrected. The
/// literal formula is (ε, η)-DP only up to an ε that depends on η (it fails at ε = 10,
/// η = 1e-5); the corrected σ is max(literal, exact analytic-Gaussian σ).
fn bg23_gaussian(s: f64, epsilon: f64, eta: f64, variant: Variant) -> Result<f64> {
    let lit = bg23_prop3_sigma(s, epsilon, eta)?;
    Ok(match variant {
        Variant::PaperLiteral => lit,
        Variant::Corrected => lit.max(s * exact_gaussian_multiplier(epsilon, eta)?),
    })
}

/// BG23 Prop 3 as a calibration: one Gaussian release.
pub fn bg23_prop3(s: f64, epsilon: f64, eta: f64, variant: Variant) -> Result<Calibration> {
    let sigma = bg23_gaussian(s, epsilon, eta, variant)?;
    Ok(Calibration {
        paper: "BG23",
        item: "Prop 3",
        lines: "L252",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::Gaussian {
            noise_multiplier: sigma / s,
        }),
        bad_event_probability: 0.0,
        epsilon,
        delta: eta,
    })
}

/// BG23 Thm 1 (L272–L283) as a calibration: K releases, each on m records drawn as (Unif\[S\])^m,
/// sensitivity s, at the printed σ = √(2K ln(1/η))·s·m/(nε). Tree:
/// `self_composed{K, sampled_with_replacement{n, m, gaussian{σ/s}}}`. With the constant √2 in
/// place of Abadi et al.'s unnamed c₂, the statement fails for large ε whatever c₁ is (erratum
/// P-3): as K grows with ε fixed the transcript tends to μ-GDP with μ = ε/√(2 ln(1/η)), Prop 3's
/// calibration.
pub fn bg23_thm1_calibration(
    k: u64,
    s: f64,
    m: u64,
    n: u64,
    epsilon: f64,
    eta: f64,
) -> Result<Calibration> {
    let a = replacement::bg23_thm1(k, s, m, n, epsilon, eta, None)?;
    Ok(Calibration {
        paper: "BG23",
        item: "Thm 1",
        lines: "L272–L283",
        variant: Variant::PaperLiteral,
        sigma: a.sigma_min,
        sensitivity: s,
        ledger: ledger(DpEvent::SelfComposed {
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
    })
}

/// BG23 Prop 5 (L326): single-pass NSEG, σ_t² = (8M²/B_t²)·ln(1/η)/ε², each operator evaluation
/// having sensitivity 2M/B_t. The 2T batches (two per iteration) are disjoint, so the tree is a
/// parallel composition of 2T Gaussians (Prop 4, L256–L264). Inherits Prop 3's range of ε.
pub fn bg23_prop5(
    m_bound: f64,
    batch: u64,
    iterations: u64,
    epsilon: f64,
    eta: f64,
    variant: Variant,
) -> Result<Calibration> {
    require_positive("M", m_bound)?;
    require_count("B", batch)?;
    require_count("T", iterations)?;
    let s = 2.0 * m_bound / batch as f64;
    // Printed: σ_t² = 8M²/B² · ln(1/η)/ε² = 2 s² ln(1/η)/ε² (Prop 3 with s = 2M/B).
    let sigma = bg23_gaussian(s, epsilon, eta, variant)?;
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(Calibration {
        paper: "BG23",
        item: "Prop 5",
        lines: "L326",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::ParallelComposed(vec![g; 2 * iterations as usize])),
        bad_event_probability: 0.0,
        epsilon,
        delta: eta,
    })
}

/// BG23 Prop 5's σ as printed: σ_t = √(8M²/B²·ln(1/η)/ε²).
pub fn bg23_prop5_sigma(m_bound: f64, batch: u64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("M", m_bound)?;
    require_count("B", batch)?;
    crate::privacy::validate_eps_delta(epsilon, eta)?;
    Ok((8.0 * m_bound * m_bound / (batch as f64).powi(2) * (1.0 / eta).ln()).sqrt() / epsilon)
}

/// BG23 Prop 7 (L624) as printed: σ_t² = 8M²·log(1/η)/ε².
pub fn bg23_prop7_sigma(m_bound: f64, epsilon: f64, eta: f64) -> Result<f64> {
    require_positive("M", m_bound)?;
    crate::privacy::validate_eps_delta(epsilon, eta)?;
    Ok((8.0 * m_bound * m_bound * (1.0 / eta).ln()).sqrt() / epsilon)
}

/// BG23 Prop 7 with Thm 4's schedule (L626): multi-pass NSEG with T = n² iterations, each making
/// **two** operator evaluations F_{β_i(1,t)} + ξ¹_t and F_{β_i(2,t)} + ξ²_t at independent uniform
/// indices (eq. (4.16), L547): 2T = 2n² with-replacement draws of m = 1, each of sensitivity 2M.
/// Tree: `self_composed{2n², sampled_with_replacement{n, 1, gaussian{σ/(2M)}}}`.
///
/// * Literal: σ² = 8M² log(1/η)/ε², which is BG23 Thm 1 with K = T (one mechanism per
///   iteration). The transcript is not (ε, η)-DP: e.g. n = 1000, ε = 1, η = 1e-5 has a proved
///   ε ≥ 1.06 (`proofs-notes/privacy.md`, erratum P-1).
/// * Corrected: BG23 Thm 1 with K = 2T, σ² = 16M² ln(1/η)/ε², which the with-replacement RDP
///   bound certifies on the same instance.
pub fn bg23_prop7(
    m_bound: f64,
    n: u64,
    epsilon: f64,
    eta: f64,
    variant: Variant,
) -> Result<Calibration> {
    require_count("n", n)?;
    let sigma = match variant {
        Variant::PaperLiteral => bg23_prop7_sigma(m_bound, epsilon, eta)?,
        Variant::Corrected => {
            let t = n * n;
            replacement::bg23_thm1(2 * t, 2.0 * m_bound, 1, n, epsilon, eta, None)?.sigma_min
        }
    };
    let s = 2.0 * m_bound;
    Ok(Calibration {
        paper: "BG23",
        item: "Prop 7 (Thm 4 schedule)",
        lines: "L624, L626, L547",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::SelfComposed {
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
    })
}

/// BG23 Prop 10 (L937) as printed: σ_{k+1}² = 32M²/(λ_k²B_{k+1}²)·ln(1/η)/ε² (Prop 3 with the
/// sensitivity 4M/(λ_kB_{k+1}) of Prop 9).
pub fn bg23_prop10_sigma(
    m_bound: f64,
    lambda: f64,
    batch: u64,
    epsilon: f64,
    eta: f64,
) -> Result<f64> {
    require_positive("M", m_bound)?;
    require_positive("lambda", lambda)?;
    require_count("B", batch)?;
    crate::privacy::validate_eps_delta(epsilon, eta)?;
    Ok(
        (32.0 * m_bound * m_bound / (lambda * batch as f64).powi(2) * (1.0 / eta).ln()).sqrt()
            / epsilon,
    )
}

/// BG23 Prop 10: single-pass NISPP, K + 1 disjoint batches (k = 0..K), each release
/// w_{k+1} = u_{k+1} + ξ with sensitivity 4M/(λB). Parallel composition of K + 1 Gaussians.
/// Inherits Prop 3's range of ε.
pub fn bg23_prop10(
    m_bound: f64,
    lambda: f64,
    batch: u64,
    iterations: u64,
    epsilon: f64,
    eta: f64,
    variant: Variant,
) -> Result<Calibration> {
    require_positive("M", m_bound)?;
    require_positive("lambda", lambda)?;
    require_count("B", batch)?;
    require_count("K+1", iterations)?;
    let s = 4.0 * m_bound / (lambda * batch as f64);
    let sigma = bg23_gaussian(s, epsilon, eta, variant)?;
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(Calibration {
        paper: "BG23",
        item: "Prop 10",
        lines: "L937",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::ParallelComposed(vec![g; iterations as usize])),
        bad_event_probability: 0.0,
        epsilon,
        delta: eta,
    })
}

/// BG23 Cor 2 (L943–L953): single-pass NISPP with B = n^{1/3} (here ⌈n^{1/3}⌉),
/// λ₀ = max{M/D, L}·max{n^{1/3}, √(d ln(1/η))/ε}, K + 1 = ⌊n/B⌋ disjoint batches.
///
/// * Literal: the printed σ² = 32M²/(Bλ₀)·ln(1/η)/ε² (squares missing). It is dimensionally
///   inconsistent and under-noises whenever λ₀B < 1 (σ_lit/σ_Prop10 = √(λ₀B)); erratum P-5.
/// * Corrected: Prop 10's σ² = 32M²/(λ₀²B²)·ln(1/η)/ε² (with Prop 3's range fix).
#[allow(clippy::too_many_arguments)]
pub fn bg23_cor2(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    variant: Variant,
) -> Result<Calibration> {
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
    crate::privacy::validate_eps_delta(epsilon, eta)?;
    let batch = ((n as f64).cbrt() - 1e-9).ceil().max(1.0) as u64;
    let lambda0 = (m_bound / diameter).max(lipschitz)
        * (n as f64)
            .cbrt()
            .max((d as f64 * (1.0 / eta).ln()).sqrt() / epsilon);
    let iterations = (n / batch).max(1);
    let s = 4.0 * m_bound / (lambda0 * batch as f64);
    let sigma = match variant {
        Variant::PaperLiteral => {
            (32.0 * m_bound * m_bound / (batch as f64 * lambda0) * (1.0 / eta).ln()).sqrt()
                / epsilon
        }
        Variant::Corrected => bg23_gaussian(s, epsilon, eta, Variant::Corrected)?,
    };
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(Calibration {
        paper: "BG23",
        item: "Cor 2",
        lines: "L943–L953",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::ParallelComposed(vec![g; iterations as usize])),
        bad_event_probability: 0.0,
        epsilon,
        delta: eta,
    })
}

/// BG23 Thm 7 (L1093–L1105): multi-pass NISPP, K = n (so n + 1 iterations k = 0..K), batches of
/// B = √n (here ⌈√n⌉) drawn with replacement, λ₀ = max{M/D, L}·max{√n, √(d ln(1/η))/ε} (the
/// printed "/θ" and "log 1/δ" read as /ε and ln(1/η)), σ = 8M√(ln(1/η))/(Bλ₀ε), sensitivity of
/// u_{k+1} to one batch slot 4M/(λ₀B) (proof, L1105). Tree:
/// `self_composed{n + 1, sampled_with_replacement{n, B, gaussian{2√(ln(1/η))/ε}}}`.
#[allow(clippy::too_many_arguments)]
pub fn bg23_thm7(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
) -> Result<Calibration> {
    require_positive("M", m_bound)?;
    require_positive("D", diameter)?;
    require_count("n", n)?;
    require_count("d", d)?;
    crate::privacy::validate_eps_delta(epsilon, eta)?;
    let batch = ((n as f64).sqrt() - 1e-9).ceil().max(1.0) as u64;
    let lambda0 = (m_bound / diameter).max(lipschitz)
        * (n as f64)
            .sqrt()
            .max((d as f64 * (1.0 / eta).ln()).sqrt() / epsilon);
    let sigma = 8.0 * m_bound * (1.0 / eta).ln().sqrt() / (batch as f64 * lambda0 * epsilon);
    let s = 4.0 * m_bound / (lambda0 * batch as f64);
    Ok(Calibration {
        paper: "BG23",
        item: "Thm 7",
        lines: "L1093–L1105",
        variant: Variant::PaperLiteral,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::SelfComposed {
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
    })
}

// ================================================================================================
// KLLW22 — Kang, Liu, Li, Wang, full-batch DP-GDA
// ================================================================================================

/// The constant KLLW22's proof of Thm 1 (App. A.1, L538–L548) needs for **one** block: with
/// α_M(λ) ≤ 4G²λ²T/(n²σ²) and σ = cG√(T log(1/δ))/(nε), α_M(λ) ≤ λε/2 at λ = 2log(1/δ)/ε iff
/// c ≥ 4 (and λ ≥ 1, i.e. ε ≤ 2 log(1/δ)).
pub const KLLW22_C_PROOF: f64 = 4.0;

/// The constant the same argument needs for the joint release of both blocks (w and v noised at
/// the same σ, moments add): 4√2.
pub const KLLW22_C_JOINT: f64 = 4.0 * std::f64::consts::SQRT_2;

/// Which KLLW22 release is priced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Release {
    /// One block's noisy gradients (what the A.1 proof certifies, L550 "similarly").
    PerBlock,
    /// Both blocks' noisy gradients (what Algorithm 1, L134–L143, releases).
    Joint,
}

/// KLLW22 Thm 1 / App. A (L155, L460): σ = c·G·√(T log(1/δ))/(nε), c unnamed ("O(·)"; Lemma 1,
/// L149, writes σ² = c·G²T log(1/δ)/(n²ε²), a different c).
pub fn kllw22_thm1_sigma(c: f64, g: f64, t: u64, n: u64, epsilon: f64, delta: f64) -> Result<f64> {
    require_positive("c", c)?;
    require_positive("G", g)?;
    require_count("T", t)?;
    require_count("n", n)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    Ok(c * g * (t as f64 * (1.0 / delta).ln()).sqrt() / (n as f64 * epsilon))
}

/// KLLW22 Thm 1 as a calibration. Full-batch gradients: replacing one record moves a block's
/// gradient (1/n)Σ∇ℓ by ≤ 2G/n (Assumption 1 is blockwise, L100). Per block the tree is
/// `self_composed{T, gaussian{σn/(2G)}}`; the joint release is
/// `self_composed{T, composed[gaussian, gaussian]}`.
///
/// With c = [`KLLW22_C_PROOF`] the joint release is not what the proof certifies (erratum K-1):
/// the paper's own moments accountant gives ε + ε²/(4 log(1/δ)) > ε, and the exact ε exceeds ε
/// for large ε (G = 1, n = 1000, T = 100, ε = 10, δ = 1e-5: exact ε ≈ 10.8). c =
/// [`KLLW22_C_JOINT`] fixes it.
#[allow(clippy::too_many_arguments)]
pub fn kllw22_thm1(
    c: f64,
    g: f64,
    t: u64,
    n: u64,
    epsilon: f64,
    delta: f64,
    release: Release,
) -> Result<Calibration> {
    let sigma = kllw22_thm1_sigma(c, g, t, n, epsilon, delta)?;
    let s = 2.0 * g / n as f64;
    let gauss = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    let step = match release {
        Release::PerBlock => gauss,
        Release::Joint => DpEvent::Composed(vec![gauss.clone(), gauss]),
    };
    Ok(Calibration {
        paper: "KLLW22",
        item: match release {
            Release::PerBlock => "Thm 1 (one block)",
            Release::Joint => "Thm 1 (joint (w, v))",
        },
        lines: "L149, L155, L460, L538–L550",
        // c below 4√2 is the proof's reading (literal); 4√2 and above is the corrected constant.
        variant: if c < KLLW22_C_JOINT {
            Variant::PaperLiteral
        } else {
            Variant::Corrected
        },
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::SelfComposed {
            count: t,
            event: Box::new(step),
        }),
        bad_event_probability: 0.0,
        epsilon,
        delta,
    })
}

/// The ε that KLLW22's own moments-accountant argument (A.1) proves for `blocks` blocks with the
/// constant c: per block α(λ) = 2λ(λ+1)ε²/(c² log(1/δ)) (the exact λ(λ+1) of L538, not the
/// 2λ² relaxation), ε_MA = min_{λ ≥ 1} (blocks·α(λ) + log(1/δ))/λ.
pub fn kllw22_moments_accountant_epsilon(
    c: f64,
    epsilon: f64,
    delta: f64,
    blocks: u32,
) -> Result<f64> {
    require_positive("c", c)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
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

// ================================================================================================
// ZTOH22 — Zhang, Thekumparampil, Oh, He, (phased) output perturbation
// ================================================================================================

/// ZTOH22 Def 2 (L93): Gaussian mechanism with σ = Δ√(2 log(1.25/δ))/ε (ε ∈ (0, 1), L91).
pub fn ztoh22_def2_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> Result<f64> {
    require_positive("sensitivity", sensitivity)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    Ok(sensitivity * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon)
}

/// ZTOH22 Alg 1 (L104–L109): σ = 4L√(2 log(2.5/δ))/(μnε); sensitivity 4L/(μn) (exact ERM
/// stability 2L/(μn) plus twice the solver accuracy L/(μn), which holds with probability
/// ≥ 1 − δ/4). One Gaussian.
pub fn ztoh22_alg1(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<Calibration> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    let sigma = 4.0 * l * (2.0 * (2.5 / delta).ln()).sqrt() / (mu * n as f64 * epsilon);
    let s = 4.0 * l / (mu * n as f64);
    Ok(Calibration {
        paper: "ZTOH22",
        item: "Alg 1",
        lines: "L104–L109",
        variant: Variant::PaperLiteral,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::Gaussian {
            noise_multiplier: sigma / s,
        }),
        bad_event_probability: delta / 4.0,
        epsilon,
        delta,
    })
}

/// The phase count K = ⌊log₂ n⌋ (≥ 1) and n̄ = ⌊n/K⌋ that this crate reads ZTOH22's
/// "K = log(n), n̄ = n/K" (L155, L271) as.
pub fn ztoh22_phases(n: u64) -> (u64, u64) {
    let k = (63 - n.max(2).leading_zeros() as u64).max(1);
    (k, n / k)
}

/// ZTOH22 Alg 2 (L155–L163): phased output perturbation, σ_k = 4L√(2 log(2.5/δ))/(μ_k n̄ ε) with
/// μ_k = μ2^k; phase sensitivity 4L/(μ_k n̄), so every phase has the same noise multiplier.
/// Disjoint phases: parallel composition of K Gaussians.
pub fn ztoh22_alg2(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<Calibration> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    let (k, nbar) = ztoh22_phases(n);
    let mu1 = 2.0 * mu;
    let sigma1 = 4.0 * l * (2.0 * (2.5 / delta).ln()).sqrt() / (mu1 * nbar as f64 * epsilon);
    let s1 = 4.0 * l / (mu1 * nbar as f64);
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma1 / s1,
    };
    Ok(Calibration {
        paper: "ZTOH22",
        item: "Alg 2 (phase 1 shown)",
        lines: "L155–L163",
        variant: Variant::PaperLiteral,
        sigma: sigma1,
        sensitivity: s1,
        ledger: ledger(DpEvent::ParallelComposed(vec![g; k as usize])),
        bad_event_probability: delta / 4.0,
        epsilon,
        delta,
    })
}

/// ZTOH22 Alg 3 (L198–L208), SC-SC output perturbation: σ_x = (8L/(nε))√(2 log(5/δ)/(μ_xμ)),
/// σ_y likewise, μ = min{μ_x, μ_y}; per-block sensitivity 4L/(n√(μμ_x)) (Lemma 4.4 plus the
/// solver accuracy, which holds with probability ≥ 1 − δ/8). Two Gaussians composed.
pub fn ztoh22_alg3(
    l: f64,
    mu_x: f64,
    mu_y: f64,
    n: u64,
    epsilon: f64,
    delta: f64,
) -> Result<Calibration> {
    require_positive("L", l)?;
    require_positive("mu_x", mu_x)?;
    require_positive("mu_y", mu_y)?;
    require_count("n", n)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    let mu = mu_x.min(mu_y);
    let nf = n as f64;
    let sig = |m: f64| 8.0 * l / (nf * epsilon) * (2.0 * (5.0 / delta).ln() / (m * mu)).sqrt();
    let sens = |m: f64| 4.0 * l / (nf * (mu * m).sqrt());
    let (sx, sy) = (sig(mu_x), sig(mu_y));
    let (dx, dy) = (sens(mu_x), sens(mu_y));
    Ok(Calibration {
        paper: "ZTOH22",
        item: "Alg 3 (x block shown)",
        lines: "L198–L208",
        variant: Variant::PaperLiteral,
        sigma: sx,
        sensitivity: dx,
        ledger: ledger(DpEvent::Composed(vec![
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
    })
}

/// ZTOH22 Alg 4 + Alg 5 (L271–L284, L260; Alg 5 by symmetry, App. B): each phase perturbs one
/// block with σ_k = (8L/(n̄ε))√(2 log(5/δ)/(μ_kμ)), sensitivity 4L/(n̄√(μ_kμ)); each algorithm is
/// a parallel composition over its K phases, and the two are composed (basic composition, L260).
pub fn ztoh22_alg4_5(l: f64, mu: f64, n: u64, epsilon: f64, delta: f64) -> Result<Calibration> {
    require_positive("L", l)?;
    require_positive("mu", mu)?;
    require_count("n", n)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    let (k, nbar) = ztoh22_phases(n);
    let nb = nbar as f64;
    let mu1 = 2.0 * mu;
    let sigma1 = 8.0 * l / (nb * epsilon) * (2.0 * (5.0 / delta).ln() / (mu1 * mu)).sqrt();
    let s1 = 4.0 * l / (nb * (mu1 * mu).sqrt());
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma1 / s1,
    };
    let phases = DpEvent::ParallelComposed(vec![g; k as usize]);
    Ok(Calibration {
        paper: "ZTOH22",
        item: "Alg 4 + Alg 5 (phase 1 shown)",
        lines: "L260, L271–L284",
        variant: Variant::PaperLiteral,
        sigma: sigma1,
        sensitivity: s1,
        ledger: ledger(DpEvent::Composed(vec![phases.clone(), phases])),
        bad_event_probability: delta / 4.0,
        epsilon,
        delta,
    })
}

// ================================================================================================
// BGM23 — Bassily, Guzmán, Menart (COLT 2023)
// ================================================================================================

/// BGM23 Thm 12's σ_t (L214): 8L√(log(2/δ))/(2^tλn'ε).
pub fn bgm23_thm12_sigma(
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
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    Ok(8.0 * l * (2.0 / delta).ln().sqrt()
        / (2f64.powi(t as i32) * lambda * n_prime as f64 * epsilon))
}

/// BGM23 Thm 12 (L214–L224): output perturbation of an approximate regularized saddle point,
/// round t of `rounds` disjoint rounds (parallel composition, Thm 8). The solver guarantees
/// E‖ẑ_t − z*‖ ≤ (δ/5)·L/(2^tλn'), so ‖ẑ_t − z*‖ ≤ L/(2^tλn') except with probability δ/5.
///
/// * Literal: sensitivity "2L/(2^tλn')" as printed (L224).
/// * Corrected: 3L/(2^tλn') — Lemma 2's L/(2^tλn') plus twice the accuracy radius (both datasets'
///   solvers can err in opposite directions). The printed σ_t still covers it: the exact ε on the
///   good event is far below ε for ε ≤ 1 (record, not an under-noising).
///
/// The noise multiplier does not depend on t, so the tree is `parallel_composed` of `rounds`
/// identical Gaussians.
#[allow(clippy::too_many_arguments)]
pub fn bgm23_thm12(
    l: f64,
    lambda: f64,
    n_prime: u64,
    rounds: u32,
    epsilon: f64,
    delta: f64,
    variant: Variant,
) -> Result<Calibration> {
    if rounds == 0 {
        return Err(invalid("T", "must be ≥ 1"));
    }
    let sigma = bgm23_thm12_sigma(l, lambda, n_prime, 1, epsilon, delta)?;
    let unit = l / (2.0 * lambda * n_prime as f64);
    let s = match variant {
        Variant::PaperLiteral => 2.0 * unit,
        Variant::Corrected => 3.0 * unit,
    };
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(Calibration {
        paper: "BGM23",
        item: "Thm 12 (round t = 1 shown)",
        lines: "L214, L224",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::ParallelComposed(vec![g; rounds as usize])),
        bad_event_probability: delta / 5.0,
        epsilon,
        delta,
    })
}

/// The parameters BGM23 Thm 21 (L530–L540) prescribes for noisy SGDA on n points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NoisySgdaParams {
    /// T = ⌊min{n/8, n²ε²/(32 d log(1/δ))}⌋.
    pub iterations: u64,
    /// The batch size m: [`Variant::PaperLiteral`] m = min(n, ⌈max{n√(ε/(4T)), 1}⌉) (L530, rounded
    /// up); [`Variant::Corrected`] m = min(n, max{⌈n√(ε/T)⌉, 1}), the smallest batch for which
    /// BGM23 Thm 22's premise T ≥ n²ε/m² holds (inventory I-31).
    pub batch: u64,
    /// Which batch-size rule produced `batch`.
    pub batch_rule: Variant,
    /// σ = √(c₀TL²log(1/δ))/(nε) (L530–L532).
    pub sigma: f64,
    /// Does BGM23 Thm 22's premise T ≥ n²ε/m² hold ([`bgm23_thm22_premise`], exact)? (L546 asserts
    /// so; with the printed m, n²ε/m² ≈ 4T, so it fails.)
    pub thm22_premise: bool,
}

/// BGM23 Thm 21's parameters, c₀ the unnamed constant of L532 (c₀ = c² of Thm 22), with the batch
/// size by `batch_rule` (see [`NoisySgdaParams::batch`]; the literal rule gives n²ε/m² ≈ 4T > T).
pub fn bgm23_thm21_params(
    c0: f64,
    n: u64,
    d: u64,
    l: f64,
    epsilon: f64,
    delta: f64,
    batch_rule: Variant,
) -> Result<NoisySgdaParams> {
    require_positive("c0", c0)?;
    require_count("n", n)?;
    require_count("d", d)?;
    require_positive("L", l)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
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
    let premise = |m: u64| bgm23_thm22_premise(iterations, m, n, epsilon);
    let batch = match batch_rule {
        Variant::PaperLiteral => {
            ((nf * (epsilon / (4.0 * t)).sqrt()).max(1.0).ceil() as u64).min(n)
        }
        Variant::Corrected => {
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

/// BGM23 Thm 22's premise T ≥ n²ε/m² (L544, L546), decided exactly: T·m² ≥ n²·ε with ε at its
/// binary value (false for a non-finite ε).
pub fn bgm23_thm22_premise(t: u64, m: u64, n: u64, epsilon: f64) -> bool {
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
/// replacement (L198, L530) and the release (1/m)Σg + N(0, σ²I), per-slot sensitivity 2L/m.
/// Tree: `self_composed{T, sampled_with_replacement{n, m, gaussian{σm/(2L)}}}`. The claim (ε, δ)
/// holds or not depending on c₀; [`bgm23_c0_required`] gives the smallest c₀ the
/// with-replacement bound certifies. `batch_rule` picks the printed or the corrected m
/// ([`bgm23_thm21_params`]); the calibration's `variant` records it.
pub fn bgm23_thm21(
    c0: f64,
    n: u64,
    d: u64,
    l: f64,
    epsilon: f64,
    delta: f64,
    batch_rule: Variant,
) -> Result<(NoisySgdaParams, Calibration)> {
    let p = bgm23_thm21_params(c0, n, d, l, epsilon, delta, batch_rule)?;
    let s = 2.0 * l / p.batch as f64;
    let cal = Calibration {
        paper: "BGM23",
        item: "Thm 21/22 (noisy SGDA)",
        lines: "L198, L530–L546",
        variant: batch_rule,
        sigma: p.sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::SelfComposed {
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
    };
    Ok((p, cal))
}

/// Smallest c such that `certified(c)` holds, by bisection on a log scale (certification must be
/// monotone in c).
fn smallest_constant(certified: impl Fn(f64) -> Result<bool>) -> Result<f64> {
    let (mut lo, mut hi) = (1e-3f64, 1.0f64);
    while !certified(hi)? {
        hi *= 2.0;
        if hi > 1e9 {
            return Err(Error::Unsupported("no constant certifies the claim".into()));
        }
    }
    if certified(lo)? {
        return Ok(lo);
    }
    for _ in 0..50 {
        let mid = (lo * hi).sqrt();
        if certified(mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
        if hi / lo < 1.0 + 1e-4 {
            break;
        }
    }
    Ok(hi)
}

/// Largest c such that `refuted(c)` holds (0 if none below 1e-3), by bisection on a log scale.
fn largest_refuted_constant(refuted: impl Fn(f64) -> Result<bool>) -> Result<f64> {
    let (mut lo, mut hi) = (1e-3f64, 1.0f64);
    if !refuted(lo)? {
        return Ok(0.0);
    }
    while refuted(hi)? {
        hi *= 2.0;
        if hi > 1e9 {
            return Err(Error::Unsupported("every constant is refuted".into()));
        }
    }
    for _ in 0..50 {
        let mid = (lo * hi).sqrt();
        if refuted(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi / lo < 1.0 + 1e-4 {
            break;
        }
    }
    Ok(lo)
}

/// The largest c₀ for which BGM23 Thm 21's transcript (batch size by `batch_rule`) is provably
/// **not** (ε, δ)-DP (sum-test lower bound): the unnamed constant must exceed it.
pub fn bgm23_c0_refuted(
    n: u64,
    d: u64,
    epsilon: f64,
    delta: f64,
    batch_rule: Variant,
) -> Result<f64> {
    largest_refuted_constant(|c0| {
        bgm23_thm21(c0, n, d, 1.0, epsilon, delta, batch_rule)?
            .1
            .refuted()
    })
}

/// The smallest c₀ for which BGM23 Thm 21's noisy SGDA (batch size by `batch_rule`) is certified
/// (ε, δ)-DP by the with-replacement RDP bound (the unnamed constant made concrete).
pub fn bgm23_c0_required(
    n: u64,
    d: u64,
    epsilon: f64,
    delta: f64,
    batch_rule: Variant,
) -> Result<f64> {
    smallest_constant(|c0| {
        bgm23_thm21(c0, n, d, 1.0, epsilon, delta, batch_rule)?
            .1
            .certified()
    })
}

/// BGM23 Cor 16 (L334–L340), local DP: each user's gradient g(z; x_t) + ξ released once,
/// local sensitivity sup‖g(z;x) − g(z;x′)‖ ≤ 2L.
///
/// * Literal: σ = L√(log(1/δ))/ε read as a standard deviation (the paper writes N(0, I_dσ)).
///   Under-noised: at ε = 1, δ = 1e-5 the exact ε is ≈ 2.3 (erratum B-2).
/// * Corrected: the classic σ = 2L√(2 ln(1.25/δ))/ε (ε ≤ 1).
pub fn bgm23_cor16(l: f64, epsilon: f64, delta: f64, variant: Variant) -> Result<Calibration> {
    require_positive("L", l)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    let s = 2.0 * l;
    let sigma = match variant {
        Variant::PaperLiteral => l * (1.0 / delta).ln().sqrt() / epsilon,
        Variant::Corrected => s * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon,
    };
    Ok(Calibration {
        paper: "BGM23",
        item: "Cor 16 (LDP)",
        lines: "L334–L340",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::Gaussian {
            noise_multiplier: sigma / s,
        }),
        bad_event_probability: 0.0,
        epsilon,
        delta,
    })
}

// ================================================================================================
// BGM24 — Bassily, Guzmán, Menart (NeurIPS 2024)
// ================================================================================================

/// The ℓp/ℓq setup of BGM24 Thm 4 (L599–L630).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bgm24Setup {
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

/// The parameters BGM24 Thm 4's proof prescribes (L630).
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

/// BGM24 Thm 4 (L624–L630): DP stochastic mirror prox, 2T oracle calls (two per iteration, L177–
/// L178), each on a fresh minibatch of m records sampled "uniformly" (`sampling` chooses with or
/// without replacement; the paper does not say), releasing (1/m)Σg + [ξ_w, ξ_θ]. The joint
/// per-slot sensitivity in the noise metric gives one Gaussian with
/// z = 1/√((Δ_w/σ_w)² + (Δ_θ/σ_θ)²), Δ_w = 2·B_wL_w·d_w^{1/2−1/p*}/m. Tree:
/// `self_composed{2T, sampled_*{n, m, gaussian{z}}}`. The proof applies Lemma 9 with T queries
/// (not 2T) and per block (not jointly): both are absorbed by the unnamed c, made concrete by
/// [`bgm24_c_required`].
pub fn bgm24_thm4(
    c: f64,
    setup: &Bgm24Setup,
    epsilon: f64,
    delta: f64,
    with_replacement: bool,
    variant: Variant,
) -> Result<(MirrorProxParams, Calibration)> {
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
    crate::privacy::validate_eps_delta(epsilon, delta)?;
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
    let theta_exp = match variant {
        Variant::PaperLiteral => setup.p_star,
        Variant::Corrected => setup.q_star,
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
    let cal = Calibration {
        paper: "BGM24",
        item: "Thm 4 / Lemma 9 (DP mirror prox)",
        lines: "L591–L593, L624–L630",
        variant,
        sigma: sigma_w,
        sensitivity: delta_w,
        ledger: ledger(DpEvent::SelfComposed {
            count: 2 * iterations,
            event: Box::new(sampled),
        }),
        bad_event_probability: 0.0,
        epsilon,
        delta,
    };
    Ok((params, cal))
}

/// The smallest c for which BGM24 Thm 4 (with-replacement reading, corrected q*) is certified by
/// the with-replacement RDP bound.
pub fn bgm24_c_required(setup: &Bgm24Setup, epsilon: f64, delta: f64) -> Result<f64> {
    smallest_constant(|c| {
        bgm24_thm4(c, setup, epsilon, delta, true, Variant::Corrected)?
            .1
            .certified()
    })
}

/// BGM24 Thm 6's σ_t (L850): literal 8L√(2/δ)/(2^tλn'ε) as printed; corrected
/// 8L√(log(2/δ))/(2^tλn'ε), the value its utility proof uses (L868).
#[allow(clippy::too_many_arguments)]
pub fn bgm24_thm6_sigma(
    l: f64,
    lambda: f64,
    n_prime: u64,
    t: u32,
    epsilon: f64,
    delta: f64,
    variant: Variant,
) -> Result<f64> {
    require_positive("L", l)?;
    require_positive("lambda", lambda)?;
    require_count("n'", n_prime)?;
    crate::privacy::validate_eps_delta(epsilon, delta)?;
    let root = match variant {
        Variant::PaperLiteral => (2.0 / delta).sqrt(),
        Variant::Corrected => (2.0 / delta).ln().sqrt(),
    };
    Ok(8.0 * l * root / (2f64.powi(t as i32) * lambda * n_prime as f64 * epsilon))
}

/// BGM24 Thm 6 (L850–L862): output perturbation of the SVI regularized equilibrium, round t = 1
/// shown, `rounds` disjoint rounds. E‖ẑ − z*‖ ≤ δL/(5·2^tλn') gives ‖ẑ − z*‖ ≤ L/(2^tλn') except
/// with probability δ/5; the exact equilibrium moves by ≤ 2L/((2^{t+1}−2)λn') ≤ 2L/(2^tλn'), so
/// the sensitivity is 4L/(2^tλn'), not the printed "2L/(2^tλn')" (L862).
///
/// * Literal: printed σ_t (√(2/δ), far larger than intended) and sensitivity 2L/(2^tλn').
/// * Corrected: σ_t with √(log(2/δ)) and sensitivity 4L/(2^tλn'). Still certified for ε ≤ 1.
#[allow(clippy::too_many_arguments)]
pub fn bgm24_thm6(
    l: f64,
    lambda: f64,
    n_prime: u64,
    rounds: u32,
    epsilon: f64,
    delta: f64,
    variant: Variant,
) -> Result<Calibration> {
    if rounds == 0 {
        return Err(invalid("T", "must be ≥ 1"));
    }
    let sigma = bgm24_thm6_sigma(l, lambda, n_prime, 1, epsilon, delta, variant)?;
    let unit = l / (2.0 * lambda * n_prime as f64);
    let s = match variant {
        Variant::PaperLiteral => 2.0 * unit,
        Variant::Corrected => 4.0 * unit,
    };
    let g = DpEvent::Gaussian {
        noise_multiplier: sigma / s,
    };
    Ok(Calibration {
        paper: "BGM24",
        item: "Thm 6 (round t = 1 shown)",
        lines: "L850, L862, L868",
        variant,
        sigma,
        sensitivity: s,
        ledger: ledger(DpEvent::ParallelComposed(vec![g; rounds as usize])),
        bad_event_probability: delta / 5.0,
        epsilon,
        delta,
    })
}

/// The largest c for which BGM24 Thm 4's transcript (with-replacement reading, corrected q*) is
/// provably not (ε, δ)-DP.
pub fn bgm24_c_refuted(setup: &Bgm24Setup, epsilon: f64, delta: f64) -> Result<f64> {
    largest_refuted_constant(|c| {
        bgm24_thm4(c, setup, epsilon, delta, true, Variant::Corrected)?
            .1
            .refuted()
    })
}
