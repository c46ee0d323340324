//! parse_formula never panics and always keeps its promises, whatever the input: the tree is
//! present exactly when no error is reported, and every span lies inside the text.

use proptest::prelude::*;
use rulebook::formula::parse_formula;
use rulebook::source::FileId;

fn check(text: &str) -> Result<(), TestCaseError> {
    let offset = 7;
    let out = parse_formula(text, FileId(3), offset);
    let has_error = out.diagnostics.iter().any(|d| d.is_error());
    prop_assert_eq!(
        out.formula.is_some(),
        !has_error,
        "{:?}: {:?}",
        text,
        out.diagnostics
    );
    let end = offset as usize + text.len();
    for d in &out.diagnostics {
        let spans = std::iter::once(d.span).chain(d.labels.iter().map(|l| l.span));
        for s in spans {
            prop_assert!(
                s.file == FileId(3)
                    && s.start >= offset
                    && s.start <= s.end
                    && s.end as usize <= end,
                "{:?}: span {:?} outside the text in {:?}",
                text,
                s,
                d
            );
        }
        prop_assert!(d.help.is_some(), "{:?}: no help in {:?}", text, d);
    }
    Ok(())
}

/// Pieces of formula syntax, so random inputs reach deep into the grammar.
const PIECES: &[&str] = &[
    "(", ")", "[", "]", ",", "a", "b c", "1", ".5", "1.", " ", "  ", "-", "!", "^", "+", "*", "/",
    "%", "<", ">=", "==", "!=", "=", "&&", "||", "&", "|", "\"", "\"s\"", "\\", "f(", "x[", "é",
    "日", "\t", "\n", "_", "~", ":", ".", "e5", "0x", "'",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        check(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn random_syntax_pieces_never_panic(
        pieces in prop::collection::vec(prop::sample::select(PIECES), 0..24)
    ) {
        check(&pieces.concat())?;
    }
}
