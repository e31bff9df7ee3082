//! Language-neutral JSON test vectors (DESIGN "Fixtures"), modelled on Project Wycheproof.
//!
//! A file has `schema`, `paper`, `item`, `generator`, `numberOfTests`, `notes` (flag → meaning) and
//! `testGroups`; a group has a `type`, shared `params` and `tests`; a test has `tcId`, `comment`,
//! `flags`, `inputs`, `expected`, `result` ("valid" or "invalid") and `minLre`, the number of correct
//! decimal digits a float must agree to (log relative error; exact for integers and strings).
//!
//! [`generate`] writes every file byte-identically on a rerun; [`check_file`] recomputes each
//! test's expected output from its inputs alone and reports per tcId. An "invalid" test must be
//! rejected by the computation (an error), never answered.

use crate::algorithms::{Algorithm, RegularizedSaddlePoint};
use crate::error::{invalid, Error, Result};
use crate::gap::gap_function;
use crate::problem::{Dataset, Mixture, Objective, ProblemSpec, Regularizer};
use crate::rng::{fnv1a64, NoiseSource, Stream};
use crate::stability::uas_over_support;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The schema identifier written into every file.
pub const SCHEMA: &str = "dpsaddle-fixture-v1";

/// A fixture file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixtureFile {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Paper key, or "core".
    pub paper: String,
    /// The item the vectors exercise.
    pub item: String,
    /// "dpsaddle <version>".
    pub generator: String,
    /// Total tests over all groups.
    #[serde(rename = "numberOfTests")]
    pub number_of_tests: usize,
    /// Flag → meaning.
    pub notes: BTreeMap<String, String>,
    /// The groups.
    #[serde(rename = "testGroups")]
    pub test_groups: Vec<TestGroup>,
}

/// Tests sharing a computation type and parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestGroup {
    /// The computation (see [`compute`]).
    #[serde(rename = "type")]
    pub kind: String,
    /// Parameters shared by the group's tests.
    pub params: Value,
    /// The tests.
    pub tests: Vec<TestCase>,
}

/// One test vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestCase {
    /// Unique id within the file.
    #[serde(rename = "tcId")]
    pub tc_id: u64,
    /// What the test is.
    pub comment: String,
    /// Flags, explained in the file's notes.
    pub flags: Vec<String>,
    /// The inputs.
    pub inputs: Value,
    /// The expected output (null for invalid tests).
    pub expected: Value,
    /// "valid" or "invalid".
    pub result: String,
    /// Minimum correct digits for floats.
    #[serde(rename = "minLre")]
    pub min_lre: f64,
}

fn field<T: serde::de::DeserializeOwned>(v: &Value, name: &str) -> Result<T> {
    let x = v.get(name).ok_or_else(|| invalid(name, "is missing"))?;
    serde_json::from_value(x.clone()).map_err(|e| invalid(name, e.to_string()))
}

