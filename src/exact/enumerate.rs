//! Enumeration of datasets over a finite universe of k atoms: as count vectors (multisets) or as
//! index sequences (ordered datasets). Both iterate lazily, one item at a time.

use std::iter::FusedIterator;

/// All count vectors c ∈ ℕᵏ with Σc = n, in increasing lexicographic order of c.
///
/// The first item is (0, …, 0, n), the last is (n, 0, …, 0); e.g. n = 2, k = 3 gives
/// (0,0,2), (0,1,1), (0,2,0), (1,0,1), (1,1,0), (2,0,0). There are C(n+k−1, k−1) items
/// ([`crate::exact::num_count_vectors`]). k = 0 yields the single empty vector when n = 0 and
/// nothing otherwise.
///
/// Memory is O(k): each step computes the lexicographic successor of the current vector in
/// O(k) time. Build with [`count_vectors`].
#[derive(Clone, Debug)]
pub struct CountVectors {
    next: Option<Vec<usize>>,
}

/// The iterator over all count vectors of length `k` summing to `n`; see [`CountVectors`].
pub fn count_vectors(n: usize, k: usize) -> CountVectors {
    let next = if k == 0 {
        (n == 0).then(Vec::new)
    } else {
        let mut c = vec![0; k];
        c[k - 1] = n;
        Some(c)
    };
    CountVectors { next }
}

impl Iterator for CountVectors {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.next.take()?;
        // Successor: let j be the last non-zero position. If j > 0, move one unit to j−1 and
        // put the remaining c_j − 1 units in the last position (the lexicographically least
        // completion). If j == 0 (or the vector is zero), current is the last item.
        if let Some(j) = current.iter().rposition(|&v| v > 0) {
            if j > 0 {
                let mut succ = current.clone();
                let rest = succ[j] - 1;
                succ[j - 1] += 1;
                succ[j] = 0;
                let last = succ.len() - 1;
                succ[last] = rest;
                self.next = Some(succ);
            }
        }
        Some(current)
    }
}

impl FusedIterator for CountVectors {}

/// All kⁿ index sequences (s₁, …, sₙ) ∈ {0, …, k−1}ⁿ in increasing lexicographic order
/// (an odometer whose last position turns fastest).
///
/// Meant for brute-force cross-checks at small n only: there are kⁿ items. Memory is O(n).
/// n = 0 yields the single empty sequence; k = 0 with n > 0 yields nothing. Build with
/// [`sequences`].
#[derive(Clone, Debug)]
pub struct Sequences {
    k: usize,
    next: Option<Vec<usize>>,
}

/// The iterator over all index sequences of length `n` over `k` symbols; see [`Sequences`].
pub fn sequences(n: usize, k: usize) -> Sequences {
    let next = if n == 0 {
        Some(Vec::new())
    } else if k == 0 {
        None
    } else {
        Some(vec![0; n])
    };
    Sequences { k, next }
}

impl Iterator for Sequences {
    type Item = Vec<usize>;

    fn next(&mut self) -> Option<Vec<usize>> {
        let current = self.next.take()?;
        let mut succ = current.clone();
        for i in (0..succ.len()).rev() {
            if succ[i] + 1 < self.k {
                succ[i] += 1;
                self.next = Some(succ);
                break;
            }
            succ[i] = 0;
        }
        Some(current)
    }
}

impl FusedIterator for Sequences {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_vectors_small() {
        let all: Vec<_> = count_vectors(2, 3).collect();
        assert_eq!(
            all,
            vec![
                vec![0, 0, 2],
                vec![0, 1, 1],
                vec![0, 2, 0],
                vec![1, 0, 1],
                vec![1, 1, 0],
                vec![2, 0, 0]
            ]
        );
        assert_eq!(
            count_vectors(0, 0).collect::<Vec<_>>(),
            vec![Vec::<usize>::new()]
        );
        assert_eq!(count_vectors(1, 0).count(), 0);
        assert_eq!(count_vectors(0, 3).collect::<Vec<_>>(), vec![vec![0, 0, 0]]);
        assert_eq!(count_vectors(5, 1).collect::<Vec<_>>(), vec![vec![5]]);
    }

    #[test]
    fn sequences_small() {
        let all: Vec<_> = sequences(2, 2).collect();
        assert_eq!(all, vec![vec![0, 0], vec![0, 1], vec![1, 0], vec![1, 1]]);
        assert_eq!(
            sequences(0, 0).collect::<Vec<_>>(),
            vec![Vec::<usize>::new()]
        );
        assert_eq!(sequences(2, 0).count(), 0);
        assert_eq!(sequences(3, 1).collect::<Vec<_>>(), vec![vec![0, 0, 0]]);
        assert_eq!(sequences(4, 3).count(), 81);
    }

    #[test]
    fn iterators_are_fused() {
        let mut it = count_vectors(1, 2);
        assert_eq!(it.by_ref().count(), 2);
        assert_eq!(it.next(), None);
        let mut it = sequences(1, 2);
        assert_eq!(it.by_ref().count(), 2);
        assert_eq!(it.next(), None);
    }
}
