//! VI gaps of a monotone operator over an algorithm's weighted outputs (BG23 eqs. (1.1)–(1.2);
//! the expectation-inside weak gap of BGM23 eq. (3) and ZTOH22 in its VI form).
//!
//! All take the operator as `&dyn MonotoneOp` and the data distribution as a [`Mixture`]: the
//! population operator F = Σ_j p_j G(·; x_j) (finite support), or F_S (the empirical mixture).
//! The integrand is the gap function gap_F(z) = sup_{u∈Z} ⟨F(u), z − u⟩
//! ([`MonotoneOp::vi_gap`]), closed form where the operator's symmetric part allows it and
//! `Unsupported` otherwise (never a guess).
//!
//! * [`strong_vi_gap`]: E_{A,S}[gap_F(A(S))] (BG23 eq. (1.1)).
//! * [`empirical_vi_gap`]: gap_{F_S}(z), the gap of the empirical operator (BG23's EmpGap_VI, as in
//!   Prop 12's proof); [`expected_empirical_vi_gap`] its expectation over runs.
//! * Two weak gaps, which differ in where the algorithm's randomness sits:
//!   - [`weak_vi_gap_expectation_inside`]: sup_u E_{A,S}⟨F(u), A(S) − u⟩ = gap_F(E_{A,S}[A(S)])
//!     (everything inside the sup: BGM23 eq. (3), ZTOH22's weak gap);
//!   - [`weak_vi_gap_bg23`]: E_A sup_u E_S⟨F(u), A(S) − u⟩ = Σ_r ρ_r gap_F(E_S[A_r(S)]) (BG23
//!     eq. (1.2): the algorithm's randomness outside, as a finite set of seeds r with weights
//!     ρ_r; the data expectation inside).
//!
//!   Because gap_F is convex (a sup of affine functions of z), Jensen gives
//!   strong ≥ BG23 weak ≥ expectation-inside weak, with equality in the second when gap_F is
//!   affine on the outputs' hull, e.g. for constant operators (gap_F(z) = ⟨F, z⟩ + σ_Z(−F)).
//! * [`weak_vi_gap_mc`]: a Monte Carlo estimate of the expectation-inside weak gap from i.i.d.
//!   outputs with a rigorous two-sided confidence interval (construction in its doc).
//! * [`weak_vi_gap_bg23_mc`]: the same for BG23's weak gap (seeds outside), from R i.i.d. seeds
//!   each with N_j i.i.d. outputs (Hoeffding over seeds, McDiarmid within each seed).
//! * [`crate::problem::monotone::nu_certificate`]: BG23 eq. (5.1)'s ν-certificate.
//!
//! Derivations: proofs-notes/vi-core.md, "Operators and VI gaps".

use crate::error::{invalid, Result};
use crate::linalg;
use crate::problem::monotone::MonotoneOp;
use crate::problem::saddle::Mixture;
use serde::{Deserialize, Serialize};

/// One output z of an algorithm with its probability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViOutput {
    /// Its probability (the weights of a list sum to 1).
    pub weight: f64,
    /// The output point.
    pub z: Vec<f64>,
}

/// The outputs of an algorithm for one seed r (its distribution over datasets S), with the
/// seed's probability ρ_r: BG23 eq. (1.2)'s algorithm randomness as a finite seed set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeedOutputs {
    /// ρ_r (the seeds' weights sum to 1).
    pub weight: f64,
    /// The outputs A_r(S) with the probabilities of S (summing to 1).
    pub outputs: Vec<ViOutput>,
}

fn check_outputs(field: &str, outputs: &[ViOutput], dim: usize) -> Result<()> {
    if outputs.is_empty() {
        return Err(invalid(field, "needs at least one output"));
    }
    let total: f64 = outputs.iter().map(|o| o.weight).sum();
    if outputs.iter().any(|o| o.weight.is_nan() || o.weight < 0.0) || (total - 1.0).abs() > 1e-9 {
        return Err(invalid(
            format!("{field}.weight"),
            format!("must be ≥ 0 and sum to 1 (sum {total})"),
        ));
    }
    for (i, o) in outputs.iter().enumerate() {
        if o.z.len() != dim {
            return Err(invalid(
                format!("{field}[{i}].z"),
                format!("has length {}, expected {dim}", o.z.len()),
            ));
        }
        crate::error::require_finite(&format!("{field}[{i}].z"), &o.z)?;
    }
    Ok(())
}

