//! Claims of the VI core's batch rules, stability over ordered datasets and per-block
//! regularizers (issue 14 items 4, 6, 7): sampling without replacement is exactly uniform over
//! ordered tuples, every rule's index frequencies pass a χ² test, the indices replay from tapes and
//! are coupled across neighbouring datasets, and the per-block uniform argument stability of an
//! order-dependent algorithm equals its hand-computed value (where the count-vector version is
//! wrong).

use std::collections::BTreeMap;

use super::{BoundCheck, Budget, Claim, Evidence, Kind};
use crate::algorithms::sgda::{BatchRule, Sgda};
use crate::algorithms::Algorithm;
use crate::error::Result;
use crate::gap::gap_function;
use crate::linalg;
use crate::problem::{
    objective_value, Dataset, Mixture, Objective, QuadBilinear, Regularizer, SaddleFn,
};
use crate::rng::{ordered_sample_into, DrawValues, NoiseSource, StepLabel, Stream, Tape};
use crate::solve::{saddle_point, SolveOptions};
use crate::stability::{uas_over_sequences, uas_over_support};

/// The claims of this module.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "core.batch_without_replacement_exact",
            paper: "BG23",
            item: "Thm 6 (batches uniform among the subsets of a given size)",
            statement: "Sampling without replacement (RANDOMNESS.md recipe step 9, Bentley–Floyd's \
                        ordered sample) maps the ∏(j+1) equally likely choice sequences onto the \
                        n!/(n−m)! ordered m-tuples of distinct indices, each equally often: exact \
                        enumeration for every 1 ≤ m ≤ n ≤ 7.",
            kind: Kind::Exact,
            code: "rng::ordered_sample_into, sampling::BatchRule::draw",
            check: check_without_replacement_exact,
        },
        Claim {
            id: "core.batch_frequencies",
            paper: "BG23",
            item: "§3 and Thm 6 (sampling with and without replacement)",
            statement: "The ordered index tuples drawn by the with- and without-replacement batch \
                        rules from their step streams pass a χ² goodness-of-fit test against the \
                        uniform law on ordered tuples at level 0.001 (fixed seeds, stated sample \
                        sizes).",
            kind: Kind::MonteCarlo,
            code: "sampling::BatchRule::draw, rng::NoiseSource::distinct_indices_at",
            check: check_frequencies,
        },
        Claim {
            id: "core.batch_replay",
            paper: "BG23",
            item: "§3 (the batch rules of NSEG), reproducibility",
            statement: "For every batch rule (full, disjoint, with and without replacement, \
                        contiguous), an SGDA run recorded on a tape replays bit for bit from the \
                        tape's JSON alone; random rules leave one entry per step (kinds index / \
                        distinct, m values), deterministic rules none; a tampered tape (a repeated \
                        index under `distinct`) is refused.",
            kind: Kind::Exact,
            code: "sampling::BatchRule::draw, algorithms::sgda::Sgda, rng::NoiseSource",
            check: check_replay,
        },
        Claim {
            id: "core.batch_coupled",
            paper: "BG23",
            item: "Prop 1 (coupled runs on neighbouring datasets)",
            statement: "Runs on S and on every replace-one neighbour S′ with one seed draw the same \
                        positions at every step (identical tapes), and where the replaced position is \
                        never drawn the outputs are bit-identical.",
            kind: Kind::Exact,
            code: "sampling::BatchRule::draw, algorithms::sgda::Sgda",
            check: check_coupled,
        },
        Claim {
            id: "core.uas_sequences",
            paper: "BG23",
            item: "Definition 1 and Prop 1 (δ_x-UAS and δ_y-UAS of an order-dependent algorithm)",
            statement: "Uniform argument stability over every ordered dataset in supportⁿ and every \
                        replace-one position, per block: for projected SGDA with disjoint batches of \
                        one point (order-dependent through the projection) it equals the \
                        hand-computed Δ_w = 0.24, Δ_θ = 0.32, Δ = 0.4; the count-vector \
                        (symmetric-algorithm) enumeration gives a smaller, wrong value there.",
            kind: Kind::Exact,
            code: "stability::uas_over_sequences",
            check: check_uas_sequences,
        },
        Claim {
            id: "core.reg_per_block",
            paper: "ZTOH22",
            item: "Algorithms 4 and 5 ((μ_k/2)‖x − x̃‖² − (μ/2)‖y‖²)",
            statement: "A regularizer with separate coefficients and anchors per block: the \
                        families' best responses are the per-block closed forms (LIN-box exactly, \
                        abs-separable against a grid), the gap dominates (μ/2)‖z − z*‖² with the \
                        joint modulus μ = min(μ_w, μ_θ) (not the max) at sampled points around the \
                        closed-form saddle point, the certified solver's distance bound covers it, \
                        and equal-coefficient terms serialize exactly as the former one-coefficient \
                        terms.",
            kind: Kind::Exact,
            code: "problem::saddle::{Regularizer, RegTerm}, problem::families, solve::saddle_point",
            check: check_reg_per_block,
        },
    ]
}

