//! Character files (TOML): the objects a character is granted and its channel inputs.
//!
//! ```toml
//! # Objects are granted in this order, as KIND:KEY (a file kind such as RACE, STAT,
//! # SIZE, EQUIPMENT, ABILITY, or a DYNAMIC category such as MOVEMENT).
//! grant = ["STAT:STR", "SIZE:M", "MOVEMENT:Walk", "EQUIPMENT:Club", "EQUIPMENT:Club"]
//! # Objects removed again (the latest instance of each), after grants and equipmods.
//! # (Top-level keys go before the first [[table]].)
//! remove = ["EQUIPMENT:Club"]
//!
//! # Channel inputs: the channel of an instance (omit `object` for a global channel).
//! [[input]]
//! object = "STAT:STR"
//! channel = "STATSCORE"
//! value = "15"
//!
//! # Equipment modifiers onto a part (head) of a granted equipment.
//! [[equipmod]]
//! equipment = "EQUIPMENT:Second Skin"
//! part = 1
//! key = "Armor (Infrared sensors)"
//! ```
//!
//! The steps run in this order — grants, equipment modifiers, removals, inputs (each list in
//! file order; a later input to the same channel wins) — and the character is solved once
//! at the end.
//!
//! An ability may be named `ABILITY:CATEGORY|KEY` when abilities of two categories share its
//! key; an input `value` may be an integer or `true`/`false` without quotes. The format is
//! documented for users in `docs/character-file.md`; the JSON Schema of this file is
//! `schemas/character.schema.json`.
//!
//! Read with [`parse_located`] and built with [`build_located`], every problem with an entry
//! carries the span of that entry in the file's text (the string in `grant` / `remove`, the
//! `object` / `channel` / `value` of an input, the `equipment` / `key` of an equipment
//! modifier), and a file that is not valid TOML or has unknown keys or wrong value types is
//! a [`BAD_FILE`] (`S0206`) diagnostic at the place TOML names.

use super::{Character, InstanceId};
use crate::diagnostic::{Code, Diagnostic};
use crate::load::FileKind;
use crate::model::{Dataset, ObjectKind};
use crate::source::{FileId, SourceMap, Span};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use toml::Spanned;

/// A character file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CharacterFile {
    /// Objects to grant, in order, as `KIND:KEY` (e.g. `STAT:STR`, `EQUIPMENT:Club`,
    /// `MOVEMENT:Walk`). An object listed twice is granted twice (two instances).
    #[serde(default)]
    pub grant: Vec<String>,
    /// Channel inputs.
    #[serde(default)]
    pub input: Vec<InputEntry>,
    /// Equipment modifiers put onto a part of a granted equipment.
    #[serde(default)]
    pub equipmod: Vec<EquipModEntry>,
    /// Objects removed again, in order, after the grants and equipment modifiers (spelled
    /// as in `grant`; each entry removes the latest instance still granted, with everything
    /// it applied and granted). Inputs come after removals.
    #[serde(default)]
    pub remove: Vec<String>,
}

/// One equipment modifier on a part of a granted equipment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EquipModEntry {
    /// The granted equipment, spelled as in `grant` (e.g. `EQUIPMENT:Second Skin`).
    pub equipment: String,
    /// The part (head) number, from 1.
    #[serde(default = "first_part")]
    pub part: u32,
    /// The EQUIPMOD's key.
    pub key: String,
}

fn first_part() -> u32 {
    1
}

/// One channel input.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InputEntry {
    /// The granted object whose channel this is, as `KIND:KEY` (absent: the global scope).
    #[serde(default)]
    pub object: Option<String>,
    /// The channel name (as in `input("STATSCORE")`).
    pub channel: String,
    /// The value, as text in the channel's format (`"15"`, `"true"`, `"1d6"`, …); an
    /// integer or `true`/`false` may be written without quotes (`value = 15`), a decimal
    /// only in quotes (`"1.5"`: a TOML float is not exact).
    #[serde(deserialize_with = "value_text")]
    #[schemars(with = "ValueSchema")]
    pub value: String,
}

/// What a `value` may be written as (for the schema).
#[derive(schemars::JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)]
enum ValueSchema {
    /// Text in the channel's format.
    Text(String),
    /// An integer, without quotes.
    Integer(i64),
    /// `true` or `false`, without quotes.
    Boolean(bool),
}

