//! The one-pass check against parse then check.

use super::*;
use crate::formula::{MapEnv, Value, check, parse_formula};
use proptest::prelude::*;

/// Variables of several formats (and names it does not know: `zz`), some with names of
/// 15, 16 and 25 bytes.
fn env() -> MapEnv {
    let mut env = MapEnv::with_pcgen_defaults();
    let n = |i: i64| Some(Value::Number(Number::Int(i)));
    for (name, i) in [
        ("a", 1),
        ("B", 2),
        ("c3", 3),
        ("Score", 15),
        ("t01", 4),
        ("Fifteen~Letters", 5),
        ("StrengthBonusSix", 6),
        ("AbilityScoreStrengthBonus", 7),
    ] {
        env.define(name, Format::Number, n(i));
    }
    for name in ["flag", "Long"] {
        env.define(name, Format::Boolean, Some(Value::Boolean(true)));
    }
    env.define("s", Format::String, Some(Value::string("x")));
    env
}

/// What parse then check make of `text` (its Debug form), or `None` on any problem.
fn the_usual_way(
    text: &str,
    offset: u32,
    env: &MapEnv,
    asserted: &Format,
    input: Option<&Format>,
) -> Option<String> {
    let parsed = parse_formula(text, FileId(3), offset);
    if !parsed.diagnostics.is_empty() {
        return None;
    }
    let c = check(&parsed.formula?, env, asserted, input).ok()?;
    Some(format!("{c:?}"))
}

fn one_pass(
    text: &str,
    offset: u32,
    env: &MapEnv,
    asserted: &Format,
    input: Option<&Format>,
) -> Option<String> {
    let c = parse_check_plain(text, FileId(3), offset, env, asserted, input)?;
    Some(format!("{c:?}"))
}

#[test]
fn plain_formulas_are_read_in_one_pass_as_parse_then_check_reads_them() {
    let env = env();
    let number = Format::Number;
    for text in [
        "floor((Score-10)/2)",
        "if(Long,20,30)",
        "max(value()-1,1)",
        "t01+a*2-B+c3/2+a*B-t01+a+B*3",
        // Runs of sums and products with literals (odd ones: a literal read wrong shows).
        "a+7*B-15/c3+a*13-B/3*Score+t01",
        "(a-3*B+1)*(c3+5/a-9)+max(a*B-1,7)",
        "Score-1+2-3+4*5*7/9-a*-B+c3/2^a-1",
        "if(a>=5,max(floor((Score-10)/2),0)+a/2,min(a,3))",
        "-(2*3)+-a^2",
        "ABS(-a)+Ceil(B/3)+round(2.5)+MIN(a,B,c3)",
        "if(Long!=flag,1,0)+if(a!=B,1,0)+if((a)==B,1,0)",
        "if(!flag||a<3&&B>2,a/2,a)",
        "007+1.50+0.5*0",
        "999999999+1000000000+4294967295*4294967296-0000000001",
    ] {
        let slow = the_usual_way(text, 7, &env, &number, Some(&number));
        assert!(slow.is_some(), "{text} checks");
        let fast = one_pass(text, 7, &env, &number, Some(&number));
        assert!(fast.is_some(), "{text} is plain");
        assert_eq!(fast, slow, "{text}");
    }
    let boolean = Format::Boolean;
    let text = "(a>3&&!Long)||Score>=18";
    assert_eq!(
        one_pass(text, 0, &env, &boolean, None),
        the_usual_way(text, 0, &env, &boolean, None)
    );
    assert!(one_pass(text, 0, &env, &boolean, None).is_some());
}

#[test]
fn anything_else_is_left_to_the_usual_way() {
    let env = env();
    let number = Format::Number;
    for text in [
        "",
        "zz+1",
        "s",
        "a + 1",
        "\"1\"",
        "length(s)",
        "foo(1)",
        "value()",
        "a>1",
        "flag+1",
        "if(a,1,2)",
        "99999999999999999999999999999999999",
        "((((((((((((((((((a))))))))))))))))))",
        "floor(1,2)",
        "a[1]",
    ] {
        assert_eq!(one_pass(text, 0, &env, &number, None), None, "{text}");
    }
}

