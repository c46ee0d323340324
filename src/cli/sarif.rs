//! `--format sarif`: the findings of a run as a SARIF 2.1.0 log (the format GitHub code
//! scanning and other CI tools read). `schemas/sarif-schema-2.1.0.json` is the official
//! schema; `tests/it/cli_formats.rs` validates this output against it.
//!
//! One run, whose driver lists a rule for every code reported (its name, a link to its
//! entry in `docs/errors.md`, its level); each result has its location, the other labels
//! as related locations, a fingerprint that survives line moves
//! ([`rulebook::diagnostic::fingerprint`]) and the fix the finding suggests (every edit of it).
//! File locations are relative to `%SRCROOT%`, the current folder, when the file is below
//! it.

use super::findings::Finding;
use rulebook::diagnostic::Severity;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The `$schema` a log names.
const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The base id of locations relative to the current folder.
const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Log {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run {
    tool: Tool,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    original_uri_base_ids: BTreeMap<&'static str, ArtifactLocation>,
    results: Vec<SarifResult>,
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: String,
    name: String,
    short_description: Text,
    help_uri: String,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: String,
    rule_index: usize,
    level: &'static str,
    message: Text,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    locations: Vec<Location>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Location>,
    partial_fingerprints: BTreeMap<&'static str, String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<usize>,
    physical_location: PhysicalLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<Text>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix {
    description: Text,
    artifact_changes: Vec<ArtifactChange>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange {
    artifact_location: ArtifactLocation,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    deleted_region: Region,
    inserted_content: Text,
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// `text` as a URI path: every byte but unreserved characters and `/` percent-encoded.
fn uri_path(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The `file://` URI of an absolute path (a folder's ends in `/`).
fn file_uri(path: &Path, folder: bool) -> String {
    let mut text = path.to_string_lossy().replace('\\', "/");
    if !text.starts_with('/') {
        text.insert(0, '/');
    }
    if folder && !text.ends_with('/') {
        text.push('/');
    }
    format!("file://{}", uri_path(&text))
}

/// Where a path shown as `shown` (relative to the current folder, or absolute) is.
fn artifact(shown: &str) -> ArtifactLocation {
    if Path::new(shown).is_absolute() {
        ArtifactLocation {
            uri: file_uri(Path::new(shown), false),
            uri_base_id: None,
        }
    } else {
        ArtifactLocation {
            uri: uri_path(shown),
            uri_base_id: Some(SRCROOT),
        }
    }
}

/// A SARIF region: lines and columns start at 1.
fn region(start: (usize, usize), end: (usize, usize)) -> Region {
    Region {
        start_line: start.0.max(1),
        start_column: start.1.max(1),
        end_line: end.0.max(start.0).max(1),
        end_column: end.1.max(1),
    }
}

/// The log of `findings` (sorted, fingerprinted: see [`super::findings::sort`]); rules link
/// to `docs_base#code-name`, locations are relative to `cwd`.
pub fn log(findings: &[Finding], docs_base: &str, cwd: &Path) -> Log {
    let mut rules: Vec<Rule> = Vec::new();
    let mut index: BTreeMap<String, usize> = BTreeMap::new();
    let mut results = Vec::new();
    for f in findings {
        let j = &f.json;
        let rule_index = *index.entry(j.code.clone()).or_insert_with(|| {
            rules.push(Rule {
                id: j.code.clone(),
                name: j.name.clone(),
                short_description: Text {
                    text: j.name.replace('-', " "),
                },
                help_uri: format!("{docs_base}#{}-{}", j.code.to_ascii_lowercase(), j.name),
                default_configuration: Configuration {
                    level: level(j.severity),
                },
            });
            rules.len() - 1
        });
        let text = super::findings::text(j);
        let mut places = j
            .labels
            .iter()
            .zip(&f.shown)
            .filter(|(l, shown)| !shown.is_empty() && l.line > 0)
            .map(|(l, shown)| (l, artifact(shown)));
        let primary = places.next();
        let related: Vec<Location> = places
            .enumerate()
            .map(|(i, (l, at))| Location {
                id: Some(i + 1),
                physical_location: PhysicalLocation {
                    artifact_location: at,
                    region: region((l.line, l.column), (l.end_line, l.end_column)),
                },
                message: Some(Text {
                    text: l.message.clone(),
                }),
            })
            .collect();
        let fixes = match (&j.fix, &primary) {
            (None, _) | (_, None) => Vec::new(),
            (Some(fix), Some((_, at))) => {
                let edits = &fix.edits;
                let said: Vec<String> = edits
                    .iter()
                    .map(|e| match e.text.as_str() {
                        "" => "delete".to_owned(),
                        text => format!("write `{}`", text.trim()),
                    })
                    .collect();
                vec![SarifFix {
                    description: Text {
                        text: said.join("; "),
                    },
                    artifact_changes: vec![ArtifactChange {
                        artifact_location: at.clone(),
                        replacements: edits
                            .iter()
                            .map(|e| Replacement {
                                deleted_region: region(
                                    (e.line, e.column),
                                    (e.end_line, e.end_column),
                                ),
                                inserted_content: Text {
                                    text: e.text.clone(),
                                },
                            })
                            .collect(),
                    }],
                }]
            }
        };
        let locations = primary
            .map(|(l, at)| Location {
                id: None,
                physical_location: PhysicalLocation {
                    artifact_location: at,
                    region: region((l.line, l.column), (l.end_line, l.end_column)),
                },
                message: None,
            })
            .into_iter()
            .collect();
        results.push(SarifResult {
            rule_id: j.code.clone(),
            rule_index,
            level: level(j.severity),
            message: Text { text },
            locations,
            related_locations: related,
            partial_fingerprints: BTreeMap::from([("rulebook/v1", f.fingerprint.clone())]),
            fixes,
        });
    }
    Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: "rulebook",
                    version: env!("CARGO_PKG_VERSION"),
                    rules,
                },
            },
            original_uri_base_ids: BTreeMap::from([(
                SRCROOT,
                ArtifactLocation {
                    uri: file_uri(cwd, true),
                    uri_base_id: None,
                },
            )]),
            results,
            column_kind: "unicodeCodePoints",
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uris() {
        assert_eq!(uri_path("data/a b/é.lst"), "data/a%20b/%C3%A9.lst");
        assert_eq!(
            file_uri(Path::new("/work/x y"), true),
            "file:///work/x%20y/"
        );
        let at = artifact("data/x.lst");
        assert_eq!(
            (at.uri.as_str(), at.uri_base_id),
            ("data/x.lst", Some(SRCROOT))
        );
        assert_eq!(artifact("/abs/x.lst").uri, "file:///abs/x.lst");
    }
}
