//! Datasets S = (x_1, …, x_n) and the replace-one neighbouring relation (BGM23 Definition 1 and
//! §2, "Differential Privacy": datasets differing in one point).
//!
//! Points are stored row-major in one contiguous array ([`Rows`]): n·k values, no allocation per
//! point, so a dataset of n points of length k takes 8·n·k bytes and the per-sample kernels read
//! x_i = `flat[i·k .. (i+1)·k]` from one memory chain.

use crate::error::{invalid, Result};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// n points of one common length k, stored row-major in one `Vec<f64>` of n·k values. Indexing
/// (`rows[i]`) and iteration (`rows.iter()`, `&rows` in a `for` loop) give the rows as `&[f64]`
/// in index order. Serialized as a list of lists (the JSON of `Vec<Vec<f64>>`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    values: Vec<f64>,
    k: usize,
    n: usize,
}

impl Rows {
    /// The rows of a list of points of one common length; errors name the first row whose length
    /// differs from row 0's (`points[i]`).
    pub fn new(points: Vec<Vec<f64>>) -> Result<Rows> {
        Rows::from_slices(&points)
    }

    /// [`Rows::new`] from borrowed points.
    pub fn from_slices<P: AsRef<[f64]>>(points: &[P]) -> Result<Rows> {
        let k = points.first().map_or(0, |x| x.as_ref().len());
        let mut rows = Rows::with_capacity(points.len(), k);
        for (i, x) in points.iter().enumerate() {
            let x = x.as_ref();
            if x.len() != k {
                return Err(invalid(
                    format!("points[{i}]"),
                    format!(
                        "has length {}, expected {k} (the length of points[0])",
                        x.len()
                    ),
                ));
            }
            rows.values.extend_from_slice(x);
            rows.n += 1;
        }
        Ok(rows)
    }

    /// Rows of length `k` ≥ 1 from their row-major values (`values.len()` a multiple of k),
    /// without a copy. Errors name `k` or `values`.
    pub fn from_flat(values: Vec<f64>, k: usize) -> Result<Rows> {
        if k == 0 {
            return Err(invalid("k", "rows need length ≥ 1"));
        }
        if values.len() % k != 0 {
            return Err(invalid(
                "values",
                format!(
                    "has {} values, not a multiple of the row length {k}",
                    values.len()
                ),
            ));
        }
        let n = values.len() / k;
        Ok(Rows { values, k, n })
    }

    /// No rows yet, of length `k`, with room for `n` of them.
    pub fn with_capacity(n: usize, k: usize) -> Rows {
        Rows {
            values: Vec::with_capacity(n.saturating_mul(k)),
            k,
            n: 0,
        }
    }

    /// Append a row; its length must be the rows' length k (of the first row pushed, for rows
    /// made by `Rows::default()`). Errors name `row`.
    pub fn push(&mut self, x: &[f64]) -> Result<()> {
        if self.n == 0 && self.values.is_empty() && self.k == 0 {
            self.k = x.len();
        }
        if x.len() != self.k {
            return Err(invalid(
                "row",
                format!("has length {}, expected {}", x.len(), self.k),
            ));
        }
        self.values.extend_from_slice(x);
        self.n += 1;
        Ok(())
    }

    /// n, the number of rows.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// k, the length of each row.
    pub fn dim(&self) -> usize {
        self.k
    }

    /// Row i, or `None` when i ≥ n.
    pub fn get(&self, i: usize) -> Option<&[f64]> {
        (i < self.n).then(|| &self.values[i * self.k..(i + 1) * self.k])
    }

    /// Row 0, or `None` when there are no rows.
    pub fn first(&self) -> Option<&[f64]> {
        self.get(0)
    }

    /// The rows in index order.
    pub fn iter(&self) -> RowIter<'_> {
        RowIter {
            values: &self.values,
            k: self.k,
            front: 0,
            back: self.n,
        }
    }

    /// The n·k values, row-major (x_i = `as_flat()[i·k .. (i+1)·k]`).
    pub fn as_flat(&self) -> &[f64] {
        &self.values
    }

    /// The n·k values, row-major, without a copy.
    pub fn into_flat(self) -> Vec<f64> {
        self.values
    }

    /// A copy of the rows `range`.
    pub fn slice(&self, range: std::ops::Range<usize>) -> Rows {
        assert!(
            range.start <= range.end && range.end <= self.n,
            "rows {range:?} out of range for n = {}",
            self.n
        );
        Rows {
            values: self.values[range.start * self.k..range.end * self.k].to_vec(),
            k: self.k,
            n: range.end - range.start,
        }
    }

    /// The rows as one `Vec` per row (a copy).
    pub fn to_vecs(&self) -> Vec<Vec<f64>> {
        self.iter().map(<[f64]>::to_vec).collect()
    }
}

