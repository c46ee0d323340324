//! An object file's lines as the model reads them, worked out once per file and run.
//!
//! Which lines start an object (with its key and name), which continue the previous object,
//! which copy, modify or forget one, and which of each line's tokens the model acts on depend
//! on the file's text and kind alone. A core rulebook is listed by hundreds of load sets, so
//! this is computed by the first load set that reads the file and shared with the others
//! ([`crate::load::cache::CachedFile::derived`]); what depends on the load set — its
//! `INCLUDE`/`EXCLUDE` filter, the objects made and what their tokens mean — is done per load
//! set ([`super::Builder::object_kind`]).

use super::key_ids::{KeyIds, RUN_KEY_IDS};
use super::{Builder, LineForm};
use crate::load::cache::CachedFile;
use crate::load::loadset::line_mode;
use crate::load::{FileKind, Line};
use crate::model::KeyId;
use crate::name::Name;
use std::sync::{Arc, Mutex};

/// The name under which an object file's lines are kept in the file cache.
const DERIVED: &str = "model::object_lines";

/// The object lines of one file read as one kind.
#[derive(Debug)]
pub(in crate::model) struct ObjectLines {
    /// The lines the model reads, in file order.
    pub(in crate::model) lines: Vec<ObjectLine>,
    /// What every load set reads of each of `lines` (same index), packed: most lines
    /// make an object with no token the model acts on, and for those this is all a load
    /// set reads (a quarter of the memory the full lines take, streamed once per load set).
    pub(super) heads: Box<[LineHead]>,
    /// How many of `lines` are [`Form::Deferred`].
    pub(super) deferred: usize,
    /// How many of those are done in each [`Pass`] (copies, mods, forgets).
    pub(super) passes: [usize; 3],
    /// The numbers of the keys the [`Form::Deferred`] lines look up, each once: the objects
    /// a load set made with other keys are not indexed while it is built.
    pub(super) looked_up: Box<[KeyId]>,
}

/// The part of an [`ObjectLine`] read for every line of every load set.
#[derive(Clone, Copy, Debug)]
pub(super) struct LineHead {
    /// [`ObjectLine::first`].
    pub(super) first: crate::source::Span,
    /// What the line does.
    pub(super) does: Does,
    /// Whether [`ObjectLine::tokens`] has any token.
    pub(super) acts: bool,
    /// The `key_hash` of a [`Form::Base`] line (0 for the others).
    pub(super) key_hash: u64,
    /// The `key_id` of a [`Form::Base`] line ([`KeyId::NONE`] for the others).
    pub(super) key_id: KeyId,
}

/// [`Form`] without what it carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Does {
    /// [`Form::Continuation`].
    Continue,
    /// [`Form::Base`].
    Make,
    /// [`Form::Deferred`], done in this pass.
    Defer(Pass),
}

/// The pass of a kind's [`Form::Deferred`] lines a line is done in: PCGen makes the copies,
/// then the mods, then the forgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pass {
    /// `.COPY=`.
    Copy,
    /// `.MOD`.
    Mod,
    /// `.FORGET`.
    Forget,
}

impl Pass {
    /// Its place in PCGen's order: copies 0, mods 1, forgets 2 (see
    /// [`ObjectLines::passes`]).
    pub(super) fn index(self) -> usize {
        self as usize
    }
}

impl LineHead {
    /// The head of `line`.
    fn of(line: &ObjectLine) -> LineHead {
        let (does, key_hash, key_id) = match &line.form {
            Form::Continuation => (Does::Continue, 0, KeyId::NONE),
            Form::Base {
                key_hash, key_id, ..
            } => (Does::Make, *key_hash, *key_id),
            Form::Deferred(form, ..) => {
                let pass = match form {
                    LineForm::Copy(..) => Pass::Copy,
                    LineForm::Forget(..) => Pass::Forget,
                    // A base line is no deferred line; done with the mods if it were.
                    LineForm::Mod(..) | LineForm::Base(..) => Pass::Mod,
                };
                (Does::Defer(pass), 0, KeyId::NONE)
            }
        };
        LineHead {
            first: line.first,
            does,
            acts: !line.tokens.is_empty(),
            key_hash,
            key_id,
        }
    }
}

/// One line the model reads.
#[derive(Debug)]
pub(in crate::model) struct ObjectLine {
    /// Its index in the file's lines ([`crate::load::LoadedFile::lines`]).
    pub(in crate::model) line: usize,
    /// Its first token (in the cache's file): a copy, so that a load set reads the
    /// shared line only for the tokens it acts on.
    pub(in crate::model) first: crate::source::Span,
    /// What it does.
    pub(in crate::model) form: Form,
    /// The indices of the tokens after the first that [`Builder::object_token`] acts on,
    /// in order; every other token leaves the model as it is.
    pub(super) tokens: Box<[usize]>,
    /// The `FACT:`/`FACTSET:` tokens among `tokens` that have a value, by index, in order:
    /// the fact name each gives, made and hashed once per file.
    pub(super) facts: Box<[(usize, FactName)]>,
}

