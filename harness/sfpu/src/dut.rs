//! The SFPU's DUT protocol, `sfpu-dut/1` (`docs/dut-protocol.md`): what its messages carry on the
//! ISA-neutral envelope and session of [`harness_core::dut`]. The harness's hello names the instruction
//! set and the chip (`isa`, `arch`); the DUT's names the chips it models (`archs`; absent:
//! Blackhole only) and may declare what it models (`features`, `refuses`). A
//! case carries the whole initial state as a state document and the program as `"0x%08x"` words;
//! a result carries a state document (the parts the DUT models, applied over the case's initial
//! state) and optionally the outcome's notes. `examples/dut-python/` is a working DUT to start
//! from.

use serde::Deserialize;
use serde_json::Value;
use sfpu_reference::State;
use sfpu_reference::isa::Arch;
use sfpu_reference::outcome::{Clause, Outcome};
use sfpu_reference::state::{Hex, StateDoc};

use crate::Sfpu;
use crate::declaration::Declaration;
use crate::features::{Feature, FeatureSet};
pub use harness_core::dut::process::{MAX_LINE, split_command_line};
pub use harness_core::dut::{
    MAX_CONSECUTIVE_FAULTS, MAX_CONSECUTIVE_TIMEOUTS, MAX_FAILED_STARTS, MIN_HELLO_TIMEOUT, ProtocolError,
    RefusedDut,
};
use harness_core::dut::{Protocol, process::quote};

/// The protocol identifier the harness sends in its hello and expects back.
pub const PROTOCOL: &str = "sfpu-dut/1";

/// One line an SFPU DUT wrote, validated.
pub type Answer = harness_core::dut::Answer<Declaration, StateDoc, Outcome>;

/// An SFPU DUT as a model.
pub type ExternalModel = harness_core::dut::ExternalModel<SfpuDut>;

/// `sfpu-dut/1`.
#[derive(Clone, Copy, Debug)]
pub struct SfpuDut;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutcomeNote {
    clause: String,
    lanes: Hex<8>,
}

fn strings(fields: &serde_json::Map<String, Value>, key: &str) -> Result<Option<Vec<String>>, ProtocolError> {
    match fields.get(key) {
        None => Ok(None),
        Some(v) => serde_json::from_value(v.clone())
            .map(Some)
            .map_err(|e| ProtocolError::new(format!("`hello` answer: `{key}`: {e}"))),
    }
}

impl Protocol for SfpuDut {
    type Isa = Sfpu;
    type Doc = StateDoc;
    const PROTOCOL: &'static str = PROTOCOL;
    const CHIP_FIELD: &'static str = "arch";
    const HELLO_FIELDS: &'static [&'static str] = &["features", "refuses", "archs"];
    // The state document's fields added after the first revision: the chip, and Wormhole's
    // SFPSHFT2 latch. A DUT that does not read the latch does not model it (`sfpshft2-latch`).
    const OPTIONAL_STATE_FIELDS: &'static [&'static str] = &["arch", "SFPSHFT2_vc0"];
    const DEFAULT_READS: &'static [&'static str] = &["arch", "SFPSHFT2_vc0"];

    fn hello_chips(fields: &serde_json::Map<String, Value>) -> Result<Vec<String>, ProtocolError> {
        Ok(strings(fields, "archs")?.unwrap_or_else(|| vec![Arch::Blackhole.to_string()]))
    }

    fn hello_declaration(
        fields: &serde_json::Map<String, Value>,
        reads: Option<&[String]>,
    ) -> Result<Option<Declaration>, ProtocolError> {
        let features = strings(fields, "features")?;
        let refuses = strings(fields, "refuses")?;
        // A DUT whose `reads` leaves out the latch never sees it: it does not model it.
        let latch_unread = reads.is_some_and(|r| !r.iter().any(|f| f == "SFPSHFT2_vc0"));
        if features.is_none() && refuses.is_none() && !latch_unread {
            return Ok(None);
        }
        let mut declaration = Declaration::from_hello(features.as_deref(), refuses.as_deref().unwrap_or(&[]))
            .map_err(|e| ProtocolError::new(format!("`hello` answer: {}", quote(&e))))?;
        if latch_unread {
            let declared = declaration.features.unwrap_or_else(FeatureSet::all);
            if features.is_some() && declared.contains(Feature::Sfpshft2Latch) {
                return Err(ProtocolError::new(
                    "`hello` answer: `features` names `sfpshft2-latch` but `reads` leaves out `SFPSHFT2_vc0`, \
                     the state it is",
                ));
            }
            declaration.features = Some(declared.difference([Feature::Sfpshft2Latch].into_iter().collect()));
        }
        Ok(Some(declaration))
    }

    fn result(state: Value, outcome: Option<Value>) -> Result<(StateDoc, Option<Outcome>), ProtocolError> {
        let state: StateDoc = serde_json::from_value(state)
            .map_err(|e| ProtocolError::new(format!("`result` answer: state: {e}")))?;
        // Without `arch` the document may be for either chip (the case's chip decides, when the
        // state is applied to its pre state): it must be a valid state of one of them.
        let valid = match state.arch {
            Some(_) => state.to_state().map(|_| ()),
            None => state.to_state().map(|_| ()).or_else(|e| {
                let mut wormhole = state.clone();
                wormhole.arch = Some(Arch::Wormhole);
                wormhole.to_state().map(|_| ()).map_err(|_| e)
            }),
        };
        if let Err(e) = valid {
            return Err(ProtocolError::new(format!("`result` answer: state: {e}")));
        }
        let outcome = match outcome {
            None => None,
            Some(notes) => {
                let notes: Vec<OutcomeNote> = serde_json::from_value(notes)
                    .map_err(|e| ProtocolError::new(format!("`result` answer: outcome: {e}")))?;
                let mut o = Outcome::defined();
                for n in notes {
                    let clause = Clause::from_id(&n.clause).ok_or_else(|| {
                        ProtocolError::new(format!(
                            "`result` answer: outcome: unknown clause `{}`",
                            quote(&n.clause)
                        ))
                    })?;
                    o.note(clause, n.lanes.0);
                }
                Some(o)
            }
        };
        Ok((state, outcome))
    }

    fn case_state(pre: &State) -> Value {
        serde_json::to_value(StateDoc::from_state(pre)).unwrap_or(Value::Null)
    }

    fn apply(pre: &State, doc: &StateDoc) -> Result<State, String> {
        let mut post = pre.clone();
        doc.apply_to(&mut post).map(|()| post).map_err(|e| e.to_string())
    }
}

/// Parses and validates one line an SFPU DUT wrote (without its `\n`; a trailing `\r` is
/// tolerated): [`harness_core::dut::parse_answer`] of `sfpu-dut/1`. Pure and total: any bytes give an
/// [`Answer`] or a [`ProtocolError`], never a panic.
pub fn parse_answer(line: &[u8]) -> Result<Answer, ProtocolError> {
    harness_core::dut::parse_answer::<SfpuDut>(line)
}
