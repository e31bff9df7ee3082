//! The exact discrete Gaussian sampler of Canonne, Kamath and Steinke (2020), "The Discrete
//! Gaussian for Differential Privacy" (CKS20), Algorithms 1–3, and an output-perturbation
//! release on an integer grid built on it.
//!
//! # The float-safe tier
//!
//! Everything here is exact: the parameters are [`BigRational`]s, every intermediate is a
//! big integer or a big rational, and the only randomness consumed is uniform integers drawn
//! **without bias** from 64-bit words ([`uniform_below`]). No floating-point number is computed
//! on the way from the random words to a sample, so the output distribution is exactly the
//! stated one (given ideal uniform words), with none of the artefacts of floating-point
//! samplers (Mironov 2012) that make the crate's reference tier (`crate::rng`, Box–Muller)
//! unfit for releasing private data. This is the tier to release data with. Two caveats remain:
//! the words come from a [`Stream`], a seeded (hence reproducible, not secret) ChaCha20 stream,
//! so a real deployment must feed [`RandomBits`] from a cryptographic source with a secret
//! seed; and the running time depends on the random draws (rejection loops), a timing side
//! channel that CKS20 §5 discusses.
//!
//! # The recipe (draw for draw, so that another implementation can regenerate a sample)
//!
//! All rationals are kept in lowest terms (as `BigRational` always is), and all draws come from
//! one [`RandomBits`] source in the order below.
//!
//! - **Uniform in \[0, n)** ([`uniform_below`], n ≥ 1): let b be the bit length of n − 1; if
//!   b = 0 return 0 **without drawing**. Else draw ⌈b/64⌉ words w₀, w₁, … (`next_u64`, in that
//!   order), form v = Σ wᵢ 2⁶⁴ⁱ, keep its low b bits, and return v if v < n; otherwise repeat
//!   from the first draw (rejection; at most 2 rounds expected). Unbiased, unlike
//!   `Stream::index`, whose (u·n) >> 64 is off by up to n/2⁶⁴.
//! - **Bernoulli(a/b)** for integers 0 ≤ a ≤ b, b ≥ 1 (as given, not reduced): draw
//!   U = uniform in \[0, b); return U < a.
//! - **Bernoulli(exp(−γ))** for rational γ = a/b ≥ 0 (CKS20 Algorithm 1): if γ ≤ 1, set K = 1
//!   and repeat { A = Bernoulli(a/(b·K)); if A = 0 stop, else K = K + 1 }, and return
//!   [K is odd]. If γ > 1, for i = 1, …, ⌊γ⌋ draw Bernoulli(exp(−1)) (the γ ≤ 1 case with
//!   a = b = 1) and return 0 at the first 0; if all were 1, return Bernoulli(exp(−(γ − ⌊γ⌋))).
//! - **Discrete Laplace** with scale t/s (lowest terms; pmf ∝ exp(−|x|·s/t) on ℤ; CKS20
//!   Algorithm 2): repeat { U = uniform in \[0, t); D = Bernoulli(exp(−U/t)); if D = 0 restart;
//!   V = 0; repeat { A = Bernoulli(exp(−1)); if A = 0 stop, else V = V + 1 }; X = U + t·V;
//!   Y = ⌊X/s⌋; B = Bernoulli(1/2); if B = 1 and Y = 0 restart; return (1 − 2B)·Y }.
//! - **Discrete Gaussian** N_ℤ(0, σ²), pmf ∝ exp(−x²/(2σ²)) on ℤ, for rational σ² > 0 (CKS20
//!   Algorithm 3): t = ⌊σ⌋ + 1 (computed exactly as isqrt(⌊σ²⌋) + 1); repeat { Y = discrete
//!   Laplace with scale t; C = Bernoulli(exp(−(|Y| − σ²/t)²/(2σ²))); if C = 1 return Y }.
//!
//! CKS20 Theorem 1 (with Propositions 3–5 for the pieces): the output has exactly the stated
//! law, and the expected number of uniform draws per discrete Gaussian sample is O(1) for every
//! σ² (the Laplace envelope with t = ⌊σ⌋ + 1 accepts with probability bounded below).
//!
//! # The grid release
//!
//! [`grid_release`] releases a real vector z ∈ ℝᵈ with ℓ2 sensitivity Δ as follows: quantize
//! each coordinate to the grid hℤ, k = round(z/h) (exact: the f64 inputs are read as the exact
//! rationals they are, and rounding is half away from zero); add independent discrete Gaussian
//! noise N_ℤ(0, σ²_g) to each coordinate of k; return the grid point k + noise (and its real
//! value (k + noise)·h). Privacy, in grid units: rounding moves each coordinate by < 1/2, so
//! |kᵢ(S) − kᵢ(S′)| ≤ ⌈|zᵢ(S) − zᵢ(S′)|/h⌉ ≤ |Δzᵢ|/h + 1 and ‖k(S) − k(S′)‖₂ ≤ Δ/h + √d; the
//! release uses the **integer** bound Δ_g² = ⌈(Δ/h + ⌈√d⌉)²⌉ on the squared grid sensitivity.
//! By CKS20 Theorem 14 (the multivariate discrete Gaussian), adding independent N_ℤ(0, σ²_g) per
//! coordinate to an integer-valued function with ‖Δk‖₂² ≤ Δ_g² is **ρ-zCDP with
//! ρ = Δ_g²/(2σ²_g)**. The release takes a target ρ and sets the integer σ²_g = ⌈Δ_g²/(2ρ)⌉,
//! so its actual ρ (reported) is at most the target. (ε, δ) follows from zCDP by
//! [`zcdp_epsilon`].
//!
//! **Ledger.** The grid release records **no** [`DpEvent`](crate::privacy::DpEvent)
//! (`Output::ledger` is `None` in [`DiscreteGaussianOutputPerturbation`]), and states its
//! guarantee in `info` instead (`zcdp_rho`, `epsilon_at_delta`). The vocabulary's
//! `Gaussian { noise_multiplier }` means the *continuous* Gaussian, and the exact accountants
//! (PLD, GDP) price it by the continuous Gaussian's privacy profile; for the discrete Gaussian
//! the theorem is the Rényi/zCDP curve αρ (the same curve as the continuous one), while its
//! exact privacy profile is a different function (CKS20 §2 compute it and compare the two
//! numerically; no domination by the continuous profile is proved, least of all for d > 1 with
//! a rounded sensitivity). A `Gaussian` event would therefore let a tight accountant claim an ε
//! that is not proven. A zCDP event (e.g. `DpEvent::Zcdp { rho }`) would be the right record;
//! until the vocabulary has one, the ρ in `info` is the guarantee.
//!
//! References are to arXiv:2004.00010 (CKS20); theorem numbers as cited from that version.

