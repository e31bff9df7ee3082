//! BG23 §1–§2 and §4.1: the claims of this part pass with their controls rejected, and the
//! paper formulas behave as the notes derive (proofs-notes/bg23.md, Parts 1 and 3).

use dpsaddle::claims::{self, Budget};
use dpsaddle::error::Error;
use dpsaddle::papers::bg23::{generalization as gen, stability as st};
use dpsaddle::papers::Reading;

const IDS: &[&str] = &[
    "bg23.eq1_1_1_2",
    "bg23.operator_class",
    "bg23.def1",
    "bg23.prop2",
    "bg23.eq4_1_4_2",
    "bg23.prop6",
    "bg23.lemma1",
    "bg23.lemma2",
    "bg23.thm3",
    "bg23.thm3_empirical",
    "bg23.thm3_hp",
];

#[test]
fn every_claim_passes_and_rejects_its_control() {
    for id in IDS {
        let c = claims::find(id).unwrap_or_else(|| panic!("{id} not registered"));
        let ev = (c.check)(Budget::Quick).unwrap();
        assert!(ev.ok(), "{id}: {ev:?}");
        assert_eq!(ev.control_status(), "rejected", "{id}");
    }
}

#[test]
fn tight_claims_are_tight() {
    for id in ["bg23.prop6", "bg23.thm3", "bg23.def1"] {
        let ev = (claims::find(id).unwrap().check)(Budget::Quick).unwrap();
        let r = ev.tight_ratio.expect("tight ratio");
        assert!((r - 1.0).abs() < 1e-9, "{id}: {r}");
        assert!(!ev.series.is_empty(), "{id}: no series");
    }
}

fn params(t: usize, l: f64, gamma: f64) -> st::Thm3Params {
    st::Thm3Params {
        m: 1.0,
        l,
        diameter: 2.0,
        dim: 3,
        sigma: 0.4,
        n: 7,
        gammas: vec![gamma; t],
        sensitivity: 2.0 / 7.0,
    }
}

#[test]
fn thm3_literal_dominates_corrected_for_constant_steps() {
    for t in [1, 2, 5, 30] {
        for l in [0.0, 0.1, 1.0] {
            let p = params(t, l, 0.5);
            let a = st::thm3_rhs(Reading::PaperLiteral, &p).unwrap();
            let b = st::thm3_rhs(Reading::Corrected, &p).unwrap();
            assert!(a >= b * (1.0 - 1e-15), "T={t} L={l}: {a} < {b}");
        }
    }
    // At T = 1, L = 0 both are sγ.
    let p = params(1, 0.0, 0.5);
    assert_eq!(
        st::thm3_rhs(Reading::Corrected, &p).unwrap(),
        0.5 * 2.0 / 7.0
    );
    let mut bad = params(1, 0.0, 0.5);
    bad.n = 0;
    assert!(
        matches!(st::thm3_rhs(Reading::PaperLiteral, &bad), Err(Error::Invalid { field, .. }) if field == "n")
    );
    bad = params(1, 0.0, 0.5);
    bad.gammas.clear();
    assert!(st::thm3_rhs(Reading::Corrected, &bad).is_err());
}

#[test]
fn eq4_15_literal_fails_and_corrected_holds() {
    for k in [1usize, 10, 100, 1000] {
        let (t, lt) = (2 * k, 100.0 * k as f64);
        let tau = st::eq4_15_threshold(Reading::PaperLiteral, t, 1, 1.0, k as f64, lt);
        assert!(
            st::eq4_15_ln_prob_lower_d1(t, 1.0, tau).unwrap() > -lt,
            "K={k}"
        );
        for d in [1, 2] {
            let tc = st::eq4_15_threshold(Reading::Corrected, t, d, 1.0, k as f64, lt);
            assert!(
                st::eq4_15_ln_prob_upper(d, t, 1.0, tc).unwrap() <= -lt,
                "K={k} d={d}"
            );
        }
    }
    // K = 1, T = 2, ln θ = −100: the previous session's −75.4.
    let tau = st::eq4_15_threshold(Reading::PaperLiteral, 2, 1, 1.0, 1.0, 100.0);
    let lp = st::eq4_15_ln_prob_lower_d1(2, 1.0, tau).unwrap();
    assert!((lp + 75.41).abs() < 0.01, "{lp}");
    assert!(st::ln_normal_tail_lower(0.0).is_err());
    assert!(st::ln_norm_mgf(3, 1.0).is_err());
}

#[test]
fn uas_enumeration_rejects_bad_tables_and_codes_roundtrip() {
    for code in 0..27 {
        assert_eq!(
            gen::encode_sequence(&gen::decode_sequence(code, 3, 3), 3),
            code
        );
    }
    assert!(gen::uas_enumerated(&[], 2, 2, 0).is_err());
    assert!(gen::uas_enumerated(&[vec![vec![0.0]; 3]], 2, 2, 0).is_err());
    let tab = vec![vec![vec![0.0], vec![1.0], vec![0.0], vec![3.0]]];
    let (d, a, b) = gen::uas_enumerated(&tab, 2, 2, 0).unwrap();
    assert_eq!((d, a, b), (3.0, 2, 3));
    assert_eq!(gen::prop2_rhs(0.5, 2.0, 0.25), 1.0);
    assert_eq!(gen::prop1_rhs(0.5, 2.0, 0.25, 0.25), 1.5);
}
