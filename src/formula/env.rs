//! A simple name → value environment implementing both [`CheckEnv`] and [`ValueEnv`]:
//! used by `rulebook eval`, the conformance runner, benches and tests. The real loader and
//! solver implement the traits over their own scoped stores.

use super::check::{CheckEnv, FunctionRef, VarRef};
use super::eval::{EvalError, NO_VALUE, ValueEnv};
use super::format::Format;
use super::function::FunctionRegistry;
use super::number::Number;
use super::value::Value;
use crate::fxhash::FxHasher;
use crate::name::Name;
use indexmap::IndexMap;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Global variables (each with an optional value), per-format defaults and user functions.
#[derive(Clone, Debug, Default)]
pub struct MapEnv {
    /// The variables by name (any ASCII case), in the order defined: a variable's index is
    /// its [`VarRef`].
    vars: IndexMap<Key, (Format, Option<Value>), BuildHasherDefault<FxHasher>>,
    defaults: HashMap<Format, Value>,
    /// User functions.
    pub functions: FunctionRegistry,
}

impl MapEnv {
    /// An empty environment without defaults.
    pub fn new() -> Self {
        Self::default()
    }

    /// An environment with PCGen's shipped defaults: NUMBER 0, BOOLEAN false, STRING empty,
    /// ORDEREDPAIR 0,0, DICE 0.
    pub fn with_pcgen_defaults() -> Self {
        let mut env = Self::new();
        for (f, v) in [
            (Format::Number, Value::Number(Number::ZERO)),
            (Format::Boolean, Value::Boolean(false)),
            (Format::String, Value::string("")),
            (
                Format::OrderedPair,
                Value::OrderedPair(Number::ZERO, Number::ZERO),
            ),
            (
                Format::Dice,
                Value::Dice(super::dice::Dice {
                    quantity: 0,
                    sides: 1,
                    bonus: 0,
                }),
            ),
        ] {
            env.set_default(f, v);
        }
        env
    }

    /// Sets the default value of `format` (DEFAULTVARIABLEVALUE).
    pub fn set_default(&mut self, format: Format, value: Value) {
        self.defaults.insert(format, value);
    }

    /// Removes every default.
    pub fn clear_defaults(&mut self) {
        self.defaults.clear();
    }

    /// True if `format` has a value for unset variables (its default; arrays and optionals
    /// are empty by default).
    pub fn has_default(&self, format: &Format) -> bool {
        self.defaults.contains_key(format)
            || matches!(format, Format::Array(_) | Format::Optional(_))
    }

    /// Defines (or redefines) a variable; `value: None` = never set (reads the default).
    /// A redefinition keeps the first spelling and takes the new format and value.
    pub fn define(&mut self, name: &str, format: Format, value: Option<Value>) -> VarRef {
        let (i, _) = self.vars.insert_full(Key(Name::new(name)), (format, value));
        VarRef(u32::try_from(i).unwrap_or(u32::MAX))
    }

    /// The index and format of the variable called `name` (any ASCII case).
    fn find(&self, name: &str) -> Option<(usize, &Format)> {
        let (i, _, (format, _)) = self.vars.get_full(&KeyStr(name))?;
        Some((i, format))
    }

    /// Sets the value of a defined variable.
    pub fn set(&mut self, var: VarRef, value: Value) {
        if let Some((_, (_, v))) = self.vars.get_index_mut(var.0 as usize) {
            *v = Some(value);
        }
    }

    /// The variable's format.
    pub fn format_of(&self, var: VarRef) -> Option<&Format> {
        self.vars.get_index(var.0 as usize).map(|(_, (f, _))| f)
    }
}

/// A variable name as [`MapEnv`]'s key: equal to the names it equals without regard to
/// ASCII case (as [`Name`]), and hashed so.
#[derive(Clone, Debug)]
struct Key(Name);

/// A name looked up in [`MapEnv`] without making a [`Key`] of it.
struct KeyStr<'a>(&'a str);

/// Hashes `name` as its ASCII lower case.
fn hash_folded<H: Hasher>(name: &str, state: &mut H) {
    state.write_usize(name.len());
    for b in name.bytes() {
        state.write_u8(b.to_ascii_lowercase());
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_folded(self.0.as_str(), state);
    }
}

impl Hash for KeyStr<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        hash_folded(self.0, state);
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str().eq_ignore_ascii_case(other.0.as_str())
    }
}

impl Eq for Key {}

impl indexmap::Equivalent<Key> for KeyStr<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.0.eq_ignore_ascii_case(key.0.as_str())
    }
}

impl CheckEnv for MapEnv {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        let (i, f) = self.find(name)?;
        let f = match f {
            Format::Number => Format::Number,
            Format::Boolean => Format::Boolean,
            other => other.clone(),
        };
        Some((VarRef(u32::try_from(i).ok()?), f))
    }

    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        self.functions.get(name).map(FunctionRef::User)
    }

    fn variable_names(&self) -> Vec<Name> {
        self.vars.keys().map(|k| k.0.clone()).collect()
    }

    fn function_names(&self) -> Vec<Name> {
        self.functions.names().map(Name::new).collect()
    }
}

