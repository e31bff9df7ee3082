//! The exact 1-D box family of BGM23 §5's checks, in exact rationals:
//!
//! f(w, θ; (a, b)) = a·w − b·θ + c·w·θ on W = [−r_w, r_w], Θ = [−r_θ, r_θ],
//!
//! whose gap function (BGM23 §2, "Gap functions") is Ĝap(w̄, θ̄) = ā·w̄ + r_θ|c·w̄ − b̄| + b̄·θ̄ +
//! r_w|ā + c·θ̄| for data mean (ā, b̄), and whose regularized saddle point (BGM23 eq. (4)) is found
//! exactly by enumerating the nine active sets ([`ExactBox::reg_saddle`]). Because F_D is affine in
//! w for fixed θ and in θ for fixed w, the weak gap of a deterministic algorithm equals Ĝap(E A)
//! on this family. With c = 0 and (r_w, r_θ) = (3/10, 2/5) it is LIN-box
//! ([`crate::instances::lin_box`]); Prop 13's f = wθ is c = 1, a = b = 0, r_w = r_θ = 1.

use crate::error::{invalid, Result};
use crate::exact::{self, BigRational};
use num_traits::Signed;

type Q = BigRational;

/// f(w, θ; (a, b)) = a·w − b·θ + c·w·θ on W = [−r_w, r_w], Θ = [−r_θ, r_θ], in exact rationals
/// (LIN-box is r_w = 3/10, r_θ = 2/5; Prop 13's f = wθ is c = 1, a = b = 0, r_w = r_θ = 1).
#[derive(Clone, Debug, PartialEq)]
pub struct ExactBox {
    /// r_w > 0.
    pub rw: Q,
    /// r_θ > 0.
    pub rt: Q,
    /// The data-independent coupling c.
    pub c: Q,
}

fn clamp(x: Q, r: &Q) -> Q {
    if x > *r {
        r.clone()
    } else if x < -r {
        -r
    } else {
        x
    }
}

impl ExactBox {
    /// LIN-box: r_w = 3/10, r_θ = 2/5 (diameter 1), coupling c.
    pub fn lin_box(c: Q) -> ExactBox {
        ExactBox {
            rw: exact::rat(3, 10),
            rt: exact::rat(2, 5),
            c,
        }
    }

    /// Ĝap(w̄, θ̄) for data mean (ā, b̄): max_θ F − min_w F = ā·w̄ + r_θ|c·w̄ − b̄| + b̄·θ̄ + r_w|ā + c·θ̄|.
    pub fn gap(&self, a: &Q, b: &Q, w: &Q, t: &Q) -> Q {
        a * w + &self.rt * (&self.c * w - b).abs() + b * t + &self.rw * (a + &self.c * t).abs()
    }

    /// The saddle point of a·w − b·θ + c·w·θ + (λ/2)(w − ŵ)² − (λ/2)(θ − θ̂)² on the box (BGM23
    /// eq. (4)), λ > 0: the unique fixed point of w = clamp(ŵ − (a + cθ)/λ), θ = clamp(θ̂ + (cw − b)/λ),
    /// found by trying each active set (free / lower / upper for each block) and keeping the
    /// candidate that satisfies both clamp equations exactly.
    pub fn reg_saddle(&self, a: &Q, b: &Q, lambda: &Q, wh: &Q, th: &Q) -> Result<(Q, Q)> {
        if !lambda.is_positive() {
            return Err(invalid("lambda", format!("must be > 0, got {lambda}")));
        }
        let c = &self.c;
        let br_w = |t: &Q| clamp(wh - (a + c * t) / lambda, &self.rw);
        let br_t = |w: &Q| clamp(th + (c * w - b) / lambda, &self.rt);
        let mut cands = Vec::with_capacity(9);
        // Both free: λw + cθ = λŵ − a, −cw + λθ = λθ̂ − b (determinant λ² + c² > 0).
        let (u, v) = (lambda * wh - a, lambda * th - b);
        let det = lambda * lambda + c * c;
        cands.push(((&u * lambda - c * &v) / &det, (&v * lambda + c * &u) / &det));
        for wb in [-self.rw.clone(), self.rw.clone()] {
            cands.push((wb.clone(), th + (c * &wb - b) / lambda));
            for tb in [-self.rt.clone(), self.rt.clone()] {
                cands.push((wb.clone(), tb));
            }
        }
        for tb in [-self.rt.clone(), self.rt.clone()] {
            cands.push((wh - (a + c * &tb) / lambda, tb));
        }
        cands
            .into_iter()
            .find(|(w, t)| *w == br_w(t) && *t == br_t(w))
            .ok_or_else(|| {
                crate::Error::NotCertified("no active set satisfies the KKT conditions".into())
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gap::gap_function;
    use crate::problem::{Objective, QuadBilinear};
    use crate::solve::{saddle_point, SolveOptions};
    use num_traits::Zero;

    fn fl(x: &Q) -> f64 {
        exact::to_f64(x)
    }

    /// The exact active-set solver agrees with the certified float solver on LIN-box with
    /// coupling (including clamped cases).
    #[test]
    fn exact_box_matches_certified_solver() {
        for c in [0.0, 0.5, 1.0, 4.0] {
            let cq = exact::from_f64_exact(c).unwrap();
            let fam = ExactBox::lin_box(cq);
            let f = QuadBilinear::lin_box(c).unwrap();
            for (a, b) in [(0.6, 0.8), (-0.6, -0.8), (0.2, -0.4), (1.0, 0.0)] {
                for lam in [0.01, 0.5, 2.0] {
                    let (aq, bq, lq) = (
                        exact::from_f64_exact(a).unwrap(),
                        exact::from_f64_exact(b).unwrap(),
                        exact::from_f64_exact(lam).unwrap(),
                    );
                    let (w, t) = fam
                        .reg_saddle(&aq, &bq, &lq, &Q::zero(), &Q::zero())
                        .unwrap();
                    let s = crate::problem::Dataset::new(vec![vec![a, b]]).unwrap();
                    let obj = Objective::empirical(&s)
                        .with_reg(crate::problem::Regularizer::bgm23_eq4(lam, &[0.0], &[0.0]));
                    let cert = saddle_point(&f, &obj, &SolveOptions::default()).unwrap();
                    let err = (cert.w[0] - fl(&w)).abs() + (cert.theta[0] - fl(&t)).abs();
                    assert!(err < 1e-9, "c={c} (a,b)=({a},{b}) λ={lam}: {err}");
                    // And the exact gap formula against the float gap function (no regularizer).
                    let g = gap_function(&f, &Objective::empirical(&s), &cert.w, &cert.theta)
                        .unwrap()
                        .gap;
                    let ge = fam.gap(&aq, &bq, &w, &t);
                    assert!((g - fl(&ge)).abs() < 1e-8, "gap {g} vs {ge}");
                }
            }
        }
    }
}
