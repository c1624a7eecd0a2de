//! The kernel corpus: seed 003's example kernels and the SFPU operations users run, written in
//! the layer from their algorithms, with a registry the golden-vector and report steps use.
//!
//! [`registry`] lists every kernel with its name, the chips it supports, its input tiles (format
//! and documented input range) and output tiles, and, for a numerical kernel, the mathematical
//! function it approximates and the accuracy bound derived from its algorithm.
//! [`KernelDef::build`] gives, for a chip and a seed, the lowered whole-tile program and the
//! whole-tile [`State`] it starts from ([`TileCase`]).

pub mod activation;
pub mod convert;
pub mod data;
mod def;
pub mod math;
pub mod seed;

pub use def::{InputRange, KernelDef, Numeric, OutputKind, TileInput, TileOutput, Ulp};

use serde::{Deserialize, Serialize};
use sfpu_reference::isa::{Arch, Instr};
use sfpu_reference::state::{LANES, ResetValues, State};

use crate::error::KernelError;
use crate::ir::ChipKernel;
use crate::lower::{LowerOptions, Lowered, lower};
use crate::meaning::{self, Expected};
use crate::rng::Rng;
use crate::run::{self, Engine, Run};
use crate::tile::{self, TileFormat};

/// Rows of 32 lanes in a tile (a 32x32 tile is four 16x16 faces, 8 rows each).
pub const TILE_ROWS: u32 = 32;

/// What the registry says about a kernel, in serialisable form (for reports and vector files).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelInfo {
    /// The kernel's name.
    pub name: String,
    /// What it computes and how.
    pub description: String,
    /// The chips it supports.
    pub chips: Vec<Arch>,
    /// Its input tiles, with their documented ranges.
    pub inputs: Vec<TileInput>,
    /// Its output tiles.
    pub outputs: Vec<TileOutput>,
    /// For a numerical kernel: the unit, the bounds and their reasoning.
    pub accuracy_bound: Option<Bound>,
}

/// A numerical kernel's documented accuracy bound.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bound {
    /// The unit.
    pub unit: Ulp,
    /// The bound on the largest error.
    pub max_ulp: f64,
    /// The bound on the mean error.
    pub mean_ulp: f64,
    /// How the bounds follow from the algorithm.
    pub why: String,
}

/// A kernel made ready for one chip: the lowered whole-tile program and the state it starts
/// from.
#[derive(Clone, Debug)]
pub struct TileCase {
    /// The kernel's name.
    pub name: String,
    /// The chip.
    pub arch: Arch,
    /// The seed that chose the inputs and the state's unspecified parts.
    pub seed: u64,
    /// The kernel prepared for the chip.
    pub kernel: ChipKernel,
    /// The lowered kernel.
    pub lowered: Lowered,
    /// Rows the program processes.
    pub rows: u32,
    /// The whole program.
    pub program: Vec<Instr>,
    /// The initial state: Dst holding the input tiles (and random bits elsewhere), random
    /// general LRegs, programmable constants, PRNG state and (Wormhole) SFPSHFT2 latch.
    pub state: State,
    /// Each input tile's elements, in its format's encoding (`[row * 32 + lane]`).
    pub inputs: Vec<Vec<u32>>,
}

/// A random element of `range` in `format`'s encoding.
fn random_element(rng: &mut Rng, format: TileFormat, range: &InputRange) -> u32 {
    let x = match *range {
        InputRange::Uniform { lo, hi } => lo + (hi - lo) * rng.unit(),
        InputRange::LogUniform { lo, hi } => (lo.ln() + (hi.ln() - lo.ln()) * rng.unit()).exp(),
        InputRange::SignedLog { lo, hi } => {
            let m = (lo.ln() + (hi.ln() - lo.ln()) * rng.unit()).exp();
            if rng.next_u32() & 1 == 0 { m } else { -m }
        }
        InputRange::Int { lo, hi } => return rng.range_i64(lo, hi) as i32 as u32,
    };
    encode(format, x, range)
}

/// `x` in `format`'s encoding, rounded toward zero so that it stays inside `range`.
pub fn encode(format: TileFormat, x: f64, range: &InputRange) -> u32 {
    let f = x as f32;
    let f = if range.contains(f as f64) { f } else { f32::from_bits(f.to_bits().wrapping_sub(1)) };
    match format {
        TileFormat::Fp32 => f.to_bits(),
        TileFormat::Bf16 => f.to_bits() >> 16,
        TileFormat::Fp16 => {
            // Truncate to FP16 (values here are inside FP16's normal range or zero).
            let b = f.to_bits();
            let e = ((b >> 23) & 0xFF) as i32 - 112;
            if e <= 0 {
                (b >> 16) & 0x8000
            } else {
                ((b >> 16) & 0x8000) | ((e.min(31) as u32) << 10) | ((b >> 13) & 0x3FF)
            }
        }
        TileFormat::Int32 => x as i64 as i32 as u32,
    }
}