/// Recompute a test's expected output from the group type, its params and the test's inputs.
pub fn compute(kind: &str, params: &Value, inputs: &Value) -> Result<Value> {
    match kind {
        "RngStream" => {
            let seed: String = field(inputs, "seed")?;
            let seed: u64 = seed
                .parse()
                .map_err(|_| invalid("seed", "must be a decimal u64 string"))?;
            let label: String = field(inputs, "label")?;
            let count: usize = field(inputs, "count")?;
            let mut s = Stream::new(seed, &label);
            let u64s: Vec<String> = (0..count)
                .map(|_| format!("{:016x}", s.next_u64()))
                .collect();
            let mut s = Stream::new(seed, &label);
            let uniforms: Vec<f64> = (0..count).map(|_| s.uniform()).collect();
            let mut s = Stream::new(seed, &label);
            let normals: Vec<f64> = (0..count).map(|_| s.normal()).collect();
            let mut s = Stream::new(seed, &label);
            let index10: Vec<usize> = (0..count).map(|_| s.index(10)).collect();
            Ok(json!({
                "fnv1a64": format!("{:016x}", fnv1a64(&label)),
                "u64": u64s, "uniform": uniforms, "normal": normals, "index10": index10,
            }))
        }
        "GapFunction" => {
            let spec: ProblemSpec = field(params, "problem")?;
            let f = spec.build()?;
            let data: Mixture = field(inputs, "data")?;
            let reg: Regularizer = field(inputs, "regularizer")?;
            let w: Vec<f64> = field(inputs, "w")?;
            let theta: Vec<f64> = field(inputs, "theta")?;
            let obj = Objective { data, reg };
            crate::problem::saddle::validate_objective(f.as_ref(), &obj)?;
            crate::problem::saddle::validate_point(f.as_ref(), &w, &theta)?;
            let g = gap_function(f.as_ref(), &obj, &w, &theta)?;
            Ok(serde_json::to_value(g).expect("serializable"))
        }
        "RegularizedSaddlePoint" => {
            let spec: ProblemSpec = field(params, "problem")?;
            let f = spec.build()?;
            let points: Vec<Vec<f64>> = field(inputs, "dataset")?;
            let s = Dataset::new(points)?;
            if s.point_dim() != f.point_dim() {
                return Err(invalid(
                    "dataset",
                    format!(
                        "points have length {}, expected {}",
                        s.point_dim(),
                        f.point_dim()
                    ),
                ));
            }
            let alg = RegularizedSaddlePoint {
                lambda: field(inputs, "lambda")?,
                anchor_w: field(inputs, "anchor_w")?,
                anchor_theta: field(inputs, "anchor_theta")?,
            };
            let out = alg.run(f.as_ref(), &s, &mut NoiseSource::sample(0))?;
            Ok(json!({"w": out.w, "theta": out.theta}))
        }
        "UniformArgumentStability" => {
            let spec: ProblemSpec = field(params, "problem")?;
            let f = spec.build()?;
            let support: Vec<Vec<f64>> = field(inputs, "support")?;
            let n: usize = field(inputs, "n")?;
            let alg = RegularizedSaddlePoint {
                lambda: field(inputs, "lambda")?,
                anchor_w: field(inputs, "anchor_w")?,
                anchor_theta: field(inputs, "anchor_theta")?,
            };
            alg.validate(f.as_ref())?;
            let rep = uas_over_support(&alg, f.as_ref(), &support, n, &[0])?;
            let l = f.constants(&support).lipschitz;
            Ok(json!({"delta": rep.delta, "lemma2_bound": alg.stability_bound(l, n)}))
        }
        "ModeOfHalvesGaps" => {
            let n: u64 = field(inputs, "n")?;
            let p: f64 = field(inputs, "p")?;
            let s0: f64 = field(inputs, "s0")?;
            if !(0.0..=1.0).contains(&p) {
                return Err(invalid("p", "must be in [0, 1]"));
            }
            if !(-1.0..=1.0).contains(&s0) {
                return Err(invalid("s0", "must be in [−1, 1]"));
            }
            if n < 2 {
                return Err(invalid("n", "must be ≥ 2 (two non-empty halves)"));
            }
            // Exact rationals at the exact binary values of p and s0, rounded once at the end.
            let pr = crate::exact::from_f64_exact(p).expect("finite");
            let sr = crate::exact::from_f64_exact(s0).expect("finite");
            let (strong, weak) = crate::exact::prop13::mode_of_halves_gaps(&pr, n, &sr);
            Ok(json!({
                "strong_gap": crate::exact::to_f64(&strong),
                "weak_gap": crate::exact::to_f64(&weak),
            }))
        }
        other => Err(invalid(
            "type",
            format!("unknown test group type `{other}`"),
        )),
    }
}

/// Correct decimal digits of `x` against the reference `r`: −log10(|x − r|/|r|) (absolute error
/// when r = 0), capped at 17; 17 for identical values.
pub fn lre(x: f64, r: f64) -> f64 {
    if x == r {
        return 17.0;
    }
    if x.is_nan() || r.is_nan() {
        return 0.0;
    }
    let err = if r == 0.0 {
        (x - r).abs()
    } else {
        ((x - r) / r).abs()
    };
    (-err.log10()).clamp(0.0, 17.0)
}

