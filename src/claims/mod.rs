//! The claims registry: what the crate asserts about each paper item, and how.
//!
//! One [`Claim`] per numbered paper item (or per definition-level fact the core relies on). Each
//! check returns [`Evidence`]: how many instances were checked, the worst ratio measured/bound,
//! whether it passed, and a negative control: a deliberately wrong variant run through the *same*
//! comparison, which must be rejected. Tests, `dpsaddle verify`, `dpsaddle claims` and the crate
//! map are all driven by [`registry`], so nothing is listed twice.

pub mod bg23;
pub mod bgm23;
pub mod core;
pub mod core_vi_batch;
pub mod core_vi_engine;
pub mod core_vi_ops;
pub mod core_vi_solve;
pub mod kllw22;
pub mod noise_ledger;
pub mod privacy;
pub mod release_audit;
pub mod ztoh22;

use crate::error::Result;
use serde::{Deserialize, Serialize};

/// How a claim is checked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A deterministic identity or inequality, in closed form, exact rationals, or to a certified
    /// solver tolerance.
    Exact,
    /// An expectation over datasets computed exactly by enumerating a finite support.
    Enumerated,
    /// A seeded Monte Carlo estimate with a one-sided 99.9% confidence bound.
    MonteCarlo,
    /// A privacy calibration or accounting value.
    Calibration,
    /// A paper statement shown wrong (literal variant fails, corrected variant holds).
    Erratum,
    /// Not checkable numerically; the reason is given.
    NotCheckable(String),
}

impl Kind {
    /// The kind's short name.
    pub fn label(&self) -> &'static str {
        match self {
            Kind::Exact => "exact",
            Kind::Enumerated => "enumerated",
            Kind::MonteCarlo => "monte_carlo",
            Kind::Calibration => "calibration",
            Kind::Erratum => "erratum",
            Kind::NotCheckable(_) => "not_checkable",
        }
    }
}

/// How much work a check may do: `Quick` for `cargo test` and the default `verify`, `Full` for
/// `verify --budget full`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Budget {
    /// Seconds.
    Quick,
    /// Minutes.
    Full,
}

/// One paper item and its check.
pub struct Claim {
    /// Stable id, e.g. "bgm23.lemma2".
    pub id: &'static str,
    /// Paper key (BGM23, KLLW22, BGM24, ZTOH22, BG23).
    pub paper: &'static str,
    /// The paper's own item name, e.g. "Lemma 2" or "eqs. (2)–(3)".
    pub item: &'static str,
    /// The statement, in the project's words.
    pub statement: &'static str,
    /// How it is checked.
    pub kind: Kind,
    /// Where the code that implements the item lives.
    pub code: &'static str,
    /// The check.
    pub check: fn(Budget) -> Result<Evidence>,
}

/// Accumulates measured-vs-bound comparisons: passes when every measured ≤ bound + tolerance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundCheck {
    /// Instances observed.
    pub instances: usize,
    /// max measured/bound over instances with bound > 0 (None if there were none).
    pub worst_ratio: Option<f64>,
    /// The label of the worst instance.
    pub worst_at: String,
    /// Instances that violated the bound.
    pub violations: usize,
    /// The first violation, described.
    pub first_violation: Option<String>,
    /// Relative tolerance.
    pub rel_tol: f64,
    /// Absolute tolerance.
    pub abs_tol: f64,
}

impl BoundCheck {
    /// A check allowing measured ≤ bound·(1 + rel_tol) + abs_tol. Exact checks use zeros.
    pub fn new(rel_tol: f64, abs_tol: f64) -> Self {
        BoundCheck {
            instances: 0,
            worst_ratio: None,
            worst_at: String::new(),
            violations: 0,
            first_violation: None,
            rel_tol,
            abs_tol,
        }
    }

    /// Record one instance.
    pub fn observe(&mut self, measured: f64, bound: f64, label: impl Into<String>) {
        self.instances += 1;
        let label = label.into();
        if bound > 0.0 {
            let r = measured / bound;
            if self.worst_ratio.is_none_or(|w| r > w) {
                self.worst_ratio = Some(r);
                self.worst_at = label.clone();
            }
        }
        let ok = measured <= bound * (1.0 + self.rel_tol) + self.abs_tol;
        if !ok || measured.is_nan() || bound.is_nan() {
            self.violations += 1;
            if self.first_violation.is_none() {
                self.first_violation =
                    Some(format!("{label}: measured {measured:e} > bound {bound:e}"));
            }
        }
    }

    /// Record an exact comparison decided elsewhere (e.g. in rationals), with its float ratio.
    pub fn observe_exact(&mut self, holds: bool, ratio: Option<f64>, label: impl Into<String>) {
        self.instances += 1;
        let label = label.into();
        if let Some(r) = ratio {
            if self.worst_ratio.is_none_or(|w| r > w) {
                self.worst_ratio = Some(r);
                self.worst_at = label.clone();
            }
        }
        if !holds {
            self.violations += 1;
            if self.first_violation.is_none() {
                self.first_violation =
                    Some(format!("{label}: exact comparison fails (ratio {ratio:?})"));
            }
        }
    }

