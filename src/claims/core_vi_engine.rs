//! Claims about the first-order VI engine (issue 14 items 5 and 8): projected extragradient
//! (BG23 Algorithm 1) and operator extrapolation / OGDA (BG23 Algorithm 3) reproduce traces
//! computed in exact rationals, count their evaluations exactly per data point, replay from their
//! tapes, and are coupled on neighbouring datasets.
//!
//! The rational reference here is independent of the production loop: it recomputes each run
//! from the operator's definition G(z; x) = Mz + x on a box (projection = clamp, exact in ℚ), the
//! documented stream labels read off the recorded tape, and the documented update rules.

use super::{BoundCheck, Budget, Claim, Evidence, Kind};
use crate::algorithms::extragradient::{Averaging, Extragradient};
use crate::algorithms::operator_extrapolation::{OeStop, OperatorExtrapolation};
use crate::algorithms::vi::{StepSchedule, ViAlgorithm, ViOutput};
use crate::error::{invalid, Error, Result};
use crate::exact::{from_f64_exact, rat, to_f64};
use crate::geometry::Domain;
use crate::linalg::Matrix;
use crate::problem::{AffineOp, Dataset};
use crate::rng::{DrawValues, NoiseSource, Tape};
use crate::sampling::BatchRule;
use num_rational::BigRational;
use num_traits::{Signed, Zero};

type Q = BigRational;

/// The engine claims.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "core.eg_exact_trace",
            paper: "BG23",
            item: "Algorithm 1 (NSEG), eq. (3.1)",
            statement: "Projected extragradient reproduces, through the production path, a two-step \
                        trace computed by hand in exact rationals (rotation operator on a box, \
                        disjoint single-point batches, one projection active) exactly, with both \
                        averages; and a noisy with-replacement run agrees with its exact rational \
                        replay from the recorded tape to 1e-14.",
            kind: Kind::Exact,
            code: "algorithms::extragradient::Extragradient",
            check: check_eg_exact_trace,
        },
        Claim {
            id: "core.oe_exact_trace",
            paper: "BG23",
            item: "Appendix B, Algorithm 3 (OE)",
            statement: "Operator extrapolation z_{t+1} = Π(z_t − γ[g_t + (1/κ)(g_t − g_{t−1})]) \
                        reproduces two-step traces computed by hand in exact rationals for κ = 1 \
                        (OGDA) and κ = 2 exactly, and a noisy with-replacement run agrees with its \
                        exact rational replay from the tape to 1e-14.",
            kind: Kind::Exact,
            code: "algorithms::operator_extrapolation::OperatorExtrapolation",
            check: check_oe_exact_trace,
        },
        Claim {
            id: "core.eg_counts_exact",
            paper: "BG23",
            item: "Table 1 (evaluation counts), Algorithm 1",
            statement: "The per-point evaluation counts of extragradient (2T evaluations) and operator \
                        extrapolation (T evaluations) equal the tally of the batches on the tape, a \
                        point drawn twice counting twice; the total equals the oracle's count and \
                        2T·B (EG) or T·B (OE); disjoint batches use each of the first 2TB points once.",
            kind: Kind::Exact,
            code: "algorithms::vi::CountedData, oracle::OpOracle::batch_into",
            check: check_counts_exact,
        },
        Claim {
            id: "core.eg_coupled_replay",
            paper: "BG23",
            item: "Definition 1 (coupled runs on S ≃ S′), Algorithm 1",
            statement: "Runs of extragradient and operator extrapolation on S and on S′ (one point \
                        replaced) with one seed draw identical batches and noise (equal tapes), and \
                        the run on S′ is its exact rational replay of S's tape; replaying a recorded \
                        tape reproduces the run bit for bit (with-replacement and disjoint batches).",
            kind: Kind::Exact,
            code: "algorithms::vi::NoisyBatchOracle, rng::NoiseSource::replay",
            check: check_coupled_replay,
        },
    ]
}

// ------------------------------------------------------------------------------------------
// The rational reference.

/// G(z; x) = Mz + x on the box [lo, hi], in exact rationals.
#[derive(Clone, Debug)]
pub struct RationalAffine {
    /// M.
    pub m: Vec<Vec<Q>>,
    /// The box's lower corner.
    pub lo: Vec<Q>,
    /// The box's upper corner.
    pub hi: Vec<Q>,
}

