//! Property: for random integer-only arithmetic trees, rulebook's exact result equals i128
//! arithmetic (or is the overflow / division-by-zero error i128 arithmetic predicts), and
//! evaluation never panics.

use proptest::prelude::*;
use rulebook::formula::ast::{BinaryOp, Formula, Tree, TreeKind, UnaryOp};
use rulebook::formula::{EmptyEnv, Format, NoValues, check};
use rulebook::source::{FileId, Span};

/// What i128 arithmetic says about a tree.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    Int(i128),
    /// A non-integer quotient happened somewhere: the exact result is not an integer tree
    /// result any more; only "no panic" is checked.
    Unknown,
    DivZero,
    Overflow,
}

/// Largest integer rulebook can represent (rust_decimal's 96-bit mantissa).
const LIMIT: i128 = 79_228_162_514_264_337_593_543_950_335;

fn sp() -> Span {
    Span::new(FileId(0), 0..0)
}

fn leaf(v: i64) -> (Tree, Expect) {
    let lit = Tree {
        kind: TreeKind::Number(v.unsigned_abs().to_string().into()),
        span: sp(),
    };
    let e = if v < 0 {
        Tree {
            kind: TreeKind::Unary {
                op: UnaryOp::Neg,
                operand: Box::new(lit),
            },
            span: sp(),
        }
    } else {
        lit
    };
    (e, Expect::Int(i128::from(v)))
}

fn combine(op: BinaryOp, (l, a): (Tree, Expect), (r, b): (Tree, Expect)) -> (Tree, Expect) {
    use Expect::*;
    let expect = match (a, b) {
        (DivZero, _) => DivZero,
        (Overflow, _) => Overflow,
        (Unknown, _) | (_, Unknown) => Unknown,
        (_, DivZero) => DivZero,
        (_, Overflow) => Overflow,
        (Int(x), Int(y)) => {
            let r = match op {
                BinaryOp::Add => x.checked_add(y),
                BinaryOp::Sub => x.checked_sub(y),
                BinaryOp::Mul => x.checked_mul(y),
                BinaryOp::Div if y == 0 => return (bin(op, l, r), DivZero),
                BinaryOp::Div if x % y != 0 => return (bin(op, l, r), Unknown),
                BinaryOp::Div => x.checked_div(y),
                BinaryOp::Rem if y == 0 => return (bin(op, l, r), DivZero),
                BinaryOp::Rem => x.checked_rem(y),
                _ => None,
            };
            match r {
                Some(v) if v.abs() <= LIMIT => Int(v),
                _ => Overflow,
            }
        }
    };
    (bin(op, l, r), expect)
}

fn bin(op: BinaryOp, l: Tree, r: Tree) -> Tree {
    Tree {
        kind: TreeKind::Binary {
            op,
            op_span: sp(),
            lhs: Box::new(l),
            rhs: Box::new(r),
        },
        span: sp(),
    }
}

fn tree() -> impl Strategy<Value = (Tree, Expect)> {
    let leaf = prop_oneof![
        (-20i64..20).prop_map(leaf),
        any::<i64>().prop_map(|v| leaf(v.max(-i64::MAX))),
    ];
    leaf.prop_recursive(6, 40, 2, |inner| {
        (
            prop_oneof![
                Just(BinaryOp::Add),
                Just(BinaryOp::Sub),
                Just(BinaryOp::Mul),
                Just(BinaryOp::Div),
                Just(BinaryOp::Rem),
            ],
            inner.clone(),
            inner,
        )
            .prop_map(|(op, l, r)| combine(op, l, r))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]
    #[test]
    fn integer_trees_match_i128((expr, expect) in tree()) {
        let f = Formula::from_tree(Some(&expr), sp());
        let compiled = check(&f, &EmptyEnv, &Format::Number, None).expect("checks");
        let got = compiled.eval_number(&NoValues, None);
        // The closure compilation and the tree interpreter agree.
        let tree = compiled.eval_tree(&NoValues, None);
        match (&got, &tree) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (Err(a), Err(b)) => prop_assert_eq!(a.code, b.code),
            _ => prop_assert!(false, "closure {:?} vs tree {:?}", got, tree),
        }
        match expect {
            Expect::Int(v) => {
                let n = got.expect("exact integer result");
                prop_assert_eq!(n.to_string(), v.to_string());
            }
            Expect::DivZero => {
                // Division by zero is reported unless an overflow happened first in
                // evaluation order; either way it is an error.
                prop_assert!(got.is_err());
            }
            Expect::Overflow => {
                prop_assert!(got.is_err(), "expected an overflow, got {:?}", got);
            }
            Expect::Unknown => {}
        }
    }
}

fn dec_number(m: i64, scale: u32) -> rulebook::formula::Number {
    rulebook::formula::Number::from_decimal(rust_decimal::Decimal::new(m, scale))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    /// The fixed-point fast paths agree with plain decimal arithmetic.
    #[test]
    fn decimal_fast_paths_match_rust_decimal(
        a in prop_oneof![any::<i32>(), -2000i32..2000], sa in 0u32..8,
        b in prop_oneof![any::<i32>(), -2000i32..2000], sb in 0u32..8,
    ) {
        use rust_decimal::Decimal;
        let (x, y) = (dec_number(i64::from(a), sa), dec_number(i64::from(b), sb));
        let (dx, dy) = (Decimal::new(i64::from(a), sa), Decimal::new(i64::from(b), sb));
        let num = |d: Decimal| rulebook::formula::Number::from_decimal(d);
        prop_assert_eq!(x.checked_add(y).unwrap(), num(dx + dy));
        prop_assert_eq!(x.checked_sub(y).unwrap(), num(dx - dy));
        prop_assert_eq!(x.checked_mul(y).unwrap(), num(dx * dy));
        if b != 0 {
            prop_assert_eq!(x.checked_div(y).unwrap(), num(dx / dy));
        }
        prop_assert_eq!(x.floor(), num(dx.floor()));
        prop_assert_eq!(x.ceil(), num(dx.ceil()));
        prop_assert_eq!(x.round().unwrap(), num((dx + Decimal::new(5, 1)).floor()));
        prop_assert_eq!(x.cmp(&y), dx.cmp(&dy));
        let printed = if dx.is_zero() { "0".to_owned() } else { dx.normalize().to_string() };
        prop_assert_eq!(x.to_string(), printed);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    /// floor/ceil of a quotient in one step equal the two-step result (divisors up to 1e5,
    /// where the rounded decimal quotient keeps enough fraction digits to floor exactly).
    #[test]
    fn div_floor_and_ceil_match_two_steps(a in any::<i64>(), b in prop_oneof![-100_000i64..100_000, -20i64..20]) {
        use rulebook::formula::Number;
        let (x, y) = (Number::Int(a), Number::Int(b));
        let two_floor = x.checked_div(y).map(Number::floor);
        let two_ceil = x.checked_div(y).map(Number::ceil);
        prop_assert_eq!(x.div_floor(y), two_floor);
        prop_assert_eq!(x.div_ceil(y), two_ceil);
    }
}
