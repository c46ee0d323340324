//! Fuzz target: FICS formulas. The first line is the formula, the next up to nine lines are
//! f1 … f9 (each set in order, as a user would). Nothing panics; a compiled formula
//! evaluates against a few requests, and accepts a match exactly when it evaluates to a
//! non-zero value; a diagnostic renders.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::diagnostic::render;
use rulebook::dialect::fics::{Category, FVar, FVars, MatchFormula, MatchRequest, Ratings};
use rulebook::source::{FileId, SourceFile, SourceMap, TextEncoding};

fn requests() -> [MatchRequest; 3] {
    let r = |n| Ratings {
        blitz: n,
        standard: n,
        lightning: n,
        wild: n,
    };
    [
        MatchRequest::default(),
        MatchRequest {
            time: 5,
            inc: 0,
            mytime: 5,
            myinc: 0,
            rated: true,
            rating: r(1500),
            myrating: r(1720),
            registered: true,
            ..Default::default()
        },
        MatchRequest {
            time: i32::MAX,
            inc: i32::MAX,
            mytime: i32::MIN,
            myinc: -1,
            category: Category::Wild,
            rating: r(i32::MIN),
            myrating: r(i32::MAX),
            assesswin: i32::MAX,
            assessloss: i32::MIN,
            ..Default::default()
        },
    ]
}

fuzz_target!(|text: &str| {
    let mut lines = text.split('\n');
    let formula = lines.next().unwrap_or("");
    let mut fvars = FVars::new();
    let mut sources = SourceMap::new();
    sources.add(SourceFile::new("formula", formula, TextEncoding::Utf8));
    for (n, line) in (1u8..=9).zip(lines) {
        let file = sources.add(SourceFile::new(format!("f{n}"), line, TextEncoding::Utf8));
        if let Some(var) = FVar::new(n) {
            if let Err(diags) = fvars.set(var, line, file) {
                let _ = render(&diags, &sources, false);
            }
        }
    }
    match MatchFormula::compile(formula, FileId(0), &fvars) {
        Ok(f) => {
            let _ = render(f.warnings(), &sources, false);
            for req in requests() {
                match f.evaluate(&req) {
                    Ok(ev) => assert_eq!(f.accepts(&req), ev.value != 0),
                    Err(e) => {
                        assert!(!f.accepts(&req));
                        let _ = render(&[*e], &sources, false);
                    }
                }
                let _ = f.explain(&req);
            }
        }
        Err(diags) => {
            assert!(diags.iter().any(|d| d.is_error()));
            let _ = render(&diags, &sources, false);
        }
    }
});
