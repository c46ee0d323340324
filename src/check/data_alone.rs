//! What the data alone decides, solved at check time.
//!
//! Every character starts from the same state: the GLOBALMODIFIER lines in force on the
//! global instance, every variable at its format's DEFAULTVARIABLEVALUE. That state is built
//! once per load set with the runtime itself ([`Character::new`]), so the check reports
//! exactly what the runtime would:
//!
//! * a **cycle among GLOBALMODIFIER lines** exists for every character: reported as the
//!   solver reports it (`S0101` error when the values do not settle, `S0102` warning when
//!   they do);
//! * an **evaluation failure** (`E01xx`, `S0103`: division by zero, overflow, a lookup key
//!   not in its table) of a variable whose value no character can change — a global set
//!   only by GLOBALMODIFIER lines whose formulas read only such variables (no channel, no
//!   variable an object modifies; see [`independent`]) — happens for every character:
//!   reported as an error at the failing modifier. A failure of a variable that objects or
//!   inputs also feed is not reported here: a character's own data may avoid it.
//!
//! * an **evaluation failure of an object's own variable** whose value that object decides
//!   alone — set only by the object's own modifiers (and GLOBALMODIFIER MODIFYOTHER lines
//!   addressing it), reading only such variables of the object and independent globals (see
//!   [`decided`]) — happens for every character granted the object: the objects with such
//!   variables are granted together once, and each failure of a decided variable is an error
//!   at the failing modifier, noted "every character granted X has this". (Granting them
//!   together changes nothing a decided variable reads.) EQUIPMOD objects are left out:
//!   their modifiers act on the equipment part they are granted onto.
//!
//! Cycles that object modifiers close are found by [`super::object_cycles`].

use crate::character::Character;
use crate::diagnostic::Diagnostic;
use crate::fxhash::FxHashMap;
use crate::load::FileKind;
use crate::model::{
    Applies, Dataset, Modifier, ModifierValue, ObjectId, ObjectKind, ScopeId, VarId,
};
use crate::source::Span;
use std::sync::Arc;

/// Solves what `dataset` decides without a character, appends what that finds to
/// `diagnostics` (leaving out what the load reported already: the same code at the same
/// place), and hands the dataset back with the values of the [`independent`] variables a
/// GLOBALMODIFIER line sets (by [`VarId`], as PCGen writes them): what the data alone
/// decides, for the editor to show.
pub(super) fn check(
    dataset: Dataset,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Dataset, Vec<(VarId, String)>) {
    if dataset.modifiers.is_empty() {
        return (dataset, Vec::new());
    }
    let dataset = Arc::new(dataset);
    let (found, decided) = {
        let base = Character::new(Arc::clone(&dataset));
        let base_problems = base.problems();
        let independent = independent(&dataset);
        let mut found = globals(&dataset, &independent, &base_problems);
        found.extend(objects(&dataset, &independent, &base));
        found.extend(super::object_cycles::find(&dataset, &base, &base_problems));
        (found, decided_values(&dataset, &independent, &base))
    };
    let mut seen: std::collections::HashSet<(&str, Span)> =
        diagnostics.iter().map(|d| (d.code.id, d.span)).collect();
    let mut new = Vec::new();
    for d in found {
        if seen.insert((d.code.id, d.span)) {
            new.push(d);
        }
    }
    diagnostics.extend(new);
    let dataset = Arc::try_unwrap(dataset).unwrap_or_else(|shared| (*shared).clone());
    (dataset, decided)
}

/// The values of the [`independent`] variables some GLOBALMODIFIER line sets, in the
/// character with nothing granted (every character's), sorted by [`VarId`].
fn decided_values(ds: &Dataset, independent: &[bool], base: &Character) -> Vec<(VarId, String)> {
    let mut set: Vec<VarId> = ds
        .modifiers
        .iter()
        .filter(|m| matches!(m.applies, Applies::Global))
        .map(|m| m.variable)
        .filter(|v| independent.get(v.0 as usize).copied().unwrap_or(false))
        .collect();
    set.sort_unstable_by_key(|v| v.0);
    set.dedup();
    set.into_iter()
        .filter_map(|id| {
            let v = ds.variables.get(id.0 as usize)?;
            Some((id, base.get_global(v.name.as_str())?.to_string()))
        })
        .collect()
}

