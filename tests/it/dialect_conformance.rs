//! Every public dialect vector (`../shared/conformance/dialects/`) through the conformance
//! runner: FICS, ICC and UnterMUD must all pass.

use std::path::PathBuf;

fn run(name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/conformance/dialects")
        .join(format!("{name}.json"));
    if !path.exists() {
        eprintln!("skipped: {} is missing", path.display());
        return;
    }
    let outcomes = rulebook::conformance::run_file(&path).unwrap();
    for o in &outcomes {
        if let Err(why) = &o.result {
            println!("FAIL {}: {why}", o.id);
        }
    }
    let (passed, failed) = rulebook::conformance::tally(&outcomes);
    println!("{name}: {passed} passed, {failed} failed");
    assert!(passed > 0, "{name}: no vectors ran");
    assert_eq!(failed, 0, "{name}: {failed} vectors failed");
}

#[test]
fn fics_vectors_pass() {
    run("fics");
}

#[test]
fn icc_vectors_pass() {
    run("icc");
}

#[test]
fn untermud_vectors_pass() {
    run("untermud");
}
