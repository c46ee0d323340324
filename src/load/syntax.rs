//! Token grammars: token text → typed items with spans.
//!
//! Every formula-system token is parsed here with chumsky (behind the functions of this
//! module; nothing else in the crate sees chumsky types). A parser never fails silently: it
//! returns either the item or one diagnostic with the exact span and a help line.
//!
//! Values are split at `|` outside `()` and `[]`, as PCGen's `ParsingSeparator` does, so a
//! formula such as `max(a|b)` stays whole.

// A diagnostic is the error value of every parser here; errors are the rare path, so the
// size of `Result<_, Diagnostic>` does not matter.
#![allow(clippy::result_large_err)]

use crate::diagnostic::Diagnostic;
use crate::load::codes;
use crate::source::Span;
use chumsky::prelude::*;

type Extra<'a> = extra::Err<Rich<'a, char>>;

/// A value with the span it was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl At<String> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.value
    }
}

/// A piece of text inside a token: `text` with its absolute span.
#[derive(Clone, Copy, Debug)]
pub struct Slice<'t> {
    /// The text.
    pub text: &'t str,
    /// Its span in the file.
    pub span: Span,
}

impl<'t> Slice<'t> {
    /// A slice of `text` that starts at `span.start`.
    pub fn new(text: &'t str, span: Span) -> Self {
        Slice { text, span }
    }

    /// The sub-slice for a byte range of `self.text`.
    pub fn sub(&self, r: std::ops::Range<usize>) -> Slice<'t> {
        let text = self.text.get(r.clone()).unwrap_or("");
        let start = self.span.start as usize + r.start;
        Slice {
            text,
            span: Span::new(self.span.file, start..start + text.len()),
        }
    }

    /// The slice with surrounding whitespace removed.
    pub fn trim(&self) -> Slice<'t> {
        // Most slices are trimmed already: an ASCII byte that is not whitespace at both
        // ends says so without decoding the text (`char::is_whitespace` also knows
        // whitespace beyond ASCII, whose UTF-8 bytes are not ASCII).
        let solid =
            |b: Option<&u8>| b.is_some_and(|b| b.is_ascii() && !(*b as char).is_whitespace());
        let bytes = self.text.as_bytes();
        if solid(bytes.first()) && solid(bytes.last()) {
            return self.sub(0..bytes.len());
        }
        let lead = self.text.len() - self.text.trim_start().len();
        let t = self.text.trim();
        self.sub(lead..lead + t.len())
    }

    /// Owned copy with span.
    pub fn owned(&self) -> At<String> {
        At {
            value: self.text.to_owned(),
            span: self.span,
        }
    }

    /// Splits at the first `sep`: (before, after). `None` when `sep` is absent.
    pub fn split_once(&self, sep: char) -> Option<(Slice<'t>, Slice<'t>)> {
        let at = self.text.find(sep)?;
        Some((
            self.sub(0..at),
            self.sub(at + sep.len_utf8()..self.text.len()),
        ))
    }
}

fn to_diag(err: &Rich<'_, char>, base: Span, what: &str, help: &str) -> Diagnostic {
    let r = err.span();
    let start = base.start as usize + r.start;
    let end = (base.start as usize + r.end).max(start);
    let found = match err.found() {
        Some(c) => format!("unexpected `{}`", c.escape_default()),
        None => "unexpected end of token".to_owned(),
    };
    Diagnostic::error(
        codes::MALFORMED,
        Span::new(base.file, start..end),
        format!("malformed {what}: {found}"),
    )
    .with_label(found)
    .with_help(help.to_owned())
}

/// The pieces of a `|`-separated value, respecting `()` and `[]` nesting.
fn pieces_parser<'a>() -> impl Parser<'a, &'a str, Vec<SimpleSpan>, Extra<'a>> {
    let nested = recursive(|nested| {
        let inner = choice((nested, none_of("()[]").ignored())).repeated();
        choice((
            just('(').then(inner.clone()).then(just(')')).ignored(),
            just('[').then(inner).then(just(']')).ignored(),
        ))
    });
    choice((nested, none_of("|()[]").ignored()))
        .repeated()
        .to_span()
        .separated_by(just('|'))
        .at_least(1)
        .collect::<Vec<_>>()
        .then_ignore(end())
}