impl RationalAffine {
    /// The exact values of an f64 matrix and box.
    pub fn from_f64(m: &[Vec<f64>], lo: &[f64], hi: &[f64]) -> Result<RationalAffine> {
        let q = |v: &[f64]| -> Result<Vec<Q>> {
            v.iter()
                .map(|&x| from_f64_exact(x).ok_or_else(|| invalid("m", "not finite")))
                .collect()
        };
        Ok(RationalAffine {
            m: m.iter().map(|r| q(r)).collect::<Result<_>>()?,
            lo: q(lo)?,
            hi: q(hi)?,
        })
    }

    fn g(&self, z: &[Q], x: &[Q]) -> Vec<Q> {
        self.m
            .iter()
            .zip(x)
            .map(|(row, xi)| row.iter().zip(z).fold(Q::zero(), |s, (a, b)| s + a * b) + xi)
            .collect()
    }

    fn proj(&self, v: Vec<Q>) -> Vec<Q> {
        v.into_iter()
            .zip(self.lo.iter().zip(&self.hi))
            .map(|(x, (l, h))| {
                if x < *l {
                    l.clone()
                } else if x > *h {
                    h.clone()
                } else {
                    x
                }
            })
            .collect()
    }

    /// (1/|idx|) Σ_{i∈idx} G(z; x_i) + ξ.
    fn estimate(&self, z: &[Q], pts: &[Vec<Q>], draw: &EvalDraw) -> Vec<Q> {
        let b = Q::from_integer(draw.idx.len().into());
        let mut s = vec![Q::zero(); z.len()];
        for &i in &draw.idx {
            for (sk, gk) in s.iter_mut().zip(self.g(z, &pts[i])) {
                *sk += gk;
            }
        }
        s.into_iter()
            .enumerate()
            .map(|(k, v)| v / &b + draw.noise.get(k).cloned().unwrap_or_else(Q::zero))
            .collect()
    }

    /// Π(z − γ g).
    fn step(&self, z: &[Q], gamma: &Q, g: &[Q]) -> Vec<Q> {
        self.proj(z.iter().zip(g).map(|(a, b)| a - gamma * b).collect())
    }
}

/// One evaluation's batch and noise (the exact values of the f64 noise the run added).
#[derive(Clone, Debug, PartialEq)]
pub struct EvalDraw {
    /// The batch.
    pub idx: Vec<usize>,
    /// ξ (empty when σ = 0).
    pub noise: Vec<Q>,
}

/// The deliberate mistakes the controls run through the same comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// As documented.
    Correct,
    /// Extragradient: the second estimate taken at u_{t−1} instead of w_t. OE: weight κ for 1/κ.
    Wrong,
}

/// An exact extragradient trace: u_0..u_T, w_1..w_T and the two γ-weighted averages.
#[derive(Clone, Debug, PartialEq)]
pub struct RationalEg {
    /// u_0..u_T.
    pub base: Vec<Vec<Q>>,
    /// w_1..w_T.
    pub extrapolated: Vec<Vec<Q>>,
    /// Σγ_t w_t / Σγ_t.
    pub avg_extrapolated: Vec<Q>,
    /// Σγ_t u_t / Σγ_t.
    pub avg_base: Vec<Q>,
}

/// BG23 Algorithm 1 in ℚ with the given batches and noise (two draws per iteration).
pub fn rational_eg(
    op: &RationalAffine,
    pts: &[Vec<Q>],
    start: &[Q],
    gammas: &[Q],
    draws: &[EvalDraw],
    variant: Variant,
) -> RationalEg {
    let d = start.len();
    let mut u = start.to_vec();
    let mut base = vec![u.clone()];
    let mut ext = Vec::new();
    let (mut sw, mut su, mut gs) = (vec![Q::zero(); d], vec![Q::zero(); d], Q::zero());
    for (t, gamma) in gammas.iter().enumerate() {
        let g1 = op.estimate(&u, pts, &draws[2 * t]);
        let w = op.step(&u, gamma, &g1);
        let at = if variant == Variant::Wrong { &u } else { &w };
        let g2 = op.estimate(at, pts, &draws[2 * t + 1]);
        u = op.step(&u, gamma, &g2);
        for k in 0..d {
            sw[k] += gamma * &w[k];
            su[k] += gamma * &u[k];
        }
        gs += gamma;
        ext.push(w);
        base.push(u.clone());
    }
    RationalEg {
        base,
        extrapolated: ext,
        avg_extrapolated: sw.into_iter().map(|v| v / &gs).collect(),
        avg_base: su.into_iter().map(|v| v / &gs).collect(),
    }
}

