//! The standard normal CDF Φ and log Φ to a few units in the last place, for the PLD
//! discretization.
//!
//! Why not [`crate::privacy::special`]: it takes erfc from `statrs` 0.18, whose erf/erfc carry
//! interval constants truncated to 10 significant digits and are therefore only ≈ 1e-10 accurate
//! relative (statrs PR #412 restored them later); measured here against mpmath, e.g.
//! erfc(0.5) is off by 1.0e-10 relative. The connect-the-dots split amplifies CDF errors, so the
//! accountant uses this module instead. (Candidate to replace `special::normal_cdf`.)
//!
//! Method, for x ≤ −1/√2 with z = −x/√2:
//! Φ(x) = e^{−x²/2}/(2√π) · K(z), K(z) = 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + …)))), the
//! classical continued fraction of √π·e^{z²}·erfc(z) (Abramowitz & Stegun 7.1.14), evaluated
//! backwards from N = 8 + ⌊300/z²⌋ terms (converged to below 1e-17 for z ≥ ½), with x² split
//! exactly (Dekker) so that e^{−x²/2} keeps full relative accuracy in the far tail. For
//! −1/√2 < x ≤ 0, Φ(x) = ½ + ½·erf(x/√2) from the Maclaurin series of erf (Φ ≥ 0.24 there, so
//! no cancellation). Φ(x) = 1 − Φ(−x) for x > 0. Measured against mpmath at 40 digits over 7000
//! points of [−37, 0]: largest relative error 5.6e-16.

/// Dekker's exact product: a·b = p + e exactly (barring over/underflow).
fn two_prod(a: f64, b: f64) -> (f64, f64) {
    fn split(a: f64) -> (f64, f64) {
        let c = 134_217_729.0 * a;
        let hi = c - (c - a);
        (hi, a - hi)
    }
    let p = a * b;
    let (ah, al) = split(a);
    let (bh, bl) = split(b);
    let e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    (p, e)
}

/// erf(y) by its Maclaurin series, for |y| ≤ ½.
fn erf_series(y: f64) -> f64 {
    let y2 = y * y;
    let mut term = y;
    let mut sum = y;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= -y2 / n;
        let t = term / (2.0 * n + 1.0);
        sum += t;
        if t.abs() < 1e-18 * sum.abs() || n > 60.0 {
            break;
        }
    }
    std::f64::consts::FRAC_2_SQRT_PI * sum
}

/// K(z) by the backward continued fraction, z ≥ ½.
fn cf(z: f64) -> f64 {
    let n = (8.0 + 300.0 / (z * z)).min(1300.0) as usize;
    let mut t = z;
    for k in (1..=n).rev() {
        t = z + (0.5 * k as f64) / t;
    }
    1.0 / t
}

const SWITCH: f64 = -std::f64::consts::FRAC_1_SQRT_2;

/// ln(2√π).
const LN_2_SQRT_PI: f64 = 1.265_512_123_484_645_3;

/// (log e^{−x²/2}, K(−x/√2)) for x ≤ −1/√2.
fn tail_parts(x: f64) -> (f64, f64) {
    let (p, e) = two_prod(x, x);
    (-0.5 * p - 0.5 * e, cf(-x * std::f64::consts::FRAC_1_SQRT_2))
}

/// A per-thread direct-mapped cache of a pure function f64 → f64, keyed by the argument's bits:
/// a hit returns the very value computed before, so results are bit-identical with or without it.
///
/// Why: a PLD discretization evaluates Φ at every cell boundary several times (the cell's mass
/// on both sides of a boundary, the connect-the-dots integral on the same arguments), and the
/// continued fraction costs up to 1300 divisions per evaluation; this was most of the time of
/// the PLD claims in `verify` (issue 12).
struct Memo {
    keys: Vec<u64>,
    vals: Vec<f64>,
}

/// log₂ of the slots per cache (4096 slots, 64 KiB per cache and thread).
const MEMO_BITS: u32 = 12;

impl Memo {
    fn new() -> Memo {
        // The NaN pattern u64::MAX is never a key: NaN arguments bypass the cache.
        Memo {
            keys: vec![u64::MAX; 1 << MEMO_BITS],
            vals: vec![0.0; 1 << MEMO_BITS],
        }
    }
}

/// f(x) through `cache` (see [`Memo`]).
fn memoized(
    cache: &'static std::thread::LocalKey<std::cell::RefCell<Memo>>,
    x: f64,
    f: fn(f64) -> f64,
) -> f64 {
    if x.is_nan() {
        return f(x);
    }
    let key = x.to_bits();
    let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - MEMO_BITS)) as usize;
    if let Some(v) = cache.with(|m| {
        let m = m.borrow();
        (m.keys[slot] == key).then(|| m.vals[slot])
    }) {
        return v;
    }
    // Computed outside any borrow: f may itself go through the cache (Φ(x) = 1 − Φ(−x)).
    let v = f(x);
    cache.with(|m| {
        let mut m = m.borrow_mut();
        m.keys[slot] = key;
        m.vals[slot] = v;
    });
    v
}