/// Splits `value` at top-level `|`. Unbalanced brackets are an error.
pub fn split_pipes<'t>(value: Slice<'t>) -> Result<Vec<Slice<'t>>, Diagnostic> {
    if !value.text.contains(['(', ')', '[', ']']) {
        let mut out = Vec::new();
        let mut pos = 0;
        for p in value.text.split('|') {
            out.push(value.sub(pos..pos + p.len()));
            pos += p.len() + 1;
        }
        return Ok(out);
    }
    match pieces_parser().parse(value.text).into_result() {
        Ok(spans) => Ok(spans
            .into_iter()
            .map(|s| value.sub(s.start..s.end))
            .collect()),
        Err(errs) => Err(errs.first().map_or_else(
            || Diagnostic::error(codes::MALFORMED, value.span, "unbalanced brackets"),
            |e| {
                to_diag(
                    e,
                    value.span,
                    "value",
                    "check that every `(` and `[` is closed",
                )
            },
        )),
    }
}

fn name_parser<'a>() -> impl Parser<'a, &'a str, &'a str, Extra<'a>> + Clone {
    any()
        .filter(|c: &char| c.is_ascii_alphabetic())
        .then(
            any()
                .filter(|c: &char| c.is_ascii_alphanumeric() || *c == '_')
                .repeated(),
        )
        .to_slice()
}

/// True when `text` is a legal variable, function or category name (`[A-Za-z]\w*`).
pub fn is_legal_name(text: &str) -> bool {
    name_parser()
        .then_ignore(end())
        .parse(text)
        .into_result()
        .is_ok()
}

/// Checks a name, reporting [`codes::BAD_NAME`].
pub fn legal_name(s: Slice<'_>, what: &str) -> Result<At<String>, Diagnostic> {
    if is_legal_name(s.text) {
        Ok(s.owned())
    } else {
        Err(Diagnostic::error(
            codes::BAD_NAME,
            s.span,
            format!("`{}` is not a legal {what} name", s.text),
        )
        .with_label("names are a letter followed by letters, digits or `_`")
        .with_help("rename it without spaces, dots or other punctuation"))
    }
}

/// A variable declaration: `[SCOPE|][FORMAT=]Name` (GLOBAL, LOCAL and CHANNEL values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarDecl {
    /// The scope (LOCAL and CHANNEL only).
    pub scope: Option<At<String>>,
    /// The format, when written (`NUMBER` when absent).
    pub format: Option<At<String>>,
    /// The variable name.
    pub name: At<String>,
}

/// Parses a GLOBAL (`scoped == false`) or LOCAL/CHANNEL value.
pub fn var_decl(value: Slice<'_>, scoped: bool) -> Result<VarDecl, Diagnostic> {
    let (scope, rest) = if scoped {
        match value.split_once('|') {
            Some((s, r)) if !s.text.is_empty() => (Some(s.trim().owned()), r),
            _ => {
                return Err(Diagnostic::error(
                    codes::MALFORMED,
                    value.span,
                    "expected `SCOPE|FORMAT=Name`",
                )
                .with_label("no scope before `|`")
                .with_help("write e.g. `LOCAL:PC.STAT|NUMBER=Score`"));
            }
        }
    } else {
        (None, value)
    };
    let (format, name) = match rest.split_once('=') {
        Some((f, n)) => (Some(f.trim().owned()), n.trim()),
        None => (None, rest.trim()),
    };
    if format.as_ref().is_some_and(|f| f.value.is_empty()) {
        return Err(
            Diagnostic::error(codes::MALFORMED, rest.span, "empty format before `=`")
                .with_help("write the format name, e.g. `NUMBER=Hands`"),
        );
    }
    let name = legal_name(name, "variable")?;
    Ok(VarDecl {
        scope,
        format,
        name,
    })
}

/// `MODIFY:` (and the tail of MODIFYOTHER): `Var|TYPE|value[|PRIORITY=n]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModifyItem {
    /// Target variable.
    pub var: At<String>,
    /// Modifier type as written (`SET`, `ADD`, …).
    pub kind: At<String>,
    /// The value or formula text.
    pub value: At<String>,
    /// The PRIORITY association.
    pub priority: Option<At<u32>>,
    /// The whole token value.
    pub span: Span,
}

fn priority_value<'a>() -> impl Parser<'a, &'a str, &'a str, Extra<'a>> {
    text::digits(10).to_slice().then_ignore(end())
}

