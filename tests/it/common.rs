//! Helpers shared by the per-paper integration tests.

use dpsaddle::claims::{self, Budget, Evidence};
use std::time::Instant;

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