/// At the token limit the one-pass check answers; over it, it leaves the formula to
/// the usual way (which reports it as too long). Operands and operators alternate, so
/// the longest formula allowed has `MAX_TOKENS - 1` tokens and the next has one more
/// than the limit.
#[test]
fn the_token_limit_is_the_parsers() {
    let env = env();
    let n = Format::Number;
    let at_limit = format!("{}a", "a+".repeat(MAX_TOKENS / 2 - 1));
    let over = format!("{at_limit}+1");
    assert!(one_pass(&at_limit, 0, &env, &n, None).is_some());
    assert!(one_pass(&over, 0, &env, &n, None).is_none());
    assert!(the_usual_way(&over, 0, &env, &n, None).is_none());
    assert_eq!(
        one_pass(&at_limit, 0, &env, &n, None),
        the_usual_way(&at_limit, 0, &env, &n, None)
    );
}

/// The built-ins are known by their names in any case, and no other name is taken for one.
#[test]
fn built_in_names_are_read_in_any_case_and_no_other() {
    let mut builtins = vec![MAX, MIN, IF, VALUE];
    builtins.extend(NUM_FNS.iter().map(|(w, _)| *w));
    for (name, word) in [
        ("FlOoR", "floor"),
        ("ABS", "abs"),
        ("If", "if"),
        ("VALUE", "value"),
    ] {
        assert_eq!(
            folded_word(name.as_bytes()),
            folded_word(word.as_bytes()),
            "{name}"
        );
        assert!(builtins.contains(&folded_word(name.as_bytes())), "{name}");
    }
    for f in NumFn::ALL {
        assert_eq!(
            num_fn(folded_word(f.name().to_ascii_uppercase().as_bytes())),
            Some(f)
        );
    }
    for name in [
        "floo",
        "floors",
        "flo0r",
        "abs~",
        "ifx",
        "i",
        "Valuex",
        "maxmaxmax",
        "",
    ] {
        let word = folded_word(name.as_bytes());
        assert!(!builtins.contains(&word), "{name}");
    }
    // Distinct built-ins are distinct words.
    for (i, a) in builtins.iter().enumerate() {
        assert!(!builtins[i + 1..].contains(a));
    }
}