use crate::algorithms::{Algorithm, Output, RegularizedSaddlePoint};
use crate::error::{invalid, require_finite, Error, Result};
use crate::linalg;
use crate::problem::{Dataset, SaddleFn};
use crate::rng::{NoiseSource, Stream};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::{Integer, Roots};
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use serde::{Deserialize, Serialize};

/// A source of independent uniform 64-bit words.
pub trait RandomBits {
    /// The next uniform word.
    fn next_u64(&mut self) -> u64;
}

impl RandomBits for Stream {
    fn next_u64(&mut self) -> u64 {
        Stream::next_u64(self)
    }
}

/// A uniform integer in \[0, n) without bias, by masked rejection (module docs, "Uniform").
///
/// Errors: `Error::Invalid` naming `n` when n = 0.
pub fn uniform_below<R: RandomBits + ?Sized>(rng: &mut R, n: &BigUint) -> Result<BigUint> {
    if n.is_zero() {
        return Err(invalid("n", "the range [0, n) is empty for n = 0"));
    }
    Ok(uniform_below_nonzero(rng, n))
}

fn uniform_below_nonzero<R: RandomBits + ?Sized>(rng: &mut R, n: &BigUint) -> BigUint {
    if let Some(small) = n.to_u64() {
        return BigUint::from(uniform_below_u64(rng, small));
    }
    let b = (n - 1u32).bits();
    let words = b.div_ceil(64) as usize;
    let top_bits = b - 64 * (words as u64 - 1);
    loop {
        let mut digits: Vec<u32> = Vec::with_capacity(2 * words);
        for i in 0..words {
            let mut w = rng.next_u64();
            if i == words - 1 && top_bits < 64 {
                w &= (1u64 << top_bits) - 1;
            }
            digits.push(w as u32);
            digits.push((w >> 32) as u32);
        }
        let v = BigUint::new(digits);
        if &v < n {
            return v;
        }
    }
}

