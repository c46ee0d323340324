//! `rulebook check` in a data team's CI, through the binary, each test in a scratch project
//! of its own (a PCGen root with one game mode and a dataset): the baseline
//! (`--baseline`, `--write-baseline`), the config file (`rulebook.toml`, `--config`) and
//! `--changed-since` in a scratch git repository (git must be installed: without it the
//! test fails).

use std::path::PathBuf;
use std::process::{Command, Output};

/// A scratch project under the system's temporary folder, removed when dropped.
struct Project(PathBuf);

/// The dataset's PCC, its data controls and its variable; `abilities.lst` is each test's.
const FILES: [(&str, &str); 4] = [
    ("system/gameModes/GM/miscinfo.lst", "ALLOWEDMODES:GM\n"),
    (
        "data/mine/mine.pcc",
        "CAMPAIGN:Mine\nGAMEMODE:GM\nDATACONTROL:controls.lst\nVARIABLE:vars.lst\n\
         ABILITY:abilities.lst\n",
    ),
    (
        "data/mine/controls.lst",
        "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\n",
    ),
    ("data/mine/vars.lst", "GLOBAL:NUMBER=Known\n"),
];

/// An ability line that is clean, and two with an unknown variable (M0107) each.
const CLEAN: &str = "One\tCATEGORY:FEAT\tMODIFY:Known|ADD|1\n";
const BROKEN: &str = "Two\tCATEGORY:FEAT\tMODIFY:Nowhere|ADD|1\n";
const BROKEN_TOO: &str = "Three\tCATEGORY:FEAT\tMODIFY:Elsewhere|ADD|1\n";

impl Project {
    /// The project `name` with `abilities` as its ability file.
    fn new(name: &str, abilities: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rulebook-ci-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let project = Project(dir);
        for (path, text) in FILES {
            project.write(path, text);
        }
        project.write("data/mine/abilities.lst", abilities);
        project
    }

    fn write(&self, path: &str, text: &str) {
        let p = self.0.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Runs `rulebook ARGS` in the project's folder.
    fn run(&self, args: &[&str]) -> Run {
        self.run_in(".", args)
    }

    /// Runs `rulebook ARGS` in the project's folder `dir`.
    fn run_in(&self, dir: &str, args: &[&str]) -> Run {
        let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .current_dir(self.0.join(dir))
            .args(args)
            .args(["--color", "never"])
            .output()
            .unwrap();
        Run(out)
    }
}

impl Drop for Project {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What a run printed, and its exit code.
struct Run(Output);

impl Run {
    fn code(&self) -> i32 {
        self.0.status.code().unwrap()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.0.stdout).into_owned()
    }
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.0.stderr).into_owned()
    }
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code(),
            self.stdout(),
            self.stderr()
        )
    }
}

/// `check data --pcgen-root . --format concise EXTRA`.
fn check<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["check", "data", "--pcgen-root", ".", "--format", "concise"];
    args.extend(extra);
    args
}

