//! The oracles of the coverage-guided fuzz targets (`fuzz/`), kept here so the targets are thin
//! and the same checks run on stable Rust (`tests/it/fuzz_stable.rs`) and in `cargo xtask fuzz`.
//!
//! * [`diff_stream`]: bytes become an initial [`State`] (lanes biased to the operand classes of
//!   [`operands`](crate::generate::operands)) and a stream of up to [`MAX_STREAM`] instructions
//!   (typed instructions, raw words, predication blocks, SFPLOADMACRO bursts). The stream runs on
//!   the reference [`Machine`] and on the [`FastMachine`] in lockstep; after every instruction the
//!   two outcomes and states are compared, skipping what undefined or unspecified behaviour has
//!   tainted (the [`Tracker`] of the golden vectors). A difference is minimised (instructions,
//!   then state, then lanes) and returned as a [`Divergence`] whose `Display` is the whole report
//!   with a regression vector. The `*_with` variants ([`compare_with`], [`divergence_with`],
//!   [`diff_stream_with`]) take a [`Mutation`] of the fast model's state, a test seam that plants
//!   a divergence at run time (`tests/it/fuzz_triage.rs`); the plain functions pass none.
//! * [`append_regression`]: what `cargo xtask fuzz --triage` does with a divergence, as a pure
//!   function of the regressions file's text (append the vector with its tags, or report a
//!   duplicate of a known failure shape).
//! * [`decode_oracle`]: decoding any word for every [`Arch`] never panics, and a decoded
//!   instruction re-encodes to the same word, decodes back to itself, and survives its text form.
//! * [`vectors_load_oracle`]: the vector loader and the state deserialiser accept any bytes
//!   without panicking.
//! * [`dut_protocol_oracle`]: the DUT answer parser accepts any bytes without panicking.
//!
//! # The `diff_stream` input format
//!
//! Read as [`arbitrary::Unstructured`] reads integers (little-endian, zeros once the bytes run out),
//! so every byte string is an input and [`encode_stream_input`] can write seeds for it:
//!
//! ```text
//! input    := head:u8 section{head & 63} instr*         (at most MAX_STREAM instructions)
//! section  := tag:u8 body                               (tag % 15 selects the body)
//! instr    := tag:u8 body                               (tag % 8: 0 raw word, 1..=3 typed,
//!                                                        4 if-block, 5 else, 6 end-if, 7 macro)
//! ```
//!
//! Bit 6 of `head` chooses the chip ([`input_arch`]): clear for Blackhole A0, set for Wormhole B0,
//! so one target covers both and libFuzzer's mutations move inputs between them. Every part of the
//! input is read for that chip: its opcodes and field layouts, its instruction text, its
//! SFPLOADMACRO template encoding, its state (Wormhole's SFPSHFT2 `vc0` latch has a section of
//! its own; the addressing fields only Blackhole has stay zero on Wormhole, as its state documents
//! require). The sections overwrite parts of a base state that already carries interesting
//! values ([`base_state`]); see [`Section`] for each body.
//!
//! # Speed
//!
//! The loop is dominated by the two models' own work. Per execution nothing is allocated and no
//! Dst is cloned: the base states of both chips are built once, the input is decoded straight
//! into reused scratch states (the reference's `State` via `clone_from` and the [`FastState`],
//! whose Dst storage is copied into, not reallocated), both machines are reused
//! (`Machine::reset`, `FastMachine::reset` keep the buffers their cycles work in, and the
//! reference's copies of the state for a cycle of several instructions), the taint sets are fixed
//! tables ([`LRegLanes`](crate::taint::LRegLanes)), a Dst-rows section's cells go into a
//! reused buffer, and the predication blocks' instructions are parsed once
//! (`tests/it/fuzz_alloc.rs` counts the allocations of every input's second run). The comparison
//! after each instruction reads the fast model's state in place (no conversion to [`State`]);
//! every part is compared whole first and taken apart lane by lane only when it differs, the flag
//! stacks in the fast model's bit-sliced form, and Dst (32 KB) whenever it may change next: after
//! an instruction that may write it, before one that may (so a wrong write cannot be overwritten
//! unseen), while SFPLOADMACRO work is pending, and after the drain. `tests/it/fuzz_complete.rs`
//! plants a wrong value in every location of the state and checks that each is found. Decoding
//! into a [`StreamInput`], conversions, text and the minimiser run only once a difference is
//! found.
//!
//! Under libFuzzer every branch the oracle's code takes is a coverage feature that libFuzzer
//! processes per execution (and, in a build that traces comparisons, as cargo-fuzz's default
//! build does and `cargo xtask fuzz`'s does not, every comparison calls a hook), so the
//! oracle's own bookkeeping avoids branches where they guide nothing: the input is read by a small
//! reader (`Bytes`, the same bytes as `Unstructured` reads) a section's worth at a time,
//! instruction fields are placed and read by position from tables built at compile time
//! ([`Opcode::chip_fields`], no field names compared per input), and the whole-part comparisons
//! fold XORs (`Addressing::difference`, `FlagStack::packed`) instead of branching per field.
//!
//! # Layout
//!
//! One file per part of the oracle: `input.rs` (the input grammar and its decoding), `base.rs`
//! (the base state), `encode.rs` (writing inputs), `lockstep.rs` (the lockstep run and the
//! comparison), `seam.rs` (the [`Mutation`] test seam), `shape.rs` (the failure shape),
//! `minimise.rs` (the minimiser), `report.rs` (the [`Divergence`] report), `triage.rs`
//! ([`append_regression`]) and `oracles.rs` (the other oracles); the `diff_stream` entry points
//! are here.
//!
//! [`State`]: sfpu_reference::State
//! [`Machine`]: sfpu_reference::Machine
//! [`FastMachine`]: sfpu_fastpath::FastMachine
//! [`FastState`]: sfpu_fastpath::FastState
//! [`Tracker`]: crate::taint::Tracker
//! [`Arch`]: sfpu_reference::isa::Arch
//! [`Opcode::chip_fields`]: sfpu_reference::isa::Opcode::chip_fields

