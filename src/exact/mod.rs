//! Exact arithmetic: rationals, binomial and multinomial weights, dataset enumeration.
