//! The one-pass parse and check of a plain formula: an operator-precedence reader goes over
//! the text once and, as each operand and operator is complete, checks it (formats on a
//! small stack) and appends it to the formula's postfix code (`compile::Plain`), so no
//! syntax tree is made and no node is visited twice. The typed tree is built from that code
//! on first evaluation. Runs of sums and products (`b*2-c+d/e` after `a+`: names and short
//! integers, each followed by `+ - * /`) are read in a tight loop of their own, with the
//! operators waiting on those two levels kept in locals ([`Reader::run`]).
//!
//! It answers only for formulas that check without a problem and are written in the plain
//! part of the language: NUMBER and BOOLEAN variables whose names are ASCII letters and
//! digits, number literals, the operators written without spaces, parentheses and the
//! built-ins `abs ceil floor round max min if value`. On anything else (a space, a quoted
//! literal, another function, an array, a name the environment does not know, a format
//! mismatch, deep nesting) it says no, and the caller parses and checks the formula the
//! usual way, which reports every problem. It reads the text by the on-demand lexer's rules
//! and the grammar's precedence (`parse::fast`); when it answers, its compiled formula is
//! the one [`check`](super::check) makes of the tree `parse_formula` gives (the
//! `onepass_matches_parse_then_check` proptest below compares the typed trees).

use super::{CheckEnv, Scalar, VarRef};
use crate::formula::ast::{BinaryOp, UnaryOp};
use crate::formula::compile::{
    CompiledFormula, NumFn, Plain, PlainMore, PlainOp, PlainStep, TypedForm, cmp_op, num_op,
};
use crate::formula::format::Format;
use crate::formula::number::Number;
use crate::formula::parse::{MAX_TOKENS, plain_name_end, plain_number_end};
use crate::source::{FileId, Span};

mod run;

/// Parentheses and calls nested deeper than this are left to the usual way. The checker's
/// own limit (`MAX_DEPTH`, 100) counts the nodes on a path: at most ten per level of
/// parentheses (five binary precedence levels, `^`, two prefix operators, the parenthesis),
/// so every formula answered here is well inside it.
const MAX_NESTING: usize = 8;

/// `text` (at `offset` in `file`) parsed and checked in one pass when it is a plain formula
/// (see the module documentation): the compiled formula [`check`](super::check) would make
/// of `parse_formula`'s tree, with the same `asserted` format and `input`. `None` when the
/// formula is not plain or has a problem: then parse and check it the usual way, which
/// reports the problems.
///
/// `env` is asked about the names in text order, as the checker asks; after a `None` it may
/// have been asked about some of them already.
pub fn parse_check_plain<E: CheckEnv + ?Sized>(
    text: &str,
    file: FileId,
    offset: u32,
    env: &E,
    asserted: &Format,
    input: Option<&Format>,
) -> Option<CompiledFormula> {
    // Every position in the text is a `u32` in its file (else the usual way takes it).
    u32::try_from(text.len()).ok()?.checked_add(offset)?;
    let (at, check) = ((file, offset), (asserted, input));
    BUFFERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut buffers) => read_formula(&mut buffers, text, at, env, check),
        // In use further up this thread (nothing the reader calls reads a formula; were it
        // to, the inner formula would be read with buffers of its own).
        Err(_) => read_formula(&mut Buffers::new(), text, at, env, check),
    })
}

