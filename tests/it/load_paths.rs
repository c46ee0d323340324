//! Paths a PCC names, on a real disk (temporary PCGen roots): files outside the root are not
//! read, in every path form and through links; folder walks report what they cannot walk
//! and do not follow links out; a folder, FIFO or UTF-16 file listed as an LST is reported
//! for what it is.

use rulebook::load::{DiskFs, OutsideRoot, PcgenRoot, load, selectable_pccs};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder under the system's temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("rulebook-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    fn write(&self, rel: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, bytes).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("u+rwx")
            .arg(&self.0)
            .status();
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A PCGen root under `t/pc` with one game mode, and a secret file beside it (outside).
fn pcgen_root(t: &TempDir) -> PcgenRoot {
    t.write("pc/system/gameModes/GM/miscinfo.lst", "ALLOWEDMODES:GM\n");
    t.write("outside/secret.lst", "SECRET LINE\tKEY:x\n");
    t.write("pc/data/ok/inside.lst", "Inside\tKEY:y\n");
    PcgenRoot::at(&DiskFs, &t.0.join("pc"))
}

fn pcc(t: &TempDir, lines: &str) -> PathBuf {
    t.write(
        "pc/data/ds/ds.pcc",
        format!("CAMPAIGN:DS\nGAMEMODE:GM\n{lines}"),
    )
}

/// (code, line) of each diagnostic, and whether any source read holds the secret.
fn outcome(root: &PcgenRoot, pcc: &Path) -> (Vec<(String, usize)>, bool) {
    let set = load(&DiskFs, root, &[pcc.to_path_buf()]);
    let found = set
        .diagnostics
        .iter()
        .map(|d| {
            let f = set.sources.get(d.span.file).unwrap();
            (d.code.id.to_owned(), f.line_col(d.span.range().start).0)
        })
        .collect();
    let leaked = set.sources.iter().any(|(_, f)| f.text.contains("SECRET"));
    (found, leaked)
}

#[test]
fn every_path_form_leading_out_of_the_root_is_refused_at_its_pcc_line() {
    let t = TempDir::new("escape");
    let root = pcgen_root(&t);
    let secret = t.0.join("outside/secret.lst");
    pcc(&t, "");
    std::os::unix::fs::symlink(&secret, t.0.join("pc/data/ds/link.lst")).unwrap();
    std::os::unix::fs::symlink(t.0.join("outside"), t.0.join("pc/data/ds/dirlink")).unwrap();
    let forms = [
        format!("ABILITY:{}", secret.display()),
        "ABILITY:../../../outside/secret.lst".to_owned(),
        r"ABILITY:..\..\..\outside\secret.lst".to_owned(),
        "ABILITY:@/../../outside/secret.lst".to_owned(),
        r"ABILITY:@\..\..\outside\secret.lst".to_owned(),
        "ABILITY:*/../../outside/secret.lst".to_owned(),
        "ABILITY:link.lst".to_owned(),
        "ABILITY:dirlink/secret.lst".to_owned(),
        "PCC:../../../outside/secret.lst".to_owned(),
        "ABILITY:/etc/passwd".to_owned(),
    ];
    for form in &forms {
        let p = pcc(&t, &format!("{form}\nABILITY:../ok/inside.lst\n"));
        let (found, leaked) = outcome(&root, &p);
        assert_eq!(found, vec![("L0114".to_owned(), 3)], "{form}");
        assert!(!leaked, "{form}: the outside file was read");
    }
    // `--allow-outside-root` reads them.
    let allowed = root.clone().with_outside(OutsideRoot::Allow);
    let p = pcc(
        &t,
        "ABILITY:../../../outside/secret.lst\nABILITY:link.lst\n",
    );
    let (found, leaked) = outcome(&allowed, &p);
    assert!(found.is_empty(), "{found:?}");
    assert!(leaked);
}

#[test]
fn check_refuses_outside_files_unless_allowed_on_the_command_line() {
    let t = TempDir::new("cli-escape");
    pcgen_root(&t);
    let p = pcc(&t, "ABILITY:../../../outside/secret.lst\n");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_rulebook"))
            .arg("check")
            .arg(&p)
            .arg("--pcgen-root")
            .arg(t.0.join("pc"))
            .args(extra)
            .output()
            .unwrap()
    };
    let refused = run(&[]);
    let out = String::from_utf8_lossy(&refused.stdout);
    assert_eq!(refused.status.code(), Some(1), "{out}");
    assert!(out.contains("L0114"), "{out}");
    assert!(!out.contains("SECRET"), "{out}");
    let allowed = run(&["--allow-outside-root"]);
    let out = String::from_utf8_lossy(&allowed.stdout);
    assert!(!out.contains("L0114"), "{out}");
}

#[test]
fn folder_walks_do_not_follow_links_out_and_report_them() {
    let t = TempDir::new("walk");
    pcgen_root(&t);
    pcc(&t, "");
    std::os::unix::fs::symlink("/", t.0.join("pc/data/ds/rootlink")).unwrap();
    std::os::unix::fs::symlink("..", t.0.join("pc/data/ds/up")).unwrap();
    let problems = selectable_pccs(&DiskFs, &t.0.join("pc/data/ds")).problems;
    let mut names: Vec<String> = problems
        .iter()
        .map(|p| p.path.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, vec!["rootlink", "up"]);
    // A link to a file inside the folder is that file; a link to a folder inside is walked
    // where it is (no duplicates).
    std::fs::remove_file(t.0.join("pc/data/ds/rootlink")).unwrap();
    std::fs::remove_file(t.0.join("pc/data/ds/up")).unwrap();
    std::os::unix::fs::symlink(t.0.join("pc/data/ok"), t.0.join("pc/data/ds/okdir")).unwrap();
    let walk = selectable_pccs(&DiskFs, &t.0.join("pc/data"));
    assert!(walk.problems.is_empty(), "{:?}", walk.problems);
    assert_eq!(walk.files, vec![t.0.join("pc/data/ds/ds.pcc")]);
}

