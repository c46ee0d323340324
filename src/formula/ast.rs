//! The formula syntax tree.
//!
//! A [`Formula`] is flat: its nodes sit in one vector (children before their parent), call
//! arguments in a second, and every name and literal is a range of one string (the formula's
//! text, copied once). Parsing a formula therefore costs a handful of allocations, whatever
//! its size, and dropping it is not a walk. It is read through [`Expr`], a copyable view of
//! one node whose [`Expr::kind`] gives the children as views too. Every node keeps the span
//! of the text it came from. Parentheses are kept as nodes (the reference keeps them, and
//! the canonical text reproduces them).
//!
//! [`Tree`] is the owned, boxed form of the same tree, for building a formula by hand (tests,
//! generators) and for the error-recovering grammar; [`Formula::from_tree`] flattens it.

use crate::source::Span;
use std::fmt;

/// A parsed formula: its nodes and the text of its names and literals.
#[derive(Clone)]
pub struct Formula {
    nodes: Vec<Node>,
    /// Call argument lists: a call's arguments are a run of node indexes here.
    lists: Vec<u32>,
    /// Names and literals are ranges of this text.
    text: String,
    root: Option<u32>,
    /// The span of the whole formula text.
    pub span: Span,
}

/// A range of [`Formula::text`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Str {
    start: u32,
    end: u32,
}

#[derive(Clone, Debug)]
struct Node {
    kind: NodeKind,
    span: Span,
}

#[derive(Clone, Debug)]
enum NodeKind {
    Number(Str),
    String(Str),
    Variable(Str),
    Call {
        name: Str,
        name_span: Span,
        first: u32,
        len: u32,
    },
    Index {
        name: Str,
        name_span: Span,
        index: u32,
    },
    Unary {
        op: UnaryOp,
        operand: u32,
    },
    Binary {
        op: BinaryOp,
        op_span: Span,
        lhs: u32,
        rhs: u32,
    },
    Paren(u32),
}

/// One node of a [`Formula`]: a copyable view.
#[derive(Clone, Copy)]
pub struct Expr<'a> {
    formula: &'a Formula,
    id: u32,
}

/// What a node is, with its children as views.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ExprKind<'a> {
    /// A number literal, kept as written (`007`, `.5`, `1.50`).
    Number(&'a str),
    /// A string literal: the raw characters between the quotes (escapes are not decoded).
    String(&'a str),
    /// A variable reference (compared without regard to ASCII case).
    Variable(&'a str),
    /// A function call `name(args)`.
    Call {
        /// The function name.
        name: &'a str,
        /// Span of the name alone.
        name_span: Span,
        /// Arguments in order.
        args: Args<'a>,
    },
    /// An array element `name[index]`.
    Index {
        /// The array variable.
        name: &'a str,
        /// Span of the name alone.
        name_span: Span,
        /// The index expression.
        index: Expr<'a>,
    },
    /// A prefix operator.
    Unary {
        /// Which.
        op: UnaryOp,
        /// Its operand.
        operand: Expr<'a>,
    },
    /// A binary operator.
    Binary {
        /// Which.
        op: BinaryOp,
        /// Span of the operator token.
        op_span: Span,
        /// Left operand.
        lhs: Expr<'a>,
        /// Right operand.
        rhs: Expr<'a>,
    },
    /// `( expr )`.
    Paren(Expr<'a>),
}

/// The arguments of a call (or the arguments given to [`crate::formula::check_with_args`]).
#[derive(Clone, Copy)]
pub struct Args<'a>(ArgsOf<'a>);

#[derive(Clone, Copy)]
enum ArgsOf<'a> {
    /// A run of a formula's argument lists.
    Nodes(&'a Formula, &'a [u32]),
    /// Nodes of any formulas.
    Views(&'a [Expr<'a>]),
}

