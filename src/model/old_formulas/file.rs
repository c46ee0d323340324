//! What one file's old formulas say, worked out once per file and run: their syntax
//! findings, the variables the file defines, its stat abbreviations, and the names its
//! formulas read that the file itself does not resolve (for the load set to find).

use super::positions::formulas_in_token;
use crate::diagnostic::Diagnostic;
use crate::jep::{NameKind, NameOrigin, parse_jep, terms};
use crate::load::cache::{CACHE_FILE, CachedFile};
use crate::load::definitions::old_variables_in_token;
use crate::load::loadset::line_mode;
use crate::load::text::LineMode;
use crate::load::{FileKind, Line};
use crate::name::{Name, NameStr};
use crate::source::Span;
use std::sync::Arc;

/// The name under which a file's old formulas are kept in the file cache.
const DERIVED: &str = "model::old_formulas::file";

/// The name under which the run's [`Numbers`] are kept in the file cache.
const NUMBERS: &str = "model::old_formulas::numbers";

/// The old-system variable names of one run (defined or read by its files), each numbered
/// once, compared as PCGen compares them (without regard to case). Kept by the run's file
/// cache: a load set then marks what it defines in a bit set by these numbers, instead of
/// hashing every defined name of its files into a set of its own.
#[derive(Debug, Default)]
pub(super) struct Numbers {
    by_name: std::sync::Mutex<crate::fxhash::FxHashMap<Name, u32>>,
}

impl Numbers {
    /// The numbers of the run `file` belongs to.
    pub(super) fn of(file: &CachedFile) -> Arc<Numbers> {
        file.run_shared(NUMBERS)
    }

    /// The number of each of `names`, numbering the new ones (one lock for all).
    fn number<'n>(&self, names: impl Iterator<Item = &'n Name>) -> Vec<u32> {
        // A panic while the lock was held cannot leave the map half-changed (one insert).
        let mut by_name = self
            .by_name
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        names
            .map(|n| {
                let next = u32::try_from(by_name.len()).unwrap_or(u32::MAX);
                *by_name.entry(n.clone()).or_insert(next)
            })
            .collect()
    }

    /// How many names are numbered so far.
    pub(super) fn len(&self) -> usize {
        self.by_name
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }
}

/// A name a file's formulas read and the file does not resolve itself.
#[derive(Debug)]
pub(super) struct Read {
    /// The name as PCGen looks it up (compared without regard to case).
    pub(super) name: Name,
    /// Its first use (in the cache's file).
    pub(super) span: Span,
    /// Its number in the run ([`Numbers`]).
    pub(super) number: u32,
    /// How many uses in the file.
    pub(super) uses: usize,
    /// Every use is a whole `PREVARxx` operand (`PREVARGTEQ:NotAllowed,1`): a switch,
    /// which the data may leave undefined on purpose (see [`super::check`]).
    pub(super) switch: bool,
}

/// Where a file first defines a variable, by each way of defining it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct DefinedAt {
    /// Its first `DEFINE:` (the name's span).
    pub(super) define: Option<Span>,
    /// Its first `BONUS:VAR`/`TEMPBONUS` target (the name's span).
    pub(super) bonus: Option<Span>,
}

/// The old formulas of one file.
#[derive(Debug, Default)]
pub(super) struct FileFormulas {
    /// The syntax findings of every formula (`J01xx`), spans in the cache's file.
    pub(super) syntax: Vec<Diagnostic>,
    /// The variables the file defines (`DEFINE`, `BONUS:VAR` targets), each once.
    pub(super) defines: Vec<Name>,
    /// [`folded`] of each of `defines`.
    pub(super) folded: Vec<u64>,
    /// Where each of `defines` is first defined by a `DEFINE` and by a bonus (`BONUS:VAR`,
    /// `TEMPBONUS`), in the cache's file: what the check of the two systems side by side
    /// points at.
    pub(super) defined_at: Vec<DefinedAt>,
    /// The number in the run ([`Numbers`]) of each of `defines`.
    pub(super) numbers: Vec<u32>,
    /// The first of `defines` (its position) with each [`folded`] text.
    pub(super) by_folded: crate::fxhash::FxHashMap<u64, usize>,
    /// The positions in `defines` by the name's first character, lower-cased ([`initial`]).
    pub(super) by_initial: crate::fxhash::FxHashMap<char, Vec<usize>>,
    /// The stat abbreviations a STAT file's `ABB:` tokens give.
    pub(super) stats: Vec<String>,
    /// The names the formulas read that are neither defined in this file, nor terms,
    /// placeholders or output-sheet tokens, each once, in text order.
    pub(super) reads: Vec<Read>,
    /// How many formulas the file holds.
    pub(super) formulas: usize,
}

