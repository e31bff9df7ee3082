//! BGM24: Bassily, Guzmán, Menart, *Private Algorithms for Stochastic Saddle Points and
//! Variational Inequalities: Beyond Euclidean Geometry*, NeurIPS 2024.
//!
//! The paper extends BGM23's recursive regularization to ℓp/ℓq geometries (saddle points) and to
//! stochastic variational inequalities, with DP stochastic mirror prox (Algorithm 2) as the
//! empirical subroutine. What the crate has of it so far are its privacy calibrations, in
//! [`calibration`], priced by the paper-free [`crate::privacy::calibration`].
//!
//! # Notation
//!
//! | BGM24 | meaning | crate |
//! |---|---|---|
//! | S, n, n′ = n/log(n) | dataset, its size, the size of one round's part | [`crate::problem::Dataset`]; `n`, `n_prime` |
//! | W ⊂ ℝ^{d_w}, Θ ⊂ ℝ^{d_θ}, Z = W×Θ | domains | the problem's domains; `d_w`, `d_theta` |
//! | ‖·‖_p̄, ‖·‖_q̄; p*, q* | the norms on W and Θ; their dual exponents p̄/(p̄ − 1), q̄/(q̄ − 1) | `p_star`, `q_star` of [`calibration::Thm4Setup`] |
//! | B_w, B_θ; L_w, L_θ | diameters; blockwise Lipschitz constants | `bl_w` = B_wL_w, `bl_theta` = B_θL_θ |
//! | L | joint Lipschitz constant (the core's L) | `l` |
//! | κ, κ̃ | max{1/(p̄ − 1), 1/(q̄ − 1)}; 1 + 1{p < 2 ∨ q < 2}·log d | `kappa`, `kappa_tilde` |
//! | ψ, η | distance-generating function, step size of mirror prox | — |
//! | T, m | mirror-prox iterations, minibatch size | [`calibration::MirrorProxParams`] |
//! | σ_w, σ_θ, σ_t | noise standard deviations | `sigma_w`, `sigma_theta`, `sigma` |
//! | λ, t | regularization, round of recursive regularization | `lambda`, `t` |
//! | c | an unnamed universal constant | `c`, made concrete by [`calibration::thm4_c_required`], [`calibration::thm4_c_refuted`] |
//!
//! # Items
//!
//! BGM24 has no claims yet; the calibrations are tested in `tests/it/privacy_papers.rs` and
//! tabulated in `proofs-notes/privacy.md`.
//!
//! | item | content | code | claim |
//! |---|---|---|---|
//! | Fact 1 | Lipschitzness of the SP gap | not yet implemented | — |
//! | Definition 1 | uniform argument stability | not yet implemented | — |
//! | Lemma 1 | stability of the regularized saddle point | not yet implemented | — |
//! | Algorithm 1 | recursive regularization for SSP | not yet implemented | — |
//! | Definition 2 | α̂-relative accuracy | not yet implemented | — |
//! | Theorem 1 | strong gap of recursive regularization (SSP) | not yet implemented | — |
//! | Lemma 2 | generalization of the gap | not yet implemented | — |
//! | Algorithm 2 | stochastic mirror prox | calibration: its two oracle calls per iteration in [`calibration::thm4`] | — |
//! | Lemma 3 | a DP algorithm with α̂-relative accuracy | calibration: via [`calibration::thm4`] | — |
//! | Corollary 1 | the resulting DP-SSP algorithm | not yet implemented | — |
//! | Algorithm 3 | recursive regularization for SVIs | not yet implemented | — |
//! | Assumption 1 | the regularizing operator | not yet implemented | — |
//! | Theorem 2 | strong VI gap of recursive regularization | not yet implemented | — |
//! | Definition 3 | α̂-relative stationarity | not yet implemented | — |
//! | Lemma 4 | generalization for SVIs | not yet implemented | — |
//! | Corollary 2 | the resulting DP-SVI algorithm | not yet implemented | — |
//! | Facts 2–6 | auxiliary facts (appendix) | not yet implemented | — |
//! | Lemma 5 | stability of the regularized equilibrium, 2L/(μλn) | not yet implemented | — |
//! | Lemma 6 | restatement of Lemma 2 | not yet implemented | — |
//! | Theorem 3, Lemma 7 | convergence of Algorithm 1 | not yet implemented | — |
//! | Lemma 8 | general guarantee of stochastic mirror prox | not yet implemented | — |
//! | Lemma 9 | moments-accountant restatement (as BGM23 Thm 22) | calibration: [`calibration::lemma9`] | — |
//! | Theorem 4 | DP stochastic mirror prox in ℓp/ℓq | calibration: [`calibration::thm4`], [`calibration::thm4_c_required`], [`calibration::thm4_c_refuted`] | — |
//! | Assumption 2 | the regularizing operator (SVI) | not yet implemented | — |
//! | Theorem 5, Lemma 10 | convergence of Algorithm 3 | not yet implemented | — |
//! | Lemma 11 | accelerated solver for the regularized SVI | not yet implemented | — |
//! | Theorem 6 | near-linear-time DP-SVI by output perturbation | calibration: [`calibration::thm6_sigma`], [`calibration::thm6`] | — |
//! | Lemma 12 | a linear instance where the VI gap is an optimality gap | not yet implemented | — |
//! | Theorem 7 | lower bound (from [11, Thm 7.1]) | not yet implemented | — |
//! | eqs. (1)–(20) | the numbered displays | not yet implemented | — |

pub mod calibration;