/// BG23 Algorithm 3 in ℚ: z_1..z_{T+1} (one draw per iteration; g_0 = g_1).
pub fn rational_oe(
    op: &RationalAffine,
    pts: &[Vec<Q>],
    start: &[Q],
    gamma: &Q,
    kappa: &Q,
    draws: &[EvalDraw],
    variant: Variant,
) -> Vec<Vec<Q>> {
    let weight = if variant == Variant::Wrong {
        kappa.clone()
    } else {
        kappa.recip()
    };
    let mut z = start.to_vec();
    let mut out = vec![z.clone()];
    let mut prev: Option<Vec<Q>> = None;
    for draw in draws {
        let g = op.estimate(&z, pts, draw);
        let p = prev.unwrap_or_else(|| g.clone());
        let dir: Vec<Q> = g
            .iter()
            .zip(&p)
            .map(|(a, b)| a + &weight * (a - b))
            .collect();
        z = op.step(&z, gamma, &dir);
        out.push(z.clone());
        prev = Some(g);
    }
    out
}

/// The batches and noise of `evaluations` evaluations read off a tape by their documented labels
/// (`{head}batch/eval=e` for random rules, `{head}noise/eval=e` when σ > 0, in that order; the
/// deterministic rules' blocks are computed from their definitions), after `skip` leading draws.
#[allow(clippy::too_many_arguments)]
pub fn draws_from_tape(
    tape: &Tape,
    skip: usize,
    head: &str,
    evaluations: usize,
    batch: BatchRule,
    n: usize,
    sigma: f64,
    d: usize,
) -> Result<Vec<EvalDraw>> {
    let mut pos = skip;
    let mut next = |label: String| -> Result<&DrawValues> {
        let dr = tape
            .draws
            .get(pos)
            .ok_or_else(|| Error::Replay(format!("tape ends before `{label}`")))?;
        pos += 1;
        if dr.label != label {
            return Err(Error::Replay(format!(
                "draw {}: label `{}`, expected `{label}`",
                pos - 1,
                dr.label
            )));
        }
        Ok(&dr.values)
    };
    let mut out = Vec::new();
    for e in 1..=evaluations {
        let idx = match batch {
            BatchRule::Full => (0..n).collect(),
            BatchRule::Disjoint { size } => ((e - 1) * size..e * size).collect(),
            BatchRule::Contiguous { phases } => {
                let b = n / phases;
                ((e - 1) * b..e * b).collect()
            }
            BatchRule::WithReplacement { .. } | BatchRule::WithoutReplacement { .. } => {
                match next(format!("{head}batch/eval={e}"))? {
                    DrawValues::Index { n: nn, values } if *nn as usize == n => {
                        values.iter().map(|&v| v as usize).collect()
                    }
                    other => return Err(Error::Replay(format!("batch draw {e}: {other:?}"))),
                }
            }
        };
        let noise = if sigma > 0.0 {
            match next(format!("{head}noise/eval={e}"))? {
                DrawValues::Normal(z) if z.len() == d => z
                    .iter()
                    .map(|&v| from_f64_exact(sigma * v).expect("finite"))
                    .collect(),
                other => return Err(Error::Replay(format!("noise draw {e}: {other:?}"))),
            }
        } else {
            Vec::new()
        };
        out.push(EvalDraw { idx, noise });
    }
    if pos != tape.draws.len() {
        return Err(Error::Replay(format!(
            "{} of the tape's {} draws unused",
            tape.draws.len() - pos,
            tape.draws.len()
        )));
    }
    Ok(out)
}

