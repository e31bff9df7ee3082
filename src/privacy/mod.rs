//! Privacy: the paper-free accountant layer, in the spirit of Google's
//! dp_accounting: an event vocabulary ([`event`]: what a release does, under which neighbouring
//! relation), accountants that price an event tree ([`rdp`], [`pld`], [`zcdp`], [`gdp`],
//! [`moments`], [`composition`], behind the [`accountant`] interface), calibration ([`analytic`],
//! [`classic_gaussian_sigma`], and [`calibration`], which prices a noise calibration against the
//! (ε, δ) it claims, with [`replacement`] for sampling with replacement), the empirical auditor
//! core ([`audit`]) and exact mechanisms ([`discrete_gaussian`]).
//!
//! Nothing here knows a paper or an algorithm: the papers' calibrations are in
//! `papers::<key>::calibration`, and the audits of algorithm releases and the discrete-Gaussian
//! output perturbation sit next to the algorithms (`algorithms::release_audit`,
//! `algorithms::discrete_output_perturbation`).

pub mod accountant;
pub mod analytic;
pub mod audit;
pub mod calibration;
pub mod chi_square;
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
    require_delta("delta", delta)
}

/// δ ∈ (0, 1) and a normal float (≥ `f64::MIN_POSITIVE` ≈ 2.2e-308): below that, 1/δ overflows
/// and the calibrations cannot answer, so a subnormal δ is refused rather than searched for.
pub fn require_delta(field: &str, delta: f64) -> Result<()> {
    require_unit_open(field, delta)?;
    if delta < f64::MIN_POSITIVE {
        return Err(crate::error::invalid(
            field,
            format!(
                "{delta:e} is subnormal; the smallest δ answered is f64::MIN_POSITIVE = {:e}",
                f64::MIN_POSITIVE
            ),
        ));
    }
    Ok(())
}

/// The classic Gaussian mechanism's noise scale σ = Δ·√(2 ln(1.25/δ))/ε (Dwork–Roth Thm A.1),
/// which gives (ε, δ)-DP for ε ≤ 1; for ε > 1 the formula is returned but not a guarantee (the
/// caller's ledger prices the mechanism by its noise multiplier σ/Δ instead).
pub fn classic_gaussian_sigma(sensitivity: f64, epsilon: f64, delta: f64) -> Result<f64> {
    validate_eps_delta(epsilon, delta)?;
    require_nonnegative("sensitivity", sensitivity)?;
    Ok(sensitivity * (2.0 * (1.25 / delta).ln()).sqrt() / epsilon)
}
