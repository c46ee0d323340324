//! Terminal conventions of the `rulebook` command (issue 11) and hostile output (issue 14:
//! bounded, windowed reports; escaped control bytes; device and FIFO arguments): colour under
//! a pseudo-terminal, the terminal's width, a closed pipe, long lines, paths from a
//! subfolder, exit codes, `--deny`/`--allow`/`--quiet`, completions, man pages and help.
//! Every dataset is written by the test into a temporary PCGen root.

use crate::support::text;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_rulebook")
}

/// A temporary PCGen root: the Handsworld game mode, and `data/set/` holding the shared base
/// files of the broken examples, `set.pcc` listing them and `files`.
struct Root(PathBuf);

impl Root {
    fn new(name: &str, files: &[(&str, &str)], pcc_lines: &[&str]) -> Root {
        let dir = std::env::temp_dir().join(format!("rulebook-term-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let modes = dir.join("system/gameModes/Handsworld");
        std::fs::create_dir_all(&modes).unwrap();
        for f in ["miscinfo.lst", "codeControl.lst"] {
            std::fs::copy(
                fixtures.join("system/gameModes/Handsworld").join(f),
                modes.join(f),
            )
            .unwrap();
        }
        let set = dir.join("data/set");
        std::fs::create_dir_all(&set).unwrap();
        let base = fixtures.join("broken/_base");
        let mut pcc = String::from("CAMPAIGN:Set\nKEY:Set\nGAMEMODE:Handsworld\n");
        for (kind, f) in [
            ("DATACONTROL", "base__datacontrols.lst"),
            ("DATATABLE", "base__datatables.lst"),
            ("VARIABLE", "base__variables.lst"),
            ("DYNAMIC", "base__dynamic.lst"),
            ("GLOBALMODIFIER", "base__globalmodifiers.lst"),
        ] {
            std::fs::copy(base.join(f), set.join(f)).unwrap();
            pcc.push_str(&format!("{kind}:{f}\n"));
        }
        for line in pcc_lines {
            pcc.push_str(line);
            pcc.push('\n');
        }
        std::fs::write(set.join("set.pcc"), pcc).unwrap();
        for (name, text) in files {
            std::fs::write(set.join(name), text).unwrap();
        }
        Root(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }

    fn set(&self) -> PathBuf {
        self.0.join("data/set")
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs rulebook in `dir` with `args`, the colour variables of the test's own environment
/// removed and `env` set.
fn run_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(bin());
    cmd.current_dir(dir)
        .args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR")
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied());
    cmd.output().unwrap()
}

const ESC: char = '\u{1b}';

/// An equipment file with one unknown variable (an error) in the middle of a line of about
/// `len` characters (the rest is SOURCEPAGE text, which is not checked).
fn long_line(len: usize) -> String {
    let head = "Club\tPART:1|MODIFY:Damage|SET|1d6\t";
    let token = "MODIFY:Nosuch|ADD|1";
    let pad = len.saturating_sub(head.len() + token.len() + 30) / 2;
    format!(
        "{head}SOURCEPAGE:{}\t{token}\tSOURCEPAGE:{}\n",
        "p".repeat(pad),
        "q".repeat(pad)
    )
}

#[cfg(unix)]
mod pty {
    use std::fs::File;
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::path::Path;
    use std::process::{Command, Stdio};

    /// Runs rulebook with its standard output and error on a pseudo-terminal of `cols`
    /// columns; what it wrote there.
    pub fn run(dir: &Path, args: &[&str], env: &[(&str, &str)], cols: u16) -> String {
        let (mut master, mut slave) = (-1, -1);
        let size = libc::winsize {
            ws_row: 50,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        // SAFETY: openpty writes two new descriptors, which are then owned below.
        let rc = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                &size,
            )
        };
        assert_eq!(rc, 0, "openpty failed");
        // SAFETY: both descriptors were just opened and are owned by nothing else.
        let (master, slave) =
            unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
        let mut child = Command::new(super::bin())
            .current_dir(dir)
            .args(args)
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR")
            .env_remove("CLICOLOR_FORCE")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave))
            .spawn()
            .unwrap();
        let mut out = Vec::new();
        let mut reader = File::from(master);
        let mut buf = [0u8; 4096];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break, // EIO once the child closed the terminal
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
        child.wait().unwrap();
        String::from_utf8_lossy(&out).replace("\r\n", "\n")
    }
}

