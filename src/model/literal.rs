//! Constant values written in data (defaults, fixed modifier values, table cells), checked
//! against their format at load with [`Format::parse_value`].

use crate::formula::{Format, Number, Value};

/// Parses `text` as a constant of `format`; `None` when it is not a valid literal.
pub fn parse(format: &Format, text: &str) -> Option<Value> {
    format.parse_value(text).ok()
}

/// Parses a NUMBER literal.
pub fn number(text: &str) -> Option<Number> {
    Number::parse_text(text).ok()
}

/// What a literal of this format looks like, for help lines.
pub fn shape(format: &Format) -> &'static str {
    match format {
        Format::Number => "a number such as 2, -1 or 0.5",
        Format::Boolean => "true or false",
        Format::String => "any text",
        Format::Dice => "dice such as 1d8, d6 or 2",
        Format::OrderedPair => "two numbers separated by one comma, such as 5,5",
        Format::Array(_) => "comma-separated items",
        Format::Optional(_) => "a value of the inner format, or nothing",
        Format::Object(_) => "an object key",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_by_format() {
        assert!(parse(&Format::Number, ".5").is_some());
        assert!(parse(&Format::Number, "-0").is_some());
        assert!(parse(&Format::Number, "x").is_none());
        assert!(parse(&Format::Boolean, "True").is_some());
        assert!(parse(&Format::Boolean, "yes").is_none());
        assert!(parse(&Format::Dice, "1d8").is_some());
        assert!(parse(&Format::Dice, "0").is_some());
        assert!(parse(&Format::Dice, "2x6").is_none());
        assert!(parse(&Format::OrderedPair, "5,0").is_some());
        assert!(parse(&Format::OrderedPair, "5").is_none());
        assert!(parse(&Format::OrderedPair, "1,2,3").is_none());
    }
}
