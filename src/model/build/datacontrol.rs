//! DATACONTROL lines (defaults, facts, functions) and DATATABLE tables.

use super::*;
use crate::load::loadset::line_mode;
use crate::source::{FileId, SourceFile};
use std::sync::Arc;

/// PCGen's YES/NO reading (REQUIRED, SELECTABLE): `Y`/`YES`/`N`/`NO`, any case.
fn yes_no(text: &str) -> Option<bool> {
    if text.eq_ignore_ascii_case("YES") || text.eq_ignore_ascii_case("Y") {
        Some(true)
    } else if text.eq_ignore_ascii_case("NO") || text.eq_ignore_ascii_case("N") {
        Some(false)
    } else {
        None
    }
}

impl<'a> Builder<'a> {
    // ----- DATACONTROL ----------------------------------------------------------------

    pub(super) fn data_control_line(&mut self, line: &crate::load::Line) {
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
        self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
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
            // Read once per file (`data_control_file`); a line given here alone is read
            // the same way.
            "FACTDEF" | "FACTSETDEF" => {
                let src = self.load.sources.get(first.file);
                if let Some(src) = src {
                    let fact = read_fact_def(src, value, key.text == "FACTSETDEF", line);
                    self.cached_fact_def(&fact, first.file);
                }
            }
            "FUNCTION" => self.function(value, line),
            "DYNAMICSCOPE" => {}
            _ => self.unexpected(
                key.span,
                "DATACONTROL",
                "FACTDEF, FACTSETDEF, DEFAULTVARIABLEVALUE, FUNCTION or DYNAMICSCOPE",
            ),
        }
    }

    pub(super) fn unexpected(&mut self, span: Span, file: &str, allowed: &str) {
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

    pub(super) fn default_value(&mut self, value: Slice<'_>) {
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

    /// The lines of one DATACONTROL file. Its FACTDEF and FACTSETDEF lines are read once
    /// per file and run ([`FactLines`]); a load set only checks their DATAFORMATs against
    /// its own dynamic scopes and enters them in its tables. The other lines (defaults,
    /// functions) depend on the load set and are read here.
    pub(super) fn data_control_file(&mut self, f: &LoadedFile) {
        let facts = FactLines::of(f);
        self.ds.fact_defs.reserve(facts.lines.len());
        self.fact_index.reserve(facts.lines.len());
        let mut next = facts.lines.iter().peekable();
        for (i, line) in f.lines.shared().iter().enumerate() {
            match next.next_if(|(at, _)| *at == i) {
                Some((_, fact)) => {
                    self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                    self.cached_fact_def(fact, f.file);
                }
                None => {
                    let placed = crate::load::Line {
                        number: line.number,
                        span: f.lines.place(line.span),
                        tokens: line.tokens.iter().map(|t| f.lines.place(*t)).collect(),
                    };
                    self.data_control_line(&placed);
                }
            }
        }
    }

    /// A FACTDEF line read once per file, entered in this load set (file `id`).
    fn cached_fact_def(&mut self, fact: &CachedFact, id: FileId) {
        let placed = |d: &Diagnostic| {
            let mut d = d.clone();
            d.move_to(id);
            d
        };
        let (def, steps, hash) = match fact {
            CachedFact::Rejected(d) => return self.diags.push(placed(d)),
            CachedFact::Def { def, steps, hash } => (def, steps, *hash),
        };
        let mut def = def.clone();
        def.span.file = id;
        for step in steps {
            match step {
                FactStep::Report(d) => self.diags.push(placed(d)),
                FactStep::Format { format, value } => {
                    def.format = format.clone().filter(|f| self.known_format(f));
                    if def.format.is_none() {
                        let span = Span {
                            file: id,
                            ..value.span
                        };
                        self.fact_attribute_problem(
                            span,
                            &format!("unknown DATAFORMAT `{}`", value.value),
                            "use NUMBER, BOOLEAN, STRING, ORDEREDPAIR, DICE or an object format",
                        );
                    }
                }
            }
        }
        let at = self.ds.fact_defs.len();
        self.ds.fact_defs.push(def);
        self.fact_index.insert_first(&self.ds.fact_defs, hash, at);
    }

    fn fact_attribute_problem(&mut self, span: Span, message: &str, help: &str) {
        self.diags.push(fact_attribute_problem(span, message, help));
    }

    /// Every object of a FACTDEF's location that does not give a `REQUIRED:YES` fact:
    /// one error per object, naming every required fact it lacks (PCGen: "FACT X was
    /// required but not set in `<kind> <key>`").
    pub(super) fn required_facts(&mut self) {
        let required: Vec<&FactDef> = self.ds.fact_defs.iter().filter(|d| d.required).collect();
        if required.is_empty() {
            return;
        }
        let mut found = Vec::new();
        // The kinds of the locations of the required facts: other objects are passed over
        // without a look-up.
        let kinds: Vec<FileKind> = FileKind::LOAD_ORDER
            .into_iter()
            .filter(|k| {
                fact_location(*k).is_some_and(|loc| required.iter().any(|d| d.location.is(loc)))
            })
            .collect();
        let checked = self.ds.objects.iter().filter(|o| {
            matches!(&o.kind, ObjectKind::File(k) if kinds.contains(k))
                && !o.forgotten
                && !self.made_by_mod.contains(&o.id)
        });
        for o in checked {
            let ObjectKind::File(kind) = &o.kind else {
                continue;
            };
            let Some(loc) = fact_location(*kind) else {
                continue;
            };
            let missing: Vec<&FactDef> = required
                .iter()
                .filter(|d| d.location.is(loc))
                .filter(|d| {
                    !o.facts().iter().any(|f| f.set == d.set && f.name == d.name)
                        && !self.facts_written.contains(&(o.id, d.set, d.name.clone()))
                })
                .copied()
                .collect();
            let Some(first) = missing.first() else {
                continue;
            };
            let names: Vec<String> = missing
                .iter()
                .map(|d| format!("{} {}", if d.set { "FACTSET" } else { "FACT" }, d.name))
                .collect();
            let what = names.join(", ");
            let them = if missing.len() == 1 { "it" } else { "them" };
            let mut d = Diagnostic::error(
                codes::REQUIRED_FACT,
                o.span,
                format!(
                    "{what} {} required but not set in {loc} {}",
                    if missing.len() == 1 { "was" } else { "were" },
                    self.ds.key_of(o)
                ),
            )
            .with_label(format!("{loc} without {what}"))
            .with_secondary(first.span, "required here (REQUIRED:YES)")
            .with_help(format!(
                "add {} to this line, or drop REQUIRED:YES from the definition",
                missing
                    .iter()
                    .map(|d| format!("`{}:{}|…`", if d.set { "FACTSET" } else { "FACT" }, d.name))
                    .collect::<Vec<_>>()
                    .join(" and ")
            ))
            .with_note(format!(
                "PCGen reports each object without {them} when the data loads"
            ));
            if let Some(explanation) = &first.explanation {
                d = d.with_note(format!("the definition explains: {explanation}"));
            }
            found.push(d);
        }
        self.diags.extend(found);
    }

    pub(super) fn function(&mut self, value: Slice<'_>, line: &crate::load::Line) {
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
        if is_builtin_function(&name.value) {
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
                compiled: None,
            },
            arity,
            span: name.span,
        });
    }

    // ----- DATATABLE ------------------------------------------------------------------

    pub(super) fn table_file(&mut self, f: &LoadedFile) {
        struct Open {
            name: At<String>,
            columns: Vec<At<String>>,
            formats: Option<Vec<Format>>,
            rows: Vec<Vec<Value>>,
            /// Data rows read, also those dropped for a bad cell (already an error).
            seen: usize,
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
                self.ds.tokens_checked = self.ds.tokens_checked.saturating_add(1);
                open = Some(Open {
                    name: At {
                        value: name.trim().to_owned(),
                        span: first.span,
                    },
                    columns: Vec::new(),
                    formats: None,
                    rows: Vec::new(),
                    seen: 0,
                });
                continue;
            }
            if first.value.starts_with("ENDTABLE:") {
                match open.take() {
                    Some(o) => {
                        let rows = (o.rows, o.seen);
                        self.finish_table(o.name, o.columns, o.formats, rows, first.span);
                    }
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
                o.seen = o.seen.saturating_add(1);
                let row = self.table_row(&cells, &formats, &o.columns);
                if let (Some(row), Some(o)) = (row, open.as_mut()) {
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

    pub(super) fn table_error(&mut self, span: Span, message: String) {
        self.diags.push(
            Diagnostic::error(lcodes::BAD_TABLE, span, message)
                .with_help("a table is STARTTABLE:name, a column row, a format row, data rows, ENDTABLE:name")
                .with_note("PCGen aborts the whole load on a malformed table"),
        );
    }

    pub(super) fn finish_table(
        &mut self,
        name: At<String>,
        columns: Vec<At<String>>,
        formats: Option<Vec<Format>>,
        (rows, seen): (Vec<Vec<Value>>, usize),
        end: Span,
    ) {
        if seen == 0 {
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
        let columns = columns
            .iter()
            .zip(formats)
            .map(|(c, f)| (Name::new(&c.value), f))
            .collect();
        self.ds
            .tables
            .push(Table::new(Name::new(&name.value), columns, rows, name.span));
    }

    /// One data row parsed with its columns' formats, once, at load. A cell that is not a
    /// value of its column's format (a missing trailing cell reads as empty text, as
    /// `lookup()` always read it) is an M0110 error on the cell and drops the row.
    fn table_row(
        &mut self,
        cells: &[At<String>],
        formats: &[Format],
        columns: &[At<String>],
    ) -> Option<Vec<Value>> {
        let mut row = Vec::with_capacity(formats.len());
        let mut ok = true;
        for (i, f) in formats.iter().enumerate() {
            match cells.get(i) {
                Some(c) => match literal::parse(f, &c.value) {
                    Some(v) => row.push(v),
                    None => {
                        ok = false;
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
                },
                None => match literal::parse(f, "") {
                    Some(v) => row.push(v),
                    None => {
                        ok = false;
                        let column = columns.get(i).map_or("?", |c| c.value.as_str());
                        let span = cells.last().map_or(Span::default(), |c| c.span);
                        self.diags.push(
                            Diagnostic::error(
                                codes::BAD_LITERAL,
                                span,
                                format!("the row has no cell for column `{column}` ({f})"),
                            )
                            .with_label(format!("expected {} after this cell", literal::shape(f)))
                            .with_help("add the cell; PCGen aborts the whole load on a bad cell"),
                        );
                    }
                },
            }
        }
        ok.then_some(row)
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

/// The name under which a DATACONTROL file's FACTDEF lines are kept in the file cache.
const FACT_LINES: &str = "model::fact_lines";

/// The FACTDEF and FACTSETDEF lines of one DATACONTROL file, read once per file and run
/// (spans in the cache's file, [`crate::load::cache::CACHE_FILE`]).
#[derive(Debug)]
struct FactLines {
    /// The index of each such line in the file's lines, with what it reads as.
    lines: Vec<(usize, CachedFact)>,
}

/// One FACTDEF line as read from its file alone.
#[derive(Debug)]
enum CachedFact {
    /// Not a definition (no `|`, or not a fact location): this one error.
    Rejected(Diagnostic),
    /// A definition: the fact as read, and what a load set does with the line in order.
    Def {
        /// The fact, its DATAFORMAT left out (it depends on the load set's scopes).
        def: FactDef,
        /// Findings and DATAFORMAT checks, in the order of the line's tokens.
        steps: Vec<FactStep>,
        /// The fact's hash in the load set's index of definitions
        /// ([`super::fact_index::FactIndex::hash_of`]).
        hash: u64,
    },
}

/// One step of entering a cached FACTDEF in a load set.
#[derive(Debug)]
enum FactStep {
    /// A finding of the line alone.
    Report(Diagnostic),
    /// A `DATAFORMAT:` token: the format named (`None`: no format has that name), which is
    /// the fact's format when the load set knows it (object formats may be dynamic scopes).
    Format {
        format: Option<Format>,
        value: At<String>,
    },
}

impl FactLines {
    /// The FACTDEF lines of `f` (a DATACONTROL file), read by the first load set that asks.
    fn of(f: &LoadedFile) -> Arc<Self> {
        f.cached.derived(FACT_LINES, 0, |cached| {
            let src = cached.source();
            let lines = cached
                .shared_lines(line_mode(FileKind::DataControl))
                .iter()
                .enumerate()
                .filter_map(|(i, line)| {
                    let first = *line.tokens.first()?;
                    let (key, value) = token_parts(src.slice(first), first)?;
                    let set = match key.text {
                        "FACTDEF" => false,
                        "FACTSETDEF" => true,
                        _ => return None,
                    };
                    if value.text.trim().is_empty() {
                        return None;
                    }
                    Some((i, read_fact_def(src, value, set, line)))
                })
                .collect();
            FactLines { lines }
        })
    }
}

/// A FACTDEF (`set`: FACTSETDEF) line read from its file alone: `value` is what follows
/// `FACTDEF:`, `line` the whole line, its text in `src`.
fn read_fact_def(
    src: &SourceFile,
    value: Slice<'_>,
    set: bool,
    line: &crate::load::Line,
) -> CachedFact {
    let Some((loc, name)) = split_at_byte(value, b'|') else {
        return CachedFact::Rejected(
            Diagnostic::error(
                lcodes::MALFORMED,
                value.span,
                "expected `LOCATION|FactName`",
            )
            .with_help("write e.g. `FACTDEF:TEMPLATE|IsOrc`".to_owned()),
        );
    };
    let loc = loc.trim();
    if !fact_locations().any(|l| l == loc.text) {
        return CachedFact::Rejected(
            Diagnostic::error(
                codes::BAD_FACT_LOCATION,
                loc.span,
                format!("`{}` is not a fact location", loc.text),
            )
            .with_label("invalid data definition location")
            .with_did_you_mean_or(
                loc.span,
                closest(loc.text, fact_locations()),
                "use an object kind such as ABILITY, RACE, TEMPLATE or EQUIPMENT",
            ),
        );
    }
    let name = name.trim();
    let mut def = FactDef {
        location: Name::new(loc.text),
        name: Name::new(name.text),
        set,
        format: None,
        span: name.span,
        required: false,
        selectable: false,
        visibility: FactVisibility::default(),
        display_name: None,
        explanation: None,
    };
    let mut steps = Vec::new();
    let mut has_format = false;
    let problem =
        |span, message: &str, help| FactStep::Report(fact_attribute_problem(span, message, help));
    for t in line.tokens.iter().skip(1) {
        let text = src.slice(*t);
        // A token without `:` or with a name FACTDEF does not take is the token
        // vocabulary's finding (T0117, T0110), reported once there.
        let Some((k, v)) = token_parts(text, *t) else {
            continue;
        };
        let v = v.trim();
        match k.text {
            "DATAFORMAT" => {
                has_format = true;
                steps.push(FactStep::Format {
                    format: super::format_from_name(v.text),
                    value: At {
                        value: v.text.to_owned(),
                        span: v.span,
                    },
                });
            }
            "REQUIRED" | "SELECTABLE" => match yes_no(v.text) {
                Some(yes) if k.text == "REQUIRED" => def.required = yes,
                Some(yes) => def.selectable = yes,
                None => steps.push(problem(
                    v.span,
                    &format!("{} must be YES or NO, not `{}`", k.text, v.text),
                    "write YES or NO",
                )),
            },
            "VISIBLE" => match v.text {
                "YES" => def.visibility = FactVisibility::Yes,
                "DISPLAY" => def.visibility = FactVisibility::Display,
                "EXPORT" => def.visibility = FactVisibility::Export,
                "NO" => def.visibility = FactVisibility::No,
                _ => steps.push(problem(
                    v.span,
                    &format!(
                        "VISIBLE must be YES, DISPLAY, EXPORT or NO, not `{}`",
                        v.text
                    ),
                    "write YES, DISPLAY, EXPORT or NO (upper case, as PCGen reads it)",
                )),
            },
            "DISPLAYNAME" => def.display_name = Some(v.text.into()),
            "EXPLANATION" => def.explanation = Some(v.text.into()),
            _ => {}
        }
    }
    if !has_format {
        let def_token = if set { "FACTSETDEF" } else { "FACTDEF" };
        steps.push(FactStep::Report(
            Diagnostic::error(
                codes::BAD_FACT_ATTRIBUTE,
                name.span,
                format!("{def_token} `{}` has no DATAFORMAT", name.text),
            )
            .with_label("no DATAFORMAT: on this line")
            .with_help("add a tab and e.g. `DATAFORMAT:STRING` on the same line")
            .with_note("PCGen reports \"did not have a DATAFORMAT\" and drops the definition"),
        ));
    }
    let hash = super::fact_index::FactIndex::hash_of(def.set, &def.location, &def.name);
    CachedFact::Def { def, steps, hash }
}

fn fact_attribute_problem(span: Span, message: &str, help: &str) -> Diagnostic {
    Diagnostic::error(codes::BAD_FACT_ATTRIBUTE, span, message.to_owned())
        .with_label("PCGen rejects this FACTDEF attribute")
        .with_help(help.to_owned())
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
