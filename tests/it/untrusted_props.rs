//! Untrusted input never panics, on the same entry points as the cargo-fuzz targets
//! (`fuzz/fuzz_targets/check_lst.rs`, `dialect_fics.rs`, `dialect_untermud.rs`): random bytes
//! and random token-ish lines as one LST file of any kind through load, model, formula checks
//! and both renderings; any text as FICS formulas and f-variables, ICC formulas and UnterMUD
//! locks.

use proptest::prelude::*;
use rulebook::check::{CheckedSet, check_load_set, json_output, render_human};
use rulebook::diagnostic::render;
use rulebook::dialect::{fics, icc, untermud};
use rulebook::load::{FileKind, MemoryFs, PcgenRoot};
use rulebook::source::{FileId, SourceFile, SourceMap, TextEncoding};
use std::path::{Path, PathBuf};

/// One LST file of `kind` holding `body`, checked and rendered.
fn check_one(kind: FileKind, body: Vec<u8>) -> CheckedSet {
    let fs = MemoryFs::new()
        .with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
        .with(
            "/r/data/t.pcc",
            format!("CAMPAIGN:T\nGAMEMODE:G\n{}:f.lst\n", kind.token()),
        )
        .with("/r/data/f.lst", body);
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let set = check_load_set(&fs, &root, &[PathBuf::from("/r/data/t.pcc")]);
    let sets = [set];
    let _ = render_human(&sets, false);
    let _ = serde_json::to_string(&json_output(&sets)).unwrap();
    let [set] = sets;
    set
}

fn kind() -> impl Strategy<Value = FileKind> {
    prop::sample::select(FileKind::LOAD_ORDER.to_vec())
}

/// Lines built from the pieces real LST lines are made of.
fn token_lines() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "MODIFY:",
        "MODIFYOTHER:",
        "PART:",
        "GLOBAL:",
        "LOCAL:",
        "CHANNEL:",
        "DYNAMICSCOPE:",
        "DEFAULTVARIABLEVALUE:",
        "FUNCTION:",
        "VALUE:",
        "FACTDEF:",
        "DATAFORMAT:",
        "GROUP:",
        "GRANT:",
        "KEY:",
        "TYPE:",
        "TABLE:",
        "STARTTABLE:",
        "ENDTABLE:",
        "#",
        "Arms",
        "Hands",
        "PC.EQUIPMENT",
        "PC.STAT",
        "EQUIPMENT.PART",
        "ALL",
        "ALL[ALL]",
        "GROUP=Weapon",
        "NUMBER=",
        "ARRAY[NUMBER]",
        "STRING",
        "SET",
        "ADD",
        "MULTIPLY",
        "DIVIDE",
        "MAX",
        "MIN",
        "PRIORITY=",
        "4294967296",
        "-1",
        "1",
        "|",
        "=",
        "(",
        ")",
        "[",
        "]",
        "\"",
        ",",
        ".",
        "\t",
        "\t\t",
        " ",
        "\n",
        "\r\n",
        "\u{e9}",
        "\u{feff}",
        "arg(0)",
        "input(\"x\")",
    ]);
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

const N_CASES: u32 = 256;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(N_CASES))]

    #[test]
    fn random_bytes_as_an_lst_never_panic(kind in kind(),
                                          body in prop::collection::vec(any::<u8>(), 0..300)) {
        let set = check_one(kind, body);
        // Every diagnostic points into a file of the load (or nowhere, span 0..0).
        for d in &set.diagnostics {
            prop_assert!(set.load.sources.get(d.span.file).is_some(), "{d:?}");
        }
    }

    #[test]
    fn token_lines_as_an_lst_never_panic(kind in kind(), body in token_lines()) {
        let set = check_one(kind, body.into_bytes());
        for d in &set.diagnostics {
            let f = set.load.sources.get(d.span.file);
            prop_assert!(f.is_some_and(|f| f.text.get(d.span.range()).is_some()), "{d:?}");
        }
    }

    #[test]
    fn any_text_as_fics_never_panics(formula in "\\PC{0,40}",
                                     fs in prop::collection::vec("\\PC{0,20}", 0..9)) {
        let mut fvars = fics::FVars::new();
        let mut sources = SourceMap::new();
        sources.add(SourceFile::new("formula", formula.clone(), TextEncoding::Utf8));
        for (n, text) in (1u8..).zip(&fs) {
            let file = sources.add(SourceFile::new(format!("f{n}"), text.clone(), TextEncoding::Utf8));
            if let Err(ds) = fvars.set(fics::FVar::new(n).unwrap(), text, file) {
                prop_assert!(ds.iter().any(|d| d.is_error()));
                let _ = render(&ds, &sources, false);
            }
        }
        match fics::MatchFormula::compile(&formula, FileId(0), &fvars) {
            Ok(f) => {
                let req = fics::MatchRequest::default();
                match f.evaluate(&req) {
                    Ok(ev) => prop_assert_eq!(f.accepts(&req), ev.value != 0),
                    Err(_) => prop_assert!(!f.accepts(&req)),
                }
            }
            Err(ds) => {
                prop_assert!(ds.iter().any(|d| d.is_error()));
                let _ = render(&ds, &sources, false);
            }
        }
    }

    #[test]
    fn any_text_as_icc_never_panics(text in "\\PC{0,40}") {
        let mut sources = SourceMap::new();
        sources.add(SourceFile::new("formula", text.clone(), TextEncoding::Utf8));
        match icc::IccFormula::compile(&text, FileId(0)) {
            Ok(f) => {
                let _ = f.evaluate(&icc::Challenge::default());
            }
            Err(ds) => {
                prop_assert!(ds.iter().any(|d| d.is_error()));
                let _ = render(&ds, &sources, false);
            }
        }
    }

    #[test]
    fn any_text_as_an_untermud_lock_never_panics(text in "\\PC{0,40}") {
        let w: untermud::World = serde_json::from_str(
            r#"{"mud": "M", "objects": {
                "0": {"name": "Lobby", "kind": "room", "location": null},
                "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"},
                "2@M": {"name": "bat", "kind": "thing", "location": "0"},
                "3@M": {"name": "bat", "kind": "thing", "location": "wizard"}}}"#,
        )
        .unwrap();
        let mut sources = SourceMap::new();
        sources.add(SourceFile::new("lock", text.clone(), TextEncoding::Utf8));
        match untermud::Lock::compile(&text, FileId(0), &w) {
            Ok(lock) => {
                let again = untermud::Lock::compile(&lock.to_string(), FileId(0), &w);
                prop_assert!(again.is_ok());
            }
            Err(ds) => {
                prop_assert!(ds.iter().any(|d| d.is_error()));
                let _ = render(&ds, &sources, false);
            }
        }
    }
}
