//! `rulebook lsp` on the old token system, spoken to over stdio on a temporary copy of
//! Pathfinder 1e Core from `../shared/pcgen` (which must be there): definition, references
//! and hover on the keys `ABILITY:`, `PREABILITY:` (alone and inside a `BONUS`), `.MOD` and
//! `.COPY=` lines name; completion of keys in those tokens, by kind and category; hover,
//! definition and references on a `DEFINE`d variable read by a `BONUS` formula, hover on
//! terms; completion of variables, terms and functions in old formulas — after an edit.

use crate::support::lsp as lsp_client;

use lsp_client::{Client, copy_dir, labels, line_of, pos, shared_pcgen, temp_root, uri};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CORE: &str = "data/pathfinder/paizo/roleplaying_game/core_rulebook";

/// A temporary PCGen root holding Pathfinder 1e Core and what it loads.
fn pf1_root() -> PathBuf {
    let shared = shared_pcgen();
    let root = temp_root("old-system");
    for dir in [
        "data/pathfinder",
        "data/homebrew",
        "data/_universal",
        "system/gameModes/Pathfinder",
    ] {
        copy_dir(&shared.join(dir), &root.join(dir));
    }
    root
}

/// One open document and the requests on it.
struct Doc<'c> {
    client: &'c mut Client,
    uri: String,
    text: String,
}

impl Doc<'_> {
    /// The byte offset of `needle` in the text (its first occurrence after `after`), plus
    /// `into`.
    fn at(&self, after: &str, needle: &str, into: usize) -> usize {
        let from = self.text.find(after).unwrap_or_else(|| panic!("{after}"));
        from + self.text[from..]
            .find(needle)
            .unwrap_or_else(|| panic!("{needle}"))
            + into
    }

    /// `method` at byte `at`, timed: every answer must come fast.
    fn ask(&mut self, method: &str, at: usize) -> Value {
        let mut params =
            json!({"textDocument": {"uri": self.uri}, "position": pos(&self.text, at)});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        let started = Instant::now();
        let answer = self.client.request(method, params);
        let took = started.elapsed();
        // The edit path's target is 100 ms (`cargo bench --bench lsp`); a debug build on a
        // shared machine gets slack.
        assert!(took < Duration::from_secs(5), "{method} took {took:?}");
        answer
    }

    fn hover(&mut self, at: usize) -> String {
        let h = self.ask("textDocument/hover", at);
        h["contents"]["value"].as_str().unwrap_or("").to_owned()
    }

    /// The definition's locations (one, or several).
    fn definition(&mut self, at: usize) -> Vec<Value> {
        match self.ask("textDocument/definition", at) {
            Value::Array(a) => a,
            Value::Null => Vec::new(),
            one => vec![one],
        }
    }
}

fn open<'c>(client: &'c mut Client, path: &Path, text: String) -> Doc<'c> {
    let doc = uri(path);
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": doc, "languageId": "pcgen-lst", "version": 1, "text": text}}),
    );
    client.diagnostics(&doc);
    Doc {
        client,
        uri: doc,
        text,
    }
}

