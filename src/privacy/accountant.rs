//! The accountant interface: price a [`PrivacyLedger`] as ε at a given δ or δ at a given ε, or
//! answer `Error::Unsupported`, never a guess (issue 3, DESIGN "privacy/").

use crate::error::{invalid, Error, Result};
use crate::privacy::PrivacyLedger;
use serde::{Deserialize, Serialize};

/// An (ε, δ) guarantee with the accountant that proved it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpsilonReport {
    /// ε.
    pub epsilon: f64,
    /// δ.
    pub delta: f64,
    /// The optimizing order (RDP, moments accountant), if any.
    pub order: Option<f64>,
    /// The accountant's name ("rdp", "pld", "moments", "gdp", "zcdp", ...).
    pub accountant: String,
}

/// An accountant: prices event trees under a neighbouring relation.
pub trait Accountant {
    /// Its short name (as on the command line).
    fn name(&self) -> &'static str;
    /// The smallest ε it can prove at δ, or `Unsupported`.
    fn epsilon(&self, ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport>;
    /// The smallest δ it can prove at ε, or `Unsupported`.
    fn delta(&self, ledger: &PrivacyLedger, epsilon: f64) -> Result<f64>;
}

/// Check δ ∈ (0, 1).
pub fn check_delta(delta: f64) -> Result<()> {
    if delta > 0.0 && delta < 1.0 {
        Ok(())
    } else {
        Err(invalid("delta", format!("must be in (0, 1), got {delta}")))
    }
}

/// Check ε ≥ 0 finite.
pub fn check_epsilon(epsilon: f64) -> Result<()> {
    if epsilon.is_finite() && epsilon >= 0.0 {
        Ok(())
    } else {
        Err(invalid(
            "epsilon",
            format!("must be finite and ≥ 0, got {epsilon}"),
        ))
    }
}

/// Is this error a refusal to price (as opposed to bad input)?
pub fn is_unsupported(e: &Error) -> bool {
    matches!(e, Error::Unsupported(_))
}
