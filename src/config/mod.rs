//! `rulebook.toml`: a project's settings for `rulebook check`, found upward from the current
//! folder (or named with `--config`), so that a data repository's CI and its people run the
//! same check without repeating flags. A plain value the CLI and the language server read; nothing here prints or exits, and files are read through
//! [`FileSystem`].
//!
//! ```toml
//! pcgen-root = "vendor/pcgen"          # the PCGen install (data/, system/gameModes/)
//! data = ["vendor/pcgen/data/homebrew"] # what `rulebook check` checks with no PATH
//! extra-roots = ["homebrew"]            # folders outside the root a PCC may name
//! baseline = "rulebook-baseline.json"   # --baseline
//! format = "concise"                    # --format
//! allow = ["notes"]                     # --allow, for every file
//! deny = ["warnings"]                   # --deny, for every file
//!
//! [[paths]]                             # allow/deny for the files a glob matches
//! glob = "vendor/pcgen/data/old/**"
//! allow = ["T0113"]
//! ```
//!
//! Paths and globs are relative to the folder holding the file. Its JSON Schema is
//! `schemas/config.schema.json`; a key it does not have is an [`UNKNOWN_KEY`] error with
//! the closest key, anything else wrong a [`BAD_CONFIG`] error, both at their place in the
//! file.

pub mod codes;
pub mod glob;
pub mod policy;

use crate::diagnostic::{Code, Diagnostic};
use crate::load::FileSystem;
use crate::source::{FileId, Span};
use codes::{Selector, selector};
use glob::Glob;
use policy::Policy;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// The file's name.
pub const FILE_NAME: &str = "rulebook.toml";

/// `rulebook.toml` is not valid TOML, or a value has the wrong type or names nothing
/// known (a format, a code in `allow`/`deny`).
pub const BAD_CONFIG: Code = Code {
    id: "C0101",
    name: "bad-config",
};

/// `rulebook.toml` has a key rulebook does not know (a typo, usually).
pub const UNKNOWN_KEY: Code = Code {
    id: "C0102",
    name: "unknown-config-key",
};

/// `rulebook.toml` as written: a project's settings for `rulebook check` (docs/ci.md).
#[derive(Clone, Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ConfigFile {
    /// The PCGen root: the folder holding `data/` and `system/gameModes/` (`--pcgen-root`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub pcgen_root: Option<Spanned<String>>,
    /// PCC files or folders `rulebook check` checks when given no PATH.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub data: Vec<Spanned<String>>,
    /// Folders outside the PCGen root whose files a PCC may name (homebrew kept beside an
    /// install); other files outside stay refused (L0114).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub extra_roots: Vec<Spanned<String>>,
    /// The baseline file (`--baseline`).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    pub baseline: Option<Spanned<String>>,
    /// The output format (`--format`).
    #[serde(default)]
    pub format: Option<Format>,
    /// Warnings and notes not reported: `warnings`, `notes`, codes or code names (`--allow`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub allow: Vec<Spanned<String>>,
    /// Warnings and notes made errors (`--deny`).
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub deny: Vec<Spanned<String>>,
    /// `allow` and `deny` for the files a glob matches, on top of those for every file.
    #[serde(default)]
    pub paths: Vec<PathsFile>,
}

/// One `[[paths]]` table as written.
#[derive(Clone, Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PathsFile {
    /// The files: `*` (within a folder), `**` (any folders), `?`; a trailing `/` means
    /// everything below.
    pub glob: String,
    /// As the top-level `allow`, for these files.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub allow: Vec<Spanned<String>>,
    /// As the top-level `deny`, for these files.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub deny: Vec<Spanned<String>>,
}

/// The output formats `format` names (those of `rulebook check --format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Reports with source excerpts.
    Human,
    /// One line per finding.
    Concise,
    /// GitHub Actions annotations.
    Github,
    /// JSON.
    Json,
    /// SARIF 2.1.0.
    Sarif,
}

/// A word of `allow` or `deny` and where it is written (to point at it when it names no
/// code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// The word.
    pub text: String,
    /// Its place in the config file.
    pub span: Span,
}

/// `allow`/`deny` for the files a glob matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathRule {
    /// The files (relative to [`Config::dir`]).
    pub glob: Glob,
    /// Not reported there.
    pub allow: Vec<Word>,
    /// Made errors there.
    pub deny: Vec<Word>,
}

