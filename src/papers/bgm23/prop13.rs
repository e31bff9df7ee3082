//! BGM23 Prop 13's mode-of-halves algorithm in exact rationals (the exact tier behind
//! the float outputs of the `bgm23.prop13` check and `algorithms::mode_of_halves::ModeOfHalves`).
//!
//! On f = wθ over [−1, 1]², F_D = wθ for every D, so Ĝap(w̄, θ̄) = |w̄| + |θ̄|; the algorithm outputs
//! w̄ = sgn(sum of the first ⌊n/2⌋ points), θ̄ = sgn(sum of the rest), sgn(0) = s0. Hence
//! Gap = E|w̄| + E|θ̄| and Gap_weak = |E w̄| + |E θ̄|, each half's law a binomial in the number of +1's.
//!
//! * [`half_sign_probs`], [`mode_of_halves_gaps`]: the two gaps from the binomial formula.
//! * [`mode_of_halves_law`]: the full law Props 13–14 need (both gaps, both means, and the output
//!   variance τ² = E‖A(S) − E A(Ŝ)‖² of BGM23 Prop 14), from the binomial formula;
//!   [`mode_of_halves_law_brute`] computes the same by summing over all 2ⁿ sign vectors
//!   (crate::exact::sequences), independently of the formula.
//! * [`mode_of_halves_stability`]: the algorithm's uniform argument stability over {±1}ⁿ
//!   (BGM23 Definition 1), in closed form; [`mode_of_halves_stability_brute`] by enumeration.
//!
//! The general-n algorithm needs a split and a tie rule the paper avoids by footnote 6
//! (n ≡ 2 mod 4, so both halves are odd): the first half has ⌊n/2⌋ points, and sgn(0) = s0 ∈ [−1, 1].

use crate::error::{invalid, Result};
use crate::exact::{binomial, sequences, BigRational};
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

/// The exact law of the mode-of-halves output (w̄, θ̄) for S ~ Dⁿ, D = p·δ₊₁ + (1 − p)·δ₋₁: every
/// quantity BGM23 Props 13–14 are about.
#[derive(Clone, Debug, PartialEq)]
pub struct ModeOfHalvesLaw {
    /// n.
    pub n: u64,
    /// Gap(A) = E|w̄| + E|θ̄| (BGM23 eq. (2) on f = wθ).
    pub strong: BigRational,
    /// Gap_weak(A) = |E w̄| + |E θ̄| (BGM23 eq. (3); A is deterministic, so E_A's place is moot).
    pub weak: BigRational,
    /// E w̄.
    pub mean_w: BigRational,
    /// E θ̄.
    pub mean_theta: BigRational,
    /// τ² = E(w̄ − E w̄)² + E(θ̄ − E θ̄)², the output variance of BGM23 Prop 14.
    pub tau2: BigRational,
}

impl ModeOfHalvesLaw {
    /// Gap(A) − Gap_weak(A), the quantity BGM23 Prop 13 says can be 2.
    pub fn diff(&self) -> BigRational {
        &self.strong - &self.weak
    }
}

/// Largest n accepted by [`check_params`] (the binomial sums are exact, so cost grows with n).
pub const MAX_N: u64 = 100_000;

/// Validate (p, n, s0): 2 ≤ n ≤ [`MAX_N`] (two non-empty halves), p ∈ [0, 1], s0 ∈ [−1, 1]. Errors
/// name the field.
pub fn check_params(p: &BigRational, n: u64, s0: &BigRational) -> Result<()> {
    if n < 2 {
        return Err(invalid(
            "n",
            format!("must be ≥ 2 (two non-empty halves), got {n}"),
        ));
    }
    if n > MAX_N {
        return Err(invalid("n", format!("must be ≤ {MAX_N}, got {n}")));
    }
    if p.is_negative() || *p > BigRational::one() {
        return Err(invalid("p", format!("must be in [0, 1], got {p}")));
    }
    if s0.abs() > BigRational::one() {
        return Err(invalid("s0", format!("must be in [−1, 1], got {s0}")));
    }
    Ok(())
}

/// The law of the mode-of-halves output from the binomial formula:
/// per half of size m, E sgn = P⁺ − P⁻ + s0·P⁰, E|sgn| = P⁺ + P⁻ + |s0|·P⁰, E sgn² = P⁺ + P⁻ + s0²·P⁰.
pub fn mode_of_halves_law(p: &BigRational, n: u64, s0: &BigRational) -> Result<ModeOfHalvesLaw> {
    check_params(p, n, s0)?;
    let mut strong = BigRational::zero();
    let mut weak = BigRational::zero();
    let mut tau2 = BigRational::zero();
    let mut means = Vec::with_capacity(2);
    for m in [n / 2, n - n / 2] {
        let (pos, neg, zero) = half_sign_probs(p, m);
        let mean = &pos - &neg + s0 * &zero;
        let abs = &pos + &neg + s0.abs() * &zero;
        let sq = &pos + &neg + s0 * s0 * &zero;
        strong += &abs;
        weak += mean.abs();
        tau2 += sq - &mean * &mean;
        means.push(mean);
    }
    let mean_theta = means.pop().unwrap_or_default();
    let mean_w = means.pop().unwrap_or_default();
    Ok(ModeOfHalvesLaw {
        n,
        strong,
        weak,
        mean_w,
        mean_theta,
        tau2,
    })
}

