//! What each paper adds to the shared core: its notation, its bounds and schedules (one plain
//! function per formula, named after the item), its privacy calibrations and its exact
//! constructions. One folder per paper key; each folder's front page lists the paper's items with
//! links to the code and the claim of each.
//!
//! Dependency order (asserted by the `architecture` integration test): the core (`linalg`,
//! `geometry`, `rng`, `exact`, `problem`, `instances`, `oracle`, `gap`, `solve`, `stability`,
//! `privacy`) → `papers` → `algorithms` → `claims` → `fixtures`, `report`, `main`. A paper module
//! may use the core, never an algorithm or a claim.
//!
//! | key | paper |
//! |---|---|
//! | [`bgm23`] | Bassily, Guzmán, Menart. *Differentially Private Algorithms for the Stochastic Saddle Point Problem with Optimal Rates for the Strong Gap.* COLT 2023. |
//! | [`kllw22`] | Kang, Liu, Li, Wang. *Stability and Generalization of Differentially Private Minimax Problems.* arXiv 2022. |
//! | [`bg23`] | Boob, Guzmán. *Optimal algorithms for differentially private stochastic monotone variational inequalities and saddle-point problems.* Math. Programming 2023. |
//! | [`bgm24`] | Bassily, Guzmán, Menart. *Private Algorithms for Stochastic Saddle Points and Variational Inequalities: Beyond Euclidean Geometry.* NeurIPS 2024. |
//! | [`ztoh22`] | Zhang, Thekumparampil, Oh, He. *Bring Your Own Algorithm for Optimal Differentially Private Stochastic Minimax Optimization.* NeurIPS 2022. |

pub mod bg23;
pub mod bgm23;
pub mod bgm24;
pub mod calibration;
pub mod kllw22;
pub mod ztoh22;

use serde::{Deserialize, Serialize};

/// Which reading of a paper item to evaluate: exactly as printed, or with its erratum fixed
/// (the erratum is named, with its counterexample, in `proofs-notes/errata.md`). The one such
/// switch of the crate: every item with an erratum takes a `Reading`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// The statement, formula or constant exactly as the paper prints it.
    PaperLiteral,
    /// The statement the paper's own proof supports, as recorded in `proofs-notes/errata.md`.
    Corrected,
}

impl Reading {
    /// Both readings, literal first.
    pub const BOTH: [Reading; 2] = [Reading::PaperLiteral, Reading::Corrected];

    /// `paper_literal` or `corrected`, as in fixtures and reports.
    pub fn label(self) -> &'static str {
        match self {
            Reading::PaperLiteral => "paper_literal",
            Reading::Corrected => "corrected",
        }
    }
}
