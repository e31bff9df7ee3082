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
//! * [`NsegVariant::MultiPass`]: i(1,t), i(2,t) uniform on \[n\] independently (eq. (4.16),
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

/// Which printed NSEG policy a `dpsaddle run nseg` config asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NsegItem {
    /// BG23 Cor 1: single pass, B = min{ρ, n}, T = n/(2B), Prop 5's σ.
    Cor1,
    /// BG23 Thm 4: multi-pass (eq. (4.16)), T = n², Prop 7's σ.
    Thm4,
}

/// A printed policy in a `dpsaddle run nseg` config.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NsegPolicyParams {
    /// Cor 1 or Thm 4.
    pub item: NsegItem,
    /// ε > 0 (default 1).
    #[serde(default = "one")]
    pub epsilon: f64,
    /// η ∈ (0, 1) (default 1e-5).
    #[serde(default = "default_eta")]
    pub eta: f64,
    /// Paper-literal or corrected (the default) reading of the policy.
    #[serde(default = "corrected")]
    pub reading: crate::papers::Reading,
}

fn one() -> f64 {
    1.0
}

fn default_eta() -> f64 {
    1e-5
}

fn corrected() -> crate::papers::Reading {
    crate::papers::Reading::Corrected
}

/// The `params` of `dpsaddle run nseg` (BG23 Algorithm 1): either explicit (`variant`, `steps`,
/// exactly one of `step` and `step_list`, `sigma`) or a printed `policy` (Cor 1 single pass, Thm 4
/// multi-pass) whose formulas set B, T, γ and σ from M, D, L, n, d, ε, η (M and L from the
/// operator's closed-form constants over the data unless `operator_bound` / `lipschitz` are
/// given). `start` defaults to the centre of W; `delta` is the δ at which the ledger is priced.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NsegParams {
    /// The batch variant (explicit runs).
    #[serde(default)]
    pub variant: Option<NsegVariant>,
    /// T (explicit runs).
    #[serde(default)]
    pub steps: Option<usize>,
    /// A constant γ (explicit runs).
    #[serde(default)]
    pub step: Option<f64>,
    /// γ_1..γ_T (explicit runs).
    #[serde(default)]
    pub step_list: Option<Vec<f64>>,
    /// σ ≥ 0 (explicit runs; default 0).
    #[serde(default)]
    pub sigma: Option<f64>,
    /// A printed policy instead of the explicit fields.
    #[serde(default)]
    pub policy: Option<NsegPolicyParams>,
    /// u_0 (default: the centre of W).
    #[serde(default)]
    pub start: Option<Vec<f64>>,
    /// M for the policy and the ledger.
    #[serde(default)]
    pub operator_bound: Option<f64>,
    /// L for the policy (Cor 1 clips γ to 1/(√3L); Thm 4's γ has min{D/M, 1/L}).
    #[serde(default)]
    pub lipschitz: Option<f64>,
    /// δ of the privacy statement (read by the CLI).
    #[serde(default)]
    pub delta: Option<f64>,
}

impl NsegParams {
    /// The NSEG run of these parameters on `op` and the data `s`, validated against both;
    /// errors name the field under `params`.
    pub fn build(&self, op: &dyn MonotoneOp, s: &Dataset) -> Result<Nseg> {
        let named = |e| crate::problem::spec::rename(e, "params");
        let start = self.start.clone().unwrap_or_else(|| op.domain().center());
        let consts = op.constants(&s.points.to_vecs()).ok();
        let alg = match &self.policy {
            None => {
                let variant = self.variant.ok_or_else(|| {
                    invalid(
                        "params.variant",
                        "give a `variant` (single_pass, full_batch, multi_pass) or a `policy`",
                    )
                })?;
                let steps = self
                    .steps
                    .ok_or_else(|| invalid("params.steps", "give T (`steps`)"))?;
                let schedule =
                    match (self.step, &self.step_list) {
                        (Some(g), None) => StepSchedule::Constant(g),
                        (None, Some(v)) => StepSchedule::List(v.clone()),
                        _ => return Err(invalid(
                            "params.step",
                            "give exactly one of `step` (constant γ) and `step_list` (γ_1..γ_T)",
                        )),
                    };
                Nseg::new(variant, steps, schedule, start, self.sigma.unwrap_or(0.0))
                    .map_err(named)?
            }
            Some(pp) => {
                for (given, field) in [
                    (self.variant.is_some(), "params.variant"),
                    (self.steps.is_some(), "params.steps"),
                    (self.step.is_some(), "params.step"),
                    (self.step_list.is_some(), "params.step_list"),
                    (self.sigma.is_some(), "params.sigma"),
                ] {
                    if given {
                        return Err(invalid(
                            field,
                            "is set by the `policy`: give one or the other",
                        ));
                    }
                }
                let m = self
                    .operator_bound
                    .or(consts.map(|c| c.bound))
                    .ok_or_else(|| {
                        invalid(
                            "params.operator_bound",
                            "a policy needs M (no closed-form constants)",
                        )
                    })?;
                let l = self
                    .lipschitz
                    .or(consts.map(|c| c.lipschitz))
                    .ok_or_else(|| invalid("params.lipschitz", "a policy needs L"))?;
                let (dd, n, d) = (op.domain().diameter(), s.len() as u64, op.dim() as u64);
                let ren = |e| crate::problem::spec::rename(e, "params.policy");
                let (eps, eta, r) = (pp.epsilon, pp.eta, pp.reading);
                match pp.item {
                    NsegItem::Cor1 => {
                        crate::papers::bg23::nseg::cor1_policy(m, dd, l, n, d, eps, eta, r)
                            .map_err(ren)?
                            .single_pass(start)
                            .map_err(ren)?
                    }
                    NsegItem::Thm4 => {
                        crate::papers::bg23::nseg::thm4_policy(m, dd, l, n, d, eps, eta, r)
                            .map_err(ren)?
                            .multi_pass(start)
                            .map_err(ren)?
                    }
                }
                .with_operator_bound(m)
                .map_err(named)?
            }
        };
        let alg = match (self.policy.is_none(), self.operator_bound) {
            (true, Some(m)) => alg.with_operator_bound(m).map_err(named)?,
            _ => alg,
        };
        alg.check_data(s.len()).map_err(named)?;
        alg.engine()?.validate(op, s.len()).map_err(named)?;
        Ok(alg)
    }
}