mod base;
mod encode;
mod input;
mod lockstep;
mod minimise;
mod oracles;
mod report;
mod seam;
mod shape;
mod triage;

pub use base::{base_load_macro_config, base_state, fit_to_chip};
pub use encode::{encode_stream_input, sections_for, stream_input_on};
pub use input::{MAX_STREAM, Section, StreamInput, apply, input_arch, word_to_instr};
pub use lockstep::{Found, compare, compare_counted, compare_with, differing_fast, vc0_lanes};
pub use oracles::{all_arches, decode_oracle, dut_protocol_oracle, vectors_load_oracle};
pub use report::{Divergence, divergence, divergence_with, input_tag};
pub use seam::Mutation;
pub use shape::{mode_of, shape};
pub use triage::{Appended, append_regression, regression_shapes};

use lockstep::run_input;

/// The `diff_stream` oracle: decodes `data`, runs it on both models, and returns the minimised
/// divergence if they differ anywhere the specification promises something.
pub fn diff_stream(data: &[u8]) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, None, None, MAX_STREAM).0
}

/// [`diff_stream`] on at most the first `max_stream` instructions of the input's stream (at most
/// [`MAX_STREAM`]; the input read by [`StreamInput::from_bytes_at_most`]). The fuzz target runs
/// this with `SFPU_FUZZ_MAX_STREAM`, which `cargo xtask fuzz --rate` sets to 16: libFuzzer's
/// mutations soon turn the 16-instruction seeds into streams of 64 (the state sections' bytes
/// read as instructions), so without it the rate would be that of longer streams.
pub fn diff_stream_at_most(data: &[u8], max_stream: usize) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, None, None, max_stream).0
}

/// [`diff_stream_at_most`], also returning how many instructions were compared (for the
/// throughput figure of `cargo xtask fuzz --throughput`, which passes [`MAX_STREAM`]).
pub fn diff_stream_counted(data: &[u8], max_stream: usize) -> (Result<(), Box<Divergence>>, usize) {
    diff_stream_impl(data, None, None, max_stream)
}

/// [`diff_stream`] with the origin tag to give the regression vector.
pub fn diff_stream_with_origin(data: &[u8], origin: &str) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, Some(origin), None, MAX_STREAM).0
}

/// [`diff_stream_with_origin`] with an optional [`Mutation`] of the fast model's state after each
/// instruction (a test seam: it plants a divergence at run time).
pub fn diff_stream_with(
    data: &[u8],
    origin: &str,
    mutation: Option<Mutation>,
) -> Result<(), Box<Divergence>> {
    diff_stream_impl(data, Some(origin), mutation, MAX_STREAM).0
}

/// The oracle: the comparison runs on reused buffers ([`run_input`]); only once a difference is
/// found is the input decoded into a [`StreamInput`], its state built and the case minimised
/// (the origin tag defaults to [`input_tag`]).
fn diff_stream_impl(
    data: &[u8],
    origin: Option<&str>,
    mutation: Option<Mutation>,
    max_stream: usize,
) -> (Result<(), Box<Divergence>>, usize) {
    let (found, compared) = run_input(data, mutation, max_stream);
    let Some(first) = found else {
        return (Ok(()), compared);
    };
    let origin = origin.map_or_else(|| input_tag(data), str::to_string);
    let input = StreamInput::from_bytes_at_most(data, max_stream);
    let pre = input.state();
    (Err(Box::new(divergence_with(&origin, &pre, &input.program, first, mutation))), compared)
}