/// Compare a recomputed value with the expected one: the minimum LRE over float leaves (17 when
/// there are none), or an error naming the first structural or exact mismatch.
pub fn compare(path: &str, got: &Value, want: &Value) -> std::result::Result<f64, String> {
    match (got, want) {
        (Value::Number(a), Value::Number(b)) => {
            if a.is_f64() || b.is_f64() {
                Ok(lre(
                    a.as_f64().unwrap_or(f64::NAN),
                    b.as_f64().unwrap_or(f64::NAN),
                ))
            } else if a == b {
                Ok(17.0)
            } else {
                Err(format!("{path}: got {a}, expected {b}"))
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                return Err(format!(
                    "{path}: length {} vs expected {}",
                    a.len(),
                    b.len()
                ));
            }
            let mut m = 17.0f64;
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                m = m.min(compare(&format!("{path}[{i}]"), x, y)?);
            }
            Ok(m)
        }
        (Value::Object(a), Value::Object(b)) => {
            let mut m = 17.0f64;
            for (k, y) in b {
                let x = a
                    .get(k)
                    .ok_or_else(|| format!("{path}.{k}: missing in the recomputation"))?;
                m = m.min(compare(&format!("{path}.{k}"), x, y)?);
            }
            Ok(m)
        }
        (a, b) if a == b => Ok(17.0),
        (a, b) => Err(format!("{path}: got {a}, expected {b}")),
    }
}

/// One test's verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TestVerdict {
    /// The test's id.
    pub tc_id: u64,
    /// Whether it passed.
    pub ok: bool,
    /// LRE reached (valid tests), or the rejection message (invalid tests), or the mismatch.
    pub message: String,
}

/// Check one fixture file: every test recomputed from its inputs.
pub fn check_file(path: &Path) -> Result<Vec<TestVerdict>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io {
        path: path.display().to_string(),
        source: e,
    })?;
    let file: FixtureFile = serde_json::from_str(&text).map_err(|e| Error::Json {
        path: path.display().to_string(),
        msg: e.to_string(),
    })?;
    if file.schema != SCHEMA {
        return Err(invalid(
            "schema",
            format!("is `{}`, expected `{SCHEMA}`", file.schema),
        ));
    }
    let mut verdicts = Vec::new();
    for g in &file.test_groups {
        for t in &g.tests {
            let got = compute(&g.kind, &g.params, &t.inputs);
            let v = match (t.result.as_str(), got) {
                ("valid", Ok(v)) => match compare("expected", &v, &t.expected) {
                    Ok(l) if l >= t.min_lre => TestVerdict {
                        tc_id: t.tc_id,
                        ok: true,
                        message: format!("LRE {l:.1} ≥ {}", t.min_lre),
                    },
                    Ok(l) => TestVerdict {
                        tc_id: t.tc_id,
                        ok: false,
                        message: format!("mismatch: LRE {l:.1} < {}", t.min_lre),
                    },
                    Err(m) => TestVerdict {
                        tc_id: t.tc_id,
                        ok: false,
                        message: format!("mismatch: {m}"),
                    },
                },
                ("valid", Err(e)) => TestVerdict {
                    tc_id: t.tc_id,
                    ok: false,
                    message: format!("valid test rejected: {e}"),
                },
                ("invalid", Err(e)) => TestVerdict {
                    tc_id: t.tc_id,
                    ok: true,
                    message: format!("rejected as required: {e}"),
                },
                ("invalid", Ok(_)) => TestVerdict {
                    tc_id: t.tc_id,
                    ok: false,
                    message: "invalid test was accepted".into(),
                },
                (other, _) => TestVerdict {
                    tc_id: t.tc_id,
                    ok: false,
                    message: format!("unknown result `{other}`"),
                },
            };
            verdicts.push(v);
        }
    }
    Ok(verdicts)
}

struct Builder {
    groups: Vec<TestGroup>,
    next: u64,
}

