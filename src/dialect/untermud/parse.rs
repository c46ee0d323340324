//! UnterMUD lock grammar (`!` and `with` bind tightest, then `&`, then `|`), the syntax tree
//! that keeps the parentheses as written, name resolution against the world, the rewritten
//! text and the lowering to the shared core tree.

use super::lex::{Tok, Token};
use super::{
    AMBIGUOUS_NAME, MISSING_OPERAND, MISSING_OPERATOR, ObjectTest, REMOTE_OBJECT,
    UNBALANCED_PARENTHESIS, UNKNOWN_OBJECT, World,
};
use crate::diagnostic::Diagnostic;
use crate::dialect::core::{BinaryOp, Expr, ExprKind, MAX_DEPTH, UnaryOp, too_deep};
use crate::source::Span;

/// A node of the lock as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    Const(bool),
    /// A name or OID as written, then the OID once resolved.
    Object(String),
    Not(Box<Syntax>),
    With(Box<Syntax>),
    And(Box<Syntax>, Span, Box<Syntax>),
    Or(Box<Syntax>, Span, Box<Syntax>),
    Paren(Box<Syntax>),
}

/// A node with its span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Syntax {
    pub node: Node,
    pub span: Span,
    /// Height of the tree below and including this node (a leaf is 1).
    depth: u32,
}

impl Syntax {
    fn new(node: Node, span: Span) -> Self {
        let below = match &node {
            Node::Const(_) | Node::Object(_) => 0,
            Node::Not(x) | Node::With(x) | Node::Paren(x) => x.depth,
            Node::And(a, _, b) | Node::Or(a, _, b) => a.depth.max(b.depth),
        };
        Syntax {
            node,
            span,
            depth: below.saturating_add(1),
        }
    }

    /// `self` unless its tree is deeper than [`MAX_DEPTH`] (then the error is at `at`). The
    /// tree is walked recursively (resolution, printing, lowering), so its height is bounded.
    fn bounded(self, at: Span) -> Result<Syntax, Box<Diagnostic>> {
        if self.depth > MAX_DEPTH {
            Err(Box::new(too_deep(at)))
        } else {
            Ok(self)
        }
    }
}

pub(super) struct Parser<'a> {
    pub tokens: &'a [Token],
    pub pos: usize,
    pub end: Span,
    /// How deep `unary` currently recurses (parentheses, `!` and `with`).
    pub nesting: u32,
}

