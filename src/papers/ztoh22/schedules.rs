//! ZTOH22's phase schedules (K, n̄, μ_k) and the accuracy requirements Algorithms 1–5 put on the base solver.
