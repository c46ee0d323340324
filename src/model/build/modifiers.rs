//! MODIFY, MODIFYOTHER and PART modifications: target visibility, modifier kinds, values.

use super::*;

impl<'a> Builder<'a> {
    pub(super) fn push_modifier(&mut self, mut m: Modifier) -> ModId {
        let id = ModId(u32::try_from(self.ds.modifiers.len()).unwrap_or(u32::MAX));
        m.id = id;
        if let Some(u) = self.used.get_mut(m.variable.0 as usize) {
            *u = true;
        }
        if let Some(src) = m.source {
            if let Some(o) = self.ds.objects.get_mut(src.0 as usize) {
                o.extras_mut().modifiers.push(id);
            }
        }
        self.ds.modifiers.push(m);
        id
    }

    /// Reads a MODIFY value (`Variable|MODIFIER|value|…`); its problem reported, if any.
    pub(super) fn modify_item(&mut self, value: Slice<'_>) -> Option<ModifyItem> {
        match syntax::modify(value) {
            Ok(item) => Some(item),
            Err(d) => {
                self.token_problem(value, 2, d);
                None
            }
        }
    }

    /// Reports `d`, the problem of a MODIFY-like token's `value` whose formula follows
    /// `fields` `|`-separated fields — unless the formula itself has a syntax error (an
    /// unclosed `(` makes the whole token unsplittable): then that error, as `rulebook
    /// eval` gives it (`(` never closed, with where it was opened), is the one reported.
    fn token_problem(&mut self, value: Slice<'_>, fields: usize, d: Diagnostic) {
        if d.code == lcodes::MALFORMED {
            if let Some(formula) = formula_field(value, fields) {
                let parsed = crate::formula::parse_formula(
                    formula.text,
                    formula.span.file,
                    formula.span.start,
                );
                if !parsed.diagnostics.is_empty() {
                    self.diags.extend(parsed.diagnostics);
                    return;
                }
            }
        }
        self.diags.push(d);
    }

    pub(super) fn modify_other(&mut self, value: Slice<'_>, source: Option<ObjectId>) {
        let item = match syntax::modify_other(value) {
            Ok(i) => i,
            Err(d) => return self.token_problem(value, 4, d),
        };
        let Some(scope) = self.scope(&item.scope) else {
            return;
        };
        if scope == ScopeId::GLOBAL {
            self.diags.push(
                Diagnostic::error(
                    codes::GLOBAL_MODIFY_OTHER,
                    item.scope.span,
                    "MODIFYOTHER cannot address the global scope PC",
                )
                .with_help("use MODIFY for global variables"),
            );
            return;
        }
        let to_selector = |g: &syntax::Grouping| match g {
            syntax::Grouping::All => Selector::All,
            syntax::Grouping::Group(x) => Selector::Group(Name::new(x)),
            syntax::Grouping::Key(x) => Selector::Key(Name::new(x)),
        };
        let selector = to_selector(&item.address.grouping.value);
        if let Selector::Key(k) = &selector {
            // The key itself, without a `KEY=` before it or blanks around it.
            let grouping = item.address.grouping.span;
            let written = self.text(grouping).trim_end();
            let span = match written.strip_suffix(k.as_str()) {
                Some(before) => Span::new(
                    grouping.file,
                    grouping.start as usize + before.len()..grouping.start as usize + written.len(),
                ),
                None => grouping,
            };
            self.refs.push(PendingRef {
                scope,
                key: k.clone(),
                span,
                what: "object",
            });
        }
        let (eval_scope, child) = match &item.address.child {
            Some(c) => {
                match self.ds.scopes.child(scope) {
                    Some(sub) => (sub, Some(to_selector(&c.grouping.value))),
                    None => {
                        self.diags.push(
                        Diagnostic::error(
                            codes::NO_SUBSCOPE,
                            c.grouping.span,
                            format!("{} has no sub-scope to select with `[…]`", self.ds.scopes.name(scope)),
                        )
                        .with_label("child selector")
                        .with_help("remove the `[…]`, or address a scope with parts such as PC.EQUIPMENT"),
                    );
                        return;
                    }
                }
            }
            None => (scope, None),
        };
        self.modifier(
            &item.modify,
            eval_scope,
            Applies::Other {
                scope,
                selector,
                child,
            },
            source,
        );
    }

