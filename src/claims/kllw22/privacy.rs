//! KLLW22 §3 / App. A.1: Lemma 1 and Theorem 1 per block (the joint release's erratum is the
//! privacy claim `kllw22.thm1_joint`).

use crate::claims::{BoundCheck, Budget, Claim, Evidence, Kind};
use crate::error::Result;
use crate::privacy::papers::{
    kllw22_moments_accountant_epsilon, kllw22_thm1, Release, KLLW22_C_JOINT, KLLW22_C_PROOF,
};

/// The per-block privacy claims.
pub fn claims() -> Vec<Claim> {
    vec![Claim {
        id: "kllw22.thm1_per_block",
        paper: "KLLW22",
        item: "Theorem 1 (one block) and Lemma 1 (proof: Theorem 4, App. A.1)",
        statement: "σ = c·G√(T log(1/δ))/(nε) with c = 4 (Lemma 1's σ² form: c = 16) makes one block's T noisy \
                    full-batch gradients (sensitivity 2G/n) (ε, δ)-DP: certified by the exact accountant, and by the \
                    paper's own moments-accountant argument when ε ≤ 2 log(1/δ); the same argument at c = 4 fails \
                    for the joint (w, v) release, which needs 4√2.",
        kind: Kind::Calibration,
        code: "privacy::papers::{kllw22_thm1, kllw22_moments_accountant_epsilon}",
        check: check_per_block,
    }]
}

fn check_per_block(b: Budget) -> Result<Evidence> {
    let mut main = BoundCheck::new(1e-9, 0.0);
    let mut ctrl = BoundCheck::new(1e-9, 0.0);
    let eps_grid: &[f64] = if b == Budget::Full {
        &[0.1, 0.5, 1.0, 3.0, 10.0]
    } else {
        &[0.1, 1.0, 10.0]
    };
    for &eps in eps_grid {
        for &delta in &[1e-5, 1e-9] {
            for &(t, n) in &[(10u64, 100u64), (1000, 10_000)] {
                let lab = format!("ε = {eps}, δ = {delta:e}, T = {t}, n = {n}");
                let cal = kllw22_thm1(KLLW22_C_PROOF, 1.0, t, n, eps, delta, Release::PerBlock)?;
                main.observe(
                    cal.epsilon_upper()?.epsilon,
                    eps,
                    format!("{lab}: exact accountant, one block"),
                );
                let ma = kllw22_moments_accountant_epsilon(KLLW22_C_PROOF, eps, delta, 1)?;
                main.observe(
                    ma,
                    eps,
                    format!("{lab}: the proof's moments accountant, one block"),
                );
                let ma_joint = kllw22_moments_accountant_epsilon(KLLW22_C_JOINT, eps, delta, 2)?;
                main.observe(
                    ma_joint,
                    eps,
                    format!("{lab}: the proof's accountant, joint, c = 4√2"),
                );
                let ma_joint_4 = kllw22_moments_accountant_epsilon(KLLW22_C_PROOF, eps, delta, 2)?;
                ctrl.observe(
                    ma_joint_4,
                    eps,
                    format!("{lab}: the proof's accountant, joint, c = 4"),
                );
            }
        }
    }
    Ok(Evidence::from_checks(
        &main,
        Some(("the joint release at c = 4 (the proof's accountant)", &ctrl)),
    ))
}
