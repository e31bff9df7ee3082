//! BG23 §7: the lower-bound rates of Prop 11, Prop 12 and Thm 8 (Ω-expressions with the hidden
//! constant set to 1), Prop 12's instance and its closed-form empirical VI gap, and Lemma 4's
//! privacy parameters. Walk-through in `proofs-notes/bg23.md`, Part 5 (errata E-BG23-64 …
//! E-BG23-67).

use crate::error::{invalid, Result};
use crate::linalg;

fn pos(field: &str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(invalid(field, format!("must be finite and > 0, got {v}")))
    }
}

/// Prop 11's rate MD(1/√n + min{1, √d/(εn)}) for DP-SSP (constant 1).
pub fn prop11_rate(m: f64, diam: f64, n: usize, d: usize, eps: f64) -> Result<f64> {
    pos("m", m)?;
    pos("diam", diam)?;
    pos("eps", eps)?;
    if n == 0 || d == 0 {
        return Err(invalid("n", "n and d must be ≥ 1"));
    }
    let n = n as f64;
    Ok(m * diam * (1.0 / n.sqrt() + (d as f64).sqrt().min(eps * n) / (eps * n)))
}

/// Prop 12's rate MD·min{1, √(d ln(1/η))/(εn)} for DP empirical VI with constant operators.
pub fn prop12_rate(m: f64, diam: f64, n: usize, d: usize, eps: f64, eta: f64) -> Result<f64> {
    pos("m", m)?;
    pos("diam", diam)?;
    pos("eps", eps)?;
    if !(eta > 0.0 && eta < 1.0) {
        return Err(invalid("eta", format!("must be in (0, 1), got {eta}")));
    }
    if n == 0 || d == 0 {
        return Err(invalid("n", "n and d must be ≥ 1"));
    }
    let x = (d as f64 * (1.0 / eta).ln()).sqrt() / (eps * n as f64);
    Ok(m * diam * x.min(1.0))
}

/// Thm 8's rate MD(1/√n + min{1, √d/(εn)}) for the weak VI gap of DP-SVI (Ω̃, constant 1 and
/// logarithms dropped, as printed).
pub fn thm8_rate(m: f64, diam: f64, n: usize, d: usize, eps: f64) -> Result<f64> {
    prop11_rate(m, diam, n, d, eps)
}

/// The proof of Prop 12's closed form: with F_β(u) = Mβ on the ball B(0, r),
/// EmpGap_VI(u, F_S) = sup_{v∈B(0,r)} ⟨Mβ̄, u − v⟩ = M r‖β̄‖ + M⟨u, β̄⟩ (β̄ the dataset's mean).
/// The paper takes r = D (so W has diameter 2D, E-BG23-64).
pub fn prop12_emp_gap(m: f64, radius: f64, beta_bar: &[f64], u: &[f64]) -> Result<f64> {
    if beta_bar.len() != u.len() {
        return Err(invalid("u", "must have the length of beta_bar"));
    }
    pos("radius", radius)?;
    Ok(m * radius * linalg::norm2(beta_bar) + m * linalg::dot(u, beta_bar))
}

/// The minimizer u* = −r β̄/‖β̄‖ of Prop 12's problem (P) on B(0, r), where the gap is zero
/// (None when β̄ = 0: every u ∈ W then has gap 0).
pub fn prop12_minimizer(radius: f64, beta_bar: &[f64]) -> Option<Vec<f64>> {
    let nb = linalg::norm2(beta_bar);
    (nb > 0.0).then(|| linalg::scale(-radius / nb, beta_bar))
}

/// Lemma 4's requirement on A for B to be (ε, η)-DP: A is (ε/[4 log(1/η)],
/// e^{−ε}η/[8 log(1/η)])-DP.
pub fn lemma4_inner_privacy(eps: f64, eta: f64) -> Result<(f64, f64)> {
    pos("eps", eps)?;
    if !(eta > 0.0 && eta < 1.0) {
        return Err(invalid("eta", format!("must be in (0, 1), got {eta}")));
    }
    let l = (1.0 / eta).ln();
    Ok((eps / (4.0 * l), (-eps).exp() * eta / (8.0 * l)))
}
