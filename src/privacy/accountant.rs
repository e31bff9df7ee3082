//! The accountant interface: price a [`PrivacyLedger`] as ε at a given δ or δ at a given ε, or
//! answer `Error::Unsupported`, never a guess; see `proofs-notes/privacy.md`.

use crate::error::{invalid, require_nonnegative, require_unit_open, Error, Result};
use crate::privacy::PrivacyLedger;
use serde::{Deserialize, Serialize};

/// An (ε, δ) guarantee with the accountant that proved it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpsilonReport {
    /// ε.
    pub epsilon: f64,
    /// δ.
    pub delta: f64,
    /// The optimizing order (RDP, moments accountant), if any.
    pub order: Option<f64>,
    /// The accountant's name ("rdp", "pld", "moments", "gdp", "zcdp", ...).
    pub accountant: String,
}

/// An accountant: prices event trees under a neighbouring relation.
pub trait Accountant {
    /// Its short name (as on the command line).
    fn name(&self) -> &'static str;
    /// The smallest ε it can prove at δ, or `Unsupported`.
    fn epsilon(&self, ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport>;
    /// The smallest δ it can prove at ε, or `Unsupported`.
    fn delta(&self, ledger: &PrivacyLedger, epsilon: f64) -> Result<f64>;
}

/// Is this error a refusal to price (as opposed to bad input)?
pub fn is_unsupported(e: &Error) -> bool {
    matches!(e, Error::Unsupported(_))
}

/// The accountants by command-line name.
pub const ACCOUNTANTS: &[&str] = &["pld", "rdp", "gdp", "zcdp", "moments"];

/// An accountant by name (`pld`, `rdp`, `gdp`, `zcdp`, `moments`), with its default settings.
pub fn by_name(name: &str) -> Result<Box<dyn Accountant>> {
    Ok(match name {
        "pld" => Box::new(crate::privacy::pld::PldAccountant::default()),
        "rdp" => Box::new(crate::privacy::rdp::RdpAccountant::default()),
        "gdp" => Box::new(crate::privacy::gdp::GdpAccountant),
        "zcdp" => Box::new(crate::privacy::zcdp::ZcdpAccountant),
        "moments" => Box::new(crate::privacy::moments::MomentsAccountant::default()),
        other => {
            return Err(invalid(
                "accountant",
                format!(
                    "unknown accountant `{other}`; known: {}",
                    ACCOUNTANTS.join(", ")
                ),
            ))
        }
    })
}

/// The smallest ε at δ over every accountant that supports the ledger (each is a valid upper
/// bound, so their minimum is too). `Unsupported`, listing every refusal, when none does; bad
/// input is reported as such, never masked as a refusal.
pub fn tightest_epsilon(ledger: &PrivacyLedger, delta: f64) -> Result<EpsilonReport> {
    require_unit_open("delta", delta)?;
    ledger.event.validate()?;
    let mut best: Option<EpsilonReport> = None;
    let mut refusals = Vec::new();
    for name in ACCOUNTANTS {
        match by_name(name)?.epsilon(ledger, delta) {
            Ok(r) => {
                if best.as_ref().is_none_or(|b| r.epsilon < b.epsilon) {
                    best = Some(r);
                }
            }
            Err(e) if is_unsupported(&e) => refusals.push(format!("{name}: {e}")),
            Err(e) => return Err(e),
        }
    }
    best.ok_or_else(|| {
        Error::Unsupported(format!(
            "no accountant prices this event ({})",
            refusals.join("; ")
        ))
    })
}

/// The smallest δ at ε over every accountant that supports the ledger, with its name.
pub fn tightest_delta(ledger: &PrivacyLedger, epsilon: f64) -> Result<(f64, String)> {
    require_nonnegative("epsilon", epsilon)?;
    ledger.event.validate()?;
    let mut best: Option<(f64, String)> = None;
    let mut refusals = Vec::new();
    for name in ACCOUNTANTS {
        match by_name(name)?.delta(ledger, epsilon) {
            Ok(d) => {
                if best.as_ref().is_none_or(|b| d < b.0) {
                    best = Some((d, name.to_string()));
                }
            }
            Err(e) if is_unsupported(&e) => refusals.push(format!("{name}: {e}")),
            Err(e) => return Err(e),
        }
    }
    best.ok_or_else(|| {
        Error::Unsupported(format!(
            "no accountant prices this event ({})",
            refusals.join("; ")
        ))
    })
}

/// The time the default (no `--accountant`) pricing gives the PLD accountant. The closed-form
/// and RDP accountants cost microseconds to milliseconds whatever the counts (a count is a
/// multiplication for them); PLD's cost grows with the grid its composed loss spans (≈ 10⁶
/// points for 100 Gaussians of σ = 1), so by default it runs last, under this budget, and is
/// reported as skipped when it does not finish in time (ask for it with `--accountant pld`).
pub const PLD_DEFAULT_BUDGET: std::time::Duration = std::time::Duration::from_millis(1000);

/// One accountant's answer in [`every_epsilon`] / [`every_delta`]: the value (ε or δ) with the
/// RDP/moments order, or why it gave none (a refusal, or PLD over its budget).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Priced {
    /// The accountant's name.
    pub accountant: String,
    /// ε (or δ) it proves; `None` when it gave no answer.
    pub value: Option<f64>,
    /// The optimizing order, if any.
    pub order: Option<f64>,
    /// Why there is no value (refusal or budget), if there is none.
    pub note: Option<String>,
    /// Is this the smallest value in the list (the first such, in the listed order)?
    pub tightest: bool,
}

