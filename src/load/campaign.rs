//! PCC files: campaign metadata, file lists, sub-campaigns and prerequisites.

use crate::diagnostic::Diagnostic;
use crate::load::cache::{CACHE_FILE, CachedFile};
use crate::load::codes;
use crate::load::root::PcgenRoot;
use crate::load::syntax::{Slice, split_pipes};
use crate::load::text::{LineMode, lines};
use crate::source::{FileId, SourceFile, Span};
use std::path::{Path, PathBuf};

/// The kinds of file a PCC lists, in PCGen's fixed load order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum FileKind {
    DataControl,
    DataTable,
    Variable,
    Dynamic,
    GlobalModifier,
    AbilityCategory,
    Size,
    Stat,
    Save,
    Alignment,
    WeaponProf,
    ArmorProf,
    ShieldProf,
    Skill,
    Language,
    Feat,
    Ability,
    Race,
    Domain,
    Spell,
    Deity,
    Class,
    Template,
    EquipMod,
    Equipment,
    CompanionMod,
    Kit,
    Bioset,
}

impl FileKind {
    /// Every kind in load order.
    pub const LOAD_ORDER: [FileKind; 28] = [
        FileKind::DataControl,
        FileKind::DataTable,
        FileKind::Variable,
        FileKind::Dynamic,
        FileKind::GlobalModifier,
        FileKind::AbilityCategory,
        FileKind::Size,
        FileKind::Stat,
        FileKind::Save,
        FileKind::Alignment,
        FileKind::WeaponProf,
        FileKind::ArmorProf,
        FileKind::ShieldProf,
        FileKind::Skill,
        FileKind::Language,
        FileKind::Feat,
        FileKind::Ability,
        FileKind::Race,
        FileKind::Domain,
        FileKind::Spell,
        FileKind::Deity,
        FileKind::Class,
        FileKind::Template,
        FileKind::EquipMod,
        FileKind::Equipment,
        FileKind::CompanionMod,
        FileKind::Kit,
        FileKind::Bioset,
    ];

    /// The PCC token that lists files of this kind.
    pub fn token(self) -> &'static str {
        match self {
            FileKind::DataControl => "DATACONTROL",
            FileKind::DataTable => "DATATABLE",
            FileKind::Variable => "VARIABLE",
            FileKind::Dynamic => "DYNAMIC",
            FileKind::GlobalModifier => "GLOBALMODIFIER",
            FileKind::AbilityCategory => "ABILITYCATEGORY",
            FileKind::Size => "SIZE",
            FileKind::Stat => "STAT",
            FileKind::Save => "SAVE",
            FileKind::Alignment => "ALIGNMENT",
            FileKind::WeaponProf => "WEAPONPROF",
            FileKind::ArmorProf => "ARMORPROF",
            FileKind::ShieldProf => "SHIELDPROF",
            FileKind::Skill => "SKILL",
            FileKind::Language => "LANGUAGE",
            FileKind::Feat => "FEAT",
            FileKind::Ability => "ABILITY",
            FileKind::Race => "RACE",
            FileKind::Domain => "DOMAIN",
            FileKind::Spell => "SPELL",
            FileKind::Deity => "DEITY",
            FileKind::Class => "CLASS",
            FileKind::Template => "TEMPLATE",
            FileKind::EquipMod => "EQUIPMOD",
            FileKind::Equipment => "EQUIPMENT",
            FileKind::CompanionMod => "COMPANIONMOD",
            FileKind::Kit => "KIT",
            FileKind::Bioset => "BIOSET",
        }
    }

    /// The kind a PCC token names (exact upper case, as PCGen's token map).
    pub fn from_token(token: &str) -> Option<FileKind> {
        FileKind::LOAD_ORDER
            .into_iter()
            .find(|k| k.token() == token)
    }

    /// True for the formula-system file kinds, which take no suffixes.
    pub fn is_formula_file(self) -> bool {
        matches!(
            self,
            FileKind::DataControl
                | FileKind::DataTable
                | FileKind::Variable
                | FileKind::Dynamic
                | FileKind::GlobalModifier
        )
    }
}

/// One alternative of a PRECAMPAIGN prerequisite (PCGen's `PreCampaignTester`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PreItem {
    /// A bare name: a loaded campaign with this key or name.
    Name(String),
    /// `BOOKTYPE=Type`: a loaded campaign of this book type.
    BookType(String),
    /// `INCLUDES=Name`: a loaded campaign, or one a loaded campaign includes by `PCC:`, with
    /// this key or name.
    Includes(String),
    /// `INCLUDESBOOKTYPE=Type`: a loaded campaign, or one it includes, of this book type.
    IncludesBookType(String),
    /// `[Name]`: this campaign never counts towards the other items.
    Except(String),
}

