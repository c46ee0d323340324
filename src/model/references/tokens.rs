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
    /// The last field between the separator (an `ADD:` token's optional count comes
    /// first), itself a `,` list.
    Last(char),
    /// The value's first character (`PRESIZEGTEQ:Medium` names the size `M`).
    Initial,
    /// A kit's `SPELLBOOK=…|CLASS=…|spell[=count]|…`: each spell's name.
    KitSpells,
    /// `count,LOCATION,Fact=value,…`: each FACT's name.
    PreFact,
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
    /// Words that are not names in this token (compared as PCGen does, with case:
    /// `ADD:SPELLCASTER|Arcane` is a spell type, `Sorcerer` a class).
    except: Vec<String>,
}

impl Row {
    /// Whether the row is a prerequisite's: found wherever a `PRExxx` sits in a value,
    /// not only as a token of its own.
    fn is_pre(&self) -> bool {
        self.token.starts_with("PRE")
    }
}

/// The table, read once.
static ROWS: LazyLock<Vec<Row>> = LazyLock::new(|| parse(include_str!("token-references.tsv")));

/// The rows of each token name, for one look-up per token of the data.
static BY_TOKEN: LazyLock<crate::fxhash::FxHashMap<&'static str, Vec<&'static Row>>> =
    LazyLock::new(|| crate::model::token_table::by_token(&ROWS, |r| r.token.as_str()));

