//! rulebook's whole-corpus findings against PCGen's own load log: `shared/pcgen-oracle`
//! holds what PCGen's real loader logs for every load set of the corpus (`oracle.tsv`, one
//! row per distinct problem; `oracle_sets.tsv`, which loads PCGen completed or aborted;
//! `loadsets.tsv`, the PCCs of each). This test runs the `rulebook` binary as
//! `corpus_findings` does (`RULEBOOK_CORPUS_BIN`, else an optimised build's own binary) and
//! checks two things:
//!
//! - **recall**, per PCGen message family, counted as `compare.py` beside the oracle counts
//!   it (first-cause rows only: one mistake, one error): each family rulebook covers keeps at
//!   least its floor in [`FLOORS`];
//! - **precision** of the reference checks (`R01xx`): every such error has a PCGen
//!   counterpart (the same file and line, or for the families PCGen logs without a line the
//!   same file and name), or comes from a load set PCGen aborted before it could log it
//!   (rulebook checks those load sets whole: each is run here on its own to know which).
//!
//! The recall table is an insta snapshot, so a change in any family is reviewed. With
//! `shared/` present and the oracle's files missing the test fails rather than skips.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The least share of PCGen's first-cause problems rulebook reports, per family it covers.
const FLOORS: &[(&str, f64)] = &[
    ("Ignoring object (missing category)", 1.0),
    ("Bio settings", 1.0),
    ("Exception while parsing line", 1.0),
    ("Illegal subtoken", 0.98),
    ("Invalid AbilityCategory in BONUS:ABILITYPOOL", 1.0),
    ("Not UTF-8", 1.0),
    ("MOD target not found", 0.98),
    ("Missing AbilityCategory", 1.0),
    ("No objects of referred type", 0.9),
    ("Unconstructed Reference", 0.98),
    ("Unknown FACT", 1.0),
];

/// `shared/` beside the crate or one of its ancestors (a worktree's parent's).
fn shared() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|s| s.join("pcgen-corpus/data").is_dir())
}

/// The binary to run: `$RULEBOOK_CORPUS_BIN`, else this build's when optimised.
fn binary() -> Option<PathBuf> {
    match std::env::var_os("RULEBOOK_CORPUS_BIN") {
        Some(p) => {
            let p = PathBuf::from(p);
            Some(std::path::absolute(&p).unwrap_or(p))
        }
        None if cfg!(debug_assertions) => None,
        None => Some(PathBuf::from(env!("CARGO_BIN_EXE_rulebook"))),
    }
}

