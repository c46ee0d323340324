//! `rulebook lsp` spoken to over stdio, as an editor does: initialize, open a file with a
//! mistyped variable, fix it, and ask for hover, definition, references, completion, a code
//! action and document symbols; then shut down. Runs on a temporary copy of the project's
//! own dataset (`data/handsworld`) and of Starfinder Core from `../shared/pcgen` (which
//! must be there).

use crate::support::lsp as lsp_client;

use lsp_client::{Client, copy_dir, pos, temp_root, uri};
use serde_json::{Value, json};
use std::path::Path;

/// The whole editor session on `stats` (a file with `MODIFY:Mod|SET|d20Mod(Score)`) below
/// the workspace `root`.
fn session(root: &Path, stats: &Path) {
    let text = std::fs::read_to_string(stats).unwrap();
    let doc = uri(stats);
    let mut c = Client::start(root);

    // A mistyped variable: the error's range is the name.
    let at = text.find("d20Mod(Score)").expect("a d20Mod(Score) formula") + "d20Mod(".len();
    let typo = format!("{}Scroe{}", &text[..at], &text[at + 5..]);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": typo}}),
    );
    let diags = c.diagnostics(&doc);
    let unknown: Vec<&Value> = diags.iter().filter(|d| d["code"] == "F0101").collect();
    assert_eq!(unknown.len(), 1, "{diags:#?}");
    let d = unknown[0];
    assert_eq!(d["range"]["start"], pos(&typo, at));
    assert_eq!(d["range"]["end"], pos(&typo, at + 5));
    assert_eq!(d["severity"], 1);
    assert!(
        d["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("errors.md#f0101-unknown-variable"),
        "{d}"
    );

    // Hover on the misspelt name: the finding and its suggestion.
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": pos(&typo, at + 2)}),
    );
    let value = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(value.contains("did you mean `Score`?"), "{hover}");
    assert!(value.starts_with("`F0101` "), "{hover}");
    assert_eq!(hover["range"], d["range"]);

    // The code action replaces the name with the suggestion.
    let actions = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": doc}, "range": d["range"], "context": {"diagnostics": [d]}}),
    );
    let fix = &actions[0];
    assert_eq!(fix["title"], "Replace with `Score`");
    let edit = &fix["edit"]["changes"][&doc][0];
    assert_eq!(edit["newText"], "Score");
    assert_eq!(edit["range"], d["range"]);

    // Fixed: the error is gone.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": doc, "version": 2}, "contentChanges": [{"text": text}]}),
    );
    let diags = c.diagnostics(&doc);
    assert!(diags.iter().all(|d| d["code"] != "F0101"), "{diags:#?}");

    // Hover on the variable: format, scope and where it is defined.
    let score = text.find("MODIFY:Score").unwrap() + "MODIFY:".len();
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, score + 2)}),
    );
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("**Score**: `NUMBER` variable in scope `PC.STAT`"),
        "{value}"
    );
    assert!(value.contains("defined at data/"), "{value}");
    assert_eq!(hover["range"]["start"], pos(&text, score));

    // Workspace symbols: the variable by part of its name, first, at its definition.
    let found = c.request("workspace/symbol", json!({"query": "scor"}));
    let first = &found.as_array().expect("a list of symbols")[0];
    assert_eq!(first["name"], "Score", "{found:#}");
    assert_eq!(first["kind"], 13, "a variable: {first:#}");
    assert!(
        lsp_client::line_of(&first["location"]).contains("NUMBER=Score"),
        "{first:#}"
    );

    // Definition: the LOCAL line of the VARIABLE file.
    let def = c.request(
        "textDocument/definition",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, score + 1)}),
    );
    let def_path =
        rulebook::lsp::uri::to_path(&def["uri"].as_str().unwrap().parse().unwrap()).unwrap();
    let def_text = std::fs::read_to_string(&def_path).unwrap();
    let line = def["range"]["start"]["line"].as_u64().unwrap() as usize;
    let def_line = def_text.lines().nth(line).unwrap();
    assert!(
        def_line.contains("LOCAL:PC.STAT|NUMBER=Score"),
        "{def_line}"
    );

    // References: the definition and the uses in the stats file.
    let refs = c.request(
        "textDocument/references",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, score + 1), "context": {"includeDeclaration": true}}),
    );
    let refs = refs.as_array().unwrap();
    assert!(refs.iter().any(|r| r["uri"] == def["uri"]), "{refs:#?}");
    let in_stats = refs.iter().filter(|r| r["uri"] == doc).count();
    assert!(in_stats >= 2, "{refs:#?}");

    // Completion in a MODIFY target: variables of the stat scope, by prefix.
    let completion = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, score + 2)}),
    );
    let labels: Vec<&str> = completion
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert!(labels.contains(&"Score"), "{labels:?}");
    assert!(
        labels
            .iter()
            .all(|l| l.to_ascii_lowercase().starts_with("sc")),
        "{labels:?}"
    );

    // Modifier kinds after the target.
    let kind_at = score + "Score|".len();
    let completion = c.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, kind_at)}),
    );
    let labels: Vec<&str> = completion
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["ADD", "DIVIDE", "MAX", "MIN", "MULTIPLY", "SET"]);

    // Document symbols: the stats.
    let symbols = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": doc}}),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Strength"), "{names:?}");

    c.shutdown();
}

