//! Empirical privacy auditing: a statistically valid **lower bound** on the ε of a mechanism,
//! measured from its outputs on one neighbouring pair (S, S′).
//!
//! A mechanism M is (ε, δ)-DP only if, for every event E and both orders of the pair,
//! P[M(S) ∈ E] ≤ e^ε P[M(S′) ∈ E] + δ. So if, with confidence 1 − α, p_A(E) ≥ p̂_lo and
//! p_B(E) ≤ p̂_hi, then ε ≥ log((p̂_lo − δ)/p̂_hi). The auditor turns this into a number:
//!
//! 1. **Draws.** The mechanism is given as a closure `(side, seed) ↦ score ∈ ℝ`, a 1-D statistic
//!    of one run (for a vector release: its projection on the direction that separates S from
//!    S′). With `N` = [`AuditConfig::draws`] and `o` = [`AuditConfig::seed_offset`], the main
//!    sample runs seeds `o + i` on S and `o + N + i` on S′ (i = 0..N); the pilot sample (when
//!    the thresholds come from one, `P` draws per side) runs seeds `o + 2N + i` on S and
//!    `o + 2N + P + i` on S′ (i = 0..P). Draws run in parallel with rayon and are collected in
//!    seed order, so a report does not depend on the thread count. Every seed is used once, so
//!    the 2N main draws are independent (given a closure whose randomness is a function of its
//!    seed, e.g. `NoiseSource::sample(seed)`).
//! 2. **Events.** For each threshold t of a grid ([`Thresholds`]): {score > t} and
//!    {score < t}, each with either side as the numerator, i.e. 4T tests for T thresholds.
//!    The grid must not depend on the main sample (that would void the confidence statement):
//!    it is either given explicitly or taken from the **pilot** sample, as its pooled empirical
//!    quantiles at levels evenly spaced on the logit scale between 5/(2P) and 1 − 5/(2P), so the
//!    tails, where the best events of a Gaussian-like mechanism live, are resolved as finely as
//!    the centre. Duplicate thresholds are removed.
//! 3. **Intervals.** Each of the 4T probabilities p_side(E) gets a lower and an upper exact
//!    Clopper–Pearson bound, each at one-sided level α/(8T) with α = 1 − confidence
//!    (Bonferroni over 8T one-sided bounds), so **all of them hold at once with probability
//!    ≥ confidence**, and on that event every number the report derives from them is a valid
//!    bound at once. The Clopper–Pearson quantiles are solved by bisection on the regularized
//!    incomplete beta function, evaluated here by its continued fraction run to convergence
//!    (statrs' `beta_reg` stops silently after 140 terms, which is not enough for the counts of
//!    a 10⁶-draw audit); the target tail is shrunk by a relative 10⁻⁶ to absorb the evaluation
//!    error (about 10⁻⁸ relative at n = 10⁶, from the log-gamma prefactor), and the bisection
//!    returns the conservative end of its bracket.
//! 4. **ε lower bound.** `epsilon_lb = max(0, max_E log((p̂_lo(A, E) − δ)/p̂_hi(B, E)))`, with
//!    events where p̂_lo ≤ δ skipped. With probability ≥ confidence, the mechanism is not
//!    (ε, δ)-DP for any ε < `epsilon_lb` (in the pair's neighbouring relation).
//! 5. **Gaussian-DP fit.** Each test "reject B when E" has false-positive rate α_E = p_B(E) and
//!    false-negative rate β_E = 1 − p_A(E). A μ-GDP mechanism has β ≥ Φ(Φ⁻¹(1 − α) − μ) for
//!    every test, so μ ≥ Φ⁻¹(1 − α) − Φ⁻¹(β) = −Φ⁻¹(α) − Φ⁻¹(β). From the upper bounds on α and β
//!    this gives `mu_lb` (a lower confidence bound on every μ for which M is μ-GDP, valid on the
//!    same event as step 4); the test with the largest `mu_lb` is "the best threshold", and at it
//!    `mu_hat` is the point estimate from the rates (c + ½)/(N + 1). Both are converted to ε at
//!    δ with the μ-GDP (equivalently, Gaussian mechanism) privacy profile
//!    δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth, Su 2022, Cor. 2.13):
//!    `epsilon_gdp` (an estimate of ε assuming the mechanism's trade-off curve is Gaussian) and
//!    `epsilon_gdp_lb` (the ε of the least private GDP curve the data cannot rule out; a lower
//!    bound on ε only for mechanisms whose trade-off curve is exactly Gaussian).
//!
//! The auditor never proves privacy: a small `epsilon_lb` says only that this pair and this
//! statistic did not expose a leak. Its uses here are soundness checks of the accounting (an
//! audit that exceeds a claimed ε refutes the claim: the negative controls in
//! `tests/it/privacy_audit.rs`) and a measure of how tight a claim is (ε_lb / ε_claimed).
//!
//! [`audit_pair`] adapts a dataset-level mechanism `(dataset, noise) ↦ score` by running it on S
//! or S′ with `NoiseSource::sample(seed)`. The audits of real releases (output perturbation of the
//! regularized saddle point, Gaussian or discrete Gaussian, on a worst-case pair) and the heavy
//! variants behind `verify --budget full` run algorithms, so they sit next to them, in
//! `algorithms::release_audit`.