/// The problems of the character with nothing granted that every character has: each cycle
/// among GLOBALMODIFIER lines, and each failed evaluation of an [`independent`] variable.
fn globals(ds: &Dataset, independent: &[bool], problems: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for d in problems {
        let code = d.code.id;
        if code == "S0101" || code == "S0102" {
            out.push(d.clone().with_note(
                "every character has this: GLOBALMODIFIER lines close the cycle, so \
                 `rulebook check` solves it",
            ));
            continue;
        }
        if !(code.starts_with('E') || code == "S0103") {
            // S02xx: a modifier or variable the load already reported with its own code.
            continue;
        }
        // The GLOBALMODIFIER line whose formula failed, and the variable it sets.
        let Some(m) = ds.global_modifiers().find(|m| contains(m.span, d.span)) else {
            continue;
        };
        if !independent
            .get(m.variable.0 as usize)
            .copied()
            .unwrap_or(false)
        {
            continue;
        }
        let name = ds
            .variable(m.variable)
            .map(|v| v.name.to_string())
            .unwrap_or_default();
        out.push(d.clone().with_note(format!(
            "every character has this: `{name}` is set only by GLOBALMODIFIER lines from \
             defaults and data, so `rulebook check` solves it"
        )));
    }
    out
}

/// Whether `outer` holds `inner` (same file, byte range within).
fn contains(outer: Span, inner: Span) -> bool {
    outer.file == inner.file && outer.start <= inner.start && inner.end <= outer.end
}

/// The variables whose value no character can change, indexed by [`VarId`]: global
/// variables that are not channels, that no object modifier and no MODIFYOTHER sets, whose
/// every modifier is a GLOBALMODIFIER line that checked clean and reads only such
/// variables (`lookup`, `getFact` and `get` read data; `input` reads a channel, which a
/// character sets).
pub(super) fn independent(ds: &Dataset) -> Vec<bool> {
    let mut yes: Vec<bool> = ds
        .variables
        .iter()
        .map(|v| v.scope == ScopeId::GLOBAL && !v.origin.is_channel())
        .collect();
    for m in &ds.modifiers {
        let clean = match &m.value {
            ModifierValue::Constant(_) => true,
            ModifierValue::Formula(f) => f.compiled.is_some(),
        };
        if !matches!(m.applies, Applies::Global) || !clean {
            unset(&mut yes, m.variable);
        }
    }
    // Whatever reads a variable a character can change can change too: spread from each
    // such variable to those its readers set (a worklist, so a chain of 100,000 globals is
    // one pass, not one pass per link).
    let mut set_by_readers: FxHashMap<u32, Vec<VarId>> = FxHashMap::default();
    for m in ds.global_modifiers() {
        let ModifierValue::Formula(f) = &m.value else {
            continue;
        };
        let Some(c) = &f.compiled else { continue };
        for r in c.dependencies() {
            set_by_readers.entry(r.0).or_default().push(m.variable);
        }
    }
    let mut work: Vec<u32> = set_by_readers
        .keys()
        .copied()
        .filter(|&r| !yes.get(r as usize).copied().unwrap_or(false))
        .collect();
    while let Some(r) = work.pop() {
        for &v in set_by_readers.get(&r).map_or(&[][..], Vec::as_slice) {
            if unset(&mut yes, v) {
                work.push(v.0);
            }
        }
    }
    yes
}

/// Marks `v` as not independent; true when it was.
fn unset(yes: &mut [bool], v: VarId) -> bool {
    yes.get_mut(v.0 as usize)
        .is_some_and(|x| std::mem::replace(x, false))
}

/// The object instances a modifier acts on when its target is a local variable of theirs,
/// with whether the modifier is in force by that object alone: an object's own MODIFY or
/// `PART:n` (not an EQUIPMOD's, which acts on the part it is granted onto), a MODIFYOTHER of
/// a GLOBALMODIFIER file, or one of the object itself; a MODIFYOTHER of another object
/// needs that object too. Written to `out` (emptied first): it is asked for every modifier,
/// and most act on one object or none.
fn local_places(ds: &Dataset, m: &Modifier, out: &mut Vec<(ObjectId, bool)>) {
    out.clear();
    if ds
        .variable(m.variable)
        .is_none_or(|v| v.scope == ScopeId::GLOBAL)
    {
        return;
    }
    let live = |o: ObjectId| ds.object_by_id(o).filter(|o| !o.forgotten);
    match &m.applies {
        Applies::Global => {}
        Applies::Own | Applies::Part(_) => out.extend(
            m.source
                .and_then(live)
                .filter(|o| o.kind != ObjectKind::File(FileKind::EquipMod))
                .map(|o| (o.id, true)),
        ),
        Applies::Other { .. } => {
            if m.source.is_some_and(|s| live(s).is_none()) {
                return;
            }
            out.extend(
                super::object_cycles::addressed(ds, m)
                    .into_iter()
                    .map(|t| (t, m.source.is_none_or(|s| s == t))),
            );
        }
    }
}