#[cfg(unix)]
#[test]
fn colour_follows_the_terminal_no_color_and_the_flag() {
    let root = Root::new(
        "colour",
        &[("eq.lst", &long_line(60))],
        &["EQUIPMENT:eq.lst"],
    );
    let dir = root.set();
    let args = ["check", "."];
    let auto = pty::run(&dir, &args, &[], 120);
    assert!(
        auto.contains(ESC),
        "a terminal is coloured by default:\n{auto}"
    );
    assert!(auto.contains("[M0107]"), "{auto}");
    let no_color = pty::run(&dir, &args, &[("NO_COLOR", "1")], 120);
    assert!(!no_color.contains(ESC), "NO_COLOR is honoured:\n{no_color}");
    assert!(no_color.contains("[M0107]"), "{no_color}");
    let never = pty::run(&dir, &["check", ".", "--color", "never"], &[], 120);
    assert!(!never.contains(ESC), "--color never:\n{never}");
    let always = pty::run(
        &dir,
        &["check", ".", "--color", "always"],
        &[("NO_COLOR", "1")],
        120,
    );
    assert!(always.contains(ESC), "the flag beats NO_COLOR:\n{always}");
    // Not a terminal: plain, unless forced.
    let piped = run_in(&dir, &args, &[]);
    assert!(!text(&piped.stdout).contains(ESC));
    let forced = run_in(&dir, &args, &[("CLICOLOR_FORCE", "1")]);
    assert!(text(&forced.stdout).contains(ESC));
}

#[cfg(unix)]
#[test]
fn reports_fit_the_terminal_width() {
    let root = Root::new(
        "width",
        &[("eq.lst", &long_line(4_000))],
        &["EQUIPMENT:eq.lst"],
    );
    let shown = pty::run(&root.set(), &["check", ".", "--color", "never"], &[], 80);
    assert!(shown.contains("[M0107]"), "{shown}");
    for line in shown.lines() {
        assert!(line.chars().count() <= 80, "wider than 80 columns: {line}");
    }
}

