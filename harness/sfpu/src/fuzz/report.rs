//! The divergence report: a difference between the models, minimised, as a [`Divergence`] whose
//! `Display` is the whole report (the stream, the differing lanes and values, the outcomes) with a
//! regression vector whose expected values are the reference model's.

use std::fmt;

use sfpu_reference::State;
use sfpu_reference::isa::{Arch, Instr};
use sfpu_reference::state::LANES;

use super::input::lanes_of;
use super::lockstep::{Found, lanes_in};
use super::minimise::minimise;
use super::seam::Mutation;
use super::shape::{mode_of, shape};
use crate::campaign::regression_snippet;
use crate::generate::{Case, to_vector};
use crate::vectors::Vector;

/// A difference between the two models, minimised, with everything needed to report it.
#[derive(Clone, Debug)]
pub struct Divergence {
    /// Where the input came from (`fuzz-1a2b3c4d`), used in the regression vector's id.
    pub origin: String,
    /// The stream's length before minimisation.
    pub original_len: usize,
    /// The minimised initial state.
    pub pre: State,
    /// The minimised stream.
    pub program: Vec<Instr>,
    /// The first difference in the minimised case.
    pub found: Found,
    /// The failure shape ([`shape`]).
    pub shape: String,
    /// The regression vector (expected values from the reference model).
    pub vector: Vector,
}

impl Divergence {
    /// The regression vector as YAML, ready to paste under `vectors:` in the chip's
    /// `vectors/<arch>/regressions.yaml` ([`Divergence::regressions_file`]).
    pub fn snippet(&self) -> String {
        regression_snippet(&self.vector, &self.origin)
    }

    /// The chip the divergence is on.
    pub fn arch(&self) -> Arch {
        self.pre.arch()
    }

    /// The regressions file of the chip, relative to the repository root.
    pub fn regressions_file(&self) -> String {
        format!("vectors/{}/regressions.yaml", self.arch())
    }

    /// The diverging instruction (`None` when the difference appeared in the final drain).
    pub fn instruction(&self) -> Option<&Instr> {
        self.program.get(self.found.index)
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let where_ = match self.instruction() {
            Some(i) => format!("instruction {} ({} {})", self.found.index, i.opcode().name(), mode_of(i)),
            None => "the final drain of SFPLOADMACRO's schedule".to_string(),
        };
        let arch = self.arch();
        writeln!(f, "diff_stream: the fast model diverges from the reference on {arch} at {where_}")?;
        writeln!(
            f,
            "shape: {} (stream minimised from {} to {} instructions)",
            self.shape,
            self.original_len,
            self.program.len()
        )?;
        writeln!(f, "stream:")?;
        for (i, instr) in self.program.iter().enumerate() {
            let mark = if i == self.found.index { ">" } else { " " };
            writeln!(
                f,
                "  {mark}{i:>3}  0x{:08x}  {}",
                instr.encode(arch).unwrap_or_else(|_| instr.encode_blackhole()),
                instr.display(arch)
            )?;
        }
        writeln!(f, "diverging lanes: 0x{:08x}", lanes_in(&self.found.differing) | self.found.vc0)?;
        if !self.found.differing.is_empty() {
            writeln!(f, "state (expected = reference, got = fastpath):")?;
            f.write_str(&crate::diff::describe(
                &self.found.reference,
                &self.found.fast,
                &self.found.differing,
            ))?;
        }
        if self.found.vc0 != 0 {
            let latch = |s: &State| s.wormhole().map_or([0; LANES], |wh| wh.SFPSHFT2_vc0);
            let (e, g) = (latch(&self.found.reference), latch(&self.found.fast));
            for l in lanes_of(self.found.vc0) {
                writeln!(f, "  SFPSHFT2_vc0[{l}]: expected 0x{:08x}, got 0x{:08x}", e[l], g[l])?;
            }
        }
        if let Some((r, x)) = &self.found.outcomes {
            writeln!(f, "outcome:\n  reference: {r}\n  fastpath:  {x}")?;
        }
        writeln!(f, "replay: cargo xtask fuzz --triage <artifact>  (appends the vector below)")?;
        writeln!(
            f,
            "regression vector (expected values are the reference model's; paste under `vectors:` in {}):",
            self.regressions_file()
        )?;
        f.write_str(&self.snippet())
    }
}

/// FNV-1a, 32 bits, of `data`: the origin tag of an input without a name.
pub fn input_tag(data: &[u8]) -> String {
    let h = data.iter().fold(0x811C_9DC5u32, |h, &b| (h ^ b as u32).wrapping_mul(0x0100_0193));
    format!("fuzz-{h:08x}")
}

/// Minimises a divergence of `pre`/`program` and builds its report.
pub fn divergence(origin: &str, pre: &State, program: &[Instr], first: Found) -> Divergence {
    divergence_with(origin, pre, program, first, None)
}

/// [`divergence`] of a difference found with a [`Mutation`] of the fast model (a test seam): the
/// minimiser replays every candidate with the same mutation. The regression vector is the
/// reference's either way.
pub fn divergence_with(
    origin: &str,
    pre: &State,
    program: &[Instr],
    first: Found,
    mutation: Option<Mutation>,
) -> Divergence {
    let original_len = program.len();
    let (pre, program, found) = minimise(pre.clone(), program.to_vec(), first, mutation);
    let shape = shape(&program, &found);
    let mode = program.get(found.index).map(mode_of);
    let name = match program.get(found.index) {
        Some(i) => format!("{}-{}", i.opcode().name(), mode.clone().unwrap_or_default()),
        None => "drain".to_string(),
    };
    let case = Case {
        name: name.replace(',', "-"),
        mode,
        mode_label: None,
        tags: vec!["fuzz".to_string(), format!("fuzz-shape:{shape}")],
        program: program.clone(),
        pre: pre.clone(),
    };
    let vector = to_vector("fuzz", &case);
    Divergence { origin: origin.to_string(), original_len, pre, program, found, shape, vector }
}