/// A read `rulebook.toml`, its paths made absolute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The folder holding the file: relative paths and globs start here.
    pub dir: PathBuf,
    /// `pcgen-root`.
    pub pcgen_root: Option<PathBuf>,
    /// `data`.
    pub data: Vec<PathBuf>,
    /// `extra-roots`.
    pub extra_roots: Vec<PathBuf>,
    /// `baseline`.
    pub baseline: Option<PathBuf>,
    /// `format`.
    pub format: Option<Format>,
    /// `allow`, for every file.
    pub allow: Vec<Word>,
    /// `deny`, for every file.
    pub deny: Vec<Word>,
    /// `[[paths]]`.
    pub paths: Vec<PathRule>,
}

/// The nearest `rulebook.toml` in `start` or a folder above it.
pub fn discover(fs: &dyn FileSystem, start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .map(|dir| dir.join(FILE_NAME))
        .find(|p| fs.is_file(p))
}

/// Reads the text of the config file at `path` (absolute), whose id for diagnostics is
/// `file`. A problem is a [`BAD_CONFIG`] or [`UNKNOWN_KEY`] diagnostic at its place.
pub fn parse(text: &str, path: &Path, file: FileId) -> Result<Config, Box<Diagnostic>> {
    let raw: ConfigFile =
        toml::from_str(text).map_err(|e| Box::new(toml_problem(&e, text, file)))?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let at = |p: &Spanned<String>| crate::load::fs::normalize(&dir.join(p.get_ref()));
    let words = |list: &[Spanned<String>]| {
        list.iter()
            .map(|w| Word {
                text: w.get_ref().clone(),
                span: Span::new(file, crate::source::unquoted(text, w.span())),
            })
            .collect::<Vec<_>>()
    };
    Ok(Config {
        pcgen_root: raw.pcgen_root.as_ref().map(at),
        data: raw.data.iter().map(at).collect(),
        extra_roots: raw.extra_roots.iter().map(at).collect(),
        baseline: raw.baseline.as_ref().map(at),
        format: raw.format,
        allow: words(&raw.allow),
        deny: words(&raw.deny),
        paths: raw
            .paths
            .iter()
            .map(|p| PathRule {
                glob: Glob::new(&p.glob),
                allow: words(&p.allow),
                deny: words(&p.deny),
            })
            .collect(),
        dir,
    })
}

impl Config {
    /// The path of `file` (absolute) as the globs see it: relative to [`Config::dir`], `/`
    /// between folders; `None` for a file outside it.
    pub fn relative(&self, file: &Path) -> Option<String> {
        relative(&self.dir, file)
    }

    /// The `[[paths]]` rules that apply to `file` (absolute).
    pub fn rules_for<'a>(&'a self, file: &Path) -> impl Iterator<Item = &'a PathRule> {
        let rel = self.relative(file);
        self.paths
            .iter()
            .filter(move |r| rel.as_deref().is_some_and(|p| r.glob.matches(p)))
    }
}

/// The path of `file` (absolute) as globs see it: relative to `dir`, `/` between folders;
/// `None` for a file outside it.
pub fn relative(dir: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(dir).ok()?;
    Some(rel.to_string_lossy().replace('\\', "/"))
}

/// A TOML or type error of the config file `text` as a diagnostic at its place: an unknown
/// key is [`UNKNOWN_KEY`] with the closest key the table has, anything else [`BAD_CONFIG`].
/// The toml crate says which key or value it refused only in its message (serde's words):
/// that message, not one of ours, is read for them.
fn toml_problem(e: &toml::de::Error, text: &str, file: FileId) -> Diagnostic {
    let message = e.message().trim();
    let message = message.lines().next().unwrap_or(message);
    let span = Span::new(file, e.span().unwrap_or(0..0));
    let written = Span::new(file, crate::source::unquoted(text, span.range()));
    // serde's words for a key the type does not have: "unknown field `x`, expected one of
    // `a`, `b`" (or "expected `a`").
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (key, expected) = rest.split_once('`').unwrap_or((rest, ""));
        let keys: Vec<&str> = expected.split('`').skip(1).step_by(2).collect();
        let d = Diagnostic::error(
            UNKNOWN_KEY,
            span,
            format!("unknown key `{key}` in {FILE_NAME}"),
        )
        .with_label("not a key of this table");
        let listed: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        return d.with_did_you_mean_or(
            written,
            crate::name::closest(key, keys.iter().copied()),
            format!(
                "the keys here are {}: see schemas/config.schema.json",
                listed.join(", ")
            ),
        );
    }
    let d = Diagnostic::error(
        BAD_CONFIG,
        span,
        format!("{FILE_NAME} is not valid: {message}"),
    )
    .with_label(message);
    // serde's words for a value an enumeration lacks: "unknown variant `x`, expected …".
    let guess = message.strip_prefix("unknown variant `").and_then(|rest| {
        let (word, expected) = rest.split_once('`')?;
        crate::name::closest(word, expected.split('`').skip(1).step_by(2))
    });
    d.with_did_you_mean_or(
        written,
        guess,
        "see docs/ci.md (the config file) and schemas/config.schema.json",
    )
}

