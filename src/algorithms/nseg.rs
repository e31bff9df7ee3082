//! NSEG: noisy stochastic extragradient (BG23 Algorithm 1), a named layer on the extragradient engine.
