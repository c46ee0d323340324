//! Property: a random tree that respects the grammar, pretty-printed (and printed in
//! canonical form), parses back to the same tree (spans ignored).

use proptest::prelude::*;
use rulebook::formula::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
use rulebook::formula::parse_formula;
use rulebook::formula::print::{canonical, expr_sexpr};
use rulebook::name::Name;
use rulebook::source::{FileId, Span};

fn node(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}

/// Binding level of a node: 1 `|| &&` … 5 `* / %`, 6 unary minus, 7 `!`, 8 `^`, 9 primary.
fn level(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Binary { op, .. } => op_level(*op),
        ExprKind::Unary {
            op: UnaryOp::Neg, ..
        } => 6,
        ExprKind::Unary {
            op: UnaryOp::Not, ..
        } => 7,
        _ => 9,
    }
}

fn op_level(op: BinaryOp) -> u8 {
    match op {
        BinaryOp::Or | BinaryOp::And => 1,
        BinaryOp::Eq | BinaryOp::Ne => 2,
        BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge => 3,
        BinaryOp::Add | BinaryOp::Sub => 4,
        BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => 5,
        BinaryOp::Pow => 8,
    }
}

/// `e` if it binds at least as tightly as `min`, else `(e)`.
fn fit(e: Expr, min: u8) -> Expr {
    if level(&e) >= min {
        e
    } else {
        node(ExprKind::Paren(Box::new(e)))
    }
}

fn binary(op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
    let p = op_level(op);
    let (lhs, rhs) = if op == BinaryOp::Pow {
        (fit(lhs, 8), fit(rhs, 9))
    } else {
        (fit(lhs, p), fit(rhs, p + 1))
    };
    node(ExprKind::Binary {
        op,
        op_span: Span::default(),
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    })
}

fn unary(op: UnaryOp, operand: Expr) -> Expr {
    let min = if op == UnaryOp::Neg { 7 } else { 8 };
    node(ExprKind::Unary {
        op,
        operand: Box::new(fit(operand, min)),
    })
}

fn name() -> impl Strategy<Value = String> {
    (
        "[a-zA-Zé日][a-zA-Z0-9 _.:~]{0,6}[a-zA-Z0-9~]|[a-zA-Z]",
        any::<bool>(),
        any::<prop::sample::Index>(),
        any::<bool>(),
    )
        .prop_map(|(base, with_equals, at, percent)| {
            let mut n = base;
            if with_equals && n.chars().count() > 1 {
                // One `=` anywhere after the first character and before the last.
                let chars: Vec<char> = n.chars().collect();
                let i = 1 + at.index(chars.len() - 1);
                let (a, b) = chars.split_at(i);
                n = format!(
                    "{}={}",
                    a.iter().collect::<String>(),
                    b.iter().collect::<String>()
                );
            }
            if percent { format!("%{n}") } else { n }
        })
}

fn op() -> impl Strategy<Value = BinaryOp> {
    prop::sample::select(vec![
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
    ])
}

fn leaf() -> impl Strategy<Value = Expr> {
    prop_oneof![
        "[0-9]{1,4}(\\.[0-9]{1,3})?|\\.[0-9]{1,3}"
            .prop_map(|t| node(ExprKind::Number(t.as_str().into()))),
        "([a-zA-Z0-9 ,()+=日]|\\\\[ntbrf\\\\'\"]){0,6}"
            .prop_map(|t| node(ExprKind::String(t.as_str().into()))),
        name().prop_map(|n| node(ExprKind::Variable(Name::new(&n)))),
    ]
}

fn expr() -> impl Strategy<Value = Expr> {
    leaf().prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            4 => (op(), inner.clone(), inner.clone()).prop_map(|(o, l, r)| binary(o, l, r)),
            1 => inner.clone().prop_map(|e| unary(UnaryOp::Neg, e)),
            1 => inner.clone().prop_map(|e| unary(UnaryOp::Not, e)),
            1 => (name(), prop::collection::vec(inner.clone(), 0..4)).prop_map(|(n, args)| {
                node(ExprKind::Call { name: Name::new(&n), name_span: Span::default(), args })
            }),
            1 => (name(), inner.clone()).prop_map(|(n, i)| {
                node(ExprKind::Index {
                    name: Name::new(&n),
                    name_span: Span::default(),
                    index: Box::new(fit(i, 4)),
                })
            }),
            1 => inner.prop_map(|e| node(ExprKind::Paren(Box::new(e)))),
        ]
    })
}

/// Parses `text`, failing the property with the diagnostics when it does not parse.
fn reparse(text: &str) -> Result<String, TestCaseError> {
    let out = parse_formula(text, FileId(0), 0);
    match out.formula.and_then(|f| f.root) {
        Some(e) => Ok(expr_sexpr(&e)),
        None => Err(TestCaseError::fail(format!(
            "{text:?} did not parse: {:?}",
            out.diagnostics
        ))),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn printed_tree_parses_back_to_itself(e in expr()) {
        let want = expr_sexpr(&e);
        let pretty = e.to_string();
        prop_assert_eq!(reparse(&pretty)?, want.clone(), "pretty text {:?}", pretty);
        let f = rulebook::formula::ast::Formula { root: Some(e), span: Span::default() };
        let canon = canonical(&f);
        prop_assert_eq!(reparse(&canon)?, want, "canonical text {:?}", canon);
    }
}
