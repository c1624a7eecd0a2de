//! AMX's DUT protocol, `amx-dut/1` (`docs/dut-protocol.md`, "AMX"): what its messages carry on
//! the ISA-neutral envelope and session of [`harness_core::dut`]. The harness's hello names the
//! instruction set and the chip profile (`isa: "amx"`, `chip: "m2"`); the DUT's names the profiles
//! it models (`chips`, required). A case carries the whole initial state as an AMX state document
//! (`amx_reference::StateDoc`: X, Y and Z registers as bytes in memory order) and the operands as
//! `"0x%016x"` strings; a result carries a state document (the registers it lists, applied over
//! the case's initial state; `vecfp` writes only Z). `vecfp` has no undefined results, so a
//! result has no outcome. `examples/amx/dut-python/` is a working DUT to start from.

use amx_reference::{State, StateDoc};
use serde_json::Value;

pub use harness_core::dut::ProtocolError;
use harness_core::dut::{Protocol, process::quote};
use harness_core::isa::Isa;

use crate::Amx;

/// The protocol identifier the harness sends in its hello and expects back.
pub const PROTOCOL: &str = "amx-dut/1";

/// One line an AMX DUT wrote, validated.
pub type Answer = harness_core::dut::Answer<(), StateDoc, ()>;

/// An AMX DUT as a model.
pub type ExternalModel = harness_core::dut::ExternalModel<AmxDut>;

/// `amx-dut/1`.
#[derive(Clone, Copy, Debug)]
pub struct AmxDut;

impl Protocol for AmxDut {
    type Isa = Amx;
    type Doc = StateDoc;
    const PROTOCOL: &'static str = PROTOCOL;
    const CHIP_FIELD: &'static str = "chip";
    const HELLO_FIELDS: &'static [&'static str] = &["chips"];

    fn hello_chips(fields: &serde_json::Map<String, Value>) -> Result<Vec<String>, ProtocolError> {
        let chips: Vec<String> = match fields.get("chips") {
            Some(v) => serde_json::from_value(v.clone())
                .map_err(|e| ProtocolError::new(format!("`hello` answer: `chips`: {e}")))?,
            None => {
                return Err(ProtocolError::new(
                    "`hello` answer: missing field `chips` (the chip profiles it models)",
                ));
            }
        };
        // `m3` is the `m2` profile.
        let mut out = Vec::with_capacity(chips.len());
        for c in chips {
            let chip = Amx::chip_named(&c).ok_or_else(|| {
                ProtocolError::new(format!(
                    "`hello` answer: `chips`: `{}` is not an AMX chip profile (m1, m2, m3, m4)",
                    quote(&c)
                ))
            })?;
            out.push(Amx::chip_name(chip));
        }
        Ok(out)
    }

    fn hello_declaration(
        _: &serde_json::Map<String, Value>,
        _: Option<&[String]>,
    ) -> Result<Option<()>, ProtocolError> {
        Ok(None)
    }

    fn result(state: Value, outcome: Option<Value>) -> Result<(StateDoc, Option<()>), ProtocolError> {
        if outcome.is_some() {
            return Err(ProtocolError::new("`result` answer: `outcome`: AMX results have none"));
        }
        let doc: StateDoc = serde_json::from_value(state)
            .map_err(|e| ProtocolError::new(format!("`result` answer: state: {e}")))?;
        doc.to_state().map_err(|e| ProtocolError::new(format!("`result` answer: state: {e}")))?;
        Ok((doc, None))
    }

    fn case_state(pre: &State) -> Value {
        serde_json::to_value(StateDoc::from_state(pre)).unwrap_or(Value::Null)
    }

    fn apply(pre: &State, doc: &StateDoc) -> Result<State, String> {
        let mut post = pre.clone();
        doc.apply_to(&mut post).map(|()| post).map_err(|e| e.to_string())
    }
}

/// Parses and validates one line an AMX DUT wrote: [`harness_core::dut::parse_answer`] of `amx-dut/1`.
pub fn parse_answer(line: &[u8]) -> Result<Answer, ProtocolError> {
    harness_core::dut::parse_answer::<AmxDut>(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_validated() {
        let hello =
            br#"{"type":"hello","protocol":"amx-dut/1","name":"sim","version":"1","chips":["m1","M3"]}"#;
        match parse_answer(hello) {
            Ok(Answer::Hello { chips, declaration: None, .. }) => assert_eq!(chips, ["m1", "m2"]),
            other => panic!("{other:?}"),
        }
        for (line, why) in [
            (&br#"{"type":"hello","protocol":"amx-dut/1","name":"s","version":"1"}"#[..], "missing field `chips`"),
            (br#"{"type":"hello","protocol":"amx-dut/1","name":"s","version":"1","chips":["m5"]}"#, "not an AMX chip"),
            (br#"{"type":"hello","protocol":"amx-dut/1","name":"s","version":"1","chips":[],"isa":"sfpu"}"#, "`isa`"),
            (br#"{"type":"result","id":"1","state":{"Z":{"64":"00"}}}"#, "state"),
            (br#"{"type":"result","id":"1","state":{},"outcome":[]}"#, "have none"),
        ] {
            let e = parse_answer(line).unwrap_err();
            assert!(e.message().contains(why), "{}: {e}", String::from_utf8_lossy(line));
        }
        let ok = br#"{"type":"result","id":"7","state":{"Z":{"3":"0000803f"}}}"#;
        assert!(parse_answer(ok).is_err(), "a register must have all 64 bytes");
    }
}
