//! Public vectors whose reference result is one of the Java artefacts rulebook's policy
//! rejects, but which carry no `rulebook` override of their own.
//!
//! The conformance README states the policy (rule 1): NUMBER arithmetic is exact, with no
//! 32-bit wrap-around; division by zero and results out of range are evaluation errors, never
//! Infinity or NaN; numeric equality ignores scale and the sign of zero. Most vectors whose
//! reference result contradicts it carry a `rulebook` object saying what rulebook must do;
//! the ones below do not, although the same rule decides them. For each, this table states
//! rulebook's expected outcome — a specific value or a specific error category, worked out by
//! hand from exact arithmetic — and the runner applies it exactly like a `rulebook` object.
//! Nothing is skipped: a listed vector still fails if rulebook does anything else.
//! `docs/conformance.md` lists them with the reference's answer beside ours.

use serde_json::{Value as Json, json};

/// What rulebook must do instead of what the reference did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// This NUMBER or BOOLEAN value, printed.
    Value(&'static str, &'static str),
    /// An error of this category.
    Error(&'static str),
}

const WRAP: &str =
    "exact arithmetic: the reference wraps 32-bit integers; rulebook computes the exact value";
const INF: &str = "exact arithmetic: the reference computes with Infinity/NaN; rulebook reports the division by zero";
const EXACT: &str =
    "exact arithmetic: 0.1+0.2 is exactly 0.3 in decimals; the reference compares doubles";
const ZERO: &str =
    "numeric equality: 0.0 equals -0.0 (the README's rule; the reference uses Double.equals)";
const SCALE: &str = "numeric equality: 3.50,4 equals 3.5,4 (the README's rule; the reference uses BigDecimal.equals)";
const SLICE: &str = "the reference pads the slice with nulls and cannot print it; rulebook reports the end beyond the array";

/// The deviations: vector id, rulebook's outcome, why. Formulas are in the comments.
pub const DEVIATIONS: &[(&str, Expected, &str)] = &[
    (
        "arithmetic-0c2c718494",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // (1/0)*0
    (
        "arithmetic-1ba68b0856",
        Expected::Value("NUMBER", "2147483648"),
        WRAP,
    ), // -(-2147483647-1)
    (
        "arithmetic-207df239ba",
        Expected::Value("NUMBER", "4294967294"),
        WRAP,
    ), // 2147483647*2
    (
        "arithmetic-3e0e77e1b5",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // 0*(1/0)
    (
        "arithmetic-4746620fe0",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // 1/(1/0)
    (
        "arithmetic-955ae9730c",
        Expected::Value("NUMBER", "1000000000000"),
        WRAP,
    ), // 1000000*1000000
    (
        "arithmetic-c15883500b",
        Expected::Value("NUMBER", "4294967296"),
        WRAP,
    ), // 65536*65536
    (
        "arithmetic-f451450262",
        Expected::Value("NUMBER", "1073741824"),
        WRAP,
    ), // (2147483647+1)/2
    (
        "comparison-2d1105c647",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // (1/0)>2147483647
    (
        "comparison-31ab4b8876",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // (0/0)==0
    (
        "comparison-85daa6075a",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // (0/0)!=(0/0)
    (
        "comparison-9be7d79650",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // (0/0)<1
    (
        "comparison-b860270093",
        Expected::Value("BOOLEAN", "false"),
        ZERO,
    ), // 0.0!=-0.0
    (
        "comparison-c57cfcc6a2",
        Expected::Value("BOOLEAN", "false"),
        WRAP,
    ), // 2147483647+1<0
    (
        "comparison-d896795f1f",
        Expected::Value("BOOLEAN", "true"),
        EXACT,
    ), // 0.1+0.2==0.3
    (
        "comparison-eae84d3b7d",
        Expected::Value("BOOLEAN", "true"),
        ZERO,
    ), // -0.0==0.0
    (
        "functions-2c1fd23d3e",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // max(0/0,1)
    (
        "functions-4ee576bf86",
        Expected::Value("NUMBER", "2147483648"),
        WRAP,
    ), // round(2147483647.5)
    (
        "functions-73e8109bbe",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // min(1,0/0)
    (
        "functions-7529839e85",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // round(0/0)
    (
        "functions-950c13f62a",
        Expected::Error("eval_illegal_argument"),
        SLICE,
    ), // slice(x,1,10), x = 1,2,3
    (
        "functions-bb3502af86",
        Expected::Error("eval_arithmetic"),
        INF,
    ), // ceil(-1/0)
    (
        "functions-e3974b54c7",
        Expected::Value("NUMBER", "-2147483649"),
        WRAP,
    ), // round(-2147483648.6)
    (
        "orderedpair_dice-4e597102b1",
        Expected::Value("BOOLEAN", "true"),
        SCALE,
    ), // t==u, 3.50,4 and 3.5,4
    (
        "variables-adde875185",
        Expected::Value("NUMBER", "2147488281"),
        WRAP,
    ), // a*a, a = 46341
];

/// The override for vector `id`, as a `rulebook` object, if the table lists it.
pub fn override_for(id: &str) -> Option<Json> {
    DEVIATIONS
        .iter()
        .find(|(v, _, _)| *v == id)
        .map(|(_, expected, why)| match expected {
            Expected::Value(format, value) => {
                json!({"expect": {"format": format, "value": value}, "why": why})
            }
            Expected::Error(category) => json!({"expect_error": category, "why": why}),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique() {
        let mut ids: Vec<_> = DEVIATIONS.iter().map(|d| d.0).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), DEVIATIONS.len());
    }

    #[test]
    fn override_has_the_rulebook_shape() {
        let o = override_for("arithmetic-207df239ba");
        assert_eq!(
            o.and_then(|o| o["expect"]["value"].as_str().map(str::to_owned)),
            Some("4294967294".to_owned())
        );
        assert!(override_for("no-such-vector").is_none());
    }
}