/// [`uniform_below`] for n ∈ \[1, 2⁶⁴) (same recipe, same draws); `n = 0` returns 0 without
/// drawing (callers must not pass it).
pub fn uniform_below_u64<R: RandomBits + ?Sized>(rng: &mut R, n: u64) -> u64 {
    if n <= 1 {
        return 0;
    }
    let b = 64 - (n - 1).leading_zeros();
    let mask = if b == 64 { u64::MAX } else { (1u64 << b) - 1 };
    loop {
        let v = rng.next_u64() & mask;
        if v < n {
            return v;
        }
    }
}

/// Bernoulli(a/b) for integers 0 ≤ a ≤ b, b ≥ 1, as given (module docs).
fn bernoulli_frac<R: RandomBits + ?Sized>(rng: &mut R, a: &BigUint, b: &BigUint) -> bool {
    &uniform_below_nonzero(rng, b) < a
}

/// Bernoulli(p) for rational p ∈ \[0, 1] (in lowest terms: U uniform in \[0, denom), U < numer).
///
/// Errors: `Error::Invalid` naming `p` outside \[0, 1].
pub fn bernoulli<R: RandomBits + ?Sized>(rng: &mut R, p: &BigRational) -> Result<bool> {
    if p.is_negative() || p > &BigRational::one() {
        return Err(invalid("p", format!("must be in [0, 1], got {p}")));
    }
    let (a, b) = to_biguint_pair(p);
    Ok(bernoulli_frac(rng, &a, &b))
}

fn to_biguint_pair(q: &BigRational) -> (BigUint, BigUint) {
    let a = q
        .numer()
        .to_biguint()
        .expect("caller checked nonnegativity");
    let b = q.denom().to_biguint().expect("denominators are positive");
    (a, b)
}

/// Bernoulli(exp(−a/b)) for 0 ≤ a/b ≤ 1 (CKS20 Algorithm 1, first case). Runs in u64
/// arithmetic while b·K fits (the draws are the same as in big-integer arithmetic, since
/// [`uniform_below`] delegates to [`uniform_below_u64`] for ranges below 2⁶⁴).
fn bernoulli_exp_le1<R: RandomBits + ?Sized>(rng: &mut R, a: &BigUint, b: &BigUint) -> bool {
    let mut k: u64 = 1;
    if let (Some(a64), Some(b64)) = (a.to_u64(), b.to_u64()) {
        while let Some(den) = b64.checked_mul(k) {
            if uniform_below_u64(rng, den) >= a64 {
                return k % 2 == 1;
            }
            k += 1;
        }
    }
    let mut k = BigUint::from(k);
    loop {
        if !bernoulli_frac(rng, a, &(b * &k)) {
            break;
        }
        k += 1u32;
    }
    k.is_odd()
}

/// Bernoulli(exp(−γ)) for rational γ ≥ 0, exactly (CKS20 Algorithm 1; module docs).
///
/// Errors: `Error::Invalid` naming `gamma` when γ < 0.
pub fn bernoulli_exp<R: RandomBits + ?Sized>(rng: &mut R, gamma: &BigRational) -> Result<bool> {
    if gamma.is_negative() {
        return Err(invalid("gamma", format!("must be ≥ 0, got {gamma}")));
    }
    let (a, b) = to_biguint_pair(gamma);
    Ok(bernoulli_exp_pair(rng, &a, &b))
}

fn bernoulli_exp_pair<R: RandomBits + ?Sized>(rng: &mut R, a: &BigUint, b: &BigUint) -> bool {
    if a <= b {
        return bernoulli_exp_le1(rng, a, b);
    }
    let (whole, rem) = a.div_rem(b);
    let one = BigUint::one();
    let mut i = BigUint::zero();
    while i < whole {
        if !bernoulli_exp_le1(rng, &one, &one) {
            return false;
        }
        i += 1u32;
    }
    // rem/b is in lowest terms because a/b is.
    bernoulli_exp_le1(rng, &rem, b)
}

/// The discrete Laplace distribution on ℤ with pmf ∝ exp(−|x|/scale), rational scale > 0
/// (CKS20 Algorithm 2).
#[derive(Clone, Debug, PartialEq)]
pub struct DiscreteLaplace {
    scale: BigRational,
    /// t of scale = t/s.
    t: BigUint,
    /// s of scale = t/s.
    s: BigUint,
}