#[test]
fn an_editor_session_on_the_example_dataset() {
    let root = temp_root("handsworld");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    copy_dir(
        &data.join("handsworld"),
        &root.join("data").join("handsworld"),
    );
    copy_dir(&data.join("system"), &root.join("system"));
    session(&root, &root.join("data/handsworld/hw__stats.lst"));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn an_editor_session_on_starfinder_core() {
    let shared = lsp_client::shared_pcgen();
    let core = shared.join("data/starfinder/paizo/core");
    let root = temp_root("starfinder");
    copy_dir(&core, &root.join("data/starfinder/paizo/core"));
    copy_dir(
        &shared.join("system/gameModes/Starfinder"),
        &root.join("system/gameModes/Starfinder"),
    );
    session(
        &root,
        &root.join("data/starfinder/paizo/core/scr__stats.lst"),
    );
    std::fs::remove_dir_all(&root).unwrap();
}

/// A client that can register file watchers is asked to watch the data files (clients only
/// report changes on disk to a server that asked), and a file changed outside the editor is
/// read again: the open document's findings follow it.
#[test]
fn data_files_changed_on_disk_are_watched_and_rechecked() {
    let (root, dataset) = lsp_client::handsworld("watched");
    let mut c = Client::start_with(
        &root,
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}),
    );

    // The server asks to watch every PCC and LST file.
    let stats = dataset.join("hw__stats.lst");
    let doc = uri(&stats);
    let text = std::fs::read_to_string(&stats).unwrap();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
    );
    let diags = c.diagnostics(&doc);
    assert!(diags.is_empty(), "{diags:#?}");
    let i = c
        .notifications
        .iter()
        .position(|m| m["method"] == "client/registerCapability")
        .expect("a client/registerCapability request");
    let register = c.notifications.remove(i);
    let registration = &register["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    let globs: Vec<&str> = registration["registerOptions"]["watchers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    assert_eq!(
        globs,
        ["**/*.[pP][cC][cC]", "**/*.[lL][sS][tT]", "**/rulebook.toml"]
    );
    c.send(json!({"jsonrpc": "2.0", "id": register["id"], "result": null}));

    // `Score` renamed in the variables file, on disk (not in the editor): the open stats
    // file now reads an unknown variable, once the client reports the change.
    let variables = dataset.join("hw__variables.lst");
    let before = std::fs::read_to_string(&variables).unwrap();
    let after = before.replace(
        "LOCAL:PC.STAT|NUMBER=Score\n",
        "LOCAL:PC.STAT|NUMBER=Points\n",
    );
    assert_ne!(before, after);
    std::fs::write(&variables, after).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri(&variables), "type": 2}]}),
    );
    let diags = c.diagnostics(&doc);
    assert!(
        diags.iter().any(|d| d["code"] == "F0101"),
        "the stats file reads `Score`, now undefined: {diags:#?}"
    );

    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// In a PCC, each file entry and `PCC:` include links to the file it names.
