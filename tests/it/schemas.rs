//! The JSON Schemas in `schemas/` are generated from the Rust types; this test fails when a
//! checked-in schema differs. Run with `UPDATE_SCHEMAS=1` to rewrite them.

use std::path::Path;

fn check_schema(file: &str, schema: schemars::Schema) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schemas")
        .join(file);
    let text = serde_json::to_string_pretty(&schema).unwrap() + "\n";
    if std::env::var_os("UPDATE_SCHEMAS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        on_disk == text,
        "{} is out of date; run `UPDATE_SCHEMAS=1 cargo test --test it schemas::`",
        path.display()
    );
}

#[test]
fn check_output_schema_is_up_to_date() {
    check_schema(
        "check-output.schema.json",
        schemars::schema_for!(rulebook::check::CheckOutput),
    );
}

#[test]
fn baseline_schema_is_up_to_date() {
    check_schema(
        "baseline.schema.json",
        schemars::schema_for!(rulebook::diagnostic::baseline::Baseline),
    );
}

#[test]
fn config_schema_is_up_to_date() {
    check_schema(
        "config.schema.json",
        schemars::schema_for!(rulebook::config::ConfigFile),
    );
}
