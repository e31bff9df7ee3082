//! BG23 §3 and §4.2: NSEG's policies (Cor 1, Thm 4, literal and corrected), Thm 2's K₀, the bounds of Thm 2, Cor 1, Remarks 1–2 and Thm 4 with explicit constants.
//!
//! One function per formula, named after the item. Derivations of the explicit constants are in
//! `proofs-notes/bg23.md` Part 2; the errata E-BG23-20 … 25 in `proofs-notes/errata.md`.
//! Notation: ρ = √(d ln(1/η))/ε, Φ(n) = max{1/√n, ρ/n}.

use crate::error::{invalid, require_count, require_positive, Result};
use crate::papers::bg23::calibration;
use crate::papers::Reading;
use crate::privacy::validate_eps_delta;

/// ρ = √(d ln(1/η))/ε.
pub fn rho(d: u64, epsilon: f64, eta: f64) -> f64 {
    (d as f64 * (1.0 / eta).ln()).sqrt() / epsilon
}

/// Φ(n) = max{1/√n, ρ/n}, the rate of Thm 4 and Remark 2.
pub fn phi(n: u64, rho: f64) -> f64 {
    let n = n as f64;
    (1.0 / n.sqrt()).max(rho / n)
}

/// BG23 Thm 2's K₀(T) = D² + 7 Σ_t γ_t²[c·M² + dσ_t²] with c = ½ as printed
/// ([`Reading::PaperLiteral`]) or c = 1 as Cor 1's and Thm 4's proofs use it
/// ([`Reading::Corrected`], the weaker statement; erratum E-BG23-21: the two readings disagree).
pub fn thm2_k0(
    diameter: f64,
    m_bound: f64,
    d: u64,
    gammas: &[f64],
    sigmas: &[f64],
    reading: Reading,
) -> Result<f64> {
    require_positive("D", diameter)?;
    require_positive("M", m_bound)?;
    if gammas.len() != sigmas.len() || gammas.is_empty() {
        return Err(invalid("gammas", "needs T ≥ 1 step sizes and as many σ_t"));
    }
    let c = match reading {
        Reading::PaperLiteral => 0.5,
        Reading::Corrected => 1.0,
    };
    let s: f64 = gammas
        .iter()
        .zip(sigmas)
        .map(|(g, s)| g * g * (c * m_bound * m_bound + d as f64 * s * s))
        .sum();
    Ok(diameter * diameter + 7.0 * s)
}

/// BG23 Thm 2: E Gap_VI(A) (and E Gap_SP) ≤ K₀(T)/Γ_T, Γ_T = Σ γ_t.
pub fn thm2_bound(
    diameter: f64,
    m_bound: f64,
    d: u64,
    gammas: &[f64],
    sigmas: &[f64],
    reading: Reading,
) -> Result<f64> {
    let k0 = thm2_k0(diameter, m_bound, d, gammas, sigmas, reading)?;
    Ok(k0 / gammas.iter().sum::<f64>())
}

/// A step/batch/noise policy of NSEG with its provenance.
#[derive(Clone, Debug, PartialEq)]
pub struct NsegPolicy {
    /// Which reading.
    pub reading: Reading,
    /// B as the formula gives it (real; 1 for multi-pass).
    pub batch_real: f64,
    /// T as the formula gives it (real).
    pub steps_real: f64,
    /// γ.
    pub gamma: f64,
    /// σ.
    pub sigma: f64,
    /// Whether γ was clipped to 1/(√3L) (corrected Cor 1 only).
    pub clipped: bool,
}

impl NsegPolicy {
    /// The integer T, or an error when the formula's T is not a positive integer.
    pub fn steps(&self) -> Result<usize> {
        let t = self.steps_real;
        if !(t >= 1.0 && t.fract() == 0.0 && t < 1e12) {
            return Err(invalid(
                "steps",
                format!("the policy's T = {t} is not a positive integer"),
            ));
        }
        Ok(t as usize)
    }

    /// The integer B, or an error.
    pub fn batch(&self) -> Result<usize> {
        let b = self.batch_real;
        if !(b >= 1.0 && b.fract() == 0.0) {
            return Err(invalid(
                "batch",
                format!("the policy's B = {b} is not a positive integer"),
            ));
        }
        Ok(b as usize)
    }
}

