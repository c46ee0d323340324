//! The campaigns under the data folder, indexed once per run: every PCC's name, KEY,
//! BOOKTYPE and game modes. Load sets look required campaigns up here (PRECAMPAIGN
//! `INCLUDES=`, bare names, book types) instead of walking `data/` again for each one.
//!
//! An index is immutable once built (`Send + Sync`): one `Arc<CampaignIndex>` serves every
//! load set of a run, in parallel.

use crate::load::definitions::LazyDefinitions;
use crate::load::fs::{FileSystem, WalkProblem};
use crate::load::root::PcgenRoot;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One PCC's metadata, as the index holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedCampaign {
    /// Path of the PCC.
    pub path: PathBuf,
    /// `CAMPAIGN:` (empty when absent).
    pub name: String,
    /// `KEY:` (the name when absent).
    pub key: String,
    /// `BOOKTYPE:` values.
    pub book_types: Vec<String>,
    /// `GAMEMODE:` values (empty for include-only PCCs).
    pub game_modes: Vec<String>,
    /// `RANK:` (9 when absent).
    pub rank: i64,
}

impl IndexedCampaign {
    /// True when the campaign has this key or name (case-insensitive, as PCGen).
    pub fn is(&self, name: &str) -> bool {
        self.key.eq_ignore_ascii_case(name) || self.name.eq_ignore_ascii_case(name)
    }

    /// True when the campaign has this book type.
    pub fn has_book_type(&self, book_type: &str) -> bool {
        self.book_types
            .iter()
            .any(|t| t.eq_ignore_ascii_case(book_type))
    }

    /// True when a user can select the campaign (it names a game mode).
    pub fn selectable(&self) -> bool {
        !self.game_modes.is_empty()
    }

    fn shares_mode(&self, modes: &[String]) -> bool {
        self.game_modes
            .iter()
            .any(|m| modes.iter().any(|n| n.eq_ignore_ascii_case(m)))
    }
}

/// Every PCC under one data folder.
#[derive(Clone, Debug, Default)]
pub struct CampaignIndex {
    campaigns: Vec<IndexedCampaign>,
    /// Lower-cased key and name → positions in `campaigns` (path order).
    by_name: HashMap<String, Vec<usize>>,
    /// Lower-cased book type → positions in `campaigns` (path order).
    by_book_type: HashMap<String, Vec<usize>>,
    problems: Vec<WalkProblem>,
    /// What each campaign defines, scanned on first need (`load::definitions`); boxed to
    /// keep the index small where it is held by value.
    definitions: Box<LazyDefinitions>,
}

impl CampaignIndex {
    /// Walks `root.data` once and reads every `.pcc` below it once.
    pub fn build(fs: &dyn FileSystem, root: &PcgenRoot) -> Self {
        let walk = fs.walk(&root.data);
        let campaigns = walk
            .files
            .iter()
            .filter(|p| is_pcc(p))
            .filter_map(|p| Some(read_metadata(p, &fs.read(p).ok()?)))
            .collect();
        Self::from_campaigns(campaigns, walk.problems)
    }

    /// [`CampaignIndex::build`] with the PCCs read on rayon's threads (the same index, in
    /// the same order): for a run that checks many load sets, where this read would
    /// otherwise be a single-threaded start (680 PCCs in PCGen's shipped data).
    pub fn build_parallel(fs: &(dyn FileSystem + Sync), root: &PcgenRoot) -> Self {
        use rayon::prelude::*;
        let walk = fs.walk(&root.data);
        let campaigns = walk
            .files
            .par_iter()
            .filter(|p| is_pcc(p))
            .filter_map(|p| Some(read_metadata(p, &fs.read(p).ok()?)))
            .collect();
        Self::from_campaigns(campaigns, walk.problems)
    }

    /// This index with the PCC at `pcc` read again (changed, added, or gone when `fs` no
    /// longer has it), the others and the walk's problems kept: an editor's PCC edit does not
    /// walk the data folder and read every PCC again. The campaigns stay in path order, the
    /// order [`CampaignIndex::build`] gives.
    pub fn with_pcc_read_again(&self, fs: &dyn FileSystem, pcc: &Path) -> Self {
        let mut campaigns: Vec<IndexedCampaign> = self
            .campaigns
            .iter()
            .filter(|c| c.path != pcc)
            .cloned()
            .collect();
        if is_pcc(pcc) {
            if let Ok(bytes) = fs.read(pcc) {
                let at = campaigns.partition_point(|c| c.path.as_path() < pcc);
                campaigns.insert(at, read_metadata(pcc, &bytes));
            }
        }
        Self::from_campaigns(campaigns, self.problems.clone())
    }

