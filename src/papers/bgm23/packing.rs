//! BGM23 Theorem 15's packing construction (proof in App. D.2) in exact rationals.
//!
//! Linear loss f(w; x) = ⟨w, x⟩ on W = ball(0, R) ⊂ ℝᴷ (the proof's minimizer has norm B, so its
//! B is the *radius* R of W: erratum E-BGM23-40). For a sign vector σ ∈ U = {±1}ᴷ the dataset is
//! S_σ = (Lσ₁e₁, …, Lσ_K e_K, 0, …, 0) with n − K zeros, so
//!
//! * F(w; S_σ) = (L/n) Σⱼ σⱼ wⱼ, minimized at w*_σ = −Rσ/√K with value −RL√K/n;
//! * the identity of the proof: for any algorithm A (a table σ ↦ A(S_σ)),
//!   E_σ[F(A(S_σ); S_σ) − F(w*_σ; S_σ)] = (L/(n 2ᴷ)) Σⱼ Σ_σ σⱼ A(S_σ)ⱼ + RL√K/n
//!   = (L/(n 2ᴷ)) Σⱼ Σ_{σ: σⱼ = +1} (A(S_σ)ⱼ − A(S_{σ⁽ʲ⁾})ⱼ) + RL√K/n,
//!   where σ⁽ʲ⁾ flips coordinate j (S_σ and S_{σ⁽ʲ⁾} are replace-one neighbours);
//! * hence, with Δ_coord = max_{σ, j} |A(S_σ)ⱼ − A(S_{σ⁽ʲ⁾})ⱼ| (≤ the uniform argument stability),
//!   E_σ\[excess\] ≥ (L/n)(R√K − K·Δ_coord/2), which at K = R²/Δ² is RL√K/(2n) = R²L/(2Δn).
//!
//! K must be a perfect square so that √K, w*_σ and the minimum are rational. Sign vectors are
//! bit masks: bit j set means σⱼ = −1. The regularized ERM of BGM23 Lemma 2 (minimization form,
//! `algorithms::regularized_erm::RegularizedErm`) is [`reg_erm`] here: w_λ = Π_ball(−x̄_σ/λ), which at
//! λ = 2L√K/(nR) attains the bound with equality for every σ (the paragraph after Thm 15).

use crate::error::{invalid, Result};
use crate::exact::{BigInt, BigRational};
use crate::geometry::Domain;
use crate::linalg::Matrix;
use crate::problem::{Dataset, QuadBilinear};
use crate::rng::Stream;
use num_traits::{One, Signed, Zero};

type Q = BigRational;

/// Largest K accepted (2ᴷ sign vectors are enumerated).
pub const MAX_K: usize = 16;

/// The exact square root of a non-negative rational, when it is rational.
pub fn exact_sqrt(x: &Q) -> Option<Q> {
    if x.is_negative() {
        return None;
    }
    let (p, q) = (x.numer().magnitude(), x.denom().magnitude());
    let (rp, rq) = (p.sqrt(), q.sqrt());
    if &(&rp * &rp) == p && &(&rq * &rq) == q {
        Some(Q::new(BigInt::from(rp), BigInt::from(rq)))
    } else {
        None
    }
}

/// One instance of the packing: radius R, Lipschitz constant L, dataset size n, K coordinates.
#[derive(Clone, Debug, PartialEq)]
pub struct Packing {
    /// R > 0, the radius of W (the paper's B).
    pub r: Q,
    /// L > 0; data points Lσⱼeⱼ have norm L.
    pub l: Q,
    /// n ≥ K.
    pub n: u64,
    /// K ∈ [1, min(n, [`MAX_K`])], a perfect square.
    pub k: usize,
    /// √K.
    pub sqrt_k: Q,
}

impl Packing {
    /// Validate and build. Errors name the field: `R`, `L` (must be > 0), `K` (a perfect square
    /// in [1, 16]), `n` (≥ K).
    pub fn new(r: Q, l: Q, n: u64, k: usize) -> Result<Packing> {
        if !r.is_positive() {
            return Err(invalid("R", format!("must be > 0, got {r}")));
        }
        if !l.is_positive() {
            return Err(invalid("L", format!("must be > 0, got {l}")));
        }
        if k == 0 || k > MAX_K {
            return Err(invalid(
                "K",
                format!("must be in [1, {MAX_K}] (2ᴷ sign vectors are enumerated), got {k}"),
            ));
        }
        let sqrt_k = exact_sqrt(&Q::from_integer(k.into())).ok_or_else(|| {
            invalid(
                "K",
                format!("must be a perfect square (so √K is rational), got {k}"),
            )
        })?;
        if (k as u64) > n {
            return Err(invalid(
                "n",
                format!("must be ≥ K = {k} (S_σ holds K signed basis vectors), got {n}"),
            ));
        }
        Ok(Packing { r, l, n, k, sqrt_k })
    }

    fn nq(&self) -> Q {
        Q::from_integer(self.n.into())
    }

    /// 2ᴷ, the number of sign vectors.
    pub fn num_signs(&self) -> u64 {
        1u64 << self.k
    }

