//! Claims of BG23 §5–§6: NISPP (Algorithm 2), Prop 8, Thm 5, Props 9–10, Cor 2, Remark 3, Lemma 3, Thm 6, Remark 4, Thm 7, the NISPP half of Table 1.

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
