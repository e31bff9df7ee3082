//! Problems: datasets, distributions, saddle functions and operators.
pub mod dataset;
pub mod distribution;
pub use dataset::Dataset;