impl FileFormulas {
    /// The old formulas of `file` read as `kind`, computed once per file, kind and run.
    pub(super) fn of(file: &CachedFile, kind: FileKind) -> Arc<FileFormulas> {
        let mode = line_mode(kind);
        file.derived(DERIVED, mode as u32, |f| {
            read(
                f.shared_lines(mode),
                &f.source().text,
                kind,
                &Numbers::of(f),
            )
        })
    }
}

/// Whether files of `kind` hold token lines whose formulas are read.
pub(super) fn has_formulas(kind: FileKind) -> bool {
    line_mode(kind) != LineMode::Whole
}

/// Reads the old formulas of `lines` (of a file whose text is `text`), numbering their
/// names in `numbers`.
pub(super) fn read(lines: &[Line], text: &str, kind: FileKind, numbers: &Numbers) -> FileFormulas {
    let mut out = FileFormulas::default();
    // An item's formulas (`BONUS:ITEMCOST|…|COST*2`) are evaluated on the item, whose
    // properties PCGen reads by upper-case names the term table does not list.
    let equipment = matches!(kind, FileKind::Equipment | FileKind::EquipMod);
    // Each name read, by name, as an index into `candidates`; each name defined.
    type Seen = indexmap::IndexMap<Name, usize, crate::fxhash::FxBuildHasher>;
    let mut seen: Seen = Default::default();
    let mut defined: Seen = Default::default();
    let mut candidates: Vec<Read> = Vec::new();
    for line in lines {
        for t in &line.tokens {
            let Some(token) = text.get(t.range()) else {
                continue;
            };
            let at = t.start;
            if kind == FileKind::Stat {
                if let Some(abb) = token.strip_prefix("ABB:") {
                    out.stats.push(abb.trim().to_uppercase());
                }
            }
            for d in old_variables_in_token(token) {
                let i = match defined.get(&NameStr(d.name)) {
                    Some(&i) => i,
                    None => {
                        let name = Name::new(d.name);
                        defined.insert(name.clone(), out.defines.len());
                        out.folded.push(folded(d.name));
                        out.defines.push(name);
                        out.defined_at.push(DefinedAt::default());
                        out.defines.len() - 1
                    }
                };
                let start = at.saturating_add(u32::try_from(d.range.start).unwrap_or(u32::MAX));
                let len = u32::try_from(d.range.len()).unwrap_or(0);
                let span = Span::new(
                    CACHE_FILE,
                    start as usize..start.saturating_add(len) as usize,
                );
                if let Some(w) = out.defined_at.get_mut(i) {
                    let slot = if token.starts_with("DEFINE:") {
                        &mut w.define
                    } else {
                        &mut w.bonus
                    };
                    slot.get_or_insert(span);
                }
            }
            for f in formulas_in_token(token) {
                let Some(formula) = token.get(f.range.clone()) else {
                    continue;
                };
                out.formulas += 1;
                let offset = at.saturating_add(u32::try_from(f.range.start).unwrap_or(u32::MAX));
                let parsed = parse_jep(formula, CACHE_FILE, offset);
                // A formula with a syntax error is reported once, for that: what it
                // reads is not resolved (text in a formula's place would be all names).
                if parsed.has_errors() {
                    out.syntax.extend(parsed.diagnostics);
                    continue;
                }
                out.syntax.extend(parsed.diagnostics);
                let switch = f.what == "PREVAR operand"
                    && parsed.formula.names.len() == 1
                    && parsed
                        .formula
                        .names
                        .iter()
                        .all(|n| *n.text == *formula.trim());
                for n in &parsed.formula.names {
                    if n.kind != NameKind::Variable {
                        continue;
                    }
                    // A name is judged once per file (`usize::MAX`: not a variable).
                    match seen.get(&NameStr(&n.text)) {
                        Some(&usize::MAX) => {}
                        Some(i) => {
                            if let Some(r) = candidates.get_mut(*i) {
                                r.uses += 1;
                                r.switch &= switch;
                            }
                        }
                        None if !is_variable(&n.text, n.kind, n.origin)
                            || (equipment && is_upper_word(&n.text)) =>
                        {
                            seen.insert(Name::new(&n.text), usize::MAX);
                        }
                        None => {
                            let name = Name::new(&n.text);
                            seen.insert(name.clone(), candidates.len());
                            candidates.push(Read {
                                name,
                                span: n.span,
                                number: 0,
                                uses: 1,
                                switch,
                            });
                        }
                    }
                }
            }
        }
    }
    // A name the file defines anywhere (before or after its use) is known wherever the
    // file is loaded.
    out.reads = candidates
        .into_iter()
        .filter(|r| !defined.contains_key(&r.name))
        .collect();
    let mut all = numbers.number(out.defines.iter().chain(out.reads.iter().map(|r| &r.name)));
    let reads = all.split_off(out.defines.len());
    for (r, number) in out.reads.iter_mut().zip(reads) {
        r.number = number;
    }
    out.numbers = all;
    for (i, (name, words)) in out.defines.iter().zip(&out.folded).enumerate() {
        out.by_folded.entry(*words).or_insert(i);
        if let Some(c) = initial(name.as_str()) {
            out.by_initial.entry(c).or_default().push(i);
        }
    }
    out
}