/// The fact name and value of a `FACT:Name|value` or `FACTSET:Name|value` token.
#[derive(Debug)]
pub(super) struct FactName {
    /// True for `FACTSET:`.
    pub(super) set: bool,
    /// The name, trimmed.
    pub(super) name: Name,
    /// Its [`crate::model::key_hash`].
    pub(super) hash: u64,
    /// The value as written.
    pub(super) value: Arc<str>,
    /// The token (in the cache's file): a load set reads no line to report it.
    pub(super) token: crate::source::Span,
}

/// What an object line does.
#[derive(Debug)]
pub(in crate::model) enum Form {
    /// Its tokens belong to the object of the line before (a CLASS level line, a kit line).
    Continuation,
    /// It makes an object.
    Base {
        /// The key the `INCLUDE`/`EXCLUDE` filter compares (`KEY:` or the name) when it is
        /// not `key` (it is untrimmed), else empty (no allocation); see
        /// [`Form::filter_key`]. A run's cache holds every object line of the corpus.
        filter_key: String,
        /// The object's key.
        key: Name,
        /// Its hash in the dataset's index ([`crate::model::key_hash`]).
        key_hash: u64,
        /// Its number.
        key_id: KeyId,
        /// The object's name, the whole first token, when it is not `key`'s spelling.
        name: Option<Arc<str>>,
    },
    /// `.COPY=`, `.MOD` or `.FORGET`, done after every object of the kind exists; with the
    /// [`crate::model::key_hash`] and number of the key it looks up (the copied, modified
    /// or forgotten object's).
    Deferred(LineForm, u64, KeyId, Option<Box<NewKey>>),
}

/// The key of the object a `.COPY=` line makes (its new key) or a `.MOD` line makes when
/// the load has no object of its key, as [`Builder::new_object`] would make it.
#[derive(Debug)]
pub(in crate::model) struct NewKey {
    /// The key, trimmed.
    pub(super) key: Name,
    /// Its [`crate::model::key_hash`].
    pub(super) hash: u64,
    /// The name as written when it is not the key's spelling.
    pub(super) name: Option<Arc<str>>,
    /// The key's number.
    pub(super) id: KeyId,
}

impl NewKey {
    /// The key of an object made with `key` as both key and name.
    fn new(key: &str) -> NewKey {
        let trimmed = key.trim();
        NewKey {
            key: Name::new(trimmed),
            hash: crate::model::key_hash(trimmed),
            name: (key != trimmed).then(|| Arc::from(key)),
            id: KeyId::NONE,
        }
    }
}

impl Form {
    /// The key the `INCLUDE`/`EXCLUDE` filter compares for a [`Form::Base`] line.
    pub(super) fn filter_key(&self) -> Option<&str> {
        match self {
            Form::Base {
                filter_key, key, ..
            } => Some(if filter_key.is_empty() {
                key.as_str()
            } else {
                filter_key.as_str()
            }),
            _ => None,
        }
    }
}

impl ObjectLines {
    /// The key and (when it is not the key's spelling) name of the object line `line`
    /// makes, if it makes one ([`Form::Base`]).
    pub(in crate::model) fn base_key(&self, line: usize) -> Option<(&Name, Option<&str>)> {
        match &self.lines.get(line)?.form {
            Form::Base { key, name, .. } => Some((key, name.as_deref())),
            _ => None,
        }
    }

    /// The lines of `file` read as `kind`, from the run's cache (worked out on first use).
    pub(in crate::model) fn of(file: &CachedFile, kind: FileKind) -> Arc<ObjectLines> {
        file.derived(DERIVED, kind as u32, |f| {
            let ids = f.run_shared::<Mutex<KeyIds>>(RUN_KEY_IDS);
            ObjectLines::read(
                f.shared_lines(line_mode(kind)),
                &f.source().text,
                kind,
                &ids,
            )
        })
    }