impl<'a> Args<'a> {
    /// Arguments that are nodes of any formulas.
    pub fn of(views: &'a [Expr<'a>]) -> Self {
        Args(ArgsOf::Views(views))
    }

    /// How many.
    pub fn len(&self) -> usize {
        match self.0 {
            ArgsOf::Nodes(_, ids) => ids.len(),
            ArgsOf::Views(v) => v.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Argument `i`.
    pub fn get(&self, i: usize) -> Option<Expr<'a>> {
        match self.0 {
            ArgsOf::Nodes(formula, ids) => ids.get(i).map(|&id| Expr { formula, id }),
            ArgsOf::Views(v) => v.get(i).copied(),
        }
    }

    /// The first argument.
    pub fn first(&self) -> Option<Expr<'a>> {
        self.get(0)
    }

    /// The first argument and the others.
    pub fn split_first(&self) -> Option<(Expr<'a>, Args<'a>)> {
        match self.0 {
            ArgsOf::Nodes(formula, ids) => {
                let (&id, rest) = ids.split_first()?;
                Some((Expr { formula, id }, Args(ArgsOf::Nodes(formula, rest))))
            }
            ArgsOf::Views(v) => {
                let (first, rest) = v.split_first()?;
                Some((*first, Args(ArgsOf::Views(rest))))
            }
        }
    }

    /// The arguments in order.
    pub fn iter(&self) -> ArgsIter<'a> {
        ArgsIter {
            args: *self,
            next: 0,
        }
    }
}

/// The arguments of a call in order (see [`Args::iter`]).
#[derive(Clone)]
pub struct ArgsIter<'a> {
    args: Args<'a>,
    next: usize,
}

impl<'a> Iterator for ArgsIter<'a> {
    type Item = Expr<'a>;

    fn next(&mut self) -> Option<Expr<'a>> {
        let e = self.args.get(self.next)?;
        self.next += 1;
        Some(e)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.args.len().saturating_sub(self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for ArgsIter<'_> {}

impl<'a> Expr<'a> {
    fn node(self) -> &'a Node {
        // Ids are only made by `Formula` from its own nodes; the fallback is never taken.
        static PLACEHOLDER: Node = Node {
            kind: NodeKind::Variable(Str { start: 0, end: 0 }),
            span: Span {
                file: crate::source::FileId(0),
                start: 0,
                end: 0,
            },
        };
        self.formula
            .nodes
            .get(self.id as usize)
            .unwrap_or(&PLACEHOLDER)
    }

    /// This node's index in its formula (for scratch stacks that outlive one formula and
    /// so cannot hold views); [`Expr::sibling`] turns it back into a view.
    pub(crate) fn index(self) -> u32 {
        self.id
    }

    /// The node of the same formula at `index` (from [`Expr::index`]).
    pub(crate) fn sibling(self, index: u32) -> Expr<'a> {
        self.at(index)
    }

    fn at(self, id: u32) -> Expr<'a> {
        Expr {
            formula: self.formula,
            id,
        }
    }

    /// The text the node was parsed from.
    #[inline]
    pub fn span(self) -> Span {
        self.node().span
    }

    /// What the node is.
    pub fn kind(self) -> ExprKind<'a> {
        let f = self.formula;
        match self.node().kind {
            NodeKind::Number(s) => ExprKind::Number(f.str(s)),
            NodeKind::String(s) => ExprKind::String(f.str(s)),
            NodeKind::Variable(s) => ExprKind::Variable(f.str(s)),
            NodeKind::Call {
                name,
                name_span,
                first,
                len,
            } => ExprKind::Call {
                name: f.str(name),
                name_span,
                args: Args(ArgsOf::Nodes(
                    f,
                    f.lists
                        .get(first as usize..first as usize + len as usize)
                        .unwrap_or(&[]),
                )),
            },
            NodeKind::Index {
                name,
                name_span,
                index,
            } => ExprKind::Index {
                name: f.str(name),
                name_span,
                index: self.at(index),
            },
            NodeKind::Unary { op, operand } => ExprKind::Unary {
                op,
                operand: self.at(operand),
            },
            NodeKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => ExprKind::Binary {
                op,
                op_span,
                lhs: self.at(lhs),
                rhs: self.at(rhs),
            },
            NodeKind::Paren(x) => ExprKind::Paren(self.at(x)),
        }
    }

    /// The owned, boxed form of this node and its children.
    pub fn to_tree(self) -> Tree {
        let kind = match self.kind() {
            ExprKind::Number(t) => TreeKind::Number(t.into()),
            ExprKind::String(t) => TreeKind::String(t.into()),
            ExprKind::Variable(n) => TreeKind::Variable(n.into()),
            ExprKind::Call {
                name,
                name_span,
                args,
            } => TreeKind::Call {
                name: name.into(),
                name_span,
                args: args.iter().map(Expr::to_tree).collect(),
            },
            ExprKind::Index {
                name,
                name_span,
                index,
            } => TreeKind::Index {
                name: name.into(),
                name_span,
                index: Box::new(index.to_tree()),
            },
            ExprKind::Unary { op, operand } => TreeKind::Unary {
                op,
                operand: Box::new(operand.to_tree()),
            },
            ExprKind::Binary {
                op,
                op_span,
                lhs,
                rhs,
            } => TreeKind::Binary {
                op,
                op_span,
                lhs: Box::new(lhs.to_tree()),
                rhs: Box::new(rhs.to_tree()),
            },
            ExprKind::Paren(x) => TreeKind::Paren(Box::new(x.to_tree())),
        };
        Tree {
            kind,
            span: self.span(),
        }
    }
}

