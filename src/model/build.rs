//! Building the [`Dataset`] from a load set, file kind by file kind in load order, with every
//! load-time rule as a diagnostic.

use super::codes;
use super::literal::{self, Literal};
use super::scope::{ScopeId, ScopeSpelling};
use super::*;
use crate::diagnostic::Diagnostic;
use crate::load::codes as lcodes;
use crate::load::syntax::{self, At, ModifyItem, Slice};
use crate::load::{KeyFilter, LoadSet, LoadedFile};
use crate::name::closest;
use crate::source::Span;

/// Object formats PCGen registers besides the built-in value formats (and DYNAMICSCOPEs).
const OBJECT_FORMATS: &[&str] = &[
    "ALIGNMENT",
    "CHECK",
    "DEITY",
    "DOMAIN",
    "CLASS",
    "LANGUAGE",
    "RACE",
    "SPELL",
    "SKILL",
    "STAT",
    "SIZEADJUSTMENT",
    "TEMPLATE",
    "WEAPONPROF",
    "ARMORPROF",
    "SHIELDPROF",
    "CLASSSPELLLIST",
    "CLASSSKILLLIST",
    "DOMAINSPELLLIST",
    "WIELDCATEGORY",
    "HANDED",
];

/// FACTDEF locations PCGen accepts.
const FACT_LOCATIONS: &[&str] = &[
    "GLOBAL",
    "ALIGNMENT",
    "CHECK",
    "DEITY",
    "DOMAIN",
    "CLASS",
    "LANGUAGE",
    "RACE",
    "SPELL",
    "SKILL",
    "STAT",
    "SIZEADJUSTMENT",
    "TEMPLATE",
    "WEAPONPROF",
    "ARMORPROF",
    "SHIELDPROF",
    "CLASSSPELLLIST",
    "CLASSSKILLLIST",
    "DOMAINSPELLLIST",
    "WIELDCATEGORY",
    "COMPANIONMOD",
    "EQUIPMENT",
    "EQMOD",
    "KIT",
    "ABILITY",
];

/// Functions built into the formula language and PCGen's plugins.
pub(crate) const BUILTIN_FUNCTIONS: &[&str] = &[
    "abs",
    "ceil",
    "floor",
    "getOptional",
    "if",
    "isEmpty",
    "isPresent",
    "length",
    "max",
    "min",
    "round",
    "slice",
    "value",
    "getFact",
    "get",
    "getOther",
    "group",
    "input",
    "key",
    "listAll",
    "lookup",
    "arg",
];

/// The FACTDEF location objects of a file kind use.
fn fact_location(kind: FileKind) -> Option<&'static str> {
    Some(match kind {
        FileKind::Ability | FileKind::Feat => "ABILITY",
        FileKind::Race => "RACE",
        FileKind::Template => "TEMPLATE",
        FileKind::Deity => "DEITY",
        FileKind::Class => "CLASS",
        FileKind::Equipment => "EQUIPMENT",
        FileKind::EquipMod => "EQMOD",
        FileKind::Spell => "SPELL",
        FileKind::Save => "CHECK",
        FileKind::Domain => "DOMAIN",
        FileKind::Skill => "SKILL",
        FileKind::Stat => "STAT",
        FileKind::Size => "SIZEADJUSTMENT",
        FileKind::Language => "LANGUAGE",
        FileKind::Alignment => "ALIGNMENT",
        FileKind::WeaponProf => "WEAPONPROF",
        FileKind::ArmorProf => "ARMORPROF",
        FileKind::ShieldProf => "SHIELDPROF",
        FileKind::CompanionMod => "COMPANIONMOD",
        FileKind::Kit => "KIT",
        _ => return None,
    })
}

/// The scope an object file's tokens are read in.
fn file_scope(kind: FileKind) -> &'static str {
    match kind {
        FileKind::Stat => "PC.STAT",
        FileKind::Save => "PC.SAVE",
        FileKind::Skill => "PC.SKILL",
        FileKind::Size => "PC.SIZE",
        FileKind::Equipment => "PC.EQUIPMENT",
        FileKind::EquipMod => "PC.EQUIPMENT.PART",
        _ => "PC",
    }
}

/// A formula waiting to be checked once every definition is known.
#[derive(Clone, Debug)]
#[allow(dead_code)] // read by the formula checker once the formula core lands
pub(crate) struct PendingFormula {
    pub(crate) modifier: Option<ModId>,
    pub(crate) scope: ScopeId,
    pub(crate) format: Format,
    pub(crate) text: String,
    pub(crate) span: Span,
}

/// A reference to an object checked after all objects are loaded.
struct PendingRef {
    scope: ScopeId,
    key: Name,
    span: Span,
    what: &'static str,
}

enum LineForm {
    Base(String),
    Copy(String, String),
    Mod(String),
    Forget(String),
}

pub(crate) struct Builder<'a> {
    pub(crate) load: &'a LoadSet,
    pub(crate) ds: Dataset,
    pub(crate) diags: Vec<Diagnostic>,
    pub(crate) formulas: Vec<PendingFormula>,
    pub(crate) used: Vec<bool>,
    refs: Vec<PendingRef>,
}

