//! `rulebook graph PCC... [--character FILE] [--var VAR]`: the dependency graph of a
//! character's variables as DOT (an edge `a -> b` when a modifier of `b` reads `a`). With
//! `--var`, only the variables it depends on and those depending on it.

use super::output::OutputArgs;
use clap::Args;
use petgraph::Direction;
use petgraph::graph::NodeIndex;
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Examples shown by `rulebook graph --help`.
pub const EXAMPLES: &str = "Examples:
  rulebook graph data/handsworld/handsworld.pcc --character data/sample-character.toml | dot -Tsvg > graph.svg
  rulebook graph data/handsworld/handsworld.pcc --character data/sample-character.toml --var STR.Mod

Exit codes: 0 written, 1 the character has problems, 2 usage error.";

/// Arguments of `rulebook graph`.
#[derive(Args, Debug)]
pub struct GraphArgs {
    /// PCC files loaded together.
    #[arg(required = true)]
    pub pcc: Vec<PathBuf>,
    /// The character file (TOML); without it, a character with only the global modifiers.
    #[arg(long)]
    pub character: Option<PathBuf>,
    /// Only the part of the graph connected to this variable (name as `rulebook calc` prints).
    #[arg(long)]
    pub var: Option<String>,
    /// The PCGen root (found from the PCC if absent).
    #[arg(long)]
    pub pcgen_root: Option<PathBuf>,
}

fn reach(
    g: &petgraph::graph::DiGraph<(), u32>,
    start: NodeIndex,
    dir: Direction,
    out: &mut BTreeSet<usize>,
) {
    let mut todo = vec![start];
    while let Some(n) = todo.pop() {
        for m in g.neighbors_directed(n, dir) {
            if out.insert(m.index()) {
                todo.push(m);
            }
        }
    }
}

/// A DOT string of `s`: control characters escaped first (`\u{1b}`), so the backslash of
/// the escape is itself escaped and DOT shows it as written.
fn quote(s: &str) -> String {
    let s = rulebook::diagnostic::escape::escape(s);
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// Runs `rulebook graph`.
pub fn run(args: GraphArgs, out: &OutputArgs) -> ExitCode {
    let policy = match out.policy() {
        Ok(p) => p,
        Err(e) => return super::usage_error(e),
    };
    let loaded = match super::calc::load(
        &args.pcc,
        args.pcgen_root.as_deref(),
        args.character.as_deref(),
    ) {
        Ok(mut l) => {
            policy.apply(&mut l.problems);
            l
        }
        Err(e) => return e.exit(out),
    };
    let solver = loaded.character.solver();
    let g = solver.graph();
    let keep: Option<BTreeSet<usize>> = match &args.var {
        None => None,
        Some(v) => {
            let found = (0..solver.variable_count()).find(|&i| {
                solver
                    .name(rulebook::solve::VariableId(
                        u32::try_from(i).unwrap_or(u32::MAX),
                    ))
                    .is_some_and(|n| n.eq_ignore_ascii_case(v))
            });
            let Some(i) = found else {
                return super::usage_error(format!(
                    "there is no variable `{v}` (names as `rulebook calc` prints them)"
                ));
            };
            let mut set = BTreeSet::from([i]);
            reach(g, NodeIndex::new(i), Direction::Incoming, &mut set);
            reach(g, NodeIndex::new(i), Direction::Outgoing, &mut set);
            Some(set)
        }
    };
    let shown = |i: usize| keep.as_ref().is_none_or(|k| k.contains(&i));
    let mut text = String::from("digraph variables {\n  rankdir=LR;\n  node [shape=box];\n");
    for i in 0..solver.variable_count() {
        if !shown(i) {
            continue;
        }
        let id = rulebook::solve::VariableId(u32::try_from(i).unwrap_or(u32::MAX));
        let name = solver.name(id).unwrap_or("?");
        let value = solver.value(id).map(|v| v.to_string()).unwrap_or_default();
        let _ = writeln!(
            text,
            "  n{i} [label={}];",
            quote(&format!("{name} = {value}"))
        );
    }
    for e in g.edge_indices() {
        if let Some((a, b)) = g.edge_endpoints(e) {
            if shown(a.index()) && shown(b.index()) {
                let _ = writeln!(text, "  n{} -> n{};", a.index(), b.index());
            }
        }
    }
    text.push_str("}\n");
    super::calc::emit(&text);
    if super::calc::report(&loaded, out) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