impl DiscreteLaplace {
    /// Errors: `Error::Invalid` naming `scale` unless scale > 0.
    pub fn new(scale: BigRational) -> Result<Self> {
        if !scale.is_positive() {
            return Err(invalid("scale", format!("must be > 0, got {scale}")));
        }
        let (t, s) = to_biguint_pair(&scale);
        Ok(DiscreteLaplace { scale, t, s })
    }

    /// The scale t/s.
    pub fn scale(&self) -> &BigRational {
        &self.scale
    }

    /// One exact sample (module docs, "Discrete Laplace").
    pub fn sample<R: RandomBits + ?Sized>(&self, rng: &mut R) -> BigInt {
        let one = BigUint::one();
        loop {
            let u = uniform_below_nonzero(rng, &self.t);
            // exp(−U/t) with U/t in lowest terms.
            let g = u.gcd(&self.t);
            if !bernoulli_exp_le1(rng, &(&u / &g), &(&self.t / &g)) {
                continue;
            }
            let mut v = BigUint::zero();
            while bernoulli_exp_le1(rng, &one, &one) {
                v += 1u32;
            }
            let x = u + &self.t * v;
            let y = x / &self.s;
            let b = uniform_below_u64(rng, 2) == 0; // Bernoulli(1/2): U < 1
            if b && y.is_zero() {
                continue;
            }
            return BigInt::from_biguint(if b { Sign::Minus } else { Sign::Plus }, y);
        }
    }
}

/// The discrete Gaussian N_ℤ(0, σ²) on ℤ, pmf ∝ exp(−x²/(2σ²)), rational σ² > 0 (CKS20
/// Algorithm 3).
#[derive(Clone, Debug, PartialEq)]
pub struct DiscreteGaussian {
    sigma2: BigRational,
    /// t = ⌊σ⌋ + 1.
    t: BigUint,
    /// σ²/t.
    sigma2_over_t: BigRational,
    /// 2σ².
    two_sigma2: BigRational,
}

impl DiscreteGaussian {
    /// Errors: `Error::Invalid` naming `sigma2` unless σ² > 0.
    pub fn new(sigma2: BigRational) -> Result<Self> {
        if !sigma2.is_positive() {
            return Err(invalid("sigma2", format!("must be > 0, got {sigma2}")));
        }
        let fl = sigma2
            .floor()
            .to_integer()
            .to_biguint()
            .expect("σ² > 0 has a nonnegative floor");
        let t = fl.sqrt() + 1u32;
        let tq = BigRational::from_integer(BigInt::from(t.clone()));
        Ok(DiscreteGaussian {
            sigma2_over_t: &sigma2 / &tq,
            two_sigma2: &sigma2 * BigRational::from_integer(BigInt::from(2)),
            sigma2,
            t,
        })
    }

    /// σ².
    pub fn sigma2(&self) -> &BigRational {
        &self.sigma2
    }

    /// t = ⌊σ⌋ + 1, the Laplace envelope's scale.
    pub fn envelope_scale(&self) -> &BigUint {
        &self.t
    }

    /// One exact sample (module docs, "Discrete Gaussian").
    pub fn sample<R: RandomBits + ?Sized>(&self, rng: &mut R) -> BigInt {
        let lap = DiscreteLaplace {
            scale: BigRational::from_integer(BigInt::from(self.t.clone())),
            t: self.t.clone(),
            s: BigUint::one(),
        };
        loop {
            let y = lap.sample(rng);
            let d = BigRational::from_integer(y.abs()) - &self.sigma2_over_t;
            let gamma = &d * &d / &self.two_sigma2;
            let (a, b) = to_biguint_pair(&gamma);
            if bernoulli_exp_pair(rng, &a, &b) {
                return y;
            }
        }
    }

    /// `count` consecutive samples.
    pub fn samples<R: RandomBits + ?Sized>(&self, rng: &mut R, count: usize) -> Vec<BigInt> {
        (0..count).map(|_| self.sample(rng)).collect()
    }
}

/// A grid output-perturbation release (module docs, "The grid release").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridRelease {
    /// h, the grid width.
    pub grid: f64,
    /// k = round(z/h), the quantized input (grid units), as decimal strings.
    pub quantized: Vec<String>,
    /// k + noise, the released grid point (grid units), as decimal strings.
    pub released: Vec<String>,
    /// (k + noise)·h rounded to f64 (the release as a real vector; post-processing).
    pub values: Vec<f64>,
    /// The integer bound Δ_g² = ⌈(Δ/h + ⌈√d⌉)²⌉ on the squared grid sensitivity.
    pub sensitivity_sq_grid: String,
    /// σ²_g = ⌈Δ_g²/(2ρ_target)⌉, the noise variance in grid units².
    pub sigma2_grid: String,
    /// ρ = Δ_g²/(2σ²_g) ≤ the target: the release is ρ-zCDP (CKS20 Thm 14).
    pub rho: f64,
}

