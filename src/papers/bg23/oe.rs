//! BG23 App. B: operator extrapolation's step rules, its linear rate and iteration counts (literal and corrected).
//!
//! Minimal content written by the NISPP part for Remark 3 (1)'s corrected count (the App. B
//! part owns this file; the lead reconciles): the corrected rate of Algorithm 3 after T
//! iterations, ‖z_{T+1} − w*‖² ≤ (2κ/(2κ − 1))·κ^{−T}·‖z₁ − w*‖², and the count it implies.

/// The factor 2κ/(2κ − 1) ∈ (1, 2] (κ ≥ 1) of App. B's corrected rate.
pub fn appb_rate_corrected_factor(kappa: f64) -> f64 {
    2.0 * kappa / (2.0 * kappa - 1.0)
}

/// The fewest iterations T with (2κ/(2κ − 1))·κ^{−T}·(D/ζ)² ≤ 1, i.e. the count that makes
/// ‖z_{T+1} − w*‖ ≤ ζ from ‖z₁ − w*‖ ≤ D by the corrected rate:
/// ⌈(2 ln(D/ζ) + ln(2κ/(2κ − 1)))/ln κ⌉ (at least 1; κ > 1).
pub fn appb_count_corrected(kappa: f64, d_over_zeta: f64) -> usize {
    let t = (2.0 * d_over_zeta.ln() + appb_rate_corrected_factor(kappa).ln()) / kappa.ln();
    t.ceil().max(1.0) as usize
}
