//! KLLW22 (front page written below).

pub mod calibration;
pub mod generalization;
pub mod instances;
pub mod stability;
pub mod tools;
