//! The failure shape of a divergence: the diverging instruction's opcode and mode and the parts
//! of the state that differ. The minimiser keeps it, the report tags the regression vector with
//! it, and triage adds one vector per shape.

use sfpu_reference::isa::{Instr, Opcode};

use super::lockstep::Found;
use crate::generate::mode_field;
use crate::taint::Locations;

/// The canonical mode of `instr`, as the vectors name it (`mod1=5`, `rnd=1,mod1=2`, `none`).
pub fn mode_of(instr: &Instr) -> String {
    let fields = instr.field_values();
    let get = |name: &str| fields.iter().find(|(n, _)| *n == name).map_or(0, |&(_, v)| v);
    match (instr.opcode(), mode_field(instr.opcode()).field) {
        (Opcode::SFPSTOCHRND, _) => format!("rnd={},mod1={}", get("RoundingMode"), get("Mod1")),
        (Opcode::SFPCONFIG, _) => format!("vd={},mod1={}", get("VD"), get("Mod1")),
        (_, None) => "none".to_string(),
        (_, Some(field)) => format!("{}={}", field.to_ascii_lowercase(), get(field)),
    }
}

/// The parts a [`Locations`] names, for the failure shape (`LReg+LaneFlags`).
fn parts_of(d: &Locations) -> Vec<&'static str> {
    let mut p = Vec::new();
    if !d.LReg.is_empty() {
        p.push("LReg");
    }
    for (name, set) in [
        ("LaneFlags", d.LaneFlags.0 != 0),
        ("UseLaneFlagsForLaneEnable", d.UseLaneFlagsForLaneEnable.0 != 0),
        ("FlagStack", d.FlagStack.0 != 0),
        ("LaneConfig", d.LaneConfig.0 != 0),
        ("LoadMacroConfig", d.LoadMacroConfig.0 != 0),
        ("PRNG", d.PRNG.0 != 0),
        ("Dst", d.Dst),
        ("Addressing", d.Addressing),
    ] {
        if set {
            p.push(name);
        }
    }
    p
}

/// The failure shape: the diverging instruction's opcode and mode, and what differs. Two
/// divergences with the same shape are reported once.
pub fn shape(program: &[Instr], found: &Found) -> String {
    let at = match program.get(found.index).or(program.last()) {
        Some(i) => format!("{}/{}", i.opcode().name(), mode_of(i)),
        None => "empty".to_string(),
    };
    let what = if found.index >= program.len() { "drain:" } else { "" };
    let mut parts = parts_of(&found.differing);
    if found.vc0 != 0 {
        parts.push("SFPSHFT2_vc0");
    }
    if found.outcomes.is_some() {
        parts.push("outcome");
    }
    format!("{at}/{what}{}", parts.join("+"))
}
