//! The command line: exit codes, messages naming the bad field, fixtures check, determinism of
//! `run` across thread counts.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_dpsaddle"))
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dpsaddle-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn base_config() -> serde_json::Value {
    let text = std::fs::read_to_string("fixtures/configs/output_perturbation.json").unwrap();
    serde_json::from_str(&text).unwrap()
}

fn run_with(name: &str, text: &str, alg: &str) -> (i32, String, String) {
    let d = tmpdir(name);
    let p = d.join("config.json");
    std::fs::write(&p, text).unwrap();
    let out = bin()
        .args(["run", alg, "--config"])
        .arg(&p)
        .arg("--json")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn expect_bad(name: &str, cfg: serde_json::Value, alg: &str, field: &str) {
    let (code, out, err) = run_with(name, &cfg.to_string(), alg);
    assert_eq!(code, 2, "{name}: exit code (stdout {out}, stderr {err})");
    assert!(
        err.contains(field),
        "{name}: message should name `{field}`: {err}"
    );
    assert!(!err.contains("panicked"), "{name}: panic: {err}");
    assert!(out.is_empty(), "{name}: nothing on stdout");
}

#[test]
fn example_configs_run() {
    for (alg, file) in [
        (
            "regularized_saddle_point",
            "fixtures/configs/regularized_saddle_point.json",
        ),
        (
            "output_perturbation",
            "fixtures/configs/output_perturbation.json",
        ),
        (
            "recursive_regularization",
            "fixtures/configs/recursive_regularization_exact.json",
        ),
        (
            "recursive_regularization",
            "fixtures/configs/recursive_regularization_biased_exact.json",
        ),
        (
            "recursive_regularization",
            "fixtures/configs/recursive_regularization_output_perturbation.json",
        ),
        (
            "recursive_regularization",
            "fixtures/configs/recursive_regularization_noisy_sgda.json",
        ),
        ("dp_gda", "fixtures/configs/dp_gda.json"),
    ] {
        let out = bin()
            .args(["run", alg, "--config", file, "--json"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{alg}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert!(v["empirical_gap"].as_f64().unwrap() >= -1e-12);
        assert!(v["w"].is_array() && v["theta"].is_array());
    }
}

#[test]
fn malformed_json_exits_2() {
    let (code, _, err) = run_with("malformed", "{\"problem\": ", "output_perturbation");
    assert_eq!(code, 2);
    assert!(err.contains("EOF") || err.contains("line"), "{err}");
}

#[test]
fn unknown_field_is_named() {
    let mut c = base_config();
    c["params"]["lambdaa"] = serde_json::json!(1.0);
    expect_bad("unknown-param", c, "output_perturbation", "lambdaa");
    let mut c = base_config();
    c["extra"] = serde_json::json!(1);
    expect_bad("unknown-top", c, "output_perturbation", "extra");
}

#[test]
fn epsilon_and_delta_out_of_range() {
    for (name, key, val) in [
        ("eps0", "epsilon", 0.0),
        ("epsneg", "epsilon", -1.0),
        ("delta0", "delta", 0.0),
        ("delta1", "delta", 1.0),
        ("delta2", "delta", 2.0),
    ] {
        let mut c = base_config();
        c["params"][key] = serde_json::json!(val);
        expect_bad(name, c, "output_perturbation", key);
    }
}

#[test]
fn mismatched_dimensions_are_named() {
    let mut c = base_config();
    c["data"]["points"][1] = serde_json::json!([0.1, 0.2]);
    expect_bad("ragged", c, "output_perturbation", "data[1]");
    let mut c = base_config();
    c["params"]["anchor_w"] = serde_json::json!([0.0, 0.0, 0.0]);
    expect_bad("anchor", c, "output_perturbation", "anchor");
    let mut c = base_config();
    c["problem"]["coupling"] = serde_json::json!([[1.0]]);
    expect_bad("coupling", c, "output_perturbation", "coupling");
}

#[test]
fn nan_and_overflow_are_named() {
    let text = base_config()
        .to_string()
        .replace("\"epsilon\":1.0", "\"epsilon\":NaN");
    assert!(text.contains("NaN"));
    let (code, _, err) = run_with("nan", &text, "output_perturbation");
    assert_eq!(code, 2);
    assert!(err.contains("epsilon"), "{err}");
    let text = base_config()
        .to_string()
        .replace("\"lambda\":1.0", "\"lambda\":1e999");
    let (code, _, err) = run_with("overflow", &text, "output_perturbation");
    assert_eq!(code, 2);
    assert!(err.contains("lambda"), "{err}");
}

#[test]
fn unknown_algorithm_and_missing_file() {
    let (code, _, err) = run_with("alg", &base_config().to_string(), "no_such_algorithm");
    assert_eq!(code, 2);
    assert!(err.contains("algorithm"), "{err}");
    let out = bin()
        .args([
            "run",
            "output_perturbation",
            "--config",
            "/nonexistent/x.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn run_is_bit_identical_across_thread_counts() {
    let mut outs = Vec::new();
    for threads in ["1", "2", "2"] {
        let o = bin()
            .env("RAYON_NUM_THREADS", threads)
            .args([
                "run",
                "output_perturbation",
                "--config",
                "fixtures/configs/output_perturbation.json",
                "--json",
                "--seed",
                "11",
            ])
            .output()
            .unwrap();
        assert!(o.status.success());
        outs.push(o.stdout);
    }
    assert_eq!(outs[0], outs[1]);
    assert_eq!(outs[1], outs[2]);
}

#[test]
fn claims_json_lists_required_fields() {
    let o = bin().args(["claims", "--json"]).output().unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let arr = v.as_array().unwrap();
    assert!(!arr.is_empty());
    for c in arr {
        for k in ["id", "paper", "item", "kind", "statement"] {
            assert!(c.get(k).is_some(), "missing {k} in {c}");
        }
    }
}

#[test]
fn verify_one_claim_writes_report() {
    let d = tmpdir("verify");
    let o = bin()
        .args(["verify", "--claim", "bgm23.lemma3", "--json", "--out"])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(d.join("report.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    // An object: the schema, the run's metadata and the claims; stdout (--json) holds the same.
    assert_eq!(v["schema"], dpsaddle::report::SCHEMA);
    assert_eq!(v["metadata"]["budget"], "quick");
    assert_eq!(v["metadata"]["crate_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(v["metadata"]["filters"][0], "--claim bgm23.lemma3");
    let stdout: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(stdout["claims"], v["claims"]);
    assert_eq!(v["claims"].as_array().unwrap().len(), 1);
    let row = &v["claims"][0];
    for k in [
        "id",
        "paper",
        "item",
        "kind",
        "pass",
        "worst_ratio",
        "instances",
        "negative_control",
        "seconds",
    ] {
        assert!(row.get(k).is_some(), "missing {k}");
    }
    assert_eq!(row["negative_control"], "rejected");
    assert!(d.join("report.md").exists());
    let o = bin()
        .args(["verify", "--claim", "no.such.claim"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn fixtures_check_passes_and_a_changed_value_fails_naming_the_tc_id() {
    let files: Vec<PathBuf> = [
        "core/rng.json",
        "bgm23/gap_function.json",
        "bgm23/weak_strong_gap.json",
    ]
    .iter()
    .map(|p| PathBuf::from("fixtures").join(p))
    .collect();
    let o = bin()
        .args(["fixtures", "check"])
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    // Change one expected value in a copy.
    let text = std::fs::read_to_string("fixtures/bgm23/gap_function.json").unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let t = &mut v["testGroups"][0]["tests"][1];
    let tc = t["tcId"].as_u64().unwrap();
    let g = t["expected"]["gap"].as_f64().unwrap();
    t["expected"]["gap"] = serde_json::json!(g * (1.0 + 1e-6) + 1e-9);
    let d = tmpdir("fixcheck");
    let p = d.join("changed.json");
    std::fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = bin().args(["fixtures", "check"]).arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains(&format!("tcId {tc}: FAIL")), "{out}");
    // Accepting an invalid test is a failure too: flip an invalid test to valid.
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = v["testGroups"][0]["tests"].as_array_mut().unwrap();
    let inv = tests.iter_mut().find(|t| t["result"] == "invalid").unwrap();
    inv["result"] = serde_json::json!("valid");
    std::fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let o = bin().args(["fixtures", "check"]).arg(&p).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn fixtures_check_over_the_whole_tree_skips_non_fixture_json() {
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::from("fixtures")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.iter().any(|p| p.starts_with("fixtures/configs")));
    let o = bin()
        .args(["fixtures", "check"])
        .args(&files)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("skipped (not a fixture file)"));
    assert!(out.lines().last().unwrap().ends_with(" 0 failed"), "{out}");
}

/// Algorithm 1 with λ too large for one round, and a half-given free mode: exit 2 naming the field.
#[test]
fn recursive_regularization_bad_params() {
    let mut cfg = base_config();
    cfg["params"] = serde_json::json!({"lambda": 50.0});
    let (code, _, err) = run_with("rr_lambda", &cfg.to_string(), "recursive_regularization");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("params.lambda") && err.contains("T ="),
        "{err}"
    );
    cfg["params"] = serde_json::json!({"lambda": 0.01, "rounds": 2});
    let (code, _, err) = run_with("rr_free", &cfg.to_string(), "recursive_regularization");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("params.rounds"), "{err}");
    cfg["params"] = serde_json::json!({"lambda": 0.01, "rounds": 1, "n_prime": 4, "a_emp": {"output_perturbation": {"epsilon": -1.0, "delta": 1e-5, "project": true}}});
    let (code, _, err) = run_with("rr_eps", &cfg.to_string(), "recursive_regularization");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("epsilon"), "{err}");
}

fn config(file: &str) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

#[test]
fn noisy_and_ldp_sgda_configs_run_and_repeat() {
    for (alg, file) in [
        ("noisy_sgda", "fixtures/configs/noisy_sgda.json"),
        ("ldp_sgda", "fixtures/configs/ldp_sgda.json"),
    ] {
        let run = || {
            bin()
                .args(["run", alg, "--config", file, "--json", "--tape"])
                .output()
                .unwrap()
        };
        let out = run();
        assert!(
            out.status.success(),
            "{alg}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let n = config(file)["data"]["n"].as_u64().unwrap();
        let info = &v["info"];
        let evals = v["grad_evals"].as_u64().unwrap();
        if alg == "noisy_sgda" {
            // n = 400, d = 4, ε = 1, δ = 1e-5: T = ⌊min{50, 160000/(128 ln 1e5)}⌋ = 50 and the
            // corrected m = ⌈400/√50⌉ = 57.
            assert_eq!(
                (info["T"].as_u64(), info["m"].as_u64()),
                (Some(50), Some(57))
            );
            assert_eq!(evals, 50 * 57);
            assert!(v["ledger"]["event"]["self_composed"]["count"] == 50);
        } else {
            assert_eq!(evals, n, "one gradient per user");
            assert!(v["ledger"]["event"]["gaussian"]["noise_multiplier"].is_number());
        }
        assert!(v["population_gap"].as_f64().unwrap() >= -1e-12);
        assert!(v["noise_tape"]["draws"].as_array().unwrap().len() > 1);
        assert_eq!(run().stdout, out.stdout, "{alg}: same seed, same output");
        // Without --tape nothing is recorded and the run is the same.
        let plain = bin()
            .args(["run", alg, "--config", file, "--json"])
            .output()
            .unwrap();
        let p: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
        assert!(p["noise_tape"].is_null(), "{alg}: no tape unless asked");
        for key in [
            "w",
            "theta",
            "grad_evals",
            "info",
            "ledger",
            "empirical_gap",
        ] {
            assert_eq!(p[key], v[key], "{alg}: {key} with and without --tape");
        }
    }
}

#[test]
fn noisy_and_ldp_sgda_bad_input_is_named() {
    let noisy = config("fixtures/configs/noisy_sgda.json");
    for (name, key, val, field) in [
        ("c0", "c0", serde_json::json!(0.0), "c0"),
        ("eps", "epsilon", serde_json::json!(0.0), "epsilon"),
        ("delta", "delta", serde_json::json!(1.5), "delta"),
        ("dhat", "d_hat", serde_json::json!(-1.0), "d_hat"),
        ("lip", "lipschitz", serde_json::json!(0.0), "lipschitz"),
        ("start", "start_w", serde_json::json!([0.9, 0.9]), "start"),
        ("extra", "sigmas", serde_json::json!(1.0), "sigmas"),
        ("mixed", "sigma", serde_json::json!(1.0), "params.c0"),
    ] {
        let mut c = noisy.clone();
        c["params"][key] = val;
        expect_bad(&format!("noisy-{name}"), c, "noisy_sgda", field);
    }
    // Too few points for one step: T = ⌊min{n/8, …}⌋ < 1 names n.
    let mut c = noisy.clone();
    c["data"]["n"] = serde_json::json!(5);
    expect_bad("noisy-small-n", c, "noisy_sgda", "invalid n");
    let ldp = config("fixtures/configs/ldp_sgda.json");
    for (name, key, val, field) in [
        ("diam", "diameter", serde_json::json!(0.0), "diameter"),
        ("eps", "epsilon", serde_json::json!(-2.0), "epsilon"),
        ("variant", "variant", serde_json::json!("halved"), "halved"),
    ] {
        let mut c = ldp.clone();
        c["params"][key] = val;
        expect_bad(&format!("ldp-{name}"), c, "ldp_sgda", field);
    }
}

/// Explicit noisy SGDA (T, m, η, σ given): the example config of issue 12's instance runs with
/// m·T gradient evaluations and no ledger; missing, mixed and invalid fields are named.
#[test]
fn noisy_sgda_explicit_parameters() {
    let mut cfg = config("fixtures/configs/noisy_sgda_explicit_d10_m10.json");
    cfg["params"]["steps"] = serde_json::json!(300);
    let (code, out, err) = run_with("explicit_ok", &cfg.to_string(), "noisy_sgda");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3000"), "m·T = 3000 evaluations: {out}");
    assert!(out.contains("sgda(η=0.01, T=300, m=10, σ=0.1)"), "{out}");
    for (name, key, val, field) in [
        ("steps0", "steps", serde_json::json!(0), "params.steps"),
        ("batch0", "batch", serde_json::json!(0), "params.batch"),
        ("eta", "eta", serde_json::json!(-0.5), "params.eta"),
        ("sigma", "sigma", serde_json::json!(-1.0), "params.sigma"),
        ("mixed", "epsilon", serde_json::json!(1.0), "params.epsilon"),
    ] {
        let mut c = cfg.clone();
        c["params"][key] = val;
        expect_bad(&format!("explicit-{name}"), c, "noisy_sgda", field);
    }
    let mut c = cfg.clone();
    c["params"].as_object_mut().unwrap().remove("eta");
    expect_bad("explicit-missing", c, "noisy_sgda", "params.eta");
    let mut c = cfg.clone();
    c["data"]["uniform"]["hi"] = serde_json::json!(-2.0);
    expect_bad("uniform-hi", c, "noisy_sgda", "data.uniform.hi");
    let mut c = cfg;
    c["data"]["uniform"]["dim"] = serde_json::json!(7);
    expect_bad("uniform-dim", c, "noisy_sgda", "data");
}

/// LDP SGDA takes an explicit step η (σ and the ledger stay Cor 16's); a bad or doubled η is named.
#[test]
fn ldp_sgda_explicit_step() {
    let mut cfg = config("fixtures/configs/ldp_sgda.json");
    let (code, out, err) = run_with("ldp_default", &cfg.to_string(), "ldp_sgda");
    assert_eq!(code, 0, "{err}");
    let base: serde_json::Value = serde_json::from_str(&out).unwrap();
    cfg["params"]["optimal_step"] = serde_json::json!(false);
    cfg["params"]["eta"] = serde_json::json!(0.0625);
    let (code, out, err) = run_with("ldp_eta", &cfg.to_string(), "ldp_sgda");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["info"]["eta"], serde_json::json!(0.0625));
    assert_eq!(v["info"]["sigma"], base["info"]["sigma"]);
    assert_eq!(v["ledger"], base["ledger"]);
    assert_ne!(v["w"], base["w"]);
    let mut c = cfg.clone();
    c["params"]["eta"] = serde_json::json!(-1.0);
    expect_bad("ldp-eta-neg", c, "ldp_sgda", "params.eta");
    let mut c = cfg;
    c["params"]["optimal_step"] = serde_json::json!(true);
    expect_bad("ldp-eta-and-optimal", c, "ldp_sgda", "params.eta");
}

/// DP-GDA needs either σ or (ε, δ): exit 2 naming the field.
#[test]
fn dp_gda_bad_params() {
    let mut cfg = config("fixtures/configs/dp_gda.json");
    cfg["params"] = serde_json::json!({"steps": 10, "rho": 1.0, "epsilon": 1.0});
    let (code, _, err) = run_with("gda_half", &cfg.to_string(), "dp_gda");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("params.sigma"), "{err}");
    cfg["params"] = serde_json::json!({"steps": 10, "rho": -1.0, "sigma": 0.1});
    let (code, _, err) = run_with("gda_rho", &cfg.to_string(), "dp_gda");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rho"), "{err}");
}

// -------------------------------------------------------------------------------------------------
// Snapshots (insta). An intended change is accepted with `cargo insta review` (or
// `INSTA_UPDATE=always cargo test --release --test it cli::`); the files are under
// tests/it/snapshots/.

/// The `claims --json` listing, whole: ids, items, kinds, statements and code paths. Kept in its own
/// snapshot file, since claim statements change with the claims.
#[test]
fn snapshot_claims_listing() {
    let o = bin().args(["claims", "--json"]).output().unwrap();
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    insta::assert_json_snapshot!("claims_listing", v);
}

/// The verify report's stable columns at the quick budget, for every claim: id, paper, kind, pass,
/// instances, the negative control's status, whether the claim has a tight instance and whether it
/// is vacuous. Left out: `seconds` (wall clock), and the ratios (`worst_ratio`, `tight_ratio`,
/// the control's ratio and margin): floats that move with any legitimate change of an instance, a
/// tolerance or the platform's libm, and whose bounds are asserted by the claims themselves. What
/// a ratio means for the ledger (a tight instance present, a vacuous claim) is pinned instead.
///
/// The command runs the claims concurrently (`--threads 4`, parallel even on one core); its rows
/// must equal a serial run's claim by claim, in registry order, on every field but `seconds`.
#[test]
fn snapshot_verify_report_stable_columns() {
    let d = tmpdir("verify-all");
    let o = bin()
        .args([
            "verify",
            "--budget",
            "quick",
            "--threads",
            "4",
            "--json",
            "--out",
        ])
        .arg(&d)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rows = report["claims"].as_array().unwrap();
    let serial = crate::common::serial_quick_rows();
    assert_eq!(rows.len(), serial.len(), "one row per registered claim");
    for (par, ser) in rows.iter().zip(serial) {
        let without_seconds = |v: &serde_json::Value| {
            let mut v = v.clone();
            v.as_object_mut().unwrap().remove("seconds");
            v
        };
        let ser = serde_json::to_value(ser).unwrap();
        assert_eq!(
            without_seconds(par),
            without_seconds(&ser),
            "parallel verify differs from the serial run at {}",
            ser["id"]
        );
    }
    let stable: Vec<serde_json::Value> = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r["id"],
                "paper": r["paper"],
                "kind": r["kind"],
                "pass": r["pass"],
                "instances": r["instances"],
                "negative_control": r["negative_control"],
                "tight_instance": !r["tight_ratio"].is_null(),
                "vacuous": r["vacuous"],
            })
        })
        .collect();
    insta::assert_json_snapshot!("verify_stable_columns", stable);
    // The markdown report carries the new columns and the legend, and links every plot, which
    // is written: one per rate claim (bgm23.rate_n, bgm23.rate_eps) and per tight-instance sweep.
    let md = std::fs::read_to_string(d.join("report.md")).unwrap();
    assert!(md.contains("| control margin |") && md.contains("## Legend"));
    assert!(!md.contains("Some("), "no Rust debug text in report.md");
    // A claim with one series has plots/{id}.svg, one with k > 1 has plots/{id}-1.svg ..
    // plots/{id}-k.svg.
    let plotted: Vec<(&str, usize)> = rows
        .iter()
        .filter_map(|r| {
            let k = r.get("series")?.as_array()?.len();
            Some((r["id"].as_str().unwrap(), k))
        })
        .collect();
    for id in [
        "bgm23.rate_n",
        "bgm23.rate_eps",
        "kllw22.release_audit_dp_gda",
    ] {
        assert!(
            plotted.iter().any(|(p, _)| *p == id),
            "{id} carries its plot series"
        );
    }
    assert!(
        plotted.contains(&("kllw22.lemma3", 2)),
        "kllw22.lemma3 plots both of its tight ratios"
    );
    for (id, k) in &plotted {
        let names: Vec<String> = if *k == 1 {
            vec![format!("plots/{id}.svg")]
        } else {
            (1..=*k).map(|j| format!("plots/{id}-{j}.svg")).collect()
        };
        for name in names {
            let svg = d.join(&name);
            assert!(svg.exists(), "{}", svg.display());
            assert!(md.contains(&format!("]({name})")), "report.md links {name}");
        }
    }
}

/// Exit code and stderr of the CLI on bad input, a dozen cases; the temporary directory is
/// written as `<tmp>`.
#[test]
fn snapshot_bad_input_messages() {
    let d = tmpdir("bad-input");
    let write = |name: &str, text: &str| {
        let p = d.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let base = base_config();
    let edited = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut c = base.clone();
        f(&mut c);
        c.to_string()
    };
    let malformed = write("malformed.json", "{\"problem\": ");
    let unknown_param = write(
        "unknown_param.json",
        &edited(&|c| c["params"]["lambdaa"] = serde_json::json!(1.0)),
    );
    let unknown_top = write(
        "unknown_top.json",
        &edited(&|c| c["extra"] = serde_json::json!(1)),
    );
    let eps0 = write(
        "eps0.json",
        &edited(&|c| c["params"]["epsilon"] = serde_json::json!(0.0)),
    );
    let delta1 = write(
        "delta1.json",
        &edited(&|c| c["params"]["delta"] = serde_json::json!(1.0)),
    );
    let ragged = write(
        "ragged.json",
        &edited(&|c| c["data"]["points"][1] = serde_json::json!([0.1, 0.2])),
    );
    let nan = write(
        "nan.json",
        &base
            .to_string()
            .replace("\"epsilon\":1.0", "\"epsilon\":NaN"),
    );
    let overflow = write(
        "overflow.json",
        &base
            .to_string()
            .replace("\"lambda\":1.0", "\"lambda\":1e999"),
    );
    let ok = write("ok.json", &base.to_string());
    let mut rr = base.clone();
    rr["params"] = serde_json::json!({"lambda": 50.0});
    let rr = write("rr.json", &rr.to_string());
    let mut gda = config("fixtures/configs/dp_gda.json");
    gda["params"] = serde_json::json!({"steps": 10, "rho": 1.0, "epsilon": 1.0});
    let gda = write("gda.json", &gda.to_string());
    let event = write(
        "event.json",
        &serde_json::json!({"relation": "replace_one", "event": {"gaussian": {"noise_multiplier": -1.0}}})
            .to_string(),
    );
    let mut fx: serde_json::Value = config("fixtures/core/rng.json");
    fx["numberOfTests"] = serde_json::json!(1);
    let fx = write("fixture.json", &fx.to_string());
    let cases: Vec<(&str, Vec<&str>)> = vec![
        (
            "malformed config",
            vec!["run", "output_perturbation", "--config", &malformed],
        ),
        (
            "unknown params key",
            vec!["run", "output_perturbation", "--config", &unknown_param],
        ),
        (
            "unknown top-level key",
            vec!["run", "output_perturbation", "--config", &unknown_top],
        ),
        (
            "epsilon = 0",
            vec!["run", "output_perturbation", "--config", &eps0],
        ),
        (
            "delta = 1",
            vec!["run", "output_perturbation", "--config", &delta1],
        ),
        (
            "ragged data",
            vec!["run", "output_perturbation", "--config", &ragged],
        ),
        (
            "NaN epsilon",
            vec!["run", "output_perturbation", "--config", &nan],
        ),
        (
            "overflowing lambda",
            vec!["run", "output_perturbation", "--config", &overflow],
        ),
        (
            "unknown algorithm",
            vec!["run", "no_such_algorithm", "--config", &ok],
        ),
        (
            "missing config file",
            vec![
                "run",
                "output_perturbation",
                "--config",
                "/nonexistent/x.json",
            ],
        ),
        (
            "lambda too large for one round",
            vec!["run", "recursive_regularization", "--config", &rr],
        ),
        (
            "DP-GDA with epsilon and no delta or sigma",
            vec!["run", "dp_gda", "--config", &gda],
        ),
        ("unknown claim", vec!["verify", "--claim", "no.such.claim"]),
        (
            "unknown calibration method",
            vec![
                "privacy",
                "calibrate",
                "--epsilon",
                "1",
                "--delta",
                "1e-5",
                "--sensitivity",
                "1",
                "--method",
                "bogus",
            ],
        ),
        (
            "delta out of range",
            vec![
                "privacy",
                "calibrate",
                "--epsilon",
                "1",
                "--delta",
                "2",
                "--sensitivity",
                "1",
            ],
        ),
        (
            "negative noise multiplier",
            vec!["privacy", "epsilon", "--event", &event, "--delta", "1e-5"],
        ),
        (
            "fixture with a wrong numberOfTests",
            vec!["fixtures", "check", &fx],
        ),
    ];
    let tmp = d.display().to_string();
    let mut text = String::new();
    for (name, args) in &cases {
        let o = bin().args(args).output().unwrap();
        let code = o.status.code().unwrap_or(-1);
        let err = String::from_utf8_lossy(&o.stderr).replace(&tmp, "<tmp>");
        assert_eq!(code, 2, "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        let args = args.join(" ").replace(&tmp, "<tmp>");
        text.push_str(&format!(
            "## {name}\n$ dpsaddle {args}\nexit {code}\n{err}\n"
        ));
    }
    insta::assert_snapshot!("bad_input_messages", text);
}