/// Two views are equal when their trees are: the same kinds, text and spans.
impl PartialEq for Expr<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.span() == other.span() && self.kind() == other.kind()
    }
}

impl PartialEq for Args<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl fmt::Debug for Expr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Expr")
            .field("kind", &self.kind())
            .field("span", &self.span())
            .finish()
    }
}

impl fmt::Debug for Args<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Formula {
    /// The empty formula (no expression) spanning `span`.
    pub fn empty(span: Span) -> Self {
        Formula {
            nodes: Vec::new(),
            lists: Vec::new(),
            text: String::new(),
            root: None,
            span,
        }
    }

    /// The expression, or `None` when the text was empty.
    pub fn root(&self) -> Option<Expr<'_>> {
        self.root.map(|id| Expr { formula: self, id })
    }

    /// How many nodes the formula has.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True for the empty formula.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The formula with the tree `root` (flattened), spanning `span`.
    pub fn from_tree(root: Option<&Tree>, span: Span) -> Self {
        let mut b = Builder::new(String::new(), 0);
        let root = root.map(|t| b.tree(t));
        b.finish(root, span)
    }

    fn str(&self, s: Str) -> &str {
        self.text
            .get(s.start as usize..s.end as usize)
            .unwrap_or("")
    }
}

impl PartialEq for Formula {
    fn eq(&self, other: &Self) -> bool {
        self.span == other.span && self.root() == other.root()
    }
}

impl fmt::Debug for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Formula")
            .field("root", &self.root())
            .field("span", &self.span)
            .finish()
    }
}

/// A node id while building (an index into the nodes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NodeId(u32);