/// Parses the association pieces after a modifier value.
fn associations(pieces: &[Slice<'_>]) -> Result<Option<At<u32>>, Diagnostic> {
    let mut priority: Option<At<u32>> = None;
    for p in pieces {
        let p = p.trim();
        let Some((key, val)) = p.split_once('=') else {
            return Err(Diagnostic::error(
                codes::BAD_ASSOCIATION,
                p.span,
                format!("`{}` is not an association", p.text),
            )
            .with_label("expected `PRIORITY=n`")
            .with_help("only `PRIORITY=n` may follow the value"));
        };
        if !key.text.trim().eq_ignore_ascii_case("PRIORITY") {
            return Err(Diagnostic::error(
                codes::BAD_ASSOCIATION,
                key.span,
                format!("unknown association `{}`", key.text),
            )
            .with_label("only PRIORITY is known")
            .with_help("remove it, or write `PRIORITY=n`"));
        }
        if let Some(first) = &priority {
            return Err(
                Diagnostic::error(codes::BAD_ASSOCIATION, p.span, "PRIORITY given twice")
                    .with_secondary(first.span, "first given here")
                    .with_help("keep one PRIORITY"),
            );
        }
        let val = val.trim();
        let bad = || {
            Diagnostic::error(
                codes::BAD_PRIORITY,
                val.span,
                format!(
                    "PRIORITY `{}` is not an integer in 0..=2147483647",
                    val.text
                ),
            )
            .with_label("not a priority")
            .with_help("write a whole number from 0 to 2147483647; lower runs first")
        };
        let digits = priority_value()
            .parse(val.text)
            .into_result()
            .map_err(|_| bad())?;
        let n: u32 = digits
            .parse::<u64>()
            .ok()
            .filter(|n| *n <= i32::MAX as u64)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(bad)?;
        priority = Some(At {
            value: n,
            span: val.span,
        });
    }
    Ok(priority)
}

/// Parses a MODIFY value.
pub fn modify(value: Slice<'_>) -> Result<ModifyItem, Diagnostic> {
    let pieces = split_pipes(value)?;
    modify_from(&pieces, value.span)
}

fn modify_from(pieces: &[Slice<'_>], span: Span) -> Result<ModifyItem, Diagnostic> {
    let [var, kind, val, rest @ ..] = pieces else {
        return Err(Diagnostic::error(
            codes::MALFORMED,
            span,
            "expected `Variable|MODIFIER|value`",
        )
        .with_label(format!("{} part(s) found, 3 needed", pieces.len()))
        .with_help("write e.g. `MODIFY:Hands|SET|2`"));
    };
    let var = var.trim();
    if var.text.is_empty() {
        return Err(
            Diagnostic::error(codes::MALFORMED, var.span, "missing variable name")
                .with_help("write the variable to modify before the first `|`"),
        );
    }
    let val = val.trim();
    if val.text.is_empty() {
        return Err(
            Diagnostic::error(codes::MALFORMED, val.span, "missing modifier value")
                .with_help("write a value or formula after the modifier type"),
        );
    }
    Ok(ModifyItem {
        var: var.owned(),
        kind: kind.trim().owned(),
        value: val.owned(),
        priority: associations(rest)?,
        span,
    })
}

/// How MODIFYOTHER addresses its objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Grouping {
    /// Every object of the scope.
    All,
    /// Objects with `GROUP:x`.
    Group(String),
    /// The object with this key.
    Key(String),
}

/// MODIFYOTHER's address: a grouping and an optional child selector `[…]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Address {
    /// The grouping.
    pub grouping: At<Grouping>,
    /// A child grouping for the sub-scope, e.g. `ALL[ALL]`.
    pub child: Option<Box<Address>>,
}

fn address_parser<'a>()
-> impl Parser<'a, &'a str, (Grouping, SimpleSpan, Option<(Grouping, SimpleSpan)>), Extra<'a>> {
    let group = |stop: &'static str| {
        none_of(stop)
            .repeated()
            .at_least(1)
            .to_slice()
            .map(|s: &str| {
                let t = s.trim();
                if t.eq_ignore_ascii_case("ALL") {
                    Grouping::All
                } else if t.len() > 6
                    && t.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("GROUP="))
                {
                    Grouping::Group(t.get(6..).unwrap_or("").to_owned())
                } else if t.len() > 4 && t.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("KEY="))
                {
                    Grouping::Key(t.get(4..).unwrap_or("").to_owned())
                } else {
                    Grouping::Key(t.to_owned())
                }
            })
            .map_with(|g, e| (g, e.span()))
    };
    group("[]")
        .then(group("[]").delimited_by(just('['), just(']')).or_not())
        .then_ignore(end())
        .map(|((g, s), c)| (g, s, c))
}

