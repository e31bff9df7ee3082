//! Special functions for the accountants, in log space where tails matter.
//!
//! * [`normal_cdf`], [`log_normal_cdf`]: Φ and log Φ to a few ulp over the whole real line
//!   (log Φ is finite down to x ≈ −1.9e154, where x²/2 overflows).
//! * [`erfc`], [`erfcx`]: the complementary error function and its scaled form
//!   erfcx(z) = e^{z²} erfc(z), the workhorse of the left tail.
//! * [`log_normal_cdf_scaled`] = ln(Φ(x)·e^{x²/2}) and [`log_normal_cdf_tilted_diff`]
//!   = ln(Φ(a) − e^{(b²−a²)/2}·Φ(b)): the Gaussian privacy curve
//!   δ(ε) = Φ(a) − e^ε Φ(b) with b² − a² = 2ε (analytic Gaussian, μ-GDP) without the
//!   catastrophic cancellation of the two terms in the far tail (see that function).
//! * [`normal_quantile`]: Φ⁻¹ from `statrs`'s erf_inv / erfc_inv with a Newton polish.
//! * [`log_add_exp`], [`log_sub_exp`], [`log_sum_exp`], and [`bisect_threshold`], the
//!   bit-level bisection every calibration in the privacy layer uses.
//!
//! **Why not `statrs::function::erf::erfc` for |z| ≥ ½.** statrs 0.18 ports Boost's rational
//! approximations but writes Boost's `float` offsets (`Y = 0.3440242112F`, …) as `f64`
//! literals, so for z ≥ ½ its erfc carries relative errors of 1e-11 to 1e-10 (9.2e-11 on
//! [0.5, 0.75), 8.1e-11 on [2.25, 3.5), …; measured against mpmath, and exactly the relative
//! difference between each literal and its f32 value), and its erf up to 9e-11 near ½. That is far too coarse for a
//! correctness oracle, so here: |z| < ½ uses statrs's erf (accurate to 2⁻⁵², where those
//! offsets are not used); ½ ≤ z < 2 uses Taylor series of erfcx about the six centres
//! 0.625 + 0.25j, whose coefficients follow from erfcx' = 2z·erfcx − 2/√π; z ≥ 2 uses the even
//! (Jacobi) contraction of Laplace's continued fraction. erfc(z) = erfcx(z)·e^{−z²} with z²
//! split exactly (FMA), and erfc(−z) = 2 − erfc(z).
//!
//! Accuracy is asserted in `tests/it/privacy_closed_forms.rs` against 80-digit mpmath references
//! (the generating script is in that file): ≤ 4e-16 relative for erfc, erfcx, Φ, ln Φ and Φ⁻¹
//! at every reference point.

use statrs::function::erf::{erf, erf_inv, erfc_inv};
use std::f64::consts::{PI, SQRT_2};

/// 1/√π.
const FRAC_1_SQRT_PI: f64 = 0.564_189_583_547_756_3;
/// 2/√π.
const FRAC_2_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;
/// √(π/2).
const SQRT_FRAC_PI_2: f64 = 1.253_314_137_315_500_3;

/// erfcx(0.625 + 0.25j), j = 0..5, from mpmath at 50 digits:
/// `[exp(c*c)*erfc(c) for c in (mpf('0.625') + mpf('0.25')*j for j in range(6))]`.
#[allow(clippy::excessive_precision)] // mpmath's digits, kept verbatim.
const ERFCX_CENTRES: [f64; 6] = [
    0.556_813_880_873_362_504_935_7,
    0.464_311_583_202_669_001_878_6,
    0.395_698_079_552_995_901_404_4,
    0.343_295_889_862_125_379_887_5,
    0.302_261_209_363_485_917_405_7,
    0.269_429_985_164_670_451_746_1,
];

