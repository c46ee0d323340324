//! Item 9: control characters from data, a context file or the command line never reach the
//! terminal raw: `calc`, `graph`, the GitHub format and usage errors show them escaped.

use super::cli;
use super::data;
use std::time::Duration;

/// What a terminal must never receive from data: ESC (which starts a title change) and BEL.
fn raw_controls(text: &str) -> bool {
    text.contains('\u{1b}') || text.contains('\u{7}')
}

const EVIL: &str = "Evil\u{1b}]0;PWNED\u{7}";

fn run(args: &[&str]) -> cli::Run {
    cli::run(args, 1_000_000, Duration::from_secs(30))
}

#[test]
fn object_keys_reach_calc_and_graph_escaped() {
    let root = data::handsworld("control");
    let pcc = data::add_file(
        &root,
        "EQUIPMENT",
        "evil.lst",
        &format!("{EVIL}\tMODIFY:HandsRequired|SET|1\nEvil2\tNO{EVIL}SUCH:1\n"),
    );
    let character = root.join("evil.toml");
    std::fs::write(
        &character,
        "grant = [\"EQUIPMENT:Evil\\u001b]0;PWNED\\u0007\"]\n",
    )
    .unwrap();
    let (pcc, character) = (pcc.to_str().unwrap(), character.to_str().unwrap());
    for command in ["calc", "graph"] {
        let r = run(&[command, pcc, "--character", character]);
        assert!(
            r.stdout.contains("u{1b}]0;PWNED"),
            "{command}: {}",
            r.stdout
        );
        assert!(
            !raw_controls(&r.stdout) && !raw_controls(&r.stderr),
            "{command}"
        );
    }
    for format in ["human", "concise", "github", "json", "sarif"] {
        let r = run(&["check", pcc, "--format", format]);
        assert_eq!(r.code, Some(1), "{format}: {}", r.stderr);
        assert!(
            !raw_controls(&r.stdout) && !raw_controls(&r.stderr),
            "{format}: {}",
            r.stdout
        );
    }
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn usage_errors_quote_context_strings_and_arguments_escaped() {
    let context =
        std::env::temp_dir().join(format!("rulebook-hostile-ctl-{}.json", std::process::id()));
    std::fs::write(&context, r#"{"time": "\u001b]0;PWNED\u0007"}"#).unwrap();
    let r = run(&[
        "dialect",
        "fics",
        "time",
        "--context",
        context.to_str().unwrap(),
    ]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("\\u{1b}"), "{}", r.stderr);
    assert!(!raw_controls(&r.stderr), "{:?}", r.stderr);
    let r = run(&["eval", "1", "--as", EVIL]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(!raw_controls(&r.stderr), "{:?}", r.stderr);
    let r = run(&["check", "--deny", EVIL]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(!raw_controls(&r.stderr), "{:?}", r.stderr);
    let r = run(&[EVIL]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(!raw_controls(&r.stderr), "{:?}", r.stderr);
    std::fs::remove_file(&context).unwrap();
}
