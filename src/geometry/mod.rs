//! Norms and domains.
