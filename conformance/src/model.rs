//! The interface through which every implementation is checked: load a state, run a program,
//! read back the state and the outcome.

use sfpu_reference::isa::{Arch, decode};
use sfpu_reference::{Machine, Outcome, State};

/// What running a program produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The state after the program, with everything SFPLOADMACRO scheduled executed.
    pub post: State,
    /// The specification's verdict on the whole program (the union of every instruction's
    /// outcome), if the model reports one (external implementations need not).
    pub outcome: Option<Outcome>,
}

/// Why a model produced no result.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// The model does not implement something the case needs (an external implementation may say
    /// so instead of answering).
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The model failed to run the case (a bad word, a crash, a hang, a malformed answer).
    #[error("{0}")]
    Failed(String),
}

/// An implementation of the SFPU that can be checked.
///
/// `run` starts from `pre`, executes the instruction words of `program` in order (one issued per
/// cycle, as a thread would), lets anything SFPLOADMACRO scheduled run to completion, and returns
/// the final state with the outcome.
pub trait Model: Sync {
    /// A short name for reports.
    fn name(&self) -> String;
    /// What the model declares it models (the features beyond the baseline, the instructions and
    /// modes it refuses up front); `None`, the default, for everything. The runner gives the
    /// model only the cases its declaration covers and records the others as not applicable.
    fn declaration(&self) -> Option<&crate::sfpu::declaration::Declaration> {
        None
    }
    /// Runs one case.
    fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError>;
}

/// The literal reference model, `sfpu-reference`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reference;

impl Model for Reference {
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

impl Model for FastModel {
    fn name(&self) -> String {
        "fastpath".to_string()
    }

    fn run(&self, arch: Arch, pre: &State, program: &[u32]) -> Result<Run, ModelError> {
        let mut s = sfpu_fastpath::FastState::from_state(pre);
        let mut m = sfpu_fastpath::FastMachine::new();
        let mut outcome = Outcome::defined();
        for &word in program {
            let instr = decode(arch, word).map_err(|e| ModelError::Failed(e.to_string()))?;
            outcome.merge(&m.issue(&mut s, &instr));
        }
        outcome.merge(&m.drain(&mut s));
        Ok(Run { post: s.to_state(), outcome: Some(outcome) })
    }
}
