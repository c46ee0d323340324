//! The formula lexer: text → tokens, reporting every lexical problem.
//!
//! Follows the reference grammar's token rules (semantics doc §1): there is no whitespace
//! token — spaces are absorbed by the operator or punctuation token they surround, or belong
//! to a name. Problems are reported here once and replaced by a [`Tok::BadOperand`] or
//! [`Tok::BadOperator`] placeholder so the grammar can keep going without repeating them.

use super::Problem;
use super::codes;
use crate::formula::ast::BinaryOp;

/// One token. Tokens carry no text (their span locates it), so they are `Copy` and the
/// grammar can be built once per thread and reused for every formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// A number literal as written (`12`, `1.5`, `.5`).
    Number,
    /// A string literal, quotes included in its span.
    Str,
    /// A name (may contain spaces, `.`, `:`, `_`, `~` and one `=`).
    Word,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `%` with no space on either side (may also prefix a name: `%a`).
    Percent,
    /// `%` with a space absorbed on at least one side (only the remainder operator).
    PercentSpaced,
    /// `^`
    Caret,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `==`
    EqEq,
    /// `!=`
    NotEq,
    /// `&&`
    AndAnd,
    /// `||`
    OrOr,
    /// `!`
    Bang,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `,`
    Comma,
    /// An operand that could not be lexed (already reported).
    BadOperand,
    /// Something standing where an operator should be that is not one (already reported).
    BadOperator,
}

impl Tok {
    /// The binary operator of an infix token (`^` apart: it binds primaries only); a
    /// [`Tok::BadOperator`] stands for `||` so that parsing goes on past it.
    pub(super) fn infix(self) -> Option<BinaryOp> {
        Some(match self {
            Tok::OrOr | Tok::BadOperator => BinaryOp::Or,
            Tok::AndAnd => BinaryOp::And,
            Tok::EqEq => BinaryOp::Eq,
            Tok::NotEq => BinaryOp::Ne,
            Tok::Lt => BinaryOp::Lt,
            Tok::Gt => BinaryOp::Gt,
            Tok::Le => BinaryOp::Le,
            Tok::Ge => BinaryOp::Ge,
            Tok::Plus => BinaryOp::Add,
            Tok::Minus => BinaryOp::Sub,
            Tok::Star => BinaryOp::Mul,
            Tok::Slash => BinaryOp::Div,
            Tok::Percent | Tok::PercentSpaced => BinaryOp::Rem,
            Tok::Number
            | Tok::Str
            | Tok::Word
            | Tok::Caret
            | Tok::Bang
            | Tok::LParen
            | Tok::RParen
            | Tok::LBracket
            | Tok::RBracket
            | Tok::Comma
            | Tok::BadOperand => return None,
        })
    }

    /// True for tokens that can end an operand (after which an operator is expected).
    pub(super) fn ends_operand(&self) -> bool {
        matches!(
            self,
            Tok::Number | Tok::Str | Tok::Word | Tok::RParen | Tok::RBracket | Tok::BadOperand
        )
    }

    /// True for the placeholders of problems the lexer already reported.
    pub(super) fn is_bad(&self) -> bool {
        matches!(self, Tok::BadOperand | Tok::BadOperator)
    }

    /// How the token is written, for messages; `written` is its text.
    pub(super) fn describe(&self, written: &str) -> String {
        match self {
            Tok::Number => format!("number `{written}`"),
            Tok::Str => format!("string {written}"),
            Tok::Word => format!("name `{written}`"),
            other => format!("`{}`", other.symbol()),
        }
    }

    /// The symbol of a punctuation or operator token.
    pub(super) fn symbol(&self) -> &'static str {
        match self {
            Tok::Number | Tok::Str | Tok::Word => "operand",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent | Tok::PercentSpaced => "%",
            Tok::Caret => "^",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Bang => "!",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::BadOperand | Tok::BadOperator => "?",
        }
    }
}

/// A token with its byte range in the formula text (absorbed spaces excluded).
pub(super) type Spanned = (Tok, chumsky::span::SimpleSpan);

