//! The fuzz oracles on stable Rust: random bytes through `diff_stream`, `decode`, `vectors_load`
//! and `dut_protocol` for about a second (a fixed number of cases), plus the properties the seed
//! corpora rely on.
//!
//! `SFPU_FUZZ_SEED=0x...` picks the seed (printed on every run), `SFPU_FUZZ_CASES=n` the number
//! of cases, `SFPU_FUZZ_CASE=n` replays one case. A failure prints the command that replays it.

use std::path::Path;

use harness_sfpu::fuzz::{
    MAX_STREAM, StreamInput, compare_counted, decode_oracle, divergence, dut_protocol_oracle,
    encode_stream_input, input_tag, vectors_load_oracle,
};
use harness_sfpu::generate::operands::Rng;
use harness_sfpu::vectors::load_file;
use sfpu_reference::isa::{Arch, Opcode, decode};

const DEFAULT_SEED: u64 = 0xF022_5EED_0000_0001;

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}

/// The bytes of case `index`: random length (biased short), random content, sometimes runs of
/// one byte (which the structured decoder turns into repeated instructions).
fn case_bytes(seed: u64, index: u64) -> Vec<u8> {
    let mut rng = Rng::stream(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15), "fuzz-stable");
    let len = match rng.below(4) {
        0 => rng.below(16),
        1 => rng.below(128),
        2 => rng.below(512),
        _ => rng.below(2048),
    } as usize;
    let mut data: Vec<u8> = (0..len).map(|_| rng.u32() as u8).collect();
    if rng.below(4) == 0 && !data.is_empty() {
        let b = rng.u32() as u8;
        let start = rng.below(data.len() as u32) as usize;
        for d in &mut data[start..] {
            *d = b;
        }
    }
    // Usually few state sections, so most of the bytes are instructions.
    if let Some(first) = data.first_mut()
        && rng.below(2) == 0
    {
        *first &= 3;
    }
    data
}

