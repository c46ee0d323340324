//! The diagnostic codes a user can name in `--allow`/`--deny` and in `rulebook.toml`: every
//! code documented in `docs/errors.md` (which `tests/it/error_codes.rs` keeps complete), read
//! from the copy built in, and the words `warnings` and `notes`.

use std::fmt;
use std::sync::OnceLock;

/// What an `--allow` or `--deny` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selector {
    /// Every warning.
    Warnings,
    /// Every note.
    Notes,
    /// One code, e.g. `M0120`.
    Code(String),
}

/// The documentation of every code, as built into the binary.
const ERRORS_MD: &str = include_str!("../../docs/errors.md");

/// `(code, name)` of every code in `docs/errors.md`: its headings (`### \`L0106\`
/// campaign-added`) and its table rows (`| \`P0101\` | unexpected-character |`).
pub fn documented() -> &'static [(String, String)] {
    static CODES: OnceLock<Vec<(String, String)>> = OnceLock::new();
    CODES.get_or_init(|| {
        let mut codes: Vec<(String, String)> = ERRORS_MD
            .lines()
            .filter_map(|line| {
                let rest = line.trim_start_matches(['#', '|', ' ']);
                let rest = rest.strip_prefix('`')?;
                let (id, tail) = rest.split_once('`')?;
                let name = tail
                    .trim_start_matches([' ', '|'])
                    .split([' ', '|'])
                    .next()?;
                (is_code(id) && (line.starts_with('#') || line.starts_with('|')))
                    .then(|| (id.to_owned(), name.to_owned()))
            })
            .collect();
        codes.sort();
        codes.dedup_by(|a, b| a.0 == b.0);
        codes
    })
}

/// A letter and four digits.
fn is_code(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && text.len() == 5
        && chars.all(|c| c.is_ascii_digit())
}

/// A word of `flag` (`--allow`, `deny`, …) that names no code, and the closest known word:
/// the facts of the error as values; [`fmt::Display`] says them as one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWord {
    /// The flag or key the word was given to.
    pub flag: String,
    /// The word as given.
    pub text: String,
    /// What to write instead: the code (`M0120`) closest to the word or whose name is,
    /// or `warnings` or `notes`.
    pub guess: Option<String>,
    /// The name of the code guessed (none for `warnings` and `notes`).
    pub guess_name: Option<String>,
}

impl UnknownWord {
    /// What is wrong, without the guess.
    pub fn problem(&self) -> String {
        format!(
            "{} `{}`: no such code (write `warnings`, `notes` or a code such as M0120; \
             docs/errors.md lists them)",
            self.flag, self.text
        )
    }
}

impl fmt::Display for UnknownWord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} `{}`: no such code", self.flag, self.text)?;
        match (&self.guess, &self.guess_name) {
            (Some(g), Some(name)) => write!(f, "; did you mean `{g}` ({name})?")?,
            (Some(g), None) => write!(f, "; did you mean `{g}`?")?,
            _ => {}
        }
        f.write_str(
            " (write `warnings`, `notes` or a code such as M0120; docs/errors.md lists them)",
        )
    }
}

/// Reads what `flag` names: `warnings`, `notes`, a code (`m0120` is `M0120`) or a code's
/// name (`unused-variable`). An error, with the closest known word, for anything else.
pub fn selector(text: &str, flag: &str) -> Result<Selector, UnknownWord> {
    let word = text.trim();
    if word.eq_ignore_ascii_case("warnings") {
        return Ok(Selector::Warnings);
    }
    if word.eq_ignore_ascii_case("notes") {
        return Ok(Selector::Notes);
    }
    let codes = documented();
    if let Some((id, _)) = codes
        .iter()
        .find(|(id, name)| id.eq_ignore_ascii_case(word) || name.eq_ignore_ascii_case(word))
    {
        return Ok(Selector::Code(id.clone()));
    }
    let words = ["warnings", "notes"]
        .into_iter()
        .chain(codes.iter().map(|(id, _)| id.as_str()))
        .chain(codes.iter().map(|(_, name)| name.as_str()));
    let guess = crate::name::closest(word, words);
    let code = guess.and_then(|g| codes.iter().find(|(id, name)| id == g || name == g));
    Err(UnknownWord {
        flag: flag.to_owned(),
        text: text.to_owned(),
        guess: code.map(|(id, _)| id.as_str()).or(guess).map(str::to_owned),
        guess_name: code.map(|(_, name)| name.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layer_has_documented_codes() {
        let codes = documented();
        for (id, name) in [
            ("P0101", "unexpected-character"),
            ("F0101", "unknown-variable"),
            ("L0106", "campaign-added"),
            ("M0120", "unused-variable"),
            ("T0113", "deprecated-token"),
            ("D0191", "dialect-constant-comparison"),
        ] {
            assert!(
                codes.iter().any(|(i, n)| i == id && n == name),
                "{id} {name} not in {codes:?}"
            );
        }
    }

    #[test]
    fn selectors_accept_codes_names_and_the_two_words() {
        assert_eq!(
            selector("m0120", "--allow"),
            Ok(Selector::Code("M0120".into()))
        );
        assert_eq!(
            selector("unused-variable", "--allow"),
            Ok(Selector::Code("M0120".into()))
        );
        assert_eq!(selector("Notes", "--deny"), Ok(Selector::Notes));
        assert_eq!(selector("warnings", "--allow"), Ok(Selector::Warnings));
    }

    #[test]
    fn unknown_words_get_a_guess() {
        let e = selector("M0999", "--allow").unwrap_err().to_string();
        assert!(e.contains("no such code"), "{e}");
        let e = selector("note", "--deny").unwrap_err();
        assert_eq!(e.guess.as_deref(), Some("notes"));
        assert!(e.to_string().contains("did you mean `notes`?"), "{e}");
        let e = selector("unused-variabel", "--allow").unwrap_err();
        assert_eq!(e.guess.as_deref(), Some("M0120"));
        assert!(e.to_string().contains("`M0120` (unused-variable)"), "{e}");
    }
}
