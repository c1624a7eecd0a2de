//! The SFPU's random cases: case `n` of an instruction is in the instruction's mode value number
//! `n % m` (of its `m` mode values, [`modes`](crate::generate::modes) order) and is drawn from a
//! generator seeded by the campaign's seed, the instruction and `n` alone ([`nth_case_for`]);
//! stream `n` likewise ([`nth_stream_for`]). The campaign that runs them is the core's
//! ([`harness_core::campaign`]; the SFPU's jobs are [`crate::Sfpu`]'s), so any case replays by its
//! id (`random/SFPMAD/1234`) and the seed, at the same cost for every `n`.
//!
//! Also here: a failing case's regression vector, as YAML to paste into a vector file
//! ([`regression_snippet`]).

use sfpu_reference::isa::{Arch, Opcode};

use crate::generate::operands::Rng;
use crate::generate::streams::random_stream_for;
use crate::generate::{Case, mode_table_for, random_case_in_mode_for};
use crate::vectors::emit::write_file;
use crate::vectors::{FORMAT, Vector, VectorFile};

pub use harness_core::campaign::{DEFAULT_CASES_PER_CELL as DEFAULT_CASES_PER_MODE, MAX_CASES, case_id};

/// With `n` cases per cell, the campaign runs this many streams per `n` (the `streams` job's
/// cells).
pub const STREAMS_PER_CASE: u64 = 16;

/// Case `index` of instruction `op` for `seed`: the same case every time, drawn in constant time
/// from a generator of its own, in the mode value number `index % m` of the instruction's `m`.
pub fn nth_case(seed: u64, op: Opcode, index: u64) -> Case {
    nth_case_for(Arch::Blackhole, seed, op, index)
}

/// [`nth_case`] on `arch` (Blackhole's random streams are named without the chip, as in a
/// one-chip run, so its case ids and their cases stay the same; Wormhole's add the chip to the
/// stream name).
pub fn nth_case_for(arch: Arch, seed: u64, op: Opcode, index: u64) -> Case {
    let name = match arch {
        Arch::Blackhole => format!("campaign/{}/{index}", op.name()),
        Arch::Wormhole => format!("campaign/{arch}/{}/{index}", op.name()),
    };
    let mut rng = Rng::stream(seed, &name);
    let m = mode_table_for(arch, op).len().max(1) as u64;
    random_case_in_mode_for(arch, op, (index % m) as usize, &mut rng)
}

/// Stream `index` for `seed`, drawn in constant time like [`nth_case`].
pub fn nth_stream(seed: u64, index: u64) -> Case {
    nth_stream_for(Arch::Blackhole, seed, index)
}

/// [`nth_stream`] on `arch`.
pub fn nth_stream_for(arch: Arch, seed: u64, index: u64) -> Case {
    let name = match arch {
        Arch::Blackhole => format!("campaign/streams/{index}"),
        Arch::Wormhole => format!("campaign/{arch}/streams/{index}"),
    };
    let mut rng = Rng::stream(seed, &name);
    let len = 1 + rng.below(64) as usize;
    random_stream_for(arch, &mut rng, len, None)
}

/// `vector` as YAML exactly as the vector files write it, without the file around it: ready to
/// paste under `vectors:` in `vectors/blackhole/regressions.yaml`.
pub fn vector_yaml(vector: &Vector) -> String {
    let file = VectorFile {
        format: FORMAT.to_string(),
        arch: vector.pre.arch(),
        file: "regressions".to_string(),
        vectors: vec![vector.clone()],
    };
    let text = write_file(&file, &[]);
    match text.split_once("vectors:\n") {
        Some((_, rest)) => rest.to_string(),
        None => text,
    }
}

/// The regression snippet of a failing case: [`vector_yaml`] of the vector renamed
/// `regressions/<origin>/<id with / as ->`.
pub fn regression_snippet(vector: &Vector, origin: &str) -> String {
    let mut v = vector.clone();
    v.id = format!("regressions/{origin}/{}", vector.id.replace('/', "-"));
    vector_yaml(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_are_reproducible_by_index() {
        let a = nth_case(7, Opcode::SFPMAD, 3);
        let b = nth_case(7, Opcode::SFPMAD, 3);
        assert_eq!(a.program, b.program);
        assert_eq!(a.pre, b.pre);
        assert_ne!(a.pre, nth_case(7, Opcode::SFPMAD, 4).pre, "neighbouring cases differ");
        // Case n is in mode value n % 16 (SFPMAD's Mod1), whatever the seed.
        for n in [0u64, 5, 16, 21, 4_294_967_295] {
            let want = format!("mod1={}", n % 16);
            assert_eq!(nth_case(9, Opcode::SFPMAD, n).mode.as_deref(), Some(want.as_str()));
        }
        let s1 = nth_stream(7, 2);
        let s2 = nth_stream(7, 2);
        assert_eq!(s1.program, s2.program);
    }
}
