//! Text → value conversion for a format (DEFAULTVARIABLEVALUE, fixed SET values, values in
//! test vectors). This is the reference's `FormatManager.convert`, with exact numbers.

use super::dice::Dice;
use super::format::Format;
use super::number::Number;
use super::value::Value;
use crate::name::Name;
use std::sync::Arc;

impl Format {
    /// Converts `text` to a value of this format:
    ///
    /// * NUMBER: optional sign, digits, optional fraction and exponent, surrounding spaces
    ///   ignored (`NaN`/`Infinity` are rejected: NUMBERs are always finite);
    /// * BOOLEAN: `true`/`false` in any case;
    /// * STRING: the text itself;
    /// * ORDEREDPAIR: `x,y` with exactly one comma, each side a NUMBER;
    /// * DICE: `NdS`, `dS` or `N`;
    /// * `ARRAY[X]`: comma-separated items of X (empty text = empty array);
    /// * `OPTIONAL[X]`: empty text = empty optional, else a value of X;
    /// * object formats: the object key (trimmed); the caller checks that it exists.
    ///
    /// The error is a message for the user (without the text's location).
    pub fn parse_value(&self, text: &str) -> Result<Value, String> {
        match self {
            Format::Number => Number::parse_text(text).map(Value::Number),
            Format::Boolean => {
                let t = text.trim();
                if t.eq_ignore_ascii_case("true") {
                    Ok(Value::Boolean(true))
                } else if t.eq_ignore_ascii_case("false") {
                    Ok(Value::Boolean(false))
                } else {
                    Err(format!("`{text}` is not a BOOLEAN (use `true` or `false`)"))
                }
            }
            Format::String => Ok(Value::string(text)),
            Format::OrderedPair => {
                let (x, y) = text
                    .split_once(',')
                    .ok_or_else(|| format!("`{text}` is not an ORDEREDPAIR (write `x,y`)"))?;
                if y.contains(',') {
                    return Err(format!(
                        "`{text}` is not an ORDEREDPAIR: more than one comma"
                    ));
                }
                if x.trim().is_empty() || y.trim().is_empty() {
                    return Err(format!("`{text}` is not an ORDEREDPAIR: a side is missing"));
                }
                let x = Number::parse_text(x).map_err(|e| format!("first value: {e}"))?;
                let y = Number::parse_text(y).map_err(|e| format!("second value: {e}"))?;
                Ok(Value::OrderedPair(x, y))
            }
            Format::Dice => Dice::parse(text).map(Value::Dice),
            Format::Array(inner) => {
                if text.is_empty() {
                    return Ok(Value::Array(Arc::from(Vec::new())));
                }
                let items = text
                    .split(',')
                    .map(|part| inner.parse_value(part))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Value::Array(Arc::from(items)))
            }
            Format::Optional(inner) => {
                if text.is_empty() {
                    Ok(Value::Optional(None))
                } else {
                    Ok(Value::Optional(Some(Arc::new(inner.parse_value(text)?))))
                }
            }
            Format::Object(_) => {
                let t = text.trim();
                if t.is_empty() {
                    Err(format!("an empty text is not a {self} key"))
                } else {
                    Ok(Value::Object(Name::new(t)))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(f: &str, t: &str) -> Result<String, String> {
        Format::from_name(f)
            .unwrap()
            .parse_value(t)
            .map(|v| v.to_string())
    }

    #[test]
    fn converts_like_the_reference() {
        assert_eq!(conv("NUMBER", "007"), Ok("7".into()));
        assert_eq!(conv("BOOLEAN", "TRUE"), Ok("true".into()));
        assert!(conv("BOOLEAN", "yes").is_err());
        assert_eq!(conv("ORDEREDPAIR", " 1 , 2 "), Ok("1,2".into()));
        assert!(conv("ORDEREDPAIR", ",2").is_err());
        assert!(conv("ORDEREDPAIR", "a,2").is_err());
        assert!(conv("ORDEREDPAIR", "1,2,3").is_err());
        assert_eq!(conv("DICE", "d20"), Ok("1d20".into()));
        assert_eq!(conv("ARRAY[NUMBER]", "1,2,3"), Ok("1,2,3".into()));
        assert_eq!(conv("ARRAY[NUMBER]", ""), Ok("".into()));
        assert_eq!(conv("OPTIONAL[NUMBER]", ""), Ok("".into()));
        assert_eq!(conv("OPTIONAL[NUMBER]", "3"), Ok("3".into()));
        assert!(conv("NUMBER", "Infinity").is_err());
    }
}