type PriceFn = fn(&dyn Accountant, &PrivacyLedger, f64) -> Result<(f64, Option<f64>)>;

fn every(
    ledger: &PrivacyLedger,
    x: f64,
    budget: std::time::Duration,
    f: PriceFn,
) -> Result<Vec<Priced>> {
    let mut out = Vec::new();
    let entry = |name: &str, r: Result<(f64, Option<f64>)>| -> Result<Priced> {
        match r {
            Ok((v, order)) => Ok(Priced {
                accountant: name.into(),
                value: Some(v),
                order,
                note: None,
                tightest: false,
            }),
            Err(e) if is_unsupported(&e) => Ok(Priced {
                accountant: name.into(),
                value: None,
                order: None,
                note: Some(e.to_string()),
                tightest: false,
            }),
            Err(e) => Err(e),
        }
    };
    for name in ["rdp", "gdp", "zcdp", "moments"] {
        out.push(entry(name, f(by_name(name)?.as_ref(), ledger, x))?);
    }
    // PLD is not started at all when the tree composes more than PLD_DEFAULT_MAX_COMPOSITIONS
    // mechanisms (its grid grows with the composition; such trees never finish in the budget).
    let compositions = pld_compositions(&ledger.event);
    if compositions > PLD_DEFAULT_MAX_COMPOSITIONS {
        out.push(Priced {
            accountant: "pld".into(),
            value: None,
            order: None,
            note: Some(format!(
                "not run by default: the tree composes {compositions} mechanisms, more than                  {PLD_DEFAULT_MAX_COMPOSITIONS} (run it alone with --accountant pld)"
            )),
            tightest: false,
        });
        return mark_tightest(out);
    }
    // PLD on a worker thread, waited for at most `budget`; an unfinished worker is abandoned
    // (the command line exits right after printing).
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = ledger.clone();
    std::thread::spawn(move || {
        let acc = crate::privacy::pld::PldAccountant::default();
        let _ = tx.send(f(&acc, &owned, x));
    });
    match rx.recv_timeout(budget) {
        Ok(r) => out.push(entry("pld", r)?),
        Err(_) => out.push(Priced {
            accountant: "pld".into(),
            value: None,
            order: None,
            note: Some(format!(
                "not finished within the default budget of {} s (run it alone with --accountant pld)",
                budget.as_secs_f64()
            )),
            tightest: false,
        }),
    }
    mark_tightest(out)
}

/// The most mechanisms the default pricing lets PLD compose (counted with multiplicity by
/// [`pld_compositions`]).
pub const PLD_DEFAULT_MAX_COMPOSITIONS: u128 = 1000;

/// The number of mechanisms a tree composes, counted with multiplicity (a `self_composed` count
/// multiplies; lists add; wrappers pass through; saturating).
pub fn pld_compositions(e: &crate::privacy::DpEvent) -> u128 {
    use crate::privacy::DpEvent as E;
    match e {
        E::Gaussian { .. } | E::Laplace { .. } => 1,
        E::SelfComposed { count, event } => {
            (*count as u128).saturating_mul(pld_compositions(event))
        }
        E::Composed(v) | E::ParallelComposed(v) => v
            .iter()
            .fold(0u128, |a, x| a.saturating_add(pld_compositions(x))),
        E::PoissonSampled { event, .. }
        | E::SampledWithoutReplacement { event, .. }
        | E::SampledWithReplacement { event, .. } => pld_compositions(event),
        E::PostProcessing | E::NoOp => 0,
    }
}

