//! Rendered diagnostics (colour off) for every FICS error class, every UnterMUD set-time
//! error, the ICC errors and the shared dialect errors (overflow, nesting), under insta snapshots.

use rulebook::diagnostic::{Diagnostic, render};
use rulebook::dialect::{fics, icc, untermud};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};

fn fics_error(formula: &str) -> (Vec<Diagnostic>, SourceMap) {
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new("formula", formula, TextEncoding::Utf8));
    let diags = fics::MatchFormula::compile(formula, id, &fics::FVars::new()).unwrap_err();
    (diags, map)
}

fn fics_rendered(formula: &str, class: fics::ErrorClass) -> String {
    let (diags, map) = fics_error(formula);
    assert_eq!(diags.len(), 1);
    assert_eq!(fics::ErrorClass::of_code(diags[0].code), Some(class));
    render(&diags, &map, false)
}

#[test]
fn fics_err_eof() {
    insta::assert_snapshot!(fics_rendered("rated & (blitz | ", fics::ErrorClass::Eof));
}

#[test]
fn fics_err_eof_before_comment() {
    insta::assert_snapshot!(fics_rendered("1 + # dangling", fics::ErrorClass::Eof));
}

#[test]
fn fics_err_unary() {
    insta::assert_snapshot!(fics_rendered("--5 < rating", fics::ErrorClass::Unary));
}

#[test]
fn fics_err_badvar_unknown() {
    insta::assert_snapshot!(fics_rendered("ratng > 1500", fics::ErrorClass::BadVar));
}

#[test]
fn fics_err_badvar_maxtime() {
    insta::assert_snapshot!(fics_rendered("maxtime 40 < 600", fics::ErrorClass::BadVar));
}

#[test]
fn fics_err_badvar_fvar_order() {
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new("f4", "f2>400 & f5", TextEncoding::Utf8));
    let mut fvars = fics::FVars::new();
    let diags = fvars
        .set(fics::FVar::new(4).unwrap(), "f2>400 & f5", id)
        .unwrap_err();
    assert_eq!(diags[0].code, fics::ErrorClass::BadVar.code());
    insta::assert_snapshot!(render(&diags, &map, false));
}

#[test]
fn fics_err_badop() {
    insta::assert_snapshot!(fics_rendered("time >= 5 minute", fics::ErrorClass::BadOp));
}

#[test]
fn fics_err_badop_prefix_match() {
    insta::assert_snapshot!(fics_rendered("ratedx & blitz", fics::ErrorClass::BadOp));
}

#[test]
fn fics_err_nonsense() {
    insta::assert_snapshot!(fics_rendered("rating > = 1500", fics::ErrorClass::Nonsense));
}

#[test]
fn fics_err_paren_unclosed() {
    insta::assert_snapshot!(fics_rendered(
        "(blitz | lightning # fast",
        fics::ErrorClass::Paren
    ));
}

#[test]
fn fics_err_paren_unmatched() {
    insta::assert_snapshot!(fics_rendered("blitz) & rated", fics::ErrorClass::Paren));
}

#[test]
fn fics_number_too_large() {
    insta::assert_snapshot!(fics_rendered(
        "rating < 99999999999",
        fics::ErrorClass::NumberTooLarge
    ));
}

#[test]
fn fics_division_by_zero_notice() {
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new(
        "formula",
        "rating / (inc - inc) > 1",
        TextEncoding::Utf8,
    ));
    let f =
        fics::MatchFormula::compile("rating / (inc - inc) > 1", id, &fics::FVars::new()).unwrap();
    let ev = f.evaluate(&fics::MatchRequest::default()).unwrap();
    insta::assert_snapshot!(render(&ev.notices(), &map, false));
}

fn world() -> untermud::World {
    serde_json::from_str(
        r#"{"mud": "DEEPMUD", "objects": {
            "0": {"name": "Lobby", "kind": "room", "location": null},
            "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"},
            "21@DEEPMUD": {"name": "frisbee", "kind": "thing", "location": "0"},
            "22@DEEPMUD": {"name": "testbozo", "kind": "player", "location": "0"},
            "23@DEEPMUD": {"name": "bat", "kind": "thing", "location": "0"},
            "24@DEEPMUD": {"name": "bat", "kind": "thing", "location": "wizard"}}}"#,
    )
    .unwrap()
}

