//! Integration tests of BG23 §3–§4 (NSEG): the `dpsaddle run nseg` configs (single pass, full
//! batch, multi-pass), their ledgers and (ε, δ), and the errors of bad configs, each naming the
//! field.

use serde_json::{json, Value};

const CONFIGS: [&str; 3] = [
    "fixtures/configs/vi_nseg_single.json",
    "fixtures/configs/vi_nseg_full.json",
    "fixtures/configs/vi_nseg_multi.json",
];

fn run_cli(config: &str, extra: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_dpsaddle"))
        .args(["run", "nseg", "--config", config])
        .args(extra)
        .output()
        .unwrap()
}

fn run_json(config: &str) -> Value {
    let out = run_cli(config, &["--json"]);
    assert!(
        out.status.success(),
        "{config}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn config(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The field of the error of a run of `cfg` (a VI config as JSON).
fn error_field(cfg: &Value) -> String {
    let text = cfg.to_string();
    let parsed = dpsaddle::config::parse_vi(&text, "test");
    let err = match parsed {
        Err(e) => e,
        Ok(c) => match dpsaddle::config::run_vi_with("nseg", &c, None, false) {
            Err(e) => e,
            Ok(v) => panic!("accepted: {}", v["name"]),
        },
    };
    match err {
        dpsaddle::Error::Invalid { field, msg } => format!("{field}: {msg}"),
        other => format!("{other}"),
    }
}

#[test]
fn run_nseg_configs_print_the_ledger_and_epsilon_delta() {
    for f in CONFIGS {
        let v = run_json(f);
        assert_eq!(v["algorithm"], "nseg", "{f}");
        assert!(v["ledger"].is_object(), "{f}: a private run has a ledger");
        let eps = v["privacy"]["epsilon"].as_f64().unwrap();
        assert!(eps.is_finite() && eps > 0.0, "{f}: ε = {eps}");
        assert_eq!(v["privacy"]["delta"].as_f64().unwrap(), 1e-5, "{f}");
        let z: Vec<f64> = serde_json::from_value(v["z"].clone()).unwrap();
        assert!(
            z.iter().map(|x| x * x).sum::<f64>() <= 1.0 + 1e-12,
            "{f}: z ∈ W"
        );
        // Same seed, same bits.
        assert_eq!(run_json(f)["z"], v["z"], "{f}");
        // The human summary has the ledger and (ε, δ) lines.
        let out = run_cli(f, &[]);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("ledger") && text.contains("(ε, δ) = ("),
            "{f}: {text}"
        );
    }
}

#[test]
fn single_pass_touches_every_point_at_most_once() {
    let v = run_json(CONFIGS[0]);
    let per: Vec<u64> = serde_json::from_value(v["evals_per_point"].clone()).unwrap();
    assert_eq!(per.len(), 2000);
    assert!(per.iter().all(|&c| c <= 1), "single pass: disjoint batches");
    let used: u64 = per.iter().sum();
    assert_eq!(v["evals"].as_u64().unwrap(), used);
    assert!(used > 2000 - 2 * 5, "2TB = n up to rounding: {used}");
    // Cor 1's corrected policy is calibrated by Prop 5 (corrected): (1, 1e-5)-DP.
    assert!(v["privacy"]["epsilon"].as_f64().unwrap() <= 1.0 + 1e-9);
}

#[test]
fn full_batch_and_multi_pass_counts() {
    let v = run_json(CONFIGS[1]);
    let per: Vec<u64> = serde_json::from_value(v["evals_per_point"].clone()).unwrap();
    assert!(
        per.iter().all(|&c| c == 40),
        "2T = 40 evaluations of every point"
    );
    assert_eq!(v["evals"].as_u64().unwrap(), 240);
    let m = run_json(CONFIGS[2]);
    // Thm 4: T = n² = 1600 iterations, one index per evaluation.
    assert_eq!(m["evals"].as_u64().unwrap(), 2 * 1600);
    assert!(m["privacy"]["epsilon"].as_f64().unwrap() <= 1.0 + 1e-9);
}

#[test]
fn bad_configs_name_the_field() {
    let full = config(CONFIGS[1]);
    let single = config(CONFIGS[0]);
    let with = |base: &Value, key: &str, val: Value| {
        let mut c = base.clone();
        c["params"][key] = val;
        c
    };
    let without = |base: &Value, key: &str| {
        let mut c = base.clone();
        c["params"].as_object_mut().unwrap().remove(key);
        c
    };
    let cases: Vec<(Value, &str)> = vec![
        (
            with(&full, "variant", json!({"single_pass": {"batch": 0}})),
            "params.variant.single_pass.batch",
        ),
        (
            with(&full, "variant", json!({"multi_pass": {"m": 0}})),
            "params.variant.multi_pass.m",
        ),
        (
            with(&full, "variant", json!({"single_pass": {"batch": 1}})),
            "params.steps",
        ),
        (
            with(&full, "step_list", json!(vec![0.1; 20])),
            "params.step",
        ),
        (without(&full, "step"), "params.step"),
        (without(&full, "steps"), "params.steps"),
        (without(&full, "variant"), "params.variant"),
        (with(&full, "steps", json!(0)), "params.steps"),
        (with(&full, "sigma", json!(-1.0)), "params.sigma"),
        (with(&full, "start", json!([3.0, 0.0])), "params.start"),
        (
            with(&full, "operator_bound", json!(-1.0)),
            "params.operator_bound",
        ),
        (with(&full, "bogus", json!(1)), "bogus"),
        (with(&single, "steps", json!(3)), "params.steps"),
        (with(&single, "sigma", json!(0.1)), "params.sigma"),
        (
            with(&single, "policy", json!({"item": "cor1", "epsilon": -1.0})),
            "params.policy.epsilon",
        ),
        (
            with(&single, "policy", json!({"item": "cor1", "eta": 2.0})),
            "params.policy",
        ),
        (with(&single, "policy", json!({"item": "thm9"})), "params"),
    ];
    for (cfg, field) in cases {
        let got = error_field(&cfg);
        assert!(
            got.contains(field),
            "expected `{field}` in `{got}` for {}",
            cfg["params"]
        );
    }
}
