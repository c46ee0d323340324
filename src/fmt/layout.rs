//! PrettyLST's layout of one LST file: each object line's tokens put in its line type's
//! column order, lines of a block aligned on shared tab stops, and the header comments of
//! blocks rewritten to match. What cannot be laid out without risk stays as it was (see
//! [`Kept`]).

use super::columns::{self, cell_width, tabs_after};
use super::table::{Format, Header, LineSpec, Mode, Tables};
use crate::load::text::{LineMode, lines};
use crate::source::FileId;
use std::collections::HashMap;

/// Why an object line was left as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// No line type of the file's type matches its start.
    UnknownLineType,
    /// PrettyLST has no column order for its line type.
    NoOrder,
    /// It starts with white space (PCGen keeps the spaces of an object's name; a leading tab
    /// before a `#` would turn it into a comment).
    Indented,
    /// Putting its tokens in column order would change the order of two tokens PCGen reads
    /// in order (of one name, or of one `BONUS`/`FACT` kind: `TYPE:x` before `TYPE:.CLEAR`,
    /// two `ADD:` of different kinds).
    SameNameOrder,
}

/// One physical line of the file being laid out.
enum Entry<'t> {
    /// A comment or blank line (the text trimmed as PrettyLST compares it with headers).
    Comment(&'t str),
    /// A token line.
    Object(Object<'t>),
}

/// A token line.
struct Object<'t> {
    /// Its line type, if one matched.
    spec: Option<&'static LineSpec>,
    /// The main line it belongs to (the last main line before it, unless a single line came
    /// between).
    main: Option<usize>,
    /// Its cells in column order: the column key and the tokens in it, in file order.
    cells: Vec<(&'t str, Vec<&'t str>)>,
    /// Why it stays as it is, if it does.
    kept: Option<Kept>,
}

/// The rewritten lines of a file (index → new text; lines not in it are unchanged) and the
/// lines left alone.
#[derive(Debug, Default)]
pub struct Laid {
    /// New text of the lines that change (without line break).
    pub lines: HashMap<usize, String>,
    /// Lines (0-based) kept as they were, and why.
    pub kept: Vec<(usize, Kept)>,
}

/// Lays out `contents` (the file's lines without their line breaks) as PrettyLST lays out a
/// file of `file_type`; `text` is the whole file, tokenised as the loader does in `mode`.
pub fn lay_out(file_type: &str, text: &str, mode: LineMode, contents: &[&str]) -> Laid {
    let tables = Tables::get();
    let mut laid = Laid::default();
    let Some(specs) = tables.line_types(file_type) else {
        return laid;
    };
    let mut entries: Vec<Entry<'_>> = contents.iter().map(|c| Entry::Comment(c.trim())).collect();
    let mut main: Option<usize> = None;
    for line in lines(FileId(0), text, mode) {
        let index = (line.number as usize).saturating_sub(1);
        let Some(content) = contents.get(index) else {
            continue;
        };
        let tokens: Vec<&str> = line
            .tokens
            .iter()
            .filter_map(|s| text.get(s.start as usize..s.end as usize))
            .collect();
        let spec = specs.iter().find(|s| s.first.matches(content));
        if let Some(s) = spec {
            match s.mode {
                Mode::Main => main = Some(index),
                Mode::Single => main = None,
                Mode::Sub => {}
            }
        }
        let (cells, kept) = match spec {
            None => (Vec::new(), Some(Kept::UnknownLineType)),
            Some(s) => cells_of(s, content, &tokens),
        };
        if let Some(k) = kept {
            laid.kept.push((index, k));
        }
        if let Some(e) = entries.get_mut(index) {
            *e = Entry::Object(Object {
                spec,
                main,
                cells,
                kept,
            });
        }
    }
    let headers = find_headers(&entries, tables);
    let mut done = vec![false; entries.len()];
    for i in 0..entries.len() {
        let Some(Entry::Object(o)) = entries.get(i) else {
            continue;
        };
        let (Some(spec), None) = (o.spec, o.kept) else {
            continue;
        };
        if done.get(i).copied().unwrap_or(true) {
            continue;
        }
        match (spec.mode, spec.format) {
            (Mode::Single, _) | (_, Format::Line) => {
                lay_out_line(i, o, spec, &headers, tables, &mut laid);
            }
            (Mode::Main, _) => {
                let block = main_block(&entries, i, spec.line_type);
                lay_out_block(&entries, &block, spec, file_type, &headers, &mut laid);
                for b in block {
                    if let Some(d) = done.get_mut(b) {
                        *d = true;
                    }
                }
            }
            (Mode::Sub, format) => {
                let block = sub_block(&entries, i, o.main, spec.line_type);
                lay_out_sub_block(&entries, &block, format, &mut laid);
                for b in block {
                    if let Some(d) = done.get_mut(b) {
                        *d = true;
                    }
                }
            }
        }
    }
    laid
}

