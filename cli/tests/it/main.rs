//! The end-to-end tests of the `sfpu-conformance` command, through the built binary: one test
//! binary (regex-automata's layout), a module per command or concern, what they share in
//! [`common`].

mod common;

mod conform_amx_cli;
mod conform_cli;
mod declarations;
mod digest;
mod hostile;
mod install;
mod kernel_cli;
mod python_template;
mod report_cli;
mod run_amx_cli;
mod run_cli;
mod signals;
mod vectors_cli;
