//! Hostile input (issue 31): what an editor, a downloaded dataset or a crafted file can send
//! rulebook, each on data generated here, each bounded in time (deadlines) and memory (the
//! binary runs under an address-space limit, `ulimit -v`).

mod characters;
mod cli;
mod control;
mod copies;
mod data;
mod fics;
mod frames;
mod fuzzed;
mod links;
mod protocol;
mod report_cost;
mod server;
mod sizes;
mod smaller;
mod workload;