#[test]
fn a_baseline_accepts_todays_findings_and_fails_only_on_new_ones() {
    let p = Project::new("baseline", &[CLEAN, BROKEN].concat());
    let before = p.run(&check(&[]));
    assert_eq!(before.code(), 1, "{before:?}");

    let written = p.run(&check(&["--write-baseline", "baseline.json"]));
    assert_eq!(written.code(), 0, "{written:?}");
    assert_eq!(written.stdout(), "", "{written:?}");
    assert!(
        written
            .stderr()
            .contains("wrote 1 finding to the baseline baseline.json"),
        "{written:?}"
    );
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(p.0.join("baseline.json")).unwrap()).unwrap();
    assert_eq!(file["findings"][0]["code"], "M0107", "{file}");
    assert_eq!(file["findings"][0]["file"], "data/mine/abilities.lst");

    let same = p.run(&check(&["--baseline", "baseline.json"]));
    assert_eq!(same.code(), 0, "{same:?}");
    assert_eq!(same.stdout(), "");
    assert!(same.stderr().contains("1 finding accepted"), "{same:?}");

    // The baselined line moves down two lines: it still matches. A new error fails the run
    // and is the only finding reported.
    p.write(
        "data/mine/abilities.lst",
        &["# a comment\n", CLEAN, BROKEN_TOO, BROKEN].concat(),
    );
    let new = p.run(&check(&["--baseline", "baseline.json"]));
    assert_eq!(new.code(), 1, "{new:?}");
    assert_eq!(
        new.stdout(),
        "data/mine/abilities.lst:3:28: error[M0107] variable `Elsewhere` is not visible from PC\n",
        "{new:?}"
    );
    assert!(
        new.stderr().contains("1 error, 0 warnings"),
        "the totals count only what is reported: {new:?}"
    );

    // The baselined finding fixed: the run says so.
    p.write("data/mine/abilities.lst", &[CLEAN, BROKEN_TOO].concat());
    let fixed = p.run(&check(&["--baseline", "baseline.json"]));
    assert_eq!(fixed.code(), 1, "{fixed:?}");
    assert!(
        fixed
            .stderr()
            .contains("1 baselined finding is gone (fixed)"),
        "{fixed:?}"
    );
}

#[test]
fn a_baseline_that_cannot_be_read_is_a_usage_error() {
    let p = Project::new("bad-baseline", CLEAN);
    let missing = p.run(&check(&["--baseline", "nowhere.json"]));
    assert_eq!(missing.code(), 2, "{missing:?}");
    assert!(
        missing.stderr().contains("--baseline nowhere.json"),
        "{missing:?}"
    );
    p.write("old.json", r#"{"version": 9, "findings": []}"#);
    let old = p.run(&check(&["--baseline", "old.json"]));
    assert_eq!(old.code(), 2, "{old:?}");
    assert!(old.stderr().contains("version 9"), "{old:?}");
}

#[test]
fn the_config_file_is_found_upward_and_gives_the_run_its_settings() {
    let p = Project::new("config", &[CLEAN, BROKEN].concat());
    p.write(
        "rulebook.toml",
        "pcgen-root = \".\"\ndata = [\"data\"]\nformat = \"concise\"\n",
    );
    // From a folder below, with no PATH and no flag: the file's root, data and format.
    let run = p.run_in("data/mine", &["check"]);
    assert_eq!(run.code(), 1, "{run:?}");
    assert_eq!(
        run.stdout(),
        "abilities.lst:2:26: error[M0107] variable `Nowhere` is not visible from PC\n",
        "{run:?}"
    );
    // A flag beats the file.
    let json = p.run(&["check", "--format", "json"]);
    assert!(json.stdout().starts_with('{'), "{json:?}");

    // The baseline named in the file is the one compared with.
    p.write(
        "rulebook.toml",
        "pcgen-root = \".\"\ndata = [\"data\"]\nbaseline = \"b.json\"\n",
    );
    let written = p.run(&["check", "--write-baseline", "b.json"]);
    assert_eq!(written.code(), 0, "{written:?}");
    let run = p.run(&["check"]);
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stderr().contains("1 finding accepted"), "{run:?}");
}

#[test]
fn the_config_file_allows_and_denies_per_code_and_per_path() {
    let p = Project::new("config-paths", &[CLEAN, BROKEN].concat());
    // An unused variable is a note (M0120): denied for every file, allowed for vars.lst.
    p.write(
        "data/mine/vars.lst",
        "GLOBAL:NUMBER=Known\nGLOBAL:NUMBER=Unused\n",
    );
    let base = "pcgen-root = \".\"\ndata = [\"data\"]\nformat = \"concise\"\n";
    p.write("rulebook.toml", &format!("{base}deny = [\"M0120\"]\n"));
    let denied = p.run(&["check"]);
    assert!(denied.stdout().contains("error[M0120]"), "{denied:?}");
    p.write(
        "rulebook.toml",
        &format!(
            "{base}deny = [\"M0120\"]\n[[paths]]\nglob = \"data/**/vars.lst\"\n\
             allow = [\"unused-variable\"]\n"
        ),
    );
    let allowed = p.run(&["check"]);
    assert!(!allowed.stdout().contains("M0120"), "{allowed:?}");
    assert!(allowed.stdout().contains("error[M0107]"), "{allowed:?}");
}

