//! FICS `formula`: the match filter of the Free Internet Chess Server (1.6.2 semantics).
//!
//! ```
//! use rulebook::dialect::fics::{FVar, FVars, MatchFormula, MatchRequest};
//! use rulebook::source::FileId;
//!
//! let mut fvars = FVars::new();
//! fvars.set(FVar::new(1).unwrap(), "rated & time=5 & inc=0", FileId(1)).unwrap();
//! let formula = MatchFormula::compile("f1 | blitz # comments are fine", FileId(0), &fvars).unwrap();
//! let request = MatchRequest { time: 5, inc: 0, mytime: 5, myinc: 0, rated: true, ..Default::default() };
//! assert!(formula.accepts(&request));
//! ```
//!
//! Compile once with [`MatchFormula::compile`] (syntax errors are [`Diagnostic`]s with the
//! original's error classes, see [`ErrorClass`]); evaluate many times with
//! [`MatchFormula::evaluate`]. The f-variables are a [`FVars`] set the formula is compiled
//! against: a compiled formula keeps the clauses it was compiled with.

pub mod context;
pub mod error;
mod eval;
mod parse;

pub use context::{Category, GameType, MatchRequest, Ratings};
pub use error::ErrorClass;
pub use eval::Evaluation;

use eval::{FicsEnv, mark_used};

use crate::diagnostic::Diagnostic;
use crate::dialect::core::{self, EvalError, Expr, Leaf, Ty};
use crate::source::FileId;
use std::sync::Arc;

/// A predefined FICS variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Var {
    /// Challenger is registered (B).
    Registered,
    /// `rating - myrating`.
    RatingDiff,
    /// Owner's rating change on a loss (0 if unrated).
    AssessLoss,
    /// Owner's rating change on a draw (0 if unrated).
    AssessDraw,
    /// Owner's rating change on a win (0 if unrated).
    AssessWin,
    /// `mymaxtime(n)` (only as a name in the variable table).
    MyMaxTime,
    /// Challenger uses timeseal (B).
    Timeseal,
    /// Owner's rating in the game's type.
    MyRating,
    /// Challenger is a computer (B).
    Computer,
    /// Standard game (B).
    Standard,
    /// Challenger's private flag (B).
    Private,
    /// `maxtime(n)` (only as a name in the variable table).
    MaxTime,
    /// Challenger is an abuser (B).
    Abuser,
    /// Challenger's rating in the game's type.
    Rating,
    /// Rated game (B).
    Rated,
    /// Nonstandard game (B).
    Nonstandard,
    /// Lightning game (B).
    Lightning,
    /// Untimed game (B).
    Untimed,
    /// Blitz game (B).
    Blitz,
    /// Wild game (B).
    Wild,
    /// Challenger's initial time in minutes.
    Time,
    /// Challenger's increment in seconds.
    Inc,
}

impl Var {
    /// The variable's name.
    pub fn name(self) -> &'static str {
        parse::VARIABLES
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("?", |(n, _)| n)
    }
}

/// Whose clock `maxtime` counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Players {
    /// `maxtime(n)`: both players.
    Both,
    /// `mymaxtime(n)`: the owner only.
    Me,
}

/// One of the f-variables f1 … f9.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FVar(u8);

impl FVar {
    /// `fN` for N in 1..=9.
    pub fn new(number: u8) -> Option<FVar> {
        (1..=9).contains(&number).then(|| FVar(number - 1))
    }

    fn from_index(index: u8) -> Option<FVar> {
        (index < 9).then_some(FVar(index))
    }

    /// N of `fN`.
    pub fn number(self) -> u8 {
        self.0 + 1
    }

    /// All nine, f1 first.
    pub fn all() -> impl Iterator<Item = FVar> {
        (0..9).map(FVar)
    }
}

impl std::fmt::Display for FVar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "f{}", self.number())
    }
}

