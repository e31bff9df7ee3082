//! Base solvers for ZTOH22's bring-your-own-algorithm wrappers (the paper's 𝒜): one interface, several solvers, each with the accuracy guarantee it provides.
