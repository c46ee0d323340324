//! Helpers shared by the integration tests (each test binary that needs them says
//! `mod support;`).

use rulebook::diagnostic::Diagnostic;

/// Problems as sorted `code span message` text: to compare two lists that hold the same
/// problems found in another order.
pub fn sorted(problems: &[Diagnostic]) -> Vec<String> {
    let mut out: Vec<String> = problems
        .iter()
        .map(|d| format!("{} {:?} {}", d.code.id, d.span, d.message))
        .collect();
    out.sort();
    out
}
