//! Names a load set does not know but another campaign under the data folder defines.
//!
//! A supplement checked alone misses the FACTDEFs, variables and objects of the book it was
//! written for. When an unknown-name finding (`M0111` fact, `M0107`/`F0101` variable,
//! `M0115` object, `M0117` DYNAMICSCOPE, `R0105` reference and `R0101` `.MOD`/`.COPY=`
//! target of the old token system) names something another PCC of the same game system
//! defines, its help names that campaign and the defining `file:line`, and says how to
//! declare the dependency (`PRECAMPAIGN:1,INCLUDES=<campaign>` in the PCC). A "did you mean"
//! the help gave before is kept as a note, with its fix, when it is one letter away (a
//! typo's); otherwise its suggestion is dropped. What a finding lacks is read from its
//! [`Diagnostic::missing`] and what it guessed from its [`Diagnostic::suggestion`], never
//! from its message or help.
//!
//! The data folder's definitions are scanned once per run, on the first load set that has
//! such a finding ([`crate::load::CampaignIndex::definitions`]).
//!
//! An old formula's variable that another campaign defines is not a finding at all
//! ([`OldVariablesElsewhere`]): the data reads optional books' variables on purpose.

use crate::diagnostic::{Diagnostic, MissingKind, Safety};
use crate::load::definitions::{DefinedKind, Definition, OldVariableFiles};
use crate::load::{CampaignIndex, FileCache, FileKind, FileSystem, LoadSet, PcgenRoot};
use std::collections::HashSet;
use std::path::Path;

/// What an unknown-name finding is missing.
enum Wanted {
    Fact {
        set: bool,
        location: String,
    },
    Variable,
    DynamicScope,
    Object {
        scope: String,
    },
    /// An object of an LST file kind, as old-system tokens name it.
    FileObject(FileKind),
}

/// The name a finding is about and what kind of definition would satisfy it, from its
/// [`Diagnostic::missing`] (the unknown-name findings carry it; no prose is read).
fn wanted(d: &Diagnostic) -> Option<(String, Wanted)> {
    let m = d.missing.as_deref()?;
    let want = match &m.kind {
        MissingKind::Fact { set, location } => Wanted::Fact {
            set: *set,
            location: location.clone(),
        },
        MissingKind::Variable => Wanted::Variable,
        MissingKind::DynamicScope => Wanted::DynamicScope,
        MissingKind::ScopedObject { scope } => Wanted::Object {
            scope: scope.clone(),
        },
        MissingKind::Object { kind } => Wanted::FileObject(FileKind::from_token(kind)?),
    };
    Some((m.name.clone(), want))
}

/// The scope objects of a file kind live in (as the model places them).
fn kind_scope(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Stat => "PC.STAT",
        FileKind::Save => "PC.SAVE",
        FileKind::Skill => "PC.SKILL",
        FileKind::Size => "PC.SIZE",
        FileKind::Equipment => "PC.EQUIPMENT",
        FileKind::EquipMod => "PC.EQUIPMENT.PART",
        _ => "PC",
    }
}

fn satisfies(def: &DefinedKind, want: &Wanted) -> bool {
    match (def, want) {
        (
            DefinedKind::Fact { set, location },
            Wanted::Fact {
                set: s,
                location: l,
            },
        ) => set == s && location.eq_ignore_ascii_case(l),
        (DefinedKind::Variable { channel, .. }, Wanted::Variable) => !channel,
        (DefinedKind::DynamicScope, Wanted::DynamicScope) => true,
        (DefinedKind::Object(kind), Wanted::Object { scope }) => {
            kind_scope(*kind).eq_ignore_ascii_case(scope)
        }
        (DefinedKind::DynamicObject(cat), Wanted::Object { scope }) => scope
            .strip_prefix("PC.")
            .is_some_and(|c| c.eq_ignore_ascii_case(cat)),
        // FEAT files make abilities of category FEAT.
        (DefinedKind::Object(kind), Wanted::FileObject(want)) => {
            kind == want || (*want == FileKind::Ability && *kind == FileKind::Feat)
        }
        _ => false,
    }
}

/// The first folder under the data folder (`pathfinder`, `35e`, …): the game system.
fn system_folder<'p>(root: &PcgenRoot, path: &'p Path) -> Option<&'p std::ffi::OsStr> {
    path.strip_prefix(&root.data).ok()?.iter().next()
}

