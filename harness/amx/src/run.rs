//! Runs AMX vectors on a model and compares the whole state after them (X and Y must be
//! unchanged, Z as the vector says), naming every register that differs.

use std::fmt::Write as _;

use amx_reference::state::reg_to_hex;
use amx_reference::{Chip, Operand, State};

use super::format::Checked;

/// A model of `vecfp`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmxModel {
    /// The literal reference model (`amx-reference`).
    Reference,
    /// The fast model (`amx-fastpath`).
    Fast,
}

impl AmxModel {
    /// Both models, reference first.
    pub const ALL: [AmxModel; 2] = [AmxModel::Reference, AmxModel::Fast];

    /// The model's name in reports.
    pub fn name(self) -> &'static str {
        match self {
            AmxModel::Reference => "reference",
            AmxModel::Fast => "fastpath",
        }
    }

    /// Runs `program` on `state`.
    pub fn run(self, chip: Chip, state: &mut State, program: &[Operand]) {
        for &op in program {
            match self {
                AmxModel::Reference => amx_reference::vecfp(state, chip, op),
                AmxModel::Fast => amx_fastpath::vecfp(state, chip, op),
            }
        }
    }
}

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

/// Runs every vector of one file on `model`.
pub fn run_file(model: AmxModel, chip: Chip, vectors: &[Checked]) -> Vec<AmxResult> {
    vectors
        .iter()
        .map(|v| {
            let mut s = v.pre.clone();
            model.run(chip, &mut s, &v.program);
            AmxResult { id: v.id.clone(), mode: v.mode.clone(), failure: differences(&v.expected, &s) }
        })
        .collect()
}