/// BG23 Cor 1: single-pass NSEG with B = min{ρ, n}, T = n/(2B) (the proof's n = 2TB),
/// γ = D/[M√(7T(1 + 8d ln(1/η)/(B²ε²)))], σ² = 8M² ln(1/η)/(B²ε²) (Prop 5).
///
/// * Literal: exactly these reals: B and T need not be integers (B = n gives T = ½), and γ is
///   not clipped to Thm 2's 1/(√3L) (erratum E-BG23-20).
/// * Corrected: B = min{⌈ρ⌉, ⌊n/2⌋} (≥ 1), T = ⌊n/(2B)⌋, γ = min{γ(T, B), 1/(√3L)} (L > 0),
///   σ from [`calibration::prop5`] with Prop 3's large-ε correction.
#[allow(clippy::too_many_arguments)]
pub fn cor1_policy(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<NsegPolicy> {
    require_positive("M", m_bound)?;
    require_positive("D", diameter)?;
    require_count("n", n)?;
    require_count("d", d)?;
    validate_eps_delta(epsilon, eta)?;
    let r = rho(d, epsilon, eta);
    let ln = (1.0 / eta).ln();
    let gamma_of = |t: f64, b: f64| {
        diameter
            / (m_bound
                * (7.0 * t * (1.0 + 8.0 * d as f64 / (b * b) * ln / (epsilon * epsilon))).sqrt())
    };
    match reading {
        Reading::PaperLiteral => {
            let b = r.min(n as f64);
            let t = n as f64 / (2.0 * b);
            let sigma = (8.0 * m_bound * m_bound / (b * b) * ln).sqrt() / epsilon;
            Ok(NsegPolicy {
                reading,
                batch_real: b,
                steps_real: t,
                gamma: gamma_of(t, b),
                sigma,
                clipped: false,
            })
        }
        Reading::Corrected => {
            if n < 2 {
                return Err(invalid(
                    "n",
                    "single-pass NSEG needs n ≥ 2 (2TB ≤ n, T, B ≥ 1)",
                ));
            }
            let b = (r.ceil().max(1.0) as u64).min(n / 2);
            let t = n / (2 * b);
            let mut gamma = gamma_of(t as f64, b as f64);
            let mut clipped = false;
            if lipschitz > 0.0 {
                let cap = 1.0 / (3f64.sqrt() * lipschitz);
                if gamma > cap {
                    gamma = cap;
                    clipped = true;
                }
            }
            let sigma = calibration::prop5(m_bound, b, t, epsilon, eta, Reading::Corrected)?
                .calibration
                .sigma;
            Ok(NsegPolicy {
                reading,
                batch_real: b as f64,
                steps_real: t as f64,
                gamma,
                sigma,
                clipped,
            })
        }
    }
}

/// BG23 Thm 4: multi-pass NSEG (eq. (4.16), one index per evaluation) with T = n²,
/// γ = min{D/M, 1/L}/[n·max{√n, ρ}], σ² = 8M² ln(1/η)/ε² (literal, Prop 7 as printed) or Prop 7
/// with 2T mechanisms (corrected, E-BG23-P1: σ² = 16M² ln(1/η)/ε²).
#[allow(clippy::too_many_arguments)]
pub fn thm4_policy(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    reading: Reading,
) -> Result<NsegPolicy> {
    require_positive("M", m_bound)?;
    require_positive("D", diameter)?;
    require_count("n", n)?;
    require_count("d", d)?;
    let r = rho(d, epsilon, eta);
    let num = if lipschitz > 0.0 {
        (diameter / m_bound).min(1.0 / lipschitz)
    } else {
        diameter / m_bound
    };
    let gamma = num / (n as f64 * (n as f64).sqrt().max(r));
    let sigma = calibration::prop7(m_bound, n, epsilon, eta, reading)?
        .calibration
        .sigma;
    Ok(NsegPolicy {
        reading,
        batch_real: 1.0,
        steps_real: (n * n) as f64,
        gamma,
        sigma,
        clipped: false,
    })
}

/// The proof of Cor 1, first display: D²/(γT) + 7M²γ(1 + x), x = 8d ln(1/η)/(B²ε²) (Thm 2 with
/// M² and constant γ, σ of Prop 5).
#[allow(clippy::too_many_arguments)]
pub fn cor1_proof_gap(
    m_bound: f64,
    diameter: f64,
    d: u64,
    epsilon: f64,
    eta: f64,
    batch: f64,
    steps: f64,
    gamma: f64,
) -> f64 {
    let x = 8.0 * d as f64 / (batch * batch) * (1.0 / eta).ln() / (epsilon * epsilon);
    diameter * diameter / (gamma * steps) + 7.0 * m_bound * m_bound * gamma * (1.0 + x)
}

/// The proof of Cor 1, second display, left side: 2√7·MD/√T·(1 + √(8d ln(1/η))/(Bε)).
pub fn cor1_proof_sqrt_t(
    m_bound: f64,
    diameter: f64,
    d: u64,
    epsilon: f64,
    eta: f64,
    batch: f64,
    steps: f64,
) -> f64 {
    2.0 * 7f64.sqrt() * m_bound * diameter / steps.sqrt()
        * (1.0 + (8.0 * d as f64 * (1.0 / eta).ln()).sqrt() / (batch * epsilon))
}

/// The proof of Cor 1, second display, right side (n = 2TB substituted):
/// 2√14·MD√B/√n + 8√7·MD√d√ln(1/η)/(√(nB)ε).
pub fn cor1_proof_n(
    m_bound: f64,
    diameter: f64,
    d: u64,
    epsilon: f64,
    eta: f64,
    batch: f64,
    n: f64,
) -> f64 {
    let md = m_bound * diameter;
    2.0 * 14f64.sqrt() * md * batch.sqrt() / n.sqrt()
        + 8.0 * 7f64.sqrt() * md * (d as f64 * (1.0 / eta).ln()).sqrt()
            / ((n * batch).sqrt() * epsilon)
}

/// The explicit constant of Cor 1's O(·) with the literal policy: 6√14 (proofs-notes/bg23.md).
pub const COR1_CONSTANT: f64 = 22.44994432064365; // 6√14

/// BG23 Cor 1 with its constant: 6√14·MD·max{[d ln(1/η)]^{1/4}/√(nε), √(d ln(1/η))/(nε)}
/// = 6√14·MD·max{√(ρ/n), ρ/n} (literal policy; derivation in proofs-notes/bg23.md).
pub fn cor1_bound(m_bound: f64, diameter: f64, n: u64, d: u64, epsilon: f64, eta: f64) -> f64 {
    let x = rho(d, epsilon, eta) / n as f64;
    COR1_CONSTANT * m_bound * diameter * x.sqrt().max(x)
}

/// BG23 Remark 1: the two terms of Cor 1's max are √x and x with x = √(d ln(1/η))/(nε); the max
/// is the first term iff x ≤ 1 (returns (first, second)).
pub fn remark1_terms(n: u64, d: u64, epsilon: f64, eta: f64) -> (f64, f64) {
    let dl = d as f64 * (1.0 / eta).ln();
    (
        dl.powf(0.25) / (n as f64 * epsilon).sqrt(),
        dl.sqrt() / (n as f64 * epsilon),
    )
}

/// Thm 4's empirical term (proof, first display): (1/(γT))(c_D·D² + 7Tγ²(M² + dσ²)); the proof
/// prints c_D = ½ and σ² = 8M² ln(1/η)/ε² ([`Reading::PaperLiteral`]); Thm 2 gives c_D = 1
/// ([`Reading::Corrected`]). σ is passed (the policy's).
pub fn thm4_empirical(
    diameter: f64,
    m_bound: f64,
    d: u64,
    gamma: f64,
    steps: f64,
    sigma: f64,
    reading: Reading,
) -> f64 {
    let cd = match reading {
        Reading::PaperLiteral => 0.5,
        Reading::Corrected => 1.0,
    };
    (cd * diameter * diameter
        + 7.0 * steps * gamma * gamma * (m_bound * m_bound + d as f64 * sigma * sigma))
        / (gamma * steps)
}

/// Thm 3's in-expectation UAS bound (4.12) at constant γ and T steps, as Thm 4's proof
/// evaluates it (the literal reading, sensitivity 2M/n):
/// δ = [4M + 2LD + 4√d σ]LTγ² + (2ML/n)Tγ² + (2M/n)Tγ + (2ML/n + 2LD)γ. Thm 3 has one home,
/// [`crate::papers::bg23::stability::thm3_rhs_constant`]; this only fixes its arguments.
#[allow(clippy::too_many_arguments)]
fn thm4_stability(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    gamma: f64,
    steps: f64,
    sigma: f64,
) -> Result<f64> {
    let p = crate::papers::bg23::stability::Thm3Params {
        m: m_bound,
        l: lipschitz,
        diameter,
        dim: d as usize,
        sigma,
        n: n as usize,
        gammas: vec![gamma],
        sensitivity: 2.0 * m_bound / n as f64,
    };
    crate::papers::bg23::stability::thm3_rhs_constant(Reading::PaperLiteral, &p, steps)
}

/// Whether the problem is an SVI or an SSP (Prop 2's Mδ or Prop 1's M(δ_x + δ_y) ≤ 2Mδ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// SVI: WeakGap_VI ≤ E EmpGap + Mδ.
    Vi,
    /// SSP: WeakGap_SP ≤ E EmpGap + M(δ_x + δ_y) ≤ E EmpGap + 2Mδ.
    Sp,
}

