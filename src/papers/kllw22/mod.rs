//! # KLLW22
//!
//! Kang, Liu, Li, Wang. *Stability and Generalization of Differentially Private Minimax
//! Problems.* arXiv 2022. DP-GDA (full-batch gradient descent–ascent with Gaussian noise on each
//! block), its privacy (Theorem 1), its argument stability (Theorem 2) and the high-probability
//! generalization bounds of a γ-argument-stable algorithm (Theorem 3, Corollary 1).
//!
//! What the paper adds to the core lives here: its bounds and schedules as plain functions
//! ([`stability`], [`generalization`], [`tools`]), its test instances ([`instances`]) and its
//! privacy calibration ([`calibration`]). The algorithm is
//! [`crate::algorithms::dp_gda::DpGda`]; the checks are the claims `kllw22.*` (`dpsaddle claims
//! --paper KLLW22`), written up in `proofs-notes/kllw22.md` and `proofs-notes/kllw22-tools.md`.
//! Errata are `E-KLLW22-n` (`proofs-notes/errata.md`).
//!
//! ## Notation
//!
//! | KLLW22 | crate | note |
//! |---|---|---|
//! | w ∈ W, v ∈ V (both in ℝ^p) | `w`, `theta` (θ); `domain_w`, `domain_theta` | the paper's v is the crate's θ; the paper's p is the block dimension (`d`/`p` here) |
//! | ℓ(w, v; z), L(w, v) = E_z ℓ, L_S = (1/n)Σℓ(·; z_i) | [`crate::problem::SaddleFn::value`], [`crate::problem::Objective::population`], [`crate::problem::Objective::empirical`] | the paper's L also names the smoothness constant (E-KLLW22-29) |
//! | S, S′ = S^{(i)} (replace-one) | [`crate::problem::Dataset`], `Dataset::replace_one` | |
//! | ρ (Assumption 1, ρ-SC-SC) | `rho` | η_t = 1/(ρt) |
//! | G (Assumption 2) | `g`, [`instances::blockwise_g`] | **blockwise**: ‖∇_w ℓ‖ ≤ G and ‖∇_v ℓ‖ ≤ G; the core's Lipschitz constant is joint |
//! | L (Assumption 3) | `smooth_l` | **smoothness**, not the core's L (= Lipschitz constant) |
//! | M_ℓ (Assumption 4) | `m_loss` | 0 ≤ ℓ ≤ M_ℓ |
//! | M_W, M_V (Assumption 5) | `m_w` | a radius in Assumption 5, a diameter in the proofs (E-KLLW22-16) |
//! | γ (Definition 3) | `gamma` | the **sum of block norms** ‖ΔA_w‖ + ‖ΔA_v‖; the core's [`crate::stability`] uses the joint norm (joint ≤ γ ≤ √2·joint) |
//! | T, η_t, σ, c | `steps`, [`stability::thm2_step_size`], `sigma`, `c` | σ = cG√(T log(1/δ))/(nε) (Theorem 1) |
//! | b_{w,t}, b_{v,t} | `DpGdaRun::b_w`, `DpGdaRun::b_v` | fresh every step (E-KLLW22-4) |
//! | (w̄_T, v̄_T) | `Output::w`, `Output::theta` | the average of w_1..w_T as printed (E-KLLW22-5) |
//! | p_ζ, p′_ζ | [`stability::p_zeta`], [`stability::p_zeta_prime`] | Lemma 6 with union bounds over 2T and T vectors |
//! | g_w, g_v | `g_sum` = g_w + g_v | distances to the best responses at the output |
//! | ι, ζ | `iota`, `zeta` | both in (0, 1) (E-KLLW22-21) |
//! | Δ^s, Δ_S^s, Δ^w, Δ_S^w, R, R_S | [`crate::gap::strong_gap`], [`crate::gap::gap_function`], [`crate::gap::weak_gap`], [`crate::gap::primal_risk`] | Definition 2 |
//!
//! ## Items
//!
//! | item | what | code | claim |
//! |---|---|---|---|
//! | Definition 1 | (ε, δ)-DP | [`crate::privacy`] | — |
//! | Definition 2 | weak / strong PD, primal and plain risks and generalization errors | [`crate::gap::weak_gap`], [`crate::gap::strong_gap`], [`crate::gap::primal_risk`] | `kllw22.def2_remark1` |
//! | Remark 1 | Δ^w ≤ E[Δ^s] | [`crate::gap`] | `kllw22.def2_remark1` |
//! | Assumptions 1–3 | ρ-SC-SC, G-Lipschitz (blockwise), L-smooth | [`instances::instance`], [`instances::blockwise_g`] | all stability claims |
//! | Definition 3 | γ-argument stability (block sum) | [`crate::algorithms::dp_gda`] | `kllw22.def3` |
//! | §4, display before Algorithm 1 | non-private GDA | `DpGda` with σ = 0 | `kllw22.def2_remark1` |
//! | Algorithm 1 | DP-GDA | [`crate::algorithms::dp_gda::DpGda`] | `kllw22.def3`, `kllw22.lemma2_pathwise`, `kllw22.thm2` |
//! | Lemma 1 | one-block DP gradient descent | [`calibration`] | `kllw22.thm1_per_block` |
//! | Theorem 1 | σ = O(G√(T log(1/δ))/(nε)) makes DP-GDA (ε, δ)-DP | [`calibration`] | `kllw22.thm1_per_block`, `kllw22.thm1_joint` (erratum E-KLLW22-7) |
//! | Remark 2 | why gradient perturbation | — (discussion) | — |
//! | Assumptions 4–5 | bounded loss, bounded domains | `GenBound::m_loss`, [`instances::instance`] (balls) | `kllw22.thm3` |
//! | Theorem 2 (= Theorem 5) | γ of DP-GDA | [`stability::thm2_gamma`], [`stability::p_zeta`], [`stability::thm2_step_size`] | `kllw22.thm2`, `kllw22.rate_erratum` |
//! | Remark 3 | g_w² ≤ (2/ρ)·gap; the bound on g_w with p′_ζ | [`stability::remark3_g_bound`], [`stability::p_zeta_prime`] | `kllw22.remarks3_4`, `kllw22.lemma2_remark3_hp` |
//! | Remark 4 | γ_rude (M_W + M_V for g_w + g_v); T = O(n^{2/3}) and the claimed rate | [`stability::thm2_gamma`], [`stability::remark4_steps`] | `kllw22.remarks3_4`, `kllw22.rate_erratum` (erratum E-KLLW22-19) |
//! | Theorem 3 (a)–(d) (= Theorem 6) | generalization bounds from γ | [`generalization::GenBound`] (`thm3a`–`thm3d`) | `kllw22.thm3`, `kllw22.thm3_steps` |
//! | Remark 5 | part (a) via uniform stability | — (discussion) | — |
//! | Lemma 2 (= Lemma 13) | bound on Δ_S^s(w̄_T, v̄_T) | [`stability::lemma2_sigma_form`], [`stability::lemma2_c_form`] | `kllw22.lemma2_remark3_hp`, `kllw22.lemma2_pathwise` (corrected, E-KLLW22-4) |
//! | Remarks 6–8, Table 1, eq. (1) | rates | not checked (O(·) statements; E-KLLW22-18, E-KLLW22-19, E-KLLW22-20) | — |
//! | Corollary 1 (a)–(c) (= Corollary 2) | strong / weak PD generalization | [`generalization::GenBound`] (`cor1_k`, `cor1a`–`cor1c`) | `kllw22.cor1` |
//! | Definition 4 | privacy loss c(o; M, D, D′) | inside [`tools::alpha_discrete`] (log P(o) − log Q(o)) | `kllw22.lemma3` |
//! | Definition 5 | log moment α_M(λ) | [`tools::alpha_discrete`] | `kllw22.lemma3` |
//! | Lemma 3 | composability of α | [`tools::alpha_discrete`], [`tools::rr_pmf`] | `kllw22.lemma3` |
//! | Lemma 4 | tail bound δ = min_λ exp(α(λ) − λε) | [`tools::lemma4_delta`] | `kllw22.lemma4` |
//! | Definition 6 | Rényi divergence | [`tools::renyi_gaussian_quadrature`] | `kllw22.lemma5` |
//! | Lemma 5 | Rényi divergence of two Gaussians | [`tools::renyi_gaussian`] | `kllw22.lemma5` |
//! | Theorem 4 (proof of Theorem 1) | the moments-accountant argument | [`calibration`] | `kllw22.thm1_per_block`, `kllw22.lemma3` |
//! | Lemma 6 | Gaussian norm concentration | [`tools::lemma6_radius`], [`tools::chi_square_log_sf`], [`tools::ZetaRange`] | `kllw22.lemma6` (range E-KLLW22-12) |
//! | Lemma 7 | moments of weakly dependent sums | [`tools::lemma7_bound`] | `kllw22.lemma7` |
//! | Lemma 8 | moments to tails | [`tools::lemma8_radius`] | `kllw22.lemma8` |
//! | Lemma 9 | Bernstein | [`tools::lemma9_radius`] (both [`Reading`](crate::papers::Reading)s) | `kllw22.lemma9` (erratum E-KLLW22-34) |
//! | Lemma 10, Definition 7 | lower tail of weakly self-bounded functions | [`tools::lemma10_bound`], [`tools::SelfBoundForm`] | `kllw22.lemma10` |
//! | Lemma 11 | Lipschitz best responses | [`instances::BilinearQuad`] | `kllw22.lemma11` |
//! | Lemma 12 | Bernstein-type moment bound | [`tools::lemma12_bound`] | `kllw22.lemma12` |
//!
//! ## Equations the crate uses (App. A.2–A.3)
//!
//! | equation | what | code | claim |
//! |---|---|---|---|
//! | the display before (3), eq. (3) | empirical-saddle-point stability 2√2G/(nρ) (joint), 4G/(nρ) (block sum) | [`stability::eq3_joint`], [`stability::eq3_block_sum`] | `kllw22.esp_stability` |
//! | (4) | stability of the iterates through the gap (both runs' gaps, E-KLLW22-14) | — | `kllw22.thm2` |
//! | (6)–(8) | the per-block regret and Δ_S^s of the averages (per-step noise, E-KLLW22-4) | `DpGda::run_traced` | `kllw22.lemma2_pathwise` |
//! | (10), (11), the text after (10) | γ and p_ζ | [`stability::thm2_gamma`], [`stability::p_zeta`] | `kllw22.thm2` |
//! | (12)–(15), the display after (15) | loss differences, the decomposition, the moment bound | — (exact enumeration in the claim) | `kllw22.thm3_steps` |
//! | (21), the display after (34) | Lemma 11 on the population objective; gap to distance | — | `kllw22.thm3_steps` |
//! | (37) | the proven form of Theorem 3(d) (E_S[Δ_S^s] kept, E-KLLW22-27) | `GenBound::thm3d` with [`Reading::Corrected`](crate::papers::Reading::Corrected) | `kllw22.thm3`, `kllw22.cor1` |
//!
//! The other equations ((2), (5), (9), (16)–(20), (22)–(33), (35), (36)) are intermediate steps
//! of the proofs, not implemented on their own.

pub mod calibration;
pub mod generalization;
pub mod instances;
pub mod stability;
pub mod tools;
