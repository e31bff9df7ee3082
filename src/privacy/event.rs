//! The DpEvent ledger: what a private algorithm did, as a tree an accountant can price.
//! JSON form: serde's externally tagged, snake_case representation, e.g.
//! `{"self_composed": {"count": 6000, "event": {"poisson_sampled": {"q": 0.0025, "event":
//! {"gaussian": {"noise_multiplier": 1.3}}}}}}`.

use serde::{Deserialize, Serialize};

/// The neighbouring relation a guarantee is stated under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Neighbouring {
    /// Add or remove one record.
    AddRemove,
    /// Replace one record (the papers' adjacency, e.g. BGM23 §2, the definition of differential privacy).
    ReplaceOne,
}

/// A privacy event. Unknown fields are refused (a misspelt or extra parameter is an error, not
/// silently dropped).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DpEvent {
    /// A Gaussian mechanism with noise standard deviation = noise_multiplier × ℓ2 sensitivity.
    Gaussian {
        /// σ/Δ.
        noise_multiplier: f64,
    },
    /// A Laplace mechanism with scale = noise_multiplier × ℓ1 sensitivity.
    Laplace {
        /// b/Δ₁.
        noise_multiplier: f64,
    },
    /// The same event composed `count` times.
    SelfComposed {
        /// k.
        count: u64,
        /// The event.
        event: Box<DpEvent>,
    },
    /// Sequential composition of events.
    Composed(Vec<DpEvent>),
    /// Poisson subsampling with rate q.
    PoissonSampled {
        /// q ∈ (0, 1].
        q: f64,
        /// The event run on the sample.
        event: Box<DpEvent>,
    },
    /// A fixed-size sample of m of n records without replacement.
    SampledWithoutReplacement {
        /// n.
        n: u64,
        /// m.
        m: u64,
        /// The event run on the sample.
        event: Box<DpEvent>,
    },
    /// m records drawn with replacement out of n.
    SampledWithReplacement {
        /// n.
        n: u64,
        /// m.
        m: u64,
        /// The event run on the sample.
        event: Box<DpEvent>,
    },
    /// Events run on disjoint parts of the data (parallel composition, BGM23 Thm 8).
    ParallelComposed(Vec<DpEvent>),
    /// Data-independent processing of a released value: no privacy cost.
    PostProcessing,
    /// Nothing data-dependent was released.
    NoOp,
}

/// The event tree of one run with the relation it is stated under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrivacyLedger {
    /// The neighbouring relation.
    pub relation: Neighbouring,
    /// The event.
    pub event: DpEvent,
}

use crate::error::{invalid, Result};

/// The largest event tree accepted (nodes, counting every list entry and wrapper).
pub const MAX_EVENT_NODES: usize = 1_000_000;

impl DpEvent {
    /// Check every parameter of the tree: noise multipliers > 0 and finite, q ∈ (0, 1],
    /// 1 ≤ m ≤ n, count ≥ 1; errors name the path of the offending field, e.g.
    /// `event.self_composed.event.poisson_sampled.q`.
    ///
    /// Size limits, checked here before any accountant allocates: at most [`MAX_EVENT_NODES`]
    /// nodes in the tree, and the product of the nested `self_composed` counts along any path
    /// must fit in a u64 (the accountants multiply them).
    pub fn validate(&self) -> Result<()> {
        self.validate_at(&|| "event".to_string())?;
        let mut nodes = 0usize;
        self.check_sizes(1, &mut nodes, &|| "event".to_string())
    }

    fn check_sizes(&self, mult: u64, nodes: &mut usize, path: &dyn Fn() -> String) -> Result<()> {
        *nodes += 1;
        if *nodes > MAX_EVENT_NODES {
            return Err(invalid(
                path(),
                format!("the event tree has more than MAX_EVENT_NODES = {MAX_EVENT_NODES} nodes"),
            ));
        }
        match self {
            DpEvent::SelfComposed { count, event } => {
                let m = mult.checked_mul(*count).ok_or_else(|| {
                    invalid(
                        format!("{}.self_composed.count", path()),
                        format!(
                            "the nested counts multiply to more than u64::MAX ({mult} × {count})"
                        ),
                    )
                })?;
                event.check_sizes(m, nodes, &|| format!("{}.self_composed.event", path()))
            }
            DpEvent::Composed(v) | DpEvent::ParallelComposed(v) => {
                let name = if matches!(self, DpEvent::Composed(_)) {
                    "composed"
                } else {
                    "parallel_composed"
                };
                for (i, e) in v.iter().enumerate() {
                    e.check_sizes(mult, nodes, &|| format!("{}.{name}[{i}]", path()))?;
                }
                Ok(())
            }
            DpEvent::PoissonSampled { event, .. } => {
                event.check_sizes(mult, nodes, &|| format!("{}.poisson_sampled.event", path()))
            }
            DpEvent::SampledWithoutReplacement { event, .. }
            | DpEvent::SampledWithReplacement { event, .. } => {
                event.check_sizes(mult, nodes, &|| format!("{}.sampled.event", path()))
            }
            _ => Ok(()),
        }
    }

