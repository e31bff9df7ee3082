//! Privacy benchmarks (being written).
fn main() {}
