//! Building a load set: the selected PCCs, their sub-campaigns and prerequisites, the game
//! mode, and every listed file read in PCGen's fixed load order.

use crate::diagnostic::Diagnostic;
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::load::cache::{CachedFile, FileCache, FileLines, path_key};
use crate::load::campaign::{Campaign, Candidate, FileKind, KeyFilter, PreItem, parse_pcc_cached};
use crate::load::codes;
use crate::load::fs::{FileSystem, Walk, normalize};
use crate::load::gamemode::GameMode;
use crate::load::index::{CampaignIndex, IndexedCampaign};
use crate::load::root::{Escape, PcgenRoot};
use crate::load::text::LineMode;
use crate::source::{FileId, SourceFile, SourceMap, Span, TextEncoding};
use std::cell::OnceCell;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One file of the load, read and split into lines.
#[derive(Clone)]
pub struct LoadedFile {
    /// Its kind (decides how its lines are read and in which scope).
    pub kind: FileKind,
    /// Resolved path.
    pub path: PathBuf,
    /// Its source.
    pub file: FileId,
    /// Meaningful lines (comments and blank lines removed), shared with the run's cache.
    pub lines: FileLines,
    /// `(INCLUDE:…)`/`(EXCLUDE:…)` from the PCC entry.
    pub filter: Option<KeyFilter>,
    /// The PCC entry that listed it (`None` for game-mode fallbacks).
    pub listed_at: Option<Span>,
    /// The run's shared copy of the file, where later layers keep what they derive from the
    /// file alone ([`CachedFile::derived`]).
    pub cached: Arc<CachedFile>,
}

impl std::fmt::Debug for LoadedFile {
    // The shared copy is left out: it repeats the text and lines every load set shares.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LoadedFile")
            .field("kind", &self.kind)
            .field("path", &self.path)
            .field("file", &self.file)
            .field("lines", &self.lines)
            .field("filter", &self.filter)
            .field("listed_at", &self.listed_at)
            .finish_non_exhaustive()
    }
}

/// Everything read for one load set.
#[derive(Clone, Debug)]
pub struct LoadSet {
    /// The PCGen root.
    pub root: PcgenRoot,
    /// Every file read (PCCs, LSTs, game-mode files).
    pub sources: SourceMap,
    /// Selected campaigns in RANK order, then the sub-campaigns they include.
    pub campaigns: Vec<Campaign>,
    /// How many of `campaigns` were selected (the rest are includes).
    pub selected: usize,
    /// The game mode, when one matched.
    pub game_mode: Option<GameMode>,
    /// The files in load order.
    pub files: Vec<LoadedFile>,
    /// Problems found while loading.
    pub diagnostics: Vec<Diagnostic>,
}

/// The line mode a file kind is read with.
pub fn line_mode(kind: FileKind) -> LineMode {
    match kind {
        FileKind::DataControl | FileKind::Dynamic | FileKind::GlobalModifier => LineMode::Trimmed,
        FileKind::DataTable => LineMode::Whole,
        _ => LineMode::Object,
    }
}

/// The PCCs below `dir` that a user can select (those with a GAMEMODE line), sorted, with
/// what the walk could not read (an unreadable sub-folder, a link leading out) for the
/// caller to report: one such folder hides no other dataset, and goes missing silently
/// neither.
pub fn selectable_pccs(fs: &dyn FileSystem, dir: &Path) -> Walk {
    let walk = fs.walk(dir);
    let files = walk
        .files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pcc")))
        .filter(|p| match fs.read(p) {
            Ok(b) => names_game_mode(&String::from_utf8_lossy(&b)),
            // Loaded, to be reported (L0116) rather than dropped.
            Err(e) => e.kind() == std::io::ErrorKind::FileTooLarge,
        })
        .collect();
    Walk {
        files,
        problems: walk.problems,
    }
}

/// True when a PCC's text has a `GAMEMODE:` line: a user can select it, and checking a
/// folder checks it as a load set of its own (the language server picks load sets by it too).
pub fn names_game_mode(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_start().starts_with("GAMEMODE:"))
}

/// The campaign index a load uses: shared by the caller, or built on first need.
enum IndexRef<'a> {
    Shared(&'a CampaignIndex),
    Lazy(OnceCell<CampaignIndex>),
}

struct Loader<'a> {
    fs: &'a dyn FileSystem,
    index: IndexRef<'a>,
    root: PcgenRoot,
    sources: SourceMap,
    diagnostics: Vec<Diagnostic>,
    /// Campaigns parsed, by [`path_key`] of their (normalised) path.
    by_path: FxHashMap<Box<[u8]>, usize>,
    campaigns: Vec<Campaign>,
    /// Files read in this load, by [`path_key`].
    read: FxHashMap<Box<[u8]>, (FileId, Arc<CachedFile>)>,
    cache: &'a FileCache,
}