/// The local variables of objects whose value the object decides alone, by (variable,
/// object): every modifier that can set it there is in force by the object alone, checked
/// clean, and reads only channels-free variables the object decides and [`independent`]
/// globals. A local variable no modifier sets keeps its default (decided, unless a
/// channel).
fn decided(ds: &Dataset, independent: &[bool]) -> FxHashMap<(VarId, ObjectId), bool> {
    let mut yes: FxHashMap<(VarId, ObjectId), bool> = FxHashMap::default();
    let mut places: Vec<(&Modifier, ObjectId)> = Vec::new();
    let mut at = Vec::new();
    for m in &ds.modifiers {
        let clean = match &m.value {
            ModifierValue::Constant(_) => true,
            ModifierValue::Formula(f) => f.compiled.is_some(),
        };
        local_places(ds, m, &mut at);
        for &(o, alone) in &at {
            let entry = yes.entry((m.variable, o)).or_insert(true);
            *entry &= alone && clean;
            if alone {
                places.push((m, o));
            }
        }
    }
    // A place is undecided when its modifier reads a channel, an unknown variable or a
    // global a character can change; or (spread with a worklist, one pass however long the
    // chains) a local variable of the same object that is undecided.
    let mut readers: FxHashMap<(VarId, ObjectId), Vec<(VarId, ObjectId)>> = FxHashMap::default();
    let mut work: Vec<(VarId, ObjectId)> = yes
        .iter()
        .filter(|(_, ok)| !**ok)
        .map(|(k, _)| *k)
        .collect();
    for &(m, o) in &places {
        let ModifierValue::Formula(f) = &m.value else {
            continue;
        };
        let Some(c) = &f.compiled else { continue };
        let target = (m.variable, o);
        let mut static_ok = true;
        for r in c.dependencies() {
            let v = VarId(r.0);
            match ds.variable(v) {
                None => static_ok = false,
                Some(var) if var.origin.is_channel() => static_ok = false,
                Some(var) if var.scope == ScopeId::GLOBAL => {
                    static_ok &= independent.get(v.0 as usize).copied().unwrap_or(false);
                }
                Some(_) => readers.entry((v, o)).or_default().push(target),
            }
        }
        if !static_ok && yes.insert(target, false) == Some(true) {
            work.push(target);
        }
    }
    while let Some(n) = work.pop() {
        for &t in readers.get(&n).map_or(&[][..], Vec::as_slice) {
            if let Some(ok) = yes.get_mut(&t)
                && std::mem::replace(ok, false)
            {
                work.push(t);
            }
        }
    }
    yes
}

/// The failures of object variables their object decides alone (see [`decided`]), found by
/// granting the objects that have such variables to a copy of `base`.
fn objects(ds: &Dataset, independent: &[bool], base: &Character) -> Vec<Diagnostic> {
    let decided = decided(ds, independent);
    // The modifiers that set a decided variable, by the object they act on.
    let mut watched: Vec<(&Modifier, ObjectId)> = Vec::new();
    let mut at = Vec::new();
    for m in &ds.modifiers {
        local_places(ds, m, &mut at);
        for &(o, alone) in &at {
            if alone && decided.get(&(m.variable, o)).copied().unwrap_or(false) {
                watched.push((m, o));
            }
        }
    }
    if watched.is_empty() {
        return Vec::new();
    }
    let mut grant: Vec<ObjectId> = watched.iter().map(|&(_, o)| o).collect();
    grant.sort_unstable();
    grant.dedup();
    let mut c = base.clone();
    c.grant_all(&grant);
    // The watched modifiers by span (sorted; the first watched entry of each span), to find
    // the one a problem lies in with a binary search: modifier spans do not overlap.
    let mut first_of_span: FxHashMap<Span, usize> = FxHashMap::default();
    for (i, (m, _)) in watched.iter().enumerate() {
        first_of_span.entry(m.span).or_insert(i);
    }
    let mut spans: Vec<Span> = first_of_span.keys().copied().collect();
    spans.sort_unstable();
    let mut out = Vec::new();
    for d in c.problems() {
        let code = d.code.id;
        if !(code.starts_with('E') || code == "S0103") {
            continue;
        }
        let before = spans.partition_point(|s| (s.file, s.start) <= (d.span.file, d.span.start));
        let Some(&span) = before.checked_sub(1).and_then(|i| spans.get(i)) else {
            continue;
        };
        if !contains(span, d.span) {
            continue;
        }
        // A MODIFYOTHER of a GLOBALMODIFIER file acts on several objects: its failure is
        // the data's alone only when every object it acts on decides the variable.
        let Some(&(m, o)) = first_of_span.get(&span).and_then(|&i| watched.get(i)) else {
            continue;
        };
        local_places(ds, m, &mut at);
        if at
            .iter()
            .any(|&(t, alone)| !alone || !decided.get(&(m.variable, t)).copied().unwrap_or(false))
        {
            continue;
        }
        let var = ds
            .variable(m.variable)
            .map(|v| v.name.to_string())
            .unwrap_or_default();
        let object = super::object_cycles::object_name(ds, o);
        out.push(d.with_note(format!(
            "every character granted {object} has this: its `{var}` is set only by its own \
             modifiers from defaults and data, so `rulebook check` solves it"
        )));
    }
    out
}
