//! Runner for PCGen `scopes` and `solver` vectors (see `shared/conformance/README.md`).
//!
//! * `solver` vectors: every step adds or removes one modifier in a [`Solver`] of the
//!   vector's global variables, then solves; the step passes when it succeeded or failed as
//!   the reference did and every variable has the expected value.
//! * `scopes` vectors: scopes, variable definitions (with the reference's conflict rules),
//!   object instances and their per-instance values, then one formula evaluated in an
//!   instance.
//!
//! Comparison rules (README "What pass means"): a `rulebook` object replaces the reference's
//! expectations; NUMBERs compare exactly when the reference printed an Integer and within a
//! relative 1e-9 when it printed a Double; other formats compare as printed text (pair parts
//! as NUMBERs). Where the reference printed a non-finite Double (`Infinity`, `NaN`) the
//! README's policy applies — "division by zero and results out of range are evaluation
//! errors, never Infinity/NaN" — so rulebook must report an error for that step instead.

use super::scope::{ScopeId, Scopes, VariableDefs};
use crate::diagnostic::{Diagnostic, Severity};
use crate::formula::{CheckEnv, Format, Number, Value, ValueEnv, VarRef, check};
use crate::name::Name;
use crate::solve::formula_source::{FormulaSource, var_ref, variable_of};
use crate::solve::{Constant, Modifier, ModifierId, ModifierKind, Origin, Solver, VariableId};
use crate::source::FileId;
use rust_decimal::Decimal;
use serde_json::Value as Json;
use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Arc;

/// The array at `key` of a vector, or no items.
fn items<'a>(vector: &'a Json, key: &str) -> &'a [Json] {
    vector
        .get(key)
        .and_then(Json::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

/// Runs one scope or solver vector.
pub fn run(vector: &Json) -> Result<(), String> {
    match vector.get("topic").and_then(Json::as_str) {
        Some("scopes") => run_scopes(vector),
        _ => run_solver(vector),
    }
}

// ---------------------------------------------------------------------------------------
// Shared helpers

fn defaults(vector: &Json) -> Result<HashMap<String, Value>, String> {
    let mut out = HashMap::new();
    let table = match vector.get("defaults").and_then(Json::as_object) {
        Some(t) => t.clone(),
        None => {
            let mut m = serde_json::Map::new();
            for (k, v) in [
                ("NUMBER", "0"),
                ("STRING", ""),
                ("BOOLEAN", "false"),
                ("ORDEREDPAIR", "0,0"),
                ("DICE", "0"),
            ] {
                m.insert(k.into(), Json::String(v.into()));
            }
            m
        }
    };
    for (name, text) in &table {
        let format = Format::from_name(name).ok_or_else(|| format!("unknown format {name}"))?;
        let text = text.as_str().unwrap_or("");
        let value = format
            .parse_value(text)
            .map_err(|e| format!("default for {name}: {e}"))?;
        out.insert(format.to_string(), value);
    }
    Ok(out)
}

fn parse_format(text: &str) -> Result<Format, String> {
    Format::from_name(text).ok_or_else(|| format!("unknown format `{text}`"))
}

fn parse_expected_decimal(text: &str) -> Option<Decimal> {
    let t = text.trim();
    if t.contains(['E', 'e']) {
        Decimal::from_scientific(t).ok()
    } else {
        Decimal::from_str(t).ok()
    }
}

fn numbers_match(got: Number, expected: &str, double: bool) -> bool {
    let Some(want) = parse_expected_decimal(expected) else {
        return false;
    };
    let have = got.to_decimal();
    if !double {
        return have == want;
    }
    let diff = (have - want).abs();
    let scale = have.abs().max(want.abs());
    diff <= scale * Decimal::new(1, 9) || diff.is_zero()
}

/// True when `expected` is a non-finite Double the README's policy turns into an error.
fn non_finite(expected: &str) -> bool {
    matches!(expected.trim(), "Infinity" | "-Infinity" | "NaN")
}

fn value_matches(got: &Value, expected: &str, java_type: Option<&str>) -> bool {
    let double = java_type == Some("Double");
    match got {
        Value::Number(n) => numbers_match(*n, expected, double),
        Value::OrderedPair(x, y) => match expected.split_once(',') {
            Some((ex, ey)) => numbers_match(*x, ex, true) && numbers_match(*y, ey, true),
            None => false,
        },
        other => other.to_string() == expected,
    }
}

/// The category of an error diagnostic, as the vectors name them.
fn category(d: &Diagnostic) -> &'static str {
    let name = d.code.name;
    if d.code.id.starts_with('P') {
        if name.contains("empty") {
            "empty_formula"
        } else {
            "parse"
        }
    } else if name.contains("unknown-variable") {
        "unknown_variable"
    } else if name.contains("unknown-function") {
        "unknown_function"
    } else if name.contains("arity") || name.contains("argument-count") {
        "arity"
    } else if d.code.id.starts_with('E') {
        "eval"
    } else {
        "other"
    }
}

