//! Helpers shared by the reference model's integration tests.
//!
//! Expected values in the tests never come from the code under test: they come from the
//! documentation's examples, from hand calculation written next to the assertion, or from an
//! independent oracle (SoftFloat, Rust's own `f32`/`f64`).

use sfpu_reference::isa::{Arch, parse_instr};
use sfpu_reference::state::LANES;
use sfpu_reference::{Instr, Outcome, ResetValues, State, step};

/// Every lane.
pub const ALL: u32 = 0xFFFF_FFFF;

/// The documented Blackhole reset state with zeros for everything unspecified.
pub fn reset() -> State {
    State::reset(Arch::Blackhole, &ResetValues::ZEROS)
}

/// The documented reset state of `arch` with zeros for everything unspecified.
pub fn reset_of(arch: Arch) -> State {
    State::reset(arch, &ResetValues::ZEROS)
}

/// Parses one Blackhole instruction in tt-llk macro form, panicking with the parser's message.
pub fn instr(text: &str) -> Instr {
    instr_of(Arch::Blackhole, text)
}

/// Parses one instruction of `arch` in tt-llk macro form, panicking with the parser's message.
pub fn instr_of(arch: Arch, text: &str) -> Instr {
    parse_instr(arch, text).unwrap_or_else(|e| panic!("`{text}` does not parse for {arch}: {e}"))
}

/// Parses (for the state's chip) and executes one instruction.
pub fn run_on(s: &mut State, text: &str) -> Outcome {
    let i = instr_of(s.arch(), text);
    step(s, &i)
}

/// Parses and executes one instruction.
pub fn run(s: &mut State, text: &str) -> Outcome {
    step(s, &instr(text))
}

/// Executes each instruction in turn, merging the outcomes.
pub fn run_all(s: &mut State, texts: &[&str]) -> Outcome {
    let mut out = Outcome::defined();
    for t in texts {
        out.merge(&run(s, t));
    }
    out
}

/// Sets every lane of `LReg[reg]` to `value`.
pub fn fill(s: &mut State, reg: usize, value: u32) {
    s.LReg[reg] = [value; LANES];
}

/// Sets `LReg[reg]` lane by lane.
pub fn set(s: &mut State, reg: usize, values: [u32; LANES]) {
    s.LReg[reg] = values;
}

/// The FP32 bit pattern of `x`.
pub fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A lane mask of the lanes where `pred` holds.
pub fn mask(pred: impl Fn(usize) -> bool) -> u32 {
    (0..LANES).fold(0, |m, l| m | ((pred(l) as u32) << l))
}

/// `LaneFlags` as a lane mask.
pub fn flags(s: &State) -> u32 {
    mask(|l| s.LaneFlags[l])
}

/// Enables lane flags as the predication source and sets `LaneFlags` to `m` (as
/// `SFPENCC`-based code would), without executing instructions.
pub fn predicate(s: &mut State, m: u32) {
    for l in 0..LANES {
        s.UseLaneFlagsForLaneEnable[l] = true;
        s.LaneFlags[l] = (m >> l) & 1 != 0;
    }
}

/// Asserts that `actual` equals `expected` lane by lane, listing every differing lane in hex.
#[track_caller]
pub fn assert_lanes(actual: &[u32; LANES], expected: &[u32; LANES], what: &str) {
    let diffs: Vec<String> = (0..LANES)
        .filter(|&l| actual[l] != expected[l])
        .map(|l| format!("lane {l}: got 0x{:08x}, want 0x{:08x}", actual[l], expected[l]))
        .collect();
    assert!(diffs.is_empty(), "{what}:\n  {}", diffs.join("\n  "));
}

/// Asserts that the outcome is fully defined.
#[track_caller]
pub fn assert_defined(out: &Outcome) {
    assert!(out.is_defined(), "expected a defined outcome, got: {out}");
}
