//! Zero-concentrated differential privacy (Bun & Steinke 2016, "Concentrated Differential
//! Privacy: Simplifications, Extensions, and Lower Bounds").
//!
//! A mechanism is ρ-zCDP when its Rényi divergence of every order α > 1 between neighbours is
//! ≤ αρ. Facts used here:
//!
//! * the Gaussian mechanism with noise multiplier s = σ/Δ is 1/(2s²)-zCDP (BS16 Prop 1.6);
//! * an ε₀-DP mechanism (e.g. Laplace with scale b = Δ₁/ε₀) is ε₀²/2-zCDP (BS16 Prop 1.4);
//! * composition adds ρ (BS16 Lemma 1.7); parallel composition over disjoint parts takes the
//!   max; post-processing is free (BS16 Lemma 1.8);
//! * ρ-zCDP ⇒ (ε, δ)-DP with the exact conversion of Canonne, Kamath & Steinke 2020 ("The
//!   Discrete Gaussian for Differential Privacy", Cor 13):
//!   δ = inf_{α>1} exp((α−1)(αρ − ε))/(α−1) · (1 − 1/α)^α ([`zcdp_delta`]);
//!   and with the simpler, looser ε = ρ + 2√(ρ ln(1/δ)) (BS16 Prop 1.3, [`zcdp_epsilon_simple`]).
//!
//! The infimum is over a strictly convex function of α (its second derivative is
//! 2ρ + 1/(α(α−1))), so it is found by bisecting the sign of the derivative; every α gives a
//! valid bound, so the value at the computed α is a guarantee regardless of how close α is to
//! the minimizer. [`ZcdpAccountant`] prices event trees with these rules and refuses subsampling.

use crate::error::{
    invalid, require_nonnegative, require_positive, require_unit_open, Error, Result,
};
use crate::privacy::accountant::{Accountant, EpsilonReport};
use crate::privacy::special::{bisect_threshold, bracket_up};
use crate::privacy::{DpEvent, PrivacyLedger};

/// ρ of the Gaussian mechanism with noise multiplier s = σ/Δ: 1/(2s²) (BS16 Prop 1.6).
pub fn gaussian_rho(noise_multiplier: f64) -> Result<f64> {
    require_positive("noise_multiplier", noise_multiplier)?;
    Ok(0.5 / (noise_multiplier * noise_multiplier))
}

/// ρ of an ε₀-DP mechanism: ε₀²/2 (BS16 Prop 1.4).
pub fn pure_dp_rho(epsilon0: f64) -> Result<f64> {
    require_nonnegative("epsilon", epsilon0)?;
    Ok(0.5 * epsilon0 * epsilon0)
}

/// ρ of the sequential composition: Σ ρ_i (BS16 Lemma 1.7).
pub fn compose_rho(rhos: &[f64]) -> Result<f64> {
    for (i, &r) in rhos.iter().enumerate() {
        require_nonnegative(format_args!("rho[{i}]"), r)?;
    }
    Ok(rhos.iter().sum())
}

/// ln of the CKS20 bound at order α = 1 + β:
/// f(β) = β((1+β)ρ − ε) + β ln β − (1+β) ln(1+β), written without cancellation as
/// β((1+β)ρ − ε) − β ln(1 + 1/β) − ln(1 + β).
fn log_delta_at(rho: f64, epsilon: f64, beta: f64) -> f64 {
    // ln(1 + 1/β); for a subnormal β, 1/β overflows (and β·∞ would make f = −∞, a false
    // δ = 0), so it is written ln(1 + β) − ln β there.
    let inv = 1.0 / beta;
    let l = if inv.is_finite() {
        inv.ln_1p()
    } else {
        beta.ln_1p() - beta.ln()
    };
    beta * ((1.0 + beta) * rho - epsilon) - beta * l - beta.ln_1p()
}

/// (ln δ, optimal α) of the CKS20 Cor 13 conversion at ε, for ρ > 0.
fn log_delta_and_order(rho: f64, epsilon: f64) -> (f64, f64) {
    // f'(β) = ρ(1 + 2β) − ε − ln(1 + 1/β): increasing from −∞ (β → 0) to +∞.
    let up = |beta: f64| {
        let inv = 1.0 / beta;
        let l = if inv.is_finite() {
            inv.ln_1p()
        } else {
            beta.ln_1p() - beta.ln()
        };
        rho * (1.0 + 2.0 * beta) - epsilon - l >= 0.0
    };
    let Some((lo, hi)) = bracket_up(1.0, up) else {
        return (0.0, f64::INFINITY);
    };
    let hi = bisect_threshold(lo, hi, up);
    let below = f64::from_bits(hi.to_bits() - 1);
    let (fh, fb) = (
        log_delta_at(rho, epsilon, hi),
        if below > 0.0 {
            log_delta_at(rho, epsilon, below)
        } else {
            f64::INFINITY
        },
    );
    let (f, beta) = if fb < fh { (fb, below) } else { (fh, hi) };
    // Every order gives a valid bound; δ ≤ 1 always holds (β → 0 gives f → 0), and then no
    // order is optimal.
    if f > 0.0 {
        (0.0, f64::NAN)
    } else {
        (f, 1.0 + beta)
    }
}

/// ln δ(ε) for a ρ-zCDP mechanism by the exact infimum (CKS20 Cor 13); −∞ when ρ = 0.
pub fn zcdp_log_delta(rho: f64, epsilon: f64) -> Result<f64> {
    require_nonnegative("rho", rho)?;
    require_nonnegative("epsilon", epsilon)?;
    if rho == 0.0 {
        return Ok(f64::NEG_INFINITY);
    }
    Ok(log_delta_and_order(rho, epsilon).0)
}