/// x² as an unevaluated sum hi + lo (hi = fl(x·x), lo the exact rounding error, by FMA).
fn two_square(x: f64) -> (f64, f64) {
    let hi = x * x;
    if !hi.is_finite() {
        return (hi, 0.0);
    }
    let lo = x.mul_add(x, -hi);
    (hi, lo)
}

/// e^{−x²} with x² split exactly, so the rounding of x² is not amplified by x².
fn exp_neg_square(x: f64) -> f64 {
    let (hi, lo) = two_square(x);
    let e = (-hi).exp();
    e - e * lo
}

/// erfcx on [½, 2) by the Taylor series about the nearest centre c = 0.625 + 0.25j (|h| ≤ ⅛):
/// with y = Σ c_k h^k, (k+1)c_{k+1} = 2c·c_k + 2c_{k−1} − (2/√π)[k = 0].
fn erfcx_mid(z: f64) -> f64 {
    let j = (((z - 0.5) * 4.0) as usize).min(5);
    let c = 0.625 + 0.25 * j as f64;
    let h = z - c; // exact (Sterbenz)
    const N: usize = 24;
    let mut coef = [0.0f64; N + 1];
    coef[0] = ERFCX_CENTRES[j];
    coef[1] = 2.0 * c * coef[0] - FRAC_2_SQRT_PI;
    for k in 1..N {
        coef[k + 1] = (2.0 * c * coef[k] + 2.0 * coef[k - 1]) / (k as f64 + 1.0);
    }
    coef.iter().rev().fold(0.0, |acc, &ck| acc * h + ck)
}

/// The scaled complementary error function erfcx(z) = e^{z²}·erfc(z).
///
/// Relative error ≲ 5e-16 for z ≥ 0 (tested against 80-digit references). For z < 0 it is
/// 2e^{z²} − erfcx(−z), which overflows to +∞ below z ≈ −26.6.
pub fn erfcx(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    if z < 0.0 {
        let (hi, lo) = two_square(z);
        let e = hi.exp();
        return 2.0 * (e + e * lo) - erfcx(-z);
    }
    if z < 0.5 {
        // z² < ¼: its rounding is harmless; erfc = 1 − erf ∈ (0.47, 1] has no cancellation.
        return (z * z).exp() * (1.0 - erf(z));
    }
    if z < 2.0 {
        return erfcx_mid(z);
    }
    if z > 1e8 {
        // erfcx(z) = 1/(z√π)·(1 − 1/(2z²) + …); the correction is below 2⁻⁵³.
        return FRAC_1_SQRT_PI / z;
    }
    // erfcx(z) = (z/√π) / (z² + 1/2 − (1·2/4)/(z² + 5/2 − (3·4/4)/(z² + 9/2 − …))),
    // evaluated backwards; 10 + 100/z² terms reach full precision for z ≥ 2 (27 needed at z = 2).
    let z2 = z * z;
    let n = 10 + (100.0 / z2) as usize;
    let mut t = 0.0;
    for k in (1..=n).rev() {
        let kf = k as f64;
        t = kf * (2.0 * kf - 1.0) * 0.5 / (z2 + 2.0 * kf + 0.5 - t);
    }
    FRAC_1_SQRT_PI * z / (z2 + 0.5 - t)
}

/// The complementary error function erfc(z) = 1 − erf(z), to a few ulp (relative) until it
/// underflows (z > 26.5); see the module notes for why statrs's erfc is not used.
pub fn erfc(z: f64) -> f64 {
    if z.is_nan() {
        return f64::NAN;
    }
    if z.abs() < 0.5 {
        return 1.0 - erf(z);
    }
    if z < 0.0 {
        return 2.0 - erfc(-z);
    }
    if z > 27.3 {
        return 0.0;
    }
    erfcx(z) * exp_neg_square(z)
}

