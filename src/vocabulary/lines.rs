//! Line forms: which line type (table kind) a line of a file is, and which of its columns are
//! tokens. See `pcgen-token-vocabulary.md` §3 and `docs/loading.md`.

use crate::load::FileKind;

/// What the first column of a line holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstColumn {
    /// The object's name (`Power Attack`, `CLASS:Fighter`, `Foo.MOD`): not a token.
    Name,
    /// A token like every other column (SOURCE lines, kit sub-lines, DATACONTROL lines).
    Token,
}

/// The line type of one line: the table kind its tokens are looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineType {
    /// Tokens are looked up in this kind of the table.
    Kind {
        /// The table kind (`RACE`, `CLASSLEVEL`, `KIT:GEAR` …).
        kind: &'static str,
        /// Whether the first column is a token too.
        first: FirstColumn,
        /// For a CLASS level line: the level (`n` or `n:REPEATLEVEL:…`).
        level: Option<u32>,
    },
    /// A line whose first column names no line type of its file; PCGen drops it.
    Unknown {
        /// What PCGen expects instead, for the help line.
        expected: &'static str,
    },
    /// A line the model reads and checks itself (VARIABLE, GLOBALMODIFIER, DATATABLE, an
    /// unknown DATACONTROL line): nothing to look up here.
    Model,
}

/// The table kind of the objects of a file kind (`None` for kinds with several line types
/// or read by the model).
pub fn object_kind(kind: FileKind) -> Option<&'static str> {
    match kind {
        // FEAT files hold abilities (category FEAT) since PCGen 6.
        FileKind::Feat => Some("ABILITY"),
        // The table kind of these is the PCC token that lists their files.
        FileKind::AbilityCategory
        | FileKind::Size
        | FileKind::Stat
        | FileKind::Save
        | FileKind::Alignment
        | FileKind::WeaponProf
        | FileKind::ArmorProf
        | FileKind::ShieldProf
        | FileKind::Skill
        | FileKind::Language
        | FileKind::Ability
        | FileKind::Race
        | FileKind::Domain
        | FileKind::Spell
        | FileKind::Deity
        | FileKind::Template
        | FileKind::EquipMod
        | FileKind::Equipment
        | FileKind::CompanionMod
        | FileKind::Dynamic => Some(kind.token()),
        _ => None,
    }
}

/// For a file kind whose every line is an object line of one table kind (first column the
/// name), but for `SOURCE…` lines: that kind. For such a file [`line_type`] of a line not
/// starting with `SOURCE` is `Kind { kind, first: Name, level: None }`; the validator uses
/// this to skip the dispatch on each line.
pub fn plain_object_kind(kind: FileKind) -> Option<&'static str> {
    match kind {
        FileKind::Variable
        | FileKind::GlobalModifier
        | FileKind::DataTable
        | FileKind::DataControl
        | FileKind::Bioset
        | FileKind::Kit
        | FileKind::Class
        | FileKind::AbilityCategory
        | FileKind::CompanionMod => None,
        _ => object_kind(kind),
    }
}

const KIT_LINES: &[&str] = &[
    "ALIGN",
    "RACE",
    "SKILL",
    "GEAR",
    "SPELLS",
    "STAT",
    "PROF",
    "FEAT",
    "ABILITY",
    "NAME",
    "LEVELABILITY",
    "CLASS",
    "TEMPLATE",
    "DEITY",
    "KIT",
    "TABLE",
    "SELECT",
    "GENDER",
    "FUNDS",
    "LANGBONUS",
    "AGE",
];

const DATACONTROL_LINES: &[&str] = &[
    "FACTDEF",
    "FACTSETDEF",
    "DEFAULTVARIABLEVALUE",
    "FUNCTION",
    "DYNAMICSCOPE",
];

