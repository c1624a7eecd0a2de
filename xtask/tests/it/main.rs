//! The end-to-end tests of xtask's chores, through the built binary: one test binary
//! (regex-automata's layout), a module per chore or concern, what they share in [`common`].

mod common;

mod bench_amx_cli;
mod bench_cli;
mod conform_cli;
mod hostile;
mod layout;
mod programs_cli;
