//! The interface through which every implementation is checked: load a state, run a program,
//! read back the state and the outcome.

use sfpu_reference::isa::{Arch, decode};
use sfpu_reference::{Machine, Outcome, State};

use crate::Sfpu;

pub use harness_core::isa::ModelError;

/// What running a program produced: the state after it (everything SFPLOADMACRO scheduled
/// executed) and the union of every instruction's outcome, if the model reports one.
pub type Run = harness_core::isa::Run<State, Outcome>;

/// An implementation of the SFPU that can be checked: the seam's [`harness_core::isa::Model`] for
/// [`Sfpu`] (implement that trait; every implementation of it is a `Model`).
///
/// `run` starts from `pre`, executes the instruction words of `program` in order (one issued per
/// cycle, as a thread would), lets anything SFPLOADMACRO scheduled run to completion, and returns
/// the final state with the outcome.
pub trait Model: harness_core::isa::Model<Sfpu> {}

impl<T: harness_core::isa::Model<Sfpu> + ?Sized> Model for T {}

/// The literal reference model, `sfpu-reference`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl harness_core::isa::Model<Sfpu> for Reference {
    fn name(&self) -> String {
        "reference".to_string()
    }

    fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
        let mut s = pre.clone();
        let mut m = Machine::new();
        let mut outcome = Outcome::defined();
        for &word in program {
            let instr = decode(arch, word).map_err(|e| ModelError::Failed(e.to_string()))?;
            outcome.merge(&m.issue(&mut s, &instr));
        }
        outcome.merge(&m.drain(&mut s));
        Ok(Run { post: s, outcome: Some(outcome) })
    }
}

/// The optimised model, `sfpu-fastpath`, written independently of the reference.
#[derive(Clone, Copy, Debug, Default)]
pub struct FastModel;

impl harness_core::isa::Model<Sfpu> for FastModel {
    fn name(&self) -> String {
        "fastpath".to_string()
    }

    fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
        // The program decoded once (`sfpu_fastpath::Program`), issued, then drained.
        let instrs = program
            .iter()
            .map(|&word| decode(arch, word).map_err(|e| ModelError::Failed(e.to_string())))
            .collect::<Result<Vec<_>, _>>()?;
        let mut s = sfpu_fastpath::FastState::from_state(pre);
        let mut m = sfpu_fastpath::FastMachine::new();
        let mut outcome = m.run(&mut s, &sfpu_fastpath::Program::new(&instrs));
        outcome.merge(&m.drain(&mut s));
        Ok(Run { post: s.to_state(), outcome: Some(outcome) })
    }
}