/// `KIT:<prefix>` / `DATACONTROL:<prefix>` as a static table kind (the table's own string),
/// when `prefix` is one of `names` and the table has the kind.
fn prefixed(family: &'static str, names: &[&'static str], prefix: &str) -> Option<&'static str> {
    let name = names.iter().find(|n| **n == prefix)?;
    // "FAMILY:NAME" on the stack: this runs for every kit and DATACONTROL line.
    let mut buf = [0u8; 64];
    let (f, n) = (family.as_bytes(), name.as_bytes());
    let key = buf.get_mut(..f.len() + 1 + n.len())?;
    let (head, tail) = key.split_at_mut(f.len());
    head.copy_from_slice(f);
    let (colon, rest) = tail.split_first_mut()?;
    *colon = b':';
    rest.copy_from_slice(n);
    crate::vocabulary::Vocabulary::get().kind_named(key)
}

/// `first` up to its first `:` (all of it without one).
fn before_colon(first: &str) -> &str {
    let cut = super::names::find_byte(first.as_bytes(), 0, b':').unwrap_or(first.len());
    first.get(..cut).unwrap_or(first)
}

fn is_copy_mod_forget(first: &str) -> bool {
    let t = first.trim_end();
    first.find(".COPY=").is_some_and(|i| i > 0)
        || t.len() > 4 && t.ends_with(".MOD")
        || t.len() > 7 && t.ends_with(".FORGET")
}

/// The line type of a line of a `kind` file whose first column is `first`.
pub fn line_type(kind: FileKind, first: &str) -> LineType {
    let obj = |k: &'static str, first| LineType::Kind {
        kind: k,
        first,
        level: None,
    };
    match kind {
        FileKind::Variable | FileKind::GlobalModifier | FileKind::DataTable => LineType::Model,
        FileKind::DataControl => {
            let prefix = before_colon(first);
            match prefixed("DATACONTROL", DATACONTROL_LINES, prefix) {
                Some(k) => obj(k, FirstColumn::Token),
                None => LineType::Model,
            }
        }
        FileKind::Bioset => match before_colon(first) {
            "AGESET" => obj("BIOSET:AGESET", FirstColumn::Name),
            "REGION" => obj("BIOSET:REGION", FirstColumn::Name),
            "RACENAME" => obj("BIOSET:RACENAME", FirstColumn::Name),
            _ => LineType::Unknown {
                expected: "a BIOSET line starts with AGESET:, REGION: or RACENAME:",
            },
        },
        _ if first.starts_with("SOURCE") => obj("SOURCE", FirstColumn::Token),
        FileKind::Kit => {
            if first.starts_with("STARTPACK:") {
                return obj("KIT", FirstColumn::Name);
            }
            if first.starts_with("REGION:") {
                return obj("KIT:REGION", FirstColumn::Name);
            }
            let prefix = before_colon(first);
            match prefixed("KIT", KIT_LINES, prefix) {
                Some(k) => obj(k, FirstColumn::Token),
                None => LineType::Unknown {
                    expected: "a kit line starts with STARTPACK:, REGION: or a kit line type \
                               (GEAR:, SKILL:, ABILITY:, CLASS:, …)",
                },
            }
        }
        FileKind::Class => class_line(first),
        FileKind::AbilityCategory => {
            if first.starts_with("ABILITYCATEGORY:") {
                obj("ABILITYCATEGORY", FirstColumn::Name)
            } else {
                LineType::Unknown {
                    expected: "every ABILITYCATEGORY line starts with ABILITYCATEGORY:<name>",
                }
            }
        }
        FileKind::CompanionMod if !is_copy_mod_forget(first) && first.contains(':') => {
            obj("COMPANIONMOD", FirstColumn::Token)
        }
        _ => match object_kind(kind) {
            Some(k) => obj(k, FirstColumn::Name),
            None => LineType::Model,
        },
    }
}

