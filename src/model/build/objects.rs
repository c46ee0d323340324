//! DYNAMIC, GLOBALMODIFIER and object files: objects, their tokens, and references between them.

use super::object_lines::{Does, FactName, Form, NewKey, ObjectLine, ObjectLines, Pass};
use super::*;
use std::sync::Arc;

impl<'a> Builder<'a> {
    // ----- DYNAMIC and GLOBALMODIFIER -------------------------------------------------

    pub(super) fn dynamic_line(&mut self, line: &crate::load::Line) {
        let Some(first) = line.tokens.first().copied() else {
            return;
        };
        let text = self.text(first);
        let Some((cat, name)) = token_parts(text, first) else {
            return self.malformed(
                first,
                "expected `CATEGORY:Name`",
                "write e.g. `MOVEMENT:Walk`",
            );
        };
        self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
        let Some(scope) = self.dynamic_scope(cat) else {
            return;
        };
        let kind = ObjectKind::Dynamic(Name::new(cat.text.trim()));
        let name = name.trim();
        let id = self.new_object(kind, name.text, name.text, scope, first);
        for t in line.tokens.iter().skip(1) {
            self.object_token(id, *t, FileKind::Dynamic);
        }
    }

    pub(super) fn dynamic_scope(&mut self, cat: Slice<'_>) -> Option<ScopeId> {
        let cat_name = Name::new(cat.text.trim());
        let found = self
            .ds
            .scopes
            .iter()
            .find(|(_, s)| s.dynamic.as_ref() == Some(&cat_name))
            .map(|(i, _)| i);
        if found.is_none() {
            let cats: Vec<String> = self
                .ds
                .scopes
                .iter()
                .filter_map(|(_, s)| s.dynamic.as_ref().map(|d| d.to_string()))
                .collect();
            let written = cat.trim();
            self.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_CATEGORY,
                    cat.span,
                    format!("`{}` is not a DYNAMICSCOPE", written.text),
                )
                .with_label("no DYNAMICSCOPE of this name")
                .with_did_you_mean_or(
                    written.span,
                    closest(cat.text, cats.iter().map(String::as_str)),
                    format!("add `DYNAMICSCOPE:{}` to a DATACONTROL file", written.text),
                )
                .with_missing(written.text, MissingKind::DynamicScope),
            );
        }
        found
    }

    pub(super) fn global_modifier_line(&mut self, line: &crate::load::Line) {
        if line.tokens.len() > 1 {
            self.diags.push(
                Diagnostic::error(
                    lcodes::TAB_IN_GLOBAL_MODIFIER,
                    line.span,
                    "a GLOBALMODIFIER line holds one token",
                )
                .with_label("this line has a TAB; PCGen ignores all of it")
                .with_help("put each MODIFY or MODIFYOTHER on its own line"),
            );
            return;
        }
        let Some(first) = line.tokens.first().copied() else {
            return;
        };
        let text = self.text(first);
        match token_parts(text, first) {
            Some((k, v)) if k.text == "MODIFY" => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                if let Some(item) = self.modify_item(v) {
                    self.modifier(&item, ScopeId::GLOBAL, Applies::Global, None);
                }
            }
            Some((k, v)) if k.text == "MODIFYOTHER" => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                self.modify_other(v, None);
            }
            _ => self.unexpected(first, "GLOBALMODIFIER", "MODIFY: or MODIFYOTHER:"),
        }
    }

    // ----- object files ---------------------------------------------------------------

    pub(super) fn new_object(
        &mut self,
        kind: ObjectKind,
        key: &str,
        name: &str,
        scope: ScopeId,
        span: Span,
    ) -> ObjectId {
        let key = key.trim();
        let hash = crate::model::key_hash(key);
        let name = (name != key).then(|| Arc::from(name));
        self.new_named_object(kind, (Name::new(key), hash, KeyId::NONE), name, scope, span)
    }

    /// [`Builder::new_object`] with the key trimmed, its [`crate::model::key_hash`] and
    /// number (or [`KeyId::NONE`]) known and both shared (from the file cache); `name` is
    /// `None` when it is the key's spelling.
    pub(super) fn new_named_object(
        &mut self,
        kind: ObjectKind,
        (key, key_hash, key_id): (Name, u64, KeyId),
        name: Option<Arc<str>>,
        scope: ScopeId,
        span: Span,
    ) -> ObjectId {
        let hash = crate::model::KindHash::new(&kind).of(key_hash);
        let key = self.ds.push_own_key(key, name);
        let object = Object::new(kind, ObjectKey::Own(key), key_id, scope, span);
        let id = self.ds.push_object(object);
        self.index.insert_first(self.ds.indexed(), id, hash);
        id
    }

    /// [`Builder::new_object`] of `key` as key and name, with the key made and hashed
    /// before (once per file) when `made` is given.
    fn made_object(
        &mut self,
        kind: ObjectKind,
        made: Option<&NewKey>,
        key: &str,
        scope: ScopeId,
        span: Span,
    ) -> ObjectId {
        match made {
            Some(m) => {
                let key = (m.key.clone(), m.hash, m.id);
                self.new_named_object(kind, key, m.name.clone(), scope, span)
            }
            None => self.new_object(kind, key, key, scope, span),
        }
    }

    pub(super) fn line_form(kind: FileKind, first: &str) -> LineForm {
        let strip = |s: &str| -> String {
            let s = s.trim_end();
            let s = match kind {
                FileKind::Ability | FileKind::Feat => s
                    .strip_prefix("CATEGORY=")
                    .and_then(|r| r.split_once('|').map(|(_, k)| k))
                    .unwrap_or(s),
                _ => s,
            };
            let s = match s.split_once(':') {
                Some((p, rest)) if p.chars().all(|c| c.is_ascii_uppercase()) && !p.is_empty() => {
                    rest
                }
                _ => s,
            };
            s.to_owned()
        };
        if let Some(i) = find_copy(first).filter(|i| *i > 0) {
            let base = first.get(..i).unwrap_or("");
            let new = first.get(i + 6..).unwrap_or("");
            return LineForm::Copy(strip(base), new.trim().to_owned());
        }
        let t = first.trim_end();
        if let Some(k) = t.strip_suffix(".MOD").filter(|k| !k.is_empty()) {
            return LineForm::Mod(strip(k));
        }
        if let Some(k) = t.strip_suffix(".FORGET").filter(|k| !k.is_empty()) {
            return LineForm::Forget(strip(k));
        }
        LineForm::Base(strip(first))
    }

    pub(super) fn object_kind(&mut self, kind: FileKind) {
        let scope = self
            .ds
            .scopes
            .resolve(file_scope(kind))
            .map_or(ScopeId::GLOBAL, |(s, _)| s);
        let okind = ObjectKind::File(kind);
        let kind_hash = crate::model::KindHash::new(&okind);
        // Each file's lines as objects, worked out once per file and run (see `object_lines`).
        let files: Vec<(&'a LoadedFile, Arc<ObjectLines>)> = self
            .files(kind)
            .map(|f| (f, ObjectLines::of(&f.cached, kind)))
            .collect();
        // Only the objects the kind's deferred lines look up are indexed now.
        self.wanted.clear();
        for id in files.iter().flat_map(|(_, lines)| lines.looked_up.iter()) {
            self.wanted.want(*id);
        }
        // Each deferred line looks up one key and makes at most one object.
        let deferred_lines: usize = files.iter().map(|(_, lines)| lines.deferred).sum();
        self.index.reserve(deferred_lines.saturating_mul(2));
        // The shared lines (spans against the cache's file id): only the spans the model
        // keeps or reports are moved onto the load set's file. By pass, so that each
        // deferred line is read once.
        let passes = |at: usize| -> usize {
            files
                .iter()
                .map(|(_, lines)| lines.passes.get(at).copied().unwrap_or(0))
                .sum()
        };
        let mut copies = Vec::with_capacity(passes(Pass::Copy.index()));
        let mut mods = Vec::with_capacity(passes(Pass::Mod.index()));
        let mut forgets = Vec::with_capacity(passes(Pass::Forget.index()));
        for (f, lines) in &files {
            let f: &'a LoadedFile = f;
            let mut last: Option<ObjectId> = None;
            let keys = self.ds.push_object_lines(Arc::clone(lines));
            // Each line's head is read; the whole line only when its tokens, filter key or
            // deferred form are.
            for (i, (head, ol)) in lines.heads.iter().zip(&lines.lines).enumerate() {
                // The first token's span is kept with the object line: the shared line
                // (and its tokens, elsewhere in memory) is read only for the tokens the
                // model acts on.
                let first = f.lines.place(head.first);
                match head.does {
                    Does::Continue => {
                        if let Some(id) = last.filter(|_| head.acts) {
                            self.object_tokens(id, f, ol, kind);
                        }
                    }
                    Does::Make => {
                        let filtered = f.filter.is_some()
                            && !passes_filter(&f.filter, ol.form.filter_key().unwrap_or(""));
                        if filtered {
                            self.filtered_facts(f, ol, kind);
                            last = None;
                            continue;
                        }
                        // The key and name stay in the cache's object lines.
                        let line = u32::try_from(i).unwrap_or(u32::MAX);
                        let key = ObjectKey::Cached { lines: keys, line };
                        let object = Object::new(okind.clone(), key, head.key_id, scope, first);
                        let id = self.ds.push_object(object);
                        if self.wanted.contains(head.key_id) {
                            let hash = kind_hash.of(head.key_hash);
                            self.index.insert_first(self.ds.indexed(), id, hash);
                        }
                        last = Some(id);
                        if head.acts {
                            self.object_tokens(id, f, ol, kind);
                        }
                    }
                    Does::Defer(pass) => {
                        last = None;
                        let lines: &mut Vec<(&'a LoadedFile, Span, &ObjectLine)> = match pass {
                            Pass::Copy => &mut copies,
                            Pass::Mod => &mut mods,
                            Pass::Forget => &mut forgets,
                        };
                        lines.push((f, first, ol));
                    }
                }
            }
        }
        // PCGen order: copies, then mods, then forgets (each pass holds its own lines).
        for deferred in [copies, mods, forgets] {
            for (f, first, ol) in deferred {
                let Form::Deferred(form, hash, key_id, made) = &ol.form else {
                    continue;
                };
                let (hash, key_id) = (*hash, *key_id);
                match form {
                    LineForm::Copy(base, new) => {
                        if !passes_filter(&f.filter, new) {
                            continue;
                        }
                        let base_id = self.index.find(
                            self.ds.indexed(),
                            &okind,
                            kind_hash.of(hash),
                            (base, key_id),
                        );
                        let id =
                            self.made_object(okind.clone(), made.as_deref(), new, scope, first);
                        if let Some(base) = base_id {
                            self.copy_from(base, id, first);
                        }
                        self.object_tokens(id, f, ol, kind);
                    }
                    LineForm::Mod(key) => {
                        if !passes_filter(&f.filter, key) {
                            continue;
                        }
                        let found = self.index.find(
                            self.ds.indexed(),
                            &okind,
                            kind_hash.of(hash),
                            (key, key_id),
                        );
                        let id = match found {
                            Some(id) => id,
                            None => {
                                let id = self.made_object(
                                    okind.clone(),
                                    made.as_deref(),
                                    key,
                                    scope,
                                    first,
                                );
                                // Made up for a .MOD of an object the load does not have:
                                // PCGen reports the missing object, not its missing facts.
                                self.made_by_mod.insert(id);
                                id
                            }
                        };
                        self.object_tokens(id, f, ol, kind);
                    }
                    LineForm::Forget(key) => {
                        let found = self.index.find(
                            self.ds.indexed(),
                            &okind,
                            kind_hash.of(hash),
                            (key, key_id),
                        );
                        if let Some(id) = found {
                            if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                                o.forgotten = true;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// [`Builder::object_token`] for the tokens of the object line `ol` of `f` that it
    /// acts on (see [`ObjectLine::tokens`](super::object_lines::ObjectLine::tokens)), with
    /// the fact names it read.
    fn object_tokens(&mut self, id: ObjectId, f: &LoadedFile, ol: &ObjectLine, kind: FileKind) {
        // The shared line (its tokens elsewhere in memory) is read only for tokens other
        // than facts: a fact read before keeps its token's span.
        let mut line = None;
        let mut facts = ol.facts.iter().peekable();
        for i in &ol.tokens {
            if let Some((_, fact)) = facts.next_if(|(j, _)| j == i) {
                // Read before: the token's text is read again only to report it.
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                let token = FactToken::Read(fact, f.lines.place(fact.token));
                self.fact(id, kind, fact.set, token, ol.facts.len());
                continue;
            }
            let line = match line {
                Some(line) => line,
                None => match f.lines.shared().get(ol.line) {
                    Some(l) => *line.insert(l),
                    None => return,
                },
            };
            if let Some(t) = line.tokens.get(*i).map(|t| f.lines.place(*t)) {
                self.object_token(id, t, kind);
            }
        }
    }

    pub(super) fn object_token(&mut self, id: ObjectId, tok: Span, kind: FileKind) {
        let text = self.text(tok);
        let Some((key, value)) = token_parts(text, tok) else {
            return;
        };
        let scope = self
            .ds
            .object_by_id(id)
            .map_or(ScopeId::GLOBAL, |o| o.scope);
        match key.text {
            "MODIFY" => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                if let Some(item) = self.modify_item(value) {
                    self.modifier(&item, scope, Applies::Own, Some(id));
                }
            }
            "MODIFYOTHER" => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                self.modify_other(value, Some(id));
            }
            "PART" if kind == FileKind::Equipment => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                self.part(id, value);
            }
            "GROUP" => {
                let groups: Vec<Name> =
                    value.text.split('|').map(|g| Name::new(g.trim())).collect();
                if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                    o.extras_mut().groups.extend(groups);
                }
            }
            "GRANT" => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                self.grant(id, value);
            }
            "FACT" | "FACTSET" => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                let Some((name, value)) = split_at_byte(value, b'|') else {
                    return self.malformed(
                        value.span,
                        "expected `FactName|value`",
                        "write e.g. `FACT:IsOrc|True`",
                    );
                };
                let token = FactToken::Split(name.trim(), value);
                self.fact(id, kind, key.text == "FACTSET", token, 1);
            }
            "FACE" if matches!(kind, FileKind::Race | FileKind::Template) => {
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                self.face(id, key, value);
            }
            _ => {}
        }
    }

    pub(super) fn part(&mut self, id: ObjectId, value: Slice<'_>) {
        let (n, key, inner) = match syntax::part(value) {
            Ok(x) => x,
            Err(d) => return self.diags.push(d),
        };
        let part_scope = self
            .ds
            .scopes
            .resolve("PC.EQUIPMENT.PART")
            .map_or(ScopeId::GLOBAL, |(s, _)| s);
        match key.text.trim() {
            "MODIFY" => {
                if let Some(item) = self.modify_item(inner) {
                    self.modifier(&item, part_scope, Applies::Part(n.value), Some(id));
                }
            }
            "MODIFYOTHER" => self.modify_other(inner, Some(id)),
            _ => self.diags.push(
                Diagnostic::error(
                    lcodes::UNEXPECTED_TOKEN,
                    key.span,
                    format!("`{}` is not read inside PART", key.text),
                )
                .with_help("PART carries MODIFY: or MODIFYOTHER:"),
            ),
        }
    }

    pub(super) fn grant(&mut self, id: ObjectId, value: Slice<'_>) {
        let Some((cat, names)) = split_at_byte(value, b'|') else {
            return self.malformed(
                value.span,
                "expected `CATEGORY|Key`",
                "write e.g. `GRANT:MOVEMENT|Walk`",
            );
        };
        let Some(scope) = self.dynamic_scope(cat) else {
            return;
        };
        let mut pos = 0;
        let cat_name = Name::new(cat.text.trim());
        for n in names.text.split('|') {
            let s = names.sub(pos..pos + n.len()).trim();
            pos += n.len() + 1;
            self.refs.push(PendingRef {
                scope,
                key: Name::new(s.text),
                span: s.span,
                what: "granted object",
            });
            if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                o.extras_mut().grants.push(Grant {
                    category: cat_name.clone(),
                    key: Name::new(s.text),
                    object: None,
                    span: s.span,
                });
            }
        }
    }

    /// A `FACT:`/`FACTSET:` token (`set`) of object `id`, one of `expected` on its line (the
    /// room its facts are given at the first).
    fn fact(
        &mut self,
        id: ObjectId,
        kind: FileKind,
        set: bool,
        token: FactToken<'_, 'a>,
        expected: usize,
    ) {
        let Some(loc) = fact_location(kind) else {
            return;
        };
        // Written, even if its value is reported below: a REQUIRED:YES check must not
        // report the same line again as a missing fact.
        let (fact_name, hash, value) = match &token {
            FactToken::Read(r, _) => (r.name.clone(), r.hash, &*r.value),
            FactToken::Split(name, value) => (
                Name::new(name.text),
                crate::model::key_hash(name.text),
                value.text,
            ),
        };
        let required = self.facts_required.iter();
        if required
            .filter(|(s, l, _)| *s == set && l.is(loc))
            .any(|(_, _, n)| *n == fact_name)
        {
            self.facts_written.insert((id, set, fact_name.clone()));
        }
        let Some(def) = self.fact_def(set, loc, &fact_name, hash) else {
            return self.unknown_fact(set, loc, &fact_name, &token);
        };
        let format = self.ds.fact_defs.get(def).and_then(|d| d.format.as_ref());
        if let Some(f) = format.filter(|f| {
            matches!(
                f,
                Format::Number | Format::Boolean | Format::Dice | Format::OrderedPair
            )
        }) {
            let v = value.trim();
            if literal::parse(f, v).is_none() {
                let diag = Diagnostic::error(
                    codes::BAD_LITERAL,
                    self.fact_spans(&token).1,
                    format!("`{v}` is not a valid {f} value for FACT `{fact_name}`"),
                )
                .with_label(format!("expected {}", literal::shape(f)))
                .with_help(format!(
                    "the FACTDEF gives DATAFORMAT {f}; write {}",
                    literal::shape(f)
                ));
                return self.diags.push(diag);
            }
        }
        let value = match &token {
            FactToken::Read(r, _) => r.value.clone(),
            FactToken::Split(_, value) => Arc::from(value.text),
        };
        if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
            let facts = &mut o.extras_mut().facts;
            if facts.capacity() == 0 {
                facts.reserve_exact(expected);
            }
            facts.push(Fact {
                name: fact_name,
                value,
                set,
            });
        }
    }

    /// The spans of a FACT token's name (trimmed) and value (trimmed), for its reports.
    fn fact_spans(&self, token: &FactToken<'_, 'a>) -> (Span, Span) {
        match token {
            FactToken::Split(name, value) => (name.span, value.trim().span),
            FactToken::Read(_, tok) => {
                let parts = token_parts(self.text(*tok), *tok)
                    .and_then(|(_, value)| split_at_byte(value, b'|'));
                parts.map_or((*tok, *tok), |(name, value)| {
                    (name.trim().span, value.trim().span)
                })
            }
        }
    }

    /// The FACTDEF (`set`: FACTSETDEF) of `loc` objects named `name` (hashed `hash`).
    fn fact_def(&mut self, set: bool, loc: &'static str, name: &Name, hash: u64) -> Option<usize> {
        if self.fact_location.0 != loc {
            self.fact_location = (loc, crate::model::key_hash(loc));
        }
        let location_hash = self.fact_location.1;
        self.fact_index
            .get(&self.ds.fact_defs, (set, loc, location_hash), (name, hash))
    }

    /// The FACT/FACTSET tokens of an object line that a file entry's `(INCLUDE:…)` or
    /// `(EXCLUDE:…)` leaves out: PCGen parses the whole line before it drops the object, so
    /// a fact without its FACTDEF is logged there too ("Illegal FACT subtoken … for
    /// pcgen.core.Ability …"). Nothing else of the line reaches the model.
    fn filtered_facts(&mut self, f: &'a LoadedFile, ol: &ObjectLine, kind: FileKind) {
        let Some(loc) = fact_location(kind) else {
            return;
        };
        for (_, fact) in &ol.facts {
            if self
                .fact_def(fact.set, loc, &fact.name, fact.hash)
                .is_none()
            {
                let token = FactToken::Read(fact, f.lines.place(fact.token));
                self.unknown_fact(fact.set, loc, &fact.name, &token);
            }
        }
    }

    /// Reports the FACT `name` (`set`: FACTSET) of a `loc` object that has no FACTDEF.
    fn unknown_fact(
        &mut self,
        set: bool,
        loc: &'static str,
        name: &Name,
        token: &FactToken<'_, 'a>,
    ) {
        let span = self.fact_spans(token).0;
        let error_key = (span.file, set, loc, name.clone());
        if let Some((_, uses)) = self.unknown_fact_errors.get_mut(&error_key) {
            *uses += 1;
            return;
        }
        self.unknown_fact_errors
            .insert(error_key, (self.diags.len(), 1));
        let def = if set { "FACTSETDEF" } else { "FACTDEF" };
        let fact_defs = &self.ds.fact_defs;
        let (candidates, guesses) = self.unknown_facts.entry((set, loc)).or_insert_with(|| {
            let known = fact_defs
                .iter()
                .filter(|d| d.set == set && d.location.is(loc))
                .map(|d| d.name.to_string());
            (super::suggest::Candidates::new(known), Default::default())
        });
        let name = name.as_str();
        let guess = match guesses.get(name) {
            Some(guess) => guess.clone(),
            None => {
                let guess = candidates.closest(name).map(str::to_owned);
                guesses.insert(name.to_owned(), guess.clone());
                guess
            }
        };
        let diag = Diagnostic::error(
            codes::UNKNOWN_FACT,
            span,
            format!(
                "{} `{name}` has no {def} for {loc}",
                if set { "FACTSET" } else { "FACT" },
            ),
        )
        .with_label(format!("not defined for {loc} objects in this load"))
        .with_did_you_mean_or(
            span,
            guess,
            format!("add `{def}:{loc}|{name}` to a DATACONTROL file of this load"),
        )
        .with_missing(
            name,
            MissingKind::Fact {
                set,
                location: loc.to_string(),
            },
        );
        self.diags.push(diag);
    }

    /// Appends to each "no FACTDEF" error how many more uses of the fact its file has.
    pub(super) fn count_unknown_fact_uses(&mut self) {
        for &(at, uses) in self.unknown_fact_errors.values() {
            if let Some(d) = self.diags.get_mut(at) {
                d.message.push_str(&crate::diagnostic::more_uses(uses));
            }
        }
    }

    pub(super) fn face(&mut self, id: ObjectId, key: Slice<'_>, value: Slice<'_>) {
        if let Some(var) = self.ds.controls.face.clone() {
            self.diags.push(
                Diagnostic::error(
                    codes::FACE_DISABLED,
                    key.span.join(value.span),
                    "FACE is disabled in this game mode",
                )
                .with_label(format!("codeControl.lst has `FACE:{var}`"))
                .with_help(format!(
                    "write `MODIFY:{var}|SET|{}` instead",
                    value.text.trim()
                )),
            );
            return;
        }
        let v = value.trim();
        let (w, h) = match v.text.split_once(',') {
            Some((w, h)) => (w, h),
            None => (v.text, "0"),
        };
        let pair = literal::number(w).zip(literal::number(h));
        let Some((w, h)) = pair.filter(|(w, h)| !w.is_negative() && !h.is_negative()) else {
            self.diags.push(
                Diagnostic::error(
                    codes::BAD_LITERAL,
                    v.span,
                    format!("`{}` is not a valid FACE", v.text),
                )
                .with_help("write `FACE:width` or `FACE:width,height` with non-negative numbers"),
            );
            return;
        };
        let Some(var) = self.face_variable() else {
            return;
        };
        self.push_modifier(Modifier {
            id: ModId(0),
            variable: var,
            kind: ModifierKind::Set,
            priority: 10,
            value: ModifierValue::Constant(Value::OrderedPair(w, h)),
            scope: ScopeId::GLOBAL,
            source: Some(id),
            applies: Applies::Own,
            span: key.span.join(value.span),
        });
    }

    /// The global `Face` variable, looked up once per load set (again if variables were
    /// defined since): every FACE token of every race and template sets it.
    fn face_variable(&mut self) -> Option<VarId> {
        let defined = self.ds.variables.len();
        match self.face_variable {
            Some((n, var)) if n == defined => var,
            _ => {
                let var = self.ds.resolve_variable(ScopeId::GLOBAL, "Face");
                self.face_variable = Some((defined, var));
                var
            }
        }
    }

    pub(super) fn check_refs(&mut self) {
        let refs = std::mem::take(&mut self.refs);
        // Every GRANT: is a reference too: with none, there is no object to read.
        if refs.is_empty() {
            return;
        }
        // Only objects in a scope some reference looks in can answer it (GRANT: names
        // dynamic objects, a few in most loads): the rest are not hashed.
        let mut wanted: Vec<ScopeId> = refs.iter().map(|r| r.scope).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let present: crate::model::fxhash::FxHashSet<(ScopeId, &Name)> = self
            .ds
            .objects
            .iter()
            .filter(|o| !o.forgotten && wanted.binary_search(&o.scope).is_ok())
            .map(|o| (o.scope, self.ds.key_of(o)))
            .collect();
        let missing: Vec<PendingRef> = refs
            .into_iter()
            .filter(|r| !present.contains(&(r.scope, &r.key)))
            .collect();
        for r in missing {
            let exists = false;
            if exists {
                continue;
            }
            let keys: Vec<String> = self
                .ds
                .objects_in(r.scope)
                .map(|o| self.ds.key_of(o).to_string())
                .collect();
            self.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_OBJECT,
                    r.span,
                    format!(
                        "no {} `{}` in {}",
                        r.what,
                        r.key,
                        self.ds.scopes.name(r.scope)
                    ),
                )
                .with_label("unknown key")
                .with_did_you_mean_or(
                    r.span,
                    closest(r.key.as_str(), keys.iter().map(String::as_str)),
                    "check the key; MODIFYOTHER addresses objects by KEY",
                )
                .with_missing(
                    r.key.as_str(),
                    MissingKind::ScopedObject {
                        scope: self.ds.scopes.name(r.scope).to_string(),
                    },
                ),
            );
        }
        let grants: Vec<(usize, usize, Option<ObjectId>)> = self
            .ds
            .objects
            .iter()
            .enumerate()
            .flat_map(|(i, o)| o.grants().iter().enumerate().map(move |(j, g)| (i, j, g)))
            .map(|(i, j, g)| {
                let kind = ObjectKind::Dynamic(g.category.clone());
                // Dynamic objects have keys of their own: all are indexed.
                let found = self
                    .index
                    .find_key(self.ds.indexed(), &kind, g.key.as_str());
                (i, j, found)
            })
            .collect();
        for (i, j, id) in grants {
            let object = self.ds.objects.get_mut(i);
            if let Some(g) = object.and_then(|o| o.extras_mut().grants.get_mut(j)) {
                g.object = id;
            }
        }
    }
}

/// Where the first `.COPY=` in `first` starts, by a byte scan: a first token is short, and
/// `str::find` of a string first sets up a two-way search (once per object line).
fn find_copy(first: &str) -> Option<usize> {
    let bytes = first.as_bytes();
    let copy_at = |i: &usize| bytes.get(*i..).is_some_and(|r| r.starts_with(b".COPY="));
    (0..bytes.len()).find(|i| bytes.get(*i) == Some(&b'.') && copy_at(i))
}

/// A `FACT:`/`FACTSET:` token's fact name and value.
enum FactToken<'r, 't> {
    /// Read before, once per file, from the token at this span (of the load set's file).
    Read(&'r FactName, Span),
    /// Split here: the name (trimmed) and the value as written.
    Split(Slice<'t>, Slice<'t>),
}
