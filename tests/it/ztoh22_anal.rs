//! Integration tests of ZTOH22's analysis: the closed-form expected gaps against the core's gap
//! function, the bound formulas, and the analysis claims' quick checks.

use dpsaddle::claims::{self, Budget};
use dpsaddle::gap::expected_gaussian::SepQuadSaddle;
use dpsaddle::gap::gap_function;
use dpsaddle::geometry::Domain;
use dpsaddle::linalg::Matrix;
use dpsaddle::papers::ztoh22::bounds;
use dpsaddle::papers::Reading;
use dpsaddle::problem::saddle::Objective;
use dpsaddle::problem::{Dataset, QuadBilinear};

fn unit_box(d: usize) -> Domain {
    Domain::Box {
        lo: vec![-1.0; d],
        hi: vec![1.0; d],
    }
}

#[test]
fn separable_gap_agrees_with_the_core_gap_function() {
    let mut c = Matrix::zeros(2, 2);
    c.set(0, 0, 1.5);
    c.set(1, 1, -0.4);
    let f = QuadBilinear::data_affine(unit_box(2), unit_box(2), c, 0.7, 1.3).unwrap();
    let s = Dataset::new(vec![vec![0.2, -0.1, 0.3, 0.0], vec![-0.4, 0.2, 0.1, 0.5]]).unwrap();
    let obj = Objective::empirical(&s);
    let sep = SepQuadSaddle::from_quad_bilinear(&f, &obj).unwrap();
    for (w, t) in [
        (vec![0.3, -0.9], vec![0.1, 0.4]),
        (vec![-1.0, 1.0], vec![1.0, -1.0]),
        (vec![0.0, 0.0], vec![0.0, 0.0]),
    ] {
        let g = sep.strong_gap(&w, &t).unwrap();
        let core = gap_function(&f, &obj, &w, &t).unwrap().gap;
        assert!(
            (g - core).abs() <= 1e-12 * (1.0 + core.abs()),
            "{g} vs {core}"
        );
    }
    // A non-diagonal coupling is refused, naming the field.
    let mut c2 = Matrix::zeros(2, 2);
    c2.set(0, 1, 1.0);
    let f2 = QuadBilinear::data_affine(unit_box(2), unit_box(2), c2, 1.0, 1.0).unwrap();
    assert!(SepQuadSaddle::from_quad_bilinear(&f2, &obj).is_err());
}

#[test]
fn bound_readings() {
    let lit = bounds::thm33_empirical_reading(
        Reading::PaperLiteral,
        1.1,
        1.0,
        1.0,
        1,
        2000,
        0.9,
        0.9 / 2000.0,
        2.0,
    )
    .unwrap();
    let cor = bounds::thm33_empirical_reading(
        Reading::Corrected,
        1.1,
        1.0,
        1.0,
        1,
        2000,
        0.9,
        0.9 / 2000.0,
        2.0,
    )
    .unwrap();
    assert!((cor - lit - (0.9 / 2000.0 / 4.0) * 0.5 * 4.0).abs() < 1e-15);
    assert!(bounds::lemma44_stability(1.0, 0.0, 1.0, 3).is_err());
    assert!((bounds::lemma_a2_stability(1.0, 0.5, 4).unwrap() - 1.0).abs() < 1e-15);
}

#[test]
fn analysis_claims_hold_with_controls_rejected() {
    for id in [
        "ztoh22.eq1_2",
        "ztoh22.assumptions",
        "ztoh22.lemmaA2",
        "ztoh22.lemma44",
        "ztoh22.thm33",
        "ztoh22.thm33_failure",
        "ztoh22.thm34",
        "ztoh22.remark2",
        "ztoh22.thm43",
        "ztoh22.thm43_failure",
        "ztoh22.thm45",
        "ztoh22.remark5",
        "ztoh22.table1",
    ] {
        let c = claims::find(id).unwrap_or_else(|| panic!("{id} not registered"));
        let ev = (c.check)(Budget::Quick).unwrap();
        assert!(ev.ok(), "{id}: {ev:?}");
    }
}