impl Config {
    /// `base` (the command line's `--allow`/`--deny`) with the file's `allow`, `deny` and
    /// `[[paths]]` added; a word naming no code is a [`BAD_CONFIG`] diagnostic at its place,
    /// with the closest code.
    pub fn policy(&self, mut base: Policy) -> Result<Policy, Box<Diagnostic>> {
        let read = |words: &[Word], key: &str| -> Result<Vec<Selector>, Box<Diagnostic>> {
            words
                .iter()
                .map(|w| {
                    selector(&w.text, key).map_err(|why| {
                        let d = Diagnostic::error(
                            BAD_CONFIG,
                            w.span,
                            format!("{FILE_NAME}: {}", why.problem()),
                        )
                        .with_label("no such code");
                        Box::new(match &why.guess {
                            Some(g) => {
                                let remark = why
                                    .guess_name
                                    .as_ref()
                                    .map_or_else(String::new, |n| format!("({n})"));
                                d.with_did_you_mean_as(w.span, g, "", &remark)
                            }
                            None => d,
                        })
                    })
                })
                .collect()
        };
        base.allow.extend(read(&self.allow, "allow")?);
        base.deny.extend(read(&self.deny, "deny")?);
        for rule in &self.paths {
            base.rules.push(policy::PathRule {
                glob: rule.glob.clone(),
                allow: read(&rule.allow, "allow")?,
                deny: read(&rule.deny, "deny")?,
            });
        }
        base.dir.clone_from(&self.dir);
        Ok(base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::MemoryFs;

    fn read(text: &str) -> Result<Config, Box<Diagnostic>> {
        parse(text, Path::new("/p/rulebook.toml"), FileId(0))
    }

    #[test]
    fn reads_every_key_with_paths_from_its_folder() {
        let c = read(
            "pcgen-root = \"pcgen\"\ndata = [\"pcgen/data/mine\"]\nextra-roots = [\"../brew\"]\n\
             baseline = \"b.json\"\nformat = \"sarif\"\nallow = [\"notes\"]\ndeny = [\"M0120\"]\n\
             [[paths]]\nglob = \"pcgen/data/old/\"\nallow = [\"T0113\"]\n",
        )
        .unwrap();
        assert_eq!(c.pcgen_root, Some(PathBuf::from("/p/pcgen")));
        assert_eq!(c.data, vec![PathBuf::from("/p/pcgen/data/mine")]);
        assert_eq!(c.extra_roots, vec![PathBuf::from("/brew")]);
        assert_eq!(c.baseline, Some(PathBuf::from("/p/b.json")));
        assert_eq!(c.format, Some(Format::Sarif));
        assert_eq!(c.deny[0].text, "M0120");
        let old = Path::new("/p/pcgen/data/old/a.lst");
        assert_eq!(c.rules_for(old).count(), 1);
        assert_eq!(c.rules_for(Path::new("/p/pcgen/data/a.lst")).count(), 0);
    }

    #[test]
    fn an_unknown_key_is_named_with_the_closest_one_at_its_place() {
        let text = "format = \"human\"\npcgen-rot = \"x\"\n";
        let d = read(text).unwrap_err();
        assert_eq!(d.code.id, "C0102");
        assert_eq!(&text[d.span.range()], "pcgen-rot");
        assert_eq!(d.help.as_deref(), Some("did you mean `pcgen-root`?"));
        assert_eq!(d.edit(text).map(|e| e.range), Some(d.span.range()));
        let d = read("[[paths]]\nglob = \"a\"\nalow = []\n").unwrap_err();
        assert_eq!(d.help.as_deref(), Some("did you mean `allow`?"));
    }

    #[test]
    fn a_wrong_type_or_format_is_a_bad_config() {
        let d = read("format = \"xml\"\n").unwrap_err();
        assert_eq!(d.code.id, "C0101");
        let text = "format = \"sarf\"\n";
        let d = read(text).unwrap_err();
        assert_eq!(d.help.as_deref(), Some("did you mean `sarif`?"));
        assert_eq!(d.edit(text).map(|e| &text[e.range]), Some("sarf"));
        let d = read("data = \"x\"\n").unwrap_err();
        assert_eq!(d.code.id, "C0101");
    }

    #[test]
    fn the_nearest_file_above_is_found() {
        let fs = MemoryFs::new()
            .with("/a/rulebook.toml", "")
            .with("/a/b/c/x.pcc", "");
        assert_eq!(
            discover(&fs, Path::new("/a/b/c")),
            Some(PathBuf::from("/a/rulebook.toml"))
        );
        assert_eq!(discover(&fs, Path::new("/elsewhere")), None);
    }
}
