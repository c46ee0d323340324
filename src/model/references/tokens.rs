//! The names old-system token values give, found by one declarative table
//! (`token-references.tsv`: per line kind and token, where the names are and what they
//! name) rather than a parser per token.

use super::heads::Written;
use crate::load::{FileKind, Line};
use crate::name::Name;
use crate::source::Span;
use std::sync::LazyLock;

/// Where a token value's names are (the table's `shape` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// Every item between the separator.
    List(char),
    /// The n-th field between the separator, itself a `,` list.
    Field(usize, char),
    /// The text before the first separator.
    Head(char),
    /// `a,b=1|c=2`.
    Levels,
    /// `CLASS|Wizard=1|spell,spell|…`.
    SpellLists,
    /// `book|TIMES=…|spell,DC|…`.
    Spells,
    /// `KEY|choice.KEY2`.
    Eqmods,
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    /// The line kind (`None`: every object kind).
    kind: Option<FileKind>,
    /// The token name.
    token: String,
    /// The sub-token the value must start with (`LANG` for `AUTO:LANG|…`), if any.
    sub: Option<String>,
    shape: Shape,
    /// What each name must be.
    target: FileKind,
}

/// The table, read once.
static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| parse(include_str!("token-references.tsv")));

/// The rows of each token name, for one look-up per token of the data.
static BY_TOKEN: LazyLock<crate::fxhash::FxHashMap<&'static str, Vec<&'static Row>>> =
    LazyLock::new(|| {
        let mut map: crate::fxhash::FxHashMap<&'static str, Vec<&'static Row>> = Default::default();
        for row in ROWS.iter() {
            map.entry(row.token.as_str()).or_default().push(row);
        }
        map
    });

fn parse(text: &str) -> Vec<Row> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .skip(1)
        .filter_map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let [kind, token, shape, target] = cols.as_slice() else {
                return None;
            };
            let kind = match *kind {
                "*" => None,
                k => Some(FileKind::from_token(k)?),
            };
            let (token, sub) = match token.split_once(':') {
                Some((t, s)) => (t.to_owned(), Some(s.to_owned())),
                None => ((*token).to_owned(), None),
            };
            let sep = |s: &str| s.chars().next();
            let words: Vec<&str> = shape.split(' ').collect();
            let shape = match words.as_slice() {
                ["list", s] => Shape::List(sep(s)?),
                ["field", n, s] => Shape::Field(n.parse().ok()?, sep(s)?),
                ["head", s] => Shape::Head(sep(s)?),
                ["levels"] => Shape::Levels,
                ["spelllists"] => Shape::SpellLists,
                ["spells"] => Shape::Spells,
                ["eqmods"] => Shape::Eqmods,
                _ => return None,
            };
            Some(Row {
                kind,
                token,
                sub,
                shape,
                target: FileKind::from_token(target)?,
            })
        })
        .collect()
}

/// A name a file's tokens give, with the kind it must be and how many times it is given.
#[derive(Debug)]
pub(super) struct Reference {
    /// What it must be.
    pub(super) target: FileKind,
    /// The name (first use).
    pub(super) name: Written,
    /// How many uses in the file.
    pub(super) uses: usize,
    /// The keys of the objects whose lines give it (a filtered file entry keeps the name
    /// only when it keeps one of them).
    pub(super) owners: Vec<Name>,
    /// The file (its run cache entry's address) that made the object in a load set before,
    /// or 0: a later load set holding that file whole finds the name there with one look-up
    /// instead of searching every file of the kind. Only ever a hint: it is checked.
    pub(super) found_in: super::heads::Hint,
}

