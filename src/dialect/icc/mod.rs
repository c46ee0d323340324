//! ICC `formula`: the match filter of the Internet Chess Club, from its help text.
//!
//! No ICC code is public, so this follows the help text and the assumptions of
//! `shared/reference/dialects-semantics.md` §2 (documented in `docs/dialects.md`): the
//! documented operators only (`= < > <= >= != + - * & | !`, parentheses), FICS's
//! precedence (`*`, then `+ -`, then `< <= > >=`, then `= !=`, then `&`, then `|`), unary
//! `-` and `!`, C integers, `etime = time + 2·inc/3` (integer division), and the categories
//! bullet (etime < 3), blitz (3 ≤ etime < 15) and standard (etime ≥ 15) computed exactly.
//!
//! ```
//! use rulebook::dialect::icc::{Challenge, IccFormula};
//! use rulebook::source::FileId;
//! let f = IccFormula::compile("blitz & rating > myrating - 200", FileId(0)).unwrap();
//! let c = Challenge { time: 5, rating: 1500, myrating: 1600, ..Default::default() };
//! assert!(f.accepts(&c));
//! ```

mod parse;

use crate::diagnostic::{Code, Diagnostic};
use crate::dialect::core::{self, Env, EvalError, Expr, Leaf, Ty};
use crate::source::{FileId, Span};
use serde::Deserialize;
use std::fmt;

/// A syntax error: a missing operand, an unexpected token, an unclosed parenthesis.
pub const SYNTAX: Code = Code {
    id: "D0120",
    name: "icc-syntax",
};
/// A word that is not an ICC term.
pub const UNKNOWN_TERM: Code = Code {
    id: "D0121",
    name: "icc-unknown-term",
};
/// An operator or feature of FICS formulas that ICC does not document (`/`, `==`, `<>`,
/// `&&`, `||`, `and`, `or`, `#`, `minutes`).
pub const NOT_ICC: Code = Code {
    id: "D0122",
    name: "icc-not-an-icc-operator",
};
/// A number literal beyond 32 bits.
pub const NUMBER_TOO_LARGE: Code = Code {
    id: "D0123",
    name: "icc-number-too-large",
};

/// An ICC term.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// etime < 3 (B).
    Bullet,
    /// 3 ≤ etime < 15 (B).
    Blitz,
    /// etime ≥ 15 (B).
    Standard,
    /// The wild type number (0 = normal chess).
    Wild,
    /// Match time (minutes).
    Time,
    /// Match increment (seconds).
    Inc,
    /// `time + 2*inc/3`, integer division.
    Etime,
    /// Rated challenge (B).
    Rated,
    /// Challenger's rating in the challenge's type.
    Rating,
    /// Challenger is provisional (B).
    Provisional,
    /// Challenger is established (B).
    Established,
    /// Time-odds game (B).
    Timeodds,
    /// Challenger's ropen flag (B).
    Ropen,
    /// Challenger's wopen flag (B).
    Wopen,
    /// Your wild variable.
    Mywild,
    /// Your rated variable (B).
    Myrated,
    /// Your inc variable.
    Myinc,
    /// Your time variable.
    Mytime,
    /// Your mood variable.
    Mood,
    /// Your rating in the challenge's type.
    Myrating,
    /// Challenger has noescape on (B).
    Noescape,
    /// Challenger is registered (B).
    Registered,
    /// 0 if the challenger demands black, 1 if white.
    Color,
    /// 1 if the challenger did not demand a colour (B).
    Autocolor,
    /// Challenger is a computer (B).
    Computer,
    /// Challenger is in the free trial week (B).
    Freeweek,
    /// Challenger's average lag in milliseconds.
    Lag,
    /// 0 if the challenger surely has no premove (B).
    Premove,
}

