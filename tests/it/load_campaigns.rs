//! How a load set is put together from PCCs: `PCC:` values with a `|` suffix, every
//! PRECAMPAIGN form (at PCC level and on file entries), adding required campaigns from the
//! campaign index, game modes without ALLOWEDMODES, and the index built once per run.

use rulebook::load::{
    CampaignIndex, FileSystem, LoadSet, MemoryFs, PcgenRoot, Walk, load, load_with,
};
use std::cell::Cell;
use std::path::{Path, PathBuf};

fn root() -> PcgenRoot {
    PcgenRoot::new(PathBuf::from("/pc"), PathBuf::from("/pc/data"))
}

/// A PCGen root with two game modes (one without ALLOWEDMODES) and a core book each.
fn base() -> MemoryFs {
    MemoryFs::new()
        .with("/pc/system/gameModes/PF/miscinfo.lst", "ALLOWEDMODES:Pathfinder\n")
        .with("/pc/system/gameModes/PFS/miscinfo.lst", "ALLOWEDMODES:PF_PFS\n")
        .with("/pc/system/gameModes/Sidewinder/miscinfo.lst", "LEVELMSG:x\n")
        .with(
            "/pc/data/pf/core/core.pcc",
            "CAMPAIGN:Core Rulebook\nGAMEMODE:Pathfinder\nBOOKTYPE:Core Rules\nSKILL:core_skills.lst\n",
        )
        .with("/pc/data/pf/core/core_skills.lst", "Climb\n")
        .with(
            "/pc/data/pf/apg/apg.pcc",
            "CAMPAIGN:Advanced Player's Guide\nKEY:APG\nGAMEMODE:Pathfinder\nBOOKTYPE:Supplement\n",
        )
        .with(
            "/pc/data/sw/core.pcc",
            "CAMPAIGN:Sidewinder Core\nGAMEMODE:Sidewinder\nBOOKTYPE:Core Rules\n",
        )
}

fn shown(set: &LoadSet) -> String {
    let mut out = String::new();
    for c in &set.campaigns {
        out.push_str(&format!("campaign {}\n", c.name));
    }
    for f in &set.files {
        out.push_str(&format!(
            "{} {}\n",
            f.kind.token(),
            set.root.display(&f.path)
        ));
    }
    for d in &set.diagnostics {
        let f = set.sources.get(d.span.file).unwrap();
        let (line, col) = f.line_col(d.span.range().start);
        out.push_str(&format!(
            "{} {}:{line}:{col} {}\n",
            d.code.id, f.path, d.message
        ));
    }
    out
}

fn load_one(fs: &MemoryFs, pcc: &str) -> LoadSet {
    load(fs, &root(), &[PathBuf::from(pcc)])
}

