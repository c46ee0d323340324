//! The old-system tokens each object carries that change what PCGen computes for a
//! character (`BONUS`, `DEFINE`, `ABILITY`, …; the list is `unapplied.tsv`), and where.
//!
//! rulebook's solver computes the formula system (MODIFY, MODIFYOTHER, GRANT); the old
//! token system is checked at load but not yet computed. A sheet computed for a character
//! whose objects carry such tokens is partial, and [`crate::character::Character::unapplied`]
//! says so from this record. It is made for one load set at a time, by the paths that build
//! characters ([`crate::check::check_load_set`] and [`crate::check::check_load_set_with`]),
//! not by the whole-data-folder check, which computes no character.

use super::build::LineForm;
use super::build::object_lines::{Form, ObjectLines};
use super::{Dataset, ObjectId, ObjectKind};
use crate::load::{FileKind, LoadSet, LoadedFile};
use crate::model::fxhash::FxHashMap;
use crate::source::Span;
use std::sync::OnceLock;

/// One use of an old-system token on an object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OldTokenUse {
    /// The token's name (`BONUS`).
    pub token: &'static str,
    /// What PCGen does with it, from the table.
    pub effect: &'static str,
    /// The whole token (name and value).
    pub span: Span,
}

/// The old-system tokens of each object that carries any, in the order PCGen reads them:
/// its own line (and its level lines), then a `.COPY=` source's tokens before the copy
/// line's, then `.MOD` lines.
pub type OldTokens = FxHashMap<ObjectId, Vec<OldTokenUse>>;

/// The table: token name → what it does.
fn table() -> &'static FxHashMap<&'static str, &'static str> {
    static TABLE: OnceLock<FxHashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        include_str!("unapplied.tsv")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| l.split_once('\t'))
            .collect()
    })
}

/// What PCGen does with the old-system token `name`, when the table lists it.
pub fn effect_of(name: &str) -> Option<&'static str> {
    table().get(name).copied()
}

