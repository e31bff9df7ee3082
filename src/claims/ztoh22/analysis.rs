//! Claims of ZTOH22 analysis: Assumptions 3.1, 3.2, 4.1, 4.2, Thms 3.3, 3.4, 4.3, 4.5, Lemma 4.4, Remarks 2 and 5, eqs. (1)–(2), Table 1, rates.

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
