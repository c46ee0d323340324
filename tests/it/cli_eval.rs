//! `rulebook eval …` end to end: values, exit codes and rendered reports.

use crate::support::rulebook;

#[test]
fn prints_the_value() {
    let (code, out, _) = rulebook(&["eval", "floor((Score-10)/2)", "--var", "Score:NUMBER=15"]);
    assert_eq!((code, out.as_str()), (0, "2\n"));
    let (code, out, _) = rulebook(&["eval", "7/2"]);
    assert_eq!((code, out.as_str()), (0, "3.5\n"));
    let (code, out, _) = rulebook(&["eval", "max(value()-1,1)", "--input", "NUMBER=5"]);
    assert_eq!((code, out.as_str()), (0, "4\n"));
    let (code, out, _) = rulebook(&[
        "eval",
        "if(Long,s+\"!\",\"no\")",
        "--as",
        "STRING",
        "--var",
        "Long:BOOLEAN=true",
        "--var",
        "s:STRING=Hi",
    ]);
    assert_eq!((code, out.as_str()), (0, "Hi!\n"));
}

#[test]
fn reports_problems_with_exit_code_1() {
    let (code, out, err) = rulebook(&["eval", "Scroe+flor(1)", "--var", "Score:NUMBER=15"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.contains("[F0101]") && err.contains("did you mean `Score`?"),
        "{err}"
    );
    assert!(
        err.contains("[F0102]") && err.contains("did you mean `floor`?"),
        "{err}"
    );
    let (code, _, err) = rulebook(&["eval", "1/0"]);
    assert_eq!(code, 1);
    assert!(err.contains("[E0101]"), "{err}");
    let (code, _, err) = rulebook(&["eval", "1+"]);
    assert_eq!(code, 1);
    assert!(err.contains("[P"), "{err}");
}

#[test]
fn bad_command_lines_exit_with_2() {
    let (code, _, err) = rulebook(&["eval", "x", "--var", "x=1"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = rulebook(&["eval", "x", "--var", "x:NUMBER=abc"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = rulebook(&["eval", "1", "--as", "ARRAY[NUMBER"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_dataset_lends_its_variables_tables_and_functions() {
    let pcc = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/handsworld/handsworld.pcc"
    );
    let (code, out, err) =
        rulebook(&["eval", "lookup(\"Encumbrance\",14,\"Light\")", "--pcc", pcc]);
    assert_eq!((code, out.as_str()), (0, "58\n"), "{err}");
    let (code, _, err) = rulebook(&["eval", "Hnads*2", "--pcc", pcc]);
    assert_eq!(code, 1);
    assert!(err.contains("did you mean `Hands`?"), "{err}");
    let (code, _, err) = rulebook(&["eval", "1", "--pcc", pcc, "--var", "x:NUMBER=1"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn failures_hint_at_the_format_or_at_var() {
    let (code, _, err) = rulebook(&["eval", "Hands>2", "--var", "Hands:NUMBER=4"]);
    assert_eq!(code, 1);
    assert!(
        err.contains(
            "hint: the result is a BOOLEAN, not a NUMBER (the default): give --as BOOLEAN"
        ),
        "{err}"
    );
    // An explicit --as is the user's choice: no hint.
    let (_, _, err) = rulebook(&[
        "eval",
        "Hands>2",
        "--as",
        "NUMBER",
        "--var",
        "Hands:NUMBER=4",
    ]);
    assert!(!err.contains("hint"), "{err}");
    let (code, _, err) = rulebook(&["eval", "Score+1"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("hint: give `Score` a value with --var 'Score:NUMBER=…'"),
        "{err}"
    );
}
