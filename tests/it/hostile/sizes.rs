//! Item 4: a data file larger than any real one is not read: `L0116` at the PCC line that
//! lists it.

use super::cli;
use super::data;
use rulebook::check::check_load_set;
use rulebook::diagnostic::render;
use rulebook::load::{DiskFs, PcgenRoot};
use std::time::Duration;

/// A dataset whose PCC lists a sparse 1 GiB LST (it takes no room on disk).
fn huge_lst(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let root = data::root(name);
    let dir = root.join("data/huge");
    std::fs::create_dir_all(&dir).unwrap();
    let pcc = dir.join("huge.pcc");
    std::fs::write(&pcc, data::pcc(&["SKILL:huge.lst"])).unwrap();
    let file = std::fs::File::create(dir.join("huge.lst")).unwrap();
    file.set_len(1 << 30).unwrap();
    (root, pcc)
}

#[test]
fn a_one_gigabyte_lst_is_refused_without_being_read() {
    let (root, pcc) = huge_lst("huge");
    let root_arg = root.to_str().unwrap();
    let run = cli::run(
        &[
            "check",
            pcc.to_str().unwrap(),
            "--pcgen-root",
            root_arg,
            "--format",
            "concise",
        ],
        1_000_000,
        Duration::from_secs(30),
    );
    assert_eq!(run.code, Some(1), "{} {}", run.stdout, run.stderr);
    assert!(run.took < Duration::from_secs(10), "{:?}", run.took);
    assert!(
        run.stdout.contains("huge.pcc:4:7: error[L0116]"),
        "{}",
        run.stdout
    );

    let root = PcgenRoot::at(&DiskFs, &root);
    let set = check_load_set(&DiskFs, &root, &[pcc]);
    let found: Vec<_> = set
        .diagnostics
        .iter()
        .filter(|d| d.code.id == "L0116")
        .cloned()
        .collect();
    assert_eq!(found.len(), 1, "{:?}", set.diagnostics);
    let report = render(&found, &set.load.sources, false);
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!("L0116-file-too-large", report);
    });
    std::fs::remove_dir_all(&root.root).unwrap();
}