/// The old-system variables (`DEFINE`, `BONUS:VAR`) that campaigns of a load set's game
/// system under the data folder define, in files the load does not include. The data reads
/// such variables on purpose: an optional book's switch (`PREVAREQ:UseFractionalBAB,1` in a
/// core book, defined by Pathfinder Unchained) is 0 while that book is not loaded, which is
/// what the author means. Made once per load set, when its first unknown name is looked
/// up; the index of the files defining each variable is built on first need, once per run,
/// through the run's file cache.
pub struct OldVariablesElsewhere<'a> {
    definitions: &'a OldVariableFiles,
    root: &'a PcgenRoot,
    loaded: crate::fxhash::FxHashSet<&'a [u8]>,
    systems: HashSet<&'a std::ffi::OsStr>,
}

impl<'a> OldVariablesElsewhere<'a> {
    /// The index for `load`, the data folder's files read through `cache`.
    pub fn new(
        fs: &dyn FileSystem,
        root: &'a PcgenRoot,
        index: &'a CampaignIndex,
        cache: &'a FileCache,
        load: &'a LoadSet,
    ) -> Self {
        let selected = load.campaigns.get(..load.selected).unwrap_or(&[]);
        OldVariablesElsewhere {
            definitions: index.definitions().old_variables(fs, root, index, cache),
            root,
            loaded: load
                .files
                .iter()
                .map(|f| f.path.as_os_str().as_encoded_bytes())
                .collect(),
            systems: selected
                .iter()
                .filter_map(|c| system_folder(root, &c.path))
                .collect(),
        }
    }

    /// Whether another campaign of the game system defines the old-system variable `name`.
    pub fn defines(&self, name: &str) -> bool {
        self.definitions
            .files_defining(name)
            .filter(|path| !self.loaded.contains(path.as_os_str().as_encoded_bytes()))
            .any(|path| system_folder(self.root, path).is_some_and(|s| self.systems.contains(s)))
    }
}