    /// An index of the given campaigns (for tests and callers with their own walk).
    pub fn from_campaigns(campaigns: Vec<IndexedCampaign>, problems: Vec<WalkProblem>) -> Self {
        let mut by_name: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_book_type: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, c) in campaigns.iter().enumerate() {
            let mut names = vec![c.key.to_lowercase()];
            if !c.name.is_empty() && !c.name.eq_ignore_ascii_case(&c.key) {
                names.push(c.name.to_lowercase());
            }
            for n in names {
                by_name.entry(n).or_default().push(i);
            }
            for t in &c.book_types {
                let list = by_book_type.entry(t.to_lowercase()).or_default();
                if !list.contains(&i) {
                    list.push(i);
                }
            }
        }
        CampaignIndex {
            campaigns,
            by_name,
            by_book_type,
            problems,
            definitions: Box::default(),
        }
    }

    /// What each indexed campaign defines (FACTDEFs, variables, object keys), scanned at
    /// most once per index and only when asked for: for reports that name the campaign
    /// defining a name a load set does not know.
    pub fn definitions(&self) -> &LazyDefinitions {
        &self.definitions
    }

    /// Every indexed campaign, in path order.
    pub fn campaigns(&self) -> &[IndexedCampaign] {
        &self.campaigns
    }

    /// What the walk of the data folder could not read.
    pub fn problems(&self) -> &[WalkProblem] {
        &self.problems
    }

    /// The campaign with this key or name; a KEY match wins over a CAMPAIGN-name match,
    /// then the first in path order.
    pub fn find(&self, name: &str) -> Option<&IndexedCampaign> {
        let hits = self.by_name.get(&name.to_lowercase())?;
        let all: Vec<&IndexedCampaign> =
            hits.iter().filter_map(|i| self.campaigns.get(*i)).collect();
        all.iter()
            .find(|c| c.key.eq_ignore_ascii_case(name))
            .or_else(|| all.first())
            .copied()
    }

    /// True when some campaign has this book type.
    pub fn has_book_type(&self, book_type: &str) -> bool {
        self.by_book_type.contains_key(&book_type.to_lowercase())
    }

    /// The campaign to add for a required book type: a selectable campaign of that type
    /// whose GAMEMODE is one of `modes` (those a user can select beside the requiring
    /// campaign, its game mode's ALLOWEDMODES), one sharing a GAMEMODE of `own` (the
    /// requiring campaign's) first, then the one nearest the top of the data folder (fewest
    /// folders deep: a system's main book before the books that bundle it), then the
    /// highest RANK, then path order. Campaigns named in `excluded` (the requiring
    /// campaign's `!PRECAMPAIGN` names) are never chosen: adding one would only trade the
    /// missing book for a forbidden one.
    pub fn for_book_type(
        &self,
        book_type: &str,
        modes: &[String],
        own: &[String],
        excluded: &[String],
    ) -> Option<&IndexedCampaign> {
        self.by_book_type
            .get(&book_type.to_lowercase())?
            .iter()
            .filter_map(|i| self.campaigns.get(*i))
            .filter(|c| c.selectable() && c.shares_mode(modes))
            .filter(|c| !excluded.iter().any(|n| c.is(n)))
            .min_by_key(|c| {
                (
                    !c.shares_mode(own),
                    c.path.components().count(),
                    std::cmp::Reverse(c.rank),
                )
            })
    }
}

/// Reads the metadata lines of one PCC (`KEY:value`, one token a line, `#` comments).
/// True for a `.pcc` file (any case).
fn is_pcc(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pcc"))
}

