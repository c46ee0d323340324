//! The tree `parse_jep` builds, as S-expressions: JEP 2.4.1's precedence and associativity
//! (each expected tree is what JEP itself builds for the formula), names and terms with
//! their spans, and the evaluator PCGen uses.

use rulebook::jep::print::to_sexpr;
use rulebook::jep::{Evaluator, NameKind, NameOrigin, parse_jep};
use rulebook::source::FileId;

fn check(text: &str, expect: &str) {
    let out = parse_jep(text, FileId(0), 0);
    assert!(!out.has_errors(), "{text:?}: {:?}", out.diagnostics);
    assert_eq!(to_sexpr(&out.formula), expect, "{text:?}");
}

#[test]
fn precedence_and_associativity_are_jep_s() {
    check("-2^2", "(- (^ 2 2))");
    check("2^3^2", "(^ 2 (^ 3 2))");
    check("2^-1", "(^ 2 (- 1))");
    check("!1+1", "(+ (! 1) 1)");
    check("1<2==1", "(== (< 1 2) 1)");
    check("1==2<3", "(== 1 (< 2 3))");
    check("a||b&&c", "(|| $a (&& $b $c))");
    check("a&&b||c", "(|| (&& $a $b) $c)");
    check("a==b==c", "(== (== $a $b) $c)");
    check("-a*b", "(* (- $a) $b)");
    check("a^b*c", "(* (^ $a $b) $c)");
    check("-a^b^c", "(- (^ $a (^ $b $c)))");
    check("!a==b", "(== (! $a) $b)");
    check("a % b", "(% $a $b)");
    check("(CL-1)/2+1", "(+ (/ (- @CL 1) 2) 1)");
    check("if(var(\"X\")>2,1,0)", "(if (> (var \"X\") 2) 1 0)");
    check("max(STR,DEX)-STR", "(- (max $STR $DEX) $STR)");
    check("%CHOICE*2", "(* %CHOICE 2)");
    check("STR%2", "(% $STR 2)");
}

#[test]
fn names_and_terms_come_with_spans() {
    let out = parse_jep("var(\"SKILLRANK=Spot\")+ClericLVL*TL", FileId(3), 100);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    let names: Vec<_> = out
        .formula
        .names
        .iter()
        .map(|n| {
            (
                &*n.text,
                n.span.start - 100,
                matches!(n.kind, NameKind::Term(_)),
                n.origin,
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("SKILLRANK=Spot", 5, true, NameOrigin::VarString),
            ("ClericLVL", 22, false, NameOrigin::Formula),
            ("TL", 32, true, NameOrigin::Formula),
        ]
    );
    assert_eq!(out.formula.evaluator, Evaluator::Jep);
    let vars: Vec<_> = out.formula.variables().map(|n| &*n.text).collect();
    assert_eq!(vars, ["ClericLVL"]);

    // The fallback parser upper-cases names before it looks them up: `cl=Bard` is a term
    // (and `ClericLVL`, which PCGen would read as `CL` of class `ERICLVL` were it not
    // defined, a variable).
    let out = parse_jep("(cl=Bard/2)+ClericLVL", FileId(0), 0);
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    assert_eq!(out.formula.evaluator, Evaluator::Fallback);
    assert_eq!(
        out.formula.terms().map(|n| &*n.text).collect::<Vec<_>>(),
        ["cl=Bard"]
    );
    // ... and cannot call functions, `var` included.
    assert!(parse_jep("(CL=Bard/2)+var(\"TL\")", FileId(0), 0).has_errors());
}

#[test]
fn stats_are_recognised_once_the_game_mode_s_are_known() {
    let mut out = parse_jep("max(STR,DEXSCORE)-STRENGTH+CON.BASE", FileId(0), 0);
    assert_eq!(
        to_sexpr(&out.formula),
        "(+ (- (max $STR $DEXSCORE) $STRENGTH) $CON.BASE)"
    );
    out.formula.classify_stats(&["STR", "DEX", "CON"]);
    assert_eq!(
        to_sexpr(&out.formula),
        "(+ (- (max @STR @DEXSCORE) $STRENGTH) @CON.BASE)"
    );
    let vars: Vec<_> = out.formula.variables().map(|n| &*n.text).collect();
    assert_eq!(vars, ["STRENGTH"]);
}

#[test]
fn a_var_string_is_a_formula_when_it_parses_else_one_name() {
    let names = |text: &str| -> Vec<String> {
        let out = parse_jep(text, FileId(0), 0);
        assert!(!out.has_errors(), "{text:?}: {:?}", out.diagnostics);
        out.formula
            .names
            .iter()
            .map(|n| n.text.to_string())
            .collect()
    };
    assert_eq!(names("var(\"TL+1\")"), ["TL"]);
    assert_eq!(names("var(\"CL=Rogue\")"), ["CL=Rogue"]);
    assert_eq!(
        names("var(\"SKILL.Craft (Alchemy).MISC\")"),
        ["SKILL.Craft (Alchemy).MISC"]
    );
}

#[test]
fn jep_formulas_and_fallback_formulas_are_told_apart() {
    assert_eq!(
        parse_jep("TL/2", FileId(0), 0).formula.evaluator,
        Evaluator::Jep
    );
    assert_eq!(
        parse_jep("var(\"CL=Fighter\")", FileId(0), 0)
            .formula
            .evaluator,
        Evaluator::Jep
    );
    for f in [
        "CL=Fighter",
        "COUNT[FEATS]+1",
        "BloodRage Acid",
        "HASFEAT:Power Attack",
    ] {
        assert_eq!(
            parse_jep(f, FileId(0), 0).formula.evaluator,
            Evaluator::Fallback,
            "{f}"
        );
    }
}
