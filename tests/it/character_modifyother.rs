//! MODIFYOTHER lifetimes on a small in-memory dataset: ALL, GROUP=, child parts `[…]`,
//! objects granted later, revocation with the source; the spec's CritMultAdder example.

use rulebook::character::Character;
use rulebook::check::check_load_set;
use rulebook::load::{MemoryFs, PcgenRoot};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const FEATS: &str = "Improved Critical\tKEY:Improved Critical\tMODIFYOTHER:PC.EQUIPMENT|ALL|CritMultAdder|ADD|1\n\
Blade Lightness\tKEY:Blade Lightness\tMODIFYOTHER:PC.EQUIPMENT|GROUP=Blade|Weight|ADD|-1\n\
Keen Heads\tKEY:Keen Heads\tMODIFYOTHER:PC.EQUIPMENT|ALL[ALL]|CritMult|MULTIPLY|10|PRIORITY=50\n";

fn dataset() -> (Arc<rulebook::model::Dataset>, Vec<String>) {
    dataset_with(FEATS, "")
}

fn dataset_with(feats: &str, globals: &str) -> (Arc<rulebook::model::Dataset>, Vec<String>) {
    let fs = MemoryFs::new()
        .with("/pc/system/gameModes/Test/miscinfo.lst", "ALLOWEDMODES:Test\n")
        .with(
            "/pc/data/t/t.pcc",
            "CAMPAIGN:Test\nGAMEMODE:Test\nDATACONTROL:ctl.lst\nVARIABLE:vars.lst\nEQUIPMENT:equip.lst\nFEAT:feats.lst\n",
        )
        .with(
            "/pc/data/t/ctl.lst",
            "DEFAULTVARIABLEVALUE:NUMBER|0\nDEFAULTVARIABLEVALUE:ORDEREDPAIR|0,0\nDEFAULTVARIABLEVALUE:BOOLEAN|false\nDEFAULTVARIABLEVALUE:STRING|\nDEFAULTVARIABLEVALUE:DICE|0\n",
        )
        .with(
            "/pc/data/t/vars.lst",
            format!("LOCAL:PC.EQUIPMENT|NUMBER=CritMultAdder\nLOCAL:PC.EQUIPMENT.PART|NUMBER=CritMult\nLOCAL:PC.EQUIPMENT|NUMBER=Weight\n{globals}"),
        )
        .with(
            "/pc/data/t/equip.lst",
            "Longsword\tKEY:Longsword\tGROUP:Blade\tMODIFY:Weight|SET|4\tPART:1|MODIFY:CritMult|SET|2\tPART:1|MODIFY:CritMult|ADD|CritMultAdder\n\
             Axe\tKEY:Axe\tMODIFY:Weight|SET|6\tPART:1|MODIFY:CritMult|SET|3\tPART:1|MODIFY:CritMult|ADD|CritMultAdder\tPART:2|MODIFY:CritMult|SET|2\tPART:2|MODIFY:CritMult|ADD|CritMultAdder\n",
        )
        .with("/pc/data/t/feats.lst", feats);
    let root = PcgenRoot::at(&fs, Path::new("/pc"));
    let set = check_load_set(&fs, &root, &[PathBuf::from("/pc/data/t/t.pcc")]);
    let problems = set
        .diagnostics
        .iter()
        .filter(|d| d.severity == rulebook::diagnostic::Severity::Error)
        .map(|d| format!("{} {}", d.code, d.message))
        .collect();
    (Arc::new(set.dataset), problems)
}

fn v(c: &Character, inst: rulebook::character::InstanceId, name: &str) -> String {
    c.get(inst, name).map(|x| x.to_string()).unwrap_or_default()
}

#[test]
fn crit_mult_adder_is_pulled_into_every_part() {
    let (ds, problems) = dataset();
    assert!(problems.is_empty(), "{problems:?}");
    let mut c = Character::new(ds);
    let sword = c.grant_key("EQUIPMENT", "Longsword").unwrap();
    let sword_head = c.part(sword, 1).unwrap();
    assert_eq!(v(&c, sword_head, "CritMult"), "2");
    let feat = c.grant_key("FEAT", "Improved Critical").unwrap();
    assert_eq!(v(&c, sword, "CritMultAdder"), "1");
    assert_eq!(v(&c, sword_head, "CritMult"), "3");
    // Granted after the feat: the MODIFYOTHER reaches it too, and each head pulls it in.
    let axe = c.grant_key("EQUIPMENT", "Axe").unwrap();
    assert_eq!(v(&c, c.part(axe, 1).unwrap(), "CritMult"), "4");
    assert_eq!(v(&c, c.part(axe, 2).unwrap(), "CritMult"), "3");
    // Revoked with the feat.
    c.remove(feat);
    assert_eq!(v(&c, sword_head, "CritMult"), "2");
    assert_eq!(v(&c, c.part(axe, 1).unwrap(), "CritMult"), "3");
    assert!(c.problems().is_empty(), "{:?}", c.problems());
}

