//! Runs of sums and products: the operands after a `+ - * /` that are names or short
//! integers each followed by another of those operators (`b*2-c+d/` after `a+`), read
//! and completed in one tight loop, with the operators waiting on the two levels kept in
//! locals ([`Reader::run`]); and in long formulas, the runs of names of one level
//! (`b+c-d+` after `a+`), scanned and looked up in batches, the run one step and each name
//! a [`RunName`] beside it ([`Reader::run_batched`]).

use super::{Operand, Pending, PlainOp, PlainStep, Reader, RunName};
use crate::formula::ast::BinaryOp;
use crate::formula::check::{CheckEnv, NAME_BATCH, Scalar, VarRef};
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

    /// The names from byte `pos` on that are each followed by an operator of the level of
    /// the binary operator waiting on top (`b+c-d+` after `a+`), read in batches: a batch's
    /// names are gathered first, then looked up (by their bytes, in one call of
    /// [`CheckEnv::number_variables_ascii`]), then appended with the operators they complete
    /// (made in a local array, appended once a batch, as are the variables read for the
    /// first time). The look-ups of a batch do not wait for one another, nor for appending,
    /// so the environment's index is read for several names at once. Kept out of line: the
    /// reader's own loop would leave this one few registers. The names are one step
    /// ([`PlainOp::Run`]) and a [`RunName`] each, eight bytes, its operator joined with it,
    /// where [`Reader::number_operand`] would append two steps (the name, then the
    /// operator); it answers `None` where the usual reading would. It stops before the first
    /// name it cannot take so (another operator after it, a call, a number…), and takes none
    /// in a text that ends at or beyond [`RunName::SECOND`] in its file. Answers where
    /// reading goes on and the tokens read by then (`tokens` before).
    #[inline(never)]
    pub(super) fn run_batched(
        &mut self,
        mut pos: usize,
        mut tokens: usize,
    ) -> Option<(usize, usize)> {
        let (Some(&Pending::Binary { op, level }), Some(&a)) =
            (self.b.ops.last(), self.b.operands.last())
        else {
            return Some((pos, tokens));
        };
        let text = self.text;
        let offset = self.offset;
        // A name's end in its file, below `RunName::SECOND` (positions fit in `u32`:
        // checked before reading).
        if (offset as usize).saturating_add(text.len()) >= RunName::SECOND as usize {
            return Some((pos, tokens));
        }
        // The operator waiting and its left operand, kept here and stored back at the end
        // (a `None` ends the whole reading: nothing to store then).
        let (mut waiting, a_start, mut a_end) = (op, a.start, a.end);
        // The operators of this level: what `+` (or `*`) and `-` (or `/`) read as.
        let (plus, minus) = match level {
            4 => ((b'+', BinaryOp::Add), (b'-', BinaryOp::Sub)),
            5 => ((b'*', BinaryOp::Mul), (b'/', BinaryOp::Div)),
            _ => return Some((pos, tokens)),
        };
        let mut names = [(0usize, 0usize); BATCH];
        let mut ops = [BinaryOp::Add; BATCH];
        let mut vars = [VarRef(0); BATCH];
        let mut first = [VarRef(0); BATCH];
        let mut run = [RunName {
            var: VarRef(0),
            end: 0,
        }; BATCH];
        // The run's step, once it has a name: where it is in the code. Its names are the
        // run names appended from `names_from` on.
        let mut header = None;
        let names_from = self.b.runs.len();
        loop {
            // The names, each with the operator after it.
            let (n, at, more) = scan_batch(text, pos, (plus, minus), &mut names, &mut ops);
            let batch = names.get(..n)?;
            let Some(&(first_start, _)) = batch.first() else {
                break;
            };
            // A name and its operator are two tokens: the limit is checked once a batch
            // (an operand follows the last operator, and its check would fail too).
            tokens += 2 * n;
            if tokens > MAX_TOKENS {
                return None;
            }
            // Their variables: NUMBERs (a BOOLEAN would not take `+`; the usual reading
            // answers `None` for it too).
            if !self.env.number_variables_ascii(text, batch, &mut vars) {
                return None;
            }
            if header.is_none() {
                // The run's step: its span from the left operand's start to the first
                // name's (file positions, as `Reader::at` gives them).
                header = Some(self.b.steps.len());
                self.b.steps.push(PlainStep {
                    op: PlainOp::Run {
                        product: level == 5,
                        count: 0,
                    },
                    start: a_start,
                    end: offset + first_start as u32,
                });
            }
            // Each completes the operator waiting before it; its own waits in its place.
            // The variables read for the first time are noted in `first` (`k` of them).
            let mut k = 0;
            let mut seen = SeenWord::NONE;
            for (((&(_, end), &op), &var), name) in batch.iter().zip(&ops).zip(&vars).zip(&mut run)
            {
                // File positions, as `Reader::at` gives them (below `RunName::SECOND`:
                // checked above).
                let end = offset + end as u32;
                // The node replaces its operands: its span joins theirs, and the left
                // operand is text before this name.
                debug_assert!(a_start <= a_end && a_end < end);
                a_end = end;
                let second = if waiting == minus.1 {
                    RunName::SECOND
                } else {
                    0
                };
                *name = RunName {
                    var,
                    end: end | second,
                };
                waiting = op;
                if self.first_read_through(var, &mut seen) {
                    if let Some(slot) = first.get_mut(k) {
                        *slot = var;
                    }
                    k += 1;
                }
            }
            seen.store(&mut self.b.seen);
            self.b.runs.extend_from_slice(run.get(..n)?);
            self.b.deps.extend_from_slice(first.get(..k)?);
            pos = at;
            if !more {
                break;
            }
        }
        if let Some(PlainStep {
            op: PlainOp::Run { count, .. },
            ..
        }) = header.and_then(|i| self.b.steps.get_mut(i))
        {
            // At most one name for every two bytes of a text below 2^31 bytes: it fits.
            *count = u32::try_from(self.b.runs.len().saturating_sub(names_from)).ok()?;
        }
        if let (Some(Pending::Binary { op, .. }), Some(a)) =
            (self.b.ops.last_mut(), self.b.operands.last_mut())
        {
            (*op, a.start, a.end) = (waiting, a_start, a_end);
        }
        Some((pos, tokens))
    }
}

