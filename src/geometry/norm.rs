//! ℓp norms, their duals and dual-norm maximizers.
//!
//! Conventions: p ∈ [1, ∞] with `f64::INFINITY` for ∞; the conjugate exponent is
//! q = p/(p−1) (1 ↔ ∞, 2 ↔ 2); sums accumulate in index order (see [`crate::linalg`]).

use serde::{Deserialize, Serialize};

use crate::error::{invalid, Error, Result};
use crate::linalg;

/// A norm on ℝᵈ: the Euclidean norm or an ℓp norm.
///
/// `L2` and `Lp(2.0)` evaluate identically (both call [`linalg::norm2`]) but are distinct values
/// for `PartialEq`. JSON (externally tagged, snake_case): `"l2"` and `{"lp": 1.5}`; p = ∞ is
/// written as the string `"inf"` (JSON has no infinity), and deserialization validates p.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", try_from = "NormRepr")]
pub enum Norm {
    /// ‖x‖₂.
    L2,
    /// ‖x‖_p = (Σ|x_i|^p)^{1/p}, p ∈ [1, ∞]; p = ∞ is `f64::INFINITY` (max |x_i|).
    Lp(#[serde(with = "p_serde")] f64),
}

/// The serde shape of [`Norm`], before validation.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum NormRepr {
    L2,
    Lp(#[serde(with = "p_serde")] f64),
}

impl TryFrom<NormRepr> for Norm {
    type Error = Error;
    fn try_from(r: NormRepr) -> Result<Norm> {
        match r {
            NormRepr::L2 => Ok(Norm::L2),
            NormRepr::Lp(p) => Norm::lp(p),
        }
    }
}

impl Norm {
    /// A validated ℓp norm.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `p` unless p ∈ [1, ∞] (NaN is rejected).
    pub fn lp(p: f64) -> Result<Norm> {
        validate_p("p", p)?;
        Ok(Norm::Lp(p))
    }

    /// Check that the exponent is in [1, ∞].
    ///
    /// # Errors
    /// [`Error::Invalid`] naming `p` otherwise.
    pub fn validate(&self) -> Result<()> {
        match *self {
            Norm::L2 => Ok(()),
            Norm::Lp(p) => validate_p("p", p),
        }
    }

    /// The exponent p (2 for `L2`).
    pub fn p(&self) -> f64 {
        match *self {
            Norm::L2 => 2.0,
            Norm::Lp(p) => p,
        }
    }

    /// ‖x‖, see [`lp_norm`]. NaN when the exponent is invalid.
    pub fn eval(&self, x: &[f64]) -> f64 {
        match *self {
            Norm::L2 => linalg::norm2(x),
            Norm::Lp(p) => lp_norm(x, p),
        }
    }

    /// The dual norm ‖v‖_* = max_{‖u‖≤1} ⟨v,u⟩: `L2` for `L2`, ℓq with q = p/(p−1) for ℓp
    /// (exactly 1 ↔ ∞ and 2 ↔ 2).
    pub fn dual(&self) -> Norm {
        match *self {
            Norm::L2 => Norm::L2,
            Norm::Lp(p) => Norm::Lp(dual_exponent(p)),
        }
    }

