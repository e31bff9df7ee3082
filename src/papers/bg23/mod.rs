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
//! | (VI(F)), (SP(f)) | the SVI and SSP problems | [`crate::problem::monotone::MonotoneOp`], [`crate::problem::SaddleFn`] | `bg23.eq1_1_1_2` |
//! | eqs. (1.1)–(1.2), (2.3) | strong, weak (seeds outside) and empirical VI gaps | [`crate::gap::vi::strong_vi_gap`], [`crate::gap::vi::weak_vi_gap_bg23`], [`crate::gap::vi::empirical_vi_gap`] | `bg23.eq1_1_1_2` |
//! | eqs. (1.3)–(1.4), (2.2) | strong and weak (seeds outside) SP gaps, empirical SP gap | [`crate::gap::strong_gap`], [`crate::gap::weak_gap_bg23`], [`crate::gap::gap_function`] | `bg23.eq1_3_1_4` |
//! | eq. (1.5) | DP | the privacy ledgers | (through the privacy claims) |
//! | eq. (2.1) | the operator associated with f_β | [`crate::problem::monotone::SaddleOperator`] | `bg23.eq2_1` |
//! | §2.1 | max-type and compositional examples | [`examples::compositional_convex_concave`] | `bg23.examples_2_1`, `bg23.examples_2_1_compositional` (erratum E-BG23-9) |
//! | §2, M¹_W(L, M) | the operator class | [`crate::problem::monotone::DataAffineOp::rot_iso`] constants | `bg23.operator_class` |
//! | Definition 1 | uniform argument stability | [`generalization::uas_enumerated`] | `bg23.def1` |
//! | Prop 1 | stability ⇒ weak-gap generalization (SSP) | [`generalization::prop1_rhs`] | `bg23.prop1` |
//! | Prop 2 | stability ⇒ weak-gap generalization (SVI) | [`generalization::prop2_rhs`] | `bg23.prop2` |
//! | Prop 3 | the Gaussian mechanism, σ² = 2s² ln(1/η)/ε² | calibration: [`calibration::prop3_sigma`], [`calibration::prop3`] | `bg23.prop3_privacy` |
//! | Prop 4 | parallel composition | calibration: [`crate::privacy::DpEvent::ParallelComposed`] (used by [`calibration::prop5`], [`calibration::prop10`]) | `bg23.prop4` |
//! | Thm 1 | moments-accountant summary for sampled Gaussian releases | calibration: [`calibration::thm1`], [`calibration::thm1_calibration`] | `bg23.thm1_privacy` (erratum E-BG23-P3) |
//! | footnote 4 | Poisson analysis transferred to uniform sampling | calibration: a [`crate::papers::calibration::Condition`] of [`calibration::thm1`] | — |
//! | Algorithm 1 | NSEG | [`crate::algorithms::nseg::Nseg`] | `bg23.alg1` |
//! | Thm 2 | convergence of NSEG | [`nseg::thm2_k0`], [`nseg::thm2_bound`] | `bg23.thm2` |
//! | Prop 5 | privacy of single-pass NSEG, σ_t² = 8M²/B_t²·ln(1/η)/ε² | calibration: [`calibration::prop5_sigma`], [`calibration::prop5`] | — |
//! | Cor 1 | risk of single-pass NSEG | [`nseg::cor1_policy`], [`nseg::cor1_bound`] | `bg23.cor1` (erratum E-BG23-20), `bg23.rate_nseg_single`, `bg23.rate_nseg_single_eps` |
//! | Remark 1 | when Cor 1's gap is nontrivial | [`nseg::remark1_terms`] | `bg23.remark1` |
//! | eqs. (4.1)–(4.2) | R_s and the resolvent R | [`stability::r_s`], [`stability::r_resolvent`] | `bg23.eq4_1_4_2` |
//! | Prop 6 | near nonexpansiveness of the extragradient operator | [`stability::prop6_eq4_3_rhs`], [`stability::prop6_eq4_4_rhs`] | `bg23.prop6` |
//! | Lemma 1 | expansion of the extragradient iteration | [`stability::lemma1_eq4_5_rhs`], [`stability::lemma1_eq4_6_rhs`] | `bg23.lemma1` |
//! | Lemma 2 | stability of two extragradient trajectories | [`stability::lemma2_nu_step`], [`stability::lemma2_eq4_10_rhs`] | `bg23.lemma2` |
//! | Thm 3 | uniform argument stability of NSEG | [`stability::thm3_rhs`] (E-BG23-3) | `bg23.thm3`, `bg23.thm3_empirical` |
//! | proof of Thm 3, (4.15) | high-probability noise bound | [`stability::eq4_15_threshold`] (E-BG23-2) | `bg23.thm3_hp` |
//! | eq. (4.16) | sampled-with-replacement NSEG operators | calibration: the ledger of [`calibration::prop7`] | — |
//! | Prop 7 | privacy of sampled-with-replacement NSEG, σ_t² = 8M² log(1/η)/ε² | calibration: [`calibration::prop7_sigma`], [`calibration::prop7`] | `bg23.prop7_privacy` |
//! | Thm 4 | excess risk of sampled-with-replacement NSEG (T = n²) | calibration: [`calibration::prop7`] (its schedule) | `bg23.prop7_privacy`, `bg23.thm4`, `bg23.rate_nseg_multi`, `bg23.rate_nseg_multi_eps` |
//! | Remark 2 | Thm 4's simplified bound | [`nseg::remark2`] | `bg23.thm4` |
//! | Algorithm 2 | NISPP | [`crate::algorithms::nispp::Nispp`] (inner solvers [`crate::algorithms::nispp::InnerSolver`]) | `bg23.alg2`, `bg23.eq5_1`, `bg23.noise_ledger_nispp` |
//! | Prop 8 | NISPP's averaged iterate | [`nispp::prop8_pathwise`], [`nispp::prop8_expected`] | `bg23.prop8` |
//! | Thm 5 | convergence of single-pass NISPP | [`nispp::thm5_z0`], [`nispp::thm5_bound`] (literal and corrected Z₀, E-BG23-42) | `bg23.thm5` |
//! | Prop 9 | sensitivity 4M/(λ_kB_{k+1}) of NISPP's updates | [`nispp::prop9_sensitivity`], [`nispp::prop9_sharp`], [`nispp::release_sensitivity`] | `bg23.prop9` |
//! | Prop 10 | privacy of NISPP, σ²_{k+1} = 32M²/(λ_k²B²_{k+1})·ln(1/η)/ε² | calibration: [`calibration::prop10_sigma`], [`calibration::prop10`] | `bg23.prop10` |
//! | Cor 2 | single-pass NISPP, B = n^{1/3} | [`nispp::nispp_schedule`], [`nispp::policy`], [`nispp::cor2_terms`], [`calibration::cor2`] | `bg23.cor2` (E-BG23-40), `bg23.cor2_privacy` (E-BG23-P5) |
//! | Remark 3 | OE count, ζ → ν, cost, non-DP policy | [`nispp::remark3_oe_count`], [`nispp::remark3_zeta`], [`oe::oe_corrected_count`], [`nispp::nispp_schedule`] | `bg23.remark3_oe_count` (E-BG23-43), `bg23.remark3_zeta_nu` (E-BG23-44), `bg23.remark3_cost`, `bg23.remark3_nondp` (E-BG23-47), `bg23.rate_nispp` |
//! | Lemma 3 | stability of two NISPP trajectories (and the sharper Lemma 3′) | [`nispp::lemma3_step`], [`nispp::lemma3_prime_step`] | `bg23.lemma3` |
//! | Thm 6 | uniform argument stability of sampled-with-replacement NISPP | [`nispp::thm6_bound`], [`nispp::thm6_hp`] | `bg23.thm6` (E-BG23-41), `bg23.thm6_hp` |
//! | Remark 4 | high-probability stability needs enough iterations | [`nispp::thm6_hp`] | `bg23.remark4` |
//! | Thm 7 | multi-pass NISPP, K = n, B = √n | [`nispp::nispp_schedule`], [`nispp::thm7_bound`], [`calibration::thm7`] | `bg23.thm7_privacy`, `bg23.thm7`, `bg23.rate_nispp` |
//! | Prop 11 | lower bound for DP-SSP | [`lower_bounds::prop11_rate`] | `bg23.prop11` (not checkable; sub-check), `bg23.sco_as_ssp` (the §7 reduction) |
//! | Lemma 4 | resampling reduction | [`lower_bounds::lemma4_inner_privacy`] | `bg23.lemma4` |
//! | Prop 12 | lower bound for DP empirical VI | [`lower_bounds::prop12_emp_gap`], [`lower_bounds::prop12_minimizer`], [`lower_bounds::prop12_rate`] | `bg23.prop12`, `bg23.lb_attained` |
//! | Thm 8 | lower bound for DP-SVI | [`lower_bounds::thm8_rate`] | `bg23.thm8` (not checkable; sub-check) |
//! | Algorithm 3 (App. B) | operator extrapolation | [`oe::appb_step`], [`oe::appb_kappa`]; the production OE in `algorithms::operator_extrapolation` | `bg23.alg3` |
//! | eq. (A.1) (App. A) | Prop 2's swap identity | — (a check of the proof) | `bg23.eq_a1` |
//! | App. B rate | ‖z_{T+1} − w*‖² ≤ (2κ/(2κ−1))κ^{−T}‖z_1 − w*‖² (corrected, E-BG23-60) | [`oe::appb_rate_factor`] | `bg23.appb_oe` |
//! | App. B count | T = 2κ ln(D/ζ) (printed), corrected count (E-BG23-61, E-BG23-62) | [`oe::appb_count`], [`oe::oe_corrected_count`] | `bg23.appb_oe_count` |
//! | Table 1 (NSEG row) | evaluation counts n and n² | [`crate::algorithms::nseg::Nseg::evaluations`] | `bg23.table1_nseg` (erratum E-BG23-24) |
//! | Table 1 (NISPP row) | evaluation counts n log n and n^{3/2} log n | [`crate::algorithms::nispp::Nispp`] (counted), [`oe::oe_corrected_count`] | `bg23.cost_nseg_vs_nispp` |
//! | eqs. (2.1)–(5.22), (A.1) | the other numbered displays | not yet implemented | — |

pub mod calibration;
pub mod examples;
pub mod generalization;
pub mod lower_bounds;
pub mod nispp;
pub mod nseg;
pub mod oe;
pub mod stability;
