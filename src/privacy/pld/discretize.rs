//! Discretization of single mechanisms onto the loss grid {i·h}: the Poisson-subsampled
//! Gaussian (the plain Gaussian is q = 1) and the Laplace mechanism.
//!
//! ## The pairs
//!
//! With Δ = 1 and σ = the noise multiplier, let μ₀ = N(0, σ²), μ₁ = N(1, σ²) and
//! μ_q = (1 − q)μ₀ + qμ₁. Under add/remove neighbouring with Poisson sampling at rate q, the
//! output distributions of a neighbouring pair are (μ_q, μ₀) when the differing record is in the
//! first dataset ("remove": P = μ_q, Q = μ₀) and (μ₀, μ_q) in the other order ("add": P = μ₀,
//! Q = μ_q); these are the dominating pairs of Zhu, Dong & Wang (AISTATS 2022) for Poisson subsampling and the
//! two adjacency types of Google's `dp_accounting`. The log-likelihood ratio is
//! r(o) = log(μ_q/μ₀)(o) = log(1 − q + q·e^{u(o)}), u(o) = (2o − 1)/(2σ²), increasing in o with
//! inverse o(r) = σ²·log1p(expm1(r)/q) + ½ for r > log(1 − q). The privacy loss is L = r(o) with
//! o ~ μ_q (remove) and L = −r(o) with o ~ μ₀ (add).
//!
//! ## Cells and the three discretizations
//!
//! The loss axis is cut into cells (a, a + h], a = i·h, i₀ ≤ i < i₁, where i₀h and i₁h bracket
//! the quantiles of L at `tail_mass_truncation`/2 from either end. A cell is an interval of o
//! whose P- and Q-masses are normal CDF differences. Each cell's P-mass is placed on the grid:
//!
//! * [`Discretization::ConnectTheDots`]: split between a and a + h so that both the P-mass and
//!   the Q-mass (Q = P·e^{−L}) of the cell are kept (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi,
//!   PETS 2022, "Connect the dots"): the mass at a + h is N/(1 − e^{−h}) with
//!   N = P(cell) − e^{a}Q(cell) = ∫_cell (1 − e^{a − L}) dP. Since y ↦ (1 − e^{ε}y)₊ is convex,
//!   Jensen's inequality (in y = e^{−L}) makes the split's hockey-stick divergence ≥ the cell's
//!   for **every** ε ∈ ℝ, so the discrete pair dominates the true one in the sense of trade-off
//!   functions, which composition preserves (Dong, Roth & Su, JRSS-B 2022: composition is monotone in
//!   the trade-off functions of its factors).
//!   On the grid points the interpolation is exact (the privacy curve is "connected" through the
//!   dots), so the error of one mechanism is O(h²) and the bias does not accumulate like k·h.
//! * [`Discretization::RoundUp`]: all of the cell's mass at a + h (privacy buckets: Meiser &
//!   Mohammadi, CCS 2018; Koskela, Jälkö & Honkela, AISTATS 2020). Losses only grow, and
//!   δ(ε) = E[(1 − e^{ε−L})₊] is non-decreasing in L, so by coupling this is an upper bound, but
//!   each composition adds ≈ h/2 to the mean loss (k·h/2 after k steps).
//! * [`Discretization::RoundDown`]: all of the cell's mass at a (optimistic; a lower estimate,
//!   kept only as a negative control).
//!
//! Tails: the P-mass below i₀h goes to i₀h (rounded up; pessimistic) and the P-mass above i₁h to
//! the infinity mass (pessimistic); the optimistic variant drops the lower tail and puts the upper
//! one at i₁h.
//!
//! ## Computing N without cancellation
//!
//! For a narrow cell N ≈ P·h/2, and N = P − e^{a}Q computed from CDF differences would lose
//! log₁₀(1/h) digits. Instead, with φ₁ the N(1, σ²) density, N reduces exactly to
//! G(z_α, z_β) = ∫_{z_α}^{z_β} φ(z)(1 − e^{−(z − z_α)/σ}) dz (standardized coordinates):
//! remove: N = q·G((α − 1)/σ, (β − 1)/σ) for the o-cell (α, β];
//! add: N = (1 − (1 − q)e^{a})·G(−β/σ, −α/σ) for the o-cell [α, β) (using φ₀(o) = φ₁(1 − o)).
//! G is evaluated in closed form, ΔΦ(z_α, z_β) − e^{s z_α + s²/2}ΔΦ(z_α + s, z_β + s), s = 1/σ,
//! when that loses at most three bits (G ≥ ΔΦ/8), and otherwise by composite 8-point
//! Gauss–Legendre quadrature on sub-intervals over which the integrand's exponent changes by at
//! most ½ (relative error far below 1e-16).