/// Every name the tokens of `lines` (a file of `kind` whose text is `text`) give, each once.
pub(super) fn references(
    lines: &[Line],
    text: &str,
    kind: FileKind,
    owners: &[Option<Name>],
) -> Vec<Reference> {
    // Kit lines have token grammars of their own: only KIT rows apply to them.
    let applies = |r: &Row| match r.kind {
        None => kind != FileKind::Kit,
        Some(k) => k == kind,
    };
    let mut out: Vec<Reference> = Vec::new();
    // Where each name of each kind is in `out`.
    type Seen = indexmap::IndexMap<Name, usize, crate::fxhash::FxBuildHasher>;
    let mut at_of: crate::fxhash::FxHashMap<FileKind, Seen> = Default::default();
    // Kit lines are tokens from their first column on; other lines start with a name.
    let skip = usize::from(kind != FileKind::Kit);
    for (i, line) in lines.iter().enumerate() {
        let owner = owners.get(i).cloned().flatten();
        for t in line.tokens.iter().skip(skip) {
            let Some(token) = text.get(t.range()) else {
                continue;
            };
            let Some((name, value)) = token.split_once(':') else {
                continue;
            };
            let value_at = t.range().start + name.len() + 1;
            let Some(rows) = BY_TOKEN.get(name) else {
                continue;
            };
            for row in rows.iter().copied().filter(|r| applies(r)) {
                let (value, at) = match &row.sub {
                    Some(sub) => match value.strip_prefix(sub.as_str()) {
                        Some(rest) if rest.starts_with('|') => {
                            (&rest[1..], value_at + sub.len() + 1)
                        }
                        _ => continue,
                    },
                    None => (value, value_at),
                };
                names(row.shape, without_pres(value), at, &mut |s, at| {
                    // `Wizard.Illusionist` names a class's sub-class: the class must exist.
                    let s = match row.target {
                        FileKind::Class => s.split('.').next().unwrap_or(s),
                        _ => s,
                    };
                    let lead = s.len() - s.trim_start().len();
                    let text = s.trim();
                    if is_group(text) {
                        return;
                    }
                    // A name given before is found by its text: no `Name` is made for it.
                    let seen = at_of.entry(row.target).or_default();
                    let at = match seen.get(&crate::name::NameStr(text)) {
                        Some(at) => *at,
                        None => {
                            let name = Name::new(text);
                            seen.insert(name.clone(), out.len());
                            let start = at + lead;
                            out.push(Reference {
                                target: row.target,
                                name: Written {
                                    name,
                                    span: Span::new(t.file, start..start + text.len()),
                                },
                                uses: 0,
                                owners: Vec::new(),
                                found_in: Default::default(),
                            });
                            out.len() - 1
                        }
                    };
                    if let Some(r) = out.get_mut(at) {
                        r.uses += 1;
                        if let Some(o) = owner.as_ref().filter(|o| !r.owners.contains(o)) {
                            r.owners.push(o.clone());
                        }
                    }
                });
            }
        }
    }
    out
}

/// Whether an item names a group, a choice or a formula rather than one object.
fn is_group(item: &str) -> bool {
    const WORDS: [&str; 8] = [
        "ALL",
        "ANY",
        "NONE",
        "LIST",
        "CLEAR",
        "HIGHESTLEVELCLASS",
        "DEITYWEAPONS",
        "",
    ];
    WORDS.iter().any(|w| item.eq_ignore_ascii_case(w))
        || item.starts_with('.')
        || item.contains('%')
        // `ARMORTYPE=Light`, `CLASS=Cleric`: a group or an option, not a key.
        || item.contains('=')
        || ["TYPE=", "TYPE.", "!TYPE", "STAT.", "CHOOSE:", "ADDCHOICE:", "REMOVE:"]
            .iter()
            .any(|p| item.len() >= p.len() && item[..p.len()].eq_ignore_ascii_case(p))
}

/// `value` up to its first `|PRExxx`, `|!PRExxx` or `|[…]` field: what follows is a
/// prerequisite, whatever separator the names use (`DOMAINS:Law,War|PREALIGN:LN`).
fn without_pres(value: &str) -> &str {
    let mut rest = value;
    let mut end = 0;
    while let Some(i) = rest.find('|') {
        if is_pre(&rest[i + 1..]) {
            return &value[..end + i];
        }
        end += i + 1;
        rest = &rest[i + 1..];
    }
    value
}

/// Whether a field ends the names: a trailing prerequisite.
fn is_pre(field: &str) -> bool {
    let f = field.trim_start();
    f.starts_with("PRE") || f.starts_with("!PRE") || f.starts_with('[')
}

/// The fields of `value` (at byte `at`) split at `sep`, each with its start, up to the first
/// prerequisite.
fn fields(value: &str, at: usize, sep: char) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for part in value.split(sep) {
        if is_pre(part) {
            break;
        }
        out.push((part, at + start));
        start += part.len() + sep.len_utf8();
    }
    out
}

