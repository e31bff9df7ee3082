//! The noise a private algorithm actually added to its release, measured from outside its
//! calibration: run it once with a recording [`NoiseSource`], then replay the same tape with
//! every standard-normal draw multiplied by a factor κ (κ = 0: the noise switched off, with the
//! same indices, permutations and uniforms). Because every algorithm here draws its Gaussian
//! noise as σ times the tape's standard normals, the replay at κ is the same algorithm run with
//! κσ of noise while its ledger still prices σ; the release difference between κ = 1 and κ = 0
//! is the noise's contribution to the release.
//!
//! What the contribution should be, in units of the priced σ, is the caller's (the claims'):
//! on an instance where it is a known linear function of the standard normals, its coefficient
//! comes from the algorithm's published description, not from this code.

use crate::algorithms::Output;
use crate::error::Result;
use crate::linalg;
use crate::privacy::DpEvent;
use crate::rng::{DrawValues, NoiseSource, Tape};

/// `tape` with every standard-normal draw multiplied by `factor` (indices, permutations and
/// uniforms unchanged).
pub fn scale_normals(tape: &Tape, factor: f64) -> Tape {
    let mut t = tape.clone();
    for d in &mut t.draws {
        if let DrawValues::Normal(v) = &mut d.values {
            for x in v.iter_mut() {
                *x *= factor;
            }
        }
    }
    t
}

/// One measured release: the recorded run and the replays of its tape at the noise factors asked
/// for.
#[derive(Clone, Debug)]
pub struct ReleaseNoise {
    /// The recorded run (noise factor 1).
    pub recorded: Output,
    /// The run with the noise switched off (noise factor 0, same tape otherwise).
    pub noiseless: Output,
    /// (κ, the run replayed with the normals multiplied by κ), for each factor asked for.
    pub scaled: Vec<(f64, Output)>,
    /// The number of standard normals on the tape.
    pub normals: usize,
}

impl ReleaseNoise {
    /// The release difference z(κ) − z(0) of the recorded run (κ = 1).
    pub fn contribution(&self) -> Vec<f64> {
        linalg::sub(&self.recorded.z(), &self.noiseless.z())
    }

    /// The release difference z(κ) − z(0) of the `i`-th scaled replay.
    pub fn scaled_contribution(&self, i: usize) -> Vec<f64> {
        linalg::sub(&self.scaled[i].1.z(), &self.noiseless.z())
    }
}

/// Run `run` with a recording source of `seed`, then replay its tape with the normals zeroed and
/// multiplied by each of `factors` (module docs). Errors are the run's.
pub fn measure<F>(run: F, seed: u64, factors: &[f64]) -> Result<ReleaseNoise>
where
    F: Fn(&mut NoiseSource) -> Result<Output>,
{
    let mut src = NoiseSource::recording(seed);
    let recorded = run(&mut src)?;
    let tape = src.into_tape().unwrap_or_default();
    let normals = tape
        .draws
        .iter()
        .map(|d| match &d.values {
            DrawValues::Normal(v) => v.len(),
            _ => 0,
        })
        .sum();
    let noiseless = run(&mut NoiseSource::replay(scale_normals(&tape, 0.0)))?;
    let mut scaled = Vec::with_capacity(factors.len());
    for &k in factors {
        scaled.push((k, run(&mut NoiseSource::replay(scale_normals(&tape, k)))?));
    }
    Ok(ReleaseNoise {
        recorded,
        noiseless,
        scaled,
        normals,
    })
}

/// The Gaussian noise multipliers of an event tree, in tree order (σ/Δ of each Gaussian
/// mechanism it composes, subsamples or repeats).
pub fn gaussian_multipliers(event: &DpEvent) -> Vec<f64> {
    let mut out = Vec::new();
    collect(event, &mut out);
    out
}

fn collect(event: &DpEvent, out: &mut Vec<f64>) {
    match event {
        DpEvent::Gaussian { noise_multiplier } => out.push(*noise_multiplier),
        DpEvent::SelfComposed { event, .. }
        | DpEvent::PoissonSampled { event, .. }
        | DpEvent::SampledWithoutReplacement { event, .. }
        | DpEvent::SampledWithReplacement { event, .. } => collect(event, out),
        DpEvent::Composed(v) | DpEvent::ParallelComposed(v) => {
            for e in v {
                collect(e, out);
            }
        }
        DpEvent::Laplace { .. } | DpEvent::PostProcessing | DpEvent::NoOp => {}
    }
}

/// The product of the `self_composed` counts on the path to the first Gaussian of the tree (the
/// number of times the ledger says the Gaussian step ran), 1 when there is none.
pub fn self_composed_count(event: &DpEvent) -> u64 {
    match event {
        DpEvent::SelfComposed { count, event } => count * self_composed_count(event),
        DpEvent::PoissonSampled { event, .. }
        | DpEvent::SampledWithoutReplacement { event, .. }
        | DpEvent::SampledWithReplacement { event, .. } => self_composed_count(event),
        DpEvent::Composed(v) | DpEvent::ParallelComposed(v) => {
            v.first().map_or(1, self_composed_count)
        }
        _ => 1,
    }
}

/// Run `run` once with a recording source of `seed`, then replay its tape with every
/// standard-normal draw multiplied by `factor` and return the replay: the same production run
/// with `factor`·σ of noise (indices, permutations and uniforms unchanged) while its ledger still
/// prices σ. The negative control of the release audits (`claims::release_audit`).
pub fn replay_scaled<T, F>(run: F, seed: u64, factor: f64) -> Result<T>
where
    F: Fn(&mut NoiseSource) -> Result<T>,
{
    let mut src = NoiseSource::recording(seed);
    run(&mut src)?;
    let tape = src.into_tape().unwrap_or_default();
    run(&mut NoiseSource::replay(scale_normals(&tape, factor)))
}
