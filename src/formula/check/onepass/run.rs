//! Runs of sums and products: the operands after a `+ - * /` that are names or short
//! integers each followed by another of those operators (`b*2-c+d/` after `a+`), read
//! and completed in one tight loop, with the operators waiting on the two levels kept in
//! locals ([`Reader::run`]).

use super::{Operand, Pending, PlainOp, PlainStep, Reader};
use crate::formula::ast::BinaryOp;
use crate::formula::check::{CheckEnv, Scalar, VarRef};
use crate::formula::parse::{MAX_TOKENS, name_end};

/// An operand of a run: a name or an integer literal, and the operator after it.
#[derive(Clone, Copy)]
struct Item {
    /// Where the operand starts and ends in the text.
    start: u32,
    end: u32,
    /// The literal's value, or [`NAME`].
    literal: u32,
    /// The operator after it: `+ - * /`.
    next: BinaryOp,
}

/// [`Item::literal`] of a name (no literal of nine digits is as large).
const NAME: u32 = u32::MAX;

/// A binary operator of a run waiting for its right operand, and its left operand's span
/// (file positions).
#[derive(Clone, Copy)]
struct Waiting {
    op: BinaryOp,
    start: u32,
    end: u32,
}

impl Waiting {
    /// Appends the operator's node, whose right operand ends at file position `end` (after
    /// the left one): where the node starts.
    #[inline(always)]
    fn complete(self, end: u32, steps: &mut Vec<PlainStep>) -> u32 {
        debug_assert!(self.start <= self.end && self.end <= end);
        steps.push(PlainStep {
            op: PlainOp::Binary(self.op),
            start: self.start,
            end,
        });
        self.start
    }
}