fn read_metadata(path: &Path, bytes: &[u8]) -> IndexedCampaign {
    let text = String::from_utf8_lossy(bytes);
    let mut c = IndexedCampaign {
        path: path.to_path_buf(),
        name: String::new(),
        key: String::new(),
        book_types: Vec::new(),
        game_modes: Vec::new(),
        rank: 9,
    };
    let list = |v: &str| -> Vec<String> {
        v.split('|')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect()
    };
    for line in text.split(['\r', '\n']).map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key {
            "CAMPAIGN" => c.name = value.trim().to_owned(),
            "KEY" => c.key = value.trim().to_owned(),
            "GAMEMODE" => c.game_modes = list(value),
            "BOOKTYPE" => c.book_types.extend(list(value)),
            "RANK" => c.rank = value.trim().parse().unwrap_or(9),
            _ => {}
        }
    }
    if c.key.is_empty() {
        c.key = c.name.clone();
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::fs::MemoryFs;

    fn index() -> CampaignIndex {
        CampaignIndex::build(&fs(), &PcgenRoot::new("/pc".into(), "/pc/data".into()))
    }

    fn fs() -> MemoryFs {
        MemoryFs::new()
            .with(
                "/pc/data/pf/core/core.pcc",
                "CAMPAIGN:Core Rulebook\nGAMEMODE:Pathfinder\nBOOKTYPE:Core Rules\nRANK:2009",
            )
            .with(
                "/pc/data/pf/core/_pfs/_.pcc",
                "CAMPAIGN:Core (PFS)\nKEY:PFS ~ Core\nBOOKTYPE:Core Rules\n",
            )
            .with(
                "/pc/data/pf/bundles/all/all.pcc",
                "CAMPAIGN:Everything\nGAMEMODE:Pathfinder\nBOOKTYPE:Core Rules|MultiSet\n",
            )
            .with(
                "/pc/data/sf/core.pcc",
                "# CAMPAIGN:Commented\nCAMPAIGN:SF Core\nGAMEMODE:Starfinder\nBOOKTYPE:Core Rules\n",
            )
            .with("/pc/data/sf/x.lst", "CAMPAIGN:Not a PCC\n")
    }

    #[test]
    fn a_pcc_read_again_gives_the_index_a_new_build_gives() {
        let root = PcgenRoot::new("/pc".into(), "/pc/data".into());
        let mut fs = fs();
        let before = CampaignIndex::build(&fs, &root);
        fs.insert(
            "/pc/data/pf/core/core.pcc",
            "CAMPAIGN:Renamed\nGAMEMODE:Pathfinder\n",
        );
        fs.insert("/pc/data/pf/new.pcc", "CAMPAIGN:New\nGAMEMODE:Pathfinder\n");
        let mut after = before.with_pcc_read_again(&fs, Path::new("/pc/data/pf/core/core.pcc"));
        after = after.with_pcc_read_again(&fs, Path::new("/pc/data/pf/new.pcc"));
        assert_eq!(
            after.campaigns(),
            CampaignIndex::build(&fs, &root).campaigns()
        );
        assert!(after.find("Renamed").is_some() && after.find("Core Rulebook").is_none());
        let gone = MemoryFs::new();
        let emptied = after.with_pcc_read_again(&gone, Path::new("/pc/data/pf/new.pcc"));
        assert!(emptied.find("New").is_none());
    }

    #[test]
    fn the_parallel_build_makes_the_same_index() {
        let root = PcgenRoot::new("/pc".into(), "/pc/data".into());
        let (one, many) = (index(), CampaignIndex::build_parallel(&fs(), &root));
        assert_eq!(one.campaigns(), many.campaigns());
        assert_eq!(
            format!("{:?}", one.by_name.get("everything")),
            format!("{:?}", many.by_name.get("everything"))
        );
    }

    #[test]
    fn finds_campaigns_by_key_or_name_once_indexed() {
        let ix = index();
        assert_eq!(ix.campaigns().len(), 4);
        assert_eq!(
            ix.find("pfs ~ core").map(|c| c.name.as_str()),
            Some("Core (PFS)")
        );
        assert_eq!(
            ix.find("Core (PFS)").map(|c| c.key.as_str()),
            Some("PFS ~ Core")
        );
        assert!(ix.find("Commented").is_none());
        assert!(ix.find("Not a PCC").is_none());
    }

    #[test]
    fn a_book_type_picks_the_selectable_campaign_of_the_same_game_mode() {
        let ix = index();
        let pick = |modes: &[&str]| {
            let modes: Vec<String> = modes.iter().map(|m| m.to_string()).collect();
            ix.for_book_type("core rules", &modes, &modes, &[])
                .map(|c| c.name.clone())
        };
        assert_eq!(
            pick(&["Pathfinder", "Pathfinder_PFS"]).as_deref(),
            Some("Core Rulebook")
        );
        assert_eq!(pick(&["Starfinder"]).as_deref(), Some("SF Core"));
        assert_eq!(pick(&["35e"]), None);
        assert!(ix.has_book_type("MultiSet"));
        assert!(!ix.has_book_type("Advanced Class Guide"));
    }

    /// A campaign that requires a Core Rules book but forbids the main one by name (as the
    /// 3.5 RSRD supplements forbid `3.5 RSRD`) gets the next book of that type, never the
    /// forbidden one.
    #[test]
    fn a_book_type_never_picks_a_campaign_the_requirer_forbids() {
        let ix = index();
        let modes = vec!["Pathfinder".to_owned()];
        let pick = |excluded: &[String]| {
            ix.for_book_type("core rules", &modes, &modes, excluded)
                .map(|c| c.name.clone())
        };
        assert_eq!(pick(&[]).as_deref(), Some("Core Rulebook"));
        assert_eq!(
            pick(&["core rulebook".to_owned()]).as_deref(),
            Some("Everything")
        );
        assert_eq!(
            pick(&["Core Rulebook".to_owned(), "Everything".to_owned()]),
            None
        );
    }

    #[test]
    fn the_index_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<CampaignIndex>();
    }
}
