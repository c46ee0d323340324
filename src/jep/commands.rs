//! The functions of PCGen's JEP setup, as one table: PCGen's own commands
//! (`plugin/jepcommands`, registered by `PJEP` in lower and upper case), its deprecated
//! `cl`, and the JEP 2.4.1 standard functions (`addStandardFunctions`, lower case only).
//!
//! PCGen's commands replace JEP's `if`, `floor` and `ceil`. JEP checks a fixed arity while
//! parsing; a command declared with a variable arity (`numberOfParameters = -1`) checks
//! its count only when run. Either way a wrong count makes PCGen drop the JEP result and
//! read the formula with its fallback parser, which gives 0.

/// When PCGen notices a wrong number of arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArityCheck {
    /// JEP's parser rejects the formula (`parser.hasError()`).
    Parse,
    /// The command throws `ParseException` when evaluated (`getValueAsObject` gives null).
    Run,
}

/// The cases in which PCGen's JEP knows a function's name (JEP looks names up exactly).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cases {
    /// `PJEP` registers `getFunctionName().toLowerCase()` and `.toUpperCase()`.
    LowerAndUpper,
    /// A JEP standard function: lower case only.
    Lower,
}

/// What an argument is expected to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// A number (any expression).
    Number,
    /// A string holding a formula or variable name, evaluated by PCGen (`var("CL=Fighter")`).
    FormulaText,
    /// A string PCGen reads as a keyword or object name (`skillinfo("TOTALRANK", …)`).
    Text,
    /// Anything (the command looks at the value's type).
    Any,
}

/// One function of PCGen's JEP.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command {
    /// The name in lower case.
    pub name: &'static str,
    /// Fewest arguments.
    pub min_args: u8,
    /// Most arguments (`None`: no limit).
    pub max_args: Option<u8>,
    /// When a wrong count is noticed.
    pub arity_check: ArityCheck,
    /// The cases PCGen registers.
    pub cases: Cases,
    /// The argument kinds; the last one repeats.
    pub args: &'static [ArgKind],
    /// What it does, for help texts.
    pub summary: &'static str,
}

impl Command {
    /// The kind of argument number `i` (0-based).
    pub fn arg_kind(&self, i: usize) -> ArgKind {
        self.args
            .get(i)
            .or(self.args.last())
            .copied()
            .unwrap_or(ArgKind::Any)
    }

    /// True when `count` arguments are accepted.
    pub fn accepts(&self, count: usize) -> bool {
        count >= usize::from(self.min_args) && self.max_args.is_none_or(|m| count <= usize::from(m))
    }

    /// The accepted counts in words (`1`, `1 or 2`, `at least 1`, `0 to 2`).
    pub fn arity_text(&self) -> String {
        match self.max_args {
            None => format!("at least {}", self.min_args),
            Some(m) if m == self.min_args => m.to_string(),
            Some(m) if m == self.min_args + 1 => format!("{} or {m}", self.min_args),
            Some(m) => format!("{} to {m}", self.min_args),
        }
    }
}

use ArgKind::{Any, FormulaText, Number, Text};
use ArityCheck::{Parse, Run};
use Cases::{Lower, LowerAndUpper};

/// Shorthand for a table row.
const fn cmd(
    name: &'static str,
    min_args: u8,
    max_args: Option<u8>,
    arity_check: ArityCheck,
    cases: Cases,
    args: &'static [ArgKind],
    summary: &'static str,
) -> Command {
    Command {
        name,
        min_args,
        max_args,
        arity_check,
        cases,
        args,
        summary,
    }
}

