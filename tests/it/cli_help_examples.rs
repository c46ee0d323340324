//! Every example that a `--help` shows runs: each `rulebook …` line of every command's help
//! is run from the project folder (up to a pipe or a redirection, without its description)
//! and must succeed (exit 0; 1 only under `--deny warnings`, which the example data's
//! deliberate warnings fail, and `fmt --check`, the example data not being laid out).
//! `rulebook lsp` is left out: an editor starts it. Examples reading `../shared` are skipped
//! when that folder is absent.

use std::path::Path;
use std::process::Command;

const COMMANDS: [&str; 11] = [
    "",
    "check",
    "fmt",
    "eval",
    "conformance",
    "calc",
    "explain",
    "graph",
    "dialect",
    "completions",
    "man",
];

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The example command lines of `rulebook COMMAND --help` (a line ending in `\` continued).
fn examples(command: &str) -> Vec<String> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rulebook"));
    if !command.is_empty() {
        cmd.arg(command);
    }
    let out = cmd.arg("--help").output().unwrap();
    assert!(out.status.success(), "rulebook {command} --help");
    let help = String::from_utf8(out.stdout).unwrap();
    let mut lines = Vec::new();
    let mut pending: Option<String> = None;
    for line in help.lines() {
        let line = line.trim();
        let line = match pending.take() {
            Some(before) => format!("{before} {line}"),
            // Not the about line (`rulebook — a rules engine …`).
            None if line.starts_with("rulebook ") && !line.starts_with("rulebook —") => {
                line.to_owned()
            }
            None => continue,
        };
        match line.strip_suffix('\\') {
            Some(head) => pending = Some(head.trim_end().to_owned()),
            None => lines.push(line),
        }
    }
    lines
}

/// The words of a shell command line, up to an unquoted `|`, `>` or a run of two spaces
/// (where the example's description starts); quotes removed, `dir/*.json` expanded.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => {
                if let Some(next) = chars.next() {
                    word.get_or_insert_with(String::new).push(next);
                }
            }
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, '|' | '>') => break,
            (None, ' ') => {
                words.extend(word.take());
                if chars.peek() == Some(&' ') {
                    break;
                }
            }
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words.into_iter().flat_map(|w| glob(&w)).collect()
}

/// `dir/*.ext` as the sorted files it matches; any other word as itself.
fn glob(word: &str) -> Vec<String> {
    let Some((dir, ext)) = word.split_once("/*.") else {
        return vec![word.to_owned()];
    };
    let Ok(entries) = std::fs::read_dir(project().join(dir)) else {
        return vec![word.to_owned()];
    };
    let mut files: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(&format!(".{ext}")))
        .map(|n| format!("{dir}/{n}"))
        .collect();
    files.sort();
    files
}

#[test]
fn shell_words_are_split_as_a_shell_would() {
    assert_eq!(
        words(r#"rulebook dialect untermud '("gold key"|U)&!t' --context x.json  what it does"#),
        [
            "rulebook",
            "dialect",
            "untermud",
            r#"("gold key"|U)&!t"#,
            "--context",
            "x.json"
        ]
    );
    assert_eq!(
        words("rulebook man check | man -l -"),
        ["rulebook", "man", "check"]
    );
}

#[test]
fn every_help_example_runs() {
    let shared = project().join("../shared").is_dir();
    let mut ran = 0;
    for command in COMMANDS {
        let lines = examples(command);
        assert!(
            !lines.is_empty(),
            "`rulebook {command} --help` shows no example"
        );
        for line in lines {
            if line.contains("../shared") && !shared {
                continue;
            }
            let words = words(&line);
            assert_eq!(
                words.first().map(String::as_str),
                Some("rulebook"),
                "{line}"
            );
            let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
                .current_dir(project())
                .args(&words[1..])
                .output()
                .unwrap();
            // The example data's deliberate warnings fail `--deny warnings` (README), and its
            // files are not laid out as `fmt --check` wants.
            let expected = if line.contains("--deny warnings") || line.contains("fmt --check") {
                1
            } else {
                0
            };
            let code = out.status.code();
            assert!(
                code == Some(expected),
                "`{line}` ran as {words:?} and exited {code:?}, not {expected}:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 20, "{ran} examples ran");
}
