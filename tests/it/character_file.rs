//! Character files on the example dataset (`data/handsworld`): removals run after grants and
//! equipment modifiers, inputs after removals, and the character is solved once.

use rulebook::character::file::{build, parse};
use rulebook::character::{Character, InstanceId};
use rulebook::check::check_load_set;
use rulebook::load::{DiskFs, PcgenRoot};
use std::path::Path;
use std::sync::Arc;

fn character(text: &str) -> (Character, Vec<String>) {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let root = PcgenRoot::at(&DiskFs, &data);
    let set = check_load_set(&DiskFs, &root, &[data.join("handsworld/handsworld.pcc")]);
    let (c, mut problems) = build(Arc::new(set.dataset), &parse(text).unwrap());
    problems.extend(c.problems());
    let problems = problems.into_iter().map(|d| d.message).collect();
    (c, problems)
}

fn names(c: &Character, prefix: &str) -> Vec<String> {
    c.values()
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| n.starts_with(prefix))
        .collect()
}

#[test]
fn removals_revoke_what_the_object_applied() {
    let (c, problems) = character(
        r#"grant = ["EQUIPMENT:Longsword", "ABILITY:Improved Critical", "ABILITY:Many Arms"]
remove = ["ABILITY:Improved Critical"]
"#,
    );
    assert!(problems.is_empty(), "{problems:?}");
    let sword = c.instance_of("EQUIPMENT", "Longsword").unwrap();
    // Without Improved Critical's MODIFYOTHER: CritMultAdder 0, CritMult SET 2 + ADD 0.
    assert_eq!(c.get(sword, "CritMultAdder").unwrap().to_string(), "0");
    let part = c.part(sword, 1).unwrap();
    assert_eq!(c.get(part, "CritMult").unwrap().to_string(), "2");
    assert_eq!(c.get_global("Hands").unwrap().to_string(), "6");
}

#[test]
fn a_removal_takes_the_latest_instance_and_inputs_follow_removals() {
    let (c, problems) = character(
        r#"grant = ["STAT:STR", "EQUIPMENT:Longsword", "EQUIPMENT:Longsword", "RACE:Human"]
remove = ["equipment:longsword", "RACE:Human", "RACE:Human"]
[[input]]
object = "STAT:STR"
channel = "StatScore"
value = "12"
[[input]]
object = "STAT:STR"
channel = "StatScore"
value = "16"
"#,
    );
    // The second RACE:Human removal has nothing left to remove.
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("removed but not granted"));
    // One Longsword left; the race's granted Walk went with it.
    assert_eq!(names(&c, "Longsword.HandsRequired").len(), 1);
    assert!(names(&c, "Walk.").is_empty());
    // The later input wins: STR 16 → StrMod 3 → LightLoad row 16.
    assert_eq!(
        c.get(InstanceId::GLOBAL, "StrMod").unwrap().to_string(),
        "3"
    );
    assert_eq!(c.get_global("LightLoad").unwrap().to_string(), "76");
}
