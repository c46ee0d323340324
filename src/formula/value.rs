//! Runtime values of every format.

use super::dice::Dice;
use super::number::Number;
use crate::name::Name;
use std::fmt;
use std::sync::Arc;

/// A value of some [`Format`](super::Format).
#[derive(Clone, Debug)]
pub enum Value {
    /// NUMBER.
    Number(Number),
    /// BOOLEAN.
    Boolean(bool),
    /// STRING.
    String(Arc<str>),
    /// ORDEREDPAIR `x,y`.
    OrderedPair(Number, Number),
    /// DICE.
    Dice(Dice),
    /// `ARRAY[X]`.
    Array(Arc<[Value]>),
    /// `OPTIONAL[X]`: `None` is the empty optional.
    Optional(Option<Arc<Value>>),
    /// A value of an object format: the key of the object (e.g. `LG` of `ALIGNMENT`).
    Object(Name),
}

impl Value {
    /// A STRING value.
    pub fn string(s: &str) -> Value {
        Value::String(Arc::from(s))
    }

    /// The number, if this is a NUMBER.
    pub fn as_number(&self) -> Option<Number> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// The boolean, if this is a BOOLEAN.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Boolean(b) => Some(*b),
            _ => None,
        }
    }

    /// A short word for the kind of value, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Number(_) => "NUMBER",
            Value::Boolean(_) => "BOOLEAN",
            Value::String(_) => "STRING",
            Value::OrderedPair(..) => "ORDEREDPAIR",
            Value::Dice(_) => "DICE",
            Value::Array(_) => "ARRAY",
            Value::Optional(_) => "OPTIONAL",
            Value::Object(_) => "object",
        }
    }
}

impl PartialEq for Value {
    /// The formula `==`: numbers (also inside pairs and arrays) compare numerically, strings
    /// case-sensitively, object keys case-insensitively.
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::Boolean(a), Value::Boolean(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::OrderedPair(a, b), Value::OrderedPair(c, d)) => a == c && b == d,
            (Value::Dice(a), Value::Dice(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Optional(a), Value::Optional(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Display for Value {
    /// As PCGen's `unconvert`: pairs `x,y`, arrays joined with `,`, an empty optional as
    /// nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Boolean(b) => write!(f, "{b}"),
            Value::String(s) => f.write_str(s),
            Value::OrderedPair(x, y) => write!(f, "{x},{y}"),
            Value::Dice(d) => write!(f, "{d}"),
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                Ok(())
            }
            Value::Optional(Some(v)) => write!(f, "{v}"),
            Value::Optional(None) => Ok(()),
            Value::Object(n) => write!(f, "{n}"),
        }
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Boolean(b)
    }
}
