//! What the papers' calibrations share: a [`PaperCalibration`] (a
//! [`crate::privacy::calibration::Calibration`] with the paper, item and [`Reading`] it comes from)
//! and a [`PaperAmplification`] (what a paper's amplification-by-sampling statement requires, with
//! its side conditions). Each paper's own calibrations are in its `calibration` module:
//! [`crate::papers::bg23::calibration`], [`crate::papers::kllw22::calibration`],
//! [`crate::papers::ztoh22::calibration`], [`crate::papers::bgm23::calibration`],
//! [`crate::papers::bgm24::calibration`]. The table of every item, with the instances and numbers,
//! is `proofs-notes/privacy.md`.

use crate::error::{invalid, require_count, require_positive, require_unit_open, Result};
use crate::papers::Reading;
use crate::privacy::calibration::Calibration;
use std::ops::Deref;

/// A paper's noise calibration: the event tree it generates and the (ε, δ) it claims
/// ([`Calibration`], reached through `Deref`), with the item it comes from.
///
/// Every `*_sigma` function of a paper's `calibration` module is the noise **exactly as
/// printed**, with any constant the paper leaves unnamed ("a universal constant c", "some
/// constant c₀") as a parameter; the functions named after an item return a `PaperCalibration`,
/// both [`Reading::PaperLiteral`] and [`Reading::Corrected`] where the printed statement is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct PaperCalibration {
    /// Paper key, e.g. `BG23`.
    pub paper: &'static str,
    /// The item, e.g. `Prop 7`.
    pub item: &'static str,
    /// Where the calibration is printed in the published paper, e.g. `Prop 7, Thm 4, eq. (4.16)`.
    pub printed: &'static str,
    /// Literal or corrected.
    pub reading: Reading,
    /// σ, Δ, the ledger and the claimed (ε, δ).
    pub calibration: Calibration,
}

impl Deref for PaperCalibration {
    type Target = Calibration;

    fn deref(&self) -> &Calibration {
        &self.calibration
    }
}

/// One side condition of a paper's amplification statement. `holds` is `None` when the condition
/// involves a constant the paper leaves unnamed and none was supplied.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    /// What the paper requires, in its words.
    pub name: String,
    /// Whether it holds for the given parameters (`None`: undecidable without the constant).
    pub holds: Option<bool>,
    /// The numbers behind the verdict.
    pub detail: String,
}

/// What a paper claims about a subsampled Gaussian composition: the smallest σ its statement
/// requires, the sampling rate it credits, and its side conditions.
#[derive(Clone, Debug, PartialEq)]
pub struct PaperAmplification {
    /// The item, e.g. `BG23 Thm 1`.
    pub source: &'static str,
    /// The σ the statement requires (noise standard deviation of one released query).
    pub sigma_min: f64,
    /// The amplification rate the statement credits (m/n, or b/n).
    pub sampling_rate: f64,
    /// The side conditions, evaluated.
    pub conditions: Vec<Condition>,
}

impl PaperAmplification {
    /// False if some condition is known to fail; true if all are known to hold; `None` otherwise.
    pub fn conditions_hold(&self) -> Option<bool> {
        let mut all = Some(true);
        for c in &self.conditions {
            match c.holds {
                Some(false) => return Some(false),
                None => all = None,
                Some(true) => {}
            }
        }
        all
    }
}

/// The moments-accountant restatement of Abadi et al. (2016) and Kulkarni et al. (2021) that
/// BGM23 Thm 22 and BGM24 Lemma 9 print word for word: for ε, δ ∈ (0, 1], T adaptive queries
/// with ‖h_t(y)‖₂ ≤ L, batches of size b sampled "uniformly at random", outputs
/// (1/b)Σ h_t(y) + N(0, σ²I) are (ε, δ)-DP if σ ≥ c·L·√(T log(1/δ))/(nε) and T ≥ n²ε/b², c a
/// "universal constant".
#[allow(clippy::too_many_arguments)]
pub(crate) fn moments_restatement(
    source: &'static str,
    c: f64,
    l: f64,
    t: u64,
    n: u64,
    b: u64,
    epsilon: f64,
    delta: f64,
) -> Result<PaperAmplification> {
    require_positive("c", c)?;
    require_positive("L", l)?;
    require_positive("epsilon", epsilon)?;
    require_unit_open("delta", delta)?;
    require_count("n", n)?;
    require_count("m", b)?;
    if t == 0 {
        return Err(invalid("T", "must be ≥ 1"));
    }
    let sigma_min = c * l * (t as f64 * (1.0 / delta).ln()).sqrt() / (n as f64 * epsilon);
    let need_t = (n as f64).powi(2) * epsilon / (b as f64).powi(2);
    Ok(PaperAmplification {
        source,
        sigma_min,
        sampling_rate: b as f64 / n as f64,
        conditions: vec![
            Condition {
                name: "ε, δ ∈ (0, 1]".into(),
                holds: Some(epsilon <= 1.0 && delta <= 1.0),
                detail: format!("ε = {epsilon}, δ = {delta}"),
            },
            Condition {
                name: "T ≥ n²ε/b²".into(),
                holds: Some(t as f64 >= need_t),
                detail: format!("T = {t}, n²ε/b² = {need_t}"),
            },
        ],
    })
}
