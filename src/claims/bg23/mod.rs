//! BG23 claims (Boob and Guzmán, Math. Programming 2023), one module per part of the paper. The
//! walk-through of each item is in `proofs-notes/bg23.md`; errata `E-BG23-n` in
//! `proofs-notes/errata.md`.

pub mod general;
pub mod nispp;
pub mod nispp_gap;
pub mod nseg;
pub mod oe_lb;
pub mod stability;

use crate::claims::Claim;

/// Every BG23 claim, in the paper's order.
pub fn claims() -> Vec<Claim> {
    let mut v = general::claims();
    v.extend(nseg::claims());
    v.extend(stability::claims());
    v.extend(nispp::claims());
    v.extend(nispp_gap::claims());
    v.extend(oe_lb::claims());
    v
}
