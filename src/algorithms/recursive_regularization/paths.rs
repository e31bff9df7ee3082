//! BGM23 Lemma 19 and Theorem 18 quantities of Recursive Regularization (Algorithm 1), computed
//! exactly in expectation by enumerating every path of chunk count vectors (the quantities of
//! App. B.2, eq. (5) and the proof of Thm 18).
//!
//! With a finite-support D and a deterministic A_emp (exact or biased-exact), the run is a tree:
//! at a node before round t the centres z̄_0..z̄_{t−1} are fixed, and S_t ranges over the count
//! vectors of n′ i.i.d. draws (multinomial probabilities). At each node we compute
//!
//! * z*_t, the saddle point of F_D^(t) (population loss + the first t regularizer terms);
//! * for every count vector: z*_{S,t} and z̄_t = A_emp(S_t, …);
//! * z̃_t = E[z*_{S,t} | F_{t−1}] and Ĝap^(t)(z̃_t) (the population gap of F_D^(t));
//!
//! and accumulate, weighted by the path probability (BGM23 eq. (5)):
//!
//! E_t = E‖z̄_t − z*_{S,t}‖²,  F_t = E‖z*_{S,t} − z̃_t‖²,  G_t = E[Ĝap^(t)(z̃_t)]/(2^tλ),
//! P.1: E‖z̄_t − z*_t‖² (and its first moment), P.2: E‖z*_t − z̄_{t−1}‖², E‖z̃_t − z*_t‖²,
//! E‖z*_t − z̃_{t−1}‖² (proof of Thm 18, property P.2, the display after eq. (8)), and at the
//! leaves the terms of Thm 18's decomposition (★).
//!
//! Cost: (number of count vectors)^T nodes, each with one population and one empirical solve per
//! count vector; for two atoms and n′ ≤ 12, T ≤ 3 that is ≤ 2197 leaves.

use crate::algorithms::recursive_regularization::{Aemp, RecursiveRegularization, RoundInput};
use crate::error::{invalid, Result};
use crate::exact::count_vectors;
use crate::gap::gap_function;
use crate::linalg;
use crate::problem::{FiniteDist, Objective, Regularizer, SaddleFn};
use crate::rng::NoiseSource;
use crate::solve::{saddle_point_from, SolveOptions};
use serde::{Deserialize, Serialize};

/// Per-round expectations (index t − 1 holds round t).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoundMoments {
    /// E_t = E‖z̄_t − z*_{S,t}‖².
    pub e: f64,
    /// F_t = E‖z*_{S,t} − z̃_t‖².
    pub f: f64,
    /// G_t = E[Ĝap^(t)(z̃_t)]/(2^tλ).
    pub g: f64,
    /// E‖z̃_t − z*_t‖².
    pub tilde_to_star: f64,
    /// P.1 second moment E‖z̄_t − z*_t‖².
    pub p1: f64,
    /// P.1 first moment E‖z̄_t − z*_t‖.
    pub p1_first: f64,
    /// P.2 second moment E‖z*_t − z̄_{t−1}‖².
    pub p2: f64,
    /// E‖z*_t − z̄_{t−1}‖ (first moment; the (★) terms).
    pub p2_first: f64,
    /// E‖z*_t − z̃_{t−1}‖² (t ≥ 2; the left side of the display after eq. (8)). 0 at t = 1.
    pub star_to_prev_tilde: f64,
    /// E‖z*_{S,t} − z̄_{t−1}‖² (the distance A_emp actually starts from; Def 4's premise).
    pub start_dist_sq: f64,
}

/// Thm 18's quantities, in expectation and the worst pathwise ratio.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Thm18Terms {
    /// E Ĝap(z̄_T) (the population gap of F_D, no regularizer): the strong gap Gap(R).
    pub gap_output: f64,
    /// E Ĝap(z*_T).
    pub gap_star: f64,
    /// E‖z̄_T − z*_T‖.
    pub dist_output: f64,
    /// The right side of (★), in expectation (accumulated at the leaves, path by path; `bgm23.thm18`
    /// re-assembles it from the per-round first moments [`RoundMoments::p1_first`] and
    /// [`RoundMoments::p2_first`], accumulated at the nodes).
    pub star_bound: f64,
    /// max over paths of Ĝap(z*_T) / (2Bλ Σ_{t<T} 2^{t+1}‖z*_T − z̄_t‖) (proof of Thm 18, the
    /// display after eq. (10)).
    pub worst_after_eq10_ratio: f64,
    /// E[2Bλ Σ_{t<T} 2^{t+1}‖z*_T − z̄_t‖] (the right side of the display after eq. (10), the
    /// bound of [`Thm18Terms::worst_after_eq10_ratio`]), accumulated at the leaves.
    #[serde(default)]
    pub eq10_bound: f64,
    /// E[Σ_{t<T} 2^{t+1}‖z*_T − z̄_t‖], accumulated at the last round's nodes (where z*_T is
    /// solved), not at the leaves: 2Bλ times it must equal [`Thm18Terms::eq10_bound`].
    #[serde(default)]
    pub eq10_sum_at_nodes: f64,
    /// max over paths of [Ĝap(z̄_T) − Ĝap(z*_T)] / (√2L‖z̄_T − z*_T‖) (eq. (9), Fact 1).
    pub worst_fact1_ratio: f64,
    /// max over paths of Ĝap(z̄_T) / (pathwise (★) right side).
    pub worst_star_ratio: f64,
    /// Paths enumerated.
    pub paths: usize,
}