/// [`parse_check_plain`] of `text` at `offset` in `file`, with `buffers` (all empty, and
/// left so), checked for the `asserted` format with `input`.
fn read_formula<E: CheckEnv + ?Sized>(
    buffers: &mut Buffers,
    text: &str,
    (file, offset): (FileId, u32),
    env: &E,
    (asserted, input): (&Format, Option<&Format>),
) -> Option<CompiledFormula> {
    if text.len() > 1024 {
        // A long formula: room for about as many steps as it can have (an operand and an
        // operator take two bytes at least), so the code is not copied as it grows.
        buffers.steps.reserve(text.len() / 2 + 1);
        buffers.deps.reserve(text.len() / 2 + 1);
    }
    let mut reader = Reader {
        src: text,
        text: text.as_bytes(),
        offset,
        env,
        input,
        b: buffers,
        deps_unique: true,
        uses_input: false,
    };
    let read = reader.read();
    let Reader {
        uses_input,
        deps_unique,
        b: buffers,
        ..
    } = reader;
    let format = match (read, buffers.operands.as_slice()) {
        (Some(()), [only]) if !only.boolean => Some(Format::Number),
        (Some(()), [_]) => Some(Format::Boolean),
        _ => None,
    };
    let compiled = match format {
        Some(format) if &format == asserted => {
            // Copied out at its size: the buffer stays for the next formula (handing a
            // long formula's buffer over instead made every such formula map fresh pages).
            let plain = Plain {
                steps: buffers.steps.as_slice().into(),
                more: (!buffers.numbers.is_empty()).then(|| {
                    Box::new(PlainMore {
                        numbers: buffers.numbers.as_slice().into(),
                    })
                }),
            };
            let whole = Span::new(file, 0..text.len()).shifted(offset);
            let typed = TypedForm::plain(plain);
            if !deps_unique {
                super::first_uses(&mut buffers.deps);
            }
            Some(super::compiled(
                typed,
                format,
                &buffers.deps,
                whole,
                uses_input,
            ))
        }
        _ => None,
    };
    buffers.clear();
    compiled
}

/// Buffers above this many steps (512 KiB) are not kept for the next formula.
const KEPT_STEPS: usize = 1 << 15;

/// The variables a formula may read whose repeats are removed as they are read (a bit per
/// handle): handles below this many words of 64 (two million variables, 256 KiB of bits).
/// A formula that reads a larger handle has its repeats removed at the end instead.
const SEEN_WORDS: usize = 1 << 15;

/// A name of up to eight bytes (ASCII letters, digits and `~`, as the reader's names are)
/// as one word, its letters lower-cased: each byte with its `0x20` bit set, the first in the
/// low byte. That bit makes an upper-case letter its lower-case one and leaves the other
/// bytes of such names as they are, so two names are one word exactly when they are the
/// same name in any case. Longer names are 0 (no built-in's name is that long).
const fn folded_word(name: &[u8]) -> u64 {
    if name.len() > 8 {
        return 0;
    }
    let (mut word, mut shift, mut rest) = (0u64, 0, name);
    while let [b, tail @ ..] = rest {
        word |= ((*b | 0x20) as u64) << shift;
        (shift, rest) = (shift + 8, tail);
    }
    word
}

/// The built-ins the one-pass check reads, as [`folded_word`]s.
/// [`NumFn::ALL`] as [`folded_word`]s.
const NUM_FNS: [(u64, NumFn); NumFn::ALL.len()] = {
    let mut out = [(0, NumFn::Abs); NumFn::ALL.len()];
    let mut i = 0;
    while i < NumFn::ALL.len() {
        let f = NumFn::ALL[i];
        out[i] = (folded_word(f.name().as_bytes()), f);
        i += 1;
    }
    out
};

/// The one-argument NUMBER built-in whose [`folded_word`] is `word`.
fn num_fn(word: u64) -> Option<NumFn> {
    NUM_FNS.iter().find(|(w, _)| *w == word).map(|(_, f)| *f)
}
const MAX: u64 = folded_word(b"max");
const MIN: u64 = folded_word(b"min");
const IF: u64 = folded_word(b"if");
const VALUE: u64 = folded_word(b"value");

/// The stacks of one pass, kept from one formula to the next.
struct Buffers {
    operands: Vec<Operand>,
    ops: Vec<Pending>,
    steps: Vec<PlainStep>,
    /// Number literals other than small integers.
    numbers: Vec<Number>,
    /// Every variable read, in text order, each once while [`Reader::deps_unique`].
    deps: Vec<VarRef>,
    /// A bit per variable handle, set for those in `deps`: all clear between formulas.
    seen: Vec<u64>,
}

impl Buffers {
    const fn new() -> Buffers {
        Buffers {
            operands: Vec::new(),
            ops: Vec::new(),
            steps: Vec::new(),
            numbers: Vec::new(),
            deps: Vec::new(),
            seen: Vec::new(),
        }
    }

