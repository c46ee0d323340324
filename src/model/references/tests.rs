//! References on small in-memory load sets: one `check` helper, each test a dataset and the
//! (code, file, line, column, text at the span) of what it must report.

use crate::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};

/// The game mode's categories: FEAT, and Combat Feat drawing from it.
const MISCINFO: &str = "ALLOWEDMODES:G\n\
ABILITYCATEGORY:FEAT\tVISIBLE:YES\tCATEGORY:FEAT\n\
ABILITYCATEGORY:Combat Feat\tCATEGORY:FEAT\tTYPE:Combat\n";

/// Loads `files` (PCC token, file name, text), listed by one PCC in that order, in a game
/// mode whose `miscinfo.lst` is `miscinfo`, and returns the load set and its reference
/// findings, sorted.
fn load(
    miscinfo: &str,
    files: &[(&str, &str, &str)],
) -> (crate::load::LoadSet, Vec<crate::diagnostic::Diagnostic>) {
    let mut fs = MemoryFs::new().with("/r/system/gameModes/G/miscinfo.lst", miscinfo);
    let mut pcc = String::from("CAMPAIGN:T\nGAMEMODE:G\n");
    for (kind, name, text) in files {
        pcc.push_str(&format!("{kind}:{name}\n"));
        if !text.is_empty() {
            fs.insert(
                format!("/r/data/d/{}", name.split('|').next().unwrap_or("")),
                *text,
            );
        }
    }
    fs.insert("/r/data/d/t.pcc", pcc);
    let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
    let load = crate::load::load(&fs, &root, &[PathBuf::from("/r/data/d/t.pcc")]);
    let mut found = super::check(&load);
    crate::diagnostic::sort(&mut found, &load.sources);
    (load, found)
}

/// [`load`] in the game mode of [`MISCINFO`], each reference finding as (code, file, line,
/// column, the text its span covers).
fn check(files: &[(&str, &str, &str)]) -> Vec<(String, String, usize, usize, String)> {
    let (load, found) = load(MISCINFO, files);
    found
        .iter()
        .map(|d| {
            let file = load.sources.get(d.span.file).unwrap();
            let (line, col) = file.line_col(d.span.range().start);
            let name = file.path.rsplit('/').next().unwrap_or("").to_owned();
            let text = file.text.get(d.span.range()).unwrap_or("").to_owned();
            (d.code.id.to_owned(), name, line, col, text)
        })
        .collect()
}

fn row(
    code: &str,
    file: &str,
    line: usize,
    col: usize,
    text: &str,
) -> (String, String, usize, usize, String) {
    (code.into(), file.into(), line, col, text.into())
}