fn hex(data: &[u8]) -> String {
    data.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn random_bytes_through_every_oracle() {
    let seed = env_u64("SFPU_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let cases = env_u64("SFPU_FUZZ_CASES").unwrap_or(15_000);
    let only = env_u64("SFPU_FUZZ_CASE");
    println!("fuzz_stable: seed 0x{seed:016x}, {cases} cases (SFPU_FUZZ_SEED / SFPU_FUZZ_CASES to change)");
    let range = match only {
        Some(i) => i..i + 1,
        None => 0..cases,
    };
    let (mut instructions, mut compared) = (0usize, 0usize);
    for index in range {
        let data = case_bytes(seed, index);
        let replay = format!(
            "SFPU_FUZZ_SEED=0x{seed:016x} SFPU_FUZZ_CASE={index} cargo test -p harness-sfpu --test it fuzz_stable::"
        );
        // diff_stream, spelled out to count the instructions compared.
        let input = StreamInput::from_bytes(&data);
        let pre = input.state();
        let (found, n) = compare_counted(&pre, &input.program);
        instructions += input.program.len();
        compared += n;
        if let Some(first) = found {
            let d = divergence(&input_tag(&data), &pre, &input.program, first);
            panic!("diff_stream case {index}: {d}\ninput: {}\nreplay: {replay}", hex(&data));
        }
        for (name, result) in [
            ("decode", decode_oracle(&data)),
            ("vectors_load", vectors_load_oracle(&data)),
            ("dut_protocol", dut_protocol_oracle(&data)),
        ] {
            if let Err(e) = result {
                panic!("{name} case {index}: {e}\ninput: {}\nreplay: {replay}", hex(&data));
            }
        }
    }
    println!(
        "fuzz_stable: {compared} of {instructions} instructions compared (the rest follow undefined behaviour)"
    );
}

/// The seed corpora encode golden vectors in the `diff_stream` format: decoding the bytes must
/// give back exactly the vector's initial state and program.
#[test]
fn golden_vectors_encode_exactly() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../vectors/blackhole");
    let mut checked = 0;
    for name in ["SFPIADD.yaml", "SFPLOADMACRO.yaml", "SFPSTORE.yaml", "sequences.yaml", "regressions.yaml"] {
        let file = load_file(&dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for v in file.vectors.iter().step_by(7) {
            let pre = v.pre.to_state().expect("the loader checked it");
            let program: Vec<_> =
                v.program.iter().map(|w| decode(Arch::Blackhole, w.word.0).unwrap()).collect();
            let Some(bytes) = encode_stream_input(&pre, &program) else { continue };
            let back = StreamInput::from_bytes(&bytes);
            assert_eq!(back.program, program[..program.len().min(MAX_STREAM)], "{}", v.id);
            assert!(back.state() == pre, "{}: the state does not round-trip", v.id);
            checked += 1;
        }
    }
    assert!(checked > 20, "only {checked} vectors encoded");
}

/// Every opcode with every field at its extremes and random values satisfies the decode oracle
/// (a directed complement to the random words above, which rarely hit valid encodings).
#[test]
fn decode_oracle_on_every_opcode() {
    let mut rng = Rng::new(0xDEC0DE);
    for op in Opcode::ALL {
        for k in 0..64 {
            let fields = match k {
                0 => 0,
                1 => op.drawn_mask(Arch::Blackhole),
                _ => rng.u32(),
            };
            let word = ((op.number() as u32) << 24) | (fields & 0x00FF_FFFF);
            for w in [word, word & op.drawn_mask(Arch::Blackhole)] {
                if let Err(e) = decode_oracle(&w.to_le_bytes()) {
                    panic!("{e}");
                }
            }
        }
    }
}

/// `diff_stream_at_most` (what the fuzz target runs under `SFPU_FUZZ_MAX_STREAM`, and
/// `cargo xtask fuzz --rate` with 16) runs exactly the first `k` instructions of the input's
/// stream: the input it decodes is the full one's prefix, and it compares as many instructions
/// as `compare_counted` does on that prefix from the same state. A cap above `MAX_STREAM` is
/// `MAX_STREAM`; a cap of 0 runs nothing.
#[test]
fn at_most_runs_a_prefix_of_the_stream() {
    use harness_sfpu::fuzz::diff_stream_counted;
    use harness_sfpu::generate::streams::random_stream_for;
    let mut rng = Rng::stream(0xA7_0057, "fuzz-stable/at-most");
    let mut capped = 0;
    for arch in [Arch::Blackhole, Arch::Wormhole] {
        for _ in 0..12 {
            let case = random_stream_for(arch, &mut rng, MAX_STREAM, None);
            let Some(data) = encode_stream_input(&case.pre, &case.program) else { continue };
            let full = StreamInput::from_bytes(&data);
            assert_eq!(full.program.len(), MAX_STREAM, "{arch}: the encoded case decodes whole");
            for k in [0, 1, 16, MAX_STREAM, MAX_STREAM + 36] {
                let input = StreamInput::from_bytes_at_most(&data, k);
                let n = k.min(MAX_STREAM);
                assert_eq!(input.program, full.program[..n], "{arch}, at most {k}");
                assert_eq!(input.sections, full.sections, "{arch}, at most {k}");
                let (result, compared) = diff_stream_counted(&data, k);
                assert!(
                    result.is_ok(),
                    "{arch}, at most {k}: {}",
                    result.err().map(|d| d.to_string()).unwrap_or_default()
                );
                let (found, expected) = compare_counted(&input.state(), &input.program);
                assert!(found.is_none());
                assert_eq!(compared, expected, "{arch}, at most {k}: instructions compared");
                capped += usize::from(k == 16 && compared == 16);
            }
        }
    }
    // Most of these streams run 16 instructions without undefined behaviour stopping them.
    assert!(capped >= 12, "only {capped} streams compared 16 instructions");
}
