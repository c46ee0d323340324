//! Operands that complete the operator waiting for them at once (`a+b` followed by `+`),
//! and the runs of such names in long formulas, looked up in batches.

use super::{Pending, PlainOp, PlainStep, Reader};
use crate::formula::ast::BinaryOp;
use crate::formula::check::{CheckEnv, Scalar, VarRef};
use crate::formula::parse::{MAX_TOKENS, name_end};

impl<E: CheckEnv + ?Sized> Reader<'_, E> {
    /// The names from byte `pos` on that are each followed by an operator of the level of
    /// the binary operator waiting on top (`b+c-d+` after `a+`), read in batches: a batch's
    /// names are gathered first, then looked up (by their bytes,
    /// [`CheckEnv::scalar_variable_ascii`]), then appended with the operators they complete
    /// (made in a local array, appended once a batch, as are the variables read for the
    /// first time). The look-ups of a batch do not wait for one another, nor for appending,
    /// so the environment's index is read for several names at once. Kept out of line: the
    /// reader's own loop would leave this one few registers. What this appends is
    /// what [`Reader::number_operand`] appends for each of those names, and it answers
    /// `None` where the usual reading would; it stops before the first name it cannot take
    /// so (another operator after it, a call, a number…). Answers where reading goes on and
    /// the tokens read by then (`tokens` before).
    #[inline(never)]
    pub(super) fn run(&mut self, mut pos: usize, mut tokens: usize) -> Option<(usize, usize)> {
        const BATCH: usize = 16;
        let (Some(&Pending::Binary { op, level }), Some(&a)) =
            (self.ops.last(), self.operands.last())
        else {
            return Some((pos, tokens));
        };
        // The operator waiting and its left operand, kept here and stored back at the end
        // (a `None` ends the whole reading: nothing to store then).
        let (mut waiting, a_start, mut a_end) = (op, a.start, a.end);
        // The operators of this level: what `+` (or `*`) and `-` (or `/`) read as.
        let (plus, minus) = match level {
            4 => ((b'+', BinaryOp::Add), (b'-', BinaryOp::Sub)),
            5 => ((b'*', BinaryOp::Mul), (b'/', BinaryOp::Div)),
            _ => return Some((pos, tokens)),
        };
        let text = self.text;
        let mut names = [(0usize, 0usize, BinaryOp::Add); BATCH];
        let mut vars = [VarRef(0); BATCH];
        let mut first = [VarRef(0); BATCH];
        let mut steps = [PlainStep {
            op: PlainOp::Input,
            start: 0,
            end: 0,
        }; 2 * BATCH];
        loop {
            // The names, each with the operator after it.
            let mut n = 0;
            let mut at = pos;
            for slot in &mut names {
                let Some(item) = run_item(text, at, plus, minus) else {
                    break;
                };
                *slot = item;
                n += 1;
                at = item.1 + 1;
            }
            let batch = names.get(..n)?;
            if batch.is_empty() {
                break;
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
                match self.env.scalar_variable_ascii(text.get(start..end)?)? {
                    (v, Scalar::Number) => *var = v,
                    (_, Scalar::Boolean) => return None,
                }
            }
            // Each completes the operator waiting before it; its own waits in its place.
            // The variables read for the first time are noted in `first` (`k` of them).
            let mut k = 0;
            let offset = self.offset;
            for ((&(start, end, op), &var), pair) in
                batch.iter().zip(&vars).zip(steps.chunks_exact_mut(2))
            {
                // File positions, as `Reader::at` gives them (the text was checked to fit
                // in `u32` at its offset before reading: no overflow).
                let (start, end) = (offset + start as u32, offset + end as u32);
                // The node replaces its operands: its span joins theirs, and the left
                // operand is text before this name.
                debug_assert!(a_start <= start && a_end <= start);
                a_end = end;
                if let [name, node] = pair {
                    *name = PlainStep {
                        op: PlainOp::NumVar(var),
                        start,
                        end,
                    };
                    *node = PlainStep {
                        op: PlainOp::Binary(waiting),
                        start: a_start,
                        end,
                    };
                }
                waiting = op;
                if self.first_read(var) {
                    if let Some(slot) = first.get_mut(k) {
                        *slot = var;
                    }
                    k += 1;
                }
            }
            self.steps.extend_from_slice(steps.get(..2 * n)?);
            self.deps.extend_from_slice(first.get(..k)?);
            pos = at;
            if n < BATCH {
                break;
            }
        }
        if let (Some(Pending::Binary { op, .. }), Some(a)) =
            (self.ops.last_mut(), self.operands.last_mut())
        {
            (*op, a.start, a.end) = (waiting, a_start, a_end);
        }
        Some((pos, tokens))
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

/// The name at byte `at` of `text` when one of the operators `first` and `second` (with
/// the operation each reads as) follows it without a space after: where the name starts
/// and ends, and the operation. (Such an operator is none of the bytes after which a name
/// needs the full lexer.)
#[inline(always)]
fn run_item(
    text: &[u8],
    at: usize,
    first: (u8, BinaryOp),
    second: (u8, BinaryOp),
) -> Option<(usize, usize, BinaryOp)> {
    if !text.get(at)?.is_ascii_alphabetic() {
        return None;
    }
    let end = name_end(text, at);
    let b = *text.get(end)?;
    let op = if b == first.0 {
        first.1
    } else if b == second.0 {
        second.1
    } else {
        return None;
    };
    (text.get(end + 1) != Some(&b' ')).then_some((at, end, op))
}
