//! `kernels.yaml`: the SFPI kernel corpus (`sfpi::kernels::registry`) as golden vectors, so that an
//! implementation runs realistic whole-tile programs and not only single instructions.
//!
//! One vector per kernel the chip supports, id `kernels/<kernel name>`, mode `<kernel name>` (a row
//! of its own in the report's matrix), tagged `sfpi-kernel` and `kernel=<name>`: the kernel lowered
//! for the chip over a whole tile (32 rows of 32 lanes), from a state holding the kernel's input
//! tiles (random elements of each tile's documented input range, with its special values and
//! boundaries among them) in the tile format's Dst mode,
//! random general LRegs and programmable constants, and zeros in the rest of Dst (the kernel does
//! not read it; zeros keep the file small). The PRNG and (Wormhole) the SFPSHFT2 latch stay zero: a
//! non-zero value there makes a vector require the matching feature (`sfpu::features`), and a
//! kernel that reads neither should not demand them of an implementation. The expected
//! state is the reference model's, as for every other vector; that the program computes what the
//! kernel means is the `sfpi` crate's meaning-versus-machine test.

use sfpi::LowerOptions;
use sfpi::kernels::registry;
use sfpi::tile;
use sfpu_reference::isa::Arch;
use sfpu_reference::state::LANES;
use sfpu_reference::{ResetValues, State};

use super::case::{Case, to_vector};
use super::operands::Rng;
use crate::vectors::{FORMAT, VectorFile};

/// The file's stem.
pub const FILE: &str = "kernels";

/// The kernel vectors of `arch`, in the registry's order.
pub fn file(arch: Arch, seed: u64) -> VectorFile {
    let mut vectors = Vec::new();
    for def in registry().into_iter().filter(|d| d.chips.contains(&arch)) {
        let mut rng = Rng::stream(seed, &format!("{FILE}/{}", def.name));
        let inputs = def.random_inputs(rng.next_u64());
        // Every corpus kernel lowers for every chip it lists (the sfpi crate's tests); a kernel
        // that stopped doing so is left out here and caught there.
        let Ok(case) = def.build_with(arch, seed, inputs.clone(), &LowerOptions::default()) else {
            continue;
        };
        let mut pre = State::reset(arch, &ResetValues::ZEROS);
        tile::configure(&mut pre, def.inputs.first().map_or(tile::TileFormat::Fp32, |i| i.format));
        for reg in (0..8).chain(12..15) {
            for lane in 0..LANES {
                pre.LReg[reg][lane] = rng.u32();
            }
        }
        for (input, values) in def.inputs.iter().zip(&inputs) {
            tile::write_tile(&mut pre, input.base, input.format, values);
        }
        let c = Case {
            name: def.name.to_string(),
            mode: Some(def.name.to_string()),
            mode_label: None,
            tags: vec!["sfpi-kernel".to_string(), format!("kernel={}", def.name)],
            program: case.program,
            pre,
        };
        vectors.push(to_vector(FILE, &c));
    }
    VectorFile { format: FORMAT.to_string(), arch, file: FILE.to_string(), vectors }
}
