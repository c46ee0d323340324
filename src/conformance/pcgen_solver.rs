//! Runner for PCGen `scopes` and `solver` vectors.

use serde_json::Value as Json;

/// Runs one scope or solver vector.
pub fn run(_vector: &Json) -> Result<(), String> {
    Err("the solver runner is not built yet".into())
}
