//! Noise ↔ ledger: for every private algorithm, the noise it actually added to its release,
//! measured from outside its calibration, against the σ its privacy ledger prices
//! (proofs-notes/privacy.md, "Noise ↔ ledger").
//!
//! Each claim runs the production algorithm on an instance where the noise's contribution to the
//! release is a known linear function of the standard normals on the tape: the loss is
//! identically zero (its gradient vanishes; its data only set n) and W×Θ is a box so large that
//! no projection is ever active. The contribution is measured either as the release difference
//! between the recorded run and its replay with the normals zeroed
//! ([`crate::algorithms::release_noise`]), or, for the rounds of BGM23 Algorithm 1, as each
//! round's release minus what the round's published update makes of the previous releases.
//! Its coefficient c (so that the contribution is c·σ·N(0, I) per coordinate) comes from the
//! algorithm's published description: step sizes and averaging weights. σ is read from the
//! ledger: its Gaussian noise multiplier times the sensitivity the ledger's event is stated
//! against (the paper's). Over N = coordinates × seeds, Q = Σ (D/(cσ))² is tested against χ²_N
//! two-sided at α = 1e-6 ([`VarianceRatioTest`]); the same production run replayed with 0.5σ
//! and with 2σ of noise (the tape's normals scaled, the ledger unchanged) must both be rejected.

use crate::algorithms::dp_gda::{Averaging, DpGda};
use crate::algorithms::ldp_sgda::LdpSgda;
use crate::algorithms::noisy_sgda::NoisySgda;
use crate::algorithms::recursive_regularization::{AempSpec, DistanceRule, Schedule};
use crate::algorithms::release_noise::{gaussian_multipliers, measure, self_composed_count};
use crate::algorithms::{
    Algorithm, Diagnostics, Output, OutputPerturbation, RecursiveRegularization,
    RegularizedSaddlePoint,
};
use crate::claims::{BoundCheck, Budget, Claim, Evidence, Kind};
use crate::error::{invalid, Error, Result};
use crate::geometry::Domain;
use crate::linalg::{self, Matrix};
use crate::papers::bgm23::schedules;
use crate::papers::kllw22::calibration::THM1_C_JOINT as KLLW22_C_JOINT;
use crate::papers::kllw22::stability::thm2_step_size;
use crate::papers::Reading;
use crate::privacy::chi_square::VarianceRatioTest;
use crate::privacy::DpEvent;
use crate::problem::{Dataset, QuadBilinear};

/// The two-sided level of every noise ↔ ledger test.
const ALPHA: f64 = 1e-6;
/// The noise factors of the negative controls (the ledger still prices σ).
const CONTROLS: [f64; 2] = [0.5, 2.0];