impl Loader<'_> {
    fn index(&self) -> &CampaignIndex {
        match &self.index {
            IndexRef::Shared(i) => i,
            IndexRef::Lazy(cell) => cell.get_or_init(|| CampaignIndex::build(self.fs, &self.root)),
        }
    }

    /// The loaded campaigns as prerequisites see them: `selected` (loaded themselves) and
    /// everything they include.
    fn candidates(&self, selected: &[usize]) -> Vec<Candidate<'_>> {
        let mut seen = HashSet::new();
        let mut reach = Vec::new();
        for &i in selected {
            self.reachable(i, &mut seen, &mut reach);
        }
        reach
            .into_iter()
            .filter_map(|i| {
                self.campaigns.get(i).map(|c| Candidate {
                    key: &c.key,
                    name: &c.name,
                    book_types: &c.book_types,
                    top_level: selected.contains(&i),
                })
            })
            .collect()
    }

    fn outside(&mut self, at: Span, escape: Escape) {
        let message = match &escape {
            Escape::Lexical => {
                "this path leads outside the PCGen root; the file is not read".to_owned()
            }
            Escape::Link(to) => format!(
                "a link on this path leads outside the PCGen root (to `{}`); the file is not read",
                to.display()
            ),
        };
        self.diagnostics.push(
            Diagnostic::error(codes::OUTSIDE_ROOT, at, message)
                .with_label("outside the PCGen root")
                .with_help(
                    "keep every file of a dataset under the PCGen root (`@/` is the data folder); \
                     `extra-roots` in rulebook.toml names folders of homebrew beside it, and \
                     `rulebook check --allow-outside-root` reads any such file",
                ),
        );
    }

    fn not_a_file(&mut self, path: &Path, at: Option<Span>, what: &dyn std::fmt::Display) {
        let display = self.root.display(path);
        let kind = if self.fs.is_dir(path) {
            "a folder"
        } else {
            "not a regular file (a device, pipe or socket)"
        };
        let span = at.unwrap_or_else(|| {
            let id = self
                .sources
                .add(SourceFile::new(display.clone(), "", TextEncoding::Utf8));
            Span::new(id, 0..0)
        });
        self.diagnostics.push(
            Diagnostic::error(
                codes::READ_FAILED,
                span,
                format!("{what} `{display}` is {kind}"),
            )
            .with_label("not a file")
            .with_help("list a regular file here"),
        );
    }

    fn missing(&mut self, path: &Path, at: Option<Span>, what: &dyn std::fmt::Display) {
        let display = self.root.display(path);
        let span = at.unwrap_or_else(|| {
            let id = self
                .sources
                .add(SourceFile::new(display.clone(), "", TextEncoding::Utf8));
            Span::new(id, 0..0)
        });
        self.diagnostics.push(
            Diagnostic::error(
                codes::FILE_NOT_FOUND,
                span,
                format!("{what} `{display}` does not exist"),
            )
            .with_label("no such file")
            .with_help(
                "check the path and its upper/lower case (PCGen runs on case-sensitive systems)",
            ),
        );
    }

    /// Reads `path` through the run's cache (once per run) and gives it an id in this load.
    fn read_cached(
        &mut self,
        path: &Path,
        at: Option<Span>,
        what: &dyn std::fmt::Display,
    ) -> Option<(FileId, Arc<CachedFile>)> {
        if let Some(found) = self.read.get(path_key(path)) {
            return Some(found.clone());
        }
        // Files a PCC names stay under the root; what the user names on the command line
        // is theirs to choose.
        if let Some(at) = at {
            if let Some(escape) = self.cache.escape(self.fs, &self.root, path) {
                self.outside(at, escape);
                return None;
            }
        }
        let cached = self.cache.get(path);
        if cached.is_none() && !self.fs.is_file(path) {
            if self.fs.exists(path) {
                self.not_a_file(path, at, what);
            } else {
                self.missing(path, at, what);
            }
            return None;
        }
        let read = match cached {
            Some(f) => Ok(f),
            None => self.cache.read(self.fs, path, || self.root.display(path)),
        };
        match read {
            Ok(file) => {
                let id = self.sources.add_shared(file.source().clone());
                if let Some(w) = file.not_utf8(id) {
                    let encoding = self.sources.get(id).map(|f| f.encoding);
                    self.diagnostics.push(skipped_by_pcgen(w, encoding));
                }
                self.read.insert(path_key(path).into(), (id, file.clone()));
                Some((id, file))
            }
            Err(e) => {
                let display = self.root.display(path);
                let id = self
                    .sources
                    .add(SourceFile::new(display.clone(), "", TextEncoding::Utf8));
                let span = at.unwrap_or(Span::new(id, 0..0));
                self.diagnostics.push(if e.kind() == std::io::ErrorKind::FileTooLarge {
                    Diagnostic::error(
                        codes::FILE_TOO_LARGE,
                        span,
                        format!("`{display}` is too large to be a data file: {e}"),
                    )
                    .with_label("not read")
                    .with_help("a data file this size is a mistake (or an attack): list the right file")
                } else {
                    Diagnostic::error(
                        codes::READ_FAILED,
                        span,
                        format!("cannot read `{display}`: {e}"),
                    )
                    .with_help("check the file's permissions")
                });
                None
            }
        }
    }

    /// Parses a PCC and (recursively) its includes; returns its index. The recursion depth
    /// is the include chain's length, which the data controls: it stops at
    /// [`MAX_INCLUDE_DEPTH`] with [`codes::INCLUDE_TOO_DEEP`].
    fn campaign(
        &mut self,
        path: &Path,
        at: Option<Span>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<usize> {
        let path = normalize(path);
        if stack.len() >= MAX_INCLUDE_DEPTH {
            if let Some(span) = at {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::INCLUDE_TOO_DEEP,
                        span,
                        format!("`PCC:` includes are nested more than {MAX_INCLUDE_DEPTH} deep"),
                    )
                    .with_label("this include is not loaded")
                    .with_help(
                        "include the campaigns side by side from one PCC instead of chaining them",
                    )
                    .with_note(format!(
                        "the chain started at {}",
                        self.root.display(stack.first().map_or(&path, |p| p))
                    )),
                );
            }
            return None;
        }
        if stack.contains(&path) {
            if let Some(span) = at {
                self.diagnostics.push(
                    Diagnostic::warning(
                        codes::INCLUDE_CYCLE,
                        span,
                        "this PCC includes itself through `PCC:`",
                    )
                    .with_help("remove the include that closes the cycle"),
                );
            }
            return None;
        }
        if let Some(i) = self.by_path.get(path_key(&path)) {
            return Some(*i);
        }
        let (id, cached) = self.read_cached(&path, at, &"campaign file")?;
        let c = parse_pcc_cached(&path, id, &cached, &self.root, &mut self.diagnostics);
        let includes = c.includes.clone();
        let index = self.campaigns.len();
        self.campaigns.push(c);
        self.by_path.insert(path_key(&path).into(), index);
        stack.push(path);
        for (p, span) in includes {
            self.campaign(&p, Some(span), stack);
        }
        stack.pop();
        Some(index)
    }

    /// Every campaign reachable from `i` (itself first, then includes depth-first). An
    /// explicit stack, not recursion: include graphs are data (pushing the includes in
    /// reverse and marking at pop gives the recursive pre-order).
    fn reachable(&self, i: usize, seen: &mut HashSet<usize>, out: &mut Vec<usize>) {
        let mut todo = vec![i];
        while let Some(i) = todo.pop() {
            if !seen.insert(i) {
                continue;
            }
            out.push(i);
            let Some(c) = self.campaigns.get(i) else {
                continue;
            };
            todo.extend(
                c.includes
                    .iter()
                    .rev()
                    .filter_map(|(p, _)| self.by_path.get(path_key(p)).copied()),
            );
        }
    }
}

