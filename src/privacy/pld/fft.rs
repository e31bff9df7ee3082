//! An iterative radix-2 complex FFT on `f64`, and linear convolution of non-negative sequences
//! with a **proved ℓ1 bound on the round-off** of the computed result.
//!
//! The transform is the textbook Cooley–Tukey decimation-in-time algorithm: a bit-reversal
//! permutation followed by log₂N passes of butterflies `(u, v) ↦ (u + w·v, u − w·v)`. It is the
//! algorithm analysed in Higham, *Accuracy and Stability of Numerical Algorithms* (2nd ed., 2002),
//! Theorem 24.2: with twiddle factors computed to absolute error ≤ μ, the computed ŷ = fl(F x)
//! satisfies ‖ŷ − F x‖₂ ≤ ε_F ‖F x‖₂ with
//! ε_F = L·η / (1 − L·η), L = log₂N, η = μ + γ₄(√2 + μ), γ_k = k·u/(1 − k·u), u = 2⁻⁵³.
//!
//! Twiddles w_k = exp(−2πik/N) are computed from angles reduced to [0, π/4] (k/N is exact for
//! N a power of two, so the angle carries one rounding of 2π·(k/N)); the error of each component
//! is then below 2.5u, and we use μ = 4u.
//!
//! [`convolve`] bounds the ℓ1 error of FFT convolution c = IFFT(FFT(a)·FFT(b)) by propagating the
//! bound above through the two forward transforms, the pointwise product (|fl(xy) − xy| ≤
//! √2·γ₂|x||y| for complex x, y: Higham Lemma 3.5) and the inverse transform, then converting the
//! ℓ2 bound to ℓ1 with the factor √M (M = the length of the linear convolution). Negative outputs
//! are clamped to 0, which cannot increase the error because the exact convolution of
//! non-negative sequences is non-negative. Small inputs are convolved directly, with the
//! inner-product bound γ_m‖a‖₁‖b‖₁ (Higham §3.1; m = the most terms in one output entry).
//!
//! That bound is ≈ √M·log₂N·10u·‖a‖₂, and a k-fold composition multiplies early errors by up to
//! k, so the accountant uses [`convolve_hybrid`]: the bulk of the mass is convolved directly with
//! compensated summation (error ≈ 5u) and only the thin tails (mass ≤ 1e-6) go through the FFT.

use std::f64::consts::PI;

/// Unit round-off of `f64`.
pub const U: f64 = f64::EPSILON / 2.0;

/// γ_k = k·u/(1 − k·u) (Higham §3.1).
pub fn gamma(k: f64) -> f64 {
    k * U / (1.0 - k * U)
}

/// A complex number (re, im).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Complex {
    /// Real part.
    pub re: f64,
    /// Imaginary part.
    pub im: f64,
}

impl Complex {
    /// re + i·im.
    pub const fn new(re: f64, im: f64) -> Self {
        Complex { re, im }
    }

    /// Complex conjugate.
    #[inline]
    pub fn conj(self) -> Complex {
        Complex::new(self.re, -self.im)
    }

    /// Modulus |z|.
    pub fn abs(self) -> f64 {
        self.re.hypot(self.im)
    }
}

impl std::ops::Add for Complex {
    type Output = Complex;
    #[inline]
    fn add(self, o: Complex) -> Complex {
        Complex::new(self.re + o.re, self.im + o.im)
    }
}

impl std::ops::Sub for Complex {
    type Output = Complex;
    #[inline]
    fn sub(self, o: Complex) -> Complex {
        Complex::new(self.re - o.re, self.im - o.im)
    }
}

impl std::ops::Mul for Complex {
    type Output = Complex;
    #[inline]
    fn mul(self, o: Complex) -> Complex {
        Complex::new(
            self.re * o.re - self.im * o.im,
            self.re * o.im + self.im * o.re,
        )
    }
}

/// A transform size N (a power of two) with its twiddle factors w_k = exp(−2πik/N), k < N/2.
#[derive(Clone, Debug)]
pub struct FftPlan {
    n: usize,
    twiddles: Vec<Complex>,
}

impl FftPlan {
    /// A plan for size `n`; `n` must be a power of two (≥ 1), else `None`.
    pub fn new(n: usize) -> Option<Self> {
        if n == 0 || !n.is_power_of_two() {
            return None;
        }
        let twiddles = (0..n / 2).map(|k| twiddle(k, n)).collect();
        Some(FftPlan { n, twiddles })
    }