/// max_k |a_k − b_k| between an f64 vector and a rational one, as an f64.
pub fn deviation(a: &[f64], b: &[Q]) -> f64 {
    if a.len() != b.len() {
        return f64::INFINITY;
    }
    a.iter()
        .zip(b)
        .map(|(x, y)| to_f64(&(from_f64_exact(*x).expect("finite") - y).abs()))
        .fold(0.0, f64::max)
}

/// The exact rationals of f64 points.
pub fn q_points(pts: &[Vec<f64>]) -> Vec<Vec<Q>> {
    pts.iter()
        .map(|p| {
            p.iter()
                .map(|&v| from_f64_exact(v).expect("finite"))
                .collect()
        })
        .collect()
}

/// The rotation J = [[0, −1], [1, 0]] on the box [−1, 1]² (the tight, merely monotone case of
/// extragradient bounds), as an [`AffineOp`] and its rational twin.
pub fn rotation_box() -> (AffineOp, RationalAffine) {
    let m = vec![vec![0.0, -1.0], vec![1.0, 0.0]];
    let (lo, hi) = (vec![-1.0, -1.0], vec![1.0, 1.0]);
    let op = AffineOp::new(
        Matrix::from_rows(m.clone()).expect("2×2"),
        Domain::new_box(lo.clone(), hi.clone()).expect("box"),
    )
    .expect("shapes");
    let q = RationalAffine::from_f64(&m, &lo, &hi).expect("finite");
    (op, q)
}

/// The hand instance: x_1 = (1/2, 0), x_2 = (0, 1/2), x_3 = (−1/4, 1/4), x_4 = (4, −1).
pub fn hand_points() -> Vec<Vec<f64>> {
    vec![
        vec![0.5, 0.0],
        vec![0.0, 0.5],
        vec![-0.25, 0.25],
        vec![4.0, -1.0],
    ]
}

/// The trace computed by hand (rotation on [−1, 1]², u_0 = (1/2, 1/2), γ = 1/2, disjoint batches
/// of one point, σ = 0): w_1 = (1/2, 1/4), u_1 = (5/8, 0), w_2 = (3/4, −7/16),
/// u_2 = Π(−51/32, 1/8) = (−1, 1/8); averages (5/8, −3/32) (extrapolated) and (−3/16, 1/16)
/// (base).
pub fn hand_eg_trace() -> RationalEg {
    RationalEg {
        base: vec![
            vec![rat(1, 2), rat(1, 2)],
            vec![rat(5, 8), rat(0, 1)],
            vec![rat(-1, 1), rat(1, 8)],
        ],
        extrapolated: vec![vec![rat(1, 2), rat(1, 4)], vec![rat(3, 4), rat(-7, 16)]],
        avg_extrapolated: vec![rat(5, 8), rat(-3, 32)],
        avg_base: vec![rat(-3, 16), rat(1, 16)],
    }
}

/// OE by hand on x_1, x_2 (z_1 = (1/2, 1/2), γ = 1/2): g_1 = (0, 1/2), z_2 = (1/2, 1/4),
/// g_2 = (−1/4, 1); κ = 1: z_3 = (3/4, −1/2); κ = 2: z_3 = (11/16, −3/8).
pub fn hand_oe_trace(kappa: i64) -> Vec<Vec<Q>> {
    let last = match kappa {
        1 => vec![rat(3, 4), rat(-1, 2)],
        _ => vec![rat(11, 16), rat(-3, 8)],
    };
    vec![vec![rat(1, 2), rat(1, 2)], vec![rat(1, 2), rat(1, 4)], last]
}

/// The noisy instance: n = 5 points on the rotation box, with-replacement batches of 3.
fn noisy_points() -> Vec<Vec<f64>> {
    vec![
        vec![0.3, -0.2],
        vec![-0.7, 0.1],
        vec![0.05, 0.9],
        vec![1.5, -0.4],
        vec![-0.1, -0.6],
    ]
}

fn dataset(pts: Vec<Vec<f64>>) -> Dataset {
    Dataset::new(pts).expect("finite points")
}

/// Tolerance of a production f64 run against its exact rational replay (values O(1), a few
/// dozen roundings per run).
pub const REPLAY_TOL: f64 = 1e-14;