/// A data file's [`codes::NOT_UTF8`] finding, made an error that says what PCGen does: it
/// reads every LST and PCC file as strict UTF-8 (`LstFileLoader.readFromURI`,
/// `Files.readString`), and a `MalformedInputException` skips the whole file ("The file does
/// not use UTF-8 encoding. LST files must be UTF-8"), so nothing in it loads and whatever
/// refers to it fails too. A UTF-16/UTF-32 file with a byte-order mark is malformed UTF-8 as
/// well; one without is valid UTF-8 to PCGen while all its characters are ASCII, but then
/// reads with a NUL byte beside every character, so no line of it loads as written. rulebook
/// still decodes the file to check the rest of it.
fn skipped_by_pcgen(w: Diagnostic, encoding: Option<TextEncoding>) -> Diagnostic {
    let (message, note) = match encoding {
        Some(TextEncoding::Wide { name, bom: false }) => (
            format!("{}: PCGen reads no line of it as written", w.message),
            format!(
                "PCGen reads the file as UTF-8: a NUL byte beside every character while all of \
                 them are ASCII, and it skips the whole file at the first that is not; rulebook \
                 read it as {name} to check the rest"
            ),
        ),
        Some(TextEncoding::Wide { name, bom: true }) => (
            format!("{}: PCGen skips the whole file", w.message),
            format!("rulebook read it as {name} to check the rest"),
        ),
        _ => (
            format!("{}: PCGen skips the whole file", w.message),
            "rulebook read it as Windows-1252 to check the rest".to_owned(),
        ),
    };
    Diagnostic {
        severity: crate::diagnostic::Severity::Error,
        message,
        ..w
    }
    .with_note(note)
}

/// PRECAMPAIGN on the campaigns loaded themselves: whatever a failing requirement names is
/// added from the index (a name or KEY as it is; a book type as the campaign of that type
/// in the same game mode), one alternative at a time until the requirement holds. What no
/// campaign under the data folder provides is one [`codes::MISSING_CAMPAIGN`] per name.
/// The user's PCCs are taken in path order, so the [`codes::CAMPAIGN_ADDED`] notes do not
/// depend on the order they were given in.
///
/// Campaigns required by name come first, with everything they require by name in turn;
/// only then are book types chosen, so a required book that is itself of the type
/// (`PRECAMPAIGN:1,BOOKTYPE=Core Rules` beside `PRECAMPAIGN:1,Player's Guide to Arcanis`,
/// a Core Rules book) satisfies it rather than a second book of that type being added
/// beside it — which a book that allows no other (`!PRECAMPAIGN:1,BOOKTYPE=Core Rules,[…]`)
/// forbids.
fn require_campaigns(l: &mut Loader<'_>, selected: &mut Vec<usize>) {
    let mut reported: HashSet<String> = HashSet::new();
    let game_modes = l.cache.game_modes(l.fs, &l.root.game_modes());
    for names_only in [true, false] {
        require_pass(l, selected, names_only, &game_modes, &mut reported);
    }
}

/// The GAMEMODE values of the campaigns a user can select beside a campaign of GAMEMODE
/// `modes`: every value some game mode that accepts one of `modes` allows (PCGen lists a
/// campaign under each game mode whose ALLOWEDMODES holds one of its GAMEMODE values,
/// `Campaign.getGameModes`), so a `GAMEMODE:Xcrawl` book, listed under 3e
/// (`ALLOWEDMODES:3e|DnD|Xcrawl`), can have the 3e SRD beside it. `modes` themselves when
/// no game mode accepts them (that is `L0104`'s finding).
fn selectable_beside(game_modes: &[GameMode], modes: &[String]) -> Vec<String> {
    let mut out: Vec<String> = modes.to_vec();
    for m in game_modes
        .iter()
        .filter(|m| modes.iter().any(|g| m.accepts(g)))
    {
        for a in &m.allowed {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(a)) {
                out.push(a.clone());
            }
        }
    }
    out
}

