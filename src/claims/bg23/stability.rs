//! Claims of BG23 §4.1: the extragradient operators (4.1)–(4.2), Prop 6, Lemmas 1–2, Thm 3 and step (4.15) of its proof.

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