    /// Checks one modification and adds it to the dataset.
    pub(super) fn modifier(
        &mut self,
        item: &ModifyItem,
        scope: ScopeId,
        applies: Applies,
        source: Option<ObjectId>,
    ) -> Option<ModId> {
        let Some((var, depth)) = self.ds.resolve_in(scope, &item.var.value, false) else {
            self.unknown_target(item, scope);
            return None;
        };
        let variable = self.ds.variable(var)?.clone();
        if depth >= 2 {
            self.diags.push(
                Diagnostic::warning(
                    codes::PCGEN_DIVERGENCE,
                    item.var.span,
                    format!(
                        "PCGen cannot see {} variable `{}` from {}",
                        self.ds.scopes.name(variable.scope),
                        variable.name,
                        self.ds.scopes.name(scope)
                    ),
                )
                .with_label("visible by the spec, not by PCGen")
                .with_help("PCGen sees only the scope and its direct parent; move the modifier or add a local variable")
                .with_note("the spec allows this; PCGen rejects it at load"),
            );
        }
        let kind = match ModifierKind::from_name(&item.kind.value) {
            Some(k) => k,
            None => {
                let upper = item.kind.value.to_ascii_uppercase();
                let mut d = if ModifierKind::from_name(&upper).is_some() {
                    Diagnostic::error(
                        codes::MODIFIER_CASE,
                        item.kind.span,
                        format!(
                            "modifier `{}` must be written in upper case",
                            item.kind.value
                        ),
                    )
                    .with_label("PCGen's modifier names are case-sensitive")
                    .with_help(format!("write `{upper}`"))
                } else {
                    Diagnostic::error(
                        codes::ILLEGAL_MODIFIER,
                        item.kind.span,
                        format!("unknown modifier `{}`", item.kind.value),
                    )
                    .with_label("not a modifier type")
                };
                if d.help.is_none() {
                    let kinds = ["SET", "ADD", "MULTIPLY", "DIVIDE", "MAX", "MIN"];
                    d = d.with_did_you_mean_or(
                        item.kind.span,
                        closest(&item.kind.value, kinds),
                        "use SET, ADD, MULTIPLY, DIVIDE, MAX or MIN",
                    );
                }
                self.diags.push(d);
                return None;
            }
        };
        let legal = match &variable.format {
            Format::Number => true,
            Format::Array(_) => matches!(kind, ModifierKind::Set | ModifierKind::Add),
            _ => kind == ModifierKind::Set,
        };
        if !legal {
            let code = if variable.format == Format::Dice {
                codes::DICE_ARITHMETIC
            } else {
                codes::ILLEGAL_MODIFIER
            };
            self.diags.push(
                Diagnostic::error(
                    code,
                    item.kind.span,
                    format!(
                        "{} is not available for {} variable `{}`",
                        kind.name(),
                        variable.format,
                        variable.name
                    ),
                )
                .with_label(format!("{} variables take only SET", variable.format))
                .with_secondary_opt(variable.span, format!("`{}` defined here", variable.name))
                .with_help(format!(
                    "use SET with a value computed from value(), e.g. `{}|SET|…`",
                    item.var.value
                )),
            );
            return None;
        }
        let value = self.modifier_value(item, &variable, scope)?;
        let id = self.push_modifier(Modifier {
            id: ModId(0),
            variable: var,
            kind,
            priority: item.priority.as_ref().map_or(0, |p| p.value),
            value,
            scope,
            source,
            applies,
            span: item.span,
        });
        if let ModifierValue::Formula(f) = &self.ds.modifiers.get(id.0 as usize)?.value {
            self.formulas.push(PendingFormula {
                modifier: Some(id),
                scope,
                format: variable.format.clone(),
                text: f.text.clone(),
                span: f.span,
            });
        }
        Some(id)
    }

