//! Runs every conformance vector that says something about parsing: each vector with a
//! `parse`/`expect_parse` field must produce that tree (and canonical text), each vector with
//! `stage: parse` must fail to parse.

use rulebook::formula::parse_formula;
use rulebook::formula::print::{canonical, to_sexpr};
use rulebook::source::FileId;
use serde_json::Value;
use std::path::PathBuf;

fn vector_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/pcgen")
}

/// Checks one vector; `None` when it says nothing about parsing.
fn check(v: &Value) -> Option<Result<(), String>> {
    let formula = v.get("formula")?.as_str()?;
    let expected = v.get("expect_parse").or_else(|| v.get("parse"));
    let must_fail = v.get("stage").and_then(Value::as_str) == Some("parse");
    if expected.is_none() && !must_fail {
        return None;
    }
    let out = parse_formula(formula, FileId(0), 0);
    if must_fail {
        // PCGen's FormulaFactory refuses "" before parsing; for rulebook the empty formula
        // parses to `<empty>` and the checker reports it (empty_formula).
        let factory_empty =
            formula.is_empty() && v.get("via").and_then(Value::as_str) == Some("FormulaFactory");
        return Some(match (&out.formula, factory_empty) {
            (None, _) => Ok(()),
            (Some(f), true) if f.root().is_none() => Ok(()),
            (Some(f), _) => Err(format!(
                "{formula:?}: expected a parse error, got {}",
                to_sexpr(f)
            )),
        });
    }
    let expected = expected?;
    let ast = expected.get("ast").and_then(Value::as_str).unwrap_or("");
    let canon = expected.get("canonical").and_then(Value::as_str);
    Some(match &out.formula {
        None => Err(format!(
            "{formula:?}: expected {ast}, got errors {:?}",
            out.diagnostics
                .iter()
                .map(|d| format!("{} {}", d.code, d.message))
                .collect::<Vec<_>>()
        )),
        Some(f) => {
            let got = to_sexpr(f);
            let got_canon = canonical(f);
            if got != ast {
                Err(format!("{formula:?}: expected {ast}, got {got}"))
            } else if canon.is_some_and(|c| c != got_canon) {
                Err(format!(
                    "{formula:?}: canonical expected {canon:?}, got {got_canon:?}"
                ))
            } else {
                Ok(())
            }
        }
    })
}

#[test]
fn every_parse_vector_passes() {
    let dir = vector_dir();
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!(
            "note: {} not found; conformance parse vectors skipped",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let (mut passed, mut failures) = (0usize, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let vectors: Vec<Value> = serde_json::from_str(&text).unwrap();
        for v in &vectors {
            match check(v) {
                None => {}
                Some(Ok(())) => passed += 1,
                Some(Err(e)) => failures.push(format!(
                    "{} {}: {e}",
                    file.file_name().unwrap().to_string_lossy(),
                    v.get("id").and_then(Value::as_str).unwrap_or("?")
                )),
            }
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    println!("{passed} passed, {} failed", failures.len());
    assert!(passed > 0, "no parse vectors found in {}", dir.display());
    assert!(
        failures.is_empty(),
        "{} parse vectors failed",
        failures.len()
    );
}
