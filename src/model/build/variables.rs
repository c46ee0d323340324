//! VARIABLE lines, the no-overlap and redefinition rules, PCGen's built-ins and required defaults.

use super::*;

impl<'a> Builder<'a> {
    // ----- VARIABLE -------------------------------------------------------------------

    pub(super) fn variable_line(&mut self, line: &crate::load::Line) {
        let Some(first) = line.tokens.first().copied() else {
            return;
        };
        let text = self.text(first);
        let mut explanation = None;
        for t in line.tokens.iter().skip(1) {
            let tt = self.text(*t);
            match tt.strip_prefix("EXPLANATION:") {
                Some(e) => explanation = Some(e.to_owned()),
                None => self.unexpected(
                    *t,
                    "VARIABLE",
                    "GLOBAL:, LOCAL: or CHANNEL:, followed only by EXPLANATION:",
                ),
            }
        }
        self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
        let (kind, value) = match token_parts(text, first) {
            Some((k, v)) => (k.text, v),
            None => ("GLOBAL", Slice::new(text, first)),
        };
        let decl = match kind {
            "GLOBAL" => syntax::var_decl(value.trim(), false),
            "LOCAL" | "CHANNEL" => syntax::var_decl(value.trim(), true),
            "EXPLANATION" => {
                self.diags.push(
                    Diagnostic::error(
                        lcodes::UNEXPECTED_TOKEN,
                        first,
                        "EXPLANATION must follow a variable definition",
                    )
                    .with_help("put EXPLANATION: after GLOBAL:/LOCAL:/CHANNEL: on the same line"),
                );
                return;
            }
            _ => {
                self.unexpected(first, "VARIABLE", "GLOBAL:, LOCAL: or CHANNEL:");
                return;
            }
        };
        let decl = match decl {
            Ok(d) => d,
            Err(d) => return self.diags.push(d),
        };
        // A definition whose scope or format is wrong (reported here, once) still defines
        // its name, in the best-known scope and format, so that its uses are not each
        // reported again.
        let mut flawed = false;
        let scope = match &decl.scope {
            Some(s) => match self.scope_or_guess(s) {
                Ok(id) => id,
                Err(Some(guess)) => {
                    flawed = true;
                    guess
                }
                Err(None) => return,
            },
            None => ScopeId::GLOBAL,
        };
        let format = match &decl.format {
            Some(f) => match self.format_or_guess(f) {
                Ok(f) => f,
                Err(guess) => {
                    flawed = true;
                    guess.unwrap_or(Format::Number)
                }
            },
            None => Format::Number,
        };
        let origin = if kind == "CHANNEL" {
            VariableOrigin::Channel
        } else {
            VariableOrigin::Data
        };
        let fspan = decl.format.as_ref().map_or(decl.name.span, |f| f.span);
        if let Some(id) = self.define(&decl.name, scope, format.clone(), origin) {
            if let Some(v) = self.ds.variables.get_mut(id.0 as usize) {
                if explanation.is_some() {
                    v.explanation = explanation;
                }
                v.flawed |= flawed;
            }
            if !flawed
                && !matches!(format, Format::Array(_))
                && self.ds.default_for(&format).is_none()
            {
                self.diags.push(
                    Diagnostic::error(
                        codes::MISSING_DEFAULT,
                        fspan,
                        format!("format {format} has no default value"),
                    )
                    .with_label(format!("`{}` needs a {format} default", decl.name.value))
                    .with_help(format!(
                        "add `DEFAULTVARIABLEVALUE:{format}|<value>` to a DATACONTROL file"
                    )),
                );
            }
        }
    }

    /// Defines a variable, applying the no-overlap and identical-redefinition rules.
    pub(super) fn define(
        &mut self,
        name: &At<String>,
        scope: ScopeId,
        format: Format,
        origin: VariableOrigin,
    ) -> Option<VarId> {
        let key = Name::new(&name.value);
        let channel = origin.is_channel();
        if let Some(id) = self
            .ds
            .var_index
            .get(&(scope, key.clone(), channel))
            .copied()
        {
            let prev = self.ds.variable(id)?.clone();
            if prev.format == format {
                return Some(id);
            }
            let mut d = Diagnostic::error(
                codes::FORMAT_CONFLICT,
                name.span,
                format!(
                    "`{}` is already a {} variable in {}",
                    name.value,
                    prev.format,
                    self.ds.scopes.name(scope)
                ),
            )
            .with_label(format!("redefined as {format}"))
            .with_help("use the same format as the first definition, or another name");
            match prev.span {
                Some(s) => d = d.with_secondary(s, format!("first defined as {}", prev.format)),
                None => d = d.with_note(format!("`{}` is built into PCGen", prev.name)),
            }
            self.diags.push(d);
            return None;
        }
        // Only the variables of the same name can overlap: look them up by name rather than
        // scanning every earlier variable (which made N definitions cost N²).
        let clash = self
            .names
            .get(&(key.clone(), channel))
            .into_iter()
            .flatten()
            .filter_map(|id| self.ds.variable(*id))
            .find(|v| v.scope != scope && self.ds.scopes.related(v.scope, scope));
        if let Some(other) = clash {
            let mut d = Diagnostic::error(
                codes::VARIABLE_OVERLAP,
                name.span,
                format!(
                    "`{}` in {} overlaps `{}` in {}",
                    name.value,
                    self.ds.scopes.name(scope),
                    other.name,
                    self.ds.scopes.name(other.scope)
                ),
            )
            .with_label("same name in a related scope")
            .with_help(
                "a name may not be reused in a scope and its ancestor or descendant; rename one",
            );
            if let Some(s) = other.span {
                d = d.with_secondary(s, "defined here");
            }
            self.diags.push(d);
            return None;
        }
        let id = VarId(u32::try_from(self.ds.variables.len()).unwrap_or(u32::MAX));
        self.ds.variables.push(Variable {
            id,
            name: key.clone(),
            scope,
            format,
            span: (origin == VariableOrigin::Data || origin == VariableOrigin::Channel)
                .then_some(name.span),
            explanation: None,
            origin,
            flawed: false,
        });
        self.used.push(false);
        self.names
            .entry((key.clone(), channel))
            .or_default()
            .push(id);
        self.ds.var_index.insert((scope, key, channel), id);
        Some(id)
    }

