//! The old formulas and old-system variables of a load set as data: every formula parsed
//! into its tree (what the editor reads under the cursor, and what an evaluator of the old
//! system starts from), and every `DEFINE`/`BONUS:VAR` that makes a variable, with its place.
//! The checker's pass ([`super::check`]) keeps only what it reports; these are computed on
//! request.

use super::file::has_formulas;
use super::positions::formulas_in_token;
use crate::diagnostic::Diagnostic;
use crate::jep::{JepFormula, parse_jep};
use crate::load::definitions::old_variables_in_token;
use crate::load::{LoadSet, LoadedFile};
use crate::name::Name;
use crate::source::Span;
use std::ops::Range;

/// One old formula, parsed, placed in its load set's file.
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedFormula {
    /// The token holding it.
    pub token: Span,
    /// How reports name it (`BONUS value`, `PREVAR operand`, …: `old-formulas.tsv`).
    pub what: &'static str,
    /// The tree, with every name it reads.
    pub formula: JepFormula,
    /// Its syntax findings (`J01xx`).
    pub diagnostics: Vec<Diagnostic>,
}

/// Every old formula of one token (`token` is its text, found at `at`), parsed.
///
/// ```
/// use rulebook::model::old_formulas::formulas_of_token;
/// use rulebook::source::{FileId, Span};
/// let token = "BONUS:VAR|Rage|ClericLevel+TL";
/// let found = formulas_of_token(token, Span::new(FileId(0), 100..100 + token.len()));
/// let names: Vec<&str> = found[0].formula.names.iter().map(|n| &*n.text).collect();
/// assert_eq!(names, ["ClericLevel", "TL"]);
/// assert_eq!(found[0].formula.span.start, 100 + 15);
/// ```
pub fn formulas_of_token(token: &str, at: Span) -> Vec<ParsedFormula> {
    formulas_in_token(token)
        .into_iter()
        .filter_map(|f| {
            let text = token.get(f.range.clone())?;
            let offset = at.start.checked_add(u32::try_from(f.range.start).ok()?)?;
            let parsed = parse_jep(text, at.file, offset);
            Some(ParsedFormula {
                token: at,
                what: f.what,
                formula: parsed.formula,
                diagnostics: parsed.diagnostics,
            })
        })
        .collect()
}

/// Every old formula of a file of a load set, parsed, in text order.
pub fn formulas_of_file(file: &LoadedFile) -> Vec<ParsedFormula> {
    if !has_formulas(file.kind) {
        return Vec::new();
    }
    let text = &file.cached.source().text;
    let mut out = Vec::new();
    for line in file.lines.shared() {
        for t in &line.tokens {
            if let Some(token) = text.get(t.range()) {
                out.extend(formulas_of_token(token, file.lines.place(*t)));
            }
        }
    }
    out
}

/// Every old formula of `load`, parsed, file by file.
pub fn formulas_of_load(load: &LoadSet) -> Vec<ParsedFormula> {
    load.files.iter().flat_map(formulas_of_file).collect()
}

/// Where an old-system variable is made: `DEFINE:name|…`, or the target of a
/// `BONUS:VAR|name|…` (PCGen keeps a bonus to a name no DEFINE makes as a variable).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OldVariableDef {
    /// The name as written there.
    pub span: Span,
    /// The token (`DEFINE`, `BONUS`, `TEMPBONUS`).
    pub token: &'static str,
}

/// The name under which a file's old-system variables are kept in the file cache.
const VARIABLES: &str = "model::old_formulas::parsed::variables";

/// The old-system variables one file makes: (name, its bytes in the file, the token), in
/// file order; worked out once per file and run (an edit re-reads only the edited file).
fn variables_of_file(file: &LoadedFile) -> std::sync::Arc<Vec<(Name, Range<usize>, &'static str)>> {
    let mode = crate::load::loadset::line_mode(file.kind);
    file.cached.derived(VARIABLES, mode as u32, |c| {
        let text = &c.source().text;
        let mut out = Vec::new();
        for line in c.shared_lines(mode) {
            for t in &line.tokens {
                let Some(token) = text.get(t.range()) else {
                    continue;
                };
                for v in old_variables_in_token(token) {
                    let start = t.range().start + v.range.start;
                    let by = if token.starts_with("DEFINE") {
                        "DEFINE"
                    } else if token.starts_with("BONUS") {
                        "BONUS"
                    } else {
                        "TEMPBONUS"
                    };
                    out.push((Name::new(v.name), start..start + v.name.len(), by));
                }
            }
        }
        out
    })
}

/// Every old-system variable `load` makes, by name (compared without regard to case), each
/// with every place that makes it, in file order.
pub fn old_variables(load: &LoadSet) -> indexmap::IndexMap<Name, Vec<OldVariableDef>> {
    let mut out: indexmap::IndexMap<Name, Vec<OldVariableDef>> = Default::default();
    for f in load.files.iter().filter(|f| has_formulas(f.kind)) {
        for (name, range, token) in variables_of_file(f).iter() {
            let def = OldVariableDef {
                span: Span::new(f.file, range.clone()),
                token,
            };
            out.entry(name.clone()).or_default().push(def);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::load::{MemoryFs, PcgenRoot};
    use std::path::{Path, PathBuf};

    #[test]
    fn a_load_sets_formulas_and_old_variables_are_data() {
        let feats = "Rage\tCATEGORY:FEAT\tDEFINE:RageLevel|0\tBONUS:VAR|RageLevel|CL=Barbarian+TL\n\
                     Fury\tCATEGORY:FEAT\tBONUS:COMBAT|TOHIT|RageLevel/2|PREVARGT:RageLevel,1\n";
        let fs = MemoryFs::new()
            .with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
            .with("/r/data/d/t.pcc", "CAMPAIGN:T\nGAMEMODE:G\nFEAT:f.lst\n")
            .with("/r/data/d/f.lst", feats);
        let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
        let load = crate::load::load(&fs, &root, &[PathBuf::from("/r/data/d/t.pcc")]);
        let text = &load.sources.get(load.files[0].file).unwrap().text;
        let formulas = super::formulas_of_load(&load);
        let found: Vec<(&str, &str)> = formulas
            .iter()
            .map(|f| (f.what, &text[f.formula.span.range()]))
            .collect();
        assert_eq!(
            found,
            [
                ("DEFINE value", "0"),
                ("BONUS value", "CL=Barbarian+TL"),
                ("BONUS value", "RageLevel/2"),
                ("PREVAR operand", "RageLevel"),
                ("PREVAR operand", "1"),
            ]
        );
        let vars = super::old_variables(&load);
        let rage = &vars[&crate::name::Name::new("ragelevel")];
        let places: Vec<(&str, &str)> = rage
            .iter()
            .map(|d| (d.token, &text[d.span.range()]))
            .collect();
        assert_eq!(places, [("DEFINE", "RageLevel"), ("BONUS", "RageLevel")]);
    }
}
