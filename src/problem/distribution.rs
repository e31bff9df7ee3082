//! Finite-support distributions and exact expectations over datasets.