/// Σ_k ρ_k z_k in output order.
pub fn mean_output(outputs: &[ViOutput]) -> Vec<f64> {
    let d = outputs.first().map_or(0, |o| o.z.len());
    let mut m = vec![0.0; d];
    for o in outputs {
        linalg::axpy(o.weight, &o.z, &mut m);
    }
    m
}

/// The joint output distribution of seeded outputs: weight ρ_r·P(S) per output, seeds in order.
pub fn flatten_seeds(seeds: &[SeedOutputs]) -> Vec<ViOutput> {
    seeds
        .iter()
        .flat_map(|s| {
            s.outputs.iter().map(move |o| ViOutput {
                weight: s.weight * o.weight,
                z: o.z.clone(),
            })
        })
        .collect()
}

/// gap_F(z) = sup_{u∈Z} ⟨F(u), z − u⟩ for the mean operator of `data` (closed form or
/// `Unsupported`).
pub fn vi_gap(op: &dyn MonotoneOp, data: &Mixture, z: &[f64]) -> Result<f64> {
    op.vi_gap(data, z)
}

/// BG23 eq. (1.1): E over the outputs of gap_F(z), summed in output order.
pub fn strong_vi_gap(op: &dyn MonotoneOp, data: &Mixture, outputs: &[ViOutput]) -> Result<f64> {
    check_outputs("outputs", outputs, op.dim())?;
    let mut s = 0.0;
    for o in outputs {
        s += o.weight * op.vi_gap(data, &o.z)?;
    }
    Ok(s)
}

/// The empirical VI gap gap_{F_S}(z) = sup_{u∈Z} ⟨F_S(u), z − u⟩ of the sample `sample` (its
/// points with weights 1/n: [`Mixture::empirical`]) at z.
pub fn empirical_vi_gap(op: &dyn MonotoneOp, sample: &Mixture, z: &[f64]) -> Result<f64> {
    op.vi_gap(sample, z)
}

/// E over runs of gap_{F_S}(A(S)): each run is (probability, the sample's mixture, the output).
pub fn expected_empirical_vi_gap(
    op: &dyn MonotoneOp,
    runs: &[(f64, Mixture, Vec<f64>)],
) -> Result<f64> {
    if runs.is_empty() {
        return Err(invalid("runs", "needs at least one run"));
    }
    let total: f64 = runs.iter().map(|r| r.0).sum();
    if runs.iter().any(|r| r.0.is_nan() || r.0 < 0.0) || (total - 1.0).abs() > 1e-9 {
        return Err(invalid(
            "runs.weight",
            format!("must be ≥ 0 and sum to 1 (sum {total})"),
        ));
    }
    let mut s = 0.0;
    for (w, data, z) in runs {
        s += w * op.vi_gap(data, z)?;
    }
    Ok(s)
}

/// The weak VI gap with every expectation inside the sup (BGM23 eq. (3)'s convention, ZTOH22):
/// sup_u E⟨F(u), A − u⟩ = gap_F(E\[A\]) over the joint output distribution.
pub fn weak_vi_gap_expectation_inside(
    op: &dyn MonotoneOp,
    data: &Mixture,
    outputs: &[ViOutput],
) -> Result<f64> {
    check_outputs("outputs", outputs, op.dim())?;
    op.vi_gap(data, &mean_output(outputs))
}

/// BG23 eq. (1.2)'s weak VI gap, E_A sup_u E_S⟨F(u), A(S) − u⟩ with the algorithm's randomness
/// a finite seed set: Σ_r ρ_r gap_F(E_S[A_r(S)]) (F(u) does not depend on S, so E_S moves onto
/// the output). ≥ [`weak_vi_gap_expectation_inside`] of [`flatten_seeds`] (Jensen), equal for
/// constant operators.
pub fn weak_vi_gap_bg23(op: &dyn MonotoneOp, data: &Mixture, seeds: &[SeedOutputs]) -> Result<f64> {
    if seeds.is_empty() {
        return Err(invalid("seeds", "needs at least one seed"));
    }
    let total: f64 = seeds.iter().map(|s| s.weight).sum();
    if seeds.iter().any(|s| s.weight.is_nan() || s.weight < 0.0) || (total - 1.0).abs() > 1e-9 {
        return Err(invalid(
            "seeds.weight",
            format!("must be ≥ 0 and sum to 1 (sum {total})"),
        ));
    }
    let mut g = 0.0;
    for (r, s) in seeds.iter().enumerate() {
        check_outputs(&format!("seeds[{r}].outputs"), &s.outputs, op.dim())?;
        g += s.weight * op.vi_gap(data, &mean_output(&s.outputs))?;
    }
    Ok(g)
}