thread_local! {
    static PHI_MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::new());
    static LOG_PHI_MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::new());
}

/// Φ(x) = P(N(0, 1) ≤ x). Memoized per thread (`Memo`).
pub fn normal_cdf(x: f64) -> f64 {
    memoized(&PHI_MEMO, x, normal_cdf_direct)
}

/// Φ(x), computed (the method of the module docs).
fn normal_cdf_direct(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 0.0 {
        return 1.0 - normal_cdf(-x);
    }
    if x > SWITCH {
        return 0.5 + 0.5 * erf_series(x * std::f64::consts::FRAC_1_SQRT_2);
    }
    if x < -40.0 {
        return 0.0;
    }
    let (p, e) = two_prod(x, x);
    let ex = (-0.5 * p).exp() * (1.0 - 0.5 * e);
    let k = cf(-x * std::f64::consts::FRAC_1_SQRT_2);
    ex * k / (2.0 * std::f64::consts::PI.sqrt())
}

/// log Φ(x), accurate in the far left tail (no underflow). Memoized per thread (`Memo`).
pub fn log_normal_cdf(x: f64) -> f64 {
    memoized(&LOG_PHI_MEMO, x, log_normal_cdf_direct)
}

/// log Φ(x), computed.
fn log_normal_cdf_direct(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x == f64::NEG_INFINITY {
        return f64::NEG_INFINITY;
    }
    if x > 0.0 {
        return (-normal_cdf(-x)).ln_1p();
    }
    if x > SWITCH {
        return normal_cdf(x).ln();
    }
    let (le, k) = tail_parts(x);
    le + k.ln() - LN_2_SQRT_PI
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memoized_values_are_the_direct_values() {
        // Each argument twice (the second is a hit unless evicted), then again after a sweep
        // that evicts: every value equals the direct computation bit for bit.
        let xs: Vec<f64> = (0..20_000).map(|i| -38.0 + 0.0041 * i as f64).collect();
        for _ in 0..2 {
            for &x in &xs {
                for _ in 0..2 {
                    assert_eq!(
                        normal_cdf(x).to_bits(),
                        normal_cdf_direct(x).to_bits(),
                        "{x}"
                    );
                    assert_eq!(
                        log_normal_cdf(x).to_bits(),
                        log_normal_cdf_direct(x).to_bits(),
                        "{x}"
                    );
                }
            }
        }
        assert!(normal_cdf(f64::NAN).is_nan() && log_normal_cdf(f64::NAN).is_nan());
    }

    /// Φ(x) from mpmath (40 digits), as printed (20 significant digits).
    #[allow(clippy::excessive_precision)]
    const REF: [(f64, f64); 18] = [
        (-37.0, 5.725_571_222_524_576_8e-300),
        (-30.0, 4.906_713_927_148_187e-198),
        (-20.5, 1.076_467_325_879_096e-93),
        (-10.0, 7.619_853_024_160_526e-24),
        (-8.25, 7.919_726_314_642_477e-17),
        (-5.0, 2.866_515_718_791_939e-7),
        (-3.0, 0.001_349_898_031_630_094_5),
        (-2.0, 0.022_750_131_948_179_207),
        (-1.5, 0.066_807_201_268_858_066),
        (-1.0, 0.158_655_253_931_457_05),
        (-0.75, 0.226_627_352_376_868_2),
        (-0.5, 0.308_537_538_725_986_9),
        (-0.1, 0.460_172_162_722_971),
        (0.0, 0.5),
        (0.3, 0.617_911_422_188_952_6),
        (1.0, 0.841_344_746_068_542_9),
        (2.5, 0.993_790_334_674_223_9),
        (6.0, 0.999_999_999_013_412_4),
    ];

    #[test]
    fn matches_mpmath_to_a_few_ulp() {
        for &(x, p) in &REF {
            let v = normal_cdf(x);
            assert!((v - p).abs() <= 2e-15 * p, "Φ({x}) = {v:e}, want {p:e}");
            let l = log_normal_cdf(x);
            assert!((l - p.ln()).abs() <= 2e-15 * p.ln().abs().max(1e-300) + 1e-16);
        }
        // log Φ(−1000) and log Φ(−40) (mpmath).
        assert!((log_normal_cdf(-1000.0) + 500_007.826_694_812_2).abs() < 1e-9);
        assert!((log_normal_cdf(-40.0) + 804.608_442_013_753_8).abs() < 1e-12);
    }

    #[test]
    fn continuous_across_the_switch() {
        let a = normal_cdf(SWITCH);
        let b = normal_cdf(SWITCH * (1.0 + f64::EPSILON));
        assert!((a - b).abs() < 4e-16);
    }
}