use crate::error::{
    invalid, require_count, require_finite, require_nonnegative, require_positive,
    require_unit_open, Error, Result,
};
use crate::privacy::special::{log_normal_cdf, log_sub_exp};
use crate::problem::Dataset;
use crate::rng::NoiseSource;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};
use statrs::function::gamma::ln_gamma;

/// Which dataset of the neighbouring pair a draw runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// S.
    S,
    /// S′, the neighbour.
    SPrime,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::S => Side::SPrime,
            Side::SPrime => Side::S,
        }
    }
}

/// The direction of a threshold event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// {score > t}.
    Above,
    /// {score < t}.
    Below,
}

/// Where the threshold grid comes from (see the module docs, step 2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Thresholds {
    /// A fixed grid, chosen without looking at the main sample.
    Explicit(Vec<f64>),
    /// Pooled empirical quantiles of a separate pilot sample of `pilot_draws` draws per side,
    /// at `count` levels evenly spaced on the logit scale between 5/(2P) and 1 − 5/(2P).
    PilotQuantiles {
        /// P ≥ 1, pilot draws per side.
        pilot_draws: usize,
        /// T ≥ 1, the number of levels (fewer thresholds remain if quantiles coincide).
        count: usize,
    },
}

/// What to run and at which confidence.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditConfig {
    /// N ≥ 1, main draws per side.
    pub draws: usize,
    /// δ ∈ [0, 1): the ε lower bound is at this δ.
    pub delta: f64,
    /// Overall confidence 1 − α ∈ (0, 1) of the report's bounds (default 0.95).
    pub confidence: f64,
    /// The threshold grid.
    pub thresholds: Thresholds,
    /// Added to every seed (default 0), so that independent audits use disjoint seeds.
    pub seed_offset: u64,
}

impl AuditConfig {
    /// N draws per side at δ, confidence 0.95, thresholds from a pilot of max(N/4, 100) draws
    /// per side at 32 logit-spaced quantile levels, seed offset 0.
    pub fn new(draws: usize, delta: f64) -> AuditConfig {
        AuditConfig {
            draws,
            delta,
            confidence: 0.95,
            thresholds: Thresholds::PilotQuantiles {
                pilot_draws: (draws / 4).max(100),
                count: 32,
            },
            seed_offset: 0,
        }
    }

