//! # BGM23 — Bassily, Guzmán, Menart, COLT 2023
//!
//! *Differentially Private Algorithms for the Stochastic Saddle Point Problem with Optimal Rates
//! for the Strong Gap.* This page maps the paper's notation to the crate's and lists every
//! numbered item with the code that implements it and the claim(s) that check it (claim ids are
//! those of `dpsaddle verify --paper BGM23`; the derivations behind each claim are in
//! `proofs-notes/bgm23.md`, errata `E-BGM23-n` in `proofs-notes/errata.md`).
//!
//! What lives here: [`bounds`] (the paper's bounds, one function per formula), [`instances`]
//! (instances shared by checks, fixtures and benches), the exact constructions [`prop13`]
//! (Prop 13's mode-of-halves algorithm), [`packing`] (Thm 15's packing), [`lin_box`] and
//! [`exact_box`] (eq. (4)'s regularized saddle point on 1-D boxes, in rationals); Algorithm 1's
//! schedules and the SGDA step sizes ([`schedules`]) and the privacy calibrations (`calibration`).
//!
//! ## Notation
//!
//! | paper | crate | note |
//! |---|---|---|
//! | w ∈ W, θ ∈ Θ, z = [w, θ] | `w`, `theta`; [`crate::problem::SaddleFn::domain_w`], [`crate::problem::SaddleFn::domain_theta`]; z = [`crate::linalg::concat`]`(w, theta)` | [w, θ] is concatenation (§2) |
//! | x, S = (x₁, …, xₙ) ~ Dⁿ | [`crate::problem::Dataset`], [`crate::problem::FiniteDist`] | checks use finite-support D, so expectations over S are exact sums |
//! | f(w, θ; x), F_S, F_D (eq. (1)) | [`crate::problem::SaddleFn::value`], [`crate::problem::Objective`] (`empirical`, `population`) | in Definition 4, F_S is normalised by its own sample size (E-BGM23-8) |
//! | L | [`crate::problem::Constants::lipschitz`] | joint Lipschitz constant in [w, θ] (footnote 3), as the core's L |
//! | β | [`crate::problem::Constants::smoothness`] | smoothness; used only by Lemma 11 / Thm 12 |
//! | B | [`crate::problem::Constants::diameter`] | diameter of W×Θ (§2); in Thm 15, B is the radius R of W ([`packing::Packing::r`], E-BGM23-40) |
//! | Ĝap (§2), Gap (eq. (2)), Gap_weak (eq. (3)) | [`crate::gap::gap_function`], [`crate::gap::strong_gap`], [`crate::gap::weak_gap`] | |
//! | Δ (Definition 1) | [`crate::stability::uniform_argument_stability`], [`crate::stability::uas_over_support`] | replace-one neighbours, coupled seeds |
//! | λ, ŵ, θ̂, eq. (4): (λ/2)‖w − ŵ‖² − (λ/2)‖θ − θ̂‖² | [`crate::problem::Regularizer::bgm23_eq4`] | **regularizer convention**: a [`crate::problem::RegTerm`] c(‖w − a‖² − ‖θ − b‖²) has no factor ½ and adds modulus 2c, so eq. (4) is c = λ/2 (λ-SC/SC) and Algorithm 1's terms 2^{k+1}λ add 2^{k+2}λ |
//! | n′, T (Algorithm 1, line 1) | [`crate::algorithms::recursive_regularization::Schedule`] (`n_prime`, `rounds`), [`crate::algorithms::recursive_regularization::NPrimeRule`] | T = ⌊log₂(L/(Bλ))⌋ (E-BGM23-1, E-BGM23-2) |
//! | S_t (line 2) | `Schedule::chunk(t)` | contiguous chunks; the remainder is never read |
//! | f^(t) = f + Σ_{k<t} 2^{k+1}λ(‖w − w̄_k‖² − ‖θ − θ̄_k‖²) | the round objective of [`crate::algorithms::recursive_regularization::RecursiveRegularization`] | minus signs restored (E-BGM23-3); Λ_t = (2^{t+1} − 2)λ, μ_t = 2Λ_t |
//! | D̂_t (line 6) | `Schedule::d_hat(t)`, [`crate::algorithms::recursive_regularization::DistanceRule`] | printed B/2^t; corrected B/2^{t−1} (E-BGM23-9) |
//! | A_emp, α̂ (Definition 4) | [`crate::algorithms::recursive_regularization::AempSpec`]; [`bounds::def4_alpha_from_lemma20`] | corrected reading of Definition 4 (E-BGM23-8) |
//! | z̄_t, z*_{S,t}, z*_t | the round records of a run | |
//! | E_t, F_t, G_t, B_t (eq. (5), P.1, P.2) | the path moments of Algorithm 1's count-path enumeration | exact over all count paths |
//! | η, T, ∇_t (eqs. (13)–(14)) | [`crate::algorithms::sgda::Sgda`] (`eta`, `steps`) | SGDA indexing t = 1..T (E-BGM23-30) |
//! | m, σ, c (Thm 21, Thm 22) | [`crate::algorithms::noisy_sgda::NoisySgda`] (`c0`, `batch_rule`) | |
//! | τ² (Prop 14, Lemma 20) | [`crate::stability::output_variance`]; the `tau2` of Lemma 20 | |
//! | ε, δ | the privacy calibrations (`calibration`) | |
//!
//! ## Items
//!
//! | item | code | claim(s) |
//! |---|---|---|
//! | eq. (1) (the SSP problem) | [`crate::problem::Objective`], [`crate::solve::saddle_point`] | — |
//! | eqs. (2)–(3) (strong and weak gap) | [`crate::gap::strong_gap`], [`crate::gap::weak_gap`] | `bgm23.eq2-3` |
//! | §2, gap function Ĝap | [`crate::gap::gap_function`] | `bgm23.eq2-3`, `bgm23.fact1` |
//! | Fact 1 (proof App. A.1) | [`crate::gap::gap_function`], [`bounds::fact1_bound`] | `bgm23.fact1` |
//! | Definition 1 (uniform argument stability) | [`crate::stability::uniform_argument_stability`], [`crate::stability::uas_over_support`] | `bgm23.def1` |
//! | eq. (4) (regularized objective) | [`crate::problem::Regularizer::bgm23_eq4`]; exact: [`lin_box::reg_saddle`], [`exact_box::ExactBox::reg_saddle`] | `bgm23.lemma2`, `bgm23.lemma3` |
//! | Lemma 2 | [`crate::algorithms::RegularizedSaddlePoint`], [`bounds::lemma2_stability_exact`] (floats: [`schedules::lemma2_stability`]) | `bgm23.lemma2` |
//! | Lemma 3 | [`crate::solve::saddle_point`] (its distance certificate) | `bgm23.lemma3` |
//! | Algorithm 1 (Recursive Regularization) | [`crate::algorithms::recursive_regularization::RecursiveRegularization`], [`crate::algorithms::recursive_regularization::Schedule`] | `bgm23.alg1_schedule`, `bgm23.thm8` |
//! | Definition 4 (α̂-relative accuracy) | [`bounds::def4_alpha_from_lemma20`] | `bgm23.def4`, `bgm23.thm5_relacc` |
//! | Theorem 5 (proof in App. B.2, eq. (12)) | λ of Thm 5 ([`schedules`]), [`bounds::thm5_step_iv`], [`bounds::thm18_hypothesis`] | `bgm23.thm5`, `bgm23.thm5_relacc`, `bgm23.rate_n` |
//! | Lemma 6 (proof App. B.1) | [`bounds::lemma6_gen_bound_sq`], [`exact_box::ExactBox`] | `bgm23.lemma6` |
//! | Lemma 7 (footnote 5) | [`bounds::lemma7_variance_bound`] | `bgm23.lemma7` |
//! | Theorem 8 (parallel composition) | `RecursiveRegularization::run_with` | `bgm23.thm8` |
//! | Lemma 9 (§4.1) | [`crate::algorithms::noisy_sgda::NoisySgda`], α̂ of Lemma 9 ([`schedules`]), [`bounds::lemma9_complexity`], [`bounds::lemma9_printed_alpha`] | `bgm23.lemma9` |
//! | Corollary 10 | [`crate::algorithms::recursive_regularization::AempSpec`] (noisy SGDA), [`bounds::cor10_complexity`] | `bgm23.cor10`, `bgm23.rate_eps` |
//! | Lemma 11 (external; substituted) | [`crate::solve::saddle_point`], [`crate::algorithms::recursive_regularization::exact_round`] | `bgm23.lemma11` |
//! | Theorem 12 (§4.2; output perturbation) | [`crate::algorithms::recursive_regularization::output_perturbation_round`], λ of Thm 12 ([`schedules`]), σ_t (`calibration`), [`bounds::thm12_noise_budget`], [`bounds::thm12_radius_budget`], [`bounds::thm12_release_sensitivity`] | `bgm23.thm12`, `bgm23.thm12_sensitivity`, `bgm23.rate_eps` |
//! | Proposition 13 (footnote 6) | [`prop13::mode_of_halves_law`], [`crate::algorithms::mode_of_halves::ModeOfHalves`] | `bgm23.prop13` |
//! | Proposition 14 (proof App. D.1, eqs. (15)–(17)) | [`bounds::prop14_bound_sq`], [`prop13::ModeOfHalvesLaw::tau2`] | `bgm23.prop14` |
//! | §5, paragraph after Prop 14 (tradeoff between accuracy and stability) | [`bounds::tradeoff_bound_sq_terms`], [`bounds::tradeoff_printed_bound_sq`] | `bgm23.remark_l260` |
//! | Theorem 15 (proof App. D.2) | [`packing::Packing`], [`bounds::thm15_lower_bound`] | `bgm23.thm15`, `bgm23.thm15_delta_le_b` |
//! | §5, paragraph after Thm 15 ("Lemma 2 shows this bound is tight") | [`packing::reg_erm`], [`bounds::thm15_regularized_erm_upper`], [`crate::algorithms::regularized_erm::RegularizedErm`] | `bgm23.remark_l264` |
//! | App. A.2, Corollary 16 (local DP SGDA) | [`crate::algorithms::ldp_sgda::LdpSgda`], Cor 16's η and bound ([`schedules`]), σ (`calibration`) | `bgm23.cor16`, `bgm23.cor16_ldp` |
//! | Lemma 17 (App. B.1) | [`bounds::lemma17_bound_sq`] | `bgm23.lemma17` |
//! | Theorem 18 (App. B.2; eqs. (9)–(11)) | [`bounds::thm18_bound`], [`bounds::thm18_hypothesis`], λ of Thm 18 ([`schedules`]) | `bgm23.thm18`, `bgm23.rate_n` |
//! | Lemma 19 (P.1, P.2; eqs. (5)–(8)) | [`bounds::lemma19_eq7_bound`], [`bounds::lemma19_star_to_tilde_bound`], [`bounds::lemma19_p2_step`], [`bounds::lemma19_p1_bound`], [`bounds::lemma19_p2_bound`] | `bgm23.lemma19` |
//! | App. C.1, eqs. (13)–(14) (SGDA) | [`crate::algorithms::sgda::Sgda`] | `bgm23.lemma20` |
//! | Lemma 20 | [`bounds::lemma20_bound`], [`bounds::lemma20_pair_gap`], [`instances::lemma20_tight`] | `bgm23.lemma20`, `bgm23.def4` |
//! | App. C.2 (noisy SGDA) | [`crate::algorithms::noisy_sgda::NoisySgda`] | `bgm23.thm21`, `bgm23.grad_complexity` |
//! | Theorem 21 | [`crate::algorithms::noisy_sgda::NoisySgda`], Thm 21's schedule (`calibration`), [`bounds::thm21_complexity`] | `bgm23.thm21`, `bgm23.grad_complexity`, `bgm23.thm21_batch_rule` |
//! | Theorem 22 (moments accountant; constant made concrete) | Thm 22's calibration (`calibration`) | `bgm23.thm22`, `bgm23.thm21_batch_rule` |
//! | Appendix D.1 (low variance and weak gap imply strong gap) | as Prop 14 | `bgm23.prop14` |
//! | Appendix D.2 (stability–risk tradeoff) | as Thm 15 | `bgm23.thm15` |
//! | §1.2 (prior rates), eq. (1)'s existence of saddle points (Sion) | not checkable | — |
//!
//! Every item of the paper is listed; none is "not yet implemented". Lemma 11 cites an external
//! accelerated solver, substituted by the crate's certified extragradient method.

pub mod bounds;
pub mod exact_box;
pub mod instances;
pub mod lin_box;
pub mod packing;
pub mod prop13;
pub mod schedules;
