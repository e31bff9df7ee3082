//! BGM23 §5 and Lemmas 6–7: the registered claims (with their ratios and controls), exact values
//! from the table of exact values, the two algorithms, and bad input.

use dpsaddle::algorithms::mode_of_halves::ModeOfHalves;
use dpsaddle::algorithms::regularized_erm::RegularizedErm;
use dpsaddle::algorithms::Algorithm;
use dpsaddle::exact::{int, rat, BigRational};
use dpsaddle::papers::bgm23::packing::{self, Packing};
use dpsaddle::papers::bgm23::prop13::{
    mode_of_halves_gaps, mode_of_halves_law, mode_of_halves_law_brute, mode_of_halves_stability,
};
use dpsaddle::problem::{Dataset, QuadBilinear};
use dpsaddle::rng::NoiseSource;

use crate::common;
use common::run;

#[test]
fn section5_claims_pass_with_controls_rejected() {
    for id in [
        "bgm23.lemma6",
        "bgm23.lemma7",
        "bgm23.prop13",
        "bgm23.prop14",
        "bgm23.remark_l260",
        "bgm23.thm15",
        "bgm23.remark_l264",
        "bgm23.thm15_delta_le_b",
    ] {
        let ev = run(id);
        assert_eq!(ev.control_status(), "rejected", "{id}");
    }
}

fn field_of(e: dpsaddle::Error) -> String {
    match e {
        dpsaddle::Error::Invalid { field, .. } => field,
        other => panic!("expected an Invalid error, got {other}"),
    }
}

#[test]
fn prop13_exact_values_from_the_table() {
    let half = rat(1, 2);
    // n = 100: 2 − C(50, 25)/2^49.
    let law = mode_of_halves_law(&half, 100, &int(0)).unwrap();
    assert_eq!(law.diff().to_string(), "124936162550609/70368744177664");
    for n in [2u64, 6, 10, 14, 18, 102] {
        let law = mode_of_halves_law(&half, n, &int(0)).unwrap();
        assert_eq!(
            (law.strong.clone(), law.weak.clone()),
            (int(2), int(0)),
            "n = {n}"
        );
        assert_eq!(law.tau2, int(2));
    }
    // n ≡ 0 (mod 4): the difference falls short of 2 (the negative control's values).
    for (n, d) in [(4u64, rat(1, 1)), (8, rat(5, 4)), (12, rat(11, 8))] {
        assert_eq!(mode_of_halves_law(&half, n, &int(0)).unwrap().diff(), d);
    }
    // Tie rule +1 moves the deficit from the strong to the weak gap.
    let law = mode_of_halves_law(&half, 8, &int(1)).unwrap();
    assert_eq!((law.strong, law.weak), (int(2), rat(3, 4)));
    // Biased data.
    let law = mode_of_halves_law(&rat(3, 5), 3, &int(0)).unwrap();
    assert_eq!((law.strong, law.weak), (rat(38, 25), rat(2, 5)));
    // The older two-value entry point agrees.
    for n in 2..=12 {
        let law = mode_of_halves_law(&rat(2, 3), n, &rat(1, 2)).unwrap();
        assert_eq!(
            mode_of_halves_gaps(&rat(2, 3), n, &rat(1, 2)),
            (law.strong, law.weak)
        );
    }
}

#[test]
fn prop13_brute_force_matches_formula_off_grid() {
    // Parameters the claim does not use: p = 2/7, s0 = −1/3.
    for n in 2..=10 {
        assert_eq!(
            mode_of_halves_law(&rat(2, 7), n, &rat(-1, 3)).unwrap(),
            mode_of_halves_law_brute(&rat(2, 7), n, &rat(-1, 3)).unwrap(),
            "n = {n}"
        );
    }
    assert_eq!(mode_of_halves_stability(6, &int(0)).unwrap(), int(2));
    assert_eq!(mode_of_halves_stability(8, &rat(1, 2)).unwrap(), rat(3, 2));
}

#[test]
fn prop13_bad_input_is_rejected_with_the_field() {
    assert_eq!(
        field_of(mode_of_halves_law(&rat(1, 2), 1, &int(0)).unwrap_err()),
        "n"
    );
    assert_eq!(
        field_of(mode_of_halves_law(&rat(3, 2), 4, &int(0)).unwrap_err()),
        "p"
    );
    assert_eq!(
        field_of(mode_of_halves_law(&rat(1, 2), 4, &int(2)).unwrap_err()),
        "s0"
    );
    assert_eq!(
        field_of(mode_of_halves_law_brute(&rat(1, 2), 40, &int(0)).unwrap_err()),
        "n"
    );
}