/// The noise ↔ ledger claims.
pub fn claims() -> Vec<Claim> {
    vec![
        Claim {
            id: "bgm23.noise_ledger_noisy_sgda",
            paper: "BGM23",
            item: "App. C.2 / Thm 21 (noisy SGDA's noise)",
            statement: "The noise noisy SGDA adds to its release (eq. (14)'s average, step η = D̂/(L√T)) \
                        has the scale its ledger prices: σ = multiplier × 2L/m of the subsampled \
                        Gaussian; two-sided at α = 1e-6, 0.5σ and 2σ rejected.",
            kind: Kind::MonteCarlo,
            code: "algorithms::noisy_sgda::NoisySgda",
            check: check_noisy_sgda,
        },
        Claim {
            id: "kllw22.noise_ledger_dp_gda",
            paper: "KLLW22",
            item: "Algorithm 1 / Thm 1 (DP-GDA's noise)",
            statement: "The noise DP-GDA adds to its release (η_t = 1/(ρt), the average of w_1..w_T) has \
                        the scale its ledger prices: σ = multiplier × 2G/n of each block's Gaussian; \
                        two-sided at α = 1e-6, 0.5σ and 2σ rejected.",
            kind: Kind::MonteCarlo,
            code: "algorithms::dp_gda::DpGda",
            check: check_dp_gda,
        },
        Claim {
            id: "bgm23.noise_ledger_output_perturbation",
            paper: "BGM23",
            item: "eq. (4) + Lemma 2 (output perturbation's noise)",
            statement: "The noise output perturbation adds to the regularized saddle point of eq. (4) has \
                        the scale its ledger prices: σ = multiplier × 2L/(λn) (Lemma 2); two-sided at \
                        α = 1e-6, 0.5σ and 2σ rejected.",
            kind: Kind::MonteCarlo,
            code: "algorithms::output_perturbation::OutputPerturbation",
            check: check_output_perturbation,
        },
        Claim {
            id: "bgm23.noise_ledger_rr_output_perturbation",
            paper: "BGM23",
            item: "Algorithm 1 with Thm 12's rounds (the rounds' noise)",
            statement: "Each round of recursive regularization with output perturbation releases its \
                        regularized saddle point (a 2^k-weighted mean of the previous releases, lines 4 \
                        and 7) plus noise of the scale the round's ledger event prices: σ_t = multiplier \
                        × (Δ*_t + 2r_t); two-sided at α = 1e-6, 0.5σ and 2σ rejected.",
            kind: Kind::MonteCarlo,
            code: "algorithms::recursive_regularization::output_perturbation_round",
            check: check_rr_output_perturbation,
        },
        Claim {
            id: "bgm23.noise_ledger_rr_noisy_sgda",
            paper: "BGM23",
            item: "Algorithm 1 with Lemma 9's rounds (the rounds' noise)",
            statement: "Each round of recursive regularization with noisy SGDA releases what eq. (13)–(14) \
                        with η_t = D̂_t/(L_t√T) make of the previous releases plus noise of the scale \
                        the round's ledger event prices: σ_t = multiplier × 2L/m; two-sided at α = 1e-6, \
                        0.5σ and 2σ rejected.",
            kind: Kind::MonteCarlo,
            code: "algorithms::recursive_regularization::RecursiveRegularization",
            check: check_rr_noisy_sgda,
        },
        Claim {
            id: "bgm23.noise_ledger_ldp_sgda",
            paper: "BGM23",
            item: "App. A.2 / Cor 16 (LDP SGDA's noise)",
            statement: "The noise LDP SGDA adds to its release (T = n, eq. (14)'s average, Cor 16's \
                        corrected η) has the scale each user's ledger prices: σ = multiplier × 2L (the \
                        local sensitivity); two-sided at α = 1e-6, 0.5σ and 2σ rejected.",
            kind: Kind::MonteCarlo,
            code: "algorithms::ldp_sgda::LdpSgda",
            check: check_ldp_sgda,
        },
    ]
}

/// Seeds per claim: N = coordinates × seeds.
fn seeds(budget: Budget) -> u64 {
    match budget {
        Budget::Quick => 128,
        Budget::Full => 1024,
    }
}

/// The zero loss on [−R, R]^{d_w} × [−R, R]^{d_θ} (data of length 1, ignored).
fn zero_loss(dw: usize, dt: usize, radius: f64) -> Result<QuadBilinear> {
    let boxed = |d: usize| Domain::Box {
        lo: vec![-radius; d],
        hi: vec![radius; d],
    };
    QuadBilinear::new(
        boxed(dw),
        boxed(dt),
        Matrix::zeros(dw, 1),
        Matrix::zeros(dt, 1),
        Matrix::zeros(dw, dt),
        0.0,
        0.0,
    )
}

fn zeros(n: usize) -> Result<Dataset> {
    Dataset::new(vec![vec![0.0]; n])
}

/// The ledger's single Gaussian noise multiplier (an error unless all of its Gaussians agree).
fn one_multiplier(event: &DpEvent) -> Result<f64> {
    let v = gaussian_multipliers(event);
    let first = *v
        .first()
        .ok_or_else(|| invalid("ledger", "prices no Gaussian mechanism"))?;
    if v.iter().any(|&x| x != first) {
        return Err(invalid(
            "ledger",
            format!("Gaussians of different scales: {v:?}"),
        ));
    }
    Ok(first)
}

