//! The crate's error type. Bad input is reported, never panicked on; the CLI prints the message,
//! which names the offending field, and exits with code 2 (README, "Other commands").

use std::fmt;

/// Every fallible operation in the crate returns this error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input that violates a documented precondition; `field` names the offending field.
    #[error("invalid {field}: {msg}")]
    Invalid { field: String, msg: String },
    /// A request that the crate deliberately does not answer (e.g. an accountant that cannot price
    /// an event, a family without a closed-form best response).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A certified solver stopped without reaching its certificate.
    #[error("not certified: {0}")]
    NotCertified(String),
    /// A replayed noise tape did not match the draws requested.
    #[error("replay mismatch: {0}")]
    Replay(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// JSON that could not be parsed into the expected shape.
    #[error("{path}: {msg}")]
    Json { path: String, msg: String },
}

/// Shorthand used throughout the crate.
pub type Result<T> = std::result::Result<T, Error>;

/// Build an [`Error::Invalid`] naming `field`.
pub fn invalid(field: impl fmt::Display, msg: impl fmt::Display) -> Error {
    Error::Invalid {
        field: field.to_string(),
        msg: msg.to_string(),
    }
}

/// Check that every entry of `v` is finite, naming `field` otherwise.
pub fn require_finite(field: &str, v: &[f64]) -> Result<()> {
    match v.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(i) => Err(invalid(
            format!("{field}[{i}]"),
            format!("must be finite, got {}", v[i]),
        )),
    }
}

/// Check that `v` is finite and > 0, naming `field` otherwise.
pub fn require_positive(field: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be finite and > 0, got {v}")))
    }
}

/// Check that `v` ∈ (0, 1) (e.g. δ), naming `field` otherwise.
pub fn require_unit_open(field: &str, v: f64) -> Result<()> {
    if v > 0.0 && v < 1.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be in (0, 1), got {v}")))
    }
}

/// Check that a count is ≥ 1, naming `field` otherwise.
pub fn require_count(field: &str, v: u64) -> Result<()> {
    if v == 0 {
        Err(invalid(field, "must be ≥ 1"))
    } else {
        Ok(())
    }
}

/// Check that `v` is finite and ≥ 0, naming `field` otherwise (`field` is formatted only on
/// error, so `format_args!("mu[{i}]")` costs nothing in a loop).
pub fn require_nonnegative(field: impl fmt::Display, v: f64) -> Result<()> {
    if v.is_finite() && v >= 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be finite and ≥ 0, got {v}")))
    }
}

/// Check that `v` ∈ (0, 1] (e.g. a sampling rate q), naming `field` otherwise.
pub fn require_fraction(field: impl fmt::Display, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 && v <= 1.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be in (0, 1], got {v}")))
    }
}
