//! # dpsaddle
//!
//! A reference implementation and correctness oracle for differentially private algorithms for
//! stochastic saddle-point problems (SSP) and stochastic variational inequalities (SVI), from five
//! papers (keys as in the README): BGM23, KLLW22, BGM24, ZTOH22, BG23.
//!
//! ## Crate map
//!
//! | module | what it holds | paper items |
//! |---|---|---|
//! | [`linalg`] | vectors with a fixed summation order; small dense matrices | — |
//! | [`geometry`] | norms, domains (ball, box, simplex, ℓp ball, product), projections, LMOs | BGM24 setups |
//! | [`rng`] | the reference randomness: ChaCha20 streams by label, sampling and replay | DESIGN "Randomness" |
//! | [`exact`] | rationals, binomial / multinomial weights, dataset enumeration, exact instances | BGM23 Lemma 2, Prop 13, Thm 15 |
//! | [`problem`] | `SaddleFn`, `MonotoneOp`, datasets, finite distributions, regularizers, families | BGM23 §2, eq. (4) |
//! | [`oracle`] | counted gradient / operator evaluations | BGM23 L100 |
//! | [`gap`] | gap function, strong / weak / empirical gap, primal risk | BGM23 eqs. (2)–(3), L92–L98 |
//! | [`solve`] | certified saddle-point solvers | BGM23 Lemma 3 (certificate → distance) |
//! | [`stability`] | empirical uniform argument stability, sensitivity, output variance | BGM23 Def 1, Lemma 2 |
//! | [`privacy`] | DpEvent ledger; RDP, PLD, GDP, zCDP, moments accountants; analytic calibration; auditor; exact discrete Gaussian; the papers' calibrations | BGM23 Thm 8, 12, 21–22, Cor 16; KLLW22 Thm 1; BG23 Props 3–10, Thm 1; BGM24 Lemma 9, Thm 6; ZTOH22 Algs 1–5 |
//! | [`algorithms`] | one file per algorithm | BGM23 Algorithm 1 (recursive regularization, its A_emp subroutines, Lemma 19 / Thm 18 path enumeration), eq. (4), App. C.1–C.2 (SGDA, noisy SGDA with the Thm 21 schedule), App. A.2 (LDP SGDA), Prop 13 (mode of halves), Thm 15 (regularized ERM); KLLW22 Algorithm 1 (DP-GDA) |
//! | [`claims`] | the registry: one claim per paper item, with negative controls; bound formulas no algorithm uses live beside their claims | all (`dpsaddle claims`); KLLW22 Thm 2's γ, Lemma 2, Remark 3, Thm 3 and Cor 1 (`claims::kllw22::{stability, high_probability, generalization}`) |
//! | [`config`] | `dpsaddle run` configurations | — |
//! | [`fixtures`] | JSON test vectors: generation and checking | — |
//! | [`report`] | the `verify` report | — |
//!
//! The claims registry ([`claims::registry`]) is the authoritative list of which paper item is
//! checked where: `dpsaddle claims` prints it.
//!
//! **The reference randomness is for reference and testing, not for releasing private data**:
//! floating-point Gaussian samplers are attackable (see [`rng`]).
#![forbid(unsafe_code)]

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
pub mod papers;
pub mod privacy;
pub mod problem;
pub mod report;
pub mod rng;
pub mod solve;
pub mod stability;

pub use error::{Error, Result};
