//! The old (JEP) formulas of a load set, checked as the character sheet will evaluate them:
//! every formula inside an old-system token (where: `old-formulas.tsv`, [`formulas_in_token`])
//! parsed once per file and run with [`crate::jep::parse_jep`] (its `J01xx` syntax
//! findings reported at their place), and every name it reads resolved across the load set.
//!
//! PCGen checks none of this when it loads data: a name no `DEFINE`, `BONUS:VAR`, stat,
//! term or output-sheet token gives has no value when the character is computed, and PCGen
//! silently evaluates it to 0. Each such name is one error per file, at its first use
//! (`J0120`, [`codes`]), with the closest known name as a structured suggestion. The kinds
//! of name that cannot be resolved reliably from the data alone are never reported (see
//! docs/old-formulas.md, "Names").

pub mod codes;
mod file;
mod parsed;
mod positions;
mod systems;

pub use parsed::{
    OldVariableDef, ParsedFormula, formulas_of_file, formulas_of_load, formulas_of_token,
    old_variables,
};
pub use positions::{FormulaAt, formulas_in_token};

use crate::diagnostic::Diagnostic;
use crate::fxhash::FxHashSet;
use crate::load::cache::CACHE_FILE;
use crate::load::{LoadSet, LoadedFile};
use crate::model::Dataset;
use crate::name::{Name, closest};
use file::{FileFormulas, Numbers, Read, has_formulas, initial, is_stat};
use std::sync::Arc;

/// How many unknown names a file may have and still be told "did you mean": beyond it the
/// file is written for a book the load set lacks, and the help says so.
const FEW: usize = 5;

/// Checks the old formulas of `load`: their syntax, every name they read against what the
/// load set defines, and where they meet the formula-system variables of `dataset` (a name
/// only the formula system defines, read or given a bonus; a name both systems define). A
/// name for which `elsewhere` is true (another campaign defines it: an optional book's
/// variable, 0 while it is not loaded, as the data means) is not reported as unknown.
pub fn check(
    load: &LoadSet,
    dataset: &Dataset,
    elsewhere: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let files: Vec<(&LoadedFile, Arc<FileFormulas>)> = load
        .files
        .iter()
        .filter(|f| has_formulas(f.kind))
        .map(|f| (f, FileFormulas::of(&f.cached, f.kind)))
        .collect();
    let mut out = Vec::new();
    for (f, formulas) in &files {
        out.extend(formulas.syntax.iter().map(|d| placed(d, f)));
    }
    let known = Known::of(&files);
    let systems = systems::FormulaVariables::of(dataset);
    for (f, formulas) in &files {
        // A filtered entry keeps some of the file's objects only: which of its names are
        // read by what it keeps is not worked out, so none is reported.
        if f.filter.is_some() {
            continue;
        }
        // A name only the formula system defines: the two systems mixed up (J0121).
        out.extend(
            formulas
                .reads
                .iter()
                .filter(|r| !known.has(r))
                .filter_map(|r| systems.read(f, r)),
        );
        let unknown: Vec<(&Read, Option<Name>)> = formulas
            .reads
            .iter()
            .filter(|r| !known.has(r) && !systems.has(&r.name))
            .filter(|r| !elsewhere(r.name.as_str()))
            .filter_map(|r| {
                // A switch no book sets is read as 0 on purpose as often as not
                // (`PREVARGTEQ:NotAllowed,1` keeps a companion from being chosen): only
                // one that is a known name written differently is reported.
                if r.switch {
                    let s = known.same_words(&r.name)?;
                    return Some((r, Some(s)));
                }
                Some((r, None))
            })
            .collect();
        let crowd = unknown.len();
        for (r, suggestion) in unknown {
            let suggestion = match suggestion {
                Some(s) => Some(s),
                None if crowd <= FEW => known.suggestion(&r.name),
                None => None,
            };
            out.push(known.unknown(f, r, crowd, suggestion));
        }
    }
    out.extend(systems.definitions(&files, &|n| is_stat(n, &known.stats)));
    out
}

/// `d`, found in the cache's file, placed in the load set's file of `f`.
fn placed(d: &Diagnostic, f: &LoadedFile) -> Diagnostic {
    let mut d = d.clone();
    if d.span.file == CACHE_FILE {
        d.span = f.lines.place(d.span);
    }
    for l in &mut d.labels {
        if l.span.file == CACHE_FILE {
            l.span = f.lines.place(l.span);
        }
    }
    d
}

