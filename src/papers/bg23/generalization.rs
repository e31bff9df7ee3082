//! BG23 §2.2: the generalization bounds of Props 1 and 2 (stability implies weak-gap
//! generalization), one function per formula. Walk-through: `proofs-notes/bg23.md`, Part 1.

/// BG23 Prop 2, eq. (2.5): WeakGap_VI(A, F) ≤ E_S[EmpGap_VI(A, F_S)] + Mδ; returns the right side.
pub fn prop2_rhs(expected_emp_gap: f64, m: f64, delta: f64) -> f64 {
    expected_emp_gap + m * delta
}

/// BG23 Prop 1, eq. (2.4): WeakGap_SP(A, f) ≤ E_S[EmpGap_SP(A, f_S)] + M(δ_x + δ_y); returns the
/// right side.
pub fn prop1_rhs(expected_emp_gap: f64, m: f64, delta_x: f64, delta_y: f64) -> f64 {
    expected_emp_gap + m * (delta_x + delta_y)
}

use crate::error::{invalid, Result};
use crate::linalg;

/// The ordered datasets S ∈ \[k\]ⁿ by code (position j holds digit j of the code in base k).
pub fn decode_sequence(code: usize, k: usize, n: usize) -> Vec<usize> {
    let mut c = code;
    (0..n)
        .map(|_| {
            let a = c % k;
            c /= k;
            a
        })
        .collect()
}

/// The code of a sequence (inverse of [`decode_sequence`]).
pub fn encode_sequence(seq: &[usize], k: usize) -> usize {
    seq.iter().rev().fold(0, |acc, &a| acc * k + a)
}

/// Definition 1 over a finite world: with `outputs[r][code]` = A_r(S) for every seed r (uniform
/// over the seed set: the algorithm's randomness) and every ordered dataset S ∈ \[k\]ⁿ, the
/// uniform argument stability sup_{S≃S′} E_r‖A_r(S) − A_r(S′)‖ over every replace-one pair,
/// and the pair attaining it (first in code order). With `shift` > 0 the run on S′ uses seed
/// r + shift (mod the seed count): the uncoupled estimate, a negative control.
pub fn uas_enumerated(
    outputs: &[Vec<Vec<f64>>],
    k: usize,
    n: usize,
    shift: usize,
) -> Result<(f64, usize, usize)> {
    let seeds = outputs.len();
    if seeds == 0 || k < 2 || n == 0 {
        return Err(invalid("outputs", "needs a seed, k ≥ 2 atoms and n ≥ 1"));
    }
    let total = k.pow(n as u32);
    if outputs.iter().any(|o| o.len() != total) {
        return Err(invalid(
            "outputs",
            format!("every seed needs {total} outputs"),
        ));
    }
    let mut best = (-1.0, 0, 0);
    for code in 0..total {
        let s = decode_sequence(code, k, n);
        for i in 0..n {
            for a in 0..k {
                if a == s[i] {
                    continue;
                }
                let mut s2 = s.clone();
                s2[i] = a;
                let c2 = encode_sequence(&s2, k);
                let mut acc = 0.0;
                for r in 0..seeds {
                    let r2 = (r + shift) % seeds;
                    acc += linalg::dist2(&outputs[r][code], &outputs[r2][c2]);
                }
                let d = acc / seeds as f64;
                if d > best.0 {
                    best = (d, code, c2);
                }
            }
        }
    }
    Ok(best)
}
