//! Item 8: a human report's cost does not grow with the line number of what it reports:
//! many findings far down a file are drawn about as fast as their JSON is written.

use super::cli;
use super::data;
use std::time::Duration;

#[test]
fn findings_far_down_a_file_are_drawn_as_fast_as_json() {
    const LINES: usize = 20_000;
    let root = data::handsworld("report-cost");
    let text: String = (0..LINES)
        .map(|i| format!("Thing{i}\tKEY:Thing{i}\tMODIFY:Nope|SET|1\n"))
        .collect();
    let pcc = data::add_file(&root, "EQUIPMENT", "many.lst", &text);
    let pcc = pcc.to_str().unwrap();
    let patience = Duration::from_secs(120);
    let json = cli::run(&["check", pcc, "--format", "json"], 2_000_000, patience);
    assert_eq!(json.code, Some(1), "{}", json.stderr);
    let human = cli::run(&["check", pcc, "--color", "never"], 2_000_000, patience);
    assert_eq!(human.code, Some(1), "{}", human.stderr);
    assert!(
        human
            .stdout
            .contains(&format!(" {LINES} │ Thing{}", LINES - 1))
    );
    // main: 28 times the JSON's time (35 s); now about twice (debug build).
    assert!(
        human.took < json.took * 3 + Duration::from_secs(2),
        "human {:?}, JSON {:?}",
        human.took,
        json.took
    );
    std::fs::remove_dir_all(&root).unwrap();
}