impl PreItem {
    /// The campaign name this item asks for, if it names one.
    pub fn name(&self) -> Option<&str> {
        match self {
            PreItem::Name(n) | PreItem::Includes(n) => Some(n),
            _ => None,
        }
    }

    /// The book type this item asks for, if it names one.
    pub fn book_type(&self) -> Option<&str> {
        match self {
            PreItem::BookType(t) | PreItem::IncludesBookType(t) => Some(t),
            _ => None,
        }
    }

    /// True for the `INCLUDES…` forms, which also look at included sub-campaigns.
    pub fn looks_inside(&self) -> bool {
        matches!(self, PreItem::Includes(_) | PreItem::IncludesBookType(_))
    }
}

/// `PRECAMPAIGN:n,item,…` or `!PRECAMPAIGN:…`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreCampaign {
    /// `!PRECAMPAIGN`.
    pub negated: bool,
    /// How many items must match.
    pub count: u32,
    /// The items.
    pub items: Vec<PreItem>,
    /// The token.
    pub span: Span,
}

/// A campaign as a prerequisite sees it.
#[derive(Clone, Copy, Debug)]
pub struct Candidate<'a> {
    /// `KEY:`.
    pub key: &'a str,
    /// `CAMPAIGN:`.
    pub name: &'a str,
    /// `BOOKTYPE:` values.
    pub book_types: &'a [String],
    /// True for a campaign that is loaded itself (selected or added), false for one only
    /// included by another through `PCC:`.
    pub top_level: bool,
}

impl Candidate<'_> {
    fn is(&self, name: &str) -> bool {
        self.key.eq_ignore_ascii_case(name) || self.name.eq_ignore_ascii_case(name)
    }
}

impl PreCampaign {
    /// Parses a `PRECAMPAIGN:`/`!PRECAMPAIGN:` token's text; `None` when it is not one or its
    /// count is not a number.
    pub fn parse(text: &str, span: Span) -> Option<PreCampaign> {
        let text = text.trim();
        let (negated, rest) = match text.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, text),
        };
        let value = rest.strip_prefix("PRECAMPAIGN:")?;
        let mut parts = value.split(',');
        let count = parts.next()?.trim().parse().ok()?;
        let items = parts
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                if let Some(n) = p.strip_prefix("INCLUDESBOOKTYPE=") {
                    PreItem::IncludesBookType(n.trim().to_owned())
                } else if let Some(n) = p.strip_prefix("INCLUDES=") {
                    PreItem::Includes(n.trim().to_owned())
                } else if let Some(n) = p.strip_prefix("BOOKTYPE=") {
                    PreItem::BookType(n.trim().to_owned())
                } else if let Some(n) = p.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
                    PreItem::Except(n.trim().to_owned())
                } else {
                    PreItem::Name(p.to_owned())
                }
            })
            .collect();
        Some(PreCampaign {
            negated,
            count,
            items,
            span,
        })
    }

    /// True when `c` is named by a `[…]` exception.
    fn excepted(&self, c: &Candidate<'_>) -> bool {
        self.items
            .iter()
            .any(|i| matches!(i, PreItem::Except(n) if c.is(n)))
    }

    /// True when `item` holds for the loaded campaigns `loaded`.
    pub fn item_holds(&self, item: &PreItem, loaded: &[Candidate<'_>]) -> bool {
        let seen = |c: &&Candidate<'_>| (c.top_level || item.looks_inside()) && !self.excepted(c);
        match item {
            PreItem::Name(n) | PreItem::Includes(n) => loaded.iter().filter(seen).any(|c| c.is(n)),
            PreItem::BookType(t) | PreItem::IncludesBookType(t) => loaded
                .iter()
                .filter(seen)
                .any(|c| c.book_types.iter().any(|x| x.eq_ignore_ascii_case(t))),
            PreItem::Except(_) => false,
        }
    }

    /// Whether the prerequisite holds for the loaded campaigns `loaded`.
    pub fn passes(&self, loaded: &[Candidate<'_>]) -> bool {
        let matched = self
            .items
            .iter()
            .filter(|i| self.item_holds(i, loaded))
            .count();
        (matched >= self.count as usize) != self.negated
    }
}

/// `(INCLUDE:a|b)` / `(EXCLUDE:a|b)` on a file entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KeyFilter {
    /// Keep only objects with these keys.
    Include(Vec<String>),
    /// Drop objects with these keys.
    Exclude(Vec<String>),
}

