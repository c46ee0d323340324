//! Granting and removing instances: an object granted becomes an instance with its own
//! modifiers in force (MODIFY on itself or its host, `PART:n` on a part instance,
//! MODIFYOTHER on every instance it addresses, now or later), the `GRANT:` objects granted
//! with it, and equipment parts; removing an instance takes all of that out of force again.

use super::{ActiveOther, Changes, Character, Instance, InstanceId, unknown_object};
use crate::diagnostic::Diagnostic;
use crate::model::{Applies, Dataset, ModId, ObjectId, ObjectKind, ScopeId, Selector};
use std::sync::Arc;

impl Character {
    /// Grants the object of `kind` with `key` (see [`Character::find_object`]).
    pub fn grant_key(&mut self, kind: &str, key: &str) -> Result<InstanceId, Box<Diagnostic>> {
        let id = self
            .find_object(kind, key)
            .ok_or_else(|| Box::new(unknown_object(kind, key)))?;
        Ok(self.grant(id))
    }

    /// Grants an object: a new instance with its own local variables; its modifiers come
    /// into force, and every MODIFYOTHER in force that addresses it applies to it. Solves.
    pub fn grant(&mut self, object: ObjectId) -> InstanceId {
        let inst = self.grant_inner(object, None, 0);
        self.solve();
        inst
    }

    /// Grants every object of the dataset once (dynamic objects, equipment, abilities, …)
    /// and solves once: the cycles and failures this reports exist in the data itself, so a
    /// loader or checker can report them at load, before any character is built.
    pub fn grant_everything(dataset: Arc<Dataset>) -> (Character, Vec<Diagnostic>) {
        let mut c = Character::new(Arc::clone(&dataset));
        for o in dataset.objects.iter().filter(|o| !o.forgotten) {
            c.grant_inner(o.id, None, 0);
        }
        c.solve();
        let problems = c.problems();
        (c, problems)
    }

    /// Grants each of `objects` (in order, each a new instance as [`Character::grant`]
    /// makes it) and solves once.
    pub fn grant_all(&mut self, objects: &[ObjectId]) -> Vec<InstanceId> {
        let instances = objects
            .iter()
            .map(|&o| self.grant_inner(o, None, 0))
            .collect();
        self.solve();
        instances
    }

    /// Grants `object` onto instance `host` — an equipment modifier onto a part of a granted
    /// equipment (`host` = [`Character::part`]): its MODIFYs apply to `host` when it has
    /// the object's scope (so `MODIFY:UpgradeSlotTaken|ADD|1` on an EQUIPMOD reaches the
    /// part's equipment), and it is removed with `host`. Solves.
    pub fn grant_to(&mut self, host: InstanceId, object: ObjectId) -> InstanceId {
        let inst = self.grant_inner(object, Some(host), 0);
        self.solve();
        inst
    }