fn parse(text: &str) -> Vec<Row> {
    crate::model::token_table::rows(text)
        .filter_map(|cols| {
            let (kind, token, shape, target, except) = match cols.as_slice() {
                [kind, token, shape, target] => (kind, token, shape, target, ""),
                [kind, token, shape, target, except] => (kind, token, shape, target, *except),
                _ => return None,
            };
            let kind = match *kind {
                "*" => None,
                k => Some(FileKind::from_token(k)?),
            };
            let (token, sub) = crate::model::token_table::token_and_sub(token);
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
                ["last", s] => Shape::Last(sep(s)?),
                ["initial"] => Shape::Initial,
                ["kitspells"] => Shape::KitSpells,
                ["prefact"] => Shape::PreFact,
                _ => return None,
            };
            Some(Row {
                kind,
                token,
                sub,
                shape,
                target: FileKind::from_token(target)?,
                except: except
                    .split(',')
                    .filter(|w| !w.is_empty())
                    .map(str::to_owned)
                    .collect(),
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
    /// The keys of the objects whose lines give it, each with the token that gives it (a
    /// filtered file entry keeps the name only when it keeps one of them; a later
    /// `Key.MOD` with `TOKEN:.CLEAR` takes it back).
    pub(super) owners: Vec<(Name, &'static str)>,
    /// Whether a line that makes its object gives it (PCGen parses those lines whatever an
    /// entry's filter keeps; a `.MOD` line only when it applies it).
    pub(super) on_base_line: bool,
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
    looked_up: &[bool],
) -> Vec<Reference> {
    // Kit lines have token grammars of their own: only KIT rows apply to them (and the
    // prerequisites, which read alike everywhere).
    let applies = |r: &Row| match r.kind {
        None => kind != FileKind::Kit || r.is_pre(),
        Some(k) => k == kind,
    };
    let mut found = Found::default();
    // Kit lines are tokens from their first column on; other lines start with a name.
    let skip = usize::from(kind != FileKind::Kit);
    for (i, line) in lines.iter().enumerate() {
        let owner = owners.get(i).cloned().flatten();
        let base = !looked_up.get(i).copied().unwrap_or(false);
        for t in line.tokens.iter().skip(skip) {
            let Some(token) = text.get(t.range()) else {
                continue;
            };
            let start = t.range().start;
            let mut give = |row: &'static Row, value: &str, at: usize| {
                let (value, at) = match &row.sub {
                    Some(sub) => match value.strip_prefix(sub.as_str()) {
                        Some(rest) if rest.starts_with('|') => (&rest[1..], at + sub.len() + 1),
                        _ => return,
                    },
                    None => (value, at),
                };
                names(row.shape, without_pres(value), at, &mut |s, at| {
                    found.add(row, s, Span::new(t.file, at..at), owner.as_ref(), base);
                });
            };
            if let Some((name, value)) = token.split_once(':') {
                let rows = BY_TOKEN.get(name).map_or(&[][..], Vec::as_slice);
                for row in rows.iter().copied().filter(|r| !r.is_pre() && applies(r)) {
                    give(row, value, start + name.len() + 1);
                }
            }
            if crate::load::prerequisites::may_hold_one(token) {
                for pre in crate::load::prerequisites::embedded(token) {
                    let rows = BY_TOKEN.get(pre.name).map_or(&[][..], Vec::as_slice);
                    for row in rows.iter().copied().filter(|r| r.is_pre() && applies(r)) {
                        give(row, pre.value, start + pre.value_start);
                    }
                }
            }
        }
    }
    found.out
}

/// The names found so far in one file, each once.
#[derive(Default)]
struct Found {
    out: Vec<Reference>,
    /// Where each name of each kind is in `out`.
    at_of: crate::fxhash::FxHashMap<
        FileKind,
        indexmap::IndexMap<Name, usize, crate::fxhash::FxBuildHasher>,
    >,
}

impl Found {
    /// Counts the item `s` (starting where `at` starts) a token gives as `row` says, on the
    /// line of the object `owner`.
    fn add(&mut self, row: &'static Row, s: &str, at: Span, owner: Option<&Name>, base: bool) {
        if is_group(s.trim()) {
            return;
        }
        let (skipped, s) = key_of(row.target, s);
        let lead = skipped + s.len() - s.trim_start().len();
        let text = s.trim();
        if is_group(text) || row.except.iter().any(|w| w == text) {
            return;
        }
        // A name given before is found by its text: no `Name` is made for it. A PREFACT's
        // FACT is kept per use: PCGen stops at the first unknown FACT of each.
        let seen = self.at_of.entry(row.target).or_default();
        let known = (row.target != FileKind::DataControl)
            .then(|| seen.get(&crate::name::NameStr(text)).copied())
            .flatten();
        let i = match known {
            Some(i) => i,
            None => {
                let name = Name::new(text);
                seen.insert(name.clone(), self.out.len());
                let start = at.range().start + lead;
                self.out.push(Reference {
                    target: row.target,
                    name: Written {
                        name,
                        span: Span::new(at.file, start..start + text.len()),
                    },
                    uses: 0,
                    owners: Vec::new(),
                    on_base_line: false,
                    found_in: Default::default(),
                });
                self.out.len() - 1
            }
        };
        if let Some(r) = self.out.get_mut(i) {
            r.uses += 1;
            r.on_base_line |= base;
            if let Some(o) = owner {
                let by = row.token.as_str();
                if !r.owners.iter().any(|(k, t)| k == o && *t == by) {
                    r.owners.push((o.clone(), by));
                }
            }
        }
    }
}

/// The key an item names, as PCGen's token reads it for objects of `target`, with how many
/// bytes of the item come before it.
fn key_of(target: FileKind, item: &str) -> (usize, &str) {
    match target {
        // `Wizard.Illusionist` names a class's sub-class: the class must exist.
        FileKind::Class => (0, item.split('.').next().unwrap_or(item)),
        // `BONUS:SAVE|BASE.Fortitude`: the base save of the check `Fortitude` (PCGen
        // upper-cases a bonus's info before it strips the prefix).
        FileKind::Save => match item.get(..5) {
            Some(p) if p.eq_ignore_ascii_case("BASE.") => (5, &item[5..]),
            _ => (0, item),
        },
        // A kit's `TEMPLATE:Name[Other]`: `Other` is chosen within `Name`; `Name.REMOVE`
        // takes the template away.
        FileKind::Template => {
            let item = item.split('[').next().unwrap_or(item);
            (0, item.strip_suffix(".REMOVE").unwrap_or(item))
        }
        _ => (0, item),
    }
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
        Shape::Last(sep) => {
            if let Some((f, a)) = fields(value, at, sep).pop() {
                for (item, ia) in fields(f, a, ',') {
                    name(item, ia);
                }
            }
        }
        Shape::Initial => {
            if let Some(c) = value.chars().next() {
                name(&value[..c.len_utf8()], at);
            }
        }
        Shape::PreFact => {
            for (f, a) in fields(value, at, ',').into_iter().skip(2) {
                // PCGen's `FactKey.valueOf` of the text before `=`.
                if let Some((fact, _)) = f.split_once('=') {
                    name(fact, a);
                }
            }
        }
        Shape::KitSpells => {
            for (f, a) in fields(value, at, '|') {
                if ["SPELLBOOK=", "CLASS="].iter().any(|p| f.starts_with(p)) {
                    continue;
                }
                // `Spell[Metamagic Feat]=2`: the spell is before any `[` or `=`.
                let end = f.find(['[', '=']).unwrap_or(f.len());
                name(&f[..end], a);
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
        references(&lines, text, kind, &owners, &vec![false; lines.len()])
            .iter()
            .map(|r| {
                let at = text.get(r.name.span.range()).unwrap_or("?");
                format!("{} {}@{} x{}", r.target.token(), r.name.name, at, r.uses)
            })
            .collect()
    }

    #[test]
    fn kit_lines_take_only_kit_rows_and_prerequisites() {
        let text =
            "STARTPACK:Cleric Kit\nSPELLS:SPELLBOOK=Prepared|CLASS=Cleric|Bless=1\nRACE:Elf\n";
        assert_eq!(
            refs(FileKind::Kit, text),
            ["SPELL Bless@Bless x1", "RACE Elf@Elf x1"]
        );
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

    #[test]
    fn prerequisites_name_sizes_wherever_they_sit() {
        let text = "Spider\tSIZE:M\tBONUS:SKILL|Hide|4|PRESIZELTEQ:Small\t\
                    PREMULT:1,[PRESIZEEQ:L],[!PRESIZEEQ:H]\tDESC:Big|!PRESIZEGT:G\tPREFOO:PRESIZEEQ:X\n";
        assert_eq!(
            refs(FileKind::Race, text),
            [
                "SIZE M@M x1",
                "SKILL Hide@Hide x1",
                "SIZE S@S x1",
                "SIZE L@L x1",
                "SIZE H@H x1",
                "SIZE G@G x1",
            ]
        );
        // Kit lines read prerequisites too, and a kit's `SIZE:PC` is the character's size.
        let text = "GEAR:Longsword\tSIZE:PC\tEQMOD:PLUS1W\tPRESIZEEQ:T\n";
        assert_eq!(
            refs(FileKind::Kit, text),
            [
                "EQUIPMENT Longsword@Longsword x1",
                "EQUIPMOD PLUS1W@PLUS1W x1",
                "SIZE T@T x1"
            ]
        );
    }

    #[test]
    fn add_tokens_take_their_last_field_and_spell_types_are_not_classes() {
        let text = "Gift\tADD:LANGUAGE|2|Elven,Orc\tADD:SPELLCASTER|Arcane,Bard,arcane\tBONUS:SAVE|BASE.Fortitude,Base.Will,ALL|1\n";
        assert_eq!(
            refs(FileKind::Feat, text),
            [
                "LANGUAGE Elven@Elven x1",
                "LANGUAGE Orc@Orc x1",
                "CLASS Bard@Bard x1",
                "CLASS arcane@arcane x1",
                "SAVE Fortitude@Fortitude x1",
                "SAVE Will@Will x1",
            ]
        );
    }

    #[test]
    fn kit_spells_stats_and_alignments() {
        let text = "SPELLS:SPELLBOOK=Known|CLASS=Wizard|Daze|Shield[Extend Spell]=2\tSTAT:STR=15|DEX=max(1,2)\tALIGN:LG|CN\tTEMPLATE:Lycanthrope[Hybrid]\n";
        assert_eq!(
            refs(FileKind::Kit, text),
            [
                "SPELL Daze@Daze x1",
                "SPELL Shield@Shield x1",
                "STAT STR@STR x1",
                "STAT DEX@DEX x1",
                "ALIGNMENT LG@LG x1",
                "ALIGNMENT CN@CN x1",
                "TEMPLATE Lycanthrope@Lycanthrope x1",
            ]
        );
    }
}
