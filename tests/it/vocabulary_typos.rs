//! Typos injected into a copy of a real dataset (Starfinder core, `../shared/pcgen`): each is
//! exactly one diagnostic at the token's line and column, with the right suggestion. The
//! rendered reports are insta snapshots. Skipped with a note when the fixtures are absent.

use rulebook::diagnostic::render;
use rulebook::load::FileKind;
use rulebook::load::text::{LineMode, lines};
use rulebook::source::{SourceFile, SourceMap, TextEncoding};
use rulebook::vocabulary::check_lines;
use std::path::{Path, PathBuf};

fn core() -> Option<PathBuf> {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rel = "shared/pcgen/data/starfinder/paizo/core";
    let dirs = [here.join("..").join(rel), here.join("../..").join(rel)];
    let found = dirs.into_iter().find(|d| d.is_dir());
    if found.is_none() {
        eprintln!("note: ../shared/pcgen is missing; typo tests skipped");
    }
    found
}

struct Case {
    name: &'static str,
    file: &'static str,
    kind: FileKind,
    find: &'static str,
    replace: &'static str,
    code: &'static str,
    help: &'static str,
}

const CASES: &[Case] = &[
    Case {
        name: "formula_token",
        file: "scr__stats.lst",
        kind: FileKind::Stat,
        find: "\tMODIFY:",
        replace: "\tMODIFFY:",
        code: "T0110",
        help: "did you mean `MODIFY`?",
    },
    Case {
        name: "formula_token_other",
        file: "scr_equip.lst",
        kind: FileKind::Equipment,
        find: "\tMODIFYOTHER:",
        replace: "\tMODIFYOTHR:",
        code: "T0110",
        help: "did you mean `MODIFYOTHER`?",
    },
    Case {
        name: "grant",
        file: "scr_equip.lst",
        kind: FileKind::Equipment,
        find: "\tMODIFYOTHER:",
        replace: "\tGRNT:MOVEMENT|Walk\tMODIFYOTHER:",
        code: "T0110",
        help: "did you mean `GRANT`?",
    },
    Case {
        name: "global_on_object_line",
        file: "scr_abilities.lst",
        kind: FileKind::Ability,
        find: "\tTYPE:",
        replace: "\tGLOBAL:NUMBER=Foo\tTYPE:",
        code: "T0111",
        help: "`GLOBAL` is valid on VARIABLE lines",
    },
    Case {
        name: "common_token",
        file: "scr_abilities.lst",
        kind: FileKind::Ability,
        find: "\tTYPE:",
        replace: "\tTYEP:",
        code: "T0110",
        help: "did you mean `TYPE`?",
    },
    Case {
        name: "common_token_key",
        file: "scr__stats.lst",
        kind: FileKind::Stat,
        find: "\tKEY:",
        replace: "\tKYE:",
        code: "T0110",
        help: "did you mean `KEY`?",
    },
    Case {
        name: "lower_case",
        file: "scr_classes.lst",
        kind: FileKind::Class,
        find: "\tBONUS:COMBAT|",
        replace: "\tbonus:COMBAT|",
        code: "T0110",
        help: "did you mean `BONUS`? token names are case-sensitive",
    },
    Case {
        name: "lower_case_pre",
        file: "scr_abilities.lst",
        kind: FileKind::Ability,
        find: "\tPREVARGTEQ:",
        replace: "\tprevargteq:",
        code: "T0110",
        help: "did you mean `PREVARGTEQ`? token names are case-sensitive",
    },
    Case {
        name: "pre_swapped",
        file: "scr_abilities.lst",
        kind: FileKind::Ability,
        find: "\tPREVARGTEQ:",
        replace: "\tPREVARGTQE:",
        code: "T0110",
        help: "did you mean `PREVARGTEQ`?",
    },
    Case {
        name: "pre_missing_letter",
        file: "scr_feats.lst",
        kind: FileKind::Ability,
        find: "\tPREABILITY:",
        replace: "\tPREABILTY:",
        code: "T0110",
        help: "did you mean `PREABILITY`?",
    },
    Case {
        name: "bonus_type",
        file: "scr__stats.lst",
        kind: FileKind::Stat,
        find: "\tBONUS:COMBAT|",
        replace: "\tBONUS:COMBT|",
        code: "T0112",
        help: "did you mean `BONUS:COMBAT`?",
    },
    Case {
        name: "choose_subtoken",
        file: "scr_abilities.lst",
        kind: FileKind::Ability,
        find: "\tCHOOSE:SKILL|",
        replace: "\tCHOOSE:SKIL|",
        code: "T0112",
        help: "did you mean `CHOOSE:SKILL`?",
    },
    Case {
        name: "auto_subtoken",
        file: "scr_abilities.lst",
        kind: FileKind::Ability,
        find: "\tAUTO:WEAPONPROF|",
        replace: "\tAUTO:WEAPONPORF|",
        code: "T0112",
        help: "did you mean `AUTO:WEAPONPROF`?",
    },
];

#[test]
fn each_injected_typo_is_one_error_at_its_token_with_a_suggestion() {
    let Some(dir) = core() else { return };
    for case in CASES {
        let original = std::fs::read_to_string(dir.join(case.file)).unwrap();
        // The untouched file is clean.
        let mut sources = SourceMap::new();
        let display = format!("data/starfinder/paizo/core/{}", case.file);
        let id = sources.add(SourceFile::new(
            display.clone(),
            original.clone(),
            TextEncoding::Utf8,
        ));
        let mut diags = Vec::new();
        check_lines(
            case.kind,
            &original,
            &lines(id, &original, LineMode::Object),
            &mut diags,
        );
        assert!(
            diags.is_empty(),
            "{}: clean file reports {diags:?}",
            case.name
        );

        // The first occurrence outside a comment is changed; the error must be on the changed token.
        let mut start = 0usize;
        let mut at = None;
        for line in original.split_inclusive('\n') {
            if !line.starts_with('#') {
                if let Some(i) = line.find(case.find) {
                    at = Some(start + i);
                    break;
                }
            }
            start += line.len();
        }
        let at = at.unwrap();
        let text = format!(
            "{}{}{}",
            &original[..at],
            case.replace,
            &original[at + case.find.len()..]
        );
        let mut sources = SourceMap::new();
        let id = sources.add(SourceFile::new(display, text.clone(), TextEncoding::Utf8));
        let mut diags = Vec::new();
        check_lines(
            case.kind,
            &text,
            &lines(id, &text, LineMode::Object),
            &mut diags,
        );
        assert_eq!(diags.len(), 1, "{}: {diags:#?}", case.name);
        let d = &diags[0];
        assert_eq!(d.code.id, case.code, "{}", case.name);
        assert!(
            d.help.iter().any(|h| h.contains(case.help)),
            "{}: help {:?}",
            case.name,
            d.help
        );
        // Line and column: the token starts one byte after the TAB that was found.
        let file = sources.get(id).unwrap();
        let expected = file.line_col(at + 1);
        let got = file.line_col(d.span.start as usize);
        let expected = if case.code == "T0112" {
            // The sub-token starts after `NAME:`.
            let colon = case.replace.find(':').unwrap();
            (expected.0, expected.1 + colon)
        } else {
            expected
        };
        assert_eq!(got, expected, "{}", case.name);
        insta::assert_snapshot!(
            format!("vocabulary_typo_{}", case.name),
            render(&diags, &sources, false)
        );
    }
}
