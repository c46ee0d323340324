//! Game modes: `miscinfo.lst` (ALLOWEDMODES binds PCCs to the mode) and `codeControl.lst`
//! (feature switches that decide built-in channels and the legacy FACE bridge).

use crate::load::fs::FileSystem;
use crate::source::Span;
use std::path::{Path, PathBuf};

/// One game mode folder under `system/gameModes/`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameMode {
    /// Folder name.
    pub dir: String,
    /// `ALLOWEDMODES:` values (what PCC GAMEMODE values are matched against).
    pub allowed: Vec<String>,
    /// `codeControl.lst` switches.
    pub controls: CodeControls,
    /// The ability categories `miscinfo.lst` defines (`ABILITYCATEGORY:Name … CATEGORY:Parent`),
    /// as `(name, parent)`: with those of the load set's ABILITYCATEGORY files, the only
    /// categories an ability, a `.MOD` or an `ABILITY:` token may name.
    pub ability_categories: Vec<(String, String)>,
    /// The class types `miscinfo.lst` marks as a monster's (`CLASSTYPE:Monster … ISMONSTER:YES`):
    /// a class of such a type is a monster class, whose skill list `MONCSKILL:` fills.
    pub monster_class_types: Vec<String>,
}

/// The switches of `codeControl.lst` the formula system depends on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeControls {
    /// `FACE:<var>`: the legacy `FACE:` token is disabled and Face is a variable.
    pub face: Option<String>,
    /// Where `FACE:` was switched on (for diagnostics).
    pub face_span: Option<Span>,
    /// `ALIGNMENTFEATURE:YES`: the Alignment channel exists.
    pub alignment_feature: bool,
    /// `DOMAINFEATURE:YES`: the Deity channel exists.
    pub domain_feature: bool,
    /// `STATINPUT:<channel>`: the stat UI writes this channel.
    pub stat_input: Option<String>,
    /// `STATMODSAVE:<var>`: saves read this local variable.
    pub stat_mod_save: Option<String>,
}

impl GameMode {
    /// True when a PCC's GAMEMODE value selects this mode.
    pub fn accepts(&self, mode: &str) -> bool {
        self.allowed.iter().any(|a| a.eq_ignore_ascii_case(mode))
    }
}

/// Reads every game mode below `dir` that has a `miscinfo.lst` (sorted by folder name).
pub fn read_game_modes(fs: &dyn FileSystem, dir: &Path) -> Vec<GameMode> {
    let mut dirs: Vec<PathBuf> = fs
        .files_below(dir)
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "miscinfo.lst"))
        .filter(|p| p.parent().and_then(Path::parent) == Some(dir))
        .collect();
    dirs.sort();
    dirs.into_iter()
        .filter_map(|misc| {
            let folder = misc.parent()?;
            let text = String::from_utf8_lossy(&fs.read(&misc).ok()?).into_owned();
            let mut gm = GameMode {
                dir: folder.file_name()?.to_string_lossy().into_owned(),
                ..GameMode::default()
            };
            for (k, v) in pairs(&text) {
                if k == "ALLOWEDMODES" {
                    gm.allowed = v.split('|').map(|s| s.trim().to_owned()).collect();
                }
            }
            gm.ability_categories = ability_categories(&text);
            gm.monster_class_types = monster_class_types(&text);
            if gm.allowed.is_empty() {
                // PCGen's GameMode: without ALLOWEDMODES, a mode allows its own name.
                gm.allowed.push(gm.dir.clone());
            }
            if let Ok(bytes) = fs.read(&folder.join("codeControl.lst")) {
                gm.controls = parse_controls(&String::from_utf8_lossy(&bytes));
            }
            Some(gm)
        })
        .collect()
}

fn pairs(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .flat_map(|l| l.split('\t'))
        .filter_map(|t| t.trim().split_once(':'))
}

/// The `ABILITYCATEGORY:Name` lines of a game-mode or ABILITYCATEGORY file as
/// `(name, parent)`: the parent is the line's `CATEGORY:` (the category whose abilities this
/// one draws from), or the category itself when the line has none.
pub fn ability_categories(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let mut tokens = l.split('\t').map(str::trim).filter(|t| !t.is_empty());
            let name = tokens.next()?.strip_prefix("ABILITYCATEGORY:")?.trim();
            let parent = tokens
                .find_map(|t| t.strip_prefix("CATEGORY:"))
                .map_or(name, str::trim);
            (!name.is_empty()).then(|| (name.to_owned(), parent.to_owned()))
        })
        .collect()
}