/// Every term with its name.
pub const TERMS: [(&str, Term); 28] = [
    ("bullet", Term::Bullet),
    ("blitz", Term::Blitz),
    ("standard", Term::Standard),
    ("wild", Term::Wild),
    ("time", Term::Time),
    ("inc", Term::Inc),
    ("etime", Term::Etime),
    ("rated", Term::Rated),
    ("rating", Term::Rating),
    ("provisional", Term::Provisional),
    ("established", Term::Established),
    ("timeodds", Term::Timeodds),
    ("ropen", Term::Ropen),
    ("wopen", Term::Wopen),
    ("mywild", Term::Mywild),
    ("myrated", Term::Myrated),
    ("myinc", Term::Myinc),
    ("mytime", Term::Mytime),
    ("mood", Term::Mood),
    ("myrating", Term::Myrating),
    ("noescape", Term::Noescape),
    ("registered", Term::Registered),
    ("color", Term::Color),
    ("autocolor", Term::Autocolor),
    ("computer", Term::Computer),
    ("freeweek", Term::Freeweek),
    ("lag", Term::Lag),
    ("premove", Term::Premove),
];

impl Term {
    /// The term's name.
    pub fn name(self) -> &'static str {
        TERMS
            .iter()
            .find(|(_, t)| *t == self)
            .map_or("?", |(n, _)| n)
    }
}

impl Leaf for Term {
    fn ty(&self) -> Ty {
        match self {
            Term::Wild
            | Term::Time
            | Term::Inc
            | Term::Etime
            | Term::Rating
            | Term::Mywild
            | Term::Myinc
            | Term::Mytime
            | Term::Mood
            | Term::Myrating
            | Term::Color
            | Term::Lag => Ty::Int,
            _ => Ty::Bool,
        }
    }
}

/// A challenge as the formula's owner sees it: the term values (flags as 0/1). Deserializes
/// from the vectors' `context`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Challenge {
    /// Match time in minutes.
    pub time: i32,
    /// Match increment in seconds.
    pub inc: i32,
    /// 1 if the challenge is rated.
    pub rated: i32,
    /// The wild type number (0 for normal chess).
    pub wild: i32,
    /// The challenger's rating in the challenge's type.
    pub rating: i32,
    /// 1 if the challenger is provisional.
    pub provisional: i32,
    /// 1 if the challenger is established.
    pub established: i32,
    /// 1 for a time-odds game.
    pub timeodds: i32,
    /// The challenger's ropen flag.
    pub ropen: i32,
    /// The challenger's wopen flag.
    pub wopen: i32,
    /// Your wild variable.
    pub mywild: i32,
    /// Your rated variable.
    pub myrated: i32,
    /// Your time variable.
    pub mytime: i32,
    /// Your inc variable.
    pub myinc: i32,
    /// Your mood variable (0 at login).
    pub mood: i32,
    /// Your rating in the challenge's type.
    pub myrating: i32,
    /// 1 if the challenger has noescape on.
    pub noescape: i32,
    /// 1 if the challenger is registered.
    pub registered: i32,
    /// 0 if the challenger demands black, 1 if white.
    pub color: i32,
    /// 1 if the challenger did not demand a colour.
    pub autocolor: i32,
    /// 1 if the challenger is a computer.
    pub computer: i32,
    /// 1 if the challenger is in the 7-day free trial.
    pub freeweek: i32,
    /// The challenger's average lag in milliseconds.
    pub lag: i32,
    /// 0 if the challenger surely has no premove feature, else 1.
    pub premove: i32,
}

/// ICC's speed categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// etime < 3.
    Bullet,
    /// 3 ≤ etime < 15.
    Blitz,
    /// etime ≥ 15.
    Standard,
}

impl Challenge {
    /// The category from the exact etime (`3·etime = 3·time + 2·inc`).
    pub fn category(&self) -> Category {
        let thirds = 3 * i64::from(self.time) + 2 * i64::from(self.inc);
        if thirds < 9 {
            Category::Bullet
        } else if thirds < 45 {
            Category::Blitz
        } else {
            Category::Standard
        }
    }

    /// `time + 2*inc/3` with integer division (`None` on overflow).
    pub fn etime(&self) -> Option<i32> {
        i32::try_from(i64::from(self.time) + 2 * i64::from(self.inc) / 3).ok()
    }