#[test]
fn extra_roots_let_a_pcc_name_homebrew_outside_the_pcgen_root() {
    let p = Project::new("config-roots", CLEAN);
    // The PCGen root is pcgen/; the homebrew beside it is named through ../../../brew/.
    for (path, text) in FILES {
        p.write(&format!("pcgen/{path}"), text);
    }
    p.write("pcgen/data/mine/abilities.lst", CLEAN);
    p.write("brew/feats.lst", BROKEN);
    p.write(
        "pcgen/data/mine/mine.pcc",
        &format!("{}ABILITY:../../../brew/feats.lst\n", FILES[1].1),
    );
    let refused = p.run(&[
        "check",
        "pcgen/data",
        "--pcgen-root",
        "pcgen",
        "--format",
        "concise",
    ]);
    assert!(refused.stdout().contains("[L0114]"), "{refused:?}");
    p.write(
        "rulebook.toml",
        "pcgen-root = \"pcgen\"\nextra-roots = [\"brew\"]\n",
    );
    let read = p.run(&["check", "pcgen/data", "--format", "concise"]);
    assert!(!read.stdout().contains("[L0114]"), "{read:?}");
    assert!(read.stdout().contains("error[M0107]"), "{read:?}");
}

#[test]
fn a_config_problem_is_reported_at_its_place_with_a_guess() {
    let p = Project::new("config-errors", CLEAN);
    p.write("rulebook.toml", "pcgen-root = \".\"\npcgen-rot = \"x\"\n");
    let unknown = p.run(&["check", "data"]);
    assert_eq!(unknown.code(), 2, "{unknown:?}");
    insta::assert_snapshot!("config_unknown_key", unknown.stderr());
    p.write(
        "rulebook.toml",
        "[[paths]]\nglob = \"data/\"\ndeny = [\"M0107x\"]\n",
    );
    let code = p.run(&["check", "data"]);
    assert_eq!(code.code(), 2, "{code:?}");
    insta::assert_snapshot!("config_unknown_code", code.stderr());
    // --config names a file anywhere; one that is not there is a usage error.
    p.write("elsewhere/settings.toml", "format = \"sarf\"\n");
    let named = p.run(&["check", "data", "--config", "elsewhere/settings.toml"]);
    assert_eq!(named.code(), 2, "{named:?}");
    assert!(
        named.stderr().contains("did you mean `sarif`?"),
        "{named:?}"
    );
    let missing = p.run(&["check", "data", "--config", "nowhere.toml"]);
    assert_eq!(missing.code(), 2, "{missing:?}");
    assert!(missing.stderr().contains("config file"), "{missing:?}");
}

/// Runs `git ARGS` in the project's folder; fails the test when git fails or is missing.
fn git(p: &Project, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(&p.0)
        .args([
            "-c",
            "user.name=rulebook",
            "-c",
            "user.email=rulebook@example.invalid",
        ])
        .args(args)
        .output()
        .expect("git is installed");
    assert!(out.status.success(), "git {args:?}: {out:?}");
}

