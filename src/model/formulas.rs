//! Type-checking every formula of a load in its object's scope, once (one
//! [`crate::formula::check()`] call per formula), with the loader as the [`CheckEnv`]: variables
//! resolve by scope, `input()` to channels, `lookup()` to DATATABLE tables and columns,
//! `getFact()` to fact definitions, and user functions to the dataset's registry.

use super::HostFn;
use super::build::Builder;
use super::codes;
use super::scope::ScopeId;
use super::{Dataset, ModifierValue, VarId, Variable, VariableOrigin};
use crate::diagnostic::{Diagnostic, MissingKind};
use crate::formula::ast::{Expr, ExprKind, Formula};
use crate::formula::check::WRONG_ARITY;
use crate::formula::{
    CheckEnv, CompiledFormula, Format, FunctionRef, HostCall, HostFnRef, HostParam, HostSignature,
    VarRef, check,
};
use crate::name::{Name, closest};
use crate::source::Span;
use std::cell::RefCell;

/// Parses one formula embedded in a token (`span` is where its text sits in the file).
fn parse(text: &str, span: Span) -> (Option<Formula>, Vec<Diagnostic>) {
    let out = crate::formula::parse_formula(text, span.file, span.start);
    (out.formula, out.diagnostics)
}

/// The names visible to a formula in one scope of a dataset: the [`CheckEnv`] the model
/// checks every formula with (variables by scope, `input()` channels, `lookup()` tables and
/// columns, `getFact()` facts, `get()`, user functions). Other layers may check formulas of
/// their own (e.g. typed by a user) against a dataset with it.
pub struct ScopeEnv<'a> {
    ds: &'a Dataset,
    scope: ScopeId,
    /// Variables found more than one scope up (PCGen would not see them).
    far: RefCell<Vec<Name>>,
}

impl<'a> ScopeEnv<'a> {
    /// The environment of `scope` in `ds`.
    pub fn new(ds: &'a Dataset, scope: ScopeId) -> Self {
        ScopeEnv {
            ds,
            scope,
            far: RefCell::new(Vec::new()),
        }
    }

    /// The variable `name` visible from the scope, noting it when PCGen would not see it
    /// (more than one scope up).
    fn visible(&self, name: &str) -> Option<(VarRef, &Variable)> {
        let (id, depth) = self.ds.resolve_in(self.scope, name, false)?;
        if depth >= 2 {
            self.far.borrow_mut().push(Name::new(name));
        }
        Some((VarRef(id.0), self.ds.variable(id)?))
    }

    fn arity(&self, call: &HostCall<'_>, want: &str, ok: bool) -> Result<(), Vec<Diagnostic>> {
        if ok {
            return Ok(());
        }
        Err(vec![
            Diagnostic::error(
                WRONG_ARITY,
                call.span,
                format!("`{}` takes {want}, not {}", call.name, call.args.len()),
            )
            .with_label("wrong number of arguments")
            .with_help(format!("call it with {want}")),
        ])
    }

    fn literal_arg(
        &self,
        call: &HostCall<'_>,
        i: usize,
        what: &str,
    ) -> Result<String, Vec<Diagnostic>> {
        match call.literal(i) {
            Some(s) => Ok(s.to_owned()),
            None => {
                let span = call.args.get(i).map_or(call.span, |a| a.span());
                Err(vec![
                    Diagnostic::error(
                        codes::HOST_ARGUMENTS,
                        span,
                        format!("`{}` needs a literal {what} here", call.name),
                    )
                    .with_label("not a literal name")
                    .with_help(format!("write the {what} in quotes, e.g. \"Name\"")),
                ])
            }
        }
    }

    fn arg_span(call: &HostCall<'_>, i: usize) -> Span {
        call.args.get(i).map_or(call.span, |a| a.span())
    }