    fn term(&self, term: Term, span: Span) -> Result<i32, EvalError> {
        let cat = self.category();
        Ok(match term {
            Term::Bullet => i32::from(cat == Category::Bullet),
            Term::Blitz => i32::from(cat == Category::Blitz),
            Term::Standard => i32::from(cat == Category::Standard),
            Term::Wild => self.wild,
            Term::Time => self.time,
            Term::Inc => self.inc,
            Term::Etime => self
                .etime()
                .ok_or_else(|| core::eval::overflow(span, "etime"))?,
            Term::Rated => self.rated,
            Term::Rating => self.rating,
            Term::Provisional => self.provisional,
            Term::Established => self.established,
            Term::Timeodds => self.timeodds,
            Term::Ropen => self.ropen,
            Term::Wopen => self.wopen,
            Term::Mywild => self.mywild,
            Term::Myrated => self.myrated,
            Term::Myinc => self.myinc,
            Term::Mytime => self.mytime,
            Term::Mood => self.mood,
            Term::Myrating => self.myrating,
            Term::Noescape => self.noescape,
            Term::Registered => self.registered,
            Term::Color => self.color,
            Term::Autocolor => self.autocolor,
            Term::Computer => self.computer,
            Term::Freeweek => self.freeweek,
            Term::Lag => self.lag,
            Term::Premove => self.premove,
        })
    }
}

/// A compiled ICC formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IccFormula {
    expr: Expr<Term>,
    warnings: Vec<Diagnostic>,
}

/// A formula's value with its static type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IccValue {
    /// The integer value (truth values are 0 or 1).
    pub value: i32,
    /// Whether the formula is a truth value or a number.
    pub ty: Ty,
}

impl fmt::Display for IccValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ty {
            Ty::Bool => write!(f, "{}", self.value != 0),
            Ty::Int => write!(f, "{}", self.value),
        }
    }
}

impl IccFormula {
    /// Parses and checks `set formula text`; every problem found is returned.
    pub fn compile(text: &str, file: FileId) -> Result<IccFormula, Vec<Diagnostic>> {
        parse::parse(text, file).map(|expr| IccFormula {
            warnings: core::check(&expr, &|t: &Term| t.name().to_owned()),
            expr,
        })
    }

    /// Warnings about the formula (comparisons that are always true or false).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// The compiled tree.
    pub fn expr(&self) -> &Expr<Term> {
        &self.expr
    }

    /// The static type of the formula's result.
    pub fn ty(&self) -> Ty {
        self.expr.ty()
    }

    /// Evaluates the formula for one challenge.
    pub fn evaluate(&self, challenge: &Challenge) -> Result<IccValue, EvalError> {
        let value = core::eval(&self.expr, &mut IccEnv(challenge))?;
        Ok(IccValue {
            value,
            ty: self.ty(),
        })
    }

    /// Whether the challenge gets through: the value is not 0 (0 is false, 1 true).
    pub fn accepts(&self, challenge: &Challenge) -> bool {
        matches!(self.evaluate(challenge), Ok(v) if v.value != 0)
    }
}

struct IccEnv<'a>(&'a Challenge);

impl Env<Term> for IccEnv<'_> {
    fn leaf(&mut self, leaf: &Term, span: Span) -> Result<i32, EvalError> {
        self.0.term(*leaf, span)
    }

    fn divide_by_zero(&mut self, _left: i32, op_span: Span) -> Result<i32, EvalError> {
        // Unreachable: ICC has no `/` (the parser rejects it).
        Err(core::eval::overflow(op_span, "the division"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_use_exact_etime() {
        let c = |time, inc| Challenge {
            time,
            inc,
            ..Challenge::default()
        };
        assert_eq!(c(2, 1).category(), Category::Bullet);
        assert_eq!(c(0, 5).category(), Category::Blitz);
        assert_eq!(c(0, 22).category(), Category::Blitz);
        assert_eq!(c(0, 23).category(), Category::Standard);
        assert_eq!(c(14, 2).category(), Category::Standard);
    }

    #[test]
    fn result_type_decides_printing() {
        let f = IccFormula::compile("rating - myrating", FileId(0)).unwrap();
        let c = Challenge {
            rating: 1600,
            myrating: 1550,
            ..Challenge::default()
        };
        assert_eq!(f.evaluate(&c).unwrap().to_string(), "50");
        let f = IccFormula::compile("!rated", FileId(0)).unwrap();
        assert_eq!(f.evaluate(&c).unwrap().to_string(), "true");
    }
}