/// Plain Floyd (the subset is uniform, the order is not): the negative control's sampler.
fn floyd_unordered(n: usize, out: &mut [usize], mut index: impl FnMut(usize) -> usize) {
    let m = out.len();
    for (len, j) in (n - m..n).enumerate() {
        let t = index(j + 1);
        out[len] = if out[..len].contains(&t) { j } else { t };
    }
}

/// For a sampler driven by exact uniform choices: whether every ordered tuple of distinct
/// indices appears equally often over all choice sequences (and nothing else appears).
fn exactly_uniform(
    n: usize,
    m: usize,
    sampler: fn(usize, &mut [usize], &mut dyn FnMut(usize) -> usize),
) -> bool {
    let bounds: Vec<usize> = (n - m..n).map(|j| j + 1).collect();
    let total: usize = bounds.iter().product();
    let mut counts: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    for code in 0..total {
        let mut c = code;
        let mut out = vec![0usize; m];
        sampler(n, &mut out, &mut |b| {
            let t = c % b;
            c /= b;
            t
        });
        *counts.entry(out).or_insert(0) += 1;
    }
    let tuples: usize = (n - m + 1..=n).product();
    let distinct = counts.keys().all(|t| {
        let mut u = t.clone();
        u.sort_unstable();
        u.dedup();
        u.len() == m && u.iter().all(|&v| v < n)
    });
    distinct && counts.len() == tuples && counts.values().all(|&c| c * tuples == total)
}

fn check_without_replacement_exact(_b: Budget) -> Result<Evidence> {
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    for n in 1..=7usize {
        for m in 1..=n {
            main.observe_exact(
                exactly_uniform(n, m, |n, o, f| ordered_sample_into(n, o, f)),
                None,
                format!("n={n} m={m}"),
            );
            if m >= 2 {
                ctrl.observe_exact(
                    exactly_uniform(n, m, |n, o, f| floyd_unordered(n, o, f)),
                    None,
                    format!("plain Floyd n={n} m={m}"),
                );
            }
        }
    }
    Ok(Evidence::from_checks(
        &main,
        Some(("plain Floyd (uniform subsets, order not uniform)", &ctrl)),
    )
    .note("identity check (exact counts), no ratio: each ordered tuple appears ∏(j+1)·(n−m)!/n! times"))
}

/// χ²_{0.999} quantiles (upper 0.1% points) by degrees of freedom, from the regularized lower
/// incomplete gamma function (checked against standard tables: 15 → 37.697, 19 → 43.820,
/// 23 → 49.728).
fn chi2_999(df: usize) -> f64 {
    match df {
        15 => 37.697_298_218_354_9,
        19 => 43.820_195_964_513_69,
        23 => 49.728_232_466_428_1,
        _ => f64::NAN,
    }
}

/// The χ² statistic of `draw` over `draws` steps against the uniform law on `cells` ordered
/// tuples (cells keyed by the tuple in base n).
fn chi2(
    n: usize,
    m: usize,
    cells: usize,
    draws: u64,
    draw: &mut dyn FnMut(u64, &mut [usize]),
) -> f64 {
    let mut counts = vec![0u64; n.pow(m as u32)];
    let mut out = vec![0usize; m];
    for t in 1..=draws {
        draw(t, &mut out);
        let key = out.iter().fold(0usize, |k, &v| k * n + v);
        counts[key] += 1;
    }
    let e = draws as f64 / cells as f64;
    // Cells outside the support (a repeated index without replacement) count fully: their
    // expectation is 0, so they contribute (observed − 0)²/e with e the support cells' mean, a
    // conservative penalty that makes any impossible tuple fail the test.
    counts
        .iter()
        .enumerate()
        .map(|(key, &o)| {
            let mut digits = Vec::with_capacity(m);
            let mut k = key;
            for _ in 0..m {
                digits.push(k % n);
                k /= n;
            }
            digits.sort_unstable();
            digits.dedup();
            let in_support = cells == n.pow(m as u32) || digits.len() == m;
            let expect = if in_support { e } else { 0.0 };
            (o as f64 - expect).powi(2) / e
        })
        .sum()
}