/// Can `c` start a name? Letters of the reference grammar's LETTER class (ASCII, Latin-1
/// letters, U+0100–U+1FFF and the CJK blocks); `$` and `_` are not letters here.
pub(super) fn is_name_start(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    matches!(c,
            '\u{c0}'..='\u{d6}'
            | '\u{d8}'..='\u{f6}'
            | '\u{f8}'..='\u{1fff}'
            | '\u{3040}'..='\u{318f}'
            | '\u{3300}'..='\u{337f}'
            | '\u{3400}'..='\u{3d2d}'
            | '\u{4e00}'..='\u{9fff}'
            | '\u{f900}'..='\u{faff}')
}

/// Can `c` end a name?
pub(super) fn is_name_end(c: char) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == '~'
}

/// Can `c` appear inside a name (besides the single `=`)?
pub(super) fn is_name_middle(c: char) -> bool {
    is_name_end(c) || matches!(c, '_' | ' ' | ':' | '.')
}

/// ASCII bytes that can end a name (letters, digits, `~`), as a table: the lexer's
/// innermost loop.
static NAME_END_ASCII: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0u8;
    while b < 128 {
        t[b as usize] = b.is_ascii_alphanumeric() || b == b'~';
        b += 1;
    }
    t
};

/// Characters that start an operator or punctuation token (which absorbs spaces around it).
fn starts_operator(c: char) -> bool {
    matches!(
        c,
        '+' | '-'
            | '*'
            | '/'
            | '%'
            | '^'
            | '<'
            | '>'
            | '='
            | '!'
            | '&'
            | '|'
            | '('
            | ')'
            | '['
            | ']'
            | ','
    )
}

/// Splits `text` into tokens, pushing every lexical problem onto `problems`.
#[cfg(test)]
pub(super) fn lex(text: &str, problems: &mut Vec<Problem>) -> Vec<Spanned> {
    lex_into(text, problems, Vec::new())
}

/// Splits `text` into tokens, pushing every lexical problem onto `problems`, into `buffer`
/// (cleared first; reused to save an allocation per formula).
pub(super) fn lex_into(
    text: &str,
    problems: &mut Vec<Problem>,
    mut buffer: Vec<Spanned>,
) -> Vec<Spanned> {
    buffer.clear();
    buffer.reserve(text.len() / 2 + 1);
    Lexer {
        text,
        pos: 0,
        tokens: buffer,
        problems,
        leading_space: false,
        word_has_equals: false,
    }
    .run()
}

struct Lexer<'s, 'p> {
    text: &'s str,
    pos: usize,
    tokens: Vec<Spanned>,
    problems: &'p mut Vec<Problem>,
    /// Spaces were skipped right before the current position (absorbed by an operator).
    leading_space: bool,
    /// The last `word_run` took an `=` into the name.
    word_has_equals: bool,
}

