//! Item 3: FICS f-variables that refer to the one below several times are evaluated once
//! per request, not once per reference (exponential).

use super::cli;
use std::time::Duration;

#[test]
fn f_variables_referring_twelve_times_to_the_one_below_evaluate_at_once() {
    let mut f = serde_json::Map::new();
    f.insert("f1".into(), "rated".into());
    for k in 2..=9 {
        let below = format!("f{}", k - 1);
        f.insert(format!("f{k}"), [below.as_str(); 12].join("+").into());
    }
    let context = serde_json::json!({"time": 5, "inc": 0, "rated": 1, "f": f});
    let path =
        std::env::temp_dir().join(format!("rulebook-hostile-fics-{}.json", std::process::id()));
    std::fs::write(&path, context.to_string()).unwrap();
    let run = cli::run(
        &["dialect", "fics", "f9", "--context", path.to_str().unwrap()],
        1_000_000,
        Duration::from_secs(10),
    );
    // 12^8 references to f1 (each 1).
    assert_eq!(
        run.code,
        Some(0),
        "{} {} {:?}",
        run.stdout,
        run.stderr,
        run.took
    );
    assert!(run.stdout.contains("value: 429981696"), "{}", run.stdout);
    std::fs::remove_file(&path).unwrap();
}