fn check_frequencies(b: Budget) -> Result<Evidence> {
    let draws: u64 = if b == Budget::Full { 96_000 } else { 9_600 };
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut notes = Vec::new();
    // (rule, n, m, cells, seed)
    let cases = [
        (
            BatchRule::WithReplacement { m: 2 },
            4usize,
            2usize,
            16usize,
            11u64,
        ),
        (BatchRule::WithoutReplacement { m: 2 }, 5, 2, 20, 12),
        (BatchRule::WithoutReplacement { m: 3 }, 4, 3, 24, 13),
    ];
    for (rule, n, m, cells, seed) in cases {
        rule.validate(n, 1)?;
        let label = StepLabel::new("claims/batch/step=");
        let mut noise = NoiseSource::sample(seed);
        let mut err = None;
        let stat = chi2(n, m, cells, draws, &mut |t, out| {
            if let Err(e) = rule.draw(&mut noise, &label, t, n, out) {
                err.get_or_insert(e);
            }
        });
        if let Some(e) = err {
            return Err(e);
        }
        let crit = chi2_999(cells - 1);
        main.observe(stat, crit, format!("{rule:?} n={n}"));
        notes.push(format!("{rule:?} on n={n}: χ² = {stat:.2} vs χ²_0.999({}) = {crit:.3}, {draws} draws, seed {seed}", cells - 1));
        if matches!(rule, BatchRule::WithoutReplacement { .. }) {
            // The control: plain Floyd on the same step streams (uniform subsets, biased order).
            let st = chi2(n, m, cells, draws, &mut |t, out| {
                let mut s = Stream::with_stream_number(seed, label.stream_number(t));
                floyd_unordered(n, out, |b| s.index(b));
            });
            ctrl.observe(st, crit, format!("plain Floyd n={n} m={m}"));
            notes.push(format!("control (plain Floyd) n={n} m={m}: χ² = {st:.1}"));
        }
    }
    let mut ev = Evidence::from_checks(
        &main,
        Some(("plain Floyd: uniform subsets in a biased order", &ctrl)),
    );
    for s in notes {
        ev = ev.note(s);
    }
    Ok(ev.note("level 0.001 per test (three tests, fixed seeds: the outcome is deterministic)"))
}

/// The LIN-box loss f = a·w − b·θ (c = 0) on W = [−0.3, 0.3], Θ = [−0.4, 0.4] and five points.
fn lin_data() -> Result<(QuadBilinear, Dataset, Vec<Vec<f64>>)> {
    let f = QuadBilinear::lin_box(0.0)?;
    let support = crate::instances::unit_atoms();
    let s = Dataset::new(vec![
        support[0].clone(),
        support[2].clone(),
        support[1].clone(),
        support[0].clone(),
        support[2].clone(),
    ])?;
    Ok((f, s, support))
}

fn rules() -> [BatchRule; 5] {
    [
        BatchRule::Full,
        BatchRule::Disjoint { size: 1 },
        BatchRule::WithReplacement { m: 2 },
        BatchRule::WithoutReplacement { m: 2 },
        BatchRule::Contiguous { phases: 2 },
    ]
}

fn sgda(rule: BatchRule, steps: usize) -> Result<Sgda> {
    Sgda::new(0.2, steps, vec![0.0], vec![0.0], rule, 0.05)
}

/// Steps each rule runs on five points: the single-pass rules leave the last point unused
/// (disjoint batches of one for 4 steps, 2 contiguous phases of 2), the random ones draw 2 × 2
/// positions, so that some neighbours replace a point no step evaluates.
fn steps_of(rule: BatchRule) -> usize {
    match rule {
        BatchRule::Disjoint { .. } => 4,
        BatchRule::Contiguous { phases } => phases,
        _ => 2,
    }
}

