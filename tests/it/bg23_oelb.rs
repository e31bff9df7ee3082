//! BG23 §7 and App. A–B: operator extrapolation (Algorithm 3) with App. B's rate and count, the
//! lower-bound instances (Props 11–12, Lemma 4, Thm 8, the SCO-as-SSP reduction) and (A.1).

use crate::common;

use dpsaddle::papers::bg23::oe;
use dpsaddle::papers::Reading;

#[test]
fn sco_as_ssp() {
    common::run("bg23.sco_as_ssp");
}

#[test]
fn prop11() {
    common::run("bg23.prop11");
}

#[test]
fn lemma4() {
    common::run("bg23.lemma4");
}

#[test]
fn prop12() {
    common::run("bg23.prop12");
}

#[test]
fn thm8() {
    common::run("bg23.thm8");
}

#[test]
fn eq_a1() {
    common::run("bg23.eq_a1");
}

#[test]
fn alg3() {
    common::run("bg23.alg3");
}

#[test]
fn appb_oe() {
    common::run("bg23.appb_oe");
}

#[test]
fn appb_oe_count() {
    common::run("bg23.appb_oe_count");
}

#[test]
fn corrected_count_is_the_least_that_meets_zeta() {
    for &(l, lam) in &[(1.0, 0.5), (1.0, 1.0), (0.0, 2.0), (3.0, 0.1)] {
        let k = oe::appb_kappa(l, lam).unwrap();
        for &(r0, zeta) in &[(1.0, 1e-3), (2.5, 1e-6), (1.0, 0.9)] {
            let t = oe::oe_corrected_count(k, r0, zeta).unwrap();
            let f = oe::appb_rate_factor(k, t, Reading::Corrected).unwrap();
            assert!(f * r0 * r0 <= zeta * zeta, "κ = {k}, T = {t}");
            if t > 1 {
                let f = oe::appb_rate_factor(k, t - 1, Reading::Corrected).unwrap();
                assert!(f * r0 * r0 > zeta * zeta);
            }
        }
    }
    // The printed count is shorter than the corrected one exactly when κ ln κ < 1 (roughly).
    let k = oe::appb_kappa(1.0, 0.5).unwrap();
    assert!(
        oe::appb_count_for_zeta(k, 1.0, 1e-4).unwrap()
            < oe::oe_corrected_count(k, 1.0, 1e-4).unwrap()
    );
    assert!(oe::appb_kappa(-1.0, 1.0).is_err());
    assert!(oe::appb_target(1.0, 1.0, 1.0, 1.0, 0.0, Reading::Corrected).is_err());
}

#[test]
fn run_oe_config_meets_its_corrected_count() {
    let path = "fixtures/configs/vi_oe_bg23.json";
    let cfg = dpsaddle::config::parse_vi(&std::fs::read_to_string(path).unwrap(), path).unwrap();
    let v = dpsaddle::config::run_vi_with("oe", &cfg, None, false).unwrap();
    assert_eq!(v["info"]["gamma"], 1.0 / 3.0);
    assert_eq!(v["info"]["kappa"], 0.5 / 1.5 + 1.0);
    let t = v["info"]["iterations"].as_u64().unwrap();
    assert_eq!(v["evals"].as_u64().unwrap(), 4 * t);
    assert!(v["nu_certificate"].as_f64().unwrap() < 1e-6);
}
