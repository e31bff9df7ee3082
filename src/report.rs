//! The `verify` report: a JSON array and a markdown table (README, "The two commands").

use crate::claims::{Claim, Evidence};
use crate::error::{Error, Result};
use serde::Serialize;
use std::path::Path;

/// One claim's row in the report.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Claim id.
    pub id: String,
    /// Paper key.
    pub paper: String,
    /// Item.
    pub item: String,
    /// Kind label.
    pub kind: String,
    /// Passed (and, if any, its negative control rejected).
    pub pass: bool,
    /// Worst measured/bound.
    pub worst_ratio: Option<f64>,
    /// Instances checked.
    pub instances: usize,
    /// "rejected", "accepted" or "none".
    pub negative_control: String,
    /// The negative control's worst ratio.
    pub negative_control_ratio: Option<f64>,
    /// The negative control's variant.
    pub negative_control_variant: Option<String>,
    /// The tight instance's ratio.
    pub tight_ratio: Option<f64>,
    /// The negative control's margin: its worst measured/bound ratio, how far the wrong variant
    /// lands from the bound (see [`Evidence::control_margin`]).
    pub control_margin: Option<f64>,
    /// No tight instance and no instance within a factor 10 of the bound (see
    /// [`Evidence::vacuous`]); None when no ratio was measured.
    pub vacuous: Option<bool>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Details, or the error if the check could not run.
    pub details: Vec<String>,
}

impl Row {
    /// A row from a claim and its outcome.
    pub fn new(c: &Claim, ev: &Result<Evidence>, seconds: f64) -> Row {
        match ev {
            Ok(e) => Row {
                id: c.id.into(),
                paper: c.paper.into(),
                item: c.item.into(),
                kind: c.kind.label().into(),
                pass: e.ok(),
                worst_ratio: e.worst_ratio,
                instances: e.instances,
                negative_control: e.control_status().into(),
                negative_control_ratio: e.negative_control.as_ref().and_then(|n| n.worst_ratio),
                negative_control_variant: e.negative_control.as_ref().map(|n| n.variant.clone()),
                tight_ratio: e.tight_ratio,
                control_margin: e.control_margin(),
                vacuous: e.vacuous(),
                seconds,
                details: e.details.clone(),
            },
            Err(err) => Row {
                id: c.id.into(),
                paper: c.paper.into(),
                item: c.item.into(),
                kind: c.kind.label().into(),
                pass: false,
                worst_ratio: None,
                instances: 0,
                negative_control: "none".into(),
                negative_control_ratio: None,
                negative_control_variant: None,
                tight_ratio: None,
                control_margin: None,
                vacuous: None,
                seconds,
                details: vec![format!("error: {err}")],
            },
        }
    }
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.6}"))
}

/// A control margin as a factor, three significant digits: "×1.40", "×2210", "×6.2e299".
pub fn fmt_margin(x: Option<f64>) -> String {
    match x {
        None => "—".into(),
        Some(v) if !v.is_finite() => format!("×{v}"),
        Some(v) if v != 0.0 && (v.abs() >= 1e4 || v.abs() < 1e-2) => format!("×{v:.1e}"),
        Some(v) if v.abs() >= 100.0 => format!("×{v:.0}"),
        Some(v) if v.abs() >= 10.0 => format!("×{v:.1}"),
        Some(v) => format!("×{v:.2}"),
    }
}

fn fmt_vacuous(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "VACUOUS",
        Some(false) => "no",
        None => "—",
    }
}

/// The legend printed under the markdown table: one line per column.
pub const LEGEND: &str = "\
## Legend

