//! Every loader and model diagnostic has a broken example under
//! `tests/fixtures/broken/<CODE>-<name>/` (the PCGen root of the cases is `tests/fixtures`): its
//! rendered report is an insta snapshot, and the JSON output places it at the file, line and
//! column named in the case's `expect.txt`. Every "did you mean" among them is a suggestion
//! replacing exactly the misspelt name. The example dataset in `data/handsworld` checks
//! without errors, and so does the whole `data/` folder.

use rulebook::check::check_load_set;
use rulebook::diagnostic::{Safety, Severity, render, to_json};
use rulebook::load::{DiskFs, PcgenRoot};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data")
}

/// The PCGen root of the broken examples (its `system/gameModes` holds their game modes).
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn cases() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fixtures().join("broken"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("case.pcc").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_broken_case_reports_its_code_at_the_expected_place() {
    let root = PcgenRoot::at(&DiskFs, &fixtures());
    let cases = cases();
    assert!(cases.len() >= 45, "{} cases", cases.len());
    for dir in cases {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let expect = std::fs::read_to_string(dir.join("expect.txt")).unwrap();
        let parts: Vec<&str> = expect.split_whitespace().collect();
        let [code, file, line, column] = parts[..] else {
            panic!("{name}: bad expect.txt")
        };
        let set = check_load_set(&DiskFs, &root, &[dir.join("case.pcc")]);
        let found: Vec<_> = set
            .diagnostics
            .iter()
            .map(|d| to_json(d, &set.load.sources))
            .collect();
        assert!(
            found.iter().any(|j| j.code == code
                && j.file == file
                && j.line.to_string() == line
                && j.column.to_string() == column),
            "{name}: expected {code} at {file}:{line}:{column}, got {:?}",
            found
                .iter()
                .map(|j| format!("{} {}:{}:{}", j.code, j.file, j.line, j.column))
                .collect::<Vec<_>>()
        );
        // Only the case's own files are wrong: the shared base checks clean.
        assert!(
            found.iter().all(|j| !j.file.contains("/_base/")),
            "{name}: the shared base reported {found:?}"
        );
        let report = render(&set.diagnostics, &set.load.sources, false);
        insta::assert_snapshot!(name, report);
    }
}

/// A "did you mean" is never prose alone: the finding carries the suggestion as a value, an
/// unsafe fix on its own line that replaces exactly the misspelt name (no separator or blank
/// of the token around it) with the name its help shows. The help is read here, as the
/// oracle of which findings guess; nothing in rulebook reads it.
#[test]
fn every_did_you_mean_is_a_suggestion_of_exactly_the_misspelt_name() {
    let root = PcgenRoot::at(&DiskFs, &fixtures());
    let mut seen: BTreeMap<&str, (String, String)> = BTreeMap::new();
    for dir in cases() {
        let set = check_load_set(&DiskFs, &root, &[dir.join("case.pcc")]);
        for d in &set.diagnostics {
            let Some(help) = d.help.as_deref().filter(|h| h.starts_with("did you mean")) else {
                continue;
            };
            let place = format!("{} {}: {}", dir.display(), d.code.id, d.message);
            let s = d
                .suggestion
                .as_deref()
                .unwrap_or_else(|| panic!("{place}: no suggestion"));
            assert_eq!(s.safety, Safety::Unsafe, "{place}");
            assert!(help.contains(&format!("{}`?", s.text)), "{place}: {help}");
            let file = set
                .load
                .sources
                .get(d.span.file)
                .expect("the finding's file");
            let edit = d
                .edit(&file.text)
                .unwrap_or_else(|| panic!("{place}: no edit"));
            let line = file.line_range_at(d.span.start as usize);
            assert!(
                line.start <= edit.range.start && edit.range.end <= line.end,
                "{place}: the edit is not on the finding's line"
            );
            let replaced = &file.text[edit.range.clone()];
            assert!(
                !replaced.is_empty()
                    && replaced.trim() == replaced
                    && !replaced.contains(['\t', '|', '\n'])
                    && replaced != s.text,
                "{place}: replaces `{replaced}` with `{}`",
                s.text
            );
            seen.insert(d.code.id, (replaced.to_owned(), s.text.clone()));
        }
    }
    // One of each producer among the examples: the misspelt name as written, the name
    // suggested.
    let pairs = |list: &[(&'static str, &str, &str)]| -> BTreeMap<&'static str, (String, String)> {
        list.iter()
            .map(|(code, from, to)| (*code, ((*from).to_owned(), (*to).to_owned())))
            .collect()
    };
    assert_eq!(
        seen,
        pairs(&[
            ("J0120", "RageLevle", "RageLevel"),
            ("L0104", "Handworld", "Handsworld"),
            ("M0115", "Bastrd Sword", "Bastard Sword"),
            ("M0125", "StatScor", "StatScore"),
            ("M0126", "Encumbrence", "Encumbrance"),
            ("R0101", "Figther", "Fighter"),
            ("R0105", "Clkimb", "Climb"),
            ("R0106", "Dodg", "Dodge"),
            ("R0107", "TYPE=Strenght", "TYPE=Strength"),
            ("T0110", "MODIFFY", "MODIFY"),
            ("T0112", "SKIL", "SKILL"),
        ])
    );
}

/// Checked alone (what the language server shows before the data folder is indexed), every
/// broken case reports what the full check reports, but for what needs the data folder's
/// other campaigns: the unknown old variables (`J0120`) and prerequisite keys (`R0106`).
#[test]
fn a_case_checked_alone_reports_the_full_checks_findings_but_the_data_folders() {
    use rulebook::check::{check_alone, check_load_set_cached};
    use rulebook::load::{CampaignIndex, FileCache, load_cached};
    use std::collections::BTreeSet;
    let root = PcgenRoot::at(&DiskFs, &fixtures());
    let index = CampaignIndex::build(&DiskFs, &root);
    let cache = FileCache::new();
    let found = |set: &rulebook::check::CheckedSet| -> BTreeSet<(String, String, u32)> {
        (set.diagnostics.iter())
            .map(|d| {
                let file = set.load.sources.get(d.span.file).map(|f| f.path.clone());
                (d.code.id.to_owned(), file.unwrap_or_default(), d.span.start)
            })
            .collect()
    };
    let mut left_out = BTreeSet::new();
    for dir in cases() {
        let pcc = [dir.join("case.pcc")];
        let full = found(&check_load_set_cached(&DiskFs, &root, &pcc, &index, &cache));
        let load = load_cached(&DiskFs, &root, &pcc, &index, &cache);
        let alone = found(&check_alone(load, &cache));
        assert!(
            alone.is_subset(&full),
            "{}: {alone:?} {full:?}",
            dir.display()
        );
        left_out.extend(full.difference(&alone).map(|(code, _, _)| code.clone()));
    }
    assert_eq!(
        left_out,
        BTreeSet::from(["J0120".to_owned(), "R0106".to_owned()])
    );
}

#[test]
fn handsworld_example_checks_without_errors() {
    let root = PcgenRoot::at(&DiskFs, &data());
    let set = check_load_set(&DiskFs, &root, &[data().join("handsworld/handsworld.pcc")]);
    let errors: Vec<_> = set
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| to_json(d, &set.load.sources))
        .map(|j| format!("{} {}:{} {}", j.code, j.file, j.line, j.message))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let ds = &set.dataset;
    for var in [
        "Hands",
        "HandsRequired",
        "Penalized",
        "CritMult",
        "CritMultAdder",
    ] {
        assert!(
            ds.variables.iter().any(|v| v.name.is(var)),
            "{var} is not defined"
        );
    }
    for key in ["Bastard Sword", "Lighter Than Normal", "Extra Hands"] {
        assert!(
            ds.objects.iter().any(|o| ds.key_of(o).is(key)),
            "{key} missing"
        );
    }
    // The PRIORITY 50/100 example of the spec.
    let many_arms: Vec<u32> = ds
        .objects
        .iter()
        .find(|o| ds.key_of(o).is("Many Arms"))
        .unwrap()
        .modifiers()
        .iter()
        .map(|m| ds.modifier(*m).unwrap().priority)
        .collect();
    assert_eq!(many_arms, vec![100, 50, 50]);
    // EXCLUDE on the PCC entry drops the Rusty Dagger; .COPY makes a Fine Longsword.
    assert!(!ds.objects.iter().any(|o| ds.key_of(o).is("Rusty Dagger")));
    assert!(ds.objects.iter().any(|o| ds.key_of(o).is("Fine Longsword")));
}

/// The real disk, except that reading one file fails (as an unreadable or vanished file would).
struct FailingRead {
    fails: PathBuf,
}

impl rulebook::load::FileSystem for FailingRead {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if path.ends_with(&self.fails) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "permission denied",
            ));
        }
        DiskFs.read(path)
    }
    fn is_file(&self, path: &Path) -> bool {
        DiskFs.is_file(path)
    }
    fn is_dir(&self, path: &Path) -> bool {
        DiskFs.is_dir(path)
    }
    fn files_below(&self, dir: &Path) -> Vec<PathBuf> {
        DiskFs.files_below(dir)
    }
}