/// A leaf of a FICS formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FicsLeaf {
    /// A predefined variable.
    Var(Var),
    /// `maxtime(n)` or `mymaxtime(n)`.
    MaxTime {
        /// Whose clock.
        players: Players,
        /// The number of moves.
        moves: Box<Expr<FicsLeaf>>,
    },
    /// A reference to an f-variable.
    Clause(FVar),
}

impl Leaf for FicsLeaf {
    fn ty(&self) -> Ty {
        match self {
            FicsLeaf::Var(
                Var::Registered
                | Var::Timeseal
                | Var::Computer
                | Var::Standard
                | Var::Private
                | Var::Abuser
                | Var::Rated
                | Var::Nonstandard
                | Var::Lightning
                | Var::Untimed
                | Var::Blitz
                | Var::Wild,
            ) => Ty::Bool,
            _ => Ty::Int,
        }
    }
}

/// One compiled clause: its text as stored and its tree.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Clause {
    text: String,
    expr: Expr<FicsLeaf>,
    warnings: Vec<Diagnostic>,
}

/// The f-variables f1 … f9 of one user. Each is set with [`FVars::set`], which checks it
/// like `set fN …` does: a rejected setting keeps the old value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FVars {
    clauses: [Option<Arc<Clause>>; 9],
}

impl FVars {
    /// All nine unset.
    pub fn new() -> Self {
        Self::default()
    }

    /// `set fN text`: leading whitespace is dropped, an empty text unsets the variable,
    /// anything else is checked (fN may use only f1 … f(N−1)). On error the variable keeps
    /// its previous value and the error is returned. `file` is the id of `text` in the
    /// caller's source map (for spans).
    pub fn set(&mut self, var: FVar, text: &str, file: FileId) -> Result<(), Vec<Diagnostic>> {
        let slot = self
            .clauses
            .get_mut(usize::from(var.0))
            .ok_or_else(Vec::new)?;
        let stored =
            text.trim_start_matches(|c: char| c.is_ascii() && core::cursor::is_c_space(c as u8));
        if stored.is_empty() {
            *slot = None;
            return Ok(());
        }
        // The scanner skips the leading whitespace itself, so spans stay those of `text`.
        match parse::parse(text, file, var.0) {
            Ok(expr) => {
                let warnings = warnings(&expr);
                *slot = Some(Arc::new(Clause {
                    text: stored.to_owned(),
                    expr,
                    warnings,
                }));
                Ok(())
            }
            Err(e) => Err(vec![e.into_diagnostic()]),
        }
    }

    /// Warnings about `var`'s clause (comparisons that are always true or false).
    pub fn warnings(&self, var: FVar) -> &[Diagnostic] {
        self.clauses
            .get(usize::from(var.0))
            .and_then(|c| c.as_ref())
            .map_or(&[], |c| c.warnings.as_slice())
    }

    /// The stored text of `var`, if set.
    pub fn get(&self, var: FVar) -> Option<&str> {
        self.clauses
            .get(usize::from(var.0))
            .and_then(|c| c.as_ref())
            .map(|c| c.text.as_str())
    }
}

/// A compiled FICS formula with the f-variables it was compiled against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchFormula {
    text: String,
    expr: Expr<FicsLeaf>,
    fvars: FVars,
    warnings: Vec<Diagnostic>,
}

/// The shared checker's warnings for a FICS tree.
fn warnings(expr: &Expr<FicsLeaf>) -> Vec<Diagnostic> {
    core::check(expr, &|leaf: &FicsLeaf| match leaf {
        FicsLeaf::Var(v) => v.name().to_owned(),
        FicsLeaf::MaxTime { .. } => "maxtime".to_owned(),
        FicsLeaf::Clause(f) => f.to_string(),
    })
}

