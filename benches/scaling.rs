//! Issue 31's scaling items, each beside a linear baseline measured in the same run, on data
//! generated here:
//!
//! - memory: a `.COPY=` chain against as many plain objects (the chain's copies are capped,
//!   `M0131`, so what it adds must stay flat as it grows), and a character file's grants
//!   against an empty character file (the bytes per grant must stay flat); peak RSS of the
//!   `rulebook` process, printed as a table;
//! - time: a keystroke in a file that 10,000 PCCs share (the session the language server
//!   runs) against `rulebook check` of those load sets (target ≤ 2×); the diagnostics of a
//!   file with 100,000 findings made ready to publish against `rulebook check --format json`
//!   (≤ 2×); `--format human` against `--format json` (≤ 2×).

use criterion::{Criterion, criterion_group, criterion_main};
use rulebook::lsp::Session;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

#[path = "../tests/it/support/files.rs"]
mod files;
use files::copy_dir;

/// A fresh folder under the temporary directory.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rulebook-scaling-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A copy of the project's example (`system`, `data/handsworld`) with `extra` added to the
/// dataset as an EQUIPMENT file: the root and the PCC.
fn handsworld(name: &str, extra: &str) -> (PathBuf, PathBuf) {
    let root = temp(name);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    copy_dir(&data.join("system"), &root.join("system"));
    let set = root.join("data/handsworld");
    copy_dir(&data.join("handsworld"), &set);
    std::fs::write(set.join("extra.lst"), extra).unwrap();
    let pcc = set.join("handsworld.pcc");
    let mut listed = std::fs::read_to_string(&pcc).unwrap();
    listed.push_str("EQUIPMENT:extra.lst\n");
    std::fs::write(&pcc, listed).unwrap();
    (root, pcc)
}

/// Runs the `rulebook` binary with `args`, its output discarded: its peak resident memory
/// in KiB (from `wait4`, this child's alone).
// Waited for with `wait4` (for the child's own usage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak_kib(args: &[&str]) -> i64 {
    let child = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `usage` is a plain C struct the call fills; `pid` is our child, waited once.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid);
    usage.ru_maxrss
}

/// Runs the `rulebook` binary with `args`, reading and dropping its output.
fn run(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .args(args)
        .output()
        .unwrap();
    black_box(out.stdout.len());
}

/// `C0`, then `C{i}.COPY=C{i+1}`, each with one MODIFY; `copies` false: the same number of
/// plain objects.
fn objects(n: usize, copies: bool) -> String {
    let mut text = "C0\tKEY:C0\tMODIFY:HandsRequired|ADD|1\n".to_owned();
    for i in 0..n {
        let head = if copies {
            format!("C{i}.COPY=C{}", i + 1)
        } else {
            format!("C{}\tKEY:C{}", i + 1, i + 1)
        };
        text.push_str(&head);
        text.push_str("\tMODIFY:HandsRequired|ADD|1\n");
    }
    text
}

/// Peak memory of `rulebook check` of a `.COPY=` chain and of as many plain objects, and of
/// `rulebook calc` over `n` grants and over none: printed, not timed.
fn memory(_: &mut Criterion) {
    eprintln!("scaling/memory: peak RSS of the rulebook process (KiB)");
    eprintln!("  .COPY= chain  | n | chain | plain objects | chain - plain");
    for n in [1_000, 4_000, 16_000] {
        let (root, chain) = handsworld("chain", &objects(n, true));
        let with = peak_kib(&["check", chain.to_str().unwrap(), "--format", "json"]);
        let (root2, plain) = handsworld("plain", &objects(n, false));
        let without = peak_kib(&["check", plain.to_str().unwrap(), "--format", "json"]);
        eprintln!("  | {n} | {with} | {without} | {} |", with - without);
        std::fs::remove_dir_all(root).unwrap();
        std::fs::remove_dir_all(root2).unwrap();
    }
    let pcc = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/handsworld/handsworld.pcc");
    let dir = temp("grants");
    let calc = |n: usize| {
        let mut text = "grant = [\n".to_owned();
        for _ in 0..n {
            text.push_str("  \"EQUIPMENT:Longsword\",\n");
        }
        text.push_str("]\n");
        let file = dir.join(format!("c{n}.toml"));
        std::fs::write(&file, text).unwrap();
        peak_kib(&[
            "calc",
            pcc.to_str().unwrap(),
            "--character",
            file.to_str().unwrap(),
            "--format",
            "json",
        ])
    };
    let none = calc(0);
    eprintln!("  character grants | n | peak | over none | bytes per grant");
    for n in [2_500, 5_000, 10_000] {
        let peak = calc(n);
        let per = (peak - none) * 1024 / i64::try_from(n).unwrap();
        eprintln!("  | {n} | {peak} | {} | {per} |", peak - none);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A keystroke in a file 10,000 PCCs share, against `rulebook check` of their load sets.
fn shared_file(c: &mut Criterion) {
    const PCCS: usize = 10_000;
    let root = temp("shared");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("data/system"),
        &root.join("system"),
    );
    let shared = root.join("data/shared/shared.lst");
    std::fs::create_dir_all(shared.parent().unwrap()).unwrap();
    let text = "Climb\tKEY:Climb\n";
    std::fs::write(&shared, text).unwrap();
    for i in 0..PCCS {
        let dir = root.join(format!("data/p{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join(format!("p{i}.pcc")),
            format!("CAMPAIGN:P{i}\nKEY:P{i}\nGAMEMODE:Handsworld\nSKILL:@/shared/shared.lst\n"),
        )
        .unwrap();
    }
    let shared = rulebook::load::fs::normalize(&shared);
    let typed = format!("{text}Swim\tKEY:Swim\tNOSUCHTOKEN:1\n");
    let mut session = Session::new(Some(&root));
    session.open(&shared, text, 0);
    let mut g = c.benchmark_group("shared_by_10k_pccs");
    g.sample_size(10);
    let mut version = 0;
    g.bench_function("keystroke", |b| {
        b.iter(|| {
            version += 1;
            let now = if version % 2 == 0 { text } else { &typed };
            black_box(session.change(&shared, now, version))
        })
    });
    let data = root.join("data");
    g.bench_function("baseline_check_cli", |b| {
        b.iter(|| run(&["check", data.to_str().unwrap(), "--format", "json"]))
    });
    g.finish();
    std::fs::remove_dir_all(root).unwrap();
}

/// A file with 100,000 findings: the diagnostics ready to publish against the JSON report,
/// and the human report against the JSON one.
fn many_findings(c: &mut Criterion) {
    let text: String = (0..100_000)
        .map(|i| format!("Thing{i}\tKEY:Thing{i}\tMODIFY:Nope|SET|1\n"))
        .collect();
    let (root, pcc) = handsworld("findings", &text);
    let file = rulebook::load::fs::normalize(&pcc.with_file_name("extra.lst"));
    let pcc = pcc.to_str().unwrap().to_owned();
    let mut g = c.benchmark_group("findings_100k");
    g.sample_size(10);
    g.bench_function("lsp_open_to_publish", |b| {
        b.iter(|| {
            let mut session = Session::new(Some(&root));
            black_box(session.open(&file, &text, 0))
        })
    });
    g.bench_function("baseline_check_json", |b| {
        b.iter(|| run(&["check", &pcc, "--format", "json"]))
    });
    g.bench_function("check_human", |b| {
        b.iter(|| run(&["check", &pcc, "--format", "human", "--color", "never"]))
    });
    g.finish();
    std::fs::remove_dir_all(root).unwrap();
}

criterion_group!(benches, memory, shared_file, many_findings);
criterion_main!(benches);
