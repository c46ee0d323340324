//! Token values PCGen's parser rejects at load (`T0119`): numbers that are not numbers
//! (`COST:13,500`), challenge ratings written as formulas, an `ABILITY:` without its nature.
//! PCGen logs the failure and drops the token, so the object loads without it.
//!
//! The rules are one table, `token-values.tsv`, keyed by the Java class that parses the token
//! (the vocabulary's `source` column): a row applies to every kind that class serves. The
//! validator flags those rows ([`super::check::row_flags`]) and asks [`problem`] of their
//! values.

use std::sync::LazyLock;

/// The table, compiled in.
const TOKEN_VALUES_TSV: &str = include_str!("token-values.tsv");

/// What a value must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// A `java.math.BigDecimal` literal.
    Decimal,
    /// One that is not negative.
    DecimalNotNegative,
    /// One greater than 0, or `.CLEAR`.
    DecimalPositive,
    /// An integer or `1/` and an integer, not negative (`Integer.parseInt`).
    Rating,
    /// `CATEGORY|NATURE|keys`: the nature NORMAL, AUTOMATIC or VIRTUAL.
    Nature,
}

/// One row of the table.
#[derive(Debug)]
struct ValueRule {
    source: &'static str,
    shape: Shape,
    /// What PCGen logs; `{}` stands for the value or field it read.
    message: &'static str,
}

static RULES: LazyLock<Vec<ValueRule>> = LazyLock::new(|| parse(TOKEN_VALUES_TSV));

fn parse(text: &'static str) -> Vec<ValueRule> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("source\t") && !l.trim().is_empty())
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let (source, shape, message) = (cols.next()?, cols.next()?, cols.next()?);
            let shape = match shape {
                "decimal" => Shape::Decimal,
                "decimal>=0" => Shape::DecimalNotNegative,
                "decimal>0" => Shape::DecimalPositive,
                "rating" => Shape::Rating,
                "nature" => Shape::Nature,
                _ => return None,
            };
            Some(ValueRule {
                source,
                shape,
                message,
            })
        })
        .collect()
}

/// Whether the values of the token parsed by `source` are checked here.
pub(crate) fn checks(source: &str) -> bool {
    RULES.iter().any(|r| r.source == source)
}

/// What is wrong with `value` (the text after the token's `:`, as written) of a token parsed
/// by `source`, if PCGen rejects it.
pub(crate) fn problem(source: &str, value: &str) -> Option<ValueProblem> {
    let rule = RULES.iter().find(|r| r.source == source)?;
    // PCGen trims the token (`LstUtils.processToken`), so only the end of the value.
    let value = value.trim_end();
    let whole = |reason: Reason| {
        Some(ValueProblem {
            at: 0..value.len(),
            reason,
            pcgen: rule.message.replace("{}", value),
        })
    };
    match rule.shape {
        Shape::Decimal if is_big_decimal(value) => None,
        Shape::Decimal => whole(Reason::NotANumber),
        Shape::DecimalNotNegative => {
            if !is_big_decimal(value) {
                whole(Reason::NotANumber)
            } else if value.starts_with('-') && has_nonzero_digit(value) {
                whole(Reason::Negative)
            } else {
                None
            }
        }
        Shape::DecimalPositive => {
            if value == ".CLEAR" {
                None
            } else if !is_big_decimal(value) {
                whole(Reason::NotANumber)
            } else if value.starts_with('-') || !has_nonzero_digit(value) {
                whole(Reason::NotPositive)
            } else {
                None
            }
        }
        Shape::Rating => {
            let digits = value.strip_prefix("1/").unwrap_or(value);
            match java_int(digits) {
                Some(n) if n >= 0 => None,
                Some(_) => whole(Reason::Negative),
                None => whole(Reason::NotARating),
            }
        }
        Shape::Nature => nature_problem(value, rule.message),
    }
}

/// Why a value is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reason {
    NotANumber,
    Negative,
    NotPositive,
    NotARating,
    NoNature,
    BadNature,
    AnyNature,
    NoAbilities,
}

/// A rejected value: the byte range of the value it is about, why, and PCGen's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ValueProblem {
    pub(crate) at: std::ops::Range<usize>,
    pub(crate) reason: Reason,
    pub(crate) pcgen: String,
}