    /// `d`, about the literal name of argument `i`, with "did you mean" `guess` (the name
    /// inside the quotes replaced), else the help `otherwise` gives.
    fn with_guess(
        d: Diagnostic,
        call: &HostCall<'_>,
        i: usize,
        guess: Option<&str>,
        otherwise: impl FnOnce() -> String,
    ) -> Diagnostic {
        match (guess, call.literal_span(i)) {
            (Some(s), Some(span)) => d.with_did_you_mean(span, s),
            _ => d.with_help(otherwise()),
        }
    }

    fn input(&self, call: &HostCall<'_>) -> Result<HostSignature, Vec<Diagnostic>> {
        self.arity(call, "1 argument (a channel name)", call.args.len() == 1)?;
        let name = self.literal_arg(call, 0, "channel name")?;
        let Some(id) = self.ds.channel(self.scope, &name) else {
            let known: Vec<String> = self
                .ds
                .variables
                .iter()
                .filter(|v| {
                    v.origin.is_channel() && self.ds.scopes.depth_to(self.scope, v.scope).is_some()
                })
                .map(|v| v.name.to_string())
                .collect();
            let d = Diagnostic::error(
                codes::UNKNOWN_CHANNEL,
                Self::arg_span(call, 0),
                format!(
                    "no channel `{name}` is visible from {}",
                    self.ds.scopes.name(self.scope)
                ),
            )
            .with_label("unknown channel");
            let guess = closest(&name, known.iter().map(String::as_str));
            return Err(vec![Self::with_guess(d, call, 0, guess, || {
                format!("define it with `CHANNEL:<scope>|<format>={name}` in a VARIABLE file")
            })]);
        };
        let format = self
            .ds
            .variable(id)
            .map_or(Format::Number, |v| v.format.clone());
        Ok(HostSignature {
            params: vec![HostParam::Name],
            result: format,
            dependencies: vec![VarRef(id.0)],
        })
    }

    fn lookup(&self, call: &HostCall<'_>) -> Result<HostSignature, Vec<Diagnostic>> {
        self.arity(
            call,
            "3 or 4 arguments (table, value, column[, lookup type])",
            matches!(call.args.len(), 3 | 4),
        )?;
        let table_name = self.literal_arg(call, 0, "table name")?;
        let Some(table) = self.ds.table(&table_name) else {
            let names: Vec<String> = self.ds.tables.iter().map(|t| t.name.to_string()).collect();
            let d = Diagnostic::error(
                codes::UNKNOWN_TABLE,
                Self::arg_span(call, 0),
                format!("no table `{table_name}`"),
            )
            .with_label("unknown table");
            let guess = closest(&table_name, names.iter().map(String::as_str));
            return Err(vec![Self::with_guess(d, call, 0, guess, || {
                "define the table in a DATATABLE file".to_owned()
            })]);
        };
        let column = self.literal_arg(call, 2, "column name")?;
        let Some((_, col_format)) = table.columns.iter().find(|(n, _)| n.is(&column)) else {
            let names: Vec<&str> = table.columns.iter().map(|(n, _)| n.as_str()).collect();
            let d = Diagnostic::error(
                codes::UNKNOWN_COLUMN,
                Self::arg_span(call, 2),
                format!("table `{}` has no column `{column}`", table.name),
            )
            .with_label("unknown column");
            let guess = closest(&column, names.iter().copied());
            return Err(vec![Self::with_guess(d, call, 2, guess, || {
                format!("the columns are: {}", names.join(", "))
            })]);
        };
        let key_format = table
            .columns
            .first()
            .map_or(Format::Number, |(_, f)| f.clone());
        let mut params = vec![
            HostParam::Name,
            HostParam::Value(key_format),
            HostParam::Name,
        ];
        if call.args.len() == 4 {
            params.push(HostParam::Name);
        }
        Ok(HostSignature {
            params,
            result: col_format.clone(),
            dependencies: Vec::new(),
        })
    }

