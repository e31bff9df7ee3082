//! BG23 §4.1: the extragradient operators R_s (4.1) and R (4.2), and the right sides of Prop 6, Lemmas 1–2 and Thm 3 (with step (4.15) of its proof).