/// An input value as written: text, or an integer or boolean written without quotes, kept
/// as its text.
#[derive(Clone, Debug)]
struct ValueText(String);

impl<'de> Deserialize<'de> for ValueText {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = ValueText;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("text, an integer or true/false (a decimal in quotes: \"1.5\")")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<ValueText, E> {
                Ok(ValueText(v.to_owned()))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ValueText, E> {
                Ok(ValueText(v.to_string()))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ValueText, E> {
                Ok(ValueText(v.to_string()))
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<ValueText, E> {
                Ok(ValueText(v.to_string()))
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Reads [`InputEntry::value`]: see [`ValueText`].
fn value_text<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    ValueText::deserialize(d).map(|v| v.0)
}

/// A character file is not valid TOML, or its keys or value types are not those of
/// [`CharacterFile`] (an unknown key, a number where text belongs, a missing `channel`).
pub const BAD_FILE: Code = Code {
    id: "S0206",
    name: "bad-character-file",
};

/// A list of a character file (`grant`, `input`, `equipmod`, `remove`) has more than
/// [`MAX_ENTRIES`] entries: the rest are not read.
pub const TOO_MANY_ENTRIES: Code = Code {
    id: "S0207",
    name: "too-many-entries",
};

/// The most entries a list of a character file holds. A real character has a few hundred
/// grants; each grant is an instance with its variables (about 4.8 KB), so a million of them
/// (11 MB of TOML) took 4.84 GB.
pub const MAX_ENTRIES: usize = 10_000;

/// Parses a character file's text.
pub fn parse(text: &str) -> Result<CharacterFile, String> {
    toml::from_str(text).map_err(|e| e.to_string())
}

/// Splits `KIND:KEY`.
pub fn split_object(text: &str) -> Option<(&str, &str)> {
    let (kind, key) = text.split_once(':')?;
    let (kind, key) = (kind.trim(), key.trim());
    (!kind.is_empty() && !key.is_empty()).then_some((kind, key))
}

/// A character file with the place of each entry in its text: what [`parse_located`] reads
/// and [`build_located`] builds, so that every problem with an entry points at it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocatedFile {
    #[serde(default)]
    grant: Vec<Spanned<String>>,
    #[serde(default)]
    input: Vec<LocatedInput>,
    #[serde(default)]
    equipmod: Vec<LocatedEquipMod>,
    #[serde(default)]
    remove: Vec<Spanned<String>>,
}

/// [`InputEntry`] with the place of each value.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LocatedInput {
    #[serde(default)]
    object: Option<Spanned<String>>,
    channel: Spanned<String>,
    value: Spanned<ValueText>,
}

/// [`EquipModEntry`] with the place of each value.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LocatedEquipMod {
    equipment: Spanned<String>,
    #[serde(default = "first_part_unplaced")]
    part: Spanned<u32>,
    key: Spanned<String>,
}

/// Part 1, with no place in the text (`part` left out).
fn first_part_unplaced() -> Spanned<u32> {
    Spanned::new(0..0, first_part())
}

/// A value with no place in any text (for a [`CharacterFile`] built in code).
fn unplaced(value: &str) -> Spanned<String> {
    Spanned::new(0..0, value.to_owned())
}

impl LocatedFile {
    /// The entries without their places.
    pub fn file(&self) -> CharacterFile {
        let text = |s: &Spanned<String>| s.get_ref().clone();
        CharacterFile {
            grant: self.grant.iter().map(text).collect(),
            input: self
                .input
                .iter()
                .map(|i| InputEntry {
                    object: i.object.as_ref().map(text),
                    channel: text(&i.channel),
                    value: i.value.get_ref().0.clone(),
                })
                .collect(),
            equipmod: self
                .equipmod
                .iter()
                .map(|e| EquipModEntry {
                    equipment: text(&e.equipment),
                    part: *e.part.get_ref(),
                    key: text(&e.key),
                })
                .collect(),
            remove: self.remove.iter().map(text).collect(),
        }
    }
}

impl From<&CharacterFile> for LocatedFile {
    fn from(file: &CharacterFile) -> Self {
        LocatedFile {
            grant: file.grant.iter().map(|g| unplaced(g)).collect(),
            input: file
                .input
                .iter()
                .map(|i| LocatedInput {
                    object: i.object.as_deref().map(unplaced),
                    channel: unplaced(&i.channel),
                    value: Spanned::new(0..0, ValueText(i.value.clone())),
                })
                .collect(),
            equipmod: file
                .equipmod
                .iter()
                .map(|e| LocatedEquipMod {
                    equipment: unplaced(&e.equipment),
                    part: Spanned::new(0..0, e.part),
                    key: unplaced(&e.key),
                })
                .collect(),
            remove: file.remove.iter().map(|r| unplaced(r)).collect(),
        }
    }
}

/// Parses a character file's text, keeping where each entry is. `file` is the text's id in
/// the [`SourceMap`] the problem is rendered with: a TOML syntax
/// error, an unknown key or a value of the wrong type is a [`BAD_FILE`] diagnostic at the
/// place TOML names.
pub fn parse_located(text: &str, file: FileId) -> Result<LocatedFile, Box<Diagnostic>> {
    toml::from_str(text).map_err(|e| Box::new(toml_problem(&e, file)))
}

/// A TOML error as a [`BAD_FILE`] diagnostic at its span (the file's start when it has none).
fn toml_problem(e: &toml::de::Error, file: FileId) -> Diagnostic {
    let message = e.message().trim();
    let message = message.lines().next().unwrap_or(message);
    let span = Span::new(file, e.span().unwrap_or(0..0));
    Diagnostic::error(
        BAD_FILE,
        span,
        format!("the character file is not valid: {message}"),
    )
    .with_label(message)
    .with_help(
        "the keys are `grant` and `remove` (lists of \"KIND:KEY\"), `[[input]]` (`object`, \
         `channel`, `value`) and `[[equipmod]]` (`equipment`, `part`, `key`): see \
         schemas/character.schema.json",
    )
}

/// Builds the character a file describes — grants, equipment modifiers, removals and inputs,
/// each in file order, then one solve. Problems (unknown objects, bad inputs) are returned beside it;
/// everything that could be applied is. They carry [`Span::DETACHED`]: use [`build_located`]
/// for problems that point at their entry in the file's text.
pub fn build(dataset: Arc<Dataset>, file: &CharacterFile) -> (Character, Vec<Diagnostic>) {
    build_at(dataset, &LocatedFile::from(file), None, None)
}

/// [`build`] for a file read by [`parse_located`] from the text with id `file`: every
/// problem with an entry (an unknown object, channel or value, a removal or equipment
/// modifier of something not granted) carries the span of that entry. `sources` are the
/// load's (where an ability's `CATEGORY:` is read, for `ABILITY:CATEGORY|KEY`).
pub fn build_located(
    dataset: Arc<Dataset>,
    located: &LocatedFile,
    file: FileId,
    sources: &SourceMap,
) -> (Character, Vec<Diagnostic>) {
    build_at(dataset, located, Some(file), Some(sources))
}

/// Reports a list longer than [`MAX_ENTRIES`] at its first entry not read (`at`).
fn too_many(problems: &mut Vec<Diagnostic>, list: &str, at: Option<Span>) {
    if let Some(span) = at {
        problems.push(
            Diagnostic::error(
                TOO_MANY_ENTRIES,
                span,
                format!("`{list}` has more than {MAX_ENTRIES} entries"),
            )
            .with_label("this entry and the ones after it are not read")
            .with_help("a real character has a few hundred entries: check how the file was made"),
        );
    }
}

/// [`build`] with the entries' spans in `file` (none: every span is detached) and ability
/// categories read from `sources`.
fn build_at(
    dataset: Arc<Dataset>,
    located: &LocatedFile,
    file: Option<FileId>,
    sources: Option<&SourceMap>,
) -> (Character, Vec<Diagnostic>) {
    let at = |s: &Spanned<String>| file.map_or(Span::DETACHED, |f| Span::new(f, s.span()));
    let at_part = |s: &Spanned<u32>| file.map_or(Span::DETACHED, |f| Span::new(f, s.span()));
    let last_part = last_part(&dataset);
    let mut c = Character::new(dataset);
    let mut problems = Vec::new();
    too_many(
        &mut problems,
        "grant",
        located.grant.get(MAX_ENTRIES).map(&at),
    );
    too_many(
        &mut problems,
        "input",
        located.input.get(MAX_ENTRIES).map(|e| at(&e.channel)),
    );
    too_many(
        &mut problems,
        "equipmod",
        located.equipmod.get(MAX_ENTRIES).map(|e| at(&e.equipment)),
    );
    too_many(
        &mut problems,
        "remove",
        located.remove.get(MAX_ENTRIES).map(&at),
    );
    // The instances of each object still granted, in grant order, by `KIND:KEY` in lower
    // case: looked up by hash, not by a scan of every grant per entry.
    let mut granted: HashMap<String, Vec<InstanceId>> = HashMap::new();
    for entry in located.grant.iter().take(MAX_ENTRIES) {
        let g = entry.get_ref();
        let Some((kind, key)) = split_object(g) else {
            problems.push(
                Diagnostic::error(
                    super::UNKNOWN_OBJECT,
                    at(entry),
                    format!("`{g}` is not KIND:KEY"),
                )
                .with_label("not KIND:KEY")
                .with_help("write e.g. `STAT:STR` or `EQUIPMENT:Club`"),
            );
            continue;
        };
        match super::resolve::resolve(&c.dataset, sources, kind, key) {
            Ok(object) => {
                let inst = c.grant_inner(object, None, 0);
                granted
                    .entry(g.to_ascii_lowercase())
                    .or_default()
                    .push(inst);
            }
            Err(mut d) => {
                d.span = at(entry);
                place_suggestion(&mut d, sources, key);
                problems.push(*d);
            }
        }
    }
    let find = |granted: &HashMap<String, Vec<InstanceId>>, o: &str| {
        granted
            .get(&o.to_ascii_lowercase())
            .and_then(|v| v.first())
            .copied()
    };
    for e in located.equipmod.iter().take(MAX_ENTRIES) {
        let part = *e.part.get_ref();
        if part == 0 || part > last_part {
            problems.push(
                Diagnostic::error(
                    super::BAD_EQUIPMOD,
                    at_part(&e.part),
                    format!("equipment has no part {part}"),
                )
                .with_label(format!("parts are numbered 1 to {last_part}"))
                .with_help("write `part = 1` for the primary head, `part = 2` for the secondary"),
            );
            continue;
        }
        let Some(host) = find(&granted, e.equipment.get_ref()) else {
            problems.push(
                Diagnostic::error(
                    super::UNKNOWN_OBJECT,
                    at(&e.equipment),
                    format!(
                        "equipment modifier for `{}`, which is not granted",
                        e.equipment.get_ref()
                    ),
                )
                .with_label("not granted")
                .with_help("add the equipment to `grant` (spelled the same way)"),
            );
            continue;
        };
        let host_kind = c
            .instances
            .get(host.0 as usize)
            .and_then(|i| i.object)
            .and_then(|o| c.dataset.object_by_id(o))
            .map(|o| o.kind.clone());
        if host_kind != Some(ObjectKind::File(FileKind::Equipment)) {
            problems.push(
                Diagnostic::error(
                    super::BAD_EQUIPMOD,
                    at(&e.equipment),
                    format!(
                        "equipment modifier for `{}`, which is not equipment",
                        e.equipment.get_ref()
                    ),
                )
                .with_label("not an EQUIPMENT object")
                .with_help("equipment modifiers go onto a part of a granted `EQUIPMENT:…`"),
            );
            continue;
        }
        let Some(object) = c.find_object("EQUIPMOD", e.key.get_ref()) else {
            problems.push(
                Diagnostic::error(
                    super::UNKNOWN_OBJECT,
                    at(&e.key),
                    format!("there is no EQUIPMOD `{}` in the dataset", e.key.get_ref()),
                )
                .with_label("unknown equipment modifier")
                .with_help("use the equipment modifier's KEY"),
            );
            continue;
        };
        let part = c.ensure_part_inner(host, part);
        c.grant_inner(object, Some(part), 0);
    }
    for entry in located.remove.iter().take(MAX_ENTRIES) {
        let r = entry.get_ref();
        let key = r.to_ascii_lowercase();
        // The latest instance still granted.
        match granted.get_mut(&key).and_then(Vec::pop) {
            Some(inst) => c.remove_inner(inst),
            None => problems.push(
                Diagnostic::error(
                    super::UNKNOWN_OBJECT,
                    at(entry),
                    format!("`{r}` is removed but not granted"),
                )
                .with_label("not granted")
                .with_help("add the object to `grant` (spelled the same way), or drop the removal"),
            ),
        }
    }
    for i in located.input.iter().take(MAX_ENTRIES) {
        let inst = match &i.object {
            None => InstanceId::GLOBAL,
            Some(o) => match find(&granted, o.get_ref()) {
                Some(inst) => inst,
                None => {
                    problems.push(
                        Diagnostic::error(
                            super::UNKNOWN_OBJECT,
                            at(o),
                            format!("input for `{}`, which is not granted", o.get_ref()),
                        )
                        .with_label("not granted")
                        .with_help("add the object to `grant` (spelled the same way)"),
                    );
                    continue;
                }
            },
        };
        if let Err(d) = c.set_input_inner(inst, i.channel.get_ref(), &i.value.get_ref().0) {
            let mut d = *d;
            // The character API has no text to point into: the entry is the place. A bad
            // value is about `value`; anything else (an unknown channel) about `channel`.
            if d.span == Span::DETACHED {
                d.span = if d.code == super::BAD_INPUT {
                    file.map_or(Span::DETACHED, |f| Span::new(f, i.value.span()))
                } else {
                    at(&i.channel)
                };
                place_suggestion(&mut d, sources, i.channel.get_ref().trim());
            }
            problems.push(d);
        }
    }
    // One solve once everything is granted and entered: no problem of a half-built
    // character (a lookup before its input is set) is reported.
    c.solve();
    (c, problems)
}

/// Places the "did you mean" of `d`, made where there was no text (the character API),
/// on the entry `d` is now placed on (a TOML string, in `sources`): it replaces `name`, the
/// end of the entry's value. Left detached (no edit) when the entry's text does not end
/// with `name` as written (a string with escapes).
fn place_suggestion(d: &mut Diagnostic, sources: Option<&SourceMap>, name: &str) {
    let entry = d.span;
    let Some(s) = d
        .suggestion
        .as_deref_mut()
        .filter(|s| s.span == Span::DETACHED)
    else {
        return;
    };
    let Some(text) = sources
        .and_then(|m| m.get(entry.file))
        .map(|f| f.text.as_str())
    else {
        return;
    };
    let inside = crate::source::unquoted(text, entry.range());
    let Some(before) = text
        .get(inside.clone())
        .and_then(|v| v.trim_end().strip_suffix(name))
    else {
        return;
    };
    let start = inside.start + before.len();
    s.span = Span::new(entry.file, start..start + name.len());
}

/// The highest part number a character file may name: 2 (PCGen's primary and secondary
/// heads), or the highest `PART:n` of the dataset if that is more.
fn last_part(dataset: &Dataset) -> u32 {
    dataset
        .modifiers
        .iter()
        .filter_map(|m| match m.applies {
            crate::model::Applies::Part(n) => Some(n),
            _ => None,
        })
        .fold(2, u32::max)
}

/// The JSON Schema of character files (`schemas/character.schema.json`).
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(CharacterFile)).unwrap_or_default()
}

