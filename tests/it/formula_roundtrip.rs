//! Property: a random tree that respects the grammar, pretty-printed (and printed in
//! canonical form), parses back to the same tree (spans ignored).

use proptest::prelude::*;
use rulebook::formula::ast::{BinaryOp, Tree, TreeKind, UnaryOp};
use rulebook::formula::parse_formula;
use rulebook::formula::print::{canonical, expr_sexpr, to_sexpr};
use rulebook::source::{FileId, Span};

fn node(kind: TreeKind) -> Tree {
    Tree {
        kind,
        span: Span::default(),
    }
}

/// Binding level of a node: 1 `|| &&` … 5 `* / %`, 6 unary minus, 7 `!`, 8 `^`, 9 primary.
fn level(e: &Tree) -> u8 {
    match &e.kind {
        TreeKind::Binary { op, .. } => op_level(*op),
        TreeKind::Unary {
            op: UnaryOp::Neg, ..
        } => 6,
        TreeKind::Unary {
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
fn fit(e: Tree, min: u8) -> Tree {
    if level(&e) >= min {
        e
    } else {
        node(TreeKind::Paren(Box::new(e)))
    }
}

fn binary(op: BinaryOp, lhs: Tree, rhs: Tree) -> Tree {
    let p = op_level(op);
    let (lhs, rhs) = if op == BinaryOp::Pow {
        (fit(lhs, 8), fit(rhs, 9))
    } else {
        (fit(lhs, p), fit(rhs, p + 1))
    };
    node(TreeKind::Binary {
        op,
        op_span: Span::default(),
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    })
}

fn unary(op: UnaryOp, operand: Tree) -> Tree {
    let min = if op == UnaryOp::Neg { 7 } else { 8 };
    node(TreeKind::Unary {
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

fn leaf() -> impl Strategy<Value = Tree> {
    prop_oneof![
        "[0-9]{1,4}(\\.[0-9]{1,3})?|\\.[0-9]{1,3}"
            .prop_map(|t| node(TreeKind::Number(t.as_str().into()))),
        "([a-zA-Z0-9 ,()+=日]|\\\\[ntbrf\\\\'\"]){0,6}"
            .prop_map(|t| node(TreeKind::String(t.as_str().into()))),
        name().prop_map(|n| node(TreeKind::Variable(n.as_str().into()))),
    ]
}

fn expr() -> impl Strategy<Value = Tree> {
    leaf().prop_recursive(6, 64, 4, |inner| {
        prop_oneof![
            4 => (op(), inner.clone(), inner.clone()).prop_map(|(o, l, r)| binary(o, l, r)),
            1 => inner.clone().prop_map(|e| unary(UnaryOp::Neg, e)),
            1 => inner.clone().prop_map(|e| unary(UnaryOp::Not, e)),
            1 => (name(), prop::collection::vec(inner.clone(), 0..4)).prop_map(|(n, args)| {
                node(TreeKind::Call { name: n.as_str().into(), name_span: Span::default(), args })
            }),
            1 => (name(), inner.clone()).prop_map(|(n, i)| {
                node(TreeKind::Index {
                    name: n.as_str().into(),
                    name_span: Span::default(),
                    index: Box::new(fit(i, 4)),
                })
            }),
            1 => inner.prop_map(|e| node(TreeKind::Paren(Box::new(e)))),
        ]
    })
}

/// Parses `text`, failing the property with the diagnostics when it does not parse.
fn reparse(text: &str) -> Result<String, TestCaseError> {
    let out = parse_formula(text, FileId(0), 0);
    match out.formula.as_ref().and_then(|f| f.root()) {
        Some(e) => Ok(expr_sexpr(e)),
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
        let f = rulebook::formula::ast::Formula::from_tree(Some(&e), Span::default());
        let want = to_sexpr(&f);
        let pretty = f.to_string();
        prop_assert_eq!(reparse(&pretty)?, want.clone(), "pretty text {:?}", pretty);
        let canon = canonical(&f);
        prop_assert_eq!(reparse(&canon)?, want, "canonical text {:?}", canon);
    }
}
