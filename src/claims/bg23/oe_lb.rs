//! Claims of BG23 §7 and App. A–B: operator extrapolation (Algorithm 3) with its rate and count, Props 11–12, Lemma 4, Thm 8, Prop 2's swap identity (A.1).

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
