//! Runs AMX vectors on a model of the seam ([`Model`]`<`[`Amx`]`>`: the reference, the fast model,
//! a DUT) and compares the whole state after them (X and Y must be unchanged, Z as the vector
//! says), naming every register that differs.

use std::fmt::Write as _;

use amx_reference::state::reg_to_hex;
use amx_reference::{Chip, State};
use harness_core::isa::Model;

use crate::Amx;

use super::format::Checked;

/// One vector's result on one model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AmxResult {
    /// The vector's id.
    pub id: String,
    /// Its class.
    pub mode: String,
    /// `None` when it passed; otherwise the registers that differ, expected and got.
    pub failure: Option<String>,
}

/// The registers of `got` that differ from `expected`, as text.
pub fn differences(expected: &State, got: &State) -> Option<String> {
    let mut out = String::new();
    let pools = [
        ("X", &expected.X[..], &got.X[..]),
        ("Y", &expected.Y[..], &got.Y[..]),
        ("Z", &expected.Z[..], &got.Z[..]),
    ];
    for (name, e, g) in pools {
        for (i, (e, g)) in e.iter().zip(g).enumerate() {
            if e != g {
                let _ =
                    writeln!(out, "{name}[{i}]:\n  expected {}\n  got      {}", reg_to_hex(e), reg_to_hex(g));
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Runs every vector of one file on `model` (a model that fails to run a vector fails it).
pub fn run_file(model: &dyn Model<Amx>, chip: Chip, vectors: &[Checked]) -> Vec<AmxResult> {
    vectors
        .iter()
        .map(|v| {
            let failure = match model.run(chip, &v.pre, &v.program) {
                Ok(run) => differences(&v.expected, &run.post),
                Err(e) => Some(e.to_string()),
            };
            AmxResult { id: v.id.clone(), mode: v.mode.clone(), failure }
        })
        .collect()
}