/// The enumeration's result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PathMoments {
    /// Rounds t = 1..T.
    pub rounds: Vec<RoundMoments>,
    /// Thm 18.
    pub thm18: Thm18Terms,
}

struct Walker<'a> {
    f: &'a dyn SaddleFn,
    dist: &'a FiniteDist,
    alg: &'a RecursiveRegularization,
    a_emp: &'a dyn Aemp,
    counts: Vec<(Vec<usize>, f64)>,
    l: f64,
    out: PathMoments,
}

/// A path's history: (z̄_{t−1}, z*_t) for t = 1..current.
type History = Vec<(Vec<f64>, Vec<f64>)>;

fn solve(f: &dyn SaddleFn, obj: &Objective, start: &[f64]) -> Result<Vec<f64>> {
    let (w, t) = linalg::split(start, f.dim_w());
    let c = saddle_point_from(f, obj, (w, t), &SolveOptions::default())?;
    Ok(linalg::concat(&c.w, &c.theta))
}

fn dist(a: &[f64], b: &[f64]) -> f64 {
    linalg::norm2(&linalg::sub(a, b))
}

impl Walker<'_> {
    fn population(&self, reg: &Regularizer, t: usize) -> Objective {
        Objective::population(self.dist).with_reg(Regularizer {
            terms: reg.terms[..t].to_vec(),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        t: usize,
        prob: f64,
        reg: &Regularizer,
        start: &[f64],
        prev_tilde: Option<&[f64]>,
        hist: &mut History,
    ) -> Result<()> {
        let sch = &self.alg.schedule;
        let f = self.f;
        let dw = f.dim_w();
        let pop = self.population(reg, t);
        let z_star = solve(f, &pop, start)?;
        let mut branches = Vec::with_capacity(self.counts.len());
        let mut tilde = vec![0.0; z_star.len()];
        for (c, p) in &self.counts.clone() {
            let chunk = self.dist.dataset_from_counts(c)?;
            let obj = RecursiveRegularization::round_objective(&chunk, reg, t);
            let zs = solve(f, &obj, start)?;
            let (sw, st) = linalg::split(start, dw);
            let input = RoundInput {
                t,
                objective: &obj,
                start_w: &sw,
                start_theta: &st,
                d_hat: sch.d_hat(t),
                schedule: sch,
                label_prefix: format!("rr/round={t}/"),
            };
            let mut noise = NoiseSource::sample(0);
            let out = self.a_emp.run_round(f, &input, &mut noise)?;
            if noise.draws_made() > 0 {
                return Err(invalid(
                    "a_emp",
                    "path enumeration needs a deterministic A_emp (it drew noise)",
                ));
            }
            linalg::axpy(*p, &zs, &mut tilde);
            branches.push((out.z(), zs, *p));
        }
        let g_tilde = {
            let (w, th) = linalg::split(&tilde, dw);
            gap_function(f, &pop, &w, &th)?.gap
        };
        let r = &mut self.out.rounds[t - 1];
        r.g += prob * g_tilde / sch.increment(t);
        r.tilde_to_star += prob * dist(&tilde, &z_star).powi(2);
        let p2 = dist(&z_star, start);
        r.p2 += prob * p2 * p2;
        r.p2_first += prob * p2;
        if t == sch.rounds {
            // Σ_{k<T} 2^{k+1}‖z*_T − z̄_k‖ with z̄_k = hist[k].0 (k < T − 1) and z̄_{T−1} = start.
            let mut s = 2f64.powi(t as i32) * p2;
            for (k, (zbar_k, _)) in hist.iter().enumerate() {
                s += 2f64.powi(k as i32 + 1) * dist(&z_star, zbar_k);
            }
            self.out.thm18.eq10_sum_at_nodes += prob * s;
        }
        let r = &mut self.out.rounds[t - 1];
        if let Some(pt) = prev_tilde {
            r.star_to_prev_tilde += prob * dist(&z_star, pt).powi(2);
        }
        for (zbar, zs, p) in &branches {
            let q = prob * p;
            let r = &mut self.out.rounds[t - 1];
            r.e += q * dist(zbar, zs).powi(2);
            r.f += q * dist(zs, &tilde).powi(2);
            let d1 = dist(zbar, &z_star);
            r.p1 += q * d1 * d1;
            r.p1_first += q * d1;
            r.start_dist_sq += q * dist(zs, start).powi(2);
        }
        hist.push((start.to_vec(), z_star.clone()));
        for (zbar, _, p) in branches {
            let q = prob * p;
            if t == sch.rounds {
                self.leaf(q, &zbar, hist)?;
            } else {
                let mut next = reg.clone();
                let (w, th) = linalg::split(&zbar, dw);
                next.push(sch.increment(t + 1), &w, &th);
                self.node(t + 1, q, &next, &zbar, Some(&tilde), hist)?;
            }
        }
        hist.pop();
        Ok(())
    }

    /// At a leaf: z̄_0..z̄_{T−1} are hist[·].0, z*_1..z*_T are hist[·].1, z̄_T = `zbar`.
    fn leaf(&mut self, q: f64, zbar: &[f64], hist: &History) -> Result<()> {
        let sch = &self.alg.schedule;
        let (f, dw) = (self.f, self.f.dim_w());
        let tt = sch.rounds;
        let b = sch.diameter;
        let lam = sch.lambda;
        let pop = Objective::population(self.dist);
        let gap_at = |z: &[f64]| -> Result<f64> {
            let (w, th) = linalg::split(z, dw);
            Ok(gap_function(f, &pop, &w, &th)?.gap)
        };
        let z_star_t = &hist[tt - 1].1;
        let g_out = gap_at(zbar)?;
        let g_star = gap_at(z_star_t)?;
        let d_out = dist(zbar, z_star_t);
        // Proof of Thm 18, after eq. (10): Ĝap(z*_T) ≤ 2Bλ Σ_{t=0}^{T−1} 2^{t+1}‖z*_T − z̄_t‖.
        let s_eq10: f64 = (0..tt)
            .map(|k| 2f64.powi(k as i32 + 1) * dist(z_star_t, &hist[k].0))
            .sum();
        // (★) pathwise: z̄_r = hist[r].0 for r ≥ 1 (the start of round r + 1), z*_r = hist[r−1].1.
        let mut star = 0.0;
        for (k, (zbar_k, zstar_k1)) in hist.iter().enumerate() {
            star += 2f64.powi(k as i32) * dist(zstar_k1, zbar_k);
        }
        for r in 1..tt {
            let w = 2f64.powi(r as i32) - 1.0;
            star += w * (dist(&hist[r].1, &hist[r].0) + dist(&hist[r].0, &hist[r - 1].1));
        }
        let star_rhs = 2f64.sqrt() * self.l * d_out + 4.0 * lam * b * star;
        let eq10_rhs = 2.0 * b * lam * s_eq10;
        let th = &mut self.out.thm18;
        th.paths += 1;
        th.gap_output += q * g_out;
        th.gap_star += q * g_star;
        th.dist_output += q * d_out;
        th.star_bound += q * star_rhs;
        th.eq10_bound += q * eq10_rhs;
        // Below 1e-10 both sides are at the certified solver's resolution: a non-positive or
        // tiny left side counts as ratio 0, a left side above it with a vanishing bound as ∞.
        let ratio = |m: f64, bd: f64| {
            if m <= 1e-10 {
                0.0
            } else if bd > 1e-10 {
                m / bd
            } else {
                f64::INFINITY
            }
        };
        th.worst_after_eq10_ratio = th.worst_after_eq10_ratio.max(ratio(g_star, eq10_rhs));
        th.worst_fact1_ratio = th
            .worst_fact1_ratio
            .max(ratio(g_out - g_star, 2f64.sqrt() * self.l * d_out));
        th.worst_star_ratio = th.worst_star_ratio.max(ratio(g_out, star_rhs));
        Ok(())
    }
}

/// Enumerate every count path of Algorithm 1 on S ∼ D^{T·n′} (the unused remainder does not
/// matter) with the deterministic subroutine `a_emp`; `l` is Lip(f) over D's support.
pub fn enumerate_paths(
    f: &dyn SaddleFn,
    dist: &FiniteDist,
    alg: &RecursiveRegularization,
    a_emp: &dyn Aemp,
    l: f64,
) -> Result<PathMoments> {
    let sch = &alg.schedule;
    sch.validate()?;
    let counts: Vec<(Vec<usize>, f64)> = count_vectors(sch.n_prime, dist.k())
        .map(|c| {
            let p = dist.count_prob(&c);
            (c, p)
        })
        .collect();
    let leaves = (counts.len() as f64).powi(sch.rounds as i32);
    if leaves > 2e5 {
        return Err(invalid(
            "n_prime",
            format!("{leaves} paths is too many to enumerate (limit 2e5)"),
        ));
    }
    let mut walker = Walker {
        f,
        dist,
        alg,
        a_emp,
        counts,
        l,
        out: PathMoments {
            rounds: vec![RoundMoments::default(); sch.rounds],
            thm18: Thm18Terms::default(),
        },
    };
    let mut reg = Regularizer::none();
    reg.push(sch.increment(1), &alg.start_w, &alg.start_theta);
    let z0 = linalg::concat(&alg.start_w, &alg.start_theta);
    walker.node(1, 1.0, &reg, &z0, None, &mut Vec::new())?;
    Ok(walker.out)
}