    /// The size N.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false (N ≥ 1); present for clippy's `len_without_is_empty`.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// In place: x ← F x, (F x)_j = Σ_k x_k exp(−2πijk/N). Panics if `x.len() != N`.
    pub fn forward(&self, x: &mut [Complex]) {
        self.transform(x, false);
    }

    /// In place: x ← F* x / N (the inverse of [`FftPlan::forward`]; the scaling by 1/N is exact
    /// because N is a power of two). Panics if `x.len() != N`.
    pub fn inverse(&self, x: &mut [Complex]) {
        self.transform(x, true);
        let s = 1.0 / self.n as f64;
        for z in x.iter_mut() {
            z.re *= s;
            z.im *= s;
        }
    }

    fn transform(&self, x: &mut [Complex], conjugate: bool) {
        let n = self.n;
        assert_eq!(x.len(), n, "FFT input length must equal the plan size");
        if n == 1 {
            return;
        }
        // Bit-reversal permutation.
        let bits = n.trailing_zeros();
        for i in 0..n {
            let j = i.reverse_bits() >> (usize::BITS - bits);
            if i < j {
                x.swap(i, j);
            }
        }
        // Butterflies.
        let mut len = 2;
        while len <= n {
            let half = len / 2;
            let step = n / len;
            for start in (0..n).step_by(len) {
                for j in 0..half {
                    let w = self.twiddles[j * step];
                    let w = if conjugate { w.conj() } else { w };
                    let u = x[start + j];
                    let v = x[start + j + half] * w;
                    x[start + j] = u + v;
                    x[start + j + half] = u - v;
                }
            }
            len *= 2;
        }
    }

    /// ε_F of Higham Theorem 24.2 for this size with μ = 4u.
    pub fn relative_error_bound(&self) -> f64 {
        transform_error_bound(self.n)
    }
}

/// exp(−2πik/n) for 0 ≤ k < n/2, from an angle reduced to [0, π/4].
fn twiddle(k: usize, n: usize) -> Complex {
    // θ = 2πk/n ∈ [0, π); cos θ and −sin θ from a reduced angle.
    let ang = |m: usize| 2.0 * PI * (m as f64 / n as f64);
    let (c, s) = if 8 * k <= n {
        let t = ang(k);
        (t.cos(), t.sin())
    } else if 4 * k <= n {
        let t = ang(n / 4 - k);
        (t.sin(), t.cos())
    } else if 8 * k <= 3 * n {
        let t = ang(k - n / 4);
        (-t.sin(), t.cos())
    } else {
        let t = ang(n / 2 - k);
        (-t.cos(), t.sin())
    };
    Complex::new(c, -s)
}

/// ε_F = L·η/(1 − L·η) with L = log₂n, η = μ + γ₄(√2 + μ), μ = 4u (Higham Theorem 24.2).
pub fn transform_error_bound(n: usize) -> f64 {
    let l = f64::from(n.max(1).trailing_zeros());
    let mu = 4.0 * U;
    let eta = mu + gamma(4.0) * (std::f64::consts::SQRT_2 + mu);
    l * eta / (1.0 - l * eta)
}

/// The naive O(N²) DFT, (F x)_j = Σ_k x_k exp(−2πijk/N), for testing the FFT.
pub fn dft_naive(x: &[Complex]) -> Vec<Complex> {
    let n = x.len();
    (0..n)
        .map(|j| {
            x.iter()
                .enumerate()
                .fold(Complex::default(), |acc, (k, &v)| {
                    let t = -2.0 * PI * ((j * k) % n) as f64 / n as f64;
                    acc + v * Complex::new(t.cos(), t.sin())
                })
        })
        .collect()
}

/// Below this many products a·b the convolution is computed directly.
const DIRECT_LIMIT: usize = 1 << 14;

/// The direct linear convolution c_k = Σ_i a_i b_{k−i} with its ℓ1 round-off bound
/// γ_m ‖a‖₁‖b‖₁, m = min(len a, len b).
pub fn convolve_direct(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    let mut c = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            c[i + j] += x * y;
        }
    }
    let m = a.len().min(b.len()) as f64;
    let bound = gamma(m + 1.0) * l1(a) * l1(b);
    (c, bound)
}

fn l1(v: &[f64]) -> f64 {
    v.iter().map(|x| x.abs()).sum::<f64>() * (1.0 + gamma(v.len() as f64))
}

fn l2(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt() * (1.0 + gamma(v.len() as f64 + 2.0))
}