impl<E: CheckEnv + ?Sized> Reader<'_, E> {
    /// Appends the NUMBER operand `op`, the text `start..end`, `tokens` read by then (it
    /// included). When a `+ - * /` follows it (without a space after), a `+ - * /` waits
    /// for it, and another operand of a run follows ([`run_item`]), the operand starts a
    /// run ([`Reader::run`]): the answer is where reading goes on and the tokens read by
    /// then. Else (`None`) the operand is pushed, for the usual reading of what follows.
    #[inline(always)]
    pub(super) fn number_operand(
        &mut self,
        op: PlainOp,
        start: usize,
        end: usize,
        tokens: usize,
    ) -> Option<Option<(usize, usize)>> {
        let next = match self.byte(end) {
            b'+' => BinaryOp::Add,
            b'-' => BinaryOp::Sub,
            b'*' => BinaryOp::Mul,
            b'/' => BinaryOp::Div,
            _ => {
                self.emit(op, self.at(start), self.at(end), false)?;
                return Some(None);
            }
        };
        if matches!(
            self.b.ops.last(),
            Some(Pending::Binary { level: 4 | 5, .. })
        ) && run_item(self.text, end + 1).is_some()
        {
            // (The operand after the operator starts with a letter or digit: no space.)
            let first = (op, self.at(start), self.at(end), next);
            return self.run(first, end + 1, tokens + 1).map(Some);
        }
        self.emit(op, self.at(start), self.at(end), false)?;
        Some(None)
    }

    /// Reads a run: `first` (an operand's code, its span and the `+ - * /` after it, which
    /// ends before byte `pos`, `tokens` read by then), while a `+ - * /` waits on top of
    /// the operators, then the operands from `pos` on that are names (NUMBER variables)
    /// or integers of up to nine digits, each followed by one of those operators without a
    /// space after ([`run_item`]). Each is appended with the operators it completes: a `*`
    /// or `/` waiting for it, then, when a `+` or `-` follows it, a `+` or `-` waiting.
    /// The operators waiting (at most one of each level, the `+`/`-` under the `*`/`/`)
    /// are kept in locals meanwhile and put back on the stacks at the end: the code
    /// appended is what the reader appends for those tokens one by one. Answers `None`
    /// where the usual reading would (a BOOLEAN name, an unknown one, too many tokens),
    /// else where reading goes on (before the first operand that is not such an item) and
    /// the tokens read by then. Kept out of line: the reader's own loop would leave this
    /// one few registers.
    #[inline(never)]
    fn run(
        &mut self,
        first: (PlainOp, u32, u32, BinaryOp),
        pos: usize,
        tokens: usize,
    ) -> Option<(usize, usize)> {
        // The code and the variables read are appended through locals, whose lengths can
        // stay in registers (the reader's own are behind `self`).
        let mut steps = std::mem::take(&mut self.b.steps);
        let mut deps = std::mem::take(&mut self.b.deps);
        let read = self.run_into(first, pos, tokens, &mut steps, &mut deps);
        (self.b.steps, self.b.deps) = (steps, deps);
        read
    }

    /// [`Reader::run`], appending to `steps` and `deps`.
    #[inline(always)]
    fn run_into(
        &mut self,
        first: (PlainOp, u32, u32, BinaryOp),
        mut pos: usize,
        mut tokens: usize,
        steps: &mut Vec<PlainStep>,
        deps: &mut Vec<VarRef>,
    ) -> Option<(usize, usize)> {
        let text = self.text;
        let offset = self.offset;
        let (mut add, mut mul) = self.take_waiting()?;
        let (mut op, mut start, mut end, mut next) = first;
        loop {
            steps.push(PlainStep { op, start, end });
            // The operand, or the product it completes. A node's span joins its
            // operands': the left one is text before this operand.
            let mut left = start;
            if let Some(m) = mul.take() {
                debug_assert!(m.end <= start);
                left = m.complete(end, steps);
            }
            if matches!(next, BinaryOp::Mul | BinaryOp::Div) {
                mul = Some(Waiting {
                    op: next,
                    start: left,
                    end,
                });
            } else {
                if let Some(a) = add {
                    debug_assert!(a.start <= left && a.end <= start);
                    left = a.complete(end, steps);
                }
                add = Some(Waiting {
                    op: next,
                    start: left,
                    end,
                });
            }
            // The next operand.
            let Some(item) = run_item(text, pos) else {
                break;
            };
            tokens += 2;
            if tokens > MAX_TOKENS {
                return None;
            }
            op = if item.literal == NAME {
                // A NUMBER (a BOOLEAN would not take the operator; the usual reading
                // answers `None` for it too).
                let name = text.get(item.start as usize..item.end as usize)?;
                match self.env.scalar_variable_ascii(name)? {
                    (var, Scalar::Number) => {
                        if self.first_read(var) {
                            deps.push(var);
                        }
                        PlainOp::NumVar(var)
                    }
                    (_, Scalar::Boolean) => return None,
                }
            } else {
                PlainOp::Int(item.literal)
            };
            // File positions, as `Reader::at` gives them (the text was checked to fit in
            // `u32` at its offset before reading: no overflow).
            (start, end, next) = (offset + item.start, offset + item.end, item.next);
            pos = item.end as usize + 1;
        }
        for (w, level) in [(add, 4), (mul, 5)] {
            if let Some(w) = w {
                self.b.operands.push(Operand {
                    start: w.start,
                    end: w.end,
                    boolean: false,
                });
                self.b.ops.push(Pending::Binary { op: w.op, level });
            }
        }
        Some((pos, tokens))
    }

    /// The `+ - * /` on top of the operators and its left operand, taken off the stacks,
    /// and under a `*` or `/` a `+` or `-` with its own: the `+`/`-` and the `*`/`/`
    /// waiting. `None` when a left operand is a BOOLEAN (the operator's check fails), or
    /// (never: a run starts only after one) when no `+ - * /` is on top.
    fn take_waiting(&mut self) -> Option<(Option<Waiting>, Option<Waiting>)> {
        let mul = self.take_binary(5)?;
        let add = self.take_binary(4)?;
        (add.is_some() || mul.is_some()).then_some((add, mul))
    }

    /// The binary operator of `level` on top of the operators and its left operand, taken
    /// off the stacks (`Some(None)` when another is on top); `None` when that operand is a
    /// BOOLEAN.
    fn take_binary(&mut self, level: u8) -> Option<Option<Waiting>> {
        match (self.b.ops.last(), self.b.operands.last()) {
            (Some(&Pending::Binary { op, level: l }), Some(&a)) if l == level => {
                if a.boolean {
                    return None;
                }
                self.b.ops.pop();
                self.b.operands.pop();
                Some(Some(Waiting {
                    op,
                    start: a.start,
                    end: a.end,
                }))
            }
            _ => Some(None),
        }
    }
}

/// The operand of a run at byte `at` of `text` (see [`Reader::run`]): a name, or an
/// integer of up to nine digits, followed by `+ - * /` without a space after. (Such an
/// operator is none of the bytes after which a name or a number needs the full lexer.)
#[inline(always)]
fn run_item(text: &[u8], at: usize) -> Option<Item> {
    let first = *text.get(at)?;
    let (end, literal) = if first.is_ascii_alphabetic() {
        (name_end(text, at), None)
    } else if first.is_ascii_digit() {
        // Read as `Reader::number` reads a literal of up to nine digits.
        let mut end = at;
        let mut n = 0u32;
        while let Some(&d @ b'0'..=b'9') = text.get(end) {
            n = n.wrapping_mul(10).wrapping_add(u32::from(d - b'0'));
            end += 1;
        }
        if end - at > 9 {
            return None;
        }
        (end, Some(n))
    } else {
        return None;
    };
    let next = match *text.get(end)? {
        b'+' => BinaryOp::Add,
        b'-' => BinaryOp::Sub,
        b'*' => BinaryOp::Mul,
        b'/' => BinaryOp::Div,
        _ => return None,
    };
    // Positions in the text fit in `u32` (checked before reading).
    (text.get(end + 1) != Some(&b' ')).then_some(Item {
        start: at as u32,
        end: end as u32,
        literal: literal.unwrap_or(NAME),
        next,
    })
}