fn class_line(first: &str) -> LineType {
    let obj = |k: &'static str, level| LineType::Kind {
        kind: k,
        first: FirstColumn::Name,
        level,
    };
    for (prefix, kind) in [
        ("CLASS:", "CLASS"),
        ("SUBCLASSLEVEL:", "SUBCLASSLEVEL"),
        ("SUBCLASS:", "SUBCLASS"),
        ("SUBSTITUTIONLEVEL:", "SUBSTITUTIONLEVEL"),
        ("SUBSTITUTIONCLASS:", "SUBSTITUTIONCLASS"),
    ] {
        if first.starts_with(prefix) {
            return obj(kind, None);
        }
    }
    let level_text = before_colon(first).trim();
    match level_text.parse::<u32>() {
        Ok(0) => obj("CLASS", None),
        Ok(n) => obj("CLASSLEVEL", Some(n)),
        Err(_) => LineType::Unknown {
            expected: "a CLASS file line starts with CLASS:, SUBCLASS:, SUBCLASSLEVEL:, \
                       SUBSTITUTIONCLASS:, SUBSTITUTIONLEVEL: or a level number",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(k: FileKind, first: &str) -> Option<&'static str> {
        match line_type(k, first) {
            LineType::Kind { kind, .. } => Some(kind),
            _ => None,
        }
    }

    #[test]
    fn class_files_have_level_lines() {
        assert_eq!(kind_of(FileKind::Class, "CLASS:Fighter"), Some("CLASS"));
        assert_eq!(kind_of(FileKind::Class, "CLASS:Fighter.MOD"), Some("CLASS"));
        assert_eq!(kind_of(FileKind::Class, "0"), Some("CLASS"));
        assert_eq!(
            line_type(FileKind::Class, "3:REPEATLEVEL:4"),
            LineType::Kind {
                kind: "CLASSLEVEL",
                first: FirstColumn::Name,
                level: Some(3)
            }
        );
        assert_eq!(
            kind_of(FileKind::Class, "SUBCLASSLEVEL:2"),
            Some("SUBCLASSLEVEL")
        );
        assert!(matches!(
            line_type(FileKind::Class, "Fighter"),
            LineType::Unknown { .. }
        ));
    }

    #[test]
    fn plain_object_kinds_agree_with_line_type() {
        let firsts = [
            "Dodge",
            "Dodge.MOD",
            "Dodge.COPY=Dodge2",
            "Dodge.FORGET",
            "CLASS:Fighter",
            "1",
            "KEY:x",
            "STARTPACK:Kit",
            "SOURCEPAGE:p.1",
        ];
        let mut plain = 0;
        for kind in FileKind::LOAD_ORDER {
            let Some(k) = plain_object_kind(kind) else {
                continue;
            };
            plain += 1;
            for first in firsts {
                if first.starts_with("SOURCE") {
                    continue;
                }
                let want = LineType::Kind {
                    kind: k,
                    first: FirstColumn::Name,
                    level: None,
                };
                assert_eq!(line_type(kind, first), want, "{kind:?} {first}");
            }
        }
        assert!(plain > 10, "{plain}");
    }

    #[test]
    fn kit_and_bioset_lines_pick_their_type() {
        assert_eq!(kind_of(FileKind::Kit, "STARTPACK:Kit"), Some("KIT"));
        assert_eq!(kind_of(FileKind::Kit, "GEAR:Rope"), Some("KIT:GEAR"));
        assert_eq!(kind_of(FileKind::Kit, "REGION:Elf"), Some("KIT:REGION"));
        assert!(matches!(
            line_type(FileKind::Kit, "gear:Rope"),
            LineType::Unknown { .. }
        ));
        assert_eq!(
            kind_of(FileKind::Bioset, "AGESET:0|Adult"),
            Some("BIOSET:AGESET")
        );
        assert!(matches!(
            line_type(FileKind::Bioset, "SOURCELONG:x"),
            LineType::Unknown { .. }
        ));
        assert_eq!(kind_of(FileKind::Race, "SOURCELONG:x"), Some("SOURCE"));
        assert_eq!(kind_of(FileKind::Feat, "Power Attack"), Some("ABILITY"));
    }
}
