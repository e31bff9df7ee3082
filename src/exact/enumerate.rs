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

/// One step of a [`CountWalk`]: the successor of c in [`count_vectors`] order, with j the last
/// position where c is non-zero (j ≥ 1), moves one unit from position j to j − 1 and the other
/// c_j − 1 units of position j to the last position (they stay at j when j is the last position).
///
/// Every factor of the multinomial weight other than those at j − 1, j and the last position is
/// unchanged, so the multinomial coefficient n!/Πcᵢ! changes by the ratio of small integers
/// `moved / (prev + 1)` (the terms c_j! and (c_j − 1)! at the two ends cancel to c_j), and a
/// product Πaᵢ^{cᵢ} by a_{j−1}/a_j when j is the last position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CountStep {
    /// The position j the unit is taken from (the last non-zero position before the step).
    pub from: usize,
    /// c_j before the step (≥ 1).
    pub moved: usize,
    /// c_{j−1} before the step.
    pub prev: usize,
}

/// The count vectors of [`count_vectors`], in the same order, walked in place: no allocation
/// per vector, and each [`CountWalk::advance`] reports the [`CountStep`] it made so that weights
/// can be updated incrementally instead of recomputed (see [`CountStep`] for the ratios).
#[derive(Clone, Debug)]
pub struct CountWalk {
    c: Vec<usize>,
}

impl CountWalk {
    /// The walk over count vectors of length `k` summing to `n`, positioned at the first one,
    /// (0, …, 0, n); `None` when there are none (k = 0 and n > 0).
    pub fn new(n: usize, k: usize) -> Option<CountWalk> {
        if k == 0 {
            return (n == 0).then(|| CountWalk { c: Vec::new() });
        }
        let mut c = vec![0; k];
        c[k - 1] = n;
        Some(CountWalk { c })
    }

    /// The current count vector.
    pub fn counts(&self) -> &[usize] {
        &self.c
    }

    /// Move to the lexicographic successor and return the step made, or return `None` (and stay
    /// put) when the current vector is the last one, (n, 0, …, 0).
    pub fn advance(&mut self) -> Option<CountStep> {
        let j = self.c.iter().rposition(|&v| v > 0)?;
        if j == 0 {
            return None;
        }
        let step = CountStep {
            from: j,
            moved: self.c[j],
            prev: self.c[j - 1],
        };
        let last = self.c.len() - 1;
        self.c[j - 1] += 1;
        self.c[j] = 0;
        self.c[last] = step.moved - 1;
        Some(step)
    }
}

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

/// One replace-one move on a multiset dataset: from the count vector `counts`, one point of atom
/// `from` is replaced by atom `to` ≠ `from`, giving `neighbour` (counts with one unit moved).
/// These are all the replace-one neighbour pairs (S, S′) of BGM23 Definition 1 and KLLW22
/// Definition 3 for an algorithm that depends on S only through its counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplaceOneMove {
    /// The count vector of S.
    pub counts: Vec<usize>,
    /// The atom a point of S is taken from (`counts[from] > 0`).
    pub from: usize,
    /// The atom it is replaced by.
    pub to: usize,
    /// The count vector of S′.
    pub neighbour: Vec<usize>,
}

impl ReplaceOneMove {
    /// The index in the sorted dataset of [`dataset_points`] of the first point of atom `from`:
    /// the position i at which S and S′ (each sorted by atom) differ after re-sorting S′.
    pub fn index(&self) -> usize {
        self.counts[..self.from].iter().sum()
    }
}

/// Every replace-one move over every count vector of size n on k atoms, in the order: count
/// vectors as [`count_vectors`], then `from` ascending, then `to` ascending. There are
/// Σ_c |{a : c_a > 0}|·(k − 1) moves.
pub fn replace_one_moves(n: usize, k: usize) -> impl Iterator<Item = ReplaceOneMove> {
    count_vectors(n, k).flat_map(move |c| {
        let occupied: Vec<usize> = (0..k).filter(|&a| c[a] > 0).collect();
        occupied.into_iter().flat_map(move |a| {
            let c = c.clone();
            (0..k).filter(move |&b| b != a).map(move |b| {
                let mut neighbour = c.clone();
                neighbour[a] -= 1;
                neighbour[b] += 1;
                ReplaceOneMove {
                    counts: c.clone(),
                    from: a,
                    to: b,
                    neighbour,
                }
            })
        })
    })
}

/// The points of the dataset with count vector `counts` over `support`, sorted by atom: atom j
/// repeated `counts[j]` times, in atom order.
pub fn dataset_points(support: &[Vec<f64>], counts: &[usize]) -> Vec<Vec<f64>> {
    let mut pts = Vec::with_capacity(counts.iter().sum());
    for (atom, &cj) in support.iter().zip(counts) {
        for _ in 0..cj {
            pts.push(atom.clone());
        }
    }
    pts
}

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
    fn count_walk_matches_count_vectors_and_reports_its_steps() {
        for (n, k) in [(0, 0), (3, 0), (0, 3), (5, 1), (2, 3), (7, 4), (6, 2)] {
            let all: Vec<_> = count_vectors(n, k).collect();
            let Some(mut w) = CountWalk::new(n, k) else {
                assert!(all.is_empty());
                continue;
            };
            let mut seen = vec![w.counts().to_vec()];
            loop {
                let before = w.counts().to_vec();
                let Some(s) = w.advance() else { break };
                assert_eq!(before[s.from], s.moved);
                assert_eq!(before[s.from - 1], s.prev);
                assert_eq!(w.counts()[s.from - 1], s.prev + 1);
                seen.push(w.counts().to_vec());
            }
            assert_eq!(w.advance(), None, "fused at the last vector");
            assert_eq!(seen, all, "n = {n}, k = {k}");
        }
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

    #[test]
    fn replace_one_moves_small() {
        // n = 1, k = 3: three count vectors, one occupied atom each, two targets: 6 moves.
        let m: Vec<_> = replace_one_moves(1, 3).collect();
        assert_eq!(m.len(), 6);
        assert_eq!(m[0].counts, vec![0, 0, 1]);
        assert_eq!((m[0].from, m[0].to), (2, 0));
        assert_eq!(m[0].neighbour, vec![1, 0, 0]);
        // n = 2, k = 2: (0,2) → 1 move, (1,1) → 2 moves, (2,0) → 1 move.
        let m: Vec<_> = replace_one_moves(2, 2).collect();
        assert_eq!(m.len(), 4);
        for mv in &m {
            assert_eq!(mv.neighbour.iter().sum::<usize>(), 2);
            assert_eq!(mv.counts[mv.from], mv.neighbour[mv.from] + 1);
            assert_eq!(mv.counts[mv.to] + 1, mv.neighbour[mv.to]);
        }
        assert_eq!(m[2].index(), 1);
    }

    #[test]
    fn dataset_points_sorted_by_atom() {
        let support = vec![vec![1.0], vec![2.0], vec![3.0]];
        assert_eq!(
            dataset_points(&support, &[2, 0, 1]),
            vec![vec![1.0], vec![1.0], vec![3.0]]
        );
    }
}