/// The JSON output of `rulebook calc --format json` (`schemas/calc-output.schema.json`).
#[derive(Serialize, schemars::JsonSchema)]
pub struct CalcOutput {
    /// Every variable instance, sorted by name.
    pub values: Vec<CalcValue>,
    /// Problems building or solving the character.
    pub problems: Vec<crate::diagnostic::JsonDiagnostic>,
}

/// One variable instance in [`CalcOutput`].
#[derive(Serialize, schemars::JsonSchema)]
pub struct CalcValue {
    /// `Name` for a global variable, `Object.Name` / `Object.PARTn.Name` for a local one.
    pub name: String,
    /// The value as printed (NUMBER plain, BOOLEAN `true`/`false`, DICE `1d6`, pair `x,y`).
    pub value: String,
}

/// The JSON Schema of [`CalcOutput`].
pub fn calc_output_schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(CalcOutput)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_example() {
        let f = parse(
            r#"grant = ["STAT:STR", "EQUIPMENT:Club"]
[[input]]
object = "STAT:STR"
channel = "STATSCORE"
value = "15"
"#,
        )
        .unwrap();
        assert_eq!(f.grant.len(), 2);
        assert_eq!(f.input[0].channel, "STATSCORE");
        assert!(parse("grnt = []").is_err());
        assert_eq!(
            split_object("EQUIPMENT:Ceremonial Plate (Troop)"),
            Some(("EQUIPMENT", "Ceremonial Plate (Troop)"))
        );
        assert_eq!(split_object("STR"), None);
        assert!(f.remove.is_empty());
        let f = parse("grant = [\"STAT:STR\"]\nremove = [\"STAT:STR\"]").unwrap();
        assert_eq!(f.remove, vec!["STAT:STR".to_owned()]);
    }

    /// The located form reads the same entries as `parse`, each at its value in the text,
    /// and a file built in code converts there and back unchanged.
    #[test]
    fn located_entries_keep_their_text_and_place() {
        let text = "grant = [\"STAT:STR\", \"EQUIPMENT:Club\"]\nremove = [\"EQUIPMENT:Club\"]\n[[input]]\nchannel = \"Luck\"\nvalue = \"2\"\n[[equipmod]]\nequipment = \"EQUIPMENT:Club\"\npart = 2\nkey = \"Spiked\"\n";
        let located = parse_located(text, FileId(0)).unwrap();
        let file = parse(text).unwrap();
        assert_eq!(located.file(), file);
        assert_eq!(LocatedFile::from(&file).file(), file);
        let place = |s: &Spanned<String>| &text[s.span()];
        assert_eq!(place(&located.grant[1]), "\"EQUIPMENT:Club\"");
        assert_eq!(place(&located.remove[0]), "\"EQUIPMENT:Club\"");
        assert_eq!(&text[located.input[0].value.span()], "\"2\"");
        assert_eq!(place(&located.equipmod[0].key), "\"Spiked\"");
        // Integers and booleans unquoted are their text; a float is refused (not exact).
        let unquoted = parse(
            "[[input]]\nchannel = \"Luck\"\nvalue = 2\n[[input]]\nchannel = \"B\"\nvalue = true\n",
        )
        .unwrap();
        assert_eq!(
            (
                unquoted.input[0].value.as_str(),
                unquoted.input[1].value.as_str()
            ),
            ("2", "true")
        );
        let float =
            parse_located("[[input]]\nchannel = \"Luck\"\nvalue = 1.5\n", FileId(0)).unwrap_err();
        assert!(
            float.message.contains("a decimal in quotes"),
            "{}",
            float.message
        );
        let bad = parse_located("grant = 1", FileId(3)).unwrap_err();
        assert_eq!((bad.code, bad.span), (BAD_FILE, Span::new(FileId(3), 8..9)));
    }

    /// A "did you mean" made without text (the character API) is placed on the entry's
    /// name inside its quotes; left detached when the entry is written with escapes.
    #[test]
    fn a_guess_is_placed_on_the_name_in_its_entry() {
        let mut sources = SourceMap::new();
        let text = "grant = [\"RACE:Humn\", \"RACE:Hum\\u006e\"]\n";
        let file = sources.add(crate::source::SourceFile::new(
            "c.toml",
            text,
            crate::source::TextEncoding::Utf8,
        ));
        let guess = |entry: &str| {
            let at = text.find(entry).unwrap_or(0);
            let mut d = Diagnostic::error(super::super::UNKNOWN_OBJECT, Span::DETACHED, "x")
                .with_did_you_mean_as(Span::DETACHED, "Human", "RACE:", "");
            d.span = Span::new(file, at..at + entry.len());
            place_suggestion(&mut d, Some(&sources), "Humn");
            d.edit(text).map(|e| (text[e.range].to_owned(), e.text))
        };
        assert_eq!(
            guess("\"RACE:Humn\""),
            Some(("Humn".to_owned(), "Human".to_owned()))
        );
        assert_eq!(guess("\"RACE:Hum\\u006e\""), None);
    }

    /// The committed schemas are the generated ones (`UPDATE_SCHEMAS=1` rewrites them).
    #[test]
    fn committed_schemas_are_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
        for (file, schema) in [
            ("character.schema.json", schema()),
            ("calc-output.schema.json", calc_output_schema()),
        ] {
            let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
            let path = dir.join(file);
            if std::env::var_os("UPDATE_SCHEMAS").is_some() {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, &text).unwrap();
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert_eq!(
                committed, text,
                "{file} is out of date; run with UPDATE_SCHEMAS=1"
            );
        }
    }
}