/// A name's first character, lower-cased: "did you mean" looks among the names that
/// start as the unknown one does.
pub(super) fn initial(name: &str) -> Option<char> {
    name.chars().next().map(|c| c.to_ascii_lowercase())
}

/// Whether a name a formula reads must be a variable for PCGen to find a value: not a
/// term (in any case: PCGen's fallback parser upper-cases a name JEP finds no value for;
/// equipment terms too, as bonuses to weapons are evaluated on the weapon), not a
/// placeholder, not an output-sheet token (`SKILL.Spot.RANK`, `STAT.3.MOD`, `HP`: PCGen
/// asks its export handler last), and not text a `var("…")` string holds that is no name.
fn is_variable(text: &str, kind: NameKind, origin: NameOrigin) -> bool {
    if kind != NameKind::Variable || text.contains('%') {
        return false;
    }
    if origin == NameOrigin::VarString && text.contains(['(', ')', '"', '\'']) {
        return false;
    }
    let upper = text.to_uppercase();
    if terms::classify(&upper, terms::Context::Equipment).is_some_and(|t| !is_weak(t, &upper)) {
        return false;
    }
    // `TYPE=Competence` where a value belongs is a bonus's type field: its value is missing,
    // or an EQMOD's `%CHOICE` before it gives the value and a `|` (`Bluff|2`) when the
    // item is made; which one the data cannot say.
    if upper.starts_with("TYPE=") || upper.starts_with("TYPE.") {
        return false;
    }
    let head = upper.split('.').next().unwrap_or("");
    // An upper-case head before a `.` reads as an output-sheet token (`WEAPONH.TOTALHIT`,
    // `SAVE.Will`): the export handler knows more of them than their class names say.
    let sheet_like = upper.len() != head.len()
        && text.split('.').next().is_some_and(|h| {
            h.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        });
    !sheet_like && !EXPORT_TOKENS.contains(&head)
}

/// Whether `text` is one upper-case word (`COST`, `TOTALCOST`).
fn is_upper_word(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_uppercase())
}

