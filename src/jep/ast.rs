//! The tree of an old formula: flat (every node in one `Vec`, children by [`NodeId`]), each
//! node with its span in the file, and the list of every name the formula reads.
//!
//! Flat because later passes (name resolution, evaluation) walk it often and a `Vec` of
//! small nodes is cheap to build, to walk without recursion and to drop.

use super::commands::Command;
use super::terms::{self, StatForm, TermPattern};
use crate::source::Span;

/// The index of a node in [`JepFormula::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// A binary operator of PCGen's JEP setup (JEP 2.4.1's grammar).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `||`
    Or,
    /// `&&`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%` (remainder)
    Rem,
    /// `^` (power; right-associative, binds tighter than a prefix `-`)
    Pow,
}

impl BinaryOp {
    /// Every binary operator, loosest first.
    pub const ALL: [BinaryOp; 14] = [
        BinaryOp::Or,
        BinaryOp::And,
        BinaryOp::Eq,
        BinaryOp::Ne,
        BinaryOp::Lt,
        BinaryOp::Gt,
        BinaryOp::Le,
        BinaryOp::Ge,
        BinaryOp::Add,
        BinaryOp::Sub,
        BinaryOp::Mul,
        BinaryOp::Div,
        BinaryOp::Rem,
        BinaryOp::Pow,
    ];

    /// The binding power of prefix `-`, `+` and `!`: tighter than `* / %`, looser than `^`
    /// (JEP reads `-2^2` as `-(2^2)` and `2^-1` as `2^(-1)`).
    pub const PREFIX: u16 = 7;

