//! Fuzz target: arbitrary bytes as one LST file, listed by a minimal PCC in a `MemoryFs`,
//! through the whole pipeline — load, model build, formula checks — and both renderings of
//! the diagnostics (human with ariadne, JSON), without a panic. The first byte picks the
//! PCC token the file is listed under (each kind has its own line grammar); the rest is the
//! file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rulebook::load::{FileKind, MemoryFs, PcgenRoot};
use rulebook::check::{check_load_set, json_output, render_human, summary};
use std::path::{Path, PathBuf};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let kinds = FileKind::LOAD_ORDER;
    let kind = kinds[usize::from(pick) % kinds.len()];
    let fs = MemoryFs::new()
        .with("/r/system/gameModes/G/miscinfo.lst", "ALLOWEDMODES:G\n")
        .with(
            "/r/data/t.pcc",
            format!("CAMPAIGN:T\nGAMEMODE:G\n{}:f.lst\n", kind.token()),
        )
        .with("/r/data/f.lst", body.to_vec());
    let Some(root) = PcgenRoot::find(&fs, Path::new("/r/data")) else {
        return;
    };
    let set = check_load_set(&fs, &root, &[PathBuf::from("/r/data/t.pcc")]);
    let sets = [set];
    let _ = render_human(&sets, false);
    let _ = serde_json::to_string(&json_output(&sets));
    let _ = summary(&sets).line();
});
