//! The token validator over every PCC and LST line of PCGen's shipped data
//! (`../shared/pcgen-corpus`): exactly the lines PCGen itself rejects are errors
//! (`pcgen-token-vocabulary.md` §7, and the token values PCGen's parsers reject), and
//! deprecated uses are warnings. Only the validator runs
//! (no model), so this is fast. Skipped with a note when the corpus is absent.

use rulebook::diagnostic::{Diagnostic, Severity};
use rulebook::load::campaign::parse_pcc;
use rulebook::load::text::{LineMode, lines, read_source};
use rulebook::load::{DiskFs, FileKind, PcgenRoot};
use rulebook::source::SourceMap;
use rulebook::vocabulary::{check_lines, check_pcc};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `../shared/pcgen-corpus` beside the checkout (or beside its worktree folder).
fn corpus() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let near = here.join("../shared/pcgen-corpus");
    if near.is_dir() {
        return near;
    }
    here.join("../../shared/pcgen-corpus")
}

fn pccs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            pccs(&p, out);
        } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("pcc")) {
            out.push(p);
        }
    }
}

fn mode(kind: FileKind) -> LineMode {
    match kind {
        FileKind::DataControl | FileKind::Dynamic | FileKind::GlobalModifier => LineMode::Trimmed,
        FileKind::DataTable => LineMode::Whole,
        _ => LineMode::Object,
    }
}

/// `(code, severity, "path:line:col", message, label)` of one diagnostic.
type Found = (String, Severity, String, String, String);