#[test]
fn pcc_file_entries_are_document_links() {
    let (root, dataset) = lsp_client::handsworld("links");
    let pcc = dataset.join("handsworld.pcc");
    let text = std::fs::read_to_string(&pcc).unwrap();
    let mut c = Client::start(&root);
    let doc = uri(&pcc);
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-pcc", "version": 1, "text": text}}),
    );
    let links = c.request(
        "textDocument/documentLink",
        json!({"textDocument": {"uri": doc}}),
    );
    let links = links.as_array().expect("a list of links");
    let stats = links
        .iter()
        .find(|l| l["target"] == uri(&dataset.join("hw__stats.lst")))
        .unwrap_or_else(|| panic!("a link to hw__stats.lst: {links:#?}"));
    let at = text.find("STAT:hw__stats.lst").unwrap() + "STAT:".len();
    assert_eq!(stats["range"]["start"], pos(&text, at));
    assert_eq!(
        stats["range"]["end"],
        pos(&text, at + "hw__stats.lst".len())
    );
    let entries = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(".lst"))
        .count();
    assert_eq!(links.len(), entries, "{links:#?}");
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// A class with its level lines, a run of `.MOD` lines and a comment block fold.
#[test]
fn classes_mod_runs_and_comment_blocks_fold() {
    let root = temp_root("folding");
    let file = root.join("classes.lst");
    let text = "# Classes\n# of the book\nCLASS:Fighter\tHD:10\n1\tBONUS:VAR|A|1\n2\tBONUS:VAR|A|2\n\
                \nDodge.MOD\tTYPE:General\nPower Attack.MOD\tTYPE:General\n";
    std::fs::write(&file, text).unwrap();
    let mut c = Client::start(&root);
    let doc = c.open(&file, text);
    let ranges = c.request(
        "textDocument/foldingRange",
        json!({"textDocument": {"uri": doc}}),
    );
    let got: Vec<(u64, u64, Value)> = ranges
        .as_array()
        .expect("folding ranges")
        .iter()
        .map(|r| {
            (
                r["startLine"].as_u64().unwrap(),
                r["endLine"].as_u64().unwrap(),
                r.get("kind").cloned().unwrap_or(Value::Null),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (0, 1, json!("comment")),
            (2, 4, Value::Null),
            (6, 7, Value::Null)
        ]
    );
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// The semantic tokens of a line as `(line, column, length, type, modifiers)`, decoded.
fn semantic_tokens(c: &mut Client, doc: &str) -> Vec<(u64, u64, u64, u64, u64)> {
    let result = c.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": {"uri": doc}}),
    );
    let data: Vec<u64> = result["data"]
        .as_array()
        .expect("semantic tokens")
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let (mut line, mut col) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                col = 0;
            }
            line += t[0];
            col += t[1];
            (line, col, t[2], t[3], t[4])
        })
        .collect()
}

/// Semantic tokens: an object's name, token names (a deprecated one marked), and in a
/// formula token the variables the load set knows and the numbers, in the legend's types.
#[test]
fn semantic_tokens_mark_names_tokens_variables_and_deprecated_tokens() {
    let (root, dataset) = lsp_client::handsworld("semantic");
    let mut c = Client::start(&root);
    let legend = c.capabilities["semanticTokensProvider"]["legend"].clone();
    assert_eq!(legend["tokenModifiers"], json!(["deprecated"]));
    let type_of = |name: &str| {
        legend["tokenTypes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|t| t == name)
            .unwrap_or_else(|| panic!("{name} in the legend {legend}")) as u64
    };

    let abilities = dataset.join("hw_abilities.lst");
    let text = std::fs::read_to_string(&abilities).unwrap();
    let doc = c.open(&abilities, &text);
    c.diagnostics(&doc);
    let tokens = semantic_tokens(&mut c, &doc);
    // Line 1: `Improved Critical⇥CATEGORY:Feat⇥MODIFYOTHER:PC.EQUIPMENT|ALL|CritMultAdder|ADD|1`.
    let line: Vec<_> = tokens.iter().filter(|t| t.0 == 1).collect();
    assert_eq!(*line[0], (1, 0, 17, type_of("class"), 0), "{line:?}");
    assert_eq!(*line[1], (1, 18, 8, type_of("keyword"), 0), "{line:?}");
    assert_eq!(*line[2], (1, 32, 11, type_of("keyword"), 0), "{line:?}");
    let at = text.lines().nth(1).unwrap().find("CritMultAdder").unwrap() as u64;
    assert!(
        line.contains(&&(1, at, 13, type_of("variable"), 0)),
        "{line:?}"
    );
    assert_eq!(line.last().unwrap().3, type_of("number"), "{line:?}");
    assert_eq!(tokens[0].3, type_of("comment"), "{tokens:?}");

    // PREFEAT on a RACE line: PCGen reads it, deprecated.
    let races = dataset.join("hw_races.lst");
    let text = std::fs::read_to_string(&races).unwrap().replacen(
        "\tKEY:Human",
        "\tKEY:Human\tPREFEAT:1,Dodge",
        1,
    );
    let doc = c.open(&races, &text);
    c.diagnostics(&doc);
    let tokens = semantic_tokens(&mut c, &doc);
    let line_no = text.lines().position(|l| l.contains("PREFEAT")).unwrap() as u64;
    let col = text
        .lines()
        .nth(line_no as usize)
        .unwrap()
        .find("PREFEAT")
        .unwrap() as u64;
    assert!(
        tokens.contains(&(line_no, col, 7, type_of("keyword"), 1)),
        "{tokens:?}"
    );
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// Rename: a variable across its definition and every formula reading it, each edit over
/// the old name; a key two objects share is refused with the reason.
#[test]
fn a_variable_is_renamed_everywhere_and_an_ambiguous_key_is_refused() {
    let (root, dataset) = lsp_client::handsworld("rename");
    let stats = dataset.join("hw__stats.lst");
    let text = std::fs::read_to_string(&stats).unwrap();
    let mut c = Client::start(&root);
    let doc = c.open(&stats, &text);
    c.diagnostics(&doc);
    let at = text.find("d20Mod(Score)").unwrap() + "d20Mod(".len() + 1;
    let prepared = c.request(
        "textDocument/prepareRename",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, at)}),
    );
    assert_eq!(prepared["placeholder"], "Score", "{prepared}");
    let edit = c.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, at), "newName": "Points"}),
    );
    let changes = edit["changes"].as_object().expect("changes by file");
    let variables = uri(&dataset.join("hw__variables.lst"));
    assert!(changes.contains_key(&variables), "the definition: {edit:#}");
    let mut edits = 0;
    for (file, list) in changes {
        let path = rulebook::lsp::uri::to_path(&file.parse().unwrap()).unwrap();
        let on_disk = std::fs::read_to_string(&path).unwrap();
        for e in list.as_array().unwrap() {
            assert_eq!(e["newText"], "Points");
            let line = on_disk
                .lines()
                .nth(e["range"]["start"]["line"].as_u64().unwrap() as usize)
                .unwrap();
            let (from, to) = (
                e["range"]["start"]["character"].as_u64().unwrap() as usize,
                e["range"]["end"]["character"].as_u64().unwrap() as usize,
            );
            assert!(line[from..to].eq_ignore_ascii_case("Score"), "{line}: {e}");
            edits += 1;
        }
    }
    assert!(
        edits > text.matches("(Score)").count(),
        "{edits} edits: {edit:#}"
    );

    // A skill keyed like an ability: which one a use means is not known.
    let skills = dataset.join("hw_skills.lst");
    let text = std::fs::read_to_string(&skills).unwrap() + "Fleet\tKEYSTAT:DEX\n";
    let doc = c.open(&skills, &text);
    c.diagnostics(&doc);
    let at = text.rfind("Fleet").unwrap() + 1;
    let refused = c.answer(
        "textDocument/rename",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, at), "newName": "Swift"}),
    );
    assert_eq!(refused["error"]["code"], -32803, "{refused}");
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("key of 2 objects"),
        "{refused}"
    );
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}