/// Release z (ℓ2 sensitivity `sensitivity`) on the grid of width `grid` with discrete Gaussian
/// noise calibrated to ρ-zCDP at most `rho` (module docs). Draws the coordinates' noise in
/// order from `rng`.
///
/// Errors: `Error::Invalid` naming `z[i]`, `sensitivity`, `grid` or `rho`.
pub fn grid_release<R: RandomBits + ?Sized>(
    z: &[f64],
    sensitivity: f64,
    grid: f64,
    rho: f64,
    rng: &mut R,
) -> Result<GridRelease> {
    require_finite("z", z)?;
    if !(sensitivity.is_finite() && sensitivity >= 0.0) {
        return Err(invalid(
            "sensitivity",
            format!("must be finite and ≥ 0, got {sensitivity}"),
        ));
    }
    if !(grid.is_finite() && grid > 0.0) {
        return Err(invalid(
            "grid",
            format!("must be finite and > 0, got {grid}"),
        ));
    }
    if !(rho.is_finite() && rho > 0.0) {
        return Err(invalid("rho", format!("must be finite and > 0, got {rho}")));
    }
    let exact = |x: f64| BigRational::from_float(x).expect("checked finite");
    let h = exact(grid);
    let k: Vec<BigInt> = z
        .iter()
        .map(|&x| (exact(x) / &h).round().to_integer())
        .collect();
    let d = z.len() as u64;
    let mut sqrt_d = d.sqrt();
    if sqrt_d * sqrt_d < d {
        sqrt_d += 1;
    }
    let bound = exact(sensitivity) / &h + BigRational::from_integer(BigInt::from(sqrt_d));
    let sens_sq = (&bound * &bound).ceil().to_integer();
    let two_rho = exact(rho) * BigRational::from_integer(BigInt::from(2));
    let mut sigma2 = (BigRational::from_integer(sens_sq.clone()) / two_rho)
        .ceil()
        .to_integer();
    if sigma2.is_zero() {
        // Δ_g = 0 (d = 0): any positive variance releases nothing about the data.
        sigma2 = BigInt::one();
    }
    let dg = DiscreteGaussian::new(BigRational::from_integer(sigma2.clone()))?;
    let released: Vec<BigInt> = k.iter().map(|ki| ki + dg.sample(rng)).collect();
    let values = released
        .iter()
        .map(|r| {
            (BigRational::from_integer(r.clone()) * &h)
                .to_f64()
                .unwrap_or(f64::NAN)
        })
        .collect();
    let rho_actual = BigRational::new(sens_sq.clone(), sigma2.clone() * 2)
        .to_f64()
        .unwrap_or(f64::INFINITY);
    Ok(GridRelease {
        grid,
        quantized: k.iter().map(|x| x.to_string()).collect(),
        released: released.iter().map(|x| x.to_string()).collect(),
        values,
        sensitivity_sq_grid: sens_sq.to_string(),
        sigma2_grid: sigma2.to_string(),
        rho: rho_actual,
    })
}