    /// σ for a mask (bit j set ⇔ σⱼ = −1).
    pub fn signs(&self, mask: u64) -> Vec<i64> {
        (0..self.k)
            .map(|j| if mask >> j & 1 == 1 { -1 } else { 1 })
            .collect()
    }

    /// x̄_σ = (L/n)σ, the mean of S_σ.
    pub fn mean(&self, mask: u64) -> Vec<Q> {
        let s = &self.l / self.nq();
        self.signs(mask)
            .into_iter()
            .map(|sj| &s * Q::from_integer(sj.into()))
            .collect()
    }

    /// The dataset S_σ in f64: Lσⱼeⱼ for j < K, then n − K zero vectors (points in ℝᴷ).
    pub fn dataset(&self, mask: u64) -> Dataset {
        let l = crate::exact::to_f64(&self.l);
        // Rows 0..K carry ±L on the diagonal, the other n − K rows are zero.
        let mut values = vec![0.0; (self.n as usize).max(self.k) * self.k];
        for (j, sj) in self.signs(mask).into_iter().enumerate() {
            values[j * self.k + j] = l * sj as f64;
        }
        Dataset {
            points: crate::problem::Rows::from_flat(values, self.k)
                .expect("k ≥ 1 coordinates per point"),
        }
    }

    /// The loss as a crate problem: f(w, θ; x) = ⟨x, w⟩ on W = ball(0, R) ⊂ ℝᴷ with Θ = {0} (a
    /// minimization problem is a saddle problem with a singleton Θ).
    pub fn problem(&self) -> Result<QuadBilinear> {
        let mut a = Matrix::zeros(self.k, self.k);
        for j in 0..self.k {
            a.set(j, j, 1.0);
        }
        QuadBilinear::new(
            Domain::ball(vec![0.0; self.k], crate::exact::to_f64(&self.r))?,
            Domain::new_box(vec![0.0], vec![0.0])?,
            a,
            Matrix::zeros(1, self.k),
            Matrix::zeros(self.k, 1),
            0.0,
            0.0,
        )
    }

    /// F(w; S_σ) = (L/n) Σⱼ σⱼ wⱼ. `w` must have K entries.
    pub fn risk(&self, mask: u64, w: &[Q]) -> Result<Q> {
        self.check_len(w)?;
        let mut s = Q::zero();
        for (j, wj) in w.iter().enumerate() {
            if mask >> j & 1 == 1 {
                s -= wj;
            } else {
                s += wj;
            }
        }
        Ok(s * &self.l / self.nq())
    }

    fn check_len(&self, w: &[Q]) -> Result<()> {
        if w.len() != self.k {
            return Err(invalid(
                "w",
                format!("has {} entries, expected K = {}", w.len(), self.k),
            ));
        }
        Ok(())
    }

    /// w*_σ = −Rσ/√K, the exact ERM.
    pub fn erm(&self, mask: u64) -> Vec<Q> {
        let s = &self.r / &self.sqrt_k;
        self.signs(mask)
            .into_iter()
            .map(|sj| -(&s * Q::from_integer(sj.into())))
            .collect()
    }

    /// min_W F(·; S_σ) = −RL√K/n (the same for every σ).
    pub fn min_risk(&self) -> Q {
        -(&self.r * &self.l * &self.sqrt_k / self.nq())
    }

    /// F(w; S_σ) − min_W F(·; S_σ).
    pub fn excess(&self, mask: u64, w: &[Q]) -> Result<Q> {
        Ok(self.risk(mask, w)? - self.min_risk())
    }

    /// λ = 2L√K/(nR): the regularization at which the regularized ERM's stability 2L/(λn) is
    /// R/√K and its excess is exactly RL√K/(2n).
    pub fn tight_lambda(&self) -> Q {
        Q::from_integer(2.into()) * &self.l * &self.sqrt_k / (self.nq() * &self.r)
    }

    /// RL√K/(2n) = R²L/(2Δn) at Δ = R/√K: the value of Theorem 15's bound on this instance.
    pub fn thm15_value(&self) -> Q {
        &self.r * &self.l * &self.sqrt_k / (Q::from_integer(2.into()) * self.nq())
    }

    /// (L/n)(R√K − K·Δ/2): the lower bound the proof gives for an algorithm whose coordinate
    /// changes between neighbouring packing datasets are at most Δ.
    pub fn measured_lower_bound(&self, delta: &Q) -> Q {
        let k = Q::from_integer(self.k.into());
        (&self.l / self.nq()) * (&self.r * &self.sqrt_k - k * delta / Q::from_integer(2.into()))
    }