    /// Check every field; errors name it.
    pub fn validate(&self) -> Result<()> {
        require_count("draws", self.draws as u64)?;
        if !(self.delta >= 0.0 && self.delta < 1.0) {
            return Err(invalid(
                "delta",
                format!("must be in [0, 1), got {}", self.delta),
            ));
        }
        require_unit_open("confidence", self.confidence)?;
        match &self.thresholds {
            Thresholds::Explicit(v) => {
                if v.is_empty() {
                    return Err(invalid("thresholds", "the explicit grid is empty"));
                }
                require_finite("thresholds", v)?;
            }
            Thresholds::PilotQuantiles { pilot_draws, count } => {
                require_count("thresholds.pilot_draws", *pilot_draws as u64)?;
                require_count("thresholds.count", *count as u64)?;
            }
        }
        let pilot = match &self.thresholds {
            Thresholds::PilotQuantiles { pilot_draws, .. } => *pilot_draws as u128,
            Thresholds::Explicit(_) => 0,
        };
        let last = u128::from(self.seed_offset) + 2 * self.draws as u128 + 2 * pilot;
        if last > u128::from(u64::MAX) {
            return Err(invalid(
                "seed_offset",
                "seed_offset + 2·draws + 2·pilot_draws overflows u64",
            ));
        }
        Ok(())
    }
}

/// One threshold test "A versus B on E".
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    /// t.
    pub threshold: f64,
    /// E = {score > t} or {score < t}.
    pub direction: Direction,
    /// A, the side whose probability is bounded below (the numerator).
    pub numerator: Side,
    /// Draws of A in E (out of N).
    pub count_numerator: usize,
    /// Draws of B in E (out of N).
    pub count_denominator: usize,
    /// Lower Clopper–Pearson bound on p_A(E).
    pub p_lo_numerator: f64,
    /// Upper Clopper–Pearson bound on p_B(E).
    pub p_hi_denominator: f64,
    /// log((p_lo_numerator − δ)/p_hi_denominator) (−∞ when p_lo_numerator ≤ δ).
    pub epsilon: f64,
}

/// The Gaussian-DP fit at the best threshold (module docs, step 5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GdpFit {
    /// The test maximizing `mu_lb` ("reject the denominator side when E").
    pub event: AuditEvent,
    /// Empirical false-positive rate (c_B + ½)/(N + 1).
    pub fpr: f64,
    /// Empirical false-negative rate (N − c_A + ½)/(N + 1).
    pub fnr: f64,
    /// μ̂ = −Φ⁻¹(fpr) − Φ⁻¹(fnr).
    pub mu_hat: f64,
    /// Lower confidence bound on μ from the upper bounds on the two rates (≥ 0).
    pub mu_lb: f64,
    /// ε at δ of μ̂-GDP.
    pub epsilon_gdp: f64,
    /// ε at δ of `mu_lb`-GDP.
    pub epsilon_gdp_lb: f64,
}

/// The ε lower bound of one threshold: the best of its 4 tests (both directions, either side as
/// the numerator), as step 4 of the module docs computes it before maximizing over thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThresholdEpsilon {
    /// t.
    pub threshold: f64,
    /// max over the 4 tests at t of log((p̂_lo − δ)/p̂_hi) (−∞ when every p̂_lo ≤ δ); the report's
    /// `epsilon_lb` is max(0, max over t of this).
    pub epsilon: f64,
}

/// What an audit found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    /// ε lower bound at δ, valid with probability ≥ `confidence` (≥ 0).
    pub epsilon_lb: f64,
    /// The event achieving the maximum in `epsilon_lb` (its `epsilon` may be < 0 or −∞, in which
    /// case `epsilon_lb` = 0).
    pub best: AuditEvent,
    /// N, main draws per side.
    pub draws: usize,
    /// Pilot draws per side (0 for an explicit grid).
    pub pilot_draws: usize,
    /// δ.
    pub delta: f64,
    /// Overall confidence.
    pub confidence: f64,
    /// T, distinct thresholds used.
    pub thresholds: usize,
    /// 4T, tests evaluated.
    pub tests: usize,
    /// α/(8T), the level of each one-sided Clopper–Pearson bound.
    pub tail_level: f64,
    /// The Gaussian-DP fit.
    pub gdp: GdpFit,
    /// The ε lower bound of each threshold, in increasing threshold order (the curve whose
    /// maximum is `epsilon_lb`; for plots). Every entry is valid on the same confidence event as
    /// `epsilon_lb`.
    #[serde(default)]
    pub curve: Vec<ThresholdEpsilon>,
}