impl KernelDef {
    /// The registry entry in serialisable form.
    pub fn info(&self) -> KernelInfo {
        KernelInfo {
            name: self.name.to_string(),
            description: self.description.to_string(),
            chips: self.chips.clone(),
            inputs: self.inputs.clone(),
            outputs: self.outputs.clone(),
            accuracy_bound: self.numeric.as_ref().map(|n| Bound {
                unit: n.ulp,
                max_ulp: n.max_ulp,
                mean_ulp: n.mean_ulp,
                why: n.why.to_string(),
            }),
        }
    }

    /// Records the kernel and prepares it for `arch`.
    pub fn chip_kernel(&self, arch: Arch) -> Result<ChipKernel, KernelError> {
        if !self.chips.contains(&arch) {
            return Err(KernelError::NotOnChip {
                kernel: self.name.to_string(),
                what: "this kernel".into(),
                arch,
            });
        }
        (self.record)()?.for_chip(arch)
    }

    /// Random input tiles for `seed`: each tile's elements drawn from its documented range.
    pub fn random_inputs(&self, seed: u64) -> Vec<Vec<u32>> {
        self.inputs
            .iter()
            .enumerate()
            .map(|(t, input)| {
                let mut rng = Rng::new(seed, 100 + t as u64);
                (0..1024)
                    .map(|_| {
                        // About one element in ten is a special value or boundary.
                        if !input.specials.is_empty() && rng.next_u32().is_multiple_of(10) {
                            let k = rng.next_u32() as usize % input.specials.len();
                            encode(input.format, input.specials[k], &input.range)
                        } else {
                            random_element(&mut rng, input.format, &input.range)
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The lowered whole-tile program for `arch` and the whole-tile state it starts from, with
    /// random inputs and random unspecified state chosen by `seed`.
    pub fn build(&self, arch: Arch, seed: u64) -> Result<TileCase, KernelError> {
        self.build_with(arch, seed, self.random_inputs(seed), &LowerOptions::default())
    }

    /// As [`build`](KernelDef::build), with the given input tiles and lowering options.
    pub fn build_with(
        &self,
        arch: Arch,
        seed: u64,
        inputs: Vec<Vec<u32>>,
        opts: &LowerOptions,
    ) -> Result<TileCase, KernelError> {
        let kernel = self.chip_kernel(arch)?;
        let lowered = lower(&kernel, opts)?;
        let program = lowered.program(TILE_ROWS)?;
        let state = self.state(arch, seed, &inputs);
        Ok(TileCase {
            name: self.name.to_string(),
            arch,
            seed,
            kernel,
            lowered,
            rows: TILE_ROWS,
            program,
            state,
            inputs,
        })
    }

    /// The whole-tile state for `arch`: the tile format's Dst mode, random Dst bits with the
    /// input tiles written over them, random general LRegs and programmable constants, random
    /// PRNG state and SFPSHFT2 latch; everything else the documented reset state (zeros where
    /// the documentation leaves a value open).
    pub fn state(&self, arch: Arch, seed: u64, inputs: &[Vec<u32>]) -> State {
        let mut rng = Rng::new(seed, 1);
        let mut s = State::reset(arch, &ResetValues::ZEROS);
        let format = self.inputs.first().map_or(TileFormat::Fp32, |i| i.format);
        tile::configure(&mut s, format);
        for row in s.Dst.DstBits.iter_mut() {
            for cell in row.iter_mut() {
                *cell = rng.next_u32() as u16;
            }
        }
        for reg in (0..8).chain(12..15) {
            for lane in 0..LANES {
                s.LReg[reg][lane] = rng.next_u32();
            }
        }
        for lane in 0..LANES {
            s.PRNG[lane] = rng.next_u32();
        }
        if let Some(wh) = s.wormhole_mut() {
            for lane in 0..LANES {
                wh.SFPSHFT2_vc0[lane] = rng.next_u32();
            }
        }
        for (input, values) in self.inputs.iter().zip(inputs) {
            tile::write_tile(&mut s, input.base, input.format, values);
        }
        s
    }
}

impl TileCase {
    /// The program in tt-llk text form.
    pub fn text(&self) -> Result<String, KernelError> {
        self.lowered.text(self.rows)
    }

    /// The kernel's meaning on the initial state.
    pub fn expected(&self) -> Result<Expected, KernelError> {
        meaning::evaluate(&self.kernel, &self.state, self.rows)
    }

    /// Runs the program on `engine`.
    pub fn run(&self, engine: Engine) -> Result<Run, String> {
        run::run(engine, &self.program, &self.state)
    }
}

/// Every kernel of the corpus.
pub fn registry() -> Vec<KernelDef> {
    let mut v = Vec::new();
    v.extend(seed::kernels());
    v.extend(math::kernels());
    v.extend(activation::kernels());
    v.extend(convert::kernels());
    v.extend(data::kernels());
    v
}

/// The kernel called `name`.
pub fn find(name: &str) -> Option<KernelDef> {
    registry().into_iter().find(|k| k.name == name)
}
