//! # dpsaddle
//!
//! A reference implementation and correctness oracle for differentially private algorithms for
//! stochastic saddle-point problems (SSP) and stochastic variational inequalities (SVI), from five
//! papers (keys as in the README): BGM23, KLLW22, BGM24, ZTOH22, BG23.
//!
//! ## Following a paper item
//!
//! Start at the paper's front page in [`papers`]: [`papers::bgm23`], [`papers::kllw22`],
//! [`papers::bg23`], [`papers::bgm24`], [`papers::ztoh22`]. Each lists the paper's notation next
//! to the crate's names and every numbered item with links to the code that implements it and the
//! id of the claim that checks it. A claim id (`dpsaddle claims`) names its walk-through in
//! `proofs-notes/<key>.md`; errata have stable ids `E-<KEY>-n` defined in
//! `proofs-notes/errata.md`. Citations everywhere name the published item (`BGM23 Thm 12`,
//! `eq. (12)`, `proof of Lemma 19, step P.2`).
//!
//! ## Crate map
//!
//! The modules in dependency order (asserted by `tests/it/architecture.rs`): the core, then
//! [`papers`], then [`algorithms`] (with [`stability`], which measures them), then [`claims`],
//! then [`fixtures`], [`report`], [`config`] and the binary. A module uses only modules of its own
//! tier or earlier, so [`privacy`] knows no paper and no algorithm, and nothing but fixtures,
//! report, the binary and the tests uses [`claims`].
//!
//! | tier | module | what it holds |
//! |---|---|---|
//! | core | [`linalg`] | vectors with a fixed summation order; small dense matrices |
//! | core | [`geometry`] | norms, domains (ball, box, simplex, ℓp ball, product), projections, LMOs, mirror maps |
//! | core | [`rng`] | the reference randomness: ChaCha20 streams by label, sampling, recording and replay |
//! | core | [`exact`] | rationals, binomial / multinomial weights, dataset enumeration, the replace-one enumerator |
//! | core | [`problem`] | `SaddleFn`, `MonotoneOp`, datasets, finite distributions, regularizers, problem families |
//! | core | [`instances`] | the standard test instances shared by claims, tests and benches |
//! | core | [`oracle`] | counted gradient / operator evaluations |
//! | core | [`sampling`] | batch rules: which indices a stochastic step evaluates |
//! | core | [`gap`] | gap function, strong / weak / empirical gap, primal risk |
//! | core | [`solve`] | certified saddle-point solvers |
//! | core | [`privacy`] | paper-free: DpEvent ledger; RDP, PLD, GDP, zCDP and moments accountants; Gaussian calibration; the auditor core; the exact discrete Gaussian |
//! | core | [`error`] | the error type and the parameter validators |
//! | papers | [`papers`] | one folder per paper: notation, bounds and schedules (one function per formula, named after its item), privacy calibrations, exact constructions; the crate's one [`papers::Reading`] (literal / corrected) |
//! | algorithms | [`algorithms`] | one file per algorithm, generic and shared by the papers; validated constructors; typed run diagnostics; release-level audits |
//! | algorithms | [`stability`] | empirical uniform argument stability, sensitivity, output variance |
//! | claims | [`claims`] | the registry: one claim per paper item with its check and negative control; checks only |
//! | outer | [`fixtures`] | JSON test vectors: generation and strict checking |
//! | outer | [`report`] | the `verify` report |
//! | outer | [`config`] | `dpsaddle run` configurations |
//!
//! The claims registry ([`claims::registry`]) is the authoritative list of which paper item is
//! checked where: `dpsaddle claims` prints it.
//!
//! **The reference randomness is for reference and testing, not for releasing private data**:
//! floating-point Gaussian samplers are attackable (see [`rng`]).
#![deny(unsafe_code)]

pub mod algorithms;
pub mod claims;
pub mod config;
pub mod error;
pub mod exact;
pub mod fixtures;
pub mod gap;
pub mod geometry;
pub mod instances;
pub mod linalg;
pub mod oracle;
pub mod output;
pub mod papers;
pub mod privacy;
pub mod problem;
pub mod report;
pub mod rng;
pub mod sampling;
pub mod solve;
pub mod stability;

pub use error::{Error, Result};