#[test]
fn mode_of_halves_algorithm() {
    let f = QuadBilinear::bgm23_prop13();
    let run = |tie: f64, xs: &[f64]| {
        let s = Dataset::new(xs.iter().map(|&x| vec![x]).collect()).unwrap();
        ModeOfHalves::new(tie)
            .unwrap()
            .run(&f, &s, &mut NoiseSource::sample(0))
    };
    let o = run(0.0, &[1.0, 1.0, -1.0, -1.0, -1.0, 1.0]).unwrap();
    assert_eq!((o.w[0], o.theta[0]), (1.0, -1.0));
    // n = 4: halves (1, −1) and (−1, −1): a tie in the first half.
    let o = run(0.5, &[1.0, -1.0, -1.0, -1.0]).unwrap();
    assert_eq!((o.w[0], o.theta[0]), (0.5, -1.0));
    // n = 5: halves of sizes 2 and 3.
    let o = run(0.0, &[1.0, 1.0, -1.0, 1.0, -1.0]).unwrap();
    assert_eq!((o.w[0], o.theta[0]), (1.0, -1.0));
    assert_eq!(field_of(ModeOfHalves::new(2.0).unwrap_err()), "tie");
    assert_eq!(field_of(ModeOfHalves::new(f64::NAN).unwrap_err()), "tie");
    assert_eq!(field_of(run(0.0, &[1.0, 0.5]).unwrap_err()), "data[1]");
    assert_eq!(field_of(run(0.0, &[1.0]).unwrap_err()), "data");
    let lin = QuadBilinear::lin_box(0.0).unwrap();
    let s = Dataset::new(vec![vec![1.0, 1.0], vec![-1.0, 1.0]]).unwrap();
    let e = ModeOfHalves::new(0.0)
        .unwrap()
        .run(&lin, &s, &mut NoiseSource::sample(0))
        .unwrap_err();
    assert_eq!(field_of(e), "data");
}

#[test]
fn packing_values_and_regularized_erm() {
    // The packing rows: excess RL√K/(2n) at λ = 2L√K/(nR).
    for (r, l, n, k, lam, value) in [
        (int(1), int(1), 8u64, 4usize, rat(1, 2), rat(1, 8)),
        (int(3), int(2), 20, 9, rat(1, 5), rat(9, 20)),
        (int(1), rat(1, 2), 50, 16, rat(2, 25), rat(1, 50)),
        (int(1), int(1), 4, 4, int(1), rat(1, 4)),
    ] {
        let p = Packing::new(r, l, n, k).unwrap();
        assert_eq!(p.tight_lambda(), lam);
        assert_eq!(p.thm15_value(), value);
        // Every σ has that excess (spot-check a few masks without the 2^K enumeration).
        for mask in [0u64, 1, 5, (1u64 << k) - 1] {
            let w = packing::reg_erm(&p, &lam, mask).unwrap();
            assert_eq!(p.excess(mask, &w).unwrap(), value);
        }
    }
    // Full enumeration on (1, 1, 8, 4): identity, Δ and the attained bound.
    let p = Packing::new(int(1), int(1), 8, 4).unwrap();
    let lam = p.tight_lambda();
    let rep = p.analyse(|m| packing::reg_erm(&p, &lam, m)).unwrap();
    assert_eq!(rep.expected_excess, rat(1, 8));
    assert_eq!(rep.identity_signed, rat(1, 8));
    assert_eq!(rep.identity_paired, rat(1, 8));
    assert_eq!(rep.delta_coord, rat(1, 2));
    assert_eq!(rep.measured_lower_bound, rat(1, 8));
    // Shrunk ERM: excess (1 − γ)RL√K/n equals the measured bound.
    let rep = p
        .analyse(|m| packing::shrunk_erm(&p, &rat(1, 4), m))
        .unwrap();
    assert_eq!(rep.expected_excess, rat(3, 16));
    assert_eq!(rep.measured_lower_bound, rat(3, 16));
    // Exact ERM: zero excess, and the replace-one pair of the erratum moves it by 2R.
    let rep = p.analyse(|m| Ok(p.erm(m))).unwrap();
    assert_eq!(rep.max_excess, int(0));
    // A random table: the identity holds, the bound is strict.
    let t = packing::random_table(&p, 7);
    assert_eq!(t, packing::random_table(&p, 7));
    let rep = p.analyse(|m| Ok(t[m as usize].clone())).unwrap();
    assert_eq!(rep.expected_excess, rep.identity_signed);
    assert_eq!(rep.expected_excess, rep.identity_paired);
    assert!(rep.measured_lower_bound < rep.expected_excess);
    // The float algorithm through the certified solver.
    let f = p.problem().unwrap();
    let alg = RegularizedErm {
        lambda: 0.5,
        anchor_w: vec![0.0; 4],
    };
    let o = alg
        .run(&f, &p.dataset(5), &mut NoiseSource::sample(0))
        .unwrap();
    // σ = (−1, +1, −1, +1): w = −(L/(nλ))σ = σ·(−1/4).
    let want = [0.25, -0.25, 0.25, -0.25];
    for (a, b) in o.w.iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{:?}", o.w);
    }
    assert_eq!(alg.stability_bound(1.0, 8), 0.5);
}