fn ledger_event(out: &Output) -> Result<&DpEvent> {
    out.ledger
        .as_ref()
        .map(|l| &l.event)
        .ok_or_else(|| Error::Invalid {
            field: "ledger".into(),
            msg: "the run returned no ledger".into(),
        })
}

/// The batch size m of the first `sampled_with_replacement` node.
fn sampled_batch(event: &DpEvent) -> Option<u64> {
    match event {
        DpEvent::SampledWithReplacement { m, .. } => Some(*m),
        DpEvent::SelfComposed { event, .. }
        | DpEvent::PoissonSampled { event, .. }
        | DpEvent::SampledWithoutReplacement { event, .. } => sampled_batch(event),
        DpEvent::Composed(v) | DpEvent::ParallelComposed(v) => v.iter().find_map(sampled_batch),
        _ => None,
    }
}

/// Standardized values for the main run and for each control, accumulated over seeds.
struct Samples {
    main: Vec<f64>,
    controls: Vec<Vec<f64>>,
}

impl Samples {
    fn new() -> Samples {
        Samples {
            main: Vec::new(),
            controls: vec![Vec::new(); CONTROLS.len()],
        }
    }

    /// The verdict: the main test must accept, each control must be rejected.
    fn evidence(&self, what: &str) -> Result<Evidence> {
        let main = VarianceRatioTest::new(&self.main, ALPHA)?;
        let mut check = BoundCheck::new(0.0, 0.0);
        check.observe(
            main.statistic,
            main.upper,
            format!("{what}: Q ≤ χ²_N(1 − α/2)"),
        );
        check.observe(main.lower, main.statistic, format!("{what}: χ²_N(α/2) ≤ Q"));
        let mut margins = Vec::new();
        for (k, xs) in CONTROLS.iter().zip(&self.controls) {
            let t = VarianceRatioTest::new(xs, ALPHA)?;
            margins.push((*k, t.excess(), t.ratio_hat));
        }
        // Rejected only when every control is: the smaller excess must exceed 1.
        let min_excess = margins.iter().map(|m| m.1).fold(f64::INFINITY, f64::min);
        let mut control = BoundCheck::new(0.0, 0.0);
        control.observe(
            min_excess,
            1.0,
            "min over controls of Q's excess over its region",
        );
        let ev = Evidence::from_checks(
            &check,
            Some(("0.5σ and 2σ of noise, ledger pricing σ", &control)),
        );
        let mut ev = ev.note(format!(
            "{what}: N = {}, σ̂/σ = {:.4}, {}% interval [{:.4}, {:.4}] (χ²_N two-sided, α = {ALPHA:e})",
            main.n,
            main.ratio_hat,
            100.0 * (1.0 - ALPHA),
            main.ratio_lo,
            main.ratio_hi
        ));
        for (k, excess, ratio) in margins {
            ev = ev.note(format!(
                "control {k}σ: σ̂/σ = {ratio:.4}, Q outside its acceptance region by a factor {excess:.3} \
                 ({})",
                if excess > 1.0 { "rejected" } else { "ACCEPTED" }
            ));
        }
        Ok(ev)
    }
}

/// Run `run` per seed, record and replay at 0 and at the control factors, and push
/// (z(κ) − z(0))/(c·σ) per coordinate, where (c, σ) = `scale(recorded output)`.
fn sample_by_replay<F, S>(budget: Budget, offset: u64, run: F, scale: S) -> Result<Samples>
where
    F: Fn(&mut crate::rng::NoiseSource) -> Result<Output>,
    S: Fn(&Output) -> Result<f64>,
{
    let mut s = Samples::new();
    for seed in offset..offset + seeds(budget) {
        let m = measure(&run, seed, &CONTROLS)?;
        let unit = scale(&m.recorded)?;
        s.main.extend(m.contribution().iter().map(|x| x / unit));
        for i in 0..CONTROLS.len() {
            s.controls[i].extend(m.scaled_contribution(i).iter().map(|x| x / unit));
        }
    }
    Ok(s)
}

