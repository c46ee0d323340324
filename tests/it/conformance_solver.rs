//! The public PCGen `solver` and `scopes` vectors all pass (README rules).

use std::path::Path;

#[test]
fn solver_and_scope_vectors_pass() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/pcgen");
    if !dir.exists() {
        eprintln!("skipped: {} is missing", dir.display());
        return;
    }
    let mut failed = Vec::new();
    let mut total = 0;
    for file in ["solver.json", "scopes.json"] {
        let outcomes = rulebook::conformance::run_file(&dir.join(file)).unwrap();
        total += outcomes.len();
        for o in outcomes {
            if let Err(e) = o.result {
                failed.push(format!("{}: {e}", o.id));
            }
        }
    }
    assert_eq!(total, 56);
    assert!(
        failed.is_empty(),
        "{} of {total} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

#[test]
fn a_wrong_expectation_is_caught() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/pcgen/solver.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: {} is missing", path.display());
        return;
    };
    let mut vectors: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    // Every vector whose last step expects values: change one expected value.
    let mut mutated = 0;
    for v in &mut vectors {
        let Some(step) = v["steps"].as_array_mut().and_then(|s| s.last_mut()) else {
            continue;
        };
        if step.get("rulebook").is_some() {
            continue;
        }
        if let Some(values) = step["expect_values"].as_object_mut() {
            if let Some((_, want)) = values.iter_mut().next() {
                want["value"] = serde_json::Value::String("424242".into());
                mutated += 1;
            }
        }
    }
    let outcomes =
        rulebook::conformance::run_text(&serde_json::to_string(&vectors).unwrap(), "solver")
            .unwrap();
    let failed = outcomes.iter().filter(|o| o.result.is_err()).count();
    // Every mutated vector fails, except where the expected value was a non-finite Double
    // (replaced by the error policy) — there is one such vector.
    assert!(mutated > 40);
    assert!(
        failed + 1 >= mutated,
        "{failed} of {mutated} mutated vectors failed"
    );
}