    pub(super) fn builtins(&mut self) {
        let c = self.ds.controls.clone();
        let mut list: Vec<(&str, Format, VariableOrigin)> =
            vec![("Face", Format::OrderedPair, VariableOrigin::BuiltIn)];
        let ch = VariableOrigin::BuiltInChannel;
        list.push(("Age", Format::Number, ch));
        if c.alignment_feature {
            list.push(("Alignment", Format::Object(Name::new("ALIGNMENT")), ch));
        }
        list.push(("CharacterType", Format::String, ch));
        if c.domain_feature {
            list.push(("Deity", Format::Object(Name::new("DEITY")), ch));
        }
        list.push(("Gold", Format::Number, ch));
        list.push(("HairColor", Format::String, ch));
        list.push(("HairStyle", Format::String, ch));
        list.push(("SkinColor", Format::String, ch));
        list.push(("Handed", Format::Object(Name::new("HANDED")), ch));
        list.push((
            "AvailableHandedness",
            Format::Array(Box::new(Format::Object(Name::new("HANDED")))),
            ch,
        ));
        list.push(("Height", Format::Number, ch));
        for (name, format, origin) in list {
            let key = Name::new(name);
            let channel = origin.is_channel();
            if let Some(id) = self
                .ds
                .var_index
                .get(&(ScopeId::GLOBAL, key.clone(), channel))
            {
                let id = *id;
                let prev = self.ds.variables.get(id.0 as usize).cloned();
                if let Some(prev) = prev {
                    if prev.format != format {
                        // The built-in's format wins (one error here, none on every use).
                        if let Some(v) = self.ds.variables.get_mut(id.0 as usize) {
                            v.format = format.clone();
                            v.flawed = true;
                        }
                        if let Some(span) = prev.span {
                            self.diags.push(
                                Diagnostic::error(
                                    codes::FORMAT_CONFLICT,
                                    span,
                                    format!("`{name}` is built into PCGen as {format}"),
                                )
                                .with_label(format!("defined here as {}", prev.format))
                                .with_help(format!(
                                    "define it as {format} or remove the definition"
                                ))
                                .with_note("PCGen aborts the whole load on this conflict"),
                            );
                        }
                    }
                }
                continue;
            }
            let id = VarId(u32::try_from(self.ds.variables.len()).unwrap_or(u32::MAX));
            self.ds.variables.push(Variable {
                id,
                name: key.clone(),
                scope: ScopeId::GLOBAL,
                format,
                span: None,
                explanation: None,
                origin,
                flawed: false,
            });
            self.used.push(true);
            self.names
                .entry((key.clone(), channel))
                .or_default()
                .push(id);
            self.ds
                .var_index
                .insert((ScopeId::GLOBAL, key, channel), id);
        }
    }

    pub(super) fn required_defaults(&mut self) {
        let mut need = vec![Format::OrderedPair];
        if self.ds.controls.alignment_feature {
            need.push(Format::Object(Name::new("ALIGNMENT")));
        }
        let span = self
            .files(FileKind::DataControl)
            .next()
            .map(|f| f.listed_at.unwrap_or(Span::new(f.file, 0..0)))
            .or_else(|| self.load.campaigns.first().map(|c| Span::new(c.file, 0..0)));
        let Some(span) = span else { return };
        for f in need {
            if self.ds.default_for(&f).is_none() {
                self.diags.push(
                    Diagnostic::error(
                        codes::REQUIRED_DEFAULT,
                        span,
                        format!("the load has no default value for {f}"),
                    )
                    .with_label("DATACONTROL files of this load")
                    .with_help(format!(
                        "add `DEFAULTVARIABLEVALUE:{f}|<value>` to a DATACONTROL file"
                    ))
                    .with_note("PCGen requires it at the end of every load"),
                );
            }
        }
    }
}
