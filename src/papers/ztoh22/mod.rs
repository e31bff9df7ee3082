//! ZTOH22: Zhang, Thekumparampil, Oh, He, *Bring Your Own Algorithm for Optimal Differentially
//! Private Stochastic Minimax Optimization*, NeurIPS 2022.
//!
//! The paper privatizes any fast non-private solver by (phased) output perturbation: solve a
//! regularized finite-sum problem to high accuracy, then add Gaussian noise calibrated to the
//! stability of its exact solution. What the crate has of it so far are its privacy calibrations,
//! in [`calibration`], priced by the paper-free [`crate::privacy::calibration`].
//!
//! # Notation
//!
//! | ZTOH22 | meaning | crate |
//! |---|---|---|
//! | S = {ξ_i}, (S, S′) neighbouring | dataset, neighbours differ in one entry (Def 1) | [`crate::problem::Dataset`], replace-one ([`crate::privacy::Neighbouring::ReplaceOne`]) |
//! | L | Lipschitz constant of f(·; ξ) | `l` (the core's L) |
//! | ℓ | smoothness of f(·; ξ) | — |
//! | μ, μ_x, μ_y | strong convexity (concavity) moduli; μ := min{μ_x, μ_y} in Algorithm 3 | `mu`, `mu_x`, `mu_y` |
//! | μ_k = μ·2^k | the regularization of phase k | — (phase 1 shown: `2·mu`) |
//! | K = log(n), n̄ = n/K | phases and their sizes | [`calibration::phases`] (K = ⌊log₂ n⌋, n̄ = ⌊n/K⌋) |
//! | Δ_A | sensitivity of an algorithm (Def 2) | [`crate::privacy::calibration::Calibration::sensitivity`] |
//! | σ, σ_k, σ_x, σ_y | noise standard deviations | `sigma` |
//! | (ε, δ), ε ∈ (0, 1) | privacy parameters (§2.1) | `epsilon`, `delta` |
//! | x, y; X, Y; D | primal and dual variables, domains, their radius | w, θ; the problem's domains |
//!
//! # Items
//!
//! The analysis claims are in `claims::ztoh22::analysis`; the calibrations are tested in `tests/it/privacy_papers.rs`
//! (`output_perturbation_items_hold`) and tabulated in `proofs-notes/privacy.md`.
//!
//! | item | content | code | claim |
//! |---|---|---|---|
//! | Definition 1 | neighbouring datasets | [`crate::privacy::Neighbouring::ReplaceOne`] | — |
//! | Definition 2 | the Gaussian mechanism for an algorithm of sensitivity Δ_A | calibration: [`calibration::def2_sigma`] | — |
//! | Lemma 2.1 | basic composition | calibration: [`crate::privacy::DpEvent::Composed`] (used by [`calibration::alg3`], [`calibration::alg4_5`]) | — |
//! | Algorithm 1 | output perturbation for strongly convex minimization | calibration: [`calibration::alg1`] | — |
//! | Assumption 3.1 | L-Lipschitz, ℓ-smooth, convex losses | constants of the instances (claims) | `ztoh22.assumptions` |
//! | Assumption 3.2 | and μ-strongly convex | constants of the instances (claims) | `ztoh22.assumptions` |
//! | Algorithm 2 | phased output perturbation for convex minimization | calibration: [`calibration::alg2`], [`calibration::phases`] | — |
//! | Thm 3.3 | privacy and risk of Algorithm 1 (printed "Algorithm 2") | [`bounds::thm33_empirical`], [`bounds::thm33_population`], [`bounds::thm33_empirical_reading`] | `ztoh22.thm33`, `ztoh22.thm33_failure` (E-ZTOH22-20), `ztoh22.rate_sc` |
//! | Remark 1 | solver accuracy of fast finite-sum methods | not yet implemented | — |
//! | Thm 3.4 | risk in the convex setting | [`bounds::thm34`], [`bounds::thm34_mu`] | `ztoh22.thm34` (not checkable; sub-check), `ztoh22.rate_sco` (its rate in n, Monte Carlo), `ztoh22.rate_sco_eps` (its rate in ε in μ's privacy branch, Monte Carlo) |
//! | Remark 2 | total gradient complexity of Algorithm 2 | [`bounds::remark2_sum_inv_mu`], [`bounds::remark2_svrg_work`] | `ztoh22.remark2` |
//! | Algorithm 3 | output perturbation for SC-SC minimax problems | calibration: [`calibration::alg3`] | — |
//! | Assumption 4.1 | L-Lipschitz, ℓ-smooth, convex-concave losses | constants of the instances (claims) | `ztoh22.assumptions` |
//! | Assumption 4.2 | and μ_x-strongly convex, μ_y-strongly concave | constants of the instances (claims) | `ztoh22.assumptions` |
//! | Thm 4.3 | privacy and risk of Algorithm 3 | [`bounds::thm43_empirical`], [`bounds::thm43_population`], [`bounds::thm43_empirical_failure_term`] | `ztoh22.thm43`, `ztoh22.thm43_failure` (E-ZTOH22-21), `ztoh22.rate_scsc` |
//! | Remark 3 | solver accuracy for finite-sum saddle points | not yet implemented | — |
//! | Lemma 4.4 | stability of the regularized saddle point | [`bounds::lemma44_stability`], [`bounds::lemma44_generalization`] | `ztoh22.lemma44` |
//! | Algorithm 4 | phased output perturbation for convex-concave problems (primal) | calibration: [`calibration::alg4_5`] | — |
//! | Algorithm 5 (App. B) | the same for the dual variables | calibration: [`calibration::alg4_5`] | — |
//! | Thm 4.5 | privacy and risk of Algorithms 4 and 5 | [`bounds::thm45`], [`bounds::thm45_mu`] | `ztoh22.thm45` (not checkable: vacuous; sub-check), `ztoh22.rate_cc` (its rate in n̄, and in ε in μ's statistical branch), `ztoh22.rate_cc_eps` (its rate in ε in μ's privacy branch) |
//! | Remark 4 | choice of the solver's parameters | not yet implemented | — |
//! | Remark 5 | near-linear time | [`bounds::remark5_condition_bound`] | `ztoh22.remark5` (E-ZTOH22-24) |
//! | eqs. (1)–(2) | problems, saddle points, gaps | [`crate::gap::expected_gaussian`] | `ztoh22.eq1_2` |
//! | Lemma A.2 (reconstructed) | ERM stability 2L/(μn) | [`bounds::lemma_a2_stability`] | `ztoh22.lemmaA2` |
//! | Table 1 | rates and complexities | [`bounds::thm43_condition`] | `ztoh22.table1` (not checkable; sub-check) |

pub mod bounds;
pub mod calibration;
pub mod instances;
pub mod schedules;