impl Builder {
    fn new() -> Self {
        Builder {
            groups: vec![],
            next: 1,
        }
    }
    fn group(&mut self, kind: &str, params: Value) {
        self.groups.push(TestGroup {
            kind: kind.into(),
            params,
            tests: vec![],
        });
    }
    fn valid(&mut self, comment: &str, flags: &[&str], inputs: Value, min_lre: f64) -> Result<()> {
        let g = self.groups.last_mut().expect("group first");
        let expected = compute(&g.kind, &g.params, &inputs)?;
        g.tests.push(TestCase {
            tc_id: self.next,
            comment: comment.into(),
            flags: flags.iter().map(|s| s.to_string()).collect(),
            inputs,
            expected,
            result: "valid".into(),
            min_lre,
        });
        self.next += 1;
        Ok(())
    }
    fn invalid(&mut self, comment: &str, flags: &[&str], inputs: Value) -> Result<()> {
        let g = self.groups.last_mut().expect("group first");
        if compute(&g.kind, &g.params, &inputs).is_ok() {
            return Err(invalid(
                "fixtures",
                format!("invalid test `{comment}` was accepted by the computation"),
            ));
        }
        g.tests.push(TestCase {
            tc_id: self.next,
            comment: comment.into(),
            flags: flags.iter().map(|s| s.to_string()).collect(),
            inputs,
            expected: Value::Null,
            result: "invalid".into(),
            min_lre: 0.0,
        });
        self.next += 1;
        Ok(())
    }
    fn finish(self, paper: &str, item: &str, notes: &[(&str, &str)]) -> FixtureFile {
        FixtureFile {
            schema: SCHEMA.into(),
            paper: paper.into(),
            item: item.into(),
            generator: format!("dpsaddle {}", env!("CARGO_PKG_VERSION")),
            number_of_tests: self.groups.iter().map(|g| g.tests.len()).sum(),
            notes: notes
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            test_groups: self.groups,
        }
    }
}

fn lin_ball_spec() -> ProblemSpec {
    ProblemSpec::QuadBilinear {
        domain_w: crate::geometry::Domain::Ball {
            center: vec![0.1, 0.0],
            radius: 1.0,
        },
        domain_theta: crate::geometry::Domain::Ball {
            center: vec![0.0, -0.2],
            radius: 0.5,
        },
        coupling: Some(vec![vec![0.5, -0.25], vec![0.125, 1.0]]),
        alpha: 0.0,
        gamma: 0.0,
        a_map: None,
        b_map: None,
    }
}

fn abs_spec() -> ProblemSpec {
    ProblemSpec::AbsSeparable {
        domain_w: crate::geometry::Domain::Box {
            lo: vec![-1.0, -0.5],
            hi: vec![1.0, 0.5],
        },
        domain_theta: crate::geometry::Domain::Box {
            lo: vec![-0.5, -1.0],
            hi: vec![0.5, 1.0],
        },
        kappa: Some(vec![0.75, -0.5]),
    }
}

fn rng_file() -> Result<FixtureFile> {
    let mut b = Builder::new();
    b.group("RngStream", json!({}));
    for seed in ["0", "42", "18446744073709551615"] {
        for label in ["", "noise/round=3", "batch/step=17"] {
            b.valid(
                &format!("seed {seed}, label {label:?}"),
                &["RngVector"],
                json!({"seed": seed, "label": label, "count": 6}),
                15.0,
            )?;
        }
    }
    b.invalid(
        "seed that is not a u64",
        &["BadInput"],
        json!({"seed": "-1", "label": "x", "count": 1}),
    )?;
    Ok(b.finish("core", "DESIGN Randomness (reference tier)", &[
        ("RngVector", "First draws of a labelled stream; each kind (u64, uniform, normal, index10) from a fresh stream."),
        ("BadInput", "Malformed input that an implementation must reject."),
    ]))
}

