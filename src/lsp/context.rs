//! What is at a cursor: the load and file, the physical line, the tab-separated token, the
//! `|`-separated part of its value, the name under the cursor, and the scope the line's
//! formulas are read in.

use crate::load::FileKind;
use crate::lsp::checked::Checked;
use crate::model::{Dataset, ScopeId};
use crate::source::FileId;
use std::ops::Range;

/// The cursor's surroundings in one checked load set.
#[derive(Debug)]
pub struct Context<'a> {
    /// The load set.
    pub checked: &'a Checked,
    /// The file in it.
    pub file: FileId,
    /// The file's text.
    pub text: &'a str,
    /// Byte offset of the cursor.
    pub offset: usize,
    /// The file's kind (`None` for PCC and game-mode files).
    pub kind: Option<FileKind>,
    /// True for a PCC file.
    pub pcc: bool,
    /// The physical line around the cursor.
    pub line: Range<usize>,
    /// The tab-separated token around the cursor.
    pub token: Range<usize>,
    /// The scope the line's formulas are read in.
    pub scope: ScopeId,
}

/// True for characters of names in formulas and token values.
pub fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '.' || c == '\''
}

impl<'a> Context<'a> {
    /// The context at `offset` of `file` in `checked`.
    pub fn new(checked: &'a Checked, file: FileId, offset: usize) -> Option<Self> {
        let text = checked.source(file)?.text.as_str();
        let mut offset = offset.min(text.len());
        while offset > 0 && !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = text.get(..offset)?;
        let after = text.get(offset..)?;
        let start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        let end = offset + after.find(['\n', '\r']).unwrap_or(after.len());
        let tstart = before
            .get(start..)?
            .rfind('\t')
            .map_or(start, |i| start + i + 1);
        let tend = offset
            + after
                .get(..end.saturating_sub(offset))?
                .find('\t')
                .unwrap_or(end.saturating_sub(offset));
        let loaded = checked.set.load.files.iter().find(|f| f.file == file);
        let pcc = checked.set.load.campaigns.iter().any(|c| c.file == file);
        let mut ctx = Context {
            checked,
            file,
            text,
            offset,
            kind: loaded.map(|f| f.kind),
            pcc,
            line: start..end,
            token: tstart..tend,
            scope: ScopeId::GLOBAL,
        };
        ctx.scope = ctx.line_scope();
        Some(ctx)
    }

    /// The dataset of the load.
    pub fn dataset(&self) -> &'a Dataset {
        &self.checked.set.dataset
    }

    /// The token's text.
    pub fn token_text(&self) -> &'a str {
        self.text.get(self.token.clone()).unwrap_or("")
    }

    /// The token's name (before its first `:`) when the cursor is on it.
    pub fn on_token_name(&self) -> Option<&'a str> {
        let t = self.token_text();
        let colon = t.find(':').unwrap_or(t.len());
        (self.offset <= self.token.start + colon && colon > 0).then(|| t.get(..colon))?
    }

    /// The token's name and the `|`-separated parts of its value, with byte ranges. `PART:n|`
    /// before a MODIFY is skipped, so the name is `MODIFY`.
    pub fn parts(&self) -> Option<(&'a str, Vec<Range<usize>>)> {
        let mut t = self.token_text();
        let mut base = self.token.start;
        if t.starts_with("PART:") {
            let bar = t.find('|')?;
            t = t.get(bar + 1..)?;
            base += bar + 1;
        }
        let colon = t.find(':')?;
        let name = t.get(..colon)?;
        let mut parts = Vec::new();
        let mut s = base + colon + 1;
        for piece in t.get(colon + 1..)?.split('|') {
            parts.push(s..s + piece.len());
            s += piece.len() + 1;
        }
        Some((name, parts))
    }

    /// Which part of the value the cursor is in (index and range).
    pub fn part(&self) -> Option<(&'a str, usize, Range<usize>)> {
        let (name, parts) = self.parts()?;
        let (i, r) = parts
            .into_iter()
            .enumerate()
            .find(|(_, r)| r.start <= self.offset && self.offset <= r.end)?;
        Some((name, i, r))
    }

    /// The text of a byte range of the file.
    pub fn slice(&self, r: Range<usize>) -> &'a str {
        self.text.get(r).unwrap_or("")
    }

    /// The name under the cursor (a run of name characters), with its range.
    pub fn word(&self) -> Option<(&'a str, Range<usize>)> {
        let line = self.slice(self.line.clone());
        let at = self.offset.saturating_sub(self.line.start);
        let start = line
            .get(..at)?
            .rfind(|c: char| !is_name_char(c))
            .map_or(0, |i| {
                i + line
                    .get(i..)
                    .and_then(|s| s.chars().next())
                    .map_or(1, char::len_utf8)
            });
        let end = at
            + line
                .get(at..)?
                .find(|c: char| !is_name_char(c))
                .unwrap_or(line.len().saturating_sub(at));
        let w = line.get(start..end)?;
        (!w.is_empty()).then(|| (w, self.line.start + start..self.line.start + end))
    }

    /// The name characters before the cursor (what completion filters on), with its start.
    pub fn prefix(&self) -> (&'a str, usize) {
        let before = self.slice(self.token.start..self.offset);
        let start = before.rfind(|c: char| !is_name_char(c)).map_or(0, |i| {
            i + before
                .get(i..)
                .and_then(|s| s.chars().next())
                .map_or(1, char::len_utf8)
        });
        (before.get(start..).unwrap_or(""), self.token.start + start)
    }

    /// True when the cursor's name is the argument of `input("…")`.
    pub fn in_input_string(&self) -> bool {
        let start = self.word().map_or(self.offset, |(_, r)| r.start);
        let before = self.slice(self.line.start..start).to_ascii_lowercase();
        before.trim_end_matches(' ').ends_with("input(\"")
    }

    /// The scope of the line: the object it defines, `LOCAL:scope|…` in a VARIABLE file, or
    /// the global scope.
    fn line_scope(&self) -> ScopeId {
        let ds = self.dataset();
        let on_line = |s: &crate::source::Span| {
            s.file == self.file
                && (s.start as usize) >= self.line.start
                && (s.start as usize) <= self.line.end
        };
        if let Some(o) = ds.objects.iter().find(|o| on_line(&o.span)) {
            return o.scope;
        }
        if let Some(v) = ds
            .variables
            .iter()
            .find(|v| v.span.as_ref().is_some_and(on_line))
        {
            return v.scope;
        }
        ScopeId::GLOBAL
    }

    /// The scope a MODIFYOTHER addresses (its first part), when the cursor's token is one.
    pub fn other_scope(&self) -> Option<ScopeId> {
        let (name, parts) = self.parts()?;
        if name != "MODIFYOTHER" {
            return None;
        }
        let scope = self.slice(parts.first()?.clone());
        self.dataset().scopes.resolve(scope.trim()).map(|(s, _)| s)
    }
}