    /// Reads `lines` (of a file whose text is `text`) as object lines of `kind`, their keys
    /// numbered in `ids`.
    pub(super) fn read(
        lines: &[Line],
        text: &str,
        kind: FileKind,
        ids: &Mutex<KeyIds>,
    ) -> ObjectLines {
        let slice = |s: crate::source::Span| text.get(s.range()).unwrap_or("");
        let mut out = Vec::with_capacity(lines.len());
        // Each line's tokens, read in one pass: the model's, their facts and the first
        // `KEY:` (made into each line's boxed slices at their size).
        let (mut acted, mut read_facts) = (Vec::new(), Vec::new());
        for (i, line) in lines.iter().enumerate() {
            let Some(first_span) = line.tokens.first().copied() else {
                continue;
            };
            let first = slice(first_span);
            if first.starts_with("SOURCE") && first.contains(':') {
                continue;
            }
            let mut key_token = None;
            for (j, t) in line.tokens.iter().enumerate().skip(1) {
                let token = slice(*t);
                if key_token.is_none() {
                    key_token = token.strip_prefix("KEY:");
                }
                if !acts_on(token, kind) {
                    continue;
                }
                acted.push(j);
                if let Some(fact) = fact_name(token, *t) {
                    read_facts.push((j, fact));
                }
            }
            let tokens: Box<[usize]> = acted.drain(..).collect();
            let facts: Box<[(usize, FactName)]> = read_facts.drain(..).collect();
            let continuation = match kind {
                FileKind::Class => {
                    !first.starts_with("CLASS:")
                        && !first.contains(".MOD")
                        && !first.contains(".COPY")
                        && !first.contains(".FORGET")
                }
                FileKind::Kit => !first.starts_with("STARTPACK:"),
                _ => false,
            };
            let form = if continuation {
                Form::Continuation
            } else {
                match Builder::line_form(kind, first) {
                    LineForm::Base(name) => {
                        let filter_key = key_token.map_or(name, |k| k.trim().to_owned());
                        let key = filter_key.trim();
                        let (key_name, key_hash) = (Name::new(key), crate::model::key_hash(key));
                        let name = (first != key).then(|| Arc::from(first));
                        let same = filter_key == key;
                        Form::Base {
                            key: key_name,
                            key_hash,
                            key_id: KeyId::NONE,
                            name,
                            filter_key: if same { String::new() } else { filter_key },
                        }
                    }
                    other => {
                        let looked_up = match &other {
                            LineForm::Copy(key, _) | LineForm::Mod(key) | LineForm::Forget(key) => {
                                key.as_str()
                            }
                            LineForm::Base(key) => key.as_str(),
                        };
                        let hash = crate::model::key_hash(looked_up);
                        let made = match &other {
                            LineForm::Copy(_, new) => Some(Box::new(NewKey::new(new))),
                            LineForm::Mod(key) => Some(Box::new(NewKey::new(key))),
                            _ => None,
                        };
                        Form::Deferred(other, hash, KeyId::NONE, made)
                    }
                }
            };
            out.push(ObjectLine {
                line: i,
                first: first_span,
                form,
                tokens,
                facts,
            });
        }
        number_keys(&mut out, ids);
        let heads: Box<[LineHead]> = out.iter().map(LineHead::of).collect();
        let mut looked_up: Vec<KeyId> = out
            .iter()
            .filter_map(|l| match &l.form {
                Form::Deferred(_, _, id, _) => Some(*id),
                _ => None,
            })
            .collect();
        let deferred = looked_up.len();
        let mut passes = [0; 3];
        for head in &heads {
            if let Does::Defer(pass) = head.does {
                if let Some(n) = passes.get_mut(pass.index()) {
                    *n += 1;
                }
            }
        }
        // A set: each key once (a file often modifies one object on several lines).
        looked_up.sort_unstable_by_key(|id| id.0);
        looked_up.dedup();
        ObjectLines {
            lines: out,
            heads,
            deferred,
            passes,
            looked_up: looked_up.into(),
        }
    }
}

/// Numbers the keys `lines` make and look up in `ids`, under one lock.
fn number_keys(lines: &mut [ObjectLine], ids: &Mutex<KeyIds>) {
    let mut ids = KeyIds::lock(ids);
    for line in lines {
        match &mut line.form {
            Form::Continuation => {}
            Form::Base {
                key,
                key_hash,
                key_id,
                ..
            } => *key_id = ids.id_of(key, *key_hash),
            Form::Deferred(form, hash, id, made) => {
                // The key a `.MOD` line makes is usually the one it looks up: numbered
                // first, it is kept (and the looked-up key found) without making one.
                if let Some(made) = made {
                    made.id = ids.id_of(&made.key, made.hash);
                }
                let looked_up = match form {
                    LineForm::Copy(key, _)
                    | LineForm::Mod(key)
                    | LineForm::Forget(key)
                    | LineForm::Base(key) => key.as_str(),
                };
                *id = ids.id(looked_up, *hash);
            }
        }
    }
}

/// The fact name and value of a `FACT:Name|value` or `FACTSET:Name|value` token `text`
/// (at `token`).
fn fact_name(text: &str, token: crate::source::Span) -> Option<FactName> {
    let (key, value) = text.split_once(':')?;
    if key != "FACT" && key != "FACTSET" {
        return None;
    }
    let (name, value) = value.split_once('|')?;
    let name = name.trim();
    Some(FactName {
        set: key == "FACTSET",
        name: Name::new(name),
        hash: crate::model::key_hash(name),
        value: Arc::from(value),
        token,
    })
}

