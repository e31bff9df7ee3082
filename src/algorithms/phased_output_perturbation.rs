//! Output perturbation and phased output perturbation (ZTOH22 Algorithms 1–5) around any base solver.