    /// [`Character::grant`] / [`Character::grant_to`] without solving; `depth` bounds
    /// nested `GRANT:`s.
    pub(super) fn grant_inner(
        &mut self,
        object: ObjectId,
        host: Option<InstanceId>,
        depth: usize,
    ) -> InstanceId {
        let ds = Arc::clone(&self.dataset);
        let Some(obj) = ds.object_by_id(object) else {
            return InstanceId::GLOBAL;
        };
        let parent = host.unwrap_or(InstanceId::GLOBAL);
        let inst = self.new_instance(
            Some(object),
            obj.scope,
            parent,
            None,
            &ds.key_of(obj).to_string(),
        );
        if let Some(h) = host {
            if let Some(hi) = self.instances.get_mut(h.0 as usize) {
                hi.children.push(inst);
            }
        }
        // MODIFY targets: the host when it has the object's scope, else the object itself.
        let own_target = match host {
            Some(h)
                if self
                    .instances
                    .get(h.0 as usize)
                    .is_some_and(|i| i.scope == obj.scope) =>
            {
                h
            }
            _ => inst,
        };
        // Its own modifiers.
        for &mid in obj.modifiers() {
            let Some(m) = ds.modifier(mid) else { continue };
            match &m.applies {
                Applies::Global | Applies::Own => self.apply(inst, mid, own_target),
                Applies::Part(n) => {
                    let part = self.part_instance(inst, *n);
                    self.apply(inst, mid, part);
                }
                Applies::Other { .. } => {
                    self.others.push(ActiveOther {
                        source: inst,
                        modifier: mid,
                    });
                    let targets: Vec<InstanceId> = (0..self.instances.len())
                        .filter_map(|i| u32::try_from(i).ok().map(InstanceId))
                        .collect();
                    for t in targets {
                        self.apply_other_to(inst, mid, t);
                    }
                }
            }
        }
        // MODIFYOTHERs already in force that address the new instance.
        let active = self.others.clone();
        for a in active {
            if a.source != inst {
                self.apply_other_to(a.source, a.modifier, inst);
            }
        }
        // GRANT: dynamic objects.
        if depth < 16 {
            for g in obj.grants() {
                let target = g.object.or_else(|| {
                    ds.object(&ObjectKind::Dynamic(g.category.clone()), g.key.as_str())
                });
                if let Some(t) = target {
                    let child = self.grant_inner(t, None, depth + 1);
                    if let Some(i) = self.instances.get_mut(inst.0 as usize) {
                        i.children.push(child);
                    }
                }
            }
        }
        inst
    }

    /// A new live instance of `scope` under `parent` (an object's or a part's).
    fn new_instance(
        &mut self,
        object: Option<ObjectId>,
        scope: ScopeId,
        parent: InstanceId,
        part: Option<u32>,
        label: &str,
    ) -> InstanceId {
        let id = InstanceId(u32::try_from(self.instances.len()).unwrap_or(u32::MAX));
        self.instances.push(Instance {
            object,
            scope,
            parent: Some(parent),
            part,
            alive: true,
            parts: Vec::new(),
            children: Vec::new(),
            sourced: Vec::new(),
            received: Vec::new(),
            label: label.to_owned(),
        });
        id
    }

    /// The part instance `n` of equipment instance `inst` (created on first use).
    fn part_instance(&mut self, inst: InstanceId, n: u32) -> InstanceId {
        if let Some(&(_, p)) = self
            .instances
            .get(inst.0 as usize)
            .and_then(|i| i.parts.iter().find(|(k, _)| *k == n))
        {
            return p;
        }
        let scope = self
            .dataset
            .scopes
            .resolve("PC.EQUIPMENT.PART")
            .map_or(ScopeId::GLOBAL, |(s, _)| s);
        let label = format!(
            "{}.PART{n}",
            self.instances
                .get(inst.0 as usize)
                .map(|i| i.label.as_str())
                .unwrap_or("?")
        );
        let p = self.new_instance(None, scope, inst, Some(n), &label);
        if let Some(i) = self.instances.get_mut(inst.0 as usize) {
            i.parts.push((n, p));
        }
        p
    }

    /// Whether `selector` (of a MODIFYOTHER) picks instance `inst`.
    fn selector_matches(&self, selector: &Selector, inst: InstanceId) -> bool {
        let Some(i) = self.instances.get(inst.0 as usize) else {
            return false;
        };
        match selector {
            Selector::All => true,
            Selector::Key(k) => match i.object.and_then(|o| self.dataset.object_by_id(o)) {
                Some(o) => self.dataset.key_of(o) == k,
                None => i.part.is_some_and(|n| k.as_str() == n.to_string()),
            },
            Selector::Group(g) => i
                .object
                .and_then(|o| self.dataset.object_by_id(o))
                .is_some_and(|o| o.groups().contains(g)),
        }
    }