    /// Empties the buffers for the next formula: the bits of `deps` (every variable the
    /// formula read) cleared in `seen`, and the buffers grown beyond what is kept
    /// dropped.
    fn clear(&mut self) {
        if self.deps.len() > self.seen.len() {
            // More variables than words (a long formula): every word at once.
            self.seen.fill(0);
        } else {
            for d in &self.deps {
                if let Some(word) = self.seen.get_mut(d.0 as usize / 64) {
                    *word = 0;
                }
            }
        }
        self.operands.clear();
        self.ops.clear();
        self.steps.clear();
        self.numbers.clear();
        self.deps.clear();
        if self.steps.capacity() > KEPT_STEPS {
            self.steps = Vec::new();
        }
        if self.deps.capacity() > super::KEPT_DEPS {
            self.deps = Vec::new();
        }
    }
}

thread_local! {
    /// The buffers of the one-pass check on this thread, reused.
    static BUFFERS: std::cell::RefCell<Buffers> = const { std::cell::RefCell::new(Buffers::new()) };
}

/// An operand read and not yet taken by an operator, a call or the end: where its text is
/// in the file (parentheses included) and its format.
#[derive(Clone, Copy)]
struct Operand {
    start: u32,
    end: u32,
    /// BOOLEAN; else NUMBER.
    boolean: bool,
}

/// An operator (or an open parenthesis or call) waiting for its right-hand side.
#[derive(Clone, Copy)]
enum Pending {
    /// A binary operator of precedence `level` (1 `||` `&&`, 2 `==` `!=`, 3 comparisons,
    /// 4 `+` `-`, 5 `*` `/`, 6 `^`).
    Binary { op: BinaryOp, level: u8 },
    /// A prefix operator at `at` (its one-byte token).
    Prefix { op: UnaryOp, at: u32 },
    /// `(` at `at`.
    Paren { at: u32 },
    /// A call of the name at `name` (start, end), whose arguments start at operand `mark`.
    Call { name: (u32, u32), mark: usize },
}

/// The reader and checker: operands (their spans and formats) on one stack, the operators
/// waiting for an operand on another; each operand and operator checked as it completes
/// and appended to the postfix code.
struct Reader<'t, E: ?Sized> {
    src: &'t str,
    /// `src`'s bytes.
    text: &'t [u8],
    /// Where the text starts in its file.
    offset: u32,
    env: &'t E,
    input: Option<&'t Format>,
    /// The stacks, the code and the variables read.
    b: &'t mut Buffers,
    /// False once a handle beyond [`SEEN_WORDS`] was read: from then on `deps` takes every
    /// read, and repeats are removed at the end.
    deps_unique: bool,
    uses_input: bool,
}