/// The linear convolution of two non-negative sequences, with a bound on the ℓ1 norm of its
/// round-off error (see the module docs). Outputs are clamped to ≥ 0.
pub fn convolve(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    if a.len().saturating_mul(b.len()) <= DIRECT_LIMIT {
        let (mut c, e) = convolve_direct(a, b);
        c.iter_mut().for_each(|x| *x = x.max(0.0));
        return (c, e);
    }
    let m = a.len() + b.len() - 1;
    let n = m.next_power_of_two();
    let plan = FftPlan::new(n).expect("power of two");
    let embed = |v: &[f64]| {
        let mut z = vec![Complex::default(); n];
        for (zi, &x) in z.iter_mut().zip(v) {
            zi.re = x;
        }
        z
    };
    let mut fa = embed(a);
    plan.forward(&mut fa);
    let same = std::ptr::eq(a, b);
    if same {
        for z in fa.iter_mut() {
            *z = *z * *z;
        }
    } else {
        let mut fb = embed(b);
        plan.forward(&mut fb);
        for (x, y) in fa.iter_mut().zip(&fb) {
            *x = *x * *y;
        }
    }
    plan.inverse(&mut fa);
    let c: Vec<f64> = fa[..m].iter().map(|z| z.re.max(0.0)).collect();
    let bound = fft_convolution_bound(n, m, l1(a), l2(a), l1(b), l2(b));
    (c, bound)
}

/// The ℓ1 round-off bound of an FFT convolution of size `n` (linear length `m`) of inputs with
/// the given ℓ1 and ℓ2 norms (module docs):
/// ΔC/√N ≤ ε_F(‖a‖₂‖b‖₁ + ‖a‖₁‖b‖₂) + ε_F²√N‖a‖₂‖b‖₂ + c_×(1 + ε_F)·min((‖a‖₁ + ε_F√N‖a‖₂)‖b‖₂, (‖b‖₁ + ε_F√N‖b‖₂)‖a‖₂),
/// ‖ĉ − c‖₂ ≤ (1 + ε_F)ΔC/√N + ε_F·min(‖a‖₁‖b‖₂, ‖a‖₂‖b‖₁) (Young), ‖ĉ − c‖₁ ≤ √m‖ĉ − c‖₂, with c_× = √2γ₂; the result
/// is inflated by 1% to cover the rounding of this formula itself.
pub fn fft_convolution_bound(n: usize, m: usize, a1: f64, a2: f64, b1: f64, b2: f64) -> f64 {
    let ef = transform_error_bound(n);
    let sn = (n as f64).sqrt();
    let cx = std::f64::consts::SQRT_2 * gamma(2.0);
    // The product's rounding: c_×·min(‖A‖_∞‖B‖₂, ‖A‖₂‖B‖_∞)/√N, ‖A‖_∞ ≤ ‖a‖₁ + ε_F√N‖a‖₂.
    let prod = ((a1 + ef * sn * a2) * b2).min((b1 + ef * sn * b2) * a2);
    let dc = ef * (a2 * b1 + a1 * b2) + ef * ef * sn * a2 * b2 + cx * prod * (1.0 + ef);
    let e2 = (1.0 + ef) * dc + ef * (a1 * b2).min(a2 * b1);
    1.01 * (m as f64).sqrt() * e2
}

/// The direct linear convolution with Kahan-compensated accumulation in each output entry
/// (vectorizable order: for each i, all j), with its ℓ1 round-off bound
/// (5u + 4(m u)²)·‖a‖₁‖b‖₁ for non-negative inputs, m = min(len a, len b): compensated summation
/// errs by at most (2u + O(m u²)) times the sum of the (non-negative) terms (Higham §4.3,
/// Goldberg Thm 8), and each product by u.
pub fn convolve_compensated(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    let m = a.len() + b.len() - 1;
    let mut sum = vec![0.0f64; m];
    let mut comp = vec![0.0f64; m];
    for (i, &x) in a.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        let s = &mut sum[i..i + b.len()];
        let c = &mut comp[i..i + b.len()];
        for ((sk, ck), &y) in s.iter_mut().zip(c.iter_mut()).zip(b) {
            let t = x * y - *ck;
            let z = *sk + t;
            *ck = (z - *sk) - t;
            *sk = z;
        }
    }
    let mu = a.len().min(b.len()) as f64 * U;
    let bound = (5.0 * U + 4.0 * mu * mu) * l1(a) * l1(b);
    (sum, bound)
}