/// A formula of the plain language (or near it), from random pieces.
fn formula() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec![
        "a",
        "B",
        "c3",
        "Score",
        "t01",
        "flag",
        "Long",
        "s",
        "zz",
        "0",
        "7",
        "2.5",
        "007",
        ".5",
        "1e3",
        "99999999999999999999999999999",
        "value()",
        "\"3\"",
        "a_b",
        "a[1]",
        "%a",
        "1.",
        "c3~",
        "a:b",
        "x.y",
        "Ab",
    ])
    .prop_map(str::to_owned);
    leaf.prop_recursive(6, 48, 4, |inner| {
        let ops = prop::sample::select(vec![
            "+", "-", "*", "/", "^", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", " + ",
        ]);
        prop_oneof![
            (inner.clone(), ops, inner.clone()).prop_map(|(a, o, b)| format!("{a}{o}{b}")),
            inner.clone().prop_map(|a| format!("({a})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            inner.clone().prop_map(|a| format!("!{a}")),
            (
                prop::sample::select(vec!["floor", "ABS", "ceil", "round", "foo", "length"]),
                inner.clone()
            )
                .prop_map(|(f, a)| format!("{f}({a})")),
            (
                prop::sample::select(vec!["max", "min", "if", "Max", "value"]),
                prop::collection::vec(inner, 0..4)
            )
                .prop_map(|(f, a)| format!("{f}({})", a.join(","))),
        ]
    })
}

/// Of `cases` formulas drawn from `formulas`: how many the one-pass check answers for
/// (asserting that it answers as parse then check does), and how many check.
fn answers(formulas: impl Strategy<Value = String>, cases: usize) -> (usize, usize) {
    use proptest::strategy::ValueTree;
    let env = env();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let (mut answered, mut checked) = (0, 0);
    for _ in 0..cases {
        let Ok(tree) = formulas.new_tree(&mut runner) else {
            continue;
        };
        let text = tree.current();
        let n = Format::Number;
        let slow = the_usual_way(&text, 0, &env, &n, Some(&n));
        checked += usize::from(slow.is_some());
        if let Some(fast) = one_pass(&text, 0, &env, &n, Some(&n)) {
            answered += 1;
            assert_eq!(Some(fast), slow, "{text:?}");
        }
    }
    (answered, checked)
}

/// The property below is not vacuous: on its formulas, the one-pass check answers often
/// (and then as parse then check does).
#[test]
fn onepass_answers_for_many_random_formulas() {
    let (answered, checked) = answers(formula(), 3000);
    assert!(
        answered * 2 > checked,
        "{answered} answered of {checked} checked"
    );
}

/// What these tests call a long formula: over this many bytes.
const LONG: usize = 256;

/// A long formula (beyond [`LONG`]): plain NUMBER pieces, mostly names, joined by
/// operators, with at most one flaw at a random place (a BOOLEAN or unknown name, a call,
/// an array, a space, another operator…), so that both the answers and the refusals are
/// met at every place of a long run.
fn long_formula() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "a",
        "B",
        "c3",
        "Score",
        "t01",
        "a",
        "B",
        "c3",
        "Score",
        "t01",
        "2",
        "17",
        "(a)",
        "a*B",
        "max(a,B)",
        "-a",
        "Fifteen~Letters",
        "StrengthBonusSix",
        "AbilityScoreStrengthBonus",
        "fifteen~letters",
    ]);
    let op = prop::sample::select(vec!["+", "-", "*", "/", "+", "-", "+", "+"]);
    let flaw = prop::sample::select(vec![
        "flag", "zz", "s", "a_b", "a[1]", "Ab", " + ", "+ ", "^", "<", "a(", "(", "",
    ]);
    (
        prop::collection::vec((piece, op), 70..160),
        prop::option::of((any::<prop::sample::Index>(), any::<bool>(), flaw)),
    )
        .prop_map(|(mut items, flaw)| {
            if let Some((at, as_piece, f)) = flaw {
                let i = at.index(items.len());
                if as_piece {
                    items[i].0 = f;
                } else {
                    items[i].1 = f;
                }
            }
            let mut text: String = items.iter().map(|(p, o)| format!("{p}{o}")).collect();
            text.push_str("t01");
            text
        })
}

/// The property below is not vacuous: the one-pass check answers for most long
/// formulas without a flaw.
#[test]
fn onepass_answers_for_many_long_formulas() {
    let (answered, checked) = answers(long_formula(), 500);
    assert!(
        answered * 4 > checked * 3 && checked > 100,
        "{answered} answered of {checked} checked"
    );
}

/// A sum of many distinct NUMBER variables (and a few repeats), in an environment of
/// many: read as parse then check reads it.
#[test]
fn long_sums_are_read_as_parse_then_check_reads_them() {
    let mut env = env();
    for i in 0..3000 {
        env.define(&format!("v{i}"), Format::Number, None);
    }
    let n = Format::Number;
    for (terms, op) in [(3000, "+"), (1000, "-"), (500, "*"), (17, "+"), (9, "/")] {
        let text = (0..terms)
            .map(|i| match i % 10 {
                // Names of 15, 16 and 25 bytes.
                3 => "Fifteen~Letters".to_string(),
                5 => "StrengthBonusSix".to_string(),
                7 => "abilityscorestrengthbonus".to_string(),
                _ => format!("v{}", (i * 7) % 3000),
            })
            .chain(["a", "B", "v0", "StrengthBonusSix"].map(String::from))
            .collect::<Vec<_>>()
            .join(op);
        let text = format!("Score*2+{text}+(a-B)");
        assert!(text.len() > LONG || terms < 20, "{terms}");
        let fast = one_pass(&text, 11, &env, &n, Some(&n));
        assert!(fast.is_some(), "{terms} terms of {op}");
        assert_eq!(fast, the_usual_way(&text, 11, &env, &n, Some(&n)));
    }
}