use super::fft::U;
use super::normal::{log_normal_cdf, normal_cdf};
use super::{Discretization, Pld};
use crate::error::{invalid, Result};
use crate::privacy::special::{log_add_exp, log_sub_exp};

/// The most grid points a single mechanism's PLD may have.
pub const MAX_POINTS: usize = 1 << 23;

/// Which ordered pair of a neighbouring relation a PLD describes (module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// P = the output on the dataset with the differing record (μ_q), Q = without (μ₀).
    Remove,
    /// P = the output without the differing record (μ₀), Q = with it (μ_q).
    Add,
}

/// Φ(y) − Φ(x) for x ≤ y, computed on the side of 0 where it does not cancel.
pub fn delta_phi(x: f64, y: f64) -> f64 {
    if x >= y {
        0.0
    } else if x >= 0.0 {
        normal_cdf(-x) - normal_cdf(-y)
    } else if y <= 0.0 {
        normal_cdf(y) - normal_cdf(x)
    } else {
        (1.0 - normal_cdf(x)) - normal_cdf(-y)
    }
}

/// log(Φ(y) − Φ(x)) for x ≤ y, accurate in both tails.
fn log_delta_phi(x: f64, y: f64) -> f64 {
    if x >= y {
        f64::NEG_INFINITY
    } else if x >= 0.0 {
        log_sub_exp(log_normal_cdf(-x), log_normal_cdf(-y))
    } else if y <= 0.0 {
        log_sub_exp(log_normal_cdf(y), log_normal_cdf(x))
    } else {
        delta_phi(x, y).ln()
    }
}

/// The standard normal density.
fn phi(z: f64) -> f64 {
    (-0.5 * z * z).exp() / (2.0 * std::f64::consts::PI).sqrt()
}

