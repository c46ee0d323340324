//! Operands that complete the operator waiting for them at once (`a+b` followed by `+`),
//! and the runs of such names in long formulas, looked up in batches.

use super::{Pending, PlainOp, PlainStep, Reader};
use crate::formula::ast::BinaryOp;
use crate::formula::check::{CheckEnv, Scalar, VarRef};
use crate::formula::parse::{MAX_TOKENS, plain_name_end};

impl<E: CheckEnv + ?Sized> Reader<'_, E> {
    /// The names from byte `pos` on that are each followed by an operator of the level of
    /// the binary operator waiting on top (`b+c-d+` after `a+`), read in batches: a batch's
    /// names are gathered first, then looked up, then appended with the operators they
    /// complete. The look-ups of a batch do not wait for one another, nor for appending,
    /// so the environment's index is read for several names at once. What this appends is
    /// what [`Reader::number_operand`] appends for each of those names, and it answers
    /// `None` where the usual reading would; it stops before the first name it cannot take
    /// so (another operator after it, a call, a number…). Answers where reading goes on and
    /// the tokens read by then (`tokens` before).
    pub(super) fn run(&mut self, mut pos: usize, mut tokens: usize) -> Option<(usize, usize)> {
        const BATCH: usize = 16;
        let Some(&Pending::Binary { level, .. }) = self.ops.last() else {
            return Some((pos, tokens));
        };
        let mut names = [(0usize, 0usize, BinaryOp::Add); BATCH];
        let mut vars = [VarRef(0); BATCH];
        loop {
            // The names, each with the operator after it.
            let mut n = 0;
            let mut at = pos;
            for slot in &mut names {
                let Some(item) = self.run_item(at, level) else {
                    break;
                };
                *slot = item;
                n += 1;
                at = item.1 + 1;
            }
            let batch = names.get(..n)?;
            if batch.is_empty() {
                return Some((pos, tokens));
            }
            // A name and its operator are two tokens: the limit is checked once a batch
            // (an operand follows the last operator, and its check would fail too).
            tokens += 2 * n;
            if tokens > MAX_TOKENS {
                return None;
            }
            // Their variables: NUMBERs (a BOOLEAN would not take `+`; the usual reading
            // answers `None` for it too).
            for (&(start, end, _), var) in batch.iter().zip(&mut vars) {
                match self.env.scalar_variable(self.src.get(start..end)?)? {
                    (v, Scalar::Number) => *var = v,
                    (_, Scalar::Boolean) => return None,
                }
            }
            // Each completes the operator waiting before it; its own waits in its place.
            let (Some(Pending::Binary { op: waiting, .. }), Some(a)) =
                (self.ops.last_mut(), self.operands.last_mut())
            else {
                return None;
            };
            for (&(start, end, op), &var) in batch.iter().zip(&vars) {
                // File positions, as `Reader::at` gives them (the text was checked to fit
                // in `u32` at its offset before reading: no overflow).
                let (start, end) = (self.offset + start as u32, self.offset + end as u32);
                self.steps.push(PlainStep {
                    op: PlainOp::NumVar(var),
                    start,
                    end,
                });
                (a.start, a.end) = (a.start.min(start), a.end.max(end));
                self.steps.push(PlainStep {
                    op: PlainOp::Binary(*waiting),
                    start: a.start,
                    end: a.end,
                });
                *waiting = op;
            }
            for &var in vars.get(..n)? {
                self.read_variable(var);
            }
            pos = at;
            if n < BATCH {
                return Some((pos, tokens));
            }
        }
    }

    /// The name at byte `at` of the text when an operator of precedence `level` (`+` `-`,
    /// or `*` `/`) without a space after it follows: where the name starts and ends, and
    /// the operator.
    #[inline]
    fn run_item(&self, at: usize, level: u8) -> Option<(usize, usize, BinaryOp)> {
        if !self.byte(at).is_ascii_alphabetic() {
            return None;
        }
        let end = plain_name_end(self.text, at)?;
        let op = match (self.byte(end), level) {
            (b'+', 4) => BinaryOp::Add,
            (b'-', 4) => BinaryOp::Sub,
            (b'*', 5) => BinaryOp::Mul,
            (b'/', 5) => BinaryOp::Div,
            _ => return None,
        };
        (self.byte(end + 1) != b' ').then_some((at, end, op))
    }

    /// Appends the NUMBER operand `op` (the text `start..end`, file positions) read up to
    /// byte `after` of the text. When the operator after it is `+` `-` `*` or `/` (without
    /// a space after) and a binary operator of the same level waits for this operand (`a+b`
    /// followed by `+c`), that waiting operator is complete: it is appended at once, the
    /// new one waits in its place, and the answer is where the next operand starts. Else
    /// (`None`) the operand is pushed, for the usual reading of what follows.
    #[inline(always)]
    pub(super) fn number_operand(
        &mut self,
        op: PlainOp,
        start: u32,
        end: u32,
        after: usize,
    ) -> Option<Option<usize>> {
        let (next, level) = match self.byte(after) {
            b'+' => (BinaryOp::Add, 4),
            b'-' => (BinaryOp::Sub, 4),
            b'*' => (BinaryOp::Mul, 5),
            b'/' => (BinaryOp::Div, 5),
            _ => {
                self.emit(op, start, end, false)?;
                return Some(None);
            }
        };
        if let (Some(top), Some(a)) = (self.ops.last_mut(), self.operands.last_mut()) {
            if let Pending::Binary {
                op: before,
                level: l,
            } = *top
            {
                // `before` is `+` `-` `*` or `/` (the operators of these levels), as
                // `binary` would check it: of two NUMBERs, a NUMBER.
                if l == level && !a.boolean && self.text.get(after + 1) != Some(&b' ') {
                    *top = Pending::Binary { op: next, level };
                    self.steps.push(PlainStep { op, start, end });
                    // The node replaces its operands: its span joins theirs.
                    (a.start, a.end) = (a.start.min(start), a.end.max(end));
                    self.steps.push(PlainStep {
                        op: PlainOp::Binary(before),
                        start: a.start,
                        end: a.end,
                    });
                    return Some(Some(after + 1));
                }
            }
        }
        self.emit(op, start, end, false)?;
        Some(None)
    }
}