/// Φ(x) = P(N(0,1) ≤ x) = erfc(−x/√2)/2, to a few ulp until it underflows (x < −38.5).
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let z = -x / SQRT_2;
    if z < 0.5 {
        if z > -0.5 {
            return 0.5 * (1.0 + erf(-z));
        }
        return 1.0 - normal_cdf(-x);
    }
    // Φ(x) = ½·erfcx(−x/√2)·e^{−x²/2}, with x² split exactly so e^{−x²/2} has no rounding
    // error amplified by x² (erfcx is well conditioned, so rounding −x/√2 is harmless).
    let (hi, lo) = two_square(x);
    let e = (-0.5 * hi).exp();
    0.5 * erfcx(z) * (e - e * 0.5 * lo)
}

/// ln Φ(x), accurate to a few ulp over the whole line (−∞ only for x < −1.9e154).
pub fn log_normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x >= 0.0 {
        // ln(1 − Φ(−x)) without cancellation.
        return (-normal_cdf(-x)).ln_1p();
    }
    let z = -x / SQRT_2;
    if z < 0.5 {
        return normal_cdf(x).ln();
    }
    let (hi, lo) = two_square(x);
    -0.5 * hi + ((0.5 * erfcx(z)).ln() - 0.5 * lo)
}

/// ln(1 − Φ(x)) = ln Φ(−x).
pub fn log_normal_sf(x: f64) -> f64 {
    log_normal_cdf(-x)
}

/// ln(Φ(x)·e^{x²/2}) = ln(erfcx(−x/√2)/2): log Φ with its Gaussian factor removed, which varies
/// slowly (≈ −ln(|x|√(2π)) as x → −∞) and so can be differenced without cancellation.
pub fn log_normal_cdf_scaled(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x <= 0.0 {
        (0.5 * erfcx(-x / SQRT_2)).ln()
    } else {
        0.5 * x * x + log_normal_cdf(x)
    }
}

/// ln(Φ(a) − e^{(b²−a²)/2}·Φ(b)) for b ≤ a (NaN if b > a, −∞ if b = a).
///
/// With φ the standard normal density and M(x) = Φ(x)/φ(x), the quantity is φ(a)·(M(a) − M(b)):
/// the exponential tilt e^{(b²−a²)/2} is exactly φ(b)/φ(a). This is the Gaussian privacy curve
/// δ(ε) = Φ(a) − e^ε Φ(b) with b² − a² = 2ε (analytic Gaussian: a = Δ/(2σ) − εσ/Δ,
/// b = a − Δ/σ; μ-GDP: a = μ/2 − ε/μ, b = a − μ). In the far tail the two terms agree to many
/// digits (their ratio is ≈ |a|/|b|), so subtracting them, even as a log-sub-exp of ln Φ values,
/// loses ln(1/(1 − |a|/|b|)) digits to the rounding of ln Φ (itself ≈ x²/2). Here the ratio is
/// formed from the slowly varying scaled values instead:
///
/// ln δ = ln Φ(a) + ln(1 − e^{−D}),  D = ln(M(a)/M(b)) = ln(erfcx(−a/√2)/erfcx(−b/√2)),
///
/// so the result has relative error ≈ (a few ulp)/D + |a|·ulp(a), close to the conditioning of
/// δ itself (measured in the tests against 80-digit references down to δ ≈ 1e-300 and beyond).
pub fn log_normal_cdf_tilted_diff(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() || b > a {
        return f64::NAN;
    }
    if a == b {
        return f64::NEG_INFINITY;
    }
    if b == f64::NEG_INFINITY {
        return log_normal_cdf(a);
    }
    let d = if a <= 0.0 {
        (erfcx(-a / SQRT_2) / erfcx(-b / SQRT_2)).ln()
    } else {
        log_normal_cdf_scaled(a) - log_normal_cdf_scaled(b)
    };
    if d.is_nan() || d <= 0.0 {
        // Equal after rounding (only when b and a are within an ulp or two).
        return f64::NEG_INFINITY;
    }
    log_normal_cdf(a) + (-(-d).exp_m1()).ln()
}

