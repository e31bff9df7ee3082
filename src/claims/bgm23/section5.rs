//! BGM23 §5 (limitations of prior approaches): Prop 13, Prop 14, the remark after it, Thm 15;
//! and Lemmas 6–7 (being written).

use super::super::Claim;

/// The claims of this module.
pub fn claims() -> Vec<Claim> {
    vec![]
}
