//! The accountant interface: price a [`PrivacyLedger`] as ε at a given δ or δ at a given ε, or
//! answer `Error::Unsupported`, never a guess; see `proofs-notes/privacy.md`.

use crate::error::{invalid, require_nonnegative, require_unit_open, Error, Result};
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

/// Is this error a refusal to price (as opposed to bad input)?
pub fn is_unsupported(e: &Error) -> bool {
    matches!(e, Error::Unsupported(_))
}

/// The accountants by command-line name.
pub const ACCOUNTANTS: &[&str] = &["pld", "rdp", "gdp", "zcdp", "moments"];

/// An accountant by name (`pld`, `rdp`, `gdp`, `zcdp`, `moments`), with its default settings.
pub fn by_name(name: &str) -> Result<Box<dyn Accountant>> {
    Ok(match name {
        "pld" => Box::new(crate::privacy::pld::PldAccountant::default()),
        "rdp" => Box::new(crate::privacy::rdp::RdpAccountant::default()),
        "gdp" => Box::new(crate::privacy::gdp::GdpAccountant),
        "zcdp" => Box::new(crate::privacy::zcdp::ZcdpAccountant),
        "moments" => Box::new(crate::privacy::moments::MomentsAccountant::default()),
        other => {
            return Err(invalid(
                "accountant",
                format!(
                    "unknown accountant `{other}`; known: {}",
                    ACCOUNTANTS.join(", ")
                ),
            ))
        }
    })
}

/// The smallest ε at δ over every accountant that supports the ledger (each is a valid upper
/// bound, so their minimum is too). `Unsupported`, listing every refusal, when none does; bad
/// input is reported as such, never masked as a refusal.
pub fn tightest_epsilon(ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport> {
    require_unit_open("delta", delta)?;
    ledger.event.validate()?;
    let mut best: Option<EpsilonReport> = None;
    let mut refusals = Vec::new();
    for name in ACCOUNTANTS {
        match by_name(name)?.epsilon(ledger, delta) {
            Ok(r) => {
                if best.as_ref().is_none_or(|b| r.epsilon < b.epsilon) {
                    best = Some(r);
                }
            }
            Err(e) if is_unsupported(&e) => refusals.push(format!("{name}: {e}")),
            Err(e) => return Err(e),
        }
    }
    best.ok_or_else(|| {
        Error::Unsupported(format!(
            "no accountant prices this event ({})",
            refusals.join("; ")
        ))
    })
}

/// The smallest δ at ε over every accountant that supports the ledger, with its name.
pub fn tightest_delta(ledger: &PrivacyLedger, epsilon: f64) -> Result<(f64, String)> {
    require_nonnegative("epsilon", epsilon)?;
    ledger.event.validate()?;
    let mut best: Option<(f64, String)> = None;
    let mut refusals = Vec::new();
    for name in ACCOUNTANTS {
        match by_name(name)?.delta(ledger, epsilon) {
            Ok(d) => {
                if best.as_ref().is_none_or(|b| d < b.0) {
                    best = Some((d, name.to_string()));
                }
            }
            Err(e) if is_unsupported(&e) => refusals.push(format!("{name}: {e}")),
            Err(e) => return Err(e),
        }
    }
    best.ok_or_else(|| {
        Error::Unsupported(format!(
            "no accountant prices this event ({})",
            refusals.join("; ")
        ))
    })
}