/// Parses a MODIFYOTHER grouping such as `ALL`, `GROUP=Weapon`, `Bastard Sword`, `ALL[ALL]`.
pub fn address(s: Slice<'_>) -> Result<Address, Diagnostic> {
    let s = s.trim();
    match address_parser().parse(s.text).into_result() {
        Ok((g, gs, child)) => Ok(Address {
            grouping: At {
                value: g,
                span: s.sub(gs.start..gs.end).span,
            },
            child: child.map(|(c, cs)| {
                Box::new(Address {
                    grouping: At {
                        value: c,
                        span: s.sub(cs.start..cs.end).span,
                    },
                    child: None,
                })
            }),
        }),
        Err(errs) => Err(errs.first().map_or_else(
            || Diagnostic::error(codes::BAD_GROUPING, s.span, "bad grouping"),
            |e| {
                let mut d = to_diag(
                    e,
                    s.span,
                    "grouping",
                    "write ALL, GROUP=x, KEY=x or an object key, optionally followed by [child]",
                );
                d.code = codes::BAD_GROUPING;
                d
            },
        )),
    }
}

/// `MODIFYOTHER:SCOPE|address|Var|TYPE|value[|PRIORITY=n]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModifyOtherItem {
    /// The scope of the addressed objects.
    pub scope: At<String>,
    /// Which objects.
    pub address: Address,
    /// The modification made on each.
    pub modify: ModifyItem,
}

/// Parses a MODIFYOTHER value.
pub fn modify_other(value: Slice<'_>) -> Result<ModifyOtherItem, Diagnostic> {
    let pieces = split_pipes(value)?;
    let [scope, addr, rest @ ..] = pieces.as_slice() else {
        return Err(Diagnostic::error(
            codes::MALFORMED,
            value.span,
            "expected `SCOPE|grouping|Variable|MODIFIER|value`",
        )
        .with_help("write e.g. `MODIFYOTHER:PC.EQUIPMENT|ALL|HandsRequired|ADD|-1`"));
    };
    let span = rest.first().map_or(value.span, |f| {
        Span::new(
            value.span.file,
            f.span.range().start..value.span.range().end,
        )
    });
    if rest.len() < 3 {
        return Err(Diagnostic::error(
            codes::MALFORMED,
            value.span,
            "expected `SCOPE|grouping|Variable|MODIFIER|value`",
        )
        .with_label(format!("{} part(s) found, 5 needed", pieces.len()))
        .with_help("write e.g. `MODIFYOTHER:PC.EQUIPMENT|ALL|HandsRequired|ADD|-1`"));
    }
    Ok(ModifyOtherItem {
        scope: scope.trim().owned(),
        address: address(*addr)?,
        modify: modify_from(rest, span)?,
    })
}

/// `DEFAULTVARIABLEVALUE:FORMAT|value`.
pub fn default_value(value: Slice<'_>) -> Result<(At<String>, At<String>), Diagnostic> {
    match value.split_once('|') {
        Some((f, v)) if !f.text.trim().is_empty() && !v.text.contains('|') => {
            Ok((f.trim().owned(), v.trim().owned()))
        }
        _ => Err(Diagnostic::error(
            codes::MALFORMED,
            value.span,
            "expected `FORMAT|value` with exactly one `|`",
        )
        .with_help("write e.g. `DEFAULTVARIABLEVALUE:NUMBER|0`")),
    }
}