fn gap_file() -> Result<FixtureFile> {
    let mut b = Builder::new();
    let pop3 = |atoms: Vec<Vec<f64>>| json!({"points": atoms, "weights": [0.5, 0.25, 0.25]});
    b.group("GapFunction", json!({"problem": ProblemSpec::lin_box(0.5)}));
    let atoms = vec![
        vec![0.6, 0.8],
        vec![-0.6, -0.8],
        vec![5.0 / 13.0, -12.0 / 13.0],
    ];
    for (w, t) in [(0.0, 0.0), (0.3, -0.4), (-0.1, 0.25), (0.2, 0.1)] {
        b.valid(&format!("LIN-box c=1/2 population gap at ({w}, {t})"), &["Population"], json!({"data": pop3(atoms.clone()), "regularizer": Regularizer::none(), "w": [w], "theta": [t]}), 14.0)?;
    }
    let reg = Regularizer::bgm23_eq4(0.5, &[0.1], &[-0.1]);
    b.valid(
        "LIN-box c=1/2 regularized (eq. (4), λ=1/2)",
        &["Regularized"],
        json!({"data": pop3(atoms.clone()), "regularizer": reg, "w": [0.05], "theta": [0.3]}),
        14.0,
    )?;
    b.invalid("w outside W", &["BadInput"], json!({"data": pop3(atoms.clone()), "regularizer": Regularizer::none(), "w": [0.5], "theta": [0.0]}))?;
    b.invalid("weights not summing to 1", &["BadInput"], json!({"data": {"points": atoms.clone(), "weights": [0.5, 0.5, 0.5]}, "regularizer": Regularizer::none(), "w": [0.0], "theta": [0.0]}))?;
    b.group("GapFunction", json!({"problem": lin_ball_spec()}));
    let atoms4 = vec![
        vec![0.3, -0.2, 0.5, 0.1],
        vec![-0.4, 0.6, 0.0, -0.3],
        vec![0.1, 0.1, -0.2, 0.4],
    ];
    for (w, t) in [
        ([0.1, 0.0], [0.0, -0.2]),
        ([0.8, 0.5], [0.3, 0.1]),
        ([-0.5, -0.2], [-0.1, -0.6]),
    ] {
        b.valid("LIN-ball with coupling, population gap", &["Population"], json!({"data": pop3(atoms4.clone()), "regularizer": Regularizer::none(), "w": w, "theta": t}), 13.0)?;
    }
    b.valid("LIN-ball regularized", &["Regularized"], json!({"data": pop3(atoms4.clone()), "regularizer": Regularizer::bgm23_eq4(0.8, &[0.1, 0.0], &[0.0, -0.2]), "w": [0.5, 0.5], "theta": [0.2, -0.3]}), 13.0)?;
    b.invalid("dimension mismatch in w", &["BadInput"], json!({"data": pop3(atoms4), "regularizer": Regularizer::none(), "w": [0.1], "theta": [0.0, 0.0]}))?;
    b.group("GapFunction", json!({"problem": abs_spec()}));
    let atoms_abs = vec![
        vec![0.3, -0.2, 0.1, 0.4],
        vec![-0.5, 0.25, -0.3, -0.6],
        vec![0.9, 0.0, 0.45, 0.2],
    ];
    for (w, t) in [
        ([0.0, 0.0], [0.0, 0.0]),
        ([0.5, -0.5], [0.2, 0.9]),
        ([-1.0, 0.3], [-0.5, -0.1]),
    ] {
        b.valid("non-smooth separable family, population gap", &["Population", "NonSmooth"], json!({"data": pop3(atoms_abs.clone()), "regularizer": Regularizer::none(), "w": w, "theta": t}), 14.0)?;
    }
    b.valid("non-smooth, regularized", &["Regularized", "NonSmooth"], json!({"data": pop3(atoms_abs), "regularizer": Regularizer::bgm23_eq4(1.0, &[0.2, 0.0], &[0.0, 0.1]), "w": [0.4, 0.1], "theta": [-0.3, 0.5]}), 14.0)?;
    b.group("GapFunction", json!({"problem": ProblemSpec::Bgm23Prop13}));
    for (w, t) in [(0.0, 0.0), (1.0, -1.0), (0.5, 0.25)] {
        b.valid("BGM23 Prop 13's f = wθ: Ĝap = |w| + |θ|", &["Population"], json!({"data": {"points": [[1.0], [-1.0]], "weights": [0.5, 0.5]}, "regularizer": Regularizer::none(), "w": [w], "theta": [t]}), 15.0)?;
    }
    Ok(b.finish("BGM23", "gap function (L92), empirical and regularized gaps", &[
        ("Population", "F is the weighted mixture given (a finite-support population or a dataset)."),
        ("Regularized", "Anchored quadratic terms c(‖w − a‖² − ‖θ − b‖²) added, no factor ½ (eq. (4) has c = λ/2)."),
        ("NonSmooth", "The abs_separable family; best responses are weighted-median-type 1-D minimizers."),
        ("BadInput", "Input that must be rejected."),
    ]))
}