#[test]
fn packing_and_regularized_erm_bad_input() {
    let pk =
        |r: BigRational, l: BigRational, n: u64, k: usize| Packing::new(r, l, n, k).unwrap_err();
    assert_eq!(field_of(pk(int(1), int(1), 8, 3)), "K");
    assert_eq!(field_of(pk(int(1), int(1), 8, 0)), "K");
    assert_eq!(field_of(pk(int(1), int(1), 40, 25)), "K");
    assert_eq!(field_of(pk(int(1), int(1), 8, 9)), "n");
    assert_eq!(field_of(pk(int(0), int(1), 8, 4)), "R");
    assert_eq!(field_of(pk(int(1), rat(-1, 2), 8, 4)), "L");
    let p = Packing::new(int(1), int(1), 8, 4).unwrap();
    assert_eq!(
        field_of(packing::reg_erm(&p, &int(0), 0).unwrap_err()),
        "lambda"
    );
    assert_eq!(
        field_of(packing::shrunk_erm(&p, &rat(3, 2), 0).unwrap_err()),
        "gamma"
    );
    assert_eq!(field_of(p.risk(0, &[int(0)]).unwrap_err()), "w");
    let f = p.problem().unwrap();
    let s = p.dataset(0);
    let bad = |lambda: f64, anchor: Vec<f64>| {
        RegularizedErm {
            lambda,
            anchor_w: anchor,
        }
        .run(&f, &s, &mut NoiseSource::sample(0))
        .unwrap_err()
    };
    assert_eq!(field_of(bad(0.0, vec![0.0; 4])), "lambda");
    assert_eq!(field_of(bad(f64::NAN, vec![0.0; 4])), "lambda");
    assert!(field_of(bad(1.0, vec![2.0, 0.0, 0.0, 0.0])).starts_with("anchor"));
    // A saddle problem (Θ not a point) is not a minimization problem.
    let lin = QuadBilinear::lin_box(0.0).unwrap();
    let e = RegularizedErm {
        lambda: 1.0,
        anchor_w: vec![0.0],
    }
    .run(
        &lin,
        &Dataset::new(vec![vec![0.6, 0.8]]).unwrap(),
        &mut NoiseSource::sample(0),
    )
    .unwrap_err();
    assert_eq!(field_of(e), "problem");
    let e = RegularizedErm {
        lambda: 1.0,
        anchor_w: vec![0.0; 4],
    }
    .run(
        &f,
        &Dataset::new(vec![vec![1.0]]).unwrap(),
        &mut NoiseSource::sample(0),
    )
    .unwrap_err();
    assert_eq!(field_of(e), "data");
}

#[test]
fn section5_fixture_computations_reject_bad_input() {
    use dpsaddle::fixtures::compute;
    use serde_json::json;
    let v = compute(
        "ModeOfHalvesExact",
        &json!({}),
        &json!({"n": 6, "p": "1/2", "s0": "0"}),
    )
    .unwrap();
    assert_eq!(v["difference"], json!("2"));
    assert_eq!(v["tau2_f64"], json!(2.0));
    let v = compute(
        "Thm15PackingRegularizedErm",
        &json!({}),
        &json!({"R": "1", "L": "1", "n": 8, "K": 4}),
    )
    .unwrap();
    assert_eq!(v["expected_excess"], json!("1/8"));
    assert_eq!(v["lambda"], json!("1/2"));
    for (kind, inputs, field) in [
        (
            "ModeOfHalvesExact",
            json!({"n": 6, "p": "1/0", "s0": "0"}),
            "p",
        ),
        (
            "ModeOfHalvesExact",
            json!({"n": 6, "p": 0.5, "s0": "0"}),
            "p",
        ),
        (
            "ModeOfHalvesExact",
            json!({"n": -6, "p": "1/2", "s0": "0"}),
            "n",
        ),
        ("ModeOfHalvesExact", json!({"p": "1/2", "s0": "0"}), "n"),
        (
            "Thm15PackingRegularizedErm",
            json!({"R": "1", "L": "1", "n": 8, "K": 2}),
            "K",
        ),
        (
            "Thm15PackingShrunkErm",
            json!({"R": "1", "L": "1", "n": 8, "K": 4}),
            "gamma",
        ),
    ] {
        let e = compute(kind, &json!({}), &inputs).unwrap_err();
        assert_eq!(field_of(e), field, "{inputs}");
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// For random rational p and tie values: brute force = formula, and Prop 14's
        /// (Gap − Gap_weak)² ≤ L²τ² with L = √2 holds exactly.
        #[test]
        fn mode_law_formula_and_prop14(num in 0i64..=20, n in 2u64..=9, t in -4i64..=4) {
            let p = rat(num, 20);
            let s0 = rat(t, 4);
            let law = mode_of_halves_law(&p, n, &s0).unwrap();
            prop_assert_eq!(&law, &mode_of_halves_law_brute(&p, n, &s0).unwrap());
            let d = law.diff();
            prop_assert!(d >= int(0));
            prop_assert!(&d * &d <= int(2) * &law.tau2);
        }
    }
}
