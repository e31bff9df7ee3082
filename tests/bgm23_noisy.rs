//! BGM23 App. C.2 / A.2 / B.1: noisy SGDA with the Thm 21 schedule (Thm 21, Lemma 9, the gradient
//! complexity, the batch-size erratum against Thm 22), one-pass LDP SGDA (Cor 16) and Lemma 17:
//! the registered claims with their negative controls, plus direct tests of the algorithms.

mod common;
use common::run;

#[test]
fn thm21_batch_rule_erratum() {
    let ev = run("bgm23.thm21_batch_rule");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn thm21_holds_and_control_rejected() {
    let ev = run("bgm23.thm21");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn lemma9_holds_and_control_rejected() {
    let ev = run("bgm23.lemma9");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn grad_complexity_band() {
    let ev = run("bgm23.grad_complexity");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn cor16_holds_and_control_rejected() {
    let ev = run("bgm23.cor16");
    assert_eq!(ev.control_status(), "rejected");
}

#[test]
fn lemma17_holds_and_control_rejected() {
    let ev = run("bgm23.lemma17");
    assert_eq!(ev.control_status(), "rejected");
}
