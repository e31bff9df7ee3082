//! Claims of ZTOH22 Algorithms 1–5 and their base solvers: Definitions 1–2, Lemma 2.1, the algorithms' sensitivities, privacy and noise ledgers, Remarks 1, 3, 4 (solver accuracy), complexity counts.

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