/// A file listed by a PCC.
#[derive(Clone, Debug)]
pub struct FileEntry {
    /// What kind of file.
    pub kind: FileKind,
    /// The resolved path.
    pub path: PathBuf,
    /// The path as written in the PCC.
    pub span: Span,
    /// `(INCLUDE:…)`/`(EXCLUDE:…)`.
    pub filter: Option<KeyFilter>,
    /// PRECAMPAIGN conditions on the file.
    pub pre: Vec<PreCampaign>,
}

/// One parsed PCC file.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// Resolved path.
    pub path: PathBuf,
    /// Its source.
    pub file: FileId,
    /// `CAMPAIGN:` name.
    pub name: String,
    /// `KEY:` (defaults to the name).
    pub key: String,
    /// `GAMEMODE:` values with the token's span.
    pub game_modes: Vec<String>,
    /// The span of the GAMEMODE token, if any.
    pub game_mode_span: Option<Span>,
    /// `BOOKTYPE:` values.
    pub book_types: Vec<String>,
    /// `RANK:` (9 when absent).
    pub rank: i64,
    /// Prerequisites on the campaign itself.
    pub pre: Vec<PreCampaign>,
    /// Listed files, in PCC order.
    pub entries: Vec<FileEntry>,
    /// `PCC:` sub-campaigns: resolved path and token span.
    pub includes: Vec<(PathBuf, Span)>,
    /// `LSTEXCLUDE:` files.
    pub lst_excludes: Vec<PathBuf>,
    /// `FORWARDREF:TYPE|key,key`: names of the type that may stay unmade without PCGen
    /// reporting them (its `LoadValidator`), as (type, key), the type as written (`FEAT`
    /// is `ABILITY=FEAT`).
    pub forward_refs: Vec<(String, String)>,
}

/// Resolves a PCC path value the way PCGen's `URIFactory` does.
pub fn resolve_path(raw: &str, pcc_dir: &Path, root: &PcgenRoot) -> Result<PathBuf, String> {
    let raw = raw.trim();
    let Some(first) = raw.chars().next() else {
        return Err("empty path".to_owned());
    };
    let slashed = raw.replace('\\', "/");
    let under_data = |rest: &str| {
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        crate::load::fs::normalize(&root.data.join(rest))
    };
    match first {
        '@' | '*' | '&' | '$' => Ok(under_data(slashed.get(1..).unwrap_or(""))),
        _ if raw.find(':').is_some_and(|i| i > 0) => Err(format!(
            "`{raw}` is an absolute URI; only data-relative paths are loaded"
        )),
        _ => {
            let rel = slashed.strip_prefix('/').unwrap_or(&slashed);
            if let Some(rest) = rel.strip_prefix("data/") {
                return Ok(under_data(rest));
            }
            Ok(crate::load::fs::normalize(&pcc_dir.join(&slashed)))
        }
    }
}

