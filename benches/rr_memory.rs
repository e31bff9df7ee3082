//! Peak memory of recursive regularization with noisy SGDA (issue 12: n = 4·10⁶, d = 10, under
//! 500 MB). Not a criterion bench: one run of the `dpsaddle run recursive_regularization`
//! pipeline (draw the dataset by the config recipe, run BGM23 Algorithm 1 with Lemma 9's noisy
//! SGDA, the empirical and population gaps) on the rate instance (unit balls in ℝ⁵ × ℝ⁵, C = I,
//! four atoms, λ = 10⁻³), without the command line's size limit n ≤ 10⁶. Prints the run's
//! summary and the process's peak resident set (VmHWM).
//!
//! `cargo bench --bench rr_memory -- [n]` (default n = 4·10⁶); measure it from outside with
//! `/usr/bin/time -v target/release/deps/rr_memory-* 4000000`.

use dpsaddle::config::{prepare_unlimited, run_prepared, RunConfig};
use dpsaddle::papers::bgm23::instances::rate_distribution;
use serde_json::json;

fn main() {
    // Skip cargo's and criterion's flags (`--bench`); the first number is n.
    let n: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(4_000_000);
    let dist = rate_distribution(&[0.0; 10], 0.5).expect("the rate distribution");
    let eye: Vec<Vec<f64>> = (0..5)
        .map(|i| (0..5).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    let ball = json!({"ball": {"center": vec![0.0; 5], "radius": 1.0}});
    let cfg: RunConfig = serde_json::from_value(json!({
        "problem": {"family": "quad_bilinear", "domain_w": ball, "domain_theta": ball,
                    "coupling": eye},
        "data": {"distribution": {"atoms": dist.atoms, "probs": dist.probs}, "n": n},
        "params": {"lambda": 1e-3, "a_emp": {"noisy_sgda": {
            "c0": 4.0, "epsilon": 1.0, "delta": 1e-5, "batch_rule": "corrected",
            "noise_uses_round_lipschitz": false}}},
        "seed": 4
    }))
    .expect("the configuration");
    let start = std::time::Instant::now();
    let prepared =
        prepare_unlimited("recursive_regularization", &cfg, None).expect("prepare the run");
    let out = run_prepared("recursive_regularization", prepared, false).expect("the run");
    let hwm = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .map(|l| l["VmHWM:".len()..].trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    println!(
        "n = {n}: {} grad evals, empirical gap {}, population gap {}, {:.1} s, peak RSS (VmHWM) {hwm}",
        out["grad_evals"],
        out["empirical_gap"],
        out["population_gap"],
        start.elapsed().as_secs_f64()
    );
    println!("{}", out["name"]);
}