thread_local! {
    /// The pending-arguments stack of the last formula built on this thread, reused (its
    /// allocation would otherwise be made and freed for every formula with a call).
    static PENDING: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Builds a [`Formula`] bottom-up: children first, then their parent.
pub(crate) struct Builder {
    nodes: Vec<Node>,
    lists: Vec<u32>,
    text: String,
    /// Call arguments not yet attached to their call.
    pending: Vec<u32>,
}

impl Builder {
    /// A builder whose names and literals are ranges of `text` (more may be appended), with
    /// room for about `nodes` nodes.
    pub(crate) fn new(text: String, nodes: usize) -> Self {
        Builder {
            nodes: Vec::with_capacity(nodes),
            lists: Vec::new(),
            text,
            // Taken from `PENDING` at the first call (most formulas have none).
            pending: Vec::new(),
        }
    }

    fn push(&mut self, kind: NodeKind, span: Span) -> NodeId {
        let id = u32::try_from(self.nodes.len()).unwrap_or(u32::MAX);
        self.nodes.push(Node { kind, span });
        NodeId(id)
    }

    /// `s` appended to the text.
    fn append(&mut self, s: &str) -> Str {
        let start = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.text.push_str(s);
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        Str { start, end }
    }

    /// The range `start..end` of the text.
    pub(crate) fn range(start: usize, end: usize) -> TextRef {
        TextRef(Str {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        })
    }

    /// `%` followed by the text at `word`, appended.
    pub(crate) fn percent_name(&mut self, word: TextRef) -> TextRef {
        let start = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        self.text.push('%');
        let w = self
            .text
            .get(word.0.start as usize..word.0.end as usize)
            .map(str::to_owned)
            .unwrap_or_default();
        self.text.push_str(&w);
        let end = u32::try_from(self.text.len()).unwrap_or(u32::MAX);
        TextRef(Str { start, end })
    }

    pub(crate) fn number(&mut self, text: TextRef, span: Span) -> NodeId {
        self.push(NodeKind::Number(text.0), span)
    }

    pub(crate) fn string(&mut self, text: TextRef, span: Span) -> NodeId {
        self.push(NodeKind::String(text.0), span)
    }

    pub(crate) fn variable(&mut self, name: TextRef, span: Span) -> NodeId {
        self.push(NodeKind::Variable(name.0), span)
    }

    /// Marks where the arguments of a call start (see [`Builder::arg`], [`Builder::call`]).
    pub(crate) fn args_start(&mut self) -> usize {
        if self.pending.capacity() == 0 {
            self.pending = PENDING.take();
        }
        self.pending.len()
    }

    /// An argument of the call being built.
    pub(crate) fn arg(&mut self, a: NodeId) {
        self.pending.push(a.0);
    }

    /// The call whose arguments were given since `mark` (from [`Builder::args_start`]).
    pub(crate) fn call(
        &mut self,
        name: TextRef,
        name_span: Span,
        mark: usize,
        span: Span,
    ) -> NodeId {
        let first = u32::try_from(self.lists.len()).unwrap_or(u32::MAX);
        let args = self.pending.get(mark..).unwrap_or(&[]);
        let len = u32::try_from(args.len()).unwrap_or(0);
        self.lists.extend_from_slice(args);
        self.pending.truncate(mark);
        self.push(
            NodeKind::Call {
                name: name.0,
                name_span,
                first,
                len,
            },
            span,
        )
    }

    pub(crate) fn index(
        &mut self,
        name: TextRef,
        name_span: Span,
        index: NodeId,
        span: Span,
    ) -> NodeId {
        self.push(
            NodeKind::Index {
                name: name.0,
                name_span,
                index: index.0,
            },
            span,
        )
    }

    pub(crate) fn unary(&mut self, op: UnaryOp, operand: NodeId, span: Span) -> NodeId {
        self.push(
            NodeKind::Unary {
                op,
                operand: operand.0,
            },
            span,
        )
    }

    pub(crate) fn binary(
        &mut self,
        op: BinaryOp,
        op_span: Span,
        lhs: NodeId,
        rhs: NodeId,
        span: Span,
    ) -> NodeId {
        self.push(
            NodeKind::Binary {
                op,
                op_span,
                lhs: lhs.0,
                rhs: rhs.0,
            },
            span,
        )
    }

    pub(crate) fn paren(&mut self, inner: NodeId, span: Span) -> NodeId {
        self.push(NodeKind::Paren(inner.0), span)
    }

    /// The span of node `id`.
    pub(crate) fn span(&self, id: NodeId) -> Span {
        self.nodes
            .get(id.0 as usize)
            .map_or(Span::default(), |n| n.span)
    }

    /// Adds `t` and its children (names and literals appended to the text, in the order a
    /// parser meets them). Iterative: a tree nested as deep as the grammar allows cannot
    /// overflow the stack here.
    pub(crate) fn tree(&mut self, t: &Tree) -> NodeId {
        enum Step<'t> {
            Enter(&'t Tree),
            Exit(&'t Tree, TextRef, usize),
        }
        let none = TextRef(Str { start: 0, end: 0 });
        let mut work = vec![Step::Enter(t)];
        let mut done: Vec<NodeId> = Vec::new();
        while let Some(step) = work.pop() {
            match step {
                Step::Enter(t) => match &t.kind {
                    TreeKind::Number(s) => {
                        let s = self.append(s);
                        done.push(self.push(NodeKind::Number(s), t.span));
                    }
                    TreeKind::String(s) => {
                        let s = self.append(s);
                        done.push(self.push(NodeKind::String(s), t.span));
                    }
                    TreeKind::Variable(s) => {
                        let s = self.append(s);
                        done.push(self.push(NodeKind::Variable(s), t.span));
                    }
                    TreeKind::Call { name, args, .. } => {
                        let name = TextRef(self.append(name));
                        work.push(Step::Exit(t, name, done.len()));
                        work.extend(args.iter().rev().map(Step::Enter));
                    }
                    TreeKind::Index { name, index, .. } => {
                        let name = TextRef(self.append(name));
                        work.push(Step::Exit(t, name, 0));
                        work.push(Step::Enter(index));
                    }
                    TreeKind::Unary { operand: x, .. } | TreeKind::Paren(x) => {
                        work.push(Step::Exit(t, none, 0));
                        work.push(Step::Enter(x));
                    }
                    TreeKind::Binary { lhs, rhs, .. } => {
                        work.push(Step::Exit(t, none, 0));
                        work.push(Step::Enter(rhs));
                        work.push(Step::Enter(lhs));
                    }
                },
                Step::Exit(t, name, mark) => {
                    let id = match &t.kind {
                        TreeKind::Call { name_span, .. } => {
                            let pending = self.args_start();
                            self.pending
                                .extend(done.drain(mark.min(done.len())..).map(|a| a.0));
                            self.call(name, *name_span, pending, t.span)
                        }
                        TreeKind::Index { name_span, .. } => {
                            let index = done.pop().unwrap_or(NodeId(0));
                            self.index(name, *name_span, index, t.span)
                        }
                        TreeKind::Unary { op, .. } => {
                            let operand = done.pop().unwrap_or(NodeId(0));
                            self.unary(*op, operand, t.span)
                        }
                        TreeKind::Paren(_) => {
                            let inner = done.pop().unwrap_or(NodeId(0));
                            self.paren(inner, t.span)
                        }
                        TreeKind::Binary { op, op_span, .. } => {
                            let rhs = done.pop().unwrap_or(NodeId(0));
                            let lhs = done.pop().unwrap_or(NodeId(0));
                            self.binary(*op, *op_span, lhs, rhs, t.span)
                        }
                        // Leaves are finished on entry.
                        TreeKind::Number(_) | TreeKind::String(_) | TreeKind::Variable(_) => {
                            continue;
                        }
                    };
                    done.push(id);
                }
            }
        }
        done.pop().unwrap_or(NodeId(0))
    }

    /// The formula whose root is `root`.
    pub(crate) fn finish(mut self, root: Option<NodeId>, span: Span) -> Formula {
        if self.pending.capacity() > 0 {
            self.pending.clear();
            PENDING.set(self.pending);
        }
        Formula {
            nodes: self.nodes,
            lists: self.lists,
            text: self.text,
            root: root.map(|r| r.0),
            span,
        }
    }
}

/// A range of a [`Builder`]'s text.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextRef(Str);

/// The owned, boxed form of a formula node (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct Tree {
    /// What the node is.
    pub kind: TreeKind,
    /// The text it was parsed from.
    pub span: Span,
}

/// The kinds of [`Tree`] node (as [`ExprKind`], owned).
#[derive(Clone, Debug, PartialEq)]
pub enum TreeKind {
    /// A number literal, kept as written.
    Number(Box<str>),
    /// A string literal: the raw characters between the quotes.
    String(Box<str>),
    /// A variable reference.
    Variable(Box<str>),
    /// A function call `name(args)`.
    Call {
        /// The function name.
        name: Box<str>,
        /// Span of the name alone.
        name_span: Span,
        /// Arguments in order.
        args: Vec<Tree>,
    },
    /// An array element `name[index]`.
    Index {
        /// The array variable.
        name: Box<str>,
        /// Span of the name alone.
        name_span: Span,
        /// The index expression.
        index: Box<Tree>,
    },
    /// A prefix operator.
    Unary {
        /// Which.
        op: UnaryOp,
        /// Its operand.
        operand: Box<Tree>,
    },
    /// A binary operator.
    Binary {
        /// Which.
        op: BinaryOp,
        /// Span of the operator token.
        op_span: Span,
        /// Left operand.
        lhs: Box<Tree>,
        /// Right operand.
        rhs: Box<Tree>,
    },
    /// `( expr )`.
    Paren(Box<Tree>),
}

/// Prefix operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
}