fn saddle_file() -> Result<FixtureFile> {
    let mut b = Builder::new();
    b.group(
        "RegularizedSaddlePoint",
        json!({"problem": ProblemSpec::lin_box(0.5)}),
    );
    let ds = json!([
        [0.6, 0.8],
        [0.6, 0.8],
        [-0.6, -0.8],
        [0.3846153846153846, -0.9230769230769231]
    ]);
    for lam in [0.25, 1.0, 4.0] {
        b.valid(
            &format!("LIN-box c=1/2, λ={lam}"),
            &["Certified"],
            json!({"dataset": ds, "lambda": lam, "anchor_w": [0.0], "anchor_theta": [0.1]}),
            6.0,
        )?;
    }
    b.invalid(
        "λ = 0",
        &["BadInput"],
        json!({"dataset": ds, "lambda": 0.0, "anchor_w": [0.0], "anchor_theta": [0.0]}),
    )?;
    b.invalid(
        "λ < 0",
        &["BadInput"],
        json!({"dataset": ds, "lambda": -1.0, "anchor_w": [0.0], "anchor_theta": [0.0]}),
    )?;
    b.invalid(
        "anchor of the wrong length",
        &["BadInput"],
        json!({"dataset": ds, "lambda": 1.0, "anchor_w": [0.0, 0.0], "anchor_theta": [0.0]}),
    )?;
    b.group(
        "RegularizedSaddlePoint",
        json!({"problem": lin_ball_spec()}),
    );
    let ds4 = json!([
        [0.3, -0.2, 0.5, 0.1],
        [-0.4, 0.6, 0.0, -0.3],
        [0.1, 0.1, -0.2, 0.4]
    ]);
    for lam in [0.5, 2.0] {
        b.valid(&format!("LIN-ball with coupling, λ={lam}"), &["Certified"], json!({"dataset": ds4, "lambda": lam, "anchor_w": [0.1, 0.0], "anchor_theta": [0.0, -0.2]}), 6.0)?;
    }
    b.invalid("data points of the wrong length", &["BadInput"], json!({"dataset": [[0.1, 0.2]], "lambda": 1.0, "anchor_w": [0.1, 0.0], "anchor_theta": [0.0, -0.2]}))?;
    b.group("RegularizedSaddlePoint", json!({"problem": abs_spec()}));
    let ds_abs = json!([
        [0.3, -0.2, 0.1, 0.4],
        [-0.5, 0.25, -0.3, -0.6],
        [0.9, 0.0, 0.45, 0.2],
        [0.9, 0.0, 0.45, 0.2]
    ]);
    for lam in [0.5, 3.0] {
        b.valid(&format!("non-smooth separable family, λ={lam}"), &["Certified", "NonSmooth"], json!({"dataset": ds_abs, "lambda": lam, "anchor_w": [0.0, 0.0], "anchor_theta": [0.0, 0.0]}), 6.0)?;
    }
    Ok(b.finish("BGM23", "eq. (4): the regularized saddle point (the algorithm of Lemma 2)", &[
        ("Certified", "Computed by a solver that stops on Ĝap ≤ 1e-12 (relative); by BGM23 Lemma 3 that bounds the distance to the true saddle point by √(2·Ĝap/λ), so minLre is 6."),
        ("NonSmooth", "The abs_separable family."),
        ("BadInput", "Input that must be rejected."),
    ]))
}

