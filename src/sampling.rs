//! Batch rules: which data indices a stochastic first-order step evaluates (BG23 §3's disjoint
//! single-pass batches and multi-pass sampling with replacement, BG23 Thm 6's sampling without
//! replacement, ZTOH22's contiguous phases, BGM23 App. C.2's minibatches with replacement).
//!
//! Every random rule draws from the one-shot stream of its step's label
//! ([`NoiseSource::indices_at`] with replacement, [`NoiseSource::distinct_indices_at`] without:
//! recipe steps 6 and 9 of `fixtures/RANDOMNESS.md`, tape kinds `index` and `distinct`), so runs on neighbouring datasets with one seed are coupled (the
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
            BatchRule::WithoutReplacement { .. } => noise.distinct_indices_at(label, step, n, out),
        }
    }
}

/// The serde form of a [`BatchRule`] inside an SGDA configuration, which keeps the format of
/// the configurations and fixtures written before the rules existed: `"full"` and
/// `{"with_replacement": m}` (a bare number) read and write exactly as SGDA's former `Batch`
/// enum did; the other rules use [`BatchRule`]'s own form (`{"disjoint": {"size": B}}`,
/// `{"without_replacement": {"m": m}}`, `{"contiguous": {"phases": K}}`), which is also accepted
/// for the first two on input. Use as `#[serde(with = "crate::sampling::sgda_serde")]`.
pub mod sgda_serde {
    use super::BatchRule;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Write `rule` in the SGDA form.
    pub fn serialize<S: Serializer>(rule: &BatchRule, s: S) -> Result<S::Ok, S::Error> {
        match *rule {
            BatchRule::WithReplacement { m } => {
                let mut map = std::collections::BTreeMap::new();
                map.insert("with_replacement", m);
                map.serialize(s)
            }
            ref other => other.serialize(s),
        }
    }

    /// Read a rule in the SGDA form or in [`BatchRule`]'s own.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BatchRule, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        if let Some(m) = v
            .as_object()
            .filter(|o| o.len() == 1)
            .and_then(|o| o.get("with_replacement"))
            .filter(|m| m.is_number())
        {
            let m = m
                .as_u64()
                .and_then(|m| usize::try_from(m).ok())
                .ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "batch.with_replacement: m must be a non-negative integer, got {m}"
                    ))
                })?;
            return Ok(BatchRule::WithReplacement { m });
        }
        BatchRule::deserialize(v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{DrawValues, NoiseSource, StepLabel};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Holder {
        #[serde(with = "sgda_serde")]
        batch: BatchRule,
    }

    #[test]
    fn sgda_form_reads_and_writes_the_former_batch_format() {
        for (json, rule) in [
            (r#"{"batch":"full"}"#, BatchRule::Full),
            (
                r#"{"batch":{"with_replacement":7}}"#,
                BatchRule::WithReplacement { m: 7 },
            ),
            (
                r#"{"batch":{"without_replacement":{"m":3}}}"#,
                BatchRule::WithoutReplacement { m: 3 },
            ),
            (
                r#"{"batch":{"disjoint":{"size":2}}}"#,
                BatchRule::Disjoint { size: 2 },
            ),
            (
                r#"{"batch":{"contiguous":{"phases":4}}}"#,
                BatchRule::Contiguous { phases: 4 },
            ),
        ] {
            let h: Holder = serde_json::from_str(json).unwrap();
            assert_eq!(h.batch, rule);
            assert_eq!(serde_json::to_string(&h).unwrap(), json);
        }
        let h: Holder = serde_json::from_str(r#"{"batch":{"with_replacement":{"m":5}}}"#).unwrap();
        assert_eq!(h.batch, BatchRule::WithReplacement { m: 5 });
        for bad in [
            r#"{"batch":{"with_replacement":-1}}"#,
            r#"{"batch":{"with_replacement":1.5}}"#,
            r#"{"batch":"sometimes"}"#,
        ] {
            assert!(serde_json::from_str::<Holder>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn rules_draw_what_they_promise_and_random_ones_replay() {
        let label = StepLabel::new("t/batch/step=");
        let n = 6;
        let cases = [
            (BatchRule::Full, 2usize),
            (BatchRule::Disjoint { size: 2 }, 3),
            (BatchRule::WithReplacement { m: 4 }, 3),
            (BatchRule::WithoutReplacement { m: 6 }, 3),
            (BatchRule::Contiguous { phases: 3 }, 3),
        ];
        for (rule, steps) in cases {
            rule.validate(n, steps).unwrap();
            let mut rec = NoiseSource::recording(9);
            let mut seen = Vec::new();
            for t in 1..=steps as u64 {
                let mut out = vec![0; rule.batch_len(n)];
                rule.draw(&mut rec, &label, t, n, &mut out).unwrap();
                match rule {
                    BatchRule::Full => assert_eq!(out, (0..n).collect::<Vec<_>>()),
                    BatchRule::Disjoint { size } | BatchRule::Contiguous { phases: size } => {
                        let b = if let BatchRule::Contiguous { .. } = rule {
                            n / size
                        } else {
                            size
                        };
                        let start = (t as usize - 1) * b;
                        assert_eq!(out, (start..start + b).collect::<Vec<_>>());
                    }
                    BatchRule::WithoutReplacement { .. } => {
                        let mut s = out.clone();
                        s.sort_unstable();
                        assert_eq!(s, (0..n).collect::<Vec<_>>(), "m = n: a permutation");
                    }
                    BatchRule::WithReplacement { .. } => assert!(out.iter().all(|&i| i < n)),
                }
                seen.push(out);
            }
            let tape = rec.into_tape().unwrap();
            assert_eq!(tape.len(), if rule.is_random() { steps } else { 0 });
            if let BatchRule::WithoutReplacement { .. } = rule {
                assert!(matches!(
                    tape.draws[0].values,
                    DrawValues::Distinct { n: 6, .. }
                ));
            }
            let mut rep = NoiseSource::replay(tape);
            for (t, want) in seen.iter().enumerate() {
                let mut out = vec![0; rule.batch_len(n)];
                rule.draw(&mut rep, &label, t as u64 + 1, n, &mut out)
                    .unwrap();
                assert_eq!(&out, want);
            }
        }
        assert!(BatchRule::WithoutReplacement { m: 7 }
            .validate(6, 1)
            .is_err());
    }
}