/// The σ a run reports in its diagnostics (what a user reads) is the σ its ledger prices, to
/// 1e-12 relative: a run that reported one scale and priced another would mislead whoever
/// reads its output.
fn reported_sigma_is_priced(out: &Output, priced: f64) -> Result<()> {
    match out.info.sigma() {
        Some(reported) if (reported - priced).abs() <= 1e-12 * priced.abs() => Ok(()),
        other => Err(invalid(
            "diagnostics.sigma",
            format!("the run reports σ = {other:?}, its ledger prices σ = {priced}"),
        )),
    }
}

/// eq. (14)'s average of z_0..z_{T−1} after T noisy steps of size η from a zero gradient: the
/// coefficient of each coordinate's noise is √(Σ_{k=1}^{T−1} k²)·η/T (step s enters z_s..z_{T−1}).
fn average_coefficient(eta: f64, steps: u64) -> f64 {
    let t = steps as f64;
    let sum: f64 = (1..steps).map(|k| (k as f64).powi(2)).sum();
    eta * sum.sqrt() / t
}

fn check_noisy_sgda(budget: Budget) -> Result<Evidence> {
    let (dw, dt, n, l, d_hat) = (2, 2, 200, 1.0, 1.0);
    let f = zero_loss(dw, dt, 1e6)?;
    let s = zeros(n)?;
    let alg = NoisySgda::new(
        1.0,
        1.0,
        1e-5,
        Reading::Corrected,
        vec![0.1; dw],
        vec![-0.2; dt],
        d_hat,
        l,
    )?;
    let run = |noise: &mut crate::rng::NoiseSource| alg.run(&f, &s, noise);
    let scale = |out: &Output| -> Result<f64> {
        let ev = ledger_event(out)?;
        let steps = self_composed_count(ev);
        let m =
            sampled_batch(ev).ok_or_else(|| invalid("ledger", "no sampled_with_replacement"))?;
        // App. C.2: one record moves the minibatch mean by at most 2L/m.
        let sigma = one_multiplier(ev)? * 2.0 * l / m as f64;
        reported_sigma_is_priced(out, sigma)?;
        Ok(sigma * average_coefficient(schedules::thm21_eta(d_hat, l, steps), steps))
    };
    sample_by_replay(budget, 0, run, scale)?.evidence("noisy SGDA (n = 200, d = 4, ε = 1)")
}

fn check_dp_gda(budget: Budget) -> Result<Evidence> {
    let (dw, dt, n, g, rho, steps) = (2, 2, 100, 1.0, 1.0, 20);
    let f = zero_loss(dw, dt, 1e6)?;
    let s = zeros(n)?;
    let alg = DpGda::calibrated(
        steps,
        rho,
        KLLW22_C_JOINT,
        g,
        n,
        1.0,
        1e-5,
        Averaging::PaperLiteral,
    )?;
    let run = |noise: &mut crate::rng::NoiseSource| alg.run(&f, &s, noise);
    let scale = |out: &Output| -> Result<f64> {
        let ev = ledger_event(out)?;
        let t = self_composed_count(ev);
        // Thm 1: the full-batch gradient moves by at most 2G/n.
        let sigma = one_multiplier(ev)? * 2.0 * g / n as f64;
        reported_sigma_is_priced(out, sigma)?;
        // Algorithm 1: b_t enters w_{t+1}..w_T with weight η_t, and the output averages w_1..w_T.
        let sum: f64 = (1..t as usize)
            .map(|k| ((t as usize - k) as f64 * thm2_step_size(rho, k)).powi(2))
            .sum();
        Ok(sigma * sum.sqrt() / t as f64)
    };
    let mut ev = sample_by_replay(budget, 10_000, run, scale)?
        .evidence("DP-GDA (n = 100, T = 20, ρ = 1, c = 4√2)")?;
    // The setter `with_sigma`: the algorithm with σ/2 set by hand adds exactly the noise of the
    // 0.5σ control on the same tape (the tape's normals halved), reports σ/2, and carries no
    // ledger (a σ set by hand is not a calibrated release).
    let half = alg.clone().with_sigma(0.5 * alg.sigma)?;
    let mut dev = 0.0f64;
    let mut faults = Vec::new();
    for seed in 10_000..10_004 {
        let control = measure(run, seed, &[0.5])?;
        let hand = measure(|noise| half.run(&f, &s, noise), seed, &[])?;
        let (want, got) = (control.scaled_contribution(0), hand.contribution());
        let scale = linalg::norm2(&want).max(f64::MIN_POSITIVE);
        dev = dev.max(linalg::norm2(&linalg::sub(&got, &want)) / scale);
        if hand.recorded.ledger.is_some() {
            faults.push(format!(
                "seed {seed}: with_sigma kept the calibrated ledger"
            ));
        }
        if hand.recorded.info.sigma() != Some(0.5 * alg.sigma) {
            faults.push(format!(
                "seed {seed}: with_sigma(σ/2) reports σ = {:?}, want {}",
                hand.recorded.info.sigma(),
                0.5 * alg.sigma
            ));
        }
    }
    if dev > 1e-12 {
        faults.push(format!(
            "with_sigma(σ/2)'s noise differs from the 0.5σ replay by {dev:.3e} (relative)"
        ));
    }
    ev.pass &= faults.is_empty();
    ev.details.extend(faults);
    Ok(ev.note(format!(
        "with_sigma(σ/2) on 4 seeds: its noise equals the 0.5σ replay's to {dev:.1e} (relative, \
         tolerance 1e-12), it reports σ/2 and carries no ledger"
    )))
}