#[test]
fn changed_since_reports_the_load_sets_of_changed_files_and_labels_the_rest() {
    let p = Project::new("changed", &[CLEAN, BROKEN].concat());
    // A second dataset with an error of its own, untouched throughout.
    for (path, text) in &FILES[1..] {
        p.write(&path.replace("mine", "other"), text);
    }
    p.write("data/other/abilities.lst", BROKEN_TOO);
    git(&p, &["init", "-q", "."]);
    git(&p, &["add", "-A"]);
    git(&p, &["commit", "-q", "-m", "data"]);
    let args = ["check", "data", "--pcgen-root", ".", "--format", "json"];
    let json = |run: &Run| -> serde_json::Value {
        serde_json::from_str(&run.stdout()).unwrap_or_else(|e| panic!("{e}: {run:?}"))
    };

    // Nothing changed: nothing reported, exit 0.
    let none = p.run(&[&args[..], &["--changed-since", "HEAD"]].concat());
    assert_eq!(none.code(), 0, "{none:?}");
    assert!(
        none.stderr().contains("no load set reads a file changed"),
        "{none:?}"
    );

    // A new error in mine/abilities.lst: mine's findings, not other's.
    p.write(
        "data/mine/abilities.lst",
        &[CLEAN, BROKEN, BROKEN_TOO].concat(),
    );
    let run = p.run(&[&args[..], &["--changed-since", "HEAD"]].concat());
    assert_eq!(run.code(), 1, "{run:?}");
    let out = json(&run);
    let found: Vec<(&str, &str)> = out["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["file"].as_str().unwrap(), d["message"].as_str().unwrap()))
        .collect();
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found.iter().all(|(f, _)| *f == "data/mine/abilities.lst"),
        "{found:?}"
    );
    assert!(
        out["diagnostics"][0]["notes"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{out}"
    );

    // Committed, then only the variables file changes: the ability file's findings are still
    // reported (the load set reads a changed file), each with a note saying why.
    git(&p, &["commit", "-q", "-am", "more"]);
    p.write("data/mine/vars.lst", "GLOBAL:NUMBER=Known\n# touched\n");
    let run = p.run(&[&args[..], &["--changed-since", "HEAD"]].concat());
    assert_eq!(run.code(), 1, "{run:?}");
    let out = json(&run);
    let first = &out["diagnostics"][0];
    assert_eq!(first["file"], "data/mine/abilities.lst", "{out}");
    assert_eq!(
        first["notes"][0],
        "not in a file changed since HEAD: reported because its load set also reads \
         data/mine/vars.lst, which changed"
    );
    assert!(
        run.stderr()
            .contains("1 load set reads a changed file; 2 findings are outside"),
        "{run:?}"
    );

    // A new file in the working tree counts as changed; a revision git does not know is a
    // usage error.
    p.write("data/other/new.lst", "# new\n");
    p.write(
        "data/other/other.pcc",
        "CAMPAIGN:Other\nGAMEMODE:GM\nDATACONTROL:controls.lst\nVARIABLE:vars.lst\n\
         ABILITY:abilities.lst\nABILITY:new.lst\n",
    );
    let run = p.run(&[&args[..], &["--changed-since", "HEAD"]].concat());
    assert!(run.stderr().contains("2 load sets read"), "{run:?}");
    let bad = p.run(&[&args[..], &["--changed-since", "no-such-rev"]].concat());
    assert_eq!(bad.code(), 2, "{bad:?}");
    assert!(bad.stderr().contains("bad revision"), "{bad:?}");

    // With a baseline, the findings of the load sets left out are not counted as gone.
    let written = p.run(&[&args[..], &["--write-baseline", "b.json"]].concat());
    assert_eq!(written.code(), 0, "{written:?}");
    git(&p, &["add", "-A"]);
    git(&p, &["commit", "-q", "-m", "baseline"]);
    p.write("data/mine/vars.lst", "GLOBAL:NUMBER=Known\n");
    let both = [
        &args[..],
        &["--changed-since", "HEAD", "--baseline", "b.json"],
    ]
    .concat();
    let run = p.run(&both);
    assert_eq!(run.code(), 0, "{run:?}");
    assert!(run.stderr().contains("accepted, not reported"), "{run:?}");
    assert!(!run.stderr().contains("gone"), "{run:?}");
}