fn recorded<A: ViAlgorithm>(
    alg: &A,
    op: &AffineOp,
    s: &Dataset,
    seed: u64,
) -> Result<(ViOutput, Tape)> {
    let mut noise = NoiseSource::recording(seed);
    let out = alg.run(op, s, &mut noise)?;
    Ok((out, noise.into_tape().expect("recording")))
}

fn check_eg_exact_trace(_: Budget) -> Result<Evidence> {
    let (op, q) = rotation_box();
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    // 1. The hand trace, exactly, through the production path (traced and untraced runs).
    let s = dataset(hand_points());
    let pts = q_points(&s.points.to_vecs());
    let hand = hand_eg_trace();
    let draws: Vec<EvalDraw> = (0..4)
        .map(|i| EvalDraw {
            idx: vec![i],
            noise: vec![],
        })
        .collect();
    let gam = vec![rat(1, 2), rat(1, 2)];
    let reference = rational_eg(&q, &pts, &hand.base[0], &gam, &draws, Variant::Correct);
    main.observe_exact(reference == hand, None, "rational reference = hand trace");
    for avg in [Averaging::Extrapolated, Averaging::Base] {
        let alg = Extragradient::new(
            2,
            StepSchedule::Constant(0.5),
            vec![0.5, 0.5],
            BatchRule::Disjoint { size: 1 },
            0.0,
            avg,
        )?;
        let run = alg.run_traced(&op, &s, &mut NoiseSource::sample(0))?;
        let want = if avg == Averaging::Extrapolated {
            &hand.avg_extrapolated
        } else {
            &hand.avg_base
        };
        let mut dev = deviation(&run.output.z, want);
        for (a, b) in run.trace.base.iter().zip(&hand.base) {
            dev = dev.max(deviation(a, b));
        }
        for (a, b) in run.trace.extrapolated.iter().zip(&hand.extrapolated) {
            dev = dev.max(deviation(a, b));
        }
        let plain = alg.run(&op, &s, &mut NoiseSource::sample(0))?;
        dev = dev.max(deviation(&plain.z, want));
        main.observe_exact(dev == 0.0, None, format!("hand trace, {avg:?} averaging"));
        notes.push(format!(
            "hand trace ({avg:?}): max deviation {dev:e} (exact)"
        ));
        // Control: Ĝ_2 at u_{t−1} instead of w_t.
        let wrong = rational_eg(&q, &pts, &hand.base[0], &gam, &draws, Variant::Wrong);
        let wz = if avg == Averaging::Extrapolated {
            &wrong.avg_extrapolated
        } else {
            &wrong.avg_base
        };
        ctrl.observe(
            deviation(&run.output.z, wz),
            REPLAY_TOL,
            format!("Ĝ₂ at u_(t−1), {avg:?}"),
        );
    }
    // 2. A noisy with-replacement run against its rational replay from the tape.
    let s = dataset(noisy_points());
    let pts = q_points(&s.points.to_vecs());
    let gammas = [0.3, 0.2, 0.25];
    let (sigma, m) = (0.25, 3);
    for avg in [Averaging::Extrapolated, Averaging::Base] {
        let alg = Extragradient::new(
            3,
            StepSchedule::List(gammas.to_vec()),
            vec![0.25, -0.5],
            BatchRule::WithReplacement { m },
            sigma,
            avg,
        )?
        .with_operator_bound(10.0)?;
        let (out, tape) = recorded(&alg, &op, &s, 17)?;
        let draws = draws_from_tape(&tape, 0, "eg/", 6, alg.batch, 5, sigma, 2)?;
        let gq: Vec<Q> = gammas.iter().map(|&g| from_f64_exact(g).unwrap()).collect();
        let start = q_points(std::slice::from_ref(&alg.start)).remove(0);
        let r = rational_eg(&q, &pts, &start, &gq, &draws, Variant::Correct);
        let want = if avg == Averaging::Extrapolated {
            &r.avg_extrapolated
        } else {
            &r.avg_base
        };
        let dev = deviation(&out.z, want);
        main.observe_exact(dev <= REPLAY_TOL, None, format!("noisy replay, {avg:?}"));
        notes.push(format!(
            "noisy with-replacement run ({avg:?}, T = 3, m = 3, σ = 1/4): deviation {dev:.2e} ≤ {REPLAY_TOL:e}"
        ));
        let w = rational_eg(&q, &pts, &start, &gq, &draws, Variant::Wrong);
        let wz = if avg == Averaging::Extrapolated {
            &w.avg_extrapolated
        } else {
            &w.avg_base
        };
        ctrl.observe(
            deviation(&out.z, wz),
            REPLAY_TOL,
            format!("noisy, Ĝ₂ at u_(t−1), {avg:?}"),
        );
    }
    let mut ev = Evidence::from_checks(&main, Some(("second estimate at u_{t−1}", &ctrl)));
    for n in notes {
        ev = ev.note(n);
    }
    Ok(ev)
}

