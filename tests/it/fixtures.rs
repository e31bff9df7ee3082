//! Fixtures: regeneration is byte-identical to the committed files; every committed file checks;
//! the independent Python consumer (when python3 is present) agrees.

use dpsaddle::fixtures;
use std::path::Path;

#[test]
fn committed_fixtures_are_exactly_what_generate_writes() {
    for (rel, f) in fixtures::all_files().unwrap() {
        let path = Path::new("fixtures").join(&rel);
        let committed = std::fs::read_to_string(&path).unwrap_or_else(|_| {
            panic!(
                "{} is missing: run `dpsaddle fixtures generate`",
                path.display()
            )
        });
        assert_eq!(
            committed,
            fixtures::to_text(&f),
            "{} differs from a fresh generation",
            path.display()
        );
    }
}

#[test]
fn generate_twice_is_byte_identical() {
    let d = std::env::temp_dir().join(format!("dpsaddle-fixgen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    let a: Vec<_> = fixtures::generate(&d)
        .unwrap()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    let b: Vec<_> = fixtures::generate(&d)
        .unwrap()
        .iter()
        .map(|p| std::fs::read(p).unwrap())
        .collect();
    assert_eq!(a, b);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn every_committed_fixture_checks() {
    for (rel, f) in fixtures::all_files().unwrap() {
        let path = Path::new("fixtures").join(&rel);
        let verdicts = fixtures::check_file(&path).unwrap();
        assert_eq!(verdicts.len(), f.number_of_tests);
        let bad: Vec<_> = verdicts.iter().filter(|v| !v.ok).collect();
        assert!(bad.is_empty(), "{}: {bad:?}", path.display());
        assert!(
            verdicts
                .iter()
                .any(|v| v.message.contains("rejected as required")),
            "{} has no invalid test",
            path.display()
        );
    }
}

#[test]
fn lre_counts_correct_digits() {
    assert_eq!(fixtures::lre(1.0, 1.0), 17.0);
    assert!((fixtures::lre(1.0 + 1e-10, 1.0) - 10.0).abs() < 0.01);
    assert!((fixtures::lre(1e-13, 0.0) - 13.0).abs() < 0.01);
    assert_eq!(fixtures::lre(f64::NAN, 1.0), 0.0);
}

#[test]
fn independent_python_consumer_agrees() {
    let script = Path::new("fixtures/consumer/replay.py");
    if !script.exists() {
        panic!("fixtures/consumer/replay.py is missing");
    }
    match std::process::Command::new("python3")
        .arg(script)
        .arg("fixtures")
        .output()
    {
        Ok(o) => assert!(
            o.status.success(),
            "python consumer failed:\n{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(_) => eprintln!("python3 not available: independent consumer skipped"),
    }
}

#[test]
fn the_rejections_file_is_committed_and_every_malformed_document_is_refused_for_its_reason() {
    let path = Path::new("fixtures").join(fixtures::REJECTIONS_PATH);
    let committed = std::fs::read_to_string(&path).expect("fixtures/core/rejections.json");
    let f = fixtures::rejections_file().unwrap();
    assert_eq!(committed, fixtures::rejections_text(&f));
    let verdicts = fixtures::check_file(&path).unwrap();
    assert_eq!(verdicts.len(), f.tests.len());
    assert!(f.tests.len() >= 11);
    let bad: Vec<_> = verdicts.iter().filter(|v| !v.ok).collect();
    assert!(bad.is_empty(), "{bad:?}");
}

#[test]
fn a_rejection_case_fails_when_refused_for_another_reason_or_accepted() {
    // Point a case at the wrong reason, and replace another case's document by the valid base:
    // the checker of rejections must report both.
    let mut f = fixtures::rejections_file().unwrap();
    f.tests[0].must_reject = "numberOfTests".into();
    let valid = f.tests[4].file.clone();
    let mut fixed = valid.clone();
    fixed["numberOfTests"] = serde_json::json!(1);
    f.tests[1].file = fixed;
    let d = std::env::temp_dir().join(format!("dpsaddle-rej-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("rejections.json");
    std::fs::write(&p, fixtures::rejections_text(&f)).unwrap();
    let v = fixtures::check_file(&p).unwrap();
    assert!(
        !v[0].ok && v[0].message.contains("another reason"),
        "{:?}",
        v[0]
    );
    assert!(!v[1].ok && v[1].message.contains("accepted"), "{:?}", v[1]);
    assert!(v[2..].iter().all(|x| x.ok));
    let _ = std::fs::remove_dir_all(&d);
}