/// 8-point Gauss–Legendre nodes and weights on [−1, 1].
const GL8: [(f64, f64); 8] = [
    (-0.960_289_856_497_536_3, 0.101_228_536_290_376_26),
    (-0.796_666_477_413_626_7, 0.222_381_034_453_374_47),
    (-0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (-0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.183_434_642_495_649_8, 0.362_683_783_378_362),
    (0.525_532_409_916_329, 0.313_706_645_877_887_3),
    (0.796_666_477_413_626_7, 0.222_381_034_453_374_47),
    (0.960_289_856_497_536_3, 0.101_228_536_290_376_26),
];

/// G(z_a, z_b; s) = ∫_{z_a}^{z_b} φ(z)(1 − e^{−s(z − z_a)}) dz for finite z_a, z_b ≤ +∞
/// (module docs).
pub fn g_integral(za: f64, zb: f64, s: f64) -> f64 {
    if zb <= za || za.is_nan() || zb.is_nan() {
        return 0.0;
    }
    let p0 = delta_phi(za, zb);
    if p0 <= 0.0 {
        return 0.0;
    }
    let p1 = (s * za + 0.5 * s * s + log_delta_phi(za + s, zb + s)).exp();
    let g = p0 - p1;
    if g >= 0.125 * p0 {
        return g;
    }
    // Quadrature in t = z − z_a on [0, w_eff]; beyond t_cut the exponent −(z_a t + t²/2) is
    // below −60, negligible relative to the integral.
    let t_cut = -za + (za * za + 120.0).sqrt();
    let we = (zb - za).min(t_cut);
    let rate = (za.abs() + we).max(s).max(1.0);
    let m = ((we * rate / 0.5).ceil() as usize).clamp(1, 1 << 16);
    let step = we / m as f64;
    let mut acc = 0.0;
    for k in 0..m {
        let t0 = k as f64 * step;
        let mut part = 0.0;
        for &(x, w) in &GL8 {
            let t = t0 + 0.5 * step * (x + 1.0);
            part += w * phi(za + t) * -(-s * t).exp_m1();
        }
        acc += 0.5 * step * part;
    }
    acc
}

/// The Poisson-subsampled Gaussian at rate q with noise multiplier σ (q = 1: plain Gaussian).
#[derive(Clone, Copy, Debug)]
struct SubsampledGaussian {
    q: f64,
    sigma: f64,
    ln_q: f64,
    /// log(1 − q) (−∞ for q = 1).
    ln_1mq: f64,
}

impl SubsampledGaussian {
    fn new(q: f64, sigma: f64) -> Self {
        SubsampledGaussian {
            q,
            sigma,
            ln_q: q.ln(),
            ln_1mq: (-q).ln_1p(),
        }
    }

    /// r(o) = log(μ_q/μ₀)(o).
    fn r(&self, o: f64) -> f64 {
        let u = (2.0 * o - 1.0) / (2.0 * self.sigma * self.sigma);
        if self.q == 1.0 {
            u
        } else {
            log_add_exp(self.ln_1mq, self.ln_q + u)
        }
    }

    /// o(r), the inverse of r (−∞ for r ≤ log(1 − q)).
    fn o_of_r(&self, r: f64) -> f64 {
        let s2 = self.sigma * self.sigma;
        if self.q == 1.0 {
            return s2 * r + 0.5;
        }
        let t = r.exp_m1() / self.q;
        if t <= -1.0 {
            f64::NEG_INFINITY
        } else {
            s2 * t.ln_1p() + 0.5
        }
    }

    /// μ_q((x, y]).
    fn mix_mass(&self, x: f64, y: f64) -> f64 {
        let s = self.sigma;
        let one = self.q * delta_phi((x - 1.0) / s, (y - 1.0) / s);
        if self.q == 1.0 {
            one
        } else {
            (1.0 - self.q) * delta_phi(x / s, y / s) + one
        }
    }

    /// μ₀((x, y]).
    fn base_mass(&self, x: f64, y: f64) -> f64 {
        delta_phi(x / self.sigma, y / self.sigma)
    }

    /// log μ_q((−∞, o]) (lower = true) or log μ_q((o, ∞)); with `base`, of μ₀ instead.
    fn log_tail(&self, o: f64, lower: bool, base: bool) -> f64 {
        let s = self.sigma;
        let sign = if lower { 1.0 } else { -1.0 };
        let l0 = log_normal_cdf(sign * o / s);
        if base {
            return l0;
        }
        let l1 = log_normal_cdf(sign * (o - 1.0) / s);
        if self.q == 1.0 {
            l1
        } else {
            log_add_exp(self.ln_1mq + l0, self.ln_q + l1)
        }
    }

    /// The o at which the lower (or upper) tail of μ_q (or μ₀) has mass p, by bisection.
    fn quantile(&self, p: f64, lower: bool, base: bool) -> f64 {
        let target = p.ln();
        let span = 40.0 * self.sigma + 2.0;
        let (mut lo, mut hi) = (-span, span);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            let v = self.log_tail(mid, lower, base);
            // Lower tail increases with o, upper tail decreases.
            if (v < target) == lower {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        0.5 * (lo + hi)
    }
}

/// Where the masses of a discretized mechanism go, before normalization into a [`Pld`].
struct Builder {
    i0: i64,
    pmf: Vec<f64>,
    infinity: f64,
    rounding: Discretization,
}

impl Builder {
    fn new(i0: i64, i1: i64, interval: f64, rounding: Discretization) -> Result<Self> {
        let n = (i1 - i0 + 1) as usize;
        if n > MAX_POINTS {
            return Err(invalid(
                "value_discretization_interval",
                format!(
                    "{interval} needs {n} grid points for this mechanism (at most {MAX_POINTS}); \
                     use a coarser interval"
                ),
            ));
        }
        Ok(Builder {
            i0,
            pmf: vec![0.0; n],
            infinity: 0.0,
            rounding,
        })
    }

    /// The mass of the loss cell (i·h, (i+1)·h], with N = ∫(1 − e^{a − L})dP for the split.
    fn cell(&mut self, i: i64, mass: f64, n_of: impl FnOnce() -> f64, h: f64) {
        if mass <= 0.0 {
            return;
        }
        let j = (i - self.i0) as usize;
        match self.rounding {
            Discretization::RoundUp => self.pmf[j + 1] += mass,
            Discretization::RoundDown => self.pmf[j] += mass,
            Discretization::ConnectTheDots => {
                // The cell's actual width on the computed grid.
                let w = (i + 1) as f64 * h - i as f64 * h;
                let n = n_of().max(0.0);
                let hi = (n / -(-w).exp_m1()).min(mass);
                self.pmf[j + 1] += hi;
                self.pmf[j] += mass - hi;
            }
        }
    }

    /// The P-mass with L ≤ i₀·h.
    fn below(&mut self, mass: f64) {
        if self.rounding != Discretization::RoundDown {
            self.pmf[0] += mass;
        }
    }

    /// The P-mass with L > i₁·h.
    fn above(&mut self, mass: f64) {
        if self.rounding == Discretization::RoundDown {
            *self.pmf.last_mut().expect("non-empty") += mass;
        } else {
            self.infinity += mass;
        }
    }

    /// An atom of P-mass at loss l (i₀·h ≤ l ≤ i₁·h).
    fn atom(&mut self, l: f64, mass: f64, h: f64) {
        let up = (l / h).ceil() as i64;
        let dn = (l / h).floor() as i64;
        let (j_up, j_dn) = ((up - self.i0) as usize, (dn - self.i0) as usize);
        match self.rounding {
            Discretization::RoundUp => self.pmf[j_up] += mass,
            Discretization::RoundDown => self.pmf[j_dn] += mass,
            Discretization::ConnectTheDots if up == dn => self.pmf[j_up] += mass,
            Discretization::ConnectTheDots => {
                let a = dn as f64 * h;
                let hi = (mass * -(a - l).exp_m1() / -(-h).exp_m1()).min(mass);
                self.pmf[j_up] += hi;
                self.pmf[j_dn] += mass - hi;
            }
        }
    }

    /// The PLD, with the construction's round-off allowance (module docs of [`super`]):
    /// 16u·(total mass) for the rounding of each cell's mass (ℓ1), plus 8u·(loss range) for the
    /// CDF values at the cell boundaries (relative error ≤ 8u each, [`super::normal`]; a boundary
    /// value shared by two cells only moves mass by one cell, h, so its effect on δ is at most
    /// h·8u·½ per boundary), plus 1e-12·h for the connect-the-dots split.
    fn finish(self, interval: f64, tail: f64) -> Pld {
        let pessimistic = self.rounding != Discretization::RoundDown;
        let mass = self.pmf.iter().sum::<f64>() + self.infinity;
        let range = (self.pmf.len() as f64 - 1.0) * interval;
        let roundoff = if pessimistic {
            16.0 * U * mass + 8.0 * U * range + 1e-12 * interval
        } else {
            0.0
        };
        Pld::from_construction(
            interval,
            self.i0,
            self.pmf,
            self.infinity,
            tail,
            pessimistic,
            roundoff,
        )
    }
}

/// The grid index range [i₀, i₁] covering losses in [l_lo, l_hi].
fn grid_range(l_lo: f64, l_hi: f64, h: f64) -> Result<(i64, i64)> {
    let i0 = (l_lo / h).floor();
    let i1 = (l_hi / h).ceil().max(i0 + 1.0);
    if !(i0.is_finite() && i1.is_finite()) || i1 - i0 > MAX_POINTS as f64 {
        return Err(invalid(
            "value_discretization_interval",
            format!(
                "{h} needs about {} grid points for this mechanism (at most {MAX_POINTS}); \
                 use a coarser interval",
                i1 - i0
            ),
        ));
    }
    Ok((i0 as i64, i1 as i64))
}

/// The PLD of the Poisson-subsampled Gaussian (q = 1: the Gaussian) in one direction.
pub fn subsampled_gaussian(
    q: f64,
    sigma: f64,
    direction: Direction,
    interval: f64,
    tail: f64,
    rounding: Discretization,
) -> Result<Pld> {
    let m = SubsampledGaussian::new(q, sigma);
    let h = interval;
    let half = 0.5 * tail;
    match direction {
        Direction::Remove => {
            let l_lo = m.r(m.quantile(half, true, false));
            let l_hi = m.r(m.quantile(half, false, false));
            let (i0, i1) = grid_range(l_lo, l_hi, h)?;
            let mut b = Builder::new(i0, i1, h, rounding)?;
            let os: Vec<f64> = (i0..=i1).map(|i| m.o_of_r(i as f64 * h)).collect();
            b.below(m.mix_mass(f64::NEG_INFINITY, os[0]));
            for (k, i) in (i0..i1).enumerate() {
                let (alpha, beta) = (os[k], os[k + 1]);
                let mass = m.mix_mass(alpha, beta);
                let a = i as f64 * h;
                let n_of = || {
                    let s = 1.0 / sigma;
                    if alpha == f64::NEG_INFINITY {
                        // a ≤ log(1 − q): no cancellation, both terms ≥ 0.
                        q * normal_cdf((beta - 1.0) * s) - (a.exp_m1() + q) * normal_cdf(beta * s)
                    } else {
                        q * g_integral((alpha - 1.0) * s, (beta - 1.0) * s, s)
                    }
                };
                b.cell(i, mass, n_of, h);
            }
            b.above(m.mix_mass(os[os.len() - 1], f64::INFINITY));
            Ok(b.finish(h, tail))
        }
        Direction::Add => {
            let l_lo = -m.r(m.quantile(half, false, true));
            let l_hi = -m.r(m.quantile(half, true, true));
            let (i0, i1) = grid_range(l_lo, l_hi, h)?;
            let mut b = Builder::new(i0, i1, h, rounding)?;
            // L ≤ l ⇔ o ≥ o(−l).
            let os: Vec<f64> = (i0..=i1).map(|i| m.o_of_r(-(i as f64) * h)).collect();
            b.below(m.base_mass(os[0], f64::INFINITY));
            for (k, i) in (i0..i1).enumerate() {
                // Cell (a, a + h] ⇔ o ∈ [os[k+1], os[k]).
                let (alpha, beta) = (os[k + 1], os[k]);
                if beta == f64::NEG_INFINITY {
                    continue;
                }
                let mass = m.base_mass(alpha, beta);
                let a = i as f64 * h;
                let n_of = || {
                    let s = 1.0 / sigma;
                    let factor = -(a + m.ln_1mq).exp_m1();
                    factor * g_integral(-beta * s, -alpha * s, s)
                };
                b.cell(i, mass, n_of, h);
            }
            b.above(m.base_mass(f64::NEG_INFINITY, os[os.len() - 1]));
            Ok(b.finish(h, tail))
        }
    }
}

/// The PLD of the Laplace mechanism with scale b = noise multiplier (sensitivity 1). Both
/// directions coincide (o ↦ 1 − o). With ε₀ = 1/b and P = Lap(1, b), Q = Lap(0, b): an atom of
/// mass ½ at L = ε₀ (o ≥ 1), an atom of mass e^{−ε₀}/2 at L = −ε₀ (o ≤ 0), and density
/// c·e^{l/2}, c = e^{−ε₀/2}/4, on (−ε₀, ε₀) (L = (2o − 1)/b). Its privacy curve is
/// δ(ε) = 1 − e^{(ε − ε₀)/2} for 0 ≤ ε ≤ ε₀.
pub fn laplace(b: f64, interval: f64, tail: f64, rounding: Discretization) -> Result<Pld> {
    let h = interval;
    let e0 = 1.0 / b;
    let (i0, i1) = grid_range(-e0, e0, h)?;
    let mut bld = Builder::new(i0, i1, h, rounding)?;
    let c = (-0.5 * e0).exp() / 4.0;
    for i in i0..i1 {
        let a = i as f64 * h;
        let x = a.max(-e0);
        let y = ((i + 1) as f64 * h).min(e0);
        if y <= x {
            continue;
        }
        let d = y - x;
        let mass = 2.0 * c * (0.5 * x).exp() * (0.5 * d).exp_m1();
        let n_of =
            || 2.0 * c * (0.5 * d).exp_m1() * (0.5 * x).exp() * -(a - 0.5 * (x + y)).exp_m1();
        bld.cell(i, mass, n_of, h);
    }
    bld.atom(e0, 0.5, h);
    bld.atom(-e0, 0.5 * (-e0).exp(), h);
    Ok(bld.finish(h, tail))
}