/// Run `mechanism(side, seed)` for the seeds of the module docs and bound ε (module docs).
///
/// Errors: an invalid config (`Error::Invalid` naming the field), the first failing draw in seed
/// order (its error as returned), or a non-finite score (`Error::Invalid` naming `score`).
pub fn audit<M>(mechanism: M, config: &AuditConfig) -> Result<AuditReport>
where
    M: Fn(Side, u64) -> Result<f64> + Sync,
{
    config.validate()?;
    let n = config.draws;
    let o = config.seed_offset;
    let (grid, pilot_draws) = match &config.thresholds {
        Thresholds::Explicit(v) => {
            let mut g = v.clone();
            g.sort_by(f64::total_cmp);
            g.dedup();
            (g, 0)
        }
        Thresholds::PilotQuantiles { pilot_draws, count } => {
            let p = *pilot_draws;
            let base = o + 2 * n as u64;
            let mut pooled = draw(&mechanism, Side::S, base, p)?;
            pooled.extend(draw(&mechanism, Side::SPrime, base + p as u64, p)?);
            pooled.sort_by(f64::total_cmp);
            (pilot_quantiles(&pooled, *count), p)
        }
    };
    let mut s = draw(&mechanism, Side::S, o, n)?;
    let mut sp = draw(&mechanism, Side::SPrime, o + n as u64, n)?;
    s.sort_by(f64::total_cmp);
    sp.sort_by(f64::total_cmp);

    let t = grid.len();
    let alpha = 1.0 - config.confidence;
    let tail = alpha / (8.0 * t as f64);
    // For each threshold, direction and side: (count, p_lo, p_hi).
    let bounds = |sorted: &[f64], th: f64, dir: Direction| -> Result<(usize, f64, f64)> {
        let c = count(sorted, th, dir);
        Ok((
            c,
            clopper_pearson_lower(c as u64, n as u64, tail)?,
            clopper_pearson_upper(c as u64, n as u64, tail)?,
        ))
    };
    let mut best: Option<AuditEvent> = None;
    let mut best_gdp: Option<GdpFit> = None;
    let mut curve = Vec::with_capacity(t);
    for &th in &grid {
        let mut at_t = f64::NEG_INFINITY;
        for dir in [Direction::Above, Direction::Below] {
            let bs = bounds(&s, th, dir)?;
            let bsp = bounds(&sp, th, dir)?;
            for numerator in [Side::S, Side::SPrime] {
                let (a, b) = match numerator {
                    Side::S => (bs, bsp),
                    Side::SPrime => (bsp, bs),
                };
                let eps = if a.1 > config.delta {
                    (a.1 - config.delta).ln() - b.2.ln()
                } else {
                    f64::NEG_INFINITY
                };
                let ev = AuditEvent {
                    threshold: th,
                    direction: dir,
                    numerator,
                    count_numerator: a.0,
                    count_denominator: b.0,
                    p_lo_numerator: a.1,
                    p_hi_denominator: b.2,
                    epsilon: eps,
                };
                // GDP: FPR = p_B(E) ≤ b.2; FNR = 1 − p_A(E) ≤ 1 − a.1.
                let mu_lb = (-probit(b.2) - probit(1.0 - a.1)).max(0.0);
                if best_gdp.as_ref().is_none_or(|g| mu_lb > g.mu_lb) {
                    let nf = n as f64;
                    let fpr = (b.0 as f64 + 0.5) / (nf + 1.0);
                    let fnr = ((n - a.0) as f64 + 0.5) / (nf + 1.0);
                    best_gdp = Some(GdpFit {
                        event: ev.clone(),
                        fpr,
                        fnr,
                        mu_hat: -probit(fpr) - probit(fnr),
                        mu_lb,
                        epsilon_gdp: 0.0,
                        epsilon_gdp_lb: 0.0,
                    });
                }
                at_t = at_t.max(eps);
                if best.as_ref().is_none_or(|b| eps > b.epsilon) {
                    best = Some(ev);
                }
            }
        }
        curve.push(ThresholdEpsilon {
            threshold: th,
            epsilon: at_t,
        });
    }
    let best = best.expect("the grid has at least one threshold");
    let mut gdp = best_gdp.expect("the grid has at least one threshold");
    let d = config.delta;
    // At δ = 0 a μ-GDP mechanism with μ > 0 has ε = ∞.
    let at_delta = |mu: f64| -> Result<f64> {
        if d > 0.0 {
            gdp_epsilon(mu.max(0.0), d)
        } else if mu > 0.0 {
            Ok(f64::INFINITY)
        } else {
            Ok(0.0)
        }
    };
    gdp.epsilon_gdp = at_delta(gdp.mu_hat)?;
    gdp.epsilon_gdp_lb = at_delta(gdp.mu_lb)?;
    Ok(AuditReport {
        epsilon_lb: best.epsilon.max(0.0),
        best,
        draws: n,
        pilot_draws,
        delta: config.delta,
        confidence: config.confidence,
        thresholds: t,
        tests: 4 * t,
        tail_level: tail,
        gdp,
        curve,
    })
}

