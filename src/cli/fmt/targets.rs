//! The files `rulebook fmt` lays out, and what each is: a PCC file, or an LST file of the
//! kind the PCC listing it says (`FEAT:feats.lst`). An LST file no PCC lists, or that PCCs
//! list as two kinds, is left alone with a message: its kind decides its layout.

use rulebook::fmt::Target;
use rulebook::load::fs::normalize;
use rulebook::load::{FileSystem, PcgenRoot};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The files to lay out, and those left alone with the reason.
#[derive(Debug, Default)]
pub struct Targets {
    /// Each file and what it is, in path order.
    pub files: BTreeMap<PathBuf, Target>,
    /// Files skipped, and why.
    pub skipped: Vec<(PathBuf, String)>,
    /// The PCC files read for the kinds (the load sets `--verify` checks).
    pub pccs: Vec<PathBuf>,
}

fn has_extension(p: &Path, ext: &str) -> bool {
    p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext))
}

/// The LST and PCC files at or below `paths`, with their kinds read from the PCCs among them
/// and, for an LST file named alone, from the PCCs in its folder and the folders above it
/// (up to the PCGen root).
pub fn find(fs: &dyn FileSystem, paths: &[PathBuf]) -> Result<Targets, String> {
    let mut files: BTreeSet<PathBuf> = BTreeSet::new();
    let mut pccs: BTreeSet<PathBuf> = BTreeSet::new();
    let mut alone: Vec<PathBuf> = Vec::new();
    for p in paths {
        let p = normalize(&std::path::absolute(p).unwrap_or_else(|_| p.clone()));
        if fs.is_dir(&p) {
            let walk = fs.walk(&p);
            if let Some(problem) = walk.problems.first() {
                return Err(format!("cannot walk {}: {problem}", p.display()));
            }
            for f in walk.files {
                if has_extension(&f, "pcc") {
                    pccs.insert(f.clone());
                    files.insert(f);
                } else if has_extension(&f, "lst") {
                    files.insert(f);
                }
            }
        } else if fs.is_file(&p) {
            if has_extension(&p, "pcc") {
                pccs.insert(p.clone());
            } else {
                alone.push(p.clone());
            }
            files.insert(p);
        } else {
            return Err(format!("{}: no such file or folder", p.display()));
        }
    }
    for lst in &alone {
        pccs.extend(pccs_above(fs, lst));
    }
    let kinds = rulebook::fmt::kinds::kinds_listed(fs, &pccs);
    let mut targets = Targets {
        pccs: pccs.iter().cloned().collect(),
        ..Targets::default()
    };
    for f in files {
        if has_extension(&f, "pcc") {
            targets.files.insert(f, Target::Pcc);
            continue;
        }
        match kinds
            .get(&f)
            .map(|k| k.iter().collect::<Vec<_>>())
            .as_deref()
        {
            Some([kind]) => {
                targets.files.insert(f, Target::Lst(**kind));
            }
            Some(several) => {
                let names: Vec<&str> = several.iter().map(|k| k.token()).collect();
                targets.skipped.push((
                    f,
                    format!(
                        "listed as {} by PCC files: left as it is",
                        names.join(" and ")
                    ),
                ));
            }
            None => targets.skipped.push((
                f,
                "no PCC file lists it, so its kind (and layout) is unknown: left as it is"
                    .to_string(),
            )),
        }
    }
    Ok(targets)
}

/// The PCC files in the folder of `lst` and in each folder above it, up to the PCGen root
/// (or the file system's root when there is none).
fn pccs_above(fs: &dyn FileSystem, lst: &Path) -> Vec<PathBuf> {
    let root = PcgenRoot::find(fs, lst).map(|r| r.root);
    let mut out = Vec::new();
    for dir in lst.ancestors().skip(1) {
        if let Ok(entries) = std::fs::read_dir(dir) {
            out.extend(
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| has_extension(p, "pcc") && fs.is_file(p)),
            );
        }
        if !out.is_empty() || root.as_deref() == Some(dir) {
            break;
        }
    }
    out
}
