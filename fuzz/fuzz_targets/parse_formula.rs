//! Fuzz target: `parse_formula` on arbitrary UTF-8 never panics, and returns a tree exactly
//! when it reports no error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::formula::parse_formula;
use rulebook::source::FileId;

fuzz_target!(|text: &str| {
    let out = parse_formula(text, FileId(0), 0);
    let has_error = out.diagnostics.iter().any(|d| d.is_error());
    assert_eq!(out.formula.is_some(), !has_error);
});
