//! `rulebook dialect …` end to end: output, exit codes and rendered errors.

use crate::support::rulebook;

fn context(name: &str, json: &str) -> String {
    let path = std::env::temp_dir().join(format!(
        "rulebook-dialect-{}-{name}.json",
        std::process::id()
    ));
    std::fs::write(&path, json).unwrap();
    path.display().to_string()
}

#[test]
fn fics_prints_value_and_decision() {
    let ctx = context(
        "fics",
        r#"{"time": 5, "inc": 0, "mytime": 5, "myinc": 0, "rated": 1,
            "rating": {"blitz": 1600}, "myrating": {"blitz": 1550},
            "f": {"f1": "rated & time=5", "f2": "ratingdiff > 100"}}"#,
    );
    let (code, out, _) = rulebook(&["dialect", "fics", "f1 & blitz & 3/0 > 1", "--context", &ctx]);
    assert_eq!(code, 0);
    assert_eq!(out, "value: 1\naccepted: yes\n");
    let (code, out, _) = rulebook(&["dialect", "fics", "f1 & f2", "--context", &ctx]);
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "value: 0\naccepted: no\nf1=1: rated & time=5\nf2=0: ratingdiff > 100\n"
    );
}

#[test]
fn fics_error_is_a_report_and_exit_1() {
    let (code, out, err) = rulebook(&["dialect", "fics", "rated & (blitz |"]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.contains("[D0101]") && err.contains("ERR_EOF"), "{err}");
}

#[test]
fn icc_prints_typed_value() {
    let ctx = context("icc", r#"{"time": 5, "rating": 1600, "myrating": 1550}"#);
    let (code, out, _) = rulebook(&["dialect", "icc", "rating - myrating", "--context", &ctx]);
    assert_eq!((code, out.as_str()), (0, "value: 50\naccepted: yes\n"));
    let (_, out, _) = rulebook(&["dialect", "icc", "bullet", "--context", &ctx]);
    assert_eq!(out, "value: false\naccepted: no\n");
}

#[test]
fn untermud_rewrites_and_evaluates() {
    let ctx = context(
        "um",
        r#"{"actor": "wizard", "world": {"mud": "DEEPMUD", "objects": {
            "0": {"name": "Lobby", "kind": "room", "location": null},
            "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"},
            "21@DEEPMUD": {"name": "frisbee", "kind": "thing", "location": "wizard"}}}}"#,
    );
    let (code, out, _) = rulebook(&[
        "dialect",
        "untermud",
        "UnterWiz & !frisbee",
        "--context",
        &ctx,
    ]);
    assert_eq!(
        (code, out.as_str()),
        (0, "stored: wizard&!21@DEEPMUD\nwizard: false\n")
    );
    let (code, _, err) = rulebook(&["dialect", "untermud", "nobody", "--context", &ctx]);
    assert_eq!(code, 1);
    assert!(err.contains("[D0144]"), "{err}");
    let (code, _, _) = rulebook(&["dialect", "untermud", "T"]);
    assert_eq!(code, 2);
}