#[test]
fn group_selects_only_members_and_child_selects_parts() {
    let (ds, _) = dataset();
    let mut c = Character::new(ds);
    let light = c.grant_key("FEAT", "Blade Lightness").unwrap();
    let sword = c.grant_key("EQUIPMENT", "Longsword").unwrap();
    let axe = c.grant_key("EQUIPMENT", "Axe").unwrap();
    assert_eq!(v(&c, sword, "Weight"), "3", "GROUP:Blade");
    assert_eq!(v(&c, axe, "Weight"), "6", "not a Blade");
    c.remove(light);
    assert_eq!(v(&c, sword, "Weight"), "4");
    // ALL[ALL]: every part of every equipment, after the parts' own modifiers (PRIORITY=50).
    c.grant_key("FEAT", "Keen Heads").unwrap();
    assert_eq!(v(&c, c.part(sword, 1).unwrap(), "CritMult"), "20");
    assert_eq!(v(&c, c.part(axe, 2).unwrap(), "CritMult"), "20");
    assert_eq!(
        v(&c, sword, "Weight"),
        "4",
        "the equipment itself is not a part"
    );
}

#[test]
fn a_cycle_in_the_data_is_found_before_any_character_is_built() {
    let (ds, problems) = dataset_with(
        "Strong\tKEY:Strong\tMODIFY:Might|SET|Grace+1\nGraceful\tKEY:Graceful\tMODIFY:Grace|SET|Might\n",
        "GLOBAL:NUMBER=Might\nGLOBAL:NUMBER=Grace\n",
    );
    assert!(problems.is_empty(), "{problems:?}");
    let (c, found) = Character::grant_everything(ds);
    // Feats are read in the global scope: their MODIFYs reach the one global instance
    // (not a copy per feat), which is what closes the cycle.
    assert!(
        c.values().iter().all(|(name, _)| !name.contains('.')
            || name.contains("PART")
            || name.starts_with("Axe")
            || name.starts_with("Longsword")),
        "{:?}",
        c.values()
    );
    let cycle = found
        .iter()
        .find(|d| d.code.id == "S0101")
        .unwrap_or_else(|| panic!("no cycle error: {found:?}"));
    assert!(
        cycle.message.contains("`Might`") && cycle.message.contains("`Grace`"),
        "{}",
        cycle.message
    );
    // Both closing modifiers are labelled (the primary span and one secondary label).
    assert_eq!(cycle.labels.len(), 1);
    assert_ne!(cycle.span, cycle.labels[0].span);
}

mod random_orders {
    use super::*;
    use proptest::prelude::*;

    const POOL: [(&str, &str); 5] = [
        ("EQUIPMENT", "Longsword"),
        ("EQUIPMENT", "Axe"),
        ("FEAT", "Improved Critical"),
        ("FEAT", "Blade Lightness"),
        ("FEAT", "Keen Heads"),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Grants and removes in random orders: the incremental values always equal a solve
        /// from scratch of the same modifiers, and a new character granted the live objects
        /// in the same order — and so do the current problems (in any order).
        #[test]
        fn incremental_equals_from_scratch(ops in prop::collection::vec((any::<bool>(), 0usize..5), 1..30)) {
            let (ds, _) = dataset();
            let mut c = Character::new(Arc::clone(&ds));
            let mut live: Vec<(usize, rulebook::character::InstanceId)> = Vec::new();
            for (grant, i) in ops {
                if grant {
                    let (kind, key) = POOL[i];
                    live.push((i, c.grant_key(kind, key).unwrap()));
                } else if let Some(p) = live.iter().position(|(j, _)| *j == i) {
                    let (_, inst) = live.remove(p);
                    c.remove(inst);
                }
                let mut scratch = c.clone();
                scratch.solve_from_scratch();
                prop_assert_eq!(c.values(), scratch.values());
                prop_assert_eq!(c.problems(), scratch.problems());
                let mut fresh = Character::new(Arc::clone(&ds));
                for (j, _) in &live {
                    let (kind, key) = POOL[*j];
                    fresh.grant_key(kind, key).unwrap();
                }
                prop_assert_eq!(c.values(), fresh.values());
                prop_assert_eq!(crate::support::sorted(&c.problems()), crate::support::sorted(&fresh.problems()));
            }
        }
    }
}

/// A MODIFYOTHER of a global variable through another object "adds to that global variable
/// only if both objects are granted" (the spec): removing the addressed object takes it out
/// of force, as removing its source does.
#[test]
fn a_global_modified_through_an_object_needs_both_granted() {
    let (ds, problems) = dataset_with(
        "Axe Lover\tKEY:Axe Lover\tMODIFYOTHER:PC.EQUIPMENT|Axe|Fondness|ADD|1\n",
        "GLOBAL:NUMBER=Fondness\n",
    );
    assert!(problems.is_empty(), "{problems:?}");
    let mut c = Character::new(ds);
    let fondness = |c: &Character| c.get_global("Fondness").map(|x| x.to_string());
    c.grant_key("FEAT", "Axe Lover").unwrap();
    let axe = c.grant_key("EQUIPMENT", "Axe").unwrap();
    let second = c.grant_key("EQUIPMENT", "Axe").unwrap();
    assert_eq!(fondness(&c).as_deref(), Some("2"));
    c.remove(axe);
    assert_eq!(fondness(&c).as_deref(), Some("1"));
    c.remove(second);
    assert_eq!(fondness(&c).as_deref(), Some("0"));
    let mut scratch = c.clone();
    scratch.solve_from_scratch();
    assert_eq!(c.values(), scratch.values());
}