    pub(super) fn modifier_value(
        &mut self,
        item: &ModifyItem,
        variable: &Variable,
        _scope: ScopeId,
    ) -> Option<ModifierValue> {
        let text = item.value.value.as_str();
        let formula = || {
            ModifierValue::Formula(FormulaValue {
                text: text.to_owned(),
                span: item.value.span,
                compiled: None,
            })
        };
        let bad = |this: &mut Self| {
            this.diags.push(
                Diagnostic::error(
                    codes::BAD_LITERAL,
                    item.value.span,
                    format!("`{text}` is not a valid {} value", variable.format),
                )
                .with_label(format!("expected {}", literal::shape(&variable.format)))
                .with_secondary_opt(
                    variable.span,
                    format!("`{}` is {}", variable.name, variable.format),
                )
                .with_help(format!("write {}", literal::shape(&variable.format))),
            );
        };
        // The spec: "the value CAN be a formula", for every format. PCGen takes formulas
        // for NUMBER only; elsewhere a formula is accepted with a warning that says so.
        let pcgen_fixed = |this: &mut Self| {
            let format = &variable.format;
            let (message, help) = match format {
                Format::Boolean => (
                    "PCGen accepts only `true` or `false` here".to_owned(),
                    "keep it if only this engine reads the data; PCGen needs a fixed true/false"
                        .to_owned(),
                ),
                Format::String => (
                    "PCGen reads this STRING value as the text itself, not as a formula".to_owned(),
                    "keep it if only this engine reads the data; PCGen sets the text as written"
                        .to_owned(),
                ),
                _ => (
                    format!("PCGen accepts only a fixed {format} value here"),
                    format!(
                        "keep it if only this engine reads the data; PCGen needs {}",
                        literal::shape(format)
                    ),
                ),
            };
            let note = match format {
                Format::Boolean => {
                    "the spec's own example sets a BOOLEAN with a formula (`HandsRequired>Hands`)"
                }
                _ => "the spec says of every MODIFY: \"the value CAN be a formula\"",
            };
            this.diags.push(
                Diagnostic::warning(codes::PCGEN_DIVERGENCE, item.value.span, message)
                    .with_label(format!(
                        "a formula for {} {format} modifier",
                        if format.to_string().starts_with(['A', 'E', 'I', 'O', 'U']) {
                            "an"
                        } else {
                            "a"
                        }
                    ))
                    .with_help(help)
                    .with_note(note),
            );
        };
        let parses = |text: &str| {
            crate::formula::parse_formula(text, item.value.span.file, item.value.span.start)
                .diagnostics
                .is_empty()
        };
        match &variable.format {
            Format::Number => Some(match literal::parse(&Format::Number, text) {
                Some(l) => ModifierValue::Constant(l),
                None => formula(),
            }),
            Format::Boolean => match literal::parse(&Format::Boolean, text) {
                Some(l) => Some(ModifierValue::Constant(l)),
                None => {
                    pcgen_fixed(self);
                    Some(formula())
                }
            },
            // Text is text; a value holding a quoted string (`"Sir "+Name`) is a formula.
            Format::String if text.contains('"') && parses(text) => {
                pcgen_fixed(self);
                Some(formula())
            }
            Format::String => Some(ModifierValue::Constant(Value::string(text))),
            Format::Dice | Format::OrderedPair => match literal::parse(&variable.format, text) {
                Some(l) => Some(ModifierValue::Constant(l)),
                None => match crate::formula::Dice::parse_with_bonus(text.trim()) {
                    Ok(d) if variable.format == Format::Dice => {
                        self.diags.push(
                            Diagnostic::warning(
                                codes::PCGEN_DIVERGENCE,
                                item.value.span,
                                "PCGen's DICE values take no bonus",
                            )
                            .with_label("the spec's `AdB+C` form")
                            .with_help("keep it if only this engine reads the data; for PCGen write the dice alone (`1d6`) and add the bonus elsewhere")
                            .with_note("the spec writes DICE as `AdB+C`; PCGen reports \"not a valid Dice\""),
                        );
                        Some(ModifierValue::Constant(Value::Dice(d)))
                    }
                    // A formula names something (a variable, a function): a bare number
                    // for a pair or dice is a mistyped constant, not a formula.
                    _ if text.contains(|c: char| c.is_ascii_alphabetic()) && parses(text) => {
                        pcgen_fixed(self);
                        Some(formula())
                    }
                    _ => {
                        bad(self);
                        None
                    }
                },
            },
            Format::Object(_) | Format::Optional(_) => {
                if text.contains(['"', '(']) {
                    pcgen_fixed(self);
                    Some(formula())
                } else {
                    Some(ModifierValue::Constant(Value::Object(Name::new(
                        text.trim(),
                    ))))
                }
            }
            Format::Array(_) => Some(formula()),
        }
    }