/// L0103 cannot be produced by files in a repository (the loader reads as whoever runs it, and
/// CI runs as root), so its example is a file system whose read of one listed file fails.
#[test]
fn l0103_read_failure_is_reported_at_the_pcc_line_naming_the_file() {
    let fs = FailingRead {
        fails: PathBuf::from("hw_skills.lst"),
    };
    let root = PcgenRoot::at(&fs, &data());
    let set = check_load_set(&fs, &root, &[data().join("handsworld/handsworld.pcc")]);
    let failures: Vec<_> = set
        .diagnostics
        .iter()
        .filter(|d| d.code.id == "L0103")
        .collect();
    assert_eq!(failures.len(), 1, "{:?}", set.diagnostics);
    let j = to_json(failures[0], &set.load.sources);
    assert_eq!(
        (j.file.as_str(), j.line, j.column),
        ("handsworld/handsworld.pcc", 21, 7)
    );
    assert_eq!(j.severity, Severity::Error);
    let report = render(&[failures[0].clone()], &set.load.sources, false);
    insta::assert_snapshot!("L0103-read-failed", report);
}

/// A newcomer's first command in the repository, `rulebook check data`, finds no errors: the
/// broken examples live under `tests/fixtures/`, not in `data/`.
#[test]
fn the_data_folder_checks_without_errors() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["check", "data"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("\n0 errors"), "{stdout}");
    assert!(!stdout.contains("broken/"), "{stdout}");
}
