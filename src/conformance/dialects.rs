//! Runner for the dialect vectors (`fics`, `icc`, `untermud`); see
//! `shared/reference/dialects-semantics.md` §4 for the fields.

use crate::dialect::{fics, icc, untermud};
use crate::source::FileId;
use serde_json::Value as Json;

/// Runs one dialect vector of `topic`.
pub fn run(topic: &str, vector: &Json) -> Result<(), String> {
    let formula = vector
        .get("formula")
        .and_then(Json::as_str)
        .ok_or("vector has no `formula`")?;
    let context = vector.get("context").ok_or("vector has no `context`")?;
    let expect = vector.get("expect").ok_or("vector has no `expect`")?;
    match topic {
        "fics" => run_fics(formula, context, expect, vector),
        "icc" => run_icc(formula, context, expect),
        "untermud" => run_untermud(formula, context, expect),
        other => Err(format!("unknown dialect `{other}`")),
    }
}

fn codes(diags: &[crate::diagnostic::Diagnostic]) -> String {
    diags
        .iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect::<Vec<_>>()
        .join("; ")
}

fn run_fics(formula: &str, context: &Json, expect: &Json, vector: &Json) -> Result<(), String> {
    let request: fics::MatchRequest =
        serde_json::from_value(context.clone()).map_err(|e| format!("bad context: {e}"))?;
    let mut fvars = fics::FVars::new();
    let mut rejected = Vec::new();
    if let Some(map) = context.get("f").and_then(Json::as_object) {
        for var in fics::FVar::all() {
            if let Some(text) = map.get(&var.to_string()).and_then(Json::as_str) {
                if fvars.set(var, text, FileId(1)).is_err() {
                    rejected.push(var.to_string());
                }
            }
        }
    }
    let want_rejected: Vec<String> = vector
        .get("fvar_rejected")
        .and_then(Json::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Json::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    if rejected != want_rejected {
        return Err(format!(
            "rejected f-variables {rejected:?}, expected {want_rejected:?}"
        ));
    }
    let compiled = fics::MatchFormula::compile(formula, FileId(0), &fvars);
    if expect.as_str() == Some("error") {
        let want = vector.get("error_code").and_then(Json::as_str);
        return match compiled {
            Ok(_) => Err(format!("compiled, expected {}", want.unwrap_or("an error"))),
            Err(diags) => {
                let got = diags
                    .first()
                    .and_then(|d| fics::ErrorClass::of_code(d.code))
                    .map(fics::ErrorClass::reference_name);
                match want {
                    Some(w) if got != Some(w) => Err(format!(
                        "error class {}, expected {w} ({})",
                        got.unwrap_or("?"),
                        codes(&diags)
                    )),
                    _ => Ok(()),
                }
            }
        };
    }
    let want = expect
        .as_i64()
        .ok_or_else(|| format!("unexpected `expect` {expect}"))?;
    let formula = compiled.map_err(|d| format!("rejected: {}", codes(&d)))?;
    let ev = formula
        .evaluate(&request)
        .map_err(|d| format!("evaluation failed: {}", d.message))?;
    if i64::from(ev.value) != want {
        return Err(format!("value {}, expected {want}", ev.value));
    }
    if let Some(accept) = vector.get("accept").and_then(Json::as_bool) {
        if ev.accepted() != accept || formula.accepts(&request) != accept {
            return Err(format!("accepted {}, expected {accept}", ev.accepted()));
        }
    }
    let notices = vector
        .get("div_by_zero_notices")
        .and_then(Json::as_u64)
        .unwrap_or(0);
    if ev.divisions_by_zero.len() as u64 != notices {
        return Err(format!(
            "{} division-by-zero notices, expected {notices}",
            ev.divisions_by_zero.len()
        ));
    }
    Ok(())
}

fn run_icc(formula: &str, context: &Json, expect: &Json) -> Result<(), String> {
    let challenge: icc::Challenge =
        serde_json::from_value(context.clone()).map_err(|e| format!("bad context: {e}"))?;
    let compiled = icc::IccFormula::compile(formula, FileId(0))
        .map_err(|d| format!("rejected: {}", codes(&d)))?;
    let got = compiled
        .evaluate(&challenge)
        .map_err(|d| format!("evaluation failed: {}", d.message))?;
    let ok = match expect {
        // ICC: "0 is false and 1 is true" — a 0/1 number term reads as a truth value too.
        Json::Bool(b) => {
            let truthy = got.ty == crate::dialect::core::Ty::Bool || matches!(got.value, 0 | 1);
            truthy && (got.value != 0) == *b
        }
        Json::Number(n) => n.as_i64() == Some(i64::from(got.value)),
        _ => return Err(format!("unexpected `expect` {expect}")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!("got {got}, expected {expect}"))
    }
}

fn run_untermud(formula: &str, context: &Json, expect: &Json) -> Result<(), String> {
    let world: untermud::World = serde_json::from_value(
        context
            .get("world")
            .cloned()
            .ok_or("context has no `world`")?,
    )
    .map_err(|e| format!("bad world: {e}"))?;
    let compiled = untermud::Lock::compile(formula, FileId(0), &world);
    match context.get("mode").and_then(Json::as_str) {
        Some("set") => match (compiled, expect.as_str()) {
            (Err(_), Some("error")) => Ok(()),
            (Ok(lock), Some("error")) => Err(format!("accepted as `{}`, expected an error", lock)),
            (Ok(lock), Some(want)) if lock.to_string() == want => Ok(()),
            (Ok(lock), _) => Err(format!("rewritten as `{lock}`, expected {expect}")),
            (Err(d), _) => Err(format!("rejected: {}", codes(&d))),
        },
        Some("eval") => {
            let lock = compiled.map_err(|d| format!("rejected: {}", codes(&d)))?;
            let actor = context
                .get("actor")
                .and_then(Json::as_str)
                .ok_or("context has no `actor`")?;
            let want = expect.as_bool().ok_or("`expect` is not a boolean")?;
            let got = lock.evaluate(&world, actor);
            if got == want {
                Ok(())
            } else {
                Err(format!("got {got}, expected {want}"))
            }
        }
        other => Err(format!("unknown mode {other:?}")),
    }
}