impl MatchFormula {
    /// `set formula text`, checked against `fvars` (the formula may use f1 … f9). An empty
    /// or comment-only formula accepts everything.
    pub fn compile(
        text: &str,
        file: FileId,
        fvars: &FVars,
    ) -> Result<MatchFormula, Vec<Diagnostic>> {
        // Leading whitespace is dropped from the stored text as `set` does (the scanner
        // skips it too); the formula may use all nine f-variables.
        let stored =
            text.trim_start_matches(|c: char| c.is_ascii() && core::cursor::is_c_space(c as u8));
        match parse::parse(text, file, 9) {
            Ok(expr) => Ok(MatchFormula {
                text: stored.to_owned(),
                warnings: warnings(&expr),
                expr,
                fvars: fvars.clone(),
            }),
            Err(e) => Err(vec![e.into_diagnostic()]),
        }
    }

    /// The formula's text as stored (leading whitespace removed, comments kept).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Warnings about the formula (comparisons that are always true or false); the
    /// formula is accepted regardless, as FICS accepts it.
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The compiled tree.
    pub fn expr(&self) -> &Expr<FicsLeaf> {
        &self.expr
    }

    /// The f-variables the formula was compiled against.
    pub fn fvars(&self) -> &FVars {
        &self.fvars
    }

    /// Evaluates the formula for one match request. An error (only arithmetic overflow,
    /// which FICS would wrap around silently) means FICS-style decline.
    pub fn evaluate(&self, request: &MatchRequest) -> Result<Evaluation, EvalError> {
        let mut env = FicsEnv::new(request, &self.fvars);
        let value = core::eval(&self.expr, &mut env)?;
        Ok(Evaluation {
            value,
            divisions_by_zero: env.divisions,
        })
    }

    /// Whether the match is accepted: the value is not 0 and evaluation did not fail
    /// (FICS declines on any error).
    pub fn accepts(&self, request: &MatchRequest) -> bool {
        matches!(self.evaluate(request), Ok(e) if e.value != 0)
    }

    /// The f-variables the formula uses, directly or through other f-variables, with their
    /// values for `request` — what FICS lists when it declines a match (`fN=value: text`).
    pub fn explain(&self, request: &MatchRequest) -> Vec<(FVar, Result<i32, EvalError>)> {
        let mut used = [false; 9];
        mark_used(&self.expr, &self.fvars, &mut used);
        let mut env = FicsEnv::new(request, &self.fvars);
        FVar::all()
            .filter(|f| used.get(usize::from(f.0)).copied().unwrap_or(false))
            .map(|f| (f, env.clause(f)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, fvars: &FVars) -> i32 {
        let f = MatchFormula::compile(text, FileId(0), fvars).unwrap();
        let req = MatchRequest {
            time: 5,
            mytime: 5,
            rated: true,
            ..MatchRequest::default()
        };
        f.evaluate(&req).unwrap().value
    }

    #[test]
    fn precedence_of_the_code_not_the_help() {
        let none = FVars::new();
        assert_eq!(eval("1 != 2 = 0", &none), 0);
        assert_eq!(eval("!0+1", &none), 2);
        assert_eq!(eval("-2*3", &none), -6);
        assert_eq!(eval("# only a comment", &none), 1);
        assert_eq!(eval("1 + ()", &none), 2);
        assert_eq!(eval("blitzor lightning", &none), 1);
    }

    #[test]
    fn fvars_evaluate_as_whole_clauses_and_unset_is_one() {
        let mut fv = FVars::new();
        let f1 = FVar::new(1).unwrap();
        fv.set(f1, "2+3", FileId(1)).unwrap();
        assert_eq!(eval("f1*f1", &fv), 25);
        assert_eq!(eval("!f3", &fv), 0);
        // A refused set keeps the old value.
        assert!(fv.set(f1, "f1", FileId(1)).is_err());
        assert_eq!(fv.get(f1), Some("2+3"));
    }

    #[test]
    fn division_by_zero_multiplies_by_1000_and_is_noticed() {
        let f = MatchFormula::compile("1/0/0", FileId(0), &FVars::new()).unwrap();
        let e = f.evaluate(&MatchRequest::default()).unwrap();
        assert_eq!((e.value, e.divisions_by_zero.len()), (1_000_000, 2));
    }
}
