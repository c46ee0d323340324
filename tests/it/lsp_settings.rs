//! The editor is told where PCGen is (issue 33, item 2): `initializationOptions`,
//! `workspace/didChangeConfiguration` and `rulebook.toml`, read as `rulebook check` reads its
//! flags and the file. A homebrew folder outside the PCGen install gets what `rulebook
//! check` of it reports with the same settings. Spoken to over stdio, on temporary copies of
//! the project's own dataset.

use crate::support::lsp as lsp_client;

use lsp_client::{Client, check_json, copy_dir, temp_root, uri};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A PCGen install (`pcgen/`: the Handsworld game mode and dataset) and beside it a
/// homebrew folder (`brew/`) whose ability modifies a misspelt variable of the install.
fn install_and_homebrew(name: &str) -> (PathBuf, PathBuf) {
    let root = temp_root(name);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    copy_dir(&data.join("system"), &root.join("pcgen/system"));
    copy_dir(
        &data.join("handsworld"),
        &root.join("pcgen/data/handsworld"),
    );
    let brew = root.join("brew");
    lsp_client::homebrew(
        &brew,
        "Brew Arms\tCATEGORY:Feat\tMODIFY:Hnads|ADD|1\tMODIFYOTHER:PC.MOVEMENT|Walk|Speed|ADD|10\n",
    );
    (root, brew)
}

/// `code line` of each finding `rulebook check` reports in `file_name` (line 1-based).
fn check_findings(args: &[&str], cwd: &Path, file_name: &str) -> BTreeSet<(String, u64)> {
    let args: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
    check_json(&args, cwd, file_name)
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// What `rulebook check` reports in the homebrew file of [`install_and_homebrew`]'s `root`
/// with a config file naming the install as the root and the homebrew as an extra root.
fn checked_with_config(root: &Path) -> BTreeSet<(String, u64)> {
    let ci = root.join("ci");
    std::fs::create_dir_all(&ci).unwrap();
    std::fs::write(
        ci.join("rulebook.toml"),
        "pcgen-root = \"../pcgen\"\nextra-roots = [\"../brew\"]\n",
    )
    .unwrap();
    let expected = check_findings(
        &["../brew", "--config", "rulebook.toml"],
        &ci,
        "brew_abilities.lst",
    );
    assert!(expected.contains(&("M0107".to_owned(), 1)), "{expected:?}");
    expected
}

/// `code line` of LSP diagnostics.
fn lsp_findings(diags: &[Value]) -> BTreeSet<(String, u64)> {
    diags
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["range"]["start"]["line"].as_u64().unwrap() + 1,
            )
        })
        .collect()
}

fn open(c: &mut Client, file: &Path) -> String {
    let doc = uri(file);
    let text = std::fs::read_to_string(file).unwrap();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
    );
    doc
}

/// The root and extra roots given as `initializationOptions` (relative to the editor's
/// folder): the homebrew file gets what `check` gets with the same root and extra roots in
/// a config file; a new `allow` from `didChangeConfiguration` hides a note; a word naming no
/// code is shown to the user.
#[test]
fn initialization_options_and_configuration_changes_say_where_pcgen_is() {
    let (root, brew) = install_and_homebrew("settings");
    let expected = checked_with_config(&root);

    let options = json!({"pcgenRoot": "../pcgen", "extraRoots": ["."]});
    let mut c = Client::start_configured(&brew, json!({}), options.clone());
    let doc = open(&mut c, &brew.join("brew_abilities.lst"));
    let diags = c.diagnostics(&doc);
    assert_eq!(lsp_findings(&diags), expected, "{diags:#?}");
    let unknown = diags.iter().find(|d| d["code"] == "M0107").unwrap();
    assert!(
        unknown["message"].as_str().unwrap().contains("`Hands`"),
        "the install's variable is suggested: {unknown:#?}"
    );
    let pcc = uri(&brew.join("brew.pcc"));
    let on_pcc = c.diagnostics(&pcc);
    assert!(on_pcc.iter().any(|d| d["code"] == "L0106"), "{on_pcc:#?}");

    let mut allowed = options.clone();
    allowed["allow"] = json!(["L0106"]);
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"rulebook": allowed}}),
    );
    assert!(c.diagnostics(&pcc).is_empty());

    let mut wrong = options;
    wrong["deny"] = json!(["no-such-code"]);
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"rulebook": wrong}}),
    );
    let message = c.shown_message();
    assert!(message.contains("no-such-code"), "{message}");
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// Without settings, the nearest `rulebook.toml` above the editor's folder names the root
/// and the extra roots, as it does for `rulebook check` run there.
#[test]
fn rulebook_toml_says_where_pcgen_is() {
    let (root, brew) = install_and_homebrew("toml");
    std::fs::write(
        root.join("rulebook.toml"),
        "pcgen-root = \"pcgen\"\nextra-roots = [\"brew\"]\n",
    )
    .unwrap();
    let expected = check_findings(&["brew"], &root, "brew_abilities.lst");
    assert!(expected.contains(&("M0107".to_owned(), 1)), "{expected:?}");
    let mut c = Client::start(&brew);
    let doc = open(&mut c, &brew.join("brew_abilities.lst"));
    let diags = c.diagnostics(&doc);
    assert_eq!(lsp_findings(&diags), expected, "{diags:#?}");
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// A client that keeps the settings itself and answers `workspace/configuration` is asked
/// for the `rulebook` section of the editor's folder at the start, and again when it says
/// the settings changed without sending them (`didChangeConfiguration` with null): its
/// answers apply as `initializationOptions` and sent settings do.
#[test]
fn settings_are_pulled_from_a_client_that_keeps_them() {
    let (root, brew) = install_and_homebrew("pulled");
    let expected = checked_with_config(&root);

    let mut c = Client::start_with(&brew, json!({"workspace": {"configuration": true}}));
    let asked = c.server_request("workspace/configuration");
    let item = &asked["params"]["items"][0];
    assert_eq!(item["section"], "rulebook", "{asked}");
    assert_eq!(item["scopeUri"], uri(&brew), "{asked}");
    let settings = json!({"pcgenRoot": "../pcgen", "extraRoots": ["."]});
    c.respond(&asked, json!([settings]));
    let doc = open(&mut c, &brew.join("brew_abilities.lst"));
    let diags = c.settled_diagnostics(&doc);
    assert_eq!(lsp_findings(&diags), expected, "{diags:#?}");
    let pcc = uri(&brew.join("brew.pcc"));
    assert!(
        c.settled_diagnostics(&pcc)
            .iter()
            .any(|d| d["code"] == "L0106"),
        "the homebrew's PCC has its note"
    );

    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": null}),
    );
    let asked = c.server_request("workspace/configuration");
    let mut allowed = settings;
    allowed["allow"] = json!(["L0106"]);
    c.respond(&asked, json!([allowed]));
    assert!(c.settled_diagnostics(&pcc).is_empty());
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}
