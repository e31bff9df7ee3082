//! KLLW22 App. A.2–A.3: the moments-accountant pieces (Lemmas 3–5) and the probabilistic tools
//! (Lemmas 6–12).

use crate::claims::Claim;

/// The claims of this module.
pub fn claims() -> Vec<Claim> {
    vec![]
}
