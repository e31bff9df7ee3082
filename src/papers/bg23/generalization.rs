//! BG23 §1–§2: the SVI/SSP problems and their gaps as the paper writes them, the generalization terms of Props 1–2.