/// Records, for every object of `ds` (built from `load`), the old-system tokens of the
/// table on the lines that make or change it.
pub fn record(load: &LoadSet, ds: &Dataset) -> OldTokens {
    let by_span: FxHashMap<(u32, u32), ObjectId> = ds
        .objects
        .iter()
        .map(|o| ((o.span.file.0, o.span.start), o.id))
        .collect();
    let mut out = OldTokens::default();
    let kinds = FileKind::LOAD_ORDER
        .into_iter()
        .filter(|k| *k >= FileKind::AbilityCategory);
    for kind in kinds {
        let files: Vec<(&LoadedFile, std::sync::Arc<ObjectLines>)> = load
            .files
            .iter()
            .filter(|f| f.kind == kind)
            .map(|f| (f, ObjectLines::of(&f.cached, kind)))
            .collect();
        // Objects and their level lines first; then copies, then mods, as PCGen does them.
        for (f, lines) in &files {
            let mut current = None;
            for ol in &lines.lines {
                match &ol.form {
                    Form::Base { .. } => {
                        let first = f.lines.place(ol.first);
                        current = by_span.get(&(first.file.0, first.start)).copied();
                    }
                    Form::Continuation => {}
                    Form::Deferred(..) => {
                        current = None;
                        continue;
                    }
                }
                if let Some(id) = current {
                    uses_on(
                        f,
                        ol.line,
                        matches!(ol.form, Form::Base { .. }),
                        id,
                        &mut out,
                    );
                }
            }
        }
        for pass in [0, 1] {
            for (f, lines) in &files {
                for ol in &lines.lines {
                    let Form::Deferred(form, ..) = &ol.form else {
                        continue;
                    };
                    let okind = ObjectKind::File(kind);
                    match (pass, form) {
                        (0, LineForm::Copy(base, _)) => {
                            let first = f.lines.place(ol.first);
                            let Some(&copy) = by_span.get(&(first.file.0, first.start)) else {
                                continue;
                            };
                            if let Some(from) = ds.object(&okind, base) {
                                let inherited = out.get(&from).cloned().unwrap_or_default();
                                if !inherited.is_empty() {
                                    out.entry(copy).or_default().extend(inherited);
                                }
                            }
                            uses_on(f, ol.line, true, copy, &mut out);
                        }
                        (1, LineForm::Mod(key)) => {
                            if let Some(id) = ds.object(&okind, key) {
                                uses_on(f, ol.line, true, id, &mut out);
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

/// Adds the table's tokens of line `line` of `f` to `id`'s uses; `skip_first` leaves out
/// the line's first token (the object's name, or the `.MOD`/`.COPY=` head).
fn uses_on(f: &LoadedFile, line: usize, skip_first: bool, id: ObjectId, out: &mut OldTokens) {
    let Some(l) = f.lines.shared().get(line) else {
        return;
    };
    let text = &f.cached.source().text;
    for t in l.tokens.iter().skip(usize::from(skip_first)) {
        let token = text.get(t.range()).unwrap_or("");
        let Some((name, _)) = token.split_once(':') else {
            continue;
        };
        if let Some((&token, &effect)) = table().get_key_value(name) {
            out.entry(id).or_default().push(OldTokenUse {
                token,
                effect,
                span: f.lines.place(*t),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::load::{MemoryFs, PcgenRoot};
    use std::path::{Path, PathBuf};

    /// The tokens recorded for each object of a feat file `feats`, by key, as
    /// `TOKEN@line`.
    fn recorded(feats: &str) -> Vec<(String, Vec<String>)> {
        let fs = MemoryFs::new()
            .with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
            .with("/r/data/d/feats.lst", feats)
            .with(
                "/r/data/d/t.pcc",
                "CAMPAIGN:T\nGAMEMODE:G\nFEAT:feats.lst\n",
            );
        let root = PcgenRoot::find(&fs, Path::new("/r/data")).unwrap();
        let load = crate::load::load(&fs, &root, &[PathBuf::from("/r/data/d/t.pcc")]);
        let (ds, _) = crate::model::build(&load);
        let record = super::record(&load, &ds);
        let mut out: Vec<(String, Vec<String>)> = ds
            .objects
            .iter()
            .filter_map(|o| {
                let uses = record.get(&o.id)?;
                let at = |u: &super::OldTokenUse| {
                    let line = load
                        .sources
                        .get(u.span.file)
                        .unwrap()
                        .line_col(u.span.start as usize)
                        .0;
                    format!("{}@{line}", u.token)
                };
                Some((ds.key_of(o).to_string(), uses.iter().map(at).collect()))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn an_object_has_its_own_tokens_then_its_copy_source_then_its_mods() {
        let feats = "Power Attack\tBONUS:COMBAT|TOHIT|-1\tDESC:Trade\tDEFINE:PA|0\n\
                     Cleave\tTYPE:General\n\
                     Power Attack.COPY=Mighty Attack\tMOVE:Walk,30\n\
                     Power Attack.MOD\tABILITY:FEAT|AUTOMATIC|Cleave\n\
                     Cleave.MOD\tSOURCEPAGE:p. 3\n";
        assert_eq!(
            recorded(feats),
            vec![
                (
                    "Mighty Attack".to_owned(),
                    vec!["BONUS@1".into(), "DEFINE@1".into(), "MOVE@3".into()]
                ),
                (
                    "Power Attack".to_owned(),
                    vec!["BONUS@1".into(), "DEFINE@1".into(), "ABILITY@4".into()]
                ),
            ]
        );
    }

    #[test]
    fn the_table_names_what_pcgen_does() {
        assert_eq!(super::effect_of("BONUS"), Some("adds a bonus to a value"));
        assert_eq!(super::effect_of("DESC"), None);
        assert_eq!(super::effect_of("MODIFY"), None);
    }
}
