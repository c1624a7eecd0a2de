//! The two models of AMX `vecfp` behind the seam's [`Model`] interface: the literal reference
//! model ([`AmxReference`], `amx-reference`) and the fast model ([`AmxFast`], `amx-fastpath`),
//! each running a program operand by operand on a copy of the state.

use amx_reference::{Chip, Operand, State};
use harness_core::isa::{Model, ModelError, Run};

use crate::amx::Amx;

/// The literal reference model (`amx-reference`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AmxReference;

/// The fast model (`amx-fastpath`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AmxFast;

impl Model<Amx> for AmxReference {
    fn name(&self) -> String {
        "reference".to_string()
    }

    fn run(&self, chip: Chip, pre: &State, program: &[Operand]) -> Result<Run<State, ()>, ModelError> {
        let mut s = pre.clone();
        for &op in program {
            amx_reference::vecfp(&mut s, chip, op);
        }
        Ok(Run { post: s, outcome: Some(()) })
    }
}

impl Model<Amx> for AmxFast {
    fn name(&self) -> String {
        "fastpath".to_string()
    }

    fn run(&self, chip: Chip, pre: &State, program: &[Operand]) -> Result<Run<State, ()>, ModelError> {
        let mut s = pre.clone();
        for &op in program {
            amx_fastpath::vecfp(&mut s, chip, op);
        }
        Ok(Run { post: s, outcome: Some(()) })
    }
}