#[test]
fn an_unreadable_sub_folder_is_reported_not_dropped() {
    let t = TempDir::new("unreadable");
    pcgen_root(&t);
    pcc(&t, "");
    t.write("pc/data/locked/hidden.pcc", "CAMPAIGN:H\nGAMEMODE:GM\n");
    let locked = t.0.join("pc/data/locked");
    Command::new("chmod")
        .arg("000")
        .arg(&locked)
        .status()
        .unwrap();
    if std::fs::read_dir(&locked).is_ok() {
        // Running as root: permissions do not stop a read, so nothing can be unreadable.
        return;
    }
    let walk = selectable_pccs(&DiskFs, &t.0.join("pc/data"));
    let problems = walk.problems;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].path.ends_with("locked"), "{problems:?}");
}

/// The walk's errors are reported even where permissions stop nobody (tests run as root): a
/// folder whose path is longer than the system allows (`ENAMETOOLONG`) cannot be read by
/// anyone, and its PCCs must not vanish silently from the check.
#[test]
fn a_sub_folder_the_walk_cannot_read_is_reported_even_as_root() {
    let t = TempDir::new("toodeep");
    pcgen_root(&t);
    pcc(&t, "");
    // 20 levels of 250-byte names: over PATH_MAX (4,096 bytes). Built bottom-up by renames of
    // short paths, as creating the deepest folder by its full path would fail.
    let name = |i: usize| format!("{i:02}{}", "d".repeat(248));
    let scratch = t.0.join("scratch");
    std::fs::create_dir_all(scratch.join(name(19))).unwrap();
    std::fs::write(
        scratch.join(name(19)).join("deep.pcc"),
        "CAMPAIGN:Deep\nGAMEMODE:GM\n",
    )
    .unwrap();
    for i in (0..19).rev() {
        std::fs::create_dir(scratch.join(name(i))).unwrap();
        std::fs::rename(
            scratch.join(name(i + 1)),
            scratch.join(name(i)).join(name(i + 1)),
        )
        .unwrap();
    }
    std::fs::rename(scratch.join(name(0)), t.0.join("pc/data/deep")).unwrap();
    let walk = selectable_pccs(&DiskFs, &t.0.join("pc/data"));
    // The other dataset is still found.
    assert_eq!(walk.files, vec![t.0.join("pc/data/ds/ds.pcc")]);
    let problems = walk.problems;
    assert!(!problems.is_empty());
    assert!(
        problems
            .iter()
            .all(|p| p.path.starts_with(t.0.join("pc/data/deep"))),
        "{problems:?}"
    );
}

#[test]
fn a_folder_or_fifo_listed_as_an_lst_is_reported_for_what_it_is() {
    let t = TempDir::new("fifo");
    let root = pcgen_root(&t);
    std::fs::create_dir_all(t.0.join("pc/data/ds/folder.lst")).unwrap();
    let fifo = t.0.join("pc/data/ds/pipe.lst");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let p = pcc(
        &t,
        "ABILITY:folder.lst\nABILITY:pipe.lst\nABILITY:gone.lst\n",
    );
    let set = load(&DiskFs, &root, &[p]);
    let found: Vec<(&str, &str)> = set
        .diagnostics
        .iter()
        .map(|d| (d.code.id, d.message.as_str()))
        .collect();
    assert_eq!(
        found,
        vec![
            ("L0103", "ABILITY file `data/ds/folder.lst` is a folder"),
            (
                "L0103",
                "ABILITY file `data/ds/pipe.lst` is not a regular file (a device, pipe or socket)"
            ),
            ("L0102", "ABILITY file `data/ds/gone.lst` does not exist"),
        ]
    );
}

#[test]
fn a_utf16_file_without_bom_is_recognised_and_its_errors_still_reported() {
    let t = TempDir::new("utf16");
    let root = pcgen_root(&t);
    let text = "GLOBAL:NUMBER=Hands\nGLOBAL:NUMBR=Typo\n";
    let utf16: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    t.write("pc/data/ds/vars.lst", utf16);
    t.write("pc/data/ds/dc.lst", "DEFAULTVARIABLEVALUE:NUMBER|0\n");
    let p = pcc(&t, "DATACONTROL:dc.lst\nVARIABLE:vars.lst\n");
    let set = rulebook::check::check_load_set(&DiskFs, &root, &[p]);
    let codes: Vec<(&str, String)> = set
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code.id,
                set.load.sources.get(d.span.file).unwrap().path.clone(),
            )
        })
        .collect();
    let l0101 = set
        .diagnostics
        .iter()
        .find(|d| d.code.id == "L0101")
        .expect("L0101");
    assert_eq!(
        l0101.message,
        "file is UTF-16LE (no byte-order mark), not UTF-8: PCGen reads no line of it as written"
    );
    assert!(l0101.is_error());
    // The unknown format on line 2 is found: the text was decoded, not mangled.
    assert!(
        codes
            .iter()
            .any(|(c, f)| *c == "M0102" && f == "data/ds/vars.lst"),
        "{codes:?}"
    );
}
