//! KLLW22 Theorem 1 / Lemma 1: the privacy calibration of DP-GDA's σ (moved here from
//! `privacy::papers` by the privacy move).
