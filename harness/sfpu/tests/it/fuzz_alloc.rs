//! The `diff_stream` oracle allocates nothing per execution once its buffers have grown.
//!
//! The binary's global allocator (`alloc.rs`) counts the allocations made on the test's own
//! thread while it counts. Every input runs once to let the reused buffers grow (both machines,
//! both states, the cycle scratch, a Dst-rows section's cells), then again while counting; the
//! second run must make no allocation. The inputs: `generate::streams` cases for both chips
//! encoded as `diff_stream` inputs (the `cargo xtask fuzz --throughput` inputs: random Dst rows,
//! predication blocks, SFPLOADMACRO), and random byte strings, whose sections and stream elements
//! are any of the format's.

use harness_sfpu::fuzz::{Section, StreamInput, diff_stream, encode_stream_input};
use harness_sfpu::generate::operands::Rng;
use harness_sfpu::generate::streams::random_stream_for;
use sfpu_reference::isa::Arch;

use crate::alloc::allocations;

fn inputs() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for arch in [Arch::Blackhole, Arch::Wormhole] {
        for len in [16usize, 64] {
            let mut rng = Rng::stream(0xA110_C000, &format!("fuzz_alloc/{arch:?}/{len}"));
            for _ in 0..24 {
                let case = random_stream_for(arch, &mut rng, len, None);
                out.extend(encode_stream_input(&case.pre, &case.program));
            }
        }
    }
    let mut rng = Rng::stream(0xA110_C000, "fuzz_alloc/bytes");
    for _ in 0..400 {
        let len = 1 + rng.below(600) as usize;
        let mut data: Vec<u8> = (0..len).map(|_| rng.u32() as u8).collect();
        // Mostly few sections (the head byte's low six bits count them), so that the bytes
        // left make a stream.
        if rng.below(4) != 0 {
            data[0] = (data[0] & 0x40) | (data[0] & 3);
        }
        out.push(data);
    }
    out
}

#[test]
fn diff_stream_allocates_nothing_per_execution() {
    let inputs = inputs();
    for data in &inputs {
        assert!(diff_stream(data).is_ok(), "the models diverge on input {data:02x?}");
    }
    let (mut dst_sections, mut streams) = (0, 0);
    for (i, data) in inputs.iter().enumerate() {
        let decoded = StreamInput::from_bytes(data);
        dst_sections += decoded.sections.iter().filter(|s| matches!(s, Section::DstRows { .. })).count();
        streams += usize::from(!decoded.program.is_empty());
        let mut result = Ok(());
        let made = allocations(|| result = diff_stream(data));
        assert!(result.is_ok());
        assert_eq!(
            made,
            0,
            "input {i} ({} bytes, {} sections, {} instructions): {made} allocations in its second \
             run\ninput: {data:02x?}",
            data.len(),
            decoded.sections.len(),
            decoded.program.len()
        );
    }
    // The inputs exercise what they are meant to: Dst-rows sections and many streams.
    assert!(dst_sections >= 50, "only {dst_sections} Dst-rows sections");
    assert!(streams >= 300, "only {streams} non-empty streams");
}

/// The counter sees allocations (so the test above cannot pass because nothing is counted).
#[test]
fn the_counter_counts() {
    let made = allocations(|| {
        let v: Vec<u64> = std::hint::black_box(vec![1, 2, 3]);
        drop(v);
    });
    assert_eq!(made, 1);
}
