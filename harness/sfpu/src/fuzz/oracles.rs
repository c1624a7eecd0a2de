//! The fuzz targets' other oracles: [`decode_oracle`] (decoding any word for every [`Arch`]),
//! [`vectors_load_oracle`] (the vector loader and the state deserialiser on any bytes) and
//! [`dut_protocol_oracle`] (the DUT answer parser on any bytes).

use std::path::Path;

use sfpu_reference::State;
use sfpu_reference::isa::{Arch, decode, decode_ignoring_undrawn, parse_instr};
use sfpu_reference::state::{ResetValues, StateDoc};

/// Every architecture (a new variant fails to compile here until it is added).
pub fn all_arches() -> [Arch; 2] {
    match Arch::Blackhole {
        Arch::Blackhole | Arch::Wormhole => [Arch::Blackhole, Arch::Wormhole],
    }
}

/// The `decode` oracle: the first four bytes of `data` (little-endian, zero-padded) as a word,
/// decoded for every architecture. A decoded instruction must re-encode to the word, decode back
/// to itself, and round-trip through its tt-llk text; `decode_ignoring_undrawn` must agree.
pub fn decode_oracle(data: &[u8]) -> Result<(), String> {
    let mut b = [0u8; 4];
    for (d, s) in b.iter_mut().zip(data) {
        *d = *s;
    }
    let word = u32::from_le_bytes(b);
    for arch in all_arches() {
        let decoded = decode(arch, word);
        let loose = decode_ignoring_undrawn(arch, word);
        match (decoded, loose) {
            (Ok(i), Ok((j, undrawn))) => {
                if i != j || undrawn != 0 {
                    return Err(format!(
                        "{arch} 0x{word:08x}: decode gives {i:?}, decode_ignoring_undrawn {j:?} with undrawn 0x{undrawn:08x}"
                    ));
                }
                if i.encode(arch) != Ok(word) {
                    return Err(format!(
                        "{arch} 0x{word:08x}: decodes to {i:?}, which encodes to {:x?}",
                        i.encode(arch)
                    ));
                }
                if i.encode(arch).map(|w| decode(arch, w)) != Ok(Ok(i)) {
                    return Err(format!("{arch} 0x{word:08x}: decode(encode(i)) != i for {i:?}"));
                }
                let text = i.display(arch).to_string();
                match parse_instr(arch, &text) {
                    Ok(back) if back == i => {}
                    other => {
                        return Err(format!(
                            "{arch} 0x{word:08x}: `{text}` parses back as {other:?}, not {i:?}"
                        ));
                    }
                }
            }
            (Err(_), Ok((j, undrawn))) => {
                if undrawn == 0 || j.encode(arch).map(|w| w | undrawn) != Ok(word) {
                    return Err(format!(
                        "{arch} 0x{word:08x}: refused, but decode_ignoring_undrawn gives {j:?} with undrawn 0x{undrawn:08x}"
                    ));
                }
                // The canonical form of the word without its undrawn bits decodes.
                if j.encode(arch).map(|w| decode(arch, w)) != Ok(Ok(j)) {
                    return Err(format!(
                        "{arch} 0x{word:08x}: the canonical word {:x?} does not decode to {j:?}",
                        j.encode(arch)
                    ));
                }
            }
            (Ok(i), Err(e)) => {
                return Err(format!(
                    "{arch} 0x{word:08x}: decode gives {i:?} but decode_ignoring_undrawn {e}"
                ));
            }
            (Err(_), Err(_)) => {}
        }
    }
    Ok(())
}

/// The `vectors_load` oracle: `data` as a vector file (lossy UTF-8) through the loader, and as a
/// state document (YAML and JSON) through the state deserialiser; errors are fine, panics are not.
/// A file that loads is also written back and must load again to the same vectors.
pub fn vectors_load_oracle(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    // No file stem: the `file` field is not checked against a name.
    if let Ok(file) = crate::vectors::parse_file(Path::new(""), &text) {
        let again = crate::vectors::emit::write_file(&file, &[]);
        match crate::vectors::parse_file(Path::new(""), &again) {
            Ok(back) if back == file => {}
            Ok(_) => return Err(format!("a loaded file reads back differently after writing:\n{again}")),
            Err(e) => return Err(format!("a loaded file does not load after writing: {e:?}\n{again}")),
        }
    }
    let _ = State::from_yaml(&text);
    if let Ok(doc) = serde_json::from_slice::<StateDoc>(data)
        && let Ok(s) = doc.to_state()
    {
        let _ = StateDoc::from_state(&s).to_state();
    }
    Ok(())
}

/// The `dut_protocol` oracle: every line of `data` as a DUT answer; errors are fine, panics are
/// not. A `result` answer's state must apply to a state without error (the parser checked it).
pub fn dut_protocol_oracle(data: &[u8]) -> Result<(), String> {
    for line in data.split(|&b| b == b'\n').chain(std::iter::once(data)) {
        if let Ok(crate::dut::Answer::Result { state, .. }) = crate::dut::parse_answer(line) {
            let mut s = State::reset(state.arch(), &ResetValues::ZEROS);
            state.apply_to(&mut s).map_err(|e| format!("an accepted result's state does not apply: {e}"))?;
        }
    }
    Ok(())
}
