//! Rendered reports (colour off) of every formula syntax diagnostic, as insta snapshots.
//! Each case also asserts that its code is among the diagnostics, so a snapshot cannot
//! silently turn into a different error.

use rulebook::diagnostic::render;
use rulebook::formula::parse::codes;
use rulebook::formula::parse_formula;
use rulebook::source::{SourceFile, SourceMap, TextEncoding};

/// Parses each formula (as the value of a MODIFY token, to show spans are placed inside
/// the line), checks that `code` is reported, and returns every rendered report.
fn reports(code: rulebook::diagnostic::Code, formulas: &[&str]) -> String {
    let mut out = String::new();
    for formula in formulas {
        let prefix = "MODIFY:Foo|ADD|";
        let mut map = SourceMap::new();
        let file = map.add(SourceFile::new(
            "data/class.lst",
            format!("{prefix}{formula}"),
            TextEncoding::Utf8,
        ));
        let parsed = parse_formula(formula, file, prefix.len() as u32);
        assert!(
            parsed.diagnostics.iter().any(|d| d.code == code),
            "{formula:?} should report {}: {:?}",
            code.id,
            parsed.diagnostics
        );
        out.push_str(&format!("── {formula:?}\n"));
        out.push_str(&render(&parsed.diagnostics, &map, false));
    }
    out
}

macro_rules! case {
    ($test:ident, $code:ident, [$($f:expr),+ $(,)?]) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!(reports(codes::$code, &[$($f),+]));
        }
    };
}

case!(
    p0101_unexpected_character,
    UNEXPECTED_CHARACTER,
    ["@", "a;b", "$a", "'x'"]
);
case!(
    p0102_misplaced_space,
    MISPLACED_SPACE,
    [" 1", "1 ", "1 2", " "]
);
case!(p0103_tab_or_line_break, BAD_WHITESPACE, ["1\t+2", "1+\n2"]);
case!(
    p0104_malformed_number,
    MALFORMED_NUMBER,
    ["1.", "1e5", "0x1F", "1.2.3", "1a", ".a"]
);
case!(
    p0105_unterminated_string,
    UNTERMINATED_STRING,
    ["\"abc", "f(\"a)"]
);
case!(p0106_invalid_escape, INVALID_ESCAPE, ["\"a\\qb\""]);
case!(p0107_invalid_name, INVALID_NAME, ["a_", "a.+1", "a:"]);
case!(
    p0108_unknown_operator,
    UNKNOWN_OPERATOR,
    ["a&b", "a|b", "a=>b", "a<>b", "a=b=c"]
);
case!(p0109_equals_in_name, EQUALS_IN_NAME, ["a = b"]);
case!(
    p0110_missing_operand,
    MISSING_OPERAND,
    ["2+", "==3", "1-*2", "()", "f(1,)", "f(,1)"]
);
case!(p0111_missing_operator, MISSING_OPERATOR, ["\"a\"b", "a!b"]);
case!(p0112_double_unary, DOUBLE_UNARY, ["--3", "!!a", "!-a"]);
case!(p0113_unary_after_power, UNARY_AFTER_POWER, ["2^-1", "a^!b"]);
case!(p0114_unary_plus, UNARY_PLUS, ["+1", "1-+2"]);
case!(
    p0115_unclosed_delimiter,
    UNCLOSED_DELIMITER,
    ["(1", "f(1", "x[1"]
);
case!(p0116_unmatched_closing, UNMATCHED_CLOSING, ["1)", "(1]"]);
case!(
    p0117_comma_outside_call,
    COMMA_OUTSIDE_CALL,
    ["1,2", "1,000", "(5,5)", "x[1,2]"]
);
case!(
    p0118_call_on_non_name,
    CALL_ON_NON_NAME,
    ["f(1)(2)", "x[1][2]", "(f)(1)", "1(2)"]
);
case!(p0119_comparison_in_index, COMPARISON_IN_INDEX, ["x[a<b]"]);
case!(p0120_empty_index, EMPTY_INDEX, ["f[]"]);
case!(p0121_spaced_percent_prefix, SPACED_PERCENT_PREFIX, ["% a"]);
case!(p0122_unexpected_token, UNEXPECTED_TOKEN, ["[1]"]);

/// The rendered report as the user sees it, with the middle of the source line (20 kB) and
/// of its underline elided.
#[test]
fn p0123_formula_too_long() {
    let prefix = "MODIFY:Foo|ADD|";
    let formula = format!("{}1", "1+".repeat(10_001));
    let mut map = SourceMap::new();
    let file = map.add(SourceFile::new(
        "data/class.lst",
        format!("{prefix}{formula}"),
        TextEncoding::Utf8,
    ));
    let out = parse_formula(&formula, file, prefix.len() as u32);
    assert_eq!(out.diagnostics.len(), 1);
    let d = &out.diagnostics[0];
    assert_eq!(d.code, codes::FORMULA_TOO_LONG);
    let rendered: Vec<String> = render(&out.diagnostics, &map, false)
        .lines()
        .map(|l| {
            let chars = l.chars().count();
            if chars > 200 {
                let head: String = l.chars().take(30).collect();
                let tail: String = l.chars().skip(chars - 60).collect();
                format!("{head}<{} characters>{tail}", chars - 90)
            } else {
                l.to_owned()
            }
        })
        .collect();
    insta::assert_snapshot!(rendered.join("\n"));
}

/// Recovery: independent problems in one formula are all reported.
#[test]
fn several_problems_in_one_formula() {
    insta::assert_snapshot!(reports(
        codes::MISSING_OPERAND,
        &["f(1,) + g(--2) + \"a\\qb\" + 1.", "(1+) * x[] + @"]
    ));
}

/// Every code in `codes::ALL` has a snapshot case above.
#[test]
fn every_code_has_a_case() {
    let source = include_str!("formula_parse_errors.rs");
    for code in codes::ALL {
        let test_name = format!("p{}_", &code.id[1..]);
        assert!(
            source.contains(&test_name),
            "no snapshot case for {}",
            code.id
        );
    }
}
