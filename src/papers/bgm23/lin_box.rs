//! The LIN-box family (`QuadBilinear::lin_box(0)`) in exact rationals: with no coupling, the
//! regularized saddle point of BGM23 eq. (4) separates into two clamps,
//!
//! w = clamp(ŵ − ā/λ, −3/10, 3/10),  θ = clamp(θ̂ − b̄/λ, −2/5, 2/5),
//!
//! where (ā, b̄) is the dataset mean. Used by the exact check of BGM23 Lemma 2 and as the exact
//! reference for the float solver.

use num_rational::BigRational;
use num_traits::{Signed, Zero};

fn clamp(x: BigRational, lo: &BigRational, hi: &BigRational) -> BigRational {
    if &x < lo {
        lo.clone()
    } else if &x > hi {
        hi.clone()
    } else {
        x
    }
}

/// W = [−3/10, 3/10], Θ = [−2/5, 2/5].
pub fn bounds() -> ((BigRational, BigRational), (BigRational, BigRational)) {
    let r = |a: i64, b: i64| BigRational::new(a.into(), b.into());
    ((r(-3, 10), r(3, 10)), (r(-2, 5), r(2, 5)))
}

/// The regularized saddle point (w, θ) for data mean (ā, b̄), λ > 0 and anchors (ŵ, θ̂).
pub fn reg_saddle(
    a_bar: &BigRational,
    b_bar: &BigRational,
    lambda: &BigRational,
    w_hat: &BigRational,
    theta_hat: &BigRational,
) -> (BigRational, BigRational) {
    assert!(lambda.is_positive(), "λ > 0");
    let ((wl, wh), (tl, th)) = bounds();
    let w = clamp(w_hat - a_bar / lambda, &wl, &wh);
    let t = clamp(theta_hat - b_bar / lambda, &tl, &th);
    (w, t)
}

/// The mean of points (a_i, b_i) with multiplicities `counts`.
pub fn mean(atoms: &[(BigRational, BigRational)], counts: &[usize]) -> (BigRational, BigRational) {
    let n: usize = counts.iter().sum();
    let mut a = BigRational::zero();
    let mut b = BigRational::zero();
    for ((x, y), &c) in atoms.iter().zip(counts) {
        let c = BigRational::from_integer(c.into());
        a += x * &c;
        b += y * &c;
    }
    let n = BigRational::from_integer(n.into());
    (a / &n, b / n)
}