    /// Run an algorithm (given as σ ↦ A(S_σ)) on every sign vector and evaluate the proof's
    /// quantities exactly.
    pub fn analyse<A>(&self, mut alg: A) -> Result<PackingReport>
    where
        A: FnMut(u64) -> Result<Vec<Q>>,
    {
        let total = self.num_signs();
        let mut table = Vec::with_capacity(total as usize);
        for mask in 0..total {
            let w = alg(mask)?;
            self.check_len(&w)?;
            table.push(w);
        }
        let mut sum_excess = Q::zero();
        let mut min_excess: Option<Q> = None;
        let mut max_excess: Option<Q> = None;
        // Σⱼ Σ_σ σⱼ A(S_σ)ⱼ, and the paired form Σⱼ Σ_{σⱼ=+1} (A(S_σ)ⱼ − A(S_σ⁽ʲ⁾)ⱼ).
        let mut signed_sum = Q::zero();
        let mut paired_sum = Q::zero();
        let mut delta = Q::zero();
        for (mask, w) in table.iter().enumerate() {
            let mask = mask as u64;
            let e = self.excess(mask, w)?;
            sum_excess += &e;
            if min_excess.as_ref().is_none_or(|m| e < *m) {
                min_excess = Some(e.clone());
            }
            if max_excess.as_ref().is_none_or(|m| e > *m) {
                max_excess = Some(e);
            }
            for (j, wj) in w.iter().enumerate() {
                let flipped = &table[(mask ^ (1u64 << j)) as usize][j];
                if mask >> j & 1 == 1 {
                    signed_sum -= wj;
                } else {
                    signed_sum += wj;
                    paired_sum += wj - flipped;
                }
                let d = (wj - flipped).abs();
                if d > delta {
                    delta = d;
                }
            }
        }
        let count = Q::from_integer(total.into());
        let scale = &self.l / (self.nq() * &count);
        let offset = -self.min_risk();
        Ok(PackingReport {
            expected_excess: sum_excess / &count,
            identity_signed: &scale * signed_sum + &offset,
            identity_paired: scale * paired_sum + offset,
            min_excess: min_excess.unwrap_or_default(),
            max_excess: max_excess.unwrap_or_default(),
            measured_lower_bound: self.measured_lower_bound(&delta),
            delta_coord: delta,
        })
    }
}

/// What [`Packing::analyse`] computes, all exact.
#[derive(Clone, Debug, PartialEq)]
pub struct PackingReport {
    /// E_σ[F(A(S_σ); S_σ) − F(w*_σ; S_σ)], by summing over all 2ᴷ sign vectors.
    pub expected_excess: Q,
    /// (L/(n2ᴷ)) Σⱼ Σ_σ σⱼ A(S_σ)ⱼ + RL√K/n (the proof's identity (i)).
    pub identity_signed: Q,
    /// (L/(n2ᴷ)) Σⱼ Σ_{σⱼ=+1} (A(S_σ)ⱼ − A(S_σ⁽ʲ⁾)ⱼ) + RL√K/n (the paired form before (ii)).
    pub identity_paired: Q,
    /// min over σ of the excess.
    pub min_excess: Q,
    /// max over σ of the excess.
    pub max_excess: Q,
    /// Δ_coord = max_{σ, j} |A(S_σ)ⱼ − A(S_σ⁽ʲ⁾)ⱼ|.
    pub delta_coord: Q,
    /// (L/n)(R√K − K·Δ_coord/2).
    pub measured_lower_bound: Q,
}

/// The regularized ERM w_λ = Π_ball(0,R)(−x̄_σ/λ) with anchor 0 (BGM23 Lemma 2, minimization
/// form), exactly: ‖x̄_σ‖ = L√K/n is rational, so is the projection. λ > 0.
pub fn reg_erm(p: &Packing, lambda: &Q, mask: u64) -> Result<Vec<Q>> {
    if !lambda.is_positive() {
        return Err(invalid("lambda", format!("must be > 0, got {lambda}")));
    }
    let norm = &p.l * &p.sqrt_k / (Q::from_integer(p.n.into()) * lambda);
    let factor = if norm > p.r { &p.r / &norm } else { Q::one() };
    Ok(p.mean(mask)
        .into_iter()
        .map(|x| -(x / lambda) * &factor)
        .collect())
}

/// The shrunk ERM γ·w*_σ = −γRσ/√K, γ ∈ [0, 1] (γ = 1: exact ERM; γ = 0: constant 0).
pub fn shrunk_erm(p: &Packing, gamma: &Q, mask: u64) -> Result<Vec<Q>> {
    if gamma.is_negative() || *gamma > Q::one() {
        return Err(invalid("gamma", format!("must be in [0, 1], got {gamma}")));
    }
    Ok(p.erm(mask).into_iter().map(|x| x * gamma).collect())
}

/// A seeded deterministic algorithm with no structure: a table σ ↦ A(S_σ) whose coordinates are
/// multiples of (R/√K)/16 drawn uniformly from [−R/√K, R/√K] (so ‖A‖ ≤ R), one stream per
/// seed (label "exact/packing/random_table", kept from the module's former place so the tables do not change).
pub fn random_table(p: &Packing, seed: u64) -> Vec<Vec<Q>> {
    let mut s = Stream::new(seed, "exact/packing/random_table");
    let unit = &p.r / (&p.sqrt_k * Q::from_integer(16.into()));
    (0..p.num_signs())
        .map(|_| {
            (0..p.k)
                .map(|_| &unit * Q::from_integer(BigInt::from(s.index(33) as i64 - 16)))
                .collect()
        })
        .collect()
}