fn bits(z: &[f64]) -> Vec<u64> {
    z.iter().map(|v| v.to_bits()).collect()
}

fn check_replay(_b: Budget) -> Result<Evidence> {
    let (f, s, _) = lin_data()?;
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    for rule in rules() {
        let steps = steps_of(rule);
        let alg = sgda(rule, steps)?;
        let mut rec = NoiseSource::recording(21);
        let out = alg.run(&f, &s, &mut rec)?;
        let tape = rec.into_tape().unwrap_or_default();
        let json = tape.to_json();
        let mut rep = NoiseSource::replay(Tape::from_json("tape", &json)?);
        let again = alg.run(&f, &s, &mut rep)?;
        let batch: Vec<_> = tape
            .draws
            .iter()
            .filter(|d| d.label.contains("/batch/"))
            .collect();
        let kinds_ok = match rule {
            BatchRule::WithReplacement { m } => batch.len() == steps
                && batch.iter().all(|d| matches!(&d.values, DrawValues::Index { n: 5, values } if values.len() == m)),
            BatchRule::WithoutReplacement { m } => batch.len() == steps
                && batch.iter().all(|d| matches!(&d.values, DrawValues::Distinct { n: 5, values } if values.len() == m)),
            _ => batch.is_empty(),
        };
        main.observe_exact(
            bits(&out.z()) == bits(&again.z()) && kinds_ok && rep.draws_made() == tape.len(),
            None,
            format!("{rule:?}"),
        );
        if let BatchRule::WithoutReplacement { .. } = rule {
            // Tamper: repeat the first index in the first batch entry.
            let mut bad = tape.clone();
            if let Some(d) = bad.draws.iter_mut().find(|d| d.label.contains("/batch/")) {
                if let DrawValues::Distinct { values, .. } = &mut d.values {
                    values[1] = values[0];
                }
            }
            let accepted = alg.run(&f, &s, &mut NoiseSource::replay(bad)).is_ok();
            ctrl.observe_exact(accepted, None, "tape with a repeated distinct index");
        }
    }
    Ok(Evidence::from_checks(
        &main,
        Some(("a distinct tape with a repeated index", &ctrl)),
    )
    .note("identity (bitwise replay), no ratio; five rules"))
}

fn check_coupled(_b: Budget) -> Result<Evidence> {
    let (f, s, support) = lin_data()?;
    let mut main = BoundCheck::new(0.0, 0.0);
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    let mut untouched = 0usize;
    for rule in rules() {
        let steps = steps_of(rule);
        let alg = sgda(rule, steps)?;
        for seed in [3u64, 4] {
            let mut rec = NoiseSource::recording(seed);
            let base = alg.run(&f, &s, &mut rec)?;
            let tape = rec.into_tape().unwrap_or_default();
            let drawn: Vec<usize> = drawn_positions(rule, &tape, steps, s.len())?;
            for i in 0..s.len() {
                for x in &support {
                    if *x == s.points[i] {
                        continue;
                    }
                    let s2 = s.replace_one(i, x)?;
                    let mut rec2 = NoiseSource::recording(seed);
                    let other = alg.run(&f, &s2, &mut rec2)?;
                    let tape2 = rec2.into_tape().unwrap_or_default();
                    let same_out = !drawn.contains(&i) && bits(&base.z()) == bits(&other.z());
                    let ok = tape == tape2 && (drawn.contains(&i) || same_out);
                    untouched += usize::from(same_out);
                    main.observe_exact(ok, None, format!("{rule:?} seed {seed} i={i}"));
                    // Control: the neighbour run with another seed is not coupled.
                    let mut rec3 = NoiseSource::recording(seed + 100);
                    alg.run(&f, &s2, &mut rec3)?;
                    if rule.is_random() {
                        ctrl.observe_exact(
                            rec3.into_tape().unwrap_or_default() == tape,
                            None,
                            format!("uncoupled {rule:?} i={i}"),
                        );
                    }
                }
            }
        }
    }
    main.observe_exact(
        untouched > 0,
        None,
        format!("{untouched} neighbours replace a point no step evaluates"),
    );
    Ok(Evidence::from_checks(&main, Some(("neighbour run with another seed", &ctrl)))
        .note(format!("identity (tapes equal), no ratio; {untouched} pairs whose replaced position was never drawn gave bit-identical outputs")))
}

