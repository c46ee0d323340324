//! Every old-system formula of every dataset PCGen ships (`../shared/pcgen-corpus`) is
//! parsed; the ones with errors are a reviewed snapshot, each a real mistake (see
//! docs/old-formulas.md, "The corpus").
//!
//! Formulas are found where the loader finds them (`model::old_formulas::formulas_in_token`,
//! one table, `old-formulas.tsv`): BONUS and TEMPBONUS values, DEFINE and DEFINESTAT values,
//! the operands of every `PREVARxx:` wherever it stands, and the formula parts of `SPELLS:`.
//!
//! Set `JEP_CORPUS_DUMP=path` to write every formula with rulebook's verdict (first error code
//! or `ok`, evaluator, text; one a line) for comparing with JEP itself.

use rulebook::jep::parse_jep;
use rulebook::source::{FileId, decode_text};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// One formula found in the corpus.
struct Found {
    kind: &'static str,
    file: usize,
    line: usize,
    offset: usize,
    text: String,
}

fn lst_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            lst_files(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("lst")) {
            out.push(p);
        }
    }
}

/// The formulas of one token (`at`: the token's offset in the file), found where the
/// loader finds them (`model::old_formulas::formulas_in_token`, `old-formulas.tsv`).
fn token_formulas(file: usize, line: usize, at: usize, tok: &str, out: &mut Vec<Found>) {
    for f in rulebook::model::old_formulas::formulas_in_token(tok) {
        let Some(text) = tok.get(f.range.clone()) else {
            continue;
        };
        out.push(Found {
            // `BONUS value` → `BONUS`.
            kind: f.what.split(' ').next().unwrap_or(f.what),
            file,
            line,
            offset: at + f.range.start,
            text: text.to_owned(),
        });
    }
}

/// Every formula of one file's text.
fn file_formulas(file: usize, text: &str, out: &mut Vec<Found>) {
    // Lines end with `\n`, `\r\n` or a lone `\r` (Java's `readLine`, as PCGen reads them).
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] == b'\n' || bytes[i] == b'\r' {
            lines.push((start, &text[start..i]));
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            start = i + 1;
        }
        i += 1;
    }
    lines.push((start, &text[start..]));
    for (n, (at, line)) in lines.into_iter().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        let mut tok_start = 0;
        for tok in line.split('\t') {
            let lead = tok.len() - tok.trim_start().len();
            let trimmed = tok.trim();
            token_formulas(file, n + 1, at + tok_start + lead, trimmed, out);
            tok_start += tok.len() + 1;
        }
    }
}

#[test]
fn every_corpus_formula_parses_or_is_a_reviewed_mistake() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if !shared.exists() {
        eprintln!("../shared is absent: the corpus test does not apply here");
        return;
    }
    let root = shared.join("pcgen-corpus");
    assert!(
        root.is_dir(),
        "../shared exists but the corpus {root:?} is missing"
    );
    let mut paths = Vec::new();
    lst_files(&root, &mut paths);
    paths.sort();
    assert!(
        paths.len() > 5000,
        "only {} LST files under {root:?}",
        paths.len()
    );

    let mut texts = Vec::new();
    let mut found = Vec::new();
    for (i, p) in paths.iter().enumerate() {
        let bytes = std::fs::read(p).unwrap();
        let (text, _) = decode_text(&bytes);
        file_formulas(i, &text, &mut found);
        texts.push(text);
    }

    let started = Instant::now();
    let outputs: Vec<_> = found
        .iter()
        .map(|f| parse_jep(&f.text, FileId(f.file as u32), f.offset as u32))
        .collect();
    let elapsed = started.elapsed();

    if let Ok(dump) = std::env::var("JEP_CORPUS_DUMP") {
        let all: String = found
            .iter()
            .zip(&outputs)
            .map(|(f, o)| {
                let code = o
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map_or("ok", |d| d.code.id);
                format!("{code}\t{:?}\t{}\n", o.formula.evaluator, f.text)
            })
            .collect();
        std::fs::write(dump, all).unwrap();
    }

    let mut failures = Vec::new();
    let mut by_kind = std::collections::BTreeMap::<&str, (usize, usize)>::new();
    for (f, out) in found.iter().zip(&outputs) {
        let entry = by_kind.entry(f.kind).or_default();
        entry.0 += 1;
        if let Some(d) = out.diagnostics.iter().find(|d| d.is_error()) {
            entry.1 += 1;
            // The span must lie in the formula's file text.
            let text = &texts[f.file];
            assert!(
                text.get(d.span.range()).is_some(),
                "{} in {:?}",
                d.code,
                f.text
            );
            let rel = paths[f.file]
                .strip_prefix(&root)
                .unwrap()
                .display()
                .to_string();
            failures.push(format!(
                "{} {} {}:{} {:?}",
                d.code.id, f.kind, rel, f.line, f.text
            ));
        }
    }
    failures.sort();
    failures.dedup();
    eprintln!(
        "{} formulas parsed in {:.3} s; {} with errors ({} distinct lines); by kind {:?}",
        found.len(),
        elapsed.as_secs_f64(),
        outputs.iter().filter(|o| o.has_errors()).count(),
        failures.len(),
        by_kind
    );
    assert!(found.len() > 300_000, "only {} formulas found", found.len());
    insta::assert_snapshot!("corpus_failures", failures.join("\n"));
}