fn check_output_perturbation(budget: Budget) -> Result<Evidence> {
    let (dw, dt, n, l, lambda) = (2, 2, 50, 1.0, 0.5);
    let f = zero_loss(dw, dt, 1e3)?;
    let s = zeros(n)?;
    let base = RegularizedSaddlePoint::new(lambda, vec![0.3; dw], vec![-0.1; dt])?;
    let alg = OutputPerturbation::new(base, 1.0, 1e-5, l)?;
    let run = |noise: &mut crate::rng::NoiseSource| alg.run(&f, &s, noise);
    let scale = |out: &Output| -> Result<f64> {
        // Lemma 2: the regularized saddle point moves by at most 2L/(λn); the noise is added once.
        let sigma = one_multiplier(ledger_event(out)?)? * schedules::lemma2_stability(l, lambda, n);
        reported_sigma_is_priced(out, sigma)?;
        Ok(sigma)
    };
    sample_by_replay(budget, 20_000, run, scale)?.evidence("output perturbation (n = 50, λ = 0.5)")
}

fn check_ldp_sgda(budget: Budget) -> Result<Evidence> {
    let (dw, dt, n, l, b, eps, delta) = (2, 2, 50, 1.0, 1.0, 1.0, 1e-5);
    let f = zero_loss(dw, dt, 1e6)?;
    let s = zeros(n)?;
    let alg = LdpSgda::new(
        eps,
        delta,
        Reading::Corrected,
        vec![0.0; dw],
        vec![0.0; dt],
        l,
        b,
    )?;
    let run = |noise: &mut crate::rng::NoiseSource| alg.run(&f, &s, noise);
    let scale = |out: &Output| -> Result<f64> {
        // Cor 16: each user's gradient moves by at most 2L; T = n steps, eq. (14)'s average.
        let sigma = one_multiplier(ledger_event(out)?)? * 2.0 * l;
        reported_sigma_is_priced(out, sigma)?;
        let eta = schedules::cor16_eta_corrected(b, l, n, dw + dt, eps, delta);
        Ok(sigma * average_coefficient(eta, n as u64))
    };
    sample_by_replay(budget, 30_000, run, scale)?.evidence("LDP SGDA (n = 50, d = 4, ε = 1)")
}

/// The rounds' releases z̄_1..z̄_T of a recursive-regularization run.
fn round_releases(out: &Output) -> Result<Vec<Vec<f64>>> {
    match &out.info {
        Diagnostics::RecursiveRegularization(d) => {
            Ok(d.round_summaries.iter().map(|r| r.z_bar.clone()).collect())
        }
        _ => Err(invalid("info", "not a recursive-regularization run")),
    }
}

