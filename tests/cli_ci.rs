//! `rulebook check` in a data team's CI, through the binary, each test in a scratch project
//! of its own (a PCGen root with one game mode and a dataset): the baseline
//! (`--baseline`, `--write-baseline`).

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