impl<'s> Lexer<'s, '_> {
    fn run(mut self) -> Vec<Spanned> {
        // Dispatch on the byte: every character that starts a token of its own is ASCII, so
        // only a non-ASCII byte needs the character decoded.
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => self.whitespace(),
                b'0'..=b'9' | b'.' => self.number(),
                b'"' => self.string(),
                b'a'..=b'z' | b'A'..=b'Z' => self.word(),
                b if b.is_ascii() && starts_operator(char::from(b)) => {
                    self.operator(char::from(b));
                }
                _ => match self.peek() {
                    Some(c) if is_name_start(c) => self.word(),
                    Some(c) => self.forbidden(c),
                    None => break,
                },
            }
        }
        self.tokens
    }

    fn peek(&self) -> Option<char> {
        self.text.get(self.pos..).and_then(|r| r.chars().next())
    }

    fn peek_at(&self, at: usize) -> Option<char> {
        self.text.get(at..).and_then(|r| r.chars().next())
    }

    fn push(&mut self, tok: Tok, start: usize, end: usize) {
        self.leading_space = false;
        self.tokens.push((tok, (start..end).into()));
    }

    fn prev_ends_operand(&self) -> bool {
        self.tokens.last().is_some_and(|(t, _)| t.ends_operand())
    }

    fn slice(&self, start: usize, end: usize) -> &'s str {
        self.text.get(start..end).unwrap_or("")
    }

    fn whitespace(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut end = start;
        while let Some(&b) = bytes.get(end) {
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            end += 1;
        }
        // Tabs and line breaks are errors wherever they are; they are then treated as spaces.
        let mut i = start;
        while i < end {
            if bytes.get(i) == Some(&b' ') {
                i += 1;
                continue;
            }
            let run_start = i;
            while i < end && bytes.get(i) != Some(&b' ') {
                i += 1;
            }
            let has_break = bytes
                .get(run_start..i)
                .is_some_and(|s| s.iter().any(|&b| b == b'\n' || b == b'\r'));
            let what = if has_break { "a line break" } else { "a tab" };
            self.problems.push(
                Problem::new(
                    codes::BAD_WHITESPACE,
                    run_start..i,
                    format!("{what} in a formula"),
                )
                .label(format!("{what} here"))
                .help("a formula is one line; only plain spaces are allowed, around operators and inside names"),
            );
        }
        self.pos = end;
        match self.peek() {
            Some(c) if starts_operator(c) => self.leading_space = true,
            None if start == 0 => self.problems.push(
                Problem::new(
                    codes::MISPLACED_SPACE,
                    start..end,
                    "the formula is only spaces",
                )
                .label("nothing but spaces")
                .help("write a formula, or leave the value empty"),
            ),
            None => self.problems.push(
                Problem::new(
                    codes::MISPLACED_SPACE,
                    start..end,
                    "space at the end of the formula",
                )
                .label("trailing space")
                .help("remove it: spaces are only allowed around operators and inside names"),
            ),
            Some(_) if start == 0 => self.problems.push(
                Problem::new(
                    codes::MISPLACED_SPACE,
                    start..end,
                    "space at the start of the formula",
                )
                .label("leading space")
                .help("remove it: spaces are only allowed around operators and inside names"),
            ),
            Some(_) => {
                if self.prev_ends_operand() {
                    self.problems.push(
                        Problem::new(
                            codes::MISPLACED_SPACE,
                            start..end,
                            "space between two operands",
                        )
                        .label("an operator is missing here")
                        .help("spaces are only allowed around operators and inside names; write an operator between the operands, e.g. `1+2`"),
                    );
                    self.push(Tok::BadOperator, start, end);
                }
            }
        }
    }

    /// Absorbs spaces after an operator; returns whether there were any.
    fn trailing_spaces(&mut self) -> bool {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        while bytes.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        self.pos > start
    }

    fn operator(&mut self, c: char) {
        let start = self.pos;
        // Only compared with ASCII characters below: a byte is enough.
        let next = self.text.as_bytes().get(start + 1).map(|&b| char::from(b));
        let (tok, len, bad_help): (Tok, usize, Option<&str>) = match (c, next) {
            ('+', _) => (Tok::Plus, 1, None),
            ('-', _) => (Tok::Minus, 1, None),
            ('*', _) => (Tok::Star, 1, None),
            ('/', _) => (Tok::Slash, 1, None),
            ('%', _) => (Tok::Percent, 1, None),
            ('^', _) => (Tok::Caret, 1, None),
            ('<', Some('=')) => (Tok::Le, 2, None),
            ('<', Some('>')) => (
                Tok::BadOperator,
                2,
                Some("`<>` is not an operator; write `!=` for \"not equal\""),
            ),
            ('<', _) => (Tok::Lt, 1, None),
            ('>', Some('=')) => (Tok::Ge, 2, None),
            ('>', _) => (Tok::Gt, 1, None),
            ('=', Some('=')) => (Tok::EqEq, 2, None),
            ('=', Some('<')) => (
                Tok::BadOperator,
                2,
                Some("`=<` is not an operator; write `<=`"),
            ),
            ('=', Some('>')) => (
                Tok::BadOperator,
                2,
                Some("`=>` is not an operator; write `>=`"),
            ),
            ('=', _) => (
                Tok::BadOperator,
                1,
                Some(
                    "a lone `=` is not an operator (equality is `==`); a name may contain one `=` but cannot start or end with it",
                ),
            ),
            ('!', Some('=')) => (Tok::NotEq, 2, None),
            ('!', _) => (Tok::Bang, 1, None),
            ('&', Some('&')) => (Tok::AndAnd, 2, None),
            ('&', _) => (Tok::BadOperator, 1, Some("\"and\" is written `&&`")),
            ('|', Some('|')) => (Tok::OrOr, 2, None),
            ('|', _) => (Tok::BadOperator, 1, Some("\"or\" is written `||`")),
            ('(', _) => (Tok::LParen, 1, None),
            (')', _) => (Tok::RParen, 1, None),
            ('[', _) => (Tok::LBracket, 1, None),
            (']', _) => (Tok::RBracket, 1, None),
            _ => (Tok::Comma, 1, None),
        };
        let end = start + len;
        self.pos = end;
        let spaced = self.leading_space | self.trailing_spaces();
        let tok = match (tok, spaced) {
            (Tok::Percent, true) => Tok::PercentSpaced,
            (t, _) => t,
        };
        if let Some(help) = bad_help {
            let written = self.slice(start, end);
            self.problems.push(
                Problem::new(
                    codes::UNKNOWN_OPERATOR,
                    start..end,
                    format!("`{written}` is not an operator"),
                )
                .label("not an operator")
                .help(help),
            );
            let tok = if self.prev_ends_operand() {
                Tok::BadOperator
            } else {
                Tok::BadOperand
            };
            self.push(tok, start, end);
        } else {
            self.push(tok, start, end);
        }
    }

    fn forbidden(&mut self, c: char) {
        let start = self.pos;
        let end = start + c.len_utf8();
        self.pos = end;
        let next_is_name = self.peek().is_some_and(is_name_middle);
        let help = match c {
            '\'' => "strings are written in double quotes: \"text\"".to_owned(),
            '$' | '_' | '~' if next_is_name => "a name must start with a letter".to_owned(),
            '{' | '}' => "group with parentheses `(` `)`".to_owned(),
            ';' => "a formula is one expression; separate function arguments with `,`".to_owned(),
            _ => "operators are + - * / % ^ < > <= >= == != && || !; names start with a letter"
                .to_owned(),
        };
        let shown = if c.is_control() {
            format!("U+{:04X}", u32::from(c))
        } else {
            format!("`{c}`")
        };
        self.problems.push(
            Problem::new(
                codes::UNEXPECTED_CHARACTER,
                start..end,
                format!("unexpected character {shown}"),
            )
            .label("not allowed here")
            .help(help),
        );
        if c == '\'' {
            // A single-quoted "string": report it once and skip to the closing quote.
            let close = self
                .text
                .get(end..)
                .and_then(|r| r.find('\''))
                .map_or(self.text.len(), |i| end + i + 1);
            if let Some(p) = self.problems.last_mut() {
                p.range = start..close;
                p.label = "single quotes do not make a string".to_owned();
            }
            self.pos = close;
            self.push(Tok::BadOperand, start, close);
        } else if self.prev_ends_operand() {
            self.push(Tok::BadOperator, start, end);
        } else if next_is_name && self.peek().is_some_and(|n| n != ' ') {
            // `$a`, `_a`: swallow the rest of the would-be name so it is reported once.
            self.word_run();
            let end = self.pos;
            self.push(Tok::BadOperand, start, end);
        } else {
            self.push(Tok::BadOperand, start, end);
        }
    }

    /// Scans the longest run of name characters from the current position (at most one
    /// `=`), returning (end of the longest valid name, end of the run).
    fn word_run(&mut self) -> (usize, usize) {
        let start = self.pos;
        let mut equals = 0;
        let mut end = start;
        // ASCII letters, digits and `~` (name ends) first, a byte at a time: most names are
        // only those; the loop below takes over at anything else.
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(end) {
            if !NAME_END_ASCII[usize::from(b)] {
                break;
            }
            end += 1;
        }
        let mut valid_end = end;
        // Stopped at an ASCII byte that cannot continue a name (an operator, the end): done.
        self.word_has_equals = false;
        if bytes
            .get(end)
            .is_none_or(|&b| b.is_ascii() && !matches!(b, b'_' | b' ' | b':' | b'.' | b'='))
        {
            self.pos = end;
            return (valid_end, end);
        }
        let from = end;
        for (i, ch) in self.text.get(from..).unwrap_or("").char_indices() {
            let at = from + i;
            if ch == '=' {
                if equals == 1 || at == start {
                    break;
                }
                equals += 1;
                self.word_has_equals = true;
            } else if !is_name_middle(ch) {
                break;
            }
            end = at + ch.len_utf8();
            if is_name_end(ch) {
                valid_end = end;
            }
        }
        self.pos = end;
        (valid_end, end)
    }

    fn word(&mut self) {
        let start = self.pos;
        let (valid_end, run_end) = self.word_run();
        if valid_end == run_end {
            // The usual case: the whole run is the name (nothing to trim or report but an
            // `=` inside it, which only the slow part of `word_run` takes).
            let word = self.slice(start, valid_end);
            self.push(Tok::Word, start, valid_end);
            if self.word_has_equals {
                self.check_equals_in_name(word, start);
            }
            return;
        }
        let tail = self.slice(valid_end, run_end);
        let tail_trimmed = tail.trim_end_matches(' ');
        let first_tail = tail_trimmed.trim_start_matches(' ').chars().next();
        match first_tail {
            Some('=') | None => {
                // Spaces (absorbed by the next operator) and/or an `=` that starts an operator
                // (`==`, `=>`, `=<`) or is reported as a lone `=` by the operator lexer.
                let word = self.slice(start, valid_end);
                self.pos = valid_end;
                self.push(Tok::Word, start, valid_end);
                self.check_equals_in_name(word, start);
            }
            Some(last) => {
                let bad_end = valid_end + tail_trimmed.len();
                let written = self.slice(start, bad_end);
                self.problems.push(
                    Problem::new(
                        codes::INVALID_NAME,
                        start..bad_end,
                        format!("`{written}` is not a valid name"),
                    )
                    .label(format!("a name cannot end with `{last}`"))
                    .help("a name must end with a letter, a digit or `~`"),
                );
                self.pos = bad_end;
                self.push(Tok::BadOperand, start, bad_end);
            }
        }
    }

    fn check_equals_in_name(&mut self, word: &str, start: usize) {
        // A byte scan: `str::find` costs more than the whole word on names this short.
        if let Some(i) = word.bytes().position(|b| b == b'=') {
            let spaced = word.get(..i).is_some_and(|b| b.ends_with(' '))
                || word.get(i + 1..).is_some_and(|a| a.starts_with(' '));
            if spaced {
                let (lhs, rhs) = (
                    word.get(..i).unwrap_or("").trim_end(),
                    word.get(i + 1..).unwrap_or("").trim_start(),
                );
                self.problems.push(
                    Problem::warning(
                        codes::EQUALS_IN_NAME,
                        start..start + word.len(),
                        format!("`{word}` is read as one variable name"),
                    )
                    .label("one name, containing `=`")
                    .help(format!(
                        "`{word}` is read as one variable name; equality is `==`: write `{lhs}=={rhs}`"
                    )),
                );
            }
        }
    }

    fn number(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let digits = |mut i: usize| {
            while bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            i
        };
        let int_end = digits(start);
        let mut end = int_end;
        if bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit) {
            end = digits(end + 1);
        }
        let well_formed = end > start && bytes.get(end - 1).is_some_and(u8::is_ascii_digit);
        let followed_by_junk = self
            .peek_at(end)
            .is_some_and(|c| c == '.' || c == '_' || c.is_ascii_digit() || is_name_start(c));
        if well_formed && !followed_by_junk {
            self.pos = end;
            self.push(Tok::Number, start, end);
            return;
        }
        // A malformed number: take the whole run of number-ish characters.
        let mut bad_end = start;
        for (i, ch) in self.text.get(start..).unwrap_or("").char_indices() {
            if ch == '.' || ch == '_' || ch.is_ascii_digit() || is_name_start(ch) {
                bad_end = start + i + ch.len_utf8();
            } else {
                break;
            }
        }
        let written = self.slice(start, bad_end);
        let lower = written.to_ascii_lowercase();
        let (label, help) = if lower.starts_with("0x") {
            (
                "hexadecimal is not supported",
                "write the number in decimal".to_owned(),
            )
        } else if is_exponent(&lower) {
            (
                "exponent notation is not supported",
                "write the number out in full, e.g. `100000` for `1e5`".to_owned(),
            )
        } else if written == "." {
            (
                "a lone `.`",
                "a number needs digits after the dot, e.g. `.5`".to_owned(),
            )
        } else if written.starts_with('.')
            && !written
                .get(1..)
                .unwrap_or("")
                .starts_with(|c: char| c.is_ascii_digit())
        {
            (
                "neither a number nor a name",
                "a number needs digits after the dot (`.5`); a name must start with a letter"
                    .to_owned(),
            )
        } else if written.ends_with('.')
            && !written.chars().any(|c| c.is_alphabetic())
            && written.matches('.').count() == 1
        {
            (
                "a number cannot end with `.`",
                format!(
                    "write `{}` or `{}0`",
                    written.trim_end_matches('.'),
                    written
                ),
            )
        } else if written.matches('.').count() > 1
            && !written.chars().any(|c| c.is_alphabetic() || c == '_')
        {
            (
                "more than one decimal point",
                "a number has at most one `.`".to_owned(),
            )
        } else {
            (
                "a name cannot start with a digit",
                "names start with a letter; between a number and a name write an operator, e.g. `2*a`".to_owned(),
            )
        };
        self.problems.push(
            Problem::new(
                codes::MALFORMED_NUMBER,
                start..bad_end,
                format!("`{written}` is not a valid number"),
            )
            .label(label)
            .help(help),
        );
        self.pos = bad_end;
        self.push(Tok::BadOperand, start, bad_end);
    }

    fn string(&mut self) {
        let start = self.pos;
        let bytes = self.text.as_bytes();
        let mut i = start + 1;
        let mut ok = true;
        loop {
            match bytes.get(i) {
                None | Some(b'\n') | Some(b'\r') => {
                    self.problems.push(
                        Problem::new(codes::UNTERMINATED_STRING, start..i, "unterminated string")
                            .label("this string has no closing `\"`")
                            .help("add a `\"` at the end of the string"),
                    );
                    self.pos = i;
                    self.push(Tok::BadOperand, start, i);
                    return;
                }
                Some(b'"') => break,
                Some(b'\\') => {
                    match bytes.get(i + 1) {
                        Some(b'n' | b't' | b'b' | b'r' | b'f' | b'\\' | b'\'' | b'"') => {}
                        _ => {
                            ok = false;
                            let len = self.peek_at(i + 1).map_or(1, |c| 1 + c.len_utf8());
                            let len = if self.peek_at(i + 1).is_some_and(|c| c == '\n' || c == '\r')
                            {
                                1
                            } else {
                                len
                            };
                            let written = self.slice(i, i + len);
                            self.problems.push(
                                Problem::new(
                                    codes::INVALID_ESCAPE,
                                    i..i + len,
                                    format!("invalid escape `{written}` in a string"),
                                )
                                .label("unknown escape")
                                .help("the escapes are \\n \\t \\b \\r \\f \\\\ \\' \\\" (kept as written); write `\\\\` for a backslash"),
                            );
                            if len == 1 {
                                i += 1;
                                continue;
                            }
                        }
                    }
                    i += 2;
                    continue;
                }
                Some(_) => i += 1,
            }
        }
        let end = i + 1;
        self.pos = end;
        if ok {
            self.push(Tok::Str, start, end);
        } else {
            self.push(Tok::BadOperand, start, end);
        }
    }
}

fn is_exponent(lower: &str) -> bool {
    let Some(e) = lower.find('e') else {
        return false;
    };
    let (mantissa, exp) = (
        lower.get(..e).unwrap_or(""),
        lower.get(e + 1..).unwrap_or(""),
    );
    let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
    !mantissa.is_empty()
        && mantissa.chars().all(|c| c.is_ascii_digit() || c == '.')
        && !exp.is_empty()
        && exp.chars().all(|c| c.is_ascii_digit())
}