    pub(super) fn unknown_target(&mut self, item: &ModifyItem, scope: ScopeId) {
        let visible: Vec<String> = self
            .ds
            .variables
            .iter()
            .filter(|v| {
                !v.origin.is_channel()
                    && !v.flawed
                    && self.ds.scopes.depth_to(scope, v.scope).is_some()
            })
            .map(|v| v.name.to_string())
            .collect();
        let mut d = Diagnostic::error(
            codes::UNKNOWN_VARIABLE,
            item.var.span,
            format!(
                "variable `{}` is not visible from {}",
                item.var.value,
                self.ds.scopes.name(scope)
            ),
        )
        .with_label("not defined in this scope or its ancestors")
        .with_missing(item.var.value.as_str(), MissingKind::Variable);
        let elsewhere = self
            .ds
            .variables
            .iter()
            .find(|v| v.name.is(&item.var.value) && !v.origin.is_channel());
        let child_hint = elsewhere
            .is_some_and(|v| self.ds.scopes.get(v.scope).and_then(|s| s.parent) == Some(scope));
        if let Some(v) = elsewhere {
            d = d.with_note(format!(
                "`{}` is a {} variable; {} cannot see it",
                v.name,
                self.ds.scopes.name(v.scope),
                self.ds.scopes.name(scope)
            ));
            if let Some(s) = v.span {
                d = d.with_secondary(s, "defined here");
            }
        }
        d = match closest(&item.var.value, visible.iter().map(String::as_str)) {
            _ if child_hint => d.with_help(format!(
                "address the parts with a child selector such as `ALL[ALL]`, or modify a {} variable that each part reads (e.g. CritMultAdder)",
                self.ds.scopes.name(scope)
            )),
            Some(s) => d.with_did_you_mean(item.var.span, s),
            None => d.with_help("define it with GLOBAL: or LOCAL: in a VARIABLE file"),
        };
        self.diags.push(d);
    }
}

/// The formula field of a MODIFY-like token's value that cannot be split at its top-level
/// `|`s (brackets unbalanced): what follows the first `fields` `|`s, without a trailing
/// `|PRIORITY=n`. `None` when there are fewer fields or the formula is empty.
fn formula_field(value: Slice<'_>, fields: usize) -> Option<Slice<'_>> {
    let mut start = 0;
    for _ in 0..fields {
        start += value.text.get(start..)?.find('|')? + 1;
    }
    let rest = value.text.get(start..)?;
    let end = rest
        .rfind("|PRIORITY=")
        .filter(|&at| {
            rest.get(at + "|PRIORITY=".len()..)
                .is_some_and(|p| p.trim().chars().all(|c| c.is_ascii_digit()))
        })
        .unwrap_or(rest.len());
    let formula = value.sub(start..start + end).trim();
    (!formula.text.is_empty()).then_some(formula)
}