/// Calls `name` with each name of `value` (at byte `at`) read as `shape`.
fn names(shape: Shape, value: &str, at: usize, name: &mut dyn FnMut(&str, usize)) {
    match shape {
        Shape::List(sep) => {
            for (f, a) in fields(value, at, sep) {
                name(f, a);
            }
        }
        Shape::Field(n, sep) => {
            if let Some((f, a)) = fields(value, at, sep).into_iter().nth(n) {
                for (item, ia) in fields(f, a, ',') {
                    name(item, ia);
                }
            }
        }
        Shape::Head(sep) => {
            let head = value.split(sep).next().unwrap_or("");
            if !is_pre(head) {
                name(head, at);
            }
        }
        Shape::Levels => {
            for (f, a) in fields(value, at, '|') {
                let names_part = f.split('=').next().unwrap_or("");
                for (item, ia) in fields(names_part, a, ',') {
                    name(item, ia);
                }
            }
        }
        Shape::SpellLists => {
            // CLASS|list=level|spells|list=level|spells…: only the spells are names of
            // this row's target (the lists are classes or domains).
            for (i, (f, a)) in fields(value, at, '|').into_iter().enumerate() {
                if i > 0 && i % 2 == 0 {
                    for (item, ia) in fields(f, a, ',') {
                        name(item, ia);
                    }
                }
            }
        }
        Shape::Spells => {
            for (i, (f, a)) in fields(value, at, '|').into_iter().enumerate() {
                let option = ["TIMES=", "TIMEUNIT=", "CASTERLEVEL="]
                    .iter()
                    .any(|p| f.starts_with(p));
                if i == 0 || option {
                    continue;
                }
                // `Spell,DC formula`: the name is before the first comma.
                name(f.split(',').next().unwrap_or(""), a);
            }
        }
        Shape::Eqmods => {
            let mut start = 0;
            for part in value.split('.') {
                if is_pre(part) {
                    break;
                }
                name(part.split('|').next().unwrap_or(""), at + start);
                start += part.len() + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::text::{LineMode, lines};
    use crate::source::FileId;

    fn refs(kind: FileKind, text: &str) -> Vec<String> {
        let lines = lines(FileId(0), text, LineMode::Object);
        let owners = vec![None; lines.len()];
        references(&lines, text, kind, &owners)
            .iter()
            .map(|r| {
                let at = text.get(r.name.span.range()).unwrap_or("?");
                format!("{} {}@{} x{}", r.target.token(), r.name.name, at, r.uses)
            })
            .collect()
    }

    #[test]
    fn kit_lines_take_only_kit_rows() {
        let text =
            "STARTPACK:Cleric Kit\nSPELLS:SPELLBOOK=Prepared|CLASS=Cleric|Bless=1\nRACE:Elf\n";
        assert_eq!(refs(FileKind::Kit, text), ["RACE Elf@Elf x1"]);
    }

    #[test]
    fn the_table_reads_whole() {
        let rows = include_str!("token-references.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(ROWS.len(), rows - 1, "a row of the table did not parse");
    }

    #[test]
    fn finds_the_names_of_each_shape() {
        let text = "Wizard Spell\tCLASSES:Sorcerer,Wizard=1|Witch=2\tDOMAINS:Fire=3|PRExxx:1\n";
        assert_eq!(
            refs(FileKind::Spell, text),
            [
                "CLASS Sorcerer@Sorcerer x1",
                "CLASS Wizard@Wizard x1",
                "CLASS Witch@Witch x1",
                "DOMAIN Fire@Fire x1",
            ]
        );
        let text = "CLASS:Monk\tCSKILL:Climb|TYPE=Craft|Clkimb\tSPELLLEVEL:CLASS|Monk=1|Light,Shield|Monk=2|Web|PRELEVEL:MIN=3\n\
                    1\tSPELLS:Innate|TIMES=1|CASTERLEVEL=TL|Daze,10+INT|Light\tBONUS:SKILL|Climb,%LIST|2\n";
        assert_eq!(
            refs(FileKind::Class, text),
            [
                "SKILL Climb@Climb x2",
                "SKILL Clkimb@Clkimb x1",
                "SPELL Light@Light x2",
                "SPELL Shield@Shield x1",
                "SPELL Web@Web x1",
                "SPELL Daze@Daze x1",
            ]
        );
        let text = "Sword\tEQMOD:Material ~ Steel.Masterwork|x\tBASEITEM:Sword (Base)\n";
        assert_eq!(
            refs(FileKind::Equipment, text),
            [
                "EQUIPMOD Material ~ Steel@Material ~ Steel x1",
                "EQUIPMOD Masterwork@Masterwork x1",
                "EQUIPMENT Sword (Base)@Sword (Base) x1",
            ]
        );
        let text = "Elf\tMONSTERCLASS:Fey:2\tAUTO:LANG|Common|Elven\tLANGBONUS:Orc,TYPE=Spoken|PREALIGN:LG,NG\n";
        assert_eq!(
            refs(FileKind::Race, text),
            [
                "CLASS Fey@Fey x1",
                "LANGUAGE Common@Common x1",
                "LANGUAGE Elven@Elven x1",
                "LANGUAGE Orc@Orc x1",
            ]
        );
    }
}