/// Parses a PCC file already in `source`.
pub fn parse_pcc(
    path: &Path,
    file: FileId,
    source: &SourceFile,
    root: &PcgenRoot,
    diagnostics: &mut Vec<Diagnostic>,
) -> Campaign {
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut c = Campaign {
        path: path.to_path_buf(),
        file,
        name: String::new(),
        key: String::new(),
        game_modes: Vec::new(),
        game_mode_span: None,
        book_types: Vec::new(),
        rank: 9,
        pre: Vec::new(),
        entries: Vec::new(),
        includes: Vec::new(),
        lst_excludes: Vec::new(),
        forward_refs: Vec::new(),
    };
    for line in lines(file, &source.text, LineMode::Whole) {
        let Some(tok) = line.tokens.first() else {
            continue;
        };
        let text = source.slice(*tok);
        let Some((key, value)) = text.split_once(':') else {
            continue;
        };
        let vstart = tok.start as usize + key.len() + 1;
        let vslice = Slice::new(value, Span::new(file, vstart..vstart + value.len()));
        match key {
            "CAMPAIGN" => c.name = value.trim().to_owned(),
            "KEY" => c.key = value.trim().to_owned(),
            "GAMEMODE" => {
                c.game_modes = value.split('|').map(|s| s.trim().to_owned()).collect();
                c.game_mode_span = Some(vslice.span);
            }
            "BOOKTYPE" => c
                .book_types
                .extend(value.split('|').map(|s| s.trim().to_owned())),
            "RANK" => c.rank = value.trim().parse().unwrap_or(9),
            "PRECAMPAIGN" | "!PRECAMPAIGN" => {
                if let Some(p) = PreCampaign::parse(text, *tok) {
                    c.pre.push(p);
                }
            }
            "PCC" => {
                // PCGen reads the text before the first `|` as the path; what follows is a
                // prerequisite, and the sub-campaign is included regardless.
                let path = value.split('|').next().unwrap_or(value);
                let lead = path.len() - path.trim_start().len();
                let at = vslice.span.start as usize + lead;
                let span = Span::new(file, at..at + path.trim().len());
                match resolve_path(path, dir, root) {
                    Ok(p) => c.includes.push((p, span)),
                    Err(e) => diagnostics.push(bad_path(span, e)),
                }
            }
            "LSTEXCLUDE" => {
                for part in value.split('|') {
                    if let Ok(p) = resolve_path(part, dir, root) {
                        c.lst_excludes.push(p);
                    }
                }
            }
            "FORWARDREF" => {
                if let Some((kind, keys)) = value.split_once('|') {
                    let kind = match kind.trim() {
                        "FEAT" => "ABILITY=FEAT",
                        k => k,
                    };
                    c.forward_refs.extend(
                        keys.split(',')
                            .map(|k| (kind.to_owned(), k.trim().to_owned())),
                    );
                }
            }
            _ => {
                if let Some(kind) = FileKind::from_token(key) {
                    if let Some(e) = parse_entry(kind, vslice, dir, root, diagnostics) {
                        c.entries.push(e);
                    }
                }
            }
        }
    }
    if c.key.is_empty() {
        c.key = c.name.clone();
    }
    c
}

/// A PCC as parsed from its file alone (spans in the cache's placeholder file), kept in the
/// run's file cache: a core rulebook's PCC is loaded by hundreds of load sets, and parsing
/// it (resolving every listed path) cost each of them.
#[derive(Debug)]
struct ParsedPcc {
    /// The data folder its paths were resolved against.
    data: PathBuf,
    campaign: Campaign,
    diagnostics: Vec<Diagnostic>,
}

/// [`parse_pcc`] of the cached file at `path`, parsed once per run and placed in the load
/// set's file `file`.
pub(crate) fn parse_pcc_cached(
    path: &Path,
    file: FileId,
    cached: &CachedFile,
    root: &PcgenRoot,
    diagnostics: &mut Vec<Diagnostic>,
) -> Campaign {
    let parsed = cached.derived("load::campaign", 0, |f| {
        let mut diagnostics = Vec::new();
        let campaign = parse_pcc(path, CACHE_FILE, f.source(), root, &mut diagnostics);
        ParsedPcc {
            data: root.data.clone(),
            campaign,
            diagnostics,
        }
    });
    if parsed.data != root.data || parsed.campaign.path != path {
        return parse_pcc(path, file, cached.source(), root, diagnostics);
    }
    let place = |span: &mut Span| span.file = file;
    diagnostics.extend(parsed.diagnostics.iter().map(|d| {
        let mut d = d.clone();
        d.move_to(file);
        d
    }));
    let mut c = parsed.campaign.clone();
    c.file = file;
    if let Some(span) = &mut c.game_mode_span {
        place(span);
    }
    for p in &mut c.pre {
        place(&mut p.span);
    }
    for e in &mut c.entries {
        place(&mut e.span);
        for p in &mut e.pre {
            place(&mut p.span);
        }
    }
    for (_, span) in &mut c.includes {
        place(span);
    }
    c
}

fn bad_path(span: Span, message: String) -> Diagnostic {
    Diagnostic::error(codes::BAD_PATH, span, message)
        .with_help("use a path relative to the PCC, or `@/` for the data folder")
}

