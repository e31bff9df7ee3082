//! The claims gate: every registered claim passes at the quick budget and every negative control
//! is rejected. It is its own small test binary so that `.ci/mutants` (mutation testing, which
//! rebuilds the crate once per mutant) can run exactly the claims without rebuilding the large
//! `tests/it` binary; `cargo test --release` runs it like every other test.
//!
//! Each claim prints one line `claim <id> <outcome>`, with outcome `pass`, `fail`,
//! `control-accepted`, `no-instances`, `error` or `panic`; `.ci/mutants-score` reads these lines from the
//! logs of a mutation run to tell which claims killed which mutant.

use dpsaddle::claims::{self, Budget};

#[test]
fn every_registered_claim_passes_and_its_control_is_rejected() {
    // `.ci/mutants` sets DPSADDLE_CLAIMS_FAIL_FAST: a mutant is killed by its first failing
    // claim, and the remaining claims are not run.
    let fail_fast = std::env::var_os("DPSADDLE_CLAIMS_FAIL_FAST").is_some();
    // `.ci/mutants` may also set DPSADDLE_CLAIMS_ONLY (comma-separated claim ids) to rerun only
    // the claims added or changed since an earlier mutation run, on that run's survivors: the
    // other claims are deterministic and already passed on those mutants.
    let only: Option<Vec<String>> = std::env::var("DPSADDLE_CLAIMS_ONLY")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_string()).collect());
    if let Some(ids) = &only {
        let registry = claims::registry();
        for id in ids {
            assert!(
                registry.iter().any(|c| c.id == id.as_str()),
                "DPSADDLE_CLAIMS_ONLY names `{id}`, which is not a registered claim"
            );
        }
    }
    let mut failures = Vec::new();
    for c in claims::registry() {
        if only
            .as_ref()
            .is_some_and(|ids| !ids.iter().any(|id| id == c.id))
        {
            continue;
        }
        if fail_fast && !failures.is_empty() {
            break;
        }
        // A panicking claim is recorded and the remaining claims still run.
        let run = std::panic::catch_unwind(|| (c.check)(Budget::Quick));
        let outcome = match run {
            Err(_) => {
                failures.push(format!("{}: panicked", c.id));
                "panic"
            }
            Ok(Ok(ev)) => {
                println!(
                    "{:<28} pass={} worst={:?} instances={} control={} tight={:?}",
                    c.id,
                    ev.pass,
                    ev.worst_ratio,
                    ev.instances,
                    ev.control_status(),
                    ev.tight_ratio
                );
                if !ev.pass {
                    failures.push(format!("{}: failed: {:?}", c.id, ev.details));
                    "fail"
                } else if ev.control_status() == "accepted" {
                    failures.push(format!("{}: negative control accepted", c.id));
                    "control-accepted"
                } else if ev.instances == 0 {
                    failures.push(format!("{}: no instances", c.id));
                    "no-instances"
                } else {
                    "pass"
                }
            }
            Ok(Err(e)) => {
                failures.push(format!("{}: error {e}", c.id));
                "error"
            }
        };
        println!("claim {} {outcome}", c.id);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