/// Thm 4 explicit bound at the policy's values: EmpGap term (Thm 2, c_D = 1) + c·M·δ (c = 1 VI,
/// 2 SP).
#[allow(clippy::too_many_arguments)]
pub fn thm4_explicit(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    policy: &NsegPolicy,
    problem: Problem,
) -> Result<f64> {
    let emp = thm4_empirical(
        diameter,
        m_bound,
        d,
        policy.gamma,
        policy.steps_real,
        policy.sigma,
        Reading::Corrected,
    );
    let delta = thm4_stability(
        m_bound,
        diameter,
        lipschitz,
        n,
        d,
        policy.gamma,
        policy.steps_real,
        policy.sigma,
    )?;
    let c = match problem {
        Problem::Vi => 1.0,
        Problem::Sp => 2.0,
    };
    Ok(emp + c * m_bound * delta)
}

/// Thm 4's O(·) constant C: WeakGap ≤ C·(MD + LD²)Φ(n) + 2MLD/n^{5/2}. With the corrected σ
/// (σ² = 16M² ln(1/η)/ε²): C = 148 (VI), 176 (SP); with the printed σ: C = 64 + 12 + 8√2 (VI),
/// 64 + 2(12 + 8√2) (SP). Derivation in proofs-notes/bg23.md Part 2.
pub fn thm4_constant(problem: Problem, sigma_reading: Reading) -> f64 {
    let (emp, stab) = match sigma_reading {
        Reading::Corrected => (120.0, 28.0),
        Reading::PaperLiteral => (64.0, 12.0 + 8.0 * 2f64.sqrt()),
    };
    match problem {
        Problem::Vi => emp + stab,
        Problem::Sp => emp + 2.0 * stab,
    }
}

