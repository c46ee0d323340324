//! A simple name → value environment implementing both [`CheckEnv`] and [`ValueEnv`]:
//! used by `rulebook eval`, the conformance runner, benches and tests. The real loader and
//! solver implement the traits over their own scoped stores.

use super::check::{CheckEnv, FunctionRef, NAME_BATCH, Scalar, VarRef};
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
    vars: IndexMap<Key, (Format, Option<Value>), BuildHasherDefault<FxHasher>>,
    /// The checker's name index over `vars`: open addressing with linear probing, a power
    /// of two slots at most half full, each empty (index `0`) or a variable with what a
    /// look-up compares and answers (so that a name spelt as defined is found by reading
    /// one slot, and a probe compares a long name only when the hashes agree). A few dozen
    /// instructions per look-up, where the general map took two hundred.
    slots: Vec<Slot>,
    defaults: HashMap<Format, Value>,
    /// User functions.
    pub functions: FunctionRegistry,
}

/// One place of [`MapEnv`]'s name index: a variable, with its name as one word
/// ([`gather`]) when it has at most eight bytes, its length and the scalar kind of its
/// format (sixteen bytes, so a look-up of a name spelt as defined reads this alone).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// `gather` of the name (names of more than eight bytes: 0).
    word: u64,
    /// The variable's index + 1; `0` for an empty slot.
    index: u32,
    /// The low bits of the name's [`fold_hash`].
    tag: u16,
    /// The name's length (up to 255).
    len: u8,
    /// The scalar kind of the variable's format.
    scalar: Option<Scalar>,
}

/// How many names [`MapEnv::number_batch`] hashes before it reads the index for any: a
/// whole batch of the one-pass check.
const BATCH: usize = NAME_BATCH;

/// The bits of a name's [`fold_hash`] kept in its [`Slot`].
#[inline]
fn tag_of(hash: u64) -> u16 {
    hash as u16
}

