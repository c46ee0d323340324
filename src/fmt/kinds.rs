//! Which kind each LST file is, as the PCC files listing it say (`FEAT:feats.lst`): the
//! layout of a file depends on its kind, and nothing else tells it.

use crate::diagnostic::Diagnostic;
use crate::load::campaign::parse_pcc;
use crate::load::fs::normalize;
use crate::load::text::read_source;
use crate::load::{FileKind, FileSystem, PcgenRoot};
use crate::source::SourceMap;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// For every LST file the `pccs` list (normalised path): the kinds they list it as (more
/// than one when PCCs disagree). A PCC that cannot be read lists nothing.
pub fn kinds_listed<'p>(
    fs: &dyn FileSystem,
    pccs: impl IntoIterator<Item = &'p PathBuf>,
) -> BTreeMap<PathBuf, BTreeSet<FileKind>> {
    let mut kinds: BTreeMap<PathBuf, BTreeSet<FileKind>> = BTreeMap::new();
    let mut sources = SourceMap::new();
    for pcc in pccs {
        let root = PcgenRoot::find(fs, pcc)
            .unwrap_or_else(|| PcgenRoot::at(fs, pcc.parent().unwrap_or(Path::new("/"))));
        let Ok((file, _)) = read_source(fs, pcc, pcc.display().to_string(), &mut sources) else {
            continue;
        };
        let Some(source) = sources.get(file) else {
            continue;
        };
        // The PCC's own problems are `check`'s to report.
        let mut ignored: Vec<Diagnostic> = Vec::new();
        let campaign = parse_pcc(pcc, file, source, &root, &mut ignored);
        for entry in campaign.entries {
            kinds
                .entry(normalize(&entry.path))
                .or_default()
                .insert(entry.kind);
        }
    }
    kinds
}
