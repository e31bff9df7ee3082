//! The `dpsaddle` command line: a thin layer over the library; the commands are listed in README.md.
//! Exit codes: 0 success, 1 a check failed or a fixture mismatched, 2 bad input.

use clap::{Parser, Subcommand};
use dpsaddle::claims::{self, Budget};
use dpsaddle::report::{self, Row};
use dpsaddle::{config, fixtures, Error};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dpsaddle",
    version,
    about = "Reference implementation and correctness oracle for DP saddle-point / VI algorithms"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the claims' checks, print the ledger and write the report.
    Verify {
        /// quick (seconds) or full (minutes).
        #[arg(long, value_enum, default_value = "quick")]
        budget: Budget,
        /// Only this paper's claims (BGM23, KLLW22, BGM24, ZTOH22, BG23).
        #[arg(long)]
        paper: Option<String>,
        /// Only this claim.
        #[arg(long)]
        claim: Option<String>,
        /// Directory for report.json, report.md and the plots (plots/*.svg).
        #[arg(long, default_value = "verify-out")]
        out: PathBuf,
        /// Print the report (report.json's object) on stdout instead of the table.
        #[arg(long)]
        json: bool,
        /// Worker threads for running claims concurrently: 0 (the default) uses rayon's default
        /// (one per core, or RAYON_NUM_THREADS), 1 runs the claims one after another. The
        /// results are the same either way; only the seconds differ.
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// List every claim with its kind.
    Claims {
        /// Only this paper's claims.
        #[arg(long)]
        paper: Option<String>,
        /// JSON array on stdout.
        #[arg(long)]
        json: bool,
    },
    /// Run one algorithm on one instance described by a JSON config.
    Run {
        /// regularized_saddle_point | output_perturbation | recursive_regularization (BGM23
        /// Algorithm 1) | noisy_sgda | ldp_sgda | dp_gda; on a VI config (an `operator` instead
        /// of a `problem`): extragradient (BG23 Algorithm 1) | operator_extrapolation (BG23
        /// Algorithm 3) | nispp (BG23 Algorithm 2) | nseg (BG23 Algorithm 1: single pass, full
        /// batch, multi-pass, or the Cor 1 / Thm 4 policies); on a ZTOH22 config: ztoh22_alg1 …
        /// ztoh22_alg5 (ZTOH22 Algorithms 1–5)
        algorithm: String,
        /// The JSON config (see fixtures/configs/).
        #[arg(long)]
        config: PathBuf,
        /// Master seed (overrides the config's).
        #[arg(long)]
        seed: Option<u64>,
        /// JSON on stdout (the default is a short human summary).
        #[arg(long)]
        json: bool,
        /// Print only the (ε, δ) the run's ledger achieves (the run still produces the ledger).
        #[arg(long)]
        privacy_only: bool,
        /// δ at which the ledger is priced (default: the config's `params.delta`, else 1e-5).
        #[arg(long)]
        delta: Option<f64>,
        /// Record every noise draw and print the tape (`noise_tape` in the JSON) so the run can
        /// be replayed without an RNG; without it nothing is recorded (memory constant in T).
        #[arg(long)]
        tape: bool,
    },
    /// Generate or check JSON fixtures.
    Fixtures {
        #[command(subcommand)]
        cmd: FixCmd,
    },
    /// The command-line accountant: price an event tree, or calibrate a Gaussian mechanism.
    Privacy {
        #[command(subcommand)]
        cmd: PrivCmd,
    },
}

#[derive(Subcommand)]
enum PrivCmd {
    /// ε at δ for an event tree `{"relation": ..., "event": ...}` (JSON file).
    Epsilon {
        /// The event file.
        #[arg(long)]
        event: PathBuf,
        /// δ ∈ (0, 1).
        #[arg(long)]
        delta: f64,
        /// pld | rdp | gdp | zcdp | moments (default: the tightest that supports the event).
        #[arg(long)]
        accountant: Option<String>,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// δ at ε for an event tree.
    Delta {
        /// The event file.
        #[arg(long)]
        event: PathBuf,
        /// ε ≥ 0.
        #[arg(long)]
        epsilon: f64,
        /// pld | rdp | gdp | zcdp | moments (default: the tightest that supports the event).
        #[arg(long)]
        accountant: Option<String>,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
    /// σ of the Gaussian mechanism for (ε, δ) and ℓ2 sensitivity Δ.
    Calibrate {
        /// ε > 0.
        #[arg(long)]
        epsilon: f64,
        /// δ ∈ (0, 1).
        #[arg(long)]
        delta: f64,
        /// Δ ≥ 0.
        #[arg(long)]
        sensitivity: f64,
        /// analytic (Balle–Wang 2018) or classic (√(2 ln(1.25/δ))Δ/ε, valid for ε ≤ 1).
        #[arg(long, default_value = "analytic")]
        method: String,
        /// JSON output.
        #[arg(long)]
        json: bool,
    },
}

fn read_ledger(path: &std::path::Path) -> Result<dpsaddle::privacy::PrivacyLedger, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        source: e,
    })?;
    let ledger: dpsaddle::privacy::PrivacyLedger =
        serde_json::from_str(&text).map_err(|e| Error::Json {
            path: path.display().to_string(),
            msg: e.to_string(),
        })?;
    ledger.event.validate()?;
    Ok(ledger)
}