/// ε at δ of a ρ-zCDP mechanism by the conversion CKS20 use (their Corollary 13; it is Balle et
/// al. 2020, "Hypothesis testing interpretations and Rényi DP", Thm 21, applied to the Rényi
/// curve αρ): ε = inf_{α > 1} αρ + (ln(1/δ) + (α − 1) ln(1 − 1/α) − ln α)/(α − 1).
/// Every α gives a valid bound, so any α the search lands on does: a scan of 200 log-spaced
/// values of α − 1 in \[10⁻⁴, 10⁶], then golden-section refinement (60 steps) between the
/// neighbours of the best scan point. This is accounting arithmetic on the guarantee, not
/// sampling, so it is in f64.
pub fn zcdp_epsilon(rho: f64, delta: f64) -> Result<f64> {
    if !(rho.is_finite() && rho >= 0.0) {
        return Err(invalid("rho", format!("must be finite and ≥ 0, got {rho}")));
    }
    crate::privacy::accountant::check_delta(delta)?;
    if rho == 0.0 {
        return Ok(0.0);
    }
    let l = (1.0 / delta).ln();
    // As a function of s = ln(α − 1).
    let f = |s: f64| {
        let am1 = s.exp();
        let a = 1.0 + am1;
        a * rho + (l + am1 * (-1.0 / a).ln_1p() - a.ln()) / am1
    };
    let (s0, s1, m) = (
        -4.0 * std::f64::consts::LN_10,
        6.0 * std::f64::consts::LN_10,
        200,
    );
    let grid = |i: usize| s0 + (s1 - s0) * i as f64 / m as f64;
    let (mut ib, mut best) = (0usize, f64::INFINITY);
    for i in 0..=m {
        let v = f(grid(i));
        if v < best {
            best = v;
            ib = i;
        }
    }
    let (mut lo, mut hi) = (grid(ib.saturating_sub(1)), grid((ib + 1).min(m)));
    let g = 0.5 * (5f64.sqrt() - 1.0);
    for _ in 0..60 {
        let (x1, x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        let (v1, v2) = (f(x1), f(x2));
        best = best.min(v1).min(v2);
        if v1 < v2 {
            hi = x2;
        } else {
            lo = x1;
        }
    }
    Ok(best.max(0.0))
}

/// Output perturbation of the regularized saddle point on an integer grid with exact discrete
/// Gaussian noise (module docs, "The grid release"): z_λ(S) by the certified solver, Δ = 2L/(λn)
/// (BGM23 Lemma 2), then [`grid_release`] at target ρ; the released point is then projected
/// onto W×Θ (post-processing).
///
/// Randomness: the words come from `Stream::new(master_seed, "discrete_gaussian/noise")` of a
/// sampling [`NoiseSource`]; a replaying source is `Error::Unsupported` (the tape vocabulary has
/// no integer draws). Ledger: `None`, with ρ and ε(δ) in `info` (module docs, "Ledger").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiscreteGaussianOutputPerturbation {
    /// The non-private base algorithm.
    pub base: RegularizedSaddlePoint,
    /// L used for the sensitivity.
    pub lipschitz: f64,
    /// h > 0, the grid width.
    pub grid: f64,
    /// Target ρ > 0 (zCDP).
    pub rho: f64,
    /// δ ∈ (0, 1) at which `info.epsilon_at_delta` is reported.
    pub delta: f64,
}

impl Algorithm for DiscreteGaussianOutputPerturbation {
    fn name(&self) -> String {
        format!(
            "discrete_gaussian_output_perturbation(ρ={}, h={})",
            self.rho, self.grid
        )
    }
    fn run(&self, f: &dyn SaddleFn, s: &Dataset, noise: &mut NoiseSource) -> Result<Output> {
        if !(self.lipschitz.is_finite() && self.lipschitz >= 0.0) {
            return Err(invalid(
                "lipschitz",
                format!("must be finite and ≥ 0, got {}", self.lipschitz),
            ));
        }
        crate::privacy::accountant::check_delta(self.delta)?;
        let seed = noise.master_seed().ok_or_else(|| {
            Error::Unsupported(
                "discrete Gaussian noise cannot be replayed from a tape (no integer draw kind)"
                    .into(),
            )
        })?;
        let sens = self.base.stability_bound(self.lipschitz, s.len());
        let exact = self.base.run(f, s, noise)?;
        let mut rng = Stream::new(seed, "discrete_gaussian/noise");
        let rel = grid_release(&exact.z(), sens, self.grid, self.rho, &mut rng)?;
        let (w, t) = linalg::split(&rel.values, f.dim_w());
        let eps = zcdp_epsilon(rel.rho, self.delta)?;
        Ok(Output {
            w: f.domain_w().project(&w),
            theta: f.domain_theta().project(&t),
            grad_evals: exact.grad_evals,
            ledger: None,
            info: crate::algorithms::Diagnostics::DiscreteGaussianOutputPerturbation(
                crate::algorithms::output_perturbation::DiscreteGaussianDiagnostics {
                    sensitivity: sens,
                    zcdp_rho: rel.rho,
                    delta: self.delta,
                    epsilon_at_delta: eps,
                    privacy: "rho-zCDP by CKS20 Thm 14 (discrete Gaussian); no DpEvent recorded"
                        .to_string(),
                    release: rel,
                    unperturbed_w: exact.w,
                    unperturbed_theta: exact.theta,
                },
            ),
        })
    }
}