/// Audit a dataset-level mechanism on the neighbouring pair (S, S′): a draw on side `Side::S`
/// with seed `k` is `mechanism(s, &mut NoiseSource::sample(k))`, on `Side::SPrime` the same with
/// `s_prime`. The seeds are those of [`audit`], so S and S′ runs never share noise.
pub fn audit_pair<M>(
    mechanism: M,
    s: &Dataset,
    s_prime: &Dataset,
    config: &AuditConfig,
) -> Result<AuditReport>
where
    M: Fn(&Dataset, &mut NoiseSource) -> Result<f64> + Sync,
{
    if s.point_dim() != s_prime.point_dim() || s.len() != s_prime.len() {
        return Err(invalid(
            "s_prime",
            format!(
                "must have the shape of s (n = {}, k = {}), got n = {}, k = {}",
                s.len(),
                s.point_dim(),
                s_prime.len(),
                s_prime.point_dim()
            ),
        ));
    }
    audit(
        |side, seed| {
            let data = match side {
                Side::S => s,
                Side::SPrime => s_prime,
            };
            mechanism(data, &mut NoiseSource::sample(seed))
        },
        config,
    )
}

/// `count` draws on `side` with seeds `first..first + count`, in seed order.
fn draw<M>(mechanism: &M, side: Side, first: u64, count: usize) -> Result<Vec<f64>>
where
    M: Fn(Side, u64) -> Result<f64> + Sync,
{
    let out: Vec<Result<f64>> = (0..count as u64)
        .into_par_iter()
        .map(|i| mechanism(side, first + i))
        .collect();
    out.into_iter()
        .enumerate()
        .map(|(i, r)| {
            let v = r?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(invalid(
                    "score",
                    format!(
                        "the mechanism returned {v} on {side:?} with seed {}",
                        first + i as u64
                    ),
                ))
            }
        })
        .collect()
}

/// Draws of a sorted sample in {score > t} or {score < t}.
fn count(sorted: &[f64], t: f64, dir: Direction) -> usize {
    match dir {
        Direction::Above => sorted.len() - sorted.partition_point(|&x| x <= t),
        Direction::Below => sorted.partition_point(|&x| x < t),
    }
}