fn privacy_cmd(cmd: PrivCmd) -> Result<serde_json::Value, Error> {
    use dpsaddle::privacy::accountant::{by_name, every_delta, every_epsilon, PLD_DEFAULT_BUDGET};
    match cmd {
        PrivCmd::Epsilon {
            event,
            delta,
            accountant,
            ..
        } => {
            dpsaddle::privacy::require_delta("delta", delta)?;
            let ledger = read_ledger(&event)?;
            match accountant {
                Some(name) => {
                    let r = by_name(&name)?.epsilon(&ledger, delta)?;
                    Ok(
                        serde_json::json!({"epsilon": r.epsilon, "delta": r.delta, "order": r.order, "accountant": r.accountant}),
                    )
                }
                None => {
                    let all = every_epsilon(&ledger, delta, PLD_DEFAULT_BUDGET)?;
                    let best = all.iter().find(|p| p.tightest).expect("one is marked");
                    Ok(
                        serde_json::json!({"epsilon": best.value, "delta": delta, "order": best.order, "accountant": best.accountant, "accountants": all}),
                    )
                }
            }
        }
        PrivCmd::Delta {
            event,
            epsilon,
            accountant,
            ..
        } => {
            let ledger = read_ledger(&event)?;
            match accountant {
                Some(name) => {
                    let d = by_name(&name)?.delta(&ledger, epsilon)?;
                    Ok(serde_json::json!({"delta": d, "epsilon": epsilon, "accountant": name}))
                }
                None => {
                    let all = every_delta(&ledger, epsilon, PLD_DEFAULT_BUDGET)?;
                    let best = all.iter().find(|p| p.tightest).expect("one is marked");
                    Ok(
                        serde_json::json!({"delta": best.value, "epsilon": epsilon, "accountant": best.accountant, "accountants": all}),
                    )
                }
            }
        }
        PrivCmd::Calibrate {
            epsilon,
            delta,
            sensitivity,
            method,
            ..
        } => {
            use dpsaddle::privacy::analytic::{calibrate, CalibrationMethod};
            let m = match method.as_str() {
                "analytic" => CalibrationMethod::Analytic,
                "classic" => CalibrationMethod::Classic,
                other => {
                    return Err(dpsaddle::error::invalid(
                        "method",
                        format!("unknown method `{other}`; known: analytic, classic"),
                    ))
                }
            };
            let c = calibrate(m, sensitivity, epsilon, delta)?;
            Ok(serde_json::to_value(&c).expect("serializable"))
        }
    }
}

/// The human form of a privacy answer: one `key value` line per scalar, then (default
/// accountant) every accountant's answer, the tightest marked.
fn privacy_text(v: &serde_json::Value) -> String {
    let mut s = String::new();
    let Some(obj) = v.as_object() else {
        return s;
    };
    for (k, x) in obj.iter().filter(|(k, _)| *k != "accountants") {
        s += &format!("{k:<16} {x}\n");
    }
    if let Some(list) = obj.get("accountants").and_then(|a| a.as_array()) {
        s += "every accountant (* = tightest):\n";
        for p in list {
            let name = p["accountant"].as_str().unwrap_or("?");
            let mark = if p["tightest"].as_bool() == Some(true) {
                "*"
            } else {
                " "
            };
            match p["value"].as_f64() {
                Some(x) => s += &format!("  {mark} {name:<8} {x}\n"),
                None => {
                    s += &format!(
                        "    {name:<8} no answer: {}\n",
                        p["note"].as_str().unwrap_or("")
                    )
                }
            }
        }
    }
    s
}

/// Add `"privacy"` to a run's JSON: the (ε, δ) its ledger achieves at δ (the `--delta` flag,
/// else the config's `params.delta`, else 1e-5), with the accountant that priced it.
fn run_privacy(
    v: serde_json::Value,
    cfg: &config::RunConfig,
    delta: Option<f64>,
) -> Result<serde_json::Value, Error> {
    run_privacy_params(v, &cfg.params, delta)
}