    /// The path is built only when an error is reported: validating a list of 10⁵ events formats
    /// nothing on success.
    fn validate_at(&self, path: &dyn Fn() -> String) -> Result<()> {
        let pos = |field: &str, v: f64| -> Result<()> {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(invalid(
                    format!("{}.{field}", path()),
                    format!("must be finite and > 0, got {v}"),
                ))
            }
        };
        match self {
            DpEvent::Gaussian { noise_multiplier } => {
                pos("gaussian.noise_multiplier", *noise_multiplier)
            }
            DpEvent::Laplace { noise_multiplier } => {
                pos("laplace.noise_multiplier", *noise_multiplier)
            }
            DpEvent::SelfComposed { count, event } => {
                if *count == 0 {
                    return Err(invalid(
                        format!("{}.self_composed.count", path()),
                        "must be ≥ 1",
                    ));
                }
                event.validate_at(&|| format!("{}.self_composed.event", path()))
            }
            DpEvent::Composed(v) | DpEvent::ParallelComposed(v) => {
                let name = if matches!(self, DpEvent::Composed(_)) {
                    "composed"
                } else {
                    "parallel_composed"
                };
                for (i, e) in v.iter().enumerate() {
                    e.validate_at(&|| format!("{}.{name}[{i}]", path()))?;
                }
                Ok(())
            }
            DpEvent::PoissonSampled { q, event } => {
                if !(q.is_finite() && *q > 0.0 && *q <= 1.0) {
                    return Err(invalid(
                        format!("{}.poisson_sampled.q", path()),
                        format!("must be in (0, 1], got {q}"),
                    ));
                }
                event.validate_at(&|| format!("{}.poisson_sampled.event", path()))
            }
            DpEvent::SampledWithoutReplacement { n, m, event }
            | DpEvent::SampledWithReplacement { n, m, event } => {
                let name = if matches!(self, DpEvent::SampledWithoutReplacement { .. }) {
                    "sampled_without_replacement"
                } else {
                    "sampled_with_replacement"
                };
                if *n == 0 || *m == 0 || (*m > *n && name == "sampled_without_replacement") {
                    return Err(invalid(
                        format!("{}.{name}.m", path()),
                        format!("need 1 ≤ m ≤ n (got n = {n}, m = {m})"),
                    ));
                }
                event.validate_at(&|| format!("{}.{name}.event", path()))
            }
            DpEvent::PostProcessing | DpEvent::NoOp => Ok(()),
        }
    }
}

/// A run of one subsampled Gaussian step: the ledger shape
/// `self_composed{k_1, … self_composed{k_j, sampled_{with|without}_replacement{n, m,
/// gaussian{z}}}}` (j ≥ 0) that noisy SGDA and the noisy-SGDA rounds of recursive regularization
/// record. The one parser of that shape: the calibration's lower bound, the noise ↔ ledger and
/// the release-audit claims all read it here.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampledGaussianSteps {
    /// How the batch is drawn (n and m of the sampling node).
    pub sampling: crate::privacy::replacement::Sampling,
    /// k_1⋯k_j, the number of steps (1 without a `self_composed` wrapper).
    pub steps: u64,
    /// z = σ/Δ of the Gaussian run on each batch.
    pub noise_multiplier: f64,
}

impl SampledGaussianSteps {
    /// m, the batch size.
    pub fn batch(&self) -> u64 {
        use crate::privacy::replacement::Sampling;
        match self.sampling {
            Sampling::WithReplacement { m, .. } | Sampling::WithoutReplacement { m, .. } => m,
            Sampling::Full => 0,
        }
    }
}