/// The cells of a token line of type `spec`, in column order, or why the line is kept.
fn cells_of<'t>(
    spec: &LineSpec,
    content: &str,
    tokens: &[&'t str],
) -> (Vec<(&'t str, Vec<&'t str>)>, Option<Kept>) {
    let Some(order) = Tables::get().order(spec.line_type) else {
        return (Vec::new(), Some(Kept::NoOrder));
    };
    let Some(first) = tokens.first() else {
        return (Vec::new(), Some(Kept::UnknownLineType));
    };
    if !content.starts_with(first) || first.trim() != *first {
        return (Vec::new(), Some(Kept::Indented));
    }
    let mut cells: Vec<(&'t str, Vec<&'t str>)> = Vec::new();
    for (n, t) in tokens.iter().enumerate() {
        let key = match (n, spec.first_column) {
            (0, Some(column)) => column,
            _ => columns::key(t, order),
        };
        match cells.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ts)) => ts.push(t),
            None => cells.push((key, vec![t])),
        }
    }
    // Known columns in their order, then the others sorted (PrettyLST's `sort keys`); the
    // first token stays first whatever its key.
    cells.sort_by(|(a, _), (b, _)| rank(order, a).cmp(&rank(order, b)));
    let laid_out: Vec<&str> = cells
        .iter()
        .flat_map(|(_, ts)| ts.iter().copied())
        .collect();
    if laid_out.first() != tokens.first() || !same_name_order(tokens, &laid_out) {
        return (Vec::new(), Some(Kept::SameNameOrder));
    }
    (cells, None)
}

/// Sort key of a column: its place in the order, or after all of them by its text.
fn rank<'k>(order: &HashMap<&'static str, usize>, key: &'k str) -> (usize, &'k str) {
    match order.get(key) {
        Some(r) => (*r, ""),
        None => (usize::MAX, key),
    }
}

/// True when `after` holds the tokens of `before` with the tokens of every unit PCGen reads
/// in order (a token name, or for `BONUS`, `FACT` and a few others its name and kind) in
/// the same order — the formatter's promise (`.CLEAR` stays before what it clears, two
/// `ADD:` keep their order).
pub fn same_name_order(before: &[&str], after: &[&str]) -> bool {
    if before.len() != after.len() {
        return false;
    }
    let cleared = columns::cleared_names(before);
    let mut by_unit: HashMap<&str, Vec<&str>> = HashMap::new();
    for t in before {
        by_unit
            .entry(columns::order_unit(t, &cleared))
            .or_default()
            .push(t);
    }
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for t in after {
        let unit = columns::order_unit(t, &cleared);
        let n = seen.entry(unit).or_default();
        if by_unit.get(unit).and_then(|ts| ts.get(*n)) != Some(t) {
            return false;
        }
        *n += 1;
    }
    true
}

