//! The AMX part of `cargo xtask bench`: `vecfp` operands per second on the AMX reference model and
//! the fast model, per chip profile, for the FMA of every lane width and for a mixed stream of
//! semantic classes (`amx_reference::classes`) with random offsets, on a random state. The state
//! carries over from operand to operand, as in the campaign.

use std::time::Duration;

use amx_reference::classes;
use amx_reference::{Chip, Field, LaneWidth, Operand, State};
use harness_amx::generate::{lw_name, random_state_of};
use harness_sfpu::generate::operands::Rng;

/// Operands per timed pass.
const PASS: usize = 256;

/// One measured class of one chip.
pub struct AmxResult {
    /// The chip profile.
    pub chip: Chip,
    /// `fma/<lane width>` or `mixed`.
    pub class: String,
    /// Reference operands per second.
    pub reference: f64,
    /// Fast-model operands per second.
    pub fast: f64,
}

/// The operand streams measured on `chip`: the FMA of each lane width, and the mixed stream.
fn streams(chip: Chip) -> Vec<(String, Vec<Operand>)> {
    let mut out: Vec<(String, Vec<Operand>)> = LaneWidth::on(chip)
        .iter()
        .map(|&lw| {
            let op = Operand::ZERO.with(Field::LW, lw.code()).unwrap_or(Operand::ZERO);
            (format!("fma/{}", lw_name(lw)), vec![op; PASS])
        })
        .collect();
    let all = classes::classes(chip);
    let mut rng = Rng::stream(0xA3C0_BE4C_0000_0001, &format!("bench/amx/{chip}"));
    let mixed = (0..PASS)
        .map(|_| {
            let op = all[rng.below(all.len() as u32) as usize].operand();
            op.with(Field::XOFF, rng.next_u64() & 0x1FF).unwrap_or(op)
        })
        .collect();
    out.push(("mixed".to_string(), mixed));
    out
}

/// How many measurements [`run`] makes (two per class and chip).
pub fn measurements() -> u64 {
    Chip::ALL.iter().map(|&c| 2 * (LaneWidth::on(c).len() as u64 + 1)).sum()
}

/// Measures every chip; `tick` is called after each measurement with what was measured.
pub fn run(time: Duration, mut tick: impl FnMut(&str)) -> Vec<AmxResult> {
    let mut out = Vec::new();
    for chip in Chip::ALL {
        let mut rng = Rng::stream(0xA3C0_BE4C_0000_0002, &format!("bench/amx/{chip}/state"));
        let state: State = random_state_of(&mut rng, LaneWidth::F32);
        for (class, ops) in streams(chip) {
            let mut s = state.clone();
            let reference = super::common::measure(time, || {
                for &op in &ops {
                    amx_reference::vecfp(&mut s, chip, op);
                }
                ops.len() as u64
            });
            tick(&format!("amx {chip} {class}: reference"));
            let mut s = state.clone();
            let fast = super::common::measure(time, || {
                amx_fastpath::vecfp_stream(&mut s, chip, &ops);
                ops.len() as u64
            });
            tick(&format!("amx {chip} {class}: fast model"));
            out.push(AmxResult { chip, class, reference, fast });
        }
    }
    out
}