fn mark_tightest(mut out: Vec<Priced>) -> Result<Vec<Priced>> {
    let best = out
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.value.map(|v| (i, v)))
        .fold(None, |b: Option<(usize, f64)>, (i, v)| match b {
            Some((_, bv)) if bv <= v => b,
            _ => Some((i, v)),
        });
    match best {
        Some((i, _)) => out[i].tightest = true,
        None => {
            let refusals: Vec<String> = out
                .iter()
                .map(|p| format!("{}: {}", p.accountant, p.note.clone().unwrap_or_default()))
                .collect();
            return Err(Error::Unsupported(format!(
                "no accountant prices this event ({})",
                refusals.join("; ")
            )));
        }
    }
    Ok(out)
}

/// Every accountant's ε at δ: the cheap ones (RDP, GDP, zCDP, moments) always, PLD under
/// `pld_budget` ([`PLD_DEFAULT_BUDGET`] on the command line); the smallest ε is marked
/// `tightest`. Bad input is an error; refusals are listed with their reason.
pub fn every_epsilon(
    ledger: &PrivacyLedger,
    delta: f64,
    pld_budget: std::time::Duration,
) -> Result<Vec<Priced>> {
    crate::privacy::require_delta("delta", delta)?;
    ledger.event.validate()?;
    every(ledger, delta, pld_budget, |a, l, d| {
        a.epsilon(l, d).map(|r| (r.epsilon, r.order))
    })
}

/// Every accountant's δ at ε, as [`every_epsilon`].
pub fn every_delta(
    ledger: &PrivacyLedger,
    epsilon: f64,
    pld_budget: std::time::Duration,
) -> Result<Vec<Priced>> {
    require_nonnegative("epsilon", epsilon)?;
    if !epsilon.is_finite() {
        return Err(invalid("epsilon", format!("must be finite, got {epsilon}")));
    }
    ledger.event.validate()?;
    every(ledger, epsilon, pld_budget, |a, l, e| {
        a.delta(l, e).map(|d| (d, None))
    })
}

/// The (ε, δ) a run's ledger achieves, with the accountant that priced it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunPrivacy {
    /// ε.
    pub epsilon: f64,
    /// δ (the total, including any truncation share).
    pub delta: f64,
    /// The accountant that gave ε (`replacement` for the crate's own with-replacement bound).
    pub accountant: String,
    /// What that accountant is.
    pub method: String,
    /// The optimizing order, if any.
    pub order: Option<f64>,
    /// The part of δ spent on truncating with-replacement multiplicities (replacement bound).
    pub truncation_delta: Option<f64>,
    /// Every accountant's answer (ledgers without sampling with replacement).
    pub accountants: Vec<Priced>,
}

/// Does the tree sample with replacement anywhere?
pub fn samples_with_replacement(e: &crate::privacy::DpEvent) -> bool {
    use crate::privacy::DpEvent as E;
    match e {
        E::SampledWithReplacement { .. } => true,
        E::SelfComposed { event, .. }
        | E::PoissonSampled { event, .. }
        | E::SampledWithoutReplacement { event, .. } => samples_with_replacement(event),
        E::Composed(v) | E::ParallelComposed(v) => v.iter().any(samples_with_replacement),
        _ => false,
    }
}

/// Price a run's ledger at δ. A ledger that samples with replacement (noisy SGDA) is priced by
/// the crate's own proved RDP bound for sampling with replacement
/// ([`crate::privacy::replacement`], derivation in `proofs-notes/privacy.md`, "Sampling with
/// replacement"), which the other accountants refuse, with the δ share it spends on truncating
/// multiplicities; any other ledger by [`every_epsilon`] (the tightest answer, PLD under
/// `pld_budget`).
pub fn price_run_ledger(
    ledger: &PrivacyLedger,
    delta: f64,
    pld_budget: std::time::Duration,
) -> Result<RunPrivacy> {
    crate::privacy::require_delta("delta", delta)?;
    ledger.event.validate()?;
    if samples_with_replacement(&ledger.event) {
        let (epsilon, order, extra) =
            crate::privacy::replacement::rdp_epsilon_parts(ledger, delta)?;
        return Ok(RunPrivacy {
            epsilon,
            delta,
            accountant: "replacement".into(),
            method: "dpsaddle's own proved RDP bound for sampling with replacement under \
                     replace-one (privacy::replacement; proofs-notes/privacy.md, \"Sampling with \
                     replacement\"); not an external accountant's figure"
                .into(),
            order: Some(order as f64),
            truncation_delta: Some(extra),
            accountants: Vec::new(),
        });
    }
    let all = every_epsilon(ledger, delta, pld_budget)?;
    let best = all
        .iter()
        .find(|p| p.tightest)
        .expect("one is marked")
        .clone();
    Ok(RunPrivacy {
        epsilon: best.value.expect("the tightest has a value"),
        delta,
        method: format!(
            "the tightest of the accountants listed ({})",
            best.accountant
        ),
        accountant: best.accountant,
        order: best.order,
        truncation_delta: None,
        accountants: all,
    })
}
