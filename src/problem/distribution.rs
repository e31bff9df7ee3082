//! Finite-support distributions and exact expectations over datasets.
//!
//! A [`FiniteDist`] D = Σⱼ pⱼ δ_{xⱼ} puts mass pⱼ on atom xⱼ ∈ ℝᵏ. A dataset S ~ Dⁿ is then a
//! sequence of atom indices (s₁, …, sₙ), and any statistic that does not depend on the order of
//! S (every exchangeable quantity: empirical risk, empirical saddle point, sample mean) depends
//! only on the count vector c (cⱼ = #{i : sᵢ = j}), whose law is multinomial:
//! P(c) = n!/Πcⱼ! · Πpⱼ^{cⱼ}. Expectations over S ~ Dⁿ are therefore exact finite sums over the
//! C(n+k−1, k−1) count vectors ([`FiniteDist::expect_over_counts_exact`]), with brute-force twins
//! over all kⁿ sequences for cross-checks ([`FiniteDist::expect_over_sequences_exact`]).
//!
//! Naming: in this module `k` is the number of atoms (the support size, [`FiniteDist::k`]) and
//! the length of each atom is [`FiniteDist::point_dim`].

use crate::error::{invalid, require_finite, Error, Result};
use crate::exact::{
    ln_factorials, ln_multinomial, multinomial, pow, sequences, to_f64, CountWalk, RatSum,
};
use crate::problem::Dataset;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Pow, Signed, Zero};
use serde::{Deserialize, Serialize};

/// D = Σⱼ pⱼ δ_{xⱼ}: a distribution on finitely many atoms xⱼ ∈ ℝᵏ, with f64 weights and
/// optionally exact rational weights.
///
/// Build with [`FiniteDist::new`] (f64 weights), [`FiniteDist::with_exact`] (rational weights;
/// the f64 weights are their correctly rounded values) or [`FiniteDist::uniform`]. The exact
/// weights are not serialized; a deserialized value has `exact_probs = None` and should be
/// checked with [`FiniteDist::validate`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct FiniteDist {
    /// The atoms x₀, …, x_{k−1}, each of the same non-zero length.
    pub atoms: Vec<Vec<f64>>,
    /// The weights p₀, …, p_{k−1} (non-negative, summing to 1 within 1e-12).
    pub probs: Vec<f64>,
    /// Exact weights (summing to exactly 1), when known; `probs[j]` is then `to_f64` of these.
    #[serde(skip)]
    pub exact_probs: Option<Vec<BigRational>>,
}

/// Tolerance on |Σp − 1| for f64 weights.
const PROB_SUM_TOL: f64 = 1e-12;

/// Check the atoms: at least one, one common non-zero length, finite entries.
fn validate_atoms(atoms: &[Vec<f64>]) -> Result<()> {
    if atoms.is_empty() {
        return Err(invalid("atoms", "a distribution needs at least one atom"));
    }
    let dim = atoms[0].len();
    if dim == 0 {
        return Err(invalid(
            "atoms[0]",
            "atoms must have at least one coordinate",
        ));
    }
    for (i, x) in atoms.iter().enumerate() {
        if x.len() != dim {
            return Err(invalid(
                format!("atoms[{i}]"),
                format!(
                    "has length {}, expected {dim} (the length of atoms[0])",
                    x.len()
                ),
            ));
        }
        require_finite(&format!("atoms[{i}]"), x)?;
    }
    Ok(())
}

impl FiniteDist {
    /// A distribution from atoms and f64 weights.
    ///
    /// Errors ([`Error::Invalid`] naming the field): no atoms (`atoms`); atoms of unequal or
    /// zero length, or non-finite entries (`atoms[i]`); a weight count different from the atom
    /// count (`probs`); a weight that is negative or not finite (`probs[j]`); weights whose sum
    /// (in index order) differs from 1 by more than 1e-12 (`probs`).
    pub fn new(atoms: Vec<Vec<f64>>, probs: Vec<f64>) -> Result<Self> {
        let d = FiniteDist {
            atoms,
            probs,
            exact_probs: None,
        };
        d.validate()?;
        Ok(d)
    }