/// Whether [`Builder::object_token`] does anything with the token `text` of a `kind` file:
/// the name before its first `:` is one the model reads.
fn acts_on(text: &str, kind: FileKind) -> bool {
    // The names below start with one of four letters, most other tokens' names do not:
    // those are not scanned for their `:`.
    if !matches!(text.as_bytes().first(), Some(b'M' | b'G' | b'F' | b'P')) {
        return false;
    }
    let Some(colon) = text.bytes().position(|b| b == b':') else {
        return false;
    };
    match text.get(..colon).unwrap_or("") {
        "MODIFY" | "MODIFYOTHER" | "GROUP" | "GRANT" | "FACT" | "FACTSET" => true,
        "PART" => kind == FileKind::Equipment,
        "FACE" => matches!(kind, FileKind::Race | FileKind::Template),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::text::LineMode;
    use crate::source::FileId;

    fn read(text: &str, kind: FileKind) -> ObjectLines {
        let lines = crate::load::text::lines(FileId(0), text, LineMode::Object);
        ObjectLines::read(&lines, text, kind, &Mutex::default())
    }

    #[test]
    fn only_the_tokens_the_model_reads_are_kept() {
        let text = "Orc\tKEY:Orc_K\tDESC:x: y\tMODIFY:a|ADD|1\tFACE:5\tGROUP:G\tNOCOLON\n\
                    SOURCELONG:Book\n\
                    Elf.MOD\tFACT:A|b\n";
        let race = read(text, FileKind::Race);
        let [base, modded] = race.lines.as_slice() else {
            panic!("{race:?}");
        };
        assert_eq!((base.line, &*base.tokens), (0, &[3, 4, 5][..]));
        let Form::Base { key, name, .. } = &base.form else {
            panic!("{base:?}");
        };
        assert_eq!(
            (base.form.filter_key(), key.as_str(), name.as_deref()),
            (Some("Orc_K"), "Orc_K", Some("Orc"))
        );
        assert_eq!((modded.line, &*modded.tokens), (2, &[1][..]));
        let [(1, fact)] = &*modded.facts else {
            panic!("{modded:?}");
        };
        assert_eq!(
            (fact.name.as_str(), fact.hash, &*fact.value),
            ("A", crate::model::key_hash("a"), "b")
        );
        assert!(base.facts.is_empty());
        assert!(matches!(&modded.form,
            Form::Deferred(LineForm::Mod(k), h, _, Some(made))
                if k == "Elf" && *h == crate::model::key_hash("elf")
                    && made.key.as_str() == "Elf" && made.hash == *h && made.name.is_none()));
        // FACE is read only in race and template files.
        assert_eq!(&*read(text, FileKind::Skill).lines[0].tokens, &[3, 5][..]);
    }

    #[test]
    fn a_made_key_is_trimmed_and_keeps_its_spelling_as_name() {
        let made = NewKey::new(" Elf\t");
        assert_eq!(
            (made.key.as_str(), made.hash, made.name.as_deref()),
            ("Elf", crate::model::key_hash("ELF"), Some(" Elf\t"))
        );
        assert!(NewKey::new("Elf").name.is_none());
    }

    #[test]
    fn a_name_that_is_the_key_is_not_kept_twice() {
        let race = read("Orc\tFACE:5\nElf \tFACE:5\n", FileKind::Race);
        let names: Vec<Option<&str>> = race
            .lines
            .iter()
            .map(|l| match &l.form {
                Form::Base { name, key, .. } => {
                    assert_eq!(key.as_str(), name.as_deref().unwrap_or(key.as_str()).trim());
                    name.as_deref()
                }
                _ => panic!("{l:?}"),
            })
            .collect();
        assert_eq!(names, [None, Some("Elf ")]);
    }

    #[test]
    fn class_and_kit_lines_continue_the_object_before() {
        let class = read(
            "CLASS:Fighter\tMODIFY:a|ADD|1\n1\tGROUP:x\nCLASS:Rogue.MOD\n",
            FileKind::Class,
        );
        let forms: Vec<&str> = class
            .lines
            .iter()
            .map(|l| match &l.form {
                Form::Continuation => "continues",
                Form::Base { .. } => "base",
                Form::Deferred(..) => "deferred",
            })
            .collect();
        assert_eq!(forms, ["base", "continues", "deferred"]);
        let kit = read("STARTPACK:K\nGEAR:Rope\n", FileKind::Kit);
        assert!(matches!(kit.lines[1].form, Form::Continuation));
    }
}