/// The pooled pilot's quantiles at `count` logit-spaced levels (module docs, step 2).
fn pilot_quantiles(sorted: &[f64], count: usize) -> Vec<f64> {
    let m = sorted.len() as f64;
    let u0 = (5.0 / m).min(0.5);
    let logit = |u: f64| (u / (1.0 - u)).ln();
    let (l0, l1) = (logit(u0), logit(1.0 - u0));
    let mut g: Vec<f64> = (0..count)
        .map(|j| {
            let l = if count == 1 {
                0.0
            } else {
                l0 + (l1 - l0) * j as f64 / (count - 1) as f64
            };
            let u = 1.0 / (1.0 + (-l).exp());
            let idx = ((u * (m - 1.0)).round() as usize).min(sorted.len() - 1);
            sorted[idx]
        })
        .collect();
    g.dedup();
    g
}

/// Φ⁻¹(p) for p ∈ [0, 1] (±∞ at the ends).
fn probit(p: f64) -> f64 {
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    Normal::standard().inverse_cdf(p)
}

/// The regularized incomplete beta function I_x(a, b) and its complement 1 − I_x(a, b), for
/// a, b > 0 and x ∈ [0, 1].
///
/// The continued fraction (Lentz's method, Numerical Recipes §6.4) is evaluated for I_x(a, b)
/// when x < (a + 1)/(a + b + 2) and for I_{1−x}(b, a) otherwise, so the smaller of the pair
/// (the tail) is computed directly, to about 10⁻¹⁴ relative for moderate a + b; for large
/// a + b the log-gamma prefactor limits it to about 10⁻¹⁶·(a + b)·log(a + b) relative. The
/// fraction runs until a term changes it by less than 10⁻¹⁵ relative.
///
/// Errors: `Error::Invalid` naming `a`, `b` or `x` for arguments out of range;
/// `Error::NotCertified` if the fraction has not converged after 10⁶ terms.
pub fn incomplete_beta(a: f64, b: f64, x: f64) -> Result<(f64, f64)> {
    require_positive("a", a)?;
    require_positive("b", b)?;
    if !(0.0..=1.0).contains(&x) {
        return Err(invalid("x", format!("must be in [0, 1], got {x}")));
    }
    if x == 0.0 {
        return Ok((0.0, 1.0));
    }
    if x == 1.0 {
        return Ok((1.0, 0.0));
    }
    let swap = x >= (a + 1.0) / (a + b + 2.0);
    let (a, b, x, y) = if swap {
        (b, a, 1.0 - x, x)
    } else {
        (a, b, x, 1.0 - x)
    };
    // ln of x^a y^b / (a B(a, b)); ln y from ln_1p where x is small.
    let ln_y = if x < 0.5 { (-x).ln_1p() } else { y.ln() };
    let ln_x = if y < 0.5 { (-y).ln_1p() } else { x.ln() };
    let ln_front = ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * ln_x + b * ln_y - a.ln();
    let cf = beta_continued_fraction(a, b, x)?;
    let direct = (ln_front + cf.ln()).exp().min(1.0);
    Ok(if swap {
        (1.0 - direct, direct)
    } else {
        (direct, 1.0 - direct)
    })
}

/// The continued fraction of I_x(a, b) (NR eq. 6.4.5), by the modified Lentz method.
fn beta_continued_fraction(a: f64, b: f64, x: f64) -> Result<f64> {
    const TINY: f64 = 1e-300;
    const EPS: f64 = 1e-15;
    let qab = a + b;
    let qap = a + 1.0;
    let qam = a - 1.0;
    let mut c = 1.0;
    let mut d = 1.0 - qab * x / qap;
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=1_000_000u32 {
        let m = f64::from(m);
        let m2 = 2.0 * m;
        let aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        h *= d * c;
        let aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        if d.abs() < TINY {
            d = TINY;
        }
        c = 1.0 + aa / c;
        if c.abs() < TINY {
            c = TINY;
        }
        d = 1.0 / d;
        let del = d * c;
        h *= del;
        if (del - 1.0).abs() <= EPS {
            return Ok(h);
        }
    }
    Err(Error::NotCertified(format!(
        "incomplete beta continued fraction for a = {a}, b = {b}, x = {x} did not converge"
    )))
}