    fn get_fact(&self, call: &HostCall<'_>) -> Result<HostSignature, Vec<Diagnostic>> {
        self.arity(
            call,
            "3 arguments (object type, key, fact name)",
            call.args.len() == 3,
        )?;
        let location = self.literal_arg(call, 0, "object type")?;
        let fact = self.literal_arg(call, 2, "fact name")?;
        let def = self
            .ds
            .fact_defs
            .iter()
            .find(|d| !d.set && d.location.is(&location) && d.name.is(&fact));
        let Some(def) = def else {
            return Err(vec![
                Diagnostic::error(
                    codes::UNKNOWN_FACT,
                    Self::arg_span(call, 2),
                    format!("FACT `{fact}` has no FACTDEF for {location}"),
                )
                .with_label("unknown fact")
                .with_help(format!(
                    "add `FACTDEF:{location}|{fact}` to a DATACONTROL file"
                ))
                .with_missing(
                    fact.as_str(),
                    MissingKind::Fact {
                        set: false,
                        location: location.to_string(),
                    },
                ),
            ]);
        };
        Ok(HostSignature {
            params: vec![HostParam::Name, HostParam::Name, HostParam::Name],
            result: def.format.clone().unwrap_or(Format::String),
            dependencies: Vec::new(),
        })
    }

    fn get(&self, call: &HostCall<'_>) -> Result<HostSignature, Vec<Diagnostic>> {
        self.arity(call, "2 arguments (object type, key)", call.args.len() == 2)?;
        let kind = self.literal_arg(call, 0, "object type")?;
        Ok(HostSignature {
            params: vec![HostParam::Name, HostParam::Name],
            result: Format::Object(Name::new(&kind)),
            dependencies: Vec::new(),
        })
    }
}

impl CheckEnv for ScopeEnv<'_> {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        let (var, v) = self.visible(name)?;
        Some((var, v.format.clone()))
    }

    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        if let Some(f) = self.ds.registry.get(name) {
            return Some(FunctionRef::User(f));
        }
        HostFn::named(name).map(|h| FunctionRef::Host(h.handle()))
    }

    fn host_signature(
        &self,
        f: HostFnRef,
        call: &HostCall<'_>,
    ) -> Result<HostSignature, Vec<Diagnostic>> {
        match HostFn::of(f) {
            Some(HostFn::Input) => self.input(call),
            Some(HostFn::Lookup) => self.lookup(call),
            Some(HostFn::GetFact) => self.get_fact(call),
            Some(HostFn::Get) => self.get(call),
            // Handles come from `function` above: another is a caller's mistake.
            None => Err(vec![Diagnostic::error(
                crate::formula::check::UNKNOWN_FUNCTION,
                call.span,
                format!("`{}` is no host function of the data", call.name),
            )]),
        }
    }

    fn variable_names(&self) -> Vec<Name> {
        self.ds
            .variables
            .iter()
            .filter(|v| {
                !v.origin.is_channel()
                    && !v.flawed
                    && self.ds.scopes.depth_to(self.scope, v.scope).is_some()
            })
            .map(|v| v.name.clone())
            .collect()
    }

    fn function_names(&self) -> Vec<Name> {
        self.ds
            .registry
            .names()
            .map(Name::new)
            .chain(HostFn::ALL.iter().map(|h| Name::new(h.name())))
            .collect()
    }
}

fn variable_spans(e: Expr<'_>, name: &Name, out: &mut Vec<Span>) {
    match e.kind() {
        ExprKind::Variable(n) if name.is(n) => out.push(e.span()),
        ExprKind::Index {
            name: n,
            name_span,
            index,
        } => {
            if name.is(n) {
                out.push(name_span);
            }
            variable_spans(index, name, out);
        }
        ExprKind::Call { args, .. } => args.iter().for_each(|a| variable_spans(a, name, out)),
        ExprKind::Unary { operand, .. } => variable_spans(operand, name, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            variable_spans(lhs, name, out);
            variable_spans(rhs, name, out);
        }
        ExprKind::Paren(x) => variable_spans(x, name, out),
        _ => {}
    }
}

