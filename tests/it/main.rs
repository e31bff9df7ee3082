//! The integration tests, gathered into one test binary so the crate is linked once (one module
//! per paper plus the core, privacy, fixtures and command-line modules).

mod architecture;
mod bg23_gen;
mod bg23_nispp;
mod bg23_nseg;
mod bg23_oelb;
mod bgm23_noisy;
mod bgm23_recursive;
mod bgm23_section5;
mod bgm23_sgda;
mod cli;
mod common;
mod core_api;
mod exact;
mod fixtures;
mod geometry;
mod kllw22;
mod kllw22_tools;
mod noise_ledger;
mod privacy_audit;
#[allow(clippy::excessive_precision, clippy::approx_constant)]
mod privacy_closed_forms;
mod privacy_papers;
mod privacy_pld;
mod privacy_rdp;
mod rng_vectors;
mod robust;
mod vi_engine;
mod vi_ops;
mod vi_solve;
mod ztoh22_alg;
mod ztoh22_anal;
