//! Constant values written in data (defaults and fixed modifier values), checked against their
//! format at load.

use crate::formula::Format;
use crate::name::Name;
use rust_decimal::Decimal;
use std::str::FromStr;

/// A constant of some format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// NUMBER.
    Number(Decimal),
    /// BOOLEAN.
    Boolean(bool),
    /// STRING.
    String(String),
    /// DICE `AdB+C` (`N` alone is `0d0+N`, `dB` is `1dB`).
    Dice {
        /// Number of dice.
        count: u32,
        /// Sides per die.
        sides: u32,
        /// Added afterwards.
        bonus: i64,
    },
    /// ORDEREDPAIR `x,y`.
    Pair(Decimal, Decimal),
    /// An object key (ALIGNMENT, HANDED, dynamic formats, …).
    Object(Name),
    /// An empty ARRAY.
    EmptyArray,
}

/// Parses a NUMBER literal: `-`? digits with an optional fraction (`.5` allowed).
pub fn number(text: &str) -> Option<Decimal> {
    let t = text.trim();
    let body = t.strip_prefix('-').unwrap_or(t);
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let ok = digits(int)
        && frac.is_none_or(|f| !f.is_empty() && digits(f))
        && (!int.is_empty() || frac.is_some());
    if !ok {
        return None;
    }
    let normal = if int.is_empty() {
        format!("{}0{}", if t.starts_with('-') { "-" } else { "" }, body)
    } else {
        t.to_owned()
    };
    Decimal::from_str(&normal).ok()
}

fn dice(text: &str) -> Option<Literal> {
    let t = text.trim();
    let (main, bonus) = match t.find(['+', '-']).filter(|i| *i > 0) {
        Some(i) => (t.get(..i)?, t.get(i..)?.parse::<i64>().ok()?),
        None => (t, 0),
    };
    match main.split_once(['d', 'D']) {
        Some((c, s)) => {
            let count = if c.is_empty() { 1 } else { c.parse().ok()? };
            let sides = s.parse().ok()?;
            Some(Literal::Dice {
                count,
                sides,
                bonus,
            })
        }
        None => {
            let n: i64 = main.parse().ok()?;
            Some(Literal::Dice {
                count: 0,
                sides: 0,
                bonus: n.checked_add(bonus)?,
            })
        }
    }
}

/// Parses `text` as a constant of `format`; `None` when it is not a valid literal.
pub fn parse(format: &Format, text: &str) -> Option<Literal> {
    match format {
        Format::Number => number(text).map(Literal::Number),
        Format::Boolean => {
            let t = text.trim();
            if t.eq_ignore_ascii_case("true") {
                Some(Literal::Boolean(true))
            } else if t.eq_ignore_ascii_case("false") {
                Some(Literal::Boolean(false))
            } else {
                None
            }
        }
        Format::String => Some(Literal::String(text.to_owned())),
        Format::Dice => dice(text),
        Format::OrderedPair => {
            let (x, y) = text.split_once(',')?;
            if y.contains(',') {
                return None;
            }
            Some(Literal::Pair(number(x)?, number(y)?))
        }
        Format::Array(_) => text.trim().is_empty().then_some(Literal::EmptyArray),
        Format::Optional(inner) => parse(inner, text),
        Format::Object(_) => {
            let t = text.trim();
            (!t.is_empty()).then(|| Literal::Object(Name::new(t)))
        }
    }
}

/// What a literal of this format looks like, for help lines.
pub fn shape(format: &Format) -> &'static str {
    match format {
        Format::Number => "a number such as 2, -1 or 0.5",
        Format::Boolean => "true or false",
        Format::String => "any text",
        Format::Dice => "dice such as 1d8, d6 or 2 (optionally +N)",
        Format::OrderedPair => "two numbers separated by one comma, such as 5,5",
        Format::Array(_) => "an empty value",
        Format::Optional(_) => "a value of the inner format",
        Format::Object(_) => "an object key",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_by_format() {
        assert_eq!(
            parse(&Format::Number, ".5"),
            Some(Literal::Number(Decimal::new(5, 1)))
        );
        assert_eq!(
            parse(&Format::Number, "-0"),
            Some(Literal::Number(Decimal::ZERO))
        );
        assert!(parse(&Format::Number, "1e3").is_none());
        assert!(parse(&Format::Number, "x").is_none());
        assert_eq!(
            parse(&Format::Boolean, "True"),
            Some(Literal::Boolean(true))
        );
        assert!(parse(&Format::Boolean, "yes").is_none());
        assert_eq!(
            parse(&Format::Dice, "2d6+1"),
            Some(Literal::Dice {
                count: 2,
                sides: 6,
                bonus: 1
            })
        );
        assert!(parse(&Format::Dice, "0").is_some());
        assert!(parse(&Format::Dice, "2x6").is_none());
        assert!(parse(&Format::OrderedPair, "5,0").is_some());
        assert!(parse(&Format::OrderedPair, "5").is_none());
        assert!(parse(&Format::OrderedPair, "1,2,3").is_none());
    }
}
