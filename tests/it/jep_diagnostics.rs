//! Injected mistakes in an old formula (as it stands in a `BONUS:` of an LST line): each is
//! exactly one error, at the right column, with its rendered report under review (one
//! snapshot per `J01xx` code).

use rulebook::diagnostic::{Diagnostic, render};
use rulebook::jep::parse_jep;
use rulebook::source::{SourceFile, SourceMap, TextEncoding};

/// Where the formula starts in the injected line.
const PREFIX: &str = "Injected Ability\tCATEGORY:Special Ability\tBONUS:VAR|Injected|";

/// Parses `formula` placed in an LST line; the diagnostics and their rendered report.
fn check(formula: &str) -> (Vec<Diagnostic>, String) {
    let line = format!("{PREFIX}{formula}\tTYPE:Test\n");
    let mut sources = SourceMap::new();
    let file = sources.add(SourceFile::new("injected.lst", line, TextEncoding::Utf8));
    let out = parse_jep(formula, file, PREFIX.len() as u32);
    let rendered = render(&out.diagnostics, &sources, false);
    (out.diagnostics, rendered)
}

/// Asserts one error of `code` starting at byte `column` of the formula; the report.
fn one_error(formula: &str, code: &str, column: usize) -> String {
    let (ds, rendered) = check(formula);
    assert_eq!(ds.len(), 1, "{formula:?}: {rendered}");
    assert_eq!(ds[0].code.id, code, "{formula:?}: {rendered}");
    assert_eq!(
        ds[0].span.start as usize - PREFIX.len(),
        column,
        "{formula:?}: {rendered}"
    );
    rendered
}

#[test]
fn j0101_unexpected_character() {
    insta::assert_snapshot!("J0101-unexpected-character", one_error("TL#2", "J0101", 2));
    one_error("STR & DEX", "J0101", 4);
}

#[test]
fn j0102_unterminated_string() {
    insta::assert_snapshot!(
        "J0102-unterminated-string",
        one_error("var(\"CL=Fighter)+1", "J0102", 4)
    );
}

#[test]
fn j0103_malformed_number() {
    insta::assert_snapshot!("J0103-malformed-number", one_error("2d6+TL", "J0103", 0));
}

#[test]
fn j0104_missing_operand() {
    insta::assert_snapshot!("J0104-missing-operand", one_error("TL+", "J0104", 3));
    one_error("max(1,)", "J0104", 6);
    one_error("*2", "J0104", 0);
    one_error("", "J0104", 0);
}

#[test]
fn j0105_missing_operator() {
    insta::assert_snapshot!("J0105-missing-operator", one_error("(TL)(2)", "J0105", 4));
    one_error("1 2", "J0105", 2);
}

#[test]
fn j0106_unclosed_paren() {
    insta::assert_snapshot!("J0106-unclosed-paren", one_error("floor(2", "J0106", 5));
    one_error("(TL+1", "J0106", 0);
}

#[test]
fn j0107_unmatched_paren() {
    insta::assert_snapshot!("J0107-unmatched-paren", one_error("TL+2)", "J0107", 4));
}

#[test]
fn j0108_unknown_function() {
    insta::assert_snapshot!("J0108-unknown-function", one_error("foo(1)", "J0108", 0));
    one_error("getvar(\"X\")", "J0108", 0);
}

#[test]
fn j0109_function_case() {
    insta::assert_snapshot!("J0109-function-case", one_error("If(TL>2,1,0)", "J0109", 0));
    one_error("Floor(2.5)", "J0109", 0);
    one_error("TL+ROUND(2.5)", "J0109", 3);
}

#[test]
fn j0110_wrong_arity() {
    insta::assert_snapshot!("J0110-wrong-arity", one_error("if(TL>2,1)", "J0110", 0));
    one_error("floor(1,2)", "J0110", 0);
    one_error("max()", "J0110", 0);
    // PCGen's max takes one argument (its MaxCommand loops over what it gets).
    assert!(check("max(1)").0.is_empty());
}

#[test]
fn j0111_fallback_unsupported() {
    insta::assert_snapshot!(
        "J0111-fallback-unsupported",
        one_error("max(CL=Bard,CL=Wizard)", "J0111", 0)
    );
    one_error("ceil((CL=Horizon Walker)/10)", "J0111", 0);
    one_error("-CL=%LIST", "J0111", 0);
    one_error("CL=Bard>2", "J0111", 7);
}

#[test]
fn j0112_fallback_order() {
    insta::assert_snapshot!(
        "J0112-fallback-order",
        one_error("CL=Bard+TL*2", "J0112", 7)
    );
}

#[test]
fn j0113_too_complex() {
    let deep = format!("{}1{}", "(".repeat(70), ")".repeat(70));
    insta::assert_snapshot!("J0113-too-complex", one_error(&deep, "J0113", 64));
}

#[test]
fn j0114_assignment() {
    insta::assert_snapshot!("J0114-assignment", one_error("TL = 2", "J0114", 3));
}

#[test]
fn the_data_s_usual_forms_have_no_diagnostic() {
    for f in [
        "min(ACAbilityStat, min(MXDXEN,MODEQUIPMAXDEX))",
        "var(\"STAT.3.MOD.NOEQUIP.NOTEMP\")",
        "skillinfo(\"TOTALRANK\", \"Culture\")",
        "CL=Fighter",
        "CL=Blood Archer/3",
        "TL",
        "COUNT[FEATS]",
        "COUNT[FEATNAME=Trace Enchantment III]-1",
        "max(STR,DEX)-STR",
        "%CHOICE",
        "%LIST+0",
        "(CL-1)/2+1",
        "if(var(\"X\")>2,1,0)",
        "CL;BEFORELEVEL=3",
        "-(MOVE[Walk]-5)",
        "var(\"SKILLRANK=Knowledge {Arcana}\")/10",
        "classlevel(\"APPLIEDAS=NONEPIC\")",
        "BloodRage Acid",
        "STR/2+if(STR%2==0,0,1)",
        "-2^2",
        "1e3+.5",
        "IF(TL>=2,FLOOR(TL/2),0)",
        "var(\"SKILL.Craft (Alchemy).MISC\")",
    ] {
        let (ds, rendered) = check(f);
        assert!(ds.is_empty(), "{f:?}: {rendered}");
    }
}

#[test]
fn two_mistakes_in_one_call_are_two_errors() {
    let (ds, rendered) = check("If(");
    let codes: Vec<_> = ds.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, ["J0109", "J0106"], "{rendered}");
}
