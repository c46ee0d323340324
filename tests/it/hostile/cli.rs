//! The `rulebook` binary run like `rulebook check …` from a shell, under the same memory
//! limit as the server and with a deadline.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a run printed and how it ended (`None`: it was killed at the deadline or by a
/// signal).
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub took: Duration,
}

/// Runs `rulebook ARGS` under an address-space limit of `limit_kib`, killed after `patience`.
pub fn run(args: &[&str], limit_kib: u64, patience: Duration) -> Run {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn rulebook");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let stderr = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > patience {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let text = |b: Vec<u8>| String::from_utf8_lossy(&b).into_owned();
    Run {
        code: status.and_then(|s| s.code()),
        stdout: text(stdout.join().unwrap()),
        stderr: text(stderr.join().unwrap()),
        took: start.elapsed(),
    }
}