/// The data positions a run evaluated, from its tape (random rules) or its rule.
fn drawn_positions(rule: BatchRule, tape: &Tape, steps: usize, n: usize) -> Result<Vec<usize>> {
    let mut v = Vec::new();
    match rule {
        BatchRule::WithReplacement { .. } | BatchRule::WithoutReplacement { .. } => {
            for d in tape.draws.iter().filter(|d| d.label.contains("/batch/")) {
                match &d.values {
                    DrawValues::Index { values, .. } | DrawValues::Distinct { values, .. } => {
                        v.extend(values.iter().map(|&i| i as usize))
                    }
                    _ => {}
                }
            }
        }
        _ => {
            let mut idx = vec![0usize; rule.batch_len(n)];
            let label = StepLabel::new("unused");
            let mut noise = NoiseSource::sample(0);
            for t in 1..=steps as u64 {
                rule.draw(&mut noise, &label, t, n, &mut idx)?;
                v.extend_from_slice(&idx);
            }
        }
    }
    Ok(v)
}

/// The order-dependent instance of `core.uas_sequences`: W = [−0.3, 0.3], Θ = [−0.4, 0.4],
/// f = a·w − b·θ, support {(0.6, 0.8), (−0.6, −0.8)}, n = T = 4, η = 0.3, disjoint batches of one
/// point, σ = 0.
///
/// Hand computation (the worst pair). The θ-block is the w-block scaled by 4/3 (atoms and box),
/// so Δ_θ = (4/3)Δ_w and Δ = (5/3)Δ_w whenever both maxima sit at the same pair. In the w-block,
/// S = (x₊, x₊, x₋, x₊) gives w_0..w_3 = 0, −0.18, −0.3 (−0.36 projected), −0.12, mean −0.15;
/// S′ = (x₋, x₊, x₋, x₊) gives 0, 0.18, 0, 0.18, mean 0.09: |Δw| = 0.24. The projection at
/// step 2 is what makes the position matter. No pair does better (the independent enumeration
/// in proofs-notes/vi-core.md finds the same maximum). In canonical (sorted) order the count-vector
/// enumeration never meets this pair and finds 0.195 for the w-block.
const UAS_DW: f64 = 0.24;

fn check_uas_sequences(_b: Budget) -> Result<Evidence> {
    let f = QuadBilinear::lin_box(0.0)?;
    let support = vec![vec![0.6, 0.8], vec![-0.6, -0.8]];
    let alg = Sgda::new(
        0.3,
        4,
        vec![0.0],
        vec![0.0],
        BatchRule::Disjoint { size: 1 },
        0.0,
    )?;
    let want = [UAS_DW, UAS_DW * 4.0 / 3.0, UAS_DW * 5.0 / 3.0];
    let rep = uas_over_sequences(&alg, &f, &support, 4, &[1, 2, 3])?;
    let got = [rep.delta_w, rep.delta_theta, rep.delta];
    let mut main = BoundCheck::new(0.0, 0.0);
    for (name, (g, w)) in ["Δ_w", "Δ_θ", "Δ"].iter().zip(got.iter().zip(want)) {
        main.observe_exact(
            (g - w).abs() <= 1e-12,
            Some(g / w),
            format!("{name}: {g} vs hand {w}"),
        );
    }
    // The count-vector version (exact only for symmetric algorithms) on the same instance: its
    // joint Δ, compared with the same hand value.
    let sym = uas_over_support(&alg, &f, &support, 4, &[1])?;
    let mut ctrl = BoundCheck::new(0.0, 0.0);
    ctrl.observe_exact(
        (sym.delta - want[2]).abs() <= 1e-12,
        Some(sym.delta / want[2]),
        "count-vector Δ",
    );
    let mut ev = Evidence::from_checks(&main, Some(("count-vector (symmetric) enumeration", &ctrl)))
        .note(format!(
            "sequences: Δ_w = {}, Δ_θ = {}, Δ = {} over {} pairs × 3 seeds (worst Δ_w at {:?}); count vectors: Δ = {} over {} moves",
            rep.delta_w, rep.delta_theta, rep.delta, rep.pairs, rep.worst_w, sym.delta, sym.pairs
        ));
    ev.tight_ratio = Some(rep.delta_w / UAS_DW);
    // The plot: measured/hand for each block (1 = Δ_w, 2 = Δ_θ, 3 = the joint Δ).
    let plot = got
        .iter()
        .zip(want)
        .enumerate()
        .map(|(k, (g, w))| ((k + 1) as f64, g / w))
        .collect();
    ev = ev.with_series(crate::claims::Series::ratio(
        "BG23 Def 1, projected SGDA (n = T = 4, η = 0.3, disjoint batches of 1): UAS over every ordered dataset / the hand value, per block",
        "block (1 = Δ_w, 2 = Δ_θ, 3 = joint Δ)",
        "measured Δ / hand value",
        plot,
        false,
    ));
    Ok(ev.note("measured/hand is an equality check (tolerance 1e-12), reported as the ratio"))
}

