//! Helpers for tests: build syntax trees without the parser (as [`Tree`]s), and a simple environment.

#![cfg(test)]

use super::ast::{BinaryOp, Formula, Tree, TreeKind, UnaryOp};
use super::check::{CheckEnv, FunctionRef, VarRef};
use super::eval::{EvalError, ValueEnv};
use super::format::Format;
use super::function::FunctionRegistry;
use super::value::Value;
use crate::name::Name;
use crate::source::{FileId, Span};

pub fn sp() -> Span {
    Span::new(FileId(0), 0..1)
}
pub fn e(kind: TreeKind) -> Tree {
    Tree { kind, span: sp() }
}
pub fn num(t: &str) -> Tree {
    e(TreeKind::Number(t.into()))
}
pub fn string(t: &str) -> Tree {
    e(TreeKind::String(t.into()))
}
pub fn var(n: &str) -> Tree {
    e(TreeKind::Variable(n.into()))
}
pub fn bin(op: BinaryOp, l: Tree, r: Tree) -> Tree {
    e(TreeKind::Binary {
        op,
        op_span: sp(),
        lhs: Box::new(l),
        rhs: Box::new(r),
    })
}
pub fn neg(x: Tree) -> Tree {
    e(TreeKind::Unary {
        op: UnaryOp::Neg,
        operand: Box::new(x),
    })
}
pub fn not(x: Tree) -> Tree {
    e(TreeKind::Unary {
        op: UnaryOp::Not,
        operand: Box::new(x),
    })
}
pub fn call(name: &str, args: Vec<Tree>) -> Tree {
    e(TreeKind::Call {
        name: name.into(),
        name_span: sp(),
        args,
    })
}
pub fn index(name: &str, i: Tree) -> Tree {
    e(TreeKind::Index {
        name: name.into(),
        name_span: sp(),
        index: Box::new(i),
    })
}
pub fn formula(root: Tree) -> Formula {
    Formula::from_tree(Some(&root), sp())
}

/// Variables with values, plus user functions.
#[derive(Default)]
pub struct Env {
    pub vars: Vec<(Name, Format, Value)>,
    pub functions: FunctionRegistry,
}

impl Env {
    pub fn with(mut self, name: &str, format: &str, value: &str) -> Self {
        let f = Format::from_name(format).unwrap();
        let v = f.parse_value(value).unwrap();
        self.vars.push((Name::new(name), f, v));
        self
    }
}

impl CheckEnv for Env {
    fn variable(&self, name: &str) -> Option<(VarRef, Format)> {
        self.vars
            .iter()
            .position(|(n, _, _)| n.is(name))
            .map(|i| (VarRef(i as u32), self.vars[i].1.clone()))
    }
    fn function(&self, name: &str) -> Option<FunctionRef<'_>> {
        self.functions.get(name).map(FunctionRef::User)
    }
    fn variable_names(&self) -> Vec<Name> {
        self.vars.iter().map(|v| v.0.clone()).collect()
    }
}

impl ValueEnv for Env {
    fn value(&self, var: VarRef) -> Result<Value, EvalError> {
        Ok(self.vars[var.0 as usize].2.clone())
    }
}

/// `text` parsed and checked as a NUMBER (or BOOLEAN) formula with a NUMBER `value()`.
pub fn compile_text(
    text: &str,
    boolean: bool,
    env: &super::MapEnv,
) -> super::compile::CompiledFormula {
    let f = super::parse_formula(text, FileId(0), 0).formula.unwrap();
    let format = if boolean {
        Format::Boolean
    } else {
        Format::Number
    };
    super::check(&f, env, &format, Some(&Format::Number)).unwrap()
}

/// An evaluation result as text: the value, or the error's code and span.
pub fn show(r: &Result<Value, EvalError>) -> String {
    match r {
        Ok(v) => format!("ok {v}"),
        Err(e) => format!("err {} {:?}", e.code.id, e.span),
    }
}