/// One pass of [`require_campaigns`] over the selected campaigns and those it adds; with
/// `names_only`, book-type requirements are left for the next pass and nothing is reported.
fn require_pass(
    l: &mut Loader<'_>,
    selected: &mut Vec<usize>,
    names_only: bool,
    game_modes: &[GameMode],
    reported: &mut HashSet<String>,
) {
    let mut queue = selected.clone();
    queue.sort_by(|a, b| {
        let path = |i: &usize| l.campaigns.get(*i).map(|c| c.path.clone());
        path(a).cmp(&path(b))
    });
    let mut k = 0;
    while let Some(&i) = queue.get(k) {
        k += 1;
        let Some(c) = l.campaigns.get(i) else {
            continue;
        };
        let pres: Vec<_> = c.pre.iter().filter(|p| !p.negated).cloned().collect();
        // The campaigns a selected one forbids by name (`!PRECAMPAIGN`): never added, so a
        // requirement with alternatives takes one the load may have.
        let excluded: Vec<String> = selected
            .iter()
            .filter_map(|j| l.campaigns.get(*j))
            .flat_map(|s| s.pre.iter().filter(|p| p.negated))
            .flat_map(|p| p.items.iter())
            .filter_map(|item| match item {
                PreItem::Name(n) | PreItem::Includes(n) => Some(n.clone()),
                _ => None,
            })
            .collect();
        let allowed = |found: &IndexedCampaign| !excluded.iter().any(|n| found.is(n));
        let mut modes = c.game_modes.clone();
        if modes.is_empty() {
            modes = selected
                .iter()
                .filter_map(|j| l.campaigns.get(*j))
                .find(|c| !c.game_modes.is_empty())
                .map(|c| c.game_modes.clone())
                .unwrap_or_default();
        }
        let beside = selectable_beside(game_modes, &modes);
        for pre in pres {
            let mut missing: Vec<Missing> = Vec::new();
            for item in &pre.items {
                let candidates = l.candidates(selected);
                if pre.passes(&candidates) {
                    break;
                }
                if pre.item_holds(item, &candidates) {
                    continue;
                }
                drop(candidates);
                let book_type = matches!(item, PreItem::BookType(_) | PreItem::IncludesBookType(_));
                if names_only && book_type {
                    continue;
                }
                let found = match item {
                    PreItem::Name(n) | PreItem::Includes(n) => {
                        l.index().find(n).filter(|c| allowed(c)).map(|c| {
                            (
                                c.path.clone(),
                                n.clone(),
                                format!("required campaign `{n}`"),
                            )
                        })
                    }
                    PreItem::BookType(t) | PreItem::IncludesBookType(t) => l
                        .index()
                        .for_book_type(t, &beside, &modes, &excluded)
                        .map(|c| {
                            (
                                c.path.clone(),
                                c.name.clone(),
                                format!("`{}`, the required `{t}` book,", c.name),
                            )
                        }),
                    PreItem::Except(_) => continue,
                };
                let Some((path, name, what)) = found else {
                    missing.push(match item {
                        PreItem::BookType(t) | PreItem::IncludesBookType(t) => {
                            missing_book(l.index(), t, &modes, &beside)
                        }
                        other => Missing {
                            what: format!("`{}`", other.name().unwrap_or_default()),
                            why: None,
                        },
                    });
                    continue;
                };
                if let Some(j) = l.campaign(&path, None, &mut Vec::new()) {
                    if !selected.contains(&j) {
                        selected.push(j);
                        queue.push(j);
                    }
                    l.diagnostics.push(
                        Diagnostic::note(
                            codes::CAMPAIGN_ADDED,
                            pre.span,
                            format!("{what} was added to the load"),
                        )
                        .with_added(name, l.root.display(&path)),
                    );
                }
            }
            let candidates = l.candidates(selected);
            if pre.passes(&candidates) {
                continue;
            }
            drop(candidates);
            if names_only {
                continue;
            }
            missing.retain(|m| reported.insert(m.what.to_lowercase()));
            if let Some(d) = missing_campaigns(&pre.span, &missing) {
                l.diagnostics.push(d);
            }
        }
    }
}

/// The first `|`-separated piece of the text at `span`, without the blanks around it (the
/// first game mode of a `GAMEMODE:` value); `span` when its text is not in `sources`.
fn first_piece(sources: &SourceMap, span: Span) -> Span {
    let Some(text) = sources
        .get(span.file)
        .and_then(|f| f.text.get(span.range()))
    else {
        return span;
    };
    let piece = text.split('|').next().unwrap_or(text);
    let lead = piece.len() - piece.trim_start().len();
    let start = span.start as usize + lead;
    Span::new(span.file, start..start + piece.trim().len())
}

/// A requirement of a PRECAMPAIGN that no campaign under the data folder provides: a
/// campaign (`what` is its name, quoted) or a book type (`why` says why no campaign of the
/// game mode can be added).
struct Missing {
    what: String,
    why: Option<String>,
}

