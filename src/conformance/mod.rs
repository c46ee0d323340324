//! Runs the reference implementations' test vectors (`shared/conformance/`).
//!
//! A vector file is a JSON array; each vector names its `topic`. [`run_file`] dispatches every
//! vector to the runner of its topic and returns one [`Outcome`] per vector. A vector whose
//! topic has no runner yet counts as failed, never as skipped.

pub mod deviations;
pub mod dialects;
pub mod pcgen_expr;
pub mod pcgen_solver;
pub mod scope;

use serde_json::Value as Json;
use std::path::Path;

/// The result of one vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The vector's `id`.
    pub id: String,
    /// `Ok` when rulebook did what the reference did (with the README's rules), else why not.
    pub result: Result<(), String>,
}

/// Runs every vector of one file.
pub fn run_file(path: &Path) -> Result<Vec<Outcome>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    run_text(&text, stem).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs every vector of one file's text. `default_topic` is used for vectors without a
/// `topic` field (the dialect files name their topic only in the file name).
pub fn run_text(text: &str, default_topic: &str) -> Result<Vec<Outcome>, String> {
    let vectors: Vec<Json> = serde_json::from_str(text).map_err(|e| e.to_string())?;
    Ok(vectors
        .iter()
        .map(|v| run_vector(v, default_topic))
        .collect())
}

/// Runs one vector.
pub fn run_vector(vector: &Json, default_topic: &str) -> Outcome {
    let id = vector
        .get("id")
        .and_then(Json::as_str)
        .unwrap_or("<no id>")
        .to_owned();
    let topic = vector
        .get("topic")
        .and_then(Json::as_str)
        .unwrap_or(default_topic);
    // A vector the deviation table lists is judged by rulebook's documented policy, exactly as
    // if it carried that `rulebook` object itself; a vector's own override always wins.
    let patched;
    let vector = match deviations::override_for(&id) {
        Some(rulebook) if vector.get("rulebook").is_none() => {
            let mut v = vector.clone();
            if let Some(obj) = v.as_object_mut() {
                obj.insert("rulebook".to_owned(), rulebook);
            }
            patched = v;
            &patched
        }
        _ => vector,
    };
    let result = match topic {
        "parse" | "arithmetic" | "comparison" | "boolean" | "functions" | "strings"
        | "orderedpair_dice" | "variables" | "errors" => pcgen_expr::run(vector),
        "scopes" | "solver" => pcgen_solver::run(vector),
        "fics" | "icc" | "untermud" => dialects::run(topic, vector),
        other => Err(format!("unknown topic `{other}`")),
    };
    Outcome { id, result }
}

/// Counts passed and failed outcomes.
pub fn tally(outcomes: &[Outcome]) -> (usize, usize) {
    let passed = outcomes.iter().filter(|o| o.result.is_ok()).count();
    (passed, outcomes.len() - passed)
}
