//! `rulebook check`'s output formats and the flags that shape a run's report, through the
//! binary: concise and GitHub annotations (snapshots of a few broken examples), SARIF
//! validated against the official 2.1.0 schema (`schemas/sarif-schema-2.1.0.json`), JSON
//! against `schemas/check-output.schema.json`, `--statistics` against the JSON counts,
//! `--allow`/`--deny` of notes and unknown codes, and the campaign notes summed up.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

/// A few broken examples, each its own load set: a note with a campaign added (L0106), an
/// error with secondary labels (M0104), a "did you mean" (T0110), a warning (T0113), an
/// unused variable (M0120).
const CASES: [&str; 5] = [
    "tests/fixtures/broken/L0106-campaign-added",
    "tests/fixtures/broken/M0104-variable-overlap",
    "tests/fixtures/broken/T0110-unknown-token",
    "tests/fixtures/broken/T0113-deprecated-token",
    "tests/fixtures/broken/M0120-unused-variable",
];

/// Every broken example, each its own load set.
const ALL: [&str; 1] = ["tests/fixtures/broken"];

/// Runs `rulebook check PATHS --pcgen-root tests/fixtures ARGS` from the project folder.
fn check(paths: &[&str], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("check")
        .args(paths)
        .args(["--pcgen-root", "tests/fixtures", "--color", "never"])
        .args(args)
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn json(paths: &[&str], args: &[&str]) -> Value {
    let out = check(paths, &[&["--format", "json"], args].concat());
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", stdout(&out)))
}

/// Findings per code in the JSON output.
fn codes(output: &Value) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for d in output["diagnostics"].as_array().unwrap() {
        *counts
            .entry(d["code"].as_str().unwrap().to_owned())
            .or_default() += 1;
    }
    counts
}

/// The errors of validating `instance` against the schema file `schemas/NAME`.
fn schema_errors(name: &str, instance: &Value) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(name);
    // The official SARIF schema's `language` pattern has a bare `]` (a literal in
    // JavaScript's regular expressions, an error in Rust's): it is escaped here, in memory,
    // so the vendored file stays the published one.
    let text = std::fs::read_to_string(path)
        .unwrap()
        .replace("{2}]?$", "{2}\\\\]?$");
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .unwrap();
    validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[test]