impl ValueProblem {
    /// The finding's message, about `text` (the value or field at [`ValueProblem::at`]) of
    /// token `token`.
    pub(crate) fn message(&self, token: &str, text: &str) -> String {
        match self.reason {
            Reason::NotANumber => format!("`{text}` is not a number PCGen reads for {token}"),
            Reason::Negative => format!("{token} cannot be negative (`{text}`)"),
            Reason::NotPositive => format!("{token} must be greater than 0 (`{text}`)"),
            Reason::NotARating => {
                format!("`{text}` is not a challenge rating PCGen reads for {token}")
            }
            Reason::NoNature => format!("{token} has no nature after its category"),
            Reason::BadNature => format!("`{text}` is not an ability nature"),
            Reason::AnyNature => format!("{token} cannot grant with nature `ANY`"),
            Reason::NoAbilities => format!("{token} names no ability after its nature"),
        }
    }

    /// The help line: what to write instead.
    pub(crate) fn help(&self) -> &'static str {
        match self.reason {
            Reason::NotANumber | Reason::Negative | Reason::NotPositive => {
                "write a plain number: digits, at most one `.`, no `,` and no formula"
            }
            Reason::NotARating => {
                "write an integer or `1/` and an integer (`CR:3`, `CR:1/2`); a formula is not read here"
            }
            Reason::NoNature | Reason::BadNature | Reason::AnyNature => {
                "write `CATEGORY|NATURE|Key`, the nature NORMAL, AUTOMATIC or VIRTUAL (e.g. `ABILITY:FEAT|AUTOMATIC|Dodge`)"
            }
            Reason::NoAbilities => {
                "name the abilities after the nature: `ABILITY:FEAT|AUTOMATIC|Dodge`"
            }
        }
    }
}

/// `ABILITY:CATEGORY|NATURE|keys`, read as `AbilityLst` reads it: `|` pieces as a
/// `StringTokenizer` gives them (empty ones skipped), the nature by exact name.
fn nature_problem(value: &str, message: &'static str) -> Option<ValueProblem> {
    // The first three non-empty `|` pieces, by byte range: no allocation on the validator's
    // hot path (every ABILITY token comes here).
    let mut pieces = value
        .split('|')
        .scan(0usize, |at, piece| {
            let start = *at;
            *at += piece.len() + 1;
            Some(start..start + piece.len())
        })
        .filter(|r| !r.is_empty());
    let (category, nature, keys) = (pieces.next()?, pieces.next(), pieces.next());
    let problem = |at, reason, pcgen| Some(ValueProblem { at, reason, pcgen });
    let Some(nature) = nature else {
        return problem(
            category,
            Reason::NoNature,
            format!("ABILITY must have a Nature, Format is: CATEGORY|NATURE|AbilityName: {value}"),
        );
    };
    match value.get(nature.clone()).unwrap_or("") {
        "NORMAL" | "AUTOMATIC" | "VIRTUAL" if keys.is_some() => None,
        "NORMAL" | "AUTOMATIC" | "VIRTUAL" => problem(
            nature,
            Reason::NoAbilities,
            format!("ABILITY must have abilities, Format is: CATEGORY|NATURE|AbilityName: {value}"),
        ),
        "ANY" => problem(
            nature,
            Reason::AnyNature,
            format!("ABILITY refers to ANY Ability Nature, cannot be used in ABILITY: {value}"),
        ),
        other => problem(
            nature.clone(),
            Reason::BadNature,
            message.replace("{}", other),
        ),
    }
}

