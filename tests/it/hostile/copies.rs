//! Item 2: a chain of `.COPY=` lines, each copy carrying every earlier one's modifiers, is
//! capped (`M0131`) instead of growing memory with the square of its length.

use super::cli;
use super::data;
use rulebook::check::check_load_set;
use rulebook::diagnostic::render;
use rulebook::load::{DiskFs, PcgenRoot};
use std::time::Duration;

/// `C0`, then `C{i}.COPY=C{i+1}` for `i < n`, each with one MODIFY.
fn chain(n: usize) -> String {
    let mut text = "C0\tKEY:C0\tMODIFY:HandsRequired|ADD|1\n".to_owned();
    for i in 0..n {
        text.push_str(&format!(
            "C{i}.COPY=C{}\tMODIFY:HandsRequired|ADD|1\n",
            i + 1
        ));
    }
    text
}

#[test]
fn a_chain_of_copies_is_capped_not_quadratic() {
    let root = data::handsworld("copies");
    let pcc = data::add_file(&root, "EQUIPMENT", "chain.lst", &chain(4000));
    let run = cli::run(
        &[
            "check",
            pcc.to_str().unwrap(),
            "--format",
            "concise",
            "--quiet",
        ],
        1_000_000,
        Duration::from_secs(60),
    );
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout.matches("error[M0131]").count(),
        1,
        "{}",
        run.stdout
    );

    let fs = DiskFs;
    let at = PcgenRoot::find(&fs, &pcc).unwrap();
    let set = check_load_set(&fs, &at, &[pcc]);
    let found: Vec<_> = set
        .diagnostics
        .iter()
        .filter(|d| d.code.id == "M0131")
        .cloned()
        .collect();
    assert_eq!(found.len(), 1);
    let report = render(&found, &set.load.sources, false);
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!("M0131-copy-limit", report);
    });
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn a_short_chain_copies_everything() {
    let root = data::handsworld("copies-short");
    let pcc = data::add_file(&root, "EQUIPMENT", "chain.lst", &chain(100));
    let fs = DiskFs;
    let at = PcgenRoot::find(&fs, &pcc).unwrap();
    let set = check_load_set(&fs, &at, &[pcc]);
    assert!(!set.diagnostics.iter().any(|d| d.code.id == "M0131"));
    let ds = &set.dataset;
    let last = ds.objects.iter().find(|o| ds.key_of(o).is("C100")).unwrap();
    assert_eq!(last.modifiers().len(), 101);
    std::fs::remove_dir_all(&root).unwrap();
}