- **id**: the claim's stable id (`dpsaddle claims` lists them with their statements).
- **paper**, **item**: the paper and its own name for the item (theorem, lemma, equation).
- **kind**: how the claim is checked: `exact` (closed form, exact rationals or a certified \
solver tolerance), `enumerated` (an expectation computed exactly over a finite support), \
`monte_carlo` (seeded, with a stated confidence level), `calibration` (a privacy value), \
`erratum` (the printed statement fails, the corrected one holds), `not_checkable`.
- **pass**: the check held on every instance and its negative control (if any) was rejected.
- **worst ratio**: the largest measured/bound over the instances (≤ 1 within the tolerance when \
the claim holds; close to 1 means the bound is nearly attained).
- **instances**: how many comparisons the check made.
- **negative control**: the same check run on a deliberately wrong variant: `rejected` (what we \
want), `accepted` (the check cannot tell the wrong variant apart: the claim fails), `none`; \
in parentheses the control's worst ratio.
- **control margin**: the control's worst measured/bound as a factor: how far the wrong variant \
lands from the bound (×1.4: 40% over it). Just above ×1 is a sharp control; ×10 or more means \
the wrong variant is far from the claim and mostly tests the comparison; ≤ ×1 on a rejected \
control means the rejection came from another part of the check (a tight instance or an exact \
comparison); — when the control measured no ratio.
- **tight ratio**: measured/bound on the claim's tight instance, asserted close to 1 where the \
paper's bound is attained; — when the claim has no tight instance.
- **vacuous**: `VACUOUS` when the claim has no tight instance and no instance comes within a \
factor 10 of its bound (worst ratio < 0.1, including a left side ≤ 0 everywhere): the check \
could not have failed on these instances; `no` otherwise; — when no ratio was measured.
- **seconds**: wall-clock time of the check at this budget.
";

/// The markdown table, its legend and each claim's details.
pub fn markdown(rows: &[Row], budget: &str) -> String {
    let mut s = format!(
        "# dpsaddle verify report\n\nBudget: {budget}. {} of {} claims pass; {} vacuous.\n\n| id | paper | item | kind | pass | worst ratio | instances | negative control | control margin | tight ratio | vacuous | seconds |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        rows.iter().filter(|r| r.pass).count(),
        rows.len(),
        rows.iter().filter(|r| r.vacuous == Some(true)).count(),
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} | {:.2} |\n",
            r.id,
            r.paper,
            r.item,
            r.kind,
            if r.pass { "yes" } else { "**NO**" },
            fmt_opt(r.worst_ratio),
            r.instances,
            r.negative_control,
            fmt_opt(r.negative_control_ratio),
            fmt_margin(r.control_margin),
            fmt_opt(r.tight_ratio),
            match r.vacuous {
                Some(true) => "**VACUOUS**",
                v => fmt_vacuous(v),
            },
            r.seconds
        ));
    }
    s.push('\n');
    s.push_str(LEGEND);
    s.push_str("\n## Details\n\n");
    for r in rows {
        s.push_str(&format!("### {} ({} {})\n\n", r.id, r.paper, r.item));
        if let Some(v) = &r.negative_control_variant {
            s.push_str(&format!(
                "- negative control: {v} → {} (margin {})\n",
                r.negative_control,
                fmt_margin(r.control_margin)
            ));
        }
        if r.vacuous == Some(true) {
            s.push_str(
                "- vacuous: no tight instance and no instance within a factor 10 of the bound\n",
            );
        }
        for d in &r.details {
            s.push_str(&format!("- {d}\n"));
        }
        s.push('\n');
    }
    s
}

/// The console summary table.
pub fn summary(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<28} {:<7} {:<22} {:>5} {:>12} {:>9} {:>10} {:>9} {:>12} {:>8} {:>8}\n",
        "id",
        "paper",
        "item",
        "pass",
        "worst ratio",
        "instances",
        "control",
        "margin",
        "tight ratio",
        "vacuous",
        "seconds"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<28} {:<7} {:<22} {:>5} {:>12} {:>9} {:>10} {:>9} {:>12} {:>8} {:>8.2}\n",
            r.id,
            r.paper,
            r.item.chars().take(22).collect::<String>(),
            if r.pass { "ok" } else { "FAIL" },
            fmt_opt(r.worst_ratio),
            r.instances,
            r.negative_control,
            fmt_margin(r.control_margin),
            fmt_opt(r.tight_ratio),
            fmt_vacuous(r.vacuous),
            r.seconds
        ));
    }
    s
}

