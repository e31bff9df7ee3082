//! Vectors and small dense matrices with a fixed summation order.
