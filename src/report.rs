//! The `verify` report (README, "The two commands"): `report.json`, an object with the schema
//! name, the run's metadata and one row per claim at full precision; `report.md`, a header, the
//! table with a legend for every column, the plots and each claim's details, numbers to four
//! significant digits; `plots/*.svg`, one per plot series a claim carries ([`plot`]).

pub mod plot;

use crate::claims::{Claim, Evidence, Series, SeriesKind};
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
    /// The claim's plot data ([`Evidence::series`]); omitted when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Series>,
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
                series: e.series.clone(),
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
                series: Vec::new(),
            },
        }
    }
}

/// A number as the markdown report prints it: four significant digits, plain between 10⁻³ and
/// 10⁴, scientific outside ("0.2498", "1.000", "1235", "2.492e27"); the JSON keeps every digit.
pub fn fmt_num(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if (1e-3..1e4).contains(&a) {
        let mag = a.log10().floor() as i32;
        // Rounding may carry into the next power of ten (0.99999 → 1.000, not 1.0000).
        let carries = format!("{a:.*}", (3 - mag).max(0) as usize)
            .parse::<f64>()
            .is_ok_and(|r| r >= 10f64.powi(mag + 1));
        let decimals = (3 - mag - i32::from(carries)).max(0) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.3e}")
    }
}

fn fmt_opt(x: Option<f64>) -> String {
    x.map_or("—".into(), fmt_num)
}