/// `PART:n|TOKEN:value`: the part number and the inner token.
pub fn part<'t>(value: Slice<'t>) -> Result<(At<u32>, Slice<'t>, Slice<'t>), Diagnostic> {
    let Some((num, inner)) = value.split_once('|') else {
        return Err(
            Diagnostic::error(codes::MALFORMED, value.span, "expected `n|TOKEN:value`")
                .with_help("write e.g. `PART:1|MODIFY:CritMult|SET|3`"),
        );
    };
    let num = num.trim();
    let n = text::int::<_, Extra<'_>>(10)
        .then_ignore(end())
        .parse(num.text)
        .into_result()
        .ok()
        .and_then(|s: &str| s.parse::<u32>().ok())
        .filter(|n| *n > 0);
    let Some(n) = n else {
        return Err(Diagnostic::error(
            codes::BAD_PART,
            num.span,
            format!("part number `{}` is not a positive integer", num.text),
        )
        .with_label("1 is the primary head, 2 the secondary")
        .with_help("write PART:1 or PART:2"));
    };
    let inner = inner.trim();
    let Some((key, val)) = inner.split_once(':') else {
        return Err(Diagnostic::error(
            codes::MALFORMED,
            inner.span,
            "expected an inner token `TOKEN:value`",
        )
        .with_help("PART passes a whole token on: `PART:1|MODIFY:CritMult|SET|3`"));
    };
    Ok((
        At {
            value: n,
            span: num.span,
        },
        key,
        val,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn sl(t: &str) -> Slice<'_> {
        Slice::new(t, Span::new(FileId(0), 0..t.len()))
    }

    #[test]
    fn pipes_respect_brackets() {
        let p = split_pipes(sl("X|SET|max(a|b,c[1|2])|PRIORITY=3")).unwrap();
        let t: Vec<&str> = p.iter().map(|s| s.text).collect();
        assert_eq!(t, ["X", "SET", "max(a|b,c[1|2])", "PRIORITY=3"]);
        assert!(split_pipes(sl("X|SET|max(a")).is_err());
    }

    #[test]
    fn modify_with_priority() {
        let m = modify(sl("Hands|MULTIPLY|2|PRIORITY=100")).unwrap();
        assert_eq!(m.var.value, "Hands");
        assert_eq!(m.kind.value, "MULTIPLY");
        assert_eq!(m.priority.map(|p| p.value), Some(100));
        let e = modify(sl("Hands|SET|2|PRIORITY=-1")).unwrap_err();
        assert_eq!(e.code, codes::BAD_PRIORITY);
        assert_eq!(e.span.range(), 21..23);
        let e = modify(sl("Hands|SET|2|PRIORITY=2147483648")).unwrap_err();
        assert_eq!(e.code, codes::BAD_PRIORITY);
        assert!(modify(sl("Hands|SET|2|PRIORITY=2147483647")).is_ok());
        assert_eq!(
            modify(sl("Hands|SET|2|FOO=1")).unwrap_err().code,
            codes::BAD_ASSOCIATION
        );
        assert_eq!(modify(sl("Hands|SET")).unwrap_err().code, codes::MALFORMED);
    }

    #[test]
    fn modify_other_addresses() {
        let m = modify_other(sl("PC.EQUIPMENT|GROUP=Weapon|HandsRequired|ADD|-1")).unwrap();
        assert_eq!(m.address.grouping.value, Grouping::Group("Weapon".into()));
        let m = modify_other(sl("PC.EQUIPMENT|ALL[ALL]|CritMult|ADD|1")).unwrap();
        assert_eq!(
            m.address.child.map(|c| c.grouping.value),
            Some(Grouping::All)
        );
        let m = modify_other(sl("EQUIPMENT|Bastard Sword|HandsRequired|ADD|-1")).unwrap();
        assert_eq!(
            m.address.grouping.value,
            Grouping::Key("Bastard Sword".into())
        );
        assert_eq!(m.modify.value.value, "-1");
    }

    #[test]
    fn declarations() {
        let d = var_decl(sl("PC.STAT|NUMBER=Score"), true).unwrap();
        assert_eq!(d.scope.unwrap().value, "PC.STAT");
        assert_eq!(d.format.unwrap().value, "NUMBER");
        let d = var_decl(sl("Hands"), false).unwrap();
        assert!(d.format.is_none());
        assert_eq!(
            var_decl(sl("NUMBER=Bonus.Race"), false).unwrap_err().code,
            codes::BAD_NAME
        );
    }

    #[test]
    fn parts() {
        let (n, k, v) = part(sl("1|MODIFY:CritMult|SET|3")).unwrap();
        assert_eq!((n.value, k.text, v.text), (1, "MODIFY", "CritMult|SET|3"));
        assert_eq!(
            part(sl("0|MODIFY:X|SET|1")).unwrap_err().code,
            codes::BAD_PART
        );
    }
}