/// Builds the dataset of a load set; returns it with the model's diagnostics (the load set's
/// own diagnostics are not repeated).
pub fn build(load: &LoadSet) -> (Dataset, Vec<Diagnostic>) {
    let mut b = Builder {
        load,
        ds: Dataset {
            controls: load
                .game_mode
                .as_ref()
                .map(|g| g.controls.clone())
                .unwrap_or_default(),
            ..Dataset::default()
        },
        diags: Vec::new(),
        formulas: Vec::new(),
        used: Vec::new(),
        refs: Vec::new(),
    };
    b.run();
    (b.ds, b.diags)
}

fn token_parts(text: &str, span: Span) -> Option<(Slice<'_>, Slice<'_>)> {
    Slice::new(text, span).split_once(':')
}

impl<'a> Builder<'a> {
    fn text(&self, span: Span) -> &'a str {
        let load: &'a LoadSet = self.load;
        load.sources.get(span.file).map_or("", |f| f.slice(span))
    }

    fn files(&self, kind: FileKind) -> impl Iterator<Item = &'a LoadedFile> + use<'a> {
        let load: &'a LoadSet = self.load;
        load.files.iter().filter(move |f| f.kind == kind)
    }

    fn run(&mut self) {
        for f in self.files(FileKind::DataControl) {
            for line in &f.lines {
                if let Some(t) = line.tokens.first() {
                    let text = self.text(*t);
                    if let Some(v) = text.strip_prefix("DYNAMICSCOPE:") {
                        let start = t.start as usize + "DYNAMICSCOPE:".len();
                        let s = Slice::new(v, Span::new(t.file, start..start + v.len()));
                        match syntax::legal_name(s.trim(), "DYNAMICSCOPE") {
                            Ok(n) => {
                                self.ds.scopes.add_dynamic(&n.value);
                            }
                            Err(d) => self.diags.push(d),
                        }
                    }
                }
            }
        }
        for f in self.files(FileKind::DataControl) {
            for line in &f.lines {
                self.data_control_line(line);
            }
        }
        for f in self.files(FileKind::DataTable) {
            self.table_file(f);
        }
        for f in self.files(FileKind::Variable) {
            for line in &f.lines {
                self.variable_line(line);
            }
        }
        self.builtins();
        for f in self.files(FileKind::Dynamic) {
            for line in &f.lines {
                self.dynamic_line(line);
            }
        }
        for f in self.files(FileKind::GlobalModifier) {
            for line in &f.lines {
                self.global_modifier_line(line);
            }
        }
        let object_kinds: Vec<FileKind> = FileKind::LOAD_ORDER
            .into_iter()
            .filter(|k| *k >= FileKind::AbilityCategory)
            .collect();
        for kind in object_kinds {
            self.object_kind(kind);
        }
        self.check_refs();
        self.required_defaults();
        self.check_formulas();
        self.unused_variables();
    }

    // ----- shared helpers -------------------------------------------------------------

    fn scope(&mut self, at: &At<String>) -> Option<ScopeId> {
        match self.ds.scopes.resolve(&at.value) {
            Some((id, ScopeSpelling::Exact)) => Some(id),
            Some((id, ScopeSpelling::SpecAlias)) => {
                let full = self.ds.scopes.name(id).to_owned();
                self.diags.push(
                    Diagnostic::note(
                        codes::SCOPE_ALIAS,
                        at.span,
                        format!("scope `{}` is the spec's name for `{full}`", at.value),
                    )
                    .with_label(format!("read as `{full}`"))
                    .with_help(format!("write `{full}`; PCGen requires the `PC.` form"))
                    .with_note("PCGen reports \"Could not find scope\" for this name"),
                );
                Some(id)
            }
            Some((id, ScopeSpelling::WrongCase)) => {
                let full = self.ds.scopes.name(id).to_owned();
                self.diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_SCOPE,
                        at.span,
                        format!("unknown scope `{}`", at.value),
                    )
                    .with_label("scope names are case-sensitive")
                    .with_help(format!("did you mean `{full}`?")),
                );
                None
            }
            None => {
                let names: Vec<String> = self.ds.scopes.names().map(str::to_owned).collect();
                let help = match closest(&at.value, names.iter().map(String::as_str)) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("known scopes: {}", names.join(", ")),
                };
                self.diags.push(
                    Diagnostic::error(
                        codes::UNKNOWN_SCOPE,
                        at.span,
                        format!("unknown scope `{}`", at.value),
                    )
                    .with_label("no such scope")
                    .with_help(help),
                );
                None
            }
        }
    }

    fn known_format(&self, f: &Format) -> bool {
        match f {
            Format::Array(x) | Format::Optional(x) => self.known_format(x),
            Format::Object(n) => {
                OBJECT_FORMATS.iter().any(|o| n.is(o))
                    || self
                        .ds
                        .scopes
                        .iter()
                        .any(|(_, s)| s.dynamic.as_ref().is_some_and(|d| d == n))
            }
            _ => true,
        }
    }

    fn format(&mut self, at: &At<String>) -> Option<Format> {
        let f = Format::from_name(&at.value).filter(|f| self.known_format(f));
        if f.is_none() {
            let mut names: Vec<String> = ["NUMBER", "BOOLEAN", "STRING", "ORDEREDPAIR", "DICE"]
                .iter()
                .chain(OBJECT_FORMATS)
                .map(|s| (*s).to_owned())
                .collect();
            names.extend(
                self.ds
                    .scopes
                    .iter()
                    .filter_map(|(_, s)| s.dynamic.as_ref().map(|d| d.to_string())),
            );
            let help = match closest(&at.value, names.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => {
                    "use NUMBER, BOOLEAN, STRING, ORDEREDPAIR, DICE, ARRAY[…] or an object format"
                        .into()
                }
            };
            self.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_FORMAT,
                    at.span,
                    format!("unknown format `{}`", at.value),
                )
                .with_label("no such format")
                .with_help(help),
            );
        }
        f
    }

    fn malformed(&mut self, span: Span, message: impl Into<String>, help: &str) {
        self.diags
            .push(Diagnostic::error(lcodes::MALFORMED, span, message).with_help(help.to_owned()));
    }

    // ----- DATACONTROL ----------------------------------------------------------------

    fn data_control_line(&mut self, line: &crate::load::Line) {
        let Some(first) = line.tokens.first().copied() else {
            return;
        };
        let text = self.text(first);
        let Some((key, value)) = token_parts(text, first) else {
            self.unexpected(
                first,
                "DATACONTROL",
                "FACTDEF, FACTSETDEF, DEFAULTVARIABLEVALUE, FUNCTION or DYNAMICSCOPE",
            );
            return;
        };
        self.ds.tokens_checked += 1;
        if value.text.trim().is_empty() {
            self.malformed(
                value.span,
                format!("{} has no value", key.text),
                "write a value after the `:`",
            );
            return;
        }
        match key.text {
            "DEFAULTVARIABLEVALUE" => self.default_value(value),
            "FACTDEF" | "FACTSETDEF" => self.fact_def(value, key.text == "FACTSETDEF"),
            "FUNCTION" => self.function(value, line),
            "DYNAMICSCOPE" => {}
            _ => self.unexpected(
                key.span,
                "DATACONTROL",
                "FACTDEF, FACTSETDEF, DEFAULTVARIABLEVALUE, FUNCTION or DYNAMICSCOPE",
            ),
        }
    }

    fn unexpected(&mut self, span: Span, file: &str, allowed: &str) {
        let t = self.text(span);
        let shown = t.split(':').next().unwrap_or(t);
        self.diags.push(
            Diagnostic::error(
                lcodes::UNEXPECTED_TOKEN,
                span,
                format!("`{shown}` is not allowed here in a {file} file"),
            )
            .with_label("unexpected token")
            .with_help(format!("a {file} line starts with {allowed}")),
        );
    }

    fn default_value(&mut self, value: Slice<'_>) {
        let (fmt, val) = match syntax::default_value(value) {
            Ok(x) => x,
            Err(d) => return self.diags.push(d),
        };
        let Some(format) = self.format(&fmt) else {
            return;
        };
        let Some(lit) = literal::parse(&format, &val.value) else {
            self.diags.push(
                Diagnostic::error(
                    codes::BAD_LITERAL,
                    val.span,
                    format!("`{}` is not a valid {format} value", val.value),
                )
                .with_label(format!("expected {}", literal::shape(&format)))
                .with_help(format!("write {}", literal::shape(&format))),
            );
            return;
        };
        let key = format.to_string();
        if let Some(prev) = self.ds.defaults.get(&key) {
            if prev.value != lit {
                self.diags.push(
                    Diagnostic::error(
                        codes::DEFAULT_CONFLICT,
                        val.span,
                        format!("a different default for {key} was already defined"),
                    )
                    .with_label("second default")
                    .with_secondary(prev.span, "first default (stays in force)")
                    .with_help("every format has one default for the whole load; make them equal or remove one"),
                );
            }
            return;
        }
        self.ds.defaults.insert(
            key,
            DefaultValue {
                format,
                value: lit,
                span: val.span,
            },
        );
    }

    fn fact_def(&mut self, value: Slice<'_>, set: bool) {
        let Some((loc, name)) = value.split_once('|') else {
            return self.malformed(
                value.span,
                "expected `LOCATION|FactName`",
                "write e.g. `FACTDEF:TEMPLATE|IsOrc`",
            );
        };
        let loc = loc.trim();
        if !FACT_LOCATIONS.contains(&loc.text) {
            let help = match closest(loc.text, FACT_LOCATIONS.iter().copied()) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "use an object kind such as ABILITY, RACE, TEMPLATE or EQUIPMENT".into(),
            };
            self.diags.push(
                Diagnostic::error(
                    codes::BAD_FACT_LOCATION,
                    loc.span,
                    format!("`{}` is not a fact location", loc.text),
                )
                .with_label("invalid data definition location")
                .with_help(help),
            );
            return;
        }
        let name = name.trim();
        self.ds.fact_defs.push(FactDef {
            location: Name::new(loc.text),
            name: Name::new(name.text),
            set,
            span: name.span,
        });
    }

    fn function(&mut self, value: Slice<'_>, line: &crate::load::Line) {
        let name = match syntax::legal_name(value.trim(), "function") {
            Ok(n) => n,
            Err(d) => return self.diags.push(d),
        };
        let mut body = None;
        for t in line.tokens.iter().skip(1) {
            let text = self.text(*t);
            if let Some((k, v)) = token_parts(text, *t) {
                match k.text {
                    "VALUE" => body = Some(v.trim().owned()),
                    "EXPLANATION" => {}
                    _ => self.unexpected(*t, "DATACONTROL FUNCTION", "VALUE: or EXPLANATION:"),
                }
            }
        }
        let Some(body) = body else {
            self.diags.push(
                Diagnostic::error(
                    lcodes::MALFORMED,
                    name.span,
                    format!("FUNCTION `{}` has no VALUE", name.value),
                )
                .with_help("add a tab and `VALUE:<formula>` on the same line"),
            );
            return;
        };
        if BUILTIN_FUNCTIONS
            .iter()
            .any(|b| b.eq_ignore_ascii_case(&name.value))
        {
            self.diags.push(
                Diagnostic::error(
                    codes::DUPLICATE_FUNCTION,
                    name.span,
                    format!("`{}` is a built-in function", name.value),
                )
                .with_label("cannot be redefined")
                .with_help("choose another name"),
            );
            return;
        }
        if let Some(prev) = self.ds.function(&name.value) {
            if !prev.body.text.eq_ignore_ascii_case(&body.value) {
                let prev_span = prev.span;
                self.diags.push(
                    Diagnostic::error(
                        codes::DUPLICATE_FUNCTION,
                        body.span,
                        format!("function `{}` is already defined differently", name.value),
                    )
                    .with_label("attempted to reassign")
                    .with_secondary(prev_span, "first definition")
                    .with_help("give the new function another name, or make the bodies equal"),
                );
            }
            return;
        }
        let arity = arg_count(&body.value);
        self.ds.functions.push(UserFunction {
            name: Name::new(&name.value),
            body: FormulaValue {
                text: body.value,
                span: body.span,
            },
            arity,
            span: name.span,
        });
    }

    // ----- DATATABLE ------------------------------------------------------------------

    fn table_file(&mut self, f: &LoadedFile) {
        struct Open {
            name: At<String>,
            columns: Vec<At<String>>,
            formats: Option<Vec<Format>>,
            rows: Vec<Vec<String>>,
        }
        let mut open: Option<Open> = None;
        for line in &f.lines {
            let Some(tok) = line.tokens.first().copied() else {
                continue;
            };
            let text = self.text(tok);
            if text.starts_with("\"#")
                || text
                    .chars()
                    .all(|c| c.is_whitespace() || c == ',' || c == '"')
            {
                continue;
            }
            let cells = csv_cells(Slice::new(text, tok));
            let Some(first) = cells.first() else { continue };
            if let Some(name) = first.value.strip_prefix("STARTTABLE:") {
                if let Some(o) = open.take() {
                    self.table_error(
                        o.name.span,
                        format!("table `{}` has no ENDTABLE", o.name.value),
                    );
                }
                self.ds.tokens_checked += 1;
                open = Some(Open {
                    name: At {
                        value: name.trim().to_owned(),
                        span: first.span,
                    },
                    columns: Vec::new(),
                    formats: None,
                    rows: Vec::new(),
                });
                continue;
            }
            if first.value.starts_with("ENDTABLE:") {
                match open.take() {
                    Some(o) => self.finish_table(o.name, o.columns, o.formats, o.rows, first.span),
                    None => self.table_error(first.span, "ENDTABLE without STARTTABLE".into()),
                }
                continue;
            }
            let Some(o) = open.as_mut() else {
                self.table_error(first.span, "row outside of a table".into());
                continue;
            };
            if o.columns.is_empty() {
                o.columns = cells;
            } else if o.formats.is_none() {
                let mut formats = Vec::new();
                let mut ok = true;
                for c in &cells {
                    match self.format(c) {
                        Some(f) => formats.push(f),
                        None => ok = false,
                    }
                }
                if ok && formats.len() != o.columns.len() {
                    let span = first.span;
                    let n = o.columns.len();
                    self.table_error(span, format!("{} formats for {n} columns", formats.len()));
                }
                o.formats = Some(formats);
            } else {
                let formats = o.formats.clone().unwrap_or_default();
                let mut row = Vec::new();
                for (c, f) in cells.iter().zip(formats.iter()) {
                    if literal::parse(f, &c.value).is_none() {
                        self.diags.push(
                            Diagnostic::error(
                                codes::BAD_LITERAL,
                                c.span,
                                format!("`{}` is not a valid {f} cell", c.value),
                            )
                            .with_label(format!("expected {}", literal::shape(f)))
                            .with_help("fix the cell; PCGen aborts the whole load on a bad cell"),
                        );
                    }
                    row.push(c.value.clone());
                }
                if let Some(o) = open.as_mut() {
                    o.rows.push(row);
                }
            }
        }
        if let Some(o) = open {
            self.table_error(
                o.name.span,
                format!("table `{}` has no ENDTABLE", o.name.value),
            );
        }
    }

    fn table_error(&mut self, span: Span, message: String) {
        self.diags.push(
            Diagnostic::error(lcodes::BAD_TABLE, span, message)
                .with_help("a table is STARTTABLE:name, a column row, a format row, data rows, ENDTABLE:name")
                .with_note("PCGen aborts the whole load on a malformed table"),
        );
    }

    fn finish_table(
        &mut self,
        name: At<String>,
        columns: Vec<At<String>>,
        formats: Option<Vec<Format>>,
        rows: Vec<Vec<String>>,
        end: Span,
    ) {
        if rows.is_empty() {
            self.table_error(end, format!("table `{}` has no data rows", name.value));
            return;
        }
        if let Some(prev) = self.ds.table(&name.value) {
            let span = prev.span;
            self.diags.push(
                Diagnostic::error(
                    codes::DUPLICATE_TABLE,
                    name.span,
                    format!("table `{}` is defined twice", name.value),
                )
                .with_secondary(span, "first definition")
                .with_help("rename one of the tables"),
            );
            return;
        }
        let formats = formats.unwrap_or_default();
        self.ds.tables.push(Table {
            name: Name::new(&name.value),
            columns: columns
                .iter()
                .zip(formats)
                .map(|(c, f)| (Name::new(&c.value), f))
                .collect(),
            rows,
            span: name.span,
        });
    }

    // ----- VARIABLE -------------------------------------------------------------------

    fn variable_line(&mut self, line: &crate::load::Line) {
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
        self.ds.tokens_checked += 1;
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
        let scope = match &decl.scope {
            Some(s) => match self.scope(s) {
                Some(id) => id,
                None => return,
            },
            None => ScopeId::GLOBAL,
        };
        let format = match &decl.format {
            Some(f) => match self.format(f) {
                Some(f) => f,
                None => return,
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
            }
            if !matches!(format, Format::Array(_)) && self.ds.default_for(&format).is_none() {
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
    fn define(
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
        let clash = self.ds.variables.iter().find(|v| {
            v.name == key
                && v.origin.is_channel() == channel
                && v.scope != scope
                && self.ds.scopes.related(v.scope, scope)
        });
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
        });
        self.used.push(false);
        self.ds.var_index.insert((scope, key, channel), id);
        Some(id)
    }

    fn builtins(&mut self) {
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
                let prev = self.ds.variables.get(id.0 as usize).cloned();
                if let Some(prev) = prev {
                    if prev.format != format {
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
            });
            self.used.push(true);
            self.ds
                .var_index
                .insert((ScopeId::GLOBAL, key, channel), id);
        }
    }

    fn required_defaults(&mut self) {
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

    // ----- DYNAMIC and GLOBALMODIFIER -------------------------------------------------

    fn dynamic_line(&mut self, line: &crate::load::Line) {
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
        self.ds.tokens_checked += 1;
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

    fn dynamic_scope(&mut self, cat: Slice<'_>) -> Option<ScopeId> {
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
            let help = match closest(cat.text, cats.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "add `DYNAMICSCOPE:{}` to a DATACONTROL file",
                    cat.text.trim()
                ),
            };
            self.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_CATEGORY,
                    cat.span,
                    format!("`{}` is not a DYNAMICSCOPE", cat.text.trim()),
                )
                .with_label("no DYNAMICSCOPE of this name")
                .with_help(help),
            );
        }
        found
    }

    fn global_modifier_line(&mut self, line: &crate::load::Line) {
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
                self.ds.tokens_checked += 1;
                match syntax::modify(v) {
                    Ok(item) => {
                        self.modifier(&item, ScopeId::GLOBAL, Applies::Global, None);
                    }
                    Err(d) => self.diags.push(d),
                }
            }
            Some((k, v)) if k.text == "MODIFYOTHER" => {
                self.ds.tokens_checked += 1;
                self.modify_other(v, None);
            }
            _ => self.unexpected(first, "GLOBALMODIFIER", "MODIFY: or MODIFYOTHER:"),
        }
    }

    // ----- object files ---------------------------------------------------------------

    fn new_object(
        &mut self,
        kind: ObjectKind,
        key: &str,
        name: &str,
        scope: ScopeId,
        span: Span,
    ) -> ObjectId {
        let id = ObjectId(u32::try_from(self.ds.objects.len()).unwrap_or(u32::MAX));
        let key = Name::new(key.trim());
        self.ds
            .object_index
            .entry((kind.clone(), key.clone()))
            .or_insert(id);
        self.ds.objects.push(Object {
            id,
            kind,
            key,
            name: name.to_owned(),
            scope,
            groups: Vec::new(),
            modifiers: Vec::new(),
            grants: Vec::new(),
            facts: Vec::new(),
            span,
            forgotten: false,
        });
        id
    }

    fn line_form(kind: FileKind, first: &str) -> LineForm {
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
        if let Some(i) = first.find(".COPY=").filter(|i| *i > 0) {
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

    fn object_kind(&mut self, kind: FileKind) {
        let scope = self
            .ds
            .scopes
            .resolve(file_scope(kind))
            .map_or(ScopeId::GLOBAL, |(s, _)| s);
        let okind = ObjectKind::File(kind);
        let mut deferred: Vec<(&'a LoadedFile, &'a crate::load::Line, LineForm)> = Vec::new();
        let files: Vec<&'a LoadedFile> = self.files(kind).collect();
        for f in files {
            let mut last: Option<ObjectId> = None;
            for line in &f.lines {
                let Some(first) = line.tokens.first().copied() else {
                    continue;
                };
                let text = self.text(first);
                if text.starts_with("SOURCE") && text.contains(':') {
                    continue;
                }
                let continuation = match kind {
                    FileKind::Class => {
                        !text.starts_with("CLASS:")
                            && !text.contains(".MOD")
                            && !text.contains(".COPY")
                            && !text.contains(".FORGET")
                    }
                    FileKind::Kit => !text.starts_with("STARTPACK:"),
                    _ => false,
                };
                if continuation {
                    if let Some(id) = last {
                        for t in line.tokens.iter().skip(1) {
                            self.object_token(id, *t, kind);
                        }
                    }
                    continue;
                }
                match Self::line_form(kind, text) {
                    LineForm::Base(name) => {
                        let key = line
                            .tokens
                            .iter()
                            .skip(1)
                            .find_map(|t| self.text(*t).strip_prefix("KEY:"))
                            .map_or(name.clone(), |k| k.trim().to_owned());
                        if !passes_filter(&f.filter, &key) {
                            last = None;
                            continue;
                        }
                        let id = self.new_object(okind.clone(), &key, text, scope, first);
                        last = Some(id);
                        for t in line.tokens.iter().skip(1) {
                            self.object_token(id, *t, kind);
                        }
                    }
                    form => {
                        last = None;
                        deferred.push((f, line, form));
                    }
                }
            }
        }
        // PCGen order: copies, then mods, then forgets.
        for pass in 0..3 {
            for (f, line, form) in &deferred {
                let first = line.tokens.first().copied().unwrap_or(line.span);
                match (pass, form) {
                    (0, LineForm::Copy(base, new)) => {
                        if !passes_filter(&f.filter, new) {
                            continue;
                        }
                        let base_id = self.ds.object(&okind, base);
                        let id = self.new_object(okind.clone(), new, new, scope, first);
                        if let Some(b) = base_id.and_then(|b| self.ds.object_by_id(b).cloned()) {
                            if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                                o.groups = b.groups.clone();
                                o.facts = b.facts.clone();
                                o.grants = b.grants.clone();
                            }
                            for m in b.modifiers {
                                if let Some(mut copy) = self.ds.modifier(m).cloned() {
                                    let mid = ModId(
                                        u32::try_from(self.ds.modifiers.len()).unwrap_or(u32::MAX),
                                    );
                                    copy.id = mid;
                                    copy.source = Some(id);
                                    self.ds.modifiers.push(copy);
                                    if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                                        o.modifiers.push(mid);
                                    }
                                }
                            }
                        }
                        for t in line.tokens.iter().skip(1) {
                            self.object_token(id, *t, kind);
                        }
                    }
                    (1, LineForm::Mod(key)) => {
                        if !passes_filter(&f.filter, key) {
                            continue;
                        }
                        let id = match self.ds.object(&okind, key) {
                            Some(id) => id,
                            None => self.new_object(okind.clone(), key, key, scope, first),
                        };
                        for t in line.tokens.iter().skip(1) {
                            self.object_token(id, *t, kind);
                        }
                    }
                    (2, LineForm::Forget(key)) => {
                        if let Some(id) = self.ds.object(&okind, key) {
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

    fn object_token(&mut self, id: ObjectId, tok: Span, kind: FileKind) {
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
                self.ds.tokens_checked += 1;
                match syntax::modify(value) {
                    Ok(item) => {
                        self.modifier(&item, scope, Applies::Own, Some(id));
                    }
                    Err(d) => self.diags.push(d),
                }
            }
            "MODIFYOTHER" => {
                self.ds.tokens_checked += 1;
                self.modify_other(value, Some(id));
            }
            "PART" if kind == FileKind::Equipment => {
                self.ds.tokens_checked += 1;
                self.part(id, value);
            }
            "GROUP" => {
                let groups: Vec<Name> =
                    value.text.split('|').map(|g| Name::new(g.trim())).collect();
                if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
                    o.groups.extend(groups);
                }
            }
            "GRANT" => {
                self.ds.tokens_checked += 1;
                self.grant(id, value);
            }
            "FACT" | "FACTSET" => {
                self.ds.tokens_checked += 1;
                self.fact(id, kind, value, key.text == "FACTSET");
            }
            "FACE" if matches!(kind, FileKind::Race | FileKind::Template) => {
                self.ds.tokens_checked += 1;
                self.face(id, key, value);
            }
            _ => {}
        }
    }

    fn part(&mut self, id: ObjectId, value: Slice<'_>) {
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
            "MODIFY" => match syntax::modify(inner) {
                Ok(item) => {
                    self.modifier(&item, part_scope, Applies::Part(n.value), Some(id));
                }
                Err(d) => self.diags.push(d),
            },
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

    fn grant(&mut self, id: ObjectId, value: Slice<'_>) {
        let Some((cat, names)) = value.split_once('|') else {
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
                o.grants.push(Grant {
                    category: cat_name.clone(),
                    key: Name::new(s.text),
                    object: None,
                    span: s.span,
                });
            }
        }
    }

    fn fact(&mut self, id: ObjectId, kind: FileKind, value: Slice<'_>, set: bool) {
        let Some((name, val)) = value.split_once('|') else {
            return self.malformed(
                value.span,
                "expected `FactName|value`",
                "write e.g. `FACT:IsOrc|True`",
            );
        };
        let name = name.trim();
        let Some(loc) = fact_location(kind) else {
            return;
        };
        let defined = self
            .ds
            .fact_defs
            .iter()
            .any(|d| d.set == set && d.location.is(loc) && d.name.is(name.text));
        if !defined {
            let def = if set { "FACTSETDEF" } else { "FACTDEF" };
            let known: Vec<String> = self
                .ds
                .fact_defs
                .iter()
                .filter(|d| d.set == set && d.location.is(loc))
                .map(|d| d.name.to_string())
                .collect();
            let help = match closest(name.text, known.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!(
                    "add `{def}:{loc}|{}` to a DATACONTROL file of this load",
                    name.text
                ),
            };
            self.diags.push(
                Diagnostic::error(
                    codes::UNKNOWN_FACT,
                    name.span,
                    format!(
                        "{} `{}` has no {def} for {loc}",
                        if set { "FACTSET" } else { "FACT" },
                        name.text
                    ),
                )
                .with_label(format!("not defined for {loc} objects in this load"))
                .with_help(help),
            );
            return;
        }
        if let Some(o) = self.ds.objects.get_mut(id.0 as usize) {
            o.facts.push(Fact {
                name: Name::new(name.text),
                value: val.text.to_owned(),
                set,
            });
        }
    }

    fn face(&mut self, id: ObjectId, key: Slice<'_>, value: Slice<'_>) {
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
        let Some((w, h)) = pair.filter(|(w, h)| !w.is_sign_negative() && !h.is_sign_negative())
        else {
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
        let Some(var) = self.ds.resolve_variable(ScopeId::GLOBAL, "Face") else {
            return;
        };
        self.push_modifier(Modifier {
            id: ModId(0),
            variable: var,
            kind: ModifierKind::Set,
            priority: 10,
            value: ModifierValue::Constant(Literal::Pair(w, h)),
            scope: ScopeId::GLOBAL,
            source: Some(id),
            applies: Applies::Own,
            span: key.span.join(value.span),
        });
    }

    fn push_modifier(&mut self, mut m: Modifier) -> ModId {
        let id = ModId(u32::try_from(self.ds.modifiers.len()).unwrap_or(u32::MAX));
        m.id = id;
        if let Some(u) = self.used.get_mut(m.variable.0 as usize) {
            *u = true;
        }
        if let Some(src) = m.source {
            if let Some(o) = self.ds.objects.get_mut(src.0 as usize) {
                o.modifiers.push(id);
            }
        }
        self.ds.modifiers.push(m);
        id
    }

    fn modify_other(&mut self, value: Slice<'_>, source: Option<ObjectId>) {
        let item = match syntax::modify_other(value) {
            Ok(i) => i,
            Err(d) => return self.diags.push(d),
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
            self.refs.push(PendingRef {
                scope,
                key: k.clone(),
                span: item.address.grouping.span,
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
    fn modifier(
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
                    d = d.with_help(
                        match closest(
                            &item.kind.value,
                            ["SET", "ADD", "MULTIPLY", "DIVIDE", "MAX", "MIN"],
                        ) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => "use SET, ADD, MULTIPLY, DIVIDE, MAX or MIN".into(),
                        },
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

    fn modifier_value(
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
        match &variable.format {
            Format::Number => Some(match literal::parse(&Format::Number, text) {
                Some(l) => ModifierValue::Constant(l),
                None => formula(),
            }),
            Format::Boolean => match literal::parse(&Format::Boolean, text) {
                Some(l) => Some(ModifierValue::Constant(l)),
                None => {
                    self.diags.push(
                        Diagnostic::warning(
                            codes::PCGEN_DIVERGENCE,
                            item.value.span,
                            "PCGen accepts only `true` or `false` here",
                        )
                        .with_label("a formula for a BOOLEAN modifier")
                        .with_help("keep it if only this engine reads the data; PCGen needs a fixed true/false")
                        .with_note("the spec's own example sets a BOOLEAN with a formula (`HandsRequired>Hands`)"),
                    );
                    Some(formula())
                }
            },
            Format::String => Some(ModifierValue::Constant(Literal::String(text.to_owned()))),
            Format::Dice | Format::OrderedPair => match literal::parse(&variable.format, text) {
                Some(l) => Some(ModifierValue::Constant(l)),
                None => {
                    bad(self);
                    None
                }
            },
            Format::Object(_) | Format::Optional(_) => {
                if text.contains(['"', '(']) {
                    Some(formula())
                } else {
                    Some(ModifierValue::Constant(Literal::Object(Name::new(text))))
                }
            }
            Format::Array(_) => Some(formula()),
        }
    }

    fn unknown_target(&mut self, item: &ModifyItem, scope: ScopeId) {
        let visible: Vec<String> = self
            .ds
            .variables
            .iter()
            .filter(|v| !v.origin.is_channel() && self.ds.scopes.depth_to(scope, v.scope).is_some())
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
        .with_label("not defined in this scope or its ancestors");
        let elsewhere = self
            .ds
            .variables
            .iter()
            .find(|v| v.name.is(&item.var.value) && !v.origin.is_channel());
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
        d = d.with_help(
            match closest(&item.var.value, visible.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "define it with GLOBAL: or LOCAL: in a VARIABLE file".to_owned(),
            },
        );
        self.diags.push(d);
    }

    fn check_refs(&mut self) {
        let refs = std::mem::take(&mut self.refs);
        for r in refs {
            let exists = self
                .ds
                .objects
                .iter()
                .any(|o| o.scope == r.scope && o.key == r.key && !o.forgotten);
            if exists {
                continue;
            }
            let keys: Vec<String> = self
                .ds
                .objects_in(r.scope)
                .map(|o| o.key.to_string())
                .collect();
            let help = match closest(r.key.as_str(), keys.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => "check the key; MODIFYOTHER addresses objects by KEY".to_owned(),
            };
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
                .with_help(help),
            );
        }
        let grants: Vec<(usize, usize, Option<ObjectId>)> = self
            .ds
            .objects
            .iter()
            .enumerate()
            .flat_map(|(i, o)| o.grants.iter().enumerate().map(move |(j, g)| (i, j, g)))
            .map(|(i, j, g)| {
                (
                    i,
                    j,
                    self.ds
                        .object(&ObjectKind::Dynamic(g.category.clone()), g.key.as_str()),
                )
            })
            .collect();
        for (i, j, id) in grants {
            if let Some(g) = self.ds.objects.get_mut(i).and_then(|o| o.grants.get_mut(j)) {
                g.object = id;
            }
        }
    }

    fn check_formulas(&mut self) {
        // Formula type-checking arrives with the formula core (see `formula::check`).
    }

    fn unused_variables(&mut self) {}
}

trait SecondaryOpt {
    fn with_secondary_opt(self, span: Option<Span>, text: String) -> Self;
}

impl SecondaryOpt for Diagnostic {
    fn with_secondary_opt(self, span: Option<Span>, text: String) -> Self {
        match span {
            Some(s) => self.with_secondary(s, text),
            None => self,
        }
    }
}

fn passes_filter(filter: &Option<KeyFilter>, key: &str) -> bool {
    match filter {
        None => true,
        Some(KeyFilter::Include(keys)) => keys.iter().any(|k| k.eq_ignore_ascii_case(key)),
        Some(KeyFilter::Exclude(keys)) => !keys.iter().any(|k| k.eq_ignore_ascii_case(key)),
    }
}

/// Highest `arg(n)` in a function body, plus one.
fn arg_count(body: &str) -> usize {
    let lower = body.to_ascii_lowercase();
    let mut max: Option<usize> = None;
    let mut rest = lower.as_str();
    while let Some(i) = rest.find("arg(") {
        let after = rest.get(i + 4..).unwrap_or("");
        let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
        if let Ok(n) = digits.parse::<usize>() {
            max = Some(max.map_or(n, |m| m.max(n)));
        }
        rest = after;
    }
    max.map_or(0, |m| m.saturating_add(1))
}

/// CSV cells of a DATATABLE line (`"` quotes, `""` escapes), trailing empty cells dropped.
fn csv_cells(line: Slice<'_>) -> Vec<At<String>> {
    let mut out = Vec::new();
    let bytes = line.text.as_bytes();
    let mut i = 0;
    loop {
        let start = i;
        while bytes.get(i) == Some(&b' ') {
            i += 1;
        }
        let mut value = String::new();
        let mut quoted = false;
        if bytes.get(i) == Some(&b'"') {
            quoted = true;
            i += 1;
            let mut seg = i;
            while i < bytes.len() {
                if bytes.get(i) == Some(&b'"') {
                    if bytes.get(i + 1) == Some(&b'"') {
                        value.push_str(line.text.get(seg..=i).unwrap_or(""));
                        i += 2;
                        seg = i;
                        continue;
                    }
                    value.push_str(line.text.get(seg..i).unwrap_or(""));
                    i += 1;
                    break;
                }
                i += 1;
            }
            if i >= bytes.len() && bytes.last() != Some(&b'"') {
                value.push_str(line.text.get(seg..).unwrap_or(""));
            }
        }
        while i < bytes.len() && bytes.get(i) != Some(&b',') {
            i += 1;
        }
        if !quoted {
            value = line.text.get(start..i).unwrap_or("").trim().to_owned();
        }
        out.push(At {
            value,
            span: line.sub(start..i).span,
        });
        if i >= bytes.len() {
            break;
        }
        i += 1;
    }
    while out.last().is_some_and(|c| c.value.is_empty()) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    #[test]
    fn csv_and_arity() {
        let t = "a, \"b,\"\"c\" ,,";
        let cells = csv_cells(Slice::new(t, Span::new(FileId(0), 0..t.len())));
        let v: Vec<&str> = cells.iter().map(|c| c.value.as_str()).collect();
        assert_eq!(v, ["a", "b,\"c"]);
        assert_eq!(arg_count("floor((arg(0)-10)/2)"), 1);
        assert_eq!(arg_count("ARG(2)+arg(0)"), 3);
        assert_eq!(arg_count("1"), 0);
    }
}