    /// Whether every instance passed (and at least one was observed).
    pub fn pass(&self) -> bool {
        self.instances > 0 && self.violations == 0
    }
}

/// The negative control's outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NegativeControl {
    /// The deliberately wrong variant.
    pub variant: String,
    /// True when the same check rejected it (what we want).
    pub rejected: bool,
    /// Its worst measured/bound ratio.
    pub worst_ratio: Option<f64>,
    /// Instances it was run on.
    pub instances: usize,
}

/// What a check found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Instances checked.
    pub instances: usize,
    /// Worst measured/bound.
    pub worst_ratio: Option<f64>,
    /// Where it was attained.
    pub worst_at: String,
    /// Whether the claim held everywhere.
    pub pass: bool,
    /// On the claim's tight instance, measured/bound (asserted close to 1 where the paper's bound
    /// is tight).
    pub tight_ratio: Option<f64>,
    /// The negative control, where one is possible.
    pub negative_control: Option<NegativeControl>,
    /// Human-readable details: instances, sizes, first violation.
    pub details: Vec<String>,
    /// Plot data for the report: the rate claims' measured gap and bound against n or ε, the
    /// tight instances' ratio against their swept parameter. Empty for most claims; it never
    /// enters the verdict.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Series>,
}

/// What a [`Series`] shows, and so how the report plots it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesKind {
    /// A measured quantity and its bound against a parameter, on log–log axes, with the fitted
    /// slope ([`Series::fit`]).
    Rate,
    /// measured/bound against a parameter (the tight instance's family), with the line ratio = 1.
    Ratio,
}

/// A fitted log–log slope and what it is compared with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlopeFit {
    /// The fitted slope.
    pub slope: f64,
    /// Its two-sided 99.9% half-width.
    pub half_width: f64,
    /// The slope the claim asserts.
    pub target: f64,
}

/// One plot's data: `y` (and, for a rate, `bound`) at each `x`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Series {
    /// Rate or ratio plot.
    pub kind: SeriesKind,
    /// The plot's title.
    pub title: String,
    /// The parameter's name (the x axis).
    pub x_label: String,
    /// The measured quantity's name (the y axis).
    pub y_label: String,
    /// The parameter values.
    pub x: Vec<f64>,
    /// The measured values (means, for a Monte Carlo experiment).
    pub y: Vec<f64>,
    /// Standard errors of `y` (Monte Carlo), empty when `y` is exact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub y_se: Vec<f64>,
    /// The bound at each `x` (rate plots); empty for a ratio plot, whose bound is 1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bound: Vec<f64>,
    /// The fitted slope (rate plots).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fit: Option<SlopeFit>,
    /// Whether the x axis is logarithmic (always for a rate plot).
    pub log_x: bool,
}

impl Evidence {
    /// Evidence from the main check and an optional negative control run through a check of the
    /// same shape.
    pub fn from_checks(main: &BoundCheck, control: Option<(&str, &BoundCheck)>) -> Evidence {
        let mut details = Vec::new();
        if let Some(v) = &main.first_violation {
            details.push(format!("violation: {v}"));
        }
        Evidence {
            instances: main.instances,
            worst_ratio: main.worst_ratio,
            worst_at: main.worst_at.clone(),
            pass: main.pass(),
            tight_ratio: None,
            negative_control: control.map(|(variant, c)| NegativeControl {
                variant: variant.to_string(),
                rejected: !c.pass(),
                worst_ratio: c.worst_ratio,
                instances: c.instances,
            }),
            details,
            series: Vec::new(),
        }
    }

    /// Attach plot data for the report (it does not change the verdict).
    pub fn with_series(mut self, s: Series) -> Evidence {
        self.series.push(s);
        self
    }

    /// Attach the tight-instance ratio; the check fails unless |ratio − 1| ≤ tol.
    pub fn with_tight(mut self, ratio: f64, tol: f64) -> Evidence {
        self.tight_ratio = Some(ratio);
        let within = (ratio - 1.0).abs() <= tol;
        if !within {
            self.pass = false;
            self.details.push(format!(
                "tight instance ratio {ratio} is not within {tol} of 1"
            ));
        }
        self
    }

    /// Add a detail line.
    pub fn note(mut self, s: impl Into<String>) -> Evidence {
        self.details.push(s.into());
        self
    }