impl DpEvent {
    /// Peel the nested `self_composed` wrappers: (k_1⋯k_j, the innermost event), (1, self) when
    /// the event is not self-composed; `None` when the product overflows u64 (refused by
    /// [`DpEvent::validate`]).
    pub fn peel_self_composed(&self) -> Option<(u64, &DpEvent)> {
        match self {
            DpEvent::SelfComposed { count, event } => {
                let (k, inner) = event.peel_self_composed()?;
                Some((k.checked_mul(*count)?, inner))
            }
            _ => Some((1, self)),
        }
    }

    /// The whole event as [`SampledGaussianSteps`], `None` for any other shape.
    pub fn sampled_gaussian_steps(&self) -> Option<SampledGaussianSteps> {
        use crate::privacy::replacement::Sampling;
        let (steps, inner) = self.peel_self_composed()?;
        let (sampling, event) = match inner {
            DpEvent::SampledWithReplacement { n, m, event } => {
                (Sampling::WithReplacement { n: *n, m: *m }, event)
            }
            DpEvent::SampledWithoutReplacement { n, m, event } => {
                (Sampling::WithoutReplacement { n: *n, m: *m }, event)
            }
            _ => return None,
        };
        match event.as_ref() {
            DpEvent::Gaussian { noise_multiplier } => Some(SampledGaussianSteps {
                sampling,
                steps,
                noise_multiplier: *noise_multiplier,
            }),
            _ => None,
        }
    }

    /// The first subtree of the [`SampledGaussianSteps`] shape in tree order, looking inside
    /// `composed` and `parallel_composed` lists (e.g. noisy SGDA's ledger followed by its
    /// post-processing, or the first round of recursive regularization).
    pub fn find_sampled_gaussian_steps(&self) -> Option<SampledGaussianSteps> {
        if let Some(s) = self.sampled_gaussian_steps() {
            return Some(s);
        }
        match self {
            DpEvent::Composed(v) | DpEvent::ParallelComposed(v) => {
                v.iter().find_map(DpEvent::find_sampled_gaussian_steps)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod shape_tests {
    use super::*;
    use crate::privacy::replacement::Sampling;

    fn sampled(with: bool) -> DpEvent {
        let event = Box::new(DpEvent::Gaussian {
            noise_multiplier: 1.5,
        });
        if with {
            DpEvent::SampledWithReplacement { n: 50, m: 5, event }
        } else {
            DpEvent::SampledWithoutReplacement { n: 50, m: 5, event }
        }
    }

    fn times(count: u64, event: DpEvent) -> DpEvent {
        DpEvent::SelfComposed {
            count,
            event: Box::new(event),
        }
    }

    /// Nested counts multiply, the sampling and z are read off the innermost nodes, the first
    /// match in a list is found, and other shapes (or an overflowing product) give None.
    #[test]
    fn sampled_gaussian_steps_shapes() {
        let s = times(3, times(4, sampled(true)))
            .sampled_gaussian_steps()
            .unwrap();
        assert_eq!(
            (s.sampling, s.steps, s.noise_multiplier, s.batch()),
            (Sampling::WithReplacement { n: 50, m: 5 }, 12, 1.5, 5)
        );
        let s = sampled(false).sampled_gaussian_steps().unwrap();
        assert_eq!(
            (s.sampling, s.steps),
            (Sampling::WithoutReplacement { n: 50, m: 5 }, 1)
        );
        let list = DpEvent::Composed(vec![
            DpEvent::PostProcessing,
            DpEvent::ParallelComposed(vec![times(7, sampled(true)), times(9, sampled(true))]),
        ]);
        assert_eq!(list.sampled_gaussian_steps(), None);
        assert_eq!(list.find_sampled_gaussian_steps().unwrap().steps, 7);
        let laplace = times(
            2,
            DpEvent::SampledWithReplacement {
                n: 5,
                m: 1,
                event: Box::new(DpEvent::Laplace {
                    noise_multiplier: 1.0,
                }),
            },
        );
        assert_eq!(laplace.find_sampled_gaussian_steps(), None);
        assert_eq!(
            times(u64::MAX, times(2, sampled(true))).sampled_gaussian_steps(),
            None
        );
        assert_eq!(
            times(5, DpEvent::NoOp).peel_self_composed(),
            Some((5, &DpEvent::NoOp))
        );
    }
}