#[test]
fn a_pcc_value_with_a_suffix_is_the_path_before_the_bar_and_always_included() {
    let fs = base()
        .with(
            "/pc/data/pf/emh/emh.pcc",
            "CAMPAIGN:EMH\nGAMEMODE:Pathfinder\n\
             PCC:support/unchained.pcc|PRECAMPAIGN:1,INCLUDES=Pathfinder Unchained\n\
             PCC:../core/_society/_.pcc|PRECAMPAIGN:1,INCLUDES=Nobody\n",
        )
        .with(
            "/pc/data/pf/emh/support/unchained.pcc",
            "CAMPAIGN:EMH Unchained support\nABILITY:u.lst\n",
        )
        .with("/pc/data/pf/emh/support/u.lst", "Unchained Thing\n")
        .with(
            "/pc/data/pf/core/_society/_.pcc",
            "KEY:Society\nFEAT:s.lst\n",
        )
        .with("/pc/data/pf/core/_society/s.lst", "Society Feat\n");
    let set = load_one(&fs, "/pc/data/pf/emh/emh.pcc");
    insta::assert_snapshot!(shown(&set), @r"
    campaign EMH
    campaign EMH Unchained support
    campaign 
    FEAT data/pf/core/_society/s.lst
    ABILITY data/pf/emh/support/u.lst
    ");
}

#[test]
fn every_precampaign_form_on_file_entries() {
    let fs = base().with(
        "/pc/data/pf/uc/uc.pcc",
        "CAMPAIGN:Unchained\nGAMEMODE:Pathfinder\nPCC:@/pf/core/core.pcc\n\
         ABILITY:bare.lst|PRECAMPAIGN:1,Advanced Player's Guide\n\
         ABILITY:bare_key.lst|PRECAMPAIGN:1,APG\n\
         ABILITY:booktype.lst|PRECAMPAIGN:1,BOOKTYPE=Core Rules\n\
         ABILITY:incbooktype.lst|PRECAMPAIGN:1,INCLUDESBOOKTYPE=Core Rules\n\
         ABILITY:includes.lst|PRECAMPAIGN:1,INCLUDES=Core Rulebook\n\
         ABILITY:not.lst|!PRECAMPAIGN:1,INCLUDES=Core Rulebook\n\
         ABILITY:except.lst|PRECAMPAIGN:1,INCLUDESBOOKTYPE=Core Rules,[Core Rulebook]\n\
         ABILITY:acg.lst|PRECAMPAIGN:1,INCLUDESBOOKTYPE=Advanced Class Guide\n",
    );
    // The files exist, so only the conditions decide.
    let fs = [
        "bare",
        "bare_key",
        "booktype",
        "incbooktype",
        "includes",
        "not",
        "except",
        "acg",
    ]
    .iter()
    .fold(fs, |fs, f| {
        fs.with(format!("/pc/data/pf/uc/{f}.lst"), "X\n")
    });
    // Alone: the core book is included (not loaded itself), the APG is absent.
    let alone = load_one(&fs, "/pc/data/pf/uc/uc.pcc");
    insta::assert_snapshot!("precampaign_alone", shown(&alone));
    // With the APG selected too, the bare names hold.
    let with_apg = load(
        &fs,
        &root(),
        &[
            PathBuf::from("/pc/data/pf/uc/uc.pcc"),
            PathBuf::from("/pc/data/pf/apg/apg.pcc"),
        ],
    );
    insta::assert_snapshot!("precampaign_with_apg", shown(&with_apg));
}

#[test]
fn a_required_book_type_adds_the_core_book_of_the_same_game_mode() {
    let fs = base().with(
        "/pc/data/pf/sup/sup.pcc",
        "CAMPAIGN:Supplement\nGAMEMODE:Pathfinder|PF_PFS\nPRECAMPAIGN:1,INCLUDESBOOKTYPE=Core Rules\n\
         PRECAMPAIGN:1,Advanced Player's Guide\n",
    );
    let set = load_one(&fs, "/pc/data/pf/sup/sup.pcc");
    insta::assert_snapshot!(shown(&set), @r"
    campaign Supplement
    campaign Advanced Player's Guide
    campaign Core Rulebook
    SKILL data/pf/core/core_skills.lst
    L0106 data/pf/sup/sup.pcc:4:1 required campaign `Advanced Player's Guide` was added to the load
    L0106 data/pf/sup/sup.pcc:3:1 `Core Rulebook`, the required `Core Rules` book, was added to the load
    ");
}

/// A campaign added for a requirement is never one a selected campaign forbids by name
/// (`!PRECAMPAIGN`): with alternatives, the next is taken (as the 3.5 RSRD supplements
/// require "Core Books I and II" or "Basics" and forbid the first); for a book type, the
/// next book of that type. Without the rule the load failed its own `!PRECAMPAIGN` (L0110).
#[test]
fn required_campaigns_skip_what_the_load_forbids() {
    let fs = base()
        .with(
            "/pc/data/pf/all/all.pcc",
            "CAMPAIGN:Everything\nGAMEMODE:Pathfinder\nBOOKTYPE:Core Rules\n",
        )
        .with(
            "/pc/data/pf/mon/mon.pcc",
            "CAMPAIGN:Monsters\nGAMEMODE:Pathfinder\nPRECAMPAIGN:1,Everything,Core Rulebook\n",
        )
        .with(
            "/pc/data/pf/epic/epic.pcc",
            "CAMPAIGN:Epic\nGAMEMODE:Pathfinder\nPRECAMPAIGN:1,Monsters\n!PRECAMPAIGN:1,Everything\n",
        )
        .with(
            "/pc/data/pf/div/div.pcc",
            "CAMPAIGN:Divine\nGAMEMODE:Pathfinder\nPRECAMPAIGN:1,BOOKTYPE=Core Rules\n\
             !PRECAMPAIGN:1,Core Rulebook\n",
        );
    let epic = shown(&load_one(&fs, "/pc/data/pf/epic/epic.pcc"));
    assert!(!epic.contains("L0110"), "{epic}");
    assert!(epic.contains("campaign Core Rulebook"), "{epic}");
    assert!(!epic.contains("campaign Everything"), "{epic}");
    let divine = shown(&load_one(&fs, "/pc/data/pf/div/div.pcc"));
    assert!(!divine.contains("L0110"), "{divine}");
    assert!(divine.contains("campaign Everything"), "{divine}");
    assert!(!divine.contains("campaign Core Rulebook"), "{divine}");
}

#[test]
fn a_game_mode_without_allowedmodes_allows_its_folder_name() {
    let set = load_one(&base(), "/pc/data/sw/core.pcc");
    assert_eq!(
        set.game_mode.as_ref().map(|g| g.dir.as_str()),
        Some("Sidewinder")
    );
    assert!(set.diagnostics.is_empty(), "{}", shown(&set));
}

#[test]
fn missing_campaigns_are_reported_once_per_name() {
    let names: Vec<String> = (0..200).map(|i| format!("INCLUDES=Missing {i}")).collect();
    let fs = base().with(
        "/pc/data/pf/m/m.pcc",
        format!(
            "CAMPAIGN:M\nGAMEMODE:Pathfinder\nPRECAMPAIGN:200,{}\nPRECAMPAIGN:1,INCLUDES=Missing 7\n\
             PRECAMPAIGN:1,INCLUDES=Another\n",
            names.join(",")
        ),
    );
    let set = load_one(&fs, "/pc/data/pf/m/m.pcc");
    insta::assert_snapshot!(shown(&set), @r"
    campaign M
    L0105 data/pf/m/m.pcc:3:1 200 required campaigns are not in the data folder: `Missing 0`, `Missing 1`, `Missing 2`, `Missing 3`, `Missing 4` and 195 more
    L0105 data/pf/m/m.pcc:5:1 required campaign `Another` is not in the data folder
    ");
}

#[test]
fn added_campaign_notes_do_not_depend_on_the_order_pccs_are_given() {
    let fs = base()
        .with(
            "/pc/data/pf/a/a.pcc",
            "CAMPAIGN:A\nGAMEMODE:Pathfinder\nPRECAMPAIGN:1,INCLUDES=APG\n",
        )
        .with(
            "/pc/data/pf/b/b.pcc",
            "CAMPAIGN:B\nGAMEMODE:Pathfinder\nPRECAMPAIGN:1,INCLUDES=APG\n",
        );
    let notes = |order: &[&str]| {
        let pccs: Vec<PathBuf> = order.iter().map(PathBuf::from).collect();
        let set = load(&fs, &root(), &pccs);
        let mut notes: Vec<String> = set
            .diagnostics
            .iter()
            .filter(|d| d.code.id == "L0106")
            .map(|d| set.sources.get(d.span.file).unwrap().path.clone())
            .collect();
        notes.sort();
        notes
    };
    let ab = notes(&["/pc/data/pf/a/a.pcc", "/pc/data/pf/b/b.pcc"]);
    let ba = notes(&["/pc/data/pf/b/b.pcc", "/pc/data/pf/a/a.pcc"]);
    assert_eq!(ab, vec!["data/pf/a/a.pcc"]);
    assert_eq!(ab, ba);
}

/// A file system that counts walks and reads.
struct Counting {
    inner: MemoryFs,
    walks: Cell<usize>,
    pcc_reads: Cell<usize>,
}

impl FileSystem for Counting {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        if path.extension().is_some_and(|e| e == "pcc") {
            self.pcc_reads.set(self.pcc_reads.get() + 1);
        }
        self.inner.read(path)
    }
    fn is_file(&self, path: &Path) -> bool {
        self.inner.is_file(path)
    }
    fn is_dir(&self, path: &Path) -> bool {
        self.inner.is_dir(path)
    }
    fn files_below(&self, dir: &Path) -> Vec<PathBuf> {
        self.walk(dir).files
    }
    fn walk(&self, dir: &Path) -> Walk {
        if dir == Path::new("/pc/data") {
            self.walks.set(self.walks.get() + 1);
        }
        self.inner.walk(dir)
    }
}

#[test]
fn the_data_folder_is_indexed_once_for_every_load_set() {
    let mut fs = base();
    for i in 0..20 {
        fs.insert(
            format!("/pc/data/pf/s{i}/s.pcc"),
            format!(
                "CAMPAIGN:S{i}\nGAMEMODE:Pathfinder\nPRECAMPAIGN:1,INCLUDES=Gone {i}\n\
                 PRECAMPAIGN:1,INCLUDES=Also Gone {i}\nPRECAMPAIGN:1,INCLUDES=APG\n"
            ),
        );
    }
    let fs = Counting {
        inner: fs,
        walks: Cell::new(0),
        pcc_reads: Cell::new(0),
    };
    let index = CampaignIndex::build(&fs, &root());
    let pccs_in_data = index.campaigns().len();
    for i in 0..20 {
        let set = load_with(
            &fs,
            &root(),
            &[PathBuf::from(format!("/pc/data/pf/s{i}/s.pcc"))],
            &index,
        );
        assert_eq!(
            set.diagnostics
                .iter()
                .filter(|d| d.code.id == "L0105")
                .count(),
            2
        );
    }
    // One walk of the data folder (the index's); each PCC read once by the index, then once per load set
    // that loads it (the set's own PCC and the APG it adds).
    assert_eq!(fs.walks.get(), 1);
    assert_eq!(fs.pcc_reads.get(), pccs_in_data + 20 * 2);
}

#[test]
fn a_required_book_type_no_campaign_of_the_game_mode_has_says_so() {
    // PF_PFS is a game mode of its own (as Pathfinder_PFS is in PCGen's data): the Core Rules
    // book is a Pathfinder campaign only, which PCGen never lists beside a PF_PFS one.
    let fs = base().with(
        "/pc/data/pf/pfs/pfs.pcc",
        "CAMPAIGN:Society Guide\nGAMEMODE:PF_PFS\nPRECAMPAIGN:1,INCLUDESBOOKTYPE=Core Rules\n",
    );
    let set = load_one(&fs, "/pc/data/pf/pfs/pfs.pcc");
    insta::assert_snapshot!(shown(&set), @r"
    campaign Society Guide
    L0105 data/pf/pfs/pfs.pcc:3:1 required `Core Rules` book is not in the data folder: no campaign of game mode `PF_PFS` has BOOKTYPE `Core Rules`
    ");
}

#[test]
fn a_required_book_that_is_of_the_required_type_satisfies_it() {
    // Player's Guide to Arcanis: a Core Rules book that allows no other; Magic of Arcanis
    // asks for a Core Rules book first and for it second. PCGen loads the two alone.
    let fs = base()
        .with(
            "/pc/data/pf/setting/setting.pcc",
            "CAMPAIGN:Setting Guide\nGAMEMODE:Pathfinder\nBOOKTYPE:Core Rules\n\
             !PRECAMPAIGN:1,BOOKTYPE=Core Rules,[Setting Guide]\n",
        )
        .with(
            "/pc/data/pf/magic/magic.pcc",
            "CAMPAIGN:Setting Magic\nGAMEMODE:Pathfinder\nBOOKTYPE:Supplement\n\
             PRECAMPAIGN:1,BOOKTYPE=Core Rules\nPRECAMPAIGN:1,Setting Guide\n",
        );
    let set = load_one(&fs, "/pc/data/pf/magic/magic.pcc");
    insta::assert_snapshot!(shown(&set), @r"
    campaign Setting Magic
    campaign Setting Guide
    L0106 data/pf/magic/magic.pcc:5:1 required campaign `Setting Guide` was added to the load
    ");
}
