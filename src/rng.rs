//! Reference randomness (DESIGN "Randomness").