/// The per-block instance: LIN-box with coupling c = 1/2 at the single point x = (a, b) =
/// (0.2, −0.1), with (μ_w/2)‖w − p‖² − (μ_θ/2)‖θ − q‖², μ_w = 1, μ_θ = 4, p = 0.1, q = −0.05.
/// F = a·w − b·θ + c·wθ + c_w(w − p)² − c_θ(θ − q)², c_w = 1/2, c_θ = 2.
const PB: (f64, f64, f64, f64, f64, f64, f64) = (0.2, -0.1, 0.5, 0.5, 2.0, 0.1, -0.05);

fn check_reg_per_block(_b: Budget) -> Result<Evidence> {
    let (a, bb, c, cw, ct, p, q) = PB;
    let f = QuadBilinear::lin_box(c)?;
    let reg = Regularizer::per_block(2.0 * cw, &[p], 2.0 * ct, &[q]);
    let obj = Objective {
        data: Mixture::single(&[a, bb]),
        reg: reg.clone(),
    };
    let mut exact = BoundCheck::new(0.0, 0.0);
    // (1) LIN-box best responses against the per-block closed forms.
    let clamp = |v: f64, r: f64| v.clamp(-r, r);
    for k in 0..=16 {
        let t = -0.4 + 0.05 * k as f64;
        let want = clamp(p - (a + c * t) / (2.0 * cw), 0.3);
        let got = f.best_w(&[(1.0, vec![t])], &obj)?[0];
        exact.observe_exact(
            (got - want).abs() <= 1e-15,
            None,
            format!("LIN-box w_br(θ={t})"),
        );
        let w = -0.3 + 0.0375 * k as f64;
        let want = clamp(q + (-bb + c * w) / (2.0 * ct), 0.4);
        let got = f.best_theta(&[(1.0, vec![w])], &obj)?[0];
        exact.observe_exact(
            (got - want).abs() <= 1e-15,
            None,
            format!("LIN-box θ_br(w={w})"),
        );
    }
    // (2) Abs-separable best responses: coordinate-wise minimality against a grid of 4001
    // points per coordinate (the objective is separable and convex in each block).
    let inst = crate::instances::abs_sep(0.8);
    let g = inst.f.as_ref();
    let areg = Regularizer::per_block(0.6, &[0.2, -0.1], 3.0, &[-0.1, 0.3]);
    let aobj = Objective::population(&inst.dist).with_reg(areg);
    let mut s = Stream::new(5, "claims/reg_per_block");
    for j in 0..6 {
        let w = crate::instances::sample_point(g.domain_w(), &mut s);
        let t = crate::instances::sample_point(g.domain_theta(), &mut s);
        let wb = g.best_w(&[(1.0, t.clone())], &aobj)?;
        let tb = g.best_theta(&[(1.0, w.clone())], &aobj)?;
        let (vw, vt) = (
            objective_value(g, &aobj, &wb, &t),
            objective_value(g, &aobj, &w, &tb),
        );
        let mut ok = true;
        for i in 0..2 {
            for k in 0..=4000 {
                let mut w2 = wb.clone();
                w2[i] = -1.0 + 2.0 * k as f64 / 4000.0;
                if g.domain_w().contains(&w2, 0.0) {
                    ok &= objective_value(g, &aobj, &w2, &t) >= vw - 1e-12;
                }
                let mut t2 = tb.clone();
                t2[i] = -1.0 + 2.0 * k as f64 / 4000.0;
                if g.domain_theta().contains(&t2, 0.0) {
                    ok &= objective_value(g, &aobj, &w, &t2) <= vt + 1e-12;
                }
            }
        }
        exact.observe_exact(ok, None, format!("abs-separable best responses, point {j}"));
    }
    // (3) Lemma 3's premise with the joint modulus: Ĝap(z) ≥ (μ/2)‖z − z*‖² at points around the
    // closed-form saddle point, μ = min(μ_w, μ_θ) = 1; the control uses max(μ_w, μ_θ) = 4.
    let th = (-bb + c * p - c * a / (2.0 * cw) + 2.0 * ct * q) / (2.0 * ct + c * c / (2.0 * cw));
    let wstar = p - (a + c * th) / (2.0 * cw);
    let zstar = [wstar, th];
    let mu = reg.modulus();
    exact.observe_exact(
        mu == 1.0 && reg.modulus_w() == 1.0 && reg.modulus_theta() == 4.0,
        None,
        "moduli (μ_w, μ_θ, μ) = (1, 4, 1)",
    );
    let mut lemma3 = BoundCheck::new(1e-12, 1e-15);
    let mut ctrl = BoundCheck::new(1e-12, 1e-15);
    for k in 0..24 {
        let ang = k as f64 * std::f64::consts::TAU / 24.0;
        let r = 0.1;
        let z = [wstar + r * ang.cos(), th + 0.3 * r * ang.sin()];
        let gap = gap_function(&f, &obj, &[z[0]], &[z[1]])?.gap;
        let d2 = (z[0] - zstar[0]).powi(2) + (z[1] - zstar[1]).powi(2);
        lemma3.observe(0.5 * mu * d2, gap, format!("angle {k}"));
        ctrl.observe(
            0.5 * reg.modulus_w().max(reg.modulus_theta()) * d2,
            gap,
            format!("angle {k}"),
        );
    }
    // (4) The certified solver: its modulus is the joint one and its distance bound covers z*.
    let cert = saddle_point(&f, &obj, &SolveOptions::default())?;
    let dist = linalg::norm2(&linalg::sub(&linalg::concat(&cert.w, &cert.theta), &zstar));
    let bound = cert.dist_bound.unwrap_or(0.0);
    exact.observe_exact(
        cert.modulus == mu && dist <= bound + 1e-15,
        None,
        format!("solver: ‖z̄ − z*‖ = {dist:e} ≤ bound {bound:e}"),
    );
    // (5) Serde: an equal-coefficient term writes exactly the former form; per-block terms round
    // trip; `c` with `c_w` is refused.
    let old = r#"{"terms":[{"c":0.25,"anchor_w":[0.1],"anchor_theta":[-0.1]}]}"#;
    let parsed: Regularizer = serde_json::from_str(old)
        .map_err(|e| crate::error::invalid("regularizer", e.to_string()))?;
    let again = serde_json::to_string(&parsed).unwrap_or_default();
    let pb = serde_json::to_string(&reg).unwrap_or_default();
    let back: std::result::Result<Regularizer, _> = serde_json::from_str(&pb);
    let bad: std::result::Result<Regularizer, _> = serde_json::from_str(
        r#"{"terms":[{"c":1.0,"c_w":1.0,"anchor_w":[0.0],"anchor_theta":[0.0]}]}"#,
    );
    exact.observe_exact(
        again == old
            && parsed == Regularizer::bgm23_eq4(0.5, &[0.1], &[-0.1])
            && back.ok().as_ref() == Some(&reg)
            && pb.contains(r#""c_w":0.5,"c_theta":2.0"#)
            && bad.is_err(),
        None,
        "serde",
    );
    let pass = exact.pass() && lemma3.pass();
    let mut ev = Evidence::from_checks(&lemma3, Some(("modulus max(μ_w, μ_θ) in Lemma 3", &ctrl)));
    ev.pass = pass;
    ev.instances = exact.instances + lemma3.instances;
    Ok(ev.note(format!(
        "exact comparisons: {} ({} violations{}); worst ratio is (μ/2)‖z − z*‖²/Ĝap(z) with μ = min(μ_w, μ_θ) at 24 points on an ellipse around z* = ({wstar}, {th})",
        exact.instances,
        exact.violations,
        exact.first_violation.as_ref().map(|v| format!(": {v}")).unwrap_or_default()
    )))
}