/// Relative shrink of a Clopper–Pearson target tail that absorbs the incomplete beta's
/// evaluation error (module docs, step 3).
const TAIL_SAFETY: f64 = 1e-6;

fn check_cp(k: u64, n: u64, tail: f64) -> Result<()> {
    require_count("n", n)?;
    if k > n {
        return Err(invalid("k", format!("must be ≤ n = {n}, got {k}")));
    }
    if !(tail > 0.0 && tail < 0.5) {
        return Err(invalid("tail", format!("must be in (0, 1/2), got {tail}")));
    }
    Ok(())
}

/// The one-sided lower Clopper–Pearson bound at level `tail` for k successes in n trials:
/// the p with P[Bin(n, p) ≥ k] = tail, i.e. the `tail` quantile of Beta(k, n − k + 1)
/// (0 when k = 0). P\[p_lo > p\] ≤ tail for every p. Solved by bisection on
/// [`incomplete_beta`] (module docs, step 3); the returned value is the lower end of the final
/// bracket, so it errs low.
pub fn clopper_pearson_lower(k: u64, n: u64, tail: f64) -> Result<f64> {
    check_cp(k, n, tail)?;
    if k == 0 {
        return Ok(0.0);
    }
    let target = tail * (1.0 - TAIL_SAFETY);
    let (a, b) = (k as f64, (n - k + 1) as f64);
    // f(p) = P[X ≥ k | p] = I_p(k, n − k + 1), increasing in p.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= 1e-14 * hi {
            break;
        }
        if incomplete_beta(a, b, mid)?.0 <= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(lo)
}

/// The one-sided upper Clopper–Pearson bound at level `tail` for k successes in n trials:
/// the p with P[Bin(n, p) ≤ k] = tail, i.e. the 1 − `tail` quantile of Beta(k + 1, n − k)
/// (1 when k = n). P\[p_hi < p\] ≤ tail for every p. The returned value is the upper end of the
/// final bisection bracket, so it errs high.
pub fn clopper_pearson_upper(k: u64, n: u64, tail: f64) -> Result<f64> {
    check_cp(k, n, tail)?;
    if k == n {
        return Ok(1.0);
    }
    let target = tail * (1.0 - TAIL_SAFETY);
    let (a, b) = (k as f64 + 1.0, (n - k) as f64);
    // g(p) = P[X ≤ k | p] = 1 − I_p(k + 1, n − k), decreasing in p.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    for _ in 0..2000 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi || hi - lo <= 1e-14 * hi {
            break;
        }
        if incomplete_beta(a, b, mid)?.1 <= target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

/// The privacy profile of μ-GDP (equivalently of the Gaussian mechanism with σ/Δ = 1/μ):
/// δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Balle & Wang 2018 Thm 8; Dong, Roth, Su 2022
/// Cor. 2.13), evaluated in log space. μ = 0 gives 0; μ = ∞ gives 1.
pub fn gdp_delta(mu: f64, epsilon: f64) -> Result<f64> {
    if mu.is_nan() || mu < 0.0 {
        return Err(invalid("mu", format!("must be ≥ 0, got {mu}")));
    }
    require_nonnegative("epsilon", epsilon)?;
    if mu == 0.0 {
        return Ok(0.0);
    }
    if mu.is_infinite() {
        return Ok(1.0);
    }
    let a = log_normal_cdf(-epsilon / mu + mu / 2.0);
    let b = epsilon + log_normal_cdf(-epsilon / mu - mu / 2.0);
    let l = log_sub_exp(a, b);
    Ok(if l.is_nan() { 0.0 } else { l.exp() })
}