/// Every diagnostic the validator gives on the corpus.
fn run() -> Option<Vec<Found>> {
    let root_dir = corpus();
    if !root_dir.join("data").is_dir() {
        eprintln!(
            "note: {} is absent; corpus test skipped",
            root_dir.display()
        );
        return None;
    }
    let root = PcgenRoot::at(&DiskFs, &root_dir);
    let mut list = Vec::new();
    pccs(&root_dir.join("data"), &mut list);
    list.sort();
    let mut files: BTreeSet<(PathBuf, FileKind)> = BTreeSet::new();
    let mut found = Vec::new();
    let mut record = |diags: Vec<Diagnostic>, sources: &SourceMap| {
        for d in diags {
            let Some(f) = sources.get(d.span.file) else {
                continue;
            };
            let (line, col) = f.line_col(d.span.start as usize);
            found.push((
                d.code.id.to_owned(),
                d.severity,
                format!("{}:{line}:{col}", f.path),
                d.message.clone(),
                d.primary_label.clone(),
            ));
        }
    };
    for pcc in &list {
        let mut sources = SourceMap::new();
        let display = pcc.strip_prefix(&root_dir).unwrap().display().to_string();
        let Ok((id, _)) = read_source(&DiskFs, pcc, display, &mut sources) else {
            continue;
        };
        let src = sources.get(id).unwrap();
        let mut ignored = Vec::new();
        let c = parse_pcc(pcc, id, src, &root, &mut ignored);
        for e in c.entries {
            files.insert((e.path, e.kind));
        }
        let mut diags = Vec::new();
        check_pcc(id, &src.text, &mut diags);
        record(diags, &sources);
    }
    for (path, kind) in files {
        let mut sources = SourceMap::new();
        let display = path
            .strip_prefix(&root_dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let Ok((id, _)) = read_source(&DiskFs, &path, display, &mut sources) else {
            continue;
        };
        let src = sources.get(id).unwrap();
        let ls = lines(id, &src.text, mode(kind));
        let mut diags = Vec::new();
        check_lines(kind, &src.text, &ls, &mut diags);
        record(diags, &sources);
    }
    Some(found)
}

/// The lines PCGen rejects (`pcgen-token-vocabulary.md` §7), and the token values its parsers
/// reject (`T0119`, each in PCGen's own load log of the corpus: "CRChallenge Rating must be a
/// positive integer i or 1/i", "ABILITY refers to invalid Ability Nature: …", "COST expected a
/// number: 13,500"): code, file, line, column.
const REJECTED: &[(&str, &str, usize, usize)] = &[
    (
        "T0119",
        "3e/dragonwing_games/bastion_press/faeries/faeries_races.lst",
        10,
        525,
    ),
    (
        "T0119",
        "3e/dragonwing_games/bastion_press/faeries/faeries_races.lst",
        12,
        495,
    ),
    (
        "T0119",
        "3e/dragonwing_games/bastion_press/faeries/faeries_races.lst",
        13,
        552,
    ),
    (
        "T0119",
        "3e/sovereign_press/sovereign_stone/sovereign_classes.lst",
        20,
        16,
    ),
    (
        "T0119",
        "3e/sovereign_press/sovereign_stone/sovereign_classes.lst",
        84,
        16,
    ),
    (
        "T0119",
        "pathfinder/paizo/player_companion/martial_arts_handbook/mah_equipment.lst",
        26,
        113,
    ),
    (
        "T0115",
        "35e/fantasy_flight_games/dawn_forge/dawn_forge_campaign_setting/dawnforge_biosettings.lst",
        2,
        1,
    ),
    (
        "T0115",
        "35e/mongoose_publishing/slayers_guides/minotaurs/slayersminotaurbiosettings.lst",
        2,
        1,
    ),
    (
        "T0115",
        "35e/paizo/adventure_path/rise_of_the_runelords/rise_of_the_runelords_players_guide/rrpg_biosettings.lst",
        2,
        1,
    ),
    (
        "T0112",
        "35e/paizo/campaign_setting/campaign_setting/pathfinder_campaign_setting_feats.lst",
        77,
        293,
    ),
    (
        "T0115",
        "35e/paradigm_concepts/arcanis/players_guide_to_arcanis/playersguidetoarcanis_biosettings.lst",
        3,
        1,
    ),
    (
        "T0115",
        "3e/bastion_press/oathbound/oathbound_biosettings.lst",
        2,
        1,
    ),
    (
        "T0115",
        "3e/fantasy_flight_games/midnight_campaign/campaign_setting/midnight_biosettings.lst",
        2,
        1,
    ),
    (
        "T0115",
        "3e/mongoose_publishing/slayers_guides/minotaurs/slayersminotaurbiosettings.lst",
        2,
        1,
    ),
    (
        "T0115",
        "modern/blue_devil_games/dawning_star/operation_quick_launch/ds_oql_bioset.lst",
        2,
        1,
    ),
    (
        "T0110",
        "pathfinder/paizo/player_companion/arcane_anthology/_pfs/pfs_arca_abilities.lst",
        7,
        767,
    ),
];

#[test]
fn corpus_errors_are_exactly_the_lines_pcgen_rejects() {
    let Some(found) = run() else { return };
    let mut errors: Vec<String> = found
        .iter()
        .filter(|d| d.1 == Severity::Error)
        .map(|(code, _, at, _, _)| {
            let at = at.split_once("/data/").map_or(at.as_str(), |x| x.1);
            format!("{code} {at}")
        })
        .collect();
    errors.sort();
    let mut expected: Vec<String> = REJECTED
        .iter()
        .map(|(code, file, line, col)| format!("{code} {file}:{line}:{col}"))
        .collect();
    expected.sort();
    assert_eq!(errors, expected);

    // Deprecated uses are warnings; the counts of §7 (and the CHOOSE/ADD/AUTO forms).
    let mut deprecated: BTreeMap<&str, usize> = BTreeMap::new();
    for d in found.iter().filter(|d| d.0 == "T0113") {
        assert_eq!(d.1, Severity::Warning);
        *deprecated.entry(d.3.as_str()).or_default() += 1;
    }
    let count = |m: &str| deprecated.get(m).copied().unwrap_or(0);
    let class_token = |t: &str| {
        count(&format!(
            "`{t}` is a CLASS token, read on a level-1 line for compatibility"
        ))
    };
    assert_eq!(class_token("PROHIBITSPELL"), 245);
    assert_eq!(class_token("WEAPONBONUS"), 11);
    assert_eq!(class_token("SPELLLIST"), 4);
    assert_eq!(class_token("EXCHANGELEVEL"), 1);
    assert_eq!(count("`PANTHEON` is deprecated"), 24);
    assert_eq!(count("`REMOVE:FEAT` is deprecated"), 35);
    // EQUIPMOD's CHOOSE:NUMBER is its own current sub-token: the corpus has no other.
    assert_eq!(count("`CHOOSE:NUMBER` is deprecated"), 0);
    assert_eq!(deprecated.values().sum::<usize>(), 332, "{deprecated:#?}");
    // PCGen's load log of the corpus (`shared/pcgen-oracle`) has no deprecation message for
    // any of these forms: none of them is said to log one.
    let said_to_log: Vec<&str> = found
        .iter()
        .filter(|d| d.0 == "T0113" && d.4.contains("logs"))
        .map(|d| d.2.as_str())
        .collect();
    assert!(said_to_log.is_empty(), "{said_to_log:#?}");

    // BONUS fields PCGen drops (T0118), in every file, loaded by a PCC or not.
    let dropped = found.iter().filter(|d| d.0 == "T0118").count();
    assert_eq!(dropped, 130, "T0118 warnings");
    // The only other warnings: four CLASS .MOD lines whose first PRE is after a space.
    let others: Vec<&str> = found
        .iter()
        .filter(|d| d.1 != Severity::Error && d.0 != "T0113" && d.0 != "T0118")
        .map(|d| d.0.as_str())
        .collect();
    assert_eq!(others, vec!["T0116"; 4]);
}