/// A detail line made readable for the markdown: `Some(x)` printed as `x`, floats with more than
/// four significant digits and integers of more than nine digits through [`fmt_num`]. The JSON
/// keeps the claim's text as written.
pub fn tidy(line: &str) -> String {
    // Some(x) → x (x's quotes dropped when it is a string).
    let mut s = line.to_string();
    let mut from = 0;
    while let Some(pos) = s[from..].find("Some(").map(|p| p + from) {
        let word_before = s[..pos]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let open = pos + "Some(".len();
        let mut depth = 1;
        let mut close = None;
        for (i, c) in s[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        match (word_before, close) {
            (false, Some(close)) => {
                let inner = &s[open..close];
                let inner = inner
                    .strip_prefix('"')
                    .and_then(|t| t.strip_suffix('"'))
                    .unwrap_or(inner)
                    .to_string();
                s.replace_range(pos..=close, &inner);
                from = pos;
            }
            _ => from = open,
        }
    }
    // Long numbers.
    let c: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let word = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let starts = c[i].is_ascii_digit() && (i == 0 || !(word(c[i - 1]) || c[i - 1] == '.'));
        if !starts {
            out.push(c[i]);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < c.len() && c[j].is_ascii_digit() {
            j += 1;
        }
        let mut float = false;
        if j + 1 < c.len() && c[j] == '.' && c[j + 1].is_ascii_digit() {
            float = true;
            j += 1;
            while j < c.len() && c[j].is_ascii_digit() {
                j += 1;
            }
        }
        if j < c.len() && (c[j] == 'e' || c[j] == 'E') {
            let mut k = j + 1;
            if k < c.len() && (c[k] == '-' || c[k] == '+') {
                k += 1;
            }
            if k < c.len() && c[k].is_ascii_digit() {
                float = true;
                while k < c.len() && c[k].is_ascii_digit() {
                    k += 1;
                }
                j = k;
            }
        }
        let ends = j == c.len()
            || !(word(c[j]) || (c[j] == '.' && j + 1 < c.len() && c[j + 1].is_ascii_digit()));
        let tok: String = c[i..j].iter().collect();
        let mantissa: String = tok
            .split(['e', 'E'])
            .next()
            .unwrap_or("")
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let significant = mantissa.trim_start_matches('0').len();
        let long = if float {
            significant > 4
        } else {
            tok.len() > 9
        };
        match (ends, long, tok.parse::<f64>()) {
            (true, true, Ok(v)) => out.push_str(&fmt_num(v)),
            _ => out.push_str(&tok),
        }
        i = j;
    }
    out
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

/// The report's JSON schema name; bumped when a field changes meaning or disappears.
pub const SCHEMA: &str = "dpsaddle-verify-report/2";

/// Where and how a report was produced.
#[derive(Clone, Debug, Serialize)]
pub struct Metadata {
    /// The crate's version.
    pub crate_version: String,
    /// `git rev-parse HEAD` of the source tree the binary was built from, or "unknown" (not a
    /// repository, or no git).
    pub git_commit: String,
    /// Whether that tree had uncommitted changes to tracked files (None when unknown).
    pub git_dirty: Option<bool>,
    /// "quick" or "full".
    pub budget: String,
    /// Start of the run, UTC, ISO 8601 (e.g. "2026-11-25T23:40:05Z").
    pub date_utc: String,
    /// The machine's host name ("unknown" if it cannot be read).
    pub hostname: String,
    /// Logical cores available to the process.
    pub cores: usize,
    /// CPU architecture and operating system (`std::env::consts`).
    pub arch: String,
    /// Operating system.
    pub os: String,
    /// The `--threads` setting (0: one per core).
    pub threads: usize,
    /// The `--paper` / `--claim` filters, if any.
    pub filters: Vec<String>,
    /// Wall-clock seconds of the whole run.
    pub total_seconds: f64,
}

/// A UTC timestamp "YYYY-MM-DDThh:mm:ssZ" from seconds since the Unix epoch (proleptic
/// Gregorian calendar; Howard Hinnant's days-to-civil algorithm).
pub fn utc_timestamp(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

fn git(args: &[&str]) -> Option<String> {
    let o = std::process::Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

impl Metadata {
    /// The metadata of a run starting now: the commit is read at run time from the source tree
    /// the binary was built from (`git rev-parse HEAD`), the host name from the kernel.
    pub fn collect(budget: &str, threads: usize, filters: Vec<String>) -> Metadata {
        let commit = git(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty());
        let dirty = commit.as_ref().and_then(|_| {
            git(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty())
        });
        let hostname = ["/proc/sys/kernel/hostname", "/etc/hostname"]
            .iter()
            .find_map(|p| std::fs::read_to_string(p).ok())
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .or_else(|| std::env::var("HOSTNAME").ok())
            .unwrap_or_else(|| "unknown".into());
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Metadata {
            crate_version: env!("CARGO_PKG_VERSION").into(),
            git_commit: commit.unwrap_or_else(|| "unknown".into()),
            git_dirty: dirty,
            budget: budget.into(),
            date_utc: utc_timestamp(now),
            hostname,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            arch: std::env::consts::ARCH.into(),
            os: std::env::consts::OS.into(),
            threads,
            filters,
            total_seconds: 0.0,
        }
    }
}

/// The whole report, as report.json holds it.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// Where and how it was produced.
    pub metadata: Metadata,
    /// One row per claim, in registry order.
    pub claims: Vec<Row>,
}

impl Report {
    /// A report from its metadata and rows.
    pub fn new(metadata: Metadata, claims: Vec<Row>) -> Report {
        Report {
            schema: SCHEMA,
            metadata,
            claims,
        }
    }

    /// The plots: (file name relative to the report's directory, row index, series).
    pub fn plots(&self) -> Vec<(String, usize, &Series)> {
        let mut v = Vec::new();
        for (i, r) in self.claims.iter().enumerate() {
            for (k, s) in r.series.iter().enumerate() {
                let name = if r.series.len() == 1 {
                    format!("plots/{}.svg", r.id)
                } else {
                    format!("plots/{}-{}.svg", r.id, k + 1)
                };
                v.push((name, i, s));
            }
        }
        v
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
the claim holds; close to 1 means the bound is nearly attained); — when no comparison carries a \
ratio (exact identities).
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
- **seconds**: wall-clock time of the check at this budget (the claims run concurrently, so the \
column does not add up to the run's time).
- **plot**: a link to the claim's plot(s) below; — when it has none.

Numbers are printed to four significant digits (ratios and details; margins to three); \
`report.json` holds every value at full precision, and the details as the checks wrote them.
";

/// The markdown report: header, table, legend, plots and each claim's details.
pub fn markdown(rep: &Report) -> String {
    let rows = &rep.claims;
    let m = &rep.metadata;
    let plots = rep.plots();
    let commit = match m.git_dirty {
        Some(true) => format!("`{}` (with uncommitted changes)", m.git_commit),
        _ if m.git_commit == "unknown" => "unknown".into(),
        _ => format!("`{}`", m.git_commit),
    };
    let mut s = format!(
        "# dpsaddle verify report\n\n\
         | | |\n|---|---|\n\
         | crate | dpsaddle {} |\n\
         | commit | {commit} |\n\
         | budget | {} |\n\
         | date (UTC) | {} |\n\
         | machine | {}: {} cores, {} {} |\n\
         | threads | {} |\n\
         | filters | {} |\n\
         | wall clock | {} s |\n\n\
         {} of {} claims pass; {} vacuous.\n\n\
         | id | paper | item | kind | pass | worst ratio | instances | negative control | control margin | tight ratio | vacuous | seconds | plot |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        m.crate_version,
        m.budget,
        m.date_utc,
        m.hostname,
        m.cores,
        m.arch,
        m.os,
        if m.threads == 0 {
            "one per core".to_string()
        } else {
            m.threads.to_string()
        },
        if m.filters.is_empty() {
            "none (every claim)".to_string()
        } else {
            m.filters.join(", ")
        },
        fmt_num(m.total_seconds),
        rows.iter().filter(|r| r.pass).count(),
        rows.len(),
        rows.iter().filter(|r| r.vacuous == Some(true)).count(),
    );
    for (i, r) in rows.iter().enumerate() {
        let links: Vec<String> = plots
            .iter()
            .filter(|(_, j, _)| *j == i)
            .enumerate()
            .map(|(k, (name, _, _))| format!("[{}]({name})", k + 1))
            .collect();
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} | {} | {} | {:.2} | {} |\n",
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
            r.seconds,
            if links.is_empty() {
                "—".to_string()
            } else {
                links.join(" ")
            }
        ));
    }
    s.push('\n');
    s.push_str(LEGEND);
    if !plots.is_empty() {
        s.push_str("\n## Plots\n\n");
        for (name, i, series) in &plots {
            s.push_str(&format!(
                "### {} — {}\n\n![{}]({name})\n\n{}\n\n",
                rows[*i].id,
                series.title,
                series.title,
                plot_caption(series, rows[*i].tight_ratio.is_some())
            ));
        }
    }
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
        for (name, _, series) in plots.iter().filter(|(_, i, _)| rows[*i].id == r.id) {
            s.push_str(&format!("- plot: [{}]({name})\n", series.title));
        }
        for d in &r.details {
            s.push_str(&format!("- {}\n", tidy(d)));
        }
        s.push('\n');
    }
    s
}

/// What a plot shows, in one sentence under it.
fn plot_caption(s: &Series, tight: bool) -> String {
    match (s.kind, &s.fit) {
        (SeriesKind::Rate, Some(f)) => format!(
            "{} against {} on log–log axes ({} points{}), the bound, the least-squares line with the \
             fitted slope {} ± {} (99.9%) and a line of the claimed slope {} through the same centre.",
            s.y_label,
            s.x_label,
            s.x.len(),
            if s.y_se.is_empty() {
                ""
            } else {
                ", means ± 1 standard error"
            },
            fmt_num(f.slope),
            fmt_num(f.half_width),
            fmt_num(f.target)
        ),
        (SeriesKind::Rate, None) => format!(
            "{} and its bound against {} on log–log axes ({} points).",
            s.y_label,
            s.x_label,
            s.x.len()
        ),
        (SeriesKind::Ratio, _) => format!(
            "{} against {} ({} points); the red line is the bound (ratio 1){}",
            s.y_label,
            s.x_label,
            s.x.len(),
            if tight {
                ", which the claim's tight instance attains."
            } else {
                "; the claim has no tight instance, so no point need reach it."
            }
        ),
    }
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

/// The report's files: (path relative to the output directory, contents): report.json,
/// report.md and one SVG per plot.
pub fn files(rep: &Report) -> Result<Vec<(String, Vec<u8>)>> {
    let mut v = vec![
        (
            "report.json".to_string(),
            (serde_json::to_string_pretty(rep).expect("serializable") + "\n").into_bytes(),
        ),
        ("report.md".to_string(), markdown(rep).into_bytes()),
    ];
    for (name, _, s) in rep.plots() {
        v.push((name, plot::svg(s)?.into_bytes()));
    }
    Ok(v)
}

/// Write the report's [`files`] into `dir`: rendered first, then staged and committed only when
/// every file is written (`output::stage_and_commit`).
pub fn write(dir: &Path, rep: &Report) -> Result<()> {
    let files = files(rep)?;
    crate::output::stage_and_commit(dir, |dir| {
        for (name, bytes) in &files {
            write_atomic(&dir.join(name), bytes)?;
        }
        Ok(())
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
        let rep = Report::new(metadata(), vec![vac.clone(), sharp.clone()]);
        let md = markdown(&rep);
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

    fn metadata() -> Metadata {
        Metadata {
            crate_version: "0.1.0".into(),
            git_commit: "unknown".into(),
            git_dirty: None,
            budget: "quick".into(),
            date_utc: utc_timestamp(0),
            hostname: "host".into(),
            cores: 2,
            arch: "x86_64".into(),
            os: "linux".into(),
            threads: 0,
            filters: vec![],
            total_seconds: 1.5,
        }
    }

    fn rate_series() -> Series {
        Series {
            kind: SeriesKind::Rate,
            title: "planted rate".into(),
            x_label: "n".into(),
            y_label: "gap".into(),
            x: vec![1e4, 1e5, 1e6],
            y: vec![1e-2, 3.3e-3, 1.05e-3],
            y_se: vec![1e-4, 5e-5, 2e-5],
            bound: vec![0.1, 0.03, 0.011],
            fit: Some(crate::claims::SlopeFit {
                slope: -0.49,
                half_width: 0.02,
                target: -0.5,
            }),
            log_x: true,
        }
    }

    #[test]
    fn report_json_is_an_object_with_metadata_and_the_plots_are_written_and_linked() {
        let c = claim();
        let mut ev = evidence(0.9, 1.4);
        ev.series.push(rate_series());
        ev.series.push(Series {
            kind: SeriesKind::Ratio,
            title: "planted ratio".into(),
            x_label: "n".into(),
            y_label: "measured/bound".into(),
            x: vec![2.0, 3.0, 4.0, 5.0, 6.0],
            y: vec![1.0, 0.8, 0.9, 0.7, 1.0],
            y_se: vec![],
            bound: vec![],
            fit: None,
            log_x: false,
        });
        let plain = Row::new(&c, &Ok(evidence(0.5, 2.0)), 0.1);
        let rep = Report::new(metadata(), vec![Row::new(&c, &Ok(ev), 0.1), plain]);
        let v = serde_json::to_value(&rep).unwrap();
        assert_eq!(v["schema"], SCHEMA);
        for k in [
            "crate_version",
            "git_commit",
            "budget",
            "date_utc",
            "hostname",
            "cores",
            "arch",
        ] {
            assert!(v["metadata"].get(k).is_some(), "metadata.{k}");
        }
        assert_eq!(v["claims"].as_array().unwrap().len(), 2);
        assert_eq!(v["claims"][0]["series"][0]["fit"]["slope"], -0.49);
        assert!(v["claims"][1].get("series").is_none(), "no series: no key");
        let files = files(&rep).unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "report.json",
                "report.md",
                "plots/test.planted-1.svg",
                "plots/test.planted-2.svg"
            ]
        );
        let md = String::from_utf8(files[1].1.clone()).unwrap();
        assert!(md.contains("| crate | dpsaddle 0.1.0 |") && md.contains("| commit | unknown |"));
        assert!(md.contains("| date (UTC) | 1970-01-01T00:00:00Z |"));
        assert!(md.contains("| machine | host: 2 cores, x86_64 linux |"));
        assert!(md.contains("[1](plots/test.planted-1.svg) [2](plots/test.planted-2.svg)"));
        assert!(md.contains("![planted rate](plots/test.planted-1.svg)"));
        for (_, svg) in &files[2..] {
            let svg = String::from_utf8(svg.clone()).unwrap();
            assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        }
        let rate = String::from_utf8(files[2].1.clone()).unwrap();
        assert!(
            rate.contains("fitted slope −0.4900 ± 0.02000 (99.9%)"),
            "{rate}"
        );
        assert!(rate.contains("claimed slope −1/2") && rate.contains("bound"));
        let ratio = String::from_utf8(files[3].1.clone()).unwrap();
        assert!(ratio.contains("bound (ratio 1)"));
    }

    #[test]
    fn numbers_print_to_four_significant_digits_and_details_lose_debug_text() {
        assert_eq!(fmt_num(0.249816), "0.2498");
        assert_eq!(fmt_num(1.0), "1.000");
        assert_eq!(fmt_num(0.99999993), "1.000");
        assert_eq!(fmt_num(9.99996), "10.00");
        assert_eq!(fmt_num(1234.56), "1235");
        assert_eq!(fmt_num(-0.5), "-0.5000");
        assert_eq!(fmt_num(2.492_315_496_785_847e27), "2.492e27");
        assert_eq!(fmt_num(4.281_885_320_330_1e-4), "4.282e-4");
        assert_eq!(fmt_num(0.0), "0");
        assert_eq!(
            tidy("worst ratio Some(0.7761140001162654) at Some(\"n=1 q=0.5\"), Some(1.0)"),
            "worst ratio 0.7761 at n=1 q=0.5, 1.0"
        );
        assert_eq!(
            tidy("measured 1.0000000000000004e-2 > bound 5.216736687591765e-22; 2492315496785847106041544704"),
            "measured 0.01000 > bound 5.217e-22; 2.492e27"
        );
        // Ids, versions, short numbers and words with digits are left alone.
        let keep =
            "E-BGM23-38 bgm23.eq2-3 v0.1.0 n=10000 λ=0.2500 1/25 x2 48L ε = 1e-5 (T=1250, m=142)";
        assert_eq!(tidy(keep), keep);
        assert_eq!(tidy("IsSome(3)"), "IsSome(3)");
    }

    #[test]
    fn utc_timestamps() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_timestamp(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(utc_timestamp(1_795_737_599), "2026-11-26T23:59:59Z");
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