fn errors(ds: &[Diagnostic]) -> Vec<&Diagnostic> {
    ds.iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

fn summary(ds: &[&Diagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{} {}", d.code, d.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Names → solver variables, for the formula checker.
struct Names {
    by_name: HashMap<Name, (VariableId, Format)>,
}

impl CheckEnv for Names {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        self.by_name
            .get(&Name::new(name))
            .map(|(v, f)| (var_ref(*v), f.clone()))
    }
    fn variable_names(&self) -> Vec<Name> {
        self.by_name.keys().cloned().collect()
    }
}

fn compile(
    text: &str,
    env: &dyn CheckEnv,
    format: &Format,
    input: Option<&Format>,
) -> Result<FormulaSource, Vec<Diagnostic>> {
    let parsed = crate::formula::parse_formula(text, FileId(0), 0);
    let Some(formula) = parsed.formula else {
        return Err(parsed.diagnostics);
    };
    let compiled = check(&formula, env, format, input)?;
    Ok(FormulaSource::new(compiled, text))
}

// ---------------------------------------------------------------------------------------
// Solver vectors

fn build_modifier(step: &Json, names: &Names) -> Result<Modifier<Value>, String> {
    let var_name = step.get("var").and_then(Json::as_str).unwrap_or("");
    let (var, format) = names
        .by_name
        .get(&Name::new(var_name))
        .cloned()
        .ok_or_else(|| format!("unknown variable {var_name}"))?;
    let kind_text = step.get("kind").and_then(Json::as_str).unwrap_or("");
    let kind = ModifierKind::from_name(kind_text)
        .ok_or_else(|| format!("unknown modifier kind {format} {kind_text}"))?;
    let priority = match step.get("priority") {
        None | Some(Json::Null) => 0,
        Some(p) => {
            let n = p.as_i64().ok_or("PRIORITY is not a number")?;
            // The reference: an int, >= 0.
            let n = i32::try_from(n).map_err(|_| format!("PRIORITY {n} is not an integer"))?;
            u32::try_from(n).map_err(|_| format!("PRIORITY {n} must be >= 0"))?
        }
    };
    let text = step
        .get("instructions")
        .and_then(Json::as_str)
        .unwrap_or("");
    let source: Arc<dyn crate::solve::ValueSource<Value>> = if format == Format::Number {
        Arc::new(compile(text, names, &format, Some(&format)).map_err(|ds| summary(&errors(&ds)))?)
    } else {
        if kind != ModifierKind::Set {
            return Err(format!("unknown modifier kind {format} {kind}"));
        }
        let value = format.parse_value(text)?;
        Arc::new(Constant {
            value,
            text: text.to_owned(),
        })
    };
    Ok(Modifier {
        var,
        kind,
        priority,
        source,
        origin: Origin::default(),
    })
}

fn run_solver(vector: &Json) -> Result<(), String> {
    let defaults = defaults(vector)?;
    let mut solver: Solver<Value> = Solver::new();
    let mut names = Names {
        by_name: HashMap::new(),
    };
    let mut declared: Vec<(String, VariableId)> = Vec::new();
    for v in items(vector, "vars") {
        let name = v.get("name").and_then(Json::as_str).unwrap_or("");
        let format = parse_format(v.get("format").and_then(Json::as_str).unwrap_or(""))?;
        let start = defaults
            .get(&format.to_string())
            .cloned()
            .ok_or_else(|| format!("no default for {format}"))?;
        let id = solver.add_variable(name, start);
        names.by_name.insert(Name::new(name), (id, format));
        declared.push((name.to_owned(), id));
    }
    let mut labels: HashMap<String, ModifierId> = HashMap::new();
    let steps = items(vector, "steps");
    let mut failures = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let op = step.get("op").and_then(Json::as_str).unwrap_or("");
        let outcome: Result<(), String> = match op {
            "add" => match build_modifier(step, &names) {
                Ok(m) => match solver.add_modifier(m) {
                    Some(id) => {
                        if let Some(l) = step.get("label").and_then(Json::as_str) {
                            labels.insert(l.to_owned(), id);
                        }
                        let report = solver.solve();
                        let errs = errors(&report.diagnostics);
                        if errs.is_empty() {
                            Ok(())
                        } else {
                            Err(summary(&errs))
                        }
                    }
                    None => Err("the solver refused the modifier".into()),
                },
                Err(e) => Err(e),
            },
            "remove" => {
                if let Some(id) = step
                    .get("label")
                    .and_then(Json::as_str)
                    .and_then(|l| labels.get(l))
                {
                    solver.remove_modifier(*id);
                }
                let report = solver.solve();
                let errs = errors(&report.diagnostics);
                if errs.is_empty() {
                    Ok(())
                } else {
                    Err(summary(&errs))
                }
            }
            other => return Err(format!("unknown step op `{other}`")),
        };
        let rb = step.get("rulebook");
        let mut expect_ok = rb
            .and_then(|r| r.get("expect_ok"))
            .or_else(|| step.get("expect_ok"))
            .and_then(Json::as_bool)
            .unwrap_or(true);
        let expected = rb
            .and_then(|r| r.get("expect_values"))
            .or_else(|| step.get("expect_values"))
            .and_then(Json::as_object);
        let reference_types = step.get("expect_values").and_then(Json::as_object);
        let mut value_problems = Vec::new();
        for (name, id) in &declared {
            let Some(want) = expected.and_then(|e| e.get(name)) else {
                continue;
            };
            let want_text = want.get("value").and_then(Json::as_str).unwrap_or("");
            let java_type = want
                .get("java_type")
                .or_else(|| {
                    reference_types
                        .and_then(|t| t.get(name))
                        .and_then(|t| t.get("java_type"))
                })
                .and_then(Json::as_str);
            if non_finite(want_text) {
                // README policy: an error instead of Infinity/NaN; the value is not compared.
                expect_ok = false;
                continue;
            }
            match solver.value(*id) {
                Some(got) if value_matches(got, want_text, java_type) => {}
                got => value_problems.push(format!(
                    "{name} = {} (expected {want_text})",
                    got.map(|g| g.to_string()).unwrap_or_default()
                )),
            }
        }
        match (&outcome, expect_ok) {
            (Ok(()), false) => failures.push(format!("step {i}: succeeded, expected an error")),
            (Err(e), true) => failures.push(format!("step {i}: unexpected error: {e}")),
            _ => {}
        }
        if !value_problems.is_empty() {
            failures.push(format!("step {i}: {}", value_problems.join(", ")));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join(" | "))
    }
}

// ---------------------------------------------------------------------------------------
// Scope vectors

/// An object instance of a scope.
struct Instance {
    name: String,
    scope: ScopeId,
    parent: Option<usize>,
}

/// The world of a scope vector: scopes, definitions, instances, and one solver variable per
/// (instance, definition).
struct World {
    scopes: Scopes,
    defs: VariableDefs,
    instances: Vec<Instance>,
    solver: Solver<Value>,
    vars: HashMap<(usize, ScopeId, Name), VariableId>,
    defaults: HashMap<String, Value>,
}

impl World {
    fn instance(&self, name: &str) -> Option<usize> {
        self.instances
            .iter()
            .position(|i| i.name.eq_ignore_ascii_case(name))
    }

    /// The solver variable `name` refers to from `instance`: the nearest definition up the
    /// scope tree, owned by the nearest instance (itself or an ancestor) of that scope.
    fn variable(&mut self, instance: usize, name: &str) -> Option<(VariableId, Format)> {
        let scope = self.instances.get(instance)?.scope;
        let (def_scope, format) = self.defs.resolve(&self.scopes, scope, name)?;
        let format = format.clone();
        let mut owner = instance;
        let mut guard = 0;
        while self.instances.get(owner)?.scope != def_scope {
            owner = self.instances.get(owner)?.parent?;
            guard += 1;
            if guard > self.instances.len() {
                return None;
            }
        }
        let key = (owner, def_scope, Name::new(name));
        if let Some(&v) = self.vars.get(&key) {
            return Some((v, format));
        }
        let start = self.defaults.get(&format.to_string())?.clone();
        let label = format!("{}.{name}", self.instances.get(owner)?.name);
        let v = self.solver.add_variable(label, start);
        self.vars.insert(key, v);
        Some((v, format))
    }
}

/// Check environment of one instance (all names resolvable from it were materialised).
struct InstanceNames(HashMap<Name, (VariableId, Format)>);

impl CheckEnv for InstanceNames {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        self.0
            .get(&Name::new(name))
            .map(|(v, f)| (var_ref(*v), f.clone()))
    }
}

