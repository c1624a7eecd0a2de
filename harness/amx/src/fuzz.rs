//! The AMX fuzz oracle (`fuzz/fuzz_targets/amx_diff.rs`): any byte string is a chip profile, a
//! stream of `vecfp` operands and a state; the fast model must match the reference after every
//! operand, and neither may panic.
//!
//! Input layout: byte 0 chooses the chip (`% 3`: M1, M2, M4); byte 1 is the number of operands
//! (`% 65`); then 8 bytes (little-endian) per operand, as many as there are; then the state's 5120
//! bytes in the order X, Y, Z (`amx_reference::State::from_bytes`), zero-padded when the input is
//! shorter. Operands first, so that short inputs still run instructions.

use amx_reference::{Chip, Operand, State};

use super::run::differences;

/// The most operands one input holds.
pub const MAX_OPERANDS: usize = 64;

/// An input decoded: the chip, the operands and the state.
pub fn decode_input(data: &[u8]) -> (Chip, Vec<Operand>, State) {
    let chip = Chip::ALL[data.first().copied().unwrap_or(0) as usize % Chip::ALL.len()];
    let n = data.get(1).copied().unwrap_or(0) as usize % (MAX_OPERANDS + 1);
    let rest = data.get(2..).unwrap_or(&[]);
    let ops: Vec<Operand> = rest
        .chunks(8)
        .take(n)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            Operand(u64::from_le_bytes(b))
        })
        .collect();
    let mut bytes = [0u8; 5120];
    let state_bytes = rest.get(8 * ops.len()..).unwrap_or(&[]);
    let k = state_bytes.len().min(bytes.len());
    bytes[..k].copy_from_slice(&state_bytes[..k]);
    (chip, ops, State::from_bytes(&bytes))
}

/// The input of `(chip, operands, state)` (at most [`MAX_OPERANDS`] operands).
pub fn encode_input(chip: Chip, ops: &[Operand], state: &State) -> Vec<u8> {
    let ops = &ops[..ops.len().min(MAX_OPERANDS)];
    let mut out = vec![Chip::ALL.iter().position(|&c| c == chip).unwrap_or(0) as u8, ops.len() as u8];
    for op in ops {
        out.extend_from_slice(&op.0.to_le_bytes());
    }
    out.extend_from_slice(&state.to_bytes());
    out
}

/// The oracle: `Err` with what differs when the fast model leaves the reference after an operand.
pub fn amx_diff_oracle(data: &[u8]) -> Result<(), String> {
    let (chip, ops, state) = decode_input(data);
    let (mut expected, mut got) = (state.clone(), state);
    for (i, &op) in ops.iter().enumerate() {
        amx_reference::vecfp(&mut expected, chip, op);
        amx_fastpath::vecfp(&mut got, chip, op);
        if let Some(diff) = differences(&expected, &got) {
            return Err(format!(
                "{chip}: after operand {i} `{op}` ({:#018x}) the fast model differs:\n{diff}",
                op.0
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_round_trip_and_any_bytes_decode() {
        let mut s = State::zeroed();
        s.Z[3][7] = 0x42;
        s.X[1][0] = 0x3c;
        let ops = [Operand(0x0000_1000_0000_0000), Operand(7)];
        let bytes = encode_input(Chip::M4, &ops, &s);
        assert_eq!(decode_input(&bytes), (Chip::M4, ops.to_vec(), s));
        for data in [&[][..], &[1], &[2, 200], &[5, 3, 1, 2, 3]] {
            let _ = decode_input(data);
            assert!(amx_diff_oracle(data).is_ok());
        }
    }

    #[test]
    fn the_oracle_passes_the_amx_vectors() {
        for chip in Chip::ALL {
            let f = super::super::generate::file(chip, super::super::generate::DEFAULT_SEED);
            for v in f.vectors.iter().take(60) {
                let pre = v.pre.to_state().unwrap();
                let ops: Vec<Operand> = v.program.iter().map(|w| w.text.parse().unwrap()).collect();
                assert_eq!(amx_diff_oracle(&encode_input(chip, &ops, &pre)), Ok(()), "{}", v.id);
            }
        }
    }
}
