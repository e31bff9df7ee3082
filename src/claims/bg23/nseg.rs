//! Claims of BG23 §3 and §4.2: NSEG (Algorithm 1), Thm 2, Prop 5, Cor 1, Remarks 1–2, eq. (4.16), Prop 7, Thm 4, the NSEG half of Table 1, NSEG rates.

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