/// Adds to each unknown-name finding of `load` the campaign under the data folder that
/// defines the name, when the load does not include it. Builds the definitions index (once
/// per `index`) only when there is such a finding.
pub fn name_defining_campaigns(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    index: &CampaignIndex,
    cache: &FileCache,
    load: &LoadSet,
    diagnostics: &mut [Diagnostic],
) {
    let findings: Vec<(usize, String, Wanted)> = diagnostics
        .iter()
        .enumerate()
        .filter_map(|(i, d)| wanted(d).map(|(n, w)| (i, n, w)))
        .collect();
    if findings.is_empty() {
        return;
    }
    let loaded_pccs: HashSet<&Path> = load.campaigns.iter().map(|c| c.path.as_path()).collect();
    // By their bytes: a `Path`'s hash walks its components, and every definition of every
    // name asked about is looked up.
    let loaded_files: crate::fxhash::FxHashSet<&[u8]> = (load.files.iter())
        .map(|f| f.path.as_os_str().as_encoded_bytes())
        .collect();
    let selected = load.campaigns.get(..load.selected).unwrap_or(&[]);
    let systems: HashSet<&std::ffi::OsStr> = selected
        .iter()
        .filter_map(|c| system_folder(root, &c.path))
        .collect();
    let modes: Vec<&str> = selected
        .iter()
        .flat_map(|c| c.game_modes.iter().map(String::as_str))
        .collect();
    let campaigns = index.campaigns();
    // What decides between the campaigns, worked out once per campaign asked about.
    let ranks: Vec<std::cell::OnceCell<Option<CampaignRank>>> =
        std::iter::repeat_with(Default::default)
            .take(campaigns.len())
            .collect();
    let rank = |at: usize| -> Option<&CampaignRank> {
        let c = campaigns.get(at)?;
        ranks
            .get(at)?
            .get_or_init(|| {
                let offered = !loaded_pccs.contains(c.path.as_path())
                    && system_folder(root, &c.path).is_some_and(|s| systems.contains(s));
                offered.then(|| CampaignRank {
                    same_mode: c
                        .game_modes
                        .iter()
                        .any(|m| modes.iter().any(|n| n.eq_ignore_ascii_case(m))),
                    core: c.has_book_type("Core Rules"),
                    depth: c.path.components().count(),
                })
            })
            .as_ref()
    };
    let lazy = index.definitions();
    for (i, name, want) in findings {
        let defs: Vec<Definition> = match want {
            Wanted::FileObject(_) => lazy.objects(fs, root, index, cache).named(&name),
            Wanted::Object { .. } => {
                let mut found = lazy.objects(fs, root, index, cache).named(&name);
                if found.is_empty() {
                    found = lazy.names(fs, root, index).named(&name);
                }
                found
            }
            _ => lazy.names(fs, root, index).named(&name),
        };
        let best = defs
            .iter()
            .filter(|d| satisfies(&d.kind, &want))
            .filter(|d| !loaded_files.contains(d.path.as_os_str().as_encoded_bytes()))
            .filter_map(|d| Some((d, campaigns.get(d.campaign)?, rank(d.campaign)?)))
            .min_by_key(|(d, c, rank)| {
                // The campaign whose folder holds the file (the 3.5 RSRD's saves, which
                // Player's Guide to Arcanis lists too); then a core book before a homebrew
                // template that shares the same file.
                let home = c.path.parent().is_some_and(|dir| d.path.starts_with(dir));
                (!rank.same_mode, !home, !rank.core, rank.depth, d.campaign)
            });
        let Some((def, campaign, _)) = best else {
            continue;
        };
        let Some(d) = diagnostics.get_mut(i) else {
            continue;
        };
        // Declare the campaign by the name the loader finds it under.
        let by_name = !campaign.name.is_empty()
            && index
                .find(&campaign.name)
                .is_some_and(|c| c.path == campaign.path);
        let declared = if by_name {
            &campaign.name
        } else {
            &campaign.key
        };
        let pcc = listing_pcc(load, d)
            .map(|p| root.display(p))
            .unwrap_or_else(|| "the PCC".to_owned());
        let shown = if campaign.name.is_empty() {
            root.display(&campaign.path)
        } else {
            campaign.name.clone()
        };
        let help = format!(
            "`{}` is defined by campaign `{shown}` ({}:{}), which this load does not include; \
             declare the dependency in {pcc}: `PRECAMPAIGN:1,INCLUDES={declared}`",
            def.name,
            root.display(&def.path),
            def.line
        );
        let old = d.help.replace(help);
        // The guess stays (its help as a note, its fix) only when it is a typo's.
        match (old, d.suggestion.as_deref()) {
            (Some(old), Some(s)) if s.safety == Safety::Unsafe && one_slip(&def.name, &s.text) => {
                d.notes.push(format!("or, if the name is a typo: {old}"));
            }
            _ => d.suggestion = None,
        }
    }
}

/// What ranks a campaign offered as the one defining a name: one of the load's game
/// modes, a core book, and how deep its PCC lies (the shallower first). Only campaigns of
/// the load's game systems that the load does not include are offered.
struct CampaignRank {
    same_mode: bool,
    core: bool,
    depth: usize,
}

/// Whether the "did you mean" `guess` a finding about `name` gave is worth keeping beside
/// the defining campaign: a guess one letter away (a slip of the keyboard: `…Blessing` for
/// `…Blessings`). A name another campaign of the same system defines verbatim is what the
/// author meant; the fuzzy match the model offered may differ in a third of a long name and
/// is then another class's fact (`Skald_CF_BardicKnowledge` → `Bard_CF_…`).
fn one_slip(name: &str, guess: &str) -> bool {
    crate::name::edit_distance(&name.to_lowercase(), &guess.to_lowercase()) <= 1
}

/// The PCC that listed the file a diagnostic is in (else the first selected PCC).
fn listing_pcc<'l>(load: &'l LoadSet, d: &Diagnostic) -> Option<&'l Path> {
    let listed = load
        .files
        .iter()
        .find(|f| f.file == d.span.file)
        .and_then(|f| f.listed_at)
        .and_then(|s| load.campaigns.iter().find(|c| c.file == s.file));
    listed
        .or_else(|| load.campaigns.first())
        .map(|c| c.path.as_path())
}

#[cfg(test)]
mod tests {
    use super::one_slip;

    #[test]
    fn only_a_one_letter_guess_is_kept_beside_the_defining_campaign() {
        assert!(one_slip("Warpriest_Blessings", "Warpriest_Blessing"));
        assert!(!one_slip(
            "Skald_CF_BardicKnowledge",
            "Bard_CF_BardicKnowledge"
        ));
    }
}