/// A TSV file as rows of named columns.
fn tsv(path: &Path) -> Vec<HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (shared/ is present, so the oracle must be too)",
            path.display()
        )
    });
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    lines
        .map(|l| {
            head.iter()
                .zip(l.split('\t'))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// One finding of `rulebook check --format json`.
struct Finding {
    severity: String,
    code: String,
    file: String,
    line: String,
    column: String,
    message: String,
    /// Message, help and labels, lower-cased: what a PCGen row's name is looked for in.
    text: String,
    /// The notes (an `L0106` note says which PCC was added: `from data/…`).
    notes: Vec<String>,
}

/// Runs `bin check ARGS --pcgen-root . --format json` in `corpus`.
fn run(bin: &Path, corpus: &Path, args: &[String]) -> Vec<Finding> {
    let out = Command::new(bin)
        .arg("check")
        .args(args)
        .args(["--pcgen-root", ".", "--format", "json"])
        .current_dir(corpus)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{} {args:?} exited with {:?}: {}",
        bin.display(),
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON output");
    let s = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Null => String::new(),
        other => other.to_string(),
    };
    json["diagnostics"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[])
        .iter()
        .map(|d| {
            let labels: Vec<String> = d["labels"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or(&[])
                .iter()
                .map(|l| s(&l["message"]))
                .collect();
            Finding {
                severity: s(&d["severity"]),
                code: s(&d["code"]),
                file: s(&d["file"]),
                line: s(&d["line"]),
                column: s(&d["column"]),
                message: s(&d["message"]),
                text: format!(
                    "{} {} {}",
                    s(&d["message"]),
                    s(&d["help"]),
                    labels.join(" ")
                )
                .to_lowercase(),
                notes: d["notes"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or(&[])
                    .iter()
                    .map(s)
                    .collect(),
            }
        })
        .collect()
}

/// Whether rulebook reports PCGen's first-cause `row` (the rules of `compare.py`).
fn found(row: &HashMap<String, String>, by_file: &HashMap<&str, Vec<&Finding>>) -> bool {
    let get = |k: &str| row.get(k).map_or("", String::as_str);
    let findings = by_file.get(get("file")).map_or(&[][..], Vec::as_slice);
    let (kind, line, key, message) = (get("kind"), get("line"), get("key"), get("message"));
    if kind.starts_with("Ignoring object") && message.contains("Category: ") {
        // One missing category drops every object of it: one finding per file naming the
        // category is enough.
        let cat = message
            .rsplit_once("Category: ")
            .map_or("", |(_, c)| c)
            .trim()
            .to_lowercase();
        return findings
            .iter()
            .any(|d| d.line == line || d.text.contains(&cat));
    }
    if kind == "No objects of referred type" {
        let group = referred_group(key, message);
        return findings
            .iter()
            .any(|d| d.code == "R0107" && d.text.contains(&group));
    }
    if !line.is_empty() {
        return findings.iter().any(|d| d.line == line);
    }
    let mut names = vec![key.to_lowercase()];
    if let Some((_, rest)) = key.split_once(' ') {
        names.push(rest.to_lowercase());
    }
    let quoted: Vec<&str> = message.split('\'').collect();
    if quoted.len() > 2 {
        names.push(quoted[1].to_lowercase());
    }
    names.retain(|n| !n.is_empty());
    if names.is_empty() {
        return !findings.is_empty();
    }
    findings
        .iter()
        .any(|d| names.iter().any(|n| d.text.contains(n.as_str())))
}

/// The group a "No objects of referred type" row names, lower case: `type=armor.medium`
/// (`No Equipment objects of TYPE=ARMOR.Medium were loaded`), or only the kind for a group
/// of every object (`No Spell objects were loaded`): what an `R0107` of the file says too.
fn referred_group(key: &str, message: &str) -> String {
    message
        .split_once(" objects of ")
        .and_then(|(_, rest)| rest.split_once(" were loaded"))
        .map_or_else(|| key.to_lowercase(), |(group, _)| group.to_lowercase())
}

/// PCGen's rows indexed for finding the counterpart of a reference error (all rows, cascades
/// too: PCGen logs the consequence of a failed `.COPY=` as a failed `.MOD`).
#[derive(Default)]
struct Counterparts {
    /// `MOD target not found` and `Exception while parsing line`: (kind, file, line).
    lines: BTreeSet<(String, String, String)>,
    /// `MOD target not found` by (file, key), lower case: PCGen writes lines past 999 as
    /// `(1,049)`, which the oracle's normaliser leaves without a line.
    mod_keys: BTreeSet<(String, String)>,
    /// `COPY target not found` (PCGen names the base, not the file): the base, lower case.
    copies: BTreeSet<String>,
    /// Categories PCGen could not find, lower case.
    categories: BTreeSet<String>,
    /// Abilities PCGen could not look up for want of `CATEGORY=`: its messages, lower case.
    no_category: Vec<String>,
    /// `Unknown FACT` (a PREFACT naming a FACT no FACTDEF defines): (file, FACT), lower case.
    facts: BTreeSet<(String, String)>,
    /// `Unconstructed Reference`: (file, name without its type word), lower case.
    unconstructed: BTreeSet<(String, String)>,
    /// `No objects of referred type`: (file, [`referred_group`]).
    groups: BTreeSet<(String, String)>,
}

impl Counterparts {
    fn of(rows: &[HashMap<String, String>]) -> Counterparts {
        let mut c = Counterparts::default();
        for r in rows {
            let get = |k: &str| r.get(k).map_or("", String::as_str);
            let (kind, file, line, key) = (get("kind"), get("file"), get("line"), get("key"));
            let message = get("message");
            match kind {
                "MOD target not found" | "Exception while parsing line" => {
                    c.lines
                        .insert((kind.to_owned(), file.to_owned(), line.to_owned()));
                    if kind == "MOD target not found" {
                        c.mod_keys.insert((file.to_owned(), key.to_lowercase()));
                    }
                }
                "COPY target not found" => {
                    c.copies.insert(key.to_lowercase());
                }
                "Missing AbilityCategory" | "Invalid AbilityCategory in BONUS:ABILITYPOOL" => {
                    c.categories.insert(key.to_lowercase());
                }
                k if k.starts_with("Ignoring object") => {
                    if let Some((_, cat)) = message.rsplit_once("Category: ") {
                        c.categories.insert(cat.trim().to_lowercase());
                    }
                }
                k if k.starts_with("MOD/COPY/FORGET") => c.no_category.push(message.to_lowercase()),
                "Unknown FACT" => {
                    c.facts.insert((file.to_owned(), key.to_lowercase()));
                }
                "No objects of referred type" => {
                    c.groups
                        .insert((file.to_owned(), referred_group(key, message)));
                }
                "Unconstructed Reference" => {
                    let name = key.split_once(' ').map_or(key, |(_, n)| n);
                    c.unconstructed
                        .insert((file.to_owned(), name.to_lowercase()));
                }
                _ => {}
            }
        }
        c
    }

    /// Whether the reference error `d` has a counterpart.
    fn has(&self, d: &Finding) -> bool {
        let quoted = |i: usize| d.message.split('`').nth(i).unwrap_or("").to_lowercase();
        let line = |kind: &str| {
            self.lines
                .contains(&(kind.to_owned(), d.file.clone(), d.line.clone()))
        };
        match d.code.as_str() {
            "R0101" => {
                line("MOD target not found")
                    || self.mod_keys.contains(&(d.file.clone(), quoted(3)))
                    || self.copies.contains(&quoted(3))
            }
            "R0102" => line("Exception while parsing line"),
            "R0103" => self.categories.contains(&quoted(1)),
            "R0104" => self.no_category.iter().any(|m| m.contains(&quoted(1))),
            "R0105" => {
                let at = (d.file.clone(), quoted(1));
                self.unconstructed.contains(&at) || self.facts.contains(&at)
            }
            "R0107" => self
                .groups
                .iter()
                .any(|(file, group)| *file == d.file && d.text.contains(group.as_str())),
            _ => false,
        }
    }
}

#[test]
fn findings_match_pcgens_own_load_log() {
    let Some(shared) = shared() else {
        eprintln!("note: shared/pcgen-corpus is missing; the oracle test is skipped");
        return;
    };
    let oracle = shared.join("pcgen-oracle");
    let rows = tsv(&oracle.join("oracle.tsv"));
    let sets = tsv(&oracle.join("oracle_sets.tsv"));
    let loadsets = tsv(&oracle.join("loadsets.tsv"));
    let Some(bin) = binary() else {
        eprintln!(
            "note: the oracle test is skipped in a debug build (the whole corpus); run \
             `cargo test --release --test it oracle::`, or set RULEBOOK_CORPUS_BIN"
        );
        return;
    };
    let corpus = shared.join("pcgen-corpus");
    let all = run(&bin, &corpus, &["data".to_owned()]);

    // Precision of the reference errors: a counterpart, or a load set PCGen aborted or never
    // ran (its log has no line for it: a game mode PCGen does not have).
    let ran: BTreeSet<&str> = sets
        .iter()
        .filter_map(|s| s.get("loadset").map(String::as_str))
        .collect();
    let aborted: BTreeSet<&str> = sets
        .iter()
        .filter(|s| s.get("status").map(String::as_str) == Some("aborted"))
        .filter_map(|s| s.get("loadset").map(String::as_str))
        .chain(
            loadsets
                .iter()
                .filter_map(|l| l.get("name").map(String::as_str))
                .filter(|n| !ran.contains(n)),
        )
        .collect();
    let mut in_aborted: BTreeSet<(String, String, String, String)> = BTreeSet::new();
    // Load sets rulebook composes with a campaign the oracle's run lacked (`L0106`): PCGen's
    // rows of those alone describe another load and are not counted for recall.
    let mut recomposed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for set in loadsets
        .iter()
        .filter(|l| l.get("name").is_some_and(|n| aborted.contains(n.as_str())))
    {
        let pccs: Vec<String> = set
            .get("pccs")
            .map_or("", String::as_str)
            .split(',')
            .map(|p| format!("data/{p}"))
            .collect();
        let name = set.get("name").map_or("", String::as_str);
        for d in run(&bin, &corpus, &pccs) {
            // A campaign rulebook adds that PCGen's run of the set did not load.
            for added in d.notes.iter().filter_map(|n| n.strip_prefix("from ")) {
                if d.code == "L0106" && !pccs.iter().any(|p| p == added) {
                    recomposed
                        .entry(name.to_owned())
                        .or_default()
                        .insert(added.to_owned());
                }
            }
            in_aborted.insert((d.code, d.file, d.line, d.column));
        }
    }
    // Recall per family.
    let mut by_file: HashMap<&str, Vec<&Finding>> = HashMap::new();
    for d in &all {
        by_file.entry(d.file.as_str()).or_default().push(d);
    }
    let mut families: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut elsewhere: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        let first_cause = r.get("cascade").is_none_or(String::is_empty);
        let Some(kind) = r.get("kind").filter(|_| first_cause) else {
            continue;
        };
        if r.get("file").is_none_or(String::is_empty) {
            continue;
        }
        let only_recomposed = r
            .get("loadsets")
            .is_some_and(|l| l.split(';').all(|s| recomposed.contains_key(s)));
        if only_recomposed {
            *elsewhere.entry(kind).or_default() += 1;
            continue;
        }
        let entry = families.entry(kind).or_default();
        entry.1 += 1;
        if found(r, &by_file) {
            entry.0 += 1;
        }
    }
    let mut table = String::new();
    let (hit, total) = families
        .values()
        .fold((0, 0), |(h, t), (fh, ft)| (h + fh, t + ft));
    table.push_str(&format!(
        "PCGen's first-cause problems rulebook reports: {hit}/{total}\n"
    ));
    let mut by_size: Vec<_> = families.iter().collect();
    by_size.sort_by(|a, b| b.1.1.cmp(&a.1.1).then(a.0.cmp(b.0)));
    for (kind, (h, t)) in by_size {
        table.push_str(&format!("{kind}: {h}/{t}\n"));
    }
    for (set, added) in &recomposed {
        let added: Vec<&str> = added.iter().map(String::as_str).collect();
        table.push_str(&format!(
            "\nnot counted: load set {set}, which rulebook composes with {}\n",
            added.join(", ")
        ));
    }
    for (kind, n) in &elsewhere {
        table.push_str(&format!(
            "not counted (only in those load sets): {kind}: {n}\n"
        ));
    }
    let mut low = Vec::new();
    for (kind, floor) in FLOORS {
        let (h, t) = families.get(kind).copied().unwrap_or((0, 0));
        let share = if t == 0 { 1.0 } else { h as f64 / t as f64 };
        if share < *floor {
            low.push(format!("{kind}: {h}/{t} is below {floor}"));
        }
    }

    let counterparts = Counterparts::of(&rows);
    let mut unexplained: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut excused = 0;
    for d in all
        .iter()
        .filter(|d| d.severity == "error" && d.code.starts_with('R'))
    {
        if counterparts.has(d) {
            continue;
        }
        let key = (
            d.code.clone(),
            d.file.clone(),
            d.line.clone(),
            d.column.clone(),
        );
        if in_aborted.contains(&key) {
            excused += 1;
            continue;
        }
        unexplained
            .entry(d.code.as_str())
            .or_default()
            .push(format!("{}:{}: {}", d.file, d.line, d.message));
    }
    table.push_str(&format!(
        "\nreference errors (R01xx) only in load sets PCGen aborted or never ran: {excused}\n"
    ));
    for (code, list) in &unexplained {
        table.push_str(&format!(
            "reference errors (R01xx) without a PCGen counterpart: {code}: {}\n",
            list.len()
        ));
        for l in list {
            table.push_str(&format!("    {l}\n"));
        }
    }
    eprintln!("{table}");
    assert!(low.is_empty(), "families below their floor: {low:#?}");
    insta::assert_snapshot!(table);
}
