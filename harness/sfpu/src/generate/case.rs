//! One test case before it is run ([`Case`]), building its instructions from named fields
//! ([`build_for`]), and turning it into a golden vector on the reference model ([`to_vector`]):
//! what every generator of [`super`] (the opcode files, `sequences`, `streams`, `wormhole`,
//! `kernels`) makes its cases with.

use sfpu_reference::isa::{Arch, Instr, Opcode, decode};
use sfpu_reference::state::StateDoc;
use sfpu_reference::{Machine, State, hazard};

use crate::features::{encoding_tags, requires};
use crate::taint::Tracker;
use crate::vectors::promise::leave_out;
use crate::vectors::{Note, Vector, Word};

/// One test case before it is run: a program and the state it starts from.
#[derive(Clone, Debug)]
pub struct Case {
    /// The case's name within its mode (`specials`, `flags`, ...).
    pub name: String,
    /// The mode value it exercises, canonical form (`mod1=3`).
    pub mode: Option<String>,
    /// The mode value with the documentation's names, for the id (`mod1=NEGATE_VA+NEGATE_VC`).
    pub mode_label: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// The instructions.
    pub program: Vec<Instr>,
    /// The initial state.
    pub pre: State,
}

/// Runs `case` on the reference model and turns it into a vector of `file`. The chip is the
/// initial state's: the words and their text are that chip's encoding.
pub fn to_vector(file: &str, case: &Case) -> Vector {
    let arch = case.pre.arch();
    let mut s = case.pre.clone();
    let mut m = Machine::new();
    let mut tracker = Tracker::default();
    let mut outcome = sfpu_reference::Outcome::defined();
    let mut written = 0u32;
    for instr in &case.program {
        let o = m.issue(&mut s, instr);
        tracker.step(instr, &o);
        outcome.merge(&o);
        written |= hazard::actual(arch, instr, &sfpu_reference::ops::Ctx::REGULAR).writes;
    }
    let tail = m.drain(&mut s);
    if let Some(last) = case.program.last() {
        tracker.step(last, &tail);
    }
    outcome.merge(&tail);
    let id = match &case.mode_label {
        Some(label) => format!("{file}/{label}/{}", case.name),
        None => format!("{file}/{}", case.name),
    };
    let mut tags = case.tags.clone();
    for tag in encoding_tags(&case.program) {
        if !tags.iter().any(|t| t == tag) {
            tags.push(tag.to_string());
        }
    }
    // `post` states no value where `skip` covers: what the reference model computed there is not
    // promised.
    let mut post = StateDoc::changes(&case.pre, &s, written & 0x1_00FF);
    leave_out(&mut post, &tracker.unpromised);
    Vector {
        id,
        mode: case.mode.clone(),
        tags,
        requires: Some(requires(&case.pre, &case.program).to_vec()),
        program: case
            .program
            .iter()
            .map(|i| Word {
                // An instruction the chip cannot express has no word of its own; its Blackhole
                // word stands in (the vector's run then decodes it as the chip does).
                word: sfpu_reference::state::Hex(i.encode(arch).unwrap_or_else(|_| i.encode_blackhole())),
                text: i.display(arch).to_string(),
            })
            .collect(),
        pre: StateDoc::from_state(&case.pre),
        post,
        outcome: outcome
            .notes()
            .map(|(c, lanes)| Note {
                clause: c.id().to_string(),
                kind: c.kind(),
                section: c.section().to_string(),
                lanes: sfpu_reference::state::Hex(lanes),
            })
            .collect(),
        skip: (!tracker.unpromised.is_empty()).then_some(tracker.unpromised),
        non_contractual: (!tracker.non_contractual.is_empty()).then_some(tracker.non_contractual),
    }
}

/// Builds a Blackhole instruction of `op` from `fields` ([`build_for`] of Blackhole).
pub fn build(op: Opcode, fields: &[(&str, u32)]) -> Instr {
    build_for(Arch::Blackhole, op, fields)
}

/// Builds an instruction of `op` for `arch` from `fields` (name -> value): unset fields are zero,
/// fields the chip's encoding lacks are dropped and values are masked to the chip's widths (so the
/// result always encodes for `arch`). SFPNOP if the chip has no such opcode.
pub fn build_for(arch: Arch, op: Opcode, fields: &[(&str, u32)]) -> Instr {
    let mut word = (op.number() as u32) << 24;
    for f in op.fields(arch) {
        if let Some(&(_, v)) = fields.iter().find(|(n, _)| *n == f.name) {
            word |= (v << f.lo) & f.mask();
        }
    }
    // Every field is masked to its width, so the word decodes.
    decode(arch, word).unwrap_or(Instr::SFPNOP {})
}
