//! Helpers shared by the integration tests.

mod files;
pub mod lsp;

pub use files::copy_dir;

use rulebook::diagnostic::Diagnostic;

/// Problems as sorted `code span message` text: to compare two lists that hold the same
/// problems found in another order.
#[allow(dead_code)]
pub fn sorted(problems: &[Diagnostic]) -> Vec<String> {
    let mut out: Vec<String> = problems
        .iter()
        .map(|d| format!("{} {:?} {}", d.code.id, d.span, d.message))
        .collect();
    out.sort();
    out
}

/// Output bytes of a process as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs the `rulebook` binary with `args`: its exit code, standard output and error.
pub fn rulebook(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// One framed message (`Content-Length` header, blank line, JSON body) read from a language
/// server's output; `None` at the end of the stream or on a malformed frame.
#[allow(dead_code)]
pub fn read_message(r: &mut impl std::io::BufRead) -> Option<serde_json::Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}