    /// A distribution from atoms and exact rational weights, which must be non-negative
    /// (`probs[j]`) and sum to exactly 1 (`probs`). The f64 weights are the correctly rounded
    /// values of the exact ones.
    pub fn with_exact(atoms: Vec<Vec<f64>>, probs: Vec<BigRational>) -> Result<Self> {
        validate_atoms(&atoms)?;
        if probs.len() != atoms.len() {
            return Err(invalid(
                "probs",
                format!("has {} weights for {} atoms", probs.len(), atoms.len()),
            ));
        }
        let mut sum = BigRational::zero();
        for (j, p) in probs.iter().enumerate() {
            if p.is_negative() {
                return Err(invalid(
                    format!("probs[{j}]"),
                    format!("must be ≥ 0, got {p}"),
                ));
            }
            sum += p;
        }
        if !sum.is_one() {
            return Err(invalid(
                "probs",
                format!("must sum to exactly 1, got {sum}"),
            ));
        }
        let f64_probs = probs.iter().map(to_f64).collect();
        Ok(FiniteDist {
            atoms,
            probs: f64_probs,
            exact_probs: Some(probs),
        })
    }

    /// The uniform distribution on `atoms`, with exact weights 1/k.
    pub fn uniform(atoms: Vec<Vec<f64>>) -> Result<Self> {
        validate_atoms(&atoms)?;
        let k = atoms.len();
        let p = BigRational::new(BigInt::one(), BigInt::from(k));
        Self::with_exact(atoms, vec![p; k])
    }