/// The standard normal density φ(x).
pub fn normal_pdf(x: f64) -> f64 {
    let (hi, lo) = two_square(x);
    let e = (-0.5 * hi).exp();
    (e - e * 0.5 * lo) / (2.0 * PI).sqrt()
}

/// Φ⁻¹(p), the standard normal quantile, accurate to ≈ 1 ulp (relative) on all of (0, 1),
/// down to p = 1e-300 and below. For p < ¼: −√2·erfc⁻¹(2p) from `statrs`, then Newton steps on
/// ln Φ(x) = ln p (step (ln Φ(x) − ln p)·Φ(x)/φ(x), with Φ/φ = √(π/2)·erfcx(−x/√2)). For
/// ¼ ≤ p ≤ ½: √2·erf⁻¹(2p − 1) then Newton steps on ½·erf(x/√2) = p − ½ (p − ½ is exact there,
/// and erf is accurate relative to its small value, so x near 0 keeps its relative accuracy).
/// p > ½ uses Φ⁻¹(p) = −Φ⁻¹(1 − p) (1 − p is exact there). Returns ∓∞ at p = 0, 1 and NaN
/// outside [0, 1].
pub fn normal_quantile(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    if p > 0.5 {
        return -normal_quantile(1.0 - p);
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 0.5 {
        return 0.0;
    }
    if p >= 0.25 {
        let t = p - 0.5;
        let mut x = SQRT_2 * erf_inv(2.0 * t);
        for _ in 0..3 {
            let step = (0.5 * erf(x / SQRT_2) - t) / normal_pdf(x);
            x -= step;
            if step.abs() <= 1e-17 * x.abs() {
                break;
            }
        }
        return x;
    }
    let lp = p.ln();
    let mut x = -SQRT_2 * erfc_inv(2.0 * p);
    for _ in 0..3 {
        let r = log_normal_cdf(x) - lp;
        let step = r * SQRT_FRAC_PI_2 * erfcx(-x / SQRT_2);
        if !step.is_finite() {
            break;
        }
        x -= step;
        if step.abs() <= 1e-17 * x.abs() {
            break;
        }
    }
    x
}

/// ln(eᵃ + eᵇ).
pub fn log_add_exp(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// ln(eᵃ − eᵇ) for a ≥ b (−∞ when equal; NaN when a < b).
pub fn log_sub_exp(a: f64, b: f64) -> f64 {
    if b == f64::NEG_INFINITY {
        return a;
    }
    if a < b {
        return f64::NAN;
    }
    if a == b {
        return f64::NEG_INFINITY;
    }
    a + (-(b - a).exp()).ln_1p()
}

/// ln Σ exp(v_i), stable.
pub fn log_sum_exp(v: &[f64]) -> f64 {
    let m = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if m == f64::NEG_INFINITY {
        return m;
    }
    m + v.iter().map(|x| (x - m).exp()).sum::<f64>().ln()
}

/// The cap on doublings in [`bracket_up`] and halvings in the calibrations: 2¹⁰⁷⁴ < 2²¹⁰⁰
/// covers every positive float.
pub const MAX_BRACKET_STEPS: usize = 2100;

/// The smallest float x in (lo, hi] with `ok(x)`, for a predicate that is monotone (false below
/// a threshold, true above) on 0 ≤ lo < hi, given `ok(lo)` false and `ok(hi)` true (neither is
/// re-evaluated). Bisects the bit patterns, which order non-negative floats, so it ends after at
/// most 64 evaluations with lo and hi adjacent floats, and returns hi: the conservative end when
/// `ok` means "the guarantee holds".
pub fn bisect_threshold(lo: f64, hi: f64, mut ok: impl FnMut(f64) -> bool) -> f64 {
    debug_assert!(lo >= 0.0 && lo < hi);
    let mut lb = lo.to_bits();
    let mut hb = hi.to_bits();
    // Halving a gap of at most 2⁶⁴ bit patterns: at most 64 steps (the cap is a second guard).
    let mut steps = 0;
    while hb > lb && hb - lb > 1 && steps < 128 {
        steps += 1;
        let mb = lb + (hb - lb) / 2;
        if ok(f64::from_bits(mb)) {
            hb = mb;
        } else {
            lb = mb;
        }
    }
    f64::from_bits(hb)
}

/// Double `start` (> 0) until `ok` holds; returns (last failing point or 0, first passing
/// point), or `None` if no finite float passes (or `start` is not a positive finite float). At
/// most [`MAX_BRACKET_STEPS`] doublings: from the smallest subnormal to the largest float.
pub fn bracket_up(start: f64, mut ok: impl FnMut(f64) -> bool) -> Option<(f64, f64)> {
    let mut lo = 0.0;
    let mut x = start;
    if x.is_nan() || x <= 0.0 {
        return None;
    }
    let mut steps = 0;
    while x.is_finite() && steps < MAX_BRACKET_STEPS {
        steps += 1;
        if ok(x) {
            return Some((lo, x));
        }
        lo = x;
        x *= 2.0;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_cdf_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-16);
        // Φ(−1.96) ≈ 0.024997895148220435 (reference from the closed form via erfc).
        assert!((normal_cdf(-1.96) - 0.024997895148220435).abs() < 1e-16);
        // log Φ continuity across the switch at −1/√2.
        let s = std::f64::consts::FRAC_1_SQRT_2;
        let a = log_normal_cdf(-s * (1.0 - 1e-12));
        let b = log_normal_cdf(-s * (1.0 + 1e-12));
        assert!((a - b).abs() < 1e-11);
    }

    #[test]
    fn log_exp_helpers() {
        assert!((log_add_exp(0.0, 0.0) - 2f64.ln()).abs() < 1e-15);
        assert!((log_sub_exp(2f64.ln(), 0.0)).abs() < 1e-15);
        assert!((log_sum_exp(&[0.0, 0.0, 0.0]) - 3f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn erfcx_is_continuous_at_the_switch() {
        for &z in &[0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0] {
            let a = erfcx(z - 1e-15);
            let b = erfcx(z);
            assert!((a / b - 1.0).abs() < 4e-15, "switch at {z}");
        }
        assert!((erfc(-0.7) - 2.0 + erfc(0.7)).abs() < 1e-16);
        assert_eq!(erfcx(0.0), 1.0);
        assert!((erfcx(-1.0) - 2.0 * 1f64.exp() + erfcx(1.0)).abs() < 1e-15);
    }

    #[test]
    fn bisection_finds_the_threshold() {
        let x = bisect_threshold(0.0, 10.0, |x| x * x >= 2.0);
        assert!(x * x >= 2.0);
        let below = f64::from_bits(x.to_bits() - 1);
        assert!(below * below < 2.0);
        assert_eq!(bracket_up(1.0, |x| x >= 5.0), Some((4.0, 8.0)));
    }

    #[test]
    fn scaled_and_tilted_are_consistent() {
        for &x in &[-50.0, -3.0, -0.2, 0.0, 0.7, 4.0] {
            let direct = log_normal_cdf(x) + 0.5 * x * x;
            assert!((log_normal_cdf_scaled(x) - direct).abs() < 1e-13 * (1.0 + direct.abs()));
        }
        // a = 1/2 − 1, b = a − 1 (μ = 1, ε = 1): δ = 0.12693673750664395.
        let ld = log_normal_cdf_tilted_diff(-0.5, -1.5);
        assert!((ld.exp() / 0.126_936_737_506_643_95 - 1.0).abs() < 1e-14);
        assert!(log_normal_cdf_tilted_diff(-1.0, 0.0).is_nan());
        assert_eq!(log_normal_cdf_tilted_diff(1.0, 1.0), f64::NEG_INFINITY);
    }
}