/// A word of the reader's seen bits held while a batch's names are appended
/// ([`Reader::first_read_through`]): names whose variables share a word (as the names of a
/// sum of variables defined in turn do) set their bits here, in a register, rather than
/// each loading the word the one before stored, which made every name wait on the last.
#[derive(Clone, Copy)]
struct SeenWord {
    /// Which word (`usize::MAX`: none).
    at: usize,
    /// Its bits, those set since it was loaded included.
    bits: u64,
}

impl SeenWord {
    /// No word held.
    const NONE: SeenWord = SeenWord {
        at: usize::MAX,
        bits: 0,
    };

    /// Stores the word held back into `seen`, and holds none.
    #[inline(always)]
    fn store(&mut self, seen: &mut [u64]) {
        if let Some(word) = seen.get_mut(self.at) {
            *word = self.bits;
        }
        *self = SeenWord::NONE;
    }
}

impl<E: CheckEnv + ?Sized> Reader<'_, E> {
    /// [`Reader::first_read`] of `var` through `held`, which holds the word of the seen
    /// bits of the last variable (until stored: the reader's bits lack its new ones
    /// meanwhile).
    #[inline(always)]
    fn first_read_through(&mut self, var: VarRef, held: &mut SeenWord) -> bool {
        let (at, bit) = (var.0 as usize / 64, 1u64 << (var.0 % 64));
        if at == held.at {
            let first = held.bits & bit == 0;
            held.bits |= bit;
            return first;
        }
        held.store(&mut self.b.seen);
        let first = self.first_read(var);
        if let Some(&bits) = self.b.seen.get(at) {
            *held = SeenWord { at, bits };
        }
        first
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

/// The name at byte `at` of `text` when one of the operators `first` and `second` (with
/// the operation each reads as) follows it without a space after: where the name starts
/// and ends, and the operation. (Such an operator is none of the bytes after which a name
/// needs the full lexer.) What [`scan_batch`] reads where no 64-byte window of the text
/// serves, and what its windows are tested against.
#[inline(always)]
pub(super) fn batch_item(
    text: &[u8],
    at: usize,
    first: (u8, BinaryOp),
    second: (u8, BinaryOp),
) -> Option<(usize, usize, BinaryOp)> {
    if !text.get(at)?.is_ascii_alphabetic() {
        return None;
    }
    let end = name_end(text, at);
    let op = operation(*text.get(end)?, first, second)?;
    (text.get(end + 1) != Some(&b' ')).then_some((at, end, op))
}

/// The operation of `b` when it is the operator `first` or `second`.
#[inline(always)]
fn operation(b: u8, first: (u8, BinaryOp), second: (u8, BinaryOp)) -> Option<BinaryOp> {
    if b == first.0 {
        Some(first.1)
    } else if b == second.0 {
        Some(second.1)
    } else {
        None
    }
}

/// The names from byte `pos` on of a batch of [`Reader::run_batched`], each followed by
/// one of `operators` ([`batch_item`]), into `names` (their spans) and `ops` (the
/// operations after them): how many, the byte after the last one's operator, and whether
/// the run may go on after them (`false` once a byte that is not such an item is met).
/// On x86-64 they are read a window of 64 bytes at a time ([`scan_window`]), and a batch
/// ends with the window that fills half of it (the window's names all fit, in most
/// texts: no window is read twice); elsewhere, near the end of the text and for names as
/// long as a window, one at a time. Kept out of line: in `run_batched`'s own loop the scan
/// had few registers.
///
/// [`scan_window`]: super::window::scan_window
#[inline(never)]
fn scan_batch(
    text: &[u8],
    pos: usize,
    operators: ((u8, BinaryOp), (u8, BinaryOp)),
    names: &mut [(usize, usize); BATCH],
    ops: &mut [BinaryOp; BATCH],
) -> (usize, usize, bool) {
    let mut n = 0;
    let mut at = pos;
    loop {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        while let Some((taken, next, ended)) =
            super::window::scan_window(text, at, operators, names, ops, n)
        {
            if ended {
                return (taken, next, taken == BATCH);
            }
            if next == at {
                // The window's first item reaches its last byte: read it below.
                break;
            }
            (n, at) = (taken, next);
            if n >= BATCH / 2 {
                return (n, at, true);
            }
        }
        // Near the end of the text, or an item as long as a window: one item.
        let (Some(span), Some(op)) = (names.get_mut(n), ops.get_mut(n)) else {
            return (n, at, true);
        };
        let Some((start, end, next)) = batch_item(text, at, operators.0, operators.1) else {
            return (n, at, false);
        };
        (*span, *op) = ((start, end), next);
        n += 1;
        at = end + 1;
    }
}

/// The most names [`Reader::run_batched`] reads at a time (a batch ends with the window
/// that fills half of it: see [`scan_batch`]), each batch looked up in one call.
const BATCH: usize = NAME_BATCH;

#[cfg(test)]
mod tests {
    use super::*;

    /// Items of a run (each name's span and the operation after it), and where reading
    /// stopped.
    type Items = (Vec<((usize, usize), BinaryOp)>, usize);

    /// The items from `pos` on as [`batch_item`] reads them one at a time: their spans and
    /// operations, and where reading stops.
    fn items_one_by_one(
        text: &[u8],
        mut pos: usize,
        (plus, minus): ((u8, BinaryOp), (u8, BinaryOp)),
    ) -> Items {
        let mut items = Vec::new();
        while let Some((start, end, op)) = batch_item(text, pos, plus, minus) {
            items.push(((start, end), op));
            pos = end + 1;
        }
        (items, pos)
    }

    /// The items from `pos` on as [`scan_batch`] reads them, a batch at a time (each
    /// batch's spans checked to follow on from the last), and where reading stops.
    fn items_in_batches(
        text: &[u8],
        mut pos: usize,
        operators: ((u8, BinaryOp), (u8, BinaryOp)),
    ) -> Items {
        let mut items = Vec::new();
        let mut names = [(0usize, 0usize); BATCH];
        let mut ops = [BinaryOp::Add; BATCH];
        loop {
            let (n, at, more) = scan_batch(text, pos, operators, &mut names, &mut ops);
            assert!(n <= BATCH);
            items.extend(names.iter().copied().zip(ops).take(n));
            assert!(at >= pos);
            pos = at;
            if !more || n == 0 {
                return (items, pos);
            }
        }
    }

    /// Texts of name bytes, operators of both levels, spaces and bytes that end a run
    /// (long names included): every batch reads the items that reading them one by one
    /// does, wherever they fall in the 64-byte windows, and stops where it stops.
    #[test]
    fn batches_read_the_items_that_one_by_one_reading_does() {
        use proptest::prelude::*;
        let piece = prop::sample::select(vec![
            "a",
            "Zq",
            "s123",
            "b~2",
            "9",
            "7x",
            "~",
            " ",
            "+",
            "-",
            "*",
            "/",
            "(",
            "_",
            ".",
            "\u{e9}",
            "LongNameOfTwentySeven~Bytes",
            "x",
        ]);
        let long = prop::sample::select(vec![1usize, 30, 61, 62, 63, 64, 65, 70, 130]);
        let texts = (
            prop::collection::vec(piece, 0..200),
            prop::option::of((any::<prop::sample::Index>(), long)),
        )
            .prop_map(|(pieces, long)| {
                let mut pieces: Vec<String> = pieces.into_iter().map(String::from).collect();
                if let Some((at, len)) = long {
                    let i = at.index(pieces.len() + 1);
                    pieces.insert(i.min(pieces.len()), "n".repeat(len));
                }
                pieces.concat()
            });
        // Mostly runs: every other piece a name followed by `+` or `-`.
        let runs = prop::collection::vec(
            (
                prop::sample::select(vec![
                    "a",
                    "Zq",
                    "s123",
                    "b~2",
                    "LongNameOfTwentySeven~Bytes",
                ]),
                prop::sample::select(vec!["+", "-", "+", "+", "-", "+ ", "*", "+("]),
            ),
            0..120,
        )
        .prop_map(|items| {
            items
                .iter()
                .map(|(n, o)| format!("{n}{o}"))
                .collect::<String>()
        });
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(3000));
        let sum = (b'+', BinaryOp::Add);
        let difference = (b'-', BinaryOp::Sub);
        let product = (b'*', BinaryOp::Mul);
        let quotient = (b'/', BinaryOp::Div);
        let result = runner.run(&(prop_oneof![texts, runs], 0usize..70), |(text, pos)| {
            let bytes = text.as_bytes();
            for operators in [(sum, difference), (product, quotient)] {
                prop_assert_eq!(
                    items_in_batches(bytes, pos, operators),
                    items_one_by_one(bytes, pos, operators),
                    "{:?} from {}",
                    text,
                    pos
                );
            }
            Ok(())
        });
        if let Err(e) = result {
            panic!("{e}");
        }
    }

    /// The property above is not vacuous: long runs are read, across many windows.
    #[test]
    fn a_long_run_is_read_across_windows() {
        let text = (0..500).map(|i| format!("s{i}+")).collect::<String>() + "(";
        let plus = (b'+', BinaryOp::Add);
        let minus = (b'-', BinaryOp::Sub);
        let (items, end) = items_in_batches(text.as_bytes(), 0, (plus, minus));
        assert_eq!(items.len(), 500);
        assert_eq!(end, text.len() - 1);
        assert_eq!(
            (items, end),
            items_one_by_one(text.as_bytes(), 0, (plus, minus))
        );
    }

    /// Names of one byte and of many, each read to its end, up to the end of the text.
    #[test]
    fn items_are_read_to_their_names_end() {
        let plus = (b'+', BinaryOp::Add);
        let minus = (b'-', BinaryOp::Sub);
        let text = b"abcdefghijklmnopqrstu+b-c+";
        assert_eq!(
            batch_item(text, 0, plus, minus),
            Some((0, 21, BinaryOp::Add))
        );
        assert_eq!(
            batch_item(text, 22, plus, minus),
            Some((22, 23, BinaryOp::Sub))
        );
        assert_eq!(
            batch_item(text, 24, plus, minus),
            Some((24, 25, BinaryOp::Add))
        );
        assert_eq!(batch_item(b"ab~9", 0, plus, minus), None);
        assert_eq!(batch_item(b"a+ b", 0, plus, minus), None);
    }

    /// An item read with more text after it is the item read at the text's end: names of
    /// 1 to 20 bytes, starting with a letter or not, each followed by an operator of the
    /// level or another byte, then by a name, a space or another byte.
    #[test]
    fn an_item_reads_alike_with_text_after_it_and_at_the_end() {
        let plus = (b'+', BinaryOp::Add);
        let minus = (b'-', BinaryOp::Sub);
        let mut read = 0;
        for len in 1..=20 {
            for start in [b'a', b'Z', b'7', b'~', b' ', b'+'] {
                for after in [b'+', b'-', b'*', b' ', b'_', b'a', b'9', 0x80] {
                    for next in [b'b', b' ', b'+', b'('] {
                        let mut end_of_text = vec![start];
                        end_of_text.extend(std::iter::repeat_n(b'x', len - 1));
                        end_of_text.extend([after, next]);
                        let mut padded = end_of_text.clone();
                        padded.resize(end_of_text.len() + 16, b'q');
                        let want = batch_item(&end_of_text, 0, plus, minus);
                        assert_eq!(batch_item(&padded, 0, plus, minus), want, "{padded:?}");
                        read += usize::from(want.is_some());
                    }
                }
            }
        }
        assert!(read > 100, "{read}");
    }
}