fn check_oe_exact_trace(_: Budget) -> Result<Evidence> {
    let (op, q) = rotation_box();
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let s = dataset(hand_points()[..2].to_vec());
    let pts = q_points(&s.points.to_vecs());
    let draws: Vec<EvalDraw> = (0..2)
        .map(|i| EvalDraw {
            idx: vec![i],
            noise: vec![],
        })
        .collect();
    for kappa in [1i64, 2] {
        let hand = hand_oe_trace(kappa);
        let reference = rational_oe(
            &q,
            &pts,
            &hand[0],
            &rat(1, 2),
            &rat(kappa, 1),
            &draws,
            Variant::Correct,
        );
        main.observe_exact(
            reference == hand,
            None,
            format!("reference = hand, κ = {kappa}"),
        );
        let alg = OperatorExtrapolation::new(
            0.5,
            kappa as f64,
            OeStop::Iterations(2),
            vec![0.5, 0.5],
            BatchRule::Disjoint { size: 1 },
            0.0,
        )?;
        let run = alg.run_traced(&op, &s, &mut NoiseSource::sample(0))?;
        let plain = alg.run(&op, &s, &mut NoiseSource::sample(0))?;
        let mut dev = deviation(&plain.z, &hand[2]);
        for (a, b) in run.trace.iterates.iter().zip(&hand) {
            dev = dev.max(deviation(a, b));
        }
        main.observe_exact(dev == 0.0, None, format!("hand trace κ = {kappa}"));
        notes.push(format!(
            "hand trace κ = {kappa}: max deviation {dev:e} (exact)"
        ));
        let wrong = rational_oe(
            &q,
            &pts,
            &hand[0],
            &rat(1, 2),
            &rat(kappa, 1),
            &draws,
            Variant::Wrong,
        );
        // κ = 1: the weight κ equals 1/κ, so the control is only meaningful at κ = 2.
        if kappa == 2 {
            ctrl.observe(
                deviation(&plain.z, &wrong[2]),
                REPLAY_TOL,
                "weight κ for 1/κ",
            );
        }
    }
    // Noisy with-replacement run, BG23's parameters γ = 1/(2(L + λ)), κ = λ/(L + λ) + 1 at
    // L = 1, λ = 1/2 (γ = 1/3, κ = 4/3: neither is dyadic, so roundings enter).
    let s = dataset(noisy_points());
    let pts = q_points(&s.points.to_vecs());
    let (gamma, kappa, sigma) = (1.0 / 3.0, 4.0 / 3.0, 0.25);
    let alg = OperatorExtrapolation::new(
        gamma,
        kappa,
        OeStop::Iterations(4),
        vec![0.25, -0.5],
        BatchRule::WithReplacement { m: 2 },
        sigma,
    )?
    .with_operator_bound(10.0)?;
    let (out, tape) = recorded(&alg, &op, &s, 23)?;
    let draws = draws_from_tape(&tape, 0, "oe/", 4, alg.batch, 5, sigma, 2)?;
    let start = q_points(std::slice::from_ref(&alg.start)).remove(0);
    let gq = from_f64_exact(gamma).unwrap();
    let kq = from_f64_exact(kappa).unwrap();
    let r = rational_oe(&q, &pts, &start, &gq, &kq, &draws, Variant::Correct);
    let dev = deviation(&out.z, &r[4]);
    main.observe_exact(dev <= REPLAY_TOL, None, "noisy replay");
    notes.push(format!(
        "noisy with-replacement OE (γ = 1/3, κ = 4/3, T = 4, m = 2, σ = 1/4): deviation {dev:.2e} ≤ {REPLAY_TOL:e}"
    ));
    let w = rational_oe(&q, &pts, &start, &gq, &kq, &draws, Variant::Wrong);
    ctrl.observe(deviation(&out.z, &w[4]), REPLAY_TOL, "noisy, weight κ");
    let mut ev = Evidence::from_checks(&main, Some(("extrapolation weight κ for 1/κ", &ctrl)));
    for n in notes {
        ev = ev.note(n);
    }
    Ok(ev)
}

