//! ZTOH22's risk bounds (Thms 3.3, 3.4, 4.3, 4.5), Lemma 4.4's stability, Lemma A.2 (reconstructed), Remarks 2 and 5, with explicit constants.
