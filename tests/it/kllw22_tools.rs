//! KLLW22 App. A.2–A.3: the moments-accountant pieces (Lemmas 3–5) and the probabilistic tools
//! (Lemmas 6–12), each run as its registered claim.

use crate::common;

use dpsaddle::papers::kllw22::stability::p_zeta;
use dpsaddle::papers::kllw22::tools::{chi_square_log_sf, lemma6_radius, ZetaRange};

#[test]
fn lemma3() {
    common::run("kllw22.lemma3");
}

#[test]
fn lemma4() {
    common::run("kllw22.lemma4");
}

#[test]
fn lemma5() {
    common::run("kllw22.lemma5");
}

#[test]
fn lemma6() {
    common::run("kllw22.lemma6");
}

/// χ² tails by hand: P(χ²_2 > x) = e^{−x/2}; P(χ²_1 > 1) = erfc(1/√2) ≈ 0.3173105078629141.
#[test]
fn chi_square_by_hand() {
    let v = chi_square_log_sf(2, 3.0).unwrap();
    assert!((v + 1.5).abs() < 1e-15, "{v}");
    let v = chi_square_log_sf(1, 1.0).unwrap().exp();
    assert!((v - 0.317_310_507_862_914_1).abs() < 1e-15, "{v}");
    assert_eq!(chi_square_log_sf(5, 0.0).unwrap(), 0.0);
    assert!(chi_square_log_sf(0, 1.0).is_err());
}

/// The ranges of Lemma 6 and p_ζ are enforced (E-KLLW22-12).
#[test]
fn lemma6_ranges_are_errors() {
    // p = 8: paper range is (e^{−1}, 1).
    assert!(lemma6_radius(1.0, 8, 0.3, ZetaRange::Paper).is_err());
    assert!(lemma6_radius(1.0, 8, 0.3, ZetaRange::Relaxed).is_ok());
    let e = lemma6_radius(1.0, 8, 1e-9, ZetaRange::Relaxed)
        .unwrap_err()
        .to_string();
    assert!(e.contains("zeta"), "{e}");
    // T = 50, ζ = 0.1: the paper-literal regime needs p > 8 ln 1000 ≈ 55.3.
    assert!(p_zeta(55, 50, 0.1, Some(ZetaRange::Paper)).is_err());
    assert!(p_zeta(56, 50, 0.1, Some(ZetaRange::Paper)).is_ok());
}

#[test]
fn lemma7() {
    common::run("kllw22.lemma7");
}

#[test]
fn lemma8() {
    common::run("kllw22.lemma8");
}

#[test]
fn lemma9() {
    common::run("kllw22.lemma9");
}

#[test]
fn lemma11() {
    common::run("kllw22.lemma11");
}

#[test]
fn lemma12() {
    common::run("kllw22.lemma12");
}

#[test]
fn lemma10() {
    common::run("kllw22.lemma10");
}

/// One p_ζ: without a range it is Theorem 2's formula (also where Lemma 6 does not apply), and
/// it is the same number with a range when the range holds.
#[test]
fn p_zeta_formula_and_range() {
    // p = 2, T = 9, ζ = 0.1: ζ/(2T) = 1/180 < e^{−4}, outside even the relaxed range.
    assert!(p_zeta(2, 9, 0.1, Some(ZetaRange::Relaxed)).is_err());
    let v = p_zeta(2, 9, 0.1, None).unwrap();
    assert!(
        (v - (1.0 + (8.0 * 180f64.ln() / 2.0).powf(0.25))).abs() < 1e-15,
        "{v}"
    );
    let a = p_zeta(56, 50, 0.1, Some(ZetaRange::Paper)).unwrap();
    assert_eq!(a, p_zeta(56, 50, 0.1, None).unwrap());
    assert!(p_zeta(4, 0, 0.1, None).is_err());
    assert!(p_zeta(4, 10, 1.0, None).is_err());
}