/// Whether `s` is a `java.math.BigDecimal` literal: an optional sign, digits with at most
/// one `.` (at least one digit), then optionally `e`/`E`, an optional sign and digits.
fn is_big_decimal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let (mut digits, mut dot) = (0, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => digits += 1,
            b'.' if !dot => dot = true,
            _ => break,
        }
        i += 1;
    }
    if digits == 0 {
        return false;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        i += usize::from(matches!(b.get(i), Some(b'+' | b'-')));
        let exp_start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

fn has_nonzero_digit(s: &str) -> bool {
    let mantissa = s.split(['e', 'E']).next().unwrap_or(s);
    mantissa.bytes().any(|c| matches!(c, b'1'..=b'9'))
}

/// `Integer.parseInt(s)`: an optional sign and ASCII digits, within `i32`.
fn java_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: i64 = s.parse().ok()?;
    i32::try_from(n).ok().map(i64::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EQUIPMENT_COST: &str = "plugin/lsttokens/equipment/CostToken.java";
    const RACE_CR: &str = "plugin/lsttokens/race/CrToken.java";
    const WT: &str = "plugin/lsttokens/equipment/WtToken.java";
    const SPELL_COST: &str = "plugin/lsttokens/spell/CostToken.java";
    const ABILITY: &str = "plugin/lsttokens/AbilityLst.java";

    fn reason(source: &str, value: &str) -> Option<Reason> {
        problem(source, value).map(|p| p.reason)
    }

    #[test]
    fn every_row_of_the_table_is_read() {
        assert_eq!(
            RULES.len(),
            TOKEN_VALUES_TSV
                .lines()
                .filter(|l| l.starts_with("plugin/"))
                .count()
        );
    }

    #[test]
    fn numbers_as_big_decimal_reads_them() {
        for ok in ["12", "-0.5", "+3", "1E3", "2.5e-2", ".5", "5.", "0"] {
            assert_eq!(reason(EQUIPMENT_COST, ok), None, "{ok}");
        }
        for bad in [
            "13,500", "WT*20", "", "1 000", "e5", "1e", "--1", "1.2.3", "½",
        ] {
            assert_eq!(
                reason(EQUIPMENT_COST, bad),
                Some(Reason::NotANumber),
                "{bad}"
            );
        }
        assert_eq!(
            problem(EQUIPMENT_COST, "13,500").map(|p| p.pcgen),
            Some("COST expected a number: 13,500".to_owned())
        );
        assert_eq!(reason(EQUIPMENT_COST, "5 "), None);
    }

    #[test]
    fn bounds_of_weights_and_spell_costs() {
        assert_eq!(reason(WT, "-1"), Some(Reason::Negative));
        assert_eq!(reason(WT, "-0"), None);
        assert_eq!(reason(WT, "0"), None);
        assert_eq!(reason(SPELL_COST, "0"), Some(Reason::NotPositive));
        assert_eq!(reason(SPELL_COST, ".CLEAR"), None);
        assert_eq!(reason(SPELL_COST, "25"), None);
    }

    #[test]
    fn challenge_ratings_as_race_cr_reads_them() {
        for ok in ["3", "1/2", "0", "+4"] {
            assert_eq!(reason(RACE_CR, ok), None, "{ok}");
        }
        assert_eq!(reason(RACE_CR, "-1"), Some(Reason::Negative));
        for bad in ["RacialTraitsECL+1", "1/x", "2/3", "1.5", "99999999999"] {
            assert_eq!(reason(RACE_CR, bad), Some(Reason::NotARating), "{bad}");
        }
    }

    #[test]
    fn an_ability_token_needs_its_nature() {
        assert_eq!(reason(ABILITY, "FEAT|AUTOMATIC|Dodge"), None);
        assert_eq!(reason(ABILITY, "FEAT||VIRTUAL|Dodge|PREVARGT:x,1"), None);
        let p = problem(ABILITY, "FEAT|Simple Weapon Proficiency").unwrap();
        assert_eq!((p.reason, p.at), (Reason::BadNature, 5..30));
        assert_eq!(
            p.pcgen,
            "ABILITY refers to invalid Ability Nature: Simple Weapon Proficiency"
        );
        assert_eq!(reason(ABILITY, "FEAT"), Some(Reason::NoNature));
        assert_eq!(
            reason(ABILITY, "FEAT|Automatic|Dodge"),
            Some(Reason::BadNature)
        );
        assert_eq!(reason(ABILITY, "FEAT|ANY|Dodge"), Some(Reason::AnyNature));
        assert_eq!(reason(ABILITY, "FEAT|NORMAL"), Some(Reason::NoAbilities));
        assert_eq!(reason("plugin/lsttokens/OtherLst.java", "anything"), None);
    }
}