/// Whether a term match is only the `CL`/`BL` prefix of a longer name (`CLERICLVL`),
/// which the data means as a variable (see docs/old-formulas.md).
fn is_weak(term: &terms::TermPattern, name: &str) -> bool {
    term.keys
        .iter()
        .find(|k| name.starts_with(**k))
        .is_some_and(|k| matches!(*k, "CL" | "BL") && name.len() != k.len())
}

/// The names of PCGen's output-sheet tokens (`getTokenName()` of `pcgen.io.exporttoken`
/// and `plugin.exporttokens`): a formula's name whose first `.` part is one of them is
/// evaluated by the export handler when no variable or term has it.
const EXPORT_TOKENS: &[&str] = &[
    "ABILITY",
    "ABILITYALL",
    "ABILITYALLLIST",
    "ABILITYAUTO",
    "ABILITYAUTOLIST",
    "ABILITYLIST",
    "AC",
    "ACCHECK",
    "AGE",
    "ALIGNMENT",
    "ALTHP",
    "ARMOR",
    "ATTACK",
    "BASEMOVEMENT",
    "BIO",
    "BIRTHDAY",
    "BIRTHPLACE",
    "BONUS",
    "BONUSLIST",
    "BR",
    "CAMPAIGNHISTORY",
    "CASTERLEVEL",
    "CATCHPHRASE",
    "CHARACTERTYPE",
    "CHECK",
    "CLASS",
    "CLASSABB",
    "CLASSLIST",
    "COLOR",
    "CR",
    "DAMAGE",
    "DEFENSE",
    "DEITY",
    "DESC",
    "DIR",
    "DOMAIN",
    "DR",
    "ECL",
    "ENDMANUALWHITESPACE",
    "EQ",
    "EQCONTAINER",
    "EQCONTAINERS",
    "EQCONTAINERW",
    "EQSET",
    "EXP",
    "EXPORT",
    "FACE",
    "FAVOREDCLASS",
    "FAVOREDLIST",
    "FEAT",
    "FEATALL",
    "FEATALLLIST",
    "FEATAUTO",
    "FEATAUTOLIST",
    "FEATLIST",
    "FEATPOINTS",
    "FOLLOWER",
    "FOLLOWERLIST",
    "FOLLOWEROF",
    "FOLLOWERTYPE",
    "GAMEMODE",
    "GENDER",
    "GOLD",
    "HANDED",
    "HEIGHT",
    "HITDICE",
    "HP",
    "HPROLL",
    "INITIATIVEBONUS",
    "INITIATIVEMISC",
    "INITIATIVEMOD",
    "INTERESTS",
    "INVALIDTEXT",
    "LANGUAGES",
    "LENGTH",
    "LEVEL",
    "LOCATION",
    "MANUALWHITESPACE",
    "MAXCCSKILLLEVEL",
    "MAXDEX",
    "MAXSKILLLEVEL",
    "MAXSPELLLEVEL",
    "MISC",
    "MOVE",
    "MOVEMENT",
    "NAME",
    "NOTE",
    "PAPERINFO",
    "PERSONALITY1",
    "PERSONALITY2",
    "PHOBIAS",
    "PIPE",
    "PLAYERNAME",
    "POOL",
    "PORTRAIT",
    "PROHIBITEDLIST",
    "RACE",
    "RACESUBTYPE",
    "RACETYPE",
    "REACH",
    "REGION",
    "RESIDENCE",
    "SIZE",
    "SIZELONG",
    "SIZEMOD",
    "SKILL",
    "SKILLLISTMODS",
    "SKILLPOINTS",
    "SKILLSIT",
    "SPACE",
    "SPECIALABILITY",
    "SPECIALLIST",
    "SPEECHTENDENCY",
    "SPELLBOOK",
    "SPELLBOOKNAME",
    "SPELLFAILURE",
    "SPELLLISTBOOK",
    "SPELLLISTCAST",
    "SPELLLISTCLASS",
    "SPELLLISTDC",
    "SPELLLISTDCSTAT",
    "SPELLLISTKNOWN",
    "SPELLLISTMEMORIZE",
    "SPELLLISTTYPE",
    "SPELLMEM",
    "SR",
    "STAT",
    "SUBREGION",
    "TABNAME",
    "TEMPBONUS",
    "TEMPLATE",
    "TEMPLATELIST",
    "TEXT",
    "TOTAL",
    "TOTALLEVELS",
    "TYPE",
    "UNITSET",
    "VABILITY",
    "VABILITYLIST",
    "VAR",
    "VFEAT",
    "VFEATLIST",
    "VISION",
    "WEAPON",
    "WEAPONPROFS",
    "WEIGHT",
    "XPAWARD",
];