/// Write `bytes` to `path` via a temporary file in the same directory and a rename, creating
/// parent directories; a failure leaves no partial file at `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |e: std::io::Error| Error::Io {
        path: path.display().to_string(),
        source: e,
    };
    if let Some(parent) = path.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
    }
    let tmp = path.with_extension("tmp~");
    std::fs::write(&tmp, bytes).map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(e)
    })
}

/// Write report.json and report.md into `dir`.
pub fn write(dir: &Path, rows: &[Row], budget: &str) -> Result<()> {
    // Staged, then committed only when every file is written (`output::stage_and_commit`).
    crate::output::stage_and_commit(dir, |dir| {
        let json = serde_json::to_string_pretty(rows).expect("serializable") + "\n";
        write_atomic(&dir.join("report.json"), json.as_bytes())?;
        write_atomic(&dir.join("report.md"), markdown(rows, budget).as_bytes())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::{BoundCheck, Claim, Kind};

    fn claim() -> Claim {
        Claim {
            id: "test.planted",
            paper: "core",
            item: "planted",
            statement: "a planted claim",
            kind: Kind::Exact,
            code: "report",
            check: |_| unreachable!(),
        }
    }

    fn evidence(worst: f64, control: f64) -> Evidence {
        let mut main = BoundCheck::new(0.0, 0.0);
        main.observe(worst, 1.0, "planted");
        let mut ctl = BoundCheck::new(0.0, 0.0);
        ctl.observe(control, 1.0, "planted control");
        Evidence::from_checks(&main, Some(("wrong", &ctl)))
    }

    #[test]
    fn rows_carry_margin_and_vacuous_flag_in_json_markdown_and_summary() {
        let c = claim();
        let vac = Row::new(&c, &Ok(evidence(0.05, 1387.0)), 0.1);
        let sharp = Row::new(&c, &Ok(evidence(0.9, 1.4)), 0.1);
        assert_eq!(
            (vac.vacuous, vac.control_margin),
            (Some(true), Some(1387.0))
        );
        assert_eq!(
            (sharp.vacuous, sharp.control_margin),
            (Some(false), Some(1.4))
        );
        let err = Row::new(&c, &Err(crate::error::invalid("x", "planted")), 0.1);
        assert_eq!((err.vacuous, err.control_margin), (None, None));
        // JSON: the old keys stay, the new ones are added.
        let v = serde_json::to_value(&vac).unwrap();
        for k in [
            "id",
            "pass",
            "worst_ratio",
            "negative_control",
            "negative_control_ratio",
            "tight_ratio",
            "seconds",
        ] {
            assert!(v.get(k).is_some(), "{k}");
        }
        assert_eq!(v["vacuous"], true);
        assert_eq!(v["control_margin"], 1387.0);
        // Markdown: the columns, the flag, the margin and a legend line for every column.
        let md = markdown(&[vac.clone(), sharp.clone()], "quick");
        assert!(md.contains("| control margin |") && md.contains("| vacuous |"));
        assert!(md.contains("1 vacuous"));
        assert!(md.contains("**VACUOUS**") && md.contains("×1387") && md.contains("×1.40"));
        let header = md.lines().find(|l| l.starts_with("| id |")).unwrap();
        for col in header.split('|').map(str::trim).filter(|c| !c.is_empty()) {
            assert!(
                LEGEND.contains(&format!("**{col}**")),
                "the legend explains `{col}`"
            );
        }
        // The console summary.
        let sum = summary(&[vac, sharp]);
        assert!(sum.contains("margin") && sum.contains("VACUOUS") && sum.contains("×1.40"));
    }

    #[test]
    fn margins_print_as_factors() {
        assert_eq!(fmt_margin(Some(1.4)), "×1.40");
        assert_eq!(fmt_margin(Some(25.0006)), "×25.0");
        assert_eq!(fmt_margin(Some(2207.56)), "×2208");
        assert_eq!(fmt_margin(Some(6.18e299)), "×6.2e299");
        assert_eq!(fmt_margin(Some(0.82)), "×0.82");
        assert_eq!(fmt_margin(None), "—");
    }
}