impl Parser<'_> {
    pub fn lock(&mut self) -> Result<Syntax, Box<Diagnostic>> {
        let e = self.or()?;
        match self.tokens.get(self.pos) {
            None => Ok(e),
            Some(t) if t.tok == Tok::Close => Err(Box::new(
                Diagnostic::error(UNBALANCED_PARENTHESIS, t.span, "`)` without a matching `(`")
                    .with_label("nothing to close here")
                    .with_help("remove the `)` or add the `(` it closes"),
            )),
            Some(t) => Err(Box::new(self.missing_operator(&e, t))),
        }
    }

    fn or(&mut self) -> Result<Syntax, Box<Diagnostic>> {
        let mut lhs = self.and()?;
        while let Some(t) = self.tokens.get(self.pos).filter(|t| t.tok == Tok::Or) {
            self.pos += 1;
            let rhs = self.and_after(t)?;
            let span = lhs.span.join(rhs.span);
            lhs = Syntax::new(Node::Or(Box::new(lhs), t.span, Box::new(rhs)), span)
                .bounded(t.span)?;
        }
        Ok(lhs)
    }

    fn and_after(&mut self, op: &Token) -> Result<Syntax, Box<Diagnostic>> {
        self.require_operand(op)?;
        self.and()
    }

    fn and(&mut self) -> Result<Syntax, Box<Diagnostic>> {
        let mut lhs = self.unary()?;
        while let Some(t) = self.tokens.get(self.pos).filter(|t| t.tok == Tok::And) {
            self.pos += 1;
            self.require_operand(t)?;
            let rhs = self.unary()?;
            let span = lhs.span.join(rhs.span);
            lhs = Syntax::new(Node::And(Box::new(lhs), t.span, Box::new(rhs)), span)
                .bounded(t.span)?;
        }
        Ok(lhs)
    }

    /// After a binary or unary operator: an operand must follow.
    fn require_operand(&self, op: &Token) -> Result<(), Box<Diagnostic>> {
        match self.tokens.get(self.pos).map(|t| &t.tok) {
            None | Some(Tok::Close | Tok::And | Tok::Or) => {
                Err(Box::new(self.operand_missing_after(op)))
            }
            _ => Ok(()),
        }
    }

    fn operand_missing_after(&self, op: &Token) -> Diagnostic {
        let name = match op.tok {
            Tok::And => "`&` needs a value on both sides",
            Tok::Or => "`|` needs a value on both sides",
            Tok::Not => "`!` needs a value after it",
            Tok::With => "`with` needs a value after it",
            _ => "an operand is missing",
        };
        let mut d = Diagnostic::error(MISSING_OPERAND, op.span, name)
            .with_label("operand missing")
            .with_help("add an object name, an OID, T or F, or remove the operator");
        if let Some(next) = self.tokens.get(self.pos) {
            d = d.with_secondary(next.span, "this cannot be an operand");
        }
        d
    }

    /// A unary expression; parentheses, `!` and `with` recurse through here, so the nesting
    /// is counted and bounded by [`MAX_DEPTH`].
    fn unary(&mut self) -> Result<Syntax, Box<Diagnostic>> {
        if self.nesting >= MAX_DEPTH {
            let span = self.tokens.get(self.pos).map_or(self.end, |t| t.span);
            return Err(Box::new(too_deep(span)));
        }
        self.nesting = self.nesting.saturating_add(1);
        let out = self.unary_inner();
        self.nesting = self.nesting.saturating_sub(1);
        out
    }

    fn unary_inner(&mut self) -> Result<Syntax, Box<Diagnostic>> {
        let Some(t) = self.tokens.get(self.pos) else {
            return Err(Box::new(self.missing_at_end()));
        };
        match t.tok {
            Tok::Not | Tok::With => {
                self.pos += 1;
                self.require_operand(t)?;
                let operand = self.unary()?;
                let span = t.span.join(operand.span);
                let node = if t.tok == Tok::Not {
                    Node::Not(Box::new(operand))
                } else {
                    Node::With(Box::new(operand))
                };
                Syntax::new(node, span).bounded(t.span)
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Syntax, Box<Diagnostic>> {
        let Some(t) = self.tokens.get(self.pos) else {
            return Err(Box::new(self.missing_at_end()));
        };
        self.pos += 1;
        match &t.tok {
            Tok::Const(b) => Ok(Syntax::new(Node::Const(*b), t.span)),
            Tok::Value(v) => Ok(Syntax::new(Node::Object(v.clone()), t.span)),
            Tok::Open => {
                if let Some(close) = self.tokens.get(self.pos).filter(|c| c.tok == Tok::Close) {
                    return Err(Box::new(
                        Diagnostic::error(
                            MISSING_OPERAND,
                            t.span.join(close.span),
                            "empty parentheses",
                        )
                        .with_label("nothing inside")
                        .with_help("put a value inside, or remove the parentheses"),
                    ));
                }
                let inner = self.or()?;
                match self.tokens.get(self.pos) {
                    Some(c) if c.tok == Tok::Close => {
                        self.pos += 1;
                        Syntax::new(Node::Paren(Box::new(inner)), t.span.join(c.span))
                            .bounded(t.span)
                    }
                    Some(other) => Err(Box::new(self.missing_operator(&inner, other))),
                    None => Err(Box::new(
                        Diagnostic::error(
                            UNBALANCED_PARENTHESIS,
                            t.span,
                            "this `(` is never closed",
                        )
                        .with_label("unclosed parenthesis")
                        .with_help("add the missing `)`"),
                    )),
                }
            }
            Tok::Close => Err(Box::new(
                Diagnostic::error(MISSING_OPERAND, t.span, "a value is missing before `)`")
                    .with_label("expected a value here")
                    .with_help("add an object name, an OID, T or F"),
            )),
            Tok::And | Tok::Or => Err(Box::new(
                Diagnostic::error(
                    MISSING_OPERAND,
                    t.span,
                    "a binary operator needs a value on its left",
                )
                .with_label("nothing before this")
                .with_help("add a value before the operator, or remove it"),
            )),
            Tok::Not | Tok::With => Err(Box::new(self.operand_missing_after(t))),
        }
    }

    fn missing_at_end(&self) -> Diagnostic {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(prev) => self.operand_missing_after(prev),
            None => Diagnostic::error(MISSING_OPERAND, self.end, "empty lock")
                .with_label("nothing here")
                .with_help("write a lock such as `T`, a name, or an OID"),
        }
    }

    fn missing_operator(&self, before: &Syntax, t: &Token) -> Diagnostic {
        Diagnostic::error(
            MISSING_OPERATOR,
            t.span,
            "two values without an operator between them",
        )
        .with_label("expected `&`, `|` or `)` before this")
        .with_secondary(before.span, "this value ends here")
        .with_help("join them with `&` or `|`, or quote a name with spaces: \"gold key\"")
    }
}

/// Resolves every object of the tree to its OID, collecting all problems.
pub(super) fn resolve(tree: &mut Syntax, world: &World, diags: &mut Vec<Diagnostic>) {
    match &mut tree.node {
        Node::Const(_) => {}
        Node::Object(text) => match resolve_one(text, tree.span, world) {
            Ok(oid) => *text = oid,
            Err(d) => diags.push(*d),
        },
        Node::Not(x) | Node::With(x) | Node::Paren(x) => resolve(x, world, diags),
        Node::And(a, _, b) | Node::Or(a, _, b) => {
            resolve(a, world, diags);
            resolve(b, world, diags);
        }
    }
}

fn resolve_one(text: &str, span: Span, world: &World) -> Result<String, Box<Diagnostic>> {
    if world.objects.contains_key(text) {
        return Ok(text.to_owned());
    }
    let matches: Vec<&String> = world
        .objects
        .iter()
        .filter(|(_, o)| o.name.eq_ignore_ascii_case(text))
        .map(|(oid, _)| oid)
        .collect();
    match matches.as_slice() {
        [one] => Ok((*one).clone()),
        [] => {
            if let Some((_, mud)) = text.rsplit_once('@') {
                if mud != world.mud {
                    return Err(Box::new(
                        Diagnostic::error(
                            REMOTE_OBJECT,
                            span,
                            format!("`{text}` belongs to another MUD"),
                        )
                        .with_label(format!("not in the local database of {}", world.mud))
                        .with_help("locks may name only objects that exist in the local database")
                        .with_note(format!("OIDs of this MUD end in @{}", world.mud)),
                    ));
                }
            }
            let d = Diagnostic::error(UNKNOWN_OBJECT, span, format!("no object `{text}`"))
                .with_label("no object has this name or OID");
            let advice = "name an existing object or player, or use its OID";
            Err(Box::new(
                match crate::name::closest(text, world.objects.values().map(|o| o.name.as_str())) {
                    Some(best) => d.with_did_you_mean(span, best).with_note(advice),
                    None => d.with_help(advice),
                },
            ))
        }
        many => {
            let list = many
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join(", ");
            Err(Box::new(
                Diagnostic::error(
                    AMBIGUOUS_NAME,
                    span,
                    format!("`{text}` names several objects"),
                )
                .with_label("ambiguous name")
                .with_help(format!("use one of their OIDs instead: {list}")),
            ))
        }
    }
}

/// The stored form: OIDs, no whitespace, parentheses as written, `with ` before its operand.
pub(super) fn print(tree: &Syntax, out: &mut String) {
    match &tree.node {
        Node::Const(true) => out.push('T'),
        Node::Const(false) => out.push('F'),
        Node::Object(oid) => out.push_str(oid),
        Node::Not(x) => {
            out.push('!');
            print(x, out);
        }
        Node::With(x) => {
            out.push_str("with ");
            print(x, out);
        }
        Node::And(a, _, b) => {
            print(a, out);
            out.push('&');
            print(b, out);
        }
        Node::Or(a, _, b) => {
            print(a, out);
            out.push('|');
            print(b, out);
        }
        Node::Paren(x) => {
            out.push('(');
            print(x, out);
            out.push(')');
        }
    }
}

/// Lowers the resolved tree to the core tree; inside `with`, object tests become
/// "in the same location" tests.
pub(super) fn lower(tree: &Syntax, here: bool) -> Expr<ObjectTest> {
    match &tree.node {
        Node::Const(b) => Expr::new(ExprKind::Bool(*b), tree.span),
        Node::Object(oid) => Expr::new(
            ExprKind::Leaf(ObjectTest {
                oid: oid.clone(),
                same_location_only: here,
            }),
            tree.span,
        ),
        Node::Not(x) => Expr::unary(UnaryOp::Not, tree.span, lower(x, here)),
        Node::With(x) => {
            let mut e = lower(x, true);
            e.span = tree.span;
            e
        }
        Node::And(a, op, b) => Expr::binary(BinaryOp::And, *op, lower(a, here), lower(b, here)),
        Node::Or(a, op, b) => Expr::binary(BinaryOp::Or, *op, lower(a, here), lower(b, here)),
        Node::Paren(x) => lower(x, here),
    }
}
