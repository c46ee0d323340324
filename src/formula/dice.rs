//! DICE values: `NdS` (PCGen), and the spec's `AdB+C` with a bonus.

use std::fmt;

/// A number of dice of one size, as PCGen's `Dice` record: `2d6`, `d20` (= `1d20`), `3`
/// (three one-sided dice, i.e. the constant 3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    /// How many dice (never negative).
    pub quantity: u32,
    /// Sides per die (PCGen does not check this; `1d0` is accepted).
    pub sides: i32,
    /// The bonus of the spec's `AdB+C` form (`0` for PCGen's dice, which have none).
    pub bonus: i32,
}

impl Dice {
    /// Parses `NdS`, `dS` or `N` (lower-case `d` only, no modifiers), as PCGen's DiceFormat.
    pub fn parse(text: &str) -> Result<Dice, String> {
        let int = |s: &str, what: &str| -> Result<i64, String> {
            let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("`{text}` is not dice: bad {what} `{s}`"));
            }
            s.parse::<i64>()
                .map_err(|_| format!("`{text}` is not dice: {what} `{s}` is too large"))
        };
        let (q, s) = match text.split_once('d') {
            Some(("", s)) => (1, int(s, "number of sides")?),
            Some((q, s)) => (int(q, "quantity")?, int(s, "number of sides")?),
            None => (int(text, "quantity")?, 1),
        };
        if q < 0 {
            return Err(format!("`{text}`: the quantity of dice cannot be negative"));
        }
        if s < 1 {
            return Err(format!("`{text}` is not dice: a die has at least one side"));
        }
        let quantity = u32::try_from(q).map_err(|_| format!("`{text}`: too many dice"))?;
        let sides = i32::try_from(s).map_err(|_| format!("`{text}`: too many sides"))?;
        Ok(Dice {
            quantity,
            sides,
            bonus: 0,
        })
    }

    /// Parses the spec's DICE form `AdB+C` / `AdB-C` (a bonus after PCGen's `NdS`), or
    /// anything [`Dice::parse`] takes. PCGen itself rejects the bonus.
    pub fn parse_with_bonus(text: &str) -> Result<Dice, String> {
        let Some(at) = text
            .rfind(['+', '-'])
            .filter(|&at| at > 0 && text.contains('d'))
        else {
            return Dice::parse(text);
        };
        let (dice, bonus) = text.split_at(at);
        let digits = bonus.get(1..).unwrap_or("");
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("`{text}` is not dice: bad bonus `{bonus}`"));
        }
        let bonus = bonus
            .parse::<i32>()
            .map_err(|_| format!("`{text}`: the bonus `{bonus}` is too large"))?;
        Ok(Dice {
            bonus,
            ..Dice::parse(dice)?
        })
    }
}

impl fmt::Display for Dice {
    /// `quantity` followed by `d` and the sides unless the dice have one side.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.sides == 1 {
            write!(f, "{}", self.quantity)?;
        } else {
            write!(f, "{}d{}", self.quantity, self.sides)?;
        }
        if self.bonus != 0 {
            write!(f, "{:+}", self.bonus)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_like_the_reference() {
        for (text, printed) in [
            ("2d6", "2d6"),
            ("d20", "1d20"),
            ("3", "3"),
            ("1d1", "1"),
            ("0d6", "0d6"),
        ] {
            assert_eq!(Dice::parse(text).unwrap().to_string(), printed);
        }
        for bad in [
            "2D6", "1d6+2", "-1d6", "", "d", "x", "5d-6", "0d0", "1d0", "d-1",
        ] {
            assert!(Dice::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_spec_form_takes_a_bonus() {
        for (text, printed) in [
            ("1d6+1", "1d6+1"),
            ("2d8-2", "2d8-2"),
            ("d20+0", "1d20"),
            ("3", "3"),
        ] {
            assert_eq!(Dice::parse_with_bonus(text).unwrap().to_string(), printed);
        }
        for bad in ["1d6+", "1d6+x", "1d6++1", "-1d6", "1d6+99999999999", "5+1"] {
            assert!(Dice::parse_with_bonus(bad).is_err(), "{bad}");
        }
    }
}