impl<E: CheckEnv + ?Sized> Reader<'_, E> {
    #[inline]
    fn byte(&self, i: usize) -> u8 {
        self.text.get(i).copied().unwrap_or(0)
    }

    /// The file position of byte `i` of the text.
    #[inline]
    fn at(&self, i: usize) -> u32 {
        // `i` is at most the text's length, and `offset` plus that length fits (checked
        // before reading): no overflow.
        self.offset + i as u32
    }

    /// Appends `op`, the node of the text `start..end` (file positions), whose result is a
    /// BOOLEAN if `boolean`, and pushes it as an operand.
    #[inline]
    fn emit(&mut self, op: PlainOp, start: u32, end: u32, boolean: bool) -> Option<()> {
        self.b.steps.push(PlainStep { op, start, end });
        self.b.operands.push(Operand {
            start,
            end,
            boolean,
        });
        Some(())
    }

    /// The whole text, or `None` where it is not a plain formula that checks.
    fn read(&mut self) -> Option<()> {
        let mut pos = 0usize;
        let mut tokens = 0usize;
        // After `^` the operand is a primary: no prefix operator.
        let mut after_pow = false;
        let mut nesting = 0usize;
        loop {
            tokens += 1;
            if tokens > MAX_TOKENS {
                return None;
            }
            // An operand: prefix operators, then a name, a call, a number or `(`.
            let b = self.byte(pos);
            match b {
                b'a'..=b'z' | b'A'..=b'Z' => {
                    let start = pos;
                    pos = plain_name_end(self.text, start)?;
                    match self.byte(pos) {
                        b'(' => {
                            nesting += 1;
                            if nesting > MAX_NESTING {
                                return None;
                            }
                            self.b.ops.push(Pending::Call {
                                name: (start as u32, pos as u32),
                                mark: self.b.operands.len(),
                            });
                            pos += 1;
                            tokens += 1;
                            after_pow = false;
                            if self.byte(pos) != b')' {
                                continue;
                            }
                            // `f()`: closed at once.
                            tokens += 1;
                            pos += 1;
                            let Some(Pending::Call { name, mark }) = self.b.ops.pop() else {
                                return None;
                            };
                            self.call(name, mark, pos)?;
                            nesting -= 1;
                        }
                        // An array item `name[i]` is left to the usual way.
                        b'[' => return None,
                        _ => {
                            if let Some(read) = self.variable(start, pos, tokens)? {
                                (pos, tokens) = read;
                                continue;
                            }
                        }
                    }
                }
                b'0'..=b'9' => {
                    let start = pos;
                    pos = plain_number_end(self.text, start)?;
                    if let Some(read) = self.number(start, pos, tokens)? {
                        (pos, tokens) = read;
                        continue;
                    }
                }
                b'(' => {
                    nesting += 1;
                    if nesting > MAX_NESTING {
                        return None;
                    }
                    self.b.ops.push(Pending::Paren { at: pos as u32 });
                    pos += 1;
                    after_pow = false;
                    continue;
                }
                b'-' | b'!' if !after_pow => {
                    // `-`, then `!`, then the operand (as the grammar's prefix rule).
                    let ahead = self.byte(pos + 1);
                    if ahead == b' ' || ahead == b'=' {
                        return None;
                    }
                    let op = if b == b'-' {
                        UnaryOp::Neg
                    } else {
                        UnaryOp::Not
                    };
                    // `--x`, `!!x` and `!-x` are not formulas; `-!x` is.
                    if let Some(&Pending::Prefix { op: before, at }) = self.b.ops.last() {
                        if at as usize + 1 == pos && !(before == UnaryOp::Neg && op == UnaryOp::Not)
                        {
                            return None;
                        }
                    }
                    self.b.ops.push(Pending::Prefix { op, at: pos as u32 });
                    pos += 1;
                    continue;
                }
                _ => return None,
            }
            // An operand is complete: what follows it.
            after_pow = false;
            loop {
                let b = self.byte(pos);
                let (op, level, len) = match b {
                    // The one-byte operators (the usual ones) without reading further.
                    b'+' => (BinaryOp::Add, 4, 1),
                    b'-' => (BinaryOp::Sub, 4, 1),
                    b'*' => (BinaryOp::Mul, 5, 1),
                    b'/' => (BinaryOp::Div, 5, 1),
                    b'^' => (BinaryOp::Pow, 6, 1),
                    0 if pos >= self.text.len() => {
                        self.reduce(0)?;
                        // Every parenthesis and call closed.
                        return self.b.ops.is_empty().then_some(());
                    }
                    b')' => {
                        tokens += 1;
                        self.reduce(0)?;
                        pos += 1;
                        match self.b.ops.pop()? {
                            Pending::Paren { at } => {
                                // The parenthesised operand's span takes in the parentheses.
                                let (start, end) = (self.at(at as usize), self.at(pos));
                                let top = self.b.operands.last_mut()?;
                                top.start = start;
                                top.end = end;
                            }
                            Pending::Call { name, mark } => self.call(name, mark, pos)?,
                            _ => return None,
                        }
                        nesting -= 1;
                        continue;
                    }
                    b',' => {
                        tokens += 1;
                        self.reduce(0)?;
                        if !matches!(self.b.ops.last(), Some(Pending::Call { .. })) {
                            return None;
                        }
                        pos += 1;
                        break;
                    }
                    _ => match (b, self.byte(pos + 1)) {
                        (b'|', b'|') => (BinaryOp::Or, 1, 2),
                        (b'&', b'&') => (BinaryOp::And, 1, 2),
                        (b'=', b'=') => (BinaryOp::Eq, 2, 2),
                        (b'!', b'=') => (BinaryOp::Ne, 2, 2),
                        (b'<', b'=') => (BinaryOp::Le, 3, 2),
                        (b'>', b'=') => (BinaryOp::Ge, 3, 2),
                        (b'<', b'>') => return None,
                        (b'<', _) => (BinaryOp::Lt, 3, 1),
                        (b'>', _) => (BinaryOp::Gt, 3, 1),
                        _ => return None,
                    },
                };
                // Spaces after an operator are absorbed by it: left to the full lexer.
                if self.byte(pos + len) == b' ' {
                    return None;
                }
                // Operators of this level and tighter (and prefix operators, tighter than
                // every binary operator but `^`) are complete.
                if level == 6 {
                    if let Some(&Pending::Binary {
                        op: BinaryOp::Pow, ..
                    }) = self.b.ops.last()
                    {
                        self.b.ops.pop();
                        self.binary(BinaryOp::Pow)?;
                    }
                    after_pow = true;
                } else if let Some(top) = self.b.ops.last_mut() {
                    match *top {
                        // The waiting operator is of this level (`a+b` before `-c`): below
                        // it only looser operators wait (each binary operator completed the
                        // ones of its level and tighter when it came, and prefix operators
                        // wait only under `^`), so it alone is complete and this one takes
                        // its place.
                        Pending::Binary {
                            op: before,
                            level: l,
                        } if l == level => {
                            *top = Pending::Binary { op, level };
                            self.binary(before)?;
                            (pos, tokens) = (pos + len, tokens + 1);
                            break;
                        }
                        // A looser operator, a parenthesis or a call waits: nothing to do.
                        Pending::Binary { level: l, .. } if l < level => {}
                        Pending::Paren { .. } | Pending::Call { .. } => {}
                        _ => self.reduce(level)?,
                    }
                }
                self.b.ops.push(Pending::Binary { op, level });
                (pos, tokens) = (pos + len, tokens + 1);
                break;
            }
        }
    }

    /// Completes the waiting operators of precedence `level` and tighter, and the prefix
    /// operators, down to the innermost open parenthesis or call.
    #[inline(always)]
    fn reduce(&mut self, level: u8) -> Option<()> {
        while let Some(&top) = self.b.ops.last() {
            match top {
                Pending::Binary { op, level: l } if l >= level => {
                    self.b.ops.pop();
                    self.binary(op)?;
                }
                Pending::Prefix { op, at } => {
                    self.b.ops.pop();
                    self.unary(op, self.at(at as usize))?;
                }
                _ => break,
            }
        }
        Some(())
    }

    /// A number literal, `start..end` of the text, `tokens` read by then (it included);
    /// where reading goes on when it starts a run ([`Reader::number_operand`]).
    #[inline]
    fn number(
        &mut self,
        start: usize,
        end: usize,
        tokens: usize,
    ) -> Option<Option<(usize, usize)>> {
        let digits = self.text.get(start..end)?;
        let op = if digits.len() <= 9 && digits.iter().all(u8::is_ascii_digit) {
            // At most nine digits (the usual literal): an integer below 10^9, read here as
            // `Number::parse_literal` reads it, without its call and its wide answer.
            PlainOp::Int(digits.iter().fold(0, |n, b| n * 10 + u32::from(b - b'0')))
        } else {
            self.literal(start, end)?
        };
        self.number_operand(op, start, end, tokens)
    }

    /// The code of a number literal, `start..end` of the text, that is not a short integer.
    fn literal(&mut self, start: usize, end: usize) -> Option<PlainOp> {
        Some(match Number::parse_literal(self.src.get(start..end)?) {
            Some(Ok(Number::Int(n))) => match u32::try_from(n) {
                Ok(n) => PlainOp::Int(n),
                Err(_) => self.big(Number::Int(n))?,
            },
            Some(Ok(n)) => self.big(n)?,
            _ => return None,
        })
    }

    /// A literal kept beside the code.
    fn big(&mut self, n: Number) -> Option<PlainOp> {
        let at = u32::try_from(self.b.numbers.len()).ok()?;
        self.b.numbers.push(n);
        Some(PlainOp::Number(at))
    }

    /// The variable named `start..end` of the text, `tokens` read by then (it included);
    /// where reading goes on when it starts a run ([`Reader::number_operand`]).
    #[inline]
    fn variable(
        &mut self,
        start: usize,
        end: usize,
        tokens: usize,
    ) -> Option<Option<(usize, usize)>> {
        let (var, scalar) = self.env.scalar_variable(self.src.get(start..end)?)?;
        self.read_variable(var);
        match scalar {
            Scalar::Number => self.number_operand(PlainOp::NumVar(var), start, end, tokens),
            Scalar::Boolean => {
                self.emit(PlainOp::BoolVar(var), self.at(start), self.at(end), true)?;
                Some(None)
            }
        }
    }

    /// Notes that the formula reads `var`: appended to `deps` the first time.
    #[inline]
    fn read_variable(&mut self, var: VarRef) {
        if self.first_read(var) {
            self.b.deps.push(var);
        }
    }

    /// Whether `var` is to be appended to `deps`: read for the first time (its bit in
    /// `seen` is set now), or a handle beyond [`SEEN_WORDS`] (whose repeats are removed at
    /// the end).
    #[inline]
    fn first_read(&mut self, var: VarRef) -> bool {
        let (at, bit) = (var.0 as usize / 64, 1u64 << (var.0 % 64));
        if let Some(word) = self.b.seen.get_mut(at) {
            if *word & bit != 0 {
                return false;
            }
            *word |= bit;
        } else if at < SEEN_WORDS {
            self.b.seen.resize(at + 1, 0);
            if let Some(word) = self.b.seen.get_mut(at) {
                *word = bit;
            }
        } else {
            self.deps_unique = false;
        }
        true
    }

    /// Takes the operand on top, which must be a BOOLEAN if `boolean`, else a NUMBER.
    #[inline]
    fn take(&mut self, boolean: bool) -> Option<Operand> {
        self.b.operands.pop().filter(|o| o.boolean == boolean)
    }

    /// The call of the name at `name` whose arguments are the operands from `mark` on,
    /// closed by the `)` before `end`.
    fn call(&mut self, name: (u32, u32), mark: usize, end: usize) -> Option<()> {
        let n = self.b.operands.len().checked_sub(mark)?;
        let word = folded_word(self.text.get(name.0 as usize..name.1 as usize)?);
        let (op, boolean) = match (word, n) {
            (_, 1) if num_fn(word).is_some() => {
                self.take(false)?;
                (PlainOp::Fn1(num_fn(word)?), false)
            }
            (MAX | MIN, 2..) => {
                if self.b.operands.get(mark..)?.iter().any(|o| o.boolean) {
                    return None;
                }
                self.b.operands.truncate(mark);
                let n = u32::try_from(n).ok()?;
                let op = if word == MAX {
                    PlainOp::Max(n)
                } else {
                    PlainOp::Min(n)
                };
                (op, false)
            }
            (IF, 3) => {
                let f = self.b.operands.pop()?;
                let t = self.b.operands.pop()?;
                self.take(true)?;
                if t.boolean != f.boolean {
                    return None;
                }
                (PlainOp::If, t.boolean)
            }
            (VALUE, 0) if self.input == Some(&Format::Number) => {
                self.uses_input = true;
                (PlainOp::Input, false)
            }
            _ => return None,
        };
        self.emit(op, self.at(name.0 as usize), self.at(end), boolean)
    }

    /// The prefix operator `op` at file position `at` on the operand on top.
    fn unary(&mut self, op: UnaryOp, at: u32) -> Option<()> {
        let boolean = op == UnaryOp::Not;
        let operand = self.take(boolean)?;
        let end = operand.end.max(at.saturating_add(1));
        self.emit(PlainOp::Unary(op), at.min(operand.start), end, boolean)
    }

    /// The binary operator `op` on the two operands on top.
    #[inline]
    fn binary(&mut self, op: BinaryOp) -> Option<()> {
        let b = self.b.operands.pop()?;
        let a = self.b.operands.last_mut()?;
        let numbers = !a.boolean && !b.boolean;
        let boolean = match op {
            _ if numbers && num_op(op).is_some() => false,
            _ if numbers && cmp_op(op).is_some() => true,
            BinaryOp::Eq | BinaryOp::Ne if a.boolean == b.boolean => true,
            BinaryOp::And | BinaryOp::Or if a.boolean && b.boolean => true,
            _ => return None,
        };
        // The node replaces its operands: its span joins theirs.
        let (start, end) = (a.start.min(b.start), a.end.max(b.end));
        *a = Operand {
            start,
            end,
            boolean,
        };
        self.b.steps.push(PlainStep {
            op: PlainOp::Binary(op),
            start,
            end,
        });
        Some(())
    }
}

#[cfg(test)]
mod tests;