/// Per-point tally of a tape's index draws (each occurrence counts), or per draw as a set
/// (`distinct`: the control's mistake).
fn tally(tape: &Tape, n: usize, distinct: bool) -> Vec<u64> {
    let mut c = vec![0u64; n];
    for d in &tape.draws {
        if let DrawValues::Index { values, .. } = &d.values {
            if !d.label.contains("batch/") {
                continue;
            }
            let mut seen = std::collections::BTreeSet::new();
            for &v in values {
                if !distinct || seen.insert(v) {
                    c[v as usize] += 1;
                }
            }
        }
    }
    c
}

fn check_counts_exact(_: Budget) -> Result<Evidence> {
    let (op, _) = rotation_box();
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    // n = 3, batches of 4 with replacement: every batch repeats a point (pigeonhole).
    let s = dataset(noisy_points()[..3].to_vec());
    let eg = Extragradient::new(
        5,
        StepSchedule::Constant(0.2),
        vec![0.0, 0.0],
        BatchRule::WithReplacement { m: 4 },
        0.1,
        Averaging::Extrapolated,
    )?
    .with_operator_bound(10.0)?;
    let oe = OperatorExtrapolation::new(
        0.2,
        1.0,
        OeStop::Iterations(7),
        vec![0.0, 0.0],
        BatchRule::WithReplacement { m: 4 },
        0.1,
    )?
    .with_operator_bound(10.0)?;
    let runs: Vec<(&str, ViOutput, Tape, u64)> = vec![
        {
            let (o, t) = recorded(&eg, &op, &s, 5)?;
            ("extragradient", o, t, 2 * 5 * 4)
        },
        {
            let (o, t) = recorded(&oe, &op, &s, 6)?;
            ("operator extrapolation", o, t, 7 * 4)
        },
    ];
    for (name, out, tape, want_total) in &runs {
        let t = tally(tape, 3, false);
        main.observe_exact(out.evals_per_point == t, None, format!("{name}: per point"));
        let sum: u64 = out.evals_per_point.iter().sum();
        main.observe_exact(
            sum == out.evals && out.evals == *want_total,
            None,
            format!("{name}: total"),
        );
        notes.push(format!(
            "{name}: counts {:?} (total {} = {want_total})",
            out.evals_per_point, out.evals
        ));
        let wrong = tally(tape, 3, true);
        ctrl.observe_exact(
            out.evals_per_point == wrong,
            None,
            format!("{name}: distinct"),
        );
    }
    // Disjoint single pass: the first 2TB points once each, the rest never.
    let s = dataset((0..9).map(|i| vec![i as f64 / 10.0, 0.0]).collect());
    let alg = Extragradient::new(
        2,
        StepSchedule::Constant(0.2),
        vec![0.0, 0.0],
        BatchRule::Disjoint { size: 2 },
        0.0,
        Averaging::Base,
    )?;
    let out = alg.run(&op, &s, &mut NoiseSource::sample(0))?;
    let want: Vec<u64> = (0..9).map(|i| u64::from(i < 8)).collect();
    main.observe_exact(out.evals_per_point == want, None, "disjoint single pass");
    notes.push(format!(
        "disjoint (T = 2, B = 2, n = 9): {:?}",
        out.evals_per_point
    ));
    let mut ev = Evidence::from_checks(&main, Some(("a repeated index counted once", &ctrl)));
    for n in notes {
        ev = ev.note(n);
    }
    Ok(ev)
}