fn lock_rendered(lock: &str, code: &str) -> String {
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new("lock", lock, TextEncoding::Utf8));
    let diags = untermud::Lock::compile(lock, id, &world()).unwrap_err();
    assert!(diags.iter().any(|d| d.code.id == code), "{diags:?}");
    render(&diags, &map, false)
}

#[test]
fn untermud_missing_operand() {
    insta::assert_snapshot!(lock_rendered("testbozo & ", "D0140"));
}

#[test]
fn untermud_empty_parentheses() {
    insta::assert_snapshot!(lock_rendered("frisbee | ()", "D0140"));
}

#[test]
fn untermud_unterminated_quote() {
    insta::assert_snapshot!(lock_rendered("\"gold key | frisbee", "D0141"));
}

#[test]
fn untermud_missing_operator() {
    insta::assert_snapshot!(lock_rendered("gold key", "D0142"));
}

#[test]
fn untermud_unbalanced_parenthesis() {
    insta::assert_snapshot!(lock_rendered("(testbozo | UnterWiz", "D0143"));
}

#[test]
fn untermud_unknown_objects_are_all_reported() {
    insta::assert_snapshot!(lock_rendered("frisbe | testbozo & 99@DEEPMUD", "D0144"));
}

#[test]
fn untermud_remote_object() {
    insta::assert_snapshot!(lock_rendered("7@OTHERMUD", "D0145"));
}

#[test]
fn untermud_ambiguous_name() {
    insta::assert_snapshot!(lock_rendered("UnterWiz & bat", "D0146"));
}

#[test]
fn icc_not_an_icc_operator() {
    let mut map = SourceMap::new();
    let text = "rating == 1500 && blitz";
    let id = map.add(SourceFile::new("formula", text, TextEncoding::Utf8));
    let diags = icc::IccFormula::compile(text, id).unwrap_err();
    assert_eq!(diags.len(), 2);
    insta::assert_snapshot!(render(&diags, &map, false));
}

#[test]
fn constant_comparison_warning() {
    let mut map = SourceMap::new();
    let text = "rated = 2 | blitz < 5 | time = 2";
    let id = map.add(SourceFile::new("formula", text, TextEncoding::Utf8));
    let f = fics::MatchFormula::compile(text, id, &fics::FVars::new()).unwrap();
    assert_eq!(f.warnings().len(), 2);
    insta::assert_snapshot!(render(f.warnings(), &map, false));
}

/// An ICC formula that fails to compile with exactly `code`, rendered.
fn icc_rendered(text: &str, code: &str) -> String {
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new("formula", text, TextEncoding::Utf8));
    let diags = icc::IccFormula::compile(text, id).unwrap_err();
    assert!(
        diags.iter().all(|d| d.code.id == code),
        "{:?}",
        diags.iter().map(|d| d.code.id).collect::<Vec<_>>()
    );
    render(&diags, &map, false)
}

#[test]
fn icc_syntax() {
    insta::assert_snapshot!(icc_rendered("rating > ", "D0120"));
}

#[test]
fn icc_unknown_term() {
    insta::assert_snapshot!(icc_rendered("ratng > 1700", "D0121"));
}

#[test]
fn icc_number_too_large() {
    insta::assert_snapshot!(icc_rendered("lag < 99999999999", "D0123"));
}

#[test]
fn dialect_overflow_at_evaluation() {
    let text = "time * time > 0";
    let mut map = SourceMap::new();
    let id = map.add(SourceFile::new("formula", text, TextEncoding::Utf8));
    let f = fics::MatchFormula::compile(text, id, &fics::FVars::new()).unwrap();
    let request = fics::MatchRequest {
        time: 2_000_000,
        ..fics::MatchRequest::default()
    };
    let err = f.evaluate(&request).unwrap_err();
    assert_eq!(err.code.id, "D0190");
    insta::assert_snapshot!(render(&[*err], &map, false));
}

#[test]
fn dialect_too_deep() {
    let text = format!("{}1{}", "(".repeat(300), ")".repeat(300));
    let (diags, map) = fics_error(&text);
    assert!(diags.iter().any(|d| d.code.id == "D0192"));
    insta::assert_snapshot!(render(&diags, &map, false));
}
