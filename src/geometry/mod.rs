//! Norms and domains: ℓ2 / ℓp norms and their duals, compact convex domains (ball, box, simplex,
//! ℓp ball, products) with Euclidean projection, support function and linear maximization
//! oracle, and a minimal ℓp / entropic mirror-map toolkit for BGM24.
//!
//! * [`norm`]: [`Norm`], [`lp_norm`], [`dual_exponent`], [`norm_ratio`].
//! * [`domain`]: [`Domain`] (serde-described, validated on deserialization).
//! * [`project`]: the projection algorithms behind [`Domain::project`], including the certified
//!   ℓp-ball projection [`project_lp_ball`].
//! * [`mirror`]: ∇½‖·‖_p², its inverse, the ℓp Bregman divergence and [`entropy_prox`].
//!
//! All sums follow the crate's determinism rule (index order, see [`crate::linalg`]).

pub mod domain;
pub mod mirror;
pub mod norm;
pub mod project;

pub use domain::Domain;
pub use mirror::{
    entropy_prox, half_sq_lp, lp_bregman_divergence, lp_mirror_map_grad, lp_mirror_map_grad_inv,
};
pub use norm::{dual_exponent, lp_norm, norm_ratio, Norm};
pub use project::{project_l1_ball, project_lp_ball, project_simplex, LpProjection};