impl std::ops::Index<usize> for Rows {
    type Output = [f64];
    fn index(&self, i: usize) -> &[f64] {
        assert!(i < self.n, "row {i} out of range for n = {}", self.n);
        &self.values[i * self.k..(i + 1) * self.k]
    }
}

impl std::ops::IndexMut<usize> for Rows {
    fn index_mut(&mut self, i: usize) -> &mut [f64] {
        assert!(i < self.n, "row {i} out of range for n = {}", self.n);
        &mut self.values[i * self.k..(i + 1) * self.k]
    }
}

/// The rows of a [`Rows`] in index order (as `&[f64]`).
#[derive(Clone, Debug)]
pub struct RowIter<'a> {
    values: &'a [f64],
    k: usize,
    front: usize,
    back: usize,
}

impl<'a> Iterator for RowIter<'a> {
    type Item = &'a [f64];
    fn next(&mut self) -> Option<&'a [f64]> {
        if self.front == self.back {
            return None;
        }
        let i = self.front;
        self.front += 1;
        Some(&self.values[i * self.k..(i + 1) * self.k])
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let r = self.back - self.front;
        (r, Some(r))
    }
}

impl DoubleEndedIterator for RowIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        if self.front == self.back {
            return None;
        }
        self.back -= 1;
        let i = self.back;
        Some(&self.values[i * self.k..(i + 1) * self.k])
    }
}

impl ExactSizeIterator for RowIter<'_> {}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a [f64];
    type IntoIter = RowIter<'a>;
    fn into_iter(self) -> RowIter<'a> {
        self.iter()
    }
}

impl PartialEq<Vec<Vec<f64>>> for Rows {
    fn eq(&self, other: &Vec<Vec<f64>>) -> bool {
        self.n == other.len() && self.iter().zip(other).all(|(a, b)| a == b.as_slice())
    }
}

impl Serialize for Rows {
    fn serialize<S: Serializer>(&self, ser: S) -> std::result::Result<S::Ok, S::Error> {
        ser.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Rows {
    fn deserialize<D: Deserializer<'de>>(de: D) -> std::result::Result<Rows, D::Error> {
        let points = Vec::<Vec<f64>>::deserialize(de)?;
        Rows::new(points).map_err(serde::de::Error::custom)
    }
}

/// A dataset S ∈ Xⁿ, with each data point x ∈ ℝᵏ. Order matters: algorithms that split S into
/// chunks (BGM23 Algorithm 1) or read it in one pass (BGM23 Cor 16) see the points in this order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// The points x_1, …, x_n, each of the same length k, in one row-major array.
    pub points: Rows,
}

impl Dataset {
    /// A dataset from its points; all points must have one common, non-zero length and be finite.
    pub fn new(points: Vec<Vec<f64>>) -> Result<Self> {
        Dataset::check(&points)?;
        Ok(Dataset {
            points: Rows::new(points)?,
        })
    }

    /// A dataset from its rows (n ≥ 1, finite values; errors name `data[i]`), without a copy.
    pub fn from_rows(points: Rows) -> Result<Self> {
        if points.is_empty() {
            return Err(invalid("data", "a dataset needs at least one point"));
        }
        for (i, x) in points.iter().enumerate() {
            if x.iter().any(|v| !v.is_finite()) {
                crate::error::require_finite(&format!("data[{i}]"), x)?;
            }
        }
        Ok(Dataset { points })
    }

    fn check(points: &[Vec<f64>]) -> Result<()> {
        if points.is_empty() {
            return Err(invalid("data", "a dataset needs at least one point"));
        }
        let k = points[0].len();
        for (i, x) in points.iter().enumerate() {
            if x.len() != k {
                return Err(invalid(
                    format!("data[{i}]"),
                    format!(
                        "has length {}, expected {k} (the length of data[0])",
                        x.len()
                    ),
                ));
            }
            if x.iter().any(|v| !v.is_finite()) {
                crate::error::require_finite(&format!("data[{i}]"), x)?;
            }
        }
        Ok(())
    }

