//! KLLW22 (Kang, Liu, Li, Wang: *Stability and Generalization of Differentially Private Minimax
//! Problems*): the claims on DP-GDA and its stability / generalization analysis. The paper's
//! formulas, tools and instances are in [`crate::papers::kllw22`] (its front page lists every
//! item with its claim); the checks of the probabilistic tools of App. A.3 (Lemmas 6–12) and of
//! the moments-accountant pieces (Lemmas 3–5) are in [`tools`].

pub mod generalization;
pub mod high_probability;
pub mod privacy;
pub mod stability;
pub mod tools;

use crate::claims::Claim;

/// The KLLW22 claims.
pub fn claims() -> Vec<Claim> {
    let mut v = Vec::new();
    v.extend(privacy::claims());
    v.extend(stability::claims());
    v.extend(stability::risk_claims());
    v.extend(stability::thm2_claims());
    v.extend(stability::remark_claims());
    v.extend(generalization::claims());
    v.extend(high_probability::claims());
    v.extend(tools::claims());
    v
}