    /// "rejected", "accepted" or "none".
    pub fn control_status(&self) -> &'static str {
        match &self.negative_control {
            None => "none",
            Some(c) if c.rejected => "rejected",
            Some(_) => "accepted",
        }
    }

    /// Passed, with its negative control (if any) rejected.
    pub fn ok(&self) -> bool {
        self.pass && self.control_status() != "accepted"
    }

    /// The negative control's margin: its worst measured/bound ratio, i.e. how far the wrong
    /// variant lands from the bound the claim holds to (×1.4: 40% over it). None without a
    /// control or when the control's comparisons carry no ratio. A margin ≤ 1 on a rejected
    /// control means the rejection came from another part of the check (a tight instance, an
    /// exact comparison); a huge margin means the wrong variant is far from the claim and tests
    /// the comparator more than the claim.
    pub fn control_margin(&self) -> Option<f64> {
        self.negative_control.as_ref().and_then(|c| c.worst_ratio)
    }

    /// Whether the claim is vacuous on its instances: no tight instance, and no instance within a
    /// factor [`VACUOUS_FACTOR`] of its bound (worst ratio < 1/10, including a left side ≤ 0
    /// everywhere). None when the check measured no ratio at all (nothing to judge by).
    pub fn vacuous(&self) -> Option<bool> {
        if self.tight_ratio.is_some() {
            return Some(false);
        }
        self.worst_ratio
            .map(|w| w.is_nan() || w < 1.0 / VACUOUS_FACTOR)
    }
}

/// A claim none of whose instances comes within this factor of its bound (and which has no tight
/// instance) is flagged vacuous in the report: its check could not have failed on its instances.
pub const VACUOUS_FACTOR: f64 = 10.0;

/// Every claim, in a fixed order (paper, then item).
pub fn registry() -> Vec<Claim> {
    let mut v = core::claims();
    v.extend(core_vi_solve::claims());
    v.extend(core_vi_ops::claims());
    v.extend(bgm23::claims());
    v.extend(kllw22::claims());
    v.extend(privacy::claims());
    v.extend(noise_ledger::claims());
    v.extend(release_audit::claims());
    v.extend(core_vi_batch::claims());
    v.extend(core_vi_engine::claims());
    v.extend(bg23::claims());
    v.extend(ztoh22::claims());
    v
}

/// One check's outcome: its evidence (or the error that stopped it) and its wall-clock seconds.
pub type Outcome = (Result<Evidence>, f64);

/// Run the checks of `claims` at `budget`; the outcomes come back in the order of `claims`.
///
/// With `parallel`, the checks run concurrently on the current rayon thread pool (one task per
/// claim, balanced by work stealing). Every check is deterministic (fixed seeds, no state shared
/// between checks, and any parallelism inside a check is itself thread-count independent), so
/// each evidence is identical to that of a serial run; only the seconds differ. `done` is called
/// once per claim as its check finishes, from the thread that ran it (e.g. to advance a
/// progress bar).
pub fn run_checks(
    claims: &[Claim],
    budget: Budget,
    parallel: bool,
    done: &(dyn Fn(&Claim) + Sync),
) -> Vec<Outcome> {
    let run = |c: &Claim| {
        let t = std::time::Instant::now();
        let ev = (c.check)(budget);
        let seconds = t.elapsed().as_secs_f64();
        done(c);
        (ev, seconds)
    };
    if parallel {
        use rayon::prelude::*;
        // with_max_len(1): one claim per task, so a slow claim never holds others back.
        claims.par_iter().with_max_len(1).map(run).collect()
    } else {
        claims.iter().map(run).collect()
    }
}

/// Look up one claim by id.
pub fn find(id: &str) -> Option<Claim> {
    registry().into_iter().find(|c| c.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planted(worst: Option<f64>, tight: Option<f64>, control: Option<f64>) -> Evidence {
        let mut main = BoundCheck::new(0.0, 0.0);
        if let Some(w) = worst {
            main.observe(w, 1.0, "planted");
        } else {
            main.observe_exact(true, None, "planted");
        }
        let mut ctl = BoundCheck::new(0.0, 0.0);
        if let Some(c) = control {
            ctl.observe(c, 1.0, "planted control");
        }
        let ev = Evidence::from_checks(&main, control.map(|_| ("wrong", &ctl)));
        match tight {
            Some(t) => ev.with_tight(t, 1e-9),
            None => ev,
        }
    }

    #[test]
    fn vacuous_flag_and_control_margin_on_planted_evidence() {
        // Far below its bound, no tight instance: vacuous.
        let e = planted(Some(7.8e-5), None, Some(1387.0));
        assert_eq!(e.vacuous(), Some(true));
        assert_eq!(e.control_margin(), Some(1387.0));
        // A left side ≤ 0 everywhere is vacuous too.
        assert_eq!(planted(Some(-0.5), None, None).vacuous(), Some(true));
        // Within a factor 10 (just): not vacuous.
        let e = planted(Some(0.1), None, Some(1.4));
        assert_eq!(e.vacuous(), Some(false));
        assert_eq!(e.control_margin(), Some(1.4));
        assert!(e.ok());
        // Far from the bound somewhere but with a tight instance: not vacuous.
        assert_eq!(planted(Some(0.01), Some(1.0), None).vacuous(), Some(false));
        // No ratio measured: nothing to judge by; no control: no margin.
        let e = planted(None, None, None);
        assert_eq!(e.vacuous(), None);
        assert_eq!(e.control_margin(), None);
        // A control that stays under its bound is accepted and shows its margin below 1.
        let e = planted(Some(0.5), None, Some(0.9));
        assert_eq!(e.control_status(), "accepted");
        assert_eq!(e.control_margin(), Some(0.9));
        assert!(!e.ok());
    }
}
