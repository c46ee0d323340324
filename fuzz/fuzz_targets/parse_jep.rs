//! Fuzz target: `parse_jep` (PCGen's old formula language) on arbitrary UTF-8 never panics,
//! its spans stay inside the formula, and a formula it accepts, printed again
//! (`print::to_text`), parses to the same tree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::jep::parse_jep;
use rulebook::jep::print::{to_sexpr, to_text};
use rulebook::source::FileId;

fuzz_target!(|text: &str| {
    let out = parse_jep(text, FileId(0), 5);
    let end = 5 + text.len() as u32;
    for d in &out.diagnostics {
        assert!(d.span.start >= 5 && d.span.end <= end);
    }
    if !out.has_errors() {
        let printed = to_text(&out.formula);
        let again = parse_jep(&printed, FileId(0), 0);
        assert!(!again.has_errors(), "{text:?} printed {printed:?}");
        assert_eq!(to_sexpr(&out.formula), to_sexpr(&again.formula));
    }
});
