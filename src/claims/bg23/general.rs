//! Claims of BG23 §1–§2: the problems, gaps (1.1)–(1.5), (2.1)–(2.6), the §2.1 examples, Definition 1, Props 1–4, Thm 1.

use crate::claims::Claim;

/// The claims of this part, in item order.
pub fn claims() -> Vec<Claim> {
    vec![]
}