/// Which comment lines are headers (PrettyLST's rule: a comment starting with the header of
/// the first column of the line type before it, or of the line after it).
fn find_headers(entries: &[Entry<'_>], tables: &Tables) -> Vec<bool> {
    let header_of = |line_type: Option<&str>| {
        line_type
            .and_then(|l| tables.first_key(l).map(|k| tables.header(k, l)))
            .filter(|h| !h.is_empty())
    };
    let mut current: Option<&str> = None;
    let mut out = vec![false; entries.len()];
    for (i, e) in entries.iter().enumerate() {
        match e {
            Entry::Object(o) => {
                if let Some(s) = o.spec {
                    current = Some(s.line_type);
                }
            }
            Entry::Comment(text) => {
                let next = match entries.get(i + 1) {
                    Some(Entry::Object(o)) => o.spec.map(|s| s.line_type).or(current),
                    _ => current,
                };
                let starts = |h: Option<&str>| h.is_some_and(|h| text.starts_with(h));
                if let Some(slot) = out.get_mut(i) {
                    *slot = starts(header_of(current)) || starts(header_of(next));
                }
            }
        }
    }
    out
}

/// True for a `###Block` comment, which ends a block.
fn is_block_comment(e: &Entry<'_>) -> bool {
    matches!(e, Entry::Comment(t) if t.get(..8).is_some_and(|p| p.eq_ignore_ascii_case("###block")))
}

/// The main lines of the block starting at `start`: up to a main line of another type or a
/// `###Block` comment.
fn main_block(entries: &[Entry<'_>], start: usize, line_type: &str) -> Vec<usize> {
    let mut block = Vec::new();
    for (i, e) in entries.iter().enumerate().skip(start) {
        if is_block_comment(e) {
            break;
        }
        if let Entry::Object(Object { spec: Some(s), .. }) = e {
            if s.mode == Mode::Main {
                if s.line_type != line_type {
                    break;
                }
                block.push(i);
            }
        }
    }
    block
}

/// The lines of `line_type` following the same main line as the one at `start`, up to a
/// line of another main line or a `###Block` comment.
fn sub_block(
    entries: &[Entry<'_>],
    start: usize,
    main: Option<usize>,
    line_type: &str,
) -> Vec<usize> {
    let mut block = Vec::new();
    for (i, e) in entries.iter().enumerate().skip(start) {
        if is_block_comment(e) {
            break;
        }
        if let Entry::Object(o) = e {
            if o.main != main {
                break;
            }
            if o.spec.is_some_and(|s| s.line_type == line_type) {
                block.push(i);
            }
        }
    }
    block
}

/// The widest cell of each column over `lines` (lines kept as they were do not count).
fn widths<'t>(entries: &[Entry<'t>], lines: &[usize]) -> HashMap<&'t str, usize> {
    let mut widest: HashMap<&str, usize> = HashMap::new();
    for (_, o) in objects(entries, lines) {
        for (key, tokens) in &o.cells {
            let w = cell_width(tokens.iter().copied());
            let slot = widest.entry(key).or_default();
            *slot = (*slot).max(w);
        }
    }
    widest
}

/// The objects at `lines` that are laid out, with their places.
fn objects<'a, 't>(
    entries: &'a [Entry<'t>],
    lines: &'a [usize],
) -> impl Iterator<Item = (usize, &'a Object<'t>)> {
    lines.iter().filter_map(|i| match entries.get(*i) {
        Some(Entry::Object(o)) if o.kept.is_none() => Some((*i, o)),
        _ => None,
    })
}

/// Appends the tabs of a column a line has no token in.
fn push_gap(out: &mut String, widest: usize) {
    out.extend(std::iter::repeat_n(
        '\t',
        columns::next_stop(widest) / columns::TAB,
    ));
}

/// The columns present over a block, in order.
fn column_order<'t>(widest: &HashMap<&'t str, usize>, line_type: &str) -> Vec<&'t str> {
    let mut keys: Vec<&str> = widest.keys().copied().collect();
    if let Some(order) = Tables::get().order(line_type) {
        keys.sort_by(|a, b| rank(order, a).cmp(&rank(order, b)));
    }
    keys
}

/// Appends a cell and the tabs that take it to its column's end.
fn push_cell(out: &mut String, tokens: &[&str], widest: usize) {
    let mut first = true;
    for t in tokens {
        if !first {
            out.push('\t');
        }
        out.push_str(t);
        first = false;
    }
    let w = cell_width(tokens.iter().copied());
    out.extend(std::iter::repeat_n('\t', tabs_after(w, widest)));
}

