//! ZTOH22 claims (Zhang, Thekumparampil, Oh, He, NeurIPS 2022): the algorithms and base solvers,
//! then the analysis, then the rates. The walk-through is in `proofs-notes/ztoh22.md`; errata `E-ZTOH22-n` in
//! `proofs-notes/errata.md`.

pub mod algorithms;
pub mod analysis;
pub mod rates;

use crate::claims::Claim;

/// Every ZTOH22 claim, in the paper's order.
pub fn claims() -> Vec<Claim> {
    let mut v = algorithms::claims();
    v.extend(analysis::claims());
    v.extend(rates::claims());
    v
}
