//! The crate's error type. Bad input is reported, never panicked on (DESIGN "CLI").

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