/// The smallest ε ≥ 0 with [`gdp_delta`]`(mu, ε) ≤ delta`, by bisection to 10⁻¹² (the upper end
/// of the bracket; 0 when δ(0) ≤ delta; ∞ for μ = ∞).
pub fn gdp_epsilon(mu: f64, delta: f64) -> Result<f64> {
    require_unit_open("delta", delta)?;
    if mu.is_infinite() && mu > 0.0 {
        return Ok(f64::INFINITY);
    }
    if gdp_delta(mu, 0.0)? <= delta {
        return Ok(0.0);
    }
    let mut hi = 1.0;
    while gdp_delta(mu, hi)? > delta {
        hi *= 2.0;
        if hi > 1e6 {
            return Err(Error::NotCertified(format!(
                "no ε ≤ 1e6 reaches δ = {delta} for μ = {mu}"
            )));
        }
    }
    let mut lo = 0.0;
    while hi - lo > 1e-12 * hi.max(1.0) {
        let mid = 0.5 * (lo + hi);
        if gdp_delta(mu, mid)? > delta {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(hi)
}

/// The 1-D Gaussian mechanism with Δ = 1 on the pair f(S) = 1, f(S′) = 0: one normal from
/// `Stream::new(seed, "audit/gaussian")`, scaled by σ.
pub fn gaussian_score(sigma: f64, side: Side, seed: u64) -> f64 {
    let z = crate::rng::Stream::new(seed, "audit/gaussian").normal();
    match side {
        Side::S => 1.0 + sigma * z,
        Side::SPrime => sigma * z,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp_closed_forms() {
        let t = 0.025;
        let n = 1000;
        let up0 = clopper_pearson_upper(0, n, t).unwrap();
        let exact = 1.0 - t.powf(1.0 / n as f64);
        assert!(up0 >= exact && up0 < exact * (1.0 + 1e-6), "{up0} {exact}");
        let lon = clopper_pearson_lower(n, n, t).unwrap();
        let exact = t.powf(1.0 / n as f64);
        assert!(lon <= exact && lon > exact * (1.0 - 1e-6), "{lon} {exact}");
    }

    #[test]
    fn gdp_profile_round_trip() {
        let e = gdp_epsilon(1.0, 1e-5).unwrap();
        assert!((gdp_delta(1.0, e).unwrap() - 1e-5).abs() < 1e-12);
        assert_eq!(gdp_epsilon(0.0, 1e-5).unwrap(), 0.0);
    }

    #[test]
    fn pilot_grid_is_sorted_and_in_range() {
        let v: Vec<f64> = (0..1000).map(f64::from).collect();
        let g = pilot_quantiles(&v, 16);
        assert!(g.windows(2).all(|w| w[0] < w[1]));
        assert!(g[0] >= 4.0 && *g.last().unwrap() <= 995.0);
    }

    #[test]
    fn the_curve_is_per_threshold_and_peaks_at_epsilon_lb() {
        // A shifted Gaussian score, 2000 draws per side, an explicit grid.
        let grid: Vec<f64> = (-8..=8).map(|k| f64::from(k) * 0.25).collect();
        let mut cfg = AuditConfig::new(2000, 1e-3);
        cfg.thresholds = Thresholds::Explicit(grid.clone());
        let r = audit(
            |side, seed| {
                let z = NoiseSource::sample(seed).normals("score", 1)?[0];
                Ok(z + if side == Side::S { 1.0 } else { 0.0 })
            },
            &cfg,
        )
        .unwrap();
        assert_eq!(r.curve.len(), r.thresholds);
        assert!(r.curve.iter().zip(&grid).all(|(c, t)| c.threshold == *t));
        let peak = r
            .curve
            .iter()
            .map(|c| c.epsilon)
            .fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(peak.max(0.0), r.epsilon_lb);
        assert_eq!(peak, r.best.epsilon);
    }
}
