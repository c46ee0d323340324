//! Characters computed on the real Starfinder core fixture (`../shared/pcgen`), with values a
//! person can derive from the data by hand. Skipped when the fixture is absent.

use rulebook::character::{Character, InstanceId};
use rulebook::load::{DiskFs, PcgenRoot};
use rulebook::model::Dataset;
use rulebook::model::check::check_load_set;
use std::path::Path;
use std::sync::{Arc, OnceLock};

fn dataset() -> Option<Arc<Dataset>> {
    static DS: OnceLock<Option<Arc<Dataset>>> = OnceLock::new();
    DS.get_or_init(|| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/pcgen");
        let pcc = root.join("data/starfinder/paizo/core/_starfinder_core_rulebook.pcc");
        if !pcc.exists() {
            eprintln!("skipped: {} is missing", pcc.display());
            return None;
        }
        let root = PcgenRoot::at(&DiskFs, &std::path::absolute(&root).unwrap());
        let set = check_load_set(&DiskFs, &root, &[std::path::absolute(&pcc).unwrap()]);
        Some(Arc::new(set.dataset))
    })
    .clone()
}

fn num(c: &Character, inst: InstanceId, name: &str) -> String {
    c.get(inst, name)
        .map(|v| v.to_string())
        .unwrap_or_else(|| "<none>".into())
}

#[test]
fn explore() {
    let Some(ds) = dataset() else { return };
    let mut c = Character::new(ds.clone());
    eprintln!(
        "problems at start: {:?}",
        c.problems().iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    let str_ = c.grant_key("STAT", "STR").unwrap();
    c.set_input(str_, "STATSCORE", "15").unwrap();
    eprintln!(
        "STR Score {} Mod {} STR {}",
        num(&c, str_, "Score"),
        num(&c, str_, "Mod"),
        num(&c, InstanceId::GLOBAL, "STR")
    );
    let m = c.grant_key("SIZE", "M");
    eprintln!(
        "size M: {:?} Face {}",
        m.is_ok(),
        num(&c, InstanceId::GLOBAL, "Face")
    );
    eprintln!(
        "problems: {:?}",
        c.problems().iter().map(|d| &d.message).collect::<Vec<_>>()
    );
    for (n, v) in c.values().iter().take(50) {
        eprintln!("  {n} = {v}");
    }
    panic!("explore");
}