/// The output (w̄, θ̄) on one sign vector (entries ±1, as i64), with sgn(0) = s0.
pub fn mode_of_halves_output(signs: &[i64], s0: &BigRational) -> (BigRational, BigRational) {
    let m1 = signs.len() / 2;
    let sgn = |half: &[i64]| {
        let s: i64 = half.iter().sum();
        match s.cmp(&0) {
            std::cmp::Ordering::Greater => BigRational::one(),
            std::cmp::Ordering::Less => -BigRational::one(),
            std::cmp::Ordering::Equal => s0.clone(),
        }
    };
    (sgn(&signs[..m1]), sgn(&signs[m1..]))
}

/// Largest n accepted by the brute-force routines (2ⁿ terms).
pub const BRUTE_MAX_N: u64 = 24;

/// The same law as [`mode_of_halves_law`], computed by brute force: the probability-weighted sum
/// over all 2ⁿ sign vectors (x₁, …, xₙ) ∈ {±1}ⁿ (crate::exact::sequences, atom 0 = +1), with
/// no binomial formula. n ≤ [`BRUTE_MAX_N`].
pub fn mode_of_halves_law_brute(
    p: &BigRational,
    n: u64,
    s0: &BigRational,
) -> Result<ModeOfHalvesLaw> {
    check_params(p, n, s0)?;
    if n > BRUTE_MAX_N {
        return Err(invalid(
            "n",
            format!("brute force enumerates 2ⁿ sign vectors; n ≤ {BRUTE_MAX_N}, got {n}"),
        ));
    }
    let q = BigRational::one() - p;
    // weight[k] = p^k (1 − p)^(n − k): the probability of one sequence with k (+1)'s.
    let weight: Vec<BigRational> = (0..=n)
        .map(|k| p.pow(k as i32) * q.pow((n - k) as i32))
        .collect();
    let z = BigRational::zero;
    let (mut e_abs, mut e_w, mut e_t, mut e_w2, mut e_t2) = (z(), z(), z(), z(), z());
    for s in sequences(n as usize, 2) {
        let signs: Vec<i64> = s.iter().map(|&j| if j == 0 { 1 } else { -1 }).collect();
        let plus = s.iter().filter(|&&j| j == 0).count();
        let rho = &weight[plus];
        if rho.is_zero() {
            continue;
        }
        let (w, t) = mode_of_halves_output(&signs, s0);
        e_abs += rho * (w.abs() + t.abs());
        e_w2 += rho * &w * &w;
        e_t2 += rho * &t * &t;
        e_w += rho * w;
        e_t += rho * t;
    }
    let tau2 = (e_w2 - &e_w * &e_w) + (e_t2 - &e_t * &e_t);
    Ok(ModeOfHalvesLaw {
        n,
        strong: e_abs,
        weak: e_w.abs() + e_t.abs(),
        mean_w: e_w,
        mean_theta: e_t,
        tau2,
    })
}

/// The uniform argument stability of the mode algorithm over {±1}ⁿ (BGM23 Definition 1, the
/// sup over replace-one neighbours of ‖A(S) − A(S′)‖): changing one point moves one half's sum
/// by 2, so only that half's sign can change. An odd half can flip (change 2); an even half can
/// move between ±1 and s0 (change 1 + |s0|). Δ is the larger over the two halves.
pub fn mode_of_halves_stability(n: u64, s0: &BigRational) -> Result<BigRational> {
    check_params(&BigRational::zero(), n, s0)?;
    let per_half = |m: u64| {
        if m % 2 == 1 {
            BigRational::from_integer(2.into())
        } else {
            BigRational::one() + s0.abs()
        }
    };
    Ok(per_half(n / 2).max(per_half(n - n / 2)))
}

/// [`mode_of_halves_stability`] by enumerating every sign vector and every single-point flip.
/// n ≤ [`BRUTE_MAX_N`].
pub fn mode_of_halves_stability_brute(n: u64, s0: &BigRational) -> Result<BigRational> {
    check_params(&BigRational::zero(), n, s0)?;
    if n > BRUTE_MAX_N {
        return Err(invalid("n", format!("n ≤ {BRUTE_MAX_N}, got {n}")));
    }
    let mut best = BigRational::zero();
    for s in sequences(n as usize, 2) {
        let signs: Vec<i64> = s.iter().map(|&j| if j == 0 { 1 } else { -1 }).collect();
        let (w, t) = mode_of_halves_output(&signs, s0);
        for i in 0..signs.len() {
            let mut flipped = signs.clone();
            flipped[i] = -flipped[i];
            let (w2, t2) = mode_of_halves_output(&flipped, s0);
            // One coordinate changes at a time, so the ℓ2 distance is a sum of |Δ|'s.
            let d = (&w - &w2).abs() + (&t - &t2).abs();
            if d > best {
                best = d;
            }
        }
    }
    Ok(best)
}
