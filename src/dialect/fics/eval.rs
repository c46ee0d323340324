//! Evaluating a compiled FICS formula: the variables' values for a match request,
//! `maxtime`, f-variable clauses, and division by zero (×1000 with a notice).

use super::{FVar, FVars, FicsLeaf, GameType, MatchRequest, Var, error};
use crate::diagnostic::Diagnostic;
use crate::dialect::core::{self, Env, EvalError, Expr};
use crate::source::Span;

/// The result of evaluating a formula for one request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The raw integer value; the match is accepted when it is not 0.
    pub value: i32,
    /// Each division by zero that was evaluated (the `/`), in order: FICS divides by
    /// 0.001 instead, i.e. multiplies by 1000, and notifies the formula's owner.
    pub divisions_by_zero: Vec<Span>,
}

impl Evaluation {
    /// Whether the match is accepted (the value is not 0).
    pub fn accepted(&self) -> bool {
        self.value != 0
    }

    /// The division-by-zero notices as diagnostics (severity note).
    pub fn notices(&self) -> Vec<Diagnostic> {
        self.divisions_by_zero
            .iter()
            .map(|&span| {
                Diagnostic::note(error::DIVISION_BY_ZERO, span, "division by zero")
                    .with_label("divided by 0.001 instead, i.e. multiplied by 1000")
                    .with_help("guard the divisor, e.g. `(x = 0) | (y / x > 2)`")
                    .with_note("FICS tells the formula's owner: \"Dividing by 0.001000 instead or zero in formula.\"")
            })
            .collect()
    }
}

pub(super) fn mark_used(expr: &Expr<FicsLeaf>, fvars: &FVars, used: &mut [bool; 9]) {
    expr.for_each_leaf(&mut |leaf, _| match leaf {
        FicsLeaf::Clause(f) => {
            if let Some(slot) = used.get_mut(usize::from(f.0)) {
                if !*slot {
                    *slot = true;
                    if let Some(Some(c)) = fvars.clauses.get(usize::from(f.0)) {
                        mark_used(&c.expr, fvars, used);
                    }
                }
            }
        }
        FicsLeaf::MaxTime { moves, .. } => mark_used(moves, fvars, used),
        FicsLeaf::Var(_) => {}
    });
}

pub(super) struct FicsEnv<'a> {
    pub request: &'a MatchRequest,
    pub game_type: GameType,
    pub fvars: &'a FVars,
    pub divisions: Vec<Span>,
    /// Clause nesting (bounded by 9: fK only refers to lower clauses).
    pub depth: u8,
    /// Each f-variable's value once it was evaluated for this request: a clause referring
    /// to the one below it several times (`f2 = f1+f1+f1`, `f3 = f2+f2+f2`, …) would
    /// otherwise be evaluated an exponential number of times (8.6 s for 687 bytes). FICS's
    /// values depend only on the request, so one evaluation per request gives the same
    /// value; a division by zero inside is noted once.
    values: [Option<Result<i32, EvalError>>; 9],
}

impl<'a> FicsEnv<'a> {
    /// An environment for evaluating against `request`, with nothing evaluated yet.
    pub fn new(request: &'a MatchRequest, fvars: &'a FVars) -> Self {
        FicsEnv {
            request,
            game_type: request.game_type(),
            fvars,
            divisions: Vec::new(),
            depth: 0,
            values: Default::default(),
        }
    }

    pub fn clause(&mut self, f: FVar) -> Result<i32, EvalError> {
        let at = usize::from(f.0);
        if let Some(Some(known)) = self.values.get(at) {
            return known.clone();
        }
        let fvars = self.fvars;
        match fvars.clauses.get(at) {
            Some(Some(c)) if self.depth < 10 => {
                self.depth += 1;
                let v = core::eval(&c.expr, self);
                self.depth -= 1;
                if let Some(slot) = self.values.get_mut(at) {
                    *slot = Some(v.clone());
                }
                v
            }
            // Unset: 1, as in FICS.
            _ => Ok(1),
        }
    }
}

impl Env<FicsLeaf> for FicsEnv<'_> {
    fn leaf(&mut self, leaf: &FicsLeaf, span: Span) -> Result<i32, EvalError> {
        let r = self.request;
        let ty = self.game_type;
        let assess = |delta: i32| if r.rated { delta } else { 0 };
        Ok(match leaf {
            FicsLeaf::Var(v) => match v {
                Var::Registered => i32::from(r.registered),
                Var::RatingDiff => r
                    .rating
                    .for_type(ty)
                    .checked_sub(r.myrating.for_type(ty))
                    .ok_or_else(|| core::eval::overflow(span, "ratingdiff"))?,
                Var::AssessLoss => assess(r.assessloss),
                Var::AssessDraw => assess(r.assessdraw),
                Var::AssessWin => assess(r.assesswin),
                Var::Timeseal => i32::from(r.timeseal),
                Var::MyRating => r.myrating.for_type(ty),
                Var::Computer => i32::from(r.computer),
                Var::Standard => i32::from(ty == GameType::Standard),
                Var::Private => i32::from(r.private),
                Var::Abuser => i32::from(r.abuser),
                Var::Rating => r.rating.for_type(ty),
                Var::Rated => i32::from(r.rated),
                Var::Nonstandard => i32::from(ty == GameType::Nonstandard),
                Var::Lightning => i32::from(ty == GameType::Lightning),
                Var::Untimed => i32::from(ty == GameType::Untimed),
                Var::Blitz => i32::from(ty == GameType::Blitz),
                Var::Wild => i32::from(ty == GameType::Wild),
                Var::Time => r.time,
                Var::Inc => r.inc,
                // Never leaves of their own: the parser makes them `MaxTime`.
                Var::MaxTime | Var::MyMaxTime => 0,
            },
            FicsLeaf::MaxTime { players, moves } => {
                let n = core::eval(moves, self)?;
                r.max_time(n, *players, ty)
                    .ok_or_else(|| core::eval::overflow(span, "the maximum time"))?
            }
            FicsLeaf::Clause(f) => self.clause(*f)?,
        })
    }

    fn divide_by_zero(&mut self, left: i32, op_span: Span) -> Result<i32, EvalError> {
        self.divisions.push(op_span);
        left.checked_mul(1000)
            .ok_or_else(|| core::eval::overflow(op_span, "the division by 0.001"))
    }
}