struct SolverValues<'a>(&'a Solver<Value>);

impl ValueEnv for SolverValues<'_> {
    fn value(&self, var: VarRef) -> Result<Value, crate::formula::EvalError> {
        self.0.value(variable_of(var)).cloned().ok_or_else(|| {
            crate::formula::EvalError::new(crate::formula::eval::NO_VALUE, "unknown variable")
        })
    }
}

fn run_scopes(vector: &Json) -> Result<(), String> {
    let mut world = World {
        scopes: Scopes::new(),
        defs: VariableDefs::new(),
        instances: Vec::new(),
        solver: Solver::new(),
        vars: HashMap::new(),
        defaults: defaults(vector)?,
    };
    // Scopes, parents first (the map may list a child before its parent).
    let table = vector
        .get("scopes")
        .and_then(Json::as_object)
        .cloned()
        .unwrap_or_default();
    let mut pending: Vec<(String, Option<String>)> = table
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned)))
        .collect();
    let mut global: Option<ScopeId> = None;
    while !pending.is_empty() {
        let before = pending.len();
        let mut rest = Vec::new();
        for (name, parent) in pending {
            let parent_id = match &parent {
                None => None,
                Some(p) => match world.scopes.lookup(p) {
                    Some(id) => Some(id),
                    None => {
                        rest.push((name, parent));
                        continue;
                    }
                },
            };
            let id = world.scopes.add(&name, parent_id)?;
            if parent_id.is_none() && global.is_none() {
                global = Some(id);
            }
        }
        if rest.len() == before {
            return Err("scope parents form a cycle or name unknown scopes".into());
        }
        pending = rest;
    }
    let global = global.ok_or("no global scope")?;
    let global_name = world
        .scopes
        .name(global)
        .map(|n| n.as_str().to_owned())
        .unwrap_or_default();
    world.instances.push(Instance {
        name: global_name,
        scope: global,
        parent: None,
    });

    let mut failures = Vec::new();
    // Definitions.
    let def_results = vector.get("def_results").and_then(Json::as_array);
    for (i, d) in items(vector, "defs").iter().enumerate() {
        let scope_name = d.get("scope").and_then(Json::as_str).unwrap_or("");
        let name = d.get("name").and_then(Json::as_str).unwrap_or("");
        let format = parse_format(d.get("format").and_then(Json::as_str).unwrap_or(""))?;
        let scope = world
            .scopes
            .lookup(scope_name)
            .ok_or_else(|| format!("unknown scope {scope_name}"))?;
        let ok = world
            .defs
            .define(&world.scopes, scope, name, format)
            .is_ok();
        let want_ok = def_results
            .and_then(|r| r.get(i))
            .and_then(Json::as_str)
            .is_none_or(|r| r == "ok");
        if ok != want_ok {
            failures.push(format!(
                "definition {i} ({scope_name}.{name}): ok={ok}, expected ok={want_ok}"
            ));
        }
    }
    // Objects.
    for o in items(vector, "objects") {
        let name = o.get("name").and_then(Json::as_str).unwrap_or("");
        let scope_name = o.get("scope").and_then(Json::as_str).unwrap_or("");
        let scope = world
            .scopes
            .lookup(scope_name)
            .ok_or_else(|| format!("unknown scope {scope_name}"))?;
        let parent = o
            .get("parent")
            .and_then(Json::as_str)
            .and_then(|p| world.instance(p));
        world.instances.push(Instance {
            name: name.to_owned(),
            scope,
            parent,
        });
    }
    // Values: a SET modifier on the instance's variable.
    let value_results = vector.get("value_results").and_then(Json::as_array);
    for (i, v) in items(vector, "values").iter().enumerate() {
        let object = v.get("object").and_then(Json::as_str).unwrap_or("");
        let name = v.get("name").and_then(Json::as_str).unwrap_or("");
        let text = v.get("value").and_then(Json::as_str).unwrap_or("");
        let result = world
            .instance(object)
            .and_then(|inst| world.variable(inst, name))
            .ok_or_else(|| format!("{object}.{name} is not defined"))
            .and_then(|(var, format)| {
                let value = format.parse_value(text)?;
                world.solver.add_modifier(Modifier {
                    var,
                    kind: ModifierKind::Set,
                    priority: 0,
                    source: Arc::new(Constant {
                        value,
                        text: text.to_owned(),
                    }),
                    origin: Origin::default(),
                });
                Ok(())
            });
        let want_ok = value_results
            .and_then(|r| r.get(i))
            .and_then(Json::as_str)
            .is_none_or(|r| r == "ok");
        if result.is_ok() != want_ok {
            failures.push(format!("value {i} ({object}.{name}): {result:?}"));
        }
    }
    let report = world.solver.solve();
    let errs = errors(&report.diagnostics);
    if !errs.is_empty() {
        failures.push(format!("solving the values failed: {}", summary(&errs)));
    }

    // The formula, in its instance.
    let at = vector
        .get("in")
        .and_then(|i| i.get("object"))
        .and_then(Json::as_str)
        .map(|o| {
            world
                .instance(o)
                .ok_or_else(|| format!("unknown object {o}"))
        })
        .transpose()?
        .unwrap_or(0);
    let scope = world.instances.get(at).map(|i| i.scope).unwrap_or(global);
    let visible: Vec<Name> = world
        .defs
        .iter()
        .filter(|(n, _, _)| {
            world
                .defs
                .resolve(&world.scopes, scope, n.as_str())
                .is_some()
        })
        .map(|(n, _, _)| n.clone())
        .collect();
    let mut env = HashMap::new();
    for n in visible {
        if let Some(x) = world.variable(at, n.as_str()) {
            env.insert(n, x);
        }
    }
    let format = parse_format(
        vector
            .get("format")
            .and_then(Json::as_str)
            .unwrap_or("NUMBER"),
    )?;
    let text = vector.get("formula").and_then(Json::as_str).unwrap_or("");
    let result = compile(text, &InstanceNames(env), &format, None).and_then(|src| {
        src.formula()
            .eval(&SolverValues(&world.solver), None)
            .map_err(|e| vec![e.to_diagnostic()])
    });
    match (result, vector.get("expect"), vector.get("expect_error")) {
        (Ok(got), Some(want), _) => {
            let want_text = want.get("value").and_then(Json::as_str).unwrap_or("");
            let java_type = want.get("java_type").and_then(Json::as_str);
            if !value_matches(&got, want_text, java_type) {
                failures.push(format!("got {got}, expected {want_text}"));
            }
        }
        (Ok(got), None, Some(cat)) => failures.push(format!("got {got}, expected an error {cat}")),
        (Err(ds), _, Some(cat)) => {
            let cat = cat.as_str().unwrap_or("");
            let errs = errors(&ds);
            if !errs
                .iter()
                .any(|d| category(d) == cat || cat.starts_with("eval") && category(d) == "eval")
            {
                failures.push(format!("expected a {cat} error, got: {}", summary(&errs)));
            }
        }
        (Err(ds), _, None) => failures.push(format!("unexpected error: {}", summary(&errors(&ds)))),
        (Ok(_), None, None) => failures.push("the vector expects nothing".into()),
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join(" | "))
    }
}