/// BG23 Thm 4 with its constant: C·(MD + LD²)·Φ(n) + 2MLD/n^{5/2}.
#[allow(clippy::too_many_arguments)]
pub fn thm4_bound(
    m_bound: f64,
    diameter: f64,
    lipschitz: f64,
    n: u64,
    d: u64,
    epsilon: f64,
    eta: f64,
    problem: Problem,
    sigma_reading: Reading,
) -> f64 {
    let (m, l, dd) = (m_bound, lipschitz, diameter);
    thm4_constant(problem, sigma_reading) * (m * dd + l * dd * dd) * phi(n, rho(d, epsilon, eta))
        + 2.0 * m * l * dd / (n as f64).powf(2.5)
}

/// BG23 Remark 2: MLD/n^{5/2} ≤ (MD + LD²)/√n ⟺ ML ≤ n²(M + LD), implied by n² ≥ min{L, M/D}
/// (the printed "n = Ω(min{√L, √(M/D)})"). Returns (holds, sufficient condition holds).
pub fn remark2(m_bound: f64, diameter: f64, lipschitz: f64, n: u64) -> (bool, bool) {
    let (m, l, dd, nf) = (m_bound, lipschitz, diameter, n as f64);
    let holds = m * l * dd / nf.powf(2.5) <= (m * dd + l * dd * dd) / nf.sqrt();
    let cond = nf * nf >= l.min(m / dd);
    (holds, cond)
}

/// BG23 Table 1 (NSEG row): operator evaluations, printed: n (single pass) and n² (multi-pass).
pub fn table1_printed(n: u64) -> (u64, u64) {
    (n, n * n)
}
