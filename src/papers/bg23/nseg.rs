//! BG23 §3 and §4.2: NSEG's policies (Cor 1, Thm 4, literal and corrected), Thm 2's K₀, the bounds of Thm 2, Cor 1, Remarks 1–2 and Thm 4 with explicit constants.