/// What the load set gives an old formula a value with: its old-system variables and its
/// stats (its formula-system variables are not among them: [`systems`]).
struct Known<'f> {
    /// The load set's files with formulas, in load order, and what each defines.
    files: &'f [(&'f LoadedFile, Arc<FileFormulas>)],
    /// The old-system variables, a bit per name by its number in the run ([`Numbers`]).
    defined: Vec<u64>,
    stats: Vec<String>,
}

/// Whether bit `n` of `bits` is set.
fn bit(bits: &[u64], n: u32) -> bool {
    let n = n as usize;
    bits.get(n / 64).is_some_and(|w| w & (1 << (n % 64)) != 0)
}

impl<'f> Known<'f> {
    fn of(files: &'f [(&'f LoadedFile, Arc<FileFormulas>)]) -> Known<'f> {
        let size = files
            .first()
            .map_or(0, |(f, _)| Numbers::of(&f.cached).len());
        let mut defined = vec![0u64; size.div_ceil(64)];
        let mut stats = Vec::new();
        for (_, f) in files {
            for &n in &f.numbers {
                let n = n as usize;
                if let Some(w) = defined.get_mut(n / 64) {
                    *w |= 1 << (n % 64);
                }
            }
            stats.extend(f.stats.iter().cloned());
        }
        Known {
            files,
            defined,
            stats,
        }
    }

    /// The known old-system variable, stat or term closest to `name` among those with the
    /// same first character, if one is close. Each file keeps its variables by first
    /// character, so a load set's many unknown names do not each search every known name,
    /// nor does the load set gather its names for them.
    fn suggestion(&self, name: &Name) -> Option<Name> {
        let first = initial(name.as_str())?;
        // Each variable once, as the first file defining it (in load order) writes it.
        let mut seen = FxHashSet::default();
        let defined = self
            .files
            .iter()
            .flat_map(|(_, f)| {
                let at = f.by_initial.get(&first).map_or(&[][..], Vec::as_slice);
                at.iter()
                    .filter_map(|&i| Some((f.defines.get(i)?, *f.numbers.get(i)?)))
            })
            .filter(move |(_, number)| seen.insert(*number))
            .map(|(n, _)| n.as_str());
        let stats = self.stats.iter().map(String::as_str);
        // The terms that are a whole name (`ENCUMBERANCE`, PCGen's spelling).
        let terms = crate::jep::terms::TERMS
            .iter()
            .filter(|t| t.form == crate::jep::terms::Form::Whole)
            .flat_map(|t| t.keys.iter().copied());
        let pool = defined.chain(stats.chain(terms).filter(|n| initial(n) == Some(first)));
        closest(name.as_str(), pool).map(Name::new)
    }

    /// The known old-system variable that is `name` written with other case, `_`, `-` or
    /// spaces between its words (`CasterLevel_Highest` for `Caster_Level_Highest`): the
    /// first file in load order with such a variable gives its first.
    fn same_words(&self, name: &Name) -> Option<Name> {
        let words = file::folded(name.as_str());
        self.files.iter().find_map(|(_, f)| {
            let i = f.by_folded.get(&words)?;
            f.defines.get(*i).cloned()
        })
    }

    fn has(&self, read: &Read) -> bool {
        bit(&self.defined, read.number) || is_stat(&read.name, &self.stats)
    }

    /// The error for a name no part of the load set gives, one of `crowd` of its file.
    fn unknown(
        &self,
        f: &LoadedFile,
        r: &Read,
        crowd: usize,
        suggestion: Option<Name>,
    ) -> Diagnostic {
        let name = &r.name;
        let others = crate::diagnostic::more_uses(r.uses);
        let span = f.lines.place(r.span);
        let d = Diagnostic::error(
            codes::UNKNOWN_VARIABLE,
            span,
            format!("no variable `{name}` in this load set{others}"),
        )
        .with_label("no DEFINE, BONUS:VAR, stat, term or output-sheet token of this name")
        .with_note(
            "PCGen finds no value for this name when it computes the character and evaluates \
             it to 0, silently",
        );
        match (suggestion, crowd > FEW) {
            (Some(s), _) => d.with_did_you_mean(span, s.as_str()),
            (None, true) => d.with_help(format!(
                "this file reads {crowd} variables the load set does not define: load the \
                 campaign that defines them (a `PRECAMPAIGN` in the PCC), or correct the names"
            )),
            (None, false) => d.with_help(
                "define it (`DEFINE:name|0`), correct the name, or load the campaign that \
                 defines it (a `PRECAMPAIGN` in the PCC)",
            ),
        }
    }
}

#[cfg(test)]
mod tests;