/// Registers user functions, then checks every pending formula.
pub(crate) fn check_all(b: &mut Builder<'_>) {
    let functions = b.ds.functions.clone();
    for f in functions {
        let (formula, diags) = parse(&f.body.text, f.body.span);
        b.diags.extend(diags);
        if let Some(formula) = formula {
            if let Err(d) = b.ds.registry.define(f.name.clone(), f.span, formula) {
                b.diags.extend(d);
            }
        }
    }
    let pending = std::mem::take(&mut b.formulas);
    let mut reads: Vec<VarId> = Vec::new();
    for p in pending {
        let result = check_one(b, &p.text, p.span, p.scope, &p.format);
        match result {
            Ok(compiled) => {
                reads.extend(compiled.dependencies().iter().map(|r| VarId(r.0)));
                if let Some(m) = p
                    .modifier
                    .and_then(|m| b.ds.modifiers.get_mut(m.0 as usize))
                {
                    if let ModifierValue::Formula(f) = &mut m.value {
                        f.compiled = Some(compiled);
                    }
                }
            }
            Err(d) => b.diags.extend(d),
        }
    }
    for r in reads {
        if let Some(u) = b.used.get_mut(r.0 as usize) {
            *u = true;
        }
    }
}

/// Parses and checks one formula (`text` at `span`) in `scope` for a result of `format`.
/// Syntax problems go to `b`; problems of the check come back.
fn check_one(
    b: &mut Builder<'_>,
    text: &str,
    span: Span,
    scope: ScopeId,
    format: &Format,
) -> Result<CompiledFormula, Vec<Diagnostic>> {
    let (formula, diags) = parse(text, span);
    b.diags.extend(diags);
    let Some(formula) = formula else {
        return Err(Vec::new());
    };
    let env = ScopeEnv::new(&b.ds, scope);
    let result = check(&formula, &env, format, Some(format));
    let far = env.far.take();
    far_warnings(b, &formula, far, scope);
    result
}

/// A warning on each read of a variable of `far` (found more than one scope up from
/// `scope`: PCGen cannot see it) in `formula`.
fn far_warnings(b: &mut Builder<'_>, formula: &Formula, far: Vec<Name>, scope: ScopeId) {
    for name in far {
        let mut spans = Vec::new();
        if let Some(root) = formula.root() {
            variable_spans(root, &name, &mut spans);
        }
        for span in spans {
            b.diags.push(
                Diagnostic::warning(
                    codes::PCGEN_DIVERGENCE,
                    span,
                    format!("PCGen cannot read `{name}` from {}", b.ds.scopes.name(scope)),
                )
                .with_label("visible by the spec, not by PCGen")
                .with_help("PCGen sees only the scope and its direct parent; pass the value down through a local variable")
                .with_note("the spec lets EQUIPMENT.PART formulas read globals; PCGen does not"),
            );
        }
    }
}

/// A note for each variable defined in data that nothing modifies or reads: not the data,
/// nor PCGen's own code, which reads the variables the game mode's code controls name
/// (`FACE:Face`; `STATMODSAVE:Save_StatBonus`, read on every save).
pub(crate) fn unused_variables(b: &mut Builder<'_>) {
    let controls = &b.ds.controls;
    let read_by_pcgen = [&controls.face, &controls.stat_mod_save];
    for v in &b.ds.variables {
        let used = b.used.get(v.id.0 as usize).copied().unwrap_or(true)
            || read_by_pcgen
                .iter()
                .any(|name| name.as_deref().is_some_and(|n| v.name.is(n)));
        if used || v.flawed || !matches!(v.origin, VariableOrigin::Data | VariableOrigin::Channel) {
            continue;
        }
        let Some(span) = v.span else { continue };
        b.diags.push(
            Diagnostic::note(
                codes::UNUSED_VARIABLE,
                span,
                format!("variable `{}` is never modified or read", v.name),
            )
            .with_label("unused")
            .with_help("remove it, or use it in a MODIFY or a formula"),
        );
    }
}
