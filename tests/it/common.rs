//! Helpers shared by the per-paper integration tests.

use dpsaddle::claims::{self, Budget, Evidence};
use dpsaddle::report::Row;
use std::sync::OnceLock;
use std::time::Instant;

/// Every registered claim's report row at the quick budget from one serial run (one claim after
/// another on the calling thread), computed once per test binary: the `verify` test compares the
/// parallel command's rows with it (the claims gate itself is `tests/claims.rs`).
pub fn serial_quick_rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| {
        let reg = claims::registry();
        let outcomes = claims::run_checks(&reg, Budget::Quick, false, &|_| {});
        reg.iter()
            .zip(&outcomes)
            .map(|(c, (ev, seconds))| Row::new(c, ev, *seconds))
            .collect()
    })
}

/// Run one registered claim at the quick budget, print its evidence, and assert it passed with its
/// negative control (if any) rejected.
pub fn run(id: &str) -> Evidence {
    let c = claims::find(id).unwrap_or_else(|| panic!("{id} is registered"));
    let t = Instant::now();
    let ev = (c.check)(Budget::Quick).unwrap_or_else(|e| panic!("{id}: {e}"));
    println!(
        "{id}: pass={} worst={:?} at {} tight={:?} control={} ({} instances, {:.2}s)",
        ev.pass,
        ev.worst_ratio,
        ev.worst_at,
        ev.tight_ratio,
        ev.control_status(),
        ev.instances,
        t.elapsed().as_secs_f64()
    );
    for d in &ev.details {
        println!("    {d}");
    }
    assert!(ev.ok(), "{id}: {:#?}", ev);
    ev
}