/// A line laid out by itself: a single line (SOURCE) or a main line with its own header
/// (CLASS).
fn lay_out_line(
    i: usize,
    o: &Object<'_>,
    spec: &LineSpec,
    headers: &[bool],
    tables: &Tables,
    laid: &mut Laid,
) {
    let mut line = String::new();
    if spec.header != Header::Line {
        let tokens: Vec<&str> = o
            .cells
            .iter()
            .flat_map(|(_, ts)| ts.iter().copied())
            .collect();
        laid.lines.insert(i, tokens.join("\t"));
        return;
    }
    let mut header = String::new();
    for (key, tokens) in &o.cells {
        let text = tables.header(key, spec.line_type);
        let widest = text.len().max(cell_width(tokens.iter().copied()));
        header.push_str(text);
        header.extend(std::iter::repeat_n('\t', tabs_after(text.len(), widest)));
        push_cell(&mut line, tokens, widest);
    }
    laid.lines.insert(i, line.trim_end().to_string());
    if i > 0 && headers.get(i - 1).copied().unwrap_or(false) {
        laid.lines.insert(i - 1, header.trim_end().to_string());
    }
}

/// A block of main lines on shared tab stops, and its header comments.
fn lay_out_block(
    entries: &[Entry<'_>],
    block: &[usize],
    spec: &LineSpec,
    file_type: &str,
    headers: &[bool],
    laid: &mut Laid,
) {
    let tables = Tables::get();
    let mut widest = widths(entries, block);
    if spec.header != Header::None {
        for (key, w) in &mut widest {
            // PrettyLST measures the headers of the file type, and writes those of the line
            // type (the same but for COMPANIONMOD's MASTERBONUSRACE lines).
            *w = (*w).max(tables.header(key, file_type).len());
        }
    }
    let order = column_order(&widest, spec.line_type);
    for (i, o) in objects(entries, block) {
        let mut line = String::new();
        for key in &order {
            let w = widest.get(key).copied().unwrap_or(0);
            match o.cells.iter().find(|(k, _)| k == key) {
                Some((_, tokens)) => push_cell(&mut line, tokens, w),
                None => push_gap(&mut line, w),
            }
        }
        laid.lines.insert(i, line.trim_end().to_string());
    }
    if spec.header == Header::Block {
        let mut header = String::new();
        for key in &order {
            let text = tables.header(key, spec.line_type);
            let w = widest.get(key).copied().unwrap_or(0);
            header.push_str(text);
            header.extend(std::iter::repeat_n('\t', tabs_after(text.len(), w)));
        }
        let header = header.trim_end().to_string();
        for &i in block {
            if i > 0 && headers.get(i - 1).copied().unwrap_or(false) {
                laid.lines.insert(i - 1, header.clone());
            }
        }
    }
}

/// A block of sub lines (class levels, kit lines): every column aligned, or only the first.
fn lay_out_sub_block(entries: &[Entry<'_>], block: &[usize], format: Format, laid: &mut Laid) {
    let Some(Entry::Object(Object {
        spec: Some(spec), ..
    })) = block.first().and_then(|i| entries.get(*i))
    else {
        return;
    };
    let widest = widths(entries, block);
    let order = column_order(&widest, spec.line_type);
    for (i, o) in objects(entries, block) {
        let mut line = String::new();
        let mut first = true;
        for key in &order {
            let w = widest.get(key).copied().unwrap_or(0);
            let cell = o.cells.iter().find(|(k, _)| k == key);
            match (cell, format) {
                (Some((_, tokens)), Format::FirstColumn) if !first => {
                    line.push_str(&tokens.join("\t"));
                    line.push('\t');
                }
                (Some((_, tokens)), _) => {
                    push_cell(&mut line, tokens, w);
                    first = false;
                }
                (None, Format::FirstColumn) => {}
                (None, _) => push_gap(&mut line, w),
            }
        }
        laid.lines.insert(i, line.trim_end().to_string());
    }
}
