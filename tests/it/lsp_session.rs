//! The language server's session: what is published after an edit. Another file whose
//! findings change is republished; an unchanged one is not; unused variables carry the
//! `Unnecessary` tag; secondary labels become related locations. On a temporary copy of the
//! example dataset.

use lsp_types::{DiagnosticTag, NumberOrString};
use rulebook::lsp::requests;
use rulebook::lsp::session::{Publish, Session};
use std::path::{Path, PathBuf};

/// A temporary copy of the project's example dataset as a PCGen root.
fn dataset(name: &str) -> PathBuf {
    crate::support::lsp::handsworld(name).0
}

fn find<'a>(published: &'a [Publish], file: &Path) -> Option<&'a Publish> {
    published.iter().find(|p| p.path == file)
}

fn has_code(p: &Publish, code: &str) -> bool {
    p.diagnostics
        .iter()
        .any(|d| d.code == Some(NumberOrString::String(code.to_owned())))
}

#[test]
fn an_edit_republishes_exactly_the_files_whose_findings_changed() {
    let root = dataset("others");
    let vars = root.join("data/handsworld/hw__variables.lst");
    let stats = root.join("data/handsworld/hw__stats.lst");
    let equip = root.join("data/handsworld/hw_equip.lst");
    let text = std::fs::read_to_string(&vars).unwrap();
    let mut s = Session::new(Some(&root));
    let first = s.open(&vars, &text, 1);
    // On open: the opened file, and the files that have findings (hw_equip.lst's M0113).
    assert!(find(&first, &vars).is_some());
    assert!(find(&first, &equip).is_some_and(|p| has_code(p, "M0113")));
    assert!(
        find(&first, &stats).is_none(),
        "hw__stats.lst has no findings"
    );

    // Renaming Score breaks the stats file: it is republished with F0101; hw_equip.lst's
    // findings are unchanged, so it is not.
    let renamed = text.replace("LOCAL:PC.STAT|NUMBER=Score", "LOCAL:PC.STAT|NUMBER=Scorx");
    let after = s.change(&vars, &renamed, 2);
    assert!(
        find(&after, &stats).is_some_and(|p| has_code(p, "F0101")),
        "{after:#?}"
    );
    assert!(find(&after, &equip).is_none());

    // Undone: the stats file is cleared with an empty list.
    let undone = s.change(&vars, &text, 3);
    assert!(find(&undone, &stats).is_some_and(|p| p.diagnostics.is_empty()));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn unused_variables_are_unnecessary_and_labels_are_related_locations() {
    let root = dataset("tags");
    let vars = root.join("data/handsworld/hw__variables.lst");
    let text = std::fs::read_to_string(&vars).unwrap();
    let mut s = Session::new(Some(&root));
    s.open(&vars, &text, 1);
    let edited = format!("{text}GLOBAL:NUMBER=NeverUsed\nGLOBAL:BOOLEAN=Hands\n");
    let published = s.change(&vars, &edited, 2);
    let p = find(&published, &vars).unwrap();
    let unused = p
        .diagnostics
        .iter()
        .find(|d| d.code == Some(NumberOrString::String("M0120".into())))
        .expect("M0120 on NeverUsed");
    assert_eq!(
        unused.tags.as_deref(),
        Some(&[DiagnosticTag::UNNECESSARY][..])
    );
    let conflict = p
        .diagnostics
        .iter()
        .find(|d| d.code == Some(NumberOrString::String("M0103".into())))
        .expect("M0103 on the BOOLEAN Hands");
    let related = conflict
        .related_information
        .as_ref()
        .expect("related locations");
    assert!(
        related[0]
            .location
            .uri
            .as_str()
            .ends_with("hw__variables.lst")
    );
    // The first definition, `GLOBAL:NUMBER=Hands` on line 2 (0-based 1).
    assert_eq!(related[0].location.range.start.line, 1);
    std::fs::remove_dir_all(&root).unwrap();
}

/// The request parameters for `text` of `file` at the first `needle`, `skip` bytes in.
fn at(file: &Path, text: &str, needle: &str, skip: usize) -> serde_json::Value {
    let i = text.find(needle).expect("needle") + skip;
    let before = &text[..i];
    let line = before.matches('\n').count();
    let col = before[before.rfind('\n').map_or(0, |n| n + 1)..]
        .encode_utf16()
        .count();
    serde_json::json!({
        "textDocument": {"uri": rulebook::lsp::uri::from_path(file).unwrap().as_str()},
        "position": {"line": line, "character": col},
    })
}

fn hover_text(s: &Session, p: serde_json::Value) -> String {
    let h = requests::hover(&s.snapshot(), &serde_json::from_value(p).unwrap()).expect("hover");
    match h.contents {
        lsp_types::HoverContents::Markup(m) => m.value,
        other => panic!("{other:?}"),
    }
}

fn definition_path(s: &Session, p: serde_json::Value) -> (PathBuf, u32) {
    let d = requests::definition(&s.snapshot(), &serde_json::from_value(p).unwrap())
        .expect("definition");
    let lsp_types::GotoDefinitionResponse::Scalar(loc) = d else {
        panic!("{d:?}")
    };
    (
        rulebook::lsp::uri::to_path(&loc.uri).unwrap(),
        loc.range.start.line,
    )
}

#[test]
fn functions_channels_objects_scopes_and_pcc_entries_are_known_by_name() {
    let root = dataset("names");
    let dir = root.join("data/handsworld");
    let stats = dir.join("hw__stats.lst");
    let stats_text = std::fs::read_to_string(&stats).unwrap();
    let mut s = Session::new(Some(&root));
    s.open(&stats, &stats_text, 1);

    let f = hover_text(&s, at(&stats, &stats_text, "d20Mod(", 2));
    assert!(f.contains("**d20Mod**(arg(0)): user function"), "{f}");
    assert!(f.contains("floor((arg(0)-10)/2)"), "{f}");
    let c = hover_text(&s, at(&stats, &stats_text, "StatScore", 3));
    assert!(c.contains("`NUMBER` channel in scope `PC.STAT`"), "{c}");
    assert!(c.contains("Score chosen by the player"), "{c}");
    let (path, _) = definition_path(&s, at(&stats, &stats_text, "d20Mod(", 1));
    assert_eq!(path, dir.join("hw__datacontrols.lst"));

    // An object named by key in MODIFYOTHER (also as KEY=…) → its line in the equipment file.
    let abilities = dir.join("hw_abilities.lst");
    let text = std::fs::read_to_string(&abilities).unwrap();
    s.open(&abilities, &text, 1);
    let equip_text = std::fs::read_to_string(dir.join("hw_equip.lst")).unwrap();
    let sword_line = equip_text
        .lines()
        .position(|l| l.starts_with("Bastard Sword\t"))
        .unwrap();
    for needle in ["|Bastard Sword|", "KEY=Bastard Sword|"] {
        let (path, line) = definition_path(&s, at(&abilities, &text, needle, needle.len() - 3));
        assert_eq!(path, dir.join("hw_equip.lst"));
        assert_eq!(line as usize, sword_line);
    }
    let o = hover_text(&s, at(&abilities, &text, "|Bastard Sword|", 3));
    assert!(o.contains("EQUIPMENT object"), "{o}");

    // Scope names complete after MODIFYOTHER:.
    let p = at(
        &abilities,
        &text,
        "MODIFYOTHER:PC.EQUIPMENT",
        "MODIFYOTHER:".len(),
    );
    let Some(lsp_types::CompletionResponse::Array(items)) =
        requests::completion(&s.snapshot(), &serde_json::from_value(p).unwrap())
    else {
        panic!("no completion")
    };
    assert!(items.iter().any(|i| i.label == "PC.EQUIPMENT"));

    // A PCC entry → the file.
    let pcc = dir.join("handsworld.pcc");
    let pcc_text = std::fs::read_to_string(&pcc).unwrap();
    s.open(&pcc, &pcc_text, 1);
    let (path, line) = definition_path(&s, at(&pcc, &pcc_text, "STAT:hw__stats.lst", 8));
    assert_eq!((path, line), (stats, 0));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn closing_unsaved_text_and_disk_changes_are_rechecked_from_what_is_current() {
    let root = dataset("cache");
    let vars = root.join("data/handsworld/hw__variables.lst");
    let stats = root.join("data/handsworld/hw__stats.lst");
    let text = std::fs::read_to_string(&vars).unwrap();
    let renamed = text.replace("LOCAL:PC.STAT|NUMBER=Score", "LOCAL:PC.STAT|NUMBER=Scorx");
    let mut s = Session::new(Some(&root));
    // The unsaved text is what is checked, not the disk's.
    let opened = s.open(&vars, &renamed, 1);
    assert!(find(&opened, &stats).is_some_and(|p| has_code(p, "F0101")));
    // Closed without saving: the disk's text counts again, the error goes.
    let closed = s.close(&vars);
    assert!(
        find(&closed, &stats).is_some_and(|p| p.diagnostics.is_empty()),
        "{closed:#?}"
    );
    // The file changes on disk (a watched-file event): it is read again.
    std::fs::write(&vars, &renamed).unwrap();
    let changed = s.files_changed(std::slice::from_ref(&vars));
    assert!(find(&changed, &stats).is_some_and(|p| has_code(p, "F0101")));
    std::fs::write(&vars, &text).unwrap();
    let restored = s.files_changed(std::slice::from_ref(&vars));
    assert!(find(&restored, &stats).is_some_and(|p| p.diagnostics.is_empty()));
    std::fs::remove_dir_all(&root).unwrap();
}

fn completion_labels(s: &Session, p: serde_json::Value) -> Vec<(String, Option<String>)> {
    let Some(lsp_types::CompletionResponse::Array(items)) =
        requests::completion(&s.snapshot(), &serde_json::from_value(p).unwrap())
    else {
        panic!("no completion")
    };
    items.into_iter().map(|i| (i.label, i.detail)).collect()
}

#[test]
fn token_hover_and_completion_come_from_the_vocabulary() {
    let root = dataset("vocab");
    let races = root.join("data/handsworld/hw_races.lst");
    let text = std::fs::read_to_string(&races).unwrap().replacen(
        "GROUP:Humanoid",
        "GROUP:Humanoid\tPREFEAT:1,Alertness\tBONUS:CO\tCAS",
        1,
    );
    let mut s = Session::new(Some(&root));
    s.open(&races, &text, 1);

    // Hover: the kinds taking the token, a deprecated token's replacement, sub-tokens.
    let group = hover_text(&s, at(&races, &text, "GROUP:", 1));
    assert!(group.starts_with("**GROUP**: token"), "{group}");
    assert!(
        group.contains("taken on") && group.contains("RACE"),
        "{group}"
    );
    let pre = hover_text(&s, at(&races, &text, "PREFEAT:", 2));
    assert!(pre.contains("*Deprecated*"), "{pre}");
    assert!(pre.contains("PREABILITY"), "{pre}");
    let bonus = hover_text(&s, at(&races, &text, "BONUS:", 1));
    assert!(
        bonus.contains("sub-tokens:") && bonus.contains("COMBAT"),
        "{bonus}"
    );

    // Completion: BONUS sub-tokens after `BONUS:`; token names valid on RACE lines only.
    let subs = completion_labels(&s, at(&races, &text, "BONUS:CO", "BONUS:CO".len()));
    assert!(subs.iter().any(|(l, _)| l == "COMBAT"), "{subs:?}");
    assert!(subs.iter().all(|(l, _)| l.starts_with("CO")), "{subs:?}");
    let cas = completion_labels(&s, at(&races, &text, "\tCAS", 4));
    assert!(
        !cas.iter().any(|(l, _)| l == "CAST"),
        "CAST is a class level token: {cas:?}"
    );
    let pre = completion_labels(&s, at(&races, &text, "PREFEAT:", 3));
    assert!(
        pre.iter()
            .any(|(l, d)| l == "PREFEAT" && d.as_deref().is_some_and(|d| d.contains("deprecated"))),
        "{pre:?}"
    );
    assert!(pre.iter().any(|(l, _)| l == "PREABILITY"), "{pre:?}");
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_workspace_is_the_pcgen_root_rulebook_toml_names() {
    // The editor opens the project folder; the PCGen install is pcgen/ below it.
    let project = dataset("config");
    let pcgen = project.join("pcgen");
    std::fs::create_dir_all(&pcgen).unwrap();
    for part in ["data", "system"] {
        std::fs::rename(project.join(part), pcgen.join(part)).unwrap();
    }
    std::fs::write(
        project.join("rulebook.toml"),
        "pcgen-root = \"pcgen\"\nextra-roots = [\"brew\"]\n\
         [[paths]]\nglob = \"pcgen/data/**/hw_equip.lst\"\nallow = [\"M0113\"]\n",
    )
    .unwrap();
    let mut session = Session::new(Some(&project));
    let ws = session.workspace().unwrap();
    assert_eq!(ws.root.root, pcgen);
    assert_eq!(ws.root.extra, vec![project.join("brew")]);
    // hw_equip.lst's two M0113 warnings are allowed there; the M0112 note elsewhere stays.
    let equip = pcgen.join("data/handsworld/hw_equip.lst");
    let abilities = pcgen.join("data/handsworld/hw_abilities.lst");
    let text = std::fs::read_to_string(&equip).unwrap();
    let published = session.open(&equip, &text, 1);
    let _ = std::fs::remove_dir_all(&project);
    let equip_found = find(&published, &equip).expect("hw_equip.lst published");
    assert!(
        !has_code(equip_found, "M0113"),
        "{:?}",
        equip_found.diagnostics
    );
    let abilities_found = find(&published, &abilities).expect("hw_abilities.lst published");
    assert!(has_code(abilities_found, "M0112"));
}