    /// Re-check every invariant that [`FiniteDist::new`] / [`FiniteDist::with_exact`] establish
    /// (use after deserializing or mutating the public fields). When `exact_probs` is present
    /// it must have one weight per atom, be non-negative, sum to exactly 1, and `probs[j]` must
    /// equal its correctly rounded value.
    pub fn validate(&self) -> Result<()> {
        validate_atoms(&self.atoms)?;
        if self.probs.len() != self.atoms.len() {
            return Err(invalid(
                "probs",
                format!(
                    "has {} weights for {} atoms",
                    self.probs.len(),
                    self.atoms.len()
                ),
            ));
        }
        for (j, &p) in self.probs.iter().enumerate() {
            if !p.is_finite() || p < 0.0 {
                return Err(invalid(
                    format!("probs[{j}]"),
                    format!("must be finite and ≥ 0, got {p}"),
                ));
            }
        }
        let sum: f64 = self.probs.iter().sum();
        if (sum - 1.0).abs() > PROB_SUM_TOL {
            return Err(invalid(
                "probs",
                format!("must sum to 1 (within {PROB_SUM_TOL:e}), got {sum}"),
            ));
        }
        if let Some(exact) = &self.exact_probs {
            let rebuilt = Self::with_exact(self.atoms.clone(), exact.clone())?;
            if let Some(j) = (0..self.probs.len()).find(|&j| rebuilt.probs[j] != self.probs[j]) {
                return Err(invalid(
                    format!("probs[{j}]"),
                    format!(
                        "is {}, but the exact weight rounds to {}",
                        self.probs[j], rebuilt.probs[j]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The number of atoms (the support size).
    pub fn k(&self) -> usize {
        self.atoms.len()
    }

    /// The length of each atom.
    pub fn point_dim(&self) -> usize {
        self.atoms.first().map_or(0, |x| x.len())
    }

    /// The mean Σⱼ pⱼ xⱼ in f64, accumulated in atom index order.
    pub fn mean(&self) -> Vec<f64> {
        let mut m = vec![0.0; self.point_dim()];
        for (x, &p) in self.atoms.iter().zip(&self.probs) {
            for (mi, xi) in m.iter_mut().zip(x) {
                *mi += p * xi;
            }
        }
        m
    }

    /// The exact mean Σⱼ pⱼ xⱼ (atoms taken at their exact f64 values).
    /// [`Error::Unsupported`] without exact weights.
    pub fn mean_exact(&self) -> Result<Vec<BigRational>> {
        let probs = self.exact()?;
        let mut m = vec![BigRational::zero(); self.point_dim()];
        for (x, p) in self.atoms.iter().zip(probs) {
            for (mi, &xi) in m.iter_mut().zip(x) {
                *mi += p * exact_of(xi);
            }
        }
        Ok(m)
    }

    /// The exact weights, or [`Error::Unsupported`].
    fn exact(&self) -> Result<&[BigRational]> {
        self.exact_probs.as_deref().ok_or_else(|| {
            Error::Unsupported(
                "exact computation needs exact weights (build with FiniteDist::with_exact or uniform)"
                    .into(),
            )
        })
    }

    /// Whether some atom with weight exactly 0 (in f64) has a positive count.
    fn impossible_f64(&self, counts: &[usize]) -> bool {
        counts
            .iter()
            .zip(&self.probs)
            .any(|(&c, &p)| c > 0 && p == 0.0)
    }

    /// P(c) in f64 given ln pⱼ (−∞ for pⱼ = 0), the shared kernel of
    /// [`FiniteDist::count_prob`] and [`FiniteDist::expect_over_counts`].
    fn count_prob_ln(&self, counts: &[usize], ln_p: &[f64]) -> f64 {
        if counts.len() != self.k() {
            return f64::NAN;
        }
        if self.impossible_f64(counts) {
            return 0.0;
        }
        let c64: Vec<u64> = counts.iter().map(|&c| c as u64).collect();
        let mut log = ln_multinomial(&c64);
        for (&c, &lp) in counts.iter().zip(ln_p) {
            if c > 0 {
                log += c as f64 * lp;
            }
        }
        log.exp()
    }

    /// P(count vector = c) for S ~ Dⁿ with n = Σc: multinomial(c)·Πⱼ pⱼ^{cⱼ}.
    ///
    /// Computed in log space, exp(ln multinomial(c) + Σ_{cⱼ>0} cⱼ ln pⱼ), so it neither
    /// overflows nor underflows prematurely; the relative error is about 10⁻¹⁶ times the size
    /// of the exponent's terms (≈ n·|ln pⱼ|), e.g. ≲ 10⁻¹³ at n = 60. Atoms with pⱼ = 0 are
    /// handled exactly: P(c) = 0 when such an atom has cⱼ > 0, and they contribute nothing
    /// otherwise. Returns NaN when `counts.len() != k` (see [`FiniteDist::count_prob_exact`]
    /// for a checked version).
    pub fn count_prob(&self, counts: &[usize]) -> f64 {
        let ln_p: Vec<f64> = self.probs.iter().map(|p| p.ln()).collect();
        self.count_prob_ln(counts, &ln_p)
    }

    /// P(count vector = c) exactly: multinomial(c)·Πⱼ pⱼ^{cⱼ}. [`Error::Unsupported`] without
    /// exact weights; [`Error::Invalid`] (`counts`) when `counts.len() != k`.
    pub fn count_prob_exact(&self, counts: &[usize]) -> Result<BigRational> {
        let probs = self.exact()?;
        self.check_counts(counts)?;
        let c64: Vec<u64> = counts.iter().map(|&c| c as u64).collect();
        let mut p = BigRational::from_integer(BigInt::from(multinomial(&c64)));
        for (j, (&c, pj)) in counts.iter().zip(probs).enumerate() {
            if c > 0 {
                p *= pow(pj, exponent(&format!("counts[{j}]"), c)?);
            }
        }
        Ok(p)
    }

    /// `counts` must have one entry per atom.
    fn check_counts(&self, counts: &[usize]) -> Result<()> {
        if counts.len() != self.k() {
            return Err(invalid(
                "counts",
                format!("has length {}, expected k = {}", counts.len(), self.k()),
            ));
        }
        Ok(())
    }

    /// E_{S~Dⁿ}[φ(counts(S))] = Σ_c P(c) φ(c) in f64, by enumerating the C(n+k−1, k−1) count
    /// vectors (never the kⁿ sequences) and summing in
    /// [`count_vectors`](crate::exact::count_vectors) order (increasing lexicographic order of c).
    ///
    /// φ is called once per count vector of positive probability, in that order; count vectors
    /// that put mass on an atom of weight exactly 0 are skipped (φ is not called on them).
    ///
    /// Cost: O(k) arithmetic per count vector, P(c) = exp(ln n! − Σⱼ ln cⱼ! + Σ_{cⱼ>0} cⱼ ln pⱼ)
    /// with the ln m! read from a table built once ([`ln_factorials`]), and the count vectors
    /// walked in place ([`CountWalk`]). Accuracy: each ln m! is within a few ulp of the true
    /// value, so the exponent's absolute error is a few ulp of ln n! + n·maxⱼ|ln pⱼ| and P(c)'s
    /// relative error is about 10⁻¹⁶ times that (≲ 10⁻¹³ at n = 60, ≲ 2·10⁻¹² at n = 960).
    /// P(c) here may differ in its last bits from [`FiniteDist::count_prob`], which takes ln of
    /// the exact multinomial coefficient when that is cheap.
    pub fn expect_over_counts(&self, n: usize, mut phi: impl FnMut(&[usize]) -> f64) -> f64 {
        let ln_p: Vec<f64> = self.probs.iter().map(|p| p.ln()).collect();
        let ln_fact = ln_factorials(n);
        let Some(mut walk) = CountWalk::new(n, self.k()) else {
            return 0.0;
        };
        let mut acc = 0.0;
        loop {
            let c = walk.counts();
            if !self.impossible_f64(c) {
                let mut log = ln_fact[n];
                for (&cj, &lp) in c.iter().zip(&ln_p) {
                    if cj > 0 {
                        log += cj as f64 * lp - ln_fact[cj];
                    }
                }
                acc += log.exp() * phi(c);
            }
            if walk.advance().is_none() {
                return acc;
            }
        }
    }

    /// E_{S~Dⁿ}[φ(counts(S))] exactly, by enumerating count vectors as in
    /// [`FiniteDist::expect_over_counts`] (same order; φ is skipped on count vectors of
    /// probability exactly 0). [`Error::Unsupported`] without exact weights.
    ///
    /// Implementation: with D = lcm of the weights' denominators and aⱼ = pⱼ·D ∈ ℕ, P(c) =
    /// w(c) / Dⁿ with the integer weight w(c) = multinomial(c)·Πaⱼ^{cⱼ}, so each term is an
    /// integer weight times φ(c) and the one division by Dⁿ happens at the end; the terms are
    /// summed with [`RatSum`], which reduces only once. The weights are updated along the
    /// [`CountWalk`], never recomputed from factorials: the multinomial coefficient changes by
    /// the small ratio c_j/(c_{j−1}+1) of each [`CountStep`](crate::exact::CountStep), and
    /// w(c) by that ratio times a_{j−1}/a_j when the step stays in the last position (all but
    /// about a fraction k/n of the steps); on the other steps w(c) = multinomial(c)·Πaⱼ^{cⱼ} is
    /// formed from tabulated powers. Every division is exact, so the result is the same rational
    /// as a from-scratch sum.
    pub fn expect_over_counts_exact(
        &self,
        n: usize,
        mut phi: impl FnMut(&[usize]) -> BigRational,
    ) -> Result<BigRational> {
        let probs = self.exact()?;
        let n_exp = exponent("n", n)?;
        let k = self.k();
        let denom = probs
            .iter()
            .fold(BigInt::one(), |acc, p| acc.lcm(p.denom()));
        let scaled: Vec<BigInt> = probs
            .iter()
            .map(|p| p.numer() * (&denom / p.denom()))
            .collect();
        // powers[j][m] = aⱼ^m for m = 0..=n.
        let powers: Vec<Vec<BigInt>> = scaled
            .iter()
            .map(|a| {
                let mut row = Vec::with_capacity(n + 1);
                let mut cur = BigInt::one();
                row.push(cur.clone());
                for _ in 0..n {
                    cur *= a;
                    row.push(cur.clone());
                }
                row
            })
            .collect();
        // w(c) = multinomial·Πaⱼ^{cⱼ} from the tabulated powers.
        let weight_of = |c: &[usize], multinomial: &BigUint| {
            let mut w = BigInt::from(multinomial.clone());
            for (row, &cj) in powers.iter().zip(c) {
                if cj > 0 {
                    w *= &row[cj];
                }
            }
            w
        };
        let mut acc = RatSum::new();
        if let Some(mut walk) = CountWalk::new(n, k) {
            // The first vector, (0, …, 0, n), has multinomial coefficient 1.
            let mut multinomial = BigUint::one();
            let mut w = weight_of(walk.counts(), &multinomial);
            loop {
                // w(c) = 0 exactly when an atom of weight 0 has a positive count.
                if !w.is_zero() {
                    acc.add_scaled(&phi(walk.counts()), &w);
                }
                let Some(s) = walk.advance() else { break };
                // multinomial(c′) = multinomial(c)·c_j/(c_{j−1}+1), an exact division.
                multinomial *= s.moved as u64;
                multinomial /= (s.prev + 1) as u64;
                if s.from == k - 1 && !scaled[s.from].is_zero() {
                    // w(c′) = w(c)·c_j·a_{j−1} / ((c_{j−1}+1)·a_j), an exact division.
                    w *= &scaled[s.from - 1];
                    w *= s.moved as u64;
                    w /= &scaled[s.from] * BigInt::from(s.prev + 1);
                } else {
                    w = weight_of(walk.counts(), &multinomial);
                }
            }
        }
        Ok(acc.finish() / Pow::pow(denom, n_exp))
    }

    /// Brute-force twin of [`FiniteDist::expect_over_counts`]: E_{S~Dⁿ}[φ(S)] = Σ_s P(s) φ(s)
    /// over all kⁿ index sequences s in [`sequences`] order, with P(s) = p_{s₁}·…·p_{sₙ}
    /// multiplied in index order. Sequences through an atom of weight exactly 0 are skipped.
    /// Only for cross-checks at small n (kⁿ terms).
    pub fn expect_over_sequences(&self, n: usize, mut phi: impl FnMut(&[usize]) -> f64) -> f64 {
        let mut acc = 0.0;
        for s in sequences(n, self.k()) {
            if s.iter().any(|&j| self.probs[j] == 0.0) {
                continue;
            }
            let p = s.iter().fold(1.0, |acc, &j| acc * self.probs[j]);
            acc += p * phi(&s);
        }
        acc
    }

    /// Exact brute-force twin: E_{S~Dⁿ}[φ(S)] = Σ_s p_{s₁}·…·p_{sₙ}·φ(s) over all kⁿ index
    /// sequences, computed independently of the multinomial formula. Sequences of probability
    /// exactly 0 are skipped. [`Error::Unsupported`] without exact weights.
    pub fn expect_over_sequences_exact(
        &self,
        n: usize,
        mut phi: impl FnMut(&[usize]) -> BigRational,
    ) -> Result<BigRational> {
        let probs = self.exact()?;
        let mut acc = BigRational::zero();
        for s in sequences(n, self.k()) {
            let p = s.iter().fold(BigRational::one(), |acc, &j| acc * &probs[j]);
            if p.is_zero() {
                continue;
            }
            acc += p * phi(&s);
        }
        Ok(acc)
    }

    /// The canonical dataset with these counts: atom 0 repeated c₀ times, then atom 1 repeated
    /// c₁ times, and so on (the dataset of the lexicographically least sequence with these
    /// counts). Errors name `counts`: wrong length, or all counts zero (a dataset needs ≥ 1
    /// point).
    pub fn dataset_from_counts(&self, counts: &[usize]) -> Result<Dataset> {
        self.check_counts(counts)?;
        if counts.iter().all(|&c| c == 0) {
            return Err(invalid(
                "counts",
                "all zero: a dataset needs at least one point",
            ));
        }
        let mut points =
            crate::problem::Rows::with_capacity(counts.iter().sum(), self.atoms[0].len());
        for (&c, x) in counts.iter().zip(&self.atoms) {
            for _ in 0..c {
                points.push(x)?;
            }
        }
        Ok(Dataset { points })
    }

    /// The dataset (x_{s₁}, …, x_{sₙ}) for an index sequence s. Errors: an empty sequence
    /// (`seq`), an index ≥ k (`seq[i]`).
    pub fn dataset_from_sequence(&self, seq: &[usize]) -> Result<Dataset> {
        if seq.is_empty() {
            return Err(invalid("seq", "empty: a dataset needs at least one point"));
        }
        let mut points = crate::problem::Rows::with_capacity(seq.len(), self.atoms[0].len());
        for (i, &j) in seq.iter().enumerate() {
            let x = self.atoms.get(j).ok_or_else(|| {
                invalid(
                    format!("seq[{i}]"),
                    format!("atom index {j} ≥ k = {}", self.k()),
                )
            })?;
            points.push(x)?;
        }
        Ok(Dataset { points })
    }

    /// Draw S ~ Dⁿ by inverse CDF, one uniform per point, returning the atom indices.
    ///
    /// Callers pass n uniforms in [0, 1) from the reference randomness (`crate::rng::Stream`'s
    /// `uniform()`, see `fixtures/RANDOMNESS.md`). The rule, portable to any IEEE-754 implementation:
    /// with f64 cumulative sums C_j = fl(C_{j−1} + p_j) (C_{−1} = 0, atom index order), point i
    /// is the least j with uᵢ < C_j; if there is none (uᵢ ≥ C_{k−1}, possible only when the
    /// rounded sum is below 1), it is the last atom of positive weight. Atoms of weight 0 are
    /// never returned. Errors name `uniforms[i]` for a value outside [0, 1) or NaN.
    pub fn sample_indices(&self, uniforms: &[f64]) -> Result<Vec<usize>> {
        let mut cum = Vec::with_capacity(self.k());
        let mut c = 0.0;
        for &p in &self.probs {
            c += p;
            cum.push(c);
        }
        let last_positive = self.probs.iter().rposition(|&p| p > 0.0).unwrap_or(0);
        uniforms
            .iter()
            .enumerate()
            .map(|(i, &u)| {
                if !(0.0..1.0).contains(&u) {
                    return Err(invalid(
                        format!("uniforms[{i}]"),
                        format!("must lie in [0, 1), got {u}"),
                    ));
                }
                // cum is non-decreasing, so this is the least j with u < C_j.
                let j = cum.partition_point(|&cj| cj <= u);
                Ok(if j < cum.len() { j } else { last_positive })
            })
            .collect()
    }
}

/// The exact value of a finite f64 (atoms are validated finite).
fn exact_of(x: f64) -> BigRational {
    crate::exact::from_f64_exact(x).unwrap_or_else(BigRational::zero)
}

/// A count or n as a u32 exponent, naming `field` when it does not fit.
fn exponent(field: &str, n: usize) -> Result<u32> {
    u32::try_from(n).map_err(|_| invalid(field, format!("{n} is too large for exact powers")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::rat;

    fn d3() -> FiniteDist {
        FiniteDist::with_exact(
            vec![vec![-1.0], vec![0.0], vec![2.0]],
            vec![rat(1, 2), rat(1, 3), rat(1, 6)],
        )
        .unwrap()
    }

    fn field(e: Error) -> String {
        match e {
            Error::Invalid { field, .. } => field,
            other => panic!("expected Invalid, got {other:?}"),
        }
    }

    #[test]
    fn construction_errors_name_the_field() {
        assert_eq!(field(FiniteDist::new(vec![], vec![]).unwrap_err()), "atoms");
        assert_eq!(
            field(FiniteDist::new(vec![vec![]], vec![1.0]).unwrap_err()),
            "atoms[0]"
        );
        assert_eq!(
            field(FiniteDist::new(vec![vec![1.0], vec![1.0, 2.0]], vec![0.5, 0.5]).unwrap_err()),
            "atoms[1]"
        );
        assert_eq!(
            field(FiniteDist::new(vec![vec![1.0], vec![f64::NAN]], vec![0.5, 0.5]).unwrap_err()),
            "atoms[1][0]"
        );
        assert_eq!(
            field(FiniteDist::new(vec![vec![1.0]], vec![0.5, 0.5]).unwrap_err()),
            "probs"
        );
        assert_eq!(
            field(FiniteDist::new(vec![vec![1.0], vec![2.0]], vec![1.5, -0.5]).unwrap_err()),
            "probs[1]"
        );
        assert_eq!(
            field(FiniteDist::new(vec![vec![1.0], vec![2.0]], vec![0.5, f64::NAN]).unwrap_err()),
            "probs[1]"
        );
        assert_eq!(
            field(FiniteDist::new(vec![vec![1.0], vec![2.0]], vec![0.5, 0.6]).unwrap_err()),
            "probs"
        );
        assert_eq!(
            field(
                FiniteDist::with_exact(vec![vec![1.0], vec![2.0]], vec![rat(1, 2), rat(1, 3)])
                    .unwrap_err()
            ),
            "probs"
        );
        assert_eq!(
            field(
                FiniteDist::with_exact(vec![vec![1.0], vec![2.0]], vec![rat(3, 2), rat(-1, 2)])
                    .unwrap_err()
            ),
            "probs[1]"
        );
        assert_eq!(field(FiniteDist::uniform(vec![]).unwrap_err()), "atoms");
    }

    #[test]
    fn sum_within_tolerance_is_accepted() {
        // 0.1 + 0.2 + 0.7 ≠ 1 in f64 by one ulp; accepted.
        assert!(FiniteDist::new(vec![vec![0.0]; 3], vec![0.1, 0.2, 0.7]).is_ok());
    }

    #[test]
    fn with_exact_rounds_probs() {
        let d = d3();
        assert_eq!(d.probs, vec![0.5, 1.0 / 3.0, 1.0 / 6.0]);
        assert_eq!(d.k(), 3);
        assert_eq!(d.point_dim(), 1);
        d.validate().unwrap();
    }

    #[test]
    fn validate_catches_mutation() {
        let mut d = d3();
        d.probs[1] = 0.3333;
        assert!(d.validate().is_err());
    }

    #[test]
    fn unsupported_without_exact() {
        let d = FiniteDist::new(vec![vec![0.0], vec![1.0]], vec![0.25, 0.75]).unwrap();
        assert!(matches!(
            d.count_prob_exact(&[1, 1]),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(
            d.expect_over_counts_exact(2, |_| rat(1, 1)),
            Err(Error::Unsupported(_))
        ));
        assert!(matches!(d.mean_exact(), Err(Error::Unsupported(_))));
    }

    #[test]
    fn count_prob_values() {
        let d = d3();
        // P((1,1,1)) = 6 · 1/2 · 1/3 · 1/6 = 1/6.
        assert_eq!(d.count_prob_exact(&[1, 1, 1]).unwrap(), rat(1, 6));
        assert!((d.count_prob(&[1, 1, 1]) - 1.0 / 6.0).abs() < 1e-16);
        assert!(d.count_prob(&[1, 1]).is_nan());
        assert_eq!(field(d.count_prob_exact(&[1, 1]).unwrap_err()), "counts");
    }

    #[test]
    fn zero_probability_atoms() {
        let d = FiniteDist::with_exact(
            vec![vec![0.0], vec![1.0], vec![2.0]],
            vec![rat(1, 2), rat(0, 1), rat(1, 2)],
        )
        .unwrap();
        assert_eq!(d.count_prob(&[1, 1, 0]), 0.0);
        assert_eq!(d.count_prob_exact(&[1, 1, 0]).unwrap(), rat(0, 1));
        assert_eq!(d.count_prob(&[1, 0, 1]), 0.5);
        let mut calls = 0;
        let e = d.expect_over_counts(3, |c| {
            calls += 1;
            assert_eq!(c[1], 0, "φ called on an impossible count vector");
            1.0
        });
        assert_eq!(calls, 4);
        assert!((e - 1.0).abs() < 1e-15);
        let e = d
            .expect_over_counts_exact(3, |c| {
                assert_eq!(c[1], 0);
                rat(1, 1)
            })
            .unwrap();
        assert_eq!(e, rat(1, 1));
        // A point mass.
        let pm = FiniteDist::new(vec![vec![0.0], vec![5.0]], vec![0.0, 1.0]).unwrap();
        assert_eq!(pm.count_prob(&[0, 7]), 1.0);
        assert_eq!(
            pm.sample_indices(&[0.0, 0.5, 0.999]).unwrap(),
            vec![1, 1, 1]
        );
    }

    #[test]
    fn datasets() {
        let d = d3();
        let s = d.dataset_from_counts(&[2, 0, 1]).unwrap();
        assert_eq!(s.points, vec![vec![-1.0], vec![-1.0], vec![2.0]]);
        let s = d.dataset_from_sequence(&[2, 0, 0]).unwrap();
        assert_eq!(s.points, vec![vec![2.0], vec![-1.0], vec![-1.0]]);
        assert_eq!(
            field(d.dataset_from_counts(&[0, 0, 0]).unwrap_err()),
            "counts"
        );
        assert_eq!(field(d.dataset_from_counts(&[1]).unwrap_err()), "counts");
        assert_eq!(field(d.dataset_from_sequence(&[]).unwrap_err()), "seq");
        assert_eq!(
            field(d.dataset_from_sequence(&[0, 3]).unwrap_err()),
            "seq[1]"
        );
    }

    #[test]
    fn sampling_rule() {
        let d = d3();
        // C = (0.5, fl(0.5 + fl(1/3)), …); u equal to a cumulative sum goes to the next atom.
        let c1: f64 = 0.5 + 1.0 / 3.0;
        let below = f64::from_bits(c1.to_bits() - 1);
        let u = [0.0, 0.49999, 0.5, 0.8, below, c1, 0.9999999999999999];
        assert_eq!(d.sample_indices(&u).unwrap(), vec![0, 0, 1, 1, 1, 2, 2]);
        assert_eq!(
            field(d.sample_indices(&[0.1, 1.0]).unwrap_err()),
            "uniforms[1]"
        );
        assert_eq!(
            field(d.sample_indices(&[-0.0, f64::NAN]).unwrap_err()),
            "uniforms[1]"
        );
        // A rounded CDF ending below 1 falls back to the last positive atom.
        let short = FiniteDist::new(
            vec![vec![0.0], vec![1.0], vec![2.0]],
            vec![0.5, 0.5 - 1e-13, 0.0],
        )
        .unwrap();
        assert_eq!(short.sample_indices(&[0.9999999999999]).unwrap(), vec![1]);
    }

    #[test]
    fn serde_round_trip_drops_exact() {
        let d = d3();
        let json = serde_json::to_string(&d).unwrap();
        let back: FiniteDist = serde_json::from_str(&json).unwrap();
        assert_eq!(back.probs, d.probs);
        assert_eq!(back.atoms, d.atoms);
        assert!(back.exact_probs.is_none());
        back.validate().unwrap();
    }
}