/// [`run_privacy`] with the config's `params` (saddle or VI configs).
fn run_privacy_params(
    mut v: serde_json::Value,
    params: &serde_json::Value,
    delta: Option<f64>,
) -> Result<serde_json::Value, Error> {
    use dpsaddle::privacy::accountant::{price_run_ledger, PLD_DEFAULT_BUDGET};
    let delta = delta
        .or_else(|| params.get("delta").and_then(|d| d.as_f64()))
        .unwrap_or(1e-5);
    if v["ledger"].is_null() {
        v["privacy"] = serde_json::json!({
            "private": false,
            "note": "this algorithm releases its output without noise: no (ε, δ) guarantee",
        });
        return Ok(v);
    }
    let ledger: dpsaddle::privacy::PrivacyLedger = serde_json::from_value(v["ledger"].clone())
        .map_err(|e| dpsaddle::error::invalid("ledger", e.to_string()))?;
    let p = price_run_ledger(&ledger, delta, PLD_DEFAULT_BUDGET)?;
    v["privacy"] = serde_json::to_value(&p).expect("serializable");
    Ok(v)
}

/// The human lines of a run's privacy statement.
fn run_privacy_text(p: &serde_json::Value) -> String {
    if let Some(note) = p["note"].as_str() {
        return format!("privacy        none: {note}\n");
    }
    let mut s = format!(
        "privacy        (ε, δ) = ({}, {}) by {}\n",
        p["epsilon"],
        p["delta"],
        p["accountant"].as_str().unwrap_or("?")
    );
    s += &format!("               {}\n", p["method"].as_str().unwrap_or(""));
    if let Some(t) = p["truncation_delta"].as_f64() {
        s += &format!("               of δ, {t:e} pays for truncating multiplicities\n");
    }
    s
}

/// `dpsaddle run ztoh22_alg1` … `ztoh22_alg5`: the release, the solver and its evaluations, the
/// ledger and its (ε, δ).
fn run_ztoh22_cmd(
    algorithm: &str,
    text: &str,
    seed: Option<u64>,
    json: bool,
    privacy_only: bool,
    delta: Option<f64>,
    tape: bool,
) -> ExitCode {
    use dpsaddle::algorithms::ztoh22_run::{run_config, ZtohConfig};
    let v = match ZtohConfig::parse(text).and_then(|cfg| {
        let params = serde_json::json!({ "delta": cfg.params.delta });
        run_config(algorithm, &cfg, seed, tape).and_then(|v| run_privacy_params(v, &params, delta))
    }) {
        Ok(v) => v,
        Err(e) => return bad(e),
    };
    if privacy_only {
        if json {
            println!(
                "{}",
                serde_json::to_string_pretty(&v["privacy"]).expect("serializable")
            );
        } else {
            print!("{}", run_privacy_text(&v["privacy"]));
        }
    } else if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        println!("algorithm      {}", v["name"]);
        println!("n, seed        {}, {}", v["n"], v["seed"]);
        println!("L              {}", v["lipschitz"]);
        println!("solver         {}", v["solver"]);
        println!("release        {}", v["release"]);
        println!(
            "phases         {}",
            v["phases"].as_array().map_or(0, Vec::len)
        );
        println!("evaluations    {}", v["evals"]);
        println!("ledger         {}", v["ledger"]);
        print!("{}", run_privacy_text(&v["privacy"]));
    }
    ExitCode::SUCCESS
}

/// `dpsaddle run` of a VI algorithm on a VI config: the output z, the evaluation counts, the
/// ν-certificate and closed-form VI gap at z, the ledger (σ > 0) and its privacy statement.
#[allow(clippy::too_many_arguments)]
fn run_vi_cmd(
    algorithm: &str,
    text: &str,
    path: &std::path::Path,
    seed: Option<u64>,
    json: bool,
    privacy_only: bool,
    delta: Option<f64>,
    tape: bool,
) -> ExitCode {
    let cfg = match config::parse_vi(text, &path.display().to_string()) {
        Ok(c) => c,
        Err(e) => return bad(e),
    };
    let v = match config::run_vi_with(algorithm, &cfg, seed, tape)
        .and_then(|v| run_privacy_params(v, &cfg.params, delta))
    {
        Ok(v) => v,
        Err(e) => return bad(e),
    };
    if privacy_only {
        if json {
            println!(
                "{}",
                serde_json::to_string_pretty(&v["privacy"]).expect("serializable")
            );
        } else {
            print!("{}", run_privacy_text(&v["privacy"]));
        }
    } else if json {
        println!(
            "{}",
            serde_json::to_string_pretty(&v).expect("serializable")
        );
    } else {
        println!("algorithm      {}", v["name"]);
        println!("n, seed        {}, {}", v["n"], v["seed"]);
        println!("z              {}", v["z"]);
        if !v["w"].is_null() {
            println!("w, θ           {}, {}", v["w"], v["theta"]);
        }
        println!("ν-certificate  {}", v["nu_certificate"]);
        println!("VI gap         {}", v["vi_gap"]);
        println!("evaluations    {}", v["evals"]);
        let per = v["evals_per_point"].as_array().map_or(0, Vec::len);
        if per <= 20 {
            println!("per point      {}", v["evals_per_point"]);
        }
        println!("ledger         {}", v["ledger"]);
        print!("{}", run_privacy_text(&v["privacy"]));
    }
    ExitCode::SUCCESS
}

