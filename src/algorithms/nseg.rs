//! NSEG: noisy stochastic extragradient (BG23 Algorithm 1), a named layer on the extragradient engine.
//!
//! NSEG is [`Extragradient`] with the output of Algorithm 1 line 8 (the γ-weighted average of the
//! extrapolated points w_t, [`Averaging::Extrapolated`]), two noisy operator evaluations per
//! iteration (eq. (3.1)), and one of BG23's three ways of forming the batches:
//!
//! * [`NsegVariant::SinglePass`]: disjoint batches B¹_t, B²_t of size B (§3, Prop 5, Cor 1);
//!   the 2T batches must fit in the data, 2TB ≤ n, checked here;
//! * [`NsegVariant::FullBatch`]: F_{1,t} = F_S + ξ¹_t, F_{2,t} = F_S + ξ²_t (Thm 3 part 1,
//!   A_batch-EG);
//! * [`NsegVariant::MultiPass`]: i(1,t), i(2,t) uniform on [n] independently (eq. (4.16),
//!   Thm 3 part 2, Prop 7, Thm 4), m = 1 index per evaluation as in the paper (m > 1 allowed).
//!
//! The loop, the stream labels (`{prefix}eg/batch/eval=e`, `{prefix}eg/noise/eval=e`), the
//! per-point evaluation count and the privacy ledger ([`crate::algorithms::vi::batch_ledger`]:
//! parallel composition of 2T Gaussians for single pass, 2T-fold composition for full batch,
//! 2T with-replacement subsampled Gaussians for multi-pass) are the engine's; nothing is
//! re-implemented here. The paper's σ and step policies are in [`crate::papers::bg23::nseg`].

use crate::algorithms::extragradient::{Averaging, Extragradient, ExtragradientRun};
use crate::algorithms::vi::{StepSchedule, ViAlgorithm, ViOutput};
use crate::error::{invalid, Result};
use crate::problem::{Dataset, MonotoneOp};
use crate::rng::NoiseSource;
use crate::sampling::BatchRule;
use serde::{Deserialize, Serialize};

/// How NSEG forms its batches (BG23 §3 and §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum NsegVariant {
    /// Disjoint batches of size B: evaluation e uses points [(e−1)B, eB); needs 2TB ≤ n.
    SinglePass {
        /// B ≥ 1.
        batch: usize,
    },
    /// Every evaluation uses the whole dataset (A_batch-EG of BG23 Thm 3).
    FullBatch,
    /// Each evaluation draws m indices uniformly with replacement (eq. (4.16): m = 1).
    MultiPass {
        /// m ≥ 1 (BG23: 1).
        m: usize,
    },
}

impl NsegVariant {
    /// The engine's batch rule.
    pub fn batch_rule(&self) -> BatchRule {
        match *self {
            NsegVariant::SinglePass { batch } => BatchRule::Disjoint { size: batch },
            NsegVariant::FullBatch => BatchRule::Full,
            NsegVariant::MultiPass { m } => BatchRule::WithReplacement { m },
        }
    }
}

/// BG23 Algorithm 1 (NSEG).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nseg {
    /// The batch variant.
    pub variant: NsegVariant,
    /// T ≥ 1 iterations (2T noisy operator evaluations).
    pub steps: usize,
    /// γ_1..γ_T.
    pub schedule: StepSchedule,
    /// u_0 ∈ W.
    pub start: Vec<f64>,
    /// σ_t ≡ σ ≥ 0 of ξ¹_t, ξ²_t ∼ N(0, σ²I_d).
    pub sigma: f64,
    /// M = sup_W ‖F_β‖ for the ledger (None: the family's constants over the data).
    #[serde(default)]
    pub operator_bound: Option<f64>,
    /// Prepended to every stream label.
    #[serde(default)]
    pub label_prefix: String,
}

impl Nseg {
    /// NSEG with the variant, T ≥ 1, the schedule, u_0 and σ ≥ 0; errors name the field.
    pub fn new(
        variant: NsegVariant,
        steps: usize,
        schedule: StepSchedule,
        start: Vec<f64>,
        sigma: f64,
    ) -> Result<Nseg> {
        let a = Nseg {
            variant,
            steps,
            schedule,
            start,
            sigma,
            operator_bound: None,
            label_prefix: String::new(),
        };
        a.engine()?;
        Ok(a)
    }