/// The [`Scalar`] kind of `format`, if it has one.
fn scalar(format: &Format) -> Option<Scalar> {
    match format {
        Format::Number => Some(Scalar::Number),
        Format::Boolean => Some(Scalar::Boolean),
        _ => None,
    }
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
    pub fn define(&mut self, name: &str, format: Format, value: Option<Value>) -> VarRef {
        let kind = scalar(&format);
        let (i, old) = self.vars.insert_full(Key(Name::new(name)), (format, value));
        if old.is_some() {
            // A redefinition keeps the first spelling and takes the new format.
            if let Some(slot) = self.slot_mut(i) {
                slot.scalar = kind;
            }
        } else if self.vars.len() * 2 > self.slots.len() {
            self.reindex();
        } else {
            self.slot_in(i);
        }
        VarRef(u32::try_from(i).unwrap_or(u32::MAX))
    }

    /// Rebuilds the name index with room for twice the variables.
    fn reindex(&mut self) {
        let size = (self.vars.len() * 2).next_power_of_two().max(16);
        self.slots = vec![Slot::default(); size];
        for i in 0..self.vars.len() {
            self.slot_in(i);
        }
    }

    /// Puts variable `i` in the name index.
    fn slot_in(&mut self, i: usize) {
        let Some((key, (format, _))) = self.vars.get_index(i) else {
            return;
        };
        let name = key.0.as_str().as_bytes();
        let hash = fold_hash(name);
        let filled = Slot {
            word: if name.len() <= 8 { gather(name) } else { 0 },
            index: u32::try_from(i + 1).unwrap_or(u32::MAX),
            tag: tag_of(hash),
            len: u8::try_from(name.len()).unwrap_or(u8::MAX),
            scalar: scalar(format),
        };
        let mask = self.slots.len().wrapping_sub(1);
        let mut at = slot_of(hash) & mask;
        while let Some(s) = self.slots.get_mut(at) {
            if s.index == 0 {
                *s = filled;
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /// The slot of variable `i` in the name index.
    fn slot_mut(&mut self, i: usize) -> Option<&mut Slot> {
        let (key, _) = self.vars.get_index(i)?;
        let mask = self.slots.len().checked_sub(1)?;
        let index = u32::try_from(i + 1).ok()?;
        let mut at = slot_of(fold_hash(key.0.as_str().as_bytes())) & mask;
        loop {
            match self.slots.get(at)?.index {
                0 => return None,
                x if x == index => return self.slots.get_mut(at),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The index and format of the variable called `name` (any ASCII case).
    #[inline]
    fn find(&self, name: &str) -> Option<(usize, &Format)> {
        let i = self.find_index(name)?;
        let (_, (format, _)) = self.vars.get_index(i)?;
        Some((i, format))
    }

    /// The index of the variable called `name` (any ASCII case).
    #[inline]
    fn find_index(&self, name: &str) -> Option<usize> {
        let mask = self.slots.len().checked_sub(1)?;
        let hash = fold_hash(name.as_bytes());
        let mut at = slot_of(hash) & mask;
        loop {
            let slot = *self.slots.get(at)?;
            let i = (slot.index as usize).checked_sub(1)?;
            if slot.tag == tag_of(hash) {
                if let Some((key, _)) = self.vars.get_index(i) {
                    if same_name(key.0.as_str(), name) {
                        return Some(i);
                    }
                }
            }
            at = (at + 1) & mask;
        }
    }

    /// The scalar variable named `bytes` when the name has at most eight bytes, found by its
    /// slot alone: `Some(None)` when no variable has the name (or its format is not a scalar
    /// one), `Some(Some(_))` when one is spelt so. `None` when the name is longer, or a
    /// variable with the name's hash but another spelling is met (the name written in
    /// another case, or a rare collision): then [`MapEnv::find_index`] decides.
    #[inline(always)]
    fn find_spelt_as_defined(&self, bytes: &[u8]) -> Option<Option<(VarRef, Scalar)>> {
        if bytes.len() > 8 {
            return None;
        }
        let word = gather(bytes);
        self.find_hashed(word, short_hash(word, bytes.len()), bytes.len())
    }

    /// [`MapEnv::find_spelt_as_defined`] of the name of `len` bytes (at most eight) whose
    /// [`gather`] is `word` and [`short_hash`] `hash`.
    #[inline(always)]
    fn find_hashed(&self, word: u64, hash: u64, len: usize) -> Option<Option<(VarRef, Scalar)>> {
        let mask = self.slots.len().checked_sub(1)?;
        let mut at = slot_of(hash) & mask;
        loop {
            let slot = *self.slots.get(at)?;
            let Some(i) = slot.index.checked_sub(1) else {
                return Some(None);
            };
            if slot.word == word && usize::from(slot.len) == len {
                return Some(slot.scalar.map(|s| (VarRef(i), s)));
            }
            if slot.tag == tag_of(hash) {
                return None;
            }
            at = (at + 1) & mask;
        }
    }

    /// [`CheckEnv::number_variables_ascii`] of at most [`BATCH`] names: the word and hash
    /// of each first, then the index read for each. A hash is a chain of multiplies; made
    /// before any slot is read, the batch's reads of the index are left waiting on nothing
    /// else, and overlap (5–7 % faster on the bench's 10,000-term sum than a look-up per
    /// name, with 5 % more instructions).
    fn number_batch(&self, text: &[u8], spans: &[(usize, usize)], vars: &mut [VarRef]) -> bool {
        if spans.len() > BATCH {
            return false;
        }
        // Of each name: its `gather` and `short_hash` (names of more than eight bytes: 0).
        let mut words = [0u64; BATCH];
        let mut hashes = [0u64; BATCH];
        for ((&(start, end), word), hash) in spans.iter().zip(&mut words).zip(&mut hashes) {
            let Some(name) = text.get(start..end) else {
                return false;
            };
            if name.len() <= 8 {
                *word = gather(name);
                *hash = short_hash(*word, name.len());
            }
        }
        for (((&(start, end), &word), &hash), var) in
            spans.iter().zip(&words).zip(&hashes).zip(vars)
        {
            // (Every span is in the text: checked above. The name itself is read again
            // only when its slot leaves it open.)
            let len = end.saturating_sub(start);
            let found = if len <= 8 {
                self.find_hashed(word, hash, len)
            } else {
                None
            };
            let found = match found {
                Some(found) => found,
                None => text
                    .get(start..end)
                    .and_then(|name| std::str::from_utf8(name).ok())
                    .and_then(|name| self.scalar_variable_compared(name)),
            };
            match found {
                Some((v, Scalar::Number)) => *var = v,
                _ => return false,
            }
        }
        true
    }

    /// [`CheckEnv::scalar_variable`] of a name that [`MapEnv::find_spelt_as_defined`] leaves
    /// open (long, or spelt otherwise), compared in full. Kept out of line, so that the
    /// short path saves no registers for it.
    #[inline(never)]
    fn scalar_variable_compared(&self, name: &str) -> Option<(VarRef, Scalar)> {
        let i = self.find_index(name)?;
        let (_, (format, _)) = self.vars.get_index(i)?;
        Some((VarRef(u32::try_from(i).ok()?), scalar(format)?))
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
/// ASCII case (as [`Name`]), hashed by [`fold_hash`] (a look-up per variable read is the
/// checker's hottest call on this environment).
#[derive(Clone, Debug)]
struct Key(Name);

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(fold_hash(self.0.as_str().as_bytes()));
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str().eq_ignore_ascii_case(other.0.as_str())
    }
}

impl Eq for Key {}

/// `a.eq_ignore_ascii_case(b)`, trying the same spelling first (the usual case: a formula
/// writes a name as it was defined), as two words for names of up to eight bytes.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    if x.len() != y.len() {
        return false;
    }
    if x.len() <= 8 {
        if gather(x) == gather(y) {
            return true;
        }
    } else if x == y {
        return true;
    }
    x.eq_ignore_ascii_case(y)
}

/// The bytes of a name of at most eight bytes as one word: the first and last four
/// (overlapping) from four bytes up, else bytes `0`, `n/2` and `n-1`. Among names of one
/// length, equal words mean equal bytes.
#[inline]
fn gather(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let le4 = |b: &[u8]| b.try_into().map_or(0, |w| u64::from(u32::from_le_bytes(w)));
    if n >= 4 {
        le4(bytes.get(..4).unwrap_or(&[])) | le4(bytes.get(n - 4..).unwrap_or(&[])) << 32
    } else {
        let at = |i: usize| u64::from(bytes.get(i).copied().unwrap_or(0));
        at(0) | at(n / 2) << 8 | at(n.saturating_sub(1)) << 16
    }
}

/// Where the name index starts probing for a name of [`fold_hash`] `hash`: its high half
/// (the multiply of the last round mixes every input bit into it).
#[inline]
fn slot_of(hash: u64) -> usize {
    (hash >> 32) as usize
}

/// A hash of `bytes` that names equal without regard to ASCII case share: every byte with
/// its `0x20` bit set (lower-casing ASCII letters, and merging a few other pairs, which
/// only costs a rare extra comparison), read eight bytes at a time, the last (up to) eight
/// as one word (overlapping, or gathered from three bytes for names under four), then the
/// length. A few instructions for the short names formulas use.
#[inline]
fn fold_hash(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n <= 8 {
        return short_hash(gather(bytes), n);
    }
    let mut h = 0u64;
    let mut rest = bytes;
    while rest.len() > 8 {
        let (w, r) = rest.split_at(8);
        h = fold_mix(h, w.try_into().map_or(0, u64::from_le_bytes));
        rest = r;
    }
    let last = bytes
        .get(n - 8..)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes);
    fold_mix(fold_mix(h, last), n as u64)
}

/// [`fold_hash`] of a name of `n` bytes, at most eight, whose [`gather`] is `word`.
#[inline]
fn short_hash(word: u64, n: usize) -> u64 {
    fold_mix(fold_mix(0, word), n as u64)
}

/// One round of [`fold_hash`]: the word with its `0x20` bits set, mixed into `h`.
#[inline]
fn fold_mix(h: u64, w: u64) -> u64 {
    const FOLD: u64 = 0x2020_2020_2020_2020;
    const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;
    (h.rotate_left(5) ^ (w | FOLD)).wrapping_mul(SEED)
}

impl CheckEnv for MapEnv {
    #[inline]
    fn scalar_variable(&self, name: &str) -> Option<(VarRef, Scalar)> {
        match self.find_spelt_as_defined(name.as_bytes()) {
            Some(found) => found,
            None => self.scalar_variable_compared(name),
        }
    }

    #[inline(always)]
    fn scalar_variable_ascii(&self, name: &[u8]) -> Option<(VarRef, Scalar)> {
        match self.find_spelt_as_defined(name) {
            Some(found) => found,
            None => self.scalar_variable_compared(std::str::from_utf8(name).ok()?),
        }
    }

    #[inline(never)]
    fn number_variables_ascii(
        &self,
        text: &[u8],
        spans: &[(usize, usize)],
        vars: &mut [VarRef],
    ) -> bool {
        if vars.len() < spans.len() {
            return false;
        }
        // One batch, as the one-pass check asks: called directly (through the chunks
        // below, the 10,000-term sum took 4 % more instructions, measured).
        if spans.len() <= BATCH {
            return self.number_batch(text, spans, vars);
        }
        spans
            .chunks(BATCH)
            .zip(vars.chunks_mut(BATCH))
            .all(|(spans, vars)| self.number_batch(text, spans, vars))
    }

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
    fn scalar_look_ups_follow_redefinitions() {
        let mut env = MapEnv::new();
        let v = env.define("Flag", Format::Number, None);
        env.define("Text", Format::String, None);
        assert_eq!(env.scalar_variable("flag"), Some((v, Scalar::Number)));
        env.define("FLAG", Format::Boolean, None);
        assert_eq!(env.scalar_variable("Flag"), Some((v, Scalar::Boolean)));
        assert_eq!(env.scalar_variable("Text"), None);
        assert_eq!(env.scalar_variable("Nope"), None);
    }

    /// [`MapEnv`] through the trait's own look-ups (it answers only `variable`).
    struct ByName<'a>(&'a MapEnv);

    impl CheckEnv for ByName<'_> {
        fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
            self.0.variable(name)
        }
        fn variable_names(&self) -> Vec<Name> {
            self.0.variable_names()
        }
        fn function_names(&self) -> Vec<Name> {
            Vec::new()
        }
    }

    #[test]
    fn a_batch_of_names_is_looked_up_as_each_name_is() {
        let mut env = MapEnv::new();
        for (name, format) in [
            ("a", Format::Number),
            ("Score", Format::Number),
            ("LongerThanEight", Format::Number),
            ("Flag", Format::Boolean),
            ("Text", Format::String),
        ] {
            env.define(name, format, None);
        }
        let text = b"a+SCORE-longerthaneight+score+Flag+Text+nope+a";
        // Each name's span in `text`, by its start.
        let span = |start: usize| {
            let end = text[start..]
                .iter()
                .position(|b| matches!(b, b'+' | b'-'))
                .map_or(text.len(), |n| start + n);
            (start, end)
        };
        let [a, score, long, score2, flag, string, nope, a2] =
            [0, 2, 8, 24, 30, 35, 40, 45].map(span);
        // The spans looked up, and the variables found (`None`: not all NUMBERs).
        type Case<'a> = (&'a [(usize, usize)], Option<[u32; 4]>);
        let cases: [Case; 8] = [
            (&[a, score, long, score2], Some([0, 1, 2, 1])),
            (&[a2, a, score, long], Some([0, 0, 1, 2])),
            (&[a, flag], None),
            (&[string], None),
            (&[score, nope], None),
            (&[], Some([9, 9, 9, 9])),
            // Beyond the text.
            (&[(45, 48)], None),
            // Too little room for the answers.
            (&[a, a, a, a, a], None),
        ];
        for (spans, want) in cases {
            for env in [&env as &dyn CheckEnv, &ByName(&env)] {
                let mut vars = [VarRef(9); 4];
                let found = env.number_variables_ascii(text, spans, &mut vars);
                assert_eq!(found, want.is_some(), "{spans:?}");
                if let Some(want) = want {
                    assert_eq!(vars, want.map(VarRef), "{spans:?}");
                }
            }
        }
        // More names than `MapEnv` hashes at once: looked up in batches, the last one's
        // failure seen.
        let many: Vec<(usize, usize)> = (0..40).map(|i| [a, score, long, score2][i % 4]).collect();
        let want: Vec<VarRef> = (0..40).map(|i| VarRef([0, 1, 2, 1][i % 4])).collect();
        for env in [&env as &dyn CheckEnv, &ByName(&env)] {
            let mut vars = vec![VarRef(9); 40];
            assert!(env.number_variables_ascii(text, &many, &mut vars));
            assert_eq!(vars, want);
            let mut wrong = many.clone();
            wrong[39] = nope;
            assert!(!env.number_variables_ascii(text, &wrong, &mut vars));
        }
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
            let scalar = Some((VarRef(i as u32), Scalar::Number));
            for spelling in [
                n.to_string(),
                n.to_ascii_uppercase(),
                n.to_ascii_lowercase(),
            ] {
                assert_eq!(env.scalar_variable(&spelling), scalar, "{spelling}");
                assert_eq!(
                    env.scalar_variable_ascii(spelling.as_bytes()),
                    scalar,
                    "{spelling}"
                );
            }
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
            assert_eq!(env.scalar_variable_ascii(n.as_bytes()), None, "{n}");
        }
        // Redefining in another case keeps one variable.
        assert_eq!(env.define("SCORE", Format::Boolean, None), VarRef(3));
        assert_eq!(env.variable("score"), Some((VarRef(3), Format::Boolean)));
    }

    #[test]
    fn the_hash_ignores_ascii_case_only() {
        for n in [
            "a",
            "ab",
            "abc",
            "abcd",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "a b c d e f g h i j",
        ] {
            assert_eq!(
                fold_hash(n.as_bytes()),
                fold_hash(n.to_ascii_uppercase().as_bytes())
            );
        }
        assert_ne!(fold_hash(b"s1"), fold_hash(b"s2"));
        assert_ne!(fold_hash(b"abc"), fold_hash(b"abcd"));
    }

    #[test]
    fn names_compare_exactly_without_regard_to_ascii_case() {
        let all = [
            "", "a", "b", "ab", "ba", "abc", "acb", "abcd", "abdc", "abcdefgh", "abcdefgi",
        ];
        for x in all {
            for y in all {
                assert_eq!(same_name(x, y), x == y, "{x} {y}");
                let up = y.to_ascii_uppercase();
                assert_eq!(same_name(x, &up), x == y, "{x} {up}");
            }
        }
    }

    #[test]
    fn ten_thousand_names_are_all_found_after_the_index_grew() {
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
