//! The editor agrees with CI (issue 33, item 1): a file is checked in every load set that
//! reads it, as `rulebook check` of each PCC would, its findings merged and labelled with
//! their load set when the sets disagree; a data file no PCC lists says so. Spoken to over
//! stdio, on temporary copies of real data (`../shared/pcgen-corpus`, which must be there).

use crate::support::lsp as lsp_client;

use lsp_client::{Client, check_json, copy_dir, temp_root, uri};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::Path;

/// `severity code line` as `check --format json` gives a finding (line 1-based).
type Finding = (String, String, u64);

/// A finding of `rulebook check --format json` as a [`Finding`].
fn json_finding(d: &Value) -> Finding {
    (
        d["severity"].as_str().unwrap().to_owned(),
        d["code"].as_str().unwrap().to_owned(),
        d["line"].as_u64().unwrap(),
    )
}

/// The findings `rulebook check PCC --format json` reports in the file `file_name`.
fn check_findings(pcc: &Path, file_name: &str) -> BTreeSet<Finding> {
    let cwd = std::env::current_dir().expect("the current folder");
    check_json(&[pcc.as_os_str()], &cwd, file_name)
        .iter()
        .map(json_finding)
        .collect()
}

/// An LSP diagnostic as a [`Finding`].
fn finding(d: &Value) -> Finding {
    let severity = match d["severity"].as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        _ => "note",
    };
    (
        severity.to_owned(),
        d["code"].as_str().unwrap().to_owned(),
        d["range"]["start"]["line"].as_u64().unwrap() + 1,
    )
}

/// The load sets a diagnostic is labelled with (none: every set reading the file finds it).
fn load_sets(d: &Value) -> Option<Vec<String>> {
    let sets = d["data"]["loadSets"].as_array()?;
    Some(
        sets.iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect(),
    )
}

/// Alien Archive 2's abilities are listed by its own PCC and, through `PCC:`, by the
/// Starfinder master loader. `check` of the book's PCC finds an M0111 at line 41 that the
/// master loader (which loads the FACTDEF) does not: the editor shows it, labelled with the
/// book's load set, and every finding of `check` of the book, no fewer and no more. The
/// book's own findings come first, before the master loader's check is in: what the book
/// alone finds, with no label.
#[test]
fn a_file_gets_the_findings_of_check_of_each_pcc_that_lists_it() {
    let corpus = lsp_client::shared_corpus();
    let root = temp_root("aa2");
    copy_dir(&corpus.join("system"), &root.join("system"));
    copy_dir(
        &corpus.join("data/starfinder"),
        &root.join("data/starfinder"),
    );
    let book = root.join("data/starfinder/paizo/alien_archive_2");
    let pcc = book.join("_starfinder_alien_archive_2.pcc");
    let loader = root.join("data/starfinder/paizo/master_loader.pcc");
    let file = book.join("saa2_abilities.lst");
    let name = "alien_archive_2/saa2_abilities.lst";
    let of_book = check_findings(&pcc, name);
    let of_loader = check_findings(&loader, name);
    let m0111 = ("error".to_owned(), "M0111".to_owned(), 41);
    assert!(of_book.contains(&m0111), "{of_book:?}");
    assert!(!of_loader.contains(&m0111), "{of_loader:?}");

    let mut c = Client::start(&root);
    let doc = uri(&file);
    let text = std::fs::read_to_string(&file).unwrap();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
    );
    let first = c.diagnostics(&doc);
    let first_found: BTreeSet<Finding> = first.iter().map(finding).collect();
    assert!(first_found.contains(&m0111), "{first:#?}");
    assert!(first_found.is_subset(&of_book), "{first:#?}");
    assert!(first.iter().all(|d| load_sets(d).is_none()), "{first:#?}");
    let diags = c.settled_diagnostics(&doc);
    let in_set = |set: &Path| -> BTreeSet<Finding> {
        let set = uri(set);
        diags
            .iter()
            .filter(|d| load_sets(d).is_none_or(|s| s.contains(&set)))
            .map(finding)
            .collect()
    };
    assert_eq!(in_set(&pcc), of_book, "{diags:#?}");
    assert_eq!(in_set(&loader), of_loader, "{diags:#?}");
    let labelled = diags
        .iter()
        .find(|d| finding(d) == m0111)
        .expect("the M0111");
    assert_eq!(load_sets(labelled), Some(vec![uri(&pcc)]));
    assert!(
        labelled["message"].as_str().unwrap().contains(
            "only in the load set of `data/starfinder/paizo/alien_archive_2/_starfinder_alien_archive_2.pcc`"
        ),
        "{labelled:#?}"
    );
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// A data file that no PCC lists gets one note saying so, naming the nearest PCC; once its
/// PCC lists it (an edit in the editor), the note goes.
#[test]
fn a_file_no_pcc_lists_says_so_and_names_the_nearest_pcc() {
    let (root, dataset) = lsp_client::handsworld("unlisted");
    let loose = dataset.join("hw_loose.lst");
    std::fs::write(&loose, "# not listed\n").unwrap();
    let pcc = std::fs::read_dir(&dataset)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "pcc"))
        .expect("the dataset's PCC");
    let mut c = Client::start(&root);
    let doc = uri(&loose);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": "# not listed\n"}}),
    );
    let diags = c.diagnostics(&doc);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "L0117");
    assert_eq!(diags[0]["severity"], 3);
    let pcc_name = pcc.file_name().unwrap().to_str().unwrap();
    let message = diags[0]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("`data/handsworld/{pcc_name}`")),
        "{message}"
    );

    let pcc_text = std::fs::read_to_string(&pcc).unwrap() + "ABILITY:hw_loose.lst\n";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri(&pcc), "languageId": "pcgen-pcc", "version": 1, "text": pcc_text}}),
    );
    let diags = c.diagnostics(&doc);
    assert!(diags.iter().all(|d| d["code"] != "L0117"), "{diags:#?}");
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// Each finding `rulebook check DIR` reports, with its file's path.
fn check_by_file(dir: &Path) -> BTreeSet<(String, Finding)> {
    check_json(&[dir.as_os_str()], dir, "")
        .iter()
        .map(|d| (d["path"].as_str().unwrap().to_owned(), json_finding(d)))
        .collect()
}