fn concise_prints_one_line_per_finding() {
    let out = check(&CASES, &["--format", "concise"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    insta::assert_snapshot!(text);
    let findings = json(&CASES, &[])["diagnostics"].as_array().unwrap().len();
    assert_eq!(text.lines().count(), findings, "{text}");
    // The summary line is on stderr: stdout is the findings alone.
    assert!(stderr(&out).contains("3 errors, 1 warning, 2 notes"));
}

#[test]
fn github_prints_one_annotation_per_finding() {
    let out = check(&CASES, &["--format", "github"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    insta::assert_snapshot!(stdout(&out));
}

#[test]
fn sarif_is_valid_and_carries_rules_locations_and_fixes() {
    let out = check(&CASES, &["--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = schema_errors("sarif-schema-2.1.0.json", &log);
    assert!(errors.is_empty(), "{errors:#?}");
    // The schema does reject what is wrong.
    let mut wrong = log.clone();
    wrong["runs"][0]["results"][0]["level"] = "fatal".into();
    assert_eq!(schema_errors("sarif-schema-2.1.0.json", &wrong).len(), 1);
    let run = &log["runs"][0];
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    for r in results {
        let id = r["ruleId"].as_str().unwrap();
        let index = usize::try_from(r["ruleIndex"].as_u64().unwrap()).unwrap();
        assert_eq!(rules[index], id);
        assert!(r["partialFingerprints"]["rulebook/v1"].is_string(), "{r}");
    }
    let by_code = |code: &str| {
        results
            .iter()
            .find(|r| r["ruleId"] == code)
            .unwrap_or_else(|| panic!("no {code}"))
    };
    let rule = |code: &str| {
        run["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == code)
            .unwrap()
    };
    assert!(
        rule("T0110")["helpUri"]
            .as_str()
            .unwrap()
            .ends_with("errors.md#t0110-unknown-token")
    );
    assert_eq!(by_code("M0120")["level"], "note");
    assert_eq!(by_code("T0113")["level"], "warning");
    // M0104 points at both declarations.
    let related = &by_code("M0104")["relatedLocations"][0];
    assert_eq!(
        related["physicalLocation"]["artifactLocation"]["uri"],
        "tests/fixtures/broken/_base/base__variables.lst"
    );
    // "did you mean `MODIFY`?" is a fix replacing `MODIFFY`.
    let fix = &by_code("T0110")["fixes"][0]["artifactChanges"][0]["replacements"][0];
    assert_eq!(fix["insertedContent"]["text"], "MODIFY");
    assert_eq!(fix["deletedRegion"]["startColumn"], 22);
    assert_eq!(fix["deletedRegion"]["endColumn"], 29);
}

#[test]
fn sarif_and_json_of_every_broken_example_are_valid() {
    let out = check(&ALL, &["--format", "sarif"]);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = schema_errors("sarif-schema-2.1.0.json", &log);
    assert!(errors.is_empty(), "{errors:#?}");
    let output = json(&ALL, &[]);
    let errors = schema_errors("check-output.schema.json", &output);
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(
        log["runs"][0]["results"].as_array().unwrap().len(),
        output["diagnostics"].as_array().unwrap().len()
    );
}

#[test]
fn statistics_match_the_json_counts() {
    let out = check(&ALL, &["--statistics"]);
    let text = stdout(&out);
    let mut counted: BTreeMap<String, usize> = BTreeMap::new();
    let mut lines = text.lines().collect::<Vec<_>>();
    let summary = lines.pop().unwrap();
    for line in lines {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [n, code, _severity, _name] = words[..] else {
            panic!("bad line {line:?} in\n{text}")
        };
        *counted.entry(code.to_owned()).or_default() += n.parse::<usize>().unwrap();
    }
    let output = json(&ALL, &[]);
    assert_eq!(counted, codes(&output), "{text}");
    let s = &output["summary"];
    assert!(
        summary.starts_with(&format!(
            "{} errors, {} warnings, {} notes",
            s["errors"], s["warnings"], s["notes"]
        )),
        "{summary}"
    );
}

#[test]
fn notes_can_be_allowed_or_denied_as_a_whole() {
    let all = json(&CASES, &[]);
    assert_eq!(all["summary"]["notes"], 2);
    let allowed = json(&CASES, &["--allow", "notes"]);
    assert_eq!(allowed["summary"]["notes"], 0);
    assert_eq!(allowed["summary"]["errors"], all["summary"]["errors"]);
    let denied = json(&CASES, &["--deny", "notes"]);
    assert_eq!(denied["summary"]["notes"], 0);
    assert_eq!(denied["summary"]["errors"], 5);
    let warnings = json(&CASES, &["--allow", "warnings"]);
    assert_eq!(warnings["summary"]["warnings"], 0);
}

#[test]
fn unknown_codes_are_usage_errors_with_a_guess() {
    let out = check(&CASES, &["--deny", "note"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean `notes`?"),
        "{}",
        stderr(&out)
    );
    let out = check(&CASES, &["--allow", "M0102O"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no such code"), "{}", stderr(&out));
    let out = check(&CASES, &["--allow", "unused-variabel"]);
    assert!(
        stderr(&out).contains("did you mean `M0120` (unused-variable)?"),
        "{}",
        stderr(&out)
    );
    // A code's name is as good as the code.
    assert_eq!(
        codes(&json(&CASES, &["--allow", "unused-variable"])).get("M0120"),
        None
    );
}

#[test]
fn an_allowed_error_is_reported_and_said_so() {
    let out = check(&CASES, &["--allow", "T0110", "--format", "concise"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).contains("error[T0110]"));
    assert!(
        stderr(&out).contains("--allow T0110: 1 T0110 error was reported all the same"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn campaign_notes_are_summed_up_unless_verbose() {
    let text = stdout(&check(&CASES, &[]));
    assert!(!text.contains("[L0106] Note:"), "{text}");
    assert!(
        text.contains(
            "note[L0106]: a required campaign was added to a load set 1 time, 1 campaign in all"
        ),
        "{text}"
    );
    assert!(text.contains("1 × `Broken Core Book` (broken/L0106-campaign-added/core.pcc)"));
    assert!(text.contains("[M0120] Note:"), "{text}");
    let verbose = stdout(&check(&CASES, &["--verbose"]));
    assert!(verbose.contains("[L0106] Note:"), "{verbose}");
    assert!(!verbose.contains("note[L0106]"), "{verbose}");
}

#[test]
fn statistics_need_a_text_format() {
    let out = check(&CASES, &["--statistics", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_human_report_shows_errors_then_warnings_then_notes() {
    let text = stdout(&check(&CASES, &["--verbose"]));
    let headers: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix('[')?.split_once("] ").map(|(_, h)| h))
        .filter_map(|h| h.split_once(':').map(|(kind, _)| kind))
        .collect();
    assert_eq!(
        headers,
        ["Error", "Error", "Error", "Warning", "Note", "Note"],
        "{text}"
    );
}