/// A Monte Carlo estimate with a two-sided confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct McInterval {
    /// The point estimate.
    pub estimate: f64,
    /// estimate − radius.
    pub lo: f64,
    /// estimate + radius.
    pub hi: f64,
    /// The half-width.
    pub radius: f64,
    /// Samples used.
    pub samples: usize,
    /// The interval misses the true value with probability at most δ.
    pub delta: f64,
}

/// Monte Carlo estimate of the expectation-inside weak VI gap gap_F(E\[A\]) from N i.i.d. outputs
/// z_1, …, z_N of the algorithm (over S and its randomness): the estimate gap_F(ẑ), ẑ = mean.
///
/// Interval (holds with probability ≥ 1 − δ for any output distribution supported in a set of
/// diameter `output_diameter` = D, e.g. D = diam Z for projected outputs):
/// * gap_F is M_F-Lipschitz on ℝᵈ with M_F = sup_{u∈Z}‖F(u)‖ (a sup of affine functions of z
///   with slopes F(u)); M_F ≤ the operator's bound M over the data's support
///   ([`MonotoneOp::constants`], so `Unsupported` where those are not exact);
/// * ‖ẑ − E z‖ has bounded differences D/N, so McDiarmid gives
///   P(‖ẑ − Ez‖ ≥ E‖ẑ − Ez‖ + D√(ln(1/δ)/(2N))) ≤ δ, and E‖ẑ − Ez‖ ≤ √(E‖z − Ez‖²/N) ≤ D/√(2N)
///   (E‖z − Ez‖² = ½E‖z − z′‖² ≤ D²/2);
/// * hence |gap_F(ẑ) − gap_F(Ez)| ≤ M_F·D(1 + √ln(1/δ))/√(2N) with probability ≥ 1 − δ.
///
/// Checked: every sample lies within D of the first (a necessary condition of the diameter).
pub fn weak_vi_gap_mc(
    op: &dyn MonotoneOp,
    data: &Mixture,
    samples: &[Vec<f64>],
    output_diameter: f64,
    delta: f64,
) -> Result<McInterval> {
    if samples.is_empty() {
        return Err(invalid("samples", "needs at least one sample"));
    }
    if !(delta > 0.0 && delta < 1.0) {
        return Err(invalid("delta", format!("must be in (0, 1), got {delta}")));
    }
    if !(output_diameter.is_finite() && output_diameter >= 0.0) {
        return Err(invalid(
            "output_diameter",
            format!("must be finite and ≥ 0, got {output_diameter}"),
        ));
    }
    let d = op.dim();
    for (i, z) in samples.iter().enumerate() {
        if z.len() != d {
            return Err(invalid(
                format!("samples[{i}]"),
                format!("has length {}, expected {d}", z.len()),
            ));
        }
        crate::error::require_finite(&format!("samples[{i}]"), z)?;
        let dist = linalg::norm2(&linalg::sub(z, &samples[0]));
        if dist > output_diameter * (1.0 + 1e-12) {
            return Err(invalid(
                format!("samples[{i}]"),
                format!("is {dist} from samples[0], more than output_diameter = {output_diameter}"),
            ));
        }
    }
    let support: Vec<Vec<f64>> = data.points.iter().map(<[f64]>::to_vec).collect();
    let m = op.constants(&support)?.bound;
    let n = samples.len() as f64;
    let mut zbar = vec![0.0; d];
    for z in samples {
        linalg::axpy(1.0 / n, z, &mut zbar);
    }
    let estimate = op.vi_gap(data, &zbar)?;
    let radius = m * output_diameter * (1.0 + (1.0 / delta).ln().sqrt()) / (2.0 * n).sqrt();
    Ok(McInterval {
        estimate,
        lo: estimate - radius,
        hi: estimate + radius,
        radius,
        samples: samples.len(),
        delta,
    })
}

