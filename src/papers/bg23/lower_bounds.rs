//! BG23 §7: the lower-bound instances and values of Props 11–12, Lemma 4 and Thm 8.