#[test]
fn old_system_keys_variables_and_terms_on_pathfinder_core() {
    let root = pf1_root();
    let core = root.join(CORE);
    let mut client = Client::start(&root);

    // cr_abilities_class.lst: a class ability granting a feat, an old formula in a PREVAR.
    let path = core.join("cr_abilities_class.lst");
    let mut doc = open(&mut client, &path, std::fs::read_to_string(&path).unwrap());

    // `ABILITY:FEAT|AUTOMATIC|Endurance` → the feat's line.
    let endurance = doc.at("ABILITY:FEAT|AUTOMATIC|Endurance", "Endurance", 2);
    let def = doc.definition(endurance);
    assert_eq!(def.len(), 1, "{def:?}");
    assert!(def[0]["uri"].as_str().unwrap().ends_with("cr_feats.lst"));
    assert!(
        line_of(&def[0]).starts_with("Endurance\t"),
        "{}",
        line_of(&def[0])
    );
    let hover = doc.hover(endurance);
    assert!(hover.contains("**Endurance**: ABILITY object"), "{hover}");
    assert!(hover.contains("category `FEAT`"), "{hover}");
    assert!(hover.contains("cr_feats.lst:57, page p.112"), "{hover}");
    assert!(hover.contains("long exertions"), "{hover}");

    // References from the feat: its uses in ABILITY and PREABILITY tokens of other files.
    let refs = doc.ask("textDocument/references", endurance);
    let refs = refs.as_array().unwrap();
    assert!(refs.iter().any(|r| r["uri"] == json!(doc.uri)), "{refs:?}");
    assert!(
        refs.iter()
            .any(|r| r["uri"].as_str().unwrap().ends_with("cr_feats.lst")),
        "{refs:?}"
    );

    // A DEFINE'd variable read by a BONUS formula: its DEFINE and BONUS:VAR in the classes.
    let bonus = doc.at("BONUS:VAR|Ranger_CFP_Level|RangerLVL", "RangerLVL", 3);
    let def = doc.definition(bonus);
    let lines: Vec<String> = def.iter().map(line_of).collect();
    assert!(def.len() >= 2, "{def:?}");
    assert!(
        lines.iter().all(|l| l.contains("DEFINE:RangerLVL|0")),
        "{lines:?}"
    );
    assert!(
        def.iter()
            .all(|d| d["uri"].as_str().unwrap().ends_with("cr_classes.lst"))
    );
    let hover = doc.hover(bonus);
    assert!(
        hover.contains("**RangerLVL**: old-system variable"),
        "{hover}"
    );
    assert!(hover.contains("`DEFINE:RangerLVL|0` at "), "{hover}");
    let refs = doc.ask("textDocument/references", bonus);
    assert!(refs.as_array().unwrap().len() >= 3, "{refs}");

    // A PREVAR operand is an old formula too.
    let operand = doc.at("PREVAREQ:Ranger_CF_Endurance,0", "Ranger_CF_Endurance", 1);
    let def = doc.definition(operand);
    assert!(
        line_of(&def[0]).contains("DEFINE:Ranger_CF_Endurance|0"),
        "{def:?}"
    );

    // cr_abilities.lst: a BONUS whose PREABILITY names a feat with a choice; `.MOD` lines.
    let path = core.join("cr_abilities.lst");
    let text = std::fs::read_to_string(&path).unwrap();
    // The edit: a new line with half-typed names, for completion.
    let text = format!(
        "{text}\nTyped Ability\tCATEGORY:Internal\tPREABILITY:1,CATEGORY=FEAT,Power A\t\
         ABILITY:Special Ability|AUTOMATIC|Bardic Perf\tBONUS:VAR|Typed|RangerL+flo\tBONUS:SKILLRANK|Acro|T\n"
    );
    drop(doc);
    let mut doc = open(&mut client, &path, text);

    // `PREABILITY:…,Exotic Weapon Proficiency (Sword (Bastard))` inside a BONUS: the feat.
    let choice = doc.at(
        "PREABILITY:1,CATEGORY=FEAT,Exotic Weapon Proficiency (Sword",
        "Exotic",
        3,
    );
    let def = doc.definition(choice);
    assert_eq!(def.len(), 1, "{def:?}");
    assert!(
        line_of(&def[0]).starts_with("Exotic Weapon Proficiency\t"),
        "{}",
        line_of(&def[0])
    );

    // `CATEGORY=Internal|Default.MOD` → the ability `Default` of category Internal.
    let default = doc.at("CATEGORY=Internal|Default.MOD", "Default", 1);
    let def = doc.definition(default);
    assert_eq!(def.len(), 1, "{def:?}");
    assert!(
        line_of(&def[0]).starts_with("Default\t"),
        "{}",
        line_of(&def[0])
    );
    assert!(
        def[0]["uri"]
            .as_str()
            .unwrap()
            .ends_with("ce_abilities_race.lst")
    );
    let hover = doc.hover(default);
    assert!(hover.contains("category `Internal`"), "{hover}");

    // A term: `TL`.
    let tl = doc.at("BONUS:SKILLRANK|%LIST|TL", "TL", 1);
    let hover = doc.hover(tl);
    assert!(
        hover.contains("**TL**: PCGen term `COMPLETE_PC_TL`"),
        "{hover}"
    );
    assert!(hover.contains("total level"), "{hover}");

    // Completion of keys: feats only, by the typed prefix (which holds a space).
    let typed = doc.at("CATEGORY=FEAT,Power A", "Power A", "Power A".len());
    let got = labels(&doc.ask("textDocument/completion", typed));
    assert!(got.contains(&"Power Attack".to_owned()), "{got:?}");
    assert!(
        got.iter().all(|l| l.to_lowercase().starts_with("power a")),
        "{got:?}"
    );
    // … in the category the ABILITY token names.
    let typed = doc.at("AUTOMATIC|Bardic Perf", "Bardic Perf", "Bardic Perf".len());
    let got = labels(&doc.ask("textDocument/completion", typed));
    assert!(!got.is_empty(), "{got:?}");
    assert!(got.iter().all(|l| l.starts_with("Bardic Perf")), "{got:?}");
    // … skills in BONUS:SKILLRANK.
    let typed = doc.at("BONUS:SKILLRANK|Acro", "Acro", 4);
    let got = labels(&doc.ask("textDocument/completion", typed));
    assert!(got.contains(&"Acrobatics".to_owned()), "{got:?}");
    // Not the feat `Acrobatic`.
    assert!(got.iter().all(|l| l.starts_with("Acrobatics")), "{got:?}");

    // Completion in an old formula: DEFINE'd variables, functions, terms.
    let typed = doc.at("BONUS:VAR|Typed|RangerL", "RangerL", 7);
    let got = labels(&doc.ask("textDocument/completion", typed));
    assert!(got.contains(&"RangerLVL".to_owned()), "{got:?}");
    let typed = doc.at("RangerL+flo", "flo", 3);
    let got = labels(&doc.ask("textDocument/completion", typed));
    assert_eq!(got, ["floor"]);
    let typed = doc.at("BONUS:SKILLRANK|Acro|T", "|T\n", 2);
    let got = labels(&doc.ask("textDocument/completion", typed));
    assert!(got.contains(&"TL".to_owned()), "{got:?}");
    drop(doc);

    // cr_equip_arms_armor.lst: `Arrow (Base).COPY=Arrow` → the object keyed `Arrow (Base)`.
    let path = core.join("cr_equip_arms_armor.lst");
    let mut doc = open(&mut client, &path, std::fs::read_to_string(&path).unwrap());
    let copy = doc.at("Arrow (Base).COPY=Arrow\t", "Arrow", 2);
    let def = doc.definition(copy);
    assert_eq!(def.len(), 1, "{def:?}");
    assert!(
        line_of(&def[0]).contains("KEY:Arrow (Base)"),
        "{}",
        line_of(&def[0])
    );
    let hover = doc.hover(copy);
    assert!(
        hover.contains("EQUIPMENT object (key `Arrow (Base)`"),
        "{hover}"
    );
    drop(doc);

    client.shutdown();
    std::fs::remove_dir_all(&root).unwrap();
}