/// The rounds' Gaussian multipliers, one per round (the ledger's parallel composition).
fn round_events(out: &Output) -> Result<Vec<DpEvent>> {
    match ledger_event(out)? {
        DpEvent::Composed(v) => match v.first() {
            Some(DpEvent::ParallelComposed(rounds)) => Ok(rounds.clone()),
            _ => Err(invalid("ledger", "expected parallel_composed rounds")),
        },
        _ => Err(invalid(
            "ledger",
            "expected composed[parallel_composed, post_processing]",
        )),
    }
}

/// Algorithm 1, lines 4 and 7, with a zero loss: f^(t)'s regularizer Σ_{k≤t} 2^kλ‖z − z̄_{k−1}‖²
/// (signed per block) has its saddle point at the 2^k-weighted mean of z̄_0..z̄_{t−1}.
fn anchor_mean(releases: &[Vec<f64>], start: &[f64], t: usize, lambda: f64) -> Vec<f64> {
    let mut acc = vec![0.0; start.len()];
    let mut total = 0.0;
    for k in 1..=t {
        let c = schedules::algorithm1_increment(lambda, k);
        let z = if k == 1 { start } else { &releases[k - 2] };
        linalg::axpy(c, z, &mut acc);
        total += c;
    }
    linalg::scale(1.0 / total, &acc)
}

/// Push each round's residual (z̄_t − its noiseless update from the released z̄_{t−1}, ...)/(c_t σ_t)
/// for the recorded run and the controls (the tape's normals scaled).
fn sample_rounds<F, R>(budget: Budget, offset: u64, run: F, residual: R) -> Result<Samples>
where
    F: Fn(&mut crate::rng::NoiseSource) -> Result<Output>,
    R: Fn(&Output, &Output) -> Result<Vec<f64>>,
{
    let mut s = Samples::new();
    for seed in offset..offset + seeds(budget) {
        let m = measure(&run, seed, &CONTROLS)?;
        s.main.extend(residual(&m.recorded, &m.recorded)?);
        for (i, (_, out)) in m.scaled.iter().enumerate() {
            // The ledger is the recorded run's (it is the same: the calibration is data- and
            // noise-independent); the releases are the scaled run's.
            s.controls[i].extend(residual(out, &m.recorded)?);
        }
    }
    Ok(s)
}

fn check_rr_output_perturbation(budget: Budget) -> Result<Evidence> {
    let (dw, dt, n_prime, rounds, l, lambda, eps, delta) = (2, 2, 20, 3, 1.0, 0.05, 1.0, 1e-5);
    let radius = 1e3;
    let f = zero_loss(dw, dt, radius)?;
    let s = zeros(n_prime * rounds)?;
    let diameter = 2.0 * radius * ((dw + dt) as f64).sqrt();
    let sch = Schedule::free(
        n_prime * rounds,
        n_prime,
        rounds,
        lambda,
        l,
        diameter,
        DistanceRule::Corrected,
    )?;
    let start = [vec![0.5; dw], vec![-0.5; dt]];
    let alg = RecursiveRegularization::new(
        sch.clone(),
        start[0].clone(),
        start[1].clone(),
        AempSpec::output_perturbation(eps, delta, true)?,
    )?;
    let z0 = linalg::concat(&start[0], &start[1]);
    let run = |noise: &mut crate::rng::NoiseSource| alg.run(&f, &s, noise);
    let residual = |out: &Output, priced: &Output| -> Result<Vec<f64>> {
        let z = round_releases(out)?;
        let events = round_events(priced)?;
        let mut r = Vec::new();
        for t in 1..=rounds {
            // Thm 12: the round's event is stated against ẑ_t's sensitivity Δ*_t + 2r_t
            // (Lemma 2 with λ ← μ_t = 2Λ_t on n′ points, plus twice the solver radius).
            let sens = schedules::lemma2_stability(
                l,
                2.0 * schedules::algorithm1_cumulative(lambda, t),
                n_prime,
            ) + 2.0 * schedules::thm12_radius(delta, l, lambda, n_prime, t);
            let sigma = one_multiplier(&events[t - 1])? * sens;
            let centre = anchor_mean(&z, &z0, t, lambda);
            r.extend(linalg::sub(&z[t - 1], &centre).iter().map(|x| x / sigma));
        }
        Ok(r)
    };
    sample_rounds(budget, 40_000, run, residual)?
        .evidence("RR + output perturbation (T = 3 rounds, n′ = 20, λ = 0.05)")
}

