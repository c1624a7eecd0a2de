//! The SFPU behind the harness's seam ([`harness_core::isa::Isa`]): chips Blackhole and Wormhole, the
//! 32-bit instruction word in tt-llk text form, the state snapshot of `sfpu-reference`, the taint
//! analysis's [`Locations`], the reference and fast models, the matrix of every (instruction,
//! mode value) of the chip, and the generator's random case of a mode value.

use sfpu_reference::isa::{Arch, Opcode, decode};
use sfpu_reference::{Outcome, State};

use super::declaration::Declaration;
use super::generate::{modes_for, random_case_in_mode_for};
use super::model::{FastModel, Reference};
use super::taint::{self, Locations};
use harness_core::isa::{Cell, Isa, Model};
use harness_core::rng::Rng;

/// The Tenstorrent Tensix Vector Unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sfpu;

impl Isa for Sfpu {
    const NAME: &'static str = "sfpu";
    type Chip = Arch;
    type Word = u32;
    type State = State;
    type Locations = Locations;
    type Outcome = Outcome;
    type Declaration = Declaration;

    fn chips() -> Vec<Arch> {
        vec![Arch::Blackhole, Arch::Wormhole]
    }

    fn chip_name(chip: Arch) -> String {
        chip.to_string()
    }

    fn word_hex(word: u32) -> String {
        format!("0x{word:08x}")
    }

    fn disassemble(chip: Arch, word: u32) -> Result<String, String> {
        decode(chip, word).map(|i| i.display(chip).to_string()).map_err(|e| e.to_string())
    }

    fn differing(expected: &State, actual: &State, skip: &Locations) -> Locations {
        taint::differing(expected, actual, skip)
    }

    fn is_empty(locations: &Locations) -> bool {
        locations.is_empty()
    }

    fn describe(expected: &State, actual: &State, differing: &Locations) -> String {
        super::diff::describe(expected, actual, differing)
    }

    fn outcome_text(outcome: &Outcome) -> String {
        let notes: Vec<String> = outcome.notes().map(|(c, l)| format!("{}@0x{l:08x}", c.id())).collect();
        if notes.is_empty() { "defined".to_string() } else { notes.join(", ") }
    }

    fn reference() -> &'static dyn Model<Sfpu> {
        &Reference
    }

    fn fast() -> &'static dyn Model<Sfpu> {
        &FastModel
    }

    /// Every (instruction, mode value) of the chip, in opcode order (the rows of the matrix
    /// that random cases reach; the report adds the multi-instruction files and the kernels).
    fn cells(chip: Arch) -> Vec<Cell> {
        chip.opcodes()
            .iter()
            .flat_map(|op| {
                modes_for(chip, *op).into_iter().map(move |(mode, label)| Cell {
                    instruction: op.name().to_string(),
                    mode,
                    label,
                })
            })
            .collect()
    }

    fn random_case(chip: Arch, cell: &Cell, rng: &mut Rng) -> Option<(State, Vec<u32>)> {
        let op = Opcode::from_name(&cell.instruction)?;
        let index = modes_for(chip, op).iter().position(|(m, _)| *m == cell.mode)?;
        let case = random_case_in_mode_for(chip, op, index, rng);
        let words = case.program.iter().map(|i| i.encode(chip)).collect::<Result<Vec<u32>, _>>().ok()?;
        Some((case.pre, words))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cells_are_every_mode_value_of_the_chip() {
        // SFPMAD's Mod1 is four bits (the encoding table: Mod1[3:0]), each a flag Blackhole
        // names (NEGATE_VA = 1, NEGATE_VC = 2, INDIRECT_VA = 4, INDIRECT_VD = 8): 16 values.
        let bh = Sfpu::cells(Arch::Blackhole);
        assert_eq!(bh.iter().filter(|c| c.instruction == "SFPMAD").count(), 16);
        // Wormhole has no SFPMUL24 (a Blackhole instruction).
        assert!(bh.iter().any(|c| c.instruction == "SFPMUL24"));
        assert!(!Sfpu::cells(Arch::Wormhole).iter().any(|c| c.instruction == "SFPMUL24"));
    }

    #[test]
    fn a_random_case_of_a_cell_is_in_that_cell() {
        let cells = Sfpu::cells(Arch::Wormhole);
        let cell = cells.iter().find(|c| c.instruction == "SFPIADD").unwrap();
        let (_, program) = Sfpu::random_case(Arch::Wormhole, cell, &mut Rng::new(3)).unwrap();
        let text = Sfpu::disassemble(Arch::Wormhole, *program.last().unwrap()).unwrap();
        assert!(text.contains("SFPIADD"), "{text}");
        assert_eq!(Sfpu::chip_named("WORMHOLE"), Some(Arch::Wormhole));
    }
}
