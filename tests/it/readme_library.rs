//! The README's "Library" example, compiled and run: the code between the markers below
//! must be the README's `rust` block verbatim (the second test), so the README cannot rot.

// README:begin
use rulebook::character::{Character, InstanceId};
use rulebook::check::check_load_set;
use rulebook::formula::Format;
use rulebook::load::{DiskFs, PcgenRoot};
use std::error::Error;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn Error>> {
    // Load and check a dataset once (problems in `set.diagnostics`), then share it.
    let data = std::path::absolute("data").expect("a working directory");
    let root = PcgenRoot::at(&DiskFs, &data);
    let set = check_load_set(&DiskFs, &root, &[data.join("handsworld/handsworld.pcc")]);
    let dataset = Arc::new(set.dataset);

    // Build any number of characters from it: grant objects, enter channel inputs.
    let mut pc = Character::new(Arc::clone(&dataset));
    let strength = pc.grant_key("STAT", "STR")?;
    pc.set_input(strength, "StatScore", "14")?;
    pc.grant_key("ABILITY", "Many Arms")?;
    let sword = pc.grant_key("EQUIPMENT", "Bastard Sword")?;

    // Read values: global variables, and local ones per granted instance.
    let value = |inst, name| pc.get(inst, name).map(|v| v.to_string());
    assert_eq!(value(InstanceId::GLOBAL, "Hands").as_deref(), Some("6"));
    assert_eq!(value(strength, "Mod").as_deref(), Some("2"));
    assert_eq!(value(sword, "HandsRequired").as_deref(), Some("2"));

    // Explain a value: each modifier applied, in order, with its source and effect.
    if let Some(why) = pc.explain(InstanceId::GLOBAL, "Hands") {
        for step in &why.applied {
            let source = step.origin.object.as_ref().map_or("global", |o| o.as_str());
            let (kind, formula) = (&step.kind, &step.formula);
            let (before, after) = (&step.before, &step.after);
            println!("{source}: {kind} {formula}: {before} → {after}");
        }
    }

    // Evaluate a formula of your own as seen from an instance.
    let light = pc.evaluate(InstanceId::GLOBAL, "StrMod*10", &Format::Number);
    assert_eq!(light.ok().map(|v| v.to_string()).as_deref(), Some("20"));

    // What the values leave out: granted objects' old-system tokens (BONUS, DEFINE, …),
    // one warning per object; none in this dataset, written for the formula system.
    assert!(pc.unapplied().is_empty());
    Ok(())
}
// README:end

#[test]
fn the_readme_library_example_runs() {
    main().unwrap();
}

/// A failed library call reads as a message through `Box<dyn Error>`, not a struct dump.
#[test]
fn a_library_error_displays_its_code_and_message() {
    fn grant_missing() -> Result<(), Box<dyn Error>> {
        let data = std::path::absolute("data")?;
        let root = PcgenRoot::at(&DiskFs, &data);
        let set = check_load_set(&DiskFs, &root, &[data.join("handsworld/handsworld.pcc")]);
        let mut pc = Character::new(Arc::new(set.dataset));
        pc.grant_key("STAT", "No Such Stat")?;
        Ok(())
    }
    let err = grant_missing().unwrap_err();
    let shown = err.to_string();
    assert!(shown.starts_with("error[S0"), "{shown}");
    assert!(shown.contains("No Such Stat"), "{shown}");
    let debug = format!("{err:?}");
    assert!(!debug.contains("FileId"), "{debug}");
}

/// The first ```rust block after `## Library` in README.md.
fn readme_block() -> String {
    let readme = include_str!("../../README.md");
    let library = readme
        .split_once("\n## Library")
        .map(|(_, rest)| rest)
        .expect("README.md has a `## Library` section");
    let (_, code) = library.split_once("```rust\n").expect("a ```rust block");
    let (code, _) = code.split_once("```").expect("the block ends");
    code.to_owned()
}

#[test]
fn the_readme_shows_this_example() {
    let this = include_str!("readme_library.rs");
    let (_, code) = this.split_once("// README:begin\n").unwrap();
    let (code, _) = code.split_once("// README:end").unwrap();
    assert_eq!(
        readme_block(),
        code,
        "README.md's Library example differs from tests/it/readme_library.rs"
    );
}
