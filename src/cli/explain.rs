//! `rulebook explain PCC --character FILE VAR [--object KIND:KEY] [--part N]`: how one
//! variable of a character got its value — every modifier applied in order (source object,
//! file:line, kind, PRIORITY, formula, value before and after) and the variables it read.

use super::output::OutputArgs;
use clap::Args;
use rulebook::character::InstanceId;
use rulebook::character::file::split_object;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `rulebook explain --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook explain data/handsworld/handsworld.pcc --character data/sample-character.toml Hands
  rulebook explain data/handsworld/handsworld.pcc --character data/sample-character.toml STR.Mod
      (a local variable, named as calc prints it)
  rulebook explain data/handsworld/handsworld.pcc --character data/sample-character.toml Mod --object STAT:STR
  rulebook explain data/handsworld/handsworld.pcc --character data/sample-character.toml Damage \\
      --object 'EQUIPMENT:Bastard Sword' --part 1

Exit codes: 0 explained, 1 the character has problems, 2 usage error (no such variable).";

/// Arguments of `rulebook explain`.
#[derive(Args, Debug)]
pub struct ExplainArgs {
    /// The PCC file to load.
    pub pcc: PathBuf,
    /// The character file (TOML).
    #[arg(long)]
    pub character: PathBuf,
    /// The variable to explain: a global's name, or a local one as `rulebook calc` prints it
    /// (`STR.Mod`, `Club.PART1.Damage`), or its name with `--object`.
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
pub fn run(args: ExplainArgs, out: &OutputArgs) -> ExitCode {
    let policy = match out.policy() {
        Ok(p) => p,
        Err(e) => return super::usage_error(e),
    };
    let loaded = match super::calc::load(
        std::slice::from_ref(&args.pcc),
        args.pcgen_root.as_deref(),
        Some(&args.character),
    ) {
        Ok(mut l) => {
            policy.apply(&mut l.problems);
            l
        }
        Err(e) => return e.exit(out),
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
    // A local variable named as calc prints it (`STR.Mod`): find it among the solver's.
    let by_display_name = || {
        let solver = c.solver();
        (0..solver.variable_count())
            .filter_map(|i| u32::try_from(i).ok().map(rulebook::solve::VariableId))
            .find(|&v| {
                solver
                    .name(v)
                    .is_some_and(|n| n.eq_ignore_ascii_case(&args.var))
            })
            .and_then(|v| solver.explain(v))
    };
    let explained = c.explain(inst, &args.var).or_else(|| {
        if args.object.is_none() && args.part.is_none() {
            by_display_name()
        } else {
            None
        }
    });
    let Some(e) = explained else {
        let value = c.get(inst, &args.var);
        return match value {
            Some(v) => {
                super::calc::emit(&format!(
                    "{} = {v} (its format's default: no modifier applies)\n",
                    args.var
                ));
                ExitCode::SUCCESS
            }
            None => {
                let solver = c.solver();
                let names: Vec<&str> = (0..solver.variable_count())
                    .filter_map(|i| u32::try_from(i).ok().map(rulebook::solve::VariableId))
                    .filter_map(|v| solver.name(v))
                    .collect();
                let guess = guess(&args.var, &names)
                    .map(|g| format!("did you mean {g}? "))
                    .unwrap_or_default();
                super::usage_error(format!(
                    "there is no variable `{}` here ({guess}name a local one as `rulebook \
                     calc` prints it, e.g. `STR.Mod`, or give --object KIND:KEY)",
                    args.var
                ))
            }
        };
    };
    let sources = &loaded.set.load.sources;
    // Files named as in reports: from the current folder when below it.
    let view = out
        .render_options_at(super::output::Stream::Stdout, &loaded.set.load.root.root)
        .paths;
    let shown = |path: &str| {
        view.as_ref()
            .map_or_else(|| path.to_owned(), |v| v.show(path))
    };
    let mut text = String::new();
    let _ = writeln!(text, "{} = {}", e.name, e.value);
    let _ = writeln!(text, "  starts at {}", e.start);
    for (i, a) in e.applied.iter().enumerate() {
        let place = a
            .origin
            .span
            .and_then(|s| {
                let f = sources.get(s.file)?;
                let (line, _) = f.line_col(s.start as usize);
                Some(format!("{}:{line}", shown(&f.path)))
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
            text,
            "  {}. {} {} PRIORITY={}  from {from} at {place}\n       {outcome}",
            i + 1,
            a.kind,
            a.formula,
            a.priority
        );
    }
    if !e.reads.is_empty() {
        let _ = writeln!(text, "  reads:");
        for r in &e.reads {
            let _ = writeln!(text, "    {} = {}", r.name, r.value);
        }
    }
    super::calc::emit(&text);
    if super::calc::report(&loaded, out) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// The variables `wanted` may mean, quoted: the closest name, or else the local variables of
/// the object whose name is closest (`STRR`: `STR.Mod`, `STR.Score` or `STR.StatScore`).
fn guess(wanted: &str, names: &[&str]) -> Option<String> {
    if let Some(name) = rulebook::name::closest(wanted, names.iter().copied()) {
        return Some(format!("`{name}`"));
    }
    let mut objects: Vec<&str> = names
        .iter()
        .filter_map(|n| n.split_once('.'))
        .map(|(o, _)| o)
        .collect();
    objects.sort_unstable();
    objects.dedup();
    let object = rulebook::name::closest(wanted, objects)?;
    let mut locals: Vec<String> = names
        .iter()
        .filter(|n| n.split_once('.').is_some_and(|(o, _)| o == object))
        .map(|n| format!("`{n}`"))
        .collect();
    locals.sort();
    let more = locals.len().saturating_sub(3);
    locals.truncate(3);
    let last = locals.pop()?;
    Some(match (locals.is_empty(), more) {
        (true, _) => last,
        (false, 0) => format!("{} or {last}", locals.join(", ")),
        (false, n) => format!("{}, {last} or {n} more of {object}", locals.join(", ")),
    })
}

#[cfg(test)]
mod tests {
    use super::guess;

    #[test]
    fn a_mistyped_object_suggests_its_variables() {
        let names = ["Hands", "STR.Mod", "STR.Score", "STR.StatScore", "DEX.Mod"];
        assert_eq!(guess("Hnads", &names).as_deref(), Some("`Hands`"));
        assert_eq!(
            guess("STRR", &names).as_deref(),
            Some("`STR.Mod`, `STR.Score` or `STR.StatScore`")
        );
        assert_eq!(guess("Zzzzzz", &names), None);
    }
}
