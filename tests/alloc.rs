//! No allocation per step (issue 14, "hot loops allocate nothing per step"): the VI engine's
//! runs make the same number of heap allocations at T = 10 as at T = 2000, counted by a global
//! allocator. The counter is thread-local: the test harness's own threads allocate concurrently,
//! and only the allocations of the thread running the algorithm are the algorithm's.
//!
//! Its own binary (a file of `tests/`) because a `#[global_allocator]` applies to the whole binary.
//! Control: a traced run records every iterate, batch and noise vector, so it must allocate
//! more than once per step; the same counter sees > 2000 extra allocations over the same T range.

use dpsaddle::algorithms::extragradient::{Averaging, Extragradient};
use dpsaddle::algorithms::operator_extrapolation::{OeStop, OperatorExtrapolation};
use dpsaddle::algorithms::vi::{StepSchedule, ViAlgorithm};
use dpsaddle::problem::monotone::DataAffineOp;
use dpsaddle::problem::Dataset;
use dpsaddle::rng::{NoiseSource, Stream};
use dpsaddle::sampling::BatchRule;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn bump() {
    // `try_with`: during thread teardown the slot may be gone; those allocations are not ours.
    let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        bump();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        bump();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread by `f`.
fn allocations(f: impl FnOnce()) -> u64 {
    let before = ALLOCS.with(|c| c.get());
    f();
    ALLOCS.with(|c| c.get()) - before
}

const D: usize = 8;
const N: usize = 50;

fn problem() -> (DataAffineOp, Dataset) {
    let mut st = Stream::new(3, "tests/alloc/data");
    let atoms: Vec<Vec<f64>> = (0..N)
        .map(|_| {
            let b: Vec<f64> = (0..D).map(|_| st.uniform() - 0.5).collect();
            DataAffineOp::rot_iso_atom(0.5 * st.uniform(), 2.0 * st.uniform() - 1.0, &b)
        })
        .collect();
    let op = DataAffineOp::rot_iso_ball(vec![0.0; D], 1.0, &atoms).expect("valid");
    (op, Dataset::new(atoms).expect("valid"))
}

fn eg(steps: usize, batch: BatchRule, sigma: f64) -> Extragradient {
    Extragradient::new(
        steps,
        StepSchedule::Constant(0.05),
        vec![0.0; D],
        batch,
        sigma,
        Averaging::Extrapolated,
    )
    .expect("valid")
    .with_operator_bound(4.0)
    .expect("valid")
}

fn oe(steps: usize, sigma: f64) -> OperatorExtrapolation {
    OperatorExtrapolation::new(
        0.05,
        2.0,
        OeStop::Iterations(steps),
        vec![0.0; D],
        BatchRule::WithReplacement { m: 5 },
        sigma,
    )
    .expect("valid")
    .with_operator_bound(4.0)
    .expect("valid")
}

/// A named constructor of a VI run with T steps.
type NamedRun = (&'static str, fn(usize) -> Box<dyn ViAlgorithm>);

#[test]
fn vi_engine_steps_do_not_allocate() {
    let (op, s) = problem();
    let (short, long) = (10, 2000);
    let runs: [NamedRun; 3] = [
        ("extragradient, σ > 0, with-replacement batches", |t| {
            Box::new(eg(t, BatchRule::WithReplacement { m: 5 }, 0.1)) as Box<dyn ViAlgorithm>
        }),
        ("extragradient, full batches", |t| {
            Box::new(eg(t, BatchRule::Full, 0.1)) as Box<dyn ViAlgorithm>
        }),
        ("operator extrapolation, σ > 0", |t| {
            Box::new(oe(t, 0.1)) as Box<dyn ViAlgorithm>
        }),
    ];
    for (name, make) in &runs {
        let count = |t: usize| {
            let alg = make(t);
            allocations(|| {
                let out = alg.run(&op, &s, &mut NoiseSource::sample(7)).expect("runs");
                std::hint::black_box(out);
            })
        };
        // Warm the per-thread scratch pools first.
        count(short);
        let (a, b) = (count(short), count(long));
        println!("{name}: {a} allocations at T = {short}, {b} at T = {long}");
        assert_eq!(
            a, b,
            "{name}: allocations grow with T ({a} at T = {short}, {b} at T = {long})"
        );
    }
    // Control: the traced run keeps per-step records, and the counter sees them.
    let traced = |t: usize| {
        let alg = eg(t, BatchRule::WithReplacement { m: 5 }, 0.1);
        allocations(|| {
            let r = alg
                .run_traced(&op, &s, &mut NoiseSource::sample(7))
                .expect("runs");
            std::hint::black_box(r);
        })
    };
    traced(short);
    let (a, b) = (traced(short), traced(long));
    println!("traced extragradient: {a} allocations at T = {short}, {b} at T = {long}");
    assert!(
        b > a + 2000,
        "the counter must see the trace's per-step allocations ({a} at T = {short}, {b} at T = {long})"
    );
}
