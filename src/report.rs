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
                seconds,
                details: vec![format!("error: {err}")],
            },
        }
    }
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("—".into(), |v| format!("{v:.6}"))
}

/// The markdown table.
pub fn markdown(rows: &[Row], budget: &str) -> String {
    let mut s = format!(
        "# dpsaddle verify report\n\nBudget: {budget}. {} of {} claims pass.\n\n| id | paper | item | kind | pass | worst ratio | instances | negative control | tight ratio | seconds |\n|---|---|---|---|---|---|---|---|---|---|\n",
        rows.iter().filter(|r| r.pass).count(),
        rows.len()
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {:.2} |\n",
            r.id,
            r.paper,
            r.item,
            r.kind,
            if r.pass { "yes" } else { "**NO**" },
            fmt_opt(r.worst_ratio),
            r.instances,
            r.negative_control,
            fmt_opt(r.negative_control_ratio),
            fmt_opt(r.tight_ratio),
            r.seconds
        ));
    }
    s.push_str("\n## Details\n\n");
    for r in rows {
        s.push_str(&format!("### {} ({} {})\n\n", r.id, r.paper, r.item));
        if let Some(v) = &r.negative_control_variant {
            s.push_str(&format!(
                "- negative control: {v} → {}\n",
                r.negative_control
            ));
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
        "{:<28} {:<7} {:<22} {:>5} {:>12} {:>9} {:>10} {:>12} {:>8}\n",
        "id",
        "paper",
        "item",
        "pass",
        "worst ratio",
        "instances",
        "control",
        "tight ratio",
        "seconds"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<28} {:<7} {:<22} {:>5} {:>12} {:>9} {:>10} {:>12} {:>8.2}\n",
            r.id,
            r.paper,
            r.item.chars().take(22).collect::<String>(),
            if r.pass { "ok" } else { "FAIL" },
            fmt_opt(r.worst_ratio),
            r.instances,
            r.negative_control,
            fmt_opt(r.tight_ratio),
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
    let json = serde_json::to_string_pretty(rows).expect("serializable") + "\n";
    write_atomic(&dir.join("report.json"), json.as_bytes())?;
    write_atomic(&dir.join("report.md"), markdown(rows, budget).as_bytes())
}
