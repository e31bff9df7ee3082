//! Batch rules: which data indices a stochastic first-order step evaluates (BG23 §3's disjoint
//! single-pass batches and multi-pass sampling with replacement, BG23 Thm 6's sampling without
//! replacement, ZTOH22's contiguous phases, BGM23 App. C.2's minibatches with replacement).
//!
//! Every random rule draws from the one-shot stream of its step's label
//! ([`NoiseSource::indices_at`]), so runs on neighbouring datasets with one seed are coupled (the
//! same positions are drawn) and a recorded tape replays them. Deterministic rules draw nothing
//! and leave no tape entry.

use crate::error::{invalid, Result};
use crate::rng::{NoiseSource, StepLabel};
use serde::{Deserialize, Serialize};

/// Which indices of an n-point dataset step t (1-based) evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum BatchRule {
    /// Every index 0..n, in order, at every step.
    Full,
    /// Disjoint consecutive blocks: step t evaluates [(t−1)·size, t·size) (BG23 single-pass NSEG:
    /// each point is used once). Needs size·T ≤ n.
    Disjoint {
        /// The batch size B ≥ 1.
        size: usize,
    },
    /// m indices uniformly with replacement (BG23 multi-pass NSEG; BGM23 App. C.2).
    WithReplacement {
        /// The batch size m ≥ 1.
        m: usize,
    },
    /// m distinct indices, uniformly among the m-subsets, in a uniformly random order (BG23
    /// Thm 6). Needs m ≤ n.
    WithoutReplacement {
        /// The batch size m ≥ 1.
        m: usize,
    },
    /// K contiguous phases of n̄ = ⌊n/K⌋ points: phase k (1-based) evaluates
    /// [(k−1)·n̄, k·n̄); the last n − K·n̄ points are never used (ZTOH22 Algs 2, 4, 5).
    Contiguous {
        /// The number of phases K ≥ 1 (K ≤ n).
        phases: usize,
    },
}

impl BatchRule {
    /// Check the rule against n points and T steps (phases for [`BatchRule::Contiguous`]),
    /// naming the field at fault.
    pub fn validate(&self, n: usize, steps: usize) -> Result<()> {
        if n == 0 {
            return Err(invalid("n", "a batch rule needs at least one data point"));
        }
        match *self {
            BatchRule::Full => Ok(()),
            BatchRule::Disjoint { size } => {
                if size == 0 {
                    return Err(invalid("batch.disjoint.size", "must be >= 1, got 0"));
                }
                match size.checked_mul(steps) {
                    Some(used) if used <= n => Ok(()),
                    _ => Err(invalid(
                        "batch.disjoint.size",
                        format!("{size} × {steps} steps exceeds the n = {n} points (single pass)"),
                    )),
                }
            }
            BatchRule::WithReplacement { m } => {
                if m == 0 {
                    return Err(invalid("batch.with_replacement.m", "must be >= 1, got 0"));
                }
                Ok(())
            }
            BatchRule::WithoutReplacement { m } => {
                if m == 0 || m > n {
                    return Err(invalid(
                        "batch.without_replacement.m",
                        format!("must be in [1, n = {n}], got {m}"),
                    ));
                }
                Ok(())
            }
            BatchRule::Contiguous { phases } => {
                if phases == 0 || phases > n {
                    return Err(invalid(
                        "batch.contiguous.phases",
                        format!("must be in [1, n = {n}], got {phases}"),
                    ));
                }
                if steps > phases {
                    return Err(invalid(
                        "batch.contiguous.phases",
                        format!("{steps} steps exceed the {phases} phases"),
                    ));
                }
                Ok(())
            }
        }
    }

    /// The number of indices a step evaluates on n points.
    pub fn batch_len(&self, n: usize) -> usize {
        match *self {
            BatchRule::Full => n,
            BatchRule::Disjoint { size } => size,
            BatchRule::WithReplacement { m } | BatchRule::WithoutReplacement { m } => m,
            BatchRule::Contiguous { phases } => n / phases.max(1),
        }
    }

    /// Whether the rule draws randomness.
    pub fn is_random(&self) -> bool {
        matches!(
            self,
            BatchRule::WithReplacement { .. } | BatchRule::WithoutReplacement { .. }
        )
    }

    /// The indices of step `step` (1-based) into `out`, whose length must be
    /// [`BatchRule::batch_len`]`(n)`. Random rules draw from the one-shot stream of
    /// `label`'s step `step`; deterministic ones draw nothing. The rule must have been
    /// validated for n and at least `step` steps.
    pub fn draw(
        &self,
        noise: &mut NoiseSource,
        label: &StepLabel,
        step: u64,
        n: usize,
        out: &mut [usize],
    ) -> Result<()> {
        if out.len() != self.batch_len(n) {
            return Err(invalid(
                "batch",
                format!(
                    "index buffer has length {}, the rule needs {}",
                    out.len(),
                    self.batch_len(n)
                ),
            ));
        }
        if step == 0 {
            return Err(invalid("step", "steps are numbered from 1"));
        }
        match *self {
            BatchRule::Full => {
                out.iter_mut().enumerate().for_each(|(i, o)| *o = i);
                Ok(())
            }
            BatchRule::Disjoint { .. } | BatchRule::Contiguous { .. } => {
                let b = out.len();
                let start = (step as usize - 1) * b;
                if start + b > n {
                    return Err(invalid(
                        "step",
                        format!("step {step} of batches of {b} runs past the n = {n} points"),
                    ));
                }
                out.iter_mut().enumerate().for_each(|(i, o)| *o = start + i);
                Ok(())
            }
            BatchRule::WithReplacement { .. } => noise.indices_at(label, step, n, out),
            BatchRule::WithoutReplacement { .. } => Err(crate::error::Error::Unsupported(
                "sampling without replacement is not implemented yet".into(),
            )),
        }
    }
}