/// The `CLASSTYPE:Name` lines of a `miscinfo.lst` that say `ISMONSTER:YES`.
pub fn monster_class_types(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| {
            let mut tokens = l.split('\t').map(str::trim).filter(|t| !t.is_empty());
            let name = tokens.next()?.strip_prefix("CLASSTYPE:")?.trim();
            let monster = tokens.any(|t| {
                t.strip_prefix("ISMONSTER:")
                    .is_some_and(|v| v.trim().eq_ignore_ascii_case("YES"))
            });
            (monster && !name.is_empty()).then(|| name.to_owned())
        })
        .collect()
}

/// Parses `codeControl.lst` text.
pub fn parse_controls(text: &str) -> CodeControls {
    let mut c = CodeControls::default();
    for (k, v) in pairs(text) {
        let v = v.trim();
        match k {
            "FACE" => c.face = Some(v.to_owned()),
            "ALIGNMENTFEATURE" => c.alignment_feature = v.eq_ignore_ascii_case("YES"),
            "DOMAINFEATURE" => c.domain_feature = v.eq_ignore_ascii_case("YES"),
            "STATINPUT" => c.stat_input = Some(v.to_owned()),
            "STATMODSAVE" => c.stat_mod_save = Some(v.to_owned()),
            _ => {}
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    #[test]
    fn reads_allowed_modes_and_controls() {
        let fs = MemoryFs::new()
            .with(
                "/g/Pathfinder/miscinfo.lst",
                "#DEFAULTVARIABLEVALUE:NUMBER|0\nALLOWEDMODES:Pathfinder|Pathfinder_RPG\n",
            )
            .with(
                "/g/Pathfinder/codeControl.lst",
                "ALIGNMENTFEATURE:YES\n#STATINPUT:X\nFACE:Face\n",
            )
            .with("/g/default/compatibilityDataControl.lst", "");
        let modes = read_game_modes(&fs, Path::new("/g"));
        assert_eq!(modes.len(), 1);
        assert!(modes[0].accepts("pathfinder_rpg"));
        assert_eq!(modes[0].controls.face.as_deref(), Some("Face"));
        assert!(modes[0].controls.alignment_feature);
        assert!(modes[0].controls.stat_input.is_none());
    }

    #[test]
    fn reads_ability_categories_with_their_parents() {
        let text = "ABILITYCATEGORY:FEAT\tVISIBLE:YES\tCATEGORY:FEAT\n\
                    #ABILITYCATEGORY:Hidden\tCATEGORY:FEAT\n\
                    ABILITYCATEGORY:Combat Feat\tCATEGORY:FEAT\tTYPE:Combat\n\
                    ABILITYCATEGORY:Trait\tVISIBLE:YES\n";
        assert_eq!(
            ability_categories(text),
            [
                ("FEAT", "FEAT"),
                ("Combat Feat", "FEAT"),
                ("Trait", "Trait")
            ]
            .map(|(a, b)| (a.to_owned(), b.to_owned()))
        );
    }

    #[test]
    fn reads_the_monster_class_types() {
        let text = "CLASSTYPE:PC\tCRFORMULA:CL\tISMONSTER:NO\n\
                    CLASSTYPE:Monster\tCRFORMULA:0\tISMONSTER:YES\tXPPENALTY:NO\n\
                    #CLASSTYPE:Old\tISMONSTER:YES\n\
                    CLASSTYPE:Companion\tISMONSTER:yes\n";
        assert_eq!(monster_class_types(text), ["Monster", "Companion"]);
    }

    #[test]
    fn a_mode_without_allowedmodes_allows_its_folder_name() {
        let fs = MemoryFs::new().with("/g/Sidewinder/miscinfo.lst", "GAMEMODEKEY:x\n");
        let modes = read_game_modes(&fs, Path::new("/g"));
        assert!(modes[0].accepts("Sidewinder"));
    }
}