#[test]
fn a_mod_of_a_missing_object_is_one_error_at_its_key() {
    let found = check(&[
        ("CLASS", "classes.lst", "CLASS:Fighter\tHD:10\n1\tBAB:1\n"),
        (
            "CLASS",
            "mods.lst",
            "CLASS:Fighter.MOD\tHD:12\nCLASS:Figther.MOD\tHD:8\n2\tBAB:2\nCLASS:Barbarian.MOD\tHD:12\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            row("R0101", "mods.lst", 2, 7, "Figther"),
            row("R0101", "mods.lst", 4, 7, "Barbarian"),
        ]
    );
}

#[test]
fn the_did_you_mean_comes_from_the_same_kind() {
    let mut fs_files = vec![
        ("STAT", "stats.lst", "Strength\tABB:STR\n"),
        ("SKILL", "skills.lst", "Climb\tKEYSTAT:STR\n"),
        ("LANGUAGE", "langs.lst", "Climbx\n"),
        ("SKILL", "mods.lst", "Clinb.MOD\tTYPE:X\n"),
    ];
    let found = check(&fs_files);
    assert_eq!(found, [row("R0101", "mods.lst", 1, 1, "Clinb")]);
    // Only the skill is a candidate: the language spelled closer is another kind.
    fs_files.pop();
    assert!(check(&fs_files).is_empty());
}

#[test]
fn copies_come_before_mods_and_keys_compare_without_case() {
    // The mod of the copy is found (copies are made first) although it comes first in
    // the files, and `KEY:` is the key.
    let found = check(&[
        ("EQUIPMENT", "mods.lst", "LONGSWORD +1.MOD\tCOST:10\n"),
        (
            "EQUIPMENT",
            "eq.lst",
            "Sword, Long\tKEY:Longsword\nLongsword.COPY=Longsword +1\tCOST:5\nMace.COPY=Heavy Mace\n\
             Sword, Long.COPY=Sword (Base)\tKEY:Base Sword\nBase Sword.COPY=Short\n\
             Longsword +1.COPY=Longsword +2\tKEY:LS2\nLS2.MOD\tCOST:9\n",
        ),
    ]);
    // A copy is known by its line's KEY: (`LS2`), and a copy of a copy made before it is
    // found; `Sword, Long` is a name, not the key, and the copy of its failed copy (line
    // 5) is a consequence, not a second error.
    assert_eq!(
        found,
        [
            row("R0101", "eq.lst", 3, 1, "Mace"),
            row("R0101", "eq.lst", 4, 1, "Sword, Long"),
        ]
    );
}

#[test]
fn a_filtered_entry_does_not_report_what_it_left_out() {
    let found = check(&[
        (
            "SPELL",
            "spells.lst|(EXCLUDE:Fireball)",
            "Fireball\nLight\n",
        ),
        (
            "SPELL",
            "mods.lst|(INCLUDE:Light|Darkness)",
            "Fireball.MOD\tLEVEL:x\nLight.MOD\tLEVEL:y\nDarkness.MOD\tLEVEL:z\n",
        ),
    ]);
    // Fireball was excluded (PCGen skips its mod silently); Darkness is included and missing.
    assert_eq!(found, [row("R0101", "mods.lst", 3, 1, "Darkness")]);
}

#[test]
fn abilities_live_in_their_category() {
    let found = check(&[
        (
            "ABILITY",
            "abilities.lst",
            "Power Attack\tCATEGORY:FEAT\nCleave\tCATEGORY:Combat Feat\n",
        ),
        (
            "ABILITY",
            "mods.lst",
            "CATEGORY=FEAT|Power Attack.MOD\tTYPE:X\n\
             CATEGORY=Combat Feat|Cleave.MOD\tTYPE:X\n\
             CATEGORY=FEAT|Dodge.MOD\tTYPE:X\n\
             Power Attack.MOD\tTYPE:X\n",
        ),
        (
            "FEAT",
            "feats.lst",
            "Cleave.MOD\tTYPE:Y\nToughness.MOD\tTYPE:Y\n",
        ),
    ]);
    // FEAT files are read before ABILITY files: their mods cannot reach an ability made
    // by an ABILITY file (PCGen: `featLoader` runs before `abilityLoader`).
    assert_eq!(
        found,
        [
            row("R0101", "feats.lst", 1, 1, "Cleave"),
            row("R0101", "feats.lst", 2, 1, "Toughness"),
            row("R0101", "mods.lst", 3, 15, "Dodge"),
            row("R0104", "mods.lst", 4, 1, "Power Attack"),
        ]
    );
}

#[test]
fn an_ability_without_category_and_an_unknown_category_are_one_error_each() {
    let found = check(&[(
        "ABILITY",
        "abilities.lst",
        "Rage\tTYPE:Special\n\
         CATEGORY=FEAT|Dodge\tTYPE:General\n\
         Darkvision\tCATEGORY:Special Ability\n\
         Low-Light Vision\tCATEGORY:Special Ability\n\
         Scent\tCATEGORY:Special Ability\n\
         Alertness\tCATEGORY:Feat\n\
         CATEGORY=Special Ability|Darkvision.MOD\tTYPE:X\n\
         Cleave\tCATEGORY:Combat Fet\n",
    )]);
    assert_eq!(
        found,
        [
            row("R0102", "abilities.lst", 1, 1, "Rage"),
            row("R0102", "abilities.lst", 2, 1, "CATEGORY=FEAT|Dodge"),
            row("R0103", "abilities.lst", 3, 21, "Special Ability"),
            row("R0103", "abilities.lst", 8, 17, "Combat Fet"),
        ]
    );
}

#[test]
fn ability_and_ability_pool_tokens_name_categories_too() {
    let found = check(&[
        (
            "CLASS",
            "classes.lst",
            "CLASS:Monk\tABILITY:FEAT|AUTOMATIC|Dodge\n\
             1\tABILITY:Special Ability|AUTOMATIC|Flurry\tBONUS:ABILITYPOOL|Combat Feat,Bonus Feat|1\n\
             2\tABILITY:Special Ability|AUTOMATIC|Evasion\n",
        ),
        (
            "KIT",
            "kits.lst",
            "STARTPACK:Monk Kit\nABILITY:CATEGORY=FEAT|Dodge\nABILITY:CATEGORY=Ki Power|Ki Strike\n",
        ),
        (
            "TEMPLATE",
            "templates.lst",
            "Ghost\tBONUS:ABILITYPOOL|Ghost Attack|3\n",
        ),
    ]);
    // A class's own pool bonuses are not checked (PCGen keeps them in its levels).
    assert_eq!(
        found,
        [
            row("R0103", "classes.lst", 2, 11, "Special Ability"),
            row("R0103", "kits.lst", 3, 18, "Ki Power"),
            row("R0103", "templates.lst", 1, 25, "Ghost Attack"),
        ]
    );
}

#[test]
fn token_values_name_objects_of_their_kind() {
    let found = check(&[
        (
            "SKILL",
            "skills.lst",
            "Climb\nCraft (Visual Art)\tTYPE:Craft\n",
        ),
        (
            "CLASS",
            "classes.lst",
            "CLASS:Wizard\nCLASS:Beast\tISMONSTER:YES\n",
        ),
        (
            "RACE",
            "races.lst",
            "Elf\tMONCSKILL:Climb|Clkimb|TYPE.Craft\tFAVCLASS:Wizard.Illusionist\n\
             Orc\tBONUS:SKILL|Craft (Visual Art),Clkimb|2\tFAVCLASS:Wizzard\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            row("R0105", "races.lst", 1, 21, "Clkimb"),
            row("R0105", "races.lst", 2, 54, "Wizzard"),
        ]
    );
}

#[test]
fn a_filtered_entry_checks_only_the_objects_it_keeps() {
    // Only the kit the entry includes is loaded: the other kit's race is not looked up.
    let found = check(&[
        ("RACE", "races.lst", "Elf\n"),
        (
            "KIT",
            "kits.lst|(INCLUDE:Elf Kit)",
            "STARTPACK:Elf Kit\nRACE:Elf\nSTARTPACK:Orc Kit\nRACE:Orc\n",
        ),
        ("KIT", "more.lst", "STARTPACK:Dwarf Kit\nRACE:Dwarf\n"),
    ]);
    assert_eq!(found, [row("R0105", "more.lst", 2, 6, "Dwarf")]);
}

#[test]
fn feat_is_a_category_of_every_game_mode() {
    // The game mode here names FEAT; without it, FEAT is still a category (PCGen's
    // GameModeFileLoader adds it before it reads miscinfo.lst), but Combat Feat is not.
    let (_, found) = load(
        "ALLOWEDMODES:G\n",
        &[(
            "ABILITY",
            "a.lst",
            "Dodge\tCATEGORY:FEAT\nCleave\tCATEGORY:Combat Feat\n",
        )],
    );
    let codes: Vec<&str> = found.iter().map(|d| d.code.id).collect();
    assert_eq!(codes, ["R0103"]);
}

#[test]
fn reports_read_as_pcgen_would_say_them() {
    let (load, found) = load(
        MISCINFO,
        &[
            (
                "ABILITY",
                "a.lst",
                "CATEGORY=FEAT|Dodge\tTYPE:General\nScent\tCATEGORY:Special Ability\nTrip\tCATEGORY:Special Ability\n",
            ),
            ("CLASS", "c.lst", "CLASS:Fighter\nCLASS:Figther.MOD\tHD:8\n"),
        ],
    );
    insta::assert_snapshot!(crate::diagnostic::render(&found, &load.sources, false));
}

#[test]
fn sizes_stats_and_alignments_are_known_by_their_abbreviation() {
    let found = check(&[
        (
            "SIZE",
            "sizes.lst",
            "Medium\tABB:M\nLarge\tABB:L\nL.MOD\tSIZENUM:5\nHuge.MOD\tSIZENUM:6\n",
        ),
        ("STAT", "stats.lst", "Strength\tABB:STR\n"),
        ("ALIGNMENT", "align.lst", "Lawful Good\tABB:LG\n"),
        ("SAVE", "saves.lst", "Fortitude\n"),
        (
            "EQUIPMENT",
            "equip.lst",
            "Sword\tSIZE:M\tBONUS:SAVE|BASE.Fortitude,Will|1\tPRESIZEGTEQ:Large\tPRESIZEEQ:Gargantuan\n",
        ),
        (
            "SKILL",
            "skills.lst",
            "Climb\tKEYSTAT:STR\nSwim\tKEYSTAT:Strength\n",
        ),
        (
            "DEITY",
            "deities.lst",
            "Pelor\tALIGN:LG\nHextor\tALIGN:LE\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            row("R0105", "deities.lst", 2, 14, "LE"),
            row("R0105", "equip.lst", 1, 40, "Will"),
            row("R0105", "equip.lst", 1, 75, "G"),
            row("R0101", "sizes.lst", 4, 1, "Huge"),
            row("R0105", "skills.lst", 2, 14, "Strength"),
        ]
    );
}

#[test]
fn a_forward_reference_may_stay_unmade() {
    let found = check(&[
        ("FORWARDREF", "SKILL|Profession,Craft", ""),
        ("SKILL", "skills.lst", "Climb\n"),
        (
            "CLASS",
            "classes.lst",
            "CLASS:Fighter\tCSKILL:Climb|Profession|Swim|craft\n",
        ),
    ]);
    assert_eq!(found, [row("R0105", "classes.lst", 1, 39, "Swim")]);
}

#[test]
fn a_left_out_object_is_silent_only_to_names_given_before_it() {
    let found = check(&[
        (
            "ABILITY",
            "abilities.lst",
            "Bard Casting\tCATEGORY:FEAT\tADD:SPELLCASTER|Bard\n",
        ),
        (
            "CLASS",
            "classes.lst|(INCLUDE:Fighter)",
            "CLASS:Fighter\nCLASS:Bard\n",
        ),
        ("TEMPLATE", "templates.lst", "Minstrel\tFAVOREDCLASS:Bard\n"),
    ]);
    assert_eq!(found, [row("R0105", "templates.lst", 1, 23, "Bard")]);
}

#[test]
fn a_pool_is_checked_on_kept_objects_and_an_ability_token_on_every_line() {
    let found = check(&[(
        "ABILITY",
        "feats.lst|(INCLUDE:CATEGORY=FEAT,Kept)",
        "Dropped\tCATEGORY:FEAT\tBONUS:ABILITYPOOL|Nope|1\tCHOOSE:ABILITY|Nope Two|x\n\
         Kept\tCATEGORY:FEAT\tBONUS:ABILITYPOOL|Nope Three|1\tADD:ABILITY|2|Nope Four|x\n",
    )]);
    assert_eq!(
        found,
        [
            row("R0103", "feats.lst", 1, 63, "Nope Two"),
            row("R0103", "feats.lst", 2, 38, "Nope Three"),
            row("R0103", "feats.lst", 2, 65, "Nope Four"),
        ]
    );
}

#[test]
fn names_pcgen_never_reads_or_already_has_are_no_error() {
    let found = check(&[
        ("SKILL", "skills.lst", "Climb\nSurvival\n"),
        (
            "CLASS",
            "classes.lst",
            "CLASS:Ranger\tCSKILL:Climb|Wilderness Lore|Intuit Direction\n\
             SUBCLASS:Egoist\n\
             CLASS:Rogue\tCSKILL:Climb|Innuendo|Read Lips\n",
        ),
        (
            "CLASS",
            "mods.lst",
            "CLASS:Ranger.MOD\tCSKILL:.CLEAR\tCSKILL:Survival\n\
             CLASS:Rogue.MOD\tCSKILL:.CLEAR.Innuendo\n\
             CLASS:Missing.MOD\tCSKILL:Scry\n",
        ),
        (
            "RACE",
            "races.lst",
            "Wolf\tNATURALATTACKS:Bite,Weapon.Natural.Melee,*1,1d6\n",
        ),
        ("DEITY", "deities.lst", "Fenris\tDEITYWEAP:Bite|Gore\n"),
        (
            "SPELL",
            "spells.lst",
            "Mind Thrust\tCLASSES:Egoist=1|TYPE.Psionic=1\n",
        ),
        (
            "ABILITY",
            "abilities.lst",
            "Uncategorised\tCSKILL:Hide\n\
             Trait\tCATEGORY:Nowhere\tCSKILL:Spot\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            // One error each for the ability lines and the mod's object; no cascade.
            row("R0102", "abilities.lst", 1, 1, "Uncategorised"),
            row("R0103", "abilities.lst", 2, 16, "Nowhere"),
            // The cleared names pass; Read Lips was not cleared.
            row("R0105", "classes.lst", 3, 35, "Read Lips"),
            // Natural attacks make weapon proficiencies; Gore is made by none.
            row("R0105", "deities.lst", 1, 23, "Gore"),
            row("R0101", "mods.lst", 3, 7, "Missing"),
        ]
    );
}

#[test]
fn a_prefact_is_one_error_at_its_first_unknown_fact() {
    let found = check(&[
        (
            "DATACONTROL",
            "controls.lst",
            "FACTDEF:ABILITY|Known\tDATAFORMAT:BOOLEAN\n",
        ),
        (
            "ABILITY",
            "abilities.lst",
            "Trait\tCATEGORY:FEAT\tPREMULT:1,[PREVAREQ:x,1],[!PREFACT:1,ABILITIES,Known=True,First=True,Second=True]\n\
             Other\tCATEGORY:FEAT\tPREFACT:1,ABILITIES,Second=True\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            row("R0105", "abilities.lst", 1, 79, "First"),
            row("R0105", "abilities.lst", 2, 41, "Second"),
        ]
    );
}

/// [`load`]'s dataset checked with [`super::check_with`], an object of the data folder
/// being one of `anywhere` (kind, key): the unknown prerequisite keys (`R0106`).
fn prerequisite_keys(
    files: &[(&str, &str, &str)],
    anywhere: &[(crate::load::FileKind, &str)],
) -> Vec<(String, usize, usize, String, Option<String>)> {
    let (load, _) = load(MISCINFO, files);
    /// The data folder of the test: `anywhere`'s objects, and no game system (the load
    /// set's keys are searched for suggestions).
    struct Listed<'a>(&'a [(crate::load::FileKind, &'a str)]);
    impl super::DataFolder for Listed<'_> {
        fn defines(&self, kind: crate::load::FileKind, key: &str) -> bool {
            self.0
                .iter()
                .any(|(k, n)| *k == kind && n.eq_ignore_ascii_case(key))
        }
        fn closest(
            &self,
            _: crate::load::FileKind,
            _: &str,
            _: &std::path::Path,
        ) -> Option<Option<String>> {
            None
        }
    }
    let mut found = super::check_with(&load, Some(&Listed(anywhere)), &Default::default());
    crate::diagnostic::sort(&mut found, &load.sources);
    found
        .iter()
        .filter(|d| d.code.id == "R0106")
        .map(|d| {
            let file = load.sources.get(d.span.file).unwrap();
            let (line, col) = file.line_col(d.span.range().start);
            let text = file.text.get(d.span.range()).unwrap_or("").to_owned();
            (
                d.code.id.to_owned(),
                line,
                col,
                text,
                d.suggestion.as_ref().map(|s| s.text.clone()),
            )
        })
        .collect()
}

#[test]
fn prerequisite_keys_no_load_defines_are_warnings() {
    use crate::load::FileKind;
    let feats = "Dodge\tCATEGORY:FEAT\n\
                 Weapon Focus\tCATEGORY:FEAT\tMULT:YES\n\
                 Mobility\tCATEGORY:FEAT\tPREABILITY:1,CATEGORY=FEAT,Dodg\tPREMULT:1,[!PREFEAT:1,Weapon Focus (Longsword)],[PREFEAT:2,TYPE=Combat,Dodge,CHECKMULT]\n\
                 Spring\tCATEGORY:FEAT\tPRESKILL:1,Jump=5,TYPE.Athletic=2,Knowledge(history)=1\tPRERACE:1,RACETYPE=Humanoid,Elf%,Orcc\tPREDEITY:1,Y\n";
    let found = prerequisite_keys(
        &[("ABILITY", "feats.lst", feats)],
        &[
            (FileKind::Skill, "Jump"),
            (FileKind::Skill, "Knowledge (history)"),
        ],
    );
    assert_eq!(
        found,
        [
            (
                "R0106".to_owned(),
                3,
                51,
                "Dodg".to_owned(),
                Some("Dodge".to_owned())
            ),
            ("R0106".to_owned(), 4, 110, "Orcc".to_owned(), None),
        ]
    );
    // Without the data folder's index nothing is said: "in no load" is unknown.
    let (load, _) = load(MISCINFO, &[("ABILITY", "feats.lst", feats)]);
    assert!(super::check(&load).iter().all(|d| d.code.id != "R0106"));
}

#[test]
fn a_group_no_object_joins_is_one_error_per_file_at_its_first_use() {
    let skills = "Climb\tTYPE:Strength\nPerform (Sing)\tTYPE:Perform.Charisma\nCraft (Bows)\n";
    let found = check(&[
        ("SKILL", "skills.lst", skills),
        // A `.MOD` in another file gives Craft (Bows) its type.
        ("SKILL", "skill_mods.lst", "Craft (Bows).MOD\tTYPE:Craft\n"),
        (
            "TEMPLATE",
            "templates.lst",
            "Bard Blood\tCSKILL:TYPE=Perform|TYPE=Perfrom\n\
             Smith Blood\tCSKILL:TYPE=Craft|TYPE.Perform.Charisma\tBONUS:SKILL|TYPE=Perfrom|2\n\
             Chooser\tBONUS:SKILL|TYPE=%CHOICE|1\tCSKILL:TYPE=Perform.Strength\n",
        ),
    ]);
    assert_eq!(
        found,
        [
            row("R0107", "templates.lst", 1, 32, "TYPE=Perfrom"),
            row("R0107", "templates.lst", 3, 43, "TYPE=Perform.Strength"),
        ]
    );
    let (load, found) = load(
        MISCINFO,
        &[
            ("SKILL", "skills.lst", skills),
            (
                "TEMPLATE",
                "t.lst",
                "Bard Blood\tCSKILL:TYPE=Perfrom\tCSKILL:TYPE=Perfrom\n",
            ),
        ],
    );
    let d = &found[0];
    assert_eq!(
        d.message,
        "no SKILL of `TYPE=Perfrom` in this load set (and 1 more use in this file)"
    );
    assert_eq!(
        d.suggestion.as_ref().map(|s| s.text.as_str()),
        Some("TYPE=Perform")
    );
    let file = load.sources.get(d.span.file).unwrap();
    assert_eq!(file.text.get(d.span.range()), Some("TYPE=Perfrom"));
}

#[test]
fn armour_types_all_and_known_spells_name_groups_too() {
    let found = check(&[
        (
            "EQUIPMENT",
            "equip.lst",
            "Chain Shirt\tTYPE:Armor.Light.Suit\n",
        ),
        (
            "CLASS",
            "classes.lst",
            "CLASS:Knight\tAUTO:ARMORPROF|ARMORTYPE=Light|ARMORTYPE=Heavy\tAUTO:WEAPONPROF|TYPE=Simple\n\
             CLASS:Sage\tKNOWNSPELLS:LEVEL=0|LEVEL=1\n",
        ),
        (
            "DEITY",
            "deities.lst",
            "Anyone\tDOMAINS:ANY\nNobody\tDOMAINS:ALL\n",
        ),
    ]);
    // "Unarmed Strike" is a Simple proficiency of every load (PCGen makes it).
    assert_eq!(
        found,
        [
            row("R0107", "classes.lst", 1, 45, "ARMORTYPE=Heavy"),
            row("R0107", "classes.lst", 2, 24, "LEVEL=0"),
            // `ANY` and `ALL` are one group: one error for the file.
            row("R0107", "deities.lst", 1, 16, "ANY"),
        ]
    );
}

#[test]
fn moncskill_needs_a_monster_class() {
    let race = ("RACE", "races.lst", "Centaur\tMONCSKILL:Climb\n");
    let skills = ("SKILL", "skills.lst", "Climb\n");
    // No class is a monster's: PCGen's "No ClassSkillList objects of TYPE=Monster".
    let plain = ("CLASS", "classes.lst", "CLASS:Fighter\tTYPE:Base.PC\n");
    assert_eq!(
        check(&[skills, race, plain]),
        [row("R0107", "races.lst", 1, 19, "Climb")]
    );
    // The label names PCGen's object, as its log does.
    let (_, found) = load(MISCINFO, &[skills, race, plain]);
    assert!(
        found[0]
            .primary_label
            .contains("ClassSkillList of TYPE=Monster")
    );
    // A class of a type the game mode calls a monster's, or marked itself.
    let typed = ("CLASS", "classes.lst", "CLASS:Humanoid\tTYPE:Monster\n");
    let marked = ("CLASS", "classes.lst", "CLASS:Beast\tISMONSTER:YES\n");
    let monster_mode = format!("{MISCINFO}CLASSTYPE:Monster\tCRFORMULA:0\tISMONSTER:YES\n");
    assert!(load(&monster_mode, &[skills, race, typed]).1.is_empty());
    assert_eq!(
        check(&[skills, race, typed]).len(),
        1,
        "a mode without monster class types"
    );
    assert!(check(&[skills, race, marked]).is_empty());
}

#[test]
fn a_kept_copy_has_its_bases_types() {
    let armour = "Chain Shirt\tKEY:Chain Shirt (Base)\tTYPE:Armor.Light.Suit\n\
                  Chain Shirt (Base).COPY=Mithral Shirt\tKEY:Mithral Shirt\n";
    let class = (
        "CLASS",
        "classes.lst",
        "CLASS:Knight\tAUTO:ARMORPROF|ARMORTYPE=Light\n",
    );
    assert!(check(&[("EQUIPMENT", "equip.lst", armour), class]).is_empty());
    // The entry keeps only the copy: still light armour.
    let kept = check(&[
        ("EQUIPMENT", "equip.lst|(INCLUDE:Mithral Shirt)", armour),
        class,
    ]);
    assert!(kept.iter().all(|f| f.0 != "R0107"), "{kept:?}");
    // Nothing the entry keeps is armour.
    let none = check(&[
        (
            "EQUIPMENT",
            "equip.lst|(INCLUDE:Rope)",
            &format!("{armour}Rope\tTYPE:Goods\n"),
        ),
        class,
    ]);
    assert_eq!(
        none,
        [row("R0107", "classes.lst", 1, 29, "ARMORTYPE=Light")]
    );
}

#[test]
fn a_choose_skill_group_is_checked_and_its_other_items_are_not() {
    let found = check(&[
        ("SKILL", "skills.lst", "Climb\tTYPE:Strength\n"),
        (
            "TEMPLATE",
            "templates.lst",
            "Crafty\tCHOOSE:SKILL|CLASS|Clkimb|TYPE=Craft|TYPE=Strength\n",
        ),
    ]);
    assert_eq!(found, [row("R0107", "templates.lst", 1, 34, "TYPE=Craft")]);
}