/// δ(ε) = inf_{α>1} exp((α−1)(αρ − ε))/(α−1) · (1 − 1/α)^α for a ρ-zCDP mechanism (CKS20
/// Cor 13).
pub fn zcdp_delta(rho: f64, epsilon: f64) -> Result<f64> {
    Ok(zcdp_log_delta(rho, epsilon)?.exp())
}

/// The ε that order α alone proves at δ (CKS20 Prop 12 applied to the Rényi curve αρ):
/// ε_α = αρ + ln(1 − 1/α) + (ln(1/δ) − ln α)/(α − 1). Every α > 1 gives a valid ε; the
/// infimum over α is [`zcdp_epsilon`] (the tests check both ways of computing it agree).
pub fn zcdp_epsilon_at_order(rho: f64, delta: f64, alpha: f64) -> Result<f64> {
    require_nonnegative("rho", rho)?;
    require_unit_open("delta", delta)?;
    if !(alpha.is_finite() && alpha > 1.0) {
        return Err(invalid(
            "alpha",
            format!("must be finite and > 1, got {alpha}"),
        ));
    }
    let beta = alpha - 1.0;
    Ok((alpha * rho - (1.0 / beta).ln_1p() + (-delta.ln() - beta.ln_1p()) / beta).max(0.0))
}

/// (ε, optimal α) for a ρ-zCDP mechanism at δ: the smallest ε (to adjacent floats) with
/// [`zcdp_delta`] ≤ δ, and the order attaining the infimum there.
pub fn zcdp_epsilon_and_order(rho: f64, delta: f64) -> Result<(f64, f64)> {
    require_nonnegative("rho", rho)?;
    require_unit_open("delta", delta)?;
    if rho == 0.0 {
        return Ok((0.0, f64::INFINITY));
    }
    let ok = |eps: f64| log_delta_and_order(rho, eps).0.exp() <= delta;
    let eps = if ok(0.0) {
        0.0
    } else {
        let (lo, hi) = bracket_up(1.0, ok)
            .ok_or_else(|| Error::Unsupported("no finite ε reaches this δ".into()))?;
        bisect_threshold(lo, hi, ok)
    };
    Ok((eps, log_delta_and_order(rho, eps).1))
}

/// The smallest ε with δ(ε) ≤ δ for a ρ-zCDP mechanism (exact CKS20 conversion, bisection).
pub fn zcdp_epsilon(rho: f64, delta: f64) -> Result<f64> {
    Ok(zcdp_epsilon_and_order(rho, delta)?.0)
}

/// The simple conversion ε = ρ + 2√(ρ ln(1/δ)) (BS16 Prop 1.3): valid, never smaller than
/// [`zcdp_epsilon`].
pub fn zcdp_epsilon_simple(rho: f64, delta: f64) -> Result<f64> {
    require_nonnegative("rho", rho)?;
    require_unit_open("delta", delta)?;
    Ok(rho + 2.0 * (rho * (1.0 / delta).ln()).sqrt())
}

/// The zCDP accountant: Gaussian and Laplace mechanisms, composed sequentially or in parallel;
/// `Unsupported` for subsampling (zCDP is not amplified by subsampling in any closed form),
/// except the trivial q = 1.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZcdpAccountant;

impl ZcdpAccountant {
    /// The ρ of an event tree (validated first).
    pub fn rho(&self, event: &DpEvent) -> Result<f64> {
        event.validate()?;
        rho_of(event)
    }
}

fn rho_of(event: &DpEvent) -> Result<f64> {
    match event {
        DpEvent::Gaussian { noise_multiplier } => gaussian_rho(*noise_multiplier),
        // Laplace with scale b = s·Δ₁ is (1/s)-DP.
        DpEvent::Laplace { noise_multiplier } => pure_dp_rho(1.0 / noise_multiplier),
        DpEvent::SelfComposed { count, event } => Ok(rho_of(event)? * (*count as f64)),
        DpEvent::Composed(v) => {
            let rhos = v.iter().map(rho_of).collect::<Result<Vec<_>>>()?;
            compose_rho(&rhos)
        }
        DpEvent::ParallelComposed(v) => v
            .iter()
            .map(rho_of)
            .try_fold(0.0, |m, x| x.map(|x| f64::max(m, x))),
        DpEvent::PoissonSampled { q, event } if *q == 1.0 => rho_of(event),
        DpEvent::PostProcessing | DpEvent::NoOp => Ok(0.0),
        DpEvent::PoissonSampled { .. }
        | DpEvent::SampledWithoutReplacement { .. }
        | DpEvent::SampledWithReplacement { .. } => Err(Error::Unsupported(
            "zcdp: subsampled mechanisms have no closed-form zCDP parameter; use the rdp or pld \
             accountant"
                .into(),
        )),
    }
}

impl Accountant for ZcdpAccountant {
    fn name(&self) -> &'static str {
        "zcdp"
    }

    fn epsilon(&self, ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport> {
        require_unit_open("delta", delta)?;
        let rho = self.rho(&ledger.event)?;
        let (epsilon, alpha) = zcdp_epsilon_and_order(rho, delta)?;
        Ok(EpsilonReport {
            epsilon,
            delta,
            order: alpha.is_finite().then_some(alpha),
            accountant: self.name().into(),
        })
    }

    fn delta(&self, ledger: &PrivacyLedger, epsilon: f64) -> Result<f64> {
        require_nonnegative("epsilon", epsilon)?;
        let rho = self.rho(&ledger.event)?;
        zcdp_delta(rho, epsilon)
    }
}
