//! dpsaddle: skeleton (crate map filled in as modules land).
#![forbid(unsafe_code)]

pub mod error;
pub mod exact;
pub mod geometry;
pub mod linalg;
pub mod problem;
pub mod rng;

pub use error::{Error, Result};
