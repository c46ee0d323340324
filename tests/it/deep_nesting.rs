//! Pathological nesting in untrusted input ends in a diagnostic, never in a stack overflow:
//! dialect formulas and locks with 100,000 parentheses, unary operators or chained binary
//! operators, a 10,000-deep `PCC:` include chain, and deeply bracketed LST token values.
//! Each case runs on a test thread (2 MiB stack), smaller than the CLI's main thread.

use rulebook::check::check_load_set;
use rulebook::dialect::core::{MAX_DEPTH, TOO_DEEP};
use rulebook::dialect::{fics, icc, untermud};
use rulebook::load::codes::INCLUDE_TOO_DEEP;
use rulebook::load::loadset::MAX_INCLUDE_DEPTH;
use rulebook::load::{MemoryFs, PcgenRoot, load};
use rulebook::source::FileId;
use std::path::{Path, PathBuf};

const N: usize = 100_000;

fn world() -> untermud::World {
    serde_json::from_str(
        r#"{"mud": "DEEPMUD", "objects": {
            "0": {"name": "Lobby", "kind": "room", "location": null},
            "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"}}}"#,
    )
    .unwrap()
}

/// `open` N times, `atom`, `close` N times.
fn nested(open: &str, atom: &str, close: &str, n: usize) -> String {
    format!("{}{atom}{}", open.repeat(n), close.repeat(n))
}

/// `atom op atom op … atom` with `n` operators.
fn chain(atom: &str, op: &str, n: usize) -> String {
    let mut s = String::from(atom);
    for _ in 0..n {
        s.push_str(op);
        s.push_str(atom);
    }
    s
}

fn fics_codes(text: &str) -> Vec<&'static str> {
    match fics::MatchFormula::compile(text, FileId(0), &fics::FVars::new()) {
        Ok(_) => Vec::new(),
        Err(ds) => ds.iter().map(|d| d.code.id).collect(),
    }
}

#[test]
fn fics_deep_input_is_a_diagnostic() {
    for text in [
        nested("(", "1", ")", N),
        nested("(", "1", "", N),
        nested("- !", "1", "", N),
        chain("1", "+", N),
        chain("rated", "|", N),
        nested("(1+", "1", ")", N),
    ] {
        assert_eq!(fics_codes(&text), [TOO_DEEP.id], "{}", &text[..20]);
    }
    // Just inside the limit still compiles and evaluates.
    let ok = nested("(", "1", ")", MAX_DEPTH as usize - 2);
    let f = fics::MatchFormula::compile(&ok, FileId(0), &fics::FVars::new()).unwrap();
    assert_eq!(f.evaluate(&fics::MatchRequest::default()).unwrap().value, 1);
    let ok = chain("1", "+", MAX_DEPTH as usize - 1);
    let f = fics::MatchFormula::compile(&ok, FileId(0), &fics::FVars::new()).unwrap();
    assert_eq!(
        f.evaluate(&fics::MatchRequest::default()).unwrap().value,
        MAX_DEPTH as i32
    );
}

#[test]
fn fics_deep_fvariable_is_a_diagnostic() {
    let mut fvars = fics::FVars::new();
    let f1 = fics::FVar::new(1).unwrap();
    let errs = fvars
        .set(f1, &chain("blitz", "&", N), FileId(1))
        .unwrap_err();
    assert_eq!(errs.first().map(|d| d.code.id), Some(TOO_DEEP.id));
}

#[test]
fn icc_deep_input_is_a_diagnostic() {
    for text in [
        nested("(", "1", ")", N),
        nested("!", "1", "", N),
        chain("1", "*", N),
    ] {
        let errs = icc::IccFormula::compile(&text, FileId(0)).unwrap_err();
        assert!(errs.iter().any(|d| d.code == TOO_DEEP), "{}", &text[..20]);
    }
}

#[test]
fn untermud_deep_lock_is_a_diagnostic() {
    let w = world();
    for text in [
        nested("(", "T", ")", N),
        nested("!", "T", "", N),
        nested("with ", "wizard", "", N),
        chain("T", "|", N),
        chain("UnterWiz", "&", N),
    ] {
        let errs = untermud::Lock::compile(&text, FileId(0), &w).unwrap_err();
        assert!(errs.iter().any(|d| d.code == TOO_DEEP), "{}", &text[..20]);
    }
    let ok = nested("(", "T", ")", MAX_DEPTH as usize - 2);
    let lock = untermud::Lock::compile(&ok, FileId(0), &w).unwrap();
    assert!(lock.evaluate(&w, "wizard"));
    assert_eq!(lock.to_string(), ok);
}

fn game_mode(fs: MemoryFs) -> MemoryFs {
    fs.with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
}

#[test]
fn deep_pcc_include_chain_is_a_diagnostic() {
    const CHAIN: usize = 10_000;
    let mut fs = game_mode(MemoryFs::new());
    for i in 0..CHAIN {
        fs = fs.with(
            format!("/r/data/c{i}.pcc"),
            format!("CAMPAIGN:C{i}\nGAMEMODE:G\nPCC:c{}.pcc\n", i + 1),
        );
    }
    fs = fs.with(
        format!("/r/data/c{CHAIN}.pcc"),
        "CAMPAIGN:Last\nGAMEMODE:G\n",
    );
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let set = load(&fs, &root, &[PathBuf::from("/r/data/c0.pcc")]);
    let deep: Vec<_> = set
        .diagnostics
        .iter()
        .filter(|d| d.code == INCLUDE_TOO_DEEP)
        .collect();
    assert_eq!(deep.len(), 1);
    let at = set.sources.get(deep[0].span.file).unwrap();
    assert!(
        at.path
            .ends_with(&format!("c{}.pcc", MAX_INCLUDE_DEPTH - 1))
    );
    assert_eq!(at.slice(deep[0].span), format!("c{MAX_INCLUDE_DEPTH}.pcc"));
    // The whole check pipeline survives it too.
    let checked = check_load_set(&fs, &root, &[PathBuf::from("/r/data/c0.pcc")]);
    assert!(
        checked
            .diagnostics
            .iter()
            .any(|d| d.code == INCLUDE_TOO_DEEP)
    );
}