/// A required book type no campaign provides: no campaign selectable beside the
/// requiring one (GAMEMODE `modes`, or any of `beside`: [`selectable_beside`]) has that
/// BOOKTYPE at all (Pathfinder_PFS has no `Core Rules` book: its game mode allows only
/// `Pathfinder_PFS`, and the PFS Core Rulebook names no GAMEMODE), or those that exist are
/// forbidden by a `!PRECAMPAIGN` of the load.
fn missing_book(
    index: &CampaignIndex,
    book_type: &str,
    modes: &[String],
    beside: &[String],
) -> Missing {
    let in_mode = index.campaigns().iter().any(|c| {
        c.selectable()
            && c.has_book_type(book_type)
            && c.game_modes
                .iter()
                .any(|m| beside.iter().any(|n| n.eq_ignore_ascii_case(m)))
    });
    let names: Vec<String> = modes.iter().map(|m| format!("`{m}`")).collect();
    let mut mode = match names.as_slice() {
        [one] => format!("game mode {one}"),
        many => format!("game modes {}", many.join(", ")),
    };
    let more: Vec<String> = beside
        .iter()
        .filter(|b| !modes.iter().any(|m| m.eq_ignore_ascii_case(b)))
        .map(|b| format!("`{b}`"))
        .collect();
    if !more.is_empty() {
        mode.push_str(&format!(
            " or of those its game mode allows ({})",
            more.join(", ")
        ));
    }
    let why = if in_mode {
        format!(
            "every campaign of {mode} with BOOKTYPE `{book_type}` is excluded by a `!PRECAMPAIGN` of the load"
        )
    } else {
        format!("no campaign of {mode} has BOOKTYPE `{book_type}`")
    };
    Missing {
        what: format!("`{book_type}`"),
        why: Some(why),
    }
}

/// One [`codes::MISSING_CAMPAIGN`] for the requirements of one PRECAMPAIGN token that no
/// campaign under the data folder provides (`None` when all were already reported).
fn missing_campaigns(span: &Span, missing: &[Missing]) -> Option<Diagnostic> {
    const SHOWN: usize = 5;
    let (first, rest) = missing.split_first()?;
    let message = if rest.is_empty() {
        match &first.why {
            Some(why) => format!(
                "required {} book is not in the data folder: {why}",
                first.what
            ),
            None => format!("required campaign {} is not in the data folder", first.what),
        }
    } else {
        let shown: Vec<String> = missing
            .iter()
            .take(SHOWN)
            .map(|m| match &m.why {
                Some(why) => format!("a {} book ({why})", m.what),
                None => m.what.clone(),
            })
            .collect();
        let more = missing.len().saturating_sub(SHOWN);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        format!(
            "{} required campaigns are not in the data folder: {}{tail}",
            missing.len(),
            shown.join(", ")
        )
    };
    let help = if missing.iter().any(|m| m.why.is_some()) {
        "install a campaign of that book type for this game mode, or remove the requirement"
    } else {
        "install the campaign, or select it together with this one"
    };
    Some(
        Diagnostic::error(codes::MISSING_CAMPAIGN, *span, message)
            .with_label("needs this campaign")
            .with_help(help),
    )
}

/// A [`codes::NEVER_SATISFIED`] warning when no campaign under the data folder (nor any
/// loaded one) can satisfy a file entry's failing condition, so the file is never loaded.
fn never_satisfied(
    index: &CampaignIndex,
    loaded: &[Candidate<'_>],
    pre: &crate::load::campaign::PreCampaign,
    root: &PcgenRoot,
    path: &Path,
) -> Option<Diagnostic> {
    if pre.negated {
        return None;
    }
    let can: usize = pre
        .items
        .iter()
        .filter(|item| match item {
            PreItem::Name(n) | PreItem::Includes(n) => {
                index.find(n).is_some()
                    || loaded
                        .iter()
                        .any(|c| c.key.eq_ignore_ascii_case(n) || c.name.eq_ignore_ascii_case(n))
            }
            PreItem::BookType(t) | PreItem::IncludesBookType(t) => {
                index.has_book_type(t)
                    || loaded
                        .iter()
                        .any(|c| c.book_types.iter().any(|x| x.eq_ignore_ascii_case(t)))
            }
            PreItem::Except(_) => false,
        })
        .count();
    if can >= pre.count as usize {
        return None;
    }
    let unknown: Vec<String> = pre
        .items
        .iter()
        .filter_map(|item| match item {
            PreItem::Name(n) | PreItem::Includes(n) if index.find(n).is_none() => {
                Some(format!("no campaign is named `{n}`"))
            }
            PreItem::BookType(t) | PreItem::IncludesBookType(t) if !index.has_book_type(t) => {
                Some(format!("no campaign has BOOKTYPE `{t}`"))
            }
            _ => None,
        })
        .collect();
    Some(
        Diagnostic::warning(
            codes::NEVER_SATISFIED,
            pre.span,
            format!(
                "no campaign under the data folder satisfies this condition: `{}` is never loaded",
                root.display(path)
            ),
        )
        .with_label("can never hold")
        .with_help("correct the campaign name or book type, or remove the condition")
        .with_note(unknown.join("; ")),
    )
}

/// The longest chain of `PCC:` includes that is followed (real data nests two or three).
pub const MAX_INCLUDE_DEPTH: usize = 100;

/// Loads the campaigns `pccs` (selected together) from `root`. Required campaigns are looked
/// up in an index of `root.data` built on first need; to check many load sets, build one
/// [`CampaignIndex`] and use [`load_with`].
pub fn load(fs: &dyn FileSystem, root: &PcgenRoot, pccs: &[PathBuf]) -> LoadSet {
    let cache = FileCache::new();
    load_from(fs, root, pccs, IndexRef::Lazy(OnceCell::new()), &cache)
}

/// [`load`] with a campaign index built once for the run (`CampaignIndex::build(fs, root)`)
/// and shared by every load set.
pub fn load_with(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    index: &CampaignIndex,
) -> LoadSet {
    load_from(fs, root, pccs, IndexRef::Shared(index), &FileCache::new())
}

/// [`load_with`], reading files through `cache` (each file read, decoded and split once per
/// run, shared by the load sets of the run).
pub fn load_cached(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    index: &CampaignIndex,
    cache: &FileCache,
) -> LoadSet {
    load_from(fs, root, pccs, IndexRef::Shared(index), cache)
}

/// What a file of a kind is called in a report (`ABILITY file`): written out only when one
/// is reported, not for every file of every load set.
struct KindFile(FileKind);

impl std::fmt::Display for KindFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} file", self.0.token())
    }
}