/// A global no character can change (set only by GLOBALMODIFIER lines): its value as an
/// inlay hint at the end of its line and in its hover; a global objects change gets neither.
#[test]
fn values_the_data_alone_decides_are_shown_as_inlay_hints_and_in_hovers() {
    let (root, dataset) = lsp_client::handsworld("decided");
    let globals = dataset.join("hw__globalmodifiers.lst");
    let text = std::fs::read_to_string(&globals).unwrap();
    let mut c = Client::start(&root);
    let doc = c.open(&globals, &text);
    c.diagnostics(&doc);
    let lines = text.lines().count();
    let hints = c.request(
        "textDocument/inlayHint",
        json!({"textDocument": {"uri": doc}, "range": {"start": {"line": 0, "character": 0}, "end": {"line": lines, "character": 0}}}),
    );
    let hints = hints.as_array().expect("inlay hints");
    let reach = text
        .lines()
        .position(|l| l.starts_with("MODIFY:Reach|"))
        .unwrap();
    let hint = hints
        .iter()
        .find(|h| h["position"]["line"] == reach)
        .unwrap_or_else(|| panic!("a hint on the Reach line: {hints:#?}"));
    assert_eq!(hint["label"], "Reach = 5,5", "{hint:#}");
    assert_eq!(
        hint["position"]["character"],
        text.lines().nth(reach).unwrap().len()
    );
    // `Hands` is changed by a feat (`Many Arms`), `Face` by a size: no value is known.
    for changed in ["MODIFY:Hands|", "MODIFY:Face|"] {
        let line = text.lines().position(|l| l.starts_with(changed)).unwrap();
        assert!(
            hints.iter().all(|h| h["position"]["line"] != line),
            "{hints:#?}"
        );
    }
    let at = text.find("MODIFY:Reach").unwrap() + "MODIFY:".len() + 1;
    let hover = c.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": doc}, "position": pos(&text, at)}),
    );
    let value = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        value.contains("value `5,5`: decided by the data alone"),
        "{hover}"
    );
    c.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}