fn check_rr_noisy_sgda(budget: Budget) -> Result<Evidence> {
    let (dw, dt, n_prime, rounds, l, lambda) = (1, 1, 64, 2, 1.0, 0.01);
    let radius = 1e3;
    let f = zero_loss(dw, dt, radius)?;
    let s = zeros(n_prime * rounds)?;
    let diameter = 2.0 * radius * ((dw + dt) as f64).sqrt();
    let sch = Schedule::free(
        n_prime * rounds,
        n_prime,
        rounds,
        lambda,
        l,
        diameter,
        DistanceRule::Corrected,
    )?;
    let start = [vec![0.5; dw], vec![-0.5; dt]];
    let alg = RecursiveRegularization::new(
        sch.clone(),
        start[0].clone(),
        start[1].clone(),
        AempSpec::noisy_sgda(1.0, 1.0, 1e-5, Reading::Corrected, false)?,
    )?;
    let z0 = linalg::concat(&start[0], &start[1]);
    let run = |noise: &mut crate::rng::NoiseSource| alg.run(&f, &s, noise);
    let residual = |out: &Output, priced: &Output| -> Result<Vec<f64>> {
        let z = round_releases(out)?;
        let events = round_events(priced)?;
        let mut r = Vec::new();
        for t in 1..=rounds {
            let ev = &events[t - 1];
            let steps = self_composed_count(ev);
            let m = sampled_batch(ev)
                .ok_or_else(|| invalid("ledger", "no sampled_with_replacement"))?;
            // Lemma 9: σ calibrated to the data part (the regularizer is public): 2L/m.
            let sigma = one_multiplier(ev)? * 2.0 * l / m as f64;
            // Lemma 9 / Thm 21: η_t = D̂_t/(L_t√T), L_t = L + 2BΛ_t; the regularizer's operator is
            // μ_t(z − c_t), μ_t = 2Λ_t, so each step contracts z − c_t by a = 1 − η_t μ_t.
            let cum = schedules::algorithm1_cumulative(lambda, t);
            let eta = schedules::thm21_eta(
                sch.d_hat(t),
                schedules::thm18_round_lipschitz(l, diameter, cum),
                steps,
            );
            let a = 1.0 - eta * 2.0 * cum;
            let tf = steps as f64;
            let prev = if t == 1 { z0.clone() } else { z[t - 2].clone() };
            let centre = anchor_mean(&z, &z0, t, lambda);
            // eq. (14): the average of z_0..z_{T−1}; z_k − c = a^k (z_0 − c) + noise.
            let pull: f64 = (0..steps).map(|k| a.powi(k as i32)).sum::<f64>() / tf;
            let expected = linalg::add(&centre, &linalg::scale(pull, &linalg::sub(&prev, &centre)));
            // ξ_s enters z_s..z_{T−1} with weights −η a^{k−s}.
            let coef: f64 = (1..steps)
                .map(|s| {
                    let w: f64 = (s..steps).map(|k| a.powi((k - s) as i32)).sum();
                    (eta * w / tf).powi(2)
                })
                .sum::<f64>()
                .sqrt();
            r.extend(
                linalg::sub(&z[t - 1], &expected)
                    .iter()
                    .map(|x| x / (coef * sigma)),
            );
        }
        Ok(r)
    };
    sample_rounds(budget, 50_000, run, residual)?
        .evidence("RR + noisy SGDA (T = 2 rounds, n′ = 64, λ = 0.01)")
}