#[derive(Subcommand)]
enum FixCmd {
    /// Rewrite every fixture under DIR (byte-identical on a rerun).
    Generate {
        /// The fixtures directory.
        #[arg(long, default_value = "fixtures")]
        dir: PathBuf,
    },
    /// Recompute every test of each FILE and report per tcId.
    Check {
        /// Fixture files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

fn bad(e: Error) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(2)
}

fn paper_matches(filter: &Option<String>, paper: &str) -> bool {
    filter
        .as_ref()
        .is_none_or(|p| p.eq_ignore_ascii_case(paper))
}

fn main() -> ExitCode {
    // A closed stdout (`dpsaddle claims | head -1`) ends quietly with status 141.
    dpsaddle::output::quiet_on_closed_pipe();
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Claims { paper, json } => {
            let list: Vec<_> = claims::registry()
                .into_iter()
                .filter(|c| paper_matches(&paper, c.paper))
                .collect();
            // As `verify --paper`: a filter that matches no claim is bad input (exit 2).
            if list.is_empty() {
                return bad(dpsaddle::error::invalid(
                    "paper",
                    "no claim matches the filter",
                ));
            }
            if json {
                let v: Vec<_> = list
                    .iter()
                    .map(|c| {
                        serde_json::json!({
                            "id": c.id, "paper": c.paper, "item": c.item, "kind": c.kind.label(),
                            "statement": c.statement, "code": c.code,
                            "not_checkable_reason": match &c.kind { claims::Kind::NotCheckable(r) => Some(r.clone()), _ => None },
                        })
                    })
                    .collect();
                println!(
                    "{}",
                    serde_json::to_string_pretty(&v).expect("serializable")
                );
            } else {
                for c in &list {
                    println!(
                        "{:<28} {:<6} {:<24} {:<11} {}",
                        c.id,
                        c.paper,
                        c.item,
                        c.kind.label(),
                        c.statement
                    );
                }
            }
            ExitCode::SUCCESS
        }
        Cmd::Verify {
            budget,
            paper,
            claim,
            out,
            json,
            threads,
        } => {
            let list: Vec<_> = claims::registry()
                .into_iter()
                .filter(|c| {
                    paper_matches(&paper, c.paper) && claim.as_ref().is_none_or(|id| id == c.id)
                })
                .collect();
            if list.is_empty() {
                return bad(dpsaddle::error::invalid(
                    "claim",
                    "no claim matches the filters",
                ));
            }
            let budget_name = format!("{budget:?}").to_lowercase();
            let filters: Vec<String> = [("paper", &paper), ("claim", &claim)]
                .iter()
                .filter_map(|(k, v)| v.as_ref().map(|v| format!("--{k} {v}")))
                .collect();
            let mut meta = report::Metadata::collect(&budget_name, threads, filters);
            let started = std::time::Instant::now();
            let bar = if std::io::stderr().is_terminal() {
                let b = indicatif::ProgressBar::new(list.len() as u64);
                b.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{elapsed_precise} [{bar:40}] {pos}/{len} claims, ETA {eta} · {msg}",
                    )
                    .expect("valid template"),
                );
                b.enable_steady_tick(std::time::Duration::from_millis(500));
                Some(b)
            } else {
                None
            };
            let done = |c: &claims::Claim| {
                if let Some(b) = &bar {
                    b.set_message(c.id);
                    b.inc(1);
                }
            };
            let outcomes = if threads == 1 {
                claims::run_checks(&list, budget, false, &done)
            } else {
                match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
                    Ok(pool) => pool.install(|| claims::run_checks(&list, budget, true, &done)),
                    Err(e) => return bad(dpsaddle::error::invalid("threads", e.to_string())),
                }
            };
            let rows: Vec<Row> = list
                .iter()
                .zip(&outcomes)
                .map(|(c, (ev, seconds))| Row::new(c, ev, *seconds))
                .collect();
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            meta.total_seconds = started.elapsed().as_secs_f64();
            let rep = report::Report::new(meta, rows);
            if let Err(e) = report::write(&out, &rep) {
                return bad(e);
            }
            let rows = &rep.claims;
            if json {
                println!(
                    "{}",
                    serde_json::to_string_pretty(&rep).expect("serializable")
                );
                // The summary table still reaches the terminal, on stderr.
                eprint!("{}", report::summary(rows));
            } else {
                print!("{}", report::summary(rows));
                println!(
                    "{} of {} claims pass; report in {}",
                    rows.iter().filter(|r| r.pass).count(),
                    rows.len(),
                    out.display()
                );
            }
            if rows.iter().all(|r| r.pass) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Cmd::Run {
            algorithm,
            config: path,
            seed,
            json,
            privacy_only,
            delta,
            tape,
        } => {
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    return bad(Error::Io {
                        path: path.display().to_string(),
                        source: e,
                    })
                }
            };
            if dpsaddle::algorithms::ztoh22_run::ZTOH22_ALGORITHMS.contains(&algorithm.as_str()) {
                return run_ztoh22_cmd(&algorithm, &text, seed, json, privacy_only, delta, tape);
            }
            if config::VI_ALGORITHMS.contains(&algorithm.as_str()) {
                return run_vi_cmd(
                    &algorithm,
                    &text,
                    &path,
                    seed,
                    json,
                    privacy_only,
                    delta,
                    tape,
                );
            }
            let cfg = match config::parse(&text, &path.display().to_string()) {
                Ok(c) => c,
                Err(e) => return bad(e),
            };
            match config::run_with(&algorithm, &cfg, seed, tape)
                .and_then(|v| run_privacy(v, &cfg, delta))
            {
                Ok(v) if privacy_only => {
                    if json {
                        println!(
                            "{}",
                            serde_json::to_string_pretty(&v["privacy"]).expect("serializable")
                        );
                    } else {
                        print!("{}", run_privacy_text(&v["privacy"]));
                    }
                    ExitCode::SUCCESS
                }
                Ok(v) => {
                    if json {
                        println!(
                            "{}",
                            serde_json::to_string_pretty(&v).expect("serializable")
                        );
                    } else {
                        println!("algorithm      {}", v["name"]);
                        println!("problem        {}", v["problem"]);
                        println!("n, seed        {}, {}", v["n"], v["seed"]);
                        println!("w              {}", v["w"]);
                        println!("θ              {}", v["theta"]);
                        println!("empirical gap  {}", v["empirical_gap"]);
                        println!("population gap {}", v["population_gap"]);
                        println!("grad evals     {}", v["grad_evals"]);
                        println!("ledger         {}", v["ledger"]);
                        print!("{}", run_privacy_text(&v["privacy"]));
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => bad(e),
            }
        }
        Cmd::Privacy { cmd } => {
            let json = match &cmd {
                PrivCmd::Epsilon { json, .. }
                | PrivCmd::Delta { json, .. }
                | PrivCmd::Calibrate { json, .. } => *json,
            };
            match privacy_cmd(cmd) {
                Ok(v) => {
                    if json {
                        println!(
                            "{}",
                            serde_json::to_string_pretty(&v).expect("serializable")
                        );
                    } else {
                        print!("{}", privacy_text(&v));
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => bad(e),
            }
        }
        Cmd::Fixtures {
            cmd: FixCmd::Generate { dir },
        } => match fixtures::generate(&dir) {
            Ok(paths) => {
                for p in paths {
                    println!("wrote {}", p.display());
                }
                ExitCode::SUCCESS
            }
            Err(e) => bad(e),
        },
        Cmd::Fixtures {
            cmd: FixCmd::Check { files },
        } => {
            let mut failed = 0usize;
            let mut total = 0usize;
            for f in &files {
                match fixtures::check_file(f) {
                    Ok(vs) if vs.is_empty() => {
                        println!("{}: skipped (not a fixture file)", f.display());
                    }
                    Ok(vs) => {
                        for v in vs {
                            total += 1;
                            if !v.ok {
                                failed += 1;
                            }
                            println!(
                                "{} tcId {}: {} {}",
                                f.display(),
                                v.tc_id,
                                if v.ok { "ok" } else { "FAIL" },
                                v.message
                            );
                        }
                    }
                    Err(e) => return bad(e),
                }
            }
            println!("{} passed, {} failed", total - failed, failed);
            if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
    }
}
