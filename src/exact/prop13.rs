//! BGM23 Prop 13's mode-of-halves algorithm in exact rationals (the exact tier behind
//! `claims::core::mode_of_halves_outputs`).
//!
//! On f = wθ over [−1, 1]², F_D = wθ for every D, so Ĝap(w̄, θ̄) = |w̄| + |θ̄|; the algorithm outputs
//! w̄ = sgn(sum of the first ⌊n/2⌋ points), θ̄ = sgn(sum of the rest), sgn(0) = s0. Hence
//! Gap = E|w̄| + E|θ̄| and Gap_weak = |E w̄| + |E θ̄|, each half's law a binomial in the number of +1's.

use crate::exact::{binomial, BigRational};
use num_bigint::BigInt;
use num_traits::{One, Signed, Zero};

/// (P(sum > 0), P(sum < 0), P(sum = 0)) for m points with P(+1) = p.
pub fn half_sign_probs(p: &BigRational, m: u64) -> (BigRational, BigRational, BigRational) {
    let q = BigRational::one() - p;
    let (mut pos, mut neg, mut zero) = (
        BigRational::zero(),
        BigRational::zero(),
        BigRational::zero(),
    );
    for k in 0..=m {
        let w = BigRational::from_integer(BigInt::from(binomial(m, k)))
            * p.pow(k as i32)
            * q.pow((m - k) as i32);
        match (2 * k).cmp(&m) {
            std::cmp::Ordering::Greater => pos += w,
            std::cmp::Ordering::Less => neg += w,
            std::cmp::Ordering::Equal => zero += w,
        }
    }
    (pos, neg, zero)
}

/// (strong gap, weak gap) of the mode-of-halves algorithm for n ≥ 2, P(+1) = p ∈ [0, 1], tie
/// value s0 ∈ [−1, 1], exactly.
pub fn mode_of_halves_gaps(
    p: &BigRational,
    n: u64,
    s0: &BigRational,
) -> (BigRational, BigRational) {
    let halves = [n / 2, n - n / 2];
    let mut strong = BigRational::zero();
    let mut weak = BigRational::zero();
    for m in halves {
        let (pos, neg, zero) = half_sign_probs(p, m);
        strong += &pos + &neg + s0.abs() * &zero;
        weak += (&pos - &neg + s0 * &zero).abs();
    }
    (strong, weak)
}