/// Each finding of a workspace report with its file's path, and the result id of each
/// file.
fn report_by_file(report: &Value) -> (BTreeSet<(String, Finding)>, Vec<Value>) {
    let mut found = BTreeSet::new();
    let mut ids = Vec::new();
    for item in report["items"].as_array().expect("the report's items") {
        let path = rulebook::lsp::uri::to_path(&item["uri"].as_str().unwrap().parse().unwrap());
        let path = path.unwrap().display().to_string();
        for d in item["items"].as_array().into_iter().flatten() {
            found.insert((path.clone(), finding(d)));
        }
        ids.push(json!({"uri": item["uri"], "value": item["resultId"]}));
    }
    (found, ids)
}

/// Workspace-wide pull diagnostics report what `rulebook check` of the data folder reports,
/// file by file, in the load sets around the open document and in the others (a homebrew
/// dataset beside the example, never opened); sent back, the result ids make each file's
/// report "unchanged"; once the homebrew's mistake is mended on disk, its file's report is
/// an empty list.
#[test]
fn the_workspace_report_is_what_check_of_the_data_folder_reports() {
    let (root, dataset) = lsp_client::handsworld("workspace-report");
    let abilities = lsp_client::homebrew(
        &root.join("data/brew"),
        "Brew Arms\tCATEGORY:Feat\tMODIFY:Hnads|ADD|1\n",
    );
    let data = root.join("data");
    let expected = check_by_file(&data);
    let in_brew = abilities.display().to_string();
    assert!(
        expected
            .iter()
            .any(|(p, (_, code, _))| *p == in_brew && code == "M0107"),
        "{expected:?}"
    );

    let mut c = Client::start(&root);
    assert_eq!(
        c.capabilities["diagnosticProvider"]["workspaceDiagnostics"],
        true
    );
    let stats = dataset.join("hw__stats.lst");
    let doc = c.open(&stats, &std::fs::read_to_string(&stats).unwrap());
    c.settled_diagnostics(&doc);
    let report = c.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let (found, ids) = report_by_file(&report);
    assert_eq!(found, expected, "{report:#}");

    let again = c.request("workspace/diagnostic", json!({"previousResultIds": ids}));
    let kinds: BTreeSet<&str> = (again["items"].as_array().unwrap().iter())
        .map(|i| i["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, BTreeSet::from(["unchanged"]), "{again:#}");

    std::fs::write(&abilities, "Brew Arms\tCATEGORY:Feat\tMODIFY:Hands|ADD|1\n").unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&abilities), "type": 2}]}),
    );
    let mended = c.request("workspace/diagnostic", json!({"previousResultIds": ids}));
    let brew_report = (mended["items"].as_array().unwrap().iter())
        .find(|i| i["uri"] == uri(&abilities))
        .expect("the mended file's report");
    assert_eq!(brew_report["kind"], "full", "{brew_report:#}");
    assert_eq!(brew_report["items"], json!([]), "{brew_report:#}");
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// A PCC edit reads that PCC again, not the data folder (issue 31: every PCC edit used to walk
/// it, `/` as root meant the whole machine): a campaign written to disk without a watched-file
/// event stays unknown after an edit of another PCC, and is known as soon as the event comes.
/// The workspace report lists every load set the server knows, so it shows a walk.
#[test]
fn a_pcc_edit_does_not_walk_the_data_folder() {
    let (root, dataset) = lsp_client::handsworld("pcc-edit-no-walk");
    let mut c = Client::start(&root);
    let pcc = dataset.join("handsworld.pcc");
    let text = std::fs::read_to_string(&pcc).unwrap();
    let doc = c.open(&pcc, &text);
    c.settled_diagnostics(&doc);

    // Written behind the server's back: no didChangeWatchedFiles.
    let brew = lsp_client::homebrew(
        &root.join("data/brew"),
        "Brew Arms\tCATEGORY:Feat\tMODIFY:Hnads|ADD|1\n",
    );
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2},
               "contentChanges": [{"text": format!("{text}# edited\n")}]}),
    );
    c.settled_diagnostics(&doc);
    let report = c.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let (found, _) = report_by_file(&report);
    let in_brew = brew.display().to_string();
    assert!(
        !found.iter().any(|(p, _)| *p == in_brew),
        "the PCC edit walked the data folder: {report:#}"
    );

    // The event makes it known: the report above could have shown it.
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&root.join("data/brew/brew.pcc")), "type": 1},
                           {"uri": uri(&brew), "type": 1}]}),
    );
    let report = c.request("workspace/diagnostic", json!({"previousResultIds": []}));
    let (found, _) = report_by_file(&report);
    assert!(
        found
            .iter()
            .any(|(p, (_, code, _))| *p == in_brew && code == "M0107"),
        "{report:#}"
    );
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}
