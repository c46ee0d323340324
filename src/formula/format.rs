//! Formats: the types of the formula system.

use crate::name::Name;
use std::fmt;

/// The format (type) of a variable, formula or value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Exact integer-or-decimal numbers.
    Number,
    /// `true` / `false`.
    Boolean,
    /// Text.
    String,
    /// A pair of numbers `x,y`.
    OrderedPair,
    /// Dice `AdB`.
    Dice,
    /// `ARRAY[X]`.
    Array(Box<Format>),
    /// `OPTIONAL[X]`.
    Optional(Box<Format>),
    /// An object format (e.g. `ALIGNMENT`, `SIZE`, a DYNAMICSCOPE name): values are object keys.
    Object(Name),
}

impl Format {
    /// Parses a format name as data writes it (`NUMBER`, `ARRAY[NUMBER]`, `ALIGNMENT`, …),
    /// case-insensitively. Unknown plain names become object formats; the caller decides
    /// whether such an object format exists.
    pub fn from_name(text: &str) -> Option<Format> {
        let t = text.trim();
        if t.is_empty() {
            return None;
        }
        let upper = t.to_ascii_uppercase();
        for (prefix, wrap) in [("ARRAY[", true), ("OPTIONAL[", false)] {
            if let Some(inner) = upper.strip_prefix(prefix) {
                let inner = inner.strip_suffix(']')?;
                let start = prefix.len();
                let inner_text = t.get(start..start + inner.len())?;
                let f = Format::from_name(inner_text)?;
                return Some(if wrap {
                    Format::Array(Box::new(f))
                } else {
                    Format::Optional(Box::new(f))
                });
            }
        }
        Some(match upper.as_str() {
            "NUMBER" => Format::Number,
            "BOOLEAN" => Format::Boolean,
            "STRING" => Format::String,
            "ORDEREDPAIR" => Format::OrderedPair,
            "DICE" => Format::Dice,
            _ => {
                if !t
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
                {
                    return None;
                }
                Format::Object(Name::new(t))
            }
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Number => f.write_str("NUMBER"),
            Format::Boolean => f.write_str("BOOLEAN"),
            Format::String => f.write_str("STRING"),
            Format::OrderedPair => f.write_str("ORDEREDPAIR"),
            Format::Dice => f.write_str("DICE"),
            Format::Array(x) => write!(f, "ARRAY[{x}]"),
            Format::Optional(x) => write!(f, "OPTIONAL[{x}]"),
            Format::Object(n) => write!(f, "{}", n.as_str().to_ascii_uppercase()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_format_names() {
        assert_eq!(Format::from_name("number"), Some(Format::Number));
        assert_eq!(
            Format::from_name("ARRAY[NUMBER]"),
            Some(Format::Array(Box::new(Format::Number)))
        );
        assert_eq!(Format::from_name("ARRAY[NUMBER"), None);
        assert_eq!(
            Format::from_name("Alignment").map(|f| f.to_string()),
            Some("ALIGNMENT".into())
        );
    }
}
