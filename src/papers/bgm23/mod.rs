//! BGM23: what this paper adds to the core (notation, bounds, schedules, calibrations, exact
//! constructions). Filled in by the per-paper move; see [`crate::papers`].

pub mod calibration;
pub mod schedules;
