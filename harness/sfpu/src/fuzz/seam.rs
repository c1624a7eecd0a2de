//! The test seam of the `diff_stream` oracle: a [`Mutation`] of the fast model's state, which the
//! `*_with` variants take to plant a divergence at run time.

use sfpu_fastpath::FastState;
use sfpu_reference::isa::Instr;

/// A test seam: a change made to the fast model's state right after it issues each instruction
/// (the instruction is passed), so a test can plant a divergence at run time without touching the
/// fast model. Only the `*_with` functions take one; [`compare`], [`divergence`] and
/// [`diff_stream`] run the models as they are. The comparison sees the change like any effect of
/// the instruction (Dst only where Dst is compared: after an instruction that may write it, and
/// after the final drain). Instructions SFPLOADMACRO schedules, and the final drain, are not
/// passed to it.
///
/// [`compare`]: super::compare
/// [`divergence`]: super::divergence
/// [`diff_stream`]: super::diff_stream
pub type Mutation = fn(&Instr, &mut FastState);