    /// The dual-norm maximizer: a vector u with ‖u‖ = 1 and ⟨v,u⟩ = ‖v‖_* (up to rounding).
    ///
    /// * 1 < p < ∞: u_i = sign(v_i)|v_i|^{q−1}/‖v‖_q^{q−1} (computed after dividing v by
    ///   max|v_i|, so no overflow); for p = 2 this is v/‖v‖₂.
    /// * p = 1: u = sign(v_k)e_k with k the **lowest index** of max |v_i|.
    /// * p = ∞: u_i = sign(v_i).
    ///
    /// Tie rule (shared with [`Domain::lmo`](crate::geometry::Domain::lmo)): a zero coefficient
    /// takes the **lower** choice, i.e. sign(0) = −1 for p = 1 and p = ∞, and for v = 0 every
    /// p < ∞ returns −e_0 (p = ∞ returns (−1, …, −1)). An empty v gives an empty u. NaN entries
    /// give NaN (or are skipped by the ℓ1 arg-max); the exponent is assumed valid.
    pub fn dual_maximizer(&self, v: &[f64]) -> Vec<f64> {
        let p = self.p();
        let d = v.len();
        if d == 0 {
            return Vec::new();
        }
        let sgn = |x: f64| if x > 0.0 { 1.0 } else { -1.0 };
        if p == f64::INFINITY {
            return v.iter().map(|&x| sgn(x)).collect();
        }
        let m = max_abs(v);
        if p == 1.0 || m == 0.0 {
            // Lowest index of the largest |v_i| (index 0 when v = 0).
            let mut k = 0;
            for i in 1..d {
                if v[i].abs() > v[k].abs() {
                    k = i;
                }
            }
            let mut u = vec![0.0; d];
            u[k] = sgn(v[k]);
            return u;
        }
        if !m.is_finite() {
            return vec![f64::NAN; d];
        }
        let q = dual_exponent(p);
        let w: Vec<f64> = v.iter().map(|x| x / m).collect();
        if p == 2.0 {
            let n = linalg::norm2(&w);
            return w.iter().map(|x| x / n).collect();
        }
        let nq = lp_norm(&w, q);
        w.iter()
            .map(|&x| {
                let a = x.abs() / nq;
                if x == 0.0 {
                    0.0
                } else {
                    sgn(x) * a.powf(q - 1.0)
                }
            })
            .collect()
    }
}

/// Check p ∈ [1, ∞] (not NaN), naming `field`.
pub(crate) fn validate_p(field: &str, p: f64) -> Result<()> {
    if p.is_nan() || p < 1.0 {
        return Err(invalid(field, format!("must be in [1, inf], got {p}")));
    }
    Ok(())
}

/// The conjugate exponent q = p/(p−1), with 1 ↦ ∞ and ∞ ↦ 1 exactly (NaN for NaN).
pub fn dual_exponent(p: f64) -> f64 {
    if p == 1.0 {
        f64::INFINITY
    } else if p == f64::INFINITY {
        1.0
    } else if p == 2.0 {
        2.0
    } else {
        p / (p - 1.0)
    }
}

fn max_abs(x: &[f64]) -> f64 {
    let mut m = 0.0_f64;
    for &v in x {
        if v.is_nan() {
            return f64::NAN;
        }
        m = m.max(v.abs());
    }
    m
}

/// ‖x‖_p for p ∈ [1, ∞].
///
/// p = 1: Σ|x_i|; p = 2: [`linalg::norm2`]; p = ∞: max|x_i|; otherwise m·(Σ(|x_i|/m)^p)^{1/p}
/// with m = max|x_i| (so neither overflow nor underflow for large or tiny entries). Sums in index
/// order. NaN entries or an invalid p (p < 1 or NaN) give NaN.
pub fn lp_norm(x: &[f64], p: f64) -> f64 {
    if p.is_nan() || p < 1.0 {
        return f64::NAN;
    }
    if p == 1.0 {
        let mut s = 0.0;
        for &v in x {
            s += v.abs();
        }
        return s;
    }
    if p == 2.0 {
        return linalg::norm2(x);
    }
    let m = max_abs(x);
    if p == f64::INFINITY || m == 0.0 || !m.is_finite() {
        return m;
    }
    let mut s = 0.0;
    for &v in x {
        s += (v.abs() / m).powf(p);
    }
    m * s.powf(1.0 / p)
}

/// The smallest C with ‖u‖_s ≤ C‖u‖_p for every u ∈ ℝᵈ: C = d^{max(0, 1/s − 1/p)} (1/∞ = 0).
///
/// So max_{‖u‖_p ≤ 1} ‖u‖_s = `norm_ratio(d, p, s)`, attained at a vertex ±e_i when s ≥ p and at
/// (±1, …, ±1)·d^{−1/p} when s < p. The proof of BGM24 Thm 4 uses it as ‖u‖₂ ≤ d^{1/2−1/p*}‖u‖_{p*}
/// and ‖u‖_{p*} ≤ d^{1/p*}‖u‖_∞. Exponents are assumed valid.
pub fn norm_ratio(d: usize, p: f64, s: f64) -> f64 {
    let e = (1.0 / s - 1.0 / p).max(0.0);
    if e == 0.0 {
        1.0
    } else {
        (d as f64).powf(e)
    }
}

/// Serde for an exponent p ∈ [1, ∞]: finite values as JSON numbers, ∞ as the string `"inf"`
/// (`"infinity"` and `"+inf"` are accepted on input, case-insensitively).
pub(crate) mod p_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
        if *p == f64::INFINITY {
            s.serialize_str("inf")
        } else {
            s.serialize_f64(*p)
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum NumOrStr {
        Num(f64),
        Str(String),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
        match NumOrStr::deserialize(d)? {
            NumOrStr::Num(p) => Ok(p),
            NumOrStr::Str(s) => match s.to_ascii_lowercase().as_str() {
                "inf" | "+inf" | "infinity" => Ok(f64::INFINITY),
                other => Err(serde::de::Error::custom(format!(
                    "p: expected a number or \"inf\", got {other:?}"
                ))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closed_form_values() {
        let x = [3.0, -4.0];
        assert_eq!(lp_norm(&x, 1.0), 7.0);
        assert_eq!(lp_norm(&x, 2.0), 5.0);
        assert_eq!(lp_norm(&x, f64::INFINITY), 4.0);
        assert!((lp_norm(&x, 3.0) - 91f64.cbrt()).abs() < 1e-14);
        assert!(lp_norm(&x, 0.5).is_nan());
        assert!(lp_norm(&[f64::NAN, 1.0], 3.0).is_nan());
        assert_eq!(lp_norm(&[], 3.0), 0.0);
        // No overflow / underflow for extreme scales.
        assert!((lp_norm(&[1e300, 1e300], 3.0) / (1e300 * 2f64.cbrt()) - 1.0).abs() < 1e-15);
        assert!((lp_norm(&[1e-300, 1e-300], 3.0) / (1e-300 * 2f64.cbrt()) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn dual_exponents() {
        assert_eq!(dual_exponent(1.0), f64::INFINITY);
        assert_eq!(dual_exponent(f64::INFINITY), 1.0);
        assert_eq!(dual_exponent(2.0), 2.0);
        assert!((dual_exponent(3.0) - 1.5).abs() < 1e-15);
        assert_eq!(Norm::L2.dual(), Norm::L2);
        assert_eq!(Norm::Lp(1.0).dual(), Norm::Lp(f64::INFINITY));
    }

    #[test]
    fn tie_rules() {
        assert_eq!(
            Norm::Lp(1.0).dual_maximizer(&[1.0, -2.0, 2.0]),
            vec![0.0, -1.0, 0.0]
        );
        assert_eq!(Norm::Lp(1.0).dual_maximizer(&[0.0, 0.0]), vec![-1.0, 0.0]);
        assert_eq!(Norm::L2.dual_maximizer(&[0.0, 0.0]), vec![-1.0, 0.0]);
        assert_eq!(Norm::Lp(3.0).dual_maximizer(&[0.0, 0.0]), vec![-1.0, 0.0]);
        assert_eq!(
            Norm::Lp(f64::INFINITY).dual_maximizer(&[2.0, 0.0, -1.0]),
            vec![1.0, -1.0, -1.0]
        );
        assert!(Norm::L2.dual_maximizer(&[]).is_empty());
    }

    #[test]
    fn serde_shapes() {
        assert_eq!(serde_json::to_string(&Norm::L2).unwrap(), "\"l2\"");
        assert_eq!(
            serde_json::to_string(&Norm::Lp(1.5)).unwrap(),
            "{\"lp\":1.5}"
        );
        let inf = Norm::Lp(f64::INFINITY);
        let s = serde_json::to_string(&inf).unwrap();
        assert_eq!(s, "{\"lp\":\"inf\"}");
        assert_eq!(serde_json::from_str::<Norm>(&s).unwrap(), inf);
        let err = serde_json::from_str::<Norm>("{\"lp\":0.5}").unwrap_err();
        assert!(err.to_string().contains("invalid p"), "{err}");
        assert!(serde_json::from_str::<Norm>("{\"lp\":\"big\"}").is_err());
    }

    #[test]
    fn norm_ratio_values() {
        assert_eq!(norm_ratio(4, 1.0, 2.0), 1.0);
        assert!((norm_ratio(4, 2.0, 1.0) - 2.0).abs() < 1e-15);
        assert!((norm_ratio(4, f64::INFINITY, 2.0) - 2.0).abs() < 1e-15);
        assert!((norm_ratio(9, f64::INFINITY, 1.0) - 9.0).abs() < 1e-13);
    }
}