fn check_coupled_replay(_: Budget) -> Result<Evidence> {
    let (op, q) = rotation_box();
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    let s = dataset(noisy_points());
    let gammas = [0.3, 0.2, 0.25, 0.1];
    for batch in [
        BatchRule::WithReplacement { m: 2 },
        BatchRule::Disjoint { size: 1 },
    ] {
        let eg = Extragradient::new(
            2,
            StepSchedule::List(gammas[..2].to_vec()),
            vec![0.25, -0.5],
            batch,
            0.5,
            Averaging::Extrapolated,
        )?
        .with_operator_bound(10.0)?;
        let (o1, t1) = recorded(&eg, &op, &s, 41)?;
        // Replace the point the run evaluates most often (so S′ changes the run).
        let j = (0..5).max_by_key(|&i| o1.evals_per_point[i]).unwrap_or(0);
        let s2 = s.replace_one(j, &[-0.8, 0.3])?;
        let pts2 = q_points(&s2.points.to_vecs());
        let (o2, t2) = recorded(&eg, &op, &s2, 41)?;
        main.observe_exact(
            t1 == t2,
            None,
            format!("EG {batch:?}: equal tapes on S, S′"),
        );
        main.observe_exact(
            o1.z != o2.z,
            None,
            format!("EG {batch:?}: S′ changes the output"),
        );
        let draws = draws_from_tape(&t1, 0, "eg/", 4, batch, 5, 0.5, 2)?;
        let gq: Vec<Q> = gammas[..2]
            .iter()
            .map(|&g| from_f64_exact(g).unwrap())
            .collect();
        let start = q_points(std::slice::from_ref(&eg.start)).remove(0);
        let r = rational_eg(&q, &pts2, &start, &gq, &draws, Variant::Correct);
        let dev = deviation(&o2.z, &r.avg_extrapolated);
        main.observe_exact(
            dev <= REPLAY_TOL,
            None,
            format!("EG {batch:?}: S′ = replay of S's tape"),
        );
        let replayed = eg.run(&op, &s, &mut NoiseSource::replay(t1.clone()))?;
        main.observe_exact(replayed == o1, None, format!("EG {batch:?}: tape replay"));
        notes.push(format!(
            "EG {batch:?}: tapes equal on S, S′; S′ vs rational replay {dev:.2e}; ‖A(S) − A(S′)‖∞ = {:.3e}",
            o1.z.iter()
                .zip(&o2.z)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max)
        ));
        // Control: another seed on S′ (uncoupled runs) must be told apart by the same test.
        let (_, t3) = recorded(&eg, &op, &s2, 42)?;
        ctrl.observe_exact(t1 == t3, None, format!("EG {batch:?}: seed 41 vs 42"));
    }
    let oe = OperatorExtrapolation::new(
        0.25,
        1.0,
        OeStop::Iterations(4),
        vec![0.25, -0.5],
        BatchRule::WithReplacement { m: 3 },
        0.5,
    )?
    .with_operator_bound(10.0)?;
    let (o1, t1) = recorded(&oe, &op, &s, 43)?;
    let j = (0..5).max_by_key(|&i| o1.evals_per_point[i]).unwrap_or(0);
    let s2 = s.replace_one(j, &[-0.8, 0.3])?;
    let pts2 = q_points(&s2.points.to_vecs());
    let (o2, t2) = recorded(&oe, &op, &s2, 43)?;
    main.observe_exact(t1 == t2, None, "OE: equal tapes on S, S′");
    main.observe_exact(o1.z != o2.z, None, "OE: S′ changes the output");
    let draws = draws_from_tape(&t1, 0, "oe/", 4, oe.batch, 5, 0.5, 2)?;
    let start = q_points(std::slice::from_ref(&oe.start)).remove(0);
    let r = rational_oe(
        &q,
        &pts2,
        &start,
        &rat(1, 4),
        &rat(1, 1),
        &draws,
        Variant::Correct,
    );
    main.observe_exact(
        deviation(&o2.z, &r[4]) <= REPLAY_TOL,
        None,
        "OE: S′ = replay of S's tape",
    );
    let replayed = oe.run(&op, &s, &mut NoiseSource::replay(t1.clone()))?;
    main.observe_exact(replayed == o1, None, "OE: tape replay");
    let (_, t3) = recorded(&oe, &op, &s2, 44)?;
    ctrl.observe_exact(t1 == t3, None, "OE: seed 43 vs 44");
    let mut ev = Evidence::from_checks(&main, Some(("uncoupled seeds", &ctrl)));
    for n in notes {
        ev = ev.note(n);
    }
    Ok(ev)
}