    /// n, the number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// True when the dataset has no points (never, for a dataset built by [`Dataset::new`]).
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// k, the length of each data point.
    pub fn point_dim(&self) -> usize {
        self.points.dim()
    }

    /// x_i (i < n).
    pub fn point(&self, i: usize) -> &[f64] {
        &self.points[i]
    }

    /// The n·k values, row-major (x_i = `as_flat()[i·k .. (i+1)·k]`).
    pub fn as_flat(&self) -> &[f64] {
        self.points.as_flat()
    }

    /// The neighbour S′ = S with x_i replaced by `x_new` (replace-one adjacency, BGM23 §2).
    pub fn replace_one(&self, i: usize, x_new: &[f64]) -> Result<Dataset> {
        if i >= self.len() {
            return Err(invalid(
                "index",
                format!("{i} is out of range for n = {}", self.len()),
            ));
        }
        if x_new.len() != self.point_dim() {
            return Err(invalid(
                "replacement point",
                format!("has length {}, expected {}", x_new.len(), self.point_dim()),
            ));
        }
        let mut points = self.points.clone();
        points[i].copy_from_slice(x_new);
        Ok(Dataset { points })
    }

    /// The sub-dataset of points `range` (used for the disjoint chunks of BGM23 Algorithm 1).
    pub fn slice(&self, range: std::ops::Range<usize>) -> Dataset {
        Dataset {
            points: self.points.slice(range),
        }
    }

    /// The empirical mean (1/n) Σ x_i, summed in index order.
    pub fn mean(&self) -> Vec<f64> {
        let k = self.point_dim();
        let mut m = vec![0.0; k];
        for x in &self.points {
            for (mj, xj) in m.iter_mut().zip(x) {
                *mj += xj;
            }
        }
        let n = self.len() as f64;
        m.iter_mut().for_each(|v| *v /= n);
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_layout_and_accessors() {
        let r = Rows::new(vec![vec![1.0, 2.0], vec![3.0, 4.0], vec![5.0, 6.0]]).unwrap();
        assert_eq!((r.len(), r.dim()), (3, 2));
        assert_eq!(r.as_flat(), &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(&r[1], &[3.0, 4.0]);
        assert_eq!(r.iter().next_back().unwrap(), &[5.0, 6.0]);
        assert_eq!(r.iter().len(), 3);
        assert_eq!(r.slice(1..3), vec![vec![3.0, 4.0], vec![5.0, 6.0]]);
        assert_eq!(r, Rows::from_flat(r.as_flat().to_vec(), 2).unwrap());
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, "[[1.0,2.0],[3.0,4.0],[5.0,6.0]]");
        assert_eq!(serde_json::from_str::<Rows>(&json).unwrap(), r);
        assert!(serde_json::from_str::<Rows>("[[1.0],[2.0,3.0]]").is_err());
        assert!(Rows::new(vec![vec![1.0], vec![]]).is_err());
        assert!(Rows::from_flat(vec![1.0; 3], 2).is_err());
        assert!(Rows::from_flat(vec![], 0).is_err());
        let mut p = Rows::default();
        p.push(&[1.0]).unwrap();
        assert!(p.push(&[1.0, 2.0]).is_err());
        assert_eq!(p, vec![vec![1.0]]);
    }

    #[test]
    fn dataset_keeps_its_json_and_errors() {
        let s = Dataset::new(vec![vec![0.5], vec![-1.0]]).unwrap();
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            r#"{"points":[[0.5],[-1.0]]}"#
        );
        assert!(Dataset::new(vec![vec![0.5], vec![f64::NAN]]).is_err());
        assert!(Dataset::new(vec![vec![0.5], vec![1.0, 2.0]]).is_err());
        assert!(Dataset::from_rows(Rows::default()).is_err());
        let t = s.replace_one(1, &[2.0]).unwrap();
        assert_eq!(t.points, vec![vec![0.5], vec![2.0]]);
        assert_eq!(t.mean(), vec![1.25]);
    }
}