impl ValueEnv for MapEnv {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        let Some((name, (format, value))) = self.vars.get_index(var.0 as usize) else {
            return Err(EvalError::new(NO_VALUE, format!("no variable #{}", var.0)));
        };
        if let Some(v) = value {
            return Ok(v.clone());
        }
        if let Some(d) = self.defaults.get(format) {
            return Ok(d.clone());
        }
        match format {
            Format::Array(_) => Ok(Value::Array(Vec::new().into())),
            Format::Optional(_) => Ok(Value::Optional(None)),
            _ => Err(EvalError::new(
                NO_VALUE,
                format!(
                    "`{}` has no value and {format} has no default value",
                    name.0
                ),
            )),
        }
    }

    #[inline]
    fn boolean(&self, var: VarRef) -> Result<bool, EvalError> {
        if let Some((_, (_, Some(Value::Boolean(b))))) = self.vars.get_index(var.0 as usize) {
            return Ok(*b);
        }
        self.boolean_slow(var)
    }

    #[inline]
    fn int(&self, var: VarRef) -> Option<i64> {
        match self.vars.get_index(var.0 as usize) {
            Some((_, (_, Some(Value::Number(Number::Int(i)))))) => Some(*i),
            _ => None,
        }
    }

    #[inline]
    fn number(&self, var: VarRef) -> Result<Number, EvalError> {
        if let Some((_, (_, Some(Value::Number(n))))) = self.vars.get_index(var.0 as usize) {
            return Ok(*n);
        }
        self.number_slow(var)
    }
}

impl MapEnv {
    /// [`ValueEnv::boolean`] of a variable without a stored BOOLEAN (default or error).
    #[inline(never)]
    fn boolean_slow(&self, var: VarRef) -> Result<bool, EvalError> {
        match self.value(var)? {
            Value::Boolean(b) => Ok(b),
            other => Err(EvalError::new(
                NO_VALUE,
                format!("expected a BOOLEAN, found a {}", other.kind()),
            )),
        }
    }

    /// [`ValueEnv::number`] of a variable without a stored NUMBER (default or error).
    #[inline(never)]
    fn number_slow(&self, var: VarRef) -> Result<Number, EvalError> {
        match self.value(var)? {
            Value::Number(n) => Ok(n),
            other => Err(EvalError::new(
                NO_VALUE,
                format!("expected a NUMBER, found a {}", other.kind()),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_ups_follow_redefinitions() {
        let mut env = MapEnv::new();
        let v = env.define("Flag", Format::Number, None);
        env.define("Text", Format::String, None);
        assert_eq!(env.variable("flag"), Some((v, Format::Number)));
        env.define("FLAG", Format::Boolean, None);
        assert_eq!(env.variable("Flag"), Some((v, Format::Boolean)));
        assert_eq!(env.variable("Nope"), None);
    }

    #[test]
    fn names_are_found_in_any_case_and_only_their_own() {
        let mut env = MapEnv::new();
        let names = [
            "a",
            "Ab",
            "abc",
            "Score",
            "RaceIsLong",
            "t01",
            "Ability Score Strength",
        ];
        for n in names {
            env.define(n, Format::Number, None);
        }
        for (i, n) in names.iter().enumerate() {
            let want = Some((VarRef(i as u32), Format::Number));
            assert_eq!(env.variable(n), want, "{n}");
            assert_eq!(env.variable(&n.to_ascii_uppercase()), want, "{n}");
            assert_eq!(env.variable(&n.to_ascii_lowercase()), want, "{n}");
        }
        for n in [
            "",
            "b",
            "A@",
            "abd",
            "Scor",
            "Ability Score Strengt",
            "t02",
            "t01 ",
        ] {
            assert_eq!(env.variable(n), None, "{n}");
        }
        // Redefining in another case keeps one variable.
        assert_eq!(env.define("SCORE", Format::Boolean, None), VarRef(3));
        assert_eq!(env.variable("score"), Some((VarRef(3), Format::Boolean)));
    }

    #[test]
    fn ten_thousand_names_are_all_found() {
        let mut env = MapEnv::new();
        for i in 0..10_000 {
            env.define(&format!("S{i}"), Format::Number, None);
        }
        for i in 0..10_000u32 {
            assert_eq!(env.variable(&format!("s{i}")).map(|v| v.0), Some(VarRef(i)));
        }
        assert_eq!(env.variable("s10000"), None);
        let clone = env.clone();
        assert_eq!(clone.variable("S9999").map(|v| v.0), Some(VarRef(9999)));
        assert_eq!(MapEnv::new().variable("x"), None);
    }
}