/// A long run whose variables repeat: within a word of the seen bits (64 handles), across
/// words, and after other words were read. Each is one dependency, in the
/// order first read, as parse then check has them.
#[test]
fn repeats_in_a_long_run_are_one_dependency_each() {
    let mut env = env();
    for i in 0..400 {
        env.define(&format!("w{i}"), Format::Number, None);
    }
    let order: Vec<usize> = (0..300)
        .flat_map(|i| [i, i / 2, (i * 37) % 400, i, 399 - i / 3])
        .collect();
    let text = order
        .iter()
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join("+");
    let n = Format::Number;
    let fast = parse_check_plain(&text, FileId(3), 0, &env, &n, Some(&n));
    let fast = fast.map(|c| format!("{c:?}"));
    assert!(fast.is_some());
    assert_eq!(fast, the_usual_way(&text, 0, &env, &n, Some(&n)));
    let distinct = order.iter().collect::<std::collections::HashSet<_>>().len();
    let c = parse_check_plain(&text, FileId(3), 0, &env, &n, Some(&n));
    assert_eq!(c.map(|c| c.dependencies().len()), Some(distinct));
}

/// Long sums and products, a name of more than 65,535 bytes among them, and `-` and `/`
/// told from `+` and `*`: read as parse then check reads them.
#[test]
fn long_runs_and_long_names_read_as_parse_then_check() {
    let mut env = env();
    let long = "n".repeat(70_000);
    for name in ["v0", "v1", long.as_str()] {
        env.define(name, Format::Number, None);
    }
    let n = Format::Number;
    let sum = ["v0", "v1"].repeat(150).join("+");
    let product = ["v0", "v1"].repeat(150).join("/");
    let diff = ["v0", "v1"].repeat(150).join("-");
    for text in [
        format!("a+{sum}+{long}+v0"),
        format!("a*{product}*v1-({diff}+v1)-v0"),
    ] {
        let fast = one_pass(&text, 5, &env, &n, Some(&n));
        assert!(fast.is_some());
        assert_eq!(fast, the_usual_way(&text, 5, &env, &n, Some(&n)));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Long formulas too: whenever the one-pass check answers, it answers as parse then
    /// check.
    #[test]
    fn long_formulas_match_parse_then_check(text in long_formula(), offset in 0u32..40) {
        let env = env();
        let n = Format::Number;
        prop_assume!(text.len() > LONG);
        if let Some(fast) = one_pass(&text, offset, &env, &n, Some(&n)) {
            let slow = the_usual_way(&text, offset, &env, &n, Some(&n));
            prop_assert_eq!(Some(fast), slow, "{:?}", text);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6000))]

    /// Whenever the one-pass check answers, its compiled formula is the one parse then
    /// check make (spans, dependencies and input use included), for either asserted
    /// format and any input.
    #[test]
    fn onepass_matches_parse_then_check(
        text in formula(),
        offset in 0u32..40,
        boolean in any::<bool>(),
        input in 0u8..3,
    ) {
        let env = env();
        let asserted = if boolean { Format::Boolean } else { Format::Number };
        let input = match input {
            0 => None,
            1 => Some(Format::Number),
            _ => Some(Format::Boolean),
        };
        if let Some(fast) = one_pass(&text, offset, &env, &asserted, input.as_ref()) {
            let slow = the_usual_way(&text, offset, &env, &asserted, input.as_ref());
            prop_assert_eq!(Some(fast), slow, "{:?}", text);
        }
    }
}