/// The index window [lo, hi] of `v` outside which at most `tail`/2 of its ℓ1 mass lies on each
/// side.
fn core_window(v: &[f64], tail: f64) -> (usize, usize) {
    let n = v.len();
    let (mut lo, mut acc) = (0usize, 0.0);
    while lo + 1 < n && acc + v[lo] <= 0.5 * tail {
        acc += v[lo];
        lo += 1;
    }
    let (mut hi, mut acc) = (n - 1, 0.0);
    while hi > lo && acc + v[hi] <= 0.5 * tail {
        acc += v[hi];
        hi -= 1;
    }
    (lo, hi)
}

/// Above this many products the cores are not convolved directly.
pub const CORE_WORK: usize = 1 << 24;

/// The mass left outside the cores of [`convolve_hybrid`].
pub const CORE_TAIL: f64 = 1e-6;

/// The linear convolution of two non-negative sequences, split to keep the round-off small:
/// with cores a_c, b_c (all but [`CORE_TAIL`] of the mass) and tails a_t = a − a_c, b_t,
/// a ⊛ b = a_c ⊛ b_c (compensated direct sum, [`convolve_compensated`])
///       + a_c ⊛ b_t + a_t ⊛ b (FFT, [`convolve`]; for a = b one FFT of a_t ⊛ (a + a_c)).
/// The FFT's error bound scales with the norms of its inputs, here ≤ the tails' mass, so the
/// ℓ1 error is ≈ 5u instead of ≈ √M·log₂N·10u·‖a‖₂. Falls back to [`convolve`] when the cores
/// are too large for the direct sum. Returns the convolution (clamped ≥ 0) and its ℓ1 error
/// bound.
pub fn convolve_hybrid(a: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
    if a.is_empty() || b.is_empty() {
        return (Vec::new(), 0.0);
    }
    let same = std::ptr::eq(a, b);
    let (alo, ahi) = core_window(a, CORE_TAIL);
    let (blo, bhi) = if same {
        (alo, ahi)
    } else {
        core_window(b, CORE_TAIL)
    };
    let (na, nb) = (ahi - alo + 1, bhi - blo + 1);
    if na.saturating_mul(nb) > CORE_WORK {
        return convolve(a, b);
    }
    let m = a.len() + b.len() - 1;
    let (core, e_core) = convolve_compensated(&a[alo..=ahi], &b[blo..=bhi]);
    let tail_of = |v: &[f64], lo: usize, hi: usize| {
        let mut t = v.to_vec();
        t[lo..=hi].iter_mut().for_each(|x| *x = 0.0);
        t
    };
    let a_t = tail_of(a, alo, ahi);
    let mut out = vec![0.0f64; m];
    let mut e_fft = 0.0;
    let add = |out: &mut [f64], c: &[f64]| {
        for (o, x) in out.iter_mut().zip(c) {
            *o += x;
        }
    };
    if same {
        // a_c ⊛ a_t + a_t ⊛ a = a_t ⊛ (a + a_c).
        let mut a_plus = a.to_vec();
        for (x, y) in a_plus[alo..=ahi].iter_mut().zip(&a[alo..=ahi]) {
            *x += y;
        }
        if a_t.iter().any(|&x| x > 0.0) {
            let (c, e) = convolve(&a_t, &a_plus);
            add(&mut out, &c);
            e_fft += e + gamma(2.0) * l1(&a_t) * l1(&a_plus);
        }
    } else {
        let b_t = tail_of(b, blo, bhi);
        let mut a_c = vec![0.0; a.len()];
        a_c[alo..=ahi].copy_from_slice(&a[alo..=ahi]);
        if b_t.iter().any(|&x| x > 0.0) {
            let (c, e) = convolve(&a_c, &b_t);
            add(&mut out, &c);
            e_fft += e;
        }
        if a_t.iter().any(|&x| x > 0.0) {
            let (c, e) = convolve(&a_t, b);
            add(&mut out, &c);
            e_fft += e;
        }
    }
    let off = alo + blo;
    for (o, x) in out[off..off + core.len()].iter_mut().zip(&core) {
        *o += x;
    }
    // Adding up to three non-negative parts: 2u relative each entry.
    let total: f64 = out.iter().sum::<f64>() * (1.0 + gamma(m as f64));
    out.iter_mut().for_each(|x| *x = x.max(0.0));
    (out, e_core + e_fft + gamma(3.0) * total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lcg(seed: &mut u64) -> f64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 11) as f64 / (1u64 << 53) as f64
    }

    #[test]
    fn fft_matches_naive_dft_and_inverts() {
        let mut seed = 7;
        for &n in &[1usize, 2, 4, 8, 16, 64, 256, 1024] {
            let x: Vec<Complex> = (0..n)
                .map(|_| Complex::new(lcg(&mut seed) - 0.5, lcg(&mut seed) - 0.5))
                .collect();
            let plan = FftPlan::new(n).unwrap();
            let mut y = x.clone();
            plan.forward(&mut y);
            let z = dft_naive(&x);
            let err = y
                .iter()
                .zip(&z)
                .map(|(a, b)| (*a - *b).abs())
                .fold(0.0, f64::max);
            let scale = z.iter().map(|v| v.abs()).fold(1e-300, f64::max);
            assert!(err / scale < 1e-13, "n = {n}: relative error {err}");
            plan.inverse(&mut y);
            let back = y
                .iter()
                .zip(&x)
                .map(|(a, b)| (*a - *b).abs())
                .fold(0.0, f64::max);
            assert!(back < 1e-14, "n = {n}: round trip {back}");
        }
        assert!(FftPlan::new(12).is_none());
        assert!(FftPlan::new(0).is_none());
    }

    #[test]
    fn twiddles_are_accurate() {
        let n = 1 << 12;
        let plan = FftPlan::new(n).unwrap();
        for (k, w) in plan.twiddles.iter().enumerate() {
            let t = -2.0 * PI * k as f64 / n as f64;
            assert!((w.re - t.cos()).abs() < 1e-15 && (w.im - t.sin()).abs() < 1e-15);
        }
    }

    #[test]
    fn hybrid_convolution_matches_and_has_a_small_bound() {
        let mut seed = 5;
        // A peaked distribution with long thin tails, like a subsampled Gaussian's PLD.
        let a: Vec<f64> = (0..6000)
            .map(|i| {
                let x = (i as f64 - 1000.0) / 40.0;
                (-0.5 * x * x).exp() + 1e-9 * lcg(&mut seed)
            })
            .collect();
        let s: f64 = a.iter().sum();
        let a: Vec<f64> = a.iter().map(|x| x / s).collect();
        let b: Vec<f64> = a.iter().rev().copied().collect();
        for (x, y) in [(&a, &a), (&a, &b)] {
            let (h, eh) = if std::ptr::eq(x, y) {
                convolve_hybrid(x, x)
            } else {
                convolve_hybrid(x, y)
            };
            let (f, ef) = convolve(x, y);
            let (c, ec) = convolve_compensated(x, y);
            let d_h: f64 = h.iter().zip(&c).map(|(p, q)| (p - q).abs()).sum();
            let d_f: f64 = f.iter().zip(&c).map(|(p, q)| (p - q).abs()).sum();
            assert!(d_h <= eh + ec, "{d_h} > {eh} + {ec}");
            assert!(d_f <= ef + ec, "{d_f} > {ef} + {ec}");
            assert!(eh < 1e-15 && eh < ef / 100.0, "hybrid {eh:e}, fft {ef:e}");
        }
    }

    #[test]
    fn fft_convolution_error_is_within_its_bound() {
        let mut seed = 11;
        for &(na, nb) in &[(300usize, 500usize), (2000, 2000), (5000, 37)] {
            let a: Vec<f64> = (0..na).map(|_| lcg(&mut seed)).collect();
            let b: Vec<f64> = (0..nb).map(|_| lcg(&mut seed).powi(8)).collect();
            let sa: f64 = a.iter().sum();
            let sb: f64 = b.iter().sum();
            let a: Vec<f64> = a.iter().map(|x| x / sa).collect();
            let b: Vec<f64> = b.iter().map(|x| x / sb).collect();
            let (c, bound) = convolve(&a, &b);
            let (d, dbound) = convolve_direct(&a, &b);
            let diff: f64 = c.iter().zip(&d).map(|(x, y)| (x - y).abs()).sum();
            assert!(
                diff <= bound + dbound,
                "{na}×{nb}: {diff} > {bound} + {dbound}"
            );
            assert!(bound < 1e-11, "bound {bound}");
            // Self-convolution path.
            let (c2, b2) = convolve(&a, &a);
            let (d2, e2) = convolve_direct(&a, &a);
            let diff2: f64 = c2.iter().zip(&d2).map(|(x, y)| (x - y).abs()).sum();
            assert!(diff2 <= b2 + e2);
        }
    }
}