/// A hash of `name`'s letters and digits, lower-cased: the same for two names that differ
/// only in case and in the `_`, `-` or spaces between their words.
pub(super) fn folded(name: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::fxhash::FxHasher::default();
    for c in name.chars().filter(|c| c.is_alphanumeric()) {
        for l in c.to_lowercase() {
            h.write_u32(u32::from(l));
        }
    }
    h.finish()
}

/// Whether `name` (as the data writes it) reads one of the stats abbreviated `stats`
/// (upper case), in any case (PCGen's fallback parser upper-cases it). A load set without
/// a STAT file (a supplement checked without its core book) knows no stat: then every
/// name that could read one (three letters, with `SCORE` or `.BASE` after them or not)
/// is taken for one.
pub(super) fn is_stat(name: &Name, stats: &[String]) -> bool {
    let upper = name.as_str().to_uppercase();
    if stats.is_empty() {
        // `get` and not `split_at`: the third byte may fall inside a character.
        let Some(abb) = upper.get(..3) else {
            return false;
        };
        let rest = &upper[3..];
        return abb.bytes().all(|b| b.is_ascii_uppercase())
            && terms::stat_form(&upper, abb).is_some()
            && (rest.is_empty() || rest.starts_with("SCORE") || rest == ".BASE");
    }
    stats.iter().any(|a| terms::stat_form(&upper, a).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::text::lines;

    fn reads(kind: FileKind, text: &str) -> (Vec<String>, Vec<String>) {
        let ls = lines(CACHE_FILE, text, line_mode(kind));
        let f = read(&ls, text, kind, &Numbers::default());
        let reads = f
            .reads
            .iter()
            .map(|r| format!("{}@{} x{}", r.name, &text[r.span.range()], r.uses))
            .collect();
        let defines = f.defines.iter().map(|n| n.to_string()).collect();
        (reads, defines)
    }

    #[test]
    fn names_a_file_does_not_resolve() {
        let text = "Rage\tDEFINE:RageLvl|CL=Barbarian\tBONUS:VAR|RageLvl,Other|1\t\
                    BONUS:COMBAT|AC|RageLvl+Typo+TL+STR+%CHOICE+SKILL.Spot.RANK+typo\n\
                    Frenzy\tBONUS:COMBAT|AC|var(\"Later\")|PREVARGT:Other,Later2\tDEFINE:Later2|0\n";
        let (reads, defines) = reads(FileKind::Ability, text);
        assert_eq!(defines, ["RageLvl", "Other", "Later2"]);
        assert_eq!(reads, ["Typo@Typo x2", "STR@STR x1", "Later@Later x1"]);
    }

    #[test]
    fn stats_are_read_from_stat_files() {
        let text = "Strength\tABB:STR\tDEFINE:X|STRSCORE\n";
        let ls = lines(CACHE_FILE, text, line_mode(FileKind::Stat));
        let f = read(&ls, text, FileKind::Stat, &Numbers::default());
        assert_eq!(f.stats, ["STR"]);
        assert!(is_stat(&f.reads[0].name, &f.stats));
    }

    /// Found by the `check_lst` fuzz target: a name whose third byte falls inside a
    /// character, read where no STAT file is loaded, panicked on a byte slice.
    #[test]
    fn a_name_with_a_wide_character_is_no_stat() {
        for text in ["ÖÖÖ", "aÖb", "STŸ", "ST\u{1F600}SCORE"] {
            assert!(!is_stat(&Name::new(text), &[]), "{text}");
        }
        assert!(is_stat(&Name::new("strSCORE"), &[]));
    }
}
