//! BG23: Boob & Guzmán, *Optimal algorithms for differentially private stochastic monotone
//! variational inequalities and saddle-point problems*, Math. Programming Ser. A, 2023.
//!
//! The paper solves stochastic variational inequalities (SVI) with a monotone operator
//! F(w) = E_β[F_β(w)] on a compact convex W ⊂ ℝᵈ, and saddle-point problems (SSP) through their
//! operator F_β(x, y) = (∇ₓf_β, −∇_y f_β), under (ε, η)-DP, by two noisy methods: NSEG (noisy
//! stochastic extragradient, Algorithm 1) and NISPP (noisy inexact stochastic proximal point,
//! Algorithm 2, its subproblems solved by operator extrapolation, Algorithm 3). What the crate
//! has of it so far are its privacy calibrations, in [`calibration`], priced by the paper-free
//! [`crate::privacy::calibration`].
//!
//! # Notation
//!
//! | BG23 | meaning | crate |
//! |---|---|---|
//! | S = (β₁, …, β_n), S ≃ S′ | dataset, neighbours differ in one entry | [`crate::problem::Dataset`], replace-one ([`crate::privacy::Neighbouring::ReplaceOne`]) |
//! | W, D | compact convex domain, its diameter | the problem's domain; `diameter` |
//! | F_β ∈ M¹_W(L, M) | monotone, L-Lipschitz, M-bounded operator | — |
//! | M | bound on ‖F_β‖ (for SSP: the Lipschitz constant of f_β) | `m_bound` (the core's L, Lipschitz constant of f, is BG23's M) |
//! | L | Lipschitz constant of the operator (smoothness of f_β) | `lipschitz` in [`calibration::cor2`] and [`calibration::thm7`] (not the core's L) |
//! | (ε, η) | the privacy parameters (BG23 writes η for δ) | `epsilon`, `eta` (a `delta` elsewhere) |
//! | s | ℓ2-sensitivity of one released query | `s`, [`crate::privacy::calibration::Calibration::sensitivity`] |
//! | B_t, B | batch size | `batch` |
//! | T, K | iterations of NSEG, of NISPP | `iterations`, `k` |
//! | σ_t, σ_{k+1} | noise standard deviation of one release | `sigma` |
//! | γ_t, λ_k, ν | step size, proximal regularization, inexactness of the prox step | `lambda` (λ_k, λ₀) |
//! | m | batch size in Thm 1's moments-accountant summary | `m` |
//!
//! # Items
//!
//! Claims are checked by `dpsaddle verify --paper BG23`; the derivations behind the calibrations
//! and errata `E-BG23-P1`, `E-BG23-P2`, `E-BG23-P3`, `E-BG23-P5` are in `proofs-notes/privacy.md`.
//!
//! | item | content | code | claim |
//! |---|---|---|---|
//! | (VI(F)), (SP(f)) | the SVI and SSP problems | not yet implemented | — |
//! | eqs. (1.1)–(1.5) | strong and weak gaps of VI and SP | not yet implemented | — |
//! | Definition 1 | uniform argument stability | not yet implemented | — |
//! | Prop 1 | stability ⇒ weak-gap generalization (SSP) | not yet implemented | — |
//! | Prop 2 | stability ⇒ weak-gap generalization (SVI) | not yet implemented | — |
//! | Prop 3 | the Gaussian mechanism, σ² = 2s² ln(1/η)/ε² | calibration: [`calibration::prop3_sigma`], [`calibration::prop3`] | `bg23.prop3_privacy` |
//! | Prop 4 | parallel composition | calibration: [`crate::privacy::DpEvent::ParallelComposed`] (used by [`calibration::prop5`], [`calibration::prop10`]) | — |
//! | Thm 1 | moments-accountant summary for sampled Gaussian releases | calibration: [`calibration::thm1`], [`calibration::thm1_calibration`] | — (erratum E-BG23-P3, tested in `tests/it/privacy_papers.rs`) |
//! | footnote 4 | Poisson analysis transferred to uniform sampling | calibration: a [`crate::papers::calibration::Condition`] of [`calibration::thm1`] | — |
//! | Algorithm 1 | NSEG | [`crate::algorithms::nseg::Nseg`] | `bg23.alg1` |
//! | Thm 2 | convergence of NSEG | [`nseg::thm2_k0`], [`nseg::thm2_bound`] | `bg23.thm2` |
//! | Prop 5 | privacy of single-pass NSEG, σ_t² = 8M²/B_t²·ln(1/η)/ε² | calibration: [`calibration::prop5_sigma`], [`calibration::prop5`] | `bg23.prop5`, `bg23.noise_ledger_nseg` |
//! | Cor 1 | risk of single-pass NSEG | [`nseg::cor1_policy`], [`nseg::cor1_bound`] | `bg23.cor1` (erratum E-BG23-20), `bg23.rate_nseg_single` |
//! | Remark 1 | when Cor 1's gap is nontrivial | [`nseg::remark1_terms`] | `bg23.remark1` |
//! | Prop 6 | near nonexpansiveness of the extragradient operator | not yet implemented | — |
//! | Lemma 1 | expansion of the extragradient iteration | not yet implemented | — |
//! | Lemma 2 | stability of two extragradient trajectories | not yet implemented | — |
//! | Thm 3 | uniform argument stability of NSEG | not yet implemented | — |
//! | eq. (4.16) | sampled-with-replacement NSEG operators | [`crate::algorithms::nseg::NsegVariant`], the ledger of [`calibration::prop7`] | `bg23.eq4_16` |
//! | Prop 7 | privacy of sampled-with-replacement NSEG, σ_t² = 8M² log(1/η)/ε² | calibration: [`calibration::prop7_sigma`], [`calibration::prop7`] | `bg23.prop7_privacy` |
//! | Thm 4 | excess risk of sampled-with-replacement NSEG (T = n²) | [`nseg::thm4_policy`], [`nseg::thm4_explicit`], [`nseg::thm4_bound`] | `bg23.thm4`, `bg23.prop7_privacy` |
//! | Remark 2 | Thm 4's simplified bound | [`nseg::remark2`] | `bg23.thm4` |
//! | Table 1 (NSEG row) | evaluation counts n and n² | [`crate::algorithms::nseg::Nseg::evaluations`] | `bg23.table1_nseg` (erratum E-BG23-24) |
//! | Algorithm 2 | NISPP | not yet implemented | — |
//! | Prop 8 | NISPP's averaged iterate | not yet implemented | — |
//! | Thm 5 | convergence of single-pass NISPP | not yet implemented | — |
//! | Prop 9 | sensitivity 4M/(λ_kB_{k+1}) of NISPP's updates | calibration: the sensitivity in [`calibration::prop10`] | — |
//! | Prop 10 | privacy of NISPP, σ²_{k+1} = 32M²/(λ_k²B²_{k+1})·ln(1/η)/ε² | calibration: [`calibration::prop10_sigma`], [`calibration::prop10`] | — |
//! | Cor 2 | single-pass NISPP, B = n^{1/3} | calibration: [`calibration::cor2`] | — (erratum E-BG23-P5, tested in `tests/it/privacy_papers.rs`) |
//! | Remark 3 | remarks on NISPP | not yet implemented | — |
//! | Lemma 3 | stability of two NISPP trajectories | not yet implemented | — |
//! | Thm 6 | uniform argument stability of sampled-with-replacement NISPP | not yet implemented | — |
//! | Remark 4 | high-probability stability needs enough iterations | not yet implemented | — |
//! | Thm 7 | multi-pass NISPP, K = n, B = √n | calibration: [`calibration::thm7`] | — |
//! | Prop 11 | lower bound for DP-SSP | not yet implemented | — |
//! | Lemma 4 | resampling reduction | not yet implemented | — |
//! | Prop 12 | lower bound for DP empirical VI | not yet implemented | — |
//! | Thm 8 | lower bound for DP-SVI | not yet implemented | — |
//! | Algorithm 3 (App. B) | operator extrapolation | not yet implemented | — |
//! | eqs. (2.1)–(5.22), (A.1) | the other numbered displays | not yet implemented | — |

pub mod calibration;
pub mod generalization;
pub mod lower_bounds;
pub mod nispp;
pub mod nseg;
pub mod oe;
pub mod stability;