    /// How tightly the operator binds (higher binds tighter), as JEP 2.4.1's grammar nests
    /// its levels: `||` < `&&` < `== !=` < `< > <= >=` < `+ -` < `* / %` < prefix < `^`.
    /// The one place precedence is defined: the grammar and the printer read it here.
    pub fn precedence(self) -> u16 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq | BinaryOp::Ne => 3,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 4,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 6,
            BinaryOp::Pow => 8,
        }
    }

    /// True for `^`, the one right-associative operator (`2^3^2` is `2^(3^2)`); the others
    /// are left-associative, comparisons included (`a==b==c` is `(a==b)==c`).
    pub fn right_associative(self) -> bool {
        match self {
            BinaryOp::Pow => true,
            BinaryOp::Or
            | BinaryOp::And
            | BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Gt
            | BinaryOp::Le
            | BinaryOp::Ge
            | BinaryOp::Add
            | BinaryOp::Sub
            | BinaryOp::Mul
            | BinaryOp::Div
            | BinaryOp::Rem => false,
        }
    }

    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Gt => ">",
            BinaryOp::Le => "<=",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::Pow => "^",
        }
    }

    /// True for the four operators PCGen's fallback parser knows (`+ - * /`).
    pub fn in_fallback(self) -> bool {
        matches!(
            self,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        )
    }
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-`
    Neg,
    /// `+` (JEP drops it)
    Plus,
    /// `!`
    Not,
}

impl UnaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Plus => "+",
            UnaryOp::Not => "!",
        }
    }
}

/// What a name in a formula is, as far as the text alone tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// One of PCGen's built-in terms (`TL`, `CL=Fighter`, `COUNT[FEATS]`, `SKILLRANK=Spot`):
    /// the row of [`super::terms::TERMS`] PCGen's term factory would pick. PCGen looks
    /// variables up first, so a `DEFINE` of the same name would win.
    Term(&'static TermPattern),
    /// A stat of the game mode (`STR`, `STR.BASE`, `STRSCORE`): set by
    /// [`JepFormula::classify_stats`], which is given the game mode's stat abbreviations
    /// (PCGen's last term builder is made from them at run time).
    Stat(StatForm),
    /// Anything else: a `DEFINE`d variable, a stat abbreviation (until
    /// [`JepFormula::classify_stats`]), an output-sheet token, or a mistake. Which one is for
    /// name resolution to decide (it needs the load set).
    Variable,
    /// `%`, `%CHOICE` or `%LIST`: replaced by PCGen with the chosen value before it
    /// evaluates the formula.
    Placeholder,
}

/// Which of PCGen's two readers evaluates a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluator {
    /// JEP reads the whole formula (`VariableProcessor.processJepFormula`).
    Jep,
    /// JEP rejects the text (a term such as `CL=Fighter`, a name with a space, a
    /// `COUNT[…]` term JEP reads as an unknown list index), so PCGen uses its old "broken
    /// parser" (`processBrokenParser`): the text upper-cased, each innermost `( … )` group
    /// evaluated on its own, then `+ - * /` from left to right.
    Fallback,
}

/// One node of the tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// Where it is written (the whole construct, e.g. a call with its arguments).
    pub span: Span,
}

/// The kinds of node; leaves hold no text (their span locates it: [`JepFormula::text_of`]).
#[derive(Clone, Debug, PartialEq)]
pub enum NodeKind {
    /// A number as written (`2`, `1.5`, `.5`, `1e3`).
    Number,
    /// A string literal; the span includes the quotes.
    String,
    /// A name: a variable or a term.
    Name(NameKind),
    /// `%`, `%CHOICE`, `%LIST`.
    Placeholder,
    /// `-x`, `+x`, `!x`.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// Its operand.
        operand: NodeId,
    },
    /// `lhs op rhs`.
    Binary {
        /// The operator.
        op: BinaryOp,
        /// Where the operator is written.
        op_span: Span,
        /// Left operand.
        lhs: NodeId,
        /// Right operand.
        rhs: NodeId,
    },
    /// `name(args…)`.
    Call {
        /// Where the function's name is written.
        name_span: Span,
        /// The row of [`super::commands::COMMANDS`] the name selects in PCGen's JEP
        /// (exact case), if any.
        command: Option<&'static Command>,
        /// The arguments.
        args: Vec<NodeId>,
    },
    /// `( inner )`.
    Paren(NodeId),
    /// A part that could not be parsed (already reported).
    Error,
}

/// Where a name was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameOrigin {
    /// In the formula itself.
    Formula,
    /// Inside the string argument of `var("…")` (or `mastervar`), which PCGen evaluates
    /// as a formula of its own.
    VarString,
}

/// A name the formula reads, for name resolution.
#[derive(Clone, Debug, PartialEq)]
pub struct NameUse {
    /// The name as written (for a term, including its argument: `CL=Fighter`).
    pub text: Box<str>,
    /// Where.
    pub span: Span,
    /// Term, variable or placeholder.
    pub kind: NameKind,
    /// In the formula or in a `var("…")` string.
    pub origin: NameOrigin,
    /// The reader that evaluates the (sub-)formula holding the name: PCGen's fallback
    /// parser upper-cases names before it looks them up.
    pub evaluator: Evaluator,
}

/// A parsed old formula.
#[derive(Clone, Debug, PartialEq)]
pub struct JepFormula {
    /// The formula's text, as given to the parser.
    pub text: Box<str>,
    /// The span of the whole text in its file.
    pub span: Span,
    /// Every node; children come before their parent.
    pub nodes: Vec<Node>,
    /// The top node; `None` for an empty formula.
    pub root: Option<NodeId>,
    /// Which of PCGen's readers evaluates the formula.
    pub evaluator: Evaluator,
    /// Every name read, in text order (those inside `var("…")` strings included).
    pub names: Vec<NameUse>,
}

impl JepFormula {
    /// The node `id` (`None` only for an id from another formula).
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id.0 as usize)
    }

    /// The text a span of this formula covers.
    pub fn text_of(&self, span: Span) -> &str {
        let start = span.start.saturating_sub(self.span.start) as usize;
        let end = span.end.saturating_sub(self.span.start) as usize;
        self.text.get(start..end).unwrap_or("")
    }

    /// The names that are terms, with their spans.
    pub fn terms(&self) -> impl Iterator<Item = &NameUse> {
        self.names
            .iter()
            .filter(|n| matches!(n.kind, NameKind::Term(_)))
    }

    /// Marks as [`NameKind::Stat`] the variables that read one of the game mode's stats,
    /// given by abbreviation (`STR`, `DEX`, …), as PCGen's stat term builder reads them
    /// (`STR`, `STR.BASE`, `STRSCORE`, `STRSCORE.BASE`; upper-cased first in a formula the
    /// fallback parser evaluates). The tree's name nodes follow their name uses.
    pub fn classify_stats(&mut self, abbreviations: &[&str]) {
        let stat_of = |text: &str, evaluator: Evaluator| {
            let seen = match evaluator {
                Evaluator::Jep => text.to_owned(),
                Evaluator::Fallback => text.to_uppercase(),
            };
            abbreviations
                .iter()
                .find_map(|a| terms::stat_form(&seen, a))
        };
        let mut stats = Vec::new();
        for name in &mut self.names {
            if name.kind == NameKind::Variable {
                if let Some(form) = stat_of(&name.text, name.evaluator) {
                    name.kind = NameKind::Stat(form);
                    stats.push((name.span, form));
                }
            }
        }
        for node in &mut self.nodes {
            if node.kind == NodeKind::Name(NameKind::Variable) {
                if let Some((_, form)) = stats.iter().find(|(s, _)| *s == node.span) {
                    node.kind = NodeKind::Name(NameKind::Stat(*form));
                }
            }
        }
    }

    /// The names that are neither terms nor placeholders: what name resolution must find
    /// among `DEFINE`s, stats and the other sources of old-system variables.
    pub fn variables(&self) -> impl Iterator<Item = &NameUse> {
        self.names.iter().filter(|n| n.kind == NameKind::Variable)
    }
}