fn load_from(
    fs: &dyn FileSystem,
    root: &PcgenRoot,
    pccs: &[PathBuf],
    index: IndexRef<'_>,
    cache: &FileCache,
) -> LoadSet {
    let mut l = Loader {
        fs,
        index,
        root: root.clone(),
        sources: SourceMap::new(),
        diagnostics: Vec::new(),
        by_path: FxHashMap::default(),
        campaigns: Vec::new(),
        read: FxHashMap::default(),
        cache,
    };
    let mut selected: Vec<usize> = Vec::new();
    for p in pccs {
        if let Some(i) = l.campaign(p, None, &mut Vec::new()) {
            if !selected.contains(&i) {
                selected.push(i);
            }
        }
    }

    require_campaigns(&mut l, &mut selected);

    // The campaigns loaded, for prerequisites.
    let mut loaded_idx = Vec::new();
    let mut seen = HashSet::new();
    for &i in &selected {
        l.reachable(i, &mut seen, &mut loaded_idx);
    }
    let mut conflicts = Vec::new();
    {
        let candidates = l.candidates(&selected);
        for &i in &selected {
            if let Some(c) = l.campaigns.get(i) {
                for pre in c.pre.iter().filter(|p| p.negated) {
                    if !pre.passes(&candidates) {
                        conflicts.push(
                            Diagnostic::warning(
                                codes::CAMPAIGN_CONFLICT,
                                pre.span,
                                format!("`{}` does not allow the other selected campaigns", c.name),
                            )
                            .with_help(
                                "PCGen refuses this selection; load the campaigns separately",
                            ),
                        );
                    }
                }
            }
        }
    }
    l.diagnostics.extend(conflicts);

    // Game mode.
    let modes = cache.game_modes(fs, &root.game_modes());
    let mut game_mode: Option<GameMode> = None;
    for &i in &selected {
        let Some(c) = l.campaigns.get(i) else {
            continue;
        };
        let Some(span) = c.game_mode_span else {
            continue;
        };
        match &game_mode {
            None => {
                game_mode = modes
                    .iter()
                    .find(|m| c.game_modes.iter().any(|g| m.accepts(g)))
                    .cloned();
                if game_mode.is_none() {
                    let known: Vec<&str> = modes
                        .iter()
                        .flat_map(|m| m.allowed.iter().map(String::as_str))
                        .collect();
                    let mut d = Diagnostic::error(
                        codes::UNKNOWN_GAME_MODE,
                        span,
                        format!("no game mode allows `{}`", c.game_modes.join("|")),
                    )
                    .with_label("matched against each game mode's ALLOWEDMODES");
                    d = d.with_did_you_mean_or(
                        first_piece(&l.sources, span),
                        crate::name::closest(
                            c.game_modes.first().map_or("", |s| s),
                            known.iter().copied(),
                        ),
                        format!("install the game mode, or use one of: {}", known.join(", ")),
                    );
                    l.diagnostics.push(d);
                }
            }
            Some(m) => {
                if !c.game_modes.iter().any(|g| m.accepts(g)) {
                    l.diagnostics.push(
                        Diagnostic::error(
                            codes::MIXED_GAME_MODES,
                            span,
                            format!("`{}` is not for game mode `{}`", c.name, m.dir),
                        )
                        .with_help("select campaigns of one game mode together"),
                    );
                }
            }
        }
    }

    if game_mode.is_none() {
        let any_mode = selected
            .iter()
            .filter_map(|i| l.campaigns.get(*i))
            .any(|c| c.game_mode_span.is_some());
        if let Some(c) = selected.first().and_then(|i| l.campaigns.get(*i)) {
            if !any_mode {
                l.diagnostics.push(
                    Diagnostic::warning(
                        codes::NO_GAME_MODE,
                        Span::new(c.file, 0..0),
                        "no selected campaign names a GAMEMODE",
                    )
                    .with_label("include-only PCC")
                    .with_help("select a PCC with a GAMEMODE: line; this one is meant to be included by another"),
                );
            }
        }
    }

    // RANK order (descending, stable), then flatten the file lists.
    let mut order = selected.clone();
    order.sort_by_key(|i| std::cmp::Reverse(l.campaigns.get(*i).map_or(9, |c| c.rank)));
    // Borrowed from the campaigns (by path bytes, see `path_key`) until the plan is made.
    let mut entries = Vec::new();
    let mut excludes: FxHashSet<&[u8]> = FxHashSet::default();
    let mut seen = HashSet::new();
    for &i in &order {
        let mut reach = Vec::new();
        l.reachable(i, &mut seen, &mut reach);
        for j in reach {
            if let Some(c) = l.campaigns.get(j) {
                entries.extend(c.entries.iter());
                excludes.extend(c.lst_excludes.iter().map(|p| path_key(p)));
            }
        }
    }
    // Sized once: a load set lists hundreds of files, and growing the set rehashed every
    // path in it a dozen times.
    let mut listed: FxHashSet<(&[u8], Option<&KeyFilter>, FileKind)> =
        FxHashSet::with_capacity_and_hasher(entries.len(), Default::default());
    let mut plan: Vec<(FileKind, PathBuf, Option<KeyFilter>, Option<Span>)> =
        Vec::with_capacity(entries.len());
    let candidates = l.candidates(&selected);
    let mut never = Vec::new();
    let mut judged = HashSet::new();
    for kind in FileKind::LOAD_ORDER {
        for e in entries.iter().filter(|e| e.kind == kind) {
            if excludes.contains(path_key(&e.path)) {
                continue;
            }
            if let Some(failed) = e.pre.iter().find(|p| !p.passes(&candidates)) {
                if judged.insert(failed.span) {
                    if let Some(d) = never_satisfied(l.index(), &candidates, failed, root, &e.path)
                    {
                        never.push(d);
                    }
                }
                continue;
            }
            if listed.insert((path_key(&e.path), e.filter.as_ref(), kind)) {
                plan.push((kind, e.path.clone(), e.filter.clone(), Some(e.span)));
            }
        }
        let fallback = match kind {
            FileKind::DataControl => Some("compatibilityDataControl.lst"),
            FileKind::GlobalModifier => Some("compatibilityGlobalModifier.lst"),
            _ => None,
        };
        if let Some(name) = fallback {
            if !plan.iter().any(|p| p.0 == kind) {
                let path = root.game_modes().join("default").join(name);
                if fs.is_file(&path) {
                    plan.push((kind, path, None, None));
                }
            }
        }
    }
    drop(candidates);
    l.diagnostics.extend(never);
    let mut files = Vec::with_capacity(plan.len());
    // Sized once: growing the map of files read rehashed every path in it.
    l.read.reserve(plan.len());
    for (kind, path, filter, at) in plan {
        let Some((id, cached)) = l.read_cached(&path, at, &KindFile(kind)) else {
            continue;
        };
        let lines = FileLines::new(cached.clone(), line_mode(kind), id);
        files.push(LoadedFile {
            kind,
            path,
            file: id,
            lines,
            filter,
            listed_at: at,
            cached,
        });
    }

    // Campaigns: selected in rank order first, then the rest.
    let mut ordered: Vec<usize> = order.clone();
    ordered.extend(loaded_idx.iter().filter(|i| !order.contains(i)));
    let selected_count = order.len();
    let mut all: Vec<Option<Campaign>> = l.campaigns.into_iter().map(Some).collect();
    let campaigns = ordered
        .into_iter()
        .filter_map(|i| all.get_mut(i).and_then(Option::take))
        .collect();
    LoadSet {
        root: l.root,
        sources: l.sources,
        campaigns,
        selected: selected_count,
        game_mode,
        files,
        diagnostics: l.diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    fn fs() -> MemoryFs {
        MemoryFs::new()
            .with("/pc/system/gameModes/GM/miscinfo.lst", "ALLOWEDMODES:Mode1|Mode2\n")
            .with(
                "/pc/system/gameModes/default/compatibilityGlobalModifier.lst",
                "MODIFY:Face|SET|5,0|PRIORITY=5\n",
            )
            .with(
                "/pc/data/a/main.pcc",
                "CAMPAIGN:Main\r\nGAMEMODE:Mode2\r\nPCC:@\\b\\sub.pcc\r\nVARIABLE:v.lst\r\n\
                 DATACONTROL:dc.lst\r\nABILITY:x.lst|PRECAMPAIGN:1,INCLUDES=Nothing\r\n\
                 ABILITY:y.lst|PRECAMPAIGN:1,INCLUDES=Sub\r\nABILITY:y.lst|PRECAMPAIGN:1,INCLUDES=Sub",
            )
            .with("/pc/data/b/sub.pcc", "CAMPAIGN:Sub\nVARIABLE:../b/w.lst\nPCC:../a/main.pcc\n")
            .with("/pc/data/a/v.lst", "GLOBAL:NUMBER=A\n")
            .with("/pc/data/a/dc.lst", "DEFAULTVARIABLEVALUE:NUMBER|0\n")
            .with("/pc/data/a/y.lst", b"Caf\xe9\tKEY:Y\n".to_vec())
            .with("/pc/data/b/w.lst", "GLOBAL:NUMBER=B")
    }

    #[test]
    fn builds_a_load_set_in_pcgen_order() {
        let fs = fs();
        let root = PcgenRoot::find(&fs, Path::new("/pc/data/a/main.pcc")).unwrap();
        let set = load(&fs, &root, &[PathBuf::from("/pc/data/a/main.pcc")]);
        let files: Vec<(FileKind, String)> = set
            .files
            .iter()
            .map(|f| (f.kind, root.display(&f.path)))
            .collect();
        assert_eq!(
            files,
            vec![
                (FileKind::DataControl, "data/a/dc.lst".to_owned()),
                (FileKind::Variable, "data/a/v.lst".to_owned()),
                (FileKind::Variable, "data/b/w.lst".to_owned()),
                (
                    FileKind::GlobalModifier,
                    "system/gameModes/default/compatibilityGlobalModifier.lst".to_owned()
                ),
                (FileKind::Ability, "data/a/y.lst".to_owned()),
            ]
        );
        assert_eq!(set.game_mode.as_ref().map(|g| g.dir.as_str()), Some("GM"));
        assert_eq!((set.campaigns.len(), set.selected), (2, 1));
        // The include cycle back to main.pcc is cut with a warning; x.lst's condition names
        // a campaign nobody has; y.lst is read as Windows-1252 with a warning. Nothing else.
        let codes: Vec<&str> = set.diagnostics.iter().map(|d| d.code.id).collect();
        assert_eq!(codes, vec!["L0107", "L0115", "L0101"]);
        let w = set
            .files
            .iter()
            .find(|f| f.path.ends_with("w.lst"))
            .unwrap();
        assert_eq!(
            w.lines.len(),
            1,
            "a missing final newline still ends the line"
        );
    }

    #[test]
    fn missing_files_and_game_modes_are_reported_at_the_pcc_token() {
        let fs = MemoryFs::new()
            .with(
                "/pc/system/gameModes/GM/miscinfo.lst",
                "ALLOWEDMODES:Mode1\n",
            )
            .with(
                "/pc/data/m.pcc",
                "CAMPAIGN:M\nGAMEMODE:Mode3\nSKILL:nope.lst\n",
            );
        let root = PcgenRoot::find(&fs, Path::new("/pc/data/m.pcc")).unwrap();
        let set = load(&fs, &root, &[PathBuf::from("/pc/data/m.pcc")]);
        let found: Vec<(&str, (usize, usize))> = set
            .diagnostics
            .iter()
            .map(|d| {
                let f = set.sources.get(d.span.file).unwrap();
                (d.code.id, f.line_col(d.span.range().start))
            })
            .collect();
        assert_eq!(found, vec![("L0104", (2, 10)), ("L0102", (3, 7))]);
    }

    /// A book whose GAMEMODE another game mode allows (Xcrawl under 3e's
    /// `ALLOWEDMODES:3e|DnD|Xcrawl`) is satisfied by that game mode's Core Rules book, as
    /// PCGen lists both under the same game mode; a game mode that allows only itself
    /// (Pathfinder_PFS) with no Core Rules book of its own still has none.
    #[test]
    fn a_book_type_is_found_in_the_game_modes_that_allow_the_campaign() {
        let fs = MemoryFs::new()
            .with(
                "/pc/system/gameModes/3e/miscinfo.lst",
                "ALLOWEDMODES:3e|DnD|Xcrawl\n",
            )
            .with(
                "/pc/system/gameModes/PFS/miscinfo.lst",
                "ALLOWEDMODES:PFS\n",
            )
            .with("/pc/system/gameModes/PF/miscinfo.lst", "ALLOWEDMODES:PF\n")
            .with(
                "/pc/data/srd/srd.pcc",
                "CAMPAIGN:SRD\nGAMEMODE:3e\nBOOKTYPE:Core Rules\n",
            )
            .with(
                "/pc/data/pf/core.pcc",
                "CAMPAIGN:Core\nGAMEMODE:PF\nBOOKTYPE:Core Rules\n",
            )
            .with(
                "/pc/data/x/xcrawl.pcc",
                "CAMPAIGN:XCrawl\nGAMEMODE:Xcrawl\nPRECAMPAIGN:1,BOOKTYPE=Core Rules\n",
            )
            .with(
                "/pc/data/pfs/guide.pcc",
                "CAMPAIGN:Guide\nGAMEMODE:PFS\nPRECAMPAIGN:1,BOOKTYPE=Core Rules\n",
            );
        let root = PcgenRoot::find(&fs, Path::new("/pc/data/x/xcrawl.pcc")).unwrap();
        let found = |set: &LoadSet| -> Vec<(&str, String)> {
            set.diagnostics
                .iter()
                .map(|d| (d.code.id, d.message.clone()))
                .collect()
        };
        let x = load(&fs, &root, &[PathBuf::from("/pc/data/x/xcrawl.pcc")]);
        assert_eq!(
            found(&x),
            vec![(
                "L0106",
                "`SRD`, the required `Core Rules` book, was added to the load".to_owned()
            )]
        );
        assert_eq!(x.game_mode.as_ref().map(|g| g.dir.as_str()), Some("3e"));
        let pfs = load(&fs, &root, &[PathBuf::from("/pc/data/pfs/guide.pcc")]);
        assert_eq!(
            found(&pfs),
            vec![(
                "L0105",
                "required `Core Rules` book is not in the data folder: no campaign of game \
                 mode `PFS` has BOOKTYPE `Core Rules`"
                    .to_owned()
            )]
        );
    }

    /// PCGen skips a file that is not UTF-8 whole (strict UTF-8, `LstFileLoader`): in a
    /// load, `L0101` is an error that says so, and the file is still read and checked.
    #[test]
    fn a_file_pcgen_skips_as_not_utf8_is_an_error_that_says_so() {
        let bom16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("W\tKEY:w\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let fs = MemoryFs::new()
            .with("/pc/system/gameModes/GM/miscinfo.lst", "ALLOWEDMODES:M\n")
            .with(
                "/pc/data/m.pcc",
                "CAMPAIGN:M\nGAMEMODE:M\nABILITY:a.lst\nSKILL:b.lst\n",
            )
            .with("/pc/data/a.lst", b"Caf\xe9\tKEY:Y\n".to_vec())
            .with("/pc/data/b.lst", bom16);
        let root = PcgenRoot::find(&fs, Path::new("/pc/data/m.pcc")).unwrap();
        let set = load(&fs, &root, &[PathBuf::from("/pc/data/m.pcc")]);
        // In PCGen's load order: SKILL files before ABILITY files.
        let found: Vec<(bool, &str, &[String])> = set
            .diagnostics
            .iter()
            .filter(|d| d.code.id == "L0101")
            .map(|d| (d.is_error(), d.message.as_str(), d.notes.as_slice()))
            .collect();
        assert_eq!(
            found,
            vec![
                (
                    true,
                    "file is UTF-16LE, not UTF-8: PCGen skips the whole file",
                    &["rulebook read it as UTF-16LE to check the rest".to_owned()][..]
                ),
                (
                    true,
                    "file is not UTF-8: byte 0xE9 at offset 3: PCGen skips the whole file",
                    &["rulebook read it as Windows-1252 to check the rest".to_owned()][..]
                ),
            ]
        );
        assert_eq!(set.files.len(), 2, "both files are still read");
    }
}
