//! `rulebook explain PCC --character FILE VAR [--object KIND:KEY] [--part N]`: how one
//! variable of a character got its value — every modifier applied in order (source object,
//! file:line, kind, PRIORITY, formula, value before and after) and the variables it read.

use clap::Args;
use rulebook::character::InstanceId;
use rulebook::character::file::split_object;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `rulebook explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The PCC file to load.
    pub pcc: PathBuf,
    /// The character file (TOML).
    #[arg(long)]
    pub character: PathBuf,
    /// The variable to explain.
    pub var: String,
    /// The granted object whose (local) variable it is, as `KIND:KEY` (default: global).
    #[arg(long)]
    pub object: Option<String>,
    /// A part of that object (equipment `PART:n`).
    #[arg(long)]
    pub part: Option<u32>,
    /// The PCGen root (found from the PCC if absent).
    #[arg(long)]
    pub pcgen_root: Option<PathBuf>,
}

/// Runs `rulebook explain`.
pub fn run(args: ExplainArgs) -> ExitCode {
    let loaded = match super::calc::load(
        std::slice::from_ref(&args.pcc),
        args.pcgen_root.as_deref(),
        Some(&args.character),
    ) {
        Ok(l) => l,
        Err(e) => return e.exit(),
    };
    let c = &loaded.character;
    let mut inst = InstanceId::GLOBAL;
    if let Some(o) = &args.object {
        let Some((kind, key)) = split_object(o) else {
            return super::usage_error(format!("--object `{o}` is not KIND:KEY"));
        };
        match c.instance_of(kind, key) {
            Some(i) => inst = i,
            None => return super::usage_error(format!("`{o}` is not granted to this character")),
        }
    }
    if let Some(n) = args.part {
        match c.part(inst, n) {
            Some(p) => inst = p,
            None => return super::usage_error(format!("the object has no part {n}")),
        }
    }
    let Some(e) = c.explain(inst, &args.var) else {
        let value = c.get(inst, &args.var);
        return match value {
            Some(v) => {
                super::calc::emit(&format!(
                    "{} = {v} (its format's default: no modifier applies)\n",
                    args.var
                ));
                ExitCode::SUCCESS
            }
            None => super::usage_error(format!("there is no variable `{}` here", args.var)),
        };
    };
    let sources = &loaded.set.load.sources;
    let mut out = String::new();
    let _ = writeln!(out, "{} = {}", e.name, e.value);
    let _ = writeln!(out, "  starts at {}", e.start);
    for (i, a) in e.applied.iter().enumerate() {
        let place = a
            .origin
            .span
            .and_then(|s| {
                let f = sources.get(s.file)?;
                let (line, _) = f.line_col(s.start as usize);
                Some(format!("{}:{line}", f.path))
            })
            .unwrap_or_else(|| "-".into());
        let from = a
            .origin
            .object
            .as_ref()
            .map(|o| o.to_string())
            .unwrap_or_else(|| "global".into());
        let outcome = match &a.error {
            Some(err) => format!("skipped: {err}"),
            None => format!("{} -> {}", a.before, a.after),
        };
        let _ = writeln!(
            out,
            "  {}. {} {} PRIORITY={}  from {from} at {place}\n       {outcome}",
            i + 1,
            a.kind,
            a.formula,
            a.priority
        );
    }
    if !e.reads.is_empty() {
        let _ = writeln!(out, "  reads:");
        for r in &e.reads {
            let _ = writeln!(out, "    {} = {}", r.name, r.value);
        }
    }
    super::calc::emit(&out);
    if super::calc::report(&loaded) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
