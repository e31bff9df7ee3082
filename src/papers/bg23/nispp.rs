//! BG23 §5–§6: NISPP's policies (Cor 2, Thm 7, Remark 3, literal and corrected) and the bounds of Prop 8, Thm 5, Prop 9, Lemma 3, Thms 6–7.