#[test]
fn a_4000_character_line_is_windowed_to_120_columns() {
    let root = Root::new(
        "window",
        &[("eq.lst", &long_line(4_000))],
        &["EQUIPMENT:eq.lst"],
    );
    let out = run_in(root.path(), &["check", "data"], &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{report}");
    for line in report.lines() {
        assert!(line.chars().count() <= 120, "wider than 120: {line}");
    }
    // The header names the true column, and the label sits under the token.
    let line = std::fs::read_to_string(root.set().join("eq.lst")).unwrap();
    let col = line.find("Nosuch").unwrap() + 1;
    assert!(
        report.contains(&format!("data/set/eq.lst:1:{col}")),
        "{report}"
    );
    let excerpt: Vec<&str> = report.lines().filter(|l| l.starts_with(" 1 │")).collect();
    assert_eq!(excerpt.len(), 1, "{report}");
    assert!(excerpt[0].contains("...") && excerpt[0].contains("MODIFY:Nosuch|ADD|1"));
    insta::assert_snapshot!("windowed_4000_character_line", report);
}

#[test]
fn a_report_with_labels_on_two_long_lines_is_windowed_on_both() {
    // M0103: the first definition and the redefinition, far apart and far right on their
    // lines of one file: one section, headed by the redefinition, each line windowed.
    let pad = "x".repeat(300);
    let vars = format!(
        "GLOBAL:NUMBER=Arms\tEXPLANATION:{pad}\n\n\n\nGLOBAL:BOOLEAN=Arms\tEXPLANATION:{pad}\n"
    );
    let root = Root::new("twolines", &[("vars.lst", &vars)], &["VARIABLE:vars.lst"]);
    let out = run_in(root.path(), &["check", "data", "--allow", "M0120"], &[]);
    let report = text(&out.stdout);
    for line in report.lines() {
        assert!(line.chars().count() <= 120, "wider than 120: {line}");
    }
    assert_eq!(
        report.matches("─[ data/set/vars.lst").count(),
        1,
        "{report}"
    );
    assert!(report.contains("─[ data/set/vars.lst:5:"), "{report}");
    insta::assert_snapshot!("windowed_two_lines_one_file", report);
}

#[test]
fn a_long_line_with_many_findings_gives_a_bounded_report() {
    // 1,000 unknown variables on one 200 KB line: each report shows a window, not the line.
    let mut line = String::from("Club");
    for i in 0..1_000 {
        line.push_str(&format!(
            "\tMODIFY:Nosuch{i}|ADD|1\t{}",
            "FACT:Pad|x".repeat(18)
        ));
    }
    line.push('\n');
    assert!(line.len() > 200_000);
    let root = Root::new("bounded", &[("eq.lst", &line)], &["EQUIPMENT:eq.lst"]);
    let out = run_in(root.path(), &["check", "data"], &[]);
    let report = text(&out.stdout);
    let found = report.matches("[M0107]").count();
    assert_eq!(found, 1_000, "{}", &report[..report.len().min(2_000)]);
    assert!(
        report.len() < found * 2_000,
        "{} bytes for {found} reports",
        report.len()
    );
}

#[test]
fn control_bytes_from_data_are_escaped() {
    let eq = "Evil\u{1b}]0;PWNED\u{7}\u{1b}[2J\tMODIFY:Nosuch|ADD|1\n";
    let root = Root::new("escape", &[("eq.lst", eq)], &["EQUIPMENT:eq.lst"]);
    let out = run_in(root.path(), &["check", "data", "--color", "never"], &[]);
    let report = text(&out.stdout);
    assert!(report.contains("[M0107]"), "{report}");
    assert!(
        !report.contains(ESC) && !report.contains('\u{7}'),
        "{report:?}"
    );
    assert!(
        report.contains("Evil\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J"),
        "{report}"
    );
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    // Far more output than a pipe buffer (64 KiB): the reader stops after a few bytes.
    let mut eq = String::new();
    for i in 0..600 {
        eq.push_str(&format!("Club{i}\tMODIFY:Nosuch{i}|ADD|1\n"));
    }
    let root = Root::new("pipe", &[("eq.lst", &eq)], &["EQUIPMENT:eq.lst"]);
    let mut child = Command::new(bin())
        .current_dir(root.path())
        .args(["check", "data"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn paths_are_relative_to_the_current_folder_and_json_has_both() {
    let root = Root::new(
        "paths",
        &[("eq.lst", "Club\tMODIFY:Nosuch|ADD|1\n")],
        &["EQUIPMENT:eq.lst"],
    );
    let out = run_in(&root.set(), &["check", "."], &[]);
    let report = text(&out.stdout);
    assert!(report.contains("─[ eq.lst:1:13 ]"), "{report}");
    // From above the root, a path from there; JSON keeps the root-relative file.
    let out = run_in(root.path(), &["check", "data/set", "--format", "json"], &[]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let d = &json["diagnostics"][0];
    assert_eq!(d["file"], "data/set/eq.lst");
    let abs = std::fs::canonicalize(root.set().join("eq.lst")).unwrap();
    let path = PathBuf::from(d["path"].as_str().unwrap());
    assert_eq!(std::fs::canonicalize(path).unwrap(), abs);
    // A file outside the current folder is shown by its absolute path.
    let elsewhere = root.path().join("data/other");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let out = run_in(&elsewhere, &["check", "../set"], &[]);
    let report = text(&out.stdout);
    let cwd = std::fs::canonicalize(&elsewhere).unwrap();
    let shown = format!(
        "─[ {}/eq.lst:1:13 ]",
        cwd.parent().unwrap().join("set").display()
    );
    assert!(report.contains(&shown), "{shown} in\n{report}");
}

#[test]
fn exit_codes_and_the_deny_allow_quiet_flags() {
    let clean = Root::new("clean", &[], &[]);
    let out = run_in(clean.path(), &["check", "data"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(text(&out.stdout).contains("0 errors, 0 warnings, 0 notes"));
    // A warning (M0113) and a note (M0120).
    let warn = Root::new(
        "warn",
        &[
            ("eq.lst", "Club\tPART:1|MODIFY:Hands|ADD|1\n"),
            ("vars.lst", "GLOBAL:NUMBER=Forgotten\n"),
        ],
        &["EQUIPMENT:eq.lst", "VARIABLE:vars.lst"],
    );
    let dir = warn.path();
    let out = run_in(dir, &["check", "data"], &[]);
    let report = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{report}");
    assert!(
        report.contains("0 errors, 1 warning, 1 note in"),
        "{report}"
    );
    let out = run_in(dir, &["check", "data", "--deny", "warnings"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("[M0113] Error"));
    let out = run_in(dir, &["check", "data", "--deny", "m0120"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let out = run_in(
        dir,
        &["check", "data", "--allow", "M0120", "--allow", "M0113"],
        &[],
    );
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("0 errors, 0 warnings, 0 notes"));
    let out = run_in(dir, &["check", "data", "--quiet"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    let out = run_in(dir, &["check", "data", "-q", "--deny", "warnings"], &[]);
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(
        shown.contains("[M0113]") && !shown.contains("[M0120]"),
        "{shown}"
    );
    // Usage errors: exit 2 with a message.
    for (args, says) in [
        (
            &["check", "data", "--allow", "bogus"][..],
            "--allow `bogus`",
        ),
        (&["check", "nothing-here"][..], "no such file or folder"),
        (&["check", "data/set/eq.lst"][..], "not a .pcc file"),
        (
            &["check", "data", "--pcgen-root", "data"][..],
            "no system/gameModes folder",
        ),
        (
            &["eval", "1+1", "--as", "NUMBR"][..],
            "did you mean NUMBER?",
        ),
    ] {
        let out = run_in(dir, args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn a_folder_without_a_selectable_pcc_is_reported_and_skipped() {
    let root = Root::new(
        "skip",
        &[("eq.lst", "Club\tMODIFY:Nosuch|ADD|1\n")],
        &["EQUIPMENT:eq.lst"],
    );
    let empty = root.path().join("data/empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run_in(root.path(), &["check", "data/set", "data/empty"], &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the other folder is still checked"
    );
    assert!(text(&out.stdout).contains("[M0107]"));
    assert!(
        text(&out.stderr).contains("data/empty; skipped"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(root.path(), &["check", "data/empty"], &[]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn eval_reads_dice_constants() {
    let out = run_in(Path::new("."), &["eval", "1d6", "--as", "DICE"], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).trim(), "1d6");
}

#[cfg(unix)]
#[test]
fn devices_fifos_and_folders_are_refused_as_file_arguments() {
    let root = Root::new("devices", &[], &[]);
    let pcc = root.set().join("set.pcc");
    let pcc = pcc.to_str().unwrap();
    let fifo = root.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let fifo = fifo.to_str().unwrap();
    let folder = root.path().to_str().unwrap();
    for (args, says) in [
        (
            vec!["calc", pcc, "--character", "/dev/zero"],
            "not a regular file",
        ),
        (vec!["calc", pcc, "--character", fifo], "not a regular file"),
        (vec!["calc", pcc, "--character", folder], "is a folder"),
        (
            vec!["dialect", "icc", "1", "--context", "/dev/zero"],
            "not a regular file",
        ),
        (
            vec!["dialect", "icc", "1", "--context", fifo],
            "not a regular file",
        ),
        (vec!["conformance", "/dev/zero"], "not a regular file"),
        (vec!["conformance", fifo], "not a regular file"),
    ] {
        let out = run_in(root.path(), &args, &[]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn completions_man_pages_and_help_examples() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = run_in(here, &["completions", "bash"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("rulebook"));
    let out = run_in(here, &["man", "check"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let page = text(&out.stdout);
    assert!(
        page.contains(".TH") && page.contains("rulebook\\-check"),
        "{page}"
    );
    for cmd in [
        "check",
        "eval",
        "calc",
        "explain",
        "graph",
        "dialect",
        "conformance",
    ] {
        let out = run_in(here, &[cmd, "--help"], &[]);
        let help = text(&out.stdout);
        assert!(
            help.contains("Example"),
            "{cmd} --help has no example:\n{help}"
        );
        assert!(help.contains("--color"), "{cmd} --help lacks --color");
    }
}

#[test]
fn explain_takes_a_local_variable_named_as_calc_prints_it() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let args = [
        "explain",
        "data/handsworld/handsworld.pcc",
        "--character",
        "data/sample-character.toml",
        "DEX.Mod",
    ];
    let out = run_in(here, &args, &[]);
    let shown = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(shown.starts_with("DEX.Mod = 1\n"), "{shown}");
    // The modifier's file is named from the current folder.
    assert!(
        shown.contains("at data/handsworld/hw__stats.lst:2"),
        "{shown}"
    );
    let out = run_in(here, &[&args[..4], &["DEX.Nothing"]].concat(), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("STR.Mod"),
        "{}",
        text(&out.stderr)
    );
}