#[test]
fn chain_within_the_limit_loads_without_the_diagnostic() {
    let mut fs = game_mode(MemoryFs::new());
    let n = MAX_INCLUDE_DEPTH - 1;
    for i in 0..n {
        fs = fs.with(
            format!("/r/data/c{i}.pcc"),
            format!("CAMPAIGN:C{i}\nGAMEMODE:G\nPCC:c{}.pcc\n", i + 1),
        );
    }
    fs = fs.with(format!("/r/data/c{n}.pcc"), "CAMPAIGN:Last\nGAMEMODE:G\n");
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let set = load(&fs, &root, &[PathBuf::from("/r/data/c0.pcc")]);
    assert!(!set.diagnostics.iter().any(|d| d.code == INCLUDE_TOO_DEEP));
    assert_eq!(set.campaigns.len(), n + 1);
}

/// A whole load whose LST files hold `lines`, through the model's checks.
fn check_lst(var_lines: &str, gm_lines: &str) -> Vec<&'static str> {
    let fs = game_mode(MemoryFs::new())
        .with(
            "/r/data/t.pcc",
            "CAMPAIGN:T\nGAMEMODE:G\nVARIABLE:v.lst\nGLOBALMODIFIER:g.lst\n",
        )
        .with("/r/data/v.lst", var_lines.to_owned())
        .with("/r/data/g.lst", gm_lines.to_owned());
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let checked = check_load_set(&fs, &root, &[PathBuf::from("/r/data/t.pcc")]);
    checked.diagnostics.iter().map(|d| d.code.id).collect()
}

#[test]
fn deeply_parenthesised_modify_value_is_a_diagnostic() {
    let deep = format!("MODIFY:Arms|ADD|{}", nested("(", "1", ")", N));
    assert!(!check_lst("GLOBAL:NUMBER=Arms\n", &deep).is_empty());
}

#[test]
fn deeply_bracketed_modify_value_is_a_diagnostic() {
    let deep = format!("MODIFY:Arms|ADD|{}", nested("[", "1", "]", N));
    assert!(!check_lst("GLOBAL:NUMBER=Arms\n", &deep).is_empty());
}

#[test]
fn deeply_nested_format_is_a_diagnostic() {
    let deep = format!("GLOBAL:{}=Arms\n", nested("ARRAY[", "NUMBER", "]", N));
    assert!(!check_lst(&deep, "").is_empty());
}

#[test]
fn deeply_nested_modifyother_address_is_a_diagnostic() {
    let deep = format!(
        "MODIFYOTHER:PC.EQUIPMENT|{}|Arms|ADD|1",
        nested("ALL[", "ALL", "]", N)
    );
    assert!(!check_lst("GLOBAL:NUMBER=Arms\n", &deep).is_empty());
}

#[test]
fn token_grammars_survive_deep_brackets() {
    // chumsky's `recursive` grows the stack (its default `stacker` feature), so depth is no
    // crash; 20,000 levels keep the debug-build run short.
    use rulebook::load::syntax::{self, Slice};
    use rulebook::source::Span;
    const N: usize = 20_000;
    for (text, pieces) in [
        (nested("(", "1", ")", N), Some(1)),
        (nested("[", "1", "]", N), Some(1)),
        (nested("(", "1", "", N), None),
        (format!("Arms|ADD|{}", nested("([", "1", "])", N)), Some(3)),
    ] {
        let s = Slice::new(&text, Span::new(FileId(0), 0..text.len()));
        assert_eq!(syntax::split_pipes(s).ok().map(|p| p.len()), pieces);
        let _ = syntax::modify(s);
        let _ = syntax::modify_other(s);
        let _ = syntax::address(s);
    }
}

#[test]
fn fics_fvariables_at_the_limit_each_evaluate() {
    // Every clause just inside the depth limit, each ending in the previous f-variable: the
    // evaluation nests ten clauses of MAX_DEPTH levels (the deepest FICS allows).
    let deep = MAX_DEPTH as usize - 1;
    let mut fvars = fics::FVars::new();
    fvars
        .set(
            fics::FVar::new(1).unwrap(),
            &chain("1", "+", deep),
            FileId(1),
        )
        .unwrap();
    for n in 2..=9u8 {
        let text = format!("{}+f{}", chain("1", "+", deep - 1), n - 1);
        fvars
            .set(fics::FVar::new(n).unwrap(), &text, FileId(u32::from(n)))
            .unwrap();
    }
    let text = format!("{}+f9", chain("1", "+", deep - 1));
    let f = fics::MatchFormula::compile(&text, FileId(0), &fvars).unwrap();
    let value = f.evaluate(&fics::MatchRequest::default()).unwrap().value;
    // f1 is MAX_DEPTH ones; each later clause and the formula add MAX_DEPTH - 1 more.
    assert_eq!(value, MAX_DEPTH as i32 + 9 * (MAX_DEPTH as i32 - 1));
}
