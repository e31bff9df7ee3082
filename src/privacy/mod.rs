//! Privacy: mechanisms, calibration and the DpEvent ledger (DESIGN "privacy/").
//!
//! This foundation holds the event vocabulary every private algorithm returns with its output and
//! the classic Gaussian calibration; accountants that price an event tree (RDP, PLD, zCDP, GDP,
//! moments accountant) and the analytic calibration are the privacy layer's (issue 3).

pub mod accountant;
pub mod analytic;
pub mod audit;
pub mod calibration;
pub mod composition;
pub mod discrete_gaussian;
pub mod event;
pub mod gdp;
pub mod moments;
pub mod pld;
pub mod rdp;
pub mod replacement;
pub mod special;
pub mod zcdp;

pub use event::{DpEvent, Neighbouring, PrivacyLedger};

use crate::error::{require_nonnegative, require_positive, require_unit_open, Result};

/// Validate (ε, δ): ε > 0 finite, δ ∈ (0, 1).
pub fn validate_eps_delta(epsilon: f64, delta: f64) -> Result<()> {
    require_positive("epsilon", epsilon)?;
    require_unit_open("delta", delta)
}

/// The classic Gaussian mechanism's noise scale σ = Δ·√(2 ln(1.25/δ))/ε (Dwork–Roth Thm A.1),
/// which gives (ε, δ)-DP for ε ≤ 1; for ε > 1 the formula is returned but not a guarantee (the
/// caller's ledger prices the mechanism by its noise multiplier σ/Δ instead).
pub fn classic_gaussian_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> Result<f64> {
    validate_eps_delta(epsilon, delta)?;
    require_nonnegative("sensitivity", sensitivity)?;
    Ok(sensitivity * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon)
}