/// Binary operators.
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
    /// `%`
    Rem,
    /// `^`
    Pow,
}

impl BinaryOp {
    /// How tightly the operator binds, loosest first: `|| &&` 1, `== !=` 2, `< > <= >=` 3,
    /// `+ -` 4, `* / %` 5, `^` 6 (semantics doc §2). Every level is left-associative; `^`
    /// stands apart, binding only primaries (no unary operator after it). The one table of
    /// the grammar's precedence: both parsers read it.
    pub const fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or | BinaryOp::And => 1,
            BinaryOp::Eq | BinaryOp::Ne => 2,
            BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 3,
            BinaryOp::Add | BinaryOp::Sub => 4,
            BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 5,
            BinaryOp::Pow => 6,
        }
    }

    /// True for the operators allowed directly inside an index `name[…]` (arithmetic
    /// only): those binding at least as tightly as `+`.
    pub const fn is_arithmetic(self) -> bool {
        self.precedence() >= BinaryOp::Add.precedence()
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
}

impl UnaryOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Not => "!",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::FileId;

    fn sp(a: usize, b: usize) -> Span {
        Span::new(FileId(0), a..b)
    }

    #[test]
    fn a_tree_flattens_and_reads_back_the_same() {
        let t = Tree {
            kind: TreeKind::Call {
                name: "max".into(),
                name_span: sp(0, 3),
                args: vec![
                    Tree {
                        kind: TreeKind::Variable("a".into()),
                        span: sp(4, 5),
                    },
                    Tree {
                        kind: TreeKind::Binary {
                            op: BinaryOp::Add,
                            op_span: sp(7, 8),
                            lhs: Box::new(Tree {
                                kind: TreeKind::Number("1".into()),
                                span: sp(6, 7),
                            }),
                            rhs: Box::new(Tree {
                                kind: TreeKind::String("s".into()),
                                span: sp(8, 11),
                            }),
                        },
                        span: sp(6, 11),
                    },
                ],
            },
            span: sp(0, 12),
        };
        let f = Formula::from_tree(Some(&t), sp(0, 12));
        assert_eq!(f.len(), 5);
        let root = f.root().expect("a root");
        assert_eq!(root.to_tree(), t);
        let ExprKind::Call { name, args, .. } = root.kind() else {
            panic!("not a call: {root:?}");
        };
        assert_eq!(name, "max");
        assert_eq!(args.len(), 2);
        assert_eq!(args.get(0).map(Expr::kind), Some(ExprKind::Variable("a")));
        assert_eq!(args.get(1).map(Expr::span), Some(sp(6, 11)));
        assert!(args.get(2).is_none());
    }

    #[test]
    fn formulas_compare_by_their_trees_not_their_storage() {
        let a = Formula::from_tree(
            Some(&Tree {
                kind: TreeKind::Variable("x".into()),
                span: sp(0, 1),
            }),
            sp(0, 1),
        );
        let mut b = Builder::new("x".to_owned(), 1);
        let root = b.variable(Builder::range(0, 1), sp(0, 1));
        let b = b.finish(Some(root), sp(0, 1));
        assert_eq!(a, b);
        assert_ne!(a, Formula::empty(sp(0, 1)));
    }
}
