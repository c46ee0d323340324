//! Properties of the dialects on generated input: no input panics, FICS's accept decision
//! is the value's truth, and an UnterMUD lock's stored form is a fixed point of setting.

use proptest::prelude::*;
use rulebook::dialect::{fics, icc, untermud};
use rulebook::source::FileId;

fn fics_text() -> impl Strategy<Value = String> {
    let atoms = prop::sample::select(vec![
        "1",
        "0",
        "7",
        "2147483647",
        " ",
        "(",
        ")",
        "!",
        "-",
        "+",
        "*",
        "/",
        "=",
        "!=",
        "<",
        ">=",
        "&",
        "|",
        "and",
        "or",
        "#",
        "minutes",
        "blitz",
        "rated",
        "rating",
        "time",
        "inc",
        "maxtime(",
        "mymaxtime",
        "f1",
        "f2",
        "f9",
        "ratingdiff",
        "x",
        ".",
    ]);
    prop::collection::vec(atoms, 0..14).prop_map(|v| v.concat())
}

fn request() -> impl Strategy<Value = fics::MatchRequest> {
    (
        0..40i32,
        0..40i32,
        0..40i32,
        0..40i32,
        any::<bool>(),
        -3000..3000i32,
    )
        .prop_map(
            |(time, inc, mytime, myinc, rated, rating)| fics::MatchRequest {
                time,
                inc,
                mytime,
                myinc,
                rated,
                rating: fics::Ratings {
                    blitz: rating,
                    standard: rating,
                    lightning: rating,
                    wild: rating,
                },
                ..Default::default()
            },
        )
}

fn world() -> untermud::World {
    serde_json::from_str(
        r#"{"mud": "DEEPMUD", "objects": {
            "0": {"name": "Lobby", "kind": "room", "location": null},
            "wizard": {"name": "UnterWiz", "kind": "player", "location": "0"},
            "21@DEEPMUD": {"name": "testbozo", "kind": "player", "location": "0"},
            "22@DEEPMUD": {"name": "gold key", "kind": "thing", "location": "wizard"},
            "28@DEEPMUD": {"name": "a&b", "kind": "thing", "location": "0"}}}"#,
    )
    .unwrap()
}

proptest! {
    #[test]
    fn fics_never_panics_and_accept_is_truth(text in fics_text(), f1 in fics_text(),
                                              req in request()) {
        let mut fvars = fics::FVars::new();
        let _ = fvars.set(fics::FVar::new(2).unwrap(), &f1, FileId(1));
        if let Ok(formula) = fics::MatchFormula::compile(&text, FileId(0), &fvars) {
            match formula.evaluate(&req) {
                Ok(ev) => prop_assert_eq!(formula.accepts(&req), ev.value != 0),
                Err(_) => prop_assert!(!formula.accepts(&req)),
            }
        }
    }

    #[test]
    fn icc_never_panics(text in "[a-z0-9 ()!=<>&|+*/#-]{0,30}") {
        if let Ok(f) = icc::IccFormula::compile(&text, FileId(0)) {
            let _ = f.evaluate(&icc::Challenge::default());
        }
    }

    #[test]
    fn untermud_stored_form_is_a_fixed_point(
        parts in prop::collection::vec(prop::sample::select(vec![
            "T", "F", "!", "&", "|", "(", ")", " ", "with ", "testbozo", "UnterWiz",
            "\"gold key\"", "a\\&b", "wizard", "21@DEEPMUD", "'", "x@ELSEWHERE",
        ]), 0..10)
    ) {
        let text = parts.concat();
        let w = world();
        if let Ok(lock) = untermud::Lock::compile(&text, FileId(0), &w) {
            let stored = lock.to_string();
            let again = untermud::Lock::compile(&stored, FileId(0), &w);
            prop_assert!(again.is_ok(), "{stored}");
            let again = again.unwrap();
            prop_assert_eq!(again.to_string(), stored.clone());
            for actor in ["wizard", "21@DEEPMUD"] {
                prop_assert_eq!(again.evaluate(&w, actor), lock.evaluate(&w, actor));
            }
        }
    }
}