fn stability_file() -> Result<FixtureFile> {
    let mut b = Builder::new();
    b.group(
        "UniformArgumentStability",
        json!({"problem": ProblemSpec::lin_box(0.0)}),
    );
    let sup = json!([
        [0.6, 0.8],
        [-0.6, -0.8],
        [0.3846153846153846, -0.9230769230769231]
    ]);
    for (n, lam) in [(2, 1.0), (3, 0.5), (5, 2.0)] {
        b.valid(&format!("LIN-box c=0, n={n}, λ={lam}: max over all datasets on the support"), &["Enumerated"], json!({"support": sup, "n": n, "lambda": lam, "anchor_w": [0.0], "anchor_theta": [0.0]}), 6.0)?;
    }
    b.group(
        "UniformArgumentStability",
        json!({"problem": ProblemSpec::lin_box(0.5)}),
    );
    for (n, lam) in [(2, 1.0), (3, 0.5)] {
        b.valid(&format!("LIN-box c=1/2, n={n}, λ={lam}"), &["Enumerated"], json!({"support": sup, "n": n, "lambda": lam, "anchor_w": [0.0], "anchor_theta": [0.0]}), 6.0)?;
    }
    b.invalid(
        "λ = 0",
        &["BadInput"],
        json!({"support": sup, "n": 2, "lambda": 0.0, "anchor_w": [0.0], "anchor_theta": [0.0]}),
    )?;
    Ok(b.finish("BGM23", "Definition 1 and Lemma 2: measured uniform argument stability", &[
        ("Enumerated", "Maximum over every dataset of size n on the support and every replace-one move (count vectors)."),
        ("BadInput", "Input that must be rejected."),
    ]))
}

fn mode_file() -> Result<FixtureFile> {
    let mut b = Builder::new();
    b.group(
        "ModeOfHalvesGaps",
        json!({"problem": ProblemSpec::Bgm23Prop13}),
    );
    for n in [2usize, 3, 4, 6, 7, 8, 10, 12] {
        for (p, s0) in [(0.5, 0.0), (0.5, 1.0), (0.6, 0.0)] {
            b.valid(
                &format!("mode of each half, n={n}, p={p}, sgn(0)={s0}"),
                &["Enumerated"],
                json!({"n": n, "p": p, "s0": s0}),
                13.0,
            )?;
        }
    }
    b.invalid("n = 1", &["BadInput"], json!({"n": 1, "p": 0.5, "s0": 0.0}))?;
    Ok(b.finish(
        "BGM23",
        "eqs. (2)–(3) on Prop 13's instance: strong and weak gap of the mode algorithm",
        &[
            (
                "Enumerated",
                "Exact rational expectation over both halves' binomial counts at the exact binary value of p, rounded once.",
            ),
            ("BadInput", "Input that must be rejected."),
        ],
    ))
}

/// Every fixture file this crate generates, by path relative to the fixtures directory.
pub fn all_files() -> Result<Vec<(PathBuf, FixtureFile)>> {
    Ok(vec![
        (PathBuf::from("core/rng.json"), rng_file()?),
        (PathBuf::from("bgm23/gap_function.json"), gap_file()?),
        (
            PathBuf::from("bgm23/regularized_saddle_point.json"),
            saddle_file()?,
        ),
        (
            PathBuf::from("bgm23/uniform_argument_stability.json"),
            stability_file()?,
        ),
        (PathBuf::from("bgm23/weak_strong_gap.json"), mode_file()?),
    ])
}

/// Serialize a fixture: pretty JSON (2 spaces), floats in serde_json's shortest round-trip form,
/// a trailing newline.
pub fn to_text(f: &FixtureFile) -> String {
    let mut s = serde_json::to_string_pretty(f).expect("serializable");
    s.push('\n');
    s
}

/// Write every fixture under `dir`, each file written to a temporary name and renamed, so no file
/// is ever half-written. Returns the paths written.
pub fn generate(dir: &Path) -> Result<Vec<PathBuf>> {
    let files = all_files()?;
    let mut written = Vec::new();
    for (rel, f) in files {
        let path = dir.join(&rel);
        crate::report::write_atomic(&path, to_text(&f).as_bytes())?;
        written.push(path);
    }
    Ok(written)
}
