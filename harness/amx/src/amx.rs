//! The instruction set's type, [`Amx`], alone: the files that implement its parts (corpus, DUT
//! protocol, runner, run command) name it without depending on the seam's implementation in
//! [`crate::isa`], which calls them.

/// Apple AMX `vecfp`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Amx;