    /// Use M for the ledger.
    pub fn with_operator_bound(mut self, m: f64) -> Result<Nseg> {
        crate::error::require_positive("operator_bound", m)?;
        self.operator_bound = Some(m);
        Ok(self)
    }

    /// Prepend `prefix` to every stream label.
    pub fn with_label_prefix(mut self, prefix: impl Into<String>) -> Nseg {
        self.label_prefix = prefix.into();
        self
    }

    /// The extragradient engine this NSEG run is (output: average of the extrapolated points).
    pub fn engine(&self) -> Result<Extragradient> {
        match self.variant {
            NsegVariant::SinglePass { batch: 0 } => {
                return Err(invalid("variant.single_pass.batch", "B must be >= 1"))
            }
            NsegVariant::MultiPass { m: 0 } => {
                return Err(invalid("variant.multi_pass.m", "m must be >= 1"))
            }
            _ => {}
        }
        let mut e = Extragradient::new(
            self.steps,
            self.schedule.clone(),
            self.start.clone(),
            self.variant.batch_rule(),
            self.sigma,
            Averaging::Extrapolated,
        )?
        .with_label_prefix(self.label_prefix.clone());
        if let Some(m) = self.operator_bound {
            e = e.with_operator_bound(m)?;
        }
        Ok(e)
    }

    /// The single-pass condition 2TB ≤ n (every batch disjoint from every other), against n.
    pub fn check_data(&self, n: usize) -> Result<()> {
        if let NsegVariant::SinglePass { batch } = self.variant {
            let need = 2 * self.steps as u128 * batch as u128;
            if need > n as u128 {
                return Err(invalid(
                    "steps",
                    format!(
                        "single-pass NSEG needs 2TB ≤ n: 2·{}·{batch} = {need} > n = {n}",
                        self.steps
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The run (no trace).
    pub fn run_with(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<ViOutput> {
        self.check_data(s.len())?;
        self.engine()?.run(op, s, noise)
    }

    /// The run, keeping the trajectory, batches, noise and estimates.
    pub fn run_traced(
        &self,
        op: &dyn MonotoneOp,
        s: &Dataset,
        noise: &mut NoiseSource,
    ) -> Result<ExtragradientRun> {
        self.check_data(s.len())?;
        self.engine()?.run_traced(op, s, noise)
    }

    /// Noisy operator evaluations of one run per data point, summed: 2T·B (single pass, = n when
    /// 2TB = n), 2T·n (full batch), 2T·m (multi-pass; 2n² for Thm 4's T = n², m = 1).
    pub fn evaluations(&self, n: usize) -> u64 {
        2 * self.steps as u64 * self.variant.batch_rule().batch_len(n) as u64
    }
}

impl ViAlgorithm for Nseg {
    fn name(&self) -> String {
        format!(
            "nseg(T={}, {:?}, {:?}, σ={})",
            self.steps, self.variant, self.schedule, self.sigma
        )
    }

    fn run(&self, op: &dyn MonotoneOp, s: &Dataset, noise: &mut NoiseSource) -> Result<ViOutput> {
        self.run_with(op, s, noise)
    }
}

/// The runs of BG23's NSEG policies ([`crate::papers::bg23::nseg`]): the paper module holds the
/// schedules, the algorithm tier builds the run from them.
impl crate::papers::bg23::nseg::NsegPolicy {
    /// The NSEG run of a single-pass policy (Cor 1) from u_0.
    pub fn single_pass(&self, start: Vec<f64>) -> Result<Nseg> {
        Nseg::new(
            NsegVariant::SinglePass {
                batch: self.batch()?,
            },
            self.steps()?,
            StepSchedule::Constant(self.gamma),
            start,
            self.sigma,
        )
    }

    /// The NSEG run of a multi-pass policy (Thm 4, eq. (4.16)) from u_0.
    pub fn multi_pass(&self, start: Vec<f64>) -> Result<Nseg> {
        Nseg::new(
            NsegVariant::MultiPass { m: 1 },
            self.steps()?,
            StepSchedule::Constant(self.gamma),
            start,
            self.sigma,
        )
    }
}