/// Every function PCGen's JEP knows, sorted by name.
pub static COMMANDS: &[Command] = &[
    cmd("abs", 1, Some(1), Parse, Lower, &[Number], "absolute value"),
    cmd("acos", 1, Some(1), Parse, Lower, &[Number], "arc cosine"),
    cmd(
        "acosh",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "inverse hyperbolic cosine",
    ),
    cmd("asin", 1, Some(1), Parse, Lower, &[Number], "arc sine"),
    cmd(
        "asinh",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "inverse hyperbolic sine",
    ),
    cmd("atan", 1, Some(1), Parse, Lower, &[Number], "arc tangent"),
    cmd(
        "atan2",
        2,
        Some(2),
        Parse,
        Lower,
        &[Number],
        "arc tangent of y/x",
    ),
    cmd(
        "atanh",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "inverse hyperbolic tangent",
    ),
    cmd(
        "binom",
        2,
        Some(2),
        Parse,
        Lower,
        &[Number],
        "binomial coefficient",
    ),
    cmd(
        "ceil",
        1,
        Some(1),
        Parse,
        LowerAndUpper,
        &[Number],
        "round up (PCGen's CeilCommand)",
    ),
    cmd(
        "charbonusto",
        1,
        Some(2),
        Run,
        LowerAndUpper,
        &[Text, Text],
        "the character's bonus to a type (`charbonusto(\"COMBAT\",\"AC\")`)",
    ),
    cmd(
        "cl",
        0,
        Some(2),
        Run,
        Lower,
        &[Text, Number],
        "deprecated class level (`cl(\"Fighter\")`); use classlevel",
    ),
    cmd(
        "classlevel",
        0,
        Some(2),
        Parse,
        LowerAndUpper,
        &[Text, Text],
        "class level (`classlevel(\"Fighter\")`, `classlevel(\"APPLIEDAS=NONEPIC\")`)",
    ),
    cmd("cos", 1, Some(1), Parse, Lower, &[Number], "cosine"),
    cmd(
        "cosh",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "hyperbolic cosine",
    ),
    cmd(
        "count",
        1,
        None,
        Run,
        LowerAndUpper,
        &[Text, Any],
        "count of objects (`count(\"ABILITIES\",\"CATEGORY=FEAT\")`)",
    ),
    cmd(
        "countdistinct",
        1,
        None,
        Run,
        LowerAndUpper,
        &[Text, Any],
        "count of distinct objects",
    ),
    cmd("exp", 1, Some(1), Parse, Lower, &[Number], "e to the power"),
    cmd(
        "floor",
        1,
        Some(1),
        Parse,
        LowerAndUpper,
        &[Number],
        "round down (PCGen's FloorCommand)",
    ),
    cmd(
        "if",
        3,
        Some(3),
        Parse,
        LowerAndUpper,
        &[Number, Any, Any],
        "`if(test, then, else)` (PCGen's IfCommand)",
    ),
    cmd(
        "ln",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "natural logarithm",
    ),
    cmd(
        "log",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "logarithm base 10",
    ),
    cmd(
        "mastervar",
        1,
        Some(1),
        Run,
        LowerAndUpper,
        &[FormulaText],
        "a variable of the companion's master",
    ),
    cmd(
        "max",
        1,
        None,
        Run,
        LowerAndUpper,
        &[Number],
        "the largest argument",
    ),
    cmd(
        "min",
        1,
        None,
        Run,
        LowerAndUpper,
        &[Number],
        "the smallest argument",
    ),
    cmd("mod", 2, Some(2), Parse, Lower, &[Number], "remainder"),
    cmd(
        "or",
        1,
        None,
        Run,
        LowerAndUpper,
        &[Any],
        "the first non-zero argument",
    ),
    cmd("pow", 2, Some(2), Parse, Lower, &[Number], "power"),
    cmd(
        "rand",
        0,
        Some(0),
        Parse,
        Lower,
        &[],
        "a random number in [0, 1)",
    ),
    cmd(
        "roll",
        1,
        Some(1),
        Parse,
        LowerAndUpper,
        &[Text],
        "a dice roll (`roll(\"1d6\")`)",
    ),
    cmd(
        "round",
        1,
        Some(2),
        Run,
        Lower,
        &[Number],
        "round to nearest",
    ),
    cmd("sin", 1, Some(1), Parse, Lower, &[Number], "sine"),
    cmd(
        "sinh",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "hyperbolic sine",
    ),
    cmd(
        "skillinfo",
        2,
        Some(2),
        Parse,
        LowerAndUpper,
        &[Text, Text],
        "a skill's figure (`skillinfo(\"TOTALRANK\", \"Spot\")`)",
    ),
    cmd("sqrt", 1, Some(1), Parse, Lower, &[Number], "square root"),
    cmd(
        "str",
        1,
        Some(1),
        Parse,
        Lower,
        &[Any],
        "a value as a string",
    ),
    cmd(
        "sum",
        1,
        None,
        Run,
        Lower,
        &[Number],
        "the sum of the arguments",
    ),
    cmd("tan", 1, Some(1), Parse, Lower, &[Number], "tangent"),
    cmd(
        "tanh",
        1,
        Some(1),
        Parse,
        Lower,
        &[Number],
        "hyperbolic tangent",
    ),
    cmd(
        "var",
        1,
        Some(2),
        Run,
        LowerAndUpper,
        &[FormulaText, Number],
        "the value of a variable or formula given as a string (`var(\"CL=Fighter\")`)",
    ),
];

/// How a function name written in a formula matches the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// PCGen's JEP knows the name as written.
    Known(&'static Command),
    /// The name is a known function in another case (`If`, `Floor`, `ROUND`), which JEP
    /// does not recognise.
    WrongCase(&'static Command),
    /// No function of that name in any case.
    Unknown,
}

/// Looks up a function name as PCGen's JEP does (exactly), telling a wrong case apart.
pub fn lookup(name: &str) -> Lookup {
    let lower = name.to_ascii_lowercase();
    let Ok(i) = COMMANDS.binary_search_by(|c| c.name.cmp(lower.as_str())) else {
        return Lookup::Unknown;
    };
    let Some(command) = COMMANDS.get(i) else {
        return Lookup::Unknown;
    };
    let registered = match command.cases {
        Cases::LowerAndUpper => name == command.name || name == command.name.to_ascii_uppercase(),
        Cases::Lower => name == command.name,
    };
    if registered {
        Lookup::Known(command)
    } else {
        Lookup::WrongCase(command)
    }
}

/// The names as PCGen registers them (`if`, `IF`, `abs`, …), for completion and help.
pub fn registered_names(command: &Command) -> Vec<String> {
    match command.cases {
        Cases::LowerAndUpper => vec![command.name.to_owned(), command.name.to_ascii_uppercase()],
        Cases::Lower => vec![command.name.to_owned()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_so_lookup_can_bisect() {
        assert!(COMMANDS.windows(2).all(|w| w[0].name < w[1].name));
    }

    #[test]
    fn lookup_follows_pjep_cases() {
        assert!(matches!(lookup("if"), Lookup::Known(_)));
        assert!(matches!(lookup("IF"), Lookup::Known(_)));
        assert!(matches!(lookup("If"), Lookup::WrongCase(_)));
        assert!(matches!(lookup("round"), Lookup::Known(_)));
        assert!(matches!(lookup("ROUND"), Lookup::WrongCase(_)));
        assert!(matches!(lookup("getvar"), Lookup::Unknown));
    }
}
