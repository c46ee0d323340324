//! Properties of `parse_jep` on any input: it never panics and its spans stay inside the
//! formula; a formula printed again (`print::to_text`) parses back to the same tree.

use proptest::prelude::*;
use rulebook::jep::print::{to_sexpr, to_text};
use rulebook::jep::{BinaryOp, parse_jep};
use rulebook::source::FileId;

/// Formula-like text: the characters formulas are made of, often misplaced.
fn formula_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-zA-Z0-9 +\\-*/^%()!=<>&|,\"\\[\\]:;.{}'#_$é\t]{0,48}")
        .unwrap()
}

/// Well-formed formulas, printed by hand.
fn formula() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        (0u32..1000).prop_map(|n| n.to_string()),
        Just("1.5".to_owned()),
        Just(".5".to_owned()),
        prop::sample::select(vec![
            "TL",
            "CL",
            "STR",
            "ClericLVL",
            "STAT.3.MOD",
            "CL=Fighter",
            "COUNT[FEATS]",
            "SKILLRANK=Spot",
            "%CHOICE",
            "%LIST",
            "\"a\"",
            "var(\"CL=Bard\")",
        ])
        .prop_map(str::to_owned),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(BinaryOp::ALL.to_vec()),
                inner.clone()
            )
                .prop_map(|(l, op, r)| format!("{l}{}{r}", op.symbol())),
            inner.clone().prop_map(|x| format!("({x})")),
            inner.clone().prop_map(|x| format!("-{x}")),
            inner.clone().prop_map(|x| format!("!{x}")),
            (
                prop::sample::select(vec!["max", "min", "floor", "IF"]),
                prop::collection::vec(inner, 1..4)
            )
                .prop_map(|(f, args)| format!("{f}({})", args.join(","))),
        ]
    })
}

fn spans_inside(text: &str, offset: u32) {
    let out = parse_jep(text, FileId(1), offset);
    let end = offset as usize + text.len();
    for d in &out.diagnostics {
        assert!(
            d.span.start >= offset && d.span.end as usize <= end,
            "{text:?}: {d:?}"
        );
    }
    for n in &out.formula.names {
        assert!(
            n.span.start >= offset && n.span.end as usize <= end,
            "{text:?}: {n:?}"
        );
    }
    for node in &out.formula.nodes {
        assert!(
            node.span.start >= offset && node.span.end as usize <= end,
            "{text:?}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_and_spans_stay_inside(text in formula_like(), offset in 0u32..1000) {
        spans_inside(&text, offset);
    }

    #[test]
    fn never_panics_on_any_text(text in any::<String>()) {
        spans_inside(&text, 7);
    }

    #[test]
    fn printing_and_parsing_again_gives_the_same_tree(text in formula()) {
        let first = parse_jep(&text, FileId(0), 0);
        prop_assume!(!first.has_errors());
        let printed = to_text(&first.formula);
        let again = parse_jep(&printed, FileId(0), 0);
        prop_assert!(!again.has_errors(), "{text:?} printed {printed:?}: {:?}", again.diagnostics);
        prop_assert_eq!(to_sexpr(&first.formula), to_sexpr(&again.formula), "{:?} printed {:?}", text, printed);
    }
}

#[test]
fn deep_and_long_inputs_are_refused_not_overflowed() {
    for text in [
        "(".repeat(100_000),
        "-".repeat(100_000) + "1",
        "!".repeat(100_000) + "1",
        "1^".repeat(50_000) + "1",
        "1+".repeat(50_000) + "1",
        "max(".repeat(10_000),
        "\"".repeat(10_001),
        "[".repeat(10_000),
    ] {
        let out = parse_jep(&text, FileId(0), 0);
        assert!(out.has_errors());
    }
}

/// Inputs the `parse_jep` fuzz target found.
#[test]
fn fuzzer_findings_round_trip() {
    let findings = ["2".to_owned() + &"%".repeat(140) + "\n"];
    for text in &findings {
        let first = parse_jep(text, FileId(0), 0);
        assert!(!first.has_errors(), "{:?}", first.diagnostics);
        let printed = to_text(&first.formula);
        let again = parse_jep(&printed, FileId(0), 0);
        assert!(!again.has_errors(), "{printed:?}: {:?}", again.diagnostics);
        assert_eq!(to_sexpr(&first.formula), to_sexpr(&again.formula));
    }
}
