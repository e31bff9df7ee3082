//! NISPP: noisy inexact stochastic proximal point (BG23 Algorithm 2), with a choice of inner solver.