/// Monte Carlo estimate of BG23 eq. (1.2)'s weak VI gap θ = E_r[gap_F(m_r)], m_r = E_S[A_r(S)]
/// (the algorithm's randomness r outside the sup, the data inside): `seeds[j]` holds the N_j
/// outputs A_{r_j}(S_{j,1}), …, A_{r_j}(S_{j,N_j}) of one seed r_j, with r_1, …, r_R i.i.d. from
/// the algorithm's seed law and, given r_j, the datasets S_{j,l} i.i.d. The estimate is
/// (1/R) Σ_j gap_F(ẑ_j), ẑ_j the mean of seed j's outputs.
///
/// Interval (probability ≥ 1 − δ of covering θ, for outputs in a set of diameter D =
/// `output_diameter`; derivation in proofs-notes/vi-core.md, "Monte Carlo weak gaps"): with
/// M ≥ sup_{u∈Z}‖F(u)‖ the operator's bound over the data's support, gap_F is M-Lipschitz and
/// its values on the outputs' hull lie in an interval of length ≤ M·D, so
/// * over seeds (Hoeffding on the i.i.d. gap_F(m_{r_j})): |(1/R)Σ_j gap_F(m_{r_j}) − θ| ≤
///   M·D·√(ln(4/δ)/(2R)) with probability ≥ 1 − δ/2;
/// * within seed j (McDiarmid as in [`weak_vi_gap_mc`], at level δ/(2R), union over the R
///   seeds): |gap_F(ẑ_j) − gap_F(m_{r_j})| ≤ M·D(1 + √ln(2R/δ))/√(2N_j) for every j with
///   probability ≥ 1 − δ/2;
///
/// radius = M·D·[√(ln(4/δ)/(2R)) + (1/R) Σ_j (1 + √ln(2R/δ))/√(2N_j)].
///
/// Checked: every output lies within D of the first one (a necessary condition of the diameter).
pub fn weak_vi_gap_bg23_mc(
    op: &dyn MonotoneOp,
    data: &Mixture,
    seeds: &[Vec<Vec<f64>>],
    output_diameter: f64,
    delta: f64,
) -> Result<McInterval> {
    if seeds.is_empty() {
        return Err(invalid("seeds", "needs at least one seed"));
    }
    if !(delta > 0.0 && delta < 1.0) {
        return Err(invalid("delta", format!("must be in (0, 1), got {delta}")));
    }
    if !(output_diameter.is_finite() && output_diameter >= 0.0) {
        return Err(invalid(
            "output_diameter",
            format!("must be finite and ≥ 0, got {output_diameter}"),
        ));
    }
    let d = op.dim();
    let first = seeds[0]
        .first()
        .ok_or_else(|| invalid("seeds[0]", "needs at least one output"))?;
    for (j, outs) in seeds.iter().enumerate() {
        if outs.is_empty() {
            return Err(invalid(format!("seeds[{j}]"), "needs at least one output"));
        }
        for (i, z) in outs.iter().enumerate() {
            let field = format!("seeds[{j}][{i}]");
            if z.len() != d {
                return Err(invalid(
                    &field,
                    format!("has length {}, expected {d}", z.len()),
                ));
            }
            crate::error::require_finite(&field, z)?;
            let dist = linalg::norm2(&linalg::sub(z, first));
            if dist > output_diameter * (1.0 + 1e-12) {
                return Err(invalid(
                    &field,
                    format!(
                        "is {dist} from seeds[0][0], more than output_diameter = {output_diameter}"
                    ),
                ));
            }
        }
    }
    let support: Vec<Vec<f64>> = data.points.iter().map(<[f64]>::to_vec).collect();
    let m = op.constants(&support)?.bound;
    let r = seeds.len() as f64;
    let mut estimate = 0.0;
    let mut within = 0.0;
    let mut zbar = vec![0.0; d];
    for outs in seeds {
        let n = outs.len() as f64;
        zbar.iter_mut().for_each(|v| *v = 0.0);
        for z in outs {
            linalg::axpy(1.0 / n, z, &mut zbar);
        }
        estimate += op.vi_gap(data, &zbar)? / r;
        within += 1.0 / (2.0 * n).sqrt();
    }
    let across = ((4.0 / delta).ln() / (2.0 * r)).sqrt();
    let within = (1.0 + (2.0 * r / delta).ln().sqrt()) * within / r;
    let radius = m * output_diameter * (across + within);
    Ok(McInterval {
        estimate,
        lo: estimate - radius,
        hi: estimate + radius,
        radius,
        samples: seeds.iter().map(Vec::len).sum(),
        delta,
    })
}