    /// Applies MODIFYOTHER `mid` of `source` to `target` if it addresses it.
    fn apply_other_to(&mut self, source: InstanceId, mid: ModId, target: InstanceId) {
        // Whether it addresses `target`, and its child selector, read through shared
        // borrows: most instances a MODIFYOTHER is offered are not addressed, and deciding
        // that touches no reference count.
        let child = {
            let Some(m) = self.dataset.modifier(mid) else {
                return;
            };
            let Applies::Other {
                scope,
                selector,
                child,
            } = &m.applies
            else {
                return;
            };
            let Some(t) = self.instances.get(target.0 as usize) else {
                return;
            };
            if !t.alive || t.part.is_some() || t.scope != *scope || t.object.is_none() {
                return;
            }
            if !self.selector_matches(selector, target) {
                return;
            }
            match child {
                None => None,
                Some(cs) => {
                    let parts: Vec<InstanceId> = t.parts.iter().map(|(_, p)| *p).collect();
                    Some((cs.clone(), parts))
                }
            }
        };
        match child {
            None => self.apply(source, mid, target),
            Some((cs, parts)) => {
                for p in parts {
                    if self.selector_matches(&cs, p) {
                        self.apply(source, mid, p);
                    }
                }
            }
        }
    }

    /// Removes a granted instance: its modifiers (including every MODIFYOTHER it applied to
    /// other objects) go out of force, modifiers other objects applied to it go with it, and
    /// the objects it granted are removed too. Solves.
    pub fn remove(&mut self, inst: InstanceId) -> Changes {
        if inst != InstanceId::GLOBAL {
            self.remove_inner(inst);
        }
        self.solve()
    }

    /// [`Character::remove`] without solving.
    pub(super) fn remove_inner(&mut self, inst: InstanceId) {
        let Some(i) = self.instances.get_mut(inst.0 as usize) else {
            return;
        };
        if !i.alive {
            return;
        }
        i.alive = false;
        let sourced = std::mem::take(&mut i.sourced);
        let received = std::mem::take(&mut i.received);
        let parts: Vec<InstanceId> = i.parts.iter().map(|(_, p)| *p).collect();
        let children = std::mem::take(&mut i.children);
        for id in sourced {
            self.solver.remove_modifier(id);
        }
        for (_, id) in received {
            self.solver.remove_modifier(id);
        }
        self.others.retain(|a| a.source != inst);
        // Its unusable modifiers, and those others' modifiers had on it, go with it.
        self.forget_problems_of(inst);
        for p in parts {
            self.remove_inner(p);
        }
        for c in children {
            self.remove_inner(c);
        }
    }

    /// Part `n` of an equipment instance, created if no modifier created it yet (to grant
    /// equipment modifiers onto it with [`Character::grant_to`]).
    pub fn ensure_part(&mut self, inst: InstanceId, n: u32) -> InstanceId {
        let p = self.ensure_part_inner(inst, n);
        self.solve();
        p
    }

    /// [`Character::ensure_part`] without solving.
    pub(super) fn ensure_part_inner(&mut self, inst: InstanceId, n: u32) -> InstanceId {
        if let Some(p) = self.part(inst, n) {
            return p;
        }
        let p = self.part_instance(inst, n);
        // MODIFYOTHERs in force that address the parts of this equipment reach the new part.
        let active = self.others.clone();
        for a in active {
            self.apply_other_to_part(a.source, a.modifier, inst, p);
        }
        p
    }

    /// Applies MODIFYOTHER `mid` (with a child selector) to part `part` of `equipment`.
    fn apply_other_to_part(
        &mut self,
        source: InstanceId,
        mid: ModId,
        equipment: InstanceId,
        part: InstanceId,
    ) {
        let ds = Arc::clone(&self.dataset);
        let Some(m) = ds.modifier(mid) else { return };
        let Applies::Other {
            scope,
            selector,
            child: Some(cs),
        } = &m.applies
        else {
            return;
        };
        let Some(e) = self.instances.get(equipment.0 as usize) else {
            return;
        };
        if e.alive
            && e.scope == *scope
            && self.selector_matches(selector, equipment)
            && self.selector_matches(cs, part)
        {
            self.apply(source, mid, part);
        }
    }

    /// Part `n` of an equipment instance, if any modifier created it.
    pub fn part(&self, inst: InstanceId, n: u32) -> Option<InstanceId> {
        self.instances
            .get(inst.0 as usize)?
            .parts
            .iter()
            .find(|(k, _)| *k == n)
            .map(|(_, p)| *p)
    }
}