fn parse_entry(
    kind: FileKind,
    value: Slice<'_>,
    dir: &Path,
    root: &PcgenRoot,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<FileEntry> {
    let pieces = match split_pipes(value) {
        Ok(p) => p,
        Err(d) => {
            diagnostics.push(d);
            return None;
        }
    };
    let (first, rest) = pieces.split_first()?;
    let first = first.trim();
    let path = match resolve_path(first.text, dir, root) {
        Ok(p) => p,
        Err(e) => {
            diagnostics.push(bad_path(first.span, e));
            return None;
        }
    };
    let mut entry = FileEntry {
        kind,
        path,
        span: first.span,
        filter: None,
        pre: Vec::new(),
    };
    for s in rest {
        let s = s.trim();
        if kind.is_formula_file() {
            diagnostics.push(
                Diagnostic::error(
                    codes::SUFFIX_NOT_ALLOWED,
                    s.span,
                    format!(
                        "{} does not support include, exclude or prerequisites",
                        kind.token()
                    ),
                )
                .with_label("not allowed on a formula file")
                .with_help("list the whole file, without anything after `|`"),
            );
            continue;
        }
        let inner = s.text.strip_prefix('(').and_then(|t| t.strip_suffix(')'));
        if let Some(inner) = inner {
            let keys = |v: &str| v.split('|').map(|k| k.trim().to_owned()).collect();
            if let Some(v) = inner.strip_prefix("INCLUDE:") {
                entry.filter = Some(KeyFilter::Include(keys(v)));
            } else if let Some(v) = inner.strip_prefix("EXCLUDE:") {
                entry.filter = Some(KeyFilter::Exclude(keys(v)));
            }
        } else if let Some(p) = PreCampaign::parse(s.text, s.span) {
            entry.pre.push(p);
        }
    }
    Some(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> PcgenRoot {
        PcgenRoot::new(PathBuf::from("/pc"), PathBuf::from("/pc/data"))
    }

    #[test]
    fn resolves_pcgen_path_forms() {
        let dir = Path::new("/pc/data/a/b");
        let r = root();
        let ok = |s: &str| resolve_path(s, dir, &r).unwrap();
        assert_eq!(ok("x.lst"), PathBuf::from("/pc/data/a/b/x.lst"));
        assert_eq!(ok("../y.lst"), PathBuf::from("/pc/data/a/y.lst"));
        assert_eq!(ok("@/p/q.pcc"), PathBuf::from("/pc/data/p/q.pcc"));
        assert_eq!(ok(r"@\p\q.pcc"), PathBuf::from("/pc/data/p/q.pcc"));
        assert_eq!(ok("*/_u/d.lst"), PathBuf::from("/pc/data/_u/d.lst"));
        assert_eq!(ok(r"sub\z.lst"), PathBuf::from("/pc/data/a/b/sub/z.lst"));
        assert!(resolve_path("http://x/y.lst", dir, &r).is_err());
    }

    #[test]
    fn precampaign_counts_with_exceptions() {
        let p = PreCampaign::parse(
            "!PRECAMPAIGN:1,BOOKTYPE=Core Rules,[Core Rulebook]",
            Span::default(),
        )
        .unwrap();
        let core = vec!["Core Rules".to_string()];
        let c = |name: &'static str, top_level| Candidate {
            key: name,
            name,
            book_types: &core,
            top_level,
        };
        assert!(p.passes(&[c("Core Rulebook", true)]));
        assert!(!p.passes(&[c("Core Rulebook", true), c("Other", true)]));
        let q = PreCampaign::parse("PRECAMPAIGN:1,INCLUDES=APG", Span::default()).unwrap();
        assert!(!q.passes(&[c("Core Rulebook", true)]));
    }

    #[test]
    fn precampaign_reads_every_form() {
        let p = PreCampaign::parse(
            "PRECAMPAIGN:2,INCLUDESBOOKTYPE=Core Rules,INCLUDES=A,BOOKTYPE=B,Bare Name,[X]",
            Span::default(),
        )
        .unwrap();
        assert_eq!(
            p.items,
            vec![
                PreItem::IncludesBookType("Core Rules".into()),
                PreItem::Includes("A".into()),
                PreItem::BookType("B".into()),
                PreItem::Name("Bare Name".into()),
                PreItem::Except("X".into()),
            ]
        );
    }

    #[test]
    fn bare_names_and_booktype_see_loaded_campaigns_includes_see_sub_campaigns() {
        let core = vec!["Core Rules".to_string()];
        let sub = Candidate {
            key: "Sub",
            name: "Sub",
            book_types: &core,
            top_level: false,
        };
        let holds = |t: &str| {
            PreCampaign::parse(t, Span::default())
                .unwrap()
                .passes(&[sub])
        };
        assert!(!holds("PRECAMPAIGN:1,Sub"));
        assert!(!holds("PRECAMPAIGN:1,BOOKTYPE=Core Rules"));
        assert!(holds("PRECAMPAIGN:1,INCLUDES=Sub"));
        assert!(holds("PRECAMPAIGN:1,INCLUDESBOOKTYPE=Core Rules"));
        assert!(!holds("!PRECAMPAIGN:1,INCLUDES=sub"));
    }
}
